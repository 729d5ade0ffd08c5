/*
 * A NIC model: how one driver's channel and its device work (the rings,
 * the completions, what crosses PCIe), one const table of functions
 * (GSL's strategies), one folder each under model/nic/ (mlx5/: the mlx5
 * legacy RQ), registered in nic_models[] (nic_model.c).  This header is
 * the NIC models' alone: sim/ and the workloads see the queue through
 * rxq.h, whose functions call the NIC through its table, and a NIC's
 * folder uses no workload file (tests/layers.sh).
 *
 * The calling protocol (rxq.c).  rxq_open() allocates the queue with
 * priv_size bytes of the NIC's own state after it (rxq_priv), sets the
 * queue's members below, and calls open, which lays out the channel's
 * objects and opens its socket where the socket's lines go among them
 * (rxq_open_socket); then the workload's open lays out the workload's
 * objects, the page_pool is created, and fill gives the rings their
 * pages, in the channel's context with the opening's work (not counted).
 * rxq_napi_poll() sets up a poll's accounting (the context, q->cpu, the
 * page allocator's hook, page_pool's counters, cost.poll) and calls
 * poll, which does the driver's work and hands the packets to the
 * workload (rxq_poll_start, rxq_rx, rxq_rx_done); the workload's
 * poll_end follows it.  The other members are rxq.h's functions of the
 * same names (rxq_nic_rx, rxq_xmit, rxq_port_poll, ...), passed through;
 * held is the NIC's part of rxq_pages_handed().  Every member is
 * required.
 *
 * Its scenario keys (fio's engine options): keys, those only it reads
 * (NIC_KEY), each listed in its section after the core key its after
 * names; their values are its own struct in rxq_config's nic_config (at
 * most RXQ_NIC_CONFIG_MAX bytes), which input/ fills from the defaults
 * and the scenario.  input/ also runs check, its rules among a case's
 * keys, check_era against each era of the case, and asks cache_pages
 * how many pages the driver may hold beyond
 * its rings, for the rule that the rings fit a node.  This is all input/
 * reads of a NIC model: it names none of them, nor their keys
 * (tests/layers.sh).
 */
#ifndef PPSIM_NIC_MODEL_H
#define PPSIM_NIC_MODEL_H

#include <stddef.h>
#include "../key.h"
#include "rxq.h"

/* One of a NIC model's own keys: its value is field of the model's
 * struct type (in rxq_config's nic_config); after, the core key of
 * section it follows (NULL: the key before it in the table). */
#define NIC_KEY(type, field, section, name, after, store, kind, def, min, \
		max, unit, help) \
	{ section, name, store, kind, false, offsetof(type, field), def, \
	  min, max, unit, help, NULL, NULL, NULL, after }
/* One whose value is one of words (NULL-ended), kept as an int. */
#define NIC_WORD_KEY(type, field, section, name, after, def, words, help) \
	{ section, name, KEY_WORD, KEY_PLAIN, false, offsetof(type, field), \
	  def, 0, 0, "", help, words, NULL, NULL, after }

struct nic_model {
	const char *name;	/* "mlx5-legacy" */
	size_t priv_size;	/* bytes of its state after struct rxq */

	/* 0, or -1 out of memory (mem_error() says why when it knows);
	 * pcie: the NIC's read tags, every queue's. */
	int (*open)(struct rxq *q, struct pcie *pcie);
	int (*fill)(struct rxq *q, const char **err);
	void (*free)(struct rxq *q);

	int (*nic_free)(const struct rxq *q);
	int (*nic_rx)(struct rxq *q, int n, double now,
		      struct pcie_traffic *t);
	int (*nic_tx)(struct rxq *q, double now, struct pcie_traffic *t);
	double (*nic_next)(const struct rxq *q);
	bool (*nic_blocked)(const struct rxq *q);
	int (*pending)(const struct rxq *q);

	void (*poll)(struct rxq *q, struct rxq_poll *out);
	void (*post)(struct rxq *q);
	u32 (*held)(const struct rxq *q);

	void (*release_page)(struct rxq *q, struct page *page);
	void (*xmit)(struct rxq *q, struct page *page, bool frame);
	void (*redirect_frame)(struct rxq *q, struct page *page);

	int (*attach_port)(struct rxq *q, int node);
	void (*port_poll)(struct rxq *q, struct rxq_poll *out);
	u32 (*port_pending)(const struct rxq *q);

