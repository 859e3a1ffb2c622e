// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_json_write.c - the DOM-free JSON writer (common/json_write.h) and
 * hm_record_write_json(): their bytes are json-c's. Strings with every
 * byte json-c escapes, integers at their limits, and the record line for
 * every IOAM-Trace-Type bit alone and together, with values, with every
 * field unavailable, with 0, 1, 4 and 61 hops, and for records decoded
 * from random node data, compared with json-c's printing of
 * hm_record_to_json() (JSON_C_TO_STRING_PLAIN | NOSLASHESCAPE, the flags
 * of the line Documentation/json-record.rst specifies); a line that does
 * not fit its buffer is cut there, never past it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <json-c/json.h>

#include "hm_test.h"
#include "common/json_write.h"

#define JSON_FLAGS	(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* What json-c prints for @o (put). */
static char *json_c_text(struct json_object *o)
{
	char *s = strdup(json_object_to_json_string_ext(o, JSON_FLAGS));

	json_object_put(o);
	assert_non_null(s);
	return s;
}

static void expect_bytes(const char *what, const char *exp, const char *got, size_t got_len)
{
	if (strlen(exp) != got_len || memcmp(exp, got, got_len))
		fail_msg("%s:\n expected %s\n observed %.*s", what, exp, (int)got_len, got);
}

/* Every byte 0x01-0xff inside a string, alone and between others. */
static void strings_escape_as_json_c(void **state)
{
	char in[8], out[32], what[32];
	struct hm_jw w;
	int c;

	for (c = 1; c < 256; c++) {
		char *exp;

		snprintf(in, sizeof(in), "a%c/%cb", c, c);
		exp = json_c_text(json_object_new_string(in));
		hm_jw_init(&w, out, sizeof(out));
		hm_jw_str(&w, in);
		snprintf(what, sizeof(what), "byte 0x%02x", c);
		expect_bytes(what, exp, out, hm_jw_len(&w));
		free(exp);
	}
	{
		char *exp = json_c_text(json_object_new_string(""));

		hm_jw_init(&w, out, sizeof(out));
		hm_jw_str(&w, "");
		expect_bytes("empty string", exp, out, hm_jw_len(&w));
		free(exp);
	}
}

/* 0, every power of ten and its predecessor, the type limits. */
static void integers_at_limits_as_json_c(void **state)
{
	static const __s64 s[] = { INT64_MIN, INT64_MIN + 1, -1000000000000000000LL, -10, -9,
				   -1, 0, 1, INT64_MAX - 1, INT64_MAX };
	char out[32], what[48];
	struct hm_jw w;
	__u64 p = 1;
	unsigned int i;
	char *exp;

	for (i = 0; i <= 20; i++) {
		__u64 v[3] = { p, p - 1, p + 1 };
		unsigned int k;

		for (k = 0; k < 3; k++) {
			exp = json_c_text(json_object_new_uint64(v[k]));
			hm_jw_init(&w, out, sizeof(out));
			hm_jw_u64(&w, v[k]);
			snprintf(what, sizeof(what), "u64 %llu", (unsigned long long)v[k]);
			expect_bytes(what, exp, out, hm_jw_len(&w));
			free(exp);
		}
		p = i < 19 ? p * 10 : UINT64_MAX;
	}
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		exp = json_c_text(json_object_new_int64(s[i]));
		hm_jw_init(&w, out, sizeof(out));
		hm_jw_s64(&w, s[i]);
		snprintf(what, sizeof(what), "s64 %lld", (long long)s[i]);
		expect_bytes(what, exp, out, hm_jw_len(&w));
		free(exp);
	}
}

