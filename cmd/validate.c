/*
 * ppsim validate: runs every case with a measured figure of one or more
 * scenarios, all in one worker pool, and prints the prediction beside each
 * figure, in or out of its scenario's fit; the mean and largest absolute
 * error out of the fit, per scenario and overall; and whether each
 * before/after change (a case's baseline against its other policies) and each
 * trend along one key (cases that differ in that key only) goes the
 * measured way.  --sensitivity is in sensitivity.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "input/datadir.h"
#include "report/commit.h"
#include "cmd.h"
#include "fit.h"

#define FLAT_PCT	2.0	/* a change this small or smaller has no sign */
#define STALE_PCT	1.0	/* a figure fitted on, predicted now this much
				 * or more away from its fit's prediction: the
				 * calibration no longer fits the model (ten
				 * times what 1 and 3 replications differ by) */

/* One scenario of the run: its rows are rows[first, first + nr). */
struct vfile {
	const char *path;
	struct scenario *scn;
	int first, nr;
};

/* What one figure says once its simulations are in. */
struct vfigure {
	struct rep_figure pred;
	double err;		/* % */
	bool fit;		/* its case is a calibration case */
	bool over;		/* |err| over its scenario's tolerance */
	const struct scn_fitted *rec;	/* the fit's [fitted] line of its
					 * case; NULL: none */
	double fitted;		/* what the fit predicted; NAN: no record */
	bool stale;		/* pred.mean STALE_PCT or more from fitted */
};

static int sign_of(double pct)
{
	return pct > FLAT_PCT ? 1 : pct < -FLAT_PCT ? -1 : 0;
}

static double change_pct(double before, double after)
{
	return (after - before) / before * 100;
}

/* A before/after or trend line, from "what" on, on out (or nowhere when
 * NULL): the measured and predicted changes and whether their directions
 * agree.  Returns 1 on a mismatch. */
static int check_change(FILE *out, const char *what, double m0, double m1,
			double p0, double p1)
{
	static const char *const word[] = { "down", "flat", "up" };
	double mpct = change_pct(m0, m1), ppct = change_pct(p0, p1);
	int ms = sign_of(mpct), ps = sign_of(ppct);

	if (!out)
		return ms != ps;
	fprintf(out, "#   %s: %+.1f %% measured, %+.1f %% predicted: ", what,
		mpct, ppct);
	if (ms == ps)
		fprintf(out, "both %s\n", word[ms + 1]);
	else
		fprintf(out, "measured %s, predicted %s  MISMATCH\n",
			word[ms + 1], word[ps + 1]);
	return ms != ps;
}

/* Each case's baseline policy (scn_baseline: baseline =, else its first)
 * against its other measured ones; a case whose baseline has no
 * measured figure has no before/after. */
static int before_after(FILE *out, const struct vfile *vf,
			const struct rep_row *rows, const struct vfigure *fig,
			int w)
{
	const struct rep_row *vr = rows + vf->first;
	int bad = 0, n = 0;

	if (out)
		fprintf(out, "# %s\n", vf->path);
	for (int i = 0; i < vf->nr; i++) {
		int b = rep_baseline(vr, vf->nr, i);
		char what[160];

		if (b < 0 || b == i)
			continue;
		snprintf(what, sizeof(what), "%-*s %s -> %s", w,
			 vr[i].c->name, vr[b].policy->name, vr[i].policy->name);
		bad += check_change(out, what, vr[b].measured, vr[i].measured,
				    fig[vf->first + b].pred.mean,
				    fig[vf->first + i].pred.mean);
		n++;
	}
	if (out && !n)
		fprintf(out, "#   none: no case has two measured policies\n");
	return bad;
}

/* --format commit: each before/after change, measured and predicted,
 * within the 72 columns of a commit message. */
