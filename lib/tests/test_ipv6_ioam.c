// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_ipv6_ioam.c - hm_ipv6_find_ioam() and hm_record_from_packet() on
 * IPv6 packets assembled by hand (RFC 8200 §3 header, §4.3 Hop-by-Hop
 * options with Pad1/PadN, §4.4 Routing, §4.5 Fragment; RFC 8754 SRH;
 * RFC 2711 Router Alert; RFC 9486 IOAM option), and on captures of an
 * IOAM Direct Export option (RFC 9326): one built here, and an optional
 * external one from another implementation (skipped when absent).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <pcap/pcap.h>

#include "hm_test.h"

/*
 * IPv6 header, 40 octets (RFC 8200 §3):
 *   60 0a bc de   version 6, traffic class 0, flow label 0xabcde
 *   PL PL         payload length (filled by finish())
 *   NH            next header
 *   40            hop limit 64
 *   2001:db8:1::1 source, 2001:db8:5::1 destination
 */
static size_t ipv6_hdr(__u8 *p, __u8 nexthdr)
{
	static const __u8 hdr[40] = {
		0x60, 0x0a, 0xbc, 0xde, 0, 0, 0, 64,
		0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
		0x20, 0x01, 0x0d, 0xb8, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	};

	memcpy(p, hdr, 40);
	p[6] = nexthdr;
	return 40;
}

static void finish(__u8 *p, size_t len)
{
	hm_put_be16(p + 4, len - 40);
}

/*
 * The IOAM option used throughout: type 0x800000, NodeLen 1, two slots,
 * RemainingLen 1, one node (Hop_Lim 63, node_id 2). 12 + 8 = 20 octets.
 */
static size_t ioam_opt(__u8 *p)
{
	static const __u8 data[8] = { 0, 0, 0, 0, 0x3f, 0, 0, 2 };

	return hm_test_trace_opt(p, 123, 1, 0, 1, 0x800000, data, sizeof(data));
}

/* UDP header 8 octets: ports 4242 -> 5201, length, checksum 0. */
static size_t udp_hdr(__u8 *p)
{
	hm_put_be16(p, 4242);
	hm_put_be16(p + 2, 5201);
	hm_put_be16(p + 4, 8);
	hm_put_be16(p + 6, 0);
	return 8;
}

/*
 * Hop-by-Hop header as an encapsulating node builds it (Linux does the
 * same): NH, Hdr Ext Len, PadN of 2 octets (01 00) so that the IOAM option
 * starts at offset 4 (4n, RFC 9486 §2.1), then the 20-octet option:
 * 2 + 2 + 20 = 24 octets, a multiple of 8, so Hdr Ext Len = 24 / 8 - 1 = 2.
 */
static size_t hbh_plain(__u8 *p, __u8 nexthdr, size_t *opt_at)
{
	size_t off = 2;

	p[0] = nexthdr;
	p[off++] = 0x01; p[off++] = 0x00;	/* PadN, 0 data octets */
	*opt_at = off;
	off += ioam_opt(p + off);
	assert_int_equal(off, 24);
	p[1] = off / 8 - 1;
	return off;
}

static void finds_trace_after_padn(void **state)
{
	__u8 pkt[256];
	struct hm_pkt_info info;
	size_t off, opt_at, opt_off, opt_len;

	off = ipv6_hdr(pkt, 0);
	off += hbh_plain(pkt + off, 17, &opt_at);
	off += udp_hdr(pkt + off);
	finish(pkt, off);
	assert_int_equal(hm_ipv6_find_ioam(pkt, off, &info, &opt_off, &opt_len), 0);
	assert_int_equal(opt_off, 40 + opt_at);
	assert_int_equal(opt_len, 20);
	assert_int_equal(info.flow_label, 0xabcde);
	assert_int_equal(info.payload_len, off - 40);
	assert_int_equal(info.hop_limit, 64);
	assert_int_equal(info.proto, 17);
	assert_int_equal(info.sport, 4242);
	assert_int_equal(info.dport, 5201);
	assert_int_equal(info.saddr[15], 1);
	assert_int_equal(info.daddr[5], 5);
}

