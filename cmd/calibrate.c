/*
 * ppsim calibrate: fits the scenario's free parameters ([calibrate] free)
 * on its calibration cases ([calibrate] cases) only, with GSL's nonlinear
 * least squares, and writes them to a calibration file the scenario
 * includes.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "cmd.h"
#include "fit.h"
#include "../io/datadir.h"
#include "../report/outfile.h"

/* --update's file: the scenario's name with .cal.ini for its extension.
 * Returns -1 when that does not fit in out (cut short, it could name the
 * scenario itself). */
static int default_out(const char *file, char *out, size_t len)
{
	const char *dot = strrchr(file, '.');
	int stem = (int)(dot && !strchr(dot, '/') ? dot - file :
			 (long)strlen(file));

	return (size_t)snprintf(out, len, "%.*s.cal.ini", stem, file) >= len ?
	       -1 : 0;
}

/* A bound or standard error of key, for the reader: "400" in the key's
 * unit, or "20ns"; a standard error of a plain number with 3 digits. */
static void format_value(const char *key, double v, bool se, char *buf,
			 size_t len)
{
	char unit[32];

	scn_format_value(key, 1, unit, sizeof(unit));
	if (se && !strcmp(unit, "1"))	/* no unit */
		snprintf(buf, len, "%.3g", v);
	else
		scn_format_value(key, v, buf, len);
}

/* What the fit predicted for each of its figures, a line a case (its rows
 * are consecutive), every digit: validate compares it with what the model
 * predicts then. */
static void print_fitted(const struct fit *f, FILE *out)
{
	fprintf(out, "\n; what the fit predicted, in the cases' units: ppsim "
		"validate says this\n; calibration is stale when the model no "
		"longer predicts it\n[fitted]\n");
	for (int i = 0; i < f->nr_rows; i++) {
		const struct rep_row *r = &f->rows[i];
		bool first = !i || f->rows[i - 1].c != r->c;
		bool last = i == f->nr_rows - 1 || f->rows[i + 1].c != r->c;

		if (!fit_name_is_key(r->c->name)) {
			if (first)
				fprintf(out, "; %s: not recorded, a name with "
					"':' or '=', or a leading '[', is no "
					"key\n", r->c->name);
			continue;
		}
		fprintf(out, "%s%s%s:%.*g%s", first ? r->c->name : "",
			first ? " = " : " ", r->policy->name, SCN_FILE_DIGITS,
			r->measured * (1 + f->resid[i]), last ? "\n" : "");
	}
}

static void print_calibration(const struct fit *f, FILE *out)
{
	char section[32] = "", v[4][64];

	fprintf(out, "; Written by ppsim %s calibrate from ", PACKAGE_VERSION);
	datadir_put_line_text(out, f->file);
	fprintf(out, ": the free parameters fitted on\n; the cases '%s' only "
		"(%d measured figures), seed %lu, %d replication(s).\n; "
		"Every other case the scenario predicts is out of sample.\n",
		f->scn->calibrate.cases, f->nr_rows, f->rc->seed,
		f->rc->reps);
	for (int k = 0; k < f->nr_params; k++) {
		const struct fit_param *p = &f->p[k];
		/* fit_init took hardware keys only: SECTION.NAME */
		const char *dot = strchr(p->key, '.');

		if (strlen(section) != (size_t)(dot - p->key) ||
		    strncmp(section, p->key, (size_t)(dot - p->key))) {
			snprintf(section, sizeof(section), "%.*s",
				 (int)(dot - p->key), p->key);
			fprintf(out, "\n[%s]\n", section);
		}
		/* every digit the fit evaluated: a run from this file
		 * predicts what the fit did, the residuals below */
		scn_format_digits(p->key, p->value, SCN_FILE_DIGITS, v[0],
				  sizeof(v[0]));
		fprintf(out, "%s = %s", dot + 1, v[0]);
		format_value(p->key, p->se, true, v[1], sizeof(v[1]));
		if (isnan(p->se))
			fprintf(out, "\t; standard error n/a (no degree of "
				"freedom left)");
		else
			fprintf(out, "\t; standard error %s", v[1]);
		scn_format_digits(p->key, p->start, SCN_FILE_DIGITS, v[1],
				  sizeof(v[1]));
		format_value(p->key, p->lo, false, v[2], sizeof(v[2]));
		format_value(p->key, p->hi, false, v[3], sizeof(v[3]));
		fprintf(out, "; start %s; bounds [%s, %s]\n", v[1], v[2],
			v[3]);
	}
	/* whose figures these are: a scenario of another core that
	 * includes this file runs borrowed, uncalibrated cycles */
	if (strcmp(section, "cost"))
		fprintf(out, "\n[cost]\n");
	fprintf(out, "fit_family = %s\t; the core of the machine fitted on "
		"(its cpu.family)\n",
		cpu_family_words[f->rows[0].c->sim.cpu.family]);
	print_fitted(f, out);
	fprintf(out, "\n; residuals, (predicted - measured) / measured:\n");
	for (int i = 0; i < f->nr_rows; i++)
		fprintf(out, ";   %-14s %-6s %+.2f %%\n", f->rows[i].c->name,
			f->rows[i].policy->name, 100 * f->resid[i]);
}

