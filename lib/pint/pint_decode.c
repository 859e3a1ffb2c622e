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

struct pint_id_idx {
	__u32		id;
	unsigned int	idx;
};

struct pint_decoder {
	struct pint_path_params	p;
	struct pint_topo	topo;
	unsigned int		flags;
	unsigned int		max_hops;
	unsigned int		nwords;		/* 64-bit words per candidate set */
	__u64			last_mask;	/* valid bits of the last word */
	struct pint_id_idx	*by_id;		/* sorted, for full-ID digests */
	__u64			*cand;		/* PINT_DECODE_MAX_HOPS sets */
	__u64			*scratch;
	unsigned int		k;		/* hop count, 0 = nothing yet */
	unsigned int		cnt[PINT_DECODE_MAX_HOPS];
	int			known[PINT_DECODE_MAX_HOPS];	/* node index or -1 */
	__u64			unknown;	/* hops not yet known */
	__u64			dirty;		/* hops whose set changed */
	unsigned int		nr_eqs;
	struct pint_eq		*eqs;
	unsigned long		path_packets;
	int			complete;
	struct pint_decoder_stats stats;
};

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
	d->nwords = (n + 63) / 64;
	d->last_mask = (n % 64) ? (1ULL << (n % 64)) - 1 : ~0ULL;
	d->cand = calloc((size_t)PINT_DECODE_MAX_HOPS * d->nwords, sizeof(__u64));
	d->scratch = calloc(d->nwords, sizeof(__u64));
	d->eqs = calloc(PINT_DEC_MAX_EQS, sizeof(*d->eqs));
	d->by_id = calloc(n, sizeof(*d->by_id));
	if (!d->cand || !d->scratch || !d->eqs || !d->by_id) {
		pint_decoder_free(d);
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		d->by_id[i].id = topo->node_id[i];
		d->by_id[i].idx = i;
	}
	qsort(d->by_id, n, sizeof(*d->by_id), cmp_id);
	return d;
}

void pint_decoder_free(struct pint_decoder *d)
{
	if (!d)
		return;
	free(d->cand);
	free(d->scratch);
	free(d->eqs);
	free(d->by_id);
	free(d);
}

void pint_decoder_reset(struct pint_decoder *d)
{
	d->k = 0;
	d->nr_eqs = 0;
	d->complete = 0;
	d->path_packets = 0;
	d->unknown = 0;
	d->dirty = 0;
}

static __u64 *cset(const struct pint_decoder *d, unsigned int h)
{
	return d->cand + (size_t)h * d->nwords;
}

static void start(struct pint_decoder *d, unsigned int k)
{
	unsigned int h, w;

	pint_decoder_reset(d);
	d->k = k;
	d->stats.packets_to_decode = 0;
	d->unknown = k == 64 ? ~0ULL : (1ULL << k) - 1;
	for (h = 0; h < k; h++) {
		__u64 *s = cset(d, h);

		for (w = 0; w < d->nwords; w++)
			s[w] = ~0ULL;
		s[d->nwords - 1] = d->last_mask;
		d->cnt[h] = d->topo.nr_nodes;
		d->known[h] = -1;
	}
}

static unsigned int popcount_set(const struct pint_decoder *d, const __u64 *s)
{
	unsigned int w, c = 0;

	for (w = 0; w < d->nwords; w++)
		c += __builtin_popcountll(s[w]);
	return c;
}

/*
 * Keep at hop h only the switches whose digest on packet pid is x.
 * Return: -1 if the set became empty, 1 if it shrank, 0 if unchanged.
 */
static int constrain(struct pint_decoder *d, unsigned int h, __u32 pid, __u32 x)
{
	__u64 *s = cset(d, h);
	unsigned int w, c = 0;

	if (d->p.flags & PINT_PATH_F_FULL_ID) {
		struct pint_id_idx key = { .id = x }, *r;
		unsigned int idx;
		int had;

		r = bsearch(&key, d->by_id, d->topo.nr_nodes, sizeof(*r), cmp_id);
		if (!r)
			return -1;
		idx = r->idx;
		had = !!(s[idx / 64] & (1ULL << (idx % 64)));
		if (!had)
			return -1;
		if (d->cnt[h] == 1)
			return 0;
		memset(s, 0, d->nwords * sizeof(*s));
		s[idx / 64] = 1ULL << (idx % 64);
		d->cnt[h] = 1;
		d->dirty |= 1ULL << h;
		return 1;
	}
	for (w = 0; w < d->nwords; w++) {
		__u64 m = s[w], keep = 0;

		while (m) {
			unsigned int b = __builtin_ctzll(m);
			unsigned int idx = w * 64 + b;

			m &= m - 1;
			if (pint_path_value_digest(&d->p, d->topo.node_id[idx], pid) == x)
				keep |= 1ULL << b;
		}
		s[w] = keep;
		c += __builtin_popcountll(keep);
	}
	if (!c)
		return -1;
	if (c == d->cnt[h])
		return 0;
	d->cnt[h] = c;
	d->dirty |= 1ULL << h;
	return 1;
}

