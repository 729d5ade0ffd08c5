#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "../io/datadir.h"
#include "trace.h"

#define TRACE_LINE_MAX	512	/* characters */
const struct trace_machine trace_machine_default = {
	.nodes = 2, .pages = 65536, .max_pages = 1 << 22,
};

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

/* What the trace holds of a page it was handed. */
struct trace_page {
	struct page *page;
	bool pool_ref;		/* the reference page_pool handed out */
	int extra_refs;		/* taken with get */
	u32 held_at;		/* its slot in held + 1, 0 if not held */
};

struct trace {
	const struct trace_machine *m;
	const char *name;
	FILE *out;
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
	unsigned long long written;	/* bytes of events, TRACE_MAX_OUTPUT */
	bool over;		/* past it: said, the trace stops */
	bool mid_line;		/* the last event line is not ended yet */
	int op_line;		/* the operation running */
};

/* An event line's text, counted against TRACE_MAX_OUTPUT: a line begun
 * is ended, none is begun past the bound. */
static __attribute__((format(printf, 2, 3)))
void tprintf(struct trace *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->over)
		return;
	if (!t->mid_line && t->written >= TRACE_MAX_OUTPUT) {
		t->over = true;
		datadir_error(t->name, t->op_line, "the events pass %d MiB "
			      "of output, a trace's most (ppsim(1)): not "
			      "run further", TRACE_MAX_OUTPUT >> 20);
		return;
	}
	va_start(ap, fmt);
	n = vfprintf(t->out, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->written += (unsigned long long)n;
	t->mid_line = !strchr(fmt, '\n');
}

/* Whether the trace is to stop: its output past the bound, or lost (the
 * reader of a pipe gone, a full disk): nothing more is worth writing. */
static bool trace_stopped(const struct trace *t)
{
	return t->over || ferror(t->out);
}

/* ---- parsing ---- */

/* A number of a trace: decimal digits, no sign, no blank, no leading 0
 * (p01 is not p1, nor alloc +2 alloc 2: one page, one count, one way). */
static int parse_num(const char *s, long min, long max, long *v)
{
	char *end;

	if (!s || !*s || strspn(s, "0123456789") != strlen(s) ||
	    (s[0] == '0' && s[1]))
		return -1;
	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || *end || *v < min || *v > max ? -1 : 0;
}

static int parse_onoff(const char *s, long *v)
{
	if (s && !strcmp(s, "on"))
		*v = 1;
	else if (s && !strcmp(s, "off"))
		*v = 0;
	else
		return -1;
	return 0;
}

/* "key=value" with a number in [min, max] */
static int parse_kv(const char *tok, const char *key, long min, long max,
		    long *v)
{
	size_t n = strlen(key);

	if (strncmp(tok, key, n) || tok[n] != '=')
		return -1;
	return parse_num(tok + n + 1, min, max, v);
}

static int parse_page(const char *s, bool all_ok, long *v)
{
	if (all_ok && s && !strcmp(s, "all")) {
		*v = 0;
		return 0;
	}
	if (!s || s[0] != 'p')
		return -1;
	return parse_num(s + 1, 1, 1L << 30, v);
}

struct trace_parser {
	const struct trace_machine *m;
	const char *name;
	int line;
	int nr_nodes;		/* of the machine the trace will have */
	bool machine_used;	/* an op needing the machine was seen */
	int errors;
};

#define BAD(...) do { datadir_error(ps->name, ps->line, __VA_ARGS__); \
		      return -1; } while (0)

static int parse_node(struct trace_parser *ps, const char *s, long *v)
{
	if (parse_num(s, 0, ps->nr_nodes - 1, v))
		BAD("'%s' is not a node: expected 0 to %d", s ? s : "",
		    ps->nr_nodes - 1);
	return 0;
}

