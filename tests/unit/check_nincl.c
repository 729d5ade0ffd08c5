/* A non-inclusive LLC with a snoop filter (cache.inclusive = no; mem.h,
 * enum mem_inclusion, for the sources): where reads, L2 evictions and DMA
 * writes put a line, and what finding it costs. */
#include <stddef.h>
#include <string.h>
#include "unit.h"
#include "model/mem/mem.h"

static struct mem *m;
static const struct mem_config cfg = {
	.sockets = 2, .cores = 2,
	.l2_size = 64 * 8 * 4, .l2_ways = 4,	/* 8 sets */
	.llc_size = 64 * 16 * 8, .llc_ways = 8,		/* 16 sets */
	.ddio_ways = 2, .nic_node = 0,
	.llc_policy = MEM_LLC_QLRU,
	.inclusion = MEM_NON_INCLUSIVE,
	.freq = 2e9, .l2_cycles = 3, .llc_lat = 10e-9, .snoop_lat = 30e-9,
	.rllc_lat = 100e-9,
	.dram_lat = 80e-9, .rdram_lat = 130e-9, .qpi_lat = 40e-9,
};
/* cores 0, 1 on socket 0; 2, 3 on socket 1 */

#define CYCLES(lat)	((lat) * cfg.freq)

static void setup(void)
{
	const char *err = NULL;

	m = mem_create(&cfg, &err);
	ck_assert_msg(m, "%s", err ? err : "");
}

static void teardown(void)
{
	mem_destroy(m);
}

/*
 * One LLC set of 4 ways, DDIO's the top two (2 and 3), and an L2 of one
 * line a core: every line a core reads next leaves its L2 for the LLC.
 * Cores 0-15 are socket 0.
 */
static struct mem *one_set(enum mem_llc_policy policy)
{
	struct mem_config one = cfg;
	const char *err = NULL;
	struct mem *m1;

	one.cores = 16;
	one.l2_size = 64;
	one.l2_ways = 1;
	one.llc_size = 64 * 4;
	one.llc_ways = 4;
	one.llc_policy = policy;
	m1 = mem_create(&one, &err);
	ck_assert_msg(m1, "%s", err ? err : "");
	return m1;
}

/* A line the NIC wrote into the LLC moves to the L2 of the core that
 * reads it, and the LLC keeps no copy (Double Trouble, figure 4f): the
 * next core of the socket finds it in that L2, a snoop.  Read by two
 * cores, the LLC keeps a copy (4d): the first core's next read is an LLC
 * hit. */
START_TEST(read_moves_to_l2)
{
	uint32_t l = mem_region(m, 0, MEM_PKT, 1);

	mem_nic_write(m, l);
	ck_assert_double_eq(mem_cpu_read(m, 0, l), CYCLES(cfg.llc_lat));
	ck_assert_int_eq(mem_where(m, 0, l), MEM_PRIV);
	ck_assert_double_eq(mem_nic_read(m, l), cfg.snoop_lat);
	ck_assert_double_eq(mem_cpu_read(m, 1, l), CYCLES(cfg.snoop_lat));
	ck_assert_int_eq(mem_stats(m)->cpu_reads[MEM_PKT][MEM_LLC], 2);
	ck_assert_double_eq(mem_cpu_read(m, 0, l), CYCLES(cfg.llc_lat));
	/* the NIC's next write finds the shared copy: a write update */
	mem_nic_write(m, l);
	ck_assert_int_eq(mem_stats(m)->nic_update, 1);
}
END_TEST

/* A read from DRAM fills the core's L2 alone: another core of the socket
 * finds the line in that L2 (a snoop, not an LLC hit), a core of the
 * other socket in the remote caches (not remote DRAM), and the NIC's
 * write finds no LLC copy to update. */
