/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hm_test.h - shared helpers of the libhopmark unit tests (cmocka, TAP).
 *
 * The vectors themselves are written out byte by byte in each test with
 * the RFC text they come from; these helpers only wrap a node data list in
 * the option and trace headers, whose every octet is explained here once.
 */
#ifndef __HM_TEST_H
#define __HM_TEST_H

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <cmocka.h>

#include "hopmark.h"

/*
 * hm_test_trace_opt() - an IOAM Pre-allocated Trace option around @data
 *
 *   octet 0  0x31         IPv6 option type of IOAM (RFC 9486 §2)
 *   octet 1  10 + n       Opt Data Len: reserved + IOAM Option-Type (2)
 *                         + trace header (8) + data area (n bytes)
 *   octet 2  0x00         Reserved (RFC 9486 §2.1)
 *   octet 3  0x00         IOAM Option-Type 0, pre-allocated trace
 *   octet 4-5             IOAM-Namespace, big-endian (RFC 9197 §4.4)
 *   octet 6  NodeLen << 3 | first three Flags bits (Overflow = 0x04)
 *   octet 7  last Flags bit (0) << 7 | RemainingLen
 *   octet 8-10            IOAM-Trace-Type, big-endian, bit 0 = 0x80 of octet 8
 *   octet 11 0x00         Reserved
 *   octet 12..            data area: RemainingLen * 4 free bytes (zero),
 *                         then node data, most recent node first
 *
 * Return: the option's total length in bytes (12 + @data_len).
 */
static inline size_t hm_test_trace_opt(__u8 *buf, __u16 ns, __u8 nodelen, __u8 flags,
				       __u8 remlen, __u32 tt, const __u8 *data,
				       size_t data_len)
{
	buf[0] = 0x31;
	buf[1] = 10 + data_len;
	buf[2] = 0;
	buf[3] = 0;
	buf[4] = ns >> 8;
	buf[5] = ns;
	buf[6] = nodelen << 3 | flags;
	buf[7] = remlen;
	buf[8] = tt >> 16;
	buf[9] = tt >> 8;
	buf[10] = tt;
	buf[11] = 0;
	if (data_len)
		memcpy(buf + 12, data, data_len);
	return 12 + data_len;
}

/* Every field "unavailable" (RFC 9197 §4.4.2: all-ones of its width). */
static inline void hm_test_unavailable(struct hm_ioam6_node_values *v)
{
	memset(v, 0, sizeof(*v));
	v->hop_limit = 0xff;
	v->node_id = 0xffffff;
	v->ingress_if = 0xffff;
	v->egress_if = 0xffff;
	v->ts_sec = v->ts_frac = v->transit_delay = v->ns_data = 0xffffffff;
	v->queue_depth = v->csum_compl = 0xffffffff;
	v->node_id_wide = 0xffffffffffffffULL;
	v->ingress_if_wide = v->egress_if_wide = 0xffffffff;
	v->ns_data_wide = 0xffffffffffffffffULL;
	v->buffer_occupancy = 0xffffffff;
	v->opaque_len = 0;
	v->opaque_schema = 0xffffff;
}

/* Compare every field and say which one differs. */
#define HM_CHECK_FIELD(f) \
	do { \
		if ((unsigned long long)exp->f != (unsigned long long)got->f) { \
			print_error("%s: field " #f ": expected 0x%llx, observed 0x%llx\n", \
				    what, (unsigned long long)exp->f, \
				    (unsigned long long)got->f); \
			bad++; \
		} \
	} while (0)

static inline void hm_test_check_node(const char *what, const struct hm_ioam6_node_values *exp,
				      const struct hm_ioam6_node_values *got)
{
	int bad = 0;

	HM_CHECK_FIELD(present);
	HM_CHECK_FIELD(hop_limit);
	HM_CHECK_FIELD(node_id);
	HM_CHECK_FIELD(ingress_if);
	HM_CHECK_FIELD(egress_if);
	HM_CHECK_FIELD(ts_sec);
	HM_CHECK_FIELD(ts_frac);
	HM_CHECK_FIELD(transit_delay);
	HM_CHECK_FIELD(ns_data);
	HM_CHECK_FIELD(queue_depth);
	HM_CHECK_FIELD(csum_compl);
	HM_CHECK_FIELD(node_id_wide);
	HM_CHECK_FIELD(ingress_if_wide);
	HM_CHECK_FIELD(egress_if_wide);
	HM_CHECK_FIELD(ns_data_wide);
	HM_CHECK_FIELD(buffer_occupancy);
	HM_CHECK_FIELD(opaque_len);
	HM_CHECK_FIELD(opaque_schema);
	if (bad)
		fail_msg("%s: %d field(s) differ", what, bad);
}

/*
 * Skipping with a reason. cmocka's skip() takes none, and cmocka 1.1.5
 * (Debian 12) prints a skipped test as "not ok N # SKIP name", which
 * TAP::Harness counts as a failure (cmocka 1.1.6 and later print "ok N #
 * SKIP name"). hm_test_skip() records why, then calls skip(); HM_RUN_TESTS()
 * passes cmocka's standard output through hm_test_tap_write(), which turns
 * the SKIP line that follows, in either form, into "ok N # SKIP name: why",
 * the TAP skip directive prove(1) counts as skipped. A SKIP line with no
 * reason recorded is passed on unchanged: a bare skip() still fails under
 * cmocka 1.1.5, so every skip says why.
 */