static int parse_nodes(struct trace_parser *ps, char **arg, int nargs,
		       struct trace_op *op)
{
	op->b = ps->m->pages;
	op->c = 0;
	if (ps->machine_used)
		BAD("'nodes' must come before any other operation");
	if (nargs < 1 || parse_num(arg[0], 1, MAX_NUMNODES, &op->a))
		BAD("nodes: expected a number of nodes from 1 to %d",
		    MAX_NUMNODES);
	for (int i = 1; i < nargs; i++) {
		for (int j = 1; j < i; j++)
			if (!strncmp(arg[i], arg[j], strcspn(arg[j], "=") + 1))
				BAD("nodes: '%.*s' given twice", (int)strcspn(
				    arg[i], "="), arg[i]);
		if (!parse_kv(arg[i], "pages", 1, (long)ps->m->max_pages, &op->b))
			continue;
		if (!parse_kv(arg[i], "min", 1, (long)ps->m->max_pages, &op->c))
			continue;
		BAD("nodes: '%s': expected pages=P (1 to %ld) or min=M",
		    arg[i], (long)ps->m->max_pages);
	}
	if (op->a * op->b > (long)ps->m->max_pages)
		BAD("nodes: %ld x %ld pages: a trace's machine holds at most "
		    "%ld pages", op->a, op->b, (long)ps->m->max_pages);
	if (op->c >= op->b)
		BAD("nodes: min watermark %ld must be below pages=%ld",
		    op->c, op->b);
	ps->nr_nodes = (int)op->a;
	ps->machine_used = true;
	return 0;
}

static int parse_pool(struct trace_parser *ps, char **arg, int nargs,
		      struct trace_op *op)
{
	bool have_nid = false;

	op->b = 0;
	for (int i = 0; i < nargs; i++) {
		for (int j = 0; j < i; j++)
			if (!strncmp(arg[i], arg[j], strcspn(arg[j], "=") + 1))
				BAD("pool: '%.*s' given twice", (int)strcspn(
				    arg[i], "="), arg[i]);
		if (!strcmp(arg[i], "nid=none")) {
			op->a = NUMA_NO_NODE;
			have_nid = true;
		} else if (!strncmp(arg[i], "nid=", 4)) {
			if (parse_node(ps, arg[i] + 4, &op->a))
				return -1;
			have_nid = true;
		} else if (parse_kv(arg[i], "size", 0, 1L << 20, &op->b)) {
			BAD("pool: '%s': expected nid=N|none or size=S "
			    "(0 to 1048576)", arg[i]);
		}
	}
	if (!have_nid)
		BAD("pool: nid=N or nid=none is required");
	return 0;
}

