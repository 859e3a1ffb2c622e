// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_int_decode.c - the INT v2.1 decoder and encoder (lib/int/
 * int_decode.c, int_encode.c) on the spec's own example headers (INT.mdk
 * §6.1-§6.17, as digested field by field), at every error the decoder
 * names, and on every Instruction Bitmap through an encode/decode round
 * trip. Where a spec vector disagrees with the rest of the spec, the test
 * checks what the vector says and what the consistent reading gives, and
 * says which is which.
 */
#include <stdlib.h>

#include "hm_test.h"
#include "common/byteorder.h"
#include "int/int_decode.h"
#include "int/int_print.h"

#define DSCP_INT	0x17	/* the DSCP of the spec's examples (§6.1) */
#define PORT_INT	5000	/* INT_TBD: the spec assigns no port */

/* The signalling of the examples: DSCP 0x17 exact (issue #50) or the port. */
static const struct int_signal sig_dscp = { .dscp = DSCP_INT, .dscp_mask = 0x3f };
static const struct int_signal sig_port = { .udp_port = PORT_INT };

/*
 * An IPv4 packet (IHL 5, DF, TTL 64, 10.0.0.1 -> 10.0.0.2; the header
 * checksum is not checked by the decoder and left 0) around @l4.
 */
static size_t ipv4(__u8 *buf, __u8 dscp, __u8 proto, const __u8 *l4, size_t l4len)
{
	memset(buf, 0, 20);
	buf[0] = 0x45;
	buf[1] = dscp << 2;
	hm_put_be16(buf + 2, 20 + l4len);
	hm_put_be16(buf + 6, 0x4000);
	buf[8] = 64;
	buf[9] = proto;
	buf[12] = 10, buf[15] = 1;
	buf[16] = 10, buf[19] = 2;
	memcpy(buf + 20, l4, l4len);
	return 20 + l4len;
}

/* An IPv6 packet 2001:db8::1 -> 2001:db8::2, @hbh: a Hop-by-Hop header first. */
static size_t ipv6(__u8 *buf, __u8 dscp, __u8 proto, bool hbh, const __u8 *l4, size_t l4len)
{
	size_t o = 40;

	memset(buf, 0, 40);
	hm_put_be32(buf, 6U << 28 | (__u32)dscp << 22);
	buf[6] = hbh ? 0 : proto;
	buf[7] = 64;
	buf[8] = 0x20, buf[9] = 0x01, buf[10] = 0x0d, buf[11] = 0xb8, buf[23] = 1;
	buf[24] = 0x20, buf[25] = 0x01, buf[26] = 0x0d, buf[27] = 0xb8, buf[39] = 2;
	if (hbh) {
		/* Next Header, Hdr Ext Len 0, PadN of 4 octets. */
		buf[o] = proto, buf[o + 1] = 0, buf[o + 2] = 1, buf[o + 3] = 4;
		memset(buf + o + 4, 0, 4);
		o += 8;
	}
	memcpy(buf + o, l4, l4len);
	hm_put_be16(buf + 4, o - 40 + l4len);
	return o + l4len;
}

/* A TCP header of @doff words (options NOP-filled) 1234 -> 80. */
static size_t tcp(__u8 *buf, unsigned int doff)
{
	memset(buf, 0, doff * 4);
	hm_put_be16(buf, 1234);
	hm_put_be16(buf + 2, 80);
	buf[12] = doff << 4;
	buf[13] = 0x18;
	memset(buf + 20, 1, doff * 4 - 20);
	return doff * 4;
}

/* A UDP header 4321 -> @dport, length @len, checksum 0. */
static size_t udp(__u8 *buf, __u16 dport, size_t len)
{
	hm_put_be16(buf, 4321);
	hm_put_be16(buf + 2, dport);
	hm_put_be16(buf + 4, len);
	hm_put_be16(buf + 6, 0);
	return 8;
}

/*
 * §6.1's stack: bitmap 0x9000 (node ID, queue ID + occupancy), Hop ML 2,
 * hop2 first. The spec leaves the values open; these are distinct.
 */
static size_t stack_6_1(__u8 *o)
{
	return hm_test_unhex("00000002 02000200 00000001 01000100", o);
}

static void expect_hop(const struct int_pkt *p, __u32 i, __u32 node, __u8 qid, __u32 qocc)
{
	struct int_hop h;

	assert_int_equal(int_decode_hop(p, i, &h), 0);
	assert_int_equal(h.node_id, node);
	assert_int_equal(h.queue_id, qid);
	assert_int_equal(h.queue_occupancy, qocc);
	assert_int_equal(h.ds_words, 0);
}

