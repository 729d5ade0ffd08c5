/*
 * Running a scenario's cases: ppsim run, and the rows that ppsim
 * calibrate and ppsim validate run through the same machinery.
 */
#ifndef PPSIM_RUN_H
#define PPSIM_RUN_H

#include "sim.h"

#define RUN_MAX_REPS	100

/* One (case, policy) and its replications. */
struct run_row {
	struct scn_case *c;
	const char *policy;
	struct sim_result *res;	/* reps results */
	double measured;	/* Mpps; NAN if none */
};

struct figure {
	double mean;
	double ci95;		/* half-width; NAN with one replication */
};

struct run_common;

/*
 * Runs rc->reps replications of every row (seeds rc->seed, rc->seed + 1,
 * ...), at most rc->jobs at a time, filling row->res (allocated here,
 * freed by run_rows_free).  Failures are reported on stderr naming file;
 * returns -1 if any run failed.
 */
int run_rows(struct run_row *rows, int nr_rows, const struct run_common *rc,
	     const char *file);
void run_rows_free(struct run_row *rows, int nr_rows);

/* The predicted rate (Mpps) of a row over its replications. */
struct figure run_rate(const struct run_row *row, int reps);
/* What limits a row's rate: "cpu", "pcie", "nic" or "none". */
const char *run_saturated(const struct run_row *row, int reps);
/* The CSV header and a row's metric lines, each line starting with
 * prefix (extra leading columns, e.g. swept values: "256,"). */
void run_csv_header(FILE *f, const char *prefix);
void run_csv_row(FILE *f, const char *prefix, const struct run_row *row,
		 int reps);

/* The measured rate of a case under a policy, NAN if none. */
double run_measured(const struct scn_case *c, const char *policy);

/* The options run, sweep, validate and calibrate share. */
struct run_common {
	int reps;		/* replications */
	int jobs;		/* simulations at once */
	unsigned long seed;	/* the first seed */
};

/* Handles getopt's ch if it is --reps ('r'), --seed ('s') or -j ('j'):
 * returns 1 if it was one, 0 if not, -1 (said on stderr) if its value is
 * bad. */
int run_common_opt(int ch, const char *arg, struct run_common *c,
		   const char *cmd);

/* The command; returns the exit status. */
int run_main(int argc, char **argv);

#endif
