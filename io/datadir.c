#define _GNU_SOURCE	/* fopencookie() */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "config.h"
#include "datadir.h"
#include "io/paths.h"

/* Whether this program is the ppsim of the build tree (not an installed
 * copy, not another program such as a fuzzer): the same file. */
static bool in_build_tree(void)
{
	struct stat self, built;

	return !stat("/proc/self/exe", &self) &&
	       !stat(PPSIM_BUILDDIR "/ppsim", &built) &&
	       self.st_dev == built.st_dev && self.st_ino == built.st_ino;
}

const char *datadir_path(void)
{
	const char *env = getenv("PPSIM_DATADIR");
	struct stat st;

	if (env && *env)
		return env;
	/* the build tree's ppsim uses its source tree's files; an installed
	 * one, only its installation's */
	if (in_build_tree() && !stat(PPSIM_SRCDIR "/plots/rates.gp", &st))
		return PPSIM_SRCDIR;
	return PKGDATADIR;
}

/* Every file this process opened through datadir_open_regular: what
 * nothing it writes may replace (datadir_read_as). */
static struct read_file {
	dev_t dev;
	ino_t ino;
	char *name;
} *read_files;
static int nr_read_files;

static void note_read(const struct stat *st, const char *path)
{
	struct read_file *r;

	if (datadir_read_as_stat(st))
		return;
	r = realloc(read_files, (size_t)(nr_read_files + 1) * sizeof(*r));
	if (!r)
		return;	/* the write is checked against fewer: not worse */
	read_files = r;
	r[nr_read_files] = (struct read_file){ st->st_dev, st->st_ino,
					       strdup(path) };
	if (r[nr_read_files].name)
		nr_read_files++;
}

const char *datadir_read_as_stat(const struct stat *st)
{
	for (int i = 0; i < nr_read_files; i++)
		if (read_files[i].dev == st->st_dev &&
		    read_files[i].ino == st->st_ino)
			return read_files[i].name;
	return NULL;
}

const char *datadir_read_as(const char *path)
{
	struct stat st;

	return stat(path, &st) ? NULL : datadir_read_as_stat(&st);
}

FILE *datadir_open_regular(const char *path)
{
	struct stat st;
	FILE *f;
	int fd;

	/* nothing but a regular file is opened: opening a FIFO for reading
	 * waits for a writer forever, and opening some devices does
	 * something (/dev/watchdog starts its timer) */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return NULL;
	}
	/* O_NONBLOCK: what was a file at stat() may be a FIFO now */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	note_read(&st, path);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return NULL;
	}
	/* a UTF-8 byte order mark, which some editors write first, is no
	 * part of the text */
	if (getc(f) != 0xef || getc(f) != 0xbb || getc(f) != 0xbf)
		rewind(f);
	return f;
}

const char *datadir_strerror(int err)
{
	return err == EINVAL ? "not a regular file" :
	       err == EFBIG ? "larger than 64 MiB: not a text ppsim reads" :
	       strerror(err);
}

/* A scenario or a trace is text someone wrote: one this large is
 * something else (/proc/kcore says it is 128 TiB), and reading it to the
 * end would take hours. */
#define DATADIR_MAX_SIZE	(64L << 20)
/* and a line this long is not one (stdin from /dev/zero has no end) */
#define DATADIR_MAX_LINE	(1L << 20)

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
		if (++len >= DATADIR_MAX_LINE) {
			if (*problem == LINE_OK)
				*problem = LINE_TOO_LONG;
			break;
		}
	}
	buf[n] = '\0';
	return c == EOF && len == 0 ? -1 : len;
}

static FILE *open_text(const char *path)
{
	FILE *f = datadir_open_regular(path);
	struct stat st;

	if (f && !fstat(fileno(f), &st) && st.st_size > DATADIR_MAX_SIZE) {
		fclose(f);
		errno = EFBIG;
		return NULL;
	}
	return f;
}

bool datadir_names_nothing(const char *path)
{
	struct stat st;

	return lstat(path, &st) && errno == ENOENT;
}

FILE *datadir_fopen(const char *path, char *found, size_t len)
{
	FILE *f = open_text(path);
	int err = errno;

	snprintf(found, len, "%s", path);
	if (f || path[0] == '/')
		return f;
	/* the data directory's file stands in only for a name that names
	 * nothing: one the user may not read (EACCES), a loop of links or a
	 * dangling one is that file's error, not the shipped file's run */
	if (datadir_names_nothing(path) &&
	    (size_t)snprintf(found, len, "%s/%s", datadir_path(), path) < len)
		f = open_text(found);
	if (!f) {
		snprintf(found, len, "%s", path);
		errno = err;
	}
	return f;
}

void datadir_put_text(FILE *f, const char *s, size_t n, bool lines)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		/* C0, DEL, and C1 as UTF-8 (U+0080..U+009F: 0xc2 0x80-0x9f,
		 * which some terminals take as CSI and the like) */
		if ((ch < 0x20 && !(lines && (ch == '\n' || ch == '\t'))) ||
		    ch == 0x7f) {
			fprintf(f, "\\x%02x", ch);
		} else if (ch == 0xc2 && i + 1 < n &&
			   (unsigned char)s[i + 1] >= 0x80 &&
			   (unsigned char)s[i + 1] <= 0x9f) {
			fprintf(f, "\\xc2\\x%02x", (unsigned char)s[++i]);
		} else {
			fputc(ch, f);
		}
	}
}

void datadir_put_line_text(FILE *f, const char *s)
{
	datadir_put_text(f, s, strlen(s), false);
}

void datadir_put_wrapped(FILE *f, const char *text, int col, int indent,
			 int width)
{
	bool first = true;

	while (*text) {
		int n = (int)strcspn(text, " ");

		if (!first && col + 1 + n > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			col += fprintf(f, " ");
		}
		col += fprintf(f, "%.*s", n, text);
		text += n + strspn(text + n, " ");
		first = false;
	}
	fputc('\n', f);
}

FILE *datadir_raw_stderr;

/* stderr's writes, through datadir_put_text to the stream it was */
static ssize_t stderr_write(void *cookie, const char *buf, size_t n)
{
	FILE *raw = cookie;

	datadir_put_text(raw, buf, n, true);
	return fflush(raw) == EOF ? -1 : (ssize_t)n;
}

int datadir_escape_stderr(void)
{
	cookie_io_functions_t io = { .write = stderr_write };
	FILE *f;

	if (datadir_raw_stderr)
		return 0;
	f = fopencookie(stderr, "w", io);
	if (!f)
		return -1;
	setvbuf(f, NULL, _IONBF, 0);	/* as stderr: in order with others */
	datadir_raw_stderr = stderr;
	stderr = f;
	return 0;
}

void datadir_verror(const char *file, int line, const char *fmt, va_list ap)
{
	datadir_put_line_text(stderr, file);
	if (line > 0)
		fprintf(stderr, ":%d: ", line);
	else	/* a command-line option */
		fputs(": ", stderr);
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
