/* The mlx5 legacy RQ's NIC side: packets and completions written, XDP_TX
 * frames read and sent, and what each puts on PCIe (mlx5.h). */
#include <math.h>
#include <string.h>
#include "mlx5.h"

int mlx5_nic_free(const struct rxq *q)
{
	const struct mlx5_rq *rq = rq_of(q);

	if (rq->mp)
		return mpwqe_nic_free(q);
	return (int)(rq->posted - rq->cq_prod);
}

/* The NIC looks: the doorbells the CPU side rang since the last time.
 * Returns the bytes t held for the down link before. */
static double nic_sees_host(struct mlx5_rq *rq, struct pcie_traffic *t)
{
	double down = pcie_traffic_dir(t, PCIE_DOWN);

	pcie_traffic_add(t, &rq->host);
	memset(&rq->host, 0, sizeof(rq->host));
	return down;
}

/* A DMA read the NIC decides on at now and issues from after on:
 * counted, and timed on its tags and the down link.  Returns when its
 * data is in. */
static double nic_read(struct mlx5_rq *rq, struct pcie_traffic *t, int node,
		       const struct pcie_rd_cost *r, double now, double after,
		       double mem_lat)
{
	pcie_add_read(t, node, r);
	rq->read_down += r->cpl;
	return pcie_read(rq->pcie, now, after, r, mem_lat);
}

/* The look is over: the rest of what it put on the down link (MMIO,
 * DLLPs) delays the completions of later reads. */
static void nic_done(struct mlx5_rq *rq, double now,
		     const struct pcie_traffic *t, double down_before)
{
	pcie_down_busy(rq->pcie, now, pcie_traffic_dir(t, PCIE_DOWN) -
				     down_before - rq->read_down);
	rq->read_down = 0;
}

/*
 * A completion into CQ line cqe.  If NAPI completed since the last one,
 * the CQ was armed: the completion raises an event, an EQE and its MSI-X,
 * and the irq handler re-arms the EQ (eq.c mlx5_eq_comp_int: eq_update_ci).
 * The EQ is taken to be on the channel's node, with its CQs (guess).
 */
static void write_cqe(struct rxq *q, u32 cqe, int node, bool *armed,
		      struct pcie_traffic *t)
{
	struct mlx5_rq *rq = rq_of(q);

	mem_nic_write(q->m, cqe);
	pcie_add_write(t, node, &rq->cqe_wr);
	if (!*armed)
		return;
	*armed = false;
	pcie_add_write(t, node, &rq->eqe_wr);
	pcie_msi(rq->link, t);
	pcie_mmio_write(rq->link, &rq->host, EQ_DOORBELL);
}

/*
 * The rx descriptors from idx on, wqe_fetch of them in one read.  The NIC
 * reads them ahead of the packets that need them, so no packet waits for
 * this read; its tag is taken all the same.  How many it reads at once is
 * not published (nic.wqe_fetch, a guess).
 */
static void fetch_rx_wqes(struct rxq *q, u32 idx, double now,
			  struct pcie_traffic *t)
{
	struct mlx5_rq *rq = rq_of(q);
	int bytes = mlx5_cfg(&q->cfg)->wqe_fetch * RX_WQE_SIZE;
	double lat = 0;

	for (int k = 0; k < bytes; k += MEM_LINE)
		lat = fmax(lat, mem_nic_read(q->m, rq->l.rx_wqe +
					     (idx + (u32)k / RX_WQE_SIZE) /
					     WQE_PER_LINE));
	nic_read(rq, t, rq->nic_node, &rq->wqe_rd, now, now, lat);
	q->st.rx_wqe_reads++;
}

/*
 * The RQ has no MMIO doorbell: the driver writes the producer counter to
 * its doorbell record in host memory (en_rx.c: mlx5_wq_cyc_update_db_record)
 * and the NIC reads it.  Taken here to read it when it has used every
 * descriptor it knew of (how often it does is not published: guess).
 */
