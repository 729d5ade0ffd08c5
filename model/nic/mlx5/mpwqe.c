/*
 * The mlx5 striding RQ (driver.rq_type = striding): multi-packet WQEs, the
 * default RQ type of ConnectX-5 and later.  Read for behaviour in the
 * mlx5 driver of linux 6.1 and 6.12 (drivers/net/ethernet/mellanox/mlx5/
 * core: en_rx.c, en_main.c, en/params.c, en.h); the project's own code.
 *
 * A WQE is 2^MLX5_MPWRQ_MAX_LOG_WQE_SZ = 256 KiB of pages (64 of 4 KiB),
 * mapped for the NIC by a UMR WQE the driver posts on its ICOSQ (en_rx.c
 * mlx5e_alloc_rx_mpwqe: a page_pool page and one 8-byte MTT a page), and
 * cut into strides; the RQ's descriptor is one 32-byte WQE a WQE
 * (struct mlx5e_rx_wqe_ll with one data segment) in a linked list.  The
 * NIC writes each packet into the next strides of the current WQE and a
 * CQE for it, which says the WQE, the stride and the strides it consumed
 * (mlx5e_handle_rx_cqe_mpwrq: mpwrq_get_cqe_stride_index,
 * mpwrq_get_cqe_consumed_strides); it reads a WQE (and its UMR) once for
 * all its packets, where the legacy RQ reads a descriptor a packet.  When
 * NAPI has handled the last stride of a WQE, the driver releases its
 * pages (mlx5e_free_rx_mpwqe) and the WQE goes back to the list; the
 * refill allocates whole WQEs, two at least (mlx5e_post_rx_mpwqes,
 * en/params.c mlx5e_mpwqe_get_min_wqe_bulk: UMR_WQE_BULK), and the list
 * keeps one WQE unposted (mlx5_wq_ll_missing: sz_m1 - cur_sz).
 *
 * Strides (en/params.c): a packet that fits a page with its headroom and
 * skb_shared_info is "linear"; its stride is that size rounded up to a
 * power of 2 (mlx5e_rx_get_linear_stride_sz), a whole page with XDP ("XDP
 * in mlx5e doesn't support multiple packets per page"), so an XDP packet
 * has a page of its own, at the same offset as in the legacy RQ.
 * Otherwise strides are MLX5E_RX_MAX_HEAD = 256 bytes
 * (MLX5_MPWRQ_DEF_LOG_STRIDE_SZ) and a packet takes as many as it needs.
 * The rx ring's rx_ring packets (log_rq_mtu_frames) make rx_ring / pkts
 * WQEs, 4 at least (mlx5e_mpwqe_get_log_rq_size,
 * MLX5E_PARAMS_MINIMUM_LOG_RQ_SIZE_MPW).
 *
 * Pages of a WQE, by era (kernel_era.h, mpwqe_frags): 6.1 releases each
 * page at the WQE's end unless XDP kept it (XDP_TX, XDP_REDIRECT: the
 * xdp_xmit_bitmap), whose holder releases it; an rx skb takes a page
 * reference on its page, or on each page it holds a fragment of
 * (mlx5e_skb_from_cqe_mpwrq_linear, mlx5e_add_skb_frag: page_ref_inc),
 * so page_pool lets a page still under skbs go at the WQE's end.  6.12
 * takes each page as MLX5E_PAGECNT_BIAS_MAX = 64 page_pool fragments
 * (page_pool_fragment_page), a kept packet or an skb takes one of each
 * of its pages (frags++), the WQE's end drains the others
 * (page_pool_unref_page) and whoever drops the last puts the page
 * (mlx5e_page_release_fragmented).
 *
 * Without XDP several packets share a page (2048-byte strides at MTU
 * 1500); past a page a packet spans strides and pages, its first 256
 * bytes copied into the skb's head and the rest its fragments
 * (mlx5e_skb_from_cqe_mpwrq_nonlinear).  mlx5_check refuses what is not
 * modelled, mlx5_check_era what the era's mlx5 refuses (XDP past a
 * page).  Simplified: a WQE is the NIC's at the refill's doorbell (mlx5
 * posts it when NAPI next sees its UMR completion, at most a poll
 * later); the NIC reads a WQE and its UMR when it starts the WQE; the
 * ICOSQ holds one UMR slot a WQE; no filler CQE ends a WQE whose strides
 * no longer hold a packet; the era's page_pool_nid_changed() comes where
 * the legacy RQ's does, each poll, where mlx5 calls it only when the
 * refill has two WQEs to take.
 */
