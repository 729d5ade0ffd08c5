#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "cmd.h"
#include "../io/datadir.h"
#include "../report/outfile.h"
#include "../report/plot.h"
#include "../report/sweep.h"

#define SWEEP_MAX_VALUES 32
#define SWEEP_MAX_POINTS 256
#define SWEEP_MAX_RUNS	4096	/* (case, policy) pairs over all points */

struct axis {
	char key[64];
	char values[SWEEP_MAX_VALUES][48];
	int nr_values;
	const char *file;	/* its [sweep]'s vary line, or NULL: --set */
	int line;
};

struct sweep_opts {
	const char *file;
	const char *name;		/* [sweep NAME], or NULL */
	char cases[SCN_TEXT_MAX];	/* [sweep NAME]'s cases, or empty */
	struct cmd_opts cl;		/* --case, --policy: cmd_wants_*() */
	struct axis axes[SWEEP_MAX_AXES];
	int nr_axes;
	/* --duration: one value for every point, not an axis */
	struct scn_override fixed[CMD_MAX_SET];
	int nr_fixed;
	struct rep_opts rc;
	bool csv;
	enum cmd_jobs emit_jobs;
	const char *out;
};

/* The files sweep writes in --out's directory, and its jobs: none may
 * be one the sweep reads (outfile_check_dir). */
static const char *const sweep_outputs[] = { "sweep.*", "sweep-rate.dat",
					     NULL };
static const char *const job_outputs[] = { "sweep-[0-9]*.csv", NULL };

/* Where an axis was given, as its errors begin: "FILE:LINE: vary: KEY"
 * for a [sweep]'s, "ppsim sweep: --set KEY" for the command line's. */
static void axis_said(const struct axis *a)
{
	if (a->file)
		fprintf(stderr, "%s:%d: vary: %s", a->file, a->line, a->key);
	else
		fprintf(stderr, "ppsim sweep: --set %s", a->key);
}

/* A key and its values, "V1,V2,...": none empty, none cut. */
static int add_axis(struct sweep_opts *o, const char *key, const char *values,
		    const char *file, int line)
{
	struct axis *a;
	const char *v = values;

	if (!*key || o->nr_axes == SWEEP_MAX_AXES) {
		fprintf(stderr, "ppsim sweep: --set %s=%s: expected KEY=V1,V2,... "
			"(at most %d keys)\n", key, values, SWEEP_MAX_AXES);
		return -1;
	}
	a = &o->axes[o->nr_axes++];
	memset(a, 0, sizeof(*a));
	/* global.duration is duration: one key, one spelling */
	if (!strncmp(key, "global.", 7))
		key += 7;
	snprintf(a->key, sizeof(a->key), "%.63s", key);
	a->file = file;
	a->line = line;
	do {
		size_t len, lead = strspn(v, " \t");

		/* blanks around a value are none of it: 'cost.xdp=1, 2' is
		 * 1 and 2, for the direct sweep and its jobs alike (the
		 * value's column said ' 2', the jobs' '2') */
		v += lead;
		len = strcspn(v, ",");
		while (len && (v[len - 1] == ' ' || v[len - 1] == '\t'))
			len--;
		if (a->nr_values == SWEEP_MAX_VALUES || !len ||
		    len >= sizeof(a->values[0])) {
			axis_said(a);
			if (!len)
				fprintf(stderr, ": an empty value in '%s'\n",
					values);
			else if (len >= sizeof(a->values[0]))
				fprintf(stderr, ": '%.*s': longer than %zu "
					"characters\n", (int)len, v,
					sizeof(a->values[0]) - 1);
			else
				fprintf(stderr, ": at most %d values\n",
					SWEEP_MAX_VALUES);
			return -1;
		}
		memcpy(a->values[a->nr_values++], v, len);
		v += strcspn(v, ",");
	} while (*v++ == ',');
	return 0;
}

/* Each key swept once, and not also fixed by --duration: the one given
 * last would win and the rows of the other carry values that never ran. */
