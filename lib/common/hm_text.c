// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hm_text.c - the parser helpers of hm_text.h, one copy for the settings
 * parsers of lib/int/, lib/pbt/ and lib/select/.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/hm_text.h"

int hm_fail(int err, char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (msg && len) {
		va_start(ap, fmt);
		vsnprintf(msg, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

int hm_parse_num(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 0);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || *v > max)
		return -ERANGE;
	return 0;
}

void hm_append(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off = *off + n < len ? *off + n : len - 1;
}
