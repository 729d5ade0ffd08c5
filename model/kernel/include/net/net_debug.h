/* ppsim shim: a kernel built without CONFIG_DEBUG_NET. */
#ifndef PPSIM_SHIM_NET_NET_DEBUG_H
#define PPSIM_SHIM_NET_NET_DEBUG_H
#include <linux/kernel.h>
#define DEBUG_NET_WARN_ON_ONCE(c)	((void)(c))
#endif