START_TEST(dram_read_skips_llc)
{
	uint32_t a = mem_region(m, 0, MEM_STATE, 1);
	uint32_t b = mem_region(m, 0, MEM_STATE, 1);

	ck_assert_double_eq(mem_cpu_read(m, 0, a), CYCLES(cfg.dram_lat));
	ck_assert_double_eq(mem_cpu_read(m, 1, a), CYCLES(cfg.snoop_lat));
	ck_assert_double_eq(mem_cpu_read(m, 0, b), CYCLES(cfg.dram_lat));
	ck_assert_int_eq(mem_where(m, 2, b), MEM_RCACHE);
	ck_assert_double_eq(mem_cpu_read(m, 2, b), CYCLES(cfg.rllc_lat));
	/* a: in the LLC (two cores read it); b: in socket 1's L2 alone */
	mem_nic_write(m, a);
	mem_nic_write(m, b);
	ck_assert_int_eq(mem_stats(m)->nic_update, 1);
	ck_assert_int_eq(mem_stats(m)->nic_snoops, 1);
}
END_TEST

/* A line an L2 evicts goes to the LLC, outside DDIO's ways.  X and Y,
 * evicted by core 0, fill ways 0 and 1; A, written by the NIC (way 2),
 * read by core 1 and evicted, must take X's or Y's way, not DDIO's way 2
 * it left empty: then three DMA writes through DDIO's two ways leave it
 * there. */
START_TEST(l2_victim_outside_ddio)
{
	struct mem *m1 = one_set((enum mem_llc_policy)_i);
	uint32_t l = mem_region(m1, 0, MEM_PKT, 8);
	uint32_t x = l, y = l + 1, z = l + 2, a = l + 3, b = l + 4;

	mem_cpu_read(m1, 0, x);
	mem_cpu_read(m1, 0, y);		/* X to the LLC */
	mem_cpu_read(m1, 0, z);		/* Y */
	mem_nic_write(m1, a);
	ck_assert_double_eq(mem_cpu_read(m1, 1, a), CYCLES(cfg.llc_lat));
	mem_cpu_read(m1, 1, b);		/* A to the LLC */
	ck_assert_int_eq(mem_where(m1, 15, a), MEM_LLC);
	for (uint32_t i = 5; i < 8; i++)
		mem_nic_write(m1, l + i);
	ck_assert_msg(mem_where(m1, 15, a) == MEM_LLC, "%s: A left the LLC",
		      mem_llc_name((enum mem_llc_policy)_i));
	ck_assert_double_eq(mem_cpu_read(m1, 15, a), CYCLES(cfg.llc_lat));
	ck_assert(mem_llc_consistent(m1));
	mem_destroy(m1);
}
END_TEST

/* Among ways 0 and 1 alone (the ways beside DDIO's here), an L2's victim
 * takes the older line's way, as in DDIO's ways, not way 0, which QLRU
 * takes only in a whole set: X and Y spilled there, X written again by
 * the NIC (a write update: younger), and Z's spill must evict Y. */
START_TEST(victim_in_part_of_a_set)
{
	struct mem *m1 = one_set((enum mem_llc_policy)_i);
	uint32_t l = mem_region(m1, 0, MEM_PKT, 8);
	uint32_t x = l, y = l + 1, z = l + 2, w = l + 3;

	mem_cpu_read(m1, 0, x);
	mem_cpu_read(m1, 0, y);		/* X to way 0 */
	mem_cpu_read(m1, 0, z);		/* Y to way 1 */
	mem_nic_write(m1, x);
	ck_assert_int_eq(mem_stats(m1)->nic_update, 1);
	mem_cpu_read(m1, 0, w);		/* Z to the LLC */
	ck_assert_msg(mem_where(m1, 15, x) == MEM_LLC, "%s: X evicted",
		      mem_llc_name((enum mem_llc_policy)_i));
	ck_assert_int_eq(mem_where(m1, 15, y), MEM_DRAM);
	ck_assert_int_eq(mem_where(m1, 15, z), MEM_LLC);
	mem_destroy(m1);
}
END_TEST

/* A DMA write to a line in a core's L2 takes it from there into the LLC
 * (Double Trouble, figure 4e), in ways 0 and 1 ("DDIO+", section 5): the
 * core's next read is an LLC hit, and DMA writes through DDIO's ways do
 * not evict it.  A line no L2 holds goes to DDIO's ways, which they do. */
