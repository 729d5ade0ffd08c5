/*
 * Scenario files: INI (read with libinih), fio's model.  A scenario names a
 * hardware profile (include = FILE), sets hardware keys in their sections
 * ([cpu], [cache], [mem], [qpi], [pcie], [nic], [driver], [cost], [model]),
 * case defaults in [global], and one section per case: [case NAME].
 *
 * One table (scn_keys) describes every key once: section, name, type,
 * default, range, unit and help.  It drives parsing, defaults, range
 * checks, --set, 'ppsim keys' and the man page ppsim-scenario(5).
 *
 * Every case is a complete struct scn_case: defaults, then every hardware
 * and [global] setting in file order, then the case's own section, then
 * the command line's --set overrides.
 */
#ifndef PPSIM_SCENARIO_H
#define PPSIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../model/page_pool/pp.h"

#define SCN_NAME_MAX	64
#define SCN_MAX_POLICIES 4
#define SCN_MAX_CASES	64
#define SCN_TEXT_MAX	200
#define TCP_HEADERS	52	/* IPv4 20 + TCP 20 + timestamps 12 bytes */

enum scn_workload { SCN_XDP_DROP, SCN_XDP_TX, SCN_TCP };

struct scn_measured {
	const struct pp_policy *policy;
	double value;		/* in the case's metric unit */
};

struct scn_case {
	char name[SCN_NAME_MAX];
	const char *file;	/* where the case section is */
	int line;

	/* [cpu] */
	int sockets;
	int cores;		/* per socket */
	double freq;		/* Hz */
	/* [cache] */
	double l2_size;		/* bytes, per core */
	int l2_ways;
	double l2_lat;		/* s */
	double llc_size;	/* bytes, per socket */
	int llc_ways;
	int ddio_ways;		/* LLC ways the NIC may allocate into */
	double llc_lat;		/* s, local LLC hit */
	double rllc_lat;	/* s, line modified in the other socket's cache */
	/* [mem] */
	double dram_lat;	/* s, local DRAM */
	double rdram_lat;	/* s, remote DRAM */
	double mem_bw;		/* bytes/s per node */
	int pages;		/* order-0 pages per node in the model */
	/* [qpi] */
	double qpi_bw;		/* bytes/s per direction */
	double qpi_lat;		/* s, one crossing (snoop, posted write) */
	/* [pcie] */
	double pcie_bw;		/* bytes/s per direction */
	double pcie_lat;	/* s */
	/* [nic] */
	int nic_node;
	double line_rate;	/* bits/s */
	double nic_max_pps;	/* packets/s the NIC can deliver to one queue */
	double nic_buffer;	/* bytes of packets the NIC holds for DMA */
	int rx_ring;		/* descriptors (pages) */
	int tx_ring;
	double irq_delay;	/* s from completion to NAPI running */
	/* [driver] */
	int budget;		/* NAPI budget */
	int page_cache;		/* mlx5e_page_cache entries, 0 = off */
	/* [cost] cycles */
	double c_rx_pkt;	/* driver rx work per packet */
	double c_xdp;		/* XDP program run */
	double c_tx_pkt;	/* XDP_TX xmit + completion per packet */
	double c_poll;		/* per NAPI poll */
	double c_pp_fast;	/* page_pool alloc from / put into the cache */
	double c_pp_ring;	/* page_pool ptr_ring produce or consume */
	double c_page_alloc;	/* page allocator, per page */
	double c_page_free;	/* page allocator free, per page */
	double c_dma_map;	/* dma map + unmap, per page */
	double c_doorbell;	/* MMIO doorbell write */
	double c_stack;		/* skb + GRO + IP + TCP receive per packet */
	double c_recv;		/* recvmsg per packet, skb free included */
	double c_copy;		/* copy to the reader per 64-byte line */
	/* [model] */
	double hide_stream;	/* s of a ring read prefetchers hide */
	double hide_random;	/* s of a packet or page read prefetch hides */
	double store_exposure;	/* fraction of a store miss the core waits */
	double jitter;		/* coefficient of variation of a poll's time */
	double copy_mlp;	/* misses a streaming copy keeps in flight */
	/* [global] and [case] */
	enum scn_workload workload;
	int pkt_size;		/* bytes on the wire, without FCS */
	double rate;		/* offered packets/s, 0 = line rate */
	int queues;		/* rx queues, RSS spreads packets over them */
	int irq_cpus;		/* CPUs the queues' irqs spread over, 0 = one each */
	int irq_cpu;		/* CPU running queue 0's NAPI at the start */
	double migrate_at;	/* s; negative = no migration */
	int migrate_cpu;	/* CPU NAPI moves to */
	double warmup;		/* s after the migration before measuring */
	double duration;	/* s measured */
	double sample;		/* s between transient samples */
	const struct pp_policy *policies[SCN_MAX_POLICIES];
	int nr_policies;
	struct scn_measured measured[SCN_MAX_POLICIES];
	int nr_measured;
	char metric_unit[8];	/* "Mpps" */
	/* [calibrate]: the same for every case */
	char calib_free[SCN_TEXT_MAX];	/* KEY:MIN:MAX ... */
	char calib_cases[SCN_TEXT_MAX];	/* the cases fitted on */
	double tolerance;	/* % error validate accepts */
};

/* A [sweep NAME] section: what ppsim sweep varies. */
struct scn_sweep {
	char name[SCN_NAME_MAX];
	char vary[SCN_TEXT_MAX];	/* KEY=V1,V2,... KEY=... */
	char cases[SCN_TEXT_MAX];	/* the cases to run, empty = all */
	const char *file;
	int line;
};

#define SCN_MAX_SWEEPS	16

struct scenario {
	char *path;
	struct scn_case cases[SCN_MAX_CASES];
	int nr_cases;
	struct scn_sweep sweeps[SCN_MAX_SWEEPS];
	int nr_sweeps;
	char **files;		/* every file read (names kept for messages) */
	int nr_files;
};

/* One --set KEY=VALUE from the command line. */
struct scn_override {
	const char *key;	/* "nic.rx_ring" or a case key: "duration" */
	const char *value;
};

/*
 * Reads a scenario and everything it includes; its policies are looked up
 * in policies (NULL-terminated: those the program has).  Every error is
 * reported as "FILE:LINE: message" on stderr; returns NULL if there was
 * any.
 */
struct scenario *scn_load(const char *path, const struct scn_override *set,
			  int nr_set, const struct pp_policy *const *policies);
void scn_free(struct scenario *scn);

/* Sets one numeric key ("cost.rx_pkt", "duration") of a case as a file
 * would; returns 0, or -1 with why. */
int scn_case_set(struct scn_case *c, const char *key, const char *value,
		 char *why, size_t len);

/* How many CPUs a case's queues run on. */
static inline int scn_queue_cpus(const struct scn_case *c)
{
	return c->irq_cpus && c->irq_cpus < c->queues ? c->irq_cpus
						       : c->queues;
}

/* Reads a numeric key back in its base unit; returns 0 or -1. */
int scn_case_get(const struct scn_case *c, const char *key, double *v);

/* Prints every key: section, name, default, range, unit, help. */
void scn_print_keys(FILE *f, bool man);

#endif
