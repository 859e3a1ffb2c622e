// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_int_report_decode.c - the Telemetry Report v2.0 decoder (lib/int/
 * report_decode.c) and its JSON (int_json.c) on the spec's examples
 * (telemetry_report.mdk §4.1-§4.4, the group header 20400005), the 0xff
 * Report Length rule, coalesced reports, and every truncation. Where an
 * example disagrees with the rest of the spec the test checks what the
 * example says and what the consistent reading gives.
 */
#include <stdlib.h>

#include "hm_test.h"
#include "common/byteorder.h"
#include "int/int_print.h"
#include "int/report_decode.h"

#define PORT_INT	5000	/* INT_TBD of the examples */

static const struct int_signal sig_port = { .udp_port = PORT_INT };

/* IPv4 192.168.1.1 -> 192.168.2.2, DF, TTL 64, Total Length @len. */
static size_t ipv4_hdr(__u8 *b, __u8 proto, size_t len)
{
	memset(b, 0, 20);
	b[0] = 0x45;
	hm_put_be16(b + 2, len);
	hm_put_be16(b + 6, 0x4000);
	b[8] = 64;
	b[9] = proto;
	b[12] = 192, b[13] = 168, b[14] = 1, b[15] = 1;
	b[16] = 192, b[17] = 168, b[18] = 2, b[19] = 2;
	return 20;
}

/* A TCP header 1234 -> 80, no options. */
static size_t tcp_hdr(__u8 *b)
{
	memset(b, 0, 20);
	hm_put_be16(b, 1234);
	hm_put_be16(b + 2, 80);
	b[12] = 0x50;
	b[13] = 0x10;
	return 20;
}

static void expect_err(const char *what, int got, int want)
{
	if (got != want)
		fail_msg("%s: expected %d (%s), observed %d (%s)", what, want,
			 int_rpt_strerror(want), got, int_rpt_strerror(got));
}

/* Report §3.2's example: hw_id 1, sequence 5 -> 20400005. */
static void report_group_header_20400005(void **state)
{
	struct int_rpt_group_hdr g;
	__u8 b[8];

	assert_int_equal(int_rpt_group_w0(1, 5), 0x20400005);
	hm_test_unhex("20400005 00000003", b);
	assert_int_equal(int_rpt_group_decode(b, 8, &g), 0);
	assert_int_equal(g.ver, 2);
	assert_int_equal(g.hw_id, 1);
	assert_int_equal(g.seq, 5);
	assert_int_equal(g.node_id, 3);
	expect_err("7 octets", int_rpt_group_decode(b, 7, &g), -INT_E_RPT_GROUP);
	b[0] = 0x10;
	expect_err("Ver 1", int_rpt_group_decode(b, 8, &g), -INT_E_RPT_VER);
}

/*
 * Report §4.1: 140E0220 (RepType 1, InType 4 IPv4, Report Length 14, MD
 * Length 2, F), RepMdBits 5000 (L1 ports, queue), DS ID 0, DSMdBits 0,
 * DSMdStatus 0, 2 metadata words, 40 octets of IPv4 + TCP:
 * 14 = 2 + 2 + 5 + 5.
 */
static size_t vec_4_1(__u8 *b)
{
	size_t n = hm_test_unhex("20400005 00000003  140E0220 5000 0000 0000 0000", b);

	n += hm_test_unhex("00050006 07000123", b + n);
	n += ipv4_hdr(b + n, 6, 40);
	n += tcp_hdr(b + n);
	return n;
}

