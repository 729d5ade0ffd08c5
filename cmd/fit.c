/* The calibration fit (fit.h): GSL's trust-region nonlinear least squares
 * over the simulations of the fit rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit_nlinear.h>
#include "cmd.h"
#include "fit.h"
#include "../model/workload/workload.h"
#include "../io/datadir.h"

#define FIT_STEP	0.05	/* finite-difference step, in logit units */
#define FIT_MAX_ITER	40
#define FIT_XTOL	1e-4	/* a step this small, relative, has converged */
#define FIT_INSIDE	0.05	/* a start at a bound moves this far in */
#define FIT_CHORD_STEPS	5	/* fit_rerun's steps before a whole fit */
/* A chord step this small (logit units) is nil: a tenth of the
 * Jacobian's difference step.  Where a fit stops is as grainy as the
 * simulation: on the seed's XDP file the step from there was 0.0002 at
 * 3 replications of 50 ms and up to 0.0024 at one of 5-10 ms; an
 * ill-posed fit's was 0.36. */
#define FIT_CHORD_TOL	(FIT_STEP / 10)

/* One bound of KEY:MIN:MAX, as a file writes the key's value (a bare
 * number in the key's unit, or with a suffix: 20ns), into base units;
 * -1 with why if it is no value the key can take. */
static int parse_bound(const struct scn_case *c, const char *key,
		       const char *text, double *v, char *why, size_t len)
{
	struct scn_case probe = *c;

	if (!*text) {
		snprintf(why, len, "a bound is missing");
		return -1;
	}
	if (scn_case_set(&probe, key, text, why, len))
		return -1;
	return scn_case_get(&probe, key, v);
}

/*
 * [calibrate] free: KEY:MIN:MAX ..., each KEY a numeric hardware key
 * (SECTION.NAME: a .cal.ini sets it in its section) that keeps fractions,
 * once, with bounds it can take, MIN < MAX.  Everything is checked here,
 * before any simulation, and said at free's line.
 */
static int parse_free(struct fit *f)
{
	const struct scn_calibrate *cal = &f->scn->calibrate;
	const struct scn_case *c = &f->scn->cases[0];
	const char *file = cal->free_file ? cal->free_file : f->file;
	char buf[SCN_TEXT_MAX], *save = NULL;
	int bad = 0;

	snprintf(buf, sizeof(buf), "%s", cal->free);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save)) {
		struct fit_param *p = &f->p[f->nr_params];
		char why[160] = "", *c1 = strchr(t, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		double v;

		if (f->nr_params == FIT_MAX_PARAMS || !c2 ||
		    strchr(c2 + 1, ':') || c1 - t >= SCN_KEY_MAX) {
			datadir_error(file, cal->free_line, "free: '%s': "
				      "expected KEY:MIN:MAX (at most %d)", t,
				      FIT_MAX_PARAMS);
			bad++;
			continue;
		}
		*c1 = *c2 = '\0';
		snprintf(p->key, sizeof(p->key), "%s", t);
		if (!strchr(t, '.') || !strncmp(t, "case.", 5))
			snprintf(why, sizeof(why), "'%s' is a case key: free "
				 "keys are hardware keys, SECTION.NAME "
				 "(cost.rx_pkt)", t);
		else if (scn_case_get(c, t, &v))
			snprintf(why, sizeof(why), "'%s' is not a numeric "
				 "hardware key", t);
		else if (scn_key_whole(t))
			snprintf(why, sizeof(why), "'%s' takes whole numbers "
				 "only: the fit moves a value continuously", t);
		for (int k = 0; k < f->nr_params && !*why; k++)
			if (!strcmp(f->p[k].key, t))
				snprintf(why, sizeof(why), "'%s' is named "
					 "twice", t);
		if (!*why &&
		    (parse_bound(c, t, c1 + 1, &p->lo, why, sizeof(why)) ||
		     parse_bound(c, t, c2 + 1, &p->hi, why, sizeof(why))))
			;	/* why says it */
		else if (!*why && !(p->lo < p->hi))
			snprintf(why, sizeof(why), "bounds %s:%s: MIN must "
				 "be below MAX", c1 + 1, c2 + 1);
		if (*why) {
			datadir_error(file, cal->free_line, "free: '%s:%s:%s': "
				      "%s", t, c1 + 1, c2 + 1, why);
			bad++;
			continue;
		}
		f->nr_params++;
	}
	return bad ? -1 : 0;
}

