/*
 * ppsim report RESULTS.csv [SCENARIO...]: a run's results, as ppsim run
 * --format csv (or --out's results.csv) wrote them, in another format,
 * nothing simulated.  The figures are the CSV's (six significant digits:
 * a change or an error is computed again from them); the scenarios are
 * read again for what the outputs say of a case (labels, unit, baseline,
 * the guesses it rests on): those the CSV's provenance names, or the
 * SCENARIO operands, one for each file of the run, in its order.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "../input/csv.h"
#include "../io/datadir.h"

#define RPT_MAX_FILES	32
#define RPT_FIELDS	10	/* file, case, policy, ... delta_pct */

/* One file of the run: a provenance block of the CSV. */
struct rpt_file {
	char path[CSV_LINE_MAX + 2];	/* as the run was given it */
	char sets[CSV_LINE_MAX + 2];	/* the overrides' text: set[] in it */
	struct scn_override set[CMD_MAX_SET];
	int nr_set;
	unsigned long seed;
	int reps;
};

/* One (case, policy) of the CSV: every metric's figure. */
struct rpt_row {
	int file, line;
	char name[SCN_NAME_MAX], policy[SCN_NAME_MAX];
	struct rep_figure fig[REP_NR_METRICS];
	char saturated[16];
	double measured;
};

struct rpt {
	const char *path;		/* the CSV */
	struct rpt_file files[RPT_MAX_FILES];
	int nr_files;
	struct rpt_row *rows;
	int nr_rows, room;
	bool named_files;		/* a 'file' column */
};

/* Whether key names a scenario key, as --set takes it ("duration",
 * "nic.rx_ring", "case.policies", "global.queues"). */
static bool is_key(const char *key, size_t len)
{
	char name[SCN_KEY_MAX + 8], want[SCN_KEY_MAX + 8];

	if (len > 7 && !strncmp(key, "global.", 7)) {
		key += 7;
		len -= 7;
	}
	if (len >= SCN_KEY_MAX)
		return false;
	snprintf(want, sizeof(want), "%s%.*s",
		 memchr(key, '.', len) ? "" : "case.", (int)len, key);
	for (int i = 0; i < scn_nr_keys(); i++) {
		scn_key_name(i, name, sizeof(name));
		if (!strcmp(name, want))
			return true;
	}
	return false;
}

static bool chooses_policies(const char *key)
{
	if (!strncmp(key, "case.", 5))
		key += 5;
	return !strcmp(key, "policies") || !strcmp(key, "baseline");
}

/* "set k=v k2=v2 w..." as rep_conditions writes the overrides: a word
 * that is not KEY=VALUE of a known key goes on the value before it
 * (policies=v5.4 v5.5).  Returns 0, or -1 with FILE:LINE: why. */