struct hm_test_tap {
	FILE	*out;			/* the process's standard output */
	FILE	*filter;		/* what stdout points to while tests run */
	size_t	len;			/* octets in @line */
	char	line[4096];		/* the line being assembled */
	char	reason[256];		/* set by hm_test_skip(), "" when unused */
};

static struct hm_test_tap hm_test_tap;

static inline void hm_test_skip_reason(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static inline void hm_test_skip_reason(const char *fmt, ...)
{
	va_list ap;
	char *c;

	va_start(ap, fmt);
	vsnprintf(hm_test_tap.reason, sizeof(hm_test_tap.reason), fmt, ap);
	va_end(ap);
	/* One TAP line: a newline would end the directive early. */
	for (c = hm_test_tap.reason; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	if (!hm_test_tap.reason[0])
		snprintf(hm_test_tap.reason, sizeof(hm_test_tap.reason), "no reason given");
}

/* Skip the running test; the TAP line says "SKIP <test>: <printf args>". */
#define hm_test_skip(...) \
	do { \
		hm_test_skip_reason(__VA_ARGS__); \
		skip(); \
	} while (0)

/*
 * If @l (NUL-terminated, no newline) is cmocka's line for a skipped test,
 * "not ok N # SKIP name" or "ok N # SKIP name", store N and return the
 * offset of the name; otherwise return 0.
 */
static inline int hm_test_tap_skip_line(const char *l, unsigned int *n)
{
	int at = 0;

	if (sscanf(l, "not ok %u # SKIP %n", n, &at) == 1 && at)
		return at;
	at = 0;
	if (sscanf(l, "ok %u # SKIP %n", n, &at) == 1 && at)
		return at;
	return 0;
}

static inline void hm_test_tap_flush_line(struct hm_test_tap *t)
{
	unsigned int n;
	int at = 0;

	if (t->reason[0] && t->len && t->line[t->len - 1] == '\n') {
		t->line[t->len - 1] = '\0';
		at = hm_test_tap_skip_line(t->line, &n);
		t->line[t->len - 1] = '\n';
	}
	if (at)
		fprintf(t->out, "ok %u # SKIP %.*s: %s\n", n, (int)(t->len - 1 - at),
			t->line + at, t->reason);
	else
		fwrite(t->line, 1, t->len, t->out);
	/* A reason belongs to the one test that recorded it. */
	if (!strncmp(t->line, "ok ", 3) || !strncmp(t->line, "not ok ", 7))
		t->reason[0] = '\0';
	fflush(t->out);
	t->len = 0;
}

static inline ssize_t hm_test_tap_write(void *cookie, const char *buf, size_t size)
{
	struct hm_test_tap *t = cookie;
	size_t i;

	for (i = 0; i < size; i++) {
		t->line[t->len++] = buf[i];
		/* A line longer than the buffer goes out in pieces, unchanged. */
		if (buf[i] == '\n' || t->len == sizeof(t->line))
			hm_test_tap_flush_line(t);
	}
	return size;
}

static inline int hm_test_tap_close(void *cookie)
{
	struct hm_test_tap *t = cookie;

	if (t->len)
		hm_test_tap_flush_line(t);
	return 0;
}

/* Put the filter in front of stdout (left as it is if that fails). */
static inline void hm_test_tap_begin(void)
{
	static const cookie_io_functions_t io = {
		.write = hm_test_tap_write,
		.close = hm_test_tap_close,
	};
	struct hm_test_tap *t = &hm_test_tap;

	fflush(stdout);
	t->out = stdout;
	t->filter = fopencookie(t, "w", io);
	if (!t->filter) {
		fprintf(stderr, "hm_test: fopencookie: %s; skips print unfiltered\n",
			strerror(errno));
		return;
	}
	setvbuf(t->filter, NULL, _IOLBF, 0);
	stdout = t->filter;
}

static inline void hm_test_tap_end(void)
{
	struct hm_test_tap *t = &hm_test_tap;

	if (!t->filter)
		return;
	fclose(t->filter);
	stdout = t->out;
	t->filter = NULL;
}

/* TAP on stdout for prove(1), one plan per program. */
#define HM_RUN_TESTS(tests) \
	({ int __hm_rc; \
	   hm_test_tap_begin(); \
	   cmocka_set_message_output(CM_OUTPUT_TAP); \
	   __hm_rc = cmocka_run_group_tests(tests, NULL, NULL); \
	   hm_test_tap_end(); \
	   __hm_rc; })

/* The value of hex digit @c (0-9, a-f, A-F). */
static inline __u8 hm_test_hx(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/*
 * hm_test_unhex() - a vector typed as hex text (spaces ignored) into bytes
 *
 * A vector with an odd digit count or another character is the test's bug:
 * the test fails there, naming the place.
 *
 * Return: the number of bytes written at @out.
 */
static inline size_t hm_test_unhex(const char *s, __u8 *out)
{
	size_t n = 0;

	for (; *s; s++) {
		if (*s == ' ')
			continue;
		if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]))
			fail_msg("hex vector broken at \"%.8s\"", s);
		out[n++] = hm_test_hx(s[0]) << 4 | hm_test_hx(s[1]);
		s++;
	}
	return n;
}

#endif /* __HM_TEST_H */
