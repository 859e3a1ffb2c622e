/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ioam6.h - IOAM options (RFC 9197) as carried in an IPv6 Hop-by-Hop
 * Options header (RFC 9486): the option header, the Pre-allocated and
 * Incremental Trace (§4.4) with its node data encoding, the Edge-to-Edge
 * option (§4.6) and the Direct Export option (RFC 9326). Shared by the BPF
 * programs (bpf/), the kernel module (kernel/), libhopmark, the CLI, the
 * agent and the tests.
 *
 * Everything here is header-only, free of libc, and safe to include from a
 * BPF program: byte order is handled with explicit shifts, never htonl().
 *
 * Terms follow RFC 9197: IOAM-Namespace, NodeLen, Flags (the Overflow flag),
 * RemainingLen, IOAM-Trace-Type. Units: NodeLen and RemainingLen count
 * 4-octet words; the data area is sized in bytes.
 */
#ifndef __HOPMARK_IOAM6_H
#define __HOPMARK_IOAM6_H

#include <linux/types.h>
#include "common/byteorder.h"
#include "ipv6/ipv6.h"

/* IOAM Option-Type values (RFC 9197 §4.1, RFC 9326 §3). */
#define HM_IOAM_OPT_PREALLOC_TRACE	0
#define HM_IOAM_OPT_INCREMENTAL_TRACE	1
#define HM_IOAM_OPT_POT			2
#define HM_IOAM_OPT_E2E			3
#define HM_IOAM_OPT_DEX			4

/* Sizes in bytes. */
#define HM_IOAM_OPT_HDR_LEN		4	/* struct hm_ioam6_opt_hdr */
#define HM_IOAM_TRACE_HDR_LEN		8	/* struct hm_ioam6_trace_hdr */
#define HM_IOAM_E2E_HDR_LEN		4	/* struct hm_ioam6_e2e_hdr */
#define HM_IOAM_DEX_HDR_LEN		8	/* struct hm_ioam6_dex_hdr */

/* Largest pre-allocated data area, in bytes (same bound as linux/ioam6.h). */
#define HM_IOAM_TRACE_DATA_MAX		244

/* "Unavailable" values of RFC 9197 §4.4.2.x (the all-ones of each width). */
#define HM_IOAM_U8_UNAVAILABLE		0xffU
#define HM_IOAM_U16_UNAVAILABLE		0xffffU
#define HM_IOAM_U24_UNAVAILABLE		0xffffffU
#define HM_IOAM_U32_UNAVAILABLE		0xffffffffU
#define HM_IOAM_U56_UNAVAILABLE		0xffffffffffffffULL
#define HM_IOAM_U64_UNAVAILABLE		0xffffffffffffffffULL

/*
 * IOAM-Trace-Type bits (RFC 9197 §4.4.1). The field is 24 bits wide and
 * bit 0 is its most significant bit, so bit n is (1 << (23 - n)) in the
 * host-order value, the same value `ip ioam` and `hopmark` take on the
 * command line (0x800000 = bit 0).
 */
#define HM_IOAM_TT_BIT(n)		(1U << (23 - (n)))
#define HM_IOAM_TT_HOPLIM_NODEID	HM_IOAM_TT_BIT(0)	/* 4 octets */
#define HM_IOAM_TT_IF_IDS		HM_IOAM_TT_BIT(1)	/* 4 octets */
#define HM_IOAM_TT_TS_SEC		HM_IOAM_TT_BIT(2)	/* 4 octets */
#define HM_IOAM_TT_TS_FRAC		HM_IOAM_TT_BIT(3)	/* 4 octets */
#define HM_IOAM_TT_TRANSIT_DELAY	HM_IOAM_TT_BIT(4)	/* 4 octets */
#define HM_IOAM_TT_NS_DATA		HM_IOAM_TT_BIT(5)	/* 4 octets */
#define HM_IOAM_TT_QUEUE_DEPTH		HM_IOAM_TT_BIT(6)	/* 4 octets */
#define HM_IOAM_TT_CSUM_COMPL		HM_IOAM_TT_BIT(7)	/* 4 octets */
#define HM_IOAM_TT_HOPLIM_NODEID_WIDE	HM_IOAM_TT_BIT(8)	/* 8 octets */
#define HM_IOAM_TT_IF_IDS_WIDE		HM_IOAM_TT_BIT(9)	/* 8 octets */
#define HM_IOAM_TT_NS_DATA_WIDE		HM_IOAM_TT_BIT(10)	/* 8 octets */
#define HM_IOAM_TT_BUFFER_OCC		HM_IOAM_TT_BIT(11)	/* 4 octets */
/* Bits 12-21 are undefined: 4 octets each of 0xffffffff (§4.4.1 option 1). */
#define HM_IOAM_TT_UNDEFINED_MASK	0x000ffcU
#define HM_IOAM_TT_OPAQUE		HM_IOAM_TT_BIT(22)	/* variable, not in NodeLen */
#define HM_IOAM_TT_RESERVED		HM_IOAM_TT_BIT(23)	/* ignored on receipt */
#define HM_IOAM_TT_WIDE_MASK		(HM_IOAM_TT_BIT(8) | HM_IOAM_TT_BIT(9) | \
					 HM_IOAM_TT_BIT(10))
