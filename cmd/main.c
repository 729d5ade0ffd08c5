/*
 * ppsim: predicts what a change to the Linux page_pool does to packet rates.
 * Exit status: 0 ok, 1 runtime failure, 2 bad usage or bad input.
 */
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <simgrid/engine.h>
#include "config.h"
#include "cmd.h"
#include "../io/datadir.h"
#include "../report/outfile.h"
#include "../model/page_pool/kernel_era.h"

const struct pp_policy *const cmd_policies[] = {
	&kernel_era_v5_4.pp, &kernel_era_v5_5.pp, &kernel_era_v6_1.pp,
	&kernel_era_v6_12.pp,
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
"  compare   two runs' rates side by side: the change, beyond the CIs or not\n"
"  report    a run's results (its CSV) in another format, nothing simulated\n"
"  bench     how fast the simulator runs against a bare page_pool loop\n"
"  trace     run a trace of page_pool operations through a kernel era\n"
"  keys      list every scenario key, or explain one: ppsim keys nic.rx_ring\n"
"  help      describe a command: ppsim help run (as ppsim run --help)\n"
"\n"
"run, validate, sweep and calibrate take --duration, --set KEY=VALUE,\n"
"--reps (default %d), --seed and -j alike, and all but calibrate (which\n"
"fits on its own cases) --case and --policy (repeatable); bench times\n"
"one run of one case: --case, --policy, --queues, --duration.\n"
"'ppsim COMMAND --help' describes a command; ppsim(1) describes them all.\n"
"Shipped files are looked up in %s when not found as given.\n",
		CMD_REPS_DEFAULT, datadir_path());
}

/*
 * SimGrid's own options (--cfg=, --log=) are not taken: ppsim sets
 * SimGrid's configuration itself (it is part of the model: DESIGN.md), and
 * SimGrid aborts with a core dump on one it cannot read.  simgrid_init()
 * sees argv[0] alone, so that it cannot answer --help or --version.
 */
static int simgrid_args(char **argv)
{
	char *sg_argv[] = { argv[0], NULL };
	int sg_argc = 1;

	for (int i = 1; argv[i]; i++) {
		if (!strncmp(argv[i], "--cfg=", 6) ||
		    !strncmp(argv[i], "--log=", 6)) {
			fprintf(stderr, "ppsim: %s: SimGrid's options are not "
				"taken: ppsim configures SimGrid itself\n",
				argv[i]);
			return -1;
		}
	}
	simgrid_init(&sg_argc, sg_argv);
	/* an interrupt ends ppsim quietly (status 130), its simulations
	 * with it (sim_start); SimGrid's handler prints backtraces and
	 * exits 1 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* a reader that closed the pipe (ppsim run | head -1) costs the
	 * table, not the run: the files --out names are still written, and
	 * the lost output is said at the end (exit 1), not a silent 141 */
	signal(SIGPIPE, SIG_IGN);
	/* past the file size limit (ulimit -f) a write fails (EFBIG) and
	 * is said as a full disk's is, rather than ending ppsim with its
	 * temporary files left */
	signal(SIGXFSZ, SIG_IGN);
	return 0;
}

/* The command's status, made 1 if what it wrote to stdout was lost. */
static int finish(int status)
{
	if (outfile_close_stdout() && !status)
		status = 1;
	return status;
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
		{ "compare", compare_main },
		{ "report", report_main },
		{ "bench", bench_main },
		{ "trace", trace_main },
		{ "keys", keys_main },
	};

	char *help_argv[] = { argv[0], NULL, "--help", NULL };

	outfile_guard_std();
	/* every message, whatever its layer, without control characters
	 * from the text it echoes (datadir_put_text) */
	datadir_escape_stderr();
	if (simgrid_args(argv))
		return 2;
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return finish(0);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s\n", PACKAGE_STRING);
		return finish(0);
	}
	/* ppsim help CMD: what ppsim CMD --help says */
	if (!strcmp(argv[1], "help")) {
		if (argc == 2) {
			usage(stdout);
			return finish(0);
		}
		bool known = false;

		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]);
		     i++)
			known |= argc == 3 && !strcmp(argv[2], commands[i].name);
		if (argc == 3 && (!strcmp(argv[2], "help") ||
				  !strcmp(argv[2], "--help"))) {
			usage(stdout);
			return finish(0);
		}
		if (argc > 3 || !known) {
			fprintf(stderr, "ppsim help: %s%s%s\n", argc > 3 ?
				"expected one COMMAND" : "unknown command '",
				argc > 3 ? "" : argv[2], argc > 3 ? "" : "'");
			usage(stderr);
			return 2;
		}
		help_argv[1] = argv[2];
		argv = help_argv;
		argc = 3;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].run(argc - 1, argv + 1));
	fprintf(stderr, "ppsim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
