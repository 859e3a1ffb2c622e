// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_encap.bpf.c - IOAM encapsulating node (RFC 9197 §4.4, RFC 9486):
 * tc egress program inserting an IOAM Pre-allocated Trace in an IPv6
 * Hop-by-Hop Options header.
 *
 * New Hop-by-Hop header (option at offset 4, trace header 4n-aligned):
 *   [Next Header, Hdr Ext Len][PadN, 0][0x31, Opt Data Len, 0, Option-Type 0]
 *   [trace header, 8][data area, size][PadN to 8n when size % 8 == 4]
 * Existing Hop-by-Hop header: its bytes are kept and the option is
 * appended at its (8n) end, then PadN to 8n; Hdr Ext Len is updated. Only
 * when the result stays within what a Linux receiver accepts
 * (hm_merge_fits_linux()).
 * The Hop-by-Hop header always stays right after the IPv6 header, before
 * any Routing header (RFC 8200 §4.1).
 *
 * A packet without a Hop-by-Hop header, what nearly all traffic is, takes
 * the fast path (hm_encap_fast()): the new header is built by words in
 * scratch memory and leaves in one store together with the IPv6 fields it
 * changes. The general path (hm_encap_general()) builds the same bytes
 * the long way and is the only one that merges into an existing header;
 * hm_encap_general_only makes every packet take it, so that the tests
 * check both paths against the same expected frames.
 */
#include "ioam_node.bpf.h"
#include "skb_copy.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/*
 * Set (by a loader, before load) to send every packet through the general
 * path; the verifier then drops the fast path as dead code. Tests only.
 */
const volatile __u32 hm_encap_general_only = 0;

/*
 * The fast path copies the frame to s->pkt[HM_FB_FRAME], so that the new
 * Hop-by-Hop header (frame offset HM_OFF_HBH) starts 8-aligned in the map
 * value and is zeroed by 8-byte words.
 */
#define HM_FB_FRAME		2
#define HM_FB(off)		(HM_FB_FRAME + (off))
/* IPv6 Payload Length .. end of the IPv6 header: rewritten with the new header. */
#define HM_FB_IP6_TAIL		(HM_OFF_HBH - HM_OFF_IP6_PLEN)
/* Words covering the largest new header, hm_encap_grow(HM_IOAM_TRACE_DATA_MAX, 0). */
#define HM_FB_WORDS		((16 + HM_IOAM_TRACE_DATA_MAX + 4 + 7) / 8)
_Static_assert((HM_FB(HM_OFF_HBH) & 7) == 0, "fast path header not 8-aligned");

/* Bytes the option adds besides the data area (see above). */
static __always_inline __u32 hm_encap_grow(__u32 size, int merge)
{
	if (merge)
		return 12 + size + ((size & 7) ? 0 : 4);
	return 16 + size + ((size & 7) ? 4 : 0);
}

/**
 * hm_merge_fits_linux() - whether the merged header passes Linux's checks
 * @loc:	the existing Hop-by-Hop header, walked with %HM_PARSE_ALL
 * @grow:	bytes the merge adds, hm_encap_grow(size, 1)
 *
 * The next Linux node drops a packet whose Hop-by-Hop header (RFC 8200
 * §4.3) breaks one of the limits it applies with default sysctls (see
 * %HM_LINUX_HBH_OPTS_MAX), and nothing counts the loss: the merge must not
 * produce such a header. It adds one option, so the old header may hold
 * at most 7. The option goes at the old header's 8n end, a 4n offset, so
 * no alignment padding is put in front of it: the padding run before it
 * is the old header's trailing run, already in @loc->pad_run_long.
 * The PadN after it (4 bytes) follows a non-padding option and ends the
 * header. So the old header's runs and PadN data must already be valid,
 * and the result must fit the format's 2048 bytes (max_hbh_length is
 * INT_MAX by default).
 *
 * Return: 1 when the merged header is within the limits, 0 otherwise.
 */
static __always_inline int hm_merge_fits_linux(const struct hm_trace_loc *loc, __u32 grow)
{
	return loc->n_opts + 1 <= HM_LINUX_HBH_OPTS_MAX && !loc->pad_run_long &&
	       !loc->padn_nonzero && loc->hbh_len + grow <= HM_HBH_MAX_LEN;
}

