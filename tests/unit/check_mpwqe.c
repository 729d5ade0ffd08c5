/* The mlx5 striding RQ (model/nic/mlx5/mpwqe.c) driven by hand, as
 * check_rxq.c drives the legacy RQ: its strides, its descriptor reads,
 * the pages of its ring and how each era gives them back. */
#include "model/nic/mlx5/mlx5.h"
#include "rxq_fixture.h"

/* en/params.c's layout of a WQE of 256 KiB: with XDP a page a packet up
 * to the largest linear MTU (and past it: 6.12's multi-buffer XDP, which
 * the model refuses); without, the linear size (headroom 64, hw_mtu =
 * mtu + 22, skb_shared_info 320) rounded up to a power of 2, two packets
 * a page at MTU 1500; past a page, 256-byte strides and as many as a
 * packet needs.  The ring counts a WQE for its linear strides whatever
 * they are (mlx5e_mpwqe_log_pkts_per_wqe): at MTU 9000, 16 (9408 bytes
 * rounded up to 16 KiB), so that a ring of 1024 is 64 WQEs (V6). */
static const struct {
	int mtu;
	bool xdp;
	int pkt_size;
	int stride, pkts, ring_pkts;
	bool linear;
} geometry[] = {
	{ 1500, true, 60, 4096, 64, 64, true },
	{ 3498, true, 60, 4096, 64, 64, true },	/* mlx5e_xdp_max_mtu */
	{ 3499, true, 60, 4096, 64, 32, false },
	{ 1500, false, 1514, 2048, 128, 128, true }, /* 1586 + 320 = 1920 */
	{ 3000, false, 1514, 4096, 64, 64, true },
	{ 9000, false, 60, 256, 1024, 16, false },
	{ 9000, false, 1514, 256, 170, 16, false }, /* 6 strides a packet */
	{ 9000, false, 9014, 256, 28, 16, false },  /* 36 strides */
};

START_TEST(strides_of_an_mtu)
{
	struct mpwqe_geometry g;

	mpwqe_geometry(geometry[_i].mtu, geometry[_i].xdp,
		       geometry[_i].pkt_size, &g);
	ck_assert_msg(g.stride == geometry[_i].stride && g.pkts ==
		      geometry[_i].pkts && g.linear == geometry[_i].linear &&
		      g.ring_pkts == geometry[_i].ring_pkts && g.pages == 64,
		      "mtu %d xdp %d pkt %d: stride %d pkts %d ring_pkts %d "
		      "linear %d pages %d", geometry[_i].mtu, geometry[_i].xdp,
		      geometry[_i].pkt_size, g.stride, g.pkts, g.ring_pkts,
		      g.linear, g.pages);
}
END_TEST

/* Offers rounds of 64 packets, each handled before the next. */
static int rounds(int n)
{
	int rx = 0;

	for (int i = 0; i < n; i++)
		rx += cycle(64).rx;
	return rx;
}

/*
 * 512 packets through a ring of 256: the legacy RQ reads its descriptors
 * wqe_fetch (4) at a time, 128 reads; the striding RQ reads one WQE for
 * the 64 packets of its strides, 8 reads: a packet's share falls by the
 * strides a WQE has over wqe_fetch, 16.
 */
START_TEST(wqe_reads_per_packet)
{
	u64 legacy, striding;

	ring_size = 256;
	open_queue("v6.1", &workload_xdp_drop, 0);
	ck_assert_int_eq(rounds(8), 512);
	legacy = rxq_stats(q)->rx_wqe_reads;
	close_queue();
	rq_type = MLX5_RQ_STRIDING;
	open_queue("v6.1", &workload_xdp_drop, 0);
	ck_assert_int_eq(rounds(8), 512);
	striding = rxq_stats(q)->rx_wqe_reads;
	close_queue();
	rq_type = MLX5_RQ_LEGACY;
	ring_size = 64;
	ck_assert_msg(legacy == 512 / 4 && striding == 512 / 64,
		      "rx descriptor reads: legacy %llu, striding %llu",
		      (unsigned long long)legacy,
		      (unsigned long long)striding);
}
END_TEST

/*
 * A ring of 1024 packets is 16 WQEs of 64 pages, of which the list posts
 * 15 (mlx5_wq_ll_missing): 960 pages from the page allocator, every era.
 * XDP_DROP then gives each WQE's 64 pages back at once when NAPI has
 * handled its last stride, and the refill takes them again from the
 * pool's cache: 512 packets, 512 puts, no new page.
 */
