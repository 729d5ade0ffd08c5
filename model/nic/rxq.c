#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rxq.h"

#define XDP_HEADROOM		256	/* XDP_PACKET_HEADROOM: data starts here */
#define WQE_PER_LINE		4	/* 16-byte rx descriptors */
#define TX_CQ_POLL_BUDGET	128	/* MLX5E_TX_CQ_POLL_BUDGET */
#define PCIE_TLP_OVERHEAD	24	/* bytes of header and framing a TLP */
#define PCIE_MPS		256	/* max payload per TLP */

/* Lines of a queue's own objects, all in one region each. */
struct rxq_lines {
	u32 cqe;		/* rx CQ: one 64-byte entry a line */
	u32 rx_wqe;		/* rx WQ: four descriptors a line */
	u32 tx_wqe;		/* XDP SQ: one 64-byte WQE a line */
	u32 tx_cqe;		/* XDP SQ's CQ */
	u32 state;		/* pool, rq, cq and doorbell records */
	u32 user;		/* the reader's buffer */
};

/* Which state line an operation writes. */
enum { ST_CQ_DB, ST_RQ_DB, ST_SQ_DB, ST_POOL, ST_NR = 20 };
#define USER_BUF_LINES	1024	/* the reader's 64 KiB buffer */

struct rxq {
	struct rxq_config cfg;
	struct mem *m;
	const struct pp_policy *pol;
	struct pp_pool *pool;
	struct kctx *ctx;
	struct rxq_lines l;
	const struct rxq_pages *pg;	/* the machine's page lines */
	int pkt_lines;		/* lines of a packet this queue touches */
	double hit;		/* the cost of a private hit, s */

	struct page **rx_page;	/* page posted at each rx descriptor */
	u32 rx_mask;
	u32 cq_prod;		/* descriptors filled and completed by the NIC */
	u32 cq_cons;		/* completions handled by NAPI */
	u32 refilled;		/* descriptors given a page */
	u32 posted;		/* descriptors the NIC may use */

	struct page **tx_page;	/* page of each XDP_TX descriptor */
	u32 tx_mask;
	u32 tx_prod;		/* descriptors written */
	u32 tx_db;		/* descriptors the doorbell handed over */
	u32 tx_sent;		/* descriptors the NIC sent */
	u32 tx_cons;		/* descriptors completed by NAPI */
	u32 *tx_cqe_end;	/* per tx CQE: descriptors it completes up to */
	u32 tx_cqe_prod, tx_cqe_cons;

	struct page **pc;	/* mlx5e page cache: a FIFO */
	u32 pc_mask, pc_head, pc_tail;

	struct page **sk;	/* the socket's receive queue: skb pages */
	u32 sk_mask, sk_head, sk_tail;
	u32 user_line;		/* the reader's buffer, cycled through */

	int core;		/* the polling core, for the page hook */
	struct rxq_poll *cur;	/* the poll being accounted */
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
					pages_per_node * pl->pkt_lines);
		pl->spage[n] = mem_region(m, n, MEM_STRUCT_PAGE,
					  pages_per_node);
	}
}

static void layout(struct rxq *q)
{
	const struct rxq_config *c = &q->cfg;

	q->pkt_lines = (c->pkt_size + MEM_LINE - 1) / MEM_LINE;
	q->l.cqe = mem_region(q->m, c->channel_node, MEM_CQE, c->rx_ring);
	q->l.rx_wqe = mem_region(q->m, c->nic_node, MEM_RX_WQE,
				 c->rx_ring / WQE_PER_LINE + 1);
	q->l.tx_wqe = mem_region(q->m, c->nic_node, MEM_TX_WQE, c->tx_ring);
	q->l.tx_cqe = mem_region(q->m, c->channel_node, MEM_CQE, c->tx_ring);
	q->l.state = mem_region(q->m, c->channel_node, MEM_STATE, ST_NR);
	q->l.user = mem_region(q->m, c->channel_node, MEM_STATE,
			       USER_BUF_LINES);
}

/* The page's index on its node (pfns are numbered node by node). */
static u32 node_index(const struct rxq *q, const struct page *page)
{
	return page->pfn - (u32)page->nid * q->pg->pages_per_node;
}