/* fe80::/10 (RFC 4291 §2.5.6) */
static __always_inline int hm_ip6_link_local(const __u8 *a)
{
	return a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
}

/**
 * hm_link_scope() - whether the packet belongs to its link only
 * @skb:	the packet
 * @hdr:	its Ethernet and IPv6 headers, copied
 *
 * Multicast or link-local destination (MLD, router discovery), link-local
 * or unspecified source (never forwarded; DAD), and Neighbor Discovery
 * (ICMPv6 types 133-137 right after the IPv6 header, RFC 4861 §4, e.g. a
 * unicast NUD probe from a link-local address to a global one) are not the
 * IOAM domain's routed traffic: the same rule as hopmark.ko's encapsulation.
 *
 * Return: 1 when the packet is never encapsulated, 0 otherwise.
 */
static __always_inline int hm_link_scope(struct __sk_buff *skb, const __u8 *hdr)
{
	const __u8 *src = &hdr[HM_OFF_IP6_SADDR], *dst = &hdr[HM_OFF_IP6_DADDR];
	__u64 s_hi, s_lo;
	__u8 type;

	if (dst[0] == 0xff || hm_ip6_link_local(dst) || hm_ip6_link_local(src))
		return 1;
	__builtin_memcpy(&s_hi, src, 8);
	__builtin_memcpy(&s_lo, src + 8, 8);
	if (!s_hi && !s_lo)
		return 1;
	if (hdr[HM_OFF_IP6_NEXTHDR] != HM_IPPROTO_ICMPV6 ||
	    bpf_skb_load_bytes(skb, HM_OFF_HBH, &type, 1))
		return 0;
	return type >= HM_ICMPV6_ND_FIRST && type <= HM_ICMPV6_ND_LAST;
}

/**
 * hm_encap_values() - this node's values for the fields @tt carries
 * @skb:	the packet (egress and ingress interface)
 * @v:		output, host order; fields @tt does not carry are left
 *		unavailable and not looked up
 * @node:	hopmark_node[0]
 * @ns:		the trace's IOAM-Namespace configuration
 * @tt:		24-bit IOAM-Trace-Type, host order
 * @hop_limit:	Hop_Lim to write (§4.4.2.1)
 *
 * The values of hm_node_values_for(), hm_if_ids() and hm_queue_state()
 * (RFC 9197 §4.4.2), but the clock (§4.4.2.3-4), the interface IDs
 * (§4.4.2.2, §4.4.2.10) and the queue readings (§4.4.2.7, §4.4.2.12) are
 * read only when @tt has a field that needs them: each is a helper call or
 * a hash lookup, and a small trace needs none of them.
 */
static __always_inline void hm_encap_values(struct __sk_buff *skb, struct hm_ioam6_node_values *v,
					    const struct hopmark_node_cfg *node,
					    const struct hopmark_ns_cfg *ns, __u32 tt, __u8 hop_limit)
{
	__u32 ifindex = skb->ifindex;
	struct hopmark_qdepth qs;
	__u64 now = 0;

	if (tt & (HM_IOAM_TT_TS_SEC | HM_IOAM_TT_TS_FRAC))
		now = hm_now_posix_ns(node);
	/* The node's own fields as transit writes them; buffer occupancy below. */
	hm_node_values_for(v, node, ns, hop_limit, tt & ~HM_IOAM_TT_BUFFER_OCC, now);
	if (tt & (HM_IOAM_TT_IF_IDS | HM_IOAM_TT_IF_IDS_WIDE)) {
		hm_if_ids(skb->ingress_ifindex, &v->ingress_if, &v->ingress_if_wide);
		hm_if_ids(ifindex, &v->egress_if, &v->egress_if_wide);
	}
	/* The egress reading first; the node total when it is stale or absent. */
	if ((tt & (HM_IOAM_TT_QUEUE_DEPTH | HM_IOAM_TT_BUFFER_OCC)) &&
	    hm_queue_state(ifindex, node, &qs)) {
		v->queue_depth = qs.backlog_bytes;
		v->buffer_occupancy = qs.node_backlog_bytes;
	} else if ((tt & HM_IOAM_TT_BUFFER_OCC) && hm_queue_state(0, node, &qs)) {
		v->buffer_occupancy = qs.node_backlog_bytes;
	}
}

