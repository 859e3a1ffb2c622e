// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * stitch.c - hopmark-collector's stitcher (collector/stitch.h): the
 * postcards of one user packet, found by flow key + packet ID, become one
 * struct hmc_path.
 *
 * Everything is allocated by hmc_stitch_new(); a postcard costs a hash,
 * one probe sequence and a copy, never a malloc:
 *
 *  - packets: a pool of max_packets slots, found through an open-addressing
 *    index (linear probing, power-of-two size >= 2 x max_packets, deletion
 *    by backward shift, so no tombstones slow the probes), kept in a FIFO
 *    of arrival (the window and max_packets eviction both take its head);
 *  - hops: chunks of HMC_CHUNK_HOPS hops from a shared pool, one chunk per
 *    packet for paths up to 8 nodes, more for longer ones;
 *  - flows: the last path's node sequence per flow (path changes), the same
 *    kind of index, least recently seen forgotten first;
 *  - nodes: the observation points each node has ever exported (ingress,
 *    egress or both), learned from the postcards, so that a hop is known to
 *    be whole and a missing egress postcard tells a drop inside the node.
 *    What a node exports is only known once it has been heard from for one
 *    window (from the collector's time of its first postcard): before,
 *    its egress postcard may simply not have arrived yet (reordered, or
 *    slower), so a packet with a hop at such a node is never emitted early
 *    but waits for its window;
 *  - emitted packets: a direct-mapped table of their hashes for one window,
 *    so that a postcard arriving after its packet was emitted (late, or a
 *    broker's redelivery) is counted and dropped instead of making a new,
 *    one-hop packet.
 *
 * Order: hops by TTL / Hop Limit descending. An egress postcard carries the
 * TTL as sent, one below the node's ingress one, so a hop's rank is its
 * ingress TTL, or its egress TTL + 1 when only the egress was seen. Equal
 * ranks (a node that does not decrement, or two postcards of one hop count)
 * are ordered by time: ingress time, else egress time.
 *
 * Completion: a PBT-M packet is complete when the end node's postcard
 * (PBT_REC_F_END: the node that clears the mark) and the head node's
 * (PBT_REC_F_HEAD) have arrived, the ranks between them step by at most one
 * (no hop missing) and every hop has each point its node exports, every
 * node having been heard from for a window (see nodes above). It is then
 * emitted at once; otherwise it waits for its window (from the
 * collector's time when its first postcard arrived) and is emitted with its
 * drop located: the last hop that reported, inside it when its node exports
 * egress postcards and this one has none, on the link after it when its
 * egress postcard is there. A packet none of whose postcards is PBT-M's
 * (INT-XD, DEX) carries no end mark: it is emitted at its window, its drop
 * HMC_DROP_UNKNOWN.
 *
 * A postcard whose point is not PBT_PT_INGRESS counts as an egress one;
 * one without HM_PC_HAS_TTL is ranked by time only. stats.postcards counts
 * every postcard given, duplicates and late ones included. The emit
 * callback must not call back into the stitcher.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collector/stitch.h"
#include "pbt/pbt_maps.h"

#define HMC_CHUNK_HOPS		8
#define HMC_MAX_CHUNKS		(HMC_PATH_MAX_HOPS / HMC_CHUNK_HOPS)
#define HMC_NIL			0xffffffffU
#define HMC_NODES		4096	/* learned nodes (a domain is smaller) */
#define HMC_MAX_PACKETS		(1U << 24)

/* struct hmc_pkt.flags */
#define PKT_F_HEAD		(1U << 0)
#define PKT_F_END		(1U << 1)
#define PKT_F_PBT		(1U << 2)
#define PKT_F_NO_TTL		(1U << 3)

/*
 * While a packet is tracked, struct hmc_hop.pad holds the hop's rank
 * (see above; 0: no TTL known) and .pad2 its PBT_REC_F_HEAD / _END flags;
 * both are zeroed before the path is emitted.
 */
struct hmc_chunk {
	struct hmc_hop	hop[HMC_CHUNK_HOPS];
};

struct hmc_pkt {
	struct hm_flow_key	key;
	__u32			pkt_id;
	__u16			dups;
	__u8			nr_hops;
	__u8			flags;
	__u64			hash;
	__u64			start_ns;
	__u64			first_ns;
	__u64			max_ts;
	__u32			prev;
	__u32			next;
	__u32			chunk[HMC_MAX_CHUNKS];
	__u16			min_rank;
	__u16			pad;
};

struct hmc_flow {
	struct hm_flow_key	key;
	__u64			hash;
	__u64			seq;
	__u32			prev;
	__u32			next;
	__u8			has_seq;
	__u8			pad[7];
};

struct hmc_node {
	__u32	node_id;
	__u8	used;
	__u8	points;
	__u16	pad;
	__u64	first_ns;	/* collector time of its first postcard */
};

struct hmc_gone {
	__u64	hash;
	__u64	until_ns;
};

struct hmc_stitch {
	struct hmc_stitch_cfg	cfg;
	hmc_emit_fn		emit;
	void			*arg;
	struct hmc_stitch_stats	st;

	struct hmc_pkt		*pkts;
	__u32			*pkt_idx;
	__u32			pkt_mask;
	__u32			pkt_free;	/* free list through .next */
	__u32			fifo_head;
	__u32			fifo_tail;

	struct hmc_chunk	*chunks;
	__u32			*chunk_next;	/* free list */
	__u32			chunk_free;
	__u32			nr_chunks;

	struct hmc_flow		*flows;
	__u32			*flow_idx;
	__u32			flow_mask;
	__u32			flow_free;
	__u32			lru_head;	/* least recently seen */
	__u32			lru_tail;

	struct hmc_gone		*gone;
	__u32			gone_mask;

	struct hmc_node		nodes[HMC_NODES];
	struct hmc_path		path;		/* what emit() is given */
};

static inline __u64 hmc_mix(__u64 h, __u64 v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

static __u64 hmc_key_hash(const struct hm_flow_key *k, __u64 h)
{
	__u64 w[5];

	memcpy(w, k, sizeof(w));
	h = hmc_mix(h, w[0]);
	h = hmc_mix(h, w[1]);
	h = hmc_mix(h, w[2]);
	h = hmc_mix(h, w[3]);
	return hmc_mix(h, w[4]);
}

_Static_assert(sizeof(struct hm_flow_key) == 40, "hmc_key_hash reads 5 words");

static __u32 hmc_pow2(__u64 n)
{
	__u32 p = 16;

	while (p < n)
		p <<= 1;
	return p;
}

/* --- nodes: the points each exports ------------------------------------ */

static struct hmc_node *hmc_node(struct hmc_stitch *s, __u32 node_id, int add, __u64 now_ns)
{
	__u32 i = (__u32)hmc_mix(0, node_id) & (HMC_NODES - 1);
	__u32 n;

	for (n = 0; n < HMC_NODES; n++, i = (i + 1) & (HMC_NODES - 1)) {
		struct hmc_node *nd = &s->nodes[i];

		if (nd->used && nd->node_id == node_id)
			return nd;
		if (!nd->used) {
			if (!add)
				return NULL;
			nd->used = 1;
			nd->node_id = node_id;
			nd->first_ns = now_ns;
			return nd;
		}
	}
	return NULL;	/* full: that node's points are not learned */
}

static __u8 hmc_node_points(struct hmc_stitch *s, __u32 node_id)
{
	struct hmc_node *nd = hmc_node(s, node_id, 0, 0);

	return nd ? nd->points : 0;
}

/*
 * Whether a node's points are learned at @now_ns: it has been heard from
 * for a whole window (a node not in the table never is).
 */
static int hmc_node_learned(struct hmc_stitch *s, __u32 node_id, __u64 now_ns)
{
	struct hmc_node *nd = hmc_node(s, node_id, 0, 0);

	return nd && now_ns >= nd->first_ns + s->cfg.window_ns;
}

/* --- the packet index ---------------------------------------------------- */

static inline struct hmc_hop *hmc_hop_at(struct hmc_stitch *s, struct hmc_pkt *p, unsigned int i)
{
	return &s->chunks[p->chunk[i / HMC_CHUNK_HOPS]].hop[i % HMC_CHUNK_HOPS];
}

static __u32 hmc_pkt_find(struct hmc_stitch *s, const struct hm_flow_key *k, __u32 pkt_id, __u64 h)
{
	__u32 i = (__u32)h & s->pkt_mask;
	__u32 x;

	while ((x = s->pkt_idx[i]) != HMC_NIL) {
		struct hmc_pkt *p = &s->pkts[x];

		if (p->hash == h && p->pkt_id == pkt_id && !memcmp(&p->key, k, sizeof(*k)))
			return x;
		i = (i + 1) & s->pkt_mask;
	}
	return HMC_NIL;
}

static void hmc_pkt_index_add(struct hmc_stitch *s, __u32 x)
{
	__u32 i = (__u32)s->pkts[x].hash & s->pkt_mask;

	while (s->pkt_idx[i] != HMC_NIL)
		i = (i + 1) & s->pkt_mask;
	s->pkt_idx[i] = x;
}

/*
 * Linear probing's deletion without tombstones (Knuth 6.4, algorithm R):
 * move back every later entry of the run whose home is not between the
 * hole and it.
 */
static void hmc_index_del(__u32 *idx, __u32 mask, __u32 i, const void *base, size_t stride,
			  size_t hash_off)
{
	__u32 j = i;

	for (;;) {
		__u32 k;
		__u64 h;

		idx[i] = HMC_NIL;
		for (;;) {
			j = (j + 1) & mask;
			if (idx[j] == HMC_NIL)
				return;
			memcpy(&h, (const char *)base + (size_t)idx[j] * stride + hash_off, sizeof(h));
			k = (__u32)h & mask;
			if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
				continue;
			break;
		}
		idx[i] = idx[j];
		i = j;
	}
}

static void hmc_pkt_index_del(struct hmc_stitch *s, __u32 x)
{
	__u32 i = (__u32)s->pkts[x].hash & s->pkt_mask;

	while (s->pkt_idx[i] != x)
		i = (i + 1) & s->pkt_mask;
	hmc_index_del(s->pkt_idx, s->pkt_mask, i, s->pkts, sizeof(*s->pkts),
		      offsetof(struct hmc_pkt, hash));
}

/* --- flows: the last node sequence, for path changes ---------------------- */

static void hmc_lru_unlink(struct hmc_stitch *s, __u32 x)
{
	struct hmc_flow *f = &s->flows[x];

	if (f->prev != HMC_NIL)
		s->flows[f->prev].next = f->next;
	else
		s->lru_head = f->next;
	if (f->next != HMC_NIL)
		s->flows[f->next].prev = f->prev;
	else
		s->lru_tail = f->prev;
}

static void hmc_lru_append(struct hmc_stitch *s, __u32 x)
{
	struct hmc_flow *f = &s->flows[x];

	f->next = HMC_NIL;
	f->prev = s->lru_tail;
	if (s->lru_tail != HMC_NIL)
		s->flows[s->lru_tail].next = x;
	else
		s->lru_head = x;
	s->lru_tail = x;
}

static void hmc_flow_forget(struct hmc_stitch *s, __u32 x)
{
	__u32 i = (__u32)s->flows[x].hash & s->flow_mask;

	while (s->flow_idx[i] != x)
		i = (i + 1) & s->flow_mask;
	hmc_index_del(s->flow_idx, s->flow_mask, i, s->flows, sizeof(*s->flows),
		      offsetof(struct hmc_flow, hash));
	hmc_lru_unlink(s, x);
	s->flows[x].next = s->flow_free;
	s->flow_free = x;
	s->st.flows--;
}

/* The flow's entry, made (and *@new set) when it has none. */
static struct hmc_flow *hmc_flow_get(struct hmc_stitch *s, const struct hm_flow_key *k, int *new)
{
	__u64 h = hmc_key_hash(k, 0x666c6f77);
	__u32 i = (__u32)h & s->flow_mask;
	__u32 x;

	*new = 0;
	while ((x = s->flow_idx[i]) != HMC_NIL) {
		struct hmc_flow *f = &s->flows[x];

		if (f->hash == h && !memcmp(&f->key, k, sizeof(*k))) {
			hmc_lru_unlink(s, x);
			hmc_lru_append(s, x);
			return f;
		}
		i = (i + 1) & s->flow_mask;
	}
	if (s->flow_free == HMC_NIL) {
		hmc_flow_forget(s, s->lru_head);
		s->st.flows_evicted++;
	}
	x = s->flow_free;
	s->flow_free = s->flows[x].next;
	s->flows[x].key = *k;
	s->flows[x].hash = h;
	s->flows[x].has_seq = 0;
	i = (__u32)h & s->flow_mask;
	while (s->flow_idx[i] != HMC_NIL)
		i = (i + 1) & s->flow_mask;
	s->flow_idx[i] = x;
	hmc_lru_append(s, x);
	s->st.flows++;
	*new = 1;
	return &s->flows[x];
}

/* --- emitting a path -------------------------------------------------------- */

static inline __u64 hmc_hop_time(const struct hmc_hop *h)
{
	return h->in_ns ? h->in_ns : h->out_ns;
}

/* @a goes after @b in path order. */
static inline int hmc_hop_after(const struct hmc_hop *a, const struct hmc_hop *b, int by_rank)
{
	if (by_rank && a->pad != b->pad)
		return a->pad < b->pad;
	return hmc_hop_time(a) > hmc_hop_time(b);
}

static void hmc_fifo_unlink(struct hmc_stitch *s, __u32 x)
{
	struct hmc_pkt *p = &s->pkts[x];

	if (p->prev != HMC_NIL)
		s->pkts[p->prev].next = p->next;
	else
		s->fifo_head = p->next;
	if (p->next != HMC_NIL)
		s->pkts[p->next].prev = p->prev;
	else
		s->fifo_tail = p->prev;
}

static void hmc_pkt_release(struct hmc_stitch *s, __u32 x)
{
	struct hmc_pkt *p = &s->pkts[x];
	unsigned int c, nc = (p->nr_hops + HMC_CHUNK_HOPS - 1) / HMC_CHUNK_HOPS;

	if (!nc)
		nc = 1;
	for (c = 0; c < nc; c++) {
		s->chunk_next[p->chunk[c]] = s->chunk_free;
		s->chunk_free = p->chunk[c];
	}
	hmc_pkt_index_del(s, x);
	hmc_fifo_unlink(s, x);
	p->next = s->pkt_free;
	s->pkt_free = x;
	s->st.tracked--;
}

static void hmc_emit(struct hmc_stitch *s, __u32 x, __u16 flags, __u64 now_ns)
{
	struct hmc_pkt *p = &s->pkts[x];
	struct hmc_path *path = &s->path;
	int by_rank = !(p->flags & PKT_F_NO_TTL);
	unsigned int i, j, n = p->nr_hops;
	struct hmc_flow *f;
	struct hmc_gone *g;
	__u64 seq = 0x70617468;
	int new;

	path->key = p->key;
	path->pkt_id = p->pkt_id;
	path->nr_hops = n;
	path->dups = p->dups;
	path->first_ns = p->first_ns;
	path->flags = flags;
	path->lost = 0;
	path->pad = 0;
	/* insertion sort: a path is short and nearly in order already */
	for (i = 0; i < n; i++) {
		struct hmc_hop h = *hmc_hop_at(s, p, i);

		for (j = i; j > 0 && hmc_hop_after(&path->hops[j - 1], &h, by_rank); j--)
			path->hops[j] = path->hops[j - 1];
		path->hops[j] = h;
	}
	for (i = 0; i < n; i++) {
		if (by_rank && i + 1 < n && path->hops[i].pad > path->hops[i + 1].pad + 1)
			path->lost += path->hops[i].pad - path->hops[i + 1].pad - 1;
		seq = hmc_mix(seq, path->hops[i].node_id);
		path->hops[i].pad = 0;
		path->hops[i].pad2 = 0;
	}

	if (p->flags & PKT_F_END) {
		path->drop = HMC_DROP_NONE;
	} else if (!(p->flags & PKT_F_PBT) || !n) {
		path->drop = HMC_DROP_UNKNOWN;
	} else {
		const struct hmc_hop *last = &path->hops[n - 1];

		if (last->points & PBT_PT_EGRESS)
			path->drop = HMC_DROP_ON_LINK;
		else if (hmc_node_points(s, last->node_id) & PBT_PT_EGRESS)
			path->drop = HMC_DROP_IN_NODE;
		else
			path->drop = HMC_DROP_UNKNOWN;
	}
	if (p->flags & PKT_F_HEAD)
		path->flags |= HMC_PATH_F_HEAD;
	if (path->lost)
		path->flags |= HMC_PATH_F_GAP;

	/*
	 * A path change compares whole node sequences: a path with hops
	 * missing or cut short by a drop says nothing about the route.
	 */
	f = hmc_flow_get(s, &p->key, &new);
	if (new)
		path->flags |= HMC_PATH_F_NEW_FLOW;
	if (!path->lost && (path->drop == HMC_DROP_NONE || !(p->flags & PKT_F_PBT)) && n) {
		if (f->has_seq && f->seq != seq) {
			path->flags |= HMC_PATH_F_CHANGED;
			s->st.path_changes++;
		}
		f->seq = seq;
		f->has_seq = 1;
	}

	s->st.packets++;
	s->st.lost += path->lost;
	switch (path->drop) {
	case HMC_DROP_NONE:
		s->st.complete++;
		break;
	case HMC_DROP_IN_NODE:
		s->st.drops_in_node++;
		break;
	case HMC_DROP_ON_LINK:
		s->st.drops_on_link++;
		break;
	default:
		s->st.drops_unknown++;
		break;
	}

	g = &s->gone[(__u32)p->hash & s->gone_mask];
	g->hash = p->hash;
	g->until_ns = now_ns + s->cfg.window_ns;
	hmc_pkt_release(s, x);
	s->emit(s->arg, path);
}

/*
 * Every hop there from head to end, each with the points its node exports,
 * and every node's points learned (else the packet waits for its window).
 */
static int hmc_pkt_complete(struct hmc_stitch *s, struct hmc_pkt *p, __u64 now_ns)
{
	unsigned int i, j, n = p->nr_hops;
	__u16 rank[HMC_PATH_MAX_HOPS];
	__u16 hi = 0, lo = 0xffff;
	__u32 hi_flags = 0, lo_flags = 0;

	if ((p->flags & (PKT_F_HEAD | PKT_F_END | PKT_F_NO_TTL)) != (PKT_F_HEAD | PKT_F_END))
		return 0;
	for (i = 0; i < n; i++) {
		struct hmc_hop *h = hmc_hop_at(s, p, i);
		__u8 want = hmc_node_points(s, h->node_id);

		if ((h->points & want) != want || !hmc_node_learned(s, h->node_id, now_ns))
			return 0;
		for (j = i; j > 0 && rank[j - 1] < h->pad; j--)
			rank[j] = rank[j - 1];
		rank[j] = h->pad;
		if (h->pad > hi) {
			hi = h->pad;
			hi_flags = h->pad2;
		} else if (h->pad == hi) {
			hi_flags |= h->pad2;
		}
		if (h->pad < lo) {
			lo = h->pad;
			lo_flags = h->pad2;
		} else if (h->pad == lo) {
			lo_flags |= h->pad2;
		}
	}
	if (!(hi_flags & PBT_REC_F_HEAD) || !(lo_flags & PBT_REC_F_END))
		return 0;
	for (i = 0; i + 1 < n; i++)
		if (rank[i] > rank[i + 1] + 1)
			return 0;
	return 1;
}

/* --- the API --------------------------------------------------------------- */

const struct hmc_stitch_stats *hmc_stitch_stats(const struct hmc_stitch *s)
{
	return &s->st;
}

void hmc_stitch_free(struct hmc_stitch *s)
{
	if (!s)
		return;
	free(s->pkts);
	free(s->pkt_idx);
	free(s->chunks);
	free(s->chunk_next);
	free(s->flows);
	free(s->flow_idx);
	free(s->gone);
	free(s);
}

struct hmc_stitch *hmc_stitch_new(const struct hmc_stitch_cfg *cfg, hmc_emit_fn emit, void *arg)
{
	struct hmc_stitch *s;
	__u32 i, max_flows;

	if (!cfg || !emit || !cfg->max_packets || cfg->max_packets > HMC_MAX_PACKETS ||
	    cfg->max_flows > HMC_MAX_PACKETS * 4) {
		errno = EINVAL;
		return NULL;
	}
	max_flows = cfg->max_flows ? cfg->max_flows : cfg->max_packets * 4;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	s->cfg = *cfg;
	s->cfg.max_flows = max_flows;
	s->emit = emit;
	s->arg = arg;

	s->pkt_mask = hmc_pow2((__u64)cfg->max_packets * 2) - 1;
	s->pkts = calloc(cfg->max_packets, sizeof(*s->pkts));
	s->pkt_idx = malloc(((size_t)s->pkt_mask + 1) * sizeof(*s->pkt_idx));
	/* one chunk per packet, a quarter more for paths beyond 8 hops */
	s->nr_chunks = cfg->max_packets + cfg->max_packets / 4 + HMC_MAX_CHUNKS;
	s->chunks = calloc(s->nr_chunks, sizeof(*s->chunks));
	s->chunk_next = malloc((size_t)s->nr_chunks * sizeof(*s->chunk_next));
	s->flow_mask = hmc_pow2((__u64)max_flows * 2) - 1;
	s->flows = calloc(max_flows, sizeof(*s->flows));
	s->flow_idx = malloc(((size_t)s->flow_mask + 1) * sizeof(*s->flow_idx));
	s->gone_mask = hmc_pow2(cfg->max_packets) - 1;
	s->gone = calloc((size_t)s->gone_mask + 1, sizeof(*s->gone));
	if (!s->pkts || !s->pkt_idx || !s->chunks || !s->chunk_next || !s->flows ||
	    !s->flow_idx || !s->gone)
		goto nomem;

	memset(s->pkt_idx, 0xff, ((size_t)s->pkt_mask + 1) * sizeof(*s->pkt_idx));
	for (i = 0; i < cfg->max_packets; i++)
		s->pkts[i].next = i + 1 < cfg->max_packets ? i + 1 : HMC_NIL;
	s->pkt_free = 0;
	s->fifo_head = s->fifo_tail = HMC_NIL;
	for (i = 0; i < s->nr_chunks; i++)
		s->chunk_next[i] = i + 1 < s->nr_chunks ? i + 1 : HMC_NIL;
	s->chunk_free = 0;
	memset(s->flow_idx, 0xff, ((size_t)s->flow_mask + 1) * sizeof(*s->flow_idx));
	for (i = 0; i < max_flows; i++)
		s->flows[i].next = i + 1 < max_flows ? i + 1 : HMC_NIL;
	s->flow_free = 0;
	s->lru_head = s->lru_tail = HMC_NIL;
	return s;

nomem:
	hmc_stitch_free(s);
	errno = ENOMEM;
	return NULL;
}

size_t hmc_stitch_mem(const struct hmc_stitch *s, size_t *per_packet, size_t *per_flow)
{
	size_t pkt = (size_t)s->cfg.max_packets * sizeof(*s->pkts) +
		     ((size_t)s->pkt_mask + 1) * sizeof(*s->pkt_idx) +
		     (size_t)s->nr_chunks * (sizeof(*s->chunks) + sizeof(*s->chunk_next)) +
		     ((size_t)s->gone_mask + 1) * sizeof(*s->gone);
	size_t flow = (size_t)s->cfg.max_flows * sizeof(*s->flows) +
		      ((size_t)s->flow_mask + 1) * sizeof(*s->flow_idx);

	if (per_packet)
		*per_packet = pkt / s->cfg.max_packets;
	if (per_flow)
		*per_flow = flow / s->cfg.max_flows;
	return sizeof(*s) + pkt + flow;
}

/* A free chunk, emitting the oldest other packets until one is. */
static __u32 hmc_chunk_get(struct hmc_stitch *s, __u32 keep, __u64 now_ns)
{
	__u32 c;

	while (s->chunk_free == HMC_NIL) {
		__u32 x = s->fifo_head;

		if (x == keep)
			x = s->pkts[x].next;
		if (x == HMC_NIL)
			return HMC_NIL;	/* cannot happen: the pool outnumbers one path's chunks */
		s->st.evicted++;
		hmc_emit(s, x, HMC_PATH_F_EVICTED, now_ns);
	}
	c = s->chunk_free;
	s->chunk_free = s->chunk_next[c];
	return c;
}

int hmc_stitch_add(struct hmc_stitch *s, const struct hm_pc_obs *o, __u64 now_ns)
{
	int has_ttl = !!(o->present & HM_PC_HAS_TTL);
	__u8 point = o->point == PBT_PT_INGRESS ? PBT_PT_INGRESS : PBT_PT_EGRESS;
	__u16 rank = has_ttl ? (point == PBT_PT_EGRESS ? o->ttl + 1 : o->ttl) : 0;
	struct hm_flow_key key = o->key;
	struct hmc_node *nd;
	struct hmc_hop *h = NULL;
	struct hmc_pkt *p;
	unsigned int i;
	__u64 hash;
	__u32 x;

	s->st.postcards++;
	nd = hmc_node(s, o->node_id, 1, now_ns);
	if (nd)
		nd->points |= point;

	key.pad = 0;
	hash = hmc_mix(hmc_key_hash(&key, 0x706b74), o->pkt_id);
	x = hmc_pkt_find(s, &key, o->pkt_id, hash);
	if (x == HMC_NIL) {
		struct hmc_gone *g = &s->gone[(__u32)hash & s->gone_mask];

		if (g->hash == hash && now_ns < g->until_ns) {
			s->st.late++;
			return 1;
		}
		if (s->pkt_free == HMC_NIL) {
			s->st.evicted++;
			hmc_emit(s, s->fifo_head, HMC_PATH_F_EVICTED, now_ns);
		}
		x = s->pkt_free;
		p = &s->pkts[x];
		s->pkt_free = p->next;
		p->chunk[0] = hmc_chunk_get(s, HMC_NIL, now_ns);
		p->key = key;
		p->pkt_id = o->pkt_id;
		p->hash = hash;
		p->dups = 0;
		p->nr_hops = 0;
		p->flags = 0;
		p->start_ns = now_ns;
		p->first_ns = o->ts_ns;
		p->max_ts = o->ts_ns;
		p->min_rank = 0xffff;
		hmc_pkt_index_add(s, x);
		p->next = HMC_NIL;
		p->prev = s->fifo_tail;
		if (s->fifo_tail != HMC_NIL)
			s->pkts[s->fifo_tail].next = x;
		else
			s->fifo_head = x;
		s->fifo_tail = x;
		s->st.tracked++;
	}
	p = &s->pkts[x];

	for (i = 0; i < p->nr_hops; i++) {
		struct hmc_hop *c = hmc_hop_at(s, p, i);

		/*
		 * The same node within one of the rank: its other point (a
		 * node that does not decrement the TTL gives both the same
		 * TTL). A node the path crosses twice is two ranks apart.
		 */
		if (c->node_id == o->node_id &&
		    (!has_ttl || !c->pad || (c->pad + 1 >= rank && c->pad <= rank + 1))) {
			h = c;
			if (c->pad == rank)
				break;
		}
	}
	if (h) {
		if (h->points & point) {
			p->dups++;
			s->st.duplicates++;
			return 1;
		}
	} else {
		if (p->nr_hops == HMC_PATH_MAX_HOPS) {
			s->st.too_many_hops++;
			return 1;
		}
		if (p->nr_hops && !(p->nr_hops % HMC_CHUNK_HOPS)) {
			__u32 c = hmc_chunk_get(s, x, now_ns);

			if (c == HMC_NIL) {
				s->st.too_many_hops++;
				return 1;
			}
			p->chunk[p->nr_hops / HMC_CHUNK_HOPS] = c;
		}
		if (has_ttl ? (p->min_rank != 0xffff && p->min_rank < rank) : p->max_ts > o->ts_ns)
			s->st.reordered++;
		h = hmc_hop_at(s, p, p->nr_hops++);
		memset(h, 0, sizeof(*h));
		h->node_id = o->node_id;
		h->qdepth = PBT_UNKNOWN32;
		h->pad = rank;
	}

	if (point == PBT_PT_INGRESS) {
		h->in_ns = o->ts_ns;
		h->ttl = o->ttl;
		if (has_ttl)
			h->pad = rank;	/* the TTL it arrived with ranks it */
	} else {
		h->out_ns = o->ts_ns;
		if (!(h->points & PBT_PT_INGRESS))
			h->ttl = o->ttl;
		/* one postcard for both points (INT-XD): ingress = egress - sojourn */
		if (!h->in_ns && (o->present & HM_PC_HAS_SOJOURN) && o->ts_ns >= o->sojourn_ns)
			h->in_ns = o->ts_ns - o->sojourn_ns;
	}
	if ((o->present & HM_PC_HAS_IN_IF) && (!h->in_if || point == PBT_PT_INGRESS))
		h->in_if = o->in_if;
	if ((o->present & HM_PC_HAS_OUT_IF) && (!h->out_if || point == PBT_PT_EGRESS))
		h->out_if = o->out_if;
	if ((o->present & HM_PC_HAS_QDEPTH) &&
	    (h->qdepth == PBT_UNKNOWN32 || point == PBT_PT_EGRESS))
		h->qdepth = o->qdepth;
	h->points |= point;
	h->pad2 |= o->flags & (PBT_REC_F_HEAD | PBT_REC_F_END);

	if (o->flags & PBT_REC_F_HEAD)
		p->flags |= PKT_F_HEAD;
	if (o->source == HM_PC_SRC_PBT) {
		p->flags |= PKT_F_PBT;
		if (o->flags & PBT_REC_F_END)
			p->flags |= PKT_F_END;
	}
	if (!has_ttl)
		p->flags |= PKT_F_NO_TTL;
	if (o->ts_ns < p->first_ns)
		p->first_ns = o->ts_ns;
	if (o->ts_ns > p->max_ts)
		p->max_ts = o->ts_ns;
	if (has_ttl && rank < p->min_rank)
		p->min_rank = rank;

	if ((p->flags & PKT_F_END) && hmc_pkt_complete(s, p, now_ns))
		hmc_emit(s, x, 0, now_ns);
	return 0;
}

void hmc_stitch_expire(struct hmc_stitch *s, __u64 now_ns)
{
	while (s->fifo_head != HMC_NIL &&
	       s->pkts[s->fifo_head].start_ns + s->cfg.window_ns <= now_ns)
		hmc_emit(s, s->fifo_head, 0, now_ns);
}

void hmc_stitch_flush(struct hmc_stitch *s)
{
	while (s->fifo_head != HMC_NIL)
		hmc_emit(s, s->fifo_head, 0, s->pkts[s->fifo_head].start_ns);
}
