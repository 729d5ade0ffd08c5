/* The mlx5 legacy RQ: the channel's opening, its pages in and out of the
 * driver (the page cache, the refill), its own keys and their rules, and
 * its table. */
#include <stdlib.h>
#include "mlx5.h"

#define LEGACY_MAX_PKT	3520	/* PAGE_SIZE - XDP_PACKET_HEADROOM -
				 * SKB_DATA_ALIGN(skb_shared_info) */

/* The channel's objects, placed as mlx5.h says, its socket after them
 * and its page cache last (the workload's follow: rxq_open). */
static int layout(struct rxq *q)
{
	struct mlx5_rq *rq = rq_of(q);
	const struct rxq_config *c = &q->cfg;

	rq->l.cqe = mem_region(q->m, q->node, MEM_CQE, c->rx_ring);
	rq->l.rx_wqe = mem_region(q->m, rq->nic_node, MEM_RX_WQE,
				  c->rx_ring / WQE_PER_LINE + 1);
	rq->l.tx_wqe = mem_region(q->m, rq->nic_node, MEM_TX_WQE, c->tx_ring);
	rq->l.tx_cqe = mem_region(q->m, q->node, MEM_CQE, c->tx_ring);
	rq->l.state = mem_region(q->m, q->node, MEM_STATE, ST_NR);
	rq->l.sq_db = rq->l.state + ST_SQ_DB;
	q->softnet = rq->l.state + ST_DEFER;
	if (c->redirect_port == RXQ_PORT_OTHER) {
		/* the other port's channel of this CPU: opened here too */
		rq->l.port_state = mem_region(q->m, q->node, MEM_STATE, ST_NR);
		rq->l.sq_db = rq->l.port_state + ST_SQ_DB;
	}
	if (rxq_open_socket(q))
		return -1;
	/* the page cache, on the channel's node like its other arrays */
	rq->l.cache = mem_region(q->m, q->node, MEM_STATE,
				 (rq->pc_mask + 1) / CACHE_PER_LINE + 1);
	return mem_error(q->m) ? -1 : 0;
}

static int mlx5_open(struct rxq *q, struct pcie *pcie)
{
	struct mlx5_rq *rq = rq_of(q);
	const struct rxq_config *cfg = &q->cfg;
	const struct mlx5_config *mc = mlx5_cfg(cfg);
	int pc = mc->page_cache ? pow2_ceil(mc->page_cache) : 1;

	rq->nic_node = mem_config(q->m)->nic_node;
	rq->nic_socket = mem_socket_of_node(mem_config(q->m), rq->nic_node);
	rq->qpi_lat = mem_config(q->m)->qpi_lat;
	rq->pcie = pcie;
	rq->link = pcie_config(pcie);
	rq->cqe_wr = pcie_wr_cost_of(rq->link, CQE_SIZE);
	rq->eqe_wr = pcie_wr_cost_of(rq->link, EQE_SIZE);
	rq->wqe_rd = pcie_rd_cost_of(rq->link, mc->wqe_fetch * RX_WQE_SIZE);
	rq->db_rd = pcie_rd_cost_of(rq->link, DB_RECORD_SIZE);
	rq->tx_wqe_rd = pcie_rd_cost_of(rq->link, TX_WQE_SIZE);
	rq->pkt_rd = pcie_rd_cost_of(rq->link, cfg->pkt_size);
	/* rx end padding: the NIC pads a packet's write to whole cache
	 * lines (6.1 en/params.c rq_end_pad_mode: MLX5_WQ_END_PAD_MODE_ALIGN
	 * unless LRO with relaxed ordering) */
	rq->pkt_wr = pcie_wr_cost_of(rq->link, q->pkt_lines * MEM_LINE);
	rq->cq_armed = true;	/* mlx5e_activate_channel arms the CQs */
	rq->port_armed = true;
	rq->tx_cq_node = q->node;
	rq->tx_armed = cfg->redirect_port == RXQ_PORT_OTHER ? &rq->port_armed
							      : &rq->cq_armed;
	rq->rx_mask = (u32)cfg->rx_ring - 1;
	rq->tx_mask = (u32)cfg->tx_ring - 1;
	rq->pc_mask = (u32)pc - 1;
	rq->rx_page = calloc(cfg->rx_ring, sizeof(*rq->rx_page));
	rq->rx_line = calloc(cfg->rx_ring, sizeof(*rq->rx_line));
	rq->rx_spage = calloc(cfg->rx_ring, sizeof(*rq->rx_spage));
	rq->tx_page = calloc(cfg->tx_ring, sizeof(*rq->tx_page));
	rq->tx_cqe_end = calloc(cfg->tx_ring, sizeof(*rq->tx_cqe_end));
	rq->tx_ready = calloc(cfg->tx_ring, sizeof(*rq->tx_ready));
	rq->tx_last = calloc(cfg->tx_ring, sizeof(*rq->tx_last));
	rq->tx_frame = calloc(cfg->tx_ring, sizeof(*rq->tx_frame));
	rq->pc = calloc(pc, sizeof(*rq->pc));
	rq->cq_session = calloc(cfg->rx_ring, sizeof(*rq->cq_session));
	if (!rq->rx_page || !rq->rx_line || !rq->rx_spage || !rq->tx_page ||
	    !rq->tx_cqe_end || !rq->tx_ready || !rq->tx_last ||
	    !rq->tx_frame || !rq->pc || !rq->cq_session)
		return -1;
	if (layout(q))
		return -1;
	/* the striding RQ's own objects after the legacy RQ's, whose
	 * descriptors it leaves unused: the lines before stay where they
	 * were */
	return mc->rq_type == MLX5_RQ_STRIDING ? mpwqe_open(q) : 0;
}

