#include <stdlib.h>
#include "pcie.h"

/*
 * The wire format, as pcie-bench's model counts it (pcie-model,
 * model/pcie.py, after the PCIe base spec; Neugebauer et al., SIGCOMM
 * 2018, section 3).  Every address is 64-bit, as that model configures
 * its NICs (host memory lies above 4 GB), and there is no ECRC digest.
 */
#define PCIE_FRAMING	8	/* start and end symbols, sequence number,
				 * LCRC: "DLLP_Hdr" */
#define PCIE_TLP_HDR	4	/* the generic TLP header */
#define PCIE_MEM_HDR	12	/* memory write or read: 8-byte address
				 * and 4 more */
#define PCIE_CPLD_HDR	8	/* completion with data: completer ID and
				 * 4 more */
#define PCIE_DLLP	8	/* an ACK or a flow-control update: 2 B of
				 * framing, 4 B of DLLP, 2 B of CRC */
#define PCIE_SKP	4	/* a SKP ordered set, on every lane... */
#define PCIE_SKP_EVERY	1538	/* ...every 1538 bytes, for clock
				 * compensation */
#define PCIE_MSI_DATA	4	/* an MSI-X message: a 4-byte write */

#define MWR_OVERHEAD	(PCIE_FRAMING + PCIE_TLP_HDR + PCIE_MEM_HDR)
#define MRD_OVERHEAD	(PCIE_FRAMING + PCIE_TLP_HDR + PCIE_MEM_HDR)
#define CPLD_OVERHEAD	(PCIE_FRAMING + PCIE_TLP_HDR + PCIE_CPLD_HDR)

static int pieces(int n, int size)
{
	return n > 0 ? (n + size - 1) / size : 1;
}

double pcie_mwr_bytes(const struct pcie_config *c, int n)
{
	return n + (double)MWR_OVERHEAD * pieces(n, c->mps);
}

double pcie_mrd_bytes(const struct pcie_config *c, int n)
{
	return (double)MRD_OVERHEAD * pieces(n, c->mrrs);
}

double pcie_cpld_bytes(const struct pcie_config *c, int n)
{
	int piece = c->rcb < c->mps ? c->rcb : c->mps;

	return n + (double)CPLD_OVERHEAD * pieces(n, piece);
}

/* One ACK and one flow-control update every ack_every bytes received
 * (PCIe base spec 5.0 tables 3-7..3-9 and 2-46..2-48, which pcie-model
 * reads as bytes: 168 for gen3 x16 at MPS 256). */
double pcie_dllp_bytes(const struct pcie_config *c, double tlp)
{
	return 2.0 * PCIE_DLLP * tlp / c->ack_every;
}

static void tlp(const struct pcie_config *c, struct pcie_traffic *t,
		enum pcie_dir d, int where, double bytes)
{
	t->bytes[d][where] += bytes;
	t->bytes[!d][PCIE_LINK] += pcie_dllp_bytes(c, bytes);
}

struct pcie_wr_cost pcie_wr_cost_of(const struct pcie_config *c, int n)
{
	double tlp = pcie_mwr_bytes(c, n);

	return (struct pcie_wr_cost){ tlp, pcie_dllp_bytes(c, tlp) };
}

struct pcie_rd_cost pcie_rd_cost_of(const struct pcie_config *c, int n)
{
	double req = pcie_mrd_bytes(c, n), cpl = pcie_cpld_bytes(c, n);

	return (struct pcie_rd_cost){ req, pcie_dllp_bytes(c, req),
				      cpl, pcie_dllp_bytes(c, cpl) };
}

void pcie_dma_write(const struct pcie_config *c, struct pcie_traffic *t,
		    int node, int n)
{
	struct pcie_wr_cost w = pcie_wr_cost_of(c, n);

	pcie_add_write(t, node, &w);
}

void pcie_dma_read(const struct pcie_config *c, struct pcie_traffic *t,
		   int node, int n)
{
	struct pcie_rd_cost r = pcie_rd_cost_of(c, n);

	pcie_add_read(t, node, &r);
}

