/* Pages that come back another way than the NAPI's own put: into a
 * cpumap, whose kthread makes them skbs; into a veth; in the skbs a reader
 * on another CPU frees; at the other port's send completions.  The queue
 * driven by hand (rxq_fixture.h), every page accounted after every step. */
#include "rxq_fixture.h"

/* The cpumap kthread's context: a CPU of node (2 cores a socket), bottom
 * halves disabled. */
static struct kctx consumer_ctx(int node)
{
	return (struct kctx){ .mm = um.mm, .cpu = 2 * node + 1, .node = node,
			      .softirq = true };
}

/* The consumer takes every frame waiting; returns its work. */
static struct mem_work consume_all(struct kctx *ctx)
{
	struct mem_work total = { 0 }, w;

	while (rxq_consumer_pending(q)) {
		ck_assert_int_gt(rxq_consume(q, ctx, &w), 0);
		total.cycles += w.cycles;
		total.stall += w.stall;
		check_pages();
	}
	return total;
}

static u64 spage_accesses(enum mem_place p)
{
	const struct mem_stats *ms = mem_stats(m);

	return ms->cpu_reads[MEM_STRUCT_PAGE][p] +
	       ms->cpu_writes[MEM_STRUCT_PAGE][p];
}

static u64 spage_remote(void)
{
	return spage_accesses(MEM_RCACHE) + spage_accesses(MEM_RDRAM);
}

/* XDP_REDIRECT into a cpumap, the kthread on the far node: 48 frames, in
 * pages of node 0, made skbs there and freed.  Before 6.4 each page is
 * released from the pool when its skb is built and the skb's free gives
 * it to the page allocator; 6.12 marks the skb for recycling and the free
 * puts the page into the ring, from the far CPU.  Either way the
 * consumer's struct page accesses cross the interconnect. */
static const struct cpumap_case {
	const char *era;
	bool recycles;		/* through the ring */
} cpumap_far[] = {
	{ "v5.4", false }, { "v5.5", false }, { "v6.1", false },
	{ "v6.12", true },
};

START_TEST(cpumap_far_returns_per_era)
{
	const struct cpumap_case *t = &cpumap_far[_i];
	struct kctx far;
	struct pp_stats a, b;
	struct mem_work w;
	u64 remote;

	open_queue(t->era, &workload_xdp_cpumap, 0);
	far = consumer_ctx(1);	/* on the machine open_queue() made */
	ck_assert_int_eq(rxq_attach(q, 1), 0);
	cycle(48);
	ck_expect(t->era, "frames waiting", rxq_consumer_pending(q), 48);
	pol->stats(rxq_pool(q), &a);
	remote = spage_remote();
	w = consume_all(&far);
	pol->stats(rxq_pool(q), &b);
	ck_expect(t->era, "frames consumed", rxq_stats(q)->consumed, 48);
	ck_expect(t->era, "of them off the consumer's node",
		  rxq_stats(q)->consumed_far, 48);
	ck_expect(t->era, "puts into the ring",
		  b.recycle_ring - a.recycle_ring, t->recycles ? 48 : 0);
	ck_expect(t->era, "direct recycles",
		  b.recycle_cached - a.recycle_cached, 0);
	ck_expect(t->era, "pages the pool let go", b.release - a.release,
		  t->recycles ? 0 : 48);
	ck_expect(t->era, "pages an skb freed", rxq_stats(q)->skb_page_free,
		  t->recycles ? 0 : 48);
	/* struct page: prefetchw, and the free's write (or the put) */
	ck_assert_msg(spage_remote() - remote >= 48, "%s: %llu remote struct "
		      "page accesses by the far consumer", t->era,
		      (unsigned long long)(spage_remote() - remote));
	ck_assert_msg(w.stall > 0, "%s: the far consumer never waited",
		      t->era);
	/* the pages come back to NAPI: from the ring, or from the page
	 * allocator (the ring stays empty) */
	cycle(48);
	pol->stats(rxq_pool(q), &a);
	ck_expect(t->era, "refills from the ring", a.alloc_refill > 0,
		  t->recycles);
	close_queue();
}
END_TEST

/* A close consumer touches no struct page of the other socket. */
START_TEST(cpumap_close_stays_local)
{
	struct kctx close;
	u64 remote;

	open_queue("v6.12", &workload_xdp_cpumap, 0);
	close = consumer_ctx(0);
	ck_assert_int_eq(rxq_attach(q, 0), 0);
	cycle(48);
	remote = spage_remote();
	consume_all(&close);
	ck_assert_int_eq(rxq_stats(q)->consumed, 48);
	ck_assert_int_eq(rxq_stats(q)->consumed_far, 0);
	ck_assert_int_eq(spage_remote() - remote, 0);
	close_queue();
}
END_TEST

