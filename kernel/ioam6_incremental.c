// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioam6_incremental.c - IOAM Incremental Trace (RFC 9197 §4.4, Option-Type 1)
 * in the IPv6 Hop-by-Hop Options header (RFC 9486), and the node data every
 * IOAM trace carries (RFC 9197 §4.4.2), which Direct Export reuses.
 *
 * In the Incremental Trace the encapsulating node writes only the trace
 * header; every transit node inserts its node data right after it, so the
 * most recent node comes first, grows the option and the Hop-by-Hop header,
 * and decrements RemainingLen (4-octet words it may still add). A node that
 * finds less room than its node data (RemainingLen, 255 octets of option
 * data, the egress MTU) sets the Overflow flag and adds nothing.
 *
 * Node data is filled like Linux's own IOAM (net/ipv6/ioam6.c): timestamps
 * are POSIX seconds and microseconds, the queue depth is the egress qdisc
 * backlog in bytes, and every field this node cannot provide is all ones.
 */
#include <linux/netdevice.h>
#include <net/sch_generic.h>

#include "hopmark_dp.h"

/**
 * hm_queue_depth() - backlog of the egress queue (RFC 9197 §4.4.2.7)
 * @dev: egress device, or NULL
 * @skb: the packet (its queue mapping)
 *
 * Context: rcu_read_lock() held.
 * Return: the qdisc backlog in bytes, or all ones when unknown.
 */
static u32 hm_queue_depth(const struct net_device *dev, const struct sk_buff *skb)
{
	struct netdev_queue *txq;
	u32 qlen, backlog;
	struct Qdisc *q;
	u16 idx;

	if (!dev || !(dev->flags & IFF_UP) || !dev->real_num_tx_queues)
		return HM_IOAM_U32_UNAVAILABLE;
	idx = skb_get_queue_mapping(skb);
	if (idx >= dev->real_num_tx_queues)
		idx = 0;
	txq = netdev_get_tx_queue(dev, idx);
	q = rcu_dereference(txq->qdisc);
	if (!q)
		return HM_IOAM_U32_UNAVAILABLE;
	qdisc_qstats_qlen_backlog(q, &qlen, &backlog);
	return backlog;
}

/**
 * hm_ioam6_fill_node_data() - this node's data in trace layout
 * @pkt: packet context (node, interfaces, time, hop limit)
 * @skb: the packet
 * @ns: the IOAM-Namespace of the option
 * @trace_type: 24-bit IOAM-Trace-Type, host order
 * @buf: output, at least hm_ioam6_node_data_len() bytes (<= 104)
 *
 * Fields in the order of RFC 9197 §4.4.2 (bit 0 first), network byte order:
 * Hop_Lim and node_id, ingress/egress interface IDs (of @pkt->in and
 * @pkt->out; unavailable without a device), timestamp seconds and
 * microseconds of @pkt->now_ns (POSIX), transit delay (unavailable: the
 * hooks do not see the packet leave), namespace data, queue depth (egress
 * qdisc backlog, bytes), checksum complement (unavailable), the wide
 * forms, buffer occupancy (unavailable), all ones for bits 12-21 and an
 * empty opaque state snapshot (length 0, Schema ID 0xffffff) for bit 22.
 *
 * Return: bytes written.
 */