/* INT §6.1: INT-MD over TCP, DSCP signalling; shim 10 07 00 (origDSCP<<2). */
static void int_6_1_md_over_tcp_dscp(void **state)
{
	__u8 l4[200], pkt[300];
	size_t n = tcp(l4, 5), plen;
	struct int_pkt p;

	n += hm_test_unhex("10 07 00 28  20000206 90000000 00000000", l4 + n);	/* orig DSCP 10 */
	n += stack_6_1(l4 + n);
	memcpy(l4 + n, "payload", 7);
	n += 7;
	plen = ipv4(pkt, DSCP_INT, 6, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_dscp, &p), 0);
	assert_true(p.int_found);
	assert_int_equal(p.type, INT_TYPE_MD);
	assert_int_equal(p.npt, INT_NPT_DSCP);
	assert_int_equal(p.shim_len, 7);
	assert_int_equal(p.npt_field, 10);
	assert_int_equal(p.ver, 2);
	assert_int_equal(p.d | p.e | p.m, 0);
	assert_int_equal(p.hop_ml, 2);
	/* Two hops pushed from RHC 8 (§6 common setup). */
	assert_int_equal(p.rhc, 6);
	assert_int_equal(p.bitmap, 0x9000);
	assert_int_equal(p.n_hops, 2);
	assert_int_equal(p.shim_off, 20 + 20);
	assert_int_equal(p.end_off, 20 + 20 + 4 + 28);
	expect_hop(&p, 0, 2, 2, 0x200);
	expect_hop(&p, 1, 1, 1, 0x100);

	/* The same over IPv6 with a Hop-by-Hop header, TCP options 12 octets. */
	n = tcp(l4, 8);
	n += hm_test_unhex("10 07 00 28  20000206 90000000 00000000", l4 + n);
	n += stack_6_1(l4 + n);
	plen = ipv6(pkt, DSCP_INT, 6, true, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_dscp, &p), 0);
	assert_int_equal(p.ip_ver, 6);
	assert_int_equal(p.shim_off, 40 + 8 + 32);
	assert_int_equal(p.n_hops, 2);
	expect_hop(&p, 1, 1, 1, 0x100);
}

/* INT §6.2: INT-MX over TCP: shim 30 03 00 (origDSCP<<2), no stack. */
static void int_6_2_mx_over_tcp_dscp(void **state)
{
	__u8 l4[200], pkt[300];
	size_t n = tcp(l4, 5), plen;
	struct int_pkt p;

	n += hm_test_unhex("30 03 00 00  20000000 90000000 00000000", l4 + n);
	plen = ipv4(pkt, DSCP_INT, 6, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_dscp, &p), 0);
	assert_int_equal(p.type, INT_TYPE_MX);
	assert_int_equal(p.shim_len, 3);
	assert_int_equal(p.bitmap, 0x9000);
	assert_int_equal(p.n_hops, 0);
	assert_int_equal(p.src_words, 0);
	assert_int_equal(int_decode_hop(&p, 0, &(struct int_hop){}), -EINVAL);
}

/*
 * INT §6.3/§6.4: a new UDP header (IP protocol 17) before the original
 * TCP header, NPT=2: shims 18070006 (MD) and 38030006 (MX).
 */
static void int_6_3_6_4_npt2_new_udp_before_tcp(void **state)
{
	__u8 l4[200], pkt[300];
	size_t n, plen;
	struct int_pkt p;

	n = 8;
	n += hm_test_unhex("18070006  20000206 90000000 00000000", l4 + n);
	n += stack_6_1(l4 + n);
	n += tcp(l4 + n, 5);
	udp(l4, PORT_INT, n);
	plen = ipv6(pkt, 0, 17, false, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_port, &p), 0);
	assert_int_equal(p.npt, INT_NPT_L4);
	assert_int_equal(p.npt_field, 6);
	assert_int_equal(p.n_hops, 2);
	assert_int_equal(p.inner_proto, 6);
	assert_true(p.inner_has_ports);
	assert_int_equal(p.inner_sport, 1234);
	assert_int_equal(p.inner_dport, 80);

	n = 8;
	n += hm_test_unhex("38030006  20000000 90000000 00000000", l4 + n);
	n += tcp(l4 + n, 5);
	udp(l4, PORT_INT, n);
	plen = ipv4(pkt, 0, 17, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_port, &p), 0);
	assert_int_equal(p.type, INT_TYPE_MX);
	assert_int_equal(p.npt, INT_NPT_L4);
	assert_int_equal(p.inner_dport, 80);
}

/* INT §6.5/§6.6: UDP kept, NPT=1: shims 1407 XYZ / 3403 XYZ (port 4789 here). */
static void int_6_5_6_6_npt1_udp_port_kept(void **state)
{
	__u8 l4[200], pkt[300];
	size_t n, plen;
	struct int_pkt p;

	n = 8;
	n += hm_test_unhex("140712b5  20000206 90000000 00000000", l4 + n);
	n += stack_6_1(l4 + n);
	udp(l4, PORT_INT, n);
	plen = ipv4(pkt, 0, 17, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_port, &p), 0);
	assert_int_equal(p.npt, INT_NPT_UDP);
	assert_int_equal(p.npt_field, 4789);
	assert_int_equal(p.n_hops, 2);

	n = 8;
	n += hm_test_unhex("340312b5  20000000 90000000 00000000", l4 + n);
	udp(l4, PORT_INT, n);
	plen = ipv4(pkt, 0, 17, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_port, &p), 0);
	assert_int_equal(p.type, INT_TYPE_MX);
	assert_int_equal(p.npt_field, 4789);
}

