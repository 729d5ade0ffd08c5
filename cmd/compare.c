/*
 * ppsim compare A.csv B.csv: two runs' rates side by side (perf diff's
 * idea), matched on the swept values, case and policy; the change from A
 * to B and whether it is larger than both runs' 95 % confidence
 * intervals together (the intervals do not overlap).  Reads the CSV of
 * ppsim run --format csv, results.csv of --out, or a sweep's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "../report/outfile.h"
#include "../report/compare.h"
#include "../input/csv.h"
#include "../io/datadir.h"

#define CMP_MAX_FIELDS	64
#define CMP_USAGE	"Usage: ppsim compare A.csv [B.csv] [--pair POLICY=POLICY] " \
			"[--format table|csv|json]"

struct cmp_file {
	const char *path;
	const char *policy;	/* --pair: the rows of this policy alone, */
	const char *as;		/* matched as this one's; NULL: every row */
	char header[CSV_LINE_MAX + 2];
	char machine[SCN_MACHINE_MAX + 1];	/* its "# machine:" line's */
	char borrowed[256];	/* its "# costs borrowed for" line's, or "" */
	struct cmp_row *rows;
	int nr, room;
	struct cmp_row **sorted;	/* rows by key: matched by bsearch */
	int nr_rates;		/* rate rows, of any policy */
	char policies[256];	/* theirs, each once: what --pair may name */
};

/* Notes policy among the file's, once. */
static void seen_policy(struct cmp_file *cf, const char *policy)
{
	size_t n = strlen(cf->policies), len = strlen(policy);

	for (const char *p = cf->policies; (p = strstr(p, policy)); p += len)
		if ((p == cf->policies || p[-1] == ' ') &&
		    (p[len] == ' ' || !p[len]))
			return;
	if (n + 1 + len < sizeof(cf->policies))
		snprintf(cf->policies + n, sizeof(cf->policies) - n, "%s%s",
			 n ? " " : "", policy);
}

/* Whether s is printable ASCII. */
static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s > '~')
			return false;
	return true;
}

/* One data line: its rate row, if it is one.  Returns 0 or -1 (said). */
static int take_row(struct cmp_file *cf, char *line, int nr, int nf)
{
	char *f[CMP_MAX_FIELDS];
	int n = csv_split(line, f, CMP_MAX_FIELDS), k = nf - 9;
	struct cmp_row *r, *grown;
	size_t used = 0;

	if (n != nf) {
		datadir_error(cf->path, nr, "%d fields where the header has "
			      "%d", n, nf);
		return -1;
	}
	if (strcmp(f[k + 2], "rate"))
		return 0;	/* the other metrics: not compared */
	cf->nr_rates++;
	seen_policy(cf, f[k + 1]);
	if (cf->policy && strcmp(f[k + 1], cf->policy))
		return 0;	/* not the policy --pair compares */
	if (cf->as)
		f[k + 1] = (char *)cf->as;
	if (cf->nr == cf->room) {
		int room = cf->room ? 2 * cf->room : 64;

		grown = realloc(cf->rows, (size_t)room * sizeof(*cf->rows));
		if (!grown) {
			fprintf(stderr, "ppsim compare: out of memory\n");
			return -1;
		}
		cf->rows = grown;
		cf->room = room;
	}
	r = &cf->rows[cf->nr];
	*r = (struct cmp_row){ .line = nr };
	for (int i = 0; i < k + 2; i++)	/* the swept values, case, policy */
		used += strlen(f[i]) + 1;
	r->key = malloc(used);
	r->fields = malloc(used);
	cf->nr++;	/* its key and fields freed with the rest */
	if (!r->key || !r->fields) {
		fprintf(stderr, "ppsim compare: out of memory\n");
		return -1;
	}
	used = 0;
	for (int i = 0, at = 0; i < k + 2; i++) {
		memcpy(r->fields + at, f[i], strlen(f[i]) + 1);
		at += (int)strlen(f[i]) + 1;
		used += (size_t)sprintf(r->key + used, "%s%s", i ? " " : "",
					f[i]);
	}
	if (strlen(f[k + 3]) >= sizeof(r->unit)) {
		datadir_error(cf->path, nr, "unit '%s' is not one ppsim "
			      "writes", f[k + 3]);
		return -1;
	}
	snprintf(r->unit, sizeof(r->unit), "%s", f[k + 3]);
	if (csv_number(cf->path, nr, "value", f[k + 4], CSV_NUM, &r->value) ||
	    csv_number(cf->path, nr, "ci95", f[k + 5], CSV_NUM_OR_EMPTY,
		       &r->ci95))
		return -1;
	return 0;
}

