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
int bench_main(int argc, char **argv);
int trace_main(int argc, char **argv);
int keys_main(int argc, char **argv);

/* Handles getopt's ch if it is --reps ('r'), --seed ('s') or -j ('j'):
 * returns 1 if it was one, 0 if not, -1 (said on stderr) if its value is
 * bad. */
int cmd_common_opt(int ch, const char *arg, struct rep_opts *o,
		   const char *cmd);

/* The options of validate and calibrate: FILE [--reps N] [--seed S]
 * [-j N], and --out FILE for calibrate (want_out). */
struct cmd_fit_opts {
	const char *file;
	const char *out;
	struct rep_opts rc;
};
int cmd_fit_opts(int argc, char **argv, struct cmd_fit_opts *o,
		 const char *cmd, bool want_out);

/* Every measured (case, policy) of a scenario, or only those of the cases
 * [calibrate] cases names (fit_only); returns how many. */
int cmd_measured_rows(struct scenario *scn, struct rep_row *rows,
		      bool fit_only);
/* Whether [calibrate] cases names the case. */
bool cmd_in_fit(const struct scenario *scn, const char *name);

#endif
