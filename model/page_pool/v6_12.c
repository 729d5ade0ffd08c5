/*
 * page_pool as in v6.12 (Debian's linux-source-6.12, 6.12.y), the netmem
 * era, for a kernel without CONFIG_NET_DEVMEM (no memory providers, so
 * every netmem_ref is a struct page).  What changed since 6.1 that the
 * model sees, and what did not:
 *  - the NAPI-local rule (8c48eea3adf3, "page_pool: allow caching from
 *    safely localized NAPI", 6.5): a put without allow_direct is made
 *    direct when page_pool_napi_local() holds: serving softirq, on the CPU
 *    that polls the pool's NAPI (params.napi->list_owner; 6.12's mlx5
 *    passes rq->cq.napi) or the pool's own cpuid (system pools only, -1
 *    here).  page_pool_put_page_bulk() asks the same once for all its
 *    pages (6.1's never put directly): an XDP_REDIRECT completion in the
 *    pool's own NAPI fills the alloc cache before the ring.
 *    page_pool_destroy() clears napi: no put is direct after it;
 *  - a put with allow_direct trusts its caller: __page_pool_put_page()
 *    no longer tests in_softirq() before the alloc cache (6.1 did);
 *  - the refill node check is 6.1's, on a netmem (netmem_is_pref_nid(): a
 *    page of the preferred node; a net_iov would always pass);
 *  - bulk allocation is 6.1's: 64 pages from alloc_pages_bulk_array_node()
 *    on p.nid, the last handed out, one alloc_slow;
 *  - the stats are 6.1's, counted at the same places (only system pools,
 *    not modelled, share one per-cpu set);
 *  - put keeps a page with refcount 1 that is not pfmemalloc, as 6.1:
 *    6.12 first drops page_pool's own reference (pp_ref_count), which is
 *    always 1 for a page not split into fragments;
 *  - update_nid flushes the cache and pool_size is cut to 16384, as 6.1;
 *  - an skb built from an xdp_frame (cpumap, veth) is marked for
 *    recycling (9c94bbf9a87b, 6.4): its free puts the page back, where 6.1
 *    released it from the pool when the skb was built.
 */
#include "era.h"

static int v6_12_create(const struct pp_params *p, struct pp_pool **pool)
{
	return era_create(p, 16384, true, pool);
}

/* page_pool_napi_local() */
static bool napi_local(const struct pp_pool *pool)
{
	if (!in_softirq())
		return false;
	return pool->p.napi && pool->p.napi->list_owner == smp_processor_id();
}

static bool v6_12_reusable(const struct page *page)
{
	return !page_is_pfmemalloc(page);
}

static void v6_12_put(struct pp_pool *pool, struct page *page,
		      bool allow_direct)
{
	era_put(pool, page, allow_direct || napi_local(pool),
		v6_12_reusable(page));
}

static void v6_12_put_bulk(struct pp_pool *pool, struct page **pages, int n)
{
	era_put_bulk(pool, pages, n, napi_local(pool), v6_12_reusable);
}

/* page_pool_destroy(): page_pool_disable_direct_recycling(), then the
 * release v5.5 on share. */
static int v6_12_destroy(struct pp_pool *pool)
{
	pool->p.napi = NULL;
	return era_release_once(pool);
}

const struct kernel_era kernel_era_v6_12 = {
	.pp = {
		.name = "v6.12",
		.summary = "6.1's, and a put on the CPU polling the pool's NAPI is direct",
		.create = v6_12_create,
		.alloc = era_alloc_node_checked,
		.put = v6_12_put,
		.put_bulk = v6_12_put_bulk,
		/* no page_pool_release_page() since 6.4: skbs are marked */
		.release = NULL,
		.update_nid = era_update_nid_flush,
		.destroy = v6_12_destroy,
		.release_retry = era_release_once,
		.forget = era_forget,
		.nid = era_nid,
		.stats = era_stats,
		.contents = era_contents,
	},
	/* as 6.1; an rx skb holds the page's last page_pool fragment and
	 * is marked for recycling (en_rx.c mlx5e_skb_from_cqe_linear) */
	.driver = { .nid_check = PP_NID_AT_REFILL, .rx_skb_recycle = true,
		    .mpwqe_frags = true, .mpwqe_xdp_nonlinear = true,
		    .legacy_xdp_nonlinear = true },
	/* a frame's skb is marked (9c94bbf9a87b, 6.4); deferred frees */
	.stack = { .frame_skb_recycle = true, .skb_defer_free = true },
};
