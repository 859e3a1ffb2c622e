/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ioam_node.bpf.h - this node's IOAM data (RFC 9197 §4.4.2): where each
 * value comes from, and its wire encoding.
 *
 * The encoder, hm_node_encode_seq(), produces the same bytes as
 * hm_ioam6_node_data_encode() of lib/ioam/ioam6.h, with a cursor that
 * advances the same way whether a field was written or not (so that all
 * Trace-Types verify as a single path), one 4-byte store per word at a
 * masked offset, straight into an unaligned scratch copy.
 */
#ifndef __HM_IOAM_NODE_BPF_H
#define __HM_IOAM_NODE_BPF_H

#include "ioam_parse.bpf.h"

static __always_inline void hm_wr8(__u8 *buf, __u32 off, __u32 v)
{
	buf[off & HM_SCRATCH_MASK] = v;
}

static __always_inline void hm_wr32(__u8 *buf, __u32 off, __u32 v)
{
	hm_wr8(buf, off, v >> 24);
	hm_wr8(buf, off + 1, v >> 16);
	hm_wr8(buf, off + 2, v >> 8);
	hm_wr8(buf, off + 3, v);
}

/*
 * hm_wr32_be() - @v big-endian at byte @off of @buf in one store. The
 * offset is masked like hm_wr8()'s; the store may be unaligned, which the
 * verifier accepts where the CPU handles it (it rejects it under
 * BPF_F_STRICT_ALIGNMENT, which hopmark's loaders never set).
 */
static __always_inline void hm_wr32_be(__u8 *buf, __u32 off, __u32 v)
{
	*(__u32 *)&buf[off & HM_SCRATCH_MASK] = bpf_htonl(v);
}

/*
 * hm_seq_step() - words field @bit of @tt takes (0, 1 or @w), computed
 * behind a compiler barrier so that the cursor of hm_node_encode_seq()
 * advances the same way whether the field's store was taken or not: the
 * verifier then sees one state after every field, whatever the Trace-Type.
 */
static __always_inline __u32 hm_seq_step(__u32 tt, __u32 bit, __u32 w)
{
	__u32 p = (tt >> (23 - bit)) & 1;

	asm volatile("" : "+r"(p));
	return p * w * 4;
}

/**
 * hm_node_encode_seq() - write one node's data (RFC 9197 §4.4.2)
 * @buf:	buffer of at least HM_SCRATCH_LEN + 4 bytes (offsets are masked)
 * @base:	offset of the node's slot in @buf
 * @tt:		24-bit IOAM-Trace-Type, host order
 * @v:		the values, host order, unavailable ones all-ones
 *
 * Fields in bit order, big-endian; bits 12-21 are 0xffffffff (§4.4.1);
 * bit 22 is an opaque state snapshot header with @v->opaque_len words and
 * @v->opaque_schema and no snapshot data; bit 23 is ignored. One 4-byte
 * store per word at an offset that is a running sum (instead of two
 * population counts per field); groups of bits the Trace-Type does not
 * carry are skipped whole.
 *
 * Return: bytes written, hm_tt_slot_len(@tt).
 */
