#include <stdlib.h>
#include <string.h>
#include "mem.h"

#define NO_LINE	UINT32_MAX

struct mem_line {
	uint8_t node;		/* home node */
	uint8_t kind;		/* enum mem_kind */
	uint8_t llc;		/* sockets whose LLC holds the line */
	uint8_t dirty;		/* socket + 1 whose caches hold it modified */
	uint16_t core;		/* core + 1 whose private cache holds it */
};

struct cache {
	uint32_t nsets;
	uint32_t ways;
	uint32_t *tag;		/* nsets * ways line ids, NO_LINE if empty */
	uint32_t *stamp;	/* last use, for LRU */
	uint32_t clock;
};

struct mem {
	struct mem_config cfg;
	struct mem_line *lines;
	uint32_t nr_lines, cap_lines;
	struct cache llc[MEM_MAX_SOCKETS];
	struct cache *priv;	/* one per core */
	struct mem_stats st;
};

static int cache_init(struct cache *c, uint64_t size, int ways)
{
	c->ways = (uint32_t)ways;
	c->nsets = (uint32_t)(size / MEM_LINE / (uint64_t)ways);
	c->tag = malloc((size_t)c->nsets * c->ways * sizeof(*c->tag));
	c->stamp = calloc((size_t)c->nsets * c->ways, sizeof(*c->stamp));
	if (!c->tag || !c->stamp || !c->nsets)
		return -1;
	memset(c->tag, 0xff, (size_t)c->nsets * c->ways * sizeof(*c->tag));
	return 0;
}

static void cache_fini(struct cache *c)
{
	free(c->tag);
	free(c->stamp);
}

/* Physically contiguous lines spread over sets the way hashed LLC slices
 * and set indexing spread them: no pathological aliasing. */
static uint32_t set_of(const struct cache *c, uint32_t line)
{
	uint32_t h = line * 0x9e3779b1u;

	return (h ^ (h >> 15)) % c->nsets;
}

static uint32_t *slot_of(struct cache *c, uint32_t line)
{
	uint32_t *tag = &c->tag[(size_t)set_of(c, line) * c->ways];

	for (uint32_t w = 0; w < c->ways; w++)
		if (tag[w] == line)
			return &tag[w];
	return NULL;
}

static void touch(struct cache *c, uint32_t *slot)
{
	c->stamp[slot - c->tag] = ++c->clock;
}

static void cache_remove(struct cache *c, uint32_t line)
{
	uint32_t *slot = slot_of(c, line);

	if (slot)
		*slot = NO_LINE;
}

/* The LRU slot among ways [0, ways) of line's set: an empty one first. */
static uint32_t *victim(struct cache *c, uint32_t line, uint32_t ways)
{
	size_t base = (size_t)set_of(c, line) * c->ways;
	uint32_t *best = &c->tag[base];

	for (uint32_t w = 0; w < ways; w++) {
		if (c->tag[base + w] == NO_LINE)
			return &c->tag[base + w];
		if (c->stamp[base + w] < c->stamp[best - c->tag])
			best = &c->tag[base + w];
	}
	return best;
}

struct mem *mem_create(const struct mem_config *cfg, const char **err)
{
	struct mem *m;
	int cores = cfg->sockets * cfg->cores;

	if (cfg->sockets < 1 || cfg->sockets > MEM_MAX_SOCKETS ||
	    cfg->nic_socket < 0 || cfg->nic_socket >= cfg->sockets ||
	    cores > UINT16_MAX - 1) {
		*err = "impossible topology";
		return NULL;
	}
	if (cfg->ddio_ways < 0 || cfg->ddio_ways >= cfg->llc_ways) {
		*err = "ddio_ways must be below llc_ways";
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		*err = "out of memory";
		return NULL;
	}
	m->cfg = *cfg;
	m->priv = calloc((size_t)cores, sizeof(*m->priv));
	if (!m->priv)
		goto nomem;
	for (int s = 0; s < cfg->sockets; s++)
		if (cache_init(&m->llc[s], cfg->llc_size, cfg->llc_ways))
			goto nomem;
	for (int c = 0; c < cores; c++)
		if (cache_init(&m->priv[c], cfg->priv_size, cfg->priv_ways))
			goto nomem;
	return m;
nomem:
	mem_destroy(m);
	*err = "out of memory (or a cache smaller than one set)";
	return NULL;
}

void mem_destroy(struct mem *m)
{
	if (!m)
		return;
	for (int s = 0; s < m->cfg.sockets; s++)
		cache_fini(&m->llc[s]);
	if (m->priv)
		for (int c = 0; c < m->cfg.sockets * m->cfg.cores; c++)
			cache_fini(&m->priv[c]);
	free(m->priv);
	free(m->lines);
	free(m);
}

