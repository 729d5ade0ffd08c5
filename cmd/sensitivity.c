/*
 * ppsim validate --sensitivity: which prior parameters the out-of-fit
 * predictions hang on.  A prior of a scenario is a numeric [cost] or
 * [model] key its files set (a key left at its default is not) that its
 * [calibrate] free does not fit, or a key named with --param.  Each is
 * moved, one at a time, to 0.75 and 1.25 times its value in every case of
 * every scenario where it is a prior; each such scenario's free parameters
 * are refitted on its calibration cases, and every out-of-fit figure is
 * predicted again, all of them in one worker pool.  The baseline is a
 * fit as ppsim calibrate does it; each refit starts there with its
 * Jacobian held (fit_rerun: two to five evaluations, where a fit takes
 * fifteen to forty), and is a whole fit again where the held Jacobian
 * does not agree with the baseline's minimum or its steps do not
 * settle.  A refit with nothing moved stays at the baseline, so that a
 * move shows what the prior does, not what a refit does.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "config.h"
#include "cmd.h"
#include "report/sensitivity.h"
#include "fit.h"
#include "../io/datadir.h"
#include "../model/workload/workload.h"

#define SENS_MAX_PARAMS	64
static const double sens_factor[2] = { 0.75, 1.25 };

/* One scenario of the run. */
struct sfile {
	const char *path;
	const struct scenario *base;	/* as written: never changed */
	struct scenario *work;	/* a copy the moves and the refit change; it
				 * shares base's strings (path, file names) */
	struct fit fit;		/* work's [calibrate] free and fit rows */
	double fitted[FIT_MAX_PARAMS];	/* the baseline's fit */
	int first, nr;		/* its out-of-fit rows in the shared array */
};
_Static_assert(FIT_MAX_PARAMS <= SENS_MAX_REFIT,
	       "every parameter a file refits has its place in sens_file");

struct sens {
	const struct cmd_opts *o;
	/* o's, quiet: the steps' line, with its ETA, is the progress */
	struct rep_opts rc;
	struct sfile *files;
	int nr_files;
	struct sens_param *params;
	int nr_params;
	struct rep_row *rows;	/* every file's out-of-fit figures */
	int nr_rows;
	double *base;		/* their baseline predictions */
	double *base_rep;	/* and each replication's, reps a figure */
	double base_mae;
	bool base_rough;	/* the baseline did not settle */
	char unread[1024];	/* given priors no case reads: "a, b" */
};

static bool is_free(const struct fit *f, const char *key)
{
	for (int k = 0; k < f->nr_params; k++)
		if (!strcmp(f->p[k].key, key))
			return true;
	return false;
}

/* Whether a case of the file reads key: one that only some workloads
 * read (workload_reads) is read where a case runs one of them. */
static bool file_reads(const struct sfile *sf, const char *key)
{
	for (int i = 0; i < sf->base->nr_cases; i++)
		if (workload_reads(sf->base->cases[i].sim.rxq.workload, key))
			return true;
	return false;
}

/* Written in the file ([cost] and [model]) or named with --param, and
 * not fitted there. */
static bool is_given(const struct sfile *sf, const struct sens_param *sp)
{
	return (sp->named || scn_key_written(sf->base, sp->key)) &&
	       !is_free(&sf->fit, sp->key);
}

/* A prior of the file: given, and read by one of its cases (a move of
 * a key no case reads would show 0.0 both ways, a refit spent). */
static bool is_prior(const struct sfile *sf, const struct sens_param *sp)
{
	return is_given(sf, sp) && file_reads(sf, sp->key);
}

/* A whole number moves to the nearest whole value, and by one at least:
 * 2 x 0.75 would round back to 2 and show no move. */
static double moved_value(const char *key, double v, double factor)
{
	double m = round(v * factor);

	if (!scn_key_whole(key))
		return v * factor;
	/* 0 too: 0 x 0.75 is 0 */
	if (m == v && factor != 1)
		m += factor > 1 ? 1 : -1;
	return m;
}

/* Keys one of which holds the other: cost.pp_ring's cycles include its
 * lock's (cost.pp_lock, at most pp_ring).  They move together, so that a
 * move of one is never refused by that rule: the whole by factor moves
 * its part by factor; the part's move adds the same cycles to the whole. */
static const struct { const char *whole, *part; } sens_linked[] = {
	{ "cost.pp_ring", "cost.pp_lock" },
};