static __always_inline __u32 hm_node_encode_seq(__u8 *buf, __u32 base, __u32 tt,
						const struct hm_ioam6_node_values *v)
{
	__u32 c = base, k;

	if (tt & 0xff0000U) {
		if (tt & HM_IOAM_TT_HOPLIM_NODEID)
			hm_wr32_be(buf, c, ((__u32)v->hop_limit << 24) |
					   (v->node_id & 0xffffff));
		c += hm_seq_step(tt, 0, 1);
		if (tt & HM_IOAM_TT_IF_IDS)
			hm_wr32_be(buf, c, ((__u32)v->ingress_if << 16) | v->egress_if);
		c += hm_seq_step(tt, 1, 1);
		if (tt & HM_IOAM_TT_TS_SEC)
			hm_wr32_be(buf, c, v->ts_sec);
		c += hm_seq_step(tt, 2, 1);
		if (tt & HM_IOAM_TT_TS_FRAC)
			hm_wr32_be(buf, c, v->ts_frac);
		c += hm_seq_step(tt, 3, 1);
		if (tt & HM_IOAM_TT_TRANSIT_DELAY)
			hm_wr32_be(buf, c, v->transit_delay);
		c += hm_seq_step(tt, 4, 1);
		if (tt & HM_IOAM_TT_NS_DATA)
			hm_wr32_be(buf, c, v->ns_data);
		c += hm_seq_step(tt, 5, 1);
		if (tt & HM_IOAM_TT_QUEUE_DEPTH)
			hm_wr32_be(buf, c, v->queue_depth);
		c += hm_seq_step(tt, 6, 1);
		if (tt & HM_IOAM_TT_CSUM_COMPL)
			hm_wr32_be(buf, c, v->csum_compl);
		c += hm_seq_step(tt, 7, 1);
	}
	if (tt & 0x00f000U) {
		if (tt & HM_IOAM_TT_HOPLIM_NODEID_WIDE) {
			hm_wr32_be(buf, c, ((__u32)v->hop_limit << 24) |
					   ((__u32)(v->node_id_wide >> 32) & 0xffffff));
			hm_wr32_be(buf, c + 4, (__u32)v->node_id_wide);
		}
		c += hm_seq_step(tt, 8, 2);
		if (tt & HM_IOAM_TT_IF_IDS_WIDE) {
			hm_wr32_be(buf, c, v->ingress_if_wide);
			hm_wr32_be(buf, c + 4, v->egress_if_wide);
		}
		c += hm_seq_step(tt, 9, 2);
		if (tt & HM_IOAM_TT_NS_DATA_WIDE) {
			hm_wr32_be(buf, c, (__u32)(v->ns_data_wide >> 32));
			hm_wr32_be(buf, c + 4, (__u32)v->ns_data_wide);
		}
		c += hm_seq_step(tt, 10, 2);
		if (tt & HM_IOAM_TT_BUFFER_OCC)
			hm_wr32_be(buf, c, v->buffer_occupancy);
		c += hm_seq_step(tt, 11, 1);
	}
	if (tt & HM_IOAM_TT_UNDEFINED_MASK) {
#pragma unroll
		for (k = 12; k < 22; k++) {
			if (tt & HM_IOAM_TT_BIT(k))
				hm_wr32_be(buf, c, HM_IOAM_U32_UNAVAILABLE);
			c += hm_seq_step(tt, k, 1);
		}
	}
	if (tt & HM_IOAM_TT_OPAQUE)
		hm_wr32_be(buf, c, ((__u32)v->opaque_len << 24) |
				   (v->opaque_schema & 0xffffff));
	return hm_tt_slot_len(tt);
}

/**
 * hm_queue_state_at() - queue state of @ifindex if recent enough at @mono
 * @ifindex:	interface, 0 for the node totals alone
 * @node:	this node's configuration (qdepth_max_age_ns)
 * @mono:	CLOCK_MONOTONIC ns the reading's age is judged at
 * @qs:		set to a copy of hopmark_qdepth[@ifindex] when fresh
 *
 * hopmarkd samples qdisc backlogs every --qdepth-interval; a reading older
 * than qdepth_max_age_ns (CLOCK_MONOTONIC) at @mono no longer describes the
 * queue this packet sees and is not used. Queue depth (@qs->backlog_bytes,
 * RFC 9197 §4.4.2.7) and buffer occupancy (@qs->node_backlog_bytes,
 * §4.4.2.12) come from one copied entry, so a slot never mixes two
 * readings. A reading newer than @mono is fresh.
 *
 * Return: 1 if @qs was set, 0 otherwise.
 */
static __always_inline int hm_queue_state_at(__u32 ifindex, const struct hopmark_node_cfg *node,
					     __u64 mono, struct hopmark_qdepth *qs)
{
	struct hopmark_qdepth *q = bpf_map_lookup_elem(&hopmark_qdepth, &ifindex);

	if (!q || !node || !q->updated_ns)
		return 0;
	*qs = *q;
	if (mono > qs->updated_ns && mono - qs->updated_ns > node->qdepth_max_age_ns)
		return 0;
	return 1;
}

/**
 * hm_queue_state() - hm_queue_state_at() now (bpf_ktime_get_ns())
 * @ifindex:	interface, 0 for the node totals alone
 * @node:	this node's configuration (qdepth_max_age_ns)
 * @qs:		set to a copy of hopmark_qdepth[@ifindex] when fresh
 *
 * Return: 1 if @qs was set, 0 otherwise.
 */
static __always_inline int hm_queue_state(__u32 ifindex, const struct hopmark_node_cfg *node,
					  struct hopmark_qdepth *qs)
{
	return hm_queue_state_at(ifindex, node, bpf_ktime_get_ns(), qs);
}

/**
 * hm_queue_state_tick() - hm_queue_state_at() at the last tick
 * @ifindex:	interface, 0 for the node totals alone
 * @node:	this node's configuration (qdepth_max_age_ns)
 * @qs:		set to a copy of hopmark_qdepth[@ifindex] when fresh
 *
 * The age is judged against CLOCK_MONOTONIC_COARSE
 * (bpf_ktime_get_coarse_ns(): the time of the last tick, no clock source
 * read, as pbt_queue_state() of hopmark_pbt.bpf.c), so up to one tick (1-10
 * ms) short, against qdepth_max_age_ns of 1 s by default. For the transit
 * halves, whose other clock reading is CLOCK_TAI (the timestamps, the
 * transit delay), a clock the reading's CLOCK_MONOTONIC time cannot be
 * compared with. A qdepth_max_age_ns of 0 still makes no reading fresh
 * (Documentation/agent.rst, *Freshness*), one of the current tick
 * included.
 *
 * Return: 1 if @qs was set, 0 otherwise.
 */
