/*
 * The memory system: where every modelled cache line is, and what touching
 * it costs.
 *
 * Each socket has a shared set-associative LLC, inclusive or not (enum
 * mem_inclusion); each core a private cache (L1 and L2 folded into one).
 * The NIC writes through DDIO: a DMA write to memory of the NIC's own
 * socket allocates into the top ddio_ways ways of a set of that socket's
 * LLC (the IIO LLC WAYS
 * register's default sets the top two of 11 on Skylake-SP, 0x600, and
 * two of the top three of 20 on Haswell-EP, 0x60000, ways 17 and 18,
 * where the model takes 18 and 19: FastClick's DDIOTune in
 * aliireza/ddio-bench), or updates the line in place when the LLC
 * holds it; a DMA write to another socket's memory goes to DRAM
 * there.  Either way every other cached copy is invalidated first, and a
 * copy in a socket other than the NIC's costs a snoop across the
 * interconnect.
 *
 * A CPU access costs the latency of where the line is: its private cache,
 * its socket's LLC (or another core's private cache there, when that core
 * has it modified), the other socket's caches (a cache-to-cache transfer),
 * local DRAM, another node's of its socket or remote DRAM.  Lines are registered in regions (an object with a
 * home node and a kind), so that the costs can be explained per kind.
 *
 * The LLC is inclusive (Broadwell-EP) or not (Skylake-SP on, with a snoop
 * filter: enum mem_inclusion, where each difference is sourced).
 *
 * No global state: one struct mem per simulated machine.
 */
#ifndef PPSIM_MEM_H
#define PPSIM_MEM_H

#include <stdbool.h>
#include <stdint.h>

#define MEM_LINE	64	/* bytes */
#define MEM_PAGE_LINES	64	/* lines in a 4 KiB page */
#define MEM_MAX_SOCKETS	8
#define MEM_MAX_NODES	16	/* NPS4 or SNC4 on 4 sockets; L3-as-NUMA
				 * on 2 sockets of 8 CCDs */
#define MEM_NO_LINE	UINT32_MAX	/* no line: mem_region() failed */

/* What a line belongs to: the explanation columns are per kind. */
enum mem_kind {
	MEM_PKT,	/* packet data in a page */
	MEM_STRUCT_PAGE,/* struct page */
	MEM_CQE,	/* completion queue entries */
	MEM_RX_WQE,	/* rx descriptors */
	MEM_TX_WQE,	/* tx descriptors */
	MEM_STATE,	/* driver and pool state, doorbell records */
	MEM_DOORBELL,	/* no line: an MMIO write to the NIC, whose wait is
			 * counted with the others' (--explain) */
	MEM_NR_KINDS,
};

/* Where an access was served. */
enum mem_place {
	MEM_PRIV,	/* the core's private cache */
	MEM_LLC,	/* its socket's LLC, or another core's private
			 * cache there (a snoop: snoop_lat) */
	MEM_RCACHE,	/* the other socket's caches */
	MEM_DRAM,	/* local DRAM: the core's own node */
	MEM_NDRAM,	/* DRAM of another node of the core's socket (SNC,
			 * NPS; mem.node_lat): not remote, no socket crossed */
	MEM_RDRAM,	/* remote DRAM: a node of another socket
			 * (mem.rdram_lat) */
	MEM_NR_PLACES,
};

/*
 * How an LLC picks the line to evict.  MEM_LLC_LRU: the least recently
 * used.  MEM_LLC_QLRU: the policy measured on Intel's L3 from Ivy Bridge
 * to Skylake (QLRU_H11_M1_R1_U2 in the naming of A. Abel and J. Reineke,
 * nanoBench, ISPASS 2020, and uops.info/cache.html): a 2-bit age a line;
 * a new line enters at age 1, a hit makes age 3 or 2 into 1 and 1 into 0,
 * the victim is the first empty way, else the first of age 3, else way 0,
 * and after every access, when no way of the set is 3, every age grows by
 * one.  Measured on client parts: for others a guess.  Those CPUs' L3
 * also switches some sets to a variant that inserts at age 3, which
 * resists a scan; that is not modelled (fidelity memo, section 11.11).
 */