/* Moves key of c by factor, and the key linked to it; *changed says a
 * value changed.  Returns 0, or -1 with why and c as the puts left it
 * (the caller works on a copy). */
static int move_key(struct scn_case *c, const char *key, double factor,
		    bool *changed, char *why, size_t len)
{
	const char *other = NULL;
	double v, m, o = 0, om = 0;
	bool first_other = false;

	scn_case_get(c, key, &v);
	m = moved_value(key, v, factor);
	for (size_t i = 0; i < sizeof(sens_linked) / sizeof(*sens_linked);
	     i++) {
		if (!strcmp(key, sens_linked[i].whole)) {
			other = sens_linked[i].part;
			scn_case_get(c, other, &o);
			om = moved_value(other, o, factor);
			first_other = m < v;	/* the part shrinks first */
		} else if (!strcmp(key, sens_linked[i].part)) {
			other = sens_linked[i].whole;
			scn_case_get(c, other, &o);
			om = o + (m - v);
			first_other = m > v;	/* the whole grows first */
		}
	}
	*changed |= m != v;
	if (other && first_other && scn_case_put(c, other, om, why, len))
		return -1;
	if (scn_case_put(c, key, m, why, len))
		return -1;
	return other && !first_other ? scn_case_put(c, other, om, why, len) :
	       0;
}

/* Sets the work copies as written, then moves sp by factor in the files
 * where it is a prior; changed[f] says where a value changed. */
static void apply_move(struct sens *s, const struct sens_param *sp,
		       double factor, bool *changed)
{
	for (int f = 0; f < s->nr_files; f++) {
		struct sfile *sf = &s->files[f];

		*sf->work = *sf->base;
		fit_whole_windows(&sf->fit);
		changed[f] = false;
		if (!sp || !is_prior(sf, sp))
			continue;
		for (int i = 0; i < sf->work->nr_cases; i++) {
			char why[200];

			/* checked beforehand (check_moves) */
			move_key(&sf->work->cases[i], sp->key, factor,
				 &changed[f], why, sizeof(why));
		}
	}
}

/* A move the key or a case does not accept (a rule between two keys
 * that are not linked) is not made: refused, with the first case's
 * FILE:LINE and why, shown in the table instead of its figures. */
static void check_moves(struct sens *s)
{
	for (int k = 0; k < s->nr_params; k++) {
		struct sens_param *sp = &s->params[k];

		for (int f = 0; f < s->nr_files; f++) {
			const struct sfile *sf = &s->files[f];

			if (!is_prior(sf, sp))
				continue;
			for (int i = 0; i < sf->base->nr_cases; i++) {
				const struct scn_case *c = &sf->base->cases[i];

				for (int d = 0; d < 2; d++) {
					struct scn_case probe = *c;
					char why[200], text[32];
					bool moved = false;
					double v, m;

					scn_case_get(c, sp->key, &v);
					m = moved_value(sp->key, v,
							sens_factor[d]);
					if (sp->refused[d][0])
						continue;
					/* a value of 0 is no relative move:
					 * shown as insensitive, it would lie */
					if (m == v)
						snprintf(why, sizeof(why),
							 "a value of 0 moves "
							 "by no factor: set "
							 "another to see its "
							 "sensitivity");
					else if (v < 0)	/* migrate_at's never */
						snprintf(why, sizeof(why),
							 "a value below 0 "
							 "means 'never' (or "
							 "none): no factor "
							 "moves it");
					else if (!move_key(&probe, sp->key,
							   sens_factor[d],
							   &moved, why,
							   sizeof(why)))
						continue;
					scn_format_value(sp->key, m, text,
							 sizeof(text));
					snprintf(sp->refused[d],
						 sizeof(sp->refused[d]),
						 "%.200s:%d: %s = %s in case "
						 "%s: %s", c->file, c->line,
						 sp->key, text, c->name, why);
					sp->failed[d] = true;
				}
			}
		}
	}
}

/* Notes key among the unread: given in a file, read by none of its
 * cases. */
static void note_unread(struct sens *s, const char *key)
{
	size_t n = strlen(s->unread);

	snprintf(s->unread + n, sizeof(s->unread) - n, "%s%s",
		 n ? ", " : "", key);
}

/* Adds key if it is a prior of some file: returns 0, 1 if it is none's,
 * -1 after saying why. */
