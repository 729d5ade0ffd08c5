/* ppsim shim: struct page and the page allocator are model/kernel/mm.h.
 * Like the real linux/mm.h, it brings in what its users rely on. */
#ifndef PPSIM_SHIM_LINUX_MM_H
#define PPSIM_SHIM_LINUX_MM_H
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/slab.h>
#include <linux/percpu.h>
#include <linux/workqueue.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include "../../mm.h"
#define __GFP_COMP	0x40u
#define __GFP_DMA	0x80u
#define __GFP_DMA32	0x100u
#define __GFP_HIGHMEM	0x200u
/* 6.12.y keeps the index of a page's DMA mapping in the bits of pp_magic
 * above PP_SIGNATURE (64-bit, no poison delta) */
#define PP_DMA_INDEX_SHIFT	7
#define PP_DMA_INDEX_BITS	32
#define PP_DMA_INDEX_MASK \
	(((1UL << PP_DMA_INDEX_BITS) - 1) << PP_DMA_INDEX_SHIFT)
#define PP_MAGIC_MASK		(~(PP_DMA_INDEX_MASK | 0x3UL))
static inline unsigned long page_to_pfn(const struct page *page)
{
	return page->pfn;
}
struct page_pool;
/* The model moves no data, so a page's address need only lead back to
 * it: a page's address is its struct page (what page_pool_put_page_bulk
 * is given, the driver passes so). */
static inline struct page *virt_to_head_page(const void *addr)
{
	return (struct page *)addr;
}
#define virt_to_page(addr)	virt_to_head_page(addr)
static inline void *page_address(const struct page *page)
{
	return (void *)page;
}
static inline struct page *compound_head(struct page *page) { return page; }
#endif
