// SPDX-License-Identifier: GPL-2.0-only
/*
 * hopmark_genl.c - the "hopmark" generic netlink family
 *
 * Configuration of the per-netns state (hopmark.h) and counters, as laid out
 * in lib/common/hopmark_genl.h. Every command has its own strict attribute policy,
 * so malformed, out-of-range or misplaced attributes are rejected by the
 * netlink core before a handler runs (the extended ACK points at the
 * attribute). Changes need CAP_NET_ADMIN in the user namespace owning the
 * network namespace (GENL_UNS_ADMIN_PERM) and are announced on the "config"
 * multicast group. Handlers run in parallel (parallel_ops); hopmark_net.lock
 * serialises changes, readers use RCU.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "ioam/ioam6.h"

#include "hopmark.h"

/* A required attribute is missing: say which, in text and in the ACK. */
#define HM_REQUIRE(info, attr) ({					\
	bool __missing = !(info)->attrs[attr];				\
									\
	if (__missing) {						\
		NL_SET_ERR_MSG((info)->extack, "missing " #attr);	\
		NL_SET_ERR_ATTR_MISS((info)->extack, NULL, attr);	\
	}								\
	__missing;							\
})

static struct netlink_range_validation hm_range_node_id = {
	.max = HOPMARK_NODE_ID_MAX,
};

static struct netlink_range_validation hm_range_node_id_wide = {
	.max = HOPMARK_NODE_ID_WIDE_MAX,
};

static struct netlink_range_validation hm_range_ifindex = {
	.min = 1,
	.max = INT_MAX,
};

static struct netlink_range_validation hm_range_trace_type = {
	.max = HOPMARK_TRACE_TYPE_MAX,
};

static struct netlink_range_validation hm_range_rate = {
	.max = HOPMARK_RATE_MAX,
};

static struct netlink_range_validation hm_range_batch = {
	.min = 1,
	.max = HOPMARK_BATCH_MAX,
};

static struct netlink_range_validation hm_range_flush = {
	.min = 1,
	.max = HOPMARK_FLUSH_MS_MAX,
};

/* Commands without attributes: every attribute is rejected (NLA_UNSPEC). */
static const struct nla_policy hm_policy_none[HOPMARK_ATTR_MAX + 1] = {
};

static const struct nla_policy hm_policy_node[HOPMARK_ATTR_MAX + 1] = {
	[HOPMARK_ATTR_NODE_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &hm_range_node_id),
	[HOPMARK_ATTR_NODE_ID_WIDE] =
		NLA_POLICY_FULL_RANGE(NLA_U64, &hm_range_node_id_wide),
};

static const struct nla_policy hm_policy_ns[HOPMARK_ATTR_MAX + 1] = {
	[HOPMARK_ATTR_NS_ID] = { .type = NLA_U16 },
	[HOPMARK_ATTR_NS_DATA] = { .type = NLA_U32 },
	[HOPMARK_ATTR_NS_DATA_WIDE] = { .type = NLA_U64 },
	[HOPMARK_ATTR_RATE_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32, &hm_range_rate),
};

static const struct nla_policy hm_policy_ns_id[HOPMARK_ATTR_MAX + 1] = {
	[HOPMARK_ATTR_NS_ID] = { .type = NLA_U16 },
};

static const struct nla_policy hm_policy_if[HOPMARK_ATTR_MAX + 1] = {
	[HOPMARK_ATTR_IFINDEX] = NLA_POLICY_FULL_RANGE(NLA_U32, &hm_range_ifindex),
	[HOPMARK_ATTR_IF_ID] = { .type = NLA_U16 },
	[HOPMARK_ATTR_IF_ID_WIDE] = { .type = NLA_U32 },
	[HOPMARK_ATTR_IF_FEATURES] = NLA_POLICY_BITFIELD32(HOPMARK_IF_F_ALL),
	[HOPMARK_ATTR_IF_ENCAP_NS] = { .type = NLA_U16 },
	[HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &hm_range_trace_type),
	[HOPMARK_ATTR_IF_ENCAP_REMLEN] = NLA_POLICY_MAX(NLA_U8, HOPMARK_REMLEN_MAX),
	[HOPMARK_ATTR_IF_ENCAP_E2E_TYPE] =
		NLA_POLICY_MASK(NLA_U16, HOPMARK_E2E_TYPE_MASK),
};

static const struct nla_policy hm_policy_ifindex[HOPMARK_ATTR_MAX + 1] = {
	[HOPMARK_ATTR_IFINDEX] = NLA_POLICY_FULL_RANGE(NLA_U32, &hm_range_ifindex),
};

static const struct nla_policy hm_policy_export[HOPMARK_ATTR_MAX + 1] = {
	[HOPMARK_ATTR_RATE_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32, &hm_range_rate),
	[HOPMARK_ATTR_BATCH_SIZE] = NLA_POLICY_FULL_RANGE(NLA_U32, &hm_range_batch),
	[HOPMARK_ATTR_FLUSH_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hm_range_flush),
	[HOPMARK_ATTR_EXPORT_FIELDS] = NLA_POLICY_MASK(NLA_U32, HOPMARK_EXPORT_F_ALL),
};

/**
 * hm_net_of() - hopmark state of the request's network namespace
 * @info: the request
 *
 * Return: the struct hopmark_net of the sending socket's netns.
 */
static struct hopmark_net *hm_net_of(struct genl_info *info)
{
	return hm_pernet(genl_info_net(info));
}

/**
 * hm_notify() - announce a change on the "config" group
 * @info: the request that made it (its sender also gets it with NLM_F_ECHO)
 * @skb: a finished message (consumed)
 */