static void print_commit(const struct cmd_opts *o, const struct vfile *vf,
			 int nr_files, const struct rep_row *rows,
			 const struct vfigure *fig)
{
	printf("ppsim %s validate, %d rep%s: before -> after, measured and "
	       "predicted\n", PACKAGE_VERSION, o->rc.reps,
	       o->rc.reps == 1 ? "" : "s");
	printf("%-22s | %-15s | %8s | %9s\n", "Case", "Policies", "Measured",
	       "Predicted");
	printf("------------------------------------------------------------"
	       "--\n");
	for (int f = 0; f < nr_files; f++) {
		const struct rep_row *vr = rows + vf[f].first;

		for (int i = 0; i < vf[f].nr; i++) {
			int b = rep_baseline(vr, vf[f].nr, i);
			char pols[64];
			double p0, p1;

			if (b < 0 || b == i)
				continue;
			p0 = fig[vf[f].first + b].pred.mean;
			p1 = fig[vf[f].first + i].pred.mean;
			snprintf(pols, sizeof(pols), "%s -> %s",
				 vr[b].policy->name, vr[i].policy->name);
			printf("%-22.22s | %-15.15s | %+6.1f %% | %+7.1f %%\n",
			       vr[i].c->name, pols,
			       change_pct(vr[b].measured, vr[i].measured),
			       change_pct(p0, p1));
		}
	}
}

/* The row of (case, policy) among a scenario's, or -1. */
static int row_of(const struct vfile *vf, const struct rep_row *rows,
		  const struct scn_case *c, const struct pp_policy *pol)
{
	for (int i = vf->first; i < vf->first + vf->nr; i++)
		if (rows[i].c == c && rows[i].policy == pol)
			return i;
	return -1;
}

/* Do cases a and b differ in key only (a numeric one)?  Their values. */
static bool differ_in(const struct scn_case *a, const struct scn_case *b,
		      const char *key, double *va, double *vb)
{
	char k[SCN_KEY_MAX];

	return scn_case_diff(a, b, k, sizeof(k)) == 1 && !strcmp(k, key) &&
	       !scn_case_get(a, key, va) && !scn_case_get(b, key, vb);
}

/* Whether a case measured under pol lies between cases a and b along key
 * (every other key the same), its value strictly between va < vb. */
static bool measured_between(const struct vfile *vf,
			     const struct rep_row *rows, int a, int b,
			     const char *key, double va, double vb,
			     const struct pp_policy *pol)
{
	const struct scenario *scn = vf->scn;
	double dummy, vm;

	for (int m = 0; m < scn->nr_cases; m++)
		if (m != a && m != b &&
		    differ_in(&scn->cases[a], &scn->cases[m], key, &dummy,
			      &vm) && vm > va && vm < vb &&
		    row_of(vf, rows, &scn->cases[m], pol) >= 0)
			return true;
	return false;
}

/* Every two cases that differ in one numeric key only, with no case
 * measured between them along it (every other key the same): the change
 * from the lower value to the higher, measured and predicted, each policy
 * both cases measured; a case not measured between them is passed over.
 * Returns the mismatches. */
static int trends(FILE *out, const struct vfile *vf,
		  const struct rep_row *rows, const struct vfigure *fig, int w)
{
	const struct scenario *scn = vf->scn;
	int bad = 0, n = 0;

	if (out)
		fprintf(out, "# %s\n", vf->path);
	for (int a = 0; a < scn->nr_cases; a++) {
		for (int b = a + 1; b < scn->nr_cases; b++) {
			const struct scn_case *lo = &scn->cases[a];
			const struct scn_case *hi = &scn->cases[b];
			char key[SCN_KEY_MAX], v0[32], v1[32];
			double va, vb, vm;

			/* a run measured longer is no trend of the machine */
			if (scn_case_diff(lo, hi, key, sizeof(key)) != 1 ||
			    scn_key_measures(key) ||
			    scn_case_get(lo, key, &va) ||
			    scn_case_get(hi, key, &vb))
				continue;
			if (va > vb) {
				const struct scn_case *t = lo;

				lo = hi;
				hi = t;
				vm = va;
				va = vb;
				vb = vm;
			}
			scn_format_value(key, va, v0, sizeof(v0));
			scn_format_value(key, vb, v1, sizeof(v1));
			for (int p = 0; p < lo->nr_policies; p++) {
				int i = row_of(vf, rows, lo, lo->policies[p]);
				int j = row_of(vf, rows, hi, lo->policies[p]);
				char what[256];

				if (i < 0 || j < 0 ||
				    measured_between(vf, rows, a, b, key, va,
						     vb, lo->policies[p]))
					continue;
				snprintf(what, sizeof(what), "%-*s -> %-*s "
					 "%-6s %s %s -> %s", w, lo->name, w,
					 hi->name, lo->policies[p]->name, key,
					 v0, v1);
				bad += check_change(out, what,
						    rows[i].measured,
						    rows[j].measured,
						    fig[i].pred.mean,
						    fig[j].pred.mean);
				n++;
			}
		}
	}
	if (out && !n)
		fprintf(out, "#   none: no two cases with measured figures "
			"differ in one key only\n");
	return bad;
}