START_TEST(ring_pages_and_their_puts)
{
	const char *era = pp_eras[_i]->name;
	struct pp_stats st;
	u64 puts;

	rq_type = MLX5_RQ_STRIDING;
	ring_size = 1024;
	open_queue(era, &workload_xdp_drop, 0);
	ck_assert_int_eq(rxq_pages_handed(q), 960);
	ck_assert_int_eq(rounds(8), 512);
	pol->stats(rxq_pool(q), &st);
	puts = st.recycle_cached + st.recycle_ring;
	ck_assert_msg(puts == 512 && st.hold == 960 &&
		      rxq_pages_handed(q) == 960, "%s: %llu puts, %u pages "
		      "taken, %u handed", era, (unsigned long long)puts,
		      st.hold, rxq_pages_handed(q));
	close_queue();
	rq_type = MLX5_RQ_LEGACY;
	ring_size = 64;
}
END_TEST

/*
 * XDP_TX keeps its page past its WQE's release: 6.1 leaves it to the send
 * completion (xdp_xmit_bitmap), 6.12 drains the WQE's 63 other fragments
 * and the completion puts the last.  Either way each page goes back once,
 * after both, and every page is accounted after every poll (cycle()).
 */
START_TEST(xdp_tx_pages_back_once)
{
	const char *era = pp_eras[_i]->name;
	struct pp_stats st;
	u64 puts;

	rq_type = MLX5_RQ_STRIDING;
	ring_size = 256;
	open_queue(era, &workload_xdp_tx, 0);
	ck_assert_int_eq(rounds(8), 512);
	ck_assert_int_eq(rxq_stats(q)->tx_completed, 512);
	pol->stats(rxq_pool(q), &st);
	puts = st.recycle_cached + st.recycle_ring + st.recycle_ring_full +
	       st.recycle_released_refcnt;
	ck_assert_msg(puts == 512, "%s: %llu puts for 512 packets", era,
		      (unsigned long long)puts);
	close_queue();
	rq_type = MLX5_RQ_LEGACY;
	ring_size = 64;
}
END_TEST

/* A reader on the far node (its socket holds 256 skbs), which reads
 * nothing until the test says. */
static void far_reader(void)
{
	sock_skbs = 256;
	rq_type = MLX5_RQ_STRIDING;
}

static void read_all(void)
{
	struct kctx far = { .mm = um.mm, .cpu = 3, .node = 1 };
	struct mem_work w;

	while (rxq_consumer_pending(q)) {
		ck_assert_int_gt(rxq_consume(q, &far, &w), 0);
		check_pages();
	}
}

static void defaults(void)
{
	rq_type = MLX5_RQ_LEGACY;
	ring_size = 64;
	sock_skbs = 128;
	mtu = 1500;
	pkt_bytes = 0;
}

/*
 * TCP at MTU 1500: 2048-byte strides, two packets a page, a ring of 512
 * packets is 4 WQEs of 64 pages, 3 posted (192 pages).  A far reader
 * holds the skbs.  After 96 packets (48 pages shared by two skbs each)
 * no WQE is released: the RQ counts all 192 pages.  At 144 the first WQE
 * (128 packets) is: 6.1 and before gave each skb a page reference
 * (mlx5e_skb_from_cqe_mpwrq_linear: page_ref_inc), so page_pool lets the
 * WQE's 64 pages go (released_refcnt) and the skbs hold them, one page
 * under two skbs, counted once; 6.12's skbs hold page_pool fragments, the
 * pages stay the pool's.  Every page is accounted after every poll.
 */
static const struct {
	const char *era;
	u32 in_socket;		/* pages only skbs hold, after 144 */
	u64 let_go;		/* page_pool's puts that let a page go */
} shared[] = {
	{ "v5.4", 64, 64 },
	{ "v5.5", 64, 64 },
	{ "v6.1", 64, 64 },
	{ "v6.12", 0, 0 },
};

START_TEST(tcp_pages_shared_by_skbs)
{
	struct pp_stats st;

	far_reader();
	ring_size = 512;
	open_queue(shared[_i].era, &workload_tcp, 0);
	ck_assert_int_eq(rxq_attach(q, 1), 0);
	ck_assert_int_eq(rxq_pages_handed(q), 192);
	ck_assert_int_eq(q->pool_size, 256);	/* 4 WQEs of 64 pages */
	cycle(48);
	cycle(48);
	ck_assert_int_eq(rxq_consumer_pending(q), 96);
	ck_assert_int_eq(rxq_pages_handed(q) + rxq_pages_in_socket(q), 192);
	cycle(48);
	pol->stats(rxq_pool(q), &st);
	ck_assert_msg(rxq_pages_in_socket(q) == shared[_i].in_socket &&
		      st.recycle_released_refcnt == shared[_i].let_go,
		      "%s: %u pages in the socket, %llu let go", shared[_i].era,
		      rxq_pages_in_socket(q),
		      (unsigned long long)st.recycle_released_refcnt);
	read_all();
	ck_assert_int_eq(rxq_stats(q)->bytes_read, 144 * 1448);
	close_queue();
	defaults();
}
END_TEST