static void hm_notify(struct genl_info *info, struct sk_buff *skb)
{
	genl_notify(&hm_genl_family, skb, info, HM_MCGRP_CONFIG, GFP_KERNEL);
}

/**
 * hm_put_counters() - add a HOPMARK_ATTR_COUNTERS nest summed over CPUs
 * @skb: message
 * @pc: per-CPU counters
 *
 * Return: 0 or -EMSGSIZE.
 */
static int hm_put_counters(struct sk_buff *skb, struct hm_counters __percpu *pc)
{
	u64 sum[__HOPMARK_CNT_MAX] = {};
	struct nlattr *nest;
	int cpu, i;

	for_each_possible_cpu(cpu) {
		const struct hm_counters *c = per_cpu_ptr(pc, cpu);

		for (i = HOPMARK_CNT_PAD + 1; i <= HOPMARK_CNT_MAX; i++)
			sum[i] += READ_ONCE(c->cnt[i]);
	}
	nest = nla_nest_start(skb, HOPMARK_ATTR_COUNTERS);
	if (!nest)
		return -EMSGSIZE;
	for (i = HOPMARK_CNT_PAD + 1; i <= HOPMARK_CNT_MAX; i++)
		if (nla_put_u64_64bit(skb, i, sum[i], HOPMARK_CNT_PAD))
			goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/**
 * hm_counters_zero() - zero per-CPU counters
 * @pc: per-CPU counters
 */
static void hm_counters_zero(struct hm_counters __percpu *pc)
{
	int cpu, i;

	for_each_possible_cpu(cpu) {
		struct hm_counters *c = per_cpu_ptr(pc, cpu);

		for (i = 0; i <= HOPMARK_CNT_MAX; i++)
			WRITE_ONCE(c->cnt[i], 0);
	}
}

/* ---- node ---- */

/**
 * hm_fill_node() - node IDs as a message
 * @skb: message
 * @hn: per-netns state
 * @portid: destination port (0: multicast)
 * @seq: sequence number of the request
 * @flags: netlink flags
 * @cmd: HOPMARK_CMD_NODE_GET or _SET (notification)
 *
 * Return: 0 or -EMSGSIZE.
 */
static int hm_fill_node(struct sk_buff *skb, struct hopmark_net *hn, u32 portid,
			u32 seq, int flags, u8 cmd)
{
	void *hdr = genlmsg_put(skb, portid, seq, &hm_genl_family, flags, cmd);

	if (!hdr)
		return -EMSGSIZE;
	if ((READ_ONCE(hn->has_node_id) &&
	     nla_put_u32(skb, HOPMARK_ATTR_NODE_ID, READ_ONCE(hn->node_id))) ||
	    (READ_ONCE(hn->has_node_id_wide) &&
	     nla_put_u64_64bit(skb, HOPMARK_ATTR_NODE_ID_WIDE,
			       READ_ONCE(hn->node_id_wide), HOPMARK_ATTR_PAD))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * hm_reply() - build and send a reply with a fill function's output
 * @info: the request
 * @skb: an allocated message, consumed
 * @err: the fill function's result
 *
 * Return: 0 or a negative errno.
 */
static int hm_reply(struct genl_info *info, struct sk_buff *skb, int err)
{
	if (err) {
		nlmsg_free(skb);
		return err;
	}
	return genlmsg_reply(skb, info);
}

/**
 * hm_node_set() - HOPMARK_CMD_NODE_SET: set this node's IDs (RFC 9197 §4.4.2.1, §4.4.2.9)
 * @skb: request
 * @info: parsed request
 *
 * Return: 0, -EINVAL without any ID attribute, -ENOMEM.
 */
static int hm_node_set(struct sk_buff *skb, struct genl_info *info)
{
	struct hopmark_net *hn = hm_net_of(info);
	struct sk_buff *msg;

	if (!info->attrs[HOPMARK_ATTR_NODE_ID] &&
	    !info->attrs[HOPMARK_ATTR_NODE_ID_WIDE]) {
		GENL_SET_ERR_MSG(info, "missing HOPMARK_ATTR_NODE_ID or HOPMARK_ATTR_NODE_ID_WIDE");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, HOPMARK_ATTR_NODE_ID);
		return -EINVAL;
	}
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	mutex_lock(&hn->lock);
	if (info->attrs[HOPMARK_ATTR_NODE_ID]) {
		WRITE_ONCE(hn->node_id,
			   nla_get_u32(info->attrs[HOPMARK_ATTR_NODE_ID]));
		smp_wmb(); /* the ID before the flag that makes it valid */
		WRITE_ONCE(hn->has_node_id, true);
	}
	if (info->attrs[HOPMARK_ATTR_NODE_ID_WIDE]) {
		WRITE_ONCE(hn->node_id_wide,
			   nla_get_u64(info->attrs[HOPMARK_ATTR_NODE_ID_WIDE]));
		smp_wmb();
		WRITE_ONCE(hn->has_node_id_wide, true);
	}
	if (hm_fill_node(msg, hn, 0, 0, 0, HOPMARK_CMD_NODE_SET))
		nlmsg_free(msg);
	else
		hm_notify(info, msg);
	mutex_unlock(&hn->lock);
	return 0;
}

/**
 * hm_node_get() - HOPMARK_CMD_NODE_GET: reply with the node IDs
 * @skb: request
 * @info: parsed request
 *
 * Return: 0 or -ENOMEM.
 */
static int hm_node_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);

	if (!msg)
		return -ENOMEM;
	return hm_reply(info, msg,
			hm_fill_node(msg, hm_net_of(info), info->snd_portid,
				     info->snd_seq, 0, HOPMARK_CMD_NODE_GET));
}

