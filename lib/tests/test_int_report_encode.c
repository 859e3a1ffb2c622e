// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_int_report_encode.c - Telemetry Report v2.0 datagrams built from INT
 * records (lib/int/report_encode.c): the spec's examples Report §4.1 and
 * §4.3 and the group header of the digest's §7 (hw_id 1, seq 5 ->
 * 20400005) octet for octet, the sequence per (Node ID, hw_id,
 * destination) and its wrap at 2^22, truncation and padding, the Report
 * Length 0xFF rule (255 words or more; last in the datagram; 1016 octets
 * when coalescing), coalescing by count, node and size, the flags of each
 * record kind and bit 15 (drop reason), and bad records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "hm_test.h"
#include "int/report_encode.h"

/* Compare octets, printing both in hex at the first difference. */
static void expect_bytes(const __u8 *exp, const __u8 *got, size_t len, const char *what)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (exp[i] != got[i]) {
			char e[3 * 16 + 1] = "", g[3 * 16 + 1] = "";
			size_t j, k = i & ~(size_t)15;

			for (j = k; j < len && j < k + 16; j++) {
				sprintf(e + 3 * (j - k), "%02x ", exp[j]);
				sprintf(g + 3 * (j - k), "%02x ", got[j]);
			}
			fail_msg("%s: octet %zu differs\n#   expected at %zu: %s\n#   observed at %zu: %s",
				 what, i, k, e, k, g);
		}
	}
}

static const struct int_rpt_enc_cfg cfg_one = {
	.trunc = 1280, .coalesce = 1, .hw_id = 1, .ds_id = 0, .max_len = 1472,
};

/* An IPv4 header (20) + TCP header (20): the "40 B IPv4+TCP" of §4.1. */
static size_t ipv4_tcp(__u8 *p, __u16 sport, __u16 dport)
{
	static const __u8 ip[20] = {
		0x45, 0x00, 0x00, 0x28, 0x12, 0x34, 0x40, 0x00, 0x40, 0x06, 0x00, 0x00,
		192, 0, 2, 1, 198, 51, 100, 2,
	};

	memcpy(p, ip, 20);
	memset(p + 20, 0, 20);
	p[20] = sport >> 8;
	p[21] = sport;
	p[22] = dport >> 8;
	p[23] = dport;
	p[32] = 0x50;			/* data offset 5 */
	p[33] = 0x10;			/* ACK */
	return 40;
}

static void rec_init(struct int_record *r, __u8 kind, __u16 bits, const __u8 *md,
		     __u16 md_len, const __u8 *pkt, __u16 pkt_len)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->family = 4;
	r->node_id = 3;
	r->rep_md_bits = bits;
	r->md_len = md_len;
	memcpy(r->md, md, md_len);
	r->pkt_len = pkt_len;
	r->orig_len = pkt_len;
	memcpy(r->pkt, pkt, pkt_len);
}

/* Report §4.1: L1 interface IDs + queue occupancy, truncated IPv4/TCP. */
static void int_report_spec_4_1_baseline_metadata_and_truncated_ipv4(void **state)
{
	static const __u8 md[8] = { 0x00, 0x05, 0x00, 0x07, 0x02, 0x00, 0x01, 0x00 };
	__u8 pkt[40], exp[8 + 4 + 8 + 8 + 40];
	struct int_rpt_dgram d;
	struct int_record r;

	ipv4_tcp(pkt, 1234, 80);
	rec_init(&r, INT_REC_SINK, 0x5000, md, 8, pkt, 40);
	r.flags = INT_RPT_F_F;
	int_rpt_dgram_start(&d, 1, 5, 3);
	assert_int_equal(int_rpt_dgram_add(&d, &r, &cfg_one), 1);

	/* group: Ver 2, hw_id 1, seq 5; Node ID 3 */
	memcpy(exp, "\x20\x40\x00\x05\x00\x00\x00\x03", 8);
	/* RepType 1, InType 4, Report Length 14, MD Length 2, F */
	memcpy(exp + 8, "\x14\x0e\x02\x20", 4);
	/* RepMdBits 0x5000, DS ID 0, DSMdBits 0, DSMdStatus 0 */
	memcpy(exp + 12, "\x50\x00\x00\x00\x00\x00\x00\x00", 8);
	memcpy(exp + 20, md, 8);
	memcpy(exp + 28, pkt, 40);
	if (d.len != sizeof(exp))
		fail_msg("datagram length: expected %zu, observed %zu", sizeof(exp), d.len);
	expect_bytes(exp, d.buf, sizeof(exp), "Report §4.1");
	assert_int_equal(d.n, 1);
	assert_false(d.to_end);
}

