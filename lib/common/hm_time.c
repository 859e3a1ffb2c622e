// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hm_time.c - RFC 3339 formatting of POSIX nanoseconds (hm_time.h).
 */
#include <stdio.h>
#include <time.h>

#include "common/hm_time.h"

char *hm_time_rfc3339(__u64 ns, char *buf, size_t len)
{
	time_t sec = ns / HM_NSEC_PER_SEC;
	struct tm tm;

	if (!len)
		return buf;
	if (!gmtime_r(&sec, &tm)) {
		snprintf(buf, len, "invalid");
		return buf;
	}
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%09lluZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (unsigned long long)(ns % HM_NSEC_PER_SEC));
	return buf;
}
