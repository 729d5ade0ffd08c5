#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>
#include "config.h"
#include "plot.h"
#include "../model/page_pool/pp.h"
#include "run.h"
#include "sim.h"

#define RUN_MAX_SET	32

enum run_format { FMT_TABLE, FMT_CSV, FMT_JSON };

struct run_opts {
	const char *file;
	const char *only_case;
	const char *only_policy;
	struct run_common rc;
	enum run_format format;
	const char *out;
	struct scn_override set[RUN_MAX_SET];
	int nr_set;
};


static void usage(FILE *f)
{
	fprintf(f,
"Usage: ppsim run FILE [OPTIONS]\n"
"\n"
"Simulates every case of the scenario FILE under each policy it compares\n"
"and prints the predicted rate beside the measured one, with the figures\n"
"that explain it.\n"
"\n"
"  --case NAME        run only this case\n"
"  --policy P         run only this policy\n"
"  --duration S       simulated seconds measured per case (e.g. 10ms)\n"
"  --reps N           independent replications (default 3): mean, 95%% CI\n"
"  --seed S           first seed (default 1); replication r uses S + r\n"
"  --set KEY=VALUE    override a key (nic.rx_ring=512, duration=20ms)\n"
"  -j, --jobs N       simulations run in parallel (default 1)\n"
"  --format F         table (default), csv or json\n"
"  --out DIR          also write DIR/results.csv and DIR/transient.csv\n"
"\n"
"The columns are described in ppsim(1), section RUN OUTPUT.\n");
}

int run_common_opt(int ch, const char *arg, struct run_common *c,
		   const char *cmd)
{
	char *end;
	long v;

	if (ch != 'r' && ch != 's' && ch != 'j')
		return 0;
	errno = 0;
	if (ch == 's') {
		c->seed = strtoul(arg, &end, 10);
		if (!*end && !errno && arg[0] != '-')
			return 1;
		fprintf(stderr, "ppsim %s: --seed %s: expected a whole "
			"number\n", cmd, arg);
		return -1;
	}
	v = strtol(arg, &end, 10);
	if (ch == 'r' && !*end && v >= 1 && v <= RUN_MAX_REPS) {
		c->reps = (int)v;
		return 1;
	}
	if (ch == 'j' && !*end && v >= 1 && v <= 256) {
		c->jobs = (int)v;
		return 1;
	}
	fprintf(stderr, "ppsim %s: %s %s: expected 1 to %d\n", cmd,
		ch == 'r' ? "--reps" : "-j", arg,
		ch == 'r' ? RUN_MAX_REPS : 256);
	return -1;
}

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		{ "case", required_argument, NULL, 'c' },
		{ "policy", required_argument, NULL, 'p' },
		{ "duration", required_argument, NULL, 'd' },
		{ "reps", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "set", required_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	*o = (struct run_opts){ .rc = { .reps = 3, .jobs = 1, .seed = 1 } };
	while ((ch = getopt_long(argc, argv, "j:h", opts, NULL)) != -1) {
		int common = run_common_opt(ch, optarg, &o->rc, "run");

		if (common < 0)
			return -1;
		if (common)
			continue;
		switch (ch) {
		case 'c': o->only_case = optarg; break;
		case 'p': o->only_policy = optarg; break;
		case 'o': o->out = optarg; break;
		case 'h': usage(stdout); exit(0);
		case 'd':	/* --set duration=, checked by the key table */
			if (o->nr_set == RUN_MAX_SET)
				return -1;
			o->set[o->nr_set++] = (struct scn_override){
				"duration", optarg };
			break;
		case 'f':
			if (!strcmp(optarg, "table"))
				o->format = FMT_TABLE;
			else if (!strcmp(optarg, "csv"))
				o->format = FMT_CSV;
			else if (!strcmp(optarg, "json"))
				o->format = FMT_JSON;
			else {
				fprintf(stderr, "ppsim run: --format %s: "
					"expected table, csv or json\n", optarg);
				return -1;
			}
			break;
		case 'S': {
			char *eq = strchr(optarg, '=');

			if (!eq || eq == optarg || o->nr_set == RUN_MAX_SET) {
				fprintf(stderr, "ppsim run: --set %s: expected "
					"KEY=VALUE (at most %d)\n", optarg,
					RUN_MAX_SET);
				return -1;
			}
			*eq = '\0';
			o->set[o->nr_set++] = (struct scn_override){ optarg,
								     eq + 1 };
			break;
		}
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "ppsim run: expected one scenario FILE\n");
		usage(stderr);
		return -1;
	}
	o->file = argv[optind];
	return 0;
}

