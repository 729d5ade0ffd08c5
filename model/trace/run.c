/* The trace runner (trace.h): a trace's operations through one policy. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"

const struct trace_machine trace_machine_default = {
	.nodes = 2, .pages = 65536, .max_pages = 1 << 22,
};

/* What the trace holds of a page it was handed. */
struct trace_page {
	struct page *page;
	bool pool_ref;		/* the reference page_pool handed out */
	int extra_refs;		/* taken with get */
	u32 held_at;		/* its slot in held + 1, 0 if not held */
};

struct trace {
	const struct trace_machine *m;
	struct trace_sink *sink;
	const struct pp_policy *pol;
	struct mm *mm;
	struct kctx ctx;
	struct kctx *prev;	/* the context before the machine's */
	struct pp_pool *pool;
	struct napi_struct napi;	/* the pool's NAPI (napi on|off) */
	bool destroyed;		/* page_pool_destroy() was called */
	struct trace_page *pages;	/* by name: pages[0] is p1 */
	u32 nr_named, cap_named;
	u32 *name_of;		/* pfn -> name, 0 if never handed out */
	/* names held, oldest first, with holes (0) where one was let go:
	 * a page is let go in O(1) (held_at), and the holes are squeezed
	 * out when the array is full, at least half of it holes */
	u32 *held;
	u32 held_len, cap_held;	/* slots used, and of the array */
	u32 nr_held;		/* names held */
	int stop;		/* the sink's TRACE_OVER or TRACE_LOST */
	int op_line;		/* the operation running */
};

/* Tells the sink ev, of the operation running unless it names its line;
 * once the sink said stop, it is told nothing more but errors. */
static void tell(struct trace *t, struct trace_event *ev)
{
	int stop;

	if (t->stop && ev->kind != TEV_ERROR)
		return;
	if (!ev->line)
		ev->line = t->op_line;
	stop = t->sink->event(t->sink, ev);
	if (!t->stop)
		t->stop = stop;
}

/* Bad input at line: said, and the run stops (status 2). */
static __attribute__((format(printf, 3, 4)))
int refuse(struct trace *t, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tell(t, &(struct trace_event){ .kind = TEV_ERROR, .line = line,
				       .msg = msg });
	return -1;
}

/* Whether the trace is to stop: its output past the bound, or lost (the
 * reader of a pipe gone, a full disk): nothing more is worth telling. */
static bool trace_stopped(const struct trace *t)
{
	return t->stop;
}

static int machine_create(struct trace *t, int nodes, u32 pages, u32 min,
			  int line)
{
	struct mm_params p = { .nr_nodes = nodes, .pages_per_node = pages,
			       .wmark_min = min };
	const char *err = NULL;

	t->mm = mm_create(&p, &err);
	if (!t->mm)
		return refuse(t, line, "nodes: %s", err);
	t->ctx = (struct kctx){ .mm = t->mm, .cpu = 0, .node = 0,
				.softirq = true };
	t->prev = kctx_enter(&t->ctx);
	t->name_of = calloc((size_t)nodes * pages, sizeof(*t->name_of));
	t->cap_held = 2 * nodes * pages;
	t->held = calloc(t->cap_held, sizeof(*t->held));
	if (!t->name_of || !t->held)
		return refuse(t, line, "nodes: out of memory");
	return 0;
}

static struct trace_page *page_named(struct trace *t, long name)
{
	return name >= 1 && (u32)name <= t->nr_named ? &t->pages[name - 1]
						     : NULL;
}

static bool page_held(const struct trace_page *tp)
{
	return tp && (tp->pool_ref || tp->extra_refs);
}

/* Squeezes the holes out of held, keeping the order. */
static void compact_held(struct trace *t)
{
	u32 n = 0;

	for (u32 i = 0; i < t->held_len; i++) {
		u32 name = t->held[i];

		if (!name)
			continue;
		t->held[n] = name;
		t->pages[name - 1].held_at = ++n;
	}
	t->held_len = n;
}