static int distinct_keys(const struct sweep_opts *o)
{
	for (int n = 0; n < o->nr_axes; n++) {
		const struct axis *a = &o->axes[n];

		for (int m = 0; m < n; m++)
			if (!strcmp(o->axes[m].key, a->key)) {
				axis_said(a);
				fprintf(stderr, ": %s is swept twice: give "
					"its values once\n", a->key);
				return -1;
			}
		for (int f = 0; f < o->nr_fixed; f++)
			if (!strcmp(o->fixed[f].key, a->key)) {
				axis_said(a);
				fprintf(stderr, ": %s is swept and %s fixes it: "
					"give one\n", a->key, o->fixed[f].file);
				return -1;
			}
	}
	return 0;
}

/* Whether two values of an axis are one: the same text, or the same number
 * for a numeric key (14ns and 0.014us), read as c would read them.  A
 * point given twice would be simulated twice and make two rows merge and
 * compare refuse as one point. */
static int distinct_values(const struct sweep_opts *o,
			   const struct scn_case *c)
{
	for (int n = 0; n < o->nr_axes; n++) {
		const struct axis *a = &o->axes[n];
		double x[SWEEP_MAX_VALUES];
		bool num[SWEEP_MAX_VALUES];

		for (int i = 0; i < a->nr_values; i++) {
			num[i] = false;
			if (c && scn_key_numeric(a->key)) {
				struct scn_case tmp = *c;
				char why[256];

				num[i] = !scn_case_set(&tmp, a->key,
						       a->values[i], why,
						       sizeof(why)) &&
					 !scn_case_get(&tmp, a->key, &x[i]);
			}
			for (int j = 0; j < i; j++) {
				if (strcmp(a->values[i], a->values[j]) &&
				    !(num[i] && num[j] && fabs(x[i] - x[j]) <=
				      1e-9 * fmax(fabs(x[i]), fabs(x[j]))))
					continue;
				axis_said(a);
				fprintf(stderr, ": '%s' and '%s' are one value: "
					"each point once\n", a->values[j],
					a->values[i]);
				return -1;
			}
		}
	}
	return 0;
}

/* Returns 0, 1 after --help, or -1 (said on stderr). */
static int parse_opts(int argc, char **argv, struct sweep_opts *o)
{
	struct cmd_opts cl;
	int help = cmd_parse(argc, argv, cmd_spec("sweep"), &cl);

	if (help)
		return help;
	*o = (struct sweep_opts){ .file = cl.file,
		.name = cl.nr_args > 1 ? cl.args[1] : NULL, .cl = cl,
		.rc = cl.rc, .csv = cl.format == CMD_CSV,
		.emit_jobs = cl.emit_jobs, .out = cl.out };
	for (int i = 0; i < cl.nr_set; i++) {
		if (cl.set[i].file)	/* --duration */
			o->fixed[o->nr_fixed++] = cl.set[i];
		else if (add_axis(o, cl.set[i].key, cl.set[i].value, NULL, 0))
			return -1;
	}
	return 0;
}

