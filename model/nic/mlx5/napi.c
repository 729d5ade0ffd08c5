/* The mlx5 legacy RQ's CPU side: one NAPI poll (mlx5e_napi_poll), the
 * XDP SQ's sends and completions, and the other port's NAPI (mlx5.h). */
#include "mlx5.h"

/*
 * Redirected frames whose send completed go back to page_pool, never
 * directly: xdp_return_frame() puts each into the ring; with
 * xdp_return_frame_bulk() they gather, XDP_FRAME_BULK at most, and
 * page_pool_put_page_bulk() takes the ring's lock once for them (6.1
 * en/xdp.c mlx5e_free_xdpsq_desc, net/core/xdp.c).  An era without the
 * bulk put gets them one by one.
 */
struct frame_bulk {
	struct page *page[XDP_FRAME_BULK];
	int n;
};

static void flush_frames(struct rxq *q, struct frame_bulk *b)
{
	struct pp_stats before, after;
	u64 produced;

	if (!b->n)
		return;
	q->pol->stats(q->pool, &before);
	q->pol->put_bulk(q->pool, b->page, b->n);
	q->pol->stats(q->pool, &after);
	/* cost.pp_ring, charged a page, holds the lock: taken once here */
	produced = after.recycle_ring - before.recycle_ring;
	if (produced > 1)
		q->cpu->cycles -= q->cfg.cost.pp_lock * (double)(produced - 1);
	q->st.xdp_return_bulks++;
	b->n = 0;
}

static void return_frame(struct rxq *q, struct page *page,
			 struct frame_bulk *b)
{
	/* the unmap reads the frame's length, the return its memory model
	 * (6.1 en/xdp.c mlx5e_free_xdpsq_desc): nothing prefetched it; then
	 * __xdp_return finds the page's struct page (virt_to_head_page,
	 * page->pp) and page_pool's put reads its refcount */
	mem_work_read(q->cpu, frame_line(q, page), 0);
	mem_work_read_random(q->cpu, spage_line(q, page));
	q->cpu->cycles += q->cfg.cost.dma_map / 2;	/* unmapped */
	if (q->port_remote)	/* the other port's NAPI's frames */
		rxq_consumer_took(q, page);
	if (pp_unref_page(page, 1))	/* a striding RQ's, its WQE's yet */
		return;
	if (q->cfg.xdp_return == RXQ_RETURN_FRAME || !q->pol->put_bulk) {
		q->pol->put(q->pool, page, false);
		return;
	}
	b->page[b->n++] = page;
	if (b->n == XDP_FRAME_BULK)
		flush_frames(q, b);
}

static void poll_tx_cq(struct rxq *q, struct rxq_poll *out)
{
	struct mlx5_rq *rq = rq_of(q);
	struct frame_bulk bulk = { .n = 0 };
	int budget = TX_CQ_POLL_BUDGET;

	while (rq->tx_cqe_cons != rq->tx_cqe_prod && budget > 0) {
		u32 c = rq->tx_cqe_cons & rq->tx_mask;

		mem_work_read_ring(q->cpu, rq->l.tx_cqe + c);
		while (rq->tx_cons != rq->tx_cqe_end[c] && budget-- > 0) {
			u32 i = rq->tx_cons & rq->tx_mask;

			if (rq->tx_frame[i])
				return_frame(q, rq->tx_page[i], &bulk);
			else
				mlx5_release_page(q, rq->tx_page[i]);
			rq->tx_cons++;
			out->tx_done++;
			q->st.tx_completed++;
		}
		if (rq->tx_cons == rq->tx_cqe_end[c])
			rq->tx_cqe_cons++;
	}
	flush_frames(q, &bulk);
}

/*
 * A frame onto the XDP SQ.  XDP_TX sends the rx page as it is mapped,
 * synced for the device, once it made the buffer an xdp_frame in the
 * packet's headroom (6.1 en/xdp.c mlx5e_xmit_xdp_buff:
 * xdp_convert_buff_to_frame, before it looks at the SQ); a redirected
 * frame was one already (mlx5_redirect_frame), unmapped for rx and mapped
 * again (mlx5e_xdp_xmit).  A full SQ drops it: XDP_TX releases the page
 * as an rx page, a redirect returns the frame to page_pool from NAPI
 * (xdp_return_frame_rx_napi, direct).
 */