/*
 * Pad1 Pad1 (00 00) put the option at offset 4 (4..23); after it a Router
 * Alert (05 02 00 00, RFC 2711) at 24..27, PadN 01 00 at 28..29 and
 * Pad1 Pad1 at 30..31: 32 octets, Hdr Ext Len 3.
 */
static void finds_trace_between_pad1_and_router_alert(void **state)
{
	__u8 pkt[256];
	size_t off, h, opt_off, opt_len;

	off = ipv6_hdr(pkt, 0);
	h = off;
	pkt[h + 0] = 58;		/* ICMPv6 next */
	pkt[h + 2] = 0x00;		/* Pad1 */
	pkt[h + 3] = 0x00;		/* Pad1 */
	ioam_opt(pkt + h + 4);
	pkt[h + 24] = 0x05; pkt[h + 25] = 0x02; pkt[h + 26] = 0; pkt[h + 27] = 0;
	pkt[h + 28] = 0x01; pkt[h + 29] = 0x00;
	pkt[h + 30] = 0x00; pkt[h + 31] = 0x00;
	pkt[h + 1] = 3;
	off += 32;
	pkt[off++] = 128; pkt[off++] = 0; pkt[off++] = 0; pkt[off++] = 0;	/* echo request */
	finish(pkt, off);
	assert_int_equal(hm_ipv6_find_ioam(pkt, off, NULL, &opt_off, &opt_len), 0);
	assert_int_equal(opt_off, 44);
	assert_int_equal(opt_len, 20);
}

/*
 * Router Alert first (offset 2..5), PadN 01 00 (6..7), the option at 8
 * (4n), then PadN 01 02 00 00 (28..31): 32 octets.
 */
static void finds_trace_after_router_alert(void **state)
{
	__u8 pkt[256];
	struct hm_pkt_info info;
	size_t off, h, opt_off, opt_len;

	off = ipv6_hdr(pkt, 0);
	h = off;
	pkt[h + 0] = 17;
	pkt[h + 1] = 3;
	pkt[h + 2] = 0x05; pkt[h + 3] = 0x02; pkt[h + 4] = 0; pkt[h + 5] = 0;
	pkt[h + 6] = 0x01; pkt[h + 7] = 0x00;
	ioam_opt(pkt + h + 8);
	pkt[h + 28] = 0x01; pkt[h + 29] = 0x02; pkt[h + 30] = 0; pkt[h + 31] = 0;
	off += 32;
	off += udp_hdr(pkt + off);
	finish(pkt, off);
	assert_int_equal(hm_ipv6_find_ioam(pkt, off, &info, &opt_off, &opt_len), 0);
	assert_int_equal(opt_off, 48);
	assert_int_equal(info.dport, 5201);
}

/* The same option at offset 2 of the header (not 4n): malformed. */
static void misaligned_trace_is_invalid(void **state)
{
	__u8 pkt[256];
	size_t off, h, opt_off, opt_len;

	off = ipv6_hdr(pkt, 0);
	h = off;
	pkt[h + 0] = 59;
	pkt[h + 1] = 2;				/* 24 octets */
	ioam_opt(pkt + h + 2);			/* 2..21 */
	pkt[h + 22] = 0x01; pkt[h + 23] = 0x00;	/* PadN 22..23 */
	off += 24;
	finish(pkt, off);
	assert_int_equal(hm_ipv6_find_ioam(pkt, off, NULL, &opt_off, &opt_len), -EINVAL);
}