static void report_4_1_int_ipv4_tcp(void **state)
{
	__u8 b[256];
	size_t n = vec_4_1(b), off = INT_RPT_GROUP_LEN;
	struct int_rpt r;

	assert_int_equal(n, 8 + 4 + 14 * 4);
	assert_int_equal(int_rpt_next(b, n, &off, &r), 1);
	assert_int_equal(r.rep_type, INT_REP_INT);
	assert_int_equal(r.in_type, INT_IN_IPV4);
	assert_int_equal(r.len, 14);
	assert_int_equal(r.md_len, 2);
	assert_int_equal(r.flags, INT_RPT_F_F);
	assert_int_equal(r.rep_md_bits, 0x5000);
	assert_int_equal(r.md.l1_ingress, 5);
	assert_int_equal(r.md.l1_egress, 6);
	assert_int_equal(r.md.queue_id, 7);
	assert_int_equal(r.md.queue_occupancy, 0x123);
	assert_int_equal(r.inner_len, 40);
	assert_int_equal(r.inner[0], 0x45);
	assert_int_equal(off, n);
	assert_int_equal(int_rpt_next(b, n, &off, &r), 0);
}

/*
 * Report §4.2: InType 1 (TLV): 11 LL 02 20, RepMdBits 5000, DSMdBits
 * 8000, then a TLV of type 0 (DS extension) and one of type 2 (IPv4). The
 * example leaves LL, DS ID and the TLV sizes open: here DS ID 1, a
 * 1-word DS extension TLV and a 10-word IPv4 + TCP TLV, so
 * LL = 2 + 2 + (1 + 1) + (1 + 10) = 17.
 */
static void report_4_2_tlv_inner(void **state)
{
	__u8 b[256];
	size_t n, off = INT_RPT_GROUP_LEN, ip_off = 0;
	struct int_rpt r;

	n = hm_test_unhex("20400005 00000003  11110220 5000 0001 8000 0000", b);
	n += hm_test_unhex("00050006 07000123", b + n);
	n += hm_test_unhex("00010000 cafef00d", b + n);		/* TLV 0, 1 word */
	n += hm_test_unhex("200a0000", b + n);			/* TLV 2, 10 words */
	n += ipv4_hdr(b + n, 6, 40);
	n += tcp_hdr(b + n);
	assert_int_equal(int_rpt_next(b, n, &off, &r), 1);
	assert_int_equal(r.in_type, INT_IN_TLV);
	assert_int_equal(r.len, 17);
	assert_int_equal(r.ds_id, 1);
	assert_int_equal(r.ds_md_bits, 0x8000);
	assert_int_equal(r.inner_len, 4 * (2 + 11));
	assert_int_equal(int_rpt_inner_ip(&r, &ip_off), 40);
	assert_int_equal(ip_off, 8 + 4);
	assert_int_equal(r.inner[ip_off], 0x45);
}

/*
 * Report §4.3: 14170120 (Report Length 23, MD Length 1, F), RepMdBits
 * 1000 (queue occupancy of Switch3), then IPv4 / UDP(INT_TBD) / shim
 * 18070006 / MD 20000206 90000000 00000000 / 4 words / TCP:
 * 23 = 2 + 1 + 5 + 2 + 1 + 3 + 4 + 5.
 */
static size_t vec_4_3(__u8 *b)
{
	size_t n = hm_test_unhex("20400005 00000003  14170120 1000 0000 0000 0000", b);

	n += hm_test_unhex("03000456", b + n);
	n += ipv4_hdr(b + n, 17, 20 + 8 + 4 + 12 + 16 + 20);
	n += hm_test_unhex("04d21388 003c0000", b + n);	/* 1234 -> 5000, length 56 */
	n += hm_test_unhex("18070006 20000206 90000000 00000000", b + n);
	n += hm_test_unhex("00000002 02000200 00000001 01000100", b + n);
	n += tcp_hdr(b + n);
	return n;
}

