/*
 * struct page and a per-node page allocator.
 *
 * Each NUMA node owns a fixed number of order-0 pages.  Free pages sit on a
 * per-node LIFO list, like the kernel's per-cpu lists: the page freed last
 * is handed out first (it is the one most likely still in a cache).
 *
 * Placement follows the kernel's zonelist walk, simplified to three passes
 * over the nodes in order of distance from the preferred node:
 *   1. a node above its low watermark gives a normal page;
 *   2. a node above its min watermark gives a normal page;
 *   3. any node with a free page gives a page from its reserves, marked
 *      pfmemalloc (page_is_pfmemalloc() is then true until it is freed).
 * A node put under pressure (mm_set_pressure) marks every page it gives.
 *
 * Every page is accounted: allocated - freed == pages with references.
 */
#ifndef PPSIM_MM_H
#define PPSIM_MM_H

#include <stddef.h>
#include "kernel.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1ul << PAGE_SHIFT)

/* Set while a page_pool owns the page (kernel: PP_SIGNATURE, poison 0x40). */
#define PP_SIGNATURE	0x40ul

/* The page_pool fields sit where the kernel's struct page has them
 * (pp_magic one word in, dma_addr at the fifth): 6.12's netmem.h asserts
 * that they line up with struct net_iov's. */
struct page {
	int _refcount;		/* references; 0 while free */
	int nid;		/* home NUMA node */
	unsigned long pp_magic;	/* PP_SIGNATURE while in a page_pool */
	void *pp;		/* the owning page_pool */
	unsigned long _pp_mapping_pad;
	unsigned long dma_addr;	/* bus address, set by whoever maps it */
	union {
		unsigned long dma_addr_upper;	/* unused: 64-bit dma_addr_t */
		atomic_long_t pp_frag_count;	/* 6.1: fragment users */
		atomic_long_t pp_ref_count;	/* 6.12: page_pool references */
	};
	bool pfmemalloc;	/* given from the reserves */
	u32 pfn;		/* page frame number: the page's name */
};

struct mm_params {
	int nr_nodes;		/* NUMA nodes, 1..MAX_NUMNODES */
	u32 pages_per_node;	/* order-0 pages each node owns */
	u32 wmark_min;		/* pages; 0 = pages_per_node / 64 */
	int nodes_per_socket;	/* 0 or 1: each node a socket of its own;
				 * a socket's nodes are numbered together */
};

struct mm_node_stats {
	u64 allocated;		/* pages handed out */
	u64 freed;		/* pages returned */
	u64 fallback;		/* handed out for another preferred node */
	u64 pfmemalloc;		/* handed out from the reserves */
	u64 failed;		/* requests preferring this node that failed */
};

/* Instrumentation: called for every page the allocator gives (alloc true)
 * or takes back, in the context of the CPU doing it. */
typedef void (*mm_hook_fn)(void *arg, struct page *page, bool alloc);

/* Returns NULL and sets *err to a message on an impossible parameter. */
struct mm *mm_create(const struct mm_params *p, const char **err);
void mm_destroy(struct mm *mm);

int mm_nr_nodes(const struct mm *mm);
u32 mm_nr_free(const struct mm *mm, int nid);
void mm_set_pressure(struct mm *mm, int nid, bool on);
void mm_set_hook(struct mm *mm, mm_hook_fn fn, void *arg);
const struct mm_node_stats *mm_node_stats(const struct mm *mm, int nid);

/*
 * Conservation: checks every page (free pages have no references, counters
 * match the free lists).  Returns 0, or -1 with a description in buf.
 */
int mm_check(const struct mm *mm, char *buf, size_t len);

/* The kernel's interface, on the current context's machine. */
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);
unsigned long alloc_pages_bulk_array_node(gfp_t gfp, int nid,
					  unsigned long nr_pages,
					  struct page **page_array);
void put_page(struct page *page);

static inline int page_ref_count(const struct page *page)
{
	return page->_refcount;
}

static inline void page_ref_inc(struct page *page)
{
	page->_refcount++;
}

static inline void get_page(struct page *page)
{
	BUG_ON(page->_refcount <= 0);
	page->_refcount++;
}

static inline int page_to_nid(const struct page *page)
{
	return page->nid;
}

static inline bool page_is_pfmemalloc(const struct page *page)
{
	return page->pfmemalloc;
}

#endif
