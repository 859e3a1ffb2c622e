/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * path.h - hopmark-collector's per-packet path record: the postcards of
 * one user packet (flow key + packet ID), stitched in path order. What the
 * stitcher (collector/stitch.c) hands to every output: JSON lines
 * (Documentation/collector.rst gives the format), PostgreSQL, IPFIX
 * re-export and the broker's workers.
 */
#ifndef __HOPMARK_COLLECTOR_PATH_H
#define __HOPMARK_COLLECTOR_PATH_H

#include <linux/types.h>
#include "postcard/pc_obs.h"

#define HMC_PATH_MAX_HOPS	32

/* Where a packet whose path ends early was dropped (struct hmc_path.drop). */
#define HMC_DROP_NONE		0	/* reached the end node */
#define HMC_DROP_IN_NODE	1	/* last hop: ingress postcard, no egress one */
#define HMC_DROP_ON_LINK	2	/* last hop sent it; the next reported nothing */
#define HMC_DROP_UNKNOWN	3	/* incomplete, but the points exported do not tell */

/* struct hmc_path.flags */
#define HMC_PATH_F_CHANGED	(1U << 0)	/* node sequence differs from the flow's last */
#define HMC_PATH_F_NEW_FLOW	(1U << 1)	/* the first path of its flow (or after eviction) */
#define HMC_PATH_F_EVICTED	(1U << 2)	/* emitted early: max_packets reached */
#define HMC_PATH_F_GAP		(1U << 3)	/* hops missing inside the path (@lost > 0) */
#define HMC_PATH_F_HEAD		(1U << 4)	/* the head node's postcard is in it */

/**
 * struct hmc_hop - one node of a packet's path
 * @node_id:	node ID
 * @ttl:	TTL / Hop Limit at the node's first postcard
 * @points:	PBT_PT_INGRESS | PBT_PT_EGRESS seen
 * @in_if:	ingressInterface (0: unknown)
 * @out_if:	egressInterface (0: unknown)
 * @in_ns:	ingress postcard's time, POSIX ns (0: none)
 * @out_ns:	egress postcard's time (0: none)
 * @qdepth:	queue depth at egress, bytes (0xffffffff: unknown)
 */
struct hmc_hop {
	__u32	node_id;
	__u8	ttl;
	__u8	points;
	__u16	pad;
	__u32	in_if;
	__u32	out_if;
	__u64	in_ns;
	__u64	out_ns;
	__u32	qdepth;
	__u32	pad2;
};

/**
 * struct hmc_path - one user packet's path
 * @key:	flow key
 * @pkt_id:	packet ID
 * @nr_hops:	hops used in @hops
 * @drop:	%HMC_DROP_*
 * @dups:	duplicate postcards dropped while stitching
 * @first_ns:	earliest postcard time, POSIX ns
 * @flags:	%HMC_PATH_F_*
 * @lost:	hops missing inside the path: TTL / Hop Limit steps between
 *		consecutive hops beyond one (their postcards were lost)
 * @pad:	zero
 * @hops:	in path order (TTL / Hop Limit descending, then time)
 */
struct hmc_path {
	struct hm_flow_key	key;
	__u32			pkt_id;
	__u8			nr_hops;
	__u8			drop;
	__u16			dups;
	__u64			first_ns;
	__u16			flags;
	__u16			lost;
	__u32			pad;
	struct hmc_hop		hops[HMC_PATH_MAX_HOPS];
};

#endif /* __HOPMARK_COLLECTOR_PATH_H */
