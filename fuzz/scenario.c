/*
 * libFuzzer harness: the scenario parser.  Each input is written to a file
 * and loaded as a scenario (with the seed scenario's directory of
 * includes beside it); any crash, hang, leak or sanitizer report is a bug.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "input/scenario.h"

static char path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_TMPDIR");

	(void)argc;
	(void)argv;
	/* the parser's messages are expected: run.sh passes
	 * -close_fd_mask=3, which keeps libFuzzer's own output */
	snprintf(path, sizeof(path), "%s/fuzz-%d.ini", dir ? dir : "/tmp",
		 (int)getpid());
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	FILE *f = fopen(path, "w");
	struct scenario *scn;

	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	scn = scn_load(path, NULL, 0, pp_eras);
	scn_free(scn);
	return 0;
}
