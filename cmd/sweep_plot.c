/* ppsim sweep's plot, drawn from its CSV: sweep --out's, merge --out's. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "sweep.h"
#include "../input/csv.h"
#include "../io/datadir.h"
#include "../report/outfile.h"
#include "../report/plot.h"

/* The rate against the first key, one line per case, policy and value of
 * the other keys (sweep_write_rates), each line in its policy's colour,
 * with the measured figure where the scenario was measured; figs: each
 * row's rate. */
static int write_plot(const struct sweep_opts *o,
		      const struct sweep_point *pts, int nr_points,
		      const struct rep_row *rows, const struct rep_figure *figs)
{
	char path[4096], title[512], out[4096];
	char xlabel[128], reps[16], machine[64];
	int nr_rows = pts[nr_points - 1].first_row + pts[nr_points - 1].nr_rows;
	bool measured;
	/* every series name, one a line: names cannot hold a newline */
	size_t cap = (size_t)nr_rows * (256 + 1) + 1;
	char *series = calloc(1, cap), *colours = calloc(1, (size_t)nr_rows * 8 + 1);
	struct rep_prov prov = { .command = "sweep", .file = o->file,
		.rc = &o->rc,
		.machine = cmd_machine(pts[0].scn, machine, sizeof(machine)) };
	struct sweep_result s = sweep_result_of(o, pts, nr_points, rows, figs);
	const char *more[6], *unit = scn_key_unit(o->axes[0].key);
	struct outfile f;
	int rc = -1;

	snprintf(path, sizeof(path), "%.2000s/sweep-rate.dat", o->out);
	if (!series || !colours || !outfile_open(&f, path, "", "ppsim sweep"))
		goto done;
	measured = sweep_write_rates(f.f, &s, series, cap, colours);
	if (outfile_commit(&f, "ppsim sweep"))
		goto done;
	rc = 0;
	if (!plot_available())
		goto done;
	/* marked when any point is: the plot is one figure */
	for (int p = 0; p < nr_points; p++) {
		if (pts[p].nr_guesses > prov.nr_guesses)
			prov.nr_guesses = pts[p].nr_guesses;
		prov.uncalibrated |= pts[p].uncalibrated;
		if (*pts[p].borrowed && !prov.borrowed)
			prov.borrowed = pts[p].borrowed;
	}
	rep_plot_title(rows, nr_rows, &prov, title, sizeof(title));
	snprintf(xlabel, sizeof(xlabel), "%s%s%s%s", o->axes[0].key,
		 unit && *unit ? " (" : "", unit && *unit ? unit : "",
		 unit && *unit ? ")" : "");
	snprintf(reps, sizeof(reps), "%d", o->rc.reps);
	snprintf(out, sizeof(out), "%.4000s/sweep", o->out);
	more[0] = series;
	more[1] = xlabel;
	more[2] = rep_rate_label(rows, nr_rows);
	more[3] = colours;
	more[4] = reps;
	more[5] = measured ? "measured" : "";
	rc = plot_draw("sweep.gp", path, out, title, more, 6);
done:
	free(series);
	free(colours);
	return rc;
}

/* A sweep's CSV read back for its plot: the swept keys, their values in
 * the order met (the cross product's), and each run's rate. */
struct csv_sweep {
	char keys[SWEEP_MAX_AXES][64];
	char values[SWEEP_MAX_AXES][SWEEP_MAX_VALUES * (SWEEP_VALUE_MAX + 1)];	/* V1,V2 */
	int nr_values[SWEEP_MAX_AXES], nr_axes;
	char names[2][CMD_MAX_NAMES][SCN_NAME_MAX];	/* cases, policies */
	int nr_names[2];
	char file[PATH_MAX], fixed[CSV_LINE_MAX + 2];
	unsigned long seed;
	int reps;
	char *run[SWEEP_MAX_RUNS];	/* "V1,V2,...,case,policy" */
	struct rep_figure fig[SWEEP_MAX_RUNS];
	int nr_runs;
};

/* Notes name among names (a case, a policy) if it is not there. */
static void note_name(char names[][SCN_NAME_MAX], int *nr, const char *name)
{
	for (int i = 0; i < *nr; i++)
		if (!strcmp(names[i], name))
			return;
	if (*nr < CMD_MAX_NAMES)
		snprintf(names[(*nr)++], SCN_NAME_MAX, "%s", name);
}

