// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_ioam_trace_decode.c - hm_ioam_trace_decode() against vectors worked
 * out by hand from RFC 9197 §4.4 (trace header, §4.4.1 IOAM-Trace-Type,
 * §4.4.2 node data fields) and RFC 9486 §2 (IPv6 option framing).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "hm_test.h"

#define NS	123	/* IOAM-Namespace of the demo: 0x007b on the wire */

/*
 * One vector per IOAM-Trace-Type bit alone. @bytes is one node's data as
 * RFC 9197 §4.4.2 lays it out, big-endian; @set fills the expected values.
 */
struct bit_vector {
	unsigned int bit;
	__u32 tt;		/* 1 << (23 - bit), bit 0 = MSB (§4.4.1) */
	__u8 nodelen;		/* 4-octet words the bit's field takes */
	__u8 len;
	__u8 bytes[12];
};

static const struct bit_vector bit_vectors[] = {
	/* §4.4.2.1 Hop_Lim (1 octet) = 64, node_id (3 octets) = 1 */
	{ 0, 0x800000, 1, 4, { 0x40, 0x00, 0x00, 0x01 } },
	/* §4.4.2.2 ingress_if_id (2 octets) = 5, egress_if_id (2 octets) = 6 */
	{ 1, 0x400000, 1, 4, { 0x00, 0x05, 0x00, 0x06 } },
	/* §4.4.2.3 timestamp seconds = 0x6553f100 (1700000000) */
	{ 2, 0x200000, 1, 4, { 0x65, 0x53, 0xf1, 0x00 } },
	/* §4.4.2.4 timestamp fraction = 999999 us = 0x000f423f */
	{ 3, 0x100000, 1, 4, { 0x00, 0x0f, 0x42, 0x3f } },
	/* §4.4.2.5 transit delay: MSB = overflow bit, 1000 ns = 0x3e8 */
	{ 4, 0x080000, 1, 4, { 0x80, 0x00, 0x03, 0xe8 } },
	/* §4.4.2.6 namespace specific data = 0xdeadbeef */
	{ 5, 0x040000, 1, 4, { 0xde, 0xad, 0xbe, 0xef } },
	/* §4.4.2.7 queue depth = 1500 = 0x5dc */
	{ 6, 0x020000, 1, 4, { 0x00, 0x00, 0x05, 0xdc } },
	/* §4.4.2.8 checksum complement = 0x12345678 */
	{ 7, 0x010000, 1, 4, { 0x12, 0x34, 0x56, 0x78 } },
	/* §4.4.2.9 Hop_Lim = 62, wide node_id (7 octets) = 0x01020304050607 */
	{ 8, 0x008000, 2, 8, { 0x3e, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07 } },
	/* §4.4.2.10 wide ingress_if_id = 10, wide egress_if_id = 11 (4 octets each) */
	{ 9, 0x004000, 2, 8, { 0, 0, 0, 0x0a, 0, 0, 0, 0x0b } },
	/* §4.4.2.11 wide namespace specific data = 0x0123456789abcdef */
	{ 10, 0x002000, 2, 8, { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef } },
	/* §4.4.2.12 buffer occupancy = 65536 = 0x00010000 */
	{ 11, 0x001000, 1, 4, { 0x00, 0x01, 0x00, 0x00 } },
	/* §4.4.1 bits 12-21 undefined: a node fills 4 octets of all-ones */
	{ 12, 0x000800, 1, 4, { 0xff, 0xff, 0xff, 0xff } },
	{ 13, 0x000400, 1, 4, { 0xff, 0xff, 0xff, 0xff } },
	{ 14, 0x000200, 1, 4, { 0xff, 0xff, 0xff, 0xff } },
	{ 15, 0x000100, 1, 4, { 0xff, 0xff, 0xff, 0xff } },
	{ 16, 0x000080, 1, 4, { 0xff, 0xff, 0xff, 0xff } },
	{ 17, 0x000040, 1, 4, { 0xff, 0xff, 0xff, 0xff } },
	{ 18, 0x000020, 1, 4, { 0xff, 0xff, 0xff, 0xff } },
	{ 19, 0x000010, 1, 4, { 0xff, 0xff, 0xff, 0xff } },
	{ 20, 0x000008, 1, 4, { 0xff, 0xff, 0xff, 0xff } },
	{ 21, 0x000004, 1, 4, { 0xff, 0xff, 0xff, 0xff } },
	/*
	 * §4.4.2.13 opaque state snapshot, not counted in NodeLen (so 0):
	 * Length = 2 words, Schema ID = 0x000007, then 8 octets of snapshot.
	 */
	{ 22, 0x000002, 0, 12, { 0x02, 0x00, 0x00, 0x07, 0xaa, 0xbb, 0xcc, 0xdd,
				 0x11, 0x22, 0x33, 0x44 } },
};

