#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "cmd.h"
#include "../io/datadir.h"
#include "../report/outfile.h"
#include "../report/plot.h"
#include "../report/html.h"

/* A case name as a file name: a '/' would name a directory. */
static void file_name(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s", name);
	for (char *p = buf; (p = strchr(p, '/')); p++)
		*p = '_';
}

/* Every case that compares policies across time gets its transient.  The
 * case names and the titles go to gnuplot as arguments, never as
 * commands (plot.h). */
static int draw_plots(const char *dir, const struct rep_row *rows,
		      int nr_rows, const struct rep_prov *p)
{
	char data[4096], out[4096], title[512], case_title[640];
	char reps[16], policies[256] = "", colours[256] = "";
	const char *more[PLOT_MAX_ARGS];
	char migrate[32];
	int rc = 0;

	if (!plot_available())
		return 0;
	rep_plot_title(rows, nr_rows, p, title, sizeof(title));
	rep_plot_policies(rows, nr_rows, policies, sizeof(policies), colours,
			  sizeof(colours));
	snprintf(reps, sizeof(reps), "%d", p->rc->reps);
	snprintf(data, sizeof(data), "%.4000s/rates.csv", dir);
	snprintf(out, sizeof(out), "%.4000s/rates", dir);
	more[0] = rep_rate_label(rows, nr_rows);
	more[1] = reps;
	more[2] = policies;
	more[3] = colours;
	rc |= plot_draw("rates.gp", data, out, title, more, 4);
	snprintf(data, sizeof(data), "%.4000s/split.csv", dir);
	snprintf(out, sizeof(out), "%.4000s/split", dir);
	rc |= plot_draw("split.gp", data, out, title, NULL, 0);
	snprintf(data, sizeof(data), "%.4000s/transient-mean.csv", dir);
	for (int i = 0, line = 0; i < nr_rows; i++) {
		const struct scn_case *c = rows[i].c;
		char pols[128] = "", cols[128] = "", lines[256] = "";
		int case_rows = 0;

		if (i && rows[i - 1].c == c)
			continue;
		while (i + case_rows < nr_rows && rows[i + case_rows].c == c)
			case_rows++;
		/* the data lines of the case's policies, as
		 * rep_write_transient_mean wrote them */
		for (int j = i; j < nr_rows && rows[j].c == c; j++) {
			int n = rep_mean_samples(&rows[j], p->rc->reps);

			if (n) {
				snprintf(pols + strlen(pols),
					 sizeof(pols) - strlen(pols), "%s%s",
					 *pols ? " " : "", rows[j].policy->name);
				snprintf(cols + strlen(cols),
					 sizeof(cols) - strlen(cols), "%s#%06x",
					 *cols ? " " : "",
					 rep_policy_colour(rows[j].policy));
				snprintf(lines + strlen(lines),
					 sizeof(lines) - strlen(lines),
					 "%s%d %d", *lines ? " " : "", line,
					 line + n - 1);
			}
			line += n;
		}
		if (!*pols)
			continue;
		snprintf(migrate, sizeof(migrate), "%g",
			 c->sim.load.migrate_at);
		/* the case's own workload and size, not every case's */
		rep_plot_title(&rows[i], case_rows, p, title, sizeof(title));
		snprintf(case_title, sizeof(case_title), "%s: %s", c->name,
			 title);
		snprintf(out, sizeof(out), "%.4000s/transient-", dir);
		file_name(c->name, out + strlen(out), sizeof(out) - strlen(out));
		more[0] = pols;
		more[1] = migrate;
		more[2] = lines;
		more[3] = cols;
		more[4] = reps;
		more[5] = rep_rate_label(&rows[i], 1);
		rc |= plot_draw("transient.gp", data, out, case_title, more, 6);
	}
	return rc ? -1 : 0;
}

