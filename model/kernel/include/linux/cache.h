#ifndef PPSIM_SHIM_LINUX_CACHE_H
#define PPSIM_SHIM_LINUX_CACHE_H
#define SMP_CACHE_BYTES			64
#define ____cacheline_aligned_in_smp	__attribute__((aligned(SMP_CACHE_BYTES)))
/* 6.12's named groups of members; the model's layout is not the kernel's,
 * so the kernel's build-time layout checks check nothing here. */
#define __cacheline_group_begin_aligned(g, ...) \
	u8 __cacheline_group_begin__##g[0]
#define __cacheline_group_end_aligned(g, ...) \
	u8 __cacheline_group_end__##g[0]
#define CACHELINE_ASSERT_GROUP_MEMBER(t, g, m)	do { } while (0)
#define CACHELINE_ASSERT_GROUP_SIZE(t, g, s)	do { } while (0)
#endif
