/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * log.h - hopmark-collector's log: one line per event on standard error,
 * rate-limited per kind of event so that a flood of bad input cannot fill
 * a disk or cost more than the input itself. The counters, not the log,
 * are the complete account: a suppressed line still counts.
 */
#ifndef __HOPMARK_COLLECTOR_LOG_H
#define __HOPMARK_COLLECTOR_LOG_H

#include <linux/types.h>

/* Kinds of logged events, each with its own rate limit. */
enum hmc_log_kind {
	HMC_LOG_INFO,
	HMC_LOG_IPFIX,		/* a malformed or refused IPFIX message */
	HMC_LOG_TEMPLATE,	/* a template withdrawn, changed, missing */
	HMC_LOG_EXPORTER,	/* an exporter refused or expired */
	HMC_LOG_REPORT,		/* a malformed Telemetry Report */
	HMC_LOG_OUTPUT,		/* an output's failure */
	HMC_LOG_KINDS
};

/* At most this many lines per kind per second; the rest are counted. */
#define HMC_LOG_BURST		5

/**
 * hmc_log() - log one event, unless its kind is over its rate
 * @kind:	%HMC_LOG_*
 * @fmt:	printf(3) format, without the trailing newline
 *
 * When lines of @kind were suppressed in the last second, the next one
 * logged says how many.
 */
void hmc_log(enum hmc_log_kind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * hmc_log_quiet() - log nothing (the fuzz harness and the unit tests)
 * @quiet:	1: drop every line; 0: log
 */
void hmc_log_quiet(int quiet);

/**
 * hmc_now_ns() - CLOCK_REALTIME, POSIX ns (the postcards' clock)
 *
 * Return: the time.
 */
__u64 hmc_now_ns(void);

#endif /* __HOPMARK_COLLECTOR_LOG_H */
