/*
 * ppsim calibrate: fits the scenario's free parameters ([calibrate] free)
 * on its calibration cases ([calibrate] cases) only, with GSL's nonlinear
 * least squares, and writes them to a calibration file the scenario
 * includes.
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include "config.h"
#include "cmd.h"

#define FIT_MAX_PARAMS	8
#define FIT_MAX_ROWS	(SCN_MAX_CASES * SCN_MAX_POLICIES)
#define FIT_STEP	0.05	/* finite-difference step, in logit units */

struct fit_param {
	char key[64];		/* "cost.rx_pkt" */
	double lo, hi;
	double start;
};

/* What one evaluation of the residuals needs. */
struct fit_work {
	struct scenario *scn;
	struct fit_param p[FIT_MAX_PARAMS];
	int nr_params;
	struct rep_row rows[FIT_MAX_ROWS];
	int nr_rows;
	const struct cmd_opts *o;
	int evaluations;
	int failed;
};

static int parse_free(struct fit_work *w)
{
	const struct scn_case *c = &w->scn->cases[0];
	char buf[SCN_TEXT_MAX], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", w->scn->calibrate.free);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save)) {
		struct fit_param *p = &w->p[w->nr_params];
		char why[160], *end;
		struct scn_case probe = *c;
		double v;
		char *c1 = strchr(t, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (w->nr_params == FIT_MAX_PARAMS || !c2) {
			fprintf(stderr, "%s: calibrate.free: '%s': expected "
				"KEY:MIN:MAX (at most %d)\n", w->o->file, t,
				FIT_MAX_PARAMS);
			return -1;
		}
		snprintf(p->key, sizeof(p->key), "%.*s", (int)(c1 - t), t);
		p->lo = strtod(c1 + 1, &end);
		p->hi = strtod(c2 + 1, &end);
		if (*end || !(p->lo < p->hi) ||
		    scn_case_set(&probe, p->key, c2 + 1, why, sizeof(why)) ||
		    (scn_case_get(&probe, p->key, &v) &&
		     snprintf(why, sizeof(why), "not a numeric key"))) {
			fprintf(stderr, "%s: calibrate.free: '%s': %s\n",
				w->o->file, t, *end || !(p->lo < p->hi) ?
				"bounds must be numbers, MIN < MAX" : why);
			return -1;
		}
		w->nr_params++;
	}
	if (!w->nr_params) {
		fprintf(stderr, "%s: no [calibrate] free parameters: nothing "
			"to fit\n", w->o->file);
		return -1;
	}
	return 0;
}

static double to_param(const struct fit_param *p, double u)
{
	return p->lo + (p->hi - p->lo) / (1 + exp(-u));
}

static double to_logit(const struct fit_param *p, double v)
{
	double f = (v - p->lo) / (p->hi - p->lo);

	f = fmin(fmax(f, 1e-6), 1 - 1e-6);
	return log(f / (1 - f));
}

static void apply_params(struct fit_work *w, const gsl_vector *u)
{
	for (int i = 0; i < w->scn->nr_cases; i++)
		for (int k = 0; k < w->nr_params; k++) {
			char v[64], why[160];

			snprintf(v, sizeof(v), "%.10g",
				 to_param(&w->p[k], gsl_vector_get(u, k)));
			scn_case_set(&w->scn->cases[i], w->p[k].key, v, why,
				     sizeof(why));
		}
}

/* Relative errors of the fit rows; the same seeds every time (common
 * random numbers), so differences come from the parameters alone. */
static int residuals(const gsl_vector *u, void *data, gsl_vector *f)
{
	struct fit_work *w = data;

	apply_params(w, u);
	if (rep_run(w->rows, w->nr_rows, &w->o->rc, w->o->file)) {
		w->failed = 1;
		rep_free(w->rows, w->nr_rows);
		return GSL_EFAILED;
	}
	for (int i = 0; i < w->nr_rows; i++) {
		double pred = rep_rate(&w->rows[i], w->o->rc.reps).mean;

		gsl_vector_set(f, i, (pred - w->rows[i].measured) /
				     w->rows[i].measured);
	}
	rep_free(w->rows, w->nr_rows);
	w->evaluations++;
	return GSL_SUCCESS;
}

