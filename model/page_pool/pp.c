#include <string.h>
#include "pp.h"

#include "config.h"

/* The fuzzers are built from the project's sources only. */
#if defined(PPSIM_HAVE_KERNEL) && !defined(PPSIM_FUZZ)
#define WITH_KERNEL_POLICY
extern const struct pp_policy pp_kernel;
#endif

const struct pp_policy *const pp_policies[] = {
	&pp_v5_4, &pp_v5_5, &pp_v6_1,
#ifdef WITH_KERNEL_POLICY
	&pp_kernel,
#endif
	NULL,
};

const struct pp_policy *pp_policy_find(const char *name)
{
	for (int i = 0; pp_policies[i]; i++)
		if (!strcmp(pp_policies[i]->name, name))
			return pp_policies[i];
	return NULL;
}

bool pp_nid_changed(const struct pp_policy *pol, struct pp_pool *pool,
		    int nid)
{
	if (!pol->update_nid)
		return false;
	if (unlikely(pol->nid(pool) != nid))
		pol->update_nid(pool, nid);
	return true;
}