#define HM_IOAM_TT_MASK			0xffffffU
/*
 * The bits an IOAM encapsulating node may set (RFC 9197 §4.4.1): 0-11 and
 * 22 (0xfff002). It MUST set each undefined bit 12-21 to 0 and the
 * reserved bit 23 to 0 on transmission; a transit node still accepts them
 * (0xffffffff per undefined bit, bit 23 ignored). The CLI refuses the
 * others before sending, the kernel module's HOPMARK_CMD_IF_SET refuses
 * them in HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE.
 */
#define HM_IOAM_TT_ENCAP_MASK		(HM_IOAM_TT_MASK & ~(HM_IOAM_TT_UNDEFINED_MASK | \
							     HM_IOAM_TT_RESERVED))

/* Overflow flag: first of the 4 Flags bits, bit 2 of the third octet. */
#define HM_IOAM_TRACE_F_OVERFLOW	0x04
/* RemainingLen: the low 7 bits of the fourth octet (the top one a Flag). */
#define HM_IOAM_TRACE_REMLEN_MASK	0x7f

/**
 * struct hm_ioam6_opt_hdr - IPv6 option TLV head of an IOAM option
 * @opt_type:	IPv6 option type, %HM_IPV6_TLV_IOAM (RFC 9486 §2)
 * @opt_len:	option data length in bytes (everything after this octet)
 * @reserved:	zero on transmission (RFC 9486 §2.1)
 * @ioam_type:	IOAM Option-Type, e.g. %HM_IOAM_OPT_PREALLOC_TRACE
 *
 * The option must start at a 4n offset in the Hop-by-Hop header so that
 * the trace header after it is 4-octet aligned (RFC 9486 §2.1, 4n
 * alignment); Linux drops IOAM options that are not.
 */
struct hm_ioam6_opt_hdr {
	__u8	opt_type;
	__u8	opt_len;
	__u8	reserved;
	__u8	ioam_type;
} __attribute__((packed));

/**
 * struct hm_ioam6_trace_hdr - IOAM trace option header (RFC 9197 §4.4)
 * @namespace_id:	IOAM-Namespace, network byte order
 * @nodelen_flags:	NodeLen (high 5 bits, 4-octet words) and the first
 *			3 Flags bits (%HM_IOAM_TRACE_F_OVERFLOW)
 * @remlen:		last Flags bit (0x80) and RemainingLen (low 7 bits,
 *			4-octet words of unused data area)
 * @trace_type:		IOAM-Trace-Type, 24 bits, network byte order
 * @reserved:		zero on transmission
 *
 * The node data list follows: RemainingLen words still free, then the
 * data of the nodes already traversed, most recent first.
 */
struct hm_ioam6_trace_hdr {
	__be16	namespace_id;
	__u8	nodelen_flags;
	__u8	remlen;
	__u8	trace_type[3];
	__u8	reserved;
} __attribute__((packed));

/**
 * struct hm_ioam6_node_values - one node's data, host byte order
 * @present:		IOAM-Trace-Type bits this node data carries (decoder
 *			output; the encoder takes the trace type separately)
 * @hop_limit:		Hop_Lim (§4.4.2.1), also used for the wide format
 * @node_id:		short node_id, 24 bits (§4.4.2.1)
 * @ingress_if:		short ingress_if_id (§4.4.2.2)
 * @egress_if:		short egress_if_id (§4.4.2.2)
 * @ts_sec:		timestamp seconds (§4.4.2.3), POSIX seconds
 * @ts_frac:		timestamp fraction (§4.4.2.4), microseconds like Linux
 * @transit_delay:	transit delay in ns (§4.4.2.5); top bit is its overflow
 * @ns_data:		namespace specific data, short (§4.4.2.6)
 * @queue_depth:	queue depth in bytes of qdisc backlog (§4.4.2.7)
 * @csum_compl:		checksum complement (§4.4.2.8)
 * @node_id_wide:	wide node_id, 56 bits (§4.4.2.9)
 * @ingress_if_wide:	wide ingress_if_id (§4.4.2.10)
 * @egress_if_wide:	wide egress_if_id (§4.4.2.10)
 * @ns_data_wide:	namespace specific data, wide (§4.4.2.11)
 * @buffer_occupancy:	buffer occupancy in bytes (§4.4.2.12)
 * @opaque_len:		opaque state snapshot length, 4-octet words (§4.4.2.13)
 * @opaque_schema:	opaque state snapshot Schema ID, 24 bits
 *
 * Every field not available to a node holds the all-ones value of its width.
 */
