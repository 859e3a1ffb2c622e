// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pint_path.c - PINT path tracing: the per-hop encoder (pint_path.h)
 * against the sink's decoder (pint_decode.c) over thousands of random
 * paths, every scheme and digest width, topology-blind and -aware; route
 * change, loop and bad-input behaviour; scheme construction; two
 * independent instances per packet (2x8).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "hm_test.h"
#include "pint/gml.h"
#include "pint/pint_path.h"

#define TOPO_DIR	HM_TEST_DATA "/topologies"
#define MAX_PKTS	200000UL

static __u64 rng_state = 0x243f6a8885a308d3ULL;

static __u64 rnd(void)
{
	__u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void params(struct pint_path_params *p, const char *scheme, unsigned int bits,
		   unsigned int flags, unsigned int d)
{
	struct pint_seeds s = { rnd(), rnd(), rnd() };

	assert_int_equal(pint_path_params_init(p, &s, bits, flags), 0);
	assert_int_equal(pint_path_scheme(p, scheme, d), 0);
	assert_int_equal(pint_path_params_check(p), 0);
}

static void params2(struct pint_path_params *p, const char *scheme, unsigned int bits,
		    unsigned int d)
{
	params(p, scheme, bits, 0, d);
	assert_int_equal(pint_path_set_instances(p, 2), 0);
	assert_int_equal(pint_path_params_check(p), 0);
}

/* Feed packets of @ids until decoded; check the path. Return: packets used. */
static unsigned long decode_path(struct pint_decoder *d, const struct pint_path_params *p,
				 const __u32 *ids, unsigned int k, const char *what)
{
	__u32 got[PINT_DECODE_MAX_HOPS];
	unsigned long n = 0;
	unsigned int r = 0, h;

	while (!(r & PINT_DEC_NEW_PATH) && n < MAX_PKTS) {
		__u32 pid = rnd();

		r = pint_decoder_add(d, pid, pint_path_encode(p, pid, ids, k), k);
		n++;
		if (r & PINT_DEC_ROUTE_CHANGE)
			fail_msg("%s: route change reported on a fixed path after %lu packets",
				 what, n);
	}
	if (!(r & PINT_DEC_NEW_PATH))
		fail_msg("%s: not decoded after %lu packets", what, n);
	assert_int_equal(pint_decoder_path(d, got, PINT_DECODE_MAX_HOPS), k);
	for (h = 0; h < k; h++)
		if (got[h] != ids[h])
			fail_msg("%s: hop %u: expected switch %u, decoded %u", what, h + 1,
				 ids[h], got[h]);
	return n;
}

static void random_distinct(__u32 *ids, unsigned int k, unsigned int universe)
{
	unsigned int i, j;

	for (i = 0; i < k; i++) {
again:
		ids[i] = rnd() % universe;
		for (j = 0; j < i; j++)
			if (ids[j] == ids[i])
				goto again;
	}
}

/* 5 schemes x 5 widths x 100 random paths, blind, IDs from 256. */
static void pint_decoder_recovers_random_paths_blind(void **state)
{
	static const char *const schemes[] = {
		"baseline", "xor", "hybrid", "ladder5", "multilayer",
	};
	static const unsigned int widths[] = { 1, 4, 8, 16, 0 };
	__u32 universe[256], ids[PINT_DECODE_MAX_HOPS];
	struct pint_topo t = { .nr_nodes = 256, .node_id = universe };
	unsigned int s, w, i, total = 0;
	char what[96];

	for (i = 0; i < 256; i++)
		universe[i] = i * 2654435761U >> 24 | i << 8;	/* scattered, unique */
	for (s = 0; s < sizeof(schemes) / sizeof(schemes[0]); s++) {
		for (w = 0; w < 5; w++) {
			for (i = 0; i < 100; i++) {
				unsigned int k = 1 + rnd() % 30, j;
				struct pint_path_params p;
				struct pint_decoder *d;

				random_distinct(ids, k, 256);
				if (widths[w] == 0) {
					/* full-ID digests need IDs < 2^b: use the index */
					params(&p, schemes[s], 8, PINT_PATH_F_FULL_ID, k);
					for (j = 0; j < 256; j++)
						universe[j] = j;
				} else {
					params(&p, schemes[s], widths[w], 0, k);
					for (j = 0; j < 256; j++)
						universe[j] = j * 2654435761U >> 24 | j << 8;
				}
				for (j = 0; j < k; j++)
					ids[j] = universe[ids[j]];
				d = pint_decoder_new(&p, &t, 0, PINT_DECODE_MAX_HOPS);
				assert_non_null(d);
				snprintf(what, sizeof(what), "%s b=%u k=%u path %u", schemes[s],
					 widths[w], k, i);
				decode_path(d, &p, ids, k, what);
				pint_decoder_free(d);
				total++;
			}
		}
	}
	assert_int_equal(total, 2500);
}

/* A random simple walk of k switches (node indices) on g; 0 if stuck. */
static int random_walk(const struct gml_graph *g, unsigned int *path, unsigned int k)
{
	unsigned int i, tries;

	path[0] = rnd() % g->nr_nodes;
	for (i = 1; i < k; i++) {
		unsigned int u = path[i - 1], deg = g->adj_off[u + 1] - g->adj_off[u];
		int ok = 0;

		for (tries = 0; tries < 8 && deg && !ok; tries++) {
			unsigned int v = g->adj[g->adj_off[u] + rnd() % deg], j;

			ok = 1;
			for (j = 0; j < i; j++)
				if (path[j] == v)
					ok = 0;
			path[i] = v;
		}
		if (!ok)
			return 0;
	}
	return 1;
}

/* US Carrier: 5 schemes x 3 widths x 2 decoders x 100 random walks. */
static void pint_decoder_recovers_random_walks_on_us_carrier(void **state)
{
	static const char *const schemes[] = {
		"baseline", "xor", "hybrid", "ladder5", "multilayer",
	};
	static const unsigned int widths[] = { 1, 4, 16 };
	unsigned int s, w, a, i, total = 0, h;
	unsigned long blind_sum = 0, aware_sum = 0;
	__u32 ids[PINT_DECODE_MAX_HOPS];
	unsigned int path[PINT_DECODE_MAX_HOPS];
	struct gml_graph g;
	struct pint_topo t;
	char err[256], what[96];

	if (gml_load(TOPO_DIR "/UsCarrier.gml", &g, err, sizeof(err)))
		fail_msg("%s", err);
	gml_to_topo(&g, &t);
	for (s = 0; s < sizeof(schemes) / sizeof(schemes[0]); s++)
		for (w = 0; w < 3; w++)
			for (i = 0; i < 100; i++) {
				unsigned int k = 2 + rnd() % 20;

				while (!random_walk(&g, path, k))
					;
				for (h = 0; h < k; h++)
					ids[h] = g.id[path[h]];
				for (a = 0; a < 2; a++) {
					struct pint_path_params p;
					struct pint_decoder *d;
					unsigned long n;

					params(&p, schemes[s], widths[w], 0, k);
					d = pint_decoder_new(&p, &t, a ? PINT_DEC_F_TOPO_AWARE : 0,
							     PINT_DECODE_MAX_HOPS);
					assert_non_null(d);
					snprintf(what, sizeof(what), "%s b=%u k=%u %s walk %u",
						 schemes[s], widths[w], k, a ? "aware" : "blind", i);
					n = decode_path(d, &p, ids, k, what);
					if (a)
						aware_sum += n;
					else
						blind_sum += n;
					pint_decoder_free(d);
					total++;
				}
			}
	assert_int_equal(total, 3000);
	/* adjacency can only remove wrong candidates: never slower on average */
	if (aware_sum > blind_sum)
		fail_msg("topology-aware used %lu packets in all, blind %lu", aware_sum, blind_sum);
	gml_free(&g);
}

static void pint_decoder_detects_route_change_and_decodes_new_path(void **state)
{
	__u32 universe[64], a[10], b[10];
	struct pint_topo t = { .nr_nodes = 64, .node_id = universe };
	unsigned int i, r = 0, bits;
	unsigned long n;

	for (i = 0; i < 64; i++)
		universe[i] = 100 + i;
	for (bits = 1; bits <= 16; bits *= 4) {
		struct pint_path_params p;
		struct pint_decoder *d;

		params(&p, "hybrid", bits, 0, 10);
		d = pint_decoder_new(&p, &t, 0, 32);
		assert_non_null(d);
		for (i = 0; i < 10; i++)
			a[i] = b[i] = 100 + i;
		b[4] = 100 + 40;	/* hop 5 moves: same length */
		b[7] = 100 + 41;
		decode_path(d, &p, a, 10, "path A");
		for (n = 0, r = 0; !(r & PINT_DEC_ROUTE_CHANGE) && n < MAX_PKTS; n++) {
			__u32 pid = rnd();

			r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, b, 10), 10);
		}
		if (!(r & PINT_DEC_ROUTE_CHANGE))
			fail_msg("b=%u: route change to B not detected in %lu packets", bits, n);
		assert_int_equal(pint_decoder_stats(d)->route_changes, 1);
		decode_path(d, &p, b, 10, "path B");
		/* a different hop count is a route change at once */
		r = pint_decoder_add(d, 1, pint_path_encode(&p, 1, b, 9), 9);
		assert_true(r & PINT_DEC_ROUTE_CHANGE);
		assert_int_equal(pint_decoder_stats(d)->route_changes, 2);
		pint_decoder_free(d);
	}
}

