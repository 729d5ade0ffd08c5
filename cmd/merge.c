/* ppsim merge: joins the CSV files of sweeps run separately (--emit-jobs):
 * one header, every file's rows.  Every file is read twice: first checked
 * whole (a ppsim sweep's header, the same in every file, every row whole
 * and with the header's number of fields), then copied; so a bad file
 * leaves nothing on stdout, and memory stays one line however big the
 * input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd.h"
#include "../input/csv.h"
#include "../input/datadir.h"

/*
 * Reads one file: checks it (header against *header, which the first file
 * sets; every row), and copies its rows (its '#' provenance lines and
 * header too if copy_header: the jobs of a sweep share them) to out when
 * out is not NULL.  Returns 0, or -1 with FILE:LINE: why.
 */
static int merge_file(const char *path, char *header, FILE *out,
		      bool copy_header)
{
	char line[CSV_LINE_MAX + 2];
	FILE *f = datadir_open_regular(path);
	int nr = 0, fields = 0, rc = 0;
	bool head = false;	/* the header was read */

	if (!f) {
		fprintf(stderr, "%s: cannot open: %s\n", path,
			datadir_strerror(errno));
		return -1;
	}
	while (!rc && (rc = csv_getline(path, f, line, &nr)) > 0) {
		rc = 0;
		if (!head && line[0] == '#') {
			if (copy_header && out)	/* the preamble */
				fprintf(out, "%s\n", line);
		} else if (!head && !csv_is_ppsim_header(line)) {
			datadir_error(path, nr, "not the header of a ppsim "
				      "sweep CSV (..., %s)", csv_ppsim_tail);
			rc = -1;
		} else if (!head && *header && strcmp(header, line)) {
			datadir_error(path, nr, "its columns differ from the "
				      "first file's: not the same sweep");
			rc = -1;
		} else if (!head) {
			head = true;
			memcpy(header, line, strlen(line) + 1);	/* it fits */
			fields = csv_split(line, NULL, 0);
			if (copy_header && out)
				fprintf(out, "%s\n", line);
		} else if (csv_split(line, NULL, 0) != fields) {
			datadir_error(path, nr, "%d fields where the header "
				      "has %d", csv_split(line, NULL, 0), fields);
			rc = -1;
		} else if (out) {
			fprintf(out, "%s\n", line);
		}
	}
	if (!rc && ferror(f)) {
		datadir_error(path, nr + 1, "read error: %s", strerror(errno));
		rc = -1;
	}
	if (!rc && !head) {
		datadir_error(path, nr + 1, "empty: not a ppsim CSV");
		rc = -1;
	}
	fclose(f);
	return rc;
}

int merge_main(int argc, char **argv)
{
	char header[CSV_LINE_MAX + 2] = "";
	struct stat *seen;
	struct cmd_opts o;
	int status = 0, help;

	if ((help = cmd_parse(argc, argv, cmd_spec("merge"), &o)))
		return help > 0 ? 0 : 2;
	/* the files, and only they, from here on */
	argc = o.nr_args + 1;
	argv = o.args - 1;
	seen = calloc((size_t)argc, sizeof(*seen));
	if (!seen) {
		fprintf(stderr, "ppsim merge: out of memory\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (stat(argv[i], &seen[i]))
			continue;	/* merge_file says why */
		for (int j = 1; j < i; j++)
			if (seen[j].st_mode && seen[j].st_ino == seen[i].st_ino &&
			    seen[j].st_dev == seen[i].st_dev) {
				fprintf(stderr, "%s: the same file as %s: its "
					"rows would be counted twice\n",
					argv[i], argv[j]);
				status = 2;
			}
	}
	free(seen);
	for (int i = 1; i < argc; i++)
		if (merge_file(argv[i], header, NULL, false))
			status = 2;
	for (int i = 1; i < argc && !status; i++)
		if (merge_file(argv[i], header, stdout, i == 1))
			status = 2;
	return status;
}
