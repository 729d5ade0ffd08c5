#include <math.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <simgrid/comm.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include "nic.h"

/* Where the i-th flow of a direction ends: node i's memory, then the
 * root complex. */
int nic_slot(const struct nic *nic, int i)
{
	return i < mem_nr_nodes(&nic->c->mem) ? i : PCIE_LINK;
}

/* Receives the NIC's upstream traffic at a node's memory or the root
 * complex: the transfer time is what SimGrid's network model makes of
 * PCIe's up link, the interconnect and the memory channels, shared
 * between every flow on them. */
void nic_dma_sink(int argc, char **argv)
{
	struct nic_end *e = sg_actor_self_get_data();

	(void)argc;
	(void)argv;
	for (;;)
		sg_mailbox_get(e->up);
}

/* Sends the downstream traffic from a node's memory or the root complex
 * to the NIC when the DMA engine asks: a transfer must start at the host
 * it leaves to take the down link. */
void nic_dma_source(int argc, char **argv)
{
	struct nic_end *e = sg_actor_self_get_data();

	(void)argc;
	(void)argv;
	for (;;) {
		sg_sem_acquire(e->go);
		sg_mailbox_put(e->down, e, (long)e->burst);
	}
}

/*
 * The NIC keeps no clock of its own.  Packets arrive at each queue as a
 * Poisson process, and what becomes of them depends only on the
 * descriptors posted, which change only when a NAPI posts.  So the NIC
 * catches up whenever an actor looks: a NAPI before it polls and before it
 * posts, the DMA engine after each burst, the monitor before a sample.
 * Between two looks a queue draws the time of its next packet and a
 * Poisson count of those after it; a queue with no free descriptor and
 * nothing to send is left alone until a post (everything arriving
 * meanwhile is dropped, and one draw then counts it).  SimGrid sees at
 * most one activity per poll (see alone_until) and one transfer per DMA
 * burst.
 */

static double dma_pending_bytes(const struct nic *nic, enum pcie_dir d)
{
	double total = 0;

	for (int i = 0; i <= mem_nr_nodes(&nic->c->mem); i++)
		total += nic->dma[d].pending[nic_slot(nic, i)];
	return total;
}

static bool dma_burst_ready(const struct nic *nic, enum pcie_dir d)
{
	return dma_pending_bytes(nic, d) >= nic->dma_burst;
}


/* A Poisson count of mean mu, in pieces: GSL's draw is an unsigned int,
 * and a long sample interval at line rate exceeds it. */
u64 nic_poisson(gsl_rng *rng, double mu)
{
	u64 n = 0;

	for (; mu > 1e9; mu -= 1e9)
		n += gsl_ran_poisson(rng, 1e9);
	return n + gsl_ran_poisson(rng, mu);
}

/*
 * Packets arriving for queue n up to now (RSS spreads them evenly), and
 * how many of them the NIC can handle at its own packet rate per queue (a
 * credit that does not pile up while idle): the rest is dropped.  When
 * the count is sure to exceed the credit (odds of the contrary below
 * 1e-14), only the drop counter needs it: it is drawn at the next
 * snapshot, once for all such intervals (a sum of independent Poisson
 * counts is a Poisson count), which saves the costly draws of a queue
 * offered more than it takes.
 */
static u64 arrivals(struct nic *nic, struct nic_queue *n, double now)
{
	struct nic_arrivals *a = &nic->arr;
	double mu;
	u64 got, take;

	if (now < n->next)
		return 0;
	mu = a->queue_pps * (now - n->next);	/* after the one at next */
	n->next = now + gsl_ran_exponential(a->rng, 1 / a->queue_pps);
	n->credit += nic->c->hw.nic_max_pps * (now - n->credit_t);
	n->credit_t = now;
	if (1 + mu - n->credit > 8 * sqrt(mu)) {
		a->mu_uncounted += mu;
		got = 1;
		take = (u64)n->credit;
	} else {
		got = 1 + nic_poisson(a->rng, mu);
		take = got < n->credit ? got : (u64)n->credit;
	}
	n->credit = fmin(n->credit - (double)take, nic->c->rxq.budget);
	a->arrived += got;
	a->taken += take;
	return take;
}

