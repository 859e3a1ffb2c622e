// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioam6_incremental.c - IOAM Incremental Trace (RFC 9197 §4.4, Option-Type 1)
 * in the IPv6 Hop-by-Hop Options header (RFC 9486)
 *
 * In the Incremental Trace the encapsulating node writes only the trace
 * header; every transit node inserts its node data right after it, so the
 * most recent node comes first, grows the option and the Hop-by-Hop header,
 * and decrements RemainingLen (4-octet words it may still add). A node that
 * finds less room than its node data (RemainingLen, 255 octets of option
 * data, the egress MTU) sets the Overflow flag and adds nothing.
 *
 * The node data (RFC 9197 §4.4.2) is hm_ioam6_fill_node_data()'s
 * (ioam6_encap.c), filled like Linux's own IOAM (net/ipv6/ioam6.c).
 */
#include "hopmark_dp.h"

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
 * RemainingLen (HOPMARK_ATTR_IF_ENCAP_*), after hm_encap_begin(). Like
 * Linux's IOAM encapsulation, the encapsulating node adds its own node
 * data first when RemainingLen allows it (else it sets the Overflow flag).
 * Counted by hm_encap_begin() and hm_encap_insert(): _INCR_ENCAP,
 * _UNKNOWN_NS, _MTU (sent without the option), _MALFORMED, _ERROR.
 */
void hm_incr_encap(struct hm_pkt *pkt, struct sk_buff *skb)
{
	u8 tlv[HM_IOAM_OPT_HDR_LEN + HM_IOAM_TRACE_HDR_LEN + HM_IOAM_NODE_DATA_MAX];
	struct hm_ioam6_trace_hdr *trace;
	unsigned int len, need, remlen;
	struct hm_encap enc;

	if (!hm_encap_begin(pkt, skb, HM_IOAM_OPT_INCREMENTAL_TRACE, &enc, tlv))
		return;
	trace = (struct hm_ioam6_trace_hdr *)(tlv + HM_IOAM_OPT_HDR_LEN);
	trace->nodelen_flags = hm_ioam6_trace_nodelen(enc.trace_type) << 3;
	hm_ioam6_trace_set_type(trace, enc.trace_type);
	trace->reserved = 0;
	len = HM_IOAM_OPT_HDR_LEN + HM_IOAM_TRACE_HDR_LEN;
	remlen = enc.remlen;
	need = hm_ioam6_node_data_len(enc.trace_type);
	if (need && remlen * 4 >= need) {
		len += hm_ioam6_fill_node_data(pkt, skb, enc.ns, enc.trace_type,
					       tlv + len);
		remlen -= need / 4;
	} else if (need) {
		trace->nodelen_flags |= HM_IOAM_TRACE_F_OVERFLOW;
	}
	trace->remlen = remlen;
	hm_encap_insert(pkt, skb, tlv, len, HOPMARK_CNT_INCR_ENCAP);
}
