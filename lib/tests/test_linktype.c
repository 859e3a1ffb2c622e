// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_linktype.c - hm_linktype_ipv6() (lib/common/linktype.c): the IPv6
 * header of a frame of every link type `hopmark decode` reads, cut at every
 * length; Ethernet with 0 to 4 VLAN tags of each tag type; frames that carry
 * something else (IPv4, ARP, an IPv6 EtherType over an IPv4 packet) and
 * link types it does not read. hm_linktype_ip() (INT over IPv4 and IPv6):
 * IPv4 found too, at every cut, and the version told.
 */
#include <errno.h>
#include <pcap/dlt.h>

#include "hm_test.h"
#include "common/ether.h"
#include "common/linktype.h"

/* A 40-octet IPv6 header (version 6, payload 0, no next header) and 4 octets after it. */
static size_t ipv6_pkt(__u8 *p)
{
	memset(p, 0, 44);
	p[0] = 0x60;
	p[6] = 59;	/* No Next Header */
	p[7] = 64;
	return 44;
}

/*
 * Every cut of @frame (@len octets, IPv6 header at @want): shorter than
 * @want + 40 octets it has no whole IPv6 header, from there on it has one.
 */
static void check_cuts(const char *what, int dlt, const __u8 *frame, size_t len, size_t want)
{
	size_t caplen, off;
	int ret;

	for (caplen = 0; caplen <= len; caplen++) {
		int exp = caplen >= want + 40 ? 0 : -ENOENT;

		off = 12345;
		ret = hm_linktype_ipv6(dlt, frame, caplen, &off);
		if (ret != exp)
			fail_msg("%s, %zu of %zu octets captured: expected %d, observed %d", what,
				 caplen, len, exp, ret);
		if (!ret && off != want)
			fail_msg("%s, %zu octets: expected the IPv6 header at %zu, observed %zu",
				 what, caplen, want, off);
	}
}

static void linktype_ethernet_with_0_to_4_tags_of_each_type(void **state)
{
	static const __u16 tags[] = { HM_ETH_P_8021Q, HM_ETH_P_8021AD, HM_ETH_P_QINQ1 };
	__u8 f[64 + 16];
	unsigned int t, n, i;
	char what[64];

	for (t = 0; t < 3; t++) {
		for (n = 0; n <= 4; n++) {
			size_t o = 12;

			memset(f, 0xaa, 12);	/* destination and source addresses */
			for (i = 0; i < n; i++, o += 4) {
				hm_put_be16(f + o, tags[t]);
				hm_put_be16(f + o + 2, 100 + i);	/* PCP, DEI, VLAN ID */
			}
			hm_put_be16(f + o, HM_ETH_P_IPV6);
			o += 2;
			o += ipv6_pkt(f + o);
			snprintf(what, sizeof(what), "Ethernet, %u tag(s) 0x%04x", n, tags[t]);
			check_cuts(what, DLT_EN10MB, f, o, 14 + 4 * n);
		}
	}
}

static void linktype_linux_cooked_v1_v2_and_raw(void **state)
{
	__u8 f[20 + 44];

	/* SLL: packet type, ARPHRD, address length, 8 address octets, protocol at 14. */
	memset(f, 0, sizeof(f));
	hm_put_be16(f + 2, 1);			/* ARPHRD_ETHER */
	hm_put_be16(f + 14, HM_ETH_P_IPV6);
	ipv6_pkt(f + 16);
	check_cuts("Linux cooked v1", DLT_LINUX_SLL, f, 16 + 44, 16);

	/* SLL2: protocol at 0, then reserved, ifindex, ARPHRD, type, address. */
	memset(f, 0, sizeof(f));
	hm_put_be16(f, HM_ETH_P_IPV6);
	hm_put_be32(f + 4, 7);			/* interface index */
	ipv6_pkt(f + 20);
	check_cuts("Linux cooked v2", DLT_LINUX_SLL2, f, 20 + 44, 20);

	ipv6_pkt(f);
	check_cuts("raw IP", DLT_RAW, f, 44, 0);
#ifdef DLT_IPV6
	check_cuts("raw IPv6", DLT_IPV6, f, 44, 0);
#endif
}

