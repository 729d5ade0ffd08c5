/*
 * index.html: a run's outputs in one page that needs nothing else (no
 * network, no other file): the provenance, the before/after table as a
 * table, the whole table and the explanation as ppsim printed them, the
 * figures that rest on guesses, and every plot, its SVG inlined as a
 * data: URI.  Written last, from the files --out holds by then, so that
 * the page shows what the files say and nothing else.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "html.h"
#include "outfile.h"

#define HTML_FILE_MAX	(16 << 20)	/* a plot or a table read whole */

/* The whole of dir/name as this run wrote it (outfile_current),
 * NUL-terminated, or NULL (missing, too big). */
static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	char *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%.4000s/%s", dir, name);
	f = fopen(outfile_current(path), "r");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > HTML_FILE_MAX ||
	    fseek(f, 0, SEEK_SET) || !(buf = malloc((size_t)n + 1))) {
		fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* Text as HTML: &, < and > escaped (quotes too: it may go in an
 * attribute). */
static void put_escaped(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(s[i], f);
		}
	}
}

static void put_base64(FILE *f, const unsigned char *s, size_t n)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)s[i] << 16 |
			     (i + 1 < n ? (unsigned)s[i + 1] << 8 : 0) |
			     (i + 2 < n ? s[i + 2] : 0);

		fputc(abc[v >> 18 & 63], f);
		fputc(abc[v >> 12 & 63], f);
		fputc(i + 1 < n ? abc[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? abc[v & 63] : '=', f);
	}
}

/* A file of dir in a <pre> (head: only the '#' lines that open it, the
 * provenance of results.csv), or a line saying it is not there. */
static void put_pre(FILE *f, const char *dir, const char *name,
		    const char *id, bool head)
{
	size_t len, end = 0;
	char *text = slurp(dir, name, &len);

	if (!text) {
		fprintf(f, "<p>(no %s)</p>\n", name);
		return;
	}
	while (head && end < len && text[end] == '#') {
		char *nl = memchr(text + end, '\n', len - end);

		end = nl ? (size_t)(nl - text) + 1 : len;
	}
	fprintf(f, "<pre id=\"%s\">", id);
	put_escaped(f, text, head ? end : len);
	fputs("</pre>\n", f);
	free(text);
}

/* commit.txt as tables: a line with " | " a row (the first of a block
 * its header), a line of dashes skipped, any other line a paragraph. */
static void put_commit_tables(FILE *f, const char *dir)
{
	size_t len;
	char *text = slurp(dir, "commit.txt", &len);
	bool in_table = false, head = false;

	if (!text) {
		fputs("<p>(no commit.txt)</p>\n", f);
		return;
	}
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[strspn(line, "-")] == '\0')
			continue;
		if (!strstr(line, " | ")) {
			if (in_table)
				fputs("</table>\n", f);
			in_table = false;
			fputs("<p>", f);
			put_escaped(f, line, strlen(line));
			fputs("</p>\n", f);
			continue;
		}
		if (!in_table)
			fputs("<table class=\"commit\">\n", f);
		head = !in_table;
		in_table = true;
		fputs("<tr>", f);
		for (char *cell = line; cell; ) {
			char *bar = strchr(cell, '|');
			size_t n = bar ? (size_t)(bar - cell) : strlen(cell);

			while (n && cell[0] == ' ')
				cell++, n--;
			while (n && cell[n - 1] == ' ')
				n--;
			fputs(head ? "<th>" : "<td>", f);
			put_escaped(f, cell, n);
			fputs(head ? "</th>" : "</td>", f);
			cell = bar ? bar + 1 : NULL;
		}
		fputs("</tr>\n", f);
	}
	if (in_table)
		fputs("</table>\n", f);
	free(text);
}

/* Plots first by what they answer: the rates, the split, then the
 * transients by name. */
static int plot_rank(const char *name)
{
	return !strncmp(name, "rates", 5) ? 0 : !strncmp(name, "split", 5) ?
	       1 : 2;
}

static int plot_order(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return plot_rank(x) != plot_rank(y) ? plot_rank(x) - plot_rank(y) :
	       strcmp(x, y);
}

