/*
 * The NAPI actor, one a rx queue, private to sim/: it polls its queue on
 * its CPU, a poll taking the model's cycles and memory stalls, and sleeps
 * on the queue's irq when there is nothing to poll (napi.c).
 *
 * sim.c fills in a struct napi before the actor starts (its data,
 * sg_actor_set_data) and keeps it for the whole run; the actor then writes
 * only its context (a migration moves it) and the counters marked public,
 * which the monitor reads.  A struct napi owns nothing it points to.
 */
#ifndef PPSIM_SIM_NAPI_H
#define PPSIM_SIM_NAPI_H

#include <stdbool.h>
#include <gsl/gsl_rng.h>
#include "sim.h"

struct nic;
struct nic_queue;
struct consumer;

struct napi {
	int index;		/* its queue's */
	struct rxq *q;		/* the model's queue (the run's) */
	struct nic_queue *nq;	/* the NIC's side of it: arrivals, irq */
	struct kctx ctx;	/* public: its CPU, node, softirq */
	/* what it shares, none of it its own */
	const struct sim_case *c;
	struct nic *nic;
	struct consumer *cons;	/* the consumer it wakes, or NULL */
	gsl_rng *rng;		/* the run's: a poll's jitter */
	const double *monitor_at;	/* s: when the monitor looks next */
	bool cpu_shared;	/* two NAPIs may run on one CPU at once */
	bool lockstep;		/* PPSIM_LOCKSTEP: it never runs ahead */
	/* public: its CPU's time over the run, s */
	double cpu_s;		/* working */
	double stall_s;		/* waiting on memory */
	double idle_s;		/* waiting for packets */
	double stall_at[MEM_NR_KINDS][MEM_NR_PLACES];	/* of stall_s, by
							 * what and where */
};

/* The actor; its data a struct napi. */
void napi_actor(int argc, char **argv);

#endif
