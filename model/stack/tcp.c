#include <stdlib.h>
#include "tcp.h"

#define USER_BUF_LINES	1024	/* the reader's 64 KiB buffer */

/* A packet in the socket: its pages and where its data lie in them. */
struct skb {
	struct tcp_frag f[TCP_MAX_FRAGS];
	int nr;
	int cpu;		/* skb->alloc_cpu */
};

struct tcp {
	struct tcp_config cfg;
	int payload;		/* TCP payload bytes a packet carries */
	int pkt_lines;		/* lines of a packet */
	struct skb *q;		/* the socket's receive queue */
	uint32_t mask, head, tail;
	uint32_t user;		/* the reader's buffer, cycled through */
	uint32_t user_line;
};

struct tcp *tcp_open(const struct tcp_config *cfg, struct mem *m, int node,
		     int pkt_size, unsigned int entries)
{
	struct tcp *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->q = calloc(entries, sizeof(*s->q));
	if (!s->q) {
		free(s);
		return NULL;
	}
	s->cfg = *cfg;
	s->payload = pkt_size - TCP_HEADERS;
	s->pkt_lines = (pkt_size + MEM_LINE - 1) / MEM_LINE;
	s->mask = entries - 1;
	s->user = mem_region(m, node, MEM_STATE, USER_BUF_LINES);
	if (s->user == MEM_NO_LINE) {
		tcp_free(s);
		return NULL;
	}
	return s;
}

void tcp_free(struct tcp *s)
{
	if (!s)
		return;
	free(s->q);
	free(s);
}

void tcp_receive(struct tcp *s, struct page *page, uint32_t line, int cpu)
{
	struct tcp_frag f = { page, line, s->pkt_lines };

	tcp_receive_frags(s, &f, 1, cpu);
}

void tcp_receive_frags(struct tcp *s, const struct tcp_frag *f, int nr,
		       int cpu)
{
	struct skb *skb = &s->q[s->tail++ & s->mask];

	BUG_ON(s->tail - s->head > s->mask + 1 || nr < 1 ||
	       nr > TCP_MAX_FRAGS);
	for (int i = 0; i < nr; i++)
		skb->f[i] = f[i];
	skb->nr = nr;
	skb->cpu = cpu;
}

/* The reader's copy of n lines of an skb: the first line waits (the stack
 * read it: a hit, mostly); the rest streams under the copy's own work,
 * shared among the pages' runs of lines as their lines. */
static void copy_skb(struct mem_work *w, const struct skb *skb, int n,
		     double copy)
{
	int left = n;

	mem_work_read_random(w, skb->f[0].line);
	for (int i = 0; i < skb->nr && left > 0; i++) {
		int skip = i == 0;
		int k = skb->f[i].lines - skip;

		k = k < left - skip ? k : left - skip;
		mem_work_copy(w, skb->f[i].line + (uint32_t)skip, k,
			      skb->nr == 1 ? copy : copy * k / n);
		left -= k + skip;
	}
}

uint64_t tcp_read(struct tcp *s, struct mem_work *w, uint64_t most,
		  tcp_free_fn *free, void *arg)
{
	int lines = (s->payload + MEM_LINE - 1) / MEM_LINE;
	uint64_t bytes = 0;

	while (s->head != s->tail && bytes + (uint64_t)s->payload <= most) {
		struct skb *skb = &s->q[s->head++ & s->mask];

		int n = lines < s->pkt_lines ? lines : s->pkt_lines;
		double copy = s->cfg.c_copy * lines;

		copy_skb(w, skb, n, copy);
		for (int k = 0; k < n; k++)
			mem_work_store(w, s->user + s->user_line++ %
					  USER_BUF_LINES);
		w->cycles += s->cfg.c_recv + copy;
		bytes += (uint64_t)s->payload;
		free(arg, skb->f, skb->nr, skb->cpu);
	}
	return bytes;
}

unsigned int tcp_queued(const struct tcp *s)
{
	return s->tail - s->head;
}

int tcp_queued_frags(const struct tcp *s, unsigned int i,
		     const struct tcp_frag **f)
{
	const struct skb *skb = &s->q[(s->head + i) & s->mask];

	*f = skb->f;
	return skb->nr;
}
