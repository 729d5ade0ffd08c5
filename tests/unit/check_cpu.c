/* The core families' mitigation (model/cpu/family.c): what cpu.srso does
 * to a cost table, row by row. */
#include <math.h>
#include <stdio.h>
#include "unit.h"
#include "model/cpu/family.h"

/* Zen 4's table (scenarios/hw/cost-zen4.ini), Broadwell's
 * (cost-broadwell.ini): the keys SRSO moves, and one it does not. */
static const struct rxq_costs zen4 = {
	.pp_fast = 26.1, .pp_ring = 100.1, .pp_lock = 50, .page_alloc = 161.9,
	.page_free = 132.5, .rx_pkt = 73,
};
static const struct rxq_costs broadwell = {
	.pp_fast = 9.5, .pp_ring = 44.5, .pp_lock = 37, .page_alloc = 110,
	.page_free = 90, .rx_pkt = 73,
};

/* A table on a core under a mitigation, and what each key becomes: the
 * ibpb figures of page_pool08_bench_AMD.org x 3.69 GHz (fast 3.801 ns / 2,
 * ptr_ring 10.526 - 1.9005 ns, lock 5.970 ns, slow 30.646 ns over 94.926)
 * where the table has the thunk and the run has not. */
static const struct srso_row {
	const char *name;
	const struct rxq_costs *table;
	struct cpu_config cpu;
	double pp_fast, pp_ring, pp_lock, page_alloc, page_free;
} rows[] = {
	{ "zen4 table, zen4 default: as written", &zen4,
	  { .family = CPU_ZEN4, .srso = CPU_SRSO_DEFAULT, .cost_family = CPU_ZEN4 },
	  26.1, 100.1, 50, 161.9, 132.5 },
	{ "zen4 table, zen4 safe_ret: as written", &zen4,
	  { .family = CPU_ZEN4, .srso = CPU_SRSO_SAFE_RET, .cost_family = CPU_ZEN4 },
	  26.1, 100.1, 50, 161.9, 132.5 },
	{ "zen4 table, zen4 ibpb: the ibpb run's", &zen4,
	  { .family = CPU_ZEN4, .srso = CPU_SRSO_IBPB, .cost_family = CPU_ZEN4 },
	  7.0, 31.8, 22.0, 52.3, 42.8 },
	{ "zen4 table, zen4 off: as ibpb", &zen4,
	  { .family = CPU_ZEN4, .srso = CPU_SRSO_OFF, .cost_family = CPU_ZEN4 },
	  7.0, 31.8, 22.0, 52.3, 42.8 },
	{ "zen4 table, zen3 ibpb: Zen 4's ratios", &zen4,
	  { .family = CPU_ZEN3, .srso = CPU_SRSO_IBPB, .cost_family = CPU_ZEN4 },
	  7.0, 31.8, 22.0, 52.3, 42.8 },
	{ "zen4 table, broadwell: no thunk on the run's core", &zen4,
	  { .family = CPU_BROADWELL, .srso = CPU_SRSO_DEFAULT, .cost_family = CPU_ZEN4 },
	  7.0, 31.8, 22.0, 52.3, 42.8 },
	{ "broadwell table, broadwell: as written", &broadwell,
	  { .family = CPU_BROADWELL, .srso = CPU_SRSO_DEFAULT, .cost_family = CPU_BROADWELL },
	  9.5, 44.5, 37, 110, 90 },
	{ "broadwell table, sunny_cove: as written", &broadwell,
	  { .family = CPU_SUNNY_COVE, .srso = CPU_SRSO_DEFAULT, .cost_family = CPU_BROADWELL },
	  9.5, 44.5, 37, 110, 90 },
	{ "broadwell table, zen4 off: as written", &broadwell,
	  { .family = CPU_ZEN4, .srso = CPU_SRSO_OFF, .cost_family = CPU_BROADWELL },
	  9.5, 44.5, 37, 110, 90 },
	{ "broadwell table, zen4 default: the thunk added", &broadwell,
	  { .family = CPU_ZEN4, .srso = CPU_SRSO_DEFAULT, .cost_family = CPU_BROADWELL },
	  35.4, 140.0, 84.0, 340.7, 278.8 },
};

static void expect_near(const char *row, const char *key, double got,
			double want)
{
	/* the rows' figures are written to 0.1 or 3 digits */
	ck_assert_msg(fabs(got - want) <= 0.006 * want + 0.06,
		      "%s: %s is %.2f, expected %.1f", row, key, got, want);
}

START_TEST(srso_scaling)
{
	const struct srso_row *r = &rows[_i];
	struct rxq_costs c = *r->table;

	cpu_costs_mitigate(&c, &r->cpu);
	expect_near(r->name, "pp_fast", c.pp_fast, r->pp_fast);
	expect_near(r->name, "pp_ring", c.pp_ring, r->pp_ring);
	expect_near(r->name, "pp_lock", c.pp_lock, r->pp_lock);
	expect_near(r->name, "page_alloc", c.page_alloc, r->page_alloc);
	expect_near(r->name, "page_free", c.page_free, r->page_free);
	/* the driver's own calls are not moved (core-costs.md section 4) */
	expect_near(r->name, "rx_pkt", c.rx_pkt, 73);
}
END_TEST

START_TEST(srso_families)
{
	for (int f = 0; f < CPU_NR_FAMILIES; f++)
		ck_assert_msg(cpu_has_srso(f) == (f == CPU_ZEN3 ||
						  f == CPU_ZEN4),
			      "%s: SRSO is AMD Zen's", cpu_family_words[f]);
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ srso_scaling, (int)ARRAY_SIZE(rows) },
		{ srso_families, UNIT_ONCE },
	};

	return unit_main("cpu", tests, ARRAY_SIZE(tests), NULL, NULL);
}
