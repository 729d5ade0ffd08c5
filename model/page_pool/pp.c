#include <string.h>
#include "pp.h"

const struct pp_policy *const pp_eras[] = {
	&pp_v5_4, &pp_v5_5, &pp_v6_1, NULL,
};

const struct pp_policy *pp_policy_find(const struct pp_policy *const *set,
				       const char *name)
{
	for (int i = 0; set[i]; i++)
		if (!strcmp(set[i]->name, name))
			return set[i];
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
