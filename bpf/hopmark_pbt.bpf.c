// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_pbt.bpf.c - the PBT-M datapath (marking-based postcards, IETF
 * "Marking-based Direct Export for On-path Telemetry"): three programs,
 * whose work on an interface its pbt_ifcfg[ifindex].flags choose
 * (lib/pbt/pbt_maps.h):
 *
 *	hm_pbt_xdp	XDP of an arriving interface: INGRESS postcard of a
 *			marked packet, then END clear (delivered here)
 *	hm_pbt_ingress	the same at tc ingress (veths, where XDP costs TSO)
 *	hm_pbt_egress	tc egress: HEAD mark (access list, sampling, meter,
 *			triggers), then EGRESS postcard, then END clear (the
 *			packet leaves the domain here), in one pass
 *
 * The mark is one bit of a header the packet has (lib/pbt/pbt_mark.h); no
 * header is added, the packet never grows. A postcard is a struct
 * pbt_record in the pbt_events ring buffer; hopmarkd exports it. The
 * packet ID is lib/pbt/pbt_id.h's. Node ID, queue depth and clock come
 * from the IOAM maps as for INT. Every action is counted in pbt_stats;
 * a packet the programs cannot handle is forwarded unchanged and counted.
 * tc programs return TC_ACT_UNSPEC (other filters on the hook still run),
 * XDP returns XDP_PASS. See Documentation/pbt.rst, "Datapath".
 *
 * Sections: "xdp", "classifier" (tc ingress) and "tc" (tc egress), so
 * that stock ip/tc, which pick a program by section, load each one.
 */
#include "ioam_node.bpf.h"
#include "pbt_maps.bpf.h"
#include "ipv4/ipv4.h"
#include "srv6/srh.h"
#include "common/ip_proto.h"
#include "common/hopmark_run.h"
#include "pbt/pbt_id.h"
#include "pbt/pbt_mark.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/*
 * Test switch, read-only data a loader may set before loading: the
 * CLOCK_TAI reading in ns instead of bpf_ktime_get_tai_ns(), so that the
 * tests know every timestamp and sojourn exactly. 0 in production.
 */
const volatile __u64 hm_pbt_fixed_tai_ns = 0;

#define P_L3		HM_ETH_HLEN	/* IP header offset in the frame */
#define P_EXT_MAX	8		/* IPv6 extension headers walked */
#define P_AF_INET	2
#define P_AF_INET6	10

/* Parse outcomes (pbt_parse()). */
enum {
	P_OK,		/* flow key and packet ID valid */
	P_NOT_IP,	/* not IPv4/IPv6 over Ethernet: nothing to do */
	P_MALFORMED,	/* IP header, an extension header or the SRH is bad */
	P_NO_L4,	/* IP headers fine; a fragment, or a chain of more
			 * than P_EXT_MAX extension headers: no flow key */
	P_L4_BAD,	/* IP headers fine; TCP/UDP header truncated */
};

/**
 * struct pbt_pkt - what the programs parse out of a packet
 * @key:	flow key (lib/select/select.h; SRH: destination Segment List[0])
 * @oct:	the packet ID's octets after the IP headers (pbt_id.h)
 * @oct_n:	how many of them the packet has
 * @ip_word:	the packet ID's IP word (pbt_pkt_id())
 * @pkt_id:	packet ID (pbt_id_tc() / pbt_id_xdp(), for a postcard)
 * @l4left:	octets of the packet from the upper-layer header on
 * @id_po:	where the packet ID's last octets start in the upper-layer
 *		header (pbt_id_payload_off())
 * @iplen:	IP packet length, octets (IPv4 Total Length, IPv6 40 + Payload Length)
 * @avail:	octets of the frame from the IP header on
 * @l4off:	offset of the upper-layer header from the IP header
 * @srh_off:	offset of the SRH from the IPv6 header, 0 when none
 * @w0:		IP octets 0-1, host order
 * @w_frag:	IPv4 octets 6-7 (Flags, Fragment Offset), host order
 * @csum:	IPv4 header checksum, host order
 * @srh_w2:	SRH octets 4-5 (Last Entry, Flags), host order
 * @family:	4 or 6
 * @ttl:	TTL / Hop Limit
 * @tos:	TOS / Traffic Class
 * @srh_sl:	SRH Segments Left
 * @srh_flags:	SRH Flags
 * @daddr:	the IP destination as in the header, network order (IPv4:
 *		first 4 octets); for an SRH packet the active segment
 */
struct pbt_pkt {
	struct hm_flow_key	key;
	__u8			oct[PBT_ID_OCTETS];
	__u32			oct_n;
	__u32			ip_word;
	__u32			pkt_id;
	__u32			l4left;
	__u32			id_po;
	__u32			iplen;
	__u32			avail;
	__u32			l4off;
	__u32			srh_off;
	__u16			w0;
	__u16			w_frag;
	__u16			csum;
	__u16			srh_w2;
	__u8			family;
	__u8			ttl;
	__u8			tos;
	__u8			srh_sl;
	__u8			srh_flags;
	__u8			pad[3];
	__u8			daddr[16];
};

/**
 * struct pbt_scratch - per-CPU working memory of one run
 * @p:		the parsed packet
 * @buf:	headers being read (IPv4/IPv6 header, SRH start + Segment
 *		List[0], TCP header)
 */
struct pbt_scratch {
	struct pbt_pkt	p;
	__u8		buf[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pbt_scratch);
} pbt_scratch SEC(".maps");

/* ---------------- counters, configuration, clock ---------------- */

/**
 * struct pbt_ctr - the counters one run counts into
 * @ifindex:	interface the actions are accounted to
 * @st:		its pbt_stats entry once looked up, NULL before
 *
 * One lookup per run, at the first count (none for a packet that is not
 * ours). pbt_stats is a per-CPU array indexed by ifindex
 * (lib/pbt/pbt_maps.h): the lookup is an address computation, and finds
 * nothing for an ifindex at or above PBT_IFINDEX_LIMIT (never reached:
 * pbt_ifcfg has no entry for it either, so nothing is counted).
 */
struct pbt_ctr {
	__u32			ifindex;
	struct pbt_link_stats	*st;
};

/**
 * pbt_count() - count one PBT-M datapath action
 * @c:		the run's counters
 * @cnt:	enum pbt_counter
 *
 * Every ifindex below PBT_IFINDEX_LIMIT has its entry in the array: none
 * is created here.
 */
static __always_inline void pbt_count(struct pbt_ctr *c, __u32 cnt)
{
	__u64 idx = cnt;

	if (!c->st)
		c->st = bpf_map_lookup_elem(&pbt_stats, &c->ifindex);
	asm volatile("" : "+r"(idx));
	if (c->st && idx < PBT_CNT_MAX)
		c->st->cnt[idx]++;
}

static __always_inline struct pbt_domain_cfg *pbt_domain(void)
{
	__u32 zero = 0;
	struct pbt_domain_cfg *cfg = bpf_map_lookup_elem(&pbt_cfg, &zero);

	if (!cfg || !(cfg->flags & PBT_DOM_F_CONFIGURED))
		return NULL;
	return cfg;
}

static __always_inline struct pbt_scratch *pbt_scratch_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&pbt_scratch, &zero);
}

