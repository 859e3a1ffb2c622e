/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hopmark.h - in-kernel API of hopmark.ko
 *
 * The core (hopmark_main.c, hopmark_genl.c, hopmark_events.c) owns the
 * per-network-namespace state configured over the "hopmark" generic netlink
 * family (lib/common/hopmark_genl.h) and the event export. The datapath
 * (the hooks of hopmark_nf.c and the option handlers below them,
 * hopmark_dp.h) reads that state from netfilter hooks and reports through
 * hm_event_queue() and hm_count(); its lowest layer (ipv6_hbh.h,
 * hopmark_flow.h) does not include this header.
 *
 * Locking: configuration changes hold hopmark_net.lock (a mutex, process
 * context). The datapath reads under rcu_read_lock() (netfilter hooks
 * already run in an RCU read-side section): hm_ns_lookup_rcu() and
 * hm_if_lookup_rcu() return objects freed only after a grace period; their
 * scalar fields are read with READ_ONCE(), as writers update them in place
 * with WRITE_ONCE().
 */
#ifndef _HOPMARK_H
#define _HOPMARK_H

#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/xarray.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "common/hopmark_genl.h"

/**
 * struct hm_counters - per-CPU counters, indexed by enum hopmark_counter_attr
 * @cnt: count per counter; index 0 (UNSPEC) and 1 (PAD) stay zero
 */
struct hm_counters {
	u64 cnt[__HOPMARK_CNT_MAX];
};

/**
 * struct hm_ratelimit - token bucket of one IOAM-Namespace (or of the netns)
 * @lock:	protects @tokens and @last_ns (taken in softirq and timer context)
 * @rate:	events per second, 0 = no limit; burst is one second (@rate)
 * @tokens:	available events, scaled by NSEC_PER_SEC (so 1 event = 1e9)
 * @last_ns:	CLOCK_MONOTONIC ns of the last refill
 */
struct hm_ratelimit {
	spinlock_t lock;
	u32 rate;
	u64 tokens;
	u64 last_ns;
};

/**
 * struct hm_ns - one configured IOAM-Namespace (RFC 9197 §4.3)
 * @rcu:		frees it after a grace period
 * @id:			the IOAM-Namespace, host order
 * @has_data:		@data was configured (else write 0xffffffff)
 * @has_data_wide:	@data_wide was configured (else all ones)
 * @data:		namespace specific data, short (RFC 9197 §4.4.2.6), host order
 * @data_wide:		namespace specific data, wide (RFC 9197 §4.4.2.11), host order
 * @rl:			rate limit of events of this namespace
 * @ev_queued:		records accepted into a batch (HOPMARK_CNT_EV_QUEUED)
 * @ev_rate_limited:	records dropped by @rl (HOPMARK_CNT_EV_RATE_LIMITED)
 */
struct hm_ns {
	struct rcu_head rcu;
	u16 id;
	bool has_data;
	bool has_data_wide;
	u32 data;
	u64 data_wide;
	struct hm_ratelimit rl;
	atomic64_t ev_queued;
	atomic64_t ev_rate_limited;
};

/**
 * struct hm_if - per-interface configuration and counters
 * @rcu:		frees it after a grace period
 * @ifindex:		the device, in the owning network namespace
 * @features:		enabled enum hopmark_if_feature bits
 * @if_id:		short interface ID (RFC 9197 §4.4.2.2), default 0xffff
 * @if_id_wide:		wide interface ID (RFC 9197 §4.4.2.10), default 0xffffffff
 * @encap_ns:		IOAM-Namespace this interface encapsulates
 * @encap_trace_type:	24-bit IOAM-Trace-Type for INCREMENTAL_ENCAP and
 *			DEX_ENCAP, host order, bit 0 = 0x800000
 * @encap_remlen:	RemainingLen (4-octet words) of a new Incremental Trace
 * @encap_e2e_type:	IOAM-E2E-Type for E2E_ENCAP, host order (bits 0-3)
 * @stats:		per-CPU packet counters (hm_count())
 */
struct hm_if {
	struct rcu_head rcu;
	int ifindex;
	u32 features;
	u16 if_id;
	u32 if_id_wide;
	u16 encap_ns;
	u32 encap_trace_type;
	u8 encap_remlen;
	u16 encap_e2e_type;
	struct hm_counters __percpu *stats;
};

/**
 * struct hm_batch - EVENT message being filled (hopmark_events.c)
 * @lock:	protects every field (taken with spin_lock_bh())
 * @skb:	message under construction, NULL when empty
 * @hdr:	its genetlink header (for genlmsg_end())
 * @records:	records in @skb
 * @timer:	sends a partial batch FLUSH_MS after its first record
 * @dying:	netns exit began: queue nothing, arm no timer
 */
