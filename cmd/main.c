/*
 * ppsim: predicts what a change to the Linux page_pool does to packet rates.
 * Exit status: 0 ok, 1 runtime failure, 2 bad usage or bad input.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <simgrid/engine.h>
#include "config.h"
#include "cmd.h"
#include "../input/datadir.h"

const struct pp_policy *const cmd_policies[] = {
	&pp_v5_4, &pp_v5_5, &pp_v6_1, &pp_v6_12,
#ifdef PPSIM_HAVE_KERNEL
	PPSIM_KERNEL_POLICIES	/* one per --with-linux tree */
#endif
	NULL,
};

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
		{ "trace", trace_main },
		{ "keys", keys_main },
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
