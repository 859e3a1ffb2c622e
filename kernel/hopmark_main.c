// SPDX-License-Identifier: GPL-2.0-only
/*
 * hopmark_main.c - module init/exit and per-network-namespace state
 *
 * Every network namespace gets a struct hopmark_net (pernet operations):
 * node IDs, IOAM-Namespaces (RFC 9197 §4.3), per-interface configuration,
 * export settings and counters. A netdevice notifier drops an interface's
 * configuration when the device is unregistered, so a later device that
 * reuses the ifindex starts unconfigured.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "hopmark.h"

unsigned int hm_net_id __read_mostly;

/**
 * hm_net_init() - set up a network namespace's hopmark state
 * @net: the new network namespace
 *
 * Defaults: no node IDs (written as unavailable), no namespace, no
 * interface, HOPMARK_RATE_DEFAULT events/s, HOPMARK_BATCH_DEFAULT records
 * per message, HOPMARK_FLUSH_MS_DEFAULT ms.
 *
 * Return: 0, or -ENOMEM.
 */
static int __net_init hm_net_init(struct net *net)
{
	struct hopmark_net *hn = hm_pernet(net);

	hn->stats = alloc_percpu(struct hm_counters);
	if (!hn->stats)
		return -ENOMEM;
	hn->net = net;
	mutex_init(&hn->lock);
	xa_init(&hn->namespaces);
	xa_init(&hn->ifaces);
	hm_ratelimit_init(&hn->rl_default, HOPMARK_RATE_DEFAULT);
	hn->batch_size = HOPMARK_BATCH_DEFAULT;
	hn->flush_ms = HOPMARK_FLUSH_MS_DEFAULT;
	hn->export_fields = HOPMARK_EXPORT_F_ALL;
	hm_events_net_init(hn);
	return 0;
}

/**
 * hm_net_exit() - free a network namespace's hopmark state
 * @net: the network namespace going away
 *
 * Runs after the datapath's hooks for @net are gone (the datapath's pernet
 * operations are registered after ours, so they exit first). Pending
 * records are dropped: nobody can listen in a dying namespace.
 */
static void __net_exit hm_net_exit(struct net *net)
{
	struct hopmark_net *hn = hm_pernet(net);

	hm_events_net_exit(hn);
	mutex_lock(&hn->lock);
	hm_net_free_config(hn);
	mutex_unlock(&hn->lock);
	/* No reader of hn->stats is left: the datapath's hooks for @net were
	 * unregistered (synchronize_net()) before this runs. Interfaces and
	 * namespaces go through call_rcu(); hopmark_exit() waits for those.
	 */
	free_percpu(hn->stats);
}

static struct pernet_operations hm_net_ops = {
	.init	= hm_net_init,
	.exit	= hm_net_exit,
	.id	= &hm_net_id,
	.size	= sizeof(struct hopmark_net),
};

/**
 * hm_netdev_event() - forget an interface's configuration when it goes away
 * @nb: our notifier block
 * @event: NETDEV_* event
 * @ptr: struct netdev_notifier_info
 *
 * NETDEV_UNREGISTER also runs when a device moves to another network
 * namespace: its configuration stays behind in neither.
 *
 * Return: NOTIFY_DONE.
 */
static int hm_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	if (event == NETDEV_UNREGISTER)
		hm_if_remove(hm_pernet(dev_net(dev)), dev->ifindex);
	return NOTIFY_DONE;
}

static struct notifier_block hm_netdev_nb = {
	.notifier_call = hm_netdev_event,
};

/**
 * hopmark_init() - load the module
 *
 * Registers, in this order, the per-netns state, the genetlink family, the
 * netdevice notifier, then the datapath (which needs all three).
 *
 * Return: 0 or a negative errno from the failing registration.
 */
static int __init hopmark_init(void)
{
	int err;

	err = register_pernet_subsys(&hm_net_ops);
	if (err)
		return err;
	err = hm_genl_init();
	if (err)
		goto err_pernet;
	err = register_netdevice_notifier(&hm_netdev_nb);
	if (err)
		goto err_genl;
	err = hm_datapath_init();
	if (err)
		goto err_notifier;
	pr_info("hopmark: loaded, generic netlink family \"%s\" version %u\n",
		HOPMARK_GENL_NAME, HOPMARK_GENL_VERSION);
	return 0;

err_notifier:
	unregister_netdevice_notifier(&hm_netdev_nb);
err_genl:
	hm_genl_exit();
err_pernet:
	unregister_pernet_subsys(&hm_net_ops);
	return err;
}

/**
 * hopmark_exit() - unload the module, in the reverse order of hopmark_init()
 */
static void __exit hopmark_exit(void)
{
	hm_datapath_exit();
	unregister_netdevice_notifier(&hm_netdev_nb);
	/* No record can be queued any more; stop the flush timers before the
	 * family (and its "events" group) goes away.
	 */
	hm_events_stop_all();
	hm_genl_exit();
	unregister_pernet_subsys(&hm_net_ops);
	/* call_rcu() callbacks of freed interfaces and namespaces run module
	 * code: wait for them.
	 */
	rcu_barrier();
}

module_init(hopmark_init);
module_exit(hopmark_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("hopmark: IPv6 Hop-by-Hop telemetry (IOAM incremental trace, E2E, DEX, SRH O-flag)");
MODULE_ALIAS_GENL_FAMILY(HOPMARK_GENL_NAME);