/*
 * Report §4.3: the sink (Switch3) reports its queue occupancy (RepMdBits
 * 0x1000, MD Length 1) and the packet as received: IPv4 (proto 17) / UDP
 * to INT_TBD / shim 18070006 / MD 20000206 90000000 00000000 / 2 hops x
 * (node ID, queue) / TCP: 80 octets, Report Length 2 + 1 + 20 = 23.
 */
static void int_report_spec_4_3_embedded_int_md_in_tcp(void **state)
{
	static const __u8 md[4] = { 0x00, 0x00, 0x0a, 0x00 };
	static const __u8 hdr[4] = { 0x14, 0x17, 0x01, 0x20 };
	__u8 pkt[80], *p = pkt, out[256];
	struct int_record r;
	bool to_end;
	int n;

	__u8 tcp[40];

	ipv4_tcp(tcp, 1234, 80);
	memcpy(p, tcp, 20);			/* IPv4 header ... */
	p[3] = 80;				/* ... total length 80 */
	p[9] = 17;				/* IP proto 17: the new UDP header */
	memcpy(p + 20, "\xd4\x31\x12\x34\x00\x3c\x00\x00", 8);	/* UDP to INT_TBD 0x1234 */
	memcpy(p + 28, "\x18\x07\x00\x06", 4);			/* shim: MD, NPT 2, len 7, TCP */
	memcpy(p + 32, "\x20\x00\x02\x06\x90\x00\x00\x00\x00\x00\x00\x00", 12);
	memcpy(p + 44, "\x00\x00\x00\x02\x00\x00\x00\x30"		/* hop2: node 2, queue */
		       "\x00\x00\x00\x01\x00\x00\x00\x20", 16);		/* hop1: node 1, queue */
	memcpy(p + 60, tcp + 20, 20);		/* the original TCP header */

	rec_init(&r, INT_REC_SINK, 0x1000, md, 4, pkt, 80);
	n = int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end);
	if (n != 4 + 23 * 4)
		fail_msg("report length: expected %d octets, observed %d", 4 + 23 * 4, n);
	expect_bytes(hdr, out, 4, "Report §4.3 header 14170120");
	expect_bytes((const __u8 *)"\x10\x00\x00\x00\x00\x00\x00\x00", out + 4, 8,
		     "Report §4.3 main contents");
	expect_bytes(md, out + 12, 4, "Report §4.3 queue occupancy of Switch3");
	expect_bytes(pkt, out + 16, 80, "Report §4.3 inner packet");
	assert_false(to_end);
}

/* Digest §7: hw_id 1, seq 5 -> 20400005; hw_id and seq beyond their bits. */
static void int_report_group_header_example_and_field_widths(void **state)
{
	__u8 b[8];

	int_rpt_group_encode(b, 1, 5, 0x01020304);
	expect_bytes((const __u8 *)"\x20\x40\x00\x05\x01\x02\x03\x04", b, 8, "group 20400005");
	int_rpt_group_encode(b, 0x7f, (1U << 22) | 7, 0xffffffff);
	/* hw_id 0x3f, seq 7: Ver stays 2 */
	expect_bytes((const __u8 *)"\x2f\xc0\x00\x07\xff\xff\xff\xff", b, 8, "group masked");
}

