/* The page allocator: placement, watermarks, fallback, reserves, bulk,
 * and the accounting every run ends with. */
#include "unit.h"

static struct unit_machine m;

/* 2 nodes x 128 pages, min watermark 8 (low = 10) */
static void setup(void)
{
	unit_machine_init(&m, 2, 128, 8);
}

static void teardown(void)
{
	unit_machine_fini(&m);
}

START_TEST(local_lowest_pfn_first)
{
	struct page *a = alloc_pages_node(0, GFP_ATOMIC, 0);
	struct page *b = alloc_pages_node(1, GFP_ATOMIC, 0);

	ck_assert_int_eq(a->pfn, 0);
	ck_assert_int_eq(page_to_nid(a), 0);
	ck_assert_int_eq(page_ref_count(a), 1);
	ck_assert_int_eq(b->pfn, 128);
	ck_assert_int_eq(page_to_nid(b), 1);
	put_page(a);
	put_page(b);
}
END_TEST

/* The page freed last is handed out first, like a per-cpu list. */
START_TEST(lifo_reuse)
{
	struct page *a = alloc_pages_node(0, GFP_ATOMIC, 0);
	struct page *b = alloc_pages_node(0, GFP_ATOMIC, 0);

	put_page(a);
	ck_assert_ptr_eq(alloc_pages_node(0, GFP_ATOMIC, 0), a);
	put_page(a);
	put_page(b);
	ck_assert_int_eq(mm_node_stats(m.mm, 0)->allocated, 3);
	ck_assert_int_eq(mm_node_stats(m.mm, 0)->freed, 3);
}
END_TEST

START_TEST(numa_no_node_is_current)
{
	struct page *p;

	m.ctx.node = 1;
	p = alloc_pages_node(NUMA_NO_NODE, GFP_ATOMIC, 0);
	ck_assert_int_eq(page_to_nid(p), 1);
	put_page(p);
}
END_TEST

/* Node 0 gives pages down to its low watermark (10 free), then node 1
 * serves; when both are at low, each goes down to min (8) first, then the
 * reserves give pfmemalloc pages, then allocation fails. */
START_TEST(fallback_then_reserves_then_fail)
{
	struct page *pages[256];
	int n = 0;

	while (mm_nr_free(m.mm, 0) > 10)
		pages[n++] = alloc_pages_node(0, GFP_ATOMIC, 0);
	ck_assert_int_eq(n, 118);
	pages[n] = alloc_pages_node(0, GFP_ATOMIC, 0);
	ck_assert_int_eq(page_to_nid(pages[n]), 1);
	ck_assert_int_eq(mm_node_stats(m.mm, 1)->fallback, 1);
	n++;
	while (mm_nr_free(m.mm, 1) > 10)
		pages[n++] = alloc_pages_node(0, GFP_ATOMIC, 0);
	/* pass 2: down to min on node 0, then on node 1 */
	for (int i = 0; i < 4; i++) {
		pages[n] = alloc_pages_node(0, GFP_ATOMIC, 0);
		ck_assert_int_eq(page_to_nid(pages[n]), i < 2 ? 0 : 1);
		ck_assert(!page_is_pfmemalloc(pages[n]));
		n++;
	}
	/* pass 3: the reserves, nearest node first */
	for (int i = 0; i < 16; i++) {
		pages[n] = alloc_pages_node(0, GFP_ATOMIC, 0);
		ck_assert_int_eq(page_to_nid(pages[n]), i < 8 ? 0 : 1);
		ck_assert(page_is_pfmemalloc(pages[n]));
		n++;
	}
	ck_assert_int_eq(n, 256);
	ck_assert_ptr_null(alloc_pages_node(0, GFP_ATOMIC, 0));
	ck_assert_int_eq(mm_node_stats(m.mm, 0)->failed, 1);
	ck_assert_int_eq(mm_node_stats(m.mm, 0)->pfmemalloc, 8);
	while (n)
		put_page(pages[--n]);
	/* a freed reserve page comes back as a normal one */
	pages[0] = alloc_pages_node(0, GFP_ATOMIC, 0);
	ck_assert(!page_is_pfmemalloc(pages[0]));
	put_page(pages[0]);
}
END_TEST

/* Two sockets of two nodes (SNC2, NPS2): node 2 at its low watermark
 * falls back to node 3, its socket's other node, before node 1, which is
 * as many node numbers away but on the other socket (SLIT 12 against 21
 * or 32). */