/* The axes of [sweep NAME] come first, the command line's after. */
static int take_named(struct sweep_opts *o, const struct scenario *scn)
{
	struct axis cli[SWEEP_MAX_AXES];
	int nr_cli = o->nr_axes;
	char buf[SCN_TEXT_MAX], *save = NULL;
	const struct scn_sweep *sw = NULL;

	for (int i = 0; i < scn->nr_sweeps; i++)
		if (!strcmp(scn->sweeps[i].name, o->name))
			sw = &scn->sweeps[i];
	if (!sw) {
		fprintf(stderr, "ppsim sweep: %s has no [sweep %s]", o->file,
			o->name);
		for (int i = 0; i < scn->nr_sweeps; i++)
			fprintf(stderr, "%s%s", i ? ", " : "; it has: ",
				scn->sweeps[i].name);
		fputc('\n', stderr);
		return -1;
	}
	memcpy(cli, o->axes, sizeof(cli));
	o->nr_axes = 0;
	snprintf(buf, sizeof(buf), "%s", sw->vary);
	for (char *t = strtok_r(buf, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(t, '=');

		if (!eq) {
			fprintf(stderr, "%s:%d: vary: '%s': expected "
				"KEY=V1,V2,...\n", sw->file, sw->line, t);
			return -1;
		}
		*eq = '\0';
		if (add_axis(o, t, eq + 1, sw->file, sw->line))
			return -1;
	}
	for (int i = 0; i < nr_cli; i++) {
		if (o->nr_axes == SWEEP_MAX_AXES)
			return -1;
		o->axes[o->nr_axes++] = cli[i];
	}
	snprintf(o->cases, sizeof(o->cases), "%s", sw->cases);
	return 0;
}

static bool wanted(const char *name, const struct cmd_opts *cl,
		   const char *list)
{
	char buf[SCN_TEXT_MAX], *save = NULL;

	if (cl->nr_cases)
		return cmd_wants_case(cl, name);
	if (!list || !*list)
		return true;
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save))
		if (!strcmp(t, name))
			return true;
	return false;
}

/* The index-th point of the cross product: one value of every axis,
 * then the overrides every point has (--duration). */
static void point_values(const struct sweep_opts *o, int index,
			 struct scn_override *set)
{
	memcpy(set + o->nr_axes, o->fixed, (size_t)o->nr_fixed * sizeof(*set));
	for (int a = o->nr_axes - 1; a >= 0; a--) {
		set[a] = (struct scn_override){ .key = o->axes[a].key,
			.value = o->axes[a].values[index % o->axes[a].nr_values],
			.file = o->axes[a].file, .line = o->axes[a].line };
		index /= o->axes[a].nr_values;
	}
}

/* s as one word of sh: in single quotes, each ' as '\'' (nothing inside
 * single quotes is special to sh: no $(...), no `...`).  A control
 * character is no part of a job: a newline inside the quotes still ends
 * the line GNU parallel reads as a job, and the rest would run as a
 * command of its own; s is copied into bad then, unless a word is there
 * already (emit_jobs refuses it), cut at SWEEP_BAD_MAX bytes: room for
 * the longest word, a job's --out path. */
#define SWEEP_BAD_MAX 4096

static void shell_word(FILE *f, const char *s, char *bad)
{
	fputc('\'', f);
	for (const char *p = s; *p; p++) {
		unsigned char ch = (unsigned char)*p;

		if ((ch < 0x20 || ch == 0x7f) && !*bad)
			snprintf(bad, SWEEP_BAD_MAX, "%s", s);
		if (ch == '\'')
			fputs("'\\''", f);
		else
			fputc(ch, f);
	}
	fputc('\'', f);
}

/* One job: this binary on one point (and one case, or the --case list),
 * its CSV into sweep-NNN.csv.  Every word the user gave is quoted, and
 * checked (shell_word). */
static void emit_job(FILE *f, const struct sweep_opts *o, const char *self,
		     const struct scn_override *set, const char *one_case,
		     int nr, char *bad)
{
	char out[4096], file[PATH_MAX];

	/* the scenario by its full path: a batch system's job may start in
	 * another directory; one found in the data directory is found there
	 * again */
	if (!realpath(o->file, file))
		snprintf(file, sizeof(file), "%s", o->file);
	shell_word(f, self, bad);
	fputs(" sweep ", f);
	shell_word(f, file, bad);
	for (int a = 0; a < o->nr_axes; a++) {
		char kv[256];

		snprintf(kv, sizeof(kv), "%s=%s", set[a].key, set[a].value);
		fputs(" --set ", f);
		shell_word(f, kv, bad);
	}
	for (int i = 0; i < o->nr_fixed; i++) {	/* "--duration" */
		fprintf(f, " %s ", o->fixed[i].file);
		shell_word(f, o->fixed[i].value, bad);
	}
	for (int i = 0; i < (one_case ? 1 : o->cl.nr_cases); i++) {
		fputs(" --case ", f);
		shell_word(f, one_case ? one_case : o->cl.cases[i], bad);
	}
	for (int i = 0; i < o->cl.nr_policies; i++) {
		fputs(" --policy ", f);
		shell_word(f, o->cl.policies[i], bad);
	}
	fprintf(f, " --reps %d --seed %lu --format csv > ", o->rc.reps,
		o->rc.seed);
	snprintf(out, sizeof(out), "%.4000s%ssweep-%03d.csv",
		 o->out ? o->out : "", o->out ? "/" : "", nr);
	shell_word(f, out, bad);
}

