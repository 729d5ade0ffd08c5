#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "cmd.h"
#include "../input/csv.h"
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
	int task;			/* --task: its job alone; 0: all */
	struct cmd_slurm slurm;		/* --emit-jobs=slurm's */
	const char *out;
	/* the rows written: every point's, or --task's job's */
	int first_row, end_row;
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

/*
 * The sweep's jobs, as --emit-jobs prints them and --task runs one: one a
 * point, or one a case of a point for a named sweep's 'cases =', in the
 * sweep's row order, so that each job's rows are consecutive.  Returns
 * how many jobs there are; for task in 1..that, [*first, *end) are its
 * rows.
 */
static int task_rows(const struct sweep_opts *o, const struct sweep_point *pts,
		     int nr_points, const struct rep_row *rows, int task,
		     int *first, int *end)
{
	bool whole = o->cl.nr_cases || !*o->cases;
	int nr = 0;

	for (int p = 0; p < nr_points; p++) {
		int last = pts[p].first_row + pts[p].nr_rows;

		for (int r = pts[p].first_row; r < last;) {
			int e = whole ? last : r + 1;

			while (e < last && rows[e].c == rows[r].c)
				e++;
			if (++nr == task) {
				*first = r;
				*end = e;
			}
			r = e;
		}
	}
	return nr;
}

/* The binary a Slurm task runs: the one the user ran, as they named it
 * (argv[0]): a path as given, or a name the cluster's PATH finds. */
static void named_self(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';	/* argv[0] ends at its NUL */
	if (!strchr(buf, '/'))
		snprintf(buf, len, "ppsim");
}

/*
 * One job: the sweep's own words again (the scenario, [sweep NAME], the
 * command line's values, --duration, --case, --policy, reps and seed),
 * then --task and task, shell text of ours ("3", or "$task").  Every word
 * the user gave is quoted, and checked (shell_word).
 */
static void emit_job(FILE *f, const struct sweep_opts *o, const char *self,
		     const char *file, const char *task, char *bad)
{
	shell_word(f, self, bad);
	fputs(" sweep ", f);
	shell_word(f, file, bad);
	if (o->name) {
		fputc(' ', f);
		shell_word(f, o->name, bad);
	}
	for (int a = 0; a < o->nr_axes; a++) {
		char kv[64 + SWEEP_MAX_VALUES * 49];

		if (o->axes[a].file)	/* [sweep NAME]'s: NAME says them */
			continue;
		snprintf(kv, sizeof(kv), "%s=", o->axes[a].key);
		for (int v = 0; v < o->axes[a].nr_values; v++)
			snprintf(kv + strlen(kv), sizeof(kv) - strlen(kv),
				 "%s%s", v ? "," : "", o->axes[a].values[v]);
		fputs(" --set ", f);
		shell_word(f, kv, bad);
	}
	for (int i = 0; i < o->nr_fixed; i++) {	/* "--duration" */
		/* --policy's choice: its words below say it */
		if (!strcmp(o->fixed[i].file, "--policy"))
			continue;
		fprintf(f, " %s ", o->fixed[i].file);
		shell_word(f, o->fixed[i].value, bad);
	}
	for (int i = 0; i < o->cl.nr_cases; i++) {
		fputs(" --case ", f);
		shell_word(f, o->cl.cases[i], bad);
	}
	for (int i = 0; i < o->cl.nr_policies; i++) {
		fputs(" --policy ", f);
		shell_word(f, o->cl.policies[i], bad);
	}
	fprintf(f, " --reps %d --seed %lu --task %s --format csv", o->rc.reps,
		o->rc.seed, task);
}

/* What a Slurm task asks for, from the sweep's size: the largest task's
 * simulations ((case, policy) runs x replications), simulated seconds
 * (migration, warmup and duration of each) and a simulation's memory. */
struct task_size {
	int sims;
	double sim_s;		/* s simulated, summed */
	double longest_s;	/* s simulated by one simulation */
	double sim_mb;		/* MB one simulation takes */
};

/* The defaults' figures: 60 s of wall time a simulated second (the
 * slowest shipped case, 6 queues of XDP_TX, took 11 s a simulated second
 * on the 2 shared cores it was measured on), 5 minutes for the task's
 * start; a simulation's 64 MB and 128 B a modelled page (62 measured),
 * 128 MB for the task's own process; at most 4 CPUs a task, which any
 * cluster node has, so that a task does not wait for a large one. */
