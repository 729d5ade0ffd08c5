/*
 * A kernel era: what one kernel does that the model sees, in three parts
 * kept apart:
 *  - its page_pool (struct pp_policy, pp.h): the ops of net/core/page_pool.c;
 *  - its driver's facts (struct era_driver): what that kernel's mlx5 does
 *    around page_pool;
 *  - its stack's facts (struct era_stack): what net/core and net/ipv4 do
 *    with the pool's pages once they are skbs.
 * Each era is one file defining one const struct kernel_era: v5_4.c,
 * v5_5.c, v6_1.c, v6_12.c (the project's page_pool rewrites, sharing
 * era.c), and kernel.c once per --with-linux tree (the tree's own
 * page_pool.c).  pp.c registers the project's eras (pp_eras), cmd/main.c
 * every era of the program (cmd_policies); doc/notes/extending.md says
 * how to add one.
 *
 * The rest of ppsim (the scenario's policies, the engine, the report)
 * hands an era around by its page_pool part, &era->pp, a const struct
 * pp_policy *, whose name is the era's; the queue model finds the era's
 * other facts from it with kernel_era_of().  So every pp_policy the model
 * is given must be the .pp of a kernel_era: never a pp_policy of its own.
 * All of it is constant, defined at build time; nobody frees an era.
 */
#ifndef PPSIM_KERNEL_ERA_H
#define PPSIM_KERNEL_ERA_H

#include <stddef.h>
#include "pp.h"

/* Where that era's mlx5 driver calls page_pool_nid_changed(numa_mem_id()):
 * v5.5 at the top of each rx CQ poll (en_rx.c mlx5e_poll_rx_cq), v6.1 just
 * before the refill (mlx5e_post_rx_wqes); v5.4 has no such call. */
enum pp_nid_check { PP_NID_NEVER, PP_NID_AT_POLL, PP_NID_AT_REFILL };

/* The driver's facts: mlx5 (drivers/net/ethernet/mellanox/mlx5/core) of
 * that kernel. */
struct era_driver {
	enum pp_nid_check nid_check;	/* where it tells page_pool the node */
	/* Its rx skbs (en_rx.c mlx5e_skb_from_cqe_linear) are marked for
	 * recycling (skb_mark_for_recycle, 6.4 on): the skb holds the page's
	 * last page_pool fragment, and its free puts the page back into the
	 * pool, a put without allow_direct from the freeing CPU.  Before,
	 * the skb took a page reference, page_pool let the page go at the
	 * driver's release (refcount 2: released_refcnt) and the skb's free
	 * gave it to the page allocator. */
	bool rx_skb_recycle;
	/* Its striding RQ's pages are page_pool fragments: each taken with
	 * a bias of MLX5E_PAGECNT_BIAS_MAX users, a packet kept (XDP_TX,
	 * XDP_REDIRECT, an skb) takes one, and the WQE's release drains the
	 * rest; the last user puts the page (6.12 en_rx.c
	 * mlx5e_page_alloc_fragmented, mlx5e_page_release_fragmented).
	 * Before (6.1 en_rx.c mlx5e_free_rx_mpwqe): a page kept by XDP is
	 * marked in the WQE's xdp_xmit_bitmap and released by its holder
	 * only; the WQE releases the others. */
	bool mpwqe_frags;
	/* XDP on a striding RQ whose packets do not fit a page (the
	 * non-linear case, multi-buffer XDP: f52ac7028bec, 6.4).  Before,
	 * mlx5e_params_validate_xdp (6.1 en_main.c) refuses it: "XDP is
	 * not allowed with striding RQ and MTU(%d) > %d". */
	bool mpwqe_xdp_nonlinear;
	/* XDP on a legacy RQ whose packets do not fit a page: multi-buffer
	 * XDP over fragments (ea5d49bdae8b; 6.1's mlx5e_params_validate_xdp
	 * lets a frags-aware program in).  Before, mlx5e_xdp_allowed (5.4,
	 * 5.5 en_main.c) refuses it: "XDP is not allowed with MTU(%d) >
	 * %d". */
	bool legacy_xdp_nonlinear;
};

/* The stack's facts: net/core of that kernel. */
struct era_stack {
	/* An skb built from an xdp_frame (__xdp_build_skb_from_frame():
	 * cpumap, veth) is marked for recycling (9c94bbf9a87b, 6.4): its
	 * free puts the page back.  Before, xdp.c called xdp_release_frame()
	 * (6.1 net/core/xdp.c, 5.4's cpumap.c: "Until page_pool get SKB
	 * return path, release DMA here"): page_pool let the page go (its
	 * pp.release, which such an era must have) and the skb's free gave
	 * it to the page allocator. */
	bool frame_skb_recycle;
	/* A reader on another CPU hands the skbs it has copied back to the
	 * CPU that built them (tcp_eat_recv_skb -> skb_attempt_defer_free,
	 * 5.19 on; 6.1 and 6.12 net/core/skbuff.c), where the next NET_RX
	 * softirq frees them (net/core/dev.c skb_defer_free_flush); before,
	 * the reader freed them itself (__kfree_skb). */
	bool skb_defer_free;
};

struct kernel_era {
	struct pp_policy pp;		/* page_pool's own, named as the era */
	struct era_driver driver;
	struct era_stack stack;
};

/* The era whose page_pool part pol is. */
static inline const struct kernel_era *
kernel_era_of(const struct pp_policy *pol)
{
	return (const struct kernel_era *)((const char *)pol -
					   offsetof(struct kernel_era, pp));
}

extern const struct kernel_era kernel_era_v5_4, kernel_era_v5_5,
	kernel_era_v6_1, kernel_era_v6_12;
/* Kernel trees' own net/core/page_pool.c (kernel.c), one per tree of
 * --with-linux in configure's order: only in a program built with them,
 * which registers them beside the eras (cmd/main.c). */
extern const struct kernel_era kernel_era_tree_0, kernel_era_tree_1,
	kernel_era_tree_2, kernel_era_tree_3, kernel_era_tree_4,
	kernel_era_tree_5, kernel_era_tree_6, kernel_era_tree_7;

#endif
