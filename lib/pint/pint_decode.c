// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_decode.c - the sink's PINT path-tracing decoder (PINT paper §4.2):
 * per-hop candidate sets over the known switches, narrowed by every packet
 * whose equation has one unknown hop; XOR equations with several unknown
 * hops kept and peeled as hops become known; optional topology-aware
 * pruning (consecutive hops adjacent); route changes and loops detected.
 *
 * Why candidate sets: with b-bit hashed digests, one packet only says
 * h(ID_i, pid) = x, which 1/2^b of the wrong switches also satisfy. The
 * true switch satisfies every packet's equation, so it never leaves the
 * set; a hop counts as known only when its set is down to one switch, so
 * a decoded path is never a hash-collision guess. An empty set (or a fully
 * known equation that does not hold) can only mean the packets came over
 * different paths: the route changed, and the inference restarts.
 *
 * Why it is fast (issue 10, "Faster decoding at the sink"; numbers in
 * Documentation/pint.rst, "Decoder speed"): a set is kept as the list of
 * its survivors once small, so a packet hashes only the switches still
 * possible at its hop, not the whole universe; the one scan of the whole
 * universe a hop needs (its first constraint) hashes 16 switches at a
 * time (AVX-512; 8 with AVX2), from each switch's first MurmurHash3 round
 * computed once per decoder; per packet the act hash's first round is
 * computed once for all hops; topology-aware pruning skips the prunes
 * that cannot remove anything and runs each from its cheaper side. Only
 * the representation and the order of the prunes changed: every set,
 * count, equation and result is what the bitmap-only decoder had after
 * every packet (build/bench/pint-eval's tables are identical).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pint/pint_path.h"

#define PINT_DEC_MAX_EQS	4096

struct pint_eq {
	__u32	pid;
	__u32	residual;
	__u64	unknown;	/* bit i: hop i + 1 still unknown */
};

/* filter_all_*(): the nodes whose digest is x (below). */
typedef unsigned int (*filter_fn)(const __u32 *vs, unsigned int n, __u32 vkey, __u32 mask,
				  __u32 x, unsigned int *out);

struct pint_id_idx {
	__u32		id;
	unsigned int	idx;
};

/*
 * Hop h's candidate set lives in slot h, nw 32-bit words (one bit per
 * switch, as many bytes as a bitmap), in one of three forms told apart by
 * cnt[h] alone:
 *   cnt[h] == nr_nodes		every switch (the slot is not read)
 *   cnt[h] <= nw		a list of cnt[h] node indices, in any order
 *   otherwise			a bitmap over node indices
 * A list of up to nw entries fits the bitmap's room, so a decoder never
 * allocates after pint_decoder_new().
 */
struct pint_decoder {
	struct pint_path_params	p;
	struct pint_topo	topo;
	unsigned int		flags;
	unsigned int		max_hops;
	__u32			mask;		/* pint_bits_mask(p.bits) */
	unsigned int		nw;		/* 32-bit words per slot */
	__u32			*slots;		/* PINT_DECODE_MAX_HOPS slots */
	__u32			*vstate;	/* hashed digests: value hash after the ID,
						 * rotated (murmur_tail_rot()) */
	filter_fn		filter;		/* hashed digests: pick_filter() */
	struct pint_id_idx	*by_id;		/* full-ID digests: sorted */
	unsigned int		*scratch;	/* nr_nodes node indices */
	__u32			*mark;		/* topology-aware: nw words */
	__u32			hop_block[PINT_DECODE_MAX_HOPS + 1];	/* act hash word 2 */
	__u32			base_thresh[PINT_DECODE_MAX_HOPS + 1];
	unsigned int		k;		/* hop count, 0 = nothing yet */
	unsigned int		cnt[PINT_DECODE_MAX_HOPS];
	int			known[PINT_DECODE_MAX_HOPS];	/* node index or -1 */
	__u64			unknown;	/* hops not yet known */
	__u64			dirty_down;	/* changed: hop h - 1 to prune by hop h */
	__u64			dirty_up;	/* changed: hop h + 1 to prune by hop h */
	int			has_isolated;	/* topology-aware: a switch without links */
	unsigned int		*isolated;	/* topology-aware: those switches */
	unsigned int		nr_isolated;
	__u64			avg_deg;	/* topology-aware: mean links, rounded up */
	__u64			avg_deg2;	/* and its square */
	unsigned int		nr_eqs;
	struct pint_eq		*eqs;
	unsigned long		path_packets;
	int			complete;
	struct pint_decoder_stats stats;
};

/*
 * pint_hash32(seed, a, b) split at its second word: murmur_tail(
 * pint_murmur_round(seed, a), murmur_block(b)). The decoder keeps the
 * first part per switch (value hash) or per packet (act hash).
 */
static inline __u32 murmur_block(__u32 k)
{
	k *= 0xcc9e2d51U;
	k = pint_rotl32(k, 15);
	return k * 0x1b873593U;
}

static inline __u32 murmur_tail(__u32 h, __u32 kb)
{
	h ^= kb;
	h = pint_rotl32(h, 13);
	h = h * 5 + 0xe6546b64U;
	return pint_fmix32(h ^ 8);	/* 8: length in octets */
}

/*
 * murmur_tail(h, kb) from rotl(h, 13) and rotl(kb, 13): the rotation of
 * the second round commutes with the xor, so a switch's state is kept
 * rotated and the filter's innermost loop has one operation less.
 */
static inline __u32 murmur_tail_rot(__u32 hr, __u32 kr)
{
	return pint_fmix32(((hr ^ kr) * 5 + 0xe6546b64U) ^ 8);
}

static filter_fn pick_filter(void);

static int cmp_id(const void *a, const void *b)
{
	const struct pint_id_idx *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

struct pint_decoder *pint_decoder_new(const struct pint_path_params *p,
				      const struct pint_topo *topo, unsigned int flags,
				      unsigned int max_hops)
{
	struct pint_decoder *d;
	unsigned int i, n;

	if (!p || !topo || pint_path_params_check(p) || !topo->nr_nodes || !topo->node_id ||
	    (flags & ~PINT_DEC_F_TOPO_AWARE) || max_hops == 0 ||
	    max_hops > PINT_DECODE_MAX_HOPS ||
	    ((flags & PINT_DEC_F_TOPO_AWARE) && (!topo->adj_off || !topo->adj))) {
		errno = EINVAL;
		return NULL;
	}
	n = topo->nr_nodes;
	if (p->flags & PINT_PATH_F_FULL_ID) {
		for (i = 0; i < n; i++) {
			if (topo->node_id[i] & ~pint_bits_mask(p->bits)) {
				errno = EINVAL;	/* a full-ID digest cannot carry it */
				return NULL;
			}
		}
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->p = *p;
	d->topo = *topo;
	d->flags = flags;
	d->max_hops = max_hops;
	d->mask = pint_bits_mask(p->bits);
	d->nw = (n + 31) / 32;
	d->slots = malloc((size_t)PINT_DECODE_MAX_HOPS * d->nw * sizeof(*d->slots));
	d->scratch = malloc((size_t)n * sizeof(*d->scratch));
	d->eqs = calloc(PINT_DEC_MAX_EQS, sizeof(*d->eqs));
	if (p->flags & PINT_PATH_F_FULL_ID)
		d->by_id = malloc((size_t)n * sizeof(*d->by_id));
	else if (posix_memalign((void **)&d->vstate, 64, (size_t)n * sizeof(*d->vstate)))
		d->vstate = NULL;	/* cache-line aligned: no split loads in the filter */
	if (flags & PINT_DEC_F_TOPO_AWARE) {
		d->mark = calloc(d->nw, sizeof(*d->mark));
		for (i = 0; i < n; i++)
			if (topo->adj_off[i] == topo->adj_off[i + 1])
				d->nr_isolated++;
		d->isolated = malloc((d->nr_isolated + 1) * sizeof(*d->isolated));
		d->nr_isolated = 0;
		for (i = 0; d->isolated && i < n; i++)
			if (topo->adj_off[i] == topo->adj_off[i + 1])
				d->isolated[d->nr_isolated++] = i;
		d->has_isolated = d->nr_isolated > 0;
		d->avg_deg = ((__u64)topo->adj_off[n] + n - 1) / n;
		d->avg_deg2 = (__u64)d->avg_deg * d->avg_deg;
	}
	if (!d->slots || !d->scratch || !d->eqs || (!d->by_id && !d->vstate) ||
	    ((flags & PINT_DEC_F_TOPO_AWARE) && (!d->mark || !d->isolated))) {
		pint_decoder_free(d);
		errno = ENOMEM;
		return NULL;
	}
	if (d->by_id) {
		for (i = 0; i < n; i++) {
			d->by_id[i].id = topo->node_id[i];
			d->by_id[i].idx = i;
		}
		qsort(d->by_id, n, sizeof(*d->by_id), cmp_id);
	} else {
		for (i = 0; i < n; i++)
			d->vstate[i] = pint_rotl32(pint_murmur_round(p->seeds.value,
								     topo->node_id[i]), 13);
		d->filter = pick_filter();
	}
	for (i = 1; i <= PINT_DECODE_MAX_HOPS; i++) {
		d->hop_block[i] = murmur_block(i);
		d->base_thresh[i] = pint_prob_thresh_baseline(i);
	}
	return d;
}

void pint_decoder_free(struct pint_decoder *d)
{
	if (!d)
		return;
	free(d->slots);
	free(d->vstate);
	free(d->by_id);
	free(d->scratch);
	free(d->mark);
	free(d->isolated);
	free(d->eqs);
	free(d);
}

void pint_decoder_reset(struct pint_decoder *d)
{
	d->k = 0;
	d->nr_eqs = 0;
	d->complete = 0;
	d->path_packets = 0;
	d->unknown = 0;
	d->dirty_down = 0;
	d->dirty_up = 0;
}

static __u32 *slot(const struct pint_decoder *d, unsigned int h)
{
	return d->slots + (size_t)h * d->nw;
}

static int is_full(const struct pint_decoder *d, unsigned int h)
{
	return d->cnt[h] == d->topo.nr_nodes;
}

static int is_list(const struct pint_decoder *d, unsigned int h)
{
	return d->cnt[h] <= d->nw && !is_full(d, h);
}

static void start(struct pint_decoder *d, unsigned int k)
{
	unsigned int h;

	pint_decoder_reset(d);
	d->k = k;
	d->stats.packets_to_decode = 0;
	d->unknown = k == 64 ? ~0ULL : (1ULL << k) - 1;
	for (h = 0; h < k; h++) {
		d->cnt[h] = d->topo.nr_nodes;
		d->known[h] = -1;
	}
}

/* Hop h's set becomes the c (1 <= c < nr_nodes) distinct nodes of list. */
static void store(struct pint_decoder *d, unsigned int h, const unsigned int *list,
		  unsigned int c)
{
	__u32 *s = slot(d, h);
	unsigned int i;

	d->cnt[h] = c;
	if (c <= d->nw) {
		memcpy(s, list, c * sizeof(*s));
		return;
	}
	memset(s, 0, d->nw * sizeof(*s));
	for (i = 0; i < c; i++)
		s[list[i] / 32] |= 1U << (list[i] % 32);
}

/* The low b bits of h(ID of node idx, pid), vkey = rotl(murmur_block(pid), 13). */
static inline __u32 node_digest(const struct pint_decoder *d, unsigned int idx, __u32 vkey)
{
	if (d->p.flags & PINT_PATH_F_FULL_ID)
		return d->topo.node_id[idx] & d->mask;
	return murmur_tail_rot(d->vstate[idx], vkey) & d->mask;
}

static inline __u32 value_key(__u32 pid)
{
	return pint_rotl32(murmur_block(pid), 13);
}

/*
 * Every node of the universe whose digest is x, into out (ascending): the
 * only loop over the whole universe, once per hop and inference. Three
 * forms of the same arithmetic (murmur_tail_rot() on 16 or 8 switches at a
 * time with AVX-512 or AVX2, or one at a time), chosen per decoder by
 * pick_filter(); test_pint_decode checks each against a brute-force count.
 */
/* Nodes from..n-1; c matches already in out. */
static inline unsigned int filter_tail(const __u32 *vs, unsigned int from, unsigned int n,
				       __u32 vkey, __u32 mask, __u32 x, unsigned int *out,
				       unsigned int c)
{
	unsigned int i;

	for (i = from; i < n; i++)
		if ((murmur_tail_rot(vs[i], vkey) & mask) == x)
			out[c++] = i;
	return c;
}

static unsigned int filter_all_scalar(const __u32 *vs, unsigned int n, __u32 vkey,
				      __u32 mask, __u32 x, unsigned int *out)
{
	return filter_tail(vs, 0, n, vkey, mask, x, out, 0);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define PINT_DEC_X86_SIMD 1
#include <immintrin.h>

/*
 * murmur_tail_rot() & mask of the 16 rotated states at vs + i, xored with
 * the rotated key k, compared with x: the mask of the matching lanes.
 */
#define PINT_MATCH512(eq)							\
	do {									\
		__m512i h = _mm512_xor_si512(_mm512_loadu_si512((const void *)(vs + i)), k); \
										\
		h = _mm512_add_epi32(_mm512_add_epi32(_mm512_slli_epi32(h, 2), h), c1); \
		/* ((h ^ 8) ^ (h ^ 8) >> 16) == h ^ h >> 16 ^ 8: one xor3 */	\
		h = _mm512_ternarylogic_epi32(h, _mm512_srli_epi32(h, 16), eight, 0x96); \
		h = _mm512_mullo_epi32(h, m1);					\
		h = _mm512_xor_si512(h, _mm512_srli_epi32(h, 13));		\
		h = _mm512_mullo_epi32(h, m2);					\
		/* (h ^ h >> 16) & mask */					\
		h = _mm512_ternarylogic_epi32(h, _mm512_srli_epi32(h, 16), mk, 0x28); \
		eq = _mm512_cmpeq_epi32_mask(h, xx);				\
	} while (0)

__attribute__((target("avx512f,popcnt")))
static unsigned int filter_all_avx512(const __u32 *vs, unsigned int n, __u32 vkey,
				      __u32 mask, __u32 x, unsigned int *out)
{
	const __m512i k = _mm512_set1_epi32(vkey), c1 = _mm512_set1_epi32(0xe6546b64U);
	const __m512i eight = _mm512_set1_epi32(8), m1 = _mm512_set1_epi32(0x85ebca6bU);
	const __m512i m2 = _mm512_set1_epi32(0xc2b2ae35U), mk = _mm512_set1_epi32(mask);
	const __m512i xx = _mm512_set1_epi32(x), sixteen = _mm512_set1_epi32(16);
	__m512i idx = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	unsigned int i = 0, c = 0;
	__mmask16 eq;

	if (mask < 0x40) {
		/*
		 * b <= 6: a block of 16 holds a match often and at random, so
		 * the matches' indices are packed without a branch; the 16
		 * entries stored fit below n as c <= i.
		 */
		for (; i + 16 <= n; i += 16) {
			PINT_MATCH512(eq);
			_mm512_storeu_si512((void *)(out + c), _mm512_maskz_compress_epi32(eq, idx));
			c += __builtin_popcount(eq);
			idx = _mm512_add_epi32(idx, sixteen);
		}
	} else {
		/* wider digests: a match is rare, the branch is well predicted */
		for (; i + 16 <= n; i += 16) {
			PINT_MATCH512(eq);
			while (eq) {
				out[c++] = i + __builtin_ctz(eq);
				eq &= eq - 1;
			}
		}
	}
	return filter_tail(vs, i, n, vkey, mask, x, out, c);
}

/* murmur_tail_rot() of 8 rotated states h, xored with the rotated key k */
#define PINT_TAIL256(h)								\
	do {									\
		h = _mm256_xor_si256(h, k);					\
		h = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(h, 2), h), c1); \
		h = _mm256_xor_si256(h, eight);					\
		h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));		\
		h = _mm256_mullo_epi32(h, m1);					\
		h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 13));		\
		h = _mm256_mullo_epi32(h, m2);					\
		h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));		\
		h = _mm256_cmpeq_epi32(_mm256_and_si256(h, mk), xx);		\
	} while (0)