#define SLURM_WALL_PER_SIM_S	60
#define SLURM_START_S		300
#define SLURM_SIM_MB		64
#define SLURM_PAGE_B		128
#define SLURM_TASK_MB		128
#define SLURM_MAX_CPUS		4

static struct task_size task_size(const struct sweep_opts *o,
				  const struct rep_row *rows, int first,
				  int end)
{
	struct task_size sz = { (end - first) * o->rc.reps, 0, 0, 0 };

	for (int r = first; r < end; r++) {
		double at = 0, warmup = 0, duration = 0, pages = 0, nodes = 1;
		double one;

		scn_case_get(rows[r].c, "migrate_at", &at);
		scn_case_get(rows[r].c, "warmup", &warmup);
		scn_case_get(rows[r].c, "duration", &duration);
		scn_case_get(rows[r].c, "mem.pages", &pages);
		scn_case_get(rows[r].c, "cpu.sockets", &nodes);
		one = fmax(at, 0) + warmup + duration;
		sz.sim_s += one * o->rc.reps;
		sz.longest_s = fmax(sz.longest_s, one);
		sz.sim_mb = fmax(sz.sim_mb, SLURM_SIM_MB + pages * nodes *
				 SLURM_PAGE_B / (1 << 20));
	}
	return sz;
}

/*
 * A Slurm job array's script: its directives (each task's time, memory
 * and CPUs, given or derived from the largest task's size, said in a
 * comment), then task N running the sweep's job N on its CPUs, into
 * OUT/sweep-NNN.csv (made first; written whole or not at all).  Paths
 * stay as the user named them: relative ones are read from the tasks'
 * working directory, --chdir or else where sbatch runs, never this
 * host's.
 */
static void slurm_script(FILE *f, const struct sweep_opts *o,
			 const struct rep_row *rows, const struct sweep_point *pts,
			 int nr_points, int nr_tasks, char *bad)
{
	struct task_size big = { 0, 0, 0, 0 };
	char self[PATH_MAX], time[32], mem[32];
	int cpus, minutes;
	double wall;

	for (int k = 1; k <= nr_tasks; k++) {
		int first = 0, end = 0;
		struct task_size sz;

		task_rows(o, pts, nr_points, rows, k, &first, &end);
		sz = task_size(o, rows, first, end);
		big.sims = sz.sims > big.sims ? sz.sims : big.sims;
		big.sim_s = fmax(big.sim_s, sz.sim_s);
		big.longest_s = fmax(big.longest_s, sz.longest_s);
		big.sim_mb = fmax(big.sim_mb, sz.sim_mb);
	}
	cpus = o->slurm.cpus ? o->slurm.cpus : big.sims < SLURM_MAX_CPUS ?
	       big.sims : SLURM_MAX_CPUS;
	/* the CPUs share the simulations; none is shorter than its longest */
	wall = SLURM_START_S + SLURM_WALL_PER_SIM_S *
	       fmax(big.sim_s / cpus, big.longest_s);
	minutes = (int)ceil(wall / 60);
	if (minutes >= 24 * 60)
		snprintf(time, sizeof(time), "%d-%02d:%02d:00",
			 minutes / (24 * 60), minutes / 60 % 24, minutes % 60);
	else
		snprintf(time, sizeof(time), "%d:%02d:00", minutes / 60,
			 minutes % 60);
	snprintf(mem, sizeof(mem), "%dM",
		 (int)ceil(SLURM_TASK_MB + cpus * big.sim_mb));
	fprintf(f, "#!/bin/sh\n"
		"# A ppsim sweep as a Slurm job array (ppsim sweep "
		"--emit-jobs=slurm):\n"
		"# task N runs the sweep's job N (ppsim sweep ... --task N) "
		"into sweep-NNN.csv\n"
		"# of the output directory.  Submit with sbatch; when every "
		"task is done,\n"
		"# join them in order: ppsim merge OUT/sweep-*.csv "
		">sweep.csv\n"
		"# Paths are as given: relative ones are read from the "
		"tasks' working\n"
		"# directory (ppsim sweep --chdir, else where sbatch runs).\n"
		"# Each task asks for what the largest needs (%d simulations, "
		"%.3g s simulated,\n"
		"# the longest %.3g s), unless given: --cpus-per-task its "
		"simulations, at most %d;\n"
		"# --time %d min to start and %d s a simulated second, the "
		"CPUs sharing them;\n"
		"# --mem %d MB and, a CPU, %d MB and %d B a modelled page "
		"(mem.pages x sockets).\n"
		"#SBATCH --job-name=ppsim-sweep\n"
		"#SBATCH --array=1-%d\n"
		"#SBATCH --ntasks=1\n"
		"#SBATCH --cpus-per-task=%d\n"
		"#SBATCH --time=%s\n"
		"#SBATCH --mem=%s\n"
		"#SBATCH --output=ppsim-sweep-%%A_%%a.out\n"
		"set -eu\n"
		"task=${SLURM_ARRAY_TASK_ID:?not a task of a job array}\n"
		"case $task in\n"
		"''|0*|*[!0-9]*) echo \"no task '$task': 1 to %d\" >&2; "
		"exit 2 ;;\n"
		"esac\n"
		"[ \"$task\" -le %d ] || { echo \"no task $task: 1 to %d\" "
		">&2; exit 2; }\n",
		big.sims, big.sim_s, big.longest_s, SLURM_MAX_CPUS,
		SLURM_START_S / 60, SLURM_WALL_PER_SIM_S, SLURM_TASK_MB,
		SLURM_SIM_MB, SLURM_PAGE_B, nr_tasks, cpus,
		o->slurm.time ? o->slurm.time : time,
		o->slurm.mem ? o->slurm.mem : mem, nr_tasks, nr_tasks,
		nr_tasks);
	if (o->slurm.chdir) {
		fputs("cd -- ", f);
		shell_word(f, o->slurm.chdir, bad);
		fputc('\n', f);
	}
	if (o->out) {
		fputs("out=", f);
		shell_word(f, o->out, bad);
		fputs("\nmkdir -p -- \"$out\"\n"
		      "csv=$out/sweep-$(printf %03d \"$task\").csv\n", f);
	} else {
		fputs("csv=sweep-$(printf %03d \"$task\").csv\n", f);
	}
	named_self(self, sizeof(self));
	emit_job(f, o, self, o->file,
		 "\"$task\" -j \"${SLURM_CPUS_PER_TASK:-1}\"", bad);
	/* a failed task leaves no CSV: merge says which is missing */
	fputs(" >\"$csv.part\"\nmv -- \"$csv.part\" \"$csv\"\n", f);
}

