// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_eval.c - build/bench/pint-eval: how many packets PINT needs to trace
 * a whole path, against the IP traceback schemes it is compared with in the
 * PINT paper (Ben Basat et al., SIGCOMM 2020, §6 path tracing), PPM
 * (Savage et al., SIGCOMM 2000) and AMS2 (Song, Perrig, INFOCOM 2001),
 * simulated bit for bit in bench/traceback_ppm.c and traceback_ams2.c;
 * their factor against PINT is printed for the widths of -F.
 *
 * For a topology (GML), the path is a longest shortest path (the diameter)
 * and the decoder knows the set of switches (topology-blind) or also the
 * adjacency (topology-aware). For a path length k, every trial draws k
 * distinct switch IDs from a universe of U (default 1024, 10-bit IDs).
 * Every trial uses fresh hash seeds and fresh random packet IDs, and every
 * decoded path is compared with the true one.
 *
 * A width "2x8" in -b is the PINT paper's 16-bit configuration: two
 * independent 8-bit digests per packet (pint_path_set_instances()), beside
 * b=16, one 16-bit digest.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pint/gml.h"
#include "pint/pint_path.h"
#include "traceback.h"

#include "bench_rand.h"

#define MAX_BITS	8
#define MAX_PACKETS	20000000UL

/* The evaluator's random source, the one the baselines use (traceback.h). */
struct eval {
	/* the network */
	struct gml_graph	g;
	int			have_graph;
	struct pint_topo	topo;
	__u32			*universe_ids;	/* -k mode */
	unsigned int		k;
	unsigned int		path_idx[PINT_DECODE_MAX_HOPS];
	unsigned int		id_bits;
	int			*sink_dist;	/* AMS2: hops from the last switch */
	/* the experiment */
	unsigned int		trials;
	__u64			seed;
	unsigned int		bits[MAX_BITS];	/* one digest's width */
	unsigned int		inst[MAX_BITS];	/* digests per packet, 2 for "2x8" */
	unsigned int		nr_bits;
	double			mark_p;		/* PPM, AMS2; 0 = 1/k */
	unsigned int		ams_m;
	unsigned int		ams_accept;	/* 0 = ams_m */
	unsigned int		factor_bits[MAX_BITS];	/* PINT widths to compare with */
	unsigned int		factor_inst[MAX_BITS];	/* ... and their digests (2x8) */
	unsigned int		nr_factor_bits;
};

struct job {
	const struct eval	*ev;
	const char		*scheme;
	unsigned int		bits;		/* 0 = full-ID */
	unsigned int		inst;		/* independent digests per packet */
	unsigned int		col;		/* column in the table */
	int			aware;
	int			kind;		/* 0 PINT, 1 PPM, 2 AMS2 */
	unsigned long		*counts;
	unsigned int		failed;		/* not decoded within MAX_PACKETS */
	unsigned int		wrong;		/* decoded path != true path */
	int			err;
};

/* The switch IDs of a trial's path (fresh in -k mode). */
static void trial_path(const struct eval *ev, __u64 *rng, __u32 *ids)
{
	unsigned int i, j;

	if (ev->have_graph) {
		for (i = 0; i < ev->k; i++)
			ids[i] = ev->g.id[ev->path_idx[i]];
		return;
	}
	for (i = 0; i < ev->k; i++) {
again:
		ids[i] = bench_rand64(rng) % ev->topo.nr_nodes;
		for (j = 0; j < i; j++)
			if (ids[j] == ids[i])
				goto again;
	}
}

