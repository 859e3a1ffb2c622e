/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_util.h - PINT per-packet aggregation: the maximum over the path of
 * HPCC's link utilisation U, carried in 8 bits (Ben Basat et al., "PINT",
 * SIGCOMM 2020: per-packet aggregation, its congestion control use case;
 * Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019).
 *
 * HPCC's utilisation of a link of capacity B bytes/s, base RTT T:
 *
 *	U = qlen / (B * T) + txRate / B
 *
 * (queue in bandwidth-delay products plus the fraction of capacity used).
 * Here U is fixed point Q16 (65536 = 1.0), computed with integers only.
 *
 * 8-bit code, logarithmic (PINT's multiplicative compression, nearest rounding
 * in log scale):
 *
 *	code 0			U < 2^-7 (below 0.78 %; decodes to 0)
 *	code c in 1 .. 255	U = 2^(-7 + (c - 1) / 20)
 *
 * i.e. 20 codes per octave from 2^-7 to 2^5.7 (about 52); larger values
 * saturate at 255. Inside the range the decoded value is within a factor
 * 2^(1/40) * 2^(2^-13), about 1.0176, of the encoded Q16 value. The
 * encoding is monotone, so the maximum of the codes along the path is the
 * code of the maximum U: each hop keeps max(digest, its own code).
 *
 * Free of libc and floating point, safe to include from a BPF program; the
 * userspace decoder below is hidden from BPF builds (pint_util.c).
 */
#ifndef __HOPMARK_PINT_UTIL_H
#define __HOPMARK_PINT_UTIL_H

#include <linux/types.h>

/* U is carried as Q16 fixed point: PINT_UTIL_ONE == 1.0. */
#define PINT_UTIL_Q_SHIFT	16
#define PINT_UTIL_ONE		(1U << PINT_UTIL_Q_SHIFT)

/* Codes per octave of U, and log2 of the smallest nonzero code's value. */
#define PINT_UTIL_STEPS		20
#define PINT_UTIL_MIN_LOG2	(-7)
/* Smallest U with a nonzero code, Q16 (2^-7 = 512 / 65536). */
#define PINT_UTIL_MIN_Q16	(1U << (PINT_UTIL_Q_SHIFT + PINT_UTIL_MIN_LOG2))
#define PINT_UTIL_CODE_MAX	255U

/* Fraction bits of pint_util_log2_q16(). */
#define PINT_UTIL_LOG2_FRAC	16

/* Inputs above this many bytes are clamped (keeps x << 16 below 2^64). */
#define PINT_UTIL_MAX_BYTES	(1ULL << 47)

#define PINT_NS_PER_SEC		1000000000ULL

/**
 * pint_util_link_bytes() - bytes a link of @rate_bps sends in @ns
 * @rate_bps:	link capacity in bits per second
 * @ns:		duration in ns (a base RTT gives the bandwidth-delay product;
 *		a measurement interval gives the interval's capacity)
 *
 * Return: @rate_bps / 8 * @ns / 10^9 in bytes, rounded down; for very
 * large products (over 2^64) precision drops to 1000 bytes, never overflows.
 */
static inline __attribute__((always_inline)) __u64
pint_util_link_bytes(__u64 rate_bps, __u64 ns)
{
	__u64 rate_Bps = rate_bps >> 3;

	if (ns && rate_Bps > ~0ULL / ns) {
		if (rate_Bps / 1000 > ~0ULL / ns)
			return ~0ULL;
		return rate_Bps / 1000 * ns / (PINT_NS_PER_SEC / 1000);
	}
	return rate_Bps * ns / PINT_NS_PER_SEC;
}

/*
 * pint_util_ratio_q16() - @num / @den in Q16, saturated to 32 bits; 0 when
 * @den is 0 (the term is not configured).
 */
static inline __attribute__((always_inline)) __u64
pint_util_ratio_q16(__u64 num, __u64 den)
{
	__u64 q;

	if (!den)
		return 0;
	if (num > PINT_UTIL_MAX_BYTES)
		num = PINT_UTIL_MAX_BYTES;
	q = (num << PINT_UTIL_Q_SHIFT) / den;
	return q > 0xffffffffULL ? 0xffffffffULL : q;
}

/**
 * pint_util_q16() - HPCC's U of one link, Q16 fixed point
 * @qlen_bytes:	queue length at the egress port, bytes
 * @bdp_bytes:	bandwidth-delay product B * T, bytes (pint_util_link_bytes()
 *		of the link rate and the network's base RTT); 0: no queue term
 * @tx_bytes:	bytes sent on the link during the last interval
 * @cap_bytes:	bytes the link can send in that interval
 *		(pint_util_link_bytes() of the rate and the interval); 0: no
 *		rate term
 *
 * U = @qlen_bytes / @bdp_bytes + @tx_bytes / @cap_bytes (HPCC's definition).
 *
 * Return: U * 65536, saturated at 0xffffffff (U about 65536).
 */
