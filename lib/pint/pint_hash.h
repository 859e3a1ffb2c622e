/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_hash.h - the global hash functions of PINT (Ben Basat et al.,
 * "PINT: Probabilistic In-band Network Telemetry", SIGCOMM 2020, §3 "global
 * hash functions"), shared bit for bit by the BPF programs, libhopmark, the
 * agent, the collector and the tests.
 *
 * Every node and the sink compute the same hashes of the packet ID, so the
 * sink knows which hop acted on a packet without any bit in the packet
 * saying so. There are three seeded hashes, all built on one primitive:
 *
 *   decider  D(pid, purpose)   = pint_hash32(seed.decider, pid, purpose)
 *            picks the packet's query subset (purpose PINT_DECIDE_QUERY_SET)
 *            and its path-tracing coding layer (PINT_DECIDE_PATH_LAYER)
 *   act      g(pid, hop)       = pint_hash32(seed.act, pid, hop)
 *            hop number hop acts on the packet iff g <= a per-hop integer
 *            threshold (1/hop for Baseline, p for an XOR layer)
 *   value    h(value, pid)     = pint_hash32(seed.value, value, pid) mod 2^b
 *            the b-bit digest of a value (a switch ID) on this packet
 *
 * The primitive pint_hash32(seed, a, b) is MurmurHash3_x86_32 (Austin
 * Appleby, public domain) of the 8 octets a || b, each a little-endian
 * 32-bit word, with the given 32-bit seed. It is written out for exactly
 * two words so that BPF needs no loop and no memory access: only 32-bit
 * multiplications, rotations and xors.
 *
 * Header-only, libc-free, safe to include from BPF (linux/types.h only).
 */
#ifndef __HOPMARK_PINT_HASH_H
#define __HOPMARK_PINT_HASH_H

#include <linux/types.h>

/* Purposes of the decider hash (its second word). */
#define PINT_DECIDE_QUERY_SET	0U
#define PINT_DECIDE_PATH_LAYER	1U

/* Default seeds (documented in Documentation/pint.rst); any value works. */
#define PINT_SEED_DECIDER	0x5049d001U
#define PINT_SEED_ACT		0x5049a002U
#define PINT_SEED_VALUE		0x5049f003U

/**
 * struct pint_seeds - the three global hash seeds of a PINT domain
 * @decider:	seed of the decider hash D (query subset, coding layer)
 * @act:	seed of the act hash g(pid, hop)
 * @value:	seed of the value hash h(value, pid)
 *
 * All nodes and the sink of one domain must use the same seeds; changing
 * them changes every digest. Host byte order, stored as-is in BPF maps.
 */
struct pint_seeds {
	__u32	decider;
	__u32	act;
	__u32	value;
};

static inline __u32 pint_rotl32(__u32 x, unsigned int r)
{
	return (x << r) | (x >> (32 - r));
}

/* MurmurHash3's 32-bit finaliser (avalanche). */
static inline __u32 pint_fmix32(__u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h;
}

/* One MurmurHash3_x86_32 body round: mix the 4-octet block @k into @h. */
static inline __u32 pint_murmur_round(__u32 h, __u32 k)
{
	k *= 0xcc9e2d51U;
	k = pint_rotl32(k, 15);
	k *= 0x1b873593U;
	h ^= k;
	h = pint_rotl32(h, 13);
	return h * 5 + 0xe6546b64U;
}

/**
 * pint_hash32() - the PINT hash primitive
 * @seed:	32-bit seed
 * @a:		first word, hashed as 4 little-endian octets
 * @b:		second word, hashed as 4 little-endian octets
 *
 * Return: MurmurHash3_x86_32 of the 8 octets (a LE, b LE) with @seed. The
 * same value on every architecture, in BPF and in userspace.
 */
static inline __u32 pint_hash32(__u32 seed, __u32 a, __u32 b)
{
	__u32 h = seed;

	h = pint_murmur_round(h, a);
	h = pint_murmur_round(h, b);
	h ^= 8;		/* length in octets */
	return pint_fmix32(h);
}

/**
 * pint_decide() - the decider hash D(pid, purpose)
 * @s:		domain seeds
 * @pid:	packet ID (32 bits; see Documentation/pint.rst for how the
 *		datapath derives it)
 * @purpose:	%PINT_DECIDE_QUERY_SET or %PINT_DECIDE_PATH_LAYER
 *
 * Return: a 32-bit value uniform over [0, 2^32); a choice with cumulative
 * integer thresholds t_0 < t_1 < ... picks the first i with D <= t_i.
 */
static inline __u32 pint_decide(const struct pint_seeds *s, __u32 pid, __u32 purpose)
{
	return pint_hash32(s->decider, pid, purpose);
}

/**
 * pint_act() - the act hash g(pid, hop)
 * @s:		domain seeds
 * @pid:	packet ID
 * @hop:	hop number, 1 for the first PINT node on the path
 *
 * Return: a 32-bit value; hop @hop acts when it is <= the hop's threshold.
 */
static inline __u32 pint_act(const struct pint_seeds *s, __u32 pid, __u32 hop)
{
	return pint_hash32(s->act, pid, hop);
}

/**
 * pint_bits_mask() - mask of the low @bits bits
 * @bits:	digest width, 1..32
 *
 * Return: 2^bits - 1 (0xffffffff for 32).
 */
static inline __u32 pint_bits_mask(__u32 bits)
{
	return bits >= 32 ? 0xffffffffU : (1U << bits) - 1;
}

/**
 * pint_value_hash() - the value hash h(value, pid), b bits
 * @s:		domain seeds
 * @value:	the value to encode (a switch ID)
 * @pid:	packet ID
 * @bits:	digest width b, 1..32
 *
 * Return: the low @bits bits of pint_hash32(seed.value, value, pid).
 */
static inline __u32 pint_value_hash(const struct pint_seeds *s, __u32 value, __u32 pid,
				    __u32 bits)
{
	return pint_hash32(s->value, value, pid) & pint_bits_mask(bits);
}

/**
 * pint_prob_thresh_baseline() - act threshold of hop @hop in Baseline
 * @hop:	hop number, >= 1
 *
 * Reservoir sampling: hop i overwrites the digest with probability 1/i, so
 * the last writer is uniform over the path. The threshold t is such that
 * exactly floor(2^32 / i) of the 2^32 act hash values are <= t. Hop 0 never
 * acts. Uses one unsigned 64-bit division (a BPF ALU64 instruction).
 *
 * Return: the inclusive threshold for pint_act().
 */
static inline __u32 pint_prob_thresh_baseline(__u32 hop)
{
	if (hop == 0)
		return 0;	/* caller must not let hop 0 act */
	if (hop == 1)
		return 0xffffffffU;
	return (__u32)(0x100000000ULL / hop - 1);
}

#endif /* __HOPMARK_PINT_HASH_H */