static int run_pint(struct job *jb)
{
	const struct eval *ev = jb->ev;
	struct pint_path_params p;
	__u32 ids[PINT_DECODE_MAX_HOPS], got[PINT_DECODE_MAX_HOPS];
	unsigned int t, bits = jb->bits ? jb->bits : ev->id_bits;
	__u64 rng = ev->seed * 0x100000001b3ULL + bits * 7919 + jb->aware +
		    (jb->inst > 1 ? (jb->inst - 1) * 104729 : 0);

	for (t = 0; t < ev->trials; t++) {
		struct pint_seeds s;
		struct pint_decoder *d;
		unsigned long n = 0;
		unsigned int r = 0;

		s.decider = bench_rand64(&rng);
		s.act = bench_rand64(&rng);
		s.value = bench_rand64(&rng);
		if (pint_path_params_init(&p, &s, bits, jb->bits ? 0 : PINT_PATH_F_FULL_ID) ||
		    pint_path_scheme(&p, jb->scheme, ev->k) ||
		    (jb->inst > 1 && pint_path_set_instances(&p, jb->inst)))
			return -EINVAL;
		trial_path(ev, &rng, ids);
		d = pint_decoder_new(&p, &ev->topo, jb->aware ? PINT_DEC_F_TOPO_AWARE : 0,
				     PINT_DECODE_MAX_HOPS);
		if (!d)
			return -errno;
		while (!(r & PINT_DEC_NEW_PATH) && n < MAX_PACKETS) {
			__u32 pid = bench_rand64(&rng);

			r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, ev->k), ev->k);
			n++;
			if (r & PINT_DEC_ROUTE_CHANGE)
				jb->wrong++;	/* cannot happen on a fixed path */
		}
		if (!(r & PINT_DEC_NEW_PATH)) {
			jb->failed++;
		} else if (pint_decoder_path(d, got, PINT_DECODE_MAX_HOPS) != (int)ev->k ||
			   memcmp(got, ids, ev->k * sizeof(*ids))) {
			jb->wrong++;
		}
		jb->counts[t] = n;
		pint_decoder_free(d);
	}
	return 0;
}

/* PPM and AMS2 on the trial's path (bench/traceback_ppm.c, traceback_ams2.c). */
static int run_traceback(struct job *jb)
{
	const struct eval *ev = jb->ev;
	__u64 rng = ev->seed * 0x100000001b3ULL + (jb->kind == 1 ? 101 : 202);
	struct tb_params tp = {
		.mark_p = ev->mark_p ? ev->mark_p : 1.0 / ev->k,
		.ams_m = ev->ams_m,
		.ams_accept = ev->ams_accept ? ev->ams_accept : ev->ams_m,
	};
	__u32 ids[PINT_DECODE_MAX_HOPS];
	struct tb_path path = {
		.k = ev->k,
		.id = ids,
		.g = ev->have_graph ? &ev->g : NULL,
		.idx = ev->path_idx,
		.sink_dist = ev->sink_dist,
	};
	unsigned int t;

	for (t = 0; t < ev->trials; t++) {
		struct tb_result res;
		int err;

		trial_path(ev, &rng, ids);
		err = jb->kind == 1 ? tb_ppm_trial(&tp, &path, &rng, MAX_PACKETS, &res) :
				      tb_ams2_trial(&tp, &path, &rng, MAX_PACKETS, &res);
		if (err)
			return err;
		jb->failed += !res.decoded;
		jb->wrong += res.wrong;
		jb->counts[t] = res.packets;
	}
	return 0;
}

static int run_job(struct job *jb)
{
	switch (jb->kind) {
	case 1:
	case 2:
		return run_traceback(jb);
	default:
		return run_pint(jb);
	}
}

struct pool {
	struct job	*jobs;
	unsigned int	nr, next;
	pthread_mutex_t	lock;
};

