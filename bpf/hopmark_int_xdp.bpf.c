// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_int_xdp.bpf.c - an INT-MD source at XDP, for TCP sent with GSO.
 *
 * A TCP superpacket (GSO) cannot get a shim per segment from tc: GSO copies
 * the headers up to the end of the TCP header into each segment, and
 * NPT=2 (the domain's choice for TCP under UDP-port signalling) makes the
 * IP protocol UDP, which TCP GSO cannot segment; hm_int_source counts such
 * packets (INT_CNT_SRC_GSO) and leaves them. But a veth whose peer runs an
 * XDP program loses NETIF_F_GSO_SOFTWARE (drivers/net/veth.c,
 * veth_fix_features()): the sender's stack then segments in software
 * before the veth, still one superpacket per send through TCP, and every
 * segment reaches the first INT node's ingress veth at MTU size. This
 * program, hm_int_xdp_src, attached there, gives each segment INT:
 *
 *	Ethernet | IP | UDP (new) | shim (NPT=2) | MD header | own metadata | TCP ...
 *
 * Ethernet and IP move towards the head by the growth (bpf_xdp_adjust_head
 * with a negative delta), so the TCP header and payload do not move: an skb
 * that is CHECKSUM_PARTIAL (what a local sender hands a veth) keeps a valid
 * csum_start, and its TCP checksum field, the pseudo-header sum of the
 * original header, is right again once the sink restores protocol and
 * lengths. The new UDP header has checksum 0 and a source port from the
 * 5-tuple hash, as hm_int_source writes it (bpf/hopmark_int.bpf.c).
 *
 * Scope, everything else counted on the ingress interface (int_stats) and
 * passed unchanged:
 *  - the domain must signal by UDP port and run INT-MD (NPT=2 over TCP);
 *    a DSCP domain needs NPT=0, whose data follows the TCP header and
 *    would move it (INT_CNT_XDP_UNSUPPORTED);
 *  - TCP over IPv4 without options or IPv6 without extension headers;
 *    UDP and the rest are the tc source's (INT_CNT_XDP_NOT_TCP), IPv4
 *    options, extension headers and fragments are INT_CNT_SRC_PROTO;
 *  - the watchlist and sampling of int_cfg, as at tc;
 *  - the grown packet must fit int_ifcfg[ingress].mtu (else the device's
 *    MTU): INT_CNT_SRC_MTU_NO_INT otherwise. The sender's route MTU or
 *    advertised MSS leaves the room (Documentation/int.rst, "GSO and TSO").
 *
 * The node's own metadata is what an ingress hook knows (as the sink's, in
 * hopmark_int.bpf.c): node ID, L1/L2 ingress interface IDs, the ingress
 * timestamp (now, POSIX ns), buffer occupancy from hopmark_qdepth[0] (the
 * node totals, for hooks without an egress interface); egress fields, hop
 * latency, queue, TX utilisation, reserved bits, DS words and the checksum
 * complement are all-ones. The RHC counts this hop (max_hops - 1).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "hopmark_maps.bpf.h"
#include "int_maps.bpf.h"
#include "common/ip_proto.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define X_ETH		14
#define X_IP4		20
#define X_IP6		40
#define X_UDP		8
#define X_WORDS_MAX	INT_HOP_ML_MAX	/* own metadata, words */

/* Counted per ingress interface, int_stats (per CPU). */
const struct int_link_stats hm_xdp_stats_zero = {};

static __always_inline void x_count(__u32 ifindex, __u32 cnt)
{
	struct int_link_stats *st;

	if (cnt >= INT_CNT_MAX)
		return;
	st = bpf_map_lookup_elem(&int_stats, &ifindex);
	if (!st) {
		bpf_map_update_elem(&int_stats, &ifindex, &hm_xdp_stats_zero, BPF_NOEXIST);
		st = bpf_map_lookup_elem(&int_stats, &ifindex);
		if (!st)
			return;
	}
	st->cnt[cnt]++;
}

/* Per-CPU working memory: the headers that move and the metadata words. */
struct x_scratch {
	__u8			hdr[X_ETH + X_IP6];
	__u32			md[X_WORDS_MAX + 1];	/* 32: indices masked with 31 */
	struct hm_flow_key	key;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct x_scratch);
} hm_xdp_scratch SEC(".maps");

static __always_inline __u16 x_csum_fold(__u32 s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (__u16)~s;
}

/* IPv4 header checksum of the 20 octets at @h (checksum field zero). */
static __always_inline __u16 x_ip4_csum(const __u8 *h)
{
	__u32 s = 0, i;

#pragma clang loop unroll(full)
	for (i = 0; i < X_IP4; i += 2)
		s += (__u32)h[i] << 8 | h[i + 1];
	return x_csum_fold(s);
}