enum mem_llc_policy {
	MEM_LLC_LRU,
	MEM_LLC_QLRU,
	MEM_LLC_NR,	/* how many: each has its ops table in cache.c */
};

/*
 * Whether a socket's LLC holds every line its cores' private caches hold
 * (cache.inclusive).  MEM_INCLUSIVE (yes): Broadwell-EP and before; a line
 * a core reads fills the LLC and its L2, and a line the LLC evicts leaves
 * the L2s too.  MEM_NON_INCLUSIVE (no): Skylake-SP, Cascade Lake, Ice
 * Lake-SP, Sapphire Rapids, whose "shared non-inclusive" LLC (Intel
 * support article 000027820) mostly holds what the L2s evicted, and whose
 * snoop filter knows which L2 holds a line (Cornell Virtual Workshop,
 * "Last Level Cache" of Skylake and Cascade Lake).  Measured on a Xeon
 * Silver 4208, Cascade Lake-SP (Purnal et al., "Double Trouble", USENIX
 * Security 2022; KULeuven-COSIC/Double-Trouble docs, figure 4):
 *  - a read that misses goes to the core's L2 only, not the LLC;
 *  - a core's read of a line the LLC holds and no other core does moves
 *    it to the core's L2, and the LLC keeps no copy (4f; the model drops
 *    it); a line two cores read is kept in the LLC too (4d);
 *  - a core's write moves the line to its L2 (4c);
 *  - a DMA write to a line in a core's L2 takes it from there into the
 *    LLC (4e), into ways 0 and 1, not DDIO's (their "DDIO+" region,
 *    section 5: two ways whatever DDIO has);
 *  - any other DMA write allocates in DDIO's top ways, the IIO LLC WAYS
 *    mask, as on Broadwell (section 5), or updates the line where the LLC
 *    holds it.
 * A line an L2 evicts goes to the LLC (the victim cache of both sources
 * above), in the ways DDIO does not allocate: a packet line a core read
 * leaves DDIO's ways for good (Park et al., "A4", arXiv 2506.11329, C1:
 * DMA-written lines move out of the DCA ways once cores access them, into
 * ways the model does not single out).  A line in another core's L2 of
 * the socket, not in the LLC, is a snoop (snoop_lat); and an LLC eviction
 * leaves the L2s alone.  Not modelled: the snoop filter's own evictions,
 * which push a line out of its L2 (Double Trouble's figure 4 code evicts
 * lines so; the filter's size is not published), and any choice the LLC
 * makes not to keep a clean victim.
 */
enum mem_inclusion {
	MEM_INCLUSIVE,
	MEM_NON_INCLUSIVE,
	MEM_INCLUSION_NR,	/* how many */
};

/* The ways a DMA write puts a line in that it took from a core's L2 on a
 * non-inclusive LLC: 0 and 1 ("DDIO+", Double Trouble section 5). */
#define MEM_DDIO_PLUS_WAYS	2

/* The machine's caches and memory: the [cpu], [cache] and [mem] keys of a
 * scenario point into it (input/scenario.c). */
