/*
 * ppsim validate --sensitivity's outputs: the table and the CSV of how
 * far each prior moves the out-of-fit predictions.  cmd/sensitivity.c
 * moves the priors, refits and runs; these write what it found, asking
 * nothing of input/ or sim/.
 */
#ifndef PPSIM_REPORT_SENSITIVITY_H
#define PPSIM_REPORT_SENSITIVITY_H

#include "report.h"

#define SENS_MAX_REFIT	8	/* parameters a file refits */

/* One scenario: its out-of-fit rows are rows[first, first + nr); what
 * its fit refits, and their baseline values. */
struct sens_file {
	const char *path;
	int first, nr;
	int nr_refit;
	const char *refit_key[SENS_MAX_REFIT];
	double refit_value[SENS_MAX_REFIT];
};

/* One prior and what moving it did, each way (factor[0], factor[1]). */
struct sens_param {
	char key[SCN_KEY_MAX];
	char value[32];		/* as written, or "varies" */
	double v0;		/* the value, NAN when it varies */
	bool whole;		/* a whole number: moved to whole values */
	char moved[2][32];	/* a whole number's moved values, as written */
	double move[2];		/* largest |move| of a figure, % */
	/* Each figure's move's 95 % half-width, % of its baseline: the
	 * replications paired, seed with seed (the move and the baseline
	 * run the same seeds); NAN with one replication.  noise[d] is that
	 * of the figure that moved move[d]. */
	double *noise_of[2];
	double noise[2];
	double mae[2];		/* out-of-fit mean |error| after the move, % */
	int most;		/* the figure that moved most, either way */
	int order;		/* found in this order: ties keep it */
	bool named;		/* by --param */
	bool failed[2];		/* its refit or simulations failed, or */
	char refused[2][640];	/* the scenario's checks refuse the move: why */
	bool rough[2];		/* a refit did not settle */
	double *pred[2];	/* every out-of-fit figure's prediction */
};

/* What the moves did. */
struct sens_result {
	const struct sens_file *files;
	int nr_files;
	const struct sens_param *params;
	int nr_params;
	const struct rep_row *rows;	/* every file's out-of-fit figures */
	int nr_rows;
	const double *base;	/* their baseline predictions */
	double base_mae;	/* and its mean |error|, % */
	bool base_rough;	/* the baseline did not settle */
	double factor[2];	/* the moves: x0.75, x1.25 */
	const struct rep_prov *prov;	/* seed, replications, overrides */
	const char *unread;	/* priors no case of their file reads, not
				 * moved: "cost.stack, cost.recv"; "" none */
};

/* The largest move of a prior, either way, of those that ran; -1: none
 * ran. */
double sens_largest_move(const struct sens_param *sp);
/* Whether that move is within its noise: what the prior does is not told
 * apart from the replications' spread (never with one replication). */
bool sens_within_noise(const struct sens_param *sp);
/* The table, and the CSV: every out-of-fit figure under every move. */
void sens_write_table(FILE *f, const struct sens_result *r);
void sens_write_csv(FILE *f, const struct sens_result *r);
/* Every refused move, a line each, each line starting with lead: after
 * the table ("# "), or on stderr with the CSV, which has no line for
 * one. */
void sens_write_refused(FILE *f, const char *lead,
			const struct sens_result *r);
/* The priors given but read by no case, not moved: a '#' line, or
 * nothing. */
void sens_write_unread(FILE *f, const struct sens_result *r);
/* What a figure rests on that is less than it seems, a line each after
 * lead: a refit that did not settle, a baseline prediction of 0. */
void sens_write_unsure(FILE *f, const char *lead,
		       const struct sens_result *r);
/* --dry-run: the priors that would move, each way moved or refused, and
 * the count of refits; nothing run. */
void sens_write_dry(FILE *f, const struct sens_result *r);

#endif
