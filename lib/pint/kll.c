// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * kll.c - KLL quantile sketch (Karnin, Lang, Liberty 2016); see kll.h for
 * the structure, the memory and the rank error bounds.
 */
#include <errno.h>
#include <math.h>		/* isnan(): a macro, no libm */
#include <stdlib.h>
#include <string.h>

#include "pint/kll.h"
#include "pint/pint_fmath.h"

/**
 * struct kll_level - one compactor
 * @items:	retained items, weight 2^h each (unsorted but after a
 *		compaction, sorted by kll_compact() when it runs)
 * @size:	number of items in @items
 * @alloc:	allocated entries of @items
 * @compactions: times this level was compacted (m_h of the error bound)
 */
struct kll_level {
	double *items;
	__u32 size;
	__u32 alloc;
	__u64 compactions;
};

/**
 * struct kll_sketch - the sketch
 * @k:		top level capacity
 * @nlevels:	levels in use, H >= 1
 * @n:		items seen (merged ones included)
 * @rng:	splitmix64 state of the compaction coin
 * @size:	items retained, all levels
 * @total_cap:	sum of the levels' capacities for @nlevels levels
 * @cap:	capacity of each level for @nlevels levels
 * @lv:		the levels, 0 = weight 1
 */
struct kll_sketch {
	unsigned int k;
	unsigned int nlevels;
	__u64 n;
	__u64 rng;
	size_t size;
	size_t total_cap;
	__u32 cap[KLL_MAX_LEVELS];
	struct kll_level lv[KLL_MAX_LEVELS];
};