void mlx5_xmit(struct rxq *q, struct page *page, bool frame)
{
	struct mlx5_rq *rq = rq_of(q);
	u32 i = rq->tx_prod & rq->tx_mask;

	if (!frame)	/* XDP is linear here: the headroom is before it */
		mem_work_store_after(q->cpu, q->rx_line - XDP_HEADROOM / MEM_LINE,
				     mem_work_spent(q->cpu) - rq->frame_asked);
	if (rq->tx_prod - rq->tx_cons == rq->tx_mask + 1) {
		q->st.rx_xdp_tx_full++;
		if (frame)
			rxq_pool_put(q, page, true);
		else
			mlx5_release_page(q, page);
		return;
	}
	mem_work_store(q->cpu, rq->l.tx_wqe + i);
	rq->tx_page[i] = page;
	rq->tx_frame[i] = frame;
	rq->tx_prod++;
	q->cpu->cycles += q->cfg.cost.tx_pkt +
			  (frame ? q->cfg.cost.dma_map / 2 : q->cfg.cost.dma_sync);
	if (!frame)
		q->st.rx_xdp_tx++;
}

/* Any redirect: the page is unmapped (en/xdp.c) and becomes an xdp_frame
 * in its headroom (xdp_convert_buff_to_frame). */
void mlx5_redirect_frame(struct rxq *q, struct page *page)
{
	q->cpu->cycles += q->cfg.cost.redirect + q->cfg.cost.dma_map / 2;
	mem_work_store(q->cpu, frame_line(q, page));
	q->st.rx_xdp_redirect++;
}

/*
 * The completion at cq_cons, as mlx5e_poll_rx_cq() reads it: a plain CQE;
 * or, in a compressed session, the title and first mini CQE array at its
 * start and each further array where it lies, a mini CQE expanded into
 * the title for every completion, and the owner bit of every slot the
 * session covers written back (mlx5e_cqes_update_owner), as the NIC did
 * not write them.
 */
static void read_completion(struct rxq *q)
{
	struct mlx5_rq *rq = rq_of(q);
	u32 c = rq->cq_cons, pos;

	if (!rq->sess_left) {
		rq->sess_first = c;
		rq->sess_left = rq->cq_session[c & rq->rx_mask];
		mem_work_read_ring(q->cpu, rq->l.cqe + (c & rq->rx_mask));
		if (rq->sess_left == 1) {
			rq->sess_left = 0;
			return;
		}
		mem_work_read_ring(q->cpu,
				   rq->l.cqe + ((c + 1) & rq->rx_mask));
		q->st.cqe_compress_blks++;
	}
	pos = c - rq->sess_first;
	if (pos && pos % MINI_CQE_ARRAY == 0)
		mem_work_read_ring(q->cpu, rq->l.cqe + (c & rq->rx_mask));
	q->cpu->cycles += mlx5_cfg(&q->cfg)->cqe_decompress;
	mem_work_store(q->cpu, rq->l.cqe + (c & rq->rx_mask));
	q->st.cqe_compress_pkts++;
	rq->sess_left--;
}

static void poll_rx_cq(struct rxq *q, int budget, struct rxq_poll *out)
{
	struct mlx5_rq *rq = rq_of(q);

	while (rq->cq_cons != rq->cq_prod && budget-- > 0) {
		u32 i = rq->cq_cons & rq->rx_mask;
		struct page *page = rq->rx_page[i];

		prefetch_ahead(q, i, true);

		read_completion(q);
		rq->rx_page[i] = NULL;
		rq->cq_cons++;
		if (page_to_nid(page) == numa_mem_id()) {
			out->local_pkts++;
			q->st.pkts_local++;
		}
		out->rx++;
		q->st.rx_packets++;
		/* the CPU may read what the device wrote (6.1 en_rx.c, every
		 * rx path: dma_sync_single_range_for_cpu) */
		q->cpu->cycles += q->cfg.cost.dma_sync;
		if (rq->mp)
			mpwqe_rx_start(q, page, rq->rx_line[i]);
		rq->frame_asked = mem_work_spent(q->cpu);
		rxq_rx(q, page, rq->rx_line[i]);
		if (rq->mp)
			mpwqe_rx_end(q);
	}
}