#include <stdlib.h>
#include "mlx5.h"

#define LOG_WQE_SZ	18	/* MLX5_MPWRQ_MAX_LOG_WQE_SZ */
#define PAGE_BYTES	(MEM_PAGE_LINES * MEM_LINE)
#define MAX_HEAD	256	/* MLX5E_RX_MAX_HEAD: non-linear stride */
#define HARD_MTU	22	/* MLX5E_ETH_HARD_MTU: ETH_HLEN + VLAN_HLEN +
				 * ETH_FCS_LEN, hw_mtu over sw_mtu */
#define SKB_PAD		64	/* MLX5_RX_HEADROOM: NET_SKB_PAD */
#define SHINFO		320	/* SKB_DATA_ALIGN(sizeof(struct
				 * skb_shared_info)), x86-64 */
#define MIN_WQES	4	/* 1 << MLX5E_PARAMS_MINIMUM_LOG_RQ_SIZE_MPW */
#define WQE_BULK	2	/* UMR_WQE_BULK: the refill's least */
#define PAGECNT_BIAS	64	/* MLX5E_PAGECNT_BIAS_MAX: PAGE_SIZE / 64 */
#define MPWQE_SIZE	32	/* struct mlx5e_rx_wqe_ll, one data seg */
#define MTT_SIZE	8	/* struct mlx5_mtt: a page's address */
#define UMR_HDR		128	/* struct mlx5e_umr_wqe: ctrl, umr ctrl and
				 * mkey segments before the inline MTTs */

/* The RQ's own state beyond struct mlx5_rq's. */
struct mpwqe {
	struct mpwqe_geometry g;
	u32 nr_wqes;		/* a power of 2 */
	struct page **page;	/* each WQE's pages, g.pages a WQE */
	u8 *kept;		/* and of each, the packets XDP kept */
	u32 l_wqe;		/* rx WQEs, MLX5_SEND_WQE_BB / 32 a line */
	u32 l_umr;		/* UMR WQEs on the ICOSQ, umr_lines a WQE */
	u32 l_ico_cqe;		/* the ICOSQ's CQ, a CQE a UMR */
	u32 l_info;		/* struct mlx5e_mpw_info: a line, then its
				 * alloc units, 8 bytes a page */
	int umr_lines, info_lines;
	struct pcie_rd_cost wqe_rd, umr_rd;
	u32 released;		/* WQEs NAPI released */
	u32 frag_slot;		/* the slot of the packet's first fragment
				 * page (non-linear) */
	u32 umr_seen;		/* WQEs whose UMR completion NAPI read */
	u32 nic_wqe;		/* WQEs the NIC started */
	int nic_stride;		/* the next stride of the NIC's WQE */
	int cons_stride;	/* the next stride NAPI handles */
	struct page *rx_page;	/* the packet the workload has */
	bool rx_kept;		/* and whether XDP kept its page */
};

/* ---- the layout of a WQE ---- */

static int align_up(int v, int a)
{
	return (v + a - 1) / a * a;
}

/* en/params.c: mlx5e_rx_get_linear_sz_skb (MLX5_SKB_FRAG_SZ of the
 * headroom and hw_mtu), mlx5e_rx_get_linear_stride_sz,
 * mlx5e_rx_mpwqe_is_linear_skb, mlx5e_mpwqe_get_log_stride_size. */
void mpwqe_geometry(int mtu, bool xdp, int pkt_size,
		    struct mpwqe_geometry *g)
{
	int headroom = xdp ? XDP_HEADROOM : SKB_PAD;
	int linear = align_up(headroom + mtu + HARD_MTU, MEM_LINE) + SHINFO;
	int linear_stride = pow2_ceil(linear);

