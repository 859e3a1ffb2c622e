/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_maps.h - the PINT datapath's contract: pinned map layouts, the
 * per-interface roles, counters, the sink's ring buffer record, the wire
 * format of the IPv6 option, and the two definitions every node and the
 * sink must compute identically: the packet ID and the latency sampling
 * hash. Shared by bpf/pint.bpf.c, lib/pint/pint_sink.c, the CLI, the agent and
 * the tests. See Documentation/pint-datapath.rst.
 *
 * Maps are pinned by name next to the IOAM ones, <bpffs>/tc/globals/
 * (lib/common/hopmark_maps.h); PINT reads hopmark_node (the switch ID it encodes
 * is hopmark_node.node_id) and hopmark_qdepth (egress backlog) from there.
 *
 * Header-only and libc-free above "userspace"; safe to include from BPF.
 * Values are in host byte order unless a field says otherwise.
 */
#ifndef __HOPMARK_PINT_MAPS_H
#define __HOPMARK_PINT_MAPS_H

#include <linux/types.h>
#include "common/hopmark_maps.h"
#include "pint/pint_hash.h"
#include "pint/pint_path.h"
#include "pint/pint_query.h"
#include "pint/pint_latency.h"
#include "pint/pint_util.h"

/* Map names (also the pin file names). */
#define PINT_MAP_CFG		"pint_cfg"
#define PINT_MAP_IFCFG		"pint_ifcfg"
#define PINT_MAP_STATS		"pint_stats"
#define PINT_MAP_EVENTS		"pint_events"
#define PINT_MAP_TXRATE		"pint_txrate"

/*
 * pint_ifcfg, pint_stats and pint_txrate are arrays indexed by ifindex (one
 * lookup is an address computation, no hash): an interface takes part in
 * PINT only if its ifindex is below PINT_IFINDEX_LIMIT. `hopmark pint
 * enable` refuses one at or above it, naming both; the programs find no
 * entry for it, so its packets are not ours (forwarded unchanged, not
 * counted). An entry whose flags are 0 is an interface without a role.
 * The bound is the IOAM maps' (HM_MAX_IFINDEX): one limit for a node.
 */
#define PINT_IFINDEX_LIMIT	HM_MAX_IFINDEX
#define PINT_EVENTS_BYTES	(256 * 1024)
/*
 * The sink wakes its reader once per this many bytes of records that wait
 * (the record that makes the waiting bytes cross a multiple of it), and
 * the reader polls with a timeout: records reach userspace in batches.
 */
#define PINT_EVENTS_WAKEUP_SHIFT 14
#define PINT_EVENTS_WAKEUP_BYTES (1U << PINT_EVENTS_WAKEUP_SHIFT)

/* Most bits a digest takes on the wire: the IPv4 Identification field. */
#define PINT_WIRE_BITS		16
/* Hop numbers run 1 .. PINT_MAX_HOPS, the decoder's limit. */
#define PINT_MAX_HOPS		64	/* = PINT_DECODE_MAX_HOPS */

/*
 * IPv6 carriage: a Hop-by-Hop header of exactly 8 octets holding one
 * option of RFC 4727's experimental type 0x3E (binary 001 11110: act 00 =
 * skip when unknown, chg 1 = data changes en route, RFC 8200 §4.2):
 *
 *	0: Next Header   1: Hdr Ext Len = 0   2: Option Type = 0x3E
 *	3: Opt Data Len = 4   4-5: digest (network order, low bits used)
 *	6: hop count (PINT nodes crossed so far)   7: reserved, 0
 */
#define PINT_IP6_OPT_TYPE	0x3e
#define PINT_IP6_OPT_DATA_LEN	4
#define PINT_IP6_HBH_LEN	8

/* Room for a scheme's parameters, NUL included ("tau=0.25,p=0.125"). */
#define PINT_SCHEME_ARGS_MAX	48

