/*
 * libFuzzer harness: ppsim merge.  The input is one CSV file, or two
 * separated by a NUL byte (merge checks each against the first); merge
 * reads them as the command does, its output going to /dev/null.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/cmd.h"
#include "model/page_pool/kernel_era.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* the program's policies (cmd/main.c's, which the harness replaces):
 * cmd_parse's table reaches them */
const struct pp_policy *const cmd_policies[] = {
	&kernel_era_v5_4.pp, &kernel_era_v5_5.pp, &kernel_era_v6_1.pp,
	&kernel_era_v6_12.pp, NULL,
};

static char path[2][4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_TMPDIR");

	(void)argc;
	(void)argv;
	for (int i = 0; i < 2; i++)
		snprintf(path[i], sizeof(path[i]), "%s/fuzz-%d-%d.csv",
			 dir ? dir : "/tmp", (int)getpid(), i);
	return freopen("/dev/null", "w", stdout) ? 0 : 1;
}

static void put(const char *p, const unsigned char *data, size_t size)
{
	FILE *f = fopen(p, "w");

	if (f) {
		fwrite(data, 1, size, f);
		fclose(f);
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const unsigned char *nul = memchr(data, '\0', size);
	char *argv[] = { "merge", path[0], path[1], NULL };
	size_t first = nul ? (size_t)(nul - data) : size;

	put(path[0], data, first);
	if (nul)
		put(path[1], nul + 1, size - first - 1);
	merge_main(nul ? 3 : 2, argv);
	return 0;
}
