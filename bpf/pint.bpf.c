// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint.bpf.c - the PINT datapath (Ben Basat et al., "PINT: Probabilistic
 * In-band Network Telemetry", SIGCOMM 2020): three tc programs, one per
 * role of an interface (pint_ifcfg[ifindex].flags):
 *
 *	hm_pint_source	tc ingress at the domain's edge: starts the digest
 *			(IPv4: Identification := 0 and TTL := hop-limit-start
 *			on packets with DF; IPv6: inserts the 8-octet
 *			Hop-by-Hop header with option 0x3E, digest 0, count 0)
 *	hm_pint_transit	tc egress of every PINT node: hop number from the TTL
 *			(IPv4) or the option's count (IPv6), then the packet's
 *			query subset: path tracing (pint_path_hop()), latency
 *			(reservoir-sampled hop writes its queueing delay) and
 *			utilisation (max of HPCC's U)
 *	hm_pint_sink	tc ingress at the far edge: reports (flow, packet ID,
 *			digest, hop count) on the pint_events ring buffer, in
 *			batches, and removes what the source added
 *
 * The packet ID and the hashes are those of lib/pint/pint_maps.h, bit for bit
 * what userspace computes. Nothing is ever dropped: anything PINT cannot
 * handle is forwarded unchanged and counted in pint_stats.
 *
 * Cost (Documentation/performance.rst): the per-interface maps are arrays
 * indexed by ifindex (no hash lookup); an IPv6 packet without the PINT
 * option leaves after its first octets are looked at in place; headers are
 * copied word by word, not octet by octet; the clock is read at most once
 * per packet, and only when a query of the packet needs it (latency,
 * utilisation; the sink's timestamp); the egress queue reading
 * (hopmark_qdepth) is looked up only then too.
 * See Documentation/pint-datapath.rst.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "hopmark_maps.bpf.h"
#include "pint_maps.bpf.h"
#include "skb_copy.bpf.h"
#include "common/ether.h"
#include "ipv4/ipv4.h"
#include "ipv6/ipv6.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/*
 * Set (by a loader, before load) to send every packet through the general
 * path; the verifier then drops the fast paths as dead code. Tests only.
 */
const volatile __u32 hm_pint_general_only = 0;

#define P_IP_OFF	HM_ETH_HLEN
/* IPv4 header fields (RFC 791), offsets from the frame start. */
#define P_IP4_TOTLEN	(P_IP_OFF + HM_IPV4_OFF_TOT_LEN)
#define P_IP4_ID	(P_IP_OFF + HM_IPV4_OFF_ID)
#define P_IP4_FRAG	(P_IP_OFF + HM_IPV4_OFF_FRAG)
#define P_IP4_TTL	(P_IP_OFF + HM_IPV4_OFF_TTL)
#define P_IP4_CSUM	(P_IP_OFF + HM_IPV4_OFF_CSUM)
/* IPv6 header fields (RFC 8200). */
#define P_IP6_PLEN	(P_IP_OFF + HM_IPV6_OFF_PAYLOAD_LEN)
#define P_IP6_NH	(P_IP_OFF + HM_IPV6_OFF_NEXTHDR)
#define P_HBH_OFF	(P_IP_OFF + HM_IPV6_HDR_LEN)

/**
 * struct pint_pkt - what the programs parse out of a packet
 * @pid:	packet ID (lib/pint/pint_maps.h)
 * @family:	4 or 6
 * @proto:	upper-layer protocol (IPv6: after the PINT header)
 * @ttl:	IPv4 TTL / IPv6 Hop Limit as seen
 * @has_opt:	IPv6: the PINT Hop-by-Hop header is there
 * @count:	IPv6: the option's hop count
 * @digest:	IPv6: the option's digest; IPv4: the Identification field
 * @plen:	IPv6 Payload Length as seen
 * @nh:		IPv6 Next Header after the PINT header (or of the IPv6
 *		header without one)
 * @sport:	ports (TCP/UDP) or ICMP echo identifier, host order
 * @dport:	see @sport
 * @ip:		the IP header's first 40 octets (IPv4: 20 of them); 8-aligned
 *		so that pint_copy() fills it a word at a time
 */
struct pint_pkt {
	__u8	ip[HM_IPV6_HDR_LEN] __attribute__((aligned(8)));
	__u32	pid;
	__u8	family;
	__u8	proto;
	__u8	ttl;
	__u8	has_opt;
	__u8	count;
	__u8	nh;
	__u16	digest;
	__u16	plen;
	__u16	sport;
	__u16	dport;
};

/* Parse outcomes. */
enum {
	P_OK,
	P_NOT_IP,	/* not IPv4/IPv6 over Ethernet: not ours, not counted */
	P_NO_DF,
	P_FRAGMENT,
	P_ERR,
};

/*
 * pint_count() - count one datapath action: @st is this CPU's counters of
 * the interface (pint_stats[ifindex], looked up once per packet by
 * pint_iface()), @cnt an enum pint_counter, a constant at every call.
 */
static __always_inline void pint_count(struct pint_link_stats *st, __u32 cnt)
{
	if (cnt < PINT_CNT_MAX)
		st->cnt[cnt]++;
}

/**
 * pint_iface() - the interface's PINT settings and counters, if it has @role
 * @ifindex:	the interface
 * @role:	%PINT_IF_F_SOURCE, %PINT_IF_F_TRANSIT or %PINT_IF_F_SINK
 * @st:		set to this CPU's counters of the interface
 *
 * Two array lookups (pint_ifcfg, pint_stats), each a bounds check and an
 * address: an ifindex at or above PINT_IFINDEX_LIMIT has neither, and its
 * packets are not ours.
 *
 * Return: the settings, or NULL when the interface does not have @role.
 */
static __always_inline struct pint_if_cfg *pint_iface(__u32 ifindex, __u32 role,
						      struct pint_link_stats **st)
{
	struct pint_if_cfg *ifc = bpf_map_lookup_elem(&pint_ifcfg, &ifindex);

	if (!ifc || !(ifc->flags & role))
		return NULL;
	*st = bpf_map_lookup_elem(&pint_stats, &ifindex);
	return *st ? ifc : NULL;
}

/**
 * pint_copy() - @len octets at @off of the packet into the 8-aligned @dst
 * @skb:	the packet (tc)
 * @off:	offset from the frame's start, octets
 * @dst:	destination, 8-aligned, @len octets
 * @len:	octets, a compile-time constant and a multiple of 4
 *
 * hm_skb_copy() with word loads: clang copies a __u8 source octet by octet
 * (two instructions each), this 8 and 4 octets at a time from the linear
 * data (the verifier allows unaligned packet loads where the architecture
 * has them, and so do x86 and arm64), else bpf_skb_load_bytes().
 *
 * Return: 0, or a negative error (-EFAULT: the packet is shorter).
 */
static __always_inline int pint_copy(struct __sk_buff *skb, __u32 off, void *dst, __u32 len)
{
	__u8 *data = (__u8 *)(long)skb->data;
	__u8 *end = (__u8 *)(long)skb->data_end;
	__u32 i;

	if (off <= HM_SKB_COPY_OFF_MAX && data + off + len <= end) {
		for (i = 0; i + 8 <= len; i += 8)
			*(__u64 *)((__u8 *)dst + i) = *(__u64 *)(data + off + i);
		if (i < len)
			*(__u32 *)((__u8 *)dst + i) = *(__u32 *)(data + off + i);
		return 0;
	}
	return bpf_skb_load_bytes(skb, off, dst, len);
}

static __always_inline struct pint_domain_cfg *pint_domain(void)
{
	__u32 zero = 0;
	struct pint_domain_cfg *cfg = bpf_map_lookup_elem(&pint_cfg, &zero);

	if (!cfg || !(cfg->flags & PINT_DOM_F_CONFIGURED))
		return NULL;
	return cfg;
}

/*
 * pint_load_l4() - the PINT_PID_L4_LEN octets after the IP header for the
 * packet ID: all 20 when @avail (octets the IP length says follow) allows,
 * else the first 8, else none; the rest zero.
 */
static __always_inline void pint_load_l4(struct __sk_buff *skb, __u32 off, __u32 avail,
					 __u8 *l4)
{
	__builtin_memset(l4, 0, PINT_PID_L4_LEN);
	if (avail >= PINT_PID_L4_LEN) {
		if (pint_copy(skb, off, l4, PINT_PID_L4_LEN))
			__builtin_memset(l4, 0, PINT_PID_L4_LEN);
	} else if (avail >= PINT_PID_L4_SHORT) {
		if (pint_copy(skb, off, l4, PINT_PID_L4_SHORT))
			__builtin_memset(l4, 0, PINT_PID_L4_SHORT);
	}
}

static __always_inline void pint_ports(struct pint_pkt *p, const __u8 *l4)
{
	if (p->proto == HM_IPPROTO_TCP || p->proto == HM_IPPROTO_UDP) {
		p->sport = (__u16)l4[0] << 8 | l4[1];
		p->dport = (__u16)l4[2] << 8 | l4[3];
	} else if (p->proto == HM_IPPROTO_ICMP || p->proto == HM_IPPROTO_ICMPV6) {
		p->sport = (__u16)l4[4] << 8 | l4[5];	/* echo identifier */
		p->dport = 0;
	} else {
		p->sport = 0;
		p->dport = 0;
	}
}

/*
 * What pint_parse() computes besides the IP header: the packet ID and the
 * ports, from the upper-layer octets, never (PINT_PID_NONE: the source,
 * which uses neither) or for every packet but an IPv6 one without the PINT
 * option (PINT_PID_IF_OPT: transit and sink, which leave such a packet
 * alone). When not computed, @p->pid, @p->sport and @p->dport are
 * undefined.
 */
#define PINT_PID_NONE		0
#define PINT_PID_IF_OPT		1

/**
 * pint_parse_v4() - IPv4 header, DF check and packet ID
 * @skb:	packet
 * @p:		filled
 *
 * Return: P_OK for an atomic datagram (DF set, not a fragment, RFC 6864
 * §4), P_NO_DF, P_FRAGMENT or P_ERR (truncated or inconsistent header).
 */
static __always_inline int pint_parse_v4(struct __sk_buff *skb, struct pint_pkt *p, int want_pid)
{
	__u8 l4[PINT_PID_L4_LEN] __attribute__((aligned(8)));
	__u32 ihl, tot, frag;

	if (pint_copy(skb, P_IP_OFF, p->ip, 20))
		return P_ERR;
	if ((p->ip[0] >> 4) != 4)
		return P_ERR;
	ihl = (__u32)(p->ip[0] & 0x0f) * 4;
	tot = (__u32)p->ip[2] << 8 | p->ip[3];
	if (ihl < 20 || tot < ihl)
		return P_ERR;
	frag = (__u32)p->ip[6] << 8 | p->ip[7];
	if (frag & (HM_IPV4_F_MF | HM_IPV4_OFFSET_MASK))
		return P_FRAGMENT;
	if (!(frag & HM_IPV4_F_DF))
		return P_NO_DF;
	p->family = 4;
	p->proto = p->ip[9];
	p->ttl = p->ip[8];
	p->digest = (__u16)p->ip[4] << 8 | p->ip[5];
	if (want_pid == PINT_PID_NONE)
		return P_OK;
	pint_load_l4(skb, P_IP_OFF + ihl, tot - ihl, l4);
	pint_ports(p, l4);
	p->pid = pint_pid_v4(&p->ip[12], &p->ip[16], p->proto, tot, l4);
	return P_OK;
}

/**
 * pint_parse_v6() - IPv6 header, the PINT option if any, and packet ID
 * @skb:	packet
 * @p:		filled; @p->has_opt says whether the PINT header is there
 *
 * The PINT header is recognised only as the whole Hop-by-Hop header:
 * 8 octets, option 0x3E with 4 octets of data first (what the source
 * inserts). Another Hop-by-Hop header is not ours.
 *
 * Return: P_OK, P_FRAGMENT (fragment header right after), or P_ERR.
 */
static __always_inline int pint_parse_v6(struct __sk_buff *skb, struct pint_pkt *p, int want_pid)
{
	__u8 l4[PINT_PID_L4_LEN] __attribute__((aligned(8)));
	__u8 hbh[PINT_IP6_HBH_LEN] __attribute__((aligned(8)));
	__u32 l4_off = P_HBH_OFF, len, flow;

	if (pint_copy(skb, P_IP_OFF, p->ip, HM_IPV6_HDR_LEN))
		return P_ERR;
	if ((p->ip[0] >> 4) != 6)
		return P_ERR;
	p->family = 6;
	p->ttl = p->ip[7];
	p->plen = (__u16)p->ip[4] << 8 | p->ip[5];
	p->nh = p->ip[6];
	p->has_opt = 0;
	p->count = 0;
	p->digest = 0;
	len = p->plen;
	if (p->nh == HM_NEXTHDR_HOP && len >= PINT_IP6_HBH_LEN &&
	    !pint_copy(skb, P_HBH_OFF, hbh, sizeof(hbh)) &&
	    hbh[1] == 0 && hbh[2] == PINT_IP6_OPT_TYPE && hbh[3] == PINT_IP6_OPT_DATA_LEN) {
		p->has_opt = 1;
		p->nh = hbh[0];
		p->digest = (__u16)hbh[4] << 8 | hbh[5];
		p->count = hbh[6];
		len -= PINT_IP6_HBH_LEN;
		l4_off += PINT_IP6_HBH_LEN;
	}
	if (p->nh == HM_NEXTHDR_FRAGMENT)
		return P_FRAGMENT;
	p->proto = p->nh;
	if (want_pid == PINT_PID_NONE || (want_pid == PINT_PID_IF_OPT && !p->has_opt))
		return P_OK;
	flow = ((__u32)(p->ip[1] & 0x0f) << 16) | ((__u32)p->ip[2] << 8) | p->ip[3];
	pint_load_l4(skb, l4_off, len, l4);
	pint_ports(p, l4);
	p->pid = pint_pid_v6(&p->ip[8], &p->ip[24], p->nh, len, flow, l4);
	return P_OK;
}


/* Parse by EtherType; P_NOT_IP for anything but IPv4/IPv6. */
static __always_inline int pint_parse(struct __sk_buff *skb, struct pint_pkt *p, int want_pid)
{
	if (skb->protocol == bpf_htons(ETH_P_IP))
		return pint_parse_v4(skb, p, want_pid);
	if (skb->protocol == bpf_htons(ETH_P_IPV6))
		return pint_parse_v6(skb, p, want_pid);
	return P_NOT_IP;
}

/* Count a parse outcome that leaves the packet alone; 1 if it does. */
static __always_inline int pint_parse_skip(struct pint_link_stats *st, int ret)
{
	switch (ret) {
	case P_OK:
		return 0;
	case P_NO_DF:
		pint_count(st, PINT_CNT_NO_DF);
		return 1;
	case P_FRAGMENT:
		pint_count(st, PINT_CNT_FRAGMENT);
		return 1;
	case P_ERR:
		pint_count(st, PINT_CNT_ERR);
		return 1;
	default:
		return 1;
	}
}

/*
 * pint_ip4_set16() - replace a 16-bit word of the IPv4 header and fix the
 * header checksum incrementally (RFC 1624). The header's one's complement
 * sum does not change, so a CHECKSUM_COMPLETE skb->csum stays right.
 */
static __always_inline int pint_ip4_set16(struct __sk_buff *skb, __u32 off, __u16 old_be,
					  __u16 new_be)
{
	if (old_be == new_be)
		return 0;
	if (bpf_l3_csum_replace(skb, P_IP4_CSUM, old_be, new_be, 2))
		return -1;
	return bpf_skb_store_bytes(skb, off, &new_be, 2, 0);
}

/* One's complement sum of two 16-bit words, end-around carry (RFC 1071). */
static __always_inline __u32 pint_csum16_add(__u32 a, __u32 b)
{
	__u32 r = (a & 0xffff) + (b & 0xffff);

	return (r & 0xffff) + (r >> 16);
}

/*
 * pint_csum16_replace() - header checksum @csum (host order) after one
 * 16-bit word goes from @old to @new: RFC 1624 eq. 3, HC' = ~(~HC + ~m +
 * m'), in the order bpf_l3_csum_replace() computes it (csum_replace2()),
 * so the result is the same 16 bits, 0x0000 and 0xffff included. The sum
 * does not depend on byte order (RFC 1071 §2), hence host order here.
 */
static __always_inline __u32 pint_csum16_replace(__u32 csum, __u32 old, __u32 new)
{
	return ~pint_csum16_add(pint_csum16_add(~csum, ~old), new) & 0xffff;
}

/**
 * pint_ip4_write() - new Identification and TTL in the IPv4 header
 * @skb:	packet
 * @p:		parsed packet; @p->ip[4..11] is rewritten
 * @id:		Identification to write, host order
 * @ttl:	TTL to write
 *
 * The header checksum is fixed incrementally, word by word as
 * pint_ip4_set16() does (first the Identification, then the TTL/Protocol
 * word, each only when it changes), and octets 4-11 (Identification to
 * checksum) go out in one bpf_skb_store_bytes() instead of one checksum
 * helper and one store per word. The header's one's complement sum does
 * not change, so a CHECKSUM_COMPLETE skb->csum stays right. With
 * hm_pint_general_only, pint_ip4_set16() does it, for the tests to
 * compare.
 *
 * Return: 0, or a negative error (packet unchanged or partly written:
 * counted by the caller as an error).
 */
static __always_inline int pint_ip4_write(struct __sk_buff *skb, struct pint_pkt *p, __u32 id,
					  __u32 ttl)
{
	__u32 old_id = (__u32)p->ip[4] << 8 | p->ip[5];
	__u32 old_tt = (__u32)p->ip[8] << 8 | p->ip[9];
	__u32 new_tt = (ttl & 0xff) << 8 | p->ip[9];
	__u32 csum = (__u32)p->ip[10] << 8 | p->ip[11];

	id &= 0xffff;
	if (hm_pint_general_only)
		return pint_ip4_set16(skb, P_IP4_ID, bpf_htons(old_id), bpf_htons(id)) ||
		       pint_ip4_set16(skb, P_IP4_TTL, bpf_htons(old_tt), bpf_htons(new_tt));
	if (old_id == id && old_tt == new_tt)
		return 0;
	if (old_id != id)
		csum = pint_csum16_replace(csum, old_id, id);
	if (old_tt != new_tt)
		csum = pint_csum16_replace(csum, old_tt, new_tt);
	p->ip[4] = id >> 8;
	p->ip[5] = id;
	p->ip[8] = ttl;
	p->ip[10] = csum >> 8;
	p->ip[11] = csum;
	return bpf_skb_store_bytes(skb, P_IP4_ID, &p->ip[4], 8, 0);
}

/* ---------------- latency and utilisation of this hop ---------------- */

/*
 * pint_tx_account() - add this packet to its egress interface's tx window
 * and return the last complete window (bytes, ns) in @bytes / @ns. An entry
 * without a window yet (win_start_ns 0) starts one at @now, with no last
 * window (0, 0: no rate term).
 */
static __always_inline void pint_tx_account(__u32 ifindex, __u64 len, __u64 win_ns,
					    __u64 now, __u64 *bytes, __u64 *ns)
{
	struct pint_txrate *t = bpf_map_lookup_elem(&pint_txrate, &ifindex);

	*bytes = 0;
	*ns = 0;
	if (!t)
		return;
	if (!t->win_start_ns) {
		t->win_start_ns = now;
		t->win_bytes = 0;
		t->last_bytes = 0;
		t->last_ns = 0;
	}
	if (win_ns < PINT_TX_WIN_MIN_NS)
		win_ns = PINT_TX_WIN_MIN_NS;
	if (now > t->win_start_ns && now - t->win_start_ns >= win_ns) {
		t->last_bytes = t->win_bytes;
		t->last_ns = now - t->win_start_ns;
		t->win_start_ns = now;
		t->win_bytes = 0;
	}
	__sync_fetch_and_add(&t->win_bytes, len);
	*bytes = t->last_bytes;
	*ns = t->last_ns;
}

/*
 * pint_qlen() - egress backlog in bytes from hopmark_qdepth (hopmarkd polls
 * the qdisc), if the reading is fresh (hopmark_node.qdepth_max_age_ns).
 */
static __always_inline int pint_qlen(__u32 ifindex, const struct hopmark_node_cfg *node,
				     __u64 now, __u64 *bytes)
{
	struct hopmark_qdepth *q = bpf_map_lookup_elem(&hopmark_qdepth, &ifindex);

	if (!q || !node)
		return 0;
	if (now > q->updated_ns && now - q->updated_ns > node->qdepth_max_age_ns)
		return 0;
	*bytes = q->backlog_bytes;
	return 1;
}

/*
 * The per-query steps are global functions: the verifier checks each once
 * on its own and sees its result as an unknown value, instead of walking
 * every combination of the query subset (32 ways), the path layer (8) and
 * the latency search in one program (Linux 6.1 then exceeds its limit of
 * one million instructions). Pointer arguments may be NULL to the
 * verifier, hence the checks.
 */

/**
 * pint_qset() - the packet's query subset, pint_query_select()
 * @cfg:	domain settings
 * @pid:	packet ID
 *
 * Return: the subset index, 0..PINT_QSET_MAX-1.
 */
__attribute__((noinline))
int pint_qset(const struct pint_domain_cfg *cfg, __u32 pid)
{
	if (!cfg)
		return 0;
	return pint_query_select(&cfg->plan, pid) & (PINT_QSET_MAX - 1);
}

/**
 * pint_path_field() - the path query's field after this hop
 * @cfg:	domain settings
 * @pid:	packet ID
 * @hop:	hop number
 * @id:		this node's switch ID
 * @f:		the field as received
 *
 * Return: pint_path_hop() of the field.
 */
__attribute__((noinline))
int pint_path_field(const struct pint_domain_cfg *cfg, __u32 pid, __u32 hop, __u32 id, __u32 f)
{
	if (!cfg)
		return f;
	return pint_path_hop(&cfg->path, pid, hop, id, f);
}

/**
 * pint_lat_field() - this hop's latency code, randomized rounding
 * @cfg:	domain settings
 * @ns:		latency in ns
 * @coin:	the latency act hash of (pid, hop)
 *
 * Return: pint_lat_compress() of @ns.
 */
__attribute__((noinline))
int pint_lat_field(const struct pint_domain_cfg *cfg, __u64 ns, __u32 coin)
{
	if (!cfg)
		return 0;
	return pint_lat_compress(&cfg->lat, ns, coin);
}

/**
 * pint_util_code() - 8-bit code of HPCC's U (pint_util.h)
 * @qlen:	egress backlog, bytes
 * @bdp:	bandwidth-delay product, bytes (0: no queue term)
 * @txb:	bytes sent in the last window
 * @cap:	bytes the link carries in that window (0: no rate term)
 *
 * Return: pint_util_encode(U).
 */
__attribute__((noinline))
int pint_util_code(__u64 qlen, __u64 bdp, __u64 txb, __u64 cap)
{
	return pint_util_encode(pint_util_q16(qlen, bdp, txb, cap));
}

/**
 * pint_hop() - apply one hop's queries to a digest
 * @cfg:	domain settings
 * @node:	this node (hopmark_node[0])
 * @ifc:	the egress interface's PINT settings
 * @st:		its counters (this CPU's)
 * @skb:	the packet (egress ifindex, length)
 * @pid:	packet ID
 * @hop:	this node's hop number, 1..PINT_MAX_HOPS
 * @digest:	digest as received (budget bits)
 *
 * The packet's query subset comes from its ID (pint_query_select()); each
 * query present updates its own field:
 *   path	pint_path_hop() with this node's switch ID
 *   latency	if this hop is the reservoir sample so far: its queueing
 *		delay, backlog * 8 / rate, compressed with randomized
 *		rounding (pint_lat_compress())
 *   util	max(field, code of U), U = qlen / BDP + tx / capacity (HPCC)
 *
 * The clock (and the egress queue reading, hopmark_qdepth) only when a
 * latency field is written or a utilisation query is configured (whose tx
 * window counts every packet): once then, never for a path-only packet.
 *
 * Return: the new digest.
 */
static __always_inline __u32 pint_hop(const struct pint_domain_cfg *cfg,
				      const struct hopmark_node_cfg *node,
				      const struct pint_if_cfg *ifc, struct pint_link_stats *st,
				      struct __sk_buff *skb, __u32 pid, __u32 hop, __u32 digest)
{
	__u32 s = (__u32)pint_qset(cfg, pid) & (PINT_QSET_MAX - 1);
	__u32 ifindex = skb->ifindex, q, off = PINT_QUERY_NONE, bits = 0, f, ah = 0;
	__u64 now, qlen = 0, txb, txns, ns, bdp, cap;
	int have_q, lat_write = 0;

	q = cfg->q_path;
	if (q < PINT_QUERY_MAX) {
		off = cfg->plan.set[s].offset[q & (PINT_QUERY_MAX - 1)];
		bits = cfg->plan.bits[q & (PINT_QUERY_MAX - 1)];
		if (off != PINT_QUERY_NONE) {
			f = pint_field_get(digest, off, bits);
			f = pint_path_field(cfg, pid, hop, node->node_id, f);
			digest = pint_field_set(digest, off, bits, f);
		}
	}
	q = cfg->q_lat;
	if (q < PINT_QUERY_MAX) {
		off = cfg->plan.set[s].offset[q & (PINT_QUERY_MAX - 1)];
		bits = cfg->plan.bits[q & (PINT_QUERY_MAX - 1)];
		if (off != PINT_QUERY_NONE) {
			ah = pint_lat_act_hash(&cfg->plan.seeds, pid, hop);
			lat_write = ah <= pint_prob_thresh_baseline(hop);
		}
	}
	if (!lat_write && cfg->q_util >= PINT_QUERY_MAX)
		return digest;
	now = bpf_ktime_get_ns();
	have_q = pint_qlen(ifindex, node, now, &qlen);
	if (lat_write) {
		ns = 0;
		if (have_q && ifc->rate_bps) {
			if (qlen > 0x7fffffffULL)
				qlen = 0x7fffffffULL;
			ns = qlen * 8000000000ULL / ifc->rate_bps;
		} else {
			pint_count(st, PINT_CNT_LAT_UNAVAIL);
		}
		f = pint_lat_field(cfg, ns, ah);
		digest = pint_field_set(digest, off, bits, f);
	}
	q = cfg->q_util;
	if (q < PINT_QUERY_MAX) {
		off = cfg->plan.set[s].offset[q & (PINT_QUERY_MAX - 1)];
		bits = cfg->plan.bits[q & (PINT_QUERY_MAX - 1)];
		pint_tx_account(ifindex, skb->len, cfg->base_rtt_ns, now, &txb, &txns);
		if (off != PINT_QUERY_NONE) {
			bdp = pint_util_link_bytes(ifc->rate_bps, cfg->base_rtt_ns);
			cap = pint_util_link_bytes(ifc->rate_bps, txns);
			f = pint_util_field(pint_util_code(have_q ? qlen : 0, bdp, txb, cap) & 0xff,
					    bits);
			if (f > pint_field_get(digest, off, bits))
				digest = pint_field_set(digest, off, bits, f);
		}
	}
	return digest;
}

/* ---------------- the three roles ---------------- */

/*
 * pint_v6_not_ours() - an IPv6 packet that cannot carry the PINT option,
 * told from two octets read in place: version 6 and a Next Header that is
 * neither Hop-by-Hop nor Fragment, with the whole IPv6 header in the linear
 * data. pint_parse() would count it as no_option too; anything else (a
 * Hop-by-Hop header to look into, a fragment, a header short or not
 * linear) takes the general parse. With hm_pint_general_only, never.
 *
 * Return: 1 if the packet is not ours, else 0.
 */
static __always_inline int pint_v6_not_ours(struct __sk_buff *skb)
{
	__u8 *data = (__u8 *)(long)skb->data;
	__u8 *end = (__u8 *)(long)skb->data_end;
	__u8 nh;

	if (hm_pint_general_only || skb->protocol != bpf_htons(ETH_P_IPV6) ||
	    data + P_HBH_OFF > end)
		return 0;
	nh = data[P_IP6_NH];
	return (data[P_IP_OFF] >> 4) == 6 && nh != HM_NEXTHDR_HOP && nh != HM_NEXTHDR_FRAGMENT;
}

/**
 * hm_pint_source() - start the digest at the domain's edge (tc ingress)
 * @skb:	packet arriving from outside the domain
 *
 * IPv4 with DF: Identification := 0 and TTL := hop_limit_start, header
 * checksum fixed incrementally (the first router's egress then sees TTL
 * start - 1: hop 1). IPv4 without DF and fragments: untouched, counted.
 * IPv6: an 8-octet Hop-by-Hop header with the PINT option (digest 0,
 * count 0) is inserted right after the IPv6 header; a packet that already
 * has a Hop-by-Hop header, or that would then exceed the MTU, is left
 * alone and counted.
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("tc")
int hm_pint_source(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex, mtu_len = 0;
	struct pint_link_stats *st = NULL;
	struct pint_domain_cfg *cfg;
	__u64 out[(HM_IPV6_HDR_LEN + PINT_IP6_HBH_LEN) / 8];
	struct pint_pkt p;
	__u8 hbh[PINT_IP6_HBH_LEN];
	__u8 ip[3], *o;
	__u16 plen;
	int ret;

	if (!pint_iface(ifindex, PINT_IF_F_SOURCE, &st) || !st)
		return TC_ACT_UNSPEC;
	ret = pint_parse(skb, &p, PINT_PID_NONE);
	if (ret == P_NOT_IP || pint_parse_skip(st, ret))
		return TC_ACT_UNSPEC;
	cfg = pint_domain();
	if (!cfg) {
		pint_count(st, PINT_CNT_NOT_CONFIGURED);
		return TC_ACT_UNSPEC;
	}
	if (p.family == 4) {
		__u8 old_ttl = p.ttl;

		if (pint_ip4_write(skb, &p, 0, cfg->hop_limit_start)) {
			pint_count(st, PINT_CNT_ERR);
			return TC_ACT_UNSPEC;
		}
		if (old_ttl != cfg->hop_limit_start)
			pint_count(st, PINT_CNT_SRC_TTL_SET);
		pint_count(st, PINT_CNT_SRC_OK);
		return TC_ACT_UNSPEC;
	}

	if (p.ip[6] == HM_NEXTHDR_HOP) {
		pint_count(st, PINT_CNT_HBH_PRESENT);
		return TC_ACT_UNSPEC;
	}
	if (bpf_check_mtu(skb, 0, &mtu_len, PINT_IP6_HBH_LEN, 0)) {
		pint_count(st, PINT_CNT_MTU);
		return TC_ACT_UNSPEC;
	}
	if (bpf_skb_adjust_room(skb, PINT_IP6_HBH_LEN, BPF_ADJ_ROOM_NET, 0)) {
		pint_count(st, PINT_CNT_ERR);
		return TC_ACT_UNSPEC;
	}
	plen = p.plen + PINT_IP6_HBH_LEN;
	if (hm_pint_general_only) {
		hbh[0] = p.ip[6];
		hbh[1] = 0;
		hbh[2] = PINT_IP6_OPT_TYPE;
		hbh[3] = PINT_IP6_OPT_DATA_LEN;
		hbh[4] = 0;
		hbh[5] = 0;
		hbh[6] = 0;
		hbh[7] = 0;
		ip[0] = plen >> 8;
		ip[1] = plen;
		ip[2] = HM_NEXTHDR_HOP;
		if (bpf_skb_store_bytes(skb, P_HBH_OFF, hbh, sizeof(hbh), BPF_F_RECOMPUTE_CSUM) ||
		    bpf_skb_store_bytes(skb, P_IP6_PLEN, ip, 3, BPF_F_RECOMPUTE_CSUM)) {
			pint_count(st, PINT_CNT_ERR);
			return TC_ACT_UNSPEC;
		}
		pint_count(st, PINT_CNT_SRC_OK);
		return TC_ACT_UNSPEC;
	}
	/*
	 * One store instead of two: the IPv6 header as parsed, its Payload
	 * Length and Next Header changed, followed by the Hop-by-Hop header
	 * (digest 0, count 0), over the room just made after it.
	 */
	__builtin_memcpy(out, p.ip, HM_IPV6_HDR_LEN);
	out[HM_IPV6_HDR_LEN / 8] = 0;
	o = (__u8 *)out;
	o[HM_IPV6_HDR_LEN] = p.ip[6];
	o[HM_IPV6_HDR_LEN + 2] = PINT_IP6_OPT_TYPE;
	o[HM_IPV6_HDR_LEN + 3] = PINT_IP6_OPT_DATA_LEN;
	o[4] = plen >> 8;
	o[5] = plen;
	o[6] = HM_NEXTHDR_HOP;
	if (bpf_skb_store_bytes(skb, P_IP_OFF, out, sizeof(out), BPF_F_RECOMPUTE_CSUM)) {
		pint_count(st, PINT_CNT_ERR);
		return TC_ACT_UNSPEC;
	}
	pint_count(st, PINT_CNT_SRC_OK);
	return TC_ACT_UNSPEC;
}

/**
 * hm_pint_transit() - this node's PINT hop (tc egress)
 * @skb:	packet leaving through this interface
 *
 * Hop number: IPv4 hop_limit_start - TTL (the TTL is already decremented
 * by forwarding), IPv6 the option's count + 1, written back. Hop numbers
 * outside 1..PINT_MAX_HOPS (e.g. the node's own packets) are left alone
 * and counted. The switch ID encoded is hopmark_node.node_id; without one
 * the node does nothing (counted as not configured).
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("tc")
int hm_pint_transit(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex, hop, digest, zero = 0;
	struct pint_link_stats *st = NULL;
	struct hopmark_node_cfg *node;
	struct pint_domain_cfg *cfg;
	struct pint_if_cfg *ifc;
	struct pint_pkt p;
	__u8 w[3];
	int ret;

	ifc = pint_iface(ifindex, PINT_IF_F_TRANSIT, &st);
	if (!ifc || !st)
		return TC_ACT_UNSPEC;
	if (pint_v6_not_ours(skb)) {
		pint_count(st, PINT_CNT_NO_OPTION);
		return TC_ACT_UNSPEC;
	}
	ret = pint_parse(skb, &p, PINT_PID_IF_OPT);
	if (ret == P_NOT_IP || pint_parse_skip(st, ret))
		return TC_ACT_UNSPEC;
	if (p.family == 6 && !p.has_opt) {
		pint_count(st, PINT_CNT_NO_OPTION);
		return TC_ACT_UNSPEC;
	}
	cfg = pint_domain();
	node = bpf_map_lookup_elem(&hopmark_node, &zero);
	if (!cfg || !node || !(node->flags & HM_NODE_F_ID)) {
		pint_count(st, PINT_CNT_NOT_CONFIGURED);
		return TC_ACT_UNSPEC;
	}
	if (p.family == 4)
		hop = p.ttl < cfg->hop_limit_start ? cfg->hop_limit_start - p.ttl : 0;
	else
		hop = (__u32)p.count + 1;
	if (hop == 0 || hop > PINT_MAX_HOPS) {
		pint_count(st, PINT_CNT_HOP_RANGE);
		return TC_ACT_UNSPEC;
	}
	digest = pint_hop(cfg, node, ifc, st, skb, p.pid, hop, p.digest) & 0xffff;

	if (p.family == 4) {
		if (pint_ip4_write(skb, &p, digest, p.ttl)) {
			pint_count(st, PINT_CNT_ERR);
			return TC_ACT_UNSPEC;
		}
	} else {
		w[0] = digest >> 8;
		w[1] = digest;
		w[2] = hop;
		if (bpf_skb_store_bytes(skb, P_HBH_OFF + 4, w, 3, 0)) {
			pint_count(st, PINT_CNT_ERR);
			return TC_ACT_UNSPEC;
		}
	}
	pint_count(st, PINT_CNT_TRANSIT_OK);
	return TC_ACT_UNSPEC;
}

/**
 * hm_pint_sink() - report and remove at the domain's far edge (tc ingress)
 * @skb:	packet arriving at the sink
 *
 * Hop count: IPv4 hop_limit_start - TTL, IPv6 the option's count. The
 * record (struct pint_record) goes to pint_events with BPF_RB_NO_WAKEUP,
 * but for the one that makes the bytes waiting cross a multiple of
 * PINT_EVENTS_WAKEUP_BYTES (forced wakeup), so userspace reads in batches
 * (it also polls with a timeout) and a reader behind is not woken again
 * for every record. Removal: IPv4 Identification := 0 (any value
 * is allowed for atomic datagrams, RFC 6864 §4.1); IPv6: the 8-octet
 * Hop-by-Hop header goes. The record is sent even when the removal fails
 * (counted as an error).
 *
 * Return: TC_ACT_UNSPEC, always: the next tc filter on the hook still runs.
 */
SEC("tc")
int hm_pint_sink(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex, hops;
	struct pint_link_stats *st = NULL;
	struct pint_domain_cfg *cfg;
	struct pint_record *rec;
	struct pint_pkt p;
	__u64 avail, flags, rsz;
	__u32 qset;
	__u16 plen;
	__u8 ip[3];
	int ret, err = 0;

	if (!pint_iface(ifindex, PINT_IF_F_SINK, &st) || !st)
		return TC_ACT_UNSPEC;
	if (pint_v6_not_ours(skb)) {
		pint_count(st, PINT_CNT_NO_OPTION);
		return TC_ACT_UNSPEC;
	}
	ret = pint_parse(skb, &p, PINT_PID_IF_OPT);
	if (ret == P_NOT_IP || pint_parse_skip(st, ret))
		return TC_ACT_UNSPEC;
	if (p.family == 6 && !p.has_opt) {
		pint_count(st, PINT_CNT_NO_OPTION);
		return TC_ACT_UNSPEC;
	}
	cfg = pint_domain();
	if (!cfg) {
		pint_count(st, PINT_CNT_NOT_CONFIGURED);
		return TC_ACT_UNSPEC;
	}
	if (p.family == 4)
		hops = p.ttl < cfg->hop_limit_start ? cfg->hop_limit_start - p.ttl : 0;
	else
		hops = p.count;
	if (hops == 0 || hops > PINT_MAX_HOPS) {
		pint_count(st, PINT_CNT_HOP_RANGE);
		return TC_ACT_UNSPEC;
	}

	qset = pint_qset(cfg, p.pid);
	if (p.family == 4) {
		err = pint_ip4_write(skb, &p, 0, p.ttl);
	} else {
		err = bpf_skb_adjust_room(skb, -PINT_IP6_HBH_LEN, BPF_ADJ_ROOM_NET, 0);
		if (!err) {
			plen = p.plen - PINT_IP6_HBH_LEN;
			ip[0] = plen >> 8;
			ip[1] = plen;
			ip[2] = p.nh;
			err = bpf_skb_store_bytes(skb, P_IP6_PLEN, ip, 3, BPF_F_RECOMPUTE_CSUM);
		}
	}
	if (err)
		pint_count(st, PINT_CNT_ERR);
	else
		pint_count(st, PINT_CNT_SINK_OK);
	/*
	 * The record (sent even when the removal failed) is written where the
	 * reader will find it (reserve, submit), not built on the stack and
	 * copied by bpf_ringbuf_output(). Reserved after the packet's helpers,
	 * in one straight run to the submit: 6.1's verifier cannot follow a
	 * reservation's NULL test across them.
	 */
	rec = bpf_ringbuf_reserve(&pint_events, sizeof(*rec), 0);
	if (!rec) {
		pint_count(st, PINT_CNT_EVENTS_LOST);
		return TC_ACT_UNSPEC;
	}
	__builtin_memset(rec, 0, sizeof(*rec));
	rec->rx_ns = bpf_ktime_get_ns();
	rec->pid = p.pid;
	rec->digest = p.digest;
	rec->ifindex = ifindex;
	rec->hops = hops;
	rec->family = p.family;
	rec->proto = p.proto;
	rec->qset = qset;
	rec->sport = p.sport;
	rec->dport = p.dport;
	if (p.family == 4) {
		__builtin_memcpy(rec->saddr, &p.ip[12], 4);
		__builtin_memcpy(rec->daddr, &p.ip[16], 4);
	} else {
		__builtin_memcpy(rec->saddr, &p.ip[8], 16);
		__builtin_memcpy(rec->daddr, &p.ip[24], 16);
	}
	/*
	 * The data waiting now includes this record: wake the reader only if
	 * it makes the waiting bytes cross a multiple of the batch size.
	 */
	avail = bpf_ringbuf_query(&pint_events, BPF_RB_AVAIL_DATA);
	rsz = sizeof(*rec) + BPF_RINGBUF_HDR_SZ;
	flags = avail >= rsz && (avail - rsz) >> PINT_EVENTS_WAKEUP_SHIFT !=
		avail >> PINT_EVENTS_WAKEUP_SHIFT ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
	bpf_ringbuf_submit(rec, flags);
	return TC_ACT_UNSPEC;
}
