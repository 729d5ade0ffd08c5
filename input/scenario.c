#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <ini.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../io/datadir.h"
#include "scenario.h"
#include "../model/key.h"
#include "../model/page_pool/pp.h"

#define SCN_LINE_MAX	198	/* characters; inih's buffer is 200 */
#define SCN_READ_MAX	1024	/* a line with its comment, before cutting */
#define SCN_INCLUDE_DEPTH 8
/* A scenario's bounds, includes of includes counted (ppsim-scenario(5)):
 * the files read (a tree of 4 levels of 20 includes read 160,000, for
 * minutes), their bytes together, and the keys they set.  The corpus's
 * largest reads 3 files and sets under 400 keys. */
#define SCN_MAX_FILES	64
#define SCN_MAX_BYTES	(64L << 20)
#define SCN_MAX_SETTINGS 65536
/* characters of a section name libinih keeps (its MAX_SECTION, 50, with
 * the NUL) */
#define SCN_SECTION_MAX	49

#define K(sec, name, store, kind, field, def, min, max, unit, help) \
	{ sec, name, store, kind, false, offsetof(struct scn_case, field), \
	  def, min, max, unit, help, NULL, NULL, NULL }
#define KS(sec, name, store, kind, field, def, min, max, unit, help) \
	{ sec, name, store, kind, true, offsetof(struct scn_calibrate, \
	  field), def, min, max, unit, help, NULL, NULL, NULL }
/* A case's key that takes one of words (an enum, stored as an int). */
#define KW(sec, name, field, words, def, help) \
	{ sec, name, KEY_WORD, KEY_PLAIN, false, offsetof(struct scn_case, field), \
	  def, 0, 0, "", help, words, NULL, NULL }
/* A case's key that names one of a registry's strategies: by default its
 * first; its help, the strategies' names and docs (build_registry). */
#define KR(sec, name, field, registry) \
	{ sec, name, KEY_WORD, KEY_PLAIN, false, offsetof(struct scn_case, field), \
	  NULL, 0, 0, "", NULL, NULL, registry, NULL }

_Static_assert(sizeof(enum rxq_touch) == sizeof(int) &&
	       sizeof(enum rxq_xdp_return) == sizeof(int) &&
	       sizeof(enum mem_llc_policy) == sizeof(int),
	       "KEY_WORD keys store an enum as an int");

static const char *const port_words[] = {
	[RXQ_PORT_SAME] = "same", [RXQ_PORT_OTHER] = "other", NULL,
};
static const char *const touch_words[] = {
	[RXQ_TOUCH_NONE] = "none", [RXQ_TOUCH_READ] = "read",
	[RXQ_TOUCH_WRITE] = "write", NULL,
};
/* mem_llc_name()'s, one a policy of mem.c (check_mem: llc_names) */
static const char *const llc_policy_words[MEM_LLC_NR + 1] = {
	[MEM_LLC_LRU] = "lru", [MEM_LLC_QLRU] = "qlru", NULL,
};
static const char *const xdp_return_words[] = {
	[RXQ_RETURN_FRAME] = "frame", [RXQ_RETURN_BULK] = "bulk", NULL,
};

static const struct key core_keys[] = {
K("cpu", "sockets", KEY_INT, KEY_PLAIN, sim.mem.sockets, "2", 1, 8, "", "NUMA nodes, one socket each"),
K("cpu", "cores", KEY_INT, KEY_PLAIN, sim.mem.cores, "6", 1, 64, "", "cores per socket"),
K("cpu", "freq", KEY_DOUBLE, KEY_FREQ, sim.mem.freq, "1.7GHz", 1e8, 1e10, "Hz", "core clock: a private hit and the work that hides a miss are counted in its cycles, the latencies beyond it in ns"),
K("cache", "l2_size", KEY_U64, KEY_SIZE, sim.mem.l2_size, "256K", 4096, 1 << 30, "B", "private cache per core (L1 is folded in)"),
K("cache", "l2_ways", KEY_INT, KEY_PLAIN, sim.mem.l2_ways, "8", 1, 64, "", "its associativity"),
K("cache", "l2_cycles", KEY_DOUBLE, KEY_PLAIN, sim.mem.l2_cycles, "12", 0, 1000, "cycles", "private cache hit, the floor of every access (Broadwell L2: 12)"),
K("cache", "llc_size", KEY_U64, KEY_SIZE, sim.mem.llc_size, "15M", 65536, 1ull << 36, "B", "shared last-level cache per socket"),
K("cache", "llc_ways", KEY_INT, KEY_PLAIN, sim.mem.llc_ways, "20", 2, 64, "", "its associativity"),
K("cache", "ddio_ways", KEY_INT, KEY_PLAIN, sim.mem.ddio_ways, "2", 0, 63, "", "LLC ways DDIO may allocate into, the top ones of a set (0 = no DDIO)"),
KW("cache", "llc_policy", sim.mem.llc_policy, llc_policy_words, "qlru", "how the LLC picks a victim: qlru (Intel's L3 from Ivy Bridge to Skylake as nanoBench measured it on client parts: 2-bit ages, a new line at age 1; uops.info/cache.html; a guess for other parts; the sets those L3s switch to a scan-resistant insertion are not modelled; among DDIO's ways the older line goes, a guess) or lru"),
K("cache", "llc_lat", KEY_DOUBLE, KEY_TIME, sim.mem.llc_lat, "40ns", 0, 1e-6, "ns", "local LLC hit, load to use"),
K("cache", "snoop_lat", KEY_DOUBLE, KEY_TIME, sim.mem.snoop_lat, "42ns", 0, 1e-6, "ns", "line another core of the socket holds modified, fetched from its private cache (MLC's L2->L2 HIT)"),
K("cache", "rllc_lat", KEY_DOUBLE, KEY_TIME, sim.mem.rllc_lat, "110ns", 0, 1e-5, "ns", "line held in the other socket's caches"),
K("mem", "dram_lat", KEY_DOUBLE, KEY_TIME, sim.mem.dram_lat, "90ns", 0, 1e-5, "ns", "local DRAM"),
K("mem", "rdram_lat", KEY_DOUBLE, KEY_TIME, sim.mem.rdram_lat, "135ns", 0, 1e-5, "ns", "remote DRAM"),
K("mem", "bw", KEY_DOUBLE, KEY_BYTERATE, sim.hw.mem_bw, "50GB/s", 1e8, 1e13, "B/s", "memory bandwidth per node"),
K("mem", "pages", KEY_U32, KEY_PLAIN, sim.mm.pages_per_node, "65536", 256, 1 << 22, "", "order-0 pages per node the model manages (16 GiB at most)"),
K("qpi", "bw", KEY_DOUBLE, KEY_BYTERATE, sim.hw.qpi_bw, "12.8GB/s", 1e8, 1e13, "B/s", "interconnect bandwidth per direction"),
K("qpi", "lat", KEY_DOUBLE, KEY_TIME, sim.mem.qpi_lat, "40ns", 0, 1e-5, "ns", "one crossing of the interconnect"),
K("pcie", "bw", KEY_DOUBLE, KEY_BYTERATE, sim.pcie.bw, "15.75GB/s", 1e8, 1e13, "B/s", "PCIe bandwidth of each direction after line encoding (gen3 x16: 8 GT/s x 16 x 128/130); SKP ordered sets take 4 bytes in 1538 of it"),
K("pcie", "lat", KEY_DOUBLE, KEY_TIME, sim.pcie.lat, "250ns", 0, 1e-4, "ns", "one way through device, link and root complex, without the memory access: a DMA read takes twice this plus where its line is"),
K("pcie", "mps", KEY_INT, KEY_SIZE, sim.pcie.mps, "256", 128, 4096, "B", "Max_Payload_Size, a power of 2: DMA writes go in TLPs of at most this"),
K("pcie", "mrrs", KEY_INT, KEY_SIZE, sim.pcie.mrrs, "512", 128, 4096, "B", "Max_Read_Request_Size, a power of 2 (512: the PCIe base spec's default)"),
K("pcie", "rcb", KEY_INT, KEY_SIZE, sim.pcie.rcb, "64", 64, 4096, "B", "largest completion the root complex returns a read in, a power of 2 (its read completion boundary: 64 or 128; MPS bounds it too)"),
K("pcie", "ack_every", KEY_INT, KEY_SIZE, sim.pcie.ack_every, "168", 16, 65536, "B", "TLP bytes a receiver answers with one ACK and one flow-control update DLLP, 8 bytes each, the other way (PCIe 5.0 tables 3-7..3-9, 2-46..2-48 as pcie-bench reads them: gen3 x16 168, x8 203 at MPS 256)"),
K("nic", "node", KEY_INT, KEY_PLAIN, sim.mem.nic_node, "0", 0, 7, "", "socket whose PCIe root the NIC hangs off"),
K("nic", "line_rate", KEY_DOUBLE, KEY_BITRATE, sim.hw.line_rate, "100Gbps", 1e6, 1e13, "bps", "link speed"),
K("nic", "max_pps", KEY_DOUBLE, KEY_PKTRATE, sim.hw.nic_max_pps, "40Mpps", 1e3, 1e10, "pps", "packets per second the NIC delivers to one queue"),
K("nic", "buffer", KEY_DOUBLE, KEY_SIZE, sim.hw.nic_buffer, "256K", 4096, 1 << 30, "B", "packet buffer, holding what the DMA has not moved over PCIe yet: a packet that finds it full is dropped"),
K("nic", "rx_ring", KEY_INT, KEY_PLAIN, sim.rxq.rx_ring, "1024", 2, 1 << 15, "", "rx descriptors (one page each), a power of 2"),
K("nic", "tx_ring", KEY_INT, KEY_PLAIN, sim.rxq.tx_ring, "1024", 2, 1 << 15, "", "XDP_TX descriptors, a power of 2"),
K("nic", "wqe_fetch", KEY_INT, KEY_PLAIN, sim.rxq.wqe_fetch, "4", 1, 1 << 15, "", "rx descriptors (16 bytes) the NIC reads in one DMA read, a power of 2 up to rx_ring (4: one cache line; mlx5's is not published)"),
K("nic", "cqe_session", KEY_INT, KEY_PLAIN, sim.rxq.cqe_session, "64", 2, 4096, "", "completions a compressed CQE session holds at most (the device's cqe_compression_max_num; a burst shorter than this ends it sooner)"),
K("nic", "rd_tags", KEY_INT, KEY_PLAIN, sim.pcie.rd_tags, "256", 1, 1024, "", "DMA reads the NIC keeps in flight (256: 8-bit Extended Tags, which Linux enables where the device has them; 32 without)"),
K("nic", "ports", KEY_INT, KEY_PLAIN, sim.hw.ports, "1", 1, 2, "", "ports of the adapter, sharing its PCIe link (redirect_port = other needs 2)"),
K("nic", "irq_delay", KEY_DOUBLE, KEY_TIME, sim.hw.irq_delay, "2us", 0, 1e-3, "us", "completion to NAPI running, when NAPI is not polling (idle, or its last poll left budget)"),
K("driver", "budget", KEY_INT, KEY_PLAIN, sim.rxq.budget, "64", 1, 4096, "", "NAPI budget: completions per poll"),
K("driver", "cqe_compress", KEY_INT, KEY_PLAIN, sim.rxq.cqe_compress, "0", 0, 1, "", "rx_cqe_compress (ethtool --set-priv-flags): 1 = completions written back to back share a title CQE and 8-byte mini CQEs, fewer bytes on PCIe, more work for the driver; mlx5 turns it on by itself only on a slow PCIe link"),
KW("driver", "xdp_return", sim.rxq.xdp_return, xdp_return_words, "bulk", "how a redirected frame's page comes back at its transmit completion: frame (xdp_return_frame, one by one) or bulk (xdp_return_frame_bulk, 5.11 on: one ring lock for up to 16; an era without it returns frames one by one, and the run says so)"),
K("driver", "page_cache", KEY_INT, KEY_PLAIN, sim.rxq.page_cache, "0", 0, 1 << 16, "", "mlx5e page cache entries (0 = off, 256 in mlx5)"),
K("cost", "rx_pkt", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.rx_pkt, "100", 0, 1e6, "cycles", "driver rx work per packet (free: calibrate)"),
K("cost", "xdp", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.xdp, "15", 0, 1e6, "cycles", "XDP program per packet"),
K("cost", "tx_pkt", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.tx_pkt, "100", 0, 1e6, "cycles", "XDP_TX xmit and completion per packet (free: calibrate)"),
K("cost", "stack", KEY_DOUBLE, KEY_PLAIN, sim.rxq.tcp.c_stack, "1000", 0, 1e7, "cycles", "skb, GRO, IP and TCP receive per packet (free: calibrate)"),
K("cost", "recv", KEY_DOUBLE, KEY_PLAIN, sim.rxq.tcp.c_recv, "50", 0, 1e7, "cycles", "recvmsg per packet, skb free included"),
K("cost", "copy", KEY_DOUBLE, KEY_PLAIN, sim.rxq.tcp.c_copy, "8", 0, 1e5, "cycles", "copy to the reader per 64-byte line; the line transfers run under it"),
K("cost", "poll", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.poll, "300", 0, 1e7, "cycles", "per NAPI poll"),
K("cost", "pp_fast", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.pp_fast, "9.5", 0, 1e6, "cycles", "a page_pool alloc from its cache, or a direct recycle into it"),
K("cost", "pp_ring", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.pp_ring, "44.5", 0, 1e6, "cycles", "a page_pool put into its ptr_ring, the producer lock included; and a refill of the cache from the ring (up to 64 pages)"),
K("cost", "page_alloc", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.page_alloc, "120", 0, 1e6, "cycles", "page allocator, one page"),
K("cost", "page_free", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.page_free, "100", 0, 1e6, "cycles", "page allocator free, one page"),
K("cost", "dma_map", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.dma_map, "30", 0, 1e6, "cycles", "dma map + unmap of a page"),
K("cost", "dma_sync", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.dma_sync, "0", 0, 1e6, "cycles", "one dma_sync_single_*() call: for the CPU on every rx, for the device on every page cache get and XDP_TX"),
K("cost", "cache_op", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.cache_op, "19", 0, 1e6, "cycles", "an mlx5e page cache put or get attempt, beyond its memory accesses"),
K("cost", "cqe_decompress", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.cqe_decompress, "10", 0, 1e6, "cycles", "a compressed completion's work beyond a plain one's: its mini CQE expanded into the title CQE (mlx5e_decompress_cqe) and its slot's owner bit written back (mlx5e_cqes_update_owner), beyond their memory accesses"),
K("cost", "redirect", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.redirect, "40", 0, 1e6, "cycles", "XDP_REDIRECT through a devmap, a frame: xdp_do_redirect, the xdp_frame written into the headroom, the bulk queue and its flush (ndo_xdp_xmit) shared by 16"),
K("cost", "pp_lock", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.pp_lock, "37", 0, 1e6, "cycles", "the ring's producer spin lock, taken and released: part of cost.pp_ring, which a bulk put of n pages pays once, not n times"),
K("cost", "skb_build", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.skb_build, "500", 0, 1e7, "cycles", "an xdp_frame made an skb (cpumap kthread, veth NAPI), handed to the stack, dropped early there and freed, beyond its memory accesses and page work (a guess, near the TCP fit's cost.stack of 495 for skb, GRO, IP and TCP)"),
K("cost", "doorbell", KEY_DOUBLE, KEY_PLAIN, sim.rxq.cost.doorbell, "50", 0, 1e6, "cycles", "MMIO doorbell write"),
K("model", "win_ring", KEY_DOUBLE, KEY_PLAIN, sim.rxq.overlap.win_ring, "102", 0, 1e5, "cycles", "work that hides a ring read (a CQE): the L2 streamer runs this far ahead"),
K("model", "win_random", KEY_DOUBLE, KEY_PLAIN, sim.rxq.overlap.win_random, "34", 0, 1e5, "cycles", "work between the driver's prefetch of a packet line or struct page and its use"),
K("model", "win_stack", KEY_DOUBLE, KEY_PLAIN, sim.rxq.overlap.win_stack, "125", 0, 1e5, "cycles", "work between the driver's prefetch of a packet and the stack's first read of it (build_skb, the skb's fields, checksum parsing): the window of the headers of a packet handed to the stack"),
K("model", "store_exposure", KEY_DOUBLE, KEY_PLAIN, sim.rxq.overlap.store_exposure, "0.25", 0, 1, "", "fraction of a store miss the core waits for"),
K("model", "copy_mlp", KEY_DOUBLE, KEY_PLAIN, sim.rxq.overlap.copy_mlp, "10", 1, 64, "", "cache misses a streaming copy keeps in flight (L1D fill buffers): its lines arrive at this many a latency, under the copy's own work"),
K("model", "jitter", KEY_DOUBLE, KEY_PLAIN, sim.hw.jitter, "0.02", 0, 1, "", "coefficient of variation of a poll's duration (interrupts, noise)"),
KR("case", "workload", sim.rxq.workload, workloads),
K("case", "redirect_cpu", KEY_INT, KEY_PLAIN, sim.load.redirect_cpu, "-1", -1, 511, "", "xdp_cpumap: the CPU whose cpumap kthread takes the frames (node = cpu / cores), not a queue's CPU: required; xdp_redirect with redirect_port = other: the CPU whose irq polls that port's channel; -1 (the default) or the queue's CPU: mlx5's own placement, that channel's irq on the redirecting CPU, polled in its softirq after the queue's"),
KW("case", "redirect_port", sim.rxq.redirect_port, port_words, "same", "xdp_redirect: out of the port the packet came in on (same), or out of the adapter's other port (other; nic.ports = 2): onto that port's channel of the redirecting CPU (6.1 en/xdp.c mlx5e_xdp_xmit), whose NAPI, on redirect_cpu (its irq's CPU; by default the redirecting CPU, where mlx5 puts it), polls the completions and returns the pages to the pool from there: the ring from another CPU, and in 6.12 directly when it is the pool's CPU and the pool's NAPI is still scheduled"),
K("case", "app_cpu", KEY_INT, KEY_PLAIN, sim.load.app_cpu, "-1", -1, 511, "", "tcp: the CPU of the process reading the stream (node = cpu / cores), another than the NAPI's: its own actor, its own cycles and memory accesses, a socket of tcp_rmem between them, and the skbs freed where its era frees them; -1 (or the irq's CPU, the same): the reader reads on the NAPI's CPU after each poll and moves with the irq"),
KW("case", "xdp_touch", sim.rxq.touch, touch_words, "read", "what the XDP program does with the data: none, read (the headers), write (read and swap the MAC addresses, as an XDP_TX program does); a tcp case has no XDP program: its stack reads the headers"),
K("case", "pkt_size", KEY_INT, KEY_SIZE, sim.rxq.pkt_size, "60", 60, 3520, "B", "frame size without its FCS (a minimum 64-byte frame is 60)"),
K("case", "rate", KEY_DOUBLE, KEY_PKTRATE, sim.load.rate, "0", 0, 1e10, "pps", "offered load (0 = line rate)"),
K("case", "queues", KEY_INT, KEY_PLAIN, sim.load.queues, "1", 1, 64, "", "rx queues, one NAPI each on consecutive CPUs; RSS spreads packets evenly"),
K("case", "irq_cpus", KEY_INT, KEY_PLAIN, sim.load.irq_cpus, "0", 0, 64, "", "CPUs the queues spread over, round robin (0: one CPU a queue)"),
K("case", "irq_cpu", KEY_INT, KEY_PLAIN, sim.load.irq_cpu, "0", 0, 511, "", "CPU running queue 0's NAPI at the start (node = cpu / cores)"),
K("case", "migrate_at", KEY_DOUBLE, KEY_TIME, sim.load.migrate_at, "-1", -1, 3600, "s", "when the irq moves (negative: never)"),
K("case", "migrate_cpu", KEY_INT, KEY_PLAIN, sim.load.migrate_cpu, "0", 0, 511, "", "CPU the irq moves to"),
K("case", "warmup", KEY_DOUBLE, KEY_TIME, sim.load.warmup, "20ms", 0, 3600, "s", "simulated time before measuring (after any migration)"),
K("case", "duration", KEY_DOUBLE, KEY_TIME, sim.load.duration, "50ms", 1e-6, 3600, "s", "simulated time measured"),
K("case", "sample", KEY_DOUBLE, KEY_TIME, sim.load.sample, "1ms", 1e-6, 3600, "s", "interval of the transient samples; a run keeps 2046 (migrate_at + warmup + duration over sample at most that): left unset, it grows to the next 1, 2 or 5 x 10^n s that fits a longer run"),
K("case", "policies", KEY_POLICIES, KEY_PLAIN, policies, "v5.4 v5.5", 0, 0, "", "page_pool eras to compare"),
K("case", "label", KEY_TEXT, KEY_PLAIN, label, "", 0, 0, "", "the case's cells in --format commit, '|' between columns (Far | Drop), as many as label_columns has; by default its name"),
K("case", "label_columns", KEY_TEXT, KEY_PLAIN, label_columns, "", 0, 0, "", "the headers of the label's columns in --format commit (NUMA | XDP), as the seed's commit message has them, at most 4; by default Case"),
K("case", "baseline", KEY_POLICY, KEY_PLAIN, baseline, "", 0, 0, "", "the policy the others are compared with (delta%), one of policies; by default the first"),
K("case", "measured", KEY_MEASURED, KEY_PLAIN, measured, "", 0, 0, "", "measured rates, POLICY:VALUE ..., in the case's unit: Mpps (XDP), Gbps (TCP)"),
KS("calibrate", "free", KEY_TEXT, KEY_PLAIN, free, "", 0, 0, "", "parameters ppsim calibrate fits: KEY:MIN:MAX ..."),
KS("calibrate", "cases", KEY_TEXT, KEY_PLAIN, cases, "", 0, 0, "", "the cases they are fitted on (their measured figures)"),
KS("calibrate", "tolerance", KEY_DOUBLE, KEY_PLAIN, tolerance, "25", 0, 1000, "%", "largest error ppsim validate accepts"),
KS("calibrate", "effect_tolerance", KEY_DOUBLE, KEY_PLAIN, effect_tolerance, "5", 0, 1000, "points", "largest error ppsim validate accepts in a change: a before/after or a trend step, predicted change % less measured change %"),
};

