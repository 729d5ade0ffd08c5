/* ppsim shim: an rx queue's memory provider, which only a pool created
 * with PP_FLAG_ALLOW_UNREADABLE_NETMEM looks up: the model's never are
 * (a kernel without CONFIG_NET_DEVMEM). */
#ifndef PPSIM_SHIM_NET_NETDEV_RX_QUEUE_H
#define PPSIM_SHIM_NET_NETDEV_RX_QUEUE_H
#include <linux/netdevice.h>
struct memory_provider_ops;
struct netdev_rx_queue {
	struct {
		void *mp_priv;
		const struct memory_provider_ops *mp_ops;
	} mp_params;
};
static inline struct netdev_rx_queue *
__netif_get_rx_queue(struct net_device *dev, unsigned int rxq)
{
	(void)dev; (void)rxq;
	kernel_bug(__FILE__, __LINE__, "no memory providers in the model");
}
#define ASSERT_RTNL()	do { } while (0)
#endif