/* INT §6.7: INT-MX before IPsec: shim 38030004, original protocol 4 (IP in IP). */
static void int_6_7_mx_before_ipsec_orig_proto_4(void **state)
{
	__u8 l4[200], pkt[300];
	size_t n, plen;
	struct int_pkt p;

	n = 8;
	n += hm_test_unhex("38030004  20000000 90000000 00000000", l4 + n);
	n += 20;	/* the inner IPv4 header, not looked at */
	udp(l4, PORT_INT, n);
	plen = ipv4(pkt, 0, 17, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_port, &p), 0);
	assert_int_equal(p.npt_field, 4);
	assert_int_equal(p.inner_proto, 4);
	assert_false(p.inner_has_ports);
}

/*
 * INT §6.12 (VXLAN-GPE): MD 20000205 90000000 00000000 over 6 words, GPE
 * shim Length 9. GPE's shim is not the TCP/UDP shim (§5.7.3); the MD
 * header and stack are the same, so they are decoded here under a TCP/UDP
 * shim of the same Length 9: three hops, RHC 5 = 8 - 3.
 */
static void int_6_12_md_header_six_words_three_hops(void **state)
{
	__u8 l4[200], pkt[300];
	size_t n, plen;
	struct int_pkt p;

	n = 8;
	n += hm_test_unhex("14091234  20000205 90000000 00000000", l4 + n);
	n += hm_test_unhex("00000003 03000300", l4 + n);
	n += stack_6_1(l4 + n);
	udp(l4, PORT_INT, n);
	plen = ipv4(pkt, 0, 17, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_port, &p), 0);
	assert_int_equal(p.n_hops, 3);
	assert_int_equal(p.rhc + p.n_hops, 8);
	expect_hop(&p, 0, 3, 3, 0x300);
	expect_hop(&p, 2, 1, 1, 0x100);
}

/*
 * INT §6.14/§6.15 (Geneve): options 01030109 (MD) and 01030303 (MX): the
 * option Length (5 bits, words of option data) is 9 = 3 + 6 for MD and 3
 * for MX, what int_encode() gives for the same header and stack. The
 * examples' base-header Opt Len 9 for both disagrees with RFC 8926 §3.4,
 * which counts each option's 4-octet header too: 10 for MD, 4 for MX.
 */
static void int_6_14_6_15_geneve_option_lengths(void **state)
{
	struct int_hop hops[3] = {
		{ .node_id = 3 }, { .node_id = 2 }, { .node_id = 1 },
	};
	struct int_enc e = {
		.type = INT_TYPE_MD, .hop_ml = 2, .rhc = 5, .bitmap = 0x9000,
		.hops = hops, .n_hops = 3,
	};
	__u8 buf[128];
	int n;

	n = int_encode(&e, buf, sizeof(buf));
	/* Option data = the INT data without the TCP/UDP shim. */
	assert_int_equal((n - INT_SHIM_LEN) / 4, 9);
	assert_int_equal(1 + (n - INT_SHIM_LEN) / 4, 10);	/* RFC 8926 Opt Len */
	e.type = INT_TYPE_MX;
	n = int_encode(&e, buf, sizeof(buf));
	assert_int_equal((n - INT_SHIM_LEN) / 4, 3);
	assert_int_equal(1 + (n - INT_SHIM_LEN) / 4, 4);
}

/*
 * INT §6.16: INT-MX with source-inserted data: shim 38050006, MX
 * 20000000 9000ABCD C0000000, then 0000000F (sequence 15) 12345678 (flow ID).
 */
static void int_6_16_mx_source_inserted(void **state)
{
	__u8 l4[200], pkt[300];
	size_t n, plen;
	struct int_pkt p;

	n = 8;
	n += hm_test_unhex("38050006  20000000 9000ABCD C0000000 0000000F 12345678", l4 + n);
	n += tcp(l4 + n, 5);
	udp(l4, PORT_INT, n);
	plen = ipv4(pkt, 0, 17, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_port, &p), 0);
	assert_int_equal(p.type, INT_TYPE_MX);
	assert_int_equal(p.bitmap, 0x9000);
	assert_int_equal(p.ds_id, 0xabcd);
	assert_int_equal(p.ds_inst, 0xc000);
	assert_int_equal(p.ds_flags, 0);
	assert_int_equal(p.src_words, 2);
	assert_int_equal(hm_get_be32(p.src_data), 15);
	assert_int_equal(hm_get_be32(p.src_data + 4), 0x12345678);
	assert_int_equal(p.inner_dport, 80);
}