#define NR_CORE_KEYS (sizeof(core_keys) / sizeof(core_keys[0]))

/*
 * The registry input/ parses from: the core keys, and each workload's own
 * after the core key its keys_after names (after the last case key when
 * it names none), their values made the case's; with who owns each
 * (NULL: the core).  Built before main(), from tables that are constants.
 */
static struct key scn_keys[SCN_MAX_KEYS];
static const struct workload_ops *key_owner[SCN_MAX_KEYS];
static size_t nr_keys;
static size_t keys_left_out;	/* past SCN_MAX_KEYS: set_defaults says it */
#define NR_KEYS nr_keys

/* A registry key's help: "a, b (its doc) or c". */
static const char *registry_help(const struct workload_ops *const *reg)
{
	static char help[1024];
	size_t n = 0;

	for (int i = 0; reg[i] && n < sizeof(help); i++)
		n += (size_t)snprintf(help + n, sizeof(help) - n, "%s%s%s%s%s",
				      !i ? "" : reg[i + 1] ? ", " : " or ",
				      reg[i]->name, reg[i]->doc ? " (" : "",
				      reg[i]->doc ? reg[i]->doc : "",
				      reg[i]->doc ? ")" : "");
	return help;
}

static void add_key(const struct key *k, const struct workload_ops *owner)
{
	if (nr_keys == SCN_MAX_KEYS) {
		keys_left_out++;
		return;
	}
	scn_keys[nr_keys] = *k;
	if (k->registry) {
		scn_keys[nr_keys].def = k->registry[0]->name;
		scn_keys[nr_keys].help = registry_help(k->registry);
	}
	if (owner)
		scn_keys[nr_keys].offset += offsetof(struct scn_case, sim.rxq);
	key_owner[nr_keys++] = owner;
}

static bool core_case_key(const char *name)
{
	for (size_t i = 0; i < NR_CORE_KEYS && name; i++)
		if (!strcmp(core_keys[i].section, "case") &&
		    !strcmp(core_keys[i].name, name))
			return true;
	return false;
}

__attribute__((constructor)) static void build_registry(void)
{
	for (size_t i = 0; i < NR_CORE_KEYS; i++) {
		const struct key *k = &core_keys[i];
		bool in_case = !strcmp(k->section, "case");
		bool last = in_case && (i + 1 == NR_CORE_KEYS ||
					strcmp(core_keys[i + 1].section, "case"));

		add_key(k, NULL);
		for (int w = 0; workloads[w] && in_case; w++) {
			const struct workload_ops *o = workloads[w];
			bool here = core_case_key(o->keys_after) ?
				    !strcmp(o->keys_after, k->name) : last;

			for (int j = 0; here && j < o->nr_keys; j++)
				add_key(&o->keys[j], o);
		}
	}
}

static const char *const hw_sections[] = {
	"cpu", "cache", "mem", "qpi", "pcie", "nic", "driver", "cost",
	"model", "calibrate", NULL,
};

/* ---- values ---- */

struct suffix {
	const char *s;
	double mult;
	bool shown;	/* scn_format_value writes values with it */
};

static const struct suffix time_sfx[] = {
	{ "ns", 1e-9, true }, { "us", 1e-6, true }, { "ms", 1e-3, true },
	{ "s", 1, true }, { 0, 0, 0 } };
static const struct suffix size_sfx[] = {
	{ "B", 1, true }, { "K", 1024, true }, { "KiB", 1024, false },
	{ "M", 1 << 20, true }, { "MiB", 1 << 20, false },
	{ "G", 1 << 30, true }, { "GiB", 1 << 30, false }, { 0, 0, 0 } };
static const struct suffix freq_sfx[] = {
	{ "Hz", 1, true }, { "kHz", 1e3, true }, { "MHz", 1e6, true },
	{ "GHz", 1e9, true }, { 0, 0, 0 } };
static const struct suffix byterate_sfx[] = {
	{ "B/s", 1, true }, { "MB/s", 1e6, true }, { "GB/s", 1e9, true },
	{ "Mbps", 1e6 / 8, false }, { "Gbps", 1e9 / 8, false }, { 0, 0, 0 } };
static const struct suffix bitrate_sfx[] = {
	{ "bps", 1, true }, { "Mbps", 1e6, true }, { "Gbps", 1e9, true },
	{ 0, 0, 0 } };
static const struct suffix pktrate_sfx[] = {
	{ "pps", 1, true }, { "Kpps", 1e3, true }, { "Mpps", 1e6, true },
	{ 0, 0, 0 } };
static const struct suffix none_sfx[] = { { "", 1, true }, { 0, 0, 0 } };

static const struct suffix *const suffixes[] = {
	[KEY_PLAIN] = none_sfx, [KEY_TIME] = time_sfx, [KEY_SIZE] = size_sfx,
	[KEY_FREQ] = freq_sfx, [KEY_BYTERATE] = byterate_sfx,
	[KEY_BITRATE] = bitrate_sfx, [KEY_PKTRATE] = pktrate_sfx,
};

