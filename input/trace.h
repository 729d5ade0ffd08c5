/*
 * ppsim trace's input: a file of page_pool operations, one a line, read
 * and checked for the machine it will run on; model/trace/ runs it
 * (trace_exec) and report/trace.c writes its events.  The format is in
 * ppsim(1).
 */
#ifndef PPSIM_INPUT_TRACE_H
#define PPSIM_INPUT_TRACE_H

#include <stdio.h>
#include "../model/trace/trace.h"

/* A trace's bounds (ppsim(1)): what it reads, file or standard input (a
 * scenario's 64 MiB), and the operations it keeps (blank and comment
 * lines are none); past either, it is said at its line and the trace is
 * bad input (exit 2).  The events' bound is report/trace.h's. */
#define TRACE_MAX_INPUT		(64 << 20)
#define TRACE_MAX_OPS		(1 << 20)

/* Reads and checks the trace in for the machine m (a fuzzer's is small),
 * read once whatever the number of policies it runs through; name is
 * what messages call it.  Returns NULL with the errors said on stderr as
 * "name:LINE: message". */
struct trace_ops *trace_parse(FILE *in, const char *name,
			      const struct trace_machine *m);
void trace_ops_free(struct trace_ops *ops);

#endif
