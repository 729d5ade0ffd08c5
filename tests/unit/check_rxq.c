/* The mlx5 rx queue model without the event engine: the NIC side and NAPI
 * polls driven by hand, every page accounted after every step.  Pages that
 * come back another way (cpumap, veth, a reader on another CPU, the other
 * port): check_returns.c. */
#include <math.h>
/* the RQ types, before the fixture's globals (q) its helpers name */
#include "model/nic/mlx5/mlx5.h"
#include "rxq_fixture.h"

static const char *const place_names[MEM_NR_PLACES] = {
	"the private cache", "the LLC", "the other socket's caches",
	"local DRAM", "another node's DRAM", "remote DRAM",
};

/* 100 packets for 64 posted descriptors: 36 dropped (rx_out_of_buffer);
 * after the polls and the refill, 64 can come in again. */
START_TEST(drop_accounting)
{
	struct pcie_traffic t = { { { 0 } } };

	open_queue("v5.5", &workload_xdp_drop, 0);
	ck_assert_int_eq(rxq_nic_rx(q, 100, now, &t), 64);
	ck_assert_int_eq(rxq_stats(q)->rx_out_of_buffer, 36);
	ck_assert(t.bytes[PCIE_UP][0] > 64 * (64 + 64));
	ck_assert(t.bytes[PCIE_UP][1] == 0);
	ck_assert_int_eq(cycle(0).rx, 64);
	ck_assert_int_eq(rxq_stats(q)->polls, 4);	/* budget 16 */
	ck_assert_int_eq(cycle(64).rx, 64);
	ck_assert_int_eq(rxq_stats(q)->rx_xdp_drop, 128);
	close_queue();
}
END_TEST

/* The seed's experiment per era: NAPI moves from node 0 to node 1.
 * v5.4: node-0 pages recycled forever.  v5.5: each one dropped as it
 * comes back, new ones on node 1.  v6.1: the first poll on node 1
 * flushes the cache (the 16 pages it had just recycled) and the refill
 * takes a node-1 bulk, of which 16 go into the ring; after that no check
 * applies to a direct put, XDP_DROP never refills from the ring, and the
 * 48 node-0 pages keep circulating (6.1 page_pool.c checks the node
 * only when the cache refills from the ring).  16 of 64 stay local.
 * Packet data then crosses the interconnect (the other socket's caches),
 * except in v5.5 (its own DRAM). */
static const struct {
	const char *era;
	int local_pkts;		/* of the last 64 on node 1 */
	int pool_nid;		/* p.nid then */
	enum mem_place pkt;	/* where packet reads are served from */
} migration[] = {
	{ "v5.4", 0, 0, MEM_RCACHE },
	{ "v5.5", 64, 1, MEM_DRAM },
	{ "v6.1", 16, 1, MEM_RCACHE },
	{ "v6.12", 16, 1, MEM_RCACHE },	/* as v6.1 */
};

START_TEST(irq_migration)
{
	const char *era = migration[_i].era;
	struct rxq_poll p;

	open_queue(era, &workload_xdp_drop, 0);
	for (int i = 0; i < 8; i++)
		ck_expect(era, "local packets on node 0", cycle(64).local_pkts,
			  64);
	um.ctx.cpu = 2;		/* socket 1 */
	um.ctx.node = 1;
	for (int i = 0; i < 8; i++)
		p = cycle(64);
	ck_expect(era, "local packets of the last 64", p.local_pkts,
		  migration[_i].local_pkts);
	ck_expect(era, "p.nid", pol->nid(rxq_pool(q)), migration[_i].pool_nid);
	ck_assert_msg(mem_stats(m)->cpu_reads[MEM_PKT][migration[_i].pkt] > 0,
		      "%s: no packet read served from %s", era,
		      place_names[migration[_i].pkt]);
	close_queue();
}
END_TEST

/*
 * Where each era's driver calls page_pool_nid_changed(numa_mem_id())
 * (kernel_era.h, driver.nid_check; rxq_napi_poll()): v5.4 nowhere, v5.5 at the
 * top of the rx CQ poll, v6.1 just before the refill.  After 8 rounds on
 * node 0 (every page there, the caches settled), NAPI runs on node 1 and
 * one poll handles 16 packets (the budget):
 *  - v5.4 recycles the 16 into its cache and refills from it;
 *  - v5.5 has moved p.nid before the 16 come back, so each is let go
 *    (released_refcnt) and the refill takes 16 new pages on node 1;
 *  - v6.1 recycles the 16 into its cache, then update_nid empties it (16
 *    let go) and the refill takes a bulk of 64 on node 1.
 * Called at the other place, v5.5 would recycle the 16 and refill with
 * them, v6.1 would flush an empty cache and refill with the 16.
 */