/*
 * x_md_words() - the node's metadata for @bm (bits 0-14, then DS words up
 * to @hop_ml, then bit 15) into @s->md, host order; returns the words
 * written. A global function: verified once, not per caller path.
 */
__attribute__((noinline))
int x_md_words(struct x_scratch *s, __u32 bm, __u32 hop_ml, __u32 in_if)
{
	struct hopmark_node_cfg *node;
	__u32 *m;
	struct hopmark_if_cfg *ic;
	struct hopmark_qdepth *q;
	__u32 n = 0, zero = 0, bocc = INT_UNAVAIL32, i;
	__u64 now;

	if (!s)
		return 0;
	m = s->md;
	node = bpf_map_lookup_elem(&hopmark_node, &zero);
	ic = bpf_map_lookup_elem(&hopmark_ifcfg, &in_if);
	/* hopmark_ifcfg is an array: an entry is set only with HM_IF_F_PRESENT. */
	if (ic && !(ic->flags & HM_IF_F_PRESENT))
		ic = NULL;
	now = bpf_ktime_get_tai_ns();
	if (node)
		now -= (__u64)node->tai_offset_ns;
	if (bm & INT_BM_BUFFER) {
		q = bpf_map_lookup_elem(&hopmark_qdepth, &zero);
		if (q && node && node->qdepth_max_age_ns &&
		    bpf_ktime_get_ns() - q->updated_ns <= node->qdepth_max_age_ns)
			bocc = q->node_backlog_bytes > 0xfffffe ? 0xfffffe : q->node_backlog_bytes;
	}
	if (bm & INT_BM_NODE_ID)
		m[n++] = node && (node->flags & HM_NODE_F_ID) ? node->node_id : INT_UNAVAIL32;
	if (bm & INT_BM_L1_PORTS)
		m[n++] = (ic ? (__u32)ic->if_id : 0xffff) << 16 | 0xffff;
	if (bm & INT_BM_HOP_LAT)
		m[n++] = INT_UNAVAIL32;
	if (bm & INT_BM_QUEUE)
		m[n++] = INT_UNAVAIL32;
	if (bm & INT_BM_INGRESS_TS) {
		m[n++] = now >> 32;
		m[n++] = (__u32)now;
	}
	if (bm & INT_BM_EGRESS_TS) {
		m[n++] = INT_UNAVAIL32;
		m[n++] = INT_UNAVAIL32;
	}
	if (bm & INT_BM_L2_PORTS) {
		m[n++] = ic ? ic->if_id_wide : INT_UNAVAIL32;
		m[n++] = INT_UNAVAIL32;
	}
	if (bm & INT_BM_TX_UTIL)
		m[n++] = INT_UNAVAIL32;
	if (bm & INT_BM_BUFFER)
		m[n++] = bocc;	/* buffer ID 0, the node's one buffer */
#pragma clang loop unroll(full)
	for (i = 9; i < 15; i++)
		if (bm & (0x8000U >> i))
			m[n++] = INT_UNAVAIL32;
	/* DS words (Hop ML beyond the bitmap), then the complement: all-ones. */
#pragma clang loop unroll(disable)
	for (i = 0; i < X_WORDS_MAX; i++) {
		if (n + ((bm & INT_BM_CSUM_COMPL) ? 1 : 0) >= hop_ml || n >= X_WORDS_MAX)
			break;
		m[n & X_WORDS_MAX] = INT_UNAVAIL32;
		n++;
	}
	if ((bm & INT_BM_CSUM_COMPL) && n < X_WORDS_MAX)
		m[n++] = INT_UNAVAIL32;
	return n;
}

/*
 * x_select() - the watchlist and sampling of @cfg for @k (lib/select)
 *
 * A global function: the rule walk is verified once.
 *
 * Return: -1 not watched, -2 watched but not sampled, else the MD flags
 * the match gives (%INT_MD_D for a synthetic rule).
 */
__attribute__((noinline))
int x_select(const struct int_domain_cfg *cfg, const struct hm_flow_key *k, __u32 rnd)
{
	int idx;

	if (!cfg || !k)
		return -1;
	idx = hm_sel_watch(&cfg->sel, k);
	if (idx < 0)
		return -1;
	if (!hm_sel_sampled(&cfg->sel, k, rnd))
		return -2;
	if (idx < HM_SEL_MAX_RULES &&
	    (cfg->sel.rules[idx & (HM_SEL_MAX_RULES - 1)].flags & HM_SEL_F_SYNTHETIC))
		return INT_MD_D;
	return 0;
}