START_TEST(fallback_own_socket_first)
{
	struct mm_params p = { .nr_nodes = 4, .pages_per_node = 128,
			       .wmark_min = 8, .nodes_per_socket = 2 };
	const char *err = NULL;
	struct mm *mm = mm_create(&p, &err);
	struct mm *was = m.ctx.mm;
	struct page *pages[128], *other;
	int n = 0;

	ck_assert_msg(mm, "%s", err ? err : "");
	m.ctx.mm = mm;
	while (mm_nr_free(mm, 2) > 10)
		pages[n++] = alloc_pages_node(2, GFP_ATOMIC, 0);
	other = alloc_pages_node(2, GFP_ATOMIC, 0);
	ck_assert_int_eq(page_to_nid(other), 3);
	put_page(other);
	while (n)
		put_page(pages[--n]);
	m.ctx.mm = was;
	mm_destroy(mm);
}
END_TEST

START_TEST(pressure_marks_pfmemalloc)
{
	struct page *p;

	mm_set_pressure(m.mm, 1, true);
	p = alloc_pages_node(1, GFP_ATOMIC, 0);
	ck_assert(page_is_pfmemalloc(p));
	put_page(p);
	mm_set_pressure(m.mm, 1, false);
	p = alloc_pages_node(1, GFP_ATOMIC, 0);
	ck_assert(!page_is_pfmemalloc(p));
	put_page(p);
}
END_TEST

START_TEST(refcount)
{
	struct page *p = alloc_pages_node(0, GFP_ATOMIC, 0);

	get_page(p);
	put_page(p);
	ck_assert_int_eq(page_ref_count(p), 1);
	ck_assert_int_eq(mm_nr_free(m.mm, 0), 127);
	put_page(p);
	ck_assert_int_eq(mm_nr_free(m.mm, 0), 128);
}
END_TEST

/* Bulk: all from the preferred node, which must stay above low. */
START_TEST(bulk_one_node)
{
	struct page *a[64] = { 0 };

	ck_assert_int_eq(alloc_pages_bulk_array_node(GFP_ATOMIC, 1, 64, a), 64);
	for (int i = 0; i < 64; i++)
		ck_assert_int_eq(page_to_nid(a[i]), 1);
	for (int i = 0; i < 64; i++)
		put_page(a[i]);
}
END_TEST

/* With 74 free pages node 0 cannot give 64 and stay above low (10): the
 * bulk call never takes another node's pages, it falls back to a single
 * page, which still comes from node 0.  Under pressure likewise. */
START_TEST(bulk_fallback)
{
	struct page *hold[128], *a[64] = { 0 }, *b[64] = { 0 };
	int n = 0;

	while (mm_nr_free(m.mm, 0) > 74)
		hold[n++] = alloc_pages_node(0, GFP_ATOMIC, 0);
	ck_assert_int_eq(alloc_pages_bulk_array_node(GFP_ATOMIC, 0, 64, a), 1);
	ck_assert_int_eq(page_to_nid(a[0]), 0);
	ck_assert_ptr_null(a[1]);
	put_page(a[0]);
	a[0] = NULL;
	put_page(hold[--n]);
	ck_assert_int_eq(alloc_pages_bulk_array_node(GFP_ATOMIC, 0, 64, a), 64);
	mm_set_pressure(m.mm, 1, true);
	ck_assert_int_eq(alloc_pages_bulk_array_node(GFP_ATOMIC, 1, 64, b), 1);
	ck_assert(page_is_pfmemalloc(b[0]));
	put_page(b[0]);
	for (int i = 0; i < 64; i++)
		put_page(a[i]);
	while (n)
		put_page(hold[--n]);
}
END_TEST

START_TEST(check_catches_leak)
{
	struct page *p = alloc_pages_node(0, GFP_ATOMIC, 0);
	char why[160];

	ck_assert_int_eq(mm_check(m.mm, why, sizeof(why)), 0);
	p->_refcount = 0;	/* lost without put_page() */
	ck_assert_int_eq(mm_check(m.mm, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "node 0"));
	p->_refcount = 1;
	put_page(p);
}
END_TEST

START_TEST(bad_params)
{
	struct mm_params p[] = {
		{ 0, 128, 0, 0 }, { MAX_NUMNODES + 1, 128, 0, 0 },
		{ 2, 0, 0, 0 }, { 2, 128, 128, 0 },
	};
	const char *err;

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		err = NULL;
		ck_assert_msg(!mm_create(&p[i], &err), "case %zu", i);
		ck_assert_ptr_nonnull(err);
	}
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ local_lowest_pfn_first, UNIT_ONCE },
		{ lifo_reuse, UNIT_ONCE },
		{ numa_no_node_is_current, UNIT_ONCE },
		{ fallback_then_reserves_then_fail, UNIT_ONCE },
		{ fallback_own_socket_first, UNIT_ONCE },
		{ pressure_marks_pfmemalloc, UNIT_ONCE },
		{ refcount, UNIT_ONCE },
		{ bulk_one_node, UNIT_ONCE },
		{ bulk_fallback, UNIT_ONCE },
		{ check_catches_leak, UNIT_ONCE },
		{ bad_params, UNIT_ONCE },
	};

	return unit_main("mm", tests, ARRAY_SIZE(tests), setup, teardown);
}
