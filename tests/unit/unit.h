/* Shared set-up of the Check unit tests: a small machine and a CPU. */
#ifndef PPSIM_UNIT_H
#define PPSIM_UNIT_H

#include <check.h>
#include <stdlib.h>
#include "model/kernel/mm.h"

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
