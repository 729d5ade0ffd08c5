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
#include "consumer.h"
#include "monitor.h"
#include "napi.h"
#include "nic.h"
#include "platform.h"

#define ETH_OVERHEAD	24	/* preamble, SFD, FCS, inter-frame gap: bytes */

/* ---- one run, in the child ---- */

/* One run: the model's objects, which it owns, and each actor's data. */
struct run {
	const struct sim_case *c;
	const struct pp_policy *pol;
	struct mm *mm;
	struct mem *mem;
	struct pcie *pcie;	/* the NIC's read tags */
	struct rxq_pages pages;
	gsl_rng *rng;
	struct nic nic;		/* the DMA engines', sinks' and sources' */
	struct napi napi[SIM_MAX_QUEUES];	/* nic.nq of them */
	struct consumer consumer;
	struct consumer *cons;	/* &consumer, or NULL: no consumer actor */
	struct monitor mon;
};

/* The consumer's CPU and context, its side of queue 0 in the model. */
static int build_consumer(struct run *w, const char **err)
{
	const struct sim_case *c = w->c;
	bool reader = sim_app_reader(c);
	int cpu = reader ? c->load.app_cpu : c->load.redirect_cpu;

	/* the cpumap kthread runs with bottom halves disabled, the other
	 * port's NAPI in softirq, the reader in process context */
	w->consumer = (struct consumer){ .q = w->napi[0].q, .c = c,
		.nic = &w->nic,
		.ctx = { .mm = w->mm, .cpu = cpu,
			 .node = mem_node_of_cpu(&c->mem, cpu),
			 .softirq = !reader } };
	if (rxq_attach(w->consumer.q, w->consumer.ctx.node)) {
		*err = "out of memory";
		return -1;
	}
	w->cons = &w->consumer;
	w->nic.port_irq = consumer_port_irq;
	w->nic.port_irq_data = w->cons;
	return 0;
}

/* The model's objects: the page allocator, the memory system, PCIe, the
 * queues and their pools, the consumer's side.  Returns 0, or -1 with
 * *err. */
static int build_model(struct run *w, const char **err)
{
	const struct sim_case *c = w->c;
	struct mm_params mp = c->mm;
	struct rxq_config rc = c->rxq;	/* rxq_open copies it */

	mp.nr_nodes = mem_nr_nodes(&c->mem);
	mp.nodes_per_socket = mem_nodes_per_socket(&c->mem);
	w->mm = mm_create(&mp, err);
	if (!w->mm)
		return -1;
	w->mem = mem_create(&c->mem, err);
	if (!w->mem)
		return -1;
	w->pcie = pcie_create(&c->pcie, err);
	if (!w->pcie)
		return -1;
	w->nic.link_bw = pcie_link_bw(&c->pcie);
	/* the table's cycles, moved to this core's mitigation */
	cpu_costs_mitigate(&rc.cost, &c->cpu);
	rxq_map_pages(&w->pages, w->mem, mem_nr_nodes(&c->mem),
		      c->mm.pages_per_node, c->rxq.pkt_size);
	/* each channel opens on its CPU: its rings and pool live there */
	for (w->nic.nq = 0; w->nic.nq < c->load.queues; w->nic.nq++) {
		int i = w->nic.nq;
		struct napi *n = &w->napi[i];
		int cpu = c->load.irq_cpu + i % sim_queue_cpus(c);

		n->ctx = (struct kctx){ .mm = w->mm, .cpu = cpu,
					.node = mem_node_of_cpu(&c->mem, cpu),
					.softirq = true };
		n->q = rxq_open(&rc, w->mem, w->pcie, &w->pages, w->pol,
				&n->ctx, err);
		if (!n->q)
			return -1;
		w->nic.queue[i].q = n->q;
	}
	return sim_has_consumer(c) ? build_consumer(w, err) : 0;
}

/* Every page the allocator has out is in a queue, its socket or its pool,
 * and every pool's inflight count adds up.  Returns 0, or -1 with why. */
static int check_pages(const struct run *w, char *why, size_t len)
{
	struct pp_account pools[SIM_MAX_QUEUES];
	u64 in_sockets = 0;

	for (int i = 0; i < w->nic.nq; i++) {
		pools[i] = (struct pp_account){ w->pol, rxq_pool(w->napi[i].q),
					       rxq_pages_handed(w->napi[i].q) };
		in_sockets += rxq_pages_in_socket(w->napi[i].q);
	}
	return pp_check_pages(w->mm, pools, w->nic.nq, in_sockets, why, len);
}