/* What each bit vector decodes to (fields not set stay all-ones). */
static void bit_expect(unsigned int bit, struct hm_ioam6_node_values *v)
{
	hm_test_unavailable(v);
	v->present = 1U << (23 - bit);
	switch (bit) {
	case 0: v->hop_limit = 64; v->node_id = 1; break;
	case 1: v->ingress_if = 5; v->egress_if = 6; break;
	case 2: v->ts_sec = 1700000000; break;
	case 3: v->ts_frac = 999999; break;
	case 4: v->transit_delay = 0x800003e8; break;
	case 5: v->ns_data = 0xdeadbeef; break;
	case 6: v->queue_depth = 1500; break;
	case 7: v->csum_compl = 0x12345678; break;
	case 8: v->hop_limit = 62; v->node_id_wide = 0x01020304050607ULL; break;
	case 9: v->ingress_if_wide = 10; v->egress_if_wide = 11; break;
	case 10: v->ns_data_wide = 0x0123456789abcdefULL; break;
	case 11: v->buffer_occupancy = 65536; break;
	case 22: v->opaque_len = 2; v->opaque_schema = 7; break;
	default: break;	/* undefined bits: nothing to decode */
	}
}

/*
 * Each bit alone, as the only node of a two-slot data area: RemainingLen =
 * one slot free (NodeLen words), the node's data after it.
 */
static void trace_type_each_bit_alone(void **state)
{
	unsigned int i;

	for (i = 0; i < sizeof(bit_vectors) / sizeof(bit_vectors[0]); i++) {
		const struct bit_vector *bv = &bit_vectors[i];
		__u8 data[24] = { 0 }, opt[64];
		struct hm_ioam6_node_values exp;
		struct hm_ioam_trace t;
		size_t free_len = bv->nodelen ? bv->nodelen * 4 : 4, len;
		char what[64];
		int err;

		/* For bit 22 alone the free slot is one 4-octet word. */
		memcpy(data + free_len, bv->bytes, bv->len);
		len = hm_test_trace_opt(opt, NS, bv->nodelen, 0, free_len / 4, bv->tt,
					data, free_len + bv->len);
		snprintf(what, sizeof(what), "bit %u (trace type 0x%06x)", bv->bit, bv->tt);
		assert_int_equal(hm_ioam6_trace_nodelen(bv->tt), bv->nodelen);
		err = hm_ioam_trace_decode(opt, len, &t);
		if (err)
			fail_msg("%s: expected 0, observed %d", what, err);
		assert_int_equal(t.ns_id, NS);
		assert_int_equal(t.trace_type, bv->tt);
		assert_int_equal(t.nodelen, bv->nodelen);
		assert_int_equal(t.remlen, free_len / 4);
		assert_int_equal(t.data_len, free_len + bv->len);
		assert_int_equal(t.overflow, 0);
		assert_int_equal(t.n_nodes, 1);
		bit_expect(bv->bit, &exp);
		hm_test_check_node(what, &exp, &t.nodes[0]);
	}
}

