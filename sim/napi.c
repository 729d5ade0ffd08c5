#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>
#include <simgrid/engine.h>
#include "world.h"

/*
 * Nothing to poll: wait for the irq.  While the DMA engine is busy it
 * looks at every queue when its burst ends, and whoever hands the queue a
 * completion raises the irq; an idle engine wakes such waiters, since
 * then nobody else may look: the queue's next packet is the irq (after
 * irq_delay).  Before the migration the wait ends at migrate_at.
 */
static void napi_idle(struct world *w, struct napi *n, bool migrated)
{
	const struct sim_case *c = w->c;
	double now = simgrid_get_clock(), until = INFINITY;
	bool raised;

	nic_queue(w, n, now, true);	/* a queue without descriptors */
	nic_dma_kick(w);
	n->irq_by_engine = !nic_dma_idle(w);
	if (!n->irq_by_engine)
		until = n->next + c->hw.irq_delay;
	/* nobody may look when an XDP_TX frame's read comes back and its
	 * completion is written: that is an irq too */
	until = fmin(until, rxq_nic_next(n->q) + c->hw.irq_delay);
	if (!migrated)
		until = fmin(until, c->load.migrate_at);
	n->irq_armed = true;
	if (isinf(until)) {
		sg_sem_acquire(n->irq);
		raised = true;
	} else {
		raised = !sg_sem_acquire_timeout(n->irq, until - now);
	}
	n->irq_armed = false;
	if (raised && rxq_pending(n->q) && c->hw.irq_delay > 0)
		sg_actor_sleep_for(c->hw.irq_delay);
}

/*
 * Whether nobody but this NAPI can look at the machine before t: one
 * queue, no consumer actor, an idle DMA engine (only this NAPI's catch-ups
 * can wake it), the monitor and the migration later.  Then the NAPI runs its polls ahead of
 * SimGrid's clock, keeping its own, and meets SimGrid only when another
 * actor may look: one SimGrid activity for a run of polls instead of one
 * each, the same events at the same times.
 */
static bool alone_until(const struct world *w, bool migrated, double t)
{
	return !w->lockstep && w->nq == 1 && !w->cons && nic_dma_idle(w) &&
	       t < w->monitor_at && (migrated || t < w->c->load.migrate_at);
}

/* Brings SimGrid's clock to a NAPI that ran ahead. */
static void catch_clock(double t)
{
	if (t > simgrid_get_clock())
		sg_actor_sleep_until(t);
}

void napi_actor(int argc, char **argv)
{
	struct world *w = self_world();
	const struct sim_case *c = w->c;
	int i = atoi(argv[0]);
	struct napi *n = &w->napi[i];
	bool migrated = c->load.migrate_at < 0, busy = false;
	double now = simgrid_get_clock();	/* this NAPI's: see alone_until */

	(void)argc;
	for (;;) {
		struct rxq_poll poll;
		double t0 = now;

		if (!migrated && t0 >= c->load.migrate_at) {
			catch_clock(t0);
			n->ctx.cpu = c->load.migrate_cpu + i % sim_queue_cpus(c);
			sg_actor_set_host(sg_actor_self(), platform_cpu_host(n->ctx.cpu));
			n->ctx.node = n->ctx.cpu / c->mem.cores;
			migrated = true;
		}
		nic_catch_up(w, n, false, t0);
		if (!rxq_pending(n->q)) {
			catch_clock(t0);
			napi_idle(w, n, migrated);
			now = simgrid_get_clock();
			n->idle_s += now - t0;
			busy = true;	/* the irq's delay is paid */
			continue;
		}
		if (!busy && c->hw.irq_delay > 0) {
			/* the last poll completed NAPI: the completions that
			 * came meanwhile raise the irq at once */
			now = t0 + c->hw.irq_delay;
			if (!alone_until(w, migrated, now))
				catch_clock(now);
			n->idle_s += c->hw.irq_delay;
			busy = true;
			continue;
		}
		rxq_napi_poll(n->q, &n->ctx, &poll);
		if (c->hw.jitter > 0) {
			/* the same noise on work and waiting: a poll runs
			 * longer or shorter as a whole */
			double f = fmax(0.5, 1 + gsl_ran_gaussian(w->rng,
								    c->hw.jitter));

			poll.cpu.cycles *= f;
			poll.cpu.stall *= f;
			for (int k = 0; k < MEM_NR_KINDS; k++)
				for (int p = 0; p < MEM_NR_PLACES; p++)
					poll.cpu.stall_at[k][p] *= f;
		}
		if (w->cpu_shared) {
			catch_clock(t0);
			sg_actor_execute(poll.cpu.cycles + poll.cpu.stall * c->mem.freq);
			now = simgrid_get_clock();
		} else {	/* the same time, without SimGrid's CPU sharing */
			now = t0 + poll.cpu.cycles / c->mem.freq + poll.cpu.stall;
			if (!alone_until(w, migrated, now))
				catch_clock(now);
		}
		consumer_kick(w);	/* the poll's frames are in its ring */
		nic_catch_up(w, n, true, now);
		if (nic_dma_due(w)) {
			catch_clock(now);
			nic_dma_kick(w);
		}
		rxq_post(n->q);
		busy = poll.busy;
		n->cpu_s += poll.cpu.cycles / c->mem.freq;
		n->stall_s += poll.cpu.stall;
		for (int k = 0; k < MEM_NR_KINDS; k++)
			for (int p = 0; p < MEM_NR_PLACES; p++)
				n->stall_at[k][p] += poll.cpu.stall_at[k][p];
	}
}
