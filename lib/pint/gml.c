// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * gml.c - Internet Topology Zoo GML reader and BFS helpers (see gml.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "pint/gml.h"
#include "pint/pint_path.h"

#define GML_MAX_DEPTH	32
/* Largest file gml_load() reads, bytes: a bound on the memory it takes. */
#define GML_MAX_FILE	(64 << 20)

enum gml_tok { T_EOF, T_OPEN, T_CLOSE, T_KEY, T_NUM, T_STR, T_BAD };

struct gml_lexer {
	const char	*p, *end;
	unsigned int	line;
	const char	*tok;		/* start of the current token's text */
	size_t		toklen;
};

struct gml_edge {
	unsigned int	a, b;
};

struct gml_idx {
	__u32		id;
	unsigned int	idx;
};

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static enum gml_tok gml_next(struct gml_lexer *lx)
{
	const char *p = lx->p;

	for (;;) {
		while (p < lx->end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) {
			if (*p == '\n')
				lx->line++;
			p++;
		}
		if (p < lx->end && *p == '#') {		/* comment to end of line */
			while (p < lx->end && *p != '\n')
				p++;
			continue;
		}
		break;
	}
	lx->tok = p;
	lx->toklen = 0;
	if (p >= lx->end) {
		lx->p = p;
		return T_EOF;
	}
	if (*p == '[' || *p == ']') {
		lx->toklen = 1;
		lx->p = p + 1;
		return *p == '[' ? T_OPEN : T_CLOSE;
	}
	if (*p == '"') {
		const char *q = p + 1;

		while (q < lx->end && *q != '"') {
			if (*q == '\n')
				lx->line++;
			q++;
		}
		if (q >= lx->end)
			return T_BAD;
		lx->tok = p + 1;
		lx->toklen = q - p - 1;
		lx->p = q + 1;
		return T_STR;
	}
	if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_') {
		const char *q = p;

		while (q < lx->end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
				       (*q >= '0' && *q <= '9') || *q == '_'))
			q++;
		lx->toklen = q - p;
		lx->p = q;
		return T_KEY;
	}
	if ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == '.') {
		const char *q = p + 1;

		while (q < lx->end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' ||
				       *q == 'E' || *q == '-' || *q == '+'))
			q++;
		lx->toklen = q - p;
		lx->p = q;
		return T_NUM;
	}
	return T_BAD;
}

static int tok_is(const struct gml_lexer *lx, const char *s)
{
	size_t n = strlen(s);

	return lx->toklen == n && !memcmp(lx->tok, s, n);
}

/* An integer token in [0, 2^32). */
static int tok_u32(const struct gml_lexer *lx, __u32 *v)
{
	char buf[32], *end;
	unsigned long long x;

	if (lx->toklen == 0 || lx->toklen >= sizeof(buf) || lx->tok[0] == '-')
		return -EINVAL;
	memcpy(buf, lx->tok, lx->toklen);
	buf[lx->toklen] = 0;
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || *end || x > 0xffffffffULL)
		return -EINVAL;
	*v = x;
	return 0;
}

static int cmp_idx(const void *a, const void *b)
{
	const struct gml_idx *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct gml_edge *x = a, *y = b;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return x->b < y->b ? -1 : x->b > y->b;
}

static int lookup(const struct gml_idx *map, unsigned int n, __u32 id, unsigned int *idx)
{
	struct gml_idx key = { .id = id }, *r;

	r = bsearch(&key, map, n, sizeof(*map), cmp_idx);
	if (!r)
		return -1;
	*idx = r->idx;
	return 0;
}

