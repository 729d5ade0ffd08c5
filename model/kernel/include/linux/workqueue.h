/* ppsim shim: delayed work is noted, not run: page_pool's only delayed
 * work, the retry of a deferred release, runs when the model asks for it
 * (release_retry in model/page_pool/kernel.c). */
#ifndef PPSIM_SHIM_LINUX_WORKQUEUE_H
#define PPSIM_SHIM_LINUX_WORKQUEUE_H
#include <linux/kernel.h>
struct work_struct { void (*func)(struct work_struct *work); };
struct delayed_work { struct work_struct work; };
#define INIT_DELAYED_WORK(w, f)	((w)->work.func = (f))
#define to_delayed_work(w)	container_of(w, struct delayed_work, work)
/* Notes the work on its pool; returns true (it was not pending). */
int schedule_delayed_work(struct delayed_work *dw, unsigned long delay);
#endif
