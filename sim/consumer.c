/*
 * The consumer actor: a CPU that is not the NAPI's taking its frames
 * (xdp_cpumap's kthread), its skbs (tcp's reader on app_cpu) or the
 * completions of what it sent out of the other port (that port's NAPI).
 * It spends its own cycles and memory accesses, through the same memory
 * model from its own core, and frees pages from its own context: page_pool
 * sees puts from a CPU that does not poll the pool's NAPI.  When it is
 * slower than the NAPI its ring (or socket) fills and the NAPI drops
 * (model/workload/: xdp_cpumap.c's cpumap_flush, tcp.c's tcp_wl_rx).
 */
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include "consumer.h"
#include "nic.h"

void consumer_kick(struct consumer *k)
{
	if (k && k->sleeping && rxq_consumer_pending(k->q)) {
		k->sleeping = false;
		sg_sem_release(k->wake);
	}
}

void consumer_port_irq(void *data)
{
	consumer_kick(data);
}

/*
 * The other port's NAPI waits for its irq: a completion the NIC writes
 * when someone brings it up to date (nic_queue_up raises it through the
 * NIC's port_irq hook), or, if nobody does, its own look when the NIC's
 * next send is due.  The irq then takes irq_delay, as a queue's own does.
 */
static void port_wait(struct consumer *k)
{
	double now = simgrid_get_clock(), next = rxq_nic_next(k->q);

	if (isinf(next)) {
		sg_sem_acquire(k->wake);
	} else if (sg_sem_acquire_timeout(k->wake, fmax(0, next - now))) {
		k->sleeping = false;	/* nobody looked: it does */
		nic_catch_up(k->nic, NULL, false, simgrid_get_clock());
		if (nic_dma_due(k->nic))
			nic_dma_kick(k->nic);
		if (!rxq_consumer_pending(k->q))
			return;
	}
	if (k->c->hw.irq_delay > 0)
		sg_actor_sleep_for(k->c->hw.irq_delay);
}

void consumer_actor(int argc, char **argv)
{
	struct consumer *k = sg_actor_self_get_data();
	double freq = k->c->mem.freq;

	(void)argc;
	(void)argv;
	for (;;) {
		struct mem_work work;

		if (!rxq_consumer_pending(k->q)) {
			k->sleeping = true;
			if (rxq_port_remote(k->q)) {
				port_wait(k);
				continue;
			}
			sg_sem_acquire(k->wake);
			/* a sleeping kthread's wake-up takes the scheduler's
			 * time too: not modelled (guess: it is small beside a
			 * batch's work at these rates) */
			continue;
		}
		rxq_consume(k->q, &k->ctx, &work);
		/* its own CPU: nothing else runs there */
		sg_actor_sleep_for(work.cycles / freq + work.stall);
		k->cpu_s += work.cycles / freq;
		k->stall_s += work.stall;
	}
}
