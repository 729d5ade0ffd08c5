/* ppsim sweep: its axes read, its points laid out and run (sweep.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "sweep.h"
#include "../report/outfile.h"

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
int sweep_add_axis(struct sweep_opts *o, const char *key, const char *values,
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
	/* the machine's name is text, commas and all (the shipped
	 * profiles' names have them): one value, never a sweep over
	 * names, which would title one machine's rows with another's */
	if (!strcmp(a->key, "machine.name")) {
		size_t len;

		if (file) {
			axis_said(a);
			fprintf(stderr, ": the machine's name is not swept: a "
				"scenario describes one machine\n");
			return -1;
		}
		v += strspn(v, " \t");
		len = strlen(v);
		while (len && (v[len - 1] == ' ' || v[len - 1] == '\t'))
			len--;
		if (!len || len >= sizeof(a->values[0])) {
			axis_said(a);
			fprintf(stderr, ": '%s': %s\n", values, len ?
				"longer than 63 characters" : "an empty value");
			return -1;
		}
		memcpy(a->values[a->nr_values++], v, len);
		return 0;
	}
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
		.json = cl.format == CMD_JSON,
		.emit_jobs = cl.emit_jobs, .task = cl.task,
		.slurm = cl.slurm, .out = cl.out };
	if (o->emit_jobs != CMD_JOBS_SLURM &&
	    (cl.slurm.chdir || cl.slurm.time || cl.slurm.mem ||
	     cl.slurm.cpus)) {
		fprintf(stderr, "ppsim sweep: --%s is the sbatch script's: "
			"give it with --emit-jobs=slurm\n", cl.slurm.chdir ?
			"chdir" : cl.slurm.time ? "time" : cl.slurm.mem ?
			"mem" : "cpus-per-task");
		return -1;
	}
	/* a job's rows go to its own file, for merge: CSV on stdout */
	if (o->task && (o->emit_jobs || o->out || !o->csv)) {
		fprintf(stderr, "ppsim sweep: --task writes one job's rows as "
			"CSV on standard output: give --format csv, without "
			"--out or --emit-jobs\n");
		return -1;
	}
	for (int i = 0; i < cl.nr_set; i++) {
		if (cl.set[i].file)	/* --duration */
			o->fixed[o->nr_fixed++] = cl.set[i];
		else if (sweep_add_axis(o, cl.set[i].key, cl.set[i].value, NULL, 0))
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
		if (sweep_add_axis(o, t, eq + 1, sw->file, sw->line))
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
	const struct scn_case *own = base ? scn_case_named(base, c->name) :
				     NULL;

	if (!own)
		return NAN;
	for (int a = 0; a < o->nr_axes; a++) {
		double v, x;

		if (scn_key_measures(o->axes[a].key))
			continue;
		if (scn_case_get(own, o->axes[a].key, &v) ||
		    scn_case_get(c, o->axes[a].key, &x) ||
		    fabs(v - x) > 1e-9 * fabs(v))
			return NAN;
	}
	return rep_measured(c, pol);
}

struct sweep_result sweep_result_of(const struct sweep_opts *o,
				    const struct sweep_point *pts,
				    int nr_points, const struct rep_row *rows,
				    const struct rep_figure *figs)
{
	struct sweep_result s = { .file = o->file, .nr_axes = o->nr_axes,
				  .fixed = o->fixed, .nr_fixed = o->nr_fixed,
				  .rc = &o->rc, .pts = pts,
				  .nr_points = nr_points, .rows = rows,
				  .figs = figs, .first_row = o->first_row,
				  .end_row = o->end_row };

	for (int a = 0; a < o->nr_axes; a++)
		s.key[a] = o->axes[a].key;
	return s;
}

static int write_out(const struct sweep_opts *o, const struct sweep_point *pts,
		     int nr_points, const struct rep_row *rows)
{
	char path[4096];
	struct outfile f;
	struct sweep_result s = sweep_result_of(o, pts, nr_points, rows, NULL);
	int status = -1;

	/* the CSV and the plot replaced together, or neither (run's
	 * --out) */
	outfile_group_begin();
	snprintf(path, sizeof(path), "%.2000s/sweep.csv", o->out);
	if (outfile_open(&f, path, "", "ppsim sweep")) {
		sweep_write_csv(f.f, &s);
		/* the plot from the CSV, as ppsim merge --out draws the
		 * jobs' */
		if (!outfile_commit(&f, "ppsim sweep"))
			status = sweep_plot_csv(path, o->file, o->out);
	}
	if (outfile_group_end(!status, "ppsim sweep") == -1) {
		fprintf(stderr, "ppsim sweep: --out %s: no file written there "
			"(those of an earlier sweep are as they were)\n",
			o->out);
		return -1;
	}
	return status;
}

/* Where a value that is not a number stands on the plot's x axis: its
 * place among the axis's values (the plot names it there). */
static int value_index(const struct axis *a, const char *v)
{
	for (int i = 0; i < a->nr_values; i++)
		if (!strcmp(a->values[i], v))
			return i;
	return 0;
}

