/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hopmark_maps.h - datapath configuration, counters and sink records shared
 * by the BPF programs (bpf/) and every userspace part (lib/, iproute2-ext/,
 * agent/, selftests/). Defined once here, the way xdp-tools keeps its
 * common_kern_user.h.
 *
 * All maps are pinned by name (LIBBPF_PIN_BY_NAME) in the pin directory of
 * stock iproute2: <bpffs>/tc/globals/<map name>, where <bpffs> is
 * $TC_BPF_MNT when set (the variable iproute2 honours) and /sys/fs/bpf
 * otherwise. One node = one bpffs instance: several nodes simulated on one
 * host each mount their own bpffs and point TC_BPF_MNT at it, so no node
 * reads another's settings (see Documentation/datapath.rst).
 *
 * Unless a field says otherwise, values are in host byte order.
 */
#ifndef __HOPMARK_MAPS_H
#define __HOPMARK_MAPS_H

#include <linux/types.h>

#define HM_PIN_SUBDIR		"tc/globals"
#define HM_BPFFS_DEFAULT	"/sys/fs/bpf"
#define HM_BPFFS_ENV		"TC_BPF_MNT"

/* Map names (also the pin file names). */
#define HM_MAP_NODE		"hopmark_node"
#define HM_MAP_IFCFG		"hopmark_ifcfg"
#define HM_MAP_NS		"hopmark_ns"
#define HM_MAP_ENCAP		"hopmark_encap"
#define HM_MAP_ENCAP_FILTER	"hopmark_encap_filter"
#define HM_MAP_QDEPTH		"hopmark_qdepth"
#define HM_MAP_STATS		"hopmark_stats"
#define HM_MAP_EVENTS		"hopmark_events"

/*
 * hopmark_ifcfg, hopmark_qdepth and hopmark_stats are arrays indexed by
 * ifindex, so that one lookup of a few instructions returns an interface's
 * settings or counters (a hash lookup costs the datapath about 30 ns, an
 * array one about 1, Documentation/performance.rst): an interface whose
 * ifindex is HM_MAX_IFINDEX or more cannot be configured (the CLI refuses
 * it, naming the ifindex and this bound) and its packets are not ours
 * (forwarded unchanged, not counted). ifindexes are allocated per network
 * namespace from 1 up, so the bound is reached only where interfaces have
 * come and gone a thousand times in one namespace.
 */
#define HM_MAX_IFINDEX		1024
/*
 * hopmark_ns is an array indexed by the 16-bit IOAM-Namespace ID, 0..65534
 * (0xffff is reserved for "unavailable", as ip ioam does): 1 MiB, one
 * lookup per packet. An index without %HM_NS_F_KNOWN is an unknown
 * IOAM-Namespace.
 */
#define HM_NS_ID_MAX		0xfffe
#define HM_MAX_NAMESPACES	(HM_NS_ID_MAX + 1)
#define HM_MAX_ENCAP_ROUTES	256
/*
 * hopmark_events' size, bytes, as compiled into the objects: 16 MiB hold
 * 51150 records of 328 bytes (header included): 100 ms of 300k records/s
 * with room to spare (Documentation/agent.rst, "Ring buffer"). The size
 * is set when the map is created: $HOPMARK_EVENTS_BYTES (a power of two,
 * 4 KiB to 1 GiB) at hm_maps_create(), and every hopmark loader then
 * takes the pinned map's size; stock ip/tc reuse the pin only at the size
 * compiled in.
 */
#define HM_EVENTS_BYTES		(16 * 1024 * 1024)
#define HM_EVENTS_BYTES_ENV	"HOPMARK_EVENTS_BYTES"
#define HM_EVENTS_BYTES_MIN	4096U
#define HM_EVENTS_BYTES_MAX	(1024U * 1024 * 1024)
/*
 * The sink wakes the agent once per 2^HM_EVENTS_WAKEUP_SHIFT bytes of
 * records that wait in hopmark_events (each record that makes the waiting
 * bytes cross a multiple of it); the agent polls for what is left below.
 * 32 KiB: about 100 records of 328 bytes (header included) per wakeup.
 */
#define HM_EVENTS_WAKEUP_SHIFT	15
#define HM_EVENTS_WAKEUP_BYTES	(1U << HM_EVENTS_WAKEUP_SHIFT)