static u32 pkt_line(const struct rxq *q, const struct page *page, int k)
{
	return q->pg->pkt[page->nid] +
	       node_index(q, page) * (u32)q->pg->pkt_lines + (u32)k;
}

static u32 spage_line(const struct rxq *q, const struct page *page)
{
	return q->pg->spage[page->nid] + node_index(q, page);
}

/* ---- CPU accesses, charged to the poll being run ---- */

/* A read the core waits for beyond what prefetching hid (hide, s). */
static void cpu_read(struct rxq *q, u32 line, double hide)
{
	double lat = mem_cpu_read(q->m, q->core, line);

	if (q->cur && lat > q->hit + hide)
		q->cur->stall += lat - q->hit - hide;
}

static void cpu_store(struct rxq *q, u32 line)
{
	double lat = mem_cpu_write(q->m, q->core, line);

	if (q->cur && lat > q->hit)
		q->cur->stall += (lat - q->hit) * q->cfg.store_exposure;
}

/* A read that streams with others: the line fill buffers keep mlp misses
 * in flight, so each costs its latency over mlp. */
static void cpu_read_streaming(struct rxq *q, u32 line, double mlp)
{
	double lat = mem_cpu_read(q->m, q->core, line);

	if (q->cur && lat > q->hit)
		q->cur->stall += (lat - q->hit) / mlp;
}

/* The page allocator at work for this CPU: its cycles, and the struct
 * page it writes, for every page it gives or takes back. */
static void page_hook(void *arg, struct page *page, bool alloc)
{
	struct rxq *q = arg;

	if (q->cur)
		q->cur->cycles += alloc ? q->cfg.c_page_alloc
					: q->cfg.c_page_free;
	cpu_store(q, spage_line(q, page));
}

/* ---- pages in and out of the driver ---- */

/* mlx5e_rx_cache_put(): refuses when full or when the page is not
 * reusable here (pfmemalloc, or not on numa_mem_id()). */
static bool cache_put(struct rxq *q, struct page *page)
{
	if (q->pc_tail - q->pc_head == (u32)q->cfg.page_cache) {
		q->st.cache_full++;
		return false;
	}
	if (page_is_pfmemalloc(page) || page_to_nid(page) != numa_mem_id()) {
		q->st.cache_waive++;
		return false;
	}
	q->pc[q->pc_tail++ & q->pc_mask] = page;
	q->cur->cycles += q->cfg.c_pp_fast;	/* as cheap as page_pool's */
	return true;
}

/* mlx5e_rx_cache_get(): the head page only, if nobody else holds it. */
static struct page *cache_get(struct rxq *q)
{
	struct page *page;

	if (q->pc_head == q->pc_tail) {
		q->st.cache_empty++;
		return NULL;
	}
	page = q->pc[q->pc_head & q->pc_mask];
	cpu_read(q, spage_line(q, page), q->cfg.hide_random);
	if (page_ref_count(page) != 1) {
		q->st.cache_busy++;
		return NULL;
	}
	q->pc_head++;
	q->st.cache_reuse++;
	if (q->cur)	/* and dma_sync_single_for_device(), a no-op here */
		q->cur->cycles += q->cfg.c_pp_fast;
	return page;
}

/* mlx5e_page_release(rq, di, recycle = true) */
static void release_page(struct rxq *q, struct page *page)
{
	cpu_read(q, spage_line(q, page), q->cfg.hide_random);
	if (q->cfg.page_cache && cache_put(q, page))
		return;
	q->cur->cycles += q->cfg.c_dma_map / 2;		/* unmap */
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
	if (page && q->cur)
		q->cur->cycles += q->cfg.c_dma_map / 2;	/* map */
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
		cpu_store(q, q->l.rx_wqe + i / WQE_PER_LINE);
		q->refilled++;
	}
	cpu_store(q, q->l.state + ST_RQ_DB);
}

/* ---- open and close ---- */