static const struct {
	const char *era;
	enum pp_nid_check check;
	int pool_nid;		/* after the poll */
	u64 cached;		/* recycle_cached during the poll */
	u64 released;		/* recycle_released_refcnt */
	u32 release;		/* pages the pool let go */
	u32 hold;		/* pages taken from the allocator */
} nid_check[] = {
	{ "v5.4", PP_NID_NEVER, 0, 16, 0, 0, 0 },
	{ "v5.5", PP_NID_AT_POLL, 1, 0, 16, 16, 16 },
	{ "v6.1", PP_NID_AT_REFILL, 1, 16, 0, 16, 64 },
	{ "v6.12", PP_NID_AT_REFILL, 1, 16, 0, 16, 64 },	/* as v6.1 */
};

START_TEST(nid_check_per_era)
{
	const char *era = nid_check[_i].era;
	struct pcie_traffic t = { { { 0 } } };
	struct pp_stats a, b;
	struct rxq_poll p;

	open_queue(era, &workload_xdp_drop, 0);
	for (int i = 0; i < 8; i++)
		cycle(64);
	um.ctx.cpu = 2;		/* socket 1 */
	um.ctx.node = 1;
	ck_expect(era, "packets in", rxq_nic_rx(q, 16, now, &t), 16);
	pol->stats(rxq_pool(q), &a);
	rxq_napi_poll(q, &um.ctx, &p);
	rxq_post(q);
	pol->stats(rxq_pool(q), &b);
	ck_expect(era, "packets polled", p.rx, 16);
	ck_expect(era, "p.nid", pol->nid(rxq_pool(q)), nid_check[_i].pool_nid);
	ck_expect(era, "recycle_cached", b.recycle_cached - a.recycle_cached,
		  nid_check[_i].cached);
	ck_expect(era, "recycle_released_refcnt",
		  b.recycle_released_refcnt - a.recycle_released_refcnt,
		  nid_check[_i].released);
	ck_expect(era, "pages let go", b.release - a.release,
		  nid_check[_i].release);
	ck_expect(era, "pages taken", b.hold - a.hold, nid_check[_i].hold);
	/* and the era says so (v5.4's update_nid, NULL, hides it) */
	ck_expect(era, "driver.nid_check", kernel_era_of(pol)->driver.nid_check,
		  nid_check[_i].check);
	close_queue();
}
END_TEST

/* XDP_TX: a frame goes out and its page comes back on completion. */
START_TEST(xdp_tx_round_trip)
{
	struct rxq_poll p;

	open_queue("v5.5", &workload_xdp_tx, 0);
	p = cycle(32);
	ck_assert_int_eq(p.rx, 32);
	ck_assert_int_eq(p.tx_done, 32);
	ck_assert_int_eq(rxq_stats(q)->rx_xdp_tx, 32);
	ck_assert_int_eq(rxq_stats(q)->tx_completed, 32);
	close_queue();
}
END_TEST

/*
 * A doorbell (the XDP SQ's, the striding RQ's) rung on another socket than
 * the NIC's waits on the interconnect; on another node of the NIC's socket
 * (SNC, NPS) it does not: the root port is on the die.  The machine: 2
 * sockets of 2 nodes, a core each (node = cpu); the NIC on node 0.
 */
static const struct {
	const char *name;
	int rq_type;
	const struct workload_ops *workload;
	int cpu;		/* NAPI's, from the first poll */
	bool far;		/* its doorbells wait */
} doorbells[] = {
	{ "SQ, the NIC's node", MLX5_RQ_LEGACY, &workload_xdp_tx, 0, false },
	{ "SQ, its socket's other node", MLX5_RQ_LEGACY, &workload_xdp_tx, 1,
	  false },
	{ "SQ, the other socket", MLX5_RQ_LEGACY, &workload_xdp_tx, 2, true },
	{ "striding RQ, its socket's other node", MLX5_RQ_STRIDING,
	  &workload_xdp_drop, 1, false },
	{ "striding RQ, the other socket", MLX5_RQ_STRIDING,
	  &workload_xdp_drop, 3, true },
};