/**
 * struct hopmark_node_cfg - this node's identity (value of hopmark_node[0])
 * @flags:		%HM_NODE_F_*
 * @node_id:		short node_id, 24 bits (RFC 9197 §4.4.2.1)
 * @node_id_wide:	wide node_id, 56 bits (RFC 9197 §4.4.2.9)
 * @tai_offset_ns:	CLOCK_TAI - CLOCK_REALTIME in ns, set from adjtimex(2)
 *			by whoever configures the node; BPF reads CLOCK_TAI and
 *			subtracts it so timestamps are POSIX time like Linux's
 * @qdepth_max_age_ns:	a hopmark_qdepth entry older than this (ns of
 *			CLOCK_MONOTONIC) is not used: queue depth and buffer
 *			occupancy are then written as unavailable
 *
 * Without %HM_NODE_F_ID the node writes the unavailable node IDs
 * (0xffffff, 0xffffffffffffff), as Linux does before net.ipv6.ioam6_id is set.
 */
struct hopmark_node_cfg {
	__u32	flags;
	__u32	node_id;
	__u64	node_id_wide;
	__s64	tai_offset_ns;
	__u64	qdepth_max_age_ns;
};
#define HM_NODE_F_ID		(1U << 0)
#define HM_NODE_F_ID_WIDE	(1U << 1)

/**
 * struct hopmark_if_cfg - per-interface settings (hopmark_ifcfg[ifindex])
 * @flags:	%HM_IF_F_*
 * @if_id:	short interface ID (RFC 9197 §4.4.2.2), default 0xffff
 * @if_id_wide:	wide interface ID (RFC 9197 §4.4.2.10), default 0xffffffff
 *
 * hopmark_ifcfg is an array (every index exists): an entry without
 * %HM_IF_F_PRESENT is "no entry", hopmark is off on the interface and its
 * IDs are unavailable whatever the other fields hold; removing an
 * interface's settings writes zeros. %HM_IF_F_TRANSIT is the counterpart
 * of Linux's ioam6_enabled sysctl: IOAM data arriving on the interface is
 * processed; without it the packet is left untouched. %HM_IF_F_ENCAP is
 * set while a hopmark_encap rule sends packets out of the interface
 * (`hopmark ioam encap add ... dev DEV` sets it, the deletion of DEV's
 * last rule clears it): hm_encap leaves the packets of an interface
 * without it before the rule lookup, so a rule with @ifindex 0 ("any")
 * applies on the interfaces that have the flag.
 */
struct hopmark_if_cfg {
	__u16	flags;
	__u16	if_id;
	__u32	if_id_wide;
};
#define HM_IF_F_TRANSIT		(1U << 0)	/* process IOAM arriving here */
#define HM_IF_F_DECAP		(1U << 1)	/* decapsulate and report here */
#define HM_IF_F_ENCAP		(1U << 2)	/* encap rules send packets out here */
#define HM_IF_F_PRESENT		(1U << 15)	/* the entry is set (see above) */

/**
 * struct hopmark_ns_cfg - a known IOAM-Namespace (hopmark_ns[namespace id])
 * @flags:	%HM_NS_F_KNOWN for a configured IOAM-Namespace, and
 *		%HM_NS_F_DATA / %HM_NS_F_DATA_WIDE when the data is set
 * @data:	namespace specific data, short (RFC 9197 §4.4.2.6)
 * @data_wide:	namespace specific data, wide (RFC 9197 §4.4.2.11)
 *
 * The key is the 16-bit IOAM-Namespace in host order, widened to __u32,
 * the index of an array of %HM_MAX_NAMESPACES entries: an entry without
 * %HM_NS_F_KNOWN is an unknown IOAM-Namespace (deleting one writes zeros).
 * A transit node leaves traces of unknown namespaces untouched (counted).
 */
struct hopmark_ns_cfg {
	__u32	flags;
	__u32	data;
	__u64	data_wide;
};
#define HM_NS_F_DATA		(1U << 0)
#define HM_NS_F_DATA_WIDE	(1U << 1)
#define HM_NS_F_KNOWN		(1U << 31)

/**
 * struct hopmark_encap_key - LPM key of hopmark_encap: destination prefix
 * @prefixlen:	prefix length in bits (0..128)
 * @addr:	IPv6 destination prefix, network byte order
 */
struct hopmark_encap_key {
	__u32	prefixlen;
	__u8	addr[16];
};

/**
 * struct hopmark_encap_cfg - one encapsulation rule (hopmark_encap value)
 * @ifindex:	egress interface the rule applies to (0: any)
 * @ns_id:	IOAM-Namespace written in the trace header
 * @size:	pre-allocated data area in bytes, a multiple of 4, at most
 *		%HM_IOAM_TRACE_DATA_MAX; the encapsulating node writes its own
 *		node data into it when there is room
 * @pad:	zero
 * @trace_type:	24-bit IOAM-Trace-Type, host order (bit 0 = 0x800000)
 * @freq_k:	encapsulate @freq_k packets of every @freq_n (like ip ioam's
 *		freq K/N); 1/1 encapsulates every packet
 * @freq_n:	see @freq_k
 * @counter:	packets seen by the rule, updated atomically by the datapath
 */