void pcie_mmio_write(const struct pcie_config *c, struct pcie_traffic *t,
		     int n)
{
	tlp(c, t, PCIE_DOWN, PCIE_LINK, pcie_mwr_bytes(c, n));
}

void pcie_msi(const struct pcie_config *c, struct pcie_traffic *t)
{
	tlp(c, t, PCIE_UP, PCIE_LINK, pcie_mwr_bytes(c, PCIE_MSI_DATA));
}

void pcie_traffic_add(struct pcie_traffic *to,
		      const struct pcie_traffic *from)
{
	for (int d = 0; d < PCIE_NR_DIRS; d++)
		for (int i = 0; i <= PCIE_LINK; i++)
			to->bytes[d][i] += from->bytes[d][i];
}

double pcie_traffic_dir(const struct pcie_traffic *t, enum pcie_dir d)
{
	double sum = 0;

	for (int i = 0; i <= PCIE_LINK; i++)
		sum += t->bytes[d][i];
	return sum;
}

double pcie_link_bw(const struct pcie_config *c)
{
	return c->bw * (1 - (double)PCIE_SKP / PCIE_SKP_EVERY);
}

/* The request goes up, the root complex fetches the line, the completion
 * comes down, its bytes one after the other. */
double pcie_read_lat(const struct pcie_config *c, int n, double mem_lat)
{
	return 2 * c->lat + mem_lat + pcie_cpld_bytes(c, n) / pcie_link_bw(c);
}

struct pcie {
	struct pcie_config cfg;
	double bw;		/* bytes/s each direction carries */
	double s_per_byte;	/* 1 / bw */
	double down_held;	/* bytes the down link holds at down_at */
	double down_at;		/* s */
	int next;		/* the tag to take next */
	double free_at[];	/* s, when each tag comes back */
};

struct pcie *pcie_create(const struct pcie_config *cfg, const char **err)
{
	struct pcie *p;

	if (cfg->rd_tags < 1 || cfg->mps < 1 || cfg->mrrs < 1 ||
	    cfg->rcb < 1 || cfg->ack_every < 1) {
		*err = "PCIe sizes and read tags must be positive";
		return NULL;
	}
	p = calloc(1, sizeof(*p) + (size_t)cfg->rd_tags * sizeof(double));
	if (!p) {
		*err = "out of memory";
		return NULL;
	}
	p->cfg = *cfg;
	p->bw = pcie_link_bw(cfg);
	p->s_per_byte = 1 / p->bw;
	return p;
}

void pcie_free(struct pcie *p)
{
	free(p);
}

const struct pcie_config *pcie_config(const struct pcie *p)
{
	return &p->cfg;
}

/* What the down link holds at now, drained at its rate since. */
static double down_held(struct pcie *p, double now)
{
	if (now > p->down_at) {
		p->down_held -= p->bw * (now - p->down_at);
		if (p->down_held < 0)
			p->down_held = 0;
		p->down_at = now;
	}
	return p->down_held;
}

double pcie_read(struct pcie *p, double now, double after,
		 const struct pcie_rd_cost *r, double mem_lat)
{
	double *tag = &p->free_at[p->next];
	double start = after > *tag ? after : *tag;
	double at_rc = start + p->cfg.lat + mem_lat;	/* the data is there */
	double link = now + down_held(p, now) * p->s_per_byte;	/* free */

	if (++p->next == p->cfg.rd_tags)
		p->next = 0;
	p->down_held += r->cpl;
	*tag = (at_rc > link ? at_rc : link) + r->cpl * p->s_per_byte +
	       p->cfg.lat;
	return *tag;
}

double pcie_tag_free(const struct pcie *p)
{
	return p->free_at[p->next];
}

void pcie_down_busy(struct pcie *p, double now, double bytes)
{
	p->down_held = down_held(p, now) + bytes;
}
