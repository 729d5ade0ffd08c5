/* The TCP reader (model/stack/tcp.c): what one pass copies. */
#include "unit.h"
#include "model/mem/mem.h"
#include "model/stack/tcp.h"

static const struct mem_config cfg = {
	.sockets = 2, .cores = 2,
	.l2_size = 64 * 8 * 4, .l2_ways = 4,
	.llc_size = 64 * 16 * 8, .llc_ways = 8,
	.ddio_ways = 2, .nic_node = 0, .llc_policy = MEM_LLC_QLRU,
	.freq = 2e9, .l2_cycles = 3, .llc_lat = 10e-9, .snoop_lat = 30e-9,
	.rllc_lat = 100e-9, .dram_lat = 80e-9, .rdram_lat = 130e-9,
	.qpi_lat = 40e-9,
};
static const struct mem_overlap ov = { .win_random = 20, .copy_mlp = 4 };
static const struct tcp_config tc = { .c_stack = 100, .c_recv = 50,
				      .c_copy = 2 };

static void count_free(void *arg, const struct tcp_frag *f, int nr,
		       int cpu)
{
	(void)f;
	(void)nr;
	(void)cpu;
	++*(int *)arg;
}

/* A pass copies whole packets up to its limit, the limit included: at
 * exactly two payloads it takes two (the limit's '<=' as '<' took one,
 * and moved return-paths.ini's tcp-app rows with the suite green), one
 * byte less takes one, and what is left waits for the next pass. */
START_TEST(read_limit_boundary)
{
	static const int pkt = 1500, payload = 1500 - TCP_HEADERS;
	const char *err = NULL;
	struct mem *m = mem_create(&cfg, &err);
	struct tcp *s;
	struct mem_work w;
	uint32_t line;
	int freed = 0;

	ck_assert_msg(m, "%s", err ? err : "");
	s = tcp_open(&tc, m, 0, pkt, 8);
	ck_assert_ptr_nonnull(s);
	line = mem_region(m, 0, MEM_PKT, 8 * MEM_PAGE_LINES);
	for (int i = 0; i < 5; i++)
		tcp_receive(s, NULL, line + (uint32_t)i * MEM_PAGE_LINES, 0);
	mem_work_init(&w, m, &ov, 0);
	ck_assert_uint_eq(tcp_read(s, &w, 2 * payload, count_free, &freed),
			  2 * payload);
	ck_assert_int_eq(freed, 2);
	ck_assert_uint_eq(tcp_read(s, &w, 2 * payload - 1, count_free,
				   &freed), payload);
	ck_assert_int_eq(freed, 3);
	ck_assert_uint_eq(tcp_read(s, &w, payload - 1, count_free, &freed),
			  0);
	ck_assert_uint_eq(tcp_queued(s), 2);
	ck_assert_uint_eq(tcp_read(s, &w, 100 * payload, count_free, &freed),
			  2 * payload);
	ck_assert_int_eq(freed, 5);
	tcp_free(s);
	mem_destroy(m);
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ read_limit_boundary, UNIT_ONCE },
	};

	return unit_main("tcp", tests, ARRAY_SIZE(tests), NULL, NULL);
}
