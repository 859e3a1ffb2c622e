/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pbt_maps.h - the PBT-M (marking-based postcards) datapath's contract:
 * pinned map names and layouts, per-interface roles, counters and the
 * postcard record the datapath hands to hopmarkd, which exports it as
 * IPFIX (lib/ipfix/). Shared by bpf/hopmark_pbt.bpf.c, the agent, the CLI
 * (`hopmark postcard`) and the tests. See Documentation/pbt.rst.
 *
 * PBT-M: a head node of the telemetry domain sets one bit in a header the
 * packet already has (no header is added); every PBT-M-aware node that
 * sees the bit sends a postcard about the packet out of band, at ingress,
 * at egress or at both; the end node of the domain clears the bit, so the
 * packet leaves the domain as it entered it.
 *
 * Like INT, PBT-M reads the node's identity (hopmark_node.node_id) and
 * queue state (hopmark_qdepth) from the IOAM maps: one source per value.
 * Maps are pinned by name next to the IOAM ones (<bpffs>/tc/globals/).
 *
 * Header-only and libc-free; safe to include from BPF. Host byte order
 * unless a field says otherwise.
 */
#ifndef __HOPMARK_PBT_MAPS_H
#define __HOPMARK_PBT_MAPS_H

#include <linux/types.h>
#include <linux/bpf.h>		/* struct bpf_spin_lock */
#include "common/hopmark_maps.h"	/* HM_MAX_IFINDEX */
#include "select/select.h"

/* Map names (also the pin file names). */
#define PBT_MAP_CFG		"pbt_cfg"	/* array[1]: struct pbt_domain_cfg */
#define PBT_MAP_IFCFG		"pbt_ifcfg"	/* array[ifindex] of struct pbt_if_cfg */
#define PBT_MAP_STATS		"pbt_stats"	/* per-CPU array[ifindex] of struct pbt_link_stats */
#define PBT_MAP_EVENTS		"pbt_events"	/* ring buffer of struct pbt_record */
#define PBT_MAP_FLOWS		"pbt_flows"	/* LRU hash hm_flow_key -> struct pbt_flow_state */
#define PBT_MAP_TEMPLATES	"pbt_tpl"	/* hash hm_flow_key -> struct pbt_flow_tpl */
#define PBT_MAP_METER		"pbt_meter"	/* array[1]: struct pbt_meter (token bucket) */
#define PBT_MAP_ARRIVAL		"pbt_arrival"	/* per-CPU array[1]: struct pbt_arrival */

/*
 * pbt_ifcfg and pbt_stats are arrays indexed by ifindex (a lookup is an
 * address computation, no hash): an interface takes part in PBT-M only if
 * its ifindex is below PBT_IFINDEX_LIMIT. `hopmark postcard enable`
 * refuses one at or above it, naming both; the programs find no entry for
 * it, so its packets are not ours (forwarded unchanged, not counted). An
 * all-zero struct pbt_if_cfg is an interface without a role; an all-zero
 * pbt_stats entry one with nothing counted. The bound is the IOAM maps'
 * (HM_MAX_IFINDEX): one limit for a node.
 */
#define PBT_IFINDEX_LIMIT	HM_MAX_IFINDEX
#define PBT_MAX_FLOWS		65536
#define PBT_MAX_TEMPLATES	1024
#define PBT_EVENTS_BYTES	(4 * 1024 * 1024)
/*
 * The datapath wakes hopmarkd once per 2^PBT_EVENTS_WAKEUP_SHIFT bytes of
 * postcards waiting in pbt_events (the record that makes the waiting
 * bytes cross a multiple of it forces the wakeup; the others are
 * submitted with BPF_RB_NO_WAKEUP); hopmarkd reads what is left below
 * that at least every HM_RING_POLL_MS (agent/hopmarkd.c). 256 KiB: about
 * 780 records of struct pbt_record (336 octets with its header) per
 * wakeup, 16 per ring of PBT_EVENTS_BYTES, instead of one wakeup per
 * postcard while the agent keeps up: a wakeup is an irq_work, whose
 * self-IPI costs about 3 us of the datapath's CPU in a VM (bench/bpf-cost
 * under perf: native_write_msr from bpf_ringbuf_submit), and a context
 * switch of the agent.
 */