/* Bit 23 is reserved and ignored on receipt (§4.4.1): NodeLen 0, no data. */
static void trace_type_bit23_reserved_is_ignored(void **state)
{
	__u8 opt[32], free4[4] = { 0 };
	struct hm_ioam_trace t;
	size_t len;

	len = hm_test_trace_opt(opt, NS, 0, 0, 0, 0x000001, NULL, 0);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.n_nodes, 0);
	/* One free word, nothing written: still consistent. */
	len = hm_test_trace_opt(opt, NS, 0, 0, 1, 0x000001, free4, 4);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.n_nodes, 0);
	/* A used word with no field to hold it is inconsistent. */
	len = hm_test_trace_opt(opt, NS, 0, 0, 0, 0x000001, free4, 4);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), -EINVAL);
}

/*
 * Bits 0-11 together (0xfff000, the demo's type), NodeLen = 8 short words +
 * 3 wide fields * 2 words + buffer occupancy 1 word = 15. Node data is the
 * concatenation, in bit order, of the vectors above (Hop_Lim 64 in both the
 * short and the wide field, as one node writes it).
 */
static const __u8 node_fff000[60] = {
	0x40, 0x00, 0x00, 0x01,				/* bit 0 */
	0x00, 0x05, 0x00, 0x06,				/* bit 1 */
	0x65, 0x53, 0xf1, 0x00,				/* bit 2 */
	0x00, 0x0f, 0x42, 0x3f,				/* bit 3 */
	0x80, 0x00, 0x03, 0xe8,				/* bit 4 */
	0xde, 0xad, 0xbe, 0xef,				/* bit 5 */
	0x00, 0x00, 0x05, 0xdc,				/* bit 6 */
	0x12, 0x34, 0x56, 0x78,				/* bit 7 */
	0x40, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,	/* bit 8 */
	0, 0, 0, 0x0a, 0, 0, 0, 0x0b,			/* bit 9 */
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,	/* bit 10 */
	0x00, 0x01, 0x00, 0x00,				/* bit 11 */
};

static void expect_fff000(struct hm_ioam6_node_values *v)
{
	unsigned int bit;
	struct hm_ioam6_node_values one;

	hm_test_unavailable(v);
	for (bit = 0; bit < 12; bit++) {
		bit_expect(bit, &one);
		v->present |= one.present;
	}
	v->hop_limit = 64; v->node_id = 1; v->ingress_if = 5; v->egress_if = 6;
	v->ts_sec = 1700000000; v->ts_frac = 999999; v->transit_delay = 0x800003e8;
	v->ns_data = 0xdeadbeef; v->queue_depth = 1500; v->csum_compl = 0x12345678;
	v->node_id_wide = 0x01020304050607ULL; v->ingress_if_wide = 10;
	v->egress_if_wide = 11; v->ns_data_wide = 0x0123456789abcdefULL;
	v->buffer_occupancy = 65536;
}

static void trace_type_bits_0_11_together(void **state)
{
	struct hm_ioam6_node_values exp;
	struct hm_ioam_trace t;
	__u8 opt[256];
	size_t len;

	assert_int_equal(hm_ioam6_trace_nodelen(0xfff000), 15);
	len = hm_test_trace_opt(opt, NS, 15, 0, 0, 0xfff000, node_fff000, sizeof(node_fff000));
	assert_int_equal(opt[1], 70);	/* 10 + 60 */
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.n_nodes, 1);
	expect_fff000(&exp);
	hm_test_check_node("0xfff000", &exp, &t.nodes[0]);
}

/*
 * Every bit 0-22: 0xfffffe. NodeLen = 15 + 10 undefined words = 25; the
 * node data is node_fff000, ten words of all-ones, then the snapshot
 * header 0x00ffffff (Length 0, Schema ID unavailable).
 */
static void trace_type_all_bits_0_22(void **state)
{
	struct hm_ioam6_node_values exp;
	struct hm_ioam_trace t;
	__u8 data[104], opt[256];
	size_t len;

	assert_int_equal(hm_ioam6_trace_nodelen(0xfffffe), 25);
	memcpy(data, node_fff000, 60);
	memset(data + 60, 0xff, 40);
	data[100] = 0x00; data[101] = 0xff; data[102] = 0xff; data[103] = 0xff;
	len = hm_test_trace_opt(opt, NS, 25, 0, 0, 0xfffffe, data, sizeof(data));
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.n_nodes, 1);
	expect_fff000(&exp);
	exp.present = 0xfffffe;
	exp.opaque_len = 0;
	exp.opaque_schema = 0xffffff;
	hm_test_check_node("0xfffffe", &exp, &t.nodes[0]);
	/* Bit 23 set too changes nothing (ignored on receipt). */
	len = hm_test_trace_opt(opt, NS, 25, 0, 0, 0xffffff, data, sizeof(data));
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.nodes[0].present, 0xfffffe);
}

