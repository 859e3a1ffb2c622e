// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * summary.c - per-hop latency statistics over many records, what
 * `hopmark monitor` prints on exit: for every (hop position, node ID) seen,
 * how many records had it and the min / median / p99 of the latency from
 * the previous hop, in microseconds. The sink is a row of its own (its
 * latency is the last link's: receive time - last node's timestamp).
 *
 * Percentiles use the nearest-rank method over the kept samples. Each row
 * keeps at most HM_SUMMARY_SAMPLES_MAX samples; beyond that, reservoir
 * sampling keeps a uniform sample of all of them (count and min stay exact).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "hopmark.h"
#include "ioam/record_time.h"

#define HM_SUMMARY_SAMPLES_MAX	(1U << 20)

struct hm_summary_row {
	unsigned int	pos;		/* 1-based hop position; sink: path length + 1 */
	bool		sink;
	__u64		node_id;	/* short, else wide, else all-ones */
	__u64		count;		/* records that had this row */
	__u64		n_lat;		/* latency samples offered */
	__s64		min_ns;
	__s64		*lat;		/* kept samples */
	size_t		n_kept;
	size_t		cap;
};

struct hm_summary {
	struct hm_summary_row *rows;
	size_t		n_rows;
	size_t		cap;
	__u64		rng;		/* xorshift64 state for the reservoir */
};

/**
 * hm_summary_new() - an empty per-hop summary
 *
 * Return: the summary, or NULL on ENOMEM.
 */
struct hm_summary *hm_summary_new(void)
{
	struct hm_summary *s = calloc(1, sizeof(*s));

	if (s)
		s->rng = 0x9e3779b97f4a7c15ULL;
	return s;
}

static __u64 hm_summary_rand(struct hm_summary *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return s->rng;
}

static struct hm_summary_row *hm_summary_row(struct hm_summary *s, unsigned int pos,
					     bool sink, __u64 node_id)
{
	struct hm_summary_row *row;
	size_t i;

	for (i = 0; i < s->n_rows; i++) {
		row = &s->rows[i];
		if (row->pos == pos && row->sink == sink && row->node_id == node_id)
			return row;
	}
	if (s->n_rows == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct hm_summary_row *rows = realloc(s->rows, cap * sizeof(*rows));

		if (!rows)
			return NULL;
		s->rows = rows;
		s->cap = cap;
	}
	row = &s->rows[s->n_rows++];
	memset(row, 0, sizeof(*row));
	row->pos = pos;
	row->sink = sink;
	row->node_id = node_id;
	return row;
}

static void hm_summary_sample(struct hm_summary *s, struct hm_summary_row *row, __s64 ns)
{
	if (!row->n_lat || ns < row->min_ns)
		row->min_ns = ns;
	row->n_lat++;
	if (row->n_kept < HM_SUMMARY_SAMPLES_MAX) {
		if (row->n_kept == row->cap) {
			size_t cap = row->cap ? row->cap * 2 : 64;
			__s64 *lat = realloc(row->lat, cap * sizeof(*lat));

			if (!lat)
				return;	/* keep what we have: count and min stay exact */
			row->lat = lat;
			row->cap = cap;
		}
		row->lat[row->n_kept++] = ns;
	} else {
		__u64 j = hm_summary_rand(s) % row->n_lat;

		if (j < row->n_kept)
			row->lat[j] = ns;
	}
}

/**
 * hm_summary_add() - account one record
 * @s: summary
 * @r: record
 *
 * Each node data entry counts under (its position in the path, its node
 * ID); its latency sample is the one of hm_record_to_json()'s latency_ns
 * when available. The sink counts under (path length + 1, sink node ID).
 * Memory exhaustion loses samples, never records already counted.
 */
void hm_summary_add(struct hm_summary *s, const struct hm_record *r)
{
	const struct hm_ioam_trace *t = &r->trace;
	struct hm_summary_row *row;
	unsigned int i, n = t->n_nodes < HM_MAX_HOPS ? t->n_nodes : HM_MAX_HOPS;
	__s64 lat;

	if (!s || !r)
		return;
	for (i = 0; i < n; i++) {
		const struct hm_ioam6_node_values *v = &t->nodes[i];
		__u64 id = HM_IOAM_U64_UNAVAILABLE;

		if (t->trace_type & HM_IOAM_TT_HOPLIM_NODEID)
			id = v->node_id;
		else if (t->trace_type & HM_IOAM_TT_HOPLIM_NODEID_WIDE)
			id = v->node_id_wide;
		row = hm_summary_row(s, i + 1, false, id);
		if (!row)
			return;
		row->count++;
		if (hm_hop_latency_ns(t, i, &lat))
			hm_summary_sample(s, row, lat);
	}
	row = hm_summary_row(s, n + 1, true, r->sink_node_id);
	if (!row)
		return;
	row->count++;
	if (hm_sink_latency_ns(r, &lat))
		hm_summary_sample(s, row, lat);
}

static int hm_cmp_s64(const void *a, const void *b)
{
	__s64 x = *(const __s64 *)a, y = *(const __s64 *)b;

	return (x > y) - (x < y);
}

static int hm_cmp_row(const void *a, const void *b)
{
	const struct hm_summary_row *x = *(const struct hm_summary_row *const *)a;
	const struct hm_summary_row *y = *(const struct hm_summary_row *const *)b;

	if (x->sink != y->sink)
		return x->sink - y->sink;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return (x->node_id > y->node_id) - (x->node_id < y->node_id);
}