/* Topology-aware: hop t keeps only neighbours of hop h's candidates. */
static int prune_adjacent(struct pint_decoder *d, unsigned int h, unsigned int t)
{
	const __u64 *s = cset(d, h);
	__u64 *dst = cset(d, t);
	unsigned int w, c;

	if (d->cnt[h] == d->topo.nr_nodes)
		return 0;
	memset(d->scratch, 0, d->nwords * sizeof(*d->scratch));
	for (w = 0; w < d->nwords; w++) {
		__u64 m = s[w];

		while (m) {
			unsigned int u = w * 64 + __builtin_ctzll(m), e;

			m &= m - 1;
			for (e = d->topo.adj_off[u]; e < d->topo.adj_off[u + 1]; e++) {
				unsigned int v = d->topo.adj[e];

				d->scratch[v / 64] |= 1ULL << (v % 64);
			}
		}
	}
	for (w = 0; w < d->nwords; w++)
		dst[w] &= d->scratch[w];
	c = popcount_set(d, dst);
	if (!c)
		return -1;
	if (c == d->cnt[t])
		return 0;
	d->cnt[t] = c;
	d->dirty |= 1ULL << t;
	return 1;
}

static int set_index(const struct pint_decoder *d, unsigned int h)
{
	const __u64 *s = cset(d, h);
	unsigned int w;

	for (w = 0; w < d->nwords; w++)
		if (s[w])
			return w * 64 + __builtin_ctzll(s[w]);
	return -1;
}

static __u32 known_digest(const struct pint_decoder *d, unsigned int h, __u32 pid)
{
	return pint_path_value_digest(&d->p, d->topo.node_id[d->known[h]], pid);
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

/* Propagate every change until nothing moves. Return: -1 on inconsistency. */
static int propagate(struct pint_decoder *d)
{
	while (d->dirty) {
		unsigned int h = __builtin_ctzll(d->dirty);

		d->dirty &= ~(1ULL << h);
		if (d->flags & PINT_DEC_F_TOPO_AWARE) {
			if (h > 0 && prune_adjacent(d, h, h - 1) < 0)
				return -1;
			if (h + 1 < d->k && prune_adjacent(d, h, h + 1) < 0)
				return -1;
		}
		if (d->cnt[h] == 1 && (d->unknown & (1ULL << h))) {
			d->known[h] = set_index(d, h);
			d->unknown &= ~(1ULL << h);
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
	__u32 l = pint_path_layer_of(p, pid), res = digest & pint_bits_mask(p->bits);
	__u64 unk = 0;
	unsigned int h;

	if (p->layer[l].kind == PINT_LAYER_BASELINE) {
		/* the last hop that acted wrote the digest */
		for (h = d->k; h > 0; h--)
			if (pint_path_acts(p, l, pid, h))
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
		if (!pint_path_acts(p, l, pid, h + 1))
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
	__u32 l = pint_path_layer_of(p, pid), x = digest & pint_bits_mask(p->bits);
	unsigned int h, acting = 0, i;

	for (h = d->k; h > 0; h--) {
		if (!pint_path_acts(p, l, pid, h))
			continue;
		acting++;
		if (p->layer[l].kind == PINT_LAYER_BASELINE || acting > 1)
			break;
	}
	if (!acting)
		return x == 0;
	if (p->layer[l].kind == PINT_LAYER_XOR && acting > 1)
		return 1;
	for (i = 0; i < d->topo.nr_nodes; i++)
		if (pint_path_value_digest(p, d->topo.node_id[i], pid) == x)
			return 1;
	return 0;
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
