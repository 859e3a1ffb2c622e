/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_latency.h - PINT dynamic per-flow aggregation: a latency in
 * nanoseconds compressed to a b-bit code (Ben Basat et al., "PINT:
 * Probabilistic In-band Network Telemetry", SIGCOMM 2020: dynamic per-flow
 * aggregation with multiplicative value compression), shared by the BPF
 * datapath, libhopmark and the tests.
 *
 * Scale: code c stands for the value R_c = min_ns * (1 + eps)^(2c),
 * c = 0 .. 2^b - 1, a logarithmic scale of base (1 + eps)^2. Two ways to
 * choose the code of a measured latency v:
 *
 *   nearest      c = the code whose R_c is nearest to v in log scale; the
 *                decoded R_c is within a factor (1 + eps) of v
 *                (R_c / (1 + eps) <= v < R_c * (1 + eps)) for
 *                R_0 / (1 + eps) <= v <= R_max * (1 + eps).
 *   randomized   v in [R_c, R_c+1) becomes c + 1 with probability
 *                (v - R_c) / (R_c+1 - R_c), else c: the decoded value is
 *                unbiased (its expectation is v, up to 2^-16 of the bucket
 *                width), and within a factor (1 + eps)^2 of v. The coin is
 *                a hash of the packet ID, so every run of the same packets
 *                gives the same codes.
 *
 * Values below R_0 encode as code 0 and values above R_max as the top
 * code (saturation; the caller counts them if it wants to).
 *
 * The BPF side holds no floating point: userspace fills a struct
 * pint_lat_enc (integer thresholds, pint_lat_table_init() in
 * pint_latency.c) and the datapath keeps it in a map; encoding is a binary
 * search of PINT_LAT_MAX_BITS steps over it. Decoding (code -> ns) runs in
 * userspace only. This file is free of libc and safe to include from a BPF
 * program; the userspace part below is hidden from BPF builds.
 */
#ifndef __HOPMARK_PINT_LATENCY_H
#define __HOPMARK_PINT_LATENCY_H

#include <linux/types.h>

/* Largest code width b, in bits; the table holds 2^b entries. */
#define PINT_LAT_MAX_BITS	8
#define PINT_LAT_MAX_CODES	(1U << PINT_LAT_MAX_BITS)

/* Representatives are kept in ns << PINT_LAT_FP_SHIFT (1/256 ns units). */
#define PINT_LAT_FP_SHIFT	8

/*
 * Largest latency the encoder takes, in ns (2^40 - 1 ns, about 1100 s);
 * larger inputs are clamped to it. Together with PINT_LAT_FP_SHIFT and the
 * 16 bits of the rounding coin, this keeps every product below 2^64.
 */
#define PINT_LAT_MAX_NS		((1ULL << 40) - 1)

/* Largest eps of a scale (1 bit covering 1 us .. 1 s needs eps = 999). */
#define PINT_LAT_EPS_MAX	1048576.0

/* Bits of the randomized rounding coin (probability resolution 2^-16). */
#define PINT_LAT_COIN_BITS	16

/* Salt of the coin's remix, so it does not repeat other uses of the hash. */
#define PINT_LAT_COIN_SALT	0x9e3779b9U

/*
 * An entry no input reaches (inputs stay below 2^48 in either unit): pads
 * thr_ns[] and rep_fp[] past 2^b codes. Below 2^63 so that the search can
 * compare by the sign of a difference.
 */
#define PINT_LAT_PAD		(1ULL << 62)

/**
 * struct pint_lat_enc - integer encoder table (BPF map value layout)
 * @bits:	code width b in bits, 1 .. PINT_LAT_MAX_BITS
 * @ncodes:	number of codes, 2^@bits
 * @thr_ns:	nearest rounding: @thr_ns[0] = 0 and, for c >= 1,
 *		@thr_ns[c] = ceil(R_(c-1) * (1 + eps)) in ns, the smallest
 *		integer latency whose nearest code (in log scale) is >= c.
 *		Non-decreasing; entries c >= @ncodes are PINT_LAT_PAD.
 * @rep_fp:	randomized rounding: @rep_fp[c] = R_c in ns << PINT_LAT_FP_SHIFT,
 *		rounded to nearest. Non-decreasing; entries c >= @ncodes are
 *		PINT_LAT_PAD.
 *
 * Host byte order: it is written by userspace and read by BPF on the
 * same host. Size: 8 + 2 * 8 * PINT_LAT_MAX_CODES = 4104 bytes.
 */
struct pint_lat_enc {
	__u32 bits;
	__u32 ncodes;
	__u64 thr_ns[PINT_LAT_MAX_CODES];
	__u64 rep_fp[PINT_LAT_MAX_CODES];
};

