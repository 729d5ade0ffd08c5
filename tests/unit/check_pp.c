/*
 * The page_pool eras against the behaviour documented in
 * page_pool.c of 5.4.6, 5.5-rc5 and 6.1 (commit d5394610b1ba between the
 * first two; 44768decb7c0 handles NUMA_NO_NODE from 5.6).
 *
 * Where the eras differ, a test reads what each era must do from a table
 * of cases, one row an era, as the kernel's tools/testing/scatterlist/
 * main.c does: Check runs the test once per row (tcase_add_loop_test),
 * and every failure names the row's era and what was checked.  A test
 * the eras pass alike runs once per era of pp_eras.
 */
#include <stdio.h>
#include "unit.h"
#include "model/page_pool/pp.h"

static struct unit_machine m;
static const struct pp_policy *pol;
static struct pp_pool *pool;
static const char *era_now;	/* the era under test, for the messages */
static struct napi_struct napi;	/* the pool's, polled by nobody */

/* 2 nodes x 4096 pages; a pool on node nid with a ring of size slots */
static void start(const char *era, int nid, unsigned int size)
{
	struct pp_params p = { nid, size, &napi };

	napi.list_owner = -1;	/* not scheduled: no put is NAPI-local */
	era_now = era;
	unit_machine_init(&m, 2, 4096, 0);
	pol = pp_policy_find(pp_eras, era);
	ck_assert_msg(pol, "no era %s", era);
	ck_expect(era, "create()", pol->create(&p, &pool), 0);
}

/* Which of pages[0..n) page is; -1 if none. */
static int index_of(struct page *const *pages, int n, const struct page *page)
{
	for (int i = 0; i < n; i++)
		if (pages[i] == page)
			return i;
	return -1;
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
	ck_expect(era_now, "inflight", pp_inflight(&s),
		  c.cached + c.ring + out);
}

static void finish(void)
{
	ck_expect(era_now, "destroy()", pol->destroy(pool), 0);
	unit_machine_fini(&m);
}

static void alloc_n(struct page **pages, int n)
{
	for (int i = 0; i < n; i++) {
		pages[i] = pol->alloc(pool);
		ck_assert_msg(pages[i], "%s: allocation %d of %d gave no page",
			      era_now, i, n);
	}
}

static void put_n(struct page **pages, int n, bool direct)
{
	for (int i = 0; i < n; i++)
		pol->put(pool, pages[i], direct);
}

/* The NAPI steady state: 64 out, 64 recycled direct, 64 out again from
 * the cache, with no new page from the allocator. */
static const struct {
	const char *era;
	u64 alloc_slow;		/* after the first 64 */
	u64 alloc_fast;		/* after the second 64 */
} steady[] = {
	{ "v5.4", 64, 64 },	/* one page per slow call */
	{ "v5.5", 64, 64 },
	{ "v6.1", 1, 63 + 64 },	/* one bulk of 64, then from the cache */
	{ "v6.12", 1, 63 + 64 },	/* as v6.1 */
};

START_TEST(steady_direct_recycling)
{
	const char *era = steady[_i].era;
	struct page *pages[64];
	u32 hold;

	start(era, 0, 256);
	alloc_n(pages, 64);
	hold = stats().hold;
	ck_expect(era, "hold after 64 allocations", hold, 64);
	ck_expect(era, "alloc_slow after 64 allocations", stats().alloc_slow,
		  steady[_i].alloc_slow);
	put_n(pages, 64, true);
	ck_expect(era, "recycle_cached after 64 direct puts",
		  stats().recycle_cached, 64);
	alloc_n(pages, 64);
	ck_expect(era, "hold after 64 more", stats().hold, hold);
	ck_expect(era, "alloc_fast after 64 more", stats().alloc_fast,
		  steady[_i].alloc_fast);
	check_inflight(64);
	put_n(pages, 64, true);
	finish();
}
END_TEST

