/* Shared set-up of the Check unit tests: a small machine and a CPU. */
#ifndef PPSIM_UNIT_H
#define PPSIM_UNIT_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "model/page_pool/pp.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * A check of a table-driven test: got must equal want.  Check's loop tests
 * do not say which iteration failed, so the message names the table row
 * (label: its era, or whatever the row varies) and what was checked.
 */
#define ck_expect(label, what, got, want)				\
	ck_assert_msg((long long)(got) == (long long)(want),		\
		      "%s: %s is %lld, expected %lld", (label), (what),	\
		      (long long)(got), (long long)(want))

/* A table of cases, each row starting with its name (const char *). */
struct unit_table {
	const char *name;
	const void *rows;
	size_t n, size;
};
#define UNIT_TABLE(t)	{ #t, t, ARRAY_SIZE(t), sizeof(t[0]) }

/* Whether a row of t is named name. */
static inline bool unit_table_has(const struct unit_table *t,
				  const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(*(const char *const *)((const char *)t->rows +
						   i * t->size), name))
			return true;
	return false;
}

/* Every era has a row in each of the n tables: a new era cannot pass a
 * table-driven test by being left out of it. */
static inline void unit_tables_cover_eras(const struct unit_table *tables,
					  size_t n)
{
	for (size_t t = 0; t < n; t++)
		for (int e = 0; pp_eras[e]; e++)
			ck_assert_msg(unit_table_has(&tables[t],
						     pp_eras[e]->name),
				      "table %s has no row for era %s",
				      tables[t].name, pp_eras[e]->name);
}

struct unit_machine {
	struct mm *mm;
	struct kctx ctx;
	struct kctx *prev;	/* the context before */
};

/* nodes x pages, min watermark wmark; runs on node 0 in softirq. */
static inline void unit_machine_init(struct unit_machine *m, int nodes,
				     u32 pages, u32 wmark)
{
	struct mm_params p = { .nr_nodes = nodes, .pages_per_node = pages,
				.wmark_min = wmark };
	const char *err = NULL;

	m->mm = mm_create(&p, &err);
	ck_assert_msg(m->mm, "mm_create: %s", err);
	m->ctx = (struct kctx){ .mm = m->mm, .node = 0, .softirq = true };
	m->prev = kctx_enter(&m->ctx);
}

static inline void unit_machine_fini(struct unit_machine *m)
{
	char why[160];

	ck_assert_msg(!mm_check(m->mm, why, sizeof(why)), "%s", why);
	mm_destroy(m->mm);
	kctx_leave(m->prev);
}

/* A test of a suite, and how often it runs: once (UNIT_ONCE), once per
 * era (UNIT_EACH_ERA), or once per row of a table (its row count); the
 * run's index is _i. */
struct unit_test {
	const TTest *test;
	int runs;
};
#define UNIT_ONCE	0
#define UNIT_EACH_ERA	(-1)

/* Runs the tests as one suite, each with the fixture (setup and teardown
 * may be NULL): the exit status of a test program. */
static inline int unit_main(const char *name, const struct unit_test *t,
			    size_t n, SFun setup, SFun teardown)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);
	SRunner *sr;
	int eras = 0, failed;

	while (pp_eras[eras])
		eras++;
	if (setup || teardown)
		tcase_add_checked_fixture(tc, setup, teardown);
	for (size_t i = 0; i < n; i++) {
		if (t[i].runs == UNIT_ONCE)
			tcase_add_test(tc, t[i].test);
		else
			tcase_add_loop_test(tc, t[i].test, 0, t[i].runs ==
					    UNIT_EACH_ERA ? eras : t[i].runs);
	}
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
