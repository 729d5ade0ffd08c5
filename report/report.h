/*
 * Reporting: what ppsim does with simulations once a scenario is loaded.
 * A row is one (case, policy) with its replications; the worker pool runs
 * them (one forked simulation each, at most jobs at once); the figures are
 * a metric's mean and 95 % confidence interval over the replications; the
 * outputs are ppsim run's table, CSV, JSON, transient samples and the flat
 * tables the plot scripts read.  run, sweep, validate, calibrate and bench
 * all go through here.
 */
#ifndef PPSIM_REPORT_H
#define PPSIM_REPORT_H

#include <stdio.h>
#include "../input/scenario.h"

#define REP_MAX_REPS	100

/* A row's cells in the commit table (--format commit) and the headers of
 * their columns: its case's label under the label_columns, else its name
 * under "Case". */
struct rep_labels {
	int nr_heads, nr_cells;
	char head[SCN_MAX_LABELS][SCN_NAME_MAX];
	char cell[SCN_MAX_LABELS][SCN_NAME_MAX];
};

/* One (case, policy) and its replications, and what the outputs say of
 * its case: the command that makes the row fills these in (cmd_row), so
 * that report/ asks neither input/ nor sim/. */
struct rep_row {
	struct scn_case *c;
	const struct pp_policy *policy;
	struct sim_result *res;	/* reps results */
	double measured;	/* in the case's unit; NAN if none */
	const char *unit;	/* the rate's: "Mpps" or "Gbps" */
	const struct pp_policy *baseline;	/* what delta% compares with */
	char duration[32];	/* the simulated time, as a file writes it */
	const struct rep_labels *labels;	/* --format commit's; or NULL */
	/* a run's results read back (ppsim report), res NULL: each
	 * metric's figure, and what saturated, as the run wrote them */
	const struct rep_figure *figures;
	const char *saturated;
};

struct rep_figure {
	double mean;
	double ci95;		/* half-width; NAN with one replication */
};

/* How many replications, how many at once, from which seed. */
struct rep_opts {
	int reps;		/* replications */
	int jobs;		/* simulations at once */
	unsigned long seed;	/* the first seed */
	bool quiet;		/* no progress bar, even on a terminal */
};

/* What the outputs say of a simulation, one metric each. */
enum rep_metric_id {
	REP_RATE,		/* the case's figure, in its unit */
	REP_PACKETS, REP_CPU, REP_STALL, REP_IDLE, REP_BUSY,
	REP_PKT_REMOTE, REP_PKT_RCACHE, REP_PKT_RDRAM, REP_PKT_LLC,
	REP_PKT_DRAM, REP_CQE_REMOTE, REP_LOCAL_PAGES, REP_DROP_NO_DESC,
	REP_DROP_NIC, REP_PCIE_UP, REP_PCIE_DOWN, REP_QPI, REP_SNOOPS, REP_DDIO_HIT,
	REP_CQ_LINES, REP_PP_FAST, REP_PP_NEW,
	REP_PP_CACHED, REP_PP_RING, REP_PP_RELEASED, REP_PP_WAIVE,
	/* where pages go back (issue 15): the return paths, the consumer */
	REP_PP_RING_FULL, REP_PP_SLOW_CALLS, REP_SKB_PAGE_FREE,
	REP_SPAGE_REMOTE, REP_CONS_RATE, REP_CONS_DROP, REP_CONS_CPU,
	REP_CONS_STALL, REP_CONS_BUSY, REP_CONS_FAR, REP_SKB_DEFER,
	REP_Q_MIN, REP_Q_MAX,
	REP_NR_METRICS,
};

struct rep_metric {
	const char *name;	/* as CSV and JSON name it */
	const char *unit;	/* "" for the rate: the case's unit */
	double (*fn)(const struct sim_result *r);
};

extern const struct rep_metric rep_metrics[REP_NR_METRICS];

/* A metric's mean and CI over a row's replications. */
struct rep_figure rep_figure(const struct rep_row *row, int reps,
			     enum rep_metric_id id);

/* The half-width of the 95 % confidence interval of the mean of the n
 * values v: t(0.975, n - 1) x s / sqrt(n), s the sample standard
 * deviation (n - 1); NAN when n < 2. */
double rep_ci95(const double *v, int n);

/* The standard error of a least-squares parameter: dv x sqrt(s2 x covar),
 * s2 = chisq / (nr_rows - nr_params) the residual variance (the degrees
 * of freedom left, not the rows), covar the parameter's diagonal entry
 * of (J^T J)^-1, dv its derivative through a transform (1 without one);
 * NAN with no degree of freedom left. */
