/*
 * The machine as SimGrid sees it (platform.c), private to sim/: CPUs, the
 * NIC, each node's memory channels, the root complex, PCIe and the
 * interconnect, with their bandwidths and latencies.
 */
#ifndef PPSIM_SIM_PLATFORM_H
#define PPSIM_SIM_PLATFORM_H

#include <stddef.h>
#include <simgrid/host.h>
#include "sim.h"

/* Writes the case's machine as a SimGrid platform file, a file in memory
 * whose name goes to path.  Returns its descriptor (close it once SimGrid
 * has read it), or -1 (errno). */
int platform_write(const struct sim_case *c, char *path, size_t len);
/* The host of CPU cpu, once SimGrid has loaded the platform. */
sg_host_t platform_cpu_host(int cpu);

#endif