static bool is_number(const struct key *k)
{
	return k->store <= KEY_DOUBLE;
}

/* A number in base units fits its key: whole where the key keeps whole
 * numbers, within its range; text is how the value was written. */
static int check_number(const struct key *k, double v, const char *text,
			char *why, size_t len)
{
	if (k->store != KEY_DOUBLE && v != floor(v)) {
		snprintf(why, len, "'%s' is not a whole number", text);
		return -1;
	}
	if (v < k->min || v > k->max) {
		snprintf(why, len, "%s is out of range [%.10g, %.10g]%s%s",
			 text, k->min, k->max, *k->unit ? " " : "",
			 *k->unit && k->kind != KEY_TIME ? k->unit :
			 k->kind == KEY_TIME ? "s" : "");
		return -1;
	}
	return 0;
}

static int parse_number(const struct key *k, const char *text, double *v,
			char *why, size_t len)
{
	const struct suffix *sfx = suffixes[k->kind];
	const char *unit;
	char *end;

	errno = 0;
	*v = strtod(text, &end);
	if (end != text && errno == ERANGE && fabs(*v) < DBL_MIN) {
		/* strtod's underflow: a subnormal or 0, digits lost */
		snprintf(why, len, "'%s' is too close to 0 for a double "
			 "(below %g): write 0 or a larger number", text,
			 DBL_MIN);
		return -1;
	}
	if (end != text && errno == ERANGE) {
		snprintf(why, len, "'%s' is beyond what a double holds", text);
		return -1;
	}
	if (end == text || errno || !isfinite(*v)) {
		snprintf(why, len, "'%s' is not a number", text);
		return -1;
	}
	/* strtod reads C's hexadecimal too: 0x10 is no figure a source gives */
	if (memchr(text, 'x', (size_t)(end - text)) ||
	    memchr(text, 'X', (size_t)(end - text))) {
		snprintf(why, len, "'%s' is not a decimal number", text);
		return -1;
	}
	/* a bare number is in the key's unit; plain numbers take no suffix */
	unit = *end || sfx == none_sfx ? end : k->unit;
	for (; sfx->s; sfx++) {
		if (!strcmp(unit, sfx->s)) {
			*v *= sfx->mult;
			break;
		}
	}
	if (!sfx->s) {
		snprintf(why, len, "'%s': unknown unit '%s'", text, end);
		return -1;
	}
	return check_number(k, *v, text, why, len);
}

/* A policy the program has, by name; NULL with why if none: the names it
 * has, and how a kernel tree becomes one. */
static const struct pp_policy *policy_named(const struct pp_policy *const *set,
					    const char *name, char *why,
					    size_t len)
{
	const struct pp_policy *pol = pp_policy_find(set, name);
	size_t n;

	if (pol)
		return pol;
	n = (size_t)snprintf(why, len, "unknown policy '%s': this ppsim has",
			     name);
	for (int i = 0; set[i] && n < len; i++)
		n += (size_t)snprintf(why + n, len - n, " %s", set[i]->name);
	if (n < len)
		snprintf(why + n, len - n, " (a kernel tree is a policy with "
			 "./configure --with-linux=NAME=PATH)");
	return NULL;
}

/* policies = P ... into pols, or measured = P:VALUE ... (and a [fitted]
 * line) into figs: words of policy names, each with a value for figs.
 * Their number in *nr. */
static int parse_policy_words(const char *text, const struct pp_policy **pols,
			      struct scn_measured *figs, int *nr,
			      const struct pp_policy *const *set, char *why,
			      size_t len)
{
	char buf[SCN_LINE_MAX + 1], *save = NULL;
	bool values = figs != NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", text);
	for (char *p = strtok_r(buf, " \t,", &save); p;
	     p = strtok_r(NULL, " \t,", &save)) {
		char *colon = strchr(p, ':'), *end;
		const struct pp_policy *pol;
		double v;

		if (n == SCN_MAX_POLICIES) {
			snprintf(why, len, "at most %d %s", SCN_MAX_POLICIES,
				 values ? "POLICY:VALUE figures" : "policies");
			return -1;
		}
		if (values && !colon) {
			snprintf(why, len, "'%s': expected POLICY:VALUE", p);
			return -1;
		}
		if (values)
			*colon = '\0';
		pol = policy_named(set, p, why, len);
		if (!pol)
			return -1;
		for (int i = 0; i < n; i++)
			if ((values ? figs[i].policy : pols[i]) == pol) {
				snprintf(why, len, "%s named twice", pol->name);
				return -1;
			}
		if (!values) {
			pols[n++] = pol;
			continue;
		}
		errno = 0;
		v = strtod(colon + 1, &end);
		/* strtod reads hex (0xB, 0x1.6p3): no figure is written so */
		if (end == colon + 1 || *end || errno || !(v > 0) ||
		    !isfinite(v) || strpbrk(colon + 1, "xX")) {
			snprintf(why, len, "'%s' is not a positive number",
				 colon + 1);
			return -1;
		}
		if (v > SCN_MEASURED_MAX) {
			snprintf(why, len, "%s: %s is more than any NIC "
				 "carries (at most %g Mpps or Gbps)", pol->name,
				 colon + 1, SCN_MEASURED_MAX);
			return -1;
		}
		figs[n++] = (struct scn_measured){ pol, v };
	}
	if (!n) {
		snprintf(why, len, values ? "no POLICY:VALUE" :
			 "no policy named");
		return -1;
	}
	*nr = n;
	return 0;
}

/* Where key k is kept: in the case, or in the scenario's [calibrate]. */
static void *field_of(const struct key *k, struct scn_case *c,
		      struct scn_calibrate *cal)
{
	return (char *)(k->in_scenario ? (void *)cal : (void *)c) + k->offset;
}

static void store_number(const struct key *k, void *field, double v)
{
	switch (k->store) {
	case KEY_INT: *(int *)field = (int)v; break;
	case KEY_U32: *(uint32_t *)field = (uint32_t)v; break;
	case KEY_U64: *(uint64_t *)field = (uint64_t)v; break;
	default: *(double *)field = v; break;
	}
}

static double load_number(const struct key *k, const void *field)
{
	switch (k->store) {
	case KEY_INT: return *(const int *)field;
	case KEY_U32: return *(const uint32_t *)field;
	case KEY_U64: return (double)*(const uint64_t *)field;
	default: return *(const double *)field;
	}
}

/* A word key's i-th value, NULL past the last. */
static const char *word_at(const struct key *k, int i)
{
	if (k->words)
		return k->words[i];
	return k->registry[i] ? k->registry[i]->name : NULL;
}

/* The index of the value a word key's field holds. */
static int word_index(const struct key *k, const void *field)
{
	int i = 0;

	if (k->words)
		return *(const int *)field;
	while (k->registry[i] &&
	       k->registry[i] != *(const struct workload_ops *const *)field)
		i++;
	return i;
}

/* A word key's field set to its i-th value. */
static void word_set(const struct key *k, void *field, int i)
{
	if (k->words)
		*(int *)field = i;
	else
		*(const struct workload_ops **)field = k->registry[i];
}

/* Sets one key from its text; on error, why says what. */
/* "'text': expected a, b or c" */
static void word_choices(const struct key *k, const char *text,
			 char *why, size_t len)
{
	int n = snprintf(why, len, "'%s': expected", text);

	for (int i = 0; word_at(k, i) && n > 0 && (size_t)n < len; i++)
		n += snprintf(why + n, len - (size_t)n, "%s%s",
			      i == 0 ? " " : word_at(k, i + 1) ? ", " : " or ",
			      word_at(k, i));
}

static int set_value(struct scn_case *c, struct scn_calibrate *cal,
		     const struct key *k, const char *text,
		     const struct pp_policy *const *set, char *why,
		     size_t len)
{
	void *field = field_of(k, c, cal);
	double v;

	switch (k->store) {
	case KEY_WORD:
		for (int i = 0; word_at(k, i); i++) {
			if (!strcmp(text, word_at(k, i))) {
				word_set(k, field, i);
				return 0;
			}
		}
		word_choices(k, text, why, len);
		return -1;
	case KEY_POLICIES:
		return parse_policy_words(text, c->policies, NULL,
					  &c->nr_policies, set, why, len);
	case KEY_MEASURED:
		return parse_policy_words(text, NULL, c->measured,
					  &c->nr_measured, set, why, len);
	case KEY_POLICY:
		*(const struct pp_policy **)field = policy_named(set, text,
								 why, len);
		return *(const struct pp_policy **)field ? 0 : -1;
	case KEY_TEXT:
		if (strlen(text) >= SCN_TEXT_MAX) {
			snprintf(why, len, "longer than %d characters",
				 SCN_TEXT_MAX - 1);
			return -1;
		}
		snprintf((char *)field, SCN_TEXT_MAX, "%s", text);
		return 0;
	default:
		break;
	}
	if (parse_number(k, text, &v, why, len))
		return -1;
	store_number(k, field, v);
	return 0;
}

/* ---- keys by name ---- */

static const struct key *find_key(const char *section, const char *name)
{
	for (size_t i = 0; i < NR_KEYS; i++)
		if (!strcmp(scn_keys[i].section, section) &&
		    !strcmp(scn_keys[i].name, name))
			return &scn_keys[i];
	return NULL;
}

/*
 * The edit distance of a and b, or limit if it is limit or more; letters
 * differing in case only are equal (WIN_STACK is win_stack).  Only the
 * band of cells within limit of the diagonal is computed, row by row, and
 * a row that reaches limit everywhere ends it: a suggestion wants a
 * distance of 3 at most, and an unknown key is compared with every key.
 */
static size_t edit_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];

	if (la >= 64 || lb >= 64 || (la > lb ? la - lb : lb - la) >= limit)
		return limit;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j < limit ? j : limit;
	for (size_t i = 1; i <= la; i++) {
		size_t lo = i >= limit ? i - limit + 1 : 1;
		size_t hi = i + limit - 1 < lb ? i + limit - 1 : lb;
		size_t row_min = cur[0] = i < limit ? i : limit;

		cur[lo - 1] = lo > 1 ? limit : cur[0];
		for (size_t j = lo; j <= hi; j++) {
			size_t v = prev[j - 1] +
				   (tolower((unsigned char)a[i - 1]) !=
				    tolower((unsigned char)b[j - 1]));

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			cur[j] = v < limit ? v : limit;
			if (cur[j] < row_min)
				row_min = cur[j];
		}
		if (hi < lb)	/* the next row reads one cell past the band */
			cur[hi + 1] = limit;
		if (row_min >= limit)
			return limit;
		memcpy(prev, cur, (lb + 1) * sizeof(*prev));
	}
	return prev[lb];
}

/* Keys a scenario may still carry from an earlier ppsim, and what took
 * their place: the value cannot be carried over, its unit changed. */
static const struct { const char *key, *now; } retired_keys[] = {
	{ "cache.l2_lat", "cache.l2_cycles, in core cycles" },
	{ "model.hide_random", "model.win_random, in cycles of work" },
	{ "model.hide_stream", "model.win_ring, in cycles of work" },
};

static const char *retired(const char *section, const char *name)
{
	char key[160];

	snprintf(key, sizeof(key), "%s.%s", section, name);
	for (size_t i = 0; i < sizeof(retired_keys) / sizeof(*retired_keys); i++)
		if (!strcmp(key, retired_keys[i].key))
			return retired_keys[i].now;
	return NULL;
}

/* "section.name" of the key closest to what was written, or "" */
static void suggest(const char *section, const char *name, char *out,
		    size_t len)
{
	char want[160], have[160];
	size_t best = 4;

	snprintf(want, sizeof(want), "%s.%s", section, name);
	out[0] = '\0';
	for (size_t i = 0; i < NR_KEYS; i++) {
		size_t d;

		const char *a = want, *b = have;

		snprintf(have, sizeof(have), "%s.%s", scn_keys[i].section,
			 scn_keys[i].name);
		if (strcmp(scn_keys[i].section, section) == 0) {
			a = name;
			b = scn_keys[i].name;
		}
		/* the lengths' difference is a lower bound of the distance:
		 * most keys are too far to be worth the table */
		if ((size_t)labs((long)strlen(a) - (long)strlen(b)) >= best)
			continue;
		d = edit_distance(a, b, best);
		if (d < best) {
			best = d;
			snprintf(out, len, "%s%s%s",
				 strcmp(scn_keys[i].section, "case") ?
				 scn_keys[i].section : "",
				 strcmp(scn_keys[i].section, "case") ? "." : "",
				 scn_keys[i].name);
		}
	}
}

static const struct key *find_dotted(const char *key)
{
	const char *dot = strchr(key, '.');
	char section[32];

	/* [global]'s keys are the cases' (global.duration is duration) */
	if (!dot || !strncmp(key, "global.", 7))
		return find_key("case", dot ? dot + 1 : key);
	snprintf(section, sizeof(section), "%.*s", (int)(dot - key), key);
	return find_key(section, dot + 1);
}

int scn_case_get(const struct scn_case *c, const char *key, double *v)
{
	const struct key *k = find_dotted(key);

	if (!k || !is_number(k) || k->in_scenario)
		return -1;
	*v = load_number(k, (const char *)c + k->offset);
	return 0;
}

int scn_case_word(const struct scn_case *c, const char *key, char *buf,
		  size_t len)
{
	const struct key *k = find_dotted(key);

	if (!k || k->store != KEY_WORD || k->in_scenario)
		return -1;
	snprintf(buf, len, "%s", word_at(k, word_index(k, (const char *)c +
							      k->offset)));
	return 0;
}