	if (xdp && linear_stride < PAGE_BYTES)
		linear_stride = PAGE_BYTES;
	g->linear = linear <= PAGE_BYTES;
	g->max_linear_mtu = PAGE_BYTES - SHINFO - headroom - HARD_MTU;
	/* non-linear: 256 bytes, a page with XDP (6.12: "XDP in mlx5e
	 * doesn't support multiple packets per page") */
	if (g->linear)
		g->stride = linear_stride;
	else
		g->stride = xdp ? PAGE_BYTES : MAX_HEAD;
	g->strides = (1 << LOG_WQE_SZ) / g->stride;
	g->pages = (1 << LOG_WQE_SZ) / PAGE_BYTES;
	g->ring_pkts = (1 << LOG_WQE_SZ) / linear_stride;
	g->headroom = g->linear ? headroom : 0;
	/* linear: one stride a packet; else its bytes, no headroom */
	g->pkt_strides = g->linear ? 1 : (pkt_size + g->stride - 1) /
					 g->stride;
	g->pkts = g->strides / g->pkt_strides;
}

static struct mpwqe *mp_of(const struct rxq *q)
{
	return rq_of(q)->mp;
}

static u32 wqe_slot(const struct mpwqe *mp, u32 wqe)
{
	return wqe & (mp->nr_wqes - 1);
}

/* The slot of the page a WQE's stride is in. */
static u32 page_slot(const struct mpwqe *mp, u32 wqe, int stride)
{
	return wqe_slot(mp, wqe) * (u32)mp->g.pages +
	       (u32)(stride * mp->g.stride / PAGE_BYTES);
}

/*
 * The rx CQ holds a CQE a stride (en/params.c mlx5e_build_rx_cq_param:
 * log_rq_size + log_num_strides): rx_ring CQEs when a packet takes a
 * stride, as the legacy RQ's CQ mlx5_open() laid out; past a page far
 * more (a ring of 1024 at MTU 9000: 64 WQEs of 1024 strides), a CQ of
 * its own, laid out here after the legacy RQ's objects.
 */
static int open_cq(struct rxq *q, const struct mpwqe *mp)
{
	struct mlx5_rq *rq = rq_of(q);
	u32 size = mp->nr_wqes * (u32)mp->g.strides;

	if (size == rq->rx_mask + 1)
		return 0;
	free(rq->rx_page);
	free(rq->rx_line);
	free(rq->rx_spage);
	free(rq->cq_session);
	rq->rx_page = calloc(size, sizeof(*rq->rx_page));
	rq->rx_line = calloc(size, sizeof(*rq->rx_line));
	rq->rx_spage = calloc(size, sizeof(*rq->rx_spage));
	rq->cq_session = calloc(size, sizeof(*rq->cq_session));
	if (!rq->rx_page || !rq->rx_line || !rq->rx_spage || !rq->cq_session)
		return -1;
	rq->rx_mask = size - 1;
	rq->l.cqe = mem_region(q->m, q->node, MEM_CQE, size);
	return 0;
}

