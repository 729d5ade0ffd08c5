/* A trace file read and checked (trace.h); model/trace/ runs it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../io/datadir.h"
#include "trace.h"

#define TRACE_LINE_MAX	512	/* characters */

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