/**
 * struct pint_domain_cfg - a PINT domain's settings (pint_cfg[0])
 * @flags:		%PINT_DOM_F_CONFIGURED once `hopmark pint set` or a
 *			query was written; the datapath does nothing before
 * @hop_limit_start:	IPv4 TTL the source gives every PINT packet; a
 *			node's hop number is @hop_limit_start - TTL seen at
 *			its egress (1 at the first router)
 * @q_path:		index of the path query in @plan, %PINT_QUERY_NONE
 * @q_lat:		index of the latency query, %PINT_QUERY_NONE
 * @q_util:		index of the utilisation query, %PINT_QUERY_NONE
 * @id_min:		smallest switch ID of the domain (decoder universe)
 * @id_max:		largest switch ID of the domain
 * @base_rtt_ns:	HPCC's base RTT T, ns (bandwidth-delay product term)
 * @lat_min_ns:		smallest latency of the scale (R_0), ns
 * @lat_max_ns:		largest latency of the scale, ns
 * @weight:		per query kind (path, latency, util), its weight in the
 *			query engine, in 1/1000 (userspace only)
 * @path_scheme:	%PINT_SCHEME_* the path scheme was built from
 * @path_d:		the path length the scheme is tuned for, hops
 * @path_inst:		independent digests the path field is split into
 *			(0 or 1: one; 2: e.g. 2x8 for a 16-bit query)
 * @pad2:		zero
 * @path_scheme_args:	the scheme's parameters as pint_path_scheme() takes
 *			them after "NAME:" ("tau=0.5,p=0.2"), NUL-terminated;
 *			empty for the scheme's defaults (userspace only)
 * @plan:		query plan (budget <= %PINT_WIRE_BITS)
 * @path:		path-tracing scheme; pint_path_width() = the path
 *			query's bits (bits = query bits / @path_inst)
 * @lat:		latency encoder table; bits = the latency query's bits
 *
 * Identical at every node and the sink of a domain: the CLI writes the
 * same command on each node.
 */
struct pint_domain_cfg {
	__u32			flags;
	__u8			hop_limit_start;
	__u8			q_path;
	__u8			q_lat;
	__u8			q_util;
	__u32			id_min;
	__u32			id_max;
	__u64			base_rtt_ns;
	__u64			lat_min_ns;
	__u64			lat_max_ns;
	__u32			weight[3];
	__u8			path_scheme;
	__u8			path_d;
	__u8			path_inst;
	__u8			pad2;
	char			path_scheme_args[PINT_SCHEME_ARGS_MAX];
	struct pint_query_plan	plan;
	struct pint_path_params	path;
	struct pint_lat_enc	lat;
};
#define PINT_DOM_F_CONFIGURED	(1U << 0)
#define PINT_DOM_F_FULL_ID	(1U << 1)	/* path digests carry the switch ID */

/* Path schemes (pint_path_scheme() names, pint_scheme_name()). */
#define PINT_SCHEME_HYBRID	0	/* the paper's Baseline + XOR interleaving */
#define PINT_SCHEME_BASELINE	1
#define PINT_SCHEME_XOR		2
#define PINT_SCHEME_LADDER5	3	/* hopmark's older five-layer mixture */
#define PINT_SCHEME_MULTILAYER	4	/* the paper's multi-layer form */
#define PINT_SCHEME_MAX		5

/**
 * struct pint_if_cfg - PINT role of an interface (pint_ifcfg[ifindex])
 * @flags:	%PINT_IF_F_*; 0: no role (the array's entry of every other
 *		interface)
 * @pad:	zero
 * @rate_bps:	link capacity in bits/s, for the latency estimate and HPCC's
 *		U (0: unknown; latency and utilisation then write 0)
 */
struct pint_if_cfg {
	__u32	flags;
	__u32	pad;
	__u64	rate_bps;
};
#define PINT_IF_F_SOURCE	(1U << 0)	/* tc ingress: start the digest */
#define PINT_IF_F_TRANSIT	(1U << 1)	/* tc egress: this node's hop */
#define PINT_IF_F_SINK		(1U << 2)	/* tc ingress: report and remove */

/**
 * struct pint_txrate - bytes sent on an egress interface (pint_txrate[ifindex])
 * @win_start_ns:	CLOCK_MONOTONIC start of the current window
 * @win_bytes:		bytes seen at tc egress in the current window
 * @last_bytes:		bytes of the last complete window
 * @last_ns:		length of the last complete window, ns
 *
 * The window is the domain's base RTT (at least 100 us); the rate term of
 * U is last_bytes over what the link carries in last_ns. @win_start_ns 0:
 * no window yet (the array's initial entry, or zeroed by the CLI or the
 * prune of a deleted interface); the first packet starts one. Updated
 * without locks: a race between CPUs at a window's end loses a few bytes.
 */
struct pint_txrate {
	__u64	win_start_ns;
	__u64	win_bytes;
	__u64	last_bytes;
	__u64	last_ns;
};
#define PINT_TX_WIN_MIN_NS	100000ULL

/**
 * enum pint_counter - counted datapath actions (pint_stats[ifindex], per CPU)
 */
