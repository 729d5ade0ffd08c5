#ifndef PPSIM_SHIM_LINUX_ATOMIC_H
#define PPSIM_SHIM_LINUX_ATOMIC_H
#include <linux/types.h>
#define atomic_set(a, v)		((a)->counter = (v))
#define atomic_read(a)			((a)->counter)
#define atomic_inc_return_relaxed(a)	(++(a)->counter)
#define atomic_long_set(a, v)		((a)->counter = (v))
#define atomic_long_read(a)		((a)->counter)
#define atomic_long_inc(a)		((a)->counter++)
#define atomic_long_sub_return(v, a)	((a)->counter -= (v))
#endif