/* ---- IOAM-Namespaces ---- */

/**
 * hm_fill_ns() - one IOAM-Namespace as a message
 * @skb: message
 * @ns: the namespace
 * @portid: destination port (0: multicast)
 * @seq: sequence number of the request
 * @flags: netlink flags (NLM_F_MULTI in dumps)
 * @cmd: command of the message
 *
 * Return: 0 or -EMSGSIZE.
 */
static int hm_fill_ns(struct sk_buff *skb, struct hm_ns *ns, u32 portid,
		      u32 seq, int flags, u8 cmd)
{
	void *hdr = genlmsg_put(skb, portid, seq, &hm_genl_family, flags, cmd);
	struct nlattr *nest;

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u16(skb, HOPMARK_ATTR_NS_ID, ns->id) ||
	    (READ_ONCE(ns->has_data) &&
	     nla_put_u32(skb, HOPMARK_ATTR_NS_DATA, READ_ONCE(ns->data))) ||
	    (READ_ONCE(ns->has_data_wide) &&
	     nla_put_u64_64bit(skb, HOPMARK_ATTR_NS_DATA_WIDE,
			       READ_ONCE(ns->data_wide), HOPMARK_ATTR_PAD)) ||
	    nla_put_u32(skb, HOPMARK_ATTR_RATE_LIMIT, READ_ONCE(ns->rl.rate)))
		goto cancel;
	nest = nla_nest_start(skb, HOPMARK_ATTR_COUNTERS);
	if (!nest)
		goto cancel;
	if (nla_put_u64_64bit(skb, HOPMARK_CNT_EV_QUEUED,
			      atomic64_read(&ns->ev_queued), HOPMARK_CNT_PAD) ||
	    nla_put_u64_64bit(skb, HOPMARK_CNT_EV_RATE_LIMITED,
			      atomic64_read(&ns->ev_rate_limited),
			      HOPMARK_CNT_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/**
 * hm_ns_apply() - apply NS_DATA, NS_DATA_WIDE and RATE_LIMIT of a request
 * @ns: the namespace
 * @info: parsed request
 */
static void hm_ns_apply(struct hm_ns *ns, struct genl_info *info)
{
	if (info->attrs[HOPMARK_ATTR_NS_DATA]) {
		WRITE_ONCE(ns->data, nla_get_u32(info->attrs[HOPMARK_ATTR_NS_DATA]));
		smp_wmb();
		WRITE_ONCE(ns->has_data, true);
	}
	if (info->attrs[HOPMARK_ATTR_NS_DATA_WIDE]) {
		WRITE_ONCE(ns->data_wide,
			   nla_get_u64(info->attrs[HOPMARK_ATTR_NS_DATA_WIDE]));
		smp_wmb();
		WRITE_ONCE(ns->has_data_wide, true);
	}
	if (info->attrs[HOPMARK_ATTR_RATE_LIMIT])
		hm_ratelimit_set(&ns->rl,
				 nla_get_u32(info->attrs[HOPMARK_ATTR_RATE_LIMIT]));
}

/**
 * hm_ns_notify() - announce a namespace's state on "config"
 * @info: the request
 * @ns: the namespace
 * @cmd: NS_ADD, NS_DEL or NS_SET
 */
static void hm_ns_notify(struct genl_info *info, struct hm_ns *ns, u8 cmd)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);

	if (!msg)
		return;
	if (hm_fill_ns(msg, ns, 0, 0, 0, cmd))
		nlmsg_free(msg);
	else
		hm_notify(info, msg);
}

/**
 * hm_ns_add() - HOPMARK_CMD_NS_ADD: configure an IOAM-Namespace (RFC 9197 §4.3)
 * @skb: request
 * @info: parsed request
 *
 * Return: 0, -EINVAL (no NS_ID), -EEXIST, -ENOMEM.
 */
static int hm_ns_add(struct sk_buff *skb, struct genl_info *info)
{
	struct hopmark_net *hn = hm_net_of(info);
	struct hm_ns *ns;
	int err;

	if (HM_REQUIRE(info, HOPMARK_ATTR_NS_ID))
		return -EINVAL;
	ns = kzalloc(sizeof(*ns), GFP_KERNEL);
	if (!ns)
		return -ENOMEM;
	ns->id = nla_get_u16(info->attrs[HOPMARK_ATTR_NS_ID]);
	atomic64_set(&ns->ev_queued, 0);
	atomic64_set(&ns->ev_rate_limited, 0);

	mutex_lock(&hn->lock);
	hm_ratelimit_init(&ns->rl, READ_ONCE(hn->rl_default.rate));
	hm_ns_apply(ns, info);
	err = xa_insert(&hn->namespaces, ns->id, ns, GFP_KERNEL);
	if (err) {
		mutex_unlock(&hn->lock);
		kfree(ns);
		if (err == -EBUSY) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[HOPMARK_ATTR_NS_ID],
					    "HOPMARK_ATTR_NS_ID: IOAM-Namespace already configured");
			return -EEXIST;
		}
		return err;
	}
	hm_ns_notify(info, ns, HOPMARK_CMD_NS_ADD);
	mutex_unlock(&hn->lock);
	return 0;
}

/**
 * hm_ns_del() - HOPMARK_CMD_NS_DEL: forget an IOAM-Namespace
 * @skb: request
 * @info: parsed request
 *
 * The datapath stops processing options of the namespace (they are then
 * left untouched and counted HOPMARK_CNT_UNKNOWN_NS).
 *
 * Return: 0, -EINVAL (no NS_ID), -ENOENT.
 */
