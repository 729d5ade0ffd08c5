/* ppsim validate's outputs (validation.h). */
#include <math.h>
#include <string.h>
#include "config.h"
#include "report/commit.h"
#include "validation.h"
#include "../io/datadir.h"

/* The mean and largest |error| of a set of figures or changes, and how
 * many there are. */
struct vsum {
	double mean, max;
	int n;
};

static void sum_add(struct vsum *s, double err)
{
	s->mean += fabs(err);
	s->max = fmax(s->max, fabs(err));
	s->n++;
}

static struct vsum sum_done(struct vsum s)
{
	if (s.n)
		s.mean /= s.n;
	return s;
}

/* The changes of file f (every file's: f < 0), in points. */
static struct vsum effect_sum(const struct val_result *v, int f)
{
	struct vsum s = { 0 };

	for (int k = 0; k < v->nr_effects; k++)
		if (f < 0 || v->e[k].file == f)
			sum_add(&s, v->e[k].ppct - v->e[k].mpct);
	return sum_done(s);
}

/* The figures out of the fit among rows [first, first + nr), in %. */
static struct vsum figure_sum(const struct val_result *v, int first, int nr)
{
	struct vsum s = { 0 };

	for (int i = first; i < first + nr; i++)
		if (!v->fig[i].fit)
			sum_add(&s, v->fig[i].err);
	return sum_done(s);
}

/* A change's line: what changed, the measured and predicted change, the
 * error in points, and whether it is over or goes the other way. */
static void put_effect(FILE *out, const struct val_effect *x,
		       const struct rep_row *rows, int w)
{
	static const char *const word[] = { "down", "flat", "up" };
	char m[16], p[16], off[16];

	if (x->step)
		fprintf(out, "#   %-*s -> %-*s %-6s %s: ", w,
			rows[x->from].c->name, w, rows[x->to].c->name,
			rows[x->from].policy->name, x->keys);
	else
		fprintf(out, "#   %-*s %s -> %s: ", w, rows[x->to].c->name,
			rows[x->from].policy->name, rows[x->to].policy->name);
	rep_change_text(m, sizeof(m), x->mpct);
	rep_change_text(p, sizeof(p), x->ppct);
	if (isnan(x->ppct - x->mpct))
		snprintf(off, sizeof(off), "-");
	else
		snprintf(off, sizeof(off), "%+.1f", x->ppct - x->mpct);
	fprintf(out, "%s measured, %s predicted, %s points: ", m, p, off);
	if (isnan(x->ppct))	/* a predicted rate of 0: no direction */
		fprintf(out, "measured %s, predicted none (a rate of 0)  "
			"MISMATCH", word[x->msign + 1]);
	else if (x->msign == x->psign)
		fprintf(out, "both %s", word[x->msign + 1]);
	else
		fprintf(out, "measured %s, predicted %s  MISMATCH",
			word[x->msign + 1], word[x->psign + 1]);
	fprintf(out, "%s\n", x->over ? "  OVER" : "");
}

/* The lines of file f's changes of one kind (steps or before/after). */
static void put_effects(FILE *out, const struct val_result *v, int f,
			bool step, int w)
{
	int n = 0;

	for (int k = 0; k < v->nr_effects; k++) {
		if (v->e[k].file != f || v->e[k].step != step)
			continue;
		put_effect(out, &v->e[k], v->rows, w);
		n++;
	}
	if (!n)
		fprintf(out, "#   none: %s\n", step ? "no two cases with "
			"measured figures differ in one key or one coupled "
			"pair only" : "no case has measured figures under its "
			"baseline and another policy");
}

/* A summary line: "# WHAT, NAME: mean |error| ..., max |error| ... over
 * N NOUNs", the errors in unit; or none when there is nothing. */
static void put_sum(FILE *out, struct vsum s, const char *what,
		    const char *name, const char *unit, const char *noun,
		    const char *none)
{
	if (s.n)
		fprintf(out, "# %s, %s: mean |error| %.1f %s, max |error| "
			"%.1f %s over %d %s%s\n", what, name, s.mean, unit,
			s.max, unit, s.n, noun, s.n == 1 ? "" : "s");
	else
		fprintf(out, "# %s, %s: %s\n", what, name, none);
}

