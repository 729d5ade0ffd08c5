/*
 * page_pool as in v5.5, with the seed's patch (d5394610b1ba): a put keeps
 * the page only if it is not pfmemalloc and lives on p.nid, for direct and
 * ring recycling alike; any other page is let go as if its refcount were
 * elevated.  page_pool_update_nid() only sets p.nid: pages already in the
 * cache or the ring are handed out once more and dropped when they come
 * back.  A NUMA_NO_NODE pool never matches page_to_nid(), so it never
 * recycles: the regression fixed in v5.6 by 44768decb7c0.
 */
#include "era.h"

static int v5_5_create(const struct pp_params *p, struct pp_pool **pool)
{
	return era_create(p, 32768, false, pool);
}

static bool pool_page_reusable(const struct pp_pool *pool,
			       const struct page *page)
{
	return !page_is_pfmemalloc(page) && page_to_nid(page) == pool->p.nid;
}

static void v5_5_put(struct pp_pool *pool, struct page *page,
		     bool allow_direct)
{
	era_put(pool, page, allow_direct && in_serving_softirq(),
		pool_page_reusable(pool, page));
}

static void v5_5_update_nid(struct pp_pool *pool, int nid)
{
	pool->p.nid = nid;
}

const struct kernel_era kernel_era_v5_5 = {
	.pp = ERA_PP("v5.5",
		"recycles only pages of p.nid that are not pfmemalloc (the seed's patch)",
		v5_5_create, era_alloc_ring_batched, v5_5_put, NULL,
		v5_5_update_nid, era_release_once),
	/* each poll's start (mlx5e_poll_rx_cq); an rx skb takes a page ref */
	.driver = { .nid_check = PP_NID_AT_POLL, .rx_skb_recycle = false,
		    .mpwqe_frags = false, .mpwqe_xdp_nonlinear = false,
		    .legacy_xdp_nonlinear = false },
	/* cpumap.c releases a frame's page; no deferred free before 5.19 */
	.stack = { .frame_skb_recycle = false, .skb_defer_free = false },
};
