/* Files written whole or not at all (outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "outfile.h"

/* The mode fopen() would give a new file: 0666 less the umask. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

FILE *outfile_open(struct outfile *o, const char *path, const char *suffix,
		   const char *who)
{
	char dir[PATH_MAX];
	struct stat st;
	int fd;

	o->f = NULL;
	snprintf(dir, sizeof(dir), "%s", path);
	if ((size_t)snprintf(o->path, sizeof(o->path), "%s", path) >=
	    sizeof(o->path) ||
	    (size_t)snprintf(o->tmp, sizeof(o->tmp), "%s/.ppsim-XXXXXX%s",
			     dirname(dir), suffix) >= sizeof(o->tmp)) {
		fprintf(stderr, "%s: %s: %s\n", who, path,
			strerror(ENAMETOOLONG));
		return NULL;
	}
	/* the rename would put a file in place of a device (/dev/full):
	 * outputs replace regular files only */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: %s: not a regular file\n", who, path);
		return NULL;
	}
	fd = mkstemps(o->tmp, (int)strlen(suffix));
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		return NULL;
	}
	/* mkstemps makes it 0600; the file is the user's, as fopen's is */
	fchmod(fd, new_file_mode());
	return o->f;
}

int outfile_commit(struct outfile *o, const char *who)
{
	int err = 0;

	errno = 0;
	if (fflush(o->f) == EOF || ferror(o->f))
		err = errno ? errno : EIO;
	if (fclose(o->f) == EOF && !err)
		err = errno;
	o->f = NULL;
	if (!err && rename(o->tmp, o->path))
		err = errno;
	if (!err)
		return 0;
	fprintf(stderr, "%s: %s: %s: not written\n", who, o->path,
		strerror(err));
	unlink(o->tmp);
	unlink(o->path);
	return -1;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	unlink(o->tmp);
}

/* Whether a new file can be made in dir: one is, and removed. */
static int probe_dir(const char *dir)
{
	char probe[PATH_MAX];
	int fd;

	if ((size_t)snprintf(probe, sizeof(probe), "%s/.ppsim-XXXXXX", dir) >=
	    sizeof(probe)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkstemp(probe);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(probe);
	return 0;
}

/* A directory --out made, removed if an interrupt ends ppsim before it
 * wrote there (rmdir leaves one that is not empty); the signal then ends
 * the process as it would have (status 130, 143). */
static char made_dir[PATH_MAX];

static void unmake_dir(int sig)
{
	rmdir(made_dir);
	signal(sig, SIG_DFL);
	raise(sig);
}

int outfile_check_dir(const char *dir, const char *option)
{
	struct stat st;

	if (!mkdir(dir, 0777)) {
		if (!*made_dir && strlen(dir) < sizeof(made_dir)) {
			memcpy(made_dir, dir, strlen(dir) + 1);
			signal(SIGINT, unmake_dir);
			signal(SIGTERM, unmake_dir);
		}
	} else if (errno != EEXIST) {
		goto bad;
	}
	if (stat(dir, &st))
		goto bad;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		goto bad;
	}
	if (probe_dir(dir))
		goto bad;
	return 0;
bad:
	fprintf(stderr, "%s %s: %s\n", option, dir, strerror(errno));
	return -1;
}

int outfile_check_file(const char *path, const char *option)
{
	char dir[PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", path);
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s %s: %s\n", option, path,
			S_ISDIR(st.st_mode) ? strerror(EISDIR) :
			"not a regular file");
		return -1;
	}
	if (!probe_dir(dirname(dir)))
		return 0;
	fprintf(stderr, "%s %s: %s\n", option, path, strerror(errno));
	return -1;
}

void outfile_guard_std(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			/* the lowest free descriptor: fd itself */
			open("/dev/null", fd == 1 ? O_RDONLY : O_RDWR);
}

int outfile_close_stdout(void)
{
	/* a write that failed before this flush (output past stdio's
	 * buffer) left the error flag and its errno, which nothing since
	 * has had reason to change; the flush itself writes nothing more */
	int early = ferror(stdout) ? errno : 0;

	errno = 0;
	if (fflush(stdout) != EOF && !ferror(stdout))
		return 0;
	fprintf(stderr, "ppsim: standard output: %s: the output is "
		"incomplete\n", strerror(errno ? errno : early ? early : EIO));
	return -1;
}
