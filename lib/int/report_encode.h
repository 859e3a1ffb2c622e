/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * report_encode.h - Telemetry Report v2.0 datagrams (telemetry_report.mdk,
 * footer 2020-10-08) built from the INT datapath's records (struct
 * int_record, int/int_maps.h). Used by hopmarkd (agent/int_report.c).
 *
 * A datagram is the UDP payload of one report packet: one Telemetry Group
 * Header (§3.2) and one or more Individual Reports of RepType 1 (INT,
 * §3.3, §3.3.1) with the packet as its inner contents (InType 4 or 5).
 * Every multi-octet field is written big-endian.
 *
 * Choices this encoder makes where the spec leaves them open (documented
 * in Documentation/int.rst, "Telemetry reports"):
 *   - the Sequence Number counts datagrams (group headers) per (Node ID,
 *     hw_id, destination), from 0, modulo 2^22;
 *   - a datagram never exceeds a 1500-octet path: at most
 *     int_rpt_dgram_max(family) octets of UDP payload (1472 over IPv4,
 *     1452 over IPv6);
 *   - the truncated packet is padded with zero octets to a whole word,
 *     except in a report written with Report Length 0xFF, which runs to
 *     the end of the datagram and carries the packet's octets exactly.
 */
#ifndef __HOPMARK_INT_REPORT_ENCODE_H
#define __HOPMARK_INT_REPORT_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "int/int.h"
#include "int/int_maps.h"

/* The path MTU the datagrams are held to, octets. */
#define INT_RPT_PATH_MTU	1500
#define INT_RPT_UDP_HDR_LEN	8
/* Largest UDP payload on that path: IPv4 (20-octet header, no options). */
#define INT_RPT_DGRAM_MAX	(INT_RPT_PATH_MTU - 20 - INT_RPT_UDP_HDR_LEN)

/**
 * int_rpt_dgram_max() - the largest datagram (UDP payload) for a family
 * @family:	4 or 6, the collector's address family
 *
 * %INT_RPT_PATH_MTU less the IP header (20 octets for IPv4 without
 * options, 40 for IPv6) and the UDP header.
 *
 * Return: octets: 1472 for 4, 1452 for 6 (and for any other value).
 */
static inline size_t int_rpt_dgram_max(int family)
{
	return INT_RPT_PATH_MTU - (family == 4 ? 20 : 40) - INT_RPT_UDP_HDR_LEN;
}

/**
 * struct int_rpt_enc_cfg - how records become reports
 * @trunc:	octets of the packet a report carries at most
 *		(int_domain_cfg.report_trunc); further capped by
 *		int_rpt_enc_trunc()
 * @coalesce:	most Individual Reports per datagram, 1..%INT_RPT_COALESCE_MAX
 *		(0 is taken as 1)
 * @hw_id:	hw_id of the group header (6 bits; higher bits ignored)
 * @ds_id:	Domain Specific ID of every report (DSMdBits and DSMdStatus
 *		are 0: records carry no DS metadata)
 * @max_len:	largest datagram, octets (int_rpt_dgram_max()); at most
 *		%INT_RPT_DGRAM_MAX
 */
struct int_rpt_enc_cfg {
	__u32	trunc;
	__u32	coalesce;
	__u8	hw_id;
	__u16	ds_id;
	__u32	max_len;
};

/**
 * int_rpt_enc_trunc() - the truncation length reports are written with
 * @cfg:	settings
 *
 * @cfg->trunc, capped at %INT_REC_PKT_MAX (what a record holds) and, when
 * reports are coalesced (@cfg->coalesce > 1), at
 * %INT_RPT_TRUNC_COALESCED_MAX (1016 octets, Report §3.3 after PR #89:
 * a report of 255 words or more is written with Report Length 0xFF and
 * ends the datagram).
 *
 * Return: octets.
 */
__u32 int_rpt_enc_trunc(const struct int_rpt_enc_cfg *cfg);

/**
 * struct int_rpt_md - a record's metadata as a report carries it
 * @rep_md_bits:	RepMdBits, host order (bit 0 clear)
 * @len:		octets at @md, 4 per word of MD Length
 * @md:			the metadata in RepMdBits order, big-endian
 */