struct rxq *rxq_open(const struct rxq_config *cfg, struct mem *m,
		     const struct pp_policy *pol, struct kctx *ctx,
		     const char **err)
{
	struct pp_params pp = { cfg->channel_node, (unsigned int)cfg->rx_ring };
	struct rxq *q = calloc(1, sizeof(*q));
	int pc = cfg->page_cache ? pow2_ceil(cfg->page_cache) : 1;

	if (!q) {
		*err = "out of memory";
		return NULL;
	}
	q->cfg = *cfg;
	q->pg = cfg->pages;
	q->m = m;
	q->pol = pol;
	q->ctx = ctx;
	q->core = ctx->cpu;	/* the channel opens on its CPU */
	q->hit = mem_hit_latency(m);
	q->rx_mask = (u32)cfg->rx_ring - 1;
	q->tx_mask = (u32)cfg->tx_ring - 1;
	q->pc_mask = (u32)pc - 1;
	q->rx_page = calloc(cfg->rx_ring, sizeof(*q->rx_page));
	q->tx_page = calloc(cfg->tx_ring, sizeof(*q->tx_page));
	q->tx_cqe_end = calloc(cfg->tx_ring, sizeof(*q->tx_cqe_end));
	q->pc = calloc(pc, sizeof(*q->pc));
	q->sk_mask = (u32)cfg->rx_ring - 1;	/* one poll's packets at most */
	q->sk = calloc(cfg->rx_ring, sizeof(*q->sk));
	if (!q->rx_page || !q->tx_page || !q->tx_cqe_end || !q->pc ||
	    !q->sk) {
		rxq_free(q);
		*err = "out of memory";
		return NULL;
	}
	layout(q);
	kctx_cur = ctx;
	if (pol->create(&pp, &q->pool)) {
		rxq_free(q);
		*err = "page_pool_create failed";
		return NULL;
	}
	refill(q);
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
	free(q->rx_page);
	free(q->tx_page);
	free(q->tx_cqe_end);
	free(q->pc);
	free(q->sk);
	free(q);
}

/* ---- the NIC ---- */

static double pcie_bytes_of(int payload)
{
	return payload + PCIE_TLP_OVERHEAD *
		((payload + PCIE_MPS - 1) / PCIE_MPS);
}

int rxq_nic_free(const struct rxq *q)
{
	return (int)(q->posted - q->cq_prod);
}

int rxq_nic_rx(struct rxq *q, int n, double bytes[MEM_MAX_SOCKETS])
{
	int accepted = 0, cq_node = q->cfg.channel_node, free = rxq_nic_free(q);

	if (free < n) {
		q->st.rx_out_of_buffer += (u32)(n - free);
		n = free;
	}
	for (int i = 0; i < n; i++) {
		u32 idx = q->cq_prod & q->rx_mask;
		struct page *page = q->rx_page[idx];

		if (idx % WQE_PER_LINE == 0) {	/* descriptor fetch */
			mem_nic_read(q->m, q->l.rx_wqe + idx / WQE_PER_LINE);
			bytes[q->cfg.nic_node] += pcie_bytes_of(MEM_LINE);
		}
		for (int k = 0; k < q->pkt_lines; k++)
			mem_nic_write(q->m, pkt_line(q, page, k));
		mem_nic_write(q->m, q->l.cqe + idx);
		q->cq_prod++;
		accepted++;
		bytes[page_to_nid(page)] += pcie_bytes_of(q->cfg.pkt_size);
		bytes[cq_node] += pcie_bytes_of(MEM_LINE);
	}
	return accepted;
}

int rxq_nic_tx(struct rxq *q, double bytes[MEM_MAX_SOCKETS])
{
	int sent = 0;

	if (q->tx_sent == q->tx_db)
		return 0;
	while (q->tx_sent != q->tx_db) {
		u32 i = q->tx_sent & q->tx_mask;
		struct page *page = q->tx_page[i];

		mem_nic_read(q->m, q->l.tx_wqe + i);
		for (int k = 0; k < q->pkt_lines; k++)
			mem_nic_read(q->m, pkt_line(q, page, k));
		q->tx_sent++;
		sent++;
		bytes[page_to_nid(page)] += pcie_bytes_of(q->cfg.pkt_size);
		bytes[q->cfg.nic_node] += pcie_bytes_of(MEM_LINE);
	}
	/* one completion for the doorbell's batch */
	q->tx_cqe_end[q->tx_cqe_prod & q->tx_mask] = q->tx_sent;
	mem_nic_write(q->m, q->l.tx_cqe + (q->tx_cqe_prod & q->tx_mask));
	q->tx_cqe_prod++;
	bytes[q->cfg.channel_node] += pcie_bytes_of(MEM_LINE);
	return sent;
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
	       (int)(q->tx_cqe_prod - q->tx_cqe_cons);
}

