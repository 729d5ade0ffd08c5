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
 * (page accounting) or out failed (a reader gone: the run stops there),
 * 2 bad input.
 */
int trace_run(FILE *in, const char *name, const struct pp_policy *pol,
	      FILE *out);

/* A trace's bounds (ppsim(1)): what it reads, file or standard input (a
 * scenario's 64 MiB), the operations it keeps (blank and comment lines
 * are none), and the bytes of events one policy's run writes: past any,
 * it is said at its line and the trace is bad input (exit 2). */
#define TRACE_MAX_INPUT		(64 << 20)
#define TRACE_MAX_OPS		(1 << 20)
#define TRACE_MAX_OUTPUT	(64 << 20)

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
