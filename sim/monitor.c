#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include "consumer.h"
#include "monitor.h"
#include "napi.h"

/* Adds one queue's counters that the figures use. */
static void add_queue(struct snap *s, const struct rxq_stats *q,
		      const struct pp_stats *pp)
{
	s->q.rx_packets += q->rx_packets;
	s->q.pkts_local += q->pkts_local;
	s->q.rx_out_of_buffer += q->rx_out_of_buffer;
	s->q.bytes_read += q->bytes_read;
	s->pp.alloc_fast += pp->alloc_fast;
	s->pp.alloc_waive += pp->alloc_waive;
	s->pp.recycle_cached += pp->recycle_cached;
	s->pp.recycle_ring += pp->recycle_ring;
	s->pp.recycle_ring_full += pp->recycle_ring_full;
	s->pp.alloc_slow += pp->alloc_slow;
	s->q.cpumap_drops += q->cpumap_drops + q->veth_drops + q->sock_drops;
	s->q.skb_defer += q->skb_defer;
	s->q.consumed += q->consumed;
	s->q.consumed_far += q->consumed_far;
	s->q.skb_page_free += q->skb_page_free;
	s->pp.hold += pp->hold;
	s->pp.release += pp->release;
}

static void take_snap(struct monitor *m, struct snap *s)
{
	memset(s, 0, sizeof(*s));
	s->t = simgrid_get_clock();
	nic_count_all(m->nic, s->t);	/* count every drop so far */
	nic_dma_kick(m->nic);
	for (int i = 0; i < m->nic->nq; i++) {
		const struct napi *n = &m->napi[i];
		struct pp_stats pp;

		m->pol->stats(rxq_pool(n->q), &pp);
		add_queue(s, rxq_stats(n->q), &pp);
		s->q_rx[i] = rxq_stats(n->q)->rx_packets;
		s->cpu_s += n->cpu_s;
		s->stall_s += n->stall_s;
		s->idle_s += n->idle_s;
		for (int k = 0; k < MEM_NR_KINDS; k++)
			for (int p = 0; p < MEM_NR_PLACES; p++)
				s->stall_at[k][p] += n->stall_at[k][p];
	}
	if (m->cons) {
		s->cons_cpu_s = m->cons->cpu_s;
		s->cons_stall_s = m->cons->stall_s;
	}
	s->m = *mem_stats(m->mem);
	for (int d = 0; d < PCIE_NR_DIRS; d++)
		s->pcie_bytes[d] = m->nic->dma[d].carried;
	s->phy_drops = nic_phy_drops(m->nic);
}

/*
 * With a precision (the case's key), the run ends its window once the
 * rates are known to it.  Each sample of the window is a batch, `sample`
 * long (the window starts at a sample's end), whose rates (the packets,
 * the bytes, the consumer's packets) are kept.  The rates are known,
 * after BATCHES_MIN batches at least, when for each of them
 *  - its 95 % confidence half-width, t(n - 1) s / sqrt n of the batch
 *    means (Law, Simulation Modeling and Analysis, 5th ed., 9.5.3), is
 *    within the precision of its mean;
 *  - the window's two halves agree within the precision: a transient
 *    still in the window, a drift, a rate that wanders slower than the
 *    batches (whose spread then understates its error) end nothing;
 *  - the counts resolve it: packets are counted a poll at a time, so the
 *    window's count is uncertain by a budget a queue at either end, and
 *    a run of batches alike (a zero variance, a rate of nothing) says
 *    nothing finer than that.
 * A run that never gets there measures its whole duration.
 */
#define BATCHES_MIN	10
#define NR_RATES	3

struct batches {
	int n, cap;
	double (*x)[NR_RATES];	/* each batch's rates */
	u64 packets;		/* in them all */
};

