#include <stdio.h>
#include <string.h>
#include "kernel_era.h"

const struct pp_policy *const pp_eras[] = {
	&kernel_era_v5_4.pp, &kernel_era_v5_5.pp, &kernel_era_v6_1.pp,
	&kernel_era_v6_12.pp, NULL,
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

int pp_check_pages(const struct mm *mm, const struct pp_account *pools,
		   int nr_pools, u64 others, char *why, size_t len)
{
	u64 out = 0, held = others;

	for (int i = 0; i < nr_pools; i++) {
		const struct pp_account *a = &pools[i];
		struct pp_contents c;
		struct pp_stats s;

		a->pol->contents(a->pool, &c);
		a->pol->stats(a->pool, &s);
		if ((u32)pp_inflight(&s) != a->handed + c.cached + c.ring) {
			snprintf(why, len, "pool %d: page_pool inflight %d "
				 "(hold %u - release %u) != %u handed out + %u "
				 "in the pool (cache %u, ring %u)", i,
				 pp_inflight(&s), s.hold, s.release, a->handed,
				 c.cached + c.ring, c.cached, c.ring);
			return -1;
		}
		held += (u64)a->handed + c.cached + c.ring;
	}
	for (int n = 0; n < mm_nr_nodes(mm); n++)
		out += mm_node_stats(mm, n)->allocated -
		       mm_node_stats(mm, n)->freed;
	if (out != held) {
		snprintf(why, len, "the page allocator has %llu pages out; the "
			 "%d pool(s) and their holders have %llu",
			 (unsigned long long)out, nr_pools,
			 (unsigned long long)held);
		return -1;
	}
	return mm_check(mm, why, len);
}
