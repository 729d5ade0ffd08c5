/*
 * page_pool, one implementation per kernel era, behind one interface: a
 * kernel era's page_pool part (kernel_era.h holds the era whole, its
 * driver's and its stack's facts beside this).
 *
 * Each era (a "policy") is the project's own rewrite of net/core/page_pool.c
 * as it behaved in that kernel (5.4.6, 5.5-rc5, 6.1, 6.12; commit d5394610b1ba
 * "page_pool: Don't recycle non-reusable pages" between the first two),
 * from its documented behaviour; the kernel wins where they disagree.
 * All eras keep the kernel's page_pool stats under the kernel's names,
 * even those that predate CONFIG_PAGE_POOL_STATS, so that eras can be
 * compared event for event.
 *
 * All calls run in the current kernel context (kctx_cur): its node is
 * numa_mem_id(), its softirq flag decides direct recycling.
 */
#ifndef PPSIM_PP_H
#define PPSIM_PP_H

#include "../kernel/mm.h"

#define PP_ALLOC_CACHE_SIZE	128	/* pages in the alloc cache */
#define PP_ALLOC_CACHE_REFILL	64	/* pages moved per refill */

struct pp_params {
	int nid;		/* preferred node, or NUMA_NO_NODE */
	unsigned int pool_size;	/* ptr_ring slots; 0 = 1024 */
	/* The NAPI that consumes the pool's pages, or NULL (6.12 recycles
	 * directly a put made while its CPU polls it); the caller's. */
	struct napi_struct *napi;
};

/* The kernel's counters: alloc_stats, recycle_stats, and the inflight
 * accounting pages_state_hold_cnt / pages_state_release_cnt. */
struct pp_stats {
	u64 alloc_fast;		/* taken from the alloc cache */
	u64 alloc_slow;		/* slow path calls that gave a page */
	u64 alloc_empty;	/* ring empty when the cache needed a refill */
	u64 alloc_refill;	/* refills from the ring that gave a page */
	u64 alloc_waive;	/* ring pages of the wrong node given back */
	u64 recycle_cached;	/* puts into the alloc cache */
	u64 recycle_cache_full;	/* direct puts that found the cache full */
	u64 recycle_ring;	/* puts into the ring */
	u64 recycle_ring_full;	/* puts that found the ring full */
	u64 recycle_released_refcnt; /* puts that let the page go */
	u32 hold;		/* pages taken from the page allocator */
	u32 release;		/* pages let go by the pool */
};

/* Pages inside the pool: in the alloc cache and in the ring. */
struct pp_contents {
	unsigned int cached;
	unsigned int ring;
};

struct pp_pool;

/*
 * A kernel era's page_pool (kernel_era.h: the era's driver and stack facts
 * are beside it there, not here): its ops, named as the era.  Every
 * pp_policy is the .pp of a const struct kernel_era.
 */
struct pp_policy {
	const char *name;	/* "v5.4", "v5.5", "v6.1", "v6.12", a tree's */
	const char *summary;	/* one line for --help */
	/* A kernel tree's version ("6.12.118"); NULL for the project's eras */
	const char *linux_version;
	/* Returns 0 or -errno (-E2BIG: pool_size over the era's limit). */
	int (*create)(const struct pp_params *p, struct pp_pool **pool);
	/* page_pool_dev_alloc_pages(); NULL when no page can be had. */
	struct page *(*alloc)(struct pp_pool *pool);
	/* page_pool_put_full_page(); page_pool_recycle_direct() is a put
	 * with allow_direct. */
	void (*put)(struct pp_pool *pool, struct page *page,
		    bool allow_direct);
	/* page_pool_put_page_bulk() (5.11 on): n puts that may not go to
	 * the cache, the ring's producer lock taken once; NULL where the
	 * era lacks it (the driver then puts them one by one). */
	void (*put_bulk)(struct pp_pool *pool, struct page **pages, int n);
	/* page_pool_release_page() (5.2 to 6.3): the pool lets the page go,
	 * unmapped, and its holder keeps its reference (xdp_release_frame()
	 * of an xdp_frame turned into an skb).  NULL where the era lacks it:
	 * then its stack recycles such skbs (kernel_era.h,
	 * frame_skb_recycle). */
	void (*release)(struct pp_pool *pool, struct page *page);
	/* page_pool_update_nid(); NULL where the era lacks it. */
	void (*update_nid)(struct pp_pool *pool, int nid);
	/* page_pool_destroy(): empties the pool; frees it and returns 0
	 * when no page is in flight, else returns the pages in flight and
	 * keeps the pool until release_retry() returns 0. */
	int (*destroy)(struct pp_pool *pool);
	/* The deferred work that retries a stalled destroy. */
	int (*release_retry)(struct pp_pool *pool);
	/* Frees what is left of a pool when the whole model goes away,
	 * without page accounting: its pages go with the machine. */
	void (*forget)(struct pp_pool *pool);
	int (*nid)(const struct pp_pool *pool);
	void (*stats)(const struct pp_pool *pool, struct pp_stats *st);
	void (*contents)(const struct pp_pool *pool, struct pp_contents *c);
};

/* The project's own eras' page_pool parts (kernel_era.h: &kernel_era_v5_4.pp
 * ...), NULL-terminated: what every build has. */
extern const struct pp_policy *const pp_eras[];

/* Looks a policy up by name in set (NULL-terminated); NULL if none. */
const struct pp_policy *pp_policy_find(const struct pp_policy *const *set,
				       const char *name);

/* page_pool_nid_changed(): update_nid when the node differs.
 * Returns false where the era lacks update_nid. */
bool pp_nid_changed(const struct pp_policy *pol, struct pp_pool *pool,
		    int nid);

/*
 * page_pool_unref_page() (6.12 helpers.h): drops nr of the fragment users
 * of a page a driver split (page_pool_fragment_page, pp_ref_count) and
 * returns how many are left; once none is, the caller puts the page, its
 * count back at 1 as the kernel leaves it.  A page never split (0 in the
 * project's eras, 1 in a tree's) has none left.
 */
static inline long pp_unref_page(struct page *page, long nr)
{
	long refs = page->pp_ref_count.counter;

	if (refs <= nr) {
		if (refs > 1)
			page->pp_ref_count.counter = 1;
		return 0;
	}
	page->pp_ref_count.counter = refs - nr;
	return refs - nr;
}

static inline s32 pp_inflight(const struct pp_stats *st)
{
	return (s32)(st->hold - st->release);
}

/* A pool as the conservation check sees it: the pages it handed out that
 * have not come back (a driver's rings, a trace's references). */
struct pp_account {
	const struct pp_policy *pol;
	const struct pp_pool *pool;
	u32 handed;
};

/*
 * Page conservation, which every run of the model ends with (the
 * simulator, the trace runner, the unit tests): each pool's inflight count
 * (hold - release) is the pages in it plus those it handed out; the page
 * allocator has out exactly what the pools hold and handed out, plus
 * others (pages held outside any pool); and the allocator's own books
 * balance (mm_check).  Returns 0, or -1 with why.
 */
int pp_check_pages(const struct mm *mm, const struct pp_account *pools,
		   int nr_pools, u64 others, char *why, size_t len);

#endif