/* A non-direct put goes to the ring; an empty cache refills from it:
 * v5.x takes one page plus up to 64 into the cache, v6.1 takes up to 64
 * into the cache and hands out the last. */
static const struct {
	const char *era;
	unsigned int leftover;	/* cached after 100 allocations */
	int page;		/* which of the 100 the refill hands out */
	unsigned int cached;	/* then in the cache */
	unsigned int ring;	/* and in the ring */
} ring_refill[] = {
	{ "v5.4", 0, 0, 64, 35 },	/* the ring's head, then 64 */
	{ "v5.5", 0, 0, 64, 35 },
	{ "v6.1", 28, 63, 63, 36 },	/* two bulks of 64 for 100 */
	{ "v6.12", 28, 63, 63, 36 },	/* as v6.1 */
};

START_TEST(ring_recycling)
{
	const char *era = ring_refill[_i].era;
	struct page *pages[100], *p;
	struct pp_contents c;

	start(era, 0, 256);
	alloc_n(pages, 100);
	pol->contents(pool, &c);
	ck_expect(era, "cached after 100 allocations", c.cached,
		  ring_refill[_i].leftover);
	if (c.cached)
		pol->update_nid(pool, 0);	/* drop the bulk leftovers */
	put_n(pages, 100, false);
	ck_expect(era, "recycle_ring", stats().recycle_ring, 100);
	ck_expect(era, "recycle_cached", stats().recycle_cached, 0);
	p = pol->alloc(pool);
	ck_expect(era, "the page the refill handed out",
		  index_of(pages, 100, p), ring_refill[_i].page);
	ck_expect(era, "alloc_refill", stats().alloc_refill, 1);
	pol->contents(pool, &c);
	ck_expect(era, "cached after the refill", c.cached,
		  ring_refill[_i].cached);
	ck_expect(era, "left in the ring", c.ring, ring_refill[_i].ring);
	check_inflight(1);
	pol->put(pool, p, true);
	finish();
}
END_TEST

/* 129 direct puts: 128 fill the cache, the last goes to the ring. */
START_TEST(cache_full)
{
	struct page *pages[129];

	start(pp_eras[_i]->name, 0, 256);
	alloc_n(pages, 129);
	/* v6.1's bulk leaves pages in the cache; flush them out of the way */
	if (pol->update_nid)
		pol->update_nid(pool, 0);
	put_n(pages, 129, true);
	ck_expect(era_now, "recycle_cache_full", stats().recycle_cache_full,
		  1);
	ck_expect(era_now, "recycle_cached", stats().recycle_cached, 128);
	ck_expect(era_now, "recycle_ring", stats().recycle_ring, 1);
	finish();
}
END_TEST

/* A ring of 4 slots: the fifth non-direct put frees the page. */
START_TEST(ring_full)
{
	struct page *pages[5];
	u32 free_before;

	start(pp_eras[_i]->name, 0, 4);
	alloc_n(pages, 5);
	free_before = mm_nr_free(m.mm, 0);
	put_n(pages, 5, false);
	ck_expect(era_now, "recycle_ring", stats().recycle_ring, 4);
	ck_expect(era_now, "recycle_ring_full", stats().recycle_ring_full, 1);
	ck_expect(era_now, "free pages on node 0", mm_nr_free(m.mm, 0),
		  free_before + 1);
	ck_expect(era_now, "refcount of the fifth page",
		  page_ref_count(pages[4]), 0);
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

	start(pp_eras[_i]->name, 0, 256);
	p = pol->alloc(pool);
	free_before = mm_nr_free(m.mm, 0);
	get_page(p);
	pol->put(pool, p, true);
	ck_expect(era_now, "recycle_released_refcnt",
		  stats().recycle_released_refcnt, 1);
	ck_expect(era_now, "refcount", page_ref_count(p), 1);
	ck_assert_msg(!p->pp, "%s: the page still names its pool", era_now);
	ck_expect(era_now, "free pages on node 0", mm_nr_free(m.mm, 0),
		  free_before);
	put_page(p);
	ck_expect(era_now, "free pages after put_page()", mm_nr_free(m.mm, 0),
		  free_before + 1);
	check_inflight(0);
	finish();
}
END_TEST

