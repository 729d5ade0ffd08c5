/*
 * A kernel tree's own net/core/page_pool.c as a kernel era
 * (kernel_era.h), compiled against the shim headers of
 * model/kernel/include (./configure --with-linux=NAME=PATH), behind the
 * same interface as the project's eras: its page_pool is the tree's,
 * its driver's and stack's facts are those of the tree's version.  Nothing of the tree is in this repository: the build sees the
 * few files it needs where configure put them (scripts/linux-tree).
 *
 * Built once per tree, with the tree's interface (PPSIM_LINUX_IFACE: 61
 * or 612), its policy's name and symbol (PPSIM_KERNEL_NAME,
 * PPSIM_KERNEL_SYM); the build keeps only that symbol global, so that two
 * trees' page_pool_create() and the rest never meet at link time.
 */
#if PPSIM_LINUX_IFACE == 61
#include <net/page_pool.h>
#define slow_params(pool)	(&(pool)->p)
#else
#include <net/netdev_rx_queue.h>
#include <net/page_pool/helpers.h>
#include "page_pool_priv.h"	/* the tree's net/core, on the include path */
#define slow_params(pool)	(&(pool)->slow)
#endif
#include "kernel_era.h"
#include "provenance.h"	/* configure's: the tree's source and sha256 */

struct pp_pool {
	struct page_pool *pool;
	bool release_pending;	/* the pool deferred its release */
};

/*
 * The shim's delayed work.  page_pool.c schedules one kind only: the retry
 * of a release that found pages in flight (page_pool_destroy(), and the
 * retry itself).  It is noted on the pool's owner, found through
 * init_arg, and run when the model asks (release_retry).
 */
int schedule_delayed_work(struct delayed_work *dw, unsigned long delay)
{
	struct page_pool *pool = container_of(dw, struct page_pool, release_dw);
	struct pp_pool *w = slow_params(pool)->init_arg;

	(void)delay;
	w->release_pending = true;
	return 1;
}

#if PPSIM_LINUX_IFACE == 612
/* page_pool_user.c lists pools for netlink; the model has no netlink. */
int page_pool_list(struct page_pool *pool)
{
	(void)pool;
	return 0;
}

void page_pool_detached(struct page_pool *pool)
{
	(void)pool;
}

void page_pool_unlist(struct page_pool *pool)
{
	(void)pool;
}
#endif

static int kernel_create(const struct pp_params *p, struct pp_pool **poolp)
{
	struct pp_pool *w = calloc(1, sizeof(*w));
	struct page_pool_params pp = {
		/* 6.1's mlx5 maps pages itself; 6.12's asks page_pool to
		 * (PP_FLAG_DMA_MAP), but the driver model charges the
		 * mapping either way, and the eras do not map */
		.flags = 0,
		.order = 0,
		.pool_size = p->pool_size,
		.nid = p->nid,
		.dev = NULL,
		.dma_dir = DMA_FROM_DEVICE,
		.init_arg = w,	/* no init_callback: only the shim reads it */
#if PPSIM_LINUX_IFACE == 612
		.napi = p->napi,	/* mlx5e_alloc_rq() passes rq->cq.napi */
#endif
	};
	struct page_pool *pool;

	if (!w)
		return -ENOMEM;
	pool = page_pool_create(&pp);
	if (IS_ERR(pool)) {
		free(w);
		return (int)PTR_ERR(pool);
	}
	w->pool = pool;
	*poolp = w;
	return 0;
}

static struct page *kernel_alloc(struct pp_pool *w)
{
	return page_pool_dev_alloc_pages(w->pool);
}

static void kernel_put(struct pp_pool *w, struct page *page,
		       bool allow_direct)
{
	page_pool_put_full_page(w->pool, page, allow_direct);
}

/* The tree's bulk put takes the pages' addresses (xdp_frame data); the
 * shim's address of a page is the page (linux/mm.h). */
static void kernel_put_bulk(struct pp_pool *w, struct page **pages, int n)
{
	page_pool_put_page_bulk(w->pool, (void **)pages, n);
}

#if PPSIM_LINUX_IFACE == 61
static void kernel_release(struct pp_pool *w, struct page *page)
{
	page_pool_release_page(w->pool, page);
}
#endif

static void kernel_update_nid(struct pp_pool *w, int nid)
{
	page_pool_update_nid(w->pool, nid);
}

static s32 inflight(const struct page_pool *pool)
{
	return (s32)(pool->pages_state_hold_cnt -
		     (u32)atomic_read(&pool->pages_state_release_cnt));
}