/* One output file of DIR, written whole or not at all. */
static int write_one(const char *dir, const char *name,
		     void (*write)(FILE *f, const struct rep_row *rows,
				   int nr_rows, const struct rep_prov *p),
		     const struct rep_row *rows, int nr_rows,
		     const struct rep_prov *p)
{
	char path[4096];
	struct outfile o;

	snprintf(path, sizeof(path), "%.4000s/%s", dir, name);
	if (!outfile_open(&o, path, "", "ppsim run"))
		return -1;
	write(o.f, rows, nr_rows, p);
	return outfile_commit(&o, "ppsim run");
}

/* Every key's effective value of every case the rows ran, after the
 * provenance: DIR/resolved.ini, a scenario file (input/'s writer). */
static void write_resolved(FILE *f, const struct rep_row *rows, int nr_rows,
			   const struct rep_prov *p)
{
	rep_preamble(f, p, rows, nr_rows);
	fprintf(f, "# every key of every case that ran, as it ran: ppsim run "
		"reads this file too\n");
	if (nr_rows) {
		fputc('\n', f);
		scn_write_machine(f, rows[0].c);
	}
	for (int i = 0; i < nr_rows; i++) {
		if (i && rows[i - 1].c == rows[i].c)
			continue;
		fputc('\n', f);
		scn_write_case(f, rows[i].c);
	}
}