int mpwqe_open(struct rxq *q)
{
	struct mlx5_rq *rq = rq_of(q);
	struct mpwqe *mp = calloc(1, sizeof(*mp));
	u32 slots;

	if (!mp)
		return -1;
	rq->mp = mp;
	mpwqe_geometry(mlx5_cfg(&q->cfg)->mtu, rxq_xdp(&q->cfg),
		       q->cfg.pkt_size, &mp->g);
	/* a power of 2, and 4 at least: mlx5 raises a smaller ring to
	 * that (en/params.c mlx5e_mpwqe_get_log_rq_size: the max of
	 * log_rq_mtu_frames less the packets a WQE counts and
	 * MLX5E_PARAMS_MINIMUM_LOG_RQ_SIZE_MPW) */
	mp->nr_wqes = (u32)(q->cfg.rx_ring / mp->g.ring_pkts);
	if (mp->nr_wqes < MIN_WQES)
		mp->nr_wqes = MIN_WQES;
	/* en_main.c mlx5e_alloc_rq: pages_per_wqe << log_rq_size, rx_ring
	 * for XDP's page a packet, half of it at MTU 1500 without, four
	 * times it at 9000 */
	q->pool_size = mp->nr_wqes * (u32)mp->g.pages;
	slots = mp->nr_wqes * (u32)mp->g.pages;
	mp->page = calloc(slots, sizeof(*mp->page));
	mp->kept = calloc(slots, sizeof(*mp->kept));
	if (!mp->page || !mp->kept)
		return -1;
	mp->umr_lines = align_up(UMR_HDR + mp->g.pages * MTT_SIZE,
				 MEM_LINE) / MEM_LINE;
	mp->info_lines = 1 + align_up(mp->g.pages * MTT_SIZE, MEM_LINE) /
			     MEM_LINE;
	/* descriptors on the NIC's node, the ICOSQ's CQ and the driver's
	 * arrays on the channel's (as mlx5.h says of the legacy RQ's) */
	mp->l_wqe = mem_region(q->m, rq->nic_node, MEM_RX_WQE,
			       mp->nr_wqes * MPWQE_SIZE / MEM_LINE + 1);
	mp->l_umr = mem_region(q->m, rq->nic_node, MEM_TX_WQE,
			       mp->nr_wqes * (u32)mp->umr_lines);
	mp->l_ico_cqe = mem_region(q->m, q->node, MEM_CQE, mp->nr_wqes);
	mp->l_info = mem_region(q->m, q->node, MEM_STATE,
				mp->nr_wqes * (u32)mp->info_lines);
	mp->wqe_rd = pcie_rd_cost_of(rq->link, MPWQE_SIZE);
	mp->umr_rd = pcie_rd_cost_of(rq->link, mp->umr_lines * MEM_LINE);
	if (open_cq(q, mp))
		return -1;
	return mem_error(q->m) ? -1 : 0;
}

void mpwqe_free(struct rxq *q)
{
	struct mpwqe *mp = mp_of(q);

	if (!mp)
		return;
	free(mp->page);
	free(mp->kept);
	free(mp);
}

/* ---- the refill: whole WQEs ---- */

/* A page becomes 64 page_pool fragments in eras that have them
 * (page_pool_fragment_page writes struct page's pp_ref_count). */
static void take_page(struct rxq *q, struct page *page)
{
	if (!q->era->driver.mpwqe_frags)
		return;
	page->pp_ref_count.counter = PAGECNT_BIAS;
	mem_work_store(q->cpu, spage_line(q, page));
}

/* mlx5e_alloc_rx_mpwqe(): the pages, their MTTs into the UMR WQE (its
 * header copied from the RQ's template), the WQE's info reset.  Returns
 * false, with the pages it took given back, when one cannot be had. */
static bool alloc_wqe(struct rxq *q, u32 wqe)
{
	struct mpwqe *mp = mp_of(q);
	u32 first = page_slot(mp, wqe, 0);
	u32 umr = mp->l_umr + wqe_slot(mp, wqe) * (u32)mp->umr_lines;
	u32 info = mp->l_info + wqe_slot(mp, wqe) * (u32)mp->info_lines;

	for (int i = 0; i < UMR_HDR / MEM_LINE; i++)
		mem_work_store(q->cpu, umr + (u32)i);
	for (int i = 0; i < mp->g.pages; i++) {
		struct page *page = mlx5_page_alloc(q);

		if (!page) {
			/* err_unmap: each back as it came */
			while (i--) {
				struct page *p = mp->page[first + (u32)i];

				pp_unref_page(p, PAGECNT_BIAS);
				mlx5_release_page(q, p);
			}
			return false;
		}
		take_page(q, page);
		mp->page[first + (u32)i] = page;
		mp->kept[first + (u32)i] = 0;
		if (i % (MEM_LINE / MTT_SIZE) == 0)
			mem_work_store(q->cpu, umr + (u32)((UMR_HDR + i *
				       MTT_SIZE) / MEM_LINE));
	}
	for (int i = 0; i < mp->info_lines; i++)
		mem_work_store(q->cpu, info + (u32)i);
	return true;
}

