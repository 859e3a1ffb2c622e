// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pint_decode.c - the sink's PINT path decoder (lib/pint/pint_decode.c)
 * at its edges: candidate sets against a brute-force count over universes
 * of every size around the filter's block widths (with each form of the
 * filter: scalar, AVX2, AVX-512), an ignored packet that
 * must leave the inference alone, an empty candidate set, a route change
 * back to the full universe, loops and ignored hop counts, topology-aware
 * pruning with and without links.
 * (test_pint_path.c decodes thousands of random paths.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "hm_test.h"
#include "pint/gml.h"
#include "pint/pint_path.h"

#define TOPO_DIR	HM_TEST_DATA "/topologies"
#define MAX_PKTS	200000UL

static __u64 rng_state = 0x6a09e667f3bcc908ULL;

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
}

/* Baseline: the hop (1-based) whose digest the sink receives, 0 if none. */
static unsigned int baseline_writer(const struct pint_path_params *p, __u32 pid, unsigned int k)
{
	unsigned int h;

	for (h = k; h > 0; h--)
		if (pint_path_acts(p, 0, pid, h))
			return h;
	return 0;
}

/* Distinct IDs, spread over 32 bits so that no structure of 0..n-1 helps. */
static __u32 *universe(unsigned int n)
{
	__u32 *u = malloc(n * sizeof(*u));
	unsigned int i;

	assert_non_null(u);
	for (i = 0; i < n; i++)
		u[i] = i * 2654435761U;	/* odd multiplier: a bijection of 2^32 */
	return u;
}

/*
 * Topology-blind Baseline: hop h's candidates are exactly the switches that
 * match every packet hop h wrote. Universe sizes straddle every block width
 * a vectorised filter might use (1..65 and some larger, odd ones).
 */
static unsigned int brute_force_pass(void)
{
	static const unsigned int sizes[] = { 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33,
					      47, 63, 64, 65, 127, 1000, 4097 };
	static const unsigned int widths[] = { 1, 3, 8 };
	unsigned int si, wi, checked = 0;

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		for (wi = 0; wi < 3; wi++) {
			unsigned int n = sizes[si], bits = widths[wi], k = n < 6 ? n : 6;
			__u32 *u = universe(n), ids[6], pids[64];
			unsigned int writer[64], npk = 0, i, h, j;
			struct pint_topo t = { .nr_nodes = n, .node_id = u };
			struct pint_path_params p;
			struct pint_decoder *d;

			params(&p, "baseline", bits, 0, k);
			for (i = 0; i < k; i++)	/* distinct: k <= n */
				ids[i] = u[(si + 3 * wi + i) % n];
			d = pint_decoder_new(&p, &t, 0, 8);
			assert_non_null(d);
			while (npk < 64) {
				__u32 pid = rnd();
				unsigned int r;

				r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, k), k);
				if (r & (PINT_DEC_ROUTE_CHANGE | PINT_DEC_IGNORED))
					fail_msg("n=%u b=%u: flags 0x%x on a fixed path", n, bits, r);
				pids[npk] = pid;
				writer[npk++] = baseline_writer(&p, pid, k);
				for (h = 1; h <= k; h++) {
					int want = 0;

					for (i = 0; i < n; i++) {
						int ok = 1;

						for (j = 0; j < npk && ok; j++)
							if (writer[j] == h &&
							    pint_path_value_digest(&p, u[i], pids[j]) !=
							    pint_path_value_digest(&p, ids[h - 1], pids[j]))
								ok = 0;
						want += ok;
					}
					if (pint_decoder_candidates(d, h) != want)
						fail_msg("n=%u b=%u after %u packets: hop %u has %d "
							 "candidates, brute force %d", n, bits, npk, h,
							 pint_decoder_candidates(d, h), want);
					checked++;
				}
				if (r & PINT_DEC_COMPLETE)
					break;
			}
			pint_decoder_free(d);
			free(u);
		}
	}
	return checked;
}

/*
 * The same for each form of the universe filter (HM_PINT_DECODE_SIMD; a
 * form this CPU lacks falls back to a narrower one, which is then checked
 * twice).
 */