/* Forward differences with a step large enough to see past the
 * simulation's granularity. */
static int jacobian(const gsl_vector *u, void *data, gsl_matrix *J)
{
	struct fit_work *w = data;
	gsl_vector *f0 = gsl_vector_alloc(w->nr_rows);
	gsl_vector *f1 = gsl_vector_alloc(w->nr_rows);
	gsl_vector *v = gsl_vector_alloc(u->size);
	int rc = residuals(u, data, f0);

	for (size_t k = 0; k < u->size && rc == GSL_SUCCESS; k++) {
		gsl_vector_memcpy(v, u);
		gsl_vector_set(v, k, gsl_vector_get(u, k) + FIT_STEP);
		rc = residuals(v, data, f1);
		for (int i = 0; i < w->nr_rows && rc == GSL_SUCCESS; i++)
			gsl_matrix_set(J, i, k, (gsl_vector_get(f1, i) -
						 gsl_vector_get(f0, i)) / FIT_STEP);
	}
	gsl_vector_free(f0);
	gsl_vector_free(f1);
	gsl_vector_free(v);
	return rc;
}

static void report_iteration(const size_t iter, void *data,
			     const gsl_multifit_nlinear_workspace *ws)
{
	struct fit_work *w = data;
	gsl_vector *x = gsl_multifit_nlinear_position(ws);
	double chi = gsl_blas_dnrm2(gsl_multifit_nlinear_residual(ws));

	fprintf(stderr, "iteration %zu: |residual| %.4f ", iter, chi);
	for (int k = 0; k < w->nr_params; k++)
		fprintf(stderr, " %s=%.4g", w->p[k].key,
			to_param(&w->p[k], gsl_vector_get(x, k)));
	fputc('\n', stderr);
}

static void default_out(const char *file, char *out, size_t len)
{
	char buf[4096];
	const char *dot;

	snprintf(buf, sizeof(buf), "%s", file);
	dot = strrchr(buf, '.');
	snprintf(out, len, "%.*s.cal.ini",
		 (int)(dot && !strchr(dot, '/') ? dot - buf : (long)strlen(buf)),
		 buf);
}