static void pint_decoder_reports_loops(void **state)
{
	__u32 universe[32], loop[8] = { 1, 2, 3, 4, 2, 3, 4, 5 };
	struct pint_topo t = { .nr_nodes = 32, .node_id = universe };
	struct pint_path_params p;
	struct pint_decoder *d;
	unsigned int i, r = 0;

	for (i = 0; i < 32; i++)
		universe[i] = i;
	params(&p, "hybrid", 8, 0, 8);
	d = pint_decoder_new(&p, &t, 0, 16);
	assert_non_null(d);
	for (i = 0; i < MAX_PKTS && !(r & PINT_DEC_NEW_PATH); i++) {
		__u32 pid = rnd();

		r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, loop, 8), 8);
	}
	assert_true(r & PINT_DEC_NEW_PATH);
	if (!(r & PINT_DEC_LOOP))
		fail_msg("path 1 2 3 4 2 3 4 5 decoded without a loop report (flags 0x%x)", r);
	assert_int_equal(pint_path_has_loop(loop, 8), 5);
	assert_int_equal(pint_decoder_stats(d)->loops, 1);
	/* more hops than the topology allows: loop, packet ignored */
	r = pint_decoder_add(d, 7, 0, 17);
	assert_true(r & PINT_DEC_LOOP);
	assert_true(r & PINT_DEC_IGNORED);
	assert_int_equal(pint_decoder_stats(d)->loops, 2);
	/* hop count 0 is not a path */
	r = pint_decoder_add(d, 7, 0, 0);
	assert_true(r & PINT_DEC_IGNORED);
	pint_decoder_free(d);
}

