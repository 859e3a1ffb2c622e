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
 */
#include "ioam_node.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/*
 * Set (by a loader, before load) to send every packet through the general
 * path; the verifier then drops the fast path as dead code. Tests only.
 */
const volatile __u32 hm_general_path_only = 0;

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
 * hm_encap() - insert the IOAM trace selected by hopmark_encap
 * @skb: IPv6 packet on tc egress
 *
 * Destination looked up in hopmark_encap (longest prefix); the rule
 * applies on its interface (or any when 0), to @freq_k of every @freq_n
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
 * Return: TC_ACT_OK, always.
 */
SEC("tc")
int hm_encap(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex, blen, size, tt, nodelen, slot_len, grow;
	__u32 L = 0, total, optoff, t, i, plen, mtu = 0, len, key_ok;
	struct hopmark_encap_key key = {};
	struct hm_ioam6_node_values v;
	struct hopmark_qdepth qs;
	struct hopmark_encap_cfg *rule;
	struct hopmark_node_cfg *node;
	struct hopmark_ns_cfg *ns;
	struct hm_trace_loc loc;
	struct hm_scratch *s;
	__u8 hdr[HM_OFF_HBH];
	__u8 *blk, nexthdr;
	__u64 c;
	int merge = 0, ret;

	if (skb->protocol != bpf_htons(ETH_P_IPV6) || skb->len < HM_OFF_HBH)
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, 0, hdr, sizeof(hdr)) || !hm_eth_ipv6(hdr))
		return TC_ACT_OK;

	key.prefixlen = 128;
	__builtin_memcpy(key.addr, &hdr[HM_OFF_IP6_DADDR], 16);
	rule = bpf_map_lookup_elem(&hopmark_encap, &key);
	if (!rule || (rule->ifindex && rule->ifindex != ifindex))
		return TC_ACT_OK;
	if (hm_link_scope(skb, hdr))
		return TC_ACT_OK;

	c = __sync_fetch_and_add(&rule->counter, 1);
	if (rule->freq_n && c % rule->freq_n >= rule->freq_k) {
		hm_count(ifindex, HM_CNT_ENCAP_SKIP_FREQ);
		return TC_ACT_OK;
	}
	size = rule->size;
	tt = rule->trace_type & HM_IOAM_TT_MASK;
	key_ok = !(size & 3) && size <= HM_IOAM_TRACE_DATA_MAX;
	if (!key_ok) {
		hm_count(ifindex, HM_CNT_ENCAP_ERR);
		return TC_ACT_OK;
	}

	nexthdr = hdr[HM_OFF_IP6_NEXTHDR];
	if (nexthdr == HM_NEXTHDR_FRAGMENT) {
		hm_count(ifindex, HM_CNT_FRAGMENT);
		return TC_ACT_OK;
	}
	s = hm_scratch_get();
	if (!s)
		return TC_ACT_OK;
	if (nexthdr == HM_NEXTHDR_HOP) {
		blen = hm_load_hdrs_skb(skb, s->pkt);
		ret = hm_ioam_parse(s, blen, HM_PARSE_ALL, &loc);
		if (!blen || ret == HM_P_MALFORMED) {
			hm_count(ifindex, HM_CNT_MALFORMED);
			return TC_ACT_OK;
		}
		if (ret == HM_P_WALK_LIMIT) {
			hm_count(ifindex, HM_CNT_HBH_WALK_LIMIT);
			return TC_ACT_OK;
		}
		if (loc.hbh_nexthdr == HM_NEXTHDR_FRAGMENT) {
			hm_count(ifindex, HM_CNT_FRAGMENT);
			return TC_ACT_OK;
		}
		if (loc.ioam_seen) {
			hm_count(ifindex, HM_CNT_ENCAP_ERR);
			return TC_ACT_OK;
		}
		if (!hm_merge_fits_linux(&loc, hm_encap_grow(size, 1))) {
			hm_count(ifindex, HM_CNT_ENCAP_SKIP_HBH_LIMIT);
			return TC_ACT_OK;
		}
		merge = 1;
		L = loc.hbh_len;
	} else {
		__builtin_memcpy(s->pkt, hdr, sizeof(hdr));
	}

	grow = hm_encap_grow(size, merge);
	total = L + grow;
	plen = ((__u32)hdr[HM_OFF_IP6_PLEN] << 8) | hdr[HM_OFF_IP6_PLEN + 1];
	if (total > HM_HBH_MAX_LEN || !plen || plen + grow > 0xffff) {
		hm_count(ifindex, HM_CNT_ENCAP_ERR);
		return TC_ACT_OK;
	}
	/* GSO packets pass: adjust_room shrinks gso_size instead. */
	if (bpf_check_mtu(skb, 0, &mtu, grow, 0)) {
		hm_count(ifindex, HM_CNT_ENCAP_SKIP_MTU);
		return TC_ACT_OK;
	}

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

	/* This node's own data, in the last slot (RFC 9197 §4.4). */
	ns = hm_ns_cfg(rule->ns_id);
	if (ns) {
		slot_len = hm_tt_slot_len(tt);
		if (slot_len <= size && slot_len) {
			node = hm_node_cfg();
			hm_node_values_init(&v, node, ns, hdr[HM_OFF_IP6_HOPLIM],
					    hm_now_posix_ns(node));
			hm_if_ids(skb->ingress_ifindex, &v.ingress_if, &v.ingress_if_wide);
			hm_if_ids(ifindex, &v.egress_if, &v.egress_if_wide);
			if ((tt & (HM_IOAM_TT_QUEUE_DEPTH | HM_IOAM_TT_BUFFER_OCC)) &&
			    hm_queue_state(ifindex, node, &qs)) {
				v.queue_depth = qs.backlog_bytes;
				v.buffer_occupancy = qs.node_backlog_bytes;
			}
			hm_node_encode(blk, t + 8 + size - slot_len, tt, &v);
			hm_wr8(blk, t + 3, (size - slot_len) / 4);
		} else {
			hm_wr8(blk, t + 2, (nodelen << 3) | HM_IOAM_TRACE_F_OVERFLOW);
		}
	}

	if (bpf_skb_adjust_room(skb, grow, BPF_ADJ_ROOM_NET, 0)) {
		hm_count(ifindex, HM_CNT_ENCAP_ERR);
		return TC_ACT_OK;
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
	return TC_ACT_OK;
undo:
	/* Cannot happen once adjust_room succeeded; take the gap out again. */
	bpf_skb_adjust_room(skb, -(__s32)grow, BPF_ADJ_ROOM_NET, 0);
	hm_count(ifindex, HM_CNT_ENCAP_ERR);
	return TC_ACT_OK;
}
