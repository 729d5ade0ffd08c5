/*
 * index.html of a run's --out directory (report/html.c).
 */
#ifndef PPSIM_HTML_H
#define PPSIM_HTML_H
#include <stdbool.h>

/* Writes dir/index.html from the files already in dir (results.csv,
 * commit.txt, table.txt, explain.txt, the plots' SVGs): scenario and
 * machine (its [machine] name, or NULL) name the page; guesses is the text of the figures marked guesses
 * (scn_write_guesses), nr_guesses their number; uncalibrated says the
 * profile's cycles were not fitted; borrowed, NULL or whose costs the
 * run took (scn_costs_borrowed).  0, or -1 said on stderr. */
int rep_write_html(const char *dir, const char *scenario,
		   const char *machine, const char *guesses, int nr_guesses,
		   bool uncalibrated, const char *borrowed);

#endif