/* After a release attempt: the pool is gone unless it rescheduled. */
static int settle(struct pp_pool *w)
{
	if (!w->release_pending) {
		free(w);
		return 0;
	}
	return inflight(w->pool);
}

static int kernel_destroy(struct pp_pool *w)
{
	w->release_pending = false;
	page_pool_destroy(w->pool);
	return settle(w);
}

static int kernel_release_retry(struct pp_pool *w)
{
	w->release_pending = false;
	w->pool->release_dw.work.func(&w->pool->release_dw.work);
	return settle(w);
}

static void kernel_forget(struct pp_pool *w)
{
	ptr_ring_cleanup(&w->pool->ring, NULL);
	free_percpu(w->pool->recycle_stats);
	kfree(w->pool);
	free(w);
}

static int kernel_nid(const struct pp_pool *w)
{
	return w->pool->p.nid;
}

static void kernel_stats(const struct pp_pool *w, struct pp_stats *st)
{
	struct page_pool_stats s;

	memset(&s, 0, sizeof(s));
	page_pool_get_stats(w->pool, &s);
	*st = (struct pp_stats){
		.alloc_fast = s.alloc_stats.fast,
		.alloc_slow = s.alloc_stats.slow + s.alloc_stats.slow_high_order,
		.alloc_empty = s.alloc_stats.empty,
		.alloc_refill = s.alloc_stats.refill,
		.alloc_waive = s.alloc_stats.waive,
		.recycle_cached = s.recycle_stats.cached,
		.recycle_cache_full = s.recycle_stats.cache_full,
		.recycle_ring = s.recycle_stats.ring,
		.recycle_ring_full = s.recycle_stats.ring_full,
		.recycle_released_refcnt = s.recycle_stats.released_refcnt,
		.hold = w->pool->pages_state_hold_cnt,
		.release = (u32)atomic_read(&w->pool->pages_state_release_cnt),
	};
}

static void kernel_contents(const struct pp_pool *w, struct pp_contents *c)
{
	const struct ptr_ring *r = &w->pool->ring;

	c->cached = w->pool->alloc.count;
	if (!r->size || !r->queue[r->consumer_head])
		c->ring = 0;
	else if (r->producer == r->consumer_head)
		c->ring = (unsigned int)r->size;
	else
		c->ring = (unsigned int)((r->producer - r->consumer_head +
					  r->size) % r->size);
}

const struct kernel_era PPSIM_KERNEL_SYM = {
	.pp = {
		.name = PPSIM_KERNEL_NAME,
		.summary = "net/core/page_pool.c of linux "
			   PPSIM_LINUX_VERSION " (--with-linux: "
			   PPSIM_LINUX_SOURCE ", sha256 "
			   PPSIM_LINUX_SHA256 ")",
		.linux_version = PPSIM_LINUX_VERSION,
		.create = kernel_create,
		.alloc = kernel_alloc,
		.put = kernel_put,
		.put_bulk = kernel_put_bulk,
#if PPSIM_LINUX_IFACE == 61
		.release = kernel_release,
#endif
		.update_nid = kernel_update_nid,
		.destroy = kernel_destroy,
		.release_retry = kernel_release_retry,
		.forget = kernel_forget,
		.nid = kernel_nid,
		.stats = kernel_stats,
		.contents = kernel_contents,
	},
	/* The tree's own mlx5 and net/core would say; these are 6.1's and
	 * 6.12's (the interfaces configure knows). */
	.driver = {
		/* both call it before the refill (en_rx.c
		 * mlx5e_post_rx_wqes) */
		.nid_check = PP_NID_AT_REFILL,
		/* 6.1's mlx5 takes a page reference for an rx skb; 6.12's
		 * marks it for recycling (en_rx.c) */
		.rx_skb_recycle = PPSIM_LINUX_IFACE != 61,
		/* 6.12's striding RQ takes its pages as fragments and
		 * allows multi-buffer XDP; 6.1's does neither (en_rx.c,
		 * en_main.c mlx5e_params_validate_xdp) */
		.mpwqe_frags = PPSIM_LINUX_IFACE != 61,
		.mpwqe_xdp_nonlinear = PPSIM_LINUX_IFACE != 61,
		/* both let multi-buffer XDP on a legacy RQ */
		.legacy_xdp_nonlinear = true,
	},
	.stack = {
		/* 6.1's xdp.c releases an xdp_frame's page when it becomes
		 * an skb (page_pool_release_page above); 6.12's marks the
		 * skb for recycling (net/core/xdp.c) */
		.frame_skb_recycle = PPSIM_LINUX_IFACE != 61,
		.skb_defer_free = true,	/* both trees are past 5.19 */
	},
};
