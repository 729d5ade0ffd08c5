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
#include "report/validation.h"
#include "cmd.h"
#include "fit.h"

static int sign_of(double pct)
{
	return pct > VAL_FLAT_PCT ? 1 : pct < -VAL_FLAT_PCT ? -1 : 0;
}

/* The change in %; NAN from nothing (a rate of 0): no change to give. */
static double change_pct(double before, double after)
{
	return before > 0 ? (after - before) / before * 100 : NAN;
}

#define MAX_EFFECTS	(4 * FIT_MAX_ROWS)

static void add_effect(struct val_effect *e, int *nr, int file, int from,
		       int to, const struct rep_row *rows,
		       const struct val_figure *fig, double tolerance)
{
	struct val_effect *x;

	if (*nr == MAX_EFFECTS)
		return;
	x = &e[(*nr)++];
	*x = (struct val_effect){ .file = file, .from = from, .to = to };
	x->mpct = change_pct(rows[from].measured, rows[to].measured);
	x->ppct = change_pct(fig[from].pred.mean, fig[to].pred.mean);
	/* a change the prediction cannot give is not within tolerance */
	x->over = isnan(x->ppct - x->mpct) ||
		  fabs(x->ppct - x->mpct) > tolerance;
	x->msign = sign_of(x->mpct);
	x->psign = sign_of(x->ppct);
	x->mismatch = x->msign != x->psign || isnan(x->ppct);
}

/* The row of (case, policy) among a scenario's, or -1. */
static int row_of(const struct val_file *vf, const struct rep_row *rows,
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
	char k[2 * SCN_KEY_MAX];

	return scn_case_diff(a, b, k, sizeof(k)) == 1 && !strcmp(k, key) &&
	       !scn_case_get(a, key, va) && !scn_case_get(b, key, vb);
}

/* Whether a case measured under pol lies between cases a and b along key
 * (every other key the same), its value strictly between va < vb. */
