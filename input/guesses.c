/*
 * Which figures a scenario runs on are guesses: the hardware profiles say
 * so in the comment of the line that sets a figure ("guess: ...", "prior:
 * ..."), on that line or on the indented comment lines below it
 * (scenarios/hw/).  The loader keeps, for every key set outside a case,
 * the file and line that set it last (struct scn_source); this reads the
 * comment there.  A figure a later file set again (a calibration's
 * fitted cycles over a profile's prior) is that file's, as it ran.
 */
#define _GNU_SOURCE	/* strcasestr */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "scenario.h"
#include "../io/datadir.h"

#define GUESS_LINE_MAX	1024	/* the text kept of a figure's comment */

/* Whether a comment marks its figure (or a part of it) a guess, or a
 * prior as the profiles write one: "prior:", "prior (free):" (not "the
 * prior before it"). */
static bool marks_guess(const char *comment)
{
	if (strcasestr(comment, "guess"))
		return true;
	for (const char *p = comment; (p = strcasestr(p, "prior")); p++) {
		const char *after = p + 5 + strspn(p + 5, " ");

		if (*after == ':' || *after == '(')
			return true;
	}
	return false;
}

/* Line nr of f and the indented comment lines below it, joined, into
 * text; 0, or -1 when the file has no such line (changed since it was
 * read). */
static int figure_text(FILE *f, int nr, char *text, size_t len)
{
	char buf[GUESS_LINE_MAX];
	int line = 0;

	*text = '\0';
	while (fgets(buf, sizeof(buf), f)) {
		char *p = buf + strspn(buf, " \t");

		buf[strcspn(buf, "\r\n")] = '\0';
		if (++line < nr)
			continue;
		if (line > nr && (p == buf || *p != ';'))
			break;	/* past the figure's own comment lines */
		if (line > nr)
			p += strspn(p, "; \t");
		snprintf(text + strlen(text), len - strlen(text), "%s%s",
			 *text ? " " : "", p);
	}
	for (char *t = text; *t; t++)
		if (*t == '\t')
			*t = ' ';
	return line >= nr ? 0 : -1;
}

int scn_write_guesses(FILE *out, const struct scenario *scn)
{
	int n = 0;

	for (int k = 0; k < scn_nr_keys(); k++) {
		const struct scn_source *src = &scn->source[k];
		char text[GUESS_LINE_MAX];
		const char *comment;
		FILE *f;

		if (!src->file)
			continue;
		f = fopen(src->file, "r");
		if (!f)
			continue;
		if (!figure_text(f, src->line, text, sizeof(text)) &&
		    (comment = strchr(text, ';')) && marks_guess(comment)) {
			if (out) {
				fprintf(out, "%s:%d: ", src->file, src->line);
				datadir_put_line_text(out, text);
				fputc('\n', out);
			}
			n++;
		}
		fclose(f);
	}
	return n;
}
