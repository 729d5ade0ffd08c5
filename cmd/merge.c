/* ppsim merge: joins the CSV files of sweeps run separately (--emit-jobs):
 * one header, every file's rows. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

int merge_main(int argc, char **argv)
{
	char *line = NULL, *header = NULL;
	size_t cap = 0;
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "Usage: ppsim merge FILE.csv...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		ssize_t len;
		int n = 0;

		if (!f) {
			fprintf(stderr, "%s: cannot open: %s\n", argv[i],
				strerror(errno));
			status = 2;
			continue;
		}
		while ((len = getline(&line, &cap, f)) >= 0) {
			if (++n > 1) {
				fputs(line, stdout);
				continue;
			}
			if (!header) {
				header = strdup(line);
				fputs(line, stdout);
			} else if (strcmp(header, line)) {
				fprintf(stderr, "%s:1: its columns differ from "
					"%s's: not the same sweep\n", argv[i],
					argv[1]);
				status = 2;
				break;
			}
		}
		if (n == 0) {
			fprintf(stderr, "%s:1: empty: not a ppsim CSV\n",
				argv[i]);
			status = 2;
		}
		fclose(f);
	}
	free(line);
	free(header);
	return status;
}