static bool measured_between(const struct val_file *vf,
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

/* A number as a step line says it: as a file writes it, but for a
 * migration's time, whose default (-1 s) is none. */
static void value_text(const char *key, double v, char *buf, size_t len)
{
	if (!strcmp(key, "migrate_at") && v < 0)
		snprintf(buf, len, "never");
	else
		scn_format_value(key, v, buf, len);
}

/* A step's keys as a line says them, each with its values at the ends lo
 * and hi ("queues 3 -> 4", "xdp_touch read -> none"). */
static void step_keys(const struct scn_case *lo, const struct scn_case *hi,
		      const char *keys, char *buf, size_t len)
{
	char k[2 * SCN_KEY_MAX], *save = NULL;
	size_t at = 0;

	snprintf(k, sizeof(k), "%s", keys);
	buf[0] = '\0';
	for (char *t = strtok_r(k, " ", &save); t && at < len;
	     t = strtok_r(NULL, " ", &save)) {
		char v0[32], v1[32];
		double a, b;

		if (!scn_case_get(lo, t, &a) && !scn_case_get(hi, t, &b)) {
			value_text(t, a, v0, sizeof(v0));
			value_text(t, b, v1, sizeof(v1));
		} else if (scn_case_word(lo, t, v0, sizeof(v0)) ||
			   scn_case_word(hi, t, v1, sizeof(v1))) {
			snprintf(v0, sizeof(v0), "?");
			snprintf(v1, sizeof(v1), "?");
		}
		at += (size_t)snprintf(buf + at, len - at, "%s%s %s -> %s",
				       at ? ", " : "", t, v0, v1);
	}
}

/* Each case's baseline policy (scn_baseline: baseline =, else its first)
 * against its other measured ones; a case whose baseline has no
 * measured figure has no before/after. */
static void before_after(const struct val_file *vf, int file,
			 const struct rep_row *rows, const struct val_figure *fig,
			 struct val_effect *e, int *nr)
{
	const struct rep_row *vr = rows + vf->first;

	for (int i = 0; i < vf->nr; i++) {
		int b = rep_baseline(vr, vf->nr, i);

		if (b >= 0 && b != i)
			add_effect(e, nr, file, vf->first + b, vf->first + i,
				   rows, fig,
				   vf->scn->calibrate.effect_tolerance);
	}
}

/* Keys that move together as one axis of a machine or a workload: two
 * cases that differ in such a pair only are one step (a ring's rx and tx
 * sizes; the workload and what its program touches; when and where the
 * irq moves; queues and the CPUs they share).  Any other pair of keys is
 * two axes, whose mix is no step. */
static const char *const coupled_keys[][2] = {
	{ "nic.rx_ring", "nic.tx_ring" },
	{ "workload", "xdp_touch" },
	{ "migrate_at", "migrate_cpu" },
	{ "queues", "irq_cpus" },
};

/* Whether keys, two names a space apart, are a coupled pair. */
static bool coupled(const char *keys)
{
	for (size_t i = 0; i < sizeof(coupled_keys) / sizeof(*coupled_keys);
	     i++) {
		char a[2 * SCN_KEY_MAX], b[2 * SCN_KEY_MAX];

		snprintf(a, sizeof(a), "%s %s", coupled_keys[i][0],
			 coupled_keys[i][1]);
		snprintf(b, sizeof(b), "%s %s", coupled_keys[i][1],
			 coupled_keys[i][0]);
		if (!strcmp(keys, a) || !strcmp(keys, b))
			return true;
	}
	return false;
}

/* Every two cases that differ in one key only, or in a coupled pair (a
 * run measured longer is no step of the machine), each policy both
 * measured: along a numeric key from its lower value to its higher, with
 * no case measured between them; else from the case first in the
 * file. */
static void steps(const struct val_file *vf, int file,
		  const struct rep_row *rows, const struct val_figure *fig,
		  struct val_effect *e, int *nr)
{
	const struct scenario *scn = vf->scn;

	for (int a = 0; a < scn->nr_cases; a++) {
		for (int b = a + 1; b < scn->nr_cases; b++) {
			const struct scn_case *lo = &scn->cases[a];
			const struct scn_case *hi = &scn->cases[b];
			char keys[2 * SCN_KEY_MAX];
			double va = 0, vb = 0;
			bool along;
			int n = scn_case_diff(lo, hi, keys, sizeof(keys));

			if (n < 1 || n > 2)
				continue;
			if ((n == 1 && scn_key_measures(keys)) ||
			    (n == 2 && !coupled(keys)))
				continue;
			along = n == 1 && !scn_case_get(lo, keys, &va) &&
				!scn_case_get(hi, keys, &vb);
			if (along && va > vb) {
				const struct scn_case *t = lo;
				double v = va;

				lo = hi;
				hi = t;
				va = vb;
				vb = v;
			}
			for (int p = 0; p < lo->nr_policies; p++) {
				int i = row_of(vf, rows, lo, lo->policies[p]);
				int j = row_of(vf, rows, hi, lo->policies[p]);

				if (i < 0 || j < 0 ||
				    (along && measured_between(vf, rows,
					(int)(lo - scn->cases),
					(int)(hi - scn->cases), keys, va, vb,
					lo->policies[p])))
					continue;
				add_effect(e, nr, file, i, j, rows, fig,
					   scn->calibrate.effect_tolerance);
				e[*nr - 1].step = true;
				step_keys(lo, hi, keys, e[*nr - 1].keys,
					  sizeof(e[*nr - 1].keys));
			}
		}
	}
}

/* Why a scenario's figures fitted on are not checked against its
 * [fitted] records, or NULL: a record is of a fit of this scenario as its
 * files are, which a scenario that fits nothing did not make, and which
 * the command line's overrides do not run. */
static const char *unchecked(const struct scn_override *set, int nr_set,
			     const struct scenario *scn)
{
	/* validate's own keys aside, and which policies run: a figure's
	 * run is the same beside any other */
	for (int i = 0; i < nr_set; i++)
		if (strncmp(set[i].key, "calibrate.", 10) &&
		    !cmd_policy_key(set[i].key))
			return "the command line's overrides (--set, "
			       "--duration) change what the fit ran";
	if (!scn->calibrate.free[0])
		return "the scenario fits nothing ([calibrate] free): its "
		       "calibration, if any, is another scenario's";
	return NULL;
}

/* A figure fitted on: what its calibration's fit predicted ([fitted];
 * fitted stays NAN without a record), and whether the model now predicts
 * it VAL_STALE_PCT or more away. */
static void check_fitted(const struct scenario *scn, const struct rep_row *r,
			 struct val_figure *fig)
{
	fig->rec = scn_fitted_case(scn, r->c->name);
	for (int p = 0; fig->rec && p < fig->rec->nr; p++)
		if (fig->rec->fig[p].policy == r->policy)
			fig->fitted = fig->rec->fig[p].value;
	fig->stale = !isnan(fig->fitted) &&
		     fabs(change_pct(fig->fitted, fig->pred.mean)) >=
		     VAL_STALE_PCT;
}

/* Each figure's prediction, error and record of the fit, into fig;
 * returns how many are stale, said on stderr file by file. */
static int figures(const struct cmd_opts *o, const struct val_file *vf,
		   int nr_files, const struct rep_row *rows,
		   struct val_figure *fig)
{
	int stale = 0;

	for (int f = 0; f < nr_files; f++) {
		int n = 0;

		for (int i = vf[f].first; i < vf[f].first + vf[f].nr; i++) {
			fig[i].pred = rep_rate(&rows[i], o->rc.reps);
			fig[i].err = rep_error_pct(fig[i].pred.mean,
						   rows[i].measured);
			fig[i].fit = scn_fitted_on(vf[f].scn, rows[i].c->name);
			fig[i].over = fabs(fig[i].err) > vf[f].tolerance;
			fig[i].keyable = fit_name_is_key(rows[i].c->name);
			fig[i].fitted = NAN;
			if (fig[i].fit && !vf[f].unchecked)
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
				VAL_STALE_PCT);
		stale += n;
	}
	return stale;
}

static int report(const struct cmd_opts *o, const struct val_file *vf,
		  int nr_files, const struct rep_row *rows, int nr_rows)
{
	struct rep_prov prov = { .command = "validate", .rc = &o->rc,
				 .set = o->set, .nr_set = o->nr_set };
	struct val_figure *fig = calloc((size_t)nr_rows, sizeof(*fig));
	struct val_effect *e = calloc(MAX_EFFECTS, sizeof(*e));
	struct val_result v = { .files = vf, .nr_files = nr_files,
				.rows = rows, .nr_rows = nr_rows, .fig = fig,
				.e = e, .prov = &prov };

	if (!fig || !e) {
		free(fig);
		free(e);
		fprintf(stderr, "ppsim validate: out of memory\n");
		return 1;
	}
	v.stale = figures(o, vf, nr_files, rows, fig);
	for (int i = 0; i < nr_rows; i++)
		v.over += fig[i].over;
	for (int f = 0; f < nr_files; f++) {
		before_after(&vf[f], f, rows, fig, e, &v.nr_effects);
		steps(&vf[f], f, rows, fig, e, &v.nr_effects);
	}
	for (int k = 0; k < v.nr_effects; k++) {
		v.off += e[k].over;
		v.bad_ba += e[k].mismatch && !e[k].step;
		v.bad_tr += e[k].mismatch && e[k].step;
	}
	if (o->format == CMD_COMMIT)
		val_write_commit(stdout, &v);
	else if (o->format == CMD_CSV)
		val_write_csv(stdout, &v);
	else if (o->format == CMD_JSON)
		val_write_json(stdout, &v);
	else
		val_write_table(stdout, &v);
	free(fig);
	free(e);
	return v.over || v.off || v.bad_ba || v.bad_tr || v.stale ? 1 : 0;
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

/* What --sensitivity (and --param, its option) cannot go with: -1 after
 * saying so. */
static int refuse_sensitivity(const struct cmd_opts *o)
{
	if (o->nr_params && !o->sensitivity) {
		fprintf(stderr, "ppsim validate: --param needs "
			"--sensitivity\n");
		return -1;
	}
	if (o->sensitivity && (o->format == CMD_JSON ||
			       o->format == CMD_COMMIT)) {
		fprintf(stderr, "ppsim validate: --sensitivity prints a table "
			"or CSV, not %s\n",
			o->format == CMD_JSON ? "JSON" : "a commit's table");
		return -1;
	}
	if (o->sensitivity && (o->nr_cases || o->nr_policies)) {
		fprintf(stderr, "ppsim validate: --sensitivity moves every "
			"figure: not with --case or --policy\n");
		return -1;
	}
	return 0;
}

/* --results: the files of the run o->results names, its figures in each
 * measured row; o->args, when given, in place of the run's scenarios.
 * Returns the number of rows, or -1 (said). */
static int rows_of_results(struct cmd_opts *o, struct run_results *r,
			struct scenario **scn, struct val_file *vf,
			struct rep_row *rows)
{
	int nr_rows = 0;

	if (o->nr_set || o->reps_given || o->seed_given || o->sensitivity ||
	    o->dry_run) {
		fprintf(stderr, "ppsim validate: --results: the run's CSV says "
			"what ran: not with --set, --duration, --policy, "
			"--reps, --seed, --sensitivity or --dry-run\n");
		return -1;
	}
	if (results_read(r, o->results))
		return -1;
	if (o->nr_args && o->nr_args != r->nr_files) {
		fprintf(stderr, "ppsim validate: %s holds the results of %d "
			"file%s: give as many scenarios, or none\n", r->path,
			r->nr_files, r->nr_files == 1 ? "" : "s");
		return -1;
	}
	/* what the run was told, every file alike: the provenance's */
	o->rc.reps = r->files[0].reps;
	o->rc.seed = r->files[0].seed;
	o->nr_set = r->files[0].nr_set;
	memcpy(o->set, r->files[0].set, sizeof(o->set));
	for (int k = 0; k < r->nr_files; k++) {
		const char *path = o->nr_args ? o->args[k] : r->files[k].path;
		int n, kept = 0, unrun = 0;

		if (!(scn[k] = results_scenario(r, k, o->nr_args ? path
								  : NULL)))
			return -1;
		n = cmd_measured_rows(scn[k], rows + nr_rows, false);
		/* the measured figures the run ran (a run of some cases
		 * validates those) */
		for (int i = nr_rows, end = nr_rows + n; i < end; i++) {
			const struct results_row *x = results_find(r, k,
				rows[i].c->name, rows[i].policy->name);
			double measured = rows[i].measured;

			if (!x) {
				unrun++;
				n--;
				continue;
			}
			rows[nr_rows + kept] = results_row(x, rows[i].c,
							   rows[i].policy);
			/* the file's figure, as it is now */
			rows[nr_rows + kept++].measured = measured;
		}
		if (results_rows(r, k, scn[k], path, NULL) < 0)
			return -1;
		vf[k] = (struct val_file){ path, scn[k], nr_rows,
			wanted_rows(o, rows + nr_rows, n),
			scn[k]->calibrate.tolerance,
			scn[k]->calibrate.effect_tolerance,
			unchecked(r->files[k].set, r->files[k].nr_set,
				  scn[k]), "", 0, false };
		scn_costs_borrowed(scn[k], vf[k].borrowed,
				   sizeof(vf[k].borrowed));
		vf[k].nr_guesses = scn_write_guesses(NULL, scn[k]);
		vf[k].uncalibrated = scn_uncalibrated(scn[k]);
		nr_rows += vf[k].nr;
		o->args[k] = (char *)path;
		if (unrun)
			fprintf(stderr, "%s: note: %d measured figure%s the run "
				"of %s did not run left out\n", path, unrun,
				unrun == 1 ? "" : "s", r->path);
	}
	o->nr_args = r->nr_files;
	o->file = o->args[0];
	return nr_rows;
}

/* The scenario FILEs: their measured rows, a file with nothing to
 * validate (a profile or a calibration: a glob of scenarios/ holds them;
 * or a scenario with no measured figure) passed over, said, and dropped
 * from o->args.  Every file read, every error said, before anything
 * runs.  Returns the number of rows, or -1. */
static int scenario_rows(struct cmd_opts *o, struct scenario **scn,
			 struct val_file *vf, struct rep_row *rows)
{
	int nr_rows = 0, bad = 0, kept = 0;

	for (int f = 0, in = 0; in < o->nr_args; in++) {
		const char *path = o->args[in];
		int n;

		scn[f] = scn_load_part(path, o->set, o->nr_set, cmd_policies,
				       o->cases, o->nr_cases);
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
			scn[f] = NULL;
			continue;
		}
		vf[f] = (struct val_file){ path, scn[f], nr_rows,
			wanted_rows(o, rows + nr_rows, n),
			scn[f]->calibrate.tolerance,
			scn[f]->calibrate.effect_tolerance,
			unchecked(o->set, o->nr_set, scn[f]), "", 0, false };
		scn_costs_borrowed(scn[f], vf[f].borrowed,
				   sizeof(vf[f].borrowed));
		vf[f].nr_guesses = scn_write_guesses(NULL, scn[f]);
		vf[f].uncalibrated = scn_uncalibrated(scn[f]);
		nr_rows += vf[f].nr;
		o->args[f++] = (char *)path;
		kept = f;
	}
	o->nr_args = kept;
	o->file = kept ? o->args[0] : NULL;
	if (!bad && !kept) {
		fprintf(stderr, "ppsim validate: no scenario among the files "
			"has a measured figure: nothing to validate\n");
		bad++;
	}
	return bad ? -1 : nr_rows;
}

int validate_main(int argc, char **argv)
{
	int help;
	struct scenario **scn;
	struct rep_row *rows = NULL;
	struct val_file *vf;
	struct run_results res = { 0 };
	char **paths = NULL;
	struct cmd_opts o;
	int nr_rows = -1, status = 2, nr_files;

	gsl_set_error_handler_off();
	if ((help = cmd_parse(argc, argv, cmd_spec("validate"), &o)))
		return help > 0 ? 0 : 2;
	if (!o.nr_args && !o.results) {
		fprintf(stderr, "ppsim validate: expected FILE..., or "
			"--results CSV\n");
		cmd_usage(stderr, cmd_spec("validate"));
		return 2;
	}
	if (refuse_sensitivity(&o))
		return 2;
	nr_files = o.results ? RESULTS_MAX_FILES : o.nr_args;
	scn = calloc((size_t)nr_files, sizeof(*scn));
	vf = calloc((size_t)nr_files, sizeof(*vf));
	rows = calloc((size_t)nr_files * FIT_MAX_ROWS, sizeof(*rows));
	paths = calloc((size_t)nr_files, sizeof(*paths));
	if (!scn || !vf || !rows || !paths) {
		fprintf(stderr, "ppsim validate: out of memory\n");
		goto done;
	}
	/* the files, and the names validate keeps of them: its own */
	memcpy(paths, o.args, (size_t)o.nr_args * sizeof(*paths));
	o.args = paths;
	nr_rows = o.results ? rows_of_results(&o, &res, scn, vf, rows)
			    : scenario_rows(&o, scn, vf, rows);
	if (nr_rows < 0)
		goto done;
	if (cmd_check_names(&o, scn, o.nr_args)) {
		nr_rows = -1;	/* a name that is nowhere: said as such */
	} else if (!nr_rows) {
		fprintf(stderr, "ppsim validate: no measured figure matches "
			"the --case and --policy given\n");
		nr_rows = -1;
	}
	if (nr_rows < 0)
		goto done;
	if (o.sensitivity) {	/* its own dry run: the moves */
		for (int f = 0; f < o.nr_args; f++)
			cmd_warn_scenario(scn[f], o.args[f]);
		status = validate_sensitivity(&o, scn, o.nr_args);
		goto done;
	}
	for (int f = 0; f < o.nr_args; f++) {
		cmd_warn_scenario(scn[f], o.args[f]);
		if (o.dry_run && vf[f].nr)
			rep_dry_rows(stdout, o.args[f], rows + vf[f].first,
				     vf[f].nr);
	}
	if (o.dry_run) {
		rep_dry_plan(stdout, "validate", o.nr_args, rows, nr_rows,
			     o.rc.reps);
		status = 0;
		goto done;
	}
	status = 1;
	/* a run's figures (--results), or this one's */
	if (o.results ||
	    !cmd_run_rows(rows, nr_rows, &o.rc, o.nr_args > 1 ? NULL : o.file))
		status = report(&o, vf, o.nr_args, rows, nr_rows);
	cmd_free_results(rows, nr_rows);
done:
	/* the scenarios read: every one, its rows' too when one failed */
	for (int f = 0; scn && f < nr_files; f++)
		scn_free(scn[f]);
	results_free(&res);
	free(scn);
	free(vf);
	free(rows);
	free(paths);
	return status;
}