/*
 * INT §6.17: INT-MD with source-only data: 20000105 80005453 80004000
 * (Hop ML 1, RHC 5, bitmap 0x8000, DS ID 0x5453, DS Instruction 0x8000,
 * DS Flags 0x4000), node(hop2), node(hop1), node(gateway), A61AF6B1
 * 647D0000 (MAC a6:1a:f6:b1:64:7d). The shim Length the example implies
 * is 3 + 3 + 2 = 8. The text calls the MAC a "16 bit" field; it is stored
 * as 8 octets. The decoder cannot tell source-only words from hops: told
 * 2 (the domain's DS), it gives 3 hops and the MAC; told 0, 5 "hops".
 */
static void int_6_17_md_source_only(void **state)
{
	struct int_signal sig = sig_port;
	__u8 l4[200], pkt[300];
	size_t n, plen;
	struct int_pkt p;

	n = 8;
	n += hm_test_unhex("18080006  20000105 80005453 80004000", l4 + n);
	n += hm_test_unhex("00000012 00000011 000000aa  A61AF6B1 647D0000", l4 + n);
	n += tcp(l4 + n, 5);
	udp(l4, PORT_INT, n);
	plen = ipv4(pkt, 0, 17, l4, n);

	sig.src_only_words = 2;
	assert_int_equal(int_decode_ip(pkt, plen, &sig, &p), 0);
	assert_int_equal(p.hop_ml, 1);
	assert_int_equal(p.rhc, 5);
	assert_int_equal(p.ds_id, 0x5453);
	assert_int_equal(p.ds_inst, 0x8000);
	assert_int_equal(p.ds_flags, 0x4000);
	assert_int_equal(p.n_hops, 3);
	assert_int_equal(p.src_words, 2);
	assert_memory_equal(p.src_data, "\xa6\x1a\xf6\xb1\x64\x7d\x00\x00", 8);
	expect_hop(&p, 2, 0xaa, 0, 0);

	sig.src_only_words = 0;
	assert_int_equal(int_decode_ip(pkt, plen, &sig, &p), 0);
	assert_int_equal(p.n_hops, 5);
	assert_int_equal(p.src_words, 0);
}

/* §5.8's Hop ML examples: 0xff80 -> 12, 0xfc00 -> 8, 0xff81 -> 13. */
static void int_hop_ml_of_the_spec_bitmaps(void **state)
{
	assert_int_equal(int_bitmap_words(0xff80), 12);
	assert_int_equal(int_bitmap_words(0xfc00), 8);
	assert_int_equal(int_bitmap_words(0xff81), 13);
	assert_int_equal(int_bitmap_words(0x9000), 2);
	assert_int_equal(int_bitmap_words(0x8040), 2);
}

/*
 * Telemetry Report §4.4's inner packet: shim 1407 12B5 (NPT=1, original
 * port 4789), MD 20000205 C0000000 00000000 (Hop ML 2, RHC 5, bitmap
 * 0xc000: node ID + L1 ports) over a 6-word stack. The vector's shim
 * Length is 7; 3 + 6 = 9 is the consistent value (and the one the
 * example's Report Length 33 counts). Length 7 decodes as 2 hops, the
 * third read as payload, and RHC 5 + 2 hops != 8; Length 9 gives 3 hops.
 */
static void report_4_4_shim_length_7_over_six_words(void **state)
{
	__u8 l4[200], pkt[300];
	size_t n, plen;
	struct int_pkt p;
	struct int_hop h;

	n = 8;
	n += hm_test_unhex("140712B5  20000205 C0000000 00000000", l4 + n);
	n += hm_test_unhex("00000003 00030004  00000002 00020003  00000001 00010002", l4 + n);
	n += 8;	/* VXLAN header, payload to INT */
	memset(l4 + n - 8, 0, 8);
	udp(l4, PORT_INT, n);
	plen = ipv4(pkt, 0, 17, l4, n);

	assert_int_equal(int_decode_ip(pkt, plen, &sig_port, &p), 0);
	assert_int_equal(p.shim_len, 7);
	assert_int_equal(p.n_hops, 2);
	assert_int_not_equal(p.rhc + p.n_hops, 8);

	pkt[20 + 8 + 1] = 9;	/* the consistent shim Length */
	assert_int_equal(int_decode_ip(pkt, plen, &sig_port, &p), 0);
	assert_int_equal(p.n_hops, 3);
	assert_int_equal(p.rhc + p.n_hops, 8);
	assert_int_equal(int_decode_hop(&p, 2, &h), 0);
	assert_int_equal(h.node_id, 1);
	assert_int_equal(h.l1_ingress, 1);
	assert_int_equal(h.l1_egress, 2);
}

/* Build §6.1 over IPv4/TCP with @hdr (shim + header hex) and @stack_hex. */
static size_t md_tcp(__u8 *pkt, const char *hdr, const char *stack_hex)
{
	__u8 l4[1200];
	size_t n = tcp(l4, 5);

	n += hm_test_unhex(hdr, l4 + n);
	n += hm_test_unhex(stack_hex, l4 + n);
	return ipv4(pkt, DSCP_INT, 6, l4, n);
}