#define PBT_EVENTS_WAKEUP_SHIFT	18
#define PBT_EVENTS_WAKEUP_BYTES	(1U << PBT_EVENTS_WAKEUP_SHIFT)

/*
 * How a packet is marked (one bit, configured per domain, per family).
 * IPv4: %PBT_V4_RSVD, the reserved flag bit of the Flags field (RFC 791,
 * 0x8000 of frag_off) is the default: it has no other use anywhere, so it
 * cannot collide with the domain's DSCP plan or with ECN, and Linux
 * forwards it unchanged. RFC 9341 discusses it, and the DSCP bits, for
 * Alternate Marking: a bit the domain also uses for Alternate Marking is
 * refused (struct pbt_domain_cfg.altmark_tos).
 * %PBT_V4_TOS: one configured bit of the DSCP field (never ECN's two bits).
 * IPv6: %PBT_V6_TC, one configured Traffic Class bit (DSCP part), the
 * default; %PBT_V6_OFLAG: the SRH O-flag (RFC 9259) where the packet has
 * an SRH, the Traffic Class bit where it has none. The Flow Label is not
 * offered: routers hash it for ECMP (RFC 6437), so a marked packet could
 * take another path than its flow (Documentation/pbt.rst).
 */
#define PBT_V4_RSVD		0
#define PBT_V4_TOS		1
#define PBT_V6_TC		0
#define PBT_V6_OFLAG		1

#define PBT_V4_RSVD_BIT		0x8000		/* of frag_off, host order */
#define PBT_ECN_MASK		0x03		/* never a mark: ECN is end to end */

/* Where postcards are made (struct pbt_if_cfg.flags and struct pbt_record.point). */
#define PBT_PT_INGRESS		1
#define PBT_PT_EGRESS		2

/* Sampling in addition to lib/select/select.h's: one packet per flow per
 * @interval_ns (state in pbt_flows). */
#define PBT_SAMPLE_INTERVAL	3

/* Triggers (iFIT-style): mark a flow for @trig_hold_ns once one of these is seen. */
#define PBT_TRIG_CE		(1U << 0)	/* a packet of the flow carries ECN CE */
#define PBT_TRIG_QDEPTH		(1U << 1)	/* egress queue above @trig_qdepth bytes */

/* IPFIX transports of the export (hopmarkd). */
#define PBT_EXP_UDP		1
#define PBT_EXP_TCP		2

/**
 * struct pbt_domain_cfg - the PBT-M domain's settings (pbt_cfg[0])
 * @flags:		%PBT_DOM_F_*; nothing happens before %PBT_DOM_F_CONFIGURED
 * @v4_mark:		%PBT_V4_*
 * @v6_mark:		%PBT_V6_*
 * @v4_tos_bit:		the TOS bit for %PBT_V4_TOS (one bit of 0xfc)
 * @v6_tc_bit:		the Traffic Class bit for %PBT_V6_TC (one bit of 0xfc)
 * @altmark_tos:	TOS / Traffic Class bits the domain uses for Alternate
 *			Marking (RFC 9341); a mark on one of them is refused
 * @trig_flags:		%PBT_TRIG_*
 * @pad:		zero
 * @interval_ns:	%PBT_SAMPLE_INTERVAL: ns between marked packets of a flow
 * @meter_rate:		marked packets per second this head node may make (0:
 *			no meter), a token bucket (pbt_meter)
 * @meter_burst:	bucket depth, packets
 * @trig_qdepth:	%PBT_TRIG_QDEPTH threshold, bytes of qdisc backlog
 * @trig_hold_ns:	how long a triggered flow stays marked, ns
 * @exp_transport:	%PBT_EXP_*; 0: no collector, postcards are counted and
 *			written as JSON lines only
 * @exp_family:		4 or 6: the collector's address family
 * @exp_port:		collector's port, host order
 * @exp_rate:		most IPFIX records per second hopmarkd sends (0: no
 *			limit); records above it are counted, not sent
 * @exp_refresh_s:	UDP template refresh interval, seconds (RFC 7011 §8.4)
 * @exp_domain:		IPFIX Observation Domain ID
 * @exp_addr:		collector's address, network order (IPv4: first 4)
 * @exp_src:		source address of the export, network order (zero:
 *			the kernel's choice)
 * @sel:		the head node's access list and sampling
 *			(lib/select/select.h; sample may be %PBT_SAMPLE_INTERVAL)
 *
 * The exp_* fields are read by hopmarkd only; the datapath never marks
 * the export (UDP/TCP to @exp_port from this node).
 */