/* A parameter the fit left at one of its bounds (within 0.1 % of the
 * range: the logistic map never reaches one) is no fit: the figures ask
 * for a value outside them, and its standard error says nothing.  Said on
 * stderr; true then. */
static bool at_bound(const struct fit *f)
{
	bool any = false;

	for (int k = 0; k < f->nr_params; k++) {
		const struct fit_param *p = &f->p[k];
		double x = (p->value - p->lo) / (p->hi - p->lo);
		char v[3][64];

		if (x > 1e-3 && x < 1 - 1e-3)
			continue;
		scn_format_value(p->key, p->value, v[0], sizeof(v[0]));
		format_value(p->key, p->lo, false, v[1], sizeof(v[1]));
		format_value(p->key, p->hi, false, v[2], sizeof(v[2]));
		fprintf(stderr, "ppsim calibrate: %s stopped at %s, at a bound "
			"of [%s, %s]: the measured figures ask for a value "
			"outside them (check the figures, or widen free's "
			"bounds); nothing written\n", p->key, v[0], v[1],
			v[2]);
		any = true;
	}
	return any;
}

/* The fit into path, whole or not at all; or to standard output (path
 * NULL), whose loss main() reports. */
static int write_calibration(const struct fit *f, const char *path)
{
	struct outfile o;

	if (!path) {
		print_calibration(f, stdout);
		return 0;
	}
	if (!outfile_open(&o, path, "", "ppsim calibrate"))
		return -1;
	print_calibration(f, o.f);
	return outfile_commit(&o, "ppsim calibrate");
}

/* Whether path is a calibration: one calibrate wrote (its first line
 * says so: print_calibration), or a placeholder that sets nothing (blank
 * and comment lines only).  Only such a file, of those the scenario reads,
 * may be replaced by the fit; --update's is one by its name. */
static bool is_calibration(const char *path)
{
	static const char head[] = "; Written by ppsim ";
	char line[256];
	FILE *f = datadir_open_regular(path);
	bool first = true, written = false, empty = true;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		const char *s = line + strspn(line, " \t\r\n");

		if (first)
			written = !strncmp(line, head, sizeof(head) - 1) &&
				  strstr(line, " calibrate from ");
		first = false;
		if (*s && *s != ';' && *s != '#')
			empty = false;
	}
	fclose(f);
	return written || empty;
}

/* Whether path's name is a calibration's: NAME.cal.ini. */
static bool is_cal_name(const char *path)
{
	size_t n = strlen(path), e = strlen(".cal.ini");

	return n > e && !strcmp(path + n - e, ".cal.ini");
}

/* Whether path is one of the files the scenario read (under any name). */
static bool included(const struct scenario *scn, const char *path)
{
	for (int i = 0; i < scn->nr_files; i++)
		if (outfile_same_file(scn->files[i], path))
			return true;
	return false;
}

/* The calibration at out is replaced as a user's file is edited: through
 * a symbolic link (out becomes the file linked to, the link stays), with
 * its mode (*mode; 0 for a new file), and not when it is read-only (mode
 * without u+w: someone froze it).  Returns 0, or -1 said (exit 2). */