static void report_4_3_inner_int_md_npt2(void **state)
{
	__u8 b[256];
	size_t n = vec_4_3(b), off = INT_RPT_GROUP_LEN, ip_off;
	struct int_pkt ip;
	struct int_rpt r;
	struct int_hop h;

	assert_int_equal(n, 8 + 4 + 23 * 4);
	assert_int_equal(int_rpt_next(b, n, &off, &r), 1);
	assert_int_equal(r.len, 23);
	assert_int_equal(r.md_len, 1);
	assert_int_equal(r.rep_md_bits, 0x1000);
	assert_int_equal(r.md.queue_id, 3);
	assert_int_equal(r.md.queue_occupancy, 0x456);
	/* Inner contents = Report Length - (2 + MD Length) words (§3.3.1). */
	assert_int_equal(r.inner_len, (23 - 2 - 1) * 4);
	assert_int_equal(int_rpt_inner_ip(&r, &ip_off), r.inner_len);
	assert_int_equal(int_decode_ip(r.inner + ip_off, r.inner_len, &sig_port, &ip), 0);
	assert_int_equal(ip.npt, INT_NPT_L4);
	assert_int_equal(ip.npt_field, 6);
	assert_int_equal(ip.n_hops, 2);
	assert_int_equal(ip.rhc, 6);
	assert_int_equal(int_decode_hop(&ip, 1, &h), 0);
	assert_int_equal(h.node_id, 1);
	assert_int_equal(ip.inner_dport, 80);
}

/*
 * Report §4.4: 04210020 (RepType 0 Inner Only, InType 4, Report Length
 * 33, MD Length 0, F): outer IPv4 192.168.1.1 -> 192.168.2.2, UDP source
 * 56789 (0xDDD5) to INT_TBD, checksum 0; shim 1407 12B5 (NPT=1, original
 * port 4789); MD 20000205 C0000000 00000000; 6 stack words; VXLAN (2);
 * inner Ethernet; inner IPv4 (5); TCP (5). The example counts the
 * 14-octet Ethernet header as 4 words: 5+2+1+3+6+2+4+5+5 = 33, so the
 * truncated packet is 132 octets of which 2 are padding. Its shim Length
 * 7 disagrees with the 6-word stack (3 + 6 = 9): decoded as the example
 * says, 2 hops; with 9, the 3 hops RHC 5 implies (8 - 5).
 */
static size_t vec_4_4(__u8 *b, __u8 shim_len)
{
	size_t n = hm_test_unhex("20400005 00000003  04210020", b), ip;

	ip = n;
	n += ipv4_hdr(b + n, 17, 130);
	n += hm_test_unhex("DDD51388 006e0000", b + n);
	n += hm_test_unhex("140012B5 20000205 C0000000 00000000", b + n);
	b[ip + 20 + 8 + 1] = shim_len;
	n += hm_test_unhex("00000003 00030004 00000002 00020003 00000001 00010002", b + n);
	n += hm_test_unhex("08000000 00007b00", b + n);		/* VXLAN, VNI 123 */
	n += hm_test_unhex("020000000002 020000000001 0800", b + n);
	n += ipv4_hdr(b + n, 17, 40);	/* the example's Proto=17 over TCP */
	n += tcp_hdr(b + n);
	n += hm_test_unhex("0000", b + n);	/* the 4th word of the Ethernet header */
	return n;
}

static void report_4_4_inner_only_shim_length(void **state)
{
	__u8 b[256];
	size_t n, off, ip_off;
	struct int_pkt ip;
	struct int_rpt r;

	n = vec_4_4(b, 7);
	assert_int_equal(n, 8 + 4 + 33 * 4);
	off = INT_RPT_GROUP_LEN;
	assert_int_equal(int_rpt_next(b, n, &off, &r), 1);
	assert_int_equal(r.rep_type, INT_REP_INNER_ONLY);
	assert_int_equal(r.in_type, INT_IN_IPV4);
	assert_int_equal(r.len, 33);
	assert_int_equal(r.md_len, 0);
	assert_int_equal(r.inner_len, 132);
	assert_int_equal(int_rpt_inner_ip(&r, &ip_off), 132);
	assert_int_equal(int_decode_ip(r.inner, r.inner_len, &sig_port, &ip), 0);
	assert_int_equal(ip.sport, 56789);
	assert_int_equal(ip.npt, INT_NPT_UDP);
	assert_int_equal(ip.npt_field, 4789);
	assert_int_equal(ip.hop_ml, 2);
	assert_int_equal(ip.rhc, 5);
	/* As the example says: Length 7, 2 hops, RHC 5 + 2 != 8. */
	assert_int_equal(ip.shim_len, 7);
	assert_int_equal(ip.n_hops, 2);

	n = vec_4_4(b, 9);
	off = INT_RPT_GROUP_LEN;
	assert_int_equal(int_rpt_next(b, n, &off, &r), 1);
	assert_int_equal(int_decode_ip(r.inner, r.inner_len, &sig_port, &ip), 0);
	assert_int_equal(ip.n_hops, 3);
	assert_int_equal(ip.rhc + ip.n_hops, 8);
}

