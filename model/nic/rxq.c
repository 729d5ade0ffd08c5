#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rxq.h"
#include "../workload/workload.h"

#define XDP_HEADROOM		256	/* XDP_PACKET_HEADROOM: data starts here */
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

/* Lines of a queue's own objects, all in one region each. */
struct rxq_lines {
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

/* Which state line an operation writes. */
enum { ST_CQ_DB, ST_RQ_DB, ST_SQ_DB, ST_POOL, ST_DEFER, ST_NR = 20 };

struct rxq {
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
	struct rxq_lines l;
	const struct rxq_pages *pg;	/* the machine's page lines */
	int pkt_lines;		/* lines of a packet this queue touches */
	int node;		/* where the channel was opened */
	int nic_node;
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
	bool port_remote;	/* the other port's NAPI on another CPU */

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

	struct page **pc;	/* mlx5e page cache: a FIFO */
	u32 pc_mask, pc_head, pc_tail;

	struct mem_work *cpu;	/* the work being accounted */
	struct rxq_stats st;
};

static int pow2_ceil(int v)
{
	int p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

void rxq_map_pages(struct rxq_pages *pl, struct mem *m, int nodes,
		   u32 pages_per_node, int pkt_size)
{
	pl->pkt_lines = (pkt_size + MEM_LINE - 1) / MEM_LINE;
	pl->pages_per_node = pages_per_node;
	for (int n = 0; n < nodes; n++) {
		pl->pkt[n] = mem_region(m, n, MEM_PKT,
					pages_per_node * MEM_PAGE_LINES);
		pl->spage[n] = mem_region(m, n, MEM_STRUCT_PAGE,
					  pages_per_node);
	}
}

/* The channel's objects, placed as rxq.h says, its socket after them
 * and the workload's last. */
static int layout(struct rxq *q)
{
	const struct rxq_config *c = &q->cfg;

	q->pkt_lines = (c->pkt_size + MEM_LINE - 1) / MEM_LINE;
	q->l.cqe = mem_region(q->m, q->node, MEM_CQE, c->rx_ring);
	q->l.rx_wqe = mem_region(q->m, q->nic_node, MEM_RX_WQE,
				 c->rx_ring / WQE_PER_LINE + 1);
	q->l.tx_wqe = mem_region(q->m, q->nic_node, MEM_TX_WQE, c->tx_ring);
	q->l.tx_cqe = mem_region(q->m, q->node, MEM_CQE, c->tx_ring);
	q->l.state = mem_region(q->m, q->node, MEM_STATE, ST_NR);
	q->l.sq_db = q->l.state + ST_SQ_DB;
	if (c->redirect_port == RXQ_PORT_OTHER) {
		/* the other port's channel of this CPU: opened here too */
		q->l.port_state = mem_region(q->m, q->node, MEM_STATE, ST_NR);
		q->l.sq_db = q->l.port_state + ST_SQ_DB;
	}
	/* one poll's packets at most wait in the socket */
	q->sk = tcp_open(&c->tcp, q->m, q->node, c->pkt_size,
			 (unsigned int)c->rx_ring);
	q->sk_limit = (u32)c->rx_ring;
	/* the page cache, on the channel's node like its other arrays */
	q->l.cache = mem_region(q->m, q->node, MEM_STATE,
				(q->pc_mask + 1) / CACHE_PER_LINE + 1);
	if (!q->sk || mem_error(q->m))
		return -1;
	/* the workload's own objects last */
	return q->wl->open ? q->wl->open(q) : 0;
}

/* The page's index on its node (pfns are numbered node by node). */
static u32 node_index(const struct rxq *q, const struct page *page)
{
	return page->pfn - (u32)page->nid * q->pg->pages_per_node;
}

/*
 * A packet's k-th line, where it is in its page: the data start after
 * the headroom, the same offset in every page, so that the cache sees the
 * packets of a ring at one page offset (mem.c, set_of).  XDP's headroom
 * for every workload: without a program, mlx5 keeps NET_SKB_PAD (64
 * bytes, en_main.c mlx5e_get_rq_headroom) instead, a different offset but
 * the same number of sets (pkt_size is at most 3520 bytes: it fits).
 */
static u32 pkt_line(const struct rxq *q, const struct page *page, int k)
{
	return q->pg->pkt[page->nid] + node_index(q, page) * MEM_PAGE_LINES +
	       XDP_HEADROOM / MEM_LINE + (u32)k;
}

static u32 spage_line(const struct rxq *q, const struct page *page)
{
	return q->pg->spage[page->nid] + node_index(q, page);
}

/* The page's first line: the headroom's start, where an xdp_frame is
 * written (xdp_convert_buff_to_frame: at data_hard_start). */
static u32 frame_line(const struct rxq *q, const struct page *page)
{
	return q->pg->pkt[page->nid] + node_index(q, page) * MEM_PAGE_LINES;
}

/* The line of skb_shared_info's head, at the end of the frame's 4 KiB
 * (build_skb_around writes it, the skb's free reads it). */
static u32 shinfo_line(const struct rxq *q, const struct page *page)
{
	return frame_line(q, page) + MEM_PAGE_LINES - 5;
}

/*
 * No part of the model: the host fetches the memory model's state of the
 * packet line (and struct page) of the descriptor PREFETCH_AHEAD after i,
 * which the NIC or NAPI is about to touch.  A packet's line state sits in
 * a host cache line of its own, seldom still cached: waiting for it was a
 * tenth of the simulation's time (bench/README.md).
 */
#define PREFETCH_AHEAD	4

static void prefetch_ahead(const struct rxq *q, u32 i, bool spage)
{
	u32 j = (i + PREFETCH_AHEAD) & q->rx_mask;
	const struct page *page = q->rx_page[j];

	if (!page)
		return;
	__builtin_prefetch(page);	/* the page itself: its node, its pool */
	mem_prefetch(q->m, q->rx_line[j]);
	if (spage)
		mem_prefetch(q->m, q->rx_spage[j]);
}

/* The page allocator at work for this CPU: its cycles, and the struct
 * page it writes, for every page it gives or takes back. */
static void page_hook(void *arg, struct page *page, bool alloc)
{
	struct rxq *q = arg;

	q->cpu->cycles += alloc ? q->cfg.cost.page_alloc
				: q->cfg.cost.page_free;
	mem_work_store(q->cpu, spage_line(q, page));
}

/* ---- pages in and out of the driver ---- */

/* The line of the page cache's entry at index i. */
static u32 cache_line(const struct rxq *q, u32 i)
{
	return q->l.cache + (i & q->pc_mask) / CACHE_PER_LINE;
}

/* mlx5e_rx_cache_put(): refuses when full or when the page is not
 * reusable here (pfmemalloc, or not on numa_mem_id()). */
static bool cache_put(struct rxq *q, struct page *page)
{
	q->cpu->cycles += q->cfg.cost.cache_op;
	if (q->pc_tail - q->pc_head == (u32)q->cfg.page_cache) {
		q->st.cache_full++;
		return false;
	}
	if (page_is_pfmemalloc(page) || page_to_nid(page) != numa_mem_id()) {
		q->st.cache_waive++;
		return false;
	}
	mem_work_store(q->cpu, cache_line(q, q->pc_tail));
	q->pc[q->pc_tail++ & q->pc_mask] = page;
	return true;
}

/* mlx5e_rx_cache_get(): the head page only, if nobody else holds it. */
static struct page *cache_get(struct rxq *q)
{
	struct page *page;

	q->cpu->cycles += q->cfg.cost.cache_op;
	if (q->pc_head == q->pc_tail) {
		q->st.cache_empty++;
		return NULL;
	}
	mem_work_read_ring(q->cpu, cache_line(q, q->pc_head));
	page = q->pc[q->pc_head & q->pc_mask];
	mem_work_read_random(q->cpu, spage_line(q, page));
	if (page_ref_count(page) != 1) {
		q->st.cache_busy++;
		return NULL;
	}
	q->pc_head++;
	q->st.cache_reuse++;
	/* the page keeps its mapping; the device gets it back synced
	 * (6.1 en_rx.c mlx5e_rx_cache_get: dma_sync_single_for_device) */
	q->cpu->cycles += q->cfg.cost.dma_sync;
	return page;
}

/* mlx5e_page_release(rq, di, recycle = true) */
void rxq_release_page(struct rxq *q, struct page *page)
{
	mem_work_read_random(q->cpu, spage_line(q, page));
	if (q->cfg.page_cache && cache_put(q, page))
		return;
	q->cpu->cycles += q->cfg.cost.dma_map / 2;	/* unmap */
	q->pol->put(q->pool, page, true);
}

/* mlx5e_page_alloc(): the page cache first, then page_pool + dma map */
static struct page *alloc_page(struct rxq *q)
{
	struct page *page = NULL;

	if (q->cfg.page_cache)
		page = cache_get(q);
	if (page)
		return page;
	page = q->pol->alloc(q->pool);
	if (page)
		q->cpu->cycles += q->cfg.cost.dma_map / 2;	/* map */
	return page;
}

static void refill(struct rxq *q)
{
	while (q->refilled != q->cq_cons + q->rx_mask + 1) {
		u32 i = q->refilled & q->rx_mask;
		struct page *page = alloc_page(q);

		if (!page) {
			q->st.alloc_failed++;
			break;
		}
		q->rx_page[i] = page;
		q->rx_line[i] = pkt_line(q, page, 0);
		q->rx_spage[i] = spage_line(q, page);
		mem_work_store(q->cpu, q->l.rx_wqe + i / WQE_PER_LINE);
		q->refilled++;
	}
	mem_work_store(q->cpu, q->l.state + ST_RQ_DB);
}

/* ---- open and close ---- */

struct rxq *rxq_open(const struct rxq_config *cfg, struct mem *m,
		     struct pcie *pcie, const struct rxq_pages *pages,
		     const struct pp_policy *pol, struct kctx *ctx,
		     const char **err)
{
	struct rxq *q = calloc(1, sizeof(*q));
	struct pp_params pp = { ctx->node, (unsigned int)cfg->rx_ring,
				q ? &q->napi : NULL };
	int pc = cfg->page_cache ? pow2_ceil(cfg->page_cache) : 1;
	struct mem_work opening;	/* what opening costs: not counted */
	struct kctx *prev;

	if (!q) {
		*err = "out of memory";
		return NULL;
	}
	q->cfg = *cfg;
	q->wl = cfg->workload;
	q->pg = pages;
	q->pol = pol;
	q->era = kernel_era_of(pol);
	q->m = m;
	q->node = ctx->node;
	q->nic_node = mem_config(m)->nic_node;
	q->qpi_lat = mem_config(m)->qpi_lat;
	q->pcie = pcie;
	q->link = pcie_config(pcie);
	q->cqe_wr = pcie_wr_cost_of(q->link, CQE_SIZE);
	q->eqe_wr = pcie_wr_cost_of(q->link, EQE_SIZE);
	q->wqe_rd = pcie_rd_cost_of(q->link, cfg->wqe_fetch * RX_WQE_SIZE);
	q->db_rd = pcie_rd_cost_of(q->link, DB_RECORD_SIZE);
	q->tx_wqe_rd = pcie_rd_cost_of(q->link, TX_WQE_SIZE);
	q->pkt_rd = pcie_rd_cost_of(q->link, cfg->pkt_size);
	q->cq_armed = true;	/* mlx5e_activate_channel arms the CQs */
	q->port_armed = true;
	q->tx_cq_node = ctx->node;
	q->tx_armed = cfg->redirect_port == RXQ_PORT_OTHER ? &q->port_armed
							     : &q->cq_armed;
	q->napi.list_owner = -1;
	q->rx_mask = (u32)cfg->rx_ring - 1;
	q->tx_mask = (u32)cfg->tx_ring - 1;
	q->pc_mask = (u32)pc - 1;
	q->rx_page = calloc(cfg->rx_ring, sizeof(*q->rx_page));
	q->rx_line = calloc(cfg->rx_ring, sizeof(*q->rx_line));
	q->rx_spage = calloc(cfg->rx_ring, sizeof(*q->rx_spage));
	q->tx_page = calloc(cfg->tx_ring, sizeof(*q->tx_page));
	q->tx_cqe_end = calloc(cfg->tx_ring, sizeof(*q->tx_cqe_end));
	q->tx_ready = calloc(cfg->tx_ring, sizeof(*q->tx_ready));
	q->tx_last = calloc(cfg->tx_ring, sizeof(*q->tx_last));
	q->tx_frame = calloc(cfg->tx_ring, sizeof(*q->tx_frame));
	q->pc = calloc(pc, sizeof(*q->pc));
	q->cq_session = calloc(cfg->rx_ring, sizeof(*q->cq_session));
	if (!q->rx_page || !q->rx_line || !q->rx_spage || !q->tx_page || !q->tx_cqe_end || !q->tx_ready ||
	    !q->tx_last || !q->tx_frame || !q->pc || !q->cq_session ||
	    layout(q)) {
		*err = mem_error(m) ? mem_error(m) : "out of memory";
		rxq_free(q);
		return NULL;
	}
	/* rx end padding: the NIC pads a packet's write to whole cache
	 * lines (6.1 en/params.c rq_end_pad_mode: MLX5_WQ_END_PAD_MODE_ALIGN
	 * unless LRO with relaxed ordering) */
	q->pkt_wr = pcie_wr_cost_of(q->link, q->pkt_lines * MEM_LINE);
	prev = kctx_enter(ctx);
	if (pol->create(&pp, &q->pool)) {
		kctx_leave(prev);
		rxq_free(q);
		*err = "page_pool_create failed";
		return NULL;
	}
	mem_work_init(&opening, m, &q->cfg.overlap, ctx->cpu);
	q->cpu = &opening;
	refill(q);
	q->cpu = NULL;
	kctx_leave(prev);
	if (q->refilled != q->rx_mask + 1) {
		*err = "not enough pages to fill the rx ring";
		rxq_free(q);
		return NULL;
	}
	rxq_post(q);
	return q;
}

void rxq_free(struct rxq *q)
{
	if (!q)
		return;
	if (q->pool)
		q->pol->forget(q->pool);
	if (q->wl->close)
		q->wl->close(q);
	tcp_free(q->sk);
	free(q->rx_page);
	free(q->rx_line);
	free(q->rx_spage);
	free(q->tx_page);
	free(q->tx_cqe_end);
	free(q->tx_ready);
	free(q->tx_last);
	free(q->tx_frame);
	free(q->pc);
	free(q->cq_session);
	free(q);
}

/* ---- the NIC ---- */

int rxq_nic_free(const struct rxq *q)
{
	return (int)(q->posted - q->cq_prod);
}

/* The NIC looks: the doorbells the CPU side rang since the last time.
 * Returns the bytes t held for the down link before. */
static double nic_sees_host(struct rxq *q, struct pcie_traffic *t)
{
	double down = pcie_traffic_dir(t, PCIE_DOWN);

	pcie_traffic_add(t, &q->host);
	memset(&q->host, 0, sizeof(q->host));
	return down;
}

/* A DMA read the NIC decides on at now and issues from after on:
 * counted, and timed on its tags and the down link.  Returns when its
 * data is in. */
static double nic_read(struct rxq *q, struct pcie_traffic *t, int node,
		       const struct pcie_rd_cost *r, double now, double after,
		       double mem_lat)
{
	pcie_add_read(t, node, r);
	q->read_down += r->cpl;
	return pcie_read(q->pcie, now, after, r, mem_lat);
}

/* The look is over: the rest of what it put on the down link (MMIO,
 * DLLPs) delays the completions of later reads. */
static void nic_done(struct rxq *q, double now, const struct pcie_traffic *t,
		     double down_before)
{
	pcie_down_busy(q->pcie, now, pcie_traffic_dir(t, PCIE_DOWN) -
				     down_before - q->read_down);
	q->read_down = 0;
}

/*
 * A completion into CQ line cqe.  If NAPI completed since the last one,
 * the CQ was armed: the completion raises an event, an EQE and its MSI-X,
 * and the irq handler re-arms the EQ (eq.c mlx5_eq_comp_int: eq_update_ci).
 * The EQ is taken to be on the channel's node, with its CQs (guess).
 */
static void write_cqe(struct rxq *q, u32 cqe, int node, bool *armed,
		      struct pcie_traffic *t)
{
	mem_nic_write(q->m, cqe);
	pcie_add_write(t, node, &q->cqe_wr);
	if (!*armed)
		return;
	*armed = false;
	pcie_add_write(t, node, &q->eqe_wr);
	pcie_msi(q->link, t);
	pcie_mmio_write(q->link, &q->host, EQ_DOORBELL);
}

/*
 * The rx descriptors from idx on, wqe_fetch of them in one read.  The NIC
 * reads them ahead of the packets that need them, so no packet waits for
 * this read; its tag is taken all the same.  How many it reads at once is
 * not published (nic.wqe_fetch, a guess).
 */
static void fetch_rx_wqes(struct rxq *q, u32 idx, double now,
			  struct pcie_traffic *t)
{
	int bytes = q->cfg.wqe_fetch * RX_WQE_SIZE;
	double lat = 0;

	for (int k = 0; k < bytes; k += MEM_LINE)
		lat = fmax(lat, mem_nic_read(q->m, q->l.rx_wqe +
					     (idx + (u32)k / RX_WQE_SIZE) /
					     WQE_PER_LINE));
	nic_read(q, t, q->nic_node, &q->wqe_rd, now, now, lat);
}

/*
 * The RQ has no MMIO doorbell: the driver writes the producer counter to
 * its doorbell record in host memory (en_rx.c: mlx5_wq_cyc_update_db_record)
 * and the NIC reads it.  Taken here to read it when it has used every
 * descriptor it knew of (how often it does is not published: guess).
 */
static void read_db_record(struct rxq *q, double now, struct pcie_traffic *t)
{
	double lat = mem_nic_read(q->m, q->l.state + ST_RQ_DB);

	nic_read(q, t, q->node, &q->db_rd, now, now, lat);
	q->db_known = q->posted;
}

/*
 * The completions of len packets from CQ slot first on, written once the
 * last of them is in memory.  Without compression a session is one plain
 * CQE.  With it (rx_cqe_compress), the NIC writes the completions it has
 * back to back as a session: a title CQE in the first slot, then mini CQE
 * arrays of MINI_CQE_ARRAY, the first in the next slot and each further
 * one in the slot of the completion it starts (en_rx.c
 * mlx5e_decompress_cqes_start/_cont read them there); the slots between
 * stay unwritten.  A session ends with the NIC's burst or at
 * nic.cqe_session completions (the device's cqe_compression_max_num,
 * mlx5_ifc.h, whose value is not published); a lone completion is a plain
 * CQE.
 */
static void write_session(struct rxq *q, u32 first, int len,
			  struct pcie_traffic *t)
{
	q->cq_session[first & q->rx_mask] = (u16)len;
	write_cqe(q, q->l.cqe + (first & q->rx_mask), q->node, &q->cq_armed,
		  t);
	for (int k = 1; k < len; k += k == 1 ? MINI_CQE_ARRAY - 1
					    : MINI_CQE_ARRAY)
		write_cqe(q, q->l.cqe + ((first + (u32)k) & q->rx_mask),
			  q->node, &q->cq_armed, t);
}

int rxq_nic_rx(struct rxq *q, int n, double now, struct pcie_traffic *t)
{
	int free = rxq_nic_free(q);
	int most = q->cfg.cqe_compress ? q->cfg.cqe_session : 1;
	double down = nic_sees_host(q, t);
	u32 first = q->cq_prod;

	if (free < n) {
		q->st.rx_out_of_buffer += (u32)(n - free);
		n = free;
	}
	for (int i = 0; i < n; i++) {
		u32 idx = q->cq_prod & q->rx_mask;
		struct page *page = q->rx_page[idx];

		prefetch_ahead(q, idx, false);

		if (q->cq_prod == q->db_known)
			read_db_record(q, now, t);
		/* wqe_fetch is a power of 2 (scenario.c): no division */
		if ((idx & (u32)(q->cfg.wqe_fetch - 1)) == 0)
			fetch_rx_wqes(q, idx, now, t);
		for (int k = 0; k < q->pkt_lines; k++)
			mem_nic_write(q->m, q->rx_line[idx] + (u32)k);
		pcie_add_write(t, page_to_nid(page), &q->pkt_wr);
		q->cq_prod++;
		if ((int)(q->cq_prod - first) == most || i == n - 1) {
			write_session(q, first, (int)(q->cq_prod - first), t);
			first = q->cq_prod;
		}
	}
	nic_done(q, now, t, down);
	return n;
}

/*
 * The frames the doorbell handed over: for each, the descriptor, then the
 * packet it points to, two reads in turn.  The doorbell is an MMIO write:
 * it reaches the NIC one link latency after the CPU rang it at now.  A
 * frame waits in the ring until a tag is free for its first read: the
 * NIC has no more reads under way than tags, whose data the down link
 * brings at its rate.
 */
static void issue_tx_reads(struct rxq *q, double now, struct pcie_traffic *t)
{
	double at = now + q->link->lat;

	while (q->tx_issued != q->tx_db && pcie_tag_free(q->pcie) <= at) {
		u32 i = q->tx_issued & q->tx_mask;
		struct page *page = q->tx_page[i];
		double lat = mem_nic_read(q->m, q->l.tx_wqe + i), wqe_in;

		wqe_in = nic_read(q, t, q->nic_node, &q->tx_wqe_rd, now, at,
				  lat);
		lat = 0;
		for (int k = 0; k < q->pkt_lines; k++)
			lat = fmax(lat, mem_nic_read(q->m,
						     pkt_line(q, page, k)));
		q->tx_ready[i] = nic_read(q, t, page_to_nid(page), &q->pkt_rd,
					  now, wqe_in, lat);
		q->tx_last[i] = q->tx_issued + 1 == q->tx_db;
		q->tx_issued++;
	}
}

int rxq_nic_tx(struct rxq *q, double now, struct pcie_traffic *t)
{
	double down = nic_sees_host(q, t);
	int sent = 0;

	issue_tx_reads(q, now, t);
	/* out on the wire as their data comes in, in order; the last of a
	 * doorbell's batch asks for the completion (mlx5e_notify_hw sets
	 * MLX5_WQE_CTRL_CQ_UPDATE on the WQE it rings for) */
	while (q->tx_sent != q->tx_issued &&
	       q->tx_ready[q->tx_sent & q->tx_mask] <= now) {
		u32 i = q->tx_sent++ & q->tx_mask;

		sent++;
		if (!q->tx_last[i])
			continue;
		q->tx_cqe_end[q->tx_cqe_prod & q->tx_mask] = q->tx_sent;
		write_cqe(q, q->l.tx_cqe + (q->tx_cqe_prod & q->tx_mask),
			  q->tx_cq_node, q->tx_armed, t);
		q->tx_cqe_prod++;
	}
	nic_done(q, now, t, down);
	return sent;
}

double rxq_nic_next(const struct rxq *q)
{
	double next = q->tx_sent != q->tx_issued ?
		      q->tx_ready[q->tx_sent & q->tx_mask] : INFINITY;

	if (q->tx_issued != q->tx_db)	/* waiting for a tag */
		next = fmin(next, pcie_tag_free(q->pcie));
	return next;
}

bool rxq_nic_blocked(const struct rxq *q)
{
	return q->cq_prod == q->posted && q->tx_sent == q->tx_db;
}

void rxq_nic_drop(struct rxq *q, u64 n)
{
	q->st.rx_out_of_buffer += n;
}

int rxq_pending(const struct rxq *q)
{
	return (int)(q->cq_prod - q->cq_cons) +
	       (q->port_remote ? 0 : (int)(q->tx_cqe_prod - q->tx_cqe_cons));
}

/* ---- NAPI ---- */

/*
 * Redirected frames whose send completed go back to page_pool, never
 * directly: xdp_return_frame() puts each into the ring; with
 * xdp_return_frame_bulk() they gather, XDP_FRAME_BULK at most, and
 * page_pool_put_page_bulk() takes the ring's lock once for them (6.1
 * en/xdp.c mlx5e_free_xdpsq_desc, net/core/xdp.c).  An era without the
 * bulk put gets them one by one.
 */
struct frame_bulk {
	struct page *page[XDP_FRAME_BULK];
	int n;
};

static void flush_frames(struct rxq *q, struct frame_bulk *b)
{
	struct pp_stats before, after;
	u64 produced;

	if (!b->n)
		return;
	q->pol->stats(q->pool, &before);
	q->pol->put_bulk(q->pool, b->page, b->n);
	q->pol->stats(q->pool, &after);
	/* cost.pp_ring, charged a page, holds the lock: taken once here */
	produced = after.recycle_ring - before.recycle_ring;
	if (produced > 1)
		q->cpu->cycles -= q->cfg.cost.pp_lock * (double)(produced - 1);
	q->st.xdp_return_bulks++;
	b->n = 0;
}

/* A page a consumer CPU took (the cpumap kthread, the reader on app_cpu,
 * the other port's NAPI), in its context: counted, and whether it lives
 * off that CPU's node. */
void rxq_consumer_took(struct rxq *q, struct page *page)
{
	q->st.consumed++;
	if (page_to_nid(page) != numa_mem_id())
		q->st.consumed_far++;
}

static void return_frame(struct rxq *q, struct page *page,
			 struct frame_bulk *b)
{
	/* the unmap reads the frame's length, the return its memory model
	 * (6.1 en/xdp.c mlx5e_free_xdpsq_desc): nothing prefetched it; then
	 * __xdp_return finds the page's struct page (virt_to_head_page,
	 * page->pp) and page_pool's put reads its refcount */
	mem_work_read(q->cpu, frame_line(q, page), 0);
	mem_work_read_random(q->cpu, spage_line(q, page));
	q->cpu->cycles += q->cfg.cost.dma_map / 2;	/* unmapped */
	if (q->port_remote)	/* the other port's NAPI's frames */
		rxq_consumer_took(q, page);
	if (q->cfg.xdp_return == RXQ_RETURN_FRAME || !q->pol->put_bulk) {
		q->pol->put(q->pool, page, false);
		return;
	}
	b->page[b->n++] = page;
	if (b->n == XDP_FRAME_BULK)
		flush_frames(q, b);
}

static void poll_tx_cq(struct rxq *q, struct rxq_poll *out)
{
	struct frame_bulk bulk = { .n = 0 };
	int budget = TX_CQ_POLL_BUDGET;

	while (q->tx_cqe_cons != q->tx_cqe_prod && budget > 0) {
		u32 c = q->tx_cqe_cons & q->tx_mask;

		mem_work_read_ring(q->cpu, q->l.tx_cqe + c);
		while (q->tx_cons != q->tx_cqe_end[c] && budget-- > 0) {
			u32 i = q->tx_cons & q->tx_mask;

			if (q->tx_frame[i])
				return_frame(q, q->tx_page[i], &bulk);
			else
				rxq_release_page(q, q->tx_page[i]);
			q->tx_cons++;
			out->tx_done++;
			q->st.tx_completed++;
		}
		if (q->tx_cons == q->tx_cqe_end[c])
			q->tx_cqe_cons++;
	}
	flush_frames(q, &bulk);
}

/*
 * A frame onto the XDP SQ.  XDP_TX sends the rx page as it is mapped,
 * synced for the device (6.1 en/xdp.c mlx5e_xmit_xdp_buff); a redirected
 * frame was unmapped for rx and is mapped again (mlx5e_xdp_xmit).  A full
 * SQ drops it: XDP_TX releases the page as an rx page, a redirect returns
 * the frame to page_pool from NAPI (xdp_return_frame_rx_napi, direct).
 */
void rxq_xmit(struct rxq *q, struct page *page, bool frame)
{
	u32 i = q->tx_prod & q->tx_mask;

	if (q->tx_prod - q->tx_cons == q->tx_mask + 1) {
		q->st.rx_xdp_tx_full++;
		if (frame)
			q->pol->put(q->pool, page, true);
		else
			rxq_release_page(q, page);
		return;
	}
	mem_work_store(q->cpu, q->l.tx_wqe + i);
	q->tx_page[i] = page;
	q->tx_frame[i] = frame;
	q->tx_prod++;
	q->cpu->cycles += q->cfg.cost.tx_pkt +
			  (frame ? q->cfg.cost.dma_map / 2 : q->cfg.cost.dma_sync);
	if (!frame)
		q->st.rx_xdp_tx++;
}

/* Any redirect: the page is unmapped (en/xdp.c) and becomes an xdp_frame
 * in its headroom (xdp_convert_buff_to_frame). */
void rxq_redirect_frame(struct rxq *q, struct page *page)
{
	q->cpu->cycles += q->cfg.cost.redirect + q->cfg.cost.dma_map / 2;
	mem_work_store(q->cpu, frame_line(q, page));
	q->st.rx_xdp_redirect++;
}

/*
 * An xdp_frame made an skb on the CPU running q->cpu's work, in the next
 * skb slot from line slots (__xdp_build_skb_from_frame, 6.1 and 6.12
 * net/core/xdp.c):
 * struct page is brought in for writing (cpumap's prefetchw; build_skb
 * reads page_is_pfmemalloc), the xdp_frame read from the headroom, the
 * skb and skb_shared_info written, the Ethernet header read
 * (eth_type_trans).  The stack drops it early (the benchmarks' case: no
 * socket) and frees it: the page goes back to the pool (6.4 on, marked
 * for recycling: a put without allow_direct from this CPU), or the pool
 * let it go when the skb was built and the skb's free gives it to the
 * page allocator (before 6.4).
 */
void rxq_frame_to_skb(struct rxq *q, struct page *page, u32 slots,
		      u32 *next)
{
	u32 skb = slots + (*next)++ % RXQ_SKB_SLOTS * RXQ_SKB_LINES;

	mem_work_store(q->cpu, spage_line(q, page));
	mem_work_read_random(q->cpu, frame_line(q, page));
	for (int k = 0; k < RXQ_SKB_LINES; k++)
		mem_work_store(q->cpu, skb + (u32)k);
	mem_work_store(q->cpu, shinfo_line(q, page));
	mem_work_read_random(q->cpu, pkt_line(q, page, 0));
	q->cpu->cycles += q->cfg.cost.skb_build;
	if (q->era->stack.frame_skb_recycle) {
		q->pol->put(q->pool, page, false);
		return;
	}
	BUG_ON(!q->pol->release);	/* kernel_era.h: one or the other */
	q->pol->release(q->pool, page);
	q->st.skb_page_free++;
	put_page(page);		/* skb_free_head(): page_frag_free() */
}

/* The XDP program, or the stack, reads the headers: the first two lines
 * at most, from the packet's first line, win cycles of work after the
 * driver's prefetch. */
void rxq_read_headers(struct rxq *q, u32 line, double win)
{
	mem_work_read_lines(q->cpu, line,
			    q->pkt_lines < 2 ? q->pkt_lines : 2, win);
}

/*
 * The completion at cq_cons, as mlx5e_poll_rx_cq() reads it: a plain CQE;
 * or, in a compressed session, the title and first mini CQE array at its
 * start and each further array where it lies, a mini CQE expanded into
 * the title for every completion, and the owner bit of every slot the
 * session covers written back (mlx5e_cqes_update_owner), as the NIC did
 * not write them.
 */
static void read_completion(struct rxq *q)
{
	u32 c = q->cq_cons, pos;

	if (!q->sess_left) {
		q->sess_first = c;
		q->sess_left = q->cq_session[c & q->rx_mask];
		mem_work_read_ring(q->cpu, q->l.cqe + (c & q->rx_mask));
		if (q->sess_left == 1) {
			q->sess_left = 0;
			return;
		}
		mem_work_read_ring(q->cpu, q->l.cqe + ((c + 1) & q->rx_mask));
		q->st.cqe_compress_blks++;
	}
	pos = c - q->sess_first;
	if (pos && pos % MINI_CQE_ARRAY == 0)
		mem_work_read_ring(q->cpu, q->l.cqe + (c & q->rx_mask));
	q->cpu->cycles += q->cfg.cost.cqe_decompress;
	mem_work_store(q->cpu, q->l.cqe + (c & q->rx_mask));
	q->st.cqe_compress_pkts++;
	q->sess_left--;
}

/* The XDP program on the packet at rx descriptor i, before its verdict
 * (the workload's rx). */
static void xdp_program(struct rxq *q, u32 i)
{
	if (q->cfg.touch != RXQ_TOUCH_NONE)
		rxq_read_headers(q, q->rx_line[i], q->cpu->ov->win_random);
	q->cpu->cycles += q->cfg.cost.rx_pkt + q->cfg.cost.xdp;
	if (q->cfg.touch == RXQ_TOUCH_WRITE)	/* swap MAC addresses */
		mem_work_store(q->cpu, q->rx_line[i]);
}

static void poll_rx_cq(struct rxq *q, int budget, struct rxq_poll *out)
{
	while (q->cq_cons != q->cq_prod && budget-- > 0) {
		u32 i = q->cq_cons & q->rx_mask;
		struct page *page = q->rx_page[i];

		prefetch_ahead(q, i, true);

		read_completion(q);
		q->rx_page[i] = NULL;
		q->cq_cons++;
		if (page_to_nid(page) == numa_mem_id()) {
			out->local_pkts++;
			q->st.pkts_local++;
		}
		out->rx++;
		q->st.rx_packets++;
		/* the CPU may read what the device wrote (6.1 en_rx.c, every
		 * rx path: dma_sync_single_range_for_cpu) */
		q->cpu->cycles += q->cfg.cost.dma_sync;
		if (q->wl->xdp)
			xdp_program(q, i);
		q->wl->rx(q, page);
	}
}

static void charge_page_pool(struct rxq *q, const struct pp_stats *a,
			     const struct pp_stats *b)
{
	const struct rxq_config *c = &q->cfg;

	/* the page allocator's own work is charged by page_hook() */
	q->cpu->cycles +=
		c->cost.pp_fast * (double)(b->alloc_fast - a->alloc_fast +
					   b->recycle_cached - a->recycle_cached) +
		c->cost.pp_ring * (double)(b->recycle_ring - a->recycle_ring +
					   b->alloc_refill - a->alloc_refill);
}

/* napi_complete_done(): a NAPI with nothing left arms its CQs, an MMIO
 * doorbell each, so that the next completion raises its irq. */
static void arm_cqs(struct rxq *q, bool *armed)
{
	for (int i = 0; i < CQS_ARMED; i++)
		pcie_mmio_write(q->link, &q->host, CQ_DOORBELL);
	*armed = true;
}

/*
 * One poll of the other port's NAPI (redirect_port = other), its irq raised
 * by the send completions, on the CPU running q->cpu's work: the poll's
 * cost, its state, and mlx5e_poll_xdpsq_cq() returning the frames (6.1
 * en/xdp.c mlx5e_free_xdpsq_desc: xdp_return_frame(_bulk), never
 * napi_direct: that NAPI is not the pool's).
 */
void rxq_port_poll(struct rxq *q, struct rxq_poll *out)
{
	q->cpu->cycles += q->cfg.cost.poll;
	mem_work_read_random(q->cpu, q->l.port_state + ST_POOL);
	poll_tx_cq(q, out);
	mem_work_store(q->cpu, q->l.port_state + ST_CQ_DB);
	if (q->tx_cqe_cons == q->tx_cqe_prod && !q->port_armed)
		arm_cqs(q, &q->port_armed);	/* nothing left */
}

void rxq_napi_poll(struct rxq *q, struct kctx *ctx, struct rxq_poll *out)
{
	struct kctx *prev = kctx_enter(ctx);
	struct pp_stats before, after;

	memset(out, 0, sizeof(*out));
	q->napi.list_owner = ctx->cpu;	/* ____napi_schedule() */
	mem_work_init(&out->cpu, q->m, &q->cfg.overlap, ctx->cpu);
	q->cpu = &out->cpu;
	mm_set_hook(ctx->mm, page_hook, q);
	q->pol->stats(q->pool, &before);
	q->st.polls++;
	out->cpu.cycles += q->cfg.cost.poll;
	mem_work_read_random(q->cpu, q->l.state + ST_POOL);

	if (q->wl->poll_start)
		q->wl->poll_start(q);
	if (q->cfg.redirect_port == RXQ_PORT_SAME)	/* else port_poll() */
		poll_tx_cq(q, out);
	if (q->era->driver.nid_check == PP_NID_AT_POLL)
		pp_nid_changed(q->pol, q->pool, numa_mem_id());
	poll_rx_cq(q, q->cfg.budget, out);
	out->busy = out->rx == q->cfg.budget ||
		    q->tx_cqe_cons != q->tx_cqe_prod;
	if (q->wl->rx_done)
		q->wl->rx_done(q, out);
	if (q->cfg.redirect_port == RXQ_PORT_OTHER && !q->port_remote &&
	    q->tx_cqe_cons != q->tx_cqe_prod) {
		/* the other port's NAPI on this CPU, its irq's: polled in this
		 * softirq after this one (net_rx_action's list), while this
		 * queue's NAPI is still scheduled here only if it used its
		 * budget; 6.12 then returns the frames directly */
		q->napi.list_owner = out->rx == q->cfg.budget ?
				     smp_processor_id() : -1;
		rxq_port_poll(q, out);
		q->napi.list_owner = smp_processor_id();
		out->busy |= q->tx_cqe_cons != q->tx_cqe_prod;
	}
	if (!out->busy && !q->cq_armed)
		arm_cqs(q, &q->cq_armed);
	mem_work_store(q->cpu, q->l.state + ST_CQ_DB);
	if (q->tx_prod != q->tx_db) {
		/* mlx5e_xmit_xdp_doorbell(): an MMIO write to the NIC */
		out->cpu.cycles += q->cfg.cost.doorbell;
		pcie_mmio_write(q->link, &q->host, SQ_DOORBELL);
		if (numa_mem_id() != q->nic_node)
			mem_work_wait(q->cpu, MEM_DOORBELL, MEM_RCACHE,
				      q->qpi_lat *
				      q->cfg.overlap.store_exposure);
		mem_work_store(q->cpu, q->l.sq_db);
		q->tx_db = q->tx_prod;
	}
	if (q->era->driver.nid_check == PP_NID_AT_REFILL)
		pp_nid_changed(q->pol, q->pool, numa_mem_id());
	refill(q);
	if (q->wl->poll_end)
		q->wl->poll_end(q, ctx, out);

	q->pol->stats(q->pool, &after);
	charge_page_pool(q, &before, &after);
	mm_set_hook(ctx->mm, NULL, NULL);
	q->cpu = NULL;
	q->napi.list_owner = -1;	/* the poll is over */
	kctx_leave(prev);
}

void rxq_post(struct rxq *q)
{
	q->posted = q->refilled;
}

const struct rxq_stats *rxq_stats(const struct rxq *q)
{
	return &q->st;
}

struct pp_pool *rxq_pool(const struct rxq *q)
{
	return q->pool;
}


/* The skbs' pages: the pool's still where skbs recycle. */
static u32 skb_pages(const struct rxq *q)
{
	return q->wl->skbs ? q->wl->skbs(q) : 0;
}

u32 rxq_pages_handed(const struct rxq *q)
{
	return (q->refilled - q->cq_cons) + (q->tx_prod - q->tx_cons) +
	       (q->pc_tail - q->pc_head) + (q->wl->held ? q->wl->held(q) : 0) +
	       (q->era->driver.rx_skb_recycle ? skb_pages(q) : 0);
}

u32 rxq_pages_in_socket(const struct rxq *q)
{
	return q->era->driver.rx_skb_recycle ? 0 : skb_pages(q);
}

/* ---- the far side ---- */

int rxq_attach(struct rxq *q, int node)
{
	return q->wl->attach ? q->wl->attach(q, node) : -1;
}

int rxq_attach_port(struct rxq *q, int node)
{
	/* mlx5e_alloc_cq, the SQ's doorbell record and arrays: on the node
	 * of the channel's CPU (5.5 en_main.c) */
	q->l.tx_cqe = mem_region(q->m, node, MEM_CQE, (u32)q->cfg.tx_ring);
	q->l.port_state = mem_region(q->m, node, MEM_STATE, ST_NR);
	q->l.sq_db = q->l.port_state + ST_SQ_DB;
	q->tx_cq_node = node;
	q->port_remote = true;
	return mem_error(q->m) ? -1 : 0;
}

bool rxq_port_remote(const struct rxq *q)
{
	return q->port_remote;
}

u32 rxq_port_pending(const struct rxq *q)
{
	return q->tx_cqe_prod - q->tx_cqe_cons;
}

u32 rxq_consumer_pending(const struct rxq *q)
{
	return q->wl->pending ? q->wl->pending(q) : 0;
}

int rxq_consume(struct rxq *q, struct kctx *ctx, struct mem_work *work)
{
	struct kctx *prev = kctx_enter(ctx);
	struct pp_stats before, after;
	int n = 0;

	mem_work_init(work, q->m, &q->cfg.overlap, ctx->cpu);
	q->cpu = work;
	mm_set_hook(ctx->mm, page_hook, q);
	q->pol->stats(q->pool, &before);
	if (q->wl->consume)
		n = q->wl->consume(q);
	q->pol->stats(q->pool, &after);
	charge_page_pool(q, &before, &after);
	mm_set_hook(ctx->mm, NULL, NULL);
	q->cpu = NULL;
	kctx_leave(prev);
	return n;
}

/* ---- for the workloads ---- */

struct mem_work *rxq_work(struct rxq *q)
{
	return q->cpu;
}

const struct rxq_config *rxq_cfg(const struct rxq *q)
{
	return &q->cfg;
}

struct rxq_stats *rxq_counters(struct rxq *q)
{
	return &q->st;
}

const struct kernel_era *rxq_era(const struct rxq *q)
{
	return q->era;
}

struct mem *rxq_mem(const struct rxq *q)
{
	return q->m;
}

int rxq_node(const struct rxq *q)
{
	return q->node;
}

void *rxq_workload_state(const struct rxq *q)
{
	return q->wl_state;
}

void rxq_set_workload_state(struct rxq *q, void *state)
{
	q->wl_state = state;
}

u32 rxq_pkt_line(const struct rxq *q, const struct page *page, int k)
{
	return pkt_line(q, page, k);
}

u32 rxq_spage_line(const struct rxq *q, const struct page *page)
{
	return spage_line(q, page);
}

u32 rxq_frame_line(const struct rxq *q, const struct page *page)
{
	return frame_line(q, page);
}

void rxq_pool_put(struct rxq *q, struct page *page, bool direct)
{
	q->pol->put(q->pool, page, direct);
}

u32 rxq_skb_slots(struct rxq *q, int node)
{
	return mem_region(q->m, node, MEM_STATE,
			  RXQ_SKB_SLOTS * RXQ_SKB_LINES);
}

void rxq_napi_owner(struct rxq *q, int cpu)
{
	q->napi.list_owner = cpu;
}

struct tcp *rxq_socket(const struct rxq *q)
{
	return q->sk;
}

u32 rxq_socket_limit(const struct rxq *q)
{
	return q->sk_limit;
}

u32 rxq_softnet_line(const struct rxq *q)
{
	return q->l.state + ST_DEFER;
}

int rxq_socket_reopen(struct rxq *q, int node, u32 limit)
{
	struct tcp *sk;

	BUG_ON(tcp_queued(q->sk));
	sk = tcp_open(&q->cfg.tcp, q->m, node, q->cfg.pkt_size,
		      (unsigned int)pow2_ceil((int)limit));
	if (!sk)
		return -1;
	tcp_free(q->sk);
	q->sk = sk;
	q->sk_limit = limit;
	return 0;
}
