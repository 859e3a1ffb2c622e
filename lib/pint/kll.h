/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * kll.h - KLL quantile sketch (Karnin, Lang, Liberty, "Optimal Quantile
 * Approximation in Streams", FOCS 2016), kept by the PINT sink per
 * (flow, hop) for latency quantiles.
 *
 * A stack of compactors: level h holds items of weight 2^h. Level h of H
 * has capacity max(2, ceil(k * (2/3)^(H-1-h))), so the top level holds k
 * items and lower ones geometrically fewer (c = 2/3). When the sketch holds
 * more items than its levels' total capacity, the lowest level at or over
 * its capacity is compacted: sorted, and either its odd- or its even-
 * indexed items (a fair coin) move up one level with double weight (an odd
 * one out stays). Every compaction shifts the estimated rank of any value
 * by 0 or +-2^h with equal odds of either sign.
 *
 * Memory: at most 3k + 2H items of 8 bytes are retained (H <= log2(n/k) + 2
 * levels for n items), see kll_retained_bound(). k = 200 holds at most
 * 629 items (5032 bytes) for any n up to 2^32.
 *
 * Rank error: the sketch counts its compactions m_h per level and
 * kll_rank_error_bound() turns them into a Hoeffding (Azuma) bound that
 * holds for any single query with probability >= 1 - delta:
 *
 *	|rank_est(x) - rank(x)| <= sqrt(2 ln(2 / delta) * sum_h m_h 4^h)
 *
 * Independently of the stream, that is at most
 * sqrt(24 ln(2 / delta)) * n / k (kll_rank_error_apriori()); in practice
 * the bound from the counts is 3-5 times smaller.
 *
 * Items are doubles (here: latencies in ns); NaN is refused. The coin
 * comes from a splitmix64 generator seeded at kll_new(): the same seed and
 * input give the same sketch.
 */
#ifndef __HOPMARK_KLL_H
#define __HOPMARK_KLL_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

/* Range of k, the top level's capacity. */
#define KLL_K_MIN		8
#define KLL_K_MAX		65535
/* Smallest capacity of a level (the lowest levels). */
#define KLL_MIN_CAP		2
/* Most levels: 2^63 items of weight 1 at most. */
#define KLL_MAX_LEVELS		64

/*
 * Serialised form, all integers little-endian:
 *   octets 0-3   magic "KLL" 0x01 (version 1)
 *   octets 4-5   k
 *   octet  6     number of levels H (1 .. KLL_MAX_LEVELS)
 *   octet  7     0 (reserved)
 *   octets 8-15  n, items seen
 *   octets 16-23 generator state
 *   H times:     u32 items in the level, u64 compactions of the level
 *   then:        the items, level 0 first, as IEEE 754 binary64 bit
 *                patterns in little-endian u64
 */
#define KLL_SER_MAGIC		"KLL\x01"
#define KLL_SER_HDR_LEN		24
#define KLL_SER_LEVEL_LEN	12

struct kll_sketch;

/**
 * kll_new() - an empty sketch
 * @k:		top level capacity, KLL_K_MIN .. KLL_K_MAX; the rank error
 *		falls as 1/k, the memory grows as 3k items
 * @seed:	seed of the compaction coin
 *
 * Return: the sketch (free with kll_free()), or NULL with errno EINVAL
 * (k out of range) or ENOMEM.
 */
struct kll_sketch *kll_new(unsigned int k, __u64 seed);

/**
 * kll_free() - release a sketch (NULL is allowed)
 * @sk:		sketch
 */
void kll_free(struct kll_sketch *sk);

/**
 * kll_update() - add one item
 * @sk:		sketch
 * @x:		the item (e.g. a latency in ns)
 *
 * Return: 0; -EINVAL if @x is NaN (not added); -ENOMEM (not added).
 */
int kll_update(struct kll_sketch *sk, double x);

/**
 * kll_merge() - add another sketch's items to @dst
 * @dst:	sketch that receives the summary of both streams
 * @src:	sketch to add, unchanged; same k as @dst
 *
 * The compaction counts add up, so kll_rank_error_bound() stays valid for
 * the union of both streams.
 *
 * Return: 0; -EINVAL if the k differ or @src is @dst (@dst unchanged);
 * -ENOMEM: either before anything moved (@dst unchanged) or in the final
 * compaction (@dst then summarises both streams, above its capacity).
 */
int kll_merge(struct kll_sketch *dst, const struct kll_sketch *src);

/**
 * kll_count() - items added so far (n), merged ones included
 * @sk:		sketch
 *
 * Return: n.
 */
__u64 kll_count(const struct kll_sketch *sk);

/**
 * kll_get_k() - the sketch's k
 * @sk:		sketch
 *
 * Return: k.
 */
unsigned int kll_get_k(const struct kll_sketch *sk);

/**
 * kll_rank() - estimated number of items <= @x
 * @sk:		sketch
 * @x:		value
 *
 * Return: the weighted count of retained items <= @x, 0 .. n.
 */
__u64 kll_rank(const struct kll_sketch *sk, double x);

/**
 * kll_quantiles() - several quantiles from one sorted view
 * @sk:		sketch
 * @q:		ranks as fractions, each in [0, 1]
 * @nq:		number of entries of @q and @out
 * @out:	for each @q[i], the smallest retained item whose estimated
 *		rank (weighted count of items <= it) is >= @q[i] * n
 *
 * With t the rank error bound, the true rank interval of @out[i] meets
 * [q n - t, q n + t]: fewer than q n + t items are below it and at least
 * q n - t are at or below it.
 *
 * Return: 0; -EINVAL for a @q outside [0, 1]; -ENOENT if the sketch is
 * empty; -ENOMEM.
 */
int kll_quantiles(const struct kll_sketch *sk, const double *q, size_t nq, double *out);

/**
 * kll_quantile() - one quantile, as kll_quantiles()
 * @sk:		sketch
 * @q:		rank as a fraction in [0, 1] (0.5: median, 0.99: p99)
 * @out:	the quantile
 *
 * Return: 0, -EINVAL, -ENOENT or -ENOMEM as kll_quantiles().
 */
int kll_quantile(const struct kll_sketch *sk, double q, double *out);

/**
 * kll_rank_error_bound() - rank error bound of this sketch, in items
 * @sk:		sketch
 * @delta:	failure probability for one query, 0 < @delta < 1
 *
 * Return: t = sqrt(2 ln(2/@delta) sum_h m_h 4^h) in items (0 while no
 * compaction happened: the sketch is then exact); divide by n for the
 * normalised error. NaN for @delta out of range.
 */
double kll_rank_error_bound(const struct kll_sketch *sk, double delta);

/**
 * kll_rank_error_apriori() - normalised rank error bound for any stream
 * @k:		sketch parameter
 * @delta:	failure probability for one query, 0 < @delta < 1
 *
 * Return: sqrt(24 ln(2/@delta)) / @k, a fraction of n (k = 200,
 * delta = 0.01: 5.6 %). NaN for parameters out of range.
 */
double kll_rank_error_apriori(unsigned int k, double delta);

/**
 * kll_retained() - items the sketch holds now
 * @sk:		sketch
 *
 * Return: number of retained items (8 bytes each).
 */
size_t kll_retained(const struct kll_sketch *sk);

/**
 * kll_retained_bound() - most items a sketch of @k holds after @n items
 * @k:		sketch parameter
 * @n:		items added
 *
 * Return: the total capacity of the levels the sketch can have, at most
 * 3k + 2H items for H levels; multiply by 8 for bytes.
 */
size_t kll_retained_bound(unsigned int k, __u64 n);

/**
 * kll_serialized_size() - bytes kll_serialize() writes for @sk
 * @sk:		sketch
 *
 * Return: 24 + 12 H + 8 * kll_retained(@sk).
 */
size_t kll_serialized_size(const struct kll_sketch *sk);

/**
 * kll_serialize() - the sketch as bytes (format above)
 * @sk:		sketch
 * @buf:	destination
 * @len:	size of @buf in bytes
 *
 * Return: bytes written; -EMSGSIZE if @len < kll_serialized_size(@sk).
 */
ssize_t kll_serialize(const struct kll_sketch *sk, void *buf, size_t len);

/**
 * kll_deserialize() - a sketch from kll_serialize()'s bytes
 * @buf:	bytes
 * @len:	number of bytes
 * @err:	if not NULL, set to 0 or the negative errno
 *
 * Checks the magic, k, the level count, that the length matches, that no
 * item is NaN and that n equals the items' total weight.
 *
 * Return: the sketch, or NULL with *@err -EINVAL (malformed), -EMSGSIZE
 * (truncated or trailing bytes) or -ENOMEM.
 */
struct kll_sketch *kll_deserialize(const void *buf, size_t len, int *err);

#endif /* __HOPMARK_KLL_H */