static int parse_args(struct trace_parser *ps, const char *kw, char **arg,
		      int nargs, struct trace_op *op)
{
	static const struct { const char *kw; enum trace_opcode code;
			      int min, max; } ops[] = {
		{ "nodes", OP_NODES, 1, 3 },	{ "pool", OP_POOL, 1, 2 },
		{ "cpu", OP_CPU, 1, 1 },	{ "softirq", OP_SOFTIRQ, 1, 1 },
		{ "napi", OP_NAPI, 1, 1 },
		{ "pressure", OP_PRESSURE, 2, 2 }, { "alloc", OP_ALLOC, 0, 1 },
		{ "recycle", OP_RECYCLE, 1, 1 }, { "return", OP_RETURN, 1, 1 },
		{ "get", OP_GET, 1, 1 },	{ "put", OP_PUT, 1, 1 },
		{ "update_nid", OP_UPDATE_NID, 1, 1 },
		{ "nid_changed", OP_NID_CHANGED, 1, 1 },
		{ "stats", OP_STATS, 0, 0 },	{ "destroy", OP_DESTROY, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(ops[i].kw, kw))
			break;
	if (i == sizeof(ops) / sizeof(ops[0]))
		BAD("unknown operation '%s'", kw);
	if (nargs < ops[i].min || nargs > ops[i].max)
		BAD("%s: expected %d to %d arguments, got %d", kw,
		    ops[i].min, ops[i].max, nargs);
	op->code = ops[i].code;
	if (op->code == OP_NODES)
		return parse_nodes(ps, arg, nargs, op);
	ps->machine_used = true;
	switch (op->code) {
	case OP_POOL:
		return parse_pool(ps, arg, nargs, op);
	case OP_CPU:
	case OP_UPDATE_NID:
	case OP_NID_CHANGED:
		return parse_node(ps, arg[0], &op->a);
	case OP_SOFTIRQ:
		if (parse_onoff(arg[0], &op->a))
			BAD("softirq: expected on or off");
		return 0;
	case OP_NAPI:
		if (parse_onoff(arg[0], &op->a))
			BAD("napi: expected on or off");
		return 0;
	case OP_PRESSURE:
		if (parse_node(ps, arg[0], &op->a))
			return -1;
		if (parse_onoff(arg[1], &op->b))
			BAD("pressure: expected on or off");
		return 0;
	case OP_ALLOC:
		op->a = 1;
		if (nargs && parse_num(arg[0], 1, (long)ps->m->max_pages, &op->a))
			BAD("alloc: '%s' is not a count from 1 to %ld",
			    arg[0], (long)ps->m->max_pages);
		return 0;
	case OP_RECYCLE:
	case OP_RETURN:
	case OP_GET:
	case OP_PUT:
		if (parse_page(arg[0], op->code == OP_RECYCLE ||
				       op->code == OP_RETURN, &op->a))
			BAD("%s: '%s' is not a page name (p1, p2, ...%s%s)",
			    kw, arg[0], op->code == OP_RECYCLE ||
			    op->code == OP_RETURN ? " or all" : "",
			    arg[0] && arg[0][0] == 'p' && arg[0][1] == '0' ?
			    "; no leading 0" : "");
		return 0;
	default:
		return 0;
	}
}

static int parse_line(struct trace_parser *ps, char *text,
		      struct trace_op *op)
{
	char *tok[8], *save = NULL, *hash = strchr(text, '#');
	int n = 0;

	if (hash)
		*hash = '\0';
	for (char *t = strtok_r(text, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == 8)
			BAD("too many words");
		tok[n++] = t;
	}
	if (!n)
		return 1;
	op->line = ps->line;
	return parse_args(ps, tok[0], tok + 1, n - 1, op);
}

/* Reads every line; reports every bad one.  Returns the op count or -1. */
static long parse_trace(FILE *in, const char *name,
			const struct trace_machine *m, struct trace_op **opsp)
{
	struct trace_parser ps = { .m = m, .name = name,
				   .nr_nodes = m->nodes };
	struct trace_op *ops = NULL;
	char text[TRACE_LINE_MAX + 2];
	long n = 0, cap = 0, len, read = 0;
	int problem;

	while ((len = datadir_getline(in, text, sizeof(text), &problem)) >= 0) {
		int rc;

		ps.line++;
		/* standard input too, which has no size to check first */
		read += len + 1;
		if (read > TRACE_MAX_INPUT) {
			datadir_error(name, ps.line, "more than %d MiB: not a "
				      "trace ppsim reads", TRACE_MAX_INPUT >> 20);
			ps.errors++;
			break;
		}
		if (ps.errors >= DATADIR_MAX_ERRORS) {
			datadir_error(name, ps.line, "too many errors: not "
				      "read further");
			break;
		}
		if (problem == LINE_TOO_LONG || len > TRACE_LINE_MAX) {
			datadir_error(name, ps.line, "line longer than %d characters",
				 TRACE_LINE_MAX);
			ps.errors++;
			continue;
		}
		if (problem == LINE_NUL) {
			datadir_error(name, ps.line, "NUL byte: not a text file");
			ps.errors++;
			continue;
		}
		if (n == TRACE_MAX_OPS) {
			datadir_error(name, ps.line, "more than %d operations: "
				      "a trace's most (ppsim(1))",
				      TRACE_MAX_OPS);
			ps.errors++;
			break;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			ops = realloc(ops, cap * sizeof(*ops));
			if (!ops) {
				fprintf(stderr, "ppsim: out of memory\n");
				return -1;
			}
		}
		rc = parse_line(&ps, text, &ops[n]);
		if (rc < 0)
			ps.errors++;
		else if (rc == 0)
			n++;
	}
	if (ferror(in)) {
		datadir_error(name, ps.line + 1, "read error");
		ps.errors++;
	}
	if (ps.errors) {
		free(ops);
		return -1;
	}
	*opsp = ops;
	return n;
}

#undef BAD

/* ---- running ---- */

static int machine_create(struct trace *t, int nodes, u32 pages, u32 min,
			  int line)
{
	struct mm_params p = { nodes, pages, min };
	const char *err = NULL;

	t->mm = mm_create(&p, &err);
	if (!t->mm) {
		datadir_error(t->name, line, "nodes: %s", err);
		return -1;
	}
	t->ctx = (struct kctx){ .mm = t->mm, .cpu = 0, .node = 0,
				.softirq = true };
	t->prev = kctx_enter(&t->ctx);
	t->name_of = calloc((size_t)nodes * pages, sizeof(*t->name_of));
	t->cap_held = 2 * nodes * pages;
	t->held = calloc(t->cap_held, sizeof(*t->held));
	if (!t->name_of || !t->held) {
		datadir_error(t->name, line, "nodes: out of memory");
		return -1;
	}
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
		const char *from;
		u32 name;

		t->pol->stats(t->pool, &before);
		page = t->pol->alloc(t->pool);
		t->pol->stats(t->pool, &after);
		/* once the allocator is dry, so is every later try of this
		 * count: said once, with how many were not made (alloc
		 * 4194304 would write a line each) */
		if (!page && count - i == 1) {
			tprintf(t, "alloc failed: no free page\n");
			return 0;
		}
		if (!page) {
			tprintf(t, "alloc failed: no free page (%ld "
				"allocations not made)\n", count - i);
			return 0;
		}
		if (receive_page(t, page, &name)) {
			datadir_error(t->name, t->op_line, "alloc: out of "
				      "memory");
			return -1;
		}
		from = DELTA(alloc_fast) ? "cache" :
		       DELTA(alloc_refill) ? "ring" : "slow";
		tprintf(t, "alloc p%u node=%d pfmemalloc=%d from=%s",
			name, page_to_nid(page), page_is_pfmemalloc(page),
			from);
		if (DELTA(alloc_waive))
			tprintf(t, " waived=%llu", DELTA(alloc_waive));
		tprintf(t, "\n");
	}
	return 0;
}

