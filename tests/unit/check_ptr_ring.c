/* ptr_ring: fixed size, FIFO, produce fails when full, slots freed by the
 * consumer in batches (the kernel's __ptr_ring_discard_one behaviour). */
#include "unit.h"
#include "model/kernel/ptr_ring.h"

static void *item(long i)
{
	return (void *)(i + 1);
}

/* Produces items first .. first + n - 1, each of which must fit. */
static void produce_n(struct ptr_ring *r, long first, long n)
{
	for (long i = first; i < first + n; i++)
		ck_assert_msg(!__ptr_ring_produce(r, item(i)),
			      "item %ld did not fit", i);
}

/* A new ring of size slots, batch as expected, filled with items 0 ..
 * size - 1: one more does not fit. */
static void fill_ring(struct ptr_ring *r, int size, int batch)
{
	ck_assert_int_eq(ptr_ring_init(r, size), 0);
	ck_assert_int_eq(r->batch, batch);
	ck_assert(__ptr_ring_empty(r));
	produce_n(r, 0, size);
	ck_assert_int_eq(__ptr_ring_produce(r, item(1000)), -ENOSPC);
}

/* Consumes n items, which must be first .. first + n - 1 in order. */
static void consume_n(struct ptr_ring *r, long first, long n)
{
	for (long i = first; i < first + n; i++)
		ck_assert_ptr_eq(__ptr_ring_consume(r), item(i));
}

START_TEST(fifo_and_full)
{
	struct ptr_ring r;

	fill_ring(&r, 4, 1);
	ck_assert_int_eq(ptr_ring_count(&r), 4);
	ck_assert_int_eq(__ptr_ring_produce(&r, item(9)), -ENOSPC);
	consume_n(&r, 0, 4);
	ck_assert_ptr_null(__ptr_ring_consume(&r));
	ck_assert_int_eq(ptr_ring_count(&r), 0);
	ptr_ring_cleanup(&r);
}
END_TEST

/* 64 slots: batch is 2 cache lines of pointers = 16.  Consuming 15 frees
 * nothing; the 16th frees all 16 slots at once. */
START_TEST(batched_invalidation)
{
	struct ptr_ring r;

	fill_ring(&r, 64, 16);
	consume_n(&r, 0, 15);
	ck_assert_int_eq(ptr_ring_count(&r), 49);
	ck_assert_int_eq(__ptr_ring_produce(&r, item(100)), -ENOSPC);
	ck_assert_ptr_eq(__ptr_ring_consume(&r), item(15));
	produce_n(&r, 200, 16);
	ck_assert_int_eq(__ptr_ring_produce(&r, item(300)), -ENOSPC);
	ck_assert_int_eq(ptr_ring_count(&r), 64);
	/* FIFO across the wrap: the old entries, then the new ones */
	consume_n(&r, 16, 48);
	consume_n(&r, 200, 16);
	ck_assert(__ptr_ring_empty(&r));
	ptr_ring_cleanup(&r);
}
END_TEST

/* A ring too small to batch (batch > size / 2) frees each slot at once:
 * full, one consumed, one more fits. */
START_TEST(small_ring_unbatched)
{
	struct ptr_ring r;

	fill_ring(&r, 16, 1);
	ck_assert_ptr_eq(__ptr_ring_consume(&r), item(0));
	ck_assert_int_eq(__ptr_ring_produce(&r, item(16)), 0);
	ptr_ring_cleanup(&r);
}
END_TEST

START_TEST(consume_batched)
{
	struct ptr_ring r;
	void *out[8];

	ck_assert_int_eq(ptr_ring_init(&r, 1024), 0);
	produce_n(&r, 0, 5);
	ck_assert_int_eq(__ptr_ring_consume_batched(&r, out, 3), 3);
	ck_assert_ptr_eq(out[2], item(2));
	ck_assert_int_eq(__ptr_ring_consume_batched(&r, out, 8), 2);
	ck_assert_ptr_eq(out[1], item(4));
	ck_assert_int_eq(__ptr_ring_consume_batched(&r, out, 8), 0);
	ptr_ring_cleanup(&r);
}
END_TEST

/* The consumer frees what it took when it reaches the end of the ring,
 * even short of a batch, so a producer can wrap. */
START_TEST(wrap_frees_tail)
{
	struct ptr_ring r;

	fill_ring(&r, 40, 16);
	consume_n(&r, 0, 40);
	/* 32 freed by two batches, the last 8 at the end of the ring */
	produce_n(&r, 0, 40);
	ptr_ring_cleanup(&r);
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ fifo_and_full, UNIT_ONCE },
		{ batched_invalidation, UNIT_ONCE },
		{ small_ring_unbatched, UNIT_ONCE },
		{ consume_batched, UNIT_ONCE },
		{ wrap_frees_tail, UNIT_ONCE },
	};

	return unit_main("ptr_ring", tests, ARRAY_SIZE(tests), NULL, NULL);
}