int scn_case_set(struct scn_case *c, const char *key, const char *value,
		 char *why, size_t len)
{
	const struct key *k = find_dotted(key);

	if (!k || !is_number(k) || k->in_scenario) {
		snprintf(why, len, "unknown numeric key '%s'", key);
		return -1;
	}
	return set_value(c, NULL, k, value, NULL, why, len);
}

/* ---- reading files ---- */

struct assignment {
	const char *file;
	int line;
	char section[SCN_NAME_MAX + 8];
	char key[SCN_NAME_MAX];
	char value[SCN_LINE_MAX + 1];
};

struct loader {
	struct scenario *scn;
	const struct pp_policy *const *policies;	/* the program's */
	struct assignment *as;
	int nr_as, cap_as;
	int errors;
	/* a hash of each error said: the same error, from a --set every
	 * case applies, is said once */
	unsigned long said[DATADIR_MAX_ERRORS];
	int nr_said;
	/* the file being read */
	const char *file;
	FILE *f;
	int line;
	const char *stack[SCN_INCLUDE_DEPTH];	/* real paths being read */
	int depth;
	int nr_read;		/* files read, SCN_MAX_FILES */
	long bytes;		/* their sizes, SCN_MAX_BYTES */
	bool stop;		/* past a bound: no line more is read */
	bool bad_header;	/* the last section line was refused: its
				 * keys are not said again as sectionless */
	/* the cases the command runs (--case), all when nr_only is 0: the
	 * overrides apply to those alone */
	const char *const *only;
	int nr_only;
};

/* Says an error, up to DATADIR_MAX_ERRORS of them: past those the file
 * is something else than a scenario with mistakes. */
static void error_at(struct loader *ld, const char *file, int line,
		     const char *fmt, ...)
{
	unsigned long hash = 14695981039346656037UL;	/* FNV-1a */
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (const char *p = file; *p; p++)
		hash = (hash ^ (unsigned char)*p) * 1099511628211UL;
	hash = (hash ^ (unsigned long)line) * 1099511628211UL;
	for (const char *p = text; *p; p++)
		hash = (hash ^ (unsigned char)*p) * 1099511628211UL;
	for (int i = 0; i < ld->nr_said; i++)
		if (ld->said[i] == hash)
			return;	/* counted when it was said */
	if (ld->nr_said < DATADIR_MAX_ERRORS)
		ld->said[ld->nr_said++] = hash;
	if (ld->errors++ == DATADIR_MAX_ERRORS)
		datadir_error(file, line, "too many errors: no more said");
	if (ld->errors > DATADIR_MAX_ERRORS)
		return;
	datadir_error(file, line, "%s", text);
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

static bool section_known(const char *section)
{
	for (int i = 0; hw_sections[i]; i++)
		if (!strcmp(section, hw_sections[i]))
			return true;
	return !strcmp(section, "global") || !strcmp(section, "fitted") ||
	       (!strncmp(section, "case ", 5) && section[5]) ||
	       (!strncmp(section, "sweep ", 6) && section[6]);
}

/* Room for one more assignment; NULL, said and counted as an error, with
 * nothing more read, when there is no memory for it. */
static struct assignment *new_assignment(struct loader *ld)
{
	if (ld->nr_as == ld->cap_as) {
		int cap = ld->cap_as ? 2 * ld->cap_as : 128;
		struct assignment *as = realloc(ld->as, (size_t)cap *
						 sizeof(*ld->as));

		if (!as) {
			error_at(ld, ld->file, ld->line, "out of memory");
			ld->stop = true;	/* read no more */
			return NULL;
		}
		ld->as = as;
		ld->cap_as = cap;
	}
	ld->as[ld->nr_as] = (struct assignment){ .file = ld->file,
						 .line = ld->line };
	return &ld->as[ld->nr_as++];
}

/* A section header: an unknown one is an error at its line. */
static void section_seen(struct loader *ld, char *header)
{
	char buf[SCN_NAME_MAX + 8], *name;
	struct assignment *a;

	if (strlen(header) - 2 > SCN_SECTION_MAX) {
		/* inih would cut it: a case of a longer name would split
		 * into two, or lose its end */
		error_at(ld, ld->file, ld->line, "section name longer than %d "
			 "characters ([case NAME]: %d for NAME)",
			 SCN_SECTION_MAX, SCN_SECTION_MAX - 5);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*s", (int)strlen(header) - 2,
		 header + 1);
	name = trim(buf);
	if (!strcmp(name, "case") || !strcmp(name, "sweep")) {
		error_at(ld, ld->file, ld->line, "[%s] without a name: "
			 "expected [%s NAME]", name, name);
		return;
	}
	if (!section_known(name)) {
		const char *near = edit_distance(name, "global", 3) <= 2 ? "global"
				   : edit_distance(name, "fitted", 3) <= 2 ?
				   "fitted" : NULL;

		for (int i = 0; hw_sections[i] && !near; i++)
			if (edit_distance(name, hw_sections[i], 3) <= 2)
				near = hw_sections[i];
		if (near)
			error_at(ld, ld->file, ld->line, "unknown section "
				 "[%s] (did you mean [%s]?)", name, near);
		else
			error_at(ld, ld->file, ld->line, "unknown section "
				 "[%s]: expected [global], [case NAME] or a "
				 "hardware section ([cpu], [cache], [mem], "
				 "[qpi], [pcie], [nic], [driver], [cost], "
				 "[model])", name);
		return;
	}
	/* a case's or a sweep's header is kept: it makes the case (one
	 * that sets nothing runs with the defaults), and a second header of
	 * the same name in the file is an error (check_duplicates) */
	if ((!strncmp(name, "case ", 5) || !strncmp(name, "sweep ", 6)) &&
	    (a = new_assignment(ld)))
		snprintf(a->section, SCN_NAME_MAX + 8, "%s", name);
}

/* The first control character of text (tab aside), or its end: such a
 * character would reach a terminal, or split an output's line. */
static const char *control_char(const char *text)
{
	while (*text && !((*text > 0 && *text < ' ' && *text != '\t') ||
			  *text == 0x7f))
		text++;
	return text;
}

/*
 * inih's reader: hands inih one line at a time, after checking it, so that
 * every bad line is reported with its number (inih reports only the first,
 * with no reason), over-long lines are refused (inih would cut them and
 * shift every later line number), and indentation is not read as a
 * continuation line.  Comments (# or ; to the end of the line) go here too.
 */
static char *ini_reader_checked(char *str, int num, void *stream)
{
	struct loader *ld = stream;
	char text[SCN_READ_MAX];
	int problem;
	long len = datadir_getline(ld->f, text, sizeof(text), &problem);
	const char *ctl;
	char *s;

	if (len < 0 || ld->stop)
		return NULL;
	if (ld->errors >= DATADIR_MAX_ERRORS) {
		/* error_at says "too many errors" for this one */
		error_at(ld, ld->file, ld->line + 1, "not read further");
		return NULL;
	}
	ld->line++;
	snprintf(str, num, "\n");
	if (problem == LINE_NUL) {
		error_at(ld, ld->file, ld->line, "NUL byte: not a text file");
		return str;
	}
	s = text + strspn(text, " \t");
	/* "[case #x]": the '#' begins a comment, and what is left
	 * would be said as a missing ']' */
	if (*s == '[' && s[strcspn(s, "#;")] && strchr(s, ']') &&
	    strchr(s, ']') > s + strcspn(s, "#;")) {
		error_at(ld, ld->file, ld->line, "'%c' in a section name: "
			 "'#' and ';' begin a comment", s[strcspn(s, "#;")]);
		ld->bad_header = true;
		return str;
	}
	s = text + strcspn(text, "#;");
	*s = '\0';
	s = trim(text);
	if (!*s && problem == LINE_OK)
		return str;
	if (problem == LINE_TOO_LONG || strlen(s) > SCN_LINE_MAX ||
	    (int)strlen(s) + 2 > num) {
		error_at(ld, ld->file, ld->line,
			 "line longer than %d characters", SCN_LINE_MAX);
		return str;
	}
	if (*(ctl = control_char(s))) {
		error_at(ld, ld->file, ld->line, "control character 0x%02x",
			 *ctl);
		return str;
	}
	if (*s == '[' && strchr(s, ']') &&
	    strchr(s, ']') != s + strlen(s) - 1) {
		error_at(ld, ld->file, ld->line, "']' inside a section name");
		ld->bad_header = true;
		return str;
	}
	if (*s == '[' ? s[strlen(s) - 1] != ']' : !strchr(s, '=') ||
	    *s == '=') {
		error_at(ld, ld->file, ld->line, *s == '[' ?
			 "expected ']' at the end of a section name" :
			 "expected KEY = VALUE, [SECTION] or a comment");
		ld->bad_header |= *s == '[';
		return str;
	}
	if (*s == '[') {
		ld->bad_header = false;
		section_seen(ld, s);
	}
	snprintf(str, num, "%s\n", s);
	return str;
}

static int load_file(struct loader *ld, const char *path, const char *value,
		     const char *from, int from_line);

/*
 * include = FILE: relative to the including file's directory, else to the
 * data directory's scenarios/ (where the shipped profiles and calibrations
 * are: a copy of a shipped scenario still finds hw/...), else to the data
 * directory.  Writes the first that exists into path, or the first.
 */
static void include_path(const char *file, const char *value, char *path,
			 size_t len)
{
	char dir[PATH_MAX], alt[PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", file);
	if (value[0] == '/' || !strchr(file, '/'))
		snprintf(path, len, "%s", value);
	else
		snprintf(path, len, "%s/%s", dirname(dir), value);
	/* only a name that names nothing falls back (a dangling link, a
	 * file not readable, a loop: that file's error, said) */
	if (value[0] == '/' || !datadir_names_nothing(path))
		return;
	snprintf(alt, sizeof(alt), "%s/scenarios/%s", datadir_path(), value);
	if (stat(alt, &st))
		snprintf(alt, sizeof(alt), "%s/%s", datadir_path(), value);
	if (!stat(alt, &st))
		snprintf(path, len, "%s", alt);
}

static void include_file(struct loader *ld, const char *value)
{
	char path[PATH_MAX];
	const char *file = ld->file;
	int line = ld->line;
	FILE *f = ld->f;

	include_path(file, value, path, sizeof(path));
	load_file(ld, path, value, file, line);
	ld->file = file;
	ld->line = line;
	ld->f = f;
}

static int ini_handler_record(void *user, const char *section,
			      const char *name, const char *value)
{
	struct loader *ld = user;
	struct assignment *a;

	if (ld->bad_header)
		return 1;	/* under a header said bad: not its section's */
	if (!*section) {
		error_at(ld, ld->file, ld->line, "%s: set before any [section]",
			 name);
		return 1;
	}
	if (!section_known(section))
		return 1;	/* reported at its header */
	if (!strcmp(name, "include")) {
		/* what a file holds is every case's (its [global], its
		 * hardware): read inside a [case] it would look like the
		 * case's own and change the machine of them all */
		if (!strncmp(section, "case ", 5) ||
		    !strncmp(section, "sweep ", 6))
			error_at(ld, ld->file, ld->line, "include in [%s]: "
				 "an included file's settings are every "
				 "case's; include it in [global] (a case sets "
				 "its own keys, nic.rx_ring = 512)", section);
		else if (!*value)
			error_at(ld, ld->file, ld->line, "include: empty value "
				 "(a file to read, relative to this one)");
		else
			include_file(ld, value);
		return 1;
	}
	if (!*value) {
		error_at(ld, ld->file, ld->line, "%s: empty value", name);
		return 1;
	}
	if (strlen(name) >= sizeof(a->key)) {
		/* cut, it would name another key, or another case */
		error_at(ld, ld->file, ld->line, "key longer than %d "
			 "characters", (int)sizeof(a->key) - 1);
		return 1;
	}
	if (ld->nr_as == SCN_MAX_SETTINGS) {
		error_at(ld, ld->file, ld->line, "more than %d keys set: not "
			 "a scenario ppsim reads", SCN_MAX_SETTINGS);
		ld->stop = true;	/* read no more */
		return 1;
	}
	a = new_assignment(ld);
	if (!a)
		return 1;
	snprintf(a->section, sizeof(a->section), "%s", section);
	snprintf(a->key, sizeof(a->key), "%s", name);
	snprintf(a->value, sizeof(a->value), "%s", value);
	return 1;
}

/* A copy of name the scenario keeps (and frees); NULL when there is no
 * memory for it. */
static const char *keep_name(struct loader *ld, const char *name)
{
	struct scenario *scn = ld->scn;
	char **files = realloc(scn->files, (scn->nr_files + 1) *
				sizeof(*scn->files));

	if (!files)
		return NULL;
	scn->files = files;
	scn->files[scn->nr_files] = strdup(name);
	return scn->files[scn->nr_files] ? scn->files[scn->nr_files++] : NULL;
}

/* Reads path (value: an include as written, for messages; from and
 * from_line: where it was included, NULL for the scenario itself). */
static int load_file(struct loader *ld, const char *path, const char *value,
		     const char *from, int from_line)
{
	char found[PATH_MAX], real[PATH_MAX];
	const char *kept, *shown;
	FILE *f;
	struct stat st;
	bool bad_header;
	int rc;

	if (ld->stop)
		return -1;
	f = datadir_fopen(path, found, sizeof(found));

	if (!f) {
		if (from)
			error_at(ld, from, from_line, "include %s: %s", value,
				 datadir_strerror(errno));
		else {
			fprintf(stderr, "%s: cannot open: %s\n", path,
				datadir_strerror(errno));
			ld->errors++;
		}
		return -1;
	}
	if (!realpath(found, real))
		snprintf(real, sizeof(real), "%s", found);
	for (int i = 0; i < ld->depth; i++) {
		if (!strcmp(ld->stack[i], real)) {
			error_at(ld, from, from_line, "include %s: includes "
				 "itself (include cycle)", value);
			fclose(f);
			return -1;
		}
	}
	if (ld->depth == SCN_INCLUDE_DEPTH) {
		error_at(ld, from, from_line, "include %s: more than %d "
			 "levels of include", path, SCN_INCLUDE_DEPTH);
		fclose(f);
		return -1;
	}
	if (ld->nr_read == SCN_MAX_FILES ||
	    (!fstat(fileno(f), &st) && (ld->bytes += st.st_size) >
	     SCN_MAX_BYTES)) {
		if (from)
			error_at(ld, from, from_line, "include %s: more than "
				 "%s read for one scenario (includes of "
				 "includes counted)", value, ld->nr_read ==
				 SCN_MAX_FILES ? "64 files" : "64 MiB");
		ld->stop = true;	/* read no more */
		fclose(f);
		return -1;
	}
	ld->nr_read++;
	kept = keep_name(ld, real);
	shown = keep_name(ld, from ? found : path);
	if (!kept || !shown) {
		datadir_error(path, 0, "out of memory");
		ld->errors++;
		ld->stop = true;	/* read no more */
		fclose(f);
		return -1;
	}
	ld->stack[ld->depth++] = kept;
	ld->file = shown;
	ld->f = f;
	ld->line = 0;
	bad_header = ld->bad_header;	/* the includer's, after */
	ld->bad_header = false;
	rc = ini_parse_stream(ini_reader_checked, ld, ini_handler_record, ld);
	ld->bad_header = bad_header;
	if (rc < 0)
		error_at(ld, ld->file, ld->line + 1, "read error");
	if (ld->line == 0 && !from)
		error_at(ld, ld->file, 1, "empty scenario: no case");
	else if (ld->line == 0)	/* a calibration whose write failed? */
		error_at(ld, from, from_line, "include %s: empty file", value);
	ld->depth--;
	fclose(f);
	return 0;
}

/* ---- building cases ---- */

struct origin {
	const char *file;
	int line;
	bool in_case;	/* in the case's own [case] section */
};

static int apply(struct loader *ld, struct scn_case *c, struct origin *org,
		 const struct assignment *a, bool in_case)
{
	const char *section = in_case || !strcmp(a->section, "global")
			      ? "case" : a->section;
	const char *dot = strchr(a->key, '.');
	const struct key *k;
	char why[200], hint[80], hw[SCN_NAME_MAX];
	const char *ksec = section, *kname = a->key;	/* as written */

	if (ld && ld->errors >= DATADIR_MAX_ERRORS)
		return -1;	/* nothing more is said: no work for it */

	/* a case may override a hardware key: nic.rx_ring = 512 */
	if (dot && !strcmp(section, "case")) {
		snprintf(hw, sizeof(hw), "%.*s", (int)(dot - a->key), a->key);
		ksec = hw;
		kname = dot + 1;
		k = find_key(hw, dot + 1);
		if (k && k->in_scenario) {
			error_at(ld, a->file, a->line, "'%s' belongs to the "
				 "whole scenario: set it in [%s]", a->key,
				 k->section);
			return -1;
		}
		if (k && strcmp(hw, "case")) {
			section = k->section;
			goto found;
		}
	}
	k = find_key(section, a->key);
found:
	if (!k) {
		const struct key *elsewhere = NULL;
		const char *now = retired(ksec, kname);

		for (size_t i = 0; i < NR_KEYS && !elsewhere; i++)
			if (!strcmp(scn_keys[i].name, a->key))
				elsewhere = &scn_keys[i];
		if (elsewhere && !strcmp(elsewhere->section, "case")) {
			error_at(ld, a->file, a->line, "'%s' belongs in "
				 "[global] or a [case]", a->key);
		} else if (elsewhere) {
			error_at(ld, a->file, a->line, "'%s' belongs in "
				 "[%s]", a->key, elsewhere->section);
		} else if (now) {
			error_at(ld, a->file, a->line, "'%s' is gone: it became "
				 "%s", a->key, now);
		} else {
			suggest(ksec, kname, hint, sizeof(hint));
			error_at(ld, a->file, a->line, "unknown key '%s'%s%s%s",
				 a->key, *hint ? " (did you mean " : "", hint,
				 *hint ? "?)" : "");
		}
		return -1;
	}
	if (set_value(c, &ld->scn->calibrate, k, a->value, ld->policies, why,
		      sizeof(why))) {
		error_at(ld, a->file, a->line, "%s: %s", a->key, why);
		return -1;
	}
	org[k - scn_keys] = (struct origin){ a->file, a->line, in_case };
	ld->scn->written[k - scn_keys] = true;
	if (k->in_scenario && !strcmp(k->name, "free")) {
		ld->scn->calibrate.free_file = a->file;
		ld->scn->calibrate.free_line = a->line;
	}
	return 0;
}

static void check_duplicates(struct loader *ld)
{
	for (int i = 0; i < ld->nr_as; i++) {
		for (int j = 0; j < i; j++) {
			const struct assignment *a = &ld->as[i], *b = &ld->as[j];

			if (a->file != b->file ||
			    strcmp(a->section, b->section) ||
			    strcmp(a->key, b->key))
				continue;
			/* two [case a] would merge into one case unseen */
			if (!*a->key)
				error_at(ld, a->file, a->line, "[%s] a second "
					 "time (first at line %d): one section "
					 "a %s", a->section, b->line,
					 *a->section == 'c' ? "case" : "sweep");
			else
				error_at(ld, a->file, a->line, "duplicate key "
					 "'%s' in [%s] (first set at line %d)",
					 a->key, a->section, b->line);
			break;
		}
	}
}

static bool case_section(const struct loader *ld, const char *name)
{
	for (int i = 0; i < ld->nr_as; i++)
		if (!strncmp(ld->as[i].section, "case ", 5) &&
		    !strcmp(ld->as[i].section + 5, name))
			return true;
	return false;
}

/* [calibrate] cases and a [sweep]'s cases name cases of the scenario: a
 * misspelt one would be left out of the fit, or the sweep, unseen.  One
 * list, said at file:line (a file's line, or "--set:N"). */
static void check_case_list(struct loader *ld, const char *file, int line,
			    const char *value)
{
	char buf[SCN_LINE_MAX + 1], *save = NULL;
	char *seen[SCN_LINE_MAX / 2 + 1];
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", value);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save)) {
		bool twice = false;

		if (!case_section(ld, t))
			error_at(ld, file, line, "cases: no [case %s] in the "
				 "scenario", t);
		for (int j = 0; j < n && !twice; j++)
			twice = !strcmp(seen[j], t);
		if (twice)
			error_at(ld, file, line, "cases: %s named twice", t);
		/* a name and a separator each: the array holds them */
		seen[n++] = t;
	}
}

static void check_case_lists(struct loader *ld)
{
	for (int i = 0; i < ld->nr_as; i++) {
		const struct assignment *a = &ld->as[i];

		if (!strcmp(a->key, "cases") &&
		    (!strcmp(a->section, "calibrate") ||
		     !strncmp(a->section, "sweep ", 6)))
			check_case_list(ld, a->file, a->line, a->value);
	}
}

static size_t find_key_index(const char *dotted)
{
	char section[32];
	const char *dot = strchr(dotted, '.');

	snprintf(section, sizeof(section), "%.*s", (int)(dot - dotted), dotted);
	return (size_t)(find_key(section, dot + 1) - scn_keys);
}

static bool set_by_user(const struct origin *org, const char *key)
{
	return org && org[find_key_index(key)].file;
}

/* The samples a run keeps beside its first (sim.h). */
#define SAMPLES_KEPT	(SIM_MAX_SAMPLES - 2)

/* Which key to blame when a run is too long for its samples: a part of
 * the run's length the user set that is too long by itself (--set
 * warmup=10s), the longest such; else sample, where the user set it
 * (sample = 1us); else the longest part, at its line or the case's. */
static const char *run_length_key(const struct sim_load *l,
				  const struct origin *org)
{
	const struct { const char *key; double v; } part[] = {
		{ "case.migrate_at", l->migrate_at > 0 ? l->migrate_at : 0 },
		{ "case.warmup", l->warmup },
		{ "case.duration", l->duration },
	};
	const char *longest = NULL, *alone = NULL;
	double most = -1, most_alone = -1;

	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		if (part[i].v > most) {
			most = part[i].v;
			longest = part[i].key;
		}
		if (set_by_user(org, part[i].key) &&
		    part[i].v / l->sample > SAMPLES_KEPT + 1e-6 &&
		    part[i].v > most_alone) {
			most_alone = part[i].v;
			alone = part[i].key;
		}
	}
	if (alone)
		return alone;
	return set_by_user(org, "case.sample") ? "case.sample" : longest;
}