/* The out-of-fit errors of rows [first, first + nr). */
static void print_errors(const char *name, const struct vfigure *fig,
			 int first, int nr)
{
	double sum = 0, max = 0;
	int n = 0;

	for (int i = first; i < first + nr; i++) {
		if (fig[i].fit)
			continue;
		sum += fabs(fig[i].err);
		max = fmax(max, fabs(fig[i].err));
		n++;
	}
	if (n)
		printf("# out of the fit, %s: mean |error| %.1f %%, max "
		       "|error| %.1f %% over %d figure%s\n", name, sum / n,
		       max, n, n == 1 ? "" : "s");
	else
		printf("# out of the fit, %s: no figure (every measured figure "
		       "is in the fit)\n", name);
}

static void print_table(const struct cmd_opts *o, const struct vfile *vf,
			int nr_files, const struct rep_row *rows,
			const struct vfigure *fig, int nr_rows)
{
	int w = rep_name_width(rows, nr_rows);

	cmd_print_head(o, "validate", nr_files, rows, nr_rows);
	printf("%-*s %-6s %8s %9s %-4s %6s %7s %-3s %s\n", w, "case",
	       "policy", "measured", "predicted", "unit", "ci95", "err%", "fit",
	       "limit");
	for (int f = 0; f < nr_files; f++) {
		printf("# ");
		datadir_put_line_text(stdout, vf[f].path);
		printf("  tolerance %g %%\n", vf[f].scn->calibrate.tolerance);
		for (int i = vf[f].first; i < vf[f].first + vf[f].nr; i++) {
			const char *limit = rep_saturated(&rows[i], o->rc.reps);

			printf("%-*s %-6s %8.2f %9.2f %-4s ", w, rows[i].c->name,
			       rows[i].policy->name, rows[i].measured,
			       fig[i].pred.mean, sim_rate_unit(&rows[i].c->sim));
			rep_put_ci95(stdout, fig[i].pred.ci95);
			printf(" %+7.1f %-3s %s", fig[i].err,
			       fig[i].fit ? "in" : "out", limit);
			if (fig[i].over)	/* under the last heading */
				printf("%*sOVER", 10 - (int)strlen(limit), "");
			putchar('\n');
		}
	}
}

static void print_csv(const struct cmd_opts *o, const struct vfile *vf,
		      int nr_files, const struct rep_row *rows,
		      const struct vfigure *fig, int nr_rows)
{
	cmd_print_head(o, "validate", nr_files, rows, nr_rows);
	printf("file,case,policy,measured,predicted,unit,ci95,error_pct,fit,"
	       "tolerance,over,saturated,fitted,stale\n");
	for (int f = 0; f < nr_files; f++) {
		for (int i = vf[f].first; i < vf[f].first + vf[f].nr; i++) {
			rep_csv_text(stdout, vf[f].path);
			putchar(',');
			rep_csv_text(stdout, rows[i].c->name);
			printf(",%s,%.6g,%.6g,%s,", rows[i].policy->name,
			       rows[i].measured,
			       fig[i].pred.mean,
			       sim_rate_unit(&rows[i].c->sim));
			if (!isnan(fig[i].pred.ci95))
				printf("%.6g", fig[i].pred.ci95);
			printf(",%.6g,%s,%g,%d,%s,", fig[i].err,
			       fig[i].fit ? "in" : "out",
			       vf[f].scn->calibrate.tolerance, fig[i].over,
			       rep_saturated(&rows[i], o->rc.reps));
			/* empty: out of the fit, no record, or not checked */
			if (!isnan(fig[i].fitted))
				printf("%.10g,%d", fig[i].fitted,
				       fig[i].stale);
			else
				putchar(',');
			putchar('\n');
		}
	}
}

