/* ppsim trace: a file of page_pool operations through one era or all. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "../input/datadir.h"
#include "../input/trace.h"

static void trace_usage(FILE *f)
{
	int w = 6;

	fprintf(f,
"Usage: ppsim trace --policy POLICY|all FILE\n"
"\n"
"Runs FILE, one page_pool operation a line, and prints one line per event:\n"
"where each page came from, where each put sent it, the kernel's page_pool\n"
"counters, and at the end the page accounting.  With 'all', every policy\n"
"runs the trace in turn under a '== policy NAME' header.\n"
"\n"
"Policies:\n");
	/* a kernel tree's policy is named by whoever configured ppsim */
	for (int i = 0; cmd_policies[i]; i++)
		if ((int)strlen(cmd_policies[i]->name) > w)
			w = (int)strlen(cmd_policies[i]->name);
	for (int i = 0; cmd_policies[i]; i++)
		fprintf(f, "  %-*s %s\n", w, cmd_policies[i]->name,
			cmd_policies[i]->summary);
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

int trace_main(int argc, char **argv)
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
		for (int i = 0; cmd_policies[i] && status != 2; i++) {
			int rc;

			printf("== policy %s\n", cmd_policies[i]->name);
			fflush(stdout);
			rc = run_trace_file(argv[optind], cmd_policies[i]);
			status = rc > status ? rc : status;
		}
		return status;
	}
	if (!pp_policy_find(cmd_policies, policy)) {
		fprintf(stderr, "ppsim trace: unknown policy '%s'\n", policy);
		trace_usage(stderr);
		return 2;
	}
	return run_trace_file(argv[optind], pp_policy_find(cmd_policies, policy));
}
