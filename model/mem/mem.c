#define _GNU_SOURCE	/* mremap() */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "cache.h"

/* A line's state starts zeroed (see grow_lines): it learns its node,
 * kind and sets when first used. */
struct mem_line {
	uint32_t lset;		/* its set's first way in every LLC (the set
				 * times the caches' stride) */
	uint32_t pset;		/* and in every private cache (mem_cache_set_of) */
	uint16_t core;		/* core + 1 whose private cache holds it */
	uint8_t node;		/* home node */
	uint8_t kind;		/* enum mem_kind */
	uint8_t llc;		/* sockets whose LLC holds the line */
	uint8_t dirty;		/* socket + 1 whose caches hold it modified */
	uint8_t pway;		/* its way there */
	uint8_t flags;		/* LN_* */
	uint8_t way[MEM_MAX_SOCKETS];	/* its way in each LLC holding it */
};

#define LN_KNOWN	1	/* node and kind are set */
#define LN_CORE_DIRTY	2	/* the private holder has it modified */

/* Lines first .. end-1, homed on node, of one kind. */
struct region {
	uint32_t first, end;
	uint8_t node, kind;
};

struct mem {
	struct mem_config cfg;
	struct mem_line *lines;	/* an anonymous mapping: see grow_lines */
	uint32_t nr_lines, cap_lines;
	struct region *regions;	/* in order of their first line */
	uint32_t nr_regions;
	struct cache llc[MEM_MAX_SOCKETS];
	struct cache *priv;	/* one per core */
	uint8_t *socket;	/* of each core: a division costs too much */
	uint8_t *node;		/* of each core */
	uint8_t node_socket[MEM_MAX_NODES];
	int nic_socket;
	bool split;		/* nodes apart from sockets: split_latency */
	bool nincl;		/* a non-inclusive LLC: the ni_ paths */
	/* The last CPU access while nothing else changed the caches: the
	 * same core touching the same line again hits its private cache (a
	 * write, if that access wrote), and an LRU touch of the most
	 * recently used line changes no order, so it needs no work. */
	uint32_t last_line;
	int last_core;
	bool last_wrote;
	uint32_t review;	/* accesses until the clocks are looked at
				 * (non-inclusive: held at 1, mind_clocks) */
	uint32_t ni_review;	/* non-inclusive: the clocks' countdown */
	const char *failed;	/* why a mem_region() failed, or NULL */
	double cycles[MEM_NR_PLACES];	/* a CPU access's latency by place */
	double snoop_cycles;	/* from another core's private cache */
	double node_extra;	/* cycles a transfer from another node of the
				 * socket adds: node_lat - dram_lat */
	struct mem_stats st;
};

struct mem *mem_create(const struct mem_config *cfg, const char **err)
{
	struct mem *m;
	int cores = cfg->sockets * cfg->cores;
	int nps = mem_nodes_per_socket(cfg);

	if (cfg->sockets < 1 || cfg->sockets > MEM_MAX_SOCKETS ||
	    cfg->cores < 1 || cfg->cores % nps ||
	    cfg->sockets * nps > MEM_MAX_NODES ||
	    cfg->nic_node < 0 || cfg->nic_node >= mem_nr_nodes(cfg) ||
	    cores > UINT16_MAX - 1) {
		*err = "impossible topology";
		return NULL;
	}
	if (cfg->ddio_ways < 0 || cfg->ddio_ways >= cfg->llc_ways) {
		*err = "ddio_ways must be below llc_ways";
		return NULL;
	}
	if (!(cfg->freq > 0)) {	/* latencies become cycles by it */
		*err = "the core clock must be above 0";
		return NULL;
	}
	if (!mem_llc_name(cfg->llc_policy)) {
		*err = "no such LLC policy";
		return NULL;
	}
	if ((unsigned int)cfg->inclusion >= MEM_INCLUSION_NR) {
		*err = "no such LLC inclusion";
		return NULL;
	}
	/* a DMA write puts a line it took from an L2 in ways 0 and 1 */
	if (cfg->inclusion == MEM_NON_INCLUSIVE &&
	    cfg->llc_ways - cfg->ddio_ways < MEM_DDIO_PLUS_WAYS) {
		*err = "a non-inclusive LLC needs 2 ways outside DDIO's";
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		*err = "out of memory";
		return NULL;
	}
	m->cfg = *cfg;
	/* in core cycles: a private hit is clocked by the core, the rest
	 * is not */
	m->cycles[MEM_PRIV] = cfg->l2_cycles;
	m->cycles[MEM_LLC] = cfg->llc_lat * cfg->freq;
	m->cycles[MEM_RCACHE] = cfg->rllc_lat * cfg->freq;
	m->cycles[MEM_DRAM] = cfg->dram_lat * cfg->freq;
	m->cycles[MEM_NDRAM] = cfg->node_lat * cfg->freq;
	m->cycles[MEM_RDRAM] = cfg->rdram_lat * cfg->freq;
	m->snoop_cycles = cfg->snoop_lat * cfg->freq;
	m->node_extra = (cfg->node_lat - cfg->dram_lat) * cfg->freq;
	m->split = nps > 1;
	m->nincl = cfg->inclusion == MEM_NON_INCLUSIVE;
	for (int n = 0; n < mem_nr_nodes(cfg); n++)
		m->node_socket[n] = (uint8_t)mem_socket_of_node(cfg, n);
	m->nic_socket = m->node_socket[cfg->nic_node];
	m->last_line = NO_LINE;
	m->review = 1;
	m->ni_review = 1;
	m->priv = calloc((size_t)cores, sizeof(*m->priv));
	m->socket = malloc((size_t)cores);
	m->node = malloc((size_t)cores);
	if (!m->priv || !m->socket || !m->node)
		goto nomem;
	for (int c = 0; c < cores; c++) {
		m->socket[c] = (uint8_t)(c / cfg->cores);
		m->node[c] = (uint8_t)mem_node_of_cpu(cfg, c);
	}
	for (int s = 0; s < cfg->sockets; s++)
		if (mem_cache_init(&m->llc[s], cfg->llc_size, cfg->llc_ways,
				   mem_llc_ops(cfg->llc_policy)))
			goto nomem;
	for (int c = 0; c < cores; c++)
		if (mem_cache_init(&m->priv[c], cfg->l2_size, cfg->l2_ways,
				   &mem_llc_lru))
			goto nomem;
	return m;
nomem:
	mem_destroy(m);
	*err = "out of memory (or a cache smaller than one set)";
	return NULL;
}