static void pint_decoder_candidate_counts_match_brute_force(void **state)
{
	static const char *forms[] = { "scalar", "avx2", "avx512" };
	unsigned int f, checked;

	for (f = 0; f < 3; f++) {
		assert_int_equal(setenv("HM_PINT_DECODE_SIMD", forms[f], 1), 0);
		checked = brute_force_pass();
		printf("# %s: %u candidate counts checked against brute force\n", forms[f],
		       checked);
		assert_true(checked > 1000);
	}
	unsetenv("HM_PINT_DECODE_SIMD");
}

/*
 * A packet no known switch could have written is ignored, and the inference
 * goes on exactly as if it had never arrived: same packets to decode, no
 * route change. (It once emptied the hop's set, so that the next packet
 * for that hop restarted the inference.)
 */
static void pint_decoder_ignored_packet_keeps_candidate_sets(void **state)
{
	unsigned int n = 64, k = 3, bits = 8, trial, ignored = 0;
	__u32 *u = universe(n);
	struct pint_topo t = { .nr_nodes = n, .node_id = u };

	for (trial = 0; trial < 50; trial++) {
		__u32 ids[3] = { u[1], u[2], u[3] }, bad[3], pids[4096];
		struct pint_decoder *clean, *d;
		struct pint_path_params p;
		unsigned long want, got;
		unsigned int npk = 0, r = 0, i;

		params(&p, "baseline", bits, 0, k);
		clean = pint_decoder_new(&p, &t, 0, 8);
		d = pint_decoder_new(&p, &t, 0, 8);
		assert_non_null(clean);
		assert_non_null(d);
		while (!(r & PINT_DEC_NEW_PATH) && npk < 4096) {
			pids[npk] = rnd();
			r = pint_decoder_add(clean, pids[npk], pint_path_encode(&p, pids[npk], ids,
										   k), k);
			npk++;
		}
		assert_true(r & PINT_DEC_NEW_PATH);
		want = pint_decoder_stats(clean)->packets_to_decode;
		/* the same packets, each after one from switch 999 at a random hop */
		for (i = 0, r = 0; i < npk; i++) {
			unsigned int h = rnd() % k, j;
			__u32 pid, x;

			memcpy(bad, ids, sizeof(bad));
			bad[h] = 999;
			do {
				pid = rnd();
				x = pint_path_encode(&p, pid, bad, k);
				for (j = 0; j < n; j++)
					if (pint_path_value_digest(&p, u[j], pid) == x)
						break;
			} while (baseline_writer(&p, pid, k) != h + 1 || j < n);
			r = pint_decoder_add(d, pid, x, k);
			if (!(r & PINT_DEC_IGNORED))
				fail_msg("trial %u: a digest of switch 999 alone at hop %u was not "
					 "ignored (flags 0x%x)", trial, h + 1, r);
			ignored++;
			r = pint_decoder_add(d, pids[i], pint_path_encode(&p, pids[i], ids, k), k);
		}
		got = pint_decoder_stats(d)->packets_to_decode;
		if (!(r & PINT_DEC_NEW_PATH) || got != want ||
		    pint_decoder_stats(d)->route_changes)
			fail_msg("trial %u: with ignored packets: decoded %d after %lu packets, %lu "
				 "route changes; expected decoded after %lu, no route change", trial,
				 !!(r & PINT_DEC_NEW_PATH), got,
				 pint_decoder_stats(d)->route_changes, want);
		pint_decoder_free(clean);
		pint_decoder_free(d);
	}
	printf("# %u ignored packets left the inference as it was\n", ignored);
	free(u);
}

/*
 * An inconsistent packet on a decoded path: the inference restarts from it,
 * so every hop but the one it constrains is back to the whole universe.
 */
