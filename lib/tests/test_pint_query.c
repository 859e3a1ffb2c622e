// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pint_query.c - the PINT query engine (pint_query.h): subsets that
 * fit the global budget, their probabilities, per-packet selection from
 * the packet ID alone, digest field packing, validation.
 */
#include <errno.h>
#include <stdio.h>

#include "hm_test.h"
#include "pint/pint_query.h"

static void pint_query_all_fit_on_every_packet(void **state)
{
	const struct pint_query q[3] = {
		{ PINT_Q_PATH, 8, 1 }, { PINT_Q_LATENCY, 4, 1 }, { PINT_Q_UTIL, 4, 1 },
	};
	struct pint_query_plan plan;
	unsigned int pid;

	assert_int_equal(pint_query_plan_build(&plan, NULL, 16, q, 3), 0);
	assert_int_equal(pint_query_plan_check(&plan), 0);
	assert_int_equal(plan.nr_sets, 1);
	assert_int_equal(plan.set[0].mask, 7);
	assert_int_equal(plan.set[0].offset[0], 0);
	assert_int_equal(plan.set[0].offset[1], 8);
	assert_int_equal(plan.set[0].offset[2], 12);
	assert_int_equal(plan.set[0].used_bits, 16);
	for (pid = 0; pid < 1000; pid++)
		assert_int_equal(pint_query_select(&plan, pid), 0);
}

/* Three 8-bit queries in 16 bits: pairs only, weights 2:1:1. */
static void pint_query_greedy_pairs_follow_weights(void **state)
{
	const struct pint_query q[3] = {
		{ PINT_Q_PATH, 8, 2 }, { PINT_Q_LATENCY, 8, 1 }, { PINT_Q_UTIL, 8, 1 },
	};
	/*
	 * Orders (Plackett-Luce): first query 0 w.p. 1/2, then 1 or 2 -> {0,1}
	 * or {0,2}; first 1 (1/4): then 0 w.p. 2/3 -> {0,1}, else {1,2}; same
	 * for 2. P{0,1} = 1/4 + 1/6 = 5/12 = P{0,2}; P{1,2} = 2/12.
	 * Frequencies: q0 10/12, q1 7/12, q2 7/12.
	 */
	const double want[3] = { 10.0 / 12, 7.0 / 12, 7.0 / 12 };
	unsigned int cnt[3] = { 0 }, s, i, pid;
	const unsigned int n = 120000;
	struct pint_query_plan plan;

	assert_int_equal(pint_query_plan_build(&plan, NULL, 16, q, 3), 0);
	assert_int_equal(pint_query_plan_check(&plan), 0);
	assert_int_equal(plan.nr_sets, 3);
	for (s = 0; s < plan.nr_sets; s++) {
		assert_int_equal(plan.set[s].used_bits, 16);
		assert_int_equal(__builtin_popcount(plan.set[s].mask), 2);
	}
	for (i = 0; i < 3; i++) {
		double f = pint_query_freq(&plan, i);

		if (f < want[i] - 1e-6 || f > want[i] + 1e-6)
			fail_msg("query %u: expected frequency %.6f, observed %.6f", i, want[i], f);
	}
	for (pid = 0; pid < n; pid++) {
		const struct pint_query_set *set = &plan.set[pint_query_select(&plan, pid)];

		for (i = 0; i < 3; i++)
			cnt[i] += !!(set->mask & (1U << i));
	}
	for (i = 0; i < 3; i++) {
		double mean = n * want[i], var = n * want[i] * (1 - want[i]);

		if ((cnt[i] - mean) * (cnt[i] - mean) > 25 * var)
			fail_msg("query %u: expected %.0f packets, observed %u", i, mean, cnt[i]);
	}
}

