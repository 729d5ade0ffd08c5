#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <xbt/config.h>
#include <xbt/log.h>
#include "sim.h"
#include "../model/nic/rxq.h"

#define ETH_OVERHEAD	24	/* preamble, SFD, FCS, inter-frame gap: bytes */

/* Counters the monitor snapshots. */
struct snap {
	double t;
	struct rxq_stats q;
	struct mem_stats m;
	struct pp_stats pp;
	double cpu_s, stall_s, idle_s;
	double pcie_bytes;
	u64 phy_drops;
};

#define SIM_MAX_QUEUES	64

/* One rx queue, the NIC's side of it, and the NAPI that polls it. */
struct napi {
	struct rxq *q;
	struct kctx ctx;	/* its CPU, node, softirq */
	double next;		/* when its next packet arrives */
	sg_sem_t irq;
	bool irq_armed;		/* NAPI waits for the irq */
	bool irq_by_engine;	/* and the DMA engine will look */
	double credit;		/* the NIC's packets for this queue */
	double credit_t;	/* when the credit was last topped up */
	double cpu_s, stall_s, idle_s;
};

/* Everything one simulation shares between its actors. */
struct world {
	const struct scn_case *c;
	const struct pp_policy *pol;
	struct mm *mm;
	struct mem *mem;
	struct rxq_pages pages;
	struct napi napi[SIM_MAX_QUEUES];
	int nq;
	bool cpu_shared;	/* two NAPIs may run on one CPU at once */
	bool lockstep;		/* PPSIM_LOCKSTEP: no NAPI runs ahead */
	gsl_rng *rng;
	double queue_pps;	/* offered to each queue */
	double dma_burst;	/* bytes a DMA burst waits for */
	int first;		/* the queue the NIC serves first */
	double all_at;		/* when it last looked at every queue */
	sg_sem_t dma_wake;	/* a burst is ready */
	bool dma_waiting;
	bool dma_due;		/* and the engine should be woken */
	double monitor_at;	/* when the monitor looks next */
	sg_mailbox_t dma_mb[MEM_MAX_SOCKETS];	/* DMA into each node */
	double dma_pending[MEM_MAX_SOCKETS];	/* bytes not sent yet */
	double dma_inflight;	/* bytes of the burst under way */
	double dma_since;	/* when it began */
	double t_start, t_end;
	double pcie_bytes;
	u64 arrived, taken, buffer_drops;
	double mu_uncounted;	/* arrivals not drawn yet, on average */
	struct snap a, b;
	struct sim_result *res;
};
/* ---- the platform ---- */