static void int_report_sequence_per_destination_wraps_at_2_pow_22(void **state)
{
	static const __u8 a1[16] = { 10, 0, 0, 1 }, a2[16] = { 10, 0, 0, 2 };
	struct int_rpt_seqs *s = calloc(1, sizeof(*s));
	struct int_rpt_dgram d;
	__u32 i, v;

	assert_non_null(s);
	assert_int_equal(int_rpt_seq_next(s, 3, 1, 4, a1, 9555), 0);
	assert_int_equal(int_rpt_seq_next(s, 3, 1, 4, a1, 9555), 1);
	/* another destination, node or hw_id: its own sequence */
	assert_int_equal(int_rpt_seq_next(s, 3, 1, 4, a2, 9555), 0);
	assert_int_equal(int_rpt_seq_next(s, 3, 1, 4, a1, 9556), 0);
	assert_int_equal(int_rpt_seq_next(s, 4, 1, 4, a1, 9555), 0);
	assert_int_equal(int_rpt_seq_next(s, 3, 2, 4, a1, 9555), 0);
	assert_int_equal(int_rpt_seq_next(s, 3, 1, 4, a1, 9555), 2);
	for (i = 3; i < (1U << 22); i++) {
		v = int_rpt_seq_next(s, 3, 1, 4, a1, 9555);
		if (v != i)
			fail_msg("sequence: expected %u, observed %u", i, v);
	}
	v = int_rpt_seq_next(s, 3, 1, 4, a1, 9555);
	if (v != 0)
		fail_msg("after 2^22 - 1: expected 0, observed %u", v);
	assert_int_equal(int_rpt_seq_next(s, 3, 1, 4, a1, 9555), 1);
	/* the other destination did not move */
	assert_int_equal(int_rpt_seq_next(s, 3, 1, 4, a2, 9555), 1);

	/* the group header of seq 2^22 - 1, then of 0 */
	int_rpt_dgram_start(&d, 1, (1U << 22) - 1, 3);
	expect_bytes((const __u8 *)"\x20\x7f\xff\xff", d.buf, 4, "seq 2^22 - 1");
	int_rpt_dgram_start(&d, 1, 1U << 22, 3);
	expect_bytes((const __u8 *)"\x20\x40\x00\x00", d.buf, 4, "seq 2^22 -> 0");
	free(s);
}