/* napi_complete_done(): a NAPI with nothing left arms its CQs, an MMIO
 * doorbell each, so that the next completion raises its irq. */
static void arm_cqs(struct mlx5_rq *rq, bool *armed)
{
	for (int i = 0; i < CQS_ARMED; i++)
		pcie_mmio_write(rq->link, &rq->host, CQ_DOORBELL);
	*armed = true;
}

/*
 * One poll of the other port's NAPI (redirect_port = other), its irq raised
 * by the send completions, on the CPU running q->cpu's work: the poll's
 * cost, its state, and mlx5e_poll_xdpsq_cq() returning the frames (6.1
 * en/xdp.c mlx5e_free_xdpsq_desc: xdp_return_frame(_bulk), never
 * napi_direct: that NAPI is not the pool's).
 */
void mlx5_port_poll(struct rxq *q, struct rxq_poll *out)
{
	struct mlx5_rq *rq = rq_of(q);

	q->cpu->cycles += q->cfg.cost.poll;
	mem_work_read_random(q->cpu, rq->l.port_state + ST_POOL);
	poll_tx_cq(q, out);
	mem_work_store(q->cpu, rq->l.port_state + ST_CQ_DB);
	if (rq->tx_cqe_cons == rq->tx_cqe_prod && !rq->port_armed)
		arm_cqs(rq, &rq->port_armed);	/* nothing left */
}

/* One NAPI poll of the channel, inside the queue's accounting
 * (rxq_napi_poll), up to the refill. */
void mlx5_poll(struct rxq *q, struct rxq_poll *out)
{
	struct mlx5_rq *rq = rq_of(q);

	mem_work_read_random(q->cpu, rq->l.state + ST_POOL);
	rxq_poll_start(q);
	if (q->cfg.redirect_port == RXQ_PORT_SAME)	/* else port_poll() */
		poll_tx_cq(q, out);
	if (q->era->driver.nid_check == PP_NID_AT_POLL)
		pp_nid_changed(q->pol, q->pool, numa_mem_id());
	poll_rx_cq(q, q->cfg.budget, out);
	out->busy = out->rx == q->cfg.budget ||
		    rq->tx_cqe_cons != rq->tx_cqe_prod;
	rxq_rx_done(q, out);
	if (q->cfg.redirect_port == RXQ_PORT_OTHER && !q->port_remote &&
	    rq->tx_cqe_cons != rq->tx_cqe_prod) {
		/* the other port's NAPI on this CPU, its irq's: polled in this
		 * softirq after this one (net_rx_action's list), while this
		 * queue's NAPI is still scheduled here only if it used its
		 * budget; 6.12 then returns the frames directly */
		q->napi.list_owner = out->rx == q->cfg.budget ?
				     smp_processor_id() : -1;
		mlx5_port_poll(q, out);
		q->napi.list_owner = smp_processor_id();
		out->busy |= rq->tx_cqe_cons != rq->tx_cqe_prod;
	}
	if (!out->busy && !rq->cq_armed)
		arm_cqs(rq, &rq->cq_armed);
	mem_work_store(q->cpu, rq->l.state + ST_CQ_DB);
	if (rq->tx_prod != rq->tx_db) {
		/* mlx5e_xmit_xdp_doorbell(): an MMIO write to the NIC */
		out->cpu.cycles += q->cfg.cost.doorbell;
		pcie_mmio_write(rq->link, &rq->host, SQ_DOORBELL);
		if (mlx5_doorbell_far(q))
			mem_work_wait(q->cpu, MEM_DOORBELL, MEM_RCACHE,
				      rq->qpi_lat *
				      q->cfg.overlap.store_exposure);
		mem_work_store(q->cpu, rq->l.sq_db);
		rq->tx_db = rq->tx_prod;
	}
	if (q->era->driver.nid_check == PP_NID_AT_REFILL)
		pp_nid_changed(q->pol, q->pool, numa_mem_id());
	mlx5_refill(q);
}