void mem_destroy(struct mem *m)
{
	if (!m)
		return;
	for (int s = 0; s < m->cfg.sockets; s++)
		mem_cache_fini(&m->llc[s]);
	if (m->priv)
		for (int c = 0; c < m->cfg.sockets * m->cfg.cores; c++)
			mem_cache_fini(&m->priv[c]);
	free(m->priv);
	free(m->socket);
	free(m->node);
	if (m->lines)
		munmap(m->lines, (size_t)m->cap_lines * sizeof(*m->lines));
	free(m->regions);
	free(m);
}

/* What the model cannot go on from (no memory for its own state): noted,
 * and every later mem_region() fails too (mem_error()). */
static uint32_t mem_fail(struct mem *m, const char *why)
{
	m->failed = why;
	return NO_LINE;
}

/* Room for n more lines.  The line state is an anonymous mapping the
 * kernel zero-fills page by page as it is first touched, and mremap()
 * grows it without touching it: the lines of pages nobody uses (most of
 * them, with a TCP packet's 24 lines a page) cost no memory.  It is mapped
 * MAP_NORESERVE, so that the kernel's overcommit heuristic does not refuse
 * the address space of lines never touched (8 nodes of mem.pages' most,
 * 2.2 G lines, are 52 GB of it).  The capacity grows in 64 bits and stops
 * at the last line id: doubled in 32 bits it wrapped to 0 and looped.
 * Returns 0, or -1 with m->failed saying why. */
static int grow_lines(struct mem *m, uint32_t n)
{
	size_t old = (size_t)m->cap_lines * sizeof(*m->lines), size;
	uint64_t need = (uint64_t)m->nr_lines + n;
	uint64_t cap = m->cap_lines ? m->cap_lines : 4096;
	void *p;

	/* line ids are 32 bits, NO_LINE the last: the keys' limits (8
	 * nodes of 2^22 pages, 65 lines a page) keep a machine far below */
	if (need >= NO_LINE) {
		mem_fail(m, "more line ids than 32 bits hold");
		return -1;
	}
	while (cap < need)
		cap *= 2;
	if (cap >= NO_LINE)
		cap = NO_LINE - 1;
	size = (size_t)cap * sizeof(*m->lines);
	p = m->lines ? mremap(m->lines, old, size, MREMAP_MAYMOVE)
		     : mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		mem_fail(m, "the line state's address space cannot be mapped");
		return -1;
	}
	m->lines = p;
	m->cap_lines = (uint32_t)cap;
	return 0;
}

uint32_t mem_region(struct mem *m, int node, enum mem_kind kind,
		    uint32_t nr_lines)
{
	/* on a page of its own, as the kernel's allocators give it; in 64
	 * bits, where a region past the last line id cannot wrap */
	uint64_t first64 = ((uint64_t)m->nr_lines + MEM_PAGE_LINES - 1) /
			   MEM_PAGE_LINES * MEM_PAGE_LINES;
	uint32_t first, end;
	struct region *r;

	if (m->failed)
		return NO_LINE;
	if (first64 + nr_lines >= NO_LINE)
		return mem_fail(m, "more line ids than 32 bits hold");
	first = (uint32_t)first64;
	end = first + nr_lines;
	if (end > m->cap_lines && grow_lines(m, end - m->nr_lines))
		return NO_LINE;
	r = realloc(m->regions, (m->nr_regions + 1) * sizeof(*m->regions));
	if (!r)
		return mem_fail(m, "out of memory for its regions");
	m->regions = r;
	m->regions[m->nr_regions++] = (struct region){ first, end,
		(uint8_t)node, (uint8_t)kind };

	m->nr_lines = end;
	return first;
}

