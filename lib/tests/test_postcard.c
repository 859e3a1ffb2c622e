// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_postcard.c - the JSON form of postcards (lib/postcard/postcard_json.c,
 * Documentation/postcards.rst), parsed back with json-c and checked value
 * by value: a DEX postcard (RFC 9326) with node data of Trace-Type 0xf00000,
 * an SRH O-flag postcard (RFC 8754 §2, RFC 9259 §2) with its segment list,
 * an Edge-to-Edge postcard (RFC 9197 §4.6), an Incremental Trace postcard
 * (RFC 9197 §4.4, Option-Type 1) and the malformed cases.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <json-c/json.h>

#include "hm_test.h"
#include "postcard/postcard.h"

#define TS_NS	1700000000123456789ULL

/* IPv6 header: payload @plen, next header @nh, hop limit 63, 2001:db8::1 -> 2001:db8::2. */
static size_t ipv6_hdr(__u8 *p, __u16 plen, __u8 nh)
{
	static const __u8 src[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const __u8 dst[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

	memset(p, 0, 40);
	p[0] = 0x60;
	p[1] = 0x0a;	/* flow label 0xabcde */
	p[2] = 0xbc;
	p[3] = 0xde;
	p[4] = plen >> 8;
	p[5] = plen;
	p[6] = nh;
	p[7] = 63;
	memcpy(p + 8, src, 16);
	memcpy(p + 24, dst, 16);
	return 40;
}

/* UDP header 40001 -> 9999, length @len. */
static size_t udp_hdr(__u8 *p, __u16 len)
{
	p[0] = 40001 >> 8;
	p[1] = 40001 & 0xff;
	p[2] = 9999 >> 8;
	p[3] = 9999 & 0xff;
	p[4] = len >> 8;
	p[5] = len;
	p[6] = p[7] = 0;
	return 8;
}

static struct json_object *parse(const struct hm_postcard *pc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_object *o;

	assert_non_null(f);
	assert_int_equal(hm_postcard_print_json(f, pc), 0);
	fclose(f);
	assert_non_null(buf);
	assert_ptr_equal(strchr(buf, '\n'), buf + len - 1);	/* exactly one line */
	o = json_tokener_parse(buf);
	free(buf);
	assert_non_null(o);
	return o;
}

static struct json_object *get(struct json_object *o, const char *path)
{
	char key[64], *dot;
	struct json_object *v = o;
	const char *p = path;

	while (*p) {
		dot = strchr(p, '.');
		snprintf(key, sizeof(key), "%.*s", dot ? (int)(dot - p) : (int)strlen(p), p);
		if (!json_object_object_get_ex(v, key, &v)) {
			print_error("key %s missing\n", path);
			fail();
		}
		p = dot ? dot + 1 : p + strlen(p);
	}
	return v;
}

static void expect_u64(struct json_object *o, const char *path, __u64 want)
{
	struct json_object *v = get(o, path);

	if (!v || json_object_get_type(v) != json_type_int) {
		print_error("%s: expected %llu, observed %s\n", path, (unsigned long long)want,
			    v ? json_object_to_json_string(v) : "null");
		fail();
	}
	assert_int_equal(json_object_get_uint64(v), want);
}

static void expect_str(struct json_object *o, const char *path, const char *want)
{
	struct json_object *v = get(o, path);

	assert_non_null(v);
	assert_string_equal(json_object_get_string(v), want);
}

static void expect_null(struct json_object *o, const char *path)
{
	assert_null(get(o, path));
}

static bool has(struct json_object *o, const char *key)
{
	return json_object_object_get_ex(o, key, NULL);
}

/*
 * DEX: node data of Trace-Type 0xf00000 (RFC 9197 §4.4.2.1-4): Hop_Lim 62 +
 * node_id 9, ingress 11 + egress 0xffff (unavailable), seconds, microseconds.
 */
static void dex_postcard_decodes_node_data(void **state)
{
	static const __u8 data[16] = {
		62, 0, 0, 9,		/* Hop_Lim, node_id */
		0, 11, 0xff, 0xff,	/* ingress_if_id, egress_if_id unavailable */
		0x65, 0x53, 0xf1, 0x00,	/* timestamp seconds 1700000000 */
		0x00, 0x01, 0xe2, 0x40,	/* fraction 123456 us */
	};
	__u8 pkt[48];
	struct hm_postcard pc = {
		.type = HM_POSTCARD_DEX,
		.present = HM_POSTCARD_F_TS | HM_POSTCARD_F_IFINDEX | HM_POSTCARD_F_NS |
			   HM_POSTCARD_F_FLOW_ID | HM_POSTCARD_F_SEQ | HM_POSTCARD_F_TRACE_TYPE |
			   HM_POSTCARD_F_PKT_LEN,
		.ts_ns = TS_NS, .ifindex = 4, .node_id = 9, .ns_id = 123,
		.flow_id = 0xabcdef, .seq = 41, .trace_type = 0xf00000,
		.node_data = data, .node_data_len = sizeof(data),
		.headers = pkt, .pkt_len = 72,
	};
	struct json_object *o, *d;

	pc.headers_len = ipv6_hdr(pkt, 8, IPPROTO_UDP);
	pc.headers_len += udp_hdr(pkt + 40, 8);
	o = parse(&pc);
	expect_str(o, "postcard", "dex");
	expect_u64(o, "ts_ns", TS_NS);
	expect_str(o, "time", "2023-11-14T22:13:20.123456789Z");
	expect_u64(o, "node.node_id", 9);
	expect_u64(o, "node.ifindex", 4);
	assert_false(has(get(o, "node"), "wide_id"));
	expect_u64(o, "namespace", 123);
	expect_u64(o, "flow_id", 0xabcdef);
	expect_u64(o, "seq", 41);
	expect_str(o, "trace_type", "0xf00000");
	expect_u64(o, "pkt_len", 72);
	expect_str(o, "packet.src", "2001:db8::1");
	expect_str(o, "packet.dst", "2001:db8::2");
	expect_u64(o, "packet.flow_label", 0xabcde);
	expect_u64(o, "packet.hop_limit", 63);
	expect_u64(o, "packet.proto", IPPROTO_UDP);
	expect_u64(o, "packet.sport", 40001);
	expect_u64(o, "packet.dport", 9999);
	d = get(o, "data");
	expect_u64(d, "hop_limit", 62);
	expect_u64(d, "node_id", 9);
	expect_u64(d, "ingress_if", 11);
	expect_null(d, "egress_if");
	expect_u64(d, "timestamp_sec", 1700000000);
	expect_u64(d, "timestamp_frac", 123456);
	assert_false(has(d, "hop"));
	assert_false(has(d, "queue_depth"));	/* not in the Trace-Type */
	assert_false(has(o, "srh"));
	assert_false(has(o, "errors"));
	json_object_put(o);
}

/* Node data that do not fit the Trace-Type: the rest is shown, "errors" says why. */
static void dex_postcard_with_bad_node_data_names_the_error(void **state)
{
	static const __u8 data[6] = { 62, 0, 0, 9, 0, 11 };
	struct hm_postcard pc = {
		.type = HM_POSTCARD_DEX, .node_id = HM_IOAM_U24_UNAVAILABLE,
		.present = HM_POSTCARD_F_TRACE_TYPE | HM_POSTCARD_F_SEQ,
		.trace_type = 0xc00000, .seq = 1,
		.node_data = data, .node_data_len = sizeof(data),
	};
	struct json_object *o = parse(&pc), *errs;

	expect_null(o, "node.node_id");
	expect_null(o, "ts_ns");
	expect_u64(o, "seq", 1);
	assert_false(has(o, "data"));
	errs = get(o, "errors");
	assert_int_equal(json_object_array_length(errs), 1);
	assert_non_null(strstr(json_object_get_string(json_object_array_get_idx(errs, 0)),
			       "node data"));
	json_object_put(o);
}

/* SRH (RFC 8754 §2): 2 segments, Segments Left 1, Flags 0x20 (O-flag), tag 7. */
static void oflag_postcard_has_the_srh(void **state)
{
	__u8 pkt[40 + 8 + 32 + 8];
	struct hm_postcard pc = {
		.type = HM_POSTCARD_OFLAG, .node_id = 4, .node_id_wide = 0x1234,
		.present = HM_POSTCARD_F_TS | HM_POSTCARD_F_IFINDEX | HM_POSTCARD_F_NODE_ID_WIDE,
		.ts_ns = TS_NS, .ifindex = 2, .headers = pkt, .headers_len = sizeof(pkt),
	};
	__u8 *srh = pkt + 40;
	struct json_object *o, *segs;

	ipv6_hdr(pkt, 8 + 32 + 8, 43);
	srh[0] = IPPROTO_UDP;
	srh[1] = 4;		/* (8 + 32) / 8 - 1 */
	srh[2] = 4;		/* Routing Type 4: SRH */
	srh[3] = 1;		/* Segments Left */
	srh[4] = 1;		/* Last Entry */
	srh[5] = 0x20;		/* Flags: O-flag */
	srh[6] = 0;
	srh[7] = 7;		/* Tag */
	memset(srh + 8, 0, 32);
	srh[8] = 0x20; srh[9] = 0x01; srh[10] = 0x0d; srh[11] = 0xb8; srh[23] = 0x99;
	srh[24] = 0x20; srh[25] = 0x01; srh[26] = 0x0d; srh[27] = 0xb8; srh[39] = 0x02;
	udp_hdr(pkt + 80, 8);
	o = parse(&pc);
	expect_str(o, "postcard", "oflag");
	expect_u64(o, "node.node_id", 4);
	expect_u64(o, "node.wide_id", 0x1234);
	expect_u64(o, "srh.segments_left", 1);
	expect_u64(o, "srh.last_entry", 1);
	expect_u64(o, "srh.flags", 0x20);
	assert_true(json_object_get_boolean(get(o, "srh.oflag")));
	expect_u64(o, "srh.tag", 7);
	segs = get(o, "srh.segments");
	assert_int_equal(json_object_array_length(segs), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(segs, 0)),
			    "2001:db8::99");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(segs, 1)),
			    "2001:db8::2");
	expect_u64(o, "packet.sport", 40001);
	assert_false(has(o, "namespace"));
	assert_false(has(o, "errors"));
	json_object_put(o);

	/* A segment list cut by the truncation of the headers: named, not guessed. */
	pc.headers_len = 40 + 8 + 20;
	o = parse(&pc);
	assert_int_equal(json_object_array_length(get(o, "srh.segments")), 1);
	assert_non_null(strstr(json_object_to_json_string(get(o, "errors")), "SRH"));
	json_object_put(o);
}

