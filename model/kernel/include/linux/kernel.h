/* ppsim shim: the helpers of linux/kernel.h that page_pool.c uses. */
#ifndef PPSIM_SHIM_LINUX_KERNEL_H
#define PPSIM_SHIM_LINUX_KERNEL_H
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/kconfig.h>
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BIT(n)			(1UL << (n))
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define pr_warn(...)		fprintf(stderr, "kernel: " __VA_ARGS__)
#define pr_crit(...)		fprintf(stderr, "kernel: " __VA_ARGS__)
#define WARN(c, ...)		({ int __c = !!(c); if (__c) pr_warn(__VA_ARGS__); __c; })
#define WARN_ON(c)		WARN(c, "WARN_ON(%s) at %s:%d\n", #c, __FILE__, __LINE__)
#define WARN_ONCE(c, ...)	WARN(c, __VA_ARGS__)
#define WARN_ON_ONCE(c)		WARN_ON(c)
/* checked when the kernel builds; ours builds a different layout */
#define BUILD_BUG_ON(c)		((void)sizeof(c))
/* only a memory provider's ops are checked with it: none here */
#define is_kernel_rodata(a)	((void)(a), true)
#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)
#endif
