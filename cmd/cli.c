/* What the commands share: the options of every command that runs
 * simulations, and the rows of a scenario's measured figures. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

/* Every option of every command, once: what it takes and what it means.
 * A command accepts those its spec names (cmd_parse). */
static const struct cmd_option {
	enum cmd_opt opt;
	const char *name;
	const char *arg;	/* NULL: a flag */
	const char *help;
} cmd_options[] = {
	{ CMD_CASE, "case", "NAME", "only this case" },
	{ CMD_POLICY, "policy", "P", "only this policy" },
	{ CMD_DURATION, "duration", "TIME",
	  "simulated time measured per case (e.g. 10ms)" },
	{ CMD_QUEUES, "queues", "N", "rx queues (as --set queues=N)" },
	{ CMD_REPS, "reps", "N", "independent replications: mean, 95% CI" },
	{ CMD_SEED, "seed", "S",
	  "first seed (default 1); replication r uses S + r" },
	{ CMD_SET, "set", "KEY=VALUE",
	  "override a key (nic.rx_ring=512, duration=20ms)" },
	{ CMD_JOBS, "jobs", "N", "simulations run in parallel (default 1)" },
	{ CMD_FORMAT, "format", "F", "table (default), csv or json" },
	{ CMD_OUT, "out", "DIR", "also write the outputs into DIR" },
	{ CMD_EMIT_JOBS, "emit-jobs", NULL,
	  "print one command a point instead, for GNU parallel or a batch "
	  "system" },
	{ CMD_SENSITIVITY, "sensitivity", NULL,
	  "move each prior parameter by -25 % and +25 %, refit, and show how "
	  "far the out-of-fit predictions move" },
	{ CMD_PARAM, "param", "KEY",
	  "also move this numeric key (repeatable)" },
	{ CMD_QUIET, "quiet", NULL,
	  "no progress bar (drawn on stderr only when it is a terminal)" },
};
#define NR_OPTIONS (sizeof(cmd_options) / sizeof(cmd_options[0]))

/* Every command that runs simulations: its operands and options, and
 * what --help says of it. */
