/* XDP_DROP: the program drops every packet; the driver releases its page
 * to the page cache or page_pool at once. */
#include "workload.h"

static void drop_rx(struct rxq *q, struct page *page)
{
	rxq_release_page(q, page);
	rxq_counters(q)->rx_xdp_drop++;
}

/* the core keys only some workloads read that it reads (workload.h) */
static const char *const xdp_drop_reads[] = {
	"cost.xdp", NULL,
};

const struct workload_ops workload_xdp_drop = {
	.name = "xdp_drop",
	.title = "XDP_DROP",
	.rate_unit = "Mpps",
	.xdp = true,
	.rx = drop_rx,
	.reads = xdp_drop_reads,
};
