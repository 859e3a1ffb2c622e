/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ioam6_trace.h - IOAM Pre-allocated Trace (RFC 9197 §4.4) carried in an
 * IPv6 Hop-by-Hop Options header (RFC 9486): wire layout and node data
 * encoding shared by the BPF programs (bpf/), libhopmark and the tests.
 *
 * Everything here is header-only, free of libc, and safe to include from a
 * BPF program: byte order is handled with explicit shifts, never htonl().
 *
 * Terms follow RFC 9197: IOAM-Namespace, NodeLen, Flags (the Overflow flag),
 * RemainingLen, IOAM-Trace-Type. Units: NodeLen and RemainingLen count
 * 4-octet words; the data area is sized in bytes.
 */
#ifndef __HOPMARK_IOAM6_TRACE_H
#define __HOPMARK_IOAM6_TRACE_H

#include <linux/types.h>

/* RFC 9486 §2: IPv6 option type of IOAM (act 00, chg 1, rest 10001). */
#define HM_IPV6_TLV_IOAM		0x31
#define HM_IPV6_TLV_PAD1		0x00
#define HM_IPV6_TLV_PADN		0x01

/* IOAM Option-Type values (RFC 9197 §4.1, RFC 9326 §3). */
#define HM_IOAM_OPT_PREALLOC_TRACE	0
#define HM_IOAM_OPT_INCREMENTAL_TRACE	1
#define HM_IOAM_OPT_POT			2
#define HM_IOAM_OPT_E2E			3
#define HM_IOAM_OPT_DEX			4

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

/* Overflow flag: first of the 4 Flags bits, bit 2 of the third octet. */
#define HM_IOAM_TRACE_F_OVERFLOW	0x04

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
	return h->remlen & 0x7f;
}

/** hm_ioam6_trace_overflow() - whether the Overflow flag is set */
static inline int hm_ioam6_trace_overflow(const struct hm_ioam6_trace_hdr *h)
{
	return !!(h->nodelen_flags & HM_IOAM_TRACE_F_OVERFLOW);
}

static inline void hm_put_be16(__u8 *p, __u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void hm_put_be32(__u8 *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline __u16 hm_get_be16(const __u8 *p)
{
	return ((__u16)p[0] << 8) | p[1];
}

static inline __u32 hm_get_be32(const __u8 *p)
{
	return ((__u32)p[0] << 24) | ((__u32)p[1] << 16) | ((__u32)p[2] << 8) | p[3];
}

/* Size in bytes of the node data up to and including fixed field @bit (0-21). */
#define HM_IOAM_NODE_DATA_MAX	(25 * 4 + 4)	/* fixed fields + empty snapshot */

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

#endif /* __HOPMARK_IOAM6_TRACE_H */
