// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_record_from_json.c - hm_record_from_json(), the reader of
 * hm_record_to_json() (Documentation/json-record.rst): a record written and
 * read back is the record, for every IOAM-Trace-Type bit (RFC 9197 §4.4.1)
 * alone and all together, with values and with every field unavailable
 * (null); an object that is not what the writer writes is refused.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <json-c/json.h>

#include "hm_test.h"

/* Every field a bit carries, each with its own value (none all-ones). */
static void carried_values(struct hm_ioam6_node_values *v, __u32 tt, unsigned int hop)
{
	hm_test_unavailable(v);
	v->present = tt & HM_IOAM_TT_MASK & ~HM_IOAM_TT_RESERVED;
	if (tt & (HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_HOPLIM_NODEID_WIDE))
		v->hop_limit = 64 - hop;
	if (tt & HM_IOAM_TT_HOPLIM_NODEID)
		v->node_id = 0x100 + hop;
	if (tt & HM_IOAM_TT_IF_IDS) {
		v->ingress_if = 0x210 + hop;
		v->egress_if = 0x220 + hop;
	}
	if (tt & HM_IOAM_TT_TS_SEC)
		v->ts_sec = 1700000000 + hop;
	if (tt & HM_IOAM_TT_TS_FRAC)
		v->ts_frac = 1000 * hop + 7;		/* microseconds */
	if (tt & HM_IOAM_TT_TRANSIT_DELAY)		/* §4.4.2.5: top bit is overflow */
		v->transit_delay = (hop & 1 ? 0x80000000U : 0) | (3000 + hop);
	if (tt & HM_IOAM_TT_NS_DATA)
		v->ns_data = 0xa0000000U + hop;
	if (tt & HM_IOAM_TT_QUEUE_DEPTH)
		v->queue_depth = 1500 * hop;
	if (tt & HM_IOAM_TT_CSUM_COMPL)
		v->csum_compl = 0xc0de0000U + hop;
	if (tt & HM_IOAM_TT_HOPLIM_NODEID_WIDE)
		v->node_id_wide = 0x10000000000000ULL + hop;
	if (tt & HM_IOAM_TT_IF_IDS_WIDE) {
		v->ingress_if_wide = 0x1000000U + hop;
		v->egress_if_wide = 0x2000000U + hop;
	}
	if (tt & HM_IOAM_TT_NS_DATA_WIDE)
		v->ns_data_wide = 0x0b00000000000000ULL + hop;
	if (tt & HM_IOAM_TT_BUFFER_OCC)
		v->buffer_occupancy = 4096 + hop;
	if (tt & HM_IOAM_TT_OPAQUE) {
		v->opaque_len = hop;
		v->opaque_schema = 0x500 + hop;
	}
}

/* The fields a bit carries, every one unavailable: JSON null. */
static void unavailable_values(struct hm_ioam6_node_values *v, __u32 tt)
{
	hm_test_unavailable(v);
	v->present = tt & HM_IOAM_TT_MASK & ~HM_IOAM_TT_RESERVED;
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
	r->pkt.flow_label = 0xabcde;
	r->pkt.payload_len = 1280;
	r->pkt.hop_limit = 61;
	r->pkt.proto = 17;		/* UDP: the ports are in the JSON form */
	r->pkt.sport = 40000;
	r->pkt.dport = 9;
	r->trace.ns_id = 123;
	r->trace.trace_type = tt;
	r->trace.nodelen = hm_ioam6_trace_nodelen(tt);
	r->trace.remlen = 2;
	r->trace.overflow = n == 3;
	r->trace.n_nodes = n;
	r->trace.data_len = 4 * (r->trace.remlen + n * r->trace.nodelen);
	for (i = 0; i < n; i++) {
		if (available)
			carried_values(&r->trace.nodes[i], tt, i + 1);
		else
			unavailable_values(&r->trace.nodes[i], tt);
	}
}

static void expect_same_record(const char *what, const struct hm_record *exp,
			       const struct hm_record *got)
{
	char name[96];
	unsigned int i;
	int bad = 0;

	HM_CHECK_FIELD(rx_ns);
	HM_CHECK_FIELD(ifindex);
	HM_CHECK_FIELD(sink_if_id);
	HM_CHECK_FIELD(sink_node_id);
	HM_CHECK_FIELD(pkt.flow_label);
	HM_CHECK_FIELD(pkt.payload_len);
	HM_CHECK_FIELD(pkt.hop_limit);
	HM_CHECK_FIELD(pkt.proto);
	HM_CHECK_FIELD(pkt.sport);
	HM_CHECK_FIELD(pkt.dport);
	HM_CHECK_FIELD(trace.ns_id);
	HM_CHECK_FIELD(trace.trace_type);
	HM_CHECK_FIELD(trace.nodelen);
	HM_CHECK_FIELD(trace.remlen);
	HM_CHECK_FIELD(trace.overflow);
	HM_CHECK_FIELD(trace.data_len);
	HM_CHECK_FIELD(trace.n_nodes);
	if (memcmp(exp->pkt.saddr, got->pkt.saddr, 16) ||
	    memcmp(exp->pkt.daddr, got->pkt.daddr, 16)) {
		print_error("%s: packet addresses differ\n", what);
		bad++;
	}
	if (bad)
		fail_msg("%s: %d field(s) differ", what, bad);
	for (i = 0; i < exp->trace.n_nodes; i++) {
		snprintf(name, sizeof(name), "%s, hop %u", what, i + 1);
		hm_test_check_node(name, &exp->trace.nodes[i], &got->trace.nodes[i]);
	}
}