/* Short format only (bits 0-7, 0xff0000, NodeLen 8) and wide only (8-10, 0x00e000, NodeLen 6). */
static void short_and_wide_formats(void **state)
{
	struct hm_ioam6_node_values exp, all;
	struct hm_ioam_trace t;
	__u8 opt[256];
	size_t len;

	expect_fff000(&all);

	len = hm_test_trace_opt(opt, NS, 8, 0, 0, 0xff0000, node_fff000, 32);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	exp = all;
	exp.present = 0xff0000;
	exp.node_id_wide = 0xffffffffffffffULL;
	exp.ingress_if_wide = exp.egress_if_wide = 0xffffffff;
	exp.ns_data_wide = ~0ULL;
	exp.buffer_occupancy = 0xffffffff;
	hm_test_check_node("short 0xff0000", &exp, &t.nodes[0]);

	len = hm_test_trace_opt(opt, NS, 6, 0, 0, 0x00e000, node_fff000 + 32, 24);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	hm_test_unavailable(&exp);
	exp.present = 0x00e000;
	exp.hop_limit = 64;	/* from the wide field's Hop_Lim */
	exp.node_id_wide = 0x01020304050607ULL;
	exp.ingress_if_wide = 10;
	exp.egress_if_wide = 11;
	exp.ns_data_wide = 0x0123456789abcdefULL;
	hm_test_check_node("wide 0x00e000", &exp, &t.nodes[0]);
}

/*
 * Two nodes in a three-slot area of type 0x800000: on the wire the most
 * recent is first after the free slot (§4.4); the decoder returns path order.
 *   free: 00 00 00 00, newer: 3e 00 00 03 (hlim 62, node 3),
 *   older: 3f 00 00 02 (hlim 63, node 2)
 */
static void nodes_come_out_in_path_order(void **state)
{
	static const __u8 data[12] = { 0, 0, 0, 0, 0x3e, 0, 0, 3, 0x3f, 0, 0, 2 };
	struct hm_ioam_trace t;
	__u8 opt[64];
	size_t len;

	len = hm_test_trace_opt(opt, NS, 1, 0, 1, 0x800000, data, sizeof(data));
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.n_nodes, 2);
	assert_int_equal(t.nodes[0].node_id, 2);
	assert_int_equal(t.nodes[0].hop_limit, 63);
	assert_int_equal(t.nodes[1].node_id, 3);
	assert_int_equal(t.nodes[1].hop_limit, 62);
}

/* 244-byte area (the largest, 255-octet option) of 61 one-word nodes. */
static void largest_area_holds_61_nodes(void **state)
{
	struct hm_ioam_trace t;
	__u8 data[244], opt[256];
	size_t len;
	unsigned int i;

	for (i = 0; i < 61; i++)	/* wire order: node 61 first */
		hm_put_be32(data + 4 * i, (64U << 24) | (61 - i));
	len = hm_test_trace_opt(opt, NS, 1, 0, 0, 0x800000, data, sizeof(data));
	assert_int_equal(opt[1], 254);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.n_nodes, 61);
	for (i = 0; i < 61; i++)
		assert_int_equal(t.nodes[i].node_id, i + 1);
}

/* The one-node 0xf00000 vector used by the error tests below. */
static size_t build_f00000(__u8 *opt, __u8 nodelen, __u8 flags, __u8 remlen)
{
	/* slot 1 free; slot 2: hlim 63 node 2 | in 11 out 12 | sec | frac 123456 */
	static const __u8 data[32] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x3f, 0x00, 0x00, 0x02, 0x00, 0x0b, 0x00, 0x0c,
		0x65, 0x53, 0xf1, 0x00, 0x00, 0x01, 0xe2, 0x40,
	};

	return hm_test_trace_opt(opt, NS, nodelen, flags, remlen, 0xf00000, data, 32);
}

