// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_int.bpf.c - the INT v2.1 datapath over TCP and UDP (INT.mdk,
 * footer 2020-11-11), IPv4 and IPv6, four tc programs, one per role of an
 * interface (int_ifcfg[ifindex].flags, lib/int/int_maps.h):
 *
 *	hm_int_source	tc egress of the source: selects packets (watchlist
 *			and sampling, lib/select/select.h), inserts the shim
 *			and the INT-MD header with its own metadata, or the
 *			INT-MX header and a record of its metadata (§5.7.2,
 *			§5.8, §5.9)
 *	hm_int_ingress	tc ingress of a transit node: stamps the arrival time
 *			into int_arrival for hop latency / ingress timestamp
 *	hm_int_transit	tc egress of a transit node: pushes this hop's
 *			metadata (MD), records it (MX), records watched
 *			packets (INT-XD, %INT_IF_F_XD), records congested
 *			queues (Q)
 *	hm_int_sink	tc ingress of the sink: records the stack and its own
 *			metadata, removes everything the source and transits
 *			added, restores DSCP / port / protocol and the L4
 *			checksum, drops after extraction when D is set
 *
 * Records (struct int_record) go to the int_events ring buffer; hopmarkd
 * turns them into Telemetry Report v2.0. Node ID, interface IDs, clock and
 * queue state come from the IOAM maps as in ioam_node.bpf.h (one reading of
 * hopmark_qdepth per packet). Nothing the programs cannot handle is ever
 * changed: it is forwarded unchanged and counted in int_stats.
 * See Documentation/int.rst, "Datapath".
 */
#include "ioam_node.bpf.h"
#include "int_maps.bpf.h"
#include "ipv4/ipv4.h"
#include "common/ip_proto.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/*
 * Test switch, read-only data a loader may set before loading: the
 * CLOCK_TAI reading in ns instead of bpf_ktime_get_tai_ns(), so that the
 * tests can compute timestamps and hop latency exactly. 0 in production.
 */
const volatile __u64 hm_int_fixed_tai_ns = 0;

#define I_L3		HM_ETH_HLEN	/* IP header offset in the frame */
/* Octets of the packet, from its IP header, copied for parsing. */
#define I_HDR_LEN	256
#define I_HDR_MASK	(I_HDR_LEN - 1)
/* Block built before a store: moved headers + new INT data, or an INT region. */
#define I_BLK_LEN	2048
#define I_BLK_MASK	(I_BLK_LEN - 1)
#define I_MD_LEN	128
#define I_MD_MASK	(I_MD_LEN - 1)
#define I_SLACK		64

/* TX utilisation window (bit 7): bytes sent over the last complete 10 ms. */
#define I_TX_WIN_NS	10000000ULL

/**
 * struct int_pkt - what the programs parse out of a packet
 * @key:	5-tuple for the watchlist (lib/select/select.h)
 * @hlen:	octets copied into int_scratch.hdr
 * @l3len:	IP header length (IPv4 IHL * 4, IPv6 40)
 * @iplen:	IP packet length (IPv4 Total Length, IPv6 40 + Payload Length)
 * @l4len:	TCP/UDP header length (TCP: Data Offset * 4, options included)
 * @family:	4 or 6
 * @proto:	IP protocol / IPv6 Next Header
 * @dscp:	DSCP / Traffic Class >> 2
 * @sport:	L4 source port, host order
 * @dport:	L4 destination port, host order
 * @csum:	L4 checksum field, host order
 */
struct int_pkt {
	struct hm_flow_key	key;
	__u32			hlen;
	__u32			l3len;
	__u32			iplen;
	__u32			l4len;
	__u8			family;
	__u8			proto;
	__u8			dscp;
	__u8			pad;
	__u16			sport;
	__u16			dport;
	__u16			csum;
};

/**
 * struct int_loc - where the INT data of a packet is
 * @shim:	offset of the shim from the IP header
 * @csum_off:	offset of the checksum field covering the INT data (the
 *		TCP/UDP checksum for NPT 0/1, the inserted UDP header's for NPT 2)
 * @words:	shim Length: words after the shim
 * @type:	%INT_TYPE_MD or %INT_TYPE_MX
 * @npt:	%INT_NPT_*
 * @w0:		first word of the MD/MX header, host order
 * @bitmap:	Instruction Bitmap, host order
 * @hop_ml:	Hop ML (MD)
 * @csum:	the checksum at @csum_off, host order (0: none, UDP)
 * @udp:	the header at @shim - 8 is a UDP header (NPT 1 and 2)
 */
struct int_loc {
	__u32	shim;
	__u32	csum_off;
	__u32	words;
	__u32	type;
	__u32	npt;
	__u32	w0;
	__u32	bitmap;
	__u32	hop_ml;
	__u32	csum;
	__u32	udp;
};

/*
 * Words of a node's block for bits 0-14 in bit order: 18 of them (bits 4-6
 * are two words each). I_W_BIT[k] is the bitmap bit of word k.
 */
#define I_NWORDS	18
/* Bitmap bit of word @k of a block (bits 4-6 are two words each). */
static __always_inline __u32 int_w_bit(__u32 k)
{
	return k < 4 ? k : k < 10 ? 2 + k / 2 : k - 3;
}

/**
 * struct int_vals - this node's values, host order, all-ones when unknown
 * @w:		the 18 words of bits 0-14 (reserved bits 9-14: 0xffffffff)
 * @unavail:	bitmap bits (INT_BM_*) whose whole field is unknown
 * @now:	egress (or, at the sink, arrival) time, CLOCK_REALTIME ns
 * @qdepth:	egress queue occupancy, bytes, when @have_q
 * @have_q:	a fresh hopmark_qdepth reading was used
 * @queue_id:	egress queue index
 */
struct int_vals {
	__u32	w[I_NWORDS];
	__u32	unavail;
	__u64	now;
	__u32	qdepth;
	__u32	have_q;
	__u32	queue_id;
};

/**
 * struct int_scratch - per-CPU working memory of one run
 * @hdr:	the packet's first I_HDR_LEN octets from the IP header
 * @blk:	what is stored back: moved headers and the new INT data (source,
 *		transit), or the INT region being removed (sink)
 * @md:		this node's metadata for a record, RepMdBits order
 * @p:		the parsed packet
 * @l:		its INT data
 * @v:		this node's values
 * @launder:	see hm_launder()
 */
struct int_scratch {
	__u8	hdr[I_HDR_LEN + I_SLACK];
	__u8	blk[I_BLK_LEN + I_SLACK];
	__u8	md[I_MD_LEN + I_SLACK];
	struct int_pkt	p;
	struct int_loc	l;
	struct int_vals	v;
	__u32	launder;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct int_scratch);
} int_scratch SEC(".maps");

/**
 * struct int_txrate - bytes sent on an egress interface, per window
 * @win_start_ns:	CLOCK_MONOTONIC start of the current window
 * @win_bytes:		bytes in it so far
 * @last_bytes:		bytes of the last complete window
 * @last_ns:		its length, ns (0: none yet)
 */
struct int_txrate {
	__u64	win_start_ns;
	__u64	win_bytes;
	__u64	last_bytes;
	__u64	last_ns;
};

/* Not pinned: one egress program runs per interface, keyed by ifindex. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, INT_MAX_IFACES);
	__type(key, __u32);
	__type(value, struct int_txrate);
} int_txrate SEC(".maps");

/* ---------------- counters, configuration, clock ---------------- */

const struct int_link_stats int_stats_zero = {};

/**
 * int_count() - count one INT datapath action on an interface
 * @ifindex:	interface the action is accounted to
 * @cnt:	enum int_counter
 *
 * Global function: the verifier checks it once, not at every call site.
 *
 * Return: 0.
 */
__attribute__((noinline))
int int_count(__u32 ifindex, __u32 cnt)
{
	struct int_link_stats *st;
	__u64 idx = cnt;

	asm volatile("" : "+r"(idx));
	if (idx >= INT_CNT_MAX)
		return 0;
	st = bpf_map_lookup_elem(&int_stats, &ifindex);
	if (!st) {
		bpf_map_update_elem(&int_stats, &ifindex, &int_stats_zero, BPF_NOEXIST);
		st = bpf_map_lookup_elem(&int_stats, &ifindex);
		if (!st)
			return 0;
	}
	st->cnt[idx]++;
	return 0;
}

static __always_inline struct int_domain_cfg *int_domain(void)
{
	__u32 zero = 0;
	struct int_domain_cfg *cfg = bpf_map_lookup_elem(&int_cfg, &zero);

	if (!cfg || !(cfg->flags & INT_DOM_F_CONFIGURED))
		return NULL;
	return cfg;
}

static __always_inline struct int_scratch *int_scratch_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&int_scratch, &zero);
}

/* hm_now_posix_ns(), or the fixed clock of a test copy. */
static __always_inline __u64 int_now(const struct hopmark_node_cfg *node)
{
	__u64 t;

	if (!hm_int_fixed_tai_ns)
		return hm_now_posix_ns(node);
	t = hm_int_fixed_tai_ns;
	if (node)
		t -= (__u64)node->tai_offset_ns;
	return t;
}

/* ---------------- one's complement arithmetic (RFC 1071, RFC 1624) ---------------- */

/*
 * Sums are of 16-bit words read big-endian (the sum does not depend on
 * byte order, RFC 1071 §2), kept unfolded in 32 bits and folded at the end.
 */
