// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pint_gml.c - the Topology Zoo GML reader (lib/pint/gml.c): the four
 * files of lib/tests/data/topologies against the counts of its README
 * (Kdl and UsCarrier: nodes, edges, duplicates, diameter, switches on a
 * longest path) and against the node/edge records counted in the text for
 * the others; nested lists, labels and error messages on bad input; a
 * graph without edges; files that are not regular files (a FIFO, which
 * would block the reader, a directory) refused at once.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "hm_test.h"
#include "pint/gml.h"
#include "pint/pint_path.h"

#define TOPO_DIR	HM_TEST_DATA "/topologies"

/* Count "node [" / "edge [" records in the file text, independently. */
static void count_records(const char *path, unsigned int *nodes, unsigned int *edges)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f)
		fail_msg("%s: cannot open", path);
	*nodes = *edges = 0;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		*nodes += !strncmp(p, "node [", 6);
		*edges += !strncmp(p, "edge [", 6);
	}
	fclose(f);
}

static void check_file(const char *name, int nodes, int records, int dups, int diam)
{
	char path[512], err[256];
	unsigned int rn, re, len, i, *p;
	struct gml_graph g;
	int d;

	snprintf(path, sizeof(path), "%s/%s", TOPO_DIR, name);
	if (gml_load(path, &g, err, sizeof(err)))
		fail_msg("%s", err);
	count_records(path, &rn, &re);
	if (g.nr_nodes != rn || g.nr_edge_records != re)
		fail_msg("%s: expected %u nodes and %u edge records, parsed %u and %u", name, rn,
			 re, g.nr_nodes, g.nr_edge_records);
	if (nodes >= 0 && g.nr_nodes != (unsigned int)nodes)
		fail_msg("%s: README says %d nodes, parsed %u", name, nodes, g.nr_nodes);
	if (records >= 0 && g.nr_edge_records != (unsigned int)records)
		fail_msg("%s: README says %d edges, parsed %u", name, records, g.nr_edge_records);
	if (dups >= 0 && g.nr_duplicates != (unsigned int)dups)
		fail_msg("%s: README says %d duplicated edges, found %u", name, dups,
			 g.nr_duplicates);
	assert_int_equal(g.nr_edges + g.nr_duplicates + g.nr_self_loops, g.nr_edge_records);
	assert_int_equal(g.adj_off[g.nr_nodes], 2 * g.nr_edges);
	p = malloc(g.nr_nodes * sizeof(*p));
	d = gml_diameter(&g, p, &len);
	if (diam >= 0 && (d != diam || len != (unsigned int)diam + 1))
		fail_msg("%s: README says diameter %d (%d switches), found %d (%u)", name, diam,
			 diam + 1, d, len);
	/* the path is a real shortest path: consecutive nodes adjacent */
	for (i = 1; i < len; i++) {
		unsigned int e, ok = 0;

		for (e = g.adj_off[p[i - 1]]; e < g.adj_off[p[i - 1] + 1]; e++)
			ok |= g.adj[e] == p[i];
		if (!ok)
			fail_msg("%s: longest path hop %u -> %u is not an edge", name, i, i + 1);
	}
	assert_int_equal(pint_path_has_loop(p, len), 0);
	free(p);
	gml_free(&g);
}

static void gml_kdl_matches_readme(void **state)
{
	check_file("Kdl.gml", 754, 899, 4, 58);
}

static void gml_us_carrier_matches_readme(void **state)
{
	check_file("UsCarrier.gml", 158, 189, 0, 35);
}

static void gml_geant_and_cogent_match_their_records(void **state)
{
	check_file("Geant2012.gml", -1, -1, -1, -1);
	check_file("Cogentco.gml", -1, -1, -1, -1);
}

static void gml_skips_nested_lists_and_reads_labels(void **state)
{
	static const char doc[] =
		"# comment\n"
		"Creator \"x\"\n"
		"graph [\n directed 0\n"
		"  node [ id 10 label \"A [x]\" graphics [ x 1.5 y -2e3 ] ]\n"
		"  node [ id 20 label \"B\" ]\n"
		"  node [ id 30 ]\n"
		"  edge [ source 10 target 20 LinkLabel \"ten\" ]\n"
		"  edge [ source 20 target 10 ]\n"	/* duplicate, reversed */
		"  edge [ source 30 target 30 ]\n"	/* self-loop */
		"  edge [ source 30 target 20 ]\n"
		"]\n";
	struct gml_graph g;
	char err[128];
	int dist[3];

	assert_int_equal(gml_parse(doc, sizeof(doc) - 1, &g, err, sizeof(err)), 0);
	assert_int_equal(g.nr_nodes, 3);
	assert_int_equal(g.nr_edges, 2);
	assert_int_equal(g.nr_duplicates, 1);
	assert_int_equal(g.nr_self_loops, 1);
	assert_string_equal(g.label[0], "A [x]");
	assert_string_equal(g.label[2], "");
	assert_int_equal(g.id[1], 20);
	assert_int_equal(gml_bfs(&g, 0, dist, NULL), 2);
	assert_int_equal(dist[2], 2);
	assert_int_equal(gml_bfs(&g, 5, dist, NULL), -EINVAL);
	gml_free(&g);
}