/* The UMR completions NAPI reads on the ICOSQ's CQ (mlx5e_poll_ico_cq),
 * one a WQE posted since. */
static void read_umr_completions(struct rxq *q)
{
	struct mlx5_rq *rq = rq_of(q);
	struct mpwqe *mp = mp_of(q);

	for (; mp->umr_seen != rq->posted; mp->umr_seen++)
		mem_work_read_ring(q->cpu, mp->l_ico_cqe +
				   wqe_slot(mp, mp->umr_seen));
}

/* mlx5e_post_rx_mpwqes(): the WQEs missing, when two at least, then the
 * ICOSQ's doorbell (mlx5e_notify_hw: an MMIO write) for their UMRs. */
void mpwqe_refill(struct rxq *q)
{
	struct mlx5_rq *rq = rq_of(q);
	struct mpwqe *mp = mp_of(q);
	u32 room = mp->released + mp->nr_wqes - 1;
	u32 before = rq->refilled;

	read_umr_completions(q);
	if (room - rq->refilled < WQE_BULK)
		return;
	while (rq->refilled != room) {
		if (!alloc_wqe(q, rq->refilled)) {
			q->st.alloc_failed++;
			break;
		}
		/* the previous WQE's next pointer (mlx5_wq_ll_push) */
		mem_work_store(q->cpu, mp->l_wqe + wqe_slot(mp, rq->refilled) *
				       MPWQE_SIZE / MEM_LINE);
		rq->refilled++;
	}
	if (rq->refilled == before)
		return;
	q->cpu->cycles += q->cfg.cost.doorbell;
	pcie_mmio_write(rq->link, &rq->host, SQ_DOORBELL);
	if (mlx5_doorbell_far(q))
		mem_work_wait(q->cpu, MEM_DOORBELL, MEM_RCACHE, rq->qpi_lat *
			      q->cfg.overlap.store_exposure);
	mem_work_store(q->cpu, rq->l.state + ST_RQ_DB);
}

int mpwqe_fill(struct rxq *q, const char **err)
{
	struct mlx5_rq *rq = rq_of(q);
	struct mpwqe *mp = mp_of(q);

	mpwqe_refill(q);
	if (rq->refilled != mp->nr_wqes - 1) {
		*err = "not enough pages to fill the rx ring";
		return -1;
	}
	rq->posted = rq->refilled;
	mp->umr_seen = rq->posted;	/* the opening's, not counted */
	return 0;
}

/* Whether the RQ holds a page of a WQE not released: one no packet kept;
 * or, in an era of fragments, one whose keepers all put theirs back
 * (the WQE's bias still holds it). */
static bool rq_holds(const struct rxq *q, const struct mpwqe *mp, u32 s)
{
	long refs = mp->page[s]->pp_ref_count.counter;

	return !mp->kept[s] || (q->era->driver.mpwqe_frags &&
				refs <= PAGECNT_BIAS - mp->kept[s]);
}

/* Pages the RQ holds, those a packet took away and still has not among
 * them (their holder counts them). */
u32 mpwqe_held(const struct rxq *q)
{
	const struct mlx5_rq *rq = rq_of(q);
	const struct mpwqe *mp = mp_of(q);
	u32 n = 0;

	for (u32 w = mp->released; w != rq->refilled; w++)
		for (int i = 0; i < mp->g.pages; i++)
			n += rq_holds(q, mp, page_slot(mp, w, 0) + (u32)i);
	return n;
}

/* ---- the NIC side ---- */

int mpwqe_nic_free(const struct rxq *q)
{
	const struct mlx5_rq *rq = rq_of(q);
	const struct mpwqe *mp = mp_of(q);

	if (rq->posted == mp->nic_wqe)
		return 0;
	return (int)(rq->posted - mp->nic_wqe) * mp->g.pkts -
	       mp->nic_stride / mp->g.pkt_strides;
}