/* The model's memory; SimGrid's goes with the child process. */
static void free_run(struct run *w)
{
	for (int i = 0; i < w->nic.nq; i++) {
		rxq_free(w->napi[i].q);
		if (w->nic.queue[i].irq)
			sg_sem_destroy(w->nic.queue[i].irq);
	}
	if (w->cons && w->cons->wake)
		sg_sem_destroy(w->cons->wake);
	pcie_free(w->pcie);
	mem_destroy(w->mem);
	mm_destroy(w->mm);
	if (w->rng)
		gsl_rng_free(w->rng);
	for (int d = 0; d < PCIE_NR_DIRS; d++)
		if (w->nic.dma[d].wake)
			sg_sem_destroy(w->nic.dma[d].wake);
	for (int s = 0; s <= PCIE_LINK; s++)
		if (w->nic.end[s].go)
			sg_sem_destroy(w->nic.end[s].go);
}

static void start_actor(const char *name, sg_host_t host,
			void (*code)(int, char **), void *data, bool daemon)
{
	sg_actor_t a = sg_actor_init(name, host);
	const char *argv[] = { NULL };

	sg_actor_set_data(a, data);
	sg_actor_start_(a, (xbt_main_func_t)code, 0, argv);
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

/* What the actors share, set before any starts: the NIC's arrivals and
 * burst, each NAPI's view of the run, the monitor's window. */
static void wire_run(struct run *w, struct sim_result *r)
{
	const struct sim_case *c = w->c;
	double wire = 8.0 * (c->rxq.pkt_size + ETH_OVERHEAD);
	bool lockstep = getenv("PPSIM_LOCKSTEP") &&
			strcmp(getenv("PPSIM_LOCKSTEP"), "0");

	w->nic.c = c;
	w->nic.arr.queue_pps = (c->load.rate > 0 ?
				fmin(c->load.rate, c->hw.line_rate / wire) :
				c->hw.line_rate / wire) / c->load.queues;
	/* The NIC pays for the PCIe bandwidth it used a burst at a time:
	 * few SimGrid transfers (each also pays the link's latency once, a
	 * few % of a burst's time), and half the buffer left for what
	 * arrives while one is under way. */
	w->nic.dma_burst = c->hw.nic_buffer / 2;
	for (int d = 0; d < PCIE_NR_DIRS; d++)
		w->nic.dma[d] = (struct nic_dma){ .nic = &w->nic, .dir = d };
	for (int i = 0; i < SIM_MAX_QUEUES; i++) {
		struct napi *n = &w->napi[i];

		n->index = i;
		n->nq = &w->nic.queue[i];
		n->c = c;
		n->nic = &w->nic;
		n->monitor_at = &w->mon.next_at;
		n->cpu_shared = cpus_shared(c);
		n->lockstep = lockstep;
	}
	w->mon = (struct monitor){ .c = c, .pol = w->pol, .nic = &w->nic,
				   .napi = w->napi, .res = r };
	w->mon.t_start = (c->load.migrate_at >= 0 ? c->load.migrate_at : 0) +
			 c->load.warmup;
	w->mon.t_end = w->mon.t_start + c->load.duration;
}

/* The run's random numbers, and each queue's first packet.  Returns 0, or
 * -1 out of memory. */
static int seed_run(struct run *w, uint64_t seed)
{
	w->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!w->rng)
		return -1;
	gsl_rng_set(w->rng, (unsigned long)seed);
	w->nic.arr.rng = w->rng;
	for (int i = 0; i < w->nic.nq; i++) {
		w->napi[i].rng = w->rng;
		w->napi[i].cons = w->cons;
		w->nic.queue[i].next = gsl_ran_exponential(w->rng,
						1 / w->nic.arr.queue_pps);
	}
	w->mon.mem = w->mem;
	w->mon.cons = w->cons;
	return 0;
}

/* SimGrid's configuration and the case's machine as its platform.
 * Returns 0, or -1 (errno). */
static int load_platform(const struct sim_case *c)
{
	char platform[64];
	int fd;

	xbt_log_control_set("root.thresh:warning");
	sg_cfg_set_string("network/model", "CM02");
	sg_cfg_set_boolean("network/crosstraffic", "no");
	sg_cfg_set_double("surf/precision", 1e-12);
	fd = platform_write(c, platform, sizeof(platform));
	if (fd < 0)
		return -1;
	simgrid_load_platform(platform);
	close(fd);
	return 0;
}

