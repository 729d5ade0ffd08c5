#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "cmd.h"
#include "../report/plot.h"

static FILE *open_out(const char *dir, const char *name, char *path,
		      size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "ppsim run: %s: %s\n", path, strerror(errno));
	return f;
}

static int close_out(FILE *f, const char *path)
{
	if (fclose(f)) {
		fprintf(stderr, "ppsim run: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Every case that compares policies across time gets its transient. */
static int draw_plots(const char *dir, const struct rep_row *rows,
		      int nr_rows, const struct cmd_opts *o)
{
	char vars[2048], out[4096], title[512];
	int rc = 0;

	if (!plot_available())
		return 0;
	snprintf(title, sizeof(title), "%s (ppsim %s, seed %lu, %d reps)",
		 o->file, PACKAGE_VERSION, o->rc.seed, o->rc.reps);
	snprintf(vars, sizeof(vars), "data='%s/rates.csv'; title='%s'; "
		 "ylabel='%s'", dir, title, rep_rate_label(rows, nr_rows));
	snprintf(out, sizeof(out), "%s/rates", dir);
	rc |= plot_draw("rates.gp", vars, out);
	snprintf(vars, sizeof(vars), "data='%s/split.csv'; title='%s'", dir,
		 title);
	snprintf(out, sizeof(out), "%s/split", dir);
	rc |= plot_draw("split.gp", vars, out);
	for (int i = 0; i < nr_rows; i++) {
		const struct scn_case *c = rows[i].c;
		char policies[128] = "";

		if (i && rows[i - 1].c == c)
			continue;
		for (int j = i; j < nr_rows && rows[j].c == c; j++)
			snprintf(policies + strlen(policies),
				 sizeof(policies) - strlen(policies), "%s%s",
				 j > i ? " " : "", rows[j].policy->name);
		snprintf(vars, sizeof(vars), "data='%s/transient.csv'; "
			 "case='%s'; policies='%s'; migrate=%g; title='%s: %s'",
			 dir, c->name, policies, c->sim.load.migrate_at, c->name,
			 title);
		snprintf(out, sizeof(out), "%s/transient-%s", dir, c->name);
		rc |= plot_draw("transient.gp", vars, out);
	}
	return rc ? -1 : 0;
}

static int write_out(const char *dir, const struct rep_row *rows,
		     int nr_rows, const struct cmd_opts *o)
{
	char p1[4096], p2[4096];
	FILE *f, *g;
	int rc = 0;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "ppsim run: --out %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	if (!(f = open_out(dir, "results.csv", p1, sizeof(p1))))
		return -1;
	rep_write_csv(f, rows, nr_rows, o->rc.reps);
	rc |= close_out(f, p1);
	if (!(f = open_out(dir, "transient.csv", p1, sizeof(p1))))
		return -1;
	rep_write_transient(f, rows, nr_rows, o->rc.reps);
	rc |= close_out(f, p1);
	f = open_out(dir, "rates.csv", p1, sizeof(p1));
	g = open_out(dir, "split.csv", p2, sizeof(p2));
	if (!f || !g) {
		if (f)
			fclose(f);
		if (g)
			fclose(g);
		return -1;
	}
	rep_write_plot_data(f, g, rows, nr_rows, o->rc.reps);
	rc |= close_out(f, p1);
	rc |= close_out(g, p2);
	if (rc)
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
	struct rep_row rows[SCN_MAX_CASES * SCN_MAX_POLICIES];
	struct scenario *scn;
	struct cmd_opts o;
	int nr_rows, status = 0;

	gsl_set_error_handler_off();
	if (cmd_parse(argc, argv, cmd_spec("run"), &o))
		return 2;
	scn = scn_load(o.file, o.set, o.nr_set, cmd_policies);
	if (!scn)
		return 2;
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