/* Why a scenario's figures fitted on are not checked against its
 * [fitted] records, or NULL: a record is of a fit of this scenario as its
 * files are, which a scenario that fits nothing did not make, and which
 * the command line's overrides do not run. */
static const char *unchecked(const struct cmd_opts *o,
			     const struct scenario *scn)
{
	if (o->nr_set)
		return "the command line's overrides (--set, --duration) "
		       "change what the fit ran";
	if (!scn->calibrate.free[0])
		return "the scenario fits nothing ([calibrate] free): its "
		       "calibration, if any, is another scenario's";
	return NULL;
}

/* A figure fitted on: what its calibration's fit predicted ([fitted];
 * fitted stays NAN without a record), and whether the model now predicts
 * it STALE_PCT or more away. */
static void check_fitted(const struct scenario *scn, const struct rep_row *r,
			 struct vfigure *fig)
{
	fig->rec = scn_fitted_case(scn, r->c->name);
	for (int p = 0; fig->rec && p < fig->rec->nr; p++)
		if (fig->rec->fig[p].policy == r->policy)
			fig->fitted = fig->rec->fig[p].value;
	fig->stale = !isnan(fig->fitted) &&
		     fabs(change_pct(fig->fitted, fig->pred.mean)) >= STALE_PCT;
}

/* Each file's figures fitted on, against what the fit predicted: the
 * stale ones and those with no record each a line, the others counted
 * with the files that recorded them. */
static void print_fitted(const struct cmd_opts *o, const struct vfile *vf,
			 const struct rep_row *rows,
			 const struct vfigure *fig, int w)
{
	const char *files[SCN_MAX_CASES];
	int fine = 0, nr_fit = 0, nr_files = 0;
	const char *why = unchecked(o, vf->scn);

	printf("# %s\n", vf->path);
	for (int i = vf->first; i < vf->first + vf->nr; i++) {
		if (!fig[i].fit)
			continue;
		nr_fit++;
		if (why)
			continue;
		if (isnan(fig[i].fitted)) {
			printf("#   %-*s %-6s no [fitted] record of it: not "
			       "checked (%s)\n", w, rows[i].c->name,
			       rows[i].policy->name,
			       fit_name_is_key(rows[i].c->name) ?
			       "ppsim calibrate writes one" : "its name "
			       "cannot be a key");
		} else if (fig[i].stale) {
			printf("#   %-*s %-6s %.2f %s now, %.2f when fitted "
			       "(%s:%d): %+.1f %%  STALE\n", w,
			       rows[i].c->name, rows[i].policy->name,
			       fig[i].pred.mean,
			       sim_rate_unit(&rows[i].c->sim), fig[i].fitted,
			       fig[i].rec->file, fig[i].rec->line,
			       change_pct(fig[i].fitted, fig[i].pred.mean));
		} else {
			int k = 0;

			fine++;
			while (k < nr_files && files[k] != fig[i].rec->file)
				k++;
			if (k == nr_files && nr_files < SCN_MAX_CASES)
				files[nr_files++] = fig[i].rec->file;
		}
	}
	if (!nr_fit) {
		printf("#   none: no figure of the fit among those run\n");
	} else if (why) {
		printf("#   not checked: %s\n", why);
	} else if (fine) {
		printf("#   %d figure%s within %g %% of what the fit predicted "
		       "(", fine, fine == 1 ? "" : "s", STALE_PCT);
		for (int k = 0; k < nr_files; k++)
			printf("%s%s", k ? ", " : "", files[k]);
		printf(")\n");
	}
}

