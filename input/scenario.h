/*
 * Scenario files: INI (read with libinih), fio's model.  A scenario names a
 * hardware profile (include = FILE), sets hardware keys in their sections
 * ([cpu], [cache], [mem], [qpi], [pcie], [nic], [driver], [cost], [model]),
 * case defaults in [global], and one section per case: [case NAME].
 *
 * One table (scn_keys) describes every key once: section, name, type,
 * default, range, unit and help.  It drives parsing, defaults, range
 * checks, --set, 'ppsim keys' and the man page ppsim-scenario(5).
 *
 * Every case is a complete struct scn_case: defaults, then every hardware
 * and [global] setting in file order, then the case's own section, then
 * the command line's --set overrides.
 */
#ifndef PPSIM_SCENARIO_H
#define PPSIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../sim/sim.h"

#define SCN_NAME_MAX	64
#define SCN_MAX_POLICIES 4
#define SCN_MAX_CASES	64
#define SCN_TEXT_MAX	200

/* The largest measured figure taken, in Mpps or Gbps: a bound on what
 * any NIC carries, not a measurement.  The fastest port is 800 Gb/s,
 * 1190 Mpps at 64 bytes (IEEE 802.3df); 10000 is eight times that, and
 * a figure above it is a typo that would also break the table. */
#define SCN_MEASURED_MAX 10000.0
/* the least: a packet a second in Mpps; below it a relative error (the
 * fit's residual) overflows */
#define SCN_MEASURED_MIN 1e-6

struct scn_measured {
	const struct pp_policy *policy;
	double value;		/* in the case's unit (sim_rate_unit) */
};

struct scn_case {
	char name[SCN_NAME_MAX];
	const char *file;	/* where the case section is */
	int line;
	struct sim_case sim;	/* what the engine runs: every key but these */
	const struct pp_policy *policies[SCN_MAX_POLICIES];
	int nr_policies;
	const struct pp_policy *baseline;	/* the policy the others are
						 * compared with (delta%);
						 * NULL: policies[0] */
	struct scn_measured measured[SCN_MAX_POLICIES];
	int nr_measured;
	int nr_unrun;		/* measured figures left out: their policy
				 * was taken off the case by --set */
	/* --format commit: the case's cells and their headers, '|' between
	 * columns ("Far | Drop" under "NUMA | XDP"); empty: its name */
	char label[SCN_TEXT_MAX];
	char label_columns[SCN_TEXT_MAX];
	/* [machine] name: the title of its tables and plots; "" none */
	char machine[SCN_TEXT_MAX];
};

/* The longest [machine] name: a commit table's line holds it. */
#define SCN_MACHINE_MAX	63

/* The cells of a label ("Far | Drop"), trimmed, at most max of them;
 * returns how many. */
#define SCN_MAX_LABELS	4
int scn_label_cells(const char *label, char cells[][SCN_NAME_MAX], int max);

/* [calibrate]: what ppsim calibrate fits and ppsim validate accepts, the
 * same for the whole scenario. */
struct scn_calibrate {
	char free[SCN_TEXT_MAX];	/* KEY:MIN:MAX ... */
	const char *free_file;		/* where free was set, for messages */
	int free_line;
	char cases[SCN_TEXT_MAX];	/* the cases fitted on */
	double tolerance;		/* % error validate accepts */
	double effect_tolerance;	/* points of error in a change */
};

/* What a calibration's fit predicted for the measured figures of one case
 * it was fitted on: [fitted] CASE = POLICY:VALUE ..., which ppsim
 * calibrate writes into the calibration.  validate compares the model's
 * prediction now with it: a model or a profile changed since the fit
 * makes the calibration stale. */
struct scn_fitted {
	char case_name[SCN_NAME_MAX];
	struct scn_measured fig[SCN_MAX_POLICIES];
	int nr;
	const char *file;	/* the line that wrote it */
	int line;
};

/* A [sweep NAME] section: what ppsim sweep varies. */
struct scn_sweep {
	char name[SCN_NAME_MAX];
	char vary[SCN_TEXT_MAX];	/* KEY=V1,V2,... KEY=... */
	char cases[SCN_TEXT_MAX];	/* the cases to run, empty = all */
	const char *file;		/* its vary line; without one, */
	int line;			/* its header's */
};

#define SCN_MAX_SWEEPS	16
#define SCN_MAX_KEYS	128