__attribute__((target("avx2")))
static unsigned int filter_all_avx2(const __u32 *vs, unsigned int n, __u32 vkey,
				    __u32 mask, __u32 x, unsigned int *out)
{
	const __m256i k = _mm256_set1_epi32(vkey), c1 = _mm256_set1_epi32(0xe6546b64U);
	const __m256i eight = _mm256_set1_epi32(8), m1 = _mm256_set1_epi32(0x85ebca6bU);
	const __m256i m2 = _mm256_set1_epi32(0xc2b2ae35U), mk = _mm256_set1_epi32(mask);
	const __m256i xx = _mm256_set1_epi32(x);
	unsigned int i = 0, c = 0;

	/* 16 switches a round: two independent chains hide the multiplies' latency */
	for (; i + 16 <= n; i += 16) {
		__m256i a = _mm256_loadu_si256((const void *)(vs + i));
		__m256i b = _mm256_loadu_si256((const void *)(vs + i + 8));
		unsigned int eq;

		PINT_TAIL256(a);
		PINT_TAIL256(b);
		eq = _mm256_movemask_ps(_mm256_castsi256_ps(a)) |
		     _mm256_movemask_ps(_mm256_castsi256_ps(b)) << 8;
		while (eq) {
			out[c++] = i + __builtin_ctz(eq);
			eq &= eq - 1;
		}
	}
	return filter_tail(vs, i, n, vkey, mask, x, out, c);
}
#endif