static void linktype_refuses_what_is_not_ipv6(void **state)
{
	__u8 f[14 + 44];
	size_t off;

	/* An IPv4 packet of a raw IP capture. */
	memset(f, 0, sizeof(f));
	f[0] = 0x45;
	assert_int_equal(hm_linktype_ipv6(DLT_RAW, f, 44, &off), -ENOENT);
	/* ARP and IPv4 over Ethernet. */
	hm_put_be16(f + 12, 0x0806);
	ipv6_pkt(f + 14);
	assert_int_equal(hm_linktype_ipv6(DLT_EN10MB, f, sizeof(f), &off), -ENOENT);
	hm_put_be16(f + 12, HM_ETH_P_IP);
	assert_int_equal(hm_linktype_ipv6(DLT_EN10MB, f, sizeof(f), &off), -ENOENT);
	/* The IPv6 EtherType over a packet whose version is 4. */
	hm_put_be16(f + 12, HM_ETH_P_IPV6);
	f[14] = 0x45;
	assert_int_equal(hm_linktype_ipv6(DLT_EN10MB, f, sizeof(f), &off), -ENOENT);
	/* A tag whose inner EtherType is not captured. */
	hm_put_be16(f + 12, HM_ETH_P_8021Q);
	assert_int_equal(hm_linktype_ipv6(DLT_EN10MB, f, 14, &off), -ENOENT);
	assert_int_equal(hm_linktype_ipv6(DLT_EN10MB, f, 17, &off), -ENOENT);
	/* IEEE 802.11 and BSD loopback are not read. */
	assert_false(hm_linktype_supported(DLT_IEEE802_11));
	assert_int_equal(hm_linktype_ipv6(DLT_IEEE802_11, f, sizeof(f), &off), -EPROTONOSUPPORT);
	assert_int_equal(hm_linktype_ipv6(DLT_NULL, f, sizeof(f), &off), -EPROTONOSUPPORT);
	assert_true(hm_linktype_supported(DLT_EN10MB));
	assert_true(hm_linktype_supported(DLT_LINUX_SLL));
	assert_true(hm_linktype_supported(DLT_LINUX_SLL2));
	assert_true(hm_linktype_supported(DLT_RAW));
}

/*
 * hm_linktype_ip(): IPv4 (EtherType 0x0800, version 4, 20 octets captured)
 * over Ethernet with a tag, SLL, SLL2 and raw IP, at every cut; IPv6 as
 * hm_linktype_ipv6() finds it; a version that disagrees with the EtherType
 * is refused.
 */
static void linktype_ip_finds_ipv4_and_ipv6(void **state)
{
	__u8 f[20 + 18 + 44];
	size_t off, caplen;
	int ver;

	memset(f, 0, sizeof(f));
	hm_put_be16(f + 12, HM_ETH_P_8021Q);
	hm_put_be16(f + 16, HM_ETH_P_IP);
	f[18] = 0x45;
	for (caplen = 0; caplen <= 18 + 24; caplen++) {
		int exp = caplen >= 18 + 20 ? 0 : -ENOENT;

		ver = 0;
		off = 12345;
		if (hm_linktype_ip(DLT_EN10MB, f, caplen, &off, &ver) != exp)
			fail_msg("tagged IPv4 cut at %zu: expected %d", caplen, exp);
		if (!exp && (off != 18 || ver != 4))
			fail_msg("tagged IPv4 cut at %zu: offset %zu version %d, expected 18 and 4",
				 caplen, off, ver);
	}
	/* Ethernet IPv4 is not IPv6 for hm_linktype_ipv6(). */
	assert_int_equal(hm_linktype_ipv6(DLT_EN10MB, f, sizeof(f), &off), -ENOENT);
	/* SLL: protocol at octet 14; SLL2: at octet 0. */
	memset(f, 0, sizeof(f));
	hm_put_be16(f + 14, HM_ETH_P_IP);
	f[16] = 0x46;
	assert_int_equal(hm_linktype_ip(DLT_LINUX_SLL, f, 36, &off, &ver), 0);
	assert_int_equal(off, 16);
	assert_int_equal(ver, 4);
	memset(f, 0, sizeof(f));
	hm_put_be16(f, HM_ETH_P_IP);
	f[20] = 0x45;
	assert_int_equal(hm_linktype_ip(DLT_LINUX_SLL2, f, 40, &off, &ver), 0);
	assert_int_equal(off, 20);
	assert_int_equal(hm_linktype_ip(DLT_LINUX_SLL2, f, 39, &off, &ver), -ENOENT);
	/* Raw IP: the version nibble decides. */
	memset(f, 0, sizeof(f));
	f[0] = 0x45;
	assert_int_equal(hm_linktype_ip(DLT_RAW, f, 20, &off, &ver), 0);
	assert_int_equal(ver, 4);
	assert_int_equal(hm_linktype_ip(DLT_RAW, f, 19, &off, &ver), -ENOENT);
	ipv6_pkt(f);
	assert_int_equal(hm_linktype_ip(DLT_RAW, f, 44, &off, &ver), 0);
	assert_int_equal(ver, 6);
	f[0] = 0x55;
	assert_int_equal(hm_linktype_ip(DLT_RAW, f, 44, &off, &ver), -ENOENT);
	/* The IPv4 EtherType over a version-6 packet, and the reverse. */
	memset(f, 0, sizeof(f));
	hm_put_be16(f + 12, HM_ETH_P_IP);
	ipv6_pkt(f + 14);
	assert_int_equal(hm_linktype_ip(DLT_EN10MB, f, 14 + 44, &off, &ver), -ENOENT);
	hm_put_be16(f + 12, HM_ETH_P_IPV6);
	f[14] = 0x45;
	assert_int_equal(hm_linktype_ip(DLT_EN10MB, f, 14 + 44, &off, &ver), -ENOENT);
	assert_int_equal(hm_linktype_ip(DLT_NULL, f, sizeof(f), &off, &ver), -EPROTONOSUPPORT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linktype_ethernet_with_0_to_4_tags_of_each_type),
		cmocka_unit_test(linktype_linux_cooked_v1_v2_and_raw),
		cmocka_unit_test(linktype_refuses_what_is_not_ipv6),
		cmocka_unit_test(linktype_ip_finds_ipv4_and_ipv6),
	};

	return HM_RUN_TESTS(tests);
}