static void pint_decoder_restart_returns_to_full_universe(void **state)
{
	unsigned int n = 300, k = 5, h, r = 0, i;
	__u32 *u = universe(n), ids[5] = { u[10], u[20], u[30], u[40], u[50] };
	struct pint_topo t = { .nr_nodes = n, .node_id = u };
	struct pint_path_params p;
	struct pint_decoder *d;
	__u32 pid;

	params(&p, "baseline", 8, 0, k);
	d = pint_decoder_new(&p, &t, 0, 8);
	assert_non_null(d);
	for (i = 0; i < MAX_PKTS && !(r & PINT_DEC_NEW_PATH); i++) {
		pid = rnd();
		r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, k), k);
	}
	assert_true(r & PINT_DEC_NEW_PATH);
	for (h = 1; h <= k; h++)
		assert_int_equal(pint_decoder_candidates(d, h), 1);
	/* hop 5 moves to u[60]: wait for a packet it writes whose digest differs */
	ids[4] = u[60];
	do {
		pid = rnd();
	} while (baseline_writer(&p, pid, k) != 5 ||
		 pint_path_value_digest(&p, u[60], pid) == pint_path_value_digest(&p, u[50], pid));
	r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, k), k);
	assert_true(r & PINT_DEC_ROUTE_CHANGE);
	assert_false(r & PINT_DEC_COMPLETE);
	for (h = 1; h <= 4; h++)
		assert_int_equal(pint_decoder_candidates(d, h), n);
	{
		int c = pint_decoder_candidates(d, 5);

		if (c < 1 || c >= (int)n)
			fail_msg("hop 5 after the restart: %d candidates, expected 1..%u", c, n - 1);
	}
	assert_int_equal(pint_decoder_stats(d)->route_changes, 1);
	pint_decoder_free(d);
	free(u);
}

/*
 * Loops and ignored hop counts leave a decoded path alone; two switches
 * with the same ID can never be told apart; a set narrowed to switches the
 * next packet excludes (empty) restarts the inference on that packet.
 */
static void pint_decoder_empty_set_loop_and_ignored_hops(void **state)
{
	__u32 u[4] = { 7, 7, 8, 9 }, ids[2] = { 8, 9 }, got[2];
	struct pint_topo t = { .nr_nodes = 4, .node_id = u };
	struct pint_path_params p;
	struct pint_decoder *d;
	unsigned int r = 0, i;
	__u32 pid;

	params(&p, "baseline", 16, 0, 2);
	d = pint_decoder_new(&p, &t, 0, 2);
	assert_non_null(d);
	for (i = 0; i < MAX_PKTS && !(r & PINT_DEC_NEW_PATH); i++) {
		pid = rnd();
		r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, 2), 2);
	}
	assert_true(r & PINT_DEC_NEW_PATH);
	r = pint_decoder_add(d, 1, 0, 3);
	assert_int_equal(r, PINT_DEC_LOOP | PINT_DEC_IGNORED | PINT_DEC_COMPLETE);
	r = pint_decoder_add(d, 1, 0, 0);
	assert_int_equal(r, PINT_DEC_IGNORED | PINT_DEC_COMPLETE);
	assert_int_equal(pint_decoder_path(d, got, 2), 2);
	assert_int_equal(got[0], 8);
	assert_int_equal(got[1], 9);
	assert_int_equal(pint_decoder_stats(d)->loops, 1);
	assert_int_equal(pint_decoder_stats(d)->ignored, 2);
	/* hop 1 becomes switch 7, twice in the universe: never decodable */
	ids[0] = 7;
	for (i = 0; i < 2000; i++) {
		pid = rnd();
		r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, 2), 2);
		if (pint_decoder_stats(d)->route_changes)	/* since hop 1's first write */
			assert_false(r & PINT_DEC_COMPLETE);
	}
	assert_int_equal(pint_decoder_stats(d)->route_changes, 1);
	assert_int_equal(pint_decoder_candidates(d, 1), 2);
	assert_int_equal(pint_decoder_candidates(d, 2), 1);
	/* back to switch 8: hop 1's set {7, 7} empties, the inference restarts */
	ids[0] = 8;
	do {
		pid = rnd();
	} while (baseline_writer(&p, pid, 2) != 1 ||
		 pint_path_value_digest(&p, 7, pid) == pint_path_value_digest(&p, 8, pid));
	r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, 2), 2);
	assert_true(r & PINT_DEC_ROUTE_CHANGE);
	assert_int_equal(pint_decoder_stats(d)->route_changes, 2);
	assert_int_equal(pint_decoder_candidates(d, 1), 1);
	assert_int_equal(pint_decoder_candidates(d, 2), 4);
	for (i = 0; i < MAX_PKTS && !(r & PINT_DEC_NEW_PATH); i++) {
		pid = rnd();
		r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, 2), 2);
	}
	assert_true(r & PINT_DEC_NEW_PATH);
	assert_int_equal(pint_decoder_stats(d)->route_changes, 2);
	assert_int_equal(pint_decoder_stats(d)->loops, 1);
	pint_decoder_free(d);
}

