/*
 * The mlx5 legacy RQ (nic_mlx5_legacy), one mlx5 channel's receive side
 * as the driver and the NIC use it (drivers/net/ethernet/mellanox/mlx5/
 * core/en_rx.c, en_main.c, en/xdp.c of linux 5.5; 6.1 where noted): a
 * legacy cyclic RQ of one page per descriptor, its completion queue, the
 * XDP_TX send queue with its completion queue, the optional mlx5e page
 * cache, and the XDP SQ of the other port's channel.
 *
 * The NIC side (device.c) DMA-writes packets into posted pages, writes
 * completions and sends XDP_TX frames once it has read them, and counts
 * what each of these puts on PCIe in each direction (model/nic/pcie.h),
 * with what the CPU side sends it (MMIO doorbells).  The CPU side
 * (napi.c) is one NAPI poll: XDP SQ completions, up to budget rx
 * completions through the workload, then the refill (rq.c, with the
 * channel's opening and its pages in and out of the driver).
 *
 * Placement (5.5 en_main.c: mlx5e_alloc_cq, mlx5e_build_rq_param,
 * mlx5e_build_sq_param_common): CQs, doorbell records, the pool and driver
 * state on the channel's node (cpu_to_node(c->cpu) when the channel was
 * opened); rx and tx descriptors on the NIC's node.  None moves with the
 * irq.
 */
#ifndef PPSIM_NIC_MLX5_H
#define PPSIM_NIC_MLX5_H

#include "../nic_model.h"

#define WQE_PER_LINE		4	/* 16-byte rx descriptors */
#define CACHE_PER_LINE		4	/* 16-byte struct mlx5e_dma_info */
#define TX_CQ_POLL_BUDGET	128	/* MLX5E_TX_CQ_POLL_BUDGET */
#define MINI_CQE_ARRAY	8	/* MLX5_MINI_CQE_ARRAY_SIZE: 8-byte mini
				 * CQEs in a 64-byte CQ slot */
#define XDP_FRAME_BULK	16	/* XDP_BULK_QUEUE_SIZE: frames a
				 * struct xdp_frame_bulk holds */

/*
 * What the NIC and the driver move over PCIe, in bytes (6.1 sources under
 * drivers/net/ethernet/mellanox/mlx5/core and include/linux/mlx5).
 */
#define RX_WQE_SIZE	16	/* a legacy RQ descriptor with XDP: one
				 * struct mlx5_wqe_data_seg */
#define TX_WQE_SIZE	64	/* an XDP_TX descriptor: control, Ethernet
				 * and data segments, one MLX5_SEND_WQE_BB */
#define CQE_SIZE	64	/* en/params.c: 128 only on 128-byte-line
				 * machines (cqe_128_always) */
#define EQE_SIZE	64	/* struct mlx5_eqe */
#define DB_RECORD_SIZE	4	/* a doorbell record: a __be32 counter */
#define SQ_DOORBELL	8	/* mlx5e_notify_hw(): mlx5_write64() of the
				 * control segment to the UAR */
#define CQ_DOORBELL	8	/* mlx5_cq_arm(): mlx5_write64() */
#define EQ_DOORBELL	4	/* eq_update_ci(): __raw_writel() */
#define CQS_ARMED	5	/* napi_complete_done() then arms the SQ's,
				 * RQ's, ICOSQ's, async ICOSQ's and XDP SQ's
				 * CQs (en_txrx.c mlx5e_napi_poll, one
				 * traffic class) */

/* The scenario's settings only mlx5 has (its keys, rq.c), in struct
 * rxq_config's nic_config. */
struct mlx5_config {
	int wqe_fetch;		/* rx descriptors the NIC reads at once, a
				 * power of 2 */
	int cqe_session;	/* completions a session holds at most */
	int cqe_compress;	/* rx_cqe_compress (0 or 1): sessions of mini
				 * CQEs */
	int page_cache;		/* mlx5e page cache entries, 0 = off */
	double cache_op;	/* cycles, a page cache put or get */
	double cqe_decompress;	/* cycles, a compressed completion's work
				 * beyond a plain one's */
	int rq_type;		/* enum mlx5_rq_type */
	int mtu;		/* the netdev's MTU (sw_mtu), bytes */
};

/* driver.rq_type: the legacy cyclic RQ (a page a descriptor) or the
 * striding RQ (multi-packet WQEs, mpwqe.c). */
enum mlx5_rq_type { MLX5_RQ_LEGACY, MLX5_RQ_STRIDING };

_Static_assert(sizeof(struct mlx5_config) <= RXQ_NIC_CONFIG_MAX,
	       "mlx5's settings fit rxq_config's nic_config");

static inline const struct mlx5_config *mlx5_cfg(
	const struct rxq_config *cfg)
{
	return (const void *)cfg->nic_config;
}