/* hm_now_posix_ns(), or the fixed clock of a test copy. */
static __always_inline __u64 pbt_now(const struct hopmark_node_cfg *node)
{
	__u64 t;

	if (!hm_pbt_fixed_tai_ns)
		return hm_now_posix_ns(node);
	t = hm_pbt_fixed_tai_ns;
	if (node)
		t -= (__u64)node->tai_offset_ns;
	return t;
}

/* ---------------- packet access, tc and XDP alike ---------------- */

/*
 * @xdp is a compile-time constant at every call: the other branch is
 * removed, and each program calls only its own hook's helpers.
 */
static __always_inline long pbt_load(void *ctx, int xdp, __u32 off, void *dst, __u32 len)
{
	if (xdp)
		return bpf_xdp_load_bytes(ctx, off, dst, len);
	return bpf_skb_load_bytes(ctx, off, dst, len);
}

static __always_inline long pbt_store16(void *ctx, int xdp, __u32 off, __u16 v)
{
	__be16 w = bpf_htons(v);

	if (xdp)
		return bpf_xdp_store_bytes(ctx, off, &w, 2);
	/* CHECKSUM_COMPLETE skbs (tc ingress) keep a valid skb->csum. */
	return bpf_skb_store_bytes(ctx, off, &w, 2, BPF_F_RECOMPUTE_CSUM);
}

static __always_inline __u32 pbt_frame_len(void *ctx, int xdp)
{
	if (xdp)
		return (__u32)bpf_xdp_get_buff_len(ctx);
	return ((struct __sk_buff *)ctx)->len;
}

#define B(s, o)		((s)->buf[(o) & 63])
#define BW16(s, o)	((__u16)((__u16)B(s, o) << 8 | B(s, (o) + 1)))
/* Octet / word @o of the IP header, which pbt_parse_body() reads after the Ethernet header. */
#define BH(s, o)	B(s, P_L3 + (o))
#define BHW16(s, o)	BW16(s, P_L3 + (o))

/* ---------------- parsing ---------------- */

/*
 * pbt_parse_l4() - the flow key's ports from the upper-layer header at
 * @p->l4off, and where the packet ID's octets are (pbt_id.h says which;
 * pbt_id_body() reads them when a postcard needs the ID).
 */
static __always_inline int pbt_parse_l4(void *ctx, int xdp, struct pbt_scratch *s,
					struct pbt_pkt *p, __u8 proto)
{
	__u32 o = p->l4off, left, po;

	p->key.proto = proto;
	left = p->iplen > o ? p->iplen - o : 0;
	if (proto == HM_IPPROTO_TCP) {
		if (left < 20 || pbt_load(ctx, xdp, P_L3 + o, s->buf, 20))
			return P_L4_BAD;
		po = (__u32)(B(s, 12) >> 4) * 4;
		if (po < 20 || po > left)
			return P_L4_BAD;
	} else if (proto == HM_IPPROTO_UDP) {
		if (left < 8 || pbt_load(ctx, xdp, P_L3 + o, s->buf, 4))
			return P_L4_BAD;
		po = PBT_ID_L4_OCTETS;
	} else {
		po = PBT_ID_L4_OCTETS;
	}
	p->l4left = left;
	p->id_po = po;
	if (proto == HM_IPPROTO_TCP || proto == HM_IPPROTO_UDP) {
		__builtin_memcpy(&p->key.sport, &s->buf[0], 2);
		__builtin_memcpy(&p->key.dport, &s->buf[2], 2);
	}
	return P_OK;
}

/*
 * pbt_id_body() - the packet ID of a parsed packet (%P_OK): its octets
 * after the IP headers (pbt_id.h), then pbt_pkt_id(). Only a postcard
 * needs it: the head's selection and the end's clearing do not.
 *
 * Return: 0, or -1 when the octets cannot be read (the parse found them
 * inside the packet: a helper failure).
 */
static __always_inline int pbt_id_body(void *ctx, int xdp, struct pbt_pkt *p)
{
	__u32 o = p->l4off, left = p->l4left, po = p->id_po, n1, n2, i;

	for (i = 0; i < PBT_ID_OCTETS; i++)
		p->oct[i] = 0;
	n1 = left < PBT_ID_L4_OCTETS ? left : PBT_ID_L4_OCTETS;
	n2 = left > po ? left - po : 0;
	if (n2 > PBT_ID_OCTETS - PBT_ID_L4_OCTETS)
		n2 = PBT_ID_OCTETS - PBT_ID_L4_OCTETS;
	if (n1 && pbt_load(ctx, xdp, P_L3 + o, p->oct, hm_len_1_to(n1, PBT_ID_L4_OCTETS)))
		return -1;
	if (n2 && pbt_load(ctx, xdp, P_L3 + o + po, &p->oct[PBT_ID_L4_OCTETS],
			   hm_len_1_to(n2, PBT_ID_OCTETS - PBT_ID_L4_OCTETS)))
		return -1;
	p->oct_n = n1 + n2;
	p->pkt_id = pbt_pkt_id(&p->key, p->ip_word, p->oct, p->oct_n);
	return 0;
}

/**
 * pbt_parse_body() - parse the IP headers and the upper-layer header
 * @ctx:	the packet (struct __sk_buff or struct xdp_md)
 * @xdp:	@ctx is an xdp_md (a constant)
 * @s:		scratch; @s->p is filled
 *
 * IPv4: version 4, IHL at least 5, Total Length at least the header and
 * within the frame; a fragment (MF or an offset) is %P_NO_L4. IPv6:
 * version 6, Payload Length within the frame; Hop-by-Hop, Destination
 * Options, Routing and AH headers are walked (at most P_EXT_MAX, each
 * within the packet); the first Routing header of Type 4 is the SRH, whose
 * Segment List must hold Last Entry + 1 segments inside it; a Fragment
 * header is %P_NO_L4.
 *
 * Return: %P_OK, %P_NOT_IP, %P_MALFORMED, %P_NO_L4 or %P_L4_BAD.
 */
