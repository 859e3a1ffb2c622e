// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * show.c - `hopmark-collector show` (collector/show.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "collector/show.h"

struct hmc_flow_sum {
	char		key[160];
	char		path[256];
	unsigned long	packets;
	unsigned long	complete;
	unsigned long	in_node;
	unsigned long	on_link;
	unsigned long	unknown;
	unsigned long	changes;
	unsigned long	lost;
	/* where drops were, up to 8 nodes */
	unsigned int	drop_node[8];
	unsigned long	drop_in[8];
	unsigned long	drop_link[8];
	unsigned long	drop_unk[8];
	unsigned int	nr_drop_nodes;
};

struct hmc_show {
	struct hmc_flow_sum	*f;
	size_t			n;
	size_t			cap;
};

static const char *hmc_proto_name(int p, char *buf, size_t n)
{
	switch (p) {
	case 6:		return "tcp";
	case 17:	return "udp";
	case 1:		return "icmp";
	case 58:	return "ipv6-icmp";
	}
	snprintf(buf, n, "proto %d", p);
	return buf;
}

static json_object *hmc_get(json_object *o, const char *k)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static long long hmc_int(json_object *o, const char *k, long long dflt)
{
	json_object *v = hmc_get(o, k);

	return v && !json_object_is_type(v, json_type_null) ? json_object_get_int64(v) : dflt;
}

static const char *hmc_str(json_object *o, const char *k)
{
	json_object *v = hmc_get(o, k);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static void hmc_cell(FILE *out, json_object *h, const char *k, int width)
{
	long long v = hmc_int(h, k, -1);

	if (v < 0 && !(hmc_get(h, k) && !json_object_is_type(hmc_get(h, k), json_type_null)))
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, " %*lld", width, v);
}

static struct hmc_flow_sum *hmc_flow(struct hmc_show *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->f[i].key, key))
			return &s->f[i];
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct hmc_flow_sum *f = realloc(s->f, cap * sizeof(*f));

		if (!f)
			return NULL;
		s->f = f;
		s->cap = cap;
	}
	memset(&s->f[s->n], 0, sizeof(s->f[0]));
	snprintf(s->f[s->n].key, sizeof(s->f[0].key), "%s", key);
	return &s->f[s->n++];
}

static void hmc_show_path(FILE *out, json_object *p, const char *key)
{
	json_object *hops = hmc_get(p, "hops");
	size_t i, n = hops ? json_object_array_length(hops) : 0;
	const char *drop = hmc_str(p, "drop");

	fprintf(out, "packet %s id 0x%08llx at %s: %zu hops, %s%s%s\n", key,
		hmc_int(p, "pkt_id", 0), hmc_str(p, "time"), n,
		!strcmp(drop, "none") ? "complete" : "incomplete",
		hmc_int(p, "lost", 0) ? ", hops missing" : "",
		json_object_get_boolean(hmc_get(p, "path_change")) ? ", path changed" : "");
	fprintf(out, "  %3s %10s %4s %-14s %8s %8s %10s %10s %10s\n", "hop", "node", "ttl",
		"points", "in_if", "out_if", "hop_ns", "link_ns", "qdepth");
	for (i = 0; i < n; i++) {
		json_object *h = json_object_array_get_idx(hops, i);

		fprintf(out, "  %3zu", i + 1);
		hmc_cell(out, h, "node", 10);
		hmc_cell(out, h, "ttl", 4);
		fprintf(out, " %-14s", hmc_str(h, "points"));
		hmc_cell(out, h, "in_if", 8);
		hmc_cell(out, h, "out_if", 8);
		hmc_cell(out, h, "hop_ns", 10);
		hmc_cell(out, h, "link_ns", 10);
		hmc_cell(out, h, "qdepth", 10);
		fputc('\n', out);
	}
	if (strcmp(drop, "none"))
		fprintf(out, "  %s\n", hmc_str(p, "drop_text"));
	else
		fprintf(out, "  end to end %lld ns\n", hmc_int(p, "e2e_ns", -1));
}

static void hmc_sum(struct hmc_flow_sum *f, json_object *p)
{
	json_object *hops = hmc_get(p, "hops");
	const char *drop = hmc_str(p, "drop");
	size_t i, n = hops ? json_object_array_length(hops) : 0;
	unsigned int node, d;

	f->packets++;
	f->lost += hmc_int(p, "lost", 0);
	if (json_object_get_boolean(hmc_get(p, "path_change")))
		f->changes++;
	if (!strcmp(drop, "none")) {
		size_t off = 0;

		f->complete++;
		/* the flow's path: its last complete packet's */
		for (i = 0; i < n && off < sizeof(f->path) - 16; i++)
			off += snprintf(f->path + off, sizeof(f->path) - off, "%s%lld", i ? " > " : "",
					hmc_int(json_object_array_get_idx(hops, i), "node", 0));
		return;
	}
	node = hmc_int(p, "drop_node", 0);
	for (d = 0; d < f->nr_drop_nodes; d++)
		if (f->drop_node[d] == node)
			break;
	if (d == f->nr_drop_nodes) {
		if (d == 8)
			d = 7;	/* the rest counted with the eighth */
		else
			f->nr_drop_nodes++;
		f->drop_node[d] = node;
	}
	if (!strcmp(drop, "in_node")) {
		f->in_node++;
		f->drop_in[d]++;
	} else if (!strcmp(drop, "on_link")) {
		f->on_link++;
		f->drop_link[d]++;
	} else {
		f->unknown++;
		f->drop_unk[d]++;
	}
}