struct int_rpt_md {
	__u16	rep_md_bits;
	__u16	len;
	__u8	md[INT_REC_MD_MAX];
};

/**
 * int_rpt_record_md() - a record's RepMdBits and metadata for its report
 * @r:		record
 * @out:	filled
 *
 * The record's @rep_md_bits and @md as Report §3.3.1 carries them. Bit 15
 * (queue ID, drop reason, padding) is kept for drop records only (the
 * sink's option 2 clears it unless the packet was dropped) and added to a
 * drop record without it from @queue_id and @drop_reason; it is the last
 * field, so adding or removing it is at the end of the metadata. When bit
 * 15 is set but its word is not in @md (@md_len one word short), the word
 * is made from @queue_id and @drop_reason.
 *
 * Return: 0, or -EINVAL for a record whose bit 0 is set, whose @md_len is
 * not the RepMdBits' words (4 octets per bit, 8 for bits 4-6) or exceeds
 * %INT_REC_MD_MAX.
 */
int int_rpt_record_md(const struct int_record *r, struct int_rpt_md *out);

/**
 * int_rpt_record_flags() - D, Q, F, I of a record's Individual Report
 * @r:	record
 *
 * The record's own @flags (reserved bits dropped) and the flag its kind
 * implies (Report §2.2, §3.3): F for the tracked-flow kinds (SINK, XD,
 * MX), D for DROP, Q for QUEUE. I is taken from @flags only (a transit
 * hop's intermediate report, INT §5.3).
 *
 * Return: the flags octet (%INT_RPT_F_*), or -EINVAL for an unknown kind.
 */
int int_rpt_record_flags(const struct int_record *r);

/**
 * int_rpt_report_encode() - write one Individual Report (Report §3.3)
 * @buf:	output
 * @room:	octets available at @buf
 * @r:		record
 * @cfg:	settings (truncation, DS ID)
 * @to_end:	set to true when the report is written with Report Length
 *		0xFF: it runs to the end of the datagram, nothing may follow
 *
 * RepType 1, InType 4 or 5 from @r->family (0, None, when the record has
 * no packet octets), Report Length and MD Length in words, the flags of
 * int_rpt_record_flags(), the main contents (RepMdBits, DS ID, DSMdBits 0,
 * DSMdStatus 0), the metadata of int_rpt_record_md(), then the packet
 * truncated to min(@r->pkt_len, int_rpt_enc_trunc(@cfg)) octets and padded
 * with zeros to a word (Report Length below 255) or written exactly (0xFF).
 *
 * Return: octets written, -EINVAL for a bad record (int_rpt_record_md(),
 * int_rpt_record_flags(), a family other than 4 and 6, @pkt_len beyond
 * %INT_REC_PKT_MAX), or -ENOSPC when it does not fit @room (nothing
 * written).
 */
int int_rpt_report_encode(void *buf, size_t room, const struct int_record *r,
			  const struct int_rpt_enc_cfg *cfg, bool *to_end);

/**
 * int_rpt_group_encode() - write a Telemetry Group Header (Report §3.2)
 * @buf:	8 octets
 * @hw_id:	hw_id, 6 bits (higher bits ignored)
 * @seq:	Sequence Number, taken modulo 2^22
 * @node_id:	Node ID, host order
 *
 * Example of the digest (§7): hw_id 1, seq 5 -> 20 40 00 05.
 */
void int_rpt_group_encode(void *buf, __u8 hw_id, __u32 seq, __u32 node_id);

/**
 * struct int_rpt_dgram - one report datagram being built
 * @len:	octets in @buf (0: not started)
 * @n:		Individual Reports in it
 * @to_end:	the last report has Report Length 0xFF: the datagram is closed
 * @node_id:	Node ID of its group header, host order
 * @hw_id:	hw_id of its group header
 * @seq:	its Sequence Number
 * @sport_hash:	hash of the first report's inner 5-tuple
 *		(int_rpt_inner_hash()), for a UDP source port
 * @buf:	the UDP payload
 */
