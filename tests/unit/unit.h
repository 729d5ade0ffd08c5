/* Shared set-up of the Check unit tests: a small machine and a CPU. */
#ifndef PPSIM_UNIT_H
#define PPSIM_UNIT_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "model/kernel/mm.h"

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

struct unit_machine {
	struct mm *mm;
	struct kctx ctx;
	struct kctx *prev;	/* the context before */
};

/* nodes x pages, min watermark wmark; runs on node 0 in softirq. */
static inline void unit_machine_init(struct unit_machine *m, int nodes,
				     u32 pages, u32 wmark)
{
	struct mm_params p = { nodes, pages, wmark };
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

static inline int unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