static __always_inline __u32 cs_fold(__u32 s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return s;
}

/* The two 16-bit halves of @v. */
static __always_inline __u32 cs_w32(__u32 v)
{
	return (v >> 16) + (v & 0xffff);
}

/* Sum change of a 16-bit field going from @old to @new: ~old + new. */
static __always_inline __u32 cs_repl(__u32 old, __u32 new)
{
	return (~old & 0xffff) + (new & 0xffff);
}

/*
 * cs_apply() - checksum field @check (host order) after the covered data's
 * sum changed by @delta (RFC 1624 eq. 3: HC' = ~(~HC + delta)).
 */
static __always_inline __u32 cs_apply(__u32 check, __u32 delta)
{
	return ~cs_fold((~check & 0xffff) + cs_fold(delta)) & 0xffff;
}

/*
 * int_words() - int_bitmap_words() of lib/int/int.h, inlined: clang keeps
 * int_popcount16() a BPF subprogram, which the verifier then walks once
 * per caller state.
 */
static __always_inline __u32 int_words(__u32 bm)
{
	return __builtin_popcount(bm & 0xffff) + __builtin_popcount(bm & INT_BM_WIDE_MASK);
}

/* ---------------- byte access to the scratch copies ---------------- */

#define HB(s, o)	((s)->hdr[(o) & I_HDR_MASK])
#define HW16(s, o)	((__u32)HB(s, o) << 8 | HB(s, (o) + 1))
#define HW32(s, o)	((__u32)HB(s, o) << 24 | (__u32)HB(s, (o) + 1) << 16 | \
			 (__u32)HB(s, (o) + 2) << 8 | HB(s, (o) + 3))
#define BB(s, o)	((s)->blk[(o) & I_BLK_MASK])

static __always_inline void blk_wr16(struct int_scratch *s, __u32 o, __u32 v)
{
	BB(s, o) = v >> 8;
	BB(s, o + 1) = v;
}

static __always_inline __u32 blk_rd16(struct int_scratch *s, __u32 o)
{
	return (__u32)BB(s, o) << 8 | BB(s, o + 1);
}

static __always_inline void blk_wr32(struct int_scratch *s, __u32 o, __u32 v)
{
	*(__u32 *)&s->blk[o & I_BLK_MASK] = bpf_htonl(v);
}

static __always_inline void hdr_wr16(struct int_scratch *s, __u32 o, __u32 v)
{
	HB(s, o) = v >> 8;
	HB(s, o + 1) = v;
}

/* ---------------- parsing ---------------- */

/* Parse outcomes. */
enum {
	I_OK,
	I_NOT_IP,	/* not IPv4/IPv6 over Ethernet, or not a whole IP header */
	I_PROTO,	/* neither TCP nor UDP, a fragment, or an unusable L4 header */
};


/* Offset of the TCP/UDP checksum field in its header. */
static __always_inline __u32 int_l4_csum_off(__u8 proto)
{
	return proto == HM_IPPROTO_TCP ? 16 : 6;
}

/**
 * int_parse() - copy and parse the IP and TCP/UDP headers
 * @skb:	packet
 * @s:		scratch; @s->hdr receives the octets from the IP header on,
 *		@s->p is filled
 *
 * IPv4 without fragmentation; IPv6 with TCP or UDP right after the fixed
 * header (extension headers are not parsed: %I_PROTO). A global
 * function: verified once, not once per path of each program.
 *
 * Return: %I_OK, %I_NOT_IP or %I_PROTO.
 */
__attribute__((noinline))
int int_parse(struct __sk_buff *skb, struct int_scratch *s)
{
	__u32 avail, n, o, i;
	struct int_pkt *p;

	if (!skb || !s)
		return I_NOT_IP;
	p = &s->p;
	avail = skb->len > I_L3 ? skb->len - I_L3 : 0;

	if (skb->protocol == bpf_htons(ETH_P_IP))
		p->family = 4;
	else if (skb->protocol == bpf_htons(ETH_P_IPV6))
		p->family = 6;
	else
		return I_NOT_IP;
	if (avail < HM_IPV4_HDR_LEN)
		return I_NOT_IP;
	n = avail < I_HDR_LEN ? avail : I_HDR_LEN;
	if (bpf_skb_load_bytes(skb, I_L3, s->hdr, hm_len_1_to(n, I_HDR_LEN)))
		return I_NOT_IP;
	p->hlen = n;
	__builtin_memset(&p->key, 0, sizeof(p->key));
	p->key.family = p->family;
	if (p->family == 4) {
		if ((HB(s, 0) >> 4) != 4)
			return I_NOT_IP;
		p->l3len = (__u32)(HB(s, 0) & 0x0f) * 4;
		p->iplen = HW16(s, HM_IPV4_OFF_TOT_LEN);
		if (p->l3len < HM_IPV4_HDR_LEN || p->iplen < p->l3len || p->iplen > avail)
			return I_NOT_IP;
		if (HW16(s, HM_IPV4_OFF_FRAG) & (HM_IPV4_F_MF | HM_IPV4_OFFSET_MASK))
			return I_PROTO;
		p->proto = HB(s, HM_IPV4_OFF_PROTOCOL);
		p->dscp = HB(s, HM_IPV4_OFF_TOS) >> 2;
		for (i = 0; i < 4; i++) {
			p->key.saddr[i] = HB(s, HM_IPV4_OFF_SADDR + i);
			p->key.daddr[i] = HB(s, HM_IPV4_OFF_DADDR + i);
		}
	} else {
		if (avail < HM_IPV6_HDR_LEN || (HB(s, 0) >> 4) != 6)
			return I_NOT_IP;
		p->l3len = HM_IPV6_HDR_LEN;
		p->iplen = HM_IPV6_HDR_LEN + HW16(s, HM_IPV6_OFF_PAYLOAD_LEN);
		if (p->iplen > avail)
			return I_NOT_IP;
		p->proto = HB(s, HM_IPV6_OFF_NEXTHDR);
		p->dscp = (HW16(s, 0) >> 6) & 0x3f;
		for (i = 0; i < 16; i++) {
			p->key.saddr[i] = HB(s, HM_IPV6_OFF_SADDR + i);
			p->key.daddr[i] = HB(s, HM_IPV6_OFF_DADDR + i);
		}
	}
	p->key.proto = p->proto;
	o = p->l3len;
	if (p->proto == HM_IPPROTO_UDP) {
		p->l4len = 8;
	} else if (p->proto == HM_IPPROTO_TCP) {
		if (o + 20 > p->iplen || o + 20 > n)
			return I_PROTO;
		p->l4len = (__u32)(HB(s, o + 12) >> 4) * 4;
		if (p->l4len < 20)
			return I_PROTO;
	} else {
		return I_PROTO;
	}
	if (o + p->l4len > p->iplen || o + p->l4len > n)
		return I_PROTO;
	p->sport = HW16(s, o);
	p->dport = HW16(s, o + 2);
	p->key.sport = bpf_htons(p->sport);
	p->key.dport = bpf_htons(p->dport);
	p->csum = HW16(s, o + int_l4_csum_off(p->proto));
	return I_OK;
}

/*
 * int_pseudo_sum() - sum of the TCP/UDP pseudo-header (RFC 768, RFC 793,
 * RFC 8200 §8.1) for protocol @proto and upper-layer length @l4len.
 */
static __always_inline __u32 int_pseudo_sum(struct int_scratch *s, const struct int_pkt *p,
					    __u32 proto, __u32 l4len)
{
	__u32 sum = proto + l4len, i;

	if (p->family == 4) {
		for (i = 0; i < 8; i += 2)
			sum += HW16(s, HM_IPV4_OFF_SADDR + i);
	} else {
		for (i = 0; i < 32; i += 2)
			sum += HW16(s, HM_IPV6_OFF_SADDR + i);
	}
	return sum;
}

/*
 * int_csum_partial() - whether the skb looks CHECKSUM_PARTIAL: its L4
 * checksum field holds the folded pseudo-header sum and nothing else, as
 * the stack leaves it for offload (tcp_v4_send_check(), udp4_hwcsum(),
 * and their IPv6 counterparts). tc BPF cannot read skb->ip_summed; a fully
 * checksummed packet passes for partial only when its data sums to -0,
 * once in 65535, and is then left unchanged (counted), never corrupted.
 */
static __always_inline int int_csum_partial(struct int_scratch *s, const struct int_pkt *p)
{
	if (p->proto == HM_IPPROTO_UDP && !p->csum)
		return 0;
	return p->csum == cs_fold(int_pseudo_sum(s, p, p->proto, p->iplen - p->l3len));
}

/*
 * int_cannot_edit() - whether this hook must leave a packet's INT region
 * alone, counted: a GSO superpacket (tc runs before segmentation, and GSO
 * copies headers only to the end of the TCP header), or, for NPT 0/1 (INT
 * after the L4 header), a CHECKSUM_PARTIAL skb, whose csum_start tc BPF
 * cannot move (Documentation/int.rst, "Checksums"). @gso_cnt is the
 * counter for a GSO packet (the source has its own).
 *
 * Return: 1 when the packet is to go on unchanged, 0 to edit it.
 */