static __always_inline int pbt_parse_body(void *ctx, int xdp, struct pbt_scratch *s)
{
	struct pbt_pkt *p = &s->p;
	__u32 flen, o, i, len;
	__u16 etype;
	__u8 nh;

	__builtin_memset(&p->key, 0, sizeof(p->key));
	p->srh_off = 0;
	p->srh_sl = 0;
	p->srh_flags = 0;
	p->srh_w2 = 0;
	p->w_frag = 0;
	p->csum = 0;
	p->oct_n = 0;
	flen = pbt_frame_len(ctx, xdp);
	if (flen < P_L3 + HM_IPV4_HDR_LEN)
		return P_NOT_IP;
	/*
	 * The Ethernet header and the longest IP header the frame can hold,
	 * in one helper call (an IPv6 header past a shorter frame is
	 * malformed, below).
	 */
	if (flen >= P_L3 + HM_IPV6_HDR_LEN) {
		if (pbt_load(ctx, xdp, 0, s->buf, P_L3 + HM_IPV6_HDR_LEN))
			return P_NOT_IP;
	} else if (pbt_load(ctx, xdp, 0, s->buf, P_L3 + HM_IPV4_HDR_LEN)) {
		return P_NOT_IP;
	}
	etype = BW16(s, 12);
	p->avail = flen - P_L3;
	if (etype == ETH_P_IP) {
		p->family = 4;
		if ((BH(s, 0) >> 4) != 4)
			return P_MALFORMED;
		p->l4off = (__u32)(BH(s, 0) & 0x0f) * 4;
		p->iplen = BHW16(s, HM_IPV4_OFF_TOT_LEN);
		if (p->l4off < HM_IPV4_HDR_LEN || p->iplen < p->l4off || p->iplen > p->avail)
			return P_MALFORMED;
		p->w0 = BHW16(s, 0);
		p->tos = BH(s, HM_IPV4_OFF_TOS);
		p->w_frag = BHW16(s, HM_IPV4_OFF_FRAG);
		p->ttl = BH(s, HM_IPV4_OFF_TTL);
		p->csum = BHW16(s, HM_IPV4_OFF_CSUM);
		p->ip_word = (__u32)BHW16(s, HM_IPV4_OFF_ID) << 16 | p->iplen;
		p->key.family = 4;
		__builtin_memcpy(p->key.saddr, &s->buf[P_L3 + HM_IPV4_OFF_SADDR], 4);
		__builtin_memcpy(p->key.daddr, &s->buf[P_L3 + HM_IPV4_OFF_DADDR], 4);
		__builtin_memcpy(p->daddr, p->key.daddr, 4);
		for (i = 4; i < 16; i++)
			p->daddr[i] = 0;
		p->key.proto = BH(s, HM_IPV4_OFF_PROTOCOL);
		if (p->w_frag & (HM_IPV4_F_MF | HM_IPV4_OFFSET_MASK))
			return P_NO_L4;
		return pbt_parse_l4(ctx, xdp, s, p, BH(s, HM_IPV4_OFF_PROTOCOL));
	}
	if (etype != ETH_P_IPV6)
		return P_NOT_IP;
	if (p->avail < HM_IPV6_HDR_LEN)
		return P_MALFORMED;
	p->family = 6;
	if ((BH(s, 0) >> 4) != 6)
		return P_MALFORMED;
	p->iplen = HM_IPV6_HDR_LEN + BHW16(s, HM_IPV6_OFF_PAYLOAD_LEN);
	if (p->iplen > p->avail)
		return P_MALFORMED;
	p->w0 = BHW16(s, 0);
	p->tos = (__u8)(p->w0 >> 4);
	p->ttl = BH(s, HM_IPV6_OFF_HOP_LIMIT);
	p->ip_word = BHW16(s, HM_IPV6_OFF_PAYLOAD_LEN);
	p->key.family = 6;
	__builtin_memcpy(p->key.saddr, &s->buf[P_L3 + HM_IPV6_OFF_SADDR], 16);
	__builtin_memcpy(p->key.daddr, &s->buf[P_L3 + HM_IPV6_OFF_DADDR], 16);
	__builtin_memcpy(p->daddr, p->key.daddr, 16);
	nh = BH(s, HM_IPV6_OFF_NEXTHDR);
	o = HM_IPV6_HDR_LEN;
	for (i = 0; i < P_EXT_MAX; i++) {
		if (nh != HM_NEXTHDR_HOP && nh != HM_NEXTHDR_DEST && nh != HM_NEXTHDR_ROUTING &&
		    nh != HM_NEXTHDR_AUTH && nh != HM_NEXTHDR_FRAGMENT)
			break;
		p->key.proto = nh;
		if (nh == HM_NEXTHDR_FRAGMENT)
			return o + HM_IPV6_FRAG_HDR_LEN <= p->iplen ? P_NO_L4 : P_MALFORMED;
		if (o + 8 > p->iplen || pbt_load(ctx, xdp, P_L3 + o, s->buf, 8))
			return P_MALFORMED;
		len = nh == HM_NEXTHDR_AUTH ? ((__u32)B(s, 1) + 2) * 4 : HM_IPV6_EXT_LEN(B(s, 1));
		if (o + len > p->iplen)
			return P_MALFORMED;
		if (nh == HM_NEXTHDR_ROUTING && B(s, 2) == HM_SRH_ROUTING_TYPE && !p->srh_off) {
			if (len < HM_SRH_HDR_LEN + ((__u32)B(s, 4) + 1) * HM_SRH_SEGMENT_LEN)
				return P_MALFORMED;
			p->srh_off = o;
			p->srh_sl = B(s, 3);
			p->srh_flags = B(s, 5);
			p->srh_w2 = BW16(s, 4);
			/* Segment List[0]: the final segment, the same at every hop. */
			if (pbt_load(ctx, xdp, P_L3 + o + HM_SRH_HDR_LEN, p->key.daddr, 16))
				return P_MALFORMED;
		}
		nh = B(s, 0);
		o += len;
	}
	if (nh == HM_NEXTHDR_HOP || nh == HM_NEXTHDR_DEST || nh == HM_NEXTHDR_ROUTING ||
	    nh == HM_NEXTHDR_AUTH || nh == HM_NEXTHDR_FRAGMENT)
		return P_NO_L4;
	p->l4off = o;
	return pbt_parse_l4(ctx, xdp, s, p, nh);
}

/* pbt_parse_body() for tc and XDP: global functions, verified once each. */
__attribute__((noinline))
int pbt_parse_tc(struct __sk_buff *skb, struct pbt_scratch *s)
{
	if (!skb || !s)
		return P_NOT_IP;
	return pbt_parse_body(skb, 0, s);
}

__attribute__((noinline))
int pbt_parse_xdp(struct xdp_md *x, struct pbt_scratch *s)
{
	if (!x || !s)
		return P_NOT_IP;
	return pbt_parse_body(x, 1, s);
}

/* pbt_id_body() for tc and XDP: global functions, verified once each. */
__attribute__((noinline))
int pbt_id_tc(struct __sk_buff *skb, struct pbt_scratch *s)
{
	if (!skb || !s)
		return -1;
	return pbt_id_body(skb, 0, &s->p);
}

__attribute__((noinline))
int pbt_id_xdp(struct xdp_md *x, struct pbt_scratch *s)
{
	if (!x || !s)
		return -1;
	return pbt_id_body(x, 1, &s->p);
}

/**
 * pbt_quick_unmarked() - whether a packet is surely not ours, from its
 *			  first octets alone
 * @ctx:	packet
 * @xdp:	@ctx is an xdp_md (a constant)
 * @cfg:	domain
 *
 * For the interfaces that only look at marked packets (ingress, egress
 * and end roles, no head): before the whole parse (a dozen helper calls
 * and loops), the mark word is read in place. Yes when the frame is not
 * IP (what pbt_parse_body() calls %P_NOT_IP), or is a well-formed IPv4
 * header (the checks of pbt_parse_body()), or an IPv6 header without
 * extension headers, whose mark bit is clear, with a mark bit the domain
 * may use (pbt_mark_find() would say %M_NO): the whole path would then
 * count nothing and change nothing. No, and the caller parses as before,
 * for everything else: a set bit, a header it would count as malformed,
 * an IPv6 extension header (the SRH O-flag, and their checks), a bad or
 * Alternate Marking bit (counted), or headers outside the linear data.
 *
 * Return: 1 when nothing is to be done, 0 when the caller parses.
 */