struct hm_ioam6_node_values {
	__u32	present;
	__u8	hop_limit;
	__u8	opaque_len;
	__u16	ingress_if;
	__u16	egress_if;
	__u16	pad;
	__u32	node_id;
	__u32	ts_sec;
	__u32	ts_frac;
	__u32	transit_delay;
	__u32	ns_data;
	__u32	queue_depth;
	__u32	csum_compl;
	__u32	ingress_if_wide;
	__u32	egress_if_wide;
	__u32	buffer_occupancy;
	__u32	opaque_schema;
	__u64	node_id_wide;
	__u64	ns_data_wide;
};

/**
 * hm_ioam6_trace_nodelen() - NodeLen implied by an IOAM-Trace-Type
 * @trace_type: 24-bit IOAM-Trace-Type, host order
 *
 * RFC 9197 §4.4: NodeLen counts the fixed-size data fields of one node
 * (bits 0-11 and, as 4-octet fields, the undefined bits 12-21); the opaque
 * state snapshot (bit 22) is variable and not included.
 *
 * Return: NodeLen in 4-octet words (0..25).
 */
static inline __u32 hm_ioam6_trace_nodelen(__u32 trace_type)
{
	__u32 t = trace_type & HM_IOAM_TT_MASK;
	__u32 words = 0;
	__u32 i;

	/* Bits 0-21: one word each, plus one more for the three wide ones. */
	for (i = 0; i < 22; i++)
		words += (t >> (23 - i)) & 1;
	if (t & HM_IOAM_TT_HOPLIM_NODEID_WIDE)
		words++;
	if (t & HM_IOAM_TT_IF_IDS_WIDE)
		words++;
	if (t & HM_IOAM_TT_NS_DATA_WIDE)
		words++;
	return words;
}

/**
 * hm_ioam6_node_data_len() - bytes one node writes for an IOAM-Trace-Type
 * @trace_type: 24-bit IOAM-Trace-Type, host order
 *
 * RFC 9197 §4.4: NodeLen words, plus the 4-octet header of an (empty)
 * opaque state snapshot when bit 22 is set.
 *
 * Return: bytes (0..104).
 */
static inline __u32 hm_ioam6_node_data_len(__u32 trace_type)
{
	return hm_ioam6_trace_nodelen(trace_type) * 4 +
	       (trace_type & HM_IOAM_TT_OPAQUE ? 4 : 0);
}

/**
 * hm_ioam6_trace_get_type() - IOAM-Trace-Type of a trace header
 * @h: trace header
 *
 * Return: the 24-bit IOAM-Trace-Type in host order.
 */
static inline __u32 hm_ioam6_trace_get_type(const struct hm_ioam6_trace_hdr *h)
{
	return ((__u32)h->trace_type[0] << 16) | ((__u32)h->trace_type[1] << 8) |
	       h->trace_type[2];
}

/**
 * hm_ioam6_trace_set_type() - store an IOAM-Trace-Type in a trace header
 * @h: trace header
 * @trace_type: 24-bit IOAM-Trace-Type, host order
 */
static inline void hm_ioam6_trace_set_type(struct hm_ioam6_trace_hdr *h, __u32 trace_type)
{
	h->trace_type[0] = (trace_type >> 16) & 0xff;
	h->trace_type[1] = (trace_type >> 8) & 0xff;
	h->trace_type[2] = trace_type & 0xff;
}

/** hm_ioam6_trace_nodelen_of() - NodeLen field of a trace header, in words */
static inline __u32 hm_ioam6_trace_nodelen_of(const struct hm_ioam6_trace_hdr *h)
{
	return h->nodelen_flags >> 3;
}

/** hm_ioam6_trace_remlen_of() - RemainingLen field of a trace header, in words */
static inline __u32 hm_ioam6_trace_remlen_of(const struct hm_ioam6_trace_hdr *h)
{
	return h->remlen & HM_IOAM_TRACE_REMLEN_MASK;
}

