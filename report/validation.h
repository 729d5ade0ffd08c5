/*
 * ppsim validate's outputs: its table, CSV, JSON and commit table.
 * cmd/validate.c runs the figures and finds the changes; these write
 * what it found, asking nothing of input/ or sim/.
 */
#ifndef PPSIM_VALIDATION_H
#define PPSIM_VALIDATION_H

#include "report.h"

/* A change this small or smaller has no sign. */
#define VAL_FLAT_PCT	2.0
/* A figure fitted on, predicted now this much or more away from its fit's
 * prediction: the calibration no longer fits the model (ten times what 1
 * and 3 replications differ by). */
#define VAL_STALE_PCT	1.0

/* One scenario of the run: its rows are rows[first, first + nr). */
struct val_file {
	const char *path;
	struct scenario *scn;	/* the command's; not read here */
	int first, nr;
	double tolerance;	/* % error a figure may have */
	double effect_tolerance;	/* points of error a change may have */
	const char *unchecked;	/* why its figures fitted on are not
				 * checked against the fit's records; NULL:
				 * they are */
	char borrowed[160];	/* its costs of another core, as
				 * scn_costs_borrowed says it; "": none */
	int nr_guesses;		/* its figures marked a guess or a prior
				 * (scn_write_guesses) */
	bool uncalibrated;	/* its driver cycles fitted on no figure of
				 * its core (scn_uncalibrated) */
};

/* What one figure says once its simulations are in. */
struct val_figure {
	struct rep_figure pred;
	double err;		/* % */
	bool fit;		/* its case is a calibration case */
	bool over;		/* |err| over its scenario's tolerance */
	bool keyable;		/* its case's name can be a [fitted] key */
	const struct scn_fitted *rec;	/* the fit's [fitted] line of its
					 * case; NULL: none */
	double fitted;		/* what the fit predicted; NAN: none */
	bool stale;		/* pred.mean VAL_STALE_PCT or more away */
};

/*
 * A change with measured figures at both ends: a case's baseline policy
 * against another (a before/after), or one policy from a case to another
 * that differs from it in one or two keys only (a trend step: queues, a
 * ring's size, what the program touches).  Its error is in points: the
 * predicted change in % less the measured one.
 */
struct val_effect {
	int file;
	int from, to;		/* rows */
	bool step;		/* a trend step, else a before/after */
	char keys[2 * SCN_KEY_MAX];	/* a step's keys and values */
	double mpct, ppct;	/* measured and predicted change, % */
	int msign, psign;	/* -1 down, 0 flat (VAL_FLAT_PCT), 1 up */
	bool over;		/* |ppct - mpct| over effect_tolerance */
	bool mismatch;		/* their directions differ */
};

/* Everything a validation found, as its outputs say it. */
struct val_result {
	const struct val_file *files;
	int nr_files;
	const struct rep_row *rows;
	int nr_rows;
	const struct val_figure *fig;	/* one a row */
	const struct val_effect *e;
	int nr_effects;
	const struct rep_prov *prov;	/* seed, replications, overrides */
	/* the last line's counts */
	int over, off, bad_ba, bad_tr, stale;
};

/* The table and its summary lines, the CSV, the JSON, and the commit
 * table of the before/after changes, on f. */
void val_write_table(FILE *f, const struct val_result *v);
void val_write_csv(FILE *f, const struct val_result *v);
void val_write_json(FILE *f, const struct val_result *v);
void val_write_commit(FILE *f, const struct val_result *v);

#endif
