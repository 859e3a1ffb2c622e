/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * report_decode.h - parse a Telemetry Report v2.0 UDP payload
 * (telemetry_report.mdk §3): the group header, then Individual Reports one
 * by one. Userspace only; values in host order (the wire is big-endian).
 * Errors are the -INT_E_* codes of int_decode.h and those below.
 */
#ifndef __HOPMARK_INT_REPORT_DECODE_H
#define __HOPMARK_INT_REPORT_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "int/int.h"
#include "int/int_decode.h"

/**
 * enum int_rpt_err - why a Telemetry Report cannot be decoded (negated)
 * @INT_E_RPT_GROUP:	fewer than the group header's 8 octets (§3.2)
 * @INT_E_RPT_VER:	group header Ver is not 2 (§3.2)
 * @INT_E_RPT_HDR:	an Individual Report header is truncated (fewer than
 *			4 octets left, §3.3)
 * @INT_E_RPT_LEN:	Report Length runs past the end of the payload (§3.3)
 * @INT_E_RPT_MAIN:	a RepType 1 report is shorter than its 8-octet main
 *			contents plus MD Length words (§3.3.1)
 * @INT_E_RPT_MD_LEN:	MD Length is below the words RepMdBits needs, or not
 *			0 for RepType 0 (Inner Only)
 */
enum int_rpt_err {
	INT_E_RPT_GROUP = 32,
	INT_E_RPT_VER,
	INT_E_RPT_HDR,
	INT_E_RPT_LEN,
	INT_E_RPT_MAIN,
	INT_E_RPT_MD_LEN,
	INT_E_RPT_MAX
};

/**
 * int_rpt_strerror() - the text of a report (or INT) decode error
 * @err:	negative -INT_E_* / -INT_E_RPT_* code, or positive
 *
 * Return: a static string.
 */
const char *int_rpt_strerror(int err);

/**
 * struct int_rpt_group_hdr - a decoded Telemetry Group Header (§3.2)
 * @ver:	Ver (2)
 * @hw_id:	hw_id, 6 bits
 * @seq:	Sequence Number, 22 bits
 * @node_id:	Node ID of the reporting node
 */
struct int_rpt_group_hdr {
	__u8	ver;
	__u8	hw_id;
	__u32	seq;
	__u32	node_id;
};

/**
 * struct int_rpt - one decoded Individual Report (§3.3)
 * @rep_type:		RepType (%INT_REP_*)
 * @in_type:		InType (%INT_IN_*)
 * @len:		Report Length field as on the wire (words after the
 *			first; %INT_RPT_LEN_TO_END: to the end of the payload)
 * @to_end:		@len is 0xff: this report runs to the end of the
 *			payload and is the last one
 * @md_len:		MD Length, words of variable metadata
 * @flags:		D Q F I and the reserved nibble (%INT_RPT_F_*)
 * @rep_md_bits:	RepType 1: RepMdBits
 * @ds_id:		RepType 1: Domain Specific ID
 * @ds_md_bits:		RepType 1: DSMdBits
 * @ds_md_status:	RepType 1: DSMdStatus
 * @md:			RepType 1: the node's metadata per RepMdBits (bits
 *			1-8, reserved 9-14 one word each, bit 15 queue ID +
 *			drop reason), DS metadata after it
 * @inner:		inner contents (RepType 0/1: the truncated packet or
 *			TLVs per @in_type; other RepTypes: all the contents)
 * @inner_len:		octets at @inner
 * @off:		offset of the report in the payload
 * @total:		octets the report takes (header included)
 */
struct int_rpt {
	__u8		rep_type;
	__u8		in_type;
	__u8		len;
	bool		to_end;
	__u8		md_len;
	__u8		flags;
	__u16		rep_md_bits;
	__u16		ds_id;
	__u16		ds_md_bits;
	__u16		ds_md_status;
	struct int_hop	md;
	const __u8	*inner;
	size_t		inner_len;
	size_t		off;
	size_t		total;
};

/**
 * int_rpt_group_decode() - the group header at the start of a payload
 * @p:		the UDP payload
 * @len:	its octets
 * @g:		output
 *
 * Return: 0; -INT_E_RPT_GROUP if @len < 8; -INT_E_RPT_VER if Ver != 2 (@g
 * is still filled).
 */
int int_rpt_group_decode(const __u8 *p, size_t len, struct int_rpt_group_hdr *g);

/**
 * int_rpt_next() - the Individual Report at *@off, then move past it
 * @p:		the UDP payload (group header included)
 * @len:	its octets
 * @off:	in: where the report starts (8 after the group header);
 *		out: where the next one would start (@len after a 0xff one)
 * @r:		output
 *
 * Report Length counts the words after the first (PR #79). 0xff means the
 * report runs to the end of the payload and nothing follows (PR #89).
 * RepType 1: 8 octets of main contents, MD Length words of metadata, the
 * rest is the inner contents (Report Length - 2 - MD Length words, §3.3.1).
 * RepType 0: MD Length must be 0; the contents are inner contents.
 * Reserved bits of RepMdBits are read as 4-octet words, as in the INT
 * bitmap; MD Length beyond RepMdBits' words is DS metadata.
 *
 * Return: 1 with @r set; 0 when *@off is at the end (no more reports);
 * a negative -INT_E_RPT_* code for a truncated or inconsistent report
 * (*@off is then left unchanged).
 */
int int_rpt_next(const __u8 *p, size_t len, size_t *off, struct int_rpt *r);

#endif /* __HOPMARK_INT_REPORT_DECODE_H */
