#include <stdlib.h>
#include "ptr_ring.h"

int ptr_ring_init(struct ptr_ring *r, int size)
{
	*r = (struct ptr_ring){ .size = size };
	r->queue = calloc(size ? size : 1, sizeof(void *));
	if (!r->queue)
		return -ENOMEM;
	r->batch = PTR_RING_CACHE_BYTES * 2 / sizeof(void *);
	/* Batching a small ring would make it look full too early. */
	if (r->batch > size / 2 || !r->batch)
		r->batch = 1;
	return 0;
}

void ptr_ring_cleanup(struct ptr_ring *r)
{
	free(r->queue);
	r->queue = NULL;
	r->size = 0;
}

int ptr_ring_count(const struct ptr_ring *r)
{
	if (__ptr_ring_empty(r))
		return 0;
	if (r->producer == r->consumer_head)
		return r->size;
	return (r->producer - r->consumer_head + r->size) % r->size;
}
