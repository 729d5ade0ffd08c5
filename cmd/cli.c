/* What the commands share: the options of every command that runs
 * simulations, and the rows of a scenario's measured figures. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

int cmd_common_opt(int ch, const char *arg, struct rep_opts *c,
		   const char *cmd)
{
	char *end;
	long v;

	if (ch != 'r' && ch != 's' && ch != 'j')
		return 0;
	errno = 0;
	if (ch == 's') {
		c->seed = strtoul(arg, &end, 10);
		if (!*end && !errno && arg[0] != '-')
			return 1;
		fprintf(stderr, "ppsim %s: --seed %s: expected a whole "
			"number\n", cmd, arg);
		return -1;
	}
	v = strtol(arg, &end, 10);
	if (ch == 'r' && !*end && v >= 1 && v <= REP_MAX_REPS) {
		c->reps = (int)v;
		return 1;
	}
	if (ch == 'j' && !*end && v >= 1 && v <= 256) {
		c->jobs = (int)v;
		return 1;
	}
	fprintf(stderr, "ppsim %s: %s %s: expected 1 to %d\n", cmd,
		ch == 'r' ? "--reps" : "-j", arg,
		ch == 'r' ? REP_MAX_REPS : 256);
	return -1;
}

int cmd_fit_opts(int argc, char **argv, struct cmd_fit_opts *o,
		 const char *cmd, bool want_out)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "reps", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	*o = (struct cmd_fit_opts){ .rc = { .reps = want_out ? 1 : 3, .jobs = 1,
					.seed = 1 } };
	while ((ch = getopt_long(argc, argv, "j:h", opts, NULL)) != -1) {
		int common = cmd_common_opt(ch, optarg, &o->rc, cmd);

		if (common < 0)
			goto usage;
		if (common)
			continue;
		switch (ch) {
		case 'o':
			if (!want_out)
				goto usage;
			o->out = optarg;
			break;
		case 'h':
			printf("Usage: ppsim %s FILE [--reps N] [--seed S] "
			       "[-j N]%s\n", cmd, want_out ? " [--out FILE]" : "");
			exit(0);
		default:
			goto usage;
		}
	}
	if (optind == argc - 1) {
		o->file = argv[optind];
		return 0;
	}
usage:
	fprintf(stderr, "Usage: ppsim %s FILE [--reps N (1-%d)] [--seed S] "
		"[-j N (1-256)]%s\n", cmd, REP_MAX_REPS,
		want_out ? " [--out FILE]" : "");
	return -1;
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

