/* The machine as SimGrid sees it: CPUs, the NIC, each node's memory
 * channels, the root complex, PCIe and the interconnect, with their
 * bandwidths and latencies. */
#define _GNU_SOURCE	/* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "platform.h"

/* PCIe and the interconnect carry each direction on its own wires: a
 * SPLITDUPLEX link is two links, and a route names which one it takes.
 * PCIe's UP is the device to the host; an interconnect link's UP goes
 * from its lower-numbered socket to the higher. */
static void qpi_hop(FILE *f, int from, int to)
{
	fprintf(f, "<link_ctn id=\"qpi%d-%d\" direction=\"%s\"/>",
		from < to ? from : to, from < to ? to : from,
		from < to ? "UP" : "DOWN");
}

/* DMA between the NIC and node s's memory: PCIe, the interconnect if s is
 * on another socket than the NIC's node, then s's memory channels (shared
 * by reads and writes).  The sockets' interconnect links are named by
 * socket, the memory by node. */
static void dma_routes(FILE *f, const struct sim_case *c, int s)
{
	int n = mem_socket_of_node(&c->mem, c->mem.nic_node);
	int t = mem_socket_of_node(&c->mem, s);

	fprintf(f, "<route src=\"nic\" dst=\"mem%d\" symmetrical=\"NO\">"
		"<link_ctn id=\"pcie\" direction=\"UP\"/>", s);
	if (t != n)
		qpi_hop(f, n, t);
	fprintf(f, "<link_ctn id=\"dram%d\"/></route>\n", s);
	fprintf(f, "<route src=\"mem%d\" dst=\"nic\" symmetrical=\"NO\">"
		"<link_ctn id=\"dram%d\"/>", s, s);
	if (t != n)
		qpi_hop(f, t, n);
	fprintf(f, "<link_ctn id=\"pcie\" direction=\"DOWN\"/></route>\n");
}

int platform_write(const struct sim_case *c, char *path, size_t len)
{
	/* a file in memory, never in TMPDIR: it cannot fill a disk, outlive
	 * a killed run, or take its name from a TMPDIR too long for path;
	 * SimGrid opens it by its /proc name */
	int fd = memfd_create("ppsim-platform", 0), dup_fd;
	int nodes = mem_nr_nodes(&c->mem);
	FILE *f;

	if (fd < 0)
		return -1;
	snprintf(path, len, "/proc/self/fd/%d", fd);
	dup_fd = dup(fd);
	if (dup_fd < 0 || !(f = fdopen(dup_fd, "w"))) {
		if (dup_fd >= 0)
			close(dup_fd);
		close(fd);
		return -1;
	}
	fprintf(f, "<?xml version='1.0'?>\n"
		"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
		"<platform version=\"4.1\">\n<zone id=\"machine\" "
		"routing=\"Full\">\n");
	for (int i = 0; i < c->mem.sockets * c->mem.cores; i++)
		fprintf(f, "<host id=\"cpu%d\" speed=\"%.17gf\"/>\n", i,
			c->mem.freq);
	fprintf(f, "<host id=\"nic\" speed=\"1Gf\"/>\n"
		"<host id=\"rc\" speed=\"1Gf\"/>\n");
	for (int s = 0; s < nodes; s++)
		fprintf(f, "<host id=\"mem%d\" speed=\"1Gf\"/>\n"
			"<link id=\"dram%d\" bandwidth=\"%.17gBps\" "
			"latency=\"0s\"/>\n", s, s, c->hw.mem_bw);
	/* no latency: a burst is an accounting unit, and a pipelined link
	 * loses no bandwidth to its latency, which the engine's bursts, one
	 * after the other, would each pay; the latency that matters, a DMA
	 * read's, is the model's (pcie_read) */
	fprintf(f, "<link id=\"pcie\" bandwidth=\"%.17gBps\" "
		"latency=\"0s\" sharing_policy=\"SPLITDUPLEX\"/>\n",
		pcie_link_bw(&c->pcie));
	for (int s = 0; s < c->mem.sockets; s++)
		for (int t = s + 1; t < c->mem.sockets; t++)
			fprintf(f, "<link id=\"qpi%d-%d\" bandwidth=\"%.17gBps\" "
				"latency=\"%.17gs\" sharing_policy="
				"\"SPLITDUPLEX\"/>\n", s, t, c->hw.qpi_bw,
				c->mem.qpi_lat);
	for (int s = 0; s < nodes; s++) {
		int from = mem_socket_of_node(&c->mem, s);

		dma_routes(f, c, s);
		/* between sockets; a socket's nodes share no modelled link */
		for (int t = 0; t < nodes; t++) {
			int to = mem_socket_of_node(&c->mem, t);

			if (to == from)
				continue;
			fprintf(f, "<route src=\"mem%d\" dst=\"mem%d\" "
				"symmetrical=\"NO\">", s, t);
			qpi_hop(f, from, to);
			fprintf(f, "</route>\n");
		}
	}
	/* what ends at the root complex: DLLPs, MMIO, MSI-X */
	fprintf(f, "<route src=\"nic\" dst=\"rc\" symmetrical=\"NO\">"
		"<link_ctn id=\"pcie\" direction=\"UP\"/></route>\n"
		"<route src=\"rc\" dst=\"nic\" symmetrical=\"NO\">"
		"<link_ctn id=\"pcie\" direction=\"DOWN\"/></route>\n");
	fprintf(f, "</zone>\n</platform>\n");
	if (fclose(f)) {
		close(fd);
		return -1;
	}
	return fd;
}

sg_host_t platform_cpu_host(int cpu)
{
	char name[32];

	snprintf(name, sizeof(name), "cpu%d", cpu);
	return sg_host_by_name(name);
}
