#ifndef PPSIM_SHIM_LINUX_SLAB_H
#define PPSIM_SHIM_LINUX_SLAB_H
#include <stdlib.h>
#include <linux/types.h>
#define GFP_KERNEL		0x10u
#define __GFP_ZERO		0x20u
#define KMALLOC_MAX_SIZE	(1UL << 30)
static inline void *kzalloc_node(size_t n, gfp_t gfp, int node)
{
	(void)gfp; (void)node;
	return calloc(1, n);
}
static inline void *kvmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(n ? n : 1, size);
}
#define kmalloc_array(n, size, gfp)	kvmalloc_array(n, size, gfp)
/* 6.12 names the allocation-profiling variants */
#define kvmalloc_array_noprof		kvmalloc_array
#define kmalloc_array_noprof		kvmalloc_array
#define alloc_hooks(call)		(call)
#define kfree(p)			free(p)
#define kvfree(p)			free(p)
#endif
