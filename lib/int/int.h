/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * int.h - wire format of P4.org In-band Network Telemetry v2.1 over TCP and
 * UDP (INT.mdk, footer 2020-11-11) and of Telemetry Report v2.0
 * (telemetry_report.mdk, footer 2020-10-08).
 *
 * Shared by bpf/, the agent, the CLI, the collector and the tests. Header
 * only, libc-free: safe to include from BPF. Every multi-octet field is
 * big-endian on the wire (the specs draw IETF-style diagrams, bit 0 = MSB);
 * the accessors below take and return host order.
 *
 * Layout of an INT packet over TCP/UDP (INT §5.7.2):
 *
 *	IP | [UDP, NPT=2 only] | TCP/UDP header | shim (4) | MD or MX header (12)
 *	   | [metadata stack: most recent hop first] | payload
 *
 * For NPT=2 the inserted UDP header comes first and the original L4 header
 * follows the INT data; for NPT=0 and NPT=1 the INT data follows the
 * packet's own TCP (after its options) or UDP header.
 */
#ifndef __HOPMARK_INT_H
#define __HOPMARK_INT_H

#include <linux/types.h>

#define INT_VERSION		2	/* MD and MX header Ver (§5.8, §5.9) */

/* ---- shim (§5.7.2), 4 octets ---- */

/**
 * struct int_shim - the TCP/UDP shim header
 * @type_npt:	Type (4 bits, %INT_TYPE_*) | NPT (2 bits, %INT_NPT_*) | R (2)
 * @len:	INT header + metadata (+ source-only data) in 4-octet words,
 *		the shim itself not counted (since v2.0)
 * @npt_hi:	NPT=1: original UDP destination port, high octet;
 *		NPT=0, NPT=2: reserved, 0
 * @npt_lo:	NPT=1: original UDP destination port, low octet;
 *		NPT=2: original IP protocol;
 *		NPT=0: original DSCP << 2 (bits 24-29), bits 30-31 reserved
 */
struct int_shim {
	__u8	type_npt;
	__u8	len;
	__u8	npt_hi;
	__u8	npt_lo;
};

#define INT_SHIM_LEN		4
#define INT_TYPE_MD		1	/* INT-MD (eMbed Data) */
#define INT_TYPE_DST		2	/* Destination header: format undefined in v2.1 */
#define INT_TYPE_MX		3	/* INT-MX (eMbed instructions) */
#define INT_NPT_DSCP		0	/* DSCP (or probe marker) signalling */
#define INT_NPT_UDP		1	/* UDP payload follows: original dport in the shim */
#define INT_NPT_L4		2	/* an L4 header follows: original protocol in the shim */

static inline __u8 int_shim_type(const struct int_shim *s)
{
	return s->type_npt >> 4;
}

static inline __u8 int_shim_npt(const struct int_shim *s)
{
	return (s->type_npt >> 2) & 0x3;
}

static inline __u8 int_shim_type_npt(__u8 type, __u8 npt)
{
	return (__u8)(type << 4 | (npt & 0x3) << 2);
}

/* ---- INT-MD header (§5.8), 12 octets ---- */

/**
 * struct int_md_hdr - INT-MD metadata header
 * @w0:		Ver(4) D(1) E(1) M(1) Reserved(12) Hop ML(5) Remaining Hop
 *		Count(8), big-endian; see the INT_MD_* masks (host order)
 * @bitmap:	Instruction Bitmap, big-endian (%INT_BM_*)
 * @ds_id:	Domain Specific ID, big-endian (0: default, no DS bits)
 * @ds_inst:	DS Instruction, big-endian
 * @ds_flags:	DS Flags, big-endian (transit hops may update)
 */
struct int_md_hdr {
	__be32	w0;
	__be16	bitmap;
	__be16	ds_id;
	__be16	ds_inst;
	__be16	ds_flags;
};