/* ---- running ---- */

struct job {
	struct run_row *row;
	int rep;
	int pid, fd;
};

static void progress(int done, int total, const struct job *j)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K[%d/%d] %s %s rep %d", done, total,
		j->row->c->name, j->row->policy, j->rep + 1);
	if (done == total)
		fprintf(stderr, "\r\033[K");
}

int run_rows(struct run_row *rows, int nr_rows, const struct run_common *rc,
	     const char *file)
{
	int reps = rc->reps, jobs = rc->jobs;
	unsigned long seed = rc->seed;
	int total = nr_rows * reps, started = 0, done = 0, failed = 0;
	struct job *running = calloc((size_t)jobs, sizeof(*running));
	int nr_running = 0;

	for (int i = 0; i < nr_rows; i++)
		rows[i].res = calloc((size_t)reps, sizeof(struct sim_result));
	while (done < total) {
		while (nr_running < jobs && started < total) {
			struct job *j = &running[nr_running];

			j->row = &rows[started / reps];
			j->rep = started % reps;
			j->pid = sim_start(j->row->c, j->row->policy,
					   seed + (unsigned long)j->rep, &j->fd);
			if (j->pid < 0) {
				fprintf(stderr, "ppsim: fork: %s\n",
					strerror(errno));
				free(running);
				return -1;
			}
			nr_running++;
			started++;
		}
		/* oldest first: results come back in a fixed order */
		{
			struct job j = running[0];
			struct sim_result *r = &j.row->res[j.rep];

			sim_collect(j.pid, j.fd, r);
			if (r->status) {
				fprintf(stderr, "%s: case %s, policy %s: %s\n",
					file, j.row->c->name, j.row->policy,
					r->why);
				failed++;
			}
			memmove(&running[0], &running[1],
				(size_t)(nr_running - 1) * sizeof(*running));
			nr_running--;
			progress(++done, total, &j);
		}
	}
	free(running);
	return failed ? -1 : 0;
}

void run_rows_free(struct run_row *rows, int nr_rows)
{
	for (int i = 0; i < nr_rows; i++) {
		free(rows[i].res);
		rows[i].res = NULL;
	}
}

/* ---- figures ---- */

typedef double (*metric_fn)(const struct sim_result *r);

static struct figure figure_of(const struct run_row *row, int reps,
			       metric_fn fn)
{
	double v[RUN_MAX_REPS] = { 0 };
	struct figure f;

	for (int i = 0; i < reps; i++)
		v[i] = fn(&row->res[i]);
	f.mean = gsl_stats_mean(v, 1, (size_t)reps);
	f.ci95 = reps > 1 ? gsl_cdf_tdist_Pinv(0.975, reps - 1) *
			    gsl_stats_sd(v, 1, (size_t)reps) / sqrt(reps)
			  : NAN;
	return f;
}

#define METRIC(name, expr) \
	static double m_##name(const struct sim_result *r) { return (expr); }