static int by_key_only(const void *a, const void *b)
{
	return strcmp((*(const struct cmp_row *const *)a)->key,
		      (*(const struct cmp_row *const *)b)->key);
}

static int by_key(const void *a, const void *b)
{
	int c = by_key_only(a, b);

	return c ? c : (*(const struct cmp_row *const *)a)->line -
		       (*(const struct cmp_row *const *)b)->line;
}

/* The rows sorted by key, so that a match is a bsearch (files of a large
 * sweep have tens of thousands); a key twice is an error at its second
 * line.  Returns 0 or -1 (said). */
static int sort_rows(struct cmp_file *cf)
{
	cf->sorted = malloc((size_t)cf->nr * sizeof(*cf->sorted));
	if (!cf->sorted) {
		fprintf(stderr, "ppsim compare: out of memory\n");
		return -1;
	}
	for (int i = 0; i < cf->nr; i++)
		cf->sorted[i] = &cf->rows[i];
	qsort(cf->sorted, (size_t)cf->nr, sizeof(*cf->sorted), by_key);
	for (int i = 1; i < cf->nr; i++)
		if (!strcmp(cf->sorted[i]->key, cf->sorted[i - 1]->key)) {
			datadir_error(cf->path, cf->sorted[i]->line, "the rate "
				      "of %s again (first at line %d)",
				      cf->sorted[i]->key,
				      cf->sorted[i - 1]->line);
			return -1;
		}
	return 0;
}

static struct cmp_row *find_row(const struct cmp_file *cf, const char *key)
{
	struct cmp_row probe = { .key = (char *)key, .line = 0 }, *p = &probe;
	struct cmp_row **hit = bsearch(&p, cf->sorted, (size_t)cf->nr,
				       sizeof(*cf->sorted), by_key_only);

	return hit ? *hit : NULL;
}

/* Reads a ppsim CSV's rates.  Returns 0, or -1 with FILE:LINE: why. */
static int read_file(struct cmp_file *cf)
{
	char line[CSV_LINE_MAX + 2], copy[CSV_LINE_MAX + 2];
	FILE *f = datadir_open_regular(cf->path);
	int nr = 0, nf = 0, rc = 0, machine_line = 0;

	if (!f) {
		datadir_error(cf->path, 0, "cannot open: %s",
			      datadir_strerror(errno));
		return -1;
	}
	while (!rc && (rc = csv_getline(cf->path, f, line, &nr)) > 0) {
		rc = 0;
		if (!nf && line[0] == '#') {
			/* the labels say the machine: a name ppsim could
			 * have written, once, as ppsim report takes it */
			if (csv_machine_line(cf->path, nr, line, cf->machine,
					     sizeof(cf->machine),
					     &machine_line) < 0)
				rc = -1;
			/* what its figures rest on, said again: as ppsim
			 * writes it, printable ASCII (no escape sequence
			 * reaches a terminal) */
			if (!strncmp(line, "# costs borrowed for ", 21) &&
			    printable(line + 21))
				snprintf(cf->borrowed, sizeof(cf->borrowed),
					 "%.255s", line + 21);
			continue;	/* provenance */
		} else if (!nf) {
			nf = csv_split(line, NULL, 0);
			if (!csv_is_ppsim_header(line) ||
			    nf > CMP_MAX_FIELDS) {
				datadir_error(cf->path, nr, "not the header of "
					      "a ppsim CSV (..., %s)",
					      csv_ppsim_tail);
				rc = -1;
			}
			memcpy(cf->header, line, strlen(line) + 1);
		} else {
			memcpy(copy, line, strlen(line) + 1);
			rc = take_row(cf, copy, nr, nf);
		}
	}
	if (!rc && ferror(f)) {
		datadir_error(cf->path, nr + 1, "read error: %s",
			      strerror(errno));
		rc = -1;
	}
	if (!rc && !cf->nr && cf->nr_rates) {
		fprintf(stderr, "ppsim compare: --pair: ");
		datadir_put_line_text(stderr, cf->path);
		fprintf(stderr, " has no rate of policy %s (it has %s)\n",
			cf->policy, cf->policies);
		rc = -1;
	} else if (!rc && !cf->nr) {
		datadir_error(cf->path, nr + 1, "no rate: not a ppsim CSV");
		rc = -1;
	}
	fclose(f);
	return rc;
}

