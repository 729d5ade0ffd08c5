/*
 * A TCP stream's receive path and the process reading it.  The driver
 * builds an skb around each packet's page, and the stack's receive work
 * queues it on the socket; the reader copies each payload out of the page
 * into its own buffer and frees the skb.  Where the freed page goes (the
 * page allocator or page_pool, from which CPU) is the caller's: the
 * free function it passes (model/workload/tcp.c, reader_free).
 */
#ifndef PPSIM_TCP_H
#define PPSIM_TCP_H

#include "../kernel/mm.h"
#include "../mem/mem.h"

/* what a packet carries besides payload: Ethernet 14 + IPv4 20 + TCP 20 +
 * timestamps 12 bytes (pkt_size is the frame without its FCS) */
#define TCP_HEADERS	66

/* What an skb of the model charges the socket's receive buffer:
 * skb->truesize of build_skb() around one page (one page a descriptor,
 * rxq.h), the page and SKB_DATA_ALIGN(sizeof(struct sk_buff)) = 256
 * bytes (232 bytes, 6.1 x86-64). */
#define TCP_TRUESIZE	(MEM_PAGE_LINES * MEM_LINE + 256)

/* The [cost] keys of the stack, in cycles, and the socket's buffer. */
struct tcp_config {
	double c_stack;		/* skb, GRO, IP and TCP receive per packet */
	double c_recv;		/* recvmsg per packet, skb free included */
	double c_copy;		/* copy to the reader per 64-byte line */
	int rmem;		/* bytes of skbs (truesize) the socket holds
				 * for a reader on another CPU */
};

/* Where an skb's bytes lie: its page, the first line of its bytes there
 * and their lines.  An skb of one page a packet has one; a striding RQ's
 * non-linear skb (its headers copied into the skb's own head) holds each
 * page its payload spans as a fragment, TCP_MAX_FRAGS at most (a frame
 * of 9992 bytes from a 256-byte stride's offset spans 4 pages). */
#define TCP_MAX_FRAGS	4

struct tcp_frag {
	struct page *page;
	uint32_t line;
	int lines;
};

/* Frees an skb the reader copied, whose pages are f[0..nr), built on CPU
 * cpu (skb->alloc_cpu). */
typedef void tcp_free_fn(void *arg, const struct tcp_frag *f, int nr,
			 int cpu);

struct tcp;

/*
 * A socket fed by one rx queue, holding at most entries packets of
 * pkt_size bytes (pkt_size > TCP_HEADERS), and its reader's buffer, laid
 * out on node.  Returns NULL when memory runs out.
 */
struct tcp *tcp_open(const struct tcp_config *cfg, struct mem *m, int node,
		     int pkt_size, unsigned int entries);
void tcp_free(struct tcp *s);

/* Queues one packet, whose first line is line, on the socket, its skb
 * built on CPU cpu.  (The stack's receive work, c_stack, is charged by
 * the driver with its own rx work, where it builds the skb.) */
void tcp_receive(struct tcp *s, struct page *page, uint32_t line, int cpu);
/* The same for an skb whose bytes lie in f[0..nr), nr from 1 to
 * TCP_MAX_FRAGS (f[0] the headers' page). */
void tcp_receive_frags(struct tcp *s, const struct tcp_frag *f, int nr,
		       int cpu);

/* The reader copies payloads, at most most bytes of them (whole
 * packets), and frees each skb with free(arg, ...).  Returns the payload
 * bytes it copied. */
uint64_t tcp_read(struct tcp *s, struct mem_work *w, uint64_t most,
		  tcp_free_fn *free, void *arg);

/* Packets waiting in the socket: their pages are out of every pool. */
unsigned int tcp_queued(const struct tcp *s);
/* The pages of the i-th packet waiting (0: the next one read), i below
 * tcp_queued(): sets *f to them and returns how many.  Packets that
 * share a page wait one after the other. */
int tcp_queued_frags(const struct tcp *s, unsigned int i,
		     const struct tcp_frag **f);

#endif
