// SPDX-License-Identifier: GPL-2.0-only
/*
 * srh_oflag.c - SRv6 Segment Routing Header O-flag (RFC 8754 §2, RFC 9259 §2)
 *
 * The SRH (Routing Type 4) carries an 8-bit Flags field; RFC 9259 §2.1
 * defines its bit 2 (0x20, HM_SRH_FLAG_O in lib/srv6/srh.h) as the O-flag: every segment
 * endpoint that supports it makes a timestamped copy of the packet for its
 * OAM process and forwards the packet itself unchanged (RFC 9259 §2.1.1,
 * pseudocode S01-S04, which also asks that the export be rate limited).
 *
 * Here the "copy" is an event record: the time the packet reached this
 * node, the ingress interface and the packet's headers (IPv6 header and
 * extension headers, truncated to HOPMARK_REC_HEADERS_MAX bytes), which is
 * what identifies the packet to a collector; the rate limit is the netns
 * default of hm_event_queue(). The hook is LOCAL_IN, where the packet is
 * addressed to this node (a local address, or a seg6local SID with
 * net.netfilter.nf_hooks_lwtunnel=1), i.e. this node is the segment
 * endpoint, whether Segments Left is 0 or not.
 */
#include <net/ipv6.h>

#include "srv6/srh.h"

#include "hopmark_dp.h"

/**
 * hm_srh_oflag() - report a packet whose SRH has the O-flag set
 * @pkt: packet context (LOCAL_IN hook, @pkt->in_if has SRH_OFLAG)
 * @skb: the packet
 *
 * Looks for the first Routing header; a type 4 (SRH) one with the O-flag
 * produces one HOPMARK_EVENT_OFLAG record (_OFLAG_EXPORT). An SRH whose
 * length cannot hold its Last Entry + 1 segments, or whose Segments Left
 * exceeds that count, is counted _MALFORMED and produces nothing. A
 * fragment whose SRH is in the fragmentable part is not looked at
 * (Linux reassembles before LOCAL_IN; ipv6_find_hdr() stops at a non-first
 * fragment). The packet is never changed.
 */
void hm_srh_oflag(struct hm_pkt *pkt, struct sk_buff *skb)
{
	const struct hm_srh *srh;
	struct hm_event ev = {};
	unsigned int off = 0;
	struct hm_srh _srh;

	BUILD_BUG_ON(sizeof(struct hm_srh) != HM_SRH_HDR_LEN);
	if (ipv6_find_hdr(skb, &off, HM_NEXTHDR_ROUTING, NULL, NULL) != HM_NEXTHDR_ROUTING)
		return;
	srh = skb_header_pointer(skb, off, sizeof(_srh), &_srh);
	if (!srh || srh->type != HM_SRH_ROUTING_TYPE)
		return;
	if (!(srh->flags & HM_SRH_FLAG_O))
		return;
	if (HM_IPV6_EXT_LEN(srh->hdrlen) <
	    HM_SRH_HDR_LEN + ((unsigned int)srh->last_entry + 1) * HM_SRH_SEGMENT_LEN ||
	    srh->segments_left > srh->last_entry + 1) {
		hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_MALFORMED);
		return;
	}
	ev.type = HOPMARK_EVENT_OFLAG;
	ev.ifindex = pkt->in->ifindex;
	ev.tstamp_ns = pkt->now_ns;
	ev.skb = skb;
	hm_count(pkt->hn, pkt->in_if, HOPMARK_CNT_OFLAG_EXPORT);
	hm_event_queue(pkt->hn, &ev);
}