static __u64 kll_next(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Capacity of level @h of @nlevels: max(2, ceil(k (2/3)^d)), d = H-1-h,
 * in exact integer arithmetic so every build agrees. (2/3)^31 * 65535 < 1.
 */
static __u32 kll_cap(unsigned int k, unsigned int nlevels, unsigned int h)
{
	unsigned int d = nlevels - 1 - h, i;
	__u64 num = k, den = 1, c;

	if (d > 30)
		return KLL_MIN_CAP;
	for (i = 0; i < d; i++) {
		num <<= 1;
		den *= 3;
	}
	c = (num + den - 1) / den;
	return c < KLL_MIN_CAP ? KLL_MIN_CAP : (__u32)c;
}

static size_t kll_total_cap(unsigned int k, unsigned int nlevels)
{
	size_t t = 0;
	unsigned int h;

	for (h = 0; h < nlevels; h++)
		t += kll_cap(k, nlevels, h);
	return t;
}

/* Capacities depend on the number of levels only: computed when it changes. */
static void kll_set_levels(struct kll_sketch *sk, unsigned int nlevels)
{
	unsigned int h;

	sk->nlevels = nlevels;
	sk->total_cap = 0;
	for (h = 0; h < nlevels; h++) {
		sk->cap[h] = kll_cap(sk->k, nlevels, h);
		sk->total_cap += sk->cap[h];
	}
}

struct kll_sketch *kll_new(unsigned int k, __u64 seed)
{
	struct kll_sketch *sk;

	if (k < KLL_K_MIN || k > KLL_K_MAX) {
		errno = EINVAL;
		return NULL;
	}
	sk = calloc(1, sizeof(*sk));
	if (!sk)
		return NULL;
	sk->k = k;
	sk->rng = seed;
	kll_set_levels(sk, 1);
	return sk;
}

void kll_free(struct kll_sketch *sk)
{
	unsigned int h;

	if (!sk)
		return;
	for (h = 0; h < KLL_MAX_LEVELS; h++)
		free(sk->lv[h].items);
	free(sk);
}

static int kll_reserve(struct kll_level *l, size_t want)
{
	size_t alloc = l->alloc ? l->alloc : 8;
	double *p;

	if (want <= l->alloc)
		return 0;
	if (want > 0xffffffffULL)
		return -ENOMEM;
	while (alloc < want)
		alloc *= 2;
	if (alloc > 0xffffffffULL)
		alloc = 0xffffffffULL;
	p = realloc(l->items, alloc * sizeof(*p));
	if (!p)
		return -ENOMEM;
	l->items = p;
	l->alloc = alloc;
	return 0;
}

static int kll_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Compact level @h into @h + 1: sort, odd one out stays, a coin picks half. */
static int kll_compact(struct kll_sketch *sk, unsigned int h)
{
	struct kll_level *l = &sk->lv[h], *up = &sk->lv[h + 1];
	__u32 start = l->size & 1, pairs = l->size / 2, j, off;
	int err;

	err = kll_reserve(up, (size_t)up->size + pairs);
	if (err)
		return err;
	qsort(l->items, l->size, sizeof(double), kll_cmp_double);
	off = kll_next(&sk->rng) & 1;
	for (j = 0; j < pairs; j++)
		up->items[up->size++] = l->items[start + 2 * j + off];
	/* The odd one out (the smallest) stays at weight 2^h. */
	l->size = start;
	sk->size -= pairs;
	l->compactions++;
	return 0;
}

static size_t kll_size(const struct kll_sketch *sk)
{
	return sk->size;
}

/* Compact until the items fit the levels' total capacity. */
static int kll_compress(struct kll_sketch *sk)
{
	int err;

	while (sk->size > sk->total_cap) {
		unsigned int h;

		for (h = 0; h < sk->nlevels; h++)
			if (sk->lv[h].size >= sk->cap[h])
				break;
		/*
		 * Over the total, some level is at or over its own capacity;
		 * if that is the top one, a new top level is opened above.
		 */
		if (h == sk->nlevels)
			h = sk->nlevels - 1;
		if (h + 1 == sk->nlevels) {
			if (sk->nlevels == KLL_MAX_LEVELS)
				return -EOVERFLOW;
			kll_set_levels(sk, sk->nlevels + 1);
		}
		err = kll_compact(sk, h);
		if (err)
			return err;
	}
	return 0;
}

int kll_update(struct kll_sketch *sk, double x)
{
	struct kll_level *l0 = &sk->lv[0];
	int err;

	if (isnan(x))
		return -EINVAL;
	err = kll_reserve(l0, (size_t)l0->size + 1);
	if (err)
		return err;
	l0->items[l0->size++] = x;
	sk->size++;
	sk->n++;
	return kll_compress(sk);
}

int kll_merge(struct kll_sketch *dst, const struct kll_sketch *src)
{
	unsigned int h;
	int err;

	if (dst == src || dst->k != src->k)
		return -EINVAL;
	for (h = 0; h < src->nlevels; h++) {
		err = kll_reserve(&dst->lv[h], (size_t)dst->lv[h].size + src->lv[h].size);
		if (err)
			return err;
	}
	for (h = 0; h < src->nlevels; h++) {
		struct kll_level *d = &dst->lv[h];
		const struct kll_level *s = &src->lv[h];

		/* A level never filled has no items array: memcpy() must not get NULL. */
		if (!s->size)
			continue;
		memcpy(d->items + d->size, s->items, s->size * sizeof(double));
		d->size += s->size;
		d->compactions += s->compactions;
	}
	if (src->nlevels > dst->nlevels)
		kll_set_levels(dst, src->nlevels);
	dst->size += src->size;
	dst->n += src->n;
	/* Decorrelate the coins of two sketches made with the same seed. */
	dst->rng ^= kll_next(&(__u64){ src->rng });
	return kll_compress(dst);
}

__u64 kll_count(const struct kll_sketch *sk)
{
	return sk->n;
}

unsigned int kll_get_k(const struct kll_sketch *sk)
{
	return sk->k;
}

__u64 kll_rank(const struct kll_sketch *sk, double x)
{
	__u64 r = 0;
	unsigned int h;
	__u32 i;

	for (h = 0; h < sk->nlevels; h++) {
		__u64 c = 0;

		for (i = 0; i < sk->lv[h].size; i++)
			c += sk->lv[h].items[i] <= x;
		r += c << h;
	}
	return r;
}

struct kll_witem {
	double x;
	__u64 w;
};

static int kll_cmp_witem(const void *a, const void *b)
{
	return kll_cmp_double(&((const struct kll_witem *)a)->x,
			      &((const struct kll_witem *)b)->x);
}

int kll_quantiles(const struct kll_sketch *sk, const double *q, size_t nq, double *out)
{
	struct kll_witem *v;
	size_t m = kll_size(sk), i, j, p;
	unsigned int h;

	for (i = 0; i < nq; i++)
		if (!(q[i] >= 0.0 && q[i] <= 1.0))
			return -EINVAL;
	if (!m)
		return -ENOENT;
	v = malloc(m * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (h = 0, p = 0; h < sk->nlevels; h++)
		for (j = 0; j < sk->lv[h].size; j++) {
			v[p].x = sk->lv[h].items[j];
			v[p++].w = 1ULL << h;
		}
	qsort(v, m, sizeof(*v), kll_cmp_witem);
	for (i = 0; i < nq; i++) {
		double target = q[i] * (double)sk->n;
		__u64 cum = 0;

		/* Estimated rank counts equal items too: take a run of ties whole. */
		for (j = 0; j < m; j++) {
			cum += v[j].w;
			while (j + 1 < m && v[j + 1].x == v[j].x)
				cum += v[++j].w;
			if ((double)cum >= target)
				break;
		}
		out[i] = v[j < m ? j : m - 1].x;
	}
	free(v);
	return 0;
}

int kll_quantile(const struct kll_sketch *sk, double q, double *out)
{
	return kll_quantiles(sk, &q, 1, out);
}

double kll_rank_error_bound(const struct kll_sketch *sk, double delta)
{
	double s = 0.0;
	unsigned int h;

	if (!(delta > 0.0 && delta < 1.0))
		return __builtin_nan("");
	for (h = 0; h < sk->nlevels; h++)
		s += (double)sk->lv[h].compactions * pint_fm_pow2i(2 * h);
	return pint_fm_sqrt(2.0 * pint_fm_ln(2.0 / delta) * s);
}

double kll_rank_error_apriori(unsigned int k, double delta)
{
	if (k < KLL_K_MIN || k > KLL_K_MAX || !(delta > 0.0 && delta < 1.0))
		return __builtin_nan("");
	return pint_fm_sqrt(24.0 * pint_fm_ln(2.0 / delta)) / k;
}

size_t kll_retained(const struct kll_sketch *sk)
{
	return kll_size(sk);
}

size_t kll_retained_bound(unsigned int k, __u64 n)
{
	unsigned int H = 1;

	/*
	 * Level H-1 exists only once level H-2 was compacted as the top
	 * level, holding >= k items of weight 2^(H-2): n >= k 2^(H-2).
	 */
	while (H < KLL_MAX_LEVELS && (double)k * pint_fm_pow2i(H - 1) <= (double)n)
		H++;
	return kll_total_cap(k, H);
}

size_t kll_serialized_size(const struct kll_sketch *sk)
{
	return KLL_SER_HDR_LEN + (size_t)KLL_SER_LEVEL_LEN * sk->nlevels +
	       8 * kll_size(sk);
}

static void kll_put_le(__u8 *p, __u64 v, int len)
{
	int i;

	for (i = 0; i < len; i++)
		p[i] = v >> (8 * i);
}

static __u64 kll_get_le(const __u8 *p, int len)
{
	__u64 v = 0;
	int i;

	for (i = 0; i < len; i++)
		v |= (__u64)p[i] << (8 * i);
	return v;
}

ssize_t kll_serialize(const struct kll_sketch *sk, void *buf, size_t len)
{
	size_t need = kll_serialized_size(sk);
	__u8 *p = buf;
	unsigned int h;
	__u32 i;

	if (len < need)
		return -EMSGSIZE;
	memcpy(p, KLL_SER_MAGIC, 4);
	kll_put_le(p + 4, sk->k, 2);
	p[6] = sk->nlevels;
	p[7] = 0;
	kll_put_le(p + 8, sk->n, 8);
	kll_put_le(p + 16, sk->rng, 8);
	p += KLL_SER_HDR_LEN;
	for (h = 0; h < sk->nlevels; h++, p += KLL_SER_LEVEL_LEN) {
		kll_put_le(p, sk->lv[h].size, 4);
		kll_put_le(p + 4, sk->lv[h].compactions, 8);
	}
	for (h = 0; h < sk->nlevels; h++)
		for (i = 0; i < sk->lv[h].size; i++, p += 8) {
			__u64 bits;

			memcpy(&bits, &sk->lv[h].items[i], 8);
			kll_put_le(p, bits, 8);
		}
	return need;
}

struct kll_sketch *kll_deserialize(const void *buf, size_t len, int *err)
{
	const __u8 *p = buf, *lvp;
	struct kll_sketch *sk = NULL;
	unsigned int k, H, h;
	size_t items = 0;
	__u64 weight = 0;
	int e = -EINVAL;
	__u32 i;

	if (len < KLL_SER_HDR_LEN) {
		e = -EMSGSIZE;
		goto fail;
	}
	k = kll_get_le(p + 4, 2);
	H = p[6];
	if (memcmp(p, KLL_SER_MAGIC, 4) || p[7] || H < 1 || H > KLL_MAX_LEVELS ||
	    k < KLL_K_MIN)
		goto fail;
	if (len < KLL_SER_HDR_LEN + (size_t)KLL_SER_LEVEL_LEN * H) {
		e = -EMSGSIZE;
		goto fail;
	}
	lvp = p + KLL_SER_HDR_LEN;
	for (h = 0; h < H; h++)
		items += kll_get_le(lvp + h * KLL_SER_LEVEL_LEN, 4);
	if (len != KLL_SER_HDR_LEN + (size_t)KLL_SER_LEVEL_LEN * H + 8 * items) {
		e = -EMSGSIZE;
		goto fail;
	}
	sk = kll_new(k, 0);
	if (!sk) {
		e = -ENOMEM;
		goto fail;
	}
	kll_set_levels(sk, H);
	sk->n = kll_get_le(p + 8, 8);
	sk->rng = kll_get_le(p + 16, 8);
	p = lvp + (size_t)KLL_SER_LEVEL_LEN * H;
	for (h = 0; h < H; h++) {
		struct kll_level *l = &sk->lv[h];
		__u32 size = kll_get_le(lvp + h * KLL_SER_LEVEL_LEN, 4);

		l->compactions = kll_get_le(lvp + h * KLL_SER_LEVEL_LEN + 4, 8);
		if (size && kll_reserve(l, size)) {
			e = -ENOMEM;
			goto fail;
		}
		for (i = 0; i < size; i++, p += 8) {
			__u64 bits = kll_get_le(p, 8);

			memcpy(&l->items[i], &bits, 8);
			if (isnan(l->items[i]))
				goto fail;
		}
		l->size = size;
		sk->size += size;
		/* Weight of this level; a sum past 2^64 cannot match n. */
		if ((__u64)size > (~0ULL >> h))
			goto fail;
		if ((__u64)size << h > ~0ULL - weight)
			goto fail;
		weight += (__u64)size << h;
	}
	if (weight != sk->n)
		goto fail;
	if (err)
		*err = 0;
	return sk;
fail:
	kll_free(sk);
	if (err)
		*err = e;
	return NULL;
}
