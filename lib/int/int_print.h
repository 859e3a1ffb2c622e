/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * int_print.h - decoded INT packets and Telemetry Reports as JSON (the
 * "int" and "report" objects of Documentation/int.rst, written with
 * common/json_write.h) and as per-packet tables (int_table.c), the forms
 * `hopmark decode` prints.
 */
#ifndef __HOPMARK_INT_PRINT_H
#define __HOPMARK_INT_PRINT_H

#include <stdio.h>

#include "common/json_write.h"
#include "int/int_decode.h"
#include "int/report_decode.h"

/**
 * int_json_packet() - the "packet" object of a decoded packet's IP identity
 * @w:	writer, at a value position
 * @p:	what int_decode_ip() filled (whatever it returned)
 *
 * {"ip_ver":4|6,"src":"A","dst":"A","dscp":N,"ttl":N,"ip_len":N,
 *  "proto":N,"sport":N|null,"dport":N|null}
 */
void int_json_packet(struct hm_jw *w, const struct int_pkt *p);

/**
 * int_json_int() - the "int" object of a packet int_decode_ip() returned 0 for
 * @w:	writer, at a value position
 * @p:	the packet
 *
 * Keys and order of Documentation/int.rst, "Decoding and JSON": type, npt,
 * shim_len, orig_dscp / orig_dport / orig_proto (per NPT), ver, d, then for
 * INT-MD e, m, hop_ml, rhc; bitmap ("0x%04x"), ds_id, ds_instruction,
 * ds_flags, for INT-MD hops (most recent first, only the bitmap's fields,
 * all-ones printed as numbers), and source_data (hex) when there is any.
 */
void int_json_int(struct hm_jw *w, const struct int_pkt *p);

/**
 * int_json_hop() - one hop's metadata object (the keys of its bitmap)
 * @w:	writer, at a value position
 * @h:	the hop
 */
void int_json_hop(struct hm_jw *w, const struct int_hop *h);

/**
 * int_json_report() - the "report" object of a Telemetry Report payload
 * @w:		writer, at a value position
 * @pl:		the UDP payload
 * @len:	its octets
 * @sig:	the INT signalling, to decode inner packets' INT
 *
 * {"ver","hw_id","seq","node_id","reports":[...]} as Documentation/int.rst
 * gives it; each inner packet (InType 3 Ethernet, 4 IPv4, 5 IPv6, or the
 * first packet TLV of InType 1) as {"packet":{...},"int":{...}}, with
 * "error" instead of "int" when its INT cannot be decoded. When the walk
 * stops on a malformed report, "error" names why, after "reports"; a
 * group header shorter than 8 octets gives {"error"}, one of Ver != 2 its
 * fields and "error" without "reports".
 *
 * Return: 0, or the first -INT_E_* / -INT_E_RPT_* error met (group
 * header, a report, or an inner packet's INT).
 */
int int_json_report(struct hm_jw *w, const __u8 *pl, size_t len, const struct int_signal *sig);

/**
 * int_print_table() - a decoded INT packet as a per-hop table
 * @f:	stream
 * @p:	a packet int_decode_ip() returned 0 for
 *
 * A header line (addresses, ports, protocol, the shim and MD/MX header
 * fields), then for INT-MD one row per hop, numbered in path order and
 * listed most recent first as on the wire, with a column per field of the
 * bitmap.
 */
void int_print_table(FILE *f, const struct int_pkt *p);

/**
 * int_print_report_table() - a Telemetry Report payload as text
 * @f:		stream
 * @pl:		the UDP payload
 * @len:	its octets
 * @sig:	the INT signalling, for inner packets
 *
 * The group header line, then per Individual Report a line of its header
 * and main contents, its metadata as a one-row table, and the inner
 * packet (its INT table when it carries INT).
 *
 * Return: 0 or the first error met, as int_json_report().
 */
int int_print_report_table(FILE *f, const __u8 *pl, size_t len, const struct int_signal *sig);

/**
 * int_rpt_inner_ip() - where the IP packet of a report's inner contents is
 * @r:		the report
 * @off:	output: offset of the IP header in @r->inner
 *
 * InType 4/5: at 0; InType 3: after the Ethernet header (and 802.1Q/ad
 * tags) when its EtherType is IPv4 or IPv6; InType 1: in the first TLV of
 * type 1 (Ethernet), 2 (IPv4) or 3 (IPv6) (Report §3.3.2).
 *
 * Return: octets of the IP packet from *@off (to the end of the inner
 * contents or of its TLV), 0 when there is none.
 */
size_t int_rpt_inner_ip(const struct int_rpt *r, size_t *off);

/**
 * int_rpt_decode_inner() - decode the IP packet of a report's inner contents
 * @r:		the report
 * @sig:	the domain's INT signalling, for the packet's INT
 * @ip:		output: the decoded packet
 * @err:	output: int_decode_ip()'s result: 0, -%INT_E_NONE (no INT)
 *		or the error of its INT (@ip's IP and L4 fields are set)
 *
 * What the JSON and table forms of a report show of the inner packet.
 *
 * Return: false when there is nothing to show: no IP packet
 * (int_rpt_inner_ip()) or one whose IP header does not decode
 * (-%INT_E_IP); true otherwise, with *@err.
 */
bool int_rpt_decode_inner(const struct int_rpt *r, const struct int_signal *sig,
			  struct int_pkt *ip, int *err);

#endif /* __HOPMARK_INT_PRINT_H */
