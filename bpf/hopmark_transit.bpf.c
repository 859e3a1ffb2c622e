// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_transit.bpf.c - IOAM transit node (RFC 9197 §4.4, RFC 9486) in
 * two halves.
 *
 * hm_transit_in (XDP, ingress interface; or hm_transit_tcin, the same at
 * tc ingress) does what Linux's IOAM transit does on input: it fills this node's slot of the Pre-allocated Trace with
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

/*
 * Test switches, read-only data the loader may set before loading (the
 * verifier then removes the branches they guard; with the defaults below
 * the programs carry no trace of them). selftests/bpf loads a second and a
 * third copy of this object with a fixed clock, one of them with
 * hm_transit_general_only, and checks that both write the same bytes and
 * count the same on every crafted packet.
 */
/* Nonzero: never take the in-place fast path (hm_ioam_fast()). */
const volatile __u32 hm_transit_general_only = 0;
/* Nonzero: the CLOCK_TAI reading, in ns, instead of bpf_ktime_get_tai_ns(). */
const volatile __u64 hm_transit_fixed_tai_ns = 0;

/* Test copies only (hm_transit_fixed_tai_ns set): traces read in place. */
__u64 hm_transit_fast_hits = 0;

/* hm_now_posix_ns(), or the fixed clock of a test copy. */
static __always_inline __u64 hm_transit_now(const struct hopmark_node_cfg *node)
{
	__u64 t;

	if (!hm_transit_fixed_tai_ns)
		return hm_now_posix_ns(node);
	t = hm_transit_fixed_tai_ns;
	if (node)
		t -= (__u64)node->tai_offset_ns;
	return t;
}

/**
 * enum hm_ti_action - what the ingress half does with a trace
 * @HM_TI_OVERFLOW_SEEN:	Overflow flag already set: untouched, counted
 * @HM_TI_OVERFLOW:		no room: the flags octet at trace + 2 of the
 *				copy gets the Overflow flag; store it, count
 * @HM_TI_SLOT:			the node data is in the copy at the slot; store
 *				it, then the RemainingLen octet at trace + 3
 */
enum hm_ti_action {
	HM_TI_OVERFLOW_SEEN,
	HM_TI_OVERFLOW,
	HM_TI_SLOT,
};

/**
 * hm_transit_ingress() - this node's data for an arriving trace
 * @s:		scratch area; the octets to store are written into @s->pkt at
 *		their offsets in the frame
 * @loc:	the trace (hm_ioam_find() or hm_ioam_fast())
 * @ns:		its IOAM-Namespace settings
 * @ifc:	settings of the ingress interface
 * @ifindex:	ingress interface
 * @hop:	IPv6 Hop Limit as received
 * @slot:	set to the offset of the slot for %HM_TI_SLOT
 * @slot_len:	set to its length in bytes, hm_tt_slot_len()
 *
 * The logic both ingress entry points share (RFC 9197 §4.4.1): a trace
 * whose Overflow flag is set is left alone; when the slot does not fit in
 * RemainingLen the Overflow flag is set and nothing else is written;
 * otherwise the slot that ends where the free space ends is filled with
 * what is known on arrival and RemainingLen is lowered. Linux writes the
 * Hop Limit the packet will leave with (received - 1). The clock is read
 * only for Trace-Types with timestamps, the node totals only for buffer
 * occupancy.
 *
 * Return: enum hm_ti_action.
 */
