/*
 * Plots: gnuplot runs the scripts of plots/ (from the data directory) on
 * the CSV files ppsim wrote, as a command a user could rerun and restyle:
 *   gnuplot -e "data='...'; out='...'; ..." plots/NAME.gp
 * Without gnuplot (none found at configure time) plots are skipped, said
 * once on stderr.
 */
#ifndef PPSIM_PLOT_H
#define PPSIM_PLOT_H

#include <stdbool.h>

/* Whether plots can be drawn; if not, says so on stderr.  A command asks
 * once. */
bool plot_available(void);

/* Runs plots/script (e.g. "rates.gp") with the gnuplot assignments vars,
 * once for out.png and once for out.svg (out given without extension).
 * Returns 0, or -1 with the reason on stderr. */
int plot_draw(const char *script, const char *vars, const char *out);

#endif
