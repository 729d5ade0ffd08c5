/*
 * One channel's receive side, as the driver and the NIC use it: its rings
 * and completions, the XDP_TX send queue, the driver's page cache where it
 * has one, and the channel's page_pool, all of one NIC model (nic_model.h;
 * the mlx5 legacy RQ, model/nic/mlx5/mlx5.h, says where each lives and
 * what crosses PCIe).
 *
 * The NIC side (rxq_nic_*) DMA-writes packets into posted pages, writes
 * completions and sends XDP_TX frames once it has read them, and counts
 * what each of these puts on PCIe in each direction (model/nic/pcie.h),
 * with what the CPU side sends it (MMIO doorbells).  The CPU side
 * (rxq_napi_poll) is one NAPI poll: send completions, up to budget rx
 * completions through the workload, then the refill.  Every cache line
 * either side touches goes through the memory model, and every page
 * through the page_pool policy, so where pages live comes from the
 * page_pool code.
 *
 * This header is what sim/ and the workloads see of a queue: they reach
 * its NIC only through the functions below (tests/layers.sh).
 */
#ifndef PPSIM_RXQ_H
#define PPSIM_RXQ_H

#include <stddef.h>
#include "../mem/mem.h"
#include "../page_pool/kernel_era.h"
#include "../stack/tcp.h"
#include "pcie.h"

/* What the queue's packets meet: a workload (model/workload/workload.h). */
struct workload_ops;

/* The driver and device of the queue (nic_model.h), and the registry of
 * them, NULL-ended (nic_model.c).  The first is every case's: no
 * scenario key names another yet. */
struct nic_model;
extern const struct nic_model *const nic_models[];

/* Which port XDP_REDIRECT sends out of: the one the packet came in on, or
 * the adapter's other port, whose channel of the redirecting CPU takes
 * the frame (6.1 en/xdp.c mlx5e_xdp_xmit: sq_num = smp_processor_id()). */
enum rxq_port { RXQ_PORT_SAME, RXQ_PORT_OTHER };

/* How the driver gives a redirected frame's page back at its transmit
 * completion: xdp_return_frame() one by one, or xdp_return_frame_bulk()
 * (5.11 on), which takes the ring's producer lock once for up to 16. */
enum rxq_xdp_return { RXQ_RETURN_FRAME, RXQ_RETURN_BULK };

/* What the XDP program does with the packet's data: nothing (the
 * benchmarks' no_touch), read its headers, or also write them (swap the
 * MAC addresses, as an XDP_TX program does before sending it back). */
enum rxq_touch { RXQ_TOUCH_NONE, RXQ_TOUCH_READ, RXQ_TOUCH_WRITE };

/* The machine's page lines, shared by every queue: each page's 64 lines
 * (a packet's pkt_lines of them after the headroom), and each struct page. */
struct rxq_pages {
	u32 pkt[MAX_NUMNODES];	/* first line of each node's pages */
	u32 spage[MAX_NUMNODES];/* first struct page line of each node */
	int pkt_lines;		/* lines of a packet */
	u32 pages_per_node;
};

/* Registers the lines of every page of the machine with the memory model. */
void rxq_map_pages(struct rxq_pages *pl, struct mem *m, int nodes,
		   u32 pages_per_node, int pkt_size);

/* The driver's [cost] keys, in cycles. */
struct rxq_costs {
	double rx_pkt;		/* driver rx work per packet */
	double xdp;		/* the XDP program */
	double tx_pkt;		/* XDP_TX xmit and completion per packet */
	double poll;		/* per NAPI poll */
	double pp_fast;		/* page_pool alloc from / put into its cache */
	double pp_ring;		/* page_pool ptr_ring produce or consume */
	double page_alloc;	/* page allocator, one page */
	double page_free;	/* page allocator free, one page */
	double dma_map;		/* dma map + unmap of a page */
	double dma_sync;	/* one dma_sync_single_*() call */
	double redirect;	/* XDP_REDIRECT into a devmap, a frame */
	double pp_lock;		/* the ring's producer lock, within pp_ring */
	double doorbell;	/* MMIO doorbell write */
	double skb_build;	/* an xdp_frame made an skb, passed to the
				 * stack, dropped early there and freed (cpumap
				 * kthread, veth NAPI), beyond its memory
				 * accesses and page work */
};

