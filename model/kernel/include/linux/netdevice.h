/* ppsim shim: what page_pool.c and net/core/dev.h read of a NAPI instance
 * and a net_device.  struct napi_struct is the model's (model/kernel). */
#ifndef PPSIM_SHIM_LINUX_NETDEVICE_H
#define PPSIM_SHIM_LINUX_NETDEVICE_H
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/bitops.h>
enum { NAPI_STATE_SCHED };
#define GSO_LEGACY_MAX_SIZE	65536u
#define GRO_LEGACY_MAX_SIZE	65536u
/* page_pool_release_retry() compares slow.netdev with it */
#define NET_PTR_POISON		((void *)0x801)
/* what net/core/dev.h names in its declarations */
struct netdev_phys_item_id;
struct netdev_bpf;
struct nlmsghdr;
struct softnet_data;
struct kernel_hwtstamp_config;
struct net_device {
	unsigned int gso_max_size, gso_ipv4_max_size, gso_max_segs;
	unsigned int gro_max_size, gro_ipv4_max_size;
};
#endif