/* Name a page the trace receives, and hold it: O(1), amortized. */
static int receive_page(struct trace *t, struct page *page, u32 *namep)
{
	u32 name = t->name_of[page->pfn];

	if (!name) {
		if (t->nr_named == t->cap_named) {
			u32 cap = t->cap_named ? 2 * t->cap_named : 1024;
			struct trace_page *p = realloc(t->pages,
						       cap * sizeof(*p));

			if (!p)
				return -1;
			t->pages = p;
			t->cap_named = cap;
		}
		name = ++t->nr_named;
		t->name_of[page->pfn] = name;
		t->pages[name - 1] = (struct trace_page){ .page = page };
	}
	t->pages[name - 1].pool_ref = true;
	/* a page comes back from page_pool only when the trace let it
	 * go: it is never held twice */
	if (!t->pages[name - 1].held_at) {
		/* full: at most half of it names held (one a page) */
		if (t->held_len == t->cap_held)
			compact_held(t);
		t->held[t->held_len++] = name;
		t->pages[name - 1].held_at = t->held_len;
		t->nr_held++;
	}
	*namep = name;
	return 0;
}

/* Lets a page go once the trace holds no reference: O(1). */
static void unhold(struct trace *t, u32 name)
{
	struct trace_page *tp = &t->pages[name - 1];

	if (page_held(tp) || !tp->held_at)
		return;
	t->held[tp->held_at - 1] = 0;
	tp->held_at = 0;
	t->nr_held--;
}

#define DELTA(field) ((unsigned long long)(after.field - before.field))

static int op_alloc(struct trace *t, long count)
{
	for (long i = 0; i < count && !trace_stopped(t); i++) {
		struct pp_stats before, after;
		struct page *page;
		u32 name;

		t->pol->stats(t->pool, &before);
		page = t->pol->alloc(t->pool);
		t->pol->stats(t->pool, &after);
		/* once the allocator is dry, so is every later try of this
		 * count: said once, with how many were not made (alloc
		 * 4194304 would write a line each) */
		if (!page) {
			tell(t, &(struct trace_event){ .kind = TEV_ALLOC_FAILED,
						       .count = count - i });
			return 0;
		}
		if (receive_page(t, page, &name))
			return refuse(t, t->op_line, "alloc: out of memory");
		tell(t, &(struct trace_event){ .kind = TEV_ALLOC,
			.page = name, .nid = page_to_nid(page),
			.pfmemalloc = page_is_pfmemalloc(page),
			.from = DELTA(alloc_fast) ? "cache" :
				DELTA(alloc_refill) ? "ring" : "slow",
			.waived = DELTA(alloc_waive) });
	}
	return 0;
}

static void put_one(struct trace *t, const char *verb, u32 name,
		    bool allow_direct)
{
	struct trace_page *tp = &t->pages[name - 1];
	struct pp_stats before, after;

	t->pol->stats(t->pool, &before);
	tp->pool_ref = false;
	t->pol->put(t->pool, tp->page, allow_direct);
	t->pol->stats(t->pool, &after);
	unhold(t, name);
	tell(t, &(struct trace_event){ .kind = TEV_PUT, .verb = verb,
		.page = name,
		.to = DELTA(recycle_cached) ? "cache" :
		      DELTA(recycle_ring) ? "ring" :
		      DELTA(recycle_ring_full) ? "released (ring_full)" :
		      "released (released_refcnt)",
		.cache_full = DELTA(recycle_cache_full) });
}

static int op_put_pages(struct trace *t, const struct trace_op *op)
{
	bool direct = op->code == OP_RECYCLE;
	const char *verb = direct ? "recycle" : "return";

	if (op->a == 0) {	/* all: those held now, oldest first */
		u32 n = 0, *names = malloc((t->nr_held + 1) * sizeof(*names));

		if (!names)
			return refuse(t, op->line, "%s: out of memory", verb);
		for (u32 i = 0; i < t->held_len; i++)
			if (t->held[i])
				names[n++] = t->held[i];
		for (u32 i = 0; i < n && !trace_stopped(t); i++)
			if (t->pages[names[i] - 1].pool_ref)
				put_one(t, verb, names[i], direct);
		free(names);
		return 0;
	}
	if (!page_named(t, op->a) || !page_named(t, op->a)->pool_ref)
		return refuse(t, op->line, "%s: p%ld is not a page the trace "
			      "got from alloc and still holds", verb, op->a);
	put_one(t, verb, (u32)op->a, direct);
	return 0;
}