static void pint_query_selection_depends_on_pid_and_seed_only(void **state)
{
	const struct pint_query q[2] = { { PINT_Q_PATH, 16, 1 }, { PINT_Q_LATENCY, 16, 1 } };
	const struct pint_seeds s1 = { 1, 2, 3 }, s2 = { 9, 2, 3 };
	struct pint_query_plan a, b, c;
	unsigned int pid, diff = 0;

	assert_int_equal(pint_query_plan_build(&a, &s1, 16, q, 2), 0);
	assert_int_equal(pint_query_plan_build(&b, &s1, 16, q, 2), 0);
	assert_int_equal(pint_query_plan_build(&c, &s2, 16, q, 2), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	for (pid = 0; pid < 1000; pid++) {
		assert_int_equal(pint_query_select(&a, pid), pint_query_select(&b, pid));
		diff += pint_query_select(&a, pid) != pint_query_select(&c, pid);
	}
	assert_true(diff > 350 && diff < 650);	/* independent seeds: ~half differ */
}

static void pint_query_rebuild_in_place_keeps_seeds(void **state)
{
	const struct pint_query q[2] = { { PINT_Q_PATH, 8, 1 }, { PINT_Q_LATENCY, 8, 1 } };
	const unsigned int masks[1] = { 0x3 };
	const double prob[1] = { 1.0 };
	const struct pint_seeds s1 = { 1, 2, 3 };
	struct pint_query_plan plan;

	/* A caller rebuilding a plan from its own seeds must keep them. */
	assert_int_equal(pint_query_plan_build(&plan, &s1, 16, q, 2), 0);
	assert_int_equal(pint_query_plan_build(&plan, &plan.seeds, 16, q, 2), 0);
	assert_memory_equal(&plan.seeds, &s1, sizeof(s1));
	assert_int_equal(pint_query_plan_explicit(&plan, &plan.seeds, 16, q, 2, masks, prob, 1), 0);
	assert_memory_equal(&plan.seeds, &s1, sizeof(s1));
}

static void pint_query_explicit_distribution(void **state)
{
	const struct pint_query q[3] = {
		{ PINT_Q_PATH, 8, 1 }, { PINT_Q_LATENCY, 8, 1 }, { PINT_Q_UTIL, 8, 1 },
	};
	const unsigned int masks[2] = { 0x3, 0x4 }, too_big[1] = { 0x7 }, unknown[1] = { 0x8 };
	const double probs[2] = { 3, 1 };
	struct pint_query_plan plan;

	assert_int_equal(pint_query_plan_explicit(&plan, NULL, 16, q, 3, masks, probs, 2), 0);
	assert_int_equal(pint_query_plan_check(&plan), 0);
	assert_true(pint_query_freq(&plan, 0) > 0.7499 && pint_query_freq(&plan, 0) < 0.7501);
	assert_true(pint_query_freq(&plan, 2) > 0.2499 && pint_query_freq(&plan, 2) < 0.2501);
	assert_int_equal(plan.set[1].offset[2], 0);
	assert_int_equal(plan.set[1].offset[0], PINT_QUERY_NONE);
	assert_int_equal(pint_query_plan_explicit(&plan, NULL, 16, q, 3, too_big, probs, 1),
			 -EINVAL);
	assert_int_equal(pint_query_plan_explicit(&plan, NULL, 16, q, 3, unknown, probs, 1),
			 -EINVAL);
}

static void pint_query_rejects_bad_plans(void **state)
{
	const struct pint_query big = { PINT_Q_PATH, 17, 1 }, zero = { PINT_Q_PATH, 8, 0 };
	struct pint_query many[PINT_QUERY_MAX + 1];
	struct pint_query_plan plan;
	unsigned int i;

	assert_int_equal(pint_query_plan_build(&plan, NULL, 16, &big, 1), -EINVAL);
	assert_int_equal(pint_query_plan_build(&plan, NULL, 16, &zero, 1), -EINVAL);
	assert_int_equal(pint_query_plan_build(&plan, NULL, 0, &zero, 1), -EINVAL);
	for (i = 0; i <= PINT_QUERY_MAX; i++)
		many[i] = (struct pint_query){ PINT_Q_PATH, 1, 1 };
	assert_int_equal(pint_query_plan_build(&plan, NULL, 16, many, PINT_QUERY_MAX + 1),
			 -EINVAL);
	/* 8 one-bit queries in 4 bits: C(8,4) = 70 maximal subsets > 32 */
	assert_int_equal(pint_query_plan_build(&plan, NULL, 4, many, 8), -E2BIG);
	assert_int_equal(pint_query_plan_build(&plan, NULL, 16, many, 8), 0);
	plan.set[0].offset[0] = 3;	/* corrupt */
	assert_int_equal(pint_query_plan_check(&plan), -EINVAL);
}

static void pint_field_get_set_pack_queries(void **state)
{
	__u32 d = 0;

	d = pint_field_set(d, 0, 8, 0x1ab);	/* cut to 8 bits */
	d = pint_field_set(d, 8, 4, 0x5);
	d = pint_field_set(d, 12, 4, 0xf);
	assert_int_equal(d, 0xf5ab);
	assert_int_equal(pint_field_get(d, 0, 8), 0xab);
	assert_int_equal(pint_field_get(d, 8, 4), 0x5);
	assert_int_equal(pint_field_get(d, 12, 4), 0xf);
	assert_int_equal(pint_field_set(d, 8, 4, 0), 0xf0ab);
	assert_int_equal(pint_field_get(d, PINT_QUERY_NONE, 4), 0);
	assert_int_equal(pint_field_set(d, PINT_QUERY_NONE, 4, 1), d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pint_query_all_fit_on_every_packet),
		cmocka_unit_test(pint_query_greedy_pairs_follow_weights),
		cmocka_unit_test(pint_query_selection_depends_on_pid_and_seed_only),
		cmocka_unit_test(pint_query_rebuild_in_place_keeps_seeds),
		cmocka_unit_test(pint_query_explicit_distribution),
		cmocka_unit_test(pint_query_rejects_bad_plans),
		cmocka_unit_test(pint_field_get_set_pack_queries),
	};

	return HM_RUN_TESTS(tests);
}