static void pint_decoder_ignores_switch_outside_known_set(void **state)
{
	__u32 universe[16], ids[3] = { 1, 999, 3 };
	struct pint_topo t = { .nr_nodes = 16, .node_id = universe };
	struct pint_path_params p;
	struct pint_decoder *d;
	unsigned int i, r = 0;

	for (i = 0; i < 16; i++)
		universe[i] = i;
	params(&p, "baseline", 16, PINT_PATH_F_FULL_ID, 3);
	d = pint_decoder_new(&p, &t, 0, 8);
	assert_non_null(d);
	for (i = 0; i < 2000 && !(r & PINT_DEC_NEW_PATH); i++) {
		__u32 pid = rnd();

		r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, 3), 3);
	}
	/* never decoded (999 is unknown); its packets were counted, not taken
	 * for route changes */
	assert_false(r & PINT_DEC_NEW_PATH);
	assert_true(pint_decoder_stats(d)->ignored > 0);
	assert_int_equal(pint_decoder_stats(d)->route_changes, 0);
	assert_int_equal(pint_decoder_candidates(d, 1), 1);
	assert_int_equal(pint_decoder_candidates(d, 3), 1);
	pint_decoder_free(d);
}

static void pint_decoder_rejects_bad_arguments(void **state)
{
	__u32 universe[4] = { 1, 2, 3, 300 };
	struct pint_topo t = { .nr_nodes = 4, .node_id = universe };
	struct pint_path_params p;

	params(&p, "hybrid", 8, 0, 4);
	errno = 0;
	assert_null(pint_decoder_new(&p, &t, PINT_DEC_F_TOPO_AWARE, 8));	/* no adjacency */
	assert_int_equal(errno, EINVAL);
	assert_null(pint_decoder_new(&p, &t, 0, 0));
	assert_null(pint_decoder_new(&p, &t, 0, PINT_DECODE_MAX_HOPS + 1));
	params(&p, "hybrid", 8, PINT_PATH_F_FULL_ID, 4);
	assert_null(pint_decoder_new(&p, &t, 0, 8));	/* 300 does not fit 8 bits */
	p.nr_layers = 0;
	assert_int_equal(pint_path_params_check(&p), -EINVAL);
}