/* What the NIC's buffer holds at now: what waits for a burst to go up,
 * and what the burst under way has not moved yet, the link draining it
 * at its rate (the burst is an accounting unit: the DMA engine moves
 * bytes as they come). */
static double dma_buffered(const struct nic *nic, double now)
{
	const struct nic_dma *up = &nic->dma[PCIE_UP];
	double moved = nic->link_bw * (now - up->since);

	return dma_pending_bytes(nic, PCIE_UP) +
	       fmax(0, up->inflight - moved);
}

/* Wakes a NAPI waiting in napi_idle(). */
void nic_raise_irq(struct nic_queue *n)
{
	n->irq_armed = false;
	sg_sem_release(n->irq);
}

/* Queue n up to now: packets into posted pages, XDP_TX frames out, their
 * bytes onto the DMA burst of each direction, and the irq if NAPI waits
 * for one.  A packet needs a posted descriptor and room in the NIC's
 * packet buffer; what is refused is counted against the scarcer of the
 * two over the interval (rx_out_of_buffer, rx_discards_phy).  Unless
 * forced, a blocked queue waits. */
void nic_queue_up(struct nic *nic, struct nic_queue *n, double now,
		  bool force)
{
	const struct sim_case *c = nic->c;
	struct pcie_traffic t = { { { 0 } } };
	u64 take;

	if (!force && rxq_nic_blocked(n->q))
		return;
	take = arrivals(nic, n, now);
	if (take) {
		double room = fmax(0, (c->hw.nic_buffer -
				       dma_buffered(nic, now)) /
				      (c->rxq.pkt_size + 128));
		double free = rxq_nic_free(n->q);
		u64 keep = (u64)fmin((double)take, fmin(free, room));

		if (free <= room)
			rxq_nic_drop(n->q, take - keep);
		else
			nic->arr.buffer_drops += take - keep;
		rxq_nic_rx(n->q, (int)keep, now, &t);
	}
	rxq_nic_tx(n->q, now, &t);
	for (int d = 0; d < PCIE_NR_DIRS; d++) {
		struct nic_dma *dma = &nic->dma[d];

		for (int i = 0; i <= mem_nr_nodes(&c->mem); i++) {
			int s = nic_slot(nic, i);

			dma->pending[s] += t.bytes[d][s];
		}
		dma->carried += pcie_traffic_dir(&t, d);
		if (dma->waiting && dma_burst_ready(nic, d))
			dma->due = true;
	}
	if (n->irq_armed && rxq_pending(n->q))
		nic_raise_irq(n);
	if (rxq_port_remote(n->q) && nic->port_irq)
		nic->port_irq(nic->port_irq_data);
}

void nic_dma_kick(struct nic *nic)
{
	for (int d = 0; d < PCIE_NR_DIRS; d++) {
		struct nic_dma *dma = &nic->dma[d];

		if (dma->due) {
			dma->due = false;
			dma->waiting = false;
			sg_sem_release(dma->wake);
		}
	}
}

/*
 * The NIC up to now for a NAPI (self; posting: it is about to post
 * descriptors, which what arrived before must not find), the DMA engine
 * or the monitor (self NULL).  Every queue, each in turn first for the
 * buffer; but when every queue was brought up less than NIC_GRAIN ago, a
 * NAPI brings only its own: the others' packets then reach memory at most
 * NIC_GRAIN late, and the cost does not grow with the square of the
 * queues.
 */
#define NIC_GRAIN	1e-6	/* s */