/* Compare hm_record_write_json() (and hm_record_print_json()) with json-c. */
static void expect_record_line(const char *what, const struct hm_record *r)
{
	struct json_object *o = hm_record_to_json(r);
	char *exp, *line = NULL, buf[64];
	size_t len, want, plen = 0;
	FILE *f;

	assert_non_null(o);
	if (asprintf(&exp, "%s\n", json_object_to_json_string_ext(o, JSON_FLAGS)) < 0)
		fail();
	json_object_put(o);
	want = strlen(exp);
	len = hm_record_write_json(NULL, 0, r);
	if (len != want)
		fail_msg("%s: length %zu, expected %zu", what, len, want);
	line = malloc(len + 1);
	assert_non_null(line);
	assert_int_equal(hm_record_write_json(line, len + 1, r), len);
	expect_bytes(what, exp, line, len);
	assert_int_equal(line[len], '\0');
	free(line);

	/* Too small a buffer: cut at its end, nothing past it. */
	memset(buf, 'X', sizeof(buf));
	assert_int_equal(hm_record_write_json(buf, 40, r), want);
	if (memcmp(buf, exp, 40))
		fail_msg("%s: cut line differs from its start", what);
	for (len = 40; len < sizeof(buf); len++)
		if (buf[len] != 'X')
			fail_msg("%s: byte %zu written past a 40-byte buffer", what, len);

	line = NULL;
	f = open_memstream(&line, &plen);
	assert_non_null(f);
	assert_int_equal(hm_record_print_json(f, r), 0);
	fclose(f);
	expect_bytes("hm_record_print_json()", exp, line, plen);
	free(line);
	free(exp);
}

/* Every field of @tt with a value of its own, or all unavailable. */
static void fill_node(struct hm_ioam6_node_values *v, __u32 tt, unsigned int hop, bool available)
{
	hm_test_unavailable(v);
	v->present = tt & HM_IOAM_TT_MASK & ~HM_IOAM_TT_RESERVED;
	if (!available)
		return;
	v->hop_limit = 64 - hop;
	v->node_id = hop == 2 ? 0xfffffe : 0x100 + hop;
	v->ingress_if = 0x210 + hop;
	v->egress_if = hop == 3 ? 0xfffe : 0x220 + hop;
	v->ts_sec = 1700000000 + (hop == 2 ? 0 : hop);	/* hop 2 earlier: negative latency */
	v->ts_frac = hop == 1 ? 999999 : 1000 * hop + 7;
	v->transit_delay = (hop & 1 ? 0x80000000U : 0) | (3000 + hop);
	v->ns_data = 0xa0000000U + hop;
	v->queue_depth = hop == 4 ? 0xfffffffe : 1500 * hop;
	v->csum_compl = 0xc0de0000U + hop;
	v->node_id_wide = hop == 1 ? 0x00fffffffffffffeULL : 0x10000000000000ULL + hop;
	v->ingress_if_wide = 0x1000000U + hop;
	v->egress_if_wide = 0x2000000U + hop;
	v->ns_data_wide = hop == 1 ? 0xfffffffffffffffeULL : 0x0b00000000000000ULL + hop;
	v->buffer_occupancy = 4096 + hop;
	v->opaque_len = hop;
	v->opaque_schema = 0x500 + hop;
}

static void make_record(struct hm_record *r, __u32 tt, unsigned int n, bool available)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->rx_ns = 1700000009123456789ULL;
	r->ifindex = 7;
	r->sink_if_id = 51;
	r->sink_node_id = 5;
	inet_pton(AF_INET6, "2001:db8:1::1", r->pkt.saddr);
	inet_pton(AF_INET6, "2001:db8:4::2", r->pkt.daddr);
	r->pkt.flow_label = 0xfffff;
	r->pkt.payload_len = 65535;
	r->pkt.hop_limit = 255;
	r->pkt.proto = 17;
	r->pkt.sport = 65535;
	r->pkt.dport = 0;
	r->trace.ns_id = 0xffff;
	r->trace.trace_type = tt;
	r->trace.nodelen = hm_ioam6_trace_nodelen(tt);
	r->trace.remlen = 127;
	r->trace.overflow = n == 1;
	r->trace.n_nodes = n;
	r->trace.data_len = 4 * n * r->trace.nodelen;
	for (i = 0; i < n; i++)
		fill_node(&r->trace.nodes[i], tt, i + 1, available);
}