static void mlx5_free(struct rxq *q)
{
	struct mlx5_rq *rq = rq_of(q);

	free(rq->rx_page);
	free(rq->rx_line);
	free(rq->rx_spage);
	free(rq->tx_page);
	free(rq->tx_cqe_end);
	free(rq->tx_ready);
	free(rq->tx_last);
	free(rq->tx_frame);
	free(rq->pc);
	free(rq->cq_session);
	mpwqe_free(q);
}

/* ---- pages in and out of the driver ---- */

/* The line of the page cache's entry at index i. */
static u32 cache_line(const struct mlx5_rq *rq, u32 i)
{
	return rq->l.cache + (i & rq->pc_mask) / CACHE_PER_LINE;
}

bool mlx5_doorbell_far(const struct rxq *q)
{
	return mem_socket_of_node(mem_config(q->m), numa_mem_id()) !=
	       rq_of(q)->nic_socket;
}

/* mlx5e_rx_cache_put(): refuses when full or when the page is not
 * reusable here (pfmemalloc, or not on numa_mem_id()). */
static bool cache_put(struct rxq *q, struct page *page)
{
	struct mlx5_rq *rq = rq_of(q);
	const struct mlx5_config *mc = mlx5_cfg(&q->cfg);

	q->cpu->cycles += mc->cache_op;
	if (rq->pc_tail - rq->pc_head == (u32)mc->page_cache) {
		q->st.cache_full++;
		return false;
	}
	if (page_is_pfmemalloc(page) || page_to_nid(page) != numa_mem_id()) {
		q->st.cache_waive++;
		return false;
	}
	mem_work_store(q->cpu, cache_line(rq, rq->pc_tail));
	rq->pc[rq->pc_tail++ & rq->pc_mask] = page;
	return true;
}

/* mlx5e_rx_cache_get(): the head page only, if nobody else holds it. */
static struct page *cache_get(struct rxq *q)
{
	struct mlx5_rq *rq = rq_of(q);
	struct page *page;

	q->cpu->cycles += mlx5_cfg(&q->cfg)->cache_op;
	if (rq->pc_head == rq->pc_tail) {
		q->st.cache_empty++;
		return NULL;
	}
	mem_work_read_ring(q->cpu, cache_line(rq, rq->pc_head));
	page = rq->pc[rq->pc_head & rq->pc_mask];
	mem_work_read_random(q->cpu, spage_line(q, page));
	if (page_ref_count(page) != 1) {
		q->st.cache_busy++;
		return NULL;
	}
	rq->pc_head++;
	q->st.cache_reuse++;
	/* the page keeps its mapping; the device gets it back synced
	 * (6.1 en_rx.c mlx5e_rx_cache_get: dma_sync_single_for_device) */
	q->cpu->cycles += q->cfg.cost.dma_sync;
	return page;
}

/* mlx5e_page_release(rq, di, recycle = true) */
void mlx5_release_page(struct rxq *q, struct page *page)
{
	if (rq_of(q)->mp && mpwqe_keeps(q, page))
		return;
	mem_work_read_random(q->cpu, spage_line(q, page));
	if (mlx5_cfg(&q->cfg)->page_cache && cache_put(q, page))
		return;
	q->cpu->cycles += q->cfg.cost.dma_map / 2;	/* unmap */
	q->pol->put(q->pool, page, true);
}

/* mlx5e_page_alloc(): the page cache first, then page_pool + dma map */
static struct page *alloc_page(struct rxq *q)
{
	struct page *page = NULL;

	if (mlx5_cfg(&q->cfg)->page_cache)
		page = cache_get(q);
	if (page)
		return page;
	page = q->pol->alloc(q->pool);
	if (page)
		q->cpu->cycles += q->cfg.cost.dma_map / 2;	/* map */
	return page;
}