static void pint_path_schemes_parse_and_validate(void **state)
{
	struct pint_layer_spec bad = { PINT_LAYER_XOR, 1, 0 };
	struct pint_path_params p;

	assert_int_equal(pint_path_params_init(&p, NULL, 0, 0), -EINVAL);
	assert_int_equal(pint_path_params_init(&p, NULL, 33, 0), -EINVAL);
	assert_int_equal(pint_path_params_init(&p, NULL, 8, 0x80), -EINVAL);
	assert_int_equal(pint_path_params_init(&p, NULL, 8, 0), 0);
	assert_int_equal(p.seeds.act, PINT_SEED_ACT);
	assert_int_equal(pint_path_scheme(&p, "xor:0.5", 10), 0);
	assert_int_equal(p.nr_layers, 1);
	assert_int_equal(p.layer[0].act_thresh, 0x7fffffff);
	assert_int_equal(pint_path_scheme(&p, "xor", 4), 0);
	assert_int_equal(p.layer[0].act_thresh, 0x3fffffff);
	assert_int_equal(pint_path_scheme(&p, "xor:0", 10), -EINVAL);
	assert_int_equal(pint_path_scheme(&p, "xor:1.5", 10), -EINVAL);
	assert_int_equal(pint_path_scheme(&p, "xor:", 10), -EINVAL);
	assert_int_equal(pint_path_scheme(&p, "nosuch", 10), -EINVAL);
	assert_int_equal(pint_path_scheme(&p, "hybrid", 0), -EINVAL);
	assert_int_equal(pint_path_set_layers(&p, &bad, 1), -EINVAL);
	assert_int_equal(pint_path_scheme(&p, "hybrid", 25), 0);
	assert_int_equal(p.layer[p.nr_layers - 1].decide_max, 0xffffffff);
	assert_int_equal(pint_path_params_check(&p), 0);
}

/* The layers a scheme string gives: kinds, decider and act thresholds. */
static void expect_layer(const struct pint_path_params *p, unsigned int l, int kind,
			 __u32 decide_max, __u32 act_thresh, const char *what)
{
	if (p->layer[l].kind != kind || p->layer[l].decide_max != decide_max ||
	    (kind == PINT_LAYER_XOR && p->layer[l].act_thresh != act_thresh))
		fail_msg("%s layer %u: expected kind %d decide_max 0x%08x act 0x%08x, "
			 "observed kind %d decide_max 0x%08x act 0x%08x", what, l, kind,
			 decide_max, act_thresh, p->layer[l].kind, p->layer[l].decide_max,
			 p->layer[l].act_thresh);
}

