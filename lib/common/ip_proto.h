/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ip_proto.h - upper-layer protocol numbers (IANA "Assigned Internet
 * Protocol Numbers") hopmark tells apart: the IPv4 Protocol and the IPv6
 * Next Header after the extension headers (those are in ipv6/ipv6.h).
 * Header-only and libc-free.
 */
#ifndef __HOPMARK_IP_PROTO_H
#define __HOPMARK_IP_PROTO_H

#define HM_IPPROTO_ICMP		1
#define HM_IPPROTO_TCP		6
#define HM_IPPROTO_UDP		17
#define HM_IPPROTO_ICMPV6	58

#endif /* __HOPMARK_IP_PROTO_H */