static void malformed_hop_by_hop_is_invalid(void **state)
{
	__u8 pkt[256];
	size_t off, opt_at, opt_off, opt_len, hbh;

	off = ipv6_hdr(pkt, 0);
	hbh = hbh_plain(pkt + off, 59, &opt_at);
	finish(pkt, off + hbh);

	/* Option length running past the header's end. */
	pkt[40 + opt_at + 1] = 30;
	assert_int_equal(hm_ipv6_find_ioam(pkt, off + hbh, NULL, &opt_off, &opt_len), -EINVAL);
	pkt[40 + opt_at + 1] = 18;
	assert_int_equal(hm_ipv6_find_ioam(pkt, off + hbh, NULL, &opt_off, &opt_len), 0);

	/* Hdr Ext Len beyond the packet. */
	pkt[41] = 10;
	assert_int_equal(hm_ipv6_find_ioam(pkt, off + hbh, NULL, &opt_off, &opt_len), -EINVAL);
	pkt[41] = 2;

	/* Not IPv6. */
	pkt[0] = 0x45;
	assert_int_equal(hm_ipv6_find_ioam(pkt, off + hbh, NULL, &opt_off, &opt_len), -EINVAL);
	pkt[0] = 0x60;

	/* An IOAM option too short for its IOAM Option-Type octet. */
	pkt[40 + opt_at + 1] = 1;
	pkt[40 + opt_at + 3] = 0x01;	/* the rest becomes a PadN ... */
	pkt[40 + opt_at + 4] = 14;	/* ... of 14 + 2 + 2 = 18 octets */
	assert_int_equal(hm_ipv6_find_ioam(pkt, off + hbh, NULL, &opt_off, &opt_len), -EINVAL);
}

/* Every length shorter than IPv6 + Hop-by-Hop is -EINVAL; beyond, 0. */
static void truncation_at_every_length(void **state)
{
	__u8 pkt[256];
	size_t off, opt_at, opt_off, opt_len, l;

	off = ipv6_hdr(pkt, 0);
	off += hbh_plain(pkt + off, 17, &opt_at);
	off += udp_hdr(pkt + off);
	finish(pkt, off);
	for (l = 0; l <= off; l++) {
		__u8 *copy = malloc(l ? l : 1);
		int exp = l < 64 ? -EINVAL : 0;	/* 40 + 24 */
		struct hm_pkt_info info;
		int err;

		memcpy(copy, pkt, l);
		err = hm_ipv6_find_ioam(copy, l, &info, &opt_off, &opt_len);
		free(copy);
		if (err != exp)
			fail_msg("length %zu: expected %d, observed %d", l, exp, err);
		/* Ports only once the 4 port octets are there. */
		if (!err && info.dport != (l >= 68 ? 5201 : 0))
			fail_msg("length %zu: dport %u", l, info.dport);
	}
}

static void no_hop_by_hop_or_no_ioam_is_enoent(void **state)
{
	__u8 pkt[256];
	struct hm_pkt_info info;
	size_t off, opt_off = 99, opt_len = 99;

	off = ipv6_hdr(pkt, 17);
	off += udp_hdr(pkt + off);
	finish(pkt, off);
	assert_int_equal(hm_ipv6_find_ioam(pkt, off, &info, &opt_off, &opt_len), -ENOENT);
	assert_int_equal(opt_off, 0);
	assert_int_equal(opt_len, 0);
	assert_int_equal(info.proto, 17);
	assert_int_equal(info.sport, 4242);

	/* Hop-by-Hop with only a PadN of 4 data octets: 3a 00 01 04 00 00 00 00. */
	off = ipv6_hdr(pkt, 0);
	pkt[off] = 58; pkt[off + 1] = 0; pkt[off + 2] = 1; pkt[off + 3] = 4;
	memset(pkt + off + 4, 0, 4);
	off += 8;
	finish(pkt, off);
	assert_int_equal(hm_ipv6_find_ioam(pkt, off, &info, &opt_off, &opt_len), -ENOENT);
	assert_int_equal(info.proto, 58);
}

/*
 * Hop-by-Hop stays first, an SRH follows (RFC 8754 §2: NH, Hdr Ext Len 2,
 * Routing Type 4, Segments Left 0, Last Entry 0, Flags, Tag, one 16-octet
 * segment: 24 octets), then UDP.
 */
static void srh_after_hop_by_hop(void **state)
{
	__u8 pkt[256];
	struct hm_pkt_info info;
	size_t off, opt_at, opt_off, opt_len;

	off = ipv6_hdr(pkt, 0);
	off += hbh_plain(pkt + off, 43, &opt_at);
	memset(pkt + off, 0, 24);
	pkt[off] = 17; pkt[off + 1] = 2; pkt[off + 2] = 4;
	pkt[off + 8] = 0x20; pkt[off + 9] = 0x01;
	off += 24;
	off += udp_hdr(pkt + off);
	finish(pkt, off);
	assert_int_equal(hm_ipv6_find_ioam(pkt, off, &info, &opt_off, &opt_len), 0);
	assert_int_equal(opt_off, 44);
	assert_int_equal(info.proto, 17);
	assert_int_equal(info.sport, 4242);
	assert_int_equal(info.dport, 5201);
}

