/*
 * Why a rate is what it is (--explain): a case's time a packet on its
 * NAPI CPU, the work and the wait on memory, the wait split by what the
 * core waited for (packet lines, struct page, completions, descriptors,
 * the driver's state, the doorbell) and where each was served, every
 * policy of the case side by side: what a change moved.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report.h"

static const char *const kind_name[MEM_NR_KINDS] = {
	[MEM_PKT] = "packet page",
	[MEM_STRUCT_PAGE] = "struct page",
	[MEM_CQE] = "completion",
	[MEM_RX_WQE] = "rx descriptor",
	[MEM_TX_WQE] = "tx descriptor",
	[MEM_STATE] = "driver state",
	[MEM_DOORBELL] = "doorbell mmio",
};

static const char *const place_name[MEM_NR_PLACES] = {
	[MEM_PRIV] = "own L2",
	[MEM_LLC] = "local LLC",
	[MEM_RCACHE] = "remote cache",
	[MEM_DRAM] = "local DRAM",
	[MEM_NDRAM] = "other node",	/* of the socket: SNC, NPS */
	[MEM_RDRAM] = "remote DRAM",
};

/* Below these a cell is empty: no access, no wait worth a digit. */
#define EXPLAIN_MIN_N	0.005
#define EXPLAIN_MIN_NS	0.05

/* A row's (kind, place) over its replications: accesses and ns a packet. */
static void cell(const struct rep_row *row, int reps, int k, int p,
		 double *n, double *ns)
{
	*n = *ns = 0;
	for (int r = 0; r < reps; r++) {
		*n += row->res[r].access_at[k][p] / reps;
		*ns += row->res[r].stall_at[k][p] / reps;
	}
}

/* Whether the (k, p) cell of any picked row has anything in it (p < 0:
 * of any place). */
static bool shown(const struct rep_row *rows, const int *pick, int nr,
		  int reps, int k, int p)
{
	for (int j = 0; j < nr; j++) {
		for (int q = p < 0 ? 0 : p; q < (p < 0 ? MEM_NR_PLACES : p + 1);
		     q++) {
			double n, ns;

			cell(&rows[pick[j]], reps, k, q, &n, &ns);
			if (n >= EXPLAIN_MIN_N || ns >= EXPLAIN_MIN_NS)
				return true;
		}
	}
	return false;
}

static void total_line(FILE *f, const char *what, const struct rep_row *rows,
		       const int *pick, int nr, int reps,
		       enum rep_metric_id id)
{
	fprintf(f, "  %-28s", what);
	for (int j = 0; j < nr; j++)
		fprintf(f, "  %7s %7.1f", "",
			rep_figure(&rows[pick[j]], reps, id).mean);
	fputc('\n', f);
}

/* One case: its rows (pick[0..nr)) a column pair each. */
static void explain_case(FILE *f, const struct rep_row *rows,
			 const int *pick, int nr, int reps)
{
	fprintf(f, "%-30s", rows[pick[0]].c->name);
	for (int j = 0; j < nr; j++)
		fprintf(f, "  %15s", rows[pick[j]].policy->name);
	fprintf(f, "\n  %-13s %-14s", "waited for", "served from");
	for (int j = 0; j < nr; j++)
		fprintf(f, "  %7s %7s", "n/pkt", "ns/pkt");
	fputc('\n', f);
	for (int k = 0; k < MEM_NR_KINDS; k++) {
		for (int p = 0; p < MEM_NR_PLACES; p++) {
			if (!shown(rows, pick, nr, reps, k, p))
				continue;
			fprintf(f, "  %-13s %-14s", kind_name[k],
				place_name[p]);
			for (int j = 0; j < nr; j++) {
				double n, ns;

				cell(&rows[pick[j]], reps, k, p, &n, &ns);
				if (k == MEM_DOORBELL)	/* not a line */
					fprintf(f, "  %7s", "-");
				else
					fprintf(f, "  %7.2f", n);
				fprintf(f, " %7.1f", ns);
			}
			fputc('\n', f);
		}
	}
	total_line(f, "waited on memory", rows, pick, nr, reps, REP_STALL);
	total_line(f, "worked", rows, pick, nr, reps, REP_CPU);
	total_line(f, "idle", rows, pick, nr, reps, REP_IDLE);
	fprintf(f, "  %-28s", "a packet, all told");
	for (int j = 0; j < nr; j++)
		fprintf(f, "  %7s %7.1f", "",
			rep_figure(&rows[pick[j]], reps, REP_CPU).mean +
			rep_figure(&rows[pick[j]], reps, REP_STALL).mean +
			rep_figure(&rows[pick[j]], reps, REP_IDLE).mean);
	fputc('\n', f);
}

void rep_write_explain(FILE *f, const struct rep_row *rows, int nr_rows,
		       const struct rep_prov *p)
{
	int reps = p->rc->reps;
	int pick[REP_EXPLAIN_MAX_POLICIES];

	fprintf(f, "# why: a packet's time on its NAPI CPU, ns: the work, and "
		"the wait on memory by\n# what the core waited for and where "
		"that was served (n/pkt: accesses a packet\n# by every CPU, "
		"a private hit included; ns/pkt: the wait beyond a private "
		"hit\n# that the work before it did not hide)\n");
	for (int i = 0; i < nr_rows; i++) {
		int nr = 0;
		bool first = true;

		for (int j = 0; j < i && first; j++)
			first = rows[j].c != rows[i].c;
		if (!first)	/* said with the case's first row */
			continue;
		for (int j = i; j < nr_rows && nr < REP_EXPLAIN_MAX_POLICIES;
		     j++)
			if (rows[j].c == rows[i].c)
				pick[nr++] = j;
		explain_case(f, rows, pick, nr, reps);
	}
}

void rep_write_explain_json(FILE *f, const struct rep_row *row, int reps)
{
	const char *sep = "";

	fputc('{', f);
	for (int k = 0; k < MEM_NR_KINDS; k++) {
		const char *psep = "";

		if (!shown(row, (const int[]){ 0 }, 1, reps, k, -1))
			continue;
		fprintf(f, "%s\"%s\": {", sep, kind_name[k]);
		for (int p = 0; p < MEM_NR_PLACES; p++) {
			double n, ns;

			if (!shown(row, (const int[]){ 0 }, 1, reps, k, p))
				continue;
			cell(row, reps, k, p, &n, &ns);
			fprintf(f, "%s\"%s\": {", psep, place_name[p]);
			rep_json_num(f, "n", k == MEM_DOORBELL ? NAN : n,
				     false);
			rep_json_num(f, "ns", ns, true);
			fputc('}', f);
			psep = ", ";
		}
		fputc('}', f);
		sep = ", ";
	}
	fputc('}', f);
}
