// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fuzz_gml.c - libFuzzer harness over the GML topology reader
 * (lib/pint/gml.c): what hopmarkd -T and the PINT bench read. The input is
 * the file's text; a graph that parses is checked for what gml.h promises
 * (a sorted, symmetric adjacency without duplicates or self-loops, every
 * edge record counted once) and walked: BFS, diameter and path, the PINT
 * decoder's view.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pint/gml.h"
#include "pint/pint_path.h"

/* gml_diameter() is one BFS per node: keep an execution short. */
#define FUZZ_GML_MAX_WORK	(1U << 20)

static int has_edge(const struct gml_graph *g, unsigned int a, unsigned int b)
{
	unsigned int e;

	for (e = g->adj_off[a]; e < g->adj_off[a + 1]; e++)
		if (g->adj[e] == b)
			return 1;
	return 0;
}

static void check(const struct gml_graph *g)
{
	unsigned int i, e;

	if (!g->nr_nodes || g->adj_off[0] ||
	    g->adj_off[g->nr_nodes] != 2 * g->nr_edges ||
	    g->nr_edges + g->nr_duplicates + g->nr_self_loops != g->nr_edge_records)
		__builtin_trap();
	for (i = 0; i < g->nr_nodes; i++) {
		if (!g->label[i] || g->adj_off[i] > g->adj_off[i + 1])
			__builtin_trap();
		for (e = g->adj_off[i]; e < g->adj_off[i + 1]; e++) {
			unsigned int v = g->adj[e];

			if (v >= g->nr_nodes || v == i || !has_edge(g, v, i) ||
			    (e > g->adj_off[i] && g->adj[e - 1] >= v))
				__builtin_trap();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gml_graph g;
	struct pint_topo t;
	unsigned int *path, len = 0, i;
	char err[128], *buf;
	int *dist, d;

	/* Not NUL-terminated: ASan sees a read past the text. */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	err[0] = 0;
	if (gml_parse(buf, size, &g, err, sizeof(err))) {
		if (!err[0] || g.nr_nodes || g.id || g.adj)
			__builtin_trap();
		free(buf);
		return 0;
	}
	check(&g);
	dist = malloc(g.nr_nodes * sizeof(*dist));
	path = malloc(g.nr_nodes * sizeof(*path));
	if (dist && path) {
		if (gml_bfs(&g, 0, dist, NULL) < 0 || dist[0] != 0)
			__builtin_trap();
		if ((unsigned long long)g.nr_nodes * (g.nr_nodes + 2 * g.nr_edges) <=
		    FUZZ_GML_MAX_WORK) {
			d = gml_diameter(&g, path, &len);
			if (d < 0 || len != (unsigned int)d + 1 || len > g.nr_nodes)
				__builtin_trap();
			/* A shortest path: consecutive nodes adjacent. */
			for (i = 1; i < len; i++)
				if (!has_edge(&g, path[i - 1], path[i]))
					__builtin_trap();
		}
	}
	gml_to_topo(&g, &t);
	if (t.nr_nodes != g.nr_nodes || t.adj_off != g.adj_off)
		__builtin_trap();
	free(dist);
	free(path);
	gml_free(&g);
	free(buf);
	return 0;
}
