#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm.h"

struct mm_node {
	struct page *pages;	/* pages_per_node entries */
	struct page **free;	/* LIFO stack of free pages */
	u32 nr_free;
	u32 wmark_min;		/* pages */
	u32 wmark_low;		/* pages */
	bool pressure;		/* every page given comes from the reserves */
	struct mm_node_stats stats;
};

#define MM_STR_(x)	#x
#define MM_STR(x)	MM_STR_(x)

struct mm {
	int nr_nodes;
	int nodes_per_socket;
	u32 pages_per_node;
	struct mm_node node[MAX_NUMNODES];
	/* zonelist[p]: nodes by distance from node p, p first */
	int zonelist[MAX_NUMNODES][MAX_NUMNODES];
	mm_hook_fn hook;
	void *hook_arg;
};

/* A node of another socket comes after every node of the own, as the
 * SLIT has them (12 against 21 or 32: doc/notes/hw-today.md). */
static int node_distance(const struct mm *mm, int a, int b)
{
	int nps = mm->nodes_per_socket > 1 ? mm->nodes_per_socket : 1;
	int d = a > b ? a - b : b - a;

	return a / nps != b / nps ? MAX_NUMNODES + d : d;
}

static void build_zonelists(struct mm *mm)
{
	for (int p = 0; p < mm->nr_nodes; p++) {
		int k = 0;

		for (int d = 0; d < 2 * MAX_NUMNODES; d++)
			for (int n = 0; n < mm->nr_nodes; n++)
				if (node_distance(mm, p, n) == d)
					mm->zonelist[p][k++] = n;
	}
}

static int node_init(struct mm_node *node, int nid, u32 nr, u32 wmark_min)
{
	node->pages = calloc(nr, sizeof(*node->pages));
	node->free = calloc(nr, sizeof(*node->free));
	if (!node->pages || !node->free)
		return -ENOMEM;
	/* Push the highest pfn first so that the lowest is handed out first. */
	for (u32 i = 0; i < nr; i++) {
		struct page *page = &node->pages[i];

		page->nid = nid;
		page->pfn = (u32)nid * nr + i;
		node->free[nr - 1 - i] = page;
	}
	node->nr_free = nr;
	node->wmark_min = wmark_min;
	node->wmark_low = wmark_min + wmark_min / 4;
	return 0;
}

struct mm *mm_create(const struct mm_params *p, const char **err)
{
	u32 wmark_min = p->wmark_min ? p->wmark_min : p->pages_per_node / 64;
	struct mm *mm;

	if (p->nr_nodes < 1 || p->nr_nodes > MAX_NUMNODES) {
		*err = "number of nodes must be between 1 and "
		       MM_STR(MAX_NUMNODES);
		return NULL;
	}
	if (p->pages_per_node < 1 || p->pages_per_node > (1u << 24)) {
		*err = "pages per node must be between 1 and 16777216";
		return NULL;
	}
	if (wmark_min >= p->pages_per_node) {
		*err = "min watermark must be below the pages per node";
		return NULL;
	}
	mm = calloc(1, sizeof(*mm));
	if (!mm) {
		*err = "out of memory";
		return NULL;
	}
	mm->nr_nodes = p->nr_nodes;
	mm->nodes_per_socket = p->nodes_per_socket;
	mm->pages_per_node = p->pages_per_node;
	for (int n = 0; n < p->nr_nodes; n++) {
		if (node_init(&mm->node[n], n, p->pages_per_node, wmark_min)) {
			mm_destroy(mm);
			*err = "out of memory";
			return NULL;
		}
	}
	build_zonelists(mm);
	return mm;
}

void mm_destroy(struct mm *mm)
{
	if (!mm)
		return;
	for (int n = 0; n < mm->nr_nodes; n++) {
		free(mm->node[n].pages);
		free(mm->node[n].free);
	}
	free(mm);
}

int mm_nr_nodes(const struct mm *mm)
{
	return mm->nr_nodes;
}

u32 mm_nr_free(const struct mm *mm, int nid)
{
	return mm->node[nid].nr_free;
}

void mm_set_pressure(struct mm *mm, int nid, bool on)
{
	mm->node[nid].pressure = on;
}

void mm_set_hook(struct mm *mm, mm_hook_fn fn, void *arg)
{
	mm->hook = fn;
	mm->hook_arg = arg;
}

const struct mm_node_stats *mm_node_stats(const struct mm *mm, int nid)
{
	return &mm->node[nid].stats;
}