/* pfmemalloc pages: v5.4 recycles them, v5.5 and v6.1 let them go. */
static const struct {
	const char *era;
	u64 cached;		/* recycle_cached after one direct put */
	u64 released;		/* recycle_released_refcnt */
} pfmemalloc[] = {
	{ "v5.4", 1, 0 },
	{ "v5.5", 0, 1 },
	{ "v6.1", 0, 1 },
	{ "v6.12", 0, 1 },	/* as v6.1 */
};

START_TEST(pfmemalloc_page)
{
	const char *era = pfmemalloc[_i].era;
	struct page *p;

	start(era, 0, 256);
	mm_set_pressure(m.mm, 0, true);
	p = pol->alloc(pool);
	mm_set_pressure(m.mm, 0, false);
	ck_assert_msg(page_is_pfmemalloc(p), "%s: not pfmemalloc", era);
	pol->put(pool, p, true);
	ck_expect(era, "recycle_cached", stats().recycle_cached,
		  pfmemalloc[_i].cached);
	ck_expect(era, "recycle_released_refcnt",
		  stats().recycle_released_refcnt, pfmemalloc[_i].released);
	finish();
}
END_TEST

/* The seed's case: the pool's pages are on node 0, NAPI moves to node 1.
 * v5.4 recycles node-0 pages forever; v5.5 drops each as it comes back
 * once update_nid moved p.nid; v6.1 and v6.12 have no node check at put,
 * so pages recycled directly keep circulating through the cache (section
 * 1.3's derived note): only a refill from the ring would check them. */
static const struct {
	const char *era;
	bool nid_changed;	/* pp_nid_changed() could act */
	int pool_nid;		/* p.nid after it */
	int page_nid;		/* node of the 64 handed out after the puts */
	u64 released;		/* recycle_released_refcnt by the 64 puts */
	u64 cached;		/* recycle_cached by them */
	u32 hold;		/* pages taken from the allocator in all */
} irq_moves[] = {
	{ "v5.4", false, 0, 0, 0, 64, 64 },	/* no update_nid */
	{ "v5.5", true, 1, 1, 64, 0, 128 },
	{ "v6.1", true, 1, 0, 0, 64, 64 },
	{ "v6.12", true, 1, 0, 0, 64, 64 },	/* as v6.1 */
};

START_TEST(irq_moves_to_other_node)
{
	const char *era = irq_moves[_i].era;
	struct page *pages[64];
	char what[64];

	start(era, 0, 1024);
	alloc_n(pages, 64);
	m.ctx.node = 1;
	ck_expect(era, "pp_nid_changed()",
		  pp_nid_changed(pol, pool, numa_mem_id()),
		  irq_moves[_i].nid_changed);
	ck_expect(era, "p.nid", pol->nid(pool), irq_moves[_i].pool_nid);
	put_n(pages, 64, true);
	alloc_n(pages, 64);
	for (int i = 0; i < 64; i++) {
		snprintf(what, sizeof(what), "node of page %d", i);
		ck_expect(era, what, page_to_nid(pages[i]),
			  irq_moves[_i].page_nid);
	}
	ck_expect(era, "recycle_released_refcnt",
		  stats().recycle_released_refcnt, irq_moves[_i].released);
	ck_expect(era, "recycle_cached", stats().recycle_cached,
		  irq_moves[_i].cached);
	ck_expect(era, "hold", stats().hold, irq_moves[_i].hold);
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

	start("v6.1", 0, 1024);
	alloc_n(pages, 64);
	pol->update_nid(pool, 1);	/* the cache is empty: 64 taken */
	m.ctx.node = 1;
	put_n(pages, 64, false);	/* 64 node-0 pages into the ring */
	p = pol->alloc(pool);
	ck_expect(era_now, "alloc_waive", stats().alloc_waive, 1);
	ck_expect(era_now, "alloc_refill", stats().alloc_refill, 0);
	ck_expect(era_now, "alloc_slow", stats().alloc_slow, 2);
	ck_expect(era_now, "node of the page", page_to_nid(p), 1);
	check_inflight(1);
	pol->put(pool, p, true);
	finish();
}
END_TEST

