/*
 * ppsim compare's table: two runs' rates side by side, the change from A
 * to B and whether it is beyond both 95 % confidence intervals.
 * cmd/compare.c reads the two CSVs and matches their rates; this writes
 * the pairs.
 */
#ifndef PPSIM_REPORT_COMPARE_H
#define PPSIM_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

/* One rate of a file: what it is, and its figure. */
struct cmp_row {
	char *key;		/* swept values, case, policy: its label */
	char unit[16];
	double value, ci95;	/* ci95 NAN: one replication */
	int line;		/* the command's: where it was read */
	bool matched;		/* the command's: B's, matched with A's */
};

/* A rate of A and the same of B; either NULL: that file lacks it. */
struct cmp_pair {
	const struct cmp_row *a, *b;
};

/* The table of the nr pairs, in order, under the two files' names. */
void cmp_write_table(FILE *f, const char *path_a, const char *path_b,
		     const struct cmp_pair *pairs, int nr);

#endif