static void nodelen_mismatch_is_invalid(void **state)
{
	struct hm_ioam_trace t;
	__u8 opt[64];
	size_t len;

	len = build_f00000(opt, 4, 0, 4);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.nodes[0].ts_frac, 123456);
	len = build_f00000(opt, 3, 0, 4);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), -EINVAL);
	len = build_f00000(opt, 5, 0, 4);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), -EINVAL);
	len = build_f00000(opt, 31, 0, 4);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), -EINVAL);
}

/* RemainingLen in 0..127 over a 32-byte area: only 0 (2 nodes... 16-byte
 * entries: 32 bytes = 2 entries), 4 (1 entry) and 8 (none) are whole. */
static void remaining_len_sweep(void **state)
{
	struct hm_ioam_trace t;
	__u8 opt[64];
	unsigned int r;

	for (r = 0; r < 128; r++) {
		size_t len = build_f00000(opt, 4, 0, r);
		int exp = (r == 0 || r == 4 || r == 8) ? 0 : -EINVAL;
		int err = hm_ioam_trace_decode(opt, len, &t);

		if (err != exp)
			fail_msg("RemainingLen %u: expected %d, observed %d", r, exp, err);
		if (!err && t.n_nodes != (8 - r) / 4)
			fail_msg("RemainingLen %u: expected %u nodes, observed %u",
				 r, (8 - r) / 4, t.n_nodes);
	}
}

/* Every buffer length shorter than the option: -EMSGSIZE, never a read past it. */
static void truncation_at_every_length(void **state)
{
	struct hm_ioam_trace t;
	__u8 opt[256];
	size_t len, l;

	len = hm_test_trace_opt(opt, NS, 15, 0, 0, 0xfff000, node_fff000, sizeof(node_fff000));
	for (l = 0; l < len; l++) {
		/* A heap copy of exactly l bytes lets valgrind/ASan see overreads. */
		__u8 *copy = malloc(l ? l : 1);
		int err;

		memcpy(copy, opt, l);
		err = hm_ioam_trace_decode(copy, l, &t);
		free(copy);
		if (err != -EMSGSIZE)
			fail_msg("length %zu of %zu: expected %d, observed %d", l, len,
				 -EMSGSIZE, err);
	}
	/* Longer buffers are fine: the option length bounds the decoder. */
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(hm_ioam_trace_decode(opt, sizeof(opt), &t), 0);
}

/*
 * Every Opt Data Len from 0 to 42 over the 0xf00000 vector (valid at 42,
 * RemainingLen 4): only 26 (data area 16 bytes = exactly the free slot,
 * no node) and 42 are consistent; shorter ones cut the header or the
 * data area, or make it a non-multiple of 4 octets or too small for
 * RemainingLen.
 */
static void option_length_sweep(void **state)
{
	struct hm_ioam_trace t;
	__u8 opt[64];
	unsigned int ol;

	build_f00000(opt, 4, 0, 4);
	for (ol = 0; ol <= 42; ol++) {
		int exp = (ol == 26 || ol == 42) ? 0 : -EINVAL;
		int err;

		opt[1] = ol;
		err = hm_ioam_trace_decode(opt, sizeof(opt), &t);
		if (err != exp)
			fail_msg("Opt Data Len %u: expected %d, observed %d", ol, exp, err);
	}
}

static void bad_option_type_is_invalid(void **state)
{
	static const __u8 types[] = { 0x00, 0x01, 0x05, 0x11, 0x30, 0x32, 0xb1 };
	struct hm_ioam_trace t;
	__u8 opt[64];
	size_t len, i;

	for (i = 0; i < sizeof(types); i++) {
		len = build_f00000(opt, 4, 0, 4);
		opt[0] = types[i];
		assert_int_equal(hm_ioam_trace_decode(opt, len, &t), -EINVAL);
	}
}

