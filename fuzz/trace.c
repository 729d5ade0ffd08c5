/*
 * libFuzzer harness: the trace runner, through every policy.  A trace that
 * parses is run, so the page_pool eras, the page allocator and the
 * accounting check are fuzzed too.
 */
#include <stdio.h>
#include "input/trace.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sink = fopen("/dev/null", "w");
	return sink ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	for (int i = 0; pp_eras[i]; i++) {
		FILE *in = fmemopen((void *)data, size, "r");

		if (!in)
			return 0;
		trace_run(in, "fuzz", pp_eras[i], sink);
		fclose(in);
	}
	return 0;
}
