/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * trace.h - a decoded IOAM Pre-allocated Trace option (RFC 9197 §4.4) and
 * its decoder (trace_decode.c). The wire format is ioam6.h.
 *
 * Functions return 0 or a positive count on success and a negative errno on
 * failure, as the kernel does, unless their comment says otherwise.
 */
#ifndef __HOPMARK_IOAM_TRACE_H
#define __HOPMARK_IOAM_TRACE_H

#include <stddef.h>
#include <linux/types.h>

#include "ioam/ioam6.h"

/* Most node data entries a decoded trace can hold (244 / 4). */
#define HM_MAX_HOPS	61

/**
 * struct hm_ioam_trace - a decoded IOAM Pre-allocated Trace option
 * @ns_id:	IOAM-Namespace
 * @nodelen:	NodeLen, 4-octet words
 * @remlen:	RemainingLen, 4-octet words
 * @overflow:	Overflow flag
 * @trace_type:	24-bit IOAM-Trace-Type, host order
 * @data_len:	size of the node data list area in bytes
 * @n_nodes:	number of node data entries in @nodes
 * @nodes:	node data in path order: @nodes[0] is the first node that
 *		wrote (nearest the encapsulating node), the last entry the most
 *		recent. On the wire the order is the reverse (RFC 9197 §4.4).
 */
struct hm_ioam_trace {
	__u16	ns_id;
	__u8	nodelen;
	__u8	remlen;
	__u8	overflow;
	__u32	trace_type;
	__u32	data_len;
	unsigned int n_nodes;
	struct hm_ioam6_node_values nodes[HM_MAX_HOPS];
};

/**
 * hm_ioam_trace_decode() - decode an IOAM Pre-allocated Trace option
 * @opt:	the option from its IPv6 option type octet (0x31) on
 * @len:	bytes available at @opt
 * @trace:	output
 *
 * Checks what RFC 9197 §4.4 and RFC 9486 require: option type 0x31 and
 * IOAM Option-Type 0 (pre-allocated trace), option length covering the
 * trace header, NodeLen equal to what the IOAM-Trace-Type implies,
 * RemainingLen inside the data area, whole node data entries after it
 * (opaque state snapshots are walked by their length).
 *
 * Return: 0; -EMSGSIZE if @len is shorter than the option says;
 * -EPROTONOSUPPORT for another IOAM Option-Type; -EINVAL for a malformed
 * or inconsistent trace.
 */
int hm_ioam_trace_decode(const __u8 *opt, size_t len, struct hm_ioam_trace *trace);

#endif /* __HOPMARK_IOAM_TRACE_H */