static void pint_path_interleaved_schemes_give_paper_thresholds(void **state)
{
	struct pint_path_params p, q;

	assert_int_equal(pint_path_params_init(&p, NULL, 8, 0), 0);
	assert_int_equal(pint_path_params_init(&q, NULL, 8, 0), 0);
	/* Baseline with tau = 1/2, XOR(p = 0.2): floor(0.2 * 2^32) - 1 */
	assert_int_equal(pint_path_scheme(&p, "hybrid:tau=0.5,p=0.2", 25), 0);
	assert_int_equal(p.nr_layers, 2);
	expect_layer(&p, 0, PINT_LAYER_BASELINE, 0x7fffffff, 0, "hybrid:tau=0.5,p=0.2");
	expect_layer(&p, 1, PINT_LAYER_XOR, 0xffffffff, 0x33333332, "hybrid:tau=0.5,p=0.2");
	/* the keys in any order; p = C/d scales with the tuned length */
	assert_int_equal(pint_path_scheme(&p, "hybrid:p=4/d,tau=0.25", 16), 0);
	expect_layer(&p, 0, PINT_LAYER_BASELINE, 0x3fffffff, 0, "hybrid:p=4/d,tau=0.25");
	expect_layer(&p, 1, PINT_LAYER_XOR, 0xffffffff, 0x3fffffff, "hybrid:p=4/d,tau=0.25");
	assert_int_equal(pint_path_scheme(&p, "hybrid:p=8/d", 4), 0);	/* capped at 1 */
	expect_layer(&p, 1, PINT_LAYER_XOR, 0xffffffff, 0xffffffff, "hybrid:p=8/d d=4");
	/* the default: tau = 0.4, p = min(5/d, 1/2) */
	assert_int_equal(pint_path_scheme(&p, "hybrid", 25), 0);
	assert_int_equal(pint_path_scheme(&q, "hybrid:tau=0.4,p=0.2", 25), 0);
	assert_memory_equal(&p, &q, sizeof(p));
	assert_int_equal(pint_path_scheme(&p, "hybrid:tau=0.4", 59), 0);
	assert_int_equal(pint_path_scheme(&q, "hybrid:p=5/d", 59), 0);
	assert_memory_equal(&p, &q, sizeof(p));
	assert_int_equal(pint_path_scheme(&p, "hybrid", 5), 0);
	assert_int_equal(pint_path_scheme(&q, "hybrid:p=0.5", 5), 0);
	assert_memory_equal(&p, &q, sizeof(p));

	/* multilayer at d = 25: Baseline 1/2, XOR p = 1/d, e/d, e^e/d, 1/6 each */
	assert_int_equal(pint_path_scheme(&p, "multilayer", 25), 0);
	assert_int_equal(p.nr_layers, 4);
	expect_layer(&p, 0, PINT_LAYER_BASELINE, 0x7fffffff, 0, "multilayer d=25");
	expect_layer(&p, 1, PINT_LAYER_XOR, 2863311529U, 171798690U, "multilayer d=25");
	expect_layer(&p, 2, PINT_LAYER_XOR, 3579139412U, 466997261U, "multilayer d=25");
	expect_layer(&p, 3, PINT_LAYER_XOR, 0xffffffff, 2603482427U, "multilayer d=25");
	/* log* d layers: e^e = 15.15 < 16 gives three, d = 15 two, d = 1 one of p = 1 */
	assert_int_equal(pint_path_scheme(&p, "multilayer", 16), 0);
	assert_int_equal(p.nr_layers, 4);
	assert_int_equal(pint_path_scheme(&p, "multilayer", 15), 0);
	assert_int_equal(p.nr_layers, 3);
	assert_int_equal(pint_path_scheme(&p, "multilayer", 5), 0);
	assert_int_equal(p.nr_layers, 3);
	expect_layer(&p, 1, PINT_LAYER_XOR, 0xbfffffff, 858993458U, "multilayer d=5");
	expect_layer(&p, 2, PINT_LAYER_XOR, 0xffffffff, 2334986309U, "multilayer d=5");
	assert_int_equal(pint_path_scheme(&p, "multilayer", 1), 0);
	assert_int_equal(p.nr_layers, 2);
	expect_layer(&p, 1, PINT_LAYER_XOR, 0xffffffff, 0xffffffff, "multilayer d=1");
	/* explicit layers: each p one layer, sharing 1 - tau */
	assert_int_equal(pint_path_scheme(&p, "multilayer:tau=0.6,p=0.1,p=0.3", 10), 0);
	assert_int_equal(p.nr_layers, 3);
	expect_layer(&p, 0, PINT_LAYER_BASELINE, 2576980376U, 0, "multilayer:tau=0.6,...");
	expect_layer(&p, 1, PINT_LAYER_XOR, 3435973835U, 429496728U, "multilayer:tau=0.6,...");
	expect_layer(&p, 2, PINT_LAYER_XOR, 0xffffffff, 1288490187U, "multilayer:tau=0.6,...");
	assert_int_equal(pint_path_scheme(&p, "multilayer:p=0.1,p=0.1,p=0.1,p=0.1,p=0.1,"
					  "p=0.1,p=0.1", 10), 0);
	assert_int_equal(p.nr_layers, PINT_PATH_MAX_LAYERS);
	assert_int_equal(pint_path_params_check(&p), 0);

	/* ladder5: the old five-layer mixture, p = 1/d, 2/d, 4/d, 8/d */
	assert_int_equal(pint_path_scheme(&p, "ladder5", 25), 0);
	assert_int_equal(p.nr_layers, 5);
	expect_layer(&p, 0, PINT_LAYER_BASELINE, 644245093U, 0, "ladder5 d=25");
	expect_layer(&p, 1, PINT_LAYER_XOR, 1717986917U, 171798690U, "ladder5 d=25");
	expect_layer(&p, 4, PINT_LAYER_XOR, 0xffffffff, 1374389533U, "ladder5 d=25");
}