static const struct cmd_spec cmd_specs[] = {
	{
		.name = "run", .operands = "FILE", .min_args = 1, .max_args = 1,
		.options = CMD_CASE | CMD_POLICY | CMD_DURATION | CMD_REPS |
			   CMD_SEED | CMD_SET | CMD_JOBS | CMD_FORMAT | CMD_OUT |
			   CMD_COMMIT_FMT | CMD_QUIET,
		.reps = 3,
		.about =
	"Simulates every case of the scenario FILE under each policy it compares\n"
	"and prints the predicted rate beside the measured one, with the figures\n"
	"that explain it.",
		.own = (const struct cmd_help[]){
			{ CMD_FORMAT, "F", "table (default), csv, json, or commit: "
			  "the seed's before/after table for a commit message" },
			{ CMD_OUT, "DIR", "also write DIR/results.csv, DIR/resolved.ini "
			  "(every key as it ran), DIR/transient.csv and the plots" },
			{ 0, NULL, NULL },
		},
		.more = "The columns are described in ppsim(1), section RUN OUTPUT.",
	},
	{
		.name = "sweep", .operands = "FILE [NAME]", .min_args = 1,
		.max_args = 2,
		.options = CMD_SET | CMD_CASE | CMD_POLICY | CMD_REPS | CMD_SEED |
			   CMD_JOBS | CMD_FORMAT | CMD_NO_JSON | CMD_OUT | CMD_EMIT_JOBS |
			   CMD_QUIET,
		.reps = 1,
		.about =
	"Runs the scenario at every point of the cross product of the values\n"
	"(and of [sweep NAME] in FILE), every point's cases in parallel.",
		.own = (const struct cmd_help[]){
			{ CMD_SET, "KEY=V1,V2", "values of a key (nic.rx_ring=256,1024), "
			  "up to 4 keys" },
			{ CMD_CASE, "NAME", "only this case (else the sweep's cases, "
			  "else all)" },
			{ CMD_FORMAT, "F", "table (default) or csv: one CSV for all "
			  "points" },
			{ CMD_OUT, "DIR", "DIR/sweep.csv and a plot of the rate against "
			  "the first key" },
			{ CMD_EMIT_JOBS, NULL, "print one 'ppsim sweep' command a point "
			  "instead, for GNU parallel or a batch system; join their "
			  "outputs with 'ppsim merge'" },
			{ 0, NULL, NULL },
		},
	},
	{
		.name = "validate", .operands = "FILE...", .min_args = 1,
		.max_args = CMD_ANY,
		.options = CMD_REPS | CMD_SEED | CMD_JOBS | CMD_FORMAT |
			   CMD_NO_JSON | CMD_COMMIT_FMT | CMD_SENSITIVITY |
			   CMD_PARAM | CMD_QUIET,
		.reps = 3,
		.about =
	"Runs every case with a measured figure in each scenario FILE,\n"
	"all their simulations in one pool, and prints the prediction\n"
	"beside it, in or out of the calibration fit; per file and overall\n"
	"the mean and largest error out of the fit; and the direction of\n"
	"every before/after change (a case's first policy against the\n"
	"others) and of every trend along one key (consecutive cases that\n"
	"differ in that key only), measured against predicted.",
		.own = (const struct cmd_help[]){
			{ CMD_REPS, "N", "independent replications (default 3; "
			  "1 with --sensitivity)" },
			{ CMD_FORMAT, "F", "table (default) or csv: the "
			  "figures, one line each (with --sensitivity: every "
			  "out-of-fit figure under every move); commit: each "
			  "before/after change, measured and predicted, for a "
			  "commit message" },
			{ CMD_PARAM, "KEY", "with --sensitivity, also move KEY "
			  "(nic.max_pps, cache.llc_lat; repeatable)" },
			{ 0, NULL, NULL },
		},
		.more =
	"Exits 0 when every figure is within its file's tolerance\n"
	"(calibrate.tolerance) and no direction differs, 1 otherwise or\n"
	"when a simulation failed, 2 on bad input.\n"
	"\n"
	"--sensitivity: the priors are the numeric [cost] and [model] keys\n"
	"a file sets (its includes count) and its [calibrate] free does not\n"
	"fit, and every --param KEY.  Each is moved to 0.75 and 1.25 times\n"
	"its value in every case (whole numbers rounded), one at a time; the\n"
	"free parameters are refitted on the calibration cases and every\n"
	"out-of-fit figure is predicted again.  One row a prior, the largest\n"
	"move first: how far the figures moved, in % of their prediction\n"
	"with the priors as written (refitted the same way), and how the\n"
	"out-of-fit mean |error| changed.  See ppsim(1).",
	},
	{
		.name = "calibrate", .operands = "FILE", .min_args = 1, .max_args = 1,
		.options = CMD_REPS | CMD_SEED | CMD_JOBS | CMD_OUT | CMD_QUIET,
		.reps = 1,
		.about =
	"Fits the scenario's free parameters ([calibrate] free) on the measured\n"
	"figures of its calibration cases ([calibrate] cases) only.",
		.own = (const struct cmd_help[]){
			{ CMD_OUT, "FILE", "where the fit goes (default: FILE's name "
			  "with .cal.ini)" },
			{ 0, NULL, NULL },
		},
	},
	{
		.name = "bench", .operands = "FILE", .min_args = 1, .max_args = 1,
		.options = CMD_CASE | CMD_POLICY | CMD_DURATION | CMD_QUEUES,
		.reps = 1,
		.about =
	"How fast the simulator runs one case (default close-drop, v5.5, 1 s,\n"
	"one queue) against a bare page_pool alloc + recycle loop of the same\n"
	"binary: one CSV line.",
	},
};

const struct cmd_spec *cmd_spec(const char *name)
{
	for (size_t i = 0; i < sizeof(cmd_specs) / sizeof(cmd_specs[0]); i++)
		if (!strcmp(cmd_specs[i].name, name))
			return &cmd_specs[i];
	abort();	/* a command without a spec: a bug */
}

static const struct cmd_option *option_of(enum cmd_opt opt)
{
	for (size_t i = 0; i < NR_OPTIONS; i++)
		if (cmd_options[i].opt == opt)
			return &cmd_options[i];
	return NULL;
}

/* The command's own reading of an option, or NULL. */
static const struct cmd_help *own_of(const struct cmd_spec *spec,
				     enum cmd_opt opt)
{
	for (const struct cmd_help *h = spec->own; h && h->opt; h++)
		if (h->opt == opt)
			return h;
	return NULL;
}

/* What the option takes, as the command's --help says it. */
static const char *option_arg(const struct cmd_spec *spec, enum cmd_opt opt)
{
	const struct cmd_help *h = own_of(spec, opt);

	return h ? h->arg : option_of(opt)->arg;
}