static int hm_ns_del(struct sk_buff *skb, struct genl_info *info)
{
	struct hopmark_net *hn = hm_net_of(info);
	struct hm_ns *ns;

	if (HM_REQUIRE(info, HOPMARK_ATTR_NS_ID))
		return -EINVAL;
	mutex_lock(&hn->lock);
	ns = xa_erase(&hn->namespaces,
		      nla_get_u16(info->attrs[HOPMARK_ATTR_NS_ID]));
	if (!ns) {
		mutex_unlock(&hn->lock);
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HOPMARK_ATTR_NS_ID],
				    "HOPMARK_ATTR_NS_ID: no such IOAM-Namespace");
		return -ENOENT;
	}
	hm_ns_notify(info, ns, HOPMARK_CMD_NS_DEL);
	mutex_unlock(&hn->lock);
	kfree_rcu(ns, rcu);
	return 0;
}

/**
 * hm_ns_set() - HOPMARK_CMD_NS_SET: change a namespace's data or rate limit
 * @skb: request
 * @info: parsed request
 *
 * Return: 0, -EINVAL (no NS_ID), -ENOENT.
 */
static int hm_ns_set(struct sk_buff *skb, struct genl_info *info)
{
	struct hopmark_net *hn = hm_net_of(info);
	struct hm_ns *ns;

	if (HM_REQUIRE(info, HOPMARK_ATTR_NS_ID))
		return -EINVAL;
	mutex_lock(&hn->lock);
	ns = xa_load(&hn->namespaces,
		     nla_get_u16(info->attrs[HOPMARK_ATTR_NS_ID]));
	if (!ns) {
		mutex_unlock(&hn->lock);
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HOPMARK_ATTR_NS_ID],
				    "HOPMARK_ATTR_NS_ID: no such IOAM-Namespace");
		return -ENOENT;
	}
	hm_ns_apply(ns, info);
	hm_ns_notify(info, ns, HOPMARK_CMD_NS_SET);
	mutex_unlock(&hn->lock);
	return 0;
}

/**
 * hm_ns_get() - HOPMARK_CMD_NS_GET (doit): one namespace
 * @skb: request
 * @info: parsed request
 *
 * Return: 0, -EINVAL (no NS_ID), -ENOENT, -ENOMEM.
 */
static int hm_ns_get(struct sk_buff *skb, struct genl_info *info)
{
	struct hopmark_net *hn = hm_net_of(info);
	struct sk_buff *msg;
	struct hm_ns *ns;
	int err;

	if (HM_REQUIRE(info, HOPMARK_ATTR_NS_ID))
		return -EINVAL;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rcu_read_lock();
	ns = hm_ns_lookup_rcu(hn, nla_get_u16(info->attrs[HOPMARK_ATTR_NS_ID]));
	if (!ns) {
		rcu_read_unlock();
		nlmsg_free(msg);
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HOPMARK_ATTR_NS_ID],
				    "HOPMARK_ATTR_NS_ID: no such IOAM-Namespace");
		return -ENOENT;
	}
	err = hm_fill_ns(msg, ns, info->snd_portid, info->snd_seq, 0,
			 HOPMARK_CMD_NS_GET);
	rcu_read_unlock();
	return hm_reply(info, msg, err);
}

/**
 * hm_ns_dump() - HOPMARK_CMD_NS_GET (dump): every namespace, by ID
 * @skb: message to fill
 * @cb: dump state; args[0] = next namespace ID to send
 *
 * Return: bytes in @skb (0 when done).
 */
static int hm_ns_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct hopmark_net *hn = hm_pernet(sock_net(skb->sk));
	unsigned long idx;
	struct hm_ns *ns;

	rcu_read_lock();
	xa_for_each_start(&hn->namespaces, idx, ns, cb->args[0]) {
		if (hm_fill_ns(skb, ns, NETLINK_CB(cb->skb).portid,
			       cb->nlh->nlmsg_seq, NLM_F_MULTI,
			       HOPMARK_CMD_NS_GET))
			break;
		cb->args[0] = idx + 1;
	}
	rcu_read_unlock();
	return skb->len;
}

/* ---- interfaces ---- */

/**
 * hm_if_free_rcu() - RCU callback freeing an interface's configuration
 * @head: hm_if.rcu
 */
static void hm_if_free_rcu(struct rcu_head *head)
{
	struct hm_if *hif = container_of(head, struct hm_if, rcu);

	free_percpu(hif->stats);
	kfree(hif);
}

/**
 * hm_if_free() - free an interface's configuration after a grace period
 * @hif: configuration already removed from hopmark_net.ifaces
 */
void hm_if_free(struct hm_if *hif)
{
	call_rcu(&hif->rcu, hm_if_free_rcu);
}

/**
 * hm_if_remove() - drop an interface's configuration (device unregistered)
 * @hn: per-netns state
 * @ifindex: the device
 *
 * Context: process, RTNL held (netdevice notifier).
 */
void hm_if_remove(struct hopmark_net *hn, int ifindex)
{
	struct hm_if *hif;

	mutex_lock(&hn->lock);
	hif = xa_erase(&hn->ifaces, ifindex);
	mutex_unlock(&hn->lock);
	if (hif)
		hm_if_free(hif);
}

/**
 * hm_net_free_config() - free every namespace and interface of a netns
 * @hn: per-netns state
 *
 * Context: hopmark_net.lock held; netns exit.
 */
void hm_net_free_config(struct hopmark_net *hn)
{
	unsigned long idx;
	struct hm_ns *ns;
	struct hm_if *hif;

	xa_for_each(&hn->namespaces, idx, ns) {
		xa_erase(&hn->namespaces, idx);
		kfree_rcu(ns, rcu);
	}
	xa_for_each(&hn->ifaces, idx, hif) {
		xa_erase(&hn->ifaces, idx);
		hm_if_free(hif);
	}
	xa_destroy(&hn->namespaces);
	xa_destroy(&hn->ifaces);
}

