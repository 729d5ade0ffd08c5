/*
 * What the files of the scenario module (input/scn_*.c) share, and
 * nothing outside them includes: the registry of keys, the loader that
 * reads files, and each file's functions the others call.  The module's
 * interface is scenario.h.  The files, one job each:
 *   scn_keytab.c    the core keys, and the registry: them and every
 *                   NIC model's and workload's own keys
 *   scn_value.c     a key's value: units, numbers, words, policies
 *   scn_keys.c      keys by name: lookups, suggestions, what 'ppsim keys
 *                   KEY' says
 *   scn_read.c      reading files (inih): lines, sections, includes
 *   scn_cases.c     cases from what was read: defaults, [global], the
 *                   case's section, --set; scn_load
 *   scn_check.c     the keys against each other (the core's rules and
 *                   the case's NIC model's and workload's)
 *   scn_sections.c  [sweep NAME] and [fitted]
 *   scn_write.c     what ppsim writes from the registry: a case as
 *                   resolved.ini has it, 'ppsim keys', the man page
 */
#ifndef PPSIM_SCN_PRIVATE_H
#define PPSIM_SCN_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>
#include "../io/datadir.h"
#include "../model/key.h"
#include "scenario.h"

#define SCN_LINE_MAX	198	/* characters; inih's buffer is 200 */
#define SCN_INCLUDE_DEPTH 8
/* files read for one scenario, includes of includes counted (a tree of 4
 * levels of 20 includes read 160,000, for minutes) */
#define SCN_MAX_FILES	64

/* ---- the registry (scn_keytab.c) ---- */

/* The keys input/ parses, scn_registry_len of them, in the order 'ppsim
 * keys' lists them; the workload that owns each (NULL: the core, or the
 * NIC model, every case's). */
extern struct key scn_registry[SCN_MAX_KEYS];
extern const struct workload_ops *scn_registry_owner[SCN_MAX_KEYS];
extern size_t scn_registry_len;
extern size_t scn_registry_left_out;	/* past SCN_MAX_KEYS: said when
					 * a scenario is read */

/* ---- values (scn_value.c) ---- */

bool scn_is_number(const struct key *k);
int scn_parse_number(const struct key *k, const char *text, double *v,
		     char *why, size_t len);
int scn_parse_policy_words(const char *text, const struct pp_policy **pols,
			   struct scn_measured *figs, int *nr,
			   const struct pp_policy *const *set, char *why,
			   size_t len);
void scn_store_number(const struct key *k, void *field, double v);
double scn_load_number(const struct key *k, const void *field);
const char *scn_word_at(const struct key *k, int i);
int scn_word_index(const struct key *k, const void *field);
int scn_set_value(struct scn_case *c, struct scn_calibrate *cal,
		  const struct key *k, const char *text,
		  const struct pp_policy *const *set, char *why, size_t len);
/* A number as a file writes it, at full precision. */
void scn_write_number(FILE *f, const struct key *k, double v);

/* ---- keys by name (scn_keys.c) ---- */

const struct key *scn_find_key(const char *section, const char *name);
/* "nic.rx_ring", "duration", "global.duration" */
const struct key *scn_find_dotted(const char *key);
/* The registry's index of "section.name", which must be a key. */
size_t scn_key_index(const char *dotted);
size_t scn_edit_distance(const char *a, const char *b, size_t limit);
const char *scn_retired(const char *section, const char *name);
void scn_suggest(const char *section, const char *name, char *out,
		 size_t len);

/* ---- reading files (scn_read.c) ---- */

/* A file read (dev, ino: the one file under any name), where it was
 * included: file's line (the scenario's own: file NULL), its name as
 * written there. */
struct include_site {
	const char *file;
	int line;
	dev_t dev;
	ino_t ino;
	char written[SCN_LINE_MAX + 1];
};

struct assignment {
	const char *file;
	int line;
	/* the files that led to it, by their order of reading: the
	 * scenario's, then each include down to its own (--set: none) */
	uint8_t chain[SCN_INCLUDE_DEPTH];
	uint8_t depth;
	char section[SCN_NAME_MAX + 8];
	char key[SCN_NAME_MAX];
	char value[SCN_LINE_MAX + 1];
};

struct loader {
	struct scenario *scn;
	const struct pp_policy *const *policies;	/* the program's */
	struct assignment *as;
	int nr_as, cap_as;
	int errors;
	/* a hash of each error said: the same error, from a --set every
	 * case applies, is said once */
	unsigned long said[DATADIR_MAX_ERRORS];
	int nr_said;
	/* the file being read */
	const char *file;
	FILE *f;
	int line;
	uint8_t chain[SCN_INCLUDE_DEPTH];	/* the files being read, by
						 * their order of reading */
	int depth;
	struct include_site site[SCN_MAX_FILES];	/* each file read */
	int nr_read;		/* files read, SCN_MAX_FILES */
	long bytes;		/* their sizes, SCN_MAX_BYTES */
	bool stop;		/* past a bound: no line more is read */
	bool bad_header;	/* the last section line was refused: its
				 * keys are not said again as sectionless */
	bool in_machine;	/* the line read is under [machine] */
	/* the cases the command runs (--case), all when nr_only is 0: the
	 * overrides apply to those alone */
	const char *const *only;
	int nr_only;
};

struct origin {
	const char *file;
	int line;
	bool in_case;	/* in the case's own [case] section */
	const struct assignment *as;	/* the line's, of a file; or NULL */
};

void scn_error(struct loader *ld, const char *file, int line,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool scn_section_known(const char *section);
const char *scn_control_char(const char *text);
int scn_load_file(struct loader *ld, const char *path, const char *value,
		  const char *from, int from_line);
/* Says, at the include, a line was overriding unseen a line (was) of a
 * file that includes a's (scn_read.c). */
void scn_check_include_over(struct loader *ld, const struct assignment *a,
			    const struct assignment *was);

/* ---- cases (scn_cases.c) ---- */

/* Whether the scenario has a [case name] section. */
bool scn_case_section(const struct loader *ld, const char *name);

/* ---- the keys against each other (scn_check.c) ---- */

/* Grows sample, left at its default, to fit the run. */
/* Whether k is one of the keys a [case] may not set: the machine's name
 * and the families that mark its costs borrowed (scn_cases.c). */
bool scn_whole_machine(const struct key *k);
void scn_fit_sample(struct scn_case *c, const struct origin *org);
bool scn_validate(struct loader *ld, const struct scn_case *c,
		  const struct origin *org, char *why, size_t len);
/* Whether c uses k: a workload's key only where that workload does. */
bool scn_key_used(const struct scn_case *c, const struct key *k);

/* ---- sections (scn_sections.c) ---- */

void scn_build_sweeps(struct loader *ld);
void scn_check_sweep_values(struct loader *ld);
void scn_build_fitted(struct loader *ld);

#endif