/* E2E (RFC 9197 §4.6): namespace 123, E2E-Type seq32 + ts-sec + ts-frac. */
static void e2e_postcard_decodes_its_data(void **state)
{
	static const __u8 opt[4 + 4 + 12] = {
		0x31, 18, 0, 3,			/* IOAM option, Option-Type 3 (E2E) */
		0, 123, 0x70, 0x00,		/* namespace, E2E-Type bits 1-3 */
		0, 0, 0x01, 0x00,		/* 32-bit sequence number 256 */
		0x65, 0x53, 0xf1, 0x00,		/* seconds */
		0, 0, 0, 5,			/* subseconds */
	};
	struct hm_postcard pc = {
		.type = HM_POSTCARD_E2E, .node_id = 5, .present = HM_POSTCARD_F_NS | HM_POSTCARD_F_SEQ,
		.ns_id = 123, .seq = 256, .option = opt, .option_len = sizeof(opt),
	};
	struct json_object *o = parse(&pc);

	expect_str(o, "postcard", "e2e");
	expect_u64(o, "e2e.namespace", 123);
	expect_str(o, "e2e.e2e_type", "0x7000");
	expect_u64(o, "e2e.seq", 256);
	expect_u64(o, "e2e.ts_sec", 1700000000);
	expect_u64(o, "e2e.ts_frac", 5);
	json_object_put(o);

	/* Shorter than the E2E-Type says. */
	pc.option_len = 12;
	o = parse(&pc);
	assert_false(has(o, "e2e"));
	assert_non_null(strstr(json_object_to_json_string(get(o, "errors")), "E2E"));
	json_object_put(o);
}