/* A fit differences nearby points: a window that ends at another sample
 * at each (a case's precision) would be noise in its slopes, so the fit's
 * cases measure their whole duration. */
void fit_whole_windows(const struct fit *f)
{
	for (int i = 0; i < f->nr_rows; i++)
		f->rows[i].c->sim.load.precision = 0;
}

int fit_init(struct fit *f, struct scenario *scn, const char *file,
	     const struct rep_opts *rc)
{
	const struct scn_calibrate *cal = &scn->calibrate;
	const char *free_file = cal->free_file ? cal->free_file : file;

	*f = (struct fit){ .scn = scn, .file = file, .rc = rc };
	if (parse_free(f))
		return -1;
	if (!f->nr_params)	/* nothing to fit, no cases to fit on */
		return 0;
	f->nr_rows = cmd_measured_rows(scn, f->rows, true);
	fit_whole_windows(f);
	if (!*cal->cases) {
		datadir_error(free_file, cal->free_line, "free: [calibrate] "
			      "has no 'cases =', the cases to fit on");
		return -1;
	}
	if (f->nr_rows < f->nr_params) {
		datadir_error(free_file, cal->free_line, "free: %d measured "
			      "figures in the cases '%s' cannot fit %d "
			      "parameter%s", f->nr_rows, cal->cases,
			      f->nr_params, f->nr_params == 1 ? "" : "s");
		return -1;
	}
	/* a key no fit case reads moves nothing: the fit would keep its
	 * start and call it exact */
	for (int k = 0; k < f->nr_params; k++) {
		bool read = false;
		char readers[200];

		for (int i = 0; i < f->nr_rows && !read; i++)
			read = workload_reads(f->rows[i].c->sim.rxq.workload,
					      f->p[k].key);
		if (read)
			continue;
		workload_readers(f->p[k].key, readers, sizeof(readers));
		datadir_error(free_file, cal->free_line, "free: '%s': no case "
			      "of '%s' reads it (%s cases do): the fit could "
			      "not move it", f->p[k].key, cal->cases, readers);
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
	double x = (v - p->lo) / (p->hi - p->lo);

	x = fmin(fmax(x, 1e-6), 1 - 1e-6);
	return log(x / (1 - x));
}

/* Sets every case's free keys to the point u, as a calibration file
 * written from it would (scn_case_put keeps what a file keeps). */
static int apply_params(struct fit *f, const gsl_vector *u)
{
	for (int i = 0; i < f->scn->nr_cases; i++)
		for (int k = 0; k < f->nr_params; k++) {
			double v = to_param(&f->p[k], gsl_vector_get(u, k));
			char why[160];

			if (scn_case_put(&f->scn->cases[i], f->p[k].key, v,
					 why, sizeof(why))) {
				fprintf(stderr, "%s: case %s: %s = %.10g: %s\n",
					f->file, f->scn->cases[i].name,
					f->p[k].key, v, why);
				return -1;
			}
		}
	return 0;
}

/* Relative errors of the fit rows; the same seeds every time (common
 * random numbers), so differences come from the parameters alone. */
static int residuals(const gsl_vector *u, void *data, gsl_vector *r)
{
	struct fit *f = data;
	bool same = f->memo;

	for (int k = 0; k < f->nr_params && same; k++)
		same = gsl_vector_get(u, k) == f->memo_u[k];
	if (same) {
		for (int i = 0; i < f->nr_rows; i++)
			gsl_vector_set(r, i, f->memo_r[i]);
		return GSL_SUCCESS;
	}
	f->memo = false;
	if (apply_params(f, u)) {
		f->sim_failed = true;
		return GSL_EFAILED;
	}
	if (cmd_run_rows(f->rows, f->nr_rows, f->rc, f->file)) {
		f->sim_failed = true;
		cmd_free_results(f->rows, f->nr_rows);
		return GSL_EFAILED;
	}
	for (int i = 0; i < f->nr_rows; i++) {
		double pred = rep_rate(&f->rows[i], f->rc->reps).mean;

		gsl_vector_set(r, i, (pred - f->rows[i].measured) /
				     f->rows[i].measured);
	}
	cmd_free_results(f->rows, f->nr_rows);
	f->evaluations++;
	for (int k = 0; k < f->nr_params; k++)
		f->memo_u[k] = gsl_vector_get(u, k);
	for (int i = 0; i < f->nr_rows; i++)
		f->memo_r[i] = gsl_vector_get(r, i);
	f->memo = true;
	return GSL_SUCCESS;
}

/* Forward differences with a step large enough to see past the
 * simulation's granularity. */
static int jacobian(const gsl_vector *u, void *data, gsl_matrix *J)
{
	struct fit *f = data;
	gsl_vector *f0 = gsl_vector_alloc(f->nr_rows);
	gsl_vector *f1 = gsl_vector_alloc(f->nr_rows);
	gsl_vector *v = gsl_vector_alloc(u->size);
	int rc = residuals(u, data, f0);

	for (size_t k = 0; k < u->size && rc == GSL_SUCCESS; k++) {
		gsl_vector_memcpy(v, u);
		gsl_vector_set(v, k, gsl_vector_get(u, k) + FIT_STEP);
		rc = residuals(v, data, f1);
		for (int i = 0; i < f->nr_rows && rc == GSL_SUCCESS; i++)
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
	struct fit *f = data;
	gsl_vector *x = gsl_multifit_nlinear_position(ws);
	double chi = gsl_blas_dnrm2(gsl_multifit_nlinear_residual(ws));

	fprintf(stderr, "iteration %zu: |residual| %.4f ", iter, chi);
	for (int k = 0; k < f->nr_params; k++)
		fprintf(stderr, " %s=%.4g", f->p[k].key,
			to_param(&f->p[k], gsl_vector_get(x, k)));
	fputc('\n', stderr);
}

/* The step du solving J du = -r in least squares (J: the held Jacobian).
 * Returns 0, or -1 if J has not full rank. */
static int chord_step(const struct fit *f, const gsl_vector *r,
		      gsl_vector *du)
{
	size_t n = (size_t)f->nr_rows, p = (size_t)f->nr_params;
	gsl_matrix *qr = gsl_matrix_alloc(n, p);
	gsl_vector *tau = gsl_vector_alloc(p), *res = gsl_vector_alloc(n);
	int rc = -1;

	if (qr && tau && res) {
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < p; k++)
				gsl_matrix_set(qr, i, k, f->jac[i][k]);
		if (!gsl_linalg_QR_decomp(qr, tau) &&
		    !gsl_linalg_QR_lssolve(qr, tau, r, du, res)) {
			gsl_vector_scale(du, -1);
			rc = 0;
			for (size_t k = 0; k < p; k++)
				rc |= isfinite(gsl_vector_get(du, k)) ? 0 : -1;
		}
	}
	gsl_matrix_free(qr);
	gsl_vector_free(tau);
	gsl_vector_free(res);
	return rc;
}

/* A chord step's size: its largest move of a parameter (logit units). */
static double chord_size(const gsl_vector *du)
{
	double largest = 0;

	for (size_t k = 0; k < du->size; k++)
		largest = fmax(largest, fabs(gsl_vector_get(du, k)));
	return largest;
}

/* The fitted values, their standard errors (the delta method through the
 * logistic transform) and the residuals, from the workspace. */
static void take_result(struct fit *f, gsl_multifit_nlinear_workspace *ws)
{
	gsl_vector *u = gsl_multifit_nlinear_position(ws);
	gsl_vector *r = gsl_multifit_nlinear_residual(ws);
	gsl_matrix *covar = gsl_matrix_alloc(f->nr_params, f->nr_params);
	double chisq = 0;

	gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(ws), 0.0, covar);
	gsl_blas_ddot(r, r, &chisq);
	for (int k = 0; k < f->nr_params; k++) {
		struct fit_param *p = &f->p[k];
		double v = to_param(p, gsl_vector_get(u, k));
		double dv = (v - p->lo) * (p->hi - v) / (p->hi - p->lo);

		p->value = v;
		p->se = rep_fit_se(chisq, f->nr_rows, f->nr_params,
				   gsl_matrix_get(covar, k, k), dv);
	}
	for (int i = 0; i < f->nr_rows; i++) {
		f->resid[i] = gsl_vector_get(r, i);
		for (int k = 0; k < f->nr_params; k++)
			f->jac[i][k] = gsl_matrix_get(
				gsl_multifit_nlinear_jac(ws), (size_t)i,
				(size_t)k);
	}
	for (int k = 0; k < f->nr_params; k++)
		f->u[k] = gsl_vector_get(u, k);
	/* held for fit_rerun where it agrees that this is the minimum: a
	 * step by it from here is nil (where the fit stopped on the
	 * predictions' grain away from it, its steps would not be) */
	{
		gsl_vector *du = gsl_vector_alloc((size_t)f->nr_params);

		f->has_jac = !chord_step(f, r, du) &&
			     chord_size(du) <= FIT_CHORD_TOL;
		gsl_vector_free(du);
	}
	f->iterations = gsl_multifit_nlinear_niter(ws);
	/* the last evaluation may have been a trial or a difference step */
	apply_params(f, u);
	gsl_matrix_free(covar);
}

