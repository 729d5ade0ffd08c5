/*
 * The page_pool eras against the behaviour documented in
 * page_pool.c of 5.4.6, 5.5-rc5 and 6.1 (commit d5394610b1ba between the
 * first two; 44768decb7c0 handles NUMA_NO_NODE from 5.6).
 */
#include "unit.h"
#include "model/page_pool/pp.h"

static struct unit_machine m;
static const struct pp_policy *pol;
static struct pp_pool *pool;

static const char *const era_names[] = { "v5.4", "v5.5", "v6.1" };
#define NR_ERAS 3

/* 2 nodes x 4096 pages; a pool on node 0 with a 256-slot ring */
static void start(int era, int nid, unsigned int size)
{
	struct pp_params p = { nid, size };

	unit_machine_init(&m, 2, 4096, 0);
	pol = pp_policy_find(pp_eras, era_names[era]);
	ck_assert_ptr_nonnull(pol);
	ck_assert_int_eq(pol->create(&p, &pool), 0);
}

static struct pp_stats stats(void)
{
	struct pp_stats s;

	pol->stats(pool, &s);
	return s;
}

/* hold - release == pages in the pool + pages handed out */
static void check_inflight(unsigned int out)
{
	struct pp_contents c;
	struct pp_stats s = stats();

	pol->contents(pool, &c);
	ck_assert_int_eq(pp_inflight(&s), c.cached + c.ring + out);
}

static void finish(void)
{
	ck_assert_int_eq(pol->destroy(pool), 0);
	unit_machine_fini(&m);
}

static void alloc_n(struct page **pages, int n)
{
	for (int i = 0; i < n; i++) {
		pages[i] = pol->alloc(pool);
		ck_assert_ptr_nonnull(pages[i]);
	}
}

static void put_n(struct page **pages, int n, bool direct)
{
	for (int i = 0; i < n; i++)
		pol->put(pool, pages[i], direct);
}

/* The NAPI steady state: 64 out, 64 recycled direct, 64 out again from
 * the cache, with no new page from the allocator. */
START_TEST(steady_direct_recycling)
{
	struct page *pages[64];
	u32 hold;

	start(_i, 0, 256);
	alloc_n(pages, 64);
	hold = stats().hold;
	/* v6.1 takes 64 in bulk on the first slow call, v5.x one per call */
	ck_assert_int_eq(hold, 64);
	ck_assert_int_eq(stats().alloc_slow, _i == 2 ? 1 : 64);
	put_n(pages, 64, true);
	ck_assert_int_eq(stats().recycle_cached, 64);
	alloc_n(pages, 64);
	ck_assert_int_eq(stats().hold, hold);
	ck_assert_int_eq(stats().alloc_fast, _i == 2 ? 63 + 64 : 64);
	check_inflight(64);
	put_n(pages, 64, true);
	finish();
}
END_TEST

/* A non-direct put goes to the ring; an empty cache refills from it:
 * v5.x takes one page plus up to 64 into the cache, v6.1 takes up to 64
 * into the cache and hands out the last. */
START_TEST(ring_recycling)
{
	struct page *pages[100], *p;

	start(_i, 0, 256);
	alloc_n(pages, 100);
	if (_i == 2)
		pol->update_nid(pool, 0);	/* drop the bulk leftovers */
	put_n(pages, 100, false);
	ck_assert_int_eq(stats().recycle_ring, 100);
	ck_assert_int_eq(stats().recycle_cached, 0);
	p = pol->alloc(pool);
	ck_assert_ptr_eq(p, pages[_i == 2 ? 63 : 0]);
	ck_assert_int_eq(stats().alloc_refill, 1);
	check_inflight(1);
	pol->put(pool, p, true);
	finish();
}
END_TEST

/* 129 direct puts: 128 fill the cache, the last goes to the ring. */
START_TEST(cache_full)
{
	struct page *pages[129];

	start(_i, 0, 256);
	alloc_n(pages, 129);
	/* v6.1's bulk leaves pages in the cache; flush them out of the way */
	if (pol->update_nid)
		pol->update_nid(pool, 0);
	put_n(pages, 129, true);
	ck_assert_int_eq(stats().recycle_cache_full, 1);
	ck_assert_int_eq(stats().recycle_cached, 128);
	ck_assert_int_eq(stats().recycle_ring, 1);
	finish();
}
END_TEST

