/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * int_maps.h - the INT datapath's contract: pinned map names and layouts,
 * per-interface roles, counters and the ring buffer record the datapath
 * hands to hopmarkd, which turns it into Telemetry Report v2.0. Shared by
 * bpf/hopmark_int.bpf.c, the agent, the CLI and the tests. See
 * Documentation/int.rst.
 *
 * Maps are pinned by name next to the IOAM ones (<bpffs>/tc/globals/,
 * lib/common/hopmark_maps.h). INT reads the node's identity (node ID =
 * hopmark_node.node_id), interface IDs (L1 = hopmark_ifcfg.if_id, L2 =
 * .if_id_wide) and queue state (hopmark_qdepth) from the IOAM maps: one
 * source per value for both protocols.
 *
 * Header-only and libc-free; safe to include from BPF. Host byte order
 * unless a field says otherwise.
 */
#ifndef __HOPMARK_INT_MAPS_H
#define __HOPMARK_INT_MAPS_H

#include <linux/types.h>
#include "int/int.h"
#include "select/select.h"

/* Map names (also the pin file names). */
#define INT_MAP_CFG		"int_cfg"
#define INT_MAP_IFCFG		"int_ifcfg"
#define INT_MAP_STATS		"int_stats"
#define INT_MAP_EVENTS		"int_events"
#define INT_MAP_ARRIVAL		"int_arrival"

#define INT_MAX_IFACES		256
#define INT_EVENTS_BYTES	(4 * 1024 * 1024)

/* How a domain signals INT (INT §5.7.2): one method per domain. */
#define INT_SIG_DSCP		0	/* DSCP/Traffic Class value under a mask, NPT=0 */
#define INT_SIG_UDP		1	/* UDP destination port: NPT=1 for UDP, NPT=2 otherwise */

/* Modes (INT §3.1). */
#define INT_MODE_MD		0
#define INT_MODE_MX		1
#define INT_MODE_XD		2

/**
 * struct int_domain_cfg - the INT domain's settings (int_cfg[0])
 * @flags:		%INT_DOM_F_*; nothing happens before %INT_DOM_F_CONFIGURED
 * @signal:		%INT_SIG_*
 * @mode:		%INT_MODE_*
 * @dscp:		INT DSCP value (6 bits) for %INT_SIG_DSCP
 * @dscp_mask:		mask it is compared under (6 bits, not 0)
 * @udp_port:		INT UDP destination port, host order, for %INT_SIG_UDP
 * @bitmap:		Instruction Bitmap the source writes, host order
 * @hop_ml:		Hop ML the source writes: int_bitmap_words(@bitmap)
 * @max_hops:		Remaining Hop Count the source starts with
 * @hw_id:		hw_id of this node's reports (6 bits)
 * @ds_id:		Domain Specific ID (0: none)
 * @ds_inst:		DS Instruction
 * @report_trunc:	octets of the packet (from its IP header) a report
 *			carries, at most %INT_REC_PKT_MAX
 * @q_threshold:	queue occupancy above which a congested-queue report
 *			(Q) is made, in the unit of the queue occupancy field
 *			(bytes); 0: no queue reports
 * @rpt_family:		4 or 6: the collector's address family; 0: no
 *			collector, records are counted by the agent and not sent
 * @rpt_coalesce:	most Individual Reports per datagram (1: none)
 * @rpt_port:		collector's UDP port, host order
 * @rpt_sport:		UDP source port of reports, host order (0: a hash of
 *			the inner 5-tuple, Report §3.1)
 * @rpt_pad:		zero
 * @rpt_addr:		collector's address, network order (IPv4: first 4)
 * @rpt_src:		source address of reports, network order (all zero:
 *			the kernel's choice)
 * @sel:		the source's watchlist and sampling (lib/select/select.h);
 *			INT-XD nodes match it too
 *
 * The rpt_* fields are read by hopmarkd only; the datapath never
 * instruments a report (it leaves UDP to @rpt_port alone).
 */
