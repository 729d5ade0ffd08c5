/* ppsim sweep's outputs (sweep.h). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "report/commit.h"
#include "sweep.h"
#include "../io/datadir.h"

/* How many rows the sweep has: up to the last point's. */
static int nr_rows(const struct sweep_result *s)
{
	const struct sweep_point *last = &s->pts[s->nr_points - 1];

	return last->first_row + last->nr_rows;
}

/* The table's line of row r of point pt. */
static void table_line(FILE *f, const struct sweep_result *s,
		       const struct sweep_point *pt, int r, int w)
{
	int reps = s->rc->reps;
	const struct rep_row *row = &s->rows[r];
	const struct rep_row *pr = &s->rows[pt->first_row];
	int i = r - pt->first_row;
	struct rep_figure fg = rep_rate(row, reps);
	double err = (fg.mean - row->measured) / row->measured * 100;
	double delta = rep_delta_pct(pr, pt->nr_rows, i, reps);
	double local = 0;

	for (int a = 0; a < s->nr_axes; a++)
		fprintf(f, "%-14s ", pt->value[a]);
	for (int k = 0; k < reps; k++)
		local += row->res[k].local_pages / reps;
	fprintf(f, "%-*s %-6s %7.2f %-4s ", w, row->c->name,
		row->policy->name, fg.mean, row->unit);
	rep_put_ci95(f, fg.ci95);
	fputc(' ', f);
	if (isnan(err))
		fprintf(f, "%7s ", "-");
	else
		fprintf(f, "%+7.1f ", err);
	if (rep_baseline(pr, pt->nr_rows, i) == i)
		fprintf(f, "%7s ", "base");
	else if (isnan(delta))
		fprintf(f, "%7s ", "-");
	else
		fprintf(f, "%+7.1f ", delta);
	fprintf(f, "%-9s %7.1f\n", rep_saturated(row, reps), 100 * local);
}

/* What the points' figures rest on, '#' lines: the most guesses a point
 * has, and costs borrowed, once when every point borrows the same, else
 * at each point that does (a swept cpu.family). */
static void write_marks(FILE *f, const struct sweep_result *s)
{
	struct rep_prov p = { .command = "sweep" };
	bool same = true;

	for (int i = 0; i < s->nr_points; i++) {
		const struct sweep_point *pt = &s->pts[i];

		if (pt->nr_guesses > p.nr_guesses)
			p.nr_guesses = pt->nr_guesses;
		p.uncalibrated |= pt->uncalibrated;
		same &= !strcmp(pt->borrowed, s->pts[0].borrowed);
	}
	rep_guesses_line(f, &p, false);
	for (int i = 0; i < s->nr_points && !(same && i); i++) {
		const struct sweep_point *pt = &s->pts[i];

		if (!*pt->borrowed)
			continue;
		fputs("# costs borrowed", f);
		for (int a = 0; a < s->nr_axes && !same; a++)
			fprintf(f, "%s%s=%s", a ? " " : " at ", s->key[a],
				pt->value[a]);
		fprintf(f, " for %s\n", pt->borrowed);
	}
}

void sweep_write_table(FILE *f, const struct sweep_result *s)
{
	int w = rep_name_width(s->rows, nr_rows(s));
	char dur[64];

	fprintf(f, "# ppsim %s (git %s) sweep ", PACKAGE_VERSION,
		PPSIM_COMMIT);
	datadir_put_line_text(f, s->file);
	rep_duration_text(s->rows, nr_rows(s), dur, sizeof(dur));
	fprintf(f, "  seed %lu  reps %d  duration %s\n", s->rc->seed,
		s->rc->reps, dur);
	rep_title_line(f, "# ", s->rows, nr_rows(s));
	write_marks(f, s);
	for (int a = 0; a < s->nr_axes; a++)
		fprintf(f, "%-14s ", s->key[a]);
	fprintf(f, "%-*s %-6s %7s %-4s %6s %7s %7s %-9s %7s\n", w, "case",
		"policy", "rate", "unit", "ci95", "err%", "delta%",
		"saturated", "local%");
	for (int p = 0; p < s->nr_points; p++)
		for (int r = s->pts[p].first_row;
		     r < s->pts[p].first_row + s->pts[p].nr_rows; r++)
			table_line(f, s, &s->pts[p], r, w);
}

