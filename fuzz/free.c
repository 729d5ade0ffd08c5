/*
 * libFuzzer harness: [calibrate] free, as ppsim calibrate and validate
 * --sensitivity read it (fit_init: keys, bounds in the key's units, the
 * calibration cases' figures).  The input is the value of free; the
 * scenario around it is the shipped seed's machine with one measured case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/fit.h"
#include "model/page_pool/kernel_era.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* the program's policies (cmd/main.c's, which the harness replaces):
 * cli.c's checks of --policy reach them */
const struct pp_policy *const cmd_policies[] = {
	&kernel_era_v5_4.pp, &kernel_era_v5_5.pp, &kernel_era_v6_1.pp,
	&kernel_era_v6_12.pp, NULL,
};

static struct scenario *scn;
static struct fit fit;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_TMPDIR");
	char path[4096];
	FILE *f;

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/fuzz-free-%d.ini", dir ? dir : "/tmp",
		 (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "[global]\ninclude = hw/e5-2603v4-2s.ini\n"
		"[calibrate]\ncases = a\n[case a]\nmeasured = v5.4:10\n");
	fclose(f);
	scn = scn_load(path, NULL, 0, pp_eras);
	unlink(path);
	return scn ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const struct rep_opts rc = { .reps = 1, .jobs = 1, .seed = 1 };
	size_t n = size < SCN_TEXT_MAX - 1 ? size : SCN_TEXT_MAX - 1;

	memcpy(scn->calibrate.free, data, n);
	scn->calibrate.free[n] = '\0';
	scn->calibrate.free_file = "fuzz";
	scn->calibrate.free_line = 1;
	fit_init(&fit, scn, "fuzz", &rc);
	return 0;
}
