/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pc_obs.h - one postcard as a flat observation: what hopmarkd's IPFIX
 * exporter encodes (lib/ipfix/), what hopmark-collector decodes, stitches,
 * publishes to its broker and stores. Every postcard source maps onto it:
 * PBT-M records from the datapath (struct pbt_record), the hopmark
 * module's DEX and SRH O-flag events (struct hm_postcard), INT-XD/MX
 * reports (struct int_record). One field per IPFIX Information Element
 * (lib/ipfix/ipfix_ie.h names the element of each).
 *
 * Fixed size and pointer-free, so that it can be copied into a broker
 * message as it is (lib/postcard/pc_obs.c gives the portable encoding).
 * Host byte order unless a field says otherwise.
 */
#ifndef __HOPMARK_PC_OBS_H
#define __HOPMARK_PC_OBS_H

#include <linux/types.h>
#include "select/select.h"

/* What produced the postcard (IPFIX hopmarkPostcardSource). */
#define HM_PC_SRC_PBT		1	/* PBT-M mark (bpf/hopmark_pbt.bpf.c) */
#define HM_PC_SRC_DEX		2	/* IOAM Direct Export (hopmark.ko) */
#define HM_PC_SRC_OFLAG		3	/* SRH O-flag (hopmark.ko) */
#define HM_PC_SRC_INT_XD	4	/* INT-XD report */
#define HM_PC_SRC_INT_MX	5	/* INT-MX report */

/* @present: which optional fields are valid. */
#define HM_PC_HAS_IN_IF		(1U << 0)
#define HM_PC_HAS_OUT_IF	(1U << 1)
#define HM_PC_HAS_QDEPTH	(1U << 2)
#define HM_PC_HAS_NEXTHOP	(1U << 3)
#define HM_PC_HAS_TOS		(1U << 4)
#define HM_PC_HAS_LENGTH	(1U << 5)
#define HM_PC_HAS_SRH		(1U << 6)
#define HM_PC_HAS_SOJOURN	(1U << 7)
#define HM_PC_HAS_TTL		(1U << 8)

/**
 * struct hm_pc_obs - one postcard of one node about one packet
 * @ts_ns:		observationTimeNanoseconds: POSIX ns at the node
 * @node_id:		exporting node's ID
 * @pkt_id:		packet ID, equal at every node for one packet
 *			(PBT-M: struct pbt_record.pkt_id; DEX: Sequence Number)
 * @in_if:		ingressInterface (ifindex at the node)
 * @out_if:		egressInterface
 * @qdepth:		queue depth, bytes
 * @sojourn_ns:		ns inside the node, ingress to egress
 * @tpl_id:		per-flow template the node applied (0: basic set)
 * @obs_domain:		IPFIX Observation Domain ID of the export
 * @present:		%HM_PC_HAS_*
 * @source:		%HM_PC_SRC_*
 * @point:		PBT_PT_INGRESS or PBT_PT_EGRESS (lib/pbt/pbt_maps.h)
 * @ttl:		ipTTL / Hop Limit as the node saw it
 * @tos:		ipClassOfService
 * @flags:		PBT_REC_F_* (lib/pbt/pbt_maps.h)
 * @length:		ipTotalLength, octets
 * @srh_flags:		srhFlagsIPv6
 * @srh_sl:		SRH Segments Left
 * @key:		flow key (addresses and ports network order)
 * @nexthop:		ipNextHopIPv4Address / ipNextHopIPv6Address, network order
 * @srh_active:		srhActiveSegmentIPv6, network order
 */
struct hm_pc_obs {
	__u64			ts_ns;
	__u32			node_id;
	__u32			pkt_id;
	__u32			in_if;
	__u32			out_if;
	__u32			qdepth;
	__u32			sojourn_ns;
	__u32			tpl_id;
	__u32			obs_domain;
	__u32			present;
	__u8			source;
	__u8			point;
	__u8			ttl;
	__u8			tos;
	__u16			flags;
	__u16			length;
	__u8			srh_flags;
	__u8			srh_sl;
	__u16			pad;
	struct hm_flow_key	key;
	__u8			nexthop[16];
	__u8			srh_active[16];
};

/*
 * The portable encoding of struct hm_pc_obs (lib/postcard/pc_obs.c): how
 * hopmark-collector's front collectors hand a postcard to its broker, the
 * same on every architecture. Version 1 is HM_PC_OBS_WIRE_LEN octets,
 * every multi-octet field big-endian, addresses and ports as on the wire;
 * pc_obs.c gives the layout octet by octet.
 */
#define HM_PC_OBS_WIRE_VERSION	1
#define HM_PC_OBS_WIRE_LEN	128
/* The @present bits version 1 defines; a decoder refuses others. */
#define HM_PC_HAS_ALL		((HM_PC_HAS_TTL << 1) - 1)

/**
 * hm_pc_obs_encode() - write @o in the portable encoding
 * @o:		postcard
 * @buf:	output, at least %HM_PC_OBS_WIRE_LEN octets
 * @len:	size of @buf, octets
 *
 * Return: %HM_PC_OBS_WIRE_LEN, or -ENOSPC when @len is smaller.
 */
int hm_pc_obs_encode(const struct hm_pc_obs *o, __u8 *buf, __u32 len);

/**
 * hm_pc_obs_decode() - read a postcard in the portable encoding
 * @o:		output; untouched on error
 * @buf:	encoded postcard
 * @len:	octets in @buf
 *
 * Return: 0; -EMSGSIZE when @len is not %HM_PC_OBS_WIRE_LEN; -EPROTO for
 * another version; -EINVAL for a family other than 4 or 6, a point other
 * than PBT_PT_INGRESS / PBT_PT_EGRESS, @present bits version 1 does not
 * define, or a reserved octet that is not zero.
 */
int hm_pc_obs_decode(struct hm_pc_obs *o, const __u8 *buf, __u32 len);

#endif /* __HOPMARK_PC_OBS_H */