/* A run longer than its samples can hold, with sample left at its
 * default: the interval grows to the next 1, 2 or 5 x 10^n seconds that
 * fits (--duration 5s samples every 5 ms).  One the user set is kept, and
 * validate() says it is too short. */
static void fit_sample(struct scn_case *c, const struct origin *org)
{
	struct sim_load *l = &c->sim.load;
	double run = (l->migrate_at > 0 ? l->migrate_at : 0) + l->warmup +
		     l->duration;

	if (set_by_user(org, "case.sample"))
		return;
	for (double decade = 1e-3; run / l->sample > SAMPLES_KEPT + 1e-6 &&
	     decade < 3600; decade *= 10)
		for (int i = 0; i < 3; i++) {
			static const double step[] = { 1, 2, 5 };

			if (run / l->sample > SAMPLES_KEPT + 1e-6)
				l->sample = step[i] * decade;
		}
}

/* --set policies=... on a file with measured figures: a figure of a
 * policy no longer run is left out (counted in nr_unrun, said by the
 * command), not refused, so a patch's before/after runs on a measured
 * scenario.  The file's own policies and figures must still agree. */
static void drop_unrun_measured(struct scn_case *c, const struct origin *org)
{
	const struct origin *o = &org[find_key_index("case.policies")];
	int kept = 0;

	if (!o->file || strcmp(o->file, "--set"))
		return;
	for (int i = 0; i < c->nr_measured; i++) {
		bool run = false;

		for (int p = 0; p < c->nr_policies; p++)
			run |= c->policies[p] == c->measured[i].policy;
		if (run)
			c->measured[kept++] = c->measured[i];
	}
	c->nr_unrun += c->nr_measured - kept;
	c->nr_measured = kept;
}

static bool is_pow2(int v)
{
	return v > 0 && !(v & (v - 1));
}

/* Where validate() says what is wrong: to the loader ld at the lines of
 * org, or without a loader the first failure into why. */
struct verdict {
	struct loader *ld;
	const struct scn_case *c;
	const struct origin *org;
	char *why;
	size_t len;
	bool ok;
};

/* A rule broken, blamed on key: at the line that set it, or the case's
 * (workload_say). */
static void say(void *ctx, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(void *ctx, const char *key, const char *fmt, ...)
{
	struct verdict *v = ctx;
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (v->ld) {
		const struct origin *o = &v->org[find_key_index(key)];

		error_at(v->ld, o->file ? o->file : v->c->file,
			 o->file ? o->line : v->c->line, "%s", text);
	} else if (v->ok) {
		snprintf(v->why, v->len, "%s", text);
	}
	v->ok = false;
}

#define CHECK(cond, key, ...) do { \
	if (!(cond)) \
		say(v, key, __VA_ARGS__); \
	} while (0)

/* The case as its workload's rules read it. */
static struct workload_case workload_case_of(const struct sim_case *c)
{
	return (struct workload_case){
		.workload = c->rxq.workload,
		.rxq = &c->rxq,
		.queues = c->load.queues,
		.irq_cpu = c->load.irq_cpu,
		.migrate_cpu = c->load.migrate_at < 0 ? -1 :
			       c->load.migrate_cpu,
		.redirect_cpu = c->load.redirect_cpu,
		.far_apart = sim_has_consumer(c),
	};
}

/* Whether the case runs a far side on redirect_cpu (enum workload_far). */
static bool redirect_cpu_used(const struct sim_case *c)
{
	return c->rxq.workload->far == WORKLOAD_FAR_KTHREAD ||
	       (c->rxq.workload->far == WORKLOAD_FAR_PORT &&
		c->rxq.redirect_port == RXQ_PORT_OTHER);
}

static const char redirect_cpu_what[] = "the CPU of xdp_cpumap's kthread "
	"or of the other port's NAPI (redirect_port = other)";

/* Whether c uses k: a workload's own key only where that workload says
 * so, redirect_cpu only where a far side runs there. */
static bool key_used(const struct scn_case *c, const struct key *k)
{
	const struct workload_ops *owner = key_owner[k - scn_keys];
	struct workload_case wc = workload_case_of(&c->sim);

	if (owner)
		return owner->uses(&wc);
	return k != find_key("case", "redirect_cpu") ||
	       redirect_cpu_used(&c->sim);
}

