// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * record.c - build a struct hm_record, the one view of a traced packet that
 * every output of hopmark renders, from either source: a sink's ring
 * buffer record (struct hopmark_ioam_record) or a captured IPv6 packet.
 */
#include <errno.h>
#include <string.h>

#include "hopmark.h"

/**
 * hm_record_from_ring() - build a record from a sink's ring buffer record
 * @rec:	record as struct hopmark_ioam_record (host byte order fields,
 *		addresses and the option in network byte order)
 * @size:	bytes received
 * @sink_node_id: node ID of the sink (from its hopmark_node map); use
 *		0xffffff when unknown
 * @out:	output
 *
 * The record's @opt_len bounds the option handed to the decoder; an
 * @opt_len larger than the record's option buffer is malformed.
 *
 * Return: 0, or the error of hm_ioam_trace_decode(); -EMSGSIZE if @size
 * is smaller than the record; -EINVAL if its opt_len exceeds
 * %HM_RECORD_OPT_MAX.
 */
int hm_record_from_ring(const void *rec, size_t size, __u32 sink_node_id,
			struct hm_record *out)
{
	const struct hopmark_ioam_record *r = rec;

	if (!rec || !out)
		return -EINVAL;
	memset(out, 0, offsetof(struct hm_record, trace));
	if (size < sizeof(*r))
		return -EMSGSIZE;
	if (r->opt_len > HM_RECORD_OPT_MAX)
		return -EINVAL;

	out->rx_ns = r->rx_ns;
	out->ifindex = r->ifindex;
	out->sink_if_id = r->if_id;
	out->sink_node_id = sink_node_id & HM_IOAM_U24_UNAVAILABLE;
	memcpy(out->pkt.saddr, r->saddr, sizeof(out->pkt.saddr));
	memcpy(out->pkt.daddr, r->daddr, sizeof(out->pkt.daddr));
	out->pkt.flow_label = r->flow_label & 0xfffff;
	out->pkt.payload_len = r->payload_len;
	out->pkt.hop_limit = r->hop_limit;
	out->pkt.proto = r->proto;
	out->pkt.sport = r->sport;
	out->pkt.dport = r->dport;
	return hm_ioam_trace_decode(r->opt, r->opt_len, &out->trace);
}

/**
 * hm_record_from_packet() - build a record from a captured IPv6 packet
 * @pkt:	packet starting at the IPv6 header
 * @len:	bytes at @pkt (the captured length)
 * @ts_ns:	capture time, POSIX ns
 * @out:	output; the sink is unknown: ifindex 0, sink_if_id 0xffff,
 *		sink_node_id 0xffffff
 *
 * The packet identity is the packet as captured, IOAM option included
 * (payload_len counts the Hop-by-Hop header).
 *
 * Return: 0; -ENOENT if the packet carries no IOAM pre-allocated trace;
 * other negative errno as hm_ipv6_find_ioam() and hm_ioam_trace_decode().
 */
int hm_record_from_packet(const __u8 *pkt, size_t len, __u64 ts_ns,
			  struct hm_record *out)
{
	size_t opt_off, opt_len;
	int err;

	if (!pkt || !out)
		return -EINVAL;
	memset(out, 0, offsetof(struct hm_record, trace));
	out->rx_ns = ts_ns;
	out->sink_if_id = HM_IOAM_U16_UNAVAILABLE;
	out->sink_node_id = HM_IOAM_U24_UNAVAILABLE;
	err = hm_ipv6_find_ioam(pkt, len, &out->pkt, &opt_off, &opt_len);
	if (err)
		return err;
	return hm_ioam_trace_decode(pkt + opt_off, opt_len, &out->trace);
}