#define INT_HDR_LEN		12	/* MD or MX header */
#define INT_FIXED_LEN		(INT_SHIM_LEN + INT_HDR_LEN)	/* §5.3's 16 */
#define INT_MD_VER_SHIFT	28
#define INT_MD_D		(1U << 27)	/* sink discards after extracting */
#define INT_MD_E		(1U << 26)	/* max hop count exceeded */
#define INT_MD_M		(1U << 25)	/* MTU exceeded */
#define INT_MD_RSVD_MASK	0x01ffe000U	/* bits 7-18: source writes 0 */
#define INT_MD_HOP_ML_SHIFT	8
#define INT_MD_HOP_ML_MASK	0x1fU
#define INT_MD_RHC_MASK		0xffU

#define INT_HOP_ML_MAX		31	/* words per hop, 5 bits */
#define INT_SHIM_LEN_MAX	255	/* words after the shim, 8 bits */

static inline __u32 int_md_w0(__u32 flags, __u32 hop_ml, __u32 rhc)
{
	return (__u32)INT_VERSION << INT_MD_VER_SHIFT | flags |
	       (hop_ml & INT_MD_HOP_ML_MASK) << INT_MD_HOP_ML_SHIFT |
	       (rhc & INT_MD_RHC_MASK);
}

static inline __u32 int_md_ver(__u32 w0)
{
	return w0 >> INT_MD_VER_SHIFT;
}

static inline __u32 int_md_hop_ml(__u32 w0)
{
	return (w0 >> INT_MD_HOP_ML_SHIFT) & INT_MD_HOP_ML_MASK;
}

static inline __u32 int_md_rhc(__u32 w0)
{
	return w0 & INT_MD_RHC_MASK;
}

/*
 * INT-MX header (§5.9, final v2.1): the same 12 octets, but w0 is Ver(4)
 * D(1) R(27): no E, M, Hop ML or Remaining Hop Count. The bitmap has no
 * bit 15. Source-inserted DS data may follow, counted in the shim length.
 */
#define int_mx_hdr int_md_hdr
#define INT_MX_D		INT_MD_D

/* ---- Instruction Bitmap (§5.8), bit 0 = MSB of the 16 ---- */

#define INT_BM_NODE_ID		0x8000U	/* bit 0: node ID, 4 octets */
#define INT_BM_L1_PORTS		0x4000U	/* bit 1: L1 ingress (16) + egress (16) */
#define INT_BM_HOP_LAT		0x2000U	/* bit 2: hop latency, 4 */
#define INT_BM_QUEUE		0x1000U	/* bit 3: queue ID (8) + occupancy (24) */
#define INT_BM_INGRESS_TS	0x0800U	/* bit 4: ingress timestamp, 8 */
#define INT_BM_EGRESS_TS	0x0400U	/* bit 5: egress timestamp, 8 */
#define INT_BM_L2_PORTS		0x0200U	/* bit 6: L2 ingress (32) + egress (32), 8 */
#define INT_BM_TX_UTIL		0x0100U	/* bit 7: egress TX utilisation, 4 */
#define INT_BM_BUFFER		0x0080U	/* bit 8: buffer ID (8) + occupancy (24) */
#define INT_BM_RSVD_MASK	0x007eU	/* bits 9-14: 0xffffffff each when set */
#define INT_BM_CSUM_COMPL	0x0001U	/* bit 15: checksum complement, MD only, last */
#define INT_BM_WIDE_MASK	(INT_BM_INGRESS_TS | INT_BM_EGRESS_TS | INT_BM_L2_PORTS)

/* The all-ones value of a field the node cannot know (§4). */
#define INT_UNAVAIL32		0xffffffffU
#define INT_UNAVAIL64		0xffffffffffffffffULL

static inline __u32 int_popcount16(__u32 x)
{
	x &= 0xffff;
	x = x - ((x >> 1) & 0x5555);
	x = (x & 0x3333) + ((x >> 2) & 0x3333);
	x = (x + (x >> 4)) & 0x0f0f;
	return (x + (x >> 8)) & 0x1f;
}

/**
 * int_bitmap_words() - Hop ML of an Instruction Bitmap without DS metadata
 * @bitmap:	Instruction Bitmap, host order
 *
 * One word per set bit, two for bits 4-6 (8-octet fields); reserved bits
 * 9-14 count one word each, as a node honouring them writes 0xffffffff
 * (§5.8). Examples of §5.8: 0xff80 -> 12, 0xfc00 -> 8, 0xff81 -> 13.
 *
 * Return: words, 0..16.
 */