static __always_inline int hm_transit_ingress(struct hm_scratch *s, const struct hm_trace_loc *loc,
					      const struct hopmark_ns_cfg *ns,
					      const struct hopmark_if_cfg *ifc, __u32 ifindex,
					      __u8 hop, __u32 *slot, __u32 *slot_len)
{
	struct hm_ioam6_node_values v;
	struct hopmark_node_cfg *node;
	__u32 tt = loc->trace_type, len, rem;
	__u64 now = 0;

	if (loc->flags_byte & HM_IOAM_TRACE_F_OVERFLOW)
		return HM_TI_OVERFLOW_SEEN;
	len = hm_tt_slot_len(tt);
	if (!loc->remlen || loc->remlen * 4 < len) {
		hm_wr8(s->pkt, loc->trace + 2, loc->flags_byte | HM_IOAM_TRACE_F_OVERFLOW);
		return HM_TI_OVERFLOW;
	}
	if (hop)
		hop--;
	node = hm_node_cfg();
	if (tt & (HM_IOAM_TT_TS_SEC | HM_IOAM_TT_TS_FRAC))
		now = hm_transit_now(node);
	hm_node_values_for(&v, node, ns, hop, tt, now);
	/* As hm_if_ids(): no IDs for ifindex 0. */
	if (ifindex) {
		v.ingress_if = ifc->if_id;
		v.ingress_if_wide = ifc->if_id_wide;
	}

	/* The slot ends where the free space ends (RFC 9197 §4.4). */
	*slot = loc->data + loc->remlen * 4 - len;
	*slot_len = len;
	hm_node_encode_seq(s->pkt, *slot, tt, &v);
	rem = loc->remlen - len / 4;
	hm_wr8(s->pkt, loc->trace + 3, (loc->remlen_byte & 0x80) | rem);
	return HM_TI_SLOT;
}

/**
 * hm_move_in_place() - move @len bytes between the frame and @s->pkt, at
 *			the same offset in both, with direct packet access
 * @data:	first byte of the frame
 * @data_end:	end of its linear part
 * @s:		scratch area
 * @off:	offset, below 1024
 * @len:	bytes, a multiple of 4, at most %HM_NODE_BUF_LEN
 * @to_frame:	constant: from @s->pkt into the frame, else from the frame
 *		into @s->pkt
 *
 * Word loads or stores instead of a load or store helper call, for bytes
 * hm_ioam_fast() found inside the linear part. Into the frame: at tc the
 * verifier's prologue has uncloned the skb first (direct packet writes), as
 * bpf_skb_store_bytes() would; neither touches a checksum (the Hop-by-Hop
 * header is in no L4 checksum, and the helper is called without flags), so
 * the frame ends up with the same bytes. Checked to fit before the first
 * byte is moved: all or nothing.
 *
 * Return: 0, or -1 (nothing moved) when the bytes are not all in the
 * linear part.
 */
static __always_inline int hm_move_in_place(void *data, void *data_end, struct hm_scratch *s,
					    __u32 off, __u32 len, const int to_frame)
{
	__u8 *d;
	__u32 i, *w;

	off &= 0x3ff;
	if ((void *)((__u8 *)data + off) + len > data_end)
		return -1;
#pragma unroll
	for (i = 0; i < HM_NODE_BUF_LEN / 4; i++) {
		if (i * 4 >= len)
			break;
		d = (__u8 *)data + off + i * 4;
		if ((void *)(d + 4) > data_end)
			return -1;	/* checked above: never taken */
		w = (__u32 *)&s->pkt[(off + i * 4) & HM_SCRATCH_MASK];
		if (to_frame)
			*(__u32 *)d = *w;
		else
			*w = *(__u32 *)d;
	}
	return 0;
}

/* hm_move_in_place() from @s->pkt into the frame. */
#define hm_put_in_place(data, data_end, s, off, len) \
	hm_move_in_place(data, data_end, s, off, len, 1)
/* hm_move_in_place() from the frame into @s->pkt. */
#define hm_get_in_place(data, data_end, s, off, len) \
	hm_move_in_place(data, data_end, s, off, len, 0)

/**
 * hm_xdp_put_in_place() - store the slot and the RemainingLen octet
 *			   straight into the frame
 * @data:	first byte of the frame
 * @data_end:	end of its linear part
 * @s:		scratch area holding them at their offsets (hm_transit_ingress())
 * @slot:	offset of the slot
 * @len:	its length in bytes, a multiple of 4, at most %HM_NODE_BUF_LEN
 * @trace:	offset of the trace header
 *
 * For a trace hm_ioam_fast() found, whose Hop-by-Hop header lies in the
 * linear part: word stores (hm_put_in_place()) and one octet instead of two
 * bpf_xdp_store_bytes() or bpf_skb_store_bytes() calls. Everything is
 * checked to fit before the first byte is written, so the frame is either
 * updated whole or not at all.
 *
 * Return: 0, or -1 (nothing written) when it does not fit.
 */