uint32_t mem_region(struct mem *m, int node, enum mem_kind kind,
		    uint32_t nr_lines)
{
	uint32_t first = m->nr_lines;

	if (m->nr_lines + nr_lines > m->cap_lines) {
		uint32_t cap = m->cap_lines ? m->cap_lines : 4096;

		while (cap < m->nr_lines + nr_lines)
			cap *= 2;
		m->lines = realloc(m->lines, cap * sizeof(*m->lines));
		if (!m->lines)
			abort();
		m->cap_lines = cap;
	}
	for (uint32_t i = 0; i < nr_lines; i++)
		m->lines[first + i] = (struct mem_line){ .node = (uint8_t)node,
							 .kind = (uint8_t)kind };
	m->nr_lines += nr_lines;
	return first;
}

static int socket_of(const struct mem *m, int core)
{
	return core / m->cfg.cores;
}

/* Drop a line from one socket: its LLC and any private copy there. */
static void drop_from_socket(struct mem *m, struct mem_line *ln,
			     uint32_t line, int s)
{
	cache_remove(&m->llc[s], line);
	ln->llc &= (uint8_t)~(1u << s);
	if (ln->dirty == s + 1)
		ln->dirty = 0;
	if (ln->core && socket_of(m, ln->core - 1) == s) {
		cache_remove(&m->priv[ln->core - 1], line);
		ln->core = 0;
	}
}

static void writeback(struct mem *m, const struct mem_line *ln, int from)
{
	m->st.dram_bytes[ln->node] += MEM_LINE;
	if (ln->node != from)
		m->st.qpi_bytes[ln->node] += MEM_LINE;
}

/* Make room for line in socket s's LLC, among its first ways ways. */
static void llc_fill(struct mem *m, int s, uint32_t line, uint32_t ways)
{
	struct cache *c = &m->llc[s];
	uint32_t *slot = victim(c, line, ways);

	if (*slot != NO_LINE) {
		struct mem_line *old = &m->lines[*slot];

		if (old->dirty == s + 1)
			writeback(m, old, s);
		/* inclusive: the private copy goes too */
		drop_from_socket(m, old, *slot, s);
	}
	*slot = line;
	touch(c, slot);
	m->lines[line].llc |= (uint8_t)(1u << s);
}

static void priv_fill(struct mem *m, int core, uint32_t line)
{
	struct cache *c = &m->priv[core];
	struct mem_line *ln = &m->lines[line];
	uint32_t *slot;

	if (ln->core == core + 1) {
		touch(c, slot_of(c, line));
		return;
	}
	if (ln->core)	/* the model keeps one private holder */
		cache_remove(&m->priv[ln->core - 1], line);
	slot = victim(c, line, c->ways);
	if (*slot != NO_LINE)
		m->lines[*slot].core = 0;	/* stays in the LLC */
	*slot = line;
	touch(c, slot);
	ln->core = (uint16_t)(core + 1);
}

static enum mem_place place_of(const struct mem *m, int core, uint32_t line)
{
	const struct mem_line *ln = &m->lines[line];
	int s = socket_of(m, core);

	if (ln->core == core + 1 && (!ln->dirty || ln->dirty == s + 1))
		return MEM_PRIV;
	if ((ln->dirty && ln->dirty != s + 1) || (ln->llc & ~(1u << s)))
		return ln->llc & (1u << s) && !ln->dirty ? MEM_LLC
							  : MEM_RCACHE;
	if (ln->llc & (1u << s))
		return MEM_LLC;
	return ln->node == s ? MEM_DRAM : MEM_RDRAM;
}

static double latency(const struct mem *m, enum mem_place p)
{
	switch (p) {
	case MEM_PRIV: return m->cfg.priv_lat;
	case MEM_LLC: return m->cfg.llc_lat;
	case MEM_RCACHE: return m->cfg.rcache_lat;
	case MEM_DRAM: return m->cfg.dram_lat;
	default: return m->cfg.rdram_lat;
	}
}

/* Bring the line to core's socket and private cache after a miss. */
static void fetch(struct mem *m, int core, uint32_t line, enum mem_place p)
{
	struct mem_line *ln = &m->lines[line];
	int s = socket_of(m, core);

	if (p == MEM_RCACHE) {
		m->st.qpi_bytes[s] += MEM_LINE;
		if (ln->dirty) {	/* the owner writes it back, shared */
			writeback(m, ln, ln->dirty - 1);
			ln->dirty = 0;
		}
	} else if (p == MEM_DRAM || p == MEM_RDRAM) {
		m->st.dram_bytes[ln->node] += MEM_LINE;
		if (p == MEM_RDRAM)
			m->st.qpi_bytes[s] += MEM_LINE;
	}
	if (!(ln->llc & (1u << s)))
		llc_fill(m, s, line, m->llc[s].ways);
	else
		touch(&m->llc[s], slot_of(&m->llc[s], line));
	priv_fill(m, core, line);
}

