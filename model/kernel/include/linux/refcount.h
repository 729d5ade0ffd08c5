#ifndef PPSIM_SHIM_LINUX_REFCOUNT_H
#define PPSIM_SHIM_LINUX_REFCOUNT_H
#include <linux/types.h>
typedef struct { int refs; } refcount_t;
static inline void refcount_set(refcount_t *r, int n) { r->refs = n; }
static inline void refcount_inc(refcount_t *r) { BUG_ON(r->refs <= 0); r->refs++; }
static inline int refcount_dec_and_test(refcount_t *r)
{
	BUG_ON(r->refs <= 0);
	return --r->refs == 0;
}
#endif
