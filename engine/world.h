/*
 * What one simulation's actors share: the world of a run, private to the
 * engine.  sim.c builds it and runs SimGrid on it; platform.c writes the
 * machine as a SimGrid platform; nic.c is the NIC (arrivals, its packet
 * buffer, the DMA engine); napi.c the NAPI actor; monitor.c samples the
 * counters and sums up the measurement window.
 */
#ifndef PPSIM_ENGINE_WORLD_H
#define PPSIM_ENGINE_WORLD_H

#include <stdbool.h>
#include <gsl/gsl_rng.h>
#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include "sim.h"
#include "../model/nic/rxq.h"

#define ETH_OVERHEAD	24	/* preamble, SFD, FCS, inter-frame gap: bytes */

/* Counters the monitor snapshots. */
struct snap {
	double t;
	struct rxq_stats q;
	struct mem_stats m;
	struct pp_stats pp;
	double cpu_s, stall_s, idle_s;
	double pcie_bytes;
	u64 phy_drops;
};

#define SIM_MAX_QUEUES	64

/* One rx queue, the NIC's side of it, and the NAPI that polls it. */
struct napi {
	struct rxq *q;
	struct kctx ctx;	/* its CPU, node, softirq */
	double next;		/* when its next packet arrives */
	sg_sem_t irq;
	bool irq_armed;		/* NAPI waits for the irq */
	bool irq_by_engine;	/* and the DMA engine will look */
	double credit;		/* the NIC's packets for this queue */
	double credit_t;	/* when the credit was last topped up */
	double cpu_s, stall_s, idle_s;
};

/* Everything one simulation shares between its actors. */
struct world {
	const struct sim_case *c;
	const struct pp_policy *pol;
	struct mm *mm;
	struct mem *mem;
	struct rxq_pages pages;
	struct napi napi[SIM_MAX_QUEUES];
	int nq;
	bool cpu_shared;	/* two NAPIs may run on one CPU at once */
	bool lockstep;		/* PPSIM_LOCKSTEP: no NAPI runs ahead */
	gsl_rng *rng;
	double queue_pps;	/* offered to each queue */
	double dma_burst;	/* bytes a DMA burst waits for */
	int first;		/* the queue the NIC serves first */
	double all_at;		/* when it last looked at every queue */
	sg_sem_t dma_wake;	/* a burst is ready */
	bool dma_waiting;
	bool dma_due;		/* and the engine should be woken */
	double monitor_at;	/* when the monitor looks next */
	sg_mailbox_t dma_mb[MEM_MAX_SOCKETS];	/* DMA into each node */
	double dma_pending[MEM_MAX_SOCKETS];	/* bytes not sent yet */
	double dma_inflight;	/* bytes of the burst under way */
	double dma_since;	/* when it began */
	double t_start, t_end;
	double pcie_bytes;
	u64 arrived, taken, buffer_drops;
	double mu_uncounted;	/* arrivals not drawn yet, on average */
	struct snap a, b;
	struct sim_result *res;
};

static inline struct world *self_world(void)
{
	return sg_actor_self_get_data();
}

/* platform.c: the machine as a SimGrid platform file, written to a new
 * temporary file whose name goes to path; returns 0 or -1 (errno). */
int platform_write(const struct sim_case *c, char *path, size_t len);
sg_host_t platform_cpu_host(int cpu);

/* nic.c */
void nic_dma_sink(int argc, char **argv);
void nic_dma_actor(int argc, char **argv);
u64 nic_poisson(gsl_rng *rng, double mu);
void nic_raise_irq(struct napi *n);
void nic_queue(struct world *w, struct napi *n, double now, bool force);
void nic_dma_kick(struct world *w);
void nic_catch_up(struct world *w, struct napi *self, bool posting,
		  double now);

/* napi.c */
void napi_actor(int argc, char **argv);

/* monitor.c */
void monitor_actor(int argc, char **argv);
void monitor_summarize(struct world *w);

#endif
