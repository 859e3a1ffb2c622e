/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pbt_id.h - the PBT-M packet ID (struct pbt_record.pkt_id, %PBT_ID_HASH):
 * a 32-bit hash of octets forwarding never changes, computed the same way
 * by every node of the domain, so that the collector can tell which
 * postcards are about one user packet (flow key + packet ID). One
 * function for bpf/hopmark_pbt.bpf.c, the agent, the collector's tests
 * and anything that wants to recompute an ID from a capture.
 *
 * What is hashed (Documentation/pbt.rst, "Packet ID"):
 *   - the flow key (lib/select/select.h; for an IPv6 packet with an SRH
 *     the destination is the SRH's Segment List[0], the final segment,
 *     since the IPv6 destination changes at every segment endpoint);
 *   - IPv4: Identification << 16 | Total Length; IPv6: Payload Length;
 *   - %PBT_ID_OCTETS octets after the IP headers (pbt_id_octets() says
 *     which): TCP: octets 0-15 of the header (ports, sequence and
 *     acknowledgment numbers, data offset and flags, window) and the first
 *     8 payload octets, after the options; every other protocol (UDP:
 *     ports, length, checksum and 16 payload octets): octets 0-23 from the
 *     start of the upper-layer header. Fewer when the packet ends sooner:
 *     the missing octets are zero and their count is hashed too.
 * Never the TTL / Hop Limit, the mark bit, the IPv4 header checksum, the
 * TOS / Traffic Class (it carries the mark and DSCP may be re-marked),
 * an SRH's Segments Left or the IPv6 destination of an SRH packet.
 *
 * Header-only and libc-free; safe to include from BPF (bounded loops).
 */
#ifndef __HOPMARK_PBT_ID_H
#define __HOPMARK_PBT_ID_H

#include <linux/types.h>
#include "select/select.h"

/* Octets after the IP headers that the packet ID covers (at most). */
#define PBT_ID_OCTETS		24
/* Of them, the ones taken from the start of the upper-layer header. */
#define PBT_ID_L4_OCTETS	16
/* Hash seed, fixed: every node and every tool computes the same ID. */
#define PBT_ID_SEED		0x70627431U	/* "pbt1" */

/**
 * pbt_id_payload_off() - where the packet ID's last 8 octets start
 * @proto:	upper-layer protocol (IPPROTO_*)
 * @tcp_doff:	TCP Data Offset in octets (options included); ignored for
 *		other protocols
 *
 * Return: offset from the start of the upper-layer header: @tcp_doff for
 * TCP, %PBT_ID_L4_OCTETS for every other protocol (the octets simply
 * continue).
 */
static inline __u32 pbt_id_payload_off(__u8 proto, __u32 tcp_doff)
{
	return proto == 6 ? tcp_doff : PBT_ID_L4_OCTETS;
}

/**
 * pbt_pkt_id() - the packet ID of a packet
 * @k:		its flow key, as hm_flow_key is filled for PBT-M (pad 0)
 * @ip_word:	IPv4: Identification << 16 | Total Length; IPv6: Payload
 *		Length (host order)
 * @oct:	%PBT_ID_OCTETS octets: the first %PBT_ID_L4_OCTETS of the
 *		upper-layer header, then 8 from pbt_id_payload_off(); octets
 *		beyond the packet's end are 0
 * @n:		octets of @oct that are in the packet (0 to %PBT_ID_OCTETS)
 *
 * The flow key goes through hm_flow_hash() with %PBT_ID_SEED, then
 * @ip_word, @n and the six big-endian words of @oct through hm_sel_mix().
 *
 * Return: the 32-bit packet ID.
 */
static inline __u32 pbt_pkt_id(const struct hm_flow_key *k, __u32 ip_word, const __u8 *oct,
			       __u32 n)
{
	__u32 h = hm_flow_hash(k, PBT_ID_SEED), i, w;

	h = hm_sel_mix(h, ip_word);
	h = hm_sel_mix(h, n);
	for (i = 0; i < PBT_ID_OCTETS; i += 4) {
		w = (__u32)oct[i] << 24 | (__u32)oct[i + 1] << 16 |
		    (__u32)oct[i + 2] << 8 | oct[i + 3];
		h = hm_sel_mix(h, w);
	}
	return h;
}

#endif /* __HOPMARK_PBT_ID_H */
