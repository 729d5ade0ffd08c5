/* The rx queue the rxq unit tests drive by hand (rxq_fixture.h). */
#include <string.h>
/* before the fixture's globals (q): its inline helpers name theirs so */
#include "model/nic/mlx5/mlx5.h"
#include "rxq_fixture.h"

struct unit_machine um;
struct mem *m;
struct rxq_pages pages;
struct rxq *q;
struct pcie *dev;	/* the NIC's read tags */
double now;		/* s, the hand-driven clock */
const struct pp_policy *pol;	/* the queue's page_pool era */
const struct mem_config mcfg = {
	.sockets = 2, .cores = 2,
	.l2_size = 256 * 1024, .l2_ways = 8,
	.llc_size = 2 * 1024 * 1024, .llc_ways = 16,
	.nic_node = 0, .llc_policy = MEM_LLC_QLRU,
	.freq = 2e9, .l2_cycles = 10, .llc_lat = 40e-9, .snoop_lat = 70e-9,
	.rllc_lat = 110e-9,
	.dram_lat = 85e-9, .rdram_lat = 135e-9, .qpi_lat = 50e-9,
};

/* gen3 x16, MPS 256, as the profiles have it */
const struct pcie_config pcfg = {
	.bw = 15.75e9, .lat = 250e-9, .mps = 256, .mrrs = 512, .rcb = 64,
	.ack_every = 168, .rd_tags = 256,
};

/* The XDP program's data access the next open_queue() gives its queue,
 * and its CQE compression sessions (0: off). */
enum rxq_touch touch = RXQ_TOUCH_READ;
int cqe_session;
enum rxq_xdp_return xdp_return = RXQ_RETURN_FRAME;
/* skbs the socket of a reader on another CPU holds */
int sock_skbs = 128;
/* the port xdp_redirect sends out of */
enum rxq_port redirect_port = RXQ_PORT_SAME;
/* cycles between the prefetch and the stack's first read of a packet */
double win_stack;
int rq_type = MLX5_RQ_LEGACY;
int ring_size = 64;
int mtu = 1500;
int pkt_bytes;
int nodes_per_socket = 1;
int ddio_ways = 2;

static struct rxq_config qcfg(const struct workload_ops *w, int page_cache)
{
	const struct mlx5_config mlx5 = {
		.wqe_fetch = 4, .page_cache = page_cache,
		.cqe_compress = cqe_session > 0, .cqe_session = cqe_session,
		.rq_type = rq_type, .mtu = mtu,
	};
	struct rxq_config c = {
		.nic = &nic_mlx5_legacy, .workload = w,
		.pkt_size = pkt_bytes ? pkt_bytes
				      : w == &workload_tcp ? 1514 : 64,
		.touch = touch,
		.rx_ring = ring_size, .tx_ring = 64, .budget = 16,
		.xdp_return = xdp_return, .cpumap_qsize = 64,
		.redirect_port = redirect_port,
		.cost = { .rx_pkt = 100, .xdp = 10, .tx_pkt = 50, .poll = 100,
			  .pp_fast = 19, .pp_ring = 54, .page_alloc = 100,
			  .redirect = 40, .pp_lock = 37,
			  .page_free = 100, .dma_map = 30, .doorbell = 50,
			  .skb_build = 300 },
		.tcp = { .c_stack = 300, .c_recv = 50, .c_copy = 8,
			 .rmem = sock_skbs * TCP_TRUESIZE },
		.overlap = { .win_ring = 40, .win_random = 0,
			     .win_stack = win_stack,
			     .store_exposure = 0.25, .copy_mlp = 10 },
	};

	memcpy(c.nic_config, &mlx5, sizeof(mlx5));
	return c;
}

void open_queue(const char *era, const struct workload_ops *w, int pc)
{
	struct rxq_config c = qcfg(w, pc);
	struct mem_config mc = mcfg;
	const char *err = NULL;

	mc.nodes = nodes_per_socket;
	mc.ddio_ways = ddio_ways;
	unit_machine_init(&um, mem_nr_nodes(&mc), 8192, 0);
	m = mem_create(&mc, &err);
	ck_assert_msg(m, "mem_create: %s", err);
	rxq_map_pages(&pages, m, mem_nr_nodes(&mc), 8192, c.pkt_size);
	pol = pp_policy_find(pp_eras, era);
	ck_assert_msg(pol, "no era %s", era);
	dev = pcie_create(&pcfg, &err);
	ck_assert_msg(dev, "pcie_create: %s", err);
	now = 0;
	q = rxq_open(&c, m, dev, &pages, pol, &um.ctx, &err);
	ck_assert_msg(q, "%s: rxq_open: %s", era, err ? err : "");
}

void check_pages(void)
{
	struct pp_account pool = { pol, rxq_pool(q), rxq_pages_handed(q) };
	char why[256];

	ck_assert_msg(!pp_check_pages(um.mm, &pool, 1, rxq_pages_in_socket(q),
				      why, sizeof(why)), "%s", why);
}

void close_queue(void)
{
	check_pages();
	rxq_free(q);
	pcie_free(dev);
	mem_destroy(m);
	unit_machine_fini(&um);
}

struct rxq_poll cycle(int n)
{
	struct rxq_poll total = { 0 }, p;
	struct pcie_traffic t = { { { 0 } } };

	rxq_nic_rx(q, n, now, &t);
	rxq_nic_tx(q, now, &t);
	while (rxq_pending(q)) {
		rxq_napi_poll(q, &um.ctx, &p);
		rxq_post(q);
		total.rx += p.rx;
		total.tx_done += p.tx_done;
		total.local_pkts += p.local_pkts;
		total.cpu.cycles += p.cpu.cycles;
		total.cpu.stall += p.cpu.stall;
		for (int k = 0; k < MEM_NR_KINDS; k++)
			for (int at = 0; at < MEM_NR_PLACES; at++)
				total.cpu.stall_at[k][at] +=
					p.cpu.stall_at[k][at];
		total.bytes_read += p.bytes_read;
		rxq_nic_tx(q, now, &t);
		now += STEP;
		rxq_nic_tx(q, now, &t);
		check_pages();
	}
	return total;
}