static int add_param(struct sens *s, const char *key, bool named)
{
	struct sens_param *sp;
	bool prior = false, given = false;

	for (int k = 0; k < s->nr_params; k++) {
		if (!strcmp(s->params[k].key, key)) {
			s->params[k].named |= named;
			return 0;
		}
	}
	if (s->nr_params == SENS_MAX_PARAMS) {
		fprintf(stderr, "ppsim validate: --sensitivity: at most %d "
			"parameters\n", SENS_MAX_PARAMS);
		return -1;
	}
	sp = &s->params[s->nr_params];
	*sp = (struct sens_param){ .most = -1, .order = s->nr_params,
			       .named = named };
	snprintf(sp->key, sizeof(sp->key), "%s", key);
	for (int f = 0; f < s->nr_files; f++) {
		prior |= is_prior(&s->files[f], sp);
		given |= is_given(&s->files[f], sp);
	}
	if (!prior && given && named) {
		char readers[256];

		workload_readers(key, readers, sizeof(readers));
		fprintf(stderr, "ppsim validate: --param %s: no case of these "
			"files reads it (only %s cases do)\n", key, readers);
		return -1;
	}
	if (!prior && given)
		note_unread(s, key);
	if (!prior)
		return 1;
	s->nr_params++;
	return 0;
}

/* The prior's value where it is one, or "varies". */
static void describe_value(const struct sens *s, struct sens_param *sp)
{
	double v0 = NAN;
	bool varies = false;

	for (int f = 0; f < s->nr_files; f++) {
		const struct sfile *sf = &s->files[f];

		if (!is_prior(sf, sp))
			continue;
		for (int i = 0; i < sf->base->nr_cases; i++) {
			double v;

			scn_case_get(&sf->base->cases[i], sp->key, &v);
			varies |= !isnan(v0) && v != v0;
			v0 = v;
		}
	}
	sp->v0 = varies ? NAN : v0;
	if (varies)
		snprintf(sp->value, sizeof(sp->value), "varies");
	else
		scn_format_value(sp->key, v0, sp->value, sizeof(sp->value));
	sp->whole = scn_key_whole(sp->key);
	for (int d = 0; sp->whole && !varies && d < 2; d++)
		scn_format_value(sp->key, moved_value(sp->key, v0,
						      sens_factor[d]),
				 sp->moved[d], sizeof(sp->moved[d]));
}

/* Whether key is the measurement's window (warmup, duration, sample):
 * moving it moves no figure of the machine or the case. */
static bool is_window(const char *key)
{
	char dotted[SCN_KEY_MAX];

	if (strchr(key, '.'))
		return scn_key_measures(key);
	snprintf(dotted, sizeof(dotted), "case.%s", key);
	return scn_key_measures(dotted);
}

/* The priors: [cost] and [model] in the key table's order, then every
 * --param not among them.  Returns 0, or -1 after saying why. */
static int find_params(struct sens *s)
{
	static const char *const sections[] = { "cost", "model" };
	const struct scn_case *c0 = &s->files[0].base->cases[0];

	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		char keys[SENS_MAX_PARAMS][SCN_KEY_MAX];
		int n = scn_numeric_keys(sections[i], keys, SENS_MAX_PARAMS);

		for (int k = 0; k < n && k < SENS_MAX_PARAMS; k++)
			if (add_param(s, keys[k], false) < 0)
				return -1;
	}
	for (int p = 0; p < s->o->nr_params; p++) {
		const char *key = s->o->params[p];
		double v;
		int rc;

		if (strlen(key) >= SCN_KEY_MAX || scn_case_get(c0, key, &v)) {
			/* anything the user typed: a line of its own */
			fputs("ppsim validate: --param ", stderr);
			datadir_put_line_text(stderr, key);
			fputs(": not a numeric key (ppsim keys lists them)\n",
			      stderr);
			return -1;
		}
		if (is_window(key)) {
			fprintf(stderr, "ppsim validate: --param %s: how long "
				"the run measures, not a figure a prediction "
				"rests on\n", key);
			return -1;
		}
		rc = add_param(s, key, true);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			fprintf(stderr, "ppsim validate: --param %s: "
				"[calibrate] free fits it in every file: a "
				"move would be fitted away\n", key);
			return -1;
		}
	}
	if (!s->nr_params) {
		fprintf(stderr, "ppsim validate: --sensitivity: no prior to "
			"move: no file sets a [cost] or [model] key it does "
			"not fit, and no --param\n");
		return -1;
	}
	for (int k = 0; k < s->nr_params; k++)
		describe_value(s, &s->params[k]);
	return 0;
}

