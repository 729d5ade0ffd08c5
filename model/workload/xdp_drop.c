/* XDP_DROP: the program drops every packet; the driver releases its page
 * to the page cache or page_pool at once. */
#include "workload.h"

static void drop_rx(struct rxq *q, struct page *page)
{
	rxq_release_page(q, page);
	rxq_counters(q)->rx_xdp_drop++;
}

const struct workload_ops workload_xdp_drop = {
	.name = "xdp_drop",
	.title = "XDP_DROP",
	.rate_unit = "Mpps",
	.xdp = true,
	.rx = drop_rx,
};