/* The machine: the CPUs, the node and the caches the case names exist. */
static void validate_machine(struct verdict *v)
{
	const struct mem_config *m = &v->c->sim.mem;
	const struct sim_load *l = &v->c->sim.load;
	int cpus = m->sockets * m->cores, n = sim_queue_cpus(&v->c->sim);

	CHECK(l->irq_cpu < cpus, "case.irq_cpu", "irq_cpu %d does not exist: "
	      "the machine has %d CPUs (%d sockets x %d cores)", l->irq_cpu,
	      cpus, m->sockets, m->cores);
	CHECK(l->migrate_at < 0 || l->migrate_cpu < cpus, "case.migrate_cpu",
	      "migrate_cpu %d does not exist: the machine has %d CPUs",
	      l->migrate_cpu, cpus);
	CHECK(l->irq_cpu + n <= cpus &&
	      (l->migrate_at < 0 || l->migrate_cpu + n <= cpus),
	      "case.queues", "%d queues, one CPU each from CPU %d, do not fit "
	      "the machine's %d CPUs", n,
	      l->irq_cpu > l->migrate_cpu || l->migrate_at < 0 ? l->irq_cpu
							       : l->migrate_cpu,
	      cpus);
	CHECK(m->nic_node < m->sockets, "nic.node", "nic.node %d does not "
	      "exist: the machine has %d sockets", m->nic_node, m->sockets);
	CHECK(m->ddio_ways < m->llc_ways, "cache.ddio_ways", "ddio_ways %d "
	      "must be below llc_ways %d", m->ddio_ways, m->llc_ways);
	CHECK(m->llc_size % (64u * (unsigned)m->llc_ways) == 0,
	      "cache.llc_size", "llc_size must be a multiple of 64 bytes x "
	      "llc_ways");
	CHECK(m->l2_size % (64u * (unsigned)m->l2_ways) == 0,
	      "cache.l2_size", "l2_size must be a multiple of 64 bytes x "
	      "l2_ways");
	CHECK(!redirect_cpu_used(&v->c->sim) || l->redirect_cpu < cpus,
	      "case.redirect_cpu", "redirect_cpu %d does not exist: the "
	      "machine has %d CPUs (%d sockets x %d cores)", l->redirect_cpu,
	      cpus, m->sockets, m->cores);
}

/* Where a far side runs (redirect_port, redirect_cpu, app_cpu), and the
 * workloads' own keys written where they do nothing. */
static void validate_far(struct verdict *v)
{
	const struct scn_case *c = v->c;
	const struct mem_config *m = &c->sim.mem;
	const struct rxq_config *q = &c->sim.rxq;
	const struct sim_load *l = &c->sim.load;
	struct workload_case wc = workload_case_of(&c->sim);
	int cpus = m->sockets * m->cores;

	CHECK(q->redirect_port == RXQ_PORT_SAME ||
	      q->workload->far == WORKLOAD_FAR_PORT, "case.redirect_port",
	      "redirect_port is where %s sends, not %s",
	      workload_far(WORKLOAD_FAR_PORT)->name, q->workload->name);
	CHECK(q->redirect_port == RXQ_PORT_SAME || c->sim.hw.ports > 1,
	      "case.redirect_port", "redirect_port = other: the NIC has %d "
	      "port (nic.ports)", c->sim.hw.ports);
	CHECK(q->redirect_port == RXQ_PORT_SAME || l->queues == 1,
	      "case.queues", "redirect_port = other takes one queue (%d): "
	      "the other port's NAPI serves queue 0's frames", l->queues);
	CHECK(q->redirect_port == RXQ_PORT_SAME || l->migrate_at < 0,
	      "case.migrate_at", "redirect_port = other with a migration: "
	      "not modelled (the other port's NAPI stays where it is)");
	/* in [global] they serve the cases they are for, and resolved.ini
	 * says where they were not used */
	for (int i = 0; workloads[i] && v->org; i++)
		for (int j = 0; j < workloads[i]->nr_keys; j++) {
			const struct key *k = &workloads[i]->keys[j];
			char dotted[SCN_KEY_MAX];

			snprintf(dotted, sizeof(dotted), "case.%s", k->name);
			CHECK(!v->org[find_key_index(dotted)].in_case ||
			      workloads[i]->uses(&wc), dotted,
			      "%s is %s: this case (%s) has none", k->name,
			      k->what, q->workload->name);
		}
	CHECK(!(v->org && v->org[find_key_index("case.redirect_cpu")].in_case)
	      || redirect_cpu_used(&c->sim), "case.redirect_cpu",
	      "redirect_cpu is %s: this case (%s) has none",
	      redirect_cpu_what, q->workload->name);
	CHECK(l->app_cpu < 0 || q->workload->far == WORKLOAD_FAR_READER,
	      "case.app_cpu", "app_cpu is the reader of workload = %s, not "
	      "of %s", workload_far(WORKLOAD_FAR_READER)->name,
	      q->workload->name);
	CHECK(l->app_cpu < cpus, "case.app_cpu", "app_cpu %d does not exist: "
	      "the machine has %d CPUs (%d sockets x %d cores)", l->app_cpu,
	      cpus, m->sockets, m->cores);
	CHECK(!sim_app_reader(&c->sim) || l->queues == 1, "case.queues",
	      "a reader on app_cpu takes one queue (%d): it reads queue 0's "
	      "socket", l->queues);
	CHECK(!sim_app_reader(&c->sim) || l->migrate_at < 0 ||
	      l->app_cpu != l->migrate_cpu, "case.app_cpu", "app_cpu %d is "
	      "where the irq moves: the reader and the NAPI would share it",
	      l->app_cpu);
}

/* The rings and their costs: powers of 2, the lock within the ring. */
static void validate_rings(struct verdict *v)
{
	const struct rxq_config *q = &v->c->sim.rxq;
	const struct pcie_config *p = &v->c->sim.pcie;

	CHECK(q->cost.pp_lock <= q->cost.pp_ring, "cost.pp_lock", "pp_lock %g "
	      "is more than pp_ring %g, which holds it", q->cost.pp_lock,
	      q->cost.pp_ring);
	CHECK(is_pow2(q->rx_ring), "nic.rx_ring", "rx_ring %d is not a power "
	      "of 2", q->rx_ring);
	CHECK(is_pow2(q->tx_ring), "nic.tx_ring", "tx_ring %d is not a power "
	      "of 2", q->tx_ring);
	CHECK(is_pow2(q->wqe_fetch) && q->wqe_fetch <= q->rx_ring,
	      "nic.wqe_fetch", "wqe_fetch %d is not a power of 2 up to "
	      "rx_ring %d", q->wqe_fetch, q->rx_ring);
	CHECK(is_pow2(p->mps), "pcie.mps", "mps %d is not a power of 2",
	      p->mps);
	CHECK(is_pow2(p->mrrs), "pcie.mrrs", "mrrs %d is not a power of 2",
	      p->mrrs);
	CHECK(is_pow2(p->rcb), "pcie.rcb", "rcb %d is not a power of 2",
	      p->rcb);
}

/*
 * The rx ring, the pool's ring, cache and bulk, the driver cache and the
 * tx ring may all sit on one node, clear of its watermarks; so may the
 * pages a workload's far side holds (a cpumap's ring, a reader's
 * socket), which are named when they are what does not fit.
 */
static void validate_pages(struct verdict *v)
{
	const struct scn_case *c = v->c;
	const struct rxq_config *q = &c->sim.rxq;
	const struct sim_load *l = &c->sim.load;
	struct workload_case wc = workload_case_of(&c->sim);
	long long rings = 2 * q->rx_ring + q->tx_ring + 256 + q->page_cache,
		  held = 0, half = c->sim.mm.pages_per_node / 2;
	const char *key = NULL;

	if (q->workload->far_pages)
		held = q->workload->far_pages(&wc, &key);
	/* blamed: mem.pages's line, but for the largest of the rings' terms
	 * when the command line set it and not mem.pages (--set
	 * nic.tx_ring=32768), or when no line set mem.pages */
	const char *big = 2LL * q->rx_ring >= q->tx_ring &&
			  2LL * q->rx_ring >= q->page_cache ?
			  "nic.rx_ring" : q->tx_ring >= q->page_cache ?
			  "nic.tx_ring" : "driver.page_cache";
	const struct origin *ob = v->org ? &v->org[find_key_index(big)] :
				  NULL, *op = v->org ?
				  &v->org[find_key_index("mem.pages")] : NULL;
	/* the command line's word first: it came last */
	bool cl_big = ob && ob->file && *ob->file == '-',
	     cl_pages = op && op->file && *op->file == '-';
	const char *blame = cl_big && !cl_pages ? big :
			    (op && op->file) || !(ob && ob->file) ?
			    "mem.pages" : big;

	CHECK(rings * l->queues <= half, blame,
	      "%u pages per node cannot hold %d rx queue(s) of "
	      "2 x rx_ring %d + tx_ring %d + 256 + page_cache %d "
	      "pages (half a node at most): lower %s or raise "
	      "mem.pages", c->sim.mm.pages_per_node, l->queues,
	      q->rx_ring, q->tx_ring, q->page_cache, big);
	CHECK(!key || rings * l->queues > half ||
	      (rings + held) * l->queues <= half, key ? key : "mem.pages",
	      "%s holds %lld pages, more than the %lld that %u pages "
	      "per node leave beside the rx ring and its page_pool: "
	      "lower it or raise mem.pages", key ? strchr(key, '.') + 1 : "",
	      held, half / l->queues - rings, c->sim.mm.pages_per_node);
}

/* The monitor keeps SIM_MAX_SAMPLES samples (one a sample, one more
 * where the measurement starts): more would stop the transient short
 * without a word. */
static void validate_samples(struct verdict *v)
{
	const struct sim_load *l = &v->c->sim.load;
	const struct origin *org = v->org;
	double run = (l->migrate_at > 0 ? l->migrate_at : 0) + l->warmup +
		     l->duration;
	const char *key = run_length_key(l, org);
	char where[PATH_MAX + 32] = "";

	/* the other half of the cause, where the user set it */
	if (set_by_user(org, "case.sample") && strcmp(key, "case.sample")) {
		const struct origin *o = &org[find_key_index("case.sample")];

		snprintf(where, sizeof(where), o->line ? " (%s:%d)" : " (%s)",
			 o->file, o->line);
	}
	/* 1e-6: 2.046 s / 1 ms is 2046 and a little in binary; the monitor
	 * has room for one sample more than that */
	CHECK(run / l->sample <= SAMPLES_KEPT + 1e-6, key,
	      "sample %gs%s over a run of %gs gives %.0f transient "
	      "samples, more than the %d kept: raise sample or "
	      "shorten the run", l->sample, where, run,
	      ceil(run / l->sample - 1e-6), SAMPLES_KEPT);
}

/* What the case compares and how its table shows it: the measured
 * figures and the baseline among its policies, its label's cells. */
static void validate_policies(struct verdict *v)
{
	const struct scn_case *c = v->c;
	/* room for every cell a label can hold, so each is counted */
	char cells[SCN_TEXT_MAX / 2 + 1][SCN_NAME_MAX];
	int nl = scn_label_cells(c->label, cells, SCN_TEXT_MAX / 2 + 1);
	int nc = scn_label_cells(c->label_columns, cells, SCN_TEXT_MAX / 2 + 1);

	for (int i = 0; i < c->nr_measured; i++) {
		bool found = false;

		for (int p = 0; p < c->nr_policies; p++)
			found |= c->policies[p] == c->measured[i].policy;
		CHECK(found, "case.measured", "measured figure for %s, which "
		      "is not among the policies", c->measured[i].policy->name);
	}
	if (c->baseline) {
		bool found = false;

		for (int p = 0; p < c->nr_policies; p++)
			found |= c->policies[p] == c->baseline;
		CHECK(found, "case.baseline", "baseline %s is not among the "
		      "policies", c->baseline->name);
	}
	CHECK(nc <= SCN_MAX_LABELS, "case.label_columns", "label_columns "
	      "has %d headers, at most %d", nc, SCN_MAX_LABELS);
	CHECK(nc || nl <= 1, "case.label", "label '%s' has %d cells "
	      "and no label_columns names them: set label_columns, "
	      "or give one cell", c->label, nl);
	CHECK(!nc || nl == nc || nl == 0, "case.label",
	      "label '%s' has %d cells, label_columns '%s' %d "
	      "headers: give as many", c->label,
	      nl, c->label_columns, nc);
}

/* What one key cannot say: the keys against each other, the core's
 * rules and the case's workload's.  Errors go to the loader ld at the
 * lines of org, or without a loader the first into why. */
static bool validate(struct loader *ld, const struct scn_case *c,
		     const struct origin *org, char *why, size_t len)
{
	struct verdict v = { ld, c, org, why, len, true };
	struct workload_case wc = workload_case_of(&c->sim);

	validate_machine(&v);
	if (c->sim.rxq.workload->check)
		c->sim.rxq.workload->check(&wc, say, &v);
	validate_far(&v);
	validate_rings(&v);
	validate_pages(&v);
	validate_samples(&v);
	validate_policies(&v);
	return v.ok;
}

int scn_label_cells(const char *label, char cells[][SCN_NAME_MAX], int max)
{
	int n = 0;

	while (*label && n < max) {
		size_t len = strcspn(label, "|"), b = 0;

		while (b < len && isspace((unsigned char)label[b]))
			b++;
		while (len > b && isspace((unsigned char)label[len - 1]))
			len--;
		snprintf(cells[n++], SCN_NAME_MAX, "%.*s", (int)(len - b),
			 label + b);
		label += strcspn(label, "|");
		if (*label)
			label++;
	}
	return n;
}

/* ---- keys across cases ---- */