double mem_cpu_read(struct mem *m, int core, uint32_t line)
{
	enum mem_place p = place_of(m, core, line);

	m->st.cpu_reads[m->lines[line].kind][p]++;
	if (p == MEM_PRIV)
		touch(&m->priv[core], slot_of(&m->priv[core], line));
	else
		fetch(m, core, line, p);
	return latency(m, p);
}

double mem_cpu_write(struct mem *m, int core, uint32_t line)
{
	struct mem_line *ln = &m->lines[line];
	enum mem_place p = place_of(m, core, line);
	int s = socket_of(m, core);

	m->st.cpu_writes[ln->kind][p]++;
	if (p == MEM_PRIV && ln->dirty == s + 1) {
		touch(&m->priv[core], slot_of(&m->priv[core], line));
		return latency(m, p);
	}
	/* read for ownership: every other socket's copy goes */
	for (int t = 0; t < m->cfg.sockets; t++) {
		if (t != s && (ln->llc & (1u << t))) {
			drop_from_socket(m, ln, line, t);
			m->st.qpi_bytes[t] += MEM_LINE;
		}
	}
	if (p == MEM_PRIV)
		touch(&m->priv[core], slot_of(&m->priv[core], line));
	else
		fetch(m, core, line, p == MEM_RCACHE ? MEM_LLC : p);
	ln->dirty = (uint8_t)(s + 1);
	return latency(m, p);
}

double mem_nic_write(struct mem *m, uint32_t line)
{
	struct mem_line *ln = &m->lines[line];
	int n = m->cfg.nic_socket;
	double extra = 0;

	m->st.nic_writes[ln->kind]++;
	for (int t = 0; t < m->cfg.sockets; t++) {
		if (t != n && (ln->llc & (1u << t))) {
			drop_from_socket(m, ln, line, t);
			m->st.nic_snoops++;
			m->st.qpi_bytes[t] += MEM_LINE;
			extra = 2 * m->cfg.qpi_lat;
		}
	}
	if (ln->core) {	/* a private copy on the NIC's socket */
		cache_remove(&m->priv[ln->core - 1], line);
		ln->core = 0;
	}
	if (ln->node == n && m->cfg.ddio_ways) {
		uint32_t *slot = slot_of(&m->llc[n], line);

		if (slot)
			touch(&m->llc[n], slot);	/* write update */
		else
			llc_fill(m, n, line, (uint32_t)m->cfg.ddio_ways);
		ln->dirty = (uint8_t)(n + 1);
		m->st.nic_ddio++;
		return extra;
	}
	if (ln->llc & (1u << n))
		drop_from_socket(m, ln, line, n);
	m->st.dram_bytes[ln->node] += MEM_LINE;
	if (ln->node != n)
		m->st.qpi_bytes[ln->node] += MEM_LINE;
	return extra;
}

double mem_nic_read(struct mem *m, uint32_t line)
{
	const struct mem_line *ln = &m->lines[line];
	int n = m->cfg.nic_socket;

	if (ln->dirty && ln->dirty != n + 1) {
		m->st.qpi_bytes[n] += MEM_LINE;
		return m->cfg.rcache_lat;
	}
	if (ln->llc & (1u << n))
		return m->cfg.llc_lat;
	m->st.dram_bytes[ln->node] += MEM_LINE;
	if (ln->node != n) {
		m->st.qpi_bytes[n] += MEM_LINE;
		return m->cfg.rdram_lat;
	}
	return m->cfg.dram_lat;
}

double mem_hit_latency(const struct mem *m)
{
	return m->cfg.priv_lat;
}

int mem_line_node(const struct mem *m, uint32_t line)
{
	return m->lines[line].node;
}

enum mem_kind mem_line_kind(const struct mem *m, uint32_t line)
{
	return (enum mem_kind)m->lines[line].kind;
}

enum mem_place mem_where(const struct mem *m, int core, uint32_t line)
{
	return place_of(m, core, line);
}

const struct mem_stats *mem_stats(const struct mem *m)
{
	return &m->st;
}

void mem_stats_reset(struct mem *m)
{
	memset(&m->st, 0, sizeof(m->st));
}

const char *mem_kind_name(enum mem_kind kind)
{
	static const char *const names[] = {
		"pkt", "struct_page", "cqe", "rx_wqe", "tx_wqe", "state",
	};
	return names[kind];
}

const char *mem_place_name(enum mem_place place)
{
	static const char *const names[] = {
		"priv", "llc", "remote_cache", "dram", "remote_dram",
	};
	return names[place];
}
