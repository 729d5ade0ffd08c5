/*
 * The execution context of the userspace kernel shim.
 *
 * Kernel-shaped code asks "which node am I on?" (numa_mem_id()) and "am I
 * serving softirq?" without naming a machine or a CPU.  The shim answers
 * from kctx_cur, the context of the CPU that is running: the one piece of
 * global mutable state in ppsim, written only here.  Whoever runs kernel
 * code on a simulated CPU (a NAPI poll, the opening of a channel, the trace
 * runner) enters that CPU's context with kctx_enter(), does not yield
 * until the kernel code returns, and leaves it with kctx_leave().
 */
#ifndef PPSIM_KERNEL_H
#define PPSIM_KERNEL_H

#include <stdbool.h>
#include <stdint.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;
typedef int64_t s64;
typedef unsigned int gfp_t;

/* One CPU's code runs at a time: atomics are plain integers. */
typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;

#define GFP_ATOMIC	0x1u
#define __GFP_NOWARN	0x2u

#define NUMA_NO_NODE	(-1)
#define MAX_NUMNODES	16	/* mem.h MEM_MAX_NODES */

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct mm;

/* A NAPI instance, as page_pool sees it: 6.12's page_pool_napi_local()
 * recycles directly when the CPU putting a page is the one polling the
 * pool's NAPI (list_owner; -1 while the instance is not scheduled).
 * poll_list stays empty: net/core/dev.h takes that as "never ran". */
struct napi_struct {
	int list_owner;		/* CPU polling it, or -1 */
	unsigned long state;	/* NAPI_STATE_* bits */
	struct { void *next, *prev; } poll_list;
};

struct kctx {
	struct mm *mm;		/* the machine's memory */
	int cpu;		/* CPU running the code */
	int node;		/* that CPU's NUMA node */
	bool softirq;		/* serving softirq (NAPI) */
};

extern struct kctx *kctx_cur;

/* Makes ctx the running context; returns the one it replaced, for
 * kctx_leave(). */
static inline struct kctx *kctx_enter(struct kctx *ctx)
{
	struct kctx *prev = kctx_cur;

	kctx_cur = ctx;
	return prev;
}

static inline void kctx_leave(struct kctx *prev)
{
	kctx_cur = prev;
}

static inline int numa_mem_id(void)
{
	return kctx_cur->node;
}

static inline int smp_processor_id(void)
{
	return kctx_cur->cpu;
}

/* Macros, as in the kernel: page_pool.c names a variable in_softirq.
 * The model has no bottom-half-disabled process context, so in_softirq()
 * (softirq served or bh disabled) and in_serving_softirq() agree. */
#define in_serving_softirq()	(kctx_cur->softirq)
#define in_softirq()		(kctx_cur->softirq)

/* A kernel BUG(): the model reached a state the kernel never can. */
void kernel_bug(const char *file, int line, const char *what)
	__attribute__((noreturn));
#define BUG_ON(cond) \
	do { if (unlikely(cond)) kernel_bug(__FILE__, __LINE__, #cond); } while (0)

#endif
