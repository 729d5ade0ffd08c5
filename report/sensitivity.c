/* ppsim validate --sensitivity's outputs (sensitivity.h). */
#include <math.h>
#include <string.h>
#include "sensitivity.h"
#include "../io/datadir.h"

/* Which file row i of the shared array belongs to. */
static const struct sens_file *file_of(const struct sens_result *r, int i)
{
	int f = 0;

	while (f + 1 < r->nr_files && i >= r->files[f + 1].first)
		f++;
	return &r->files[f];
}

double sens_largest_move(const struct sens_param *sp)
{
	double m = -1;

	for (int d = 0; d < 2; d++)
		if (!sp->failed[d])
			m = fmax(m, sp->move[d]);
	return m;
}

/* The noise of the larger move, NAN with one replication or none run. */
static double largest_noise(const struct sens_param *sp)
{
	int d = sp->failed[0] ? 1 : sp->failed[1] ? 0 :
		sp->move[1] > sp->move[0];

	return sp->failed[d] ? NAN : sp->noise[d];
}

bool sens_within_noise(const struct sens_param *sp)
{
	return sens_largest_move(sp) <= largest_noise(sp);
}

void sens_write_refused(FILE *f, const char *lead,
			const struct sens_result *r)
{
	for (int k = 0; k < r->nr_params; k++)
		for (int d = 0; d < 2; d++)
			if (r->params[k].refused[d][0])
				fprintf(f, "%s%s x%.2f: refused by the "
					"scenario's checks, not run: %s\n",
					lead, r->params[k].key, r->factor[d],
					r->params[k].refused[d]);
}

void sens_write_unsure(FILE *f, const char *lead,
		       const struct sens_result *r)
{
	for (int k = 0; k < r->nr_params; k++)
		for (int d = 0; d < 2; d++)
			if (r->params[k].rough[d])
				fprintf(f, "%s%s x%.2f: a refit did not "
					"settle; its best point was kept\n",
					lead, r->params[k].key, r->factor[d]);
	if (r->base_rough)
		fprintf(f, "%sthe baseline: a fit did not settle; its best "
			"point was kept\n", lead);
	for (int i = 0; i < r->nr_rows; i++)
		if (r->base[i] == 0)
			fprintf(f, "%s%s %s: predicted 0 at the baseline, so "
				"no move of it is a per cent of it\n", lead,
				r->rows[i].c->name, r->rows[i].policy->name);
}

void sens_write_unread(FILE *f, const struct sens_result *r)
{
	if (*r->unread)
		fprintf(f, "# not moved, read by no case of a file that gives "
			"them (ppsim keys KEY: who reads it): %s\n", r->unread);
}

void sens_write_dry(FILE *f, const struct sens_result *r)
{
	int runs = 0;

	for (int k = 0; k < r->nr_params; k++) {
		const struct sens_param *sp = &r->params[k];

		fprintf(f, "  %-24s %-10s x%.2f %s, x%.2f %s\n", sp->key,
			sp->value, r->factor[0],
			sp->refused[0][0] ? "refused" : "moved", r->factor[1],
			sp->refused[1][0] ? "refused" : "moved");
		runs += !sp->refused[0][0] + !sp->refused[1][0];
	}
	sens_write_refused(f, "# ", r);
	sens_write_unread(f, r);
	fprintf(f, "dry run: validate --sensitivity: %d prior%s, %d move%s "
		"and the baseline, each a refit of the free parameters of %d "
		"file%s and a run of %d out-of-fit figure%s; nothing run\n",
		r->nr_params, r->nr_params == 1 ? "" : "s", runs,
		runs == 1 ? "" : "s", r->nr_files, r->nr_files == 1 ? "" : "s",
		r->nr_rows, r->nr_rows == 1 ? "" : "s");
}

/* The heading: the provenance, each file's figures and refits, the
 * baseline, what the columns say. */
