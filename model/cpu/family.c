/*
 * The core families and SRSO's measured effect on page_pool's costs.
 */
#include <stddef.h>
#include "family.h"

const char *const cpu_family_words[CPU_NR_FAMILIES + 1] = {
	[CPU_BROADWELL] = "broadwell", [CPU_SUNNY_COVE] = "sunny_cove",
	[CPU_GOLDEN_COVE] = "golden_cove", [CPU_ZEN3] = "zen3",
	[CPU_ZEN4] = "zen4", NULL,
};

const char *const cpu_fit_family_words[CPU_NR_FAMILIES + 2] = {
	"any", "broadwell", "sunny_cove", "golden_cove", "zen3", "zen4", NULL,
};

const char *const cpu_srso_words[] = {
	[CPU_SRSO_DEFAULT] = "default", [CPU_SRSO_SAFE_RET] = "safe_ret",
	[CPU_SRSO_IBPB] = "ibpb", [CPU_SRSO_OFF] = "off", NULL,
};

bool cpu_has_srso(enum cpu_family f)
{
	return f == CPU_ZEN3 || f == CPU_ZEN4;
}

/*
 * What SRSO's return thunk costs, as the ns of one bench figure with
 * the default mitigation (safe RET) and with spec_rstack_overflow=ibpb,
 * which leaves returns plain: an EPYC 9684X (Zen 4), kernel 6.13,
 * bench_page_pool_simple in a tasklet (xdp-project @539c25f8,
 * areas/mem/page_pool08_bench_AMD.org, "AMD results#2"; corpus V7).  The
 * ratio of the two is clock-free.  Zen 3's is taken to be Zen 4's (a
 * guess: no Zen 3 run is published).
 */
static const struct srso_cost {
	size_t offset;		/* in struct rxq_costs */
	double safe_ret, ibpb;	/* ns */
} srso_costs[] = {
	/* tasklet fast_path: an alloc and a direct recycle */
	{ offsetof(struct rxq_costs, pp_fast), 14.166, 3.801 },
	/* tasklet ptr_ring less the alloc's half fast path */
	{ offsetof(struct rxq_costs, pp_ring), 34.217 - 14.166 / 2,
	  10.526 - 3.801 / 2 },
	/* lock: spin lock and unlock */
	{ offsetof(struct rxq_costs, pp_lock), 13.563, 5.970 },
	/* tasklet slow: a page through the allocator and back */
	{ offsetof(struct rxq_costs, page_alloc), 94.926, 30.646 },
	{ offsetof(struct rxq_costs, page_free), 94.926, 30.646 },
};

/* Whether a return thunk runs on family f's core under s: off and ibpb
 * leave returns plain (ibpb's flush at kernel entry is per irq, not in
 * the softirq's loop, and not modelled). */
static bool thunk(enum cpu_family f, enum cpu_srso s)
{
	return cpu_has_srso(f) &&
	       (s == CPU_SRSO_DEFAULT || s == CPU_SRSO_SAFE_RET);
}

void cpu_costs_mitigate(struct rxq_costs *cost, const struct cpu_config *cfg)
{
	bool table = thunk(cfg->cost_family, CPU_SRSO_DEFAULT);
	bool run = thunk(cfg->family, cfg->srso);

	if (table == run)
		return;
	for (size_t i = 0; i < sizeof(srso_costs) / sizeof(srso_costs[0]);
	     i++) {
		const struct srso_cost *s = &srso_costs[i];
		double *v = (double *)((char *)cost + s->offset);

		*v *= table ? s->ibpb / s->safe_ret : s->safe_ret / s->ibpb;
	}
}