/**
 * hm_fill_if() - one interface's configuration as a message
 * @skb: message
 * @hn: per-netns state
 * @hif: the interface
 * @portid: destination port (0: multicast)
 * @seq: sequence number of the request
 * @flags: netlink flags
 * @cmd: command of the message
 *
 * Context: rcu_read_lock() or hopmark_net.lock held.
 * Return: 0 or -EMSGSIZE.
 */
static int hm_fill_if(struct sk_buff *skb, struct hopmark_net *hn,
		      struct hm_if *hif, u32 portid, u32 seq, int flags, u8 cmd)
{
	void *hdr = genlmsg_put(skb, portid, seq, &hm_genl_family, flags, cmd);
	struct nla_bitfield32 bf;
	struct net_device *dev;
	int err = 0;

	if (!hdr)
		return -EMSGSIZE;
	bf.value = READ_ONCE(hif->features);
	bf.selector = HOPMARK_IF_F_ALL;
	rcu_read_lock();
	dev = dev_get_by_index_rcu(hn->net, hif->ifindex);
	if (dev && nla_put_string(skb, HOPMARK_ATTR_IFNAME, dev->name))
		err = -EMSGSIZE;
	rcu_read_unlock();
	if (err ||
	    nla_put_u32(skb, HOPMARK_ATTR_IFINDEX, hif->ifindex) ||
	    nla_put_u16(skb, HOPMARK_ATTR_IF_ID, READ_ONCE(hif->if_id)) ||
	    nla_put_u32(skb, HOPMARK_ATTR_IF_ID_WIDE, READ_ONCE(hif->if_id_wide)) ||
	    nla_put(skb, HOPMARK_ATTR_IF_FEATURES, sizeof(bf), &bf) ||
	    nla_put_u16(skb, HOPMARK_ATTR_IF_ENCAP_NS, READ_ONCE(hif->encap_ns)) ||
	    nla_put_u32(skb, HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE,
			READ_ONCE(hif->encap_trace_type)) ||
	    nla_put_u8(skb, HOPMARK_ATTR_IF_ENCAP_REMLEN,
		       READ_ONCE(hif->encap_remlen)) ||
	    nla_put_u16(skb, HOPMARK_ATTR_IF_ENCAP_E2E_TYPE,
			READ_ONCE(hif->encap_e2e_type))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * What hm_encap_trace_type_ok() says about a refused bit. Extended ACK
 * messages are static strings on 6.1 (NL_SET_ERR_MSG_FMT came with 6.2),
 * so there is one per bit.
 */
#define HM_TT_REFUSED(n, value, what)					\
	"HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE: bit " #n " (" #value ") is "	\
	what ": an encapsulating node must send bits 12-21 and 23 "	\
	"(mask 0x000ffd) as 0 (RFC 9197 Section 4.4.1)"

/**
 * hm_encap_trace_type_ok() - check the Trace-Type an interface will send
 * @info: the HOPMARK_CMD_IF_SET request
 *
 * The policy bounds HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE to 24 bits; RFC 9197
 * §4.4.1 further says an encapsulating node MUST set each undefined bit
 * (12-21) to 0 and the reserved bit 23 to 0 on transmission. Only the bits
 * of %HM_IOAM_TT_ENCAP_MASK are accepted, the same rule as the CLI's.
 *
 * Return: true when absent or acceptable; false with an extended ACK that
 * points at the attribute and names its first refused bit.
 */
static bool hm_encap_trace_type_ok(struct genl_info *info)
{
	const struct nlattr *a = info->attrs[HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE];
	u32 refused;

	BUILD_BUG_ON((HM_IOAM_TT_MASK & ~HM_IOAM_TT_ENCAP_MASK) != 0x000ffd);
	if (!a)
		return true;
	refused = nla_get_u32(a) & HM_IOAM_TT_MASK & ~HM_IOAM_TT_ENCAP_MASK;
	if (!refused)
		return true;
	/* Bit n is 1 << (23 - n): the first (lowest-numbered) is the highest. */
	switch (24 - fls(refused)) {
	case 12:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(12, 0x000800, "undefined"));
		break;
	case 13:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(13, 0x000400, "undefined"));
		break;
	case 14:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(14, 0x000200, "undefined"));
		break;
	case 15:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(15, 0x000100, "undefined"));
		break;
	case 16:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(16, 0x000080, "undefined"));
		break;
	case 17:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(17, 0x000040, "undefined"));
		break;
	case 18:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(18, 0x000020, "undefined"));
		break;
	case 19:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(19, 0x000010, "undefined"));
		break;
	case 20:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(20, 0x000008, "undefined"));
		break;
	case 21:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(21, 0x000004, "undefined"));
		break;
	default:
	case 23:
		NL_SET_ERR_MSG_ATTR(info->extack, a, HM_TT_REFUSED(23, 0x000001, "reserved"));
		break;
	}
	return false;
}

/**
 * hm_if_set() - HOPMARK_CMD_IF_SET: configure an interface
 * @skb: request
 * @info: parsed request
 *
 * Creates the configuration on first use (IDs unavailable: 0xffff and
 * 0xffffffff, every feature off), then applies the attributes given.
 * HOPMARK_ATTR_IF_FEATURES changes only the bits of its selector. A
 * request with a Trace-Type an encapsulating node must not send changes
 * nothing (hm_encap_trace_type_ok()).
 *
 * Return: 0, -EINVAL (no IFINDEX, or a refused Trace-Type bit), -ENODEV (no
 * such device in this netns), -ENOMEM.
 */