static void pint_path_scheme_strings_rejected(void **state)
{
	static const char *const bad[] = {
		"hybrid:", "hybrid:tau=", "hybrid:p=", "hybrid:tau=0", "hybrid:tau=1",
		"hybrid:tau=-0.5", "hybrid:tau=0.5/d", "hybrid:p=0", "hybrid:p=1.5",
		"hybrid:p=0/d", "hybrid:p=-1/d", "hybrid:p=0.2x", "hybrid:p=0.2/k",
		"hybrid:tau=0.5,", "hybrid:tau=0.5,,p=0.2", "hybrid:,", "hybrid:tau=0.5,tau=0.4",
		"hybrid:p=0.1,p=0.2", "hybrid:q=0.1", "hybrid:tau 0.5", "hybridx", "hybrid;tau=0.5",
		"multilayer:", "multilayer:p=0.1,p=0.1,p=0.1,p=0.1,p=0.1,p=0.1,p=0.1,p=0.1",
		"multilayer:tau=1", "ladder5:1", "Hybrid", "",
	};
	struct pint_path_params p, before;
	unsigned int i;

	assert_int_equal(pint_path_params_init(&p, NULL, 8, 0), 0);
	assert_int_equal(pint_path_scheme(&p, "hybrid", 25), 0);
	before = p;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = pint_path_scheme(&p, bad[i], 25);

		if (r != -EINVAL)
			fail_msg("'%s': expected -EINVAL, observed %d", bad[i], r);
		/* a refused string leaves the scheme as it was */
		assert_memory_equal(&p, &before, sizeof(p));
	}
	assert_int_equal(pint_path_scheme(&p, NULL, 25), -EINVAL);
	assert_int_equal(pint_path_scheme(&p, "multilayer", 0), -EINVAL);
}

/* Each packet lands in a layer with the layer's weight (5 sd). */
static void pint_path_layers_follow_weights(void **state)
{
	const struct pint_layer_spec spec[3] = {
		{ PINT_LAYER_BASELINE, 1, 0 },
		{ PINT_LAYER_XOR, 2, 0.1 },
		{ PINT_LAYER_XOR, 1, 0.5 },
	};
	const double share[3] = { 0.25, 0.5, 0.25 };
	unsigned int c[3] = { 0 }, pid, l;
	const unsigned int n = 200000;
	struct pint_path_params p;

	assert_int_equal(pint_path_params_init(&p, NULL, 8, 0), 0);
	assert_int_equal(pint_path_set_layers(&p, spec, 3), 0);
	for (pid = 0; pid < n; pid++)
		c[pint_path_layer_of(&p, pid)]++;
	for (l = 0; l < 3; l++) {
		double mean = n * share[l], var = n * share[l] * (1 - share[l]);

		if ((c[l] - mean) * (c[l] - mean) > 25 * var)
			fail_msg("layer %u: expected %.0f packets, observed %u", l, mean, c[l]);
	}
}

/* The hop step: Baseline overwrites, XOR xors, non-acting hops pass. */
static void pint_path_hop_writes_or_xors(void **state)
{
	struct pint_path_params p;
	unsigned int pid, seen_write = 0, seen_pass = 0;

	assert_int_equal(pint_path_params_init(&p, NULL, 16, PINT_PATH_F_FULL_ID), 0);
	/* hop 1 always writes in Baseline */
	for (pid = 0; pid < 100; pid++)
		assert_int_equal(pint_path_hop(&p, pid, 1, 0x1234, 0xffff), 0x1234);
	for (pid = 0; pid < 1000; pid++) {
		__u32 out = pint_path_hop(&p, pid, 4, 0x1234, 0xabcd);

		if (out == 0x1234)
			seen_write++;
		else if (out == 0xabcd)
			seen_pass++;
		else
			fail_msg("Baseline hop 4: digest 0x%x is neither kept nor overwritten", out);
	}
	assert_true(seen_write > 150 && seen_write < 350);	/* ~1/4 */
	assert_int_equal(pint_path_scheme(&p, "xor:1", 1), 0);
	assert_int_equal(pint_path_hop(&p, 9, 3, 0x00ff, 0x0f0f), 0x0ff0);
	/* hop 0 never acts; the digest is cut to b bits */
	assert_int_equal(pint_path_hop(&p, 9, 0, 0x00ff, 0x10f0f), 0x0f0f);
}

/*
 * 2x8: instance 0 is the plain 8-bit scheme in the low octet, instance 1
 * the same scheme with the derived packet ID in the high octet.
 */