/*
 * The widest form this CPU runs; HM_PINT_DECODE_SIMD=scalar, avx2 or
 * avx512 asks for a narrower one (tests, comparisons), never a wider one.
 */
static filter_fn pick_filter(void)
{
#ifdef PINT_DEC_X86_SIMD
	const char *want = getenv("HM_PINT_DECODE_SIMD");
	int level = 2;

	if (want && !strcmp(want, "scalar"))
		level = 0;
	else if (want && !strcmp(want, "avx2"))
		level = 1;
	__builtin_cpu_init();
	if (level >= 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("popcnt"))
		return filter_all_avx512;
	if (level >= 1 && __builtin_cpu_supports("avx2"))
		return filter_all_avx2;
#endif
	return filter_all_scalar;
}

/* Is node idx in hop h's set? */
static int has(const struct pint_decoder *d, unsigned int h, unsigned int idx)
{
	const __u32 *s = slot(d, h);
	unsigned int i;

	if (is_full(d, h))
		return 1;
	if (!is_list(d, h))
		return !!(s[idx / 32] & (1U << (idx % 32)));
	for (i = 0; i < d->cnt[h]; i++)
		if (s[i] == idx)
			return 1;
	return 0;
}

/*
 * Keep at hop h only the switches whose digest on packet pid is x.
 * Return: -1 if the set would become empty (it is kept as it was: the
 * packet may then be ignored), 1 if it shrank, 0 if unchanged.
 */