/* Three reports coalesced in one payload (§2.7), each found in turn. */
static void report_coalesced(void **state)
{
	__u8 b[512], one[256];
	size_t n, k, off;
	struct int_rpt r;
	int i;

	k = vec_4_1(one);
	n = hm_test_unhex("20400009 00000003", b);
	for (i = 0; i < 3; i++) {
		memcpy(b + n, one + 8, k - 8);
		b[n + 4 + 8 + 3] = 0x10 + i;	/* l1_egress of each */
		n += k - 8;
	}
	off = INT_RPT_GROUP_LEN;
	for (i = 0; i < 3; i++) {
		assert_int_equal(int_rpt_next(b, n, &off, &r), 1);
		assert_int_equal(r.off, 8 + i * (k - 8));
		assert_int_equal(r.md.l1_egress, 0x10 + i);
		assert_int_equal(r.inner_len, 40);
	}
	assert_int_equal(int_rpt_next(b, n, &off, &r), 0);
}

/*
 * Report Length 0xff (PR #89): the report runs to the end of the payload
 * and no report follows it, even when what follows would parse as one.
 */
static void report_length_0xff_runs_to_the_end(void **state)
{
	__u8 b[2048], one[256];
	size_t n, k, off = INT_RPT_GROUP_LEN;
	struct int_rpt r;

	k = vec_4_1(one);
	memcpy(b, one, k);
	b[8 + 1] = 0xff;
	n = k;
	/* Another whole report after it, and 1100 octets: part of the first. */
	memcpy(b + n, one + 8, k - 8);
	n += k - 8;
	memset(b + n, 0xab, 1100);
	n += 1100;
	assert_int_equal(int_rpt_next(b, n, &off, &r), 1);
	assert_true(r.to_end);
	assert_int_equal(r.len, 0xff);
	assert_int_equal(r.inner_len, n - 8 - 4 - 8 - 8);
	assert_int_equal(off, n);
	assert_int_equal(int_rpt_next(b, n, &off, &r), 0);
	/* An inner packet of any octet count (not a word multiple) is kept. */
	off = INT_RPT_GROUP_LEN;
	assert_int_equal(int_rpt_next(b, n - 3, &off, &r), 1);
	assert_int_equal(r.inner_len, n - 3 - 28);
}