static void pint_path_two_instances_field_layout(void **state)
{
	static const char *const schemes[] = { "baseline", "xor", "hybrid" };
	struct pint_path_params one, two;
	unsigned int s, pid, hop;

	for (s = 0; s < 3; s++) {
		params(&one, schemes[s], 8, 0, 10);
		two = one;
		assert_int_equal(pint_path_set_instances(&two, 2), 0);
		assert_int_equal(pint_path_width(&two), 16);
		assert_int_equal(pint_path_width(&one), 8);
		for (pid = 0; pid < 2000; pid++) {
			__u32 f = rnd() & 0xffff, id = rnd(), got, lo, hi;

			hop = 1 + pid % 12;
			got = pint_path_hop(&two, pid, hop, id, f | 0xabc00000);
			lo = pint_path_hop(&one, pid, hop, id, f & 0xff);
			hi = pint_path_hop(&one, pint_path_inst_pid(&two, pid, 1), hop, id, f >> 8);
			if (got != (hi << 8 | lo))
				fail_msg("%s pid %u hop %u: expected 0x%04x, observed 0x%04x",
					 schemes[s], pid, hop, hi << 8 | lo, got);
		}
	}
	assert_int_equal(pint_path_inst_pid(&two, 77, 0), 77);
	assert_int_equal(pint_path_set_instances(&two, 0), -EINVAL);
	assert_int_equal(pint_path_set_instances(&two, 3), -EINVAL);
	assert_int_equal(pint_path_params_init(&two, NULL, 17, 0), 0);
	assert_int_equal(pint_path_set_instances(&two, 2), -EINVAL);	/* 34 bits */
	assert_int_equal(pint_path_set_instances(&two, 1), 0);
	two.nr_inst = 3;
	assert_int_equal(pint_path_params_check(&two), -EINVAL);
	two.nr_inst = 0;	/* zeroed: one instance */
	assert_int_equal(pint_path_params_check(&two), 0);
	assert_int_equal(pint_path_instances(&two), 1);
}

/*
 * The two digests of a packet are independent: in Baseline over k hops the
 * two writers agree on 1/k of the packets (not all of them), and when the
 * same hop wrote both, the octets agree on 1/256 (not all). 5 sd bounds.
 */
static void pint_path_two_instances_are_independent(void **state)
{
	const unsigned int k = 5, n = 400000;
	unsigned int ids[5] = { 11, 22, 33, 44, 55 }, same_writer = 0, same_octet = 0, pid;
	struct pint_path_params p;
	double mean, var;

	params2(&p, "baseline", 8, k);
	for (pid = 0; pid < n; pid++) {
		__u32 f = pint_path_encode(&p, pid, ids, k), w[2], i, h;

		for (i = 0; i < 2; i++) {
			__u32 ipid = pint_path_inst_pid(&p, pid, i);

			for (h = k; h > 1 && !pint_path_acts(&p, 0, ipid, h); h--)
				;
			w[i] = h;
		}
		if (w[0] != w[1])
			continue;
		same_writer++;
		same_octet += (f & 0xff) == (f >> 8);
	}
	mean = (double)n / k;
	var = n * (1.0 / k) * (1 - 1.0 / k);
	if ((same_writer - mean) * (same_writer - mean) > 25 * var)
		fail_msg("same writer hop in both instances: expected %.0f packets, observed %u",
			 mean, same_writer);
	mean = same_writer / 256.0;
	var = same_writer * (1 / 256.0) * (255 / 256.0);
	if ((same_octet - mean) * (same_octet - mean) > 25 * var)
		fail_msg("same hop wrote both: equal octets expected %.0f times, observed %u",
			 mean, same_octet);
}

/*
 * 2x8 decodes every scheme's random paths, and needs fewer packets than
 * one 8-bit digest (two equations per packet) over the same 40 paths.
 */
