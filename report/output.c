/* ppsim run's outputs: the table, CSV, JSON, the transient samples and
 * the flat tables the plot scripts read. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "config.h"
#include "report/commit.h"
#include "report.h"

/* ---- output ---- */

/* A case asked for the bulk return of redirected frames under a policy
 * that lacks it. */
static bool bulk_missing(const struct rep_row *row)
{
	const struct rxq_config *q = &row->c->sim.rxq;

	return q->workload->tx_frames &&
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
void rep_csv_text(FILE *f, const char *s)
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

void rep_csv_field(char *buf, size_t len, const char *s)
{
	size_t n = 0;

	if (!strpbrk(s, ",\"\n\r")) {
		snprintf(buf, len, "%s", s);
		return;
	}
	/* RFC 4180: in quotes, each quote doubled */
	for (buf[n++] = '"'; *s && n + 3 < len; s++) {
		if (*s == '"')
			buf[n++] = '"';
		buf[n++] = *s;
	}
	buf[n++] = '"';
	buf[n] = '\0';
}

/* The length of the well-formed UTF-8 sequence s starts with (RFC 3629:
 * no overlong forms, no surrogates, nothing past U+10FFFF), or 0. */
static int utf8_length(const unsigned char *s)
{
	int n = s[0] < 0x80 ? 1 : s[0] < 0xc2 ? 0 : s[0] < 0xe0 ? 2 :
		s[0] < 0xf0 ? 3 : s[0] < 0xf5 ? 4 : 0;
	/* the second byte's range where the first narrows it */
	unsigned char lo = s[0] == 0xe0 ? 0xa0 : s[0] == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = s[0] == 0xed ? 0x9f : s[0] == 0xf4 ? 0x8f : 0xbf;

	for (int i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return n;
}

/* A JSON string: quoted, with '"', '\\' and control characters escaped,
 * and a byte that is not UTF-8 (a file name in Latin-1) as U+FFFD: JSON
 * is UTF-8, and a reader would refuse the whole document. */
void rep_json_text(FILE *f, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;

	fputc('"', f);
	while (*s) {
		int n = utf8_length(s);

		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else if (!n)
			fputs("\\ufffd", f);
		else
			fwrite(s, 1, (size_t)n, f);
		s += n ? n : 1;
	}
	fputc('"', f);
}

/* A text field of a table only the plot scripts read (a bar's label, its
 * tic): gnuplot ends a field at any quote in it, doubled or not, so a
 * quote in a name is drawn as U+201D; and it reads a backslash as an
 * escape, so one is written twice. */
static void plot_text(FILE *f, const char *s)
{
	char buf[3 * (SCN_NAME_MAX + 72)];	/* each byte at most 3 */
	size_t n = 0;

	for (; *s && n + 4 < sizeof(buf); s++) {
		if (*s == '"') {
			memcpy(buf + n, "\xe2\x80\x9d", 3);
			n += 3;
		} else if (*s == '\\') {
			memcpy(buf + n, "\\\\", 2);
			n += 2;
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	rep_csv_text(f, buf);
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
	fprintf(f, "%scase,policy,metric,unit,value,ci95,measured,error_pct,"
		"delta_pct\n", prefix);
}

void rep_csv_row(FILE *f, const char *prefix, const struct rep_row *row,
		 int reps, double delta, bool altered)
{
	for (enum rep_metric_id m = 0; m < REP_NR_METRICS; m++) {
		struct rep_figure fg = rep_figure(row, reps, m);
		bool is_rate = m == 0;

		fputs(prefix, f);
		rep_csv_text(f, row->c->name);
		fprintf(f, ",%s,%s,%s", row->policy->name,
			rep_metrics[m].name, is_rate ? row->unit
						 : rep_metrics[m].unit);
		csv_num(f, fg.mean);
		csv_num(f, fg.ci95);
		csv_num(f, is_rate ? row->measured : NAN);
		csv_num(f, is_rate && !altered ?
			rep_error_pct(fg.mean, row->measured) : NAN);
		csv_num(f, is_rate ? delta : NAN);
		fputc('\n', f);
	}
	fputs(prefix, f);
	rep_csv_text(f, row->c->name);
	fprintf(f, ",%s,saturated,resource,%s,,,,\n", row->policy->name,
		rep_saturated(row, reps));
}

int rep_baseline(const struct rep_row *rows, int nr_rows, int i)
{
	const struct pp_policy *base = rows[i].baseline;

	for (int j = 0; j < nr_rows; j++)
		if (rows[j].c == rows[i].c && rows[j].policy == base)
			return j;
	return -1;
}

double rep_delta_pct(const struct rep_row *rows, int nr_rows, int i,
		     int reps)
{
	int b = rep_baseline(rows, nr_rows, i);
	double base;

	if (b < 0)
		return NAN;
	base = rep_rate(&rows[b], reps).mean;
	/* no change from nothing (a rate of 0) */
	return base > 0 ? (rep_rate(&rows[i], reps).mean - base) / base * 100
			: NAN;
}

void rep_write_csv(FILE *f, const struct rep_row *rows, int nr_rows,
		   const struct rep_prov *p)
{
	rep_preamble(f, p, rows, nr_rows);
	rep_csv_header(f, "");
	for (int i = 0; i < nr_rows; i++)
		rep_csv_row(f, "", &rows[i], p->rc->reps,
			    rep_delta_pct(rows, nr_rows, i, p->rc->reps),
			    rep_altered(p));
}

void rep_json_set(FILE *f, const struct scn_override *set, int nr)
{
	fprintf(f, "\"set\": [");
	for (int i = 0; i < nr; i++) {
		char kv[SCN_TEXT_MAX + SCN_KEY_MAX + 2];

		snprintf(kv, sizeof(kv), "%s=%s", set[i].key, set[i].value);
		fputs(i ? ", " : "", f);
		rep_json_text(f, kv);
	}
	fputc(']', f);
}

void rep_json_num(FILE *f, const char *key, double v, bool last)
{
	if (isnan(v))
		fprintf(f, "\"%s\": null%s", key, last ? "" : ", ");
	else
		fprintf(f, "\"%s\": %.6g%s", key, v, last ? "" : ", ");
}

void rep_json_row(FILE *f, const struct rep_row *rows, int nr_rows, int i,
		  int reps, bool altered)
{
	const struct rep_row *row = &rows[i];

	fprintf(f, "  {\"case\": ");
	rep_json_text(f, row->c->name);
	fprintf(f, ", \"policy\": \"%s\", \"baseline\": \"%s\", "
		"\"saturated\": \"%s\", \"metrics\": {\n",
		row->policy->name, row->baseline->name,
		rep_saturated(row, reps));
	for (enum rep_metric_id m = 0; m < REP_NR_METRICS; m++) {
		struct rep_figure fg = rep_figure(row, reps, m);

		fprintf(f, "    \"%s\": {\"unit\": \"%s\", ",
			rep_metrics[m].name, m == 0 ? row->unit
					       : rep_metrics[m].unit);
		rep_json_num(f, "value", fg.mean, false);
		rep_json_num(f, "ci95", fg.ci95, m != 0);
		if (m == 0) {
			rep_json_num(f, "measured", row->measured, false);
			rep_json_num(f, "error_pct", altered ? NAN :
				     rep_error_pct(fg.mean, row->measured),
				     false);
			rep_json_num(f, "delta_pct", rep_delta_pct(rows,
				     nr_rows, i, reps), true);
		}
		fprintf(f, "}%s\n", m + 1 < REP_NR_METRICS ? "," : "");
	}
	fprintf(f, "  }, \"explain\": ");
	/* results read back (ppsim report): a CSV has no accesses */
	if (row->res)
		rep_write_explain_json(f, row, reps);
	else
		fputs("null", f);
	fputc('}', f);
}

void rep_write_json(FILE *f, const struct rep_row *rows, int nr_rows,
		    const struct rep_prov *p)
{
	int reps = p->rc->reps;
	bool altered = rep_altered(p);
	char dur[32];

	rep_duration_text(rows, nr_rows, dur, sizeof(dur));
	fprintf(f, "{\"ppsim\": \"%s\", \"commit\": \"%s\", "
		"\"command\": \"%s\", \"scenario\": ", PACKAGE_VERSION,
		PPSIM_COMMIT, p->command);
	rep_json_text(f, p->file);
	if (rep_machine_name(rows, nr_rows)) {
		fprintf(f, ", \"machine\": ");
		rep_json_text(f, rep_machine_name(rows, nr_rows));
	}
	fprintf(f, ", \"seed\": %lu, \"reps\": %d, \"duration\": \"%s\", ",
		p->rc->seed, reps, dur);
	rep_json_set(f, p->set, p->nr_set);
	fprintf(f, ", \"error_pct_computed\": %s, \"guesses\": %d, "
		"\"uncalibrated\": %s, ",
		altered ? "false" : "true", p->nr_guesses,
		p->uncalibrated ? "true" : "false");
	if (p->borrowed) {
		fprintf(f, "\"costs_borrowed\": ");
		rep_json_text(f, p->borrowed);
		fprintf(f, ", ");
	}
	fprintf(f, "\"rows\": [\n");
	for (int i = 0; i < nr_rows; i++) {
		rep_json_row(f, rows, nr_rows, i, reps, altered);
		fprintf(f, "%s\n", i + 1 < nr_rows ? "," : "");
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

void rep_put_ci95(FILE *f, double ci95)
{
	char buf[16];

	fmt_or_dash(buf, sizeof(buf), "%.2f", ci95);
	fprintf(f, "%6s", buf);
}

/* A case whose pages come back another way than the NAPI's own put. */
static bool other_return(const struct rep_row *row)
{
	return row->c->sim.rxq.workload->other_return ||
	       sim_app_reader(&row->c->sim);
}

static bool several_queues(const struct rep_row *row)
{
	return row->c->sim.load.queues > 1;
}

/* Lines of their own under the table, for the rows a section is about
 * (other rows do not get them): a title, the columns' heads, a row each,
 * notes.  Per packet to 3 places; %, rates and ns to 2. */
struct section {
	bool (*about)(const struct rep_row *row);
	const char *title, *notes;
	int nr_cols;
	const enum rep_metric_id *cols;
	const char *const *heads;
};

static const enum rep_metric_id return_cols[] = {
	REP_PP_CACHED, REP_PP_RING, REP_PP_RING_FULL, REP_PP_RELEASED,
	REP_SKB_PAGE_FREE, REP_SKB_DEFER, REP_PP_NEW,
	REP_PP_SLOW_CALLS, REP_SPAGE_REMOTE, REP_CONS_RATE,
	REP_CONS_DROP, REP_CONS_CPU, REP_CONS_STALL, REP_CONS_BUSY,
	REP_CONS_FAR,
};
static const char *const return_heads[] = {
	"cached", "ring", "ring_full", "rel", "skb_free", "defer",
	"new", "slow", "spage_r%", "cons", "c_drop", "c_cpu",
	"c_stall", "c_busy%", "c_far%",
};
static const enum rep_metric_id queue_cols[] = {
	REP_Q_MIN, REP_Q_MAX, REP_BUSY, REP_PKT_LLC, REP_PKT_DRAM,
	REP_PCIE_UP,
};
static const char *const queue_heads[] = {
	"q_min", "q_max", "busy%", "llc%", "dram%", "pcie_up%",
};

static const struct section sections[] = {
	{ other_return,
	  "# return paths, per packet (cons, c_drop: Mpps; c_cpu, "
	  "c_stall: ns a frame)\n",
	  "# cached, ring: puts into the alloc cache / ptr_ring; "
	  "ring_full: puts that found it full; rel: pages the pool let "
	  "go;\n# skb_free: of them, freed by an skb to the page "
	  "allocator; defer: skbs a reader on app_cpu handed back to the "
	  "NAPI's CPU,\n# freed there; new: pages taken from the "
	  "allocator; slow: slow-path calls; spage_r%: struct page\n# "
	  "accesses served by the other socket; cons, c_*: the consumer "
	  "CPU (xdp_cpumap's kthread, tcp's reader,\n# the other "
	  "port's NAPI; c_drop: its full "
	  "ring or socket), c_far%: its frames in a page off its node."
	  "\n",
	  sizeof(return_cols) / sizeof(return_cols[0]), return_cols,
	  return_heads },
	{ several_queues,
	  "# rx queues (q_min, q_max: Mpps)\n",
	  "# q_min, q_max: the slowest and the fastest queue; busy%: the "
	  "queues' CPUs, mean; llc%, dram%:\n# packet reads NAPI found in "
	  "its socket's LLC or took from its DRAM; pcie_up%: the\n# "
	  "device-to-host direction of the link used.\n",
	  sizeof(queue_cols) / sizeof(queue_cols[0]), queue_cols,
	  queue_heads },
};

static void write_section(FILE *f, const struct section *sec,
			  const struct rep_row *rows, int nr_rows, int reps,
			  int w, int pw)
{
	bool any = false;

	for (int i = 0; i < nr_rows; i++)
		any |= sec->about(&rows[i]);
	if (!any)
		return;
	fprintf(f, "%s%-*s %-*s", sec->title, w, "case", pw, "policy");
	for (int k = 0; k < sec->nr_cols; k++)
		fprintf(f, " %8s", sec->heads[k]);
	fputc('\n', f);
	for (int i = 0; i < nr_rows; i++) {
		if (!sec->about(&rows[i]))
			continue;
		fprintf(f, "%-*s %-*s", w, rows[i].c->name, pw,
			rows[i].policy->name);
		for (int k = 0; k < sec->nr_cols; k++) {
			enum rep_metric_id id = sec->cols[k];
			bool pkt = !strcmp(rep_metrics[id].unit, "/pkt");
			char buf[16];

			fmt_or_dash(buf, sizeof(buf), pkt ? "%.3f" : "%.2f",
				    rep_figure(&rows[i], reps, id).mean);
			fprintf(f, " %8s", buf);
		}
		fputc('\n', f);
	}
	fputs(sec->notes, f);
}

void rep_write_table(FILE *f, const struct rep_row *rows, int nr_rows,
		     const struct rep_prov *p)
{
	int reps = p->rc->reps, w = rep_name_width(rows, nr_rows), pw = 6;
	bool altered = rep_altered(p);

	/* a kernel tree's policy is named by whoever configured ppsim */
	for (int i = 0; i < nr_rows; i++)
		if ((int)strlen(rows[i].policy->name) > pw)
			pw = (int)strlen(rows[i].policy->name);

	rep_preamble(f, p, rows, nr_rows);
	note_policies(f, rows, nr_rows);
	fprintf(f, "%-*s %-*s %7s %-4s %6s %6s %7s %7s %7s %7s %7s %7s %7s "
		"%6s %-9s %7s %7s\n", w, "case", pw, "policy", "rate", "unit",
		"ci95", "meas", "err%", "delta%",
		"cpu_ns", "stall", "idle", "remote%", "local%", "cqe_r%",
		"saturated", "pp_new", "pp_rel");
	for (int i = 0; i < nr_rows; i++) {
		const struct rep_row *row = &rows[i];
		struct rep_figure rate = rep_figure(row, reps, REP_RATE);
		char ci[16], meas[16], err[16], delta[16];

		fmt_or_dash(ci, sizeof(ci), "%.2f", rate.ci95);
		fmt_or_dash(meas, sizeof(meas), "%.2f", row->measured);
		fmt_or_dash(err, sizeof(err), "%+.1f", altered ? NAN :
			    rep_error_pct(rate.mean, row->measured));
		if (rep_baseline(rows, nr_rows, i) == i)
			snprintf(delta, sizeof(delta), "base");
		else
			fmt_or_dash(delta, sizeof(delta), "%+.1f",
				    rep_delta_pct(rows, nr_rows, i, reps));
		fprintf(f, "%-*s %-*s %7.2f %-4s %6s %6s %7s %7s %7.1f %7.1f "
			"%7.1f %7.1f %7.1f %6.1f %-9s %7.3f %7.3f\n",
			w, row->c->name, pw, row->policy->name, rate.mean,
			row->unit, ci, meas, err, delta,
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
		"packet;\n# delta%%: the rate against the case's baseline "
		"policy (base).  All columns: ppsim(1).\n");
	for (size_t k = 0; k < sizeof(sections) / sizeof(sections[0]); k++)
		write_section(f, &sections[k], rows, nr_rows, reps, w, pw);
}

void rep_write_transient(FILE *f, const struct rep_row *rows, int nr_rows,
			 const struct rep_prov *p)
{
	int reps = p->rc->reps;

	rep_preamble(f, p, rows, nr_rows);
	fprintf(f, "case,policy,rep,t_s,rate_mpps,local_pages\n");
	for (int i = 0; i < nr_rows; i++)
		for (int r = 0; r < reps; r++) {
			const struct sim_result *res = &rows[i].res[r];

			for (int s = 0; s < res->nr_samples; s++) {
				rep_csv_text(f, rows[i].c->name);
				fprintf(f, ",%s,%d,%.6f,%.6g",
					rows[i].policy->name, r + 1,
					res->samples[s].t,
					res->samples[s].pps / 1e6);
				csv_num(f, res->samples[s].local);
				fputc('\n', f);
			}
		}
}

int rep_mean_samples(const struct rep_row *row, int reps)
{
	int n = row->res[0].nr_samples;

	for (int r = 1; r < reps; r++)
		if (row->res[r].nr_samples < n)
			n = row->res[r].nr_samples;
	return n;
}

void rep_write_transient_mean(FILE *f, const struct rep_row *rows,
			      int nr_rows, const struct rep_prov *p)
{
	int reps = p->rc->reps;

	rep_preamble(f, p, rows, nr_rows);
	fprintf(f, "case,policy,t_s,rate,unit,local_pages\n");
	for (int i = 0; i < nr_rows; i++) {
		int n = rep_mean_samples(&rows[i], reps);

		for (int s = 0; s < n; s++) {
			double t = 0, rate = 0, local = 0;

			for (int r = 0; r < reps; r++) {
				const struct sim_result *res = &rows[i].res[r];
				/* a TCP case's samples count packets: its
				 * payload per packet is the run's */
				double scale = res->gbps > 0 && res->pps > 0 ?
					       res->gbps / res->pps : 1e-6;

				t += res->samples[s].t / reps;
				rate += res->samples[s].pps * scale / reps;
				local += res->samples[s].local / reps;
			}
			rep_csv_text(f, rows[i].c->name);
			fprintf(f, ",%s,%.6f,%.6g,%s", rows[i].policy->name, t,
				rate, rows[i].unit);
			csv_num(f, local);
			fputc('\n', f);
		}
	}
}

void rep_plot_policies(const struct rep_row *rows, int nr_rows,
		       char *names, size_t nlen, char *colours, size_t clen)
{
	*names = *colours = '\0';
	for (int i = 0; i < nr_rows; i++) {
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= rows[j].policy == rows[i].policy;
		if (seen)
			continue;
		snprintf(names + strlen(names), nlen - strlen(names), "%s%s",
			 *names ? " " : "", rows[i].policy->name);
		snprintf(colours + strlen(colours), clen - strlen(colours),
			 "%s#%06x", *colours ? " " : "",
			 rep_policy_colour(rows[i].policy));
	}
}

void rep_plot_title(const struct rep_row *rows, int nr_rows,
		    const struct rep_prov *p, char *buf, size_t len)
{
	const struct sim_case *s0 = &rows[0].c->sim;
	int size = s0->rxq.pkt_size;
	size_t n = 0;

	for (int i = 0; i < nr_rows; i++)
		if (rows[i].c->sim.rxq.pkt_size != size)
			size = 0;
	buf[0] = '\0';
	/* the rows' workloads, in the registry's order */
	for (int w = 0; workloads[w]; w++) {
		bool seen = false;

		for (int i = 0; i < nr_rows && !seen; i++)
			seen = rows[i].c->sim.rxq.workload == workloads[w];
		if (seen && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? ", " : "",
					      workloads[w]->title);
	}
	if (size && n < len)
		n += (size_t)snprintf(buf + n, len - n, " %d B", size);
	if (n < len && p->machine)
		n += (size_t)snprintf(buf + n, len - n, " on %s", p->machine);
	else if (n < len)
		n += (size_t)snprintf(buf + n, len - n, " on %d x %d cores, "
				      "%.2g GHz", s0->mem.sockets,
				      s0->mem.cores, s0->mem.freq / 1e9);
	if (n < len)
		snprintf(buf + n, len - n, " (ppsim %s, %d rep%s%s%s)",
			 PACKAGE_VERSION, p->rc->reps,
			 p->rc->reps == 1 ? "" : "s",
			 p->uncalibrated ? ", uncalibrated" : "",
			 p->borrowed ? ", borrowed costs" : "");
}

/* The first fields of a plot table's row: the plot's label (case and
 * policy), the case, the policy. */
static void plot_row_names(FILE *f, const struct rep_row *row)
{
	char buf[64], both[SCN_NAME_MAX + 72];

	snprintf(both, sizeof(both), "%s %s", row->c->name,
		 policy_label(row->policy, buf, sizeof(buf)));
	plot_text(f, both);
	fputc(',', f);
	rep_csv_text(f, row->c->name);
	fprintf(f, ",%s", row->policy->name);
}

unsigned int rep_policy_colour(const struct pp_policy *pol)
{
	/* the eras keep theirs in every plot; a kernel tree's follows from
	 * its name, so that it too is the same in every plot (Paul Tol's
	 * bright scheme: told apart by colour-blind readers too) */
	static const struct { const char *name; unsigned int rgb; } eras[] = {
		{ "v5.4", 0x4477aa }, { "v5.5", 0xee6677 },
		{ "v6.1", 0x228833 }, { "v6.12", 0xccbb44 },
	};
	static const unsigned int others[] = {
		0x66ccee, 0xaa3377, 0x332288, 0x999933, 0x882255, 0x44aa99,
	};
	unsigned int h = 5381;

	for (size_t i = 0; i < sizeof(eras) / sizeof(eras[0]); i++)
		if (!strcmp(pol->name, eras[i].name))
			return eras[i].rgb;
	for (const char *s = pol->name; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return others[h % (sizeof(others) / sizeof(others[0]))];
}

/* The flat tables the plot scripts read: rates.csv, one bar a row, the
 * bars of a case side by side around its group's x ... */
void rep_write_rates(FILE *f, const struct rep_row *rows, int nr_rows,
		     const struct rep_prov *p)
{
	int reps = p->rc->reps, group = -1, most = 1;

	for (int i = 0, n = 0; i < nr_rows; i++) {
		n = i && rows[i - 1].c == rows[i].c ? n + 1 : 1;
		most = n > most ? n : most;
	}
	rep_preamble(f, p, rows, nr_rows);
	fprintf(f, "label,case,policy,measured,predicted,ci95,unit,delta_pct,"
		"group,x,width,colour,delta_text,tic,top\n");
	for (int i = 0, slot = 0, n = 0; i < nr_rows; i++) {
		const struct rep_row *row = &rows[i];
		struct rep_figure rate = rep_figure(row, reps, REP_RATE);
		double delta = rep_delta_pct(rows, nr_rows, i, reps);
		double width = 0.8 / most;
		int b = rep_baseline(rows, nr_rows, i);

		if (!i || rows[i - 1].c != row->c) {
			group++;
			slot = 0;
			for (n = 0; i + n < nr_rows && rows[i + n].c == row->c;)
				n++;
		}
		plot_row_names(f, row);
		csv_num(f, row->measured);
		csv_num(f, rate.mean);
		csv_num(f, isnan(rate.ci95) ? 0 : rate.ci95);
		fprintf(f, ",%s", row->unit);
		csv_num(f, delta);
		fprintf(f, ",%d,%.4f,%.4f,%u,", group,
			group + (slot - (n - 1) / 2.0) * width, width,
			rep_policy_colour(row->policy));
		if (!isnan(delta) && b != i) {
			const struct rep_row *base = &rows[b];

			fprintf(f, "%+.1f %%", delta);
			/* the change measured beside the one predicted */
			if (!isnan(row->measured) && !isnan(base->measured))
				fprintf(f, " (measured %+.1f %%)",
					(row->measured / base->measured - 1) *
					100);
		}
		fputc(',', f);
		plot_text(f, row->c->name);	/* at the group's x */
		/* how high the bar, its CI or its measurement reach */
		csv_num(f, fmax(rate.mean + (isnan(rate.ci95) ? 0 : rate.ci95),
				isnan(row->measured) ? 0 : row->measured));
		fputc('\n', f);
		slot++;
	}
}

/* ... and split.csv. */
void rep_write_split(FILE *f, const struct rep_row *rows, int nr_rows,
		     const struct rep_prov *p)
{
	int reps = p->rc->reps;

	rep_preamble(f, p, rows, nr_rows);
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
		mpps |= !strcmp(rows[i].unit, "Mpps");
		gbps |= !strcmp(rows[i].unit, "Gbps");
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
