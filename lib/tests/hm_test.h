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

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
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

/* TAP on stdout for prove(1), one plan per program. */
#define HM_RUN_TESTS(tests) \
	({ cmocka_set_message_output(CM_OUTPUT_TAP); \
	   cmocka_run_group_tests(tests, NULL, NULL); })

#endif /* __HM_TEST_H */
