/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * linktype.h - where the IPv6 packet of a captured frame starts, per pcap
 * link-layer header type (linktype.c): what `hopmark decode` needs to read
 * a capture of any interface it can be taken on.
 *
 * Link types are the DLT_* values pcap_datalink() returns (<pcap/dlt.h>),
 * which libpcap maps from the LINKTYPE_* values of the file
 * (https://www.tcpdump.org/linktypes.html).
 */
#ifndef __HOPMARK_LINKTYPE_H
#define __HOPMARK_LINKTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* Linux cooked capture headers (LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2). */
#define HM_SLL_HDR_LEN		16	/* protocol type at octet 14 */
#define HM_SLL2_HDR_LEN		20	/* protocol type at octet 0 */

/**
 * hm_linktype_supported() - does hm_linktype_ipv6() read a link type?
 * @dlt:	pcap link-layer header type (DLT_*, pcap_datalink())
 *
 * Return: true for Ethernet (DLT_EN10MB), Linux cooked capture v1 and v2
 * (DLT_LINUX_SLL, DLT_LINUX_SLL2), raw IP (DLT_RAW) and raw IPv6
 * (DLT_IPV6, where libpcap defines it); false for any other.
 */
bool hm_linktype_supported(int dlt);

/**
 * hm_linktype_ipv6() - where the IPv6 header of a captured frame starts
 * @dlt:	pcap link-layer header type (DLT_*)
 * @frame:	the frame as captured, from its link-layer header on
 * @caplen:	bytes captured (may be less than the frame's length)
 * @off:	output: offset of the IPv6 header in @frame
 *
 * Ethernet: the EtherType after the two addresses, past any number of
 * IEEE 802.1Q (0x8100), 802.1ad (0x88a8) and pre-standard QinQ (0x9100)
 * tags of 4 octets each, must be IPv6 (0x86dd). Linux cooked capture: the
 * protocol type field (an EtherType, big-endian) at octet 14 of the 16-octet
 * SLL header or at octet 0 of the 20-octet SLL2 header. Raw IP and raw IPv6:
 * the frame is the packet, whose version nibble must be 6 (an IPv4 packet
 * of a raw IP capture carries no IPv6 header).
 *
 * Return: 0 with *@off set: @frame holds a whole 40-octet IPv6 header of
 * version 6 at *@off (RFC 8200 §3); -ENOENT if the frame carries no IPv6
 * packet or is captured too short for its link header and an IPv6 header;
 * -EPROTONOSUPPORT for a link type hm_linktype_supported() refuses.
 */
int hm_linktype_ipv6(int dlt, const __u8 *frame, size_t caplen, size_t *off);

/**
 * hm_linktype_ip() - where the IPv4 or IPv6 header of a captured frame starts
 * @dlt:	pcap link-layer header type (DLT_*)
 * @frame:	the frame as captured, from its link-layer header on
 * @caplen:	bytes captured
 * @off:	output: offset of the IP header in @frame
 * @ver:	output: 4 or 6
 *
 * As hm_linktype_ipv6(), but an EtherType (or SLL protocol) of IPv4
 * (0x0800) with a whole 20-octet header of version 4, or a raw IP packet
 * of version 4, is found too: what INT (over IPv4 and IPv6) needs.
 *
 * Return: 0 with *@off and *@ver set; -ENOENT if the frame carries no IP
 * packet (or too short a one); -EPROTONOSUPPORT for an unsupported link type.
 */
int hm_linktype_ip(int dlt, const __u8 *frame, size_t caplen, size_t *off, int *ver);

#endif /* __HOPMARK_LINKTYPE_H */