/* The NIC starts a WQE: it reads the RQ's doorbell record when it has
 * used every WQE it knew of (as the legacy RQ, mlx5_read_db_record),
 * then the WQE and the UMR that mapped its pages, and completes the UMR
 * on the ICOSQ's CQ.  Neither read holds a packet up. */
static void start_wqe(struct rxq *q, double now, struct pcie_traffic *t)
{
	struct mlx5_rq *rq = rq_of(q);
	struct mpwqe *mp = mp_of(q);
	u32 s = wqe_slot(mp, mp->nic_wqe);
	u32 umr = mp->l_umr + s * (u32)mp->umr_lines;
	double lat = 0;

	if (mp->nic_wqe == rq->db_known)
		mlx5_read_db_record(q, now, t);
	for (int k = 0; k < mp->umr_lines; k++) {
		double l = mem_nic_read(q->m, umr + (u32)k);

		lat = l > lat ? l : lat;
	}
	mlx5_nic_read(rq, t, rq->nic_node, &mp->umr_rd, now, now, lat);
	lat = mem_nic_read(q->m, mp->l_wqe + s * MPWQE_SIZE / MEM_LINE);
	mlx5_nic_read(rq, t, rq->nic_node, &mp->wqe_rd, now, now, lat);
	q->st.rx_wqe_reads++;
	mem_nic_write(q->m, mp->l_ico_cqe + s);
	pcie_add_write(t, q->node, &rq->cqe_wr);
}

/* The line byte b of a WQE's pages is in (b a multiple of MEM_LINE). */
static u32 wqe_line(const struct rxq *q, const struct mpwqe *mp, u32 wqe,
		    int b)
{
	const struct page *page = mp->page[page_slot(mp, wqe, 0) +
					   (u32)(b / PAGE_BYTES)];

	return frame_line(q, page) + (u32)(b % PAGE_BYTES / MEM_LINE);
}

/*
 * A packet into the NIC's next strides; returns its first line.  A
 * linear packet lies in its stride after the headroom; a non-linear one
 * from its first stride's start on, over as many strides as it needs,
 * across the pages they are in (the lines of one page are one run, the
 * next page's elsewhere): every line it writes is where DDIO puts it.
 */
static u32 write_packet(struct rxq *q, struct pcie_traffic *t)
{
	struct mlx5_rq *rq = rq_of(q);
	struct mpwqe *mp = mp_of(q);
	u32 s = page_slot(mp, mp->nic_wqe, mp->nic_stride);
	struct page *page = mp->page[s];
	int b = mp->nic_stride * mp->g.stride + mp->g.headroom;
	u32 line = wqe_line(q, mp, mp->nic_wqe, b);
	u32 c = rq->cq_prod & rq->rx_mask;

	for (int k = 0; k < q->pkt_lines; k++)
		mem_nic_write(q->m, wqe_line(q, mp, mp->nic_wqe,
					     b + k * MEM_LINE));
	pcie_add_write(t, page_to_nid(page), &rq->pkt_wr);
	rq->rx_page[c] = page;
	rq->rx_line[c] = line;
	rq->rx_spage[c] = spage_line(q, page);
	mp->nic_stride += mp->g.pkt_strides;
	if (mp->nic_stride + mp->g.pkt_strides > mp->g.strides) {
		/* the next does not fit: the next WQE (non-linear, the NIC
		 * ends this one with a filler CQE, not modelled) */
		mp->nic_stride = 0;
		mp->nic_wqe++;
	}
	return line;
}

int mpwqe_nic_rx(struct rxq *q, int n, double now, struct pcie_traffic *t)
{
	struct mlx5_rq *rq = rq_of(q);
	const struct mlx5_config *mc = mlx5_cfg(&q->cfg);
	struct mpwqe *mp = mp_of(q);
	int free = mpwqe_nic_free(q);
	int most = mc->cqe_compress ? mc->cqe_session : 1;
	double down = mlx5_nic_sees_host(rq, t);
	u32 first = rq->cq_prod;

	if (free < n) {
		q->st.rx_out_of_buffer += (u32)(n - free);
		n = free;
	}
	for (int i = 0; i < n; i++) {
		if (mp->nic_stride == 0)
			start_wqe(q, now, t);
		write_packet(q, t);
		rq->cq_prod++;
		if ((int)(rq->cq_prod - first) == most || i == n - 1) {
			mlx5_write_session(q, first, (int)(rq->cq_prod - first),
					   t);
			first = rq->cq_prod;
		}
	}
	mlx5_nic_done(rq, now, t, down);
	return n;
}