enum pint_counter {
	PINT_CNT_SRC_OK,		/* digest started (ID zeroed / option inserted) */
	PINT_CNT_SRC_TTL_SET,		/* source changed the IPv4 TTL to the start value */
	PINT_CNT_TRANSIT_OK,		/* this hop's queries applied */
	PINT_CNT_SINK_OK,		/* reported and removed */
	PINT_CNT_NO_DF,			/* IPv4 without DF: left alone */
	PINT_CNT_FRAGMENT,		/* IPv4/IPv6 fragment: left alone */
	PINT_CNT_NO_OPTION,		/* IPv6 without the PINT option: left alone */
	PINT_CNT_HBH_PRESENT,		/* source: IPv6 already has Hop-by-Hop: left alone */
	PINT_CNT_MTU,			/* source: option would exceed the MTU: left alone */
	PINT_CNT_HOP_RANGE,		/* hop number 0 or > PINT_MAX_HOPS: left alone */
	PINT_CNT_LAT_UNAVAIL,		/* sampled for latency, no fresh queue reading: 0 */
	PINT_CNT_ERR,			/* helper failed: packet unchanged */
	PINT_CNT_EVENTS_LOST,		/* ring buffer full: record lost */
	PINT_CNT_NOT_CONFIGURED,	/* role enabled but no domain settings */
	PINT_CNT_MAX,
};

/**
 * struct pint_link_stats - PINT counters of one interface, per CPU
 * @cnt:	packets, indexed by enum pint_counter
 */
struct pint_link_stats {
	__u64	cnt[PINT_CNT_MAX];
};

/**
 * struct pint_record - what the sink reports per packet (pint_events)
 * @rx_ns:	CLOCK_MONOTONIC ns at the sink
 * @pid:	the packet ID (pint_pid_*())
 * @digest:	the digest as received (global budget bits)
 * @ifindex:	sink interface
 * @hops:	PINT hops the packet crossed
 * @family:	4 or 6
 * @proto:	upper-layer protocol
 * @qset:	index of the packet's query subset (pint_query_select())
 * @sport:	TCP/UDP source port, ICMP echo identifier, else 0 (host order)
 * @dport:	TCP/UDP destination port, else 0 (host order)
 * @saddr:	source address, network order (IPv4: first 4 octets)
 * @daddr:	destination address, network order
 */
struct pint_record {
	__u64	rx_ns;
	__u32	pid;
	__u32	digest;
	__u32	ifindex;
	__u8	hops;
	__u8	family;
	__u8	proto;
	__u8	qset;
	__u16	sport;
	__u16	dport;
	__u8	saddr[16];
	__u8	daddr[16];
};

/*
 * Packet ID: a hash of header fields that no node of the domain changes,
 * the same at every node and the sink (pint.bpf.c, pint_sink.c, tests):
 *
 *   IPv4  words  saddr, daddr, proto << 16 | Total Length, then U[0..4]
 *   IPv6  words  saddr (4), daddr (4), nh << 16 | len, Flow Label, then
 *                U[0..4], then 0 (to an even count)
 *
 * where U[i] is octets 4i..4i+3 of the 20 octets after the IP header
 * (IPv4: after IHL * 4; IPv6: after the PINT Hop-by-Hop header, whose
 * length is left out of len, and nh is that header's Next Header), each a
 * little-endian word; if fewer than 20 octets follow, only the first 8
 * are used (the rest 0), if fewer than 8, none. Addresses are words of
 * their network-order octets read little-endian as well. The words are
 * folded two at a time: h = pint_hash32(h, w_2i, w_2i+1), h starting at
 * PINT_PID_SEED. TTL/Hop Limit, the IPv4 Identification and checksum are
 * not in it (they change on the way).
 */
#define PINT_PID_SEED		0x50494e54U	/* "PINT" */
#define PINT_PID_L4_LEN		20
#define PINT_PID_L4_SHORT	8

/*
 * The packet-ID functions are inlined everywhere: in BPF, where clang would
 * otherwise make pint_pid_v4() a function of its own, the callers' buffers
 * are then known to be word-aligned and pint_le32() becomes one load.
 */
#define PINT_PID_INLINE	inline __attribute__((always_inline))

/*
 * pint_le32() - octets @p[0..3] as a little-endian word: on a little-endian
 * target the word as it lies (one load where the alignment is known, BPF
 * included), else assembled octet by octet. The same value either way.
 */
static PINT_PID_INLINE __u32 pint_le32(const __u8 *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	__u32 w;

	__builtin_memcpy(&w, p, sizeof(w));
	return w;
#else
	return (__u32)p[0] | (__u32)p[1] << 8 | (__u32)p[2] << 16 | (__u32)p[3] << 24;
#endif
}

/**
 * pint_pid_l4() - fold the upper-layer words into a packet-ID hash
 * @h:		hash so far
 * @l4:		PINT_PID_L4_LEN octets, those not present zeroed
 * @extra:	a sixth word (0 for IPv6's padding, last word of IPv4's run)
 *
 * Return: the hash after U[0..4] and @extra.
 */
