/*
 * The NIC of one run, private to sim/: packets arriving at each rx queue,
 * the NIC's packet buffer, and its DMA engines, which carry the bytes
 * over PCIe (and the interconnect and memory channels) as SimGrid
 * transfers, a burst at a time.
 *
 * The NIC keeps no clock of its own: each actor that looks (a NAPI, a DMA
 * engine, the consumer, the monitor) brings it up to its own time first
 * (nic_catch_up).  It calls no other file of sim/: the other port's irq,
 * which wakes the consumer actor, goes through a hook sim.c sets.
 *
 * Fields marked "public" are read (and, where said, written) by the
 * actors that wait on the NIC; the rest are nic.c's.  sim.c fills in what
 * a run starts with, creates the semaphores and mailboxes, and frees
 * them; a struct nic owns none of the model's objects it points to.
 */
#ifndef PPSIM_SIM_NIC_H
#define PPSIM_SIM_NIC_H

#include <stdbool.h>
#include <gsl/gsl_rng.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include "sim.h"

#define SIM_MAX_QUEUES	64

/* The NIC's side of one rx queue: its packets' arrivals, and the irq the
 * queue's NAPI waits on. */
struct nic_queue {
	struct rxq *q;		/* the model's queue (the run's) */
	double next;		/* public: s, when its next packet arrives */
	double credit;		/* packets the NIC may still hand it */
	double credit_t;	/* s: when the credit was last topped up */
	sg_sem_t irq;		/* public: the NAPI waits on it */
	bool irq_armed;		/* public, the NAPI's: it waits for the irq */
	bool irq_by_dma;	/* public, the NAPI's: and a DMA engine will
				 * look before it sleeps */
};

/* What arrives, over every queue: the draws and the counts of the
 * packets the NIC took and refused. */
struct nic_arrivals {
	gsl_rng *rng;		/* the run's: the NAPIs draw from it too */
	double queue_pps;	/* packets/s offered to each queue */
	u64 arrived;		/* packets arrived so far */
	u64 taken;		/* of them, within the NIC's packet rate */
	u64 buffer_drops;	/* of those, refused for a full buffer */
	double mu_uncounted;	/* arrivals not drawn yet, on average */
	int first_queue;	/* the queue served first at the next look */
	double all_at;		/* s: when every queue was last brought up */
};

/* One direction's DMA engine (its actor: nic_dma_actor). */
struct nic_dma {
	struct nic *nic;	/* whose */
	enum pcie_dir dir;
	double pending[PCIE_LINK + 1];	/* bytes not sent yet, by where they
					 * end (nic_slot) */
	sg_sem_t wake;		/* a burst is ready */
	bool waiting;		/* public: the engine waits for a kick */
	bool due;		/* public: and it should be kicked */
	double inflight;	/* bytes of the burst under way */
	double since;		/* s: when it began */
	double carried;		/* public: bytes onto the link, the run's */
};

/* Where a transfer ends: a node's memory, or the root complex (PCIE_LINK).
 * Its sink actor receives what goes up, its source actor sends what
 * comes down when asked. */
struct nic_end {
	sg_mailbox_t up;	/* writes, read requests */
	sg_mailbox_t down;	/* completions, MMIO */
	sg_sem_t go;		/* a down burst to send */
	double burst;		/* bytes of it */
};

struct nic {
	const struct sim_case *c;
	double link_bw;		/* public: bytes/s each direction carries */
	double dma_burst;	/* bytes a DMA burst waits for */
	struct nic_queue queue[SIM_MAX_QUEUES];	/* public */
	int nq;			/* public: queues in use */
	struct nic_arrivals arr;
	struct nic_dma dma[PCIE_NR_DIRS];	/* public: see nic_dma_idle */
	struct nic_end end[PCIE_LINK + 1];
	/* the other port's irq (its NAPI runs as the consumer actor), raised
	 * as the NIC writes that port's completions; NULL: no such actor */
	void (*port_irq)(void *data);
	void *port_irq_data;
};

/* Both DMA engines wait: neither will look at the NIC before a kick. */
static inline bool nic_dma_idle(const struct nic *nic)
{
	return nic->dma[PCIE_UP].waiting && nic->dma[PCIE_DOWN].waiting;
}

/* An engine has a burst ready and should be kicked. */
static inline bool nic_dma_due(const struct nic *nic)
{
	return nic->dma[PCIE_UP].due || nic->dma[PCIE_DOWN].due;
}

/* Where the i-th flow of a direction ends: node i's memory, then the root
 * complex. */
int nic_slot(const struct nic *nic, int i);

/* A Poisson count of mean mu (any size). */
u64 nic_poisson(gsl_rng *rng, double mu);

/* Wakes a NAPI waiting for queue nq's irq. */
void nic_raise_irq(struct nic_queue *nq);

/* Queue nq up to now: packets into its posted pages, XDP_TX frames out,
 * their bytes onto the DMA bursts, the irq if its NAPI waits for one.
 * Unless forced, a queue the model says is blocked waits. */
void nic_queue_up(struct nic *nic, struct nic_queue *nq, double now,
		  bool force);

/* The NIC up to now for a NAPI (self: its queue; posting: it is about to
 * post descriptors), or for the DMA engine or the consumer (self NULL). */
void nic_catch_up(struct nic *nic, struct nic_queue *self, bool posting,
		  double now);

/* Every queue up to now, blocked or not, in order: every drop counted so
 * far (the monitor's snapshot). */
void nic_count_all(struct nic *nic, double now);

/* Packets dropped at the NIC's door so far (rx_discards_phy): beyond its
 * packet rate or its buffer.  Draws what was left uncounted. */
u64 nic_phy_drops(struct nic *nic);

/* Wakes the DMA engines that have a burst ready: the caller's clock must
 * be SimGrid's. */
void nic_dma_kick(struct nic *nic);

/* The actors, each with its own data (sg_actor_set_data): a DMA engine
 * (struct nic_dma), an end's sink and source (struct nic_end). */
void nic_dma_actor(int argc, char **argv);
void nic_dma_sink(int argc, char **argv);
void nic_dma_source(int argc, char **argv);

#endif