static void batch_add(struct batches *b, const struct snap *p,
		      const struct snap *q)
{
	double dt = q->t - p->t;
	double *x;

	if (b->n == b->cap) {
		int cap = b->cap ? 2 * b->cap : 64;

		x = realloc(b->x, (size_t)cap * sizeof(*b->x));
		if (!x)
			return;	/* the window then runs its duration */
		b->x = (double (*)[NR_RATES])x;
		b->cap = cap;
	}
	x = b->x[b->n++];
	x[0] = (double)(q->q.rx_packets - p->q.rx_packets) / dt;
	x[1] = (double)(q->q.bytes_read - p->q.bytes_read) / dt;
	x[2] = (double)(q->q.consumed - p->q.consumed) / dt;
	b->packets += q->q.rx_packets - p->q.rx_packets;
}

/* The mean of rate i over batches from to from + k - 1. */
static double mean_of(const struct batches *b, int i, int from, int k)
{
	return gsl_stats_mean(&b->x[from][i], NR_RATES, (size_t)k);
}

/* Whether the batches' rates are known to precision (a fraction), the
 * window's count uncertain by grain packets (the rules above). */
static bool known(const struct batches *b, double precision, double grain)
{
	int k = b->n, h = k / 2;
	double t;

	if (k < BATCHES_MIN || grain > precision * (double)b->packets)
		return false;
	t = gsl_cdf_tdist_Pinv(0.975, k - 1);
	for (int i = 0; i < NR_RATES; i++) {
		double mean = mean_of(b, i, 0, k);
		double sd = gsl_stats_sd_m(&b->x[0][i], NR_RATES, (size_t)k,
					   mean);

		if (t * sd / sqrt(k) > precision * fabs(mean))
			return false;
		if (fabs(mean_of(b, i, 0, h) - mean_of(b, i, k - h, h)) >
		    precision * fabs(mean))
			return false;
	}
	return true;
}

void monitor_actor(int argc, char **argv)
{
	struct monitor *m = sg_actor_self_get_data();
	struct sim_result *r = m->res;
	double step = m->c->load.sample, precision = m->c->load.precision / 100;
	/* a poll's packets a queue, at either end of the window */
	double grain = 2.0 * m->nic->nq * m->c->rxq.budget;
	struct batches b = { 0 };
	struct snap prev, now, last;	/* last: the last sample's end */

	(void)argc;
	(void)argv;
	take_snap(m, &prev);
	last = prev;
	if (m->t_start <= prev.t)
		m->start = prev;
	while (simgrid_get_clock() < m->t_end - 1e-12) {
		double next = fmin(prev.t + step, m->t_end);

		if (prev.t < m->t_start && next > m->t_start)
			next = m->t_start;
		m->next_at = next;
		sg_actor_sleep_until(next);
		take_snap(m, &now);
		if (fabs(now.t - m->t_start) < 1e-12)
			m->start = now;
		/* a slice shorter than half a sample (the window's start
		 * off the samples' beat) joins the next sample: alone its
		 * few packets, or none, would draw a dip in the plots */
		if (r->nr_samples < SIM_MAX_SAMPLES && now.t > last.t &&
		    (now.t - last.t >= step / 2 || now.t >= m->t_end - 1e-12)) {
			double n = (double)(now.q.rx_packets - last.q.rx_packets);
			struct sim_sample *s = &r->samples[r->nr_samples++];

			s->t = now.t;
			s->pps = n / (now.t - last.t);
			s->local = n ? (now.q.pkts_local - last.q.pkts_local) / n
				     : NAN;
			last = now;
		}
		if (precision > 0 && prev.t >= m->t_start - 1e-12 &&
		    now.t > prev.t)
			batch_add(&b, &prev, &now);
		prev = now;
		if (precision > 0 && known(&b, precision, grain))
			break;
	}
	m->end = prev;
	free(b.x);
}

/* ---- the figures ---- */

static double frac(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0;
}

/* struct page accesses by every CPU: all of them, and those served by
 * the other socket */
static u64 spage_remote(const struct mem_stats *m)
{
	return m->cpu_reads[MEM_STRUCT_PAGE][MEM_RCACHE] +
	       m->cpu_reads[MEM_STRUCT_PAGE][MEM_RDRAM] +
	       m->cpu_writes[MEM_STRUCT_PAGE][MEM_RCACHE] +
	       m->cpu_writes[MEM_STRUCT_PAGE][MEM_RDRAM];
}

