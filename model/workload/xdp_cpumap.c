/*
 * XDP_REDIRECT into a cpumap (6.1 kernel/bpf/cpumap.c): the page is
 * unmapped (en/xdp.c, as for any redirect) and becomes an xdp_frame in
 * its headroom; cpu_map_enqueue() gathers frames in this CPU's bulk
 * queue, and bq_flush_to_queue() produces them into the remote CPU's
 * ptr_ring under its producer lock, at CPU_MAP_BULK_SIZE frames or at the
 * poll's xdp_do_flush().  A full ring drops the frame: counted, and
 * xdp_return_frame_rx_napi() puts it back directly.  The far side is the
 * remote CPU's kthread, which makes each frame an skb the stack frees.
 */
#include <stdlib.h>
#include "workload.h"

/* kernel/bpf/cpumap.c (6.1, 6.12) */
#define CPU_MAP_BULK_SIZE	8	/* frames a CPU's bulk queue gathers
					 * before bq_flush_to_queue() */
#define CPUMAP_BATCH		8	/* frames the kthread takes at once */
#define PTRS_PER_LINE		8	/* ptr_ring slots in a cache line */

struct cpumap {
	struct page *bq[CPU_MAP_BULK_SIZE];	/* this CPU's bulk queue */
	int bq_n;
	struct page **ring;	/* the remote CPU's ptr_ring of frames */
	u32 mask, prod, cons;
	u32 ring_line;		/* its lines, and its producer lock's line
				 * after them: on the consumer's node */
	u32 skbs, skb_next;	/* the consumer's skb slots */
};

static int cpumap_open(struct rxq *q)
{
	struct cpumap *cm = calloc(1, sizeof(*cm));

	rxq_set_workload_state(q, cm);
	return cm ? 0 : -1;
}

static void cpumap_close(struct rxq *q)
{
	struct cpumap *cm = rxq_workload_state(q);

	if (cm)
		free(cm->ring);
	free(cm);
}