static int report(const struct cmd_opts *o, const struct vfile *vf,
		  int nr_files, const struct rep_row *rows, int nr_rows)
{
	struct vfigure *fig = calloc((size_t)nr_rows, sizeof(*fig));
	int over = 0, bad_ba = 0, bad_tr = 0, stale = 0, w;
	FILE *out;

	if (!fig) {
		fprintf(stderr, "ppsim validate: out of memory\n");
		return 1;
	}
	for (int f = 0; f < nr_files; f++) {
		bool check = !unchecked(o, vf[f].scn);
		int n = 0;

		for (int i = vf[f].first; i < vf[f].first + vf[f].nr; i++) {
			fig[i].pred = rep_rate(&rows[i], o->rc.reps);
			fig[i].err = rep_error_pct(fig[i].pred.mean,
						   rows[i].measured);
			fig[i].fit = scn_fitted_on(vf[f].scn, rows[i].c->name);
			fig[i].over = fabs(fig[i].err) >
				      vf[f].scn->calibrate.tolerance;
			over += fig[i].over;
			fig[i].fitted = NAN;
			if (fig[i].fit && check)
				check_fitted(vf[f].scn, &rows[i], &fig[i]);
			n += fig[i].stale;
		}
		if (n)
			fprintf(stderr, "%s: warning: a stale calibration: "
				"%d of the figures it was fitted on %s now "
				"predicted %g %% or more away from what its fit "
				"predicted; the model or its files changed "
				"since the fit, which ppsim calibrate redoes\n",
				vf[f].path, n, n == 1 ? "is" : "are",
				STALE_PCT);
		stale += n;
	}
	/* the CSV holds the figures; the directions still decide the status */
	out = o->format == CMD_TABLE ? stdout : NULL;
	if (o->format == CMD_COMMIT)
		print_commit(o, vf, nr_files, rows, fig);
	if (out) {
		print_table(o, vf, nr_files, rows, fig, nr_rows);
		printf("#\n");
		for (int f = 0; f < nr_files; f++)
			print_errors(vf[f].path, fig, vf[f].first, vf[f].nr);
		print_errors("overall", fig, 0, nr_rows);
		printf("#\n# before/after, each case's baseline (its "
		       "baseline key, else its first policy) against the "
		       "others (a change within %g %% is flat):\n",
		       FLAT_PCT);
	} else if (o->format == CMD_CSV) {
		print_csv(o, vf, nr_files, rows, fig, nr_rows);
	}
	w = rep_name_width(rows, nr_rows);
	for (int f = 0; f < nr_files; f++)
		bad_ba += before_after(out, &vf[f], rows, fig, w);
	if (out)
		printf("#\n# trends along one key, between consecutive cases "
		       "that differ in it only:\n");
	for (int f = 0; f < nr_files; f++)
		bad_tr += trends(out, &vf[f], rows, fig, w);
	if (out) {
		printf("#\n# the calibration: each figure fitted on, predicted "
		       "now against what the fit predicted ([fitted]; %g %% "
		       "apart or more: stale):\n", STALE_PCT);
		for (int f = 0; f < nr_files; f++)
			print_fitted(o, &vf[f], rows, fig, w);
		printf("#\n# %d of %d figures over the tolerance, %d direction "
		       "mismatches (%d before/after, %d trends), %d stale "
		       "fitted\n", over, nr_rows, bad_ba + bad_tr, bad_ba,
		       bad_tr, stale);
	}
	free(fig);
	return over || bad_ba || bad_tr || stale ? 1 : 0;
}

/* Keeps the rows --case and --policy let through, in order. */
static int wanted_rows(const struct cmd_opts *o, struct rep_row *rows, int nr)
{
	int n = 0;

	for (int i = 0; i < nr; i++)
		if (cmd_wants_case(o, rows[i].c->name) &&
		    cmd_wants_policy(o, rows[i].policy->name))
			rows[n++] = rows[i];
	return n;
}