/* Grow *arr (element size sz) to hold at least n + 1 elements. */
static int grow(void **arr, unsigned int *cap, unsigned int n, size_t sz)
{
	void *p;
	unsigned int c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 64;
	p = realloc(*arr, (size_t)c * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}

int gml_parse(const char *buf, size_t len, struct gml_graph *g, char *err, size_t errlen)
{
	struct gml_lexer lx = { .p = buf, .end = buf + len, .line = 1 };
	enum { C_OTHER, C_ROOT, C_GRAPH, C_NODE, C_EDGE } ctx[GML_MAX_DEPTH];
	unsigned int depth = 0, ncap = 0, ecap = 0, nedges = 0, i, j, graphs = 0;
	struct gml_edge *edges = NULL;
	struct gml_idx *map = NULL;
	__u32 cur_id = 0, cur_src = 0, cur_dst = 0;
	int have_id = 0, have_src = 0, have_dst = 0, ret = -EINVAL;
	char *cur_label = NULL;
	unsigned int *deg = NULL;
	enum gml_tok t;

	memset(g, 0, sizeof(*g));
	ctx[0] = C_ROOT;
	for (;;) {
		unsigned int keyline;
		int is_id, is_label, is_src, is_dst;

		t = gml_next(&lx);
		if (t == T_EOF)
			break;
		if (t == T_BAD)
			goto bad_token;
		if (t == T_CLOSE) {
			if (depth == 0) {
				seterr(err, errlen, "line %u: unbalanced ']'", lx.line);
				goto fail;
			}
			if (ctx[depth] == C_NODE) {
				if (!have_id) {
					seterr(err, errlen, "line %u: node without id", lx.line);
					goto fail;
				}
				if (grow((void **)&map, &ncap, g->nr_nodes, sizeof(*map)))
					goto nomem;
				map[g->nr_nodes].id = cur_id;
				map[g->nr_nodes].idx = g->nr_nodes;
				g->nr_nodes++;
				/* labels kept in a parallel array grown below */
				{
					char **l = realloc(g->label, (size_t)ncap * sizeof(char *));

					if (!l)
						goto nomem;
					g->label = l;
					g->label[g->nr_nodes - 1] = cur_label ? cur_label : strdup("");
					cur_label = NULL;
					if (!g->label[g->nr_nodes - 1])
						goto nomem;
				}
			} else if (ctx[depth] == C_EDGE) {
				if (!have_src || !have_dst) {
					seterr(err, errlen, "line %u: edge without source or target",
					       lx.line);
					goto fail;
				}
				if (grow((void **)&edges, &ecap, nedges, sizeof(*edges)))
					goto nomem;
				/* ids for now; mapped to indices once all nodes are read */
				edges[nedges].a = cur_src;
				edges[nedges].b = cur_dst;
				nedges++;
			}
			depth--;
			continue;
		}
		if (t != T_KEY) {
			seterr(err, errlen, "line %u: expected a key, found '%.*s'", lx.line,
			       (int)(lx.toklen ? lx.toklen : 1), lx.tok);
			goto fail;
		}
		keyline = lx.line;
		is_id = tok_is(&lx, "id");
		is_label = tok_is(&lx, "label");
		is_src = tok_is(&lx, "source");
		is_dst = tok_is(&lx, "target");
		{
			int k_graph = tok_is(&lx, "graph"), k_node = tok_is(&lx, "node");
			int k_edge = tok_is(&lx, "edge");

			t = gml_next(&lx);
			if (t == T_OPEN) {
				if (depth + 1 >= GML_MAX_DEPTH) {
					seterr(err, errlen, "line %u: lists nested too deep", keyline);
					goto fail;
				}
				depth++;
				if (ctx[depth - 1] == C_ROOT && k_graph) {
					ctx[depth] = C_GRAPH;
					graphs++;
				} else if (ctx[depth - 1] == C_GRAPH && k_node) {
					ctx[depth] = C_NODE;
					have_id = 0;
					free(cur_label);
					cur_label = NULL;
				} else if (ctx[depth - 1] == C_GRAPH && k_edge) {
					ctx[depth] = C_EDGE;
					have_src = have_dst = 0;
				} else {
					ctx[depth] = C_OTHER;
				}
				continue;
			}
		}
		if (t == T_BAD)
			goto bad_token;
		if (t != T_NUM && t != T_STR) {
			seterr(err, errlen, "line %u: key without a value", keyline);
			goto fail;
		}
		if (ctx[depth] == C_NODE && is_id) {
			if (t != T_NUM || tok_u32(&lx, &cur_id)) {
				seterr(err, errlen, "line %u: node id is not an integer in [0, 2^32)",
				       keyline);
				goto fail;
			}
			have_id = 1;
		} else if (ctx[depth] == C_NODE && is_label && t == T_STR) {
			free(cur_label);
			cur_label = strndup(lx.tok, lx.toklen);
			if (!cur_label)
				goto nomem;
		} else if (ctx[depth] == C_EDGE && (is_src || is_dst)) {
			if (t != T_NUM || tok_u32(&lx, is_src ? &cur_src : &cur_dst)) {
				seterr(err, errlen, "line %u: edge %s is not a node id", keyline,
				       is_src ? "source" : "target");
				goto fail;
			}
			if (is_src)
				have_src = 1;
			else
				have_dst = 1;
		}
	}
	if (depth) {
		seterr(err, errlen, "line %u: unterminated list", lx.line);
		goto fail;
	}
	if (graphs != 1 || g->nr_nodes == 0) {
		seterr(err, errlen, "expected one graph with nodes, found %u graph(s), %u node(s)",
		       graphs, g->nr_nodes);
		goto fail;
	}
	g->id = malloc(g->nr_nodes * sizeof(*g->id));
	if (!g->id)
		goto nomem;
	for (i = 0; i < g->nr_nodes; i++)
		g->id[i] = map[i].id;
	qsort(map, g->nr_nodes, sizeof(*map), cmp_idx);
	for (i = 1; i < g->nr_nodes; i++) {
		if (map[i].id == map[i - 1].id) {
			seterr(err, errlen, "duplicate node id %u", map[i].id);
			goto fail;
		}
	}
	g->nr_edge_records = nedges;
	for (i = 0, j = 0; i < nedges; i++) {
		unsigned int a, b;

		if (lookup(map, g->nr_nodes, edges[i].a, &a) ||
		    lookup(map, g->nr_nodes, edges[i].b, &b)) {
			seterr(err, errlen, "edge %u-%u names an unknown node", edges[i].a,
			       edges[i].b);
			goto fail;
		}
		if (a == b) {
			g->nr_self_loops++;
			continue;
		}
		edges[j].a = a < b ? a : b;
		edges[j].b = a < b ? b : a;
		j++;
	}
	/* No edge record leaves edges NULL, which qsort() must not get (C11 7.22.5). */
	if (j)
		qsort(edges, j, sizeof(*edges), cmp_edge);
	nedges = 0;
	for (i = 0; i < j; i++) {
		if (nedges && !cmp_edge(&edges[i], &edges[nedges - 1])) {
			g->nr_duplicates++;
			continue;
		}
		edges[nedges++] = edges[i];
	}
	g->nr_edges = nedges;
	g->adj_off = calloc(g->nr_nodes + 1, sizeof(*g->adj_off));
	deg = calloc(g->nr_nodes, sizeof(*deg));
	g->adj = malloc((2 * (size_t)nedges + 1) * sizeof(*g->adj));
	if (!g->adj_off || !deg || !g->adj)
		goto nomem;
	for (i = 0; i < nedges; i++) {
		deg[edges[i].a]++;
		deg[edges[i].b]++;
	}
	for (i = 0; i < g->nr_nodes; i++)
		g->adj_off[i + 1] = g->adj_off[i] + deg[i];
	memset(deg, 0, g->nr_nodes * sizeof(*deg));
	/* edges are sorted by (a, b): each list fills in increasing order for a,
	 * and b's lists receive a in increasing order too */
	for (i = 0; i < nedges; i++) {
		unsigned int a = edges[i].a, b = edges[i].b;

		g->adj[g->adj_off[a] + deg[a]++] = b;
	}
	for (i = 0; i < nedges; i++) {
		unsigned int b = edges[i].b;

		g->adj[g->adj_off[b] + deg[b]++] = edges[i].a;
	}
	/* b's entries (smaller neighbours) were appended after a's (larger): sort */
	for (i = 0; i < g->nr_nodes; i++) {
		unsigned int *l = g->adj + g->adj_off[i], n = deg[i], x, y;

		for (x = 1; x < n; x++) {
			unsigned int v = l[x];

			for (y = x; y > 0 && l[y - 1] > v; y--)
				l[y] = l[y - 1];
			l[y] = v;
		}
	}
	ret = 0;
	goto out;
bad_token:
	seterr(err, errlen, "line %u: bad token (an unterminated string or a stray character)",
	       lx.line);
	goto fail;
nomem:
	ret = -ENOMEM;
	seterr(err, errlen, "out of memory");
fail:
	gml_free(g);
out:
	free(cur_label);
	free(map);
	free(edges);
	free(deg);
	return ret;
}

static const char *file_type_name(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "of an unknown type";
}

int gml_load(const char *path, struct gml_graph *g, char *err, size_t errlen)
{
	char msg[256];
	struct stat st;
	char *buf;
	ssize_t r;
	size_t got = 0;
	int fd, ret;

	memset(g, 0, sizeof(*g));
	/*
	 * O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
	 * writer, maybe forever. The type is checked on the open file, not on
	 * the name before opening it, so that it cannot change in between.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		seterr(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		seterr(err, errlen, "%s: %s", path, strerror(-ret));
		close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		seterr(err, errlen, "%s: not a regular file (%s)", path,
		       file_type_name(st.st_mode));
		close(fd);
		return -EINVAL;
	}
	if (st.st_size > GML_MAX_FILE) {
		seterr(err, errlen, "%s: %s (%lld bytes, at most %d)", path, strerror(EFBIG),
		       (long long)st.st_size, GML_MAX_FILE);
		close(fd);
		return -EFBIG;
	}
	buf = malloc(st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		r = read(fd, buf + got, st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r < 0 ? -errno : -EIO;
			seterr(err, errlen, "%s: read: %s", path, strerror(-ret));
			free(buf);
			close(fd);
			return ret;
		}
		got += r;
	}
	close(fd);
	ret = gml_parse(buf, got, g, msg, sizeof(msg));
	if (ret)
		seterr(err, errlen, "%s: %s", path, msg);
	free(buf);
	return ret;
}

void gml_free(struct gml_graph *g)
{
	unsigned int i;

	if (g->label)
		for (i = 0; i < g->nr_nodes; i++)
			free(g->label[i]);
	free(g->label);
	free(g->id);
	free(g->adj_off);
	free(g->adj);
	memset(g, 0, sizeof(*g));
}

int gml_bfs(const struct gml_graph *g, unsigned int src, int *dist, int *parent)
{
	unsigned int *queue, head = 0, tail = 0, i;
	int ecc = 0;

	if (src >= g->nr_nodes)
		return -EINVAL;
	queue = malloc(g->nr_nodes * sizeof(*queue));
	if (!queue)
		return -ENOMEM;
	for (i = 0; i < g->nr_nodes; i++) {
		dist[i] = -1;
		if (parent)
			parent[i] = -1;
	}
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		unsigned int u = queue[head++], e;

		for (e = g->adj_off[u]; e < g->adj_off[u + 1]; e++) {
			unsigned int v = g->adj[e];

			if (dist[v] >= 0)
				continue;
			dist[v] = dist[u] + 1;
			if (parent)
				parent[v] = u;
			if (dist[v] > ecc)
				ecc = dist[v];
			queue[tail++] = v;
		}
	}
	free(queue);
	return ecc;
}

int gml_diameter(const struct gml_graph *g, unsigned int *path, unsigned int *path_len)
{
	int *dist, *parent, best = -1, ecc;
	unsigned int s, t, bs = 0, bt = 0, n, v;

	if (!g->nr_nodes)
		return -EINVAL;
	dist = malloc(g->nr_nodes * sizeof(*dist));
	parent = malloc(g->nr_nodes * sizeof(*parent));
	if (!dist || !parent) {
		free(dist);
		free(parent);
		return -ENOMEM;
	}
	for (s = 0; s < g->nr_nodes; s++) {
		ecc = gml_bfs(g, s, dist, NULL);
		if (ecc <= best)
			continue;
		best = ecc;
		bs = s;
		for (t = 0; t < g->nr_nodes; t++) {
			if (dist[t] == ecc) {
				bt = t;
				break;
			}
		}
	}
	if (path || path_len) {
		gml_bfs(g, bs, dist, parent);
		n = best + 1;
		if (path) {
			/* walk back from the target, fill from the end */
			v = bt;
			for (t = n; t > 0; t--) {
				path[t - 1] = v;
				v = parent[v] < 0 ? v : (unsigned int)parent[v];
			}
		}
		if (path_len)
			*path_len = n;
	}
	free(dist);
	free(parent);
	return best;
}

void gml_to_topo(const struct gml_graph *g, struct pint_topo *t)
{
	t->nr_nodes = g->nr_nodes;
	t->node_id = g->id;
	t->adj_off = g->adj_off;
	t->adj = g->adj;
}
