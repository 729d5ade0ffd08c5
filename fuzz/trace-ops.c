/*
 * libFuzzer harness: the trace runner's semantics, not its parser.  Each
 * input byte becomes one well-formed operation (a pool first, then alloc
 * counts, recycle/return/get/put of pages that exist, all, cpu, softirq,
 * napi, pressure, nid changes, stats, destroy and a new pool), so the
 * fuzzer's time goes into running page_pool, not into refused lines.  The
 * trace runs through every era on a small machine (2 nodes of 512 pages)
 * and each run's events are checked against a model of the trace's own
 * bookkeeping, kept here apart from model/trace/run.c:
 *   - no era breaks the page accounting (trace_exec's status 1);
 *   - pages are named p1, p2, ... as they first come; one that comes
 *     back keeps its name, and nobody references it then;
 *   - recycle and return name a page the pool holds, and it leaves it;
 *   - get and put say the page's refcount: the pool's reference (1 while
 *     it holds the page) plus the trace's extra ones, freed at 0;
 *   - the allocs make at most the pages they asked for.
 * A mismatch aborts, with the trace and the era on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "input/trace.h"
#include "report/trace.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define MAX_OPS		256
#define MAX_NAMES	8192	/* > the machine's pages: 2 x 512 */

static const struct trace_machine small = {
	.nodes = 2, .pages = 512, .max_pages = 8192,
};

/* The trace's own model of its pages, by name. */
struct shadow {
	unsigned char pool_ref[MAX_NAMES + 1];
	int extra[MAX_NAMES + 1];
	unsigned next;		/* the next name alloc gives */
};

static void fail(const char *trace, const char *era, const char *line,
		 const char *why)
{
	fprintf(stderr, "fuzz-trace-ops: %s under %s: '%s'\ntrace:\n%s",
		why, era, line, trace);
	abort();
}

/* Checks one era's events against the model. */
static void check(const char *trace, const char *era, char *events,
		  long asked)
{
	struct shadow *s = calloc(1, sizeof(*s));
	char *save = NULL;
	long allocs = 0;

	if (!s)
		return;
	s->next = 1;
	for (char *l = strtok_r(events, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		unsigned n;
		int r;
		char to[32];

		if (sscanf(l, "alloc p%u", &n) == 1) {
			/* a page is named once: one that comes back (from
			 * the pool's cache or ring, or the allocator) keeps
			 * its name, and is referenced by nobody then */
			if (n > s->next || n > MAX_NAMES || !n)
				fail(trace, era, l, "a name out of order");
			if (n < s->next && (s->pool_ref[n] || s->extra[n]))
				fail(trace, era, l, "a page handed out while "
				     "still referenced");
			if (++allocs > asked)
				fail(trace, era, l, "more pages than asked");
			s->pool_ref[n] = 1;
			s->next += n == s->next;
		} else if (sscanf(l, "recycle p%u -> %31s", &n, to) == 2 ||
			   sscanf(l, "return p%u -> %31s", &n, to) == 2) {
			if (n >= s->next || !s->pool_ref[n])
				fail(trace, era, l, "a page the pool does not "
				     "hold given back");
			s->pool_ref[n] = 0;
		} else if (sscanf(l, "get p%u refcount=%d", &n, &r) == 2) {
			if (n >= s->next || r != s->pool_ref[n] + ++s->extra[n])
				fail(trace, era, l, "get: refcount not the "
				     "pool's and the trace's");
		} else if (sscanf(l, "put p%u refcount=%d", &n, &r) == 2) {
			if (n >= s->next || !s->extra[n] ||
			    r != s->pool_ref[n] + --s->extra[n] || r < 1)
				fail(trace, era, l, "put: refcount not the "
				     "pool's and the trace's");
		} else if (sscanf(l, "put p%u -> freed", &n) == 1) {
			if (n >= s->next || s->extra[n] != 1 ||
			    s->pool_ref[n])
				fail(trace, era, l, "put: freed a page still "
				     "referenced");
			s->extra[n] = 0;
		}
	}
	free(s);
}

/* The trace an input makes: one operation a byte, the next byte its
 * argument.  Pages named are among those asked for so far (a name that
 * failed to come is refused at run time: the run stops there, checked up
 * to it). */
static size_t make_trace(const unsigned char *d, size_t size, char *buf,
			 size_t len, long *asked_out)
{
	size_t at = 0, i = 0;
	long asked = 0;
	int nodes = 2;

#define PUT(...) (at += (size_t)snprintf(buf + at, at < len ? len - at : 0, \
					 __VA_ARGS__))
	if (size && d[0] & 1) {
		nodes = 1 + (d[0] >> 1) % 2;
		PUT("nodes %d pages=%d\n", nodes, 64 << ((d[0] >> 2) % 4));
	}
	PUT("pool nid=%d size=%d\n", size > 1 ? d[1] % nodes : 0,
	    size > 1 ? (d[1] >> 1) * 8 : 0);
	for (i = 2; i + 1 < size && i / 2 < MAX_OPS && at < len; i += 2) {
		unsigned a = d[i + 1];
		unsigned page = asked ? 1 + a % (unsigned)asked : 1;

		switch (d[i] % 16) {
		case 0: case 1: case 2:
			/* mostly small counts; now and then a ring's worth */
			a = a < 240 ? 1 + a % 16 : 64 * (a - 239);
			if (asked + a > MAX_NAMES - 1)
				break;
			PUT("alloc %u\n", a);
			asked += a;
			break;
		case 3: case 4: PUT("recycle p%u\n", page); break;
		case 5: case 6: PUT("return p%u\n", page); break;
		case 7: PUT("get p%u\n", page); break;
		case 8: PUT("put p%u\n", page); break;
		case 9: PUT("%s all\n", a & 1 ? "recycle" : "return"); break;
		case 10: PUT("cpu %u\n", a % 2 ? a % 2 % (unsigned)nodes : 0);
			break;
		case 11: PUT("softirq %s\n", a & 1 ? "on" : "off"); break;
		case 12: PUT("napi %s\n", a & 1 ? "on" : "off"); break;
		case 13: PUT("pressure %u %s\n", a % (unsigned)nodes,
			     a & 2 ? "on" : "off"); break;
		case 14: PUT("%s %u\n", a & 1 ? "update_nid" : "nid_changed",
			     (a >> 1) % (unsigned)nodes); break;
		default:
			if (a < 16)
				PUT("destroy\npool nid=%u\n", a % (unsigned)nodes);
			else
				PUT("stats\n");
			break;
		}
	}
#undef PUT
	*asked_out = asked;
	return at < len ? at : 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char trace[64 * MAX_OPS];
	long asked;
	size_t n = make_trace(data, size, trace, sizeof(trace), &asked);
	struct trace_ops *ops;
	FILE *in;

	if (!n)
		return 0;
	in = fmemopen(trace, n, "r");
	if (!in)
		return 0;
	ops = trace_parse(in, "fuzz", &small);
	fclose(in);
	if (!ops)
		fail(trace, "-", "", "a trace made well-formed was refused");
	for (int i = 0; pp_eras[i]; i++) {
		char *events = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&events, &len);
		struct trace_writer w;
		int rc;

		if (!out)
			break;
		trace_writer_init(&w, out, ops->name);
		rc = trace_exec(ops, pp_eras[i], &w.sink);
		fclose(out);
		if (rc == 1)
			fail(trace, pp_eras[i]->name, "", "page accounting "
			     "broken (status 1)");
		check(trace, pp_eras[i]->name, events, asked);
		free(events);
	}
	trace_ops_free(ops);
	return 0;
}
