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
#include "io/datadir.h"
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

/*
 * A change with measured figures at both ends: a case's baseline policy
 * against another (a before/after), or one policy from a case to another
 * that differs from it in one or two keys only (a trend step: queues, a
 * ring's size, what the program touches).  Its error is in points: the
 * predicted change in % less the measured one.
 */
struct veffect {
	int file;
	int from, to;		/* rows */
	bool step;		/* a trend step, else a before/after */
	char keys[2 * SCN_KEY_MAX];	/* a step's keys and values */
	double mpct, ppct;	/* measured and predicted change, % */
	bool over;		/* |ppct - mpct| over effect_tolerance */
	bool mismatch;		/* their directions differ */
};

#define MAX_EFFECTS	(4 * FIT_MAX_ROWS)

static void add_effect(struct veffect *e, int *nr, int file, int from,
		       int to, const struct rep_row *rows,
		       const struct vfigure *fig, double tolerance)
{
	struct veffect *x;

	if (*nr == MAX_EFFECTS)
		return;
	x = &e[(*nr)++];
	*x = (struct veffect){ .file = file, .from = from, .to = to };
	x->mpct = change_pct(rows[from].measured, rows[to].measured);
	x->ppct = change_pct(fig[from].pred.mean, fig[to].pred.mean);
	x->over = fabs(x->ppct - x->mpct) > tolerance;
	x->mismatch = sign_of(x->mpct) != sign_of(x->ppct);
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
	char k[2 * SCN_KEY_MAX];

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
static void before_after(const struct vfile *vf, int file,
			 const struct rep_row *rows, const struct vfigure *fig,
			 struct veffect *e, int *nr)
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
static void steps(const struct vfile *vf, int file,
		  const struct rep_row *rows, const struct vfigure *fig,
		  struct veffect *e, int *nr)
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

/* A change's line: what changed, the measured and predicted change, the
 * error in points, and whether it is over or goes the other way. */
static void print_effect(const struct veffect *x, const struct rep_row *rows,
			 int w)
{
	static const char *const word[] = { "down", "flat", "up" };
	int ms = sign_of(x->mpct), ps = sign_of(x->ppct);

	if (x->step)
		printf("#   %-*s -> %-*s %-6s %s: ", w, rows[x->from].c->name,
		       w, rows[x->to].c->name, rows[x->from].policy->name,
		       x->keys);
	else
		printf("#   %-*s %s -> %s: ", w, rows[x->to].c->name,
		       rows[x->from].policy->name, rows[x->to].policy->name);
	printf("%+.1f %% measured, %+.1f %% predicted, %+.1f points: ",
	       x->mpct, x->ppct, x->ppct - x->mpct);
	if (ms == ps)
		printf("both %s", word[ms + 1]);
	else
		printf("measured %s, predicted %s  MISMATCH", word[ms + 1],
		       word[ps + 1]);
	printf("%s\n", x->over ? "  OVER" : "");
}

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
static struct vsum effect_sum(const struct veffect *e, int nr, int f)
{
	struct vsum s = { 0 };

	for (int k = 0; k < nr; k++)
		if (f < 0 || e[k].file == f)
			sum_add(&s, e[k].ppct - e[k].mpct);
	return sum_done(s);
}

/* The figures out of the fit among rows [first, first + nr), in %. */
static struct vsum figure_sum(const struct vfigure *fig, int first, int nr)
{
	struct vsum s = { 0 };

	for (int i = first; i < first + nr; i++)
		if (!fig[i].fit)
			sum_add(&s, fig[i].err);
	return sum_done(s);
}

/* The lines of file f's changes of one kind (steps or before/after). */
static void print_effects(const struct veffect *e, int nr, int f, bool step,
			  const struct rep_row *rows, int w)
{
	int n = 0;

	for (int k = 0; k < nr; k++) {
		if (e[k].file != f || e[k].step != step)
			continue;
		print_effect(&e[k], rows, w);
		n++;
	}
	if (!n)
		printf("#   none: %s\n", step ? "no two cases with measured "
		       "figures differ in one key or one coupled pair only" :
		       "no case has two measured policies");
}

/* A file's or every file's (f < 0) changes' mean and largest error. */
static void print_effect_sum(const struct veffect *e, int nr, int f,
			     const char *name)
{
	struct vsum s = effect_sum(e, nr, f);

	if (s.n)
		printf("# changes, %s: mean |error| %.1f points, max |error| "
		       "%.1f points over %d change%s\n", name, s.mean, s.max,
		       s.n, s.n == 1 ? "" : "s");
	else
		printf("# changes, %s: none with measured figures at both "
		       "ends\n", name);
}

/* --format commit: each before/after change, measured and predicted,
 * its error in points and whether it is over (*) or goes the other way (!),
 * within the 72 columns of a commit message; a file's name over its
 * changes when there are several. */
static void print_commit(const struct cmd_opts *o, const struct vfile *vf,
			 int nr_files, const struct veffect *e, int nr,
			 const struct rep_row *rows)
{
	printf("ppsim %s validate, %d rep%s: before -> after, measured and "
	       "predicted\n", PACKAGE_VERSION, o->rc.reps,
	       o->rc.reps == 1 ? "" : "s");
	printf("%-20s | %-13s | %8s | %9s | %6s\n", "Case", "Policies",
	       "Measured", "Predicted", "Off");
	printf("------------------------------------------------------------"
	       "-----------\n");
	for (int f = 0; f < nr_files; f++) {
		const char *base = strrchr(vf[f].path, '/');

		if (nr_files > 1)
			printf("%s:\n", base ? base + 1 : vf[f].path);
		for (int k = 0; k < nr; k++) {
			char pols[64], name[32], m[16], p[16], o6[16];
			double off;

			if (e[k].step || e[k].file != f)
				continue;
			snprintf(pols, sizeof(pols), "%s -> %s",
				 rows[e[k].from].policy->name,
				 rows[e[k].to].policy->name);
			/* a name cut shows its cut */
			snprintf(name, sizeof(name), "%.20s",
				 rows[e[k].to].c->name);
			if (strlen(rows[e[k].to].c->name) > 20)
				snprintf(name + 19, sizeof(name) - 19, "~");
			rep_change_text(m, sizeof(m), e[k].mpct);
			rep_change_text(p, sizeof(p), e[k].ppct);
			off = e[k].ppct - e[k].mpct;
			if (fabs(off) < 999.95)
				snprintf(o6, sizeof(o6), "%+.1f", off);
			else	/* the column's width, the sign kept */
				snprintf(o6, sizeof(o6), "%c999", off < 0 ?
					 '<' : '>');
			printf("%-20s | %-13.13s | %8s | %9s | %6s%s\n", name,
			       pols, m, p, o6,
			       e[k].mismatch ? " !" : e[k].over ? " *" : "");
		}
	}
	printf("Off: predicted change less measured change, in points; *\n"
	       "beyond the effect tolerance, ! the other way.\n");
}

/* The out-of-fit errors of rows [first, first + nr). */
static void print_errors(const char *name, const struct vfigure *fig,
			 int first, int nr)
{
	struct vsum s = figure_sum(fig, first, nr);

	if (s.n)
		printf("# out of the fit, %s: mean |error| %.1f %%, max "
		       "|error| %.1f %% over %d figure%s\n", name, s.mean,
		       s.max, s.n, s.n == 1 ? "" : "s");
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
		      const struct vfigure *fig, int nr_rows,
		      const struct veffect *e, int nr_effects)
{
	cmd_print_head(o, "validate", nr_files, rows, nr_rows);
	printf("file,case,policy,measured,predicted,unit,ci95,error_pct,fit,"
	       "tolerance,over,saturated,fitted,stale,kind,from_case,"
	       "from_policy,keys,measured_change_pct,predicted_change_pct,"
	       "change_error_pts,effect_tolerance,mismatch\n");
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
			printf(",figure,,,,,,,,\n");
		}
	}
	for (int k = 0; k < nr_effects; k++) {
		const struct veffect *x = &e[k];

		rep_csv_text(stdout, vf[x->file].path);
		putchar(',');
		rep_csv_text(stdout, rows[x->to].c->name);
		printf(",%s,,,%s,,,,,%d,,,,%s,", rows[x->to].policy->name,
		       sim_rate_unit(&rows[x->to].c->sim), x->over,
		       x->step ? "step" : "before_after");
		rep_csv_text(stdout, rows[x->from].c->name);
		printf(",%s,", rows[x->from].policy->name);
		rep_csv_text(stdout, x->keys);
		printf(",%.6g,%.6g,%.6g,%g,%d\n", x->mpct, x->ppct,
		       x->ppct - x->mpct,
		       vf[x->file].scn->calibrate.effect_tolerance,
		       x->mismatch);
	}
}