/* RepMdBits bit 15: queue ID + drop reason + padding, after bits 1-14. */
static void report_drop_reason_bit_15(void **state)
{
	__u8 b[256];
	size_t n, off = INT_RPT_GROUP_LEN;
	struct int_rpt r;
	char out[1024];
	struct hm_jw w;

	n = hm_test_unhex("20400005 00000003  14060380 5001 0000 0000 0000", b);
	n += hm_test_unhex("00050006 07000123 09210000", b + n);
	/* One inner word: too short for IPv4, not decoded. */
	n += hm_test_unhex("45000000", b + n);
	assert_int_equal(int_rpt_next(b, n, &off, &r), 1);
	assert_int_equal(r.flags, INT_RPT_F_D);
	assert_int_equal(r.md.queue_id, 7);
	assert_int_equal(r.md.drop_queue_id, 9);
	assert_int_equal(r.md.drop_reason, 0x21);
	assert_int_equal(r.inner_len, 4);

	hm_jw_init(&w, out, sizeof(out));
	assert_int_equal(int_json_report(&w, b, n, &sig_port), 0);
	out[hm_jw_len(&w)] = 0;
	assert_string_equal(out,
		"{\"ver\":2,\"hw_id\":1,\"seq\":5,\"node_id\":3,\"reports\":[{\"rep_type\":1,"
		"\"in_type\":4,\"len\":6,\"md_len\":3,\"d\":1,\"q\":0,\"f\":0,\"i\":0,"
		"\"rep_md_bits\":\"0x5001\",\"ds_id\":0,\"ds_md_bits\":0,\"ds_md_status\":0,"
		"\"md\":{\"l1_ingress\":5,\"l1_egress\":6,\"queue_id\":7,\"queue_occupancy\":291},"
		"\"drop_queue_id\":9,\"drop_reason\":33,\"inner_len\":4}]}");
}

/* MD Length beyond RepMdBits' words: DS metadata after the baseline. */
static void report_md_length_beyond_bits_is_ds_metadata(void **state)
{
	__u8 b[256];
	size_t n, off = INT_RPT_GROUP_LEN;
	struct int_rpt r;

	n = hm_test_unhex("20400005 00000003  14040220 1000 0009 8000 0000", b);
	n += hm_test_unhex("07000123 abcdef01", b + n);
	assert_int_equal(int_rpt_next(b, n, &off, &r), 1);
	assert_int_equal(r.md.ds_words, 1);
	assert_int_equal(hm_get_be32(r.md.ds), 0xabcdef01);
	assert_int_equal(r.inner_len, 0);
}

static void report_errors_named(void **state)
{
	__u8 b[256];
	size_t n, off;
	struct int_rpt r;

	/* 1-3 octets after the group header: a truncated report header. */
	n = hm_test_unhex("20400005 00000003 140E02", b);
	off = INT_RPT_GROUP_LEN;
	expect_err("3-octet header", int_rpt_next(b, n, &off, &r), -INT_E_RPT_HDR);
	assert_int_equal(off, INT_RPT_GROUP_LEN);
	/* Report Length 14 over 13 words. */
	n = vec_4_1(b) - 4;
	off = INT_RPT_GROUP_LEN;
	expect_err("Report Length past the payload", int_rpt_next(b, n, &off, &r),
		   -INT_E_RPT_LEN);
	/* RepType 1 with Report Length 1: no room for the main contents. */
	n = hm_test_unhex("20400005 00000003 14010000 50000000", b);
	off = INT_RPT_GROUP_LEN;
	expect_err("main contents cut", int_rpt_next(b, n, &off, &r), -INT_E_RPT_MAIN);
	/* MD Length 1 for RepMdBits 0x5000's 2 words. */
	n = hm_test_unhex("20400005 00000003 14030100 5000 0000 0000 0000 00050006", b);
	off = INT_RPT_GROUP_LEN;
	expect_err("MD Length below RepMdBits", int_rpt_next(b, n, &off, &r),
		   -INT_E_RPT_MD_LEN);
	/* Inner Only with MD Length 1. */
	n = hm_test_unhex("20400005 00000003 04010100 45000000", b);
	off = INT_RPT_GROUP_LEN;
	expect_err("Inner Only with MD Length", int_rpt_next(b, n, &off, &r),
		   -INT_E_RPT_MD_LEN);
}

/*
 * Every prefix of two coalesced §4.3 reports, each in a buffer of exactly
 * its size (valgrind/ASan see a read past it): a whole report or an error.
 */
