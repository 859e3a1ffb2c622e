// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pbt_mark.c - the PBT-M mark (lib/pbt/pbt_mark.h) and packet ID
 * (lib/pbt/pbt_id.h) in userspace.
 *
 * The incremental checksum is compared with the IPv4 header checksum
 * computed afresh (RFC 1071) over headers from a seeded generator, for
 * every method's bit set and cleared; the mark locations with RFC 791 /
 * RFC 8200 / RFC 8754 offsets; the bit rules with DSCP, ECN and Alternate
 * Marking bits. The packet ID must follow its documented composition, and
 * every hashed input must change it while what forwarding changes (TTL,
 * the mark, the checksum) is not an input at all.
 */
#include <stdio.h>
#include <stdlib.h>

#include "hm_test.h"
#include "pbt/pbt_id.h"
#include "pbt/pbt_mark.h"

static __u64 rng = 0x123456789abcdefULL;

static __u32 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (__u32)(rng >> 11);
}

/* RFC 1071: the checksum of a 20-octet IPv4 header, its field taken as 0. */
static __u16 fresh_csum(const __u8 *h)
{
	__u32 s = 0;
	int i;

	for (i = 0; i < 20; i += 2)
		if (i != 10)
			s += (__u32)h[i] << 8 | h[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (__u16)~s;
}

static void pbt_csum_replace16_equals_fresh_checksum(void **state)
{
	struct pbt_mark_loc loc[2] = { pbt_mark_v4_loc(PBT_V4_RSVD, 0),
				       pbt_mark_v4_loc(PBT_V4_TOS, 0x10) };
	__u8 h[20];
	__u16 w, nw, c;
	int i, j, m, set;

	for (i = 0; i < 200000; i++) {
		for (j = 0; j < 20; j++)
			h[j] = (__u8)rnd();
		h[0] = 0x45;
		if (i & 1)	/* the other bits of the mark's word, all ones or all zeros */
			h[6] = h[1] = (i & 2) ? 0xff : 0x00;
		hm_put_be16(h + 10, fresh_csum(h));
		for (m = 0; m < 2; m++) {
			for (set = 0; set < 2; set++) {
				w = hm_get_be16(h + loc[m].off);
				nw = pbt_mark_word(w, loc[m].mask, set);
				c = pbt_csum_replace16(hm_get_be16(h + 10), w, nw);
				hm_put_be16(h + loc[m].off, nw);
				if (c != fresh_csum(h))
					fail_msg("header %d method %d set %d: incremental 0x%04x, "
						 "afresh 0x%04x", i, m, set, c, fresh_csum(h));
				hm_put_be16(h + 10, c);
			}
		}
	}
}

static void pbt_mark_locations(void **state)
{
	struct pbt_mark_loc l;

	l = pbt_mark_v4_loc(PBT_V4_RSVD, 0);
	assert_int_equal(l.off, 6);		/* Flags, Fragment Offset */
	assert_int_equal(l.mask, 0x8000);
	assert_int_equal(l.csum, 1);
	l = pbt_mark_v4_loc(PBT_V4_TOS, 0x04);
	assert_int_equal(l.off, 0);		/* Version/IHL, TOS */
	assert_int_equal(l.mask, 0x0004);
	l = pbt_mark_v4_loc(PBT_V4_TOS, 0x03);	/* ECN: refused */
	assert_int_equal(l.mask, 0);
	l = pbt_mark_v4_loc(7, 0x04);		/* unknown method */
	assert_int_equal(l.mask, 0);
	l = pbt_mark_v6_loc(PBT_V6_TC, 0x04, 0, 0);
	assert_int_equal(l.off, 0);		/* Version, Traffic Class: TC bit 2 is bit 6 of the word */
	assert_int_equal(l.mask, 0x0040);
	assert_int_equal(l.csum, 0);
	l = pbt_mark_v6_loc(PBT_V6_OFLAG, 0x04, 1, 40);
	assert_int_equal(l.off, 44);		/* SRH Last Entry, Flags */
	assert_int_equal(l.mask, HM_SRH_FLAG_O);
	assert_int_equal(l.in_srh, 1);
	l = pbt_mark_v6_loc(PBT_V6_OFLAG, 0x08, 0, 0);	/* no SRH: the TC bit */
	assert_int_equal(l.in_srh, 0);
	assert_int_equal(l.mask, 0x0080);
}

static void pbt_mark_bit_rules(void **state)
{
	unsigned int b, ok;

	for (b = 0; b < 256; b++) {
		ok = b == 0x04 || b == 0x08 || b == 0x10 || b == 0x20 || b == 0x40 || b == 0x80;
		if ((unsigned int)pbt_mark_bit_ok((__u8)b, 0) != ok)
			fail_msg("bit 0x%02x: expected %u", b, ok);
	}
	assert_int_equal(pbt_mark_bit_ok(0x04, 0x04), 0);	/* Alternate Marking's */
	assert_int_equal(pbt_mark_bit_ok(0x04, 0x08), 1);
}

/* The documented composition, written out. */
static __u32 ref_id(const struct hm_flow_key *k, __u32 w, const __u8 *o, __u32 n)
{
	__u32 h = hm_flow_hash(k, PBT_ID_SEED);
	int i;

	h = hm_sel_mix(h, w);
	h = hm_sel_mix(h, n);
	for (i = 0; i < 24; i += 4)
		h = hm_sel_mix(h, hm_get_be32(o + i));
	return h;
}

static void pbt_pkt_id_composition_and_inputs(void **state)
{
	struct hm_flow_key k = { .family = 6, .proto = 17 }, k2;
	__u8 o[PBT_ID_OCTETS], o2[PBT_ID_OCTETS];
	__u32 id, i, bit;

	for (i = 0; i < PBT_ID_OCTETS; i++)
		o[i] = (__u8)(i * 37 + 1);
	for (i = 0; i < 16; i++) {
		k.saddr[i] = (__u8)(0x20 + i);
		k.daddr[i] = (__u8)(0x40 + i);
	}
	k.sport = 0x1234;
	k.dport = 0x5678;
	id = pbt_pkt_id(&k, 1232, o, PBT_ID_OCTETS);
	assert_int_equal(id, ref_id(&k, 1232, o, PBT_ID_OCTETS));
	/* Every octet, every bit of the IP word, the count and the key change it. */
	for (i = 0; i < PBT_ID_OCTETS * 8; i++) {
		memcpy(o2, o, sizeof(o));
		o2[i / 8] ^= 1U << (i % 8);
		if (pbt_pkt_id(&k, 1232, o2, PBT_ID_OCTETS) == id)
			fail_msg("octet %u bit %u not hashed", i / 8, i % 8);
	}
	for (bit = 0; bit < 32; bit++)
		if (pbt_pkt_id(&k, 1232 ^ (1U << bit), o, PBT_ID_OCTETS) == id)
			fail_msg("IP word bit %u not hashed", bit);
	assert_int_not_equal(pbt_pkt_id(&k, 1232, o, PBT_ID_OCTETS - 1), id);
	k2 = k;
	k2.daddr[15] ^= 1;
	assert_int_not_equal(pbt_pkt_id(&k2, 1232, o, PBT_ID_OCTETS), id);
	k2 = k;
	k2.sport ^= 1;
	assert_int_not_equal(pbt_pkt_id(&k2, 1232, o, PBT_ID_OCTETS), id);
	/* TCP: the last 8 octets come after the options; others continue at 16. */
	assert_int_equal(pbt_id_payload_off(6, 32), 32);
	assert_int_equal(pbt_id_payload_off(17, 32), PBT_ID_L4_OCTETS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pbt_csum_replace16_equals_fresh_checksum),
		cmocka_unit_test(pbt_mark_locations),
		cmocka_unit_test(pbt_mark_bit_rules),
		cmocka_unit_test(pbt_pkt_id_composition_and_inputs),
	};

	return HM_RUN_TESTS(tests);
}
