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

#define SIM_MAX_QUEUES	64

/* Counters the monitor snapshots. */
struct snap {
	double t;
	struct rxq_stats q;
	struct mem_stats m;
	struct pp_stats pp;
	double cpu_s, stall_s, idle_s;
	double stall_at[MEM_NR_KINDS][MEM_NR_PLACES];	/* NAPIs' stall_s by
							 * what and where */
	double cons_cpu_s, cons_stall_s;	/* the consumer's */
	double pcie_bytes[PCIE_NR_DIRS];
	u64 phy_drops;
	u64 q_rx[SIM_MAX_QUEUES];	/* rx_packets of each queue */
};

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
	double stall_at[MEM_NR_KINDS][MEM_NR_PLACES];	/* of stall_s */
};

/*
 * A CPU that takes what a NAPI hands it through a bounded queue (the
 * cpumap entry's ptr_ring, a socket's receive queue) and works on it in
 * its own context, on its own CPU: the cpumap kthread, a TCP reader on
 * app_cpu.  It sleeps while the queue is empty; the NAPI wakes it at the
 * end of a poll that queued frames (__cpu_map_flush: wake_up_process; the
 * socket's sk_data_ready).
 */
struct consumer {
	struct rxq *q;		/* whose frames it takes: queue 0's */
	struct kctx ctx;	/* its CPU and node; bottom halves off */
	sg_sem_t wake;
	bool sleeping;
	double cpu_s, stall_s;
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
	struct consumer consumer;
	struct consumer *cons;	/* &consumer, or NULL: no consumer actor */
	bool cpu_shared;	/* two NAPIs may run on one CPU at once */
	bool lockstep;		/* PPSIM_LOCKSTEP: no NAPI runs ahead */
	gsl_rng *rng;
	double queue_pps;	/* offered to each queue */
	double dma_burst;	/* bytes a DMA burst waits for */
	int first;		/* the queue the NIC serves first */
	double all_at;		/* when it last looked at every queue */
	double monitor_at;	/* when the monitor looks next */
	/* PCIe, by direction and by where the bytes end (a node's memory, or
	 * PCIE_LINK: the root complex) */
	struct pcie *pcie;	/* the NIC's read tags */
	double link_bw;		/* bytes/s each direction carries */
	sg_mailbox_t up_mb[PCIE_LINK + 1];	/* writes, read requests */
	sg_mailbox_t down_mb[PCIE_LINK + 1];	/* completions, MMIO */
	sg_sem_t down_go[PCIE_LINK + 1];	/* a down burst to send */
	double down_burst[PCIE_LINK + 1];	/* its bytes */
	double dma_pending[PCIE_NR_DIRS][PCIE_LINK + 1]; /* bytes not sent */
	/* the DMA engines, one a direction: each sends its bursts on its
	 * own link, neither waits for the other */
	sg_sem_t dma_wake[PCIE_NR_DIRS];	/* a burst is ready */
	bool dma_waiting[PCIE_NR_DIRS];
	bool dma_due[PCIE_NR_DIRS];	/* and the engine should be woken */
	double dma_inflight[PCIE_NR_DIRS];	/* of the burst under way */
	double dma_since[PCIE_NR_DIRS];	/* when it began */
	double t_start, t_end;
	double pcie_bytes[PCIE_NR_DIRS];
	u64 arrived, taken, buffer_drops;
	double mu_uncounted;	/* arrivals not drawn yet, on average */
	struct snap a, b;
	struct sim_result *res;
};

static inline struct world *self_world(void)
{
	return sg_actor_self_get_data();
}

/* Both DMA engines wait: neither will look at the NIC before a kick. */
static inline bool nic_dma_idle(const struct world *w)
{
	return w->dma_waiting[PCIE_UP] && w->dma_waiting[PCIE_DOWN];
}

/* An engine has a burst ready and should be kicked. */
static inline bool nic_dma_due(const struct world *w)
{
	return w->dma_due[PCIE_UP] || w->dma_due[PCIE_DOWN];
}

/* platform.c: the machine as a SimGrid platform file, written to a file
 * in memory whose name goes to path; returns its descriptor (close it once
 * SimGrid has read it) or -1 (errno). */
int platform_write(const struct sim_case *c, char *path, size_t len);
sg_host_t platform_cpu_host(int cpu);

/* nic.c */
int nic_slot(const struct world *w, int i);
void nic_dma_sink(int argc, char **argv);
void nic_dma_source(int argc, char **argv);
void nic_dma_actor(int argc, char **argv);
u64 nic_poisson(gsl_rng *rng, double mu);
void nic_raise_irq(struct napi *n);
void nic_queue(struct world *w, struct napi *n, double now, bool force);
void nic_dma_kick(struct world *w);
void nic_catch_up(struct world *w, struct napi *self, bool posting,
		  double now);

/* napi.c */
void napi_actor(int argc, char **argv);

/* consumer.c */
void consumer_actor(int argc, char **argv);
void consumer_kick(struct world *w);

/* monitor.c */
void monitor_actor(int argc, char **argv);
void monitor_summarize(struct world *w);

#endif
