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
	char *fields;		/* the same, each ended by a NUL */
	char unit[16];
	double value, ci95;	/* ci95 NAN: one replication */
	int line;		/* the command's: where it was read */
	bool matched;		/* the command's: B's, matched with A's */
};

/* A rate of A and the same of B; either NULL: that file lacks it. */
struct cmp_pair {
	const struct cmp_row *a, *b;
};

/* What the outputs say of the comparison: the two files (and policies,
 * with --pair), and the names of the fields of a row's key. */
struct cmp_head {
	const char *label_a, *label_b;	/* file, ", policy P" with --pair */
	const char *machine_a, *machine_b;	/* its "# machine:"; NULL:
						 * none */
	const char *borrowed_a, *borrowed_b;	/* its "# costs borrowed
						 * for ..."; NULL: none */
	const char *const *names;	/* the CSV's: swept keys, case, policy */
	int nr_names;
};

/* The nr pairs, in order: a table, a CSV (the key's fields, unit, A and
 * B with their CIs, delta_pct, beyond_cis), or a JSON object. */
void cmp_write_table(FILE *f, const struct cmp_head *h,
		     const struct cmp_pair *pairs, int nr);
void cmp_write_csv(FILE *f, const struct cmp_head *h,
		   const struct cmp_pair *pairs, int nr);
void cmp_write_json(FILE *f, const struct cmp_head *h,
		    const struct cmp_pair *pairs, int nr);

#endif
