/* ppsim run's outputs: the table, CSV, JSON, the transient samples and
 * the flat tables the plot scripts read. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "config.h"
#include "report.h"

/* ---- output ---- */

/* A case asked for the bulk return of redirected frames under a policy
 * that lacks it. */
static bool bulk_missing(const struct rep_row *row)
{
	const struct rxq_config *q = &row->c->sim.rxq;

	return q->workload == RXQ_XDP_REDIRECT &&
	       q->xdp_return == RXQ_RETURN_BULK && !row->policy->put_bulk;
}

/* Says which tree each kernel tree's policy is; and which policy lacks a
 * path a case asked for, with what ran instead: once each. */
static void note_policies(FILE *f, const struct rep_row *rows, int nr_rows)
{
	for (int i = 0; i < nr_rows; i++) {
		const struct pp_policy *pol = rows[i].policy;
		bool first = true, bulk = true;

		for (int j = 0; j < i; j++) {
			first &= rows[j].policy != pol;
			bulk &= rows[j].policy != pol || !bulk_missing(&rows[j]);
		}
		if (pol->linux_version && first)
			fprintf(f, "# %s: %s\n", pol->name, pol->summary);
		if (bulk && bulk_missing(&rows[i]))
			fprintf(f, "# %s: no page_pool_put_page_bulk (5.11 on): "
				"its frames were returned one by one\n",
				pol->name);
	}
}

/* A policy's name in plots: a tree's with its version. */
static const char *policy_label(const struct pp_policy *pol, char *buf,
				size_t len)
{
	if (!pol->linux_version)
		return pol->name;
	snprintf(buf, len, "%s %s", pol->name, pol->linux_version);
	return buf;
}

/* A CSV field (RFC 4180): as it is, or in double quotes with each quote
 * doubled when it holds a comma, a quote or a line break (a case may be
 * named a,b). */
static void csv_text(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A JSON string: quoted, with '"', '\\' and control characters escaped. */
static void json_text(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, ",");
	else
		fprintf(f, ",%.6g", v);
}

void rep_csv_header(FILE *f, const char *prefix)
{
	fprintf(f, "%scase,policy,metric,unit,value,ci95,measured,error_pct\n",
		prefix);
}

void rep_csv_row(FILE *f, const char *prefix, const struct rep_row *row,
		 int reps)
{
	for (enum rep_metric_id m = 0; m < REP_NR_METRICS; m++) {
		struct rep_figure fg = rep_figure(row, reps, m);
		bool is_rate = m == 0;

		fputs(prefix, f);
		csv_text(f, row->c->name);
		fprintf(f, ",%s,%s,%s", row->policy->name,
			rep_metrics[m].name, is_rate ? sim_rate_unit(&row->c->sim)
						 : rep_metrics[m].unit);
		csv_num(f, fg.mean);
		csv_num(f, fg.ci95);
		csv_num(f, is_rate ? row->measured : NAN);
		csv_num(f, is_rate ? rep_error_pct(fg.mean, row->measured) : NAN);
		fputc('\n', f);
	}
	fputs(prefix, f);
	csv_text(f, row->c->name);
	fprintf(f, ",%s,saturated,resource,%s,,,\n", row->policy->name,
		rep_saturated(row, reps));
}

void rep_write_csv(FILE *f, const struct rep_row *rows, int nr_rows,
		      int reps)
{
	rep_csv_header(f, "");
	for (int i = 0; i < nr_rows; i++)
		rep_csv_row(f, "", &rows[i], reps);
}

static void json_num(FILE *f, const char *key, double v, bool last)
{
	if (isnan(v))
		fprintf(f, "\"%s\": null%s", key, last ? "" : ", ");
	else
		fprintf(f, "\"%s\": %.6g%s", key, v, last ? "" : ", ");
}

void rep_write_json(FILE *f, const struct rep_row *rows, int nr_rows,
		    const struct rep_opts *o, const char *file)
{
	int reps = o->reps;

	fprintf(f, "{\"ppsim\": \"%s\", \"scenario\": ", PACKAGE_VERSION);
	json_text(f, file);
	fprintf(f, ", \"seed\": %lu, \"reps\": %d, \"rows\": [\n", o->seed,
		reps);
	for (int i = 0; i < nr_rows; i++) {
		const struct rep_row *row = &rows[i];

		fprintf(f, "  {\"case\": ");
		json_text(f, row->c->name);
		fprintf(f, ", \"policy\": \"%s\", \"saturated\": \"%s\", "
			"\"metrics\": {\n", row->policy->name,
			rep_saturated(row, reps));
		for (enum rep_metric_id m = 0; m < REP_NR_METRICS; m++) {
			struct rep_figure fg = rep_figure(row, reps, m);

			fprintf(f, "    \"%s\": {\"unit\": \"%s\", ",
				rep_metrics[m].name, m == 0 ? sim_rate_unit(&row->c->sim)
						       : rep_metrics[m].unit);
			json_num(f, "value", fg.mean, false);
			json_num(f, "ci95", fg.ci95, m != 0);
			if (m == 0) {
				json_num(f, "measured", row->measured, false);
				json_num(f, "error_pct",
					 rep_error_pct(fg.mean, row->measured), true);
			}
			fprintf(f, "}%s\n", m + 1 < REP_NR_METRICS ? "," : "");
		}
		fprintf(f, "  }}%s\n", i + 1 < nr_rows ? "," : "");
	}
	fprintf(f, "]}\n");
}