struct scenario {
	char *path;
	struct scn_calibrate calibrate;
	struct scn_case cases[SCN_MAX_CASES];
	int nr_cases;
	struct scn_sweep sweeps[SCN_MAX_SWEEPS];
	int nr_sweeps;
	struct scn_fitted fitted[SCN_MAX_CASES];	/* a file's [fitted]
					 * line of a case replaces an earlier
					 * file's */
	int nr_fitted;
	char **files;		/* every file read (names kept for messages) */
	int nr_files;
	bool written[SCN_MAX_KEYS];	/* by key: set by a file or --set, in
					 * any section (scn_key_written) */
	struct scn_source {		/* by key: the file line that set it
					 * last outside a case; file NULL: its
					 * default, or a --set */
		const char *file;
		int line;
	} source[SCN_MAX_KEYS];
};

/* One --set KEY=VALUE from the command line. */
struct scn_override {
	const char *key;	/* "nic.rx_ring" or a case key: "duration" */
	const char *value;
	const char *file;	/* where it was said, for messages: NULL for
				 * the n-th --set, else an option ("--duration",
				 * line 0) or a file and its line */
	int line;
};

/*
 * Reads a scenario and everything it includes; its policies are looked up
 * in policies (NULL-terminated: those the program has).  Every error is
 * reported as "FILE:LINE: message" on stderr; returns NULL if there was
 * any.
 */
struct scenario *scn_load(const char *path, const struct scn_override *set,
			  int nr_set, const struct pp_policy *const *policies);
/* The same, the overrides applied to the cases named in only alone (all
 * when nr_only is 0): a case the command does not run is read as its
 * file has it, and --set KEY=VALUE that suits the cases run only (app_cpu
 * for a tcp case among XDP ones) is no error. */
struct scenario *scn_load_cases(const char *path,
				const struct scn_override *set, int nr_set,
				const struct pp_policy *const *policies,
				const char *const *only, int nr_only);
/* scn_load_cases, a file with no [case NAME] section (a hardware profile,
 * a calibration) read as one with no case (nr_cases 0) rather than
 * refused: validate passes such a file over (a glob of scenarios/
 * holds calibrations). */
struct scenario *scn_load_part(const char *path,
			       const struct scn_override *set, int nr_set,
			       const struct pp_policy *const *policies,
			       const char *const *only, int nr_only);
void scn_free(struct scenario *scn);

/* Sets one numeric key ("cost.rx_pkt", "duration") of a case as a file
 * would; returns 0, or -1 with why. */
int scn_case_set(struct scn_case *c, const char *key, const char *value,
		 char *why, size_t len);

/* Reads a numeric key back in its base unit; returns 0 or -1. */
int scn_case_get(const struct scn_case *c, const char *key, double *v);
/* A word key's value (workload, xdp_touch) as a file writes it, into buf;
 * -1 if key is no word key of a case. */
int scn_case_word(const struct scn_case *c, const char *key, char *buf,
		  size_t len);

/* Sets a numeric key to v in its base unit (as scn_case_get reads it),
 * kept as a file written with scn_format_digits(SCN_FILE_DIGITS) keeps it,
 * and checked as a file's value would be: the key's range, whole numbers,
 * and the case's keys against each other (rx_ring a power of 2, the rings
 * within mem.pages, ...).  Returns 0, or -1 with why and c unchanged. */
int scn_case_put(struct scn_case *c, const char *key, double v, char *why,
		 size_t len);

/* Whether a file of the scenario (or --set) sets key ("cost.xdp"), in its
 * section or in a case; false for a key left at its default. */
bool scn_key_written(const struct scenario *scn, const char *key);

/* Whether a numeric key keeps whole numbers only (queues, nic.rx_ring). */
bool scn_key_whole(const char *key);
/* Whether key names a scenario key, as --set takes it ("duration",
 * "nic.rx_ring", "case.policies", "global.queues"). */
bool scn_key_known(const char *key);
/* Whether key ("nic.rx_ring", "duration") is a number. */
bool scn_key_numeric(const char *key);
/* Whether key is a number or one of a table of words (cache.llc_policy):
 * a comma in its value can only separate several values. */
bool scn_key_one_value(const char *key);
/* The keys, in their table's order: how many, and key i's name as
 * section.key (a case key: case.key). */
int scn_nr_keys(void);
void scn_key_name(int i, char *buf, size_t len);
/* Writes, a line each, the figures a scenario runs on (outside its cases)
 * that the file setting them marks a guess or a prior (its comment on
 * that line or the comment lines below it, as scenarios/hw/ marks them):
 * "FILE:LINE: the line, comment and all" (f NULL: none, counted only).
 * Returns how many. */
