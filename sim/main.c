/*
 * ppsim: predicts what a change to the Linux page_pool does to packet rates.
 * Exit status: 0 ok, 1 runtime failure, 2 bad usage or bad input.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include <simgrid/engine.h>
#include "bench.h"
#include "datadir.h"
#include "fit.h"
#include "run.h"
#include "scenario.h"
#include "sweep.h"
#include "trace.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: ppsim [--help] [--version] COMMAND [OPTIONS] [ARGS]\n"
"\n"
"Commands:\n"
"  run       simulate a scenario's cases: predicted vs measured rates\n"
"  validate  every measured figure beside its prediction, in or out of the fit\n"
"  calibrate fit the scenario's free parameters on its calibration cases\n"
"  sweep     run a scenario across the values of one or more keys\n"
"  merge     join the CSV files of sweeps run separately\n"
"  bench     how fast the simulator runs against a bare page_pool loop\n"
"  trace     run a trace of page_pool operations through a kernel era\n"
"  keys      list every scenario key with its default, unit and meaning\n"
"\n"
"'ppsim COMMAND --help' describes a command; ppsim(1) describes them all.\n"
"Shipped files are looked up in %s when not found as given.\n",
		datadir_path());
}

static void trace_usage(FILE *f)
{
	fprintf(f,
"Usage: ppsim trace --policy POLICY|all FILE\n"
"\n"
"Runs FILE, one page_pool operation a line, and prints one line per event:\n"
"where each page came from, where each put sent it, the kernel's page_pool\n"
"counters, and at the end the page accounting.  With 'all', every policy\n"
"runs the trace in turn under a '== policy NAME' header.\n"
"\n"
"Policies:\n");
	for (int i = 0; pp_policies[i]; i++)
		fprintf(f, "  %-6s %s\n", pp_policies[i]->name,
			pp_policies[i]->summary);
	fprintf(f, "\nOperations are listed in ppsim(1), section TRACE FILES.\n");
}

static int run_trace_file(const char *path, const struct pp_policy *pol)
{
	char found[PATH_MAX];
	FILE *in = datadir_fopen(path, found, sizeof(found));
	int status;

	if (!in) {
		fprintf(stderr, "%s: cannot open: %s\n", path,
			datadir_strerror(errno));
		return 2;
	}
	status = trace_run(in, path, pol, stdout);
	fclose(in);
	return status;
}

static int cmd_trace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *policy = NULL;
	int c, status = 0;

	while ((c = getopt_long(argc, argv, "p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			policy = optarg;
			break;
		case 'h':
			trace_usage(stdout);
			return 0;
		default:
			trace_usage(stderr);
			return 2;
		}
	}
	if (!policy || optind != argc - 1) {
		fprintf(stderr, "ppsim trace: %s\n", !policy ?
			"--policy is required" : "expected one trace FILE");
		trace_usage(stderr);
		return 2;
	}
	if (!strcmp(policy, "all")) {
		for (int i = 0; pp_policies[i] && status != 2; i++) {
			int rc;

			printf("== policy %s\n", pp_policies[i]->name);
			fflush(stdout);
			rc = run_trace_file(argv[optind], pp_policies[i]);
			status = rc > status ? rc : status;
		}
		return status;
	}
	if (!pp_policy_find(policy)) {
		fprintf(stderr, "ppsim trace: unknown policy '%s'\n", policy);
		trace_usage(stderr);
		return 2;
	}
	return run_trace_file(argv[optind], pp_policy_find(policy));
}

static int cmd_keys(int argc, char **argv)
{
	bool man = argc == 2 && !strcmp(argv[1], "--man");

	if (argc > 1 && !man) {
		fprintf(stderr, "Usage: ppsim keys [--man]\n");
		return 2;
	}
	scn_print_keys(stdout, man);
	return 0;
}

/*
 * SimGrid's options (--cfg=, --log=) go to simgrid_init() and the rest stay
 * ours: handing it all of argv would let it answer --help and --version.
 */
static void simgrid_args(int *argc, char **argv)
{
	char **sg_argv = calloc((size_t)*argc + 1, sizeof(*sg_argv));
	int sg_argc = 1, kept = 1;

	if (!sg_argv)
		exit(1);
	sg_argv[0] = argv[0];
	for (int i = 1; i < *argc; i++) {
		if (!strncmp(argv[i], "--cfg=", 6) ||
		    !strncmp(argv[i], "--log=", 6))
			sg_argv[sg_argc++] = argv[i];
		else
			argv[kept++] = argv[i];
	}
	argv[kept] = NULL;
	*argc = kept;
	simgrid_init(&sg_argc, sg_argv);
	free(sg_argv);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int argc, char **argv);
	} commands[] = {
		{ "run", run_main },
		{ "validate", validate_main },
		{ "calibrate", calibrate_main },
		{ "sweep", sweep_main },
		{ "merge", merge_main },
		{ "bench", bench_main },
		{ "trace", cmd_trace },
		{ "keys", cmd_keys },
	};

	simgrid_args(&argc, argv);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s\n", PACKAGE_STRING);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "ppsim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
