#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "csv.h"
#include "../io/datadir.h"

const char csv_ppsim_tail[] =
	"case,policy,metric,unit,value,ci95,measured,error_pct,delta_pct";

bool csv_is_ppsim_header(const char *h)
{
	size_t n = strlen(h), t = strlen(csv_ppsim_tail);

	return n >= t && !strcmp(h + n - t, csv_ppsim_tail) &&
	       (n == t || h[n - t - 1] == ',');
}

int csv_split(char *line, char **fields, int max)
{
	char *s = line, *w = line;
	int n = 0;

	for (;;) {
		if (fields && n == max)
			return -1;
		if (fields)
			fields[n] = w;
		n++;
		if (*s == '"') {
			for (s++; *s && !(s[0] == '"' && s[1] != '"'); s++) {
				if (*s == '"')
					s++;	/* "" inside quotes */
				if (fields)
					*w++ = *s;
			}
			if (*s != '"' || (s[1] && s[1] != ','))
				return -1;
			s++;
		} else {
			for (; *s && *s != ','; s++)
				if (fields)
					*w++ = *s;
		}
		if (!*s)
			break;
		s++;	/* the comma */
		if (fields)
			*w++ = '\0';
	}
	if (fields)
		*w = '\0';
	return n;
}

int csv_number(const char *path, int line, const char *what, const char *s,
	       enum csv_num kind, double *v)
{
	char *end;

	if (!*s && kind != CSV_NUM) {
		*v = NAN;
		return 0;
	}
	errno = 0;
	*v = strtod(s, &end);
	/* strtod also takes what ppsim never writes: leading blanks, C's
	 * hexadecimal (0x10), and magnitudes whose differences and means
	 * overflow to inf (1e308) */
	if (end == s || *end || errno || !isfinite(*v) ||
	    fabs(*v) > CSV_NUM_MAX || s[strspn(s, "+-.0123456789eE")] ||
	    (*v < 0 && kind != CSV_SIGNED_OR_EMPTY)) {
		datadir_error(path, line, "%s '%s' is not a number ppsim "
			      "writes", what, s);
		return -1;
	}
	return 0;
}

int csv_getline(const char *path, FILE *f, char *line, int *nr)
{
	int problem;
	long len = datadir_getline(f, line, CSV_LINE_MAX + 2, &problem);

	if (len < 0)
		return 0;
	++*nr;
	if (problem == LINE_NUL || problem == LINE_TOO_LONG ||
	    len > CSV_LINE_MAX) {
		datadir_error(path, *nr, problem == LINE_NUL ?
			      "NUL byte: not a text file" :
			      "line longer than %d characters: not a ppsim CSV",
			      CSV_LINE_MAX);
		return -1;
	}
	/* ppsim writes none (a name's is \xHH): one here would reach a
	 * terminal from merge's output or compare's table */
	for (const char *p = line; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			datadir_error(path, *nr, "control character 0x%02x: "
				      "not a ppsim CSV", (unsigned char)*p);
			return -1;
		}
	if (feof(f)) {
		datadir_error(path, *nr, "the line is cut short (no newline "
			      "at the end): an unfinished file?");
		return -1;
	}
	return 1;
}

int csv_machine_line(const char *path, int nr, const char *line,
		     char *name, size_t max, int *seen)
{
	static const char tag[] = "# machine: ";
	const char *v = line + sizeof(tag) - 1, *p = v;

	if (strncmp(line, tag, sizeof(tag) - 1))
		return 0;
	if (*seen) {
		datadir_error(path, nr, "# machine: given twice (first at "
			      "line %d)", *seen);
		return -1;
	}
	while (*p >= ' ' && *p <= '~')
		p++;
	if (*p) {
		datadir_error(path, nr, "# machine: character 0x%02x is not "
			      "printable ASCII: not a name ppsim writes",
			      (unsigned char)*p);
		return -1;
	}
	if ((size_t)(p - v) >= max) {
		datadir_error(path, nr, "# machine: a name over %d "
			      "characters: not a name ppsim writes",
			      (int)max - 1);
		return -1;
	}
	memcpy(name, v, (size_t)(p - v) + 1);
	*seen = nr;
	return 1;
}