static __always_inline int int_cannot_edit(struct __sk_buff *skb, struct int_scratch *s,
					   const struct int_pkt *p, __u32 npt, __u32 ifindex,
					   __u32 gso_cnt)
{
	if (skb->gso_segs > 1 || skb->gso_size) {
		int_count(ifindex, gso_cnt);
		return 1;
	}
	if (npt != INT_NPT_L4 && int_csum_partial(s, p)) {
		int_count(ifindex, INT_CNT_CSUM_PARTIAL);
		return 1;
	}
	return 0;
}

/* ---------------- finding INT in a packet ---------------- */

enum {
	I_NONE,		/* no INT signalled */
	I_INT,		/* INT found and consistent */
	I_BAD,		/* signalled, but malformed: forward unchanged, count */
};


/**
 * int_find() - the INT data the domain's signalling says the packet has
 * @cfg:	domain
 * @s:		scratch with the headers and @s->p; @s->l is filled for
 *		%I_INT (and partly for %I_BAD)
 *
 * DSCP signalling (NPT 0): DSCP equal to the domain's value under its
 * mask, shim after the TCP/UDP header. UDP signalling: destination port
 * the domain's, shim after the UDP header, NPT 1 or 2. Then the checks of
 * §5.7.2 and §5.8: the shim and header lie inside the packet, Type MD or
 * MX, Length at least the 12-octet header and inside the packet, Ver 2,
 * and for MD a Hop ML at least the words the bitmap implies. A global
 * function: verified once.
 *
 * Return: %I_NONE, %I_INT or %I_BAD.
 */
__attribute__((noinline))
int int_find(const struct int_domain_cfg *cfg, struct int_scratch *s)
{
	struct int_pkt *p;
	struct int_loc *l;
	__u32 o;

	if (!cfg || !s)
		return I_NONE;
	p = &s->p;
	l = &s->l;
	__builtin_memset(l, 0, sizeof(*l));
	o = p->l3len;

	if (cfg->signal == INT_SIG_DSCP) {
		if ((p->dscp ^ cfg->dscp) & cfg->dscp_mask & 0x3f)
			return I_NONE;
		l->shim = o + p->l4len;
		l->csum_off = o + int_l4_csum_off(p->proto);
		l->udp = p->proto == HM_IPPROTO_UDP;
	} else {
		if (p->proto != HM_IPPROTO_UDP || p->dport != cfg->udp_port)
			return I_NONE;
		l->shim = o + 8;
		l->csum_off = o + 6;
		l->udp = 1;
	}
	l->csum = HW16(s, l->csum_off);
	if (l->shim + INT_FIXED_LEN > p->iplen || l->shim + INT_FIXED_LEN > p->hlen)
		return I_BAD;
	l->type = HB(s, l->shim) >> 4;
	l->npt = (HB(s, l->shim) >> 2) & 3;
	l->words = HB(s, l->shim + 1);
	if (l->type != INT_TYPE_MD && l->type != INT_TYPE_MX)
		return I_BAD;
	if (cfg->signal == INT_SIG_DSCP ? l->npt != INT_NPT_DSCP :
	    l->npt != INT_NPT_UDP && l->npt != INT_NPT_L4)
		return I_BAD;
	if (l->words * 4 < INT_HDR_LEN || l->shim + INT_SHIM_LEN + l->words * 4 > p->iplen)
		return I_BAD;
	l->w0 = HW32(s, l->shim + 4);
	l->bitmap = HW16(s, l->shim + 8);
	l->hop_ml = int_md_hop_ml(l->w0);
	if (int_md_ver(l->w0) != INT_VERSION)
		return I_BAD;
	if (l->type == INT_TYPE_MD && l->hop_ml < int_words(l->bitmap))
		return I_BAD;
	return I_INT;
}

/* ---------------- this node's metadata (§5.8, units: Documentation/int.rst) ---------------- */




/*
 * int_tx_account() - add @len octets to the current window of @ifindex
 * (int_txrate), closing it when I_TX_WIN_NS have passed. Called for every
 * packet leaving an interface that has a rate configured, INT or not, so
 * that the utilisation is the interface's.
 */
static __always_inline void int_tx_account(__u32 ifindex, __u32 len)
{
	struct int_txrate *t = bpf_map_lookup_elem(&int_txrate, &ifindex);
	struct int_txrate init = {};
	__u64 now = bpf_ktime_get_ns();

	if (!t) {
		init.win_start_ns = now;
		bpf_map_update_elem(&int_txrate, &ifindex, &init, BPF_NOEXIST);
		t = bpf_map_lookup_elem(&int_txrate, &ifindex);
		if (!t)
			return;
	}
	if (now > t->win_start_ns && now - t->win_start_ns >= I_TX_WIN_NS) {
		t->last_bytes = t->win_bytes;
		t->last_ns = now - t->win_start_ns;
		t->win_start_ns = now;
		t->win_bytes = 0;
	}
	__sync_fetch_and_add(&t->win_bytes, len);
}

/*
 * int_tx_util() - TX utilisation of @ifindex in units of 0.01 % of
 * @rate_bps over the last complete I_TX_WIN_NS window (int_tx_account());
 * INT_UNAVAIL32 without a rate or before a window completed.
 */
static __always_inline __u32 int_tx_util(__u32 ifindex, __u64 rate_bps)
{
	struct int_txrate *t = bpf_map_lookup_elem(&int_txrate, &ifindex);
	__u64 cap, u;

	if (!t || !rate_bps || !t->last_ns)
		return INT_UNAVAIL32;
	/* Bits the link carries in the window; rate <= 2^40 b/s keeps it in 64 bits. */
	cap = rate_bps * (t->last_ns / 1000) / 1000000;
	if (!cap)
		return INT_UNAVAIL32;
	u = t->last_bytes * 8 * 10000 / cap;
	return u > 0xfffffffeULL ? 0xfffffffe : (__u32)u;
}

/*
 * int_fingerprint() - hash of what forwarding leaves alone in a packet
 * (struct int_arrival): @s->hdr holds it from the IP header, @n octets.
 */
static __always_inline __u32 int_fingerprint(struct int_scratch *s, __u32 family, __u32 n)
{
	__u32 h = family, i, o;

	if (family == 4) {
		o = (__u32)(HB(s, 0) & 0x0f) * 4;
		h = hm_sel_mix(h, HW32(s, 0) & 0x00ffffff);	/* TOS, Total Length */
		h = hm_sel_mix(h, HW32(s, 4));			/* ID, flags, offset */
		h = hm_sel_mix(h, HB(s, 9));			/* protocol (not TTL) */
		h = hm_sel_mix(h, HW32(s, 12));
		h = hm_sel_mix(h, HW32(s, 16));
	} else {
		o = HM_IPV6_HDR_LEN;
		h = hm_sel_mix(h, HW32(s, 0));			/* TC, flow label */
		h = hm_sel_mix(h, HW32(s, 4) >> 8);		/* length, next header */
		for (i = 8; i < 40; i += 4)
			h = hm_sel_mix(h, HW32(s, i));
	}
	if (o + 8 <= n) {
		h = hm_sel_mix(h, HW32(s, o));
		h = hm_sel_mix(h, HW32(s, o + 4));
	}
	return h;
}

#define I_AT_EGRESS	1	/* the values of a tc egress hook */
#define I_AT_SINK	0	/* of the sink's tc ingress */

/**
 * int_vals_fill() - this node's metadata values for the bits of @bm
 * @skb:	packet (ifindex, ingress_ifindex, queue_mapping, len)
 * @s:		scratch: @s->hdr and @s->p the packet, @s->v the output
 * @egress:	%I_AT_EGRESS or %I_AT_SINK
 * @bm:		bits (INT_BM_*) whose values are wanted; others stay all-ones
 * @want_q:	read the queue even without bits 3/8 (queue reports)
 *
 * Sources, as hm_node_values_for() for IOAM: node ID hopmark_node.node_id
 * (32 bits), L1 interface IDs hopmark_ifcfg.if_id, L2 IDs .if_id_wide,
 * queue and buffer occupancy one hopmark_qdepth[ifindex] reading (bytes,
 * fresh within qdepth_max_age_ns), queue ID skb->queue_mapping, buffer ID
 * 0 (the node's one buffer), timestamps hm_now_posix_ns() (ns, 64 bits),
 * hop latency egress time minus the int_arrival stamp (ns), TX utilisation
 * int_tx_util() of the window int_tx_account() keeps for every packet.
 * At the sink (tc ingress) the egress fields, hop latency and the queue
 * are unknown and the ingress timestamp is now.
 *
 * Return: 0.
 */
