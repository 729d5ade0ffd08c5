/*
 * The monitor actor, private to sim/: it samples the rate as the run goes
 * (the transient samples) and snapshots every counter at the start and
 * the end of the measurement window; monitor_summarize() then makes the
 * run's figures of the two (monitor.c).
 *
 * sim.c fills in a struct monitor before the actor starts (its data) and
 * keeps it for the run; it owns nothing it points to, and writes only the
 * result, the snapshots and next_at.
 */
#ifndef PPSIM_SIM_MONITOR_H
#define PPSIM_SIM_MONITOR_H

#include "nic.h"
#include "sim.h"

struct napi;
struct consumer;

/* The counters at one time. */
struct snap {
	double t;		/* s */
	struct rxq_stats q;	/* every queue's, summed */
	struct mem_stats m;
	struct pp_stats pp;	/* every pool's, summed */
	double cpu_s, stall_s, idle_s;	/* the NAPIs' */
	double stall_at[MEM_NR_KINDS][MEM_NR_PLACES];	/* NAPIs' stall_s by
							 * what and where */
	double cons_cpu_s, cons_stall_s;	/* the consumer's */
	double pcie_bytes[PCIE_NR_DIRS];	/* onto the link, each way */
	u64 phy_drops;		/* packets refused at the NIC's door */
	u64 q_rx[SIM_MAX_QUEUES];	/* rx_packets of each queue */
};

struct monitor {
	/* what it reads, none of it its own */
	const struct sim_case *c;
	const struct pp_policy *pol;
	struct mem *mem;
	struct nic *nic;	/* brought up to each snapshot */
	const struct napi *napi;	/* nic->nq of them */
	const struct consumer *cons;	/* or NULL */
	/* the measurement window */
	double t_start, t_end;	/* s */
	double next_at;		/* public: s, when it looks next */
	struct snap start, end;	/* the counters at t_start and t_end */
	struct sim_result *res;	/* the samples; the figures */
};

/* The actor; its data a struct monitor. */
void monitor_actor(int argc, char **argv);

/* The figures of the window, into m->res, after the run. */
void monitor_summarize(struct monitor *m);

#endif
