/*
 * The calibration fit: [calibrate] free fitted on the measured figures of
 * [calibrate] cases by GSL's nonlinear least squares (trust region) on the
 * relative errors, every evaluation with the same seeds (common random
 * numbers) so that only the parameters move the predictions.  ppsim
 * calibrate writes what it finds; ppsim validate --sensitivity refits
 * after moving a prior.
 */
#ifndef PPSIM_FIT_H
#define PPSIM_FIT_H

#include <stdbool.h>
#include <string.h>
#include "../report/report.h"

#define FIT_MAX_PARAMS	8
#define FIT_MAX_ROWS	(SCN_MAX_CASES * SCN_MAX_POLICIES)

/* One free parameter: KEY:MIN:MAX of [calibrate] free. */
struct fit_param {
	char key[SCN_KEY_MAX];	/* "cost.rx_pkt" */
	/* in the key's base unit (s, B, Hz, ...: scn_case_get's) */
	double lo, hi;		/* bounds */
	double start;		/* the value before the fit */
	double value;		/* fitted (fit_run) */
	double se;		/* its standard error; NAN with no degree of
				 * freedom left */
};

struct fit {
	struct scenario *scn;	/* the caller's: the fit sets its cases' keys */
	const char *file;	/* names the scenario in messages */
	const struct rep_opts *rc;	/* replications, jobs, seed */
	bool verbose;		/* each iteration on stderr */
	struct fit_param p[FIT_MAX_PARAMS];
	int nr_params;
	struct rep_row rows[FIT_MAX_ROWS];	/* the fit cases' figures */
	double resid[FIT_MAX_ROWS];	/* (predicted - measured) / measured
					 * at the fitted values */
	int nr_rows;
	int evaluations;	/* simulations of each fit row */
	size_t iterations;
	bool sim_failed;	/* a simulation failed (said on stderr) */
	int gsl_status;		/* what GSL said of a failed fit */
	bool converged;		/* met the tolerances; else it ran out of
				 * iterations and holds the best point seen */
	/* The last evaluation, whose point GSL asks for again (the
	 * Jacobian's base after a trial step): the same seeds give the same
	 * residuals, so it is not simulated twice. */
	double memo_u[FIT_MAX_PARAMS], memo_r[FIT_MAX_ROWS];
	bool memo;
	/* The last fit_run's point (logit) and Jacobian there, for
	 * fit_rerun; has_jac when a step by it from there is nil. */
	double u[FIT_MAX_PARAMS];
	double jac[FIT_MAX_ROWS][FIT_MAX_PARAMS];
	bool has_jac;
};

/* Whether a case's name can be a [fitted] key: inih ends a key at its
 * first ':' or '=', and a line that starts with '[' is a section. */
static inline bool fit_name_is_key(const char *name)
{
	return !strpbrk(name, ":=") && name[0] != '[';
}

/*
 * Reads scn's [calibrate] free (which may be empty: nr_params 0) and the
 * measured figures of its [calibrate] cases into f.  Returns 0, or -1 with
 * "FILE:LINE: ..." on stderr: a malformed free list (a key that is not a
 * hardware key with fractions, named twice, bounds it cannot take), or
 * fewer figures than parameters.
 */
int fit_init(struct fit *f, struct scenario *scn, const char *file,
	     const struct rep_opts *rc);

/* Sets the fit's cases to measure their whole duration (no precision):
 * fit_init() does, and a copy of the scenario over the fit's undoes. */
void fit_whole_windows(const struct fit *f);

/*
 * Fits the free parameters from the values the cases hold, and leaves the
 * fitted values set in every case of the scenario (and in p[].value, with
 * p[].se and resid[]).  Returns 0 (converged says whether the fit met its
 * tolerances or ran out of iterations at its best point so far), or -1 if
 * the fit failed (sim_failed when a simulation did, already said on
 * stderr; else GSL's gsl_status); the caller says it, with fit_why().
 */
int fit_run(struct fit *f);
/*
 * Fits again after the caller changed what the rows predict (a prior
 * moved), from the last fit_run()'s point with its Jacobian held: each
 * step the least-squares solution of J du = -r (the chord method,
 * Gauss-Newton without a new Jacobian), taken while it lowers the error,
 * until a step is nil or no better within the Jacobian's difference
 * step.  A move that leaves the fit near its point settles in two or
 * three evaluations where a trust-region fit spends twenty.  It is
 * fit_run() from the best point where a longer step does no better or
 * the steps do not settle, and fit_run() from the scenario's values
 * where the Jacobian was not held: one whose step from the fitted point
 * was not nil (the fit stopped on the predictions' grain, away from the
 * minimum the Jacobian sees).  Sets what fit_run() sets but p[].se, and
 * returns as it does.
 */
int fit_rerun(struct fit *f);
/* Why a fit failed, for a message: ": a simulation failed", ": GSL: ...". */
const char *fit_why(const struct fit *f, char *buf, size_t len);

#endif