/* The summary lines as JSON members: out of the fit (%), changes
 * (points). */
static void json_sums(struct vsum fig, struct vsum chg)
{
	printf("\"out_of_fit\": {\"figures\": %d, ", fig.n);
	rep_json_num(stdout, "mean_error_pct", fig.n ? fig.mean : NAN, false);
	rep_json_num(stdout, "max_error_pct", fig.n ? fig.max : NAN, true);
	printf("}, \"changes_error\": {\"changes\": %d, ", chg.n);
	rep_json_num(stdout, "mean_error_pts", chg.n ? chg.mean : NAN, false);
	rep_json_num(stdout, "max_error_pts", chg.n ? chg.max : NAN, true);
	printf("}");
}

/* --format json: the provenance, then per file its figures and its
 * changes, each as the table says them. */
static void print_json(const struct cmd_opts *o, const struct vfile *vf,
		       int nr_files, const struct rep_row *rows,
		       const struct vfigure *fig, const struct veffect *e,
		       int nr_effects)
{
	char dur[32];

	rep_duration_text(rows, vf[nr_files - 1].first + vf[nr_files - 1].nr,
			  dur, sizeof(dur));
	printf("{\"ppsim\": \"%s\", \"commit\": \"%s\", \"command\": "
	       "\"validate\", \"seed\": %lu, \"reps\": %d, \"duration\": "
	       "\"%s\", ", PACKAGE_VERSION, PPSIM_COMMIT, o->rc.seed,
	       o->rc.reps, dur);
	rep_json_set(stdout, o->set, o->nr_set);
	printf(", \"files\": [\n");
	for (int f = 0; f < nr_files; f++) {
		const struct scn_calibrate *cal = &vf[f].scn->calibrate;
		const char *sep = "";

		printf("  {\"file\": ");
		rep_json_text(stdout, vf[f].path);
		printf(", ");
		rep_json_num(stdout, "tolerance", cal->tolerance, false);
		rep_json_num(stdout, "effect_tolerance", cal->effect_tolerance,
			     false);
		printf("\"figures\": [\n");
		for (int i = vf[f].first; i < vf[f].first + vf[f].nr; i++) {
			printf("    {\"case\": ");
			rep_json_text(stdout, rows[i].c->name);
			printf(", \"policy\": \"%s\", \"unit\": \"%s\", ",
			       rows[i].policy->name,
			       sim_rate_unit(&rows[i].c->sim));
			rep_json_num(stdout, "measured", rows[i].measured,
				     false);
			rep_json_num(stdout, "predicted", fig[i].pred.mean,
				     false);
			rep_json_num(stdout, "ci95", fig[i].pred.ci95, false);
			rep_json_num(stdout, "error_pct", fig[i].err, false);
			rep_json_num(stdout, "fitted", fig[i].fitted, false);
			printf("\"fit\": %s, \"over\": %s, \"stale\": %s, "
			       "\"limit\": \"%s\"}%s\n",
			       fig[i].fit ? "true" : "false",
			       fig[i].over ? "true" : "false",
			       fig[i].stale ? "true" : "false",
			       rep_saturated(&rows[i], o->rc.reps),
			       i + 1 < vf[f].first + vf[f].nr ? "," : "");
		}
		printf("  ], \"changes\": [");
		for (int k = 0; k < nr_effects; k++) {
			const struct veffect *x = &e[k];

			if (x->file != f)
				continue;
			printf("%s\n    {\"kind\": \"%s\", \"from_case\": ", sep,
			       x->step ? "step" : "before_after");
			rep_json_text(stdout, rows[x->from].c->name);
			printf(", \"from_policy\": \"%s\", \"case\": ",
			       rows[x->from].policy->name);
			rep_json_text(stdout, rows[x->to].c->name);
			printf(", \"policy\": \"%s\", \"keys\": ",
			       rows[x->to].policy->name);
			rep_json_text(stdout, x->keys);
			printf(", ");
			rep_json_num(stdout, "measured_change_pct", x->mpct,
				     false);
			rep_json_num(stdout, "predicted_change_pct", x->ppct,
				     false);
			rep_json_num(stdout, "change_error_pts",
				     x->ppct - x->mpct, false);
			printf("\"over\": %s, \"mismatch\": %s}",
			       x->over ? "true" : "false",
			       x->mismatch ? "true" : "false");
			sep = ",";
		}
		printf("\n  ], ");
		json_sums(figure_sum(fig, vf[f].first, vf[f].nr),
			  effect_sum(e, nr_effects, f));
		printf("}%s\n", f + 1 < nr_files ? "," : "");
	}
	printf("], ");
	json_sums(figure_sum(fig, 0, vf[nr_files - 1].first +
				     vf[nr_files - 1].nr),
		  effect_sum(e, nr_effects, -1));
	printf("}\n");
}

