/* ppsim shim: one CPU's code runs at a time: nothing to wait for. */
#ifndef PPSIM_SHIM_LINUX_RCUPDATE_H
#define PPSIM_SHIM_LINUX_RCUPDATE_H
#define rcu_read_lock()		do { } while (0)
#define rcu_read_unlock()	do { } while (0)
#define synchronize_net()	do { } while (0)
struct rcu_head { void *next; };
#endif
