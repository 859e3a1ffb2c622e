// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_latency_eval.c - PINT dynamic per-flow aggregation, evaluated: how
 * well the sink recovers each hop's median and p99 latency from b-bit
 * compressed samples, as the flow grows.
 *
 * Model (PINT's dynamic per-flow aggregation): a flow crosses HOPS hops; every packet has a
 * latency at each hop, drawn from that hop's distribution (seeded). Each
 * packet carries one hop's latency: the hop chosen by reservoir sampling
 * on a hash of the packet ID (hop i overwrites with probability 1/i, so the
 * choice is uniform). The hop compresses it to b bits (pint_latency.h) with
 * randomized rounding driven by a hash of the packet ID, or with nearest
 * rounding; the sink decodes it and adds it to a KLL sketch per hop. After
 * n packets the sketch's median and p99 are compared with the exact ones
 * over all n packets' latencies at that hop.
 *
 * The "interp" rows use the same nearest-rounded codes, but the sink reads
 * the quantile off the sketch's CDF at the code boundaries with log-linear
 * interpolation between them (pint_lat_quantile_interp()) instead of
 * returning a code's value.
 *
 * Output: the mean relative error |estimate - exact| / exact over the
 * trials, per hop, for each n and each variant.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pint/kll.h"
#include "pint/pint_latency.h"

#include "bench_rand.h"

#define HOPS		5
#define MIN_NS		1000ULL		/* scale: 1 us .. 10 ms */
#define MAX_NS		10000000ULL

enum variant { V_RAW, V_B8_RAND, V_B8_NEAR, V_B8_INTERP, V_B4_RAND, V_B4_NEAR, V_B4_INTERP,
	       V_COUNT };

static const struct {
	const char *name;
	unsigned int bits;	/* 0: uncompressed */
	int randomized;
	int interp;
} variants[V_COUNT] = {
	[V_RAW]		= { "raw (64-bit)", 0, 0, 0 },
	[V_B8_RAND]	= { "8 bit random", 8, 1, 0 },
	[V_B8_NEAR]	= { "8 bit nearest", 8, 0, 0 },
	[V_B8_INTERP]	= { "8 bit interp", 8, 0, 1 },
	[V_B4_RAND]	= { "4 bit random", 4, 1, 0 },
	[V_B4_NEAR]	= { "4 bit nearest", 4, 0, 0 },
	[V_B4_INTERP]	= { "4 bit interp", 4, 0, 1 },
};

/* The per-hop latency distributions, in ns. */
static const char *const hop_desc[HOPS] = {
	"lognormal median 20 us, sigma 0.5",
	"lognormal median 5 us, sigma 1.0",
	"Pareto x_m 10 us, alpha 2.5",
	"Pareto x_m 2 us, alpha 1.5",
	"90% lognormal 3 us s 0.3 + 10% lognormal 300 us s 0.2",
};

static double draw(unsigned int hop, __u64 *s)
{
	switch (hop) {
	case 0:
		return 20000.0 * exp(0.5 * bench_normal(s));
	case 1:
		return 5000.0 * exp(1.0 * bench_normal(s));
	case 2:
		return 10000.0 / pow(bench_unif01(s), 1.0 / 2.5);
	case 3:
		return 2000.0 / pow(bench_unif01(s), 1.0 / 1.5);
	default:
		if (bench_unif01(s) < 0.9)
			return 3000.0 * exp(0.3 * bench_normal(s));
		return 300000.0 * exp(0.2 * bench_normal(s));
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Smallest x with at least q n of the n sorted values <= x. */
static double exact_quantile(const double *sorted, size_t n, double q)
{
	size_t i = (size_t)ceil(q * n);

	return sorted[i ? i - 1 : 0];
}

/*
 * At a checkpoint of @n packets: each hop's exact median and p99 against
 * each variant's estimate, errors added to @err[variant][q][hop].
 */
static void evaluate(double *const lat[HOPS], double *sorted, size_t n,
		     struct kll_sketch *const sk[V_COUNT][HOPS],
		     const struct pint_lat_table *tbl8, const struct pint_lat_table *tbl4,
		     double err[V_COUNT][2][HOPS])
{
	static const double qs[2] = { 0.5, 0.99 };
	unsigned int h, qi, v;

	for (h = 0; h < HOPS; h++) {
		memcpy(sorted, lat[h], n * sizeof(double));
		qsort(sorted, n, sizeof(double), cmp_double);
		for (qi = 0; qi < 2; qi++) {
			double ex = exact_quantile(sorted, n, qs[qi]);

			for (v = 0; v < V_COUNT; v++) {
				const struct pint_lat_table *t = variants[v].bits == 8 ?
								  tbl8 : tbl4;
				double est = NAN;

				if (variants[v].interp)
					pint_lat_quantile_interp(t, sk[v][h], qs[qi], &est);
				else
					kll_quantile(sk[v][h], qs[qi], &est);
				/* A hop without any sample yet: error 100 %. */
				err[v][qi][h] += isnan(est) ? 1.0 : fabs(est - ex) / ex;
			}
		}
	}
}

/* The sampled hop's latency @x of packet @pid, as each variant's sink sees it. */
static void feed(double x, __u64 pid, unsigned int hop,
		 struct kll_sketch *const sk[V_COUNT][HOPS],
		 const struct pint_lat_table *tbl8, const struct pint_lat_table *tbl4)
{
	__u64 ns = (__u64)llround(x);
	unsigned int v;

	for (v = 0; v < V_COUNT; v++) {
		const struct pint_lat_table *t = variants[v].bits == 8 ? tbl8 : tbl4;
		__u32 code;
		double d = x;

		if (variants[v].bits) {
			__u32 coin = (__u32)bench_hash64(pid, 0xc011 + hop);

			if (variants[v].randomized)
				code = pint_lat_compress(&t->enc, ns, coin);
			else
				code = pint_lat_compress_nearest(&t->enc, ns);
			pint_lat_decode(t, code, &d);
		}
		kll_update(sk[v][hop], d);
	}
}

/*
 * The sink's memory per (flow, hop), which k trades against the p99
 * error: raise *items and *bytes to the largest sketch of @sk.
 */
static void sketch_size(struct kll_sketch *sk[V_COUNT][HOPS], size_t *items, size_t *bytes)
{
	unsigned int v, h;

	for (v = 0; v < V_COUNT; v++)
		for (h = 0; h < HOPS; h++) {
			if (kll_retained(sk[v][h]) > *items)
				*items = kll_retained(sk[v][h]);
			if (kll_serialized_size(sk[v][h]) > *bytes)
				*bytes = kll_serialized_size(sk[v][h]);
		}
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: pint-latency-eval [-t TRIALS] [-n MAX_PACKETS] [-s SEED] [-k K]\n"
		"  -t TRIALS       independent flows per point (default 20)\n"
		"  -n MAX_PACKETS  largest flow size; checkpoints at 100, 1000, ...\n"
		"                  (default 1000000)\n"
		"  -s SEED         seed of the latencies and packet IDs (default 1)\n"
		"  -k K            KLL parameter of the sink's sketches (default 200)\n");
	exit(2);
}

static unsigned long parse_ul(const char *opt, const char *s, unsigned long min,
			      unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || !*s || v < min || v > max) {
		fprintf(stderr, "pint-latency-eval: %s \"%s\": expected %lu .. %lu\n", opt, s,
			min, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long trials = 20, max_n = 1000000, seed = 1, k = 200;
	struct pint_lat_table tbl8, tbl4;
	size_t ncp = 0, cp[16], n, c;
	double *lat[HOPS], *sorted;
	/* err[cp][variant][q][hop]: sum over trials of the relative error */
	static double err[16][V_COUNT][2][HOPS];
	/* largest sketch at each checkpoint, over trials, variants and hops */
	size_t most_items[16] = { 0 }, most_bytes[16] = { 0 };
	unsigned long tr;
	unsigned int h, v, qi;
	int opt, ret;

	while ((opt = getopt(argc, argv, "t:n:s:k:h")) != -1) {
		switch (opt) {
		case 't':
			trials = parse_ul("-t", optarg, 1, 100000);
			break;
		case 'n':
			max_n = parse_ul("-n", optarg, 100, 100000000);
			break;
		case 's':
			seed = parse_ul("-s", optarg, 0, ~0UL);
			break;
		case 'k':
			k = parse_ul("-k", optarg, KLL_K_MIN, KLL_K_MAX);
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	ret = pint_lat_table_for_range(&tbl8, 8, MIN_NS, MAX_NS);
	if (!ret)
		ret = pint_lat_table_for_range(&tbl4, 4, MIN_NS, MAX_NS);
	if (ret) {
		fprintf(stderr, "pint-latency-eval: latency table: %s\n", strerror(-ret));
		return 1;
	}
	for (n = 100; n <= max_n && ncp < 16; n *= 10)
		cp[ncp++] = n;
	sorted = malloc(max_n * sizeof(double));
	for (h = 0; h < HOPS; h++) {
		lat[h] = malloc(max_n * sizeof(double));
		if (!lat[h] || !sorted) {
			fprintf(stderr, "pint-latency-eval: out of memory\n");
			return 1;
		}
	}

	for (tr = 0; tr < trials; tr++) {
		struct kll_sketch *sk[V_COUNT][HOPS];
		__u64 rng = seed * 1000003ULL + tr;
		size_t next = 0;

		for (v = 0; v < V_COUNT; v++)
			for (h = 0; h < HOPS; h++) {
				sk[v][h] = kll_new(k, bench_hash64(tr, v * HOPS + h));
				if (!sk[v][h]) {
					fprintf(stderr, "pint-latency-eval: KLL sketch: %s\n",
						strerror(errno));
					return 1;
				}
			}
		for (n = 0; n < max_n; n++) {
			__u64 pid = (__u64)tr << 40 | n;
			unsigned int chosen = 0;

			for (h = 0; h < HOPS; h++)
				lat[h][n] = draw(h, &rng);
			/* Reservoir: hop i (1-based) takes the slot w.p. 1/i. */
			for (h = 1; h <= HOPS; h++)
				if (bench_hash64(pid, 0x5eed0000 + h) % h == 0)
					chosen = h - 1;
			feed(lat[chosen][n], pid, chosen, sk, &tbl8, &tbl4);
			if (next < ncp && n + 1 == cp[next]) {
				evaluate(lat, sorted, n + 1, sk, &tbl8, &tbl4, err[next]);
				sketch_size(sk, &most_items[next], &most_bytes[next]);
				next++;
			}
		}
		for (v = 0; v < V_COUNT; v++)
			for (h = 0; h < HOPS; h++)
				kll_free(sk[v][h]);
	}

	printf("PINT latency quantiles: mean relative error over %lu flows per point\n", trials);
	printf("%d hops, one sampled hop per packet (uniform, by packet-ID hash); "
	       "sink: KLL k=%lu per hop\n", HOPS, k);
	printf("scale %llu ns .. %llu ns: 8 bit eps %.4f, 4 bit eps %.4f; seed %lu\n",
	       (unsigned long long)MIN_NS, (unsigned long long)MAX_NS, tbl8.eps, tbl4.eps, seed);
	for (h = 0; h < HOPS; h++)
		printf("  hop %u: %s\n", h + 1, hop_desc[h]);
	printf("\n%9s  %-14s  %-34s  %-34s\n", "", "", "median error per hop",
	       "p99 error per hop");
	printf("%9s  %-14s ", "packets", "variant");
	for (qi = 0; qi < 2; qi++)
		for (h = 0; h < HOPS; h++)
			printf(" %6s", (char[]){ 'h', '1' + h, 0 });
	printf("\n");
	for (c = 0; c < ncp; c++) {
		for (v = 0; v < V_COUNT; v++) {
			printf("%9zu  %-14s ", cp[c], variants[v].name);
			for (qi = 0; qi < 2; qi++)
				for (h = 0; h < HOPS; h++)
					printf(" %5.1f%%", 100.0 * err[c][v][qi][h] / trials);
			printf("\n");
		}
		printf("%9s  KLL sketch per (flow, hop): at most %zu items (%zu bytes), "
		       "%zu bytes serialised\n\n", "", most_items[c], 8 * most_items[c],
		       most_bytes[c]);
	}
	for (h = 0; h < HOPS; h++)
		free(lat[h]);
	free(sorted);
	return 0;
}
