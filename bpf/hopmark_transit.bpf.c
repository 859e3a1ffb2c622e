// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_transit.bpf.c - IOAM transit node (RFC 9197 §4.4, RFC 9486) in
 * two halves.
 *
 * hm_transit_in (XDP, ingress interface) does what Linux's IOAM transit
 * does on input: it fills this node's slot of the Pre-allocated Trace with
 * everything known on arrival and lowers RemainingLen. The egress fields
 * (egress interface IDs, transit delay, queue depth) are left unavailable.
 *
 * hm_transit_out (tc egress, egress interface) finds that slot again (the
 * most recent node data, carrying this node's ID and the packet's current
 * Hop Limit) and completes the egress fields. If it does not run, they stay
 * unavailable, which is the truth.
 *
 * Neither program ever drops a packet or touches one it does not fully
 * understand.
 */
#include "ioam_node.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/**
 * hm_transit_in() - write this node's data into an arriving trace
 * @ctx: XDP frame
 *
 * Only on interfaces with %HM_IF_F_TRANSIT (like Linux's ioam6_enabled).
 * Malformed traces, fragments, unknown IOAM-Namespaces and traces whose
 * Overflow flag is set are left untouched and counted; when the slot does
 * not fit in RemainingLen the Overflow flag is set and nothing is written
 * (RFC 9197 §4.4.1).
 *
 * Return: XDP_PASS, always.
 */
SEC("xdp")
int hm_transit_in(struct xdp_md *ctx)
{
	__u32 ifindex = ctx->ingress_ifindex;
	struct hm_ioam6_node_values v;
	struct hopmark_node_cfg *node;
	struct hopmark_if_cfg *ifc;
	struct hopmark_ns_cfg *ns;
	struct hm_trace_loc loc;
	struct hm_scratch *s;
	__u32 blen, slot_len, slot, rem, off, len;
	__u8 hop, byte;

	ifc = hm_if_cfg(ifindex);
	if (!ifc || !(ifc->flags & HM_IF_F_TRANSIT))
		return XDP_PASS;
	s = hm_scratch_get();
	if (!s)
		return XDP_PASS;
	blen = hm_load_hdrs_xdp(ctx, s->pkt);
	if (!blen)
		return XDP_PASS;

	ns = hm_ioam_find(s, blen, HM_PARSE_FIRST_TRACE, &loc, ifindex);
	if (!ns)
		return XDP_PASS;
	if (loc.flags_byte & HM_IOAM_TRACE_F_OVERFLOW) {
		hm_count(ifindex, HM_CNT_TRANSIT_OVERFLOW_SEEN);
		return XDP_PASS;
	}

	slot_len = hm_tt_slot_len(loc.trace_type);
	if (!loc.remlen || loc.remlen * 4 < slot_len) {
		byte = loc.flags_byte | HM_IOAM_TRACE_F_OVERFLOW;
		bpf_xdp_store_bytes(ctx, loc.trace + 2, &byte, 1);
		hm_count(ifindex, HM_CNT_TRANSIT_OVERFLOW);
		return XDP_PASS;
	}

	/* Linux writes the Hop Limit the packet will leave with. */
	hop = HM_B(s->pkt, HM_OFF_IP6_HOPLIM);
	if (hop)
		hop--;
	node = hm_node_cfg();
	hm_node_values_init(&v, node, ns, hop, hm_now_posix_ns(node));
	hm_if_ids(ifindex, &v.ingress_if, &v.ingress_if_wide);

	/* The slot ends where the free space ends (RFC 9197 §4.4). */
	slot = loc.data + loc.remlen * 4 - slot_len;
	hm_node_encode(s->pkt, slot, loc.trace_type, &v);
	rem = loc.remlen - slot_len / 4;
	hm_wr8(s->pkt, loc.trace + 3, (loc.remlen_byte & 0x80) | rem);

	/*
	 * Store the slot, then RemainingLen. Both lengths are constants or
	 * depend on the Trace-Type only, which keeps the verifier's state
	 * pruning effective across the option walk.
	 */
	off = hm_off(slot);
	len = hm_len_1_to(hm_launder(s, slot_len), HM_NODE_BUF_LEN);
	if (bpf_xdp_store_bytes(ctx, off, &s->pkt[off], len)) {
		hm_count(ifindex, HM_CNT_MALFORMED);
		return XDP_PASS;
	}
	off = hm_off(loc.trace + 3);
	bpf_xdp_store_bytes(ctx, off, &s->pkt[off], 1);
	hm_count(ifindex, HM_CNT_TRANSIT_OK);
	return XDP_PASS;
}

/**
 * hm_transit_out() - complete the egress fields of this node's slot
 * @skb: packet on tc egress
 *
 * The slot is the most recent node data (at RemainingLen * 4 in the data
 * area); it is ours if its node_id is this node's and its Hop_Lim is the
 * packet's current Hop Limit (hm_transit_in wrote received - 1 and
 * forwarding decremented the header by one). Its egress fields must still
 * be unavailable. Writes the egress interface IDs, the transit delay (now
 * minus the slot's timestamp: 1 us resolution, never below the true delay)
 * and the egress queue depth when fresh.
 *
 * Return: TC_ACT_OK, always.
 */
SEC("tc")
int hm_transit_out(struct __sk_buff *skb)
{
	struct hopmark_node_cfg *node;
	struct hm_trace_loc loc;
	struct hm_scratch *s;
	__u32 blen, slot, tt, off, len, id, want_id, egress_wide;
	__u32 id_hi = 0, want_hi = 0;
	struct hopmark_qdepth qs;
	__u16 egress_id;
	__u8 hop;
	int wrote = 0;

	if (skb->protocol != bpf_htons(ETH_P_IPV6))
		return TC_ACT_OK;
	s = hm_scratch_get();
	if (!s)
		return TC_ACT_OK;
	blen = hm_load_hdrs_skb(skb, s->pkt);
	if (!blen)
		return TC_ACT_OK;
	/* Malformed traces and fragments were counted on ingress. */
	if (hm_ioam_parse(s, blen, HM_PARSE_FIRST_TRACE, &loc) != HM_P_TRACE)
		return TC_ACT_OK;
	if (!hm_ns_cfg(loc.ns_id))
		return TC_ACT_OK;
	if (loc.flags_byte & HM_IOAM_TRACE_F_OVERFLOW)
		return TC_ACT_OK;
	tt = loc.trace_type;
	if (!(tt & (HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_HOPLIM_NODEID_WIDE)))
		return TC_ACT_OK;	/* a slot we cannot recognise as ours */
	slot = loc.data + loc.remlen * 4;
	if (loc.remlen * 4 + hm_tt_slot_len(tt) > loc.data_len)
		return TC_ACT_OK;	/* no node data yet */

	node = hm_node_cfg();
	hop = HM_B(s->pkt, HM_OFF_IP6_HOPLIM);
	if (tt & HM_IOAM_TT_HOPLIM_NODEID) {
		off = HM_FIELD(slot, tt, 0);
		id = ((__u32)HM_B(s->pkt, off + 1) << 16) |
		     ((__u32)HM_B(s->pkt, off + 2) << 8) | HM_B(s->pkt, off + 3);
		want_id = (node && (node->flags & HM_NODE_F_ID)) ?
			  node->node_id & 0xffffff : HM_IOAM_U24_UNAVAILABLE;
	} else {
		/* Wide format: the whole 56-bit ID, high 24 bits then low 32. */
		off = HM_FIELD(slot, tt, 8);
		id_hi = ((__u32)HM_B(s->pkt, off + 1) << 16) |
			((__u32)HM_B(s->pkt, off + 2) << 8) | HM_B(s->pkt, off + 3);
		id = ((__u32)HM_B(s->pkt, off + 4) << 24) |
		     ((__u32)HM_B(s->pkt, off + 5) << 16) |
		     ((__u32)HM_B(s->pkt, off + 6) << 8) | HM_B(s->pkt, off + 7);
		if (node && (node->flags & HM_NODE_F_ID_WIDE)) {
			want_hi = (node->node_id_wide >> 32) & 0xffffff;
			want_id = (__u32)node->node_id_wide;
		} else {
			want_hi = HM_IOAM_U24_UNAVAILABLE;
			want_id = HM_IOAM_U32_UNAVAILABLE;
		}
	}
	if (HM_B(s->pkt, off) != hop || id != want_id || id_hi != want_hi)
		return TC_ACT_OK;

	hm_if_ids(skb->ifindex, &egress_id, &egress_wide);

	if (tt & HM_IOAM_TT_IF_IDS) {
		off = HM_FIELD(slot, tt, 1) + 2;
		if (HM_B(s->pkt, off) != 0xff || HM_B(s->pkt, off + 1) != 0xff)
			return TC_ACT_OK;	/* already completed */
		hm_wr8(s->pkt, off, egress_id >> 8);
		hm_wr8(s->pkt, off + 1, egress_id);
		wrote = 1;
	}
	if (tt & HM_IOAM_TT_IF_IDS_WIDE) {
		off = HM_FIELD(slot, tt, 9) + 4;
		hm_wr32(s->pkt, off, egress_wide);
		wrote = 1;
	}
	if ((tt & HM_IOAM_TT_TRANSIT_DELAY) && (tt & HM_IOAM_TT_TS_SEC) &&
	    (tt & HM_IOAM_TT_TS_FRAC)) {
		__u32 so = HM_FIELD(slot, tt, 2), fo = HM_FIELD(slot, tt, 3);
		__u64 sec, usec, then, now, d;

		sec = ((__u32)HM_B(s->pkt, so) << 24) | ((__u32)HM_B(s->pkt, so + 1) << 16) |
		      ((__u32)HM_B(s->pkt, so + 2) << 8) | HM_B(s->pkt, so + 3);
		usec = ((__u32)HM_B(s->pkt, fo) << 24) | ((__u32)HM_B(s->pkt, fo + 1) << 16) |
		       ((__u32)HM_B(s->pkt, fo + 2) << 8) | HM_B(s->pkt, fo + 3);
		if (sec != HM_IOAM_U32_UNAVAILABLE && usec < 1000000) {
			then = sec * 1000000000ULL + usec * 1000;
			now = hm_now_posix_ns(node);
			d = now > then ? now - then : 0;
			/*
			 * RFC 9197 §4.4.2.5: the top bit flags an overflow;
			 * 0xfffffffe keeps it distinct from "unavailable".
			 */
			if (d > 0x7fffffff)
				d = 0xfffffffe;
			hm_wr32(s->pkt, HM_FIELD(slot, tt, 4), (__u32)d);
			wrote = 1;
		}
	}
	/* Queue depth and buffer occupancy of one reading (hm_queue_state()). */
	if ((tt & (HM_IOAM_TT_QUEUE_DEPTH | HM_IOAM_TT_BUFFER_OCC)) &&
	    hm_queue_state(skb->ifindex, node, &qs)) {
		if (tt & HM_IOAM_TT_QUEUE_DEPTH)
			hm_wr32(s->pkt, HM_FIELD(slot, tt, 6), qs.backlog_bytes);
		if (tt & HM_IOAM_TT_BUFFER_OCC)
			hm_wr32(s->pkt, HM_FIELD(slot, tt, 11), qs.node_backlog_bytes);
		wrote = 1;
	}
	if (!wrote)
		return TC_ACT_OK;
	off = hm_off(slot);
	len = hm_len_1_to(hm_launder(s, hm_tt_slot_len(tt)), HM_NODE_BUF_LEN);
	if (bpf_skb_store_bytes(skb, off, &s->pkt[off], len, 0))
		return TC_ACT_OK;
	hm_count(skb->ifindex, HM_CNT_TRANSIT_EGRESS_OK);
	return TC_ACT_OK;
}
