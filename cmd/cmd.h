/*
 * ppsim's commands, one file each, and what they share: the options every
 * command that runs simulations takes.  A command returns its exit
 * status: 0 ok, 1 runtime failure, 2 bad usage or bad input.
 */
#ifndef PPSIM_CMD_H
#define PPSIM_CMD_H

#include "../report/report.h"
#include "../input/csv.h"

/* The page_pool policies this program has: the project's eras, and the
 * kernel tree's page_pool.c in a build configured --with-linux. */
extern const struct pp_policy *const cmd_policies[];

int run_main(int argc, char **argv);
int validate_main(int argc, char **argv);
int calibrate_main(int argc, char **argv);
int sweep_main(int argc, char **argv);
int merge_main(int argc, char **argv);
int compare_main(int argc, char **argv);
int bench_main(int argc, char **argv);
int trace_main(int argc, char **argv);
int keys_main(int argc, char **argv);
int report_main(int argc, char **argv);

/* The options, one bit each (cmd_options in cli.c describes them). */
enum cmd_opt {
	CMD_CASE = 1 << 0, CMD_POLICY = 1 << 1, CMD_DURATION = 1 << 2,
	CMD_QUEUES = 1 << 3, CMD_REPS = 1 << 4, CMD_SEED = 1 << 5,
	CMD_SET = 1 << 6, CMD_JOBS = 1 << 7, CMD_FORMAT = 1 << 8,
	CMD_OUT = 1 << 9, CMD_EMIT_JOBS = 1 << 10, CMD_SENSITIVITY = 1 << 11,
	CMD_PARAM = 1 << 12, CMD_EXPLAIN = 1 << 13, CMD_QUIET = 1 << 15,
	CMD_COMMIT_FMT = 1 << 17,	/* --format takes commit too */
	/* sweep's jobs: which one to run, and the sbatch script's */
	CMD_TASK = 1 << 18, CMD_CHDIR = 1 << 19, CMD_TIME = 1 << 20,
	CMD_MEM = 1 << 21, CMD_CPUS = 1 << 22,
	CMD_DRY_RUN = 1 << 24, CMD_UPDATE = 1 << 25, CMD_MAN = 1 << 26,
	CMD_RESULTS = 1 << 27,
};

/* What every command that runs simulations takes, alike everywhere. */
#define CMD_SIMULATES	(CMD_CASE | CMD_POLICY | CMD_DURATION | CMD_REPS | \
			 CMD_SEED | CMD_SET | CMD_JOBS)

/* Replications unless --reps says otherwise, in every command: three
 * give a confidence interval; one would print a false one. */
#define CMD_REPS_DEFAULT	3

/* A command's own reading of an option: its argument and help. */
struct cmd_help {
	enum cmd_opt opt;	/* 0 ends the list */
	const char *arg;
	const char *help;
};

/* What a command takes, for cmd_parse() and its --help. */
struct cmd_spec {
	const char *name;	/* "run" */
	const char *operands;	/* "FILE [NAME]" */
	int min_args, max_args;	/* max_args CMD_ANY: no limit */
	unsigned int options;	/* enum cmd_opt bits */
	const char *about;	/* what it does */
	const struct cmd_help *own;	/* or NULL */
	const char *more;	/* after the options, or NULL */
};

#define CMD_MAX_SET	32
#define CMD_MAX_PARAMS	16
#define CMD_MAX_NAMES	32	/* --case and --policy, each */
#define CMD_ANY		(-1)

enum cmd_format { CMD_TABLE, CMD_CSV, CMD_JSON, CMD_COMMIT };

/* What --emit-jobs writes: one command a line, or an sbatch script. */
enum cmd_jobs { CMD_JOBS_NONE, CMD_JOBS_PARALLEL, CMD_JOBS_SLURM };

/* What an sbatch script asks for (--emit-jobs=slurm); NULL or 0: the
 * sweep derives it from its size. */
struct cmd_slurm {
	const char *chdir;	/* the tasks' working directory */
	const char *time;	/* --time, as sbatch reads it (checked) */
	const char *mem;	/* --mem: a whole number, K, M, G or T */
	int cpus;		/* --cpus-per-task */
};

