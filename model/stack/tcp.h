/*
 * A TCP stream's receive path and the process reading it.  The driver
 * builds an skb around each packet's page (the skb takes a page
 * reference), and the stack's receive work queues it on the socket; after
 * the softirq, the reader on the same CPU copies each payload out of the
 * page into its own buffer and frees the skb, which drops the page's last
 * reference (with page_pool of the seed's era, 5.5's
 * mlx5e_skb_from_cqe_linear and page_pool_put_page, the page goes back to
 * the page allocator, never to the pool).
 */
#ifndef PPSIM_TCP_H
#define PPSIM_TCP_H

#include "../kernel/mm.h"
#include "../mem/mem.h"

/* what a packet carries besides payload: Ethernet 14 + IPv4 20 + TCP 20 +
 * timestamps 12 bytes (pkt_size is the frame without its FCS) */
#define TCP_HEADERS	66

/* The [cost] keys of the stack, in cycles. */
struct tcp_config {
	double c_stack;		/* skb, GRO, IP and TCP receive per packet */
	double c_recv;		/* recvmsg per packet, skb free included */
	double c_copy;		/* copy to the reader per 64-byte line */
};

struct tcp;

/*
 * A socket fed by one rx queue, holding at most entries packets of
 * pkt_size bytes (pkt_size > TCP_HEADERS), and its reader's buffer, laid
 * out on node.  Returns NULL when memory runs out.
 */
struct tcp *tcp_open(const struct tcp_config *cfg, struct mem *m, int node,
		     int pkt_size, unsigned int entries);
void tcp_free(struct tcp *s);

/* Queues one packet, whose first line is line, on the socket: the skb
 * already holds its page reference.  (The stack's receive work, c_stack,
 * is charged by the driver with its own rx work, where it builds the
 * skb.) */
void tcp_receive(struct tcp *s, struct page *page, uint32_t line);

/* The reader drains the socket: copies every payload and frees each skb.
 * Returns the payload bytes it copied. */
uint64_t tcp_read(struct tcp *s, struct mem_work *w);

/* Packets waiting in the socket: their pages are out of every pool. */
unsigned int tcp_queued(const struct tcp *s);

#endif
