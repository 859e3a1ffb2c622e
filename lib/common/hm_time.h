/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hm_time.h - time units and the one textual time format of hopmark's
 * output: RFC 3339 UTC with nanoseconds (hm_time.c), as every JSON record,
 * postcard and log line writes it.
 */
#ifndef __HOPMARK_TIME_H
#define __HOPMARK_TIME_H

#include <stddef.h>
#include <linux/types.h>

#define HM_NSEC_PER_SEC		1000000000ULL
#define HM_USEC_PER_SEC		1000000U

/* "YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ" and its NUL. */
#define HM_TIME_RFC3339_LEN	31

/**
 * hm_time_rfc3339() - format POSIX time as RFC 3339 UTC with nanoseconds
 * @ns:		POSIX time, ns since the epoch (leap seconds not counted)
 * @buf:	output
 * @len:	size of @buf, at least %HM_TIME_RFC3339_LEN for the whole form
 *
 * Writes e.g. "2024-05-01T12:00:00.000123456Z" (RFC 3339 §5.6,
 * time-secfrac with 9 digits, "Z" for UTC). A time gmtime_r() cannot
 * represent is written as "invalid". The output is truncated (and still
 * NUL-terminated) if @len is too short.
 *
 * Return: @buf.
 */
char *hm_time_rfc3339(__u64 ns, char *buf, size_t len);

#endif /* __HOPMARK_TIME_H */