static int constrain(struct pint_decoder *d, unsigned int h, __u32 pid, __u32 x)
{
	const __u32 *s = slot(d, h);
	__u32 vkey = value_key(pid);
	unsigned int i, c = 0;

	if (d->p.flags & PINT_PATH_F_FULL_ID) {
		struct pint_id_idx key = { .id = x }, *r;

		r = bsearch(&key, d->by_id, d->topo.nr_nodes, sizeof(*r), cmp_id);
		if (!r || !has(d, h, r->idx))
			return -1;
		if (d->cnt[h] == 1)
			return 0;
		store(d, h, &r->idx, 1);
		d->dirty_down |= 1ULL << h;
		d->dirty_up |= 1ULL << h;
		return 1;
	}
	if (is_full(d, h)) {
		c = d->filter(d->vstate, d->topo.nr_nodes, vkey, d->mask, x, d->scratch);
	} else if (is_list(d, h)) {
		for (i = 0; i < d->cnt[h]; i++)
			if (node_digest(d, s[i], vkey) == x)
				d->scratch[c++] = s[i];
	} else {
		for (i = 0; i < d->nw; i++) {
			__u32 m = s[i];

			while (m) {
				unsigned int idx = i * 32 + __builtin_ctz(m);

				m &= m - 1;
				if (node_digest(d, idx, vkey) == x)
					d->scratch[c++] = idx;
			}
		}
	}
	if (!c)
		return -1;
	if (c == d->cnt[h])
		return 0;
	store(d, h, d->scratch, c);
	d->dirty_down |= 1ULL << h;
	d->dirty_up |= 1ULL << h;
	return 1;
}

