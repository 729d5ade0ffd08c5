#ifndef PPSIM_SHIM_LINUX_CACHE_H
#define PPSIM_SHIM_LINUX_CACHE_H
#define SMP_CACHE_BYTES			64
#define ____cacheline_aligned_in_smp	__attribute__((aligned(SMP_CACHE_BYTES)))
#endif
