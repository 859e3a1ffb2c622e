/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * select.h - which packets a telemetry source instruments: a watchlist of
 * prefix and 5-tuple rules with masks, then 1:N sampling per packet or by
 * flow hash. One definition for every user: INT (bpf/int.bpf.c, `hopmark
 * int watch`), and the postcard marking of PBT-M; the matcher below runs
 * unchanged in BPF and in userspace (tests, `hopmark int watch test`).
 *
 * Header only, libc-free: safe to include from BPF. Addresses and ports
 * are in network byte order, as on the wire; everything else host order.
 */
#ifndef __HOPMARK_SELECT_H
#define __HOPMARK_SELECT_H

#include <linux/types.h>

#define HM_SEL_MAX_RULES	16

/**
 * struct hm_flow_key - the 5-tuple a rule is matched against
 * @family:	4 or 6
 * @proto:	IP protocol (IPv6: the upper-layer header's)
 * @sport:	TCP/UDP source port, network order (0 for other protocols)
 * @dport:	TCP/UDP destination port, network order
 * @saddr:	source address, network order; IPv4 in the first 4 octets,
 *		the other 12 zero
 * @daddr:	destination address, the same way
 */
struct hm_flow_key {
	__u8	family;
	__u8	proto;
	__be16	sport;
	__be16	dport;
	__u16	pad;
	__u8	saddr[16];
	__u8	daddr[16];
};

/**
 * struct hm_sel_rule - one watchlist entry; every given field must match
 * @family:	4 or 6; 0 = either family (a rule without prefixes, whose
 *		@src_plen and @dst_plen are then 0)
 * @proto:	IP protocol, 0 = any
 * @src_plen:	source prefix length in bits (0 = any)
 * @dst_plen:	destination prefix length in bits (0 = any)
 * @flags:	%HM_SEL_F_*: what the source does with a match
 * @sport:	source port, network order, compared under @sport_mask
 * @sport_mask:	network order; 0 = any port
 * @dport:	destination port, network order, under @dport_mask
 * @dport_mask:	network order; 0 = any port
 * @saddr:	source prefix, network order (octets past @src_plen are 0)
 * @daddr:	destination prefix, the same way
 */
struct hm_sel_rule {
	__u8	family;
	__u8	proto;
	__u8	src_plen;
	__u8	dst_plen;
	__u32	flags;
	__be16	sport;
	__be16	sport_mask;
	__be16	dport;
	__be16	dport_mask;
	__u8	saddr[16];
	__u8	daddr[16];
};

#define HM_SEL_F_SYNTHETIC	(1U << 0)	/* synthetic traffic: INT's D bit */

/* Sampling modes of struct hm_sel_cfg. */
#define HM_SAMPLE_ALL		0	/* every matching packet */
#define HM_SAMPLE_PACKET	1	/* each packet with probability 1/N */
#define HM_SAMPLE_FLOW		2	/* the flows whose hash is 0 mod N, all their packets */

/**
 * struct hm_sel_cfg - a source's selection
 * @nr_rules:	rules in use, 0..%HM_SEL_MAX_RULES; 0 = every packet matches
 * @sample:	%HM_SAMPLE_*
 * @sample_n:	N of 1:N (1 = every matching packet)
 * @seed:	flow hash seed, the same at every node of a domain
 * @rules:	the watchlist, first match wins
 */
struct hm_sel_cfg {
	__u32			nr_rules;
	__u32			sample;
	__u32			sample_n;
	__u32			seed;
	struct hm_sel_rule	rules[HM_SEL_MAX_RULES];
};

/* A prefix of @plen bits of @a equals that of @p (octets past it are 0 in @p). */
static inline int hm_sel_prefix(const __u8 *a, const __u8 *p, __u32 plen)
{
	__u32 i;

	for (i = 0; i < 16; i++) {
		__u32 bits = plen > i * 8 ? plen - i * 8 : 0;
		__u8 m = bits >= 8 ? 0xff : (__u8)(0xff00 >> bits);

		if ((a[i] & m) != p[i])
			return 0;
	}
	return 1;
}

/**
 * hm_sel_rule_match() - whether @k matches @r
 * @r:	rule
 * @k:	packet's flow key
 *
 * Return: 1 on a match, 0 otherwise.
 */
static inline int hm_sel_rule_match(const struct hm_sel_rule *r, const struct hm_flow_key *k)
{
	if (r->family && r->family != k->family)
		return 0;
	if (r->proto && r->proto != k->proto)
		return 0;
	if ((k->sport & r->sport_mask) != r->sport ||
	    (k->dport & r->dport_mask) != r->dport)
		return 0;
	return hm_sel_prefix(k->saddr, r->saddr, r->src_plen) &&
	       hm_sel_prefix(k->daddr, r->daddr, r->dst_plen);
}

/**
 * hm_sel_watch() - the first rule of the watchlist that @k matches
 * @c:	selection
 * @k:	packet's flow key
 *
 * Return: the rule's index, %HM_SEL_MAX_RULES when the watchlist is empty
 * (every packet is watched), -1 when no rule matches.
 */
static inline int hm_sel_watch(const struct hm_sel_cfg *c, const struct hm_flow_key *k)
{
	__u32 i;

	if (!c->nr_rules)
		return HM_SEL_MAX_RULES;
	for (i = 0; i < HM_SEL_MAX_RULES; i++) {
		if (i >= c->nr_rules)
			break;
		if (hm_sel_rule_match(&c->rules[i], k))
			return (int)i;
	}
	return -1;
}

static inline __u32 hm_sel_mix(__u32 h, __u32 w)
{
	h ^= w;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	return h ^ (h >> 16);
}

/**
 * hm_flow_hash() - hash of a flow key, the same at every node and in userspace
 * @k:		flow key
 * @seed:	domain seed
 *
 * Direction-sensitive (the reverse flow hashes differently).
 *
 * Return: 32-bit hash.
 */
static inline __u32 hm_flow_hash(const struct hm_flow_key *k, __u32 seed)
{
	__u32 h = seed, i, w;

	h = hm_sel_mix(h, (__u32)k->family << 24 | (__u32)k->proto << 16);
	h = hm_sel_mix(h, (__u32)k->sport << 16 | k->dport);
	for (i = 0; i < 16; i += 4) {
		w = (__u32)k->saddr[i] << 24 | (__u32)k->saddr[i + 1] << 16 |
		    (__u32)k->saddr[i + 2] << 8 | k->saddr[i + 3];
		h = hm_sel_mix(h, w);
		w = (__u32)k->daddr[i] << 24 | (__u32)k->daddr[i + 1] << 16 |
		    (__u32)k->daddr[i + 2] << 8 | k->daddr[i + 3];
		h = hm_sel_mix(h, w);
	}
	return h;
}

/**
 * hm_sel_sampled() - whether a watched packet is sampled
 * @c:		selection
 * @k:		packet's flow key (%HM_SAMPLE_FLOW)
 * @rnd:	a uniform random 32-bit value (%HM_SAMPLE_PACKET; BPF passes
 *		bpf_get_prandom_u32())
 *
 * Return: 1 when the packet is to be instrumented.
 */
static inline int hm_sel_sampled(const struct hm_sel_cfg *c, const struct hm_flow_key *k, __u32 rnd)
{
	if (c->sample == HM_SAMPLE_ALL || c->sample_n <= 1)
		return 1;
	if (c->sample == HM_SAMPLE_PACKET)
		return rnd % c->sample_n == 0;
	return hm_flow_hash(k, c->seed) % c->sample_n == 0;
}

#endif /* __HOPMARK_SELECT_H */