/* Why a scenario's figures fitted on are not checked against its
 * [fitted] records, or NULL: a record is of a fit of this scenario as its
 * files are, which a scenario that fits nothing did not make, and which
 * the command line's overrides do not run. */
static const char *unchecked(const struct cmd_opts *o,
			     const struct scenario *scn)
{
	for (int i = 0; i < o->nr_set; i++)	/* validate's own keys aside */
		if (strncmp(o->set[i].key, "calibrate.", 10))
			return "the command line's overrides (--set, "
			       "--duration) change what the fit ran";
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
	struct veffect *e = calloc(MAX_EFFECTS, sizeof(*e));
	int over = 0, off = 0, bad_ba = 0, bad_tr = 0, stale = 0, w;
	int nr_effects = 0;

	if (!fig || !e) {
		free(fig);
		free(e);
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
	for (int f = 0; f < nr_files; f++) {
		before_after(&vf[f], f, rows, fig, e, &nr_effects);
		steps(&vf[f], f, rows, fig, e, &nr_effects);
	}
	for (int k = 0; k < nr_effects; k++) {
		off += e[k].over;
		bad_ba += e[k].mismatch && !e[k].step;
		bad_tr += e[k].mismatch && e[k].step;
	}
	if (o->format == CMD_COMMIT)
		print_commit(o, vf, nr_files, e, nr_effects, rows);
	else if (o->format == CMD_CSV)
		print_csv(o, vf, nr_files, rows, fig, nr_rows, e, nr_effects);
	else if (o->format == CMD_JSON)
		print_json(o, vf, nr_files, rows, fig, e, nr_effects);
	if (o->format != CMD_TABLE)
		goto done;
	w = rep_name_width(rows, nr_rows);
	print_table(o, vf, nr_files, rows, fig, nr_rows);
	printf("#\n");
	for (int f = 0; f < nr_files; f++)
		print_errors(vf[f].path, fig, vf[f].first, vf[f].nr);
	print_errors("overall", fig, 0, nr_rows);
	printf("#\n# before/after, each case's baseline (its baseline key, "
	       "else its first policy) against the\n# others, measured and "
	       "predicted change and the error in points (a change within "
	       "%g %%\n# is flat; OVER: beyond the file's effect_tolerance):\n",
	       FLAT_PCT);
	for (int f = 0; f < nr_files; f++) {
		printf("# %s  effect_tolerance %g points\n", vf[f].path,
		       vf[f].scn->calibrate.effect_tolerance);
		print_effects(e, nr_effects, f, false, rows, w);
	}
	printf("#\n# trend steps, one policy between cases that differ in one "
	       "key only (along a number,\n# between consecutive measured "
	       "values) or in one coupled pair (rx and tx ring, workload\n# "
	       "and touch, the migration's time and CPU, queues and their "
	       "CPUs):\n");
	for (int f = 0; f < nr_files; f++) {
		printf("# %s\n", vf[f].path);
		print_effects(e, nr_effects, f, true, rows, w);
	}
	printf("#\n");
	for (int f = 0; f < nr_files; f++)
		print_effect_sum(e, nr_effects, f, vf[f].path);
	print_effect_sum(e, nr_effects, -1, "overall");
	printf("#\n# the calibration: each figure fitted on, predicted now "
	       "against what the fit predicted ([fitted]; %g %% apart or "
	       "more: stale):\n", STALE_PCT);
	for (int f = 0; f < nr_files; f++)
		print_fitted(o, &vf[f], rows, fig, w);
	printf("#\n# %d of %d figures over the tolerance, %d of %d changes "
	       "over the effect tolerance, %d direction mismatches (%d "
	       "before/after, %d trends), %d stale fitted\n", over, nr_rows,
	       off, nr_effects, bad_ba + bad_tr, bad_ba, bad_tr, stale);
done:
	free(fig);
	free(e);
	return over || off || bad_ba || bad_tr || stale ? 1 : 0;
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
	if (o.sensitivity && o.format == CMD_JSON) {
		fprintf(stderr, "ppsim validate: --sensitivity prints a table "
			"or CSV, not JSON\n");
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
	if (!cmd_run_rows(rows, nr_rows, &o.rc, o.nr_args > 1 ? NULL : o.file))
		status = report(&o, vf, o.nr_args, rows, nr_rows);
	cmd_free_results(rows, nr_rows);
done:
	for (int f = 0; scn && f < o.nr_args; f++)
		scn_free(scn[f]);
	free(scn);
	free(vf);
	free(rows);
	return status;
}