static void report_every_truncation_is_safe(void **state)
{
	__u8 b[512], one[256];
	size_t n, k = vec_4_3(one), cut;

	memcpy(b, one, k);
	memcpy(b + k, one + 8, k - 8);
	n = 2 * k - 8;
	for (cut = 0; cut <= n; cut++) {
		__u8 *c = malloc(cut ? cut : 1);
		struct int_rpt_group_hdr g;
		size_t off = INT_RPT_GROUP_LEN;
		struct int_rpt r;
		char out[4096];
		struct hm_jw w;
		int rc, got = 0;

		assert_non_null(c);
		memcpy(c, b, cut);
		if (int_rpt_group_decode(c, cut, &g)) {
			assert_true(cut < 8);
		} else {
			while ((rc = int_rpt_next(c, cut, &off, &r)) > 0)
				got++;
			/* Whole reports only; a cut one is an error. */
			assert_int_equal(got, cut >= n ? 2 : cut >= k ? 1 : 0);
			if (cut == 8 || cut == k || cut == n)
				assert_int_equal(rc, 0);
			else
				assert_true(rc < 0);
		}
		hm_jw_init(&w, out, sizeof(out));
		int_json_report(&w, c, cut, &sig_port);
		assert_true(hm_jw_len(&w) < sizeof(out));
		free(c);
	}
}

/* §4.3 as JSON: the inner packet's INT decoded under "inner". */
static void report_json_of_4_3(void **state)
{
	__u8 b[256];
	size_t n = vec_4_3(b);
	char out[2048];
	struct hm_jw w;

	hm_jw_init(&w, out, sizeof(out));
	assert_int_equal(int_json_report(&w, b, n, &sig_port), 0);
	out[hm_jw_len(&w)] = 0;
	assert_string_equal(out,
		"{\"ver\":2,\"hw_id\":1,\"seq\":5,\"node_id\":3,\"reports\":[{\"rep_type\":1,"
		"\"in_type\":4,\"len\":23,\"md_len\":1,\"d\":0,\"q\":0,\"f\":1,\"i\":0,"
		"\"rep_md_bits\":\"0x1000\",\"ds_id\":0,\"ds_md_bits\":0,\"ds_md_status\":0,"
		"\"md\":{\"queue_id\":3,\"queue_occupancy\":1110},\"inner_len\":80,"
		"\"inner\":{\"packet\":{\"ip_ver\":4,\"src\":\"192.168.1.1\",\"dst\":\"192.168.2.2\","
		"\"dscp\":0,\"ttl\":64,\"ip_len\":80,\"proto\":17,\"sport\":1234,\"dport\":5000},"
		"\"int\":{\"type\":\"md\",\"npt\":2,\"shim_len\":7,\"orig_proto\":6,\"ver\":2,"
		"\"d\":0,\"e\":0,\"m\":0,\"hop_ml\":2,\"rhc\":6,\"bitmap\":\"0x9000\",\"ds_id\":0,"
		"\"ds_instruction\":0,\"ds_flags\":0,\"hops\":[{\"node_id\":2,\"queue_id\":2,"
		"\"queue_occupancy\":512},{\"node_id\":1,\"queue_id\":1,"
		"\"queue_occupancy\":256}]}}}]}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_group_header_20400005),
		cmocka_unit_test(report_4_1_int_ipv4_tcp),
		cmocka_unit_test(report_4_2_tlv_inner),
		cmocka_unit_test(report_4_3_inner_int_md_npt2),
		cmocka_unit_test(report_4_4_inner_only_shim_length),
		cmocka_unit_test(report_coalesced),
		cmocka_unit_test(report_length_0xff_runs_to_the_end),
		cmocka_unit_test(report_drop_reason_bit_15),
		cmocka_unit_test(report_md_length_beyond_bits_is_ds_metadata),
		cmocka_unit_test(report_errors_named),
		cmocka_unit_test(report_every_truncation_is_safe),
		cmocka_unit_test(report_json_of_4_3),
	};

	return HM_RUN_TESTS(tests);
}
