// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_record.c - hm_record_from_ring(), the JSON form (parsed back with
 * json-c and checked value by value, nulls included), the text table, the
 * per-hop summary and the counter names.
 *
 * The record is the demo's: IOAM-Namespace 123, Trace-Type 0xfff000
 * (NodeLen 15), 240-octet data area = 4 slots, all written, by A (node 1),
 * R1 (2), R2 (3, plain Linux: no transit delay, no queue depth here) and
 * R3 (4); the sink B (node 5) received it 45 us after R3's timestamp.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <arpa/inet.h>
#include <json-c/json.h>

#include "hm_test.h"

#define TS_SEC	1700000000U

/* Per node: node_id, hop limit, in/out IDs, timestamp fraction (us), transit delay, queue. */
static const struct {
	__u32 id; __u8 hl; __u16 in, out; __u32 frac, delay, qdepth;
} path[4] = {
	{ 1, 64, 0xffff, 11, 100, 0xffffffff, 0xffffffff },	/* A: encap, no ingress */
	{ 2, 63, 21, 22, 150, 12000, 0 },			/* R1: +50 us */
	{ 3, 62, 31, 32, 230, 0xffffffff, 0xffffffff },		/* R2: +80 us */
	{ 4, 61, 41, 42, 300, 0x80000fa0, 1500 },		/* R3: +70 us, delay overflow bit */
};
#define RX_NS	(TS_SEC * 1000000000ULL + 345000ULL)	/* R3 + 45 us */

static void demo_ring_record(struct hopmark_ioam_record *rec)
{
	__u8 *data = rec->opt + 12;
	int i;

	memset(rec, 0, sizeof(*rec));
	rec->rx_ns = RX_NS;
	rec->ifindex = 7;
	rec->if_id = 51;
	rec->payload_len = 1000;
	rec->hop_limit = 60;
	rec->proto = 6;
	rec->flow_label = 0x12345;
	rec->sport = 40000;
	rec->dport = 5201;
	inet_pton(AF_INET6, "2001:db8:1::1", rec->saddr);
	inet_pton(AF_INET6, "2001:db8:5::1", rec->daddr);
	/* Wire order: the most recent node (R3) first, at RemainingLen 0. */
	for (i = 0; i < 4; i++) {
		struct hm_ioam6_node_values v;

		hm_test_unavailable(&v);
		v.node_id = path[i].id;
		v.hop_limit = path[i].hl;
		v.ingress_if = path[i].in;
		v.egress_if = path[i].out;
		v.ts_sec = TS_SEC;
		v.ts_frac = path[i].frac;
		v.transit_delay = path[i].delay;
		v.ns_data = 0xffffffff;
		v.queue_depth = path[i].qdepth;
		v.node_id_wide = 0x00ffffffffffffffULL;
		v.buffer_occupancy = path[i].qdepth;
		hm_ioam6_node_data_encode(data + (3 - i) * 60, 0xfff000, &v);
	}
	rec->opt_len = hm_test_trace_opt(rec->opt, 123, 15, 0, 0, 0xfff000, data, 240);
	assert_int_equal(rec->opt_len, 252);
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("key \"%s\" missing in %s", key, json_object_to_json_string(o));
	return v;
}

static void expect_null(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	if (v)
		fail_msg("\"%s\": expected null, observed %s", key, json_object_to_json_string(v));
}

static void expect_int(struct json_object *o, const char *key, long long exp)
{
	struct json_object *v = get(o, key);

	if (!v || !json_object_is_type(v, json_type_int))
		fail_msg("\"%s\": expected %lld, observed %s", key, exp,
			 v ? json_object_to_json_string(v) : "null");
	if (json_object_get_int64(v) != exp)
		fail_msg("\"%s\": expected %lld, observed %lld", key, exp,
			 (long long)json_object_get_int64(v));
}

static void expect_str(struct json_object *o, const char *key, const char *exp)
{
	struct json_object *v = get(o, key);

	if (!v || strcmp(json_object_get_string(v), exp))
		fail_msg("\"%s\": expected \"%s\", observed %s", key, exp,
			 v ? json_object_to_json_string(v) : "null");
}

