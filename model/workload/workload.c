/* The registry of workloads: one line each. */
#include <string.h>
#include "workload.h"

const struct workload_ops *const workloads[] = {
	&workload_xdp_drop,
	&workload_xdp_tx,
	&workload_xdp_redirect,
	&workload_tcp,
	&workload_xdp_cpumap,
	&workload_xdp_veth,
	NULL,
};

const struct workload_ops *workload_find(const char *name)
{
	for (int i = 0; workloads[i]; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

const struct workload_ops *workload_far(enum workload_far far)
{
	for (int i = 0; workloads[i]; i++)
		if (workloads[i]->far == far)
			return workloads[i];
	return NULL;
}
