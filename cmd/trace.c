/* ppsim trace: a file of page_pool operations through one era or all. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "../io/datadir.h"
#include "../input/trace.h"
#include "../report/trace.h"

/* The policies this binary has: a kernel tree's is named by whoever
 * configured ppsim. */
static void print_policies(FILE *f)
{
	int w = 6;

	fprintf(f, "\nPolicies:\n");
	for (int i = 0; cmd_policies[i]; i++)
		if ((int)strlen(cmd_policies[i]->name) > w)
			w = (int)strlen(cmd_policies[i]->name);
	/* a kernel tree's says its source and sha256: wrapped */
	for (int i = 0; cmd_policies[i]; i++) {
		fprintf(f, "  %-*s ", w, cmd_policies[i]->name);
		datadir_put_wrapped(f, cmd_policies[i]->summary, w + 3, w + 3,
				    79);
	}
}

static void trace_usage(FILE *f)
{
	cmd_usage(f, cmd_spec("trace"));
	print_policies(f);
}

/* The trace, read and checked once, whatever the number of policies:
 * standard input cannot be read twice. */
static struct trace_ops *read_trace(const char *path)
{
	char found[PATH_MAX];
	struct trace_ops *ops;
	FILE *in;

	if (!strcmp(path, "-"))
		return trace_parse(stdin, "<stdin>", &trace_machine_default);
	in = datadir_fopen(path, found, sizeof(found));
	if (!in) {
		fprintf(stderr, "%s: cannot open: %s\n", path,
			datadir_strerror(errno));
		return NULL;
	}
	ops = trace_parse(in, path, &trace_machine_default);
	fclose(in);
	return ops;
}

int trace_main(int argc, char **argv)
{
	const struct pp_policy *run[CMD_MAX_NAMES + 32];
	int nr = 0, status = 0, help;
	struct trace_ops *ops;
	struct cmd_opts o;

	if ((help = cmd_parse(argc, argv, cmd_spec("trace"), &o))) {
		if (help > 0)	/* the policies after the usage */
			print_policies(stdout);
		return help > 0 ? 0 : 2;
	}
	for (int i = 0; i < o.nr_policies; i++) {
		const struct pp_policy *pol = pp_policy_find(cmd_policies,
							     o.policies[i]);

		if (!strcmp(o.policies[i], "all")) {
			nr = 0;	/* every one, once */
			break;
		}
		if (!pol) {
			fprintf(stderr, "ppsim trace: unknown policy '%s'\n",
				o.policies[i]);
			trace_usage(stderr);
			return 2;
		}
		run[nr++] = pol;
	}
	if (!nr)
		for (int i = 0; cmd_policies[i]; i++)
			run[nr++] = cmd_policies[i];
	ops = read_trace(o.file);
	if (!ops)
		return 2;
	/* up to bad input, or output lost (a reader gone, a full disk):
	 * main says that, and nothing more is worth running */
	for (int i = 0; i < nr && status != 2 && !ferror(stdout); i++) {
		struct trace_writer w;
		int rc;

		/* one policy asked for: its events alone, as they were */
		if (o.nr_policies != 1 || nr != 1)
			printf("== policy %s\n", run[i]->name);
		fflush(stdout);
		trace_writer_init(&w, stdout, ops->name);
		rc = trace_exec(ops, run[i], &w.sink);
		status = rc > status ? rc : status;
	}
	trace_ops_free(ops);
	return status;
}
