// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_decode_bench.c - build/bench/pint-decode-bench: how long the sink's
 * PINT path decoder (lib/pint/pint_decode.c) takes per packet, (a) while a
 * path is being decoded and (b) once it is decoded, for one flow on one
 * core (issue 10, "Faster decoding at the sink").
 *
 * Rows: candidate universes of 1024 and 65,536 switch IDs decoded
 * topology-blind (every trial draws k distinct IDs), and, with -g, a GML
 * topology decoded blind and topology-aware (every trial takes a random
 * shortest path of k switches). Columns: digest widths b.
 *
 * Packets are made (packet IDs drawn, digests encoded) before the clock
 * starts; only pint_decoder_add() (and pint_decoder_new(), apart) is timed,
 * in CPU time of the thread. Every decoded path is compared
 * with the true one and every packet after the decode must leave the path
 * in place; the program exits 1 otherwise.
 *
 * Output: the packets to decode (median / p99 over the trials) are a
 * function of the seed alone; every timing line starts with "(" so that a
 * rerun can compare the rest byte for byte.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pint/gml.h"
#include "pint/pint_path.h"

#include "bench_rand.h"

#define CHUNK		4096		/* packets made per batch, then timed */
#define MAX_PACKETS	20000000UL	/* give up on a trial after this many */
#define MAX_WIDTHS	8

/*
 * The thread's CPU time: what one sink core spends, not what other
 * processes on a shared machine take from it.
 */
static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

struct bench {
	const char		*scheme;
	unsigned int		k;
	unsigned int		trials;
	unsigned long		after;		/* packets timed after the decode */
	__u64			seed;
	unsigned int		bits[MAX_WIDTHS];
	unsigned int		nr_bits;
	const struct gml_graph	*g;		/* NULL: blind universes only */
	int			*dist;		/* BFS scratch, g->nr_nodes */
	int			*parent;
};

struct row {
	const char		*name;
	struct pint_topo	topo;
	int			aware;
	int			graph;		/* paths are shortest paths of g */
};

struct cell {
	unsigned long		*counts;	/* packets to decode, per trial */
	unsigned long		decode_packets;
	double			decode_ns;
	unsigned long		after_packets;
	double			after_ns;
	double			new_ns;
	unsigned int		bad;		/* undecoded, wrong or lost paths */
};

struct pkt {
	__u32	pid;
	__u32	digest;
};

/* A random shortest path of k switches of the graph (node indices). */
static int graph_path(const struct bench *b, __u64 *rng, unsigned int *idx)
{
	const struct gml_graph *g = b->g;
	unsigned int tries, i, n, pick, v;

	for (tries = 0; tries < 10000; tries++) {
		unsigned int src = bench_rand64(rng) % g->nr_nodes;

		if (gml_bfs(g, src, b->dist, b->parent) < (int)b->k - 1)
			continue;
		for (i = 0, n = 0; i < g->nr_nodes; i++)
			n += b->dist[i] == (int)b->k - 1;
		pick = bench_rand64(rng) % n;
		for (v = 0; v < g->nr_nodes; v++)
			if (b->dist[v] == (int)b->k - 1 && !pick--)
				break;
		for (i = b->k; i > 0; i--) {
			idx[i - 1] = v;
			v = b->parent[v];
		}
		return 0;
	}
	return -1;
}

static void trial_ids(const struct bench *b, const struct row *r, __u64 *rng, __u32 *ids)
{
	unsigned int idx[PINT_DECODE_MAX_HOPS], i, j;

	if (r->graph) {
		graph_path(b, rng, idx);	/* checked in main() */
		for (i = 0; i < b->k; i++)
			ids[i] = r->topo.node_id[idx[i]];
		return;
	}
	for (i = 0; i < b->k; i++) {
again:
		ids[i] = r->topo.node_id[bench_rand64(rng) % r->topo.nr_nodes];
		for (j = 0; j < i; j++)
			if (ids[j] == ids[i])
				goto again;
	}
}

static void make_packets(const struct pint_path_params *p, __u64 *rng, const __u32 *ids,
			 unsigned int k, struct pkt *pk, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		pk[i].pid = bench_rand64(rng);
		pk[i].digest = pint_path_encode(p, pk[i].pid, ids, k);
	}
}