/*
 * pint_lat_index() - @i masked to a table index in a way the compiler
 * cannot drop: clang knows the mask is redundant, the BPF verifier of
 * Linux 6.1 does not and refuses the access without it.
 */
static inline __attribute__((always_inline)) __u32 pint_lat_index(__u32 i)
{
	asm volatile("" : "+r"(i));
	return i & (PINT_LAT_MAX_CODES - 1);
}

/*
 * pint_lat_search() - largest c with @arr[c] <= @x, or 0 if none.
 * @arr is non-decreasing and padded with PINT_LAT_PAD to PINT_LAT_MAX_CODES
 * entries, so the search needs no length; a fixed PINT_LAT_MAX_BITS
 * iterations, every index masked for the verifier, and no branch (the BPF
 * verifier would otherwise walk all 2^PINT_LAT_MAX_BITS outcomes): every
 * value is below 2^63, so bit 63 of x - arr[n] says x < arr[n].
 */
static inline __attribute__((always_inline)) __u32
pint_lat_search(const __u64 *arr, __u64 x)
{
	__u32 c = 0;
	int k;

	for (k = PINT_LAT_MAX_BITS - 1; k >= 0; k--) {
		__u32 n = c | (1U << k);
		__u64 le;

		n = pint_lat_index(n);
		le = ((x - arr[n]) >> 63) ^ 1;	/* arr[n] <= x */
		c |= (__u32)le << k;
	}
	return pint_lat_index(c);
}

/*
 * pint_lat_coin() - 16-bit rounding coin from a packet-ID hash: murmur3's
 * 32-bit finaliser over (@pid_hash ^ PINT_LAT_COIN_SALT), low 16 bits.
 */
static inline __attribute__((always_inline)) __u32 pint_lat_coin(__u32 pid_hash)
{
	__u32 h = pid_hash ^ PINT_LAT_COIN_SALT;

	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h & ((1U << PINT_LAT_COIN_BITS) - 1);
}

/**
 * pint_lat_compress_nearest() - latency to its nearest code (log scale)
 * @enc:	encoder table filled by pint_lat_table_init()
 * @ns:		latency in ns; above PINT_LAT_MAX_NS it is clamped
 *
 * Deterministic: the decoded value is within a factor (1 + eps) of @ns
 * inside the table's range (PINT's compression, base (1 + eps)^2).
 *
 * Return: the code, 0 .. @enc->ncodes - 1 (0 below the range, the top code
 * above it).
 */
static inline __attribute__((always_inline)) __u32
pint_lat_compress_nearest(const struct pint_lat_enc *enc, __u64 ns)
{
	if (ns > PINT_LAT_MAX_NS)
		ns = PINT_LAT_MAX_NS;
	return pint_lat_search(enc->thr_ns, ns);
}

/**
 * pint_lat_compress() - latency to a code with randomized rounding
 * @enc:	encoder table filled by pint_lat_table_init()
 * @ns:		latency in ns; above PINT_LAT_MAX_NS it is clamped
 * @pid_hash:	32-bit hash of the packet ID (and hop), the same at every run;
 *		it is remixed with a salt before use, so it may be a hash that
 *		also decides other things (e.g. pint_hash.h's act hash).
 *
 * For R_c <= @ns < R_(c+1) the result is c + 1 with probability
 * ceil(2^16 * (@ns - R_c) / (R_(c+1) - R_c)) / 2^16, else c: over packet
 * IDs the decoded value's expectation is @ns (bias below 2^-16 of the
 * bucket width plus 2^-9 ns), and each decoded value is within a factor
 * (1 + eps)^2 of @ns. Below R_0: 0; at or above the top value: the top code.
 *
 * Return: the code, 0 .. @enc->ncodes - 1.
 */
static inline __attribute__((always_inline)) __u32
pint_lat_compress(const struct pint_lat_enc *enc, __u64 ns, __u32 pid_hash)
{
	__u64 x, lo, hi, w, d, coin;
	__u32 c, up;

	if (ns > PINT_LAT_MAX_NS)
		ns = PINT_LAT_MAX_NS;
	x = ns << PINT_LAT_FP_SHIFT;
	c = pint_lat_search(enc->rep_fp, x);
	up = pint_lat_index(c + 1);
	if (c + 1 >= enc->ncodes || up == 0)
		return c;
	lo = enc->rep_fp[c];
	hi = enc->rep_fp[up];
	/* Below R_0 (c == 0, x < lo) or exactly on R_c: no coin. */
	if (x <= lo || hi <= lo)
		return c;
	w = hi - lo;			/* < 2^48: R < 2^40 ns, 8 fraction bits */
	d = x - lo;			/* 0 < d < w */
	coin = pint_lat_coin(pid_hash);	/* uniform in [0, 2^16) */
	return coin * w < (d << PINT_LAT_COIN_BITS) ? up : c;
}