/*
 * Destination Options (60: NH, Hdr Ext Len 0, PadN 01 04 00 00 00 00) then
 * a Fragment header (44, RFC 8200 §4.5: NH, reserved, offset<<3 | M,
 * identification): the first fragment carries the ports, a later one not.
 */
static void fragment_header_after_hop_by_hop(void **state)
{
	__u8 pkt[256];
	struct hm_pkt_info info;
	size_t off, opt_at, opt_off, opt_len, frag;

	off = ipv6_hdr(pkt, 0);
	off += hbh_plain(pkt + off, 60, &opt_at);
	pkt[off] = 44; pkt[off + 1] = 0; pkt[off + 2] = 1; pkt[off + 3] = 4;
	memset(pkt + off + 4, 0, 4);
	off += 8;
	frag = off;
	pkt[off] = 17; pkt[off + 1] = 0;
	hm_put_be16(pkt + off + 2, 0x0001);	/* offset 0, M = 1 */
	hm_put_be32(pkt + off + 4, 0xcafe);
	off += 8;
	off += udp_hdr(pkt + off);
	finish(pkt, off);
	assert_int_equal(hm_ipv6_find_ioam(pkt, off, &info, &opt_off, &opt_len), 0);
	assert_int_equal(info.proto, 17);
	assert_int_equal(info.dport, 5201);

	hm_put_be16(pkt + frag + 2, 185 << 3);	/* offset 1480 octets, M = 0 */
	assert_int_equal(hm_ipv6_find_ioam(pkt, off, &info, &opt_off, &opt_len), 0);
	assert_int_equal(info.proto, 17);
	assert_int_equal(info.sport, 0);
	assert_int_equal(info.dport, 0);
}

static void record_from_packet_decodes_the_trace(void **state)
{
	__u8 pkt[256];
	struct hm_record r;
	size_t off, opt_at;

	off = ipv6_hdr(pkt, 0);
	off += hbh_plain(pkt + off, 17, &opt_at);
	off += udp_hdr(pkt + off);
	finish(pkt, off);
	assert_int_equal(hm_record_from_packet(pkt, off, 1700000000123456789ULL, &r), 0);
	assert_int_equal(r.rx_ns, 1700000000123456789ULL);
	assert_int_equal(r.ifindex, 0);
	assert_int_equal(r.sink_if_id, 0xffff);
	assert_int_equal(r.sink_node_id, 0xffffff);
	assert_int_equal(r.pkt.dport, 5201);
	assert_int_equal(r.trace.ns_id, 123);
	assert_int_equal(r.trace.n_nodes, 1);
	assert_int_equal(r.trace.nodes[0].node_id, 2);
	assert_int_equal(r.trace.nodes[0].hop_limit, 63);

	off = ipv6_hdr(pkt, 17);
	off += udp_hdr(pkt + off);
	finish(pkt, off);
	assert_int_equal(hm_record_from_packet(pkt, off, 1, &r), -ENOENT);
}

/*
 * What a decoder must do with a Direct Export packet (RFC 9326), whichever
 * capture it comes from: the first packet of @p is an ICMPv6 echo request
 * (link type Linux cooked v2, v1 or Ethernet) whose Hop-by-Hop header is
 *   3a 02             NH ICMPv6, 24 octets
 *   01 00             PadN, so the IOAM option sits at offset 4 (4n)
 *   31 12 00 04       IOAM option, 18 data octets, IOAM Option-Type 4 (DEX)
 *   00 7b 00 03       IOAM-Namespace 123, Flags 0, Extension-Flags 0x03
 *   80 00 00 00       IOAM-Trace-Type 0x800000, reserved
 *   00 00 00 15 ...   Flow ID 21, Sequence Number 7
 * with Hop Limit 61 and Flow Label 0x90f03. It is not a pre-allocated
 * trace: hm_ipv6_find_ioam() says -ENOENT and points at the DEX option; the
 * trace decoder refuses it with -EPROTONOSUPPORT. Closes @p.
 */