/*
 * The sweep as jobs that give what it gives (task_rows): each the sweep
 * again with --task, so that each job's CSV carries the whole sweep's
 * provenance; every value checked first (build_points) and passed to sh
 * as a quoted word.  As lines for GNU parallel, run here (this binary
 * and the files by their full paths), or as a Slurm job array's script.
 */
static int emit_jobs(const struct sweep_opts *o, const struct sweep_point *pts,
		     int nr_points, const struct rep_row *rows)
{
	char self[PATH_MAX], file[PATH_MAX], *text = NULL;
	char bad[SWEEP_BAD_MAX] = "";
	int nr_tasks = task_rows(o, pts, nr_points, rows, 0, NULL, NULL);
	size_t len = 0;
	FILE *f;

	/* the whole text first: nothing is printed unless every job is
	 * one line */
	f = open_memstream(&text, &len);
	if (!f) {
		fprintf(stderr, "ppsim sweep: out of memory\n");
		return 1;
	}
	if (o->emit_jobs == CMD_JOBS_SLURM) {
		slurm_script(f, o, rows, pts, nr_points, nr_tasks, bad);
	} else {
		if (!realpath("/proc/self/exe", self))
			snprintf(self, sizeof(self), "ppsim");
		/* a job may start in another directory; one found in the
		 * data directory is found there again */
		if (!realpath(o->file, file))
			snprintf(file, sizeof(file), "%s", o->file);
		for (int k = 1; k <= nr_tasks; k++) {
			char task[16], out[4096];

			snprintf(task, sizeof(task), "%d", k);
			emit_job(f, o, self, file, task, bad);
			fputs(" > ", f);
			snprintf(out, sizeof(out), "%.4000s%ssweep-%03d.csv",
				 o->out ? o->out : "", o->out ? "/" : "", k);
			shell_word(f, out, bad);
			fputc('\n', f);
		}
	}
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

/* What ran, as report/sweep.h has it: every row, each rate from its
 * replications (figs NULL) or as a CSV gave it. */
static struct sweep_result result_of(const struct sweep_opts *o,
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

/* The rate against the first key, one line per case, policy and value of
 * the other keys (sweep_write_rates), each line in its policy's colour,
 * with the measured figure where the scenario was measured; figs: each
 * row's rate. */
static int write_plot(const struct sweep_opts *o,
		      const struct sweep_point *pts, int nr_points,
		      const struct rep_row *rows, const struct rep_figure *figs)
{
	char path[4096], title[512], out[4096];
	char xlabel[128], reps[16], machine[64];
	int nr_rows = pts[nr_points - 1].first_row + pts[nr_points - 1].nr_rows;
	bool measured;
	/* every series name, one a line: names cannot hold a newline */
	size_t cap = (size_t)nr_rows * (256 + 1) + 1;
	char *series = calloc(1, cap), *colours = calloc(1, (size_t)nr_rows * 8 + 1);
	struct rep_prov prov = { "sweep", o->file, &o->rc, NULL, 0,
		cmd_machine(pts[0].scn, machine, sizeof(machine)),
		scn_write_guesses(NULL, pts[0].scn),
		scn_uncalibrated_profile(pts[0].scn) != NULL };
	struct sweep_result s = result_of(o, pts, nr_points, rows, figs);
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

static int write_out(const struct sweep_opts *o, const struct sweep_point *pts,
		     int nr_points, const struct rep_row *rows)
{
	char path[4096];
	struct outfile f;
	struct sweep_result s = result_of(o, pts, nr_points, rows, NULL);

	snprintf(path, sizeof(path), "%.2000s/sweep.csv", o->out);
	if (!outfile_open(&f, path, "", "ppsim sweep"))
		return -1;
	sweep_write_csv(f.f, &s);
	if (outfile_commit(&f, "ppsim sweep"))
		return -1;
	/* from the CSV, as ppsim merge --out plots the jobs' */
	return sweep_plot_csv(path, o->file, o->out);
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

/* A sweep's CSV read back for its plot: the swept keys, their values in
 * the order met (the cross product's), and each run's rate. */
struct csv_sweep {
	char keys[SWEEP_MAX_AXES][64];
	char values[SWEEP_MAX_AXES][SWEEP_MAX_VALUES * 49];	/* V1,V2 */
	int nr_values[SWEEP_MAX_AXES], nr_axes;
	char names[2][CMD_MAX_NAMES][SCN_NAME_MAX];	/* cases, policies */
	int nr_names[2];
	char file[PATH_MAX], fixed[CSV_LINE_MAX + 2];
	unsigned long seed;
	int reps;
	char *run[SWEEP_MAX_RUNS];	/* "V1,V2,...,case,policy" */
	struct rep_figure fig[SWEEP_MAX_RUNS];
	int nr_runs;
};

/* Notes name among names (a case, a policy) if it is not there. */
static void note_name(char names[][SCN_NAME_MAX], int *nr, const char *name)
{
	for (int i = 0; i < *nr; i++)
		if (!strcmp(names[i], name))
			return;
	if (*nr < CMD_MAX_NAMES)
		snprintf(names[(*nr)++], SCN_NAME_MAX, "%s", name);
}

/* Notes a value of axis a if it is new. */
static void note_value(struct csv_sweep *cs, int a, const char *v)
{
	char *list = cs->values[a];
	size_t n = strlen(v);

	for (const char *p = list; *p; p += strcspn(p, ",") + !!p[strcspn(p, ",")])
		if (strcspn(p, ",") == n && !strncmp(p, v, n))
			return;
	if (cs->nr_values[a]++ < SWEEP_MAX_VALUES)
		snprintf(list + strlen(list), sizeof(cs->values[a]) -
			 strlen(list), "%s%s", *list ? "," : "", v);
}

/* Reads a sweep's CSV (checked by merge, or just written) into cs.
 * Returns 0, or -1 said on stderr. */
static int read_sweep_csv(const char *path, struct csv_sweep *cs)
{
	char line[CSV_LINE_MAX + 2], key[CSV_LINE_MAX + 2], *f[64];
	FILE *in = fopen(path, "r");
	int nr = 0, rc, k = -1;

	if (!in) {
		fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
		return -1;
	}
	while ((rc = csv_getline(path, in, line, &nr)) > 0) {
		int n;

		if (k < 0 && line[0] == '#') {
			const char *at = strstr(line, "  sweep ");

			if (nr == 1 && at)
				snprintf(cs->file, sizeof(cs->file), "%s",
					 at + 8);
			if (nr == 2)
				sscanf(line, "# seed %lu  reps %d", &cs->seed,
				       &cs->reps);
			if (nr == 2 && (at = strstr(line, "  set ")))
				snprintf(cs->fixed, sizeof(cs->fixed), "%s",
					 at + 6);
			continue;
		}
		n = csv_split(line, f, 64);
		if (k < 0) {	/* the header: the swept keys, then 9 */
			k = n - 9;
			for (int a = 0; a < k && a < SWEEP_MAX_AXES; a++)
				snprintf(cs->keys[a], sizeof(cs->keys[a]),
					 "%s", f[a]);
			cs->nr_axes = k;
			continue;
		}
		if (n != k + 9 || strcmp(f[k + 2], "rate"))
			continue;
		if (cs->nr_runs == SWEEP_MAX_RUNS)
			break;
		for (int a = 0; a < k && a < SWEEP_MAX_AXES; a++)
			note_value(cs, a, f[a]);
		note_name(cs->names[0], &cs->nr_names[0], f[k]);
		note_name(cs->names[1], &cs->nr_names[1], f[k + 1]);
		cs->fig[cs->nr_runs] = (struct rep_figure){ strtod(f[k + 4],
			NULL), *f[k + 5] ? strtod(f[k + 5], NULL) : NAN };
		/* the key the points' prefixes make: values, case, policy */
		key[0] = '\0';
		for (int i = 0; i < k + 2; i++)
			snprintf(key + strlen(key), sizeof(key) - strlen(key),
				 "%s%s", i ? "," : "", f[i]);
		if (!(cs->run[cs->nr_runs++] = strdup(key))) {
			rc = -1;
			fprintf(stderr, "ppsim: out of memory\n");
			break;
		}
	}
	fclose(in);
	if (!rc && (k < 1 || k > SWEEP_MAX_AXES)) {
		fprintf(stderr, "%s: not a sweep's CSV: no swept key\n", path);
		rc = -1;
	}
	return rc;
}

int sweep_plot_csv(const char *csv, const char *scenario, const char *dir)
{
	struct csv_sweep *cs = calloc(1, sizeof(*cs));
	struct rep_row *rows = calloc(SWEEP_MAX_RUNS, sizeof(*rows));
	struct rep_figure *figs = calloc(SWEEP_MAX_RUNS, sizeof(*figs));
	struct sweep_opts o = { .rc = { .reps = 1 }, .out = dir };
	struct sweep_point *pts = NULL;
	int nr_points = 1, nr_rows = 0, rc = -1;
	char *save = NULL, policies[SCN_TEXT_MAX] = "";
	bool chosen = false;

	if (!cs || !rows || !figs) {
		fprintf(stderr, "ppsim: out of memory\n");
		goto done;
	}
	if (read_sweep_csv(csv, cs))
		goto done;
	o.file = scenario ? scenario : cs->file;
	/* the replications: the title says them, the CI bars need two */
	o.rc.seed = cs->seed;
	o.rc.reps = cs->reps > 0 ? cs->reps : 1;
	for (int a = 0; a < cs->nr_axes; a++) {
		if (cs->nr_values[a] > SWEEP_MAX_VALUES) {
			fprintf(stderr, "%s: %s has more than %d values: not "
				"a sweep's\n", csv, cs->keys[a],
				SWEEP_MAX_VALUES);
			goto done;
		}
		if (add_axis(&o, cs->keys[a], cs->values[a], NULL, 0))
			goto done;
	}
	/* the values every point has: --duration; and the policies --policy
	 * chose, which the rows name (the first the baseline) */
	for (char *t = strtok_r(cs->fixed, " ", &save);
	     t && o.nr_fixed < CMD_MAX_SET - 2;
	     t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (!strcmp(t, "duration"))
			o.fixed[o.nr_fixed++] = (struct scn_override){
				.key = t, .value = eq + 1,
				.file = "--duration" };
		chosen |= !strcmp(t, "policies");
	}
	for (int i = 0; i < cs->nr_names[0]; i++)
		o.cl.cases[o.cl.nr_cases++] = cs->names[0][i];
	for (int i = 0; i < cs->nr_names[1]; i++) {
		size_t n = strlen(policies);

		o.cl.policies[o.cl.nr_policies++] = cs->names[1][i];
		snprintf(policies + n, sizeof(policies) - n, "%s%s",
			 i ? " " : "", cs->names[1][i]);
	}
	if (chosen && cs->nr_names[1]) {
		o.fixed[o.nr_fixed++] = (struct scn_override){
			.key = "policies", .value = policies,
			.file = "--policy" };
		o.fixed[o.nr_fixed++] = (struct scn_override){
			.key = "baseline", .value = cs->names[1][0],
			.file = "--policy" };
	}
	for (int a = 0; a < o.nr_axes; a++)
		nr_points *= o.axes[a].nr_values;
	if (nr_points > SWEEP_MAX_POINTS ||
	    !(pts = calloc((size_t)nr_points, sizeof(*pts)))) {
		fprintf(stderr, "%s: cannot plot %d points\n", csv, nr_points);
		goto done;
	}
	if (build_points(&o, pts, nr_points, rows, &nr_rows))
		goto done;
	/* each row's rate from the CSV */
	for (int p = 0; p < nr_points; p++) {
		for (int r = pts[p].first_row;
		     r < pts[p].first_row + pts[p].nr_rows; r++) {
			char key[CSV_LINE_MAX + 2];
			int i = 0;

			snprintf(key, sizeof(key), "%s%s,%s", pts[p].prefix,
				 rows[r].c->name, rows[r].policy->name);
			while (i < cs->nr_runs && strcmp(cs->run[i], key))
				i++;
			if (i == cs->nr_runs) {
				fprintf(stderr, "%s: no rate of %s: cannot "
					"plot the sweep\n", csv, key);
				goto done;
			}
			figs[r] = cs->fig[i];
		}
	}
	rc = write_plot(&o, pts, nr_points, rows, figs);
done:
	for (int p = 0; p < nr_points && pts; p++)
		scn_free(pts[p].scn);
	for (int i = 0; cs && i < cs->nr_runs; i++)
		free(cs->run[i]);
	free(pts);
	free(rows);
	free(figs);
	free(cs);
	return rc;
}

int sweep_main(int argc, char **argv)
{
	int help;
	struct rep_row *rows = NULL;
	struct sweep_point *pts = NULL;
	struct sweep_opts o;
	struct scenario *named = NULL;	/* of [sweep NAME] */
	struct sweep_result result;
	int nr_points = 1, nr_rows = 0, status = 2;
	char out_path[PATH_MAX];

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
	 * file read, none of which it may replace.  A Slurm script's is the
	 * cluster's, which its tasks make: nothing of it is here */
	if (o.out && o.emit_jobs != CMD_JOBS_SLURM &&
	    outfile_check_dir(o.out, "ppsim sweep: --out",
			      o.emit_jobs ? job_outputs : sweep_outputs,
			      false))
		goto done;
	/* GNU parallel's jobs write where the user asked, wherever they
	 * run on this host */
	if (o.out && o.emit_jobs == CMD_JOBS_PARALLEL) {
		if (!realpath(o.out, out_path)) {
			fprintf(stderr, "ppsim sweep: --out %s: %s\n", o.out,
				strerror(errno));
			goto done;
		}
		o.out = out_path;
	}
	cmd_warn_scenario(pts[0].scn, o.file);
	if (o.emit_jobs) {
		status = emit_jobs(&o, pts, nr_points, rows);
		goto done;
	}
	o.first_row = 0;
	o.end_row = nr_rows;
	if (o.task) {
		int nr_tasks = task_rows(&o, pts, nr_points, rows, o.task,
					 &o.first_row, &o.end_row);

		if (o.task > nr_tasks) {
			fprintf(stderr, "ppsim sweep: --task %d: the sweep "
				"has %d job%s (1 to %d)\n", o.task, nr_tasks,
				nr_tasks == 1 ? "" : "s", nr_tasks);
			goto done;
		}
	}
	status = 1;
	if (cmd_run_rows(rows + o.first_row, o.end_row - o.first_row, &o.rc,
			 o.file))
		goto done;
	result = result_of(&o, pts, nr_points, rows, NULL);
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