static __always_inline int hm_xdp_put_in_place(void *data, void *data_end, struct hm_scratch *s,
					       __u32 slot, __u32 len, __u32 trace)
{
	__u8 *q;

	trace &= 0x3ff;
	q = (__u8 *)data + trace;
	if ((void *)(q + 4) > data_end || hm_put_in_place(data, data_end, s, slot, len))
		return -1;
	q[3] = s->pkt[(trace + 3) & HM_SCRATCH_MASK];
	return 0;
}

/*
 * The ingress half runs at XDP (hm_transit_in) or at tc ingress
 * (hm_transit_tcin): on a veth, XDP costs the receive path more than the
 * program itself (Documentation/performance-forwarding.rst). One body
 * serves both; @xdp is a constant in each entry point, so each inlined
 * copy keeps only its own hook's loads and stores. Direct packet access
 * is the same for both (at tc the verifier unclones the skb first).
 */
#define hm_in_load_hdrs(ctx, xdp, b) \
	((xdp) ? hm_load_hdrs_xdp((struct xdp_md *)(ctx), b) : \
		 hm_load_hdrs_skb((struct __sk_buff *)(ctx), b))
#define hm_in_store(ctx, xdp, off, from, len) \
	((xdp) ? bpf_xdp_store_bytes((struct xdp_md *)(ctx), off, from, len) : \
		 bpf_skb_store_bytes((struct __sk_buff *)(ctx), off, from, len, 0))

/**
 * hm_transit_in_body() - write this node's data into an arriving trace
 * @ctx:	XDP frame or skb, as @xdp says
 * @xdp:	constant: @ctx is a struct xdp_md, else a struct __sk_buff
 * @ifindex:	the receiving interface
 * @data:	the frame's first octet (ctx->data)
 * @data_end:	the end of what may be read in place (ctx->data_end)
 *
 * Only on interfaces with %HM_IF_F_TRANSIT (like Linux's ioam6_enabled).
 * Malformed traces, fragments, unknown IOAM-Namespaces and traces whose
 * Overflow flag is set are left untouched and counted; when the slot does
 * not fit in RemainingLen the Overflow flag is set and nothing is written
 * (RFC 9197 §4.4.1). The common layout is read in place (hm_ioam_fast());
 * any other goes through the copy and the general walk.
 *
 * Return: XDP_PASS, always (the tc entry point returns TC_ACT_UNSPEC instead).
 */
static __always_inline int hm_transit_in_body(void *ctx, const int xdp, __u32 ifindex,
					      void *data, void *data_end)
{
	struct hopmark_ns_cfg *ns = NULL;
	struct hopmark_if_cfg *ifc;
	struct hm_trace_loc loc;
	struct hm_scratch *s;
	__u32 blen, slot = 0, slot_len = 0, off, len;
	int fast = HM_FAST_GENERAL;
	__u8 hop = 0, byte;

	if (hm_ioam_fast_hbh(data, data_end) == HM_FAST_NOT_HBH)
		return XDP_PASS;
	ifc = hm_if_cfg(ifindex);
	if (!ifc || !(ifc->flags & HM_IF_F_TRANSIT))
		return XDP_PASS;
	s = hm_scratch_get();
	if (!s)
		return XDP_PASS;
	if (!hm_transit_general_only)
		fast = hm_ioam_fast(data, data_end, &loc, &ns, &hop);
	if (hm_transit_fixed_tai_ns && fast == HM_FAST_TRACE)
		__sync_fetch_and_add(&hm_transit_fast_hits, 1);
	if (fast != HM_FAST_TRACE) {
		blen = hm_in_load_hdrs(ctx, xdp, s->pkt);
		if (!blen)
			return XDP_PASS;
		ns = hm_ioam_find(s, blen, HM_PARSE_FIRST_TRACE, &loc, ifindex);
		if (!ns)
			return XDP_PASS;
		hop = HM_B(s->pkt, HM_OFF_IP6_HOPLIM);
	}

	switch (hm_transit_ingress(s, &loc, ns, ifc, ifindex, hop, &slot, &slot_len)) {
	case HM_TI_OVERFLOW_SEEN:
		hm_count(ifindex, HM_CNT_TRANSIT_OVERFLOW_SEEN);
		return XDP_PASS;
	case HM_TI_OVERFLOW:
		off = hm_off(loc.trace + 2);
		byte = s->pkt[off];
		if (fast == HM_FAST_TRACE && (void *)((__u8 *)data + (off & 0x3ff) + 1) <= data_end)
			*((__u8 *)data + (off & 0x3ff)) = byte;
		else
			hm_in_store(ctx, xdp, off, &byte, 1);
		hm_count(ifindex, HM_CNT_TRANSIT_OVERFLOW);
		return XDP_PASS;
	}

	/*
	 * Store the slot, then RemainingLen. Both lengths are constants or
	 * depend on the Trace-Type only, which keeps the verifier's state
	 * pruning effective across the option walk.
	 */
	off = hm_off(slot);
	len = hm_len_1_to(hm_launder(s, slot_len), HM_NODE_BUF_LEN);
	if (fast == HM_FAST_TRACE &&
	    !hm_xdp_put_in_place(data, data_end, s, off, len, loc.trace)) {
		hm_count(ifindex, HM_CNT_TRANSIT_OK);
		return XDP_PASS;
	}
	if (hm_in_store(ctx, xdp, off, &s->pkt[off], len)) {
		hm_count(ifindex, HM_CNT_MALFORMED);
		return XDP_PASS;
	}
	off = hm_off(loc.trace + 3);
	hm_in_store(ctx, xdp, off, &s->pkt[off], 1);
	hm_count(ifindex, HM_CNT_TRANSIT_OK);
	return XDP_PASS;
}

