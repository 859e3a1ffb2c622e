// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_decap.bpf.c - IOAM decapsulating node: tc ingress program that
 * reports the IOAM Pre-allocated Trace (RFC 9197 §4.4) of a configured
 * IOAM-Namespace on the hopmark_events ring buffer and removes what the
 * IOAM domain added, so that nothing leaves the domain (RFC 9197 §5.1).
 *
 * Removal: the trace option together with the padding right before and
 * after it is the region taken out. When that region is the whole option
 * area, the Hop-by-Hop header goes. Otherwise the largest multiple of 8
 * bytes of the region is removed (so the options after it keep their
 * alignment) and what remains of it, 0-7 bytes, becomes Pad1/PadN; other
 * options stay. (Replacing a large option entirely by padding would not
 * do: Linux drops packets with more than 7 consecutive padding bytes,
 * RFC 4942 §2.1.9.5.) The decapsulating node writes no node data; the
 * record carries its receive time.
 *
 * Finding the trace has a fast path for the header an encapsulating node
 * writes (hm_decap_fast_find()), which needs one copy of the first bytes
 * and no option walk; any other header takes the general walk
 * (hm_ioam_find()), and hm_decap_general_only makes every packet take it,
 * so that the tests check both against the same expected frames.
 */
#include "ioam_node.bpf.h"
#include "skb_copy.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/*
 * Set (by a loader, before load) to send every packet through the general
 * option walk; the verifier then drops the fast path as dead code. Tests
 * only.
 */
const volatile __u32 hm_decap_general_only = 0;

/* Bytes the fast path copies: up to the end of the IOAM trace header. */
#define HM_DECAP_FAST_LEN	(HM_OFF_HBH + 4 + 4 + 8)

/* Extension headers skipped to find the upper-layer protocol. */
#define HM_EXT_ITER_MAX		4

/**
 * hm_upper_layer() - upper-layer protocol and TCP/UDP ports
 * @skb:	the packet
 * @nh:		Next Header of the Hop-by-Hop header
 * @off:	offset of the header after the Hop-by-Hop header
 * @rec:	proto, sport and dport are filled (ports in host order)
 */
static __always_inline void hm_upper_layer(struct __sk_buff *skb, __u8 nh, __u32 off,
					   struct hopmark_ioam_record *rec)
{
	__u8 ext[2];
	__u16 ports[2];
	int i;

	for (i = 0; i < HM_EXT_ITER_MAX; i++) {
		if (nh != HM_NEXTHDR_ROUTING && nh != HM_NEXTHDR_DEST &&
		    nh != HM_NEXTHDR_AUTH)
			break;
		if (hm_skb_copy(skb, off, ext, 2))
			break;
		off += nh == HM_NEXTHDR_AUTH ? ((__u32)ext[1] + 2) * 4 : ((__u32)ext[1] + 1) * 8;
		nh = ext[0];
	}
	rec->proto = nh;
	if ((nh == HM_IPPROTO_TCP || nh == HM_IPPROTO_UDP) &&
	    !hm_skb_copy(skb, off, ports, sizeof(ports))) {
		rec->sport = bpf_ntohs(ports[0]);
		rec->dport = bpf_ntohs(ports[1]);
	}
}

/**
 * hm_decap_remove() - take the trace out of the packet
 * @skb:	the packet
 * @s:		scratch, s->pkt holds the headers as parsed
 * @loc:	the trace
 *
 * Return: bytes removed, 0 on failure (packet unchanged).
 */
static __always_inline __u32 hm_decap_remove(struct __sk_buff *skb, struct hm_scratch *s,
					     const struct hm_trace_loc *loc)
{
	__u32 hbh_len = loc->hbh_len, ps, pe, rm, r, plen, len, off;
	__u8 ip[3];

	ps = loc->pad_start - HM_OFF_HBH;
	pe = loc->pad_end - HM_OFF_HBH;
	plen = ((__u32)HM_B(s->pkt, HM_OFF_IP6_PLEN) << 8) | HM_B(s->pkt, HM_OFF_IP6_PLEN + 1);
	if (ps == 2 && pe == hbh_len) {
		rm = hbh_len;
		ip[2] = loc->hbh_nexthdr;
	} else {
		rm = (pe - ps) & ~7U;
		r = pe - ps - rm;
		ip[2] = HM_NEXTHDR_HOP;
		/* New header: bytes [0, ps) with the new length, then r bytes of padding. */
		hm_wr8(s->pkt, HM_OFF_HBH + 1, (hbh_len - rm) / 8 - 1);
		off = HM_OFF_HBH + ps;
		if (r == 1) {
			hm_wr8(s->pkt, off, HM_IPV6_TLV_PAD1);
		} else if (r > 1) {
			hm_wr8(s->pkt, off, HM_IPV6_TLV_PADN);
			hm_wr8(s->pkt, off + 1, r - 2);
#pragma unroll
			for (int i = 2; i < 8; i++)
				if (i < r)
					hm_wr8(s->pkt, off + i, 0);
		}
	}
	if (!rm || rm > plen || rm > HM_HBH_MAX_LEN)
		return 0;
	/* Removes the rm bytes right after the IPv6 header. */
	if (bpf_skb_adjust_room(skb, -(__s32)rm, BPF_ADJ_ROOM_NET, 0))
		return 0;
	plen -= rm;
	ip[0] = plen >> 8;
	ip[1] = plen;
	bpf_skb_store_bytes(skb, HM_OFF_IP6_PLEN, ip, 3, BPF_F_RECOMPUTE_CSUM);
	if (ip[2] == HM_NEXTHDR_HOP) {
		len = hm_len_1_to(hm_launder(s, ps + r), HM_HBH_MAX_LEN);
		bpf_skb_store_bytes(skb, HM_OFF_HBH, &s->pkt[HM_OFF_HBH], len,
				    BPF_F_RECOMPUTE_CSUM);
	}
	return rm;
}