/* The packet truncated to the configured length, padded to a word with zeros. */
static void int_report_truncation_pads_to_a_word(void **state)
{
	static const __u8 md[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct int_rpt_enc_cfg cfg = cfg_one;
	__u8 pkt[100], out[256];
	struct int_record r;
	bool to_end;
	int n, i;

	for (i = 0; i < 100; i++)
		pkt[i] = 0x80 | i;
	pkt[0] = 0x45;
	rec_init(&r, INT_REC_SINK, 0x5000, md, 8, pkt, 100);
	cfg.trunc = 41;
	memset(out, 0xaa, sizeof(out));
	n = int_rpt_report_encode(out, sizeof(out), &r, &cfg, &to_end);
	/* 4 + 8 + 8 + 44 */
	if (n != 64)
		fail_msg("octets: expected 64, observed %d", n);
	assert_int_equal(out[1], (8 + 8 + 44) / 4);
	expect_bytes(pkt, out + 20, 41, "41 octets of the packet");
	expect_bytes((const __u8 *)"\0\0\0", out + 61, 3, "zero padding");
	assert_int_equal(out[64], 0xaa);

	/* a record shorter than the truncation length keeps its own length */
	cfg.trunc = 200;
	r.pkt_len = 40;
	n = int_rpt_report_encode(out, sizeof(out), &r, &cfg, &to_end);
	assert_int_equal(n, 4 + 8 + 8 + 40);
	assert_int_equal(out[1], 14);

	/* truncation 0: InType None, no inner contents */
	cfg.trunc = 0;
	n = int_rpt_report_encode(out, sizeof(out), &r, &cfg, &to_end);
	assert_int_equal(n, 4 + 8 + 8);
	assert_int_equal(out[0], INT_REP_INT << 4 | INT_IN_NONE);
	assert_int_equal(out[1], 4);

	/* IPv6: InType 5 */
	r.family = 6;
	cfg.trunc = 40;
	n = int_rpt_report_encode(out, sizeof(out), &r, &cfg, &to_end);
	assert_int_equal(n, 60);
	assert_int_equal(out[0], 0x15);
}

/*
 * Report Length counts words after the first: 254 is written as is, 255
 * and more as 0xff, and then nothing may follow in the datagram; the 0xff
 * report carries the packet's octets exactly, to the end of the payload.
 */
static void int_report_length_ff_rule(void **state)
{
	static const __u8 md[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct int_rpt_enc_cfg cfg = cfg_one;
	struct int_rpt_dgram *d = calloc(1, sizeof(*d));
	__u8 pkt[INT_REC_PKT_MAX];
	struct int_record *r = calloc(1, sizeof(*r));
	bool to_end;
	int n, i;

	assert_non_null(d);
	assert_non_null(r);
	for (i = 0; i < INT_REC_PKT_MAX; i++)
		pkt[i] = i * 7;
	pkt[0] = 0x45;
	/* 8 + 8 + 1000 = 1016 octets = 254 words */
	rec_init(r, INT_REC_SINK, 0x5000, md, 8, pkt, INT_REC_PKT_MAX);
	r->pkt_len = 1000;
	cfg.coalesce = 4;
	int_rpt_dgram_start(d, 1, 0, 3);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 1);
	if (d->buf[8 + 1] != 254)
		fail_msg("1016 octets: expected Report Length 254, observed %u", d->buf[9]);
	assert_false(d->to_end);

	/* 1001 octets padded to 1004: 255 words -> 0xff, exact octets */
	r->pkt_len = 1001;
	int_rpt_dgram_start(d, 1, 1, 3);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 1);
	if (d->buf[9] != 0xff)
		fail_msg("255 words: expected Report Length 0xff, observed %u", d->buf[9]);
	assert_true(d->to_end);
	if (d->len != 8 + 4 + 8 + 8 + 1001)
		fail_msg("0xff report: expected %d octets to the end, observed %zu",
			 8 + 4 + 8 + 8 + 1001, d->len);
	expect_bytes(pkt, d->buf + 28, 1001, "0xff inner packet");
	/* closed: the next record needs a new datagram */
	r->pkt_len = 40;
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 0);

	/* a 0xff report may follow others, and then closes the datagram */
	int_rpt_dgram_start(d, 1, 2, 3);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 1);
	r->pkt_len = 1280;
	/* coalescing: truncated at 1016 (PR #89), 8 + 8 + 1016 = 258 words */
	assert_int_equal(int_rpt_enc_trunc(&cfg), 1016);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 1);
	assert_int_equal(d->n, 2);
	assert_true(d->to_end);
	assert_int_equal(d->buf[8 + 4 + 8 + 8 + 40 + 1], 0xff);
	assert_int_equal(d->len, 8 + 60 + 4 + 8 + 8 + 1016);
	r->pkt_len = 40;
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 0);

	/* not coalescing: the whole 1280 octets, 0xff */
	cfg.coalesce = 1;
	assert_int_equal(int_rpt_enc_trunc(&cfg), 1280);
	r->pkt_len = 1280;
	n = int_rpt_report_encode(d->buf, sizeof(d->buf), r, &cfg, &to_end);
	assert_int_equal(n, 4 + 8 + 8 + 1280);
	assert_true(to_end);
	assert_int_equal(d->buf[1], 0xff);
	free(r);
	free(d);
}

