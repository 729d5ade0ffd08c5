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

#endif
