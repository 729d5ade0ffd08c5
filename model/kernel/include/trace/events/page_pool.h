/* ppsim shim: page_pool's tracepoints, as calls that do nothing with
 * their arguments (the trace runner prints events from the counters). */
#ifndef PPSIM_SHIM_TRACE_PAGE_POOL_H
#define PPSIM_SHIM_TRACE_PAGE_POOL_H
static inline void shim_tracepoint(const void *pool, ...) { (void)pool; }
#define trace_page_pool_release(pool, ...)	shim_tracepoint(pool, __VA_ARGS__)
#define trace_page_pool_state_release(pool, ...) shim_tracepoint(pool, __VA_ARGS__)
#define trace_page_pool_state_hold(pool, ...)	shim_tracepoint(pool, __VA_ARGS__)
#define trace_page_pool_update_nid(pool, ...)	shim_tracepoint(pool, __VA_ARGS__)
#endif