/* A file's or every file's (f < 0) changes' mean and largest error. */
static void put_effect_sum(FILE *out, const struct val_result *v, int f,
			   const char *name)
{
	put_sum(out, effect_sum(v, f), "changes", name, "points", "change",
		"none with measured figures at both ends");
}

/* The out-of-fit errors of rows [first, first + nr). */
static void put_errors(FILE *out, const struct val_result *v,
		       const char *name, int first, int nr)
{
	put_sum(out, figure_sum(v, first, nr), "out of the fit", name, "%",
		"figure", "no figure (every measured figure is in the fit)");
}

/* A figure fitted on with no [fitted] record, or a stale one: its line. */
static void put_fitted_one(FILE *out, const struct rep_row *r,
			   const struct val_figure *fig, int w)
{
	if (isnan(fig->fitted))
		fprintf(out, "#   %-*s %-6s no [fitted] record of it: not "
			"checked (%s)\n", w, r->c->name, r->policy->name,
			fig->keyable ? "ppsim calibrate writes one" :
			"its name cannot be a key");
	else
		fprintf(out, "#   %-*s %-6s %.2f %s now, %.2f when fitted "
			"(%s:%d): %+.1f %%  STALE\n", w, r->c->name,
			r->policy->name, fig->pred.mean, r->unit, fig->fitted,
			fig->rec->file, fig->rec->line,
			(fig->pred.mean - fig->fitted) / fig->fitted * 100);
}

/* A file's figures fitted on, against what the fit predicted: the stale
 * ones and those with no record each a line, the others counted with the
 * files that recorded them. */
static void put_fitted(FILE *out, const struct val_result *v,
		       const struct val_file *vf, int w)
{
	const char *files[SCN_MAX_CASES];
	int fine = 0, nr_fit = 0, nr_files = 0;

	fprintf(out, "# %s\n", vf->path);
	for (int i = vf->first; i < vf->first + vf->nr; i++) {
		const struct val_figure *fig = &v->fig[i];
		int k = 0;

		if (!fig->fit)
			continue;
		nr_fit++;
		if (vf->unchecked)
			continue;
		if (isnan(fig->fitted) || fig->stale) {
			put_fitted_one(out, &v->rows[i], fig, w);
			continue;
		}
		fine++;
		while (k < nr_files && files[k] != fig->rec->file)
			k++;
		if (k == nr_files && nr_files < SCN_MAX_CASES)
			files[nr_files++] = fig->rec->file;
	}
	if (!nr_fit) {
		fprintf(out, "#   none: no figure of the fit among those "
			"run\n");
	} else if (vf->unchecked) {
		fprintf(out, "#   not checked: %s\n", vf->unchecked);
	} else if (fine) {
		fprintf(out, "#   %d figure%s within %g %% of what the fit "
			"predicted (", fine, fine == 1 ? "" : "s",
			VAL_STALE_PCT);
		for (int k = 0; k < nr_files; k++)
			fprintf(out, "%s%s", k ? ", " : "", files[k]);
		fprintf(out, ")\n");
	}
}

/* What a file's figures rest on, as a run's provenance says it. */
static struct rep_prov file_prov(const struct val_file *vf)
{
	return (struct rep_prov){ .nr_guesses = vf->nr_guesses,
				  .uncalibrated = vf->uncalibrated,
				  .borrowed = vf->borrowed[0] ? vf->borrowed
							      : NULL };
}