static void put_one(struct trace *t, const char *verb, u32 name,
		    bool allow_direct)
{
	struct trace_page *tp = &t->pages[name - 1];
	struct pp_stats before, after;
	const char *to;

	t->pol->stats(t->pool, &before);
	tp->pool_ref = false;
	t->pol->put(t->pool, tp->page, allow_direct);
	t->pol->stats(t->pool, &after);
	unhold(t, name);
	to = DELTA(recycle_cached) ? "cache" :
	     DELTA(recycle_ring) ? "ring" :
	     DELTA(recycle_ring_full) ? "released (ring_full)" :
	     "released (released_refcnt)";
	tprintf(t, "%s p%u -> %s%s\n", verb, name, to,
		DELTA(recycle_cache_full) ? " (cache_full)" : "");
}

static int op_put_pages(struct trace *t, const struct trace_op *op)
{
	bool direct = op->code == OP_RECYCLE;
	const char *verb = direct ? "recycle" : "return";

	if (op->a == 0) {	/* all: those held now, oldest first */
		u32 n = 0, *names = malloc((t->nr_held + 1) * sizeof(*names));

		if (!names) {
			datadir_error(t->name, op->line, "%s: out of memory",
				      verb);
			return -1;
		}
		for (u32 i = 0; i < t->held_len; i++)
			if (t->held[i])
				names[n++] = t->held[i];
		for (u32 i = 0; i < n && !trace_stopped(t); i++)
			if (t->pages[names[i] - 1].pool_ref)
				put_one(t, verb, names[i], direct);
		free(names);
		return 0;
	}
	if (!page_named(t, op->a) || !page_named(t, op->a)->pool_ref) {
		datadir_error(t->name, op->line, "%s: p%ld is not a page the trace "
			 "got from alloc and still holds", verb, op->a);
		return -1;
	}
	put_one(t, verb, (u32)op->a, direct);
	return 0;
}

