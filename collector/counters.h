/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * counters.h - every counter of hopmark-collector by group and name, one
 * walk for each consumer: the statistics file (-s), and the Prometheus
 * exposition (--metrics, lib/common/prom), which names a counter
 * hopmark_collector_<group>_<name>_total and a gauge without the suffix.
 */
#ifndef __HOPMARK_COLLECTOR_COUNTERS_H
#define __HOPMARK_COLLECTOR_COUNTERS_H

#include <stdio.h>
#include <linux/types.h>

#include "collector/broker.h"
#include "collector/ipfix_in.h"
#include "collector/out_pg.h"
#include "collector/report_in.h"
#include "collector/stitch.h"

/**
 * struct hmc_output_stats - what the outputs did (counts)
 * @paths:	paths handed to the outputs
 * @failures:	paths an output refused (struct hmc_output_ops.path < 0)
 * @flush_errors: flushes that failed
 */
struct hmc_output_stats {
	__u64	paths;
	__u64	failures;
	__u64	flush_errors;
};

/**
 * struct hmc_counters - where the counters are
 * @ipfix:	the IPFIX input's (NULL: none)
 * @report:	the Telemetry Report input's (NULL: none)
 * @stitch:	the stitcher's (NULL: none, e.g. a broker front)
 * @output:	the outputs' (NULL: none)
 * @pg:		the PostgreSQL output's (NULL: no --pg)
 * @broker:	the broker client's (NULL: no --broker)
 */
struct hmc_counters {
	const struct hmc_ipfix_stats	*ipfix;
	const struct hmc_report_stats	*report;
	const struct hmc_stitch_stats	*stitch;
	const struct hmc_output_stats	*output;
	const struct hmc_pg_stats	*pg;
	const struct hmc_broker_stats	*broker;
};

/**
 * typedef hmc_counter_fn - receives one counter
 * @arg:	as given
 * @group:	"ipfix", "report", "stitch", "output", "pg", "broker"
 * @name:	lowercase, '_' separated ("no_template")
 * @value:	its value
 * @gauge:	1 for a gauge (a current count), 0 for a counter
 */
typedef void (*hmc_counter_fn)(void *arg, const char *group, const char *name, __u64 value,
			       int gauge);

/**
 * hmc_counters_each() - call @fn for every counter, in a fixed order
 * @c:		the counters
 * @fn:		callback
 * @arg:	passed to @fn
 */
void hmc_counters_each(const struct hmc_counters *c, hmc_counter_fn fn, void *arg);

/**
 * hmc_counters_json() - every counter as one JSON object line
 * ({"ipfix":{"messages":N,...},"stitch":{...},...}; a group whose
 * pointer is NULL is left out)
 * @c:	the counters
 * @f:	where to write it
 *
 * Return: 0, or -EIO when writing failed.
 */
int hmc_counters_json(const struct hmc_counters *c, FILE *f);

#endif /* __HOPMARK_COLLECTOR_COUNTERS_H */