struct pbt_domain_cfg {
	__u32			flags;
	__u8			v4_mark;
	__u8			v6_mark;
	__u8			v4_tos_bit;
	__u8			v6_tc_bit;
	__u8			altmark_tos;
	__u8			trig_flags;
	__u16			pad;
	__u64			interval_ns;
	__u32			meter_rate;
	__u32			meter_burst;
	__u32			trig_qdepth;
	__u32			pad2;
	__u64			trig_hold_ns;
	__u8			exp_transport;
	__u8			exp_family;
	__u16			exp_port;
	__u32			exp_rate;
	__u32			exp_refresh_s;
	__u32			exp_domain;
	__u8			exp_addr[16];
	__u8			exp_src[16];
	struct hm_sel_cfg	sel;
};
#define PBT_DOM_F_CONFIGURED	(1U << 0)

/**
 * struct pbt_if_cfg - PBT-M roles of an interface (pbt_ifcfg[ifindex])
 * @flags:	%PBT_IF_F_*
 * @pad:	zero
 */
struct pbt_if_cfg {
	__u32	flags;
	__u32	pad;
};
#define PBT_IF_F_HEAD		(1U << 0)	/* tc egress: mark selected packets entering the domain */
#define PBT_IF_F_INGRESS	(1U << 1)	/* postcard for marked packets arriving here */
#define PBT_IF_F_EGRESS		(1U << 2)	/* postcard for marked packets leaving here */
#define PBT_IF_F_END		(1U << 3)	/* clear the mark: the packet leaves the domain here
						 * (tc egress), or is delivered here (ingress) */

/**
 * enum pbt_counter - counted PBT-M datapath actions (pbt_stats[ifindex], per CPU)
 *
 * Names for display: pbt_counter_names[] (lib/pbt/pbt_names.c). New
 * counters are appended before %PBT_CNT_MAX.
 */
enum pbt_counter {
	PBT_CNT_MARKED,			/* head: mark set */
	PBT_CNT_NOT_WATCHED,		/* head: no access-list rule matched */
	PBT_CNT_NOT_SAMPLED,		/* head: watched, not sampled */
	PBT_CNT_METERED,		/* head: sampled, no token left */
	PBT_CNT_TRIGGERED,		/* head: marked because of a trigger */
	PBT_CNT_ALREADY_MARKED,		/* head: the bit was already set: left alone */
	PBT_CNT_UNSUPPORTED,		/* not IPv4/IPv6, or a fragment: untouched */
	PBT_CNT_EXPORT,			/* head: the node's own export: never marked */
	PBT_CNT_POSTCARD_INGRESS,	/* postcard record made at ingress */
	PBT_CNT_POSTCARD_EGRESS,	/* postcard record made at egress */
	PBT_CNT_EVENTS_LOST,		/* ring buffer full: postcard lost */
	PBT_CNT_CLEARED,		/* end: mark cleared */
	PBT_CNT_TEMPLATE,		/* postcard carried a per-flow template's fields */
	PBT_CNT_TEMPLATE_EXPIRED,	/* a per-flow template had timed out: basic set */
	PBT_CNT_MALFORMED,		/* truncated or bad header: untouched */
	PBT_CNT_ERR,			/* helper failed: packet unchanged */
	PBT_CNT_NOT_CONFIGURED,		/* role enabled, domain not configured */
	PBT_CNT_ALTMARK,		/* the mark bit is an Alternate Marking bit: refused */
	PBT_CNT_GSO,			/* a GSO skb was marked, postcarded or cleared as one */
	PBT_CNT_BAD_BIT,		/* the configured TOS / TC bit is not one DSCP bit: nothing done */
	PBT_CNT_NOT_TRIGGERED,		/* head: triggers set, the flow is not triggered */
	PBT_CNT_NO_NEXTHOP,		/* template's next hop: the FIB lookup gave none */
	PBT_CNT_NO_SOJOURN,		/* template's sojourn: no ingress stamp of the packet */
	PBT_CNT_NOT_UNICAST,		/* head: multicast, broadcast or link-local destination: never marked */
	PBT_CNT_MAX,
};