/* A ring of 4 slots: the fifth non-direct put frees the page. */
START_TEST(ring_full)
{
	struct page *pages[5];
	u32 free_before;

	start(_i, 0, 4);
	alloc_n(pages, 5);
	free_before = mm_nr_free(m.mm, 0);
	put_n(pages, 5, false);
	ck_assert_int_eq(stats().recycle_ring, 4);
	ck_assert_int_eq(stats().recycle_ring_full, 1);
	ck_assert_int_eq(mm_nr_free(m.mm, 0), free_before + 1);
	ck_assert_int_eq(page_ref_count(pages[4]), 0);
	check_inflight(0);
	finish();
}
END_TEST

/* refcount > 1: the pool lets the page go; it lives on until the last
 * reference is dropped.  The same in every era. */
START_TEST(elevated_refcount)
{
	struct page *p;
	u32 free_before;

	start(_i, 0, 256);
	p = pol->alloc(pool);
	free_before = mm_nr_free(m.mm, 0);
	get_page(p);
	pol->put(pool, p, true);
	ck_assert_int_eq(stats().recycle_released_refcnt, 1);
	ck_assert_int_eq(page_ref_count(p), 1);
	ck_assert_ptr_null(p->pp);
	ck_assert_int_eq(mm_nr_free(m.mm, 0), free_before);
	put_page(p);
	ck_assert_int_eq(mm_nr_free(m.mm, 0), free_before + 1);
	check_inflight(0);
	finish();
}
END_TEST

/* pfmemalloc pages: v5.4 recycles them, v5.5 and v6.1 let them go. */
START_TEST(pfmemalloc_page)
{
	struct page *p;

	start(_i, 0, 256);
	mm_set_pressure(m.mm, 0, true);
	p = pol->alloc(pool);
	mm_set_pressure(m.mm, 0, false);
	ck_assert(page_is_pfmemalloc(p));
	pol->put(pool, p, true);
	if (_i == 0) {
		ck_assert_int_eq(stats().recycle_cached, 1);
	} else {
		ck_assert_int_eq(stats().recycle_cached, 0);
		ck_assert_int_eq(stats().recycle_released_refcnt, 1);
	}
	finish();
}
END_TEST

/* The seed's case: the pool's pages are on node 0, NAPI moves to node 1.
 * v5.4 recycles node-0 pages forever; v5.5 drops each as it comes back
 * once update_nid moved p.nid; v6.1 has no node check at put, so pages
 * recycled directly keep circulating through the cache (section 1.3's
 * derived note): only a refill from the ring would check them. */
START_TEST(irq_moves_to_other_node)
{
	struct page *pages[64];

	start(_i, 0, 1024);
	alloc_n(pages, 64);
	m.ctx.node = 1;
	if (pol->update_nid)
		ck_assert(pp_nid_changed(pol, pool, numa_mem_id()));
	else
		ck_assert(!pp_nid_changed(pol, pool, numa_mem_id()));
	put_n(pages, 64, true);
	alloc_n(pages, 64);
	for (int i = 0; i < 64; i++)
		ck_assert_int_eq(page_to_nid(pages[i]), _i == 1 ? 1 : 0);
	switch (_i) {
	case 1:
		ck_assert_int_eq(stats().recycle_released_refcnt, 64);
		ck_assert_int_eq(stats().hold, 128);
		break;
	default:
		ck_assert_int_eq(stats().recycle_cached, 64);
		ck_assert_int_eq(stats().hold, 64);
		break;
	}
	put_n(pages, 64, true);
	finish();
}
END_TEST

/* v6.1: recycled remote pages come back from the cache unchecked; only
 * a refill from the ring checks the node, and waives at the first miss. */
START_TEST(v6_1_refill_waives_remote)
{
	struct page *pages[64];
	struct page *p;

	start(2, 0, 1024);
	alloc_n(pages, 64);
	pol->update_nid(pool, 1);	/* the cache is empty: 64 taken */
	m.ctx.node = 1;
	put_n(pages, 64, false);	/* 64 node-0 pages into the ring */
	p = pol->alloc(pool);
	ck_assert_int_eq(stats().alloc_waive, 1);
	ck_assert_int_eq(stats().alloc_refill, 0);
	ck_assert_int_eq(stats().alloc_slow, 2);
	ck_assert_int_eq(page_to_nid(p), 1);
	check_inflight(1);
	pol->put(pool, p, true);
	finish();
}
END_TEST

/* NUMA_NO_NODE: v5.5 never recycles (page_to_nid never equals -1); v5.4
 * and v6.1 recycle, v6.1 preferring the current node at refill. */
