// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pbt_id_eval.c - how often two packets of one flow get the same PBT-M
 * packet ID (lib/pbt/pbt_id.h) within one collector window.
 *
 * The collector tells the postcards of two packets apart by flow key +
 * packet ID; two packets of a flow inside its window with the same ID are
 * a collision (their postcards would be stitched into one path). For n
 * packets of a flow in a window, an ideal 32-bit hash gives n (n - 1) / 2
 * / 2^32 colliding pairs on average. This program builds n packets of one
 * flow per scenario, the octets each hop hashes as a real stack would
 * fill them, computes their IDs with pbt_pkt_id() and counts the pairs
 * of equal IDs (sorting: sum over groups of k equal IDs of k (k - 1) / 2).
 *
 * Scenarios:
 *   ipv4-tcp-bulk	MSS 1448 segments: sequence + 1448 and Identification
 *			+ 1 per packet, Total Length 1500, payload bytes from a
 *			seeded generator
 *   ipv4-tcp-id0	the same with Identification 0 (RFC 6864 stacks, DF set)
 *   ipv6-udp-counter	1232-octet datagrams whose payload starts with a
 *			64-bit packet counter (iperf3, RTP-like sources)
 *   ipv6-udp-same	every datagram the same (a repeated probe): IPv6 has
 *			no Identification, so nothing tells them apart
 *   random		every hashed octet random: the ideal hash's reference
 *
 * Output: one row per scenario: n, the pairs observed, the pairs expected
 * of an ideal 32-bit hash, and the share of packets whose ID another
 * packet of the window has. Deterministic for a given seed.
 *
 *	pbt-id-eval [-n PACKETS] [-s SEED]
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbt/pbt_id.h"

#include "bench_rand.h"

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* Pairs of equal values and values that share with another, @ids sorted in place. */
static void count(__u32 *ids, size_t n, unsigned long long *pairs, unsigned long long *shared)
{
	size_t i = 0, j;

	qsort(ids, n, sizeof(*ids), cmp_u32);
	*pairs = 0;
	*shared = 0;
	while (i < n) {
		for (j = i + 1; j < n && ids[j] == ids[i]; j++)
			;
		*pairs += (unsigned long long)(j - i) * (j - i - 1) / 2;
		if (j - i > 1)
			*shared += j - i;
		i = j;
	}
}

enum { S_TCP, S_TCP_ID0, S_UDP_CTR, S_UDP_SAME, S_RANDOM, S_MAX };
static const char *const sname[S_MAX] = {
	"ipv4-tcp-bulk", "ipv4-tcp-id0", "ipv6-udp-counter", "ipv6-udp-same", "random",
};

static void put32(__u8 *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* The ID of packet @i of scenario @sc. */
static __u32 packet_id(int sc, size_t i, __u64 *r)
{
	struct hm_flow_key k = { 0 };
	__u8 oct[PBT_ID_OCTETS] = { 0 };
	__u32 w, j;

	if (sc == S_TCP || sc == S_TCP_ID0 || sc == S_RANDOM) {
		k.family = 4;
		k.proto = 6;
		k.sport = 0x409c;		/* 40000, network order on little-endian */
		k.dport = 0x8913;		/* 5001 */
		memcpy(k.saddr, "\xc0\x00\x02\x01", 4);
		memcpy(k.daddr, "\xc6\x33\x64\x07", 4);
		oct[0] = 0x9c;
		oct[1] = 0x40;
		oct[2] = 0x13;
		oct[3] = 0x89;
		put32(oct + 4, 0x1a2b3c4dU + (__u32)i * 1448);	/* sequence */
		put32(oct + 8, 0x55667788);			/* acknowledgment */
		oct[12] = 0x50;
		oct[13] = 0x10;					/* ACK */
		oct[14] = 0x01;
		oct[15] = 0xf5;					/* window 501 */
		for (j = 16; j < PBT_ID_OCTETS; j++)
			oct[j] = (__u8)bench_rand64(r);
		w = (sc == S_TCP_ID0 ? 0 : (__u32)(0x4000 + i) & 0xffff) << 16 | 1500;
		if (sc == S_RANDOM) {
			for (j = 0; j < PBT_ID_OCTETS; j++)
				oct[j] = (__u8)bench_rand64(r);
			w = (__u32)bench_rand64(r);
		}
		return pbt_pkt_id(&k, w, oct, PBT_ID_OCTETS);
	}
	k.family = 6;
	k.proto = 17;
	k.sport = 0x409c;
	k.dport = 0x8913;
	memcpy(k.saddr, "\x20\x01\x0d\xb8\x00\x0a", 6);
	k.saddr[15] = 1;
	memcpy(k.daddr, "\x20\x01\x0d\xb8\x00\x0b", 6);
	k.daddr[15] = 1;
	oct[0] = 0x9c;
	oct[1] = 0x40;
	oct[2] = 0x13;
	oct[3] = 0x89;
	oct[4] = 1232 >> 8;
	oct[5] = 1232 & 0xff;
	oct[6] = 0x5a;		/* checksum: a function of the rest, fixed per payload */
	oct[7] = 0x5a;
	if (sc == S_UDP_CTR) {
		put32(oct + 8, (__u32)((unsigned long long)i >> 32));
		put32(oct + 12, (__u32)i);
		/* The checksum follows the counter (one's complement sum of it). */
		oct[6] ^= oct[14];
		oct[7] ^= oct[15];
	}
	return pbt_pkt_id(&k, 1232, oct, PBT_ID_OCTETS);
}

int main(int argc, char **argv)
{
	unsigned long long pairs, shared, seed = 1;
	size_t n = 1U << 20, i;
	__u64 r;
	double expected;
	__u32 *ids;
	int c, sc;

	while ((c = getopt(argc, argv, "n:s:")) != -1) {
		switch (c) {
		case 'n':
			n = strtoull(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: pbt-id-eval [-n PACKETS] [-s SEED]\n");
			return 2;
		}
	}
	if (n < 2 || n > (1U << 26)) {
		fprintf(stderr, "pbt-id-eval: -n must be 2..%u\n", 1U << 26);
		return 2;
	}
	ids = malloc(n * sizeof(*ids));
	if (!ids) {
		fprintf(stderr, "pbt-id-eval: out of memory\n");
		return 1;
	}
	expected = (double)n * (double)(n - 1) / 2.0 / 4294967296.0;
	printf("PBT-M packet ID: equal IDs among n packets of one flow (seed %llu)\n", seed);
	printf("%-18s %10s %12s %12s %12s\n", "scenario", "n", "pairs", "ideal_pairs",
	       "shared_frac");
	for (sc = 0; sc < S_MAX; sc++) {
		r = bench_hash64(seed, sc);
		for (i = 0; i < n; i++)
			ids[i] = packet_id(sc, i, &r);
		count(ids, n, &pairs, &shared);
		printf("%-18s %10zu %12llu %12.2f %12.3g\n", sname[sc], n, pairs, expected,
		       (double)shared / (double)n);
	}
	free(ids);
	return 0;
}
