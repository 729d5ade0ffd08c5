/* ppsim shim: locks that catch a double lock or an unlock of a free lock
 * (the model runs one CPU's code at a time; a lock can never be held). */
#ifndef PPSIM_SHIM_LINUX_SPINLOCK_H
#define PPSIM_SHIM_LINUX_SPINLOCK_H
#include <linux/types.h>
typedef struct { int locked; } spinlock_t;
static inline void spin_lock_init(spinlock_t *l) { l->locked = 0; }
static inline void spin_lock(spinlock_t *l) { BUG_ON(l->locked); l->locked = 1; }
static inline void spin_unlock(spinlock_t *l) { BUG_ON(!l->locked); l->locked = 0; }
/* no hard irqs in the model */
#define lockdep_assert_no_hardirq()	do { } while (0)
#define spin_lock_bh(l)			spin_lock(l)
#define spin_unlock_bh(l)		spin_unlock(l)
#define spin_lock_irq(l)		spin_lock(l)
#define spin_unlock_irq(l)		spin_unlock(l)
#define spin_lock_irqsave(l, f)		do { (f) = 0; spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, f)	do { (void)(f); spin_unlock(l); } while (0)
#endif