/* ---- NAPI ---- */

/*
 * A non-linear packet (mlx5e_skb_from_cqe_mpwrq_nonlinear): the driver
 * copies its first MLX5E_RX_MAX_HEAD bytes into the skb's own head
 * (mlx5e_copy_skb_header: read here; the head's lines are not modelled)
 * and gives the skb the rest as fragments, a page at a time
 * (mlx5e_fill_skb_data): those pages, for the workload (rxq_rx_frags).
 */
static void nonlinear_skb(struct rxq *q, struct mpwqe *mp, u32 line)
{
	int head = MAX_HEAD < q->cfg.pkt_size ? MAX_HEAD : q->cfg.pkt_size;
	int b = mp->cons_stride * mp->g.stride + head;
	int end = mp->cons_stride * mp->g.stride + q->cfg.pkt_size;

	for (int k = 0; k < head / MEM_LINE; k++)
		mem_work_read(q->cpu, line + (u32)k, 0);
	q->rx_frags = 0;
	mp->frag_slot = page_slot(mp, mp->released, 0) + (u32)(b / PAGE_BYTES);
	while (b < end) {
		int to = (b / PAGE_BYTES + 1) * PAGE_BYTES;

		to = to < end ? to : end;
		q->rx_frag[q->rx_frags++] = (struct tcp_frag){
			mp->page[page_slot(mp, mp->released, 0) +
				 (u32)(b / PAGE_BYTES)],
			wqe_line(q, mp, mp->released, b),
			(to - b + MEM_LINE - 1) / MEM_LINE };
		b = to;
	}
}

/* mlx5e_handle_rx_cqe_mpwrq(): the WQE's info (consumed_strides) and its
 * page's alloc unit, then the packet to the workload, which keeps the
 * page (or each its skb holds as a fragment) unless it gives it back to
 * the driver (mpwqe_keeps). */
void mpwqe_rx_start(struct rxq *q, struct page *page, u32 line)
{
	struct mpwqe *mp = mp_of(q);
	u32 info = mp->l_info + wqe_slot(mp, mp->released) *
		   (u32)mp->info_lines;
	int unit = mp->cons_stride * mp->g.stride / PAGE_BYTES;

	mem_work_store(q->cpu, info);
	mem_work_read_ring(q->cpu, info + 1 + (u32)(unit * MTT_SIZE /
						   MEM_LINE));
	if (!mp->g.linear)
		nonlinear_skb(q, mp, line);
	mp->rx_page = page;
	mp->rx_kept = true;
}

/* mlx5e_free_rx_mpwqe(): each page the WQE still holds goes back; in an
 * era of fragments, the WQE drains the bias its packets did not take
 * (page_pool_unref_page) and releases the page if that was the last. */
static void release_wqe(struct rxq *q)
{
	struct mpwqe *mp = mp_of(q);
	u32 first = page_slot(mp, mp->released, 0);
	bool frags = q->era->driver.mpwqe_frags;

	mem_work_read_random(q->cpu, mp->l_info + wqe_slot(mp, mp->released) *
			     (u32)mp->info_lines);
	for (int i = 0; i < mp->g.pages; i++) {
		u32 s = first + (u32)i;
		struct page *page = mp->page[s];

		mp->page[s] = NULL;
		if (!frags) {
			if (!mp->kept[s])	/* else its holder's */
				mlx5_release_page(q, page);
			continue;
		}
		mem_work_read_random(q->cpu, spage_line(q, page));
		if (pp_unref_page(page, PAGECNT_BIAS - mp->kept[s]) == 0)
			mlx5_release_page(q, page);
		else
			mem_work_store(q->cpu, spage_line(q, page));
	}
	mp->released++;
}

