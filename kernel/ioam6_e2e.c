// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioam6_e2e.c - IOAM Edge-to-Edge option (RFC 9197 §4.6, Option-Type 3) in
 * the IPv6 Hop-by-Hop Options header (RFC 9486)
 *
 * Wire format after the 4-octet IOAM option header (RFC 9486 §2):
 *
 *   Namespace-ID (16) | IOAM-E2E-Type (16) | E2E data ...
 *
 * E2E-Type bit 0 (0x8000): 64-bit Sequence Number; bit 1 (0x4000): 32-bit
 * Sequence Number; bit 2 (0x2000): timestamp seconds (32); bit 3 (0x1000):
 * timestamp subseconds (32); data in that order, network byte order. Bits
 * 4-15 are undefined: written as 0, ignored on receipt. Timestamps use the
 * POSIX format of RFC 9197 §5 (seconds, microseconds), like Linux's IOAM.
 *
 * The encapsulating node numbers packets per flow (hm_flow_next_seq()); the
 * decapsulating node reports the option (HOPMARK_EVENT_E2E) and removes it,
 * so nothing the domain added leaves it (RFC 9197 §5.1).
 */
#include "hopmark_dp.h"

/**
 * hm_e2e_encap() - the encapsulating node inserts an E2E option
 * @pkt: packet context (POST_ROUTING hook, @pkt->out_if configured)
 * @skb: the packet
 *
 * Namespace and E2E-Type of the egress interface (HOPMARK_ATTR_IF_ENCAP_NS,
 * _E2E_TYPE), after hm_encap_begin(). The Sequence Number counts the
 * packets of the flow from 0; the timestamp is the time the packet passes
 * this hook. Counted by hm_encap_begin() and hm_encap_insert():
 * _E2E_ENCAP, _UNKNOWN_NS, _MTU (sent without the option), _MALFORMED,
 * _ERROR.
 */
void hm_e2e_encap(struct hm_pkt *pkt, struct sk_buff *skb)
{
	/* 20: hm_ioam6_e2e_data_len() of every defined E2E-Type bit */
	u8 tlv[HM_IOAM_OPT_HDR_LEN + HM_IOAM_E2E_HDR_LEN + 20];
	struct hm_ioam6_e2e_hdr *e2e;
	struct hm_encap enc;
	unsigned int len;
	u32 seq = 0;

	if (!hm_encap_begin(pkt, skb, HM_IOAM_OPT_E2E, &enc, tlv))
		return;
	if (enc.e2e_type & (HM_IOAM_E2E_SEQ64 | HM_IOAM_E2E_SEQ32))
		seq = hm_flow_next_seq(pkt->flows, HM_SEQ_E2E, hm_flow_id(skb));

	e2e = (struct hm_ioam6_e2e_hdr *)(tlv + HM_IOAM_OPT_HDR_LEN);
	e2e->e2e_type = cpu_to_be16(enc.e2e_type);
	len = HM_IOAM_OPT_HDR_LEN + HM_IOAM_E2E_HDR_LEN;
	if (enc.e2e_type & HM_IOAM_E2E_SEQ64) {
		put_unaligned_be64(seq, tlv + len);
		len += 8;
	}
	if (enc.e2e_type & HM_IOAM_E2E_SEQ32) {
		put_unaligned_be32(seq, tlv + len);
		len += 4;
	}
	if (enc.e2e_type & HM_IOAM_E2E_TS_SEC) {
		put_unaligned_be32(div_u64(pkt->now_ns, NSEC_PER_SEC), tlv + len);
		len += 4;
	}
	if (enc.e2e_type & HM_IOAM_E2E_TS_FRAC) {
		u32 rem;

		div_u64_rem(pkt->now_ns, NSEC_PER_SEC, &rem);
		put_unaligned_be32(rem / NSEC_PER_USEC, tlv + len);
		len += 4;
	}
	hm_encap_insert(pkt, skb, tlv, len, HOPMARK_CNT_E2E_ENCAP);
}

/**
 * hm_e2e_decap() - the decapsulating node reads and removes the E2E option
 * @pkt: packet context (PRE_ROUTING hook, @pkt->in_if has E2E_DECAP)
 * @skb: the packet
 *
 * For the first E2E option of the Hop-by-Hop header: an unknown
 * IOAM-Namespace leaves it in place (_UNKNOWN_NS); data shorter than its
 * E2E-Type selects leaves it in place (_MALFORMED). Otherwise one
 * HOPMARK_EVENT_E2E record carries the option as received and its Sequence
 * Number (the low 32 bits; the 32-bit one when both are present), and the
 * option is removed (_E2E_DECAP; the whole Hop-by-Hop header when nothing
 * else is in it).
 */
void hm_e2e_decap(struct hm_pkt *pkt, struct sk_buff *skb)
{
	const struct hm_ioam6_e2e_hdr *e2e;
	struct hm_event ev = {};
	struct hm_ioam_opt opt;
	unsigned int off;
	u16 ns_id, e2e_type;
	const u8 *p;
	int err;

	err = hm_hbh_find_ioam(skb, HM_IOAM_OPT_E2E, -1, &opt);
	if (err) {
		if (err == -EBADMSG)
			hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_MALFORMED);
		return;
	}
	p = skb->data + opt.off;
	if (opt.len < HM_IOAM_OPT_HDR_LEN + HM_IOAM_E2E_HDR_LEN ||
	    opt.len > HOPMARK_REC_OPTION_MAX) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_MALFORMED);
		return;
	}
	e2e = (const struct hm_ioam6_e2e_hdr *)(p + HM_IOAM_OPT_HDR_LEN);
	ns_id = get_unaligned_be16(&e2e->namespace_id);
	e2e_type = get_unaligned_be16(&e2e->e2e_type);
	if (!hm_ns_lookup_rcu(pkt->hn, ns_id)) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_UNKNOWN_NS);
		return;
	}
	if (opt.len < HM_IOAM_OPT_HDR_LEN + HM_IOAM_E2E_HDR_LEN +
		      hm_ioam6_e2e_data_len(e2e_type)) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_MALFORMED);
		return;
	}

	ev.type = HOPMARK_EVENT_E2E;
	ev.flags = HM_EV_F_NS;
	ev.ifindex = pkt->in->ifindex;
	ev.ns_id = ns_id;
	ev.tstamp_ns = pkt->now_ns;
	off = HM_IOAM_OPT_HDR_LEN + HM_IOAM_E2E_HDR_LEN;
	if (e2e_type & HM_IOAM_E2E_SEQ64) {
		ev.seq = get_unaligned_be32(p + off + 4);
		ev.flags |= HM_EV_F_SEQ;
		off += 8;
	}
	if (e2e_type & HM_IOAM_E2E_SEQ32) {
		ev.seq = get_unaligned_be32(p + off);
		ev.flags |= HM_EV_F_SEQ;
	}
	ev.option = p;
	ev.option_len = opt.len;
	ev.skb = skb;
	hm_event_queue(pkt->hn, &ev);

	if (hm_hbh_del_option(skb, &opt))
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_ERROR);
	else
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_E2E_DECAP);
}