SEC("xdp")
int hm_int_xdp_src(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 ifindex = ctx->ingress_ifindex, zero = 0, hl, grow, own, hop_ml;
	__u32 rhc, flags = 0, w0, i, nw, mtu, ip_len, len;
	struct int_domain_cfg *cfg;
	struct int_if_cfg *ifc;
	struct x_scratch *s;
	struct hm_flow_key *k;
	__u8 *p, *ip, *tcp;
	__u16 eproto, sport;
	int idx, family;

	if (data + X_ETH > end)
		return XDP_PASS;
	p = data;
	eproto = (__u16)p[12] << 8 | p[13];
	if (eproto == ETH_P_IP) {
		family = 4;
		hl = X_IP4;
	} else if (eproto == ETH_P_IPV6) {
		family = 6;
		hl = X_IP6;
	} else {
		return XDP_PASS;
	}
	cfg = bpf_map_lookup_elem(&int_cfg, &zero);
	if (!cfg || !(cfg->flags & INT_DOM_F_CONFIGURED)) {
		x_count(ifindex, INT_CNT_NOT_CONFIGURED);
		return XDP_PASS;
	}
	s = bpf_map_lookup_elem(&hm_xdp_scratch, &zero);
	if (!s)
		return XDP_PASS;
	k = &s->key;
	__builtin_memset(k, 0, sizeof(*k));
	ip = data + X_ETH;
	if (family == 4) {
		if ((void *)ip + X_IP4 > end)
			return XDP_PASS;
		if (ip[0] != 0x45 || ((ip[6] << 8 | ip[7]) & 0x3fff)) {
			x_count(ifindex, INT_CNT_SRC_PROTO);	/* options or a fragment */
			return XDP_PASS;
		}
		k->family = 4;
		k->proto = ip[9];
		__builtin_memcpy(k->saddr, ip + 12, 4);
		__builtin_memcpy(k->daddr, ip + 16, 4);
		ip_len = (__u32)ip[2] << 8 | ip[3];
	} else {
		if ((void *)ip + X_IP6 > end)
			return XDP_PASS;
		k->family = 6;
		k->proto = ip[6];
		__builtin_memcpy(k->saddr, ip + 8, 16);
		__builtin_memcpy(k->daddr, ip + 24, 16);
		ip_len = X_IP6 + ((__u32)ip[4] << 8 | ip[5]);
	}
	tcp = ip + hl;
	if (k->proto == HM_IPPROTO_UDP) {
		if ((void *)tcp + X_UDP <= end &&
		    ((__u32)tcp[2] << 8 | tcp[3]) == cfg->udp_port && cfg->signal == INT_SIG_UDP)
			x_count(ifindex, INT_CNT_SRC_HAS_INT);
		else
			x_count(ifindex, INT_CNT_XDP_NOT_TCP);
		return XDP_PASS;
	}
	if (k->proto != HM_IPPROTO_TCP) {
		x_count(ifindex, family == 6 && (k->proto == 0 || k->proto == 43 || k->proto == 60 ||
						 k->proto == 44) ?
				 INT_CNT_SRC_PROTO : INT_CNT_XDP_NOT_TCP);
		return XDP_PASS;
	}
	if ((void *)tcp + 20 > end)
		return XDP_PASS;
	k->sport = bpf_htons((__u16)tcp[0] << 8 | tcp[1]);
	k->dport = bpf_htons((__u16)tcp[2] << 8 | tcp[3]);
	if (cfg->signal != INT_SIG_UDP || cfg->mode != INT_MODE_MD) {
		x_count(ifindex, INT_CNT_XDP_UNSUPPORTED);
		return XDP_PASS;
	}
	idx = x_select(cfg, k, bpf_get_prandom_u32());
	if (idx < 0) {
		x_count(ifindex, idx == -1 ? INT_CNT_SRC_NOT_WATCHED : INT_CNT_SRC_NOT_SAMPLED);
		return XDP_PASS;
	}
	flags = idx & INT_MD_D;

	/* Sizes: UDP + shim + MD header, and this hop's words unless E or M. */
	hop_ml = int_bitmap_words(cfg->bitmap);
	if (cfg->hop_ml > hop_ml && cfg->hop_ml <= INT_HOP_ML_MAX)
		hop_ml = cfg->hop_ml;
	if (hop_ml > X_WORDS_MAX)
		hop_ml = X_WORDS_MAX;
	len = (__u32)(end - data) - X_ETH;
	if (ip_len > len)
		return XDP_PASS;	/* truncated: the stack drops it */
	ifc = bpf_map_lookup_elem(&int_ifcfg, &ifindex);
	mtu = ifc && ifc->mtu ? ifc->mtu : 0;
	/* The device's MTU (bpf_check_mtu() sets it whatever its verdict). */
	if (!mtu && (bpf_check_mtu(ctx, 0, &mtu, 0, 0) < 0 || !mtu))
		mtu = 1500;
	if (ip_len + X_UDP + INT_FIXED_LEN > mtu) {
		x_count(ifindex, INT_CNT_SRC_MTU_NO_INT);
		return XDP_PASS;
	}
	rhc = cfg->max_hops;
	own = 0;
	if (!rhc)
		flags |= INT_MD_E;
	else if (ip_len + X_UDP + INT_FIXED_LEN + hop_ml * 4 > mtu)
		flags |= INT_MD_M;
	else
		own = hop_ml * 4;
	if (own)
		rhc--;
	nw = own ? x_md_words(s, cfg->bitmap, hop_ml, ifindex) : 0;
	if (nw * 4 != own) {
		x_count(ifindex, INT_CNT_ERR);
		return XDP_PASS;
	}
	grow = X_UDP + INT_FIXED_LEN + own;
	sport = 0xc000 | (hm_flow_hash(k, cfg->sel.seed) & 0x3fff);

	/* Keep Ethernet + IP, grow at the head, put them back in front. */
	if ((void *)ip + hl > end)
		return XDP_PASS;
	if (family == 4)
		__builtin_memcpy(s->hdr, data, X_ETH + X_IP4);
	else
		__builtin_memcpy(s->hdr, data, X_ETH + X_IP6);
	if (bpf_xdp_adjust_head(ctx, -(int)grow)) {
		x_count(ifindex, INT_CNT_ERR);
		return XDP_PASS;
	}
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (data + X_ETH + X_IP6 + X_UDP + INT_FIXED_LEN > end)
		return XDP_ABORTED;	/* cannot happen: the frame only grew */
	p = data;
	ip = p + X_ETH;
	if (family == 4) {
		__builtin_memcpy(p, s->hdr, X_ETH + X_IP4);
		ip_len += grow;
		ip[2] = ip_len >> 8;
		ip[3] = ip_len;
		ip[9] = HM_IPPROTO_UDP;
		ip[10] = ip[11] = 0;
		w0 = x_ip4_csum(ip);
		ip[10] = w0 >> 8;
		ip[11] = w0;
	} else {
		__builtin_memcpy(p, s->hdr, X_ETH + X_IP6);
		ip[6] = HM_IPPROTO_UDP;
		ip[4] = (ip_len + grow - X_IP6) >> 8;
		ip[5] = ip_len + grow - X_IP6;
		ip_len += grow;
	}
	{
		__u8 *u = ip + hl, *sh;
		__u32 ulen = ip_len - hl;

		if ((void *)u + X_UDP + INT_FIXED_LEN > end)
			return XDP_ABORTED;
		u[0] = sport >> 8;
		u[1] = sport;
		u[2] = cfg->udp_port >> 8;
		u[3] = cfg->udp_port;
		u[4] = ulen >> 8;
		u[5] = ulen;
		u[6] = u[7] = 0;	/* no checksum (§5.7.2) */
		sh = u + X_UDP;
		sh[0] = int_shim_type_npt(INT_TYPE_MD, INT_NPT_L4);
		sh[1] = (INT_HDR_LEN + own) / 4;
		sh[2] = 0;
		sh[3] = HM_IPPROTO_TCP;
		w0 = int_md_w0(flags, hop_ml, rhc);
		sh[4] = w0 >> 24;
		sh[5] = w0 >> 16;
		sh[6] = w0 >> 8;
		sh[7] = w0;
		sh[8] = cfg->bitmap >> 8;
		sh[9] = cfg->bitmap;
		sh[10] = cfg->ds_id >> 8;
		sh[11] = cfg->ds_id;
		sh[12] = cfg->ds_inst >> 8;
		sh[13] = cfg->ds_inst;
		sh[14] = sh[15] = 0;
		sh += INT_FIXED_LEN;
#pragma clang loop unroll(disable)
		for (i = 0; i < X_WORDS_MAX; i++) {
			__u32 w;

			if (i >= nw)
				break;
			if ((void *)sh + 4 > end)
				return XDP_ABORTED;
			w = s->md[i & X_WORDS_MAX];
			sh[0] = w >> 24;
			sh[1] = w >> 16;
			sh[2] = w >> 8;
			sh[3] = w;
			sh += 4;
		}
	}
	x_count(ifindex, INT_CNT_SRC_OK);
	if (flags & INT_MD_M)
		x_count(ifindex, INT_CNT_SRC_MTU_M);
	return XDP_PASS;
}