/* A kept packet holds its page, or each page its skb took a fragment of
 * (6.12 mlx5e_skb_from_cqe_mpwrq_nonlinear: frag_page->frags++). */
static void keep_pages(struct rxq *q, struct mpwqe *mp)
{
	if (mp->g.linear) {
		mp->kept[page_slot(mp, mp->released, mp->cons_stride)]++;
		return;
	}
	for (int i = 0; i < q->rx_frags; i++)
		mp->kept[mp->frag_slot + (u32)i]++;
}

void mpwqe_rx_end(struct rxq *q)
{
	struct mpwqe *mp = mp_of(q);

	if (mp->rx_kept)
		keep_pages(q, mp);
	mp->rx_page = NULL;
	mp->cons_stride += mp->g.pkt_strides;
	if (mp->cons_stride + mp->g.pkt_strides > mp->g.strides) {
		mp->cons_stride = 0;
		release_wqe(q);
	}
}

/*
 * The driver's release of a page (mlx5_release_page), true when the page
 * stays: the packet's own, during its rx (the verdict dropped it, or its
 * send failed: the WQE releases it); or a fragment user that is not the
 * last (6.12: page_pool_put_page's page_pool_unref_and_test).
 */
bool mpwqe_keeps(struct rxq *q, struct page *page)
{
	struct mpwqe *mp = mp_of(q);

	if (page == mp->rx_page) {
		mp->rx_kept = false;
		return true;
	}
	return pp_unref_page(page, 1) != 0;
}

/* ---- the rules ---- */

void mpwqe_check(const struct rxq_config *cfg, key_say *say, void *ctx)
{
	const struct mlx5_config *mc = mlx5_cfg(cfg);

	/* either RQ type: the NIC drops a frame over the MTU */
	if (cfg->pkt_size > mc->mtu + 14)
		say(ctx, "driver.mtu", "pkt_size %d does not fit mtu %d (a "
		    "frame of mtu + 14 bytes at most)", cfg->pkt_size,
		    mc->mtu);
}

void mpwqe_check_era(const struct rxq_config *cfg,
		     const struct kernel_era *era, key_say *say, void *ctx)
{
	const struct mlx5_config *mc = mlx5_cfg(cfg);
	struct mpwqe_geometry g;

	if (!rxq_xdp(cfg))
		return;
	/* the legacy RQ's linear test is the same MLX5_SKB_FRAG_SZ of the
	 * headroom and hw_mtu in a page (en/params.c
	 * mlx5e_rx_is_linear_skb) */
	mpwqe_geometry(mc->mtu, true, cfg->pkt_size, &g);
	if (g.linear)
		return;
	if (mc->rq_type == MLX5_RQ_LEGACY) {
		if (!era->driver.legacy_xdp_nonlinear)
			say(ctx, "driver.mtu", "%s's mlx5 refuses XDP at mtu "
			    "%d > %d (en_main.c mlx5e_xdp_allowed: \"XDP is "
			    "not allowed with MTU\")", era->pp.name, mc->mtu,
			    g.max_linear_mtu);
		else
			say(ctx, "driver.mtu", "%s: multi-buffer XDP on a "
			    "legacy RQ (mtu %d > %d: a packet over several "
			    "pages) is not modelled yet", era->pp.name,
			    mc->mtu, g.max_linear_mtu);
		return;
	}
	if (!era->driver.mpwqe_xdp_nonlinear)
		say(ctx, "driver.rq_type", "%s's mlx5 refuses XDP on a "
		    "striding RQ at mtu %d > %d (en_main.c "
		    "mlx5e_params_validate_xdp; multi-buffer XDP on "
		    "striding RQ came in 6.4)", era->pp.name, mc->mtu,
		    g.max_linear_mtu);
	else
		say(ctx, "driver.rq_type", "%s: multi-buffer XDP on a "
		    "striding RQ (mtu %d > %d: a page for each packet's "
		    "linear part, its verdict over every fragment page) is "
		    "not modelled yet", era->pp.name, mc->mtu,
		    g.max_linear_mtu);
}