/* Bytes of struct rxq_config that hold a NIC model's own settings. */
#define RXQ_NIC_CONFIG_MAX	64

/* A channel as the scenario describes it: its [nic] rings, [driver]
 * settings, [cost] and [model] keys, and the case's workload; the
 * settings only its NIC model has are that model's (nic_config). */
struct rxq_config {
	const struct nic_model *nic;	/* the driver and device */
	const struct workload_ops *workload;
	enum rxq_touch touch;	/* the XDP program's data access */
	int pkt_size;		/* bytes on the wire, without FCS */
	int rx_ring;		/* descriptors (pages), power of 2 */
	int tx_ring;		/* XDP_TX descriptors, power of 2 */
	int budget;		/* NAPI budget */
	enum rxq_xdp_return xdp_return;	/* redirected pages come back so */
	enum rxq_port redirect_port;	/* xdp_redirect sends out of it */
	int cpumap_qsize;	/* frames the cpumap entry's ptr_ring holds */
	struct rxq_costs cost;
	struct tcp_config tcp;	/* the stack's costs (workload tcp) */
	struct mem_overlap overlap;	/* how the core hides its misses */
	/* the NIC model's own keys' values, its own struct (mlx5's struct
	 * mlx5_config), as fio keeps an engine's options: inline, so that
	 * a case copied copies them */
	_Alignas(max_align_t) unsigned char nic_config[RXQ_NIC_CONFIG_MAX];
};

/* What one poll cost and did. */
struct rxq_poll {
	struct mem_work cpu;	/* its cycles and memory stalls */
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
	u64 rx_xdp_redirect;
	u64 xdp_return_bulks;	/* xdp_return_frame_bulk flushes */
	u64 tx_completed;
	u64 rx_out_of_buffer;	/* arrived with no descriptor posted */
	u64 rx_discards_phy;	/* beyond what the NIC could take */
	u64 polls;
	u64 cache_reuse, cache_full, cache_empty, cache_busy, cache_waive;
	u64 alloc_failed;	/* refill found no page */
	u64 pkts_local;		/* page on the NAPI CPU's node */
	u64 cqe_compress_blks;	/* compressed sessions */
	u64 cqe_compress_pkts;	/* completions in them */
	u64 rx_wqe_reads;	/* DMA reads of rx descriptors (WQEs) */
	u64 bytes_read;		/* TCP payload copied to the reader */
	u64 cpumap_drops;	/* frames the full cpumap ring refused */
	u64 veth_drops;		/* frames the full veth ring refused */
	u64 consumed;		/* frames the consumer made skbs of */
	u64 consumed_far;	/* of them, in a page off the consumer's node */
	u64 skb_page_free;	/* pages an skb's free gave to the page
				 * allocator (released from the pool) */
	u64 sock_drops;		/* skbs the full socket refused (a reader
				 * on another CPU: TCPRcvQDrop) */
	u64 skb_defer;		/* skbs a reader on another CPU handed
				 * back, freed on the NAPI's CPU
				 * (skb_defer_free_flush) */
};

struct rxq;

/*
 * Opens the channel on the CPU of ctx, in that context: lays out its
 * memory on the CPU's node (the channel's node from then on), creates the
 * page_pool (nid = that node) and fills the rx ring with pages whose lines
 * are in pages.  Its DMA reads take pcie's tags, which the machine's
 * queues share (the caller owns pcie, and frees it after the queues).
 * Returns NULL with *err on failure.
 */
struct rxq *rxq_open(const struct rxq_config *cfg, struct mem *m,
		     struct pcie *pcie, const struct rxq_pages *pages,
		     const struct pp_policy *pol, struct kctx *ctx,
		     const char **err);
