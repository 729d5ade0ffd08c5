/*
 * Whose cycles a scenario runs on: the [cost] table's core and the core
 * its driver cycles were fitted on, against the [cpu]'s core
 * (doc/notes/core-costs.md, section 6).  What the outputs say of it is
 * made here once, for every format.
 */
#include <stdio.h>
#include "../model/workload/workload.h"
#include "scenario.h"

const char *const scn_driver_costs[CPU_NR_DRIVER_COSTS] = {
	[CPU_RX_PKT] = "cost.rx_pkt", [CPU_TX_PKT] = "cost.tx_pkt",
	[CPU_STACK] = "cost.stack",
};

/* The core (enum cpu_family + 1) a driver cost c reads was fitted on
 * when that is another than its own; 0 if none is. */
static int fit_elsewhere(const struct scn_case *c)
{
	const struct cpu_config *cpu = &c->sim.cpu;

	for (int d = 0; d < CPU_NR_DRIVER_COSTS; d++)
		if (workload_reads(c->sim.rxq.workload, scn_driver_costs[d]) &&
		    cpu->fit_of[d] > 0 && cpu->fit_of[d] - 1 != (int)cpu->family)
			return cpu->fit_of[d];
	return 0;
}

/* Whether a driver cost c reads is a profile's prior, fitted on nothing. */
static bool unfitted(const struct scn_case *c)
{
	for (int d = 0; d < CPU_NR_DRIVER_COSTS; d++)
		if (workload_reads(c->sim.rxq.workload, scn_driver_costs[d]) &&
		    c->sim.cpu.fit_of[d] == CPU_FIT_PRIOR)
			return true;
	return false;
}

/* Whether c's [cost] table holds another core's cycles. */
static bool table_borrowed(const struct scn_case *c)
{
	return c->sim.cpu.cost_family != c->sim.cpu.family;
}

bool scn_case_costs_borrowed(const struct scn_case *c, char *buf, size_t len)
{
	const struct cpu_config *cpu = &c->sim.cpu;
	bool table = table_borrowed(c);
	int fit = fit_elsewhere(c);

	*buf = '\0';
	if (!table && !fit)
		return false;
	snprintf(buf, len, "a %s core: %s%s%s%s%s",
		 cpu_family_words[cpu->family],
		 table ? cpu_family_words[cpu->cost_family] : "",
		 table ? "'s cost table" : "", table && fit ? ", " : "",
		 fit ? "driver cycles fitted on " : "",
		 fit ? cpu_fit_family_words[fit] : "");
	return true;
}

const char *scn_costs_borrowed(const struct scenario *scn, char *buf,
			       size_t len)
{
	const struct scn_case *said = NULL;

	*buf = '\0';
	for (int i = 0; i < scn->nr_cases; i++) {
		const struct scn_case *c = &scn->cases[i];

		if (fit_elsewhere(c)) {	/* says the most */
			said = c;
			break;
		}
		if (!said && table_borrowed(c))
			said = c;
	}
	return said && scn_case_costs_borrowed(said, buf, len) ? buf : NULL;
}

bool scn_uncalibrated(const struct scenario *scn)
{
	if (scn_uncalibrated_profile(scn))
		return true;
	for (int i = 0; i < scn->nr_cases; i++)
		if (fit_elsewhere(&scn->cases[i]) || unfitted(&scn->cases[i]))
			return true;
	return false;
}
