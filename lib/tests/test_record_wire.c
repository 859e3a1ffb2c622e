// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_record_wire.c - the binary form of struct hm_record
 * (lib/ioam/record_wire.h, layout version 1): fields at their documented
 * offsets in big-endian order, encode then decode gives every field back
 * and the same JSON line and table, and bytes of another length, hop count
 * or layout are refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <arpa/inet.h>

#include "hm_test.h"
#include "ioam/record_wire.h"
#include "common/monitor_proto.h"

/* A record with a distinct value in every field, @n hops. */
static void make_record(struct hm_record *r, unsigned int n, unsigned int seed)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->rx_ns = 0x0102030405060708ULL + seed;
	r->ifindex = 0x11121314;
	r->sink_node_id = 0x00a1a2a3;
	r->sink_if_id = 0xb1b2;
	r->pkt.flow_label = 0x000c1c2c;
	r->pkt.payload_len = 0xd1d2;
	r->pkt.hop_limit = 0xe1;
	r->pkt.proto = 0xe2;
	r->pkt.sport = 0xf1f2;
	r->pkt.dport = 0xf3f4;
	for (i = 0; i < 16; i++) {
		r->pkt.saddr[i] = 0x20 + i;
		r->pkt.daddr[i] = 0x40 + i;
	}
	r->trace.ns_id = 0x7b7c;
	r->trace.nodelen = 15;
	r->trace.remlen = 3;
	r->trace.overflow = 1;
	r->trace.trace_type = 0xfff000;
	r->trace.data_len = 0x00000f00;
	r->trace.n_nodes = n;
	for (i = 0; i < n; i++) {
		struct hm_ioam6_node_values *v = &r->trace.nodes[i];
		__u32 k = (seed + i) * 0x01010101u;

		v->present = 0xfff000 ^ i;
		v->hop_limit = 64 - i;
		v->opaque_len = i;
		v->ingress_if = 0x1000 + i;
		v->egress_if = 0x2000 + i;
		v->node_id = 0x030000 + i;
		v->ts_sec = 0x40000000 + k;
		v->ts_frac = 0x50000000 + k;
		v->transit_delay = 0x80000000 | k;
		v->ns_data = 0x60000000 + k;
		v->queue_depth = 0x70000000 + k;
		v->csum_compl = 0x90000000 + k;
		v->ingress_if_wide = 0xa0000000 + k;
		v->egress_if_wide = 0xb0000000 + k;
		v->buffer_occupancy = 0xc0000000 + k;
		v->opaque_schema = 0x00d00000 + i;
		v->node_id_wide = 0x00e1e2e3e4e5e6e0ULL + i;
		v->ns_data_wide = 0xf1f2f3f4f5f6f7f0ULL + i;
	}
}

static void check_record(const struct hm_record *exp, const struct hm_record *got)
{
	const char *what = "decoded record";
	unsigned int i;
	int bad = 0;

	HM_CHECK_FIELD(rx_ns);
	HM_CHECK_FIELD(ifindex);
	HM_CHECK_FIELD(sink_node_id);
	HM_CHECK_FIELD(sink_if_id);
	HM_CHECK_FIELD(pkt.flow_label);
	HM_CHECK_FIELD(pkt.payload_len);
	HM_CHECK_FIELD(pkt.hop_limit);
	HM_CHECK_FIELD(pkt.proto);
	HM_CHECK_FIELD(pkt.sport);
	HM_CHECK_FIELD(pkt.dport);
	HM_CHECK_FIELD(trace.ns_id);
	HM_CHECK_FIELD(trace.nodelen);
	HM_CHECK_FIELD(trace.remlen);
	HM_CHECK_FIELD(trace.overflow);
	HM_CHECK_FIELD(trace.trace_type);
	HM_CHECK_FIELD(trace.data_len);
	HM_CHECK_FIELD(trace.n_nodes);
	if (memcmp(exp->pkt.saddr, got->pkt.saddr, 16) ||
	    memcmp(exp->pkt.daddr, got->pkt.daddr, 16)) {
		print_error("%s: addresses differ\n", what);
		bad++;
	}
	if (bad)
		fail_msg("%s: %d field(s) differ", what, bad);
	for (i = 0; i < exp->trace.n_nodes; i++) {
		char name[32];

		snprintf(name, sizeof(name), "node %u", i);
		hm_test_check_node(name, &exp->trace.nodes[i], &got->trace.nodes[i]);
	}
}