double rep_fit_se(double chisq, int nr_rows, int nr_params, double covar,
		  double dv);
/* The predicted rate of a row over its replications, in its case's unit. */
static inline struct rep_figure rep_rate(const struct rep_row *row, int reps)
{
	return rep_figure(row, reps, REP_RATE);
}
/* (predicted - measured) / measured in %, NAN without a measurement. */
double rep_error_pct(double predicted, double measured);
/* A text table's ci95 column, 6 wide: '-' where there is no interval
 * (one replication), as the run table shows it. */
void rep_put_ci95(FILE *f, double ci95);
/* What limits a row's rate: "cpu", "pcie", "nic" or "none". */
const char *rep_saturated(const struct rep_row *row, int reps);
/* The measured rate of a case under a policy, NAN if none. */
double rep_measured(const struct scn_case *c,
		    const struct pp_policy *policy);

/* The row rows[i] is compared with: its baseline policy's (row->baseline),
 * or -1 when that row is not among rows. */
int rep_baseline(const struct rep_row *rows, int nr_rows, int i);
/* rows[i]'s rate against its baseline row's in %: NAN without one. */
double rep_delta_pct(const struct rep_row *rows, int nr_rows, int i,
		     int reps);

/* Where an output's figures come from: what its header says. */
struct rep_prov {
	const char *command;	/* "run", "sweep" */
	const char *file;	/* the scenario */
	const struct rep_opts *rc;
	const struct scn_override *set;	/* --set, --duration, --queues */
	int nr_set;
	const char *machine;	/* the hardware profile's name, for plots */
	int nr_guesses;		/* figures marked a guess or a prior where
				 * they are set (scn_write_guesses) */
	bool uncalibrated;	/* driver cycles fitted on no figure of
				 * this core (scn_uncalibrated) */
	const char *borrowed;	/* costs of another core: "a zen4 core:
				 * broadwell's cost table" (input's
				 * scn_costs_borrowed); NULL: none */
};

/* Whether the command line changed the scenario the measurements were
 * taken on (any override but the duration, policies and baseline): err%
 * is then not computed, and the outputs say why. */
bool rep_altered(const struct rep_prov *p);
/* What the figures rest on, one line, when any is a guess or the cycles
 * are uncalibrated (nothing otherwise): a '#' line of the provenance, or
 * a sentence under a commit table, within its 72 columns. */
void rep_guesses_line(FILE *f, const struct rep_prov *p, bool commit);
/* The machine the rows ran on, its [machine] name: the first row's
 * case's (a scenario's cases share its profile), or NULL when it has
 * none.  The title of every table: rep_title_line writes "PREFIXmachine:
 * NAME" and a newline, nothing without a name. */
const char *rep_machine_name(const struct rep_row *rows, int nr_rows);
void rep_title_line(FILE *f, const char *prefix, const struct rep_row *rows,
		    int nr_rows);
/* The costs of another core, when p->borrowed says so (nothing
 * otherwise), the same text in every format: "# costs borrowed for
 * ...", or "Costs borrowed for ...", wrapped within 72 columns, under a
 * commit table.  What each is: doc/notes/core-costs.md section 7. */
void rep_borrowed_line(FILE *f, const struct rep_prov *p, bool commit);
/* The provenance as '# ' lines: version, commit, command, scenario,
 * the machine's name, seed, replications, duration, every override. */
void rep_preamble(FILE *f, const struct rep_prov *p,
		  const struct rep_row *rows, int nr_rows);

/* The provenance of a table over several files (validate): version,
 * commit, p->command and the number of files, then rep_conditions' line
 * (seed, replications, duration, overrides); the files head their
 * sections. */
void rep_files_head(FILE *f, const struct rep_prov *p, int nr_files,
		    const struct rep_row *rows, int nr_rows);
/* The dry run: a file's cases, each with its policies, then the line
 * that counts what would run over every file. */
void rep_dry_rows(FILE *f, const char *file, const struct rep_row *rows,
		  int nr);
void rep_dry_plan(FILE *f, const char *what, int nr_files,
		  const struct rep_row *rows, int nr_rows, int reps);

/* The rows' measured duration as a file writes it ("50ms"), or "varies". */
void rep_duration_text(const struct rep_row *rows, int nr_rows, char *buf,
		       size_t len);

/* The second provenance line: "# seed S  reps R  duration D", then
 * "  set KEY=VALUE ..." for every override (p->command and p->file
 * unused). */
void rep_conditions(FILE *f, const struct rep_prov *p,
		    const struct rep_row *rows, int nr_rows);