static u64 spage_all(const struct mem_stats *m)
{
	u64 n = 0;

	for (int p = 0; p < MEM_NR_PLACES; p++)
		n += m->cpu_reads[MEM_STRUCT_PAGE][p] +
		     m->cpu_writes[MEM_STRUCT_PAGE][p];
	return n;
}

/* The consumer's figures; NaN without one. */
static void consumer_figures(const struct monitor *m, struct sim_result *r,
			     double dt)
{
	const struct snap *a = &m->start, *b = &m->end;
	double n = (double)(b->q.consumed - a->q.consumed);

	r->cons_drop_pps = (double)(b->q.cpumap_drops - a->q.cpumap_drops) /
			   dt;
	if (!m->cons) {
		r->cons_pps = r->cons_cpu_ns = r->cons_stall_ns = NAN;
		r->cons_busy = r->cons_far = NAN;
		return;
	}
	r->cons_pps = n / dt;
	r->cons_cpu_ns = n ? (b->cons_cpu_s - a->cons_cpu_s) / n * 1e9 : 0;
	r->cons_stall_ns = n ? (b->cons_stall_s - a->cons_stall_s) / n * 1e9
			     : 0;
	r->cons_busy = fmin(1, (b->cons_cpu_s - a->cons_cpu_s +
				b->cons_stall_s - a->cons_stall_s) / dt);
	r->cons_far = frac(b->q.consumed_far - a->q.consumed_far,
			   b->q.consumed - a->q.consumed);
}

/* Where the packet and completion reads were served, what the NAPIs
 * waited for, the interconnect and the NIC's writes. */
static void memory_figures(const struct snap *a, const struct snap *b,
			   struct sim_result *r, double pkts, double dt)
{
	u64 reads[MEM_NR_PLACES], total = 0, cqe_total = 0, cqe_remote;

	for (int p = 0; p < MEM_NR_PLACES; p++) {
		reads[p] = b->m.cpu_reads[MEM_PKT][p] - a->m.cpu_reads[MEM_PKT][p];
		total += reads[p];
		cqe_total += b->m.cpu_reads[MEM_CQE][p] -
			     a->m.cpu_reads[MEM_CQE][p];
	}
	for (int p = 0; p < MEM_NR_PLACES; p++)
		r->pkt_place[p] = frac(reads[p], total);
	cqe_remote = b->m.cpu_reads[MEM_CQE][MEM_RCACHE] -
		     a->m.cpu_reads[MEM_CQE][MEM_RCACHE] +
		     b->m.cpu_reads[MEM_CQE][MEM_RDRAM] -
		     a->m.cpu_reads[MEM_CQE][MEM_RDRAM];
	r->cqe_remote = frac(cqe_remote, cqe_total);
	r->qpi_gbs = 0;
	for (int s = 0; s < MEM_MAX_SOCKETS; s++)
		r->qpi_gbs += (double)(b->m.qpi_bytes[s] - a->m.qpi_bytes[s]);
	r->qpi_gbs /= dt * 1e9;
	for (int k = 0; pkts && k < MEM_NR_KINDS; k++) {
		for (int p = 0; p < MEM_NR_PLACES; p++) {
			r->stall_at[k][p] = (b->stall_at[k][p] -
					     a->stall_at[k][p]) / pkts * 1e9;
			r->access_at[k][p] = (double)(b->m.cpu_reads[k][p] -
						      a->m.cpu_reads[k][p] +
						      b->m.cpu_writes[k][p] -
						      a->m.cpu_writes[k][p]) /
					     pkts;
		}
	}
	r->spage_remote = frac(spage_remote(&b->m) - spage_remote(&a->m),
			       spage_all(&b->m) - spage_all(&a->m));
	r->ddio_hit = frac(b->m.nic_update - a->m.nic_update,
			   b->m.nic_ddio - a->m.nic_ddio);
	if (pkts) {
		r->nic_snoops = (b->m.nic_snoops - a->m.nic_snoops) / pkts;
		r->cq_lines = (b->m.nic_writes[MEM_CQE] -
			       a->m.nic_writes[MEM_CQE]) / pkts;
	}
}