/**
 * hm_encap_own_data() - this node's data in the last slot (RFC 9197 §4.4)
 * @skb:	the packet
 * @blk:	buffer holding the new trace (offsets masked, HM_SCRATCH_LEN)
 * @t:		offset of the trace header in @blk
 * @rule:	the encapsulation rule
 * @size:	data area, bytes
 * @tt:		24-bit IOAM-Trace-Type, host order
 * @hop_limit:	the packet's Hop Limit
 *
 * Only when the IOAM-Namespace is configured on this node, as Linux's
 * IOAM encapsulation does: the slot is written and RemainingLen lowered,
 * or, when one slot does not fit, the Overflow flag is set.
 */
static __always_inline void hm_encap_own_data(struct __sk_buff *skb, __u8 *blk, __u32 t,
					      const struct hopmark_encap_cfg *rule, __u32 size,
					      __u32 tt, __u8 hop_limit)
{
	struct hm_ioam6_node_values v;
	struct hopmark_ns_cfg *ns;
	__u32 slot_len;

	ns = hm_ns_cfg(rule->ns_id);
	if (!ns)
		return;
	slot_len = hm_tt_slot_len(tt);
	if (slot_len <= size && slot_len) {
		hm_encap_values(skb, &v, hm_node_cfg(), ns, tt, hop_limit);
		hm_node_encode_seq(blk, t + 8 + size - slot_len, tt, &v);
		hm_wr8(blk, t + 3, (size - slot_len) / 4);
	} else {
		hm_wr8(blk, t + 2, (hm_tt_nodelen(tt) << 3) | HM_IOAM_TRACE_F_OVERFLOW);
	}
}

/**
 * hm_encap_checks() - size and MTU checks before growing by @grow bytes
 * @skb:	the packet
 * @plen:	its IPv6 Payload Length, host order
 * @total:	length of the Hop-by-Hop header once grown, bytes
 * @grow:	bytes added
 *
 * Counts HM_CNT_ENCAP_ERR (header past the format's 2048 bytes, jumbogram,
 * payload past 65535) or HM_CNT_ENCAP_SKIP_MTU (non-GSO packet past the
 * egress MTU; adjust_room shrinks gso_size of GSO packets instead).
 *
 * Return: 0 when the packet may grow, -1 (counted) otherwise.
 */
static __always_inline int hm_encap_checks(struct __sk_buff *skb, __u32 plen, __u32 total,
					   __u32 grow)
{
	__u32 mtu = 0;

	if (total > HM_HBH_MAX_LEN || !plen || plen + grow > 0xffff) {
		hm_count(skb->ifindex, HM_CNT_ENCAP_ERR);
		return -1;
	}
	/*
	 * A link that carries IPv6 has an MTU of at least 1280 (RFC 8200 §5;
	 * Linux takes IPv6 off a device set below it), so a frame that stays
	 * within that fits any such device and the MTU helper, which compares
	 * skb->len + @grow with the MTU plus the Ethernet header, is asked only
	 * about larger ones.
	 */
	if (skb->len + grow > HM_ETH_HLEN + HM_IPV6_MIN_MTU &&
	    bpf_check_mtu(skb, 0, &mtu, grow, 0)) {
		hm_count(skb->ifindex, HM_CNT_ENCAP_SKIP_MTU);
		return -1;
	}
	return 0;
}