__attribute__((noinline))
int int_vals_fill(struct __sk_buff *skb, struct int_scratch *s, int egress, __u32 bm, int want_q)
{
	struct hopmark_node_cfg *node = hm_node_cfg();
	struct int_vals *v;
	struct int_pkt *p;
	struct int_arrival *a;
	struct hopmark_qdepth qs;
	struct int_if_cfg *ifc;
	__u32 i, zero = 0, in_if, out_ifx, iif;
	__u32 in_wide, out_wide;
	__u16 in_id, out_id;
	__u64 lat, its = INT_UNAVAIL64;

	if (!skb || !s)
		return 0;
	v = &s->v;
	p = &s->p;
	/* Two loads: the verifier refuses a ctx field chosen by a computed offset. */
	iif = skb->ingress_ifindex;
	out_ifx = skb->ifindex;
	asm volatile("" : "+r"(iif), "+r"(out_ifx));
	in_if = egress ? iif : out_ifx;
	for (i = 0; i < I_NWORDS; i++)
		v->w[i] = INT_UNAVAIL32;
	v->unavail = 0xffff;
	v->have_q = 0;
	v->qdepth = 0;
	v->queue_id = skb->queue_mapping & 0xff;
	v->now = int_now(node);
	if (node && (node->flags & HM_NODE_F_ID)) {
		v->w[0] = node->node_id;
		v->unavail &= ~INT_BM_NODE_ID;
	}
	if (bm & (INT_BM_L1_PORTS | INT_BM_L2_PORTS)) {
		hm_if_ids(in_if, &in_id, &in_wide);
		out_id = HM_IOAM_U16_UNAVAILABLE;
		out_wide = HM_IOAM_U32_UNAVAILABLE;
		if (egress)
			hm_if_ids(skb->ifindex, &out_id, &out_wide);
		v->w[1] = (__u32)in_id << 16 | out_id;
		v->w[8] = in_wide;
		v->w[9] = out_wide;
		if (v->w[1] != INT_UNAVAIL32)
			v->unavail &= ~INT_BM_L1_PORTS;
		if (in_wide != INT_UNAVAIL32 || out_wide != INT_UNAVAIL32)
			v->unavail &= ~INT_BM_L2_PORTS;
	}
	if (egress) {
		v->w[6] = v->now >> 32;
		v->w[7] = (__u32)v->now;
		v->unavail &= ~INT_BM_EGRESS_TS;
		if (bm & (INT_BM_HOP_LAT | INT_BM_INGRESS_TS)) {
			a = bpf_map_lookup_elem(&int_arrival, &zero);
			if (a && a->ifindex && a->ifindex == skb->ingress_ifindex &&
			    a->fp == int_fingerprint(s, p->family, p->hlen))
				its = a->ts_ns;
		}
		if (its != INT_UNAVAIL64) {
			lat = v->now > its ? v->now - its : 0;
			v->w[2] = lat > 0xfffffffeULL ? 0xfffffffe : (__u32)lat;
			v->unavail &= ~(INT_BM_HOP_LAT | INT_BM_INGRESS_TS);
		}
	} else {
		its = v->now;
		v->unavail &= ~INT_BM_INGRESS_TS;
	}
	v->w[4] = its >> 32;
	v->w[5] = (__u32)its;
	if (egress && ((bm & (INT_BM_QUEUE | INT_BM_BUFFER)) || want_q) &&
	    hm_queue_state(skb->ifindex, node, &qs)) {
		v->have_q = 1;
		v->qdepth = qs.backlog_bytes;
		v->w[3] = v->queue_id << 24 |
			  (qs.backlog_bytes > 0xfffffe ? 0xfffffe : qs.backlog_bytes);
		v->w[11] = qs.node_backlog_bytes > 0xfffffe ? 0xfffffe : qs.node_backlog_bytes;
		v->unavail &= ~(INT_BM_QUEUE | INT_BM_BUFFER);
	}
	if (egress && (bm & INT_BM_TX_UTIL)) {
		__u32 out_if = skb->ifindex;

		ifc = bpf_map_lookup_elem(&int_ifcfg, &out_if);
		v->w[10] = int_tx_util(out_if, ifc ? ifc->rate_bps : 0);
		if (v->w[10] != INT_UNAVAIL32)
			v->unavail &= ~INT_BM_TX_UTIL;
	}
	return 0;
}

/* int_vals_fill() into @s->v (a global function: verified once). */
static __always_inline void int_node_vals(struct int_vals *v, struct __sk_buff *skb,
					  struct int_scratch *s, const struct int_pkt *p,
					  int egress, __u32 bm, int want_q)
{
	int_vals_fill(skb, s, egress, bm, want_q);
}

/*
 * int_md_encode() - the words of @v for the bits of @bm (bits 0-14), in
 * bit order, big-endian, into @buf at @base (offsets masked by @mask).
 * Branch-free: every word is stored and the cursor advances by 4 only for
 * the words @bm carries, so a word not carried is overwritten by the next
 * (the caller's buffer has 4 octets of slack past the block). *@sum gets
 * the one's complement sum of the words written.
 *
 * Return: octets written, int_bitmap_words(@bm & 0xfffe) * 4.
 */
static __always_inline __u32 int_md_encode(__u8 *buf, __u32 mask, __u32 base, __u32 bm,
					   const struct int_vals *v, __u32 *sum)
{
	__u32 c = base, sm = 0, k, on, w;

#pragma clang loop unroll(disable)
	for (k = 0; k < I_NWORDS; k++) {
		on = (bm >> (15 - int_w_bit(k))) & 1;
		w = v->w[k];
		*(__u32 *)&buf[c & mask] = bpf_htonl(w);
		sm += cs_w32(w) & (0U - on);
		c += on * 4;
	}
	*sum = sm;
	return c - base;
}

/**
 * int_md_block() - this node's block of an INT-MD stack (§5.8)
 * @s:		scratch: @s->v the values; the block goes into @s->blk
 * @at:		offset of the block in @s->blk
 * @bm:		Instruction Bitmap
 * @hop_ml:	Hop ML: words of the block, at least int_bitmap_words(@bm)
 *
 * The fields of bits 0-14 in bit order, then the DS words beyond them
 * (all-ones: hopmark knows no DS instruction), then for bit 15 the
 * Checksum Complement, written all-ones here (the caller completes it).
 * A global function: verified once.
 *
 * Return: the one's complement sum of the block without the complement.
 */
__attribute__((noinline))
int int_md_block(struct int_scratch *s, __u32 at, __u32 bm, __u32 hop_ml)
{
	__u32 c, i, npad, sum = 0;

	if (!s)
		return 0;
	c = at + int_md_encode(s->blk, I_BLK_MASK, at, bm & 0xfffe, &s->v, &sum);
	npad = hop_ml - int_words(bm);
	for (i = 0; i < INT_HOP_ML_MAX; i++) {
		if (i >= npad)
			break;
		blk_wr32(s, c, INT_UNAVAIL32);
		sum += 0x1fffe;
		c += 4;
	}
	if (bm & INT_BM_CSUM_COMPL)
		blk_wr32(s, c, INT_UNAVAIL32);
	return sum;
}

/* ---------------- records (struct int_record) ---------------- */

/**
 * int_emit() - hand a record to hopmarkd (int_events)
 * @skb:	packet; its first octets from the IP header go into @pkt
 * @s:		scratch; @s->md holds the metadata (@md_len octets)
 * @cfg:	domain (report_trunc)
 * @p:		parsed packet
 * @kind:	%INT_REC_*
 * @flags:	%INT_RPT_F_*
 * @rep:	RepMdBits of @s->md
 * @md_len:	octets of metadata
 * @v:		this node's values (time, queue ID)
 *
 * The packet is the one as this hook sees it (the sink: before removal),
 * truncated to report_trunc and %INT_REC_PKT_MAX. A full ring buffer loses
 * the record (counted).
 */
static __always_inline void int_emit(struct __sk_buff *skb, struct int_scratch *s,
				     const struct int_domain_cfg *cfg, const struct int_pkt *p,
				     __u32 kind, __u32 flags, __u32 rep, __u32 md_len,
				     const struct int_vals *v)
{
	struct hopmark_node_cfg *node = hm_node_cfg();
	struct int_record *r;
	__u32 i, n;

	r = bpf_ringbuf_reserve(&int_events, sizeof(*r), 0);
	if (!r) {
		int_count(skb->ifindex, INT_CNT_EVENTS_LOST);
		return;
	}
	r->ts_ns = v->now;
	r->ifindex = skb->ifindex;
	r->kind = kind;
	r->flags = flags;
	r->family = p->family;
	r->drop_reason = 0;
	r->rep_md_bits = rep;
	r->md_len = md_len;
	r->orig_len = p->iplen;
	r->node_id = node && (node->flags & HM_NODE_F_ID) ? node->node_id : INT_UNAVAIL32;
	r->queue_id = v->queue_id;
	r->pad[0] = 0;
	r->pad[1] = 0;
	r->pad[2] = 0;
	for (i = 0; i < INT_REC_MD_MAX / 4; i++)
		*(__u32 *)&r->md[i * 4] = *(__u32 *)&s->md[i * 4];
	n = cfg->report_trunc < p->iplen ? cfg->report_trunc : p->iplen;
	if (n > INT_REC_PKT_MAX)
		n = INT_REC_PKT_MAX;
	r->pkt_len = 0;
	/* Two loads of power-of-two bounds (1024 + 256) the verifier can follow. */
	if (n && !bpf_skb_load_bytes(skb, I_L3, r->pkt, hm_len_1_to(n > 1024 ? 1024 : n, 1024)))
		r->pkt_len = n > 1024 ? 1024 : n;
	if (n > 1024 && r->pkt_len == 1024 &&
	    !bpf_skb_load_bytes(skb, I_L3 + 1024, &r->pkt[1024], hm_len_1_to(n - 1024, 256)))
		r->pkt_len = n;
	bpf_ringbuf_submit(r, 0);
}