static void read_db_record(struct rxq *q, double now, struct pcie_traffic *t)
{
	struct mlx5_rq *rq = rq_of(q);
	double lat = mem_nic_read(q->m, rq->l.state + ST_RQ_DB);

	nic_read(rq, t, q->node, &rq->db_rd, now, now, lat);
	rq->db_known = rq->posted;
}

/*
 * The completions of len packets from CQ slot first on, written once the
 * last of them is in memory.  Without compression a session is one plain
 * CQE.  With it (rx_cqe_compress), the NIC writes the completions it has
 * back to back as a session: a title CQE in the first slot, then mini CQE
 * arrays of MINI_CQE_ARRAY, the first in the next slot and each further
 * one in the slot of the completion it starts (en_rx.c
 * mlx5e_decompress_cqes_start/_cont read them there); the slots between
 * stay unwritten.  A session ends with the NIC's burst or at
 * nic.cqe_session completions (the device's cqe_compression_max_num,
 * mlx5_ifc.h, whose value is not published); a lone completion is a plain
 * CQE.
 */
static void write_session(struct rxq *q, u32 first, int len,
			  struct pcie_traffic *t)
{
	struct mlx5_rq *rq = rq_of(q);

	rq->cq_session[first & rq->rx_mask] = (u16)len;
	write_cqe(q, rq->l.cqe + (first & rq->rx_mask), q->node,
		  &rq->cq_armed, t);
	for (int k = 1; k < len; k += k == 1 ? MINI_CQE_ARRAY - 1
					    : MINI_CQE_ARRAY)
		write_cqe(q, rq->l.cqe + ((first + (u32)k) & rq->rx_mask),
			  q->node, &rq->cq_armed, t);
}

int mlx5_nic_rx(struct rxq *q, int n, double now, struct pcie_traffic *t)
{
	struct mlx5_rq *rq = rq_of(q);
	const struct mlx5_config *mc = mlx5_cfg(&q->cfg);
	int free = mlx5_nic_free(q);
	int most = mc->cqe_compress ? mc->cqe_session : 1;
	double down;
	u32 first;

	if (rq->mp)
		return mpwqe_nic_rx(q, n, now, t);
	down = nic_sees_host(rq, t);
	first = rq->cq_prod;
	if (free < n) {
		q->st.rx_out_of_buffer += (u32)(n - free);
		n = free;
	}
	for (int i = 0; i < n; i++) {
		u32 idx = rq->cq_prod & rq->rx_mask;
		struct page *page = rq->rx_page[idx];

		prefetch_ahead(q, idx, false);

		if (rq->cq_prod == rq->db_known)
			read_db_record(q, now, t);
		/* wqe_fetch is a power of 2 (mlx5_check): no division */
		if ((idx & (u32)(mc->wqe_fetch - 1)) == 0)
			fetch_rx_wqes(q, idx, now, t);
		for (int k = 0; k < q->pkt_lines; k++)
			mem_nic_write(q->m, rq->rx_line[idx] + (u32)k);
		pcie_add_write(t, page_to_nid(page), &rq->pkt_wr);
		rq->cq_prod++;
		if ((int)(rq->cq_prod - first) == most || i == n - 1) {
			write_session(q, first, (int)(rq->cq_prod - first), t);
			first = rq->cq_prod;
		}
	}
	nic_done(rq, now, t, down);
	return n;
}

/*
 * The frames the doorbell handed over: for each, the descriptor, then the
 * packet it points to, two reads in turn.  The doorbell is an MMIO write:
 * it reaches the NIC one link latency after the CPU rang it at now.  A
 * frame waits in the ring until a tag is free for its first read: the
 * NIC has no more reads under way than tags, whose data the down link
 * brings at its rate.
 */