/* The header's and a node's fields sit where record_wire.h says, big-endian. */
static void fields_at_documented_offsets(void **state)
{
	static __u8 buf[HM_RECORD_WIRE_MAX];
	static const __u8 hdr[HM_RECORD_WIRE_HDR_LEN] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,	/* rx_ns */
		0x11, 0x12, 0x13, 0x14,				/* ifindex */
		0x00, 0xa1, 0xa2, 0xa3,				/* sink_node_id */
		0xb1, 0xb2, 0x7b, 0x7c,				/* sink_if_id, ns_id */
		15, 3, 1, 2,					/* nodelen remlen overflow n_nodes */
		0x00, 0xff, 0xf0, 0x00,				/* trace_type */
		0x00, 0x00, 0x0f, 0x00,				/* data_len */
		0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,	/* saddr */
		0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
		0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,	/* daddr */
		0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f,
		0x00, 0x0c, 0x1c, 0x2c,				/* flow_label */
		0xd1, 0xd2, 0xe1, 0xe2,				/* payload_len hop_limit proto */
		0xf1, 0xf2, 0xf3, 0xf4,				/* sport dport */
		0, 0, 0, 0,					/* reserved */
	};
	static const __u8 node1[HM_RECORD_WIRE_NODE_LEN] = {
		0x00, 0xff, 0xf0, 0x01,				/* present */
		63, 1, 0x10, 0x01, 0x20, 0x01, 0, 0,		/* hop_limit opaque_len in out reserved */
		0x00, 0x03, 0x00, 0x01,				/* node_id */
		0x41, 0x01, 0x01, 0x01,				/* ts_sec 0x40000000 + 0x01010101 */
		0x51, 0x01, 0x01, 0x01,				/* ts_frac */
		0x81, 0x01, 0x01, 0x01,				/* transit_delay */
		0x61, 0x01, 0x01, 0x01,				/* ns_data */
		0x71, 0x01, 0x01, 0x01,				/* queue_depth */
		0x91, 0x01, 0x01, 0x01,				/* csum_compl */
		0xa1, 0x01, 0x01, 0x01,				/* ingress_if_wide */
		0xb1, 0x01, 0x01, 0x01,				/* egress_if_wide */
		0xc1, 0x01, 0x01, 0x01,				/* buffer_occupancy */
		0x00, 0xd0, 0x00, 0x01,				/* opaque_schema */
		0x00, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe1,	/* node_id_wide */
		0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf1,	/* ns_data_wide */
	};
	struct hm_record r;
	size_t i;
	int len;

	(void)state;
	make_record(&r, 2, 0);
	len = hm_record_wire_encode(buf, sizeof(buf), &r);
	assert_int_equal(len, HM_RECORD_WIRE_HDR_LEN + 2 * HM_RECORD_WIRE_NODE_LEN);
	for (i = 0; i < sizeof(hdr); i++)
		if (buf[i] != hdr[i])
			fail_msg("header octet %zu: expected 0x%02x, observed 0x%02x", i, hdr[i], buf[i]);
	for (i = 0; i < sizeof(node1); i++)
		if (buf[HM_RECORD_WIRE_HDR_LEN + HM_RECORD_WIRE_NODE_LEN + i] != node1[i])
			fail_msg("node 1 octet %zu: expected 0x%02x, observed 0x%02x", i, node1[i],
				 buf[HM_RECORD_WIRE_HDR_LEN + HM_RECORD_WIRE_NODE_LEN + i]);
}