/**
 * int_record() - a record of this node's own metadata
 * @skb:	packet
 * @s:		scratch: @s->p the packet, @s->v the values
 * @cfg:	domain
 * @what:	%INT_REC_* | %INT_RPT_F_* << 8 | clear << 16; clear drops
 *		the bits whose field is unknown (INT-MX and INT-XD nodes
 *		never pad, Report §3.3.1)
 * @rep:	RepMdBits wanted; only bits 1-8 are kept (bit 0 is the group
 *		header's, 9-14 are reserved, 15 is for drops)
 *
 * A global function (at most five arguments, hence @what): verified once.
 *
 * Return: 0.
 */
__attribute__((noinline))
int int_record(struct __sk_buff *skb, struct int_scratch *s, const struct int_domain_cfg *cfg,
	       __u32 what, __u32 rep)
{
	__u32 sum, len, kind = what & 0xff, flags = (what >> 8) & 0xff, clear = what >> 16;

	if (!skb || !s || !cfg)
		return 0;
	rep &= 0x7f80;
	if (clear)
		rep &= ~s->v.unavail;
	len = int_md_encode(s->md, I_MD_MASK, 0, rep, &s->v, &sum);
	int_emit(skb, s, cfg, &s->p, kind, flags, rep, len, &s->v);
	return 0;
}

static __always_inline void int_record_own(struct __sk_buff *skb, struct int_scratch *s,
					   const struct int_domain_cfg *cfg,
					   const struct int_pkt *p, const struct int_vals *v,
					   __u32 kind, __u32 flags, __u32 rep, int clear)
{
	int_record(skb, s, cfg, kind | flags << 8 | (clear ? 1U << 16 : 0), rep);
}

/*
 * int_queue_report() - a congested-queue record (Report §2.2, flag Q) when
 * the egress queue holds more than q_threshold bytes.
 */
static __always_inline void int_queue_report(struct __sk_buff *skb, struct int_scratch *s,
					     const struct int_domain_cfg *cfg,
					     const struct int_pkt *p, const struct int_vals *v)
{
	if (!cfg->q_threshold || !v->have_q || v->qdepth <= cfg->q_threshold)
		return;
	int_record_own(skb, s, cfg, p, v, INT_REC_QUEUE, INT_RPT_F_Q,
		       (cfg->bitmap & 0x7f80) | INT_BM_QUEUE, 0);
	int_count(skb->ifindex, INT_CNT_QUEUE_REPORT);
}

/* ---------------- storing back ---------------- */

/*
 * int_put() - make room for @add octets right after the IP header and
 * store @s->blk[0, @len) there; @add 0 stores in place. The IP header's
 * first @ip_len octets (with the new lengths, protocol, DSCP and IPv4
 * checksum already in @s->hdr) are stored after. BPF_ADJ_ROOM_NET moves
 * the Ethernet and IP headers toward the head, so everything after the IP
 * header keeps its place in memory.
 *
 * Return: 0, or a negative error (counted as %INT_CNT_ERR by the caller;
 * a failure after the room was made leaves the packet inconsistent, which
 * the helpers only do on memory shortage).
 */
static __always_inline int int_put(struct __sk_buff *skb, struct int_scratch *s,
				   const struct int_pkt *p, __u32 add, __u32 len, __u32 ip_len)
{
	__u32 n;

	if (add && bpf_skb_adjust_room(skb, add, BPF_ADJ_ROOM_NET, 0))
		return -1;
	n = hm_len_1_to(hm_launder(s, len), 512);
	if (bpf_skb_store_bytes(skb, I_L3 + p->l3len, s->blk, n, BPF_F_RECOMPUTE_CSUM))
		return -1;
	if (ip_len && bpf_skb_store_bytes(skb, I_L3, s->hdr, ip_len == 12 ? 12 : 8,
					  BPF_F_RECOMPUTE_CSUM))
		return -1;
	return 0;
}

/**
 * int_ip_hdr() - new IP length (+@diff octets), protocol @proto and DSCP
 * @dscp in @s->hdr (the packet of @s->p); the IPv4 header checksum is
 * updated incrementally (RFC 1624). A global function: verified once.
 * @s:		scratch
 * @diff:	octets added (negative: removed)
 * @proto:	IP protocol / Next Header to write
 * @dscp:	DSCP to write (ECN kept)
 *
 * Return: octets of the IP header to store (12 or 8), 0 without @s.
 */
__attribute__((noinline))
int int_ip_hdr(struct int_scratch *s, int diff, __u32 proto, __u32 dscp)
{
	__u32 old, new, d = 0, hc;

	if (!s)
		return 0;
	if (s->p.family == 4) {
		old = HW16(s, 0);
		new = (old & 0xff03) | (dscp & 0x3f) << 2;
		d += cs_repl(old, new);
		hdr_wr16(s, 0, new);
		old = HW16(s, 2);
		new = (old + diff) & 0xffff;
		d += cs_repl(old, new);
		hdr_wr16(s, 2, new);
		old = HW16(s, 8);
		new = (old & 0xff00) | proto;
		d += cs_repl(old, new);
		hdr_wr16(s, 8, new);
		hc = cs_apply(HW16(s, 10), d);
		hdr_wr16(s, 10, hc);
		return 12;
	}
	old = HW16(s, 0);
	hdr_wr16(s, 0, (old & 0xf03f) | (dscp & 0x3f) << 6);
	hdr_wr16(s, 4, (HW16(s, 4) + diff) & 0xffff);
	HB(s, 6) = proto;
	return 8;
}

static __always_inline __u32 int_ip_update(struct int_scratch *s, const struct int_pkt *p,
					   int diff, __u32 proto, __u32 dscp)
{
	return int_ip_hdr(s, diff, proto, dscp) == 12 ? 12 : 8;
}

/**
 * int_hdr_to_blk() - copy headers from @s->hdr into @s->blk
 * @s:		scratch
 * @from:	offset in @s->hdr
 * @to:		offset in @s->blk
 * @len:	octets, a multiple of 4, at most 128
 *
 * A global function: the loop is verified once.
 *
 * Return: 0.
 */
__attribute__((noinline))
int int_hdr_to_blk(struct int_scratch *s, __u32 from, __u32 to, __u32 len)
{
	__u32 i;

	if (!s)
		return 0;
	for (i = 0; i < 32; i++) {
		if (i * 4 >= len)
			break;
		*(__u32 *)&s->blk[(to + i * 4) & I_BLK_MASK] =
			*(__u32 *)&s->hdr[(from + i * 4) & I_HDR_MASK];
	}
	return 0;
}

/*
 * int_blk_csum() - write checksum field @off of @s->blk (host order)
 * after its data changed by @delta; a zero UDP checksum stays zero, and a
 * computed 0 goes out as 0xffff (RFC 768).
 */
static __always_inline void int_blk_csum(struct int_scratch *s, __u32 off, __u32 delta, int udp)
{
	__u32 c = blk_rd16(s, off);

	if (udp && !c)
		return;
	c = cs_apply(c, delta);
	if (udp && !c)
		c = 0xffff;
	blk_wr16(s, off, c);
}

/* ---------------- hm_int_source ---------------- */

/**
 * int_select() - the watchlist rule a packet matches and whether it is sampled
 * @cfg:	domain
 * @k:		the packet's 5-tuple
 * @rnd:	bpf_get_prandom_u32() for per-packet sampling
 *
 * Global function: the rule walk is verified once.
 *
 * Return: -1 not watched, -2 watched and not sampled, else the rule's
 * index (%HM_SEL_MAX_RULES: empty watchlist).
 */
__attribute__((noinline))
int int_select(const struct int_domain_cfg *cfg, const struct hm_flow_key *k, __u32 rnd)
{
	int idx;

	if (!cfg || !k)
		return -1;
	idx = hm_sel_watch(&cfg->sel, k);
	if (idx < 0)
		return -1;
	if (!hm_sel_sampled(&cfg->sel, k, rnd))
		return -2;
	return idx;
}

/* Whether the rule @idx int_select() returned marks synthetic traffic (D). */
static __always_inline int int_synthetic(const struct int_domain_cfg *cfg, int idx)
{
	if (idx < 0 || idx >= HM_SEL_MAX_RULES)
		return 0;
	return !!(cfg->sel.rules[idx & (HM_SEL_MAX_RULES - 1)].flags & HM_SEL_F_SYNTHETIC);
}

/* The egress MTU of @ifc, else the device's. */
static __always_inline __u32 int_mtu(struct __sk_buff *skb, const struct int_if_cfg *ifc)
{
	__u32 mtu = 0;

	if (ifc->mtu)
		return ifc->mtu;
	if (bpf_check_mtu(skb, 0, &mtu, 0, 0) && !mtu)
		return 0xffff;
	return mtu ? mtu : 0xffff;
}

/* Whether the packet goes to (or comes from) the report port: never instrumented. */
static __always_inline int int_is_report(const struct int_domain_cfg *cfg, const struct int_pkt *p)
{
	return cfg->rpt_port && p->proto == HM_IPPROTO_UDP &&
	       (p->dport == cfg->rpt_port || (cfg->rpt_sport && p->sport == cfg->rpt_sport));
}

/**
 * int_src_insert() - the source's INT insertion, once the packet is chosen
 * @skb:	packet
 * @s:		scratch: the headers, @s->p
 * @cfg:	domain
 * @ifc:	egress interface (MTU)
 * @sel:	watchlist rule index (int_select()) << 8 | NPT
 *
 * See hm_int_source(). A global function: verified once, whatever path
 * led to it (the checks before it would otherwise multiply its states).
 *
 * Return: 0.
 */
