/*
 * libFuzzer harness: the trace runner, through every policy.  A trace that
 * parses is run, so the page_pool eras, the page allocator and the
 * accounting check are fuzzed too.  Each input is read once, and runs on a
 * small machine (2 nodes of 512 pages, 8192 at most): building
 * trace_machine_default's 2 x 65536 pages three times an input took most
 * of the time, and an input asking for 4 Mi pages found nothing the small
 * one does not.
 */
#include <stdio.h>
#include "input/trace.h"
#include "report/trace.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static FILE *sink;
static const struct trace_machine small = {
	.nodes = 2, .pages = 512, .max_pages = 8192,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sink = fopen("/dev/null", "w");
	return sink ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	FILE *in = fmemopen((void *)data, size, "r");
	struct trace_ops *ops;

	if (!in)
		return 0;
	ops = trace_parse(in, "fuzz", &small);
	fclose(in);
	for (int i = 0; ops && pp_eras[i]; i++) {
		struct trace_writer w;

		trace_writer_init(&w, sink, ops->name);
		trace_exec(ops, pp_eras[i], &w.sink);
	}
	trace_ops_free(ops);
	return 0;
}