static int write_platform(const struct scn_case *c, char *path, size_t len)
{
	int fd;
	FILE *f;

	snprintf(path, len, "%s/ppsim-platform-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		return -1;
	fprintf(f, "<?xml version='1.0'?>\n"
		"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
		"<platform version=\"4.1\">\n<zone id=\"machine\" "
		"routing=\"Full\">\n");
	for (int i = 0; i < c->sockets * c->cores; i++)
		fprintf(f, "<host id=\"cpu%d\" speed=\"%.17gf\"/>\n", i,
			c->freq);
	fprintf(f, "<host id=\"nic\" speed=\"1Gf\"/>\n");
	for (int s = 0; s < c->sockets; s++)
		fprintf(f, "<host id=\"mem%d\" speed=\"1Gf\"/>\n"
			"<link id=\"dram%d\" bandwidth=\"%.17gBps\" "
			"latency=\"0s\"/>\n", s, s, c->mem_bw);
	fprintf(f, "<link id=\"pcie\" bandwidth=\"%.17gBps\" "
		"latency=\"%.17gs\"/>\n", c->pcie_bw, c->pcie_lat);
	for (int s = 0; s < c->sockets; s++)
		for (int t = s + 1; t < c->sockets; t++)
			fprintf(f, "<link id=\"qpi%d-%d\" bandwidth=\"%.17gBps\" "
				"latency=\"%.17gs\"/>\n", s, t, c->qpi_bw,
				c->qpi_lat);
	/* DMA to node s: PCIe, the interconnect if s is not the NIC's
	 * node, then node s's memory channels */
	for (int s = 0; s < c->sockets; s++) {
		fprintf(f, "<route src=\"nic\" dst=\"mem%d\"><link_ctn "
			"id=\"pcie\"/>", s);
		if (s != c->nic_node)
			fprintf(f, "<link_ctn id=\"qpi%d-%d\"/>",
				s < c->nic_node ? s : c->nic_node,
				s < c->nic_node ? c->nic_node : s);
		fprintf(f, "<link_ctn id=\"dram%d\"/></route>\n", s);
		for (int t = s + 1; t < c->sockets; t++)
			fprintf(f, "<route src=\"mem%d\" dst=\"mem%d\">"
				"<link_ctn id=\"qpi%d-%d\"/></route>\n", s, t,
				s, t);
	}
	fprintf(f, "</zone>\n</platform>\n");
	return fclose(f);
}

static sg_host_t cpu_host(int cpu)
{
	char name[32];

	snprintf(name, sizeof(name), "cpu%d", cpu);
	return sg_host_by_name(name);
}

/* ---- actors ---- */

static struct world *self_world(void)
{
	return sg_actor_self_get_data();
}

/* Receives the NIC's DMA traffic at a node's memory: the transfer time is
 * what SimGrid's network model makes of PCIe, the interconnect and the
 * memory channels, shared between every flow on them. */
static void dma_sink(int argc, char **argv)
{
	struct world *w = self_world();
	int node = atoi(argv[0]);

	(void)argc;
	for (;;)
		sg_mailbox_get(w->dma_mb[node]);
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

static double dma_pending_bytes(const struct world *w)
{
	double total = 0;

	for (int s = 0; s < w->c->sockets; s++)
		total += w->dma_pending[s];
	return total;
}

/* A Poisson count of mean mu, in pieces: GSL's draw is an unsigned int,
 * and a long sample interval at line rate exceeds it. */
static u64 poisson(gsl_rng *rng, double mu)
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
	n->credit += w->c->nic_max_pps * (now - n->credit_t);
	n->credit_t = now;
	if (1 + mu - n->credit > 8 * sqrt(mu)) {
		w->mu_uncounted += mu;
		got = 1;
		take = (u64)n->credit;
	} else {
		got = 1 + poisson(w->rng, mu);
		take = got < n->credit ? got : (u64)n->credit;
	}
	n->credit = fmin(n->credit - (double)take, w->c->budget);
	w->arrived += got;
	w->taken += take;
	return take;
}

/* What the NIC's buffer holds at now: what waits for a burst, and what
 * the burst under way has not moved yet, the link draining it at its rate
 * (the burst is an accounting unit: the DMA engine moves bytes as they
 * come). */
static double dma_buffered(const struct world *w, double now)
{
	double moved = w->c->pcie_bw * (now - w->dma_since);

	return dma_pending_bytes(w) + fmax(0, w->dma_inflight - moved);
}

/* Wakes a NAPI waiting in napi_idle(). */
static void raise_irq(struct napi *n)
{
	n->irq_armed = false;
	sg_sem_release(n->irq);
}

/* Queue n up to now: packets into posted pages, XDP_TX frames out, their
 * bytes onto the DMA burst, and the irq if NAPI waits for one.  A packet
 * needs a posted descriptor and room in the NIC's packet buffer; what is
 * refused is counted against the scarcer of the two over the interval
 * (rx_out_of_buffer, rx_discards_phy).  Unless forced, a blocked queue
 * waits. */
static void nic_queue(struct world *w, struct napi *n, double now, bool force)
{
	double bytes[MEM_MAX_SOCKETS] = { 0 };
	u64 take;

	if (!force && rxq_nic_blocked(n->q))
		return;
	take = arrivals(w, n, now);
	if (take) {
		double room = fmax(0, (w->c->nic_buffer -
				       dma_buffered(w, now)) /
				      (w->c->pkt_size + 128));
		double free = rxq_nic_free(n->q);
		u64 keep = (u64)fmin((double)take, fmin(free, room));

		if (free <= room)
			rxq_nic_drop(n->q, take - keep);
		else
			w->buffer_drops += take - keep;
		rxq_nic_rx(n->q, (int)keep, bytes);
	}
	rxq_nic_tx(n->q, bytes);
	for (int s = 0; s < w->c->sockets; s++) {
		w->dma_pending[s] += bytes[s];
		w->pcie_bytes += bytes[s];
	}
	if (n->irq_armed && rxq_pending(n->q))
		raise_irq(n);
	if (w->dma_waiting && dma_pending_bytes(w) >= w->dma_burst)
		w->dma_due = true;
}

/* Wakes the DMA engine if a burst is ready: the caller's clock must be
 * SimGrid's. */
static void dma_kick(struct world *w)
{
	if (w->dma_due) {
		w->dma_due = false;
		w->dma_waiting = false;
		sg_sem_release(w->dma_wake);
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

static void nic_catch_up(struct world *w, struct napi *self, bool posting,
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

/* The DMA engine: sends each burst to the nodes it goes to, all at once,
 * and takes what arrived while it was busy. */
static void dma_actor(int argc, char **argv)
{
	struct world *w = self_world();

	(void)argc;
	(void)argv;
	for (;;) {
		sg_comm_t comms[MEM_MAX_SOCKETS];
		double burst[MEM_MAX_SOCKETS];
		size_t nc = 0;

		if (dma_pending_bytes(w) < w->dma_burst) {
			w->dma_waiting = true;
			for (int i = 0; i < w->nq; i++)
				if (w->napi[i].irq_armed &&
				    w->napi[i].irq_by_engine)
					raise_irq(&w->napi[i]);
			sg_sem_acquire(w->dma_wake);
			continue;
		}
		/* taken at once: put_async lets the others run */
		memcpy(burst, w->dma_pending, sizeof(burst));
		memset(w->dma_pending, 0, sizeof(w->dma_pending));
		w->dma_since = simgrid_get_clock();
		for (int s = 0; s < w->c->sockets; s++) {
			w->dma_inflight += burst[s];
			if (burst[s] > 0)
				comms[nc++] = sg_mailbox_put_async(w->dma_mb[s],
							w, (long)burst[s]);
		}
		sg_comm_wait_all(comms, nc);
		w->dma_inflight = 0;
		nic_catch_up(w, NULL, false, simgrid_get_clock());
	}
}

/*
 * Nothing to poll: wait for the irq.  While the DMA engine is busy it
 * looks at every queue when its burst ends, and whoever hands the queue a
 * completion raises the irq; an idle engine wakes such waiters, since
 * then nobody else may look: the queue's next packet is the irq (after
 * irq_delay).  Before the migration the wait ends at migrate_at.
 */
static void napi_idle(struct world *w, struct napi *n, bool migrated)
{
	const struct scn_case *c = w->c;
	double now = simgrid_get_clock(), until = INFINITY;
	bool raised;

	nic_queue(w, n, now, true);	/* a queue without descriptors */
	dma_kick(w);
	n->irq_by_engine = !w->dma_waiting;
	if (!n->irq_by_engine)
		until = n->next + c->irq_delay;
	if (!migrated)
		until = fmin(until, c->migrate_at);
	n->irq_armed = true;
	if (isinf(until)) {
		sg_sem_acquire(n->irq);
		raised = true;
	} else {
		raised = !sg_sem_acquire_timeout(n->irq, until - now);
	}
	n->irq_armed = false;
	if (raised && rxq_pending(n->q) && c->irq_delay > 0)
		sg_actor_sleep_for(c->irq_delay);
}

/*
 * Whether nobody but this NAPI can look at the machine before t: one
 * queue, an idle DMA engine (only this NAPI's catch-ups can wake it), the
 * monitor and the migration later.  Then the NAPI runs its polls ahead of
 * SimGrid's clock, keeping its own, and meets SimGrid only when another
 * actor may look: one SimGrid activity for a run of polls instead of one
 * each, the same events at the same times.
 */
static bool alone_until(const struct world *w, bool migrated, double t)
{
	return !w->lockstep && w->nq == 1 && w->dma_waiting &&
	       t < w->monitor_at && (migrated || t < w->c->migrate_at);
}

/* Brings SimGrid's clock to a NAPI that ran ahead. */
static void catch_clock(double t)
{
	if (t > simgrid_get_clock())
		sg_actor_sleep_until(t);
}

static void napi_actor(int argc, char **argv)
{
	struct world *w = self_world();
	const struct scn_case *c = w->c;
	int i = atoi(argv[0]);
	struct napi *n = &w->napi[i];
	bool migrated = c->migrate_at < 0, busy = false;
	double now = simgrid_get_clock();	/* this NAPI's: see alone_until */

	(void)argc;
	for (;;) {
		struct rxq_poll poll;
		double t0 = now;

		if (!migrated && t0 >= c->migrate_at) {
			catch_clock(t0);
			n->ctx.cpu = c->migrate_cpu + i % scn_queue_cpus(c);
			sg_actor_set_host(sg_actor_self(), cpu_host(n->ctx.cpu));
			n->ctx.node = n->ctx.cpu / c->cores;
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
		if (!busy && c->irq_delay > 0) {
			/* the last poll completed NAPI: the completions that
			 * came meanwhile raise the irq at once */
			now = t0 + c->irq_delay;
			if (!alone_until(w, migrated, now))
				catch_clock(now);
			n->idle_s += c->irq_delay;
			busy = true;
			continue;
		}
		kctx_cur = &n->ctx;
		rxq_napi_poll(n->q, n->ctx.cpu, &poll);
		if (c->jitter > 0) {
			/* the same noise on work and waiting: a poll runs
			 * longer or shorter as a whole */
			double f = fmax(0.5, 1 + gsl_ran_gaussian(w->rng,
								    c->jitter));

			poll.cycles *= f;
			poll.stall *= f;
		}
		if (w->cpu_shared) {
			catch_clock(t0);
			sg_actor_execute(poll.cycles + poll.stall * c->freq);
			now = simgrid_get_clock();
		} else {	/* the same time, without SimGrid's CPU sharing */
			now = t0 + poll.cycles / c->freq + poll.stall;
			if (!alone_until(w, migrated, now))
				catch_clock(now);
		}
		nic_catch_up(w, n, true, now);
		if (w->dma_due) {
			catch_clock(now);
			dma_kick(w);
		}
		rxq_post(n->q);
		busy = poll.busy;
		n->cpu_s += poll.cycles / c->freq;
		n->stall_s += poll.stall;
	}
}

/* Adds one queue's counters: both structs hold nothing but u64s, but for
 * the pool's hold and release. */
static void add_u64s(void *to, const void *from, size_t bytes)
{
	u64 *t = to;
	const u64 *f = from;

	for (size_t i = 0; i < bytes / sizeof(u64); i++)
		t[i] += f[i];
}

static void take_snap(struct world *w, struct snap *s)
{
	memset(s, 0, sizeof(*s));
	s->t = simgrid_get_clock();
	for (int i = 0; i < w->nq; i++)	/* count every drop so far */
		nic_queue(w, &w->napi[i], s->t, true);
	dma_kick(w);
	for (int i = 0; i < w->nq; i++) {
		const struct napi *n = &w->napi[i];
		struct pp_stats pp;

		add_u64s(&s->q, rxq_stats(n->q), sizeof(s->q));
		w->pol->stats(rxq_pool(n->q), &pp);
		add_u64s(&s->pp, &pp, offsetof(struct pp_stats, hold));
		s->pp.hold += pp.hold;
		s->pp.release += pp.release;
		s->cpu_s += n->cpu_s;
		s->stall_s += n->stall_s;
		s->idle_s += n->idle_s;
	}
	s->m = *mem_stats(w->mem);
	s->pcie_bytes = w->pcie_bytes;
	w->arrived += poisson(w->rng, w->mu_uncounted);
	w->mu_uncounted = 0;
	s->phy_drops = w->arrived - w->taken + w->buffer_drops;
}

static void monitor_actor(int argc, char **argv)
{
	struct world *w = self_world();
	struct sim_result *r = w->res;
	double step = w->c->sample;
	struct snap prev, now;

	(void)argc;
	(void)argv;
	take_snap(w, &prev);
	if (w->t_start <= prev.t)
		w->a = prev;
	while (simgrid_get_clock() < w->t_end - 1e-12) {
		double next = fmin(prev.t + step, w->t_end);

		if (prev.t < w->t_start && next > w->t_start)
			next = w->t_start;
		w->monitor_at = next;
		sg_actor_sleep_until(next);
		take_snap(w, &now);
		if (fabs(now.t - w->t_start) < 1e-12)
			w->a = now;
		if (r->nr_samples < SIM_MAX_SAMPLES && now.t > prev.t) {
			double n = (double)(now.q.rx_packets - prev.q.rx_packets);
			struct sim_sample *s = &r->samples[r->nr_samples++];

			s->t = now.t;
			s->pps = n / (now.t - prev.t);
			s->local = n ? (now.q.pkts_local - prev.q.pkts_local) / n
				     : NAN;
		}
		prev = now;
	}
	w->b = prev;
}

/* ---- the figures ---- */

static double frac(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0;
}

static void summarize(struct world *w)
{
	const struct snap *a = &w->a, *b = &w->b;
	struct sim_result *r = w->res;
	double dt = b->t - a->t;
	double pkts = (double)(b->q.rx_packets - a->q.rx_packets);
	u64 reads[MEM_NR_PLACES], total = 0, cqe_total = 0, cqe_remote;

	r->pps = pkts / dt;
	r->gbps = (double)(b->q.bytes_read - a->q.bytes_read) * 8 / dt / 1e9;
	r->cpu_ns = pkts ? (b->cpu_s - a->cpu_s) / pkts * 1e9 : 0;
	r->stall_ns = pkts ? (b->stall_s - a->stall_s) / pkts * 1e9 : 0;
	r->idle_ns = pkts ? (b->idle_s - a->idle_s) / pkts * 1e9 : 0;
	/* a poll is counted when it ends: clip the straddling one */
	r->busy = fmin(1, ((b->cpu_s - a->cpu_s) + (b->stall_s - a->stall_s)) /
		      (dt * scn_queue_cpus(w->c)));
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
	r->local_pages = frac(b->q.pkts_local - a->q.pkts_local,
			      b->q.rx_packets - a->q.rx_packets);
	r->oob_pps = (double)(b->q.rx_out_of_buffer - a->q.rx_out_of_buffer) / dt;
	r->phy_pps = (double)(b->phy_drops - a->phy_drops) / dt;
	r->pcie_util = (b->pcie_bytes - a->pcie_bytes) / dt / w->c->pcie_bw;
	r->qpi_gbs = 0;
	for (int s = 0; s < MEM_MAX_SOCKETS; s++)
		r->qpi_gbs += (double)(b->m.qpi_bytes[s] - a->m.qpi_bytes[s]);
	r->qpi_gbs /= dt * 1e9;
	if (pkts) {
		r->nic_snoops = (b->m.nic_snoops - a->m.nic_snoops) / pkts;
		r->pp_fast = (b->pp.alloc_fast - a->pp.alloc_fast) / pkts;
		r->pp_slow_pages = (b->pp.hold - a->pp.hold) / pkts;
		r->pp_cached = (b->pp.recycle_cached - a->pp.recycle_cached) / pkts;
		r->pp_ring = (b->pp.recycle_ring - a->pp.recycle_ring) / pkts;
		r->pp_released = (b->pp.release - a->pp.release) / pkts;
		r->pp_waive = (b->pp.alloc_waive - a->pp.alloc_waive) / pkts;
	}
}

/* ---- one run, in the child ---- */

static int build_world(struct world *w, const struct scn_case *c,
		       const char **err)
{
	struct mm_params mp = { c->sockets, (u32)c->pages, 0 };
	struct mem_config mc = {
		.sockets = c->sockets, .cores = c->cores,
		.priv_size = (uint64_t)c->l2_size, .priv_ways = c->l2_ways,
		.llc_size = (uint64_t)c->llc_size, .llc_ways = c->llc_ways,
		.ddio_ways = c->ddio_ways, .nic_socket = c->nic_node,
		.priv_lat = c->l2_lat, .llc_lat = c->llc_lat,
		.rcache_lat = c->rllc_lat, .dram_lat = c->dram_lat,
		.rdram_lat = c->rdram_lat, .qpi_lat = c->qpi_lat,
	};
	struct rxq_config qc = {
		.workload = c->workload == SCN_XDP_TX ? RXQ_XDP_TX :
			    c->workload == SCN_TCP ? RXQ_TCP : RXQ_XDP_DROP,
		.payload = c->pkt_size - TCP_HEADERS,
		.c_stack = c->c_stack, .c_recv = c->c_recv,
		.c_copy = c->c_copy, .copy_mlp = c->copy_mlp,
		.pkt_size = c->pkt_size, .rx_ring = c->rx_ring,
		.tx_ring = c->tx_ring, .budget = c->budget,
		.page_cache = c->page_cache,
		.nic_node = c->nic_node, .pages = &w->pages,
		.c_rx_pkt = c->c_rx_pkt, .c_xdp = c->c_xdp,
		.c_tx_pkt = c->c_tx_pkt, .c_poll = c->c_poll,
		.c_pp_fast = c->c_pp_fast, .c_pp_ring = c->c_pp_ring,
		.c_page_alloc = c->c_page_alloc, .c_page_free = c->c_page_free,
		.c_dma_map = c->c_dma_map, .c_doorbell = c->c_doorbell,
		.hide_stream = c->hide_stream, .hide_random = c->hide_random,
		.store_exposure = c->store_exposure, .qpi_lat = c->qpi_lat,
	};

	w->mm = mm_create(&mp, err);
	if (!w->mm)
		return -1;
	w->mem = mem_create(&mc, err);
	if (!w->mem)
		return -1;
	rxq_map_pages(&w->pages, w->mem, c->sockets, (u32)c->pages,
		      c->pkt_size);
	/* each channel opens on its CPU: its rings and pool live there */
	for (w->nq = 0; w->nq < c->queues; w->nq++) {
		struct napi *n = &w->napi[w->nq];
		int cpu = c->irq_cpu + w->nq % scn_queue_cpus(c);

		n->ctx = (struct kctx){ .mm = w->mm, .cpu = cpu,
					.node = cpu / c->cores,
					.softirq = true };
		qc.channel_node = n->ctx.node;
		n->q = rxq_open(&qc, w->mem, w->pol, &n->ctx, err);
		if (!n->q)
			return -1;
	}
	return 0;
}

/* Every page the allocator has out is in a queue or its pool, and every
 * pool's inflight count adds up.  Returns 0, or -1 with why. */
static int check_pages(const struct world *w, char *why, size_t len)
{
	u64 out = 0, held = 0;

	for (int s = 0; s < w->c->sockets; s++)
		out += mm_node_stats(w->mm, s)->allocated -
		       mm_node_stats(w->mm, s)->freed;
	for (int i = 0; i < w->nq; i++) {
		if (rxq_check(w->napi[i].q, why, len))
			return -1;
		held += rxq_pages_held(w->napi[i].q);
	}
	if (out != held) {
		snprintf(why, len, "the page allocator has %llu pages out, the "
			 "%d queue(s) and their pools hold %llu",
			 (unsigned long long)out, w->nq,
			 (unsigned long long)held);
		return -1;
	}
	return mm_check(w->mm, why, len);
}

/* The model's memory; SimGrid's goes with the child process. */
static void free_world(struct world *w)
{
	for (int i = 0; i < w->nq; i++) {
		rxq_free(w->napi[i].q);
		if (w->napi[i].irq)
			sg_sem_destroy(w->napi[i].irq);
	}
	mem_destroy(w->mem);
	mm_destroy(w->mm);
	if (w->rng)
		gsl_rng_free(w->rng);
	if (w->dma_wake)
		sg_sem_destroy(w->dma_wake);
}

static void start_actor(const char *name, sg_host_t host,
			void (*code)(int, char **), struct world *w,
			bool daemon, const char *arg)
{
	sg_actor_t a = sg_actor_init(name, host);
	const char *argv[] = { arg, NULL };

	sg_actor_set_data(a, w);
	sg_actor_start_(a, (xbt_main_func_t)code, arg ? 1 : 0, argv);
	if (daemon)
		sg_actor_daemonize(a);
}

/* Whether two NAPIs may ever poll on one CPU at the same time: more
 * queues than CPUs, or a migration onto CPUs that overlap the old ones. */
static bool cpus_shared(const struct scn_case *c)
{
	int n = scn_queue_cpus(c), d = c->migrate_cpu - c->irq_cpu;

	return n < c->queues || (c->migrate_at >= 0 && d != 0 && abs(d) < n);
}

static void child_run(const struct scn_case *c, const char *policy,
		      uint64_t seed, struct sim_result *r)
{
	struct world w = { .c = c, .res = r };
	struct timespec t0, t1;
	const char *err = NULL;
	char platform[256], why[200];
	double wire = 8.0 * (c->pkt_size + ETH_OVERHEAD);

	w.pol = pp_policy_find(policy);
	w.cpu_shared = cpus_shared(c);
	w.lockstep = getenv("PPSIM_LOCKSTEP") &&
		     strcmp(getenv("PPSIM_LOCKSTEP"), "0");
	w.queue_pps = (c->rate > 0 ? fmin(c->rate, c->line_rate / wire)
				   : c->line_rate / wire) / c->queues;
	/* The NIC pays for the PCIe bandwidth it used a burst at a time:
	 * few SimGrid transfers (each also pays the link's latency once, a
	 * few % of a burst's time), and half the buffer left for what
	 * arrives while one is under way. */
	w.dma_burst = c->nic_buffer / 2;
	w.t_start = (c->migrate_at >= 0 ? c->migrate_at : 0) + c->warmup;
	w.t_end = w.t_start + c->duration;
	if (build_world(&w, c, &err)) {
		r->status = 1;
		snprintf(r->why, sizeof(r->why), "%s", err);
		free_world(&w);
		return;
	}
	w.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(w.rng, (unsigned long)seed);
	for (int i = 0; i < w.nq; i++)
		w.napi[i].next = gsl_ran_exponential(w.rng, 1 / w.queue_pps);
	xbt_log_control_set("root.thresh:warning");
	sg_cfg_set_string("network/model", "CM02");
	sg_cfg_set_boolean("network/crosstraffic", "no");
	sg_cfg_set_double("surf/precision", 1e-12);
	if (write_platform(c, platform, sizeof(platform))) {
		r->status = 1;
		snprintf(r->why, sizeof(r->why), "cannot write the platform: "
			 "%s", strerror(errno));
		free_world(&w);
		return;
	}
	simgrid_load_platform(platform);
	unlink(platform);
	w.dma_wake = sg_sem_init(0);
	for (int s = 0; s < c->sockets; s++) {
		char node[16], mem[24];

		snprintf(node, sizeof(node), "%d", s);
		snprintf(mem, sizeof(mem), "mem%d", s);
		w.dma_mb[s] = sg_mailbox_by_name(mem);
		start_actor("dma-sink", sg_host_by_name(mem), dma_sink, &w,
			    true, node);
	}
	start_actor("nic", sg_host_by_name("nic"), dma_actor, &w, true, NULL);
	for (int i = 0; i < w.nq; i++) {
		char arg[16];

		snprintf(arg, sizeof(arg), "%d", i);
		w.napi[i].irq = sg_sem_init(0);
		start_actor("napi", cpu_host(w.napi[i].ctx.cpu), napi_actor, &w,
			    true, arg);
	}
	start_actor("monitor", sg_host_by_name("nic"), monitor_actor, &w,
		    false, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	simgrid_run();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->wall_s = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	r->sim_packets = (double)w.b.q.rx_packets;
	summarize(&w);
	if (check_pages(&w, why, sizeof(why))) {
		r->status = 1;
		snprintf(r->why, sizeof(r->why), "page conservation violated: "
			 "%s", why);
	}
	free_world(&w);
}

int sim_start(const struct scn_case *c, const char *policy, uint64_t seed,
	      int *fd)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		struct sim_result *r = calloc(1, sizeof(*r));
		const char *buf = (const char *)r;
		size_t left = sizeof(*r);

		close(p[0]);
		child_run(c, policy, seed, r);
		while (left) {
			ssize_t n = write(p[1], buf, left);

			if (n <= 0)
				_exit(1);
			buf += n;
			left -= (size_t)n;
		}
		free(r);
		_exit(0);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

int sim_collect(int pid, int fd, struct sim_result *out)
{
	char *buf = (char *)out;
	size_t got = 0;
	int status = 0;

	while (got < sizeof(*out)) {
		ssize_t n = read(fd, buf + got, sizeof(*out) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	waitpid(pid, &status, 0);
	if (got != sizeof(*out)) {
		memset(out, 0, sizeof(*out));
		out->status = 1;
		snprintf(out->why, sizeof(out->why), "the simulation died (%s)",
			 WIFSIGNALED(status) ? strsignal(WTERMSIG(status))
					     : "no result");
		return -1;
	}
	return 0;
}

int sim_run(const struct scn_case *c, const char *policy, uint64_t seed,
	    struct sim_result *out)
{
	int fd, pid = sim_start(c, policy, seed, &fd);

	if (pid < 0) {
		memset(out, 0, sizeof(*out));
		out->status = 1;
		snprintf(out->why, sizeof(out->why), "fork: %s",
			 strerror(errno));
		return -1;
	}
	return sim_collect(pid, fd, out);
}