/* A Slurm job array's head: one task a job, N tasks. */
static void slurm_head(FILE *f, int nr_jobs)
{
	fprintf(f, "#!/bin/sh\n"
		"# A ppsim sweep as a Slurm job array (ppsim sweep "
		"--emit-jobs=slurm):\n"
		"# task N runs job N, one point of the sweep, into "
		"sweep-NNN.csv.  Submit with\n"
		"# sbatch; when every task is done, join them in order:\n"
		"#   ppsim merge sweep-*.csv >sweep.csv\n"
		"#SBATCH --job-name=ppsim-sweep\n"
		"#SBATCH --array=1-%d\n"
		"#SBATCH --ntasks=1\n"
		"#SBATCH --cpus-per-task=1\n"
		"set -eu\n"
		"case \"${SLURM_ARRAY_TASK_ID:?not a task of a job array}\" "
		"in\n", nr_jobs);
}

/*
 * The sweep as jobs that give what it gives: one a point, run by this
 * binary, with the same cases (a named sweep's 'cases =' become one job
 * a case, in the sweep's row order), reps and seed; every value checked
 * first (build_points) and passed to sh as a quoted word.  As lines for
 * GNU parallel, or as the cases of a Slurm job array's script.
 */
static int emit_jobs(const struct sweep_opts *o,
		     const struct sweep_point *pts, int nr_points,
		     const struct rep_row *rows)
{
	bool slurm = o->emit_jobs == CMD_JOBS_SLURM;
	char self[PATH_MAX], *text = NULL, bad[SWEEP_BAD_MAX] = "";
	int nr = 0, total = 0;
	size_t len = 0;
	FILE *f;

	if (!realpath("/proc/self/exe", self))
		snprintf(self, sizeof(self), "ppsim");
	/* the whole text first: nothing is printed unless every job is
	 * one line */
	f = open_memstream(&text, &len);
	if (!f) {
		fprintf(stderr, "ppsim sweep: out of memory\n");
		return 1;
	}
	for (int pass = slurm ? 0 : 1; pass < 2; pass++) {
		if (pass == 1 && slurm)
			slurm_head(f, total);
		for (int p = 0; p < nr_points; p++) {
			struct scn_override set[SWEEP_MAX_AXES + CMD_MAX_SET];
			int first = pts[p].first_row;

			point_values(o, p, set);
			for (int r = first; r < first + pts[p].nr_rows; r++) {
				bool whole = o->cl.nr_cases || !*o->cases;

				/* one job a point, or a case of a point */
				if (whole ? r != first :
				    r != first && rows[r - 1].c == rows[r].c)
					continue;
				if (!pass) {
					total++;
					continue;
				}
				if (slurm)
					fprintf(f, "%d) ", ++nr);
				emit_job(f, o, self, set, whole ? NULL :
					 rows[r].c->name, slurm ? nr : ++nr,
					 bad);
				fputs(slurm ? " ;;\n" : "\n", f);
			}
		}
	}
	if (slurm)
		fprintf(f, "*) echo \"no task $SLURM_ARRAY_TASK_ID: 1 to %d\" "
			">&2; exit 2 ;;\nesac\n", total);
	if (fclose(f)) {
		fprintf(stderr, "ppsim sweep: out of memory\n");
		free(text);
		return 1;
	}
	if (*bad) {
		fprintf(stderr, "ppsim sweep: --emit-jobs: '");
		datadir_put_line_text(stderr, bad);
		fprintf(stderr, "': a control character cannot travel on a "
			"job's line (a newline would end the job there, and "
			"what follows would run as a command); rename it\n");
		free(text);
		return 2;
	}
	fwrite(text, 1, len, stdout);
	free(text);
	return 0;
}