static int keep_as_is(char *out, size_t len, mode_t *mode)
{
	char target[PATH_MAX];
	struct stat st;

	if (lstat(out, &st))
		return 0;	/* a new file: outfile_check_file's */
	if (S_ISLNK(st.st_mode)) {
		if (!realpath(out, target) || strlen(target) >= len) {
			fprintf(stderr, "ppsim calibrate: %s: a link to "
				"nothing that can be written: %s\n", out,
				strerror(errno ? errno : ENAMETOOLONG));
			return -1;
		}
		if (stat(target, &st))
			return 0;
		memcpy(out, target, strlen(target) + 1);
	}
	if (S_ISREG(st.st_mode) && !(st.st_mode & S_IWUSR)) {
		fprintf(stderr, "%s: read-only (mode %04o): not replaced; "
			"chmod u+w it to let calibrate write it\n", out,
			(unsigned)(st.st_mode & 07777));
		return -1;
	}
	*mode = S_ISREG(st.st_mode) ? st.st_mode & 07777 : 0;
	return 0;
}

int calibrate_main(int argc, char **argv)
{
	int help;
	struct scenario *scn;
	struct cmd_opts o;
	struct fit *f;
	char out[PATH_MAX], why[80];
	mode_t mode = 0;
	int status = 2;
	bool used;

	gsl_set_error_handler_off();
	if ((help = cmd_parse(argc, argv, cmd_spec("calibrate"), &o)))
		return help > 0 ? 0 : 2;
	if (o.out && o.update) {
		fprintf(stderr, "ppsim calibrate: --out or --update, not "
			"both\n");
		return 2;
	}
	/* a calibration is of the scenario as its files are: one fitted
	 * under an override holds for a scenario that no file describes,
	 * and validate would call it stale */
	if ((o.out || o.update) && o.nr_set) {
		fprintf(stderr, "ppsim calibrate: %s: a calibration written is "
			"of the scenario as its files are; set %s in a file "
			"(or fit without writing: no --out, no --update)\n",
			o.set[0].file ? o.set[0].file : "--set",
			o.set[0].key);
		return 2;
	}
	scn = scn_load(o.file, o.set, o.nr_set, cmd_policies);
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
	/* no file is written unless the command line names it: the
	 * .cal.ini beside a shipped scenario is tracked */
	if (o.out)
		snprintf(out, sizeof(out), "%s", o.out);
	else if (o.update && default_out(o.file, out, sizeof(out))) {
		fprintf(stderr, "ppsim calibrate: --update: %.200s...: its "
			".cal.ini name is too long\n", o.file);
		goto done;
	}
	if ((o.out || o.update) && keep_as_is(out, sizeof(out), &mode))
		goto done;
	/* a bad --out is found now, not after the fit: it may replace no
	 * file the scenario reads (a hardware profile two includes down)
	 * but a calibration, which calibrate wrote to be replaced; --update
	 * a .cal.ini, which is one by its name, where a link does not lead
	 * elsewhere (to the scenario itself) */
	if ((o.out || o.update) &&
	    (is_calibration(out) || (o.update && is_cal_name(out))))
		outfile_may_replace(out);
	if ((o.out || o.update) &&
	    outfile_check_file(out, o.out ? "ppsim calibrate: --out" :
			       "ppsim calibrate: --update"))
		goto done;
	f->verbose = true;
	status = 1;
	if (fit_run(f) || !f->converged) {
		fprintf(stderr, "ppsim calibrate: the fit failed%s\n",
			fit_why(f, why, sizeof(why)));
		goto done;
	}
	if (at_bound(f))
		goto done;
	/* asked before the write, which puts a new file in its place */
	used = (!o.out && !o.update) || included(scn, out);
	if (!write_calibration(f, o.out || o.update ? out : NULL)) {
		fprintf(stderr, "calibration written to %s after %d "
			"simulations of each fit case (%zu iteration%s)\n",
			o.out || o.update ? out : "standard output",
			f->evaluations, f->iterations,
			f->iterations == 1 ? "" : "s");
		status = 0;
		/* the file's mode, not the umask's: 0640 stays 0640 */
		if (mode && chmod(out, mode))
			fprintf(stderr, "ppsim calibrate: %s: its mode was "
				"%04o, not kept: %s\n", out, (unsigned)mode,
				strerror(errno));
		if (!used)
			fprintf(stderr, "ppsim calibrate: note: %s does not "
				"include %s: its cases run without it until an "
				"'include =' names it\n", o.file, out);
	}
done:
	free(f);
	scn_free(scn);
	return status;
}