static int write_out(const char *dir, const struct rep_row *rows,
		     int nr_rows, const struct rep_prov *p)
{
	static const struct {
		const char *name;
		void (*write)(FILE *f, const struct rep_row *rows,
			      int nr_rows, const struct rep_prov *p);
	} files[] = {
		{ "results.csv", rep_write_csv },
		{ "results.json", rep_write_json },
		{ "table.txt", rep_write_table },
		{ "commit.txt", rep_write_commit },
		{ "resolved.ini", write_resolved },
		{ "transient.csv", rep_write_transient },
		{ "transient-mean.csv", rep_write_transient_mean },
		{ "rates.csv", rep_write_rates },
		{ "split.csv", rep_write_split },
		{ "explain.txt", rep_write_explain },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (write_one(dir, files[i].name, files[i].write, rows,
			      nr_rows, p))
			return -1;
	return draw_plots(dir, rows, nr_rows, p);
}

/* ---- the command ---- */

static int select_rows(struct scenario *scn, const struct cmd_opts *o,
		       struct rep_row *rows)
{
	int n = 0;

	for (int i = 0; i < scn->nr_cases; i++) {
		struct scn_case *c = &scn->cases[i];

		if (!cmd_wants_case(o, c->name))
			continue;
		for (int p = 0; p < c->nr_policies; p++) {
			if (!cmd_wants_policy(o, c->policies[p]->name))
				continue;
			rows[n] = cmd_row(c, c->policies[p],
					  rep_measured(c, c->policies[p]));
			n++;
		}
	}
	return n;
}

struct rep_labels *run_labels(struct rep_row *rows, int nr_rows)
{
	struct rep_labels *l = calloc((size_t)nr_rows, sizeof(*l));

	for (int i = 0; l && i < nr_rows; i++) {
		const struct scn_case *c = rows[i].c;

		if (*c->label_columns) {
			l[i].nr_heads = scn_label_cells(c->label_columns,
							l[i].head,
							SCN_MAX_LABELS);
		} else {
			l[i].nr_heads = 1;
			snprintf(l[i].head[0], SCN_NAME_MAX, "Case");
		}
		if (*c->label_columns && *c->label) {
			l[i].nr_cells = scn_label_cells(c->label, l[i].cell,
							SCN_MAX_LABELS);
		} else {
			l[i].nr_cells = 1;
			snprintf(l[i].cell[0], SCN_NAME_MAX, "%.*s",
				 SCN_NAME_MAX - 1,
				 *c->label ? c->label : c->name);
		}
		rows[i].labels = &l[i];
	}
	return l;
}

/* A file's name without its directory and .ini: its --out subdirectory
 * when several files run.  Two files of one name would write one place. */
static int out_names(struct run_file *rf, int nr)
{
	for (int f = 0; f < nr; f++) {
		const char *base = strrchr(rf[f].path, '/');
		size_t len;

		base = base ? base + 1 : rf[f].path;
		len = strlen(base);
		if (len > 4 && !strcmp(base + len - 4, ".ini"))
			len -= 4;
		snprintf(rf[f].name, sizeof(rf[f].name), "%.*s", (int)len,
			 base);
		for (int g = 0; g < f; g++)
			if (!strcmp(rf[g].name, rf[f].name)) {
				fprintf(stderr, "ppsim run: --out: %s and %s "
					"would both write %s/%s\n",
					rf[g].path, rf[f].path, "DIR",
					rf[f].name);
				return -1;
			}
	}
	return 0;
}

void run_print(const struct cmd_opts *o, const struct run_file *rf,
	       int nr_files, const struct rep_row *rows)
{
	char prefix[4200];

	if (o->format == CMD_CSV && nr_files > 1) {
		for (int f = 0; f < nr_files; f++)	/* every file's */
			if (rf[f].nr)
				rep_preamble(stdout, &rf[f].prov,
					     rows + rf[f].first, rf[f].nr);
		rep_csv_header(stdout, "file,");
	}
	if (o->format == CMD_JSON && nr_files > 1)
		printf("[\n");
	for (int f = 0, shown = 0; f < nr_files; f++) {
		const struct rep_row *r = rows + rf[f].first;
		const struct rep_prov *p = &rf[f].prov;

		if (!rf[f].nr)
			continue;
		if (o->format == CMD_CSV && nr_files > 1) {
			rep_csv_field(prefix, sizeof(prefix), rf[f].path);
			strcat(prefix, ",");
			for (int i = 0; i < rf[f].nr; i++)
				rep_csv_row(stdout, prefix, &r[i], o->rc.reps,
					    rep_delta_pct(r, rf[f].nr, i,
							  o->rc.reps),
					    rep_altered(p));
		} else if (o->format == CMD_CSV) {
			rep_write_csv(stdout, r, rf[f].nr, p);
		} else if (o->format == CMD_JSON) {
			if (shown)
				printf(",\n");
			rep_write_json(stdout, r, rf[f].nr, p);
		} else if (o->format == CMD_COMMIT) {	/* ends in a blank line */
			rep_write_commit(stdout, r, rf[f].nr, p);
		} else {
			if (shown)
				putchar('\n');
			rep_write_table(stdout, r, rf[f].nr, p);
		}
		if (o->explain && (o->format == CMD_TABLE ||
				   o->format == CMD_COMMIT))
			rep_write_explain(stdout, r, rf[f].nr, p);
		shown++;
	}
	if (o->format == CMD_JSON && nr_files > 1)
		printf("]\n");
}

/* The files run writes in --out's directory (outfile_check_dir): none may
 * be one the run reads (a resolved.ini read back). */
static const char *const run_outputs[] = {
	"results.*", "table.txt", "commit.txt", "explain.txt", "index.html",
	"resolved.ini",
	"transient*", "rates.*", "split.*", NULL
};

/* index.html, last: the page of what the other files say, and of the
 * figures the scenario's files mark guesses. */
static int write_html(const char *dir, const struct run_file *rf)
{
	char *guesses = NULL;
	size_t len = 0;
	FILE *g = open_memstream(&guesses, &len);
	int nr, status;

	if (!g) {
		fprintf(stderr, "ppsim run: out of memory\n");
		return -1;
	}
	nr = scn_write_guesses(g, rf->scn);
	if (fclose(g)) {
		fprintf(stderr, "ppsim run: out of memory\n");
		free(guesses);
		return -1;
	}
	status = rep_write_html(dir, rf->path, rf->scn->nr_cases &&
				rf->scn->cases[0].machine[0] ?
				rf->scn->cases[0].machine : NULL, guesses, nr,
				rf->prov.uncalibrated, rf->prov.borrowed);
	free(guesses);
	return status;
}

/* Says which files in dir an earlier run wrote and this one did not (a
 * case since left out, its transient plot): they stay, the user's to
 * remove, but dir is not this run's alone.  Before the group ends: the
 * group names this run's. */
static void note_stale(const char *dir)
{
	const char *mine[512];
	int nr = outfile_grouped(dir, "", mine, 512), stale = 0;
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		bool ours = false, kind = false;

		for (int i = 0; run_outputs[i] && !kind; i++)
			kind = !fnmatch(run_outputs[i], e->d_name, 0);
		for (int i = 0; i < nr && kind && !ours; i++)
			ours = !strcmp(mine[i], e->d_name);
		if (!kind || ours)
			continue;
		if (!stale++) {
			fprintf(stderr, "ppsim run: note: ");
			datadir_put_line_text(stderr, dir);
			fprintf(stderr, " also holds what an earlier run wrote "
				"and this one did not:");
		}
		if (stale <= 8) {
			fputc(' ', stderr);
			datadir_put_line_text(stderr, e->d_name);
		}
	}
	if (stale)
		fprintf(stderr, "%s\n", stale > 8 ? " ..." : "");
	if (d)
		closedir(d);
}