struct hopmark_encap_cfg {
	__u32	ifindex;
	__u16	ns_id;
	__u8	size;
	__u8	pad;
	__u32	trace_type;
	__u32	freq_k;
	__u32	freq_n;
	__u32	pad2;
	__u64	counter;
};

/*
 * hopmark_encap_filter: one bit per hash of a destination prefix, so that
 * hm_encap leaves a packet no rule can match after one inlined array
 * lookup instead of the longest-prefix lookup in hopmark_encap (about
 * 30 ns, Documentation/performance.rst). 2^16 bits, 8 KiB; prefixes are
 * hashed on their first %HM_ENCAP_FILTER_PLEN_MAX bits at most.
 */
#define HM_ENCAP_FILTER_BITS_LOG	16
#define HM_ENCAP_FILTER_WORDS		((1U << HM_ENCAP_FILTER_BITS_LOG) / 64)
#define HM_ENCAP_FILTER_PLEN_MAX	64
#define HM_ENCAP_FILTER_F_VALID		(1U << 0)

/**
 * struct hopmark_encap_filter - first test before the rule lookup
 *				 (value of hopmark_encap_filter[0])
 * @flags:	%HM_ENCAP_FILTER_F_VALID when the bits below describe every
 *		rule of hopmark_encap; without it (zeros: the map as created,
 *		or rules written by stock tools) hm_encap asks hopmark_encap
 *		for every packet, as before the filter
 * @prefixlen:	L, the shortest prefix length of the rules, at most
 *		%HM_ENCAP_FILTER_PLEN_MAX (any value when there is no rule)
 * @bits:	bit hm_encap_filter_bit(rule, L) set for every rule, bit b in
 *		@bits[b / 64] at (1 << b % 64); nothing else
 *
 * Every rule is at least L bits long, so a destination a rule matches has
 * the rule's first L bits and hashes to the rule's bit: a clear bit means
 * that no rule matches, a set one that hopmark_encap is asked (the rules
 * of other interfaces, other prefixes with the same L bits and hash
 * collisions set bits too). A /0 rule makes L 0: every destination then
 * hashes to one set bit, and every packet is looked up.
 *
 * Maintained by libhopmark, hm_encap_filter_sync(), which recomputes it
 * from all rules after each change that `hopmark ioam encap` makes; a
 * rule written into hopmark_encap by other means is not in it: whoever
 * does that writes zeros here first (Documentation/datapath.rst).
 */
struct hopmark_encap_filter {
	__u32	flags;
	__u32	prefixlen;
	__u64	bits[HM_ENCAP_FILTER_WORDS];
};

/**
 * hm_encap_filter_bit() - the bit of hopmark_encap_filter for an address
 * @addr_hi:	the address's (or prefix's) first 64 bits, host order
 *		(bytes 0-7 of the network-order address, big endian)
 * @prefixlen:	L of struct hopmark_encap_filter, 0..%HM_ENCAP_FILTER_PLEN_MAX
 *
 * Multiplicative (Fibonacci) hashing of the first @prefixlen bits: the
 * top %HM_ENCAP_FILTER_BITS_LOG bits of their product with 2^64 / phi.
 * For @prefixlen up to 16 distinct prefixes get distinct bits. The BPF
 * program and libhopmark compute it with this one definition.
 *
 * Return: the bit index, below 2^%HM_ENCAP_FILTER_BITS_LOG.
 */
static inline __attribute__((always_inline)) __u32 hm_encap_filter_bit(__u64 addr_hi,
								       __u32 prefixlen)
{
	__u64 m = prefixlen ? addr_hi & (~0ULL << (64 - prefixlen)) : 0;

	return (m * 0x9e3779b97f4a7c15ULL) >> (64 - HM_ENCAP_FILTER_BITS_LOG);
}

/**
 * struct hopmark_qdepth - queue state of an interface (hopmark_qdepth[ifindex])
 * @backlog_bytes:	qdisc backlog in bytes (root qdisc, as Linux's IOAM
 *			reports queue depth, RFC 9197 §4.4.2.7)
 * @qlen:		qdisc queue length in packets
 * @node_backlog_bytes:	sum of @backlog_bytes over every interface of the
 *			node in the same reading: buffer occupancy
 *			(RFC 9197 §4.4.2.12)
 * @node_qlen:		sum of @qlen over every interface, same reading
 * @updated_ns:		CLOCK_MONOTONIC ns of the reading
 *
 * Written by hopmarkd from rtnetlink qdisc statistics (libmnl) every
 * --qdepth-interval, all entries of one reading with the same @updated_ns.
 * Each entry carries the node totals of its own reading, so a packet's
 * queue depth and buffer occupancy, taken from one entry at egress, are
 * always one snapshot (buffer occupancy >= queue depth). Key 0 holds the
 * node totals alone (@backlog_bytes == @node_backlog_bytes), for hooks
 * that do not know the egress interface (XDP at ingress). An array of
 * %HM_MAX_IFINDEX entries: @updated_ns 0 is no reading (an interface
 * without a queue, or gone: the agent writes zeros).
 */