static PINT_PID_INLINE __u32 pint_pid_l4(__u32 h, const __u8 *l4, __u32 extra)
{
	h = pint_hash32(h, pint_le32(l4), pint_le32(l4 + 4));
	h = pint_hash32(h, pint_le32(l4 + 8), pint_le32(l4 + 12));
	return pint_hash32(h, pint_le32(l4 + 16), extra);
}

/**
 * pint_pid_v4() - packet ID of an IPv4 packet
 * @saddr:	source address, 4 octets as on the wire
 * @daddr:	destination address, 4 octets as on the wire
 * @proto:	Protocol field
 * @tot_len:	Total Length, host order
 * @l4:		PINT_PID_L4_LEN octets after the header (see above)
 *
 * Return: the 32-bit packet ID.
 */
static PINT_PID_INLINE __u32 pint_pid_v4(const __u8 *saddr, const __u8 *daddr, __u8 proto,
				__u16 tot_len, const __u8 *l4)
{
	__u32 h = pint_hash32(PINT_PID_SEED, pint_le32(saddr), pint_le32(daddr));

	h = pint_hash32(h, (__u32)proto << 16 | tot_len, pint_le32(l4));
	h = pint_hash32(h, pint_le32(l4 + 4), pint_le32(l4 + 8));
	return pint_hash32(h, pint_le32(l4 + 12), pint_le32(l4 + 16));
}

/**
 * pint_pid_v6() - packet ID of an IPv6 packet
 * @saddr:	source address, 16 octets
 * @daddr:	destination address, 16 octets
 * @nh:		Next Header after the PINT Hop-by-Hop header (or the IPv6
 *		header's, before the source inserts it)
 * @len:	Payload Length without the PINT Hop-by-Hop header, host order
 * @flow:	Flow Label, 20 bits
 * @l4:		PINT_PID_L4_LEN octets after the PINT header (see above)
 *
 * Return: the 32-bit packet ID.
 */
static PINT_PID_INLINE __u32 pint_pid_v6(const __u8 *saddr, const __u8 *daddr, __u8 nh,
				__u16 len, __u32 flow, const __u8 *l4)
{
	__u32 h = PINT_PID_SEED;

	h = pint_hash32(h, pint_le32(saddr), pint_le32(saddr + 4));
	h = pint_hash32(h, pint_le32(saddr + 8), pint_le32(saddr + 12));
	h = pint_hash32(h, pint_le32(daddr), pint_le32(daddr + 4));
	h = pint_hash32(h, pint_le32(daddr + 8), pint_le32(daddr + 12));
	h = pint_hash32(h, (__u32)nh << 16 | len, flow);
	return pint_pid_l4(h, l4, 0);
}

/*
 * Latency sampling: one hop per packet writes its latency, chosen by
 * reservoir sampling (hop i overwrites with probability 1/i, PINT §4.2),
 * with an act hash of its own so that it is independent of the path
 * layer's: g_lat(pid, hop) = pint_hash32(seed.act ^ PINT_LAT_ACT_SALT,
 * pid, hop). The sink takes the last hop that acts as the writer. The
 * same hash value is the randomized-rounding coin of pint_lat_compress().
 */
#define PINT_LAT_ACT_SALT	0x4c415431U	/* "LAT1" */

static inline __u32 pint_lat_act_hash(const struct pint_seeds *s, __u32 pid, __u32 hop)
{
	return pint_hash32(s->act ^ PINT_LAT_ACT_SALT, pid, hop);
}

/**
 * pint_lat_writer() - which hop wrote the latency field of a packet
 * @s:		domain seeds
 * @pid:	packet ID
 * @hops:	hop count at the sink
 *
 * Return: the last hop i in 1..@hops with g_lat(pid, i) <= 2^32/i - 1
 * (hop 1 always acts), 0 when @hops is 0.
 */
static inline __u32 pint_lat_writer(const struct pint_seeds *s, __u32 pid, __u32 hops)
{
	__u32 i, w = 0;

	for (i = 1; i <= PINT_MAX_HOPS; i++) {
		if (i > hops)
			break;
		if (pint_lat_act_hash(s, pid, i) <= pint_prob_thresh_baseline(i))
			w = i;
	}
	return w;
}

/**
 * pint_util_field() - the utilisation code in a field of @bits bits
 * @code8:	8-bit code of pint_util_encode()
 * @bits:	field width, 1..8
 *
 * The top @bits bits of the code: still monotone, so max along the path
 * keeps working. pint_util_field_code8() maps it back (lower bound).
 */
static inline __u32 pint_util_field(__u32 code8, __u32 bits)
{
	return bits >= 8 ? code8 : code8 >> (8 - bits);
}

static inline __u32 pint_util_field_code8(__u32 field, __u32 bits)
{
	return bits >= 8 ? field : field << (8 - bits);
}

#endif /* __HOPMARK_PINT_MAPS_H */