/* Prints text at column col, wrapped at 80 columns to column 23. */
static void print_wrapped(FILE *f, const char *text, int col)
{
	bool first = true;

	while (*text) {
		int n = (int)strcspn(text, " ");

		if (!first && col + 1 + n > 79) {
			fprintf(f, "\n%23s", "");
			col = 23;
		} else if (!first) {
			col += fprintf(f, " ");
		}
		col += fprintf(f, "%.*s", n, text);
		text += n + (text[n] == ' ');
		first = false;
	}
	fputc('\n', f);
}

void cmd_usage(FILE *f, const struct cmd_spec *spec)
{
	fprintf(f, "Usage: ppsim %s %s [OPTIONS]\n\n%s\n\n", spec->name,
		spec->operands, spec->about);
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		const struct cmd_option *o = &cmd_options[i];
		const struct cmd_help *h = own_of(spec, o->opt);
		const char *arg = option_arg(spec, o->opt);
		const char *help = h ? h->help : o->help;
		char left[40], text[256];

		if (!(spec->options & o->opt))
			continue;
		snprintf(left, sizeof(left), "%s--%s%s%s",
			 o->opt == CMD_JOBS ? "-j, " : "", o->name,
			 arg ? " " : "", arg ? arg : "");
		if (o->opt == CMD_REPS && !strstr(help, "(default"))
			snprintf(text, sizeof(text), "%s (default %d)", help,
				 spec->reps);
		else
			snprintf(text, sizeof(text), "%s", help);
		fprintf(f, "  %-20s ", left);
		print_wrapped(f, text, 23);
	}
	if (spec->more)
		fprintf(f, "\n%s\n", spec->more);
}

/* A whole number in [lo, hi], or -1 with the reason on stderr. */
static int parse_count(const struct cmd_spec *spec, const char *name,
		       const char *arg, long lo, long hi, int *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (end == arg || *end || errno || n < lo || n > hi) {
		fprintf(stderr, "ppsim %s: %s %s: expected %ld to %ld\n",
			spec->name, name, arg, lo, hi);
		return -1;
	}
	*v = (int)n;
	return 0;
}

static int take(const struct cmd_spec *spec, enum cmd_opt opt,
		const char *arg, struct cmd_opts *o)
{
	char *end, *eq;

	switch (opt) {
	case CMD_CASE: o->only_case = arg; return 0;
	case CMD_POLICY: o->only_policy = arg; return 0;
	case CMD_OUT: o->out = arg; return 0;
	case CMD_EMIT_JOBS: o->emit_jobs = true; return 0;
	case CMD_SENSITIVITY: o->sensitivity = true; return 0;
	case CMD_QUIET: o->rc.quiet = true; return 0;
	case CMD_PARAM:
		if (o->nr_params == CMD_MAX_PARAMS) {
			fprintf(stderr, "ppsim %s: at most %d --param\n",
				spec->name, CMD_MAX_PARAMS);
			return -1;
		}
		o->params[o->nr_params++] = arg;
		return 0;
	case CMD_REPS:
		o->reps_given = true;
		return parse_count(spec, "--reps", arg, 1, REP_MAX_REPS,
				   &o->rc.reps);
	case CMD_JOBS:
		return parse_count(spec, "-j", arg, 1, 256, &o->rc.jobs);
	case CMD_SEED:
		errno = 0;
		o->rc.seed = strtoul(arg, &end, 10);
		if (end != arg && !*end && !errno && arg[0] != '-')
			return 0;
		fprintf(stderr, "ppsim %s: --seed %s: expected a whole "
			"number\n", spec->name, arg);
		return -1;
	case CMD_FORMAT:
		if (!strcmp(arg, "table"))
			o->format = CMD_TABLE;
		else if (!strcmp(arg, "csv"))
			o->format = CMD_CSV;
		else if (!strcmp(arg, "json") && !(spec->options & CMD_NO_JSON))
			o->format = CMD_JSON;
		else if (!strcmp(arg, "commit") &&
			 (spec->options & CMD_COMMIT_FMT))
			o->format = CMD_COMMIT;
		else {
			static const char *const choices[] = {
				"table, csv or json", "table or csv",
				"table, csv, json or commit",
				"table, csv or commit",
			};

			fprintf(stderr, "ppsim %s: --format %s: expected %s\n",
				spec->name, arg, choices[
				!!(spec->options & CMD_NO_JSON) +
				2 * !!(spec->options & CMD_COMMIT_FMT)]);
			return -1;
		}
		return 0;
	default:	/* the overrides, in the order given */
		break;
	}
	if (o->nr_set == CMD_MAX_SET) {
		fprintf(stderr, "ppsim %s: at most %d --set, --duration and "
			"--queues\n", spec->name, CMD_MAX_SET);
		return -1;
	}
	if (opt != CMD_SET) {
		o->set[o->nr_set++] = (struct scn_override){
			.key = opt == CMD_DURATION ? "duration" : "queues",
			.value = arg,
			.file = opt == CMD_DURATION ? "--duration" : "--queues" };
		return 0;
	}
	eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		fprintf(stderr, "ppsim %s: --set %s: expected %s\n",
			spec->name, arg, option_arg(spec, CMD_SET));
		return -1;
	}
	*eq = '\0';
	o->set[o->nr_set++] = (struct scn_override){ .key = arg,
						     .value = eq + 1 };
	return 0;
}