/* NUMA_NO_NODE: v5.5 never recycles (page_to_nid never equals -1); v5.4
 * and v6.1 recycle, v6.1 preferring the current node at refill. */
static const struct {
	const char *era;
	u64 released;		/* recycle_released_refcnt by 8 direct puts */
	u64 cached;		/* recycle_cached by them */
} numa_no_node[] = {
	{ "v5.4", 0, 8 },
	{ "v5.5", 8, 0 },
	{ "v6.1", 0, 8 },
	{ "v6.12", 0, 8 },	/* as v6.1 */
};

START_TEST(numa_no_node_pool)
{
	const char *era = numa_no_node[_i].era;
	struct page *pages[8];

	start(era, NUMA_NO_NODE, 256);
	alloc_n(pages, 8);
	ck_expect(era, "node of the first page", page_to_nid(pages[0]), 0);
	put_n(pages, 8, true);
	ck_expect(era, "recycle_released_refcnt",
		  stats().recycle_released_refcnt, numa_no_node[_i].released);
	ck_expect(era, "recycle_cached", stats().recycle_cached,
		  numa_no_node[_i].cached);
	finish();
}
END_TEST

/* page_pool_update_nid() after one allocation: v5.4 lacks it, v5.5 only
 * sets p.nid, v6.1 also empties the cache (the bulk's 63 leftovers). */
static const struct {
	const char *era;
	bool has_update_nid;
	u32 release;		/* pages it let go */
} update_nid[] = {
	{ "v5.4", false, 0 },
	{ "v5.5", true, 0 },
	{ "v6.1", true, 63 },
	{ "v6.12", true, 63 },	/* as v6.1 */
};

START_TEST(update_nid_per_era)
{
	const char *era = update_nid[_i].era;
	struct page *p;

	start(era, 0, 256);
	p = pol->alloc(pool);
	ck_expect(era, "has update_nid", pol->update_nid != NULL,
		  update_nid[_i].has_update_nid);
	if (pol->update_nid) {
		pol->update_nid(pool, 1);
		ck_expect(era, "p.nid after update_nid(1)", pol->nid(pool), 1);
	}
	ck_expect(era, "release", stats().release, update_nid[_i].release);
	check_inflight(1);
	pol->put(pool, p, true);
	finish();
}
END_TEST

/* Outside softirq v5.x skips the cache and takes one page from the ring;
 * v6.1 and v6.12 use the cache (the caller guarantees the context).
 * Before, 4 allocations, 2 direct puts into the cache, 2 into the ring.
 * A direct put outside softirq goes to the ring up to v6.1; v6.12 no
 * longer tests softirq there (the caller's promise): cache. */
static const struct {
	const char *era;
	int page;		/* which of the 4 the allocation gives */
	u64 alloc_fast;		/* after it */
	u64 alloc_refill;
	u64 recycle_ring;	/* after the direct put outside softirq */
} outside_softirq[] = {
	{ "v5.4", 2, 0, 1, 3 },	/* the ring's head */
	{ "v5.5", 2, 0, 1, 3 },
	{ "v6.1", 1, 3 + 1, 0, 3 },/* the cache's top, after 3 from the bulk */
	{ "v6.12", 1, 3 + 1, 0, 2 },
};

