/*
 * A run's results read back: its CSV (ppsim run --format csv, or --out's
 * results.csv), for ppsim report and validate --results.  The provenance
 * lines give each file's path, seed, replications and overrides, the rows
 * every metric's figure of a (case, policy).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "../input/csv.h"
#include "../io/datadir.h"

#define RESULTS_FIELDS	10	/* file, case, policy, ... delta_pct */

/* "set k=v k2=v2 w..." as rep_conditions writes the overrides: a word
 * that is not KEY=VALUE of a known key goes on the value before it
 * (policies=v5.4 v5.5).  Returns 0, or -1 with FILE:LINE: why. */
static int take_sets(struct run_results *r, struct results_file *rf,
		     const char *text, int nr)
{
	char *save = NULL, *w;

	snprintf(rf->sets, sizeof(rf->sets), "%s", text);
	for (w = strtok_r(rf->sets, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		bool key = false;

		if (eq) {	/* KEY=VALUE, if KEY is a key */
			*eq = '\0';
			key = scn_key_known(w);
			*eq = key ? '\0' : '=';
		}
		if (key) {
			if (rf->nr_set == CMD_MAX_SET) {
				datadir_error(r->path, nr, "more than %d "
					      "overrides", CMD_MAX_SET);
				return -1;
			}
			/* a bad value is this line's; the policies keep the
			 * command line as where they were said, so that the
			 * measured figures of others are left out as then */
			rf->set[rf->nr_set++] = (struct scn_override){
				.key = w, .value = eq + 1,
				.file = cmd_policy_key(w) ? "--set" : r->path,
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

/* "# seed S  reps R  duration D[  set ...]": the seed a whole number
 * of 32 bits, as cmd_parse takes it. */
static int take_seed(struct run_results *r, struct results_file *rf,
		     const char *line, int nr)
{
	const char *p = line + 7;
	char *end;
	int at = 0;

	rf->seed_line = nr;	/* not the provenance's next: a title between */

	errno = 0;
	rf->seed = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
	if (!rf->seed || errno || rf->seed > 0xffffffffUL ||
	    sscanf(end, "  reps %d  duration %31s%n", &rf->reps,
		   rf->duration, &at) != 2 ||
	    rf->reps < 1 || rf->reps > REP_MAX_REPS) {
		datadir_error(r->path, nr, "not the seed, replications and "
			      "duration of a run");
		return -1;
	}
	at += (int)(end - line);
	if (!strncmp(line + at, "  set ", 6))
		return take_sets(r, rf, line + at + 6, nr);
	if (line[at]) {
		datadir_error(r->path, nr, "'%s': not the overrides of a run",
			      line + at);
		return -1;
	}
	return 0;
}

/* A '#' line: a file's provenance starts with "# ppsim VERSION (git C)
 * run PATH", its seed and replications follow, then what its figures
 * rest on. */
static int take_comment(struct run_results *r, const char *line, int nr)
{
	const char *run = strstr(line, ")  run ");
	struct results_file *rf;

	if (!strncmp(line, "# ppsim ", 8)) {
		if (!run) {
			datadir_error(r->path, nr, "not the results of "
				      "ppsim run (a sweep's or validate's?)");
			return -1;
		}
		if (r->nr_files == RESULTS_MAX_FILES) {
			datadir_error(r->path, nr, "more than %d files",
				      RESULTS_MAX_FILES);
			return -1;
		}
		rf = &r->files[r->nr_files++];
		snprintf(rf->path, sizeof(rf->path), "%s", run + 7);
		rf->line = nr;
		return 0;
	}
	if (!r->nr_files) {
		datadir_error(r->path, nr, "a comment before the provenance "
			      "of a run (# ppsim VERSION (git C)  run FILE)");
		return -1;
	}
	rf = &r->files[r->nr_files - 1];
	if (!strncmp(line, "# seed ", 7))
		return take_seed(r, rf, line, nr);
	/* the title, compared with the scenario's by results_rows */
	switch (csv_machine_line(r->path, nr, line, rf->machine,
				 sizeof(rf->machine), &rf->machine_line)) {
	case 1:
		return 0;
	case -1:
		return -1;
	}
	if (sscanf(line, "# rests on %d guessed", &rf->guesses) == 1)
		rf->uncalibrated = strstr(line, " and uncalibrated cycles") !=
				   NULL;
	if (!strncmp(line, "# costs borrowed for ", 21)) {
		/* checked against the scenario by results_rows */
		if (rf->borrowed_line) {
			datadir_error(r->path, nr, "# costs borrowed: given "
				      "twice (first at line %d)",
				      rf->borrowed_line);
			return -1;
		}
		if (strlen(line + 21) >= sizeof(rf->borrowed)) {
			datadir_error(r->path, nr, "# costs borrowed: over %d "
				      "characters: not ppsim run's",
				      (int)sizeof(rf->borrowed) - 1);
			return -1;
		}
		snprintf(rf->borrowed, sizeof(rf->borrowed), "%s", line + 21);
		rf->borrowed_line = nr;
	}
	return 0;	/* err% not computed: said again */
}

/* The row of (file, case, policy), a new one at the end when the line
 * starts another; a pair seen before, not last, is an error. */
static struct results_row *row_of(struct run_results *r, int file, char **f,
				  int nr)
{
	struct results_row *row;

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
		struct results_row *grown = realloc(r->rows,
						(size_t)room * sizeof(*grown));

		if (!grown) {
			fprintf(stderr, "ppsim report: out of memory\n");
			return NULL;
		}
		r->rows = grown;
		r->room = room;
	}
	row = &r->rows[r->nr_rows++];
	*row = (struct results_row){ .file = file, .line = nr, .measured = NAN };
	for (int m = 0; m < REP_NR_METRICS; m++)
		row->fig[m] = (struct rep_figure){ NAN, NAN };
	strcpy(row->name, f[0]);
	strcpy(row->policy, f[1]);
	return row;
}

/* A data line: one metric of a (case, policy). */
static int take_row(struct run_results *r, char *line, int nr)
{
	char *f[RESULTS_FIELDS + 1], **g = f;
	int want = r->named_files ? RESULTS_FIELDS : RESULTS_FIELDS - 1, file = 0;
	struct results_row *row;
	int m = 0;

	if (csv_split(line, f, RESULTS_FIELDS + 1) != want) {
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
int results_read(struct run_results *r, const char *path)
{
	FILE *f;
	char line[CSV_LINE_MAX + 2];
	int nr = 0, got, rc = 0;
	bool header = false;

	*r = (struct run_results){ .path = path };
	f = datadir_open_regular(path);
	if (!f) {
		datadir_error(r->path, 0, "cannot open: %s",
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
	for (int k = 0; !rc && k < r->nr_files; k++)
		if (!r->files[k].reps) {
			datadir_error(r->path, r->files[k].line, "no line "
				      "'# seed S  reps R  duration D' after "
				      "the provenance of %s", r->files[k].path);
			rc = -1;
		}
	if (!rc && !r->nr_rows) {
		fprintf(stderr, "%s: no results\n", r->path);
		rc = -1;
	}
	fclose(f);
	return rc;
}


void results_free(struct run_results *r)
{
	free(r->rows);
	r->rows = NULL;
}

struct scenario *results_scenario(const struct run_results *r, int k,
				  const char *path)
{
	const struct results_file *rf = &r->files[k];
	const char *only[SCN_MAX_CASES];
	struct scenario *scn;
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
	scn = scn_load_cases(path ? path : rf->path, rf->set, rf->nr_set,
			     cmd_policies, only, nr_only);
	if (!scn && !path)
		fprintf(stderr, "%s: the scenario as the run named it (a path "
			"from where it ran): give it after the CSV, or run "
			"from there\n", r->path);
	return scn;
}

const struct results_row *results_find(const struct run_results *r, int k,
				       const char *name, const char *policy)
{
	for (int i = 0; i < r->nr_rows; i++)
		if (r->rows[i].file == k && !strcmp(r->rows[i].name, name) &&
		    !strcmp(r->rows[i].policy, policy))
			return &r->rows[i];
	return NULL;
}

struct rep_row results_row(const struct results_row *x, struct scn_case *c,
			   const struct pp_policy *policy)
{
	struct rep_row row = cmd_row(c, policy, x->measured);

	row.figures = x->fig;
	row.saturated = *x->saturated ? x->saturated : NULL;
	return row;
}

/* Every row of file k a (case, policy) its scenario runs, and every
 * policy a case of the CSV runs there (with the run's overrides) in it:
 * 0, or -1 with FILE:LINE: why (a scenario changed since, a file cut
 * short). */
static int results_complete(const struct run_results *r, int k,
			    const struct scenario *scn, const char *scenario)
{
	for (int i = 0; i < r->nr_rows; i++) {
		const struct results_row *x = &r->rows[i];
		const struct scn_case *c;
		bool known = false;

		if (x->file != k)
			continue;
		c = scn_case_named(scn, x->name);
		for (int p = 0; c && p < c->nr_policies; p++) {
			known |= !strcmp(c->policies[p]->name, x->policy);
			if (!results_find(r, k, x->name,
					  c->policies[p]->name)) {
				datadir_error(r->path, x->line, "%s under %s: "
					      "no row, though the run ran it "
					      "(a file cut short?)", x->name,
					      c->policies[p]->name);
				return -1;
			}
		}
		if (!known) {
			datadir_error(r->path, x->line, "%s under %s: %s runs "
				      "no such %s (changed since the run?)",
				      x->name, x->policy, scenario,
				      c ? "policy" : "case");
			return -1;
		}
	}
	return 0;
}

/* The CSV's "# costs borrowed for" line against what the scenario
 * borrows now: the same text, or neither.  A CSV with no such line where
 * the scenario borrows is refused when it has a '# machine:' line: a
 * ppsim that wrote the title (added with the marking) writes the marking
 * too, so the line was cut out.  Without one (an older ppsim's, or a
 * machine of no name) it is taken, and its report says the scenario's
 * marking (cmd/report.c). */
static int results_borrowed(const struct run_results *r, int k,
			    const struct scenario *scn, const char *scenario)
{
	const struct results_file *rf = &r->files[k];
	char buf[sizeof(rf->borrowed)];
	const char *now = scn_costs_borrowed(scn, buf, sizeof(buf));

	if (rf->borrowed_line && (!now || strcmp(now, rf->borrowed))) {
		datadir_error(r->path, rf->borrowed_line, "the run's costs "
			      "were borrowed for %s; %s now %s%s: not the "
			      "scenario it ran (changed since?)", rf->borrowed,
			      scenario, now ? "borrows them for " :
			      "borrows none", now ? now : "");
		return -1;
	}
	if (!rf->borrowed_line && now && rf->machine_line) {
		datadir_error(r->path, rf->line, "no '# costs borrowed for' "
			      "line, but %s borrows them for %s (and the '# "
			      "machine:' line at %d says a ppsim that writes "
			      "it): not the scenario it ran, or the line was "
			      "cut out", scenario, now, rf->machine_line);
		return -1;
	}
	return 0;
}

int results_rows(const struct run_results *r, int k,
		 struct scenario *scn, const char *scenario,
		 struct rep_row *rows)
{
	const struct results_file *rf = &r->files[k];
	int n = 0;

	if (results_complete(r, k, scn, scenario) ||
	    results_borrowed(r, k, scn, scenario))
		return -1;
	for (int i = 0; i < r->nr_rows; i++) {
		const struct results_row *x = &r->rows[i];
		struct scn_case *c;
		struct rep_row row;
		int p = 0;

		if (x->file != k)
			continue;
		c = scn_case_named(scn, x->name);
		/* results_complete found both */
		while (strcmp(c->policies[p]->name, x->policy))
			p++;
		row = results_row(x, c, c->policies[p]);
		/* the machine the CSV names is the one its report titles; a
		 * CSV of no name (an older ppsim's) takes the scenario's */
		if (rf->machine_line && strcmp(rf->machine, c->machine)) {
			datadir_error(r->path, rf->machine_line, "the run was "
				      "on '%s'; %s now names %s%s%s: not the "
				      "scenario it ran (changed since?)",
				      rf->machine, scenario, *c->machine ?
				      "'" : "no machine", c->machine,
				      *c->machine ? "'" : "");
			return -1;
		}
		if (strcmp(rf->duration, "varies") &&
		    strcmp(row.duration, rf->duration)) {
			datadir_error(r->path, rf->seed_line, "the run measured "
				      "%s; %s now gives %s %s: not the "
				      "scenario it ran (changed since?)",
				      rf->duration, scenario, c->name,
				      row.duration);
			return -1;
		}
		if (rows)
			rows[n] = row;
		n++;
	}
	return n;
}

struct rep_prov results_prov(const struct run_results *r, int k,
			     const struct rep_opts *rc, const char *machine)
{
	const struct results_file *rf = &r->files[k];

	return (struct rep_prov){ "run", rf->path, rc, rf->set, rf->nr_set,
				  machine, rf->guesses, rf->uncalibrated,
				  rf->borrowed[0] ? rf->borrowed : NULL };
}