/* A CSV field (RFC 4180): quoted, each quote doubled, when it holds a
 * comma, a quote or a line break; on f, or into buf, cut to fit. */
void rep_csv_text(FILE *f, const char *s);
void rep_csv_field(char *buf, size_t len, const char *s);
/* A JSON string (quoted, escaped, UTF-8) and a "key": number member
 * (null for NAN), followed by ", " unless last. */
void rep_json_text(FILE *f, const char *text);
void rep_json_num(FILE *f, const char *key, double v, bool last);
/* "set": [...], every override as KEY=VALUE. */
void rep_json_set(FILE *f, const struct scn_override *set, int nr);
/* The CSV header and a row's metric lines, each line starting with
 * prefix (extra leading columns, e.g. swept values: "256,"); delta: the
 * rate's delta_pct (NAN: none); altered: no error_pct. */
void rep_csv_header(FILE *f, const char *prefix);
void rep_csv_row(FILE *f, const char *prefix, const struct rep_row *row,
		 int reps, double delta, bool altered);

/* A change in % as the commit tables show it, 7 columns at most:
 * "+12.3 %", and ">999 %" beyond (a change cannot fall below -100 %). */
void rep_change_text(char *buf, size_t len, double pct);

/* ppsim run's outputs, each with its provenance. */
void rep_write_csv(FILE *f, const struct rep_row *rows, int nr_rows,
		   const struct rep_prov *p);
void rep_write_json(FILE *f, const struct rep_row *rows, int nr_rows,
		    const struct rep_prov *p);
/* JSON's object of rows[i] (its metrics, delta% against its baseline
 * among rows, its explain), without a separator after it. */
void rep_json_row(FILE *f, const struct rep_row *rows, int nr_rows, int i,
		  int reps, bool altered);
void rep_write_table(FILE *f, const struct rep_row *rows, int nr_rows,
		     const struct rep_prov *p);
/* The seed's commit-message layout: per comparison with the baseline,
 * Case | Before | After | Change, at most 72 columns. */
void rep_write_commit(FILE *f, const struct rep_row *rows, int nr_rows,
		      const struct rep_prov *p);
/* --explain: each case's time a packet, work and the wait on memory by
 * what and where, its policies side by side (at most
 * REP_EXPLAIN_MAX_POLICIES). */
#define REP_EXPLAIN_MAX_POLICIES	8
void rep_write_explain(FILE *f, const struct rep_row *rows, int nr_rows,
		       const struct rep_prov *p);
/* The same of one row as a JSON object: {"KIND": {"PLACE": {"n": N,
 * "ns": NS}, ...}, ...}, the cells with anything in them. */
void rep_write_explain_json(FILE *f, const struct rep_row *row, int reps);
/* Every replication's samples across the migration. */
void rep_write_transient(FILE *f, const struct rep_row *rows, int nr_rows,
			 const struct rep_prov *p);
/* The mean of the replications' samples, sample by sample, as far as
 * every replication has them: transient-mean.csv, which
 * plots/transient.gp reads; and how many samples a row has there. */
void rep_write_transient_mean(FILE *f, const struct rep_row *rows,
			      int nr_rows, const struct rep_prov *p);
int rep_mean_samples(const struct rep_row *row, int reps);
/* A plot's title: the workloads, packet sizes and machine of the rows,
 * the version, the replications (never a path: a title is read on a
 * slide). */
void rep_plot_title(const struct rep_row *rows, int nr_rows,
		    const struct rep_prov *p, char *buf, size_t len);
/* The rows' policies in order, space-separated, and their colours
 * (#rrggbb), for the plot scripts' legends. */
void rep_plot_policies(const struct rep_row *rows, int nr_rows,
		       char *names, size_t nlen, char *colours, size_t clen);
/* The flat tables plots/rates.gp and plots/split.gp read. */
void rep_write_rates(FILE *f, const struct rep_row *rows, int nr_rows,
		     const struct rep_prov *p);
void rep_write_split(FILE *f, const struct rep_row *rows, int nr_rows,
		     const struct rep_prov *p);
/* A policy's colour in every plot (0xRRGGBB): the same in all. */
unsigned int rep_policy_colour(const struct pp_policy *pol);
/* The width of the case column: the longest case name, 12 at least, so
 * that the columns after it stay aligned. */
int rep_name_width(const struct rep_row *rows, int nr_rows);
/* The rate axis: Mpps for XDP cases, Gbps of payload for TCP ones. */
const char *rep_rate_label(const struct rep_row *rows, int nr_rows);

#endif