/* Set-bit count of a 32-bit word (no popcnt instruction in the baseline ISA). */
static inline unsigned int popcount32(__u32 x)
{
	x = x - ((x >> 1) & 0x55555555U);
	x = (x & 0x33333333U) + ((x >> 2) & 0x33333333U);
	x = (x + (x >> 4)) & 0x0f0f0f0fU;
	return (x * 0x01010101U) >> 24;
}

/* The nodes of a bitmap of nw words, into out. Return: their number. */
static unsigned int bitmap_list(const __u32 *s, unsigned int nw, unsigned int *out)
{
	unsigned int i, c = 0;

	for (i = 0; i < nw; i++) {
		__u32 w = s[i];

		while (w) {
			out[c++] = i * 32 + __builtin_ctz(w);
			w &= w - 1;
		}
	}
	return c;
}

static void mark_neighbours(struct pint_decoder *d, unsigned int u)
{
	unsigned int e;

	for (e = d->topo.adj_off[u]; e < d->topo.adj_off[u + 1]; e++) {
		unsigned int v = d->topo.adj[e];

		d->mark[v / 32] |= 1U << (v % 32);
	}
}

/*
 * Hop t (next to h) changed by prune_adjacent(h, t): t's other neighbour
 * must be pruned by it, h need not: every switch of h had a neighbour in
 * t's old set, and that neighbour, adjacent to h's set, stayed. Unless t
 * was the whole universe, which switches without links are no neighbour
 * of: then h loses those of its own.
 */
static void pruned(struct pint_decoder *d, unsigned int h, unsigned int t, int was_full)
{
	if (t < h)
		d->dirty_down |= 1ULL << t;
	else
		d->dirty_up |= 1ULL << t;
	if (was_full && d->has_isolated) {
		if (t < h)
			d->dirty_up |= 1ULL << t;
		else
			d->dirty_down |= 1ULL << t;
	}
}

/* Has node v a neighbour in the bitmap s? */
static int has_neighbour_in(const struct pint_decoder *d, unsigned int v, const __u32 *s)
{
	unsigned int e;

	for (e = d->topo.adj_off[v]; e < d->topo.adj_off[v + 1]; e++) {
		unsigned int u = d->topo.adj[e];

		if (s[u / 32] & (1U << (u % 32)))
			return 1;
	}
	return 0;
}

/*
 * prune_adjacent() from the smaller side: each switch of hop t (not the
 * whole universe) looks for a neighbour among hop h's switches.
 */
static int prune_from_target(struct pint_decoder *d, unsigned int h, unsigned int t)
{
	const __u32 *s = slot(d, h), *dst = slot(d, t), *hs = s;
	unsigned int i, c = 0;

	if (is_list(d, h)) {
		memset(d->mark, 0, d->nw * sizeof(*d->mark));
		for (i = 0; i < d->cnt[h]; i++)
			d->mark[s[i] / 32] |= 1U << (s[i] % 32);
		hs = d->mark;
	}
	if (is_list(d, t)) {
		for (i = 0; i < d->cnt[t]; i++)
			if (has_neighbour_in(d, dst[i], hs))
				d->scratch[c++] = dst[i];
	} else {
		for (i = 0; i < d->nw; i++) {
			__u32 w = dst[i];

			while (w) {
				unsigned int v = i * 32 + __builtin_ctz(w);

				w &= w - 1;
				if (has_neighbour_in(d, v, hs))
					d->scratch[c++] = v;
			}
		}
	}
	if (!c)
		return -1;
	if (c == d->cnt[t])
		return 0;
	store(d, t, d->scratch, c);
	pruned(d, h, t, 0);
	return 1;
}

/*
 * prune_adjacent() when hop h (held as a bitmap) is most of the universe:
 * a switch is a neighbour of none of h's switches iff all its links lead
 * outside h, so only the neighbours of the few switches outside h (and
 * the switches without links) can leave hop t (the universe or a bitmap).
 */
