/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * postcard.h - postcards: what one node exports about one packet out of
 * band (as opposed to the trace a sink reports, struct hm_record). They
 * come from the hopmark kernel module's events (IOAM Direct Export, RFC
 * 9326; SRv6 SRH O-flag, RFC 9259; Edge-to-Edge, RFC 9197 §4.6; an
 * Incremental Trace ending at a sink, RFC 9197 §4.4), and hopmarkd writes
 * each as one JSON line, specified in Documentation/postcards.rst.
 *
 * The library does not depend on netlink: hopmarkd fills a struct
 * hm_postcard from an event record and hands it here.
 */
#ifndef __HOPMARK_POSTCARD_H
#define __HOPMARK_POSTCARD_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

struct json_object;

/**
 * enum hm_postcard_type - what produced the postcard
 * @HM_POSTCARD_DEX:	the node saw an IOAM Direct Export option (RFC 9326)
 * @HM_POSTCARD_OFLAG:	the node is the segment endpoint of a packet whose
 *			SRH has the O-flag set (RFC 9259 §2)
 * @HM_POSTCARD_E2E:	the node removed an IOAM Edge-to-Edge option
 * @HM_POSTCARD_TRACE:	an IOAM Incremental Trace ended at the node
 */
enum hm_postcard_type {
	HM_POSTCARD_DEX = 1,
	HM_POSTCARD_OFLAG,
	HM_POSTCARD_E2E,
	HM_POSTCARD_TRACE,
};

#define HM_POSTCARD_F_TS		(1U << 0)
#define HM_POSTCARD_F_IFINDEX		(1U << 1)
#define HM_POSTCARD_F_NS		(1U << 2)
#define HM_POSTCARD_F_FLOW_ID		(1U << 3)
#define HM_POSTCARD_F_SEQ		(1U << 4)
#define HM_POSTCARD_F_TRACE_TYPE	(1U << 5)
#define HM_POSTCARD_F_PKT_LEN		(1U << 6)
#define HM_POSTCARD_F_NODE_ID_WIDE	(1U << 7)

/*
 * Fields a postcard can leave out (struct hm_postcard.omit); the same bits
 * as the hopmark module's HOPMARK_EXPORT_F_* (lib/common/hopmark_genl.h).
 */
#define HM_POSTCARD_FIELD_NODE		(1U << 0)	/* "node" */
#define HM_POSTCARD_FIELD_TIMESTAMP	(1U << 1)	/* "ts_ns", "time" */
#define HM_POSTCARD_FIELD_FLOW		(1U << 2)	/* "flow_id", "seq" */
#define HM_POSTCARD_FIELD_HEADERS	(1U << 3)	/* "pkt_len", "packet", "srh" */
#define HM_POSTCARD_FIELD_NODE_DATA	(1U << 4)	/* "trace_type", "data" */
#define HM_POSTCARD_FIELD_OPTION	(1U << 5)	/* "e2e"; a trace's option keys */
#define HM_POSTCARD_FIELD_ALL		((1U << 6) - 1)

/**
 * struct hm_postcard - one event of one node about one packet
 * @type:	enum hm_postcard_type
 * @present:	HM_POSTCARD_F_* for the optional fields below
 * @ts_ns:	POSIX time in ns when the node processed the packet
 * @ifindex:	the node's ingress interface
 * @node_id:	exporting node's short node ID (24 bits; 0xffffff unknown),
 *		from the agent's configuration, not from the packet
 * @node_id_wide: its wide node ID (56 bits), with %HM_POSTCARD_F_NODE_ID_WIDE
 * @ns_id:	IOAM-Namespace
 * @flow_id:	DEX Flow ID (RFC 9326 §3.2)
 * @seq:	DEX Sequence Number (RFC 9326 §3.2), or the low 32 bits of an
 *		E2E sequence number
 * @trace_type:	24-bit IOAM-Trace-Type, host order (bit 0 = 0x800000)
 * @node_data:	this node's data in trace layout (RFC 9197 §4.4.2), network
 *		byte order, for DEX; NULL if none
 * @node_data_len: bytes at @node_data
 * @option:	the IOAM option as received, from the IPv6 option type octet
 *		(0x31) or from the IOAM Option-Type octet; NULL if none
 * @option_len:	bytes at @option
 * @headers:	the packet from its IPv6 header on, possibly truncated
 * @headers_len: bytes at @headers
 * @pkt_len:	the packet's length from the IPv6 header on, bytes
 * @omit:	HM_POSTCARD_FIELD_* left out of the JSON (the agent's
 *		exported-fields setting); 0: every field
 */
