/* The rx queue the rxq unit tests drive by hand, without the event
 * engine: its machine, its configuration and the knobs a test turns
 * before open_queue(), and the steps (check_rxq.c, check_returns.c). */
#ifndef PPSIM_RXQ_FIXTURE_H
#define PPSIM_RXQ_FIXTURE_H

#include "unit.h"
#include "model/nic/nic_model.h"
#include "model/workload/workload.h"

extern struct unit_machine um;
extern struct mem *m;
extern struct rxq_pages pages;
extern struct rxq *q;
extern struct pcie *dev;	/* the NIC's read tags */
extern double now;		/* s, the hand-driven clock */
extern const struct pp_policy *pol;	/* the queue's page_pool era */
/* the machine: 2 sockets of 2 cores; PCIe gen3 x16, MPS 256 */
extern const struct mem_config mcfg;
extern const struct pcie_config pcfg;

/* Every step of the hand-driven clock: more than an XDP_TX frame's two
 * read round trips. */
#define STEP	10e-6

/* What the next open_queue() gives its queue: the XDP program's data
 * access, its CQE compression sessions (0: off), how frames come back,
 * the skbs the socket of a reader on another CPU holds, the port
 * xdp_redirect sends out of, the cycles between the prefetch and the
 * stack's first read of a packet, the RQ. */
extern enum rxq_touch touch;
extern int cqe_session;
extern enum rxq_xdp_return xdp_return;
extern int sock_skbs;
extern enum rxq_port redirect_port;
extern double win_stack;
/* The RQ's type (enum mlx5_rq_type: the legacy RQ unless a test says),
 * its packets (rx_ring), the MTU and the frame size (0: 1514 for tcp, 64
 * for the rest). */
extern int rq_type;
extern int ring_size;
extern int mtu;
extern int pkt_bytes;
/* NUMA nodes a socket of mcfg's machine has (cpu.nodes; 1 unless a test
 * says): with 2, each of its cores is a node of its own. */
extern int nodes_per_socket;
/* LLC ways DDIO writes into (mcfg's 2 unless a test says). */
extern int ddio_ways;

/* Opens era's queue for workload w (pc: the driver's page cache). */
void open_queue(const char *era, const struct workload_ops *w, int pc);
/* The queue, its socket and its pool hold every page the allocator has
 * out: the simulator's own check. */
void check_pages(void);
void close_queue(void);
/* The NIC offers n packets, then NAPI polls until nothing is pending and
 * no XDP_TX frame is out: the NIC looks after each poll (its doorbell) and
 * a step later (the frames' reads are back). */
struct rxq_poll cycle(int n);

#endif
