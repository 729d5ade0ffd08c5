#define _GNU_SOURCE	/* mremap() */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "mem.h"

#define NO_LINE	MEM_NO_LINE

/* A line's state starts zeroed (see grow_lines): it learns its node,
 * kind and sets when first used. */
struct mem_line {
	uint32_t lset;		/* its set in every LLC */
	uint32_t pset;		/* and in every private cache (set_of) */
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

/* A way of a set: the line it holds and when it was last used (LRU), or
 * its age (QLRU). */
struct way {
	uint32_t line;		/* NO_LINE if empty */
	uint32_t stamp;		/* LRU: 0 if empty, the first victim */
};

/*
 * An LLC's replacement policy (mem.h, enum mem_llc_policy) as a strategy:
 * how a set's ways are stamped, which way a new line takes, and what a
 * hit, a fill and an invalidation do to the stamps.  One const table per
 * policy (llc_lru, llc_qlru below), registered by its enum value in
 * llc_policies[]; struct cache points at its own.  The calling protocol:
 *  - init_set() once per set, when the cache is made, on ways entries
 *    with extra entries of the policy's own before them (set[-extra]);
 *  - a line's first use: w = victim(set, ways, first), which picks among
 *    the ways from first on (DDIO's are the top ones); if w holds a line,
 *    the caller drops it (invalidate(), with the line's other copies),
 *    then puts its line into w->line and calls fill(c, set, w);
 *  - a later use of a line the set holds: hit(c, set, w);
 *  - a line leaving the set (an eviction elsewhere, a snoop, a DMA write
 *    to another socket's memory): invalidate(set, w), which empties w;
 *  - review(c), when not NULL, every CLOCK_REVIEW accesses (the clock's
 *    wrap);
 *  - consistent(c): whether every set's stamps keep the policy's rules
 *    (tests; mem_llc_consistent()).
 * The hot calls (victim, hit, fill, invalidate) call the shipped
 * policies' functions inline (llc_victim and the others below), the rest
 * through the table.  The private caches are always LRU and call its
 * functions directly.
 */
struct cache;
struct mem_llc_ops {
	const char *name;	/* the word of cache.llc_policy */
	uint32_t extra;		/* entries a set keeps before its first way */
	void (*init_set)(struct way *set, uint32_t ways);
	struct way *(*victim)(struct way *set, uint32_t ways, uint32_t first);
	void (*hit)(struct cache *c, struct way *set, struct way *w);
	void (*fill)(struct cache *c, struct way *set, struct way *w);
	void (*invalidate)(struct way *set, struct way *w);
	void (*review)(struct cache *c);
	bool (*consistent)(const struct cache *c);
};

/*
 * QLRU (mem.h, enum mem_llc_policy): a way's stamp is its age, 0 to 3,
 * and it keeps it when it loses its line, as in nanoBench's simulator of
 * the policy (tools/CacheAnalyzer/cacheSim.py: a flush empties the block
 * and leaves its age).  The entry before a set's first way counts its
 * ways of age 3 and its empty ways, kept as they change, so that neither
 * the aging nor the victim search looks at every way, and in the set's
 * own lines of the host's memory.
 */
#define QLRU_OLD	3
#define QLRU_NEW	1	/* a filled line's age */
#define QLRU_NOLD(set)		((set)[-1].line)
#define QLRU_NEMPTY(set)	((set)[-1].stamp)

/* 40 bytes, as with the bool it replaced: a core's private cache is
 * looked at every access, and 48 made the array's entries straddle
 * host cache lines. */
struct cache {
	const struct mem_llc_ops *ops;	/* its replacement policy */
	uint64_t nsets_inv;	/* for h % nsets without a division */
	struct way *set;	/* set 0's first way: nsets * stride */
	uint32_t nsets;
	uint32_t ways;
	uint32_t stride;	/* entries a set: ways, and the policy's
				 * ops->extra before them (QLRU_NOLD) */
	uint32_t clock;		/* LRU: the last stamp handed out */
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
	/* The last CPU access while nothing else changed the caches: the
	 * same core touching the same line again hits its private cache (a
	 * write, if that access wrote), and an LRU touch of the most
	 * recently used line changes no order, so it needs no work. */
	uint32_t last_line;
	int last_core;
	bool last_wrote;
	uint32_t review;	/* accesses until the clocks are looked at */
	const char *failed;	/* why a mem_region() failed, or NULL */
	double cycles[MEM_NR_PLACES];	/* a CPU access's latency by place */
	double snoop_cycles;	/* from another core's private cache */
	struct mem_stats st;
};

static int cache_init(struct cache *c, uint64_t size, int ways,
		      const struct mem_llc_ops *ops)
{
	if (ways < 1 || ways > 255)
		return -1;
	c->ops = ops;
	c->ways = (uint32_t)ways;
	c->nsets = (uint32_t)(size / MEM_LINE / (uint64_t)ways);
	if (!c->nsets)
		return -1;
	c->nsets_inv = UINT64_MAX / c->nsets + 1;
	c->stride = c->ways + ops->extra;
	c->set = malloc((size_t)c->nsets * c->stride * sizeof(*c->set));
	if (!c->set)
		return -1;
	c->set += ops->extra;
	for (size_t i = 0; i < c->nsets; i++)
		ops->init_set(&c->set[i * c->stride], c->ways);
	return 0;
}

static void cache_fini(struct cache *c)
{
	if (c->set)
		free(c->set - c->ops->extra);
}

/* h % c->nsets, by Lemire's exact 32-bit "fastmod": a division costs as
 * much as the rest of an access (D. Lemire et al., "Faster remainder by
 * direct computation", Software: Practice and Experience 49(6), 2019). */
static uint32_t set_index(const struct cache *c, uint32_t h)
{
	uint64_t low = c->nsets_inv * h;
	/* (low * nsets) >> 64, in 64-bit pieces */
	uint64_t top = (low >> 32) * c->nsets +
		       (((low & UINT32_MAX) * c->nsets) >> 32);

	return (uint32_t)(top >> 32);
}

/*
 * A line's set, from its address the way Intel's caches index it: the
 * set within an LLC slice (or the L2) is given by physical address bits 6
 * and up (bits 6-16 for the 2048 sets of a Broadwell or Skylake-SP slice),
 * the slice by a hash of the address (Maurice et al., "Reverse Engineering
 * Intel Last-Level Cache Complex Addressing Using Performance Counters",
 * RAID 2015; Yarom et al., "Mapping the Intel Last-Level Cache", 2015).
 * A line id is its address in lines (regions start on a page, see
 * mem_region), so the 64 lines of a 4 KiB page go to 64 consecutive sets,
 * and the page itself lands where a hash of its number puts it: the
 * kernel hands out page frames in no useful order.  What this keeps, and
 * a hash of the whole line would lose, is aliasing by page offset: the
 * packet lines of a ring of pages, all at the same offset (the driver's
 * headroom), share nsets / 64 sets of the cache, not all of them.
 *
 * Every cache of a kind has the same sets, so a line learns its set
 * once (learn).
 */
static uint32_t set_of(const struct cache *c, uint32_t line)
{
	uint32_t h = (line / MEM_PAGE_LINES) * 0x9e3779b1u;

	h = (h ^ (h >> 15)) * MEM_PAGE_LINES + line % MEM_PAGE_LINES;
	return set_index(c, h);
}

/* Before the clock wraps (a long run makes billions of touches): each
 * way's stamp becomes its rank in its set, which keeps every set's LRU
 * order. */
static void renumber(struct cache *c)
{
	for (size_t s = 0; s < c->nsets; s++) {
		struct way *set = &c->set[s * c->stride];
		uint32_t rank[256];

		for (uint32_t i = 0; i < c->ways; i++) {
			rank[i] = 1;
			for (uint32_t j = 0; j < c->ways; j++)
				rank[i] += set[j].stamp < set[i].stamp;
		}
		for (uint32_t i = 0; i < c->ways; i++)
			set[i].stamp = set[i].line == NO_LINE ? 0 : rank[i];
	}
	c->clock = c->ways;
}

static inline void touch(struct cache *c, struct way *w)
{
	w->stamp = ++c->clock;
}

/* A way loses its line. */
static inline void vacate(struct way *w)
{
	*w = (struct way){ NO_LINE, 0 };
}

/* QLRU: every way starts empty and old, and the set's counts say so. */
static void qlru_init_set(struct way *set, uint32_t ways)
{
	for (uint32_t i = 0; i < ways; i++)
		set[i] = (struct way){ NO_LINE, QLRU_OLD };
	set[-1] = (struct way){ ways, ways };
}

/* After an access: when no way of the set is old, all grow older. */
static inline void qlru_age_set(struct way *set, uint32_t ways)
{
	if (QLRU_NOLD(set))
		return;
	for (uint32_t i = 0; i < ways; i++)
		QLRU_NOLD(set) += ++set[i].stamp == QLRU_OLD;
}

static inline void qlru_hit(struct cache *c, struct way *set, struct way *w)
{
	QLRU_NOLD(set) -= w->stamp == QLRU_OLD;
	w->stamp = w->stamp >= 2 ? 1 : 0;
	qlru_age_set(set, c->ways);
}

/* A line put into w, which was empty: it enters at age 1. */
static inline void qlru_fill(struct cache *c, struct way *set, struct way *w)
{
	QLRU_NEMPTY(set)--;
	QLRU_NOLD(set) -= w->stamp == QLRU_OLD;
	w->stamp = QLRU_NEW;
	qlru_age_set(set, c->ways);
}

/* The way keeps its age. */
static inline void qlru_invalidate(struct way *set, struct way *w)
{
	QLRU_NEMPTY(set)++;
	w->line = NO_LINE;
}

/* The victim among the set's ways from first on: the first empty, else
 * the first of age 3, else, in a whole set, way 0 (as measured), and
 * among DDIO's ways, where nothing is measured, the oldest: guess. */
static inline struct way *qlru_victim(struct way *set, uint32_t ways,
			       uint32_t first)
{
	struct way *w = &set[first];

	if (QLRU_NEMPTY(set))
		for (uint32_t i = first; i < ways; i++)
			if (set[i].line == NO_LINE)
				return &set[i];
	if (QLRU_NOLD(set))
		for (uint32_t i = first; i < ways; i++)
			if (set[i].stamp == QLRU_OLD)
				return &set[i];
	if (!first)
		return w;
	for (uint32_t i = first; i < ways; i++)
		if (set[i].stamp > w->stamp)
			w = &set[i];
	return w;
}

/* The LRU way among ways ways from set on: an empty one first (the
 * first of them), as its stamp is 0.  Two searches side by side, even
 * ways and odd ways, without branches (which way wins is a coin toss):
 * one alone is a chain of dependent compares as long as the set.  Only
 * empty ways share a stamp; then the first wins. */
static inline __attribute__((always_inline)) struct way *
victim_search(struct way *set, uint32_t ways)
{
	uint32_t even = 0, odd = 1, i;
	uint32_t e_old = set[0].stamp, o_old = ways > 1 ? set[1].stamp
						      : UINT32_MAX;

	for (i = 2; i + 1 < ways; i += 2) {
		uint32_t e = set[i].stamp, o = set[i + 1].stamp;

		even = e < e_old ? i : even;
		e_old = e < e_old ? e : e_old;
		odd = o < o_old ? i + 1 : odd;
		o_old = o < o_old ? o : o_old;
	}
	if (i < ways) {
		uint32_t e = set[i].stamp;

		even = e < e_old ? i : even;
		e_old = e < e_old ? e : e_old;
	}
	if (o_old < e_old || (o_old == e_old && odd < even))
		return &set[odd];
	return &set[even];
}

/* The same search, unrolled by the compiler for the way counts of the
 * shipped machines (a private cache of 8, an LLC of 20, DDIO's 2): the
 * loop's own compares and jumps were a third of its instructions. */
static inline struct way *victim(struct way *set, uint32_t ways)
{
	switch (ways) {
	case 2:
		return victim_search(set, 2);
	case 8:
		return victim_search(set, 8);
	case 20:
		return victim_search(set, 20);
	default:
		return victim_search(set, ways);
	}
}

static void lru_init_set(struct way *set, uint32_t ways)
{
	for (uint32_t i = 0; i < ways; i++)
		vacate(&set[i]);
}

static inline struct way *lru_victim(struct way *set, uint32_t ways, uint32_t first)
{
	return victim(set + first, ways - first);
}

/* A hit and a fill alike make the way the most recently used. */
static inline void lru_touch(struct cache *c, struct way *set, struct way *w)
{
	(void)set;
	touch(c, w);
}

static inline void lru_invalidate(struct way *set, struct way *w)
{
	(void)set;
	vacate(w);
}

static void lru_review(struct cache *c)
{
	if (c->clock > UINT32_MAX / 2)
		renumber(c);
}

/* Every set: an empty way has stamp 0, and the ways that hold a line
 * have stamps above 0, no two alike (their order is the LRU order). */
static bool lru_consistent(const struct cache *c)
{
	for (size_t n = 0; n < c->nsets; n++) {
		const struct way *set = &c->set[n * c->stride];

		for (uint32_t i = 0; i < c->ways; i++) {
			if ((set[i].line == NO_LINE) != !set[i].stamp)
				return false;
			for (uint32_t j = 0; j < i; j++)
				if (set[i].stamp && set[j].stamp == set[i].stamp)
					return false;
		}
	}
	return true;
}

/* Every set's counts (QLRU_NOLD, QLRU_NEMPTY) agree with its ways, and
 * no age is above 3. */
static bool qlru_consistent(const struct cache *c)
{
	for (size_t n = 0; n < c->nsets; n++) {
		const struct way *set = &c->set[n * c->stride];
		uint32_t old = 0, empty = 0;

		for (uint32_t i = 0; i < c->ways; i++) {
			old += set[i].stamp == QLRU_OLD;
			empty += set[i].line == NO_LINE;
			if (set[i].stamp > QLRU_OLD)
				return false;
		}
		if (old != QLRU_NOLD(set) || empty != QLRU_NEMPTY(set))
			return false;
	}
	return true;
}

static const struct mem_llc_ops llc_lru = {
	.name = "lru",
	.extra = 0,
	.init_set = lru_init_set,
	.victim = lru_victim,
	.hit = lru_touch,
	.fill = lru_touch,
	.invalidate = lru_invalidate,
	.review = lru_review,
	.consistent = lru_consistent,
};

static const struct mem_llc_ops llc_qlru = {
	.name = "qlru",
	.extra = 1,		/* QLRU_NOLD, QLRU_NEMPTY */
	.init_set = qlru_init_set,
	.victim = qlru_victim,
	.hit = qlru_hit,
	.fill = qlru_fill,
	.invalidate = qlru_invalidate,
	.review = NULL,		/* ages, no clock */
	.consistent = qlru_consistent,
};

/*
 * The hot calls (an access's victim, hit, fill, invalidation): the
 * shipped policies' functions called directly, inline, after a compare on
 * the cache's table that the host predicts as it did the bool before;
 * only a policy not listed here goes through its table.  Through the
 * table for all, a run cost 4-7 % more CPU time (bench/README.md, "The
 * LLC's policy as a strategy").
 */
static inline __attribute__((always_inline)) struct way *
llc_victim(const struct cache *c, struct way *set, uint32_t first)
{
	if (c->ops == &llc_qlru)
		return qlru_victim(set, c->ways, first);
	if (c->ops == &llc_lru)
		return lru_victim(set, c->ways, first);
	return c->ops->victim(set, c->ways, first);
}

/* A hit on w, or (fill) w just filled: fill is a constant at each call. */
static inline __attribute__((always_inline)) void
llc_used(struct cache *c, struct way *set, struct way *w, bool fill)
{
	if (c->ops == &llc_qlru)
		(fill ? qlru_fill : qlru_hit)(c, set, w);
	else if (c->ops == &llc_lru)
		lru_touch(c, set, w);	/* a hit and a fill alike */
	else
		(fill ? c->ops->fill : c->ops->hit)(c, set, w);
}

static inline __attribute__((always_inline)) void
llc_invalidate(const struct cache *c, struct way *set, struct way *w)
{
	if (c->ops == &llc_qlru)
		qlru_invalidate(set, w);
	else if (c->ops == &llc_lru)
		lru_invalidate(set, w);
	else
		c->ops->invalidate(set, w);
}

/* Every LLC policy, by its enum mem_llc_policy. */
static const struct mem_llc_ops *const llc_policies[MEM_LLC_NR] = {
	[MEM_LLC_LRU] = &llc_lru,
	[MEM_LLC_QLRU] = &llc_qlru,
};

const char *mem_llc_name(enum mem_llc_policy policy)
{
	if ((unsigned int)policy >= MEM_LLC_NR)
		return NULL;
	return llc_policies[policy]->name;
}

struct mem *mem_create(const struct mem_config *cfg, const char **err)
{
	struct mem *m;
	int cores = cfg->sockets * cfg->cores;

