/* The seed's commit-message layout of run's results (rep_write_commit):
 * Case | Before | After | Change | Measured for a baseline and one other
 * policy; with more, one table still: the baseline, then each policy
 * with its change (and the measured one, where there is one). */
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

/* The cases of one table: each compares its baseline with the same
 * policies, in the same order. */
struct commit_group {
	const struct pp_policy *before;
	const struct pp_policy *after[SCN_MAX_POLICIES];
	int nr_after;
	bool measured[SCN_MAX_POLICIES];	/* a change measured: column */
};

/* Row b's case as a group: the rows that compare with b, in order. */
static void commit_group_of(const struct rep_row *rows, int nr_rows, int b,
			    struct commit_group *g)
{
	g->before = rows[b].policy;
	g->nr_after = 0;
	for (int j = 0; j < nr_rows; j++)
		if (j != b && rep_baseline(rows, nr_rows, j) == b &&
		    g->nr_after < SCN_MAX_POLICIES)
			g->after[g->nr_after++] = rows[j].policy;
}

static bool commit_same_group(const struct commit_group *a,
			      const struct commit_group *b)
{
	if (a->before != b->before || a->nr_after != b->nr_after)
		return false;
	for (int k = 0; k < a->nr_after; k++)
		if (a->after[k] != b->after[k])
			return false;
	return true;
}

/* Whether row b is the baseline of a case in group g. */
static bool commit_in_group(const struct rep_row *rows, int nr_rows, int b,
			    const struct commit_group *g)
{
	struct commit_group mine;

	if (rep_baseline(rows, nr_rows, b) != b)
		return false;
	commit_group_of(rows, nr_rows, b, &mine);
	return commit_same_group(&mine, g);
}

/* The row of case c under policy, or -1. */
static int commit_row(const struct rep_row *rows, int nr_rows,
		      const struct scn_case *c, const struct pp_policy *policy)
{
	for (int j = 0; j < nr_rows; j++)
		if (rows[j].c == c && rows[j].policy == policy)
			return j;
	return -1;
}

/* The measured change of row j against row b, into buf ("-" if either
 * figure is missing); returns whether there was one. */
static bool commit_measured(char *buf, size_t len, const struct rep_row *b,
			    const struct rep_row *j)
{
	if (isnan(b->measured) || isnan(j->measured)) {
		snprintf(buf, len, "-");
		return false;
	}
	rep_change_text(buf, len, (j->measured - b->measured) /
			b->measured * 100);
	return true;
}

/* The label columns' widths wl and the rates' wr over the rows of g;
 * returns the table's width but for its label columns. */
static int commit_widths(const struct rep_row *rows, int nr_rows,
			 const struct commit_group *g, int reps, int *wl,
			 int *wr)
{
	const struct rep_labels *l0 = rows[0].labels;
	int nl = l0->nr_heads, width;

	*wr = 6;
	for (int k = 0; k < nl; k++)
		wl[k] = (int)strlen(l0->head[k]);
	for (int i = 0; i < nr_rows; i++) {
		const struct rep_labels *l = rows[i].labels;
		char buf[64];
		int n = commit_rate(buf, sizeof(buf),
				    rep_rate(&rows[i], reps).mean,
				    rows[i].unit);

		*wr = n > *wr ? n : *wr;
		for (int k = 0; k < l->nr_cells && k < nl; k++)
			if ((int)strlen(l->cell[k]) > wl[k])
				wl[k] = (int)strlen(l->cell[k]);
	}
	/* more than one policy against the baseline: a column each, headed
	 * by its name */
	if (g->nr_after > 1) {
		int n = (int)strlen(g->before->name);

		*wr = n > *wr ? n : *wr;
		for (int k = 0; k < g->nr_after; k++) {
			n = (int)strlen(g->after[k]->name);
			*wr = n > *wr ? n : *wr;
		}
	}
	width = *wr;
	for (int k = 0; k < g->nr_after; k++)
		width += 3 + *wr + 3 + 7 + (g->measured[k] ? 3 + 8 : 0);
	return width;
}

static void commit_rule(FILE *f, int width)
{
	for (int k = 0; k < width; k++)
		fputc('-', f);
	fputc('\n', f);
}

