/* The registry of workloads: one line each. */
#include <stdio.h>
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

static bool names(const struct workload_ops *w, const char *key)
{
	for (int i = 0; w->reads && w->reads[i]; i++)
		if (!strcmp(w->reads[i], key))
			return true;
	return false;
}

bool workload_reads(const struct workload_ops *w, const char *key)
{
	if (names(w, key))
		return true;
	for (int i = 0; workloads[i]; i++)
		if (names(workloads[i], key))
			return false;
	return true;
}

void workload_readers(const char *key, char *buf, size_t len)
{
	size_t n = 0;

	*buf = '\0';
	for (int i = 0; workloads[i] && n < len; i++)
		if (names(workloads[i], key))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? ", " : "", workloads[i]->name);
}