	if (cfg->sockets < 1 || cfg->sockets > MEM_MAX_SOCKETS ||
	    cfg->cores < 1 ||
	    cfg->nic_node < 0 || cfg->nic_node >= cfg->sockets ||
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
	m->cycles[MEM_RDRAM] = cfg->rdram_lat * cfg->freq;
	m->snoop_cycles = cfg->snoop_lat * cfg->freq;
	m->last_line = NO_LINE;
	m->review = 1;
	m->priv = calloc((size_t)cores, sizeof(*m->priv));
	m->socket = malloc((size_t)cores);
	if (!m->priv || !m->socket)
		goto nomem;
	for (int c = 0; c < cores; c++)
		m->socket[c] = (uint8_t)(c / cfg->cores);
	for (int s = 0; s < cfg->sockets; s++)
		if (cache_init(&m->llc[s], cfg->llc_size, cfg->llc_ways,
			       llc_policies[cfg->llc_policy]))
			goto nomem;
	for (int c = 0; c < cores; c++)
		if (cache_init(&m->priv[c], cfg->l2_size, cfg->l2_ways,
			       &llc_lru))
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
		cache_fini(&m->llc[s]);
	if (m->priv)
		for (int c = 0; c < m->cfg.sockets * m->cfg.cores; c++)
			cache_fini(&m->priv[c]);
	free(m->priv);
	free(m->socket);
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
	ln->lset = set_of(&m->llc[0], line);
	ln->pset = set_of(&m->priv[0], line) * m->priv[0].ways;
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
	return &m->llc[s].set[(size_t)ln->lset * m->llc[s].stride];
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

static void writeback(struct mem *m, const struct mem_line *ln, int from)
{
	m->st.dram_bytes[ln->node] += MEM_LINE;
	if (ln->node != from)
		m->st.qpi_bytes[ln->node] += MEM_LINE;
}

/* Make room for line (state ln) in socket s's LLC, among the ways of its
 * set from first on. */
static void llc_fill(struct mem *m, int s, uint32_t line, struct mem_line *ln,
		     uint32_t first)
{
	struct cache *c = &m->llc[s];
	struct way *set = llc_set(m, s, ln);
	struct way *w = llc_victim(c, set, first);

	if (w->line != NO_LINE) {
		struct mem_line *old = held(m, w->line);

		if (old->dirty == s + 1)
			writeback(m, old, s);
		/* inclusive: the private copy goes too */
		drop_from_socket(m, old, s);
	}
	w->line = line;		/* the way is empty now */
	llc_used(c, set, w, true);
	ln->llc |= (uint8_t)(1u << s);
	ln->way[s] = (uint8_t)(w - set);
}

static inline void llc_touch(struct mem *m, int s, const struct mem_line *ln)
{
	struct cache *c = &m->llc[s];
	struct way *set = llc_set(m, s, ln);

	llc_used(c, set, &set[ln->way[s]], false);
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

/* Where core (of socket s) finds a line. */
static enum mem_place place_of(const struct mem_line *ln, int core, int s)
{
	if (ln->core == core + 1 && (!ln->dirty || ln->dirty == s + 1))
		return MEM_PRIV;
	if ((ln->dirty && ln->dirty != s + 1) || (ln->llc & ~(1u << s)))
		return ln->llc & (1u << s) && !ln->dirty ? MEM_LLC
							  : MEM_RCACHE;
	if (ln->llc & (1u << s))
		return MEM_LLC;
	return ln->node == s ? MEM_DRAM : MEM_RDRAM;
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
	} else if (p == MEM_DRAM || p == MEM_RDRAM) {
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
		lru_review(&m->priv[c]);
}

static inline void mind_clocks(struct mem *m)
{
	if (!--m->review)
		review_clocks(m);
}

/* What a CPU access from core (of socket s) costs where the line is
 * (cycles): a line another core of this socket holds modified comes from
 * that core's private cache, not the LLC, a cross-core transfer. */
static double cpu_latency(const struct mem *m, const struct mem_line *ln,
			  int core, int s, enum mem_place p)
{
	if (p == MEM_LLC && (ln->flags & LN_CORE_DIRTY) &&
	    ln->core != core + 1 && socket_of(m, ln->core - 1) == s)
		return m->snoop_cycles;
	return m->cycles[p];
}

double mem_cpu_read(struct mem *m, int core, uint32_t line)
{
	struct mem_line *ln;
	enum mem_place p;
	int s;
	double lat;

	if (again(m, core, line)) {
		m->st.last_kind = held(m, line)->kind;
		m->st.last_place = MEM_PRIV;
		m->st.cpu_reads[m->st.last_kind][MEM_PRIV]++;
		return m->cfg.l2_cycles;
	}
	ln = state(m, line);
	mind_clocks(m);
	s = socket_of(m, core);
	p = place_of(ln, core, s);
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

double mem_cpu_write(struct mem *m, int core, uint32_t line)
{
	struct mem_line *ln = state(m, line);
	enum mem_place p;
	int s = socket_of(m, core);
	double lat;

	m->st.last_kind = ln->kind;
	if (again(m, core, line) && m->last_wrote) {
		m->st.last_place = MEM_PRIV;
		m->st.cpu_writes[ln->kind][MEM_PRIV]++;
		return m->cfg.l2_cycles;
	}
	remember(m, core, line, true);
	mind_clocks(m);
	p = place_of(ln, core, s);
	m->st.cpu_writes[ln->kind][p]++;
	m->st.last_place = (uint8_t)p;
	if (p == MEM_PRIV && ln->dirty == s + 1) {
		priv_touch(m, core, ln);
		ln->flags |= LN_CORE_DIRTY;
		return m->cycles[p];
	}
	lat = cpu_latency(m, ln, core, s, p);
	/* read for ownership: every other socket's copy goes */
	for (unsigned o = ln->llc & ~(1u << s); o; o &= o - 1) {
		int t = __builtin_ctz(o);

		drop_from_socket(m, ln, t);
		m->st.qpi_bytes[t] += MEM_LINE;
	}
	if (p == MEM_PRIV)
		priv_touch(m, core, ln);
	else
		fetch(m, core, s, line, ln, p == MEM_RCACHE ? MEM_LLC : p);
	ln->dirty = (uint8_t)(s + 1);
	ln->flags |= LN_CORE_DIRTY;
	return lat;
}

double mem_nic_write(struct mem *m, uint32_t line)
{
	struct mem_line *ln = state(m, line);
	int n = m->cfg.nic_node;
	double extra = 0;

	m->st.nic_writes[ln->kind]++;
	m->last_line = NO_LINE;
	mind_clocks(m);
	for (unsigned o = ln->llc & ~(1u << n); o; o &= o - 1) {
		int t = __builtin_ctz(o);

		drop_from_socket(m, ln, t);
		m->st.nic_snoops++;
		m->st.qpi_bytes[t] += MEM_LINE;
		extra = 2 * m->cfg.qpi_lat;
	}
	if (ln->core) {	/* a private copy on the NIC's socket */
		vacate(&priv_set(m, ln->core - 1, ln)[ln->pway]);
		priv_forget(ln);
	}
	if (ln->node == n && m->cfg.ddio_ways) {
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
	if (ln->llc & (1u << n))
		drop_from_socket(m, ln, n);
	m->st.dram_bytes[ln->node] += MEM_LINE;
	if (ln->node != n)
		m->st.qpi_bytes[ln->node] += MEM_LINE;
	return extra;
}

double mem_nic_read(struct mem *m, uint32_t line)
{
	const struct mem_line *ln = state(m, line);
	int n = m->cfg.nic_node;

	if (ln->dirty && ln->dirty != n + 1) {
		m->st.qpi_bytes[n] += MEM_LINE;
		return m->cfg.rllc_lat;
	}
	if ((ln->flags & LN_CORE_DIRTY) && socket_of(m, ln->core - 1) == n)
		return m->cfg.snoop_lat;	/* from that core's cache */
	if (ln->llc & (1u << n))
		return m->cfg.llc_lat;
	m->st.dram_bytes[ln->node] += MEM_LINE;
	if (ln->node != n) {
		m->st.qpi_bytes[n] += MEM_LINE;
		return m->cfg.rdram_lat;
	}
	return m->cfg.dram_lat;
}

void mem_set_clock(struct mem *m, uint32_t clock)
{
	for (int s = 0; s < m->cfg.sockets; s++)
		m->llc[s].clock = clock;
	for (int c = 0; c < m->cfg.sockets * m->cfg.cores; c++)
		m->priv[c].clock = clock;
	m->review = 1;	/* at the next access */
}

void mem_prefetch(const struct mem *m, uint32_t line)
{
	__builtin_prefetch(&m->lines[line], 1);
}

enum mem_place mem_where(const struct mem *m, int core, uint32_t line)
{
	if (!(held(m, line)->flags & LN_KNOWN))	/* never touched: in DRAM */
		return region_of(m, line)->node == socket_of(m, core) ?
		       MEM_DRAM : MEM_RDRAM;
	return place_of(held(m, line), core, socket_of(m, core));
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