/**
 * hm_encap_fast() - insert the trace in a packet without Hop-by-Hop header
 * @skb:	the packet
 * @s:		scratch; the frame's first HM_OFF_HBH bytes at s->pkt[HM_FB_FRAME]
 * @rule:	the encapsulation rule
 * @size:	data area, bytes, checked (4n, at most HM_IOAM_TRACE_DATA_MAX)
 * @tt:		24-bit IOAM-Trace-Type, host order
 *
 * The new header (layout at the top of this file, RFC 9486 §2.1 4n
 * alignment of the option) is built right after the copied IPv6 header:
 * its words are zeroed, the fixed fields written at constant offsets, and
 * the bytes from the IPv6 Payload Length to the end of the new header go
 * out in a single bpf_skb_store_bytes() after one bpf_skb_adjust_room().
 * The result is byte for byte the general path's (hm_encap_general()).
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
static __always_inline int hm_encap_fast(struct __sk_buff *skb, struct hm_scratch *s,
					 const struct hopmark_encap_cfg *rule, __u32 size, __u32 tt)
{
	__u32 ifindex = skb->ifindex, grow, plen, len, i;
	__u8 *blk = s->pkt, *fh = &s->pkt[HM_FB_FRAME];
	__u64 *w = (__u64 *)&s->pkt[HM_FB(HM_OFF_HBH)];
	const __u32 h = HM_FB(HM_OFF_HBH), t = h + 8;

	grow = hm_encap_grow(size, 0);
	plen = ((__u32)fh[HM_OFF_IP6_PLEN] << 8) | fh[HM_OFF_IP6_PLEN + 1];
	if (hm_encap_checks(skb, plen, grow, grow))
		return TC_ACT_UNSPEC;

	/* Data area pre-allocated as zeros, and the trailing PadN's zeros. */
#pragma unroll
	for (i = 0; i < HM_FB_WORDS; i++)
		w[i] = 0;
	blk[h] = fh[HM_OFF_IP6_NEXTHDR];
	blk[h + 1] = grow / 8 - 1;
	blk[h + 2] = HM_IPV6_TLV_PADN;
	blk[h + 4] = HM_IPV6_TLV_IOAM;
	blk[h + 5] = 10 + size;
	blk[h + 7] = HM_IOAM_OPT_PREALLOC_TRACE;
	blk[t] = rule->ns_id >> 8;
	blk[t + 1] = rule->ns_id;
	blk[t + 2] = hm_tt_nodelen(tt) << 3;
	blk[t + 3] = size / 4;
	blk[t + 4] = tt >> 16;
	blk[t + 5] = tt >> 8;
	blk[t + 6] = tt;
	if (size & 7) {
		hm_wr8(blk, t + 8 + size, HM_IPV6_TLV_PADN);
		hm_wr8(blk, t + 9 + size, 2);
	}
	hm_encap_own_data(skb, blk, t, rule, size, tt, fh[HM_OFF_IP6_HOPLIM]);

	plen += grow;
	fh[HM_OFF_IP6_PLEN] = plen >> 8;
	fh[HM_OFF_IP6_PLEN + 1] = plen;
	fh[HM_OFF_IP6_NEXTHDR] = HM_NEXTHDR_HOP;
	if (bpf_skb_adjust_room(skb, grow, BPF_ADJ_ROOM_NET, 0)) {
		hm_count(ifindex, HM_CNT_ENCAP_ERR);
		return TC_ACT_UNSPEC;
	}
	len = hm_len_1_to(hm_launder(s, HM_FB_IP6_TAIL + grow), HM_SCRATCH_SLACK);
	if (bpf_skb_store_bytes(skb, HM_OFF_IP6_PLEN, &fh[HM_OFF_IP6_PLEN], len, 0)) {
		/* Cannot happen once adjust_room succeeded; take the gap out again. */
		bpf_skb_adjust_room(skb, -(__s32)grow, BPF_ADJ_ROOM_NET, 0);
		hm_count(ifindex, HM_CNT_ENCAP_ERR);
		return TC_ACT_UNSPEC;
	}
	hm_count(ifindex, HM_CNT_ENCAP_OK);
	return TC_ACT_UNSPEC;
}

