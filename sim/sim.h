/*
 * sim/: one simulation of a case (struct sim_case), one page_pool policy,
 * one seed, on SimGrid.
 *
 * SimGrid schedules six kinds of actors, each with data of its own:
 *   - a NAPI a rx queue, on its CPU (napi.c, struct napi): a poll takes its
 *     cycles plus its memory stalls, a SimGrid execution on a CPU two
 *     NAPIs share, else a sleep of that length, and a lone NAPI runs ahead
 *     of SimGrid's clock while nobody else can look;
 *   - the NIC's DMA engines, one a direction (nic.c, struct nic_dma): PCIe
 *     transfers as SimGrid communications, one a burst;
 *   - a sink at each node's memory and at the root complex that receives
 *     what goes up, and
 *   - a source at each that sends what comes down (nic.c, struct nic_end);
 *   - the monitor (monitor.c, struct monitor): samples the rate and takes
 *     the measurement window;
 *   - with xdp_cpumap, a tcp reader on app_cpu or the other port's NAPI on
 *     redirect_cpu, a consumer on another CPU that takes the NAPI's frames
 *     (consumer.c, struct consumer).
 * Packets arrive without a clock of their own: each actor brings the NIC
 * (nic.c, struct nic) up to its time when it looks (DMA into posted pages,
 * completions, drops).  The page_pool and the memory model run inside
 * each batch, for every packet.  sim.c builds the run and owns the
 * model's objects; the files call one another in one direction only:
 * platform.c and nic.c, then consumer.c, napi.c, monitor.c, sim.c.
 *
 * A SimGrid engine lives once per process, so every run is a child
 * process: sim_run() forks, the child simulates and writes its result
 * into a pipe.  Runs are independent and can go in parallel.
 */
#ifndef PPSIM_SIM_H
#define PPSIM_SIM_H

#include <stdint.h>
#include "../model/kernel/mm.h"
#include "../model/cpu/family.h"
#include "../model/mem/mem.h"
#include "../model/nic/rxq.h"
#include "../model/workload/workload.h"

/* The machine beyond what the model holds: SimGrid's platform, the NIC's
 * arrivals and buffer (the CPU clock is the memory model's). */
struct sim_machine {
	double mem_bw;		/* bytes/s per node */
	double qpi_bw;		/* bytes/s per direction */
	double line_rate;	/* bits/s */
	double nic_max_pps;	/* packets/s the NIC can deliver to one queue */
	double nic_buffer;	/* bytes of packets the NIC holds for DMA */
	double irq_delay;	/* s from completion to NAPI running */
	double jitter;		/* coefficient of variation of a poll's time */
	int ports;		/* the adapter's ports, on one PCIe link */
	int max_nodes;		/* NUMA nodes a socket the part allows:
				 * checked, not simulated */
};

/* The load and where it runs: the [global] and [case] keys. */
struct sim_load {
	double rate;		/* offered packets/s, 0 = line rate */
	int queues;		/* rx queues, RSS spreads packets over them */
	int irq_cpus;		/* CPUs the queues' irqs spread over, 0 = one each */
	int irq_cpu;		/* CPU running queue 0's NAPI at the start */
	double migrate_at;	/* s; negative = no migration */
	int migrate_cpu;	/* CPU NAPI moves to */
	int redirect_cpu;	/* xdp_cpumap: the CPU whose kthread takes
				 * the frames (the consumer); xdp_redirect out
				 * of the other port: its NAPI's CPU */
	int app_cpu;		/* tcp: the reader's CPU; -1 or the irq's
				 * CPU: the NAPI's, which it follows */
	double warmup;		/* s after the migration before measuring */
	double duration;	/* s measured */
	double sample;		/* s between transient samples */
	double precision;	/* %: the window the run's own, ended once
				 * the rates are known to this (monitor.c);
				 * 0: warmup and duration */
};

/*
 * Everything one simulation needs to know: the structs the model consumes
 * (memory system, page allocator, channel, PCIe), and the simulation's
 * own.  The scenario's keys point into it (input/scenario.c), one key a
 * field.
 */
struct sim_case {
	struct mem_config mem;
	struct cpu_config cpu;	/* the core families, the mitigation */
	struct mm_params mm;	/* nr_nodes: mem's, set when run */
	struct rxq_config rxq;
	struct pcie_config pcie;
	struct sim_machine hw;
	struct sim_load load;
};

/* How many CPUs a case's queues run on. */
static inline int sim_queue_cpus(const struct sim_case *c)
{
	return c->load.irq_cpus && c->load.irq_cpus < c->load.queues ?
	       c->load.irq_cpus : c->load.queues;
}

/* A tcp case whose reader runs on a CPU of its own (app_cpu). */
static inline bool sim_app_reader(const struct sim_case *c)
{
	return c->rxq.workload->far == WORKLOAD_FAR_READER &&
	       c->load.app_cpu >= 0 &&
	       c->load.app_cpu != c->load.irq_cpu;
}

/* An xdp_redirect case out of the other port whose NAPI polls on another
 * CPU (redirect_cpu) than the queue's. */
