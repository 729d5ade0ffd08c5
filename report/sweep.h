/*
 * ppsim sweep's outputs: its table, its CSV (one for every point), and
 * the table its plot draws.  cmd/sweep.c lays out the points and runs
 * them; these write what ran, asking nothing of input/ or sim/.
 */
#ifndef PPSIM_REPORT_SWEEP_H
#define PPSIM_REPORT_SWEEP_H

#include "report.h"

#define SWEEP_MAX_AXES	4

/* One point of the cross product: its rows are rows[first_row, first_row
 * + nr_rows). */
struct sweep_point {
	struct scenario *scn;	/* the command's; not read here */
	char prefix[256];	/* the swept values, as leading CSV columns */
	const char *value[SWEEP_MAX_AXES];	/* the same, one an axis */
	double x;		/* the first axis's value in its base unit */
	int first_row, nr_rows;
	/* what its figures rest on (struct rep_prov's) */
	int nr_guesses;
	bool uncalibrated;
	char borrowed[160];	/* "" when none */
};

/* A sweep that ran. */
struct sweep_result {
	const char *file;	/* the scenario */
	const char *key[SWEEP_MAX_AXES];	/* the swept keys */
	int nr_axes;
	const struct scn_override *fixed;	/* --duration, every point's */
	int nr_fixed;
	const struct rep_opts *rc;
	const struct sweep_point *pts;
	int nr_points;
	const struct rep_row *rows;
	const struct rep_figure *figs;	/* each row's rate as a CSV gave it
					 * (merge --out), or NULL: from its
					 * replications */
	int first_row, end_row;	/* the rows the CSV writes: a --task's */
};

/* The table, the CSV and the JSON (an object: the provenance, the keys,
 * and each point's values and rows, as run's), on f. */
void sweep_write_table(FILE *f, const struct sweep_result *s);
void sweep_write_csv(FILE *f, const struct sweep_result *s);
void sweep_write_json(FILE *f, const struct sweep_result *s);
/*
 * The table plots/sweep.gp reads, sweep-rate.dat: the rate against the
 * first key, one data block a line of the plot (a case, a policy and the
 * values of the other keys).  The lines' names go into series (cap
 * bytes, one a line) and their colours into colours (8 bytes a row and
 * one); returns whether a measured figure is among the points.
 */
bool sweep_write_rates(FILE *f, const struct sweep_result *s, char *series,
		       size_t cap, char *colours);

#endif
