/*
 * XDP_REDIRECT into a veth device (6.1 drivers/net/veth.c veth_xdp_xmit):
 * the frame goes into the peer's xdp_ring; a full ring drops it.  The
 * peer's NAPI, on this CPU after the channel's poll, makes the frames
 * skbs its stack drops and frees.
 */
#include <stdlib.h>
#include "workload.h"

/* drivers/net/veth.c (6.1, 6.12) */
#define VETH_RING_SIZE		256	/* the peer's xdp_ring */
#define VETH_POLL_BUDGET	64	/* its NAPI's weight (NAPI_POLL_WEIGHT) */

struct veth {
	struct page *ring[VETH_RING_SIZE];	/* the peer's xdp_ring */
	u32 prod, cons;
	u32 skbs, skb_next;	/* skbs built on the channel's CPU */
};

static int veth_open(struct rxq *q)
{
	struct veth *v = calloc(1, sizeof(*v));

	rxq_set_workload_state(q, v);
	if (!v)
		return -1;
	v->skbs = rxq_skb_slots(q, rxq_node(q));
	return mem_error(rxq_mem(q)) ? -1 : 0;
}

static void veth_close(struct rxq *q)
{
	free(rxq_workload_state(q));
}

static void veth_rx(struct rxq *q, struct page *page)
{
	struct veth *v = rxq_workload_state(q);

	rxq_redirect_frame(q, page);
	if (v->prod - v->cons == VETH_RING_SIZE) {
		rxq_counters(q)->veth_drops++;
		rxq_pool_put(q, page, true);	/* rx_napi return */
		return;
	}
	v->ring[v->prod++ % VETH_RING_SIZE] = page;
}

/*
 * The veth peer's NAPI, on this CPU after the channel's poll in the same
 * softirq (veth_xdp_flush schedules it here): up to its budget of frames
 * made skbs and dropped by its stack.  The channel's NAPI is still
 * scheduled (its list_owner this CPU) only when it used its budget: then
 * 6.12's put is NAPI-local and direct.
 */
static void veth_rx_done(struct rxq *q, struct rxq_poll *out)
{
	struct veth *v = rxq_workload_state(q);
	int budget = VETH_POLL_BUDGET;

	rxq_napi_owner(q, out->busy ? smp_processor_id() : -1);
	while (v->cons != v->prod && budget-- > 0) {
		struct page *page = v->ring[v->cons++ % VETH_RING_SIZE];

		rxq_frame_to_skb(q, page, v->skbs, &v->skb_next);
	}
	rxq_napi_owner(q, smp_processor_id());
	out->busy |= v->cons != v->prod;
}

static u32 veth_held(const struct rxq *q)
{
	const struct veth *v = rxq_workload_state(q);

	return v->prod - v->cons;
}

/* the core keys only some workloads read that it reads (workload.h) */
static const char *const xdp_veth_reads[] = {
	"cost.xdp", "cost.redirect", "cost.skb_build", NULL,
};

const struct workload_ops workload_xdp_veth = {
	.name = "xdp_veth",
	.title = "XDP_REDIRECT to a veth",
	.doc = "into a veth device whose peer's stack frees them",
	.rate_unit = "Mpps",
	.xdp = true,
	.other_return = true,
	.open = veth_open,
	.close = veth_close,
	.rx = veth_rx,
	.rx_done = veth_rx_done,
	.held = veth_held,
	.reads = xdp_veth_reads,
};
