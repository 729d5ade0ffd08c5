/*
 * Plots: gnuplot runs the scripts of plots/ (from the data directory) on
 * the CSV files ppsim wrote, as a command a user could rerun and restyle:
 *   gnuplot -c plots/NAME.gp DATA OUT TITLE [MORE...]
 * Every value goes in as an argument (ARG1, ARG2, ...), a string gnuplot
 * never evaluates: case names, paths and titles are the user's text, and
 * gnuplot runs system() from any command text it is given.
 * Without gnuplot (none found at configure time) plots are skipped, said
 * once on stderr.
 */
#ifndef PPSIM_PLOT_H
#define PPSIM_PLOT_H

#include <stdbool.h>

/* Whether plots can be drawn; if not, says so on stderr.  A command asks
 * once. */
bool plot_available(void);

#define PLOT_MAX_ARGS	6	/* MORE after DATA OUT TITLE */

/* Runs plots/script (e.g. "rates.gp") on data, once for out.png and once
 * for out.svg (out given without extension), each written whole or not
 * at all; more: nr_more further arguments the script reads.  Returns 0,
 * or -1 with the reason on stderr. */
int plot_draw(const char *script, const char *data, const char *out,
	      const char *title, const char *const *more, int nr_more);

#endif