/* IOAM Option-Types 1 (incremental), 2 (POT), 3 (E2E), 4 (DEX): not a pre-allocated trace. */
static void other_ioam_option_types_are_not_supported(void **state)
{
	struct hm_ioam_trace t;
	__u8 opt[64];
	size_t len;
	unsigned int type;

	for (type = 1; type < 256; type++) {
		len = build_f00000(opt, 4, 0, 4);
		opt[3] = type;
		assert_int_equal(hm_ioam_trace_decode(opt, len, &t), -EPROTONOSUPPORT);
	}
}

/*
 * Overflow flag (§4.4, first Flags bit: octet 6 = NodeLen << 3 | 0x04):
 * reported, and the nodes that did write are still decoded.
 */
static void overflow_flag_is_reported(void **state)
{
	struct hm_ioam_trace t;
	__u8 opt[64];
	size_t len;

	len = build_f00000(opt, 4, 0x04, 4);
	assert_int_equal(opt[6], 0x24);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.overflow, 1);
	assert_int_equal(t.n_nodes, 1);
	assert_int_equal(t.nodes[0].node_id, 2);
	/* The other Flags bits are not the Overflow flag. */
	len = build_f00000(opt, 4, 0x03, 4);
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.overflow, 0);
}

/*
 * Bit 22 with a non-empty snapshot next to a fixed field (0x800002,
 * NodeLen 1): each entry is NodeLen words + snapshot header + Length words.
 *   newer: 3e 00 00 03 | 01 00 00 2a | c0 ff ee 00   (Length 1, Schema 42)
 *   older: 3f 00 00 02 | 00 ff ff ff                 (empty, Schema unavailable)
 */
static void opaque_snapshot_is_walked_by_its_length(void **state)
{
	static const __u8 data[20] = {
		0x3e, 0, 0, 3, 0x01, 0, 0, 0x2a, 0xc0, 0xff, 0xee, 0x00,
		0x3f, 0, 0, 2, 0x00, 0xff, 0xff, 0xff,
	};
	struct hm_ioam_trace t;
	__u8 opt[64];
	size_t len;

	len = hm_test_trace_opt(opt, NS, 1, 0, 0, 0x800002, data, sizeof(data));
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
	assert_int_equal(t.n_nodes, 2);
	assert_int_equal(t.nodes[0].node_id, 2);
	assert_int_equal(t.nodes[0].opaque_len, 0);
	assert_int_equal(t.nodes[0].opaque_schema, 0xffffff);
	assert_int_equal(t.nodes[1].node_id, 3);
	assert_int_equal(t.nodes[1].opaque_len, 1);
	assert_int_equal(t.nodes[1].opaque_schema, 42);
	/* A Length reaching past the data area is inconsistent. */
	memcpy(opt + 12, data, sizeof(data));
	opt[12 + 4] = 0x04;
	assert_int_equal(hm_ioam_trace_decode(opt, len, &t), -EINVAL);
}

/*
 * Encoder -> decoder round trip for every combination of bits 0-11:
 * two nodes with different values in a data area with one free slot.
 */