static inline bool sim_port_remote(const struct sim_case *c)
{
	return c->rxq.workload->far == WORKLOAD_FAR_PORT &&
	       c->rxq.redirect_port == RXQ_PORT_OTHER &&
	       c->load.redirect_cpu >= 0 &&
	       c->load.redirect_cpu != c->load.irq_cpu;
}

/* The case has a consumer actor: a CPU that takes the NAPI's frames (the
 * cpumap kthread), skbs (the reader on app_cpu) or send completions (the
 * other port's NAPI). */
static inline bool sim_has_consumer(const struct sim_case *c)
{
	return c->rxq.workload->far == WORKLOAD_FAR_KTHREAD ||
	       sim_app_reader(c) ||
	       sim_port_remote(c);
}

/* The unit of a case's figure: Mpps the XDP program handled, or Gbps of
 * payload the TCP reader copied. */
static inline const char *sim_rate_unit(const struct sim_case *c)
{
	return c->rxq.workload->rate_unit;
}

#define SIM_MAX_SAMPLES	2048	/* a run keeps 2 fewer: the help of sample says 2046 */

struct sim_sample {
	double t;		/* s, end of the interval */
	double pps;		/* packets handled per second */
	double local;		/* fraction of them whose page was CPU-local */
};

/* Figures of the measurement window (after warmup). */
struct sim_result {
	int status;		/* 0 ok; 1 the model broke an invariant */
	char why[256];
	double pps;		/* packets handled per second */
	double gbps;		/* payload the reader copied (TCP) */
	double cpu_ns;		/* per packet: the CPU working */
	double stall_ns;	/* per packet: the CPU waiting on memory */
	double idle_ns;		/* per packet: NAPI idle, waiting for packets */
	/* per packet, the NAPI CPUs' (--explain): stall_ns by what the core
	 * waited for and where it was served, and their accesses (reads and
	 * writes, a private hit included) */
	double stall_at[MEM_NR_KINDS][MEM_NR_PLACES];
	double access_at[MEM_NR_KINDS][MEM_NR_PLACES];
	double busy;		/* fraction of time NAPI's CPU is busy */
	double pkt_place[MEM_NR_PLACES];	/* where packet reads were served */
	double cqe_remote;	/* fraction of CQE reads from the other socket */
	double local_pages;	/* packets whose page was on NAPI's node */
	double oob_pps;		/* dropped: no rx descriptor posted */
	double phy_pps;		/* dropped: beyond the NIC's packet rate */
	double pcie_up;		/* used of PCIe device to host: writes, read
				 * requests, and DLLPs answering the other way */
	double pcie_down;	/* used of PCIe host to device: completions,
				 * MMIO, DLLPs */
	double qpi_gbs;		/* interconnect traffic, GB/s */
	double nic_snoops;	/* DMA writes that invalidated a remote copy, per packet */
	double ddio_hit;	/* fraction of DDIO writes that found their line
				 * in the LLC (ddio-bench's write hit) */
	double cq_lines;	/* completion lines the NIC wrote, per packet */
	/* page_pool counters per packet */
	double pp_fast, pp_slow_pages, pp_cached, pp_ring, pp_released,
	       pp_waive;
	/* where pages go back, per packet: puts that found the ring full,
	 * slow-path calls (one page each before 6.1, a bulk since), pages
	 * an skb's free gave the page allocator */
	double pp_ring_full, pp_slow_calls, skb_page_free;
	/* the consumer (xdp_cpumap's kthread, tcp's reader on app_cpu):
	 * frames or skbs per second it took and that its full ring or socket
	 * dropped; its ns per frame working and stalled; how busy;
	 * the fraction of its frames off its node */
	double cons_pps, cons_drop_pps, cons_cpu_ns, cons_stall_ns, cons_busy,
	       cons_far;
	double spage_remote;	/* struct page accesses, every CPU's, served
				 * by the other socket */
	double skb_defer;	/* skbs per packet a reader on another CPU
				 * handed back to the NAPI's, freed there */
	/* the slowest and the fastest rx queue, packets per second: queues
	 * that share the LLC need not share its fate (V1's four read
	 * queues, two of them at 21.6 Mpps and two at 12.5) */
	double q_min_pps, q_max_pps;
	/* for benchmarks, never printed by run: they vary from run to run */
	double wall_s;		/* wall-clock seconds the simulation took */
	double cpu_s;		/* CPU seconds it took: on a shared machine,
				 * without the time it waited for a CPU */
	double sim_packets;	/* packets handled over the whole run */
	int nr_samples;
	struct sim_sample samples[SIM_MAX_SAMPLES];
};

/* Runs one simulation in a child process.  Returns 0, or -1 (the child
 * died; *out says why). */
int sim_run(const struct sim_case *c, const struct pp_policy *pol,
	    uint64_t seed,
	    struct sim_result *out);

/* Starts a run without waiting: returns the child's pid and the pipe to
 * read its result from with sim_collect(). */
int sim_start(const struct sim_case *c, const struct pp_policy *pol,
	      uint64_t seed,
	      int *fd);
int sim_collect(int pid, int fd, struct sim_result *out);

#endif
