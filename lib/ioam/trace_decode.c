// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * trace_decode.c - decode an IOAM Pre-allocated Trace option
 * (RFC 9197 §4.4) carried in an IPv6 Hop-by-Hop header (RFC 9486 §2).
 *
 * The decoder trusts nothing: every length is checked against the bytes
 * at hand before it is used, and the trace header is checked for the
 * consistency RFC 9197 requires (NodeLen against the IOAM-Trace-Type,
 * RemainingLen inside the data area, whole node data entries after it).
 */
#include <errno.h>
#include <string.h>

#include "ioam/trace.h"

_Static_assert(HM_IOAM_OPT_HDR_LEN == sizeof(struct hm_ioam6_opt_hdr) &&
	       HM_IOAM_TRACE_HDR_LEN == sizeof(struct hm_ioam6_trace_hdr),
	       "IOAM option and trace header sizes");

/* Every field of @v at the all-ones value RFC 9197 §4.4.2 uses for "unavailable". */
static void hm_node_values_unavailable(struct hm_ioam6_node_values *v)
{
	memset(v, 0, sizeof(*v));
	v->hop_limit = HM_IOAM_U8_UNAVAILABLE;
	v->node_id = HM_IOAM_U24_UNAVAILABLE;
	v->ingress_if = HM_IOAM_U16_UNAVAILABLE;
	v->egress_if = HM_IOAM_U16_UNAVAILABLE;
	v->ts_sec = HM_IOAM_U32_UNAVAILABLE;
	v->ts_frac = HM_IOAM_U32_UNAVAILABLE;
	v->transit_delay = HM_IOAM_U32_UNAVAILABLE;
	v->ns_data = HM_IOAM_U32_UNAVAILABLE;
	v->queue_depth = HM_IOAM_U32_UNAVAILABLE;
	v->csum_compl = HM_IOAM_U32_UNAVAILABLE;
	v->node_id_wide = HM_IOAM_U56_UNAVAILABLE;
	v->ingress_if_wide = HM_IOAM_U32_UNAVAILABLE;
	v->egress_if_wide = HM_IOAM_U32_UNAVAILABLE;
	v->ns_data_wide = HM_IOAM_U64_UNAVAILABLE;
	v->buffer_occupancy = HM_IOAM_U32_UNAVAILABLE;
	v->opaque_len = 0;
	v->opaque_schema = HM_IOAM_U24_UNAVAILABLE;
}

/*
 * Decode the fixed-size fields of one node data entry (NodeLen * 4 bytes at
 * @p, already bounds-checked by the caller), in the order of RFC 9197
 * §4.4.2: the mirror image of hm_ioam6_node_data_encode().
 */
static void hm_node_data_decode(const __u8 *p, __u32 tt, struct hm_ioam6_node_values *v)
{
	__u32 off = 0;

	hm_node_values_unavailable(v);
	v->present = tt & HM_IOAM_TT_MASK & ~HM_IOAM_TT_RESERVED;

	if (tt & HM_IOAM_TT_HOPLIM_NODEID) {
		v->hop_limit = p[off];
		v->node_id = hm_get_be32(p + off) & HM_IOAM_U24_UNAVAILABLE;
		off += 4;
	}
	if (tt & HM_IOAM_TT_IF_IDS) {
		v->ingress_if = hm_get_be16(p + off);
		v->egress_if = hm_get_be16(p + off + 2);
		off += 4;
	}
	if (tt & HM_IOAM_TT_TS_SEC) {
		v->ts_sec = hm_get_be32(p + off);
		off += 4;
	}
	if (tt & HM_IOAM_TT_TS_FRAC) {
		v->ts_frac = hm_get_be32(p + off);
		off += 4;
	}
	if (tt & HM_IOAM_TT_TRANSIT_DELAY) {
		v->transit_delay = hm_get_be32(p + off);
		off += 4;
	}
	if (tt & HM_IOAM_TT_NS_DATA) {
		v->ns_data = hm_get_be32(p + off);
		off += 4;
	}
	if (tt & HM_IOAM_TT_QUEUE_DEPTH) {
		v->queue_depth = hm_get_be32(p + off);
		off += 4;
	}
	if (tt & HM_IOAM_TT_CSUM_COMPL) {
		v->csum_compl = hm_get_be32(p + off);
		off += 4;
	}
	if (tt & HM_IOAM_TT_HOPLIM_NODEID_WIDE) {
		/* Both formats carry the same Hop_Lim; the short one wins if both. */
		if (!(tt & HM_IOAM_TT_HOPLIM_NODEID))
			v->hop_limit = p[off];
		v->node_id_wide = ((__u64)(hm_get_be32(p + off) & 0xffffff) << 32) |
				  hm_get_be32(p + off + 4);
		off += 8;
	}
	if (tt & HM_IOAM_TT_IF_IDS_WIDE) {
		v->ingress_if_wide = hm_get_be32(p + off);
		v->egress_if_wide = hm_get_be32(p + off + 4);
		off += 8;
	}
	if (tt & HM_IOAM_TT_NS_DATA_WIDE) {
		v->ns_data_wide = ((__u64)hm_get_be32(p + off) << 32) |
				  hm_get_be32(p + off + 4);
		off += 8;
	}
	if (tt & HM_IOAM_TT_BUFFER_OCC)
		v->buffer_occupancy = hm_get_be32(p + off);
	/* Bits 12-21 follow: undefined fields, skipped as 4 octets each. */
}

