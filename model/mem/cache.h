/*
 * Inside the memory model (model/mem/ alone; mem.h is the module's
 * interface): a set-associative cache's sets and ways, and the LLC's
 * replacement policies as strategies.  cache.c makes the caches and
 * holds each policy's table; the calls an access makes on every line
 * (victim, hit, fill, invalidation) are here, inline, for mem.c's access
 * paths.
 */
#ifndef PPSIM_MEM_CACHE_H
#define PPSIM_MEM_CACHE_H

#include <string.h>
#include "mem.h"

#define NO_LINE	MEM_NO_LINE

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
 * policy (mem_llc_lru, mem_llc_qlru in cache.c), registered by its enum
 * value in llc_policies[]; struct cache points at its own.  The calling
 * protocol:
 *  - init_set() once per set, when the cache is made, on ways entries
 *    with extra entries of the policy's own before them (set[-extra]);
 *  - a line's first use: w = victim(set, ways, first), which picks among
 *    the ways from first on (DDIO's are the top ones), or, with ways below
 *    the set's, among first .. ways-1 (a non-inclusive LLC's placements,
 *    llc_victim_in); if w holds a line, the caller drops it
 *    (invalidate(), with the line's other copies), then puts its line
 *    into w->line and calls fill(c, set, w, first);
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
	uint32_t max_ways;	/* the most ways a set of it can have */
	void (*init_set)(struct way *set, uint32_t ways);
	struct way *(*victim)(struct way *set, uint32_t ways, uint32_t first);
	void (*hit)(struct cache *c, struct way *set, struct way *w);
	void (*fill)(struct cache *c, struct way *set, struct way *w,
		     uint32_t first);
	void (*invalidate)(struct way *set, struct way *w);
	void (*review)(struct cache *c);
	bool (*consistent)(const struct cache *c);
};

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
				 * ops->extra before them (QLRU_HI ...) */
	uint32_t clock;		/* LRU: the last stamp handed out */
};


static inline void touch(struct cache *c, struct way *w)
{
	w->stamp = ++c->clock;
}

/* A way loses its line. */
static inline void vacate(struct way *w)
{
	*w = (struct way){ NO_LINE, 0 };
}

/*
 * QLRU (mem.h, enum mem_llc_policy): each way has an age, 0 to 3, and
 * keeps it when it loses its line, as in nanoBench's simulator of the
 * policy (tools/CacheAnalyzer/cacheSim.py: a flush empties the block and
 * leaves its age).  A set's ages and empty ways are three 64-bit masks,
 * one bit a way, in the entries before its first way: the ages' high
 * bits, their low bits, the empty ways.  So the aging of a whole set, the
 * search for an empty or an old way and a hit are a few operations on
 * one host line, not a walk over the set's ways (issue 37: 137 of the
 * 244 instructions a packet that a 6-queue run's LLC fills cost went to
 * those walks); the ways' stamps are not used.
 */
#define QLRU_OLD	3
#define QLRU_MAX_WAYS	64	/* bits of a mask */
enum { QLRU_EMPTY = 1, QLRU_LO, QLRU_HI };	/* set[-k] */

static inline uint64_t qlru_mask(const struct way *set, int k)
{
	uint64_t v;

	memcpy(&v, &set[-k], sizeof(v));	/* no aliasing of a way */
	return v;
}

static inline void qlru_set_mask(struct way *set, int k, uint64_t v)
{
	memcpy(&set[-k], &v, sizeof(v));
}

/* The bits of a set's ways. */
static inline uint64_t qlru_ways(uint32_t ways)
{
	return UINT64_MAX >> (64 - ways);	/* 1..64 ways: no branch */
}

/* After an access by a requester that may fill the ways of mask: when
 * none of them is old, they all grow older (no age is above 2 then: 0 ->
 * 1, 1 -> 2, 2 -> 3); the set's other ways keep their ages. */
