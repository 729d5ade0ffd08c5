/*
 * The consumer actor, private to sim/: a CPU other than the NAPI's that
 * takes what queue 0's NAPI hands it through a bounded queue (the cpumap
 * entry's ptr_ring, a socket's receive queue, the other port's send
 * completions) and works on it in its own context, on its own CPU: the
 * cpumap kthread, a TCP reader on app_cpu, the other port's NAPI.  It
 * sleeps while the queue is empty; the NAPI wakes it at the end of a poll
 * that queued frames (__cpu_map_flush: wake_up_process; the socket's
 * sk_data_ready), the NIC as it writes the other port's completions.
 *
 * sim.c fills in a struct consumer before the actor starts (its data) and
 * keeps it for the run; it owns nothing it points to.
 */
#ifndef PPSIM_SIM_CONSUMER_H
#define PPSIM_SIM_CONSUMER_H

#include <stdbool.h>
#include <simgrid/semaphore.h>
#include "sim.h"

struct nic;

struct consumer {
	struct rxq *q;		/* whose frames it takes: queue 0's */
	struct kctx ctx;	/* its CPU and node; bottom halves off */
	const struct sim_case *c;
	struct nic *nic;	/* the other port's NAPI looks at it */
	sg_sem_t wake;
	bool sleeping;
	/* public: its CPU's time over the run, s */
	double cpu_s;		/* working */
	double stall_s;		/* waiting on memory */
};

/* Wakes the consumer k if it sleeps and has work; k may be NULL. */
void consumer_kick(struct consumer *k);
/* consumer_kick for the NIC's port_irq hook: data is the consumer. */
void consumer_port_irq(void *data);

/* The actor; its data a struct consumer. */
void consumer_actor(int argc, char **argv);

#endif