/* The plots this run drew in dir, not those an earlier run left there. */
static void put_plots(FILE *f, const char *dir)
{
	const char *names[256];
	int nr = outfile_grouped(dir, ".svg", names, 256);

	qsort(names, (size_t)nr, sizeof(*names), plot_order);
	if (!nr)
		fputs("<p>(no plots: gnuplot was not found)</p>\n", f);
	for (int i = 0; i < nr; i++) {
		size_t len;
		char *svg = slurp(dir, names[i], &len);

		if (svg) {
			fputs("<figure><img alt=\"", f);
			put_escaped(f, names[i], strlen(names[i]));
			fputs("\" src=\"data:image/svg+xml;base64,", f);
			put_base64(f, (const unsigned char *)svg, len);
			fputs("\"><figcaption>", f);
			put_escaped(f, names[i], strlen(names[i]));
			fputs("</figcaption></figure>\n", f);
		}
		free(svg);
	}
}

/* The page's title: the scenario, and the machine's name where it has
 * one. */
static void put_title(FILE *f, const char *scenario, const char *machine)
{
	put_escaped(f, scenario, strlen(scenario));
	if (machine) {
		fputs(" on ", f);
		put_escaped(f, machine, strlen(machine));
	}
}

int rep_write_html(const char *dir, const char *scenario,
		   const char *machine, const char *guesses, int nr_guesses,
		   bool uncalibrated, const char *borrowed)
{
	char path[4096];
	struct outfile o;
	FILE *f;

	snprintf(path, sizeof(path), "%.4000s/index.html", dir);
	f = outfile_open(&o, path, "", "ppsim run");
	if (!f)
		return -1;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>ppsim: ", f);
	put_title(f, scenario, machine);
	fputs("</title>\n<style>body{font-family:sans-serif;max-width:1100px;"
	      "margin:1em auto;padding:0 1em}pre{background:#f4f4f4;"
	      "padding:.6em;overflow-x:auto;font-size:12px}"
	      "table.commit{border-collapse:collapse}table.commit td,"
	      "table.commit th{border:1px solid #bbb;padding:.2em .6em;"
	      "text-align:right}img{max-width:100%}#guesses{white-space:pre-wrap}"
	      "</style></head><body>\n"
	      "<h1>ppsim run: ", f);
	put_title(f, scenario, machine);
	fputs("</h1>\n", f);
	put_pre(f, dir, "results.csv", "provenance", true);
	fputs("<h2>Before and after</h2>\n", f);
	put_commit_tables(f, dir);
	fputs("<h2>What rests on guesses</h2>\n", f);
	if (uncalibrated)
		fputs("<p><strong>Uncalibrated:</strong> the scenario includes "
		      "a hardware profile without its calibration; its "
		      "per-packet cycles are the profile's priors (ppsim "
		      "calibrate fits them).</p>\n", f);
	if (borrowed) {
		fputs("<p><strong>Costs borrowed</strong> for ", f);
		put_escaped(f, borrowed, strlen(borrowed));
		fputs(" (doc/notes/core-costs.md).</p>\n", f);
	}
	fprintf(f, "<p>%d figure%s the run rests on %s marked a guess or a "
		"prior where %s set (each line as its file has it):</p>\n",
		nr_guesses, nr_guesses == 1 ? "" : "s",
		nr_guesses == 1 ? "is" : "are",
		nr_guesses == 1 ? "it is" : "they are");
	fputs("<pre id=\"guesses\">\n", f);	/* a newline after <pre> is not shown */
	put_escaped(f, guesses, strlen(guesses));
	fputs("</pre>\n<h2>Every figure</h2>\n", f);
	put_pre(f, dir, "table.txt", "table", false);
	fputs("<h2>Why: where each packet's time went</h2>\n", f);
	put_pre(f, dir, "explain.txt", "explain", false);
	fputs("<h2>Plots</h2>\n", f);
	put_plots(f, dir);
	fputs("</body></html>\n", f);
	return outfile_commit(&o, "ppsim run");
}
