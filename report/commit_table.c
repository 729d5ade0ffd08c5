/* The seed's commit-message layout of run's results (rep_write_commit):
 * per comparison with the baseline, Case | Before | After | Change. */
#include <math.h>
#include <string.h>
#include "config.h"
#include "report.h"

/* A rate as the commit table shows it: "10.95 Mpps". */
static int commit_rate(char *buf, size_t len, double v, const char *unit)
{
	return snprintf(buf, len, "%.2f %s", v, unit);
}

/* A cell in w columns: cut, its last shown character '~', when longer. */
static void commit_cell(FILE *f, const char *s, int w)
{
	if ((int)strlen(s) > w && w > 1)
		fprintf(f, "%.*s~ | ", w - 1, s);
	else
		fprintf(f, "%-*s | ", w, s);
}

/* Whether column k's cells, cut to w columns as commit_cell cuts them,
 * are still as distinct as they were. */
static bool commit_cut_distinct(const struct rep_row *rows, int nr_rows,
				int k, int w)
{
	if (w < 2)
		return false;
	for (int i = 0; i < nr_rows; i++) {
		const struct rep_labels *a = rows[i].labels;

		for (int j = 0; j < i; j++) {
			const struct rep_labels *b = rows[j].labels;
			const char *x = k < a->nr_cells ? a->cell[k] : "";
			const char *y = k < b->nr_cells ? b->cell[k] : "";
			bool cut_x = (int)strlen(x) > w, cut_y = (int)strlen(y) > w;

			if (!strcmp(x, y))
				continue;
			if (cut_x && cut_y && !strncmp(x, y, (size_t)w - 1))
				return false;
		}
	}
	return true;
}

void rep_write_commit(FILE *f, const struct rep_row *rows, int nr_rows,
		      const struct rep_prov *p)
{
	const char (*head)[SCN_NAME_MAX] = rows[0].labels->head;
	int reps = p->rc->reps, wl[SCN_MAX_LABELS], wr = 6, width;
	int nl = rows[0].labels->nr_heads;
	const char *base = strrchr(p->file, '/');

	for (int k = 0; k < nl; k++)
		wl[k] = (int)strlen(head[k]);
	/* the widest cells and rate, each label column cut so that a line
	 * stays within the 72 columns a commit message has */
	for (int i = 0; i < nr_rows; i++) {
		const struct rep_labels *l = rows[i].labels;
		char buf[64];
		int n = commit_rate(buf, sizeof(buf),
				    rep_rate(&rows[i], reps).mean,
				    rows[i].unit);

		wr = n > wr ? n : wr;
		for (int k = 0; k < l->nr_cells && k < nl; k++)
			if ((int)strlen(l->cell[k]) > wl[k])
				wl[k] = (int)strlen(l->cell[k]);
	}
	for (int k = 0; k < nl; k++) {
		int cap = (72 - 2 * wr - 3 * 3 - 7 - 8) / nl - 3;

		/* cut (its end shown as '~') only where the cells stay
		 * apart: two cases shown as one would be a wrong table,
		 * a line past 72 columns only an ugly one */
		if (wl[k] > cap && commit_cut_distinct(rows, nr_rows, k, cap))
			wl[k] = cap;
	}
	width = 2 * wr + 3 * 3 + 7 + 8;
	for (int k = 0; k < nl; k++)
		width += wl[k] + 3;
	for (int i = 0; i < nr_rows; i++) {
		int bi = rep_baseline(rows, nr_rows, i);
		const struct pp_policy *before_pol, *after = rows[i].policy;
		bool seen = false;

		if (bi < 0 || bi == i)
			continue;
		/* one table per (before, after) pair of policies */
		before_pol = rows[bi].policy;
		for (int j = 0; j < i && !seen; j++) {
			int bj = rep_baseline(rows, nr_rows, j);

			seen = bj >= 0 && bj != j && rows[j].policy == after &&
			       rows[bj].policy == before_pol;
		}
		if (seen)
			continue;
		fprintf(f, "ppsim %s, %s, %d rep%s, predicted%s:\n",
			PACKAGE_VERSION, base ? base + 1 : p->file, reps,
			reps == 1 ? "" : "s", rep_altered(p) ?
			" with --set" : "");
		for (int k = 0; k < nl; k++)
			fprintf(f, "%-*.*s | ", wl[k], wl[k], head[k]);
		fprintf(f, "%-*s | %-*s | %7s | %s\n", wr, "Before", wr,
			"After", "Change", "Measured");
		for (int k = 0; k < width; k++)
			fputc('-', f);
		fputc('\n', f);
		for (int j = i; j < nr_rows; j++) {
			int b = rep_baseline(rows, nr_rows, j), n;
			char before[64], aft[64], chg[16], meas[16] = "-";

			if (rows[j].policy != after || b < 0 || b == j ||
			    rows[b].policy != before_pol)
				continue;
			commit_rate(before, sizeof(before),
				    rep_rate(&rows[b], reps).mean,
				    rows[j].unit);
			commit_rate(aft, sizeof(aft),
				    rep_rate(&rows[j], reps).mean,
				    rows[j].unit);
			if (!isnan(rows[b].measured) &&
			    !isnan(rows[j].measured))
				rep_change_text(meas, sizeof(meas),
						(rows[j].measured -
						 rows[b].measured) /
						rows[b].measured * 100);
			n = rows[j].labels->nr_cells;
			for (int k = 0; k < nl; k++)
				commit_cell(f, k < n ? rows[j].labels->cell[k] :
					    "", wl[k]);
			rep_change_text(chg, sizeof(chg),
					rep_delta_pct(rows, nr_rows, j, reps));
			fprintf(f, "%*s | %*s | %7s | %s\n", wr, before,
				wr, aft, chg, meas);
		}
		fprintf(f, "Before: %s, after: %s.\n", before_pol->name,
			after->name);
		rep_guesses_line(f, p, true);
		fputc('\n', f);
	}
}

void rep_change_text(char *buf, size_t len, double pct)
{
	if (pct >= 999.95)
		snprintf(buf, len, ">999 %%");
	else
		snprintf(buf, len, "%+.1f %%", pct);
}