static void issue_tx_reads(struct rxq *q, double now, struct pcie_traffic *t)
{
	struct mlx5_rq *rq = rq_of(q);
	double at = now + rq->link->lat;

	while (rq->tx_issued != rq->tx_db && pcie_tag_free(rq->pcie) <= at) {
		u32 i = rq->tx_issued & rq->tx_mask;
		struct page *page = rq->tx_page[i];
		double lat = mem_nic_read(q->m, rq->l.tx_wqe + i), wqe_in;

		wqe_in = nic_read(rq, t, rq->nic_node, &rq->tx_wqe_rd, now, at,
				  lat);
		lat = 0;
		for (int k = 0; k < q->pkt_lines; k++)
			lat = fmax(lat, mem_nic_read(q->m,
						     pkt_line(q, page, k)));
		rq->tx_ready[i] = nic_read(rq, t, page_to_nid(page),
					   &rq->pkt_rd, now, wqe_in, lat);
		rq->tx_last[i] = rq->tx_issued + 1 == rq->tx_db;
		rq->tx_issued++;
	}
}

int mlx5_nic_tx(struct rxq *q, double now, struct pcie_traffic *t)
{
	struct mlx5_rq *rq = rq_of(q);
	double down = nic_sees_host(rq, t);
	int sent = 0;

	issue_tx_reads(q, now, t);
	/* out on the wire as their data comes in, in order; the last of a
	 * doorbell's batch asks for the completion (mlx5e_notify_hw sets
	 * MLX5_WQE_CTRL_CQ_UPDATE on the WQE it rings for) */
	while (rq->tx_sent != rq->tx_issued &&
	       rq->tx_ready[rq->tx_sent & rq->tx_mask] <= now) {
		u32 i = rq->tx_sent++ & rq->tx_mask;

		sent++;
		if (!rq->tx_last[i])
			continue;
		rq->tx_cqe_end[rq->tx_cqe_prod & rq->tx_mask] = rq->tx_sent;
		write_cqe(q, rq->l.tx_cqe + (rq->tx_cqe_prod & rq->tx_mask),
			  rq->tx_cq_node, rq->tx_armed, t);
		rq->tx_cqe_prod++;
	}
	nic_done(rq, now, t, down);
	return sent;
}

double mlx5_nic_next(const struct rxq *q)
{
	const struct mlx5_rq *rq = rq_of(q);
	double next = rq->tx_sent != rq->tx_issued ?
		      rq->tx_ready[rq->tx_sent & rq->tx_mask] : INFINITY;

	if (rq->tx_issued != rq->tx_db)	/* waiting for a tag */
		next = fmin(next, pcie_tag_free(rq->pcie));
	return next;
}

bool mlx5_nic_blocked(const struct rxq *q)
{
	const struct mlx5_rq *rq = rq_of(q);

	if (rq->mp)
		return !mpwqe_nic_free(q) && rq->tx_sent == rq->tx_db;
	return rq->cq_prod == rq->posted && rq->tx_sent == rq->tx_db;
}

int mlx5_pending(const struct rxq *q)
{
	const struct mlx5_rq *rq = rq_of(q);

	return (int)(rq->cq_prod - rq->cq_cons) +
	       (q->port_remote ? 0
			       : (int)(rq->tx_cqe_prod - rq->tx_cqe_cons));
}

/* ---- what the striding RQ's NIC side shares (mpwqe.c) ---- */

double mlx5_nic_sees_host(struct mlx5_rq *rq, struct pcie_traffic *t)
{
	return nic_sees_host(rq, t);
}

double mlx5_nic_read(struct mlx5_rq *rq, struct pcie_traffic *t, int node,
		     const struct pcie_rd_cost *r, double now, double after,
		     double mem_lat)
{
	return nic_read(rq, t, node, r, now, after, mem_lat);
}

void mlx5_nic_done(struct mlx5_rq *rq, double now,
		   const struct pcie_traffic *t, double down_before)
{
	nic_done(rq, now, t, down_before);
}

void mlx5_write_session(struct rxq *q, u32 first, int len,
			struct pcie_traffic *t)
{
	write_session(q, first, len, t);
}

void mlx5_read_db_record(struct rxq *q, double now, struct pcie_traffic *t)
{
	read_db_record(q, now, t);
}
