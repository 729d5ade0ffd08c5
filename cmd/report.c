/*
 * ppsim report RESULTS.csv [SCENARIO...]: a run's results, as ppsim run
 * --format csv (or --out's results.csv) wrote them, in another format,
 * nothing simulated.  The figures are the CSV's (six significant digits:
 * a change or an error is computed again from them); the scenarios are
 * read again for what the outputs say of a case (labels, unit, baseline,
 * the guesses it rests on): those the CSV's provenance names, or the
 * SCENARIO operands, one for each file of the run, in its order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "../io/datadir.h"

/* File k's scenario read again at path (NULL: the one the run named)
 * and its rows, after those of the files before.  Returns 0 or -1
 * (said). */
static int load_file(const struct run_results *r, int k, const char *path,
		     struct run_file *rf, struct rep_row *rows, int *nr_rows)
{
	int n;

	rf->path = r->files[k].path;
	if (!(rf->scn = results_scenario(r, k, path)))
		return -1;
	n = results_rows(r, k, rf->scn, path ? path : rf->path,
			 rows + *nr_rows);
	if (n < 0)
		return -1;
	rf->first = *nr_rows;
	rf->nr = n;
	*nr_rows += n;
	return 0;
}

int report_main(int argc, char **argv)
{
	struct run_results r = { 0 };
	struct run_file rf[RESULTS_MAX_FILES] = { { 0 } };
	struct rep_row *rows = NULL;
	struct rep_labels *labels = NULL;
	struct cmd_opts o;
	int nr_rows = 0, status = 2, help;

	if ((help = cmd_parse(argc, argv, cmd_spec("report"), &o)))
		return help > 0 ? 0 : 2;
	if (results_read(&r, o.args[0]))
		goto done;
	if (o.nr_args > 1 && o.nr_args - 1 != r.nr_files) {
		fprintf(stderr, "ppsim report: %s holds the results of %d "
			"file%s: give %d scenario%s, or none\n", r.path,
			r.nr_files, r.nr_files == 1 ? "" : "s", r.nr_files,
			r.nr_files == 1 ? "" : "s");
		goto done;
	}
	if (!(rows = calloc((size_t)r.nr_rows, sizeof(*rows)))) {
		fprintf(stderr, "ppsim report: out of memory\n");
		goto done;
	}
	o.rc = (struct rep_opts){ .reps = r.files[0].reps,
				  .seed = r.files[0].seed };
	for (int k = 0; k < r.nr_files; k++) {
		if (r.files[k].reps != o.rc.reps ||
		    r.files[k].seed != o.rc.seed) {
			fprintf(stderr, "%s: files of different seeds or "
				"replications: not one run\n", r.path);
			goto done;
		}
		if (load_file(&r, k, o.nr_args > 1 ? o.args[k + 1] : NULL,
			      &rf[k], rows, &nr_rows))
			goto done;
		rf[k].prov = results_prov(&r, k, &o.rc,
			cmd_machine(rf[k].scn, rf[k].machine,
				    sizeof(rf[k].machine)));
		/* a CSV of no marking (results_rows took it: an older
		 * ppsim's) takes the scenario's, as it takes its machine */
		if (!rf[k].prov.borrowed)
			rf[k].prov.borrowed = scn_costs_borrowed(rf[k].scn,
				rf[k].borrowed, sizeof(rf[k].borrowed));
	}
	if (o.format == CMD_COMMIT && !run_has_pair(rf, r.nr_files, rows)) {
		fprintf(stderr, "ppsim report: --format commit: no case has "
			"its baseline policy and another\n");
		goto done;
	}
	if (o.format == CMD_COMMIT && !(labels = run_labels(rows, nr_rows))) {
		fprintf(stderr, "ppsim report: out of memory\n");
		goto done;
	}
	run_print(&o, rf, r.nr_files, rows);
	status = 0;
done:
	for (int k = 0; k < r.nr_files; k++)
		scn_free(rf[k].scn);
	results_free(&r);
	free(rows);
	free(labels);
	return status;
}