/* Outcomes of hm_decap_fast_find(). */
enum hm_decap_fast {
	HM_DF_GENERAL,	/* take the general walk */
	HM_DF_OURS,	/* the trace, of a configured IOAM-Namespace, is in @loc */
	HM_DF_NONE,	/* IPv6 without a Hop-by-Hop header: not ours, not counted */
};

/**
 * hm_decap_fast_find() - the trace, when the header is the usual one
 * @skb:	the packet
 * @s:		scratch; the frame's first %HM_DECAP_FAST_LEN bytes are copied
 *		to s->pkt
 * @loc:	filled as hm_ioam_parse() fills it for this header
 *
 * The usual header is the one an encapsulating node writes (hopmark, and
 * Linux's ioam6 encap): PadN(2), the IOAM Pre-allocated Trace at offset 4
 * (RFC 9486 §2.1), then the end of the header or one PadN that reaches
 * it, with a configured IOAM-Namespace and no Fragment header after it.
 * For such a header the general walk comes to the same @loc, and its
 * removal is the whole header. Anything else, including every header the
 * general walk counts (malformed, fragment, unknown IOAM-Namespace), is
 * left to it, @loc undefined. A packet without a Hop-by-Hop header is
 * told apart at once: the general path would do nothing with it either.
 *
 * Return: enum hm_decap_fast.
 */
static __always_inline int hm_decap_fast_find(struct __sk_buff *skb, struct hm_scratch *s,
					      struct hm_trace_loc *loc)
{
	const __u8 *data = (const __u8 *)(long)skb->data;
	const __u8 *data_end = (const __u8 *)(long)skb->data_end;
	const __u8 *b = s->pkt;
	__u32 hbh_len, end;
	__u8 pad[2];

	/* Looked at in place first: most packets carry no Hop-by-Hop header. */
	if (data + HM_OFF_HBH <= data_end && hm_eth_ipv6(data) &&
	    data[HM_OFF_IP6_NEXTHDR] != HM_NEXTHDR_HOP)
		return HM_DF_NONE;
	if (skb->len < HM_DECAP_FAST_LEN ||
	    hm_skb_copy(skb, 0, s->pkt, HM_DECAP_FAST_LEN) || !hm_eth_ipv6(b))
		return HM_DF_GENERAL;
	if (b[HM_OFF_IP6_NEXTHDR] != HM_NEXTHDR_HOP)
		return HM_DF_NONE;
	if (b[HM_OFF_HBH] == HM_NEXTHDR_FRAGMENT ||
	    b[HM_OFF_HBH + 2] != HM_IPV6_TLV_PADN || b[HM_OFF_HBH + 3] != 0 ||
	    b[HM_OFF_HBH + 4] != HM_IPV6_TLV_IOAM ||
	    b[HM_OFF_HBH + 7] != HM_IOAM_OPT_PREALLOC_TRACE)
		return HM_DF_GENERAL;
	hbh_len = ((__u32)b[HM_OFF_HBH + 1] + 1) * 8;
	end = 4 + 2 + b[HM_OFF_HBH + 5];
	if (HM_OFF_HBH + hbh_len > skb->len || end > hbh_len)
		return HM_DF_GENERAL;
	if (end != hbh_len &&
	    (end + 2 > hbh_len || hm_skb_copy(skb, HM_OFF_HBH + end, pad, 2) ||
	     pad[0] != HM_IPV6_TLV_PADN || end + 2 + pad[1] != hbh_len))
		return HM_DF_GENERAL;
	__builtin_memset(loc, 0, sizeof(*loc));
	/* Reads the trace header only, inside the bytes copied. */
	if (hm_ioam_check_trace(b, HM_OFF_HBH + hbh_len, HM_OFF_HBH + 4, 4, loc) != HM_P_TRACE)
		return HM_DF_GENERAL;
	loc->hbh_len = hbh_len;
	loc->hbh_nexthdr = b[HM_OFF_HBH];
	loc->pad_start = HM_OFF_HBH + 2;
	loc->pad_end = HM_OFF_HBH + hbh_len;
	loc->ioam_seen = 1;
	loc->n_opts = 1;
	return hm_ns_cfg(loc->ns_id) ? HM_DF_OURS : HM_DF_GENERAL;
}

