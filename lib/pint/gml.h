/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * gml.h - a reader for the GML graphs of the Internet Topology Zoo (Knight
 * et al., IEEE JSAC 2011), as used by the PINT evaluation: nodes, undirected
 * edges, duplicate edges of a multigraph and self-loops dropped (counted),
 * plus BFS distances, the diameter and a longest shortest path.
 *
 * GML (Himsolt, "GML: A portable Graph File Format") is a list of
 * key-value pairs; a value is an integer, a real, a "string" or a nested
 * [ list ]. Only graph.node.id, graph.node.label, graph.edge.source and
 * graph.edge.target are used; every other key is skipped, nested lists
 * included.
 */
#ifndef __HOPMARK_GML_H
#define __HOPMARK_GML_H

#include <stddef.h>
#include <linux/types.h>

struct pint_topo;

/**
 * struct gml_graph - an undirected simple graph read from GML
 * @nr_nodes:		number of nodes; node index 0..nr_nodes-1 in file order
 * @nr_edges:		undirected edges kept (no duplicate, no self-loop)
 * @nr_edge_records:	edge [ ] records in the file
 * @nr_duplicates:	records dropped because the edge was already present
 *			(either direction)
 * @nr_self_loops:	records dropped because source == target
 * @id:			GML id of each node index
 * @label:		label of each node index ("" when absent)
 * @adj_off:		CSR offsets, nr_nodes + 1 entries
 * @adj:		neighbour indices, sorted per node
 *
 * Free with gml_free().
 */
struct gml_graph {
	unsigned int	nr_nodes;
	unsigned int	nr_edges;
	unsigned int	nr_edge_records;
	unsigned int	nr_duplicates;
	unsigned int	nr_self_loops;
	__u32		*id;
	char		**label;
	unsigned int	*adj_off;
	unsigned int	*adj;
};

/**
 * gml_parse() - parse a GML document held in memory
 * @buf:	the text (need not be NUL-terminated)
 * @len:	its length in bytes
 * @g:		filled on success (zeroed on failure)
 * @err:	on failure, a message naming the line and the problem
 * @errlen:	size of @err
 *
 * Node ids must be integers in [0, 2^32), unique; edges must name
 * existing ids.
 *
 * Return: 0, -EINVAL (syntax error, missing or duplicate id, edge to an
 * unknown node; @err says which line), -ENOMEM.
 */
int gml_parse(const char *buf, size_t len, struct gml_graph *g, char *err, size_t errlen);

/**
 * gml_load() - read and parse a GML file
 * @path:	file name
 * @g:		filled on success
 * @err:	message on failure (includes @path)
 * @errlen:	size of @err
 *
 * Only a regular file is read: a FIFO, a device, a socket or a directory
 * is refused without waiting for data (the file is opened non-blocking and
 * its type checked on the open descriptor).
 *
 * Return: 0; -EINVAL for a file that is not a regular file ("not a regular
 * file (a FIFO)"); -EFBIG above 64 MiB; a negative errno from open, fstat
 * or read; or gml_parse()'s errors.
 */
int gml_load(const char *path, struct gml_graph *g, char *err, size_t errlen);

/**
 * gml_free() - release a graph
 * @g:		graph (may be zeroed)
 */
void gml_free(struct gml_graph *g);

/**
 * gml_bfs() - hop distances from one node
 * @g:		graph
 * @src:	source node index
 * @dist:	nr_nodes entries: hops from @src, or -1 if unreachable
 * @parent:	nr_nodes entries or NULL: BFS parent (lowest index first
 *		discovery), -1 for @src and unreachable nodes
 *
 * Return: the eccentricity of @src (largest finite distance), or -EINVAL.
 */
int gml_bfs(const struct gml_graph *g, unsigned int src, int *dist, int *parent);

/**
 * gml_diameter() - diameter and one longest shortest path
 * @g:		graph
 * @path:	nr_nodes entries or NULL: node indices of a shortest path
 *		between the first (lowest source index, then lowest target
 *		index) pair of nodes at maximal distance
 * @path_len:	number of nodes on @path (diameter + 1), if non-NULL
 *
 * Runs one BFS per node (O(n m)). Disconnected pairs are ignored.
 *
 * Return: the diameter in hops, or -EINVAL / -ENOMEM.
 */
int gml_diameter(const struct gml_graph *g, unsigned int *path, unsigned int *path_len);

/**
 * gml_to_topo() - view a graph as the PINT decoder's topology
 * @g:		graph (must outlive @t)
 * @t:		filled: node_id = GML ids, adjacency = @g's CSR
 */
void gml_to_topo(const struct gml_graph *g, struct pint_topo *t);

#endif /* __HOPMARK_GML_H */