/* Frees the queue's memory; pages go with the machine. */
void rxq_free(struct rxq *q);

/* Descriptors the NIC may fill now. */
int rxq_nic_free(const struct rxq *q);
/*
 * NIC, at time now (s): n packets arrive; returns how many found a
 * descriptor.  Adds what crosses PCIe to t: the packets, completions,
 * descriptor and doorbell-record reads, interrupts, and the MMIO the CPU
 * side wrote since the NIC last looked.
 */
int rxq_nic_rx(struct rxq *q, int n, double now, struct pcie_traffic *t);
/*
 * NIC, at time now: reads the frames XDP_TX handed over (each descriptor,
 * then its packet, a DMA read each, timed on the NIC's tags and the down
 * link) and sends those whose data is in, with a completion for each
 * doorbell's batch.  Returns frames sent; adds to t as rxq_nic_rx().
 */
int rxq_nic_tx(struct rxq *q, double now, struct pcie_traffic *t);
/* When the NIC has something to do for XDP_TX: a frame's data in, or a
 * tag free for a frame waiting to be read; INFINITY if nothing waits. */
double rxq_nic_next(const struct rxq *q);
/* Nothing for the NIC to do until the driver posts: no free descriptor
 * and no frame to send.  Packets arriving meanwhile are dropped:
 * rxq_nic_drop() counts them. */
bool rxq_nic_blocked(const struct rxq *q);
void rxq_nic_drop(struct rxq *q, u64 n);
/* Completions waiting for NAPI. */
int rxq_pending(const struct rxq *q);

/* One NAPI poll on the CPU of ctx, in that context (its node, softirq). */
void rxq_napi_poll(struct rxq *q, struct kctx *ctx, struct rxq_poll *out);
/* The doorbell after the refill: descriptors become the NIC's. */
void rxq_post(struct rxq *q);

/*
 * The far side of the queue's workload on a CPU of node: the cpumap
 * entry of an xdp_cpumap queue (its ptr_ring of cfg.cpumap_qsize frames
 * laid out on that node, as __cpu_map_entry_alloc does), the other port's
 * NAPI of xdp_redirect (rxq_attach_port), the reader of a tcp queue (its
 * socket then holds cfg.tcp.rmem bytes of skbs, TCP_TRUESIZE each; the
 * NAPI drops what finds it full).  Returns 0, or -1 out of memory.
 */
int rxq_attach(struct rxq *q, int node);
/* Frames waiting in the cpumap ring, skbs in the reader's socket, or
 * completions of the other port's send queue. */
u32 rxq_consumer_pending(const struct rxq *q);
/*
 * One pass of the consumer on the CPU of ctx, in that context, its cycles
 * and stalls into *work; returns the frames or skbs taken.  The cpumap
 * kthread (bottom halves disabled: softirq) takes up to CPUMAP_BATCH
 * frames, makes each an skb, which the stack drops and frees; the page
 * goes back as the era's xdp.c and page_pool decide, from this CPU.  The
 * reader (process context) copies one recvmsg's buffer of payloads and
 * frees each skb as its era does (model/workload/tcp.c, reader_free).
 * The other port's NAPI (softirq) polls its send completions and returns
 * their frames.
 */
int rxq_consume(struct rxq *q, struct kctx *ctx, struct mem_work *work);
/* Whether the queue's send completions are another CPU's to poll (the
 * other port's NAPI, attached): its consumer is woken as the NIC writes
 * them. */
bool rxq_port_remote(const struct rxq *q);

const struct rxq_stats *rxq_stats(const struct rxq *q);
struct pp_pool *rxq_pool(const struct rxq *q);

/* Pages the pool handed out that the queue holds (rx ring, send queue,
 * page cache, the workload's rings; the skbs its workload holds where
 * they recycle), and those in the skbs out of every pool (the others). */
u32 rxq_pages_handed(const struct rxq *q);
u32 rxq_pages_in_socket(const struct rxq *q);

