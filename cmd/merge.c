/* ppsim merge: joins the CSV files of sweeps run separately (--emit-jobs):
 * one header, every file's rows.  Every file is read twice: first checked
 * whole (the first file's provenance lines in every file, a ppsim sweep's
 * header, the same in every file, every row whole,
 * with the header's number of fields and figures ppsim writes, no point
 * twice), then copied; so a bad file leaves nothing on stdout.  Memory
 * holds one line, and each row's point (its swept values, case, policy
 * and metric) to find one given twice. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd.h"
#include "../input/csv.h"
#include "../io/datadir.h"
#include "../report/outfile.h"

#define MERGE_MAX_FIELDS	64

/* A row's point, where it was read: key is its swept values, case,
 * policy and metric; the first run_len bytes of it its run (values,
 * case, policy), the first point_len its point (values). */
struct point {
	char *key;
	size_t run_len, point_len;
	const char *path;
	int line;
};

struct points {
	struct point *p;
	size_t nr, room;
};

/* A row's policy, metric and unit are words ppsim writes: a policy this
 * binary has, one of its metrics (rep_metrics, and saturated), the
 * metric's unit; saturated's value one of its resources.  Returns 0, or
 * -1 with FILE:LINE: why. */
static int check_words(const char *path, int nr, const char *policy,
		       const char *metric, const char *unit,
		       const char *value)
{
	static const char *const resources[] = { "consumer", "cpu", "pcie",
						 "nic", "none", NULL };
	const char *want = NULL;

	if (!pp_policy_find(cmd_policies, policy)) {
		datadir_error(path, nr, "policy '%s': not a policy of this "
			      "ppsim", policy);
		return -1;
	}
	if (!strcmp(metric, "saturated")) {
		want = "resource";
	} else {
		for (int m = 0; m < REP_NR_METRICS && !want; m++)
			if (!strcmp(metric, rep_metrics[m].name))
				want = m == REP_RATE ? "" : rep_metrics[m].unit;
		if (!want) {
			datadir_error(path, nr, "metric '%s': not one ppsim "
				      "writes", metric);
			return -1;
		}
	}
	/* the rate's unit is the case's: packets or bits a second */
	if (*want ? strcmp(unit, want) :
	    strcmp(unit, "Mpps") && strcmp(unit, "Gbps")) {
		datadir_error(path, nr, "unit '%s' of %s: expected %s", unit,
			      metric, *want ? want : "Mpps or Gbps");
		return -1;
	}
	if (!strcmp(metric, "saturated")) {
		int i = 0;

		while (resources[i] && strcmp(resources[i], value))
			i++;
		if (!resources[i]) {
			datadir_error(path, nr, "saturated '%s': expected "
				      "consumer, cpu, pcie, nic or none",
				      value);
			return -1;
		}
	}
	return 0;
}

/* Checks a data row's figures and notes its point.  Returns 0, or -1
 * with FILE:LINE: why. */
static int check_row(const char *path, int nr, char *line,
		     struct points *pts)
{
	static const char *const col[] = { "value", "ci95", "measured",
					   "error_pct", "delta_pct" };
	/* a metric with no figure for the case (a consumer's without
	 * one) is empty; the rate never is */
	static const enum csv_num kind[] = { CSV_NUM_OR_EMPTY,
		CSV_NUM_OR_EMPTY, CSV_NUM_OR_EMPTY, CSV_SIGNED_OR_EMPTY,
		CSV_SIGNED_OR_EMPTY };
	char *f[MERGE_MAX_FIELDS];
	int n = csv_split(line, f, MERGE_MAX_FIELDS), k = n - 9;
	size_t used = 0, point_len = 0, run_len = 0;
	double v;
	char *key;

