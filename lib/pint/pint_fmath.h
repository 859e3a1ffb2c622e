/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_fmath.h - the few floating-point functions the PINT userspace code
 * needs (ln, exp, pow, sqrt, ceil, round), written out so that libhopmark
 * and every program linking it need no -lm (HM_LDLIBS has none).
 *
 * Accuracy: a few units in the last place (relative error below 1e-15) for
 * finite positive arguments in the ranges the callers use (1e-300 .. 1e300);
 * none of them sets errno. Private to lib/: not part of the libhopmark API.
 */
#ifndef __HOPMARK_PINT_FMATH_H
#define __HOPMARK_PINT_FMATH_H

#include <string.h>
#include <linux/types.h>

#define PINT_FM_LN2	0.69314718055994530941723212145818
/* ln 2 split so that n * PINT_FM_LN2_HI is exact (Cody and Waite). */
#define PINT_FM_LN2_HI	6.93147180369123816490e-01
#define PINT_FM_LN2_LO	1.90821492927058770002e-10

/* 2^@e as a double, for -1022 <= @e <= 1023. */
static inline double pint_fm_pow2i(int e)
{
	__u64 b = (__u64)(e + 1023) << 52;
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

/* Natural log of a normal, positive, finite @x. */
static inline double pint_fm_ln(double x)
{
	double m, s, s2, term, sum;
	__u64 b;
	int e, i;

	memcpy(&b, &x, sizeof(b));
	e = (int)((b >> 52) & 0x7ff) - 1023;
	b = (b & ((1ULL << 52) - 1)) | (1023ULL << 52);
	memcpy(&m, &b, sizeof(m));		/* m in [1, 2) */
	if (m > 1.4142135623730951) {
		m *= 0.5;
		e++;
	}
	/* ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172 */
	s = (m - 1.0) / (m + 1.0);
	s2 = s * s;
	term = s;
	sum = 0.0;
	for (i = 1; i < 40; i += 2) {
		sum += term / i;
		term *= s2;
	}
	return e * PINT_FM_LN2 + 2.0 * sum;
}

/* e^@x for -700 < @x < 700. */
static inline double pint_fm_exp(double x)
{
	double r, term, sum;
	int n, i;

	n = (int)(x / PINT_FM_LN2 + (x >= 0 ? 0.5 : -0.5));
	r = (x - n * PINT_FM_LN2_HI) - n * PINT_FM_LN2_LO;	/* |r| <= ln2 / 2 */
	term = 1.0;
	sum = 1.0;
	for (i = 1; i < 24; i++) {
		term *= r / i;
		sum += term;
	}
	/* 2^n in two steps, so n near the ends of the range stays finite. */
	return sum * pint_fm_pow2i(n / 2) * pint_fm_pow2i(n - n / 2);
}

/* @x^@n by squaring: exact when every partial product is representable. */
static inline double pint_fm_powi(double x, unsigned int n)
{
	double r = 1.0;

	while (n) {
		if (n & 1)
			r *= x;
		x *= x;
		n >>= 1;
	}
	return r;
}

/* @x^@y for @x > 0. */
static inline double pint_fm_pow(double x, double y)
{
	return pint_fm_exp(y * pint_fm_ln(x));
}

/* Square root of @x >= 0 (Newton from exp(ln(x) / 2)). */
static inline double pint_fm_sqrt(double x)
{
	double y;

	if (!(x > 0.0))
		return 0.0;
	y = pint_fm_exp(0.5 * pint_fm_ln(x));
	y = 0.5 * (y + x / y);
	return 0.5 * (y + x / y);
}

/* ceil(@x) for 0 <= @x < 2^63. */
static inline __u64 pint_fm_ceil(double x)
{
	__u64 t = (__u64)x;

	return (double)t < x ? t + 1 : t;
}

/* @x rounded to nearest (halves up) for 0 <= @x < 2^63. */
static inline __u64 pint_fm_round(double x)
{
	return (__u64)(x + 0.5);
}

#endif /* __HOPMARK_PINT_FMATH_H */
