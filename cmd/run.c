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

		if (i && rows[i - 1].c == c)
			continue;
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

static int write_out(const char *dir, const struct rep_row *rows,
		     int nr_rows, const struct rep_prov *p)
{
	static const struct {
		const char *name;
		void (*write)(FILE *f, const struct rep_row *rows,
			      int nr_rows, const struct rep_prov *p);
	} files[] = {
		{ "results.csv", rep_write_csv },
		{ "resolved.ini", rep_write_resolved },
		{ "transient.csv", rep_write_transient },
		{ "transient-mean.csv", rep_write_transient_mean },
		{ "rates.csv", rep_write_rates },
		{ "split.csv", rep_write_split },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (write_one(dir, files[i].name, files[i].write, rows,
			      nr_rows, p))
			return -1;
	return draw_plots(dir, rows, nr_rows, p);
}

/* The hardware profile a scenario includes (hw/NAME.ini), for titles. */
static const char *machine_of(const struct scenario *scn, char *buf,
			      size_t len)
{
	for (int i = 0; i < scn->nr_files; i++) {
		const char *hw = strstr(scn->files[i], "hw/");
		size_t n;

		if (!hw)
			continue;
		n = strcspn(hw + 3, ".");
		snprintf(buf, len, "%.*s", (int)n, hw + 3);
		return buf;
	}
	return NULL;
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
	struct rep_prov prov;
	char machine[SCN_NAME_MAX];
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
	prov = (struct rep_prov){ "run", o.file, &o.rc, o.set, o.nr_set,
				  machine_of(scn, machine, sizeof(machine)) };
	if (rep_run(rows, nr_rows, &o.rc, o.file))
		status = 1;
	if (!status) {
		if (o.format == CMD_CSV)
			rep_write_csv(stdout, rows, nr_rows, &prov);
		else if (o.format == CMD_JSON)
			rep_write_json(stdout, rows, nr_rows, &prov);
		else if (o.format == CMD_COMMIT)
			rep_write_commit(stdout, rows, nr_rows, &prov);
		else
			rep_write_table(stdout, rows, nr_rows, &prov);
		if (o.out && write_out(o.out, rows, nr_rows, &prov))
			status = 1;
	}
	rep_free(rows, nr_rows);
	scn_free(scn);
	return status;
}
