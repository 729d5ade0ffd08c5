/*
 * A TCP stream (model/stack/tcp.h): no XDP program; the driver builds an
 * skb of each packet and the stack queues it on the channel's socket.
 * The reader copies the payloads out on the NAPI's CPU after each poll,
 * or, attached, on a CPU of its own (app_cpu), which hands the skbs back
 * to the NAPI's CPU to free where its era does.
 */
#include <stdlib.h>
#include "workload.h"

/* net/core/dev.c (6.1, 6.12): sysctl_skb_defer_max, skbs a CPU's defer
 * list holds */
#define SKB_DEFER_MAX		64
/* What one pass of a reader on another CPU copies: one recvmsg into its
 * 64 KiB buffer (tcp.c's; the buffer's size is the model's guess) */
#define READER_PASS		65536

struct reader {
	bool remote;		/* the reader on another CPU */
	/* skbs that reader handed back (skb_attempt_defer_free), for this
	 * channel's NAPI to free: softnet_data's defer list, the lines of
	 * its lock and head in the channel's state */
	struct defer {
		struct tcp_frag f[TCP_MAX_FRAGS];
		int nr;
	} defer[SKB_DEFER_MAX];
	int defer_n;
};

static int tcp_wl_open(struct rxq *q)
{
	struct reader *r = calloc(1, sizeof(*r));

	rxq_set_workload_state(q, r);
	return r ? 0 : -1;
}

static void tcp_wl_close(struct rxq *q)
{
	free(rxq_workload_state(q));
}

/*
 * A TCP skb's free, on the CPU running the queue's work, in its context
 * (skb_release_data): a skb marked for recycling puts its page into the
 * pool (skb_pp_recycle -> napi_pp_put_page, without allow_direct: 6.12's
 * put is direct only in softirq on the CPU polling the pool's NAPI), and
 * writes struct page doing so (pp_ref_count); else the pool let the page
 * go at the driver's release and the skb's free gives it to the page
 * allocator (skb_free_head), whose page hook writes struct page.
 */
static void skb_free_page(struct rxq *q, struct page *page)
{
	if (rxq_era(q)->driver.rx_skb_recycle) {
		mem_work_store(rxq_work(q), rxq_spage_line(q, page));
		rxq_pool_put(q, page, false);
		return;
	}
	rxq_counters(q)->skb_page_free++;
	put_page(page);
}

/* An skb's free: each page it holds (skb_release_data: its head's, or
 * each fragment's). */
static void skb_free(struct rxq *q, const struct tcp_frag *f, int nr)
{
	for (int i = 0; i < nr; i++)
		skb_free_page(q, f[i].page);
}

/*
 * The reader frees an skb it copied (tcp_eat_recv_skb).  From 5.19 a
 * reader on another CPU than the one that built the skb hands it back
 * there (skb_attempt_defer_free, 6.1 and 6.12 net/core/skbuff.c): into
 * that CPU's defer list under its spin lock (cost.pp_lock's figure, a
 * spin lock taken and released), unless the list holds SKB_DEFER_MAX
 * already; then, as before 5.19, it frees the skb itself.  The IPI sent
 * when the list reaches half of that is not modelled: the list is freed
 * at the NAPI's next poll (defer_flush), which at these rates comes
 * within a poll's time.  The skb's own lines are not modelled (as for
 * the reader on the NAPI's CPU): cost.recv holds its free's cycles, on
 * the reader.
 */
static void reader_free(void *arg, const struct tcp_frag *f, int nr,
			int cpu)
{
	struct rxq *q = arg;
	struct reader *r = rxq_workload_state(q);

	if (r->remote)
		rxq_consumer_took(q, f[0].page);
	if (rxq_era(q)->stack.skb_defer_free && cpu != smp_processor_id() &&
	    r->defer_n < SKB_DEFER_MAX) {
		struct defer *d = &r->defer[r->defer_n++];

		rxq_work(q)->cycles += rxq_cfg(q)->cost.pp_lock;
		mem_work_store(rxq_work(q), rxq_softnet_line(q));
		for (int i = 0; i < nr; i++)
			d->f[i] = f[i];
		d->nr = nr;
		return;
	}
	skb_free(q, f, nr);
}

/* net_rx_action() frees the skbs readers handed back before it polls
 * (skb_defer_free_flush: napi_consume_skb), in the softirq of the
 * channel's NAPI, which is scheduled on this CPU. */
static void defer_flush(struct rxq *q)
{
	struct reader *r = rxq_workload_state(q);

	if (!r->defer_n)
		return;
	rxq_work(q)->cycles += rxq_cfg(q)->cost.pp_lock;
	mem_work_store(rxq_work(q), rxq_softnet_line(q));
	for (int i = 0; i < r->defer_n; i++) {
		skb_free(q, r->defer[i].f, r->defer[i].nr);
		rxq_counters(q)->skb_defer++;
	}
	r->defer_n = 0;
}