static u32 pow2_ceil(u32 v)
{
	u32 p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* The cpumap entry of a CPU on node. */
static int cpumap_attach(struct rxq *q, int node)
{
	struct cpumap *cm = rxq_workload_state(q);
	u32 size = pow2_ceil((u32)rxq_cfg(q)->cpumap_qsize);

	cm->ring = calloc(size, sizeof(*cm->ring));
	if (!cm->ring)
		return -1;
	cm->mask = size - 1;
	/* bpf_map_kmalloc_node(..., cpu_to_node(cpu)): the ring, then its
	 * producer lock's line */
	cm->ring_line = mem_region(rxq_mem(q), node, MEM_STATE,
				   size / PTRS_PER_LINE + 1);
	cm->skbs = rxq_skb_slots(q, node);
	return mem_error(rxq_mem(q)) ? -1 : 0;
}

static void cpumap_flush(struct rxq *q)
{
	struct cpumap *cm = rxq_workload_state(q);
	struct mem_work *w = rxq_work(q);

	if (!cm->bq_n)
		return;
	w->cycles += rxq_cfg(q)->cost.pp_lock;	/* the same ptr_ring lock */
	mem_work_store(w, cm->ring_line + (cm->mask + 1) / PTRS_PER_LINE);
	for (int i = 0; i < cm->bq_n; i++) {
		struct page *page = cm->bq[i];
		u32 slot = cm->prod & cm->mask;

		/* __ptr_ring_produce() reads the slot, then writes it */
		mem_work_store(w, cm->ring_line + slot / PTRS_PER_LINE);
		if (cm->prod - cm->cons == cm->mask + 1) {
			rxq_counters(q)->cpumap_drops++;
			rxq_pool_put(q, page, true);
			continue;
		}
		cm->ring[slot] = page;
		cm->prod++;
	}
	cm->bq_n = 0;
}

static void cpumap_rx(struct rxq *q, struct page *page)
{
	struct cpumap *cm = rxq_workload_state(q);

	rxq_redirect_frame(q, page);
	cm->bq[cm->bq_n++] = page;
	if (cm->bq_n == CPU_MAP_BULK_SIZE)
		cpumap_flush(q);
}

/* xdp_do_flush() at the poll's end */
static void cpumap_rx_done(struct rxq *q, struct rxq_poll *out)
{
	(void)out;
	cpumap_flush(q);
}

static u32 cpumap_pending(const struct rxq *q)
{
	const struct cpumap *cm = rxq_workload_state(q);

	return cm->prod - cm->cons;
}

/*
 * The cpumap kthread, cpu_map_kthread_run() (6.1, 6.12):
 * __ptr_ring_consume_batched() takes up to CPUMAP_BATCH frames, reading
 * their slots and writing them empty; kmem_cache_alloc_bulk() gives the
 * skbs; with bottom halves disabled each frame becomes an skb and
 * netif_receive_skb_list() hands them to the stack.
 */
static int cpumap_consume(struct rxq *q)
{
	struct cpumap *cm = rxq_workload_state(q);
	struct mem_work *w = rxq_work(q);
	int n = 0;

	while (n < CPUMAP_BATCH && cm->cons != cm->prod) {
		u32 slot = cm->cons & cm->mask;
		struct page *page = cm->ring[slot];

		mem_work_read_ring(w, cm->ring_line + slot / PTRS_PER_LINE);
		mem_work_store(w, cm->ring_line + slot / PTRS_PER_LINE);
		cm->cons++;
		n++;
		rxq_consumer_took(q, page);
		rxq_frame_to_skb(q, page, cm->skbs, &cm->skb_next);
	}
	return n;
}

static u32 cpumap_held(const struct rxq *q)
{
	const struct cpumap *cm = rxq_workload_state(q);

	return (u32)cm->bq_n + (cm->prod - cm->cons);
}

static const struct key cpumap_keys[] = {
	WORKLOAD_KEY("cpumap_qsize", KEY_INT, KEY_PLAIN, cpumap_qsize, "2048",
		     8, 1 << 16, "", "xdp_cpumap: frames the cpumap entry's "
		     "ring holds (xdp-bench redirect-cpu's default --qsize)",
		     "the ring of xdp_cpumap's kthread"),
};

static bool cpumap_uses(const struct workload_case *c)
{
	return c->workload == &workload_xdp_cpumap;
}

/* The kthread takes queue 0's frames on a CPU of its own. */
static void cpumap_check(const struct workload_case *c, key_say *say,
			 void *ctx)
{
	if (c->redirect_cpu < 0)
		say(ctx, "case.redirect_cpu", "xdp_cpumap needs redirect_cpu: "
		    "the CPU of its kthread, another than the irq's");
	if (c->queues != 1)
		say(ctx, "case.queues", "xdp_cpumap takes one queue (%d): its "
		    "consumer serves queue 0", c->queues);
	if (c->redirect_cpu == c->irq_cpu ||
	    (c->migrate_cpu >= 0 && c->redirect_cpu == c->migrate_cpu))
		say(ctx, "case.redirect_cpu", "redirect_cpu %d is the irq's "
		    "CPU: the cpumap's kthread needs another", c->redirect_cpu);
}

static long long cpumap_far_pages(const struct workload_case *c,
				  const char **key)
{
	*key = "case.cpumap_qsize";
	return c->rxq->cpumap_qsize;
}

/* the core keys only some workloads read that it reads (workload.h) */
static const char *const xdp_cpumap_reads[] = {
	"cost.xdp", "cost.redirect", "cost.skb_build", NULL,
};

const struct workload_ops workload_xdp_cpumap = {
	.name = "xdp_cpumap",
	.title = "XDP_REDIRECT to a cpumap",
	.doc = "into a cpumap: redirect_cpu makes skbs of the frames and "
	       "frees them",
	.rate_unit = "Mpps",
	.xdp = true,
	.other_return = true,
	.far = WORKLOAD_FAR_KTHREAD,
	.open = cpumap_open,
	.close = cpumap_close,
	.rx = cpumap_rx,
	.rx_done = cpumap_rx_done,
	.attach = cpumap_attach,
	.pending = cpumap_pending,
	.consume = cpumap_consume,
	.held = cpumap_held,
	.keys = cpumap_keys,
	.nr_keys = sizeof(cpumap_keys) / sizeof(cpumap_keys[0]),
	.keys_after = "redirect_cpu",
	.uses = cpumap_uses,
	.check = cpumap_check,
	.far_pages = cpumap_far_pages,
	.reads = xdp_cpumap_reads,
};