/* Where pages came from and went back, per packet. */
static void pool_figures(const struct snap *a, const struct snap *b,
			 struct sim_result *r, double pkts)
{
	if (!pkts)
		return;
	r->pp_fast = (b->pp.alloc_fast - a->pp.alloc_fast) / pkts;
	r->pp_slow_pages = (b->pp.hold - a->pp.hold) / pkts;
	r->pp_cached = (b->pp.recycle_cached - a->pp.recycle_cached) / pkts;
	r->pp_ring = (b->pp.recycle_ring - a->pp.recycle_ring) / pkts;
	r->pp_released = (b->pp.release - a->pp.release) / pkts;
	r->pp_waive = (b->pp.alloc_waive - a->pp.alloc_waive) / pkts;
	r->pp_ring_full = (b->pp.recycle_ring_full -
			   a->pp.recycle_ring_full) / pkts;
	r->pp_slow_calls = (b->pp.alloc_slow - a->pp.alloc_slow) / pkts;
	r->skb_page_free = (b->q.skb_page_free - a->q.skb_page_free) / pkts;
	r->skb_defer = (b->q.skb_defer - a->q.skb_defer) / pkts;
}

void monitor_summarize(struct monitor *m)
{
	const struct snap *a = &m->start, *b = &m->end;
	struct sim_result *r = m->res;
	double dt = b->t - a->t;
	double pkts = (double)(b->q.rx_packets - a->q.rx_packets);

	r->pps = pkts / dt;
	r->gbps = (double)(b->q.bytes_read - a->q.bytes_read) * 8 / dt / 1e9;
	r->cpu_ns = pkts ? (b->cpu_s - a->cpu_s) / pkts * 1e9 : 0;
	r->stall_ns = pkts ? (b->stall_s - a->stall_s) / pkts * 1e9 : 0;
	/* a poll is counted when it ends: clip the straddling one */
	r->busy = fmin(1, ((b->cpu_s - a->cpu_s) + (b->stall_s - a->stall_s)) /
		      (dt * sim_queue_cpus(m->c)));
	if (sim_queue_cpus(m->c) < m->nic->nq)
		/* queues that share a CPU: one NAPI waits while the other
		 * works; the CPU's idle is what neither used */
		r->idle_ns = pkts ? (1 - r->busy) * dt *
				    sim_queue_cpus(m->c) / pkts * 1e9 : 0;
	else
		r->idle_ns = pkts ? (b->idle_s - a->idle_s) / pkts * 1e9 : 0;
	r->local_pages = frac(b->q.pkts_local - a->q.pkts_local,
			      b->q.rx_packets - a->q.rx_packets);
	r->oob_pps = (double)(b->q.rx_out_of_buffer - a->q.rx_out_of_buffer) / dt;
	r->phy_pps = (double)(b->phy_drops - a->phy_drops) / dt;
	r->pcie_up = (b->pcie_bytes[PCIE_UP] - a->pcie_bytes[PCIE_UP]) / dt /
		     m->nic->link_bw;
	r->pcie_down = (b->pcie_bytes[PCIE_DOWN] - a->pcie_bytes[PCIE_DOWN]) /
		       dt / m->nic->link_bw;
	memory_figures(a, b, r, pkts, dt);
	consumer_figures(m, r, dt);
	r->q_min_pps = INFINITY;
	r->q_max_pps = 0;
	for (int i = 0; i < m->nic->nq; i++) {
		double pps = (double)(b->q_rx[i] - a->q_rx[i]) / dt;

		r->q_min_pps = fmin(r->q_min_pps, pps);
		r->q_max_pps = fmax(r->q_max_pps, pps);
	}
	pool_figures(a, b, r, pkts);
}
