/*
 * ppsim bench: how fast the simulator runs, against a bare loop of the
 * same page_pool operations in the same binary.  Figures only: nothing is
 * asserted (bench/run.sh collects them).
 */
#ifndef PPSIM_BENCH_H
#define PPSIM_BENCH_H

int bench_main(int argc, char **argv);

#endif
