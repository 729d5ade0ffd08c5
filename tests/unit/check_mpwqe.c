/* The mlx5 striding RQ (model/nic/mlx5/mpwqe.c) driven by hand, as
 * check_rxq.c drives the legacy RQ: its strides, its descriptor reads,
 * the pages of its ring and how each era gives them back. */
#include "model/nic/mlx5/mlx5.h"
#include "rxq_fixture.h"

/* en/params.c's layout of a WQE of 256 KiB: with XDP a page a packet up
 * to the largest linear MTU; without, the linear size (headroom 64,
 * hw_mtu = mtu + 22, skb_shared_info 320) rounded up to a power of 2;
 * past a page, 256-byte strides and as many as a packet needs. */
static const struct {
	int mtu;
	bool xdp;
	int pkt_size;
	int stride, pkts;
	bool linear;
} geometry[] = {
	{ 1500, true, 60, 4096, 64, true },
	{ 3498, true, 60, 4096, 64, true },	/* mlx5e_xdp_max_mtu */
	{ 3499, true, 60, 256, 1024, false },
	{ 1500, false, 1514, 2048, 128, true },	/* 1586 + 320 = 1920 */
	{ 3000, false, 1514, 4096, 64, true },
	{ 9000, false, 60, 256, 1024, false },
	{ 9000, false, 1514, 256, 170, false },	/* 6 strides a packet */
};

START_TEST(strides_of_an_mtu)
{
	struct mpwqe_geometry g;

	mpwqe_geometry(geometry[_i].mtu, geometry[_i].xdp,
		       geometry[_i].pkt_size, &g);
	ck_assert_msg(g.stride == geometry[_i].stride && g.pkts ==
		      geometry[_i].pkts && g.linear == geometry[_i].linear &&
		      g.pages == 64, "mtu %d xdp %d pkt %d: stride %d pkts %d "
		      "linear %d pages %d", geometry[_i].mtu, geometry[_i].xdp,
		      geometry[_i].pkt_size, g.stride, g.pkts, g.linear,
		      g.pages);
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

int main(void)
{
	const struct unit_test tests[] = {
		{ strides_of_an_mtu, ARRAY_SIZE(geometry) },
		{ wqe_reads_per_packet, UNIT_ONCE },
		{ ring_pages_and_their_puts, UNIT_EACH_ERA },
		{ xdp_tx_pages_back_once, UNIT_EACH_ERA },
	};

	return unit_main("mpwqe", tests, ARRAY_SIZE(tests), NULL, NULL);
}
