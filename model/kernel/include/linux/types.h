/* ppsim shim: the kernel's integer types, from model/kernel. */
#ifndef PPSIM_SHIM_LINUX_TYPES_H
#define PPSIM_SHIM_LINUX_TYPES_H
#include <stddef.h>
#include "../../kernel.h"
typedef u64 dma_addr_t;
/* as in the kernel's linux/types.h; members only, no list is walked */
struct list_head { struct list_head *next, *prev; };
struct hlist_node { struct hlist_node *next, **pprev; };
#include <linux/stddef.h>
#endif
