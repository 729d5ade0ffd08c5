/* ppsim shim: the xarray 6.12.y's page_pool keeps of the pages it
 * DMA-mapped.  The model's pools never ask page_pool to map (mlx5 of the
 * seed's era maps pages itself; DMA costs are the driver model's), so
 * the array stays empty: what would store an entry must never run. */
#ifndef PPSIM_SHIM_LINUX_XARRAY_H
#define PPSIM_SHIM_LINUX_XARRAY_H
#include <linux/kernel.h>
struct xarray { unsigned int flags; };
struct xa_limit { u32 max, min; };
#define XA_LIMIT(lo, hi)	(struct xa_limit){ .min = (lo), .max = (hi) }
#define XA_FLAGS_ALLOC1		0x1u
static inline void xa_init_flags(struct xarray *xa, unsigned int flags)
{
	xa->flags = flags;
}
static inline void xa_destroy(struct xarray *xa) { (void)xa; }
static inline bool xa_empty(const struct xarray *xa) { (void)xa; return true; }
static inline int xa_alloc(struct xarray *xa, u32 *id, void *entry,
			   struct xa_limit limit, gfp_t gfp)
{
	(void)xa; (void)id; (void)entry; (void)limit; (void)gfp;
	kernel_bug(__FILE__, __LINE__, "xa_alloc: the model maps no page");
}
static inline void *xa_cmpxchg(struct xarray *xa, unsigned long index,
			       void *old, void *entry, gfp_t gfp)
{
	(void)xa; (void)index; (void)old; (void)entry; (void)gfp;
	kernel_bug(__FILE__, __LINE__, "xa_cmpxchg: the model maps no page");
}
#define xa_alloc_bh		xa_alloc
#define xa_cmpxchg_bh		xa_cmpxchg
/* The array is empty: the loop body never runs. */
#define xa_for_each(xa, index, entry) \
	for ((index) = 0, (entry) = NULL; \
	     (index) || ((entry) && !xa_empty(xa)); )
#endif