int scn_case_put(struct scn_case *c, const char *key, double v, char *why,
		 size_t len)
{
	const struct key *k = find_dotted(key);
	struct scn_case moved = *c;
	char text[64];

	if (!k || !is_number(k) || k->in_scenario) {
		snprintf(why, len, "unknown numeric key '%s'", key);
		return -1;
	}
	/* kept as a file keeps it: the value a calibration writes is the
	 * value its fit evaluated, to the last digit */
	scn_format_digits(key, v, SCN_FILE_DIGITS, text, sizeof(text));
	if (parse_number(k, text, &v, why, len))
		return -1;
	store_number(k, (char *)&moved + k->offset, v);
	if (!validate(NULL, &moved, NULL, why, len))
		return -1;
	*c = moved;
	return 0;
}

bool scn_key_written(const struct scenario *scn, const char *key)
{
	const struct key *k = find_dotted(key);

	return k && scn->written[k - scn_keys];
}

bool scn_key_numeric(const char *key)
{
	const struct key *k = find_dotted(key);

	return k && is_number(k);
}

bool scn_key_one_value(const char *key)
{
	const struct key *k = find_dotted(key);

	return k && (is_number(k) || k->store == KEY_WORD);
}

int scn_nr_keys(void)
{
	return (int)NR_KEYS;
}

void scn_key_name(int i, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s", scn_keys[i].section, scn_keys[i].name);
}

const char *scn_profile_part(const char *path)
{
	const char *hw = strstr(path, "/hw/");

	return !strncmp(path, "hw/", 3) ? path : hw ? hw + 1 : NULL;
}

const char *scn_uncalibrated_profile(const struct scenario *scn)
{
	const char *profile = NULL;

	for (int i = 0; i < scn->nr_files; i++) {
		const char *f = scn->files[i];
		size_t n = strlen(f);

		if (n > 8 && !strcmp(f + n - 8, ".cal.ini"))
			return NULL;
		if (!profile && scn_profile_part(f))
			profile = f;
	}
	return profile;
}

int scn_explain_key(FILE *f, const char *key, char *hint, size_t len)
{
	const struct key *k = find_dotted(key);
	const char *dot = strchr(key, '.');
	char lo[32], hi[32];

	if (!k) {
		char section[32];

		snprintf(section, sizeof(section), "%.*s",
			 dot ? (int)(dot - key) : 4, dot ? key : "case");
		suggest(section, dot ? dot + 1 : key, hint, len);
		return -1;
	}
	fprintf(f, "%s\n  %s.\n", key, k->help);
	fprintf(f, "  default: %s\n", *k->def ? k->def : "none");
	if (is_number(k)) {
		/* the bounds exactly: 4194304, not 4.1943e+06 */
		scn_format_digits(key, k->min, SCN_FILE_DIGITS, lo, sizeof(lo));
		scn_format_digits(key, k->max, SCN_FILE_DIGITS, hi, sizeof(hi));
		fprintf(f, "  unit:    %s\n  range:   %s to %s\n",
			*k->unit ? k->unit : "none (a count or a ratio)", lo,
			hi);
	} else if (k->store == KEY_WORD) {
		fprintf(f, "  values: ");
		for (int i = 0; word_at(k, i); i++)
			fprintf(f, " %s", word_at(k, i));
		fputc('\n', f);
	}
	if (k->in_scenario)
		fprintf(f, "  set in:  [%s] (the whole scenario's)\n",
			k->section);
	else if (!strcmp(k->section, "case"))
		fprintf(f, "  set in:  [global], [case NAME], or --set %s=...\n",
			k->name);
	else
		fprintf(f, "  set in:  [%s] as %s, a [case NAME] as %s.%s, or "
			"--set %s.%s=...\n", k->section, k->name, k->section,
			k->name, k->section, k->name);
	return 0;
}

bool scn_key_whole(const char *key)
{
	const struct key *k = find_dotted(key);

	return k && is_number(k) && k->store != KEY_DOUBLE;
}

bool scn_key_measures(const char *key)
{
	const struct key *k = find_dotted(key);

	return k && (k == find_key("case", "warmup") ||
		     k == find_key("case", "duration") ||
		     k == find_key("case", "sample"));
}

const char *scn_key_unit(const char *key)
{
	static const char *const base[] = {
		[KEY_TIME] = "s", [KEY_SIZE] = "B", [KEY_FREQ] = "Hz",
		[KEY_BYTERATE] = "B/s", [KEY_BITRATE] = "bit/s",
		[KEY_PKTRATE] = "packets/s",
	};
	const struct key *k = find_dotted(key);

	if (!k || !is_number(k))
		return NULL;
	return k->kind == KEY_PLAIN ? k->unit : base[k->kind];
}

void scn_format_digits(const char *key, double v, int digits, char *buf,
		       size_t len)
{
	const struct key *k = find_dotted(key);
	const struct suffix *sfx = k ? suffixes[k->kind] : none_sfx;
	const struct suffix *best = NULL;

	/* the largest multiple the value reaches, else the smallest */
	for (; sfx->s; sfx++)
		if (sfx->shown && (!best || fabs(v) >= sfx->mult))
			best = sfx;
	snprintf(buf, len, "%.*g%s", digits, v / best->mult, best->s);
}

void scn_format_value(const char *key, double v, char *buf, size_t len)
{
	scn_format_digits(key, v, 6, buf, len);
}

int scn_numeric_keys(const char *section, char (*keys)[SCN_KEY_MAX],
		     int max)
{
	int n = 0;

	for (size_t i = 0; i < NR_KEYS; i++) {
		const struct key *k = &scn_keys[i];

		if (strcmp(k->section, section) || !is_number(k) ||
		    k->in_scenario)
			continue;
		if (n < max)
			snprintf(keys[n], SCN_KEY_MAX, "%s%s%s",
				 strcmp(section, "case") ? section : "",
				 strcmp(section, "case") ? "." : "", k->name);
		n++;
	}
	return n;
}

int scn_case_diff(const struct scn_case *a, const struct scn_case *b,
		  char *key, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < NR_KEYS; i++) {
		const struct key *k = &scn_keys[i];
		const char *fa = (const char *)a + k->offset;
		const char *fb = (const char *)b + k->offset;
		bool differ;

		if (k->in_scenario || k->store == KEY_POLICIES ||
		    k->store == KEY_MEASURED || k->store == KEY_POLICY)
			continue;
		if (is_number(k))
			differ = load_number(k, fa) != load_number(k, fb);
		else if (k->store == KEY_WORD)
			differ = word_index(k, fa) != word_index(k, fb);
		else
			continue;
		if (differ) {
			size_t at = n++ ? strlen(key) : 0;

			snprintf(key + at, at < len ? len - at : 0, "%s%s%s%s",
				 at ? " " : "",
				 strcmp(k->section, "case") ? k->section : "",
				 strcmp(k->section, "case") ? "." : "",
				 k->name);
		}
	}
	return n;
}

const struct pp_policy *scn_baseline(const struct scn_case *c)
{
	return c->baseline ? c->baseline : c->policies[0];
}

/* A number as a file writes it, at full precision: a round trip through
 * the parser gives the same double for any value ppsim printed. */
static void write_number(FILE *f, const struct key *k, double v)
{
	const struct suffix *sfx = suffixes[k->kind], *best = NULL;

	for (; sfx->s; sfx++)
		if (sfx->shown && (!best || fabs(v) >= sfx->mult))
			best = sfx;
	fprintf(f, "%.15g%s", v / best->mult, best->s);
}

void scn_write_case(FILE *f, const struct scn_case *c)
{
	fprintf(f, "[case %s]\n", c->name);
	for (size_t i = 0; i < NR_KEYS; i++) {
		const struct key *k = &scn_keys[i];
		const void *field = (const char *)c + k->offset;
		bool plain = !strcmp(k->section, "case");

		if (k->in_scenario)
			continue;
		if (!key_used(c, k)) {
			fprintf(f, "; %s: not used by this case\n", k->name);
			continue;
		}
		if (k->store == KEY_POLICY && !c->baseline) {
			fprintf(f, "; %s: %s (the first policy)\n", k->name,
				scn_baseline(c)->name);
			continue;
		}
		if ((k->store == KEY_MEASURED && !c->nr_measured) ||
		    (k->store == KEY_TEXT && !*(const char *)field))
			continue;	/* an empty list is no value */
		fprintf(f, "%s%s%s = ", plain ? "" : k->section,
			plain ? "" : ".", k->name);
		switch (k->store) {
		case KEY_WORD:
			fputs(word_at(k, word_index(k, field)), f);
			break;
		case KEY_POLICIES:
			for (int p = 0; p < c->nr_policies; p++)
				fprintf(f, "%s%s", p ? " " : "",
					c->policies[p]->name);
			break;
		case KEY_MEASURED:
			for (int p = 0; p < c->nr_measured; p++)
				fprintf(f, "%s%s:%.15g", p ? " " : "",
					c->measured[p].policy->name,
					c->measured[p].value);
			break;
		case KEY_POLICY:
			fputs(c->baseline->name, f);
			break;
		case KEY_TEXT:
			fputs((const char *)field, f);
			break;
		default:
			write_number(f, k, load_number(k, field));
			break;
		}
		fputc('\n', f);
	}
}

static bool apply_overrides(struct loader *ld, struct scn_case *c,
			    struct origin *org, const struct scn_override *set,
			    int nr_set)
{
	bool ok = true;
	int nr_said_set = 0;	/* "--set:N": the N-th --set, not --duration */

	for (int i = 0; i < nr_set; i++) {
		struct assignment a = {
			.file = set[i].file ? set[i].file : "--set",
			.line = set[i].file ? set[i].line : ++nr_said_set,
		};
		const char *dot = strchr(set[i].key, '.'), *ctl;

		if (dot) {
			snprintf(a.section, sizeof(a.section), "%.*s",
				 (int)(dot - set[i].key), set[i].key);
			snprintf(a.key, sizeof(a.key), "%s", dot + 1);
		} else {
			snprintf(a.section, sizeof(a.section), "global");
			snprintf(a.key, sizeof(a.key), "%s", set[i].key);
		}
		snprintf(a.value, sizeof(a.value), "%s", set[i].value);
		/* an override is written back into the outputs' provenance
		 * and resolved.ini: it must make one line a file may hold */
		if (strlen(set[i].key) + 3 + strlen(set[i].value) >
		    SCN_LINE_MAX) {
			error_at(ld, a.file, a.line, "%s: longer than a "
				 "scenario line (%d characters)", set[i].key,
				 SCN_LINE_MAX);
			ok = false;
			continue;
		}
		if (*(ctl = control_char(set[i].value))) {
			error_at(ld, a.file, a.line, "%s: control character "
				 "0x%02x", set[i].key, *ctl);
			ok = false;
			continue;
		}
		if (!section_known(a.section)) {
			error_at(ld, a.file, a.line, "%s: unknown section '%s'",
				 set[i].key, a.section);
			ok = false;
			continue;
		}
		if (!strcmp(a.section, "fitted")) {
			error_at(ld, a.file, a.line, "%s: [fitted] is what a "
				 "calibration's fit predicted, written by ppsim "
				 "calibrate: not a key to set", set[i].key);
			ok = false;
			continue;
		}
		/* as a file's line is: every name a case, none twice */
		if (!strcmp(a.section, "calibrate") && !strcmp(a.key, "cases"))
			check_case_list(ld, a.file, a.line, a.value);
		ok &= !apply(ld, c, org, &a, false);
	}
	return ok;
}

/* Every key's default; a default the key refuses (a slip in scn_keys[],
 * which tests/cli.sh's keys would show) is said and counted as an
 * error of the file being read. */
static void set_defaults(struct loader *ld, struct scn_case *c,
			 struct scn_calibrate *cal)
{
	char why[200];

	memset(c, 0, sizeof(*c));
	if (keys_left_out)
		error_at(ld, ld->file, 0, "ppsim's key table: %zu keys past "
			 "its %d (SCN_MAX_KEYS)", keys_left_out, SCN_MAX_KEYS);
	for (size_t i = 0; i < NR_KEYS; i++)
		if (*scn_keys[i].def &&
		    set_value(c, cal, &scn_keys[i], scn_keys[i].def,
			      ld->policies, why, sizeof(why)))
			error_at(ld, ld->file, 0, "ppsim's default for %s.%s: "
				 "%s", scn_keys[i].section, scn_keys[i].name,
				 why);
}

static struct scn_sweep *sweep_named(struct scenario *scn, const char *name)
{
	for (int i = 0; i < scn->nr_sweeps; i++)
		if (!strcmp(scn->sweeps[i].name, name))
			return &scn->sweeps[i];
	return NULL;
}

/* [sweep NAME] sections: vary = KEY=V1,V2 ..., cases = NAME ... */
static void build_sweeps(struct loader *ld)
{
	struct scenario *scn = ld->scn;

	for (int i = 0; i < ld->nr_as; i++) {
		const struct assignment *a = &ld->as[i];
		struct scn_sweep *sw;
		char *field;

		if (strncmp(a->section, "sweep ", 6))
			continue;
		sw = sweep_named(scn, a->section + 6);
		if (!sw) {
			if (scn->nr_sweeps == SCN_MAX_SWEEPS) {
				error_at(ld, a->file, a->line, "more than %d "
					 "sweeps", SCN_MAX_SWEEPS);
				return;
			}
			sw = &scn->sweeps[scn->nr_sweeps++];
			snprintf(sw->name, sizeof(sw->name), "%s",
				 a->section + 6);
			sw->file = a->file;
			sw->line = a->line;
		}
		if (!*a->key)
			continue;	/* the header */
		field = !strcmp(a->key, "vary") ? sw->vary :
			!strcmp(a->key, "cases") ? sw->cases : NULL;
		if (!field) {
			error_at(ld, a->file, a->line, "unknown key '%s' in a "
				 "[sweep]: expected vary or cases", a->key);
			continue;
		}
		if (strlen(a->value) >= SCN_TEXT_MAX)
			error_at(ld, a->file, a->line, "%s: longer than %d "
				 "characters", a->key, SCN_TEXT_MAX - 1);
		else
			snprintf(field, SCN_TEXT_MAX, "%s", a->value);
		if (field == sw->vary) {
			sw->file = a->file;
			sw->line = a->line;
		}
	}
	for (int i = 0; i < scn->nr_sweeps; i++)
		if (!scn->sweeps[i].vary[0])
			error_at(ld, scn->sweeps[i].file, scn->sweeps[i].line,
				 "[sweep %s] has no 'vary'", scn->sweeps[i].name);
}