struct hm_batch {
	spinlock_t lock;
	struct sk_buff *skb;
	void *hdr;
	u32 records;
	struct timer_list timer;
	bool dying;
};

/**
 * struct hopmark_net - per-network-namespace state (pernet operations)
 * @net:		the network namespace
 * @lock:		serialises configuration changes (process context)
 * @has_node_id:	@node_id was configured
 * @has_node_id_wide:	@node_id_wide was configured
 * @node_id:		short node_id, 24 bits (RFC 9197 §4.4.2.1)
 * @node_id_wide:	wide node_id, 56 bits (RFC 9197 §4.4.2.9)
 * @namespaces:		struct hm_ns by IOAM-Namespace (xarray, RCU lookups)
 * @ifaces:		struct hm_if by ifindex (xarray, RCU lookups)
 * @rl_default:		rate limit of events without IOAM-Namespace (O-flag);
 *			its rate is also the default for new namespaces
 * @batch_size:		records per EVENT message (1..HOPMARK_BATCH_MAX)
 * @flush_ms:		ms before a partial batch is sent
 * @export_fields:	postcard fields the agent exports (enum
 *			hopmark_export_field); kept and announced here, used
 *			by the agent
 * @batch:		the EVENT message being filled
 * @stats:		per-CPU counters of the netns (events, and datapath
 *			counts of packets on unconfigured interfaces)
 */
struct hopmark_net {
	struct net *net;
	struct mutex lock;
	bool has_node_id;
	bool has_node_id_wide;
	u32 node_id;
	u64 node_id_wide;
	struct xarray namespaces;
	struct xarray ifaces;
	struct hm_ratelimit rl_default;
	u32 batch_size;
	u32 flush_ms;
	u32 export_fields;
	struct hm_batch batch;
	struct hm_counters __percpu *stats;
};

extern unsigned int hm_net_id;

/**
 * hm_pernet() - hopmark state of a network namespace
 * @net: the network namespace
 *
 * Valid while @net is alive and the module is loaded.
 *
 * Return: the struct hopmark_net of @net, never NULL.
 */
static inline struct hopmark_net *hm_pernet(const struct net *net)
{
	return net_generic(net, hm_net_id);
}

/**
 * hm_ns_lookup_rcu() - find a configured IOAM-Namespace
 * @hn: per-netns state
 * @ns_id: IOAM-Namespace, host order
 *
 * Context: rcu_read_lock() held; the result is valid until it is dropped.
 * Return: the namespace or NULL when @ns_id is not configured (the caller
 * leaves the option untouched and counts HOPMARK_CNT_UNKNOWN_NS).
 */
static inline struct hm_ns *hm_ns_lookup_rcu(struct hopmark_net *hn, u16 ns_id)
{
	return xa_load(&hn->namespaces, ns_id);
}

/**
 * hm_if_lookup_rcu() - find an interface's configuration
 * @hn: per-netns state
 * @ifindex: device index in @hn's network namespace
 *
 * Context: rcu_read_lock() held; the result is valid until it is dropped.
 * Return: the configuration or NULL when the interface was never configured
 * (every feature off, interface IDs unavailable).
 */
static inline struct hm_if *hm_if_lookup_rcu(struct hopmark_net *hn, int ifindex)
{
	if (ifindex <= 0)
		return NULL;
	return xa_load(&hn->ifaces, ifindex);
}

/**
 * hm_if_features() - feature bits enabled on an interface
 * @hn: per-netns state
 * @ifindex: device index
 *
 * Context: rcu_read_lock() held.
 * Return: enum hopmark_if_feature bits, 0 for an unconfigured interface.
 */
static inline u32 hm_if_features(struct hopmark_net *hn, int ifindex)
{
	struct hm_if *hif = hm_if_lookup_rcu(hn, ifindex);

	return hif ? READ_ONCE(hif->features) : 0;
}

/**
 * hm_node_id() - this node's short node_id (RFC 9197 §4.4.2.1)
 * @hn: per-netns state
 *
 * Return: the 24-bit node_id, or 0xffffff (unavailable) when not configured.
 */
static inline u32 hm_node_id(const struct hopmark_net *hn)
{
	return READ_ONCE(hn->has_node_id) ? READ_ONCE(hn->node_id) : 0xffffff;
}

/**
 * hm_node_id_wide() - this node's wide node_id (RFC 9197 §4.4.2.9)
 * @hn: per-netns state
 *
 * Return: the 56-bit node_id, or 0xffffffffffffff (unavailable) when not
 * configured.
 */
static inline u64 hm_node_id_wide(const struct hopmark_net *hn)
{
	return READ_ONCE(hn->has_node_id_wide) ? READ_ONCE(hn->node_id_wide) :
						  0xffffffffffffffULL;
}

