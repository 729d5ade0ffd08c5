/* ptr_ring: fixed size, FIFO, produce fails when full, slots freed by the
 * consumer in batches (the kernel's __ptr_ring_discard_one behaviour). */
#include "unit.h"
#include "model/kernel/ptr_ring.h"

static void *item(long i)
{
	return (void *)(i + 1);
}

START_TEST(fifo_and_full)
{
	struct ptr_ring r;

	ck_assert_int_eq(ptr_ring_init(&r, 4), 0);
	ck_assert_int_eq(r.batch, 1);
	ck_assert(__ptr_ring_empty(&r));
	for (long i = 0; i < 4; i++)
		ck_assert_int_eq(__ptr_ring_produce(&r, item(i)), 0);
	ck_assert_int_eq(ptr_ring_count(&r), 4);
	ck_assert_int_eq(__ptr_ring_produce(&r, item(9)), -ENOSPC);
	for (long i = 0; i < 4; i++)
		ck_assert_ptr_eq(__ptr_ring_consume(&r), item(i));
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
	long i;

	ck_assert_int_eq(ptr_ring_init(&r, 64), 0);
	ck_assert_int_eq(r.batch, 16);
	for (i = 0; i < 64; i++)
		ck_assert_int_eq(__ptr_ring_produce(&r, item(i)), 0);
	for (i = 0; i < 15; i++)
		ck_assert_ptr_eq(__ptr_ring_consume(&r), item(i));
	ck_assert_int_eq(ptr_ring_count(&r), 49);
	ck_assert_int_eq(__ptr_ring_produce(&r, item(100)), -ENOSPC);
	ck_assert_ptr_eq(__ptr_ring_consume(&r), item(15));
	for (i = 0; i < 16; i++)
		ck_assert_int_eq(__ptr_ring_produce(&r, item(200 + i)), 0);
	ck_assert_int_eq(__ptr_ring_produce(&r, item(300)), -ENOSPC);
	ck_assert_int_eq(ptr_ring_count(&r), 64);
	/* FIFO across the wrap: the old entries, then the new ones */
	for (i = 16; i < 64; i++)
		ck_assert_ptr_eq(__ptr_ring_consume(&r), item(i));
	for (i = 0; i < 16; i++)
		ck_assert_ptr_eq(__ptr_ring_consume(&r), item(200 + i));
	ck_assert(__ptr_ring_empty(&r));
	ptr_ring_cleanup(&r);
}
END_TEST

/* A ring too small to batch (batch > size / 2) frees each slot at once:
 * full, one consumed, one more fits. */
START_TEST(small_ring_unbatched)
{
	struct ptr_ring r;

	ck_assert_int_eq(ptr_ring_init(&r, 16), 0);
	ck_assert_int_eq(r.batch, 1);
	for (long i = 0; i < 16; i++)
		ck_assert_int_eq(__ptr_ring_produce(&r, item(i)), 0);
	ck_assert_int_eq(__ptr_ring_produce(&r, item(99)), -ENOSPC);
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
	for (long i = 0; i < 5; i++)
		ck_assert_int_eq(__ptr_ring_produce(&r, item(i)), 0);
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
	long i;

	ck_assert_int_eq(ptr_ring_init(&r, 40), 0);
	ck_assert_int_eq(r.batch, 16);
	for (i = 0; i < 40; i++)
		ck_assert_int_eq(__ptr_ring_produce(&r, item(i)), 0);
	ck_assert_int_eq(__ptr_ring_produce(&r, item(99)), -ENOSPC);
	for (i = 0; i < 40; i++)
		ck_assert_ptr_eq(__ptr_ring_consume(&r), item(i));
	/* 32 freed by two batches, the last 8 at the end of the ring */
	for (i = 0; i < 40; i++)
		ck_assert_int_eq(__ptr_ring_produce(&r, item(i)), 0);
	ptr_ring_cleanup(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ptr_ring");
	TCase *tc = tcase_create("ptr_ring");

	tcase_add_test(tc, fifo_and_full);
	tcase_add_test(tc, batched_invalidation);
	tcase_add_test(tc, small_ring_unbatched);
	tcase_add_test(tc, consume_batched);
	tcase_add_test(tc, wrap_frees_tail);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