/* ---- For the workloads (model/workload/): the queue's services ----
 *
 * Called from a workload's hooks, inside a poll or a consumer's pass (the
 * work they do goes into rxq_work(q)), or from its open. */

/* An skb: struct sk_buff is 232 bytes (6.1 x86-64), 4 lines, from the
 * slab of the CPU that builds it; a few dozen are live at a time. */
#define RXQ_SKB_LINES		4
#define RXQ_SKB_SLOTS		64

struct mem_work *rxq_work(struct rxq *q);	/* the work being accounted */
const struct rxq_config *rxq_cfg(const struct rxq *q);
struct rxq_stats *rxq_counters(struct rxq *q);
const struct kernel_era *rxq_era(const struct rxq *q);
struct mem *rxq_mem(const struct rxq *q);
int rxq_node(const struct rxq *q);	/* the channel's node */
/* The workload's own state, which its open sets and its close frees. */
void *rxq_workload_state(const struct rxq *q);
void rxq_set_workload_state(struct rxq *q, void *state);

/* A packet's k-th line; its struct page's; its frame's (the headroom's
 * start, where an xdp_frame is written). */
u32 rxq_pkt_line(const struct rxq *q, const struct page *page, int k);
u32 rxq_spage_line(const struct rxq *q, const struct page *page);
u32 rxq_frame_line(const struct rxq *q, const struct page *page);
/* The stack or the program reads a packet's headers from line, win
 * cycles of work after the driver's prefetch. */
void rxq_read_headers(struct rxq *q, u32 line, double win);
/* The driver releases an rx page (mlx5e_page_release, recycle). */
void rxq_release_page(struct rxq *q, struct page *page);
/* The era's page_pool put, direct (in the pool's NAPI) or not. */
void rxq_pool_put(struct rxq *q, struct page *page, bool direct);
/* A page onto the XDP SQ: the rx page (XDP_TX) or a redirected frame. */
void rxq_xmit(struct rxq *q, struct page *page, bool frame);
/* Any XDP_REDIRECT: the page unmapped and made an xdp_frame. */
void rxq_redirect_frame(struct rxq *q, struct page *page);
/* A region of RXQ_SKB_SLOTS skbs on node: its first line (mem_error()
 * says when it failed). */
u32 rxq_skb_slots(struct rxq *q, int node);
/* An xdp_frame made an skb in the next of the slots from line slots
 * (*next counts them), dropped early by the stack and freed. */
void rxq_frame_to_skb(struct rxq *q, struct page *page, u32 slots,
		      u32 *next);
/* A page a consumer CPU took: counted, near or far. */
void rxq_consumer_took(struct rxq *q, struct page *page);
/* Which CPU's list the channel's NAPI is on (-1: not scheduled). */
void rxq_napi_owner(struct rxq *q, int cpu);
/* The channel's socket, the skbs it holds at most, and the line of the
 * NAPI CPU's softnet_data defer list (its lock and head). */
struct tcp *rxq_socket(const struct rxq *q);
u32 rxq_socket_limit(const struct rxq *q);
u32 rxq_softnet_line(const struct rxq *q);
/* The socket anew and empty, its reader's buffer on node, holding limit
 * skbs: 0, or -1 out of memory. */
int rxq_socket_reopen(struct rxq *q, int node, u32 limit);
/*
 * xdp_redirect out of the other port: its channel's NAPI on a CPU of node
 * other than this queue's polls the send queue's completions and returns
 * the frames from there; its CQ and state lines laid out on that node.
 * Without it (the same CPU) that NAPI polls in this queue's softirq, after
 * it.  Returns 0, or -1 out of memory.  rxq_port_poll is one poll of it,
 * rxq_port_pending its completions waiting.
 */
int rxq_attach_port(struct rxq *q, int node);
void rxq_port_poll(struct rxq *q, struct rxq_poll *out);
u32 rxq_port_pending(const struct rxq *q);

#endif