/* Nearest-rank percentile @p (0 < p <= 100) of @n sorted samples. */
static __s64 hm_percentile(const __s64 *sorted, size_t n, unsigned int p)
{
	size_t rank = (n * p + 99) / 100;

	return sorted[rank ? rank - 1 : 0];
}

/* Whether the row's node ID is a real one (not an "unavailable" all-ones). */
static bool hm_row_id_known(const struct hm_summary_row *row)
{
	return row->node_id != HM_IOAM_U24_UNAVAILABLE &&
	       row->node_id != HM_IOAM_U56_UNAVAILABLE &&
	       row->node_id != HM_IOAM_U64_UNAVAILABLE;
}

struct hm_row_stats {
	bool	ok;
	double	min_us, median_us, p99_us;
};

static struct hm_row_stats hm_row_stats(const struct hm_summary_row *row)
{
	struct hm_row_stats st = { 0 };
	__s64 *sorted;

	if (!row->n_kept)
		return st;
	sorted = malloc(row->n_kept * sizeof(*sorted));
	if (!sorted)
		return st;
	memcpy(sorted, row->lat, row->n_kept * sizeof(*sorted));
	qsort(sorted, row->n_kept, sizeof(*sorted), hm_cmp_s64);
	st.ok = true;
	st.min_us = row->min_ns / 1000.0;
	st.median_us = hm_percentile(sorted, row->n_kept, 50) / 1000.0;
	st.p99_us = hm_percentile(sorted, row->n_kept, 99) / 1000.0;
	free(sorted);
	return st;
}

static void hm_summary_print_json(const struct hm_summary_row *const *rows, size_t n, FILE *f)
{
	struct json_object *o = json_object_new_object();
	struct json_object *arr = json_object_new_array();
	size_t i;

	if (!o || !arr || json_object_object_add(o, "hops", arr)) {
		json_object_put(arr);
		json_object_put(o);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct hm_summary_row *row = rows[i];
		struct hm_row_stats st = hm_row_stats(row);
		struct json_object *h = json_object_new_object();

		if (!h)
			break;
		json_object_object_add(h, "hop", json_object_new_int64(row->pos));
		json_object_object_add(h, "sink", json_object_new_boolean(row->sink));
		json_object_object_add(h, "node_id", hm_row_id_known(row) ?
				       json_object_new_uint64(row->node_id) : NULL);
		json_object_object_add(h, "count", json_object_new_uint64(row->count));
		json_object_object_add(h, "latency_samples", json_object_new_uint64(row->n_lat));
		json_object_object_add(h, "min_us", st.ok ? json_object_new_double(st.min_us) : NULL);
		json_object_object_add(h, "median_us",
				       st.ok ? json_object_new_double(st.median_us) : NULL);
		json_object_object_add(h, "p99_us", st.ok ? json_object_new_double(st.p99_us) : NULL);
		if (json_object_array_add(arr, h)) {
			json_object_put(h);
			break;
		}
	}
	fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

/**
 * hm_summary_print() - per hop: count, min / median / p99 latency (us)
 * @s: summary
 * @f: stream
 * @json: print one JSON object instead of a table
 *
 * Rows in path order, sink last; a row without any latency sample (the
 * first hop, or no timestamps) prints "-" (null in JSON). The JSON object
 * is {"hops": [{"hop", "sink", "node_id", "count", "latency_samples",
 * "min_us", "median_us", "p99_us"}, ...]}.
 */
void hm_summary_print(const struct hm_summary *s, FILE *f, int json)
{
	const struct hm_summary_row **rows;
	size_t i;

	if (!s)
		return;
	rows = calloc(s->n_rows ? s->n_rows : 1, sizeof(*rows));
	if (!rows)
		return;
	for (i = 0; i < s->n_rows; i++)
		rows[i] = &s->rows[i];
	qsort(rows, s->n_rows, sizeof(*rows), hm_cmp_row);

	if (json) {
		hm_summary_print_json(rows, s->n_rows, f);
		free(rows);
		return;
	}
	fprintf(f, "%5s %16s %10s %12s %12s %12s\n", "hop", "node", "count", "min-us",
		"median-us", "p99-us");
	for (i = 0; i < s->n_rows; i++) {
		const struct hm_summary_row *row = rows[i];
		struct hm_row_stats st = hm_row_stats(row);

		if (row->sink)
			fprintf(f, "%5s", "sink");
		else
			fprintf(f, "%5u", row->pos);
		if (!hm_row_id_known(row))
			fprintf(f, " %16s", "-");
		else
			fprintf(f, " %16llu", (unsigned long long)row->node_id);
		fprintf(f, " %10llu", (unsigned long long)row->count);
		if (st.ok)
			fprintf(f, " %12.3f %12.3f %12.3f\n", st.min_us, st.median_us, st.p99_us);
		else
			fprintf(f, " %12s %12s %12s\n", "-", "-", "-");
	}
	free(rows);
}

/**
 * hm_summary_free() - free a summary
 * @s: summary (NULL is fine)
 */
void hm_summary_free(struct hm_summary *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_rows; i++)
		free(s->rows[i].lat);
	free(s->rows);
	free(s);
}