static __always_inline int pbt_quick_unmarked(void *ctx, int xdp,
					      const struct pbt_domain_cfg *cfg)
{
	__u32 flen = pbt_frame_len(ctx, xdp), ihl, len;
	struct pbt_mark_loc loc;
	__u8 *h, *end;
	__u16 w;

	if (xdp) {
		h = (__u8 *)(long)((struct xdp_md *)ctx)->data;
		end = (__u8 *)(long)((struct xdp_md *)ctx)->data_end;
	} else {
		h = (__u8 *)(long)((struct __sk_buff *)ctx)->data;
		end = (__u8 *)(long)((struct __sk_buff *)ctx)->data_end;
	}
	if (flen < P_L3 + HM_IPV4_HDR_LEN)
		return 1;
	if (h + P_L3 + HM_IPV4_HDR_LEN > end)
		return 0;
	if (h[12] == 0x08 && h[13] == 0x00) {
		if ((h[P_L3] >> 4) != 4)
			return 0;
		ihl = (__u32)(h[P_L3] & 0x0f) * 4;
		len = (__u32)h[P_L3 + HM_IPV4_OFF_TOT_LEN] << 8 | h[P_L3 + HM_IPV4_OFF_TOT_LEN + 1];
		if (ihl < HM_IPV4_HDR_LEN || len < ihl || len > flen - P_L3)
			return 0;
		loc = pbt_mark_v4_loc(cfg->v4_mark, cfg->v4_tos_bit);
		if (!loc.mask || (cfg->v4_mark == PBT_V4_TOS && (cfg->v4_tos_bit & cfg->altmark_tos)))
			return 0;
		if (loc.off == PBT_LOC_IPV4_FRAG)
			w = (__u16)h[P_L3 + 6] << 8 | h[P_L3 + 7];
		else
			w = (__u16)h[P_L3] << 8 | h[P_L3 + 1];
		return !(w & loc.mask);
	}
	if (h[12] != 0x86 || h[13] != 0xdd)
		return 1;
	if (h + P_L3 + HM_IPV6_HDR_LEN > end || flen < P_L3 + HM_IPV6_HDR_LEN)
		return 0;
	if ((h[P_L3] >> 4) != 6)
		return 0;
	len = (__u32)h[P_L3 + HM_IPV6_OFF_PAYLOAD_LEN] << 8 | h[P_L3 + HM_IPV6_OFF_PAYLOAD_LEN + 1];
	if (HM_IPV6_HDR_LEN + len > flen - P_L3)
		return 0;
	switch (h[P_L3 + HM_IPV6_OFF_NEXTHDR]) {
	case HM_NEXTHDR_HOP:
	case HM_NEXTHDR_DEST:
	case HM_NEXTHDR_ROUTING:
	case HM_NEXTHDR_AUTH:
	case HM_NEXTHDR_FRAGMENT:
		return 0;
	}
	loc = pbt_mark_v6_loc(cfg->v6_mark, cfg->v6_tc_bit, 0, 0);
	if (!loc.mask || (cfg->v6_tc_bit & cfg->altmark_tos))
		return 0;
	w = (__u16)h[P_L3] << 8 | h[P_L3 + 1];
	return !(w & loc.mask);
}

/* ---------------- the mark ---------------- */

/* Outcomes of pbt_mark_find(). */
enum {
	M_NO,		/* the bit is clear */
	M_YES,		/* the bit is set */
	M_BAD_BIT,	/* the configured TOS / TC bit is not one DSCP bit */
	M_ALTMARK,	/* it is an Alternate Marking bit of the domain */
};

/**
 * pbt_mark_find() - the domain's mark bit in a parsed packet
 * @cfg:	domain
 * @p:		packet (IP headers parsed)
 * @loc:	set to the bit's location
 * @word:	set to the word holding it, host order
 *
 * Return: %M_NO, %M_YES, %M_BAD_BIT or %M_ALTMARK.
 */
static __always_inline int pbt_mark_find(const struct pbt_domain_cfg *cfg,
					 const struct pbt_pkt *p, struct pbt_mark_loc *loc,
					 __u16 *word)
{
	__u8 bit = 0;

	if (p->family == 4) {
		*loc = pbt_mark_v4_loc(cfg->v4_mark, cfg->v4_tos_bit);
		*word = loc->off == PBT_LOC_IPV4_FRAG ? p->w_frag : p->w0;
		if (cfg->v4_mark == PBT_V4_TOS)
			bit = cfg->v4_tos_bit;
	} else {
		*loc = pbt_mark_v6_loc(cfg->v6_mark, cfg->v6_tc_bit, p->srh_off != 0, p->srh_off);
		*word = loc->in_srh ? p->srh_w2 : p->w0;
		if (!loc->in_srh)
			bit = cfg->v6_tc_bit;
	}
	if (!loc->mask)
		return M_BAD_BIT;
	if (bit & cfg->altmark_tos)
		return M_ALTMARK;
	return (*word & loc->mask) ? M_YES : M_NO;
}

/**
 * pbt_mark_write() - set or clear the mark bit in the packet
 * @ctx:	packet
 * @xdp:	@ctx is an xdp_md (a constant)
 * @p:		parsed packet; its words are updated
 * @loc:	the bit (pbt_mark_find())
 * @word:	the word holding it now
 * @set:	1 to set, 0 to clear
 *
 * IPv4: the word and the header checksum, updated incrementally (RFC
 * 1624 eqn. 3), so that the header's one's complement sum, and with it
 * the checksum of a CHECKSUM_COMPLETE skb, does not change. The reserved
 * flag bit's word and the checksum go in one store of octets 6-11 (TTL
 * and Protocol written back as they are): one helper call, and the packet
 * never holds one without the other.
 *
 * Return: 0, or the helper's negative error (the packet is then as the
 * helper left it: unchanged for a refused store).
 */
static __always_inline long pbt_mark_write(void *ctx, int xdp, struct pbt_pkt *p,
					   const struct pbt_mark_loc *loc, __u16 word, int set)
{
	__u16 nw = pbt_mark_word(word, loc->mask, set), nc;
	long err;

	if (loc->csum && loc->off == PBT_LOC_IPV4_FRAG) {
		__u8 w6[6];

		nc = pbt_csum_replace16(p->csum, word, nw);
		w6[0] = nw >> 8;
		w6[1] = (__u8)nw;
		w6[2] = p->ttl;
		w6[3] = p->key.proto;
		w6[4] = nc >> 8;
		w6[5] = (__u8)nc;
		if (xdp)
			err = bpf_xdp_store_bytes(ctx, P_L3 + PBT_LOC_IPV4_FRAG, w6, 6);
		else
			err = bpf_skb_store_bytes(ctx, P_L3 + PBT_LOC_IPV4_FRAG, w6, 6,
						  BPF_F_RECOMPUTE_CSUM);
		if (err)
			return err;
		p->csum = nc;
	} else if (loc->csum) {
		nc = pbt_csum_replace16(p->csum, word, nw);
		err = pbt_store16(ctx, xdp, P_L3 + PBT_IPV4_OFF_CSUM, nc);
		if (err)
			return err;
		err = pbt_store16(ctx, xdp, P_L3 + loc->off, nw);
		if (err) {
			/* Put the checksum back: the packet stays as it came. */
			pbt_store16(ctx, xdp, P_L3 + PBT_IPV4_OFF_CSUM, p->csum);
			return err;
		}
		p->csum = nc;
	} else {
		err = pbt_store16(ctx, xdp, P_L3 + loc->off, nw);
		if (err)
			return err;
	}
	if (loc->in_srh) {
		p->srh_w2 = nw;
		p->srh_flags = (__u8)nw;
	} else if (loc->off == PBT_LOC_IPV4_FRAG && p->family == 4) {
		p->w_frag = nw;
	} else {
		p->w0 = nw;
		p->tos = p->family == 4 ? (__u8)nw : (__u8)(nw >> 4);
	}
	return 0;
}