	if (k < 0) {
		datadir_error(path, nr, "a quote not closed, or more than %d "
			      "fields", MERGE_MAX_FIELDS);
		return -1;
	}
	if (check_words(path, nr, f[k + 1], f[k + 2], f[k + 3], f[k + 4]))
		return -1;
	for (int i = 0; i < 5; i++) {
		/* the saturated row's value is a word: cpu, pcie, ... */
		if (i == 0 && !strcmp(f[k + 2], "saturated"))
			continue;
		if (csv_number(path, nr, col[i], f[k + 4 + i],
			       i == 0 && !strcmp(f[k + 2], "rate") ? CSV_NUM
								   : kind[i],
			       &v))
			return -1;
	}
	for (int i = 0; i < k + 3; i++)	/* swept values, case, policy, metric */
		used += strlen(f[i]) + 1;
	if (!(key = malloc(used))) {
		fprintf(stderr, "ppsim merge: out of memory\n");
		return -1;
	}
	used = 0;
	for (int i = 0; i < k + 3; i++) {
		if (i == k)
			point_len = used;
		if (i == k + 2)
			run_len = used;
		used += (size_t)sprintf(key + used, "%s%s", i ? "," : "", f[i]);
	}
	if (pts->nr == pts->room) {
		size_t room = pts->room ? 2 * pts->room : 1024;
		struct point *grown = realloc(pts->p, room * sizeof(*grown));

		if (!grown) {
			fprintf(stderr, "ppsim merge: out of memory\n");
			free(key);
			return -1;
		}
		pts->p = grown;
		pts->room = room;
	}
	pts->p[pts->nr++] = (struct point){ key, run_len, point_len, path,
					    nr };
	return 0;
}

static int by_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->path != y->path ? (x->path < y->path ? -1 : 1)
					    : x->line - y->line);
}

/* A point given twice is an error at the later of its lines: the first
 * found is said, with how many more there are.  Returns 0 or -1. */
static int check_points(struct points *pts)
{
	size_t twice = 0, first = 0;

	if (pts->nr < 2)	/* none at all: no array to sort */
		return 0;
	qsort(pts->p, pts->nr, sizeof(*pts->p), by_point);
	for (size_t i = 1; i < pts->nr; i++)
		if (!strcmp(pts->p[i].key, pts->p[i - 1].key) && !twice++)
			first = i;
	if (!twice)
		return 0;
	datadir_error(pts->p[first].path, pts->p[first].line,
		      "the point %s again (%s:%d): two jobs' rows of one "
		      "point%s", pts->p[first].key, pts->p[first - 1].path,
		      pts->p[first - 1].line, twice > 1 ? "; and more" : "");
	if (twice > 1)
		fprintf(stderr, "ppsim merge: %zu rows repeat a point\n", twice);
	return -1;
}

/* How many distinct points (values) and runs (values, case, policy) the
 * rows hold, sorted by check_points: each one's rows are together. */
static void count_points(const struct points *pts, int *nr_points,
			 int *nr_runs)
{
	*nr_points = *nr_runs = 0;
	for (size_t i = 0; i < pts->nr; i++) {
		const struct point *a = &pts->p[i], *b = i ? a - 1 : NULL;

		*nr_points += !b || a->point_len != b->point_len ||
			      strncmp(a->key, b->key, a->point_len);
		*nr_runs += !b || a->run_len != b->run_len ||
			    strncmp(a->key, b->key, a->run_len);
	}
}

/*
 * Reads one file: checks it (header against *header, which the first file
 * sets; every row), and copies its rows (its '#' provenance lines and
 * header too if copy_header: the jobs of a sweep share them) to out when
 * out is not NULL.  Returns 0, or -1 with FILE:LINE: why.
 */
/* The '#' provenance lines of the first file, which every other file of
 * one sweep repeats (version, scenario, seed, replications, --duration):
 * what merge writes on top of all the rows. */
#define MERGE_MAX_PROV	16	/* lines */
struct provenance {
	const char *path;	/* the first file's */
	char *line[MERGE_MAX_PROV];
	int nr;
};

/* Notes a provenance line: the first file's are kept, each later file's
 * must be the same, line for line.  Returns 0, -1 on an error said, or 1
 * when the line differs from the first file's (said by prov_differs once
 * the header is known to be a sweep's like the first's: a file of
 * another kind is said as such). */
static int check_prov(struct provenance *pv, const char *path, int nr,
		      int i, const char *line)
{
	if (i >= MERGE_MAX_PROV) {
		datadir_error(path, nr, "more than %d '#' lines before the "
			      "header: not a ppsim CSV", MERGE_MAX_PROV);
		return -1;
	}
	if (!pv->path || pv->path == path) {
		pv->path = path;
		if (!(pv->line[i] = strdup(line))) {
			fprintf(stderr, "ppsim merge: out of memory\n");
			return -1;
		}
		pv->nr = i + 1;
		return 0;
	}
	return i < pv->nr && !strcmp(pv->line[i], line) ? 0 : 1;
}

