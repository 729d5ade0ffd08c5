/* ppsim sweep --emit-jobs: the sweep as jobs, for GNU parallel or Slurm. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "sweep.h"
#include "../io/datadir.h"

/* s as one word of sh: in single quotes, each ' as '\'' (nothing inside
 * single quotes is special to sh: no $(...), no `...`).  A control
 * character is no part of a job: a newline inside the quotes still ends
 * the line GNU parallel reads as a job, and the rest would run as a
 * command of its own; s is copied into bad then, unless a word is there
 * already (sweep_emit_jobs refuses it), cut at SWEEP_BAD_MAX bytes: room
 * for the longest word, a job's --out path. */
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
int sweep_task_rows(const struct sweep_opts *o, const struct sweep_point *pts,
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
		char kv[64 + SWEEP_MAX_VALUES * (SWEEP_VALUE_MAX + 1)];

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

		sweep_task_rows(o, pts, nr_points, rows, k, &first, &end);
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
 * The sweep as jobs that give what it gives (sweep_task_rows): each the
 * sweep again with --task, so that each job's CSV carries the whole
 * sweep's provenance; every value checked first (sweep_build_points) and
 * passed to sh as a quoted word.  As lines for GNU parallel, run here
 * (this binary and the files by their full paths), or as a Slurm job
 * array's script.
 */
int sweep_emit_jobs(const struct sweep_opts *o, const struct sweep_point *pts,
		    int nr_points, const struct rep_row *rows)
{
	char self[PATH_MAX], file[PATH_MAX], *text = NULL;
	char bad[SWEEP_BAD_MAX] = "";
	int nr_tasks = sweep_task_rows(o, pts, nr_points, rows, 0, NULL, NULL);
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
