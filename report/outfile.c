/* Files written whole or not at all (outfile.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "outfile.h"
#include "../io/datadir.h"

/* The one file read that may be replaced (calibrate's calibration). */
static struct stat may_replace;
static bool have_may_replace;

void outfile_may_replace(const char *path)
{
	have_may_replace = !stat(path, &may_replace);
}

/* The name this run read path under, if it did and may not replace it. */
static const char *read_here(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return NULL;
	if (have_may_replace && st.st_dev == may_replace.st_dev &&
	    st.st_ino == may_replace.st_ino)
		return NULL;
	return datadir_read_as_stat(&st);
}

/* The mode fopen() would give a new file: 0666 less the umask. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* What an interrupt (SIGINT, SIGTERM, SIGHUP, SIGQUIT) removes before it
 * ends ppsim as it would have (status 130, 143, 129, 131): the temporary
 * files written, and a directory --out made (rmdir leaves one that is not
 * empty).  Each path is filled in before its flag is set, so a handler
 * reads only whole paths. */
#define MAX_MADE_DIRS	32	/* a run of more files leaves the rest */
static char pending_tmp[PATH_MAX], made_dir[MAX_MADE_DIRS][PATH_MAX];
static volatile sig_atomic_t have_tmp, have_dir;
static volatile pid_t tmp_writer;	/* killed first: it would write on */

/* The files of a group (outfile_group_begin), written whole and waiting
 * to be renamed together: changed with the interrupts held. */
static struct grouped {
	char *tmp, *path;
} *group;
static int nr_group, cap_group;
static bool grouping;

static void clean_up(int sig)
{
	if (tmp_writer > 0) {
		kill(tmp_writer, SIGKILL);
		waitpid(tmp_writer, NULL, 0);
	}
	if (have_tmp)
		unlink(pending_tmp);
	for (int i = 0; i < nr_group; i++)
		unlink(group[i].tmp);
	outfile_remove_made_dirs();
	signal(sig, SIG_DFL);
	raise(sig);
}

void outfile_remove_made_dirs(void)
{
	/* the last made first: DIR/NAME before DIR */
	while (have_dir > 0)
		rmdir(made_dir[--have_dir]);
}

static void clean_up_on_signals(void)
{
	signal(SIGINT, clean_up);
	signal(SIGTERM, clean_up);
	signal(SIGHUP, clean_up);
	signal(SIGQUIT, clean_up);
}

FILE *outfile_open(struct outfile *o, const char *path, const char *suffix,
		   const char *who)
{
	char dir[PATH_MAX];
	sigset_t was;
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
	/* nothing written replaces a file the run read (a resolved.ini
	 * read back, an include), under any name: the last guard, after
	 * the commands' own checks before any work */
	if (read_here(path)) {
		fprintf(stderr, "%s: %s: that is %s, a file this run reads: "
			"not overwritten\n", who, path, read_here(path));
		return NULL;
	}
	outfile_hold(&was);
	fd = mkstemps(o->tmp, (int)strlen(suffix));
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int err = errno;

		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		outfile_release(&was);
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(err));
		return NULL;
	}
	memcpy(pending_tmp, o->tmp, sizeof(pending_tmp));
	have_tmp = 1;
	clean_up_on_signals();
	outfile_release(&was);
	/* mkstemps makes it 0600; the file is the user's, as fopen's is */
	fchmod(fd, new_file_mode());
	return o->f;
}

/* Keeps o's written file for outfile_group_end(): 0, or -1 out of
 * memory. */
static int group_add(const struct outfile *o)
{
	struct grouped g = { strdup(o->tmp), strdup(o->path) };
	sigset_t was;

	if (nr_group == cap_group) {
		int cap = cap_group ? 2 * cap_group : 32;
		struct grouped *more = malloc((size_t)cap * sizeof(*more));

		if (!more) {
			free(g.tmp);
			free(g.path);
			return -1;
		}
		outfile_hold(&was);
		if (nr_group)
			memcpy(more, group, (size_t)nr_group * sizeof(*more));
		free(group);
		group = more;
		cap_group = cap;
		outfile_release(&was);
	}
	if (!g.tmp || !g.path) {
		free(g.tmp);
		free(g.path);
		return -1;
	}
	outfile_hold(&was);
	group[nr_group++] = g;
	have_tmp = 0;	/* the group's now */
	outfile_release(&was);
	return 0;
}

void outfile_group_begin(void)
{
	grouping = true;
}

int outfile_group_end(bool keep, const char *who)
{
	int status = keep ? 0 : -1;
	sigset_t was;

	outfile_hold(&was);
	for (int i = 0; i < nr_group; i++) {
		if (status || rename(group[i].tmp, group[i].path)) {
			if (!status) {
				fprintf(stderr, "%s: %s: %s: not written\n", who,
					group[i].path, strerror(errno));
				/* a rename refused half way (an immutable
				 * file): those before it stay replaced */
				if (i)
					fprintf(stderr, "%s: %d of %d files "
						"replaced before it, the rest left "
						"as they were\n", who, i,
						nr_group);
				status = i ? -2 : -1;
			}
			unlink(group[i].tmp);
		}
		free(group[i].tmp);
		free(group[i].path);
	}
	free(group);
	group = NULL;
	nr_group = cap_group = 0;
	grouping = false;
	outfile_release(&was);
	return status;
}

const char *outfile_current(const char *path)
{
	for (int i = nr_group - 1; i >= 0; i--)
		if (!strcmp(group[i].path, path))
			return group[i].tmp;
	return path;
}