/* The table proper: a line a figure, under its file's heading. */
static void put_figures(FILE *out, const struct val_result *v, int w)
{
	int reps = v->prov->rc->reps;

	rep_files_head(out, v->prov, v->nr_files, v->rows, v->nr_rows);
	fprintf(out, "%-*s %-6s %8s %9s %-4s %6s %7s %-3s %s\n", w, "case",
		"policy", "measured", "predicted", "unit", "ci95", "err%",
		"fit", "limit");
	for (int f = 0; f < v->nr_files; f++) {
		const struct val_file *vf = &v->files[f];
		struct rep_prov prov = file_prov(vf);

		fprintf(out, "# ");
		datadir_put_line_text(out, vf->path);
		fprintf(out, "  tolerance %g %%\n", vf->tolerance);
		rep_title_line(out, "# ", &v->rows[vf->first], vf->nr);
		rep_borrowed_line(out, &prov, false);
		for (int i = vf->first; i < vf->first + vf->nr; i++) {
			const struct rep_row *r = &v->rows[i];
			const struct val_figure *fig = &v->fig[i];
			const char *limit = rep_saturated(r, reps);

			fprintf(out, "%-*s %-6s %8.2f %9.2f %-4s ", w,
				r->c->name, r->policy->name, r->measured,
				fig->pred.mean, r->unit);
			rep_put_ci95(out, fig->pred.ci95);
			fprintf(out, " %+7.1f %-3s %s", fig->err,
				fig->fit ? "in" : "out", limit);
			if (fig->over)	/* under the last heading */
				fprintf(out, "%*sOVER",
					10 - (int)strlen(limit), "");
			fputc('\n', out);
		}
	}
}

void val_write_table(FILE *out, const struct val_result *v)
{
	int w = rep_name_width(v->rows, v->nr_rows);

	put_figures(out, v, w);
	fprintf(out, "#\n");
	for (int f = 0; f < v->nr_files; f++)
		put_errors(out, v, v->files[f].path, v->files[f].first,
			   v->files[f].nr);
	put_errors(out, v, "overall", 0, v->nr_rows);
	fprintf(out, "#\n# before/after, each case's baseline (its baseline "
		"key, else its first policy) against the\n# others, measured "
		"and predicted change and the error in points (a change "
		"within %g %%\n# is flat; OVER: beyond the file's "
		"effect_tolerance):\n", VAL_FLAT_PCT);
	for (int f = 0; f < v->nr_files; f++) {
		fprintf(out, "# %s  effect_tolerance %g points\n",
			v->files[f].path, v->files[f].effect_tolerance);
		put_effects(out, v, f, false, w);
	}
	fprintf(out, "#\n# trend steps, one policy between cases that differ "
		"in one key only (along a number,\n# between consecutive "
		"measured values) or in one coupled pair (rx and tx ring, "
		"workload\n# and touch, the migration's time and CPU, queues "
		"and their CPUs):\n");
	for (int f = 0; f < v->nr_files; f++) {
		fprintf(out, "# %s\n", v->files[f].path);
		put_effects(out, v, f, true, w);
	}
	fprintf(out, "#\n");
	for (int f = 0; f < v->nr_files; f++)
		put_effect_sum(out, v, f, v->files[f].path);
	put_effect_sum(out, v, -1, "overall");
	fprintf(out, "#\n# the calibration: each figure fitted on, predicted "
		"now against what the fit predicted ([fitted]; %g %% apart "
		"or more: stale):\n", VAL_STALE_PCT);
	for (int f = 0; f < v->nr_files; f++)
		put_fitted(out, v, &v->files[f], w);
	fprintf(out, "#\n# %d of %d figures over the tolerance, %d of %d "
		"changes over the effect tolerance, %d direction mismatches "
		"(%d before/after, %d trends), %d stale fitted\n", v->over,
		v->nr_rows, v->off, v->nr_effects, v->bad_ba + v->bad_tr,
		v->bad_ba, v->bad_tr, v->stale);
}

/* A change's column "Off" of the commit table: the error in points, the
 * column's width kept, the sign too. */
/* ",v", or "," for NAN (a change that could not be computed). */
static void csv_or_empty(FILE *out, double v)
{
	if (isnan(v))
		fputc(',', out);
	else
		fprintf(out, ",%.6g", v);
}

static void off_text(char *buf, size_t len, double off)
{
	if (isnan(off))
		snprintf(buf, len, "-");
	else if (fabs(off) < 999.95)
		snprintf(buf, len, "%+.1f", off);
	else
		snprintf(buf, len, "%c999", off < 0 ? '<' : '>');
}

