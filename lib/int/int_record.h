/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * int_record.h - the INT datapath's records (struct int_record, int_maps.h)
 * as the JSON lines hopmarkd writes on its output and monitor socket, read
 * back by `hopmark monitor`, and as text (int_record_json.c, int_table.c).
 * Documentation/int.rst, "Monitoring INT", is the format's specification.
 *
 * A line is one record: its own fields (kind, time, interface, node ID,
 * the flags, RepMdBits and metadata its Individual Report carries, as
 * int_rpt_record_flags() and int_rpt_record_md() give them), the domain's
 * signalling, and the packet it was made for, decoded (the "packet" and
 * "int" objects of `hopmark decode`, int_print.h) and in hex, so that a
 * reader decodes it again with the same code.
 */
#ifndef __HOPMARK_INT_RECORD_H
#define __HOPMARK_INT_RECORD_H

#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>

#include "int/int_decode.h"
#include "int/int_maps.h"

struct json_object;
struct int_domain_cfg;

/**
 * int_record_kind_name() - the JSON and text name of a record kind
 * @kind:	%INT_REC_*
 *
 * Return: "sink", "xd", "mx", "drop", "queue"; NULL for another value.
 */
const char *int_record_kind_name(__u32 kind);

/**
 * int_record_signal() - the signalling a domain's records are decoded with
 * @cfg:	int_cfg[0]
 * @sig:	output: the DSCP value and mask (%INT_SIG_DSCP) or the UDP
 *		port (%INT_SIG_UDP), the other method off; no source-only
 *		words (hopmark's sources write none)
 */
void int_record_signal(const struct int_domain_cfg *cfg, struct int_signal *sig);

/**
 * int_record_write_json() - a record's JSON line into a buffer
 * @buf:	output (may be NULL when @size is 0)
 * @size:	bytes at @buf
 * @r:		record
 * @sig:	signalling of the record's domain, to decode @r->pkt's INT
 *
 * The keys of Documentation/int.rst, "Monitoring INT", then '\n'. Nothing
 * is written past @size.
 *
 * Return: the line's length with its '\n' (more than @size: it did not
 * fit, write again into that many bytes); -EINVAL for a record its
 * Individual Report could not be made of either (unknown kind, family
 * not 4 or 6, @pkt_len beyond %INT_REC_PKT_MAX, metadata that
 * int_rpt_record_md() refuses).
 */
ssize_t int_record_write_json(char *buf, size_t size, const struct int_record *r,
			      const struct int_signal *sig);

/**
 * int_record_from_json() - a record line back into the record it was written from
 * @obj:	the line, parsed (json-c)
 * @r:		output
 * @sig:	output: the signalling the line names
 *
 * The record is written again with int_record_write_json() and must be
 * the object received, so a line is shown only when this reader and the
 * writer agree on it.
 *
 * Return: 0; -ENOENT when @obj is no INT record (no "int_record" key);
 * -EINVAL for a member missing, of the wrong type or out of range;
 * -EPROTO when the record written again differs; -ENOMEM.
 */
int int_record_from_json(struct json_object *obj, struct int_record *r, struct int_signal *sig);

/**
 * int_print_record_table() - a record as text
 * @f:		stream
 * @r:		record int_record_write_json() takes
 * @sig:	signalling of its domain
 *
 * A line of the record's fields, the node's metadata as a one-row table
 * (the columns of its RepMdBits), then the packet: its INT stack as
 * int_print_table() prints it, or its addresses and why its INT could not
 * be decoded, or nothing when the record carries no packet.
 *
 * Return: 0, or -EINVAL for a record int_record_write_json() refuses
 * (nothing printed).
 */
int int_print_record_table(FILE *f, const struct int_record *r, const struct int_signal *sig);

#endif /* __HOPMARK_INT_RECORD_H */
