/*
 * page_pool as in v5.4, before "page_pool: Don't recycle non-reusable
 * pages" (d5394610b1ba): every page whose refcount is 1 is recycled,
 * whatever its node and even if it came from the reserves.  There is no
 * page_pool_update_nid(), so p.nid stays where the channel was opened.
 */
#include "era.h"

static int v5_4_create(const struct pp_params *p, struct pp_pool **pool)
{
	/* page_pool_init(): "Sanity limit mem that can be pinned down" */
	return era_create(p, 32768, false, pool);
}

static void v5_4_put(struct pp_pool *pool, struct page *page,
		     bool allow_direct)
{
	era_put(pool, page, allow_direct && in_serving_softirq(), true);
}

const struct kernel_era kernel_era_v5_4 = {
	/* no page_pool_update_nid() before v5.5 */
	.pp = ERA_PP("v5.4",
		"recycles every page with refcount 1 (before the seed's patch)",
		v5_4_create, era_alloc_ring_batched, v5_4_put, NULL, NULL,
		era_release_every),
	/* nothing to call; an rx skb takes a page reference */
	.driver = { .nid_check = PP_NID_NEVER, .rx_skb_recycle = false,
		    .mpwqe_frags = false, .mpwqe_xdp_nonlinear = false,
		    .legacy_xdp_nonlinear = false },
	/* cpumap.c releases a frame's page; no deferred free before 5.19 */
	.stack = { .frame_skb_recycle = false, .skb_defer_free = false },
};