/* The commit table's line of a before/after change. */
static void put_commit_line(FILE *out, const struct val_effect *x,
			    const struct rep_row *rows)
{
	char pols[64], name[32], m[16], p[16], o6[16];

	snprintf(pols, sizeof(pols), "%s -> %s", rows[x->from].policy->name,
		 rows[x->to].policy->name);
	/* a name cut shows its cut */
	snprintf(name, sizeof(name), "%.20s", rows[x->to].c->name);
	if (strlen(rows[x->to].c->name) > 20)
		snprintf(name + 19, sizeof(name) - 19, "~");
	rep_change_text(m, sizeof(m), x->mpct);
	rep_change_text(p, sizeof(p), x->ppct);
	off_text(o6, sizeof(o6), x->ppct - x->mpct);
	fprintf(out, "%-20s | %-13.13s | %8s | %9s | %6s%s\n", name, pols, m,
		p, o6, x->mismatch ? " !" : x->over ? " *" : "");
}

/* A file's lines under the commit table, as run's commit table has them
 * under its own: what its figures rest on, whose costs they borrow. */
static void commit_file_notes(FILE *out, const struct val_file *vf)
{
	struct rep_prov p = file_prov(vf);

	rep_guesses_line(out, &p, true);
	rep_borrowed_line(out, &p, true);
}

void val_write_commit(FILE *out, const struct val_result *v)
{
	int reps = v->prov->rc->reps;
	const char *m0 = v->nr_files ? rep_machine_name(&v->rows[
		v->files[0].first], v->files[0].nr) : NULL;

	/* run's "Machine:" line above the table, when one file (or
	 * files all of one machine) is in it; each file's own under its
	 * name otherwise */
	bool one = true;

	for (int f = 1; f < v->nr_files; f++) {
		const char *m = rep_machine_name(&v->rows[v->files[f].first],
						 v->files[f].nr);

		if (!m != !m0 || (m && strcmp(m, m0)))
			one = false;
	}
	if (one && m0)
		fprintf(out, "Machine: %s\n", m0);
	fprintf(out, "ppsim %s validate, %d rep%s: before -> after, measured "
		"and predicted\n", PACKAGE_VERSION, reps,
		reps == 1 ? "" : "s");
	fprintf(out, "%-20s | %-13s | %8s | %9s | %6s\n", "Case", "Policies",
		"Measured", "Predicted", "Off");
	fprintf(out, "----------------------------------------------------"
		"-------------------\n");
	for (int f = 0; f < v->nr_files; f++) {
		const char *path = v->files[f].path;
		const char *base = strrchr(path, '/');

		if (v->nr_files > 1) {
			const char *m = rep_machine_name(
				&v->rows[v->files[f].first], v->files[f].nr);

			fprintf(out, "%s:\n", base ? base + 1 : path);
			if (!one && m)
				fprintf(out, "Machine: %s\n", m);
		}
		for (int k = 0; k < v->nr_effects; k++)
			if (!v->e[k].step && v->e[k].file == f)
				put_commit_line(out, &v->e[k], v->rows);
		if (v->nr_files > 1)
			commit_file_notes(out, &v->files[f]);
	}
	fprintf(out, "Off: predicted change less measured change, in points; "
		"*\nbeyond the effect tolerance, ! the other way.\n");
	if (v->nr_files == 1)
		commit_file_notes(out, &v->files[0]);
}

/* A figure's CSV line. */
static void csv_figure(FILE *out, const struct val_result *v,
		       const struct val_file *vf, int i)
{
	const struct rep_row *r = &v->rows[i];
	const struct val_figure *fig = &v->fig[i];

	rep_csv_text(out, vf->path);
	fputc(',', out);
	rep_csv_text(out, r->c->name);
	fprintf(out, ",%s,%.6g,%.6g,%s,", r->policy->name, r->measured,
		fig->pred.mean, r->unit);
	if (!isnan(fig->pred.ci95))
		fprintf(out, "%.6g", fig->pred.ci95);
	fprintf(out, ",%.6g,%s,%g,%d,%s,", fig->err, fig->fit ? "in" : "out",
		vf->tolerance, fig->over, rep_saturated(r, v->prov->rc->reps));
	/* empty: out of the fit, no record, or not checked */
	if (!isnan(fig->fitted))
		fprintf(out, "%.10g,%d", fig->fitted, fig->stale);
	else
		fputc(',', out);
	fprintf(out, ",figure,,,,,,,,\n");
}