static void encode_decode_round_trip_all_4096(void **state)
{
	struct hm_ioam6_node_values a, b, exp;
	unsigned int combo;

	memset(&a, 0, sizeof(a));
	a.hop_limit = 63; a.node_id = 0x0a0b0c; a.ingress_if = 0x1112; a.egress_if = 0x1314;
	a.ts_sec = 0x61626364; a.ts_frac = 654321; a.transit_delay = 0x7fffffff;
	a.ns_data = 0x01020304; a.queue_depth = 0x10000; a.csum_compl = 0xfffffffe;
	a.node_id_wide = 0x00aabbccddeeff11ULL; a.ingress_if_wide = 0x21222324;
	a.egress_if_wide = 0x31323334; a.ns_data_wide = 0xfedcba9876543210ULL;
	a.buffer_occupancy = 4096;
	b = a;
	b.hop_limit = 62; b.node_id = 0xffffff; b.ingress_if = 0xffff; b.ts_frac = 1;
	b.node_id_wide = 0x00ffffffffffffffULL; b.ns_data_wide = 1;

	for (combo = 0; combo < 4096; combo++) {
		__u32 tt = combo << 12;
		__u32 nl = hm_ioam6_trace_nodelen(tt);
		__u8 data[3 * 60] = { 0 }, opt[256];
		struct hm_ioam_trace t;
		size_t len, n;
		char what[48];
		int i;

		/* free slot, then b (newer), then a (older) */
		n = hm_ioam6_node_data_encode(data + nl * 4, tt, &b);
		if (n != nl * 4)
			fail_msg("type 0x%06x: encoder wrote %zu, NodeLen says %u", tt, n, nl * 4);
		hm_ioam6_node_data_encode(data + 2 * nl * 4, tt, &a);
		len = hm_test_trace_opt(opt, NS, nl, 0, nl, tt, data, 3 * nl * 4);
		assert_int_equal(hm_ioam_trace_decode(opt, len, &t), 0);
		if (!nl) {	/* type 0: nothing to carry */
			assert_int_equal(t.n_nodes, 0);
			continue;
		}
		assert_int_equal(t.n_nodes, 2);
		for (i = 0; i < 2; i++) {
			const struct hm_ioam6_node_values *src = i ? &b : &a;

			hm_test_unavailable(&exp);
			exp.present = tt;
			if (tt & (HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_HOPLIM_NODEID_WIDE))
				exp.hop_limit = src->hop_limit;
			if (tt & HM_IOAM_TT_HOPLIM_NODEID)
				exp.node_id = src->node_id;
			if (tt & HM_IOAM_TT_IF_IDS) {
				exp.ingress_if = src->ingress_if;
				exp.egress_if = src->egress_if;
			}
			if (tt & HM_IOAM_TT_TS_SEC)
				exp.ts_sec = src->ts_sec;
			if (tt & HM_IOAM_TT_TS_FRAC)
				exp.ts_frac = src->ts_frac;
			if (tt & HM_IOAM_TT_TRANSIT_DELAY)
				exp.transit_delay = src->transit_delay;
			if (tt & HM_IOAM_TT_NS_DATA)
				exp.ns_data = src->ns_data;
			if (tt & HM_IOAM_TT_QUEUE_DEPTH)
				exp.queue_depth = src->queue_depth;
			if (tt & HM_IOAM_TT_CSUM_COMPL)
				exp.csum_compl = src->csum_compl;
			if (tt & HM_IOAM_TT_HOPLIM_NODEID_WIDE)
				exp.node_id_wide = src->node_id_wide;
			if (tt & HM_IOAM_TT_IF_IDS_WIDE) {
				exp.ingress_if_wide = src->ingress_if_wide;
				exp.egress_if_wide = src->egress_if_wide;
			}
			if (tt & HM_IOAM_TT_NS_DATA_WIDE)
				exp.ns_data_wide = src->ns_data_wide;
			if (tt & HM_IOAM_TT_BUFFER_OCC)
				exp.buffer_occupancy = src->buffer_occupancy;
			snprintf(what, sizeof(what), "type 0x%06x node %d", tt, i);
			hm_test_check_node(what, &exp, &t.nodes[i]);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trace_type_each_bit_alone),
		cmocka_unit_test(trace_type_bit23_reserved_is_ignored),
		cmocka_unit_test(trace_type_bits_0_11_together),
		cmocka_unit_test(trace_type_all_bits_0_22),
		cmocka_unit_test(short_and_wide_formats),
		cmocka_unit_test(nodes_come_out_in_path_order),
		cmocka_unit_test(largest_area_holds_61_nodes),
		cmocka_unit_test(nodelen_mismatch_is_invalid),
		cmocka_unit_test(remaining_len_sweep),
		cmocka_unit_test(truncation_at_every_length),
		cmocka_unit_test(option_length_sweep),
		cmocka_unit_test(bad_option_type_is_invalid),
		cmocka_unit_test(other_ioam_option_types_are_not_supported),
		cmocka_unit_test(overflow_flag_is_reported),
		cmocka_unit_test(opaque_snapshot_is_walked_by_its_length),
		cmocka_unit_test(encode_decode_round_trip_all_4096),
	};

	return HM_RUN_TESTS(tests);
}