struct page *mlx5_page_alloc(struct rxq *q)
{
	return alloc_page(q);
}

void mlx5_refill(struct rxq *q)
{
	struct mlx5_rq *rq = rq_of(q);

	if (rq->mp) {
		mpwqe_refill(q);
		return;
	}
	while (rq->refilled != rq->cq_cons + rq->rx_mask + 1) {
		u32 i = rq->refilled & rq->rx_mask;
		struct page *page = alloc_page(q);

		if (!page) {
			q->st.alloc_failed++;
			break;
		}
		rq->rx_page[i] = page;
		rq->rx_line[i] = pkt_line(q, page, 0);
		rq->rx_spage[i] = spage_line(q, page);
		mem_work_store(q->cpu, rq->l.rx_wqe + i / WQE_PER_LINE);
		rq->refilled++;
	}
	mem_work_store(q->cpu, rq->l.state + ST_RQ_DB);
}

/* The doorbell after the refill: descriptors become the NIC's. */
static void mlx5_post(struct rxq *q)
{
	struct mlx5_rq *rq = rq_of(q);

	rq->posted = rq->refilled;
}

static int mlx5_fill(struct rxq *q, const char **err)
{
	struct mlx5_rq *rq = rq_of(q);

	if (rq->mp)
		return mpwqe_fill(q, err);
	mlx5_refill(q);
	if (rq->refilled != rq->rx_mask + 1) {
		*err = "not enough pages to fill the rx ring";
		return -1;
	}
	mlx5_post(q);
	return 0;
}

/* Pages on the rx ring, the send queue and in the page cache. */
static u32 mlx5_held(const struct rxq *q)
{
	const struct mlx5_rq *rq = rq_of(q);
	u32 ring = rq->mp ? mpwqe_held(q) : rq->refilled - rq->cq_cons;

	return ring + (rq->tx_prod - rq->tx_cons) + (rq->pc_tail - rq->pc_head);
}

/* ---- the other port ---- */

static int mlx5_attach_port(struct rxq *q, int node)
{
	struct mlx5_rq *rq = rq_of(q);

	/* mlx5e_alloc_cq, the SQ's doorbell record and arrays: on the node
	 * of the channel's CPU (5.5 en_main.c) */
	rq->l.tx_cqe = mem_region(q->m, node, MEM_CQE, (u32)q->cfg.tx_ring);
	rq->l.port_state = mem_region(q->m, node, MEM_STATE, ST_NR);
	rq->l.sq_db = rq->l.port_state + ST_SQ_DB;
	rq->tx_cq_node = node;
	q->port_remote = true;
	return mem_error(q->m) ? -1 : 0;
}

static u32 mlx5_port_pending(const struct rxq *q)
{
	const struct mlx5_rq *rq = rq_of(q);

	return rq->tx_cqe_prod - rq->tx_cqe_cons;
}

static const char *const rq_types[] = { "legacy", "striding", NULL };

/* Its keys, each listed after the core key its after names (where they
 * stood among the core keys before they were mlx5's own). */