/* Step step of total on a terminal (not with --quiet), with the time the
 * steps left take at the pace so far (every step a refit and a run,
 * alike in cost). */
static void progress(const struct sens *s, int step, int total,
		     const char *what)
{
	static struct timespec start;
	struct timespec ts;
	FILE *tty = datadir_raw_stderr ? datadir_raw_stderr : stderr;

	if (s->o->rc.quiet || !isatty(STDERR_FILENO))
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (!step)
		start = ts;
	fprintf(tty, "\r\033[K[%d/%d] ", step, total);
	if (step && step < total) {
		double spent = (double)(ts.tv_sec - start.tv_sec) +
			       (ts.tv_nsec - start.tv_nsec) / 1e9;
		long left = lround(spent / step * (total - step));

		fprintf(tty, "ETA %ld:%02ld ", left / 60, left % 60);
	}
	datadir_put_line_text(tty, what);
	if (step == total)
		fprintf(tty, "\r\033[K");
	fflush(tty);
}

/* Refits the files changed (all with changed NULL), then predicts their
 * out-of-fit figures into pred, and each replication's into rep (reps a
 * figure); the others keep the baseline's.  *rough when a refit did not
 * settle.  Returns 0, or -1 after saying what failed. */
static int predict(struct sens *s, const bool *changed, double *pred,
		   double *rep, const char *what, bool *rough)
{
	int reps = s->rc.reps;
	struct rep_row *run = calloc((size_t)s->nr_rows + 1, sizeof(*run));
	int *at = calloc((size_t)s->nr_rows + 1, sizeof(*at));
	int n = 0, rc = 0;

	if (!run || !at) {
		fprintf(stderr, "ppsim validate: out of memory\n");
		rc = -1;
		goto out;
	}
	for (int f = 0; f < s->nr_files; f++) {
		struct sfile *sf = &s->files[f];

		if (changed && !changed[f]) {
			for (int i = sf->first; i < sf->first + sf->nr; i++)
				pred[i] = s->base[i];
			memcpy(rep + sf->first * reps,
			       s->base_rep + sf->first * reps,
			       (size_t)(sf->nr * reps) * sizeof(*rep));
			continue;
		}
		/* the baseline fits; every move refits from there */
		if (changed ? fit_rerun(&sf->fit) : fit_run(&sf->fit)) {
			char why[80];

			fprintf(stderr, "ppsim validate: --sensitivity: %s: "
				"%s: the fit failed%s\n", what, sf->path,
				fit_why(&sf->fit, why, sizeof(why)));
			rc = -1;
			goto out;
		}
		*rough |= !sf->fit.converged;
		for (int i = sf->first; i < sf->first + sf->nr; i++) {
			at[n] = i;
			run[n++] = s->rows[i];
		}
	}
	if (cmd_run_rows(run, n, &s->rc, s->nr_files > 1 ? NULL : s->o->file)) {
		fprintf(stderr, "ppsim validate: --sensitivity: %s: a "
			"simulation failed\n", what);
		rc = -1;
	}
	for (int i = 0; i < n && !rc; i++) {
		pred[at[i]] = rep_rate(&run[i], reps).mean;
		for (int r = 0; r < reps; r++)
			rep[at[i] * reps + r] =
				rep_metrics[REP_RATE].fn(&run[i].res[r]);
	}
	cmd_free_results(run, n);
out:
	free(run);
	free(at);
	return rc;
}

static double mean_abs_error(const struct sens *s, const double *pred)
{
	double sum = 0;

	for (int i = 0; i < s->nr_rows; i++)
		sum += fabs(rep_error_pct(pred[i], s->rows[i].measured));
	return sum / s->nr_rows;
}

static double move_pct(const struct sens *s, const double *pred, int i)
{
	return (pred[i] - s->base[i]) / s->base[i] * 100;
}

/* The 95 % half-width of figure i's move, in % of its baseline: the
 * replications' differences, each move's run against the baseline's of
 * the same seed, so that what the seeds share cancels. */