/* ---------------- head: selection ---------------- */

/* The node's own IPFIX export (or any IPFIX to the collector's port): never marked. */
static __always_inline int pbt_is_export(const struct pbt_domain_cfg *cfg, const struct pbt_pkt *p)
{
	__u16 port = cfg->exp_port ? cfg->exp_port : HM_IPFIX_PORT;

	if (!cfg->exp_transport)
		return 0;
	if (p->key.proto != HM_IPPROTO_UDP && p->key.proto != HM_IPPROTO_TCP)
		return 0;
	return p->key.dport == bpf_htons(port);
}

/* Tokens of the meter are 1/1024 packet. */
#define PBT_TOKEN	1024ULL

/**
 * pbt_meter_take() - take @pkts packets' tokens from the head's bucket
 * @cfg:	domain (meter_rate packets/s, meter_burst packets)
 * @pkts:	packets (a GSO skb: its segments)
 * @now:	CLOCK_MONOTONIC ns
 *
 * Refilled at meter_rate per second up to meter_burst (0: 1 packet),
 * under the bucket's bpf_spin_lock: every CPU's head shares it. A bucket
 * never used starts full. A GSO skb of more segments than the burst takes
 * a full bucket (it could never be marked otherwise).
 *
 * Return: 1 when the tokens were taken (or there is no meter), 0 when not
 * enough were left (nothing taken).
 */
static __always_inline int pbt_meter_take(const struct pbt_domain_cfg *cfg, __u32 pkts, __u64 now)
{
	__u64 cap, add, dt, tok, need;
	struct pbt_meter *m;
	__u32 zero = 0, rate = cfg->meter_rate, burst = cfg->meter_burst;
	int ok = 0;

	if (!rate)
		return 1;
	m = bpf_map_lookup_elem(&pbt_meter, &zero);
	if (!m)
		return 0;
	cap = (__u64)(burst ? burst : 1) * PBT_TOKEN;
	if (cap > 0xffffffffULL)
		cap = 0xffffffffULL;
	need = (__u64)pkts * PBT_TOKEN;
	if (need > cap)
		need = cap;
	bpf_spin_lock(&m->lock);
	tok = m->tokens;
	if (!m->last_ns) {
		tok = cap;
	} else if (now > m->last_ns) {
		dt = now - m->last_ns;
		/* 4 s at most: 4e9 * 2^32 stays in 64 bits; a bucket is full by then or refilled next time. */
		if (dt > 4000000000ULL) {
			tok = cap;
		} else {
			add = dt * rate / 1000 * PBT_TOKEN / 1000000;
			tok = tok + add > cap ? cap : tok + add;
		}
	}
	if (now > m->last_ns || !m->last_ns)
		m->last_ns = now;
	if (tok >= need) {
		tok -= need;
		ok = 1;
	}
	m->tokens = (__u32)tok;
	bpf_spin_unlock(&m->lock);
	return ok;
}

/*
 * pbt_is_routed() - whether a packet's destination is one routers forward:
 * not IPv4 multicast, broadcast or 240/4 (224.0.0.0/3 and up), nor IPv4
 * link-local 169.254/16, nor IPv6 multicast ff00::/8 or link-local
 * fe80::/10. Packets to those (Neighbor Discovery, DHCP, mDNS) never cross
 * the domain: marked, they would only show as drops at the first hop.
 */
static __always_inline int pbt_is_routed(const struct pbt_pkt *p)
{
	if (p->family == 4)
		return p->daddr[0] < 224 && !(p->daddr[0] == 169 && p->daddr[1] == 254);
	if (p->daddr[0] == 0xff)
		return 0;
	return !(p->daddr[0] == 0xfe && (p->daddr[1] & 0xc0) == 0x80);
}

/* Outcome of pbt_head_select(): mark, or the counter of why not. */
#define SEL_MARK		0x100
#define SEL_MARK_TRIGGERED	0x200

/**
 * pbt_head_select() - whether the head marks this packet
 * @cfg:	domain
 * @p:		packet (%P_OK)
 * @ifindex:	egress interface (queue depth trigger)
 * @segs:	packets it makes on the wire (GSO: gso_segs)
 *
 * In order: the access list (cfg->sel rules, first match); triggers, when
 * any is set (cfg->trig_flags: the flow is marked only while triggered,
 * for trig_hold_ns after a packet of it carried ECN CE or left with the
 * egress queue above trig_qdepth bytes); sampling (cfg->sel.sample: all,
 * 1:N packets, 1:N flows by hash, or %PBT_SAMPLE_INTERVAL: one packet per
 * flow per interval_ns); the meter (pbt_meter_take()). A global function:
 * verified once. pbt_flows keeps a flow's last marked packet and trigger
 * (CLOCK_MONOTONIC).
 *
 * Return: %SEL_MARK (| %SEL_MARK_TRIGGERED), or the enum pbt_counter of
 * the stage that refused.
 */
__attribute__((noinline))
int pbt_head_select(struct pbt_domain_cfg *cfg, struct pbt_pkt *p, __u32 ifindex, __u32 segs)
{
	struct pbt_flow_state *fs = NULL, nfs = {};
	struct hopmark_qdepth qs;
	struct hm_flow_key k;
	int trig = 0, cond, flow;
	__u64 now = 0;

	if (!cfg || !p)
		return PBT_CNT_ERR;
	if (hm_sel_watch(&cfg->sel, &p->key) < 0)
		return PBT_CNT_NOT_WATCHED;
	/*
	 * The clock and the flow's state only where a stage needs them:
	 * triggers and interval sampling (pbt_flows), the meter (the clock).
	 * Sampling all, 1:N packets or 1:N flows reads neither.
	 */
	flow = cfg->trig_flags || cfg->sel.sample == PBT_SAMPLE_INTERVAL;
	if (flow || cfg->meter_rate)
		now = bpf_ktime_get_ns();
	/* On the stack: Linux 6.1's map helpers take no key in a global function's memory. */
	__builtin_memcpy(&k, &p->key, sizeof(k));
	if (flow)
		fs = bpf_map_lookup_elem(&pbt_flows, &k);
	if (cfg->trig_flags) {
		cond = (cfg->trig_flags & PBT_TRIG_CE) && (p->tos & PBT_ECN_MASK) == PBT_ECN_MASK;
		if (!cond && (cfg->trig_flags & PBT_TRIG_QDEPTH) &&
		    hm_queue_state(ifindex, hm_node_cfg(), &qs) &&
		    qs.backlog_bytes > cfg->trig_qdepth)
			cond = 1;
		if (cond) {
			if (fs) {
				fs->trig_until_ns = now + cfg->trig_hold_ns;
			} else {
				nfs.trig_until_ns = now + cfg->trig_hold_ns;
				bpf_map_update_elem(&pbt_flows, &k, &nfs, BPF_ANY);
				fs = bpf_map_lookup_elem(&pbt_flows, &k);
			}
		} else if (!fs || fs->trig_until_ns <= now) {
			return PBT_CNT_NOT_TRIGGERED;
		}
		trig = 1;
	}
	if (cfg->sel.sample == PBT_SAMPLE_INTERVAL) {
		if (fs && fs->last_mark_ns && now - fs->last_mark_ns < cfg->interval_ns)
			return PBT_CNT_NOT_SAMPLED;
	} else if (!hm_sel_sampled(&cfg->sel, &p->key, cfg->sel.sample == HM_SAMPLE_PACKET ?
				   bpf_get_prandom_u32() : 0)) {
		return PBT_CNT_NOT_SAMPLED;
	}
	if (!pbt_meter_take(cfg, segs, now))
		return PBT_CNT_METERED;
	if (cfg->sel.sample == PBT_SAMPLE_INTERVAL) {
		if (fs) {
			fs->last_mark_ns = now;
		} else {
			nfs.last_mark_ns = now;
			bpf_map_update_elem(&pbt_flows, &k, &nfs, BPF_ANY);
		}
	}
	return SEL_MARK | (trig ? SEL_MARK_TRIGGERED : 0);
}

