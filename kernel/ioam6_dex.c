// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioam6_dex.c - IOAM Direct Export (RFC 9326, Option-Type 4) in the IPv6
 * Hop-by-Hop Options header (RFC 9486)
 *
 * Wire format after the 4-octet IOAM option header (RFC 9326 §3.2):
 *
 *   Namespace-ID (16) | Flags (8) | Extension-Flags (8)
 *   IOAM-Trace-Type (24) | Reserved (8)
 *   optional 4-octet fields, one per Extension-Flag set, in bit order:
 *   bit 0 (0x80) Flow ID, bit 1 (0x40) Sequence Number, then one for each
 *   unassigned bit 2-7 set (hm_ioam6_dex_ext_len(), lib/ioam/ioam6.h)
 *
 * Every node with Direct Export enabled on the ingress interface exports
 * the node data the Trace-Type selects, with the IOAM-Namespace, Flow ID
 * and Sequence Number, as one event record; the packet is neither grown nor
 * changed (RFC 9326 §3). The encapsulating node inserts the option with a
 * per-flow Flow ID and Sequence Number.
 */
#include "hopmark_dp.h"

/**
 * hm_dex_export() - a node exports what a DEX option asks for
 * @pkt: packet context (PRE_ROUTING hook: egress device not yet known, so
 *	 egress interface IDs and queue depth are unavailable)
 * @skb: the packet
 * @opt: the DEX option found in its Hop-by-Hop header
 *
 * Untouched and counted: an option shorter than its header and the
 * optional fields its Extension-Flags announce, one 4-octet field per flag
 * set, assigned or not (RFC 9326 §3.2, _MALFORMED), an unknown
 * IOAM-Namespace (_UNKNOWN_NS). Otherwise one HOPMARK_EVENT_DEX record
 * (_DEX_EXPORT): IOAM-Namespace, Trace-Type, Flow ID and Sequence Number
 * when present, and this node's data (RFC 9197 §4.4.2 layout). The fields
 * of unassigned flags are skipped. Its Hop_Lim is the received hop limit
 * minus one, as on input in Linux.
 */
void hm_dex_export(struct hm_pkt *pkt, struct sk_buff *skb,
		   const struct hm_ioam_opt *opt)
{
	u8 data[HM_IOAM_NODE_DATA_MAX];
	const struct hm_ioam6_dex_hdr *dex;
	struct hm_event ev = {};
	unsigned int off;
	const u8 *p;
	struct hm_ns *ns;

	p = skb->data + opt->off;
	if (opt->len < HM_IOAM_OPT_HDR_LEN + HM_IOAM_DEX_HDR_LEN) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_MALFORMED);
		return;
	}
	dex = (const struct hm_ioam6_dex_hdr *)(p + HM_IOAM_OPT_HDR_LEN);
	if (opt->len < HM_IOAM_OPT_HDR_LEN + HM_IOAM_DEX_HDR_LEN +
		       hm_ioam6_dex_ext_len(dex->ext_flags)) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_MALFORMED);
		return;
	}
	ev.ns_id = get_unaligned_be16(&dex->namespace_id);
	ns = hm_ns_lookup_rcu(pkt->hn, ev.ns_id);
	if (!ns) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_UNKNOWN_NS);
		return;
	}
	ev.type = HOPMARK_EVENT_DEX;
	ev.flags = HM_EV_F_NS | HM_EV_F_TRACE_TYPE;
	ev.ifindex = pkt->in->ifindex;
	ev.trace_type = get_unaligned_be24(dex->trace_type);
	ev.tstamp_ns = pkt->now_ns;
	off = HM_IOAM_OPT_HDR_LEN + HM_IOAM_DEX_HDR_LEN;
	if (dex->ext_flags & HM_IOAM_DEX_EXT_FLOW_ID) {
		ev.flow_id = get_unaligned_be32(p + off);
		ev.flags |= HM_EV_F_FLOW_ID;
		off += 4;
	}
	if (dex->ext_flags & HM_IOAM_DEX_EXT_SEQ) {
		ev.seq = get_unaligned_be32(p + off);
		ev.flags |= HM_EV_F_SEQ;
	}
	ev.node_data = data;
	ev.node_data_len = hm_ioam6_fill_node_data(pkt, skb, ns, ev.trace_type,
						   data);
	ev.skb = skb;
	hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_DEX_EXPORT);
	hm_event_queue(pkt->hn, &ev);
}

/**
 * hm_dex_encap() - the encapsulating node inserts a DEX option
 * @pkt: packet context (POST_ROUTING hook, @pkt->out_if configured)
 * @skb: the packet
 *
 * IOAM-Namespace and Trace-Type of the egress interface
 * (HOPMARK_ATTR_IF_ENCAP_NS, _TRACE_TYPE), after hm_encap_begin(); Flags 0,
 * Extension-Flags Flow ID and Sequence Number: the Flow ID is hm_flow_id()
 * of the packet, the Sequence Number counts the flow's packets from 0.
 * Counted by hm_encap_begin() and hm_encap_insert(): _DEX_ENCAP,
 * _UNKNOWN_NS, _MTU (sent without the option), _MALFORMED, _ERROR.
 */
void hm_dex_encap(struct hm_pkt *pkt, struct sk_buff *skb)
{
	/* + 8: the optional fields Flow ID and Sequence Number */
	u8 tlv[HM_IOAM_OPT_HDR_LEN + HM_IOAM_DEX_HDR_LEN + 8];
	u8 *opt_data = tlv + HM_IOAM_OPT_HDR_LEN + HM_IOAM_DEX_HDR_LEN;
	struct hm_ioam6_dex_hdr *dex;
	struct hm_encap enc;
	u32 flow_id;

	if (!hm_encap_begin(pkt, skb, HM_IOAM_OPT_DEX, &enc, tlv))
		return;
	flow_id = hm_flow_id(skb);

	dex = (struct hm_ioam6_dex_hdr *)(tlv + HM_IOAM_OPT_HDR_LEN);
	dex->flags = 0;
	dex->ext_flags = HM_IOAM_DEX_EXT_FLOW_ID | HM_IOAM_DEX_EXT_SEQ;
	put_unaligned_be24(enc.trace_type, dex->trace_type);
	dex->reserved = 0;
	put_unaligned_be32(flow_id, opt_data);
	put_unaligned_be32(hm_flow_next_seq(pkt->flows, HM_SEQ_DEX, flow_id),
			   opt_data + 4);
	hm_encap_insert(pkt, skb, tlv, sizeof(tlv), HOPMARK_CNT_DEX_ENCAP);
}
