#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include "consumer.h"
#include "napi.h"
#include "nic.h"
#include "platform.h"

/*
 * Nothing to poll: wait for the irq.  While the DMA engine is busy it
 * looks at every queue when its burst ends, and whoever hands the queue a
 * completion raises the irq; an idle engine wakes such waiters, since
 * then nobody else may look: the queue's next packet is the irq (after
 * irq_delay).  Before the migration the wait ends at migrate_at.
 */
static void napi_idle(struct napi *n, bool migrated)
{
	const struct sim_case *c = n->c;
	struct nic_queue *nq = n->nq;
	double now = simgrid_get_clock(), until = INFINITY;
	bool raised;

	nic_queue_up(n->nic, nq, now, true);	/* a queue without descriptors */
	nic_dma_kick(n->nic);
	nq->irq_by_dma = !nic_dma_idle(n->nic);
	if (!nq->irq_by_dma)
		until = nq->next + c->hw.irq_delay;
	/* nobody may look when an XDP_TX frame's read comes back and its
	 * completion is written: that is an irq too */
	until = fmin(until, rxq_nic_next(n->q) + c->hw.irq_delay);
	if (!migrated)
		until = fmin(until, c->load.migrate_at);
	nq->irq_armed = true;
	if (isinf(until)) {
		sg_sem_acquire(nq->irq);
		raised = true;
	} else {
		raised = !sg_sem_acquire_timeout(nq->irq, until - now);
	}
	nq->irq_armed = false;
	if (raised && rxq_pending(n->q) && c->hw.irq_delay > 0)
		sg_actor_sleep_for(c->hw.irq_delay);
}

/*
 * Whether nobody but this NAPI can look at the machine before t: one
 * queue, no consumer actor, idle DMA engines (only this NAPI's catch-ups
 * can wake them), the monitor and the migration later.  Then the NAPI
 * runs its polls ahead of SimGrid's clock, keeping its own, and meets
 * SimGrid only when another actor may look: one SimGrid activity for a
 * run of polls instead of one each, the same events at the same times.
 */
static bool alone_until(const struct napi *n, bool migrated, double t)
{
	return !n->lockstep && n->nic->nq == 1 && !n->cons &&
	       nic_dma_idle(n->nic) && t < *n->monitor_at &&
	       (migrated || t < n->c->load.migrate_at);
}

/* Brings SimGrid's clock to a NAPI that ran ahead. */
static void catch_clock(double t)
{
	if (t > simgrid_get_clock())
		sg_actor_sleep_until(t);
}

/* Moves the NAPI to its CPU after the migration. */
static void migrate(struct napi *n)
{
	const struct sim_case *c = n->c;

	n->ctx.cpu = c->load.migrate_cpu + n->index % sim_queue_cpus(c);
	sg_actor_set_host(sg_actor_self(), platform_cpu_host(n->ctx.cpu));
	n->ctx.node = mem_node_of_cpu(&c->mem, n->ctx.cpu);
}

/* One poll's time, the same noise on work and waiting: a poll runs longer
 * or shorter as a whole. */
static void jitter(struct napi *n, struct rxq_poll *poll)
{
	double f = fmax(0.5, 1 + gsl_ran_gaussian(n->rng, n->c->hw.jitter));

	poll->cpu.cycles *= f;
	poll->cpu.stall *= f;
	for (int k = 0; k < MEM_NR_KINDS; k++)
		for (int p = 0; p < MEM_NR_PLACES; p++)
			poll->cpu.stall_at[k][p] *= f;
}

static void account(struct napi *n, const struct rxq_poll *poll)
{
	n->cpu_s += poll->cpu.cycles / n->c->mem.freq;
	n->stall_s += poll->cpu.stall;
	for (int k = 0; k < MEM_NR_KINDS; k++)
		for (int p = 0; p < MEM_NR_PLACES; p++)
			n->stall_at[k][p] += poll->cpu.stall_at[k][p];
}

void napi_actor(int argc, char **argv)
{
	struct napi *n = sg_actor_self_get_data();
	const struct sim_case *c = n->c;
	bool migrated = c->load.migrate_at < 0, busy = false;
	double now = simgrid_get_clock();	/* this NAPI's: see alone_until */

	(void)argc;
	(void)argv;
	for (;;) {
		struct rxq_poll poll;
		double t0 = now;

		if (!migrated && t0 >= c->load.migrate_at) {
			catch_clock(t0);
			migrate(n);
			migrated = true;
		}
		nic_catch_up(n->nic, n->nq, false, t0);
		if (!rxq_pending(n->q)) {
			catch_clock(t0);
			napi_idle(n, migrated);
			now = simgrid_get_clock();
			n->idle_s += now - t0;
			busy = true;	/* the irq's delay is paid */
			continue;
		}
		if (!busy && c->hw.irq_delay > 0) {
			/* the last poll completed NAPI: the completions that
			 * came meanwhile raise the irq at once */
			now = t0 + c->hw.irq_delay;
			if (!alone_until(n, migrated, now))
				catch_clock(now);
			n->idle_s += c->hw.irq_delay;
			busy = true;
			continue;
		}
		rxq_napi_poll(n->q, &n->ctx, &poll);
		if (c->hw.jitter > 0)
			jitter(n, &poll);
		if (n->cpu_shared) {
			catch_clock(t0);
			sg_actor_execute(poll.cpu.cycles +
					 poll.cpu.stall * c->mem.freq);
			now = simgrid_get_clock();
		} else {	/* the same time, without SimGrid's CPU sharing */
			now = t0 + poll.cpu.cycles / c->mem.freq + poll.cpu.stall;
			if (!alone_until(n, migrated, now))
				catch_clock(now);
		}
		consumer_kick(n->cons);	/* the poll's frames are in its ring */
		nic_catch_up(n->nic, n->nq, true, now);
		if (nic_dma_due(n->nic)) {
			catch_clock(now);
			nic_dma_kick(n->nic);
		}
		rxq_post(n->q);
		busy = poll.busy;
		account(n, &poll);
	}
}