static void fmt_or_dash(char *buf, size_t len, const char *fmt, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

/* A case whose pages come back another way than the NAPI's own put. */
static bool other_return(const struct rep_row *row)
{
	enum rxq_workload wl = row->c->sim.rxq.workload;

	return wl == RXQ_XDP_REDIRECT || wl == RXQ_XDP_CPUMAP ||
	       wl == RXQ_XDP_VETH;
}

/* Where the pages go back, per packet, for the cases that redirect:
 * lines of their own under the table, which other cases do not get. */
static void write_return_paths(FILE *f, const struct rep_row *rows,
			       int nr_rows, int reps, int w, int pw)
{
	static const enum rep_metric_id cols[] = {
		REP_PP_CACHED, REP_PP_RING, REP_PP_RING_FULL, REP_PP_RELEASED,
		REP_SKB_PAGE_FREE, REP_PP_NEW, REP_PP_SLOW_CALLS,
		REP_SPAGE_REMOTE, REP_CONS_RATE, REP_CONS_DROP, REP_CONS_CPU,
		REP_CONS_STALL, REP_CONS_BUSY, REP_CONS_FAR,
	};
	static const char *const heads[] = {
		"cached", "ring", "ring_full", "rel", "skb_free", "new",
		"slow", "spage_r%", "cons", "c_drop", "c_cpu", "c_stall",
		"c_busy%", "c_far%",
	};
	bool any = false;

	for (int i = 0; i < nr_rows; i++)
		any |= other_return(&rows[i]);
	if (!any)
		return;
	fprintf(f, "# return paths, per packet (cons, c_drop: Mpps; c_cpu, "
		"c_stall: ns a frame)\n%-*s %-*s", w, "case", pw, "policy");
	for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		fprintf(f, " %8s", heads[k]);
	fputc('\n', f);
	for (int i = 0; i < nr_rows; i++) {
		if (!other_return(&rows[i]))
			continue;
		fprintf(f, "%-*s %-*s", w, rows[i].c->name, pw,
			rows[i].policy->name);
		for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
			double v = rep_figure(&rows[i], reps, cols[k]).mean;
			char buf[16];

			fmt_or_dash(buf, sizeof(buf), cols[k] >= REP_SPAGE_REMOTE
				    ? "%.2f" : "%.3f", v);
			fprintf(f, " %8s", buf);
		}
		fputc('\n', f);
	}
	fprintf(f, "# cached, ring: puts into the alloc cache / ptr_ring; "
		"ring_full: puts that found it full; rel: pages the pool let "
		"go;\n# skb_free: of them, freed by an skb to the page "
		"allocator; new: pages taken from it; slow: slow-path calls;\n"
		"# spage_r%%: struct page accesses served by the other socket; "
		"cons, c_*: the consumer CPU (xdp_cpumap), c_far%%: its\n# "
		"frames in a page off its node.\n");
}