/*
 * Topology-aware on US Carrier with full-ID digests: one packet pins its
 * writer, and adjacency then narrows the neighbours' sets from the whole
 * universe, so some trial decodes the 36-switch path in fewer packets than
 * hops (without adjacency at least one packet per hop is needed).
 */
static void pint_decoder_topology_pins_neighbours(void **state)
{
	struct gml_graph g;
	struct pint_topo t;
	char err[256];
	unsigned int i, best = ~0U;

	if (gml_load(TOPO_DIR "/UsCarrier.gml", &g, err, sizeof(err)))
		fail_msg("%s", err);
	gml_to_topo(&g, &t);
	for (i = 0; i < 20; i++) {
		unsigned int path[64], len, r = 0, n;
		__u32 ids[64];
		struct pint_path_params p;
		struct pint_decoder *d;

		assert_true(gml_diameter(&g, path, &len) > 0);
		for (n = 0; n < len; n++)
			ids[n] = g.id[path[n]];
		params(&p, "hybrid", 8, PINT_PATH_F_FULL_ID, len);
		d = pint_decoder_new(&p, &t, PINT_DEC_F_TOPO_AWARE, 64);
		assert_non_null(d);
		for (n = 0; n < MAX_PKTS && !(r & PINT_DEC_NEW_PATH); n++) {
			__u32 pid = rnd();

			r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, len), len);
		}
		assert_true(r & PINT_DEC_NEW_PATH);
		assert_int_equal(pint_decoder_stats(d)->route_changes, 0);
		if (n < best)
			best = n;
		pint_decoder_free(d);
	}
	printf("# US Carrier diameter path, full IDs, topology-aware: best %u packets\n", best);
	assert_true(best < 36);
	gml_free(&g);
}

/*
 * Topology-aware with a switch that has no link (Z): hop 2's first packet
 * leaves {B, Z} (Z's digest collides with B's); hop 1 becomes the
 * neighbours of {B, Z}, {A}, and Z, the neighbour of nobody, leaves hop 2
 * in turn: one packet decodes the path.
 */
static void pint_decoder_switch_without_links_leaves_when_neighbour_narrows(void **state)
{
	__u32 u[3] = { 10, 20, 30 }, ids[2] = { 10, 20 }, got[2];
	unsigned int adj_off[4] = { 0, 1, 2, 2 }, adj[2] = { 1, 0 };	/* A-B; Z alone */
	struct pint_topo t = { .nr_nodes = 3, .node_id = u, .adj_off = adj_off, .adj = adj };
	struct pint_path_params p;
	struct pint_decoder *d;
	unsigned int r;
	__u32 pid;

	params(&p, "baseline", 2, 0, 2);
	d = pint_decoder_new(&p, &t, PINT_DEC_F_TOPO_AWARE, 4);
	assert_non_null(d);
	do {
		pid = rnd();
	} while (baseline_writer(&p, pid, 2) != 2 ||
		 pint_path_value_digest(&p, 30, pid) != pint_path_value_digest(&p, 20, pid) ||
		 pint_path_value_digest(&p, 10, pid) == pint_path_value_digest(&p, 20, pid));
	r = pint_decoder_add(d, pid, pint_path_encode(&p, pid, ids, 2), 2);
	if (!(r & PINT_DEC_NEW_PATH))
		fail_msg("one packet: flags 0x%x, candidates %d / %d; expected the path decoded",
			 r, pint_decoder_candidates(d, 1), pint_decoder_candidates(d, 2));
	assert_int_equal(pint_decoder_path(d, got, 2), 2);
	assert_int_equal(got[0], 10);
	assert_int_equal(got[1], 20);
	pint_decoder_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pint_decoder_candidate_counts_match_brute_force),
		cmocka_unit_test(pint_decoder_ignored_packet_keeps_candidate_sets),
		cmocka_unit_test(pint_decoder_restart_returns_to_full_universe),
		cmocka_unit_test(pint_decoder_empty_set_loop_and_ignored_hops),
		cmocka_unit_test(pint_decoder_topology_pins_neighbours),
		cmocka_unit_test(pint_decoder_switch_without_links_leaves_when_neighbour_narrows),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