static int prune_from_complement(struct pint_decoder *d, unsigned int h, unsigned int t)
{
	const __u32 *s = slot(d, h);
	__u32 *dst = slot(d, t);
	unsigned int i, e, nx = 0, n = d->topo.nr_nodes;
	__u32 last = n % 32 ? (1U << (n % 32)) - 1 : ~0U;
	int was_full = is_full(d, t);

	memset(d->mark, 0, d->nw * sizeof(*d->mark));	/* switches looked at */
	for (i = 0; i < d->nw; i++) {
		__u32 w = ~s[i] & (i + 1 == d->nw ? last : ~0U);

		while (w) {
			unsigned int u = i * 32 + __builtin_ctz(w);

			w &= w - 1;
			for (e = d->topo.adj_off[u]; e < d->topo.adj_off[u + 1]; e++) {
				unsigned int v = d->topo.adj[e];

				if (d->mark[v / 32] & (1U << (v % 32)))
					continue;
				d->mark[v / 32] |= 1U << (v % 32);
				if ((was_full || (dst[v / 32] & (1U << (v % 32)))) &&
				    !has_neighbour_in(d, v, s))
					d->scratch[nx++] = v;
			}
		}
	}
	for (i = 0; i < d->nr_isolated; i++) {
		unsigned int v = d->isolated[i];

		if (was_full || (dst[v / 32] & (1U << (v % 32))))
			d->scratch[nx++] = v;
	}
	if (!nx)
		return 0;
	if (nx == d->cnt[t])
		return -1;
	if (was_full) {
		memset(dst, 0xff, d->nw * sizeof(*dst));
		dst[d->nw - 1] = last;
	}
	for (i = 0; i < nx; i++)
		dst[d->scratch[i] / 32] &= ~(1U << (d->scratch[i] % 32));
	d->cnt[t] -= nx;
	if (d->cnt[t] <= d->nw) {
		bitmap_list(dst, d->nw, d->scratch);
		store(d, t, d->scratch, d->cnt[t]);
	}
	pruned(d, h, t, was_full);
	return 1;
}

/*
 * Topology-aware: hop t keeps only neighbours of hop h's candidates. From
 * the cheapest side: a smaller t checks its own switches' links
 * (prune_from_target()); an h that is most of the universe lets only the
 * neighbours of what it lacks go (prune_from_complement()); otherwise h's
 * neighbours are marked in a bitmap, a target held as a bitmap is
 * intersected word by word, one held as a list is filtered in place.
 */
static int prune_adjacent(struct pint_decoder *d, unsigned int h, unsigned int t)
{
	const __u32 *s = slot(d, h);
	__u32 *dst = slot(d, t);
	unsigned int i, c = 0;
	int was_full;

	if (is_full(d, h))
		return 0;
	if (!is_full(d, t) && d->cnt[t] < d->cnt[h])
		return prune_from_target(d, h, t);
	/* marking costs deg per switch of h; the complement about deg^2 per
	 * switch outside h */
	if (!is_list(d, h) && !is_list(d, t) &&
	    (__u64)(d->topo.nr_nodes - d->cnt[h]) * d->avg_deg2 <
	    (__u64)d->cnt[h] * d->avg_deg)
		return prune_from_complement(d, h, t);
	memset(d->mark, 0, d->nw * sizeof(*d->mark));
	if (is_list(d, h)) {
		for (i = 0; i < d->cnt[h]; i++)
			mark_neighbours(d, s[i]);
	} else {
		for (i = 0; i < d->nw; i++) {
			__u32 w = s[i];

			while (w) {
				mark_neighbours(d, i * 32 + __builtin_ctz(w));
				w &= w - 1;
			}
		}
	}
	if (is_list(d, t)) {
		for (i = 0; i < d->cnt[t]; i++)	/* in place: c <= i */
			if (d->mark[dst[i] / 32] & (1U << (dst[i] % 32)))
				dst[c++] = dst[i];
		if (!c)
			return -1;
		if (c == d->cnt[t])
			return 0;
		d->cnt[t] = c;
		pruned(d, h, t, 0);
		return 1;
	}
	was_full = is_full(d, t);
	/* full or bitmap: count first, so that a failure changes nothing */
	for (i = 0; i < d->nw; i++)
		c += popcount32(was_full ? d->mark[i] : d->mark[i] & dst[i]);
	if (!c)
		return -1;
	if (c == d->cnt[t])
		return 0;
	if (!was_full)
		for (i = 0; i < d->nw; i++)
			d->mark[i] &= dst[i];
	if (c <= d->nw) {
		bitmap_list(d->mark, d->nw, d->scratch);
		store(d, t, d->scratch, c);
	} else {
		memcpy(dst, d->mark, d->nw * sizeof(*dst));
		d->cnt[t] = c;
	}
	pruned(d, h, t, was_full);
	return 1;
}

/* The one node of a set of one. */
static int set_index(const struct pint_decoder *d, unsigned int h)
{
	return is_full(d, h) ? 0 : (int)slot(d, h)[0];
}

static __u32 known_digest(const struct pint_decoder *d, unsigned int h, __u32 pid)
{
	return node_digest(d, d->known[h], value_key(pid));
}

/* Does hop (1-based) act in layer l? act0 = pint_murmur_round(seed.act, pid). */
static inline int acts(const struct pint_decoder *d, __u32 l, __u32 act0, unsigned int hop)
{
	__u32 t = d->p.layer[l].kind == PINT_LAYER_BASELINE ? d->base_thresh[hop] :
		  d->p.layer[l].act_thresh;

	return murmur_tail(act0, d->hop_block[hop]) <= t;
}