static void table_head(FILE *f, const struct sens_result *r, int w)
{
	rep_files_head(f, r->prov, r->nr_files, r->rows, r->nr_rows);
	fprintf(f, "# each prior at x%.2f and x%.2f, one at a time, in every "
		"file where [calibrate] free\n# does not fit it; the free "
		"parameters refitted each time\n", r->factor[0],
		r->factor[1]);
	for (int i = 0; i < r->nr_files; i++) {
		const struct sens_file *sf = &r->files[i];

		fprintf(f, "# ");
		datadir_put_line_text(f, sf->path);
		fprintf(f, ": %d figure%s out of the fit; ", sf->nr,
			sf->nr == 1 ? "" : "s");
		if (!sf->nr_refit)
			fprintf(f, "no [calibrate] free: nothing refitted");
		for (int k = 0; k < sf->nr_refit; k++)
			fprintf(f, "%s %s (baseline %.4g)",
				k ? "," : "refitted", sf->refit_key[k],
				sf->refit_value[k]);
		fprintf(f, "\n");
	}
	fprintf(f, "# baseline (priors as written): out-of-fit mean |error| "
		"%.1f %% over %d figure%s\n", r->base_mae, r->nr_rows,
		r->nr_rows == 1 ? "" : "s");
	fprintf(f, "# move: the largest change of an out-of-fit prediction, "
		"in %% of the baseline's;\n# noise: the larger move's 95 %% "
		"half-width, from the replications paired seed with\n# seed "
		"('-': one replication); a move within it is not told apart "
		"from their\n# spread (\"within noise\", listed after the "
		"others);\n"
		"# mae: the out-of-fit mean |error| after the move, against the "
		"baseline's, in points\n");
	fprintf(f, "%-*s %9s %8s %8s %6s %8s %8s  %s\n", w, "parameter",
		"value", "move-25%", "move+25%", "noise", "mae-25%", "mae+25%",
		"moved most");
}

/* A prior's line of the table. */
static void table_line(FILE *f, const struct sens_result *r,
		       const struct sens_param *sp, int w)
{
	fprintf(f, "%-*s %9s", w, sp->key, sp->value);
	for (int d = 0; d < 2; d++)
		if (sp->failed[d])
			fprintf(f, " %8s", sp->refused[d][0] ? "refused" :
				"failed");
		else
			fprintf(f, " %8.1f", sp->move[d]);
	if (isnan(largest_noise(sp)))
		fprintf(f, " %6s", "-");
	else
		fprintf(f, " %6.1f", largest_noise(sp));
	for (int d = 0; d < 2; d++)
		if (sp->failed[d])
			fprintf(f, " %8s", sp->refused[d][0] ? "refused" :
				"failed");
		else
			fprintf(f, " %+8.1f", sp->mae[d] - r->base_mae);
	if (sp->most >= 0 && sens_largest_move(sp) > 0) {
		fputs("  ", f);
		datadir_put_line_text(f, file_of(r, sp->most)->path);
		fprintf(f, " %s %s%s\n", r->rows[sp->most].c->name,
			r->rows[sp->most].policy->name,
			sens_within_noise(sp) ? ", within noise" : "");
	} else {
		fprintf(f, "  -\n");
	}
}

void sens_write_table(FILE *f, const struct sens_result *r)
{
	int w = 9;

	for (int k = 0; k < r->nr_params; k++)
		w = (int)fmax(w, (double)strlen(r->params[k].key));
	table_head(f, r, w);
	for (int k = 0; k < r->nr_params; k++)
		table_line(f, r, &r->params[k], w);
	for (int k = 0; k < r->nr_params; k++) {
		const struct sens_param *sp = &r->params[k];

		if (!sp->whole)
			continue;
		if (isnan(sp->v0))
			fprintf(f, "# %s: whole numbers, moved to the nearest "
				"whole value, by one at least\n", sp->key);
		else
			fprintf(f, "# %s: a whole number, moved to %s and "
				"%s\n", sp->key, sp->moved[0], sp->moved[1]);
	}
	sens_write_refused(f, "# ", r);
	sens_write_unread(f, r);
	sens_write_unsure(f, "# ", r);
}

void sens_write_csv(FILE *f, const struct sens_result *r)
{
	fprintf(f, "parameter,factor,file,case,policy,measured,baseline,"
		"predicted,move_pct,noise95_pct\n");
	for (int k = 0; k < r->nr_params; k++) {
		const struct sens_param *sp = &r->params[k];

		for (int d = 0; d < 2; d++) {
			if (sp->failed[d])
				continue;
			for (int i = 0; i < r->nr_rows; i++) {
				const struct rep_row *row = &r->rows[i];

				fprintf(f, "%s,%g,", sp->key, r->factor[d]);
				rep_csv_text(f, file_of(r, i)->path);
				fputc(',', f);
				rep_csv_text(f, row->c->name);
				fprintf(f, ",%s,%.6g,%.6g,%.6g,",
					row->policy->name, row->measured,
					r->base[i], sp->pred[d][i]);
				if (r->base[i] != 0)	/* else empty */
					fprintf(f, "%.6g",
						(sp->pred[d][i] - r->base[i]) /
						r->base[i] * 100);
				fputc(',', f);
				if (!isnan(sp->noise_of[d][i]))	/* else empty */
					fprintf(f, "%.6g", sp->noise_of[d][i]);
				fputc('\n', f);
			}
		}
	}
}
