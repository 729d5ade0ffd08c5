/* ppsim shim: the kernel's integer types, from model/kernel. */
#ifndef PPSIM_SHIM_LINUX_TYPES_H
#define PPSIM_SHIM_LINUX_TYPES_H
#include <stddef.h>
#include "../../kernel.h"
typedef u64 dma_addr_t;
#endif
