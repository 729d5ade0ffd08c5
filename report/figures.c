/* The figures of a row over its replications: each metric's mean and
 * 95 % confidence interval (GSL), and what limits the rate. */
#include <math.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include "report.h"

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
METRIC(pcie_up, r->pcie_up * 100)
METRIC(pcie_down, r->pcie_down * 100)
METRIC(qpi, r->qpi_gbs)
METRIC(snoops, r->nic_snoops)
METRIC(ddio_hit, r->ddio_hit * 100)
METRIC(cq_lines, r->cq_lines)
METRIC(pp_fast, r->pp_fast)
METRIC(pp_slow, r->pp_slow_pages)
METRIC(pp_cached, r->pp_cached)
METRIC(pp_ring, r->pp_ring)
METRIC(pp_released, r->pp_released)
METRIC(pp_waive, r->pp_waive)
METRIC(pp_ring_full, r->pp_ring_full)
METRIC(pp_slow_calls, r->pp_slow_calls)
METRIC(skb_page_free, r->skb_page_free)
METRIC(spage_remote, r->spage_remote * 100)
METRIC(cons_rate, r->cons_pps / 1e6)
METRIC(cons_drop, r->cons_drop_pps / 1e6)
METRIC(cons_cpu, r->cons_cpu_ns)
METRIC(cons_stall, r->cons_stall_ns)
METRIC(cons_busy, r->cons_busy * 100)
METRIC(cons_far, r->cons_far * 100)
METRIC(skb_defer, r->skb_defer)
METRIC(q_min, r->q_min_pps / 1e6)
METRIC(q_max, r->q_max_pps / 1e6)

const struct rep_metric rep_metrics[REP_NR_METRICS] = {
	[REP_RATE] = { "rate", "", m_rate },
	[REP_PACKETS] = { "packets", "Mpps", m_pps },
	[REP_CPU] = { "cpu_time", "ns/pkt", m_cpu },
	[REP_STALL] = { "stall_time", "ns/pkt", m_stall },
	[REP_IDLE] = { "idle_time", "ns/pkt", m_idle },
	[REP_BUSY] = { "cpu_busy", "%", m_busy },
	[REP_PKT_REMOTE] = { "pkt_remote", "%", m_pkt_remote },
	[REP_PKT_RCACHE] = { "pkt_remote_cache", "%", m_pkt_rcache },
	[REP_PKT_RDRAM] = { "pkt_remote_dram", "%", m_pkt_rdram },
	[REP_PKT_LLC] = { "pkt_llc", "%", m_pkt_llc },
	[REP_PKT_DRAM] = { "pkt_dram", "%", m_pkt_dram },
	[REP_CQE_REMOTE] = { "cqe_remote", "%", m_cqe_remote },
	[REP_LOCAL_PAGES] = { "local_pages", "%", m_local_pages },
	[REP_DROP_NO_DESC] = { "drop_no_desc", "Mpps", m_oob },
	[REP_DROP_NIC] = { "drop_nic", "Mpps", m_phy },
	[REP_PCIE_UP] = { "pcie_up", "%", m_pcie_up },
	[REP_PCIE_DOWN] = { "pcie_down", "%", m_pcie_down },
	[REP_QPI] = { "qpi", "GB/s", m_qpi },
	[REP_SNOOPS] = { "dma_snoops", "/pkt", m_snoops },
	[REP_DDIO_HIT] = { "ddio_write_hit", "%", m_ddio_hit },
	[REP_CQ_LINES] = { "cq_lines", "/pkt", m_cq_lines },
	[REP_PP_FAST] = { "pp_alloc_fast", "/pkt", m_pp_fast },
	[REP_PP_NEW] = { "pp_pages_allocated", "/pkt", m_pp_slow },
	[REP_PP_CACHED] = { "pp_recycle_cached", "/pkt", m_pp_cached },
	[REP_PP_RING] = { "pp_recycle_ring", "/pkt", m_pp_ring },
	[REP_PP_RELEASED] = { "pp_pages_released", "/pkt", m_pp_released },
	[REP_PP_WAIVE] = { "pp_alloc_waive", "/pkt", m_pp_waive },
	[REP_PP_RING_FULL] = { "pp_recycle_ring_full", "/pkt", m_pp_ring_full },
	[REP_PP_SLOW_CALLS] = { "pp_alloc_slow", "/pkt", m_pp_slow_calls },
	[REP_SKB_PAGE_FREE] = { "skb_page_free", "/pkt", m_skb_page_free },
	[REP_SPAGE_REMOTE] = { "spage_remote", "%", m_spage_remote },
	[REP_CONS_RATE] = { "consumer_rate", "Mpps", m_cons_rate },
	[REP_CONS_DROP] = { "consumer_drop", "Mpps", m_cons_drop },
	[REP_CONS_CPU] = { "consumer_cpu_time", "ns/pkt", m_cons_cpu },
	[REP_CONS_STALL] = { "consumer_stall_time", "ns/pkt", m_cons_stall },
	[REP_CONS_BUSY] = { "consumer_busy", "%", m_cons_busy },
	[REP_CONS_FAR] = { "consumer_far_pages", "%", m_cons_far },
	[REP_SKB_DEFER] = { "skb_defer_free", "/pkt", m_skb_defer },
	[REP_Q_MIN] = { "queue_min", "Mpps", m_q_min },
	[REP_Q_MAX] = { "queue_max", "Mpps", m_q_max },
};