/* ---------------- postcards ---------------- */

/*
 * pbt_queue_state() - hm_queue_state() (ioam_node.bpf.h) with a
 * CLOCK_MONOTONIC_COARSE reading (bpf_ktime_get_coarse_ns(): the time of
 * the last tick, no clock source read) instead of a CLOCK_MONOTONIC read
 * of its own. The reading's age is then judged up to one tick (1-10 ms)
 * short, against qdepth_max_age_ns of 1 s by default, readings taken every
 * --qdepth-interval.
 */
static __always_inline int pbt_queue_state(__u32 ifindex, const struct hopmark_node_cfg *node,
					   __u64 mono, struct hopmark_qdepth *qs)
{
	struct hopmark_qdepth *q = bpf_map_lookup_elem(&hopmark_qdepth, &ifindex);

	if (!q || !node)
		return 0;
	*qs = *q;
	if (mono > qs->updated_ns && mono - qs->updated_ns > node->qdepth_max_age_ns)
		return 0;
	return 1;
}

/*
 * Ring buffer slot of a record: BPF_RINGBUF_HDR_SZ (8) before it, 8-byte
 * aligned (what BPF_RB_AVAIL_DATA counts per record).
 */
#define PBT_REC_SLOT	((sizeof(struct pbt_record) + 8 + 7) / 8 * 8)

/**
 * pbt_postcard() - hand one postcard to hopmarkd (pbt_events)
 * @ctx:	packet
 * @xdp:	@ctx is an xdp_md (a constant)
 * @s:		scratch: the parsed packet (%P_OK)
 * @cfg:	domain
 * @ctr:	the run's counters
 * @point:	%PBT_PT_INGRESS or %PBT_PT_EGRESS
 * @in_if:	arrival interface (0: sent by this node)
 * @out_if:	departure interface (0: unknown, at ingress)
 * @rflags:	%PBT_REC_F_HEAD, %PBT_REC_F_END, %PBT_REC_F_GSO
 * @mark:	the method that found the mark (%PBT_V4_* / %PBT_V6_*)
 * @tosbit:	the mark bit when it is a TOS / Traffic Class bit, else 0
 *
 * The basic data set always; the fields of the flow's pbt_tpl entry when
 * it has one that has not expired (an expired one is counted and the basic
 * set sent). %PBT_FLD_NEXTHOP and %PBT_FLD_SOJOURN exist at egress only
 * and only when known: the next hop from bpf_fib_lookup() (output
 * lookup on @out_if; the gateway, or the destination when directly
 * connected), the sojourn from this CPU's pbt_arrival stamp of the same
 * packet ID and arrival interface; each missing one is counted. The
 * record's timestamp is also the ingress stamp (pbt_arrival).
 *
 * The record is written in place in the ring (reserve, fill, submit: no
 * copy). One clock source read, CLOCK_TAI for the timestamp; the queue
 * reading's age takes CLOCK_MONOTONIC_COARSE (pbt_queue_state()), and only
 * a flow with a template reads CLOCK_MONOTONIC, for its expiry. Wakeups
 * go by batch: only the record that makes the bytes
 * waiting cross a multiple of %PBT_EVENTS_WAKEUP_BYTES wakes hopmarkd
 * (one race lost between CPUs is made up at the next multiple), which
 * reads the rest every few ms.
 */
