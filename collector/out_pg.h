/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * out_pg.h - hopmark-collector's PostgreSQL output (collector/out_pg.c):
 * the operations of collector/output.h and the counters it keeps.
 */
#ifndef __HOPMARK_COLLECTOR_OUT_PG_H
#define __HOPMARK_COLLECTOR_OUT_PG_H

#include <linux/types.h>
#include "collector/output.h"

/* A flush is made when this many paths are buffered, and at least once a second. */
#define HMC_PG_BATCH_PATHS	1000
/* Paths buffered while the database is unreachable; beyond it they are lost (counted). */
#define HMC_PG_MAX_BUFFERED	100000

extern const struct hmc_output_ops hmc_out_pg;

/**
 * struct hmc_pg_stats - what the PostgreSQL output did (counts)
 * @paths:	paths handed to it
 * @packets:	packets rows stored (committed)
 * @hops:	hops rows stored
 * @duplicates:	paths not stored because the same packet (flow key, packet
 *		ID, first postcard time) already was: a redelivered path
 * @flushes:	transactions committed
 * @failures:	flushes that failed (connection lost, SQL error); their paths
 *		stay buffered and are retried
 * @reconnects:	connections made again after a failure
 * @lost:	paths dropped because %HMC_PG_MAX_BUFFERED were buffered
 */
struct hmc_pg_stats {
	__u64	paths;
	__u64	packets;
	__u64	hops;
	__u64	duplicates;
	__u64	flushes;
	__u64	failures;
	__u64	reconnects;
	__u64	lost;
};

/**
 * hmc_pg_stats() - the counters of a PostgreSQL output
 * @ctx:	what hmc_out_pg.open stored
 *
 * Return: the counters, valid while the output is open.
 */
const struct hmc_pg_stats *hmc_pg_stats(const void *ctx);

/**
 * hmc_pg_stats_at_close() - where the output leaves its counters when it
 *	closes (after its last flush and the paths it lost then), so that
 *	the statistics written at exit hold them
 * @ctx:	what hmc_out_pg.open stored
 * @final:	written by hmc_out_pg.close; must outlive the output
 */
void hmc_pg_stats_at_close(void *ctx, struct hmc_pg_stats *final);

#endif /* __HOPMARK_COLLECTOR_OUT_PG_H */