static int hm_if_set(struct sk_buff *skb, struct genl_info *info)
{
	struct hopmark_net *hn = hm_net_of(info);
	struct nlattr **a = info->attrs;
	struct hm_if *hif, *fresh = NULL;
	struct sk_buff *msg;
	int ifindex, err = 0;

	if (HM_REQUIRE(info, HOPMARK_ATTR_IFINDEX))
		return -EINVAL;
	if (!hm_encap_trace_type_ok(info))
		return -EINVAL;
	ifindex = nla_get_u32(a[HOPMARK_ATTR_IFINDEX]);

	/* RTNL orders us with the netdevice notifier: the device cannot be
	 * unregistered between the check and the insertion.
	 */
	rtnl_lock();
	if (!__dev_get_by_index(hn->net, ifindex)) {
		rtnl_unlock();
		NL_SET_ERR_MSG_ATTR(info->extack, a[HOPMARK_ATTR_IFINDEX],
				    "HOPMARK_ATTR_IFINDEX: no such device in this network namespace");
		return -ENODEV;
	}
	mutex_lock(&hn->lock);
	hif = xa_load(&hn->ifaces, ifindex);
	if (!hif) {
		fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
		if (!fresh) {
			err = -ENOMEM;
			goto out;
		}
		fresh->stats = alloc_percpu(struct hm_counters);
		if (!fresh->stats) {
			kfree(fresh);
			err = -ENOMEM;
			goto out;
		}
		fresh->ifindex = ifindex;
		fresh->if_id = 0xffff;
		fresh->if_id_wide = 0xffffffff;
		hif = fresh;
	}
	if (a[HOPMARK_ATTR_IF_ID])
		WRITE_ONCE(hif->if_id, nla_get_u16(a[HOPMARK_ATTR_IF_ID]));
	if (a[HOPMARK_ATTR_IF_ID_WIDE])
		WRITE_ONCE(hif->if_id_wide, nla_get_u32(a[HOPMARK_ATTR_IF_ID_WIDE]));
	if (a[HOPMARK_ATTR_IF_ENCAP_NS])
		WRITE_ONCE(hif->encap_ns, nla_get_u16(a[HOPMARK_ATTR_IF_ENCAP_NS]));
	if (a[HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE])
		WRITE_ONCE(hif->encap_trace_type,
			   nla_get_u32(a[HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE]));
	if (a[HOPMARK_ATTR_IF_ENCAP_REMLEN])
		WRITE_ONCE(hif->encap_remlen,
			   nla_get_u8(a[HOPMARK_ATTR_IF_ENCAP_REMLEN]));
	if (a[HOPMARK_ATTR_IF_ENCAP_E2E_TYPE])
		WRITE_ONCE(hif->encap_e2e_type,
			   nla_get_u16(a[HOPMARK_ATTR_IF_ENCAP_E2E_TYPE]));
	if (a[HOPMARK_ATTR_IF_FEATURES]) {
		struct nla_bitfield32 bf =
			nla_get_bitfield32(a[HOPMARK_ATTR_IF_FEATURES]);

		/* Parameters are written first: a feature turned on here
		 * sees them in place.
		 */
		smp_wmb();
		WRITE_ONCE(hif->features,
			   (hif->features & ~bf.selector) |
			   (bf.value & bf.selector));
	}
	if (fresh) {
		err = xa_insert(&hn->ifaces, ifindex, fresh, GFP_KERNEL);
		if (err) {
			free_percpu(fresh->stats);
			kfree(fresh);
			goto out;
		}
	}
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (msg) {
		if (hm_fill_if(msg, hn, hif, 0, 0, 0, HOPMARK_CMD_IF_SET))
			nlmsg_free(msg);
		else
			hm_notify(info, msg);
	}
out:
	mutex_unlock(&hn->lock);
	rtnl_unlock();
	return err;
}

/**
 * hm_if_get() - HOPMARK_CMD_IF_GET (doit): one interface
 * @skb: request
 * @info: parsed request
 *
 * Return: 0, -EINVAL (no IFINDEX), -ENOENT (not configured), -ENOMEM.
 */
static int hm_if_get(struct sk_buff *skb, struct genl_info *info)
{
	struct hopmark_net *hn = hm_net_of(info);
	struct sk_buff *msg;
	struct hm_if *hif;
	int err;

	if (HM_REQUIRE(info, HOPMARK_ATTR_IFINDEX))
		return -EINVAL;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rcu_read_lock();
	hif = hm_if_lookup_rcu(hn, nla_get_u32(info->attrs[HOPMARK_ATTR_IFINDEX]));
	if (!hif) {
		rcu_read_unlock();
		nlmsg_free(msg);
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HOPMARK_ATTR_IFINDEX],
				    "HOPMARK_ATTR_IFINDEX: interface not configured");
		return -ENOENT;
	}
	err = hm_fill_if(msg, hn, hif, info->snd_portid, info->snd_seq, 0,
			 HOPMARK_CMD_IF_GET);
	rcu_read_unlock();
	return hm_reply(info, msg, err);
}

/**
 * hm_if_dump() - HOPMARK_CMD_IF_GET (dump): every configured interface
 * @skb: message to fill
 * @cb: dump state; args[0] = next ifindex to send
 *
 * Return: bytes in @skb (0 when done).
 */