/**
 * hm_ioam_trace_decode() - decode an IOAM Pre-allocated Trace option
 * @opt:	the option from its IPv6 option type octet (0x31) on
 * @len:	bytes available at @opt
 * @trace:	output; on error its content is unspecified
 *
 * Validation, in the order RFC 9486 §2.1 and RFC 9197 §4.4 lay the option
 * out: IPv6 option type 0x31; option length covered by @len; IOAM
 * Option-Type 0; an 8-octet trace header; a data area that is a whole
 * number of 4-octet words (at most %HM_IOAM_TRACE_DATA_MAX bytes); NodeLen
 * equal to hm_ioam6_trace_nodelen() of the IOAM-Trace-Type; RemainingLen *
 * 4 not beyond the data area; node data entries filling the rest exactly,
 * each NodeLen * 4 bytes plus, with bit 22, a 4-octet opaque state snapshot
 * header and its Length (4-octet words) of snapshot data. Bit 23 is
 * ignored (§4.4.1: reserved, ignored on receipt); bits 12-21 count as
 * 4-octet fields (§4.4.1, undefined bits). The Overflow flag is reported,
 * not judged. Decoded fields not carried by the IOAM-Trace-Type, and those
 * a node marked unavailable, hold the all-ones value of their width.
 *
 * Return: 0; -EMSGSIZE if @len is shorter than the option says (or than
 * the option TLV head); -EPROTONOSUPPORT for an IOAM Option-Type other
 * than 0 (e.g. 4, Direct Export, RFC 9326); -EINVAL for a wrong option
 * type or a malformed or inconsistent trace.
 */
int hm_ioam_trace_decode(const __u8 *opt, size_t len, struct hm_ioam_trace *trace)
{
	const struct hm_ioam6_trace_hdr *th;
	const __u8 *data;
	const __u8 *entry[HM_MAX_HOPS];
	__u32 tt, nodelen, fixed, off, data_len, optlen;
	unsigned int n = 0, i;

	if (!opt || !trace)
		return -EINVAL;
	memset(trace, 0, offsetof(struct hm_ioam_trace, nodes));
	if (len < 2)
		return -EMSGSIZE;
	if (opt[0] != HM_IPV6_TLV_IOAM)
		return -EINVAL;
	optlen = opt[1];
	if (len < 2 + (size_t)optlen)
		return -EMSGSIZE;
	if (optlen < 2)
		return -EINVAL;
	if (opt[3] != HM_IOAM_OPT_PREALLOC_TRACE)
		return -EPROTONOSUPPORT;
	if (HM_IOAM_OPT_HDR_LEN + HM_IOAM_TRACE_HDR_LEN > 2 + (size_t)optlen)
		return -EINVAL;

	th = (const struct hm_ioam6_trace_hdr *)(opt + HM_IOAM_OPT_HDR_LEN);
	data = opt + HM_IOAM_OPT_HDR_LEN + HM_IOAM_TRACE_HDR_LEN;
	data_len = 2 + optlen - HM_IOAM_OPT_HDR_LEN - HM_IOAM_TRACE_HDR_LEN;
	tt = hm_ioam6_trace_get_type(th);

	trace->ns_id = hm_get_be16((const __u8 *)&th->namespace_id);
	trace->nodelen = hm_ioam6_trace_nodelen_of(th);
	trace->remlen = hm_ioam6_trace_remlen_of(th);
	trace->overflow = hm_ioam6_trace_overflow(th);
	trace->trace_type = tt;
	trace->data_len = data_len;

	if (data_len % 4 || data_len > HM_IOAM_TRACE_DATA_MAX)
		return -EINVAL;
	nodelen = hm_ioam6_trace_nodelen(tt);
	if (trace->nodelen != nodelen)
		return -EINVAL;
	off = trace->remlen * 4;
	if (off > data_len)
		return -EINVAL;

	/* Entries from RemainingLen on, most recent first (§4.4). */
	fixed = nodelen * 4;
	while (off < data_len) {
		__u32 size = fixed;

		if (!(tt & HM_IOAM_TT_OPAQUE) && !fixed)
			return -EINVAL;	/* no field, yet data after RemainingLen */
		if (tt & HM_IOAM_TT_OPAQUE) {
			if (data_len - off < fixed + 4)
				return -EINVAL;
			size += 4 + data[off + fixed] * 4;
		}
		if (data_len - off < size || n == HM_MAX_HOPS)
			return -EINVAL;
		entry[n++] = data + off;
		off += size;
	}

	/* Path order is the reverse of the wire order. */
	for (i = 0; i < n; i++) {
		struct hm_ioam6_node_values *v = &trace->nodes[i];
		const __u8 *p = entry[n - 1 - i];

		hm_node_data_decode(p, tt, v);
		if (tt & HM_IOAM_TT_OPAQUE) {
			v->opaque_len = p[fixed];
			v->opaque_schema = hm_get_be32(p + fixed) & HM_IOAM_U24_UNAVAILABLE;
		}
	}
	trace->n_nodes = n;
	return 0;
}
