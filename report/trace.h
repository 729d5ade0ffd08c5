/*
 * ppsim trace's events as text, one line an event (ppsim(1)), for a run
 * of model/trace/: the sink a run tells.
 */
#ifndef PPSIM_REPORT_TRACE_H
#define PPSIM_REPORT_TRACE_H

#include <stdio.h>
#include "../model/trace/trace.h"

/* The bytes of events one policy's run writes: past them, it is said at
 * its line and the trace is bad input (exit 2). */
#define TRACE_MAX_OUTPUT	(64 << 20)

/* Writes a run's events to out; its errors on stderr as "name:LINE:
 * message".  One a run: it counts what the run wrote. */
struct trace_writer {
	struct trace_sink sink;	/* first: the run's events come here */
	FILE *out;
	const char *name;
	unsigned long long written;	/* bytes, TRACE_MAX_OUTPUT */
};

void trace_writer_init(struct trace_writer *w, FILE *out, const char *name);

#endif
