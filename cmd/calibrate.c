/*
 * ppsim calibrate: fits the scenario's free parameters ([calibrate] free)
 * on its calibration cases ([calibrate] cases) only, with GSL's nonlinear
 * least squares, and writes them to a calibration file the scenario
 * includes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "cmd.h"
#include "fit.h"

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

static int write_calibration(const struct fit *f, const char *path)
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
		PACKAGE_VERSION, f->file, f->scn->calibrate.cases,
		f->nr_rows, f->rc->seed, f->rc->reps);
	for (int k = 0; k < f->nr_params; k++) {
		const struct fit_param *p = &f->p[k];
		const char *dot = strchr(p->key, '.');

		if (strlen(section) != (size_t)(dot - p->key) ||
		    strncmp(section, p->key, (size_t)(dot - p->key))) {
			snprintf(section, sizeof(section), "%.*s",
				 (int)(dot - p->key), p->key);
			fprintf(out, "\n[%s]\n", section);
		}
		fprintf(out, "%s = %.6g", dot + 1, p->value);
		if (isnan(p->se))
			fprintf(out, "\t; standard error n/a (no degree of "
				"freedom left)");
		else
			fprintf(out, "\t; standard error %.3g", p->se);
		fprintf(out, "; start %g; bounds [%g, %g]\n", p->start, p->lo,
			p->hi);
	}
	fprintf(out, "\n; residuals, (predicted - measured) / measured:\n");
	for (int i = 0; i < f->nr_rows; i++)
		fprintf(out, ";   %-14s %-6s %+.2f %%\n", f->rows[i].c->name,
			f->rows[i].policy->name, 100 * f->resid[i]);
	return fclose(out);
}

int calibrate_main(int argc, char **argv)
{
	struct scenario *scn;
	struct cmd_opts o;
	struct fit *f;
	char out[4096], why[80];
	int status = 2;

	gsl_set_error_handler_off();
	if (cmd_parse(argc, argv, cmd_spec("calibrate"), &o))
		return 2;
	scn = scn_load(o.file, NULL, 0, cmd_policies);
	if (!scn)
		return 2;
	f = malloc(sizeof(*f));
	if (!f || fit_init(f, scn, o.file, &o.rc))
		goto done;
	if (!f->nr_params) {
		fprintf(stderr, "%s: no [calibrate] free parameters: nothing "
			"to fit\n", o.file);
		goto done;
	}
	f->verbose = true;
	status = 1;
	if (fit_run(f) || !f->converged) {
		fprintf(stderr, "ppsim calibrate: the fit failed%s\n",
			fit_why(f, why, sizeof(why)));
		goto done;
	}
	if (o.out)
		snprintf(out, sizeof(out), "%s", o.out);
	else
		default_out(o.file, out, sizeof(out));
	if (!write_calibration(f, out)) {
		printf("calibration written to %s after %d simulations of "
		       "each fit case (%zu iterations)\n", out, f->evaluations,
		       f->iterations);
		status = 0;
	}
done:
	free(f);
	scn_free(scn);
	return status;
}
