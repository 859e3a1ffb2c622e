/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * report_in.h - Telemetry Reports (INT-XD, telemetry_report.mdk v2.0) as
 * postcards: every RepType 1 Individual Report of a UDP payload becomes
 * one struct hm_pc_obs (source HM_PC_SRC_INT_XD), decoded with
 * lib/int/report_decode.
 *
 * A report carries the node's metadata per RepMdBits and the packet it is
 * about (InType Ethernet, IPv4 or IPv6, truncated): the flow key and the
 * TTL / Hop Limit come from that packet, the packet ID is PBT-M's
 * (lib/pbt/pbt_id.h, hmc_report_pkt_id()), so that the reports of every
 * node about one packet meet in the stitcher. The
 * postcard is an egress one at the egress timestamp (the ingress one when
 * only that is there; ingress = egress - hop latency otherwise); a drop
 * report (flag D) is an ingress one: the packet never left the node.
 */
#ifndef __HOPMARK_COLLECTOR_REPORT_IN_H
#define __HOPMARK_COLLECTOR_REPORT_IN_H

#include <stddef.h>
#include <linux/types.h>

#include "collector/ipfix_in.h"

/**
 * struct hmc_report_stats - what the Telemetry Report input did (counts)
 * @payloads:	UDP payloads received
 * @reports:	Individual Reports decoded
 * @postcards:	reports handed on as postcards
 * @bad:	payloads or reports that do not decode (the rest of the
 *		payload is dropped)
 * @no_packet:	reports without an IPv4 / IPv6 packet to key them by
 */
struct hmc_report_stats {
	__u64	payloads;
	__u64	reports;
	__u64	postcards;
	__u64	bad;
	__u64	no_packet;
};

/**
 * hmc_report_pkt_id() - a packet's ID from its IP header and the octets
 * after it, with pbt_pkt_id() (lib/pbt/pbt_id.h): the flow key, IPv4
 * Identification and Total Length / IPv6 Payload Length, and the octets
 * pbt_id.h names after the IP header; never TTL / Hop Limit, the IPv4
 * header checksum or the TOS. IPv6 extension headers are not walked (an
 * SRH packet's ID then differs from the datapath's).
 * @ip:		the IP header
 * @len:	octets at @ip (a truncated copy is fine)
 * @key:	out: the flow key (ports network order)
 * @ttl:	out: TTL / Hop Limit
 *
 * Return: the ID; 0 with @key->family 0 when @ip is not IPv4 / IPv6.
 */
__u32 hmc_report_pkt_id(const __u8 *ip, size_t len, struct hm_flow_key *key, __u8 *ttl);

/**
 * hmc_report_payload() - decode one Telemetry Report UDP payload
 * @p:		the payload
 * @len:	its octets
 * @fn:		called for every postcard
 * @arg:	passed to @fn
 * @st:		counters
 *
 * Return: postcards made; a negative -INT_E_RPT_* code when the payload
 * or one of its reports does not decode (counted in @st->bad; the reports
 * before it are handed on).
 */
int hmc_report_payload(const __u8 *p, size_t len, hmc_obs_fn fn, void *arg,
		       struct hmc_report_stats *st);

#endif /* __HOPMARK_COLLECTOR_REPORT_IN_H */