static void pint_decoder_recovers_random_paths_two_instances(void **state)
{
	static const char *const schemes[] = { "baseline", "xor", "hybrid" };
	__u32 universe[256], ids[PINT_DECODE_MAX_HOPS];
	struct pint_topo t = { .nr_nodes = 256, .node_id = universe };
	unsigned long n1 = 0, n2 = 0, n;
	unsigned int s, i, j;
	char what[96];

	for (i = 0; i < 256; i++)
		universe[i] = i * 2654435761U >> 24 | i << 8;
	for (s = 0; s < 3; s++) {
		for (i = 0; i < 40; i++) {
			unsigned int k = 1 + rnd() % 30;
			struct pint_path_params p1, p2;
			struct pint_decoder *d;

			random_distinct(ids, k, 256);
			for (j = 0; j < k; j++)
				ids[j] = universe[ids[j]];
			params(&p1, schemes[s], 8, 0, k);
			p2 = p1;
			assert_int_equal(pint_path_set_instances(&p2, 2), 0);
			d = pint_decoder_new(&p2, &t, 0, PINT_DECODE_MAX_HOPS);
			assert_non_null(d);
			snprintf(what, sizeof(what), "2x8 %s k=%u path %u", schemes[s], k, i);
			n = decode_path(d, &p2, ids, k, what);
			n2 += n;
			if (pint_decoder_stats(d)->packets != n ||
			    pint_decoder_stats(d)->packets_to_decode != n)
				fail_msg("%s: packets %lu and packets_to_decode %lu, expected %lu",
					 what, pint_decoder_stats(d)->packets,
					 pint_decoder_stats(d)->packets_to_decode, n);
			pint_decoder_free(d);
			d = pint_decoder_new(&p1, &t, 0, PINT_DECODE_MAX_HOPS);
			assert_non_null(d);
			snprintf(what, sizeof(what), "b=8 %s k=%u path %u", schemes[s], k, i);
			n1 += decode_path(d, &p1, ids, k, what);
			pint_decoder_free(d);
		}
	}
	if (!(n2 < n1))
		fail_msg("2x8 should need fewer packets than b=8: expected < %lu, observed %lu",
			 n1, n2);
}

/* 2x8: a moved hop is a route change, and the new path decodes. */
static void pint_decoder_two_instances_route_change(void **state)
{
	__u32 universe[64], a[10], b[10];
	struct pint_topo t = { .nr_nodes = 64, .node_id = universe };
	struct pint_path_params p;
	struct pint_decoder *d;
	unsigned int i, r = 0;
	unsigned long n;

	for (i = 0; i < 64; i++)
		universe[i] = 100 + i;
	for (i = 0; i < 10; i++)
		a[i] = b[i] = 100 + i;
	b[4] = 100 + 40;
	b[7] = 100 + 41;
	params2(&p, "hybrid", 8, 10);
	d = pint_decoder_new(&p, &t, 0, 32);
	assert_non_null(d);
	decode_path(d, &p, a, 10, "2x8 path A");
	for (n = 0; !(r & PINT_DEC_ROUTE_CHANGE) && n < MAX_PKTS; n++) {
		__u32 pid = rnd();

		r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, b, 10), 10);
	}
	if (!(r & PINT_DEC_ROUTE_CHANGE))
		fail_msg("2x8: route change to B not detected in %lu packets", n);
	assert_int_equal(pint_decoder_stats(d)->route_changes, 1);
	/* the packet that showed the change is the new inference's first */
	n = decode_path(d, &p, b, 10, "2x8 path B");
	if (pint_decoder_stats(d)->packets_to_decode != n + 1)
		fail_msg("2x8 path B: packets_to_decode: expected %lu, observed %lu", n + 1,
			 pint_decoder_stats(d)->packets_to_decode);
	pint_decoder_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pint_path_schemes_parse_and_validate),
		cmocka_unit_test(pint_path_interleaved_schemes_give_paper_thresholds),
		cmocka_unit_test(pint_path_scheme_strings_rejected),
		cmocka_unit_test(pint_path_hop_writes_or_xors),
		cmocka_unit_test(pint_path_layers_follow_weights),
		cmocka_unit_test(pint_path_two_instances_field_layout),
		cmocka_unit_test(pint_path_two_instances_are_independent),
		cmocka_unit_test(pint_decoder_recovers_random_paths_two_instances),
		cmocka_unit_test(pint_decoder_two_instances_route_change),
		cmocka_unit_test(pint_decoder_recovers_random_paths_blind),
		cmocka_unit_test(pint_decoder_recovers_random_walks_on_us_carrier),
		cmocka_unit_test(pint_decoder_detects_route_change_and_decodes_new_path),
		cmocka_unit_test(pint_decoder_reports_loops),
		cmocka_unit_test(pint_decoder_ignores_switch_outside_known_set),
		cmocka_unit_test(pint_decoder_rejects_bad_arguments),
	};

	return HM_RUN_TESTS(tests);
}