int outfile_grouped(const char *dir, const char *ext, const char **names,
		    int most)
{
	size_t nd = strlen(dir), ne = strlen(ext);
	int nr = 0;

	for (int i = 0; i < nr_group && nr < most; i++) {
		const char *p = group[i].path, *name = p + nd + 1;
		size_t n = strlen(p);

		if (!strncmp(p, dir, nd) && p[nd] == '/' && !strchr(name, '/') &&
		    n > nd + 1 + ne && !strcmp(p + n - ne, ext))
			names[nr++] = name;
	}
	return nr;
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
	if (!err && grouping && group_add(o))
		err = ENOMEM;
	else if (!err && grouping)
		return 0;
	else if (!err && rename(o->tmp, o->path))
		err = errno;
	have_tmp = 0;
	if (!err)
		return 0;
	/* an older file at the path is left as it was: it may be the only
	 * copy of a calibration that --update was to replace */
	fprintf(stderr, "%s: %s: %s: not written%s\n", who, o->path,
		strerror(err), access(o->path, F_OK) ? "" :
		" (the older file there is left as it was)");
	unlink(o->tmp);
	return -1;
}

void outfile_hold(sigset_t *was)
{
	sigset_t stop;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGQUIT);
	sigprocmask(SIG_BLOCK, &stop, was);
}

void outfile_release(const sigset_t *was)
{
	sigprocmask(SIG_SETMASK, was, NULL);
}

void outfile_writer(pid_t pid)
{
	tmp_writer = pid;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	have_tmp = 0;
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

/* Whether dir holds a file the run read under a name one of the
 * patterns matches (a file the command would write there): said. */
static int outputs_read(const char *dir, const char *option,
			const char *const *names)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (!names || !(d = opendir(dir)))
		return 0;
	while (!rc && (e = readdir(d))) {
		const char *as;

		for (int i = 0; names[i]; i++)
			if (!fnmatch(names[i], e->d_name, 0))
				break;
			else if (!names[i + 1])
				goto next;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     e->d_name) >= sizeof(path))
			continue;
		if ((as = read_here(path))) {
			fprintf(stderr, "%s %s: it holds %s, which this run "
				"reads (as %s): the outputs would overwrite "
				"it; write them elsewhere\n", option, dir,
				e->d_name, as);
			rc = -1;
		}
next:		;
	}
	closedir(d);
	return rc;
}

int outfile_check_dir(const char *dir, const char *option,
		      const char *const *names, bool dry)
{
	char parent[PATH_MAX];
	struct stat st;

	if (strlen(dir) > OUTFILE_DIR_MAX) {
		errno = ENAMETOOLONG;
		goto bad;
	}
	if (dry && stat(dir, &st) && errno == ENOENT) {
		/* what mkdir would meet, without making it */
		snprintf(parent, sizeof(parent), "%s", dir);
		if (probe_dir(dirname(parent)))
			goto bad;
		return 0;
	}
	if (dry) {
		/* exists: checked as it is */
	} else if (!mkdir(dir, 0777)) {
		if (have_dir < MAX_MADE_DIRS &&
		    strlen(dir) < sizeof(made_dir[0])) {
			memcpy(made_dir[have_dir], dir, strlen(dir) + 1);
			have_dir++;
			clean_up_on_signals();
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
	return outputs_read(dir, option, names);
bad:
	fprintf(stderr, "%s %s: %s\n", option, dir, strerror(errno));
	return -1;
}

bool outfile_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int outfile_check_file(const char *path, const char *option)
{
	char dir[PATH_MAX], base[PATH_MAX], *parent;
	struct stat st;

	if (!*path) {
		fprintf(stderr, "%s: an empty name\n", option);
		return -1;
	}
	/* the name as rename() will take it: whole, and its last part */
	if (strlen(path) >= sizeof(dir) ||
	    (snprintf(base, sizeof(base), "%s", path),
	     strlen(basename(base)) > NAME_MAX)) {
		fprintf(stderr, "%s %.200s...: %s\n", option, path,
			strerror(ENAMETOOLONG));
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s %s: %s\n", option, path,
			S_ISDIR(st.st_mode) ? strerror(EISDIR) :
			"not a regular file");
		return -1;
	}
	if (read_here(path)) {
		fprintf(stderr, "%s %s: that is %s, a file this run reads: it "
			"would be overwritten\n", option, path,
			read_here(path));
		return -1;
	}
	parent = dirname(dir);
	if (!probe_dir(parent))
		return 0;
	fprintf(stderr, "%s %s: no file can be made in %s: %s\n", option,
		path, parent, strerror(errno));
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
	 * buffer) left the error flag and, often, its errno; the flush
	 * itself writes nothing more */
	int early = ferror(stdout) ? errno : 0;
	struct pollfd out = { .fd = STDOUT_FILENO };

	errno = 0;
	if (fflush(stdout) != EOF && !ferror(stdout))
		return 0;
	/* that errno is gone when anything ran since (gnuplot): a pipe
	 * whose reader left polls as an error, and says so */
	if (!errno && poll(&out, 1, 0) == 1 && (out.revents & POLLERR))
		early = EPIPE;
	/* a reader that left (| head) took what it wanted: that is no
	 * news to the user; the status still says it (1) */
	if ((errno ? errno : early) == EPIPE)
		return -1;
	fprintf(stderr, "ppsim: standard output: %s: the output is "
		"incomplete\n", strerror(errno ? errno : early ? early : EIO));
	return -1;
}