void nic_catch_up(struct nic *nic, struct nic_queue *self, bool posting,
		  double now)
{
	struct nic_arrivals *a = &nic->arr;

	if (self && now - a->all_at < NIC_GRAIN) {
		nic_queue_up(nic, self, now, posting);
		return;
	}
	a->all_at = now;
	a->first_queue = (a->first_queue + 1) % nic->nq;
	for (int i = 0; i < nic->nq; i++) {
		struct nic_queue *n = &nic->queue[(a->first_queue + i) %
						  nic->nq];

		nic_queue_up(nic, n, now, posting && n == self);
	}
}

void nic_count_all(struct nic *nic, double now)
{
	for (int i = 0; i < nic->nq; i++)
		nic_queue_up(nic, &nic->queue[i], now, true);
}

u64 nic_phy_drops(struct nic *nic)
{
	struct nic_arrivals *a = &nic->arr;

	a->arrived += nic_poisson(a->rng, a->mu_uncounted);
	a->mu_uncounted = 0;
	return a->arrived - a->taken + a->buffer_drops;
}

/* The last engine to wait: nobody else will look, so the NAPIs that
 * counted on an engine's look take their irq now. */
static void dma_wait(struct nic_dma *dma)
{
	struct nic *nic = dma->nic;

	dma->waiting = true;
	for (int i = 0; i < nic->nq && nic_dma_idle(nic); i++)
		if (nic->queue[i].irq_armed && nic->queue[i].irq_by_dma)
			nic_raise_irq(&nic->queue[i]);
	sg_sem_acquire(dma->wake);
}

/* Sends the pending bytes as one burst to (up) or from (down) each end,
 * all at once, and waits for the lot. */
static void dma_burst(struct nic_dma *dma)
{
	struct nic *nic = dma->nic;
	sg_comm_t comms[PCIE_LINK + 1];
	double burst[PCIE_LINK + 1];
	void *got[PCIE_LINK + 1];
	size_t nc = 0;

	/* taken at once: put_async lets the others run */
	memcpy(burst, dma->pending, sizeof(burst));
	memset(dma->pending, 0, sizeof(dma->pending));
	dma->since = simgrid_get_clock();
	for (int i = 0; i <= mem_nr_nodes(&nic->c->mem); i++) {
		int s = nic_slot(nic, i);
		struct nic_end *e = &nic->end[s];
		double bytes = floor(burst[s]);

		/* whole bytes go, fractions of a DLLP wait; so do the few
		 * bytes that end at the root complex (DLLPs, MMIO, MSI-X)
		 * until they fill a sixteenth of a burst: one transfer a
		 * burst fewer, the same bytes over time */
		if (s == PCIE_LINK && bytes < nic->dma_burst / 16)
			bytes = 0;
		dma->pending[s] = burst[s] - bytes;
		dma->inflight += bytes;
		if (bytes <= 0)
			continue;
		if (dma->dir == PCIE_UP) {
			comms[nc++] = sg_mailbox_put_async(e->up, e,
							   (long)bytes);
		} else {
			e->burst = bytes;
			sg_sem_release(e->go);
			comms[nc++] = sg_mailbox_get_async(e->down, &got[s]);
		}
	}
	sg_comm_wait_all(comms, nc);
	dma->inflight = 0;
}

/*
 * A DMA engine (its data: struct nic_dma): sends each burst of its
 * direction to (up) or from (down) the nodes and the root complex, all at
 * once, and takes what arrived while it was busy.  The two run side by
 * side, each on its half of the link: a burst of one never waits for the
 * other's.  A down burst must start where it leaves: the end's source
 * actor sends it when asked.
 */
void nic_dma_actor(int argc, char **argv)
{
	struct nic_dma *dma = sg_actor_self_get_data();

	(void)argc;
	(void)argv;
	for (;;) {
		if (!dma_burst_ready(dma->nic, dma->dir)) {
			dma_wait(dma);
			continue;
		}
		dma_burst(dma);
		nic_catch_up(dma->nic, NULL, false, simgrid_get_clock());
	}
}