static struct page *node_take(struct mm *mm, struct mm_node *node,
			      bool reserve)
{
	struct page *page = node->free[--node->nr_free];

	page->_refcount = 1;
	page->pfmemalloc = reserve || node->pressure;
	node->stats.allocated++;
	if (page->pfmemalloc)
		node->stats.pfmemalloc++;
	if (mm->hook)
		mm->hook(mm->hook_arg, page, true);
	return page;
}

static int preferred_node(struct mm *mm, int nid)
{
	if (nid == NUMA_NO_NODE)
		nid = numa_mem_id();
	BUG_ON(nid < 0 || nid >= mm->nr_nodes);
	return nid;
}

/* Which node serves one page for preferred node nid: pass 1 keeps the low
 * watermark, pass 2 the min watermark, pass 3 dips into the reserves. */
static struct mm_node *pick_node(struct mm *mm, int nid, bool *reserve)
{
	for (int pass = 1; pass <= 3; pass++) {
		for (int k = 0; k < mm->nr_nodes; k++) {
			struct mm_node *node = &mm->node[mm->zonelist[nid][k]];
			u32 mark = pass == 1 ? node->wmark_low :
				   pass == 2 ? node->wmark_min : 0;

			if (node->nr_free > mark) {
				*reserve = pass == 3;
				return node;
			}
		}
	}
	return NULL;
}

struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order)
{
	struct mm *mm = kctx_cur->mm;
	struct mm_node *node;
	bool reserve;

	(void)gfp;
	BUG_ON(order != 0);
	nid = preferred_node(mm, nid);
	node = pick_node(mm, nid, &reserve);
	if (!node) {
		mm->node[nid].stats.failed++;
		return NULL;
	}
	if (node != &mm->node[nid])
		node->stats.fallback++;
	return node_take(mm, node, reserve);
}

/*
 * As the kernel's bulk allocator (6.1 __alloc_pages_bulk): every page comes
 * from the preferred node, and only if it stays above its low watermark
 * after giving them; otherwise, or for a single page, it falls back to one
 * alloc_pages_node(), which may take another node or the reserves.  Fills
 * the NULL slots of page_array; returns how many slots are filled.
 */
unsigned long alloc_pages_bulk_array_node(gfp_t gfp, int nid,
					  unsigned long nr_pages,
					  struct page **page_array)
{
	struct mm *mm = kctx_cur->mm;
	unsigned long populated = 0;
	struct mm_node *node;

	nid = preferred_node(mm, nid);
	node = &mm->node[nid];
	while (populated < nr_pages && page_array[populated])
		populated++;
	if (nr_pages - populated == 0)
		return populated;
	if (nr_pages - populated == 1 || node->pressure ||
	    node->nr_free <= node->wmark_low + (nr_pages - populated)) {
		page_array[populated] = alloc_pages_node(nid, gfp, 0);
		return populated + !!page_array[populated];
	}
	for (; populated < nr_pages; populated++)
		if (!page_array[populated])
			page_array[populated] = node_take(mm, node, false);
	return populated;
}

void put_page(struct page *page)
{
	struct mm *mm = kctx_cur->mm;
	struct mm_node *node = &mm->node[page->nid];

	BUG_ON(page->_refcount <= 0);
	if (--page->_refcount)
		return;
	page->pfmemalloc = false;
	page->pp_magic = 0;
	page->pp = NULL;
	page->dma_addr = 0;
	page->pp_frag_count.counter = 0;
	node->free[node->nr_free++] = page;
	node->stats.freed++;
	if (mm->hook)
		mm->hook(mm->hook_arg, page, false);
}

int mm_check(const struct mm *mm, char *buf, size_t len)
{
	for (int n = 0; n < mm->nr_nodes; n++) {
		const struct mm_node *node = &mm->node[n];
		u64 held = 0, out = node->stats.allocated - node->stats.freed;

		for (u32 i = 0; i < mm->pages_per_node; i++)
			held += node->pages[i]._refcount > 0;
		for (u32 i = 0; i < node->nr_free; i++) {
			if (node->free[i]->_refcount) {
				snprintf(buf, len, "node %d: free page %u has "
					 "refcount %d", n, node->free[i]->pfn,
					 node->free[i]->_refcount);
				return -1;
			}
		}
		if (held != out || held + node->nr_free != mm->pages_per_node) {
			snprintf(buf, len, "node %d: allocated %llu - freed "
				 "%llu != %llu pages held (%u free of %u)", n,
				 (unsigned long long)node->stats.allocated,
				 (unsigned long long)node->stats.freed,
				 (unsigned long long)held, node->nr_free,
				 mm->pages_per_node);
			return -1;
		}
	}
	return 0;
}