struct mem_config {
	int sockets;
	int cores;		/* per socket */
	int nodes;		/* NUMA nodes per socket (SNC, NPS), each
				 * with cores / nodes of its cores, in order:
				 * node = core / (cores / nodes); 0 is 1 */
	double freq;		/* Hz, the core clock */
	uint64_t l2_size;	/* bytes per core: the private cache (L1 folded in) */
	int l2_ways;
	double l2_cycles;	/* a private hit, in core cycles: it scales with
				 * the clock, unlike the places below */
	uint64_t llc_size;	/* bytes per socket */
	int llc_ways;
	int ddio_ways;		/* 0: DMA writes go to DRAM */
	enum mem_llc_policy llc_policy;
	enum mem_inclusion inclusion;	/* 0: inclusive */
	/* Load-to-use latencies as measured, in s: the uncore, the
	 * interconnect and DRAM do not run on the core's clock. */
	double llc_lat;		/* s, a local LLC hit */
	double snoop_lat;	/* s, a line another core of the socket holds
				 * modified: a transfer from its cache */
	double rllc_lat;	/* s, a line held in the other socket's caches */
	double dram_lat;	/* s, the core's own node */
	double node_lat;	/* s, another node of its socket; also what
				 * a cache transfer from that node adds,
				 * node_lat - dram_lat (mem_node_extra) */
	double rdram_lat;	/* s, a node of another socket */
	double qpi_lat;		/* s, one crossing of the interconnect */
	int nic_node;		/* the node whose PCIe root the NIC hangs off */
};

/* A machine's nodes: nodes per socket (0 counts as 1), in all, the node
 * of a core and the socket of a node. */
static inline int mem_nodes_per_socket(const struct mem_config *c)
{
	return c->nodes > 1 ? c->nodes : 1;
}

static inline int mem_nr_nodes(const struct mem_config *c)
{
	return c->sockets * mem_nodes_per_socket(c);
}

static inline int mem_node_of_cpu(const struct mem_config *c, int cpu)
{
	return cpu / (c->cores / mem_nodes_per_socket(c));
}

static inline int mem_socket_of_node(const struct mem_config *c, int node)
{
	return node / mem_nodes_per_socket(c);
}

/* Counters: accesses by kind and place, and the bytes each path moved. */
struct mem_stats {
	uint64_t cpu_reads[MEM_NR_KINDS][MEM_NR_PLACES];
	uint64_t cpu_writes[MEM_NR_KINDS][MEM_NR_PLACES];
	uint64_t nic_writes[MEM_NR_KINDS];
	uint64_t nic_ddio;		/* DMA writes that went into the LLC */
	uint64_t nic_update;		/* of them, found their line there
					 * (write update): a DDIO write hit */
	uint64_t nic_snoops;		/* cross-socket invalidations by DMA */
	uint64_t qpi_bytes[MEM_MAX_SOCKETS];	/* into each socket */
	uint64_t dram_bytes[MEM_MAX_NODES];	/* read + written per node */
	/* the last CPU access's kind and place: mem_work charges its wait
	 * there (--explain) */
	uint8_t last_kind, last_place;
};

struct mem;

/* Returns NULL on an impossible configuration, with *err saying why. */
struct mem *mem_create(const struct mem_config *cfg, const char **err);
void mem_destroy(struct mem *m);

/* Registers nr_lines lines homed on node (0 .. mem_nr_nodes - 1);
 * returns the first line's id.  Line ids are addresses in lines: a
 * region starts on a page (MEM_PAGE_LINES), and a line's page offset
 * picks its set (cache.c, mem_cache_set_of).
 * The largest machine the keys allow fits; when the host refuses the
 * address space or the memory, returns MEM_NO_LINE, and from then on
 * every mem_region() does and mem_error() says why: the caller fails
 * (the model's state must not be used after it). */
uint32_t mem_region(struct mem *m, int node, enum mem_kind kind,
		    uint32_t nr_lines);
/* NULL, or why a mem_region() failed (a constant string). */
const char *mem_error(const struct mem *m);

/* A CPU access from core (0 .. sockets*cores-1); returns its latency in
 * core cycles.  A write takes the line in modified state, invalidating
 * other copies. */
double mem_cpu_read(struct mem *m, int core, uint32_t line);
double mem_cpu_write(struct mem *m, int core, uint32_t line);

/* A full-line DMA write by the NIC; returns the extra latency its
 * invalidations cost on the NIC's write path (s). */