/**
 * hm_encap_general() - insert the trace, merging into an existing header
 * @skb:	the packet
 * @s:		scratch; the frame's first HM_OFF_HBH bytes at s->pkt[HM_FB_FRAME]
 * @rule:	the encapsulation rule
 * @size:	data area, bytes, checked
 * @tt:		24-bit IOAM-Trace-Type, host order
 *
 * Builds the new header byte by byte in a copy of the frame's headers
 * (the old Hop-by-Hop header's bytes kept in front when there is one),
 * then stores it and the IPv6 fields separately. The counters are the
 * ones listed at hm_encap().
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
static __always_inline int hm_encap_general(struct __sk_buff *skb, struct hm_scratch *s,
					    const struct hopmark_encap_cfg *rule, __u32 size,
					    __u32 tt)
{
	__u32 ifindex = skb->ifindex, blen, nodelen, grow;
	__u32 L = 0, total, optoff, t, i, plen, len;
	struct hm_trace_loc loc;
	__u8 hdr[HM_OFF_HBH];
	__u8 *blk, nexthdr;
	int merge = 0, ret;

	__builtin_memcpy(hdr, &s->pkt[HM_FB_FRAME], sizeof(hdr));
	nexthdr = hdr[HM_OFF_IP6_NEXTHDR];
	if (nexthdr == HM_NEXTHDR_HOP) {
		blen = hm_load_hdrs_skb(skb, s->pkt);
		ret = hm_ioam_parse(s, blen, HM_PARSE_ALL, &loc);
		if (!blen || ret == HM_P_MALFORMED) {
			hm_count(ifindex, HM_CNT_MALFORMED);
			return TC_ACT_UNSPEC;
		}
		if (ret == HM_P_WALK_LIMIT) {
			hm_count(ifindex, HM_CNT_HBH_WALK_LIMIT);
			return TC_ACT_UNSPEC;
		}
		if (loc.hbh_nexthdr == HM_NEXTHDR_FRAGMENT) {
			hm_count(ifindex, HM_CNT_FRAGMENT);
			return TC_ACT_UNSPEC;
		}
		if (loc.ioam_seen) {
			hm_count(ifindex, HM_CNT_ENCAP_ERR);
			return TC_ACT_UNSPEC;
		}
		if (!hm_merge_fits_linux(&loc, hm_encap_grow(size, 1))) {
			hm_count(ifindex, HM_CNT_ENCAP_SKIP_HBH_LIMIT);
			return TC_ACT_UNSPEC;
		}
		merge = 1;
		L = loc.hbh_len;
	} else {
		__builtin_memcpy(s->pkt, hdr, sizeof(hdr));
	}

	grow = hm_encap_grow(size, merge);
	total = L + grow;
	plen = ((__u32)hdr[HM_OFF_IP6_PLEN] << 8) | hdr[HM_OFF_IP6_PLEN + 1];
	if (hm_encap_checks(skb, plen, total, grow))
		return TC_ACT_UNSPEC;

	/* Build the new Hop-by-Hop header in s->pkt at HM_OFF_HBH. */
	blk = s->pkt;
	if (merge) {
		optoff = HM_OFF_HBH + L;
		hm_wr8(blk, HM_OFF_HBH + 1, total / 8 - 1);
	} else {
		optoff = HM_OFF_HBH + 4;
		hm_wr8(blk, HM_OFF_HBH, nexthdr);
		hm_wr8(blk, HM_OFF_HBH + 1, total / 8 - 1);
		hm_wr8(blk, HM_OFF_HBH + 2, HM_IPV6_TLV_PADN);
		hm_wr8(blk, HM_OFF_HBH + 3, 0);
	}
	hm_wr8(blk, optoff, HM_IPV6_TLV_IOAM);
	hm_wr8(blk, optoff + 1, 10 + size);
	hm_wr8(blk, optoff + 2, 0);
	hm_wr8(blk, optoff + 3, HM_IOAM_OPT_PREALLOC_TRACE);
	t = optoff + 4;
	nodelen = hm_tt_nodelen(tt);
	hm_wr8(blk, t, rule->ns_id >> 8);
	hm_wr8(blk, t + 1, rule->ns_id);
	hm_wr8(blk, t + 2, nodelen << 3);
	hm_wr8(blk, t + 3, size / 4);
	hm_wr8(blk, t + 4, tt >> 16);
	hm_wr8(blk, t + 5, tt >> 8);
	hm_wr8(blk, t + 6, tt);
	hm_wr8(blk, t + 7, 0);
	/* Pre-allocated data area: zero (and the trailing PadN's zeros). */
	for (i = 0; i < (HM_IOAM_TRACE_DATA_MAX + 4) / 4; i++)
		hm_wr32(blk, t + 8 + i * 4, 0);
	if ((optoff + 12 + size - HM_OFF_HBH) & 7) {
		hm_wr8(blk, t + 8 + size, HM_IPV6_TLV_PADN);
		hm_wr8(blk, t + 9 + size, 2);
	}
	hm_encap_own_data(skb, blk, t, rule, size, tt, hdr[HM_OFF_IP6_HOPLIM]);

	if (bpf_skb_adjust_room(skb, grow, BPF_ADJ_ROOM_NET, 0)) {
		hm_count(ifindex, HM_CNT_ENCAP_ERR);
		return TC_ACT_UNSPEC;
	}
	/*
	 * adjust_room opened the gap right after the IPv6 header; an old
	 * Hop-by-Hop header now follows the gap and is rewritten in front.
	 */
	len = hm_len_1_to(hm_launder(s, total), HM_HBH_MAX_LEN);
	if (bpf_skb_store_bytes(skb, HM_OFF_HBH, &blk[HM_OFF_HBH], len, 0))
		goto undo;
	plen += grow;
	hdr[HM_OFF_IP6_PLEN] = plen >> 8;
	hdr[HM_OFF_IP6_PLEN + 1] = plen;
	hdr[HM_OFF_IP6_NEXTHDR] = HM_NEXTHDR_HOP;
	if (bpf_skb_store_bytes(skb, HM_OFF_IP6_PLEN, &hdr[HM_OFF_IP6_PLEN], 3, 0))
		goto undo;
	hm_count(ifindex, HM_CNT_ENCAP_OK);
	if (merge)
		hm_count(ifindex, HM_CNT_ENCAP_HBH_MERGED);
	return TC_ACT_UNSPEC;