__attribute__((noinline))
int int_src_insert(struct __sk_buff *skb, struct int_scratch *s, const struct int_domain_cfg *cfg,
		   const struct int_if_cfg *ifc, __u32 sel)
{
	__u32 ifindex, npt = sel & 3, mtu, fixed, own = 0, flags = 0, rhc, hop_ml;
	__u32 bm, delta = 0, mlen, add, c = 0, l4new, ip_len, base, w0;
	__u32 dscp, proto, type;
	struct int_pkt *p;
	struct int_vals *v;
	int idx = (int)sel >> 8, mx, udp_zero;

	if (!skb || !s || !cfg || !ifc)
		return 0;
	ifindex = skb->ifindex;
	p = &s->p;
	v = &s->v;
	mx = cfg->mode == INT_MODE_MX;
	bm = cfg->bitmap & (mx ? 0xfffe : 0xffff);
	hop_ml = int_words(bm);
	if (!mx && cfg->hop_ml > hop_ml && cfg->hop_ml <= INT_HOP_ML_MAX)
		hop_ml = cfg->hop_ml;	/* DS metadata words: all-ones (§5.8) */
	fixed = INT_FIXED_LEN + (npt == INT_NPT_L4 ? 8 : 0);
	mtu = int_mtu(skb, ifc);
	if (p->iplen + fixed > mtu) {
		int_count(ifindex, INT_CNT_SRC_MTU_NO_INT);
		return 0;
	}
	rhc = cfg->max_hops;
	if (!mx) {
		if (!rhc)
			flags |= INT_MD_E;
		else if (p->iplen + fixed + hop_ml * 4 > mtu)
			flags |= INT_MD_M;
		else
			own = hop_ml * 4;
		if (own)
			rhc--;
	}
	if (int_synthetic(cfg, idx))
		flags |= INT_MD_D;

	/* What moves: the TCP/UDP header for NPT 0/1, nothing for NPT 2. */
	mlen = npt == INT_NPT_L4 ? 0 : p->l4len;
	add = fixed + own;
	int_hdr_to_blk(s, p->l3len, 0, mlen);
	base = npt == INT_NPT_L4 ? 8 : mlen;	/* the shim's offset in blk */
	type = mx ? INT_TYPE_MX : INT_TYPE_MD;
	BB(s, base) = int_shim_type_npt(type, npt);
	BB(s, base + 1) = (INT_HDR_LEN + own) / 4;
	if (npt == INT_NPT_UDP)
		blk_wr16(s, base + 2, p->dport);
	else if (npt == INT_NPT_L4)
		blk_wr16(s, base + 2, p->proto);
	else
		blk_wr16(s, base + 2, p->dscp << 2);
	w0 = mx ? (__u32)INT_VERSION << INT_MD_VER_SHIFT | (flags & INT_MD_D) :
		  int_md_w0(flags, hop_ml, rhc);
	blk_wr32(s, base + 4, w0);
	blk_wr16(s, base + 8, bm);
	blk_wr16(s, base + 10, cfg->ds_id);
	blk_wr16(s, base + 12, cfg->ds_inst);
	blk_wr16(s, base + 14, 0);
	/* Sum of the INT data: shim and header; the metadata's below. */
	delta = blk_rd16(s, base) + blk_rd16(s, base + 2) +
		cs_w32(w0) + bm + cfg->ds_id + cfg->ds_inst;

	int_node_vals(v, skb, s, p, I_AT_EGRESS, own || mx ? bm : 0, cfg->q_threshold != 0);
	if (own) {
		delta += (__u32)int_md_block(s, base + INT_FIXED_LEN, bm, hop_ml);
		c = base + INT_FIXED_LEN + own - 4;	/* the complement, if any */
	}

	/* Lengths, ports and the checksum covering the INT data (NPT 0/1). */
	l4new = p->iplen - p->l3len + add;
	if (npt == INT_NPT_L4) {
		/* New UDP header, checksum 0 (§5.7.2); source port: flow entropy. */
		blk_wr16(s, 0, 0xc000 | (hm_flow_hash(&p->key, cfg->sel.seed) & 0x3fff));
		blk_wr16(s, 2, cfg->udp_port);
		blk_wr16(s, 4, l4new);
		blk_wr16(s, 6, 0);
		proto = HM_IPPROTO_UDP;
		dscp = p->dscp;
	} else {
		proto = p->proto;
		dscp = npt == INT_NPT_DSCP ?
		       (p->dscp & ~cfg->dscp_mask) | (cfg->dscp & cfg->dscp_mask) : p->dscp;
		delta += cs_repl(p->iplen - p->l3len, l4new);	/* pseudo-header */
		if (p->proto == HM_IPPROTO_UDP) {
			delta += cs_repl(p->iplen - p->l3len, l4new);
			blk_wr16(s, 4, l4new);
		}
		if (npt == INT_NPT_UDP) {
			delta += cs_repl(p->dport, cfg->udp_port);
			blk_wr16(s, 2, cfg->udp_port);
		}
		udp_zero = p->proto == HM_IPPROTO_UDP && !p->csum;
		if (own && (bm & INT_BM_CSUM_COMPL) && !udp_zero) {
			/* The complement cancels every change: checksum kept (§5.6). */
			blk_wr32(s, c, ~cs_fold(delta) & 0xffff);
		} else {
			int_blk_csum(s, int_l4_csum_off(p->proto), delta,
				     p->proto == HM_IPPROTO_UDP);
		}
	}
	ip_len = int_ip_update(s, p, add, proto, dscp);
	if (int_put(skb, s, p, add, base + INT_FIXED_LEN + own, ip_len)) {
		int_count(ifindex, INT_CNT_ERR);
		return 0;
	}
	int_count(ifindex, INT_CNT_SRC_OK);
	if (flags & INT_MD_M)
		int_count(ifindex, INT_CNT_SRC_MTU_M);
	if (mx) {
		int_record_own(skb, s, cfg, p, v, INT_REC_MX, INT_RPT_F_F, bm, 1);
		int_count(ifindex, INT_CNT_MX_REPORT);
	}
	int_queue_report(skb, s, cfg, p, v);
	return 0;
}

/**
 * hm_int_source() - start INT on a selected packet (tc egress)
 * @skb:	packet leaving through the source's egress interface
 *
 * MD (§5.8): shim + 12-octet header (Ver 2, D from the watchlist rule's
 * %HM_SEL_F_SYNTHETIC, Hop ML, Remaining Hop Count max_hops - 1, the
 * bitmap and DS fields) and this node's metadata. MX (§5.9): shim + MX
 * header and an %INT_REC_MX record of this node's metadata. Placement and
 * signalling as Documentation/int.rst says: DSCP -> NPT 0 (INT after the
 * TCP/UDP header, original DSCP in the shim); UDP port -> NPT 1 for UDP
 * (original port in the shim), NPT 2 for TCP (new UDP header, original
 * protocol in the shim). MTU (§5.3): no INT when the fixed headers would
 * pass it, M set and no metadata when only the metadata would. L4
 * checksum: updated incrementally (a zero UDP checksum stays zero), or
 * kept by the Checksum Complement when bit 15 is set. Untouched, counted:
 * packets not watched or not sampled, GSO packets, NPT 0/1 on a
 * CHECKSUM_PARTIAL skb, packets already marked, reports, other protocols.
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("tc")
int hm_int_source(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex, npt;
	struct int_domain_cfg *cfg;
	struct int_if_cfg *ifc;
	struct int_scratch *s;
	struct int_pkt *p;
	int idx, ret;

	ifc = bpf_map_lookup_elem(&int_ifcfg, &ifindex);
	if (!ifc || !(ifc->flags & INT_IF_F_SOURCE))
		return TC_ACT_UNSPEC;
	if (ifc->rate_bps)
		int_tx_account(ifindex, skb->len);
	s = int_scratch_get();
	if (!s)
		return TC_ACT_UNSPEC;
	p = &s->p;
	ret = int_parse(skb, s);
	if (ret == I_NOT_IP)
		return TC_ACT_UNSPEC;
	cfg = int_domain();
	if (!cfg) {
		int_count(ifindex, INT_CNT_NOT_CONFIGURED);
		return TC_ACT_UNSPEC;
	}
	if (ret == I_PROTO) {
		int_count(ifindex, INT_CNT_SRC_PROTO);
		return TC_ACT_UNSPEC;
	}
	if (int_is_report(cfg, p)) {
		int_count(ifindex, INT_CNT_SRC_REPORT);
		return TC_ACT_UNSPEC;
	}
	if (cfg->signal == INT_SIG_DSCP ?
	    !((p->dscp ^ cfg->dscp) & cfg->dscp_mask & 0x3f) :
	    p->proto == HM_IPPROTO_UDP && p->dport == cfg->udp_port) {
		int_count(ifindex, INT_CNT_SRC_HAS_INT);
		return TC_ACT_UNSPEC;
	}
	if (cfg->mode == INT_MODE_XD)
		return TC_ACT_UNSPEC;	/* INT-XD: the transit program reports */
	idx = int_select(cfg, &p->key, bpf_get_prandom_u32());
	if (idx == -1) {
		int_count(ifindex, INT_CNT_SRC_NOT_WATCHED);
		return TC_ACT_UNSPEC;
	}
	if (idx == -2) {
		int_count(ifindex, INT_CNT_SRC_NOT_SAMPLED);
		return TC_ACT_UNSPEC;
	}
	npt = cfg->signal == INT_SIG_DSCP ? INT_NPT_DSCP :
	      p->proto == HM_IPPROTO_UDP ? INT_NPT_UDP : INT_NPT_L4;
	if (int_cannot_edit(skb, s, p, npt, ifindex, INT_CNT_SRC_GSO))
		return TC_ACT_UNSPEC;

	int_src_insert(skb, s, cfg, ifc, (__u32)idx << 8 | npt);
	return TC_ACT_UNSPEC;
}

