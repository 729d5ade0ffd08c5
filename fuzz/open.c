/*
 * libFuzzer harness: opening files by name, as every command does: the
 * input is a name, given to scenario loading both as the file to read
 * and as an include of a scenario, and to trace and merge's opens.  The
 * directory holds what hung or blew up ppsim before: a FIFO, a directory,
 * a link to /dev/zero, an empty file, a sparse file of 65 MiB, and a
 * scenario of the data directory's hw/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/datadir.h"
#include "input/scenario.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char dir[4096], outer[4200];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("FUZZ_TMPDIR");
	char p[4300];
	FILE *f;

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/fuzz-open-%d", tmp ? tmp : "/tmp",
		 (int)getpid());
	mkdir(dir, 0777);
	snprintf(p, sizeof(p), "%s/fifo", dir);
	mkfifo(p, 0666);
	snprintf(p, sizeof(p), "%s/dir", dir);
	mkdir(p, 0777);
	snprintf(p, sizeof(p), "%s/zero", dir);
	symlink("/dev/zero", p);
	snprintf(p, sizeof(p), "%s/empty", dir);
	fclose(fopen(p, "w"));
	snprintf(p, sizeof(p), "%s/huge", dir);
	truncate(p, 65L << 20);
	snprintf(outer, sizeof(outer), "%s/outer.ini", dir);
	f = fopen(outer, "w");
	return f && !fclose(f) ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char name[256], found[4096];
	struct scenario *scn;
	FILE *f;

	if (size >= sizeof(name) || memchr(data, '\0', size) ||
	    memchr(data, '\n', size))
		return 0;
	memcpy(name, data, size);
	name[size] = '\0';
	/* never toward devices or the kernel's files, whatever ppsim does
	 * with them: the fuzzer runs as whoever starts it */
	if (strstr(name, "dev/") || strstr(name, "proc/") ||
	    strstr(name, "sys/"))
		return 0;
	if (chdir(dir))
		return 0;
	scn = scn_load(name, NULL, 0, pp_eras);
	scn_free(scn);
	f = fopen(outer, "w");
	if (f) {
		fprintf(f, "[global]\ninclude = %s\n[case a]\n", name);
		fclose(f);
		scn_free(scn_load(outer, NULL, 0, pp_eras));
	}
	f = datadir_fopen(name, found, sizeof(found));
	if (f)
		fclose(f);
	f = datadir_open_regular(name);
	if (f)
		fclose(f);
	return 0;
}