/** hm_ioam6_trace_overflow() - whether the Overflow flag is set */
static inline int hm_ioam6_trace_overflow(const struct hm_ioam6_trace_hdr *h)
{
	return !!(h->nodelen_flags & HM_IOAM_TRACE_F_OVERFLOW);
}

/*
 * Most bytes one node's data can take (hm_ioam6_node_data_len() of every
 * bit): NodeLen 25 (bits 0-21, the three wide ones twice) + the 4-octet
 * header of an empty opaque state snapshot.
 */
#define HM_IOAM_NODE_DATA_MAX	(25 * 4 + 4)

/**
 * hm_ioam6_node_data_encode() - write one node's data in wire format
 * @buf:	  output, at least NodeLen * 4 bytes (+ 4 with bit 22)
 * @trace_type:	  24-bit IOAM-Trace-Type, host order
 * @v:		  the node's values, host order
 *
 * Writes the fields selected by @trace_type in the order of RFC 9197
 * §4.4.2 (bit 0 first), big-endian; each undefined bit 12-21 adds
 * 0xffffffff (§4.4.1); bit 22 adds an opaque state snapshot header of
 * @v->opaque_len words and @v->opaque_schema, with no snapshot data (a
 * node that has no schema writes length 0 and Schema ID 0xffffff).
 *
 * Return: number of bytes written (NodeLen * 4, plus 4 with bit 22).
 */
static inline __u32 hm_ioam6_node_data_encode(__u8 *buf, __u32 trace_type,
					      const struct hm_ioam6_node_values *v)
{
	__u32 off = 0;
	__u32 i;

	if (trace_type & HM_IOAM_TT_HOPLIM_NODEID) {
		hm_put_be32(buf + off, v->node_id & HM_IOAM_U24_UNAVAILABLE);
		buf[off] = v->hop_limit;
		off += 4;
	}
	if (trace_type & HM_IOAM_TT_IF_IDS) {
		hm_put_be16(buf + off, v->ingress_if);
		hm_put_be16(buf + off + 2, v->egress_if);
		off += 4;
	}
	if (trace_type & HM_IOAM_TT_TS_SEC) {
		hm_put_be32(buf + off, v->ts_sec);
		off += 4;
	}
	if (trace_type & HM_IOAM_TT_TS_FRAC) {
		hm_put_be32(buf + off, v->ts_frac);
		off += 4;
	}
	if (trace_type & HM_IOAM_TT_TRANSIT_DELAY) {
		hm_put_be32(buf + off, v->transit_delay);
		off += 4;
	}
	if (trace_type & HM_IOAM_TT_NS_DATA) {
		hm_put_be32(buf + off, v->ns_data);
		off += 4;
	}
	if (trace_type & HM_IOAM_TT_QUEUE_DEPTH) {
		hm_put_be32(buf + off, v->queue_depth);
		off += 4;
	}
	if (trace_type & HM_IOAM_TT_CSUM_COMPL) {
		hm_put_be32(buf + off, v->csum_compl);
		off += 4;
	}
	if (trace_type & HM_IOAM_TT_HOPLIM_NODEID_WIDE) {
		hm_put_be32(buf + off, (__u32)(v->node_id_wide >> 32) & 0xffffff);
		buf[off] = v->hop_limit;
		hm_put_be32(buf + off + 4, (__u32)v->node_id_wide);
		off += 8;
	}
	if (trace_type & HM_IOAM_TT_IF_IDS_WIDE) {
		hm_put_be32(buf + off, v->ingress_if_wide);
		hm_put_be32(buf + off + 4, v->egress_if_wide);
		off += 8;
	}
	if (trace_type & HM_IOAM_TT_NS_DATA_WIDE) {
		hm_put_be32(buf + off, (__u32)(v->ns_data_wide >> 32));
		hm_put_be32(buf + off + 4, (__u32)v->ns_data_wide);
		off += 8;
	}
	if (trace_type & HM_IOAM_TT_BUFFER_OCC) {
		hm_put_be32(buf + off, v->buffer_occupancy);
		off += 4;
	}
	for (i = 12; i < 22; i++) {
		if (trace_type & HM_IOAM_TT_BIT(i)) {
			hm_put_be32(buf + off, HM_IOAM_U32_UNAVAILABLE);
			off += 4;
		}
	}
	if (trace_type & HM_IOAM_TT_OPAQUE) {
		hm_put_be32(buf + off, v->opaque_schema & HM_IOAM_U24_UNAVAILABLE);
		buf[off] = v->opaque_len;
		off += 4;
	}
	return off;
}

