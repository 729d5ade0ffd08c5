#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "datadir.h"

const char *datadir_path(void)
{
	const char *env = getenv("PPSIM_DATADIR");

	return env && *env ? env : PKGDATADIR;
}

FILE *datadir_fopen(const char *path, char *found, size_t len)
{
	FILE *f = fopen(path, "r");
	int err = errno;

	snprintf(found, len, "%s", path);
	if (f || path[0] == '/')
		return f;
	if ((size_t)snprintf(found, len, "%s/%s", datadir_path(), path) < len)
		f = fopen(found, "r");
	if (!f) {
		snprintf(found, len, "%s", path);
		errno = err;
	}
	return f;
}
