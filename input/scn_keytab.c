/*
 * The core keys, one line each: section, name, how kept, unit, where in
 * struct scn_case, default, range and help; and the registry input/
 * parses from, them and every NIC model's and workload's own keys
 * (model/key.h).
 */
#include <stddef.h>
#include <string.h>
#include "scn_private.h"
#include "../model/nic/nic_model.h"

#define K(sec, name, store, kind, field, def, min, max, unit, help) \
	{ sec, name, store, kind, false, offsetof(struct scn_case, field), \
	  def, min, max, unit, help, NULL, NULL, NULL, NULL }
#define KS(sec, name, store, kind, field, def, min, max, unit, help) \
	{ sec, name, store, kind, true, offsetof(struct scn_calibrate, \
	  field), def, min, max, unit, help, NULL, NULL, NULL, NULL }
/* A case's key that takes one of words (an enum, stored as an int). */
#define KW(sec, name, field, words, def, help) \
	{ sec, name, KEY_WORD, KEY_PLAIN, false, offsetof(struct scn_case, field), \
	  def, 0, 0, "", help, words, NULL, NULL, NULL }
/* A case's key that names one of a registry's strategies: by default its
 * first; its help, the strategies' names and docs (build_registry). */
#define KR(sec, name, field, registry) \
	{ sec, name, KEY_WORD, KEY_PLAIN, false, offsetof(struct scn_case, field), \
	  NULL, 0, 0, "", NULL, NULL, registry, NULL, NULL }

