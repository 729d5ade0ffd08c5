/* ppsim shim: one CPU's code runs at a time, so ordering is the program's. */
#ifndef PPSIM_SHIM_LINUX_COMPILER_H
#define PPSIM_SHIM_LINUX_COMPILER_H
#define READ_ONCE(x)		(*(volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define smp_wmb()		__asm__ __volatile__("" ::: "memory")
#define smp_rmb()		__asm__ __volatile__("" ::: "memory")
#define __acquires(x)
#define __releases(x)
#define __percpu
#define __must_check
#define __bitwise
#define __force
#define __init
/* the kernel's, whose message is optional */
#define static_assert(e, ...)	_Static_assert(e, #e)
#undef noinline
#define noinline		__attribute__((noinline))
#undef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#endif