/* ---- NAPI ---- */

static void poll_tx_cq(struct rxq *q)
{
	int budget = TX_CQ_POLL_BUDGET;

	while (q->tx_cqe_cons != q->tx_cqe_prod && budget > 0) {
		u32 c = q->tx_cqe_cons & q->tx_mask;

		cpu_read(q, q->l.tx_cqe + c, q->cfg.hide_stream);
		while (q->tx_cons != q->tx_cqe_end[c] && budget-- > 0) {
			struct page *page = q->tx_page[q->tx_cons & q->tx_mask];

			release_page(q, page);
			q->tx_cons++;
			q->cur->tx_done++;
			q->st.tx_completed++;
		}
		if (q->tx_cons == q->tx_cqe_end[c])
			q->tx_cqe_cons++;
	}
}

static void xdp_tx(struct rxq *q, struct page *page)
{
	u32 i = q->tx_prod & q->tx_mask;

	if (q->tx_prod - q->tx_cons == q->tx_mask + 1) {
		q->st.rx_xdp_tx_full++;
		release_page(q, page);
		return;
	}
	cpu_store(q, pkt_line(q, page, 0));	/* swap MAC addresses */
	cpu_store(q, q->l.tx_wqe + i);
	q->tx_page[i] = page;
	q->tx_prod++;
	q->cur->cycles += q->cfg.c_tx_pkt;
	q->st.rx_xdp_tx++;
}

/*
 * The stack's path (mlx5e_skb_from_cqe_linear): the skb takes a page
 * reference, so when the descriptor's page is released page_pool sees
 * refcount 2 and lets it go (released_refcnt); the page waits in the
 * socket until the reader frees it (reference 2.5).
 */
static void to_socket(struct rxq *q, struct page *page)
{
	page_ref_inc(page);
	cpu_store(q, spage_line(q, page));
	q->cur->cycles += q->cfg.c_rx_pkt + q->cfg.c_stack;
	release_page(q, page);
	BUG_ON(q->sk_tail - q->sk_head > q->sk_mask);
	q->sk[q->sk_tail++ & q->sk_mask] = page;
}

/* The reader, on the NAPI CPU after the softirq: recvmsg copies each
 * packet's payload from wherever its lines are into its own buffer and
 * frees the skb, which drops the page's last reference. */
static void read_socket(struct rxq *q)
{
	int lines = (q->cfg.payload + MEM_LINE - 1) / MEM_LINE;

	while (q->sk_head != q->sk_tail) {
		struct page *page = q->sk[q->sk_head++ & q->sk_mask];

		/* the first line waits; the rest of the copy streams */
		for (int k = 0; k < lines && k < q->pkt_lines; k++) {
			if (k == 0)
				cpu_read(q, pkt_line(q, page, k),
					 q->cfg.hide_random);
			else
				cpu_read_streaming(q, pkt_line(q, page, k),
						   q->cfg.copy_mlp);
			cpu_store(q, q->l.user + q->user_line++ %
					     USER_BUF_LINES);
		}
		q->cur->cycles += q->cfg.c_recv + q->cfg.c_copy * lines;
		q->cur->bytes_read += (u64)q->cfg.payload;
		q->st.bytes_read += (u64)q->cfg.payload;
		put_page(page);
	}
}

static void poll_rx_cq(struct rxq *q, int budget)
{
	while (q->cq_cons != q->cq_prod && budget-- > 0) {
		u32 i = q->cq_cons & q->rx_mask;
		struct page *page = q->rx_page[i];

		cpu_read(q, q->l.cqe + i, q->cfg.hide_stream);
		q->rx_page[i] = NULL;
		q->cq_cons++;
		if (page_to_nid(page) == numa_mem_id()) {
			q->cur->local_pkts++;
			q->st.pkts_local++;
		}
		/* the XDP program, or the stack, reads the headers */
		for (int k = 0; k < q->pkt_lines && k < 2; k++)
			cpu_read(q, pkt_line(q, page, k), q->cfg.hide_random);
		q->cur->rx++;
		q->st.rx_packets++;
		if (q->cfg.workload == RXQ_TCP) {
			to_socket(q, page);
			continue;
		}
		q->cur->cycles += q->cfg.c_rx_pkt + q->cfg.c_xdp;
		if (q->cfg.workload == RXQ_XDP_TX) {
			xdp_tx(q, page);
		} else {
			release_page(q, page);
			q->st.rx_xdp_drop++;
		}
	}
}

