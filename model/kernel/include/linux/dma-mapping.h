/* ppsim shim: direct mapping, bus address = physical address (no IOMMU). */
#ifndef PPSIM_SHIM_LINUX_DMA_MAPPING_H
#define PPSIM_SHIM_LINUX_DMA_MAPPING_H
#include <linux/mm.h>
#include <linux/device.h>
#include <linux/dma-direction.h>
#define DMA_ATTR_SKIP_CPU_SYNC	(1UL << 5)
#define DMA_ATTR_WEAK_ORDERING	(1UL << 1)
static inline dma_addr_t dma_map_page_attrs(struct device *d, struct page *p,
		size_t off, size_t size, enum dma_data_direction dir,
		unsigned long attrs)
{
	(void)d; (void)size; (void)dir; (void)attrs;
	return ((dma_addr_t)p->pfn << PAGE_SHIFT) + off;
}
#define dma_unmap_page_attrs(d, a, s, dir, attrs)	((void)(a))
#define dma_mapping_error(d, a)				0
#define dma_sync_single_range_for_device(d, a, o, s, dir) ((void)(a))
#define dma_sync_single_range_for_cpu(d, a, o, s, dir) ((void)(a))
#define dma_dev_need_sync(d)			((void)(d), false)
#define dma_get_cache_alignment()			1
#endif