void rep_write_table(FILE *f, const struct rep_row *rows, int nr_rows,
		     const struct rep_opts *o, const char *file)
{
	int reps = o->reps, w = rep_name_width(rows, nr_rows), pw = 6;

	/* a kernel tree's policy is named by whoever configured ppsim */
	for (int i = 0; i < nr_rows; i++)
		if ((int)strlen(rows[i].policy->name) > pw)
			pw = (int)strlen(rows[i].policy->name);

	fprintf(f, "# ppsim %s  scenario %s  seed %lu  reps %d\n",
		PACKAGE_VERSION, file, o->seed, reps);
	note_policies(f, rows, nr_rows);
	fprintf(f, "%-*s %-*s %7s %-4s %6s %6s %7s %7s %7s %7s %7s %7s %6s "
		"%-9s %7s %7s\n", w, "case", pw, "policy", "rate", "unit", "ci95",
		"meas", "err%",
		"cpu_ns", "stall", "idle", "remote%", "local%", "cqe_r%",
		"saturated", "pp_new", "pp_rel");
	for (int i = 0; i < nr_rows; i++) {
		const struct rep_row *row = &rows[i];
		struct rep_figure rate = rep_figure(row, reps, REP_RATE);
		char ci[16], meas[16], err[16];

		fmt_or_dash(ci, sizeof(ci), "%.2f", rate.ci95);
		fmt_or_dash(meas, sizeof(meas), "%.2f", row->measured);
		fmt_or_dash(err, sizeof(err), "%+.1f",
			    rep_error_pct(rate.mean, row->measured));
		fprintf(f, "%-*s %-*s %7.2f %-4s %6s %6s %7s %7.1f %7.1f "
			"%7.1f %7.1f %7.1f %6.1f %-9s %7.3f %7.3f\n",
			w, row->c->name, pw, row->policy->name, rate.mean,
			sim_rate_unit(&row->c->sim), ci, meas, err,
			rep_figure(row, reps, REP_CPU).mean,
			rep_figure(row, reps, REP_STALL).mean,
			rep_figure(row, reps, REP_IDLE).mean,
			rep_figure(row, reps, REP_PKT_REMOTE).mean,
			rep_figure(row, reps, REP_LOCAL_PAGES).mean,
			rep_figure(row, reps, REP_CQE_REMOTE).mean,
			rep_saturated(row, reps),
			rep_figure(row, reps, REP_PP_NEW).mean,
			rep_figure(row, reps, REP_PP_RELEASED).mean);
	}
	fprintf(f, "# remote%%: packet reads served by the other socket; "
		"local%%: packets in a page on NAPI's node;\n# pp_new/pp_rel: "
		"pages page_pool took from / gave back to the allocator per "
		"packet.  All columns: ppsim(1).\n");
	write_return_paths(f, rows, nr_rows, reps, w, pw);
}

void rep_write_transient(FILE *f, const struct rep_row *rows, int nr_rows,
			    int reps)
{
	fprintf(f, "case,policy,rep,t_s,rate_mpps,local_pages\n");
	for (int i = 0; i < nr_rows; i++)
		for (int r = 0; r < reps; r++) {
			const struct sim_result *res = &rows[i].res[r];

			for (int s = 0; s < res->nr_samples; s++) {
				csv_text(f, rows[i].c->name);
				fprintf(f, ",%s,%d,%.6f,%.6g",
					rows[i].policy->name, r + 1,
					res->samples[s].t,
					res->samples[s].pps / 1e6);
				csv_num(f, res->samples[s].local);
				fputc('\n', f);
			}
		}
}

/* The first fields of a plot table's row: the plot's label (case and
 * policy), the case, the policy. */
static void plot_row_names(FILE *f, const struct rep_row *row)
{
	char buf[64], both[SCN_NAME_MAX + 72];

	snprintf(both, sizeof(both), "%s %s", row->c->name,
		 policy_label(row->policy, buf, sizeof(buf)));
	csv_text(f, both);
	fputc(',', f);
	csv_text(f, row->c->name);
	fprintf(f, ",%s", row->policy->name);
}

/* The flat tables the plot scripts read: rates.csv ... */
void rep_write_rates(FILE *f, const struct rep_row *rows, int nr_rows,
		     int reps)
{
	fprintf(f, "label,case,policy,measured,predicted,ci95,unit\n");
	for (int i = 0; i < nr_rows; i++) {
		const struct rep_row *row = &rows[i];
		struct rep_figure rate = rep_figure(row, reps, REP_RATE);

		plot_row_names(f, row);
		csv_num(f, row->measured);
		csv_num(f, rate.mean);
		csv_num(f, isnan(rate.ci95) ? 0 : rate.ci95);
		fprintf(f, ",%s\n", sim_rate_unit(&row->c->sim));
	}
}

/* ... and split.csv. */
void rep_write_split(FILE *f, const struct rep_row *rows, int nr_rows,
		     int reps)
{
	fprintf(f, "label,case,policy,cpu_ns,stall_ns,idle_ns\n");
	for (int i = 0; i < nr_rows; i++) {
		const struct rep_row *row = &rows[i];

		plot_row_names(f, row);
		fprintf(f, ",%.6g,%.6g,%.6g\n",
			rep_figure(row, reps, REP_CPU).mean,
			rep_figure(row, reps, REP_STALL).mean,
			rep_figure(row, reps, REP_IDLE).mean);
	}
}

const char *rep_rate_label(const struct rep_row *rows, int nr_rows)
{
	bool mpps = false, gbps = false;

	for (int i = 0; i < nr_rows; i++) {
		mpps |= !strcmp(sim_rate_unit(&rows[i].c->sim), "Mpps");
		gbps |= !strcmp(sim_rate_unit(&rows[i].c->sim), "Gbps");
	}
	return mpps && gbps ? "rate (Mpps for XDP, Gbps of payload for TCP)"
	       : gbps ? "TCP payload rate (Gbps)" : "packet rate (Mpps)";
}

int rep_name_width(const struct rep_row *rows, int nr_rows)
{
	int w = 12;

	for (int i = 0; i < nr_rows; i++)
		if ((int)strlen(rows[i].c->name) > w)
			w = (int)strlen(rows[i].c->name);
	return w;
}
