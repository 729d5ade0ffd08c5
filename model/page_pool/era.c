#include <stdlib.h>
#include <string.h>
#include "era.h"

int era_create(const struct pp_params *p, unsigned int ring_limit,
	       bool clamp, struct pp_pool **poolp)
{
	unsigned int qsize = p->pool_size ? p->pool_size : 1024;
	struct pp_pool *pool;

	if (qsize > ring_limit) {
		if (!clamp)
			return -E2BIG;
		qsize = ring_limit;
	}
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return -ENOMEM;
	pool->p = *p;
	if (ptr_ring_init(&pool->ring, (int)qsize)) {
		free(pool);
		return -ENOMEM;
	}
	*poolp = pool;
	return 0;
}

void era_hold_page(struct pp_pool *pool, struct page *page)
{
	page->pp = pool;
	page->pp_magic |= PP_SIGNATURE;
	pool->pages_state_hold_cnt++;
}

void era_release_page(struct pp_pool *pool, struct page *page)
{
	page->pp = NULL;
	page->pp_magic = 0;
	pool->pages_state_release_cnt++;
}

void era_return_page(struct pp_pool *pool, struct page *page)
{
	era_release_page(pool, page);
	put_page(page);
}

static struct page *alloc_slow_one(struct pp_pool *pool)
{
	struct page *page = alloc_pages_node(pool->p.nid, GFP_ATOMIC, 0);

	if (!page)
		return NULL;
	era_hold_page(pool, page);
	pool->st.alloc_slow++;
	return page;
}

struct page *era_alloc_ring_batched(struct pp_pool *pool)
{
	bool refill = false;
	struct page *page;

	if (likely(in_serving_softirq())) {
		if (likely(pool->alloc.count)) {
			pool->st.alloc_fast++;
			return pool->alloc.cache[--pool->alloc.count];
		}
		refill = true;
	}
	if (__ptr_ring_empty(&pool->ring)) {
		pool->st.alloc_empty++;
		return alloc_slow_one(pool);
	}
	page = __ptr_ring_consume(&pool->ring);
	if (refill)
		pool->alloc.count = __ptr_ring_consume_batched(&pool->ring,
				(void **)pool->alloc.cache,
				PP_ALLOC_CACHE_REFILL);
	pool->st.alloc_refill++;
	return page;
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

struct page *era_alloc_node_checked(struct pp_pool *pool)
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

void era_update_nid_flush(struct pp_pool *pool, int nid)
{
	pool->p.nid = nid;
	/* Refill checks the node; the cache does not, so empty it. */
	era_flush_cache(pool);
}

static bool recycle_in_cache(struct pp_pool *pool, struct page *page)
{
	if (unlikely(pool->alloc.count == PP_ALLOC_CACHE_SIZE)) {
		pool->st.recycle_cache_full++;
		return false;
	}
	pool->alloc.cache[pool->alloc.count++] = page;
	pool->st.recycle_cached++;
	return true;
}

static bool recycle_in_ring(struct pp_pool *pool, struct page *page)
{
	if (__ptr_ring_produce(&pool->ring, page))
		return false;
	pool->st.recycle_ring++;
	return true;
}

void era_put(struct pp_pool *pool, struct page *page, bool direct,
	     bool reusable)
{
	if (likely(page_ref_count(page) == 1 && reusable)) {
		if (direct && recycle_in_cache(pool, page))
			return;
		if (!recycle_in_ring(pool, page)) {
			pool->st.recycle_ring_full++;
			era_return_page(pool, page);
		}
		return;
	}
	/* Someone else holds the page, or it may not stay: let it go. */
	pool->st.recycle_released_refcnt++;
	era_release_page(pool, page);
	put_page(page);
}

void era_put_bulk(struct pp_pool *pool, struct page **pages, int n,
		  bool direct, bool (*reusable)(const struct page *page))
{
	int bulk = 0, i;

	for (i = 0; i < n; i++) {
		if (likely(page_ref_count(pages[i]) == 1 &&
			   reusable(pages[i]))) {
			if (!direct || !recycle_in_cache(pool, pages[i]))
				pages[bulk++] = pages[i];
			continue;
		}
		pool->st.recycle_released_refcnt++;
		era_release_page(pool, pages[i]);
		put_page(pages[i]);
	}
	for (i = 0; i < bulk; i++) {
		if (__ptr_ring_produce(&pool->ring, pages[i])) {
			pool->st.recycle_ring_full++;
			break;
		}
	}
	pool->st.recycle_ring += (u64)i;
	for (; i < bulk; i++)
		era_return_page(pool, pages[i]);
}

unsigned int era_flush_cache(struct pp_pool *pool)
{
	unsigned int n = pool->alloc.count;

	while (pool->alloc.count)
		era_return_page(pool, pool->alloc.cache[--pool->alloc.count]);
	return n;
}

static int release(struct pp_pool *pool, bool empty_cache_once)
{
	struct page *page;
	s32 inflight;

	if (!empty_cache_once || !pool->destroy_cnt)
		era_flush_cache(pool);
	pool->destroy_cnt++;
	while ((page = __ptr_ring_consume(&pool->ring)))
		era_return_page(pool, page);
	inflight = (s32)(pool->pages_state_hold_cnt -
			 pool->pages_state_release_cnt);
	BUG_ON(inflight < 0);
	if (inflight)
		return inflight;
	ptr_ring_cleanup(&pool->ring);
	free(pool);
	return 0;
}

int era_release_every(struct pp_pool *pool)
{
	return release(pool, false);
}

int era_release_once(struct pp_pool *pool)
{
	return release(pool, true);
}

void era_forget(struct pp_pool *pool)
{
	ptr_ring_cleanup(&pool->ring);
	free(pool);
}

int era_nid(const struct pp_pool *pool)
{
	return pool->p.nid;
}

void era_stats(const struct pp_pool *pool, struct pp_stats *st)
{
	*st = pool->st;
	st->hold = pool->pages_state_hold_cnt;
	st->release = pool->pages_state_release_cnt;
}

void era_contents(const struct pp_pool *pool, struct pp_contents *c)
{
	c->cached = pool->alloc.count;
	c->ring = (unsigned int)ptr_ring_count(&pool->ring);
}
