/*
 * One mlx5 channel's receive side, as the driver and the NIC use it
 * (shared/reference/page_pool-and-mlx5-facts.md, section 2): a legacy
 * cyclic RQ of one page per descriptor, its completion queue, the XDP_TX
 * send queue with its completion queue, the optional mlx5e page cache and
 * the channel's page_pool.
 *
 * The NIC side (rxq_nic_*) DMA-writes packets into posted pages, writes
 * completions and sends XDP_TX frames.  The CPU side (rxq_napi_poll) is
 * one NAPI poll: XDP SQ completions, up to budget rx completions through
 * the XDP program, then the refill.  Every cache line either side touches
 * goes through the memory model, and every page through the page_pool
 * policy, so where pages live comes from the page_pool code.
 *
 * Placement (reference 2.3): CQs, doorbell records, the pool and driver
 * state on the channel's node (cpu_to_node(c->cpu) when the channel was
 * opened); rx and tx descriptors on the NIC's node.  None moves with the
 * irq.
 */
#ifndef PPSIM_RXQ_H
#define PPSIM_RXQ_H

#include "../mem/mem.h"
#include "../page_pool/pp.h"

/* XDP_DROP, XDP_TX, or the stack: a TCP stream read by a process on the
 * NAPI CPU (skb holds a page reference; the reader copies the payload and
 * frees the page). */
enum rxq_workload { RXQ_XDP_DROP, RXQ_XDP_TX, RXQ_TCP };

/* The machine's page lines, shared by every queue: the first pkt_lines
 * lines of a packet in each page, and each struct page. */
struct rxq_pages {
	u32 pkt[MAX_NUMNODES];	/* first line of each node's pages */
	u32 spage[MAX_NUMNODES];/* first struct page line of each node */
	int pkt_lines;		/* lines of a packet */
	u32 pages_per_node;
};

/* Registers the lines of every page of the machine with the memory model. */
void rxq_map_pages(struct rxq_pages *pl, struct mem *m, int nodes,
		   u32 pages_per_node, int pkt_size);

struct rxq_config {
	enum rxq_workload workload;
	int pkt_size;		/* bytes */
	int rx_ring;		/* descriptors, power of 2 */
	int tx_ring;		/* descriptors, power of 2 */
	int budget;		/* NAPI budget */
	int page_cache;		/* mlx5e page cache entries, 0 = off */
	int channel_node;	/* where the channel was opened */
	int nic_node;
	const struct rxq_pages *pages;	/* the machine's page lines */
	/* cycles */
	double c_rx_pkt, c_xdp, c_tx_pkt, c_poll, c_pp_fast, c_pp_ring;
	double c_stack;		/* skb, GRO, IP, TCP receive per packet */
	double c_recv;		/* recvmsg per packet, skb free included */
	double c_copy;		/* copy to the reader, per 64-byte line */
	int payload;		/* TCP payload bytes a packet carries */
	double copy_mlp;	/* misses a streaming copy keeps in flight */
	double c_page_alloc, c_page_free, c_dma_map, c_doorbell;
	/* how much of a miss the core waits for: prefetching hides the
	 * first hide_* seconds of a read; a store stalls for a fraction */
	double hide_stream, hide_random, store_exposure;
	double qpi_lat;		/* s, for a remote MMIO doorbell */
};

/* What one poll cost and did. */
struct rxq_poll {
	double cycles;		/* work */
	double stall;		/* s waiting on memory */
	int rx;			/* rx completions handled */
	int tx_done;		/* XDP_TX completions handled */
	int local_pkts;		/* packets whose page is on the CPU's node */
	u64 bytes_read;		/* payload the reader copied out */
	bool busy;		/* budget used up, or the tx CQ not drained:
				 * NAPI polls again at once (else
				 * napi_complete_done() and the irq) */
};

/* Counters of a queue's life (the ethtool names where mlx5 has one). */
struct rxq_stats {
	u64 rx_packets;		/* delivered to XDP */
	u64 rx_xdp_drop;
	u64 rx_xdp_tx;
	u64 rx_xdp_tx_full;	/* XDP_TX with the send queue full */
	u64 tx_completed;
	u64 rx_out_of_buffer;	/* arrived with no descriptor posted */
	u64 rx_discards_phy;	/* beyond what the NIC could take */
	u64 polls;
	u64 cache_reuse, cache_full, cache_empty, cache_busy, cache_waive;
	u64 alloc_failed;	/* refill found no page */
	u64 pkts_local;		/* page on the NAPI CPU's node */
	u64 bytes_read;		/* TCP payload copied to the reader */
};

struct rxq;

/*
 * Opens the channel: lays out its memory, creates the page_pool (nid =
 * channel_node) and fills the rx ring.  Runs in the kernel context ctx,
 * which must be the channel CPU's.  Returns NULL with *err on failure.
 */
struct rxq *rxq_open(const struct rxq_config *cfg, struct mem *m,
		     const struct pp_policy *pol, struct kctx *ctx,
		     const char **err);
/* Frees the queue's memory; pages go with the machine. */
void rxq_free(struct rxq *q);

/* Descriptors the NIC may fill now. */
int rxq_nic_free(const struct rxq *q);
/* NIC: n packets arrive; returns how many found a descriptor.  Adds the
 * bytes its DMA moves across PCIe to bytes[node], by the node of the
 * memory they go to or come from. */
int rxq_nic_rx(struct rxq *q, int n, double bytes[MEM_MAX_SOCKETS]);
/* NIC: sends what XDP_TX posted; returns frames sent. */
int rxq_nic_tx(struct rxq *q, double bytes[MEM_MAX_SOCKETS]);
/* Nothing for the NIC to do until the driver posts: no free descriptor
 * and no frame to send.  Packets arriving meanwhile are dropped:
 * rxq_nic_drop() counts them. */
bool rxq_nic_blocked(const struct rxq *q);
void rxq_nic_drop(struct rxq *q, u64 n);
/* Completions waiting for NAPI. */
int rxq_pending(const struct rxq *q);

/* One NAPI poll on core (in kernel context ctx: its node and softirq). */
void rxq_napi_poll(struct rxq *q, int core, struct rxq_poll *out);
/* The doorbell after the refill: descriptors become the NIC's. */
void rxq_post(struct rxq *q);

const struct rxq_stats *rxq_stats(const struct rxq *q);
struct pp_pool *rxq_pool(const struct rxq *q);

/* Pages the queue and its pool hold: rx ring, send queue, page cache,
 * the pool's cache and ring.  Summed over every queue, this is what the
 * page allocator has out. */
u64 rxq_pages_held(const struct rxq *q);

/*
 * Conservation of one queue: its pool's inflight count (hold - release)
 * equals the pages in the pool plus those the queue holds.  Returns 0, or
 * -1 with why.
 */
int rxq_check(const struct rxq *q, char *why, size_t len);

#endif