START_TEST(numa_no_node_pool)
{
	struct page *pages[8];

	start(_i, NUMA_NO_NODE, 256);
	alloc_n(pages, 8);
	ck_assert_int_eq(page_to_nid(pages[0]), 0);
	put_n(pages, 8, true);
	if (_i == 1) {
		ck_assert_int_eq(stats().recycle_released_refcnt, 8);
		ck_assert_int_eq(stats().recycle_cached, 0);
	} else {
		ck_assert_int_eq(stats().recycle_cached, 8);
	}
	finish();
}
END_TEST

START_TEST(update_nid_per_era)
{
	struct page *p;

	start(_i, 0, 256);
	p = pol->alloc(pool);
	switch (_i) {
	case 0:
		ck_assert_ptr_null(pol->update_nid);
		break;
	case 1:
		pol->update_nid(pool, 1);
		ck_assert_int_eq(pol->nid(pool), 1);
		ck_assert_int_eq(stats().release, 0);
		break;
	case 2:
		pol->update_nid(pool, 1);
		ck_assert_int_eq(pol->nid(pool), 1);
		ck_assert_int_eq(stats().release, 63);
		break;
	}
	check_inflight(1);
	pol->put(pool, p, true);
	finish();
}
END_TEST

/* Outside softirq v5.x skips the cache and takes one page from the ring;
 * v6.1 uses the cache (the caller guarantees the context). */
START_TEST(alloc_outside_softirq)
{
	struct page *pages[4], *p;

	start(_i, 0, 256);
	alloc_n(pages, 4);
	put_n(pages, 2, true);
	put_n(pages + 2, 2, false);
	m.ctx.softirq = false;
	p = pol->alloc(pool);
	if (_i == 2) {
		ck_assert_int_ge(stats().alloc_fast, 1);
	} else {
		ck_assert_ptr_eq(p, pages[2]);
		ck_assert_int_eq(stats().alloc_fast, 0);
	}
	/* and outside softirq a direct put goes to the ring */
	pol->put(pool, p, true);
	ck_assert_int_eq(stats().recycle_ring, 3);
	m.ctx.softirq = true;
	finish();
}
END_TEST

START_TEST(pool_size_limits)
{
	struct pp_params p = { 0, 32769 };
	struct pp_pool *big;
	struct pp_contents c;

	unit_machine_init(&m, 2, 64, 0);
	pol = pp_policy_find(pp_eras, era_names[_i]);
	if (_i < 2) {
		ck_assert_int_eq(pol->create(&p, &big), -E2BIG);
		p.pool_size = 32768;
		ck_assert_int_eq(pol->create(&p, &big), 0);
	} else {
		/* 6.1.y cuts the ring down to 16384 slots */
		ck_assert_int_eq(pol->create(&p, &big), 0);
	}
	pol->contents(big, &c);
	ck_assert_int_eq(c.ring, 0);
	ck_assert_int_eq(pol->destroy(big), 0);
	unit_machine_fini(&m);
}
END_TEST

/* Destroy with a page still out: the pool lives on until it comes back;
 * it is then released by the deferred retry. */
START_TEST(destroy_inflight)
{
	struct page *pages[3];

	start(_i, 0, 256);
	alloc_n(pages, 3);
	put_n(pages, 2, true);
	ck_assert_int_eq(pol->destroy(pool), 1);
	ck_assert_int_eq(stats().hold - stats().release, 1);
	pol->put(pool, pages[2], false);
	ck_assert_int_eq(pol->release_retry(pool), 0);
	unit_machine_fini(&m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("page_pool");
	TCase *tc = tcase_create("eras");

	tcase_add_loop_test(tc, steady_direct_recycling, 0, NR_ERAS);
	tcase_add_loop_test(tc, ring_recycling, 0, NR_ERAS);
	tcase_add_loop_test(tc, cache_full, 0, NR_ERAS);
	tcase_add_loop_test(tc, ring_full, 0, NR_ERAS);
	tcase_add_loop_test(tc, elevated_refcount, 0, NR_ERAS);
	tcase_add_loop_test(tc, pfmemalloc_page, 0, NR_ERAS);
	tcase_add_loop_test(tc, irq_moves_to_other_node, 0, NR_ERAS);
	tcase_add_test(tc, v6_1_refill_waives_remote);
	tcase_add_loop_test(tc, numa_no_node_pool, 0, NR_ERAS);
	tcase_add_loop_test(tc, update_nid_per_era, 0, NR_ERAS);
	tcase_add_loop_test(tc, alloc_outside_softirq, 0, NR_ERAS);
	tcase_add_loop_test(tc, pool_size_limits, 0, NR_ERAS);
	tcase_add_loop_test(tc, destroy_inflight, 0, NR_ERAS);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