static inline __attribute__((always_inline)) __u32
pint_util_q16(__u64 qlen_bytes, __u64 bdp_bytes, __u64 tx_bytes, __u64 cap_bytes)
{
	__u64 u = pint_util_ratio_q16(qlen_bytes, bdp_bytes) +
		  pint_util_ratio_q16(tx_bytes, cap_bytes);

	return u > 0xffffffffULL ? 0xffffffffU : (__u32)u;
}

/**
 * pint_util_log2_q16() - log2(@x) in fixed point, integers only
 * @x:		argument, > 0 (0 returns 0)
 *
 * Integer part from the top set bit, PINT_UTIL_LOG2_FRAC fraction bits by
 * repeated squaring of the Q31 mantissa. Monotone non-decreasing in @x;
 * below the exact log2 by less than 2^-14.
 *
 * Return: floor-ish log2(@x) * 2^16 (for @x as an integer, not Q16).
 */
static inline __attribute__((always_inline)) __u32 pint_util_log2_q16(__u32 x)
{
	__u64 y = x, s, m, bit;
	__u32 n = 0, frac = 0;
	int i;

	if (!x)
		return 0;
	/*
	 * Branch-free on purpose: with one branch per bit the BPF verifier
	 * walks every combination. s = 1 iff the upper part is nonzero.
	 */
	s = ((y >> 16) + 0xffff) >> 16;	n += s << 4; y >>= s << 4;
	s = ((y >> 8) + 0xff) >> 8;	n += s << 3; y >>= s << 3;
	s = ((y >> 4) + 0xf) >> 4;	n += s << 2; y >>= s << 2;
	s = ((y >> 2) + 0x3) >> 2;	n += s << 1; y >>= s << 1;
	n += y >> 1;
	/* Mantissa in [1, 2) as Q31: m / 2^31. */
	m = (__u64)x << (31 - n);
	for (i = 0; i < PINT_UTIL_LOG2_FRAC; i++) {
		/* m^2 < 2^64; the square is in [1, 4) as Q31. */
		m = (m * m) >> 31;
		bit = m >> 32;		/* 1 iff the square is >= 2 */
		m >>= bit;
		frac = frac << 1 | (__u32)bit;
	}
	return (n << PINT_UTIL_LOG2_FRAC) | frac;
}

/**
 * pint_util_encode() - U (Q16) to its 8-bit code
 * @u_q16:	utilisation, Q16 (pint_util_q16())
 *
 * code = 1 + round(20 * log2(U / 2^-7)) for U >= 2^-7, else 0; at most 255.
 *
 * Return: the code, 0 .. 255. Monotone non-decreasing in @u_q16.
 */
static inline __attribute__((always_inline)) __u8 pint_util_encode(__u32 u_q16)
{
	__u64 t;

	if (u_q16 < PINT_UTIL_MIN_Q16)
		return 0;
	/* log2 of the Q16 integer minus log2(PINT_UTIL_MIN_Q16) = 9. */
	t = pint_util_log2_q16(u_q16) -
	    ((__u64)(PINT_UTIL_Q_SHIFT + PINT_UTIL_MIN_LOG2) << PINT_UTIL_LOG2_FRAC);
	t = (t * PINT_UTIL_STEPS + (1U << (PINT_UTIL_LOG2_FRAC - 1))) >> PINT_UTIL_LOG2_FRAC;
	if (t >= PINT_UTIL_CODE_MAX)
		return PINT_UTIL_CODE_MAX;
	return (__u8)(1 + t);
}

/**
 * pint_util_path_max() - one hop's update of the per-packet digest
 * @digest:	the 8-bit digest the packet carries (0 at the source)
 * @u_q16:	this hop's egress link utilisation, Q16
 *
 * Return: the new digest, max(@digest, pint_util_encode(@u_q16)): at the
 * sink it is the code of the largest U on the path.
 */
static inline __attribute__((always_inline)) __u8
pint_util_path_max(__u8 digest, __u32 u_q16)
{
	__u8 code = pint_util_encode(u_q16);

	return code > digest ? code : digest;
}

#if !defined(__bpf__) && !defined(__BPF__)
/* Userspace (pint_util.c). */

/**
 * pint_util_decode() - 8-bit code to U
 * @code:	a code from pint_util_encode() or pint_util_path_max()
 *
 * Return: U as a fraction (1.0 = link full, no queue): 0 for code 0
 * (U below 2^-7), else 2^(-7 + (@code - 1) / 20).
 */
double pint_util_decode(__u8 code);

/**
 * pint_util_error_factor() - worst multiplicative error of a decoded U
 *
 * Return: the factor f such that decoded / U and U / decoded stay <= f for
 * every Q16 input U in [2^-7, 2^(-7 + 254 / 20)]: 2^(1/40 + 2^-13).
 */
double pint_util_error_factor(void);

/**
 * pint_util_q16_from_double() - U as a fraction to Q16
 * @u:		utilisation, >= 0
 *
 * Return: round(@u * 65536), saturated to 0 .. 0xffffffff (NaN gives 0).
 */
__u32 pint_util_q16_from_double(double u);
#endif /* !__bpf__ */

#endif /* __HOPMARK_PINT_UTIL_H */
