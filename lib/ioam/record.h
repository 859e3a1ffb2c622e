/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * record.h - one traced packet as hopmark reports it (struct hm_record:
 * from a sink's ring buffer record or from a captured packet), its JSON
 * form (record_json.c, Documentation/json-record.rst) and the reader of
 * it (record_from_json.c), its table
 * (record_table.c) and per-hop summaries over many records (summary.c).
 */
#ifndef __HOPMARK_IOAM_RECORD_H
#define __HOPMARK_IOAM_RECORD_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#include "ioam/trace.h"
#include "ipv6/ipv6_parse.h"

struct json_object;

/**
 * struct hm_record - one traced packet as hopmark reports it
 * @rx_ns:	POSIX time in ns when the sink (or the capture) saw it
 * @ifindex:	sink interface index (0 when read from a capture)
 * @sink_if_id:	sink interface's short IOAM ID (0xffff if unknown)
 * @sink_node_id: sink's short node ID (0xffffff if unknown)
 * @pkt:	packet identity
 * @trace:	decoded trace
 */
struct hm_record {
	__u64	rx_ns;
	__u32	ifindex;
	__u16	sink_if_id;
	__u32	sink_node_id;
	struct hm_pkt_info pkt;
	struct hm_ioam_trace trace;
};

/**
 * hm_record_from_ring() - build a record from a sink's ring buffer record
 * @rec:	record as struct hopmark_ioam_record
 * @size:	bytes received
 * @sink_node_id: node ID of the sink (from its hopmark_node map)
 * @out:	output
 *
 * Return: 0, or the error of hm_ioam_trace_decode(); -EMSGSIZE if @size
 * is smaller than the record.
 */
int hm_record_from_ring(const void *rec, size_t size, __u32 sink_node_id,
			struct hm_record *out);

/**
 * hm_record_from_packet() - build a record from a captured IPv6 packet
 * @pkt:	packet starting at the IPv6 header
 * @len:	bytes at @pkt
 * @ts_ns:	capture time, POSIX ns
 * @out:	output
 *
 * Return: 0; -ENOENT if the packet carries no IOAM pre-allocated trace;
 * other negative errno as hm_ipv6_find_ioam() and hm_ioam_trace_decode().
 */
int hm_record_from_packet(const __u8 *pkt, size_t len, __u64 ts_ns,
			  struct hm_record *out);

/**
 * hm_record_to_json() - the JSON form of a record (Documentation/json-record.rst)
 * @r: record
 *
 * Return: a new json-c object the caller puts, or NULL on ENOMEM.
 */
struct json_object *hm_record_to_json(const struct hm_record *r);

/**
 * hm_record_from_json() - the record a JSON object is the form of
 * @obj:	the object, e.g. one line of hopmarkd's output parsed by json-c
 * @r:		output
 *
 * The reader of hm_record_to_json() (record_from_json.c). Every field the
 * object's IOAM-Trace-Type carries is read; a null value is "unavailable"
 * (all-ones of the field's width, RFC 9197 §4.4.2). The record is then
 * written again with hm_record_to_json() and must compare equal to @obj
 * (json_object_equal()): a record of another version of the format is
 * refused, never misread.
 *
 * Return: 0; -EINVAL if @obj is not an object, lacks "sink", "packet",
 * "hops" (an array of at most %HM_MAX_HOPS) or "trace_type" (a string), or
 * has a packet address that is not IPv6; -EPROTO if the record written
 * again differs from @obj; -ENOMEM.
 */
int hm_record_from_json(struct json_object *obj, struct hm_record *r);

/**
 * hm_record_write_json() - write a record's JSON line into a buffer
 * @buf:	output (may be NULL when @size is 0)
 * @size:	bytes at @buf
 * @r:		record
 *
 * The line hm_record_print_json() prints, byte for byte the bytes json-c
 * prints for hm_record_to_json() with JSON_C_TO_STRING_PLAIN |
 * JSON_C_TO_STRING_NOSLASHESCAPE, then '\n'; written without building
 * the object, and without allocating. Nothing is written past @size; a
 * '\0' follows the line when there is room for it.
 *
 * Return: the line's length with its '\n', bytes; when that is more than
 * @size the line did not fit (and is cut): write again into a buffer of
 * that size.
 */
size_t hm_record_write_json(char *buf, size_t size, const struct hm_record *r);

/**
 * hm_record_print_json() - print a record as one JSON line
 * @f: stream
 * @r: record
 *
 * Return: 0 or -EIO.
 */
int hm_record_print_json(FILE *f, const struct hm_record *r);

/**
 * hm_record_print_table() - print a record as a readable per-hop table
 * @f: stream
 * @r: record
 *
 * One row per node data entry in path order and a last row for the sink:
 * hop, node ID, ingress/egress interface IDs, hop limit, timestamp,
 * latency from the previous hop (us), transit delay (us), queue depth.
 */
void hm_record_print_table(FILE *f, const struct hm_record *r);

/**
 * struct hm_summary - per-hop latency statistics over many records
 *
 * Opaque; create with hm_summary_new(), feed with hm_summary_add(), print
 * with hm_summary_print() and free with hm_summary_free().
 */
struct hm_summary;

struct hm_summary *hm_summary_new(void);
void hm_summary_add(struct hm_summary *s, const struct hm_record *r);

/**
 * hm_summary_print() - per hop: count, min / median / p99 latency (us)
 * @s: summary
 * @f: stream
 * @json: print one JSON object instead of a table
 */
void hm_summary_print(const struct hm_summary *s, FILE *f, int json);
void hm_summary_free(struct hm_summary *s);

#endif /* __HOPMARK_IOAM_RECORD_H */