struct rep_figure rep_figure(const struct rep_row *row, int reps,
			     enum rep_metric_id id)
{
	double v[REP_MAX_REPS] = { 0 };
	struct rep_figure f;

	if (row->figures)
		return row->figures[id];
	for (int i = 0; i < reps; i++)
		v[i] = rep_metrics[id].fn(&row->res[i]);
	f.mean = gsl_stats_mean(v, 1, (size_t)reps);
	f.ci95 = rep_ci95(v, reps);
	return f;
}

double rep_ci95(const double *v, int n)
{
	return n > 1 ? gsl_cdf_tdist_Pinv(0.975, n - 1) *
		       gsl_stats_sd(v, 1, (size_t)n) / sqrt(n)
		     : NAN;
}

double rep_fit_se(double chisq, int nr_rows, int nr_params, double covar,
		  double dv)
{
	int dof = nr_rows - nr_params;

	return dof > 0 ? dv * sqrt(chisq / dof * covar) : NAN;
}

const char *rep_saturated(const struct rep_row *row, int reps)
{
	struct rep_figure busy, phy, up, down, rate;

	if (row->saturated)
		return row->saturated;
	busy = rep_figure(row, reps, REP_BUSY);
	phy = rep_figure(row, reps, REP_DROP_NIC);
	up = rep_figure(row, reps, REP_PCIE_UP);
	down = rep_figure(row, reps, REP_PCIE_DOWN);
	rate = rep_figure(row, reps, REP_RATE);

	/* tcp's figure is what a reader on app_cpu copied: when it is busy
	 * and its socket drops, it limits the rate, whatever NAPI's core */
	if (sim_app_reader(&row->c->sim) &&
	    rep_figure(row, reps, REP_CONS_BUSY).mean >= 95 &&
	    rep_figure(row, reps, REP_CONS_DROP).mean > 0)
		return "consumer";
	if (busy.mean >= 95)
		return "cpu";
	if (up.mean >= 90 || down.mean >= 90)	/* either direction */
		return "pcie";
	if (phy.mean > 0.01 * rate.mean)
		return "nic";
	return "none";
}

double rep_error_pct(double predicted, double measured)
{
	return isnan(measured) ? NAN : (predicted - measured) / measured * 100;
}

double rep_measured(const struct scn_case *c,
		    const struct pp_policy *policy)
{
	for (int i = 0; i < c->nr_measured; i++)
		if (c->measured[i].policy == policy)
			return c->measured[i].value;
	return NAN;
}
