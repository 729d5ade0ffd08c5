/* The command line: every option of every command, once; each command's
 * spec and --help; the parser (cmd_parse). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "../io/datadir.h"
#include "cmd.h"
#include "../report/outfile.h"

/* Every option of every command, once: what it takes and what it means.
 * A command accepts those its spec names (cmd_parse). */
static const struct cmd_option {
	enum cmd_opt opt;
	const char *name;
	const char *arg;	/* NULL: a flag */
	const char *help;
} cmd_options[] = {
	{ CMD_CASE, "case", "NAME", "only this case (repeatable)" },
	{ CMD_POLICY, "policy", "P",
	  "run this policy (repeatable; the first the baseline)" },
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
	{ CMD_EMIT_JOBS, "emit-jobs", "KIND",
	  "print one command a point instead (KIND parallel, the default), "
	  "or an sbatch job-array script (KIND slurm)" },
	{ CMD_TASK, "task", "N",
	  "run the sweep's job N alone (as --emit-jobs numbers them), its "
	  "rows as CSV under the whole sweep's provenance, for ppsim merge" },
	{ CMD_CHDIR, "chdir", "DIR",
	  "the jobs' working directory on the cluster: the script's first "
	  "act is cd DIR; relative paths given are read from there" },
	{ CMD_TIME, "time", "TIME",
	  "each task's time limit, as sbatch --time reads it (MM, MM:SS, "
	  "HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS; default from the sweep's "
	  "size)" },
	{ CMD_MEM, "mem", "SIZE",
	  "each task's memory, as sbatch --mem reads it (a whole number of "
	  "MB, or with K, M, G or T; default from the sweep's size)" },
	{ CMD_CPUS, "cpus-per-task", "N",
	  "each task's CPUs, its simulations run on as many workers (-j) "
	  "(default: a task's simulations, at most 4)" },
	{ CMD_SENSITIVITY, "sensitivity", NULL,
	  "move each prior parameter by -25 % and +25 %, refit, and show how "
	  "far the out-of-fit predictions move" },
	{ CMD_PARAM, "param", "KEY",
	  "also move this numeric key (repeatable)" },
	{ CMD_DRY_RUN, "dry-run", NULL,
	  "read and check the scenarios, say what would run (cases x "
	  "policies x replications), run nothing" },
	{ CMD_UPDATE, "update", NULL,
	  "write the fit beside FILE, into the .cal.ini it includes" },
	{ CMD_MAN, "man", NULL,
	  "every key as the KEYS section of ppsim-scenario(5), in roff" },
	{ CMD_EXPLAIN, "explain", NULL,
	  "after the table, each case's ns a packet: the work, and the wait "
	  "on memory by what the core waited for and where it was served, "
	  "its policies side by side" },
	{ CMD_QUIET, "quiet", NULL,
	  "no progress bar (drawn on stderr only when it is a terminal)" },
	{ CMD_RESULTS, "results", "CSV",
	  "the figures of a run (its --format csv, or results.csv of --out), "
	  "nothing simulated; FILE... then stand in for its scenarios" },
};
#define NR_OPTIONS (sizeof(cmd_options) / sizeof(cmd_options[0]))

/* The one option whose argument may be left out: --emit-jobs[=KIND]. */
static bool optional_arg(const struct cmd_option *o)
{
	return o->opt == CMD_EMIT_JOBS;
}