double mem_nic_write(struct mem *m, uint32_t line);
/* A DMA read by the NIC; returns its latency beyond PCIe (s). */
double mem_nic_read(struct mem *m, uint32_t line);

/* Starts every cache's LRU clock at clock: tests reach its wrap without
 * four billion accesses. */
void mem_set_clock(struct mem *m, uint32_t clock);

/* A hint, no access: line will be looked at soon, so the host starts
 * fetching the model's state of it (a packet line's state is seldom in
 * the host's caches). */
void mem_prefetch(const struct mem *m, uint32_t line);

/* Where a CPU read from core would be served now (no state change). */
enum mem_place mem_where(const struct mem *m, int core, uint32_t line);

/* The name of an LLC policy (the word of cache.llc_policy), or NULL if
 * policy is not one of MEM_LLC_NR. */
const char *mem_llc_name(enum mem_llc_policy policy);

/* For tests: whether every LLC set's stamps keep its policy's rules
 * (cache.c: LRU's stamps, QLRU's counts QLRU_NOLD agree with its ways). */
bool mem_llc_consistent(const struct mem *m);

const struct mem_stats *mem_stats(const struct mem *m);
const struct mem_config *mem_config(const struct mem *m);

/*
 * How a core overlaps its misses with its work: the [model] keys.  What
 * hides a miss is the work the core does between the moment the line's
 * fetch starts (a prefetch, the streamer's run-ahead) and its first use:
 * that work is counted in core cycles, so the same code hides fewer
 * nanoseconds on a faster clock (design memo, doc/notes/fidelity-design.md,
 * section 2).
 */
struct mem_overlap {
	double win_random;	/* cycles of work between the driver's
				 * prefetch of a packet line or struct page
				 * and its use */
	double win_stack;	/* cycles of work between mlx5's
				 * prefetch(data) and the stack's first read
				 * of the packet: build_skb and the skb's
				 * fields come between */
	double win_ring;	/* cycles the L2 streamer runs ahead of a
				 * ring read (a completion) */
	double store_exposure;	/* fraction of a store miss the core waits */
	double copy_mlp;	/* misses a streaming copy keeps in flight */
};

/*
 * One piece of a core's work (a NAPI poll, a read from a socket): the
 * cycles it spends and how long it waits on memory.  Each access costs its
 * latency beyond a private hit, less the window of work that hides it.
 */
struct mem_work {
	struct mem *m;
	const struct mem_overlap *ov;
	int core;
	double hit;		/* cycles, a private hit: the floor of every
				 * access, part of the work */
	double freq;		/* Hz, the core clock */
	double cycles;		/* work */
	double stall;		/* s waiting on memory */
	/* of it, by what the core waited for and where that was served */
	double stall_at[MEM_NR_KINDS][MEM_NR_PLACES];
	const struct mem_stats *st;	/* where the last access was */
	double ring_mark;	/* stall at the last ring read */
};

/* Starts a piece of work on core, with nothing spent yet. */
void mem_work_init(struct mem_work *w, struct mem *m,
		   const struct mem_overlap *ov, int core);

/* The core waits s seconds for a line of kind served at place. */
static inline void mem_work_wait(struct mem_work *w, int kind, int place,
				 double s)
{
	w->stall += s;
	w->stall_at[kind][place] += s;
}

/* A read the core waits for beyond win cycles of work that hid it. */
static inline void mem_work_read(struct mem_work *w, uint32_t line,
				 double win)
{
	double lat = mem_cpu_read(w->m, w->core, line);

	if (lat > w->hit + win)
		mem_work_wait(w, w->st->last_kind, w->st->last_place,
			      (lat - w->hit - win) / w->freq);
}

/* A packet or struct page read: the driver prefetched it. */
static inline void mem_work_read_random(struct mem_work *w, uint32_t line)
{
	mem_work_read(w, line, w->ov->win_random);
}

