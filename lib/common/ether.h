/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ether.h - the Ethernet framing hopmark parses (IEEE 802.3, 802.1Q):
 * header length and the EtherTypes of IPv4, IPv6 and VLAN tags. Used by
 * the BPF programs (which handle Ethernet devices only), the PINT sink's
 * frame parser and `hopmark decode`. Header-only and libc-free.
 */
#ifndef __HOPMARK_ETHER_H
#define __HOPMARK_ETHER_H

#define HM_ETH_HLEN		14	/* destination, source, EtherType */
#define HM_ETH_ALEN		6
#define HM_VLAN_HLEN		4	/* one 802.1Q / 802.1ad tag */

/* EtherTypes, host order. */
#define HM_ETH_P_IP		0x0800
#define HM_ETH_P_IPV6		0x86dd
#define HM_ETH_P_8021Q		0x8100
#define HM_ETH_P_8021AD		0x88a8
#define HM_ETH_P_QINQ1		0x9100	/* pre-standard 802.1ad */

#endif /* __HOPMARK_ETHER_H */