START_TEST(dma_write_to_l2_line)
{
	struct mem *m1 = one_set((enum mem_llc_policy)_i);
	uint32_t l = mem_region(m1, 0, MEM_PKT, 8);
	uint32_t a = l, d = l + 1;
	const struct mem_stats *st = mem_stats(m1);

	mem_cpu_read(m1, 0, a);
	mem_nic_write(m1, a);
	ck_assert_int_eq(mem_where(m1, 0, a), MEM_LLC);
	ck_assert_int_eq(st->nic_update, 0);
	ck_assert_int_eq(st->nic_ddio, 1);
	mem_nic_write(m1, d);
	for (uint32_t i = 2; i < 5; i++)
		mem_nic_write(m1, l + i);
	ck_assert_msg(mem_where(m1, 15, a) == MEM_LLC, "%s: A left the LLC",
		      mem_llc_name((enum mem_llc_policy)_i));
	ck_assert_int_eq(mem_where(m1, 15, d), MEM_DRAM);
	ck_assert_double_eq(mem_cpu_read(m1, 0, a), CYCLES(cfg.llc_lat));
	/* written where the LLC holds it: updated in place */
	mem_nic_write(m1, l + 4);
	ck_assert_int_eq(st->nic_update, 1);
	ck_assert(mem_llc_consistent(m1));
	mem_destroy(m1);
}
END_TEST

/* The clocks are still looked at on these paths: the LRU order of an
 * L2 survives the wrap of its 32-bit clock (check_mem's
 * lru_across_clock_wrap). */
START_TEST(lru_across_clock_wrap)
{
	struct mem_config one = cfg;
	const char *err = NULL;
	struct mem *m1;
	uint32_t l;

	one.l2_size = 64 * 4;	/* one set of 4 ways */
	m1 = mem_create(&one, &err);
	ck_assert_msg(m1, "%s", err ? err : "");
	l = mem_region(m1, 0, MEM_STATE, 5);
	mem_set_clock(m1, UINT32_MAX - 2);
	for (uint32_t i = 0; i < 5; i++)	/* the wrap comes at the third */
		mem_cpu_read(m1, 0, l + i);
	ck_assert_int_ne(mem_where(m1, 0, l), MEM_PRIV);
	for (uint32_t i = 1; i < 5; i++)
		ck_assert_int_eq(mem_where(m1, 0, l + i), MEM_PRIV);
	mem_cpu_read(m1, 0, l + 1);		/* now the most recent */
	mem_cpu_read(m1, 0, l);			/* evicts l + 2 */
	ck_assert_int_eq(mem_where(m1, 0, l + 1), MEM_PRIV);
	ck_assert_int_ne(mem_where(m1, 0, l + 2), MEM_PRIV);
	mem_destroy(m1);
}
END_TEST

/* A core's write moves the line to its L2 (Double Trouble, figure 4c):
 * the NIC's next write finds no LLC copy to update, the other core's
 * read is a snoop, and, shared then, the writer's next read an LLC hit. */
START_TEST(write_moves_to_l2)
{
	uint32_t k = mem_region(m, 0, MEM_STATE, 1);
	uint32_t l = mem_region(m, 0, MEM_STATE, 1);

	mem_nic_write(m, k);
	mem_cpu_write(m, 0, k);
	mem_nic_write(m, k);
	ck_assert_int_eq(mem_stats(m)->nic_update, 0);
	mem_nic_write(m, l);
	ck_assert_double_eq(mem_cpu_write(m, 0, l), CYCLES(cfg.llc_lat));
	ck_assert_double_eq(mem_nic_read(m, l), cfg.snoop_lat);
	ck_assert_double_eq(mem_cpu_read(m, 1, l), CYCLES(cfg.snoop_lat));
	ck_assert_double_eq(mem_cpu_read(m, 0, l), CYCLES(cfg.llc_lat));
	ck_assert_double_eq(mem_cpu_write(m, 1, l), CYCLES(cfg.llc_lat));
	ck_assert_double_eq(mem_cpu_write(m, 0, l), CYCLES(cfg.snoop_lat));
	/* from socket 1: every copy of socket 0 goes, the L2's too */
	ck_assert_double_eq(mem_cpu_write(m, 2, l), CYCLES(cfg.rllc_lat));
	ck_assert_int_eq(mem_where(m, 0, l), MEM_RCACHE);
	ck_assert_int_eq(mem_where(m, 1, l), MEM_RCACHE);
}
END_TEST

/* An LLC eviction leaves the L2s alone: the line two cores read (so in
 * the LLC and core 1's L2) stays in core 1's L2 while core 0 streams
 * through far more than the LLC holds. */