METRIC(rate, r->gbps > 0 ? r->gbps : r->pps / 1e6)
METRIC(pps, r->pps / 1e6)
METRIC(cpu, r->cpu_ns)
METRIC(stall, r->stall_ns)
METRIC(idle, r->idle_ns)
METRIC(busy, r->busy * 100)
METRIC(pkt_remote, (r->pkt_place[MEM_RCACHE] + r->pkt_place[MEM_RDRAM]) * 100)
METRIC(pkt_rcache, r->pkt_place[MEM_RCACHE] * 100)
METRIC(pkt_rdram, r->pkt_place[MEM_RDRAM] * 100)
METRIC(pkt_llc, r->pkt_place[MEM_LLC] * 100)
METRIC(pkt_dram, r->pkt_place[MEM_DRAM] * 100)
METRIC(cqe_remote, r->cqe_remote * 100)
METRIC(local_pages, r->local_pages * 100)
METRIC(oob, r->oob_pps / 1e6)
METRIC(phy, r->phy_pps / 1e6)
METRIC(pcie, r->pcie_util * 100)
METRIC(qpi, r->qpi_gbs)
METRIC(snoops, r->nic_snoops)
METRIC(pp_fast, r->pp_fast)
METRIC(pp_slow, r->pp_slow_pages)
METRIC(pp_cached, r->pp_cached)
METRIC(pp_ring, r->pp_ring)
METRIC(pp_released, r->pp_released)
METRIC(pp_waive, r->pp_waive)

static const struct {
	const char *name;
	const char *unit;
	metric_fn fn;
	const char *help;
} metrics[] = {
	{ "rate", "", m_rate, "the case's figure: Mpps handled (XDP) or Gbps of payload read (TCP)" },
	{ "packets", "Mpps", m_pps, "packets handled per second" },
	{ "cpu_time", "ns/pkt", m_cpu, "NAPI core working" },
	{ "stall_time", "ns/pkt", m_stall, "NAPI core waiting on memory" },
	{ "idle_time", "ns/pkt", m_idle, "NAPI core idle, waiting for packets" },
	{ "cpu_busy", "%", m_busy, "NAPI core busy" },
	{ "pkt_remote", "%", m_pkt_remote, "packet reads served by the other socket" },
	{ "pkt_remote_cache", "%", m_pkt_rcache, "packet reads from the other socket's caches" },
	{ "pkt_remote_dram", "%", m_pkt_rdram, "packet reads from remote DRAM" },
	{ "pkt_llc", "%", m_pkt_llc, "packet reads from the local LLC (DDIO)" },
	{ "pkt_dram", "%", m_pkt_dram, "packet reads from local DRAM" },
	{ "cqe_remote", "%", m_cqe_remote, "completion reads from the other socket" },
	{ "local_pages", "%", m_local_pages, "packets in a page on NAPI's node" },
	{ "drop_no_desc", "Mpps", m_oob, "dropped: no rx descriptor (rx_out_of_buffer)" },
	{ "drop_nic", "Mpps", m_phy, "dropped: over the NIC's rate (rx_discards_phy)" },
	{ "pcie_util", "%", m_pcie, "PCIe link NIC to host" },
	{ "qpi", "GB/s", m_qpi, "interconnect traffic" },
	{ "dma_snoops", "/pkt", m_snoops, "DMA writes invalidating the other socket's copy" },
	{ "pp_alloc_fast", "/pkt", m_pp_fast, "page_pool alloc from the cache" },
	{ "pp_pages_allocated", "/pkt", m_pp_slow, "pages page_pool took from the allocator" },
	{ "pp_recycle_cached", "/pkt", m_pp_cached, "page_pool direct recycles" },
	{ "pp_recycle_ring", "/pkt", m_pp_ring, "page_pool ring recycles" },
	{ "pp_pages_released", "/pkt", m_pp_released, "pages page_pool let go" },
	{ "pp_alloc_waive", "/pkt", m_pp_waive, "ring pages of the wrong node given back" },
};
#define NR_METRICS (sizeof(metrics) / sizeof(metrics[0]))

struct figure run_rate(const struct run_row *row, int reps)
{
	return figure_of(row, reps, m_rate);
}

const char *run_saturated(const struct run_row *row, int reps)
{
	struct figure busy = figure_of(row, reps, m_busy);
	struct figure phy = figure_of(row, reps, m_phy);
	struct figure pcie = figure_of(row, reps, m_pcie);
	struct figure rate = figure_of(row, reps, m_rate);

	if (busy.mean >= 95)
		return "cpu";
	if (pcie.mean >= 90)
		return "pcie";
	if (phy.mean > 0.01 * rate.mean)
		return "nic";
	return "none";
}

static double error_pct(double predicted, double measured)
{
	return isnan(measured) ? NAN : (predicted - measured) / measured * 100;
}

/* ---- output ---- */

