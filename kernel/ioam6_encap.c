// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioam6_encap.c - what hopmark.ko's IOAM option handlers share: this
 * node's data (RFC 9197 §4.4.2), which the Incremental Trace inserts and
 * Direct Export exports, and the steps every encapsulating node takes
 * before and after building its option (RFC 9486 §3).
 *
 * The encapsulations (hm_incr_encap(), hm_e2e_encap(), hm_dex_encap())
 * differ only in the option they build; each one:
 *
 *   1. reads the egress interface's HOPMARK_ATTR_IF_ENCAP_* settings once;
 *   2. leaves the packet alone, counted _UNKNOWN_NS, when that
 *      IOAM-Namespace is not configured;
 *   3. leaves alone a packet that already carries an option of the same
 *      Option-Type and IOAM-Namespace (forwarded from inside the domain),
 *      counted _MALFORMED when its Hop-by-Hop header cannot be walked;
 *   4. writes the IOAM option header and the IOAM-Namespace;
 *   5. (its own fields)
 *   6. inserts the option (ipv6_hbh.c: 4n offset, 8n header, egress MTU,
 *      the limits a Linux receiver enforces on the header) and counts the
 *      outcome: inserted, _MTU or _HBH_LIMIT (sent without the option),
 *      _MALFORMED, _ERROR.
 *
 * Steps 1-4 are hm_encap_begin(), step 6 hm_encap_insert(). What applies
 * to the packet whatever the option (link scope, fragments) the
 * POST_ROUTING hook checks once, with hm_encap_link_scope().
 */
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
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
 * @buf: output, at least hm_ioam6_node_data_len() bytes
 *	 (<= HM_IOAM_NODE_DATA_MAX)
 *
 * The values, like Linux's own IOAM (net/ipv6/ioam6.c): Hop_Lim and
 * node_id, ingress/egress interface IDs (of @pkt->in and @pkt->out;
 * unavailable without a configured device), timestamp seconds and
 * microseconds of @pkt->now_ns (POSIX), transit delay (unavailable: the
 * hooks do not see the packet leave), namespace data, queue depth (egress
 * qdisc backlog, bytes), checksum complement (unavailable), the wide
 * forms, buffer occupancy (unavailable), and an empty opaque state
 * snapshot (length 0, Schema ID 0xffffff). lib's
 * hm_ioam6_node_data_encode() lays them out (RFC 9197 §4.4.2, bit 0
 * first, network byte order, 0xffffffff for each undefined bit 12-21), the
 * same encoder as the BPF datapath's and the decoder tests'.
 *
 * Return: bytes written.
 */
unsigned int hm_ioam6_fill_node_data(const struct hm_pkt *pkt,
				     const struct sk_buff *skb,
				     const struct hm_ns *ns, u32 trace_type,
				     u8 *buf)
{
	u32 sec = div_u64(pkt->now_ns, NSEC_PER_SEC);
	const struct hm_if *in = pkt->in_if, *out = pkt->out_if;
	struct hm_ioam6_node_values v = {
		.hop_limit		= pkt->hop_limit,
		.node_id		= hm_node_id(pkt->hn),
		.ingress_if		= in ? READ_ONCE(in->if_id) : HM_IOAM_U16_UNAVAILABLE,
		.egress_if		= out ? READ_ONCE(out->if_id) : HM_IOAM_U16_UNAVAILABLE,
		.ts_sec			= sec,
		.ts_frac		= div_u64(pkt->now_ns - (u64)sec * NSEC_PER_SEC,
						  NSEC_PER_USEC),
		.transit_delay		= HM_IOAM_U32_UNAVAILABLE,
		.ns_data		= READ_ONCE(ns->has_data) ? READ_ONCE(ns->data) :
					  HM_IOAM_U32_UNAVAILABLE,
		.queue_depth		= HM_IOAM_U32_UNAVAILABLE,
		.csum_compl		= HM_IOAM_U32_UNAVAILABLE,
		.node_id_wide		= hm_node_id_wide(pkt->hn),
		.ingress_if_wide	= in ? READ_ONCE(in->if_id_wide) : HM_IOAM_U32_UNAVAILABLE,
		.egress_if_wide		= out ? READ_ONCE(out->if_id_wide) : HM_IOAM_U32_UNAVAILABLE,
		.ns_data_wide		= READ_ONCE(ns->has_data_wide) ?
					  READ_ONCE(ns->data_wide) : HM_IOAM_U64_UNAVAILABLE,
		.buffer_occupancy	= HM_IOAM_U32_UNAVAILABLE,
		.opaque_len		= 0,
		.opaque_schema		= HM_IOAM_U24_UNAVAILABLE,
	};

	/* The qdisc is looked at only when the Trace-Type asks for it. */
	if (trace_type & HM_IOAM_TT_QUEUE_DEPTH)
		v.queue_depth = hm_queue_depth(pkt->out, skb);
	return hm_ioam6_node_data_encode(buf, trace_type, &v);
}

/**
 * hm_encap_link_scope() - whether a packet belongs to its link only
 * @skb: the packet, IPv6 header linear at skb->data
 *
 * Multicast or link-local destination (MLD, router discovery), link-local
 * or unspecified source (RFC 4291 §2.5.6: never forwarded; DAD), and
 * Neighbor Discovery (ICMPv6 types 133-137, RFC 4861 §4, e.g. a unicast
 * NUD probe to a global address from a link-local one) are not part of
 * the IOAM domain's routed traffic, as in the BPF encapsulation.
 *
 * Return: true when the packet is never encapsulated.
 */