/* ---------------- hm_int_ingress ---------------- */

/**
 * hm_int_ingress() - stamp the arrival of a packet (tc ingress of a transit)
 * @skb:	arriving packet
 *
 * Writes int_arrival (per CPU): the packet's fingerprint, the interface
 * and CLOCK_REALTIME ns, for the egress program's hop latency (bit 2) and
 * ingress timestamp (bit 4). Every IPv4/IPv6 packet is stamped: whether it
 * carries INT is the egress program's business.
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("tc")
int hm_int_ingress(struct __sk_buff *skb)
{
	__u32 zero = 0, avail = skb->len > I_L3 ? skb->len - I_L3 : 0, n, family;
	struct int_arrival *a;
	struct int_scratch *s;

	if (skb->protocol == bpf_htons(ETH_P_IP))
		family = 4;
	else if (skb->protocol == bpf_htons(ETH_P_IPV6))
		family = 6;
	else
		return TC_ACT_UNSPEC;
	if (avail < (family == 4 ? HM_IPV4_HDR_LEN : HM_IPV6_HDR_LEN))
		return TC_ACT_UNSPEC;
	s = int_scratch_get();
	a = bpf_map_lookup_elem(&int_arrival, &zero);
	if (!s || !a)
		return TC_ACT_UNSPEC;
	/* The egress side fingerprints I_HDR_LEN octets at most, the same ones. */
	n = avail < I_HDR_LEN ? avail : I_HDR_LEN;
	if (bpf_skb_load_bytes(skb, I_L3, s->hdr, hm_len_1_to(n, I_HDR_LEN)))
		return TC_ACT_UNSPEC;
	if (family == 4 && (HB(s, 0) >> 4) != 4)
		return TC_ACT_UNSPEC;
	a->fp = int_fingerprint(s, family, n);
	a->ifindex = skb->ingress_ifindex;
	a->ts_ns = int_now(hm_node_cfg());
	return TC_ACT_UNSPEC;
}

/* ---------------- hm_int_transit ---------------- */

/**
 * int_transit_md() - this hop's INT-MD processing (§5.8)
 * @skb:	packet
 * @s:		scratch
 * @cfg:	domain
 * @ifc:	egress interface
 * @p:		parsed packet
 * @l:		its INT data (int_find())
 * @v:		this node's values
 *
 * Remaining Hop Count 0: E set, nothing added, RHC unchanged. Shim Length
 * past 255 words: nothing added. MTU: M set, nothing added. Otherwise
 * Hop ML * 4 octets prepended to the stack: the bitmap's fields in bit
 * order (reserved bits 9-14 0xffffffff, DS words beyond the bitmap's
 * all-ones, bit 15 the Checksum Complement last), RHC decremented. The
 * checksum covering the INT data is updated incrementally or kept by the
 * complement; a zero UDP checksum stays zero.
 */
static __always_inline void int_transit_md(struct __sk_buff *skb, struct int_scratch *s,
					   const struct int_domain_cfg *cfg,
					   const struct int_if_cfg *ifc, const struct int_pkt *p,
					   const struct int_loc *l, struct int_vals *v)
{
	__u32 ifindex = skb->ifindex, mlen, base, add = 0, w0 = l->w0, delta = 0;
	__u32 c = 0, bm = l->bitmap, cnt, csum_at, ip_len = 0, l4old, l4new;
	int compl = 0;

	mlen = l->shim + INT_FIXED_LEN - p->l3len;	/* moved: L4 or UDP header + shim + header */
	base = l->shim - p->l3len;
	if (!int_md_rhc(w0)) {
		w0 |= INT_MD_E;
		cnt = INT_CNT_TRANSIT_E;
	} else if (l->words + l->hop_ml > INT_SHIM_LEN_MAX) {
		cnt = INT_CNT_TRANSIT_FULL;
	} else if (p->iplen + l->hop_ml * 4 > int_mtu(skb, ifc)) {
		w0 |= INT_MD_M;
		cnt = INT_CNT_TRANSIT_M;
	} else {
		add = l->hop_ml * 4;
		/* Hop ML 0 adds nothing, and a node adding nothing keeps RHC (§5.8). */
		if (add)
			w0 = (w0 & ~INT_MD_RHC_MASK) | (int_md_rhc(w0) - 1);
		cnt = INT_CNT_TRANSIT_OK;
	}
	if (cnt == INT_CNT_TRANSIT_FULL || (!add && w0 == l->w0)) {
		int_node_vals(v, skb, s, p, I_AT_EGRESS, 0, cfg->q_threshold != 0);
		int_count(ifindex, cnt);
		return;
	}
	int_hdr_to_blk(s, p->l3len, 0, mlen);
	if (w0 != l->w0) {
		delta += cs_repl(l->w0 >> 16, w0 >> 16) + cs_repl(l->w0 & 0xffff, w0 & 0xffff);
		blk_wr32(s, base + 4, w0);
	}
	if (add) {
		/* The shim's first 16-bit word: Type/NPT and Length. */
		delta += cs_repl(HW16(s, l->shim), (HW16(s, l->shim) & 0xff00) |
						  (l->words + l->hop_ml));
		BB(s, base + 1) = l->words + l->hop_ml;
		int_node_vals(v, skb, s, p, I_AT_EGRESS, bm, cfg->q_threshold != 0);
		delta += (__u32)int_md_block(s, mlen, bm, l->hop_ml);
		c = mlen + add - 4;	/* the complement, if any */
		compl = !!(bm & INT_BM_CSUM_COMPL);
		/* Lengths: the UDP header before the shim, and the pseudo-header. */
		l4old = p->iplen - p->l3len;
		l4new = l4old + add;
		if (l->udp) {
			delta += cs_repl(l4old, l4new);
			blk_wr16(s, base - 4, l4new);
		}
		delta += cs_repl(l4old, l4new);
		ip_len = int_ip_update(s, p, add, p->proto, p->dscp);
	} else {
		int_node_vals(v, skb, s, p, I_AT_EGRESS, 0, cfg->q_threshold != 0);
	}
	csum_at = l->csum_off - p->l3len;
	if (l->csum && compl) {
		blk_wr32(s, c, ~cs_fold(delta) & 0xffff);
	} else if (l->npt != INT_NPT_L4 || l->csum) {
		/* NPT 2 with the recommended zero checksum: nothing covers the INT data. */
		int_blk_csum(s, csum_at, delta, l->udp);
	}
	if (int_put(skb, s, p, add, mlen + add, ip_len)) {
		int_count(ifindex, INT_CNT_ERR);
		return;
	}
	int_count(ifindex, cnt);
}

/*
 * int_enter() - what hm_int_transit() and hm_int_sink() start from: the
 * packet parsed, the domain, and the INT the domain's signalling finds.
 * Packets that are not IP, TCP or UDP, reports (never instrumented) and,
 * counted, packets of an unconfigured domain or with malformed INT go on
 * unchanged: NULL.
 *
 * Return: the scratch area, with *@cfg set and *@found I_INT or I_NONE;
 * NULL to pass the packet on.
 */
static __always_inline struct int_scratch *int_enter(struct __sk_buff *skb, __u32 ifindex,
						     struct int_domain_cfg **cfg, int *found)
{
	struct int_scratch *s = int_scratch_get();

	if (!s)
		return NULL;
	__builtin_memset(&s->l, 0, sizeof(s->l));
	if (int_parse(skb, s) != I_OK)
		return NULL;
	*cfg = int_domain();
	if (!*cfg) {
		int_count(ifindex, INT_CNT_NOT_CONFIGURED);
		return NULL;
	}
	if (int_is_report(*cfg, &s->p))
		return NULL;
	*found = int_find(*cfg, s);
	if (*found == I_BAD) {
		int_count(ifindex, INT_CNT_MALFORMED);
		return NULL;
	}
	return s;
}