static void prov_differs(const struct provenance *pv, const char *path,
			 int nr, int i)
{
	datadir_error(path, nr, "its provenance differs from %s's (%s): "
		      "not a job of the same sweep (another seed, "
		      "replications, scenario or version; a stale file?)",
		      pv->path, i < pv->nr ? pv->line[i] : "no such line");
}

static int merge_file(const char *path, char *header, FILE *out,
		      bool copy_header, struct points *pts,
		      struct provenance *pv)
{
	char line[CSV_LINE_MAX + 2];
	FILE *f = datadir_open_regular(path);
	int nr = 0, fields = 0, rc = 0, nr_prov = 0;
	int differs = 0, differs_at = 0;	/* the first line that does */
	bool head = false;	/* the header was read */

	if (!f) {
		datadir_error(path, 0, "cannot open: %s",
			      datadir_strerror(errno));
		return -1;
	}
	while (!rc && (rc = csv_getline(path, f, line, &nr)) > 0) {
		rc = 0;
		if (!head && line[0] == '#') {
			if (copy_header && out)	/* the preamble */
				fprintf(out, "%s\n", line);
			else if (pv && (rc = check_prov(pv, path, nr,
							nr_prov++, line)) > 0) {
				if (!differs_at) {
					differs = nr_prov - 1;
					differs_at = nr;
				}
				rc = 0;
			}
		} else if (!head && !csv_is_ppsim_header(line)) {
			datadir_error(path, nr, "not the header of a ppsim "
				      "sweep CSV (..., %s)", csv_ppsim_tail);
			rc = -1;
		} else if (!head && *header && strcmp(header, line)) {
			datadir_error(path, nr, "its columns differ from the "
				      "first file's: not the same sweep");
			rc = -1;
		} else if (!head && pv && pv->path != path &&
			   (differs_at || nr_prov != pv->nr)) {
			/* a sweep's header, and the first's: the provenance
			 * of another sweep, or of none */
			prov_differs(pv, path, differs_at ? differs_at : nr,
				     differs_at ? differs : nr_prov);
			rc = -1;
		} else if (!head) {
			head = true;
			if (pv && !pv->path)	/* a first file of none */
				pv->path = path;
			memcpy(header, line, strlen(line) + 1);	/* it fits */
			fields = csv_split(line, NULL, 0);
			if (copy_header && out)
				fprintf(out, "%s\n", line);
		} else if (csv_split(line, NULL, 0) < 0) {
			datadir_error(path, nr, "a quote not closed, or "
				      "something after a closing quote");
			rc = -1;
		} else if (csv_split(line, NULL, 0) != fields) {
			datadir_error(path, nr, "%d fields where the header "
				      "has %d", csv_split(line, NULL, 0), fields);
			rc = -1;
		} else if (out) {
			fprintf(out, "%s\n", line);
		} else if (check_row(path, nr, line, pts)) {
			rc = -1;
		}
	}
	if (!rc && ferror(f)) {
		datadir_error(path, nr + 1, "read error: %s", strerror(errno));
		rc = -1;
	}
	if (!rc && !head) {
		datadir_error(path, nr + 1, "empty: not a ppsim CSV");
		rc = -1;
	}
	fclose(f);
	return rc;
}

/* Whether the files hold every run of the sweep their provenance says
 * ("# points N  runs M", every job's CSV has it): a job's file left out,
 * or a failed job's, is said at that line.  Returns 0 or -1. */