/*
 * Whether a fit that ran out of iterations never left its start (within
 * the step tolerance): every trial step from it was refused, the trust
 * region shrank around it, and so the start is the minimum to the fit's
 * tolerance.  It is what calibrating on a calibration's own output meets:
 * the fit must then say so, not fail (a fixed point).
 */
static bool at_start(const struct fit *f, gsl_multifit_nlinear_workspace *ws,
		     const gsl_vector *u0)
{
	gsl_vector *u = gsl_multifit_nlinear_position(ws);

	for (int k = 0; k < f->nr_params; k++) {
		double a = gsl_vector_get(u0, k), b = gsl_vector_get(u, k);

		if (fabs(b - a) > FIT_XTOL * (fabs(a) + FIT_XTOL))
			return false;
	}
	return true;
}

int fit_run(struct fit *f)
{
	gsl_multifit_nlinear_parameters params =
		gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_fdf fdf = {
		.f = residuals, .df = jacobian, .n = (size_t)f->nr_rows,
		.p = (size_t)f->nr_params, .params = f,
	};
	gsl_multifit_nlinear_workspace *ws;
	gsl_vector *u0;
	int info, status = -1;

	f->converged = true;
	f->memo = false;	/* the caller may have moved a prior */
	f->sim_failed = false;
	if (!f->nr_params)
		return 0;
	u0 = gsl_vector_alloc(f->nr_params);
	for (int k = 0; k < f->nr_params; k++) {
		struct fit_param *fp = &f->p[k];
		double v;

		scn_case_get(&f->scn->cases[0], fp->key, &fp->start);
		/* from a bound or beyond, the logistic's slope is nil: the
		 * fit would never leave it; it starts a twentieth inside */
		v = fp->start;
		if (v <= fp->lo || v >= fp->hi) {
			double in = FIT_INSIDE * (fp->hi - fp->lo);

			v = v <= fp->lo ? fp->lo + in : fp->hi - in;
			if (f->verbose)
				fprintf(stderr, "%s: %s = %g is at or beyond "
					"a bound of [%g, %g]: the fit starts "
					"at %g\n", f->file, fp->key, fp->start,
					fp->lo, fp->hi, v);
		}
		gsl_vector_set(u0, k, to_logit(fp, v));
	}
	ws = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params,
					fdf.n, fdf.p);
	f->gsl_status = ws ? gsl_multifit_nlinear_init(u0, &fdf, ws)
			   : GSL_ENOMEM;
	if (!f->gsl_status)
		f->gsl_status = gsl_multifit_nlinear_driver(FIT_MAX_ITER, FIT_XTOL,
			1e-6, 1e-8, f->verbose ? report_iteration : NULL, f,
			&info, ws);
	/* out of iterations, the workspace still holds the best point */
	if ((!f->gsl_status || f->gsl_status == GSL_EMAXITER) &&
	    !f->sim_failed) {
		take_result(f, ws);
		f->converged = !f->gsl_status || at_start(f, ws, u0);
		status = 0;
	}
	gsl_multifit_nlinear_free(ws);
	gsl_vector_free(u0);
	return status;
}

