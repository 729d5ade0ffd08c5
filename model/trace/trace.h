/*
 * The trace runner: a trace's page_pool operations (input/trace.c reads
 * them from a file, ppsim(1) says the format) run through one policy on a
 * machine of its own.  What happens is told as events to a sink
 * (report/trace.c writes them as text, one line an event); the runner
 * itself writes nothing.
 */
#ifndef PPSIM_TRACE_RUN_H
#define PPSIM_TRACE_RUN_H

#include "../page_pool/pp.h"

/* The machine of a trace that names none ('nodes'), and the most pages a
 * trace may ask for; trace_machine_default: 2 nodes of 65536 pages, 4 Mi
 * pages. */
struct trace_machine {
	int nodes;
	u32 pages;		/* per node */
	u32 max_pages;		/* in all, and in one alloc */
};
extern const struct trace_machine trace_machine_default;

enum trace_opcode {
	OP_NODES, OP_POOL, OP_CPU, OP_SOFTIRQ, OP_NAPI, OP_PRESSURE, OP_ALLOC,
	OP_RECYCLE, OP_RETURN, OP_GET, OP_PUT, OP_UPDATE_NID, OP_NID_CHANGED,
	OP_STATS, OP_DESTROY,
};

struct trace_op {
	int line;
	enum trace_opcode code;
	long a;			/* count, node, page name (0 = all), on/off */
	long b;			/* pages per node, pool size, on/off */
	long c;			/* min watermark */
};

/* A trace, read and checked (trace_parse()) for the machine m. */
struct trace_ops {
	const struct trace_machine *m;
	const char *name;
	struct trace_op *op;
	long n;
};

/* What a run tells, in the order it happens; line is the trace's line of
 * the operation (TEV_ERROR: of the error).  Pages are named by the trace:
 * page is N of pN. */
enum trace_event_kind {
	TEV_ERROR,		/* msg: bad input, the run stops (status 2) */
	TEV_POOL,		/* nid (NUMA_NO_NODE: none), size */
	TEV_ALLOC,		/* page, nid, pfmemalloc, from, waived */
	TEV_ALLOC_FAILED,	/* count: the allocations not made */
	TEV_PUT,		/* verb (recycle, return), page, to, cache_full */
	TEV_GET,		/* page, refcount */
	TEV_PUT_REF,		/* page, refcount after it (0: freed) */
	TEV_NID_UNSUPPORTED,	/* verb, by the policy */
	TEV_NID,		/* verb, nid, unchanged, flushed */
	TEV_STATS,		/* stats */
	TEV_RELEASE_RETRY,	/* released, inflight (0: the pool freed) */
	TEV_DESTROY,		/* released, inflight (0: the pool freed) */
	TEV_PAGES,		/* the accounting: pages, why (NULL: kept) */
};

struct trace_event {
	enum trace_event_kind kind;
	int line;
	const char *msg;		/* TEV_ERROR */
	const char *verb;		/* TEV_PUT, TEV_NID* */
	const char *policy;		/* TEV_NID_UNSUPPORTED: its name */
	const char *from;		/* TEV_ALLOC: cache, ring, slow */
	const char *to;			/* TEV_PUT: cache, ring, released (...) */
	u32 page;
	int nid;
	int pfmemalloc;
	bool cache_full, unchanged;
	long count;			/* TEV_ALLOC_FAILED */
	unsigned long long waived, flushed;
	int refcount;
	u32 released;
	int inflight;
	u32 size;			/* TEV_POOL */
	struct pp_stats stats;		/* TEV_STATS */
	struct {			/* TEV_PAGES */
		unsigned long long allocated, freed;
		u32 cached, ring;	/* in the pool */
		u32 held;		/* by the trace */
		const char *why;	/* the accounting broken, or NULL */
	} pages;
};

/* Where a run's events go.  event() returns 0, or what stops the run:
 * TRACE_OVER (the output past its bound, said: bad input) or TRACE_LOST
 * (what it says is lost: a reader gone, a full disk); after that it is
 * told errors alone. */
enum { TRACE_OVER = 1, TRACE_LOST };
struct trace_sink {
	int (*event)(struct trace_sink *s, const struct trace_event *ev);
};

/*
 * Runs ops through pol on a machine of its own, telling sink.  Returns an
 * exit status: 0 ok, 1 the model broke an invariant (page accounting) or
 * what was said was lost (the run stops there), 2 bad input (an
 * operation refused, or the output past its bound).
 */
int trace_exec(const struct trace_ops *ops, const struct pp_policy *pol,
	       struct trace_sink *sink);

#endif