/* Says which tree the kernel policy is, once, where it appears. */
static void note_policies(FILE *f, const struct run_row *rows, int nr_rows)
{
	for (int i = 0; i < nr_rows; i++) {
		if (!strcmp(rows[i].policy, "kernel")) {
			fprintf(f, "# kernel: %s\n",
				pp_policy_find("kernel")->summary);
			return;
		}
	}
}

/* A policy's name in plots: the kernel one with its tree's version. */
static const char *policy_label(const char *policy, char *buf, size_t len)
{
	const struct pp_policy *pol = pp_policy_find(policy);
	const char *v = pol ? strstr(pol->summary, "linux ") : NULL;

	if (strcmp(policy, "kernel") || !v)
		return policy;
	snprintf(buf, len, "kernel %.*s", (int)strcspn(v + 6, " "), v + 6);
	return buf;
}

static void csv_num(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, ",");
	else
		fprintf(f, ",%.6g", v);
}

void run_csv_header(FILE *f, const char *prefix)
{
	fprintf(f, "%scase,policy,metric,unit,value,ci95,measured,error_pct\n",
		prefix);
}

void run_csv_row(FILE *f, const char *prefix, const struct run_row *row,
		 int reps)
{
	for (size_t m = 0; m < NR_METRICS; m++) {
		struct figure fg = figure_of(row, reps, metrics[m].fn);
		bool is_rate = m == 0;

		fprintf(f, "%s%s,%s,%s,%s", prefix, row->c->name, row->policy,
			metrics[m].name, is_rate ? row->c->metric_unit
						 : metrics[m].unit);
		csv_num(f, fg.mean);
		csv_num(f, fg.ci95);
		csv_num(f, is_rate ? row->measured : NAN);
		csv_num(f, is_rate ? error_pct(fg.mean, row->measured) : NAN);
		fputc('\n', f);
	}
	fprintf(f, "%s%s,%s,saturated,resource,%s,,,\n", prefix, row->c->name,
		row->policy, run_saturated(row, reps));
}

static void write_csv(FILE *f, const struct run_row *rows, int nr_rows,
		      int reps)
{
	run_csv_header(f, "");
	for (int i = 0; i < nr_rows; i++)
		run_csv_row(f, "", &rows[i], reps);
}

static void json_num(FILE *f, const char *key, double v, bool last)
{
	if (isnan(v))
		fprintf(f, "\"%s\": null%s", key, last ? "" : ", ");
	else
		fprintf(f, "\"%s\": %.6g%s", key, v, last ? "" : ", ");
}

