/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * srh.h - the SRv6 Segment Routing Header (RFC 8754 §2), a Routing header
 * of Routing Type 4, and its O-flag (RFC 9259 §2.1). Shared by the kernel
 * module's O-flag handling, the postcard decoder and the tests.
 *
 * Header-only and libc-free. Multi-octet fields are network byte order.
 */
#ifndef __HOPMARK_SRH_H
#define __HOPMARK_SRH_H

#include <linux/types.h>

#define HM_SRH_ROUTING_TYPE	4	/* IANA "Routing Types": Segment Routing */
#define HM_SRH_HDR_LEN		8	/* before the Segment List */
#define HM_SRH_SEGMENT_LEN	16	/* one IPv6 address */

/* Flags: O-flag is bit 2 of the 8-bit field (RFC 9259 §2.1). */
#define HM_SRH_FLAG_O		0x20

/**
 * struct hm_srh - Segment Routing Header, RFC 8754 §2
 * @nexthdr:	Next Header
 * @hdrlen:	Hdr Ext Len, 8-octet units after the first 8 octets
 * @type:	Routing Type, %HM_SRH_ROUTING_TYPE
 * @segments_left: index of the current segment in the Segment List
 * @last_entry:	index of the last entry of the Segment List
 * @flags:	%HM_SRH_FLAG_O and unassigned bits
 * @tag:	Tag, network byte order
 *
 * The Segment List follows: (@last_entry + 1) 16-octet addresses, then
 * optional TLVs up to the header's length.
 */
struct hm_srh {
	__u8	nexthdr;
	__u8	hdrlen;
	__u8	type;
	__u8	segments_left;
	__u8	last_entry;
	__u8	flags;
	__be16	tag;
} __attribute__((packed));

#endif /* __HOPMARK_SRH_H */