/* Render @r as printed by hm_record_print_json() and parse the line back. */
static struct json_object *print_and_parse(const struct hm_record *r)
{
	struct json_object *o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(hm_record_print_json(f, r), 0);
	fclose(f);
	/* One line: a single '\n', at the end. */
	assert_true(len > 2);
	assert_int_equal(buf[len - 1], '\n');
	assert_ptr_equal(strchr(buf, '\n'), buf + len - 1);
	o = json_tokener_parse(buf);
	if (!o)
		fail_msg("not JSON: %s", buf);
	free(buf);
	return o;
}

static void ring_record_to_json_round_trip(void **state)
{
	struct hopmark_ioam_record rec;
	struct json_object *o, *sink, *pkt, *hops, *h;
	struct hm_record r;
	int i;

	demo_ring_record(&rec);
	assert_int_equal(hm_record_from_ring(&rec, sizeof(rec), 5, &r), 0);
	assert_int_equal(r.trace.n_nodes, 4);
	o = print_and_parse(&r);

	expect_int(o, "rx_ns", (long long)RX_NS);
	expect_str(o, "rx_time", "2023-11-14T22:13:20.000345000Z");
	expect_int(o, "namespace", 123);
	expect_str(o, "trace_type", "0xfff000");
	expect_int(o, "node_len", 15);
	expect_int(o, "remaining_len", 0);
	expect_int(o, "data_len", 240);
	assert_false(json_object_get_boolean(get(o, "overflow")));

	sink = get(o, "sink");
	expect_int(sink, "ifindex", 7);
	expect_int(sink, "if_id", 51);
	expect_int(sink, "node_id", 5);
	expect_int(sink, "latency_ns", 45000);

	pkt = get(o, "packet");
	expect_str(pkt, "src", "2001:db8:1::1");
	expect_str(pkt, "dst", "2001:db8:5::1");
	expect_int(pkt, "flow_label", 0x12345);
	expect_int(pkt, "payload_len", 1000);
	expect_int(pkt, "hop_limit", 60);
	expect_int(pkt, "proto", 6);
	expect_int(pkt, "sport", 40000);
	expect_int(pkt, "dport", 5201);

	hops = get(o, "hops");
	assert_int_equal(json_object_array_length(hops), 4);
	for (i = 0; i < 4; i++) {
		h = json_object_array_get_idx(hops, i);
		expect_int(h, "hop", i + 1);
		expect_int(h, "node_id", path[i].id);
		expect_int(h, "hop_limit", path[i].hl);
		expect_int(h, "egress_if", path[i].out);
		expect_int(h, "timestamp_sec", TS_SEC);
		expect_int(h, "timestamp_frac", path[i].frac);
		expect_int(h, "timestamp_ns", TS_SEC * 1000000000LL + path[i].frac * 1000LL);
		expect_null(h, "namespace_data");
		expect_null(h, "node_id_wide");
		expect_null(h, "ingress_if_wide");
		expect_null(h, "namespace_data_wide");
		expect_null(h, "checksum_complement");
	}
	/* A: nothing before it; no ingress; its egress fields unavailable. */
	h = json_object_array_get_idx(hops, 0);
	expect_null(h, "latency_ns");
	expect_null(h, "ingress_if");
	expect_null(h, "transit_delay_ns");
	expect_null(h, "transit_delay_overflow");
	expect_null(h, "queue_depth");
	/* R1: 150 - 100 us. */
	h = json_object_array_get_idx(hops, 1);
	expect_int(h, "latency_ns", 50000);
	expect_int(h, "ingress_if", 21);
	expect_int(h, "transit_delay_ns", 12000);
	assert_false(json_object_get_boolean(get(h, "transit_delay_overflow")));
	expect_int(h, "queue_depth", 0);
	expect_int(h, "buffer_occupancy", 0);
	/* R2: 230 - 150 us; Linux's unavailable fields are null. */
	h = json_object_array_get_idx(hops, 2);
	expect_int(h, "latency_ns", 80000);
	expect_null(h, "transit_delay_ns");
	expect_null(h, "queue_depth");
	expect_null(h, "buffer_occupancy");
	/* R3: the transit delay's top bit is its overflow flag (§4.4.2.5). */
	h = json_object_array_get_idx(hops, 3);
	expect_int(h, "latency_ns", 70000);
	expect_int(h, "transit_delay_ns", 4000);
	assert_true(json_object_get_boolean(get(h, "transit_delay_overflow")));
	expect_int(h, "queue_depth", 1500);
	json_object_put(o);
}