struct hm_postcard {
	enum hm_postcard_type type;
	__u32	present;
	__u64	ts_ns;
	__u32	ifindex;
	__u32	node_id;
	__u64	node_id_wide;
	__u16	ns_id;
	__u32	flow_id;
	__u32	seq;
	__u32	trace_type;
	const __u8 *node_data;
	__u32	node_data_len;
	const __u8 *option;
	__u32	option_len;
	const __u8 *headers;
	__u32	headers_len;
	__u32	pkt_len;
	__u32	omit;
};

/**
 * hm_postcard_type_name() - the JSON name of a postcard type
 * @type: enum hm_postcard_type
 *
 * Return: "dex", "oflag", "e2e", "trace", or NULL for an unknown type.
 */
const char *hm_postcard_type_name(enum hm_postcard_type type);

/**
 * hm_postcard_field_name() - the name of a postcard field bit
 * @bit: bit number of HM_POSTCARD_FIELD_* (0 = HM_POSTCARD_FIELD_NODE)
 *
 * The names are the words of `hopmark export set fields` and of the
 * agent's log: "node", "timestamp", "flow", "headers", "node-data",
 * "option".
 *
 * Return: the name, or NULL for an undefined bit.
 */
const char *hm_postcard_field_name(unsigned int bit);

/**
 * hm_postcard_to_json() - a postcard as a JSON object
 * @pc: postcard
 *
 * The format is Documentation/postcards.rst. Node data are decoded as the
 * hops of a trace record are (Documentation/json-record.rst), unavailable
 * values are null; packet bytes that do not parse (truncated or malformed
 * headers, option or node data) are left out and named in "errors".
 * Fields in @pc->omit are left out altogether.
 *
 * Return: a new object (json_object_put() it), or NULL when out of memory
 * or @pc->type is unknown.
 */
struct json_object *hm_postcard_to_json(const struct hm_postcard *pc);

/**
 * hm_postcard_print_json() - print a postcard as one JSON line
 * @f:	stream
 * @pc:	postcard
 *
 * Return: 0; -EINVAL for an unknown @pc->type; -EIO when the line cannot be
 * built or written.
 */
int hm_postcard_print_json(FILE *f, const struct hm_postcard *pc);

struct pbt_record;

/**
 * hm_pbt_postcard_write_json() - a PBT-M postcard's JSON line into a buffer
 * @buf:	output (may be NULL when @size is 0)
 * @size:	bytes at @buf
 * @r:		record from the pbt_events ring buffer (lib/pbt/pbt_maps.h)
 *
 * The keys of Documentation/postcards.rst, "PBT-M postcards" ("postcard":
 * "pbt"), then '\n', written with lib/common/json_write.h: no allocation.
 * Nothing is written past @size. A per-flow template's fields are written
 * only for the fields @r->tpl_fields names; @r->hdr_len is cut to
 * %PBT_REC_HDR_MAX.
 *
 * Return: the line's length with its '\n' (more than @size: it did not
 * fit; write again into that many bytes).
 */
size_t hm_pbt_postcard_write_json(char *buf, size_t size, const struct pbt_record *r);

#endif /* __HOPMARK_POSTCARD_H */