START_TEST(doorbell_crosses_sockets_not_nodes)
{
	struct rxq_poll p;
	double waited;

	nodes_per_socket = 2;
	rq_type = doorbells[_i].rq_type;
	ring_size = 256;	/* the striding RQ's 4 WQEs of 64 */
	open_queue("v6.1", doorbells[_i].workload, 0);
	um.ctx.cpu = doorbells[_i].cpu;
	um.ctx.node = doorbells[_i].cpu;
	p = cycle(128);
	waited = p.cpu.stall_at[MEM_DOORBELL][MEM_RCACHE];
	ck_assert_msg(p.rx == 128, "%s: %d packets", doorbells[_i].name,
		      p.rx);
	ck_assert_msg(doorbells[_i].far ? waited > 0 : waited == 0,
		      "%s: the doorbells waited %g s", doorbells[_i].name,
		      waited);
	close_queue();
	nodes_per_socket = 1;
	rq_type = MLX5_RQ_LEGACY;
	ring_size = 64;
}
END_TEST

/* What the XDP program does with the data: for 64 packets of one line,
 * the lines of their pages the CPU read and wrote. */
static const struct {
	const char *name;
	const struct workload_ops *workload;
	enum rxq_touch touch;
	u64 reads, writes;
} touches[] = {
	{ "drop, none", &workload_xdp_drop, RXQ_TOUCH_NONE, 0, 0 },
	{ "drop, read", &workload_xdp_drop, RXQ_TOUCH_READ, 64, 0 },
	{ "drop, write", &workload_xdp_drop, RXQ_TOUCH_WRITE, 64, 64 },
	/* XDP_TX makes each an xdp_frame in its headroom (6.1 en/xdp.c
	 * mlx5e_xmit_xdp_buff), a line of its own */
	{ "tx, none", &workload_xdp_tx, RXQ_TOUCH_NONE, 0, 64 },
	{ "tx, write", &workload_xdp_tx, RXQ_TOUCH_WRITE, 64, 128 },
	/* a redirect writes the xdp_frame too, and the completion reads it
	 * back */
	{ "redirect, none", &workload_xdp_redirect, RXQ_TOUCH_NONE, 64, 64 },
};

START_TEST(xdp_touch)
{
	u64 reads = 0, writes = 0;

	touch = touches[_i].touch;
	open_queue("v5.5", touches[_i].workload, 0);
	touch = RXQ_TOUCH_READ;
	cycle(64);
	for (int p = 0; p < MEM_NR_PLACES; p++) {
		reads += mem_stats(m)->cpu_reads[MEM_PKT][p];
		writes += mem_stats(m)->cpu_writes[MEM_PKT][p];
	}
	ck_assert_int_eq(rxq_stats(q)->rx_packets, 64);
	ck_expect(touches[_i].name, "packet lines read", reads,
		  touches[_i].reads);
	ck_expect(touches[_i].name, "packet lines written", writes,
		  touches[_i].writes);
	close_queue();
}
END_TEST

/*
 * XDP_REDIRECT out of the same port: every frame's page comes back to
 * page_pool through its ring at the send's completion, never directly.
 * With the bulk return an era that has page_pool_put_page_bulk takes the
 * ring's lock once for the 16 frames a poll sends (budget 16): 48 frames,
 * 3 bulks, 45 locks fewer than one by one; an era without it (v5.5) puts
 * them one by one.
 */
static const struct {
	const char *era;
	enum rxq_xdp_return how;
	u64 bulks;
} redirect[] = {
	{ "v6.1", RXQ_RETURN_FRAME, 0 },
	{ "v6.1", RXQ_RETURN_BULK, 3 },
	{ "v5.5", RXQ_RETURN_BULK, 0 },
};

