// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_query.c - building PINT query plans (see pint_query.h): the default
 * weighted greedy-packing distribution, a user-given distribution, checks.
 */
#include <errno.h>
#include <string.h>

#include "pint/pint_query.h"

static const struct pint_seeds pint_default_seeds = {
	.decider = PINT_SEED_DECIDER,
	.act = PINT_SEED_ACT,
	.value = PINT_SEED_VALUE,
};

static int plan_head(struct pint_query_plan *plan, const struct pint_seeds *seeds,
		     unsigned int budget, const struct pint_query *q, unsigned int n)
{
	/* Copied first: @seeds may point into @plan (rebuilding a plan in place). */
	struct pint_seeds s = seeds ? *seeds : pint_default_seeds;
	unsigned int i;

	if (budget < 1 || budget > 32 || n < 1 || n > PINT_QUERY_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (q[i].bits < 1 || q[i].bits > budget || q[i].kind > 0xff)
			return -EINVAL;
	}
	memset(plan, 0, sizeof(*plan));
	plan->seeds = s;
	plan->budget = budget;
	plan->nr_queries = n;
	for (i = 0; i < n; i++) {
		plan->kind[i] = q[i].kind;
		plan->bits[i] = q[i].bits;
	}
	return 0;
}

/* Cumulative probability -> inclusive 32-bit threshold. */
static __u32 cum_to_thresh(double c)
{
	double y = c * 4294967296.0;

	if (!(y >= 1.0))
		return 0;
	if (y >= 4294967296.0)
		return 0xffffffffU;
	return (__u32)((__u64)y - 1);
}

/* Fill plan->set[] from per-mask probabilities (index = mask). */
static int plan_sets(struct pint_query_plan *plan, const double *prob, unsigned int nmasks)
{
	double total = 0, cum = 0;
	unsigned int m, i, s = 0, off;

	for (m = 0; m < nmasks; m++)
		total += prob[m];
	if (!(total > 0))
		return -EINVAL;
	for (m = 0; m < nmasks; m++) {
		struct pint_query_set *set;

		if (!(prob[m] > 0))
			continue;
		if (s >= PINT_QSET_MAX)
			return -E2BIG;
		set = &plan->set[s++];
		cum += prob[m];
		set->mask = m;
		set->decide_max = cum_to_thresh(cum / total);
		off = 0;
		for (i = 0; i < PINT_QUERY_MAX; i++) {
			if (i < plan->nr_queries && (m & (1U << i))) {
				set->offset[i] = off;
				off += plan->bits[i];
			} else {
				set->offset[i] = PINT_QUERY_NONE;
			}
		}
		set->used_bits = off;
	}
	plan->set[s - 1].decide_max = 0xffffffffU;
	plan->nr_sets = s;
	return 0;
}

/* Every order of the remaining queries, with its Plackett-Luce probability. */
static void greedy_orders(const struct pint_query *q, unsigned int n, unsigned int budget,
			  unsigned int left, unsigned int chosen, unsigned int used,
			  double pr, double *prob)
{
	double wleft = 0;
	unsigned int j;

	if (!left) {
		prob[chosen] += pr;
		return;
	}
	for (j = 0; j < n; j++)
		if (left & (1U << j))
			wleft += q[j].weight;
	for (j = 0; j < n; j++) {
		unsigned int c = chosen, u = used;

		if (!(left & (1U << j)))
			continue;
		if (u + q[j].bits <= budget) {
			c |= 1U << j;
			u += q[j].bits;
		}
		greedy_orders(q, n, budget, left & ~(1U << j), c, u, pr * q[j].weight / wleft,
			      prob);
	}
}

int pint_query_plan_build(struct pint_query_plan *plan, const struct pint_seeds *seeds,
			  unsigned int budget, const struct pint_query *q, unsigned int n)
{
	double prob[1U << PINT_QUERY_MAX];
	unsigned int i;
	int err;

	err = plan_head(plan, seeds, budget, q, n);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		if (!(q[i].weight > 0))
			return -EINVAL;
	memset(prob, 0, sizeof(prob));
	greedy_orders(q, n, budget, (1U << n) - 1, 0, 0, 1.0, prob);
	return plan_sets(plan, prob, 1U << n);
}

int pint_query_plan_explicit(struct pint_query_plan *plan, const struct pint_seeds *seeds,
			     unsigned int budget, const struct pint_query *q, unsigned int n,
			     const unsigned int *masks, const double *probs,
			     unsigned int nr_sets)
{
	double prob[1U << PINT_QUERY_MAX];
	unsigned int s, i, used;
	int err;

	err = plan_head(plan, seeds, budget, q, n);
	if (err)
		return err;
	if (nr_sets < 1 || nr_sets > PINT_QSET_MAX)
		return -EINVAL;
	memset(prob, 0, sizeof(prob));
	for (s = 0; s < nr_sets; s++) {
		if (!masks[s] || masks[s] >= (1U << n) || !(probs[s] > 0))
			return -EINVAL;
		used = 0;
		for (i = 0; i < n; i++)
			if (masks[s] & (1U << i))
				used += q[i].bits;
		if (used > budget)
			return -EINVAL;
		prob[masks[s]] += probs[s];
	}
	return plan_sets(plan, prob, 1U << n);
}

double pint_query_freq(const struct pint_query_plan *plan, unsigned int qi)
{
	double f = 0, lo = 0, hi;
	unsigned int s;

	if (qi >= plan->nr_queries)
		return 0;
	for (s = 0; s < plan->nr_sets; s++) {
		hi = (double)plan->set[s].decide_max + 1.0;
		if (plan->set[s].mask & (1U << qi))
			f += hi - lo;
		lo = hi;
	}
	return f / 4294967296.0;
}

int pint_query_plan_check(const struct pint_query_plan *plan)
{
	unsigned int s, i, off;

	if (plan->budget < 1 || plan->budget > 32 || plan->nr_queries < 1 ||
	    plan->nr_queries > PINT_QUERY_MAX || plan->nr_sets < 1 ||
	    plan->nr_sets > PINT_QSET_MAX)
		return -EINVAL;
	for (s = 0; s < plan->nr_sets; s++) {
		const struct pint_query_set *set = &plan->set[s];

		if (set->mask >> plan->nr_queries)
			return -EINVAL;
		if (s && set->decide_max < plan->set[s - 1].decide_max)
			return -EINVAL;
		off = 0;
		for (i = 0; i < plan->nr_queries; i++) {
			if (!(set->mask & (1U << i))) {
				if (set->offset[i] != PINT_QUERY_NONE)
					return -EINVAL;
				continue;
			}
			if (set->offset[i] != off)
				return -EINVAL;
			off += plan->bits[i];
		}
		if (off > plan->budget || off != set->used_bits)
			return -EINVAL;
	}
	if (plan->set[plan->nr_sets - 1].decide_max != 0xffffffffU)
		return -EINVAL;
	return 0;
}