/*
 * IOAM-E2E-Type bits (RFC 9197 §4.6), bit 0 the most significant of the
 * 16: the E2E data follows the header in this order, network byte order.
 * Bits 4-15 are undefined: sent as 0, ignored on receipt.
 */
#define HM_IOAM_E2E_SEQ64		0x8000	/* 64-bit Sequence Number */
#define HM_IOAM_E2E_SEQ32		0x4000	/* 32-bit Sequence Number */
#define HM_IOAM_E2E_TS_SEC		0x2000	/* timestamp seconds, 32 bits */
#define HM_IOAM_E2E_TS_FRAC		0x1000	/* timestamp fraction, 32 bits */
#define HM_IOAM_E2E_DEFINED		0xf000

/**
 * struct hm_ioam6_e2e_hdr - IOAM Edge-to-Edge option header (RFC 9197 §4.6)
 * @namespace_id:	IOAM-Namespace, network byte order
 * @e2e_type:		IOAM-E2E-Type, network byte order (%HM_IOAM_E2E_*)
 */
struct hm_ioam6_e2e_hdr {
	__be16	namespace_id;
	__be16	e2e_type;
} __attribute__((packed));

/**
 * hm_ioam6_e2e_data_len() - bytes of E2E data an IOAM-E2E-Type selects
 * @e2e_type: IOAM-E2E-Type, host order
 *
 * Return: bytes (0..20); undefined bits add nothing.
 */
static inline __u32 hm_ioam6_e2e_data_len(__u16 e2e_type)
{
	return (e2e_type & HM_IOAM_E2E_SEQ64 ? 8 : 0) +
	       (e2e_type & HM_IOAM_E2E_SEQ32 ? 4 : 0) +
	       (e2e_type & HM_IOAM_E2E_TS_SEC ? 4 : 0) +
	       (e2e_type & HM_IOAM_E2E_TS_FRAC ? 4 : 0);
}

/*
 * DEX Extension-Flags (RFC 9326 §3.2, IANA "IOAM DEX Extension-Flags"),
 * bit 0 the most significant: each set flag, assigned or not, announces a
 * 4-octet optional field after the header, in bit order. Bits 2-7 are
 * unassigned: a sender that knows only these two leaves them 0, a node
 * that finds one set skips its field (it comes after Flow ID and Sequence
 * Number).
 */
#define HM_IOAM_DEX_EXT_FLOW_ID		0x80
#define HM_IOAM_DEX_EXT_SEQ		0x40
#define HM_IOAM_DEX_EXT_DEFINED		(HM_IOAM_DEX_EXT_FLOW_ID | HM_IOAM_DEX_EXT_SEQ)

/**
 * struct hm_ioam6_dex_hdr - IOAM Direct Export option header (RFC 9326 §3.2)
 * @namespace_id:	IOAM-Namespace, network byte order
 * @flags:		Flags, none assigned, zero on transmission
 * @ext_flags:		Extension-Flags (%HM_IOAM_DEX_EXT_*)
 * @trace_type:		IOAM-Trace-Type of the data to export, 24 bits,
 *			network byte order (same bits as RFC 9197 §4.4.1)
 * @reserved:		zero on transmission
 *
 * Optional fields follow: Flow ID (32 bits) with %HM_IOAM_DEX_EXT_FLOW_ID,
 * then Sequence Number (32 bits) with %HM_IOAM_DEX_EXT_SEQ.
 */
struct hm_ioam6_dex_hdr {
	__be16	namespace_id;
	__u8	flags;
	__u8	ext_flags;
	__u8	trace_type[3];
	__u8	reserved;
} __attribute__((packed));

/**
 * hm_ioam6_dex_ext_len() - bytes of optional fields the Extension-Flags announce
 * @ext_flags: Extension-Flags octet
 *
 * RFC 9326 §3.2: one 4-octet optional field per flag set, in the order of
 * the bits, unassigned ones included (a future flag's field is 4 octets
 * too), so an option shorter than its header plus this is truncated
 * whichever flags the reader knows.
 *
 * Return: 4 for each flag set (0..32).
 */
static inline __u32 hm_ioam6_dex_ext_len(__u8 ext_flags)
{
	__u32 n = 0;

	for (; ext_flags; ext_flags &= ext_flags - 1)
		n++;
	return 4 * n;
}

#endif /* __HOPMARK_IOAM6_H */