/* A change's CSV line. */
static void csv_effect(FILE *out, const struct val_result *v,
		       const struct val_effect *x)
{
	const struct rep_row *from = &v->rows[x->from], *to = &v->rows[x->to];

	rep_csv_text(out, v->files[x->file].path);
	fputc(',', out);
	rep_csv_text(out, to->c->name);
	fprintf(out, ",%s,,,%s,,,,,%d,,,,%s,", to->policy->name, to->unit,
		x->over, x->step ? "step" : "before_after");
	rep_csv_text(out, from->c->name);
	fprintf(out, ",%s,", from->policy->name);
	rep_csv_text(out, x->keys);
	csv_or_empty(out, x->mpct);
	csv_or_empty(out, x->ppct);
	csv_or_empty(out, x->ppct - x->mpct);
	fprintf(out, ",%g,%d\n", v->files[x->file].effect_tolerance,
		x->mismatch);
}

void val_write_csv(FILE *out, const struct val_result *v)
{
	rep_files_head(out, v->prov, v->nr_files, v->rows, v->nr_rows);
	/* each file's machine, a comment as the provenance is */
	for (int f = 0; f < v->nr_files; f++) {
		const struct val_file *vf = &v->files[f];

		if (!rep_machine_name(&v->rows[vf->first], vf->nr))
			continue;
		fprintf(out, "# ");
		datadir_put_line_text(out, vf->path);
		rep_title_line(out, "  ", &v->rows[vf->first], vf->nr);
	}
	for (int f = 0; f < v->nr_files; f++)
		if (v->files[f].borrowed[0]) {
			fprintf(out, "# ");
			datadir_put_line_text(out, v->files[f].path);
			fprintf(out, ": costs borrowed for %s\n",
				v->files[f].borrowed);
		}
	fprintf(out, "file,case,policy,measured,predicted,unit,ci95,"
		"error_pct,fit,tolerance,over,saturated,fitted,stale,kind,"
		"from_case,from_policy,keys,measured_change_pct,"
		"predicted_change_pct,change_error_pts,effect_tolerance,"
		"mismatch\n");
	for (int f = 0; f < v->nr_files; f++)
		for (int i = v->files[f].first;
		     i < v->files[f].first + v->files[f].nr; i++)
			csv_figure(out, v, &v->files[f], i);
	for (int k = 0; k < v->nr_effects; k++)
		csv_effect(out, v, &v->e[k]);
}

/* The summary lines as JSON members: out of the fit (%), changes
 * (points). */
static void json_sums(FILE *out, struct vsum fig, struct vsum chg)
{
	fprintf(out, "\"out_of_fit\": {\"figures\": %d, ", fig.n);
	rep_json_num(out, "mean_error_pct", fig.n ? fig.mean : NAN, false);
	rep_json_num(out, "max_error_pct", fig.n ? fig.max : NAN, true);
	fprintf(out, "}, \"changes_error\": {\"changes\": %d, ", chg.n);
	rep_json_num(out, "mean_error_pts", chg.n ? chg.mean : NAN, false);
	rep_json_num(out, "max_error_pts", chg.n ? chg.max : NAN, true);
	fprintf(out, "}");
}

/* A figure as a JSON object, followed by sep. */
static void json_figure(FILE *out, const struct val_result *v, int i,
			const char *sep)
{
	const struct rep_row *r = &v->rows[i];
	const struct val_figure *fig = &v->fig[i];

	fprintf(out, "    {\"case\": ");
	rep_json_text(out, r->c->name);
	fprintf(out, ", \"policy\": \"%s\", \"unit\": \"%s\", ",
		r->policy->name, r->unit);
	rep_json_num(out, "measured", r->measured, false);
	rep_json_num(out, "predicted", fig->pred.mean, false);
	rep_json_num(out, "ci95", fig->pred.ci95, false);
	rep_json_num(out, "error_pct", fig->err, false);
	rep_json_num(out, "fitted", fig->fitted, false);
	fprintf(out, "\"fit\": %s, \"over\": %s, \"stale\": %s, "
		"\"limit\": \"%s\"}%s\n", fig->fit ? "true" : "false",
		fig->over ? "true" : "false", fig->stale ? "true" : "false",
		rep_saturated(r, v->prov->rc->reps), sep);
}