/* A hop object carries only the fields of the trace type: 0x800000 -> 3 keys. */
static void json_hop_has_only_carried_fields(void **state)
{
	static const __u8 data[4] = { 0x3f, 0, 0, 2 };
	struct json_object *o, *h;
	struct hm_record r;

	memset(&r, 0, sizeof(r));
	r.sink_if_id = 0xffff;
	r.sink_node_id = 0xffffff;
	{
		__u8 opt[32];
		size_t len = hm_test_trace_opt(opt, 7, 1, 0, 0, 0x800000, data, 4);

		assert_int_equal(hm_ioam_trace_decode(opt, len, &r.trace), 0);
	}
	o = print_and_parse(&r);
	expect_null(o, "rx_ns");
	expect_null(o, "rx_time");
	expect_null(get(o, "sink"), "ifindex");
	expect_null(get(o, "sink"), "if_id");
	expect_null(get(o, "sink"), "node_id");
	expect_null(get(o, "sink"), "latency_ns");
	expect_null(get(o, "packet"), "sport");
	expect_str(o, "trace_type", "0x800000");
	h = json_object_array_get_idx(get(o, "hops"), 0);
	assert_int_equal(json_object_object_length(h), 3);
	expect_int(h, "hop", 1);
	expect_int(h, "hop_limit", 63);
	expect_int(h, "node_id", 2);
	json_object_put(o);
}

/* Unavailable node_id (0xffffff) and timestamp seconds (0xffffffff) are null. */
static void json_unavailable_values_are_null(void **state)
{
	/*
	 * 0xb00000 = bits 0, 2, 3 (NodeLen 3), Overflow flag set. Node: Hop_Lim
	 * 63 with node_id unavailable (3f ff ff ff), seconds unavailable
	 * (ff ff ff ff), fraction 5 us (00 00 00 05).
	 */
	static const __u8 data[12] = { 0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 5 };
	struct json_object *o, *h;
	struct hm_record r;
	__u8 opt[32];
	size_t len;

	memset(&r, 0, sizeof(r));
	r.rx_ns = 1;
	len = hm_test_trace_opt(opt, 7, 3, 0x04, 0, 0xb00000, data, 12);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &r.trace), 0);
	o = print_and_parse(&r);
	assert_true(json_object_get_boolean(get(o, "overflow")));
	h = json_object_array_get_idx(get(o, "hops"), 0);
	expect_int(h, "hop_limit", 63);
	expect_null(h, "node_id");
	expect_null(h, "timestamp_sec");
	expect_int(h, "timestamp_frac", 5);
	expect_null(h, "timestamp_ns");
	expect_null(h, "latency_ns");
	expect_null(get(o, "sink"), "latency_ns");
	json_object_put(o);
}

static void ring_record_errors(void **state)
{
	struct hopmark_ioam_record rec;
	struct hm_record r;

	demo_ring_record(&rec);
	assert_int_equal(hm_record_from_ring(&rec, sizeof(rec) - 1, 5, &r), -EMSGSIZE);
	assert_int_equal(hm_record_from_ring(&rec, 0, 5, &r), -EMSGSIZE);
	rec.opt_len = HM_RECORD_OPT_MAX + 1;
	assert_int_equal(hm_record_from_ring(&rec, sizeof(rec), 5, &r), -EINVAL);
	/* opt_len shorter than the option says: the option is cut. */
	rec.opt_len = 251;
	assert_int_equal(hm_record_from_ring(&rec, sizeof(rec), 5, &r), -EMSGSIZE);
	rec.opt_len = 252;
	rec.opt[6] = 14 << 3;	/* NodeLen 14 for 0xfff000 */
	assert_int_equal(hm_record_from_ring(&rec, sizeof(rec), 5, &r), -EINVAL);
}

static char *table_of(const struct hm_record *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	hm_record_print_table(f, r);
	fclose(f);
	return buf;
}

