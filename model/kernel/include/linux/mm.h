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
/* The model moves no data, so a page's address need only lead back to
 * it: a page's address is its struct page (what page_pool_put_page_bulk
 * is given, the driver passes so). */
static inline struct page *virt_to_head_page(const void *addr)
{
	return (struct page *)addr;
}
static inline struct page *compound_head(struct page *page) { return page; }
#endif