unsigned int hm_ioam6_fill_node_data(const struct hm_pkt *pkt,
				     const struct sk_buff *skb,
				     const struct hm_ns *ns, u32 trace_type,
				     u8 *buf)
{
	u16 in_id = pkt->in_if ? READ_ONCE(pkt->in_if->if_id) : HM_IOAM_U16_UNAVAILABLE;
	u16 out_id = pkt->out_if ? READ_ONCE(pkt->out_if->if_id) : HM_IOAM_U16_UNAVAILABLE;
	u32 sec = div_u64(pkt->now_ns, NSEC_PER_SEC);
	u32 usec = div_u64(pkt->now_ns - (u64)sec * NSEC_PER_SEC, NSEC_PER_USEC);
	u8 *p = buf;
	unsigned int i;

	if (trace_type & HM_IOAM_TT_BIT(0)) {
		put_unaligned_be32((u32)pkt->hop_limit << 24 | hm_node_id(pkt->hn), p);
		p += 4;
	}
	if (trace_type & HM_IOAM_TT_BIT(1)) {
		put_unaligned_be16(pkt->in ? in_id : HM_IOAM_U16_UNAVAILABLE, p);
		put_unaligned_be16(pkt->out ? out_id : HM_IOAM_U16_UNAVAILABLE, p + 2);
		p += 4;
	}
	if (trace_type & HM_IOAM_TT_BIT(2)) {
		put_unaligned_be32(sec, p);
		p += 4;
	}
	if (trace_type & HM_IOAM_TT_BIT(3)) {
		put_unaligned_be32(usec, p);
		p += 4;
	}
	if (trace_type & HM_IOAM_TT_BIT(4)) {
		put_unaligned_be32(HM_IOAM_U32_UNAVAILABLE, p);
		p += 4;
	}
	if (trace_type & HM_IOAM_TT_BIT(5)) {
		put_unaligned_be32(READ_ONCE(ns->has_data) ? READ_ONCE(ns->data) :
				   HM_IOAM_U32_UNAVAILABLE, p);
		p += 4;
	}
	if (trace_type & HM_IOAM_TT_BIT(6)) {
		put_unaligned_be32(hm_queue_depth(pkt->out, skb), p);
		p += 4;
	}
	if (trace_type & HM_IOAM_TT_BIT(7)) {
		put_unaligned_be32(HM_IOAM_U32_UNAVAILABLE, p);
		p += 4;
	}
	if (trace_type & HM_IOAM_TT_BIT(8)) {
		put_unaligned_be64((u64)pkt->hop_limit << 56 | hm_node_id_wide(pkt->hn), p);
		p += 8;
	}
	if (trace_type & HM_IOAM_TT_BIT(9)) {
		put_unaligned_be32(pkt->in_if ? READ_ONCE(pkt->in_if->if_id_wide) :
				   HM_IOAM_U32_UNAVAILABLE, p);
		put_unaligned_be32(pkt->out_if ? READ_ONCE(pkt->out_if->if_id_wide) :
				   HM_IOAM_U32_UNAVAILABLE, p + 4);
		p += 8;
	}
	if (trace_type & HM_IOAM_TT_BIT(10)) {
		put_unaligned_be64(READ_ONCE(ns->has_data_wide) ?
				   READ_ONCE(ns->data_wide) : HM_IOAM_U64_UNAVAILABLE, p);
		p += 8;
	}
	if (trace_type & HM_IOAM_TT_BIT(11)) {
		put_unaligned_be32(HM_IOAM_U32_UNAVAILABLE, p);
		p += 4;
	}
	for (i = 12; i < 22; i++) {
		if (trace_type & HM_IOAM_TT_BIT(i)) {
			put_unaligned_be32(HM_IOAM_U32_UNAVAILABLE, p);
			p += 4;
		}
	}
	if (trace_type & HM_IOAM_TT_OPAQUE) {
		put_unaligned_be32(HM_IOAM_U24_UNAVAILABLE, p);	/* length 0 */
		p += 4;
	}
	return p - buf;
}

/**
 * hm_incr_set_overflow() - set the Overflow flag of a trace in place
 * @skb: the packet
 * @opt: the trace option
 *
 * Return: 0 or -ENOMEM.
 */
static int hm_incr_set_overflow(struct sk_buff *skb, const struct hm_ioam_opt *opt)
{
	unsigned int off = opt->off + HM_IOAM_OPT_HDR_LEN +
			   offsetof(struct hm_ioam6_trace_hdr, nodelen_flags);
	u8 old, new;

	if (hm_skb_make_writable(skb, off + 1))
		return -ENOMEM;
	old = skb->data[off];
	new = old | HM_IOAM_TRACE_F_OVERFLOW;
	skb->data[off] = new;
	hm_rcsum_replace(skb, off, &old, &new, 1);
	return 0;
}

/**
 * hm_incr_check() - validate an Incremental Trace option
 * @skb: the packet
 * @opt: the option
 *
 * RFC 9197 §4.4: the option holds the IOAM option header, the 8-octet trace
 * header and whole 4-octet words of node data, and NodeLen matches the
 * Trace-Type.
 *
 * Return: the trace header, or NULL when malformed.
 */
