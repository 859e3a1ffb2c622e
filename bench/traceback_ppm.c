// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * traceback_ppm.c - Probabilistic Packet Marking with compressed edge
 * fragment sampling (Savage, Wetherall, Karlin, Anderson, "Practical
 * network support for IP traceback", SIGCOMM 2000, §4), bit for bit on one
 * path, for build/bench/pint-eval.
 *
 * The mark is the 16-bit IP Identification field: a 3-bit offset, a 5-bit
 * distance and an 8-bit edge fragment (§4.3). Each router's 64-bit word is
 * its 32-bit address bit-interleaved with a 32-bit hash of the address;
 * fragment o is octet o of that word. A router marks with probability p:
 * it picks an offset o, writes fragment o of its word, distance 0. A router
 * that does not mark xors its own fragment o into the edge fragment when
 * the distance is 0, then increments the distance. So a mark from distance
 * d > 0 carries fragment o of (word(R_d) xor word(R_(d-1))), and from
 * distance 0 fragment o of word(R_0).
 *
 * The victim keeps every distinct fragment per (distance, offset). Once
 * every offset of every distance has one, it reconstructs (§4.3): at each
 * distance it forms every combination of one fragment per offset, xors
 * each with every router reconstructed one hop closer (none at distance
 * 0), and keeps the words whose hash half is the hash of their address
 * half. The path is decoded when every distance has exactly one router.
 *
 * The 5-bit distance field holds 0..31; the simulation lets the distance
 * grow to the path length (64 at most), which only favours PPM on longer
 * paths (a real 5-bit field wraps and the routers past 31 hops are lost).
 */
#include <errno.h>
#include <string.h>

#include "pint/pint_hash.h"
#include "traceback.h"

/* Largest number of fragment combinations tried at one distance. */
#define PPM_MAX_COMBOS	4096U
/* Most routers kept per distance during reconstruction. */
#define PPM_MAX_CANDS	16U

/* Address bits at even positions, hash bits at odd ones (Savage §4.3). */
static __u64 ppm_interleave(__u32 addr, __u32 hash)
{
	__u64 w = 0;
	unsigned int i;

	for (i = 0; i < 32; i++)
		w |= (__u64)((addr >> i) & 1) << (2 * i) | (__u64)((hash >> i) & 1) << (2 * i + 1);
	return w;
}

static __u32 ppm_hash(__u32 seed, __u32 addr)
{
	return pint_hash32(seed, addr, 0x50504d31U);
}

/* A reconstructed word is a router iff its hash half checks. */
static int ppm_word_valid(__u32 seed, __u64 w)
{
	__u32 addr = 0, hash = 0;
	unsigned int i;

	for (i = 0; i < 32; i++) {
		addr |= (__u32)((w >> (2 * i)) & 1) << i;
		hash |= (__u32)((w >> (2 * i + 1)) & 1) << i;
	}
	return ppm_hash(seed, addr) == hash;
}

struct ppm_victim {
	__u64		seen[TB_MAX_HOPS][TB_PPM_FRAGS][4];	/* 256-bit sets */
	unsigned char	nr[TB_MAX_HOPS][TB_PPM_FRAGS];
	unsigned char	val[TB_MAX_HOPS][TB_PPM_FRAGS][4];	/* first values */
	unsigned int	complete;	/* distances with every offset seen */
	__u64		cand[TB_MAX_HOPS][PPM_MAX_CANDS];
	unsigned int	nr_cand[TB_MAX_HOPS];
};

/*
 * Savage's reconstruction. Return: 1 if every distance 0..k-1 has exactly
 * one router, 0 if not (yet): too many combinations, none or several.
 */
static int ppm_reconstruct(struct ppm_victim *v, __u32 seed, unsigned int k)
{
	unsigned int d, o, c, combos, j;

	for (d = 0; d < k; d++) {
		for (o = 0, combos = 1; o < TB_PPM_FRAGS; o++) {
			if (v->nr[d][o] > 4)
				return 0;	/* more fragments than kept */
			combos *= v->nr[d][o];
		}
		if (combos > PPM_MAX_COMBOS)
			return 0;
		v->nr_cand[d] = 0;
		for (c = 0; c < combos; c++) {
			unsigned int r = c;
			__u64 w = 0;

			for (o = 0; o < TB_PPM_FRAGS; o++) {
				w |= (__u64)v->val[d][o][r % v->nr[d][o]] << (TB_PPM_FRAG_BITS * o);
				r /= v->nr[d][o];
			}
			for (j = 0; j < (d ? v->nr_cand[d - 1] : 1); j++) {
				__u64 x = d ? w ^ v->cand[d - 1][j] : w;

				if (!ppm_word_valid(seed, x))
					continue;
				if (v->nr_cand[d] == PPM_MAX_CANDS)
					return 0;
				v->cand[d][v->nr_cand[d]++] = x;
			}
		}
		if (v->nr_cand[d] != 1)
			return 0;
	}
	return 1;
}

int tb_ppm_trial(const struct tb_params *tp, const struct tb_path *path, __u64 *rng,
		 unsigned long max_packets, struct tb_result *res)
{
	static __thread struct ppm_victim v;
	__u64 word[TB_MAX_HOPS];
	unsigned int k = path->k, d, i;
	__u32 seed;

	if (!k || k > TB_MAX_HOPS)
		return -EINVAL;
	seed = bench_rand64(rng);
	for (d = 0; d < k; d++) {
		__u32 a = path->id[k - 1 - d];

		word[d] = ppm_interleave(a, ppm_hash(seed, a));
	}
	memset(&v, 0, sizeof(v));
	memset(res, 0, sizeof(*res));
	while (res->packets < max_packets) {
		int md = tb_marker_distance(tp->mark_p, k, rng);
		unsigned int o = bench_rand64(rng) % TB_PPM_FRAGS;
		__u64 edge;
		unsigned int f;

		res->packets++;
		if (md < 0)
			continue;	/* unmarked: the IP ID carries nothing */
		edge = md ? word[md] ^ word[md - 1] : word[md];
		f = (edge >> (TB_PPM_FRAG_BITS * o)) & 0xff;
		if (v.seen[md][o][f >> 6] & (1ULL << (f & 63)))
			continue;
		v.seen[md][o][f >> 6] |= 1ULL << (f & 63);
		if (v.nr[md][o] < 4)
			v.val[md][o][v.nr[md][o]] = f;
		if (v.nr[md][o]++ == 0) {
			for (i = 0; i < TB_PPM_FRAGS && v.nr[md][i]; i++)
				;
			if (i == TB_PPM_FRAGS)
				v.complete++;
		}
		if (v.complete == k && ppm_reconstruct(&v, seed, k)) {
			res->decoded = 1;
			break;
		}
	}
	if (res->decoded) {
		for (d = 0; d < k; d++)
			if (v.cand[d][0] != word[d])
				res->wrong = 1;
	}
	return 0;
}