static double move_noise(const struct sens *s, const double *rep, int i)
{
	int reps = s->rc.reps;
	double diff[REP_MAX_REPS];

	for (int r = 0; r < reps; r++)
		diff[r] = (rep[i * reps + r] - s->base_rep[i * reps + r]) /
			  s->base[i] * 100;
	return rep_ci95(diff, reps);
}

/* The largest move each way, the figure that moved most, the error, and
 * each move's noise. */
static void summarize(struct sens *s, struct sens_param *sp,
		      double *const rep[2])
{
	double best = -1;

	for (int d = 0; d < 2; d++) {
		sp->move[d] = 0;
		sp->noise[d] = NAN;
		if (sp->failed[d])
			continue;
		for (int i = 0; i < s->nr_rows; i++) {
			double m;

			sp->noise_of[d][i] = NAN;
			if (s->base[i] == 0)	/* no per cent (noted) */
				continue;
			sp->noise_of[d][i] = move_noise(s, rep[d], i);
			m = fabs(move_pct(s, sp->pred[d], i));
			if (m >= sp->move[d]) {
				sp->move[d] = m;
				sp->noise[d] = sp->noise_of[d][i];
			}
			if (m > best) {
				best = m;
				sp->most = i;
			}
		}
		sp->mae[d] = mean_abs_error(s, sp->pred[d]);
	}
}

/* What the predictions hang on first: the moves beyond their noise, the
 * largest first, then those within it. */
static int by_move(const void *a, const void *b)
{
	const struct sens_param *pa = a, *pb = b;
	double ma = sens_largest_move(pa), mb = sens_largest_move(pb);
	int na = sens_within_noise(pa), nb = sens_within_noise(pb);

	if (na != nb)
		return na - nb;
	return ma < mb ? 1 : ma > mb ? -1 : pa->order - pb->order;
}

/* The outputs: the table, or the CSV and the refused moves on stderr.
 * Returns 0, or -1 out of memory. */
static int write_outputs(const struct sens *s)
{
	const struct cmd_opts *o = s->o;
	struct rep_prov p = { .command = "validate --sensitivity",
			      .rc = &o->rc, .set = o->set,
			      .nr_set = o->nr_set };
	struct sens_file *files = calloc((size_t)s->nr_files, sizeof(*files));
	struct sens_result r = { files, s->nr_files, s->params, s->nr_params,
				 s->rows, s->nr_rows, s->base, s->base_mae,
				 s->base_rough,
				 { sens_factor[0], sens_factor[1] }, &p,
				 s->unread };

	if (!files) {
		fprintf(stderr, "ppsim validate: out of memory\n");
		return -1;
	}
	for (int f = 0; f < s->nr_files; f++) {
		const struct sfile *sf = &s->files[f];

		files[f] = (struct sens_file){ .path = sf->path,
			.first = sf->first, .nr = sf->nr,
			.nr_refit = sf->fit.nr_params };
		for (int k = 0; k < sf->fit.nr_params; k++) {
			files[f].refit_key[k] = sf->fit.p[k].key;
			files[f].refit_value[k] = sf->fitted[k];
		}
	}
	if (o->dry_run) {
		sens_write_dry(stdout, &r);
	} else if (o->format == CMD_CSV) {
		sens_write_csv(stdout, &r);
		sens_write_refused(stderr, "ppsim validate: ", &r);
		sens_write_unsure(stderr, "ppsim validate: note: ", &r);
		if (*s->unread)
			fprintf(stderr, "ppsim validate: note: not moved, "
				"read by no case of a file that gives them: "
				"%s\n", s->unread);
	} else {
		sens_write_table(stdout, &r);
	}
	free(files);
	return 0;
}

/* Loads the work copies, their fits and their out-of-fit rows. */
static int setup(struct sens *s, struct scenario **scn)
{
	int bad = 0;

	for (int f = 0; f < s->nr_files; f++) {
		struct sfile *sf = &s->files[f];
		struct rep_row all[FIT_MAX_ROWS];
		int n;

		sf->path = s->o->args[f];
		sf->base = scn[f];
		sf->work = malloc(sizeof(*sf->work));
		if (!sf->work) {
			fprintf(stderr, "ppsim validate: out of memory\n");
			return -1;
		}
		*sf->work = *scn[f];
		if (fit_init(&sf->fit, sf->work, sf->path, &s->rc)) {
			bad++;
			continue;
		}
		n = cmd_measured_rows(sf->work, all, false);
		sf->first = s->nr_rows;
		for (int i = 0; i < n; i++)
			if (!scn_fitted_on(sf->work, all[i].c->name))
				s->rows[s->nr_rows++] = all[i];
		sf->nr = s->nr_rows - sf->first;
	}
	if (bad)
		return -1;
	if (!s->nr_rows) {
		fprintf(stderr, "ppsim validate: --sensitivity: no measured "
			"figure is out of the fit: no prediction to watch\n");
		return -1;
	}
	return 0;
}

