/* The machine as SimGrid sees it: CPUs, the NIC, each node's memory
 * channels, PCIe and the interconnect, with their bandwidths and
 * latencies. */
#include <stdio.h>
#include <stdlib.h>
#include "world.h"

int platform_write(const struct sim_case *c, char *path, size_t len)
{
	int fd;
	FILE *f;

	snprintf(path, len, "%s/ppsim-platform-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		return -1;
	fprintf(f, "<?xml version='1.0'?>\n"
		"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
		"<platform version=\"4.1\">\n<zone id=\"machine\" "
		"routing=\"Full\">\n");
	for (int i = 0; i < c->mem.sockets * c->mem.cores; i++)
		fprintf(f, "<host id=\"cpu%d\" speed=\"%.17gf\"/>\n", i,
			c->hw.freq);
	fprintf(f, "<host id=\"nic\" speed=\"1Gf\"/>\n");
	for (int s = 0; s < c->mem.sockets; s++)
		fprintf(f, "<host id=\"mem%d\" speed=\"1Gf\"/>\n"
			"<link id=\"dram%d\" bandwidth=\"%.17gBps\" "
			"latency=\"0s\"/>\n", s, s, c->hw.mem_bw);
	fprintf(f, "<link id=\"pcie\" bandwidth=\"%.17gBps\" "
		"latency=\"%.17gs\"/>\n", c->hw.pcie_bw, c->hw.pcie_lat);
	for (int s = 0; s < c->mem.sockets; s++)
		for (int t = s + 1; t < c->mem.sockets; t++)
			fprintf(f, "<link id=\"qpi%d-%d\" bandwidth=\"%.17gBps\" "
				"latency=\"%.17gs\"/>\n", s, t, c->hw.qpi_bw,
				c->mem.qpi_lat);
	/* DMA to node s: PCIe, the interconnect if s is not the NIC's
	 * node, then node s's memory channels */
	for (int s = 0; s < c->mem.sockets; s++) {
		fprintf(f, "<route src=\"nic\" dst=\"mem%d\"><link_ctn "
			"id=\"pcie\"/>", s);
		if (s != c->mem.nic_node)
			fprintf(f, "<link_ctn id=\"qpi%d-%d\"/>",
				s < c->mem.nic_node ? s : c->mem.nic_node,
				s < c->mem.nic_node ? c->mem.nic_node : s);
		fprintf(f, "<link_ctn id=\"dram%d\"/></route>\n", s);
		for (int t = s + 1; t < c->mem.sockets; t++)
			fprintf(f, "<route src=\"mem%d\" dst=\"mem%d\">"
				"<link_ctn id=\"qpi%d-%d\"/></route>\n", s, t,
				s, t);
	}
	fprintf(f, "</zone>\n</platform>\n");
	return fclose(f);
}

sg_host_t platform_cpu_host(int cpu)
{
	char name[32];

	snprintf(name, sizeof(name), "cpu%d", cpu);
	return sg_host_by_name(name);
}