START_TEST(redirect_returns_through_the_ring)
{
	struct pp_stats st;
	double one_by_one, cycles;

	xdp_return = RXQ_RETURN_FRAME;
	open_queue(redirect[_i].era, &workload_xdp_redirect, 0);
	one_by_one = cycle(48).cpu.cycles;
	close_queue();

	xdp_return = redirect[_i].how;
	open_queue(redirect[_i].era, &workload_xdp_redirect, 0);
	xdp_return = RXQ_RETURN_FRAME;
	cycles = cycle(48).cpu.cycles;
	pol->stats(rxq_pool(q), &st);
	ck_assert_int_eq(rxq_stats(q)->rx_xdp_redirect, 48);
	ck_assert_int_eq(rxq_stats(q)->tx_completed, 48);
	ck_expect(redirect[_i].era, "pages put into the ring", st.recycle_ring,
		  48);
	ck_expect(redirect[_i].era, "direct recycles", st.recycle_cached, 0);
	ck_expect(redirect[_i].era, "bulk returns",
		  rxq_stats(q)->xdp_return_bulks, redirect[_i].bulks);
	ck_assert_msg(fabs(one_by_one - cycles -
			   37.0 * 15 * (double)redirect[_i].bulks) < 1e-6,
		      "%s: %.1f cycles one by one, %.1f so: %.1f locks fewer",
		      redirect[_i].era, one_by_one, cycles,
		      (one_by_one - cycles) / 37);
	close_queue();
}
END_TEST

/* The mlx5e page cache refuses pages that are not on numa_mem_id(). */
START_TEST(page_cache_waives_remote)
{
	open_queue("v5.4", &workload_xdp_drop, 256);
	cycle(64);
	cycle(64);
	ck_assert_int_gt(rxq_stats(q)->cache_reuse, 0);
	ck_assert_int_eq(rxq_stats(q)->cache_waive, 0);
	um.ctx.cpu = 2;
	um.ctx.node = 1;
	cycle(64);
	ck_assert_int_gt(rxq_stats(q)->cache_waive, 0);
	close_queue();
}
END_TEST

/* v5.4's stall of a steady round of 64 packets on node 0 (near), then
 * after NAPI moved to node 1, its pages staying on node 0 (far). */
static void near_far_stall(const struct workload_ops *w, double *near,
			   double *far)
{
	struct rxq_poll p;

	open_queue("v5.4", w, 0);
	for (int i = 0; i < 4; i++)
		p = cycle(64);
	*near = p.cpu.stall;
	um.ctx.cpu = 2;
	um.ctx.node = 1;
	for (int i = 0; i < 4; i++)
		p = cycle(64);
	*far = p.cpu.stall;
	close_queue();
}

/* The ratio far / near of near_far_stall(). */
static double far_over_near(const struct workload_ops *w)
{
	double near, far;

	near_far_stall(w, &near, &far);
	return far / near;
}

/* A remote packet read costs more than a local one. */
START_TEST(far_costs_more)
{
	ck_assert(far_over_near(&workload_xdp_drop) > 1.5);
}
END_TEST

/* The far packets' stall with the stack's window set to win. */
static double far_stall(const struct workload_ops *w, double win)
{
	double near, far;

	win_stack = win;
	near_far_stall(w, &near, &far);
	win_stack = 0;
	return far;
}

/* The stack reads a packet's headers after build_skb's work, which hides
 * the far line for longer; an XDP program reads them sooner, whatever
 * win_stack says. */
START_TEST(stack_window_hides_headers)
{
	ck_assert(far_stall(&workload_tcp, 1e4) < far_stall(&workload_tcp, 0));
	ck_assert(far_stall(&workload_xdp_drop, 1e4) == far_stall(&workload_xdp_drop, 0));
}
END_TEST

/* The stack's path, the reader on NAPI's CPU: until 6.4 every page leaves
 * the pool (the skb holds a reference), the reader copies its payload and
 * frees it to the page allocator; page_pool allocates anew on p.nid, which
 * v5.5 and v6.1 move to the CPU's node and v5.4 does not: after a ring's
 * worth of refills every page is on p.nid.  6.12's mlx5 marks its skbs
 * for recycling: the reader, in process context, puts each page into the
 * ring, and the refill's node check (6.1's) lets the old node's go. */
static const struct {
	const char *era;
	int local_pkts;		/* of the last 64 on node 1 */
	bool recycles;		/* the reader's frees go to the ring */
} tcp_local[] = {
	{ "v5.4", 0, false },
	{ "v5.5", 64, false },
	{ "v6.1", 64, false },
	{ "v6.12", 64, true },
};