static int run_cell(const struct bench *b, const struct row *r, unsigned int bits,
		    struct cell *c, struct pkt *pk)
{
	__u64 rng = b->seed * 0x100000001b3ULL + bits * 7919 + r->aware * 31 +
		    r->topo.nr_nodes;
	__u32 ids[PINT_DECODE_MAX_HOPS], got[PINT_DECODE_MAX_HOPS];
	unsigned int t;

	for (t = 0; t < b->trials; t++) {
		struct pint_path_params p;
		struct pint_decoder *d;
		struct pint_seeds s;
		unsigned long n = 0, left;
		unsigned int res = 0, i, m;
		double t0;

		s.decider = bench_rand64(&rng);
		s.act = bench_rand64(&rng);
		s.value = bench_rand64(&rng);
		if (pint_path_params_init(&p, &s, bits, 0) || pint_path_scheme(&p, b->scheme, b->k))
			return -EINVAL;
		trial_ids(b, r, &rng, ids);
		t0 = now_ns();
		d = pint_decoder_new(&p, &r->topo, r->aware ? PINT_DEC_F_TOPO_AWARE : 0,
				     PINT_DECODE_MAX_HOPS);
		c->new_ns += now_ns() - t0;
		if (!d)
			return -errno;
		/* (a) until the path is decoded */
		while (!(res & PINT_DEC_NEW_PATH) && n < MAX_PACKETS) {
			make_packets(&p, &rng, ids, b->k, pk, CHUNK);
			t0 = now_ns();
			for (i = 0; i < CHUNK; i++) {
				res = pint_decoder_add(d, pk[i].pid, pk[i].digest, b->k);
				if (res & PINT_DEC_NEW_PATH) {
					i++;
					break;
				}
			}
			c->decode_ns += now_ns() - t0;
			n += i;
		}
		c->counts[t] = n;
		c->decode_packets += n;
		if (!(res & PINT_DEC_NEW_PATH) ||
		    pint_decoder_path(d, got, PINT_DECODE_MAX_HOPS) != (int)b->k ||
		    memcmp(got, ids, b->k * sizeof(*ids)) || pint_decoder_stats(d)->route_changes) {
			c->bad++;
			pint_decoder_free(d);
			continue;
		}
		/* (b) once decoded: every packet must leave the path as it is */
		for (left = b->after; left; left -= m) {
			m = left < CHUNK ? left : CHUNK;
			make_packets(&p, &rng, ids, b->k, pk, m);
			res = PINT_DEC_COMPLETE;
			t0 = now_ns();
			for (i = 0; i < m; i++)
				res &= pint_decoder_add(d, pk[i].pid, pk[i].digest, b->k);
			c->after_ns += now_ns() - t0;
			if (!(res & PINT_DEC_COMPLETE))
				c->bad++;
		}
		c->after_packets += b->after;
		if (pint_decoder_stats(d)->route_changes || pint_decoder_stats(d)->ignored)
			c->bad++;
		pint_decoder_free(d);
	}
	return 0;
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted counts. */
static unsigned long pct(const unsigned long *c, unsigned int n, double q)
{
	unsigned int r = (unsigned int)(q * n + 0.999999);

	return c[r ? r - 1 : 0];
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pint-decode-bench [-g FILE.gml] [-k HOPS] [-t TRIALS] [-b BITS,...]\n"
		"                         [-S SCHEME] [-n AFTER] [-s SEED]\n"
		"  -g FILE   also decode random shortest paths of this topology, blind and\n"
		"            topology-aware\n"
		"  -k HOPS   path length in switches (default 25)\n"
		"  -t N      trials per cell (default 20)\n"
		"  -b LIST   digest widths (default 4,8,16)\n"
		"  -S NAME   path-tracing scheme (default hybrid)\n"
		"  -n N      packets timed per trial after the path is decoded (default 10000)\n"
		"  -s SEED   master seed (default 1)\n");
}