/* What the command line said. */
struct cmd_opts {
	char **args;		/* the operands (in argv) */
	int nr_args;
	const char *file;	/* the first: the scenario */
	const char *cases[CMD_MAX_NAMES];	/* --case, as given */
	int nr_cases;
	const char *policies[CMD_MAX_NAMES];	/* --policy, as given */
	int nr_policies;
	struct rep_opts rc;
	bool reps_given;	/* --reps was on the command line */
	bool seed_given;	/* and --seed */
	bool sensitivity;
	const char *params[CMD_MAX_PARAMS];	/* --param, as given */
	int nr_params;
	enum cmd_format format;
	const char *out;
	const char *results;	/* validate --results: a run's CSV */
	enum cmd_jobs emit_jobs;
	int task;		/* sweep --task N: its N-th job alone; 0: all */
	struct cmd_slurm slurm;	/* the sbatch script's, as given */
	bool dry_run;		/* check and say what would run, run nothing */
	bool explain;		/* the table's why: rep_write_explain */
	bool update;		/* calibrate: the .cal.ini beside the scenario */
	bool man;		/* keys: as the man page's KEYS section */
	/* --set, --duration, --queues in the order given; then, for
	 * --policy in a command that reads scenarios, the policies and
	 * the baseline it selects */
	struct scn_override set[CMD_MAX_SET];
	int nr_set;
};

/* One scenario of a run: its rows are rows[first, first + nr). */
struct run_file {
	const char *path;
	struct scenario *scn;
	int first, nr;
	char name[256];		/* its --out subdirectory with several */
	char machine[SCN_NAME_MAX];
	char borrowed[160];	/* scn_costs_borrowed's text, prov.borrowed */
	struct rep_prov prov;	/* what its outputs' headers say */
};

/* run's standard output in o->format (o->explain: and the why) of the
 * nr_files files' rows: one file as ever; several, a section a file (the
 * table), a first column 'file' (CSV), an array of objects (JSON).  ppsim
 * report prints a run's results read back with it. */
void run_print(const struct cmd_opts *o, const struct run_file *rf,
	       int nr_files, const struct rep_row *rows);
/* The commit table's cells of each row, each row's labels pointing at its
 * own: its case's label under the label_columns, else its name under
 * "Case".  NULL when out of memory; free() it after. */
struct rep_labels *run_labels(struct rep_row *rows, int nr_rows);
/* Whether a case runs its baseline policy and another: what a commit
 * table compares. */
bool run_has_pair(const struct run_file *rf, int nr_files,
		  const struct rep_row *rows);

#define RESULTS_MAX_FILES	32

/* One file of the run: a provenance block of the CSV. */
struct results_file {
	char path[CSV_LINE_MAX + 2];	/* as the run was given it */
	int line;			/* of its provenance */
	int seed_line;			/* of its '# seed' line */
	char machine[SCN_MACHINE_MAX + 1];	/* its '# machine:' line's */
	int machine_line;
	char duration[32];		/* as the run said it */
	int guesses;			/* what its figures rest on */
	bool uncalibrated;
	char borrowed[160];		/* "# costs borrowed for" what;
					 * "" none */
	int borrowed_line;		/* of that line; 0: none */
	char sets[CSV_LINE_MAX + 2];	/* the overrides' text: set[] in it */
	struct scn_override set[CMD_MAX_SET];
	int nr_set;
	unsigned long seed;
	int reps;
};

/* One (case, policy) of the CSV: every metric's figure. */
struct results_row {
	int file, line;
	char name[SCN_NAME_MAX], policy[SCN_NAME_MAX];
	struct rep_figure fig[REP_NR_METRICS];
	char saturated[16];
	double measured;
};

/* A run's results read back: its CSV (ppsim run --format csv, or --out's
 * results.csv), for ppsim report and validate --results. */
struct run_results {
	const char *path;		/* the CSV */
	struct results_file files[RESULTS_MAX_FILES];
	int nr_files;
	struct results_row *rows;
	int nr_rows, room;
	bool named_files;		/* a 'file' column */
};

/* Reads the CSV at path into r (results_free() it after, read or not).
 * Returns 0, or -1 with FILE:LINE: why on stderr. */
int results_read(struct run_results *r, const char *path);
void results_free(struct run_results *r);
/* File k's scenario read again, at path (NULL: the one the run named),
 * with the run's overrides and the cases it ran; NULL said on stderr. */
struct scenario *results_scenario(const struct run_results *r, int k,
				  const char *path);
