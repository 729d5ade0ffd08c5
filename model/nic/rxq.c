/*
 * The queue: a channel of a NIC model (nic_model.h) as sim/ and the
 * workloads see it (rxq.h).  What every NIC's channel has is here: the
 * page_pool, the NAPI, the workload and its socket, the page lines, the
 * accounting of a poll's and a consumer's work; the rest each function
 * asks of the channel's NIC through its table.
 */
#include <stdlib.h>
#include <string.h>
#include "nic_model.h"
#include "../workload/workload.h"

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

/* The line of skb_shared_info's head, at the end of the frame's 4 KiB
 * (build_skb_around writes it, the skb's free reads it). */
static u32 shinfo_line(const struct rxq *q, const struct page *page)
{
	return frame_line(q, page) + MEM_PAGE_LINES - 5;
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

/* ---- open and close ---- */

/* A queue of cfg's NIC, its state zeroed and what it shares set. */
static struct rxq *rxq_alloc(const struct rxq_config *cfg, struct mem *m,
			     const struct rxq_pages *pages,
			     const struct pp_policy *pol, int node)
{
	struct rxq *q = calloc(1, sizeof(*q) + cfg->nic->priv_size);

	if (!q)
		return NULL;
	q->nic = cfg->nic;
	q->cfg = *cfg;
	q->wl = cfg->workload;
	q->pg = pages;
	q->pol = pol;
	q->era = kernel_era_of(pol);
	q->m = m;
	q->node = node;
	q->pkt_lines = (cfg->pkt_size + MEM_LINE - 1) / MEM_LINE;
	q->napi.list_owner = -1;
	return q;
}

struct rxq *rxq_open(const struct rxq_config *cfg, struct mem *m,
		     struct pcie *pcie, const struct rxq_pages *pages,
		     const struct pp_policy *pol, struct kctx *ctx,
		     const char **err)
{
	struct rxq *q = rxq_alloc(cfg, m, pages, pol, ctx->node);
	struct pp_params pp = { ctx->node, (unsigned int)cfg->rx_ring,
				q ? &q->napi : NULL };
	struct mem_work opening;	/* what opening costs: not counted */
	struct kctx *prev;
	int failed;

	if (!q) {
		*err = "out of memory";
		return NULL;
	}
	/* the NIC's objects, then the workload's last */
	if (q->nic->open(q, pcie) || (q->wl->open && q->wl->open(q))) {
		*err = mem_error(m) ? mem_error(m) : "out of memory";
		rxq_free(q);
		return NULL;
	}
	prev = kctx_enter(ctx);
	if (pol->create(&pp, &q->pool)) {
		kctx_leave(prev);
		rxq_free(q);
		*err = "page_pool_create failed";
		return NULL;
	}
	mem_work_init(&opening, m, &q->cfg.overlap, ctx->cpu);
	q->cpu = &opening;
	failed = q->nic->fill(q, err);
	q->cpu = NULL;
	kctx_leave(prev);
	if (failed) {
		rxq_free(q);
		return NULL;
	}
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
	q->nic->free(q);
	free(q);
}

bool rxq_xdp(const struct rxq_config *cfg)
{
	return cfg->workload->xdp;
}

/* One poll's packets at most wait in the socket. */
int rxq_open_socket(struct rxq *q)
{
	q->sk = tcp_open(&q->cfg.tcp, q->m, q->node, q->cfg.pkt_size,
			 (unsigned int)q->cfg.rx_ring);
	q->sk_limit = (u32)q->cfg.rx_ring;
	return q->sk ? 0 : -1;
}

/* ---- the NIC ---- */

int rxq_nic_free(const struct rxq *q)
{
	return q->nic->nic_free(q);
}

int rxq_nic_rx(struct rxq *q, int n, double now, struct pcie_traffic *t)
{
	return q->nic->nic_rx(q, n, now, t);
}

int rxq_nic_tx(struct rxq *q, double now, struct pcie_traffic *t)
{
	return q->nic->nic_tx(q, now, t);
}

double rxq_nic_next(const struct rxq *q)
{
	return q->nic->nic_next(q);
}

bool rxq_nic_blocked(const struct rxq *q)
{
	return q->nic->nic_blocked(q);
}

void rxq_nic_drop(struct rxq *q, u64 n)
{
	q->st.rx_out_of_buffer += n;
}

int rxq_pending(const struct rxq *q)
{
	return q->nic->pending(q);
}

/* ---- NAPI ---- */

void rxq_poll_start(struct rxq *q)
{
	if (q->wl->poll_start)
		q->wl->poll_start(q);
}

/* The XDP program on the packet at line, before its verdict (the
 * workload's rx). */
static void xdp_program(struct rxq *q, u32 line)
{
	if (q->cfg.touch != RXQ_TOUCH_NONE)
		rxq_read_headers(q, line, q->cpu->ov->win_random);
	q->cpu->cycles += q->cfg.cost.rx_pkt + q->cfg.cost.xdp;
	if (q->cfg.touch == RXQ_TOUCH_WRITE)	/* swap MAC addresses */
		mem_work_store(q->cpu, line);
}

void rxq_rx(struct rxq *q, struct page *page, u32 line)
{
	if (q->wl->xdp)
		xdp_program(q, line);
	q->wl->rx(q, page);
}

void rxq_rx_done(struct rxq *q, struct rxq_poll *out)
{
	if (q->wl->rx_done)
		q->wl->rx_done(q, out);
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
	q->nic->poll(q, out);
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
	q->nic->post(q);
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
	return q->nic->held(q) + (q->wl->held ? q->wl->held(q) : 0) +
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
	return q->nic->attach_port(q, node);
}

void rxq_port_poll(struct rxq *q, struct rxq_poll *out)
{
	q->nic->port_poll(q, out);
}

bool rxq_port_remote(const struct rxq *q)
{
	return q->port_remote;
}

u32 rxq_port_pending(const struct rxq *q)
{
	return q->nic->port_pending(q);
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

/* The XDP program, or the stack, reads the headers: the first two lines
 * at most, from the packet's first line, win cycles of work after the
 * driver's prefetch. */
void rxq_read_headers(struct rxq *q, u32 line, double win)
{
	mem_work_read_lines(q->cpu, line,
			    q->pkt_lines < 2 ? q->pkt_lines : 2, win);
}

void rxq_release_page(struct rxq *q, struct page *page)
{
	q->nic->release_page(q, page);
}

void rxq_pool_put(struct rxq *q, struct page *page, bool direct)
{
	/* a page the driver split into fragments goes back with its last
	 * (page_pool_put_page: page_pool_unref_and_test) */
	if (pp_unref_page(page, 1))
		return;
	q->pol->put(q->pool, page, direct);
}

void rxq_xmit(struct rxq *q, struct page *page, bool frame)
{
	q->nic->xmit(q, page, frame);
}

void rxq_redirect_frame(struct rxq *q, struct page *page)
{
	q->nic->redirect_frame(q, page);
}

u32 rxq_skb_slots(struct rxq *q, int node)
{
	return mem_region(q->m, node, MEM_STATE,
			  RXQ_SKB_SLOTS * RXQ_SKB_LINES);
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

/* A page a consumer CPU took (the cpumap kthread, the reader on app_cpu,
 * the other port's NAPI), in its context: counted, and whether it lives
 * off that CPU's node. */
void rxq_consumer_took(struct rxq *q, struct page *page)
{
	q->st.consumed++;
	if (page_to_nid(page) != numa_mem_id())
		q->st.consumed_far++;
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
	return q->softnet;
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
