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
#include "../../mm.h"
#define __GFP_COMP	0x40u
struct page_pool;
/* Pages have no virtual address in the model: what needs one must not run. */
static inline struct page *virt_to_head_page(const void *addr)
{
	(void)addr;
	kernel_bug(__FILE__, __LINE__, "virt_to_head_page: no virtual addresses");
}
static inline struct page *compound_head(struct page *page) { return page; }
#endif
