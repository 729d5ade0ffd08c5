/* XDP_TX: the program sends the packet back out of its port, from the rx
 * page as it is mapped, through the channel's XDP SQ (rxq_xmit). */
#include "workload.h"

static void tx_rx(struct rxq *q, struct page *page)
{
	rxq_xmit(q, page, false);
}

/* the core keys only some workloads read that it reads (workload.h) */
static const char *const xdp_tx_reads[] = {
	"cost.xdp", "cost.tx_pkt", NULL,
};

const struct workload_ops workload_xdp_tx = {
	.name = "xdp_tx",
	.title = "XDP_TX",
	.rate_unit = "Mpps",
	.xdp = true,
	.rx = tx_rx,
	.reads = xdp_tx_reads,
};