/**
 * hm_count() - count one packet on an interface
 * @hn: per-netns state
 * @hif: the interface's configuration, or NULL (counted for the netns only)
 * @cnt: enum hopmark_counter_attr, a datapath counter
 *	 (HOPMARK_CNT_INCR_INSERTED..HOPMARK_CNT_ERROR, HOPMARK_CNT_HBH_LIMIT)
 *
 * Context: any; rcu_read_lock() held when @hif is not NULL.
 */
static inline void hm_count(struct hopmark_net *hn, struct hm_if *hif, int cnt)
{
	if (unlikely(cnt <= HOPMARK_CNT_PAD || cnt > HOPMARK_CNT_MAX))
		return;
	this_cpu_inc(hn->stats->cnt[cnt]);
	if (hif)
		this_cpu_inc(hif->stats->cnt[cnt]);
}

/**
 * struct hm_event - one record for hm_event_queue()
 * @type:		enum hopmark_event_type
 * @flags:		HM_EV_F_* telling which optional fields are set
 * @ifindex:		ingress interface
 * @ns_id:		IOAM-Namespace (with %HM_EV_F_NS); selects the rate limit
 * @flow_id:		DEX Flow ID (with %HM_EV_F_FLOW_ID)
 * @seq:		Sequence Number (with %HM_EV_F_SEQ)
 * @trace_type:		24-bit IOAM-Trace-Type (with %HM_EV_F_TRACE_TYPE)
 * @tstamp_ns:		POSIX time in ns; 0: hm_event_queue() takes the time now
 * @node_data:		node data bytes (RFC 9197 §4.4.2 layout, network order)
 * @node_data_len:	bytes at @node_data, <= HOPMARK_REC_NODE_DATA_MAX
 * @option:		IOAM option bytes from the Option-Type octet
 * @option_len:		bytes at @option, <= HOPMARK_REC_OPTION_MAX
 * @skb:		the packet, network header set at its IPv6 header: up
 *			to HOPMARK_REC_HEADERS_MAX bytes from there are copied
 *			into HOPMARK_REC_ATTR_HEADERS (NULL: none)
 */
struct hm_event {
	u8 type;
	u32 flags;
	int ifindex;
	u16 ns_id;
	u32 flow_id;
	u32 seq;
	u32 trace_type;
	u64 tstamp_ns;
	const void *node_data;
	u16 node_data_len;
	const void *option;
	u16 option_len;
	const struct sk_buff *skb;
};
#define HM_EV_F_NS		(1U << 0)
#define HM_EV_F_FLOW_ID		(1U << 1)
#define HM_EV_F_SEQ		(1U << 2)
#define HM_EV_F_TRACE_TYPE	(1U << 3)

/**
 * hm_event_queue() - export one event record on the "events" group
 * @hn: per-netns state
 * @ev: the record; its buffers are copied before the call returns
 *
 * Applies the rate limit of @ev->ns_id (a configured namespace; else the
 * netns default bucket), appends the record to the EVENT message being
 * filled, and multicasts the message when it holds hopmark_net.batch_size
 * records or flush_ms after its first record. Every record not sent is
 * counted once (HOPMARK_CNT_EV_RATE_LIMITED, _NO_LISTENER, _NOMEM,
 * _SEND_ERR). Never sleeps.
 *
 * Context: any but hard IRQ; rcu_read_lock() held.
 * Return: 0 when queued; -EBUSY rate limited; -ENOTCONN no listener;
 * -ENOMEM no memory; -EINVAL bad @ev (type, lengths).
 */
int hm_event_queue(struct hopmark_net *hn, const struct hm_event *ev);

/* hopmark_events.c, for the core */
void hm_ratelimit_init(struct hm_ratelimit *rl, u32 rate);
void hm_ratelimit_set(struct hm_ratelimit *rl, u32 rate);
void hm_events_net_init(struct hopmark_net *hn);
void hm_events_net_exit(struct hopmark_net *hn);
void hm_events_flush(struct hopmark_net *hn);
void hm_events_stop_all(void);

/* hopmark_genl.c, for the core */
extern struct genl_family hm_genl_family;
int hm_genl_init(void);
void hm_genl_exit(void);
void hm_if_free(struct hm_if *hif);
void hm_net_free_config(struct hopmark_net *hn);
void hm_if_remove(struct hopmark_net *hn, int ifindex);

/* multicast group indexes in hm_genl_family */
enum hm_mcgrp {
	HM_MCGRP_CONFIG,
	HM_MCGRP_EVENTS,
};

/*
 * The datapath (hopmark_nf.c): called once at module load after the core is
 * ready (it registers its own pernet operations for the netfilter hooks),
 * and at unload before the core goes away.
 */
int hm_datapath_init(void);
void hm_datapath_exit(void);

#endif /* _HOPMARK_H */
