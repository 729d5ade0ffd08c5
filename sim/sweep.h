/*
 * ppsim sweep: a scenario at every point of a cross product of key values,
 * all points' runs in one pool of worker processes; ppsim merge joins the
 * CSVs of sweeps run elsewhere (--emit-jobs).
 */
#ifndef PPSIM_SWEEP_H
#define PPSIM_SWEEP_H

int sweep_main(int argc, char **argv);
int merge_main(int argc, char **argv);

#endif