/* The CSV's row of file k for case and policy, or NULL. */
const struct results_row *results_find(const struct run_results *r, int k,
				       const char *name, const char *policy);
/* File k's rows, in the CSV's order, of its scenario read again (scn,
 * named scenario), which must run what the run ran: every (case, policy)
 * of the CSV and no more, measured as long.  Returns their number, or -1
 * with FILE:LINE: why (a scenario changed since, a file cut short); rows
 * NULL: only checks. */
int results_rows(const struct run_results *r, int k,
		 struct scenario *scn, const char *scenario,
		 struct rep_row *rows);
/* What the outputs' headers say of file k: the run's provenance, what its
 * figures rested on included (the CSV's, not the scenario's now). */
struct rep_prov results_prov(const struct run_results *r, int k,
			     const struct rep_opts *rc, const char *machine);
/* row of case c under policy, as the CSV of file k has it: its
 * figures, what saturated, the measured figure the run had. */
struct rep_row results_row(const struct results_row *x, struct scn_case *c,
			   const struct pp_policy *policy);

/* The sweep's plot (DIR/sweep-rate.dat, sweep.png, sweep.svg) from its
 * CSV csv, as ppsim sweep --out draws it and ppsim merge --out from the
 * jobs' merge: the scenario (scenario, or the path the CSV's provenance
 * names) loaded at every point for the title, the x values and the
 * measured figures; the rates and CIs from the CSV.  Returns 0, or -1
 * said on stderr. */
int sweep_plot_csv(const char *csv, const char *scenario, const char *dir);

/* ppsim validate --sensitivity: o's options on the loaded scenarios
 * (o->args names them); returns the exit status. */
int validate_sensitivity(const struct cmd_opts *o, struct scenario **scn,
			 int nr_scn);

/* Parses argv[1..] for spec: options it accepts and its operands.  Returns
 * 0; 1 when --help printed the usage (the command is done: exit 0); or
 * -1 with what is wrong said on stderr, with the usage. */
int cmd_parse(int argc, char **argv, const struct cmd_spec *spec,
	      struct cmd_opts *o);
/* The spec of command name (every command has one); NULL if there is no
 * such command. */
const struct cmd_spec *cmd_spec(const char *name);
void cmd_usage(FILE *f, const struct cmd_spec *spec);
/* Whether --case (--policy) lets name through: yes when none was given. */
bool cmd_wants_case(const struct cmd_opts *o, const char *name);
bool cmd_wants_policy(const struct cmd_opts *o, const char *name);
/* Whether an override's key chooses the policies run (policies,
 * baseline; as case. or global. too): --policy's, or --set's alike. */
bool cmd_policy_key(const char *key);
/* Says on stderr which --case or --policy matched nothing in any of the
 * nr scenarios; returns how many did not. */
int cmd_check_names(const struct cmd_opts *o, struct scenario *const *scn,
		    int nr);
/* Says on stderr what a run of the scenario should know: a hardware
 * profile included without its calibration (uncalibrated priors run), and
 * measured figures left out with the policies --set took off. */
void cmd_warn_scenario(const struct scenario *scn, const char *file);
/* A row of case c under policy, with what the outputs say of c (its
 * unit, baseline and duration, report.h); no results yet. */
struct rep_row cmd_row(struct scn_case *c, const struct pp_policy *policy,
		       double measured);
/*
 * Runs o->reps replications of every row (seeds o->seed, o->seed + 1,
 * ...), at most o->jobs at a time, filling row->res (allocated here,
 * freed by cmd_free_results).  Failures are reported on stderr naming
 * file, or with file NULL (rows of several scenarios) the FILE:LINE of
 * the row's case section; returns -1 if any run failed.
 */
int cmd_run_rows(struct rep_row *rows, int nr_rows,
		 const struct rep_opts *o, const char *file);
void cmd_free_results(struct rep_row *rows, int nr_rows);

/* Every measured (case, policy) of a scenario, or only those of the cases
 * [calibrate] cases names (fit_only); returns how many. */
int cmd_measured_rows(struct scenario *scn, struct rep_row *rows,
		      bool fit_only);
/* The hardware profile a scenario includes (hw/NAME.ini) as NAME in
 * buf, for plot titles; NULL when it includes none. */
const char *cmd_machine(const struct scenario *scn, char *buf, size_t len);

#endif
