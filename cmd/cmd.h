/*
 * ppsim's commands, one file each, and what they share: the options every
 * command that runs simulations takes.  A command returns its exit
 * status: 0 ok, 1 runtime failure, 2 bad usage or bad input.
 */
#ifndef PPSIM_CMD_H
#define PPSIM_CMD_H

#include "../report/report.h"

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

/* The options, one bit each (cmd_options in cli.c describes them). */
enum cmd_opt {
	CMD_CASE = 1 << 0, CMD_POLICY = 1 << 1, CMD_DURATION = 1 << 2,
	CMD_QUEUES = 1 << 3, CMD_REPS = 1 << 4, CMD_SEED = 1 << 5,
	CMD_SET = 1 << 6, CMD_JOBS = 1 << 7, CMD_FORMAT = 1 << 8,
	CMD_OUT = 1 << 9, CMD_EMIT_JOBS = 1 << 10, CMD_SENSITIVITY = 1 << 11,
	CMD_PARAM = 1 << 12, CMD_QUIET = 1 << 15,
	CMD_NO_JSON = 1 << 16,	/* --format takes table or csv only */
	CMD_COMMIT_FMT = 1 << 17,	/* --format takes commit too */
};

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
	int reps;		/* default replications */
	const char *about;	/* what it does */
	const struct cmd_help *own;	/* or NULL */
	const char *more;	/* after the options, or NULL */
};

#define CMD_MAX_SET	32
#define CMD_MAX_PARAMS	16
#define CMD_ANY		(-1)

enum cmd_format { CMD_TABLE, CMD_CSV, CMD_JSON, CMD_COMMIT };

/* What the command line said. */
struct cmd_opts {
	char **args;		/* the operands (in argv) */
	int nr_args;
	const char *file;	/* the first: the scenario */
	const char *only_case;
	const char *only_policy;
	struct rep_opts rc;
	bool reps_given;	/* --reps was on the command line */
	bool sensitivity;
	const char *params[CMD_MAX_PARAMS];	/* --param, as given */
	int nr_params;
	enum cmd_format format;
	const char *out;
	bool emit_jobs;
	/* --set, --duration, --queues in the order given */
	struct scn_override set[CMD_MAX_SET];
	int nr_set;
};

/* ppsim validate --sensitivity: o's options on the loaded scenarios
 * (o->args names them); returns the exit status. */
int validate_sensitivity(const struct cmd_opts *o, struct scenario **scn,
			 int nr_scn);

/* Parses argv[1..] for spec: options it accepts and its operands.  Returns
 * 0; 1 when --help printed the usage (the command is done: exit 0); or
 * -1 with what is wrong said on stderr, with the usage. */
int cmd_parse(int argc, char **argv, const struct cmd_spec *spec,
	      struct cmd_opts *o);
/* The spec of command name (run, sweep, validate, calibrate, bench). */
const struct cmd_spec *cmd_spec(const char *name);
void cmd_usage(FILE *f, const struct cmd_spec *spec);

/* Every measured (case, policy) of a scenario, or only those of the cases
 * [calibrate] cases names (fit_only); returns how many. */
int cmd_measured_rows(struct scenario *scn, struct rep_row *rows,
		      bool fit_only);
/* Whether [calibrate] cases names the case. */
bool cmd_in_fit(const struct scenario *scn, const char *name);

#endif