static int take_sets(struct rpt *r, struct rpt_file *rf, const char *text,
		     int nr)
{
	char *save = NULL, *w;

	snprintf(rf->sets, sizeof(rf->sets), "%s", text);
	for (w = strtok_r(rf->sets, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');

		if (eq && is_key(w, (size_t)(eq - w))) {
			if (rf->nr_set == CMD_MAX_SET) {
				datadir_error(r->path, nr, "more than %d "
					      "overrides", CMD_MAX_SET);
				return -1;
			}
			*eq = '\0';
			/* a bad value is this line's; the policies keep the
			 * command line as where they were said, so that the
			 * measured figures of others are left out as then */
			rf->set[rf->nr_set++] = (struct scn_override){
				.key = w, .value = eq + 1,
				.file = chooses_policies(w) ? "--set" : r->path,
				.line = nr };
		} else if (rf->nr_set) {
			/* strtok_r ended the value before w: join again */
			w[-1] = ' ';
		} else {
			datadir_error(r->path, nr, "'%s': not an override "
				      "KEY=VALUE", w);
			return -1;
		}
	}
	return 0;
}

/* A '#' line: a file's provenance starts with "# ppsim VERSION (git C)
 * run PATH", its seed and replications follow. */
static int take_comment(struct rpt *r, const char *line, int nr)
{
	struct rpt_file *rf = &r->files[r->nr_files - 1];
	const char *run = strstr(line, ")  run ");
	int at = 0;

	if (!strncmp(line, "# ppsim ", 8)) {
		if (!run) {
			datadir_error(r->path, nr, "not the results of "
				      "ppsim run (a sweep's or validate's?)");
			return -1;
		}
		if (r->nr_files == RPT_MAX_FILES) {
			datadir_error(r->path, nr, "more than %d files",
				      RPT_MAX_FILES);
			return -1;
		}
		rf = &r->files[r->nr_files++];
		snprintf(rf->path, sizeof(rf->path), "%s", run + 7);
		return 0;
	}
	if (strncmp(line, "# seed ", 7))
		return 0;	/* what the figures rest on, err%: said again */
	if (!r->nr_files ||
	    sscanf(line, "# seed %lu  reps %d  duration %*s%n", &rf->seed,
		   &rf->reps, &at) != 2 || !at ||
	    rf->reps < 1 || rf->reps > REP_MAX_REPS) {
		datadir_error(r->path, nr, "not the seed, replications and "
			      "duration of a run");
		return -1;
	}
	if (!strncmp(line + at, "  set ", 6))
		return take_sets(r, rf, line + at + 6, nr);
	return line[at] ? (datadir_error(r->path, nr, "'%s': not the "
					 "overrides of a run", line + at), -1)
			: 0;
}

/* The row of (file, case, policy), a new one at the end when the line
 * starts another; a pair seen before, not last, is an error. */
static struct rpt_row *row_of(struct rpt *r, int file, char **f, int nr)
{
	struct rpt_row *row;

	if (r->nr_rows) {
		row = &r->rows[r->nr_rows - 1];
		if (row->file == file && !strcmp(row->name, f[0]) &&
		    !strcmp(row->policy, f[1]))
			return row;
	}
	for (int i = 0; i < r->nr_rows; i++)
		if (r->rows[i].file == file && !strcmp(r->rows[i].name, f[0]) &&
		    !strcmp(r->rows[i].policy, f[1])) {
			datadir_error(r->path, nr, "%s under %s again (first "
				      "at line %d)", f[0], f[1],
				      r->rows[i].line);
			return NULL;
		}
	if (strlen(f[0]) >= SCN_NAME_MAX || strlen(f[1]) >= SCN_NAME_MAX) {
		datadir_error(r->path, nr, "a case or policy name longer "
			      "than a scenario's");
		return NULL;
	}
	if (r->nr_rows == r->room) {
		int room = r->room ? 2 * r->room : 64;
		struct rpt_row *grown = realloc(r->rows,
						(size_t)room * sizeof(*grown));

		if (!grown) {
			fprintf(stderr, "ppsim report: out of memory\n");
			return NULL;
		}
		r->rows = grown;
		r->room = room;
	}
	row = &r->rows[r->nr_rows++];
	*row = (struct rpt_row){ .file = file, .line = nr, .measured = NAN };
	for (int m = 0; m < REP_NR_METRICS; m++)
		row->fig[m] = (struct rep_figure){ NAN, NAN };
	strcpy(row->name, f[0]);
	strcpy(row->policy, f[1]);
	return row;
}

/* A data line: one metric of a (case, policy). */
static int take_row(struct rpt *r, char *line, int nr)
{
	char *f[RPT_FIELDS + 1], **g = f;
	int want = r->named_files ? RPT_FIELDS : RPT_FIELDS - 1, file = 0;
	struct rpt_row *row;
	int m = 0;

	if (csv_split(line, f, RPT_FIELDS + 1) != want) {
		datadir_error(r->path, nr, "not %d fields", want);
		return -1;
	}
	if (r->named_files) {
		while (file < r->nr_files && strcmp(r->files[file].path, f[0]))
			file++;
		if (file == r->nr_files) {
			datadir_error(r->path, nr, "file '%s': no provenance "
				      "line names it", f[0]);
			return -1;
		}
		g++;
	}
	if (!(row = row_of(r, file, g, nr)))
		return -1;
	if (!strcmp(g[2], "saturated")) {
		snprintf(row->saturated, sizeof(row->saturated), "%s", g[4]);
		return 0;
	}
	while (m < REP_NR_METRICS && strcmp(rep_metrics[m].name, g[2]))
		m++;
	if (m == REP_NR_METRICS) {
		datadir_error(r->path, nr, "metric '%s': not one ppsim "
			      "writes", g[2]);
		return -1;
	}
	if (csv_number(r->path, nr, "value", g[4], m ? CSV_NUM_OR_EMPTY
						       : CSV_NUM,
		       &row->fig[m].mean) ||
	    csv_number(r->path, nr, "ci95", g[5], CSV_NUM_OR_EMPTY,
		       &row->fig[m].ci95) ||
	    (!m && csv_number(r->path, nr, "measured", g[6],
			      CSV_NUM_OR_EMPTY, &row->measured)))
		return -1;
	return 0;
}

/* Reads the CSV.  Returns 0, or -1 said on stderr. */
static int read_results(struct rpt *r)
{
	FILE *f = datadir_open_regular(r->path);
	char line[CSV_LINE_MAX + 2];
	int nr = 0, got, rc = 0;
	bool header = false;

	if (!f) {
		fprintf(stderr, "%s: cannot open: %s\n", r->path,
			strerror(errno));
		return -1;
	}
	while (!rc && (got = csv_getline(r->path, f, line, &nr)) > 0) {
		if (!header && line[0] == '#') {
			rc = take_comment(r, line, nr);
		} else if (!header) {
			r->named_files = !strncmp(line, "file,", 5);
			header = true;
			if (!r->nr_files || strcmp(line + (r->named_files ? 5
								: 0),
						   csv_ppsim_tail)) {
				datadir_error(r->path, nr, "not the header of "
					      "ppsim run's CSV (a sweep's "
					      "has its keys first: ppsim "
					      "compare reads it)");
				rc = -1;
			}
		} else {
			rc = take_row(r, line, nr);
		}
	}
	if (!rc && got < 0)
		rc = -1;
	if (!rc && !r->nr_rows) {
		fprintf(stderr, "%s: no results\n", r->path);
		rc = -1;
	}
	fclose(f);
	return rc;
}

/* The scenario of file k, its cases read with the run's overrides;
 * rows[] of that file made from the CSV's rows.  Returns 0 or -1. */
static int load_file(struct rpt *r, int k, const char *path,
		     struct run_file *rf, struct rep_row *rows, int *nr_rows)
{
	const struct rpt_file *pf = &r->files[k];
	const char *only[SCN_MAX_CASES];
	int nr_only = 0;

	for (int i = 0; i < r->nr_rows; i++) {
		bool seen = false;

		if (r->rows[i].file != k)
			continue;
		for (int j = 0; j < nr_only && !seen; j++)
			seen = !strcmp(only[j], r->rows[i].name);
		if (!seen && nr_only < SCN_MAX_CASES)
			only[nr_only++] = r->rows[i].name;
	}
	rf->path = pf->path;
	rf->scn = scn_load_cases(path, pf->set, pf->nr_set, cmd_policies,
				 only, nr_only);
	if (!rf->scn)
		return -1;
	rf->first = *nr_rows;
	for (int i = 0; i < r->nr_rows; i++) {
		struct rpt_row *x = &r->rows[i];
		struct scn_case *c = NULL;
		const struct pp_policy *pol = NULL;

		if (x->file != k)
			continue;
		for (int j = 0; j < rf->scn->nr_cases && !c; j++)
			if (!strcmp(rf->scn->cases[j].name, x->name))
				c = &rf->scn->cases[j];
		for (int p = 0; c && p < c->nr_policies && !pol; p++)
			if (!strcmp(c->policies[p]->name, x->policy))
				pol = c->policies[p];
		if (!pol) {
			datadir_error(r->path, x->line, "%s under %s: %s runs "
				      "no such %s (changed since the run?)",
				      x->name, x->policy, path,
				      c ? "policy" : "case");
			return -1;
		}
		rows[*nr_rows] = cmd_row(c, pol, x->measured);
		rows[*nr_rows].figures = x->fig;
		if (*x->saturated)
			rows[*nr_rows].saturated = x->saturated;
		(*nr_rows)++;
	}
	rf->nr = *nr_rows - rf->first;
	return 0;
}

int report_main(int argc, char **argv)
{
	struct rpt r = { 0 };
	struct run_file rf[RPT_MAX_FILES] = { { 0 } };
	struct rep_row *rows = NULL;
	struct rep_labels *labels = NULL;
	struct cmd_opts o;
	int nr_rows = 0, status = 2, help;

	if ((help = cmd_parse(argc, argv, cmd_spec("report"), &o)))
		return help > 0 ? 0 : 2;
	r.path = o.args[0];
	if (read_results(&r))
		goto done;
	if (o.nr_args > 1 && o.nr_args - 1 != r.nr_files) {
		fprintf(stderr, "ppsim report: %s holds the results of %d "
			"file%s: give %d scenario%s, or none\n", r.path,
			r.nr_files, r.nr_files == 1 ? "" : "s", r.nr_files,
			r.nr_files == 1 ? "" : "s");
		goto done;
	}
	if (!(rows = calloc((size_t)r.nr_rows, sizeof(*rows)))) {
		fprintf(stderr, "ppsim report: out of memory\n");
		goto done;
	}
	o.rc = (struct rep_opts){ .reps = r.files[0].reps,
				  .seed = r.files[0].seed };
	for (int k = 0; k < r.nr_files; k++) {
		if (r.files[k].reps != o.rc.reps ||
		    r.files[k].seed != o.rc.seed) {
			fprintf(stderr, "%s: files of different seeds or "
				"replications: not one run\n", r.path);
			goto done;
		}
		if (load_file(&r, k, o.nr_args > 1 ? o.args[k + 1]
						   : r.files[k].path,
			      &rf[k], rows, &nr_rows))
			goto done;
		rf[k].prov = (struct rep_prov){ "run", rf[k].path, &o.rc,
			r.files[k].set, r.files[k].nr_set,
			cmd_machine(rf[k].scn, rf[k].machine,
				    sizeof(rf[k].machine)),
			scn_write_guesses(NULL, rf[k].scn),
			scn_uncalibrated_profile(rf[k].scn) != NULL };
	}
	if (o.format == CMD_COMMIT &&
	    (!run_has_pair(rf, r.nr_files, rows) ||
	     !(labels = run_labels(rows, nr_rows)))) {
		fprintf(stderr, "ppsim report: --format commit: %s\n", labels ||
			run_has_pair(rf, r.nr_files, rows) ? "out of memory" :
			"no case has its baseline policy and another");
		goto done;
	}
	run_print(&o, rf, r.nr_files, rows);
	status = 0;
done:
	for (int k = 0; k < r.nr_files; k++)
		scn_free(rf[k].scn);
	free(r.rows);
	free(rows);
	free(labels);
	return status;
}
