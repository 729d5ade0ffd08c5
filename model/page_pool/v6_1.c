/*
 * page_pool as in v6.1 (Debian's linux-source-6.1, 6.1.y):
 *  - put keeps any page with refcount 1 that is not pfmemalloc: no node
 *    check at put since v5.6 (44768decb7c0);
 *  - the node is checked when an empty alloc cache refills from the ring:
 *    pages of the preferred node (p.nid, or numa_mem_id() for
 *    NUMA_NO_NODE) are kept; the first page of another node is given back
 *    to the page allocator (alloc_waive) and the refill stops there;
 *  - the alloc cache is used without a softirq test: the caller guarantees
 *    NAPI context;
 *  - the slow path takes 64 pages in bulk from the page allocator;
 *  - page_pool_update_nid() sets p.nid and empties the alloc cache back to
 *    the page allocator;
 *  - 6.1.y cuts pool_size down to 16384 instead of refusing it.
 */
#include <string.h>
#include "era.h"

static int v6_1_create(const struct pp_params *p, struct pp_pool **pool)
{
	return era_create(p, 16384, true, pool);
}

static struct page *refill_alloc_cache(struct pp_pool *pool)
{
	int pref_nid;
	struct page *page;

	if (__ptr_ring_empty(&pool->ring)) {
		pool->st.alloc_empty++;
		return NULL;
	}
	pref_nid = pool->p.nid == NUMA_NO_NODE ? numa_mem_id() : pool->p.nid;
	do {
		page = __ptr_ring_consume(&pool->ring);
		if (unlikely(!page))
			break;
		if (likely(page_to_nid(page) == pref_nid)) {
			pool->alloc.cache[pool->alloc.count++] = page;
		} else {
			/* One wrong page per refill: spare the buddy
			 * allocator, let the slow path take over. */
			era_return_page(pool, page);
			pool->st.alloc_waive++;
			page = NULL;
			break;
		}
	} while (pool->alloc.count < PP_ALLOC_CACHE_REFILL);

	if (likely(pool->alloc.count > 0)) {
		page = pool->alloc.cache[--pool->alloc.count];
		pool->st.alloc_refill++;
	}
	return page;
}

static struct page *alloc_pages_slow(struct pp_pool *pool)
{
	unsigned long nr_pages;

	memset(pool->alloc.cache, 0,
	       sizeof(pool->alloc.cache[0]) * PP_ALLOC_CACHE_REFILL);
	nr_pages = alloc_pages_bulk_array_node(GFP_ATOMIC | __GFP_NOWARN,
					       pool->p.nid,
					       PP_ALLOC_CACHE_REFILL,
					       pool->alloc.cache);
	for (unsigned long i = 0; i < nr_pages; i++) {
		struct page *page = pool->alloc.cache[i];

		era_hold_page(pool, page);
		pool->alloc.cache[pool->alloc.count++] = page;
	}
	if (unlikely(!pool->alloc.count))
		return NULL;
	pool->st.alloc_slow++;
	return pool->alloc.cache[--pool->alloc.count];
}

static struct page *v6_1_alloc(struct pp_pool *pool)
{
	struct page *page;

	if (likely(pool->alloc.count)) {
		pool->st.alloc_fast++;
		return pool->alloc.cache[--pool->alloc.count];
	}
	page = refill_alloc_cache(pool);
	if (page)
		return page;
	return alloc_pages_slow(pool);
}

/* Since 5.6 (44768decb7c0) a page is kept whatever its node, unless it
 * is pfmemalloc. */
static bool v6_1_reusable(const struct page *page)
{
	return !page_is_pfmemalloc(page);
}

static void v6_1_put(struct pp_pool *pool, struct page *page,
		     bool allow_direct)
{
	era_put(pool, page, allow_direct, v6_1_reusable(page));
}

static void v6_1_put_bulk(struct pp_pool *pool, struct page **pages, int n)
{
	era_put_bulk(pool, pages, n, v6_1_reusable);
}

static void v6_1_update_nid(struct pp_pool *pool, int nid)
{
	pool->p.nid = nid;
	/* Refill checks the node; the cache does not, so empty it. */
	era_flush_cache(pool);
}

const struct pp_policy pp_v6_1 = ERA_POLICY("v6.1",
	"node checked at refill from the ring, bulk slow path, update_nid flushes",
	PP_NID_AT_REFILL, v6_1_create, v6_1_alloc,
	v6_1_put, v6_1_put_bulk, v6_1_update_nid, era_release_once);