/* Every hop count 0..61: every field back, and the same JSON line and table. */
static void round_trip_same_json_and_table(void **state)
{
	static __u8 buf[HM_RECORD_WIRE_MAX];
	static struct hm_record r, back;
	static char j1[64 * 1024], j2[64 * 1024];
	unsigned int n;

	(void)state;
	for (n = 0; n <= HM_MAX_HOPS; n++) {
		char *t1 = NULL, *t2 = NULL;
		size_t l1 = 0, l2 = 0;
		FILE *f;
		int len;

		make_record(&r, n, n * 7);
		len = hm_record_wire_encode(buf, sizeof(buf), &r);
		assert_int_equal(len, hm_record_wire_len(&r));
		memset(&back, 0x5a, sizeof(back));
		assert_int_equal(hm_record_wire_decode(buf, len, &back), 0);
		check_record(&r, &back);
		assert_true(hm_record_write_json(j1, sizeof(j1), &r) < sizeof(j1));
		assert_true(hm_record_write_json(j2, sizeof(j2), &back) < sizeof(j2));
		assert_string_equal(j1, j2);
		f = open_memstream(&t1, &l1);
		hm_record_print_table(f, &r);
		fclose(f);
		f = open_memstream(&t2, &l2);
		hm_record_print_table(f, &back);
		fclose(f);
		assert_string_equal(t1, t2);
		free(t1);
		free(t2);
	}
}

static void bad_bytes_refused(void **state)
{
	static __u8 buf[HM_RECORD_WIRE_MAX + 16];
	struct hm_record r, back;
	int len;

	(void)state;
	make_record(&r, 4, 1);
	len = hm_record_wire_encode(buf, sizeof(buf), &r);
	assert_int_equal(len, 80 + 4 * 72);
	/* Encode: a buffer one octet short takes nothing. */
	assert_int_equal(hm_record_wire_encode(buf, len - 1, &r), -EMSGSIZE);
	r.trace.n_nodes = HM_MAX_HOPS + 1;
	assert_int_equal(hm_record_wire_encode(buf, sizeof(buf), &r), -EINVAL);
	r.trace.n_nodes = 4;
	len = hm_record_wire_encode(buf, sizeof(buf), &r);

	/* Decode: one octet short, one too many, shorter than the header. */
	assert_int_equal(hm_record_wire_decode(buf, len - 1, &back), -EMSGSIZE);
	assert_int_equal(hm_record_wire_decode(buf, len + 1, &back), -EMSGSIZE);
	assert_int_equal(hm_record_wire_decode(buf, 79, &back), -EMSGSIZE);
	/* n_nodes past HM_MAX_HOPS. */
	buf[23] = HM_MAX_HOPS + 1;
	assert_int_equal(hm_record_wire_decode(buf, sizeof(buf), &back), -EINVAL);
	buf[23] = 4;
	/* A reserved field set: another layout. */
	buf[79] = 1;
	assert_int_equal(hm_record_wire_decode(buf, len, &back), -EPROTO);
	buf[79] = 0;
	buf[80 + 2 * 72 + 10] = 1;
	assert_int_equal(hm_record_wire_decode(buf, len, &back), -EPROTO);
	buf[80 + 2 * 72 + 10] = 0;
	assert_int_equal(hm_record_wire_decode(buf, len, &back), 0);
}

/* The frame header: be32 payload length, be16 type, be16 0. */
static void frame_header_layout(void **state)
{
	__u8 h[HM_MON_FRAME_HDR_LEN];
	static const __u8 exp[HM_MON_FRAME_HDR_LEN] = { 0x00, 0x01, 0x02, 0x03, 0x00, 0x02, 0, 0 };

	(void)state;
	hm_mon_frame_hdr(h, HM_MON_FRAME_JSON_LINE, 0x010203);
	assert_memory_equal(h, exp, sizeof(exp));
	assert_string_equal(HM_MON_REQ_BINARY, "hopmark-monitor binary 1\n");
	assert_string_equal(HM_MON_ACK_BINARY, "hopmark-monitor binary 1 ok\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields_at_documented_offsets),
		cmocka_unit_test(round_trip_same_json_and_table),
		cmocka_unit_test(bad_bytes_refused),
		cmocka_unit_test(frame_header_layout),
	};

	return HM_RUN_TESTS(tests);
}
