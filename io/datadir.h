/*
 * Where ppsim finds its shipped files (scenarios, plot scripts, traces):
 * $PPSIM_DATADIR if set, else, for the build tree's ppsim alone, the
 * source tree it was built from while it exists, else the installed
 * $(datadir)/ppsim (io/paths.h, which make keeps up to date).  The data
 * directory mirrors the source tree, so "scenarios/x.ini" names the same
 * file in a checkout and in an installation.
 */
#ifndef PPSIM_DATADIR_H
#define PPSIM_DATADIR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

const char *datadir_path(void);

/* Whether nothing at all is at path: no file, no link (a dangling link
 * is something), and a directory on the way that says so (not EACCES,
 * ELOOP): the only case a shipped file of that name may stand in. */
bool datadir_names_nothing(const char *path);

/*
 * Opens path for reading as given; if nothing is there (datadir_names_
 * nothing) and path is relative, opens it below the data directory.  The name opened is written to found.
 * Returns NULL with errno from the first attempt when neither exists, with
 * EINVAL for what is not a regular file (a FIFO or /dev/zero would never
 * end), EFBIG for one over 64 MiB.
 */
FILE *datadir_fopen(const char *path, char *found, size_t len);

/* Opens path for reading, as given, if it is a regular file (never
 * waiting on a FIFO); NULL with errno, EINVAL for what is not a regular
 * file.  A UTF-8 byte order mark at the start is skipped. */
FILE *datadir_open_regular(const char *path);

/* The name a file was read under, if this process read the file at path
 * (or st): any file opened through datadir_open_regular() or
 * datadir_fopen(), a scenario, every include, a trace, a CSV; the same
 * device and inode under any name or link.  NULL if none.  What ppsim
 * writes is checked against it (report/outfile.h). */
const char *datadir_read_as(const char *path);
struct stat;
const char *datadir_read_as_stat(const struct stat *st);

/* Why datadir_fopen() failed, for a message. */
const char *datadir_strerror(int err);

/* Errors a file gets reported before its reader gives up on it: past
 * them it is not a scenario or a trace with mistakes, but something else. */
#define DATADIR_MAX_ERRORS	50

/* What datadir_getline() found wrong with a line. */
enum { LINE_OK, LINE_TOO_LONG, LINE_NUL };

/*
 * Reads one line into buf (size bytes, newline dropped), however long the
 * line: what does not fit is read and thrown away, so memory stays
 * bounded.  Returns the line's length, or -1 at the end of the file;
 * *problem says whether it was cut or held a NUL byte.
 */
long datadir_getline(FILE *f, char *buf, size_t size, int *problem);

/*
 * The one escaping function every text ppsim echoes goes through: writes
 * the n bytes of s with each control character (C0, DEL, and C1 in
 * UTF-8) as \xHH, so that none reaches a terminal (an escape sequence
 * would recolour it, retitle it or move its cursor) or a file's line
 * structure; a newline and a tab are kept when lines is true.
 * datadir_put_line_text() keeps s on one line: a newline in a file's
 * name cannot end the line or forge another.
 */
void datadir_put_text(FILE *f, const char *s, size_t n, bool lines);
void datadir_put_line_text(FILE *f, const char *s);

/* Writes text's words, the first at column col, broken between words
 * before column width (a help's 79, a commit message's 72), each line
 * after the first indented by indent; then a newline. */
void datadir_put_wrapped(FILE *f, const char *text, int col, int indent,
			 int width);

/* Makes stderr a stream that writes through datadir_put_text (lines kept)
 * to the stderr it was, kept as datadir_raw_stderr: every message, from
 * any layer, echoes user text (a case name, an argument, a trace line)
 * without its control characters.  Only a progress bar writes its own
 * ("\r\033[K") to datadir_raw_stderr.  0, or -1 with stderr as it was. */
int datadir_escape_stderr(void);
extern FILE *datadir_raw_stderr;	/* NULL until then */

/* Says "FILE:LINE: message" on stderr: the form of every input error
 * (line 0: "OPTION: message", for what the command line said). */
void datadir_verror(const char *file, int line, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
void datadir_error(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