/**
 * struct pbt_link_stats - PBT-M counters of one interface, per CPU
 * @cnt:	packets, indexed by enum pbt_counter
 */
struct pbt_link_stats {
	__u64	cnt[PBT_CNT_MAX];
};

/**
 * struct pbt_flow_state - per-flow state of a head node (pbt_flows)
 * @last_mark_ns:	CLOCK_MONOTONIC ns of the flow's last marked packet
 *			(%PBT_SAMPLE_INTERVAL)
 * @trig_until_ns:	CLOCK_MONOTONIC ns until which the flow is marked
 *			because of a trigger (0: not triggered)
 */
struct pbt_flow_state {
	__u64	last_mark_ns;
	__u64	trig_until_ns;
};

/**
 * struct pbt_meter - the head node's token bucket (pbt_meter[0])
 * @lock:	bpf_spin_lock
 * @tokens:	tokens left, in 1/1024 of a packet
 * @last_ns:	CLOCK_MONOTONIC ns of the last refill
 */
struct pbt_meter {
	struct bpf_spin_lock	lock;
	__u32			tokens;
	__u64			last_ns;
};

/**
 * struct pbt_arrival - the last marked packet an ingress program saw on
 *			this CPU (pbt_arrival[0], per CPU)
 * @pkt_id:	its packet ID
 * @ifindex:	interface it arrived on
 * @ts_ns:	when, CLOCK_REALTIME ns (struct pbt_record.ts_ns's clock)
 *
 * Written by hm_pbt_xdp / hm_pbt_ingress for every marked packet on an
 * interface with an ingress or end role (pbt_ifcfg), read by
 * hm_pbt_egress for %PBT_FLD_SOJOURN: forwarding runs in the receive softirq of the CPU the
 * packet arrived on, so the packet leaving is the one last stamped when
 * its packet ID and ingress interface match (as INT's int_arrival).
 */
struct pbt_arrival {
	__u32	pkt_id;
	__u32	ifindex;
	__u64	ts_ns;
};

/*
 * Fields a per-flow template adds to the basic data set (seed 002's flow
 * path discovery): struct pbt_flow_tpl.fields, struct pbt_record.tpl_fields.
 */
#define PBT_FLD_NEXTHOP		(1U << 0)	/* ipNextHopIPv4/IPv6Address (egress) */
#define PBT_FLD_TOS		(1U << 1)	/* ipClassOfService */
#define PBT_FLD_LENGTH		(1U << 2)	/* ipTotalLength */
#define PBT_FLD_SRH		(1U << 3)	/* srhFlagsIPv6, srhActiveSegmentIPv6, Segments Left */
#define PBT_FLD_HEADER		(1U << 4)	/* ipHeaderPacketSection: the first octets */
#define PBT_FLD_SOJOURN		(1U << 5)	/* egress: ns since this node's ingress postcard */
#define PBT_FLD_ALL		((1U << 6) - 1)

/**
 * struct pbt_flow_tpl - a per-flow template (pbt_tpl[flow key])
 * @id:		template identifier, chosen by whoever added it (not 0)
 * @fields:	%PBT_FLD_* exported for the flow's marked packets
 * @expires_ns:	CLOCK_MONOTONIC ns after which the template no longer
 *		applies (0: never); an expired one is counted and ignored,
 *		and hopmarkd removes it
 */