/* --out: DIR with one file, DIR/NAME for each of several, replaced
 * together or not at all: a write that fails (a full disk) or an
 * interrupt leaves every file there as it was, none half old, half new. */
static int write_outs(const struct cmd_opts *o, const struct run_file *rf,
		      int nr_files, const struct rep_row *rows)
{
	int status = 0;

	outfile_group_begin();
	for (int f = 0; f < nr_files && !status; f++) {
		char dir[4096];

		if (!rf[f].nr)
			continue;
		if (nr_files == 1)
			snprintf(dir, sizeof(dir), "%s", o->out);
		else
			snprintf(dir, sizeof(dir), "%.3800s/%s", o->out,
				 rf[f].name);
		status = write_out(dir, rows + rf[f].first, rf[f].nr,
				   &rf[f].prov) || write_html(dir, &rf[f]);
		if (!status)
			note_stale(dir);
	}
	/* several files write below DIR: what stands in DIR itself is an
	 * earlier run's of one file */
	if (!status && nr_files > 1)
		note_stale(o->out);
	status = outfile_group_end(!status, "ppsim run");
	if (status == -1) {
		fprintf(stderr, "ppsim run: --out ");
		datadir_put_line_text(stderr, o->out);
		fprintf(stderr, ": no file written there (those of an earlier "
			"run are as they were)\n");
	}
	return status ? -1 : 0;
}

/* --out's directory, and with several files each file's below it: -1
 * when one cannot be written (outfile_check_dir says why). */
static int check_outs(const struct cmd_opts *o, struct run_file *rf)
{
	if ((o->nr_args > 1 && out_names(rf, o->nr_args)) ||
	    outfile_check_dir(o->out, "ppsim run: --out",
			      o->nr_args > 1 ? NULL : run_outputs,
			      o->dry_run))
		return -1;
	for (int f = 0; f < o->nr_args && o->nr_args > 1; f++) {
		char dir[4096];

		snprintf(dir, sizeof(dir), "%.3800s/%s", o->out, rf[f].name);
		if (rf[f].nr && outfile_check_dir(dir, "ppsim run: --out",
						  run_outputs, o->dry_run))
			return -1;
	}
	return 0;
}

bool run_has_pair(const struct run_file *rf, int nr_files,
		  const struct rep_row *rows)
{
	for (int f = 0; f < nr_files; f++)
		for (int i = 0; i < rf[f].nr; i++) {
			int b = rep_baseline(rows + rf[f].first, rf[f].nr, i);

			if (b >= 0 && b != i)
				return true;
		}
	return false;
}

/* Each file's rows, and what its outputs' headers say; returns the
 * number of rows. */
static int select_files(const struct cmd_opts *o, struct run_file *rf,
			struct rep_row *rows)
{
	int nr_rows = 0;

	for (int f = 0; f < o->nr_args; f++) {
		rf[f].first = nr_rows;
		rf[f].nr = select_rows(rf[f].scn, o, rows + nr_rows);
		nr_rows += rf[f].nr;
		rf[f].prov = (struct rep_prov){ "run", rf[f].path, &o->rc,
			o->set, o->nr_set, cmd_machine(rf[f].scn,
			rf[f].machine, sizeof(rf[f].machine)),
			scn_write_guesses(NULL, rf[f].scn),
			scn_uncalibrated(rf[f].scn),
			scn_costs_borrowed(rf[f].scn, rf[f].borrowed,
					   sizeof(rf[f].borrowed)) };
	}
	return nr_rows;
}