static void expect_err(const char *what, int got, int want)
{
	if (got != want)
		fail_msg("%s: expected %d (%s), observed %d (%s)", what, want,
			 int_dec_strerror(want), got, int_dec_strerror(got));
}

/* A shim cut at 0-3 octets after the TCP header: truncated, not read. */
static void int_truncated_shim_is_an_error(void **state)
{
	__u8 pkt[300];
	struct int_pkt p;
	unsigned int cut;

	md_tcp(pkt, "10070000  20000206 90000000 00000000", "");
	for (cut = 0; cut < 4; cut++) {
		hm_put_be16(pkt + 2, 40 + cut);
		expect_err("shim cut", int_decode_ip(pkt, 40 + cut, &sig_dscp, &p),
			   -INT_E_SHIM_TRUNC);
	}
}

/* Shim Length past the IP Total Length; the same past the bytes given only. */
static void int_shim_length_beyond_packet(void **state)
{
	__u8 pkt[300];
	struct int_pkt p;
	size_t n = md_tcp(pkt, "10090000  20000206 90000000 00000000",
			  "00000002 02000200 00000001 01000100");

	expect_err("shim Length 9 over 7 words", int_decode_ip(pkt, n, &sig_dscp, &p),
		   -INT_E_BEYOND);
	pkt[41] = 7;
	expect_err("capture 1 octet short", int_decode_ip(pkt, n - 1, &sig_dscp, &p),
		   -INT_E_CAPTURE);
	expect_err("whole packet", int_decode_ip(pkt, n, &sig_dscp, &p), 0);
	/* Ethernet padding after the IP packet is not INT data. */
	memset(pkt + n, 0xee, 6);
	expect_err("padded frame", int_decode_ip(pkt, n + 6, &sig_dscp, &p), 0);
	assert_int_equal(p.ip_len, n);
}

static void int_shim_length_below_header(void **state)
{
	__u8 pkt[300];
	struct int_pkt p;
	size_t n = md_tcp(pkt, "10020000  20000206 90000000 00000000", "");

	expect_err("shim Length 2", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_SHIM_LEN);
}

static void int_ver_not_2(void **state)
{
	__u8 pkt[300];
	struct int_pkt p;
	size_t n;

	n = md_tcp(pkt, "10030000  10000200 90000000 00000000", "");
	expect_err("MD Ver 1", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_VER);
	n = md_tcp(pkt, "10030000  30000200 90000000 00000000", "");
	expect_err("MD Ver 3", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_VER);
	n = md_tcp(pkt, "30030000  10000000 90000000 00000000", "");
	expect_err("MX Ver 1", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_VER);
}

/*
 * Hop ML against the bitmap (§5.8): fewer words than 0x9000's 2 is wrong;
 * more with DS ID 0 is wrong (no DS metadata then); more with a DS ID are
 * DS metadata words. Bit 15's complement comes after them, last.
 */
static void int_hop_ml_against_bitmap(void **state)
{
	__u8 pkt[300];
	struct int_pkt p;
	struct int_hop h;
	size_t n;

	n = md_tcp(pkt, "10050000  20000106 90000000 00000000", "00000002 00000001");
	expect_err("Hop ML 1 for 0x9000", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_HOP_ML);
	n = md_tcp(pkt, "10060000  20000306 90000000 00000000", "00000002 02000200 ffffffff");
	expect_err("Hop ML 3, DS ID 0", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_HOP_ML);
	n = md_tcp(pkt, "10060000  20000306 90000007 80000000", "00000002 02000200 0000abcd");
	expect_err("Hop ML 3, DS ID 7", int_decode_ip(pkt, n, &sig_dscp, &p), 0);
	assert_int_equal(int_decode_hop(&p, 0, &h), 0);
	assert_int_equal(h.ds_words, 1);
	assert_int_equal(hm_get_be32(h.ds), 0xabcd);

	/* 0x9001 + one DS word: node, queue, DS, then the complement. */
	n = md_tcp(pkt, "10070000  20000406 90010007 80000000",
		   "00000002 02000200 0000abcd 1234fedc");
	expect_err("0x9001 with DS", int_decode_ip(pkt, n, &sig_dscp, &p), 0);
	assert_int_equal(int_decode_hop(&p, 0, &h), 0);
	assert_int_equal(h.csum_complement, 0x1234fedc);
	assert_int_equal(hm_get_be32(h.ds), 0xabcd);

	/* Hop ML 0 (bitmap 0): a stack word cannot be a hop. */
	n = md_tcp(pkt, "10030000  20000006 00000000 00000000", "");
	expect_err("Hop ML 0, no stack", int_decode_ip(pkt, n, &sig_dscp, &p), 0);
	assert_int_equal(p.n_hops, 0);
	n = md_tcp(pkt, "10040000  20000006 00000000 00000000", "ffffffff");
	expect_err("Hop ML 0, one word", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_STACK);
}

