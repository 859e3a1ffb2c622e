/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * bench_rand.h - the random source of every simulation in bench/: a
 * splitmix64 stream (Steele, Lea, Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014) and what the evaluators draw from it.
 * One definition, so that two evaluators given the same seed draw the same
 * numbers, and their documented tables (Documentation/pint*.rst) depend on
 * nothing else.
 */
#ifndef __HOPMARK_BENCH_RAND_H
#define __HOPMARK_BENCH_RAND_H

#include <math.h>
#include <linux/types.h>

/**
 * bench_rand64() - one splitmix64 step
 * @s:	state, advanced by one step
 *
 * Return: 64 uniformly distributed bits.
 */
static inline __u64 bench_rand64(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * bench_hash64() - a stateless 64-bit hash of two words
 * @a:	first word (e.g. a packet ID)
 * @b:	second word (a salt)
 *
 * Return: bench_rand64() of a state made of both, as a datapath hash of
 * the packet would be: the same inputs always give the same value.
 */
static inline __u64 bench_hash64(__u64 a, __u64 b)
{
	__u64 s = a * 0xff51afd7ed558ccdULL ^ b;

	return bench_rand64(&s);
}

/**
 * bench_unif01() - a uniform double in the open interval (0, 1)
 * @s:	state, advanced by one step
 *
 * Return: (the top 53 bits + 0.5) / 2^53, never 0 or 1 (a log of it is finite).
 */
static inline double bench_unif01(__u64 *s)
{
	return ((bench_rand64(s) >> 11) + 0.5) / 9007199254740992.0;
}

/**
 * bench_normal() - a standard normal deviate (Box-Muller)
 * @s:	state, advanced by two steps
 *
 * Return: a N(0, 1) sample.
 */
static inline double bench_normal(__u64 *s)
{
	double u1 = bench_unif01(s);
	double u2 = bench_unif01(s);

	return sqrt(-2.0 * log(u1)) * cos(2 * M_PI * u2);
}

#endif /* __HOPMARK_BENCH_RAND_H */