/*
 * A striding RQ's non-linear skb (mlx5e_skb_from_cqe_mpwrq_nonlinear:
 * the headers copied into the skb's head, the payload's pages added as
 * fragments, mlx5e_fill_skb_data): before 6.4 a page reference on each
 * (mlx5e_add_skb_frag: page_ref_inc), 6.12 a page_pool fragment of each
 * (frag_page->frags++, the RQ's to count: mpwqe.c).  struct page is
 * written either way (the skb's frag, the page's refcount or pp_ref).
 */
static void take_frags(struct rxq *q, const struct tcp_frag *f, int nr,
		       bool ref)
{
	for (int i = 0; i < nr; i++) {
		if (ref)
			page_ref_inc(f[i].page);
		mem_work_store(rxq_work(q), rxq_spage_line(q, f[i].page));
	}
}

/*
 * The stack's path (mlx5e_skb_from_cqe_linear); the driver's rx work and
 * the stack's receive are charged here together.  Until 6.4 the skb takes
 * a page reference, so when the descriptor's page is released page_pool
 * sees refcount 2 and lets it go (released_refcnt; 5.5 and 6.1 en_rx.c
 * mlx5e_skb_from_cqe_linear, page_pool_put_page).  6.12's mlx5 holds the
 * page as page_pool fragments (mlx5e_page_alloc_fragmented: a bias of
 * MLX5E_PAGECNT_BIAS_MAX), gives the skb one and marks it for recycling,
 * and drops the rest of its bias at the refill of the descriptor
 * (mlx5e_refill_rx_wqes, this poll's end): the skb holds the page's last
 * fragment.  The model gives the pool no fragment counts: the driver's
 * release is its unmap alone, and the skb's free is the page's put.  A
 * full socket (a reader on another CPU behind) drops the skb here, in
 * NAPI (tcp_data_queue: TCPRcvQDrop).  Its sender would have stopped at
 * the closed window instead; the model's sender does not see the window.
 */
static void tcp_wl_rx(struct rxq *q, struct page *page)
{
	const struct rxq_config *c = rxq_cfg(q);
	struct mem_work *w = rxq_work(q);
	bool recycle = rxq_era(q)->driver.rx_skb_recycle;
	const struct tcp_frag *f;
	int nr = rxq_rx_frags(q, &f);

	rxq_read_headers(q, rxq_rx_line(q), w->ov->win_stack);
	if (nr)
		take_frags(q, f, nr, !recycle);
	else if (!recycle)
		page_ref_inc(page);
	if (!nr)
		mem_work_store(w, rxq_spage_line(q, page));
	w->cycles += c->cost.rx_pkt + c->tcp.c_stack;
	if (recycle) {
		mem_work_read_random(w, rxq_spage_line(q, page));
		w->cycles += c->cost.dma_map / 2;	/* unmap */
	} else {
		rxq_release_page(q, page);
	}
	if (tcp_queued(rxq_socket(q)) >= rxq_socket_limit(q)) {
		rxq_counters(q)->sock_drops++;
		if (nr)
			skb_free(q, f, nr);
		else
			skb_free_page(q, page);
		return;
	}
	if (nr)
		tcp_receive_frags(rxq_socket(q), f, nr, smp_processor_id());
	else
		tcp_receive(rxq_socket(q), page, rxq_rx_line(q),
			    smp_processor_id());
}

/* The reader, on the NAPI CPU after the softirq: in process context, the
 * poll over. */
static void tcp_wl_poll_end(struct rxq *q, struct kctx *ctx,
			    struct rxq_poll *out)
{
	struct reader *r = rxq_workload_state(q);

	if (r->remote)
		return;
	rxq_napi_owner(q, -1);
	ctx->softirq = false;
	out->bytes_read = tcp_read(rxq_socket(q), rxq_work(q), UINT64_MAX,
				   reader_free, q);
	ctx->softirq = true;
	rxq_counters(q)->bytes_read += out->bytes_read;
}

/* The reader on a CPU of node: an empty socket, its buffer there. */
static int tcp_wl_attach(struct rxq *q, int node)
{
	struct reader *r = rxq_workload_state(q);
	u32 limit = (u32)(rxq_cfg(q)->tcp.rmem / TCP_TRUESIZE);

	if (limit < 1)
		limit = 1;
	if (rxq_socket_reopen(q, node, limit))
		return -1;
	r->remote = true;
	return 0;
}

static u32 tcp_wl_pending(const struct rxq *q)
{
	return tcp_queued(rxq_socket(q));
}

/* The reader on its own CPU: one tcp_recvmsg() into its buffer,
 * READER_PASS bytes at most. */