static int op_ref(struct trace *t, const struct trace_op *op)
{
	struct trace_page *tp = page_named(t, op->a);

	if (op->code == OP_GET) {
		if (!page_held(tp)) {
			datadir_error(t->name, op->line, "get: p%ld is not held "
				 "by the trace", op->a);
			return -1;
		}
		get_page(tp->page);
		tp->extra_refs++;
		tprintf(t, "get p%ld refcount=%d\n", op->a,
			page_ref_count(tp->page));
		return 0;
	}
	if (!tp || !tp->extra_refs) {
		datadir_error(t->name, op->line, "put: the trace holds no extra "
			 "reference on p%ld (take one with get)", op->a);
		return -1;
	}
	tp->extra_refs--;
	if (page_ref_count(tp->page) == 1)
		tprintf(t, "put p%ld -> freed\n", op->a);
	else
		tprintf(t, "put p%ld refcount=%d\n", op->a,
			page_ref_count(tp->page) - 1);
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
		tprintf(t, "%s: unsupported in %s\n", verb,
			t->pol->name);
		return;
	}
	old_nid = t->pol->nid(t->pool);
	t->pol->stats(t->pool, &before);
	if (op->code == OP_UPDATE_NID)
		t->pol->update_nid(t->pool, (int)op->a);
	else
		pp_nid_changed(t->pol, t->pool, (int)op->a);
	t->pol->stats(t->pool, &after);
	if (op->code == OP_NID_CHANGED && old_nid == op->a)
		tprintf(t, "nid_changed %ld (node unchanged)\n", op->a);
	else
		tprintf(t, "%s %ld%s(flushed %llu)\n", verb, op->a,
			op->code == OP_NID_CHANGED ? " -> update_nid " : " ",
			DELTA(release));
}