/* Hop h became known: substitute it into the waiting equations. */
static int peel(struct pint_decoder *d, unsigned int h)
{
	__u64 bit = 1ULL << h;
	unsigned int i = 0;

	while (i < d->nr_eqs) {
		struct pint_eq *e = &d->eqs[i];

		if (!(e->unknown & bit)) {
			i++;
			continue;
		}
		e->residual ^= known_digest(d, h, e->pid);
		e->unknown &= ~bit;
		if (e->unknown & (e->unknown - 1)) {
			i++;
			continue;
		}
		/* zero or one unknown left: use it and drop the equation */
		if (!e->unknown) {
			if (e->residual)
				return -1;
		} else if (constrain(d, __builtin_ctzll(e->unknown), e->pid, e->residual) < 0) {
			return -1;
		}
		d->eqs[i] = d->eqs[--d->nr_eqs];
	}
	return 0;
}

/*
 * Propagate every change until nothing moves. The order of the prunes and
 * peels does not matter: each only removes switches no solution can use,
 * so all orders reach the same sets (and the same inconsistency, if any).
 * Return: -1 on inconsistency.
 */
static int propagate(struct pint_decoder *d)
{
	while (d->dirty_down | d->dirty_up) {
		unsigned int h = __builtin_ctzll(d->dirty_down | d->dirty_up);
		__u64 bit = 1ULL << h;
		int down = !!(d->dirty_down & bit), up = !!(d->dirty_up & bit);

		d->dirty_down &= ~bit;
		d->dirty_up &= ~bit;
		if (d->flags & PINT_DEC_F_TOPO_AWARE) {
			if (down && h > 0 && prune_adjacent(d, h, h - 1) < 0)
				return -1;
			if (up && h + 1 < d->k && prune_adjacent(d, h, h + 1) < 0)
				return -1;
		}
		if (d->cnt[h] == 1 && (d->unknown & bit)) {
			d->known[h] = set_index(d, h);
			d->unknown &= ~bit;
			if (peel(d, h) < 0)
				return -1;
		}
	}
	return 0;
}

/* One packet's equation against the current state. Return: -1 on inconsistency. */
static int apply(struct pint_decoder *d, __u32 pid, __u32 digest)
{
	const struct pint_path_params *p = &d->p;
	__u32 l = pint_path_layer_of(p, pid), res = digest & d->mask;
	__u32 act0 = pint_murmur_round(p->seeds.act, pid);
	__u64 unk = 0;
	unsigned int h;

	if (p->layer[l].kind == PINT_LAYER_BASELINE) {
		/* the last hop that acted wrote the digest */
		for (h = d->k; h > 0; h--)
			if (acts(d, l, act0, h))
				break;
		if (!h)
			return res ? -1 : 0;
		h--;
		if (!(d->unknown & (1ULL << h)))
			return known_digest(d, h, pid) == res ? 0 : -1;
		if (constrain(d, h, pid, res) < 0)
			return -1;
		return propagate(d);
	}
	for (h = 0; h < d->k; h++) {
		if (!acts(d, l, act0, h + 1))
			continue;
		if (d->unknown & (1ULL << h))
			unk |= 1ULL << h;
		else
			res ^= known_digest(d, h, pid);
	}
	if (!unk)
		return res ? -1 : 0;
	if (!(unk & (unk - 1))) {
		if (constrain(d, __builtin_ctzll(unk), pid, res) < 0)
			return -1;
		return propagate(d);
	}
	if (d->nr_eqs >= PINT_DEC_MAX_EQS) {
		d->stats.dropped_eqs++;
		return 0;
	}
	d->eqs[d->nr_eqs].pid = pid;
	d->eqs[d->nr_eqs].residual = res;
	d->eqs[d->nr_eqs].unknown = unk;
	d->nr_eqs++;
	return 0;
}

/*
 * Could this packet come from any path of d->k known switches? Only an
 * equation with at most one acting hop can contradict itself: no acting hop
 * but a non-zero digest, or a single writer whose digest no known switch has
 * (a switch outside the known set, or a corrupted digest).
 */
static int alone_consistent(const struct pint_decoder *d, __u32 pid, __u32 digest)
{
	const struct pint_path_params *p = &d->p;
	__u32 l = pint_path_layer_of(p, pid), x = digest & d->mask;
	__u32 act0 = pint_murmur_round(p->seeds.act, pid), vkey = value_key(pid);
	unsigned int h, acting = 0;

	for (h = d->k; h > 0; h--) {
		if (!acts(d, l, act0, h))
			continue;
		acting++;
		if (p->layer[l].kind == PINT_LAYER_BASELINE || acting > 1)
			break;
	}
	if (!acting)
		return x == 0;
	if (p->layer[l].kind == PINT_LAYER_XOR && acting > 1)
		return 1;
	/* a packet of a switch outside the set costs one universe scan, at
	 * the filter's speed (the hop's set is not touched: scratch only) */
	if (p->flags & PINT_PATH_F_FULL_ID) {
		struct pint_id_idx key = { .id = x };

		return !!bsearch(&key, d->by_id, d->topo.nr_nodes, sizeof(key), cmp_id);
	}
	return d->filter(d->vstate, d->topo.nr_nodes, vkey, d->mask, x, d->scratch) > 0;
}

