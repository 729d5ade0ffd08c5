/*
 * A CPU's core family: the core a cost table's cycles were counted on,
 * and what a kernel mitigation the family has does to those cycles
 * (doc/notes/core-costs.md).  input/ reads a case's families and its
 * mitigation into struct cpu_config (cpu.family, cpu.srso, cost.family,
 * cost.fit_family); sim/ scales a run's costs with cpu_costs_mitigate()
 * before its queues open.
 */
#ifndef PPSIM_CPU_FAMILY_H
#define PPSIM_CPU_FAMILY_H

#include <stdbool.h>
#include "../nic/rxq.h"

/* The scenario's words, in this order (cpu_family_words). */
enum cpu_family {
	CPU_BROADWELL, CPU_SUNNY_COVE, CPU_GOLDEN_COVE, CPU_ZEN3, CPU_ZEN4,
	CPU_NR_FAMILIES
};

/* spec_rstack_overflow=: default is the family's kernel default (safe
 * RET where the family has SRSO, nothing where it has not). */
enum cpu_srso {
	CPU_SRSO_DEFAULT, CPU_SRSO_SAFE_RET, CPU_SRSO_IBPB, CPU_SRSO_OFF,
};

/* The cycles no datasheet gives, which ppsim calibrate fits: cost.rx_pkt,
 * cost.tx_pkt, cost.stack. */
enum cpu_driver_cost { CPU_RX_PKT, CPU_TX_PKT, CPU_STACK, CPU_NR_DRIVER_COSTS };
#define CPU_FIT_PRIOR	(-1)

struct cpu_config {
	enum cpu_family family;		/* the [cpu]'s core */
	enum cpu_srso srso;		/* its SRSO mitigation */
	enum cpu_family cost_family;	/* the core [cost]'s cycles were
					 * counted on, under its kernel's
					 * default mitigations */
	int fit_family;			/* cost.fit_family as the key table
					 * parses it (checking its word);
					 * no one reads it: it is each
					 * file's own, fit_of below */
	/* each driver cost's, by the file its value came from (input/):
	 * the core it was fitted on, enum cpu_family + 1; 0 not recorded
	 * (taken as this core's); CPU_FIT_PRIOR a profile's prior */
	int fit_of[CPU_NR_DRIVER_COSTS];
};

/* NULL-ended, in the enum's order; cpu_fit_family_words has "any" (0,
 * not recorded) before the families. */
extern const char *const cpu_family_words[CPU_NR_FAMILIES + 1];
extern const char *const cpu_fit_family_words[CPU_NR_FAMILIES + 2];
extern const char *const cpu_srso_words[];

/* Whether the family has SRSO (AMD Zen 1 to 4). */
bool cpu_has_srso(enum cpu_family f);

/* Scales the costs SRSO moves (pp_fast, pp_ring, pp_lock, page_alloc,
 * page_free), written for cfg->cost_family's core under its default
 * mitigations, to cfg->family's core under cfg->srso: by the measured
 * ratio when the table has the return thunk and the run has not, by its
 * inverse the other way, not at all otherwise.  The other costs stay. */
void cpu_costs_mitigate(struct rxq_costs *cost, const struct cpu_config *cfg);

#endif