/* A consumer that does not keep up: the ring (64 frames) fills, and the
 * frames beyond it are dropped and put back directly from NAPI. */
START_TEST(cpumap_full_ring_drops)
{
	struct pp_stats a, b;

	open_queue("v6.1", &workload_xdp_cpumap, 0);
	ck_assert_int_eq(rxq_attach(q, 1), 0);
	cycle(48);
	pol->stats(rxq_pool(q), &a);
	cycle(48);
	pol->stats(rxq_pool(q), &b);
	ck_assert_int_eq(rxq_consumer_pending(q), 64);
	ck_assert_int_eq(rxq_stats(q)->cpumap_drops, 32);
	ck_assert_int_eq(b.recycle_cached - a.recycle_cached, 32);
	close_queue();
}
END_TEST

/* XDP_REDIRECT into veth: the peer's NAPI, on this CPU, makes the frames
 * skbs and its stack frees them.  Before 6.4 no page comes back: every
 * refill is the page allocator's, one page a call in v5.4 and v5.5, 64
 * in bulk from 6.1 (5.13's alloc_pages_bulk); 6.12 recycles them
 * (skb_mark_for_recycle), directly while the channel's NAPI is scheduled
 * on this CPU. */
static const struct veth_case {
	const char *era;
	bool bulk;		/* slow-path calls take 64 pages */
	bool recycles;
} veth[] = {
	{ "v5.4", false, false }, { "v5.5", false, false },
	{ "v6.1", true, false }, { "v6.12", true, true },
};

START_TEST(veth_pages_leave_per_era)
{
	const struct veth_case *t = &veth[_i];
	struct pp_stats a, b;
	u64 allocated, calls;

	open_queue(t->era, &workload_xdp_veth, 0);
	cycle(48);
	pol->stats(rxq_pool(q), &a);
	cycle(48);
	cycle(48);
	pol->stats(rxq_pool(q), &b);
	allocated = b.hold - a.hold;
	calls = b.alloc_slow - a.alloc_slow;
	ck_expect(t->era, "pages the pool let go", b.release - a.release,
		  t->recycles ? 0 : 96);
	ck_expect(t->era, "pages an skb freed", rxq_stats(q)->skb_page_free,
		  t->recycles ? 0 : 144);
	if (t->recycles) {
		ck_expect(t->era, "pages allocated", allocated, 0);
		ck_expect(t->era, "direct recycles",
			  b.recycle_cached - a.recycle_cached > 0, true);
	} else if (t->bulk) {
		ck_assert_msg(allocated >= 96 && calls * 64 >= allocated &&
			      calls < allocated, "%s: %llu pages in %llu "
			      "slow-path calls", t->era,
			      (unsigned long long)allocated,
			      (unsigned long long)calls);
	} else {
		ck_expect(t->era, "pages allocated", allocated, 96);
		ck_expect(t->era, "slow-path calls", calls, 96);
	}
	close_queue();
}
END_TEST

/* A TCP reader on another CPU (2 cores a socket: CPU 3 on node 1, CPU 1
 * on node 0), in process context. */
static struct kctx reader_ctx(int node)
{
	return (struct kctx){ .mm = um.mm, .cpu = 2 * node + 1, .node = node,
			      .softirq = false };
}

/*
 * A TCP reader on the far node: 96 packets wait in its socket (pages of
 * node 0), it copies them all and frees the skbs, then NAPI polls once.
 * Before 5.19 it frees every skb itself, its page to the page allocator
 * from the far CPU (struct page written from there).  From 5.19 it hands
 * them back to NAPI's CPU, 64 at most (sysctl_skb_defer_max), and frees
 * the rest itself; the NAPI's next poll frees the 64 (6.1: to the page
 * allocator; 6.12, whose mlx5 marks skbs for recycling: directly into the
 * alloc cache, NAPI's own softirq), and 6.12's reader puts its own 32 into
 * the ring (process context).
 */
static const struct reader_case {
	const char *era;
	u64 deferred;		/* freed by the NAPI's poll */
	u64 reader_freed;	/* pages the reader gave the page allocator */
	u64 napi_freed;		/* and NAPI, from its defer list */
	u64 ring, cached;	/* puts into the ring, the cache */
} reader_far[] = {
	{ "v5.4", 0, 96, 0, 0, 0 },
	{ "v5.5", 0, 96, 0, 0, 0 },
	{ "v6.1", 64, 32, 64, 0, 0 },
	{ "v6.12", 64, 0, 0, 32, 64 },
};

