/*
 * A scenario key, as the code that reads its value declares it: name,
 * how the value is kept, its unit and range, where it lies, its default
 * and help (fio's struct fio_option).  input/'s core table and each
 * plugin's table (a workload's own keys, struct workload_ops; a NIC
 * model's, struct nic_model) are arrays of these; input/ parses, checks,
 * lists and writes every key from one registry of them all, without
 * knowing whose a key is.  The model only states its keys and their
 * rules: it reads no scenario.
 */
#ifndef PPSIM_KEY_H
#define PPSIM_KEY_H

#include <stdbool.h>
#include <stddef.h>

struct workload_ops;

/* How a key's value is kept. */
enum key_store {
	KEY_INT, KEY_U32, KEY_U64, KEY_DOUBLE,	/* numbers */
	KEY_WORD,		/* one of a table of words, kept as an int */
	KEY_POLICIES, KEY_MEASURED, KEY_POLICY, KEY_TEXT,
};

/* What a number measures: the suffixes it takes. */
enum key_unit {
	KEY_PLAIN, KEY_TIME, KEY_SIZE, KEY_FREQ, KEY_BYTERATE, KEY_BITRATE,
	KEY_PKTRATE,
};

struct key {
	const char *section;	/* "case": [global] or [case NAME] */
	const char *name;
	enum key_store store;
	enum key_unit kind;
	bool in_scenario;	/* the scenario's (input/'s struct
				 * scn_calibrate), not a case's */
	size_t offset;		/* of the value, in the struct its table
				 * says */
	const char *def;	/* default, as a file would write it */
	double min, max;	/* base units: s, bytes, Hz, bytes/s, bits/s */
	const char *unit;	/* unit of a bare number */
	const char *help;
	const char *const *words;	/* KEY_WORD: the values, NULL-ended,
					 * in the order of their enum */
	/* or KEY_WORD of a registry of strategies (NULL-ended), kept as a
	 * pointer to the one chosen: their names are the words */
	const struct workload_ops *const *registry;
	/* a plugin's key: what it is, said when a case that does not use
	 * it sets it ("the ring of xdp_cpumap's kthread") */
	const char *what;
	/* a NIC model's key: the core key of its section it is listed
	 * after ("tx_ring"); NULL: after the key before it in its table */
	const char *after;
};

/* Says that a rule among a case's keys is broken: key ("case.queues")
 * is the one to blame, at whose line input/ says "FILE:LINE: " and the
 * message.  A plugin's check calls it for each rule broken, in order. */
typedef void key_say(void *ctx, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