void sweep_write_csv(FILE *f, const struct sweep_result *s)
{
	char header[512] = "", file[PATH_MAX], dur[64];

	for (int a = 0; a < s->nr_axes; a++)
		snprintf(header + strlen(header),
			 sizeof(header) - strlen(header), "%s,", s->key[a]);
	/* the provenance every job of the sweep shares, so that ppsim merge
	 * (which keeps the first file's) gives the direct sweep's bytes: the
	 * scenario by its full path, as the jobs name it */
	if (!realpath(s->file, file))
		snprintf(file, sizeof(file), "%s", s->file);
	fprintf(f, "# ppsim %s (git %s)  sweep ", PACKAGE_VERSION,
		PPSIM_COMMIT);
	datadir_put_line_text(f, file);
	fputc('\n', f);
	rep_title_line(f, "# ", s->rows, nr_rows(s));
	/* every point's rows, not the job's: the same in every job */
	rep_duration_text(s->rows, nr_rows(s), dur, sizeof(dur));
	fprintf(f, "# seed %lu  reps %d  duration %s", s->rc->seed,
		s->rc->reps, dur);
	for (int i = 0; i < s->nr_fixed; i++)	/* --duration */
		fprintf(f, "%s%s=%s", i ? " " : "  set ", s->fixed[i].key,
			s->fixed[i].value);
	/* the whole sweep's size, in every job's CSV too (--task): merge
	 * counts its runs, (point, case, policy), against it */
	fprintf(f, "\n# points %d  runs %d\n", s->nr_points,
		s->pts[s->nr_points - 1].first_row +
		s->pts[s->nr_points - 1].nr_rows);
	write_marks(f, s);
	rep_csv_header(f, header);
	for (int p = 0; p < s->nr_points; p++) {
		const struct sweep_point *pt = &s->pts[p];
		const struct rep_row *pr = &s->rows[pt->first_row];

		for (int i = 0; i < pt->nr_rows; i++) {
			int r = pt->first_row + i;

			if (r >= s->first_row && r < s->end_row)
				rep_csv_row(f, pt->prefix, &pr[i],
					    s->rc->reps,
					    rep_delta_pct(pr, pt->nr_rows, i,
							  s->rc->reps),
					    false);
		}
	}
}

void sweep_write_json(FILE *f, const struct sweep_result *s)
{
	char dur[64];

	fprintf(f, "{\"ppsim\": \"%s\", \"commit\": \"%s\", "
		"\"command\": \"sweep\", \"scenario\": ", PACKAGE_VERSION,
		PPSIM_COMMIT);
	rep_json_text(f, s->file);
	if (rep_machine_name(s->rows, nr_rows(s))) {
		fputs(", \"machine\": ", f);
		rep_json_text(f, rep_machine_name(s->rows, nr_rows(s)));
	}
	rep_duration_text(s->rows, nr_rows(s), dur, sizeof(dur));
	fprintf(f, ", \"seed\": %lu, \"reps\": %d, \"duration\": ",
		s->rc->seed, s->rc->reps);
	rep_json_text(f, dur);
	fputs(", ", f);
	rep_json_set(f, s->fixed, s->nr_fixed);
	fputs(", \"keys\": [", f);
	for (int a = 0; a < s->nr_axes; a++) {
		fputs(a ? ", " : "", f);
		rep_json_text(f, s->key[a]);
	}
	fputs("], \"points\": [\n", f);
	for (int p = 0; p < s->nr_points; p++) {
		const struct sweep_point *pt = &s->pts[p];

		fputs("{\"values\": {", f);
		for (int a = 0; a < s->nr_axes; a++) {
			fputs(a ? ", " : "", f);
			rep_json_text(f, s->key[a]);
			fputs(": ", f);
			rep_json_text(f, pt->value[a]);
		}
		fprintf(f, "}, \"guesses\": %d, \"uncalibrated\": %s, ",
			pt->nr_guesses, pt->uncalibrated ? "true" : "false");
		if (*pt->borrowed) {
			fputs("\"costs_borrowed\": ", f);
			rep_json_text(f, pt->borrowed);
			fputs(", ", f);
		}
		fputs("\"rows\": [\n", f);
		for (int i = 0; i < pt->nr_rows; i++) {
			rep_json_row(f, &s->rows[pt->first_row], pt->nr_rows,
				     i, s->rc->reps, false);
			fprintf(f, "%s\n", i + 1 < pt->nr_rows ? "," : "");
		}
		fprintf(f, "]}%s\n", p + 1 < s->nr_points ? "," : "");
	}
	fputs("]}\n", f);
}

