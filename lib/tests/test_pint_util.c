// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pint_util.c - PINT's path-maximum link utilisation (lib/pint/pint_util.h,
 * .c): the integer log2 against the exact one, every Q16 value of the
 * 8-bit code's range decoded within pint_util_error_factor() and encoded
 * monotonically, saturation, HPCC's U in Q16 against the formula in
 * double, and the per-hop max over thousands of random paths.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "hm_test.h"
#include "pint/pint_fmath.h"
#include "pint/pint_util.h"

static __u64 rnd_next(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double log2_exact(double x)
{
	return pint_fm_ln(x) / PINT_FM_LN2;
}

static void pint_util_log2_q16_below_exact_by_less_than_2_pow_minus_14(void **state)
{
	__u64 s = 7;
	__u32 x, prev = 0;
	unsigned int i;

	assert_int_equal(pint_util_log2_q16(0), 0);
	assert_int_equal(pint_util_log2_q16(1), 0);
	assert_int_equal(pint_util_log2_q16(2), 1 << 16);
	assert_int_equal(pint_util_log2_q16(0x80000000U), 31 << 16);
	for (i = 0; i < 2000000; i++) {
		double ex, got;

		x = i < 1000000 ? i + 1 : (__u32)rnd_next(&s) | 1;
		ex = log2_exact(x) * 65536.0;
		got = pint_util_log2_q16(x);
		if (got > ex + 1e-6 || ex - got >= 4.0)
			fail_msg("log2(%u): exact %.4f / 2^16, observed %.0f", x, ex, got);
		if (i < 1000000) {
			/* Monotone over the first million integers. */
			assert_true(pint_util_log2_q16(x) >= prev);
			prev = pint_util_log2_q16(x);
		}
	}
	assert_int_equal(pint_util_log2_q16(0xffffffffU) >> 16, 31);
}

static void pint_util_every_q16_value_decodes_within_factor(void **state)
{
	double f = pint_util_error_factor(), worst = 1.0;
	/* Top of the range: half a step above the top code's value. */
	__u32 top = (__u32)(pint_util_decode(255) * pint_fm_sqrt(pint_util_decode(2) /
								 pint_util_decode(1)) *
			    PINT_UTIL_ONE);
	__u8 prev = 0;
	__u32 u;

	assert_true(f < 1.0177 && f > 1.0173);
	for (u = 0; u <= top + 1000; u++) {
		__u8 c = pint_util_encode(u);
		double val = (double)u / PINT_UTIL_ONE, d = pint_util_decode(c), r;

		if (c < prev)
			fail_msg("not monotone: U %u/65536 -> %u after %u", u, c, prev);
		prev = c;
		if (u < PINT_UTIL_MIN_Q16) {
			if (c)
				fail_msg("U %u/65536 below 2^-7: code %u, expected 0", u, c);
			continue;
		}
		if (u > top)
			continue;
		r = d > val ? d / val : val / d;
		if (r > f)
			fail_msg("U %.6f -> code %u = %.6f: factor %.6f > %.6f", val, c, d, r, f);
		if (r > worst)
			worst = r;
	}
	assert_int_equal(prev, 255);
	assert_int_equal(pint_util_encode(0xffffffffU), 255);
	assert_int_equal(pint_util_encode(PINT_UTIL_MIN_Q16), 1);
	assert_int_equal(pint_util_encode(PINT_UTIL_ONE), 1 + 7 * PINT_UTIL_STEPS);
	assert_true(pint_util_decode(0) == 0.0);
	assert_true(pint_util_decode(1 + 7 * PINT_UTIL_STEPS) > 0.9999999 &&
		    pint_util_decode(1 + 7 * PINT_UTIL_STEPS) < 1.0000001);
	printf("# U in [2^-7, %.2f]: worst factor %.6f (bound %.6f)\n", top / 65536.0, worst, f);
}

static void pint_util_q16_matches_hpcc_formula(void **state)
{
	__u64 s = 99;
	unsigned int i;

	/* 100 Gb/s: 125000 bytes in 10 us; 12.5 MB in 1 ms. */
	assert_int_equal(pint_util_link_bytes(100000000000ULL, 10000), 125000);
	assert_int_equal(pint_util_link_bytes(100000000000ULL, 1000000), 12500000);
	assert_int_equal(pint_util_link_bytes(0, 1000), 0);
	/* No overflow: 2^63 b/s for 2^40 ns. */
	assert_true(pint_util_link_bytes(1ULL << 63, 1ULL << 40) > (1ULL << 60));
	assert_true(pint_util_link_bytes(~0ULL, ~0ULL) == ~0ULL);
	/* One BDP of queue and a full link: U = 2. */
	assert_int_equal(pint_util_q16(125000, 125000, 12500000, 12500000), 2 * PINT_UTIL_ONE);
	/* Unconfigured terms count 0; saturation at 2^32 - 1. */
	assert_int_equal(pint_util_q16(1000, 0, 500, 1000), PINT_UTIL_ONE / 2);
	assert_int_equal(pint_util_q16(1000, 1000, 500, 0), PINT_UTIL_ONE);
	assert_int_equal(pint_util_q16(~0ULL, 1, ~0ULL, 1), 0xffffffffU);
	for (i = 0; i < 100000; i++) {
		__u64 bdp = rnd_next(&s) % 100000000 + 1, cap = rnd_next(&s) % 100000000 + 1;
		__u64 q = rnd_next(&s) % (4 * bdp), tx = rnd_next(&s) % (cap + 1);
		double ex = ((double)q / bdp + (double)tx / cap) * PINT_UTIL_ONE;
		__u32 got = pint_util_q16(q, bdp, tx, cap);

		/* Two truncated divisions: at most 2 below, never above. */
		if (got > ex + 1e-6 || ex - got >= 2.0)
			fail_msg("U(q %llu, bdp %llu, tx %llu, cap %llu): expected %.3f, observed %u",
				 (unsigned long long)q, (unsigned long long)bdp,
				 (unsigned long long)tx, (unsigned long long)cap, ex, got);
	}
}

static void pint_util_path_max_is_code_of_max(void **state)
{
	double f = pint_util_error_factor();
	__u64 s = 2024;
	unsigned int p;

	for (p = 0; p < 20000; p++) {
		unsigned int hops = 1 + rnd_next(&s) % 64, h;
		__u32 umax = 0;
		__u8 digest = 0;

		for (h = 0; h < hops; h++) {
			/* Log-uniform over 2^-9 .. 2^6, so codes 0 and 255 occur too. */
			__u32 u = (__u32)(pint_fm_pow(2.0, -9.0 + 15.0 * (rnd_next(&s) >> 11) /
							 (double)(1ULL << 53)) * PINT_UTIL_ONE);

			digest = pint_util_path_max(digest, u);
			if (u > umax)
				umax = u;
		}
		if (digest != pint_util_encode(umax))
			fail_msg("path of %u hops: digest %u, code of the max U (%u/65536) %u",
				 hops, digest, umax, pint_util_encode(umax));
		if (umax >= PINT_UTIL_MIN_Q16 && digest < 255) {
			double d = pint_util_decode(digest), v = (double)umax / PINT_UTIL_ONE;

			assert_true((d > v ? d / v : v / d) <= f);
		}
	}
	assert_int_equal(pint_util_q16_from_double(1.0), PINT_UTIL_ONE);
	assert_int_equal(pint_util_q16_from_double(-1.0), 0);
	assert_int_equal(pint_util_q16_from_double(__builtin_nan("")), 0);
	assert_int_equal(pint_util_q16_from_double(1e12), 0xffffffffU);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pint_util_log2_q16_below_exact_by_less_than_2_pow_minus_14),
		cmocka_unit_test(pint_util_every_q16_value_decodes_within_factor),
		cmocka_unit_test(pint_util_q16_matches_hpcc_formula),
		cmocka_unit_test(pint_util_path_max_is_code_of_max),
	};

	return HM_RUN_TESTS(tests);
}