/* TCP at MTU 9000 (frames of 9014 bytes): 256-byte strides, 36 a
 * packet, 28 packets a WQE; the ring counts 16 a WQE. */
static void jumbo(void)
{
	far_reader();
	mtu = 9000;
	pkt_bytes = 9014;
}

/*
 * V6's working set: a ring of 1024 at MTU 9000 is 64 WQEs of 256 KiB
 * (16 MB), 63 of them posted: 4032 pages, and page_pool's pool_size is
 * the 64 WQEs' pages (mlx5e_alloc_rq: pages_per_wqe << log_rq_size).
 */
START_TEST(jumbo_ring_of_1024)
{
	jumbo();
	ring_size = 1024;
	open_queue("v6.1", &workload_tcp, 0);
	ck_assert_int_eq(rxq_pages_handed(q), 63 * 64);
	ck_assert_int_eq(q->pool_size, 64 * 64);
	close_queue();
	defaults();
}
END_TEST

/*
 * A ring smaller than 4 WQEs is raised to 4, as mlx5 does
 * (mlx5e_mpwqe_get_log_rq_size): 128 packets of XDP at MTU 1500, 64 a
 * WQE, make 4 WQEs of 64 pages, not 2.
 */
START_TEST(small_ring_raised)
{
	rq_type = MLX5_RQ_STRIDING;
	ring_size = 128;
	open_queue("v6.1", &workload_xdp_drop, 0);
	ck_assert_int_eq(q->pool_size, 4 * 64);
	ck_assert_int_eq(rxq_pages_handed(q), 3 * 64);
	close_queue();
	defaults();
}
END_TEST

/*
 * A ring of 64 at MTU 9000 is 4 WQEs, 3 posted: the NIC takes 84
 * packets before NAPI polls, more than rx_ring; mlx5's CQ holds a CQE a
 * stride (mlx5e_build_rx_cq_param), 4096 here, and NAPI finds each
 * packet where the NIC put it: 84 skbs, 84 payloads read.
 */
START_TEST(jumbo_cq_past_rx_ring)
{
	jumbo();
	ring_size = 64;
	open_queue("v6.12", &workload_tcp, 0);
	ck_assert_int_eq(rxq_attach(q, 1), 0);
	ck_assert_int_eq(rxq_nic_free(q), 84);
	ck_assert_int_eq(cycle(84).rx, 84);
	ck_assert_int_eq(rxq_consumer_pending(q), 84);
	read_all();
	ck_assert_int_eq(rxq_stats(q)->bytes_read, 84 * (9014 - 66));
	close_queue();
	defaults();
}
END_TEST

/*
 * Where the NIC writes two jumbo packets and what their skbs hold: the
 * first from byte 0 of the WQE, 141 lines over pages 0, 1 and 2; the
 * second from its 37th stride (byte 9216: page 2, line 16).  The driver
 * copies each one's first 256 bytes into the skb's head and the skb
 * holds the rest as fragments (mlx5e_skb_from_cqe_mpwrq_nonlinear): 60
 * lines of page 0 from line 4, 64 of page 1, 13 of page 2; then 44 of
 * page 2 from line 20, 64 of page 3, 29 of page 4 (9014 + 9216 bytes
 * end 1846 bytes into it).
 */
static const struct frag_want {
	u32 line;		/* in the page */
	int lines;
} jumbo_frags[2][3] = {
	{ { 4, 60 }, { 0, 64 }, { 0, 13 } },	/* pages 0, 1, 2 */
	{ { 20, 44 }, { 0, 64 }, { 0, 29 } },	/* pages 2, 3, 4 */
};

