/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_sink.h - the PINT sink's inference in userspace: per flow, the
 * path decoder (pint_decoder_*), a KLL sketch of latency per (flow, hop)
 * and the path's maximum utilisation, fed with the records the datapath's
 * sink puts on the pint_events ring buffer (struct pint_record). Used by
 * hopmarkd (agent/pint_sink.c) and `hopmark pint show`.
 *
 * Also the userspace twin of the datapath's packet parsing: the packet ID
 * and PINT fields of a frame, for tests and captures.
 */
#ifndef __HOPMARK_PINT_SINK_H
#define __HOPMARK_PINT_SINK_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include "pint/pint_maps.h"

/* Flows followed by one sink state; further flows are counted, not kept. */
#define PINT_SINK_MAX_FLOWS	4096
/* Largest switch-ID range the decoder's universe takes. */
#define PINT_SINK_MAX_IDS	65536
/* KLL k of the per-hop latency sketches (rank error about 1.7 %). */
#define PINT_SINK_KLL_K		200
/* Decoded paths remembered per flow (the current one and earlier ones). */
#define PINT_SINK_PATHS		4
/* The agent's state file is HM_PINT_STATE_NAME in the run directory. */

struct pint_sink;
struct json_object;

/**
 * struct pint_sink_stats - counters of a sink state
 * @records:		records given to pint_sink_add()
 * @bad_records:	records that were too short or had a bad hop count
 * @flows:		flows followed now
 * @flows_refused:	records of new flows beyond %PINT_SINK_MAX_FLOWS
 */
struct pint_sink_stats {
	unsigned long	records;
	unsigned long	bad_records;
	unsigned long	flows;
	unsigned long	flows_refused;
};

/**
 * pint_sink_new() - an empty inference state for a domain
 * @cfg:	the domain's settings as in pint_cfg[0] (copied); its path
 *		scheme, plan, latency scale and switch-ID range are used
 *
 * Return: the state, or NULL with errno EINVAL (not configured, bad
 * scheme, plan or ID range) or ENOMEM.
 */
struct pint_sink *pint_sink_new(const struct pint_domain_cfg *cfg);

/**
 * pint_sink_set_topology() - decode paths topology-aware
 * @s:		state, before its first record
 * @topo:	the network (borrowed for @s's lifetime): its node IDs, the
 *		switch IDs hops encode, replace the ID range of the settings
 *		as the decoder's universe, and its adjacency is required
 *
 * Every flow's decoder then keeps only candidates adjacent to the
 * neighbouring hops' (PINT_DEC_F_TOPO_AWARE, lib/pint/pint_decode.c), which
 * decodes a path from fewer packets (Documentation/pint.rst).
 *
 * Return: 0; -EINVAL when @topo has no node or no adjacency; -EBUSY when
 * @s already follows flows.
 */
int pint_sink_set_topology(struct pint_sink *s, const struct pint_topo *topo);

/**
 * pint_sink_free() - release a state (NULL allowed)
 * @s:		state
 */
void pint_sink_free(struct pint_sink *s);

/**
 * pint_sink_add() - feed one record from the ring buffer
 * @s:		state
 * @data:	the record
 * @size:	its size in bytes
 *
 * Finds (or creates) the record's flow; the path field goes to the flow's
 * decoder, the latency field is decoded to ns and added to the sketch of
 * the hop that wrote it (pint_lat_writer()), the utilisation field updates
 * the flow's maximum. A route change (PINT_DEC_ROUTE_CHANGE) keeps the
 * decoded path in the flow's history and resets its latency sketches.
 *
 * Return: the PINT_DEC_* bits of the path decoder (0 without a path
 * field), or -EINVAL for a malformed record, -ENOSPC when the flow table
 * is full, -ENOMEM.
 */
int pint_sink_add(struct pint_sink *s, const void *data, size_t size);

/**
 * pint_sink_to_json() - the state as JSON
 * @s:		state
 *
 * {"flows": [{family, src, dst, proto, sport, dport, packets,
 *   path: {complete, hops, ids[], packets_to_decode, route_changes,
 *          loops, candidates[] (per hop, while incomplete)},
 *   previous_paths: [[ids]...],
 *   latency: [{hop, samples, p50_ns, p90_ns, p99_ns}],
 *   util: {samples, max, last}}...], "stats": {...},
 *  "decoder": "topology-blind" | "topology-aware", "switches": N}
 *
 * Return: a new json-c object, or NULL on ENOMEM.
 */
struct json_object *pint_sink_to_json(const struct pint_sink *s);

/**
 * pint_sink_stats() - the state's counters
 * @s:		state
 *
 * Return: counters owned by @s.
 */
const struct pint_sink_stats *pint_sink_stats(const struct pint_sink *s);

/**
 * pint_sink_last_util() - the utilisation the last record carried
 * @s:		state
 *
 * What a receiver echoes to the sender per packet for HPCC (PINT §5,
 * congestion control): the utilisation field of the record last given to
 * pint_sink_add(), as the 8-bit code of lib/pint/pint_util.h (a field of
 * fewer bits mapped back with pint_util_field_code8()); pint_util_decode()
 * turns it into U.
 *
 * Return: the code, 0..255; -ENOENT when that record carried no
 * utilisation field (its query subset has none), was malformed or was
 * refused, or before the first record.
 */
int pint_sink_last_util(const struct pint_sink *s);

/**
 * struct pint_frame_info - PINT fields of an Ethernet frame
 * @pid:	packet ID, as the datapath computes it
 * @family:	4 or 6
 * @has_opt:	IPv6: the PINT Hop-by-Hop header is present
 * @ttl:	IPv4 TTL / IPv6 Hop Limit
 * @digest:	IPv4 Identification / the IPv6 option's digest
 * @count:	IPv6: the option's hop count
 */
struct pint_frame_info {
	__u32	pid;
	__u8	family;
	__u8	has_opt;
	__u8	ttl;
	__u8	count;
	__u16	digest;
};

/**
 * pint_frame_parse() - the datapath's parsing, in userspace
 * @frame:	Ethernet frame
 * @len:	its length in bytes
 * @info:	filled
 *
 * Return: 0; -EINVAL for a frame that is not IPv4/IPv6 or is truncated;
 * -EAGAIN for an IPv4 packet without DF or a fragment (PINT leaves those
 * alone).
 */
int pint_frame_parse(const __u8 *frame, size_t len, struct pint_frame_info *info);

/**
 * pint_domain_cfg_check() - is a pint_cfg[0] value usable?
 * @cfg:	settings
 *
 * Return: 0, or -EINVAL naming nothing (the CLI checks each word itself).
 */
int pint_domain_cfg_check(const struct pint_domain_cfg *cfg);

#endif /* __HOPMARK_PINT_SINK_H */