struct int_rpt_dgram {
	size_t	len;
	unsigned int n;
	bool	to_end;
	__u32	node_id;
	__u8	hw_id;
	__u32	seq;
	__u16	sport_hash;
	__u8	buf[INT_RPT_DGRAM_MAX];
};

/**
 * int_rpt_dgram_start() - begin a datagram with its group header
 * @d:		datagram
 * @hw_id:	hw_id
 * @seq:	Sequence Number (modulo 2^22)
 * @node_id:	Node ID, host order
 */
void int_rpt_dgram_start(struct int_rpt_dgram *d, __u8 hw_id, __u32 seq, __u32 node_id);

/**
 * int_rpt_dgram_add() - coalesce a record's report into a started datagram
 * @d:		datagram (int_rpt_dgram_start())
 * @r:		record
 * @cfg:	settings
 *
 * Report §2.7: only reports of the same node (the group header's Node ID
 * and hw_id) share a datagram; the caller keeps one destination per
 * datagram. Nothing is added to a datagram that holds @cfg->coalesce
 * reports, ends with a 0xFF report, or has no room left below
 * @cfg->max_len.
 *
 * Return: 1 added, 0 not added (send @d, start another, add again),
 * -EINVAL for a bad record (int_rpt_report_encode()), -E2BIG for one that
 * does not fit even an empty datagram (cannot happen with @cfg->max_len
 * from int_rpt_dgram_max(): the largest report is 1364 octets).
 */
int int_rpt_dgram_add(struct int_rpt_dgram *d, const struct int_record *r,
		      const struct int_rpt_enc_cfg *cfg);

/**
 * int_rpt_inner_hash() - a 16-bit hash of a packet's 5-tuple
 * @r:	record (its @pkt, from the IP header)
 *
 * For a report's UDP source port (Report §3.1, flow entropy): the
 * addresses, the protocol and, for TCP and UDP, the ports of @r->pkt
 * (IPv4 or IPv6 without extension headers; what is not in the first
 * @pkt_len octets counts as 0). The same 5-tuple always gives the same
 * value.
 *
 * Return: hash, never 0 (0 is mapped to 1).
 */
__u16 int_rpt_inner_hash(const struct int_record *r);

/**
 * struct int_rpt_seq_entry - the sequence of one (Node ID, hw_id, destination)
 * @node_id:	Node ID
 * @hw_id:	hw_id
 * @family:	destination's family, 4 or 6
 * @port:	destination UDP port, host order
 * @addr:	destination address, network order (IPv4: first 4 octets)
 * @next:	Sequence Number of the next datagram
 * @used:	entry in use
 */
struct int_rpt_seq_entry {
	__u32	node_id;
	__u8	hw_id;
	__u8	family;
	__u16	port;
	__u8	addr[16];
	__u32	next;
	bool	used;
};

#define INT_RPT_SEQ_ENTRIES	16

/**
 * struct int_rpt_seqs - the Sequence Numbers of the destinations used
 * @e:		entries; when all are used, the least recently created one
 *		is reused (its sequence restarts at 0)
 * @victim:	next entry to reuse
 */
struct int_rpt_seqs {
	struct int_rpt_seq_entry e[INT_RPT_SEQ_ENTRIES];
	unsigned int victim;
};

/**
 * int_rpt_seq_next() - take the next Sequence Number (Report §3.2)
 * @s:		table (zeroed to start)
 * @node_id:	Node ID
 * @hw_id:	hw_id
 * @family:	destination family
 * @addr:	destination address, network order (4 or 16 octets read)
 * @port:	destination UDP port, host order
 *
 * One sequence per (Node ID, hw_id, destination), from 0, wrapping from
 * 2^22 - 1 to 0.
 *
 * Return: the Sequence Number, 0..2^22 - 1.
 */
__u32 int_rpt_seq_next(struct int_rpt_seqs *s, __u32 node_id, __u8 hw_id, __u8 family,
		       const __u8 *addr, __u16 port);

#endif /* __HOPMARK_INT_REPORT_ENCODE_H */
