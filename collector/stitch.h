/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * stitch.h - hopmark-collector's stitcher: the postcards of one user
 * packet (same flow key and packet ID) are gathered within a window,
 * ordered by TTL / Hop Limit (descending; time where they tie) and handed
 * on as one struct hmc_path when the packet is complete (its end node
 * reported) or when its window has passed (a drop: located from the last
 * hop that reported). Reordered postcards are placed where they belong;
 * a postcard seen twice (same node, same point) is counted and dropped.
 * Single-threaded: one stitcher per collector process or broker worker.
 */
#ifndef __HOPMARK_COLLECTOR_STITCH_H
#define __HOPMARK_COLLECTOR_STITCH_H

#include <stddef.h>
#include <linux/types.h>
#include "collector/path.h"

struct hmc_stitch;

/**
 * struct hmc_stitch_cfg - stitcher settings
 * @window_ns:		how long after a packet's first postcard the stitcher
 *			waits for the rest, ns (POSIX time of the postcards)
 * @max_packets:	packets tracked at once; a postcard for a new packet
 *			beyond it emits the oldest tracked packet early (counted)
 * @max_flows:		flows whose last path is kept for path changes; the
 *			least recently seen is forgotten beyond it (counted);
 *			0: 4 x @max_packets
 */
struct hmc_stitch_cfg {
	__u64	window_ns;
	__u32	max_packets;
	__u32	max_flows;
};

/**
 * struct hmc_stitch_stats - what the stitcher did (all counts)
 * @postcards:		postcards added
 * @duplicates:		postcards dropped as duplicates
 * @reordered:		postcards that arrived after one of a later hop
 * @packets:		paths emitted
 * @complete:		paths that reached the end node
 * @drops_in_node:	paths with %HMC_DROP_IN_NODE
 * @drops_on_link:	paths with %HMC_DROP_ON_LINK
 * @drops_unknown:	paths with %HMC_DROP_UNKNOWN
 * @evicted:		packets emitted early because @max_packets was reached
 * @late:		postcards for a packet already emitted (dropped)
 * @path_changes:	packets whose node sequence differed from their flow's last
 * @too_many_hops:	postcards beyond %HMC_PATH_MAX_HOPS hops (dropped)
 * @lost:		hops missing inside emitted paths (struct hmc_path.lost)
 * @flows_evicted:	flows forgotten because @max_flows was reached
 * @tracked:		packets tracked now (a gauge)
 * @flows:		flows tracked now (a gauge)
 */
struct hmc_stitch_stats {
	__u64	postcards;
	__u64	duplicates;
	__u64	reordered;
	__u64	packets;
	__u64	complete;
	__u64	drops_in_node;
	__u64	drops_on_link;
	__u64	drops_unknown;
	__u64	evicted;
	__u64	late;
	__u64	path_changes;
	__u64	too_many_hops;
	__u64	lost;
	__u64	flows_evicted;
	__u64	tracked;
	__u64	flows;
};

/**
 * typedef hmc_emit_fn - receives every stitched path
 * @arg:	the pointer given to hmc_stitch_new()
 * @path:	the path, valid during the call only
 */
typedef void (*hmc_emit_fn)(void *arg, const struct hmc_path *path);

/**
 * hmc_stitch_new() - make a stitcher
 * @cfg:	settings
 * @emit:	called for every path, from hmc_stitch_add(),
 *		hmc_stitch_expire() and hmc_stitch_flush()
 * @arg:	passed to @emit
 *
 * Return: the stitcher, or NULL with errno ENOMEM / EINVAL.
 */
struct hmc_stitch *hmc_stitch_new(const struct hmc_stitch_cfg *cfg, hmc_emit_fn emit, void *arg);

/**
 * hmc_stitch_add() - add one postcard
 * @s:		stitcher
 * @o:		the postcard
 * @now_ns:	current POSIX time, ns
 *
 * Return: 0 when added, 1 when dropped as a duplicate or late (counted).
 */
int hmc_stitch_add(struct hmc_stitch *s, const struct hm_pc_obs *o, __u64 now_ns);

/**
 * hmc_stitch_expire() - emit every packet whose window has passed
 * @s:		stitcher
 * @now_ns:	current POSIX time, ns
 */
void hmc_stitch_expire(struct hmc_stitch *s, __u64 now_ns);

/**
 * hmc_stitch_flush() - emit every tracked packet (at exit)
 * @s:	stitcher
 */
void hmc_stitch_flush(struct hmc_stitch *s);

/**
 * hmc_stitch_stats() - the stitcher's counters
 * @s:	stitcher
 *
 * Return: the counters, valid while @s lives.
 */
const struct hmc_stitch_stats *hmc_stitch_stats(const struct hmc_stitch *s);

/**
 * hmc_stitch_mem() - memory the stitcher holds, octets
 * @s:		stitcher
 * @per_packet:	if not NULL: octets per tracked packet (slot and index)
 * @per_flow:	if not NULL: octets per tracked flow (entry and index)
 *
 * All of it is allocated by hmc_stitch_new(): adding postcards allocates
 * nothing.
 *
 * Return: the total.
 */
size_t hmc_stitch_mem(const struct hmc_stitch *s, size_t *per_packet, size_t *per_flow);

/**
 * hmc_stitch_free() - free a stitcher without emitting
 * @s:	stitcher, or NULL
 */
void hmc_stitch_free(struct hmc_stitch *s);

#endif /* __HOPMARK_COLLECTOR_STITCH_H */