static inline void qlru_age_mask(struct way *set, uint64_t mask,
				 uint64_t hi, uint64_t lo)
{
	if (!(hi & lo & mask)) {
		hi |= lo & mask;
		lo = (lo & ~mask) | (~lo & mask);
	}
	qlru_set_mask(set, QLRU_HI, hi);
	qlru_set_mask(set, QLRU_LO, lo);
}

/* A core's access: the whole set. */
static inline void qlru_age_set(struct way *set, uint32_t ways,
				uint64_t hi, uint64_t lo)
{
	qlru_age_mask(set, qlru_ways(ways), hi, lo);
}

/* A hit makes age 3 or 2 into 1, and 1 into 0. */
static inline void qlru_hit(struct cache *c, struct way *set, struct way *w)
{
	uint64_t bit = UINT64_C(1) << (w - set);
	uint64_t hi = qlru_mask(set, QLRU_HI), lo = qlru_mask(set, QLRU_LO);

	lo = hi & bit ? lo | bit : lo & ~bit;
	qlru_age_set(set, c->ways, hi & ~bit, lo);
}

/*
 * A line put into w, which was empty, by a fill among the ways from first
 * on: it enters at age 1.  A fill confined to some ways (DDIO's) ages
 * those ways alone (qlru_age_mask), the set's others not.  A fill
 * restricted to a way mask runs the policy on the mask's ways as if they
 * were the whole set: CacheQuery learned Skylake's L3 policy with CAT
 * cutting it to 4 ways (cgvwzq/polca, README "Hardware Examples":
 * i5-6500 and i7-8550U L3, "4 (with CAT)", a QLRU variant of 175 states;
 * its synthesized rule, scripts/sketch/output/skyl3-w4_new.clean, ages
 * the 4 ways only).  That DDIO's IIO way mask (ddio-bench: "IIO LLC
 * WAYS") behaves as CAT's does on Broadwell-EP is a guess.
 */
static inline void qlru_fill_in(struct way *set, struct way *w,
				uint32_t first, uint32_t end)
{
	uint64_t bit = UINT64_C(1) << (w - set);
	uint64_t mask = qlru_ways(end) & (UINT64_MAX << first);

	qlru_set_mask(set, QLRU_EMPTY, qlru_mask(set, QLRU_EMPTY) & ~bit);
	qlru_age_mask(set, mask, qlru_mask(set, QLRU_HI) & ~bit,
		      qlru_mask(set, QLRU_LO) | bit);
}

static inline void qlru_fill(struct cache *c, struct way *set, struct way *w,
			     uint32_t first)
{
	qlru_fill_in(set, w, first, c->ways);
}

/* The way keeps its age. */
static inline void qlru_invalidate(struct way *set, struct way *w)
{
	qlru_set_mask(set, QLRU_EMPTY, qlru_mask(set, QLRU_EMPTY) |
				       UINT64_C(1) << (w - set));
	w->line = NO_LINE;
}

/* The victim among ways first .. ways-1: the first empty, else the first
 * of age 3, else, in a whole set, way 0 (as measured), and in part of a
 * set (DDIO's ways; a non-inclusive LLC's, llc_victim_in) the oldest,
 * the first of them on a tie: what the part's own aging (qlru_fill_in)
 * would make the first of age 3. */
static inline struct way *qlru_pick(struct way *set, uint32_t ways,
				    uint32_t first, bool whole)
{
	uint64_t from = qlru_ways(ways) & (UINT64_MAX << first);
	uint64_t hi = qlru_mask(set, QLRU_HI), lo = qlru_mask(set, QLRU_LO);
	uint64_t empty = qlru_mask(set, QLRU_EMPTY) & from;

	if (empty)
		return &set[__builtin_ctzll(empty)];
	if (hi & lo & from)
		return &set[__builtin_ctzll(hi & lo & from)];
	if (whole)
		return set;
	if (hi & from)		/* none is 3: the first of age 2 */
		return &set[__builtin_ctzll(hi & from)];
	if (lo & from)
		return &set[__builtin_ctzll(lo & from)];
	return &set[first];
}