/*
 * Incremental Trace (Option-Type 1) of Trace-Type 0x800000, two nodes
 * inserted (node 3 most recent, then node 2), RemainingLen 5 still free.
 */
static void trace_postcard_decodes_incremental_trace(void **state)
{
	static const __u8 nodes[8] = { 62, 0, 0, 3, 63, 0, 0, 2 };
	__u8 opt[12 + 8];
	struct hm_postcard pc = {
		.type = HM_POSTCARD_TRACE, .node_id = 5,
		.present = HM_POSTCARD_F_NS | HM_POSTCARD_F_TRACE_TYPE,
		.ns_id = 123, .trace_type = 0x800000, .option = opt,
	};
	struct json_object *o, *hops;

	pc.option_len = hm_test_trace_opt(opt, 123, 1, 0, 5, 0x800000, nodes, sizeof(nodes));
	opt[3] = 1;	/* IOAM Option-Type 1: incremental */
	o = parse(&pc);
	expect_str(o, "postcard", "trace");
	expect_u64(o, "namespace", 123);
	expect_u64(o, "node_len", 1);
	expect_u64(o, "remaining_len", 5);
	assert_false(json_object_get_boolean(get(o, "overflow")));
	hops = get(o, "hops");
	assert_int_equal(json_object_array_length(hops), 2);
	expect_u64(json_object_array_get_idx(hops, 0), "node_id", 2);	/* path order */
	expect_u64(json_object_array_get_idx(hops, 1), "node_id", 3);
	expect_u64(json_object_array_get_idx(hops, 1), "hop_limit", 62);
	json_object_put(o);

	/* NodeLen that does not match the Trace-Type: refused, named. */
	opt[6] = 2 << 3;
	o = parse(&pc);
	assert_false(has(o, "hops"));
	assert_non_null(strstr(json_object_to_json_string(get(o, "errors")), "IOAM trace"));
	json_object_put(o);
}

static void unknown_type_is_refused(void **state)
{
	struct hm_postcard pc = { .type = 77 };

	assert_null(hm_postcard_type_name(77));
	assert_null(hm_postcard_to_json(&pc));
	assert_int_equal(hm_postcard_print_json(stdout, &pc), -EINVAL);
	assert_string_equal(hm_postcard_type_name(HM_POSTCARD_OFLAG), "oflag");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dex_postcard_decodes_node_data),
		cmocka_unit_test(dex_postcard_with_bad_node_data_names_the_error),
		cmocka_unit_test(oflag_postcard_has_the_srh),
		cmocka_unit_test(e2e_postcard_decodes_its_data),
		cmocka_unit_test(trace_postcard_decodes_incremental_trace),
		cmocka_unit_test(unknown_type_is_refused),
	};

	return HM_RUN_TESTS(tests);
}