struct int_domain_cfg {
	__u32			flags;
	__u8			signal;
	__u8			mode;
	__u8			dscp;
	__u8			dscp_mask;
	__u16			udp_port;
	__u16			bitmap;
	__u8			hop_ml;
	__u8			max_hops;
	__u8			hw_id;
	__u8			pad;
	__u16			ds_id;
	__u16			ds_inst;
	__u32			report_trunc;
	__u32			q_threshold;
	__u8			rpt_family;
	__u8			rpt_coalesce;
	__u16			rpt_port;
	__u16			rpt_sport;
	__u16			rpt_pad;
	__u8			rpt_addr[16];
	__u8			rpt_src[16];
	struct hm_sel_cfg	sel;
};
#define INT_DOM_F_CONFIGURED	(1U << 0)
/* Most Individual Reports per datagram: rpt_coalesce is 8 bits. */
#define INT_RPT_COALESCE_MAX	255

/**
 * struct int_if_cfg - INT roles of an interface (int_ifcfg[ifindex])
 * @flags:	%INT_IF_F_*
 * @mtu:	MTU the datapath holds packets to on this egress interface;
 *		0: the device's
 * @rate_bps:	link capacity, bits/s, for egress TX utilisation (0: unknown,
 *		the field is then all-ones)
 */
struct int_if_cfg {
	__u32	flags;
	__u32	mtu;
	__u64	rate_bps;
};
#define INT_IF_F_SOURCE		(1U << 0)	/* tc egress: start INT (MD/MX) */
#define INT_IF_F_TRANSIT	(1U << 1)	/* tc egress: this node's hop */
#define INT_IF_F_SINK		(1U << 2)	/* tc ingress: extract, report, restore */
#define INT_IF_F_XD		(1U << 3)	/* INT-XD: report watched packets, no change */
/*
 * XDP of an ingress interface: hm_int_xdp_src gives TCP NPT=2 INT-MD
 * (bpf/hopmark_int_xdp.bpf.c). The program does not test it (it runs where
 * it is attached); `hopmark int` keeps the role here, with the MTU it reads.
 */
#define INT_IF_F_XDP_SOURCE	(1U << 4)

/**
 * enum int_counter - counted INT datapath actions (int_stats[ifindex], per CPU)
 *
 * Names for display: int_counter_names[] (lib/int/int_names.c). New
 * counters are appended before %INT_CNT_MAX.
 */
enum int_counter {
	INT_CNT_SRC_OK,			/* INT header inserted */
	INT_CNT_SRC_NOT_WATCHED,	/* no watchlist rule matched */
	INT_CNT_SRC_NOT_SAMPLED,	/* watched, not sampled */
	INT_CNT_SRC_MTU_NO_INT,		/* fixed headers would exceed the MTU: no INT (§5.3) */
	INT_CNT_SRC_MTU_M,		/* own metadata would exceed the MTU: M set (§5.3) */
	INT_CNT_SRC_GSO,		/* GSO packet: left without INT (Documentation/int.rst) */
	INT_CNT_SRC_HAS_INT,		/* already carries INT or the INT DSCP/port: untouched */
	INT_CNT_SRC_PROTO,		/* neither TCP nor UDP, or a fragment: untouched */
	INT_CNT_TRANSIT_OK,		/* this hop's metadata pushed */
	INT_CNT_TRANSIT_E,		/* Remaining Hop Count 0: E set, nothing added */
	INT_CNT_TRANSIT_M,		/* would exceed the MTU: M set, nothing added */
	INT_CNT_TRANSIT_FULL,		/* shim length would pass 255 words: nothing added */
	INT_CNT_MALFORMED,		/* bad shim, header or lengths: untouched */
	INT_CNT_SINK_OK,		/* INT removed, packet restored, record sent */
	INT_CNT_SINK_DISCARD,		/* D set: dropped after extraction */
	INT_CNT_XD_REPORT,		/* INT-XD record for a watched packet */
	INT_CNT_MX_REPORT,		/* INT-MX record */
	INT_CNT_DROP_REPORT,		/* drop record (D) */
	INT_CNT_QUEUE_REPORT,		/* congested-queue record (Q) */
	INT_CNT_EVENTS_LOST,		/* ring buffer full: record lost */
	INT_CNT_ERR,			/* helper failed: packet unchanged */
	INT_CNT_NOT_CONFIGURED,		/* role enabled, domain not configured */
	INT_CNT_SRC_REPORT,		/* UDP to the report port: never instrumented */
	INT_CNT_CSUM_PARTIAL,		/* NPT 0/1 on a CHECKSUM_PARTIAL skb: untouched */
	INT_CNT_GSO,			/* transit/sink: GSO packet: untouched */
	INT_CNT_DROP_SINK_DISCARD,	/* the sink's discard of a D packet: no drop report */
	INT_CNT_XDP_NOT_TCP,		/* XDP source: not TCP, left to the tc source */
	INT_CNT_XDP_UNSUPPORTED,	/* XDP source: DSCP signalling or MX/XD mode: untouched */
	INT_CNT_MAX,
};

