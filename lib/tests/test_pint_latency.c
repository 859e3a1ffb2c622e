// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pint_latency.c - PINT latency compression (lib/pint/pint_latency.h, .c):
 * for every code width 1..8 and several (eps, min_ns) scales, every code's
 * value range is swept: nearest rounding decodes within (1 + eps) and picks
 * the nearest code in log scale; randomized rounding stays within
 * (1 + eps)^2 on one of the two codes around the value, and is unbiased
 * over many packet IDs; out-of-range values saturate; the table refuses
 * bad parameters. Fixed seeds throughout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "hm_test.h"
#include "pint/pint_latency.h"

/* Floating-point slack of the checks (the table is built in double). */
#define REL_SLACK	1e-9

static __u32 hash32(__u32 x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

static double dec(const struct pint_lat_table *t, __u32 code)
{
	double ns = -1.0;

	assert_int_equal(pint_lat_decode(t, code, &ns), 0);
	return ns;
}

static double ratio(double a, double b)
{
	return a > b ? a / b : b / a;
}

static const struct scale {
	double eps;
	__u64 min_ns;
} scales[] = {
	{ 0.01, 100 }, { 0.05, 1 }, { 0.05, 1000 }, { 0.2, 10 }, { 1.0, 1000 }, { 0.005, 5000 },
};

/* Integers to try around one code: all of a small range, else 4001 spread. */
static __u64 sweep_value(__u64 lo, __u64 hi, unsigned int i, unsigned int *n)
{
	__u64 span = hi - lo;

	*n = span <= 4000 ? (unsigned int)span + 1 : 4001;
	return span <= 4000 ? lo + i : lo + span * i / 4000;
}

/* Every code of @t: its integers decode within (1 + eps), nearest in log scale. */
static unsigned long long check_nearest_table(const struct pint_lat_table *t)
{
	double f = pint_lat_error_factor(t, 0);
	unsigned long long checked = 0;
	__u32 c;

	assert_true(f == 1.0 + t->eps);
	for (c = 0; c < t->enc.ncodes; c++) {
		/* The integers whose value range belongs to code c. */
		double r = dec(t, c);
		__u64 lo = (__u64)(r / f) + 1, hi = (__u64)(r * f);
		unsigned int i, n = 1;

		if (lo < 1)
			lo = 1;
		if (hi < lo)
			continue;	/* no integer latency has this code */
		for (i = 0; i < n; i++) {
			__u64 v = sweep_value(lo, hi, i, &n);
			__u32 got = pint_lat_compress_nearest(&t->enc, v);
			double d = dec(t, got), err = ratio(d, v);

			if (err > f * (1 + REL_SLACK))
				fail_msg("b=%u eps=%g min=%.0f: %llu ns -> code %u = %.3f ns, "
					 "factor %.6f > %.6f", t->enc.bits, t->eps, t->min_ns,
					 (unsigned long long)v, got, d, err, f);
			/* Nearest in log scale: no neighbour is closer. */
			if (got > 0 && ratio(dec(t, got - 1), v) < err * (1 - REL_SLACK))
				fail_msg("%llu ns: code %u, code %u is nearer",
					 (unsigned long long)v, got, got - 1);
			if (got + 1 < t->enc.ncodes &&
			    ratio(dec(t, got + 1), v) < err * (1 - REL_SLACK))
				fail_msg("%llu ns: code %u, code %u is nearer",
					 (unsigned long long)v, got, got + 1);
			checked++;
		}
	}
	return checked;
}

static void pint_lat_nearest_within_1_plus_eps_every_code(void **state)
{
	unsigned int bits, si, checked_tables = 0;
	unsigned long long checked = 0;

	for (bits = 1; bits <= PINT_LAT_MAX_BITS; bits++)
		for (si = 0; si < sizeof(scales) / sizeof(scales[0]); si++) {
			struct pint_lat_table t;
			int err = pint_lat_table_init(&t, bits, scales[si].eps, scales[si].min_ns);

			if (err == -ERANGE)
				continue;	/* see pint_lat_table_refuses_bad_parameters */
			assert_int_equal(err, 0);
			checked += check_nearest_table(&t);
			checked_tables++;
		}
	printf("# nearest: %u tables, %llu values checked\n", checked_tables, checked);
	assert_true(checked_tables >= 30);
}

#define N_IDS		20000
#define SQRT_N_IDS	141.42

/*
 * @v (in code @c's bucket) over N_IDS packet IDs: always code c or c + 1,
 * within (1 + eps)^2, the same code for the same ID, and a mean within 6
 * standard errors (the spread is at most half the bucket) plus the
 * documented bias bound. Return: |mean - v| / v.
 */
static double check_randomized_value(const struct pint_lat_table *t, __u32 c, __u64 v,
				     __u32 salt)
{
	double lo = dec(t, c), hi = dec(t, c + 1), f2 = pint_lat_error_factor(t, 1);
	double sum = 0.0, mean, dev, tol;
	unsigned int pid, ups = 0;

	for (pid = 0; pid < N_IDS; pid++) {
		__u32 h = hash32(pid * 2654435761U + salt);
		__u32 got = pint_lat_compress(&t->enc, v, h);
		double d;

		assert_int_equal(pint_lat_compress(&t->enc, v, h), got);
		if (got != c && got != c + 1)
			fail_msg("b=%u %llu ns in [%.3f, %.3f): code %u, expected %u or %u",
				 t->enc.bits, (unsigned long long)v, lo, hi, got, c, c + 1);
		d = dec(t, got);
		if (ratio(d, v) > f2 * (1 + REL_SLACK))
			fail_msg("%llu ns -> %.3f ns: factor %.5f > %.5f",
				 (unsigned long long)v, d, ratio(d, v), f2);
		ups += got == c + 1;
		sum += d;
	}
	mean = sum / N_IDS;
	dev = mean > v ? mean - v : v - mean;
	tol = 6.0 * (hi - lo) * 0.5 / SQRT_N_IDS + (hi - lo) / 65536.0 + 1.0 / 512;
	if (dev > tol)
		fail_msg("b=%u eps=%g %llu ns: mean of decoded %.4f ns over %u IDs, "
			 "expected %llu +- %.4f (P(up) %.4f, expected %.4f)",
			 t->enc.bits, t->eps, (unsigned long long)v, mean, N_IDS,
			 (unsigned long long)v, tol, (double)ups / N_IDS,
			 ((double)v - lo) / (hi - lo));
	return dev / v;
}

static void pint_lat_randomized_within_bound_and_unbiased(void **state)
{
	static const unsigned int widths[] = { 4, 8 };
	unsigned int wi, si, j, values = 0;
	double worst_bias = 0.0;
	__u64 seed = 12345;

	for (wi = 0; wi < 2; wi++)
		for (si = 0; si < sizeof(scales) / sizeof(scales[0]); si++) {
			struct pint_lat_table t;

			if (pint_lat_table_init(&t, widths[wi], scales[si].eps, scales[si].min_ns))
				continue;
			/* 40 buckets drawn over the whole range, a point drawn in each. */
			for (j = 0; j < 40; j++) {
				__u32 c = (__u32)(hash32(seed++) % (t.enc.ncodes - 1));
				double lo = dec(&t, c), hi = dec(&t, c + 1), b;
				double at = (hash32(seed++) % 1000) / 1000.0;
				__u64 v = (__u64)(lo + (hi - lo) * at);

				if (v < lo)
					v = (__u64)lo + 1;
				if ((double)v >= hi)
					continue;	/* bucket narrower than 1 ns */
				b = check_randomized_value(&t, c, v, j);
				if (b > worst_bias)
					worst_bias = b;
				values++;
			}
		}
	printf("# randomized: %u values, worst relative |mean - true| over %u IDs: %.2e\n",
	       values, N_IDS, worst_bias);
	assert_true(values >= 300);
}

static void pint_lat_exact_on_representatives(void **state)
{
	struct pint_lat_table t;
	__u32 pid;

	/* min 1000, eps 1: R_c = 1000 * 4^c, integers: no coin on them. */
	assert_int_equal(pint_lat_table_init(&t, 4, 1.0, 1000), 0);
	for (pid = 0; pid < 1000; pid++) {
		assert_int_equal(pint_lat_compress(&t.enc, 1000, hash32(pid)), 0);
		assert_int_equal(pint_lat_compress(&t.enc, 4000, hash32(pid)), 1);
		assert_int_equal(pint_lat_compress(&t.enc, 16000, hash32(pid)), 2);
	}
	assert_int_equal(pint_lat_compress_nearest(&t.enc, 1999), 0);	/* < 1000 * 2 */
	assert_int_equal(pint_lat_compress_nearest(&t.enc, 2000), 1);	/* midpoint */
	assert_int_equal(pint_lat_compress_nearest(&t.enc, 7999), 1);
	assert_int_equal(pint_lat_compress_nearest(&t.enc, 8000), 2);
}

static void pint_lat_saturates_out_of_range(void **state)
{
	struct pint_lat_table t;
	unsigned int bits;

	for (bits = 1; bits <= PINT_LAT_MAX_BITS; bits++) {
		__u32 top = (1U << bits) - 1, pid;

		assert_int_equal(pint_lat_table_for_range(&t, bits, 1000, 1000000000ULL), 0);
		assert_int_equal(t.enc.ncodes, 1U << bits);
		assert_true(ratio(t.max_ns, 1e9) < 1 + 1e-9);
		assert_true(t.min_ns == 1000.0);
		assert_int_equal(pint_lat_compress_nearest(&t.enc, 0), 0);
		assert_int_equal(pint_lat_compress_nearest(&t.enc, 1), 0);
		assert_int_equal(pint_lat_compress_nearest(&t.enc, ~0ULL), top);
		assert_int_equal(pint_lat_compress_nearest(&t.enc, PINT_LAT_MAX_NS + 1), top);
		for (pid = 0; pid < 100; pid++) {
			assert_int_equal(pint_lat_compress(&t.enc, 0, hash32(pid)), 0);
			assert_int_equal(pint_lat_compress(&t.enc, 999, hash32(pid)), 0);
			assert_int_equal(pint_lat_compress(&t.enc, 1000000001, hash32(pid)), top);
			assert_int_equal(pint_lat_compress(&t.enc, ~0ULL, hash32(pid)), top);
		}
		/* Codes are monotone in the value for nearest rounding. */
		{
			__u32 prev = 0;
			__u64 v;

			for (v = 1; v < 2000000000ULL; v += v / 97 + 1) {
				__u32 c = pint_lat_compress_nearest(&t.enc, v);

				assert_true(c >= prev);
				prev = c;
			}
		}
	}
	/* Largest scale the limit allows: 8 bits up to 2^40 - 1 ns. */
	assert_int_equal(pint_lat_table_for_range(&t, 8, 1, PINT_LAT_MAX_NS), 0);
	assert_true(t.max_ns <= (double)PINT_LAT_MAX_NS);
	assert_int_equal(pint_lat_compress_nearest(&t.enc, PINT_LAT_MAX_NS), 255);
	assert_int_equal(pint_lat_compress(&t.enc, PINT_LAT_MAX_NS, 7), 255);
}

static void pint_lat_table_refuses_bad_parameters(void **state)
{
	struct pint_lat_table t;
	double ns;

	assert_int_equal(pint_lat_table_init(&t, 0, 0.1, 100), -EINVAL);
	assert_int_equal(pint_lat_table_init(&t, PINT_LAT_MAX_BITS + 1, 0.1, 100), -EINVAL);
	assert_int_equal(pint_lat_table_init(&t, 4, 0.0, 100), -EINVAL);
	assert_int_equal(pint_lat_table_init(&t, 4, -0.1, 100), -EINVAL);
	assert_int_equal(pint_lat_table_init(&t, 4, __builtin_nan(""), 100), -EINVAL);
	assert_int_equal(pint_lat_table_init(&t, 4, __builtin_inf(), 100), -EINVAL);
	assert_int_equal(pint_lat_table_init(&t, 1, PINT_LAT_EPS_MAX * 2, 1), -EINVAL);
	assert_int_equal(pint_lat_table_init(&t, 4, 0.1, 0), -EINVAL);
	/* 8 bits, eps 1: 4^255 is far past 2^40 ns. */
	assert_int_equal(pint_lat_table_init(&t, 8, 1.0, 1), -ERANGE);
	assert_int_equal(pint_lat_table_for_range(&t, 4, 100, 100), -EINVAL);
	assert_int_equal(pint_lat_table_for_range(&t, 4, 0, 100), -EINVAL);
	assert_int_equal(pint_lat_table_for_range(&t, 4, 1, PINT_LAT_MAX_NS + 1), -EINVAL);
	assert_int_equal(pint_lat_table_init(&t, 4, 0.1, 100), 0);
	assert_int_equal(pint_lat_decode(&t, 16, &ns), -ERANGE);
	assert_int_equal(pint_lat_decode(&t, 15, &ns), 0);
	/* Padding past 2^b codes is never reached by the search. */
	assert_true(t.enc.thr_ns[16] == PINT_LAT_PAD && t.enc.rep_fp[255] == PINT_LAT_PAD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pint_lat_nearest_within_1_plus_eps_every_code),
		cmocka_unit_test(pint_lat_randomized_within_bound_and_unbiased),
		cmocka_unit_test(pint_lat_exact_on_representatives),
		cmocka_unit_test(pint_lat_saturates_out_of_range),
		cmocka_unit_test(pint_lat_table_refuses_bad_parameters),
	};

	return HM_RUN_TESTS(tests);
}