START_TEST(tcp_pages_leave_the_pool)
{
	const char *era = tcp_local[_i].era;
	struct rxq_poll p;
	struct pp_stats a, b;
	u64 freed;

	open_queue(era, &workload_tcp, 0);
	pol->stats(rxq_pool(q), &a);
	p = cycle(32);
	pol->stats(rxq_pool(q), &b);
	ck_assert_int_eq(p.rx, 32);
	ck_assert_int_eq(p.bytes_read, 32 * 1448);
	ck_assert_int_eq(rxq_stats(q)->bytes_read, 32 * 1448);
	freed = mm_node_stats(um.mm, 0)->freed;
	ck_expect(era, "the reader freed them to the allocator", freed >= 32,
		  !tcp_local[_i].recycles);
	ck_expect(era, "skbs' pages to the allocator",
		  rxq_stats(q)->skb_page_free, tcp_local[_i].recycles ? 0 : 32);
	ck_expect(era, "the reader's puts into the ring",
		  b.recycle_ring - a.recycle_ring,
		  tcp_local[_i].recycles ? 32 : 0);
	ck_expect(era, "never deferred: the reader is on the skbs' CPU",
		  rxq_stats(q)->skb_defer, 0);
	um.ctx.cpu = 2;
	um.ctx.node = 1;
	for (int i = 0; i < 4; i++)
		p = cycle(64);
	ck_expect(era, "local packets of the last 64", p.local_pkts,
		  tcp_local[_i].local_pkts);
	close_queue();
}
END_TEST

/* The copy costs more from the other socket's cache than from the LLC.
 * Not twice: this machine's 2 MB LLC gives the 24 lines of each page's
 * packet, all at the headroom's offset, 32 sets of 2 DDIO ways a page
 * offset, and the near copy pays its conflicts too (3.2 before page
 * offsets chose sets, 2.0 after). */
START_TEST(tcp_copy_far_costs_more)
{
	ck_assert(far_over_near(&workload_tcp) > 1.5);
}
END_TEST

/*
 * What 64 packets into an empty ring put on PCIe, counted by hand from the
 * spec's sizes (pcie-bench's model): each packet a 64-byte write and a
 * 64-byte CQE, each TLP 24 bytes of framing and header over its data; a
 * descriptor fetch every 4 packets (16-byte descriptors) and one read of
 * the RQ's doorbell record, a 24-byte request up and a completion down
 * (20 bytes over its data); the first CQE finds the CQ armed (the channel
 * was just opened): an EQE and an MSI-X go up, and the irq handler's EQ
 * doorbell, a 4-byte MMIO write, comes down when the NIC next looks.
 * Every TLP is answered the other way by an ACK and a flow-control
 * update, 8 bytes each per 168 bytes (gen3 x16, MPS 256).
 */
#define MWR(n)		((n) + 24.0)
#define MRD		24.0
#define CPLD(n)		((n) + 20.0)
#define DLLPS(tlp)	((tlp) * 16.0 / 168)

START_TEST(pcie_bytes_of_rx)
{
	struct pcie_traffic t = { { { 0 } } };
	double up, up_link, down, down_link;

	open_queue("v5.5", &workload_xdp_drop, 0);
	ck_assert_int_eq(rxq_nic_rx(q, 64, now, &t), 64);
	ck_assert_int_eq(rxq_nic_tx(q, now, &t), 0); /* the NIC looks */
	up = 64 * (MWR(64) + MWR(64)) + 16 * MRD + MRD + MWR(64);
	down = 16 * CPLD(64) + CPLD(4);
	down_link = MWR(4) + DLLPS(up + MWR(4));
	up_link = MWR(4) + DLLPS(down + MWR(4));
	ck_assert_msg(fabs(t.bytes[PCIE_UP][0] - up) < 1e-6,
		      "up to node 0: %.3f, expected %.3f",
		      t.bytes[PCIE_UP][0], up);
	ck_assert_msg(fabs(t.bytes[PCIE_DOWN][0] - down) < 1e-6,
		      "down from node 0: %.3f, expected %.3f",
		      t.bytes[PCIE_DOWN][0], down);
	ck_assert_msg(fabs(t.bytes[PCIE_UP][PCIE_LINK] - up_link) < 1e-6,
		      "up, link only: %.3f, expected %.3f",
		      t.bytes[PCIE_UP][PCIE_LINK], up_link);
	ck_assert_msg(fabs(t.bytes[PCIE_DOWN][PCIE_LINK] - down_link) < 1e-6,
		      "down, link only: %.3f, expected %.3f",
		      t.bytes[PCIE_DOWN][PCIE_LINK], down_link);
	ck_assert(t.bytes[PCIE_UP][1] == 0 && t.bytes[PCIE_DOWN][1] == 0);
	cycle(0);
	close_queue();
}
END_TEST

