/*
 * libFuzzer harness: the command line.  The first byte picks a command
 * (every one that has a spec); the rest, split at NUL bytes,
 * is its argv, which cmd_parse() reads with the one option table.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "model/page_pool/kernel_era.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* the program's policies (cmd/main.c's, which the harness replaces) */
const struct pp_policy *const cmd_policies[] = {
	&kernel_era_v5_4.pp, &kernel_era_v5_5.pp, &kernel_era_v6_1.pp,
	&kernel_era_v6_12.pp, NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* --help prints the usage to stdout */
	return freopen("/dev/null", "w", stdout) ? 0 : 1;
}

#define MAX_ARGS	64

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const char *const names[] = {
		"run", "sweep", "validate", "calibrate", "bench", "merge",
		"trace", "keys",
	};
	char *buf, *argv[MAX_ARGS + 2];
	struct cmd_opts o;
	int argc = 1;

	if (!size)
		return 0;
	buf = malloc(size);
	if (!buf)
		return 0;
	/* the arguments: the bytes after the first, NUL-terminated */
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[0] = (char *)names[data[0] % 8];
	for (char *p = buf; p < buf + size - 1 && argc <= MAX_ARGS;
	     p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	opterr = 0;
	cmd_parse(argc, argv, cmd_spec(argv[0]), &o);
	free(buf);
	return 0;
}
