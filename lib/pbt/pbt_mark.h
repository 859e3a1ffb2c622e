/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pbt_mark.h - where the PBT-M mark bit is, per method (struct
 * pbt_domain_cfg.v4_mark / v6_mark, lib/pbt/pbt_maps.h), and how setting
 * or clearing it changes the IPv4 header checksum (RFC 1624). Used by
 * bpf/hopmark_pbt.bpf.c to mark and clear, and by userspace and the tests
 * to test a captured packet for the mark.
 *
 * Every method is one bit of one 16-bit word, read big-endian:
 *   %PBT_V4_RSVD	IPv4 octets 6-7 (Flags, Fragment Offset), 0x8000
 *   %PBT_V4_TOS	IPv4 octets 0-1 (Version/IHL, TOS), the TOS bit
 *   %PBT_V6_TC		IPv6 octets 0-1 (Version, Traffic Class, ...), the
 *			Traffic Class bit << 4
 *   %PBT_V6_OFLAG	SRH octets 4-5 (Last Entry, Flags), %HM_SRH_FLAG_O;
 *			without an SRH the %PBT_V6_TC word
 * Only IPv4 has a header checksum; IPv6 and the SRH have none, and no
 * upper-layer checksum covers any of these bits (the pseudo-headers of RFC
 * 768/793 and RFC 8200 §8.1 hold addresses, length and protocol only).
 *
 * Header-only and libc-free; safe to include from BPF.
 */
#ifndef __HOPMARK_PBT_MARK_H
#define __HOPMARK_PBT_MARK_H

#include <linux/types.h>
#include "pbt/pbt_maps.h"
#include "srv6/srh.h"

/* Where a mark bit is (pbt_mark_v4_loc(), pbt_mark_v6_loc()). */
#define PBT_LOC_IPV4_W0		0	/* IPv4 octet 0: Version/IHL, TOS */
#define PBT_LOC_IPV4_FRAG	6	/* IPv4 octet 6: Flags, Fragment Offset */
#define PBT_LOC_IPV6_W0		0	/* IPv6 octet 0: Version, Traffic Class */
#define PBT_LOC_SRH_W2		4	/* SRH octet 4: Last Entry, Flags */
#define PBT_IPV4_OFF_CSUM	10

/**
 * struct pbt_mark_loc - a method's mark bit
 * @off:	offset of its 16-bit word: from the IP header, or for
 *		@in_srh from the SRH
 * @mask:	the bit in the word, host order; 0 when the configuration
 *		names no usable bit (pbt_mark_bit_ok())
 * @in_srh:	the word is in the SRH
 * @csum:	the word is covered by the IPv4 header checksum
 */
struct pbt_mark_loc {
	__u16	off;
	__u16	mask;
	__u8	in_srh;
	__u8	csum;
};

/**
 * pbt_mark_bit_ok() - whether @bit is one TOS / Traffic Class bit a mark
 *		       may use
 * @bit:	the configured bit (pbt_domain_cfg.v4_tos_bit / v6_tc_bit)
 * @altmark:	the domain's Alternate Marking bits (RFC 9341)
 *
 * One bit of the DSCP part (0xfc), never ECN's two bits (RFC 3168), and
 * not a bit Alternate Marking uses in the same domain.
 *
 * Return: 1 when usable, 0 otherwise.
 */
static inline int pbt_mark_bit_ok(__u8 bit, __u8 altmark)
{
	return bit && !(bit & (bit - 1)) && !(bit & PBT_ECN_MASK) && !(bit & altmark);
}

/**
 * pbt_mark_v4_loc() - the IPv4 mark bit of a domain
 * @v4_mark:	%PBT_V4_RSVD or %PBT_V4_TOS
 * @tos_bit:	the TOS bit of %PBT_V4_TOS
 *
 * Return: its location; @mask 0 for an unknown method or a TOS bit that is
 * not one DSCP bit (the caller checks Alternate Marking separately).
 */
static inline struct pbt_mark_loc pbt_mark_v4_loc(__u8 v4_mark, __u8 tos_bit)
{
	struct pbt_mark_loc l = { PBT_LOC_IPV4_FRAG, 0, 0, 1 };

	if (v4_mark == PBT_V4_RSVD) {
		l.mask = PBT_V4_RSVD_BIT;
	} else if (v4_mark == PBT_V4_TOS) {
		l.off = PBT_LOC_IPV4_W0;
		l.mask = pbt_mark_bit_ok(tos_bit, 0) ? tos_bit : 0;
	}
	return l;
}

/**
 * pbt_mark_v6_loc() - the IPv6 mark bit of a domain for one packet
 * @v6_mark:	%PBT_V6_TC or %PBT_V6_OFLAG
 * @tc_bit:	the Traffic Class bit (%PBT_V6_TC, and %PBT_V6_OFLAG without
 *		an SRH)
 * @has_srh:	the packet has an SRH
 * @srh_off:	its offset from the IPv6 header (when @has_srh)
 *
 * For %PBT_V6_OFLAG the returned @off is @srh_off + 4 from the IPv6
 * header, with @in_srh set.
 *
 * Return: its location; @mask 0 when no usable bit is configured.
 */
static inline struct pbt_mark_loc pbt_mark_v6_loc(__u8 v6_mark, __u8 tc_bit, int has_srh,
						  __u32 srh_off)
{
	struct pbt_mark_loc l = { PBT_LOC_IPV6_W0, 0, 0, 0 };

	if (v6_mark == PBT_V6_OFLAG && has_srh) {
		l.off = (__u16)(srh_off + PBT_LOC_SRH_W2);
		l.mask = HM_SRH_FLAG_O;
		l.in_srh = 1;
	} else if (v6_mark == PBT_V6_TC || v6_mark == PBT_V6_OFLAG) {
		l.mask = pbt_mark_bit_ok(tc_bit, 0) ? (__u16)((__u16)tc_bit << 4) : 0;
	}
	return l;
}

/**
 * pbt_csum_replace16() - an Internet checksum after one 16-bit word of the
 *			  data it covers changed (RFC 1624 §3, eqn. 3)
 * @check:	the checksum field, host order
 * @old:	the word before, host order
 * @new:	the word after, host order
 *
 * HC' = ~(~HC + ~m + m'): never yields the -0 that eqn. 2 can produce.
 *
 * Return: the new checksum field, host order.
 */
static inline __u16 pbt_csum_replace16(__u16 check, __u16 old, __u16 new)
{
	__u32 s = (__u32)(__u16)~check + (__u16)~old + new;

	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (__u16)~s;
}

/**
 * pbt_mark_word() - a mark word with the bit set or cleared
 * @w:		the word, host order
 * @mask:	the bit (struct pbt_mark_loc.mask)
 * @set:	1 to set, 0 to clear
 *
 * Return: the new word.
 */
static inline __u16 pbt_mark_word(__u16 w, __u16 mask, int set)
{
	return set ? (__u16)(w | mask) : (__u16)(w & ~mask);
}

#endif /* __HOPMARK_PBT_MARK_H */