static void int_stack_not_multiple_of_hop_ml(void **state)
{
	__u8 pkt[300];
	struct int_pkt p;
	size_t n = md_tcp(pkt, "10060000  20000206 90000000 00000000",
			  "00000002 02000200 00000001");

	expect_err("3 words, Hop ML 2", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_STACK);
}

static void int_shim_type_and_npt_checked(void **state)
{
	__u8 pkt[300], l4[200];
	struct int_pkt p;
	size_t n;

	n = md_tcp(pkt, "20030000  20000206 90000000 00000000", "");
	expect_err("Type 2 (Destination)", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_TYPE);
	n = md_tcp(pkt, "14030000  20000206 90000000 00000000", "");
	expect_err("NPT 1 under DSCP", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_NPT);
	n = 8;
	n += hm_test_unhex("10030000  20000206 90000000 00000000", l4 + n);
	udp(l4, PORT_INT, n);
	n = ipv4(pkt, 0, 17, l4, n);
	expect_err("NPT 0 under the port", int_decode_ip(pkt, n, &sig_port, &p), -INT_E_NPT);
}

/*
 * DSCP signalling: exact value under the mask. 0x1f and 0x37 contain
 * 0x17's bits without being it: not INT under mask 0x3f (issue #50), INT
 * under the v1.0 reference parser's 0x17/0x17. A disabled mask or a
 * non-TCP/UDP packet is not INT; neither is a UDP packet to another port.
 */
static void int_dscp_signalling_exact_under_mask(void **state)
{
	struct int_signal loose = { .dscp = 0x17, .dscp_mask = 0x17 };
	__u8 pkt[300];
	struct int_pkt p;
	size_t n = md_tcp(pkt, "10030000  20000206 90000000 00000000", "");

	pkt[1] = 0x1f << 2;
	expect_err("DSCP 0x1f, mask 0x3f", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_NONE);
	expect_err("DSCP 0x1f, mask 0x17", int_decode_ip(pkt, n, &loose, &p), 0);
	pkt[1] = 0x37 << 2;
	expect_err("DSCP 0x37, mask 0x3f", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_NONE);
	pkt[1] = 0x17 << 2;
	expect_err("DSCP 0x17, mask 0x3f", int_decode_ip(pkt, n, &sig_dscp, &p), 0);
	expect_err("no signalling", int_decode_ip(pkt, n, &(struct int_signal){}, &p),
		   -INT_E_NONE);
	pkt[9] = 1;	/* ICMP */
	expect_err("ICMP with DSCP 0x17", int_decode_ip(pkt, n, &sig_dscp, &p), -INT_E_NONE);
	assert_int_equal(p.proto, 1);
}

/* A stack at 255 words: shim Length 255, Hop ML 1 -> 252 hops. */
static void int_stack_at_255_words(void **state)
{
	__u8 l4[1200], pkt[1300];
	struct int_pkt p;
	struct int_hop h;
	size_t n = 8, plen;
	unsigned int i;

	n += hm_test_unhex("14ff0000  200001ff 80000000 00000000", l4 + n);
	for (i = 0; i < 252; i++, n += 4)
		hm_put_be32(l4 + n, 1000 + i);
	udp(l4, PORT_INT, n);
	plen = ipv4(pkt, 0, 17, l4, n);
	assert_int_equal(int_decode_ip(pkt, plen, &sig_port, &p), 0);
	assert_int_equal(p.n_hops, 252);
	assert_int_equal(int_decode_hop(&p, 251, &h), 0);
	assert_int_equal(h.node_id, 1251);
	assert_int_equal(int_decode_hop(&p, 252, &h), -EINVAL);
}

/* Reserved bits 9-14 are a word each; bitmap 0x8040 = node ID + bit 9. */
static void int_reserved_bits_are_words(void **state)
{
	__u8 pkt[300];
	struct int_pkt p;
	struct int_hop h;
	size_t n = md_tcp(pkt, "10070000  20000206 80400000 00000000",
			  "00000002 ffffffff 00000001 ffffffff");

	expect_err("0x8040", int_decode_ip(pkt, n, &sig_dscp, &p), 0);
	assert_int_equal(p.n_hops, 2);
	assert_int_equal(int_decode_hop(&p, 1, &h), 0);
	assert_int_equal(h.node_id, 1);
	assert_int_equal(h.rsvd[0], 0xffffffff);
}

/*
 * Every bitmap of 0..0xffff through int_encode() and int_decode_ip(): two
 * hops with distinct values in every field; each field the bitmap has
 * must come back, those it lacks must stay 0.
 */