/* Write @r, read it back, compare; the object read is the one written. */
static void round_trip(const char *what, const struct hm_record *r)
{
	struct json_object *o = hm_record_to_json(r), *again;
	struct hm_record back;
	int err;

	assert_non_null(o);
	/* Through the text of a line, as hopmarkd's readers get it. */
	again = json_tokener_parse(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	assert_non_null(again);
	err = hm_record_from_json(again, &back);
	if (err)
		fail_msg("%s: hm_record_from_json() = %d, expected 0, for %s", what, err,
			 json_object_to_json_string(o));
	expect_same_record(what, r, &back);
	json_object_put(again);
	json_object_put(o);
}

static const __u32 every_bit[] = {
	HM_IOAM_TT_HOPLIM_NODEID, HM_IOAM_TT_IF_IDS, HM_IOAM_TT_TS_SEC, HM_IOAM_TT_TS_FRAC,
	HM_IOAM_TT_TRANSIT_DELAY, HM_IOAM_TT_NS_DATA, HM_IOAM_TT_QUEUE_DEPTH,
	HM_IOAM_TT_CSUM_COMPL, HM_IOAM_TT_HOPLIM_NODEID_WIDE, HM_IOAM_TT_IF_IDS_WIDE,
	HM_IOAM_TT_NS_DATA_WIDE, HM_IOAM_TT_BUFFER_OCC, HM_IOAM_TT_OPAQUE,
	HM_IOAM_TT_RESERVED,
};

static void record_json_round_trip_every_trace_type_bit(void **state)
{
	struct hm_record r;
	char what[64];
	size_t b;
	int avail;

	for (b = 0; b < sizeof(every_bit) / sizeof(every_bit[0]); b++) {
		for (avail = 1; avail >= 0; avail--) {
			snprintf(what, sizeof(what), "trace-type 0x%06x, %s", every_bit[b],
				 avail ? "values" : "unavailable");
			make_record(&r, every_bit[b], 3, avail);
			round_trip(what, &r);
		}
	}
}

static void record_json_round_trip_all_bits(void **state)
{
	const __u32 all = 0xfff000 | HM_IOAM_TT_OPAQUE;
	struct hm_record r;
	unsigned int n;

	for (n = 0; n <= 4; n++) {
		make_record(&r, all, n, true);
		round_trip("every defined bit, values", &r);
		make_record(&r, all, n, false);
		round_trip("every defined bit, unavailable", &r);
	}
	/* As many hops as a trace holds. */
	make_record(&r, HM_IOAM_TT_HOPLIM_NODEID, HM_MAX_HOPS, true);
	round_trip("HM_MAX_HOPS hops", &r);
	/* No timestamp at the sink, no ports without TCP or UDP. */
	make_record(&r, all, 2, true);
	r.rx_ns = 0;
	r.pkt.proto = 58;
	r.pkt.sport = r.pkt.dport = 0;
	round_trip("ICMPv6, rx_ns 0", &r);
}

static struct json_object *written(__u32 tt)
{
	struct hm_record r;

	make_record(&r, tt, 2, true);
	return hm_record_to_json(&r);
}

static void expect_refused(const char *what, struct json_object *o, int want)
{
	struct hm_record r;
	int err = hm_record_from_json(o, &r);

	if (err != want)
		fail_msg("%s: expected %d, observed %d", what, want, err);
	json_object_put(o);
}

static void record_json_refuses_what_the_writer_does_not_write(void **state)
{
	struct json_object *o, *hops, *h;
	unsigned int i;

	expect_refused("an array", json_object_new_array(), -EINVAL);
	expect_refused("null", NULL, -EINVAL);
	o = written(0xf00000);
	json_object_object_del(o, "hops");
	expect_refused("no hops", o, -EINVAL);
	o = written(0xf00000);
	json_object_object_add(o, "trace_type", json_object_new_int(0xf00000));
	expect_refused("trace_type a number", o, -EINVAL);
	o = written(0xf00000);
	json_object_object_add(o, "packet", json_object_new_string("x"));
	expect_refused("packet a string", o, -EINVAL);
	o = written(0xf00000);
	json_object_object_add(json_object_object_get(o, "packet"), "src",
			       json_object_new_string("10.0.0.1"));
	expect_refused("IPv4 source", o, -EINVAL);
	o = written(0xf00000);
	hops = json_object_object_get(o, "hops");
	for (i = 2; i <= HM_MAX_HOPS; i++)
		json_object_array_add(hops, json_object_get(json_object_array_get_idx(hops, 0)));
	expect_refused("HM_MAX_HOPS + 1 hops", o, -EINVAL);

	/* Well-formed, but not what hm_record_to_json() writes: -EPROTO. */
	o = written(0xf00000);
	json_object_object_add(o, "extra", json_object_new_int(1));
	expect_refused("an unknown member", o, -EPROTO);
	o = written(0xf00000);
	h = json_object_array_get_idx(json_object_object_get(o, "hops"), 1);
	json_object_object_add(h, "latency_ns", json_object_new_int64(1));
	expect_refused("a latency that the timestamps do not give", o, -EPROTO);
	o = written(0xf00000);
	h = json_object_array_get_idx(json_object_object_get(o, "hops"), 0);
	json_object_object_add(h, "node_id", json_object_new_string("257"));
	expect_refused("a node_id as a string", o, -EPROTO);
	o = written(0x800000);
	h = json_object_array_get_idx(json_object_object_get(o, "hops"), 0);
	json_object_object_add(h, "queue_depth", json_object_new_int(5));
	expect_refused("a field its trace type does not carry", o, -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_json_round_trip_every_trace_type_bit),
		cmocka_unit_test(record_json_round_trip_all_bits),
		cmocka_unit_test(record_json_refuses_what_the_writer_does_not_write),
	};

	return HM_RUN_TESTS(tests);
}