static struct hm_ioam6_trace_hdr *hm_incr_check(struct sk_buff *skb,
						const struct hm_ioam_opt *opt)
{
	struct hm_ioam6_trace_hdr *trace;
	u32 tt;

	if (opt->len < HM_IOAM_OPT_HDR_LEN + HM_IOAM_TRACE_HDR_LEN ||
	    (opt->len - HM_IOAM_OPT_HDR_LEN - HM_IOAM_TRACE_HDR_LEN) & 3)
		return NULL;
	trace = (struct hm_ioam6_trace_hdr *)(skb->data + opt->off +
					      HM_IOAM_OPT_HDR_LEN);
	tt = hm_ioam6_trace_get_type(trace);
	if (hm_ioam6_trace_nodelen_of(trace) != hm_ioam6_trace_nodelen(tt))
		return NULL;
	return trace;
}

/**
 * hm_incr_transit() - a transit node inserts its node data (RFC 9197 §4.4)
 * @pkt: packet context (FORWARD hook: egress device known)
 * @skb: the packet
 * @opt: the Incremental Trace option found in its Hop-by-Hop header
 *
 * Untouched and counted: malformed option (HOPMARK_CNT_MALFORMED), unknown
 * IOAM-Namespace (_UNKNOWN_NS), Overflow already set (_INCR_OVERFLOW_SEEN).
 * Not enough room in RemainingLen, in the option (255 octets of data) or in
 * the header (2048 bytes): the Overflow flag is set (_INCR_OVERFLOW); not
 * enough room in the egress MTU: likewise, counted in _MTU too. Otherwise
 * the node data goes right after the trace header, RemainingLen drops by
 * the words added and the packet is counted _INCR_INSERTED.
 */
void hm_incr_transit(struct hm_pkt *pkt, struct sk_buff *skb,
		     const struct hm_ioam_opt *opt)
{
	u8 data[HM_IOAM_NODE_DATA_MAX];
	struct hm_ioam6_trace_hdr *trace;
	unsigned int need, off, remlen;
	struct hm_ns *ns;
	u8 old, new;
	u32 tt;
	int err;

	trace = hm_incr_check(skb, opt);
	if (!trace) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_MALFORMED);
		return;
	}
	ns = hm_ns_lookup_rcu(pkt->hn, be16_to_cpu(trace->namespace_id));
	if (!ns) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_UNKNOWN_NS);
		return;
	}
	if (hm_ioam6_trace_overflow(trace)) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_INCR_OVERFLOW_SEEN);
		return;
	}
	tt = hm_ioam6_trace_get_type(trace);
	need = hm_ioam6_node_data_len(tt);
	if (!need)
		return;
	remlen = hm_ioam6_trace_remlen_of(trace);
	if (remlen * 4 < need) {
		if (hm_incr_set_overflow(skb, opt))
			hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_ERROR);
		else
			hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_INCR_OVERFLOW);
		return;
	}
	hm_ioam6_fill_node_data(pkt, skb, ns, tt, data);
	err = hm_hbh_grow_option(skb, opt, opt->off + HM_IOAM_OPT_HDR_LEN +
				 HM_IOAM_TRACE_HDR_LEN, data, need,
				 hm_egress_mtu(skb));
	if (err == -EMSGSIZE || err == -ENOSPC) {
		if (hm_incr_set_overflow(skb, opt)) {
			hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_ERROR);
			return;
		}
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_INCR_OVERFLOW);
		if (err == -EMSGSIZE)
			hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_MTU);
		return;
	}
	if (err) {
		hm_count(pkt->hn, pkt->in_if, err == -EBADMSG ?
			 HOPMARK_CNT_MALFORMED : HOPMARK_CNT_ERROR);
		return;
	}
	/* The option did not move: decrement RemainingLen in place. */
	off = opt->off + HM_IOAM_OPT_HDR_LEN + offsetof(struct hm_ioam6_trace_hdr, remlen);
	old = skb->data[off];
	new = (old & ~HM_IOAM_TRACE_REMLEN_MASK) |
	      ((remlen - need / 4) & HM_IOAM_TRACE_REMLEN_MASK);
	skb->data[off] = new;
	hm_rcsum_replace(skb, off, &old, &new, 1);
	hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_INCR_INSERTED);
}

/**
 * hm_incr_sink() - the destination reports the trace it received
 * @pkt: packet context (LOCAL_IN hook)
 * @skb: the packet
 * @opt: the Incremental Trace option
 *
 * Emits one HOPMARK_EVENT_TRACE record holding the whole option as
 * received, for a configured IOAM-Namespace (else _UNKNOWN_NS). The packet
 * is not changed.
 */