_Static_assert(sizeof(enum rxq_touch) == sizeof(int) &&
	       sizeof(enum rxq_xdp_return) == sizeof(int) &&
	       sizeof(enum mem_llc_policy) == sizeof(int) &&
	       sizeof(enum mem_inclusion) == sizeof(int) &&
	       sizeof(enum cpu_family) == sizeof(int) &&
	       sizeof(enum cpu_srso) == sizeof(int),
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
static const char *const inclusive_words[MEM_INCLUSION_NR + 1] = {
	[MEM_INCLUSIVE] = "yes", [MEM_NON_INCLUSIVE] = "no", NULL,
};
static const char *const xdp_return_words[] = {
	[RXQ_RETURN_FRAME] = "frame", [RXQ_RETURN_BULK] = "bulk", NULL,
};

static const struct key core_keys[] = {
K("machine", "name", KEY_TEXT, KEY_PLAIN, machine, "", 0, 0, "", "the machine's name, the title of every table and plot: printable ASCII, at most 63 characters, no '#' or ';' (they begin a comment: a line where one would cut the name is refused) (empty: none; the plots then say the profile's file or the cores and clock); the whole scenario's: a [case] may not set it"),
K("cpu", "sockets", KEY_INT, KEY_PLAIN, sim.mem.sockets, "2", 1, 8, "", "sockets, cpu.nodes NUMA nodes each; any two one interconnect hop apart"),
K("cpu", "cores", KEY_INT, KEY_PLAIN, sim.mem.cores, "6", 1, 128, "", "cores per socket"),
K("cpu", "nodes", KEY_INT, KEY_PLAIN, sim.mem.nodes, "1", 1, 16, "", "NUMA nodes per socket, as the BIOS splits it: 1 (SNC off, NPS1), 2 (SNC2, NPS2), 4 (SNC4, NPS4), the CCDs (EPYC's L3 as NUMA); at most cpu.max_nodes, 16 in all.  Each has cores / nodes of its cores, in order (node = cpu / (cores / nodes)), mem.pages pages and mem.bw of bandwidth; the LLC stays the socket's"),
K("cpu", "max_nodes", KEY_INT, KEY_PLAIN, sim.hw.max_nodes, "1", 1, 16, "", "the most NUMA nodes the part lets a socket split into (SNC4, NPS4: 4; a part without SNC or NPS: 1): what cpu.nodes may be, said by the part's profile"),
K("cpu", "freq", KEY_DOUBLE, KEY_FREQ, sim.mem.freq, "1.7GHz", 1e8, 1e10, "Hz", "core clock: a private hit and the work that hides a miss are counted in its cycles, the latencies beyond it in ns"),
KW("cpu", "family", sim.cpu.family, cpu_family_words, "broadwell", "the core: broadwell, sunny_cove (Ice Lake-SP), golden_cove (Sapphire Rapids), zen3 (Milan) or zen4 (Genoa); a [cost] table of another family (cost.family) runs, and every output says the costs are borrowed; the whole scenario's: a [case] may not set it"),
KW("cpu", "srso", sim.cpu.srso, cpu_srso_words, "default", "AMD's SRSO mitigation (spec_rstack_overflow=), zen3 and zen4 only: default (the kernel's: safe_ret), safe_ret, ibpb or off; ibpb and off cut pp_fast, pp_ring, pp_lock, page_alloc and page_free to the ratios measured on an EPYC 9684X (xdp-project page_pool08_bench_AMD.org): a table written under safe RET moves to plain returns, and back"),
K("cache", "l2_size", KEY_U64, KEY_SIZE, sim.mem.l2_size, "256K", 4096, 1 << 30, "B", "private cache per core (L1 is folded in)"),
K("cache", "l2_ways", KEY_INT, KEY_PLAIN, sim.mem.l2_ways, "8", 1, 64, "", "its associativity"),
K("cache", "l2_cycles", KEY_DOUBLE, KEY_PLAIN, sim.mem.l2_cycles, "12", 0, 1000, "cycles", "private cache hit, the floor of every access (Broadwell L2: 12)"),
K("cache", "llc_size", KEY_U64, KEY_SIZE, sim.mem.llc_size, "15M", 65536, 1ull << 36, "B", "shared last-level cache per socket"),
K("cache", "llc_ways", KEY_INT, KEY_PLAIN, sim.mem.llc_ways, "20", 2, 64, "", "its associativity"),
K("cache", "ddio_ways", KEY_INT, KEY_PLAIN, sim.mem.ddio_ways, "2", 0, 63, "", "LLC ways DDIO may allocate into, the top ones of a set (0 = no DDIO)"),
KW("cache", "llc_policy", sim.mem.llc_policy, llc_policy_words, "qlru", "how the LLC picks a victim: qlru (Intel's L3 from Ivy Bridge to Skylake as nanoBench measured it on client parts: 2-bit ages, a new line at age 1; uops.info/cache.html; a guess for other parts; the sets those L3s switch to a scan-resistant insertion are not modelled; among DDIO's ways the older line goes, a guess) or lru"),
KW("cache", "inclusive", sim.mem.inclusion, inclusive_words, "yes", "whether the LLC holds every line of its cores' L2s: yes (Broadwell-EP and before: a line a core reads fills the LLC too, and an LLC eviction takes it from the L2s) or no (Skylake-SP and later, with a snoop filter: a read from DRAM fills the L2 alone; a core's read or write of a line in the LLC moves it to the core's L2, where a line two cores read stays in the LLC too; a line an L2 evicts goes to the LLC outside DDIO's ways; a DMA write takes a line from an L2 into the LLC's ways 0 and 1, DDIO's being for the rest; a line in another core's L2 is a snoop, snoop_lat: Purnal et al., USENIX Security 2022, measured on Cascade Lake-SP; needs 2 ways beside ddio_ways)"),
K("cache", "llc_lat", KEY_DOUBLE, KEY_TIME, sim.mem.llc_lat, "40ns", 0, 1e-6, "ns", "local LLC hit, load to use"),
K("cache", "snoop_lat", KEY_DOUBLE, KEY_TIME, sim.mem.snoop_lat, "42ns", 0, 1e-6, "ns", "line another core of the socket holds modified, fetched from its private cache (MLC's L2->L2 HIT)"),
K("cache", "rllc_lat", KEY_DOUBLE, KEY_TIME, sim.mem.rllc_lat, "110ns", 0, 1e-5, "ns", "line held in the other socket's caches"),
K("mem", "dram_lat", KEY_DOUBLE, KEY_TIME, sim.mem.dram_lat, "90ns", 0, 1e-5, "ns", "local DRAM: the core's own node"),
K("mem", "node_lat", KEY_DOUBLE, KEY_TIME, sim.mem.node_lat, "0", 0, 1e-5, "ns", "a read from DRAM of another node of the core's socket: the whole latency, as dram_lat is the own node's, not what it adds to dram_lat (required when cpu.nodes > 1; between dram_lat and rdram_lat, numactl's SLIT 12 against 10 and 21); a transfer from a cache of that node adds its excess, node_lat - dram_lat (to snoop_lat, and to llc_lat for a line homed there: under SNC the node's own LLC slices)"),
K("mem", "rdram_lat", KEY_DOUBLE, KEY_TIME, sim.mem.rdram_lat, "135ns", 0, 1e-5, "ns", "remote DRAM: a node of another socket"),
K("mem", "bw", KEY_DOUBLE, KEY_BYTERATE, sim.hw.mem_bw, "50GB/s", 1e8, 1e13, "B/s", "memory bandwidth per node (under SNC or NPS, the socket's over cpu.nodes)"),
K("mem", "pages", KEY_U32, KEY_PLAIN, sim.mm.pages_per_node, "65536", 256, 1 << 22, "", "order-0 pages per node the model manages (16 GiB at most)"),
K("qpi", "bw", KEY_DOUBLE, KEY_BYTERATE, sim.hw.qpi_bw, "12.8GB/s", 1e8, 1e13, "B/s", "interconnect bandwidth per direction"),
K("qpi", "lat", KEY_DOUBLE, KEY_TIME, sim.mem.qpi_lat, "40ns", 0, 1e-5, "ns", "one crossing of the interconnect"),
K("pcie", "bw", KEY_DOUBLE, KEY_BYTERATE, sim.pcie.bw, "15.75GB/s", 1e8, 1e13, "B/s", "PCIe bandwidth of each direction after line encoding (gen3 x16: 8 GT/s x 16 x 128/130); SKP ordered sets take 4 bytes in 1538 of it"),
K("pcie", "lat", KEY_DOUBLE, KEY_TIME, sim.pcie.lat, "250ns", 0, 1e-4, "ns", "one way through device, link and root complex, without the memory access: a DMA read takes twice this plus where its line is"),
K("pcie", "mps", KEY_INT, KEY_SIZE, sim.pcie.mps, "256", 128, 4096, "B", "Max_Payload_Size, a power of 2: DMA writes go in TLPs of at most this"),
K("pcie", "mrrs", KEY_INT, KEY_SIZE, sim.pcie.mrrs, "512", 128, 4096, "B", "Max_Read_Request_Size, a power of 2 (512: the PCIe base spec's default)"),
K("pcie", "rcb", KEY_INT, KEY_SIZE, sim.pcie.rcb, "64", 64, 4096, "B", "largest completion the root complex returns a read in, a power of 2 (its read completion boundary: 64 or 128; MPS bounds it too)"),
K("pcie", "ack_every", KEY_INT, KEY_SIZE, sim.pcie.ack_every, "168", 16, 65536, "B", "TLP bytes a receiver answers with one ACK and one flow-control update DLLP, 8 bytes each, the other way (PCIe 5.0 tables 3-7..3-9, 2-46..2-48 as pcie-bench reads them: gen3 x16 168, x8 203 at MPS 256)"),
K("nic", "node", KEY_INT, KEY_PLAIN, sim.mem.nic_node, "0", 0, 15, "", "NUMA node whose PCIe root the NIC hangs off (its socket's, with one node a socket)"),
K("nic", "line_rate", KEY_DOUBLE, KEY_BITRATE, sim.hw.line_rate, "100Gbps", 1e6, 1e13, "bps", "link speed"),
K("nic", "max_pps", KEY_DOUBLE, KEY_PKTRATE, sim.hw.nic_max_pps, "40Mpps", 1e3, 1e10, "pps", "packets per second the NIC delivers to one queue"),
K("nic", "buffer", KEY_DOUBLE, KEY_SIZE, sim.hw.nic_buffer, "256K", 4096, 1 << 30, "B", "packet buffer, holding what the DMA has not moved over PCIe yet: a packet that finds it full is dropped"),
K("nic", "rx_ring", KEY_INT, KEY_PLAIN, sim.rxq.rx_ring, "1024", 2, 1 << 15, "", "rx descriptors (one page each), a power of 2"),
K("nic", "tx_ring", KEY_INT, KEY_PLAIN, sim.rxq.tx_ring, "1024", 2, 1 << 15, "", "XDP_TX descriptors, a power of 2"),
K("nic", "rd_tags", KEY_INT, KEY_PLAIN, sim.pcie.rd_tags, "256", 1, 1024, "", "DMA reads the NIC keeps in flight (256: 8-bit Extended Tags, which Linux enables where the device has them; 32 without)"),
K("nic", "ports", KEY_INT, KEY_PLAIN, sim.hw.ports, "1", 1, 2, "", "ports of the adapter, sharing its PCIe link (redirect_port = other needs 2)"),
K("nic", "irq_delay", KEY_DOUBLE, KEY_TIME, sim.hw.irq_delay, "2us", 0, 1e-3, "us", "completion to NAPI running, when NAPI is not polling (idle, or its last poll left budget)"),
K("driver", "budget", KEY_INT, KEY_PLAIN, sim.rxq.budget, "64", 1, 4096, "", "NAPI budget: completions per poll"),
KW("driver", "xdp_return", sim.rxq.xdp_return, xdp_return_words, "bulk", "how a redirected frame's page comes back at its transmit completion: frame (xdp_return_frame, one by one) or bulk (xdp_return_frame_bulk, 5.11 on: one ring lock for up to 16; an era without it returns frames one by one, and the run says so)"),
KW("cost", "family", sim.cpu.cost_family, cpu_family_words, "broadwell", "the core this [cost] table's cycles were counted on, under its kernel's default mitigations (words as cpu.family); another than cpu.family: the costs are borrowed, and every output says so; the whole scenario's: a [case] may not set it"),
KW("cost", "fit_family", sim.cpu.fit_family, cpu_fit_family_words, "any", "the core of the machine whose figures the driver cycles this file sets (rx_pkt, tx_pkt, stack: those its fit freed) were fitted on, as ppsim calibrate writes it into a .cal.ini: another than cpu.family makes them borrowed and uncalibrated, in a case that reads them; any: not recorded (taken as this machine's); the whole scenario's: a [case] may not set it"),
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
K("case", "redirect_cpu", KEY_INT, KEY_PLAIN, sim.load.redirect_cpu, "-1", -1, 1023, "", "xdp_cpumap: the CPU whose cpumap kthread takes the frames (its NUMA node: cpu / (cores / nodes)), not a queue's CPU: required; xdp_redirect with redirect_port = other: the CPU whose irq polls that port's channel; -1 (the default) or the queue's CPU: mlx5's own placement, that channel's irq on the redirecting CPU, polled in its softirq after the queue's"),
KW("case", "redirect_port", sim.rxq.redirect_port, port_words, "same", "xdp_redirect: out of the port the packet came in on (same), or out of the adapter's other port (other; nic.ports = 2): onto that port's channel of the redirecting CPU (6.1 en/xdp.c mlx5e_xdp_xmit), whose NAPI, on redirect_cpu (its irq's CPU; by default the redirecting CPU, where mlx5 puts it), polls the completions and returns the pages to the pool from there: the ring from another CPU, and in 6.12 directly when it is the pool's CPU and the pool's NAPI is still scheduled"),
K("case", "app_cpu", KEY_INT, KEY_PLAIN, sim.load.app_cpu, "-1", -1, 1023, "", "tcp: the CPU of the process reading the stream (its NUMA node: cpu / (cores / nodes)), another than the NAPI's: its own actor, its own cycles and memory accesses, a socket of tcp_rmem between them, and the skbs freed where its era frees them; -1 (or the irq's CPU, the same): the reader reads on the NAPI's CPU after each poll and moves with the irq"),
KW("case", "xdp_touch", sim.rxq.touch, touch_words, "read", "what the XDP program does with the data: none, read (the headers), write (read and swap the MAC addresses, as an XDP_TX program does); a tcp case has no XDP program: its stack reads the headers"),
K("case", "pkt_size", KEY_INT, KEY_SIZE, sim.rxq.pkt_size, "60", 60, 9992, "B", "frame size without its FCS (a minimum 64-byte frame is 60; over 3520, a jumbo frame: the NIC model says where it fits)"),
K("case", "rate", KEY_DOUBLE, KEY_PKTRATE, sim.load.rate, "0", 0, 1e10, "pps", "offered load (0 = line rate)"),
K("case", "queues", KEY_INT, KEY_PLAIN, sim.load.queues, "1", 1, 64, "", "rx queues, one NAPI each on consecutive CPUs; RSS spreads packets evenly"),
K("case", "irq_cpus", KEY_INT, KEY_PLAIN, sim.load.irq_cpus, "0", 0, 64, "", "CPUs the queues spread over, round robin (0: one CPU a queue)"),
K("case", "irq_cpu", KEY_INT, KEY_PLAIN, sim.load.irq_cpu, "0", 0, 1023, "", "CPU running queue 0's NAPI at the start (CPUs numbered socket by socket; its NUMA node: cpu / (cores / nodes))"),
K("case", "migrate_at", KEY_DOUBLE, KEY_TIME, sim.load.migrate_at, "-1", -1, 3600, "s", "when the irq moves (negative: never)"),
K("case", "migrate_cpu", KEY_INT, KEY_PLAIN, sim.load.migrate_cpu, "0", 0, 1023, "", "CPU the irq moves to"),
K("case", "warmup", KEY_DOUBLE, KEY_TIME, sim.load.warmup, "20ms", 0, 3600, "s", "simulated time before measuring (after any migration)"),
K("case", "duration", KEY_DOUBLE, KEY_TIME, sim.load.duration, "50ms", 1e-6, 3600, "s", "simulated time measured"),
K("case", "sample", KEY_DOUBLE, KEY_TIME, sim.load.sample, "1ms", 1e-6, 3600, "s", "interval of the transient samples; a run keeps 2046 (migrate_at + warmup + duration over sample at most that): left unset, it grows to the next 1, 2 or 5 x 10^n s that fits a longer run"),
K("case", "precision", KEY_DOUBLE, KEY_PLAIN, sim.load.precision, "0", 0, 50, "%", "end the measurement before duration is over once the rates (packets, bytes, the consumer's) are known to this: over 10 samples at least, each rate's 95 % confidence half-width over the window's samples within this much of it, the window's halves as close, and a poll's packets a queue at either end of the window within it too; 0: always the whole duration.  The fit cases of a calibration always measure it whole"),
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
 * The registry input/ parses from: the core keys; each NIC model's own
 * in their sections, after the core key each names (after), their values
 * made the case's queue's nic_config; and each workload's own after the
 * core key its keys_after names, their values made the case's queue's.
 * A plugin's key whose core key is not one of its section follows the
 * section's last.  With who owns each (NULL: the core, or a NIC model,
 * which is every case's).  Built before main(), from tables that are
 * constants.
 */
struct key scn_registry[SCN_MAX_KEYS];
const struct workload_ops *scn_registry_owner[SCN_MAX_KEYS];
size_t scn_registry_len;
size_t scn_registry_left_out;	/* past SCN_MAX_KEYS: set_defaults says it */

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

/* Adds k, whose value lies k->offset into the struct its table says,
 * which lies base bytes into struct scn_case. */
static void add_key(const struct key *k, const struct workload_ops *owner,
		    size_t base)
{
	if (scn_registry_len == SCN_MAX_KEYS) {
		scn_registry_left_out++;
		return;
	}
	scn_registry[scn_registry_len] = *k;
	if (k->registry) {
		scn_registry[scn_registry_len].def = k->registry[0]->name;
		scn_registry[scn_registry_len].help = registry_help(k->registry);
	}
	scn_registry[scn_registry_len].offset += base;
	scn_registry_owner[scn_registry_len++] = owner;
}

static bool core_key(const char *section, const char *name)
{
	for (size_t i = 0; i < NR_CORE_KEYS && name; i++)
		if (!strcmp(core_keys[i].section, section) &&
		    !strcmp(core_keys[i].name, name))
			return true;
	return false;
}

/* Whether a plugin's keys that name after go after core key k, the last
 * of its section or not. */
static bool goes_after(const struct key *k, bool last, const char *section,
		       const char *after)
{
	if (strcmp(k->section, section))
		return false;
	return core_key(section, after) ? !strcmp(after, k->name) : last;
}

/* The NIC models' keys that follow core key k. */
static void add_nic_keys(const struct key *k, bool last)
{
	for (int n = 0; nic_models[n]; n++) {
		const struct nic_model *o = nic_models[n];
		bool here = false;

		for (int j = 0; j < o->nr_keys; j++) {
			const struct key *nk = &o->keys[j];

			if (nk->after || !j)
				here = goes_after(k, last, nk->section,
						  nk->after);
			if (here)
				add_key(nk, NULL, offsetof(struct scn_case,
							   sim.rxq.nic_config));
		}
	}
}

__attribute__((constructor)) static void build_registry(void)
{
	for (size_t i = 0; i < NR_CORE_KEYS; i++) {
		const struct key *k = &core_keys[i];
		bool last = i + 1 == NR_CORE_KEYS ||
			    strcmp(core_keys[i + 1].section, k->section);

		add_key(k, NULL, 0);
		add_nic_keys(k, last);
		for (int w = 0; workloads[w]; w++) {
			const struct workload_ops *o = workloads[w];
			bool here = goes_after(k, last, "case", o->keys_after);

			for (int j = 0; here && j < o->nr_keys; j++)
				add_key(&o->keys[j], o,
					offsetof(struct scn_case, sim.rxq));
		}
	}
}