/*
 * n adjacent lines asked for at once, as a packet's headers are: the
 * driver's prefetch of the first, and the prefetchers bring the next (the
 * L2 spatial prefetcher completes a 128-byte pair, the L1 DCU prefetcher
 * fetches the next line on an ascending access: Intel 64 and IA-32
 * Optimization Reference Manual, "Data Prefetching").  Their misses
 * overlap: the core waits for the slowest beyond the window of work that
 * hid it, not for their sum.
 */
static inline void mem_work_read_lines(struct mem_work *w, uint32_t line,
				      int n, double win)
{
	double worst = 0;
	int kind = 0, place = 0;

	for (int k = 0; k < n; k++) {
		double lat = mem_cpu_read(w->m, w->core, line + (uint32_t)k);

		if (lat > worst) {
			worst = lat;
			kind = w->st->last_kind;
			place = w->st->last_place;
		}
	}
	if (worst > w->hit + win)
		mem_work_wait(w, kind, place, (worst - w->hit - win) / w->freq);
}

/*
 * A ring read (a completion): the hardware prefetchers follow it, a line
 * ahead of the core.  The fetch of this line started at the previous ring
 * read: since then the core worked win_ring cycles and waited on other
 * misses, and the fetch ran on while it waited (a slow packet hides more
 * of the next completion's miss).
 */
static inline void mem_work_read_ring(struct mem_work *w, uint32_t line)
{
	double waited = (w->stall - w->ring_mark) * w->freq;

	mem_work_read(w, line, w->ov->win_ring + waited);
	w->ring_mark = w->stall;
}

/*
 * A copy of n lines from first on while the core does work cycles on them
 * (work is the caller's to add).  The line fill buffers keep copy_mlp
 * misses in flight, so the lines arrive in sum(latency beyond a hit) /
 * copy_mlp cycles, and the core's own work runs meanwhile: it waits only
 * for the part of the transfer its work does not cover, the slower of the
 * two and not their sum (the ECM model's overlap of in-core work and data
 * transfer; design memo, section 7.2).
 */
static inline void mem_work_copy(struct mem_work *w, uint32_t first, int n,
				 double work)
{
	double transfer = 0, at[MEM_NR_PLACES] = { 0 };
	int kind = 0;

	for (int k = 0; k < n; k++) {
		double lat = mem_cpu_read(w->m, w->core, first + (uint32_t)k);

		kind = w->st->last_kind;
		if (lat > w->hit) {
			transfer += lat - w->hit;
			at[w->st->last_place] += lat - w->hit;
		}
	}
	transfer /= w->ov->copy_mlp;
	if (transfer > work) {
		/* the wait shared among the places as their transfers */
		double s = (transfer - work) / w->freq;

		w->stall += s;
		for (int p = 0; p < MEM_NR_PLACES; p++)
			w->stall_at[kind][p] += s * at[p] /
						(transfer * w->ov->copy_mlp);
	}
}

/* A store whose line was asked for win cycles of work and wait before
 * (a prefetch for writing): the core waits for a fraction of the part of
 * its miss those did not hide. */
static inline void mem_work_store_after(struct mem_work *w, uint32_t line,
					double win)
{
	double lat = mem_cpu_write(w->m, w->core, line);

	if (lat > w->hit + win)
		mem_work_wait(w, w->st->last_kind, w->st->last_place,
			      (lat - w->hit - win) * w->ov->store_exposure /
			      w->freq);
}

/* A store: the core waits for a fraction of its miss. */
static inline void mem_work_store(struct mem_work *w, uint32_t line)
{
	mem_work_store_after(w, line, 0);
}

/* The core's work and wait so far, in cycles: what a miss asked for now
 * has to hide behind by the time the core needs it. */
static inline double mem_work_spent(const struct mem_work *w)
{
	return w->cycles + w->stall * w->freq;
}

#endif
