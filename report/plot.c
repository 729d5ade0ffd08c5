#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "config.h"
#include "../io/datadir.h"
#include "outfile.h"
#include "plot.h"

bool plot_available(void)
{
	if (GNUPLOT_PATH[0])
		return true;
	fprintf(stderr, "ppsim: gnuplot was not found when ppsim was "
		"configured: plots skipped (the CSV files are written; "
		"install gnuplot-nox and reconfigure)\n");
	return false;
}

/* A path as gnuplot must get it: gnuplot reads '<cmd' as a command to
 * run, writes to '|cmd' through one, and '-' is its stdin; "./" before a
 * relative path keeps it a file name. */
static void plain_path(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s%.4090s", path[0] == '/' ? "" : "./", path);
}

/*
 * Whether gnuplot wrote the image whole: it does not report a failed
 * write (a full disk leaves a cut or empty file and exit 0), so the file's
 * end is checked: a PNG ends with its IEND chunk, an SVG with </svg>.
 */
static bool image_whole(const char *path, bool png)
{
	static const unsigned char iend[] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D',
					      0xae, 0x42, 0x60, 0x82 };
	unsigned char tail[16];
	FILE *f = fopen(path, "rb");
	size_t n = 0;
	long size;

	if (!f)
		return false;
	if (!fseek(f, 0, SEEK_END) && (size = ftell(f)) >= (long)sizeof(tail) &&
	    !fseek(f, size - (long)sizeof(tail), SEEK_SET))
		n = fread(tail, 1, sizeof(tail), f);
	fclose(f);
	if (n != sizeof(tail))
		return false;
	if (png)
		return !memcmp(tail + sizeof(tail) - sizeof(iend), iend,
			       sizeof(iend));
	while (n && (tail[n - 1] == '\n' || tail[n - 1] == ' '))
		n--;
	return n >= 6 && !memcmp(tail + n - 6, "</svg>", 6);
}

/* gnuplot's own words, kept apart: its warnings on a plot it drew ("no
 * valid points" for a series a case has none of) are noise; when it fails
 * they say why, and are passed on. */
static void pass_on(FILE *said)
{
	char buf[512];
	size_t n;

	rewind(said);
	while ((n = fread(buf, 1, sizeof(buf), said)))
		fwrite(buf, 1, n, stderr);
}

/* An interrupt is held from the fork until ppsim knows gnuplot's pid:
 * one that came between would leave gnuplot running, to write the
 * temporary image again after ppsim removed it. */
static int run_gnuplot(const char *const *argv, FILE *said)
{
	sigset_t was;
	int status;
	pid_t pid;

	fflush(NULL);
	outfile_hold(&was);
	pid = fork();
	if (pid == 0) {
		if (said)
			dup2(fileno(said), STDERR_FILENO);
		/* ppsim's handlers are not gnuplot's: its own end, then */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);	/* ppsim's own choice (main) */
		outfile_release(&was);
		execv(GNUPLOT_PATH, (char *const *)argv);
		_exit(127);
	}
	if (pid > 0)
		outfile_writer(pid);
	outfile_release(&was);
	if (pid < 0)
		return -1;
	pid = waitpid(pid, &status, 0);
	outfile_writer(0);
	if (pid < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int plot_draw(const char *script, const char *data, const char *out,
	      const char *title, const char *const *more, int nr_more)
{
	static const char *const ext[] = { ".png", ".svg" };
	char path[4096], data_arg[4096], image[4096], tmp_arg[4096];
	const char *argv[6 + PLOT_MAX_ARGS + 1] = {
		"gnuplot", "-c", path, data_arg, tmp_arg, title,
	};
	FILE *said;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/plots/%s", datadir_path(), script);
	if (access(path, R_OK)) {
		fprintf(stderr, "ppsim: %s: %s\n", path, strerror(errno));
		return -1;
	}
	plain_path(outfile_current(data), data_arg, sizeof(data_arg));
	for (int i = 0; i < nr_more && i < PLOT_MAX_ARGS; i++)
		argv[6 + i] = more[i];
	for (int i = 0; i < 2; i++) {
		struct outfile o;

		snprintf(image, sizeof(image), "%s%s", out, ext[i]);
		/* the temporary name keeps the extension: the script picks
		 * its terminal by it */
		if (!outfile_open(&o, image, ext[i], "ppsim"))
			return -1;
		plain_path(o.tmp, tmp_arg, sizeof(tmp_arg));
		said = tmpfile();	/* NULL: its words go to stderr */
		if (run_gnuplot(argv, said)) {
			outfile_abort(&o);
			if (said)
				pass_on(said);
			fprintf(stderr, "ppsim: gnuplot failed on %s for "
				"%s\n", path, image);
			rc = -1;
		} else if (!image_whole(o.tmp, i == 0)) {
			outfile_abort(&o);
			if (said)
				pass_on(said);
			fprintf(stderr, "ppsim: %s: gnuplot did not write it "
				"whole (a full disk?)\n", image);
			rc = -1;
		} else if (outfile_commit(&o, "ppsim")) {
			rc = -1;
		}
		if (said)
			fclose(said);
		if (rc)
			return rc;
	}
	return 0;
}
