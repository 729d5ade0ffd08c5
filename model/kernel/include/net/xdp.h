#ifndef PPSIM_SHIM_NET_XDP_H
#define PPSIM_SHIM_NET_XDP_H
#include <linux/types.h>
struct xdp_mem_info { u32 type; u32 id; };
/* page_pool_alloc_frag() aligns fragments to it */
struct skb_shared_info { void *frag_list; };
#endif
