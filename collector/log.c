// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * log.c - hopmark-collector's rate-limited log (collector/log.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "collector/log.h"

static struct {
	__u64		sec;
	unsigned int	lines;
	unsigned long	suppressed;
} hmc_log_rate[HMC_LOG_KINDS];

static int hmc_log_off;

__u64 hmc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void hmc_log_quiet(int quiet)
{
	hmc_log_off = quiet;
}

void hmc_log(enum hmc_log_kind kind, const char *fmt, ...)
{
	__u64 sec = hmc_now_ns() / 1000000000ULL;
	va_list ap;

	if (hmc_log_off || kind >= HMC_LOG_KINDS)
		return;
	if (hmc_log_rate[kind].sec != sec) {
		hmc_log_rate[kind].sec = sec;
		hmc_log_rate[kind].lines = 0;
	}
	if (hmc_log_rate[kind].lines >= HMC_LOG_BURST) {
		hmc_log_rate[kind].suppressed++;
		return;
	}
	hmc_log_rate[kind].lines++;
	fputs("hopmark-collector: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (hmc_log_rate[kind].suppressed) {
		fprintf(stderr, " (%lu similar lines suppressed)", hmc_log_rate[kind].suppressed);
		hmc_log_rate[kind].suppressed = 0;
	}
	fputc('\n', stderr);
}