void hm_incr_sink(struct hm_pkt *pkt, struct sk_buff *skb,
		  const struct hm_ioam_opt *opt)
{
	struct hm_ioam6_trace_hdr *trace = hm_incr_check(skb, opt);
	struct hm_event ev = {};

	if (!trace || opt->len > HOPMARK_REC_OPTION_MAX) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_MALFORMED);
		return;
	}
	if (!hm_ns_lookup_rcu(pkt->hn, be16_to_cpu(trace->namespace_id))) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_UNKNOWN_NS);
		return;
	}
	ev.type = HOPMARK_EVENT_TRACE;
	ev.flags = HM_EV_F_NS | HM_EV_F_TRACE_TYPE;
	ev.ifindex = pkt->in->ifindex;
	ev.ns_id = be16_to_cpu(trace->namespace_id);
	ev.trace_type = hm_ioam6_trace_get_type(trace);
	ev.tstamp_ns = pkt->now_ns;
	ev.option = skb->data + opt->off;
	ev.option_len = opt->len;
	ev.skb = skb;
	hm_event_queue(pkt->hn, &ev);
}

/**
 * hm_incr_encap() - the encapsulating node inserts an Incremental Trace
 * @pkt: packet context (POST_ROUTING hook, @pkt->out_if configured)
 * @skb: the packet
 *
 * Option of the egress interface's IOAM-Namespace, Trace-Type and initial
 * RemainingLen (HOPMARK_ATTR_IF_ENCAP_*). Like Linux's IOAM encapsulation,
 * the encapsulating node adds its own node data first when RemainingLen
 * allows it (else it sets the Overflow flag). A packet that already carries
 * an Incremental Trace of that namespace (forwarded from inside the domain)
 * is left alone. Counted: _INCR_ENCAP, _UNKNOWN_NS, _MTU (sent without
 * the option), _MALFORMED (existing header), _ERROR.
 */
void hm_incr_encap(struct hm_pkt *pkt, struct sk_buff *skb)
{
	u8 tlv[HM_IOAM_OPT_HDR_LEN + HM_IOAM_TRACE_HDR_LEN + HM_IOAM_NODE_DATA_MAX];
	struct hm_ioam6_trace_hdr *trace;
	unsigned int len, need, remlen;
	struct hm_ioam6_opt_hdr *oh;
	struct hm_ioam_opt found;
	struct hm_ns *ns;
	u16 ns_id;
	u32 tt;
	int err;

	ns_id = READ_ONCE(pkt->out_if->encap_ns);
	tt = READ_ONCE(pkt->out_if->encap_trace_type) & HM_IOAM_TT_MASK;
	remlen = READ_ONCE(pkt->out_if->encap_remlen) & HM_IOAM_TRACE_REMLEN_MASK;
	ns = hm_ns_lookup_rcu(pkt->hn, ns_id);
	if (!ns) {
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_UNKNOWN_NS);
		return;
	}
	err = hm_hbh_find_ioam(skb, HM_IOAM_OPT_INCREMENTAL_TRACE, ns_id, &found);
	if (!err)
		return;
	if (err == -EBADMSG) {
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_MALFORMED);
		return;
	}

	oh = (struct hm_ioam6_opt_hdr *)tlv;
	oh->opt_type = HM_IPV6_TLV_IOAM;
	oh->reserved = 0;
	oh->ioam_type = HM_IOAM_OPT_INCREMENTAL_TRACE;
	trace = (struct hm_ioam6_trace_hdr *)(tlv + HM_IOAM_OPT_HDR_LEN);
	trace->namespace_id = cpu_to_be16(ns_id);
	trace->nodelen_flags = hm_ioam6_trace_nodelen(tt) << 3;
	hm_ioam6_trace_set_type(trace, tt);
	trace->reserved = 0;
	len = HM_IOAM_OPT_HDR_LEN + HM_IOAM_TRACE_HDR_LEN;
	need = hm_ioam6_node_data_len(tt);
	if (need && remlen * 4 >= need) {
		len += hm_ioam6_fill_node_data(pkt, skb, ns, tt, tlv + len);
		remlen -= need / 4;
	} else if (need) {
		trace->nodelen_flags |= HM_IOAM_TRACE_F_OVERFLOW;
	}
	trace->remlen = remlen;
	oh->opt_len = len - HM_IPV6_TLV_HDR_LEN;

	err = hm_hbh_add_option(skb, tlv, len);
	if (!err)
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_INCR_ENCAP);
	else if (err == -EMSGSIZE)
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_MTU);
	else if (err == -EBADMSG)
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_MALFORMED);
	else
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_ERROR);
}