/* The name of a row's line in the plot: case, policy, other keys. */
static void series_name(const struct sweep_result *s,
			const struct sweep_point *pt,
			const struct rep_row *row, char *name, size_t len)
{
	snprintf(name, len, "%s %s", row->c->name, row->policy->name);
	/* the values as given (a CSV's quotes are the CSV's) */
	for (int a = 1; a < s->nr_axes; a++)
		snprintf(name + strlen(name), len - strlen(name), "%s%s",
			 a == 1 ? " " : ",", pt->value[a]);
}

/* Whether name is one of the lines of series, whole (not a prefix: a
 * budget of 6 is not one of 64). */
static bool has_series(const char *series, const char *name)
{
	size_t len = strlen(name);

	for (const char *s = series; *s;) {
		size_t n = strcspn(s, "\n");

		if (n == len && !strncmp(s, name, len))
			return true;
		s += n + (s[n] == '\n');
	}
	return false;
}

/* The data block of the line name: every point's row on it; returns
 * whether one has a measured figure. */
static bool rates_block(FILE *f, const struct sweep_result *s,
			const char *name)
{
	bool measured = false;

	for (int q = 0; q < s->nr_points; q++) {
		const struct sweep_point *pt = &s->pts[q];

		for (int k = pt->first_row; k < pt->first_row + pt->nr_rows;
		     k++) {
			char other[256];
			struct rep_figure fg;
			double m, ci;

			series_name(s, pt, &s->rows[k], other, sizeof(other));
			if (strcmp(name, other))
				continue;
			fg = s->figs ? s->figs[k] :
				rep_rate(&s->rows[k], s->rc->reps);
			ci = isnan(fg.ci95) ? 0 : fg.ci95;
			m = s->rows[k].measured;
			measured |= !isnan(m);
			fprintf(f, "%.10g %.6g %.6g %.6g %.6g\n", pt->x,
				fg.mean, ci, m,
				fmax(fg.mean + ci, isnan(m) ? 0 : m));
		}
	}
	return measured;
}

bool sweep_write_rates(FILE *f, const struct sweep_result *s, char *series,
		       size_t cap, char *colours)
{
	bool measured = false;	/* a diamond drawn: its key said */

	fprintf(f, "# x rate ci95 measured top (in each case's unit: Mpps, "
		"or Gbps for TCP; top: how high the point, its CI or its "
		"measurement reach), one block per line of the plot\n");
	for (int p = 0; p < s->nr_points; p++) {
		const struct sweep_point *pt = &s->pts[p];

		for (int r = pt->first_row; r < pt->first_row + pt->nr_rows;
		     r++) {
			char name[256];

			series_name(s, pt, &s->rows[r], name, sizeof(name));
			if (has_series(series, name))
				continue;
			snprintf(series + strlen(series),
				 cap - strlen(series), "%s%s",
				 *series ? "\n" : "", name);
			sprintf(colours + strlen(colours), "%s#%06x",
				*colours ? " " : "",
				rep_policy_colour(s->rows[r].policy));
			fprintf(f, "\n\n# %s\n", name);
			measured |= rates_block(f, s, name);
		}
	}
	return measured;
}
