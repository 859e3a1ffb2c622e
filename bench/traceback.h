/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * traceback.h - the two IP traceback schemes the PINT paper (Ben Basat et
 * al., SIGCOMM 2020, §6 path tracing) compares PINT with, simulated bit
 * for bit on one fixed path so build/bench/pint-eval can count the packets
 * each needs until its victim holds the whole path:
 *
 *   PPM   traceback_ppm.c   Savage, Wetherall, Karlin, Anderson,
 *                           "Practical network support for IP traceback",
 *                           SIGCOMM 2000, §4 compressed edge fragment
 *                           sampling in the 16-bit IP Identification field.
 *   AMS2  traceback_ams2.c  Song, Perrig, "Advanced and authenticated
 *                           marking schemes for IP traceback", INFOCOM
 *                           2001, §4 Advanced Marking Scheme II.
 *
 * A path is k routers; distance d (0 = the router next to the victim) is
 * router path[k - 1 - d]. The victim knows k (PINT's sink knows it too,
 * from the hop count) and, for AMS2, the upstream router map.
 */
#ifndef __HOPMARK_BENCH_TRACEBACK_H
#define __HOPMARK_BENCH_TRACEBACK_H

#include <linux/types.h>
#include <math.h>

#include "pint/gml.h"

#include "bench_rand.h"

/* Longest path the simulations take (the PINT decoder's limit). */
#define TB_MAX_HOPS		64

/* PPM: 3-bit offset, 5-bit distance, 8-bit edge fragment (Savage §4.3). */
#define TB_PPM_FRAGS		8
#define TB_PPM_FRAG_BITS	8

/* AMS2: 3-bit FlagID (m <= 8 hash pairs), 5-bit distance, 8-bit edge. */
#define TB_AMS2_MAX_M		8
#define TB_AMS2_EDGE_BITS	8

/* Both: width of the distance field in the 16-bit mark. */
#define TB_DIST_BITS		5

/**
 * struct tb_path - the path being traced and what the victim knows
 * @k:		routers on the path (1..TB_MAX_HOPS)
 * @id:		@k router addresses (host order), @id[0] farthest from the
 *		victim, @id[k - 1] next to it
 * @g:		the network (AMS2's upstream router map), or NULL
 * @idx:	@k node indices of @g, in the order of @id (when @g is set)
 * @sink_dist:	hops of every node of @g from @idx[k - 1] (when @g is set)
 */
struct tb_path {
	unsigned int		k;
	const __u32		*id;
	const struct gml_graph	*g;
	const unsigned int	*idx;
	const int		*sink_dist;
};

/**
 * struct tb_params - marking parameters
 * @mark_p:	probability that a router marks a packet (0 < p < 1)
 * @ams_m:	AMS2: number of hash pairs, chosen by the 3-bit FlagID (1..8)
 * @ams_accept:	AMS2: a router is accepted as the child of the previous one
 *		once edge values of at least this many distinct FlagIDs have
 *		arrived for its distance, all of them its own (1..@ams_m;
 *		@ams_m = all of them)
 */
struct tb_params {
	double		mark_p;
	unsigned int	ams_m;
	unsigned int	ams_accept;
};

/**
 * struct tb_result - outcome of one trial
 * @packets:	packets the victim received until it held the whole path
 *		(or the limit, if not decoded)
 * @decoded:	1 if the victim reconstructed one router at every distance
 * @wrong:	1 if the reconstructed path differs from the true one
 */
struct tb_result {
	unsigned long	packets;
	int		decoded;
	int		wrong;
};

/**
 * tb_marker_distance() - distance of the router whose mark reaches the victim
 * @p:		marking probability of every router
 * @k:		routers on the path
 * @rng:	random state
 *
 * Every router marks independently with probability @p and a mark
 * overwrites the previous one, so the surviving mark is that of the last
 * marking router: at distance d with probability p (1 - p)^d (Savage §4.1).
 *
 * Return: that distance (0..@k - 1), or -1 if no router marked.
 */
static inline int tb_marker_distance(double p, unsigned int k, __u64 *rng)
{
	double u = bench_unif01(rng);
	double d = floor(log(u) / log1p(-p));	/* geometric: failures before a mark */

	return d < k ? (int)d : -1;
}

/**
 * tb_ppm_trial() - one PPM traceback of a fixed path
 * @tp:		marking parameters (@mark_p)
 * @path:	the path
 * @rng:	random state (seeds the trial's hash and the marks)
 * @max_packets:	give up after this many packets
 * @res:	filled with the outcome
 *
 * Return: 0, or -EINVAL for a path of 0 or more than TB_MAX_HOPS routers.
 */
int tb_ppm_trial(const struct tb_params *tp, const struct tb_path *path, __u64 *rng,
		 unsigned long max_packets, struct tb_result *res);

/**
 * tb_ams2_trial() - one AMS2 traceback of a fixed path
 * @tp:		marking parameters (@mark_p, @ams_m, @ams_accept)
 * @path:	the path, with its map (@g, @idx, @sink_dist)
 * @rng:	random state (seeds the trial's hash pairs and the marks)
 * @max_packets:	give up after this many packets
 * @res:	filled with the outcome
 *
 * Return: 0, or -EINVAL without a map, for a bad @k, @ams_m or @ams_accept.
 */
int tb_ams2_trial(const struct tb_params *tp, const struct tb_path *path, __u64 *rng,
		  unsigned long max_packets, struct tb_result *res);

#endif /* __HOPMARK_BENCH_TRACEBACK_H */
