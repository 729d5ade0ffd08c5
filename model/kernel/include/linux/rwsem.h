/* ppsim shim: net/core/dev.h only declares one. */
struct rw_semaphore;