static void print_stats(struct trace *t)
{
	struct pp_stats s;

	t->pol->stats(t->pool, &s);
	tprintf(t, "stats alloc_fast=%llu alloc_slow=%llu "
		"alloc_empty=%llu alloc_refill=%llu alloc_waive=%llu "
		"recycle_cached=%llu recycle_cache_full=%llu "
		"recycle_ring=%llu recycle_ring_full=%llu "
		"recycle_released_refcnt=%llu hold=%u release=%u "
		"inflight=%d\n",
		(unsigned long long)s.alloc_fast,
		(unsigned long long)s.alloc_slow,
		(unsigned long long)s.alloc_empty,
		(unsigned long long)s.alloc_refill,
		(unsigned long long)s.alloc_waive,
		(unsigned long long)s.recycle_cached,
		(unsigned long long)s.recycle_cache_full,
		(unsigned long long)s.recycle_ring,
		(unsigned long long)s.recycle_ring_full,
		(unsigned long long)s.recycle_released_refcnt,
		s.hold, s.release, pp_inflight(&s));
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
		tprintf(t, "release_retry released=%u inflight=0 "
			"(pool freed)\n", before.hold - before.release);
		return;
	}
	t->pol->stats(t->pool, &after);
	tprintf(t, "release_retry released=%u inflight=%d\n",
		after.release - before.release, inflight);
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
		tprintf(t, "destroy released=%u inflight=%d "
			"(shutdown deferred)\n", release, inflight);
		return;
	}
	/* Everything held came back: hold - release was 0 afterwards. */
	release = before.hold - before.release;
	t->pool = NULL;
	tprintf(t, "destroy released=%u inflight=0 (pool freed)\n",
		release);
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

	if (t->pool || t->destroyed) {
		datadir_error(t->name, op->line, "pool: a trace has one pool");
		return -1;
	}
	err = t->pol->create(&p, &t->pool);
	if (err) {	/* a pool this era cannot have: bad input */
		datadir_error(t->name, op->line, "pool: %s refuses it: %s",
			      t->pol->name, strerror(-err));
		return -1;
	}
	if (p.nid == NUMA_NO_NODE)
		tprintf(t, "pool nid=none size=%u\n", p.pool_size);
	else
		tprintf(t, "pool nid=%d size=%u\n", p.nid, p.pool_size);
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
		if (!t->pool && !t->destroyed) {
			datadir_error(t->name, op->line, "no pool: create one "
				 "with 'pool nid=N' first");
			return -1;
		}
		if (needs_live_pool(op->code) && t->destroyed) {
			datadir_error(t->name, op->line, "the pool was destroyed");
			return -1;
		}
		if (!t->pool) {
			datadir_error(t->name, op->line, "the pool was freed");
			return -1;
		}
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
	struct pp_contents c = { 0, 0 };
	struct pp_account pool;
	u64 allocated = 0, freed = 0;
	u32 pool_refs = 0;
	char why[200];

	for (u32 i = 0; i < t->held_len; i++)
		if (t->held[i])
			pool_refs += t->pages[t->held[i] - 1].pool_ref;
	for (int n = 0; n < mm_nr_nodes(t->mm); n++) {
		allocated += mm_node_stats(t->mm, n)->allocated;
		freed += mm_node_stats(t->mm, n)->freed;
	}
	if (t->pool)
		t->pol->contents(t->pool, &c);
	tprintf(t, "pages allocated=%llu freed=%llu held=%llu "
		"(pool cache=%u ring=%u, trace=%u)",
		(unsigned long long)allocated, (unsigned long long)freed,
		(unsigned long long)(allocated - freed), c.cached, c.ring,
		t->nr_held);
	/* the trace's pages still of the pool, and those it alone holds */
	pool = (struct pp_account){ t->pol, t->pool, pool_refs };
	if (pp_check_pages(t->mm, &pool, t->pool ? 1 : 0,
			   t->nr_held - (t->pool ? pool_refs : 0), why,
			   sizeof(why))) {
		tprintf(t, " VIOLATED\n");
		fprintf(stderr, "%s: page accounting violated: %s\n", t->name,
			why);
		return 1;
	}
	tprintf(t, " ok\n");
	return 0;
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

struct trace_ops {
	const struct trace_machine *m;
	const char *name;
	struct trace_op *op;
	long n;
};

struct trace_ops *trace_parse(FILE *in, const char *name,
			      const struct trace_machine *m)
{
	struct trace_ops *t = calloc(1, sizeof(*t));

	if (!t) {
		fprintf(stderr, "ppsim: out of memory\n");
		return NULL;
	}
	*t = (struct trace_ops){ .m = m, .name = name };
	t->n = parse_trace(in, name, m, &t->op);
	if (t->n < 0) {
		free(t);
		return NULL;
	}
	return t;
}

void trace_ops_free(struct trace_ops *ops)
{
	if (ops)
		free(ops->op);
	free(ops);
}

int trace_exec(const struct trace_ops *ops, const struct pp_policy *pol,
	       FILE *out)
{
	const struct trace_machine *m = ops->m;
	struct trace t = { .m = m, .name = ops->name, .out = out, .pol = pol,
			   .napi = { .list_owner = -1 } };
	int status = 0;

	for (long i = 0; i < ops->n && !status; i++) {
		const struct trace_op *op = &ops->op[i];

		t.op_line = op->line;
		if (run_op(&t, op) || t.over)
			status = 2;
		else if (ferror(out))	/* said by main, as any lost output */
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
	if (t.over)
		status = 2;
	trace_free(&t);
	return status;
}

int trace_run(FILE *in, const char *name, const struct pp_policy *pol,
	      FILE *out)
{
	struct trace_ops *ops = trace_parse(in, name, &trace_machine_default);
	int status;

	if (!ops)
		return 2;
	status = trace_exec(ops, pol, out);
	trace_ops_free(ops);
	return status;
}