/* Per-CPU record under construction; private to this object, not pinned. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hopmark_ioam_record);
} hm_record_scratch SEC(".maps");

static __always_inline struct hopmark_ioam_record *hm_record_scratch_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&hm_record_scratch, &zero);
}

/**
 * hm_decap() - report and remove the IOAM trace at the domain's edge
 * @skb: packet on tc ingress
 *
 * Only on interfaces with %HM_IF_F_DECAP and for configured
 * IOAM-Namespaces (others untouched, HM_CNT_UNKNOWN_NS). Malformed traces
 * and fragments are untouched and counted. A full ring buffer loses the
 * record (HM_CNT_EVENTS_LOST) but the trace is still removed.
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("tc")
int hm_decap(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex, blen, rm, plen, len;
	struct hopmark_ioam_record *rec;
	__u64 avail, flags;
	struct hopmark_node_cfg *node;
	struct hopmark_if_cfg *ifc;
	struct hm_trace_loc loc;
	struct hm_scratch *s;
	int fast;

	if (skb->protocol != bpf_htons(ETH_P_IPV6))
		return TC_ACT_UNSPEC;
	s = hm_scratch_get();
	if (!s)
		return TC_ACT_UNSPEC;
	/* Before the interface lookup: most packets carry no trace at all. */
	fast = hm_decap_general_only ? HM_DF_GENERAL : hm_decap_fast_find(skb, s, &loc);
	if (fast == HM_DF_NONE)
		return TC_ACT_UNSPEC;
	ifc = hm_if_cfg(ifindex);
	if (!ifc || !(ifc->flags & HM_IF_F_DECAP))
		return TC_ACT_UNSPEC;
	if (fast != HM_DF_OURS) {
		blen = hm_load_hdrs_skb(skb, s->pkt);
		if (!blen)
			return TC_ACT_UNSPEC;
		if (!hm_ioam_find(s, blen, HM_PARSE_ALL, &loc, ifindex))
			return TC_ACT_UNSPEC;
	}

	/*
	 * The record is built in per-CPU memory and copied into the ring with
	 * bpf_ringbuf_output() once the trace is removed: no ring reference is
	 * held across the removal (Linux 6.1's verifier cannot follow one
	 * there), at the cost of one 336-byte copy per traced packet.
	 */
	rec = hm_record_scratch_get();
	if (!rec)
		return TC_ACT_UNSPEC;
	node = hm_node_cfg();
	rec->rx_ns = hm_now_posix_ns(node);
	rec->ifindex = ifindex;
	rec->if_id = ifc->if_id;
	rec->opt_len = loc.opt_size;
	rec->hop_limit = HM_B(s->pkt, HM_OFF_IP6_HOPLIM);
	rec->flow_label = ((__u32)(HM_B(s->pkt, HM_OFF_IP6 + 1) & 0x0f) << 16) |
			  ((__u32)HM_B(s->pkt, HM_OFF_IP6 + 2) << 8) |
			  HM_B(s->pkt, HM_OFF_IP6 + 3);
	rec->proto = 0;
	rec->sport = 0;
	rec->dport = 0;
	__builtin_memcpy(rec->saddr, &s->pkt[HM_OFF_IP6_SADDR], 16);
	__builtin_memcpy(rec->daddr, &s->pkt[HM_OFF_IP6_DADDR], 16);
	__builtin_memset(rec->opt, 0, sizeof(rec->opt));
	len = hm_len_1_to(hm_launder(s, loc.opt_size), HM_RECORD_OPT_MAX);
	if (bpf_skb_load_bytes(skb, loc.opt, rec->opt, len))
		rec->opt_len = 0;
	hm_upper_layer(skb, loc.hbh_nexthdr, HM_OFF_HBH + loc.hbh_len, rec);

	plen = ((__u32)HM_B(s->pkt, HM_OFF_IP6_PLEN) << 8) | HM_B(s->pkt, HM_OFF_IP6_PLEN + 1);
	rm = hm_decap_remove(skb, s, &loc);
	hm_count(ifindex, rm ? HM_CNT_DECAP_OK : HM_CNT_DECAP_ERR);
	rec->payload_len = plen - rm;
	/*
	 * Wake the agent by batch: only the record that makes the bytes
	 * waiting cross a multiple of HM_EVENTS_WAKEUP_BYTES forces a wakeup
	 * (one race lost between CPUs is made up at the next multiple); the
	 * agent polls every few ms for less than that.
	 */
	avail = bpf_ringbuf_query(&hopmark_events, BPF_RB_AVAIL_DATA);
	flags = (avail + sizeof(*rec) + BPF_RINGBUF_HDR_SZ) >> HM_EVENTS_WAKEUP_SHIFT !=
		avail >> HM_EVENTS_WAKEUP_SHIFT ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
	if (bpf_ringbuf_output(&hopmark_events, rec, sizeof(*rec), flags))
		hm_count(ifindex, HM_CNT_EVENTS_LOST);
	return TC_ACT_UNSPEC;
}
