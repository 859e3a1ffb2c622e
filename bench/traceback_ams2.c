// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * traceback_ams2.c - Advanced Marking Scheme II (Song, Perrig, "Advanced
 * and authenticated marking schemes for IP traceback", INFOCOM 2001, §4),
 * bit for bit on one path, for build/bench/pint-eval.
 *
 * The mark is the 16-bit IP Identification field: a 3-bit FlagID, a 5-bit
 * distance and an 8-bit edge field. There are m pairs of independent 8-bit
 * hash functions (h_j, h'_j), j = FlagID. A router marks with probability
 * p: it picks j, writes h_j(its address), distance 0. A router that does
 * not mark xors h'_j(its address) into the edge field when the distance is
 * 0 (j read from the packet), then increments the distance. A mark from
 * distance d > 0 so carries h_j(R_d) xor h'_j(R_(d-1)), from distance 0
 * h_j(R_0).
 *
 * The victim knows its upstream router map: here the network's graph,
 * where the children of a router at distance d - 1 from the victim are its
 * neighbours at distance d (every shortest path towards the victim, a
 * superset of any one routing tree). It reconstructs outwards from itself
 * (§4.1): the child C of the router R accepted at distance d - 1 is
 * accepted at distance d when edge values of at least "accept" distinct
 * FlagIDs have arrived for distance d and, for every one of them, j,
 * h_j(C) xor h'_j(R) is the value received (accept = m: all m hash pairs,
 * the rule that makes a false positive need m coincidences). It waits
 * while no child or several children pass. The path is decoded when each
 * distance 0..k-1 has exactly one accepted router.
 *
 * As in traceback_ppm.c the 5-bit distance is let grow to the path length.
 */
#include <errno.h>
#include <string.h>

#include "pint/pint_hash.h"
#include "traceback.h"

struct ams2_victim {
	__u64		seen[TB_MAX_HOPS][TB_AMS2_MAX_M][4];	/* 256-bit sets */
	unsigned int	nr_flagids[TB_MAX_HOPS];	/* FlagIDs seen per distance */
	unsigned int	known;		/* distances 0..known-1 reconstructed */
	unsigned int	router[TB_MAX_HOPS];	/* node index accepted at each */
};

static unsigned int ams2_h(__u32 seed, __u32 addr)
{
	return pint_hash32(seed, addr, 0x414d5332U) & ((1U << TB_AMS2_EDGE_BITS) - 1);
}

static int ams2_has(const struct ams2_victim *v, unsigned int d, unsigned int j, unsigned int e)
{
	return !!(v->seen[d][j][e >> 6] & (1ULL << (e & 63)));
}

/* FlagIDs whose edge value for (child c, parent addr) arrived at @d. */
static unsigned int ams2_matches(const struct ams2_victim *v, const __u32 *s1, const __u32 *s2,
				 unsigned int m, unsigned int d, __u32 c, const __u32 *parent)
{
	unsigned int j, n = 0;

	for (j = 0; j < m; j++) {
		unsigned int e = ams2_h(s1[j], c) ^ (parent ? ams2_h(s2[j], *parent) : 0);

		n += ams2_has(v, d, j, e);
	}
	return n;
}

/* Accept routers outwards from v->known while exactly one child passes. */
static void ams2_extend(struct ams2_victim *v, const struct tb_params *tp,
			const struct tb_path *path, const __u32 *s1, const __u32 *s2)
{
	const struct gml_graph *g = path->g;

	while (v->known < path->k) {
		unsigned int d = v->known, nr = 0, pick = 0, e, need = v->nr_flagids[d];

		/* consistent with every FlagID received at d, and enough of them */
		if (need < tp->ams_accept)
			return;
		if (d == 0) {
			/* the victim's only upstream neighbour: its access router */
			unsigned int c = path->idx[path->k - 1];

			if (ams2_matches(v, s1, s2, tp->ams_m, 0, g->id[c], NULL) < need)
				return;
			v->router[v->known++] = c;
			continue;
		}
		for (e = g->adj_off[v->router[d - 1]]; e < g->adj_off[v->router[d - 1] + 1]; e++) {
			unsigned int c = g->adj[e];

			if (path->sink_dist[c] != (int)d)
				continue;	/* not a child in the map */
			if (ams2_matches(v, s1, s2, tp->ams_m, d, g->id[c],
					 &g->id[v->router[d - 1]]) == need) {
				nr++;
				pick = c;
			}
		}
		if (nr != 1)
			return;
		v->router[v->known++] = pick;
	}
}

int tb_ams2_trial(const struct tb_params *tp, const struct tb_path *path, __u64 *rng,
		  unsigned long max_packets, struct tb_result *res)
{
	static __thread struct ams2_victim v;
	__u32 s1[TB_AMS2_MAX_M], s2[TB_AMS2_MAX_M];
	unsigned int edge[TB_MAX_HOPS][TB_AMS2_MAX_M];
	unsigned int k = path->k, d, j;

	if (!path->g || !k || k > TB_MAX_HOPS || tp->ams_m < 1 || tp->ams_m > TB_AMS2_MAX_M ||
	    tp->ams_accept < 1 || tp->ams_accept > tp->ams_m)
		return -EINVAL;
	for (j = 0; j < tp->ams_m; j++) {
		s1[j] = bench_rand64(rng);
		s2[j] = bench_rand64(rng);
	}
	/* what a mark from distance d with FlagID j carries on arrival */
	for (d = 0; d < k; d++)
		for (j = 0; j < tp->ams_m; j++)
			edge[d][j] = ams2_h(s1[j], path->id[k - 1 - d]) ^
				     (d ? ams2_h(s2[j], path->id[k - d]) : 0);
	memset(&v, 0, sizeof(v));
	memset(res, 0, sizeof(*res));
	while (res->packets < max_packets) {
		int md = tb_marker_distance(tp->mark_p, k, rng);
		unsigned int e;

		j = bench_rand64(rng) % tp->ams_m;
		res->packets++;
		if (md < 0)
			continue;
		e = edge[md][j];
		if (ams2_has(&v, md, j, e))
			continue;
		if (!v.seen[md][j][0] && !v.seen[md][j][1] && !v.seen[md][j][2] && !v.seen[md][j][3])
			v.nr_flagids[md]++;
		v.seen[md][j][e >> 6] |= 1ULL << (e & 63);
		if ((unsigned int)md == v.known) {
			ams2_extend(&v, tp, path, s1, s2);
			if (v.known == k) {
				res->decoded = 1;
				break;
			}
		}
	}
	if (res->decoded) {
		for (d = 0; d < k; d++)
			if (v.router[d] != path->idx[k - 1 - d])
				res->wrong = 1;
	}
	return 0;
}