/**
 * hm_transit_in() - the ingress half at XDP (hm_transit_in_body())
 * @ctx: XDP frame
 *
 * Return: XDP_PASS, always.
 */
SEC("xdp")
int hm_transit_in(struct xdp_md *ctx)
{
	return hm_transit_in_body(ctx, 1, ctx->ingress_ifindex, (void *)(long)ctx->data,
				  (void *)(long)ctx->data_end);
}

/**
 * hm_transit_tcin() - the ingress half at tc ingress (hm_transit_in_body())
 * @skb: packet on tc ingress
 *
 * The same work as hm_transit_in(), for devices where XDP costs more than
 * it saves (veth: hm_transit_in_role() in lib/common/bpf_attach.h). Its
 * section is "classifier", libbpf's other name of a tc program, so that
 * stock tc's "sec tc" still finds hm_transit_out alone; stock tc attaches
 * this one with "sec classifier".
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("classifier")
int hm_transit_tcin(struct __sk_buff *skb)
{
	hm_transit_in_body(skb, 0, skb->ingress_ifindex, (void *)(long)skb->data,
			   (void *)(long)skb->data_end);
	return TC_ACT_UNSPEC;
}

/**
 * hm_transit_egress() - complete the egress fields of this node's slot
 * @s:		scratch area holding the slot at its offset in the frame
 * @loc:	the trace
 * @hop:	the packet's current IPv6 Hop Limit
 * @ifindex:	egress interface
 *
 * See hm_transit_out(). Writes into @s->pkt; the clock is read only when
 * the transit delay is written, hopmark_qdepth looked up only for queue
 * depth or buffer occupancy, hopmark_ifcfg only for interface IDs.
 *
 * Return: 1 if the slot in @s->pkt is to be stored, 0 if it is not ours
 * or there is nothing to write.
 */