struct pbt_flow_tpl {
	__u32	id;
	__u32	fields;
	__u64	expires_ns;
};

/* How struct pbt_record.pkt_id was made (Documentation/pbt.rst, "Packet ID"). */
#define PBT_ID_HASH		0	/* hash of invariant octets, lib/pbt/pbt_id.h */

/* struct pbt_record.flags */
#define PBT_REC_F_CE		(1U << 0)	/* the packet carries ECN CE */
#define PBT_REC_F_SRH		(1U << 1)	/* IPv6 with an SRH: srh_* are valid */
#define PBT_REC_F_HEAD		(1U << 2)	/* made by the head node (it marked it) */
#define PBT_REC_F_END		(1U << 3)	/* made by the end node (it cleared it) */
#define PBT_REC_F_GSO		(1U << 4)	/* a GSO skb: one postcard for its segments */

#define PBT_REC_HDR_MAX		128		/* octets of %PBT_FLD_HEADER */
#define PBT_UNKNOWN32		0xffffffffU

/**
 * struct pbt_record - one postcard, what the datapath hands to the agent
 * @ts_ns:		CLOCK_REALTIME ns when the node handled the packet
 * @node_id:		this node's ID (hopmark_node.node_id; 0xffffff unknown)
 * @in_ifindex:		interface the packet arrived on (0: locally sent)
 * @out_ifindex:	interface it leaves on (0: unknown at ingress)
 * @pkt_id:		packet ID, the same at every node (%PBT_ID_HASH)
 * @qdepth:		queue depth of @out_ifindex (hopmark_qdepth
 *			backlog_bytes) at egress, of the node at ingress;
 *			%PBT_UNKNOWN32 when unknown
 * @point:		%PBT_PT_INGRESS or %PBT_PT_EGRESS
 * @ttl:		IPv4 TTL / IPv6 Hop Limit as the node saw it (ingress:
 *			as received; egress: as sent)
 * @id_kind:		%PBT_ID_*
 * @mark:		the mark found: %PBT_V4_* for IPv4, %PBT_V6_* for IPv6
 * @flags:		%PBT_REC_F_*
 * @pkt_len:		the packet's length from its IP header, octets
 * @tpl_id:		per-flow template applied (0: the basic data set)
 * @tpl_fields:		%PBT_FLD_* of the fields below that are valid
 * @key:		the flow key (lib/select/select.h; for an SRH packet
 *			the destination is the SRH's last segment, the one
 *			every hop agrees on)
 * @nexthop:		%PBT_FLD_NEXTHOP, network order (IPv4: first 4)
 * @tos:		%PBT_FLD_TOS: TOS / Traffic Class without the mark bit
 * @srh_flags:		SRH Flags (%PBT_FLD_SRH)
 * @srh_sl:		SRH Segments Left
 * @hdr_len:		octets of @hdr used (%PBT_FLD_HEADER)
 * @sojourn_ns:		%PBT_FLD_SOJOURN: ns in this node, ingress to egress
 * @srh_active:		SRH active segment (the IPv6 destination), network order
 * @hdr:		the packet's first octets from its IP header
 */
struct pbt_record {
	__u64			ts_ns;
	__u32			node_id;
	__u32			in_ifindex;
	__u32			out_ifindex;
	__u32			pkt_id;
	__u32			qdepth;
	__u8			point;
	__u8			ttl;
	__u8			id_kind;
	__u8			mark;
	__u16			flags;
	__u16			pkt_len;
	__u32			tpl_id;
	__u32			tpl_fields;
	struct hm_flow_key	key;
	__u8			nexthop[16];
	__u8			tos;
	__u8			srh_flags;
	__u8			srh_sl;
	__u8			pad;
	__u16			hdr_len;
	__u16			pad2;
	__u32			sojourn_ns;
	__u8			srh_active[16];
	__u8			hdr[PBT_REC_HDR_MAX];
};

#endif /* __HOPMARK_PBT_MAPS_H */