int scn_write_guesses(FILE *f, const struct scenario *scn);

/* Whether path is a hardware profile, a file under a hw/ directory: its
 * "hw/NAME.ini" part, else NULL. */
const char *scn_profile_part(const char *path);
/* The hardware profile (a file under a hw/ directory) a scenario read
 * when it read no calibration (a .cal.ini), else NULL. */
const char *scn_uncalibrated_profile(const struct scenario *scn);

/* Whether a case runs on cycles of another core than its [cpu]'s: a
 * [cost] table of another family (cost.family), or driver cycles fitted
 * on another (the fit_family of the .cal.ini a driver cost it reads came
 * from).  Writes what into buf, "a zen4 core:
 * broadwell's cost table, driver cycles fitted on broadwell" (the
 * outputs put "costs borrowed for " before it), or "" and false. */
bool scn_case_costs_borrowed(const struct scn_case *c, char *buf, size_t len);
/* What the scenario's cases borrow, in buf (one whose driver cycles were
 * fitted on another core says the most, else the first that borrows a
 * table), or NULL. */
const char *scn_costs_borrowed(const struct scenario *scn, char *buf,
			       size_t len);
/* Whether its driver cycles were fitted on no figure of its core: a
 * profile read without a calibration (scn_uncalibrated_profile), or a
 * calibration of another core, or a driver cost a case reads that is a
 * profile's prior. */
bool scn_uncalibrated(const struct scenario *scn);

/* The case called name, or NULL. */
struct scn_case *scn_case_named(const struct scenario *scn, const char *name);
/* Whether case name is one [calibrate] cases fits on. */
bool scn_fitted_on(const struct scenario *scn, const char *name);
/* The [fitted] record of case name, or NULL. */
const struct scn_fitted *scn_fitted_case(const struct scenario *scn,
					 const char *name);
/* Prints what the key table says of key: meaning, default, unit, range,
 * where it is set.  Returns 0, or -1 when there is no such key, with the
 * nearest known name in hint ("" if none is near). */
int scn_explain_key(FILE *f, const char *key, char *hint, size_t len);

/* The driver costs' keys, "cost.rx_pkt" ..., by enum cpu_driver_cost. */
extern const char *const scn_driver_costs[CPU_NR_DRIVER_COSTS];

/* Whether key says only how long or how finely a run measures (warmup,
 * duration, sample, precision), not what: the same figure is measured at
 * any value. */
bool scn_key_measures(const char *key);

/* The unit scn_case_get() reads a numeric key in ("s", "B", "cycles",
 * "" for a plain count), or NULL for another key. */
const char *scn_key_unit(const char *key);

/* v, in key's base unit, as a file writes it: in the key's unit with its
 * suffix ("20ns", "1.7GHz"), a bare number for plain ones; to digits
 * significant digits, or 6 for scn_format_value. */
void scn_format_digits(const char *key, double v, int digits, char *buf,
		       size_t len);
void scn_format_value(const char *key, double v, char *buf, size_t len);

/* The significant digits a value set by scn_case_put keeps, and so a file
 * must write for a run to get that value again (a calibration). */
#define SCN_FILE_DIGITS	10

#define SCN_KEY_MAX	48	/* "section.name" */

/* The numeric keys of a section ("cost", "model"; "case" for [global]'s),
 * as --set names them ("cost.rx_pkt", "queues"), in the key table's
 * order: writes the first max into keys, returns how many there are. */
int scn_numeric_keys(const char *section, char (*keys)[SCN_KEY_MAX],
		     int max);

/* How many keys two cases set differently (every key a case has but
 * policies and measured); their names, as --set names them, space
 * separated in key (cut to len). */
int scn_case_diff(const struct scn_case *a, const struct scn_case *b,
		  char *key, size_t len);

/* The policy a case's others are compared with: baseline, else its
 * first. */
const struct pp_policy *scn_baseline(const struct scn_case *c);

/* Writes every key's effective value in c as a scenario file would set it
 * (a [case NAME] section, hardware keys dotted), at full precision: what
 * ran, as gem5's config.ini says. */
void scn_write_case(FILE *f, const struct scn_case *c);
/* The keys no [case] may set (the machine's name, the families that mark
 * costs borrowed), c's, in their own sections ([machine], [cpu], [cost]):
 * written once, before the cases scn_write_case writes. */
void scn_write_machine(FILE *f, const struct scn_case *c);

/* Prints every key: section, name, default, range, unit, help. */
void scn_print_keys(FILE *f, bool man);

#endif