static int write_calibration(struct fit_work *w, const char *path,
			     const gsl_vector *u, const gsl_vector *f,
			     const gsl_matrix *covar, double s2, int dof)
{
	FILE *out = fopen(path, "w");
	char section[32] = "";

	if (!out) {
		fprintf(stderr, "ppsim calibrate: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	fprintf(out, "; Written by ppsim %s calibrate from %s: the free "
		"parameters fitted on\n; the cases '%s' only (%d measured "
		"figures), seed %lu, %d replication(s).\n; Every other case "
		"the scenario predicts is out of sample.\n",
		PACKAGE_VERSION, w->o->file, w->scn->calibrate.cases,
		w->nr_rows, w->o->rc.seed, w->o->rc.reps);
	for (int k = 0; k < w->nr_params; k++) {
		const struct fit_param *p = &w->p[k];
		const char *dot = strchr(p->key, '.');
		double v = to_param(p, gsl_vector_get(u, k));
		/* the delta method through the logistic transform */
		double dv = (v - p->lo) * (p->hi - v) / (p->hi - p->lo);
		double se = dof > 0 ? dv * sqrt(s2 * gsl_matrix_get(covar, k, k))
				    : NAN;

		if (strlen(section) != (size_t)(dot - p->key) ||
		    strncmp(section, p->key, (size_t)(dot - p->key))) {
			snprintf(section, sizeof(section), "%.*s",
				 (int)(dot - p->key), p->key);
			fprintf(out, "\n[%s]\n", section);
		}
		fprintf(out, "%s = %.6g", dot + 1, v);
		if (isnan(se))
			fprintf(out, "\t; standard error n/a (no degree of "
				"freedom left)");
		else
			fprintf(out, "\t; standard error %.3g", se);
		fprintf(out, "; start %g; bounds [%g, %g]\n", p->start, p->lo,
			p->hi);
	}
	fprintf(out, "\n; residuals, (predicted - measured) / measured:\n");
	for (int i = 0; i < w->nr_rows; i++)
		fprintf(out, ";   %-14s %-6s %+.2f %%\n", w->rows[i].c->name,
			w->rows[i].policy->name, 100 * gsl_vector_get(f, i));
	return fclose(out);
}

int calibrate_main(int argc, char **argv)
{
	const gsl_multifit_nlinear_type *T = gsl_multifit_nlinear_trust;
	gsl_multifit_nlinear_parameters params =
		gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_fdf fdf;
	gsl_multifit_nlinear_workspace *ws = NULL;
	struct fit_work w = { 0 };
	struct cmd_opts o;
	char out[4096];
	gsl_vector *u0 = NULL;
	gsl_matrix *covar = NULL;
	int info, status = 1, dof;
	double chisq = 0;

	gsl_set_error_handler_off();
	if (cmd_parse(argc, argv, cmd_spec("calibrate"), &o))
		return 2;
	w.o = &o;
	w.scn = scn_load(o.file, NULL, 0, cmd_policies);
	if (!w.scn)
		return 2;
	if (parse_free(&w))
		goto bad;
	w.nr_rows = cmd_measured_rows(w.scn, w.rows, true);
	if (w.nr_rows < w.nr_params) {
		fprintf(stderr, "%s: %d measured figures in the calibrate "
			"cases ('%s') cannot fit %d parameters\n", o.file,
			w.nr_rows, w.scn->calibrate.cases, w.nr_params);
		goto bad;
	}
	u0 = gsl_vector_alloc(w.nr_params);
	for (int k = 0; k < w.nr_params; k++) {
		scn_case_get(&w.scn->cases[0], w.p[k].key, &w.p[k].start);
		gsl_vector_set(u0, k, to_logit(&w.p[k], w.p[k].start));
	}
	fdf = (gsl_multifit_nlinear_fdf){ .f = residuals, .df = jacobian,
		.n = (size_t)w.nr_rows, .p = (size_t)w.nr_params,
		.params = &w };
	ws = gsl_multifit_nlinear_alloc(T, &params, fdf.n, fdf.p);
	if (gsl_multifit_nlinear_init(u0, &fdf, ws) ||
	    gsl_multifit_nlinear_driver(40, 1e-4, 1e-6, 1e-8,
					report_iteration, &w, &info, ws) ||
	    w.failed) {
		fprintf(stderr, "ppsim calibrate: the fit failed%s\n",
			w.failed ? ": a simulation failed" : "");
		goto done;
	}
	covar = gsl_matrix_alloc(w.nr_params, w.nr_params);
	gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(ws), 0.0, covar);
	gsl_blas_ddot(gsl_multifit_nlinear_residual(ws),
		      gsl_multifit_nlinear_residual(ws), &chisq);
	dof = w.nr_rows - w.nr_params;
	if (o.out)
		snprintf(out, sizeof(out), "%s", o.out);
	else
		default_out(o.file, out, sizeof(out));
	if (!write_calibration(&w, out, gsl_multifit_nlinear_position(ws),
			       gsl_multifit_nlinear_residual(ws), covar,
			       dof > 0 ? chisq / dof : NAN, dof)) {
		printf("calibration written to %s after %d simulations of "
		       "each fit case (%zu iterations)\n", out, w.evaluations,
		       gsl_multifit_nlinear_niter(ws));
		status = 0;
	}
done:
	gsl_multifit_nlinear_free(ws);
	gsl_vector_free(u0);
	gsl_matrix_free(covar);
	scn_free(w.scn);
	return status;
bad:
	scn_free(w.scn);
	return 2;
}