/*
 * CQE compression: n packets in one burst become sessions of at most
 * `session` completions, each a title and a mini CQE array every 8; NAPI
 * (budget 16, so a session spans polls) reads those lines where the NIC
 * wrote them and writes the owner bit of every slot a session covers.
 */
static const struct {
	const char *name;
	int session, n;
	u64 cq_lines_written, sessions, cq_lines_read, owner_writes;
} compress[] = {
	{ "off", 0, 20, 20, 0, 20, 0 },
	{ "one session of 20", 64, 20, 1 + 3, 1, 1 + 3, 20 },
	{ "sessions of 8, 8, 4", 8, 20, 3 * 2, 3, 3 * 2, 20 },
	{ "2 then a lone CQE", 2, 3, 2 + 1, 1, 2 + 1, 2 },
	{ "a lone CQE", 64, 1, 1, 0, 1, 0 },
};

START_TEST(cqe_compression)
{
	struct pcie_traffic t = { { { 0 } } };
	const struct mem_stats *ms;
	u64 reads = 0, writes = 0;
	double up;

	/* DDIO with room for every line written here: a packet line that
	 * shares a CQ line's set cannot push it out, so a CQ line read from
	 * DRAM is one the NIC never wrote */
	cqe_session = compress[_i].session;
	ddio_ways = 8;
	open_queue("v5.5", &workload_xdp_drop, 0);
	cqe_session = 0;
	ddio_ways = 2;
	ms = mem_stats(m);
	rxq_nic_rx(q, compress[_i].n, now, &t);
	/* the packets, their descriptor fetches every 4, the doorbell
	 * record, the event, and the CQ lines */
	up = compress[_i].n * MWR(64) + (compress[_i].n + 3) / 4 * MRD + MRD +
	     MWR(64) + (double)compress[_i].cq_lines_written * MWR(64);
	ck_assert_msg(fabs(t.bytes[PCIE_UP][0] - up) < 1e-6,
		      "%s: up to node 0: %.3f, expected %.3f",
		      compress[_i].name, t.bytes[PCIE_UP][0], up);
	ck_expect(compress[_i].name, "CQ lines the NIC wrote",
		  ms->nic_writes[MEM_CQE], compress[_i].cq_lines_written);
	cycle(0);
	for (int p = 0; p < MEM_NR_PLACES; p++) {
		reads += ms->cpu_reads[MEM_CQE][p];
		writes += ms->cpu_writes[MEM_CQE][p];
	}
	ck_assert_int_eq(rxq_stats(q)->rx_packets, compress[_i].n);
	ck_expect(compress[_i].name, "sessions", rxq_stats(q)->cqe_compress_blks,
		  compress[_i].sessions);
	ck_expect(compress[_i].name, "CQ lines NAPI read", reads,
		  compress[_i].cq_lines_read);
	/* and only those the NIC wrote (DDIO put them in the LLC): a line
	 * of the fresh ring it did not write is in DRAM */
	ck_expect(compress[_i].name, "CQ lines read from DRAM",
		  ms->cpu_reads[MEM_CQE][MEM_DRAM], 0);
	ck_expect(compress[_i].name, "owner bits NAPI wrote", writes,
		  compress[_i].owner_writes);
	close_queue();
}
END_TEST

/*
 * An XDP_TX frame leaves the NIC only once it has read it: the doorbell
 * reaches the NIC one link latency after the poll, then the descriptor and
 * the packet are read in turn, each a round trip of twice the latency,
 * where its line is (the CPU wrote the descriptor: it comes from the
 * core's cache; DDIO put the packet in the LLC and the program only read
 * it) and its completion's bytes on the down link.
 * Until then no completion, and the page stays out.
 */
