/*
 * ppsim bench: how fast the simulator runs, against a bare loop of the
 * same page_pool operations in the same binary.  Figures only: nothing is
 * asserted (bench/run.sh collects them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmd.h"

#define BARE_OPS	(20 * 1000 * 1000)

static double now(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/*
 * The floor: page_pool alloc + recycle_direct of one page, as NAPI does
 * per XDP_DROP packet, with nothing else.  Returns wall ns per packet,
 * and CPU ns per packet in *cpu_ns.
 */
static double bare_loop(const struct pp_policy *pol, double *cpu_ns)
{
	struct mm_params mp = { .nr_nodes = 2, .pages_per_node = 65536 };
	struct pp_params pp = { 0, 1024, NULL };
	const char *err = NULL;
	struct mm *mm = mm_create(&mp, &err);
	struct kctx ctx, *prev;
	struct page *pages[64];
	struct pp_pool *pool;
	double t0, t1, c0, c1;

	*cpu_ns = -1;
	if (!mm)
		return -1;
	ctx = (struct kctx){ .mm = mm, .node = 0, .softirq = true };
	prev = kctx_enter(&ctx);
	if (pol->create(&pp, &pool)) {
		kctx_leave(prev);
		mm_destroy(mm);
		return -1;
	}
	t0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	for (int i = 0; i < BARE_OPS; i += 64) {
		/* a NAPI poll's worth: 64 out, 64 back */
		for (int k = 0; k < 64; k++)
			pages[k] = pol->alloc(pool);
		for (int k = 0; k < 64; k++)
			pol->put(pool, pages[k], true);
	}
	c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	t1 = now(CLOCK_MONOTONIC);
	pol->destroy(pool);
	mm_destroy(mm);
	kctx_leave(prev);
	*cpu_ns = (c1 - c0) * 1e9 / BARE_OPS;
	return (t1 - t0) * 1e9 / BARE_OPS;
}

int bench_main(int argc, char **argv)
{
	int help;
	/* the defaults, then what the command line says */
	struct cmd_opts o;
	struct scn_override set[CMD_MAX_SET + 2] = {
		{ .key = "duration", .value = "1s" },
		{ .key = "queues", .value = "1" },
	};
	const char *only_case, *policy;
	struct scenario *scn;
	struct rep_row row = { 0 };
	double bare, bare_cpu, sim_ns, sim_cpu;

	if ((help = cmd_parse(argc, argv, cmd_spec("bench"), &o)))
		return help > 0 ? 0 : 2;
	/* one case, one policy: bench measures a run, not a table */
	if (o.nr_cases > 1 || o.nr_policies > 1) {
		fprintf(stderr, "ppsim bench: one --case and one --policy\n");
		return 2;
	}
	only_case = o.nr_cases ? o.cases[0] : "close-drop";
	policy = o.nr_policies ? o.policies[0] : "v5.5";
	if (!pp_policy_find(cmd_policies, policy)) {
		fprintf(stderr, "ppsim bench: unknown policy '%s'\n", policy);
		return 2;
	}
	memcpy(set + 2, o.set, (size_t)o.nr_set * sizeof(*set));
	scn = scn_load(o.file, set, o.nr_set + 2, cmd_policies);
	if (!scn)
		return 2;
	row.c = scn_case_named(scn, only_case);
	if (!row.c) {
		fprintf(stderr, "%s: no case %s\n", o.file, only_case);
		scn_free(scn);
		return 2;
	}
	row.policy = pp_policy_find(cmd_policies, policy);
	bare = bare_loop(row.policy, &bare_cpu);
	o.rc.reps = 1;	/* one run, timed */
	if (cmd_run_rows(&row, 1, &o.rc, o.file)) {
		scn_free(scn);
		return 1;
	}
	sim_ns = row.res[0].wall_s * 1e9 / row.res[0].sim_packets;
	sim_cpu = row.res[0].cpu_s * 1e9 / row.res[0].sim_packets;
	/* the last three in CPU time: on a machine other jobs share, wall
	 * time also counts the time the process waited for a CPU */
	printf("case,policy,queues,duration_s,sim_packets,wall_s,"
	       "sim_mpps_per_wall_s,bare_ns_per_pkt,sim_ns_per_pkt,overhead,"
	       "bare_cpu_ns,sim_cpu_ns,cpu_overhead\n");
	printf("%s,%s,%d,%.4g,%.0f,%.3f,%.3f,%.2f,%.2f,%.1f,%.2f,%.2f,%.1f\n",
	       row.c->name, policy, row.c->sim.load.queues,
	       row.c->sim.load.duration, row.res[0].sim_packets,
	       row.res[0].wall_s, row.res[0].sim_packets / row.res[0].wall_s /
	       1e6, bare, sim_ns, sim_ns / bare, bare_cpu, sim_cpu,
	       sim_cpu / bare_cpu);
	cmd_free_results(&row, 1);
	scn_free(scn);
	return 0;
}
