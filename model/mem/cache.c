#include <stdlib.h>
#include "cache.h"

int mem_cache_init(struct cache *c, uint64_t size, int ways,
		   const struct mem_llc_ops *ops)
{
	if (ways < 1 || (uint32_t)ways > ops->max_ways)
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

void mem_cache_fini(struct cache *c)
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
 * The page's hash must look random in its low bits, which pick its
 * group of 64 sets: a product by a constant alone (Fibonacci hashing)
 * is random only in its high bits, and put 4 of a CQ's 16 consecutive
 * pages in one group of sets, a conflict DDIO's 2 ways could not hold
 * (a quarter of the seed's completions then came from DRAM).  The
 * mixer is MurmurHash3's finalizer, fmix32 (A. Appleby, MurmurHash3,
 * public domain): every input bit moves every output bit.
 *
 * Every cache of a kind has the same sets, so a line learns its set
 * once (mem.c, learn).
 */
uint32_t mem_cache_set_of(const struct cache *c, uint32_t line)
{
	uint32_t h = line / MEM_PAGE_LINES;

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return set_index(c, h * MEM_PAGE_LINES + line % MEM_PAGE_LINES);
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

/* QLRU: every way starts empty and old. */
static void qlru_init_set(struct way *set, uint32_t ways)
{
	for (uint32_t i = 0; i < ways; i++)
		set[i] = (struct way){ NO_LINE, 0 };
	qlru_set_mask(set, QLRU_HI, qlru_ways(ways));
	qlru_set_mask(set, QLRU_LO, qlru_ways(ways));
	qlru_set_mask(set, QLRU_EMPTY, qlru_ways(ways));
}

static void lru_init_set(struct way *set, uint32_t ways)
{
	for (uint32_t i = 0; i < ways; i++)
		vacate(&set[i]);
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

/* Every set's mask of empty ways agrees with its ways, and no mask has
 * a bit beyond them. */
static bool qlru_consistent(const struct cache *c)
{
	uint64_t beyond = ~qlru_ways(c->ways);

	for (size_t n = 0; n < c->nsets; n++) {
		const struct way *set = &c->set[n * c->stride];
		uint64_t empty = 0;

		for (uint32_t i = 0; i < c->ways; i++)
			if (set[i].line == NO_LINE)
				empty |= UINT64_C(1) << i;
		if (empty != qlru_mask(set, QLRU_EMPTY) ||
		    ((qlru_mask(set, QLRU_HI) | qlru_mask(set, QLRU_LO)) &
		     beyond))
			return false;
	}
	return true;
}

const struct mem_llc_ops mem_llc_lru = {
	.name = "lru",
	.extra = 0,
	.max_ways = 255,
	.init_set = lru_init_set,
	.victim = lru_victim,
	.hit = lru_touch,
	.fill = lru_fill,
	.invalidate = lru_invalidate,
	.review = lru_review,
	.consistent = lru_consistent,
};

const struct mem_llc_ops mem_llc_qlru = {
	.name = "qlru",
	.extra = 3,		/* QLRU_EMPTY, QLRU_LO, QLRU_HI */
	.max_ways = QLRU_MAX_WAYS,
	.init_set = qlru_init_set,
	.victim = qlru_victim,
	.hit = qlru_hit,
	.fill = qlru_fill,
	.invalidate = qlru_invalidate,
	.review = NULL,		/* ages, no clock */
	.consistent = qlru_consistent,
};

/* Every LLC policy, by its enum mem_llc_policy. */
static const struct mem_llc_ops *const llc_policies[MEM_LLC_NR] = {
	[MEM_LLC_LRU] = &mem_llc_lru,
	[MEM_LLC_QLRU] = &mem_llc_qlru,
};

const struct mem_llc_ops *mem_llc_ops(enum mem_llc_policy policy)
{
	if ((unsigned int)policy >= MEM_LLC_NR)
		return NULL;
	return llc_policies[policy];
}

const char *mem_llc_name(enum mem_llc_policy policy)
{
	const struct mem_llc_ops *ops = mem_llc_ops(policy);

	return ops ? ops->name : NULL;
}