/* Each node's memory and the root complex: a sink for what goes up, a
 * source for what comes down; then the DMA engines, the NAPIs, the
 * consumer and the monitor. */
static void start_actors(struct run *w)
{
	struct nic *nic = &w->nic;

	nic->dma[PCIE_UP].wake = sg_sem_init(0);
	nic->dma[PCIE_DOWN].wake = sg_sem_init(0);
	for (int i = 0; i <= mem_nr_nodes(&w->c->mem); i++) {
		int s = nic_slot(nic, i);
		struct nic_end *e = &nic->end[s];
		char host[24], up[32], down[32];

		if (s == PCIE_LINK)
			snprintf(host, sizeof(host), "rc");
		else
			snprintf(host, sizeof(host), "mem%d", s);
		snprintf(up, sizeof(up), "up-%s", host);
		snprintf(down, sizeof(down), "down-%s", host);
		e->up = sg_mailbox_by_name(up);
		e->down = sg_mailbox_by_name(down);
		e->go = sg_sem_init(0);
		start_actor("dma-sink", sg_host_by_name(host), nic_dma_sink, e,
			    true);
		start_actor("dma-source", sg_host_by_name(host), nic_dma_source,
			    e, true);
	}
	start_actor("nic-up", sg_host_by_name("nic"), nic_dma_actor,
		    &nic->dma[PCIE_UP], true);
	start_actor("nic-down", sg_host_by_name("nic"), nic_dma_actor,
		    &nic->dma[PCIE_DOWN], true);
	for (int i = 0; i < nic->nq; i++) {
		nic->queue[i].irq = sg_sem_init(0);
		start_actor("napi", platform_cpu_host(w->napi[i].ctx.cpu),
			    napi_actor, &w->napi[i], true);
	}
	if (w->cons) {
		w->cons->wake = sg_sem_init(0);
		start_actor("consumer", platform_cpu_host(w->cons->ctx.cpu),
			    consumer_actor, w->cons, true);
	}
	start_actor("monitor", sg_host_by_name("nic"), monitor_actor, &w->mon,
		    false);
}

static double seconds(const struct timespec *t0, const struct timespec *t1)
{
	return (double)(t1->tv_sec - t0->tv_sec) +
	       (double)(t1->tv_nsec - t0->tv_nsec) * 1e-9;
}

static void child_run(const struct sim_case *c, const struct pp_policy *pol,
		      uint64_t seed, struct sim_result *r)
{
	struct run w = { .c = c, .pol = pol };
	struct timespec t0, t1, c0, c1;
	const char *err = NULL;
	char why[200];

	wire_run(&w, r);
	if (build_model(&w, &err) || seed_run(&w, seed)) {
		r->status = 1;
		snprintf(r->why, sizeof(r->why), "%s",
			 err ? err : "out of memory");
		free_run(&w);
		return;
	}
	if (load_platform(c)) {
		r->status = 1;
		snprintf(r->why, sizeof(r->why), "cannot write the platform: "
			 "%s", strerror(errno));
		free_run(&w);
		return;
	}
	start_actors(&w);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	simgrid_run();
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->wall_s = seconds(&t0, &t1);
	r->cpu_s = seconds(&c0, &c1);
	r->sim_packets = (double)w.mon.end.q.rx_packets;
	monitor_summarize(&w.mon);
	if (check_pages(&w, why, sizeof(why))) {
		r->status = 1;
		snprintf(r->why, sizeof(r->why), "page conservation violated: "
			 "%s", why);
	}
	free_run(&w);
}

/*
 * A child's whole life: it simulates, writes its result into the pipe
 * (p[1]) and ends, with _exit: the child is a process of its own, whose
 * end is no library function's return, and the parent's stdio buffers
 * and atexit handlers are not its to run.  Status 1 when it could not
 * make or write the result: the parent then reads none (sim_collect).
 */
static _Noreturn void child_main(pid_t parent, int p[2],
				 const struct sim_case *c,
				 const struct pp_policy *pol, uint64_t seed)
{
	struct sim_result *r;
	const char *buf;
	size_t left;

	/* the child dies with ppsim, however ppsim ends (an interrupted run
	 * leaves no simulation running on), and an interrupt ends it
	 * quietly: SimGrid's own handler would print every actor's
	 * backtrace */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	close(p[0]);
	r = calloc(1, sizeof(*r));
	if (!r)
		_exit(1);
	child_run(c, pol, seed, r);
	buf = (const char *)r;
	left = sizeof(*r);
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
	if (pid == 0)
		child_main(parent, p, c, pol, seed);
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