static void *worker(void *arg)
{
	struct pool *pl = arg;

	for (;;) {
		unsigned int i;

		pthread_mutex_lock(&pl->lock);
		i = pl->next++;
		pthread_mutex_unlock(&pl->lock);
		if (i >= pl->nr)
			return NULL;
		pl->jobs[i].err = run_job(&pl->jobs[i]);
	}
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted counts. */
static unsigned long pct(const unsigned long *c, unsigned int n, double q)
{
	unsigned int r = (unsigned int)ceil(q * n);

	return c[r ? r - 1 : 0];
}

/* Each baseline's packets over those of every PINT row at b=@bits. */
static void print_factor(const struct eval *ev, const struct job *jobs, unsigned int nr,
			 const struct job *const *tb, unsigned int bits, unsigned int inst,
			 int name_w)
{
	unsigned int i, k;
	char w[16];

	for (i = 0; i < nr && (jobs[i].kind || jobs[i].bits != bits || jobs[i].inst != inst); i++)
		;
	if (i == nr)
		return;	/* no such column */
	if (inst > 1)
		snprintf(w, sizeof(w), "%ux%u", inst, bits);
	else
		snprintf(w, sizeof(w), "%u", bits);
	printf("\nfactor against PINT at b=%s (baseline packets / PINT packets):\n", w);
	printf("  %-*s %-6s %11s %9s %11s %9s\n", name_w, "scheme", "decode", "PPM median", "PPM p99",
	       "AMS2 median", "AMS2 p99");
	for (i = 0; i < nr; i++) {
		const struct job *jb = &jobs[i];
		double m = pct(jb->counts, ev->trials, 0.5), q = pct(jb->counts, ev->trials, 0.99);

		if (jb->kind || jb->bits != bits || jb->inst != inst)
			continue;
		printf("  %-*s %-6s", name_w, jb->scheme, jb->aware ? "topo" : "blind");
		for (k = 1; k <= 2; k++) {
			if (!tb[k]) {
				printf(" %11s %9s", "-", "-");
				continue;
			}
			printf(" %10.1fx %8.1fx", pct(tb[k]->counts, ev->trials, 0.5) / m,
			       pct(tb[k]->counts, ev->trials, 0.99) / q);
		}
		printf("\n");
	}
}

/*
 * The PPM and AMS2 lines, then their factor against PINT at each width of
 * -F (default b=16, the baselines' 16-bit IP ID budget). Return: 1 if a
 * baseline trial was not decoded or decoded a wrong path where its scheme
 * cannot (PPM's hash check, AMS2 with all m FlagIDs), else 0.
 */
static int print_traceback(const struct eval *ev, const struct job *jobs, unsigned int nr,
			   int name_w)
{
	const struct job *tb[3] = { NULL, NULL, NULL };
	unsigned int i, b, accept = ev->ams_accept ? ev->ams_accept : ev->ams_m;
	char p[24];
	int ret = 0;

	if (ev->mark_p)
		snprintf(p, sizeof(p), "p=%.3g", ev->mark_p);
	else
		snprintf(p, sizeof(p), "p=1/k=%.3g", 1.0 / ev->k);
	for (i = 0; i < nr; i++) {
		const struct job *jb = &jobs[i];
		char st[64] = "";

		if (!jb->kind)
			continue;
		tb[jb->kind] = jb;
		if (jb->failed || jb->wrong)
			snprintf(st, sizeof(st), " (%u not decoded, %u wrong)", jb->failed, jb->wrong);
		if (jb->kind == 1)
			printf("PPM  (Savage et al. 2000; 16 bits: 3-bit offset, 5-bit distance, 8-bit "
			       "fragment; %s): %lu / %lu%s\n", p, pct(jb->counts, ev->trials, 0.5),
			       pct(jb->counts, ev->trials, 0.99), st);
		else
			printf("AMS2 (Song, Perrig 2001; 16 bits: 3-bit FlagID, 5-bit distance, 8-bit "
			       "edge; accept %u of m=%u; %s): %lu / %lu%s\n", accept, ev->ams_m, p,
			       pct(jb->counts, ev->trials, 0.5), pct(jb->counts, ev->trials, 0.99), st);
		if (jb->failed || (jb->wrong && (jb->kind == 1 || accept == ev->ams_m))) {
			fprintf(stderr, "pint-eval: %s: %u not decoded, %u wrong\n",
				jb->kind == 1 ? "PPM" : "AMS2", jb->failed, jb->wrong);
			ret = 1;
		}
	}
	for (b = 0; b < ev->nr_factor_bits; b++)
		print_factor(ev, jobs, nr, tb, ev->factor_bits[b], ev->factor_inst[b], name_w);
	return ret;
}

/*
 * A list of digest widths, "B" or "NxB" (N independent B-bit digests, the
 * paper's 2x8), at most MAX_BITS of them: -b and -F. Return: 0, or -1 for a
 * bad list (@bits, @inst and @n then partly filled).
 */
static int parse_widths(const char *arg, unsigned int *bits, unsigned int *inst,
			unsigned int *n)
{
	char *dup = strdup(arg), *tok, *end, *save = NULL;
	int ret = dup ? 0 : -1;

	*n = 0;
	for (tok = dup ? strtok_r(dup, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long b = strtoul(tok, &end, 0), k = 1;

		if (*end == 'x') {
			k = b;
			b = strtoul(end + 1, &end, 0);
		}
		if (*end || b < 1 || b > 32 || k < 1 || k > PINT_PATH_MAX_INST || k * b > 32 ||
		    *n >= MAX_BITS) {
			ret = -1;
			break;
		}
		inst[*n] = k;
		bits[(*n)++] = b;
	}
	free(dup);
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pint-eval (-g FILE.gml | -k HOPS) [-t TRIALS] [-b BITS,...] [-s SEED]\n"
		"                 [-u UNIVERSE] [-S SCHEME,...] [-j THREADS] [-p MARK_P|1/k] [-A N]\n"
		"  -g FILE   topology (Internet Topology Zoo GML); path = a longest shortest path\n"
		"  -k HOPS   path length (1..%d), switch IDs drawn from 0..UNIVERSE-1 (default 1024)\n"
		"  -t N      trials per cell (default 1000)\n"
		"  -b LIST   digest widths (default 1,4,8,16), NxB = N independent B-bit digests\n"
		"            (2x8: the paper's 16 bits); the full-ID column is always added\n"
		"  -S LIST   schemes, one row each: baseline, xor, xor:P, ladder5,\n"
		"            hybrid[:tau=T,p=P], multilayer[:tau=T,p=P,p=P...] (P may be C/d)\n"
		"            (default baseline,xor,ladder5,hybrid,multilayer)\n"
		"  -p P      marking probability of PPM and AMS2 (default 0.04, Savage et al.;\n"
		"            1/k: one over the path length)\n"
		"  -A N      AMS2 accepts a router once N of its m = 8 FlagIDs match (default 8)\n"
		"  -F LIST   PINT widths (NxB too) to print PPM's and AMS2's factor against\n"
		"            (default 16)\n"
		"  -s SEED   master seed (default 1); -j N worker threads (default 2)\n",
		PINT_DECODE_MAX_HOPS);
}

int main(int argc, char **argv)
{
	static struct eval ev = { .trials = 1000, .seed = 1, .mark_p = 0.04, .ams_m = 8 };
	const char *gml = NULL, *schemes_arg = "baseline,xor,ladder5,hybrid,multilayer";
	char *schemes[16], *sdup, *tok, *save = NULL, err[512];
	unsigned int universe = 1024, threads = 2, nr_schemes = 0, name_w = 10, i, j, c, a;
	struct pool pl = { .lock = PTHREAD_MUTEX_INITIALIZER };
	pthread_t th[16];
	struct timespec t0, t1;
	int opt, ret = 0;

	ev.nr_bits = 4;
	ev.nr_factor_bits = 1;
	ev.factor_bits[0] = 16;
	ev.factor_inst[0] = 1;
	ev.bits[0] = 1, ev.bits[1] = 4, ev.bits[2] = 8, ev.bits[3] = 16;
	for (i = 0; i < MAX_BITS; i++)
		ev.inst[i] = 1;
	while ((opt = getopt(argc, argv, "g:k:t:b:s:u:S:j:p:A:F:h")) != -1) {
		char *end;

		switch (opt) {
		case 'g':
			gml = optarg;
			break;
		case 'k':
			ev.k = strtoul(optarg, &end, 0);
			if (*end || ev.k < 1 || ev.k > PINT_DECODE_MAX_HOPS) {
				fprintf(stderr, "pint-eval: bad -k '%s' (1..%d)\n", optarg,
					PINT_DECODE_MAX_HOPS);
				return 2;
			}
			break;
		case 't':
			ev.trials = strtoul(optarg, &end, 0);
			if (*end || ev.trials < 1 || ev.trials > 1000000) {
				fprintf(stderr, "pint-eval: bad -t '%s'\n", optarg);
				return 2;
			}
			break;
		case 'b':
			if (parse_widths(optarg, ev.bits, ev.inst, &ev.nr_bits)) {
				fprintf(stderr, "pint-eval: bad -b '%s'\n", optarg);
				return 2;
			}
			break;
		case 's':
			ev.seed = strtoull(optarg, &end, 0);
			if (*end) {
				fprintf(stderr, "pint-eval: bad -s '%s'\n", optarg);
				return 2;
			}
			break;
		case 'u':
			universe = strtoul(optarg, &end, 0);
			if (*end || universe < 2 || universe > (1U << 20)) {
				fprintf(stderr, "pint-eval: bad -u '%s' (2..2^20)\n", optarg);
				return 2;
			}
			break;
		case 'S':
			schemes_arg = optarg;
			break;
		case 'j':
			threads = strtoul(optarg, &end, 0);
			if (*end || threads < 1 || threads > 16) {
				fprintf(stderr, "pint-eval: bad -j '%s' (1..16)\n", optarg);
				return 2;
			}
			break;
		case 'p':
			if (!strcmp(optarg, "1/k")) {
				ev.mark_p = 0;	/* set once k is known */
				break;
			}
			ev.mark_p = strtod(optarg, &end);
			if (*end || !(ev.mark_p > 0 && ev.mark_p < 1)) {
				fprintf(stderr, "pint-eval: bad -p '%s'\n", optarg);
				return 2;
			}
			break;
		case 'F':
			if (parse_widths(optarg, ev.factor_bits, ev.factor_inst, &ev.nr_factor_bits)) {
				fprintf(stderr, "pint-eval: bad -F '%s'\n", optarg);
				return 2;
			}
			break;
		case 'A':
			ev.ams_accept = strtoul(optarg, &end, 0);
			if (*end || ev.ams_accept < 1 || ev.ams_accept > ev.ams_m) {
				fprintf(stderr, "pint-eval: bad -A '%s' (1..%u)\n", optarg, ev.ams_m);
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
	if (optind != argc || (!gml == !ev.k)) {
		usage(stderr);
		return 2;
	}
	/*
	 * -S is a comma-separated list, and a scheme's own parameters are too
	 * ("hybrid:tau=0.5,p=0.2"): a token "tau=..." or "p=..." continues the
	 * scheme before it.
	 */
	sdup = malloc(2 * strlen(schemes_arg) + 2);
	for (tok = strtok_r(strcpy(sdup + strlen(schemes_arg) + 1, schemes_arg), ",", &save), c = 0;
	     tok; tok = strtok_r(NULL, ",", &save)) {
		int cont = nr_schemes && (!strncmp(tok, "tau=", 4) || !strncmp(tok, "p=", 2));

		if (!cont && nr_schemes == 16) {
			fprintf(stderr, "pint-eval: -S: more than 16 schemes\n");
			return 2;
		}
		if (!cont)
			schemes[nr_schemes++] = sdup + c;
		else
			sdup[c - 1] = ',';
		c += sprintf(sdup + c, "%s", tok) + 1;
	}
	for (i = 0; i < nr_schemes; i++) {
		struct pint_path_params p;
		unsigned int d;

		/* every path length the evaluator can run */
		for (d = 1; d <= PINT_DECODE_MAX_HOPS; d++) {
			pint_path_params_init(&p, NULL, 8, 0);
			if (pint_path_scheme(&p, schemes[i], d)) {
				fprintf(stderr, "pint-eval: -S: bad scheme '%s'\n", schemes[i]);
				return 2;
			}
		}
		if (strlen(schemes[i]) > name_w)
			name_w = strlen(schemes[i]);
	}

	if (gml) {
		unsigned int len;
		int diam;

		ret = gml_load(gml, &ev.g, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "pint-eval: %s\n", err);
			return 1;
		}
		ev.have_graph = 1;
		gml_to_topo(&ev.g, &ev.topo);
		{
			unsigned int *path = malloc(ev.g.nr_nodes * sizeof(*path));

			diam = gml_diameter(&ev.g, path, &len);
			if (diam < 0 || len > PINT_DECODE_MAX_HOPS) {
				fprintf(stderr, "pint-eval: %s: longest shortest path has %u switches, "
					"more than %d\n", gml, len, PINT_DECODE_MAX_HOPS);
				return 1;
			}
			memcpy(ev.path_idx, path, len * sizeof(*path));
			free(path);
		}
		ev.k = len;
		ev.sink_dist = malloc(ev.g.nr_nodes * sizeof(int));
		gml_bfs(&ev.g, ev.path_idx[ev.k - 1], ev.sink_dist, NULL);
		{
			__u32 mx = 0;

			for (i = 0; i < ev.g.nr_nodes; i++)
				if (ev.g.id[i] > mx)
					mx = ev.g.id[i];
			for (ev.id_bits = 1; ev.id_bits < 32 && (mx >> ev.id_bits); ev.id_bits++)
				;
		}
		printf("topology %s: %u switches, %u edges; path = a longest shortest path, "
		       "%u switches (diameter %d)\n", gml, ev.g.nr_nodes, ev.g.nr_edges, ev.k,
		       diam);
	} else {
		if (ev.k > universe) {
			fprintf(stderr, "pint-eval: -k %u needs a universe of at least k IDs\n", ev.k);
			return 2;
		}
		ev.universe_ids = malloc(universe * sizeof(__u32));
		for (i = 0; i < universe; i++)
			ev.universe_ids[i] = i;
		ev.topo.nr_nodes = universe;
		ev.topo.node_id = ev.universe_ids;
		for (ev.id_bits = 1; ev.id_bits < 32 && ((universe - 1) >> ev.id_bits); ev.id_bits++)
			;
		printf("path length k = %u switches, IDs drawn from %u (%u-bit IDs)\n", ev.k,
		       universe, ev.id_bits);
	}

	/* jobs: schemes x decoders x (bits + full-ID), then PPM and AMS2 */
	pl.jobs = calloc(nr_schemes * 2 * (ev.nr_bits + 1) + 2, sizeof(*pl.jobs));
	for (i = 0; i < nr_schemes; i++)
		for (a = 0; a < (ev.have_graph ? 2u : 1u); a++)
			for (c = 0; c <= ev.nr_bits; c++) {
				struct job *jb = &pl.jobs[pl.nr++];

				jb->ev = &ev;
				jb->scheme = schemes[i];
				jb->aware = a;
				jb->bits = c < ev.nr_bits ? ev.bits[c] : 0;
				jb->inst = c < ev.nr_bits ? ev.inst[c] : 1;
				jb->col = c;
			}
	pl.jobs[pl.nr].ev = &ev;
	pl.jobs[pl.nr++].kind = 1;
	if (ev.have_graph) {
		pl.jobs[pl.nr].ev = &ev;
		pl.jobs[pl.nr++].kind = 2;
	}
	for (i = 0; i < pl.nr; i++)
		pl.jobs[i].counts = calloc(ev.trials, sizeof(unsigned long));

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, worker, &pl);
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	printf("%u trials per cell, seed %llu; packets to decode the whole path: median / p99\n\n",
	       ev.trials, (unsigned long long)ev.seed);
	printf("%-*s %-6s", (int)name_w, "scheme", "decode");
	for (c = 0; c < ev.nr_bits; c++) {
		char h[16];

		if (ev.inst[c] > 1)
			snprintf(h, sizeof(h), "%ux%u", ev.inst[c], ev.bits[c]);
		else
			snprintf(h, sizeof(h), "b=%u", ev.bits[c]);
		printf(" %15s", h);
	}
	{
		char h[24];

		snprintf(h, sizeof(h), "full-ID(%ub)", ev.id_bits);
		printf(" %15s\n", h);
	}
	for (i = 0, j = 0; i < pl.nr; i++) {
		struct job *jb = &pl.jobs[i];
		char cell[32];

		if (jb->err) {
			fprintf(stderr, "pint-eval: job failed: %s\n", strerror(-jb->err));
			ret = 1;
		}
		qsort(jb->counts, ev.trials, sizeof(unsigned long), cmp_ul);
		if (jb->kind) {
			continue;
		}
		if (jb->col == 0)
			printf("%-*s %-6s", (int)name_w, jb->scheme, jb->aware ? "topo" : "blind");
		snprintf(cell, sizeof(cell), "%lu / %lu%s", pct(jb->counts, ev.trials, 0.5),
			 pct(jb->counts, ev.trials, 0.99), jb->failed || jb->wrong ? "!" : "");
		printf(" %15s", cell);
		if (!jb->bits)
			printf("\n");
		if (jb->failed || jb->wrong) {
			fprintf(stderr, "pint-eval: %s %s b=%ux%u: %u not decoded, %u wrong\n",
				jb->scheme, jb->aware ? "topo" : "blind", jb->inst, jb->bits,
				jb->failed, jb->wrong);
			ret = 1;
		}
		j++;
	}
	printf("\n");
	if (print_traceback(&ev, pl.jobs, pl.nr, (int)name_w))
		ret = 1;
	if (ev.have_graph) {
		printf("\ntopology-aware vs blind, median packets (reduction):\n");
		for (i = 0; i < pl.nr; i++) {
			struct job *b = &pl.jobs[i], *t;
			char w[32];

			if (b->kind || b->aware)
				continue;
			/* the aware job of the same scheme and width follows ev.nr_bits + 1 later */
			t = &pl.jobs[i + ev.nr_bits + 1];
			if (b->bits && b->inst > 1)
				snprintf(w, sizeof(w), "%ux%u", b->inst, b->bits);
			else if (b->bits)
				snprintf(w, sizeof(w), "b=%u", b->bits);
			else
				snprintf(w, sizeof(w), "full-ID");
			printf("  %-*s %-8s blind %6lu  topo %6lu  (%.0f%% fewer)\n", (int)name_w,
			       b->scheme, w,
			       pct(b->counts, ev.trials, 0.5), pct(t->counts, ev.trials, 0.5),
			       100.0 * (1.0 - (double)pct(t->counts, ev.trials, 0.5) /
					(double)pct(b->counts, ev.trials, 0.5)));
		}
	}
	printf("\n(%.1f s on %u threads)\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       threads);
	for (i = 0; i < pl.nr; i++)
		free(pl.jobs[i].counts);
	free(pl.jobs);
	free(sdup);
	free(ev.universe_ids);
	free(ev.sink_dist);
	if (ev.have_graph)
		gml_free(&ev.g);
	return ret;
}