START_TEST(tcp_reader_frees_per_era)
{
	const struct reader_case *t = &reader_far[_i];
	struct kctx far;
	struct pp_stats a, b;
	struct rxq_poll p;
	u64 remote, freed;

	open_queue(t->era, &workload_tcp, 0);
	far = reader_ctx(1);
	ck_assert_int_eq(rxq_attach(q, 1), 0);
	cycle(48);
	cycle(48);
	ck_expect(t->era, "skbs in the socket", rxq_consumer_pending(q), 96);
	ck_expect(t->era, "copied by NAPI's CPU", rxq_stats(q)->bytes_read, 0);
	pol->stats(rxq_pool(q), &a);
	remote = spage_remote();
	consume_all(&far);
	ck_expect(t->era, "bytes the reader copied",
		  rxq_stats(q)->bytes_read, 96 * 1448);
	ck_expect(t->era, "of them off the reader's node",
		  rxq_stats(q)->consumed_far, 96);
	ck_expect(t->era, "pages the reader gave the allocator",
		  rxq_stats(q)->skb_page_free, t->reader_freed);
	/* the reader writes struct page of each skb it frees itself */
	ck_expect(t->era, "remote struct page accesses by the reader",
		  spage_remote() - remote, 96 - t->deferred);
	freed = mm_node_stats(um.mm, 0)->freed;
	rxq_napi_poll(q, &um.ctx, &p);	/* net_rx_action: defer list */
	rxq_post(q);
	check_pages();
	pol->stats(rxq_pool(q), &b);
	ck_expect(t->era, "skbs freed from the defer list",
		  rxq_stats(q)->skb_defer, t->deferred);
	ck_expect(t->era, "pages NAPI gave the allocator",
		  rxq_stats(q)->skb_page_free - t->reader_freed, t->napi_freed);
	freed = mm_node_stats(um.mm, 0)->freed - freed;
	ck_expect(t->era, "page allocator frees on the poll",
		  freed >= t->napi_freed, true);
	ck_expect(t->era, "puts into the ring",
		  b.recycle_ring - a.recycle_ring, t->ring);
	ck_expect(t->era, "direct recycles",
		  b.recycle_cached - a.recycle_cached, t->cached);
	close_queue();
}
END_TEST

/* A reader behind: its socket (16 skbs) fills, and NAPI drops the 80
 * packets that come after, freeing each in its softirq: 6.12 puts the
 * page directly into the alloc cache. */
START_TEST(tcp_full_socket_drops)
{
	struct pp_stats a, b;

	sock_skbs = 16;
	open_queue("v6.12", &workload_tcp, 0);
	sock_skbs = 128;
	ck_assert_int_eq(rxq_attach(q, 1), 0);
	pol->stats(rxq_pool(q), &a);
	cycle(48);
	cycle(48);
	pol->stats(rxq_pool(q), &b);
	ck_assert_int_eq(rxq_consumer_pending(q), 16);
	ck_assert_int_eq(rxq_stats(q)->sock_drops, 80);
	ck_assert_int_eq(b.recycle_cached - a.recycle_cached, 80);
	ck_assert_int_eq(b.recycle_ring - a.recycle_ring, 0);
	close_queue();
}
END_TEST

/*
 * XDP_REDIRECT out of the other port, whose NAPI is on the far node: 48
 * frames sent, their completions polled there, and each page put back
 * from there.  Every era puts into the ring, 6.12 too: a put from a CPU
 * that does not poll the pool's NAPI is not direct.  (Out of the same
 * port 6.12 puts them directly: redirect_returns_through_the_ring.)
 */
static const char *const port_far[] = { "v5.4", "v5.5", "v6.1", "v6.12" };

/* struct page and packet lines a CPU found on the other socket */
static u64 remote_lines(void)
{
	const struct mem_stats *ms = mem_stats(m);

	return spage_remote() + ms->cpu_reads[MEM_PKT][MEM_RCACHE] +
	       ms->cpu_reads[MEM_PKT][MEM_RDRAM];
}

/* The NIC sends what the queue handed over: a step for the reads. */
static void nic_sends(void)
{
	struct pcie_traffic t = { { { 0 } } };

	for (int i = 0; i < 4; i++) {
		rxq_nic_tx(q, now, &t);
		now += STEP;
	}
}