static const struct key mlx5_keys[] = {
	NIC_KEY(struct mlx5_config, wqe_fetch, "nic", "wqe_fetch", "tx_ring",
		KEY_INT, KEY_PLAIN, "4", 1, 1 << 15, "",
		"rx descriptors (16 bytes) the NIC reads in one DMA read, a "
		"power of 2 up to rx_ring (4: one cache line; mlx5's is not "
		"published)"),
	NIC_KEY(struct mlx5_config, cqe_session, "nic", "cqe_session", NULL,
		KEY_INT, KEY_PLAIN, "64", 2, 4096, "",
		"completions a compressed CQE session holds at most (the "
		"device's cqe_compression_max_num; a burst shorter than "
		"this ends it sooner)"),
	NIC_KEY(struct mlx5_config, cqe_compress, "driver", "cqe_compress",
		"budget", KEY_INT, KEY_PLAIN, "0", 0, 1, "",
		"rx_cqe_compress (ethtool --set-priv-flags): 1 = "
		"completions written back to back share a title CQE and "
		"8-byte mini CQEs, fewer bytes on PCIe, more work for the "
		"driver; mlx5 turns it on by itself only on a slow PCIe "
		"link"),
	NIC_KEY(struct mlx5_config, page_cache, "driver", "page_cache",
		"xdp_return", KEY_INT, KEY_PLAIN, "0", 0, 1 << 16, "",
		"mlx5e page cache entries (0 = off, 256 in mlx5)"),
	NIC_KEY(struct mlx5_config, cache_op, "cost", "cache_op", "dma_sync",
		KEY_DOUBLE, KEY_PLAIN, "19", 0, 1e6, "cycles",
		"an mlx5e page cache put or get attempt, beyond its memory "
		"accesses"),
	NIC_KEY(struct mlx5_config, cqe_decompress, "cost", "cqe_decompress",
		NULL, KEY_DOUBLE, KEY_PLAIN, "10", 0, 1e6, "cycles",
		"a compressed completion's work beyond a plain one's: its "
		"mini CQE expanded into the title CQE "
		"(mlx5e_decompress_cqe) and its slot's owner bit written "
		"back (mlx5e_cqes_update_owner), beyond their memory "
		"accesses"),
	NIC_WORD_KEY(struct mlx5_config, rq_type, "driver", "rq_type",
		     "page_cache", "legacy", rq_types,
		     "the rx queue's type (ethtool --set-priv-flags "
		     "rx_striding_rq): legacy = a cyclic RQ of a page a "
		     "descriptor (ConnectX-4's); striding = multi-packet "
		     "WQEs of 64 pages cut into strides, one WQE read and "
		     "one UMR a WQE, a CQE a packet, the pages released a "
		     "WQE at a time, 4 WQEs at least (mlx5 raises a smaller "
		     "nic.rx_ring) (ConnectX-5 on); XDP a packet a page "
		     "(the era decides at jumbo mtu), tcp several packets "
		     "a page or, at jumbo mtu, a packet over several"),
	NIC_KEY(struct mlx5_config, mtu, "driver", "mtu", NULL, KEY_INT,
		KEY_PLAIN, "1500", 68, 9978, "bytes",
		"the netdev's MTU: the striding RQ's strides follow it "
		"(en/params.c: 256-byte strides once a packet no longer "
		"fits a page); the legacy RQ model takes a page a packet "
		"whatever it is.  Either takes frames of mtu + 14 bytes "
		"(case.pkt_size) at most, and XDP past a page (mtu over "
		"3498) only where the era's mlx5 allows it"),
};

/* The NIC reads its descriptors in whole fetches of a ring; the legacy
 * RQ's model holds a packet in a page after XDP's headroom, with room
 * for skb_shared_info (4096 - 256 - 320 bytes). */
static void mlx5_check(const struct rxq_config *cfg, key_say *say, void *ctx)
{
	int fetch = mlx5_cfg(cfg)->wqe_fetch;

	if (mlx5_cfg(cfg)->rq_type == MLX5_RQ_LEGACY &&
	    cfg->pkt_size > LEGACY_MAX_PKT)
		say(ctx, "case.pkt_size", "pkt_size %d is more than the "
		    "legacy RQ's page a packet holds (%d bytes): a jumbo "
		    "frame is modelled on driver.rq_type = striding",
		    cfg->pkt_size, LEGACY_MAX_PKT);

	/* the legacy RQ's descriptors, fetched from the ring (a striding
	 * RQ reads a WQE of its own at a time, its ring raised to 4) */
	if (fetch <= 0 || fetch & (fetch - 1) ||
	    (fetch > cfg->rx_ring &&
	     mlx5_cfg(cfg)->rq_type == MLX5_RQ_LEGACY))
		say(ctx, "nic.wqe_fetch", "wqe_fetch %d is not a power of 2 "
		    "up to rx_ring %d", fetch, cfg->rx_ring);
	mpwqe_check(cfg, say, ctx);
}

static long long mlx5_cache_pages(const struct rxq_config *cfg,
				  const char **key)
{
	*key = "driver.page_cache";
	return mlx5_cfg(cfg)->page_cache;
}

const struct nic_model nic_mlx5_legacy = {
	.name = "mlx5-legacy",
	.priv_size = sizeof(struct mlx5_rq),
	.open = mlx5_open,
	.fill = mlx5_fill,
	.free = mlx5_free,
	.nic_free = mlx5_nic_free,
	.nic_rx = mlx5_nic_rx,
	.nic_tx = mlx5_nic_tx,
	.nic_next = mlx5_nic_next,
	.nic_blocked = mlx5_nic_blocked,
	.pending = mlx5_pending,
	.poll = mlx5_poll,
	.post = mlx5_post,
	.held = mlx5_held,
	.release_page = mlx5_release_page,
	.xmit = mlx5_xmit,
	.redirect_frame = mlx5_redirect_frame,
	.attach_port = mlx5_attach_port,
	.port_poll = mlx5_port_poll,
	.port_pending = mlx5_port_pending,
	.keys = mlx5_keys,
	.nr_keys = sizeof(mlx5_keys) / sizeof(mlx5_keys[0]),
	.check = mlx5_check,
	.check_era = mpwqe_check_era,
	.cache_pages = mlx5_cache_pages,
};