static const struct region *region_of(const struct mem *m, uint32_t line)
{
	uint32_t lo = 0, hi = m->nr_regions - 1;

	while (lo < hi) {
		uint32_t mid = (lo + hi + 1) / 2;

		if (m->regions[mid].first <= line)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &m->regions[lo];
}

static __attribute__((noinline)) void learn(struct mem *m,
					     struct mem_line *ln,
					     uint32_t line)
{
	const struct region *r = region_of(m, line);

	ln->node = r->node;
	ln->kind = r->kind;
	ln->lset = mem_cache_set_of(&m->llc[0], line) * m->llc[0].stride;
	ln->pset = mem_cache_set_of(&m->priv[0], line) * m->priv[0].ways;
	ln->flags |= LN_KNOWN;
}

/* The state of a line some cache holds: it is known. */
static inline struct mem_line *held(const struct mem *m, uint32_t line)
{
	return &m->lines[line];
}

/* The line's state, its node, kind and sets learnt the first time. */
static inline struct mem_line *state(struct mem *m, uint32_t line)
{
	struct mem_line *ln = held(m, line);

	if (!(ln->flags & LN_KNOWN))
		learn(m, ln, line);
	return ln;
}

static inline int socket_of(const struct mem *m, int core)
{
	return m->socket[core];
}

/* The line's ways in socket s's LLC and in core's private cache. */
static inline struct way *llc_set(const struct mem *m, int s,
				  const struct mem_line *ln)
{
	return &m->llc[s].set[ln->lset];
}

static inline struct way *priv_set(const struct mem *m, int core,
				   const struct mem_line *ln)
{
	return &m->priv[core].set[ln->pset];
}

/* The line's private copy is gone (its way is the caller's business).
 * Two stores and no load: the state of a line evicted from a private
 * cache is seldom in the host's caches. */
static inline void priv_forget(struct mem_line *ln)
{
	ln->core = 0;
	ln->flags = LN_KNOWN;	/* the line is known, and clean there */
}

/* Drop a line from one socket: its LLC and any private copy there. */
static void drop_from_socket(struct mem *m, struct mem_line *ln, int s)
{
	if (ln->llc & (1u << s)) {
		struct way *set = llc_set(m, s, ln);

		llc_invalidate(&m->llc[s], set, &set[ln->way[s]]);
	}
	ln->llc &= (uint8_t)~(1u << s);
	if (ln->dirty == s + 1)
		ln->dirty = 0;
	if (ln->core && socket_of(m, ln->core - 1) == s) {
		vacate(&priv_set(m, ln->core - 1, ln)[ln->pway]);
		priv_forget(ln);
	}
}

/* Every copy in the sockets of held but s goes, each across the
 * interconnect (a write's ownership, a DMA write's snoops); returns how
 * many sockets had one. */
static inline int drop_elsewhere(struct mem *m, struct mem_line *ln,
				 unsigned int held, int s)
{
	int dropped = 0;

	for (unsigned int o = held & ~(1u << s); o; o &= o - 1, dropped++) {
		int t = __builtin_ctz(o);

		drop_from_socket(m, ln, t);
		m->st.qpi_bytes[t] += MEM_LINE;
	}
	return dropped;
}

/* A DMA write's snoops: every copy in the sockets of held but the NIC's
 * (n) goes; returns the wait a copy somewhere adds, a snoop there and
 * back. */
static inline double nic_snoop_elsewhere(struct mem *m, struct mem_line *ln,
					 unsigned int held, int n)
{
	int snoops = drop_elsewhere(m, ln, held, n);

	m->st.nic_snoops += snoops;
	return snoops ? 2 * m->cfg.qpi_lat : 0;
}

static void writeback(struct mem *m, const struct mem_line *ln, int from)
{
	int home = m->node_socket[ln->node];

	m->st.dram_bytes[ln->node] += MEM_LINE;
	if (home != from)
		m->st.qpi_bytes[home] += MEM_LINE;
}

/* The line in way w of set of socket s's LLC is evicted: written back if
 * modified there, and (inclusive) its private copy there goes too.  As
 * writeback() and drop_from_socket(), with its set and way at hand. */
static inline void llc_evict(struct mem *m, int s, struct way *set,
			     struct way *w)
{
	struct mem_line *old = held(m, w->line);

	if (old->dirty == s + 1) {
		writeback(m, old, s);
		old->dirty = 0;
	}
	llc_invalidate(&m->llc[s], set, w);
	old->llc &= (uint8_t)~(1u << s);
	if (old->core && socket_of(m, old->core - 1) == s) {
		vacate(&priv_set(m, old->core - 1, old)[old->pway]);
		priv_forget(old);
	}
}

/* Make room for line (state ln) in socket s's LLC, among the ways of its
 * set from first on. */
static void llc_fill(struct mem *m, int s, uint32_t line, struct mem_line *ln,
		     uint32_t first)
{
	struct cache *c = &m->llc[s];
	struct way *set = llc_set(m, s, ln);
	struct way *w = llc_victim(c, set, first);

	if (w->line != NO_LINE)
		llc_evict(m, s, set, w);
	w->line = line;		/* the way is empty now */
	llc_filled(c, set, w, first);
	ln->llc |= (uint8_t)(1u << s);
	ln->way[s] = (uint8_t)(w - set);
}

static inline void llc_touch(struct mem *m, int s, const struct mem_line *ln)
{
	struct cache *c = &m->llc[s];
	struct way *set = llc_set(m, s, ln);

	llc_hit(c, set, &set[ln->way[s]]);
}

static inline void priv_touch(struct mem *m, int core,
			      const struct mem_line *ln)
{
	touch(&m->priv[core], &priv_set(m, core, ln)[ln->pway]);
}

static inline __attribute__((always_inline)) void
priv_fill(struct mem *m, int core, uint32_t line,
		      struct mem_line *ln)
{
	struct cache *c = &m->priv[core];
	struct way *set = priv_set(m, core, ln), *w;

	if (ln->core == core + 1) {
		touch(c, &set[ln->pway]);
		return;
	}
	if (ln->core)	/* the model keeps one private holder */
		vacate(&priv_set(m, ln->core - 1, ln)[ln->pway]);
	priv_forget(ln);	/* a new holder starts clean */
	w = victim(set, c->ways);
	if (w->line != NO_LINE)
		priv_forget(held(m, w->line));	/* stays in the LLC */
	w->line = line;
	touch(c, w);
	ln->core = (uint16_t)(core + 1);
	ln->pway = (uint8_t)(w - set);
}

/* Where core (of socket s, node n) finds a line. */
static inline __attribute__((always_inline)) enum mem_place
place_of(const struct mem *m, const struct mem_line *ln, int core, int s,
	 int n)
{
	if (ln->core == core + 1 && (!ln->dirty || ln->dirty == s + 1))
		return MEM_PRIV;
	if ((ln->dirty && ln->dirty != s + 1) || (ln->llc & ~(1u << s)))
		return ln->llc & (1u << s) && !ln->dirty ? MEM_LLC
							  : MEM_RCACHE;
	if (ln->llc & (1u << s))
		return MEM_LLC;
	if (ln->node == n)
		return MEM_DRAM;
	return m->node_socket[ln->node] == s ? MEM_NDRAM : MEM_RDRAM;
}

/* Bring the line to core's socket s and private cache after a miss. */
static inline __attribute__((always_inline)) void
fetch(struct mem *m, int core, int s, uint32_t line,
		  struct mem_line *ln, enum mem_place p)
{
	int owner = 0;

	if (p == MEM_RCACHE) {
		m->st.qpi_bytes[s] += MEM_LINE;
		/* a line modified in another socket is forwarded modified
		 * and leaves that socket, no writeback: Broadwell-EP's home
		 * agent counts such responses, UNC_H_SNOOP_RESP.RSPIFWD, "M
		 * line forwarded from remote cache with no writeback to
		 * memory" (linux tools/perf/pmu-events/arch/x86/broadwellx);
		 * a line DDIO wrote then leaves the NIC's LLC, and the
		 * NIC's next write to it allocates anew (fidelity memo 12) */
		owner = ln->dirty;
		if (owner)
			drop_from_socket(m, ln, owner - 1);
	} else if (p == MEM_DRAM || p == MEM_NDRAM || p == MEM_RDRAM) {
		m->st.dram_bytes[ln->node] += MEM_LINE;
		if (p == MEM_RDRAM)
			m->st.qpi_bytes[s] += MEM_LINE;
	}
	if (!(ln->llc & (1u << s)))
		llc_fill(m, s, line, ln, 0);
	else
		llc_touch(m, s, ln);
	priv_fill(m, core, line, ln);
	if (owner)
		ln->dirty = (uint8_t)(s + 1);
}

static inline bool again(const struct mem *m, int core, uint32_t line)
{
	return line == m->last_line && core == m->last_core;
}

static inline void remember(struct mem *m, int core, uint32_t line,
			    bool wrote)
{
	m->last_line = line;
	m->last_core = core;
	m->last_wrote = wrote;
}

/* An access touches a cache a few times at most, so every cache is looked
 * at once in CLOCK_REVIEW accesses, long before its clock can wrap (a
 * check in touch() itself keeps it from being inlined: 10 % slower). */
#define CLOCK_REVIEW	(1u << 24)

static __attribute__((noinline)) void review_clocks(struct mem *m)
{
	m->review = CLOCK_REVIEW;
	for (int s = 0; s < m->cfg.sockets; s++)
		if (m->llc[s].ops->review)
			m->llc[s].ops->review(&m->llc[s]);
	for (int c = 0; c < m->cfg.sockets * m->cfg.cores; c++)
		mem_llc_lru.review(&m->priv[c]);
}

/*
 * The rare turn of an access: every CLOCK_REVIEW accesses, a look at the
 * clocks; every access of a non-inclusive LLC, whose countdown is held at
 * 1, its own paths (the ni_ functions).  So an inclusive LLC's access
 * pays nothing for those paths beyond the decrement and branch it paid
 * before (a test of nincl on each access cost 18 instructions a simulated
 * packet more, 1.2 %, on bench's close-drop: bench/README.md).  Returns
 * whether the access takes the non-inclusive paths.
 */
static __attribute__((noinline)) bool review_or_nincl(struct mem *m)
{
	if (!m->nincl) {
		review_clocks(m);
		return false;
	}
	if (!--m->ni_review) {
		review_clocks(m);
		m->ni_review = CLOCK_REVIEW;
	}
	m->review = 1;
	return true;
}

/* Counts an access down to the next look at the clocks; returns whether
 * it takes a non-inclusive LLC's paths (review_or_nincl). */
static inline bool mind_clocks(struct mem *m)
{
	return __builtin_expect(!--m->review, 0) && review_or_nincl(m);
}

/*
 * The same, on a machine whose sockets hold several nodes (SNC, NPS):
 * another node's DRAM costs node_lat, and a line served on the socket
 * from another node (a core's cache there; under SNC, the LLC slices of
 * the line's home node) adds what that node's DRAM adds to the own's,
 * node_lat - dram_lat: the same mesh or fabric distance is crossed (an
 * inference; no source measures the transfer).
 */
static __attribute__((noinline)) double
split_latency(const struct mem *m, const struct mem_line *ln, int core,
	      int s, enum mem_place p)
{
	int n = m->node[core];

	if (p == MEM_LLC && (ln->flags & LN_CORE_DIRTY) &&
	    ln->core != core + 1 && socket_of(m, ln->core - 1) == s)
		return m->snoop_cycles +
		       (m->node[ln->core - 1] != n ? m->node_extra : 0);
	if (p == MEM_LLC && ln->node != n && m->node_socket[ln->node] == s)
		return m->cycles[p] + m->node_extra;
	return m->cycles[p];	/* MEM_NDRAM: node_lat */
}

/* What a CPU access from core (of socket s) costs where the line is
 * (cycles): a line another core of this socket holds modified comes from
 * that core's private cache, not the LLC, a cross-core transfer. */
static double cpu_latency(const struct mem *m, const struct mem_line *ln,
			  int core, int s, enum mem_place p)
{
	if (m->split)
		return split_latency(m, ln, core, s, p);
	if (p == MEM_LLC && (ln->flags & LN_CORE_DIRTY) &&
	    ln->core != core + 1 && socket_of(m, ln->core - 1) == s)
		return m->snoop_cycles;
	return m->cycles[p];
}

/*
 * A non-inclusive LLC with a snoop filter (mem.h, enum mem_inclusion,
 * says what each rule rests on).  A line may be in a core's L2 and in no
 * LLC: the sockets that hold it are its LLCs' and its private holder's
 * (the model still keeps one private holder a line).  These paths are
 * apart from the inclusive LLC's, whose accesses reach them only through
 * the countdown of mind_clocks().
 */

/* The sockets whose caches hold the line. */
static inline unsigned int ni_sockets(const struct mem *m,
				      const struct mem_line *ln)
{
	unsigned int held = ln->llc;

	if (ln->core)
		held |= 1u << socket_of(m, ln->core - 1);
	return held;
}

/* Whether a core of socket s other than core (-1: any) holds the line. */
static inline bool ni_near(const struct mem *m, const struct mem_line *ln,
			   int core, int s)
{
	return ln->core && ln->core != core + 1 &&
	       socket_of(m, ln->core - 1) == s;
}

/* The ways of socket s's LLC a line an L2 evicts may take: DDIO's not. */
static inline uint32_t ni_core_ways(const struct mem *m, int s)
{
	return m->llc[s].ways - (uint32_t)m->cfg.ddio_ways;
}

/* The line leaves socket s's LLC for a core's L2: its way empties, and a
 * modified line stays modified on the socket. */
static void ni_llc_leave(struct mem *m, int s, struct mem_line *ln)
{
	struct way *set = llc_set(m, s, ln);

	llc_invalidate(&m->llc[s], set, &set[ln->way[s]]);
	ln->llc &= (uint8_t)~(1u << s);
}

/* Put line (state ln) into socket s's LLC, among the ways first .. end-1.
 * The line it evicts is written back if modified, unless a core's L2 has
 * it modified, and its L2 copy stays: no back-invalidation. */
static void ni_llc_put(struct mem *m, int s, uint32_t line,
		       struct mem_line *ln, uint32_t first, uint32_t end)
{
	struct cache *c = &m->llc[s];
	struct way *set = llc_set(m, s, ln);
	struct way *w = llc_victim_in(c, set, first, end);

	if (w->line != NO_LINE) {
		struct mem_line *old = held(m, w->line);

		if (old->dirty == s + 1 && !(old->flags & LN_CORE_DIRTY)) {
			writeback(m, old, s);
			old->dirty = 0;
		}
		llc_invalidate(c, set, w);
		old->llc &= (uint8_t)~(1u << s);
	}
	w->line = line;
	llc_filled_in(c, set, w, first, end);
	ln->llc |= (uint8_t)(1u << s);
	ln->way[s] = (uint8_t)(w - set);
}

/* Bring the line into core's L2 (core of socket s): its previous holder
 * loses it, and the line the L2 evicts for it goes to the LLC, modified
 * or not (the LLC as the L2s' victim cache), outside DDIO's ways, unless
 * the LLC has it already. */
static void ni_priv_fill(struct mem *m, int core, int s, uint32_t line,
			 struct mem_line *ln)
{
	struct cache *c = &m->priv[core];
	struct way *set = priv_set(m, core, ln), *w;

	if (ln->core == core + 1) {
		touch(c, &set[ln->pway]);
		return;
	}
	if (ln->core)
		vacate(&priv_set(m, ln->core - 1, ln)[ln->pway]);
	priv_forget(ln);
	w = victim(set, c->ways);
	if (w->line != NO_LINE) {
		struct mem_line *old = held(m, w->line);

		priv_forget(old);
		if (!(old->llc & (1u << s)))
			ni_llc_put(m, s, w->line, old, 0, ni_core_ways(m, s));
	}
	w->line = line;
	touch(c, w);
	ln->core = (uint16_t)(core + 1);
	ln->pway = (uint8_t)(w - set);
}

/* Where core (of socket s, node n) finds a line: as place_of(), and also
 * in another core's L2 of the socket that the LLC has no copy of (the
 * snoop filter sends the read there: MEM_LLC, at snoop_lat). */
static enum mem_place ni_place_of(const struct mem *m,
				  const struct mem_line *ln, int core, int s,
				  int n)
{
	if (ln->core == core + 1 && (!ln->dirty || ln->dirty == s + 1))
		return MEM_PRIV;
	if (ln->dirty && ln->dirty != s + 1)
		return MEM_RCACHE;
	if ((ln->llc & (1u << s)) || ni_near(m, ln, core, s))
		return MEM_LLC;
	if (ni_sockets(m, ln))
		return MEM_RCACHE;
	if (ln->node == n)
		return MEM_DRAM;
	return m->node_socket[ln->node] == s ? MEM_NDRAM : MEM_RDRAM;
}

/* What the access costs there (cycles): a line on the socket that the
 * LLC has no copy of comes from its holder's L2, modified or not. */
static double ni_latency(const struct mem *m, const struct mem_line *ln,
			 int core, int s, enum mem_place p)
{
	if (p == MEM_LLC && !(ln->llc & (1u << s)))
		return m->snoop_cycles +
		       (m->split && m->node[ln->core - 1] != m->node[core] ?
			m->node_extra : 0);
	return cpu_latency(m, ln, core, s, p);
}

/* A read's line to core's L2 after a miss there. */
static void ni_fetch(struct mem *m, int core, int s, uint32_t line,
		     struct mem_line *ln, enum mem_place p)
{
	int owner = 0;

	if (p == MEM_RCACHE) {
		m->st.qpi_bytes[s] += MEM_LINE;
		owner = ln->dirty;	/* forwarded modified, as fetch() */
		if (owner)
			drop_from_socket(m, ln, owner - 1);
	} else if (p == MEM_LLC) {
		if (!ni_near(m, ln, core, s))
			ni_llc_leave(m, s, ln);	/* moved, not copied: 4f */
		else if (ln->llc & (1u << s))
			llc_touch(m, s, ln);
		else	/* two cores read it: the LLC keeps a copy, 4d */
			ni_llc_put(m, s, line, ln, 0, ni_core_ways(m, s));
	} else {	/* DRAM: into the L2 alone */
		m->st.dram_bytes[ln->node] += MEM_LINE;
		if (p == MEM_RDRAM)
			m->st.qpi_bytes[s] += MEM_LINE;
	}
	ni_priv_fill(m, core, s, line, ln);
	if (owner)
		ln->dirty = (uint8_t)(s + 1);
}

static __attribute__((noinline)) double
ni_cpu_read(struct mem *m, int core, int s, uint32_t line,
	    struct mem_line *ln)
{
	enum mem_place p = ni_place_of(m, ln, core, s, m->node[core]);
	double lat = ni_latency(m, ln, core, s, p);

	m->st.cpu_reads[ln->kind][p]++;
	m->st.last_kind = ln->kind;
	m->st.last_place = (uint8_t)p;
	if (p == MEM_PRIV)
		priv_touch(m, core, ln);
	else
		ni_fetch(m, core, s, line, ln, p);
	remember(m, core, line, false);
	return lat;
}

/* A write: every other copy goes, the LLC's too (4c), and the line lives
 * modified in the writer's L2. */
static __attribute__((noinline)) double
ni_cpu_write(struct mem *m, int core, int s, uint32_t line,
	     struct mem_line *ln)
{
	enum mem_place p = ni_place_of(m, ln, core, s, m->node[core]);
	double lat = ni_latency(m, ln, core, s, p);

	m->st.cpu_writes[ln->kind][p]++;
	m->st.last_place = (uint8_t)p;
	drop_elsewhere(m, ln, ni_sockets(m, ln), s);
	if (ln->llc & (1u << s))
		ni_llc_leave(m, s, ln);
	if (p == MEM_DRAM || p == MEM_NDRAM || p == MEM_RDRAM) {
		m->st.dram_bytes[ln->node] += MEM_LINE;
		if (p == MEM_RDRAM)
			m->st.qpi_bytes[s] += MEM_LINE;
	}
	ni_priv_fill(m, core, s, line, ln);
	ln->dirty = (uint8_t)(s + 1);
	ln->flags |= LN_CORE_DIRTY;
	return lat;
}

/* A DMA write DDIO does not take: the socket's copy goes, and the line
 * to its home's DRAM, across the interconnect from the other socket. */
static void nic_write_memory(struct mem *m, struct mem_line *ln, int n,
			     int home)
{
	if (ln->llc & (1u << n))
		drop_from_socket(m, ln, n);
	m->st.dram_bytes[ln->node] += MEM_LINE;
	if (home != n)
		m->st.qpi_bytes[home] += MEM_LINE;
}

/* A DMA write: every copy in an L2 or another socket's LLC goes; DDIO
 * updates the line where the NIC's LLC holds it, puts a line it took from
 * an L2 into ways 0 and 1 (4e, "DDIO+"), and any other into DDIO's. */
static __attribute__((noinline)) double
ni_nic_write(struct mem *m, uint32_t line, struct mem_line *ln)
{
	int n = m->nic_socket, home = m->node_socket[ln->node];
	uint32_t ways = m->llc[n].ways, ddio = (uint32_t)m->cfg.ddio_ways;
	double extra = nic_snoop_elsewhere(m, ln, ni_sockets(m, ln), n);
	bool from_l2 = ln->core;	/* of the NIC's socket, now */

	if (from_l2) {
		vacate(&priv_set(m, ln->core - 1, ln)[ln->pway]);
		priv_forget(ln);
	}
	if (home == n && ddio) {
		if (ln->llc & (1u << n)) {
			llc_touch(m, n, ln);	/* write update */
			m->st.nic_update++;
		} else if (from_l2) {
			ni_llc_put(m, n, line, ln, 0, MEM_DDIO_PLUS_WAYS);
		} else {
			ni_llc_put(m, n, line, ln, ways - ddio, ways);
		}
		ln->dirty = (uint8_t)(n + 1);
		m->st.nic_ddio++;
		return extra;
	}
	nic_write_memory(m, ln, n, home);
	return extra;
}

/* An access that hit the core's own L2, counted in count (the reads' or
 * the writes'): a private hit's latency. */
static inline double priv_hit(struct mem *m, const struct mem_line *ln,
			      uint64_t count[][MEM_NR_PLACES])
{
	m->st.last_kind = ln->kind;
	m->st.last_place = MEM_PRIV;
	count[ln->kind][MEM_PRIV]++;
	return m->cycles[MEM_PRIV];
}

/* A CPU read that does not hit the private cache at once (mem_cpu_read). */
static __attribute__((noinline)) double
cpu_read_miss(struct mem *m, int core, uint32_t line)
{
	struct mem_line *ln = state(m, line);
	enum mem_place p;
	int s;
	double lat;

	if (mind_clocks(m))
		return ni_cpu_read(m, core, socket_of(m, core), line, ln);
	s = socket_of(m, core);
	p = place_of(m, ln, core, s, m->node[core]);
	lat = cpu_latency(m, ln, core, s, p);
	m->st.cpu_reads[ln->kind][p]++;
	m->st.last_kind = ln->kind;
	m->st.last_place = (uint8_t)p;
	if (p == MEM_PRIV)
		priv_touch(m, core, ln);
	else
		fetch(m, core, s, line, ln, p);
	remember(m, core, line, false);
	return lat;
}

/*
 * The common read, a line the core holds and no other socket modified,
 * stays a few instructions: place_of()'s MEM_PRIV, whose latency is a
 * private hit's on every machine (cpu_latency), while the clocks'
 * countdown is not due and the LLC is inclusive (a non-inclusive one
 * holds the countdown at 1).  The miss's inlined fetch made every read
 * save and restore its registers: 1455 -> 1401 instructions a packet
 * on bench's close-drop (bench/README.md).
 */
double mem_cpu_read(struct mem *m, int core, uint32_t line)
{
	struct mem_line *ln = held(m, line);
	int s = socket_of(m, core);

	if (again(m, core, line))
		return priv_hit(m, ln, m->st.cpu_reads);
	if (ln->core != core + 1 || (ln->dirty && ln->dirty != s + 1) ||
	    m->review <= 1)
		return cpu_read_miss(m, core, line);
	m->review--;
	priv_touch(m, core, ln);
	remember(m, core, line, false);
	return priv_hit(m, ln, m->st.cpu_reads);
}

/* A CPU write that does not hit a line the core holds modified
 * (mem_cpu_write). */
static __attribute__((noinline)) double
cpu_write_miss(struct mem *m, int core, int s, uint32_t line)
{
	struct mem_line *ln = state(m, line);
	enum mem_place p;
	double lat;

	m->st.last_kind = ln->kind;
	remember(m, core, line, true);
	if (mind_clocks(m))
		return ni_cpu_write(m, core, s, line, ln);
	p = place_of(m, ln, core, s, m->node[core]);
	m->st.cpu_writes[ln->kind][p]++;
	m->st.last_place = (uint8_t)p;
	if (p == MEM_PRIV && ln->dirty == s + 1) {
		priv_touch(m, core, ln);
		ln->flags |= LN_CORE_DIRTY;
		return m->cycles[p];
	}
	lat = cpu_latency(m, ln, core, s, p);
	/* read for ownership: every other socket's copy goes */
	drop_elsewhere(m, ln, ln->llc, s);
	if (p == MEM_PRIV)
		priv_touch(m, core, ln);
	else
		fetch(m, core, s, line, ln, p == MEM_RCACHE ? MEM_LLC : p);
	ln->dirty = (uint8_t)(s + 1);
	ln->flags |= LN_CORE_DIRTY;
	return lat;
}

/* The common write, to a line the core holds and its socket has
 * modified, as mem_cpu_read()'s hit. */
double mem_cpu_write(struct mem *m, int core, uint32_t line)
{
	struct mem_line *ln = held(m, line);
	int s = socket_of(m, core);

	if (again(m, core, line) && m->last_wrote)
		return priv_hit(m, ln, m->st.cpu_writes);
	if (ln->core != core + 1 || ln->dirty != s + 1 || m->review <= 1)
		return cpu_write_miss(m, core, s, line);
	m->review--;
	remember(m, core, line, true);
	priv_touch(m, core, ln);
	ln->flags |= LN_CORE_DIRTY;
	return priv_hit(m, ln, m->st.cpu_writes);
}

double mem_nic_write(struct mem *m, uint32_t line)
{
	struct mem_line *ln = state(m, line);
	int n = m->nic_socket, home = m->node_socket[ln->node];
	double extra;

	m->st.nic_writes[ln->kind]++;
	m->last_line = NO_LINE;
	if (mind_clocks(m))
		return ni_nic_write(m, line, ln);
	extra = nic_snoop_elsewhere(m, ln, ln->llc, n);
	if (ln->core) {	/* a private copy on the NIC's socket */
		vacate(&priv_set(m, ln->core - 1, ln)[ln->pway]);
		priv_forget(ln);
	}
	/* DDIO serves the memory of every node of the NIC's socket */
	if (home == n && m->cfg.ddio_ways) {
		if (ln->llc & (1u << n)) {
			llc_touch(m, n, ln);	/* write update */
			m->st.nic_update++;
		} else {
			llc_fill(m, n, line, ln, m->llc[n].ways -
						 (uint32_t)m->cfg.ddio_ways);
		}
		ln->dirty = (uint8_t)(n + 1);
		m->st.nic_ddio++;
		return extra;
	}
	nic_write_memory(m, ln, n, home);
	return extra;
}

double mem_nic_read(struct mem *m, uint32_t line)
{
	const struct mem_line *ln = state(m, line);
	int n = m->nic_socket, nic = m->cfg.nic_node;
	/* from another node of the NIC's socket: as split_latency */
	double apart = m->cfg.node_lat - m->cfg.dram_lat;

	if (ln->dirty && ln->dirty != n + 1) {
		m->st.qpi_bytes[n] += MEM_LINE;
		return m->cfg.rllc_lat;
	}
	if ((ln->flags & LN_CORE_DIRTY) && socket_of(m, ln->core - 1) == n)
		/* from that core's cache */
		return m->cfg.snoop_lat +
		       (m->node[ln->core - 1] != nic ? apart : 0);
	if (ln->llc & (1u << n))
		return m->cfg.llc_lat + (m->split && ln->node != nic &&
					 m->node_socket[ln->node] == n ?
					 apart : 0);
	/* non-inclusive: from an L2 of the socket, clean there, which the
	 * snoop filter sends the read to */
	if (m->nincl && ni_near(m, ln, -1, n))
		return m->cfg.snoop_lat +
		       (m->node[ln->core - 1] != nic ? apart : 0);
	m->st.dram_bytes[ln->node] += MEM_LINE;
	if (m->node_socket[ln->node] != n) {
		m->st.qpi_bytes[n] += MEM_LINE;
		return m->cfg.rdram_lat;
	}
	return ln->node != nic ? m->cfg.node_lat : m->cfg.dram_lat;
}

void mem_set_clock(struct mem *m, uint32_t clock)
{
	for (int s = 0; s < m->cfg.sockets; s++)
		m->llc[s].clock = clock;
	for (int c = 0; c < m->cfg.sockets * m->cfg.cores; c++)
		m->priv[c].clock = clock;
	m->review = 1;	/* at the next access */
	m->ni_review = 1;
}

void mem_prefetch(const struct mem *m, uint32_t line)
{
	__builtin_prefetch(&m->lines[line], 1);
}

enum mem_place mem_where(const struct mem *m, int core, uint32_t line)
{
	if (!(held(m, line)->flags & LN_KNOWN)) {	/* never touched */
		int node = region_of(m, line)->node;

		if (node == m->node[core])
			return MEM_DRAM;
		return m->node_socket[node] == socket_of(m, core) ?
		       MEM_NDRAM : MEM_RDRAM;
	}
	if (m->nincl)
		return ni_place_of(m, held(m, line), core, socket_of(m, core),
				   m->node[core]);
	return place_of(m, held(m, line), core, socket_of(m, core),
			m->node[core]);
}

bool mem_llc_consistent(const struct mem *m)
{
	for (int s = 0; s < m->cfg.sockets; s++)
		if (!m->llc[s].ops->consistent(&m->llc[s]))
			return false;
	return true;
}

const char *mem_error(const struct mem *m)
{
	return m->failed;
}

const struct mem_stats *mem_stats(const struct mem *m)
{
	return &m->st;
}

const struct mem_config *mem_config(const struct mem *m)
{
	return &m->cfg;
}

void mem_work_init(struct mem_work *w, struct mem *m,
		   const struct mem_overlap *ov, int core)
{
	*w = (struct mem_work){ .m = m, .ov = ov, .core = core,
				.hit = m->cfg.l2_cycles, .freq = m->cfg.freq,
				.st = &m->st };
}