int validate_main(int argc, char **argv)
{
	int help;
	struct scenario **scn;
	struct rep_row *rows = NULL;
	struct vfile *vf;
	struct cmd_opts o;
	int nr_rows = 0, status = 2, bad = 0, kept = 0;

	gsl_set_error_handler_off();
	if ((help = cmd_parse(argc, argv, cmd_spec("validate"), &o)))
		return help > 0 ? 0 : 2;
	if (o.nr_params && !o.sensitivity) {
		fprintf(stderr, "ppsim validate: --param needs "
			"--sensitivity\n");
		return 2;
	}
	if (o.sensitivity && (o.nr_cases || o.nr_policies || o.dry_run)) {
		fprintf(stderr, "ppsim validate: --sensitivity moves every "
			"figure: not with --case, --policy or --dry-run\n");
		return 2;
	}
	scn = calloc((size_t)o.nr_args, sizeof(*scn));
	vf = calloc((size_t)o.nr_args, sizeof(*vf));
	rows = calloc((size_t)o.nr_args * FIT_MAX_ROWS, sizeof(*rows));
	if (!scn || !vf || !rows) {
		fprintf(stderr, "ppsim validate: out of memory\n");
		goto done;
	}
	/* every file read, every error said, before anything runs; a file
	 * with nothing to validate (a profile or a calibration: a glob of
	 * scenarios/ holds them; or a scenario with no measured figure) is
	 * passed over, said, and dropped from the arguments */
	for (int f = 0, in = 0; in < o.nr_args; in++) {
		const char *path = o.args[in];
		int n;

		scn[f] = scn_load_part(path, o.set, o.nr_set, cmd_policies,
				       o.cases, o.nr_cases);
		if (!scn[f]) {
			bad++;
			continue;
		}
		n = cmd_measured_rows(scn[f], rows + nr_rows, false);
		if (!n) {
			fprintf(stderr, "%s: passed over: %s\n", path,
				scn[f]->nr_cases ? "no case has a measured "
				"figure" : "no [case NAME] section (a profile "
				"or a calibration, not a scenario)");
			scn_free(scn[f]);
			continue;
		}
		vf[f] = (struct vfile){ path, scn[f], nr_rows,
			wanted_rows(&o, rows + nr_rows, n) };
		nr_rows += vf[f].nr;
		o.args[f++] = (char *)path;
		kept = f;
	}
	o.nr_args = kept;
	o.file = kept ? o.args[0] : NULL;
	if (!bad && !kept) {
		fprintf(stderr, "ppsim validate: no scenario among the files "
			"has a measured figure: nothing to validate\n");
		bad++;
	} else if (!bad && cmd_check_names(&o, scn, o.nr_args)) {
		bad++;	/* a name that is nowhere: said as such */
	} else if (!bad && !nr_rows) {
		fprintf(stderr, "ppsim validate: no measured figure matches "
			"the --case and --policy given\n");
		bad++;
	}
	if (bad)
		goto done;
	for (int f = 0; f < o.nr_args; f++) {
		cmd_warn_calibration(scn[f], o.args[f]);
		if (o.dry_run && vf[f].nr)
			cmd_print_rows(o.args[f], rows + vf[f].first, vf[f].nr);
	}
	if (o.dry_run) {
		cmd_print_plan("validate", o.nr_args, rows, nr_rows, o.rc.reps);
		status = 0;
		goto done;
	}
	if (o.sensitivity) {
		status = validate_sensitivity(&o, scn, o.nr_args);
		goto done;
	}
	status = 1;
	if (!rep_run(rows, nr_rows, &o.rc, o.nr_args > 1 ? NULL : o.file))
		status = report(&o, vf, o.nr_args, rows, nr_rows);
	rep_free(rows, nr_rows);
done:
	for (int f = 0; scn && f < o.nr_args; f++)
		scn_free(scn[f]);
	free(scn);
	free(vf);
	free(rows);
	return status;
}
