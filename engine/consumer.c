/*
 * The consumer actor: a CPU that is not the NAPI's taking its frames
 * (xdp_cpumap's kthread) or its skbs (tcp's reader on app_cpu).  It spends its own cycles and memory accesses,
 * through the same memory model from its own core, and frees pages from
 * its own context: page_pool sees puts from a CPU that does not poll the
 * pool's NAPI.  When it is slower than the NAPI its ring fills and the
 * NAPI drops (rxq.c, cpumap_flush).
 */
#include <simgrid/engine.h>
#include "world.h"

void consumer_kick(struct world *w)
{
	struct consumer *k = w->cons;

	if (k && k->sleeping && rxq_consumer_pending(k->q)) {
		k->sleeping = false;
		sg_sem_release(k->wake);
	}
}

void consumer_actor(int argc, char **argv)
{
	struct world *w = self_world();
	struct consumer *k = w->cons;
	double freq = w->c->mem.freq;

	(void)argc;
	(void)argv;
	for (;;) {
		struct mem_work work;

		if (!rxq_consumer_pending(k->q)) {
			k->sleeping = true;
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