START_TEST(jumbo_lines_and_frags)
{
	const struct tcp_frag *f, *f0;
	u64 written;

	jumbo();
	ring_size = 64;
	open_queue("v6.1", &workload_tcp, 0);
	ck_assert_int_eq(rxq_attach(q, 1), 0);
	written = mem_stats(m)->nic_writes[MEM_PKT];
	cycle(2);
	ck_assert_int_eq(mem_stats(m)->nic_writes[MEM_PKT] - written,
			 2 * 141);
	tcp_queued_frags(rxq_socket(q), 0, &f0);
	ck_assert(rq_of(q)->rx_line[0] == rxq_frame_line(q, f0[0].page));
	for (int p = 0; p < 2; p++) {
		ck_assert_int_eq(tcp_queued_frags(rxq_socket(q), (unsigned)p,
						  &f), 3);
		for (int i = 0; i < 3; i++) {
			const struct frag_want *w = &jumbo_frags[p][i];

			/* the WQE's pages, as the pool gave them */
			ck_assert_msg(f[i].line == rxq_frame_line(q,
				      f[i].page) + w->line &&
				      f[i].lines == w->lines, "packet %d frag "
				      "%d: line %u lines %d", p, i,
				      f[i].line - rxq_frame_line(q, f[i].page),
				      f[i].lines);
		}
	}
	/* the NIC wrote them (DDIO: in the LLC), and not the 3 lines of
	 * page 2 between the packets */
	for (int p = 0; p < 2; p++) {
		tcp_queued_frags(rxq_socket(q), (unsigned)p, &f);
		for (int i = 0; i < 3; i++)
			for (int k = 0; k < f[i].lines; k++)
				ck_assert_int_eq(mem_where(m, 0, f[i].line +
					(u32)k), MEM_LLC);
	}
	for (u32 k = 13; k < 16; k++)
		ck_assert_int_eq(mem_where(m, 0, rxq_frame_line(q, f0[2].page) +
					   k), MEM_DRAM);
	/* page 2 under both skbs; the others under one */
	ck_assert(f0[2].page == f[0].page && f0[0].page != f0[1].page &&
		  f0[1].page != f0[2].page && f[1].page != f[2].page &&
		  f[0].page != f[1].page);
	read_all();
	close_queue();
	defaults();
}
END_TEST

/*
 * A WQE's 28 jumbo packets touch 63 of its 64 pages (1008 of 1024
 * strides); its release after the 28th: 6.1 and before let the 63 go
 * from page_pool, each under the skbs of the packets it holds bytes of
 * (one to three), counted once; the 64th, which no packet used, goes
 * back to the pool.  6.12's skbs hold fragments: the pages stay the
 * pool's.
 */
static const struct {
	const char *era;
	u32 in_socket;
	u64 let_go;
} jumbo_wqe[] = {
	{ "v5.4", 63, 63 },
	{ "v5.5", 63, 63 },
	{ "v6.1", 63, 63 },
	{ "v6.12", 0, 0 },
};

START_TEST(jumbo_wqe_pages)
{
	struct pp_stats st;

	jumbo();
	ring_size = 64;
	open_queue(jumbo_wqe[_i].era, &workload_tcp, 0);
	ck_assert_int_eq(rxq_attach(q, 1), 0);
	cycle(28);
	pol->stats(rxq_pool(q), &st);
	ck_assert_msg(rxq_pages_in_socket(q) == jumbo_wqe[_i].in_socket &&
		      st.recycle_released_refcnt == jumbo_wqe[_i].let_go &&
		      rxq_pages_handed(q) + rxq_pages_in_socket(q) == 191,
		      "%s: %u pages in the socket, %u handed, %llu let go",
		      jumbo_wqe[_i].era, rxq_pages_in_socket(q),
		      rxq_pages_handed(q),
		      (unsigned long long)st.recycle_released_refcnt);
	read_all();
	ck_assert_int_eq(rxq_stats(q)->bytes_read, 28 * (9014 - 66));
	close_queue();
	defaults();
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ strides_of_an_mtu, ARRAY_SIZE(geometry) },
		{ wqe_reads_per_packet, UNIT_ONCE },
		{ ring_pages_and_their_puts, UNIT_EACH_ERA },
		{ xdp_tx_pages_back_once, UNIT_EACH_ERA },
		{ tcp_pages_shared_by_skbs, ARRAY_SIZE(shared) },
		{ jumbo_ring_of_1024, UNIT_ONCE },
		{ jumbo_cq_past_rx_ring, UNIT_ONCE },
		{ small_ring_raised, UNIT_ONCE },
		{ jumbo_lines_and_frags, UNIT_ONCE },
		{ jumbo_wqe_pages, ARRAY_SIZE(jumbo_wqe) },
	};

	return unit_main("mpwqe", tests, ARRAY_SIZE(tests), NULL, NULL);
}