static void check_dex_capture(pcap_t *p)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	struct hm_pkt_info info;
	struct hm_ioam_trace t;
	struct hm_record r;
	size_t opt_off, opt_len, l2;
	const __u8 *ip;

	switch (pcap_datalink(p)) {
	case DLT_LINUX_SLL2: l2 = 20; break;
	case DLT_LINUX_SLL: l2 = 16; break;
	case DLT_EN10MB: l2 = 14; break;
	default: fail_msg("unexpected link type %d", pcap_datalink(p)); return;
	}
	assert_int_equal(pcap_next_ex(p, &h, &data), 1);
	assert_true(h->caplen > l2 + 64);
	ip = data + l2;

	assert_int_equal(hm_ipv6_find_ioam(ip, h->caplen - l2, &info, &opt_off, &opt_len),
			 -ENOENT);
	assert_int_equal(opt_off, 44);
	assert_int_equal(opt_len, 20);
	assert_int_equal(ip[opt_off], 0x31);
	assert_int_equal(ip[opt_off + 3], HM_IOAM_OPT_DEX);
	assert_int_equal(hm_get_be16(ip + opt_off + 4), 123);
	assert_int_equal(ip[opt_off + 7], 0x03);	/* Extension-Flags, see README */
	assert_int_equal(info.hop_limit, 61);
	assert_int_equal(info.flow_label, 0x90f03);
	assert_int_equal(info.proto, 58);
	assert_int_equal(hm_ioam_trace_decode(ip + opt_off, opt_len, &t), -EPROTONOSUPPORT);
	assert_int_equal(hm_record_from_packet(ip, h->caplen - l2, 0, &r), -ENOENT);
	pcap_close(p);
}

static pcap_t *open_capture(const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path, errbuf);

	if (!p)
		fail_msg("%s", errbuf);
	return p;
}

/*
 * ioam-dex-icmpv6.pcap, a capture from an out-of-tree Linux DEX
 * implementation (pcapng despite its name; Linux cooked v2), is another
 * project's file and not part of this repository (lib/tests/data/README.md
 * says where it comes from). It is read from the directory $HM_EXTRA_DATA,
 * by default HM_EXTRA_DATA_DEFAULT (../shared/data/captures beside the
 * repository, lib/build.mk); the test skips when the file is not there.
 * Its Extension-Flags byte 0x03 does not follow RFC 9326 §3.2's bit order
 * (Flow ID is the most significant bit), which is why the decoder is
 * checked against a capture it did not write.
 */
static void dex_capture_is_not_a_trace(void **state)
{
	const char *dir = getenv("HM_EXTRA_DATA");
	char path[PATH_MAX];

	if (!dir || !*dir)
		dir = HM_EXTRA_DATA_DEFAULT;
	snprintf(path, sizeof(path), "%s/ioam-dex-icmpv6.pcap", dir);
	if (access(path, R_OK))
		hm_test_skip("optional external capture %s: %s (set HM_EXTRA_DATA to the "
			     "directory holding ioam-dex-icmpv6.pcap)", path, strerror(errno));
	check_dex_capture(open_capture(path));
}

/*
 * RFC 4443 §2.3 checksum over the RFC 8200 §8.1 pseudo-header: source and
 * destination of @ip6, upper-layer length @len, next header 58, then the
 * ICMPv6 message @icmp with its checksum field zero. Return: the checksum,
 * host order.
 */