START_TEST(alloc_outside_softirq)
{
	const char *era = outside_softirq[_i].era;
	struct page *pages[4], *p;

	start(era, 0, 256);
	alloc_n(pages, 4);
	put_n(pages, 2, true);
	put_n(pages + 2, 2, false);
	m.ctx.softirq = false;
	p = pol->alloc(pool);
	ck_expect(era, "the page handed out", index_of(pages, 4, p),
		  outside_softirq[_i].page);
	ck_expect(era, "alloc_fast", stats().alloc_fast,
		  outside_softirq[_i].alloc_fast);
	ck_expect(era, "alloc_refill", stats().alloc_refill,
		  outside_softirq[_i].alloc_refill);
	pol->put(pool, p, true);
	ck_expect(era, "recycle_ring", stats().recycle_ring,
		  outside_softirq[_i].recycle_ring);
	m.ctx.softirq = true;
	finish();
}
END_TEST

/*
 * page_pool_put_page_bulk() (XDP_REDIRECT's completion) on the CPU that
 * polls the pool's NAPI: 6.1 produces every page into the ring; 6.12
 * asks page_pool_napi_local() once and puts them into the alloc cache
 * while it has room.  The cache holds the 60 bulk leftovers: 68 room.
 * v5.4 and v5.5 have no bulk put.
 */
static const struct {
	const char *era;
	bool has_bulk;
	u64 cached;		/* recycle_cached by the 8 */
	u64 ring;		/* recycle_ring by them */
} bulk_napi[] = {
	{ "v5.4", false, 0, 0 },
	{ "v5.5", false, 0, 0 },
	{ "v6.1", true, 0, 8 },
	{ "v6.12", true, 8, 0 },
};

START_TEST(bulk_put_napi_local)
{
	const char *era = bulk_napi[_i].era;
	struct page *pages[8];

	start(era, 0, 256);
	if (!bulk_napi[_i].has_bulk) {
		ck_expect(era, "put_bulk", pol->put_bulk == NULL, true);
		finish();
		return;
	}
	alloc_n(pages, 4);
	alloc_n(pages + 4, 4);
	napi.list_owner = m.ctx.cpu;	/* the pool's NAPI is being polled */
	pol->put_bulk(pool, pages, 8);
	napi.list_owner = -1;
	ck_expect(era, "recycle_cached", stats().recycle_cached,
		  bulk_napi[_i].cached);
	ck_expect(era, "recycle_ring", stats().recycle_ring,
		  bulk_napi[_i].ring);
	check_inflight(0);
	finish();
}
END_TEST

/*
 * page_pool_init()'s limit on pool_size.  v5.4 and v5.5 refuse more than
 * 32768 slots ("Sanity limit mem that can be pinned down"); Debian's
 * 6.1.y takes min(pool_size, 16384), whatever was asked; 0 means 1024.
 * The slots are counted: slots + 1 puts into the ring, the last finds it
 * full.
 */
static const struct {
	const char *era;
	unsigned int pool_size;
	int rc;			/* of create() */
	unsigned int slots;	/* of the ring it made */
} pool_sizes[] = {
	{ "v5.4", 32769, -E2BIG, 0 },
	{ "v5.4", 32768, 0, 32768 },
	{ "v5.4", 0, 0, 1024 },
	{ "v5.5", 32769, -E2BIG, 0 },
	{ "v5.5", 32768, 0, 32768 },
	{ "v5.5", 0, 0, 1024 },
	{ "v6.1", 32769, 0, 16384 },
	{ "v6.1", 16385, 0, 16384 },
	{ "v6.1", 16384, 0, 16384 },
	{ "v6.1", 0, 0, 1024 },
	{ "v6.12", 32769, 0, 16384 },	/* as v6.1 */
	{ "v6.12", 16385, 0, 16384 },	/* as v6.1 */
	{ "v6.12", 16384, 0, 16384 },	/* as v6.1 */
	{ "v6.12", 0, 0, 1024 },	/* as v6.1 */
};

