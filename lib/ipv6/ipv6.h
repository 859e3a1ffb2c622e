/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ipv6.h - IPv6 wire format as hopmark reads and writes it (RFC 8200): the
 * fixed header, extension header chaining, and the TLV options of the
 * Hop-by-Hop Options header (§4.2, §4.3) that IOAM (RFC 9486) and PINT
 * ride in. Shared by bpf/, kernel/, lib/, the CLI, the agent and the tests.
 *
 * Header-only and libc-free, safe to include from BPF and the kernel.
 * Lengths are in bytes unless a name says otherwise.
 */
#ifndef __HOPMARK_IPV6_H
#define __HOPMARK_IPV6_H

#include <linux/types.h>
#include "common/ip_proto.h"

#define HM_IPV6_HDR_LEN		40	/* fixed header, RFC 8200 §3 */
#define HM_IPV6_ADDR_LEN	16
#define HM_IPV6_FRAG_HDR_LEN	8	/* Fragment header, RFC 8200 §4.5 */
#define HM_IPV6_MIN_MTU		1280	/* RFC 8200 §5 */

/* Offsets of fields in the fixed header. */
#define HM_IPV6_OFF_PAYLOAD_LEN	4
#define HM_IPV6_OFF_NEXTHDR	6
#define HM_IPV6_OFF_HOP_LIMIT	7
#define HM_IPV6_OFF_SADDR	8
#define HM_IPV6_OFF_DADDR	24

/*
 * Next Header values of the extension headers (IANA "Assigned Internet
 * Protocol Numbers"); the upper layers' are in common/ip_proto.h.
 */
#define HM_NEXTHDR_HOP		0	/* Hop-by-Hop Options */
#define HM_NEXTHDR_ROUTING	43
#define HM_NEXTHDR_FRAGMENT	44
#define HM_NEXTHDR_AUTH		51	/* AH, RFC 4302: length in 4-octet words - 2 */
#define HM_NEXTHDR_NONE		59
#define HM_NEXTHDR_DEST		60	/* Destination Options */

/* Neighbor Discovery: Router Solicitation .. Redirect (RFC 4861 §4). */
#define HM_ICMPV6_ND_FIRST	133
#define HM_ICMPV6_ND_LAST	137

/**
 * struct hm_ipv6_ext_hdr - the first two octets of an extension header
 * @nexthdr:	Next Header
 * @hdrlen:	Hdr Ext Len: length in 8-octet units, not counting the first
 *		8 octets (Hop-by-Hop, Destination Options, Routing)
 */
struct hm_ipv6_ext_hdr {
	__u8	nexthdr;
	__u8	hdrlen;
} __attribute__((packed));

/* Length in bytes of a Hop-by-Hop, Destination or Routing header. */
#define HM_IPV6_EXT_LEN(hdrlen)	(((unsigned int)(hdrlen) + 1) * 8)

/* Largest Hop-by-Hop header: Hdr Ext Len 255, (255 + 1) * 8 bytes. */
#define HM_HBH_MAX_LEN		2048

/* Option types of the Hop-by-Hop and Destination Options headers. */
#define HM_IPV6_TLV_PAD1	0x00	/* one octet, no length */
#define HM_IPV6_TLV_PADN	0x01
#define HM_IPV6_TLV_IOAM	0x31	/* RFC 9486 §2: act 00, chg 1, 10001 */
#define HM_IPV6_TLV_DATA_MAX	255	/* Opt Data Len is one octet */
#define HM_IPV6_TLV_HDR_LEN	2	/* Option Type, Opt Data Len */

/**
 * hm_ipv6_tlv_len() - length of the option TLV at @off (RFC 8200 §4.2)
 * @opts:	the options area (Hop-by-Hop or Destination Options header)
 * @off:	offset of the TLV's Option Type, below @end
 * @end:	offset where the options end
 *
 * Return: bytes of the TLV (1 for Pad1, 2 + Opt Data Len otherwise), or 0
 * when it runs past @end.
 */
static inline __u32 hm_ipv6_tlv_len(const __u8 *opts, __u32 off, __u32 end)
{
	__u32 len;

	if (opts[off] == HM_IPV6_TLV_PAD1)
		return 1;
	if (end - off < HM_IPV6_TLV_HDR_LEN)
		return 0;
	len = HM_IPV6_TLV_HDR_LEN + opts[off + 1];
	return len <= end - off ? len : 0;
}

/*
 * What a Linux receiver accepts in a Hop-by-Hop header with its default
 * sysctls (net/ipv6/exthdrs.c, ipv6_parse_hopopts() and ip6_parse_tlv()):
 * at most net.ipv6.max_hbh_opts_number = 8 options other than Pad1 and
 * PadN; at most 7 padding bytes in a row (Pad1 and PadN together, a run
 * ending at the next other option, RFC 4942 §2.1.9.5); PadN data all zero;
 * net.ipv6.max_hbh_length is INT_MAX, which leaves the format's 2048 bytes.
 * Every Linux node, forwarding or not, drops a packet that breaks one.
 */
#define HM_LINUX_HBH_OPTS_MAX	8
#define HM_LINUX_PAD_RUN_MAX	7

#endif /* __HOPMARK_IPV6_H */