struct hopmark_qdepth {
	__u32	backlog_bytes;
	__u32	qlen;
	__u32	node_backlog_bytes;
	__u32	node_qlen;
	__u64	updated_ns;
};

/**
 * enum hopmark_counter - counted datapath actions (hopmark_stats)
 *
 * hopmark_stats is a per-CPU array indexed by ifindex (__u32, below
 * %HM_MAX_IFINDEX) whose value is struct hopmark_link_stats; `hopmark link
 * show -s` sums the CPUs. An interface's counters are zeroed when the
 * interface is gone (hm_prune_gone_ifaces()).
 * Names for display are in hopmark_counter_names[] (lib/common/stats_names.c).
 */
enum hopmark_counter {
	HM_CNT_ENCAP_OK,		/* trace inserted */
	HM_CNT_ENCAP_SKIP_MTU,		/* would exceed egress MTU: sent without */
	HM_CNT_ENCAP_SKIP_FREQ,		/* not selected by freq K/N */
	HM_CNT_ENCAP_ERR,		/* could not insert (e.g. GSO type): sent unchanged */
	HM_CNT_ENCAP_HBH_MERGED,	/* trace added to an existing Hop-by-Hop header */
	HM_CNT_TRANSIT_OK,		/* node data written (ingress half) */
	HM_CNT_TRANSIT_EGRESS_OK,	/* egress fields completed (egress half) */
	HM_CNT_TRANSIT_OVERFLOW,	/* no room: Overflow flag set, nothing written */
	HM_CNT_TRANSIT_OVERFLOW_SEEN,	/* Overflow flag already set: untouched */
	HM_CNT_UNKNOWN_NS,		/* IOAM-Namespace not configured: untouched */
	HM_CNT_MALFORMED,		/* bad lengths or inconsistent trace: untouched */
	HM_CNT_FRAGMENT,		/* IPv6 fragment with IOAM: untouched */
	HM_CNT_DECAP_OK,		/* trace removed and reported */
	HM_CNT_DECAP_ERR,		/* could not remove: delivered unchanged */
	HM_CNT_EVENTS_LOST,		/* ring buffer full: record not reported */
	HM_CNT_HBH_WALK_LIMIT,		/* more Hop-by-Hop TLVs than walked: untouched */
	HM_CNT_ENCAP_SKIP_HBH_LIMIT,	/* merge past Linux's Hop-by-Hop limits: sent unchanged */
	HM_CNT_MAX,
};

/**
 * struct hopmark_link_stats - counters of one interface, per CPU
 * @cnt: packets, indexed by enum hopmark_counter
 */
struct hopmark_link_stats {
	__u64	cnt[HM_CNT_MAX];
};

#define HM_RECORD_OPT_MAX	256	/* bytes: 4 + 8 + HM_IOAM_TRACE_DATA_MAX */

/**
 * struct hopmark_ioam_record - what a sink reports for one traced packet
 * @rx_ns:		POSIX time in ns when the sink received the packet
 * @ifindex:		sink's ingress interface
 * @if_id:		its short IOAM interface ID
 * @opt_len:		bytes valid in @opt
 * @payload_len:	IPv6 payload length after decapsulation, bytes
 * @hop_limit:		IPv6 Hop Limit as received by the sink
 * @proto:		upper-layer protocol (after extension headers)
 * @flow_label:		IPv6 flow label (20 bits)
 * @sport:		TCP/UDP source port, 0 otherwise
 * @dport:		TCP/UDP destination port, 0 otherwise
 * @saddr:		IPv6 source address, network byte order
 * @daddr:		IPv6 destination address, network byte order
 * @opt:		the IOAM option as it arrived at the sink, from the IPv6
 *			option type octet (0x31) on: struct hm_ioam6_opt_hdr,
 *			struct hm_ioam6_trace_hdr, then the node data list
 *
 * Sent on the hopmark_events ring buffer; one record per packet.
 */
struct hopmark_ioam_record {
	__u64	rx_ns;
	__u32	ifindex;
	__u16	if_id;
	__u16	opt_len;
	__u16	payload_len;
	__u8	hop_limit;
	__u8	proto;
	__u32	flow_label;
	__u16	sport;
	__u16	dport;
	__u8	saddr[16];
	__u8	daddr[16];
	__u8	opt[HM_RECORD_OPT_MAX];
};

#endif /* __HOPMARK_MAPS_H */