static int op_ref(struct trace *t, const struct trace_op *op)
{
	struct trace_page *tp = page_named(t, op->a);

	if (op->code == OP_GET) {
		if (!page_held(tp))
			return refuse(t, op->line, "get: p%ld is not held by "
				      "the trace", op->a);
		get_page(tp->page);
		tp->extra_refs++;
		tell(t, &(struct trace_event){ .kind = TEV_GET,
			.page = (u32)op->a,
			.refcount = page_ref_count(tp->page) });
		return 0;
	}
	if (!tp || !tp->extra_refs)
		return refuse(t, op->line, "put: the trace holds no extra "
			      "reference on p%ld (take one with get)", op->a);
	tp->extra_refs--;
	tell(t, &(struct trace_event){ .kind = TEV_PUT_REF,
		.page = (u32)op->a, .refcount = page_ref_count(tp->page) - 1 });
	put_page(tp->page);
	unhold(t, (u32)op->a);
	return 0;
}

static void op_nid(struct trace *t, const struct trace_op *op)
{
	const char *verb = op->code == OP_UPDATE_NID ? "update_nid"
						      : "nid_changed";
	struct pp_stats before, after;
	int old_nid;

	if (!t->pol->update_nid) {
		tell(t, &(struct trace_event){ .kind = TEV_NID_UNSUPPORTED,
					       .verb = verb,
					       .policy = t->pol->name });
		return;
	}
	old_nid = t->pol->nid(t->pool);
	t->pol->stats(t->pool, &before);
	if (op->code == OP_UPDATE_NID)
		t->pol->update_nid(t->pool, (int)op->a);
	else
		pp_nid_changed(t->pol, t->pool, (int)op->a);
	t->pol->stats(t->pool, &after);
	tell(t, &(struct trace_event){ .kind = TEV_NID, .verb = verb,
		.nid = (int)op->a,
		.unchanged = op->code == OP_NID_CHANGED && old_nid == op->a,
		.flushed = DELTA(release) });
}

static void print_stats(struct trace *t)
{
	struct trace_event ev = { .kind = TEV_STATS };

	t->pol->stats(t->pool, &ev.stats);
	tell(t, &ev);
}

/* The deferred work of a stalled destroy: the kernel retries every
 * second; a trace has no clock, so it retries after each page comes back. */
static void release_retry(struct trace *t)
{
	struct pp_stats before, after;
	int inflight;

	t->pol->stats(t->pool, &before);
	inflight = t->pol->release_retry(t->pool);
	if (!inflight) {
		t->pool = NULL;
		tell(t, &(struct trace_event){ .kind = TEV_RELEASE_RETRY,
			.released = before.hold - before.release });
		return;
	}
	t->pol->stats(t->pool, &after);
	tell(t, &(struct trace_event){ .kind = TEV_RELEASE_RETRY,
		.released = after.release - before.release,
		.inflight = inflight });
}

static void op_destroy(struct trace *t)
{
	struct pp_stats before;
	u32 release = 0;
	int inflight;

	t->pol->stats(t->pool, &before);
	inflight = t->pol->destroy(t->pool);
	t->destroyed = true;
	if (inflight) {
		struct pp_stats after;

		t->pol->stats(t->pool, &after);
		release = after.release - before.release;
		tell(t, &(struct trace_event){ .kind = TEV_DESTROY,
			.released = release, .inflight = inflight });
		return;
	}
	/* Everything held came back: hold - release was 0 afterwards. */
	release = before.hold - before.release;
	t->pool = NULL;
	tell(t, &(struct trace_event){ .kind = TEV_DESTROY,
				       .released = release });
}

static bool needs_live_pool(enum trace_opcode code)
{
	return code == OP_ALLOC || code == OP_UPDATE_NID ||
	       code == OP_NID_CHANGED || code == OP_STATS ||
	       code == OP_DESTROY;
}

static int op_pool(struct trace *t, const struct trace_op *op)
{
	struct pp_params p = { (int)op->a, (unsigned int)op->b, &t->napi };
	int err;

	if (t->pool || t->destroyed)
		return refuse(t, op->line, "pool: a trace has one pool");
	err = t->pol->create(&p, &t->pool);
	if (err)	/* a pool this era cannot have: bad input */
		return refuse(t, op->line, "pool: %s refuses it: %s",
			      t->pol->name, strerror(-err));
	tell(t, &(struct trace_event){ .kind = TEV_POOL, .nid = p.nid,
				       .size = p.pool_size });
	return 0;
}