/**
 * hm_int_transit() - this node's INT hop (tc egress)
 * @skb:	packet leaving through this interface
 *
 * With %INT_IF_F_TRANSIT, a packet carrying INT (int_find()): INT-MD gets
 * this hop's metadata (int_transit_md()), INT-MX gives an %INT_REC_MX
 * record and stays unchanged. With %INT_IF_F_XD, a packet without INT
 * that the watchlist selects gives an %INT_REC_XD record and stays
 * unchanged. Either gives a congested-queue record when the egress queue
 * holds more than q_threshold bytes. Malformed INT, GSO packets and NPT
 * 0/1 on CHECKSUM_PARTIAL skbs are forwarded unchanged and counted.
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("tc")
int hm_int_transit(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex;
	struct int_domain_cfg *cfg;
	struct int_if_cfg *ifc;
	struct int_scratch *s;
	struct int_pkt *p;
	struct int_loc *l;
	struct int_vals *v;
	int ret, idx;

	ifc = bpf_map_lookup_elem(&int_ifcfg, &ifindex);
	if (!ifc || !(ifc->flags & (INT_IF_F_TRANSIT | INT_IF_F_XD)))
		return TC_ACT_UNSPEC;
	if (ifc->rate_bps)
		int_tx_account(ifindex, skb->len);
	s = int_enter(skb, ifindex, &cfg, &ret);
	if (!s)
		return TC_ACT_UNSPEC;
	p = &s->p;
	l = &s->l;
	v = &s->v;
	if (ret == I_NONE) {
		if (!(ifc->flags & INT_IF_F_XD))
			return TC_ACT_UNSPEC;
		idx = int_select(cfg, &p->key, bpf_get_prandom_u32());
		if (idx < 0)
			return TC_ACT_UNSPEC;
		int_node_vals(v, skb, s, p, I_AT_EGRESS, cfg->bitmap, cfg->q_threshold != 0);
		int_record_own(skb, s, cfg, p, v, INT_REC_XD, INT_RPT_F_F, cfg->bitmap, 1);
		int_count(ifindex, INT_CNT_XD_REPORT);
		int_queue_report(skb, s, cfg, p, v);
		return TC_ACT_UNSPEC;
	}
	if (!(ifc->flags & INT_IF_F_TRANSIT))
		return TC_ACT_UNSPEC;
	if (l->type == INT_TYPE_MX) {
		int_node_vals(v, skb, s, p, I_AT_EGRESS, l->bitmap, cfg->q_threshold != 0);
		int_record_own(skb, s, cfg, p, v, INT_REC_MX, INT_RPT_F_F, l->bitmap, 1);
		int_count(ifindex, INT_CNT_MX_REPORT);
		int_queue_report(skb, s, cfg, p, v);
		return TC_ACT_UNSPEC;
	}
	if (int_cannot_edit(skb, s, p, l->npt, ifindex, INT_CNT_GSO))
		return TC_ACT_UNSPEC;
	int_transit_md(skb, s, cfg, ifc, p, l, v);
	int_queue_report(skb, s, cfg, p, v);
	return TC_ACT_UNSPEC;
}

/* ---------------- hm_int_sink ---------------- */

/**
 * hm_int_sink() - extract, report and remove INT (tc ingress of the sink)
 * @skb:	arriving packet
 *
 * A packet carrying INT gives a record: %INT_REC_SINK for MD (the sink's
 * own metadata for bitmap bits 1-8, Report §3.3.1 sink option 2, and the
 * packet as received, stack included, in pkt[]), %INT_REC_MX for MX. Then
 * the shim, header and stack go (and for NPT 2 the inserted UDP header);
 * DSCP (NPT 0), UDP destination port (NPT 1) or IP protocol (NPT 2) are
 * restored from the shim; the L4 checksum is updated incrementally and
 * so ends equal to the original. With D set the packet is dropped after
 * extraction (counted). Malformed INT, GSO and CHECKSUM_PARTIAL NPT 0/1
 * packets are forwarded unchanged and counted. In INT-XD mode a watched
 * packet without INT gives an %INT_REC_XD record of the sink's own
 * metadata and is not changed.
 *
 * Return: TC_ACT_SHOT for a packet with D set (discarded after its record),
 * else TC_ACT_UNSPEC (the next tc filter on the hook still runs).
 */
SEC("tc")
int hm_int_sink(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex, rm, n, delta, l4old, l4new, ip_len, proto, dscp, sum, i;
	__u32 at, rep, k;
	struct int_domain_cfg *cfg;
	struct int_if_cfg *ifc;
	struct int_scratch *s;
	struct int_pkt *p;
	struct int_loc *l;
	struct int_vals *v;
	int ret;

	ifc = bpf_map_lookup_elem(&int_ifcfg, &ifindex);
	if (!ifc || !(ifc->flags & INT_IF_F_SINK))
		return TC_ACT_UNSPEC;
	s = int_enter(skb, ifindex, &cfg, &ret);
	if (!s)
		return TC_ACT_UNSPEC;
	p = &s->p;
	l = &s->l;
	v = &s->v;
	if (ret == I_NONE) {
		/*
		 * INT-XD: the end host is the domain's last node; it reports
		 * the watched packets it receives, which carry no INT, and
		 * leaves them alone (the transit program does the same at
		 * every egress before it).
		 */
		if (cfg->mode != INT_MODE_XD ||
		    int_select(cfg, &p->key, bpf_get_prandom_u32()) < 0)
			return TC_ACT_UNSPEC;
		int_node_vals(v, skb, s, p, I_AT_SINK, cfg->bitmap, 0);
		int_record_own(skb, s, cfg, p, v, INT_REC_XD, INT_RPT_F_F, cfg->bitmap, 1);
		int_count(ifindex, INT_CNT_XD_REPORT);
		return TC_ACT_UNSPEC;
	}
	if (int_cannot_edit(skb, s, p, l->npt, ifindex, INT_CNT_GSO))
		return TC_ACT_UNSPEC;

	/* The record, before anything changes. */
	rep = l->bitmap & 0x7f80;
	int_node_vals(v, skb, s, p, I_AT_SINK, rep, 0);
	if (l->type == INT_TYPE_MX) {
		int_record_own(skb, s, cfg, p, v, INT_REC_MX, INT_RPT_F_F, rep, 1);
		int_count(ifindex, INT_CNT_MX_REPORT);
	} else {
		int_record_own(skb, s, cfg, p, v, INT_REC_SINK, INT_RPT_F_F, rep, 0);
	}
	if (l->w0 & INT_MD_D) {
		int_count(ifindex, INT_CNT_SINK_DISCARD);
		return TC_ACT_SHOT;
	}

	/* The INT region: shim + words (+ the inserted UDP header for NPT 2). */
	rm = INT_SHIM_LEN + l->words * 4 + (l->npt == INT_NPT_L4 ? 8 : 0);
	at = l->npt == INT_NPT_L4 ? p->l3len : l->shim;
	n = hm_len_1_to(hm_launder(s, rm), I_BLK_LEN);
	if (bpf_skb_load_bytes(skb, I_L3 + at, s->blk, n)) {
		int_count(ifindex, INT_CNT_ERR);
		return TC_ACT_UNSPEC;
	}
	proto = p->proto;
	dscp = p->dscp;
	if (l->npt == INT_NPT_L4) {
		proto = BB(s, 11);	/* the shim's, after the 8-octet UDP header */
		if (bpf_skb_adjust_room(skb, -(__s32)rm, BPF_ADJ_ROOM_NET, 0)) {
			int_count(ifindex, INT_CNT_ERR);
			return TC_ACT_UNSPEC;
		}
		ip_len = int_ip_update(s, p, -(int)rm, proto, dscp);
		if (bpf_skb_store_bytes(skb, I_L3, s->hdr, ip_len, BPF_F_RECOMPUTE_CSUM)) {
			int_count(ifindex, INT_CNT_ERR);
			return TC_ACT_UNSPEC;
		}
		int_count(ifindex, INT_CNT_SINK_OK);
		return TC_ACT_UNSPEC;
	}

	/* NPT 0/1: subtract the INT data from the L4 checksum. */
	sum = 0;
	for (i = 0; i < 3; i++) {
		/* bpf_csum_diff() takes 512 octets at most at a time. */
		if (i * 512 >= rm)
			break;
		k = rm - i * 512 > 512 ? 512 : rm - i * 512;
		sum = bpf_csum_diff(NULL, 0, (__be32 *)&s->blk[i * 512],
				    hm_len_1_to(hm_launder(s, k), 512), sum);
	}
	/* csum_partial() sums memory order: back to big-endian words. */
	sum = bpf_ntohs(cs_fold(sum));
	delta = ~sum & 0xffff;
	l4old = p->iplen - p->l3len;
	l4new = l4old - rm;
	delta += cs_repl(l4old, l4new);
	/* The L4 header, restored, goes right before the payload. */
	int_hdr_to_blk(s, p->l3len, 0, p->l4len);
	if (p->proto == HM_IPPROTO_UDP) {
		delta += cs_repl(l4old, l4new);
		blk_wr16(s, 4, l4new);
	}
	if (l->npt == INT_NPT_UDP) {
		delta += cs_repl(p->dport, HW16(s, l->shim + 2));
		blk_wr16(s, 2, HW16(s, l->shim + 2));
	} else {
		dscp = HB(s, l->shim + 3) >> 2;
	}
	int_blk_csum(s, int_l4_csum_off(p->proto), delta, p->proto == HM_IPPROTO_UDP);
	n = hm_len_1_to(hm_launder(s, p->l4len), 64);
	if (bpf_skb_store_bytes(skb, I_L3 + p->l3len + rm, s->blk, n, BPF_F_RECOMPUTE_CSUM) ||
	    bpf_skb_adjust_room(skb, -(__s32)rm, BPF_ADJ_ROOM_NET, 0)) {
		int_count(ifindex, INT_CNT_ERR);
		return TC_ACT_UNSPEC;
	}
	ip_len = int_ip_update(s, p, -(int)rm, proto, dscp);
	if (bpf_skb_store_bytes(skb, I_L3, s->hdr, ip_len, BPF_F_RECOMPUTE_CSUM)) {
		int_count(ifindex, INT_CNT_ERR);
		return TC_ACT_UNSPEC;
	}
	int_count(ifindex, INT_CNT_SINK_OK);
	return TC_ACT_UNSPEC;
}
