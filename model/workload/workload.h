/*
 * What a queue's packets meet: one workload, one const table of
 * functions and facts (GSL's strategies), one file each in this folder,
 * registered in workloads[] (workload.c).  A workload file uses the
 * queue only through its services (model/nic/rxq.h, "For the
 * workloads"), never another workload's symbols (tests/layers.sh).
 *
 * The calling protocol.  rxq_open() calls open once, last in the
 * channel's layout, in the channel's context; rxq_free() calls close.
 * One NAPI poll (rxq_napi_poll, through its NIC model's poll: nic_model.h)
 * calls poll_start before anything, rx for each packet after the driver's
 * rx work (and after the XDP program, when xdp is set), rx_done once the
 * rx completions are handled, and poll_end after the refill.  A
 * consumer on another CPU (sim/consumer.c) is attached with attach, asks
 * pending whether there is work, and runs consume.  Every hook but rx may
 * be NULL: nothing to do.  The hooks run inside the queue's accounting:
 * the work they do goes into rxq_work(q).
 */
#ifndef PPSIM_WORKLOAD_H
#define PPSIM_WORKLOAD_H

#include "../key.h"
#include "../nic/rxq.h"

/* What takes the NAPI's frames or skbs on another CPU, when one does:
 * sim/ runs it as an actor of its own. */
enum workload_far {
	WORKLOAD_FAR_NONE,	/* everything on the NAPI's CPU */
	WORKLOAD_FAR_KTHREAD,	/* a kthread on redirect_cpu, always */
	WORKLOAD_FAR_PORT,	/* the other port's NAPI, on redirect_cpu
				 * when redirect_port = other and it is
				 * another CPU than the irq's */
	WORKLOAD_FAR_READER,	/* the process reading the socket, on
				 * app_cpu when that is another CPU */
};

/* A case as a workload's rules read it: its queue's configuration and
 * where the case runs (input/ fills it from sim/'s struct sim_case). */
struct workload_case {
	const struct workload_ops *workload;	/* the case's */
	const struct rxq_config *rxq;
	int queues;
	int irq_cpu;		/* queue 0's at the start */
	int migrate_cpu;	/* where the irq moves; -1: it does not */
	int redirect_cpu;	/* -1: not set */
	bool far_apart;		/* a far side runs on a CPU of its own
				 * (sim_has_consumer) */
};

/* One of a workload's own keys, in [global] and [case NAME]: its value
 * is the field of struct rxq_config (sim/'s struct sim_case holds it as
 * rxq).  what says what it is, to a case that does not use it. */
#define WORKLOAD_KEY(name, store, kind, field, def, min, max, unit, help, \
		     what) \
	{ "case", name, store, kind, false, \
	  offsetof(struct rxq_config, field), def, min, max, unit, help, \
	  NULL, NULL, what, NULL }

struct workload_ops {
	const char *name;	/* the scenario's word; first member: input/
				 * reads a strategy's name there */
	const char *title;	/* in a plot's title ("XDP_DROP") */
	const char *doc;	/* what it does, beside its name in the
				 * workload key's help; NULL: its name says */
	const char *rate_unit;	/* of the case's figure: "Mpps" or "Gbps" */
	bool xdp;		/* runs the XDP program (xdp_touch) */
	bool tx_frames;		/* sends frames whose pages come back at
				 * their send completion (driver.xdp_return) */
	bool other_return;	/* pages come back another way than the
				 * NAPI's own put, on every CPU placement */
	enum workload_far far;

	/* Lays out the workload's own objects and state: 0, or -1 out of
	 * memory.  The state is the workload's (rxq_workload_state). */
	int (*open)(struct rxq *q);
	void (*close)(struct rxq *q);
	void (*poll_start)(struct rxq *q);
	/* One packet, its page the queue's until the workload gives it on. */
	void (*rx)(struct rxq *q, struct page *page);
	void (*rx_done)(struct rxq *q, struct rxq_poll *out);
	void (*poll_end)(struct rxq *q, struct kctx *ctx,
			 struct rxq_poll *out);
	/* The far side on a CPU of node: 0, or -1 out of memory. */
	int (*attach)(struct rxq *q, int node);
	u32 (*pending)(const struct rxq *q);
	/* One pass of the far side; returns the frames or skbs it took. */
	int (*consume)(struct rxq *q);
	/* Pages the pool handed out that the workload holds in its rings,
	 * and pages in the skbs it holds (the pool's where the era's skbs
	 * recycle), each page once however many skbs share it, and none the
	 * driver still counts. */
	u32 (*held)(const struct rxq *q);
	u32 (*skbs)(const struct rxq *q);

	/* Its scenario keys, those only it reads (WORKLOAD_KEY), nr_keys of
	 * them: 'ppsim keys' and resolved.ini list them after the core
	 * key keys_after ("app_cpu"), in this order.  Written in the
	 * section of a case that does not use them (uses, set with keys)
	 * they would do nothing: an error. */
	const struct key *keys;
	int nr_keys;
	const char *keys_after;
	bool (*uses)(const struct workload_case *c);
	/* Its rules among a case's keys, for a case of it: say() each one
	 * broken, in order. */
	void (*check)(const struct workload_case *c, key_say *say,
		      void *ctx);
	/* Of the core keys only some workloads read, those this one reads
	 * (NULL-ended): a key that no workload names here is every
	 * case's; one other workloads name and this one does not, its
	 * cases never read (validate --sensitivity does not move it, and
	 * tests/validate.sh checks that moving it changes nothing). */
	const char *const *reads;
	/* Pages its far side may hold beyond the queue's rings (a ring, a
	 * socket) and the key that sets how many, in *key; 0: none. */
	long long (*far_pages)(const struct workload_case *c,
			       const char **key);
};

/* The registry: every workload, NULL-ended, in the order the scenario's
 * word list and the plot titles give them. */
extern const struct workload_ops *const workloads[];

/* The workload named name, or NULL. */
const struct workload_ops *workload_find(const char *name);
/* Whether a case of workload w reads key (a scenario key, "cost.xdp"):
 * yes unless some workload names it in its reads and w does not. */
bool workload_reads(const struct workload_ops *w, const char *key);
/* The workloads that name key in their reads, as "a, b" into buf; ""
 * when none does (every workload reads it). */
void workload_readers(const char *key, char *buf, size_t len);
/* The first workload whose far side is far, or NULL: the one a key of
 * that far side is for (redirect_port, app_cpu). */
const struct workload_ops *workload_far(enum workload_far far);

extern const struct workload_ops workload_xdp_drop, workload_xdp_tx,
	workload_xdp_redirect, workload_tcp, workload_xdp_cpumap,
	workload_xdp_veth;

#endif
