/* ppsim shim: delayed work is kept, not run; whoever models time runs it
 * (shim_run_delayed_work) when its delay would have passed. */
#ifndef PPSIM_SHIM_LINUX_WORKQUEUE_H
#define PPSIM_SHIM_LINUX_WORKQUEUE_H
#include <linux/kernel.h>
struct work_struct { void (*func)(struct work_struct *work); };
struct delayed_work { struct work_struct work; };
#define INIT_DELAYED_WORK(w, f)	((w)->work.func = (f))
#define to_delayed_work(w)	container_of(w, struct delayed_work, work)
/* Records the work; returns true (it was not pending). */
int schedule_delayed_work(struct delayed_work *dw, unsigned long delay);
/* Takes the pending work, if any: NULL when none was scheduled. */
struct delayed_work *shim_take_delayed_work(void);
#endif