static inline __u32 int_bitmap_words(__u32 bitmap)
{
	return int_popcount16(bitmap) + int_popcount16(bitmap & INT_BM_WIDE_MASK);
}

/* ---- Telemetry Report v2.0 ---- */

/**
 * struct int_rpt_group - Telemetry Group Header (Report §3.2), 8 octets
 * @w0:		Ver(4) = 2 | hw_id(6) | Sequence Number(22), big-endian
 * @node_id:	the reporting node, big-endian
 *
 * The sequence number runs per (Node ID, hw_id, destination).
 */
struct int_rpt_group {
	__be32	w0;
	__be32	node_id;
};

#define INT_RPT_VERSION		2
#define INT_RPT_GROUP_LEN	8
#define INT_RPT_HW_ID_MASK	0x3fU
#define INT_RPT_SEQ_MASK	0x3fffffU

static inline __u32 int_rpt_group_w0(__u32 hw_id, __u32 seq)
{
	return (__u32)INT_RPT_VERSION << 28 | (hw_id & INT_RPT_HW_ID_MASK) << 22 |
	       (seq & INT_RPT_SEQ_MASK);
}

/**
 * struct int_rpt_hdr - Individual Report Header (Report §3.3), 4 octets
 * @rep_in:	RepType(4, %INT_REP_*) | InType(4, %INT_IN_*)
 * @len:	Report Length: words after this first word (main + inner
 *		contents); %INT_RPT_LEN_TO_END: >= 255 words, to the end of the
 *		UDP payload, and no further report follows
 * @md_len:	MD Length: words of variable optional metadata (0 for Inner Only)
 * @flags:	D Q F I (%INT_RPT_F_*) and 4 reserved bits, 0
 */
struct int_rpt_hdr {
	__u8	rep_in;
	__u8	len;
	__u8	md_len;
	__u8	flags;
};

#define INT_RPT_HDR_LEN		4
#define INT_REP_INNER_ONLY	0
#define INT_REP_INT		1
#define INT_REP_IOAM		2
#define INT_IN_NONE		0
#define INT_IN_TLV		1
#define INT_IN_DS_EXT		2
#define INT_IN_ETHERNET		3
#define INT_IN_IPV4		4
#define INT_IN_IPV6		5
#define INT_RPT_F_D		0x80	/* dropped */
#define INT_RPT_F_Q		0x40	/* congested queue */
#define INT_RPT_F_F		0x20	/* tracked flow */
#define INT_RPT_F_I		0x10	/* intermediate (transit hop, INT-MD) */
#define INT_RPT_LEN_TO_END	0xff
/* With Report Length 0xff the truncation limit of coalesced reports (PR #89). */
#define INT_RPT_TRUNC_COALESCED_MAX	(254 * 4)

/**
 * struct int_rpt_main - main contents of a RepType 1 report (Report §3.3.1)
 * @rep_md_bits:	RepMdBits, big-endian: bit 0 reserved (node ID is in the
 *			group header), bits 1-8 as the Instruction Bitmap,
 *			9-14 reserved, 15 = %INT_RPT_MD_DROP
 * @ds_id:		Domain Specific ID, big-endian
 * @ds_md_bits:		DSMdBits, big-endian
 * @ds_md_status:	DSMdStatus, big-endian
 *
 * Followed by the variable optional baseline metadata (MD Length words,
 * fields in RepMdBits order), then the inner contents.
 */
struct int_rpt_main {
	__be16	rep_md_bits;
	__be16	ds_id;
	__be16	ds_md_bits;
	__be16	ds_md_status;
};

#define INT_RPT_MAIN_LEN	8
/* RepMdBits bit 15: queue ID (8) + drop reason (8) + padding (16), 4 octets. */
#define INT_RPT_MD_DROP		0x0001U
#define INT_RPT_MD_VALID	(0x7f80U | INT_RPT_MD_DROP)	/* bits 1-8, 15 */

#endif /* __HOPMARK_INT_H */