/* Every command: its operands and options, and what --help says of it. */
static const struct cmd_spec cmd_specs[] = {
	{
		.name = "run", .operands = "FILE...", .min_args = 1,
		.max_args = CMD_ANY,
		.options = CMD_SIMULATES | CMD_FORMAT | CMD_OUT | CMD_DRY_RUN |
			   CMD_COMMIT_FMT | CMD_QUIET | CMD_EXPLAIN,
		.about =
	"Simulates every case of each scenario FILE under each policy it\n"
	"compares, all files' simulations in one pool, and prints the predicted\n"
	"rate beside the measured one, with the figures that explain it: one\n"
	"table, a section per file.",
		.own = (const struct cmd_help[]){
			{ CMD_SET, "KEY=VALUE", "override a key (nic.rx_ring=512); "
			  "several values are a sweep: ppsim sweep" },
			{ CMD_FORMAT, "F", "table (default), csv (with several "
			  "files a first column 'file'), json (an object; with "
			  "several files an array, one object a file), or "
			  "commit: the seed's before/after "
			  "table for a commit message" },
			{ CMD_OUT, "DIR", "also write DIR/results.csv, "
			  "DIR/resolved.ini (every key as it ran), "
			  "DIR/transient.csv and the plots (with several files, "
			  "in DIR/NAME, NAME each file's name without .ini)" },
			{ 0, NULL, NULL },
		},
		.more = "The columns are described in ppsim(1), section RUN OUTPUT.",
	},
	{
		.name = "sweep", .operands = "FILE [NAME]", .min_args = 1,
		.max_args = 2,
		.options = CMD_SIMULATES | CMD_FORMAT | CMD_OUT |
			   CMD_EMIT_JOBS | CMD_QUIET | CMD_TASK | CMD_CHDIR |
			   CMD_TIME | CMD_MEM | CMD_CPUS,
		.about =
	"Runs the scenario at every point of the cross product of the values\n"
	"(and of [sweep NAME] in FILE), every point's cases in parallel.",
		.own = (const struct cmd_help[]){
			{ CMD_SET, "KEY=V1,V2", "values of a key (nic.rx_ring=256,1024), "
			  "up to 4 keys" },
			{ CMD_CASE, "NAME", "only this case, repeatable (else the "
			  "sweep's cases, else all)" },
			{ CMD_FORMAT, "F", "table (default), csv: one CSV for all "
			  "points, or json: an object, each point's values and "
			  "rows" },
			{ CMD_OUT, "DIR", "DIR/sweep.csv and a plot of the rate against "
			  "the first key; with --emit-jobs, where the jobs write" },
			{ CMD_EMIT_JOBS, "KIND", "print the sweep as jobs instead, one "
			  "a point: 'parallel' (the default) one command a line for "
			  "GNU parallel, 'slurm' an sbatch job-array script; join "
			  "their CSVs with 'ppsim merge'" },
			{ 0, NULL, NULL },
		},
		.more =
	"--chdir, --time, --mem and --cpus-per-task are the sbatch script's\n"
	"(--emit-jobs=slurm); paths stay as given, relative ones read from the\n"
	"tasks' working directory (--chdir, else where sbatch runs).",
	},
	{
		.name = "validate", .operands = "FILE...", .min_args = 0,
		.max_args = CMD_ANY,
		.options = CMD_SIMULATES | CMD_FORMAT | CMD_RESULTS |
			   CMD_SENSITIVITY | CMD_PARAM | CMD_DRY_RUN | CMD_COMMIT_FMT |
			   CMD_QUIET,
		.about =
	"Runs every case with a measured figure in each scenario FILE,\n"
	"all their simulations in one pool, and prints the prediction\n"
	"beside it, in or out of the calibration fit; per file and overall\n"
	"the mean and largest error out of the fit; then every change,\n"
	"measured against predicted, with its error in points: every\n"
	"before/after (a case's baseline, its baseline key or else its first\n"
	"policy, against the others) and every trend step (two measured\n"
	"cases that differ in one key, consecutive along a number, or in\n"
	"one coupled pair: rx and tx ring, workload and touch, the\n"
	"migration's time and CPU, queues and their CPUs).",
		.own = (const struct cmd_help[]){
			{ CMD_FORMAT, "F", "table (default); csv: the "
			  "figures, one line each, then the changes (with "
			  "--sensitivity: every out-of-fit figure under every "
			  "move); json: an object, each file's figures and "
			  "changes; commit: each before/after change, measured "
			  "and predicted, for a commit message" },
			{ CMD_PARAM, "KEY", "with --sensitivity, also move KEY "
			  "(nic.max_pps, cache.llc_lat; repeatable)" },
			{ 0, NULL, NULL },
		},
		.more =
	"Exits 0 when every figure is within its file's tolerance\n"
	"(calibrate.tolerance), every change within its effect tolerance\n"
	"(calibrate.effect_tolerance, points), no direction differs and no\n"
	"calibration is stale, 1 otherwise or\n"
	"when a simulation failed, 2 on bad input.\n"
	"\n"
	"--sensitivity: the priors are the numeric [cost] and [model] keys\n"
	"a file sets (its includes count) and its [calibrate] free does not\n"
	"fit, and every --param KEY.  Each is moved to 0.75 and 1.25 times\n"
	"its value in every case (whole numbers rounded), one at a time; the\n"
	"free parameters are refitted on the calibration cases and every\n"
	"out-of-fit figure is predicted again.  One row a prior, the largest\n"
	"move first: how far the figures moved, in % of their prediction\n"
	"with the priors as written (refitted the same way), the move's 95 %\n"
	"half-width from the replications paired seed with seed (a move\n"
	"within it is 'within noise', listed after the others), and how the\n"
	"out-of-fit mean |error| changed.  See ppsim(1).",
	},
	{
		.name = "calibrate", .operands = "FILE", .min_args = 1, .max_args = 1,
		.options = CMD_DURATION | CMD_REPS | CMD_SEED | CMD_SET |
			   CMD_JOBS | CMD_OUT | CMD_UPDATE | CMD_QUIET,
		.about =
	"Fits the scenario's free parameters ([calibrate] free) on the measured\n"
	"figures of its calibration cases ([calibrate] cases) only.  The fit\n"
	"starts from the values FILE has (its calibration included), so that\n"
	"calibrating on its own output changes nothing beyond the fit's\n"
	"tolerance.  It goes to standard output unless --out or --update says\n"
	"where: no file is overwritten unless asked.",
		.own = (const struct cmd_help[]){
			{ CMD_OUT, "FILE", "write the fit to FILE (checked before "
			  "the fit)" },
			{ CMD_UPDATE, NULL, "write the fit beside FILE, to FILE's "
			  "name with .cal.ini (the file the shipped scenarios "
			  "include)" },
			{ 0, NULL, NULL },
		},
	},
	{
		.name = "bench", .operands = "FILE", .min_args = 1, .max_args = 1,
		.options = CMD_CASE | CMD_POLICY | CMD_DURATION | CMD_QUEUES |
			   CMD_SET,
		.about =
	"How fast the simulator runs one case (default close-drop, v5.5, 1 s,\n"
	"one queue) against a bare page_pool alloc + recycle loop of the same\n"
	"binary: one CSV line.",
		.own = (const struct cmd_help[]){
			{ CMD_CASE, "NAME", "the case (default close-drop)" },
			{ CMD_POLICY, "P", "the policy (default v5.5)" },
			{ CMD_DURATION, "TIME", "simulated time (default 1s)" },
			{ 0, NULL, NULL },
		},
		.more = "bench/run.sh collects these lines; bench/README.md reads them.",
	},
	{
		.name = "merge", .operands = "FILE.csv...", .min_args = 1,
		.max_args = CMD_ANY, .options = CMD_OUT,
		.about =
	"Joins the CSV files of one sweep's jobs (ppsim sweep --emit-jobs)\n"
	"under one header, in the order given: every file is checked whole\n"
	"(a ppsim sweep's header and provenance, the same in every file:\n"
	"version, scenario, seed, replications; every row complete, its\n"
	"figures numbers, no point in two rows, every job's rows there)\n"
	"before anything is printed.",
		.own = (const struct cmd_help[]){
			{ CMD_OUT, "DIR", "also write DIR/sweep.csv and the "
			  "sweep's plot, as ppsim sweep --out DIR does" },
			{ 0, NULL, NULL },
		},
	},
	{
		.name = "trace", .operands = "FILE|-", .min_args = 1, .max_args = 1,
		.options = CMD_POLICY,
		.about =
	"Runs FILE (- for standard input), one page_pool operation a line, and\n"
	"prints one line per event: where each page came from, where each put\n"
	"sent it, the kernel's page_pool counters, and at the end the page\n"
	"accounting.  Every policy runs it in turn, each under a\n"
	"'== policy NAME' header, unless --policy names some.",
		.own = (const struct cmd_help[]){
			{ CMD_POLICY, "P", "only this policy (repeatable; 'all': "
			  "every one, the default)" },
			{ 0, NULL, NULL },
		},
		.more = "Operations are listed in ppsim(1), section TRACE FILES.",
	},
	{
		.name = "report", .operands = "RESULTS.csv [SCENARIO...]",
		.min_args = 1, .max_args = CMD_ANY,
		.options = CMD_FORMAT | CMD_COMMIT_FMT,
		.own = (const struct cmd_help[]){
			{ CMD_FORMAT, "F", "table (default), csv, json or commit "
			  "(the seed's before/after layout)" },
			{ 0, NULL, NULL },
		},
		.about =
	"Prints a run's results (ppsim run --format csv, or results.csv of\n"
	"--out) in another format, nothing simulated: the table, the commit\n"
	"table, CSV or JSON, as run would have printed them.  The scenarios are\n"
	"read again for their labels, units and baselines: those the CSV's\n"
	"provenance names (paths as the run was given them), or the SCENARIO\n"
	"operands, one for each file of the run, in its order.  The figures\n"
	"are the CSV's, six significant digits: changes and errors are\n"
	"computed again from them; JSON's explain is null (a CSV has no\n"
	"accesses: run --out writes explain.txt).",
	},
	{
		.name = "keys", .operands = "[KEY]", .min_args = 0, .max_args = 1,
		.options = CMD_MAN,
		.about =
	"Lists every scenario key with its default, unit and meaning; with a\n"
	"KEY (nic.rx_ring, duration), explains that one: its default, unit,\n"
	"range, meaning, where it is set, and the value each shipped hardware\n"
	"profile gives it with its source.",
	},
};
#define NR_SPECS (sizeof(cmd_specs) / sizeof(cmd_specs[0]))

