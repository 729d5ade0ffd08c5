#include <math.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include "world.h"

/* Where the i-th flow of a direction ends: node i's memory, then the
 * root complex. */
int nic_slot(const struct world *w, int i)
{
	return i < w->c->mem.sockets ? i : PCIE_LINK;
}

/* Receives the NIC's upstream traffic at a node's memory or the root
 * complex: the transfer time is what SimGrid's network model makes of
 * PCIe's up link, the interconnect and the memory channels, shared
 * between every flow on them. */
void nic_dma_sink(int argc, char **argv)
{
	struct world *w = self_world();
	int slot = atoi(argv[0]);

	(void)argc;
	for (;;)
		sg_mailbox_get(w->up_mb[slot]);
}

/* Sends the downstream traffic from a node's memory or the root complex
 * to the NIC when the DMA engine asks: a transfer must start at the host
 * it leaves to take the down link. */
void nic_dma_source(int argc, char **argv)
{
	struct world *w = self_world();
	int slot = atoi(argv[0]);

	(void)argc;
	for (;;) {
		sg_sem_acquire(w->down_go[slot]);
		sg_mailbox_put(w->down_mb[slot], w, (long)w->down_burst[slot]);
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

static double dma_pending_bytes(const struct world *w, enum pcie_dir d)
{
	double total = 0;

	for (int i = 0; i <= w->c->mem.sockets; i++)
		total += w->dma_pending[d][nic_slot(w, i)];
	return total;
}

static bool dma_burst_ready(const struct world *w, enum pcie_dir d)
{
	return dma_pending_bytes(w, d) >= w->dma_burst;
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
static u64 arrivals(struct world *w, struct napi *n, double now)
{
	double mu;
	u64 got, take;

	if (now < n->next)
		return 0;
	mu = w->queue_pps * (now - n->next);	/* after the one at next */
	n->next = now + gsl_ran_exponential(w->rng, 1 / w->queue_pps);
	n->credit += w->c->hw.nic_max_pps * (now - n->credit_t);
	n->credit_t = now;
	if (1 + mu - n->credit > 8 * sqrt(mu)) {
		w->mu_uncounted += mu;
		got = 1;
		take = (u64)n->credit;
	} else {
		got = 1 + nic_poisson(w->rng, mu);
		take = got < n->credit ? got : (u64)n->credit;
	}
	n->credit = fmin(n->credit - (double)take, w->c->rxq.budget);
	w->arrived += got;
	w->taken += take;
	return take;
}

/* What the NIC's buffer holds at now: what waits for a burst to go up,
 * and what the burst under way has not moved yet, the link draining it
 * at its rate (the burst is an accounting unit: the DMA engine moves
 * bytes as they come). */
static double dma_buffered(const struct world *w, double now)
{
	double moved = w->link_bw * (now - w->dma_since[PCIE_UP]);

	return dma_pending_bytes(w, PCIE_UP) +
	       fmax(0, w->dma_inflight[PCIE_UP] - moved);
}

/* Wakes a NAPI waiting in napi_idle(). */
void nic_raise_irq(struct napi *n)
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
void nic_queue(struct world *w, struct napi *n, double now, bool force)
{
	struct pcie_traffic t = { { { 0 } } };
	u64 take;

	if (!force && rxq_nic_blocked(n->q))
		return;
	take = arrivals(w, n, now);
	if (take) {
		double room = fmax(0, (w->c->hw.nic_buffer -
				       dma_buffered(w, now)) /
				      (w->c->rxq.pkt_size + 128));
		double free = rxq_nic_free(n->q);
		u64 keep = (u64)fmin((double)take, fmin(free, room));

		if (free <= room)
			rxq_nic_drop(n->q, take - keep);
		else
			w->buffer_drops += take - keep;
		rxq_nic_rx(n->q, (int)keep, now, &t);
	}
	rxq_nic_tx(n->q, now, &t);
	for (int d = 0; d < PCIE_NR_DIRS; d++) {
		double sum = pcie_traffic_dir(&t, d);

		for (int i = 0; i <= w->c->mem.sockets; i++) {
			int s = nic_slot(w, i);

			w->dma_pending[d][s] += t.bytes[d][s];
		}
		w->pcie_bytes[d] += sum;
		if (w->dma_waiting[d] && dma_burst_ready(w, d))
			w->dma_due[d] = true;
	}
	if (n->irq_armed && rxq_pending(n->q))
		nic_raise_irq(n);
	if (rxq_port_remote(n->q))	/* the other port's irq */
		consumer_kick(w);
}

/* Wakes the DMA engines that have a burst ready: the caller's clock must
 * be SimGrid's. */
void nic_dma_kick(struct world *w)
{
	for (int d = 0; d < PCIE_NR_DIRS; d++) {
		if (w->dma_due[d]) {
			w->dma_due[d] = false;
			w->dma_waiting[d] = false;
			sg_sem_release(w->dma_wake[d]);
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

void nic_catch_up(struct world *w, struct napi *self, bool posting,
			 double now)
{
	if (self && now - w->all_at < NIC_GRAIN) {
		nic_queue(w, self, now, posting);
		return;
	}
	w->all_at = now;
	w->first = (w->first + 1) % w->nq;
	for (int i = 0; i < w->nq; i++) {
		struct napi *n = &w->napi[(w->first + i) % w->nq];

		nic_queue(w, n, now, posting && n == self);
	}
}

/*
 * A DMA engine, argv[0] its direction (0 up, 1 down): sends each burst of
 * its direction to (up) or from (down) the nodes and the root complex,
 * all at once, and takes what arrived while it was busy.  The two run
 * side by side, each on its half of the link: a burst of one never waits
 * for the other's.  A down burst must start where it leaves: the node's
 * dma-source sends it when asked.
 */
void nic_dma_actor(int argc, char **argv)
{
	struct world *w = self_world();
	enum pcie_dir d = atoi(argv[0]) ? PCIE_DOWN : PCIE_UP;

	(void)argc;
	for (;;) {
		sg_comm_t comms[PCIE_LINK + 1];
		double burst[PCIE_LINK + 1];
		void *got[PCIE_LINK + 1];
		size_t nc = 0;

		if (!dma_burst_ready(w, d)) {
			w->dma_waiting[d] = true;
			/* the last engine to wait: nobody else will look */
			for (int i = 0; i < w->nq && nic_dma_idle(w); i++)
				if (w->napi[i].irq_armed &&
				    w->napi[i].irq_by_engine)
					nic_raise_irq(&w->napi[i]);
			sg_sem_acquire(w->dma_wake[d]);
			continue;
		}
		/* taken at once: put_async lets the others run */
		memcpy(burst, w->dma_pending[d], sizeof(burst));
		memset(w->dma_pending[d], 0, sizeof(w->dma_pending[d]));
		w->dma_since[d] = simgrid_get_clock();
		for (int i = 0; i <= w->c->mem.sockets; i++) {
			int s = nic_slot(w, i);
			double bytes = floor(burst[s]);

			/* whole bytes go, fractions of a DLLP wait; so do the
			 * few bytes that end at the root complex (DLLPs, MMIO,
			 * MSI-X) until they fill a sixteenth of a burst: one
			 * transfer a burst fewer, the same bytes over time */
			if (s == PCIE_LINK && bytes < w->dma_burst / 16)
				bytes = 0;
			w->dma_pending[d][s] = burst[s] - bytes;
			w->dma_inflight[d] += bytes;
			if (bytes <= 0)
				continue;
			if (d == PCIE_UP) {
				comms[nc++] = sg_mailbox_put_async(w->up_mb[s],
							w, (long)bytes);
			} else {
				w->down_burst[s] = bytes;
				sg_sem_release(w->down_go[s]);
				comms[nc++] = sg_mailbox_get_async(
						w->down_mb[s], &got[s]);
			}
		}
		sg_comm_wait_all(comms, nc);
		w->dma_inflight[d] = 0;
		nic_catch_up(w, NULL, false, simgrid_get_clock());
	}
}