static void write_json(FILE *f, const struct run_row *rows, int nr_rows,
		       int reps, const struct run_opts *o)
{
	fprintf(f, "{\"ppsim\": \"%s\", \"scenario\": \"%s\", \"seed\": %lu, "
		"\"reps\": %d, \"rows\": [\n", PACKAGE_VERSION, o->file,
		o->rc.seed, reps);
	for (int i = 0; i < nr_rows; i++) {
		const struct run_row *row = &rows[i];

		fprintf(f, "  {\"case\": \"%s\", \"policy\": \"%s\", "
			"\"saturated\": \"%s\", \"metrics\": {\n",
			row->c->name, row->policy, run_saturated(row, reps));
		for (size_t m = 0; m < NR_METRICS; m++) {
			struct figure fg = figure_of(row, reps, metrics[m].fn);

			fprintf(f, "    \"%s\": {\"unit\": \"%s\", ",
				metrics[m].name, m == 0 ? row->c->metric_unit
						       : metrics[m].unit);
			json_num(f, "value", fg.mean, false);
			json_num(f, "ci95", fg.ci95, m != 0);
			if (m == 0) {
				json_num(f, "measured", row->measured, false);
				json_num(f, "error_pct",
					 error_pct(fg.mean, row->measured), true);
			}
			fprintf(f, "}%s\n", m + 1 < NR_METRICS ? "," : "");
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

static void write_table(FILE *f, const struct run_row *rows, int nr_rows,
			int reps, const struct run_opts *o)
{
	fprintf(f, "# ppsim %s  scenario %s  seed %lu  reps %d\n",
		PACKAGE_VERSION, o->file, o->rc.seed, reps);
	note_policies(f, rows, nr_rows);
	fprintf(f, "%-12s %-6s %7s %-4s %6s %6s %7s %7s %7s %7s %7s %7s %6s "
		"%-9s %7s %7s\n", "case", "policy", "rate", "unit", "ci95",
		"meas", "err%",
		"cpu_ns", "stall", "idle", "remote%", "local%", "cqe_r%",
		"saturated", "pp_new", "pp_rel");
	for (int i = 0; i < nr_rows; i++) {
		const struct run_row *row = &rows[i];
		struct figure rate = figure_of(row, reps, m_rate);
		char ci[16], meas[16], err[16];

		fmt_or_dash(ci, sizeof(ci), "%.2f", rate.ci95);
		fmt_or_dash(meas, sizeof(meas), "%.2f", row->measured);
		fmt_or_dash(err, sizeof(err), "%+.1f",
			    error_pct(rate.mean, row->measured));
		fprintf(f, "%-12s %-6s %7.2f %-4s %6s %6s %7s %7.1f %7.1f "
			"%7.1f %7.1f %7.1f %6.1f %-9s %7.3f %7.3f\n",
			row->c->name, row->policy, rate.mean,
			row->c->metric_unit, ci, meas, err,
			figure_of(row, reps, m_cpu).mean,
			figure_of(row, reps, m_stall).mean,
			figure_of(row, reps, m_idle).mean,
			figure_of(row, reps, m_pkt_remote).mean,
			figure_of(row, reps, m_local_pages).mean,
			figure_of(row, reps, m_cqe_remote).mean,
			run_saturated(row, reps),
			figure_of(row, reps, m_pp_slow).mean,
			figure_of(row, reps, m_pp_released).mean);
	}
	fprintf(f, "# remote%%: packet reads served by the other socket; "
		"local%%: packets in a page on NAPI's node;\n# pp_new/pp_rel: "
		"pages page_pool took from / gave back to the allocator per "
		"packet.  All columns: ppsim(1).\n");
}

static void write_transient(FILE *f, const struct run_row *rows, int nr_rows,
			    int reps)
{
	fprintf(f, "case,policy,rep,t_s,rate_mpps,local_pages\n");
	for (int i = 0; i < nr_rows; i++)
		for (int r = 0; r < reps; r++) {
			const struct sim_result *res = &rows[i].res[r];

			for (int s = 0; s < res->nr_samples; s++) {
				fprintf(f, "%s,%s,%d,%.6f,%.6g", rows[i].c->name,
					rows[i].policy, r + 1,
					res->samples[s].t,
					res->samples[s].pps / 1e6);
				csv_num(f, res->samples[s].local);
				fputc('\n', f);
			}
		}
}

/* The flat tables the plot scripts read. */
static void write_plot_data(FILE *rates, FILE *split,
			    const struct run_row *rows, int nr_rows, int reps)
{
	fprintf(rates, "label,case,policy,measured_mpps,predicted_mpps,ci95\n");
	fprintf(split, "label,case,policy,cpu_ns,stall_ns,idle_ns\n");
	for (int i = 0; i < nr_rows; i++) {
		const struct run_row *row = &rows[i];
		struct figure rate = figure_of(row, reps, m_rate);
		char buf[64];
		const char *label = policy_label(row->policy, buf, sizeof(buf));

		fprintf(rates, "%s %s,%s,%s", row->c->name, label,
			row->c->name, row->policy);
		csv_num(rates, row->measured);
		csv_num(rates, rate.mean);
		csv_num(rates, isnan(rate.ci95) ? 0 : rate.ci95);
		fputc('\n', rates);
		fprintf(split, "%s %s,%s,%s,%.6g,%.6g,%.6g\n", row->c->name,
			label, row->c->name, row->policy,
			figure_of(row, reps, m_cpu).mean,
			figure_of(row, reps, m_stall).mean,
			figure_of(row, reps, m_idle).mean);
	}
}

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

/* The rate axis: Mpps for XDP cases, Gbps of payload for TCP ones. */
static const char *rate_label(const struct run_row *rows, int nr_rows)
{
	bool mpps = false, gbps = false;

	for (int i = 0; i < nr_rows; i++) {
		mpps |= !strcmp(rows[i].c->metric_unit, "Mpps");
		gbps |= !strcmp(rows[i].c->metric_unit, "Gbps");
	}
	return mpps && gbps ? "rate (Mpps for XDP, Gbps of payload for TCP)"
	       : gbps ? "TCP payload rate (Gbps)" : "packet rate (Mpps)";
}

/* Every case that compares policies across time gets its transient. */
static int draw_plots(const char *dir, const struct run_row *rows,
		      int nr_rows, const struct run_opts *o)
{
	char vars[2048], out[4096], title[512];
	int rc = 0;

	if (!plot_available())
		return 0;
	snprintf(title, sizeof(title), "%s (ppsim %s, seed %lu, %d reps)",
		 o->file, PACKAGE_VERSION, o->rc.seed, o->rc.reps);
	snprintf(vars, sizeof(vars), "data='%s/rates.csv'; title='%s'; "
		 "ylabel='%s'", dir, title, rate_label(rows, nr_rows));
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
				 j > i ? " " : "", rows[j].policy);
		snprintf(vars, sizeof(vars), "data='%s/transient.csv'; "
			 "case='%s'; policies='%s'; migrate=%g; title='%s: %s'",
			 dir, c->name, policies, c->migrate_at, c->name, title);
		snprintf(out, sizeof(out), "%s/transient-%s", dir, c->name);
		rc |= plot_draw("transient.gp", vars, out);
	}
	return rc ? -1 : 0;
}

static int write_out(const char *dir, const struct run_row *rows,
		     int nr_rows, const struct run_opts *o)
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
	write_csv(f, rows, nr_rows, o->rc.reps);
	rc |= close_out(f, p1);
	if (!(f = open_out(dir, "transient.csv", p1, sizeof(p1))))
		return -1;
	write_transient(f, rows, nr_rows, o->rc.reps);
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
	write_plot_data(f, g, rows, nr_rows, o->rc.reps);
	rc |= close_out(f, p1);
	rc |= close_out(g, p2);
	if (rc)
		return -1;
	return draw_plots(dir, rows, nr_rows, o);
}