/* compare's words: one or two files and --pair A=B (A's policy in the
 * first file against B's in the second, or in the one file).  Returns 0,
 * or 2 said. */
static int parse_args(int argc, char **argv, struct cmp_file *cf,
		      char *pair, size_t len, enum cmd_format *format)
{
	int nr_files = 0;
	bool formatted = false;

	*pair = '\0';
	*format = CMD_TABLE;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--pair") && i + 1 < argc && !*pair) {
			snprintf(pair, len, "%s", argv[++i]);
			continue;
		}
		if (!strcmp(argv[i], "--format") && i + 1 < argc &&
		    !formatted) {
			static const char *const names[] = {
				[CMD_TABLE] = "table", [CMD_CSV] = "csv",
				[CMD_JSON] = "json" };

			formatted = true;
			i++;
			while (*format <= CMD_JSON &&
			       strcmp(argv[i], names[*format]))
				(*format)++;
			if (*format > CMD_JSON) {
				fprintf(stderr, "ppsim compare: --format %s: "
					"expected table, csv or json\n",
					argv[i]);
				return 2;
			}
			continue;
		}
		if (argv[i][0] == '-' || nr_files == 2) {
			fprintf(stderr, CMP_USAGE "\n");
			return 2;
		}
		cf[nr_files++].path = argv[i];
	}
	if (!nr_files || (nr_files == 1 && !*pair)) {
		fprintf(stderr, CMP_USAGE ": one file needs --pair\n");
		return 2;
	}
	if (*pair) {
		char *eq = strchr(pair, '=');

		if (!eq || eq == pair || !eq[1] || strchr(eq + 1, '=')) {
			fprintf(stderr, "ppsim compare: --pair %s: not "
				"POLICY=POLICY (--pair before=after)\n",
				pair);
			return 2;
		}
		/* one file's policy against itself: every change 0 (the
		 * same file named twice, under any name, is one) */
		if ((nr_files == 1 ||
		     outfile_same_file(cf[0].path, cf[1].path)) &&
		    strlen(eq + 1) == (size_t)(eq - pair) &&
		    !strncmp(pair, eq + 1, (size_t)(eq - pair))) {
			fprintf(stderr, "ppsim compare: --pair %s: a policy "
				"against itself in one file: nothing to "
				"compare\n", pair);
			return 2;
		}
		*eq = '\0';
		cf[0].policy = pair;
		cf[1].policy = eq + 1;
		cf[1].as = pair;
	}
	if (nr_files == 1)
		cf[1].path = cf[0].path;
	return 0;
}

