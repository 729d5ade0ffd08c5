/* What every output says first: where its figures come from (the
 * version, the command, the scenario, the seed, the overrides); and the
 * dry run's listing of what would run. */
#include <stdio.h>
#include <string.h>
#include "config.h"
#include "report/commit.h"
#include "../io/datadir.h"
#include "report.h"

bool rep_altered(const struct rep_prov *p)
{
	/* how long to measure and what to run on the machine measured:
	 * the measured figures still hold (a patch's before and after
	 * beside the eras that were measured) */
	static const char *const same_machine[] = {
		"duration", "precision", "policies", "baseline",
	};

	for (int i = 0; i < p->nr_set; i++) {
		bool same = false;

		for (size_t k = 0; k < sizeof(same_machine) /
				       sizeof(same_machine[0]); k++)
			same |= !strcmp(p->set[i].key, same_machine[k]);
		if (!same)
			return true;
	}
	return false;
}

/* The simulated time measured per case, as a file writes it (and the
 * precision it ends at, cmd_row); "varies" when the cases differ. */
void rep_duration_text(const struct rep_row *rows, int nr_rows, char *buf,
		       size_t len)
{
	for (int i = 1; i < nr_rows; i++)
		if (strcmp(rows[i].duration, rows[0].duration)) {
			snprintf(buf, len, "varies");
			return;
		}
	snprintf(buf, len, "%s", rows[0].duration);
}

void rep_conditions(FILE *f, const struct rep_prov *p,
		    const struct rep_row *rows, int nr_rows)
{
	char dur[32];

	rep_duration_text(rows, nr_rows, dur, sizeof(dur));
	fprintf(f, "# seed %lu  reps %d  duration %s", p->rc->seed,
		p->rc->reps, dur);
	for (int i = 0; i < p->nr_set; i++) {
		fprintf(f, "%s%s=", i ? " " : "  set ", p->set[i].key);
		datadir_put_line_text(f, p->set[i].value);
	}
	fputc('\n', f);
}

void rep_guesses_line(FILE *f, const struct rep_prov *p, bool commit)
{
	if (!p->nr_guesses && !p->uncalibrated)
		return;
	fprintf(f, "%s on %d guessed or prior figure%s%s%s\n",
		commit ? "Rests" : "# rests", p->nr_guesses,
		p->nr_guesses == 1 ? "" : "s",
		p->uncalibrated ? " and uncalibrated cycles" : "",
		commit ? "." : " (run --out: index.html lists them)");
}

const char *rep_machine_name(const struct rep_row *rows, int nr_rows)
{
	return nr_rows > 0 && rows[0].c->machine[0] ? rows[0].c->machine
						    : NULL;
}

void rep_title_line(FILE *f, const char *prefix, const struct rep_row *rows,
		    int nr_rows)
{
	const char *name = rep_machine_name(rows, nr_rows);

	/* input/ let only printable ASCII through: no line break or
	 * escape sequence reaches a terminal or a CSV's comment */
	if (name)
		fprintf(f, "%smachine: %s\n", prefix, name);
}

void rep_borrowed_line(FILE *f, const struct rep_prov *p, bool commit)
{
	char text[256];

	if (!p->borrowed)
		return;
	snprintf(text, sizeof(text), "%s for %s%s", commit ?
		 "Costs borrowed" : "# costs borrowed", p->borrowed,
		 commit ? "." : "");
	if (commit)	/* a commit message's 72 columns */
		datadir_put_wrapped(f, text, 0, 0, 72);
	else
		fprintf(f, "%s\n", text);
}

void rep_preamble(FILE *f, const struct rep_prov *p,
		  const struct rep_row *rows, int nr_rows)
{
	fprintf(f, "# ppsim %s (git %s)  %s ", PACKAGE_VERSION, PPSIM_COMMIT,
		p->command);
	datadir_put_line_text(f, p->file);
	fputc('\n', f);
	rep_title_line(f, "# ", rows, nr_rows);
	rep_conditions(f, p, rows, nr_rows);
	rep_guesses_line(f, p, false);
	rep_borrowed_line(f, p, false);
	if (rep_altered(p))
		fprintf(f, "# err%%: not computed: the overrides changed the "
			"scenario the measurements were taken on\n");
}

void rep_files_head(FILE *f, const struct rep_prov *p, int nr_files,
		    const struct rep_row *rows, int nr_rows)
{
	fprintf(f, "# ppsim %s (git %s) %s  %d file%s\n", PACKAGE_VERSION,
		PPSIM_COMMIT, p->command, nr_files, nr_files > 1 ? "s" : "");
	rep_conditions(f, p, rows, nr_rows);
}

void rep_dry_rows(FILE *f, const char *file, const struct rep_row *rows,
		  int nr)
{
	int w = 10;	/* the case names' column: narrower than a table's */

	for (int i = 0; i < nr; i++)
		if ((int)strlen(rows[i].c->name) > w)
			w = (int)strlen(rows[i].c->name);
	fprintf(f, "%s\n", file);
	for (int i = 0; i < nr; i++) {
		if (i && rows[i - 1].c == rows[i].c) {
			fprintf(f, " %s", rows[i].policy->name);
			continue;
		}
		fprintf(f, "%s  %-*s %s", i ? "\n" : "", w, rows[i].c->name,
			rows[i].policy->name);
	}
	fputc('\n', f);
}

void rep_dry_plan(FILE *f, const char *what, int nr_files,
		  const struct rep_row *rows, int nr_rows, int reps)
{
	int nr_cases = 0;

	for (int i = 0; i < nr_rows; i++)
		nr_cases += !i || rows[i - 1].c != rows[i].c;
	fprintf(f, "dry run: %s: %d file%s, %d case%s, %d (case, "
		"policy) pair%s x %d replication%s = %d simulations; nothing "
		"run\n", what, nr_files, nr_files == 1 ? "" : "s", nr_cases,
		nr_cases == 1 ? "" : "s", nr_rows, nr_rows == 1 ? "" : "s",
		reps, reps == 1 ? "" : "s", nr_rows * reps);
}