unsigned long hmc_show_stream(FILE *in, FILE *out, int paths, int flows,
			      unsigned long *shown)
{
	struct hmc_show s = { 0 };
	unsigned long bad = 0, lineno = 0, good = 0;
	char *line = NULL;
	size_t cap = 0, i;
	ssize_t len;

	while ((len = getline(&line, &cap, in)) >= 0) {
		char key[160], pb[16];
		struct hmc_flow_sum *f;
		json_object *p;

		lineno++;
		p = json_tokener_parse(line);
		if (!p || !json_object_is_type(p, json_type_object) || !hmc_get(p, "hops") ||
		    !hmc_get(p, "pkt_id")) {
			if (bad++ < 5)
				fprintf(stderr, "hopmark-collector show: line %lu is not a path\n", lineno);
			json_object_put(p);
			continue;
		}
		snprintf(key, sizeof(key), "%s%s%s:%lld > %s%s%s:%lld %s",
			 hmc_int(p, "family", 4) == 6 ? "[" : "", hmc_str(p, "src"),
			 hmc_int(p, "family", 4) == 6 ? "]" : "", hmc_int(p, "sport", 0),
			 hmc_int(p, "family", 4) == 6 ? "[" : "", hmc_str(p, "dst"),
			 hmc_int(p, "family", 4) == 6 ? "]" : "", hmc_int(p, "dport", 0),
			 hmc_proto_name(hmc_int(p, "proto", 0), pb, sizeof(pb)));
		good++;
		if (paths)
			hmc_show_path(out, p, key);
		f = hmc_flow(&s, key);
		if (f)
			hmc_sum(f, p);
		json_object_put(p);
	}
	free(line);
	if (flows) {
		if (paths && s.n)
			fputc('\n', out);
		for (i = 0; i < s.n; i++) {
			struct hmc_flow_sum *f = &s.f[i];
			unsigned int d;

			fprintf(out, "flow %s: %lu packets, %lu complete, %lu dropped",
				f->key, f->packets, f->complete, f->in_node + f->on_link + f->unknown);
			if (f->changes)
				fprintf(out, ", %lu path changes", f->changes);
			if (f->lost)
				fprintf(out, ", %lu hops missing", f->lost);
			fprintf(out, "\n  path %s\n", f->path[0] ? f->path : "(no complete packet)");
			for (d = 0; d < f->nr_drop_nodes; d++) {
				fprintf(out, "  dropped at node %u:", f->drop_node[d]);
				if (f->drop_in[d])
					fprintf(out, " %lu in the node", f->drop_in[d]);
				if (f->drop_link[d])
					fprintf(out, "%s %lu on the link", f->drop_in[d] ? "," : "",
						f->drop_link[d]);
				if (f->drop_unk[d])
					fprintf(out, "%s %lu in the node or on the link",
						f->drop_in[d] || f->drop_link[d] ? "," : "", f->drop_unk[d]);
				fputc('\n', out);
			}
		}
	}
	free(s.f);
	if (shown)
		*shown = good;
	return bad;
}

int hmc_show_main(int argc, char **argv)
{
	int paths = 1, flows = 1, i, ret = 0;
	unsigned long bad, shown = 0;
	const char *file = NULL;
	FILE *in = stdin;
	struct stat st;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--paths")) {
			flows = 0;
		} else if (!strcmp(argv[i], "--flows")) {
			paths = 0;
		} else if (!strcmp(argv[i], "help") || !strcmp(argv[i], "--help")) {
			printf("Usage: hopmark-collector show [ --paths | --flows ] [ FILE | - ]\n");
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "hopmark-collector show: unknown option \"%s\"\n"
				"Usage: hopmark-collector show [ --paths | --flows ] [ FILE | - ]\n",
				argv[i]);
			return 2;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "hopmark-collector show: unexpected argument \"%s\"\n", argv[i]);
			return 2;
		}
	}
	if (!paths && !flows) {
		fprintf(stderr, "hopmark-collector show: --paths and --flows exclude each other\n");
		return 2;
	}
	if (!file)
		file = "-";
	if (strcmp(file, "-")) {
		in = fopen(file, "r");
		if (!in) {
			fprintf(stderr, "hopmark-collector show: %s: %s\n", file, strerror(errno));
			return 1;
		}
	}
	/* fopen() opens a directory for reading; getline() then fails */
	if (!fstat(fileno(in), &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "hopmark-collector show: %s: %s\n", file, strerror(EISDIR));
		ret = 1;
		goto out;
	}
	bad = hmc_show_stream(in, stdout, paths, flows, &shown);
	if (ferror(in)) {
		fprintf(stderr, "hopmark-collector show: %s: read error: %s\n", file,
			strerror(errno ? errno : EIO));
		ret = 1;
		goto out;
	}
	if (bad)
		fprintf(stderr, "hopmark-collector show: %s: %lu line%s skipped, not paths\n",
			file, bad, bad == 1 ? "" : "s");
	if (!shown) {
		fprintf(stderr, "hopmark-collector show: %s: no path in it\n", file);
		ret = 1;
	}
out:
	if (in != stdin)
		fclose(in);
	return ret;
}
