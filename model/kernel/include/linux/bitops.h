#ifndef PPSIM_SHIM_LINUX_BITOPS_H
#define PPSIM_SHIM_LINUX_BITOPS_H
#define test_bit(nr, addr)	((*(addr) >> (nr)) & 1UL)
#endif
