/* ppsim trace's events as text (trace.h); the format is in ppsim(1). */
#include <stdarg.h>
#include <string.h>
#include "trace.h"
#include "../io/datadir.h"

/* Part of an event's line, counted against TRACE_MAX_OUTPUT. */
static __attribute__((format(printf, 2, 3)))
void wprintf(struct trace_writer *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(w->out, fmt, ap);
	va_end(ap);
	if (n > 0)
		w->written += (unsigned long long)n;
}

static void write_stats(struct trace_writer *w, const struct pp_stats *s)
{
	wprintf(w, "stats alloc_fast=%llu alloc_slow=%llu "
		"alloc_empty=%llu alloc_refill=%llu alloc_waive=%llu "
		"recycle_cached=%llu recycle_cache_full=%llu "
		"recycle_ring=%llu recycle_ring_full=%llu "
		"recycle_released_refcnt=%llu hold=%u release=%u "
		"inflight=%d\n",
		(unsigned long long)s->alloc_fast,
		(unsigned long long)s->alloc_slow,
		(unsigned long long)s->alloc_empty,
		(unsigned long long)s->alloc_refill,
		(unsigned long long)s->alloc_waive,
		(unsigned long long)s->recycle_cached,
		(unsigned long long)s->recycle_cache_full,
		(unsigned long long)s->recycle_ring,
		(unsigned long long)s->recycle_ring_full,
		(unsigned long long)s->recycle_released_refcnt,
		s->hold, s->release, pp_inflight(s));
}

/* The page accounting's line; when it is broken, why on stderr too. */
static void write_pages(struct trace_writer *w, const struct trace_event *ev,
			bool over)
{
	if (!over)
		wprintf(w, "pages allocated=%llu freed=%llu held=%llu "
			"(pool cache=%u ring=%u, trace=%u) %s\n",
			ev->pages.allocated, ev->pages.freed,
			ev->pages.allocated - ev->pages.freed,
			ev->pages.cached, ev->pages.ring, ev->pages.held,
			ev->pages.why ? "VIOLATED" : "ok");
	if (ev->pages.why)
		fprintf(stderr, "%s: page accounting violated: %s\n",
			w->name, ev->pages.why);
}

static void write_line(struct trace_writer *w, const struct trace_event *ev)
{
	switch (ev->kind) {
	case TEV_POOL:
		if (ev->nid == NUMA_NO_NODE)
			wprintf(w, "pool nid=none size=%u\n", ev->size);
		else
			wprintf(w, "pool nid=%d size=%u\n", ev->nid, ev->size);
		break;
	case TEV_ALLOC:
		wprintf(w, "alloc p%u node=%d pfmemalloc=%d from=%s",
			ev->page, ev->nid, ev->pfmemalloc, ev->from);
		if (ev->waived)
			wprintf(w, " waived=%llu", ev->waived);
		wprintf(w, "\n");
		break;
	case TEV_ALLOC_FAILED:	/* the allocations of the op not made */
		if (ev->count == 1)
			wprintf(w, "alloc failed: no free page\n");
		else
			wprintf(w, "alloc failed: no free page (%ld "
				"allocations not made)\n", ev->count);
		break;
	case TEV_PUT:
		wprintf(w, "%s p%u -> %s%s\n", ev->verb, ev->page, ev->to,
			ev->cache_full ? " (cache_full)" : "");
		break;
	case TEV_GET:
		wprintf(w, "get p%u refcount=%d\n", ev->page, ev->refcount);
		break;
	case TEV_PUT_REF:
		if (!ev->refcount)
			wprintf(w, "put p%u -> freed\n", ev->page);
		else
			wprintf(w, "put p%u refcount=%d\n", ev->page,
				ev->refcount);
		break;
	case TEV_NID_UNSUPPORTED:
		wprintf(w, "%s: unsupported in %s\n", ev->verb, ev->policy);
		break;
	case TEV_NID:
		if (ev->unchanged)
			wprintf(w, "nid_changed %d (node unchanged)\n",
				ev->nid);
		else
			wprintf(w, "%s %d%s(flushed %llu)\n", ev->verb,
				ev->nid, strcmp(ev->verb, "nid_changed") ? " " :
				" -> update_nid ", ev->flushed);
		break;
	case TEV_STATS:
		write_stats(w, &ev->stats);
		break;
	case TEV_RELEASE_RETRY:
	case TEV_DESTROY:
		wprintf(w, "%s released=%u inflight=%d%s\n",
			ev->kind == TEV_DESTROY ? "destroy" : "release_retry",
			ev->released, ev->inflight,
			!ev->inflight ? " (pool freed)" :
			ev->kind == TEV_DESTROY ? " (shutdown deferred)" : "");
		break;
	case TEV_ERROR:
	case TEV_PAGES:	/* event() says them */
		break;
	}
}

/* An event's line, none begun past the bound: past it, said once at its
 * line, and the run is to stop. */
static int event(struct trace_sink *s, const struct trace_event *ev)
{
	struct trace_writer *w = (struct trace_writer *)s;
	bool over = w->written >= TRACE_MAX_OUTPUT;

	if (ev->kind == TEV_ERROR) {
		datadir_error(w->name, ev->line, "%s", ev->msg);
		return 0;
	}
	if (over)
		datadir_error(w->name, ev->line, "the events pass %d MiB of "
			      "output, a trace's most (ppsim(1)): not run "
			      "further", TRACE_MAX_OUTPUT >> 20);
	if (ev->kind == TEV_PAGES)
		write_pages(w, ev, over);
	else if (!over)
		write_line(w, ev);
	if (over)
		return TRACE_OVER;
	return ferror(w->out) ? TRACE_LOST : 0;
}

void trace_writer_init(struct trace_writer *w, FILE *out, const char *name)
{
	*w = (struct trace_writer){ .sink = { event }, .out = out,
				    .name = name };
}