static int run_op(struct trace *t, const struct trace_op *op)
{
	if (op->code == OP_NODES)
		return machine_create(t, (int)op->a, (u32)op->b, (u32)op->c,
				      op->line);
	if (!t->mm && machine_create(t, t->m->nodes, t->m->pages, 0, op->line))
		return -1;
	if (needs_live_pool(op->code) || op->code == OP_RECYCLE ||
	    op->code == OP_RETURN) {
		if (!t->pool && !t->destroyed)
			return refuse(t, op->line, "no pool: create one with "
				      "'pool nid=N' first");
		if (needs_live_pool(op->code) && t->destroyed)
			return refuse(t, op->line, "the pool was destroyed");
		if (!t->pool)
			return refuse(t, op->line, "the pool was freed");
	}
	switch (op->code) {
	case OP_NODES:	/* created the machine above */
		return 0;
	case OP_POOL:
		return op_pool(t, op);
	case OP_CPU:
		t->ctx.node = (int)op->a;
		t->ctx.cpu = (int)op->a;
		return 0;
	case OP_SOFTIRQ:
		t->ctx.softirq = op->a;
		return 0;
	case OP_NAPI:
		/* ____napi_schedule() on this CPU, or napi_complete_done() */
		t->napi.list_owner = op->a ? t->ctx.cpu : -1;
		return 0;
	case OP_PRESSURE:
		mm_set_pressure(t->mm, (int)op->a, op->b);
		return 0;
	case OP_ALLOC:
		return op_alloc(t, op->a);
	case OP_RECYCLE:
	case OP_RETURN:
		return op_put_pages(t, op);
	case OP_GET:
	case OP_PUT:
		return op_ref(t, op);
	case OP_UPDATE_NID:
	case OP_NID_CHANGED:
		op_nid(t, op);
		return 0;
	case OP_STATS:
		print_stats(t);
		return 0;
	case OP_DESTROY:
		op_destroy(t);
		return 0;
	}
	return 0;
}

/*
 * Every page the machine handed out is in the pool (cache or ring) or held
 * by the trace; and a live pool's inflight count (hold - release) is what
 * it holds plus what it handed to the trace (pp_check_pages, as every run
 * of the model ends).
 */
static int check_accounting(struct trace *t)
{
	struct trace_event ev = { .kind = TEV_PAGES };
	struct pp_contents c = { 0, 0 };
	struct pp_account pool;
	u32 pool_refs = 0;
	char why[200];

	for (u32 i = 0; i < t->held_len; i++)
		if (t->held[i])
			pool_refs += t->pages[t->held[i] - 1].pool_ref;
	for (int n = 0; n < mm_nr_nodes(t->mm); n++) {
		ev.pages.allocated += mm_node_stats(t->mm, n)->allocated;
		ev.pages.freed += mm_node_stats(t->mm, n)->freed;
	}
	if (t->pool)
		t->pol->contents(t->pool, &c);
	ev.pages.cached = c.cached;
	ev.pages.ring = c.ring;
	ev.pages.held = t->nr_held;
	/* the trace's pages still of the pool, and those it alone holds */
	pool = (struct pp_account){ t->pol, t->pool, pool_refs };
	if (pp_check_pages(t->mm, &pool, t->pool ? 1 : 0,
			   t->nr_held - (t->pool ? pool_refs : 0), why,
			   sizeof(why)))
		ev.pages.why = why;
	tell(t, &ev);
	return ev.pages.why ? 1 : 0;
}

static void trace_free(struct trace *t)
{
	if (t->pool)
		t->pol->forget(t->pool);
	free(t->pages);
	free(t->name_of);
	free(t->held);
	mm_destroy(t->mm);
	if (t->mm)
		kctx_leave(t->prev);
}

int trace_exec(const struct trace_ops *ops, const struct pp_policy *pol,
	       struct trace_sink *sink)
{
	const struct trace_machine *m = ops->m;
	struct trace t = { .m = m, .sink = sink, .pol = pol,
			   .napi = { .list_owner = -1 } };
	int status = 0;

	for (long i = 0; i < ops->n && !status; i++) {
		const struct trace_op *op = &ops->op[i];

		t.op_line = op->line;
		if (run_op(&t, op) || t.stop == TRACE_OVER)
			status = 2;
		else if (t.stop)	/* lost: said by main, as any lost output */
			status = 1;
		else if (t.destroyed && t.pool &&
			 (op->code == OP_RECYCLE || op->code == OP_RETURN ||
			  op->code == OP_PUT))
			release_retry(&t);
	}
	if (!status && !t.mm && machine_create(&t, m->nodes, m->pages, 0, 1))
		status = 2;
	if (!status)
		status = check_accounting(&t);
	if (t.stop == TRACE_OVER)
		status = 2;
	trace_free(&t);
	return status;
}
