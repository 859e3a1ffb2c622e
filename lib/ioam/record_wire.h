/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * record_wire.h - struct hm_record (record.h) as bytes: the binary form a
 * decoded IOAM trace record takes on hopmarkd's monitor socket
 * (lib/common/monitor_proto.h, Documentation/agent.rst, "Binary stream"),
 * and its encoder and decoder (record_wire.c).
 *
 * Layout version 1 (%HM_RECORD_WIRE_VERSION). Every multi-octet integer is
 * big-endian (network byte order), at a fixed offset; addresses are as on
 * the wire. A record is a header of %HM_RECORD_WIRE_HDR_LEN octets and then
 * n_nodes node entries of %HM_RECORD_WIRE_NODE_LEN octets, in path order
 * (the first node that wrote first, as &hm_ioam_trace.nodes):
 *
 *   header (80 octets)
 *     0  be64  rx_ns          POSIX time the sink received the packet, ns
 *     8  be32  ifindex        sink interface index (0: from a capture)
 *    12  be32  sink_node_id   sink's short node ID, 24 bits (0xffffff: unknown)
 *    16  be16  sink_if_id     sink interface's short IOAM ID (0xffff: unknown)
 *    18  be16  ns_id          IOAM-Namespace (RFC 9197 §4.4)
 *    20  u8    nodelen        NodeLen, 4-octet words
 *    21  u8    remlen         RemainingLen, 4-octet words
 *    22  u8    overflow       Overflow flag, 0 or 1
 *    23  u8    n_nodes        node entries that follow, 0..%HM_MAX_HOPS
 *    24  be32  trace_type     IOAM-Trace-Type, 24 bits
 *    28  be32  data_len       bytes of the trace's node data list area
 *    32  16    saddr          IPv6 source address
 *    48  16    daddr          IPv6 destination address
 *    64  be32  flow_label     20 bits
 *    68  be16  payload_len    IPv6 payload length, bytes
 *    70  u8    hop_limit      IPv6 Hop Limit as the sink received it
 *    71  u8    proto          upper-layer protocol after the extension headers
 *    72  be16  sport          TCP/UDP source port (0: none)
 *    74  be16  dport          TCP/UDP destination port (0: none)
 *    76  be32  reserved       0
 *
 *   node entry (72 octets), struct hm_ioam6_node_values; a field the node
 *   did not write holds the all-ones value of its width (RFC 9197 §4.4.2)
 *     0  be32  present          IOAM-Trace-Type bits this entry carries
 *     4  u8    hop_limit        Hop_Lim (§4.4.2.1)
 *     5  u8    opaque_len       opaque state snapshot length, 4-octet words
 *     6  be16  ingress_if       short ingress_if_id (§4.4.2.2)
 *     8  be16  egress_if        short egress_if_id (§4.4.2.2)
 *    10  be16  reserved         0
 *    12  be32  node_id          short node_id, 24 bits (§4.4.2.1)
 *    16  be32  ts_sec           timestamp seconds (§4.4.2.3)
 *    20  be32  ts_frac          timestamp fraction, us (§4.4.2.4)
 *    24  be32  transit_delay    ns, top bit its overflow (§4.4.2.5)
 *    28  be32  ns_data          namespace specific data, short (§4.4.2.6)
 *    32  be32  queue_depth      bytes (§4.4.2.7)
 *    36  be32  csum_compl       checksum complement (§4.4.2.8)
 *    40  be32  ingress_if_wide  wide ingress_if_id (§4.4.2.10)
 *    44  be32  egress_if_wide   wide egress_if_id (§4.4.2.10)
 *    48  be32  buffer_occupancy bytes (§4.4.2.12)
 *    52  be32  opaque_schema    opaque state snapshot Schema ID, 24 bits (§4.4.2.13)
 *    56  be64  node_id_wide     wide node_id, 56 bits (§4.4.2.9)
 *    64  be64  ns_data_wide     namespace specific data, wide (§4.4.2.11)
 *
 * Everything struct hm_record holds is there, so the record decoded from
 * these bytes prints the same JSON line (hm_record_write_json()) and table
 * as the one encoded. A change of layout is a new version, never an edit
 * of this one.
 */
#ifndef __HOPMARK_IOAM_RECORD_WIRE_H
#define __HOPMARK_IOAM_RECORD_WIRE_H

#include <stddef.h>
#include <linux/types.h>

#include "ioam/record.h"

#define HM_RECORD_WIRE_VERSION	1	/* the layout above */
#define HM_RECORD_WIRE_HDR_LEN	80	/* octets before the first node entry */
#define HM_RECORD_WIRE_NODE_LEN	72	/* octets per node entry */
/* The longest record: %HM_MAX_HOPS node entries (4472 octets). */
#define HM_RECORD_WIRE_MAX	(HM_RECORD_WIRE_HDR_LEN + HM_MAX_HOPS * HM_RECORD_WIRE_NODE_LEN)

/**
 * hm_record_wire_len() - octets of a record's binary form
 * @r:	record; its &hm_ioam_trace.n_nodes is at most %HM_MAX_HOPS
 *
 * Return: %HM_RECORD_WIRE_HDR_LEN + n_nodes * %HM_RECORD_WIRE_NODE_LEN.
 */
static inline size_t hm_record_wire_len(const struct hm_record *r)
{
	return HM_RECORD_WIRE_HDR_LEN + (size_t)r->trace.n_nodes * HM_RECORD_WIRE_NODE_LEN;
}

/**
 * hm_record_wire_encode() - write a record's binary form (layout version 1)
 * @buf:	output, at least hm_record_wire_len(@r) octets, any alignment
 * @size:	octets at @buf
 * @r:		record
 *
 * Return: octets written (hm_record_wire_len()); -EMSGSIZE if @size is
 * smaller (nothing written); -EINVAL if @r has more than %HM_MAX_HOPS
 * node entries.
 */
int hm_record_wire_encode(__u8 *buf, size_t size, const struct hm_record *r);

/**
 * hm_record_wire_decode() - read a record's binary form (layout version 1)
 * @buf:	the octets of one record, any alignment
 * @len:	octets at @buf: exactly one record
 * @r:		output; every field is set (the pad of each node entry 0)
 *
 * Checks that @len is the header plus n_nodes entries, that n_nodes is at
 * most %HM_MAX_HOPS and that the reserved fields are 0: bytes of another
 * layout are refused, never misread.
 *
 * Return: 0; -EMSGSIZE if @len is not the length n_nodes implies (or
 * shorter than the header); -EINVAL if n_nodes is over %HM_MAX_HOPS;
 * -EPROTO if a reserved field is not 0.
 */
int hm_record_wire_decode(const __u8 *buf, size_t len, struct hm_record *r);

#endif /* __HOPMARK_IOAM_RECORD_WIRE_H */