static int check_complete(const struct provenance *pv,
			  const struct points *pts)
{
	int want_points, want_runs, nr_points, nr_runs, i = 0;
	char end;

	while (i < pv->nr && sscanf(pv->line[i], "# points %d  runs %d%c",
				    &want_points, &want_runs, &end) != 2)
		i++;
	if (i == pv->nr) {
		datadir_error(pv->path, 1, "no '# points N  runs M' line: not "
			      "a sweep's CSV of this ppsim (merge checks every "
			      "point of the sweep is there)");
		return -1;
	}
	count_points(pts, &nr_points, &nr_runs);
	if (nr_points == want_points && nr_runs == want_runs)
		return 0;
	datadir_error(pv->path, i + 1, "the sweep has %d point%s and %d "
		      "run%s (case and policy at a point); the files given "
		      "hold %d and %d: %s", want_points,
		      want_points == 1 ? "" : "s", want_runs,
		      want_runs == 1 ? "" : "s", nr_points, nr_runs,
		      nr_runs < want_runs ? "a job's CSV is missing (not "
		      "given, or the job failed)" : "rows no job of it writes");
	return -1;
}

/* What --out DIR holds: what ppsim sweep --out writes. */
static const char *const merge_outputs[] = { "sweep.*", "sweep-rate.dat",
					     NULL };

/* DIR/sweep.csv, the files merged again, and the sweep's plot from it.
 * Returns the status: 0, 1 when a write or the plot failed, 2 when a
 * file changed since it was checked. */
static int write_out(const char *dir, int argc, char **argv, char *header)
{
	char path[4096];
	struct outfile f;
	bool plotted;

	snprintf(path, sizeof(path), "%.4000s/sweep.csv", dir);
	if (!outfile_open(&f, path, "", "ppsim merge"))
		return 1;
	for (int i = 1; i < argc; i++)
		if (merge_file(argv[i], header, f.f, i == 1, NULL, NULL)) {
			outfile_abort(&f);
			return 2;
		}
	/* the CSV and its plot replaced together (an interrupt leaves
	 * neither), the CSV alone when the plot cannot be drawn */
	outfile_group_begin();
	if (outfile_commit(&f, "ppsim merge")) {
		outfile_group_end(false, "ppsim merge");
		return 1;
	}
	plotted = !sweep_plot_csv(path, NULL, dir);
	if (outfile_group_end(true, "ppsim merge"))
		return 1;
	if (plotted)
		return 0;
	/* the plot loads the scenario the provenance names, at each point:
	 * merged elsewhere, it may not be there */
	fprintf(stderr, "ppsim merge: --out %s: sweep.csv written, the plot "
		"not (it needs the sweep's scenario, as its provenance names "
		"it)\n", dir);
	return 1;
}

int merge_main(int argc, char **argv)
{
	char header[CSV_LINE_MAX + 2] = "";
	struct points pts = { NULL, 0, 0 };
	struct provenance pv = { 0 };
	struct stat *seen;
	struct cmd_opts o;
	int status = 0, help;

	if ((help = cmd_parse(argc, argv, cmd_spec("merge"), &o)))
		return help > 0 ? 0 : 2;
	/* the files, and only they, from here on */
	argc = o.nr_args + 1;
	argv = o.args - 1;
	seen = calloc((size_t)argc, sizeof(*seen));
	if (!seen) {
		fprintf(stderr, "ppsim merge: out of memory\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (stat(argv[i], &seen[i]))
			continue;	/* merge_file says why */
		for (int j = 1; j < i; j++)
			if (seen[j].st_mode && seen[j].st_ino == seen[i].st_ino &&
			    seen[j].st_dev == seen[i].st_dev) {
				fprintf(stderr, "%s: the same file as %s: its "
					"rows would be counted twice\n",
					argv[i], argv[j]);
				status = 2;
			}
	}
	free(seen);
	for (int i = 1; i < argc; i++)
		if (merge_file(argv[i], header, NULL, false, &pts, &pv))
			status = 2;
	if (!status && (check_points(&pts) || check_complete(&pv, &pts)))
		status = 2;
	for (size_t i = 0; i < pts.nr; i++)
		free(pts.p[i].key);
	free(pts.p);
	for (int i = 0; i < pv.nr; i++)
		free(pv.line[i]);
	/* --out: checked before anything is printed; none of the files
	 * read may be replaced */
	if (!status && o.out && outfile_check_dir(o.out, "ppsim merge: --out",
						  merge_outputs, false))
		status = 2;
	for (int i = 1; i < argc && !status; i++)
		if (merge_file(argv[i], header, stdout, i == 1, NULL, NULL))
			status = 2;
	if (!status && o.out)
		status = write_out(o.out, argc, argv, header);
	if (status)
		outfile_remove_made_dirs();
	return status;
}
