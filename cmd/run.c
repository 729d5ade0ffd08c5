#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "cmd.h"
#include "../report/outfile.h"
#include "../report/plot.h"

/* A case name as a file name: a '/' would name a directory. */
static void file_name(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s", name);
	for (char *p = buf; (p = strchr(p, '/')); p++)
		*p = '_';
}

/* Every case that compares policies across time gets its transient.  The
 * scenario's path, the case names and the titles go to gnuplot as
 * arguments, never as commands (plot.h). */
static int draw_plots(const char *dir, const struct rep_row *rows,
		      int nr_rows, const struct cmd_opts *o)
{
	char data[4096], out[4096], title[4352], case_title[4480];
	const char *more[PLOT_MAX_ARGS];
	char migrate[32];
	int rc = 0;

	if (!plot_available())
		return 0;
	snprintf(title, sizeof(title), "%.4000s (ppsim %s, seed %lu, %d reps)",
		 o->file, PACKAGE_VERSION, o->rc.seed, o->rc.reps);
	snprintf(data, sizeof(data), "%.4000s/rates.csv", dir);
	snprintf(out, sizeof(out), "%.4000s/rates", dir);
	more[0] = rep_rate_label(rows, nr_rows);
	rc |= plot_draw("rates.gp", data, out, title, more, 1);
	snprintf(data, sizeof(data), "%.4000s/split.csv", dir);
	snprintf(out, sizeof(out), "%.4000s/split", dir);
	rc |= plot_draw("split.gp", data, out, title, NULL, 0);
	snprintf(data, sizeof(data), "%.4000s/transient.csv", dir);
	for (int i = 0; i < nr_rows; i++) {
		const struct scn_case *c = rows[i].c;
		char policies[128] = "", lines[256] = "";
		long line = 0;

		/* the data lines rep_write_transient wrote before row i */
		for (int j = 0; j < i; j++)
			for (int r = 0; r < o->rc.reps; r++)
				line += rows[j].res[r].nr_samples;
		if (i && rows[i - 1].c == c)
			continue;
		for (int j = i; j < nr_rows && rows[j].c == c; j++) {
			int n = rows[j].res[0].nr_samples;

			if (n)
				snprintf(policies + strlen(policies),
					 sizeof(policies) - strlen(policies),
					 "%s%s", *policies ? " " : "",
					 rows[j].policy->name);
			if (n)
				snprintf(lines + strlen(lines),
					 sizeof(lines) - strlen(lines),
					 "%s%ld %ld", *lines ? " " : "", line,
					 line + n - 1);
			for (int r = 0; r < o->rc.reps; r++)
				line += rows[j].res[r].nr_samples;
		}
		if (!*policies)
			continue;
		snprintf(migrate, sizeof(migrate), "%g",
			 c->sim.load.migrate_at);
		snprintf(case_title, sizeof(case_title), "%s: %s", c->name,
			 title);
		snprintf(out, sizeof(out), "%.4000s/transient-", dir);
		file_name(c->name, out + strlen(out), sizeof(out) - strlen(out));
		more[0] = policies;
		more[1] = migrate;
		more[2] = lines;
		rc |= plot_draw("transient.gp", data, out, case_title, more, 3);
	}
	return rc ? -1 : 0;
}

/* One output file of DIR, written whole or not at all. */
static int write_one(const char *dir, const char *name,
		     void (*write)(FILE *f, const struct rep_row *rows,
				   int nr_rows, int reps),
		     const struct rep_row *rows, int nr_rows, int reps)
{
	char path[4096];
	struct outfile o;

	snprintf(path, sizeof(path), "%.4000s/%s", dir, name);
	if (!outfile_open(&o, path, "", "ppsim run"))
		return -1;
	write(o.f, rows, nr_rows, reps);
	return outfile_commit(&o, "ppsim run");
}

static int write_out(const char *dir, const struct rep_row *rows,
		     int nr_rows, const struct cmd_opts *o)
{
	int reps = o->rc.reps;

	if (write_one(dir, "results.csv", rep_write_csv, rows, nr_rows, reps) ||
	    write_one(dir, "transient.csv", rep_write_transient, rows,
		      nr_rows, reps) ||
	    write_one(dir, "rates.csv", rep_write_rates, rows, nr_rows, reps) ||
	    write_one(dir, "split.csv", rep_write_split, rows, nr_rows, reps))
		return -1;
	return draw_plots(dir, rows, nr_rows, o);
}

/* ---- the command ---- */

static int select_rows(struct scenario *scn, const struct cmd_opts *o,
		       struct rep_row *rows)
{
	int n = 0;

	for (int i = 0; i < scn->nr_cases; i++) {
		struct scn_case *c = &scn->cases[i];

		if (o->only_case && strcmp(o->only_case, c->name))
			continue;
		for (int p = 0; p < c->nr_policies; p++) {
			if (o->only_policy && strcmp(o->only_policy,
						     c->policies[p]->name))
				continue;
			rows[n] = (struct rep_row){ c, c->policies[p], NULL,
				rep_measured(c, c->policies[p]) };
			n++;
		}
	}
	return n;
}

int run_main(int argc, char **argv)
{
	int help;
	struct rep_row rows[SCN_MAX_CASES * SCN_MAX_POLICIES];
	struct scenario *scn;
	struct cmd_opts o;
	int nr_rows, status = 0;

	gsl_set_error_handler_off();
	if ((help = cmd_parse(argc, argv, cmd_spec("run"), &o)))
		return help > 0 ? 0 : 2;
	scn = scn_load(o.file, o.set, o.nr_set, cmd_policies);
	if (!scn)
		return 2;
	/* a bad --out is found now, not after the simulations */
	if (o.out && outfile_check_dir(o.out, "ppsim run: --out")) {
		scn_free(scn);
		return 2;
	}
	nr_rows = select_rows(scn, &o, rows);
	if (!nr_rows) {
		fprintf(stderr, "ppsim run: %s: no case%s%s matches%s%s\n",
			o.file, o.only_case ? " " : "",
			o.only_case ? o.only_case : "",
			o.only_policy ? " with policy " : "",
			o.only_policy ? o.only_policy : "");
		scn_free(scn);
		return 2;
	}
	if (rep_run(rows, nr_rows, &o.rc, o.file))
		status = 1;
	if (!status) {
		if (o.format == CMD_CSV)
			rep_write_csv(stdout, rows, nr_rows, o.rc.reps);
		else if (o.format == CMD_JSON)
			rep_write_json(stdout, rows, nr_rows, &o.rc, o.file);
		else
			rep_write_table(stdout, rows, nr_rows, &o.rc, o.file);
		if (o.out && write_out(o.out, rows, nr_rows, &o))
			status = 1;
	}
	rep_free(rows, nr_rows);
	scn_free(scn);
	return status;
}
