/*
 * The keys of a case against each other: the core's rules, and the
 * rules of the case's NIC model and workload (their check), said at the
 * line to blame.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include "scn_private.h"
#include "../model/nic/nic_model.h"

static bool set_by_user(const struct origin *org, const char *key)
{
	return org && org[scn_key_index(key)].file;
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
 * scn_validate() says it is too short. */
void scn_fit_sample(struct scn_case *c, const struct origin *org)
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

static bool is_pow2(int v)
{
	return v > 0 && !(v & (v - 1));
}

/* Where scn_validate() says what is wrong: to the loader ld at the lines of
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
 * (key_say). */
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
		const struct origin *o = &v->org[scn_key_index(key)];

		scn_error(v->ld, o->file ? o->file : v->c->file,
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
bool scn_key_used(const struct scn_case *c, const struct key *k)
{
	const struct workload_ops *owner = scn_registry_owner[k - scn_registry];
	struct workload_case wc = workload_case_of(&c->sim);

	if (owner)
		return owner->uses(&wc);
	return k != scn_find_key("case", "redirect_cpu") ||
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
	/* the queues past the last CPU, when their first CPU exists (one
	 * that does not is said above, once) */
	CHECK(l->irq_cpu >= cpus ||
	      (l->migrate_at >= 0 && l->migrate_cpu >= cpus) ||
	      (l->irq_cpu + n <= cpus &&
	       (l->migrate_at < 0 || l->migrate_cpu + n <= cpus)),
	      "case.queues", "%d queues, one CPU each from CPU %d, do not "
	      "fit the machine's %d CPUs", n,
	      l->irq_cpu > l->migrate_cpu || l->migrate_at < 0 ? l->irq_cpu
							       : l->migrate_cpu,
	      cpus);
	CHECK(m->nic_node < mem_nr_nodes(m), "nic.node", "nic.node %d does "
	      "not exist: the machine has %d nodes (%d sockets x %d)",
	      m->nic_node, mem_nr_nodes(m), m->sockets,
	      mem_nodes_per_socket(m));
	CHECK(m->ddio_ways < m->llc_ways, "cache.ddio_ways", "ddio_ways %d "
	      "must be below llc_ways %d", m->ddio_ways, m->llc_ways);
	CHECK(m->inclusion != MEM_NON_INCLUSIVE || m->ddio_ways >= m->llc_ways ||
	      m->llc_ways - m->ddio_ways >= MEM_DDIO_PLUS_WAYS,
	      "cache.inclusive", "inclusive = no needs %d of llc_ways %d "
	      "beside ddio_ways %d: a DMA write puts a line it takes from a "
	      "core's L2 into ways 0 and 1, apart from DDIO's (Purnal et al., "
	      "USENIX Security 2022)", MEM_DDIO_PLUS_WAYS, m->llc_ways,
	      m->ddio_ways);
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

/* The NUMA nodes apart from sockets (SNC, NPS): what the part allows, the
 * cores split evenly, and another node's DRAM between the own and another
 * socket's. */
static void validate_nodes(struct verdict *v)
{
	const struct mem_config *m = &v->c->sim.mem;
	int max = v->c->sim.hw.max_nodes;
	/* unset, node_lat is cpu.nodes's to ask for: said at its line */
	bool lat_set = set_by_user(v->org, "mem.node_lat") || m->node_lat;

	CHECK(m->nodes <= m->cores, "cpu.nodes", "nodes %d: more NUMA nodes "
	      "than the socket's %d cores", m->nodes, m->cores);
	CHECK(m->nodes > m->cores || m->cores % m->nodes == 0, "cpu.nodes",
	      "nodes %d does not divide the socket's %d cores: every node "
	      "has as many cores", m->nodes, m->cores);
	CHECK(m->nodes <= max, "cpu.nodes", "nodes %d: the part splits a "
	      "socket into %d NUMA node%s at most (cpu.max_nodes: its SNC or "
	      "NPS modes)", m->nodes, max, max == 1 ? "" : "s");
	CHECK(mem_nr_nodes(m) <= MEM_MAX_NODES, "cpu.nodes", "%d sockets x "
	      "%d nodes: at most %d nodes in all", m->sockets, m->nodes,
	      MEM_MAX_NODES);
	CHECK(m->nodes == 1 || lat_set, "cpu.nodes", "nodes %d needs "
	      "mem.node_lat: the latency of another node's DRAM of the "
	      "socket, between dram_lat %g ns and rdram_lat %g ns", m->nodes,
	      m->dram_lat * 1e9, m->rdram_lat * 1e9);
	CHECK(m->nodes == 1 || !lat_set || (m->node_lat >= m->dram_lat &&
	      m->node_lat <= m->rdram_lat), "mem.node_lat", "node_lat %g ns "
	      "must lie between dram_lat %g ns and rdram_lat %g ns (another "
	      "node of the socket; cpu.nodes %d)", m->node_lat * 1e9,
	      m->dram_lat * 1e9, m->rdram_lat * 1e9, m->nodes);
}

/* The machine's name: a title, which a terminal, a commit message and a
 * plot show as it is. */
static void validate_name(struct verdict *v)
{
	const char *name = v->c->machine, *p = name;

	while (*p >= ' ' && *p <= '~')
		p++;
	CHECK(!*p, "machine.name", "name: character 0x%02x is not "
	      "printable ASCII", (unsigned char)*p);
	CHECK(strlen(name) <= SCN_MACHINE_MAX, "machine.name", "name: "
	      "longer than %d characters", SCN_MACHINE_MAX);
}

/* The core: a mitigation its family has.  A cost table of another family
 * is no error (the outputs say the costs are borrowed). */
static void validate_cpu(struct verdict *v)
{
	const struct cpu_config *cpu = &v->c->sim.cpu;

	CHECK(cpu_has_srso(cpu->family) || cpu->srso == CPU_SRSO_DEFAULT,
	      "cpu.srso", "srso = %s: %s has no SRSO (AMD Zen 1 to 4 only, "
	      "docs.kernel.org hw-vuln/srso.html): leave it at default",
	      cpu_srso_words[cpu->srso], cpu_family_words[cpu->family]);
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
			CHECK(!v->org[scn_key_index(dotted)].in_case ||
			      workloads[i]->uses(&wc), dotted,
			      "%s is %s: this case (%s) has none", k->name,
			      k->what, q->workload->name);
		}
	CHECK(!(v->org && v->org[scn_key_index("case.redirect_cpu")].in_case)
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

/* The rings and their costs: powers of 2, the lock within the ring; the
 * NIC model's own rules; the link's sizes, powers of 2. */
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
	q->nic->check(q, say, v);
	for (int i = 0; i < v->c->nr_policies; i++)	/* what each kernel's
							 * driver refuses */
		q->nic->check_era(q, kernel_era_of(v->c->policies[i]), say, v);
	CHECK(is_pow2(p->mps), "pcie.mps", "mps %d is not a power of 2",
	      p->mps);
	CHECK(is_pow2(p->mrrs), "pcie.mrrs", "mrrs %d is not a power of 2",
	      p->mrrs);
	CHECK(is_pow2(p->rcb), "pcie.rcb", "rcb %d is not a power of 2",
	      p->rcb);
}

/*
 * The rx ring, the pool's ring, cache and bulk, the driver's cache (its
 * NIC model's cache_pages) and the tx ring may all sit on one node, clear
 * of its watermarks; so may the pages a workload's far side holds (a
 * cpumap's ring, a reader's socket), which are named when they are what
 * does not fit.
 */
static void validate_pages(struct verdict *v)
{
	const struct scn_case *c = v->c;
	const struct rxq_config *q = &c->sim.rxq;
	const struct sim_load *l = &c->sim.load;
	struct workload_case wc = workload_case_of(&c->sim);
	const char *cache_key, *key = NULL;
	long long cache = q->nic->cache_pages(q, &cache_key),
		  rings = 2 * q->rx_ring + q->tx_ring + 256 + cache,
		  held = 0, half = c->sim.mm.pages_per_node / 2;

	if (q->workload->far_pages)
		held = q->workload->far_pages(&wc, &key);
	/* blamed: mem.pages's line, but for the largest of the rings' terms
	 * when the command line set it and not mem.pages (--set
	 * nic.tx_ring=32768), or when no line set mem.pages */
	const char *big = 2LL * q->rx_ring >= q->tx_ring &&
			  2LL * q->rx_ring >= cache ?
			  "nic.rx_ring" : q->tx_ring >= cache ?
			  "nic.tx_ring" : cache_key;
	const struct origin *ob = v->org ? &v->org[scn_key_index(big)] :
				  NULL, *op = v->org ?
				  &v->org[scn_key_index("mem.pages")] : NULL;
	/* the command line's word first: it came last */
	bool cl_big = ob && ob->file && *ob->file == '-',
	     cl_pages = op && op->file && *op->file == '-';
	const char *blame = cl_big && !cl_pages ? big :
			    (op && op->file) || !(ob && ob->file) ?
			    "mem.pages" : big;

	CHECK(rings * l->queues <= half, blame,
	      "%u pages per node cannot hold %d rx queue(s) of "
	      "2 x rx_ring %d + tx_ring %d + 256 + %s %lld "
	      "pages (half a node at most): lower %s or raise "
	      "mem.pages", c->sim.mm.pages_per_node, l->queues,
	      q->rx_ring, q->tx_ring, strchr(cache_key, '.') + 1, cache,
	      big);
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
		const struct origin *o = &org[scn_key_index("case.sample")];

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
bool scn_validate(struct loader *ld, const struct scn_case *c,
		  const struct origin *org, char *why, size_t len)
{
	struct verdict v = { ld, c, org, why, len, true };
	struct workload_case wc = workload_case_of(&c->sim);

	validate_machine(&v);
	validate_nodes(&v);
	validate_name(&v);
	validate_cpu(&v);
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

int scn_case_put(struct scn_case *c, const char *key, double v, char *why,
		 size_t len)
{
	const struct key *k = scn_find_dotted(key);
	struct scn_case moved = *c;
	char text[64];

	if (!k || !scn_is_number(k) || k->in_scenario) {
		snprintf(why, len, "unknown numeric key '%s'", key);
		return -1;
	}
	/* kept as a file keeps it: the value a calibration writes is the
	 * value its fit evaluated, to the last digit */
	scn_format_digits(key, v, SCN_FILE_DIGITS, text, sizeof(text));
	if (scn_parse_number(k, text, &v, why, len))
		return -1;
	scn_store_number(k, (char *)&moved + k->offset, v);
	if (!scn_validate(NULL, &moved, NULL, why, len))
		return -1;
	*c = moved;
	return 0;
}