/* ---- the command ---- */

double run_measured(const struct scn_case *c, const char *policy)
{
	for (int i = 0; i < c->nr_measured; i++)
		if (!strcmp(c->measured[i].policy, policy))
			return c->measured[i].value;
	return NAN;
}

static int select_rows(struct scenario *scn, const struct run_opts *o,
		       struct run_row *rows)
{
	int n = 0;

	for (int i = 0; i < scn->nr_cases; i++) {
		struct scn_case *c = &scn->cases[i];

		if (o->only_case && strcmp(o->only_case, c->name))
			continue;
		for (int p = 0; p < c->nr_policies; p++) {
			if (o->only_policy && strcmp(o->only_policy,
						     c->policies[p]))
				continue;
			rows[n] = (struct run_row){ c, c->policies[p], NULL,
				run_measured(c, c->policies[p]) };
			n++;
		}
	}
	return n;
}

int run_main(int argc, char **argv)
{
	struct run_row rows[SCN_MAX_CASES * SCN_MAX_POLICIES];
	struct scenario *scn;
	struct run_opts o;
	int nr_rows, status = 0;

	gsl_set_error_handler_off();
	if (parse_opts(argc, argv, &o))
		return 2;
	scn = scn_load(o.file, o.set, o.nr_set);
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
	if (run_rows(rows, nr_rows, &o.rc, o.file))
		status = 1;
	if (!status) {
		if (o.format == FMT_CSV)
			write_csv(stdout, rows, nr_rows, o.rc.reps);
		else if (o.format == FMT_JSON)
			write_json(stdout, rows, nr_rows, o.rc.reps, &o);
		else
			write_table(stdout, rows, nr_rows, o.rc.reps, &o);
		if (o.out && write_out(o.out, rows, nr_rows, &o))
			status = 1;
	}
	run_rows_free(rows, nr_rows);
	scn_free(scn);
	return status;
}
