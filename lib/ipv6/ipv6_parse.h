/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ipv6_parse.h - what identifies an IPv6 packet (addresses, flow label,
 * upper-layer protocol and ports past the extension headers, RFC 8200 §4)
 * and where its IOAM trace option is (RFC 9486): ipv6_parse.c.
 */
#ifndef __HOPMARK_IPV6_PARSE_H
#define __HOPMARK_IPV6_PARSE_H

#include <stddef.h>
#include <linux/types.h>

#include "ipv6/ipv6.h"

/**
 * struct hm_pkt_info - what identifies the packet a trace travelled in
 * @saddr:	IPv6 source, network byte order
 * @daddr:	IPv6 destination, network byte order
 * @flow_label:	20-bit flow label
 * @payload_len: IPv6 payload length, bytes
 * @hop_limit:	Hop Limit
 * @proto:	upper-layer protocol after the extension headers
 * @sport:	TCP/UDP source port (0 if none)
 * @dport:	TCP/UDP destination port (0 if none)
 */
struct hm_pkt_info {
	__u8	saddr[16];
	__u8	daddr[16];
	__u32	flow_label;
	__u16	payload_len;
	__u8	hop_limit;
	__u8	proto;
	__u16	sport;
	__u16	dport;
};

/**
 * hm_ipv6_find_ioam() - locate the IOAM trace option of an IPv6 packet
 * @pkt:	packet starting at the IPv6 header
 * @len:	bytes at @pkt
 * @info:	filled with the packet's addresses, ports, etc. (may be NULL)
 * @opt_off:	offset from @pkt of the IOAM option type octet
 * @opt_len:	bytes of the option including its 2-octet TLV head
 *
 * Walks the Hop-by-Hop header (RFC 8200 §4.3) TLV by TLV for an option of
 * type 0x31 carrying IOAM Option-Type 0, then the other extension headers
 * for the upper-layer protocol and ports.
 *
 * Return: 0; -ENOENT if the packet has no IOAM pre-allocated trace;
 * -EINVAL if the IPv6 or Hop-by-Hop header is malformed or truncated.
 */
int hm_ipv6_find_ioam(const __u8 *pkt, size_t len, struct hm_pkt_info *info,
		      size_t *opt_off, size_t *opt_len);

#endif /* __HOPMARK_IPV6_PARSE_H */