static __u16 icmpv6_csum(const __u8 *ip6, const __u8 *icmp, size_t len)
{
	__u32 sum = 58 + len;
	size_t i;

	for (i = 8; i < 40; i += 2)
		sum += hm_get_be16(ip6 + i);
	for (i = 0; i + 1 < len; i += 2)
		sum += hm_get_be16(icmp + i);
	if (len & 1)
		sum += icmp[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/*
 * The same packet built here, so the check runs from a clone alone: the
 * layout of the external capture above, written by libpcap
 * (pcap_open_dead() + pcap_dump()) to a temporary file and read back
 * through open_capture() like it. Linux cooked v2 header, 20 octets:
 *   86 dd             protocol IPv6
 *   00 00             reserved
 *   00 00 00 02       interface index 2
 *   00 01             ARPHRD_ETHER
 *   00                PACKET_HOST
 *   06                link-layer address length
 *   02 00 00 00 00 01 00 00   address, padded to 8 octets
 * then the IPv6 header (60 09 0f 03: Flow Label 0x90f03; Hop Limit 61;
 * 2001:db8:1::1 -> 2001:db8:5::1), the Hop-by-Hop header of
 * check_dex_capture(), and an echo request (RFC 4443 §4.1: type 128,
 * code 0, checksum, Identifier 1, Sequence Number 1) with 16 data octets
 * 00..0f.
 */
static void dex_built_capture_is_not_a_trace(void **state)
{
	static const __u8 sll2[20] = {
		0x86, 0xdd, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6,
		0x02, 0, 0, 0, 0, 0x01, 0, 0,
	};
	static const __u8 hbh[24] = {
		0x3a, 0x02, 0x01, 0x00,
		0x31, 0x12, 0x00, HM_IOAM_OPT_DEX,
		0x00, 0x7b, 0x00, 0x03,
		0x80, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x15,
		0x00, 0x00, 0x00, 0x07,
	};
	const char *tmp = getenv("TMPDIR");
	struct pcap_pkthdr h = { .ts = { 1700000000, 0 } };
	__u8 frame[256], *ip = frame + sizeof(sll2), *icmp;
	char path[PATH_MAX];
	pcap_dumper_t *d;
	size_t off, i;
	pcap_t *dead;
	FILE *f;
	int fd;

	memcpy(frame, sll2, sizeof(sll2));
	off = ipv6_hdr(ip, 0);
	hm_put_be32(ip, 6U << 28 | 0x90f03);	/* version 6, class 0, flow label */
	ip[7] = 61;				/* Hop Limit */
	memcpy(ip + off, hbh, sizeof(hbh));
	off += sizeof(hbh);
	icmp = ip + off;
	memset(icmp, 0, 8);
	icmp[0] = 128;				/* Echo Request */
	hm_put_be16(icmp + 4, 1);		/* Identifier */
	hm_put_be16(icmp + 6, 1);		/* Sequence Number */
	for (i = 0; i < 16; i++)
		icmp[8 + i] = i;
	off += 8 + 16;
	finish(ip, off);
	hm_put_be16(icmp + 2, icmpv6_csum(ip, icmp, 8 + 16));
	h.caplen = h.len = sizeof(sll2) + off;

	snprintf(path, sizeof(path), "%s/hmt-dex-XXXXXX.pcap", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemps(path, 5);
	if (fd < 0)
		fail_msg("mkstemps(%s): %s", path, strerror(errno));
	f = fdopen(fd, "wb");
	assert_non_null(f);
	dead = pcap_open_dead(DLT_LINUX_SLL2, 65535);
	assert_non_null(dead);
	d = pcap_dump_fopen(dead, f);
	if (!d)
		fail_msg("pcap_dump_fopen: %s", pcap_geterr(dead));
	pcap_dump((u_char *)d, &h, frame);
	pcap_dump_close(d);
	pcap_close(dead);

	dead = open_capture(path);
	unlink(path);			/* the open file stays readable */
	check_dex_capture(dead);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_trace_after_padn),
		cmocka_unit_test(finds_trace_between_pad1_and_router_alert),
		cmocka_unit_test(finds_trace_after_router_alert),
		cmocka_unit_test(misaligned_trace_is_invalid),
		cmocka_unit_test(malformed_hop_by_hop_is_invalid),
		cmocka_unit_test(truncation_at_every_length),
		cmocka_unit_test(no_hop_by_hop_or_no_ioam_is_enoent),
		cmocka_unit_test(srh_after_hop_by_hop),
		cmocka_unit_test(fragment_header_after_hop_by_hop),
		cmocka_unit_test(record_from_packet_decodes_the_trace),
		cmocka_unit_test(dex_capture_is_not_a_trace),
		cmocka_unit_test(dex_built_capture_is_not_a_trace),
	};

	return HM_RUN_TESTS(tests);
}