	const struct key *keys;	/* nr_keys of them */
	int nr_keys;
	/* Its rules among a case's keys (cfg, where its own are in
	 * nic_config): say() each one broken, in order. */
	void (*check)(const struct rxq_config *cfg, key_say *say, void *ctx);
	/* Its rules against each kernel era a case runs under (what that
	 * kernel's driver refuses), said as check's. */
	void (*check_era)(const struct rxq_config *cfg,
			  const struct kernel_era *era, key_say *say,
			  void *ctx);
	/* Pages its driver may hold beyond its rings at most (a page
	 * cache), and the key that sets how many, in *key. */
	long long (*cache_pages)(const struct rxq_config *cfg,
				 const char **key);
};

/* The NIC models (nic_models[], nic_model.c). */
extern const struct nic_model nic_mlx5_legacy;

/* What the queue holds for every NIC, which the NIC reads and counts
 * into; the NIC's own state follows (rxq_priv). */
struct rxq {
	const struct nic_model *nic;	/* cfg.nic */
	struct rxq_config cfg;
	struct mem *m;
	const struct pp_policy *pol;	/* the era's page_pool */
	const struct kernel_era *era;	/* and its driver and stack */
	struct pp_pool *pool;
	/* the channel's NAPI, which page_pool is told of (6.12 mlx5e_alloc_rq:
	 * pp_params.napi = rq->cq.napi): polled by its CPU during a poll */
	struct napi_struct napi;
	const struct workload_ops *wl;	/* cfg.workload */
	void *wl_state;		/* the workload's */
	/* the stack's socket (workload tcp's); opened for every workload,
	 * as the lines of what is laid out after it depend on it */
	struct tcp *sk;
	u32 sk_limit;		/* skbs it holds at most */
	u32 softnet;		/* the line of the NAPI CPU's softnet_data
				 * defer list, among the NIC's state lines */
	const struct rxq_pages *pg;	/* the machine's page lines */
	int pkt_lines;		/* lines of a packet this queue touches */
	int node;		/* where the channel was opened */
	bool port_remote;	/* the other port's NAPI on another CPU */
	struct mem_work *cpu;	/* the work being accounted */
	struct rxq_stats st;
	max_align_t priv[];	/* the NIC's state, nic->priv_size bytes */
};

/* The NIC's own state (as netdev_priv() gives a driver's). */
static inline void *rxq_priv(const struct rxq *q)
{
	return (void *)q->priv;
}

/* The services the queue gives a NIC (rxq.c). */

/* Whether the case's workload runs an XDP program (the driver lays its
 * buffers out for one). */
bool rxq_xdp(const struct rxq_config *cfg);
/* Opens the channel's socket on its node, its lines next: 0, or -1. */
int rxq_open_socket(struct rxq *q);
/* A poll's packets to the workload: its poll_start, before anything
 * else the poll touches of it; each packet, its first line at line, after
 * the driver's rx work (the XDP program, when the workload has one, then
 * the workload's rx); its rx_done, once the rx completions are handled. */
void rxq_poll_start(struct rxq *q);
void rxq_rx(struct rxq *q, struct page *page, u32 line);
void rxq_rx_done(struct rxq *q, struct rxq_poll *out);

#define XDP_HEADROOM	256	/* XDP_PACKET_HEADROOM: data starts here */

/* The smallest power of 2 not below v. */
static inline int pow2_ceil(int v)
{
	int p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* The page's index on its node (pfns are numbered node by node). */
static inline u32 node_index(const struct rxq *q, const struct page *page)
{
	return page->pfn - (u32)page->nid * q->pg->pages_per_node;
}

/*
 * A packet's k-th line, where it is in its page: the data start after
 * the headroom, the same offset in every page, so that the cache sees the
 * packets of a ring at one page offset (cache.c, mem_cache_set_of).
 * XDP's headroom for every workload: without a program, mlx5 keeps
 * NET_SKB_PAD (64 bytes, en_main.c mlx5e_get_rq_headroom) instead, a
 * different offset but the same number of sets (pkt_size is at most 3520
 * bytes: it fits).
 */
static inline u32 pkt_line(const struct rxq *q, const struct page *page,
			   int k)
{
	return q->pg->pkt[page->nid] + node_index(q, page) * MEM_PAGE_LINES +
	       XDP_HEADROOM / MEM_LINE + (u32)k;
}

static inline u32 spage_line(const struct rxq *q, const struct page *page)
{
	return q->pg->spage[page->nid] + node_index(q, page);
}

/* The page's first line: the headroom's start, where an xdp_frame is
 * written (xdp_convert_buff_to_frame: at data_hard_start). */
static inline u32 frame_line(const struct rxq *q, const struct page *page)
{
	return q->pg->pkt[page->nid] + node_index(q, page) * MEM_PAGE_LINES;
}

#endif
