/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * broker.h - hopmark-collector's scale-out on NATS JetStream
 * (collector/broker.c, Documentation/collector-scaleout.rst). Front
 * collectors publish every postcard (struct hm_pc_obs, in its portable
 * encoding) to partition hm_flow_hash(key) % P of one stream; stitching
 * worker I of W consumes the partitions p with p % W == I, so all the
 * postcards of a packet meet at one worker. A worker acknowledges a
 * postcard only once the path it belongs to has been written by the
 * outputs (hmc_broker_commit() after their flush); a worker started with
 * the index of one that died replays its partitions from two windows
 * before their ack floor, so nothing is lost, and the paths written twice are counted and dropped
 * by the output's unique key (collector/out_pg.c) or the stitcher.
 */
#ifndef __HOPMARK_COLLECTOR_BROKER_H
#define __HOPMARK_COLLECTOR_BROKER_H

#include <linux/types.h>
#include "collector/path.h"
#include "collector/stitch.h"
#include "postcard/pc_obs.h"

#define HMC_BROKER_STREAM	"HOPMARK_PC"	/* subjects "hmpc.<partition>" */
#define HMC_BROKER_MAX_PART	256

struct hmc_broker;

/**
 * struct hmc_broker_cfg - where and what this process is
 * @url:	nats://HOST:PORT
 * @partitions:	P, the same for every front and worker (1..%HMC_BROKER_MAX_PART)
 * @workers:	W, the number of worker indexes (1..P)
 * @index:	-1 for a front collector, else the worker index 0..W-1
 * @seed:	hm_flow_hash() seed of the partitioning
 * @window_ns:	the stitcher's window, ns: a worker replays from two
 *		windows before its partitions' ack floor
 */
struct hmc_broker_cfg {
	const char	*url;
	__u32		partitions;
	__u32		workers;
	int		index;
	__u32		seed;
	__u64		window_ns;
};

/**
 * struct hmc_broker_stats - counts
 * @published:		postcards the broker confirmed (front)
 * @publish_failed:	postcards it refused or did not confirm (front)
 * @broker_dups:	postcards published twice that JetStream dropped by
 *			their message ID (front)
 * @received:		postcards consumed (worker)
 * @bad:		messages that were not a postcard (counted, acked, dropped)
 * @replayed:		postcards consumed again after a worker of this index
 *			died: delivered to it, not acknowledged by it
 * @stitch_dropped:	postcards the stitcher dropped as duplicate or late
 * @replay_done:	replayed postcards of packets already in the outputs (one of
 *			their postcards was at or below the ack floor): acked, dropped
 * @acked:		acknowledgements sent
 * @ack_failed:		acknowledgements that could not be sent
 */
struct hmc_broker_stats {
	__u64	published;
	__u64	publish_failed;
	__u64	broker_dups;
	__u64	received;
	__u64	bad;
	__u64	replayed;
	__u64	stitch_dropped;
	__u64	replay_done;
	__u64	acked;
	__u64	ack_failed;
};

/**
 * hmc_broker_open() - connect, make the stream if missing, and as a worker
 *	bind this index's partitions (replaying from their ack floor)
 * @cfg:	settings
 * @err:	set to a negative errno on failure (logged)
 *
 * Return: the broker handle, or NULL.
 */
struct hmc_broker *hmc_broker_open(const struct hmc_broker_cfg *cfg, int *err);

/**
 * hmc_broker_publish() - front: publish one postcard, asynchronously
 * @b:	broker
 * @o:	postcard
 *
 * Return: 0, or a negative errno (counted in @publish_failed).
 */
int hmc_broker_publish(struct hmc_broker *b, const struct hm_pc_obs *o);

/**
 * hmc_broker_sync() - front: wait until every publish is confirmed
 * @b:		broker
 * @timeout_ms:	at most this long
 *
 * Return: 0, or -ETIMEDOUT / -EIO.
 */
int hmc_broker_sync(struct hmc_broker *b, int timeout_ms);

/**
 * hmc_broker_poll() - worker: consume what is there, into the stitcher
 * @b:		broker
 * @s:		this worker's stitcher; its emit callback must call
 *		hmc_broker_emitted() for every path
 * @timeout_ms:	wait at most this long for the first message
 *
 * Return: the postcards consumed, or a negative errno.
 */
int hmc_broker_poll(struct hmc_broker *b, struct hmc_stitch *s, int timeout_ms);

/**
 * hmc_broker_now() - worker: the time to expire the stitcher's windows by
 * @b:	broker
 *
 * While a backlog is being consumed (a replay), the publish time of the
 * last postcard consumed, so that a replayed packet is not expired before
 * its later postcards are read; else the current POSIX time.
 *
 * Return: POSIX ns.
 */
__u64 hmc_broker_now(const struct hmc_broker *b);

/**
 * hmc_broker_emitted() - worker: the postcards of @p may be acknowledged
 *	at the next hmc_broker_commit()
 * @b:	broker
 * @p:	the path the stitcher emitted
 */
void hmc_broker_emitted(struct hmc_broker *b, const struct hmc_path *p);

/**
 * hmc_broker_commit() - worker: acknowledge the postcards of the paths
 *	emitted so far; call it only after the outputs' flush succeeded
 * @b:	broker
 *
 * Return: the acknowledgements sent, or a negative errno.
 */
int hmc_broker_commit(struct hmc_broker *b);

/**
 * hmc_broker_stats() - the counters
 * @b:	broker
 *
 * Return: valid while @b is open.
 */
const struct hmc_broker_stats *hmc_broker_stats(const struct hmc_broker *b);

/**
 * hmc_broker_close() - disconnect; unacknowledged postcards stay in the
 *	stream for the next worker of this index
 * @b:	broker, or NULL
 */
void hmc_broker_close(struct hmc_broker *b);

#endif /* __HOPMARK_COLLECTOR_BROKER_H */
