#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "config.h"
#include "../input/datadir.h"
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

static int run_gnuplot(const char *script, const char *vars)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl(GNUPLOT_PATH, "gnuplot", "-e", vars, script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int plot_draw(const char *script, const char *vars, const char *out)
{
	static const char *const ext[] = { "png", "svg" };
	char path[4096], all[8192];

	snprintf(path, sizeof(path), "%s/plots/%s", datadir_path(), script);
	if (access(path, R_OK)) {
		fprintf(stderr, "ppsim: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		snprintf(all, sizeof(all), "%s; out='%s.%s'", vars, out, ext[i]);
		if (run_gnuplot(path, all)) {
			fprintf(stderr, "ppsim: gnuplot failed on %s for "
				"%s.%s\n", path, out, ext[i]);
			return -1;
		}
	}
	return 0;
}