bool hm_encap_link_scope(struct sk_buff *skb)
{
	const struct ipv6hdr *ip6 = ipv6_hdr(skb);
	int dt = ipv6_addr_type(&ip6->daddr);
	int st = ipv6_addr_type(&ip6->saddr);
	const u8 *type;
	u8 _type;

	if ((dt | st) & (IPV6_ADDR_MULTICAST | IPV6_ADDR_LINKLOCAL) ||
	    st == IPV6_ADDR_ANY)
		return true;
	if (ip6->nexthdr != HM_IPPROTO_ICMPV6)
		return false;
	type = skb_header_pointer(skb, HM_IPV6_HDR_LEN, sizeof(_type), &_type);
	return type && *type >= HM_ICMPV6_ND_FIRST && *type <= HM_ICMPV6_ND_LAST;
}

/**
 * hm_encap_begin() - the steps before an encapsulating node builds its option
 * @pkt: packet context (POST_ROUTING hook, @pkt->out_if configured)
 * @skb: the packet
 * @ioam_type: IOAM Option-Type to insert (%HM_IOAM_OPT_*)
 * @enc: filled with the egress interface's settings
 * @tlv: the option being built, at least HM_IOAM_OPT_HDR_LEN + 2 bytes:
 *	 its IOAM option header (RFC 9486 §2; Opt Data Len is written by
 *	 hm_encap_insert()) and IOAM-Namespace (network order) are written
 *
 * Steps 1-4 of the file comment. A packet left alone is counted
 * _UNKNOWN_NS (namespace not configured) or _MALFORMED (its Hop-by-Hop
 * header cannot be walked), or not counted when it already has an option
 * of @ioam_type and this IOAM-Namespace.
 *
 * Context: rcu_read_lock() held (netfilter hook); @enc->ns is valid until
 * it is dropped.
 * Return: true when the caller goes on to build and insert its option.
 */
bool hm_encap_begin(struct hm_pkt *pkt, struct sk_buff *skb, u8 ioam_type,
		    struct hm_encap *enc, u8 *tlv)
{
	const struct hm_if *hif = pkt->out_if;
	struct hm_ioam6_opt_hdr *oh = (struct hm_ioam6_opt_hdr *)tlv;
	struct hm_ioam_opt found;
	int err;

	enc->ns_id = READ_ONCE(hif->encap_ns);
	/* HOPMARK_CMD_IF_SET accepts only these bits; the mask keeps the wire
	 * RFC 9197 §4.4.1 conformant whatever the configuration path.
	 */
	enc->trace_type = READ_ONCE(hif->encap_trace_type) & HM_IOAM_TT_ENCAP_MASK;
	enc->remlen = READ_ONCE(hif->encap_remlen) & HM_IOAM_TRACE_REMLEN_MASK;
	enc->e2e_type = READ_ONCE(hif->encap_e2e_type) & HOPMARK_E2E_TYPE_MASK;
	enc->ns = hm_ns_lookup_rcu(pkt->hn, enc->ns_id);
	if (!enc->ns) {
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_UNKNOWN_NS);
		return false;
	}
	err = hm_hbh_find_ioam(skb, ioam_type, enc->ns_id, &found);
	if (!err)
		return false;
	if (err == -EBADMSG) {
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_MALFORMED);
		return false;
	}

	oh->opt_type = HM_IPV6_TLV_IOAM;
	oh->opt_len = 0;
	oh->reserved = 0;
	oh->ioam_type = ioam_type;
	put_unaligned_be16(enc->ns_id, tlv + HM_IOAM_OPT_HDR_LEN);
	return true;
}

/**
 * hm_encap_insert() - insert the option an encapsulating node built
 * @pkt: packet context (POST_ROUTING hook)
 * @skb: the packet
 * @tlv: the option from hm_encap_begin(), complete but for its Opt Data Len
 * @len: bytes at @tlv, a multiple of 4, at most 2 + HM_IPV6_TLV_DATA_MAX
 * @cnt_inserted: counter of a successful insertion (HOPMARK_CNT_*_ENCAP)
 *
 * Step 6 of the file comment: writes Opt Data Len, adds the option to the
 * Hop-by-Hop header (hm_hbh_add_option()) and counts @cnt_inserted, or
 * _MTU (the packet goes without it), _HBH_LIMIT (the packet goes without
 * it: with it, the header would break a limit of ip6_parse_tlv() and the
 * next Linux node would drop the packet, e.g. a 9th option),
 * _MALFORMED or _ERROR, the packet then unchanged.
 */
void hm_encap_insert(struct hm_pkt *pkt, struct sk_buff *skb, u8 *tlv,
		     unsigned int len, int cnt_inserted)
{
	int err;

	((struct hm_ioam6_opt_hdr *)tlv)->opt_len = len - HM_IPV6_TLV_HDR_LEN;
	err = hm_hbh_add_option(skb, tlv, len);
	if (!err)
		hm_count(pkt->hn, pkt->out_if, cnt_inserted);
	else if (err == -EMSGSIZE)
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_MTU);
	else if (err == -ERANGE)
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_HBH_LIMIT);
	else if (err == -EBADMSG)
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_MALFORMED);
	else
		hm_count(pkt->hn, pkt->out_if, HOPMARK_CNT_ERROR);
}