const struct cmd_spec *cmd_spec(const char *name)
{
	for (size_t i = 0; i < NR_SPECS; i++)
		if (!strcmp(cmd_specs[i].name, name))
			return &cmd_specs[i];
	return NULL;
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

void cmd_usage(FILE *f, const struct cmd_spec *spec)
{
	fprintf(f, "Usage: ppsim %s %s [OPTIONS]\n\n%s\n\n", spec->name,
		spec->operands, spec->about);
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		const struct cmd_option *o = &cmd_options[i];
		const struct cmd_help *h = own_of(spec, o->opt);
		const char *arg = option_arg(spec, o->opt);
		const char *help = h ? h->help : o->help;
		char left[40], text[1024];	/* the longest help fits */

		if (!(spec->options & o->opt))
			continue;
		snprintf(left, sizeof(left), "%s--%s%s%s%s",
			 o->opt == CMD_JOBS ? "-j, " : "", o->name,
			 !arg ? "" : optional_arg(o) ? "[=" : " ", arg ? arg : "",
			 arg && optional_arg(o) ? "]" : "");
		if (o->opt == CMD_REPS && !strstr(help, "(default"))
			snprintf(text, sizeof(text), "%s (default %d)", help,
				 CMD_REPS_DEFAULT);
		else
			snprintf(text, sizeof(text), "%s", help);
		fprintf(f, "  %-20s ", left);
		datadir_put_wrapped(f, text, 23, 23, 79);
	}
	fprintf(f, "  %-20s %s\n", "-h, --help", "this help");
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

/* Whether s is a time limit sbatch --time reads: MM, MM:SS, HH:MM:SS,
 * D-HH, D-HH:MM or D-HH:MM:SS, each part digits and not zero in all.  It
 * goes into the script's #SBATCH line as it is: nothing else may. */
static bool slurm_time(const char *s)
{
	static const char digits[] = "0123456789";
	size_t days = strspn(s, digits);
	const char *p = s;
	bool nonzero = false;
	int parts = 0;

	if (days && days <= 6 && s[days] == '-') {
		nonzero = strspn(s, "0") < days;
		p += days + 1;
	}
	for (;;) {
		size_t n = strspn(p, digits);

		if (!n || n > 6)
			return false;
		nonzero |= strspn(p, "0") < n;
		p += n;
		parts++;
		if (*p != ':')
			break;
		p++;
	}
	return !*p && parts <= 3 && nonzero;
}

/* Whether s is a memory size sbatch --mem reads: a whole number above 0,
 * MB unless K, M, G or T follows. */
static bool slurm_mem(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n && n <= 9 && strspn(s, "0") < n &&
	       (!s[n] || (strchr("KMGT", s[n]) && !s[n + 1]));
}

/* A name of --case or --policy, kept in the order given. */
static int add_name(const struct cmd_spec *spec, const char *opt,
		    const char **names, int *nr, const char *arg)
{
	if (*nr == CMD_MAX_NAMES) {
		fprintf(stderr, "ppsim %s: at most %d --%s\n", spec->name,
			CMD_MAX_NAMES, opt);
		return -1;
	}
	/* a name given twice would run its rows twice (trace, --policy) */
	for (int i = 0; i < *nr; i++)
		if (!strcmp(names[i], arg)) {
			fprintf(stderr, "ppsim %s: --%s %s named twice\n",
				spec->name, opt, arg);
			return -1;
		}
	names[(*nr)++] = arg;
	return 0;
}

/* s without the blanks around it, in place: --set "nic.rx_ring = 512"
 * says what a scenario line says. */
static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

/* Where the n-th override was said, as the loader says it: "--set:N"
 * (the N-th --set), or the option ("--duration"). */
static void override_at(const struct cmd_opts *o, int n, char *buf,
			size_t len)
{
	int nr = 0;

	for (int i = 0; i <= n; i++)
		nr += !o->set[i].file;
	if (o->set[n].file)
		snprintf(buf, len, "%s", o->set[n].file);
	else
		snprintf(buf, len, "--set:%d", nr);
}

/* One key overridden twice: the last would win without a word (sweep
 * refuses it as a key swept twice).  global.duration is duration. */
static int check_override_once(const struct cmd_spec *spec,
			       const struct cmd_opts *o)
{
	int n = o->nr_set - 1;
	const char *key = o->set[n].key;

	if (!strncmp(key, "global.", 7))
		key += 7;
	for (int i = 0; i < n; i++) {
		const char *k = o->set[i].key;
		char at[32], first[32];

		if (!strncmp(k, "global.", 7))
			k += 7;
		/* sweep's --set is an axis: distinct_keys says it */
		if (strcmp(k, key) || ((spec->options & CMD_EMIT_JOBS) &&
				       (!o->set[i].file || !o->set[n].file)))
			continue;
		override_at(o, n, at, sizeof(at));
		override_at(o, i, first, sizeof(first));
		fprintf(stderr, "%s: %s: given twice (%s gave it): the last "
			"would win; give it once\n", at, key, first);
		return -1;
	}
	return 0;
}

/* --set KEY=VALUE, as a scenario line would say it. */
static int take_set(const struct cmd_spec *spec, char *arg,
		    struct cmd_opts *o)
{
	char *eq = strchr(arg, '='), *key, *value;

	if (!eq) {
		fprintf(stderr, "ppsim %s: --set %s: expected %s\n",
			spec->name, arg, option_arg(spec, CMD_SET));
		return -1;
	}
	*eq = '\0';
	key = trim(arg);
	value = trim(eq + 1);
	if (!*key || !*value) {
		fprintf(stderr, "ppsim %s: --set %s=%s: %s, expected %s\n",
			spec->name, key, value, *key ? "an empty value" :
			"no key", option_arg(spec, CMD_SET));
		return -1;
	}
	/* several values of a number or a word are a sweep, which only
	 * sweep runs; a text key (calibrate.free, measured) may hold
	 * commas */
	if (!(spec->options & CMD_EMIT_JOBS) && strchr(value, ',') &&
	    scn_key_one_value(key)) {
		fprintf(stderr, "ppsim %s: --set %s=%s: one value a key here; "
			"to run several, use ppsim sweep FILE --set %s=%s\n",
			spec->name, key, value, key, value);
		return -1;
	}
	o->set[o->nr_set++] = (struct scn_override){ .key = key,
						     .value = value };
	return check_override_once(spec, o);
}

static int take_format(const struct cmd_spec *spec, const char *arg,
		       struct cmd_opts *o)
{
	if (!strcmp(arg, "table"))
		o->format = CMD_TABLE;
	else if (!strcmp(arg, "csv"))
		o->format = CMD_CSV;
	else if (!strcmp(arg, "json"))
		o->format = CMD_JSON;
	else if (!strcmp(arg, "commit") && (spec->options & CMD_COMMIT_FMT))
		o->format = CMD_COMMIT;
	else {
		fprintf(stderr, "ppsim %s: --format %s: expected %s\n",
			spec->name, arg, spec->options & CMD_COMMIT_FMT ?
			"table, csv, json or commit" : "table, csv or json");
		return -1;
	}
	return 0;
}

static int take(const struct cmd_spec *spec, enum cmd_opt opt,
		char *arg, struct cmd_opts *o)
{
	char *end;

	switch (opt) {
	case CMD_CASE:
		return add_name(spec, "case", o->cases, &o->nr_cases, arg);
	case CMD_POLICY:
		return add_name(spec, "policy", o->policies, &o->nr_policies,
				arg);
	case CMD_OUT: o->out = arg; return 0;
	case CMD_RESULTS: o->results = arg; return 0;
	case CMD_DRY_RUN: o->dry_run = true; return 0;
	case CMD_EXPLAIN: o->explain = true; return 0;
	case CMD_UPDATE: o->update = true; return 0;
	case CMD_MAN: o->man = true; return 0;
	case CMD_EMIT_JOBS:
		if (!arg || !strcmp(arg, "parallel"))
			o->emit_jobs = CMD_JOBS_PARALLEL;
		else if (!strcmp(arg, "slurm"))
			o->emit_jobs = CMD_JOBS_SLURM;
		else {
			fprintf(stderr, "ppsim %s: --emit-jobs=%s: expected "
				"parallel or slurm\n", spec->name, arg);
			return -1;
		}
		return 0;
	case CMD_TASK:
		return parse_count(spec, "--task", arg, 1, 1 << 16, &o->task);
	case CMD_CHDIR: o->slurm.chdir = arg; return 0;
	case CMD_TIME:
		o->slurm.time = arg;
		if (slurm_time(arg))
			return 0;
		fprintf(stderr, "ppsim %s: --time %s: expected MM, MM:SS, "
			"HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (sbatch's "
			"forms), not all zero\n", spec->name, arg);
		return -1;
	case CMD_MEM:
		o->slurm.mem = arg;
		if (slurm_mem(arg))
			return 0;
		fprintf(stderr, "ppsim %s: --mem %s: expected a whole number "
			"of MB, or one with K, M, G or T (sbatch's form)\n",
			spec->name, arg);
		return -1;
	case CMD_CPUS:
		return parse_count(spec, "--cpus-per-task", arg, 1, 256,
				   &o->slurm.cpus);
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
		o->seed_given = true;
		errno = 0;
		o->rc.seed = strtoul(arg, &end, 10);
		if (end != arg && !*end && !errno && arg[0] != '-')
			return 0;
		fprintf(stderr, "ppsim %s: --seed %s: expected a whole "
			"number\n", spec->name, arg);
		return -1;
	case CMD_FORMAT:
		return take_format(spec, arg, o);
	default:	/* the overrides, in the order given */
		break;
	}
	if (o->nr_set == CMD_MAX_SET) {
		fprintf(stderr, "ppsim %s: at most %d --set, --duration and "
			"--queues\n", spec->name, CMD_MAX_SET);
		return -1;
	}
	if (opt == CMD_SET)
		return take_set(spec, arg, o);
	o->set[o->nr_set++] = (struct scn_override){
		.key = opt == CMD_DURATION ? "duration" : "queues",
		.value = arg,
		.file = opt == CMD_DURATION ? "--duration" : "--queues" };
	return check_override_once(spec, o);
}

/*
 * --policy P... in a command that reads scenarios: run these policies,
 * the first the baseline, as "--set policies=P..." and "--set
 * baseline=P" would; a policy the file does not list runs too, and the
 * measured figures of the file's policies not run are left out (said by
 * cmd_warn_scenario).  The overrides name "--policy" as where they were
 * said, which also keeps them out of sweep's axes.
 */
static int select_policies(const struct cmd_spec *spec, struct cmd_opts *o)
{
	/* the value lives as long as the process, as argv does: a command
	 * copies its cmd_opts (sweep) */
	static char words[SCN_TEXT_MAX];
	const char *first = NULL;
	size_t used = 0;

	if (!o->nr_policies || !(spec->options & CMD_SET))
		return 0;
	for (int i = 0; i < o->nr_set; i++) {
		if (cmd_policy_key(o->set[i].key)) {
			fprintf(stderr, "ppsim %s: --policy and --set %s= both "
				"choose the policies: give one\n", spec->name,
				o->set[i].key);
			return -1;
		}
	}
	for (int i = 0; i < o->nr_policies; i++) {
		const char *name = o->policies[i];
		int n;

		/* cmd_check_names says it, beside an unknown --case */
		if (!pp_policy_find(cmd_policies, name))
			continue;
		n = snprintf(words + used, sizeof(words) - used, "%s%s",
			     first ? " " : "", name);
		if (n < 0 || (size_t)n >= sizeof(words) - used) {
			fprintf(stderr, "ppsim %s: --policy: the names are "
				"longer than a scenario line\n", spec->name);
			return -1;
		}
		used += (size_t)n;
		first = first ? first : name;
	}
	if (!first)
		return 0;
	if (o->nr_set + 2 > CMD_MAX_SET) {
		fprintf(stderr, "ppsim %s: at most %d --set, --duration and "
			"--queues with --policy\n", spec->name,
			CMD_MAX_SET - 2);
		return -1;
	}
	o->set[o->nr_set++] = (struct scn_override){ .key = "policies",
		.value = words, .file = "--policy" };
	o->set[o->nr_set++] = (struct scn_override){ .key = "baseline",
		.value = first, .file = "--policy" };
	return 0;
}

/* An option getopt refused: said once, with where to read more. */
static int refuse(const struct cmd_spec *spec, int ch, char **argv)
{
	const char *what = argv[optind - 1];

	if (ch == ':')
		fprintf(stderr, "ppsim %s: %s needs a value\n", spec->name,
			what);
	else if (isalnum(optopt))	/* a short one: a long one's is its
					 * index, and what may be the option
					 * before a cluster (--dry-run -da) */
		fprintf(stderr, "ppsim %s: unknown option '-%c'\n", spec->name,
			optopt);
	else
		fprintf(stderr, "ppsim %s: unknown option '%s'\n", spec->name,
			what);
	fprintf(stderr, "Try 'ppsim %s --help'.\n", spec->name);
	return -1;
}

/* Whether two operands name one file (a.ini and ./a.ini): its figures
 * would count twice in the means, its rows show twice.  Said on stderr. */
static bool named_twice(const struct cmd_spec *spec, const struct cmd_opts *o)
{
	for (int j = 1; j < o->nr_args; j++)
		for (int i = 0; i < j; i++)
			if (outfile_same_file(o->args[i], o->args[j])) {
				fprintf(stderr, "ppsim %s: %s: the same file "
					"as %s: give each file once\n",
					spec->name, o->args[j], o->args[i]);
				return true;
			}
	return false;
}

int cmd_parse(int argc, char **argv, const struct cmd_spec *spec,
	      struct cmd_opts *o)
{
	struct option longs[NR_OPTIONS + 2];
	int n = 0, ch;

	*o = (struct cmd_opts){ .rc = { .reps = CMD_REPS_DEFAULT, .jobs = 1,
					.seed = 1 } };
	for (size_t i = 0; i < NR_OPTIONS; i++)
		if (spec->options & cmd_options[i].opt)
			longs[n++] = (struct option){ cmd_options[i].name,
				!cmd_options[i].arg ? no_argument :
				optional_arg(&cmd_options[i]) ? optional_argument :
				required_argument, NULL, (int)i };
	longs[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[n] = (struct option){ NULL, 0, NULL, 0 };
	/* 0, not 1: glibc then forgets a previous parse too (its place in a
	 * cluster of short options points into that argv); our own messages,
	 * which name the command, not getopt's */
	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, spec->options & CMD_JOBS ?
				 ":j:h" : ":h", longs, NULL)) != -1) {
		if (ch == 'h') {
			cmd_usage(stdout, spec);
			return 1;
		}
		if (ch == 'j')
			ch = (int)(option_of(CMD_JOBS) - cmd_options);
		if (ch < 0 || ch >= (int)NR_OPTIONS)
			return refuse(spec, ch, argv);
		/* "--out --dry-run": the next option taken as the value would
		 * run the whole simulation into a directory named --dry-run */
		if (optarg && optarg == argv[optind - 1] &&
		    !strncmp(optarg, "--", 2)) {
			const char *opt = argv[optind - 2];

			fprintf(stderr, "ppsim %s: %s needs a value ('%s' is an "
				"option", spec->name, opt, optarg);
			if (!strncmp(opt, "--", 2))
				fprintf(stderr, "; %s=%s if it is meant", opt,
					optarg);
			fputs(")\n", stderr);
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
	if (spec->max_args == CMD_ANY && named_twice(spec, o))
		return -1;
	o->file = o->nr_args ? o->args[0] : NULL;
	return select_policies(spec, o);
}