int cmd_parse(int argc, char **argv, const struct cmd_spec *spec,
	      struct cmd_opts *o)
{
	struct option longs[NR_OPTIONS + 2];
	int n = 0, ch;

	*o = (struct cmd_opts){ .rc = { .reps = spec->reps, .jobs = 1,
					.seed = 1 } };
	for (size_t i = 0; i < NR_OPTIONS; i++)
		if (spec->options & cmd_options[i].opt)
			longs[n++] = (struct option){ cmd_options[i].name,
				cmd_options[i].arg ? required_argument
						   : no_argument,
				NULL, (int)i };
	longs[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[n] = (struct option){ NULL, 0, NULL, 0 };
	/* 0, not 1: glibc then forgets a previous parse too (its place in a
	 * cluster of short options points into that argv) */
	optind = 0;
	while ((ch = getopt_long(argc, argv, spec->options & CMD_JOBS ?
				 "j:h" : "h", longs, NULL)) != -1) {
		if (ch == 'h') {
			cmd_usage(stdout, spec);
			return 1;
		}
		if (ch == 'j')
			ch = (int)(option_of(CMD_JOBS) - cmd_options);
		if (ch < 0 || ch >= (int)NR_OPTIONS) {
			cmd_usage(stderr, spec);
			return -1;
		}
		if (take(spec, cmd_options[ch].opt, optarg, o))
			return -1;
	}
	/* GSL's generators take 32 bits of a seed, and mt19937 reads 0 as
	 * 4357: other seeds would repeat some, silently */
	if (o->rc.seed == 0 ||
	    o->rc.seed + (unsigned long)o->rc.reps - 1 > 0xffffffffUL) {
		fprintf(stderr, "ppsim %s: --seed %lu: expected 1 to %lu (the "
			"generator's seeds are 32 bits, and replication r "
			"uses the seed + r)\n", spec->name, o->rc.seed,
			0xffffffffUL - (unsigned long)o->rc.reps + 1);
		return -1;
	}
	o->args = argv + optind;
	o->nr_args = argc - optind;
	if (spec->max_args != CMD_ANY && o->nr_args > spec->max_args) {
		fprintf(stderr, "ppsim %s: unexpected '%s'\n", spec->name,
			o->args[spec->max_args]);
		cmd_usage(stderr, spec);
		return -1;
	}
	if (o->nr_args < spec->min_args) {
		fprintf(stderr, "ppsim %s: expected %s\n", spec->name,
			spec->operands);
		cmd_usage(stderr, spec);
		return -1;
	}
	o->file = o->args[0];
	return 0;
}

bool cmd_in_fit(const struct scenario *scn, const char *name)
{
	char buf[SCN_TEXT_MAX], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", scn->calibrate.cases);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save))
		if (!strcmp(t, name))
			return true;
	return false;
}

/* Every measured (case, policy), or only those of the fit cases. */
int cmd_measured_rows(struct scenario *scn, struct rep_row *rows,
			 bool fit_only)
{
	int n = 0;

	for (int i = 0; i < scn->nr_cases; i++) {
		struct scn_case *c = &scn->cases[i];

		if (fit_only && !cmd_in_fit(scn, c->name))
			continue;
		for (int p = 0; p < c->nr_policies; p++) {
			double m = rep_measured(c, c->policies[p]);

			if (!isnan(m))
				rows[n++] = (struct rep_row){ c, c->policies[p],
							      NULL, m };
		}
	}
	return n;
}