int compare_main(int argc, char **argv)
{
	struct cmp_file cf[2] = { { .path = NULL }, { .path = NULL } };
	struct cmp_pair *pairs = NULL;
	int status = 0, nr = 0;
	char pair[256], label[2][4200], names_line[CSV_LINE_MAX + 2];
	char *names[CMP_MAX_FIELDS];
	enum cmd_format format;
	struct cmp_head head;

	if (argc == 2 && (!strcmp(argv[1], "--help") ||
			  !strcmp(argv[1], "-h"))) {
		printf(CMP_USAGE "\n\n"
"Two runs' rates side by side (ppsim run --format csv, results.csv\n"
"of --out, or a sweep's CSV), matched on the swept values, case and\n"
"policy: the change from A to B in %%, and whether it is beyond both\n"
"runs' 95 %% confidence intervals (they do not overlap; '-' without\n"
"replications).\n"
"  --pair before=after  A's rows of policy before against B's of\n"
"                       policy after (in one file: that file's two\n"
"                       policies)\n"
"  --format csv         a line a rate: the key's fields, unit, a,\n"
"                       a_ci95, b, b_ci95, delta_pct, beyond_cis\n"
"  --format json        one object, a row each\n");
		return 0;
	}
	if (parse_args(argc, argv, cf, pair, sizeof(pair), &format))
		return 2;
	for (int i = 0; i < 2; i++)
		if (read_file(&cf[i]) || sort_rows(&cf[i]))
			status = 2;
	if (!status && strcmp(cf[0].header, cf[1].header)) {
		fprintf(stderr, "%s: its columns differ from %s's: not runs "
			"of the same sweep keys\n", cf[1].path, cf[0].path);
		status = 2;
	}
	for (int r = 0; !status && r < cf[0].nr; r++) {
		const struct cmp_row *a = &cf[0].rows[r];
		const struct cmp_row *b = find_row(&cf[1], a->key);

		if (b && strcmp(a->unit, b->unit)) {
			datadir_error(cf[1].path, b->line, "the rate of %s in "
				      "%s, %s has it in %s", b->key, b->unit,
				      cf[0].path, a->unit);
			status = 2;
		}
	}
	if (status)
		goto done;
	pairs = calloc((size_t)(cf[0].nr + cf[1].nr), sizeof(*pairs));
	if (!pairs) {
		fprintf(stderr, "ppsim compare: out of memory\n");
		status = 1;
		goto done;
	}
	for (int r = 0; r < cf[0].nr; r++) {
		struct cmp_row *a = &cf[0].rows[r], *b = NULL;

		b = find_row(&cf[1], a->key);
		if (b)
			b->matched = true;
		pairs[nr++] = (struct cmp_pair){ a, b };
	}
	for (int s = 0; s < cf[1].nr; s++)
		if (!cf[1].rows[s].matched)
			pairs[nr++] = (struct cmp_pair){ NULL, &cf[1].rows[s] };
	for (int i = 0; i < 2; i++)
		snprintf(label[i], sizeof(label[i]), "%s%s%s",
			 cf[i].path, cf[i].policy ? ", policy " : "",
			 cf[i].policy ? cf[i].policy : "");
	/* the names of a key's fields: the header's but the last 7 */
	memcpy(names_line, cf[0].header, sizeof(names_line));
	head = (struct cmp_head){ label[0], label[1],
		cf[0].machine[0] ? cf[0].machine : NULL,
		cf[1].machine[0] ? cf[1].machine : NULL,
		cf[0].borrowed[0] ? cf[0].borrowed : NULL,
		cf[1].borrowed[0] ? cf[1].borrowed : NULL, (const char **)names,
		csv_split(names_line, names, CMP_MAX_FIELDS) - 7 };
	if (format == CMD_CSV)
		cmp_write_csv(stdout, &head, pairs, nr);
	else if (format == CMD_JSON)
		cmp_write_json(stdout, &head, pairs, nr);
	else
		cmp_write_table(stdout, &head, pairs, nr);
done:
	for (int i = 0; i < 2; i++) {
		for (int r = 0; r < cf[i].nr; r++) {
			free(cf[i].rows[r].key);
			free(cf[i].rows[r].fields);
		}
		free(cf[i].rows);
		free(cf[i].sorted);
	}
	free(pairs);
	return status;
}
