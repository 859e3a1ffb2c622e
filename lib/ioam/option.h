/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * option.h - the IOAM options of a packet that are not the Pre-allocated
 * Trace a record is built from (trace.h): each IOAM option of a Hop-by-Hop
 * header in turn (RFC 9486 §2), and the fields of a Direct Export option
 * (RFC 9326 §3.2). option.c; `hopmark decode` reports them with these.
 * The wire format is ioam6.h.
 */
#ifndef __HOPMARK_IOAM_OPTION_H
#define __HOPMARK_IOAM_OPTION_H

#include <stddef.h>
#include <linux/types.h>

#include "ioam/ioam6.h"

/**
 * hm_ioam_next_option() - the next IOAM option of a Hop-by-Hop header
 * @pkt:	packet from its IPv6 header on
 * @len:	bytes at @pkt (as captured)
 * @pos:	cursor: 0 before the first call, then left as the last call
 *		set it (the offset after the option returned)
 * @opt_off:	output: offset in @pkt of the option's IPv6 option type
 *		octet (0x31); its Opt Data Len is @pkt[*@opt_off + 1], its
 *		IOAM Option-Type @pkt[*@opt_off + 3]
 *
 * Walks the TLVs of the Hop-by-Hop Options header (RFC 8200 §4.3), which
 * must directly follow the IPv6 header and be captured for at least 8
 * octets, up to the end of the header or of the capture, whichever comes
 * first. Pad1 is one octet; every other TLV is stepped over by its length.
 * The walk ends at a TLV that runs past that end. IOAM options (type 0x31)
 * with fewer than the 2 data octets of Reserved and IOAM Option-Type are
 * stepped over. Unlike hm_ipv6_find_ioam() it checks no alignment: it
 * reports what the packet holds.
 *
 * Return: 1 with *@opt_off set, the whole option lying inside @len; 0 when
 * there is no further IOAM option.
 */
int hm_ioam_next_option(const __u8 *pkt, size_t len, size_t *pos, size_t *opt_off);

/* Bits of struct hm_ioam_dex.present. */
#define HM_IOAM_DEX_HAS_FLOW_ID		(1U << 0)
#define HM_IOAM_DEX_HAS_SEQ		(1U << 1)

/**
 * struct hm_ioam_dex - a decoded IOAM Direct Export option (RFC 9326 §3.2)
 * @ns_id:	IOAM-Namespace
 * @flags:	Flags octet (none assigned)
 * @ext_flags:	Extension-Flags octet (%HM_IOAM_DEX_EXT_*; other bits are
 *		unassigned and add no field)
 * @trace_type:	24-bit IOAM-Trace-Type, host order (bit 0 = 0x800000)
 * @present:	%HM_IOAM_DEX_HAS_* for the optional fields decoded below
 * @flow_id:	Flow ID, with %HM_IOAM_DEX_HAS_FLOW_ID
 * @seq:	Sequence Number, with %HM_IOAM_DEX_HAS_SEQ
 * @need:	bytes of option data the header and the assigned
 *		Extension-Flags call for (8, 12 or 16)
 * @rest_off:	offset in the option data of the first byte not
 *		interpreted (the end of the last field decoded)
 * @rest_len:	bytes from @rest_off to the end of the option data
 */
struct hm_ioam_dex {
	__u16	ns_id;
	__u8	flags;
	__u8	ext_flags;
	__u32	trace_type;
	__u32	present;
	__u32	flow_id;
	__u32	seq;
	size_t	need;
	size_t	rest_off;
	size_t	rest_len;
};

/**
 * hm_ioam_dex_decode() - decode the data of an IOAM Direct Export option
 * @data:	option data after the IOAM Option-Type octet: the 8-octet
 *		header (struct hm_ioam6_dex_hdr) and its optional fields
 * @len:	bytes of option data (the option's Opt Data Len minus the
 *		Reserved and IOAM Option-Type octets)
 * @dex:	output
 *
 * RFC 9326 §3.2: IOAM-Namespace (16 bits), Flags (8), Extension-Flags (8),
 * IOAM-Trace-Type (24), Reserved (8), then a 32-bit Flow ID if
 * Extension-Flags bit 0 (0x80) is set and a 32-bit Sequence Number if bit 1
 * (0x40) is, in that order, big-endian.
 *
 * Return: 0 when the header and every field its Extension-Flags announce
 * are there (bytes beyond them are left in @dex->rest_off/rest_len);
 * -EMSGSIZE if @len is shorter than the 8-octet header (@dex is zeroed,
 * its @need is 8); -EINVAL if an announced field is cut: the header and
 * the fields that fit are decoded, @dex->need says how many bytes the
 * Extension-Flags call for.
 */
int hm_ioam_dex_decode(const __u8 *data, size_t len, struct hm_ioam_dex *dex);

#endif /* __HOPMARK_IOAM_OPTION_H */
