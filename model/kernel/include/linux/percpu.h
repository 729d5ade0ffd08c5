/* ppsim shim: one per-cpu slot serves every CPU (the model runs one CPU's
 * code at a time, and page_pool only ever sums the slots). */
#ifndef PPSIM_SHIM_LINUX_PERCPU_H
#define PPSIM_SHIM_LINUX_PERCPU_H
#include <stdlib.h>
#define alloc_percpu(type)		((type *)calloc(1, sizeof(type)))
#define DEFINE_PER_CPU(type, name)	type name
#define free_percpu(p)			free(p)
#define per_cpu_ptr(p, cpu)		((void)(cpu), (p))
#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < 1; (cpu)++)
#define this_cpu_inc(x)			((x)++)
#define this_cpu_add(x, v)		((x) += (v))
#endif
