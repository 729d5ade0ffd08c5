/* The rows and the worker pool: a row says what report/ needs of its
 * case; every (row, replication) is a forked simulation, at most jobs at
 * a time, each collected as soon as it finishes (so that a long
 * simulation does not hold a core idle behind it) into its own slot, and
 * failures said in row order at the end: the output is the same whatever
 * the parallelism. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../io/datadir.h"
#include "cmd.h"

struct rep_row cmd_row(struct scn_case *c, const struct pp_policy *policy,
		       double measured)
{
	struct rep_row row = { .c = c, .policy = policy,
			       .measured = measured,
			       .unit = sim_rate_unit(&c->sim),
			       .baseline = scn_baseline(c) };

	scn_format_value("duration", c->sim.load.duration, row.duration,
			 sizeof(row.duration));
	if (c->sim.load.precision > 0) {	/* "50ms,0.2%": the most, and
						 * the precision it ends at */
		size_t n = strlen(row.duration);

		snprintf(row.duration + n, sizeof(row.duration) - n, ",%.10g%%",
			 c->sim.load.precision);
	}
	return row;
}

struct job {
	struct rep_row *row;
	int rep;
	int pid, fd;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A bar over every (row, replication), with the percentage and the time
 * left at the pace so far; on stderr only when it is a terminal (never
 * in a pipe, a log or a test), and erased when all is done. */
static void progress(int done, int total, double start, const struct job *j)
{
	enum { WIDTH = 24 };
	double spent = now() - start;
	long left = lround(spent / done * (total - done));
	int fill = done * WIDTH / total;

	/* its own control characters, on the terminal as it is; the names
	 * through the one escaping function */
	FILE *tty = datadir_raw_stderr ? datadir_raw_stderr : stderr;

	fprintf(tty, "\r\033[K[%.*s%*s] %3d%% %d/%d ETA %ld:%02ld  ", fill,
		"========================", WIDTH - fill, "",
		done * 100 / total, done, total, left / 60, left % 60);
	datadir_put_line_text(tty, j->row->c->name);
	fprintf(tty, " %s rep %d", j->row->policy->name, j->rep + 1);
	if (done == total)
		fprintf(tty, "\r\033[K");
	fflush(tty);
}

/* The running job that finished first: the first whose pipe has its
 * result (or hung up); the oldest if poll() cannot say. */
static int finished(const struct job *running, int nr, struct pollfd *pfd)
{
	for (int i = 0; i < nr; i++)
		pfd[i] = (struct pollfd){ .fd = running[i].fd,
					  .events = POLLIN };
	while (poll(pfd, (nfds_t)nr, -1) < 0)
		if (errno != EINTR)
			return 0;
	for (int i = 0; i < nr; i++)
		if (pfd[i].revents)
			return i;
	return 0;
}

int cmd_run_rows(struct rep_row *rows, int nr_rows,
		 const struct rep_opts *rc, const char *file)
{
	int reps = rc->reps, jobs = rc->jobs;
	unsigned long seed = rc->seed;
	int total = nr_rows * reps, started = 0, done = 0, failed = 0;
	struct job *running = calloc((size_t)jobs, sizeof(*running));
	struct pollfd *pfd = calloc((size_t)jobs, sizeof(*pfd));
	int nr_running = 0;
	bool bar = !rc->quiet && isatty(STDERR_FILENO);
	double start = now();

	if (!running || !pfd) {
		fprintf(stderr, "ppsim: out of memory\n");
		free(running);
		free(pfd);
		return -1;
	}
	for (int i = 0; i < nr_rows; i++) {
		rows[i].res = calloc((size_t)reps, sizeof(struct sim_result));
		if (!rows[i].res) {
			fprintf(stderr, "ppsim: out of memory\n");
			free(running);
			free(pfd);
			return -1;
		}
	}
	while (done < total) {
		struct job j;
		int k;

		while (nr_running < jobs && started < total) {
			struct job *n = &running[nr_running];

			n->row = &rows[started / reps];
			n->rep = started % reps;
			n->pid = sim_start(&n->row->c->sim, n->row->policy,
					   seed + (unsigned long)n->rep,
					   &n->fd);
			if (n->pid < 0) {
				fprintf(stderr, "ppsim: fork: %s\n",
					strerror(errno));
				free(running);
				free(pfd);
				return -1;
			}
			nr_running++;
			started++;
		}
		k = finished(running, nr_running, pfd);
		j = running[k];
		sim_collect(j.pid, j.fd, &j.row->res[j.rep]);
		memmove(&running[k], &running[k + 1],
			(size_t)(nr_running - k - 1) * sizeof(*running));
		nr_running--;
		done++;
		if (bar)
			progress(done, total, start, &j);
	}
	for (int i = 0; i < nr_rows; i++) {
		for (int r = 0; r < reps; r++) {
			if (!rows[i].res[r].status)
				continue;
			if (file)
				fprintf(stderr, "%s: ", file);
			else
				fprintf(stderr, "%s:%d: ", rows[i].c->file,
					rows[i].c->line);
			fprintf(stderr, "case %s, policy %s: %s\n",
				rows[i].c->name, rows[i].policy->name,
				rows[i].res[r].why);
			failed++;
		}
	}
	free(running);
	free(pfd);
	return failed ? -1 : 0;
}

void cmd_free_results(struct rep_row *rows, int nr_rows)
{
	for (int i = 0; i < nr_rows; i++) {
		free(rows[i].res);
		rows[i].res = NULL;
	}
}