/* The measured figure of case c (of a point) under policy pol where the
 * scenario measured it: every swept key at the value the scenario itself
 * gives the case (base), else NAN.  A figure measured at one ring size is
 * no error bar for another; at another duration (warmup, sample) it is the
 * same figure, which is what sweeping duration checks. */
static double measured_here(const struct sweep_opts *o,
			    const struct scenario *base,
			    const struct scn_case *c,
			    const struct pp_policy *pol)
{
	for (int i = 0; base && i < base->nr_cases; i++) {
		if (strcmp(base->cases[i].name, c->name))
			continue;
		for (int a = 0; a < o->nr_axes; a++) {
			double v, x;

			if (scn_key_measures(o->axes[a].key))
				continue;
			if (scn_case_get(&base->cases[i], o->axes[a].key, &v) ||
			    scn_case_get(c, o->axes[a].key, &x) ||
			    fabs(v - x) > 1e-9 * fabs(v))
				return NAN;
		}
		return rep_measured(c, pol);
	}
	return NAN;
}

/* The rate against the first key, one line per case, policy and value of
 * the other keys: one data block per line, as gnuplot's index reads; the
 * line in its policy's colour, with the measured figure where the
 * scenario was measured. */
/* What ran, as report/sweep.h has it. */
static struct sweep_result result_of(const struct sweep_opts *o,
				     const struct sweep_point *pts,
				     int nr_points, const struct rep_row *rows)
{
	struct sweep_result s = { .file = o->file, .nr_axes = o->nr_axes,
				  .fixed = o->fixed, .nr_fixed = o->nr_fixed,
				  .rc = &o->rc, .pts = pts,
				  .nr_points = nr_points, .rows = rows };

	for (int a = 0; a < o->nr_axes; a++)
		s.key[a] = o->axes[a].key;
	return s;
}

/* The rate against the first key, one line per case, policy and value of
 * the other keys (sweep_write_rates), each line in its policy's colour,
 * with the measured figure where the scenario was measured. */
static int write_plot(const struct sweep_opts *o,
		      const struct sweep_point *pts, int nr_points,
		      const struct rep_row *rows)
{
	char path[4096], title[512], out[4096];
	char xlabel[128], reps[16], machine[64];
	int nr_rows = pts[nr_points - 1].first_row + pts[nr_points - 1].nr_rows;
	bool measured;
	/* every series name, one a line: names cannot hold a newline */
	size_t cap = (size_t)nr_rows * (256 + 1) + 1;
	char *series = calloc(1, cap), *colours = calloc(1, (size_t)nr_rows * 8 + 1);
	struct rep_prov prov = { "sweep", o->file, &o->rc, NULL, 0,
		cmd_machine(pts[0].scn, machine, sizeof(machine)) };
	struct sweep_result s = result_of(o, pts, nr_points, rows);
	const char *more[6], *unit = scn_key_unit(o->axes[0].key);
	struct outfile f;
	int rc = -1;

	snprintf(path, sizeof(path), "%.2000s/sweep-rate.dat", o->out);
	if (!series || !colours || !outfile_open(&f, path, "", "ppsim sweep"))
		goto done;
	measured = sweep_write_rates(f.f, &s, series, cap, colours);
	if (outfile_commit(&f, "ppsim sweep"))
		goto done;
	rc = 0;
	if (!plot_available())
		goto done;
	rep_plot_title(rows, nr_rows, &prov, title, sizeof(title));
	snprintf(xlabel, sizeof(xlabel), "%s%s%s%s", o->axes[0].key,
		 unit && *unit ? " (" : "", unit && *unit ? unit : "",
		 unit && *unit ? ")" : "");
	snprintf(reps, sizeof(reps), "%d", o->rc.reps);
	snprintf(out, sizeof(out), "%.4000s/sweep", o->out);
	more[0] = series;
	more[1] = xlabel;
	more[2] = rep_rate_label(rows, nr_rows);
	more[3] = colours;
	more[4] = reps;
	more[5] = measured ? "measured" : "";
	rc = plot_draw("sweep.gp", path, out, title, more, 6);
done:
	free(series);
	free(colours);
	return rc;
}

