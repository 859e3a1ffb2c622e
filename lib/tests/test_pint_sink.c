// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pint_sink.c - the sink's per-flow inference (lib/pint/pint_sink.c) fed
 * with records that a simulated domain produces with the datapath's own
 * per-hop functions: the decoded path equals the true one, a route change
 * is detected and the new path decoded with the old one kept, latency
 * samples land on the hop that wrote them with quantiles within the
 * compression error, the utilisation is the path's maximum, malformed
 * records are refused and counted, and with a topology the sink decodes
 * the same paths from fewer packets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <json-c/json.h>

#include "pint/gml.h"
#include "hm_test.h"
#include "pint/pint_path.h"
#include "pint/pint_settings.h"
#include "pint/pint_sink.h"

static __u64 rnd(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Path 8, latency 8 and util 8 bits in a budget of 16, as the CLI builds it. */
static void domain(struct pint_domain_cfg *c)
{
	struct pint_query q[3] = { { PINT_Q_PATH, 8, 1 }, { PINT_Q_LATENCY, 8, 1 },
				   { PINT_Q_UTIL, 8, 1 } };
	struct pint_lat_table lt;

	memset(c, 0, sizeof(*c));
	c->flags = PINT_DOM_F_CONFIGURED;
	c->hop_limit_start = 64;
	c->id_min = 1;
	c->id_max = 64;
	c->lat_min_ns = 1000;
	c->lat_max_ns = 1000000000;
	c->q_path = 0;
	c->q_lat = 1;
	c->q_util = 2;
	assert_int_equal(pint_query_plan_build(&c->plan, NULL, 16, q, 3), 0);
	assert_int_equal(pint_path_params_init(&c->path, NULL, 8, 0), 0);
	assert_int_equal(pint_path_scheme(&c->path, "hybrid", 16), 0);
	assert_int_equal(pint_lat_table_for_range(&lt, 8, 1000, 1000000000), 0);
	c->lat = lt.enc;
}

/*
 * One packet over @ids (k hops) with hop i's queueing delay @lat_ns[i] and
 * utilisation @u[i] (Q16), as the transits compute it; the record the sink
 * sends.
 */
static void packet(const struct pint_domain_cfg *c, __u32 pid, const __u32 *ids, unsigned int k,
		   const __u64 *lat_ns, const __u32 *u, struct pint_record *r)
{
	__u32 s = pint_query_select(&c->plan, pid), d = 0, off, f, ah, h;

	for (h = 1; h <= k; h++) {
		off = c->plan.set[s].offset[c->q_path];
		if (off != PINT_QUERY_NONE)
			d = pint_field_set(d, off, 8, pint_path_hop(&c->path, pid, h, ids[h - 1],
								    pint_field_get(d, off, 8)));
		off = c->plan.set[s].offset[c->q_lat];
		ah = pint_lat_act_hash(&c->plan.seeds, pid, h);
		if (off != PINT_QUERY_NONE && ah <= pint_prob_thresh_baseline(h))
			d = pint_field_set(d, off, 8, pint_lat_compress(&c->lat, lat_ns[h - 1], ah));
		off = c->plan.set[s].offset[c->q_util];
		if (off != PINT_QUERY_NONE) {
			f = pint_util_encode(u[h - 1]);
			if (f > pint_field_get(d, off, 8))
				d = pint_field_set(d, off, 8, f);
		}
	}
	memset(r, 0, sizeof(*r));
	r->pid = pid;
	r->digest = d;
	r->hops = k;
	r->family = 4;
	r->proto = 17;
	r->qset = s;
	r->sport = 40000;
	r->dport = 9;
	memcpy(r->saddr, "\x0a\x00\x01\x01", 4);
	memcpy(r->daddr, "\x0a\x00\x09\x02", 4);
}

static struct json_object *flow0(struct json_object *o)
{
	return json_object_array_get_idx(json_object_object_get(o, "flows"), 0);
}

static void expect_path(struct json_object *f, const __u32 *ids, unsigned int k)
{
	struct json_object *p = json_object_object_get(f, "path"), *a;
	unsigned int i;

	assert_true(json_object_get_boolean(json_object_object_get(p, "complete")));
	a = json_object_object_get(p, "ids");
	assert_int_equal(json_object_array_length(a), k);
	for (i = 0; i < k; i++)
		if ((__u32)json_object_get_int(json_object_array_get_idx(a, i)) != ids[i])
			fail_msg("hop %u: expected switch %u, decoded %d", i + 1, ids[i],
				 json_object_get_int(json_object_array_get_idx(a, i)));
}

static void pint_sink_decodes_path_latency_and_max_util(void **state)
{
	static const __u32 path[8] = { 11, 12, 13, 14, 15, 16, 17, 18 };
	static const __u32 alt[8] = { 11, 12, 13, 14, 19, 16, 17, 18 };
	__u64 lat[8] = { 2000, 2000, 2000, 2000, 50000000, 2000, 2000, 2000 };
	__u32 u[8] = { 100, 200, 300, 400, 70000, 500, 600, 700 };
	struct pint_domain_cfg c;
	struct json_object *o, *f, *l, *h;
	struct pint_record r;
	struct pint_sink *s;
	__u64 seed = 1;
	unsigned int i, ret = 0;
	double p50;

	domain(&c);
	s = pint_sink_new(&c);
	assert_non_null(s);
	for (i = 0; i < 3000; i++) {
		packet(&c, (__u32)rnd(&seed), path, 8, lat, u, &r);
		assert_true(pint_sink_add(s, &r, sizeof(r)) >= 0);
	}
	o = pint_sink_to_json(s);
	f = flow0(o);
	expect_path(f, path, 8);
	l = json_object_object_get(f, "latency");
	assert_int_equal(json_object_array_length(l), 8);
	for (i = 0; i < 8; i++) {
		h = json_object_array_get_idx(l, i);
		p50 = json_object_get_int64(json_object_object_get(h, "p50_ns"));
		/* Randomized rounding: each value within (1 + eps)^2, eps 2.8 %. */
		if (p50 < lat[i] / 1.06 || p50 > lat[i] * 1.06)
			fail_msg("hop %u: p50 %.0f ns, true %llu ns", i + 1, p50,
				 (unsigned long long)lat[i]);
	}
	assert_true(json_object_get_double(json_object_object_get(
		json_object_object_get(f, "util"), "max")) >= 70000 / 65536.0 / 1.02);
	json_object_put(o);

	/* Route change: r5 replaced by r9. */
	for (i = 0; i < 3000; i++) {
		packet(&c, (__u32)rnd(&seed), alt, 8, lat, u, &r);
		ret |= pint_sink_add(s, &r, sizeof(r));
	}
	assert_true(ret & PINT_DEC_ROUTE_CHANGE);
	o = pint_sink_to_json(s);
	f = flow0(o);
	expect_path(f, alt, 8);
	assert_true(json_object_get_int(json_object_object_get(json_object_object_get(f, "path"),
							       "route_changes")) >= 1);
	l = json_object_array_get_idx(json_object_object_get(f, "previous_paths"), 0);
	assert_non_null(l);
	for (i = 0; i < 8; i++)
		assert_int_equal(json_object_get_int(json_object_array_get_idx(l, i)), path[i]);
	json_object_put(o);
	pint_sink_free(s);
}

static void pint_sink_refuses_bad_records(void **state)
{
	struct pint_domain_cfg c;
	struct pint_record r = { .hops = 0, .family = 4 };
	struct pint_sink *s;

	domain(&c);
	s = pint_sink_new(&c);
	assert_non_null(s);
	assert_int_equal(pint_sink_add(s, &r, sizeof(r)), -EINVAL);
	r.hops = 65;
	assert_int_equal(pint_sink_add(s, &r, sizeof(r)), -EINVAL);
	r.hops = 3;
	r.family = 5;
	assert_int_equal(pint_sink_add(s, &r, sizeof(r)), -EINVAL);
	assert_int_equal(pint_sink_add(s, &r, sizeof(r) - 1), -EINVAL);
	assert_int_equal(pint_sink_stats(s)->bad_records, 4);
	assert_int_equal(pint_sink_stats(s)->flows, 0);
	pint_sink_free(s);
	c.flags = 0;
	assert_null(pint_sink_new(&c));
	assert_int_equal(errno, EINVAL);
}

/* The userspace twin of the datapath parser on hand-made frames. */
static void pint_frame_parse_matches_definition(void **state)
{
	__u8 f[14 + 20 + 8 + 12] = { [12] = 0x08, [13] = 0x00 };
	__u8 *ip = f + 14, l4[20];
	struct pint_frame_info fi;

	ip[0] = 0x45;
	ip[3] = 40;
	ip[6] = 0x40;		/* DF */
	ip[8] = 60;
	ip[9] = 17;
	memcpy(ip + 12, "\x0a\x00\x01\x01\x0a\x00\x09\x02", 8);
	memcpy(ip + 20, "\x9c\x40\x00\x09\x00\x14\x12\x34" "abcdefghijkl", 20);
	memcpy(l4, ip + 20, 20);
	assert_int_equal(pint_frame_parse(f, sizeof(f), &fi), 0);
	assert_int_equal(fi.pid, pint_pid_v4(ip + 12, ip + 16, 17, 40, l4));
	assert_int_equal(fi.ttl, 60);
	ip[6] = 0;		/* no DF */
	assert_int_equal(pint_frame_parse(f, sizeof(f), &fi), -EAGAIN);
	ip[6] = 0x20;		/* MF */
	assert_int_equal(pint_frame_parse(f, sizeof(f), &fi), -EAGAIN);
	assert_int_equal(pint_frame_parse(f, 20, &fi), -EINVAL);
}

/* Packets until @s completes the path of a new flow (0: never in @max). */
static unsigned int packets_to_decode(struct pint_sink *s, const struct pint_domain_cfg *c,
				      __u64 seed, const __u32 *ids, unsigned int k,
				      unsigned int max)
{
	__u64 lat[8] = { 0 };
	__u32 u[8] = { 0 };
	struct pint_record r;
	unsigned int n;
	int ret;

	for (n = 1; n <= max; n++) {
		packet(c, (__u32)rnd(&seed), ids, k, lat, u, &r);
		ret = pint_sink_add(s, &r, sizeof(r));
		assert_true(ret >= 0);
		if (ret & PINT_DEC_NEW_PATH)
			return n;
	}
	return 0;
}

/*
 * Switches 1..64 on a line, plus 14 - 19 - 16: the path of the namespace
 * test (11..18) and its detour over 19. The same packets decode the same
 * path with and without the topology; with it, from at least 20 % fewer
 * packets in total over 40 flows (the bench measures 68-86 % on the
 * Topology Zoo's graphs).
 */
static void pint_sink_topology_aware_needs_fewer_packets(void **state)
{
	static const __u32 path[8] = { 11, 12, 13, 14, 15, 16, 17, 18 };
	char gml[4096], err[128];
	struct pint_sink *blind, *aware;
	unsigned long n_blind = 0, n_aware = 0;
	struct pint_domain_cfg c;
	struct gml_graph g;
	struct pint_topo t;
	struct json_object *o;
	unsigned int i, a, b;
	size_t len;

	len = snprintf(gml, sizeof(gml), "graph [\n");
	for (i = 1; i <= 64; i++)
		len += snprintf(gml + len, sizeof(gml) - len, "node [ id %u ]\n", i);
	for (i = 1; i < 64; i++)
		len += snprintf(gml + len, sizeof(gml) - len,
				"edge [ source %u target %u ]\n", i, i + 1);
	len += snprintf(gml + len, sizeof(gml) - len,
			"edge [ source 14 target 19 ] edge [ source 19 target 16 ] ]\n");
	assert_true(len < sizeof(gml));
	assert_int_equal(gml_parse(gml, len, &g, err, sizeof(err)), 0);
	gml_to_topo(&g, &t);
	domain(&c);

	for (i = 0; i < 40; i++) {
		blind = pint_sink_new(&c);
		aware = pint_sink_new(&c);
		assert_non_null(blind);
		assert_non_null(aware);
		assert_int_equal(pint_sink_set_topology(aware, &t), 0);
		b = packets_to_decode(blind, &c, 1000 + i, path, 8, 5000);
		a = packets_to_decode(aware, &c, 1000 + i, path, 8, 5000);
		assert_true(a > 0 && b > 0);
		expect_path(flow0(o = pint_sink_to_json(aware)), path, 8);
		assert_string_equal(json_object_get_string(json_object_object_get(o, "decoder")),
				    "topology-aware");
		assert_int_equal(json_object_get_int(json_object_object_get(o, "switches")), 64);
		json_object_put(o);
		expect_path(flow0(o = pint_sink_to_json(blind)), path, 8);
		assert_string_equal(json_object_get_string(json_object_object_get(o, "decoder")),
				    "topology-blind");
		json_object_put(o);
		n_blind += b;
		n_aware += a;
		/* Flows exist now: the topology can no longer change. */
		assert_int_equal(pint_sink_set_topology(aware, &t), -EBUSY);
		pint_sink_free(blind);
		pint_sink_free(aware);
	}
	print_message("# packets to decode over 40 flows: %lu topology-blind, %lu topology-aware\n",
		      n_blind, n_aware);
	assert_true(n_aware * 10 <= n_blind * 8);

	/* A topology without adjacency cannot constrain anything. */
	aware = pint_sink_new(&c);
	assert_non_null(aware);
	t.adj_off = NULL;
	assert_int_equal(pint_sink_set_topology(aware, &t), -EINVAL);
	pint_sink_free(aware);
	gml_free(&g);
}

/*
 * pint_sink_last_util(): per record, the code of the path's largest U when
 * the record's subset carries the utilisation query, -ENOENT otherwise
 * (what an HPCC receiver echoes per packet).
 */
static void pint_sink_last_util_is_the_records_max(void **state)
{
	static const __u32 path[4] = { 11, 12, 13, 14 };
	static const __u64 lat[4] = { 2000, 2000, 2000, 2000 };
	__u32 u[4] = { 30000, 62000, 1000, 5 };
	unsigned int i, with = 0, without = 0;
	struct pint_domain_cfg c;
	struct pint_record r;
	struct pint_sink *s;
	__u64 seed = 7;
	__u32 set;
	int code;

	domain(&c);
	s = pint_sink_new(&c);
	assert_non_null(s);
	assert_int_equal(pint_sink_last_util(s), -ENOENT);
	for (i = 0; i < 200; i++) {
		u[1] = 40000 + 100 * i;
		packet(&c, (__u32)rnd(&seed), path, 4, lat, u, &r);
		assert_true(pint_sink_add(s, &r, sizeof(r)) >= 0);
		code = pint_sink_last_util(s);
		set = pint_query_select(&c.plan, r.pid);
		if (c.plan.set[set].offset[c.q_util] == PINT_QUERY_NONE) {
			if (code != -ENOENT)
				fail_msg("record %u without the util query: expected -ENOENT, got %d",
					 i, code);
			without++;
			continue;
		}
		if (code != pint_util_encode(u[1]))
			fail_msg("record %u: expected code %u (U %u/65536), got %d", i,
				 pint_util_encode(u[1]), u[1], code);
		with++;
	}
	/* Both kinds occur with the 3-query plan in a 16-bit budget. */
	assert_true(with > 0 && without > 0);
	assert_int_equal(pint_sink_add(s, &r, 3), -EINVAL);
	assert_int_equal(pint_sink_last_util(s), -ENOENT);
	pint_sink_free(s);
}

/*
 * A 16-bit path query in 2x8 mode, configured as the CLI does: the sink
 * splits the field into its two digests and decodes the path from as many
 * packets as the decoder alone needs for the same packets.
 */
static void pint_sink_decodes_two_digests(void **state)
{
	static const __u32 path[12] = { 3, 9, 27, 81, 50, 22, 66, 7, 21, 63, 40, 11 };
	struct pint_query_args q = { .kind = PINT_KIND_PATH, .bits = 16, .digests = 2 };
	struct pint_domain_cfg c;
	struct pint_decoder *d;
	struct json_object *o, *p;
	struct pint_record r;
	struct pint_sink *s;
	__u32 universe[255];
	struct pint_topo t = { .nr_nodes = 255, .node_id = universe };
	char msg[128];
	__u64 seed = 5;
	unsigned int i, n = 0, ret = 0;

	memset(&c, 0, sizeof(c));
	pint_cfg_defaults(&c);
	assert_int_equal(pint_cfg_query_add(&c, &q, msg, sizeof(msg)), 0);
	assert_int_equal(pint_path_width(&c.path), 16);
	for (i = 0; i < 255; i++)
		universe[i] = i + 1;
	d = pint_decoder_new(&c.path, &t, 0, PINT_MAX_HOPS);
	assert_non_null(d);
	s = pint_sink_new(&c);
	assert_non_null(s);
	while (!(ret & PINT_DEC_NEW_PATH) && n < 10000) {
		__u32 pid = (__u32)rnd(&seed);

		memset(&r, 0, sizeof(r));
		r.pid = pid;
		r.digest = pint_path_encode(&c.path, pid, path, 12);
		r.hops = 12;
		r.family = 4;
		r.proto = 17;
		memcpy(r.saddr, "\x0a\x00\x01\x01", 4);
		memcpy(r.daddr, "\x0a\x00\x09\x02", 4);
		assert_true(pint_sink_add(s, &r, sizeof(r)) >= 0);
		ret = pint_decoder_add(d, pid, r.digest, 12);
		n++;
	}
	assert_true(ret & PINT_DEC_NEW_PATH);
	o = pint_sink_to_json(s);
	expect_path(flow0(o), path, 12);
	p = json_object_object_get(flow0(o), "path");
	if ((unsigned int)json_object_get_int(json_object_object_get(p, "packets_to_decode")) != n)
		fail_msg("packets to decode: expected %u (the decoder's), observed %d", n,
			 json_object_get_int(json_object_object_get(p, "packets_to_decode")));
	json_object_put(o);
	pint_sink_free(s);
	pint_decoder_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pint_sink_decodes_path_latency_and_max_util),
		cmocka_unit_test(pint_sink_refuses_bad_records),
		cmocka_unit_test(pint_sink_last_util_is_the_records_max),
		cmocka_unit_test(pint_sink_decodes_two_digests),
		cmocka_unit_test(pint_sink_topology_aware_needs_fewer_packets),
		cmocka_unit_test(pint_frame_parse_matches_definition),
	};

	return HM_RUN_TESTS(tests);
}
