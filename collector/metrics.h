/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * metrics.h - hopmark-collector --metrics ADDR:PORT: every counter of
 * collector/counters.h as Prometheus metrics (lib/common/prom.h), named
 * hopmark_collector_<group>_<name>_total (a gauge without "_total"),
 * served from libmicrohttpd's thread out of a snapshot the loop publishes
 * after every iteration. Documentation/metrics.rst.
 */
#ifndef __HOPMARK_COLLECTOR_METRICS_H
#define __HOPMARK_COLLECTOR_METRICS_H

#include <stdio.h>
#include "collector/counters.h"

struct hmc_metrics;

/**
 * hmc_metrics_new() - serve the collector's metrics
 * @addr:	"IPV4:PORT" or "[IPV6]:PORT" (PORT 0: the kernel picks one)
 *
 * Return: the metrics, or NULL with errno set (the reason is on stderr).
 */
struct hmc_metrics *hmc_metrics_new(const char *addr);

/**
 * hmc_metrics_port() - the TCP port listened on
 * @m:	metrics
 *
 * Return: the port, host order.
 */
unsigned int hmc_metrics_port(const struct hmc_metrics *m);

/**
 * hmc_metrics_publish() - copy the counters for the next scrapes
 * @m:	metrics, may be NULL (no --metrics: nothing happens)
 * @c:	where the counters are; a group whose pointer is NULL is not shown
 */
void hmc_metrics_publish(struct hmc_metrics *m, const struct hmc_counters *c);

/**
 * hmc_metrics_list() - print every metric family the collector may serve
 * @f:	where to
 *
 * One line per family: name, type, source ("<group>:<counter>").
 */
void hmc_metrics_list(FILE *f);

/**
 * hmc_metrics_free() - stop serving, free
 * @m:	metrics, may be NULL
 */
void hmc_metrics_free(struct hmc_metrics *m);

#endif /* __HOPMARK_COLLECTOR_METRICS_H */