/* Lines of a channel's own objects, all in one region each. */
struct mlx5_lines {
	u32 cqe;		/* rx CQ: one 64-byte entry a line */
	u32 rx_wqe;		/* rx WQ: four descriptors a line */
	u32 tx_wqe;		/* XDP SQ: one 64-byte WQE a line */
	u32 tx_cqe;		/* XDP SQ's CQ */
	u32 state;		/* pool, rq, cq and doorbell records */
	u32 cache;		/* the page cache's entries */
	u32 sq_db;		/* the XDP SQ's doorbell record: ST_SQ_DB of
				 * state, or of port_state */
	u32 port_state;		/* the other port's channel
				 * (redirect_port), on its CPU's node:
				 * state without a pool */
};

/* Which state line an operation writes (ST_DEFER: the softnet_data
 * defer list's, rxq_softnet_line). */
enum { ST_CQ_DB, ST_RQ_DB, ST_SQ_DB, ST_POOL, ST_DEFER, ST_NR = 20 };

/* The channel's state beyond the queue's (rxq_priv). */
struct mlx5_rq {
	struct mlx5_lines l;
	int nic_node;
	int nic_socket;		/* of nic_node: where a doorbell goes */
	double qpi_lat;		/* s, for a remote MMIO doorbell */
	struct pcie *pcie;	/* the NIC's read tags, every queue's */
	const struct pcie_config *link;	/* its configuration */
	/* what the NIC's transactions cost on the link, worked out once */
	struct pcie_wr_cost pkt_wr, cqe_wr, eqe_wr;
	struct pcie_rd_cost wqe_rd, db_rd, tx_wqe_rd, pkt_rd;
	struct pcie_traffic host;	/* MMIO the NIC has not seen yet */
	double read_down;	/* bytes of the reads' completions, this look */
	bool cq_armed;		/* a completion raises an event (irq) */
	int tx_cq_node;		/* where the XDP SQ's CQ lives */
	bool *tx_armed;		/* and whether it raises an event:
				 * cq_armed, or the other port's */
	bool port_armed;

	struct page **rx_page;	/* page posted at each rx descriptor */
	/* and its packet's first line and its struct page line (pkt_line,
	 * spage_line), worked out once when it is posted: the NIC, NAPI and
	 * the host prefetch of both ask for them */
	u32 *rx_line, *rx_spage;
	u32 rx_mask;
	u32 cq_prod;		/* descriptors filled and completed by the NIC */
	u32 cq_cons;		/* completions handled by NAPI */
	u32 refilled;		/* descriptors given a page */
	u32 posted;		/* descriptors the NIC may use */
	u32 db_known;		/* posted, when the NIC last read the RQ's
				 * doorbell record */
	u16 *cq_session;	/* CQE compression: at a session's first
				 * slot, its completions (1: a plain CQE) */
	u32 sess_first;		/* the session NAPI is in: its first slot */
	u32 sess_left;		/* and its completions not handled yet */

	struct page **tx_page;	/* page of each XDP_TX descriptor */
	bool *tx_frame;		/* a redirected frame: mapped for the send,
				 * returned to page_pool when sent */
	u32 tx_mask;
	u32 tx_prod;		/* descriptors written */
	u32 tx_db;		/* descriptors the doorbell handed over */
	u32 tx_issued;		/* descriptors whose reads the NIC issued */
	u32 tx_sent;		/* descriptors the NIC sent */
	double *tx_ready;	/* s, when each descriptor's frame is read */
	bool *tx_last;		/* the last of its doorbell's batch */
	u32 tx_cons;		/* descriptors completed by NAPI */
	u32 *tx_cqe_end;	/* per tx CQE: descriptors it completes up to */
	u32 tx_cqe_prod, tx_cqe_cons;

	/* mem_work_spent() when the driver asked for the packet's
	 * xdp_frame line for writing (6.1 en_rx.c, the linear paths:
	 * net_prefetchw(va), before the XDP program runs) */
	double frame_asked;

	struct page **pc;	/* mlx5e page cache: a FIFO */
	u32 pc_mask, pc_head, pc_tail;

	/* The striding RQ's own state (mpwqe.c), NULL for the legacy RQ.
	 * With it, refilled, posted and db_known count WQEs; cq_prod and
	 * cq_cons count completions, one a packet, and rx_page, rx_line
	 * and rx_spage hold, at each CQ slot, the page and line of the
	 * stride its packet is in (the CQE's wqe_id and stride index). */
	struct mpwqe *mp;
};

static inline struct mlx5_rq *rq_of(const struct rxq *q)
{
	return rxq_priv(q);
}

/*
 * No part of the model: the host fetches the memory model's state of the
 * packet line (and struct page) of the descriptor PREFETCH_AHEAD after i,
 * which the NIC or NAPI is about to touch.  A packet's line state sits in
 * a host cache line of its own, seldom still cached: waiting for it was a
 * tenth of the simulation's time (bench/README.md).
 */
#define PREFETCH_AHEAD	4