START_TEST(other_port_far_returns_to_the_ring)
{
	const char *era = port_far[_i];
	struct kctx far = { 0 };
	struct pp_stats a, b;
	struct mem_work w, total = { 0 };
	u64 remote;
	int polls = 0;

	redirect_port = RXQ_PORT_OTHER;
	open_queue(era, &workload_xdp_redirect, 0);
	redirect_port = RXQ_PORT_SAME;
	far = (struct kctx){ .mm = um.mm, .cpu = 3, .node = 1,
			     .softirq = true };
	ck_assert_int_eq(rxq_attach_port(q, 1), 0);
	pol->stats(rxq_pool(q), &a);
	cycle(48);
	nic_sends();
	ck_expect(era, "completions the queue's NAPI left",
		  rxq_consumer_pending(q) > 0, true);
	remote = remote_lines();
	while (rxq_consumer_pending(q)) {
		rxq_consume(q, &far, &w);
		total.stall += w.stall;
		polls++;
		check_pages();
	}
	pol->stats(rxq_pool(q), &b);
	ck_expect(era, "frames sent and completed", rxq_stats(q)->tx_completed,
		  48);
	ck_expect(era, "returned by the far NAPI", rxq_stats(q)->consumed, 48);
	ck_expect(era, "of them off its node", rxq_stats(q)->consumed_far, 48);
	ck_expect(era, "puts into the ring", b.recycle_ring - a.recycle_ring,
		  48);
	ck_expect(era, "direct recycles", b.recycle_cached - a.recycle_cached,
		  0);
	/* each frame's line read back from the far node */
	ck_assert_msg(remote_lines() - remote >= 48 && total.stall > 0,
		      "%s: the far NAPI read no remote line", era);
	close_queue();
}
END_TEST

/*
 * The other port's NAPI on the queue's own CPU polls after the queue's,
 * in its softirq: 6.12 puts directly while the pool's NAPI is still
 * scheduled (it used its budget of 16: the first polls of 48 packets), to
 * the ring after; the other eras put every frame into the ring.
 */
static const struct {
	const char *era;
	bool direct;		/* some puts direct */
} port_same_cpu[] = {
	{ "v5.4", false }, { "v5.5", false }, { "v6.1", false },
	{ "v6.12", true },
};

START_TEST(other_port_same_cpu_per_era)
{
	const char *era = port_same_cpu[_i].era;
	struct pp_stats a, b;

	redirect_port = RXQ_PORT_OTHER;
	open_queue(era, &workload_xdp_redirect, 0);
	redirect_port = RXQ_PORT_SAME;
	pol->stats(rxq_pool(q), &a);
	cycle(48);
	cycle(48);
	pol->stats(rxq_pool(q), &b);
	ck_expect(era, "frames completed", rxq_stats(q)->tx_completed, 96);
	ck_expect(era, "put back, all of them",
		  b.recycle_ring - a.recycle_ring + b.recycle_cached -
		  a.recycle_cached, 96);
	ck_expect(era, "some put directly", b.recycle_cached > a.recycle_cached,
		  port_same_cpu[_i].direct);
	ck_expect(era, "some into the ring", b.recycle_ring > a.recycle_ring,
		  true);
	close_queue();
}
END_TEST

/* A new era must get a row in every table, or those tests skip it. */
START_TEST(every_era_in_every_table)
{
	static const struct unit_table tables[] = {
		UNIT_TABLE(cpumap_far), UNIT_TABLE(veth),
		UNIT_TABLE(reader_far), UNIT_TABLE(port_same_cpu),
		UNIT_TABLE(port_far),
	};

	unit_tables_cover_eras(tables, ARRAY_SIZE(tables));
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ every_era_in_every_table, UNIT_ONCE },
		{ cpumap_far_returns_per_era, ARRAY_SIZE(cpumap_far) },
		{ cpumap_close_stays_local, UNIT_ONCE },
		{ cpumap_full_ring_drops, UNIT_ONCE },
		{ veth_pages_leave_per_era, ARRAY_SIZE(veth) },
		{ tcp_reader_frees_per_era, ARRAY_SIZE(reader_far) },
		{ tcp_full_socket_drops, UNIT_ONCE },
		{ other_port_far_returns_to_the_ring, ARRAY_SIZE(port_far) },
		{ other_port_same_cpu_per_era, ARRAY_SIZE(port_same_cpu) },
	};

	return unit_main("returns", tests, ARRAY_SIZE(tests), NULL, NULL);
}
