#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <xbt/config.h>
#include <xbt/log.h>
#include "world.h"

/* ---- one run, in the child ---- */

static int build_world(struct world *w, const struct sim_case *c,
		       const char **err)
{
	struct mm_params mp = c->mm;

	mp.nr_nodes = c->mem.sockets;
	w->mm = mm_create(&mp, err);
	if (!w->mm)
		return -1;
	w->mem = mem_create(&c->mem, err);
	if (!w->mem)
		return -1;
	w->pcie = pcie_create(&c->pcie, err);
	if (!w->pcie)
		return -1;
	w->link_bw = pcie_link_bw(&c->pcie);
	rxq_map_pages(&w->pages, w->mem, c->mem.sockets, c->mm.pages_per_node,
		      c->rxq.pkt_size);
	/* each channel opens on its CPU: its rings and pool live there */
	for (w->nq = 0; w->nq < c->load.queues; w->nq++) {
		struct napi *n = &w->napi[w->nq];
		int cpu = c->load.irq_cpu + w->nq % sim_queue_cpus(c);

		n->ctx = (struct kctx){ .mm = w->mm, .cpu = cpu,
					.node = cpu / c->mem.cores,
					.softirq = true };
		n->q = rxq_open(&c->rxq, w->mem, w->pcie, &w->pages, w->pol,
				&n->ctx, err);
		if (!n->q)
			return -1;
	}
	if (sim_has_consumer(c)) {
		bool reader = sim_app_reader(c);
		int cpu = reader ? c->load.app_cpu : c->load.redirect_cpu;

		/* the cpumap kthread runs with bottom halves disabled, the
		 * other port's NAPI in softirq, the reader in process
		 * context */
		w->consumer = (struct consumer){ .q = w->napi[0].q,
			.ctx = { .mm = w->mm, .cpu = cpu,
				 .node = cpu / c->mem.cores,
				 .softirq = !reader } };
		if ((reader ? rxq_attach_reader :
		     sim_port_remote(c) ? rxq_attach_port : rxq_attach_consumer)
		    (w->consumer.q, w->consumer.ctx.node)) {
			*err = "out of memory";
			return -1;
		}
		w->cons = &w->consumer;
	}
	return 0;
}

/* Every page the allocator has out is in a queue, its socket or its pool,
 * and every pool's inflight count adds up.  Returns 0, or -1 with why. */
static int check_pages(const struct world *w, char *why, size_t len)
{
	struct pp_account pools[SIM_MAX_QUEUES];
	u64 in_sockets = 0;

	for (int i = 0; i < w->nq; i++) {
		pools[i] = (struct pp_account){ w->pol, rxq_pool(w->napi[i].q),
					       rxq_pages_handed(w->napi[i].q) };
		in_sockets += rxq_pages_in_socket(w->napi[i].q);
	}
	return pp_check_pages(w->mm, pools, w->nq, in_sockets, why, len);
}

/* The model's memory; SimGrid's goes with the child process. */
static void free_world(struct world *w)
{
	for (int i = 0; i < w->nq; i++) {
		rxq_free(w->napi[i].q);
		if (w->napi[i].irq)
			sg_sem_destroy(w->napi[i].irq);
	}
	if (w->cons && w->cons->wake)
		sg_sem_destroy(w->cons->wake);
	pcie_free(w->pcie);
	mem_destroy(w->mem);
	mm_destroy(w->mm);
	if (w->rng)
		gsl_rng_free(w->rng);
	for (int d = 0; d < PCIE_NR_DIRS; d++)
		if (w->dma_wake[d])
			sg_sem_destroy(w->dma_wake[d]);
	for (int s = 0; s <= PCIE_LINK; s++)
		if (w->down_go[s])
			sg_sem_destroy(w->down_go[s]);
}

static void start_actor(const char *name, sg_host_t host,
			void (*code)(int, char **), struct world *w,
			bool daemon, const char *arg)
{
	sg_actor_t a = sg_actor_init(name, host);
	const char *argv[] = { arg, NULL };

	sg_actor_set_data(a, w);
	sg_actor_start_(a, (xbt_main_func_t)code, arg ? 1 : 0, argv);
	if (daemon)
		sg_actor_daemonize(a);
}

/* Whether two NAPIs may ever poll on one CPU at the same time: more
 * queues than CPUs, or a migration onto CPUs that overlap the old ones. */
static bool cpus_shared(const struct sim_case *c)
{
	int n = sim_queue_cpus(c), d = c->load.migrate_cpu - c->load.irq_cpu;

	return n < c->load.queues ||
	       (c->load.migrate_at >= 0 && d != 0 && abs(d) < n);
}

