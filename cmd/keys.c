/* ppsim keys: every scenario key, or the man page's KEYS section. */
#include <stdio.h>
#include <string.h>
#include "cmd.h"

int keys_main(int argc, char **argv)
{
	bool man = argc == 2 && !strcmp(argv[1], "--man");

	if (argc > 1 && !man) {
		fprintf(stderr, "Usage: ppsim keys [--man]\n");
		return 2;
	}
	scn_print_keys(stdout, man);
	return 0;
}
