#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "config.h"
#include "datadir.h"

const char *datadir_path(void)
{
	const char *env = getenv("PPSIM_DATADIR");
	struct stat st;

	if (env && *env)
		return env;
	/* a ppsim run from its build tree uses its source tree's files */
	if (!stat(PPSIM_SRCDIR "/plots/rates.gp", &st))
		return PPSIM_SRCDIR;
	return PKGDATADIR;
}

static FILE *fopen_regular(const char *path)
{
	FILE *f = fopen(path, "r");
	struct stat st;

	if (f && (fstat(fileno(f), &st) || !S_ISREG(st.st_mode))) {
		fclose(f);
		errno = EINVAL;
		return NULL;
	}
	return f;
}

const char *datadir_strerror(int err)
{
	return err == EINVAL ? "not a regular file" : strerror(err);
}

long datadir_getline(FILE *f, char *buf, size_t size, int *problem)
{
	size_t n = 0;
	long len = 0;
	int c;

	*problem = LINE_OK;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0')
			*problem = LINE_NUL;
		if (n + 1 < size)
			buf[n++] = (char)c;
		else if (*problem == LINE_OK)
			*problem = LINE_TOO_LONG;
		len++;
	}
	buf[n] = '\0';
	return c == EOF && len == 0 ? -1 : len;
}

FILE *datadir_fopen(const char *path, char *found, size_t len)
{
	FILE *f = fopen_regular(path);
	int err = errno;

	snprintf(found, len, "%s", path);
	if (f || path[0] == '/')
		return f;
	if (err != EINVAL &&
	    (size_t)snprintf(found, len, "%s/%s", datadir_path(), path) < len)
		f = fopen_regular(found);
	if (!f) {
		snprintf(found, len, "%s", path);
		errno = err;
	}
	return f;
}

void datadir_verror(const char *file, int line, const char *fmt, va_list ap)
{
	if (line > 0)
		fprintf(stderr, "%s:%d: ", file, line);
	else	/* a command-line option */
		fprintf(stderr, "%s: ", file);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void datadir_error(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	datadir_verror(file, line, fmt, ap);
	va_end(ap);
}