static int hm_if_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct hopmark_net *hn = hm_pernet(sock_net(skb->sk));
	unsigned long idx;
	struct hm_if *hif;

	rcu_read_lock();
	xa_for_each_start(&hn->ifaces, idx, hif, cb->args[0]) {
		if (hm_fill_if(skb, hn, hif, NETLINK_CB(cb->skb).portid,
			       cb->nlh->nlmsg_seq, NLM_F_MULTI,
			       HOPMARK_CMD_IF_GET))
			break;
		cb->args[0] = idx + 1;
	}
	rcu_read_unlock();
	return skb->len;
}

/* ---- export settings ---- */

/**
 * hm_fill_export() - export settings as a message
 * @skb: message
 * @hn: per-netns state
 * @portid: destination port (0: multicast)
 * @seq: sequence number of the request
 * @cmd: command of the message
 *
 * Return: 0 or -EMSGSIZE.
 */
static int hm_fill_export(struct sk_buff *skb, struct hopmark_net *hn,
			  u32 portid, u32 seq, u8 cmd)
{
	void *hdr = genlmsg_put(skb, portid, seq, &hm_genl_family, 0, cmd);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HOPMARK_ATTR_RATE_LIMIT,
			READ_ONCE(hn->rl_default.rate)) ||
	    nla_put_u32(skb, HOPMARK_ATTR_BATCH_SIZE, READ_ONCE(hn->batch_size)) ||
	    nla_put_u32(skb, HOPMARK_ATTR_FLUSH_MS, READ_ONCE(hn->flush_ms)) ||
	    nla_put_u32(skb, HOPMARK_ATTR_EXPORT_FIELDS,
			READ_ONCE(hn->export_fields))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * hm_export_set() - HOPMARK_CMD_EXPORT_SET: rate limit default, batching,
 *	exported fields
 * @skb: request
 * @info: parsed request
 *
 * The pending batch is sent first, under the old settings. A new default
 * rate applies to namespaces added later and to events without
 * IOAM-Namespace; existing namespaces keep theirs (NS_SET changes them).
 * EXPORT_FIELDS does not change what the module sends: the agent reads it
 * (dump, then the "config" notification) and leaves the other fields out.
 *
 * Return: 0, -EINVAL without any attribute.
 */
static int hm_export_set(struct sk_buff *skb, struct genl_info *info)
{
	struct hopmark_net *hn = hm_net_of(info);
	struct nlattr **a = info->attrs;
	struct sk_buff *msg;

	if (!a[HOPMARK_ATTR_RATE_LIMIT] && !a[HOPMARK_ATTR_BATCH_SIZE] &&
	    !a[HOPMARK_ATTR_FLUSH_MS] && !a[HOPMARK_ATTR_EXPORT_FIELDS]) {
		GENL_SET_ERR_MSG(info, "missing HOPMARK_ATTR_RATE_LIMIT, HOPMARK_ATTR_BATCH_SIZE, HOPMARK_ATTR_FLUSH_MS or HOPMARK_ATTR_EXPORT_FIELDS");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, HOPMARK_ATTR_RATE_LIMIT);
		return -EINVAL;
	}
	mutex_lock(&hn->lock);
	hm_events_flush(hn);
	if (a[HOPMARK_ATTR_RATE_LIMIT])
		hm_ratelimit_set(&hn->rl_default,
				 nla_get_u32(a[HOPMARK_ATTR_RATE_LIMIT]));
	if (a[HOPMARK_ATTR_BATCH_SIZE])
		WRITE_ONCE(hn->batch_size, nla_get_u32(a[HOPMARK_ATTR_BATCH_SIZE]));
	if (a[HOPMARK_ATTR_FLUSH_MS])
		WRITE_ONCE(hn->flush_ms, nla_get_u32(a[HOPMARK_ATTR_FLUSH_MS]));
	if (a[HOPMARK_ATTR_EXPORT_FIELDS])
		WRITE_ONCE(hn->export_fields,
			   nla_get_u32(a[HOPMARK_ATTR_EXPORT_FIELDS]));
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (msg) {
		if (hm_fill_export(msg, hn, 0, 0, HOPMARK_CMD_EXPORT_SET))
			nlmsg_free(msg);
		else
			hm_notify(info, msg);
	}
	mutex_unlock(&hn->lock);
	return 0;
}

/**
 * hm_export_get() - HOPMARK_CMD_EXPORT_GET
 * @skb: request
 * @info: parsed request
 *
 * Return: 0 or -ENOMEM.
 */
static int hm_export_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);

	if (!msg)
		return -ENOMEM;
	return hm_reply(info, msg,
			hm_fill_export(msg, hm_net_of(info), info->snd_portid,
				       info->snd_seq, HOPMARK_CMD_EXPORT_GET));
}

/* ---- counters ---- */

/**
 * hm_counters_dump() - HOPMARK_CMD_COUNTERS_GET: netns, then per interface
 * @skb: message to fill
 * @cb: dump state; args[0] = netns message sent, args[1] = next ifindex
 *
 * Return: bytes in @skb (0 when done).
 */
