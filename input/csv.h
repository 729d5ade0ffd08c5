/*
 * ppsim's own CSV files read back (ppsim merge, ppsim compare): RFC 4180
 * fields ("..." with "" inside), '#' provenance lines before the header,
 * the header ending with the columns rep_csv_header() writes.
 */
#ifndef PPSIM_CSV_H
#define PPSIM_CSV_H

#include <stdbool.h>
#include <stdio.h>

#define CSV_LINE_MAX	4096	/* characters: a row is ~100 */

/* The columns every ppsim results CSV ends its header with; a sweep's
 * swept keys come before them. */
extern const char csv_ppsim_tail[];

/* Whether a header line is a ppsim CSV's: KEY,... then csv_ppsim_tail. */
bool csv_is_ppsim_header(const char *h);

/*
 * Splits line into its fields: with fields NULL only counts them, else
 * rewrites line in place (quotes taken off, "" made ") and points
 * fields[0..] into it, at most max.  Returns the number of fields, or -1
 * when a quote is not closed, is followed by something else than a
 * comma, or there are more than max.
 */
int csv_split(char *line, char **fields, int max);

/* Which numbers a field may hold (csv_number). */
enum csv_num { CSV_NUM, CSV_NUM_OR_EMPTY, CSV_SIGNED_OR_EMPTY };

/* Larger than any figure ppsim writes (bytes, bits a second, Mpps). */
#define CSV_NUM_MAX	1e18

/*
 * A figure ppsim writes, in field s of path's line: a decimal number of at
 * most CSV_NUM_MAX, not negative but for CSV_SIGNED_OR_EMPTY (error_pct,
 * delta_pct); an empty field is NAN where the kind allows it.  Returns 0, or -1 with
 * FILE:LINE: why (what names the column).
 */
int csv_number(const char *path, int line, const char *what, const char *s,
	       enum csv_num kind, double *v);

/*
 * The next line of path's f into line (CSV_LINE_MAX + 2 bytes, without
 * its newline), *nr counting lines.  Returns 1, 0 at the end, or -1 with
 * FILE:LINE: why on stderr: a NUL byte, a line longer than CSV_LINE_MAX,
 * a last line without its newline (an unfinished file).
 */
int csv_getline(const char *path, FILE *f, char *line, int *nr);

/*
 * A provenance line "# machine: NAME" of path's line nr, as ppsim wrote
 * it: NAME printable ASCII, at most max - 1 characters (SCN_MACHINE_MAX),
 * and the file's first (*seen: the line of the one taken before, 0:
 * none).  Returns 0 when line is no machine line, 1 with NAME in name
 * and *seen = nr, or -1 with FILE:LINE: why on stderr.  ppsim report and
 * compare read it alike.
 */
int csv_machine_line(const char *path, int nr, const char *line,
		     char *name, size_t max, int *seen);

#endif
