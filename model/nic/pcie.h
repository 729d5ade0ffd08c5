/*
 * PCIe as the NIC uses it: what each transaction puts on the link in each
 * direction, counted in TLPs with their framing and the data-link packets
 * that acknowledge them, and the latency and concurrency of DMA reads.
 *
 * Directions are the device's: up carries what the NIC sends (memory
 * writes with their data, read requests, MSI-X), down what it receives
 * (read completions with data, the host's MMIO writes).  Each direction
 * is a link of its own (PCIe is full duplex); a TLP received in one
 * direction is answered in the other by ACK and flow-control DLLPs.
 *
 * Sizes follow pcie-bench's model (Neugebauer et al., "Understanding PCIe
 * performance for end host networking", SIGCOMM 2018, section 3; its
 * pcie-model, model/pcie.py), which takes them from the PCIe base spec.
 * Nothing here knows about SimGrid: the engine moves the bytes.
 */
#ifndef PPSIM_PCIE_H
#define PPSIM_PCIE_H

#include "../mem/mem.h"

/* The link and the device's end of it: the [pcie] keys and nic.rd_tags
 * (input/scenario.c points into it). */
struct pcie_config {
	double bw;		/* bytes/s each way, after line encoding */
	double lat;		/* s, one way: device, link, root complex */
	int mps;		/* bytes, Max_Payload_Size */
	int mrrs;		/* bytes, Max_Read_Request_Size */
	int rcb;		/* bytes a read completion carries at most */
	int ack_every;		/* bytes of TLPs answered by one ACK and
				 * one flow-control update */
	int rd_tags;		/* DMA reads the device keeps in flight */
};

enum pcie_dir {
	PCIE_UP,		/* device to host */
	PCIE_DOWN,		/* host to device */
	PCIE_NR_DIRS,
};

/* Where bytes go beyond the link: the memory of a node, or nowhere
 * (PCIE_LINK: data-link packets, MMIO, MSI-X end at the root complex). */
#define PCIE_LINK	MEM_MAX_NODES

/* Bytes on the wire, by direction and by where they end. */
struct pcie_traffic {
	double bytes[PCIE_NR_DIRS][MEM_MAX_NODES + 1];
};

/* Bytes on the wire of one transaction of n bytes of data: a memory write
 * (split at MPS), the read requests for n bytes (split at MRRS), and the
 * completions that return them (split at the completion size). */
double pcie_mwr_bytes(const struct pcie_config *c, int n);
double pcie_mrd_bytes(const struct pcie_config *c, int n);
double pcie_cpld_bytes(const struct pcie_config *c, int n);

/* The DLLPs that answer tlp bytes of TLPs, sent the other way. */
double pcie_dllp_bytes(const struct pcie_config *c, double tlp);

/* DMA writes and reads of a size known in advance, worked out once (a
 * queue's packets, CQEs and descriptors, for every packet): the bytes of
 * their TLPs, and of the DLLPs that answer them the other way. */
struct pcie_wr_cost {
	double tlp, dllp;	/* up, down */
};
struct pcie_rd_cost {
	double req, req_dllp;	/* the requests up, their DLLPs down */
	double cpl, cpl_dllp;	/* the completions down, their DLLPs up */
};

struct pcie_wr_cost pcie_wr_cost_of(const struct pcie_config *c, int n);
struct pcie_rd_cost pcie_rd_cost_of(const struct pcie_config *c, int n);

/* Adds a write to, or a read from, node's memory to t. */
static inline void pcie_add_write(struct pcie_traffic *t, int node,
				  const struct pcie_wr_cost *w)
{
	t->bytes[PCIE_UP][node] += w->tlp;
	t->bytes[PCIE_DOWN][PCIE_LINK] += w->dllp;
}

static inline void pcie_add_read(struct pcie_traffic *t, int node,
				 const struct pcie_rd_cost *r)
{
	t->bytes[PCIE_UP][node] += r->req;
	t->bytes[PCIE_DOWN][PCIE_LINK] += r->req_dllp;
	t->bytes[PCIE_DOWN][node] += r->cpl;
	t->bytes[PCIE_UP][PCIE_LINK] += r->cpl_dllp;
}

/* The transactions, added to t with the DLLPs they cause: the device
 * writes n bytes to node's memory; reads n bytes from it; the host
 * writes n bytes to the device (a doorbell); the device writes n bytes
 * that end at the root complex (MSI-X). */
void pcie_dma_write(const struct pcie_config *c, struct pcie_traffic *t,
		    int node, int n);
void pcie_dma_read(const struct pcie_config *c, struct pcie_traffic *t,
		   int node, int n);
void pcie_mmio_write(const struct pcie_config *c, struct pcie_traffic *t,
		     int n);
void pcie_msi(const struct pcie_config *c, struct pcie_traffic *t);

/* Adds every byte of from to to. */
void pcie_traffic_add(struct pcie_traffic *to,
		      const struct pcie_traffic *from);
/* Bytes of t in direction d, wherever they end. */
double pcie_traffic_dir(const struct pcie_traffic *t, enum pcie_dir d);

/* Bytes/s a direction carries once SKP ordered sets have had their share. */
double pcie_link_bw(const struct pcie_config *c);

/* Round trip of a DMA read of n bytes whose data is mem_lat away from
 * the root complex (mem_nic_read()'s answer), on an idle link. */
double pcie_read_lat(const struct pcie_config *c, int n, double mem_lat);

/* The device's end of the link: its read tags, shared by its queues. */
struct pcie;

/* Returns NULL with *err on a bad configuration or no memory. */
struct pcie *pcie_create(const struct pcie_config *cfg, const char **err);
void pcie_free(struct pcie *p);
const struct pcie_config *pcie_config(const struct pcie *p);

/*
 * A DMA read (r: its cost), its data mem_lat from the root complex, that
 * the device decides on at now (calls in nondecreasing now) and may issue
 * from after on: it takes a tag (waiting for one to come back if none is
 * free), its request goes up, and its completions come down once the down
 * link has sent what it held at now; it keeps the tag until its data is
 * in.  Returns when that is.  Tags are taken in turn, the one taken
 * longest ago first: with reads of nearly equal latency that is the one
 * back first.  The down link is a fluid queue drained at its rate, its
 * bytes counted when the device decides on them.
 */
double pcie_read(struct pcie *p, double now, double after,
		 const struct pcie_rd_cost *r, double mem_lat);
/* When the tag the next read takes comes back. */
double pcie_tag_free(const struct pcie *p);
/* Other traffic on the down link at now (MMIO, DLLPs): the completions
 * of later reads queue behind it. */
void pcie_down_busy(struct pcie *p, double now, double bytes);

#endif
