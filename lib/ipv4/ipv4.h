/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ipv4.h - the IPv4 header fields hopmark reads and writes (RFC 791):
 * offsets in the fixed 20-octet header and the flags of the fragment
 * field. PINT carries its digest in the Identification of DF packets.
 * Header-only and libc-free, safe to include from BPF and the kernel.
 */
#ifndef __HOPMARK_IPV4_H
#define __HOPMARK_IPV4_H

#define HM_IPV4_HDR_LEN		20	/* without options (IHL 5) */

/* Offsets of fields in the header. */
#define HM_IPV4_OFF_TOS		1
#define HM_IPV4_OFF_TOT_LEN	2
#define HM_IPV4_OFF_ID		4
#define HM_IPV4_OFF_FRAG	6	/* flags and fragment offset */
#define HM_IPV4_OFF_TTL		8
#define HM_IPV4_OFF_PROTOCOL	9
#define HM_IPV4_OFF_CSUM	10
#define HM_IPV4_OFF_SADDR	12
#define HM_IPV4_OFF_DADDR	16

/* The 16-bit flags + fragment offset field, host order. */
#define HM_IPV4_F_DF		0x4000	/* Don't Fragment */
#define HM_IPV4_F_MF		0x2000	/* More Fragments */
#define HM_IPV4_OFFSET_MASK	0x1fff

#endif /* __HOPMARK_IPV4_H */