static __always_inline int hm_queue_state_tick(__u32 ifindex, const struct hopmark_node_cfg *node,
					       struct hopmark_qdepth *qs)
{
	if (!node || !node->qdepth_max_age_ns)
		return 0;
	return hm_queue_state_at(ifindex, node, bpf_ktime_get_coarse_ns(), qs);
}

/**
 * hm_node_values_for() - values a node knows without its interfaces,
 *			   for the fields @tt carries
 * @v:		output
 * @node:	hopmark_node[0]
 * @ns:		the trace's IOAM-Namespace configuration
 * @hop_limit:	Hop_Lim to write (§4.4.2.1)
 * @tt:		24-bit IOAM-Trace-Type the values are for, host order
 * @now_ns:	POSIX time in ns (hm_now_posix_ns()); read only when @tt has
 *		bit 2 or 3
 *
 * Timestamps are POSIX seconds and microseconds, as Linux writes them
 * (§4.4.2.3-4: the fraction's unit is left to the implementation).
 * Interface IDs, transit delay and queue depth start unavailable; the
 * checksum complement is never available (the Hop-by-Hop header is not
 * covered by upper-layer checksums); buffer occupancy is the node total
 * backlog, hopmark_qdepth[0], when fresh at the last tick
 * (hm_queue_state_tick(); the egress hooks overwrite it with the total of
 * the reading they take queue depth from); the opaque
 * state snapshot is empty (length 0, Schema ID 0xffffff). The clock is not
 * divided and hopmark_qdepth[0] is not looked up unless @tt carries the
 * timestamps (bits 2-3) or buffer occupancy (bit 11). Fields @tt does not
 * carry are left all-ones.
 */
static __always_inline void hm_node_values_for(struct hm_ioam6_node_values *v,
					       const struct hopmark_node_cfg *node,
					       const struct hopmark_ns_cfg *ns,
					       __u8 hop_limit, __u32 tt, __u64 now_ns)
{
	struct hopmark_qdepth qs;

	__builtin_memset(v, 0xff, sizeof(*v));
	v->hop_limit = hop_limit;
	v->opaque_len = 0;
	v->opaque_schema = HM_IOAM_U24_UNAVAILABLE;
	v->node_id = HM_IOAM_U24_UNAVAILABLE;
	v->node_id_wide = HM_IOAM_U56_UNAVAILABLE;
	if (node && (node->flags & HM_NODE_F_ID))
		v->node_id = node->node_id & HM_IOAM_U24_UNAVAILABLE;
	if (node && (node->flags & HM_NODE_F_ID_WIDE))
		v->node_id_wide = node->node_id_wide & HM_IOAM_U56_UNAVAILABLE;
	if (tt & (HM_IOAM_TT_TS_SEC | HM_IOAM_TT_TS_FRAC)) {
		__u64 sec = now_ns / 1000000000ULL;

		/* One 64-bit division; the rest of a second fits 32 bits. */
		v->ts_sec = sec;
		v->ts_frac = (__u32)(now_ns - sec * 1000000000ULL) / 1000;
	}
	if (ns && (ns->flags & HM_NS_F_DATA))
		v->ns_data = ns->data;
	if (ns && (ns->flags & HM_NS_F_DATA_WIDE))
		v->ns_data_wide = ns->data_wide;
	if ((tt & HM_IOAM_TT_BUFFER_OCC) && hm_queue_state_tick(0, node, &qs))
		v->buffer_occupancy = qs.node_backlog_bytes;
}

/**
 * hm_if_ids() - short and wide IOAM interface IDs of @ifindex
 *
 * No hopmark_ifcfg entry, hm_if_cfg() (or @ifindex 0): unavailable, 0xffff and
 * 0xffffffff (§4.4.2.2, §4.4.2.10).
 */
static __always_inline void hm_if_ids(__u32 ifindex, __u16 *id, __u32 *wide)
{
	struct hopmark_if_cfg *c = ifindex ? hm_if_cfg(ifindex) : 0;

	*id = c ? c->if_id : HM_IOAM_U16_UNAVAILABLE;
	*wide = c ? c->if_id_wide : HM_IOAM_U32_UNAVAILABLE;
}

#endif /* __HM_IOAM_NODE_BPF_H */