/* Whether a file's [fitted] lines are a calibration of this scenario: the
 * scenario file itself (when it has cases), or the calibration calibrate
 * --update writes for it (its name with .cal.ini for its extension, under
 * any name: the same file).  Another scenario's calibration included for
 * its values (the seed's fit in the XDP paper's host, in a scenario of
 * one's own that fits something else) names the cases of that one. */
static bool fitted_here(const struct loader *ld, const char *file)
{
	const char *top = ld->scn->path, *dot = strrchr(top, '.');
	int stem = (int)(dot && !strchr(dot, '/') ? dot - top :
			 (long)strlen(top));
	char cal[PATH_MAX];
	struct stat a, b;

	if (!strcmp(file, top))
		return ld->scn->nr_cases > 0;
	if ((size_t)snprintf(cal, sizeof(cal), "%.*s.cal.ini", stem, top) >=
	    sizeof(cal))
		return false;
	return !stat(file, &a) && !stat(cal, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* Each [fitted] line of this scenario's calibration names one of its
 * cases: another line would never be compared (validate reads the fit
 * cases' only), and says what no fit predicted. */
static void check_fitted_cases(struct loader *ld)
{
	for (int i = 0; i < ld->nr_as; i++) {
		const struct assignment *a = &ld->as[i];

		if (!strcmp(a->section, "fitted") && *a->key &&
		    !case_section(ld, a->key) && fitted_here(ld, a->file))
			error_at(ld, a->file, a->line, "[fitted] %s: no "
				 "[case %s] in the scenario it calibrates",
				 a->key, a->key);
	}
}

/* Whether [sweep]'s cases list (empty: every case) names name. */
static bool sweep_runs(const struct scn_sweep *sw, const char *name)
{
	char buf[SCN_TEXT_MAX], *save = NULL;

	if (!sw->cases[0])
		return true;
	snprintf(buf, sizeof(buf), "%s", sw->cases);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save))
		if (!strcmp(t, name))
			return true;
	return false;
}

/* Every value of a [sweep]'s vary, set alone in each case the sweep runs
 * as its files have it, is one the sweep's run would take: a bad one is
 * said at the vary line by any command that reads the file (run
 * --dry-run), not by sweep alone.  Values of two keys together are
 * checked when the sweep runs them (their cross product may be large). */
static void check_sweep_values(struct loader *ld)
{
	const struct scenario *scn = ld->scn;

	for (int i = 0; i < scn->nr_sweeps && !ld->errors; i++) {
		const struct scn_sweep *sw = &scn->sweeps[i];
		char buf[SCN_TEXT_MAX], *save = NULL;

		snprintf(buf, sizeof(buf), "%s", sw->vary);
		for (char *t = strtok_r(buf, " \t", &save); t;
		     t = strtok_r(NULL, " \t", &save)) {
			char *eq = strchr(t, '='), *v;
			const struct key *k;

			if (!eq)
				continue;	/* sweep says it */
			*eq = '\0';
			k = find_dotted(t);
			if (!k || k->in_scenario)
				continue;	/* the sweep's load says it */
			for (v = eq + 1; v; v = strchr(v, ',') ? strchr(v, ',') + 1 : NULL) {
				char val[SCN_LINE_MAX + 1], why[200];
				size_t n = strcspn(v, ",");

				/* blanks around a value are none of it */
				while (n && (*v == ' ' || *v == '\t'))
					v++, n--;
				while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
					n--;
				snprintf(val, sizeof(val), "%.*s", (int)n, v);
				if (!n)
					continue;	/* sweep says it */
				for (int c = 0; c < scn->nr_cases; c++) {
					struct scn_case moved = scn->cases[c];

					if (!sweep_runs(sw, moved.name))
						continue;
					if (set_value(&moved, NULL, k, val,
						      ld->policies, why,
						      sizeof(why)) ||
					    !validate(NULL, &moved, NULL, why,
						      sizeof(why))) {
						error_at(ld, sw->file, sw->line,
							 "vary: %s=%s: %s "
							 "(case %s)", t, val,
							 why, moved.name);
						break;
					}
				}
			}
		}
	}
}

/* [fitted] CASE = POLICY:VALUE ...: a line replaces an earlier file's of
 * the same case (two in one file: check_duplicates). */
static void build_fitted(struct loader *ld)
{
	struct scenario *scn = ld->scn;

	for (int i = 0; i < ld->nr_as; i++) {
		const struct assignment *a = &ld->as[i];
		struct scn_fitted fit = { .file = a->file, .line = a->line };
		const struct scn_fitted *old;
		char why[200];
		long k;

		if (strcmp(a->section, "fitted"))
			continue;
		if (parse_policy_words(a->value, NULL, fit.fig, &fit.nr,
				       ld->policies, why, sizeof(why))) {
			error_at(ld, a->file, a->line, "%s: %s", a->key, why);
			continue;
		}
		snprintf(fit.case_name, sizeof(fit.case_name), "%s", a->key);
		old = scn_fitted_case(scn, a->key);
		k = old ? old - scn->fitted : scn->nr_fitted;
		if (k == SCN_MAX_CASES) {
			error_at(ld, a->file, a->line, "[fitted]: more than %d "
				 "cases", SCN_MAX_CASES);
			return;
		}
		scn->fitted[k] = fit;
		scn->nr_fitted += k == scn->nr_fitted;
	}
	check_fitted_cases(ld);
}

bool scn_fitted_on(const struct scenario *scn, const char *name)
{
	char buf[SCN_TEXT_MAX], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", scn->calibrate.cases);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save))
		if (!strcmp(t, name))
			return true;
	return false;
}

const struct scn_fitted *scn_fitted_case(const struct scenario *scn,
					 const char *name)
{
	for (int i = 0; i < scn->nr_fitted; i++)
		if (!strcmp(scn->fitted[i].case_name, name))
			return &scn->fitted[i];
	return NULL;
}

/* Does the command run case name (--case)? */
static bool ld_wants(const struct loader *ld, const char *name)
{
	for (int i = 0; i < ld->nr_only; i++)
		if (!strcmp(ld->only[i], name))
			return true;
	return !ld->nr_only;
}

/* A key [calibrate] free fits, set in the own section of a case it is
 * fitted on: the fit would move it there, but the calibration it writes
 * sets the key for every case, and the case's own line overrides that:
 * the fit and the scenario it writes for would differ, and no refit
 * would mend it.  (Another case may set it: a what-if beside the fit.) */
static void check_free_in_case(struct loader *ld, const struct scn_case *c,
			       const struct origin *org)
{
	char buf[SCN_TEXT_MAX], *save = NULL;

	if (!scn_fitted_on(ld->scn, c->name))
		return;
	snprintf(buf, sizeof(buf), "%s", ld->scn->calibrate.free);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save)) {
		char section[32], *dot = strchr(t, '.'), *colon = strchr(t, ':');
		const struct key *k;
		const struct origin *o;

		if (!dot || !colon || dot > colon || dot - t >= 32)
			continue;	/* the fit says what is wrong */
		snprintf(section, sizeof(section), "%.*s", (int)(dot - t), t);
		*colon = '\0';
		k = find_key(section, dot + 1);
		o = k ? &org[k - scn_keys] : NULL;
		if (o && o->in_case)
			error_at(ld, o->file, o->line, "%s: set in [case %s], "
				 "which [calibrate] fits it on: the "
				 "calibration sets it for every case, and "
				 "this line would override it", t, c->name);
	}
}

static void build_cases(struct loader *ld, const struct scn_override *set,
			int nr_set)
{
	struct scenario *scn = ld->scn;
	struct origin base_org[SCN_MAX_KEYS] = { { 0, 0, false } };
	struct scn_case base;

	int base_errors = ld->errors;

	set_defaults(ld, &base, &scn->calibrate);
	for (int i = 0; i < ld->nr_as; i++)
		if (strncmp(ld->as[i].section, "case ", 5) &&
		    strncmp(ld->as[i].section, "sweep ", 6) &&
		    strcmp(ld->as[i].section, "fitted"))
			apply(ld, &base, base_org, &ld->as[i], false);
	for (size_t k = 0; k < NR_KEYS; k++)
		if (base_org[k].file && base_org[k].line > 0)
			scn->source[k] = (struct scn_source){
				base_org[k].file, base_org[k].line };
	base_errors = ld->errors - base_errors;
	for (int i = 0; i < ld->nr_as; i++) {
		const struct assignment *a = &ld->as[i];
		struct origin org[SCN_MAX_KEYS];
		struct scn_case *c;
		bool seen = false;
		int errors = ld->errors;

		if (strncmp(a->section, "case ", 5))
			continue;
		for (int j = 0; j < scn->nr_cases && !seen; j++)
			seen = !strcmp(scn->cases[j].name, a->section + 5);
		if (seen)
			continue;
		if (scn->nr_cases == SCN_MAX_CASES) {
			error_at(ld, a->file, a->line, "more than %d cases",
				 SCN_MAX_CASES);
			return;
		}
		c = &scn->cases[scn->nr_cases++];
		*c = base;
		memcpy(org, base_org, sizeof(org));
		snprintf(c->name, sizeof(c->name), "%s", a->section + 5);
		c->file = a->file;
		c->line = a->line;
		for (int j = i; j < ld->nr_as; j++)
			if (!strcmp(ld->as[j].section, a->section) &&
			    *ld->as[j].key)
				apply(ld, c, org, &ld->as[j], true);
		check_free_in_case(ld, c, org);
		if (ld_wants(ld, c->name) &&
		    !apply_overrides(ld, c, org, set, nr_set))
			return;
		/* a key refused keeps its default: checked against the others
		 * it would give errors of values nobody wrote */
		fit_sample(c, org);
		drop_unrun_measured(c, org);
		if (!base_errors && ld->errors == errors)
			validate(ld, c, org, NULL, 0);
	}
}

struct scenario *scn_load(const char *path, const struct scn_override *set,
			  int nr_set, const struct pp_policy *const *policies)
{
	return scn_load_cases(path, set, nr_set, policies, NULL, 0);
}

static struct scenario *load(const char *path, const struct scn_override *set,
			     int nr_set, const struct pp_policy *const *policies,
			     const char *const *only, int nr_only,
			     bool part_ok)
{
	struct loader ld = { .policies = policies, .only = only,
			     .nr_only = nr_only };

	ld.scn = calloc(1, sizeof(*ld.scn));
	if (!ld.scn)
		return NULL;
	ld.scn->path = strdup(path);
	if (!ld.scn->path) {
		free(ld.scn);
		return NULL;
	}
	if (!load_file(&ld, path, path, NULL, 0)) {
		check_duplicates(&ld);
		check_case_lists(&ld);
		build_cases(&ld, set, nr_set);
		build_sweeps(&ld);
		check_sweep_values(&ld);
		build_fitted(&ld);
		if (!ld.scn->nr_cases && !ld.errors && !part_ok)
			error_at(&ld, path, ld.line ? ld.line : 1,
				 "no [case NAME] section: nothing to run");
	}
	free(ld.as);
	if (ld.errors) {
		scn_free(ld.scn);
		return NULL;
	}
	return ld.scn;
}

struct scenario *scn_load_cases(const char *path,
				const struct scn_override *set, int nr_set,
				const struct pp_policy *const *policies,
				const char *const *only, int nr_only)
{
	return load(path, set, nr_set, policies, only, nr_only, false);
}

struct scenario *scn_load_part(const char *path,
			       const struct scn_override *set, int nr_set,
			       const struct pp_policy *const *policies,
			       const char *const *only, int nr_only)
{
	return load(path, set, nr_set, policies, only, nr_only, true);
}

void scn_free(struct scenario *scn)
{
	if (!scn)
		return;
	for (int i = 0; i < scn->nr_files; i++)
		free(scn->files[i]);
	free(scn->files);
	free(scn->path);
	free(scn);
}

void scn_print_keys(FILE *f, bool man)
{
	const char *section = "";

	for (size_t i = 0; i < NR_KEYS; i++) {
		const struct key *k = &scn_keys[i];
		bool is_case = !strcmp(k->section, "case");

		if (strcmp(section, k->section)) {
			section = k->section;
			if (man)
				fprintf(f, ".SS [%s]\n", is_case ?
					"global] and [case NAME" : section);
			else
				fprintf(f, "\n[%s]\n", is_case ?
					"global] and [case NAME" : section);
		}
		if (man)
			fprintf(f, ".TP\n.B %s\n%s.\nDefault: %s%s%s.\n",
				k->name, k->help, *k->def ? k->def : "none",
				*k->unit ? "; bare numbers in " : "", k->unit);
		else
			fprintf(f, "  %-14s %-10s %-7s %s\n", k->name,
				*k->def ? k->def : "-", k->unit, k->help);
	}
}