static void charge_page_pool(struct rxq *q, const struct pp_stats *a,
			     const struct pp_stats *b)
{
	const struct rxq_config *c = &q->cfg;

	/* the page allocator's own work is charged by page_hook() */
	q->cur->cycles +=
		c->c_pp_fast * (double)(b->alloc_fast - a->alloc_fast +
					b->recycle_cached - a->recycle_cached) +
		c->c_pp_ring * (double)(b->recycle_ring - a->recycle_ring +
					b->alloc_refill - a->alloc_refill);
}

void rxq_napi_poll(struct rxq *q, int core, struct rxq_poll *out)
{
	struct pp_stats before, after;

	memset(out, 0, sizeof(*out));
	q->core = core;
	q->cur = out;
	mm_set_hook(q->ctx->mm, page_hook, q);
	q->pol->stats(q->pool, &before);
	q->st.polls++;
	out->cycles += q->cfg.c_poll;
	cpu_read(q, q->l.state + ST_POOL, q->cfg.hide_random);

	poll_tx_cq(q);
	if (q->pol->driver_nid_check == PP_NID_AT_POLL)
		pp_nid_changed(q->pol, q->pool, numa_mem_id());
	poll_rx_cq(q, q->cfg.budget);
	out->busy = out->rx == q->cfg.budget ||
		    q->tx_cqe_cons != q->tx_cqe_prod;
	cpu_store(q, q->l.state + ST_CQ_DB);
	if (q->tx_prod != q->tx_db) {
		/* mlx5e_xmit_xdp_doorbell(): an MMIO write to the NIC */
		out->cycles += q->cfg.c_doorbell;
		if (numa_mem_id() != q->cfg.nic_node)
			out->stall += q->cfg.qpi_lat * q->cfg.store_exposure;
		cpu_store(q, q->l.state + ST_SQ_DB);
		q->tx_db = q->tx_prod;
	}
	if (q->pol->driver_nid_check == PP_NID_AT_REFILL)
		pp_nid_changed(q->pol, q->pool, numa_mem_id());
	refill(q);
	read_socket(q);

	q->pol->stats(q->pool, &after);
	charge_page_pool(q, &before, &after);
	mm_set_hook(q->ctx->mm, NULL, NULL);
	q->cur = NULL;
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

static u32 queue_held(const struct rxq *q)
{
	return (q->refilled - q->cq_cons) + (q->tx_prod - q->tx_cons) +
	       (q->pc_tail - q->pc_head);
}

u64 rxq_pages_held(const struct rxq *q)
{
	struct pp_contents c;

	q->pol->contents(q->pool, &c);
	/* pages in the socket left the pool: only the skb holds them */
	return (u64)queue_held(q) + c.cached + c.ring +
	       (q->sk_tail - q->sk_head);
}

int rxq_check(const struct rxq *q, char *why, size_t len)
{
	struct pp_contents c;
	struct pp_stats s;
	u32 held = queue_held(q);

	q->pol->contents(q->pool, &c);
	q->pol->stats(q->pool, &s);
	if ((u32)pp_inflight(&s) != held + c.cached + c.ring) {
		snprintf(why, len, "page_pool inflight %d (hold %u - release "
			 "%u) != %u held by the queue (rx ring %u, tx %u, page "
			 "cache %u) + %u in the pool (cache %u, ring %u)",
			 pp_inflight(&s), s.hold, s.release, held,
			 q->refilled - q->cq_cons, q->tx_prod - q->tx_cons,
			 q->pc_tail - q->pc_head, c.cached + c.ring, c.cached,
			 c.ring);
		return -1;
	}
	return 0;
}
