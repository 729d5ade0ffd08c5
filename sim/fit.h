/*
 * ppsim calibrate: fits the scenario's free parameters ([calibrate] free)
 * on its calibration cases ([calibrate] cases) only, with GSL's nonlinear
 * least squares, and writes them to a calibration file the scenario
 * includes.
 *
 * ppsim validate: runs every case with a measured figure and prints the
 * prediction beside it, in or out of the fit, the mean absolute error of
 * the out-of-fit rows and whether each before/after change has the
 * measured sign.
 */
#ifndef PPSIM_FIT_H
#define PPSIM_FIT_H

int calibrate_main(int argc, char **argv);
int validate_main(int argc, char **argv);

#endif