static int write_out(const struct sweep_opts *o,
		     const struct sweep_point *pts, int nr_points,
		     const struct rep_row *rows)
{
	char path[4096];
	struct outfile f;
	struct sweep_result s = result_of(o, pts, nr_points, rows);

	snprintf(path, sizeof(path), "%.2000s/sweep.csv", o->out);
	if (!outfile_open(&f, path, "", "ppsim sweep"))
		return -1;
	sweep_write_csv(f.f, &s);
	if (outfile_commit(&f, "ppsim sweep"))
		return -1;
	return write_plot(o, pts, nr_points, rows);
}

/* Loads every point's scenario and lays out its rows. */
static int build_points(struct sweep_opts *o, struct sweep_point *pts,
			int nr_points,
			struct rep_row *rows, int *nr_rows)
{
	char buf[SCN_TEXT_MAX], *save = NULL;
	const char *only[SCN_MAX_CASES];
	int nr_only = 0, rc = -1;
	/* the scenario as written: where its figures were measured */
	struct scenario *base = scn_load(o->file, NULL, 0, cmd_policies);

	if (distinct_values(o, base ? &base->cases[0] : NULL))
		goto done;

	/* the values apply to the cases swept alone: --case, or the
	 * [sweep NAME]'s cases */
	if (o->cl.nr_cases) {
		for (int i = 0; i < o->cl.nr_cases && i < SCN_MAX_CASES; i++)
			only[nr_only++] = o->cl.cases[i];
	} else {
		snprintf(buf, sizeof(buf), "%s", o->cases);
		for (char *t = strtok_r(buf, " \t,", &save);
		     t && nr_only < SCN_MAX_CASES;
		     t = strtok_r(NULL, " \t,", &save))
			only[nr_only++] = t;
	}
	*nr_rows = 0;
	for (int p = 0; p < nr_points; p++) {
		struct scn_override set[SWEEP_MAX_AXES + CMD_MAX_SET];
		struct sweep_point *pt = &pts[p];

		point_values(o, p, set);
		pt->scn = scn_load_cases(o->file, set,
					 o->nr_axes + o->nr_fixed,
					 cmd_policies, only, nr_only);
		if (!pt->scn)
			goto done;
		pt->prefix[0] = '\0';
		for (int a = 0; a < o->nr_axes; a++) {
			snprintf(pt->prefix + strlen(pt->prefix),
				 sizeof(pt->prefix) - strlen(pt->prefix),
				 "%s,", set[a].value);
			pt->value[a] = set[a].value;
		}
		pt->first_row = *nr_rows;
		for (int i = 0; i < pt->scn->nr_cases; i++) {
			struct scn_case *c = &pt->scn->cases[i];

			if (!wanted(c->name, &o->cl, o->cases))
				continue;
			if (scn_case_get(c, o->axes[0].key, &pt->x))
				pt->x = p;	/* not numeric: the index */
			for (int k = 0; k < c->nr_policies; k++) {
				if (!cmd_wants_policy(&o->cl,
						      c->policies[k]->name))
					continue;
				if (*nr_rows == SWEEP_MAX_RUNS) {
					fprintf(stderr, "ppsim sweep: more than "
						"%d runs a replication: fewer "
						"values, cases or policies\n",
						SWEEP_MAX_RUNS);
					goto done;
				}
				rows[(*nr_rows)++] = cmd_row(c,
					c->policies[k],
					measured_here(o, base, c,
						      c->policies[k]));
			}
		}
		pt->nr_rows = *nr_rows - pt->first_row;
	}
	if (!*nr_rows)
		fprintf(stderr, "ppsim sweep: %s: no case matches\n", o->file);
	else
		rc = 0;
done:
	if (base)
		scn_free(base);
	return rc;
}