int run_main(int argc, char **argv)
{
	struct rep_row *rows = NULL;
	struct rep_labels *labels = NULL;
	struct run_file *rf = NULL;
	struct scenario **scn = NULL;
	struct cmd_opts o;
	int nr_rows = 0, status = 2, bad = 0, help;

	gsl_set_error_handler_off();
	if ((help = cmd_parse(argc, argv, cmd_spec("run"), &o)))
		return help > 0 ? 0 : 2;
	rf = calloc((size_t)o.nr_args, sizeof(*rf));
	rows = calloc((size_t)o.nr_args * SCN_MAX_CASES * SCN_MAX_POLICIES,
		      sizeof(*rows));
	if (!rf || !rows) {
		fprintf(stderr, "ppsim run: out of memory\n");
		goto done;
	}
	/* every file read, every error said, before anything runs */
	for (int f = 0; f < o.nr_args; f++) {
		rf[f].path = o.args[f];
		rf[f].scn = scn_load_cases(o.args[f], o.set, o.nr_set,
					    cmd_policies, o.cases, o.nr_cases);
		bad += !rf[f].scn;
	}
	if (bad)
		goto done;
	scn = calloc((size_t)o.nr_args, sizeof(*scn));
	for (int f = 0; scn && f < o.nr_args; f++)
		scn[f] = rf[f].scn;
	if (!scn || cmd_check_names(&o, scn, o.nr_args))
		goto done;
	nr_rows = select_files(&o, rf, rows);
	if (!nr_rows) {
		fprintf(stderr, "ppsim run: no case matches the --case and "
			"--policy given\n");
		goto done;
	}
	if (o.explain && o.format == CMD_CSV) {
		fprintf(stderr, "ppsim run: --explain is shown with the table "
			"or the commit table; a CSV has no room for it (JSON "
			"carries it always, --out writes explain.txt)\n");
		goto done;
	}
	if (o.format == CMD_COMMIT && !run_has_pair(rf, o.nr_args, rows)) {
		fprintf(stderr, "ppsim run: --format commit: no case runs its "
			"baseline policy and another: nothing to compare\n");
		goto done;
	}
	/* a bad --out is found now, not after the simulations */
	if (o.out && check_outs(&o, rf))
		goto done;
	for (int f = 0; f < o.nr_args; f++) {
		if (!rf[f].nr)
			continue;
		cmd_warn_scenario(rf[f].scn, rf[f].path);
		if (o.dry_run)
			rep_dry_rows(stdout, rf[f].path, rows + rf[f].first,
				     rf[f].nr);
	}
	if (o.dry_run) {
		rep_dry_plan(stdout, "run", o.nr_args, rows, nr_rows,
			     o.rc.reps);
		status = 0;
		goto done;
	}
	status = 1;
	/* the commit table's cells: for --format commit, and --out's
	 * commit.txt */
	if ((o.format == CMD_COMMIT || o.out) &&
	    !(labels = run_labels(rows, nr_rows))) {
		fprintf(stderr, "ppsim run: out of memory\n");
		goto done;
	}
	if (!cmd_run_rows(rows, nr_rows, &o.rc,
			  o.nr_args > 1 ? NULL : o.file)) {
		run_print(&o, rf, o.nr_args, rows);
		status = o.out && write_outs(&o, rf, o.nr_args, rows) ? 1 : 0;
	}
	cmd_free_results(rows, nr_rows);
done:
	/* the directories --out made and nothing was written in: a run
	 * that failed leaves none behind */
	if (status)
		outfile_remove_made_dirs();
	for (int f = 0; rf && f < o.nr_args; f++)
		scn_free(rf[f].scn);
	free(rf);
	free(scn);
	free(rows);
	free(labels);
	return status;
}