/* Keeps u and r as the fit's result, its parameters set in the cases. */
static int take_point(struct fit *f, const gsl_vector *u, const gsl_vector *r)
{
	for (int k = 0; k < f->nr_params; k++)
		f->p[k].value = to_param(&f->p[k], gsl_vector_get(u, k));
	for (int i = 0; i < f->nr_rows; i++)
		f->resid[i] = gsl_vector_get(r, i);
	return apply_params(f, u);
}

/* fit_run(), keeping the point and Jacobian held for fit_rerun(). */
static int run_keeping_jac(struct fit *f)
{
	double u[FIT_MAX_PARAMS], jac[FIT_MAX_ROWS][FIT_MAX_PARAMS];
	int status;

	memcpy(u, f->u, sizeof(u));
	memcpy(jac, f->jac, sizeof(jac));
	status = fit_run(f);
	memcpy(f->u, u, sizeof(u));
	memcpy(f->jac, jac, sizeof(jac));
	return status;
}

int fit_rerun(struct fit *f)
{
	size_t p = (size_t)f->nr_params, n = (size_t)f->nr_rows;
	gsl_vector *u, *du, *r, *best_u, *best_r;
	double best;
	int status = -1, step;

	if (!f->has_jac || !p)
		return fit_run(f);
	u = gsl_vector_alloc(p);
	du = gsl_vector_alloc(p);
	r = gsl_vector_alloc(n);
	best_u = gsl_vector_alloc(p);
	best_r = gsl_vector_alloc(n);
	f->converged = true;
	f->memo = false;
	f->sim_failed = false;
	for (size_t k = 0; k < p; k++)
		gsl_vector_set(u, k, f->u[k]);
	if (residuals(u, f, r))
		goto out;	/* sim_failed says it */
	best = gsl_blas_dnrm2(r);
	gsl_vector_memcpy(best_u, u);
	gsl_vector_memcpy(best_r, r);
	for (step = 0; step < FIT_CHORD_STEPS; step++) {
		double size, norm;

		if (chord_step(f, best_r, du))
			break;	/* J has not full rank */
		size = chord_size(du);
		if (size <= FIT_CHORD_TOL)
			goto settled;
		gsl_vector_memcpy(u, best_u);
		gsl_vector_add(u, du);
		if (residuals(u, f, r))
			goto out;
		norm = gsl_blas_dnrm2(r);
		if (!(norm < best)) {
			/* a step within the Jacobian's own difference step
			 * that does no better met the predictions' grain;
			 * a longer one, the held Jacobian's limits */
			if (size <= FIT_STEP)
				goto settled;
			break;
		}
		best = norm;
		gsl_vector_memcpy(best_u, u);
		gsl_vector_memcpy(best_r, r);
	}
	/* the steps did not settle: a whole fit, from the best point */
	status = apply_params(f, best_u) ? -1 : run_keeping_jac(f);
	goto out;
settled:
	f->iterations = (size_t)step;
	status = take_point(f, best_u, best_r);
out:
	gsl_vector_free(u);
	gsl_vector_free(du);
	gsl_vector_free(r);
	gsl_vector_free(best_u);
	gsl_vector_free(best_r);
	return status;
}

const char *fit_why(const struct fit *f, char *buf, size_t len)
{
	if (f->sim_failed)
		snprintf(buf, len, ": a simulation failed");
	else
		snprintf(buf, len, ": GSL: %s", gsl_strerror(f->gsl_status));
	return buf;
}