static void child_run(const struct sim_case *c, const struct pp_policy *pol,
		      uint64_t seed, struct sim_result *r)
{
	struct world w = { .c = c, .res = r };
	struct timespec t0, t1, c0, c1;
	const char *err = NULL;
	char platform[64], why[200];
	int platform_fd;
	double wire = 8.0 * (c->rxq.pkt_size + ETH_OVERHEAD);

	w.pol = pol;
	w.cpu_shared = cpus_shared(c);
	w.lockstep = getenv("PPSIM_LOCKSTEP") &&
		     strcmp(getenv("PPSIM_LOCKSTEP"), "0");
	w.queue_pps = (c->load.rate > 0 ? fmin(c->load.rate, c->hw.line_rate / wire)
				   : c->hw.line_rate / wire) / c->load.queues;
	/* The NIC pays for the PCIe bandwidth it used a burst at a time:
	 * few SimGrid transfers (each also pays the link's latency once, a
	 * few % of a burst's time), and half the buffer left for what
	 * arrives while one is under way. */
	w.dma_burst = c->hw.nic_buffer / 2;
	w.t_start = (c->load.migrate_at >= 0 ? c->load.migrate_at : 0) + c->load.warmup;
	w.t_end = w.t_start + c->load.duration;
	if (build_world(&w, c, &err)) {
		r->status = 1;
		snprintf(r->why, sizeof(r->why), "%s", err);
		free_world(&w);
		return;
	}
	w.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(w.rng, (unsigned long)seed);
	for (int i = 0; i < w.nq; i++)
		w.napi[i].next = gsl_ran_exponential(w.rng, 1 / w.queue_pps);
	xbt_log_control_set("root.thresh:warning");
	sg_cfg_set_string("network/model", "CM02");
	sg_cfg_set_boolean("network/crosstraffic", "no");
	sg_cfg_set_double("surf/precision", 1e-12);
	platform_fd = platform_write(c, platform, sizeof(platform));
	if (platform_fd < 0) {
		r->status = 1;
		snprintf(r->why, sizeof(r->why), "cannot write the platform: "
			 "%s", strerror(errno));
		free_world(&w);
		return;
	}
	simgrid_load_platform(platform);
	close(platform_fd);
	w.dma_wake[PCIE_UP] = sg_sem_init(0);
	w.dma_wake[PCIE_DOWN] = sg_sem_init(0);
	/* each node's memory and the root complex: a sink for what goes up,
	 * a source for what comes down */
	for (int i = 0; i <= c->mem.sockets; i++) {
		int s = nic_slot(&w, i);
		char slot[16], host[24], up[32], down[32];

		snprintf(slot, sizeof(slot), "%d", s);
		if (s == PCIE_LINK)
			snprintf(host, sizeof(host), "rc");
		else
			snprintf(host, sizeof(host), "mem%d", s);
		snprintf(up, sizeof(up), "up-%s", host);
		snprintf(down, sizeof(down), "down-%s", host);
		w.up_mb[s] = sg_mailbox_by_name(up);
		w.down_mb[s] = sg_mailbox_by_name(down);
		w.down_go[s] = sg_sem_init(0);
		start_actor("dma-sink", sg_host_by_name(host), nic_dma_sink, &w,
			    true, slot);
		start_actor("dma-source", sg_host_by_name(host), nic_dma_source,
			    &w, true, slot);
	}
	start_actor("nic-up", sg_host_by_name("nic"), nic_dma_actor, &w, true,
		    "0");
	start_actor("nic-down", sg_host_by_name("nic"), nic_dma_actor, &w,
		    true, "1");
	for (int i = 0; i < w.nq; i++) {
		char arg[16];

		snprintf(arg, sizeof(arg), "%d", i);
		w.napi[i].irq = sg_sem_init(0);
		start_actor("napi", platform_cpu_host(w.napi[i].ctx.cpu), napi_actor, &w,
			    true, arg);
	}
	if (w.cons) {
		w.cons->wake = sg_sem_init(0);
		start_actor("consumer", platform_cpu_host(w.cons->ctx.cpu),
			    consumer_actor, &w, true, NULL);
	}
	start_actor("monitor", sg_host_by_name("nic"), monitor_actor, &w,
		    false, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	simgrid_run();
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->wall_s = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	r->cpu_s = (double)(c1.tv_sec - c0.tv_sec) +
		   (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
	r->sim_packets = (double)w.b.q.rx_packets;
	monitor_summarize(&w);
	if (check_pages(&w, why, sizeof(why))) {
		r->status = 1;
		snprintf(r->why, sizeof(r->why), "page conservation violated: "
			 "%s", why);
	}
	free_world(&w);
}

int sim_start(const struct sim_case *c, const struct pp_policy *pol,
	      uint64_t seed,
	      int *fd)
{
	pid_t parent = getpid(), pid;
	int p[2];

	if (pipe(p))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		struct sim_result *r;

		/* the child dies with ppsim, however ppsim ends (an
		 * interrupted run leaves no simulation running on), and an
		 * interrupt ends it quietly: SimGrid's own handler would
		 * print every actor's backtrace */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		r = calloc(1, sizeof(*r));
		const char *buf = (const char *)r;
		size_t left = sizeof(*r);

		close(p[0]);
		child_run(c, pol, seed, r);
		while (left) {
			ssize_t n = write(p[1], buf, left);

			if (n <= 0)
				_exit(1);
			buf += n;
			left -= (size_t)n;
		}
		free(r);
		_exit(0);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

int sim_collect(int pid, int fd, struct sim_result *out)
{
	char *buf = (char *)out;
	size_t got = 0;
	int status = 0;

	while (got < sizeof(*out)) {
		ssize_t n = read(fd, buf + got, sizeof(*out) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	waitpid(pid, &status, 0);
	if (got != sizeof(*out)) {
		memset(out, 0, sizeof(*out));
		out->status = 1;
		snprintf(out->why, sizeof(out->why), "the simulation died (%s)",
			 WIFSIGNALED(status) ? strsignal(WTERMSIG(status))
					     : "no result");
		return -1;
	}
	return 0;
}

int sim_run(const struct sim_case *c, const struct pp_policy *pol,
	    uint64_t seed,
	    struct sim_result *out)
{
	int fd, pid = sim_start(c, pol, seed, &fd);

	if (pid < 0) {
		memset(out, 0, sizeof(*out));
		out->status = 1;
		snprintf(out->why, sizeof(out->why), "fork: %s",
			 strerror(errno));
		return -1;
	}
	return sim_collect(pid, fd, out);
}