int sweep_main(int argc, char **argv)
{
	int help;
	struct rep_row *rows = NULL;
	struct sweep_point *pts = NULL;
	struct sweep_opts o;
	struct scenario *named = NULL;	/* of [sweep NAME] */
	int nr_points = 1, nr_rows = 0, status = 2;
	char out_path[PATH_MAX];
	struct sweep_result result;

	gsl_set_error_handler_off();
	if ((help = parse_opts(argc, argv, &o)))
		return help > 0 ? 0 : 2;
	/* kept to the end: its axes' errors name its file */
	if (o.name && (!(named = scn_load(o.file, NULL, 0, cmd_policies)) ||
		       take_named(&o, named)))
		goto done;
	if (!o.nr_axes) {
		/* the file's sweeps named (its own errors said first) */
		named = scn_load(o.file, NULL, 0, cmd_policies);
		fprintf(stderr, "ppsim sweep: nothing varies: give --set "
			"KEY=V1,V2 or a [sweep NAME]");
		for (int i = 0; named && i < named->nr_sweeps; i++)
			fprintf(stderr, "%s%s", i ? ", " : "; it has: ",
				named->sweeps[i].name);
		fputc('\n', stderr);
		goto done;
	}
	if (distinct_keys(&o))
		goto done;
	for (int a = 0; a < o.nr_axes; a++)
		nr_points *= o.axes[a].nr_values;
	if (nr_points > SWEEP_MAX_POINTS) {
		fprintf(stderr, "ppsim sweep: %d points: at most %d\n",
			nr_points, SWEEP_MAX_POINTS);
		goto done;
	}
	pts = calloc((size_t)nr_points, sizeof(*pts));
	rows = calloc(SWEEP_MAX_RUNS, sizeof(*rows));
	if (!pts || !rows) {
		fprintf(stderr, "ppsim sweep: out of memory\n");
		status = 1;
		goto done;
	}
	/* every point loaded and checked, for the jobs too */
	if (build_points(&o, pts, nr_points, rows, &nr_rows) ||
	    cmd_check_names(&o.cl, &pts[0].scn, 1))
		goto done;
	/* a bad --out is found now, not after the simulations; with every
	 * file read, none of which it may replace */
	if (o.out && outfile_check_dir(o.out, "ppsim sweep: --out",
				       o.emit_jobs ? job_outputs :
				       sweep_outputs, false))
		goto done;
	/* the jobs write where the user asked, wherever they run */
	if (o.out && o.emit_jobs) {
		if (!realpath(o.out, out_path)) {
			fprintf(stderr, "ppsim sweep: --out %s: %s\n", o.out,
				strerror(errno));
			goto done;
		}
		o.out = out_path;
	}
	cmd_warn_calibration(pts[0].scn, o.file);
	if (o.emit_jobs) {
		status = emit_jobs(&o, pts, nr_points, rows);
		goto done;
	}
	status = 1;
	if (cmd_run_rows(rows, nr_rows, &o.rc, o.file))
		goto done;
	result = result_of(&o, pts, nr_points, rows);
	if (o.csv)
		sweep_write_csv(stdout, &result);
	else
		sweep_write_table(stdout, &result);
	status = o.out && write_out(&o, pts, nr_points, rows) ? 1 : 0;
done:
	cmd_free_results(rows, nr_rows);
	for (int p = 0; p < nr_points && pts; p++)
		scn_free(pts[p].scn);
	free(pts);
	free(rows);
	scn_free(named);
	if (status)	/* a failed sweep leaves no empty --out */
		outfile_remove_made_dirs();
	return status;
}