/* Coalescing: up to N reports, same node and hw_id, never past the size limit. */
static void int_report_coalescing_count_node_and_size(void **state)
{
	static const __u8 md[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct int_rpt_enc_cfg cfg = cfg_one;
	struct int_rpt_dgram *d = calloc(1, sizeof(*d));
	__u8 pkt[INT_REC_PKT_MAX];
	struct int_record *r = calloc(1, sizeof(*r));
	size_t off;

	assert_non_null(d);
	assert_non_null(r);
	memset(pkt, 0x11, sizeof(pkt));
	ipv4_tcp(pkt, 1, 2);
	rec_init(r, INT_REC_SINK, 0x5000, md, 8, pkt, 40);
	cfg.coalesce = 3;
	int_rpt_dgram_start(d, 1, 0, 3);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 1);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 1);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 1);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 0);
	assert_int_equal(d->n, 3);
	assert_int_equal(d->len, 8 + 3 * 60);
	/* each report where the previous one's Report Length says */
	for (off = 8; off < d->len; off += 4 + d->buf[off + 1] * 4)
		assert_int_equal(d->buf[off], 0x14);
	assert_int_equal(off, d->len);

	/* another node: not in this datagram */
	int_rpt_dgram_start(d, 1, 1, 3);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 1);
	r->node_id = 4;
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 0);
	r->node_id = 3;
	/* another hw_id */
	cfg.hw_id = 2;
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 0);
	cfg.hw_id = 1;

	/* size: 8 + 1020 + 1020 > 1472, the second waits for the next datagram */
	cfg.coalesce = 255;
	r->pkt_len = 1000;
	int_rpt_dgram_start(d, 1, 2, 3);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 1);
	assert_int_equal(d->len, 8 + 4 + 8 + 8 + 1000);
	assert_int_equal(int_rpt_dgram_add(d, r, &cfg), 0);
	/* IPv6's 1452: 8 + 23 x 60 = 1388, the 24th (1448) fits, the 25th does not */
	cfg.max_len = int_rpt_dgram_max(6);
	assert_int_equal(cfg.max_len, 1452);
	assert_int_equal(int_rpt_dgram_max(4), 1472);
	r->pkt_len = 40;
	int_rpt_dgram_start(d, 1, 3, 3);
	while (int_rpt_dgram_add(d, r, &cfg) == 1)
		;
	assert_int_equal(d->n, 24);
	assert_true(d->len <= 1452);
	free(r);
	free(d);
}

/* D/Q/F/I of each kind; bit 15 only for drops, made from the record's fields. */
static void int_report_flags_and_drop_reason_by_kind(void **state)
{
	static const __u8 md[8] = { 0, 5, 0, 7, 2, 0, 1, 0 };
	static const __u8 md15[12] = { 0, 5, 0, 7, 2, 0, 1, 0, 2, 9, 0, 0 };
	__u8 pkt[40], out[256];
	struct int_record r;
	bool to_end;
	int n;

	ipv4_tcp(pkt, 1, 2);
	rec_init(&r, INT_REC_XD, 0x5000, md, 8, pkt, 40);
	r.flags = 0x0f;		/* reserved bits: dropped */
	n = int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end);
	assert_int_equal(n, 60);
	assert_int_equal(out[3], INT_RPT_F_F);

	r.kind = INT_REC_MX;
	r.flags = INT_RPT_F_I;
	int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end);
	assert_int_equal(out[3], INT_RPT_F_F | INT_RPT_F_I);

	r.kind = INT_REC_QUEUE;
	r.flags = 0;
	int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end);
	assert_int_equal(out[3], INT_RPT_F_Q);

	/* a drop without bit 15: added from queue_id and drop_reason */
	r.kind = INT_REC_DROP;
	r.flags = INT_RPT_F_F;
	r.queue_id = 2;
	r.drop_reason = 9;
	n = int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end);
	assert_int_equal(n, 64);
	assert_int_equal(out[3], INT_RPT_F_D | INT_RPT_F_F);
	assert_int_equal(out[2], 3);
	expect_bytes((const __u8 *)"\x50\x01", out + 4, 2, "RepMdBits with bit 15");
	expect_bytes(md15, out + 12, 12, "metadata + queue ID, drop reason, padding");

	/* a drop with bit 15 and its word: as recorded */
	rec_init(&r, INT_REC_DROP, 0x5001, md15, 12, pkt, 40);
	r.queue_id = 77;	/* not used: the word is in md */
	n = int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end);
	assert_int_equal(n, 64);
	expect_bytes(md15, out + 12, 12, "recorded bit 15 word");

	/* bit 15 set without its word: made from the fields */
	rec_init(&r, INT_REC_DROP, 0x5001, md, 8, pkt, 40);
	r.queue_id = 2;
	r.drop_reason = 9;
	n = int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end);
	assert_int_equal(n, 64);
	expect_bytes(md15, out + 12, 12, "bit 15 word from fields");

	/* a sink record with bit 15: cleared, its word left out (sink option 2) */
	rec_init(&r, INT_REC_SINK, 0x5001, md15, 12, pkt, 40);
	n = int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end);
	assert_int_equal(n, 60);
	assert_int_equal(out[2], 2);
	expect_bytes((const __u8 *)"\x50\x00", out + 4, 2, "RepMdBits without bit 15");
	expect_bytes(pkt, out + 20, 40, "packet after two words");
}