/* Among the set's ways from first on: the whole set when first is 0. */
static inline struct way *qlru_victim(struct way *set, uint32_t ways,
				      uint32_t first)
{
	return qlru_pick(set, ways, first, !first);
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

static inline struct way *lru_victim(struct way *set, uint32_t ways,
				     uint32_t first)
{
	return victim(set + first, ways - first);
}

/* A hit and a fill alike make the way the most recently used. */
static inline void lru_touch(struct cache *c, struct way *set, struct way *w)
{
	(void)set;
	touch(c, w);
}

static inline void lru_fill(struct cache *c, struct way *set, struct way *w,
			    uint32_t first)
{
	(void)first;
	lru_touch(c, set, w);
}

static inline void lru_invalidate(struct way *set, struct way *w)
{
	(void)set;
	vacate(w);
}

/* Each policy's table (cache.c); the private caches are LRU's. */
extern const struct mem_llc_ops mem_llc_lru, mem_llc_qlru;

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
	if (c->ops == &mem_llc_qlru)
		return qlru_victim(set, c->ways, first);
	if (c->ops == &mem_llc_lru)
		return lru_victim(set, c->ways, first);
	return c->ops->victim(set, c->ways, first);
}

/* A hit on w. */
static inline __attribute__((always_inline)) void
llc_hit(struct cache *c, struct way *set, struct way *w)
{
	if (c->ops == &mem_llc_qlru)
		qlru_hit(c, set, w);
	else if (c->ops == &mem_llc_lru)
		lru_touch(c, set, w);
	else
		c->ops->hit(c, set, w);
}

/* w just filled, by a fill among the ways from first on. */
static inline __attribute__((always_inline)) void
llc_filled(struct cache *c, struct way *set, struct way *w, uint32_t first)
{
	if (c->ops == &mem_llc_qlru)
		qlru_fill(c, set, w, first);
	else if (c->ops == &mem_llc_lru)
		lru_touch(c, set, w);	/* a hit and a fill alike */
	else
		c->ops->fill(c, set, w, first);
}

static inline __attribute__((always_inline)) void
llc_invalidate(const struct cache *c, struct way *set, struct way *w)
{
	if (c->ops == &mem_llc_qlru)
		qlru_invalidate(set, w);
	else if (c->ops == &mem_llc_lru)
		lru_invalidate(set, w);
	else
		c->ops->invalidate(set, w);
}

/*
 * A fill confined to ways first .. end-1 of a set, as a non-inclusive
 * LLC places lines (mem.h, enum mem_inclusion: an L2's victim outside
 * DDIO's ways, a DMA write into ways 0 and 1): the policy runs on those
 * ways as if they were the whole set, as on DDIO's (qlru_fill).  A policy
 * not listed here picks its victim as told, and ages as its fill() does
 * from first on.  Off the inclusive LLC's paths.
 */
static inline struct way *llc_victim_in(const struct cache *c,
					struct way *set, uint32_t first,
					uint32_t end)
{
	if (c->ops == &mem_llc_qlru)
		return qlru_pick(set, end, first, !first && end == c->ways);
	if (c->ops == &mem_llc_lru)
		return lru_victim(set, end, first);
	return c->ops->victim(set, end, first);
}

static inline void llc_filled_in(struct cache *c, struct way *set,
				 struct way *w, uint32_t first, uint32_t end)
{
	if (c->ops == &mem_llc_qlru)
		qlru_fill_in(set, w, first, end);
	else
		llc_filled(c, set, w, first);
}

/* The table of a policy of mem.h, or NULL if it is not one. */
const struct mem_llc_ops *mem_llc_ops(enum mem_llc_policy policy);
/* A cache of size bytes in sets of ways ways, every set empty, replaced
 * by ops: 0, or -1 (an impossible geometry, or no memory). */
int mem_cache_init(struct cache *c, uint64_t size, int ways,
		   const struct mem_llc_ops *ops);
void mem_cache_fini(struct cache *c);
/* A line's set in c (every cache of a kind has the same sets). */
uint32_t mem_cache_set_of(const struct cache *c, uint32_t line);

#endif