#if !defined(__bpf__) && !defined(__BPF__)
/* Userspace: table generation and decoding (pint_latency.c). */

/**
 * struct pint_lat_table - a latency scale and its encoder table
 * @enc:	the integer part handed to BPF (copy it into the map value)
 * @eps:	the scale's eps: base (1 + @eps)^2, nearest-rounding error
 *		factor (1 + @eps)
 * @min_ns:	R_0, the smallest representable latency, in ns
 * @max_ns:	R_(ncodes-1), the largest representable latency, in ns
 * @rep_ns:	R_c for every code c < @enc.ncodes, in ns, what
 *		pint_lat_decode() returns
 */
struct pint_lat_table {
	struct pint_lat_enc enc;
	double eps;
	double min_ns;
	double max_ns;
	double rep_ns[PINT_LAT_MAX_CODES];
};

/**
 * pint_lat_table_init() - build the scale R_c = @min_ns * (1 + @eps)^(2c)
 * @t:		table to fill
 * @bits:	code width b, 1 .. PINT_LAT_MAX_BITS
 * @eps:	relative error of nearest rounding, 0 < @eps <= PINT_LAT_EPS_MAX
 * @min_ns:	R_0 in ns, >= 1
 *
 * Return: 0; -EINVAL for a parameter out of range; -ERANGE if the top value
 * R_(2^b - 1) exceeds PINT_LAT_MAX_NS (use a smaller @eps or @min_ns).
 */
int pint_lat_table_init(struct pint_lat_table *t, unsigned int bits, double eps,
			__u64 min_ns);

/**
 * pint_lat_table_for_range() - the finest scale of @bits bits covering a range
 * @t:		table to fill
 * @bits:	code width b, 1 .. PINT_LAT_MAX_BITS
 * @min_ns:	smallest latency to represent (R_0), in ns, >= 1
 * @max_ns:	largest latency to represent, in ns, > @min_ns and
 *		<= PINT_LAT_MAX_NS
 *
 * Picks eps = (@max_ns / @min_ns)^(1 / (2 (2^b - 1))) - 1, so that the top
 * value is @max_ns.
 *
 * Return: 0, -EINVAL or -ERANGE as pint_lat_table_init().
 */
int pint_lat_table_for_range(struct pint_lat_table *t, unsigned int bits,
			     __u64 min_ns, __u64 max_ns);

/**
 * pint_lat_decode() - code to latency
 * @t:		the table the code was made with
 * @code:	a code from pint_lat_compress() or pint_lat_compress_nearest()
 * @ns:		the decoded latency R_@code, in ns
 *
 * Return: 0, or -ERANGE if @code >= 2^b (not a code of this table).
 */
int pint_lat_decode(const struct pint_lat_table *t, __u32 code, double *ns);

/**
 * pint_lat_error_factor() - worst multiplicative error of one decoded value
 * @t:		table
 * @randomized:	true for pint_lat_compress(), false for the nearest rounding
 *
 * Return: (1 + eps) for nearest rounding, (1 + eps)^2 for randomized
 * rounding: decoded / true and true / decoded never exceed it inside
 * [R_0, R_max].
 */
double pint_lat_error_factor(const struct pint_lat_table *t, int randomized);

struct kll_sketch;

/**
 * pint_lat_quantile_interp() - a quantile from nearest-rounded samples,
 * interpolated inside the code's value range
 * @t:		the table the samples were encoded with
 * @sk:		KLL sketch (kll.h) of the decoded values of
 *		pint_lat_compress_nearest() codes
 * @q:		rank as a fraction in [0, 1]
 * @ns:		the estimate, in ns
 *
 * The sketch's rank at R_c estimates how many latencies lay below code c's
 * upper boundary R_c (1 + eps). The quantile falls in the first code c
 * whose rank reaches @q n; instead of R_c it returns the point of
 * [R_c / (1 + eps), R_c (1 + eps)] found by log-linear interpolation of the
 * ranks at both boundaries, R_c (1 + eps)^(2f - 1) with f the fraction of
 * the way. Codes 0 and the top code (clamped values) give R_c.
 *
 * Return: 0; -EINVAL if @q is outside [0, 1]; -ENOENT if @sk is empty.
 */
int pint_lat_quantile_interp(const struct pint_lat_table *t, const struct kll_sketch *sk,
			     double q, double *ns);
#endif /* !__bpf__ */

#endif /* __HOPMARK_PINT_LATENCY_H */
