// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_kll.c - the KLL sketch (lib/pint/kll.c) against exact ranks: rank error
 * within the sketch's own Hoeffding bound (and that bound within the a
 * priori one) over sorted, reversed, random, duplicate-heavy and
 * alternating streams; quantile answers; retained items within the memory
 * bound; merge of several sketches; serialise round trip and the
 * deserialiser's refusals. Every stream comes from a fixed seed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "hm_test.h"
#include "pint/kll.h"

/* Per-query failure probability of the checked bound. */
#define DELTA	1e-6

static __u64 rnd_next(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

enum stream_kind { S_SORTED, S_REVERSED, S_RANDOM, S_DUPLICATES, S_ALTERNATING, S_KINDS };
static const char *const kind_name[S_KINDS] = {
	"sorted", "reversed", "random", "duplicates", "alternating",
};

static double *make_stream(enum stream_kind kind, size_t n, __u64 seed)
{
	double *v = malloc(n * sizeof(*v));
	size_t i;

	assert_non_null(v);
	for (i = 0; i < n; i++) {
		switch (kind) {
		case S_SORTED:
			v[i] = i;
			break;
		case S_REVERSED:
			v[i] = n - i;
			break;
		case S_RANDOM:
			v[i] = (double)(rnd_next(&seed) >> 11) / (double)(1ULL << 53) * 1e6;
			break;
		case S_DUPLICATES:
			v[i] = rnd_next(&seed) % 10;
			break;
		case S_ALTERNATING:
			/* Zoom in from both ends: 0, n, 1, n-1, ... */
			v[i] = (i & 1) ? (double)(n - i / 2) : (double)(i / 2);
			break;
		default:
			fail();
		}
	}
	return v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Items of sorted @s (length @n) that are <= @x (le) or < @x (!le). */
static size_t exact_count(const double *s, size_t n, double x, int le)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (le ? s[mid] <= x : s[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Check every rank and quantile answer of @sk against the sorted stream
 * @s; return the worst observed error divided by the bound (for the log).
 */
static double check_against_exact(const char *what, const struct kll_sketch *sk,
				  const double *s, size_t n)
{
	static const double qs[] = { 0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0 };
	double t = kll_rank_error_bound(sk, DELTA);
	double out[sizeof(qs) / sizeof(qs[0])];
	double worst = 0.0;
	size_t j, nq = sizeof(qs) / sizeof(qs[0]);

	assert_int_equal(kll_count(sk), n);
	if (t > kll_rank_error_apriori(kll_get_k(sk), DELTA) * n)
		fail_msg("%s: bound from the counts %.1f above the a priori bound %.1f",
			 what, t, kll_rank_error_apriori(kll_get_k(sk), DELTA) * n);
	for (j = 0; j <= 200; j++) {
		double x = j < 200 ? s[j * n / 200] : s[n - 1] + 1.0;
		double est = kll_rank(sk, x), ex = exact_count(s, n, x, 1);
		double err = est > ex ? est - ex : ex - est;

		if (err > t)
			fail_msg("%s: rank(%g): expected %.0f +- %.1f, observed %.0f",
				 what, x, ex, t, est);
		if (t > 0 && err / t > worst)
			worst = err / t;
		if (t == 0 && err != 0)
			fail_msg("%s: exact sketch, rank(%g) %.0f != %.0f", what, x, est, ex);
	}
	assert_int_equal(kll_rank(sk, s[0] - 1.0), 0);
	assert_int_equal(kll_quantiles(sk, qs, nq, out), 0);
	for (j = 0; j < nq; j++) {
		double target = qs[j] * n;
		double lt = exact_count(s, n, out[j], 0), le = exact_count(s, n, out[j], 1);

		if (!(lt < target + t + 1e-9 && le >= target - t - 1e-9))
			fail_msg("%s: quantile %.2f = %g has true ranks [%.0f, %.0f], "
				 "expected to meet [%.1f, %.1f]", what, qs[j], out[j], lt, le,
				 target - t, target + t);
	}
	return worst;
}

/* One stream through one sketch; updates *@worst and *@worst_norm. */
static void run_stream(enum stream_kind kind, unsigned int k, size_t n, unsigned int seed,
		       double *worst, double *worst_norm)
{
	double *v = make_stream(kind, n, seed * 7919);
	struct kll_sketch *sk = kll_new(k, seed);
	char what[96];
	double w, t;
	size_t i;

	assert_non_null(sk);
	for (i = 0; i < n; i++)
		assert_int_equal(kll_update(sk, v[i]), 0);
	qsort(v, n, sizeof(*v), cmp_double);
	snprintf(what, sizeof(what), "%s k=%u n=%zu seed=%u", kind_name[kind], k, n, seed);
	w = check_against_exact(what, sk, v, n);
	t = kll_rank_error_bound(sk, DELTA);
	if (w > *worst)
		*worst = w;
	if (t / n * w > *worst_norm)
		*worst_norm = t / n * w;
	assert_true(kll_retained(sk) <= kll_retained_bound(k, n));
	kll_free(sk);
	free(v);
}

static void kll_rank_error_within_bound_all_streams(void **state)
{
	static const unsigned int ks[] = { 16, 64, 200 };
	static const size_t ns[] = { 100, 5000, 100000 };
	double worst = 0.0, worst_norm = 0.0;
	unsigned int kind, ki, ni, seed;
	int checked = 0;

	for (kind = 0; kind < S_KINDS; kind++)
		for (ki = 0; ki < 3; ki++)
			for (ni = 0; ni < 3; ni++)
				for (seed = 1; seed <= 3; seed++) {
					run_stream(kind, ks[ki], ns[ni], seed, &worst, &worst_norm);
					checked++;
				}
	printf("# %d streams: worst rank error %.2f of the bound (delta %g), "
	       "worst normalised error %.4f\n", checked, worst, DELTA, worst_norm);
}

static void kll_exact_until_first_compaction(void **state)
{
	struct kll_sketch *sk = kll_new(64, 1);
	double *v = make_stream(S_RANDOM, 64, 5);
	size_t i;

	for (i = 0; i < 64; i++)
		assert_int_equal(kll_update(sk, v[i]), 0);
	assert_true(kll_rank_error_bound(sk, DELTA) == 0.0);
	qsort(v, 64, sizeof(*v), cmp_double);
	for (i = 0; i < 64; i++)
		assert_int_equal(kll_rank(sk, v[i]), i + 1);
	assert_int_equal(kll_retained(sk), 64);
	kll_free(sk);
	free(v);
}

static void kll_memory_stays_within_bound(void **state)
{
	static const unsigned int ks[] = { 8, 200, 1000 };
	unsigned int ki;

	for (ki = 0; ki < 3; ki++) {
		unsigned int k = ks[ki];
		struct kll_sketch *sk = kll_new(k, ki);
		__u64 s = 42, i, n = 300000;

		for (i = 1; i <= n; i++) {
			assert_int_equal(kll_update(sk, (double)(rnd_next(&s) % 100000)), 0);
			if (kll_retained(sk) > kll_retained_bound(k, i))
				fail_msg("k=%u after %llu items: %zu retained, bound %zu", k,
					 (unsigned long long)i, kll_retained(sk),
					 kll_retained_bound(k, i));
		}
		/* 3k + 2H, H <= log2(n / k) + 2 */
		assert_true(kll_retained_bound(k, n) <= 3 * k + 2 * 64);
		printf("# k=%u n=%llu: %zu items retained (%zu bytes), bound %zu\n", k,
		       (unsigned long long)n, kll_retained(sk), 8 * kll_retained(sk),
		       kll_retained_bound(k, n));
		kll_free(sk);
	}
}

/*
 * Merging a sketch that has a level without items, the way a new sketch
 * (level 0 never filled) or one read back from bytes with an empty level
 * comes: nothing is added, the rest is unchanged. libFuzzer and UBSan
 * found memcpy() called with the empty level's NULL items array.
 */
static void kll_merge_of_a_sketch_with_an_empty_level(void **state)
{
	struct kll_sketch *dst = kll_new(8, 1), *empty = kll_new(8, 2), *back;
	double q = 0.5, before, after;
	__u8 buf[4096];
	ssize_t len;
	unsigned int i;
	int err;

	for (i = 0; i < 100; i++)
		assert_int_equal(kll_update(dst, i), 0);
	assert_int_equal(kll_quantiles(dst, &q, 1, &before), 0);
	assert_int_equal(kll_merge(dst, empty), 0);
	assert_int_equal(kll_count(dst), 100);
	assert_int_equal(kll_quantiles(dst, &q, 1, &after), 0);
	if (after != before)
		fail_msg("median after merging an empty sketch: expected %g, observed %g", before,
			 after);
	/* Serialised with one level, read back: its level 0 has no array. */
	len = kll_serialize(empty, buf, sizeof(buf));
	assert_true(len > 0);
	back = kll_deserialize(buf, len, &err);
	assert_non_null(back);
	assert_int_equal(kll_merge(dst, back), 0);
	assert_int_equal(kll_merge(back, dst), 0);
	assert_int_equal(kll_count(back), 100);
	kll_free(back);
	kll_free(empty);
	kll_free(dst);
}

static void kll_merge_equals_union_within_bound(void **state)
{
	static const size_t part[] = { 40000, 0, 1234, 77777, 5 };
	struct kll_sketch *sk[5], *dst;
	size_t total = 0, off = 0, i, p;
	double *all;

	for (p = 0; p < 5; p++)
		total += part[p];
	all = make_stream(S_RANDOM, total, 99);
	for (p = 0; p < 5; p++) {
		sk[p] = kll_new(100, 1000 + p);
		for (i = 0; i < part[p]; i++)
			assert_int_equal(kll_update(sk[p], all[off + i] + p), 0);
		for (i = 0; i < part[p]; i++)
			all[off + i] += p;
		off += part[p];
	}
	dst = sk[1];				/* the empty one collects */
	for (p = 0; p < 5; p++)
		if (p != 1)
			assert_int_equal(kll_merge(dst, sk[p]), 0);
	qsort(all, total, sizeof(*all), cmp_double);
	assert_int_equal(kll_count(dst), total);
	assert_int_equal(kll_rank(dst, 1e300), total);
	assert_true(kll_rank_error_bound(dst, DELTA) > 0);
	check_against_exact("merge of 5", dst, all, total);
	assert_true(kll_retained(dst) <= kll_retained_bound(100, total));

	/* Different k, or a sketch merged into itself: refused, untouched. */
	{
		struct kll_sketch *other = kll_new(64, 1);

		assert_int_equal(kll_update(other, 1.0), 0);
		assert_int_equal(kll_merge(dst, other), -EINVAL);
		assert_int_equal(kll_merge(dst, dst), -EINVAL);
		assert_int_equal(kll_count(dst), total);
		kll_free(other);
	}
	for (p = 0; p < 5; p++)
		kll_free(sk[p]);
	free(all);
}

static void kll_serialize_round_trip(void **state)
{
	struct kll_sketch *sk = kll_new(50, 3), *back, *cont;
	double *v = make_stream(S_RANDOM, 20000, 11);
	size_t len, i;
	__u8 *a, *b;
	int err;

	for (i = 0; i < 10000; i++)
		kll_update(sk, v[i]);
	len = kll_serialized_size(sk);
	a = malloc(len + 1);
	b = malloc(len + 1);
	assert_int_equal(kll_serialize(sk, a, len - 1), -EMSGSIZE);
	assert_int_equal(kll_serialize(sk, a, len), len);
	back = kll_deserialize(a, len, &err);
	assert_non_null(back);
	assert_int_equal(err, 0);
	assert_int_equal(kll_serialize(back, b, len), len);
	assert_memory_equal(a, b, len);
	assert_int_equal(kll_count(back), kll_count(sk));
	for (i = 0; i < 100; i++)
		assert_int_equal(kll_rank(back, v[i]), kll_rank(sk, v[i]));
	assert_true(kll_rank_error_bound(back, DELTA) == kll_rank_error_bound(sk, DELTA));

	/* The coin state travels too: both continue identically. */
	cont = back;
	for (i = 10000; i < 20000; i++) {
		kll_update(sk, v[i]);
		kll_update(cont, v[i]);
	}
	len = kll_serialized_size(sk);
	a = realloc(a, len + 1);
	b = realloc(b, len + 1);
	assert_int_equal(kll_serialized_size(cont), len);
	kll_serialize(sk, a, len);
	kll_serialize(cont, b, len);
	assert_memory_equal(a, b, len);
	kll_free(cont);

	/* Refusals: truncated, trailing byte, bad magic, weight != n, NaN. */
	assert_null(kll_deserialize(a, len - 1, &err));
	assert_int_equal(err, -EMSGSIZE);
	assert_null(kll_deserialize(a, 10, &err));
	assert_int_equal(err, -EMSGSIZE);
	a[len] = 0;
	assert_null(kll_deserialize(a, len + 1, &err));
	assert_int_equal(err, -EMSGSIZE);
	memcpy(b, a, len);
	b[0] = 'X';
	assert_null(kll_deserialize(b, len, &err));
	assert_int_equal(err, -EINVAL);
	memcpy(b, a, len);
	b[8] ^= 1;				/* n */
	assert_null(kll_deserialize(b, len, &err));
	assert_int_equal(err, -EINVAL);
	memcpy(b, a, len);
	memset(b + len - 8, 0xff, 8);		/* last item: a NaN pattern */
	assert_null(kll_deserialize(b, len, &err));
	assert_int_equal(err, -EINVAL);
	memcpy(b, a, len);
	b[6] = 0;				/* no level */
	assert_null(kll_deserialize(b, len, &err));
	assert_int_equal(err, -EINVAL);

	kll_free(sk);
	free(a);
	free(b);
	free(v);
}

static void kll_refuses_bad_input(void **state)
{
	struct kll_sketch *sk;
	double out;

	errno = 0;
	assert_null(kll_new(KLL_K_MIN - 1, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(kll_new(KLL_K_MAX + 1, 0));
	sk = kll_new(KLL_K_MIN, 0);
	assert_non_null(sk);
	assert_int_equal(kll_quantile(sk, 0.5, &out), -ENOENT);
	assert_int_equal(kll_update(sk, __builtin_nan("")), -EINVAL);
	assert_int_equal(kll_count(sk), 0);
	assert_int_equal(kll_update(sk, 3.0), 0);
	assert_int_equal(kll_quantile(sk, 1.5, &out), -EINVAL);
	assert_int_equal(kll_quantile(sk, -0.1, &out), -EINVAL);
	assert_int_equal(kll_quantile(sk, 0.5, &out), 0);
	assert_true(out == 3.0);
	assert_true(kll_rank_error_bound(sk, 0.0) != kll_rank_error_bound(sk, 0.0));
	kll_free(sk);
	kll_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kll_exact_until_first_compaction),
		cmocka_unit_test(kll_rank_error_within_bound_all_streams),
		cmocka_unit_test(kll_memory_stays_within_bound),
		cmocka_unit_test(kll_merge_equals_union_within_bound),
		cmocka_unit_test(kll_merge_of_a_sketch_with_an_empty_level),
		cmocka_unit_test(kll_serialize_round_trip),
		cmocka_unit_test(kll_refuses_bad_input),
	};

	return HM_RUN_TESTS(tests);
}
