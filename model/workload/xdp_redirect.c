/*
 * XDP_REDIRECT out of a port (6.1 en/xdp.c mlx5e_xdp_handle): the page is
 * unmapped, becomes an xdp_frame and goes through the devmap's bulk queue
 * to mlx5e_xdp_xmit at the poll's end (xdp_do_flush), onto the XDP SQ of
 * this CPU's channel: the queue's own (one queue a CPU), or, with
 * redirect_port = other, the other port's channel of this CPU.  The rx
 * descriptor lets the page go without releasing it; the frame comes back
 * to page_pool at its send completion (driver.xdp_return).  The other
 * port's NAPI, on another CPU, is this workload's far side.
 */
#include "workload.h"

static void redirect_rx(struct rxq *q, struct page *page)
{
	rxq_redirect_frame(q, page);
	rxq_xmit(q, page, true);
}

/* One poll of the other port's NAPI. */
static int redirect_consume(struct rxq *q)
{
	struct rxq_poll p = { .rx = 0 };

	rxq_port_poll(q, &p);
	return p.tx_done;
}

/* the core keys only some workloads read that it reads (workload.h) */
static const char *const xdp_redirect_reads[] = {
	"cost.xdp", "cost.redirect", "cost.tx_pkt", NULL,
};

const struct workload_ops workload_xdp_redirect = {
	.name = "xdp_redirect",
	.title = "XDP_REDIRECT",
	.doc = "out of the same port, or redirect_port's, through the XDP SQ "
	       "of the redirecting CPU's channel",
	.rate_unit = "Mpps",
	.xdp = true,
	.tx_frames = true,
	.other_return = true,
	.far = WORKLOAD_FAR_PORT,
	.rx = redirect_rx,
	.attach = rxq_attach_port,
	.pending = rxq_port_pending,
	.consume = redirect_consume,
	.reads = xdp_redirect_reads,
};
