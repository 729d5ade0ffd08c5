/*
 * ppsim sweep, inside cmd/: one key or several over their values, the
 * scenario run at every point of their cross product.  sweep.c reads the
 * axes, lays out the points and runs them; sweep_jobs.c writes them as
 * jobs (--emit-jobs); sweep_plot.c draws the plot from a sweep's CSV.
 */
#ifndef PPSIM_CMD_SWEEP_H
#define PPSIM_CMD_SWEEP_H

#include "cmd.h"
#include "../report/sweep.h"

#define SWEEP_MAX_VALUES 32
#define SWEEP_VALUE_MAX	64	/* a value's characters and its NUL: a
				 * machine's name (SCN_MACHINE_MAX) fits */
#define SWEEP_MAX_POINTS 256
#define SWEEP_MAX_RUNS	4096	/* (case, policy) pairs over all points */

struct axis {
	char key[64];
	char values[SWEEP_MAX_VALUES][SWEEP_VALUE_MAX];
	int nr_values;
	const char *file;	/* its [sweep]'s vary line, or NULL: --set */
	int line;
};

struct sweep_opts {
	const char *file;
	const char *name;		/* [sweep NAME], or NULL */
	char cases[SCN_TEXT_MAX];	/* [sweep NAME]'s cases, or empty */
	struct cmd_opts cl;		/* --case, --policy: cmd_wants_*() */
	struct axis axes[SWEEP_MAX_AXES];
	int nr_axes;
	/* --duration: one value for every point, not an axis */
	struct scn_override fixed[CMD_MAX_SET];
	int nr_fixed;
	struct rep_opts rc;
	bool csv, json;		/* --format */
	enum cmd_jobs emit_jobs;
	int task;			/* --task: its job alone; 0: all */
	struct cmd_slurm slurm;		/* --emit-jobs=slurm's */
	const char *out;
	/* the rows written: every point's, or --task's job's */
	int first_row, end_row;
};

/* A key and its values, "V1,V2,...", added to o's axes: 0, or -1 said
 * on stderr.  file and line: where a [sweep] gave it, or NULL and 0. */
int sweep_add_axis(struct sweep_opts *o, const char *key, const char *values,
		   const char *file, int line);
/* Loads every point's scenario and lays out its rows: 0, or -1 said. */
int sweep_build_points(struct sweep_opts *o, struct sweep_point *pts,
		       int nr_points, struct rep_row *rows, int *nr_rows);
/* What ran, as report/sweep.h has it: every row, each rate from its
 * replications (figs NULL) or as a CSV gave it. */
struct sweep_result sweep_result_of(const struct sweep_opts *o,
				    const struct sweep_point *pts,
				    int nr_points, const struct rep_row *rows,
				    const struct rep_figure *figs);

/* sweep_jobs.c: the jobs, as task_rows below counts them, printed for
 * GNU parallel or as a Slurm job array's script: an exit status. */
int sweep_task_rows(const struct sweep_opts *o, const struct sweep_point *pts,
		    int nr_points, const struct rep_row *rows, int task,
		    int *first, int *end);
int sweep_emit_jobs(const struct sweep_opts *o, const struct sweep_point *pts,
		    int nr_points, const struct rep_row *rows);

#endif