undo:
	/* Cannot happen once adjust_room succeeded; take the gap out again. */
	bpf_skb_adjust_room(skb, -(__s32)grow, BPF_ADJ_ROOM_NET, 0);
	hm_count(ifindex, HM_CNT_ENCAP_ERR);
	return TC_ACT_UNSPEC;
}

/**
 * hm_encap_filtered_out() - whether no rule can match the destination
 * @skb:	the packet, on an interface with %HM_IF_F_ENCAP
 *
 * The test before the longest-prefix lookup: one inlined array lookup
 * of hopmark_encap_filter and a hash of the destination's first bits
 * (struct hopmark_encap_filter). Trusted only with
 * %HM_ENCAP_FILTER_F_VALID, which libhopmark sets when it computes the
 * bits from all rules; otherwise, and when the destination is not in
 * the linear data, the rules are asked. A frame that is not IPv6 over
 * Ethernet may be passed here too: hm_encap would leave it a few lines
 * later, just as uncounted.
 *
 * Return: 1 when hopmark_encap has no rule for the destination, 0 when
 * it must be asked.
 */
static __always_inline int hm_encap_filtered_out(struct __sk_buff *skb)
{
	const __u8 *data = (const __u8 *)(long)skb->data;
	const __u8 *end = (const __u8 *)(long)skb->data_end;
	struct hopmark_encap_filter *f;
	__u32 zero = 0, bit;
	__u64 hi;

	f = bpf_map_lookup_elem(&hopmark_encap_filter, &zero);
	if (!f || !(f->flags & HM_ENCAP_FILTER_F_VALID) ||
	    f->prefixlen > HM_ENCAP_FILTER_PLEN_MAX)
		return 0;
	/*
	 * One 8-byte load: the destination is at frame offset 38, 8-aligned
	 * after NET_IP_ALIGN's 2 bytes, so even a strict-alignment verifier
	 * takes it.
	 */
	if (data + HM_OFF_IP6_DADDR + sizeof(hi) <= end)
		hi = *(const __u64 *)(data + HM_OFF_IP6_DADDR);
	else if (bpf_skb_load_bytes(skb, HM_OFF_IP6_DADDR, &hi, sizeof(hi)))
		return 0;
	bit = hm_encap_filter_bit(bpf_be64_to_cpu(hi), f->prefixlen);
	return !((f->bits[(bit / 64) & (HM_ENCAP_FILTER_WORDS - 1)] >> (bit % 64)) & 1);
}