START_TEST(xdp_tx_waits_for_its_reads)
{
	struct pcie_traffic t = { { { 0 } } };
	struct rxq_poll p;
	double ready;

	open_queue("v5.5", &workload_xdp_tx, 0);
	rxq_nic_rx(q, 1, now, &t);
	rxq_napi_poll(q, &um.ctx, &p);
	rxq_post(q);
	ck_assert_int_eq(rxq_stats(q)->rx_xdp_tx, 1);
	ck_assert(!isinf(rxq_nic_next(q)));	/* the NIC has to look */
	ck_assert_int_eq(rxq_nic_tx(q, now, &t), 0); /* reads go out */
	ready = now + pcfg.lat + pcie_read_lat(&pcfg, 64, mcfg.snoop_lat) +
		pcie_read_lat(&pcfg, 64, mcfg.llc_lat);
	ck_assert_msg(fabs(rxq_nic_next(q) - ready) < 1e-15,
		      "frame read at %.1f ns, expected %.1f ns",
		      rxq_nic_next(q) * 1e9, ready * 1e9);
	ck_assert_int_eq(rxq_nic_tx(q, ready - 1e-9, &t), 0);
	ck_assert_int_eq(rxq_pending(q), 0);
	ck_assert_int_eq(rxq_nic_tx(q, ready, &t), 1);
	ck_assert_int_eq(rxq_pending(q), 1);	/* the batch's completion */
	ck_assert(isinf(rxq_nic_next(q)));
	/* down: the rx descriptors and doorbell record the packet needed,
	 * then the frame's descriptor and packet */
	ck_assert_msg(fabs(t.bytes[PCIE_DOWN][0] - CPLD(16 * 4) - CPLD(4) -
			   2 * CPLD(64)) < 1e-6, "down from node 0: %.3f",
		      t.bytes[PCIE_DOWN][0]);
	now = ready;
	cycle(0);
	ck_assert_int_eq(rxq_stats(q)->tx_completed, 1);
	close_queue();
}
END_TEST

/* Every era is whole (kernel_era.h): an skb built from an xdp_frame is
 * recycled by its stack or released by its page_pool, and its driver
 * tells page_pool the node only where page_pool can hear it. */
START_TEST(every_era_whole)
{
	const struct kernel_era *e = kernel_era_of(pp_eras[_i]);

	ck_assert_ptr_eq(&e->pp, pp_eras[_i]);
	ck_assert_msg(e->stack.frame_skb_recycle || e->pp.release,
		      "%s: a frame's skb neither recycled nor released",
		      e->pp.name);
	ck_assert_msg(e->driver.nid_check == PP_NID_NEVER || e->pp.update_nid,
		      "%s: the driver calls page_pool_nid_changed() but "
		      "page_pool has no update_nid", e->pp.name);
}
END_TEST

/* A new era must get a row in every table, or those tests skip it. */
START_TEST(every_era_in_every_table)
{
	static const struct unit_table tables[] = {
		UNIT_TABLE(migration), UNIT_TABLE(nid_check),
		UNIT_TABLE(tcp_local),
	};

	unit_tables_cover_eras(tables, ARRAY_SIZE(tables));
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ every_era_in_every_table, UNIT_ONCE },
		{ every_era_whole, UNIT_EACH_ERA },
		{ drop_accounting, UNIT_ONCE },
		{ irq_migration, ARRAY_SIZE(migration) },
		{ nid_check_per_era, ARRAY_SIZE(nid_check) },
		{ xdp_tx_round_trip, UNIT_ONCE },
		{ doorbell_crosses_sockets_not_nodes, ARRAY_SIZE(doorbells) },
		{ pcie_bytes_of_rx, UNIT_ONCE },
		{ xdp_tx_waits_for_its_reads, UNIT_ONCE },
		{ xdp_touch, ARRAY_SIZE(touches) },
		{ cqe_compression, ARRAY_SIZE(compress) },
		{ redirect_returns_through_the_ring, ARRAY_SIZE(redirect) },
		{ page_cache_waives_remote, UNIT_ONCE },
		{ far_costs_more, UNIT_ONCE },
		{ tcp_pages_leave_the_pool, ARRAY_SIZE(tcp_local) },
		{ tcp_copy_far_costs_more, UNIT_ONCE },
		{ stack_window_hides_headers, UNIT_ONCE },
	};

	return unit_main("rxq", tests, ARRAY_SIZE(tests), NULL, NULL);
}
