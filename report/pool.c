/* The worker pool: every (row, replication) a forked simulation, at most
 * jobs at a time, results collected oldest first so they come back in a
 * fixed order whatever the parallelism. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report.h"

struct job {
	struct rep_row *row;
	int rep;
	int pid, fd;
};

static void progress(int done, int total, const struct job *j)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K[%d/%d] %s %s rep %d", done, total,
		j->row->c->name, j->row->policy->name, j->rep + 1);
	if (done == total)
		fprintf(stderr, "\r\033[K");
}

int rep_run(struct rep_row *rows, int nr_rows, const struct rep_opts *rc,
	     const char *file)
{
	int reps = rc->reps, jobs = rc->jobs;
	unsigned long seed = rc->seed;
	int total = nr_rows * reps, started = 0, done = 0, failed = 0;
	struct job *running = calloc((size_t)jobs, sizeof(*running));
	int nr_running = 0;

	for (int i = 0; i < nr_rows; i++)
		rows[i].res = calloc((size_t)reps, sizeof(struct sim_result));
	while (done < total) {
		while (nr_running < jobs && started < total) {
			struct job *j = &running[nr_running];

			j->row = &rows[started / reps];
			j->rep = started % reps;
			j->pid = sim_start(&j->row->c->sim, j->row->policy,
					   seed + (unsigned long)j->rep, &j->fd);
			if (j->pid < 0) {
				fprintf(stderr, "ppsim: fork: %s\n",
					strerror(errno));
				free(running);
				return -1;
			}
			nr_running++;
			started++;
		}
		/* oldest first: results come back in a fixed order */
		{
			struct job j = running[0];
			struct sim_result *r = &j.row->res[j.rep];

			sim_collect(j.pid, j.fd, r);
			if (r->status) {
				fprintf(stderr, "%s: case %s, policy %s: %s\n",
					file, j.row->c->name, j.row->policy->name,
					r->why);
				failed++;
			}
			memmove(&running[0], &running[1],
				(size_t)(nr_running - 1) * sizeof(*running));
			nr_running--;
			progress(++done, total, &j);
		}
	}
	free(running);
	return failed ? -1 : 0;
}

void rep_free(struct rep_row *rows, int nr_rows)
{
	for (int i = 0; i < nr_rows; i++) {
		free(rows[i].res);
		rows[i].res = NULL;
	}
}
