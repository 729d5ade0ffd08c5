/* ppsim shim: a trace has no clock; jiffies stay at 0. */
#ifndef PPSIM_SHIM_LINUX_JIFFIES_H
#define PPSIM_SHIM_LINUX_JIFFIES_H
#define HZ			1000
#define jiffies			0UL
#define msecs_to_jiffies(m)	((unsigned long)(m))
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#endif