static __always_inline void pbt_postcard(void *ctx, int xdp, struct pbt_scratch *s,
					 const struct pbt_domain_cfg *cfg, struct pbt_ctr *ctr,
					 __u32 point, __u32 in_if, __u32 out_if, __u32 rflags,
					 __u32 mark, __u8 tosbit)
{
	struct hopmark_node_cfg *node = hm_node_cfg();
	struct pbt_pkt *p = &s->p;
	struct pbt_flow_tpl *tpl;
	struct pbt_arrival *a;
	struct hopmark_qdepth qs;
	struct pbt_record *r;
	__u32 zero = 0, n, fields = 0;
	__u64 now, coarse, avail, wake;

	if (xdp ? pbt_id_xdp(ctx, s) : pbt_id_tc(ctx, s)) {
		pbt_count(ctr, PBT_CNT_ERR);
		return;
	}
	r = bpf_ringbuf_reserve(&pbt_events, sizeof(*r), 0);
	if (!r) {
		pbt_count(ctr, PBT_CNT_EVENTS_LOST);
		return;
	}
	now = pbt_now(node);
	coarse = bpf_ktime_get_coarse_ns();
	__builtin_memset(r, 0, sizeof(*r));
	r->ts_ns = now;
	r->node_id = node && (node->flags & HM_NODE_F_ID) ? node->node_id : 0xffffff;
	r->in_ifindex = in_if;
	r->out_ifindex = out_if;
	r->pkt_id = p->pkt_id;
	r->qdepth = PBT_UNKNOWN32;
	if (point == PBT_PT_EGRESS) {
		if (pbt_queue_state(out_if, node, coarse, &qs))
			r->qdepth = qs.backlog_bytes;
	} else if (pbt_queue_state(0, node, coarse, &qs)) {
		r->qdepth = qs.node_backlog_bytes;
	}
	r->point = point;
	r->ttl = p->ttl;
	r->id_kind = PBT_ID_HASH;
	r->mark = mark;
	r->flags = rflags;
	if ((p->tos & PBT_ECN_MASK) == PBT_ECN_MASK)
		r->flags |= PBT_REC_F_CE;
	if (p->srh_off)
		r->flags |= PBT_REC_F_SRH;
	r->pkt_len = p->iplen > 0xffff ? 0xffff : p->iplen;
	__builtin_memcpy(&r->key, &p->key, sizeof(r->key));

	tpl = bpf_map_lookup_elem(&pbt_tpl, &p->key);
	if (tpl) {
		/* Expiry to the ns, as hopmarkd removes it: a flow with a template reads the clock. */
		if (tpl->expires_ns && bpf_ktime_get_ns() > tpl->expires_ns) {
			pbt_count(ctr, PBT_CNT_TEMPLATE_EXPIRED);
		} else {
			pbt_count(ctr, PBT_CNT_TEMPLATE);
			r->tpl_id = tpl->id;
			fields = tpl->fields & PBT_FLD_ALL;
		}
	}
	if (fields & PBT_FLD_TOS)
		r->tos = p->tos & ~tosbit;	/* as it came: without a TOS / TC mark bit */
	if (fields & PBT_FLD_SRH) {
		if (p->srh_off) {
			r->srh_flags = p->srh_flags;
			r->srh_sl = p->srh_sl;
			__builtin_memcpy(r->srh_active, p->daddr, 16);
		} else {
			fields &= ~PBT_FLD_SRH;
		}
	}
	if (fields & PBT_FLD_HEADER) {
		n = p->iplen < PBT_REC_HDR_MAX ? p->iplen : PBT_REC_HDR_MAX;
		if (n && !pbt_load(ctx, xdp, P_L3, r->hdr, hm_len_1_to(n, PBT_REC_HDR_MAX)))
			r->hdr_len = n;
		else
			fields &= ~PBT_FLD_HEADER;
	}
	if (point != PBT_PT_EGRESS || xdp)
		fields &= ~(PBT_FLD_NEXTHOP | PBT_FLD_SOJOURN);
	if (!xdp && (fields & PBT_FLD_NEXTHOP)) {
		struct bpf_fib_lookup fib = {};
		long rc;

		fib.family = p->family == 4 ? P_AF_INET : P_AF_INET6;
		fib.l4_protocol = p->key.proto;
		fib.sport = p->key.sport;
		fib.dport = p->key.dport;
		fib.tot_len = p->iplen > 0xffff ? 0xffff : p->iplen;
		fib.ifindex = out_if;
		if (p->family == 4) {
			__builtin_memcpy(&fib.ipv4_src, p->key.saddr, 4);
			__builtin_memcpy(&fib.ipv4_dst, p->daddr, 4);
		} else {
			__builtin_memcpy(fib.ipv6_src, p->key.saddr, 16);
			__builtin_memcpy(fib.ipv6_dst, p->daddr, 16);
		}
		rc = bpf_fib_lookup(ctx, &fib, sizeof(fib), BPF_FIB_LOOKUP_OUTPUT);
		if (rc == BPF_FIB_LKUP_RET_SUCCESS || rc == BPF_FIB_LKUP_RET_NO_NEIGH) {
			if (p->family == 4)
				__builtin_memcpy(r->nexthop, &fib.ipv4_dst, 4);
			else
				__builtin_memcpy(r->nexthop, fib.ipv6_dst, 16);
		} else {
			fields &= ~PBT_FLD_NEXTHOP;
			pbt_count(ctr, PBT_CNT_NO_NEXTHOP);
		}
	}
	if (fields & PBT_FLD_SOJOURN) {
		a = bpf_map_lookup_elem(&pbt_arrival, &zero);
		if (a && a->ts_ns && a->pkt_id == p->pkt_id && a->ifindex == in_if &&
		    now >= a->ts_ns) {
			r->sojourn_ns = now - a->ts_ns > 0xffffffffULL ? 0xffffffff :
					(__u32)(now - a->ts_ns);
		} else {
			fields &= ~PBT_FLD_SOJOURN;
			pbt_count(ctr, PBT_CNT_NO_SOJOURN);
		}
	}
	r->tpl_fields = fields;
	if (point == PBT_PT_INGRESS) {
		a = bpf_map_lookup_elem(&pbt_arrival, &zero);
		if (a) {
			a->pkt_id = p->pkt_id;
			a->ifindex = in_if;
			a->ts_ns = now;
		}
	}
	/* This record is reserved already: the waiting bytes include its slot. */
	avail = bpf_ringbuf_query(&pbt_events, BPF_RB_AVAIL_DATA);
	wake = avail >= PBT_REC_SLOT &&
	       avail >> PBT_EVENTS_WAKEUP_SHIFT != (avail - PBT_REC_SLOT) >> PBT_EVENTS_WAKEUP_SHIFT;
	bpf_ringbuf_submit(r, wake ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
	pbt_count(ctr, point == PBT_PT_INGRESS ? PBT_CNT_POSTCARD_INGRESS :
					       PBT_CNT_POSTCARD_EGRESS);
}

/* ---------------- the programs ---------------- */

/* Whether @skb is a GSO skb (segments made after tc egress, or by GRO before tc ingress). */
static __always_inline int pbt_is_gso(struct __sk_buff *skb)
{
	return skb->gso_segs > 1 || skb->gso_size;
}

/* The method a record names for the mark found at @loc. */
static __always_inline __u32 pbt_mark_kind(const struct pbt_domain_cfg *cfg,
					   const struct pbt_pkt *p, const struct pbt_mark_loc *loc)
{
	if (p->family == 4)
		return cfg->v4_mark;
	return loc->in_srh ? PBT_V6_OFLAG : PBT_V6_TC;
}

/* The mark bit as a TOS / Traffic Class bit, 0 when it is elsewhere. */
static __always_inline __u8 pbt_tos_bit(const struct pbt_pkt *p, const struct pbt_mark_loc *loc)
{
	if (p->family == 4)
		return loc->off == PBT_LOC_IPV4_W0 ? (__u8)loc->mask : 0;
	return loc->in_srh ? 0 : (__u8)(loc->mask >> 4);
}

/* The counter of a parse outcome that leaves no flow key. */
static __always_inline __u32 pbt_parse_cnt(int ret)
{
	return ret == P_NO_L4 ? PBT_CNT_UNSUPPORTED : PBT_CNT_MALFORMED;
}

/**
 * pbt_arrive() - what an arriving packet gets (XDP or tc ingress)
 * @ctx:	packet
 * @xdp:	@ctx is an xdp_md (a constant)
 * @ifindex:	arrival interface
 *
 * On an interface with %PBT_IF_F_INGRESS and/or %PBT_IF_F_END: a marked
 * packet gets an ingress postcard (flow key needed: a fragment or a
 * truncated TCP/UDP header gets none, counted), then, with END, its mark
 * cleared (whatever follows its IP headers: a mark never goes further).
 * Not IP: nothing. Malformed IP headers: untouched, counted. A packet
 * pbt_quick_unmarked() clears is left at once.
 */
static __always_inline void pbt_arrive(void *ctx, int xdp, __u32 ifindex)
{
	struct pbt_ctr ctr = { .ifindex = ifindex };
	struct pbt_domain_cfg *cfg;
	struct pbt_mark_loc loc;
	struct pbt_if_cfg *ifc;
	struct pbt_scratch *s;
	__u32 rflags = 0;
	__u16 word;
	int ret, m;

	ifc = bpf_map_lookup_elem(&pbt_ifcfg, &ifindex);
	if (!ifc || !(ifc->flags & (PBT_IF_F_INGRESS | PBT_IF_F_END)))
		return;
	cfg = pbt_domain();
	if (!cfg) {
		pbt_count(&ctr, PBT_CNT_NOT_CONFIGURED);
		return;
	}
	if (pbt_quick_unmarked(ctx, xdp, cfg))
		return;
	s = pbt_scratch_get();
	if (!s)
		return;
	ret = xdp ? pbt_parse_xdp(ctx, s) : pbt_parse_tc(ctx, s);
	if (ret == P_NOT_IP)
		return;
	if (ret == P_MALFORMED) {
		pbt_count(&ctr, PBT_CNT_MALFORMED);
		return;
	}
	m = pbt_mark_find(cfg, &s->p, &loc, &word);
	if (m == M_BAD_BIT || m == M_ALTMARK) {
		pbt_count(&ctr, m == M_BAD_BIT ? PBT_CNT_BAD_BIT : PBT_CNT_ALTMARK);
		return;
	}
	if (m != M_YES)
		return;
	if (!xdp && pbt_is_gso(ctx)) {
		rflags |= PBT_REC_F_GSO;
		pbt_count(&ctr, PBT_CNT_GSO);
	}
	if (ifc->flags & PBT_IF_F_END)
		rflags |= PBT_REC_F_END;
	if (ifc->flags & PBT_IF_F_INGRESS) {
		if (ret == P_OK)
			pbt_postcard(ctx, xdp, s, cfg, &ctr, PBT_PT_INGRESS, ifindex, 0, rflags,
				     pbt_mark_kind(cfg, &s->p, &loc), pbt_tos_bit(&s->p, &loc));
		else
			pbt_count(&ctr, pbt_parse_cnt(ret));
	}
	if (ifc->flags & PBT_IF_F_END) {
		if (pbt_mark_write(ctx, xdp, &s->p, &loc, word, 0))
			pbt_count(&ctr, PBT_CNT_ERR);
		else
			pbt_count(&ctr, PBT_CNT_CLEARED);
	}
}

/**
 * hm_pbt_xdp() - PBT-M at XDP of an arriving interface
 * @ctx:	arriving frame
 *
 * pbt_arrive(): INGRESS postcard, END clear.
 *
 * Return: XDP_PASS, always.
 */
SEC("xdp")
int hm_pbt_xdp(struct xdp_md *ctx)
{
	pbt_arrive(ctx, 1, ctx->ingress_ifindex);
	return XDP_PASS;
}

/**
 * hm_pbt_ingress() - PBT-M at tc ingress (veths: XDP there costs TSO)
 * @skb:	arriving packet
 *
 * pbt_arrive(), as hm_pbt_xdp(). A GSO skb (GRO on the receiving
 * device) gets one postcard, flagged %PBT_REC_F_GSO and counted.
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("classifier")
int hm_pbt_ingress(struct __sk_buff *skb)
{
	pbt_arrive(skb, 0, skb->ifindex);
	return TC_ACT_UNSPEC;
}

/**
 * hm_pbt_egress() - PBT-M at tc egress: head, postcard, end
 * @skb:	departing packet
 *
 * On an interface with %PBT_IF_F_HEAD, an unmarked packet that
 * pbt_head_select() picks gets the mark (never the node's own IPFIX
 * export, pbt_is_export(); never a fragment or a packet without a whole
 * TCP/UDP header, counted); a packet marked already is left alone
 * (counted). Then a marked packet gets an egress postcard with
 * %PBT_IF_F_EGRESS, and its mark cleared with %PBT_IF_F_END. A GSO skb is
 * marked, postcarded and cleared as one: its segments copy its IP header
 * and SRH, mark included; the meter charges gso_segs packets. Without
 * the head role, a packet pbt_quick_unmarked() clears is left at once.
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("tc")
int hm_pbt_egress(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex, rflags = 0, segs;
	struct pbt_ctr ctr = { .ifindex = ifindex };
	struct pbt_domain_cfg *cfg;
	struct pbt_mark_loc loc;
	struct pbt_if_cfg *ifc;
	struct pbt_scratch *s;
	int ret, m, sel, gso;
	__u16 word;

	ifc = bpf_map_lookup_elem(&pbt_ifcfg, &ifindex);
	if (!ifc || !(ifc->flags & (PBT_IF_F_HEAD | PBT_IF_F_EGRESS | PBT_IF_F_END)))
		return TC_ACT_UNSPEC;
	cfg = pbt_domain();
	if (!cfg) {
		pbt_count(&ctr, PBT_CNT_NOT_CONFIGURED);
		return TC_ACT_UNSPEC;
	}
	if (!(ifc->flags & PBT_IF_F_HEAD) && pbt_quick_unmarked(skb, 0, cfg))
		return TC_ACT_UNSPEC;
	s = pbt_scratch_get();
	if (!s)
		return TC_ACT_UNSPEC;
	ret = pbt_parse_tc(skb, s);
	if (ret == P_NOT_IP) {
		if (ifc->flags & PBT_IF_F_HEAD)
			pbt_count(&ctr, PBT_CNT_UNSUPPORTED);
		return TC_ACT_UNSPEC;
	}
	if (ret == P_MALFORMED) {
		pbt_count(&ctr, PBT_CNT_MALFORMED);
		return TC_ACT_UNSPEC;
	}
	m = pbt_mark_find(cfg, &s->p, &loc, &word);
	if (m == M_BAD_BIT || m == M_ALTMARK) {
		pbt_count(&ctr, m == M_BAD_BIT ? PBT_CNT_BAD_BIT : PBT_CNT_ALTMARK);
		return TC_ACT_UNSPEC;
	}
	gso = pbt_is_gso(skb);
	if (gso)
		rflags |= PBT_REC_F_GSO;
	if ((ifc->flags & PBT_IF_F_HEAD) && m == M_YES) {
		pbt_count(&ctr, PBT_CNT_ALREADY_MARKED);
	} else if (ifc->flags & PBT_IF_F_HEAD) {
		if (ret != P_OK) {
			pbt_count(&ctr, pbt_parse_cnt(ret));
			return TC_ACT_UNSPEC;
		}
		if (pbt_is_export(cfg, &s->p)) {
			pbt_count(&ctr, PBT_CNT_EXPORT);
			return TC_ACT_UNSPEC;
		}
		if (!pbt_is_routed(&s->p)) {
			pbt_count(&ctr, PBT_CNT_NOT_UNICAST);
			return TC_ACT_UNSPEC;
		}
		segs = skb->gso_segs > 1 ? skb->gso_segs : 1;
		sel = pbt_head_select(cfg, &s->p, ifindex, segs);
		if (!(sel & SEL_MARK)) {
			pbt_count(&ctr, sel);
			return TC_ACT_UNSPEC;
		}
		if (pbt_mark_write(skb, 0, &s->p, &loc, word, 1)) {
			pbt_count(&ctr, PBT_CNT_ERR);
			return TC_ACT_UNSPEC;
		}
		pbt_count(&ctr, PBT_CNT_MARKED);
		if (sel & SEL_MARK_TRIGGERED)
			pbt_count(&ctr, PBT_CNT_TRIGGERED);
		word = pbt_mark_word(word, loc.mask, 1);
		rflags |= PBT_REC_F_HEAD;
		m = M_YES;
	}
	if (m != M_YES)
		return TC_ACT_UNSPEC;
	if (gso)
		pbt_count(&ctr, PBT_CNT_GSO);
	if (ifc->flags & PBT_IF_F_EGRESS) {
		if (ret == P_OK)
			pbt_postcard(skb, 0, s, cfg, &ctr, PBT_PT_EGRESS, skb->ingress_ifindex,
				     ifindex, rflags | ((ifc->flags & PBT_IF_F_END) ? PBT_REC_F_END : 0),
				     pbt_mark_kind(cfg, &s->p, &loc), pbt_tos_bit(&s->p, &loc));
		else
			pbt_count(&ctr, pbt_parse_cnt(ret));
	}
	if (ifc->flags & PBT_IF_F_END) {
		if (pbt_mark_write(skb, 0, &s->p, &loc, word, 0))
			pbt_count(&ctr, PBT_CNT_ERR);
		else
			pbt_count(&ctr, PBT_CNT_CLEARED);
	}
	return TC_ACT_UNSPEC;
}