static __always_inline int hm_transit_egress(struct hm_scratch *s, const struct hm_trace_loc *loc,
					     __u8 hop, __u32 ifindex)
{
	__u32 tt = loc->trace_type, slot, off, id, want_id, egress_wide;
	__u32 o_if, o_sec, o_qd, o_wid, o_wif, o_occ;
	struct hopmark_node_cfg *node;
	__u32 id_hi = 0, want_hi = 0;
	struct hopmark_qdepth qs;
	__u16 egress_id;
	int wrote = 0;

	/*
	 * Offsets of the fields read or written (RFC 9197 §4.4.2: in bit
	 * order), as one running sum: hm_tt_words_before() would take two
	 * population counts per field.
	 */
	slot = loc->data + loc->remlen * 4;
	o_if = slot + hm_seq_step(tt, 0, 1);
	o_sec = o_if + hm_seq_step(tt, 1, 1);
	o_qd = o_sec + hm_seq_step(tt, 2, 1) + hm_seq_step(tt, 3, 1) +
	       hm_seq_step(tt, 4, 1) + hm_seq_step(tt, 5, 1);
	o_wid = o_qd + hm_seq_step(tt, 6, 1) + hm_seq_step(tt, 7, 1);
	o_wif = o_wid + hm_seq_step(tt, 8, 2);
	o_occ = o_wif + hm_seq_step(tt, 9, 2) + hm_seq_step(tt, 10, 2);
	node = hm_node_cfg();
	if (tt & HM_IOAM_TT_HOPLIM_NODEID) {
		off = slot;
		id = ((__u32)HM_B(s->pkt, off + 1) << 16) |
		     ((__u32)HM_B(s->pkt, off + 2) << 8) | HM_B(s->pkt, off + 3);
		want_id = (node && (node->flags & HM_NODE_F_ID)) ?
			  node->node_id & 0xffffff : HM_IOAM_U24_UNAVAILABLE;
	} else {
		/* Wide format: the whole 56-bit ID, high 24 bits then low 32. */
		off = o_wid;
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
		return 0;

	if (tt & (HM_IOAM_TT_IF_IDS | HM_IOAM_TT_IF_IDS_WIDE))
		hm_if_ids(ifindex, &egress_id, &egress_wide);
	if (tt & HM_IOAM_TT_IF_IDS) {
		off = o_if + 2;
		if (HM_B(s->pkt, off) != 0xff || HM_B(s->pkt, off + 1) != 0xff)
			return 0;	/* already completed */
		hm_wr8(s->pkt, off, egress_id >> 8);
		hm_wr8(s->pkt, off + 1, egress_id);
		wrote = 1;
	}
	if (tt & HM_IOAM_TT_IF_IDS_WIDE) {
		hm_wr32_be(s->pkt, o_wif + 4, egress_wide);
		wrote = 1;
	}
	if ((tt & HM_IOAM_TT_TRANSIT_DELAY) && (tt & HM_IOAM_TT_TS_SEC) &&
	    (tt & HM_IOAM_TT_TS_FRAC)) {
		__u32 so = o_sec, fo = so + 4;
		__u64 sec, usec, then, now, d;

		sec = ((__u32)HM_B(s->pkt, so) << 24) | ((__u32)HM_B(s->pkt, so + 1) << 16) |
		      ((__u32)HM_B(s->pkt, so + 2) << 8) | HM_B(s->pkt, so + 3);
		usec = ((__u32)HM_B(s->pkt, fo) << 24) | ((__u32)HM_B(s->pkt, fo + 1) << 16) |
		       ((__u32)HM_B(s->pkt, fo + 2) << 8) | HM_B(s->pkt, fo + 3);
		if (sec != HM_IOAM_U32_UNAVAILABLE && usec < 1000000) {
			then = sec * 1000000000ULL + usec * 1000;
			now = hm_transit_now(node);
			d = now > then ? now - then : 0;
			/*
			 * RFC 9197 §4.4.2.5: the top bit flags an overflow;
			 * 0xfffffffe keeps it distinct from "unavailable".
			 */
			if (d > 0x7fffffff)
				d = 0xfffffffe;
			hm_wr32_be(s->pkt, fo + 4, (__u32)d);
			wrote = 1;
		}
	}
	/*
	 * Queue depth and buffer occupancy of one reading, its age judged at
	 * the last tick: no second clock read (hm_queue_state_tick()).
	 */
	if ((tt & (HM_IOAM_TT_QUEUE_DEPTH | HM_IOAM_TT_BUFFER_OCC)) &&
	    hm_queue_state_tick(ifindex, node, &qs)) {
		if (tt & HM_IOAM_TT_QUEUE_DEPTH)
			hm_wr32_be(s->pkt, o_qd, qs.backlog_bytes);
		if (tt & HM_IOAM_TT_BUFFER_OCC)
			hm_wr32_be(s->pkt, o_occ, qs.node_backlog_bytes);
		wrote = 1;
	}
	return wrote;
}

/* Trace-Type bits whose fields hm_transit_egress() may write. */
#define HM_TRANSIT_EGRESS_BITS	(HM_IOAM_TT_IF_IDS | HM_IOAM_TT_IF_IDS_WIDE | \
				 HM_IOAM_TT_TRANSIT_DELAY | HM_IOAM_TT_QUEUE_DEPTH | \
				 HM_IOAM_TT_BUFFER_OCC)

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
 * and the egress queue depth when fresh. The common layout is read in
 * place: only the slot is copied into the scratch area, edited there and
 * written back with direct packet writes (hm_put_in_place(); the verifier
 * unclones a cloned skb first). Any other goes through the general walk
 * and bpf_skb_store_bytes(), with the same bytes as the outcome.
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("tc")
int hm_transit_out(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *data_end = (void *)(long)skb->data_end;
	struct hopmark_ns_cfg *ns = NULL;
	struct hm_trace_loc loc;
	struct hm_scratch *s;
	__u32 blen, slot, tt, off, len;
	int fast = HM_FAST_GENERAL;
	__u8 hop = 0;

	if (skb->protocol != bpf_htons(ETH_P_IPV6))
		return TC_ACT_UNSPEC;
	if (hm_ioam_fast_hbh(data, data_end) == HM_FAST_NOT_HBH)
		return TC_ACT_UNSPEC;
	/* Beyond the maps' ifindex bound: not ours (hopmark_maps.h). */
	if (skb->ifindex >= HM_MAX_IFINDEX)
		return TC_ACT_UNSPEC;
	s = hm_scratch_get();
	if (!s)
		return TC_ACT_UNSPEC;
	if (!hm_transit_general_only)
		fast = hm_ioam_fast(data, data_end, &loc, &ns, &hop);
	if (hm_transit_fixed_tai_ns && fast == HM_FAST_TRACE)
		__sync_fetch_and_add(&hm_transit_fast_hits, 1);
	if (fast != HM_FAST_TRACE) {
		blen = hm_load_hdrs_skb(skb, s->pkt);
		if (!blen)
			return TC_ACT_UNSPEC;
		/* Malformed traces and fragments were counted on ingress. */
		if (hm_ioam_parse(s, blen, HM_PARSE_FIRST_TRACE, &loc) != HM_P_TRACE)
			return TC_ACT_UNSPEC;
		if (!hm_ns_cfg(loc.ns_id))
			return TC_ACT_UNSPEC;
		hop = HM_B(s->pkt, HM_OFF_IP6_HOPLIM);
	}
	if (loc.flags_byte & HM_IOAM_TRACE_F_OVERFLOW)
		return TC_ACT_UNSPEC;
	tt = loc.trace_type;
	if (!(tt & (HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_HOPLIM_NODEID_WIDE)))
		return TC_ACT_UNSPEC;	/* a slot we cannot recognise as ours */
	if (!(tt & HM_TRANSIT_EGRESS_BITS))
		return TC_ACT_UNSPEC;	/* no field the egress half writes */
	if (loc.remlen * 4 + hm_tt_slot_len(tt) > loc.data_len)
		return TC_ACT_UNSPEC;	/* no node data yet */
	slot = loc.data + loc.remlen * 4;
	off = hm_off(slot);
	len = hm_len_1_to(hm_launder(s, hm_tt_slot_len(tt)), HM_NODE_BUF_LEN);
	/* In place, only the slot is needed in the copy. */
	if (fast == HM_FAST_TRACE && hm_get_in_place(data, data_end, s, off, len) &&
	    bpf_skb_load_bytes(skb, off, &s->pkt[off], len))
		return TC_ACT_UNSPEC;

	if (!hm_transit_egress(s, &loc, hop, skb->ifindex))
		return TC_ACT_UNSPEC;
	/* In place too where it was read in place; else the store helper. */
	if ((fast != HM_FAST_TRACE || hm_put_in_place(data, data_end, s, off, len)) &&
	    bpf_skb_store_bytes(skb, off, &s->pkt[off], len, 0))
		return TC_ACT_UNSPEC;
	hm_count(skb->ifindex, HM_CNT_TRANSIT_EGRESS_OK);
	return TC_ACT_UNSPEC;
}