/* Case row b's line of group g. */
static void commit_line(FILE *f, const struct rep_row *rows, int nr_rows,
			int b, const struct commit_group *g, const int *wl,
			int wr, int reps)
{
	const struct rep_row *base = &rows[b];
	int n = base->labels->nr_cells, nl = base->labels->nr_heads;
	char rate[64];

	for (int k = 0; k < nl; k++)
		commit_cell(f, k < n ? base->labels->cell[k] : "", wl[k]);
	commit_rate(rate, sizeof(rate), rep_rate(base, reps).mean,
		    base->unit);
	fprintf(f, "%*s", wr, rate);
	for (int k = 0; k < g->nr_after; k++) {
		int j = commit_row(rows, nr_rows, base->c, g->after[k]);
		char chg[16], meas[16];
		bool last = k == g->nr_after - 1;

		commit_rate(rate, sizeof(rate), rep_rate(&rows[j], reps).mean,
			    rows[j].unit);
		rep_change_text(chg, sizeof(chg),
				rep_delta_pct(rows, nr_rows, j, reps));
		fprintf(f, " | %*s | %7s", wr, rate, chg);
		commit_measured(meas, sizeof(meas), base, &rows[j]);
		/* the seed's layout ends on its Measured cell, unpadded */
		if (g->measured[k])
			fprintf(f, last ? " | %s" : " | %8s", meas);
	}
	fputc('\n', f);
}

/* One table: group g's cases. */
static void commit_table(FILE *f, const struct rep_row *rows, int nr_rows,
			 const struct commit_group *g,
			 const struct rep_prov *p)
{
	const struct rep_labels *l0 = rows[0].labels;
	int reps = p->rc->reps, wl[SCN_MAX_LABELS], wr, nl = l0->nr_heads;
	int width = commit_widths(rows, nr_rows, g, reps, wl, &wr);
	const char *base = strrchr(p->file, '/');

	/* each label column cut (its end shown as '~') so that a line stays
	 * within the 72 columns a commit message has, but only where the
	 * cells stay apart: two cases shown as one would be a wrong table,
	 * a line past 72 columns only an ugly one */
	for (int k = 0; k < nl; k++) {
		int cap = (72 - width) / nl - 3;

		if (wl[k] > cap && commit_cut_distinct(rows, nr_rows, k, cap))
			wl[k] = cap;
		width += wl[k] + 3;
	}
	/* "Machine: " and the longest name are 72 columns */
	if (rep_machine_name(rows, nr_rows))
		fprintf(f, "Machine: %s\n", rep_machine_name(rows, nr_rows));
	fprintf(f, "ppsim %s, %s, %d rep%s, predicted%s:\n", PACKAGE_VERSION,
		base ? base + 1 : p->file, reps, reps == 1 ? "" : "s",
		rep_altered(p) ? " with --set" : "");
	for (int k = 0; k < nl; k++)
		fprintf(f, "%-*.*s | ", wl[k], wl[k], l0->head[k]);
	fprintf(f, "%-*s", wr, g->nr_after > 1 ? g->before->name : "Before");
	for (int k = 0; k < g->nr_after; k++) {
		fprintf(f, " | %-*s | %7s", wr, g->nr_after > 1 ?
			g->after[k]->name : "After", "Change");
		if (g->measured[k])
			fprintf(f, k == g->nr_after - 1 ? " | %s" : " | %-8s",
				"Measured");
	}
	fputc('\n', f);
	commit_rule(f, width);
	for (int b = 0; b < nr_rows; b++)
		if (commit_in_group(rows, nr_rows, b, g))
			commit_line(f, rows, nr_rows, b, g, wl, wr, reps);
	if (g->nr_after == 1)
		fprintf(f, "Before: %s, after: %s.\n", g->before->name,
			g->after[0]->name);
	else
		fprintf(f, "Each change against %s.\n", g->before->name);
	rep_guesses_line(f, p, true);
	rep_borrowed_line(f, p, true);
	fputc('\n', f);
}

void rep_write_commit(FILE *f, const struct rep_row *rows, int nr_rows,
		      const struct rep_prov *p)
{
	bool any = false;

	for (int b = 0; b < nr_rows; b++) {
		struct commit_group g;
		bool seen = false;

		if (rep_baseline(rows, nr_rows, b) != b)
			continue;
		commit_group_of(rows, nr_rows, b, &g);
		if (!g.nr_after)
			continue;
		for (int e = 0; e < b && !seen; e++)
			seen = commit_in_group(rows, nr_rows, e, &g);
		if (seen)
			continue;
		/* the seed's layout has its Measured column always; a wider
		 * table one where some case has the change measured */
		for (int k = 0; k < g.nr_after; k++) {
			g.measured[k] = g.nr_after == 1;
			for (int e = b; e < nr_rows && !g.measured[k]; e++) {
				int j;
				char buf[16];

				if (!commit_in_group(rows, nr_rows, e, &g))
					continue;
				j = commit_row(rows, nr_rows, rows[e].c,
					       g.after[k]);
				g.measured[k] = commit_measured(buf,
					sizeof(buf), &rows[e], &rows[j]);
			}
		}
		commit_table(f, rows, nr_rows, &g, p);
		any = true;
	}
	/* --out's commit.txt of a run of one policy: said, not empty */
	if (!any)
		fprintf(f, "No before/after: no case ran its baseline policy "
			"and another.\n");
}

void rep_change_text(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "-");
	else if (pct >= 999.95)
		snprintf(buf, len, ">999 %%");
	else
		snprintf(buf, len, "%+.1f %%", pct);
}
