/*
 * ppsim run: every case of a scenario under every policy it compares,
 * with replications, as a table, CSV or JSON.
 */
#ifndef PPSIM_RUN_H
#define PPSIM_RUN_H

/* The command; returns the exit status. */
int run_main(int argc, char **argv);

#endif