/**
 * hm_encap() - insert the IOAM trace selected by hopmark_encap
 * @skb: IPv6 packet on tc egress
 *
 * Only on interfaces with %HM_IF_F_ENCAP (a rule sends packets out of
 * them; the others' packets leave after one array lookup). A destination
 * hopmark_encap_filter rules out leaves after a second one
 * (hm_encap_filtered_out()); the others are looked up in hopmark_encap
 * (longest prefix); the rule applies on its
 * interface (or any flagged one when 0), to @freq_k of every @freq_n
 * packets. Not encapsulated, and counted: fragments (HM_CNT_FRAGMENT),
 * packets already carrying an IOAM option or too large to grow
 * (HM_CNT_ENCAP_ERR), non-GSO packets that would exceed the egress MTU
 * (HM_CNT_ENCAP_SKIP_MTU), a malformed Hop-by-Hop header
 * (HM_CNT_MALFORMED), one longer than the option walk
 * (HM_CNT_HBH_WALK_LIMIT), one the merge would take past what a Linux
 * receiver accepts (HM_CNT_ENCAP_SKIP_HBH_LIMIT). For GSO packets
 * bpf_skb_adjust_room() lowers gso_size so that every segment fits.
 * Link-scope packets (hm_link_scope()) are never encapsulated and not
 * counted, like a destination no rule matches.
 *
 * When the IOAM-Namespace is configured on this node, the node writes its
 * own data in the last slot, as Linux's IOAM encapsulation does.
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("tc")
int hm_encap(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex, size, tt;
	struct hopmark_encap_key key = {};
	struct hopmark_encap_cfg *rule;
	struct hopmark_if_cfg *ifc;
	struct hm_scratch *s;
	__u8 *fh, nexthdr;
	__u64 c;

	if (skb->protocol != bpf_htons(ETH_P_IPV6) || skb->len < HM_OFF_HBH)
		return TC_ACT_UNSPEC;
	/*
	 * The cheap tests first: an array lookup tells whether any rule sends
	 * packets out of this interface (%HM_IF_F_ENCAP), a second one whether
	 * any rule can match the destination, before the copy and the
	 * longest-prefix lookup.
	 */
	ifc = hm_if_cfg(ifindex);
	if (!ifc || !(ifc->flags & HM_IF_F_ENCAP) || hm_encap_filtered_out(skb))
		return TC_ACT_UNSPEC;
	s = hm_scratch_get();
	if (!s)
		return TC_ACT_UNSPEC;
	fh = &s->pkt[HM_FB_FRAME];
	if (hm_skb_copy(skb, 0, fh, HM_OFF_HBH) || !hm_eth_ipv6(fh))
		return TC_ACT_UNSPEC;

	key.prefixlen = 128;
	__builtin_memcpy(key.addr, &fh[HM_OFF_IP6_DADDR], 16);
	rule = bpf_map_lookup_elem(&hopmark_encap, &key);
	if (!rule || (rule->ifindex && rule->ifindex != ifindex))
		return TC_ACT_UNSPEC;
	if (hm_link_scope(skb, fh))
		return TC_ACT_UNSPEC;

	c = __sync_fetch_and_add(&rule->counter, 1);
	if (rule->freq_n && c % rule->freq_n >= rule->freq_k) {
		hm_count(ifindex, HM_CNT_ENCAP_SKIP_FREQ);
		return TC_ACT_UNSPEC;
	}
	size = rule->size;
	tt = rule->trace_type & HM_IOAM_TT_MASK;
	if ((size & 3) || size > HM_IOAM_TRACE_DATA_MAX) {
		hm_count(ifindex, HM_CNT_ENCAP_ERR);
		return TC_ACT_UNSPEC;
	}
	nexthdr = fh[HM_OFF_IP6_NEXTHDR];
	if (nexthdr == HM_NEXTHDR_FRAGMENT) {
		hm_count(ifindex, HM_CNT_FRAGMENT);
		return TC_ACT_UNSPEC;
	}
	if (nexthdr != HM_NEXTHDR_HOP && !hm_encap_general_only)
		return hm_encap_fast(skb, s, rule, size, tt);
	return hm_encap_general(skb, s, rule, size, tt);
}
