/*
 * Whose cycles a scenario runs on: the [cost] table's core and the core
 * its driver cycles were fitted on, against the [cpu]'s core
 * (doc/notes/core-costs.md, section 6).  What the outputs say of it is
 * made here once, for every format.
 */
#include <stdio.h>
#include "scenario.h"

/* Whether c's driver cycles were fitted on another core than its own. */
static bool fit_elsewhere(const struct scn_case *c)
{
	const struct cpu_config *cpu = &c->sim.cpu;

	return cpu->fit_family && cpu->fit_family - 1 != (int)cpu->family;
}

bool scn_case_costs_borrowed(const struct scn_case *c, char *buf, size_t len)
{
	const struct cpu_config *cpu = &c->sim.cpu;
	bool table = cpu->cost_family != cpu->family;
	bool fit = fit_elsewhere(c);

	*buf = '\0';
	if (!table && !fit)
		return false;
	snprintf(buf, len, "a %s core: %s%s%s%s%s",
		 cpu_family_words[cpu->family],
		 table ? cpu_family_words[cpu->cost_family] : "",
		 table ? "'s cost table" : "", table && fit ? ", " : "",
		 fit ? "driver cycles fitted on " : "",
		 fit ? cpu_fit_family_words[cpu->fit_family] : "");
	return true;
}

const char *scn_costs_borrowed(const struct scenario *scn, char *buf,
			       size_t len)
{
	for (int i = 0; i < scn->nr_cases; i++)
		if (scn_case_costs_borrowed(&scn->cases[i], buf, len))
			return buf;
	return NULL;
}

bool scn_uncalibrated(const struct scenario *scn)
{
	if (scn_uncalibrated_profile(scn))
		return true;
	for (int i = 0; i < scn->nr_cases; i++)
		if (fit_elsewhere(&scn->cases[i]))
			return true;
	return false;
}
