// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * linktype.c - the IPv6 packet of a captured frame, per pcap link type
 * (linktype.h). Nothing here trusts the capture: every field is read only
 * after the captured length has been checked to hold it.
 */
#include <errno.h>
#include <pcap/dlt.h>

#include "common/byteorder.h"
#include "common/ether.h"
#include "common/linktype.h"
#include "ipv4/ipv4.h"
#include "ipv6/ipv6.h"

bool hm_linktype_supported(int dlt)
{
	switch (dlt) {
	case DLT_EN10MB:
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
	case DLT_RAW:
#ifdef DLT_IPV6
	case DLT_IPV6:
#endif
		return true;
	default:
		return false;
	}
}

static bool is_vlan_tag(__u16 proto)
{
	return proto == HM_ETH_P_8021Q || proto == HM_ETH_P_8021AD || proto == HM_ETH_P_QINQ1;
}

int hm_linktype_ip(int dlt, const __u8 *frame, size_t caplen, size_t *off, int *ver)
{
	size_t o;
	__u16 proto;

	switch (dlt) {
	case DLT_EN10MB:
		if (caplen < HM_ETH_HLEN)
			return -ENOENT;
		/* The EtherType (or tag protocol identifier) after the two addresses. */
		o = 2 * HM_ETH_ALEN;
		proto = hm_get_be16(frame + o);
		/* A tag is 4 octets; the next type field must be captured too. */
		while (is_vlan_tag(proto) && o + HM_VLAN_HLEN + 2 <= caplen) {
			o += HM_VLAN_HLEN;
			proto = hm_get_be16(frame + o);
		}
		o += 2;
		break;
	case DLT_LINUX_SLL:
		if (caplen < HM_SLL_HDR_LEN)
			return -ENOENT;
		proto = hm_get_be16(frame + 14);
		o = HM_SLL_HDR_LEN;
		break;
	case DLT_LINUX_SLL2:
		if (caplen < HM_SLL2_HDR_LEN)
			return -ENOENT;
		proto = hm_get_be16(frame);
		o = HM_SLL2_HDR_LEN;
		break;
	case DLT_RAW:
#ifdef DLT_IPV6
	case DLT_IPV6:
#endif
		o = 0;
		proto = !caplen ? 0 : (frame[0] >> 4) == 6 ? HM_ETH_P_IPV6 :
			(frame[0] >> 4) == 4 ? HM_ETH_P_IP : 0;
		break;
	default:
		return -EPROTONOSUPPORT;
	}
	if (proto == HM_ETH_P_IPV6 && o + HM_IPV6_HDR_LEN <= caplen && (frame[o] >> 4) == 6) {
		*ver = 6;
	} else if (proto == HM_ETH_P_IP && o + HM_IPV4_HDR_LEN <= caplen &&
		   (frame[o] >> 4) == 4) {
		*ver = 4;
	} else {
		return -ENOENT;
	}
	*off = o;
	return 0;
}

int hm_linktype_ipv6(int dlt, const __u8 *frame, size_t caplen, size_t *off)
{
	size_t o;
	int ver, err;

	err = hm_linktype_ip(dlt, frame, caplen, &o, &ver);
	if (err)
		return err;
	if (ver != 6)
		return -ENOENT;
	*off = o;
	return 0;
}