static int hm_counters_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct hopmark_net *hn = hm_pernet(sock_net(skb->sk));
	u32 portid = NETLINK_CB(cb->skb).portid;
	u32 seq = cb->nlh->nlmsg_seq;
	unsigned long idx;
	struct hm_if *hif;
	void *hdr;

	if (!cb->args[0]) {
		hdr = genlmsg_put(skb, portid, seq, &hm_genl_family,
				  NLM_F_MULTI, HOPMARK_CMD_COUNTERS_GET);
		if (!hdr)
			return -EMSGSIZE;
		if (hm_put_counters(skb, hn->stats)) {
			genlmsg_cancel(skb, hdr);
			return -EMSGSIZE;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = 1;
	}
	rcu_read_lock();
	xa_for_each_start(&hn->ifaces, idx, hif, cb->args[1]) {
		hdr = genlmsg_put(skb, portid, seq, &hm_genl_family,
				  NLM_F_MULTI, HOPMARK_CMD_COUNTERS_GET);
		if (!hdr)
			break;
		if (nla_put_u32(skb, HOPMARK_ATTR_IFINDEX, hif->ifindex) ||
		    hm_put_counters(skb, hif->stats)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[1] = idx + 1;
	}
	rcu_read_unlock();
	return skb->len;
}

/**
 * hm_counters_reset() - HOPMARK_CMD_COUNTERS_RESET: zero every counter
 * @skb: request
 * @info: parsed request
 *
 * Increments racing with the reset on other CPUs may survive it.
 *
 * Return: 0.
 */
static int hm_counters_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct hopmark_net *hn = hm_net_of(info);
	unsigned long idx;
	struct hm_ns *ns;
	struct hm_if *hif;

	mutex_lock(&hn->lock);
	hm_counters_zero(hn->stats);
	xa_for_each(&hn->ifaces, idx, hif)
		hm_counters_zero(hif->stats);
	xa_for_each(&hn->namespaces, idx, ns) {
		atomic64_set(&ns->ev_queued, 0);
		atomic64_set(&ns->ev_rate_limited, 0);
	}
	mutex_unlock(&hn->lock);
	return 0;
}

#define HM_ADMIN	GENL_UNS_ADMIN_PERM

static const struct genl_ops hm_genl_ops[] = {
	{
		.cmd		= HOPMARK_CMD_NODE_SET,
		.doit		= hm_node_set,
		.policy		= hm_policy_node,
		.maxattr	= HOPMARK_ATTR_MAX,
		.flags		= HM_ADMIN,
	},
	{
		.cmd		= HOPMARK_CMD_NODE_GET,
		.doit		= hm_node_get,
		.policy		= hm_policy_none,
		.maxattr	= HOPMARK_ATTR_MAX,
	},
	{
		.cmd		= HOPMARK_CMD_NS_ADD,
		.doit		= hm_ns_add,
		.policy		= hm_policy_ns,
		.maxattr	= HOPMARK_ATTR_MAX,
		.flags		= HM_ADMIN,
	},
	{
		.cmd		= HOPMARK_CMD_NS_DEL,
		.doit		= hm_ns_del,
		.policy		= hm_policy_ns_id,
		.maxattr	= HOPMARK_ATTR_MAX,
		.flags		= HM_ADMIN,
	},
	{
		.cmd		= HOPMARK_CMD_NS_GET,
		.doit		= hm_ns_get,
		.dumpit		= hm_ns_dump,
		.policy		= hm_policy_ns_id,
		.maxattr	= HOPMARK_ATTR_MAX,
	},
	{
		.cmd		= HOPMARK_CMD_NS_SET,
		.doit		= hm_ns_set,
		.policy		= hm_policy_ns,
		.maxattr	= HOPMARK_ATTR_MAX,
		.flags		= HM_ADMIN,
	},
	{
		.cmd		= HOPMARK_CMD_IF_SET,
		.doit		= hm_if_set,
		.policy		= hm_policy_if,
		.maxattr	= HOPMARK_ATTR_MAX,
		.flags		= HM_ADMIN,
	},
	{
		.cmd		= HOPMARK_CMD_IF_GET,
		.doit		= hm_if_get,
		.dumpit		= hm_if_dump,
		.policy		= hm_policy_ifindex,
		.maxattr	= HOPMARK_ATTR_MAX,
	},
	{
		.cmd		= HOPMARK_CMD_EXPORT_SET,
		.doit		= hm_export_set,
		.policy		= hm_policy_export,
		.maxattr	= HOPMARK_ATTR_MAX,
		.flags		= HM_ADMIN,
	},
	{
		.cmd		= HOPMARK_CMD_EXPORT_GET,
		.doit		= hm_export_get,
		.policy		= hm_policy_none,
		.maxattr	= HOPMARK_ATTR_MAX,
	},
	{
		.cmd		= HOPMARK_CMD_COUNTERS_GET,
		.dumpit		= hm_counters_dump,
		.policy		= hm_policy_none,
		.maxattr	= HOPMARK_ATTR_MAX,
	},
	{
		.cmd		= HOPMARK_CMD_COUNTERS_RESET,
		.doit		= hm_counters_reset,
		.policy		= hm_policy_none,
		.maxattr	= HOPMARK_ATTR_MAX,
		.flags		= HM_ADMIN,
	},
};

static const struct genl_multicast_group hm_genl_mcgrps[] = {
	[HM_MCGRP_CONFIG] = { .name = HOPMARK_GENL_MCGRP_CONFIG },
	[HM_MCGRP_EVENTS] = { .name = HOPMARK_GENL_MCGRP_EVENTS },
};

struct genl_family hm_genl_family __ro_after_init = {
	.name		= HOPMARK_GENL_NAME,
	.version	= HOPMARK_GENL_VERSION,
	.maxattr	= HOPMARK_ATTR_MAX,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= hm_genl_ops,
	.n_ops		= ARRAY_SIZE(hm_genl_ops),
	.resv_start_op	= HOPMARK_CMD_MAX + 1,
	.mcgrps		= hm_genl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(hm_genl_mcgrps),
};

/**
 * hm_genl_init() - register the "hopmark" family
 *
 * Return: 0 or the errno of genl_register_family() (-EEXIST: the name is
 * taken).
 */
int hm_genl_init(void)
{
	return genl_register_family(&hm_genl_family);
}

/**
 * hm_genl_exit() - unregister the family; waits for running requests
 */
void hm_genl_exit(void)
{
	genl_unregister_family(&hm_genl_family);
}