/**
 * struct int_link_stats - INT counters of one interface, per CPU
 * @cnt:	packets, indexed by enum int_counter
 */
struct int_link_stats {
	__u64	cnt[INT_CNT_MAX];
};

/**
 * struct int_arrival - a transit hop's arrival stamp (int_arrival[0], per CPU)
 * @fp:		fingerprint of the packet stamped: a hash of the IP header
 *		fields forwarding leaves alone (addresses, lengths,
 *		Identification or flow label, protocol) and the first 8 octets
 *		after the IP header
 * @ifindex:	interface it arrived on (skb->ingress_ifindex at egress)
 * @ts_ns:	arrival time, CLOCK_REALTIME ns (hm_now_posix_ns())
 *
 * Written by hm_int_ingress (tc ingress) for every IPv4/IPv6 packet, read
 * by the egress programs of the same CPU: forwarding runs in the receive
 * softirq, so the packet that leaves is the one last stamped when both
 * the fingerprint and the interface match. Anything else: hop latency and
 * ingress timestamp are all-ones.
 */
struct int_arrival {
	__u32	fp;
	__u32	ifindex;
	__u64	ts_ns;
};

/* Record kinds: what the agent reports (Report §2.2). */
#define INT_REC_SINK		0	/* INT-MD/MX sink: the stack, in @pkt */
#define INT_REC_XD		1	/* INT-XD node: its own metadata */
#define INT_REC_MX		2	/* INT-MX node (source, transit, sink) */
#define INT_REC_DROP		3	/* a watched packet was dropped here */
#define INT_REC_QUEUE		4	/* a watched packet entered a congested queue */

#define INT_REC_MD_MAX		(16 * 4)	/* a node's own metadata, bits 1-8 + 15 */
#define INT_REC_PKT_MAX		1280		/* IP header onward */

/**
 * struct int_record - what the datapath hands to the agent (int_events)
 * @ts_ns:		CLOCK_REALTIME ns of the event (the egress or sink
 *			timestamp the metadata carries)
 * @ifindex:		interface the record was made on
 * @kind:		%INT_REC_*
 * @flags:		Individual Report flags for it (%INT_RPT_F_*)
 * @family:		4 or 6: InType %INT_IN_IPV4 or %INT_IN_IPV6 of @pkt
 * @drop_reason:	drop reason code for RepMdBits bit 15 (%INT_REC_DROP)
 * @rep_md_bits:	RepMdBits of @md (bit 0 clear; bit 15 for drops)
 * @md_len:		octets of @md used (a multiple of 4)
 * @pkt_len:		octets of @pkt used (the packet truncated to
 *			int_domain_cfg.report_trunc)
 * @orig_len:		the packet's full length from its IP header, octets
 * @node_id:		this node's ID (the group header's), host order
 * @queue_id:		egress queue ID (RepMdBits bit 15)
 * @md:			this node's metadata in RepMdBits order, as on the
 *			wire (big-endian)
 * @pkt:		the packet from its IP header, as received (sink: INT
 *			headers and stack included)
 */
struct int_record {
	__u64	ts_ns;
	__u32	ifindex;
	__u8	kind;
	__u8	flags;
	__u8	family;
	__u8	drop_reason;
	__u16	rep_md_bits;
	__u16	md_len;
	__u16	pkt_len;
	__u16	orig_len;
	__u32	node_id;
	__u8	queue_id;
	__u8	pad[3];
	__u8	md[INT_REC_MD_MAX];
	__u8	pkt[INT_REC_PKT_MAX];
};

#endif /* __HOPMARK_INT_MAPS_H */