int main(int argc, char **argv)
{
	struct bench b = { .scheme = "hybrid", .k = 25, .trials = 20, .after = 10000, .seed = 1 };
	static const unsigned int universes[] = { 1024, 65536 };
	struct row rows[4];
	unsigned int nr_rows = 0, i, j;
	struct cell *cells;
	struct gml_graph g;
	const char *gml = NULL;
	__u32 *uids = NULL;
	struct pkt *pk;
	char err[512];
	double t0;
	int opt, ret = 0;

	b.nr_bits = 3;
	b.bits[0] = 4, b.bits[1] = 8, b.bits[2] = 16;
	while ((opt = getopt(argc, argv, "g:k:t:b:S:n:s:h")) != -1) {
		char *end, *dup, *tok, *save = NULL;

		switch (opt) {
		case 'g':
			gml = optarg;
			break;
		case 'k':
			b.k = strtoul(optarg, &end, 0);
			if (*end || b.k < 2 || b.k > PINT_DECODE_MAX_HOPS) {
				fprintf(stderr, "pint-decode-bench: bad -k '%s' (2..%d)\n", optarg,
					PINT_DECODE_MAX_HOPS);
				return 2;
			}
			break;
		case 't':
			b.trials = strtoul(optarg, &end, 0);
			if (*end || b.trials < 1 || b.trials > 100000) {
				fprintf(stderr, "pint-decode-bench: bad -t '%s'\n", optarg);
				return 2;
			}
			break;
		case 'b':
			b.nr_bits = 0;
			dup = strdup(optarg);
			for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				unsigned long w = strtoul(tok, &end, 0);

				if (*end || w < 1 || w > 32 || b.nr_bits >= MAX_WIDTHS) {
					fprintf(stderr, "pint-decode-bench: bad -b '%s'\n", optarg);
					free(dup);
					return 2;
				}
				b.bits[b.nr_bits++] = w;
			}
			free(dup);
			if (!b.nr_bits) {
				fprintf(stderr, "pint-decode-bench: bad -b '%s'\n", optarg);
				return 2;
			}
			break;
		case 'S':
			b.scheme = optarg;
			break;
		case 'n':
			b.after = strtoul(optarg, &end, 0);
			if (*end || b.after > 100000000UL) {
				fprintf(stderr, "pint-decode-bench: bad -n '%s'\n", optarg);
				return 2;
			}
			break;
		case 's':
			b.seed = strtoull(optarg, &end, 0);
			if (*end) {
				fprintf(stderr, "pint-decode-bench: bad -s '%s'\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	{
		struct pint_path_params p;

		if (pint_path_params_init(&p, NULL, 8, 0) || pint_path_scheme(&p, b.scheme, b.k)) {
			fprintf(stderr, "pint-decode-bench: unknown scheme '%s'\n", b.scheme);
			return 2;
		}
	}

	uids = malloc(universes[1] * sizeof(*uids));
	pk = malloc(CHUNK * sizeof(*pk));
	if (!uids || !pk) {
		fprintf(stderr, "pint-decode-bench: out of memory\n");
		return 1;
	}
	for (i = 0; i < universes[1]; i++)
		uids[i] = i;
	for (i = 0; i < 2; i++) {
		static const char *names[] = { "1024 IDs", "65536 IDs" };

		rows[nr_rows].name = names[i];
		rows[nr_rows].topo.nr_nodes = universes[i];
		rows[nr_rows].topo.node_id = uids;
		rows[nr_rows].aware = 0;
		rows[nr_rows].graph = 0;
		nr_rows++;
	}
	if (gml) {
		__u64 rng = b.seed;
		unsigned int idx[PINT_DECODE_MAX_HOPS];

		if (gml_load(gml, &g, err, sizeof(err))) {
			fprintf(stderr, "pint-decode-bench: %s\n", err);
			return 1;
		}
		b.g = &g;
		b.dist = malloc(g.nr_nodes * sizeof(int));
		b.parent = malloc(g.nr_nodes * sizeof(int));
		if (!b.dist || !b.parent) {
			fprintf(stderr, "pint-decode-bench: out of memory\n");
			return 1;
		}
		if (graph_path(&b, &rng, idx)) {
			fprintf(stderr, "pint-decode-bench: %s has no shortest path of %u switches\n",
				gml, b.k);
			return 1;
		}
		for (i = 0; i < 2; i++) {
			rows[nr_rows].name = strrchr(gml, '/') ? strrchr(gml, '/') + 1 : gml;
			gml_to_topo(&g, &rows[nr_rows].topo);
			rows[nr_rows].aware = i;
			rows[nr_rows].graph = 1;
			nr_rows++;
		}
	}

	cells = calloc(nr_rows * b.nr_bits, sizeof(*cells));
	if (!cells) {
		fprintf(stderr, "pint-decode-bench: out of memory\n");
		return 1;
	}
	t0 = now_ns();
	for (i = 0; i < nr_rows; i++) {
		for (j = 0; j < b.nr_bits; j++) {
			struct cell *c = &cells[i * b.nr_bits + j];
			int err2;

			c->counts = calloc(b.trials, sizeof(*c->counts));
			if (!c->counts) {
				fprintf(stderr, "pint-decode-bench: out of memory\n");
				return 1;
			}
			err2 = run_cell(&b, &rows[i], b.bits[j], c, pk);
			if (err2) {
				fprintf(stderr, "pint-decode-bench: %s b=%u: %s\n", rows[i].name,
					b.bits[j], strerror(-err2));
				return 1;
			}
			if (c->bad) {
				fprintf(stderr, "pint-decode-bench: %s %s b=%u: %u paths not decoded, "
					"wrong or lost\n", rows[i].name,
					rows[i].aware ? "topo" : "blind", b.bits[j], c->bad);
				ret = 1;
			}
			qsort(c->counts, b.trials, sizeof(*c->counts), cmp_ul);
		}
	}

	printf("PINT path decoder, one flow: scheme %s, k = %u switches, %u trials per cell, "
	       "seed %llu\n", b.scheme, b.k, b.trials, (unsigned long long)b.seed);
	printf("packets to decode the whole path: median / p99\n\n");
	printf("%-14s %-6s", "universe", "decode");
	for (j = 0; j < b.nr_bits; j++) {
		char h[16];

		snprintf(h, sizeof(h), "b=%u", b.bits[j]);
		printf(" %13s", h);
	}
	printf("\n");
	for (i = 0; i < nr_rows; i++) {
		char name[32];

		if (rows[i].graph)
			snprintf(name, sizeof(name), "%.20s", rows[i].name);
		else
			snprintf(name, sizeof(name), "%s", rows[i].name);
		printf("%-14s %-6s", name, rows[i].aware ? "topo" : "blind");
		for (j = 0; j < b.nr_bits; j++) {
			const struct cell *c = &cells[i * b.nr_bits + j];
			char v[32];

			snprintf(v, sizeof(v), "%lu / %lu%s", pct(c->counts, b.trials, 0.5),
				 pct(c->counts, b.trials, 0.99), c->bad ? "!" : "");
			printf(" %13s", v);
		}
		printf("\n");
	}
	printf("\n(timings, ns per packet (mean over all trials): decoding / decoded;"
	       " us per pint_decoder_new())\n");
	printf("(%-14s %-6s", "universe", "decode");
	for (j = 0; j < b.nr_bits; j++) {
		char h[16];

		snprintf(h, sizeof(h), "b=%u", b.bits[j]);
		printf(" %19s", h);
	}
	printf(" %8s)\n", "new us");
	for (i = 0; i < nr_rows; i++) {
		double new_ns = 0;
		char name[32];

		snprintf(name, sizeof(name), "%.14s", rows[i].name);
		printf("(%-14s %-6s", name, rows[i].aware ? "topo" : "blind");
		for (j = 0; j < b.nr_bits; j++) {
			const struct cell *c = &cells[i * b.nr_bits + j];
			char v[40];

			snprintf(v, sizeof(v), "%.0f / %.0f",
				 c->decode_packets ? c->decode_ns / c->decode_packets : 0.0,
				 c->after_packets ? c->after_ns / c->after_packets : 0.0);
			printf(" %19s", v);
			new_ns += c->new_ns;
		}
		printf(" %8.0f)\n", new_ns / 1e3 / (b.trials * b.nr_bits));
	}
	printf("\n(%.1f s CPU on one thread)\n", (now_ns() - t0) / 1e9);

	for (i = 0; i < nr_rows * b.nr_bits; i++)
		free(cells[i].counts);
	free(cells);
	free(uids);
	free(pk);
	if (gml) {
		free(b.dist);
		free(b.parent);
		gml_free(&g);
	}
	return ret;
}
