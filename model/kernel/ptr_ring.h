/*
 * A fixed-size FIFO of pointers with the kernel's ptr_ring semantics,
 * written for ppsim from the documented behaviour:
 *   - a slot is free when it holds NULL; produce fails (-ENOSPC) when the
 *     producer's slot is not free;
 *   - consume takes from the head; the consumer frees the slots it has
 *     taken only in batches (2 cache lines of pointers, 16 entries, or 1
 *     when the ring is small), so a ring that was full stays full until
 *     a batch has been consumed.  That changes when produce fails, which
 *     the page_pool ring_full counter shows, so the model keeps it.
 * No locks: the simulator runs one CPU's code at a time.
 */
#ifndef PPSIM_PTR_RING_H
#define PPSIM_PTR_RING_H

#include "kernel.h"

#define PTR_RING_CACHE_BYTES	64

struct ptr_ring {
	int producer;		/* next slot to fill */
	int consumer_head;	/* next slot to take */
	int consumer_tail;	/* first taken slot not yet freed */
	int size;		/* slots */
	int batch;		/* slots freed at once */
	void **queue;
};

/* Returns 0 or -ENOMEM. */
int ptr_ring_init(struct ptr_ring *r, int size);
void ptr_ring_cleanup(struct ptr_ring *r);
/* Entries waiting to be consumed. */
int ptr_ring_count(const struct ptr_ring *r);

static inline int __ptr_ring_produce(struct ptr_ring *r, void *ptr)
{
	if (unlikely(!r->size) || r->queue[r->producer])
		return -ENOSPC;
	r->queue[r->producer++] = ptr;
	if (unlikely(r->producer >= r->size))
		r->producer = 0;
	return 0;
}

static inline bool __ptr_ring_empty(const struct ptr_ring *r)
{
	return !r->size || !r->queue[r->consumer_head];
}

/* Advance the head past one taken entry; free taken slots in batches. */
static inline void __ptr_ring_discard_one(struct ptr_ring *r)
{
	int head = r->consumer_head + 1;

	if (unlikely(head - r->consumer_tail >= r->batch || head >= r->size)) {
		for (int i = head - 1; i >= r->consumer_tail; i--)
			r->queue[i] = NULL;
		r->consumer_tail = head;
	}
	if (unlikely(head >= r->size)) {
		head = 0;
		r->consumer_tail = 0;
	}
	r->consumer_head = head;
}

static inline void *__ptr_ring_consume(struct ptr_ring *r)
{
	void *ptr;

	if (__ptr_ring_empty(r))
		return NULL;
	ptr = r->queue[r->consumer_head];
	__ptr_ring_discard_one(r);
	return ptr;
}

static inline int __ptr_ring_consume_batched(struct ptr_ring *r,
					     void **array, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		array[i] = __ptr_ring_consume(r);
		if (!array[i])
			break;
	}
	return i;
}

#endif