/* A change as a JSON object, after sep. */
static void json_effect(FILE *out, const struct val_result *v,
			const struct val_effect *x, const char *sep)
{
	const struct rep_row *from = &v->rows[x->from], *to = &v->rows[x->to];

	fprintf(out, "%s\n    {\"kind\": \"%s\", \"from_case\": ", sep,
		x->step ? "step" : "before_after");
	rep_json_text(out, from->c->name);
	fprintf(out, ", \"from_policy\": \"%s\", \"case\": ",
		from->policy->name);
	rep_json_text(out, to->c->name);
	fprintf(out, ", \"policy\": \"%s\", \"keys\": ", to->policy->name);
	rep_json_text(out, x->keys);
	fprintf(out, ", ");
	rep_json_num(out, "measured_change_pct", x->mpct, false);
	rep_json_num(out, "predicted_change_pct", x->ppct, false);
	rep_json_num(out, "change_error_pts", x->ppct - x->mpct, false);
	fprintf(out, "\"over\": %s, \"mismatch\": %s}",
		x->over ? "true" : "false", x->mismatch ? "true" : "false");
}

/* A file as a JSON object: its figures and its changes. */
static void json_file(FILE *out, const struct val_result *v, int f)
{
	const struct val_file *vf = &v->files[f];
	const char *sep = "";

	fprintf(out, "  {\"file\": ");
	rep_json_text(out, vf->path);
	fprintf(out, ", ");
	if (rep_machine_name(&v->rows[vf->first], vf->nr)) {
		fprintf(out, "\"machine\": ");
		rep_json_text(out, rep_machine_name(&v->rows[vf->first],
						    vf->nr));
		fprintf(out, ", ");
	}
	rep_json_num(out, "tolerance", vf->tolerance, false);
	rep_json_num(out, "effect_tolerance", vf->effect_tolerance, false);
	if (vf->borrowed[0]) {
		fprintf(out, "\"costs_borrowed\": ");
		rep_json_text(out, vf->borrowed);
		fprintf(out, ", ");
	}
	fprintf(out, "\"figures\": [\n");
	for (int i = vf->first; i < vf->first + vf->nr; i++)
		json_figure(out, v, i, i + 1 < vf->first + vf->nr ? "," : "");
	fprintf(out, "  ], \"changes\": [");
	for (int k = 0; k < v->nr_effects; k++) {
		if (v->e[k].file != f)
			continue;
		json_effect(out, v, &v->e[k], sep);
		sep = ",";
	}
	fprintf(out, "\n  ], ");
	json_sums(out, figure_sum(v, vf->first, vf->nr), effect_sum(v, f));
	fprintf(out, "}%s\n", f + 1 < v->nr_files ? "," : "");
}

void val_write_json(FILE *out, const struct val_result *v)
{
	const struct rep_prov *p = v->prov;
	char dur[32];

	rep_duration_text(v->rows, v->nr_rows, dur, sizeof(dur));
	fprintf(out, "{\"ppsim\": \"%s\", \"commit\": \"%s\", \"command\": "
		"\"validate\", \"seed\": %lu, \"reps\": %d, \"duration\": "
		"\"%s\", ", PACKAGE_VERSION, PPSIM_COMMIT, p->rc->seed,
		p->rc->reps, dur);
	rep_json_set(out, p->set, p->nr_set);
	fprintf(out, ", \"files\": [\n");
	for (int f = 0; f < v->nr_files; f++)
		json_file(out, v, f);
	fprintf(out, "], ");
	json_sums(out, figure_sum(v, 0, v->nr_rows), effect_sum(v, -1));
	fprintf(out, "}\n");
}
