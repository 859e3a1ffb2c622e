/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_query.h - the PINT query engine (PINT paper §3, "query engine"):
 * a global per-packet bit budget shared by several queries, each with its
 * own bit budget, and a probability distribution over the subsets of
 * queries that fit. Every node and the sink derive a packet's subset from
 * its packet ID alone, with the decider hash D(pid, PINT_DECIDE_QUERY_SET),
 * so no bit of the packet says which queries it carries.
 *
 * Within the digest, the queries of a subset are packed from bit 0 upwards
 * in query order: query q of the subset occupies bits
 * [offset[q], offset[q] + bits[q]).
 *
 * struct pint_query_plan is a BPF map value as is; pint_query_select() and
 * the field helpers are libc-free and BPF-safe. Building a plan
 * (pint_query_plan_build()) is userspace only (lib/pint/pint_query.c).
 */
#ifndef __HOPMARK_PINT_QUERY_H
#define __HOPMARK_PINT_QUERY_H

#include <linux/types.h>
#include "pint/pint_hash.h"

#define PINT_QUERY_MAX		8	/* queries in one plan */
#define PINT_QSET_MAX		32	/* subsets with non-zero probability */
#define PINT_QUERY_NONE		0xff	/* offset of a query not in the subset */

/* Query kinds (struct pint_query.kind); the engine treats them alike. */
#define PINT_Q_PATH		1	/* path tracing, pint_path.h */
#define PINT_Q_LATENCY		2	/* per-hop latency quantiles */
#define PINT_Q_UTIL		3	/* maximum link utilisation */

/**
 * struct pint_query_set - one subset of queries and its probability
 * @decide_max:	the packet carries this subset if it is the first set with
 *		D(pid, PINT_DECIDE_QUERY_SET) <= @decide_max (cumulative; the
 *		last set has 0xffffffff)
 * @mask:	bit q set when query q is in the subset
 * @used_bits:	sum of the bit budgets of the subset's queries
 * @pad:	zero
 * @offset:	per query, its first bit in the digest, or %PINT_QUERY_NONE
 */
struct pint_query_set {
	__u32	decide_max;
	__u16	mask;
	__u8	used_bits;
	__u8	pad;
	__u8	offset[PINT_QUERY_MAX];
};

/**
 * struct pint_query_plan - queries, budget and subset distribution of a
 *			    domain (identical at every node and the sink)
 * @seeds:	the domain's hash seeds
 * @budget:	global bit budget per packet, 1..32
 * @nr_queries:	number of queries
 * @nr_sets:	number of entries in @set, >= 1
 * @pad:	zero
 * @kind:	per query, its kind (PINT_Q_*)
 * @bits:	per query, its bit budget
 * @set:	the subsets, in decider order
 */
struct pint_query_plan {
	struct pint_seeds	seeds;
	__u8			budget;
	__u8			nr_queries;
	__u8			nr_sets;
	__u8			pad;
	__u8			kind[PINT_QUERY_MAX];
	__u8			bits[PINT_QUERY_MAX];
	struct pint_query_set	set[PINT_QSET_MAX];
};

/**
 * pint_query_select() - the subset a packet carries
 * @plan:	query plan
 * @pid:	packet ID
 *
 * Return: index into @plan->set (0..nr_sets-1).
 */
static inline __u32 pint_query_select(const struct pint_query_plan *plan, __u32 pid)
{
	__u32 d = pint_decide(&plan->seeds, pid, PINT_DECIDE_QUERY_SET);
	__u32 i;

	for (i = 0; i < PINT_QSET_MAX; i++) {
		if (i + 1 >= plan->nr_sets || d <= plan->set[i].decide_max)
			return i;
	}
	return PINT_QSET_MAX - 1;
}

/**
 * pint_field_get() - read a query's field out of the packet's digest
 * @digest:	the whole per-packet digest (global budget bits)
 * @offset:	first bit of the field
 * @bits:	field width, 1..32
 *
 * Return: the field, in its low @bits bits.
 */
