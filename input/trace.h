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

/* trace_run() on the machine m (a fuzzer's is small: building 2 x 65536
 * pages took most of each run). */
int trace_run_on(FILE *in, const char *name, const struct pp_policy *pol,
		 FILE *out, const struct trace_machine *m);

#endif
