/*
 * What the project's page_pool eras share: the pool as every era from v5.4
 * to v6.1 lays it out, and the paths no era changed.  Private to
 * model/page_pool; the rest of ppsim sees pp.h and kernel_era.h.
 */
#ifndef PPSIM_PP_ERA_H
#define PPSIM_PP_ERA_H

#include "kernel_era.h"
#include "../kernel/ptr_ring.h"

struct pp_pool {
	struct pp_params p;
	struct {
		u32 count;
		struct page *cache[PP_ALLOC_CACHE_SIZE];
	} alloc;			/* NAPI-only LIFO of pages */
	struct ptr_ring ring;		/* pages put outside NAPI */
	u32 pages_state_hold_cnt;	/* pages taken from the allocator */
	u32 pages_state_release_cnt;	/* pages let go */
	int destroy_cnt;		/* release attempts since destroy */
	struct pp_stats st;		/* alloc and recycle counters */
};

/* ring_limit: pool sizes above it are refused with -E2BIG (clamp false)
 * or cut down to it (clamp true). */
int era_create(const struct pp_params *p, unsigned int ring_limit,
	       bool clamp, struct pp_pool **pool);

/* v5.4 and v5.5 alloc: the cache only in softirq; an empty cache takes one
 * page plus up to 64 more from the ring, whatever their node; an empty
 * ring means one page from the page allocator on p.nid. */
struct page *era_alloc_ring_batched(struct pp_pool *pool);

/* A page taken from the allocator becomes the pool's. */
void era_hold_page(struct pp_pool *pool, struct page *page);
/* The pool lets a page go (it may live on with other references). */
void era_release_page(struct pp_pool *pool, struct page *page);
/* The pool lets a page go and drops its reference. */
void era_return_page(struct pp_pool *pool, struct page *page);

/* The put path every era shares: a reusable page with refcount 1 goes to
 * the alloc cache when direct (and the cache has room), else to the ring;
 * eras differ in what is reusable and when a put may be direct. */
void era_put(struct pp_pool *pool, struct page *page, bool direct,
	     bool reusable);
/* page_pool_put_page_bulk() as 5.11 wrote it: each page checked as a put
 * (direct: into the alloc cache while it has room, 6.12 when NAPI-local;
 * 6.1 never), those that may stay and were not cached produced into the
 * ring under one lock; a full ring stops it, counted once, and the rest
 * go. */
void era_put_bulk(struct pp_pool *pool, struct page **pages, int n,
		  bool direct, bool (*reusable)(const struct page *page));

/* v5.6 to v6.12 alloc: the cache without a softirq test (the caller
 * guarantees NAPI context); an empty cache refills from the ring, keeping
 * pages of the preferred node (p.nid, or numa_mem_id() for NUMA_NO_NODE)
 * and giving the first page of another node back (alloc_waive), which
 * ends the refill; an empty ring means 64 pages in bulk from the page
 * allocator. */
struct page *era_alloc_node_checked(struct pp_pool *pool);

/* v5.6 to v6.12 page_pool_update_nid(): sets p.nid and empties the alloc
 * cache back to the page allocator. */
void era_update_nid_flush(struct pp_pool *pool, int nid);

/* Return every cached page to the allocator; returns how many. */
unsigned int era_flush_cache(struct pp_pool *pool);

/* page_pool_release(): scrub, then free the pool when nothing is in
 * flight; returns the pages still in flight.  v5.4 empties the alloc
 * cache on every attempt; from v5.5 on the first attempt only (a direct
 * recycle after destroy then stays in the cache). */
int era_release_every(struct pp_pool *pool);
int era_release_once(struct pp_pool *pool);

void era_forget(struct pp_pool *pool);
int era_nid(const struct pp_pool *pool);
void era_stats(const struct pp_pool *pool, struct pp_stats *st);
void era_contents(const struct pp_pool *pool, struct pp_contents *c);

/* An era's page_pool (struct kernel_era's .pp): what the era does its own
 * way, and what every era does alike (destroy and the deferred retry are
 * its release). */
#define ERA_PP(nm, text, create_fn, alloc_fn, put_fn, put_bulk_fn, nid_fn, \
	       release_fn) { \
	.name = nm, .summary = text, \
	.create = create_fn, .alloc = alloc_fn, .put = put_fn, \
	.put_bulk = put_bulk_fn, .release = era_release_page, \
	.update_nid = nid_fn, .destroy = release_fn, \
	.release_retry = release_fn, .forget = era_forget, .nid = era_nid, \
	.stats = era_stats, .contents = era_contents }

#endif