static void int_report_bad_records_are_refused(void **state)
{
	static const __u8 md[16] = { 0 };
	__u8 pkt[40], out[128];
	struct int_rpt_dgram d;
	struct int_record r;
	bool to_end;

	ipv4_tcp(pkt, 1, 2);
	rec_init(&r, INT_REC_SINK, 0x9000, md, 8, pkt, 40);
	assert_int_equal(int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end), -EINVAL);
	rec_init(&r, INT_REC_SINK, 0x5000, md, 4, pkt, 40);
	assert_int_equal(int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end), -EINVAL);
	/* 8-octet fields: bits 4 and 5 are 16 octets */
	rec_init(&r, INT_REC_SINK, 0x0c00, md, 16, pkt, 40);
	assert_int_equal(int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end), 60 + 8);
	rec_init(&r, INT_REC_SINK, 0x0c00, md, 8, pkt, 40);
	assert_int_equal(int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end), -EINVAL);
	rec_init(&r, 9, 0x5000, md, 8, pkt, 40);
	assert_int_equal(int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end), -EINVAL);
	rec_init(&r, INT_REC_SINK, 0x5000, md, 8, pkt, 40);
	r.family = 5;
	assert_int_equal(int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end), -EINVAL);
	r.family = 4;
	r.pkt_len = INT_REC_PKT_MAX + 1;
	assert_int_equal(int_rpt_report_encode(out, sizeof(out), &r, &cfg_one, &to_end), -EINVAL);
	r.pkt_len = 40;
	/* no room: nothing written */
	memset(out, 0xaa, sizeof(out));
	assert_int_equal(int_rpt_report_encode(out, 59, &r, &cfg_one, &to_end), -ENOSPC);
	assert_int_equal(out[0], 0xaa);
	/* a bad record leaves the datagram as it was */
	int_rpt_dgram_start(&d, 1, 0, 3);
	r.md_len = 4;
	assert_int_equal(int_rpt_dgram_add(&d, &r, &cfg_one), -EINVAL);
	assert_int_equal(d.len, 8);
	assert_int_equal(d.n, 0);
}

/* The source-port hash: a function of the 5-tuple only. */
static void int_report_inner_hash_follows_the_5_tuple(void **state)
{
	static const __u8 md[8] = { 0 };
	__u8 pkt[40];
	struct int_record a, b;
	__u16 ha;

	ipv4_tcp(pkt, 1000, 80);
	rec_init(&a, INT_REC_SINK, 0x5000, md, 8, pkt, 40);
	b = a;
	b.pkt[4] ^= 0xff;	/* IP ID */
	b.pkt[30] ^= 0xff;	/* TCP seq */
	ha = int_rpt_inner_hash(&a);
	assert_int_not_equal(ha, 0);
	assert_int_equal(ha, int_rpt_inner_hash(&b));
	b = a;
	b.pkt[21] ^= 1;		/* source port */
	assert_int_not_equal(ha, int_rpt_inner_hash(&b));
	b = a;
	b.pkt[19] ^= 1;		/* destination address */
	assert_int_not_equal(ha, int_rpt_inner_hash(&b));
	b = a;
	b.pkt_len = 10;		/* too short for the IP header: still a value */
	assert_int_not_equal(int_rpt_inner_hash(&b), 0);
}