static void table_has_a_row_per_hop_and_the_sink(void **state)
{
	struct hopmark_ioam_record rec;
	struct hm_record r;
	char *t, *line;
	int rows = 0;

	demo_ring_record(&rec);
	assert_int_equal(hm_record_from_ring(&rec, sizeof(rec), 5, &r), 0);
	t = table_of(&r);
	assert_non_null(strstr(t, "2001:db8:1::1.40000 > 2001:db8:5::1.5201"));
	assert_non_null(strstr(t, "trace-type 0xfff000"));
	for (line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
		int hop;
		unsigned int node;

		if (sscanf(line, " %d %u", &hop, &node) == 2) {
			rows++;
			assert_int_equal(node, path[hop - 1].id);
			if (hop == 1)	/* no ingress, no latency, transit, queue */
				assert_non_null(strstr(line, " - "));
			if (hop == 2)
				assert_non_null(strstr(line, "50.000"));
			if (hop == 3)
				assert_non_null(strstr(line, "80.000"));
			if (hop == 4)
				assert_non_null(strstr(line, "70.000"));
		} else if (strstr(line, " sink ")) {
			rows++;
			assert_non_null(strstr(line, " 5 "));
			assert_non_null(strstr(line, "45.000"));
		}
	}
	assert_int_equal(rows, 5);
	free(t);
}

/*
 * 100 records whose R1 latency is 1..100 us (A at .000100, R1 at
 * .000100 + k): nearest-rank median = 50 us, p99 = 99 us, min = 1 us.
 */
static void summary_min_median_p99(void **state)
{
	struct hopmark_ioam_record rec;
	struct hm_summary *s = hm_summary_new();
	struct json_object *o, *hops, *h;
	struct hm_record r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int k, i;

	assert_non_null(s);
	demo_ring_record(&rec);
	for (k = 1; k <= 100; k++) {
		__u32 frac = 100 + k;

		/* R1 is the third entry on the wire (offset 12 + 120); fraction at +12. */
		hm_put_be32(rec.opt + 12 + 120 + 12, frac);
		assert_int_equal(hm_record_from_ring(&rec, sizeof(rec), 5, &r), 0);
		hm_summary_add(s, &r);
	}
	f = open_memstream(&buf, &len);
	hm_summary_print(s, f, 1);
	fclose(f);
	o = json_tokener_parse(buf);
	assert_non_null(o);
	hops = get(o, "hops");
	assert_int_equal(json_object_array_length(hops), 5);
	for (i = 0; i < 5; i++) {
		h = json_object_array_get_idx(hops, i);
		expect_int(h, "hop", i + 1);
		expect_int(h, "count", 100);
		expect_int(h, "node_id", i < 4 ? path[i].id : 5);
		assert_int_equal(json_object_get_boolean(get(h, "sink")), i == 4);
	}
	h = json_object_array_get_idx(hops, 0);
	expect_null(h, "median_us");
	expect_int(h, "latency_samples", 0);
	h = json_object_array_get_idx(hops, 1);
	assert_true(json_object_get_double(get(h, "min_us")) == 1.0);
	assert_true(json_object_get_double(get(h, "median_us")) == 50.0);
	assert_true(json_object_get_double(get(h, "p99_us")) == 99.0);
	h = json_object_array_get_idx(hops, 4);
	assert_true(json_object_get_double(get(h, "median_us")) == 45.0);
	json_object_put(o);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	hm_summary_print(s, f, 0);
	fclose(f);
	assert_non_null(strstr(buf, "median-us"));
	assert_non_null(strstr(buf, "99.000"));
	assert_non_null(strstr(buf, "sink"));
	free(buf);
	hm_summary_free(s);
	hm_summary_free(NULL);
}

static void counter_names_are_complete_and_unique(void **state)
{
	int i, j;

	for (i = 0; i < HM_CNT_MAX; i++) {
		const char *n = hopmark_counter_names[i];

		if (!n || !*n)
			fail_msg("counter %d has no name", i);
		for (j = 0; n[j]; j++)
			if (!((n[j] >= 'a' && n[j] <= 'z') || n[j] == '_'))
				fail_msg("counter %d name \"%s\" is not snake_case", i, n);
		for (j = 0; j < i; j++)
			if (!strcmp(n, hopmark_counter_names[j]))
				fail_msg("counters %d and %d share \"%s\"", j, i, n);
	}
	assert_string_equal(hopmark_counter_names[HM_CNT_MALFORMED], "malformed");
	assert_string_equal(hopmark_counter_names[HM_CNT_UNKNOWN_NS], "unknown_ns");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ring_record_to_json_round_trip),
		cmocka_unit_test(json_hop_has_only_carried_fields),
		cmocka_unit_test(json_unavailable_values_are_null),
		cmocka_unit_test(ring_record_errors),
		cmocka_unit_test(table_has_a_row_per_hop_and_the_sink),
		cmocka_unit_test(summary_min_median_p99),
		cmocka_unit_test(counter_names_are_complete_and_unique),
	};

	return HM_RUN_TESTS(tests);
}
