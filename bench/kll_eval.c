// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * kll_eval.c - the KLL sketch (lib/pint/kll.c) measured: how far its rank
 * estimates are from the exact ranks, against its two bounds, and how much
 * memory it keeps, for several k.
 *
 * Model: for each trial, n items drawn uniformly from [0, 1) (seeded), fed
 * to one sketch per k (coin seeded per trial and k). The stream is then
 * sorted and Q rank queries are asked at the items of exact rank
 * i n / (Q + 1), i = 1 .. Q. A sketch's error is the worst
 * |kll_rank(x) - rank(x)| / n over its Q queries.
 *
 * Output, one row per k: the mean over the trials of that worst error and
 * its maximum; the largest kll_rank_error_bound(delta = 0.01) / n of the
 * trials' sketches (a bound for one query, not for Q at once); the a priori
 * bound kll_rank_error_apriori(k, 0.01); the most items a sketch retained
 * at the end, in bytes (8 per item) and serialised, and
 * kll_retained_bound(k, n). Deterministic for a given seed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pint/kll.h"

#include "bench_rand.h"

#define DELTA		0.01
#define MAX_KS		8

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: kll-eval [-n ITEMS] [-t TRIALS] [-q QUERIES] [-s SEED] [-k K,...]\n"
		"  -n ITEMS    items per stream (default 1000000)\n"
		"  -t TRIALS   streams, one sketch per k each (default 20)\n"
		"  -q QUERIES  rank queries per sketch (default 999)\n"
		"  -s SEED     seed of the streams and the coins (default 1)\n"
		"  -k K,...    sketch parameters, at most %d (default 100,200,1000)\n", MAX_KS);
	exit(2);
}

static unsigned long parse_ul(const char *opt, const char *s, char **end,
			      unsigned long min, unsigned long max)
{
	char *e;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &e, 10);
	if (errno || e == s || (!end && *e) || v < min || v > max) {
		fprintf(stderr, "kll-eval: %s \"%s\": expected %lu .. %lu\n", opt, s, min, max);
		exit(2);
	}
	if (end)
		*end = e;
	return v;
}

int main(int argc, char **argv)
{
	unsigned long n = 1000000, trials = 20, nq = 999, seed = 1;
	unsigned int ks[MAX_KS] = { 100, 200, 1000 }, nk = 3, ki;
	double sum_worst[MAX_KS] = { 0 }, worst[MAX_KS] = { 0 }, bound[MAX_KS] = { 0 };
	size_t items[MAX_KS] = { 0 }, ser[MAX_KS] = { 0 };
	unsigned long tr, i;
	double *v;
	char *p;
	int opt;

	while ((opt = getopt(argc, argv, "n:t:q:s:k:h")) != -1) {
		switch (opt) {
		case 'n':
			n = parse_ul("-n", optarg, NULL, 1, 100000000);
			break;
		case 't':
			trials = parse_ul("-t", optarg, NULL, 1, 100000);
			break;
		case 'q':
			nq = parse_ul("-q", optarg, NULL, 1, 100000);
			break;
		case 's':
			seed = parse_ul("-s", optarg, NULL, 0, ~0UL);
			break;
		case 'k':
			for (nk = 0, p = optarg; ; p++) {
				if (nk == MAX_KS)
					usage();
				ks[nk++] = parse_ul("-k", p, &p, KLL_K_MIN, KLL_K_MAX);
				if (!*p)
					break;
				if (*p != ',')
					usage();
			}
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	v = malloc(n * sizeof(*v));
	if (!v) {
		fprintf(stderr, "kll-eval: out of memory\n");
		return 1;
	}

	for (tr = 0; tr < trials; tr++) {
		struct kll_sketch *sk[MAX_KS];
		__u64 s = seed * 1000003ULL + tr;

		for (ki = 0; ki < nk; ki++) {
			sk[ki] = kll_new(ks[ki], bench_rand64(&s) ^ ki);
			if (!sk[ki]) {
				fprintf(stderr, "kll-eval: kll_new(%u): %s\n", ks[ki], strerror(errno));
				return 1;
			}
		}
		for (i = 0; i < n; i++) {
			v[i] = (double)(bench_rand64(&s) >> 11) / (double)(1ULL << 53);
			for (ki = 0; ki < nk; ki++)
				if (kll_update(sk[ki], v[i])) {
					fprintf(stderr, "kll-eval: kll_update: out of memory\n");
					return 1;
				}
		}
		qsort(v, n, sizeof(*v), cmp_double);
		for (ki = 0; ki < nk; ki++) {
			double w = 0.0, b = kll_rank_error_bound(sk[ki], DELTA) / n;
			unsigned long qi;

			for (qi = 1; qi <= nq; qi++) {
				/* rank(x) = idx + 1; ties have probability ~n^2 / 2^54 */
				size_t idx = (size_t)((double)qi * n / (nq + 1));
				double x, e;

				idx = idx ? idx - 1 : 0;
				while (idx + 1 < n && v[idx + 1] == v[idx])
					idx++;
				x = v[idx];
				e = ((double)kll_rank(sk[ki], x) - (double)(idx + 1)) / n;
				if (e < 0)
					e = -e;
				if (e > w)
					w = e;
			}
			sum_worst[ki] += w;
			if (w > worst[ki])
				worst[ki] = w;
			if (b > bound[ki])
				bound[ki] = b;
			if (kll_retained(sk[ki]) > items[ki])
				items[ki] = kll_retained(sk[ki]);
			if (kll_serialized_size(sk[ki]) > ser[ki])
				ser[ki] = kll_serialized_size(sk[ki]);
			kll_free(sk[ki]);
		}
	}

	printf("KLL sketch: %lu uniform random items per stream, %lu streams, one sketch "
	       "per k each; seed %lu\n", n, trials, seed);
	printf("rank error normalised by n, per sketch the worst of %lu rank queries; "
	       "bounds for delta = %.2f\n\n", nq, DELTA);
	printf("%6s  %13s  %7s  %14s  %8s  %8s  %7s  %10s  %11s\n", "", "mean of", "",
	       "bound", "a priori", "retained", "", "", "retained");
	printf("%6s  %13s  %7s  %14s  %8s  %8s  %7s  %10s  %11s\n", "k", "worst", "worst",
	       "(counts, max)", "bound", "items", "bytes", "serialised", "bound");
	for (ki = 0; ki < nk; ki++)
		printf("%6u  %13.4f  %7.4f  %14.4f  %8.4f  %8zu  %7zu  %10zu  %11zu\n", ks[ki],
		       sum_worst[ki] / trials, worst[ki], bound[ki],
		       kll_rank_error_apriori(ks[ki], DELTA), items[ki], 8 * items[ki], ser[ki],
		       kll_retained_bound(ks[ki], n));
	free(v);
	return 0;
}