static int tcp_wl_consume(struct rxq *q)
{
	u64 bytes = tcp_read(rxq_socket(q), rxq_work(q), READER_PASS,
			     reader_free, q);

	rxq_counters(q)->bytes_read += bytes;
	return (int)(bytes / (u64)(rxq_cfg(q)->pkt_size - TCP_HEADERS));
}

/* Whether an skb's page is the skbs' to account for: 6.4 on, every page
 * an skb holds (the pool's, handed out); before, once page_pool let it
 * go (page_pool_release_page clears page->pp), as long as the driver
 * holds it too (a striding RQ's WQE not released, the page cache) its
 * holder counts it. */
static bool skbs_count(const struct rxq *q, const struct page *page)
{
	return rxq_era(q)->driver.rx_skb_recycle || !page->pp;
}

/* The pages of the defer list's skbs, then the socket's, skb i from 0:
 * in the order NAPI built them.  Sets *f, returns how many. */
static int skb_frags(const struct rxq *q, const struct reader *r,
		     unsigned int i, const struct tcp_frag **f)
{
	if (i < (unsigned int)r->defer_n) {
		*f = r->defer[i].f;
		return r->defer[i].nr;
	}
	return tcp_queued_frags(rxq_socket(q), i - (unsigned int)r->defer_n,
				f);
}

/*
 * The skbs' pages: in the defer list and the socket, each page once.  A
 * striding RQ puts several packets in a page (mlx5e_skb_from_cqe_mpwrq_
 * linear), whose skbs follow one another in both (a page is used again
 * only when the last of them has let it go), so a page is counted at the
 * last skb of its run.
 */
static u32 tcp_wl_skbs(const struct rxq *q)
{
	const struct reader *r = rxq_workload_state(q);
	unsigned int n = tcp_queued(rxq_socket(q)) + (unsigned int)r->defer_n;
	struct page *last = NULL;
	u32 pages = 0;

	/* each page where its run ends: at the next skb's first page */
	for (unsigned int i = 0; i < n; i++) {
		const struct tcp_frag *f;
		int nr = skb_frags(q, r, i, &f);

		for (int k = 0; k < nr; k++) {
			if (last && f[k].page != last && skbs_count(q, last))
				pages++;
			last = f[k].page;
		}
	}
	if (last && skbs_count(q, last))
		pages++;
	return pages;
}

static const struct key tcp_keys[] = {
	WORKLOAD_KEY("tcp_rmem", KEY_INT, KEY_SIZE, tcp.rmem, "6M", 4096,
		     1 << 30, "B", "tcp with app_cpu: bytes of skbs (truesize, "
		     "4352 a packet of the model) the socket holds; the NAPI "
		     "drops what finds it full.  tcp_rmem[2], to which receive "
		     "autotuning grows a bulk stream's buffer (6.1 "
		     "net/ipv4/tcp.c tcp_init: 6 MiB)",
		     "the socket of a reader on app_cpu (workload = tcp)"),
};

/* The socket's bound is the reader's on app_cpu: on the NAPI's CPU the
 * reader empties it after each poll. */
static bool tcp_wl_uses(const struct workload_case *c)
{
	return c->workload == &workload_tcp && c->far_apart;
}

static void tcp_wl_check(const struct workload_case *c, key_say *say,
			 void *ctx)
{
	if (c->rxq->pkt_size <= TCP_HEADERS)
		say(ctx, "case.pkt_size", "a TCP packet of %d bytes carries no "
		    "payload (its Ethernet, IP and TCP headers take %d)",
		    c->rxq->pkt_size, TCP_HEADERS);
}

static long long tcp_wl_far_pages(const struct workload_case *c,
				  const char **key)
{
	*key = "case.tcp_rmem";
	return c->far_apart ? c->rxq->tcp.rmem / TCP_TRUESIZE : 0;
}

/* the core keys only some workloads read that it reads (workload.h) */
static const char *const tcp_reads[] = {
	"cost.stack", "cost.recv", "cost.copy", "model.win_stack",
	"model.copy_mlp", NULL,
};

const struct workload_ops workload_tcp = {
	.name = "tcp",
	.title = "TCP",
	.doc = "a stream read on the NAPI CPU, or on app_cpu; rate in Gbps "
	       "of payload",
	.rate_unit = "Gbps",
	.far = WORKLOAD_FAR_READER,
	.open = tcp_wl_open,
	.close = tcp_wl_close,
	.poll_start = defer_flush,
	.rx = tcp_wl_rx,
	.poll_end = tcp_wl_poll_end,
	.attach = tcp_wl_attach,
	.pending = tcp_wl_pending,
	.consume = tcp_wl_consume,
	.skbs = tcp_wl_skbs,
	.keys = tcp_keys,
	.nr_keys = sizeof(tcp_keys) / sizeof(tcp_keys[0]),
	.keys_after = "app_cpu",
	.uses = tcp_wl_uses,
	.check = tcp_wl_check,
	.far_pages = tcp_wl_far_pages,
	.reads = tcp_reads,
};
