// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pint_hash.c - the PINT global hashes (lib/pint/pint_hash.h).
 *
 * pint_hash32() must be MurmurHash3_x86_32 of the 8 octets a || b (each
 * little-endian) so that anyone can recompute it: a plain byte-wise
 * MurmurHash3 written here from the algorithm's description is first
 * checked against published vectors, then compared with pint_hash32() on
 * many inputs. The pinned vectors at the end are the ones the BPF test
 * (BPF_PROG_TEST_RUN) compares against, so BPF and userspace agree.
 */
#include <stdio.h>
#include <stdlib.h>

#include "hm_test.h"
#include "pint/pint_path.h"

static __u32 rotl(__u32 x, int r)
{
	return (x << r) | (x >> (32 - r));
}

/* MurmurHash3_x86_32 over any byte string (reference for the tests). */
static __u32 ref_murmur3_32(const void *key, size_t len, __u32 seed)
{
	const __u8 *p = key;
	size_t nblocks = len / 4, i;
	__u32 h = seed, k;

	for (i = 0; i < nblocks; i++) {
		k = p[4 * i] | p[4 * i + 1] << 8 | p[4 * i + 2] << 16 | (__u32)p[4 * i + 3] << 24;
		k *= 0xcc9e2d51;
		k = rotl(k, 15);
		k *= 0x1b873593;
		h ^= k;
		h = rotl(h, 13);
		h = h * 5 + 0xe6546b64;
	}
	k = 0;
	switch (len & 3) {
	case 3:
		k ^= p[4 * nblocks + 2] << 16;
		/* fallthrough */
	case 2:
		k ^= p[4 * nblocks + 1] << 8;
		/* fallthrough */
	case 1:
		k ^= p[4 * nblocks];
		k *= 0xcc9e2d51;
		k = rotl(k, 15);
		k *= 0x1b873593;
		h ^= k;
	}
	h ^= len;
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

static void murmur3_reference_matches_published_vectors(void **state)
{
	static const struct {
		const char *s;
		__u32 seed, h;
	} v[] = {
		{ "", 0, 0 },
		{ "", 1, 0x514e28b7 },
		{ "test", 0, 0xba6bd213 },
		{ "Hello, world!", 1234, 0xfaf6cdb3 },
		{ "The quick brown fox jumps over the lazy dog", 0, 0x2e4ff723 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		__u32 h = ref_murmur3_32(v[i].s, strlen(v[i].s), v[i].seed);

		if (h != v[i].h)
			fail_msg("murmur3(\"%s\", %u): expected 0x%08x, observed 0x%08x",
				 v[i].s, v[i].seed, v[i].h, h);
	}
}

static void pint_hash32_is_murmur3_of_two_le_words(void **state)
{
	__u64 x = 0x0123456789abcdefULL;
	unsigned int i;

	for (i = 0; i < 100000; i++) {
		__u32 seed, a, b;
		__u8 buf[8];

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		seed = x;
		a = x >> 32;
		b = (x >> 16) * 2654435761U;
		if (i < 8) {	/* the edges too */
			seed = i & 1 ? 0xffffffff : 0;
			a = i & 2 ? 0xffffffff : 0;
			b = i & 4 ? 0xffffffff : 0;
		}
		buf[0] = a, buf[1] = a >> 8, buf[2] = a >> 16, buf[3] = a >> 24;
		buf[4] = b, buf[5] = b >> 8, buf[6] = b >> 16, buf[7] = b >> 24;
		if (pint_hash32(seed, a, b) != ref_murmur3_32(buf, 8, seed))
			fail_msg("pint_hash32(0x%x, 0x%x, 0x%x): expected 0x%08x, observed 0x%08x",
				 seed, a, b, ref_murmur3_32(buf, 8, seed), pint_hash32(seed, a, b));
	}
}

/* The vectors BPF must reproduce (Documentation/pint.rst lists them). */
static void pint_hashes_known_vectors(void **state)
{
	const struct pint_seeds s = { PINT_SEED_DECIDER, PINT_SEED_ACT, PINT_SEED_VALUE };

	assert_int_equal(pint_hash32(0, 0, 0), 0x63852afc);
	assert_int_equal(pint_hash32(1, 2, 3), 0xae160357);
	assert_int_equal(pint_hash32(0xffffffff, 0xffffffff, 0xffffffff), 0xc6fd26e5);
	assert_int_equal(pint_decide(&s, 1000, PINT_DECIDE_QUERY_SET), 0xb658d6f4);
	assert_int_equal(pint_decide(&s, 0x12345678, PINT_DECIDE_PATH_LAYER), 0x68abcdeb);
	assert_int_equal(pint_act(&s, 1000, 3), 0x821eb445);
	assert_int_equal(pint_value_hash(&s, 42, 1000, 8), 0xa4);
	/* b bits are the low bits of the same 32-bit hash */
	assert_int_equal(pint_value_hash(&s, 42, 1000, 32) & 0xff, 0xa4);
	assert_int_equal(pint_value_hash(&s, 42, 1000, 1), 0xa4 & 1);
}

static void pint_seeds_separate_the_hashes(void **state)
{
	const struct pint_seeds s = { 1, 2, 3 }, t = { 1, 2, 4 };
	unsigned int pid, diff = 0;

	/* same inputs, different purpose or seed: different values */
	assert_int_not_equal(pint_decide(&s, 7, PINT_DECIDE_QUERY_SET),
			     pint_decide(&s, 7, PINT_DECIDE_PATH_LAYER));
	for (pid = 0; pid < 1000; pid++)
		diff += pint_value_hash(&s, 5, pid, 16) != pint_value_hash(&t, 5, pid, 16);
	if (diff < 990)
		fail_msg("value hash with another seed: expected ~1000 differences, observed %u",
			 diff);
}

static void pint_baseline_thresholds_are_floor_2_32_over_i(void **state)
{
	unsigned int i;

	assert_int_equal(pint_prob_thresh_baseline(1), 0xffffffff);
	assert_int_equal(pint_prob_thresh_baseline(2), 0x7fffffff);
	assert_int_equal(pint_prob_thresh_baseline(3), 0x55555554);
	assert_int_equal(pint_prob_thresh_baseline(5), 0x33333332);
	for (i = 2; i < 300; i++) {
		__u64 want = (1ULL << 32) / i - 1;

		if (pint_prob_thresh_baseline(i) != want)
			fail_msg("hop %u: expected 0x%llx, observed 0x%x", i,
				 (unsigned long long)want, pint_prob_thresh_baseline(i));
	}
}

/* Hop i acts with probability 1/i: within 5 standard deviations. */
static void pint_baseline_hop_acts_with_probability_one_over_i(void **state)
{
	const struct pint_seeds s = { 11, 22, 33 };
	const unsigned int n = 200000, hops[] = { 1, 2, 3, 7, 25 };
	unsigned int i, pid;

	for (i = 0; i < sizeof(hops) / sizeof(hops[0]); i++) {
		unsigned int h = hops[i], c = 0;
		double mean = (double)n / h, var = n * (1.0 / h) * (1 - 1.0 / h);

		for (pid = 0; pid < n; pid++)
			c += pint_act(&s, pid, h) <= pint_prob_thresh_baseline(h);
		/* |c - mean| <= 5 sd, compared squared (no libm) */
		if ((c - mean) * (c - mean) > 25 * var + 1)
			fail_msg("hop %u: expected %.0f acts (variance %.0f), observed %u", h, mean,
				 var, c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(murmur3_reference_matches_published_vectors),
		cmocka_unit_test(pint_hash32_is_murmur3_of_two_le_words),
		cmocka_unit_test(pint_hashes_known_vectors),
		cmocka_unit_test(pint_seeds_separate_the_hashes),
		cmocka_unit_test(pint_baseline_thresholds_are_floor_2_32_over_i),
		cmocka_unit_test(pint_baseline_hop_acts_with_probability_one_over_i),
	};

	return HM_RUN_TESTS(tests);
}