int sweep_build_points(struct sweep_opts *o, struct sweep_point *pts,
		       int nr_points, struct rep_row *rows, int *nr_rows)
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
		/* each point's own: a swept cpu.family borrows costs at
		 * some points only */
		pt->nr_guesses = scn_write_guesses(NULL, pt->scn);
		pt->uncalibrated = scn_uncalibrated(pt->scn);
		if (!scn_costs_borrowed(pt->scn, pt->borrowed,
					sizeof(pt->borrowed)))
			pt->borrowed[0] = '\0';
		pt->prefix[0] = '\0';
		for (int a = 0; a < o->nr_axes; a++) {
			char field[sizeof(pt->prefix)];

			/* a CSV field: a value may hold a comma (a name) */
			rep_csv_field(field, sizeof(field), set[a].value);
			snprintf(pt->prefix + strlen(pt->prefix),
				 sizeof(pt->prefix) - strlen(pt->prefix),
				 "%s,", field);
			pt->value[a] = set[a].value;
		}
		pt->first_row = *nr_rows;
		for (int i = 0; i < pt->scn->nr_cases; i++) {
			struct scn_case *c = &pt->scn->cases[i];

			if (!wanted(c->name, &o->cl, o->cases))
				continue;
			if (scn_case_get(c, o->axes[0].key, &pt->x))
				pt->x = value_index(&o->axes[0], pt->value[0]);
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

/* The axes: [sweep NAME]'s (its scenario in *named, kept to the end:
 * its axes' errors name its file), then the command line's, each key
 * once.  Returns 0, or -1 said on stderr. */
static int take_axes(struct sweep_opts *o, struct scenario **named)
{
	if (o->name && (!(*named = scn_load(o->file, NULL, 0, cmd_policies)) ||
			take_named(o, *named)))
		return -1;
	if (!o->nr_axes) {
		/* the file's sweeps named (its own errors said first) */
		scn_free(*named);
		*named = scn_load(o->file, NULL, 0, cmd_policies);
		fprintf(stderr, "ppsim sweep: nothing varies: give --set "
			"KEY=V1,V2 or a [sweep NAME]");
		for (int i = 0; *named && i < (*named)->nr_sweeps; i++)
			fprintf(stderr, "%s%s", i ? ", " : "; it has: ",
				(*named)->sweeps[i].name);
		fputc('\n', stderr);
		return -1;
	}
	return distinct_keys(o);
}

/* A bad --out is found now, not after the simulations; with every file
 * read, none of which it may replace.  A Slurm script's is the
 * cluster's, which its tasks make: nothing of it is here.  GNU
 * parallel's jobs write where the user asked, wherever they run on this
 * host: o->out becomes its full path, in out_path. */
static int check_out(struct sweep_opts *o, char *out_path)
{
	if (o->out && o->emit_jobs != CMD_JOBS_SLURM &&
	    outfile_check_dir(o->out, "ppsim sweep: --out",
			      o->emit_jobs ? job_outputs : sweep_outputs,
			      false))
		return -1;
	if (o->out && o->emit_jobs == CMD_JOBS_PARALLEL) {
		if (!realpath(o->out, out_path)) {
			fprintf(stderr, "ppsim sweep: --out %s: %s\n", o->out,
				strerror(errno));
			return -1;
		}
		o->out = out_path;
	}
	return 0;
}

/* Runs every row, or --task's job's, and writes what ran: an exit
 * status. */
static int run_rows(struct sweep_opts *o, const struct sweep_point *pts,
		    int nr_points, struct rep_row *rows, int nr_rows)
{
	struct sweep_result result;

	o->first_row = 0;
	o->end_row = nr_rows;
	if (o->task) {
		int nr_tasks = sweep_task_rows(o, pts, nr_points, rows,
					       o->task, &o->first_row,
					       &o->end_row);

		if (o->task > nr_tasks) {
			fprintf(stderr, "ppsim sweep: --task %d: the sweep "
				"has %d job%s (1 to %d)\n", o->task, nr_tasks,
				nr_tasks == 1 ? "" : "s", nr_tasks);
			return 2;
		}
	}
	if (cmd_run_rows(rows + o->first_row, o->end_row - o->first_row,
			 &o->rc, o->file))
		return 1;
	result = sweep_result_of(o, pts, nr_points, rows, NULL);
	if (o->csv)
		sweep_write_csv(stdout, &result);
	else if (o->json)
		sweep_write_json(stdout, &result);
	else
		sweep_write_table(stdout, &result);
	return o->out && write_out(o, pts, nr_points, rows) ? 1 : 0;
}

int sweep_main(int argc, char **argv)
{
	struct rep_row *rows = NULL;
	struct sweep_point *pts = NULL;
	struct sweep_opts o;
	struct scenario *named = NULL;	/* of [sweep NAME] */
	int nr_points = 1, nr_rows = 0, status = 2, help;
	char out_path[PATH_MAX];

	gsl_set_error_handler_off();
	if ((help = parse_opts(argc, argv, &o)))
		return help > 0 ? 0 : 2;
	if (take_axes(&o, &named))
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
	if (sweep_build_points(&o, pts, nr_points, rows, &nr_rows) ||
	    cmd_check_names(&o.cl, &pts[0].scn, 1) ||
	    check_out(&o, out_path))
		goto done;
	cmd_warn_scenario(pts[0].scn, o.file);
	if (o.emit_jobs)
		status = sweep_emit_jobs(&o, pts, nr_points, rows);
	else
		status = run_rows(&o, pts, nr_points, rows, nr_rows);
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
