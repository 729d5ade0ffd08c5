/*
 * ppsim validate: runs every case with a measured figure and prints the
 * prediction beside it, in or out of the fit, the mean absolute error of
 * the out-of-fit rows and whether each before/after change has the
 * measured sign.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "cmd.h"

#define FIT_MAX_ROWS	(SCN_MAX_CASES * SCN_MAX_POLICIES)
#define FLAT_PCT	2.0	/* a change smaller than this has no sign */

static int sign_of(double before, double after)
{
	double pct = (after - before) / before * 100;

	return pct > FLAT_PCT ? 1 : pct < -FLAT_PCT ? -1 : 0;
}

/* Does each case's change from its first policy to the others have the
 * measured sign?  Prints one line a change; returns the mismatches. */
static int direction_check(const struct rep_row *rows, int nr_rows,
			   int reps)
{
	static const char *const word[] = { "down", "flat", "up" };
	int bad = 0;

	for (int i = 0; i < nr_rows; i++) {
		for (int j = i + 1; j < nr_rows; j++) {
			int ms, ps;

			if (rows[j].c != rows[i].c)
				continue;
			ms = sign_of(rows[i].measured, rows[j].measured);
			ps = sign_of(rep_rate(&rows[i], reps).mean,
				     rep_rate(&rows[j], reps).mean);
			printf("# %-12s %s -> %s: measured %s, predicted %s%s\n",
			       rows[i].c->name, rows[i].policy->name, rows[j].policy->name,
			       word[ms + 1], word[ps + 1],
			       ms == ps ? "" : "  MISMATCH");
			bad += ms != ps;
		}
	}
	return bad;
}

int validate_main(int argc, char **argv)
{
	struct rep_row rows[FIT_MAX_ROWS];
	struct scenario *scn;
	struct cmd_opts o;
	int nr_rows, over = 0, out_n = 0, mismatches;
	double tol, out_abs = 0;

	gsl_set_error_handler_off();
	if (cmd_parse(argc, argv, cmd_spec("validate"), &o))
		return 2;
	scn = scn_load(o.file, NULL, 0, cmd_policies);
	if (!scn)
		return 2;
	nr_rows = cmd_measured_rows(scn, rows, false);
	if (!nr_rows) {
		fprintf(stderr, "%s: no case has a measured figure\n", o.file);
		scn_free(scn);
		return 2;
	}
	tol = scn->calibrate.tolerance;
	if (rep_run(rows, nr_rows, &o.rc, o.file)) {
		rep_free(rows, nr_rows);
		scn_free(scn);
		return 1;
	}
	printf("# ppsim %s validate %s  seed %lu  reps %d  tolerance %g %%\n",
	       PACKAGE_VERSION, o.file, o.rc.seed, o.rc.reps, tol);
	printf("%-12s %-6s %8s %9s %-4s %6s %7s %-4s\n", "case", "policy",
	       "measured", "predicted", "unit", "ci95", "err%", "fit");
	for (int i = 0; i < nr_rows; i++) {
		struct rep_figure f = rep_rate(&rows[i], o.rc.reps);
		double err = (f.mean - rows[i].measured) / rows[i].measured * 100;
		bool fit = cmd_in_fit(scn, rows[i].c->name);

		printf("%-12s %-6s %8.2f %9.2f %-4s %6.2f %+7.1f %-4s%s\n",
		       rows[i].c->name, rows[i].policy->name, rows[i].measured,
		       f.mean, sim_rate_unit(&rows[i].c->sim),
		       isnan(f.ci95) ? 0 : f.ci95, err,
		       fit ? "in" : "out", fabs(err) > tol ? "  OVER" : "");
		over += fabs(err) > tol;
		if (!fit) {
			out_abs += fabs(err);
			out_n++;
		}
	}
	if (out_n)
		printf("# mean absolute error out of the fit: %.1f %% over %d "
		       "figures\n", out_abs / out_n, out_n);
	else
		printf("# every measured figure was in the fit: nothing is "
		       "validated out of sample\n");
	mismatches = direction_check(rows, nr_rows, o.rc.reps);
	printf("# %d of %d figures over the tolerance, %d direction "
	       "mismatches\n", over, nr_rows, mismatches);
	rep_free(rows, nr_rows);
	scn_free(scn);
	return over || mismatches ? 1 : 0;
}