/* Notes a value of axis a if it is new. */
static void note_value(struct csv_sweep *cs, int a, const char *v)
{
	char *list = cs->values[a];
	size_t n = strlen(v);

	/* the machine's name: one value, commas and all (sweep_add_axis) */
	if (!strcmp(cs->keys[a], "machine.name")) {
		if (!cs->nr_values[a]++)
			snprintf(list, sizeof(cs->values[a]), "%s", v);
		cs->nr_values[a] = 1;
		return;
	}
	for (const char *p = list; *p; p += strcspn(p, ",") + !!p[strcspn(p, ",")])
		if (strcspn(p, ",") == n && !strncmp(p, v, n))
			return;
	if (cs->nr_values[a]++ < SWEEP_MAX_VALUES)
		snprintf(list + strlen(list), sizeof(cs->values[a]) -
			 strlen(list), "%s%s", *list ? "," : "", v);
}

/* Reads a sweep's CSV (checked by merge, or just written) into cs.
 * Returns 0, or -1 said on stderr. */
static int read_sweep_csv(const char *path, struct csv_sweep *cs)
{
	char line[CSV_LINE_MAX + 2], key[CSV_LINE_MAX + 2], *f[64];
	FILE *in = fopen(outfile_current(path), "r");	/* as written */
	int nr = 0, rc, k = -1;

	if (!in) {
		datadir_error(path, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	while ((rc = csv_getline(path, in, line, &nr)) > 0) {
		int n;

		if (k < 0 && line[0] == '#') {
			const char *at = strstr(line, "  sweep ");

			if (nr == 1 && at)
				snprintf(cs->file, sizeof(cs->file), "%s",
					 at + 8);
			/* not line 2: a "# machine:" title may come first */
			if (strncmp(line, "# seed ", 7))
				continue;
			sscanf(line, "# seed %lu  reps %d", &cs->seed,
			       &cs->reps);
			if ((at = strstr(line, "  set ")))
				snprintf(cs->fixed, sizeof(cs->fixed), "%s",
					 at + 6);
			continue;
		}
		n = csv_split(line, f, 64);
		if (k < 0) {	/* the header: the swept keys, then 9 */
			k = n - 9;
			for (int a = 0; a < k && a < SWEEP_MAX_AXES; a++)
				snprintf(cs->keys[a], sizeof(cs->keys[a]),
					 "%s", f[a]);
			cs->nr_axes = k;
			continue;
		}
		if (n != k + 9 || strcmp(f[k + 2], "rate"))
			continue;
		if (cs->nr_runs == SWEEP_MAX_RUNS)
			break;
		for (int a = 0; a < k && a < SWEEP_MAX_AXES; a++)
			note_value(cs, a, f[a]);
		note_name(cs->names[0], &cs->nr_names[0], f[k]);
		note_name(cs->names[1], &cs->nr_names[1], f[k + 1]);
		cs->fig[cs->nr_runs] = (struct rep_figure){ strtod(f[k + 4],
			NULL), *f[k + 5] ? strtod(f[k + 5], NULL) : NAN };
		/* the key the points' prefixes make: values (as CSV
		 * fields, quoted where they hold a comma), case, policy */
		key[0] = '\0';
		for (int i = 0; i < k + 2; i++) {
			char field[2 * SWEEP_VALUE_MAX + 3];

			rep_csv_field(field, sizeof(field), f[i]);
			snprintf(key + strlen(key), sizeof(key) - strlen(key),
				 "%s%s", i ? "," : "", i < k ? field : f[i]);
		}
		if (!(cs->run[cs->nr_runs++] = strdup(key))) {
			rc = -1;
			fprintf(stderr, "ppsim: out of memory\n");
			break;
		}
	}
	fclose(in);
	if (!rc && (k < 1 || k > SWEEP_MAX_AXES)) {
		fprintf(stderr, "%s: not a sweep's CSV: no swept key\n", path);
		rc = -1;
	}
	return rc;
}

/* What every point of the CSV's sweep had: --duration; and the policies
 * --policy chose, which the rows name, the first the baseline (their
 * words into policies, len bytes); its cases and policies, as --case and
 * --policy. */
static void take_fixed(struct sweep_opts *o, struct csv_sweep *cs,
		       char *policies, size_t len)
{
	char *save = NULL;
	bool chosen = false;

	for (char *t = strtok_r(cs->fixed, " ", &save);
	     t && o->nr_fixed < CMD_MAX_SET - 2;
	     t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (!strcmp(t, "duration"))
			o->fixed[o->nr_fixed++] = (struct scn_override){
				.key = t, .value = eq + 1,
				.file = "--duration" };
		chosen |= !strcmp(t, "policies");
	}
	for (int i = 0; i < cs->nr_names[0]; i++)
		o->cl.cases[o->cl.nr_cases++] = cs->names[0][i];
	for (int i = 0; i < cs->nr_names[1]; i++) {
		size_t n = strlen(policies);

		o->cl.policies[o->cl.nr_policies++] = cs->names[1][i];
		snprintf(policies + n, len - n, "%s%s", i ? " " : "",
			 cs->names[1][i]);
	}
	if (chosen && cs->nr_names[1]) {
		o->fixed[o->nr_fixed++] = (struct scn_override){
			.key = "policies", .value = policies,
			.file = "--policy" };
		o->fixed[o->nr_fixed++] = (struct scn_override){
			.key = "baseline", .value = cs->names[1][0],
			.file = "--policy" };
	}
}

int sweep_plot_csv(const char *csv, const char *scenario, const char *dir)
{
	struct csv_sweep *cs = calloc(1, sizeof(*cs));
	struct rep_row *rows = calloc(SWEEP_MAX_RUNS, sizeof(*rows));
	struct rep_figure *figs = calloc(SWEEP_MAX_RUNS, sizeof(*figs));
	struct sweep_opts o = { .rc = { .reps = 1 }, .out = dir };
	struct sweep_point *pts = NULL;
	int nr_points = 1, nr_rows = 0, rc = -1;
	char policies[SCN_TEXT_MAX] = "";

	if (!cs || !rows || !figs) {
		fprintf(stderr, "ppsim: out of memory\n");
		goto done;
	}
	if (read_sweep_csv(csv, cs))
		goto done;
	o.file = scenario ? scenario : cs->file;
	/* the replications: the title says them, the CI bars need two */
	o.rc.seed = cs->seed;
	o.rc.reps = cs->reps > 0 ? cs->reps : 1;
	for (int a = 0; a < cs->nr_axes; a++) {
		if (cs->nr_values[a] > SWEEP_MAX_VALUES) {
			fprintf(stderr, "%s: %s has more than %d values: not "
				"a sweep's\n", csv, cs->keys[a],
				SWEEP_MAX_VALUES);
			goto done;
		}
		if (sweep_add_axis(&o, cs->keys[a], cs->values[a], NULL, 0))
			goto done;
	}
	take_fixed(&o, cs, policies, sizeof(policies));
	for (int a = 0; a < o.nr_axes; a++)
		nr_points *= o.axes[a].nr_values;
	if (nr_points > SWEEP_MAX_POINTS ||
	    !(pts = calloc((size_t)nr_points, sizeof(*pts)))) {
		fprintf(stderr, "%s: cannot plot %d points\n", csv, nr_points);
		goto done;
	}
	if (sweep_build_points(&o, pts, nr_points, rows, &nr_rows))
		goto done;
	/* each row's rate from the CSV */
	for (int p = 0; p < nr_points; p++) {
		for (int r = pts[p].first_row;
		     r < pts[p].first_row + pts[p].nr_rows; r++) {
			char key[CSV_LINE_MAX + 2];
			int i = 0;

			snprintf(key, sizeof(key), "%s%s,%s", pts[p].prefix,
				 rows[r].c->name, rows[r].policy->name);
			while (i < cs->nr_runs && strcmp(cs->run[i], key))
				i++;
			if (i == cs->nr_runs) {
				fprintf(stderr, "%s: no rate of %s: cannot "
					"plot the sweep\n", csv, key);
				goto done;
			}
			figs[r] = cs->fig[i];
		}
	}
	rc = write_plot(&o, pts, nr_points, rows, figs);
done:
	for (int p = 0; p < nr_points && pts; p++)
		scn_free(pts[p].scn);
	for (int i = 0; cs && i < cs->nr_runs; i++)
		free(cs->run[i]);
	free(pts);
	free(rows);
	free(figs);
	free(cs);
	return rc;
}
