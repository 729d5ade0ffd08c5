/*
 * Where ppsim finds its shipped files (scenarios, plot scripts, traces):
 * $PPSIM_DATADIR if set, else the installed $(datadir)/ppsim.  The data
 * directory mirrors the source tree, so "scenarios/x.ini" names the same
 * file in a checkout and in an installation.
 */
#ifndef PPSIM_DATADIR_H
#define PPSIM_DATADIR_H

#include <stdio.h>

const char *datadir_path(void);

/*
 * Opens path for reading as given; if that fails and path is relative,
 * opens it below the data directory.  The name opened is written to found.
 * Returns NULL with errno from the first attempt when neither exists.
 */
FILE *datadir_fopen(const char *path, char *found, size_t len);

#endif