static void int_every_bitmap_round_trips(void **state)
{
	__u8 l4[1200], pkt[1300];
	struct int_hop hops[2], got;
	struct int_pkt p;
	unsigned int bm, i, k;

	for (i = 0; i < 2; i++) {
		struct int_hop *h = &hops[i];

		memset(h, 0, sizeof(*h));
		h->node_id = 0x11000000 + i;
		h->l1_ingress = 0x2100 + i;
		h->l1_egress = 0x2200 + i;
		h->hop_latency = 0x31000000 + i;
		h->queue_id = 0x41 + i;
		h->queue_occupancy = 0x420000 + i;
		h->ingress_ts = 0x5100000000000000ULL + i;
		h->egress_ts = 0x6100000000000000ULL + i;
		h->l2_ingress = 0x71000000 + i;
		h->l2_egress = 0x72000000 + i;
		h->tx_util = 0x81000000 + i;
		h->buffer_id = 0x91 + i;
		h->buffer_occupancy = 0x920000 + i;
		for (k = 0; k < 6; k++)
			h->rsvd[k] = 0xa0000000 + k * 16 + i;
		h->csum_complement = 0xb1000000 + i;
	}
	for (bm = 0; bm <= 0xffff; bm++) {
		struct int_enc e = {
			.type = INT_TYPE_MD, .npt = INT_NPT_UDP, .npt_field = 4789,
			.hop_ml = int_bitmap_words(bm), .rhc = 6, .bitmap = bm,
			.hops = hops, .n_hops = 2,
		};
		size_t n = 8, plen;
		int w;

		w = int_encode(&e, l4 + n, sizeof(l4) - n);
		assert_true(w > 0);
		n += w;
		udp(l4, PORT_INT, n);
		plen = ipv6(pkt, 0, 17, false, l4, n);
		if (int_decode_ip(pkt, plen, &sig_port, &p))
			fail_msg("bitmap 0x%04x: %s", bm,
				 int_dec_strerror(int_decode_ip(pkt, plen, &sig_port, &p)));
		assert_int_equal(p.hop_ml, int_bitmap_words(bm));
		/* Bitmap 0: Hop ML 0, hops of no words, nothing to tell apart. */
		assert_int_equal(p.n_hops, bm ? 2 : 0);
		for (i = 0; i < p.n_hops; i++) {
			const struct int_hop *x = &hops[i];

			assert_int_equal(int_decode_hop(&p, i, &got), 0);
#define CHK(bit, f) \
	do { \
		unsigned long long want = (bm & (bit)) ? (unsigned long long)x->f : 0; \
		if ((unsigned long long)got.f != want) \
			fail_msg("bitmap 0x%04x hop %u " #f ": expected 0x%llx, observed 0x%llx", \
				 bm, i, want, (unsigned long long)got.f); \
	} while (0)
			CHK(INT_BM_NODE_ID, node_id);
			CHK(INT_BM_L1_PORTS, l1_ingress);
			CHK(INT_BM_L1_PORTS, l1_egress);
			CHK(INT_BM_HOP_LAT, hop_latency);
			CHK(INT_BM_QUEUE, queue_id);
			CHK(INT_BM_QUEUE, queue_occupancy);
			CHK(INT_BM_INGRESS_TS, ingress_ts);
			CHK(INT_BM_EGRESS_TS, egress_ts);
			CHK(INT_BM_L2_PORTS, l2_ingress);
			CHK(INT_BM_L2_PORTS, l2_egress);
			CHK(INT_BM_TX_UTIL, tx_util);
			CHK(INT_BM_BUFFER, buffer_id);
			CHK(INT_BM_BUFFER, buffer_occupancy);
			for (k = 0; k < 6; k++)
				CHK(0x0040 >> k, rsvd[k]);
			CHK(INT_BM_CSUM_COMPL, csum_complement);
#undef CHK
		}
	}
}

/* Every prefix of a valid packet: an error or success, never a read past it. */
static void int_every_truncation_is_safe(void **state)
{
	__u8 pkt[300];
	size_t n = md_tcp(pkt, "10070000  20000206 90000000 00000000",
			  "00000002 02000200 00000001 01000100"), cut;
	struct int_pkt p;

	for (cut = 0; cut <= n; cut++) {
		__u8 *c = malloc(cut ? cut : 1);
		int err;

		assert_non_null(c);
		memcpy(c, pkt, cut);
		err = int_decode_ip(c, cut, &sig_dscp, &p);
		if (cut == n)
			assert_int_equal(err, 0);
		else
			assert_true(err < 0);
		free(c);
	}
}

/*
 * int_encode(): the shim Length it computes, the one a test forces, each
 * NPT's 16 bits, DS words of all-ones when none are given, and its errors:
 * a Type other than MD/MX, Hop ML below the bitmap, more than 255 words,
 * a buffer one octet short.
 */