START_TEST(no_back_invalidation)
{
	uint32_t base = mem_region(m, 0, MEM_STATE, 4096);

	mem_cpu_read(m, 0, base);
	mem_cpu_read(m, 1, base);
	for (uint32_t i = 1; i < 4096; i++)
		mem_cpu_read(m, 0, base + i);
	ck_assert_int_eq(mem_where(m, 1, base), MEM_PRIV);
	ck_assert_double_eq(mem_cpu_read(m, 0, base), CYCLES(cfg.snoop_lat));
}
END_TEST

/* The LLC policies' rules on their stamps hold on the non-inclusive
 * paths too, after every access of a random mix (as check_mem's
 * llc_stamps_kept). */
static const int llc_shapes[][2] = {	/* llc_ways, ddio_ways */
	{ 2, 0 }, { 4, 2 }, { 5, 2 }, { 20, 2 }, { 12, 10 },
};

START_TEST(llc_stamps_kept)
{
	struct mem_config c = cfg;
	const char *err = NULL;
	struct mem *m1;
	uint32_t l, seed = 54321;
	int shape = _i % (int)ARRAY_SIZE(llc_shapes);

	c.llc_ways = llc_shapes[shape][0];
	c.ddio_ways = llc_shapes[shape][1];
	c.llc_size = 64 * 4 * (uint64_t)c.llc_ways;	/* 4 sets */
	c.llc_policy = (enum mem_llc_policy)(_i / (int)ARRAY_SIZE(llc_shapes));
	m1 = mem_create(&c, &err);
	ck_assert_msg(m1, "%s", err ? err : "");
	l = mem_region(m1, 0, MEM_PKT, 64);
	mem_region(m1, 1, MEM_PKT, 64);		/* l + 64 on: node 1 */
	for (int i = 0; i < 20000; i++) {
		uint32_t r, line;

		seed = seed * 1664525u + 1013904223u;
		r = seed >> 8;
		line = l + (r >> 4) % 128;
		switch (r % 4) {
		case 0:
			mem_cpu_read(m1, (int)(r >> 12) % 4, line);
			break;
		case 1:
			mem_cpu_write(m1, (int)(r >> 12) % 4, line);
			break;
		case 2:
			mem_nic_write(m1, line);
			break;
		default:
			mem_nic_read(m1, line);
		}
		ck_assert_msg(mem_llc_consistent(m1), "%s, %d ways, %d DDIO: "
			      "access %d", mem_llc_name(c.llc_policy),
			      c.llc_ways, c.ddio_ways, i);
	}
	mem_destroy(m1);
}
END_TEST

/* What mem_create() refuses: no such inclusion, and DDIO leaving fewer
 * than the 2 ways a DMA write puts a line from an L2 in. */
START_TEST(config_checked)
{
	struct mem_config c = cfg;
	const char *err = NULL;
	struct mem *m1;

	c.inclusion = MEM_INCLUSION_NR;
	ck_assert_ptr_null(mem_create(&c, &err));
	ck_assert_str_eq(err, "no such LLC inclusion");
	c = cfg;
	c.ddio_ways = 7;
	ck_assert_ptr_null(mem_create(&c, &err));
	ck_assert_str_eq(err, "a non-inclusive LLC needs 2 ways outside "
			      "DDIO's");
	c.inclusion = MEM_INCLUSIVE;	/* the inclusive LLC does not */
	err = NULL;
	m1 = mem_create(&c, &err);
	ck_assert_msg(m1, "%s", err ? err : "");
	mem_destroy(m1);
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ read_moves_to_l2, UNIT_ONCE },
		{ dram_read_skips_llc, UNIT_ONCE },
		{ l2_victim_outside_ddio, MEM_LLC_NR },	/* every policy */
		{ dma_write_to_l2_line, MEM_LLC_NR },
		{ victim_in_part_of_a_set, MEM_LLC_NR },
		{ write_moves_to_l2, UNIT_ONCE },
		{ no_back_invalidation, UNIT_ONCE },
		{ lru_across_clock_wrap, UNIT_ONCE },
		{ llc_stamps_kept, MEM_LLC_NR * ARRAY_SIZE(llc_shapes) },
		{ config_checked, UNIT_ONCE },
	};

	return unit_main("nincl", tests, ARRAY_SIZE(tests), setup, teardown);
}