/* One instance's equation: pid is the instance's packet ID, digest its b bits. */
static unsigned int decoder_add_one(struct pint_decoder *d, __u32 pid, __u32 digest,
				    unsigned int hops)
{
	unsigned int ret = 0;
	__u32 ids[PINT_DECODE_MAX_HOPS];
	unsigned int h;

	d->stats.packets++;
	if (hops == 0 || hops > d->max_hops) {
		d->stats.ignored++;
		if (hops > d->max_hops) {
			d->stats.loops++;
			ret |= PINT_DEC_LOOP;
		}
		return ret | PINT_DEC_IGNORED | (d->complete ? PINT_DEC_COMPLETE : 0);
	}
	if (d->k && d->k != hops) {
		d->stats.route_changes++;
		ret |= PINT_DEC_ROUTE_CHANGE;
		d->k = 0;
	}
	if (!d->k)
		start(d, hops);
	d->path_packets++;
	if (apply(d, pid, digest) < 0) {
		if (!alone_consistent(d, pid, digest)) {
			/* a switch outside the known set: keep what we have */
			d->stats.ignored++;
			d->path_packets--;
			return ret | PINT_DEC_IGNORED | (d->complete ? PINT_DEC_COMPLETE : 0);
		}
		d->stats.route_changes++;
		ret |= PINT_DEC_ROUTE_CHANGE;
		start(d, hops);
		d->path_packets = 1;
		if (apply(d, pid, digest) < 0) {
			d->stats.ignored++;	/* cannot happen: consistent alone */
			start(d, hops);
			d->path_packets = 0;
			return ret | PINT_DEC_IGNORED;
		}
	}
	if (!d->complete && !d->unknown) {
		d->complete = 1;
		d->stats.packets_to_decode = d->path_packets;
		ret |= PINT_DEC_NEW_PATH;
		for (h = 0; h < d->k; h++)
			ids[h] = d->topo.node_id[d->known[h]];
		if (pint_path_has_loop(ids, d->k)) {
			d->stats.loops++;
			ret |= PINT_DEC_LOOP;
		}
	}
	if (d->complete)
		ret |= PINT_DEC_COMPLETE;
	return ret;
}

/*
 * Every instance of the packet in turn (one for a plain scheme). The body
 * counts each call as a packet; a packet counts once here. A restart by
 * instance i > 0 means the earlier instances of this packet belong to the
 * new inference too: they are given to it again, once.
 */
unsigned int pint_decoder_add(struct pint_decoder *d, __u32 pid, __u32 digest,
			      unsigned int hops)
{
	unsigned int n = pint_path_instances(&d->p), i, j, r, ret = 0, used = 0;

	if (hops == 0 || hops > d->max_hops || n == 1)
		return decoder_add_one(d, pid, pint_path_inst_digest(&d->p, digest, 0), hops);
	for (i = 0; i < n; i++) {
		r = decoder_add_one(d, pint_path_inst_pid(&d->p, pid, i),
				    pint_path_inst_digest(&d->p, digest, i), hops);
		if (i)
			d->stats.packets--;
		if (!(r & PINT_DEC_IGNORED))
			used = 1;
		if (r & PINT_DEC_ROUTE_CHANGE && i) {
			for (j = 0; j < i && !(r & PINT_DEC_COMPLETE); j++) {
				r |= decoder_add_one(d, pint_path_inst_pid(&d->p, pid, j),
						     pint_path_inst_digest(&d->p, digest, j),
						     hops) & ~PINT_DEC_ROUTE_CHANGE;
				d->stats.packets--;
			}
		}
		if (r & PINT_DEC_NEW_PATH)
			d->stats.packets_to_decode = (d->path_packets + n - 1) / n;
		ret |= r;
	}
	ret &= ~(PINT_DEC_IGNORED | PINT_DEC_COMPLETE);
	if (!used)
		ret |= PINT_DEC_IGNORED;
	return ret | (d->complete ? PINT_DEC_COMPLETE : 0);
}

int pint_decoder_path(const struct pint_decoder *d, __u32 *ids, unsigned int max)
{
	unsigned int h;

	if (!d->complete)
		return 0;
	if (max < d->k)
		return -ENOSPC;
	for (h = 0; h < d->k; h++)
		ids[h] = d->topo.node_id[d->known[h]];
	return d->k;
}

int pint_decoder_candidates(const struct pint_decoder *d, unsigned int hop)
{
	if (hop < 1 || hop > d->k)
		return -EINVAL;
	return d->cnt[hop - 1];
}

const struct pint_decoder_stats *pint_decoder_stats(const struct pint_decoder *d)
{
	return &d->stats;
}