static inline __u32 pint_field_get(__u32 digest, __u32 offset, __u32 bits)
{
	if (offset >= 32)
		return 0;
	return (digest >> offset) & pint_bits_mask(bits);
}

/**
 * pint_field_set() - write a query's field into the packet's digest
 * @digest:	the whole per-packet digest
 * @offset:	first bit of the field
 * @bits:	field width, 1..32
 * @val:	new field value (low @bits bits used)
 *
 * Return: the digest with the field replaced, other bits unchanged.
 */
static inline __u32 pint_field_set(__u32 digest, __u32 offset, __u32 bits, __u32 val)
{
	__u32 m;

	if (offset >= 32)
		return digest;
	m = pint_bits_mask(bits) << offset;
	return (digest & ~m) | ((val << offset) & m);
}

#ifndef __bpf__

/**
 * struct pint_query - a query as the user gives it
 * @kind:	PINT_Q_* (informational for the engine)
 * @bits:	bits this query needs on a packet that carries it, 1..budget
 * @weight:	relative priority (> 0): heavier queries ride on more packets
 */
struct pint_query {
	unsigned int	kind;
	unsigned int	bits;
	double		weight;
};

/**
 * pint_query_plan_build() - the default distribution over fitting subsets
 * @plan:	filled
 * @seeds:	hash seeds, or NULL for the defaults
 * @budget:	global bit budget, 1..32
 * @q:		@n queries
 * @n:		1..%PINT_QUERY_MAX
 *
 * The distribution is that of a weighted random greedy packing: draw an
 * order of the queries with probability proportional to weight (each next
 * query drawn with probability weight / remaining weight), then take the
 * queries in that order when they still fit in the budget. Every subset
 * produced fits and is maximal (no further query fits), each query is on a
 * fraction of packets increasing with its weight, and all queries fit on
 * every packet when their bits add up to at most @budget. The probability
 * of each subset is computed exactly over all n! orders and stored as
 * integer decider thresholds.
 *
 * Return: 0, -EINVAL (bad budget, count, bits or weight), -E2BIG (more than
 * %PINT_QSET_MAX subsets).
 */
int pint_query_plan_build(struct pint_query_plan *plan, const struct pint_seeds *seeds,
			  unsigned int budget, const struct pint_query *q, unsigned int n);

/**
 * pint_query_plan_explicit() - a user-given distribution over subsets
 * @plan:	filled
 * @seeds:	hash seeds, or NULL for the defaults
 * @budget:	global bit budget, 1..32
 * @q:		@n queries (weights ignored)
 * @n:		1..%PINT_QUERY_MAX
 * @masks:	@nr_sets subsets, bit q = query q
 * @probs:	their probabilities (> 0; normalised)
 * @nr_sets:	1..%PINT_QSET_MAX
 *
 * Return: 0, or -EINVAL (a subset that does not fit the budget, an empty
 * or unknown query bit, a bad probability).
 */
int pint_query_plan_explicit(struct pint_query_plan *plan, const struct pint_seeds *seeds,
			     unsigned int budget, const struct pint_query *q, unsigned int n,
			     const unsigned int *masks, const double *probs,
			     unsigned int nr_sets);

/**
 * pint_query_freq() - fraction of packets that carry query @qi
 * @plan:	query plan
 * @qi:		query index
 *
 * Return: the probability (from the integer thresholds), 0 for a bad index.
 */
double pint_query_freq(const struct pint_query_plan *plan, unsigned int qi);

/**
 * pint_query_plan_check() - validate a plan (e.g. read from a map)
 * @plan:	plan
 *
 * Return: 0 if every set fits the budget, offsets are consistent and the
 * thresholds increase to 0xffffffff, else -EINVAL.
 */
int pint_query_plan_check(const struct pint_query_plan *plan);

#endif /* !__bpf__ */
#endif /* __HOPMARK_PINT_QUERY_H */