int validate_sensitivity(const struct cmd_opts *o, struct scenario **scn,
			 int nr_scn)
{
	struct sens s = { .o = o, .rc = o->rc, .nr_files = nr_scn };
	bool *changed = calloc((size_t)nr_scn, sizeof(*changed));
	int status = 2, failed = 0, step = 0;
	double *rep[2] = { NULL, NULL };	/* a move's replications */
	size_t nr_reps;

	s.rc.quiet = true;
	s.files = calloc((size_t)nr_scn, sizeof(*s.files));
	s.params = calloc(SENS_MAX_PARAMS, sizeof(*s.params));
	s.rows = calloc((size_t)nr_scn * FIT_MAX_ROWS, sizeof(*s.rows));
	if (!changed || !s.files || !s.params || !s.rows) {
		fprintf(stderr, "ppsim validate: out of memory\n");
		goto done;
	}
	if (setup(&s, scn) || find_params(&s))
		goto done;
	check_moves(&s);
	nr_reps = (size_t)s.nr_rows * (size_t)s.rc.reps;
	if (o->dry_run) {
		status = write_outputs(&s) ? 1 : 0;
		goto done;
	}
	status = 1;
	s.base = calloc((size_t)s.nr_rows, sizeof(*s.base));
	s.base_rep = calloc(nr_reps, sizeof(*s.base_rep));
	rep[0] = calloc(nr_reps, sizeof(*rep[0]));
	rep[1] = calloc(nr_reps, sizeof(*rep[1]));
	if (!s.base || !s.base_rep || !rep[0] || !rep[1])
		goto done;
	progress(&s, 0, 2 * s.nr_params + 1, "baseline");
	apply_move(&s, NULL, 1, changed);
	if (predict(&s, NULL, s.base, s.base_rep, "baseline", &s.base_rough))
		goto done;
	for (int f = 0; f < nr_scn; f++)
		for (int k = 0; k < s.files[f].fit.nr_params; k++)
			s.files[f].fitted[k] = s.files[f].fit.p[k].value;
	s.base_mae = mean_abs_error(&s, s.base);
	for (int k = 0; k < s.nr_params; k++) {
		struct sens_param *sp = &s.params[k];

		for (int d = 0; d < 2; d++) {
			char what[80];

			snprintf(what, sizeof(what), "%s x%.2f", sp->key,
				 sens_factor[d]);
			progress(&s, ++step, 2 * s.nr_params + 1, what);
			sp->pred[d] = calloc((size_t)s.nr_rows,
					     sizeof(*sp->pred[d]));
			sp->noise_of[d] = calloc((size_t)s.nr_rows,
						 sizeof(*sp->noise_of[d]));
			if (!sp->pred[d] || !sp->noise_of[d])
				goto done;
			if (sp->refused[d][0]) {	/* failed, not run */
				failed++;
				continue;
			}
			apply_move(&s, sp, sens_factor[d], changed);
			sp->failed[d] = predict(&s, changed, sp->pred[d],
						rep[d], what, &sp->rough[d]);
			failed += sp->failed[d];
		}
		summarize(&s, sp, rep);
	}
	progress(&s, 2 * s.nr_params + 1, 2 * s.nr_params + 1, "");
	qsort(s.params, (size_t)s.nr_params, sizeof(*s.params), by_move);
	status = write_outputs(&s) || failed ? 1 : 0;
done:
	for (int k = 0; s.params && k < SENS_MAX_PARAMS; k++) {
		for (int d = 0; d < 2; d++) {
			free(s.params[k].pred[d]);
			free(s.params[k].noise_of[d]);
		}
	}
	free(rep[0]);
	free(rep[1]);
	free(s.base_rep);
	for (int f = 0; s.files && f < nr_scn; f++)
		free(s.files[f].work);
	free(s.files);
	free(s.params);
	free(s.rows);
	free(s.base);
	free(changed);
	return status;
}
