/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pc_obs_from.h - every postcard source as a struct hm_pc_obs
 * (pc_obs.h): the datapath's PBT-M record (struct pbt_record,
 * lib/pbt/pbt_maps.h), the hopmark module's DEX and SRH O-flag events
 * (struct hm_postcard, postcard.h) and the INT datapath's XD / MX records
 * (struct int_record, lib/int/int_maps.h). hopmarkd exports what these
 * make as IPFIX (lib/ipfix/ipfix_model.h); no libfixbuf here.
 */
#ifndef __HOPMARK_PC_OBS_FROM_H
#define __HOPMARK_PC_OBS_FROM_H

#include <stddef.h>
#include <linux/types.h>

#include "postcard/pc_obs.h"

struct pbt_record;
struct hm_postcard;
struct int_record;
struct int_signal;

/**
 * hm_pc_obs_from_pbt() - a PBT-M postcard record as an observation
 * @r:		record from pbt_events
 * @obs_domain:	IPFIX Observation Domain ID of the export
 * @o:		output (zeroed first)
 *
 * Optional fields: interfaces when not 0, queue depth unless
 * %PBT_UNKNOWN32, TTL always; a per-flow template's fields as
 * @r->tpl_fields says (SRH ones only for IPv6 with %PBT_REC_F_SRH).
 *
 * Return: 0; -EINVAL for a record whose family is not 4 or 6 or whose
 * point is not %PBT_PT_INGRESS / %PBT_PT_EGRESS.
 */
int hm_pc_obs_from_pbt(const struct pbt_record *r, __u32 obs_domain,
		       struct hm_pc_obs *o);

/**
 * hm_pc_obs_from_postcard() - a hopmark.ko DEX or O-flag postcard
 * @pc:		postcard (%HM_POSTCARD_DEX or %HM_POSTCARD_OFLAG)
 * @obs_domain:	Observation Domain ID
 * @o:		output (zeroed first)
 *
 * The flow key, Hop Limit and length come from @pc->headers (IPv6 from
 * its fixed header on, RFC 8200): extension headers are walked to the
 * upper layer for its protocol and ports; an SRH (RFC 8754) gives
 * srhFlagsIPv6, Segments Left and the active segment (the Destination
 * Address), and the flow key's destination is its Segment List[0], the
 * final segment every hop agrees on (as PBT-M's flow key). The packet ID
 * of a DEX postcard is its Sequence Number (RFC 9326 §3.2), the one every
 * node of the packet exports; an O-flag postcard carries no sequence, so
 * its packet ID is the Flow Label and Payload Length's hash (see
 * Documentation/ipfix.rst). The observation point is ingress: the module
 * sees the packet as it arrives.
 *
 * Return: 0; -EINVAL for another type; -EPROTO when @pc->headers is
 * absent, shorter than an IPv6 header or not IPv6 (the postcard is
 * counted and not exported by the caller).
 */
int hm_pc_obs_from_postcard(const struct hm_postcard *pc, __u32 obs_domain,
			    struct hm_pc_obs *o);

/**
 * hm_pc_obs_from_int() - an INT-XD or INT-MX record as an observation
 * @r:		record from int_events (%INT_REC_XD, %INT_REC_MX or
 *		%INT_REC_DROP)
 * @sig:	the domain's signalling (int_record_signal()), to find the
 *		original ports of an NPT=2 packet; may be NULL
 * @obs_domain:	Observation Domain ID
 * @o:		output (zeroed first)
 *
 * The flow key, TTL and length come from @r->pkt; interfaces, hop
 * latency (sojourn) and queue occupancy (queue depth) from @r->md as
 * RepMdBits (INT Telemetry Report §3.3.1) says, where present and not
 * all-ones (the unavailable value). The packet ID is that of the IPv4
 * Identification or the IPv6 Flow Label with the length (see
 * Documentation/ipfix.rst).
 *
 * Return: 0; -EINVAL for another kind, a family not 4 or 6, lengths past
 * the record's arrays; -EPROTO when @r->pkt does not parse.
 */
int hm_pc_obs_from_int(const struct int_record *r, const struct int_signal *sig,
		       __u32 obs_domain, struct hm_pc_obs *o);

#endif /* __HOPMARK_PC_OBS_FROM_H */