START_TEST(pool_size_limits)
{
	struct pp_params p = { 0, pool_sizes[_i].pool_size, NULL };
	unsigned int slots = pool_sizes[_i].slots;
	struct pp_contents c;
	struct page **pages;
	char label[48];
	int rc;

	snprintf(label, sizeof(label), "%s pool_size %u", pool_sizes[_i].era,
		 p.pool_size);
	era_now = label;
	/* all on node 0: 32768 + 1 pages stay above its watermarks */
	unit_machine_init(&m, 2, 32768 + 4096, 0);
	pol = pp_policy_find(pp_eras, pool_sizes[_i].era);
	ck_assert_msg(pol, "no era %s", pool_sizes[_i].era);
	rc = pol->create(&p, &pool);
	ck_expect(label, "create()", rc, pool_sizes[_i].rc);
	if (rc) {
		unit_machine_fini(&m);
		return;
	}
	pages = calloc(slots + 1, sizeof(*pages));
	ck_assert_ptr_nonnull(pages);
	alloc_n(pages, (int)slots + 1);
	put_n(pages, (int)slots + 1, false);
	ck_expect(label, "recycle_ring", stats().recycle_ring, slots);
	ck_expect(label, "recycle_ring_full", stats().recycle_ring_full, 1);
	pol->contents(pool, &c);
	ck_expect(label, "pages in the ring", c.ring, slots);
	check_inflight(0);
	free(pages);
	finish();
}
END_TEST

/* Destroy with a page still out: the pool lives on until it comes back;
 * it is then released by the deferred retry. */
START_TEST(destroy_inflight)
{
	struct page *pages[3];

	start(pp_eras[_i]->name, 0, 256);
	alloc_n(pages, 3);
	put_n(pages, 2, true);
	ck_expect(era_now, "destroy() with a page out", pol->destroy(pool), 1);
	ck_expect(era_now, "hold - release", stats().hold - stats().release,
		  1);
	pol->put(pool, pages[2], false);
	ck_expect(era_now, "release_retry()", pol->release_retry(pool), 0);
	unit_machine_fini(&m);
}
END_TEST

/* A new era must get a row in every table, or those tests skip it. */
START_TEST(every_era_in_every_table)
{
	static const struct unit_table tables[] = {
		UNIT_TABLE(steady), UNIT_TABLE(ring_refill),
		UNIT_TABLE(pfmemalloc), UNIT_TABLE(irq_moves),
		UNIT_TABLE(numa_no_node), UNIT_TABLE(update_nid),
		UNIT_TABLE(outside_softirq), UNIT_TABLE(pool_sizes),
		UNIT_TABLE(bulk_napi),
	};

	unit_tables_cover_eras(tables, ARRAY_SIZE(tables));
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ every_era_in_every_table, UNIT_ONCE },
		{ steady_direct_recycling, ARRAY_SIZE(steady) },
		{ ring_recycling, ARRAY_SIZE(ring_refill) },
		{ cache_full, UNIT_EACH_ERA },
		{ ring_full, UNIT_EACH_ERA },
		{ elevated_refcount, UNIT_EACH_ERA },
		{ pfmemalloc_page, ARRAY_SIZE(pfmemalloc) },
		{ irq_moves_to_other_node, ARRAY_SIZE(irq_moves) },
		{ v6_1_refill_waives_remote, UNIT_ONCE },
		{ numa_no_node_pool, ARRAY_SIZE(numa_no_node) },
		{ update_nid_per_era, ARRAY_SIZE(update_nid) },
		{ alloc_outside_softirq, ARRAY_SIZE(outside_softirq) },
		{ bulk_put_napi_local, ARRAY_SIZE(bulk_napi) },
		{ pool_size_limits, ARRAY_SIZE(pool_sizes) },
		{ destroy_inflight, UNIT_EACH_ERA },
	};

	return unit_main("page_pool", tests, ARRAY_SIZE(tests), NULL, NULL);
}
