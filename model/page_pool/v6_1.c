/*
 * page_pool as in v6.1 (Debian's linux-source-6.1, 6.1.y):
 *  - put keeps any page with refcount 1 that is not pfmemalloc: no node
 *    check at put since v5.6 (44768decb7c0);
 *  - the node is checked when an empty alloc cache refills from the ring:
 *    pages of the preferred node (p.nid, or numa_mem_id() for
 *    NUMA_NO_NODE) are kept; the first page of another node is given back
 *    to the page allocator (alloc_waive) and the refill stops there;
 *  - the alloc cache is used without a softirq test: the caller guarantees
 *    NAPI context; a put with allow_direct goes to it only in softirq;
 *  - the slow path takes 64 pages in bulk from the page allocator;
 *  - page_pool_update_nid() sets p.nid and empties the alloc cache back to
 *    the page allocator;
 *  - page_pool_put_page_bulk() never recycles directly;
 *  - 6.1.y cuts pool_size down to 16384 instead of refusing it.
 */
#include "era.h"

static int v6_1_create(const struct pp_params *p, struct pp_pool **pool)
{
	return era_create(p, 16384, true, pool);
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
	era_put(pool, page, allow_direct && in_softirq(),
		v6_1_reusable(page));
}

static void v6_1_put_bulk(struct pp_pool *pool, struct page **pages, int n)
{
	era_put_bulk(pool, pages, n, false, v6_1_reusable);
}

const struct kernel_era kernel_era_v6_1 = {
	.pp = ERA_PP("v6.1",
		"node checked at ring refill, bulk slow path, update_nid flushes",
		v6_1_create, era_alloc_node_checked, v6_1_put, v6_1_put_bulk,
		era_update_nid_flush, era_release_once),
	/* before the refill (en_rx.c mlx5e_post_rx_wqes); an rx skb takes
	 * a page reference */
	.driver = { .nid_check = PP_NID_AT_REFILL, .rx_skb_recycle = false,
		    .mpwqe_frags = false, .mpwqe_xdp_nonlinear = false,
		    .legacy_xdp_nonlinear = true },
	/* xdp.c releases a frame's page; skb_attempt_defer_free() (5.19) */
	.stack = { .frame_skb_recycle = false, .skb_defer_free = true },
};