static void int_encode_fields_and_errors(void **state)
{
	struct int_hop hops[2] = { { .node_id = 7, .csum_complement = 0xc0c0c0c0 },
				   { .node_id = 6, .csum_complement = 0xd0d0d0d0 } };
	struct int_enc e = {
		.type = INT_TYPE_MD, .npt = INT_NPT_DSCP, .npt_field = 0x2e, .flags = INT_MD_D,
		.hop_ml = 3, .rhc = 4, .bitmap = 0x8001, .ds_id = 9, .hops = hops, .n_hops = 2,
	};
	__u8 buf[2048], want[64];
	size_t n;

	n = hm_test_unhex("100900b8  28000304 80010009 00000000"
		  "00000007 ffffffff c0c0c0c0  00000006 ffffffff d0d0d0d0", want);
	assert_int_equal(int_encode(&e, buf, sizeof(buf)), n);
	assert_memory_equal(buf, want, n);
	assert_int_equal(int_encode(&e, buf, n - 1), -ENOSPC);
	e.shim_len = 7;
	assert_int_equal(int_encode(&e, buf, sizeof(buf)), n);
	assert_int_equal(buf[1], 7);
	e.shim_len = 0;
	e.npt = INT_NPT_UDP;
	e.npt_field = 4789;
	int_encode(&e, buf, sizeof(buf));
	assert_int_equal(hm_get_be32(buf), 0x140912b5);
	e.npt = INT_NPT_L4;
	e.npt_field = 6;
	int_encode(&e, buf, sizeof(buf));
	assert_int_equal(hm_get_be32(buf), 0x18090006);
	e.hop_ml = 1;
	assert_int_equal(int_encode(&e, buf, sizeof(buf)), -EINVAL);
	e.hop_ml = 3;
	e.type = INT_TYPE_DST;
	assert_int_equal(int_encode(&e, buf, sizeof(buf)), -EINVAL);
	e.type = INT_TYPE_MD;
	e.n_hops = 85;		/* 3 + 85 * 3 = 258 words */
	{
		struct int_hop many[85] = {};

		e.hops = many;
		assert_int_equal(int_encode(&e, buf, sizeof(buf)), -EINVAL);
		e.n_hops = 84;	/* 255 words */
		assert_int_equal(int_encode(&e, buf, sizeof(buf)), 4 + 255 * 4);
		assert_int_equal(buf[1], 255);
	}
}

/* §6.1 as JSON: the keys and order of Documentation/int.rst. */
static void int_json_of_6_1(void **state)
{
	static const char want[] =
		"{\"type\":\"md\",\"npt\":0,\"shim_len\":7,\"orig_dscp\":10,\"ver\":2,\"d\":0,"
		"\"e\":0,\"m\":0,\"hop_ml\":2,\"rhc\":6,\"bitmap\":\"0x9000\",\"ds_id\":0,"
		"\"ds_instruction\":0,\"ds_flags\":0,\"hops\":[{\"node_id\":2,\"queue_id\":2,"
		"\"queue_occupancy\":512},{\"node_id\":1,\"queue_id\":1,"
		"\"queue_occupancy\":256}]}";
	__u8 pkt[300];
	char out[1024];
	struct int_pkt p;
	struct hm_jw w;
	size_t n = md_tcp(pkt, "10070028  20000206 90000000 00000000",
			  "00000002 02000200 00000001 01000100");

	assert_int_equal(int_decode_ip(pkt, n, &sig_dscp, &p), 0);
	hm_jw_init(&w, out, sizeof(out));
	int_json_int(&w, &p);
	assert_true(hm_jw_len(&w) < sizeof(out));
	out[hm_jw_len(&w)] = 0;
	assert_string_equal(out, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(int_6_1_md_over_tcp_dscp),
		cmocka_unit_test(int_6_2_mx_over_tcp_dscp),
		cmocka_unit_test(int_6_3_6_4_npt2_new_udp_before_tcp),
		cmocka_unit_test(int_6_5_6_6_npt1_udp_port_kept),
		cmocka_unit_test(int_6_7_mx_before_ipsec_orig_proto_4),
		cmocka_unit_test(int_6_12_md_header_six_words_three_hops),
		cmocka_unit_test(int_6_14_6_15_geneve_option_lengths),
		cmocka_unit_test(int_6_16_mx_source_inserted),
		cmocka_unit_test(int_6_17_md_source_only),
		cmocka_unit_test(int_hop_ml_of_the_spec_bitmaps),
		cmocka_unit_test(report_4_4_shim_length_7_over_six_words),
		cmocka_unit_test(int_truncated_shim_is_an_error),
		cmocka_unit_test(int_shim_length_beyond_packet),
		cmocka_unit_test(int_shim_length_below_header),
		cmocka_unit_test(int_ver_not_2),
		cmocka_unit_test(int_hop_ml_against_bitmap),
		cmocka_unit_test(int_stack_not_multiple_of_hop_ml),
		cmocka_unit_test(int_shim_type_and_npt_checked),
		cmocka_unit_test(int_dscp_signalling_exact_under_mask),
		cmocka_unit_test(int_stack_at_255_words),
		cmocka_unit_test(int_reserved_bits_are_words),
		cmocka_unit_test(int_every_bitmap_round_trips),
		cmocka_unit_test(int_every_truncation_is_safe),
		cmocka_unit_test(int_encode_fields_and_errors),
		cmocka_unit_test(int_json_of_6_1),
	};

	return HM_RUN_TESTS(tests);
}