static __u64 rnd(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Random records (any kind, flags, RepMdBits, lengths, truncation,
 * coalescing): refused with -EINVAL, or a datagram whose reports a reader
 * walks by their Report Length to exactly its end, never past max_len.
 */
static void int_report_random_records_give_walkable_datagrams(void **state)
{
	struct int_rpt_dgram *d = calloc(1, sizeof(*d));
	struct int_record *r = calloc(1, sizeof(*r));
	unsigned int i, j, added = 0, refused = 0;
	__u64 s = 42;

	assert_non_null(d);
	assert_non_null(r);
	for (i = 0; i < 20000; i++) {
		struct int_rpt_enc_cfg cfg = {
			.trunc = rnd(&s) % 1400, .coalesce = 1 + rnd(&s) % 8,
			.hw_id = 1, .max_len = rnd(&s) & 1 ? 1472 : 1452,
		};
		size_t off;

		int_rpt_dgram_start(d, 1, i, 3);
		for (j = 0; j < 10; j++) {
			int ret;

			r->kind = rnd(&s) % 6;
			r->flags = rnd(&s);
			r->family = rnd(&s) % 8 ? (rnd(&s) & 1 ? 4 : 6) : 5;
			r->rep_md_bits = rnd(&s) % 4 ? (rnd(&s) & 0x7f81) : rnd(&s);
			r->md_len = rnd(&s) % 3 ? int_bitmap_words(r->rep_md_bits) * 4 :
				    rnd(&s) % 80;
			r->pkt_len = rnd(&s) % (INT_REC_PKT_MAX + 20);
			r->node_id = 3;
			r->pkt[0] = 0x45;
			ret = int_rpt_dgram_add(d, r, &cfg);
			if (ret < 0) {
				assert_int_equal(ret, -EINVAL);
				refused++;
			} else if (!ret) {
				break;
			} else {
				added++;
			}
		}
		assert_true(d->len <= cfg.max_len);
		assert_true(d->n <= cfg.coalesce);
		for (off = 8, j = 0; off < d->len; j++) {
			if (d->buf[off + 1] == 0xff) {
				off = d->len;
				j++;
				break;
			}
			off += 4 + d->buf[off + 1] * 4;
		}
		if (off != d->len || j != d->n)
			fail_msg("datagram %u: reports walk to %zu of %zu, %u of %u reports", i, off,
				 d->len, j, d->n);
	}
	printf("# %u reports added, %u records refused\n", added, refused);
	assert_true(added > 1000 && refused > 1000);
	free(r);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(int_report_spec_4_1_baseline_metadata_and_truncated_ipv4),
		cmocka_unit_test(int_report_spec_4_3_embedded_int_md_in_tcp),
		cmocka_unit_test(int_report_group_header_example_and_field_widths),
		cmocka_unit_test(int_report_sequence_per_destination_wraps_at_2_pow_22),
		cmocka_unit_test(int_report_truncation_pads_to_a_word),
		cmocka_unit_test(int_report_length_ff_rule),
		cmocka_unit_test(int_report_coalescing_count_node_and_size),
		cmocka_unit_test(int_report_flags_and_drop_reason_by_kind),
		cmocka_unit_test(int_report_bad_records_are_refused),
		cmocka_unit_test(int_report_inner_hash_follows_the_5_tuple),
		cmocka_unit_test(int_report_random_records_give_walkable_datagrams),
	};

	return HM_RUN_TESTS(tests);
}