static inline void prefetch_ahead(const struct rxq *q, u32 i, bool spage)
{
	const struct mlx5_rq *rq = rq_of(q);
	u32 j = (i + PREFETCH_AHEAD) & rq->rx_mask;
	const struct page *page = rq->rx_page[j];

	if (!page)
		return;
	__builtin_prefetch(page);	/* the page itself: its node, its pool */
	mem_prefetch(q->m, rq->rx_line[j]);
	if (spage)
		mem_prefetch(q->m, rq->rx_spage[j]);
}

/* rq.c: the channel, its pages in and out of the driver */
/* Whether a doorbell rung on the CPU running now (numa_mem_id()) crosses
 * the interconnect: the NIC hangs off another socket.  Sockets, not
 * nodes: another node of the NIC's socket (SNC, NPS) reaches its root
 * port on the die. */
bool mlx5_doorbell_far(const struct rxq *q);
void mlx5_release_page(struct rxq *q, struct page *page);
void mlx5_refill(struct rxq *q);
struct page *mlx5_page_alloc(struct rxq *q);

/*
 * mpwqe.c: the striding RQ, behind the legacy RQ's functions (each asks
 * rq->mp first).  mpwqe_geometry says how mlx5 lays a WQE out for an MTU
 * with or without XDP; the rest is the RQ's life: opened, filled and
 * refilled a WQE of pages at a time, packets written stride by stride
 * and handled by NAPI, a WQE released once its strides are consumed.
 */
struct mpwqe_geometry {
	int stride;		/* bytes of a stride, a power of 2 */
	int strides;		/* strides in a WQE */
	int pages;		/* pages in a WQE */
	int pkt_strides;	/* strides a packet of pkt_size takes */
	int pkts;		/* packets of pkt_size a WQE holds */
	int ring_pkts;		/* packets a WQE counts for in the ring's
				 * size: its linear strides, even where the
				 * strides are not (en/params.c
				 * mlx5e_mpwqe_log_pkts_per_wqe) */
	int headroom;		/* bytes before a packet in its stride:
				 * none when non-linear
				 * (mlx5e_get_rq_headroom) */
	bool linear;		/* a packet with its headroom and
				 * skb_shared_info fits a stride */
	int max_linear_mtu;	/* the largest MTU that is linear */
};

void mpwqe_geometry(int mtu, bool xdp, int pkt_size,
		    struct mpwqe_geometry *g);
int mpwqe_open(struct rxq *q);
void mpwqe_free(struct rxq *q);
int mpwqe_fill(struct rxq *q, const char **err);
void mpwqe_refill(struct rxq *q);
u32 mpwqe_held(const struct rxq *q);
int mpwqe_nic_free(const struct rxq *q);
int mpwqe_nic_rx(struct rxq *q, int n, double now, struct pcie_traffic *t);
/* NAPI, around the workload's rx of a packet in page from line on (a
 * non-linear one's fragments set for the workload: rxq_rx_frags); and the
 * driver's release of page: true when the page stays with the RQ (a
 * packet's verdict, or a fragment user that is not the last). */
void mpwqe_rx_start(struct rxq *q, struct page *page, u32 line);
void mpwqe_rx_end(struct rxq *q);
bool mpwqe_keeps(struct rxq *q, struct page *page);
/* The RQ's rules (mlx5_check) and each era's (mlx5_check_era): the
 * frame within the MTU and XDP past a page, for either RQ type; the
 * rest the striding RQ's. */
void mpwqe_check(const struct rxq_config *cfg, key_say *say, void *ctx);
void mpwqe_check_era(const struct rxq_config *cfg,
		     const struct kernel_era *era, key_say *say, void *ctx);

/* napi.c: the CPU side */
void mlx5_poll(struct rxq *q, struct rxq_poll *out);
void mlx5_xmit(struct rxq *q, struct page *page, bool frame);
void mlx5_redirect_frame(struct rxq *q, struct page *page);
void mlx5_port_poll(struct rxq *q, struct rxq_poll *out);

/* device.c: the NIC side; and what the striding RQ's NIC side shares
 * with it: the MMIO it sees, its DMA reads, the end of a look, a session
 * of completions from CQ slot first on, the RQ's doorbell record */
double mlx5_nic_sees_host(struct mlx5_rq *rq, struct pcie_traffic *t);
double mlx5_nic_read(struct mlx5_rq *rq, struct pcie_traffic *t, int node,
		     const struct pcie_rd_cost *r, double now, double after,
		     double mem_lat);
void mlx5_nic_done(struct mlx5_rq *rq, double now,
		   const struct pcie_traffic *t, double down_before);
void mlx5_write_session(struct rxq *q, u32 first, int len,
			struct pcie_traffic *t);
void mlx5_read_db_record(struct rxq *q, double now, struct pcie_traffic *t);
int mlx5_nic_free(const struct rxq *q);
int mlx5_nic_rx(struct rxq *q, int n, double now, struct pcie_traffic *t);
int mlx5_nic_tx(struct rxq *q, double now, struct pcie_traffic *t);
double mlx5_nic_next(const struct rxq *q);
bool mlx5_nic_blocked(const struct rxq *q);
int mlx5_pending(const struct rxq *q);

#endif