/* Each bit alone, every bit together, the demo's 0xfff000; values and nulls. */
static void record_lines_as_json_c(void **state)
{
	static const unsigned int hops[] = { 0, 1, 4, HM_MAX_HOPS };
	struct hm_record *r = malloc(sizeof(*r));
	char what[96];
	unsigned int b, k, avail;

	assert_non_null(r);
	for (b = 0; b <= 25; b++) {
		/* 0-11 and 22-23 one at a time, then all, then 0xfff000. */
		__u32 tt = b < 24 ? HM_IOAM_TT_BIT(b) : b == 24 ? HM_IOAM_TT_MASK : 0xfff000;

		if (b > 11 && b < 22)
			continue;
		for (k = 0; k < sizeof(hops) / sizeof(hops[0]); k++)
			for (avail = 0; avail < 2; avail++) {
				make_record(r, tt, hops[k], avail);
				snprintf(what, sizeof(what), "trace type 0x%06x, %u hops, %s", tt,
					 hops[k], avail ? "values" : "unavailable");
				expect_record_line(what, r);
			}
	}
	/* The sink unknown, no receive time, not TCP or UDP. */
	make_record(r, 0xfff000, 4, true);
	r->rx_ns = 0;
	r->ifindex = 0;
	r->sink_if_id = 0xffff;
	r->sink_node_id = 0xffffff;
	r->pkt.proto = 58;
	memset(r->pkt.saddr, 0, 16);
	memset(r->pkt.daddr, 0xff, 16);
	expect_record_line("unknown sink, ICMPv6", r);
	/* The receive time at its limits; the cached date must follow it. */
	make_record(r, 0xfff000, 4, true);
	{
		static const __u64 rx[] = { 1, 999999999, 1000000000, 1700000009999999999ULL,
					    1700000010000000000ULL, 1700000009000000001ULL,
					    UINT64_MAX };
		for (k = 0; k < sizeof(rx) / sizeof(rx[0]); k++) {
			r->rx_ns = rx[k];
			snprintf(what, sizeof(what), "rx_ns %llu", (unsigned long long)rx[k]);
			expect_record_line(what, r);
		}
	}
	free(r);
}

/* Records decoded from random node data of random trace types. */
static void random_records_as_json_c(void **state)
{
	struct hm_record *r = malloc(sizeof(*r));
	__u8 opt[256], data[244];
	unsigned int i, k, seed = 11;
	char what[64];

	assert_non_null(r);
	for (i = 0; i < 3000; i++) {
		__u32 tt = rand_r(&seed) & HM_IOAM_TT_MASK & ~HM_IOAM_TT_UNDEFINED_MASK;
		__u32 nodelen = hm_ioam6_trace_nodelen(tt);
		unsigned int n, remlen;
		size_t len;

		if (!nodelen)
			continue;
		n = 1 + rand_r(&seed) % (240 / (4 * nodelen) > 0 ? 240 / (4 * nodelen) : 1);
		if (n * nodelen * 4 > 240)
			continue;
		remlen = rand_r(&seed) % 3;
		if ((remlen + n * nodelen) * 4 > sizeof(data))
			remlen = 0;
		for (k = 0; k < sizeof(data); k++)
			data[k] = rand_r(&seed) % 4 ? rand_r(&seed) : 0xff;
		len = hm_test_trace_opt(opt, rand_r(&seed), nodelen, rand_r(&seed) & 0x04, remlen,
					tt, data, (remlen + n * nodelen) * 4);
		memset(r, 0, sizeof(*r));
		if (hm_ioam_trace_decode(opt, len, &r->trace))
			continue;
		r->rx_ns = (__u64)rand_r(&seed) * 1000000007ULL;
		r->ifindex = rand_r(&seed);
		r->sink_if_id = rand_r(&seed);
		r->sink_node_id = rand_r(&seed) & 0xffffff;
		for (k = 0; k < 16; k++) {
			r->pkt.saddr[k] = rand_r(&seed) % 3 ? 0 : rand_r(&seed);
			r->pkt.daddr[k] = rand_r(&seed);
		}
		r->pkt.proto = rand_r(&seed) % 2 ? 6 : rand_r(&seed);
		r->pkt.sport = rand_r(&seed);
		r->pkt.dport = rand_r(&seed);
		r->pkt.flow_label = rand_r(&seed) & 0xfffff;
		snprintf(what, sizeof(what), "random record %u (trace type 0x%06x)", i, tt);
		expect_record_line(what, r);
	}
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strings_escape_as_json_c),
		cmocka_unit_test(integers_at_limits_as_json_c),
		cmocka_unit_test(record_lines_as_json_c),
		cmocka_unit_test(random_records_as_json_c),
	};

	return HM_RUN_TESTS(tests);
}
