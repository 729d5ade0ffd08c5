/*
 * ppsim trace: runs a file of page_pool operations, one a line, through one
 * policy and prints one line per event.  The format is in ppsim(1).
 */
#ifndef PPSIM_TRACE_H
#define PPSIM_TRACE_H

#include <stdio.h>
#include "../model/page_pool/pp.h"

/*
 * Reads the trace at path (name is what messages call it), runs it and
 * writes the events to out.  Bad input is reported as "name:LINE: message"
 * on stderr.  Returns an exit status: 0 ok, 1 the model broke an invariant
 * (page accounting), 2 bad input.
 */
int trace_run(FILE *in, const char *name, const struct pp_policy *pol,
	      FILE *out);

/* The machine of a trace that names none ('nodes'), and the most pages a
 * trace may ask for; trace_run's: 2 nodes of 65536 pages, 4 Mi pages. */
struct trace_machine {
	int nodes;
	u32 pages;		/* per node */
	u32 max_pages;		/* in all, and in one alloc */
};
extern const struct trace_machine trace_machine_default;

/* trace_run() in two steps, so that one trace runs through several
 * policies read once (the fuzzer does): trace_parse() reads and checks a
 * trace for the machine m (a fuzzer's is small), returning NULL with the
 * errors said; trace_exec() runs it, returning trace_run's status. */
struct trace_ops;
struct trace_ops *trace_parse(FILE *in, const char *name,
			      const struct trace_machine *m);
int trace_exec(const struct trace_ops *ops, const struct pp_policy *pol,
	       FILE *out);
void trace_ops_free(struct trace_ops *ops);

#endif