static void gml_reports_bad_input_with_line(void **state)
{
	static const struct {
		const char *doc, *msg;
	} bad[] = {
		{ "graph [\n node [ id 1 ]\n", "unterminated" },
		{ "graph [ node [ label \"x\" ] ]", "without id" },
		{ "graph [ node [ id 1 ] node [ id 1 ] ]", "duplicate node id 1" },
		{ "graph [ node [ id 1 ]\n edge [ source 1 target 2 ] ]", "unknown node" },
		{ "graph [ node [ id -4 ] ]", "node id" },
		{ "graph [ node [ id 1 ] ] ]", "unbalanced" },
		{ "graph [ node [ id 1 label \"open ] ]", "bad token" },
		{ "graph [ ]", "one graph with nodes" },
		{ "graph [ node [ id 1 ]\n\n edge [ source 1 ] ]", "line 3: edge without" },
	};
	struct gml_graph g;
	char err[128];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		if (gml_parse(bad[i].doc, strlen(bad[i].doc), &g, err, sizeof(err)) != -EINVAL)
			fail_msg("case %u: expected -EINVAL", i);
		if (!strstr(err, bad[i].msg))
			fail_msg("case %u: expected a message with \"%s\", got \"%s\"", i,
				 bad[i].msg, err);
		assert_int_equal(g.nr_nodes, 0);
	}
	assert_int_equal(gml_load("/nonexistent.gml", &g, err, sizeof(err)), -ENOENT);
}

/*
 * Nodes and no edge record, or only records gml_parse() drops (self-loops):
 * an empty adjacency, every node its own component (libFuzzer and UBSan
 * found qsort() called with a NULL array for such a graph).
 */
static void gml_graph_without_edges(void **state)
{
	static const char *const docs[] = {
		"graph [ node [ id 7 ] node [ id 3 ] node [ id 5 ] ]",
		"graph [ node [ id 7 ] node [ id 3 ] node [ id 5 ] edge [ source 3 target 3 ] ]",
	};
	unsigned int d, i, path[3], len = 99;
	struct gml_graph g;
	int dist[3];
	char err[128];

	for (d = 0; d < 2; d++) {
		err[0] = 0;
		if (gml_parse(docs[d], strlen(docs[d]), &g, err, sizeof(err)))
			fail_msg("case %u: expected 0, got an error: %s", d, err);
		assert_int_equal(g.nr_nodes, 3);
		assert_int_equal(g.nr_edges, 0);
		assert_int_equal(g.nr_self_loops, d);
		assert_int_equal(g.id[0], 7);
		for (i = 0; i <= g.nr_nodes; i++)
			assert_int_equal(g.adj_off[i], 0);
		/* Each node reaches only itself: eccentricity and diameter 0. */
		assert_int_equal(gml_bfs(&g, 1, dist, NULL), 0);
		assert_int_equal(dist[0], -1);
		assert_int_equal(dist[1], 0);
		assert_int_equal(gml_diameter(&g, path, &len), 0);
		assert_int_equal(len, 1);
		gml_free(&g);
	}
}

static void on_alarm(int sig)
{
}

/*
 * A FIFO as the topology (hopmarkd -T): opening it for reading blocks until
 * a writer comes, which may be never. The reader must refuse it at once.
 * SIGALRM without SA_RESTART turns a blocking open() or read() into EINTR
 * after 2 s instead of a hung test.
 */
static void gml_load_refuses_a_fifo_and_a_directory_at_once(void **state)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	char dir[] = "/tmp/hm_test_gml.XXXXXX", fifo[64], err[256];
	struct gml_graph g;
	int ret;

	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/topology.gml", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
	alarm(2);
	err[0] = 0;
	ret = gml_load(fifo, &g, err, sizeof(err));
	alarm(0);
	unlink(fifo);
	if (ret == -EINTR)
		fail_msg("gml_load() on a FIFO: expected -EINVAL at once, observed it blocked for 2 s");
	if (ret != -EINVAL || !strstr(err, "not a regular file") || !strstr(err, fifo))
		fail_msg("gml_load() on a FIFO: expected -EINVAL and \"%s: ... not a regular file\", observed %d \"%s\"",
			 fifo, ret, err);
	assert_int_equal(g.nr_nodes, 0);

	err[0] = 0;
	ret = gml_load(dir, &g, err, sizeof(err));
	rmdir(dir);
	if (ret != -EINVAL || !strstr(err, "not a regular file"))
		fail_msg("gml_load() on a directory: expected -EINVAL and \"not a regular file\", observed %d \"%s\"",
			 ret, err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gml_kdl_matches_readme),
		cmocka_unit_test(gml_us_carrier_matches_readme),
		cmocka_unit_test(gml_geant_and_cogent_match_their_records),
		cmocka_unit_test(gml_skips_nested_lists_and_reads_labels),
		cmocka_unit_test(gml_reports_bad_input_with_line),
		cmocka_unit_test(gml_graph_without_edges),
		cmocka_unit_test(gml_load_refuses_a_fifo_and_a_directory_at_once),
	};

	return HM_RUN_TESTS(tests);
}
