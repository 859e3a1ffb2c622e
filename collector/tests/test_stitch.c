// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_stitch.c - hopmark-collector's stitcher (collector/stitch.h) on the
 * 5-node line of the demo: A (head, egress postcards), R1 R2 R3 (ingress
 * and egress), B (end, ingress postcards). TTL 64 leaves A; R1 receives
 * 64 and sends 63, R2 63/62, R3 62/61, B receives 61. Each case feeds the
 * postcards in a stated order and checks the paths emitted and the
 * counters: in order, reversed, lost, duplicated, dropped inside R3 and on
 * R3's link, equal TTLs ordered by time, max_packets eviction, a late
 * postcard, path changes, long paths, and thousands of interleaved packets
 * through the index.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <arpa/inet.h>

#include "hm_test.h"
#include "collector/stitch.h"
#include "pbt/pbt_maps.h"

#define NA	1
#define NR1	11
#define NR2	12
#define NR3	13
#define NR4	14
#define NB	2

#define MAX_PATHS	20000

struct rec {
	unsigned int	n;
	struct hmc_path	*p;
};

static void rec_emit(void *arg, const struct hmc_path *path)
{
	struct rec *r = arg;

	assert_true(r->n < MAX_PATHS);
	r->p[r->n++] = *path;
}

static struct hm_pc_obs pc(__u32 flow, __u32 pkt, __u32 node, __u8 point, __u8 ttl, __u64 ts,
			   __u16 flags)
{
	struct hm_pc_obs o;
	__u32 src = htonl(0xc0000201), dst = htonl(0xc6336402);

	memset(&o, 0, sizeof(o));
	o.key.family = 4;
	o.key.proto = 17;
	o.key.sport = htons(10000 + flow);
	o.key.dport = htons(5201);
	memcpy(o.key.saddr, &src, 4);
	memcpy(o.key.daddr, &dst, 4);
	o.pkt_id = pkt;
	o.node_id = node;
	o.point = point;
	o.ttl = ttl;
	o.ts_ns = ts;
	o.flags = flags;
	o.source = HM_PC_SRC_PBT;
	o.present = HM_PC_HAS_TTL | HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF | HM_PC_HAS_QDEPTH;
	o.in_if = node * 10 + 1;
	o.out_if = node * 10 + 2;
	o.qdepth = point == PBT_PT_EGRESS ? node * 100 : 0;
	return o;
}

/* The 8 postcards of one packet on the line, in path order; @t0 its time. */
static unsigned int line(struct hm_pc_obs *o, __u32 flow, __u32 pkt, __u64 t0, __u32 mid)
{
	unsigned int n = 0;

	o[n++] = pc(flow, pkt, NA, PBT_PT_EGRESS, 64, t0 + 100, PBT_REC_F_HEAD);
	o[n++] = pc(flow, pkt, NR1, PBT_PT_INGRESS, 64, t0 + 1100, 0);
	o[n++] = pc(flow, pkt, NR1, PBT_PT_EGRESS, 63, t0 + 1300, 0);
	o[n++] = pc(flow, pkt, mid, PBT_PT_INGRESS, 63, t0 + 2300, 0);
	o[n++] = pc(flow, pkt, mid, PBT_PT_EGRESS, 62, t0 + 2600, 0);
	o[n++] = pc(flow, pkt, NR3, PBT_PT_INGRESS, 62, t0 + 3600, 0);
	o[n++] = pc(flow, pkt, NR3, PBT_PT_EGRESS, 61, t0 + 4000, 0);
	o[n++] = pc(flow, pkt, NB, PBT_PT_INGRESS, 61, t0 + 5000, PBT_REC_F_END);
	return n;
}

static struct hmc_stitch *mk(struct rec *r, __u32 max_packets, __u32 max_flows)
{
	struct hmc_stitch_cfg cfg = {
		.window_ns = 1000000, .max_packets = max_packets, .max_flows = max_flows,
	};
	struct hmc_stitch *s;

	r->n = 0;
	r->p = calloc(MAX_PATHS, sizeof(*r->p));
	assert_non_null(r->p);
	s = hmc_stitch_new(&cfg, rec_emit, r);
	assert_non_null(s);
	return s;
}

static void done(struct hmc_stitch *s, struct rec *r)
{
	hmc_stitch_free(s);
	free(r->p);
}

static void feed(struct hmc_stitch *s, const struct hm_pc_obs *o, unsigned int n, __u64 now)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		assert_int_equal(hmc_stitch_add(s, &o[i], now), 0);
}

static void expect_nodes(const struct hmc_path *p, const __u32 *nodes, unsigned int n)
{
	unsigned int i;

	if (p->nr_hops != n)
		fprintf(stderr, "# expected %u hops, observed %u\n", n, p->nr_hops);
	assert_int_equal(p->nr_hops, n);
	for (i = 0; i < n; i++) {
		if (p->hops[i].node_id != nodes[i])
			fprintf(stderr, "# hop %u: expected node %u, observed %u\n", i, nodes[i],
				p->hops[i].node_id);
		assert_int_equal(p->hops[i].node_id, nodes[i]);
	}
}

static const __u32 line_nodes[] = { NA, NR1, NR2, NR3, NB };

/*
 * Teach the stitcher the line's nodes (R2 and R4 in the middle): a packet
 * of flow 99 each at @now, emitted at their window, then forgotten by @r.
 * Return: the time from which the nodes' points are learned.
 */
static __u64 learn_line(struct hmc_stitch *s, struct rec *r, __u64 now)
{
	struct hm_pc_obs o[8];
	unsigned int n;

	n = line(o, 99, 0xfff1, 1000, NR2);
	feed(s, o, n, now);
	n = line(o, 99, 0xfff2, 2000, NR4);
	feed(s, o, n, now);
	assert_int_equal(r->n, 0);		/* nodes not learned: no early emission */
	hmc_stitch_expire(s, now + 1000000);
	assert_int_equal(r->n, 2);
	r->n = 0;
	return now + 1000000;
}

static void stitch_in_order_is_complete_at_the_end_postcard(void **state)
{
	struct hm_pc_obs o[8];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 0);
	const struct hmc_path *p;
	unsigned int n = line(o, 1, 0xabcd, 1000000000, NR2);
	__u64 t = learn_line(s, &r, 1);

	feed(s, o, n - 1, t);
	assert_int_equal(r.n, 0);		/* B has not reported yet */
	feed(s, o + n - 1, 1, t);
	assert_int_equal(r.n, 1);		/* emitted at once, no window wait */
	p = &r.p[0];
	expect_nodes(p, line_nodes, 5);
	assert_int_equal(p->drop, HMC_DROP_NONE);
	assert_int_equal(p->pkt_id, 0xabcd);
	assert_int_equal(p->lost, 0);
	assert_int_equal(p->dups, 0);
	assert_int_equal(p->first_ns, 1000000100);
	assert_int_equal(p->flags, HMC_PATH_F_HEAD | HMC_PATH_F_NEW_FLOW);
	/* R2: both points merged into one hop, with its interfaces and queue */
	assert_int_equal(p->hops[2].points, PBT_PT_INGRESS | PBT_PT_EGRESS);
	assert_int_equal(p->hops[2].ttl, 63);
	assert_int_equal(p->hops[2].in_ns, 1000002300);
	assert_int_equal(p->hops[2].out_ns, 1000002600);
	assert_int_equal(p->hops[2].in_if, NR2 * 10 + 1);
	assert_int_equal(p->hops[2].out_if, NR2 * 10 + 2);
	assert_int_equal(p->hops[2].qdepth, NR2 * 100);
	assert_int_equal(p->hops[2].pad, 0);
	assert_int_equal(p->hops[2].pad2, 0);
	assert_int_equal(p->hops[0].points, PBT_PT_EGRESS);
	assert_int_equal(p->hops[0].ttl, 64);
	assert_int_equal(p->hops[4].points, PBT_PT_INGRESS);
	/* with learn_line()'s 2 packets of 8 postcards in flow 99 */
	assert_int_equal(hmc_stitch_stats(s)->postcards, 8 + 16);
	assert_int_equal(hmc_stitch_stats(s)->complete, 1 + 2);
	assert_int_equal(hmc_stitch_stats(s)->reordered, 0);
	assert_int_equal(hmc_stitch_stats(s)->tracked, 0);
	assert_int_equal(hmc_stitch_stats(s)->flows, 1 + 1);
	done(s, &r);
}

static void stitch_reversed_postcards_give_the_same_path(void **state)
{
	struct hm_pc_obs o[8];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 0);
	unsigned int i, n = line(o, 1, 7, 1000000000, NR2);

	/* first packet in order: the nodes' points are learned in its window */
	feed(s, o, n, 1);
	hmc_stitch_expire(s, 1 + 1000000);
	n = line(o, 1, 8, 2000000000, NR2);
	for (i = n; i-- > 0;)
		assert_int_equal(hmc_stitch_add(s, &o[i], 2 + 1000000), 0);
	assert_int_equal(r.n, 2);
	expect_nodes(&r.p[1], line_nodes, 5);
	assert_int_equal(r.p[1].drop, HMC_DROP_NONE);
	/* B first, then each earlier hop arrives after a later one: 4 hops */
	assert_int_equal(hmc_stitch_stats(s)->reordered, 4);
	assert_int_equal(r.p[1].flags & HMC_PATH_F_CHANGED, 0);
	done(s, &r);
}

static void stitch_lost_postcards_wait_for_the_window_and_count_the_gap(void **state)
{
	struct hm_pc_obs o[8];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 0);
	static const __u32 nodes[] = { NA, NR1, NR3, NB };
	unsigned int n = line(o, 1, 9, 1000000000, NR2);

	/* both of R2's postcards lost */
	feed(s, o, 3, 100);
	feed(s, o + 5, n - 5, 100);
	assert_int_equal(r.n, 0);
	hmc_stitch_expire(s, 100 + 999999);
	assert_int_equal(r.n, 0);		/* window not over yet */
	hmc_stitch_expire(s, 100 + 1000000);
	assert_int_equal(r.n, 1);
	expect_nodes(&r.p[0], nodes, 4);
	assert_int_equal(r.p[0].drop, HMC_DROP_NONE);	/* B saw it */
	assert_int_equal(r.p[0].lost, 1);
	assert_true(r.p[0].flags & HMC_PATH_F_GAP);
	assert_int_equal(hmc_stitch_stats(s)->lost, 1);
	done(s, &r);
}

static void stitch_duplicates_are_counted_and_dropped(void **state)
{
	struct hm_pc_obs o[8];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 0);
	unsigned int n = line(o, 1, 10, 1000000000, NR2);

	feed(s, o, 3, 1);
	assert_int_equal(hmc_stitch_add(s, &o[1], 1), 1);
	assert_int_equal(hmc_stitch_add(s, &o[2], 1), 1);
	feed(s, o + 3, n - 3, 1);
	hmc_stitch_expire(s, 1 + 1000000);
	assert_int_equal(r.n, 1);
	expect_nodes(&r.p[0], line_nodes, 5);
	assert_int_equal(r.p[0].dups, 2);
	assert_int_equal(hmc_stitch_stats(s)->duplicates, 2);
	assert_int_equal(hmc_stitch_stats(s)->postcards, 10);
	done(s, &r);
}

static void stitch_drop_inside_r3_and_on_its_link(void **state)
{
	struct hm_pc_obs o[8];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 0);
	static const __u32 upto_r3[] = { NA, NR1, NR2, NR3 };
	unsigned int n = line(o, 1, 1, 1000, NR2);

	feed(s, o, n, 1);			/* learns R3 exports both points */
	n = line(o, 1, 2, 2000, NR2);
	feed(s, o, 6, 10);			/* up to R3's ingress */
	n = line(o, 1, 3, 3000, NR2);
	feed(s, o, 7, 10);			/* up to R3's egress */
	hmc_stitch_expire(s, 10 + 1000000);
	assert_int_equal(r.n, 3);
	expect_nodes(&r.p[1], upto_r3, 4);
	assert_int_equal(r.p[1].pkt_id, 2);
	assert_int_equal(r.p[1].drop, HMC_DROP_IN_NODE);
	expect_nodes(&r.p[2], upto_r3, 4);
	assert_int_equal(r.p[2].drop, HMC_DROP_ON_LINK);
	assert_int_equal(hmc_stitch_stats(s)->drops_in_node, 1);
	assert_int_equal(hmc_stitch_stats(s)->drops_on_link, 1);
	/* a drop cuts the path short: no path change claimed */
	assert_int_equal(hmc_stitch_stats(s)->path_changes, 0);
	done(s, &r);
}

static void stitch_drop_at_an_ingress_only_node_is_unknown(void **state)
{
	struct hm_pc_obs o[2];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 0);

	/* node 99 never exported an egress postcard: in the node or after? */
	o[0] = pc(1, 5, NA, PBT_PT_EGRESS, 64, 100, PBT_REC_F_HEAD);
	o[1] = pc(1, 5, 99, PBT_PT_INGRESS, 64, 200, 0);
	feed(s, o, 2, 0);
	hmc_stitch_flush(s);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.p[0].drop, HMC_DROP_UNKNOWN);
	assert_int_equal(hmc_stitch_stats(s)->drops_unknown, 1);
	done(s, &r);
}

static void stitch_equal_ttls_are_ordered_by_time(void **state)
{
	struct hm_pc_obs o[6];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 0);
	static const __u32 nodes[] = { NA, 21, 22, NB };

	/* 21 and 22 bridge: they receive and send TTL 64; fed 22 first */
	o[0] = pc(1, 5, 22, PBT_PT_EGRESS, 64, 410, 0);
	o[1] = pc(1, 5, 22, PBT_PT_INGRESS, 64, 400, 0);
	o[2] = pc(1, 5, 21, PBT_PT_INGRESS, 64, 200, 0);
	o[3] = pc(1, 5, 21, PBT_PT_EGRESS, 64, 210, 0);
	o[4] = pc(1, 5, NA, PBT_PT_EGRESS, 64, 100, PBT_REC_F_HEAD);
	o[5] = pc(1, 5, NB, PBT_PT_INGRESS, 64, 500, PBT_REC_F_END);
	feed(s, o, 6, 0);
	hmc_stitch_expire(s, 1000000);		/* new nodes: at the window */
	assert_int_equal(r.n, 1);
	expect_nodes(&r.p[0], nodes, 4);
	assert_int_equal(r.p[0].hops[1].points, PBT_PT_INGRESS | PBT_PT_EGRESS);
	assert_int_equal(r.p[0].hops[1].in_ns, 200);
	assert_int_equal(r.p[0].hops[1].out_ns, 210);
	assert_int_equal(r.p[0].lost, 0);
	done(s, &r);
}

/*
 * The first packets of a run: a node's egress postcard may come after the
 * end node's. Before the stitcher has heard from a node for a window it
 * does not know whether the node exports egress postcards, so the packet
 * is not declared complete at the end postcard: it waits, and R3's late
 * egress postcard joins it instead of being counted late.
 */
static void stitch_unlearned_node_waits_for_its_window(void **state)
{
	struct hm_pc_obs o[8];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 0);
	unsigned int n = line(o, 1, 0x51, 1000, NR2);

	feed(s, o, 6, 1);			/* A to R3's ingress */
	feed(s, o + 7, 1, 1);			/* B (end), before R3's egress */
	if (r.n)
		fprintf(stderr, "# expected no path before R3's egress postcard, observed %u (%u hops)\n",
			r.n, r.p[0].nr_hops);
	assert_int_equal(r.n, 0);
	assert_int_equal(hmc_stitch_add(s, &o[6], 2), 0);	/* not late */
	assert_int_equal(hmc_stitch_stats(s)->late, 0);
	hmc_stitch_expire(s, 1 + 1000000);
	assert_int_equal(r.n, 1);
	expect_nodes(&r.p[0], line_nodes, 5);
	assert_int_equal(r.p[0].hops[3].points, PBT_PT_INGRESS | PBT_PT_EGRESS);
	assert_int_equal(r.p[0].drop, HMC_DROP_NONE);

	/* a window on, the points are learned: complete at the last postcard */
	n = line(o, 1, 0x52, 2000, NR2);
	feed(s, o, 6, 2 + 1000000);
	feed(s, o + 7, 1, 2 + 1000000);
	assert_int_equal(r.n, 1);		/* R3's egress is known to be missing */
	feed(s, o + 6, 1, 2 + 1000000);
	assert_int_equal(r.n, 2);
	expect_nodes(&r.p[1], line_nodes, n - 3);
	assert_int_equal(hmc_stitch_stats(s)->late, 0);
	assert_int_equal(hmc_stitch_stats(s)->complete, 2);
	done(s, &r);
}

static void stitch_max_packets_evicts_the_oldest(void **state)
{
	struct hm_pc_obs o[8];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 2, 0);

	line(o, 1, 100, 1000, NR2);
	feed(s, o, 3, 1);
	line(o, 1, 101, 2000, NR2);
	feed(s, o, 3, 2);
	assert_int_equal(r.n, 0);
	line(o, 1, 102, 3000, NR2);
	feed(s, o, 1, 3);			/* a third packet: 100 goes */
	assert_int_equal(r.n, 1);
	assert_int_equal(r.p[0].pkt_id, 100);
	assert_true(r.p[0].flags & HMC_PATH_F_EVICTED);
	assert_int_equal(hmc_stitch_stats(s)->evicted, 1);
	assert_int_equal(hmc_stitch_stats(s)->tracked, 2);
	hmc_stitch_flush(s);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.p[1].pkt_id, 101);
	assert_int_equal(r.p[2].pkt_id, 102);
	assert_int_equal(hmc_stitch_stats(s)->tracked, 0);
	done(s, &r);
}

static void stitch_late_postcard_is_dropped_within_the_window(void **state)
{
	struct hm_pc_obs o[8];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 0);
	unsigned int n = line(o, 1, 77, 1000, NR2);

	feed(s, o + 1, n - 1, 10);		/* A's postcard delayed */
	hmc_stitch_expire(s, 10 + 1000000);
	assert_int_equal(r.n, 1);
	assert_int_equal(hmc_stitch_add(s, &o[0], 10 + 1000001), 1);
	assert_int_equal(hmc_stitch_stats(s)->late, 1);
	assert_int_equal(hmc_stitch_stats(s)->tracked, 0);
	/* a window after the emission the same ID is a new packet */
	assert_int_equal(hmc_stitch_add(s, &o[0], 10 + 3000000), 0);
	assert_int_equal(hmc_stitch_stats(s)->tracked, 1);
	done(s, &r);
}

static void stitch_path_change_is_flagged_once(void **state)
{
	struct hm_pc_obs o[8];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 0);
	unsigned int n;

	n = line(o, 1, 1, 1000, NR2);
	feed(s, o, n, 1);
	n = line(o, 1, 2, 2000, NR4);		/* rerouted through R4 */
	feed(s, o, n, 1);
	n = line(o, 1, 3, 3000, NR4);
	feed(s, o, n, 1);
	n = line(o, 2, 4, 4000, NR2);		/* another flow */
	feed(s, o, n, 1);
	hmc_stitch_expire(s, 1 + 1000000);	/* emitted in arrival order */
	assert_int_equal(r.n, 4);
	assert_int_equal(r.p[0].flags & (HMC_PATH_F_CHANGED | HMC_PATH_F_NEW_FLOW),
			 HMC_PATH_F_NEW_FLOW);
	assert_int_equal(r.p[1].flags & HMC_PATH_F_CHANGED, HMC_PATH_F_CHANGED);
	assert_int_equal(r.p[2].flags & HMC_PATH_F_CHANGED, 0);
	assert_int_equal(r.p[3].flags & (HMC_PATH_F_CHANGED | HMC_PATH_F_NEW_FLOW),
			 HMC_PATH_F_NEW_FLOW);
	assert_int_equal(hmc_stitch_stats(s)->path_changes, 1);
	assert_int_equal(hmc_stitch_stats(s)->flows, 2);
	done(s, &r);
}

static void stitch_max_flows_forgets_the_least_recent(void **state)
{
	struct hm_pc_obs o[8];
	struct rec r;
	struct hmc_stitch *s = mk(&r, 64, 2);
	unsigned int n, f;

	for (f = 1; f <= 3; f++) {
		n = line(o, f, f, f * 1000, NR2);
		feed(s, o, n, 1);
	}
	hmc_stitch_expire(s, 1 + 1000000);
	assert_int_equal(hmc_stitch_stats(s)->flows, 2);
	assert_int_equal(hmc_stitch_stats(s)->flows_evicted, 1);
	n = line(o, 1, 9, 9000, NR4);		/* flow 1 was forgotten: new again */
	feed(s, o, n, 1 + 1000000);
	hmc_stitch_expire(s, 1 + 2000000);
	assert_int_equal(r.n, 4);
	assert_true(r.p[3].flags & HMC_PATH_F_NEW_FLOW);
	assert_int_equal(r.p[3].flags & HMC_PATH_F_CHANGED, 0);
	done(s, &r);
}

static void stitch_long_paths_take_more_chunks_and_stop_at_32_hops(void **state)
{
	struct hm_pc_obs o;
	struct rec r;
	struct hmc_stitch *s = mk(&r, 4, 0);
	unsigned int i, p;

	/* 4 packets of 33 nodes each, interleaved: the chunk pool runs dry */
	for (i = 0; i < 33; i++) {
		for (p = 0; p < 4; p++) {
			o = pc(1, p, 1000 + i, PBT_PT_INGRESS, 200 - i, 100 + i, i ? 0 : PBT_REC_F_HEAD);
			hmc_stitch_add(s, &o, 1);
		}
	}
	hmc_stitch_flush(s);
	assert_int_equal(hmc_stitch_stats(s)->too_many_hops + hmc_stitch_stats(s)->evicted > 0, 1);
	for (i = 0; i < r.n; i++) {
		unsigned int h;

		assert_true(r.p[i].nr_hops <= HMC_PATH_MAX_HOPS);
		for (h = 0; h + 1 < r.p[i].nr_hops; h++)
			assert_true(r.p[i].hops[h].ttl > r.p[i].hops[h + 1].ttl);
	}
	/* every postcard is in a path or counted */
	{
		__u64 in_paths = 0;
		const struct hmc_stitch_stats *st = hmc_stitch_stats(s);

		for (i = 0; i < r.n; i++)
			in_paths += r.p[i].nr_hops;
		assert_int_equal(in_paths + st->too_many_hops + st->late, 33 * 4);
	}
	done(s, &r);
}

static void stitch_thousands_of_interleaved_packets_each_emitted_once(void **state)
{
	enum { NPKT = 5000, MAXP = 256 };
	struct hm_pc_obs *all = calloc(NPKT * 8, sizeof(*all));
	unsigned int *seen = calloc(NPKT, sizeof(*seen));
	__u32 rnd = 12345;
	struct rec r;
	struct hmc_stitch *s = mk(&r, MAXP, 0);
	unsigned int i, k, base = 0;

	assert_non_null(all);
	assert_non_null(seen);
	for (i = 0; i < NPKT; i++)
		line(all + i * 8, i % 97, i * 2654435761U, 1000 + i, i % 3 ? NR2 : NR4);
	/*
	 * Shuffle within blocks of 100 packets (800 postcards): up to 100
	 * packets in flight, all of them reordered.
	 */
	for (base = 0; base < NPKT * 8; base += 800) {
		for (i = 799; i > 0; i--) {
			struct hm_pc_obs t;

			rnd = rnd * 1103515245 + 12345;
			k = (rnd >> 8) % (i + 1);
			t = all[base + i];
			all[base + i] = all[base + k];
			all[base + k] = t;
		}
	}
	feed(s, all, NPKT * 8, learn_line(s, &r, 1));
	hmc_stitch_flush(s);
	assert_int_equal(r.n, NPKT);
	for (i = 0; i < r.n; i++) {
		__u32 id = r.p[i].pkt_id;

		for (k = 0; k < NPKT; k++)
			if (k * 2654435761U == id)
				break;
		assert_true(k < NPKT);
		seen[k]++;
		assert_int_equal(r.p[i].nr_hops, 5);
		assert_int_equal(r.p[i].hops[2].node_id, k % 3 ? NR2 : NR4);
		assert_int_equal(r.p[i].drop, HMC_DROP_NONE);
	}
	for (k = 0; k < NPKT; k++)
		assert_int_equal(seen[k], 1);
	assert_int_equal(hmc_stitch_stats(s)->evicted, 0);
	assert_int_equal(hmc_stitch_stats(s)->tracked, 0);
	free(all);
	free(seen);
	done(s, &r);
}

static void stitch_new_refuses_bad_settings_and_reports_memory(void **state)
{
	struct hmc_stitch_cfg cfg = { .window_ns = 1, .max_packets = 0 };
	struct rec r = { 0 };
	struct hmc_stitch *s;
	size_t per_pkt, per_flow, total;

	errno = 0;
	assert_null(hmc_stitch_new(&cfg, rec_emit, &r));
	assert_int_equal(errno, EINVAL);
	cfg.max_packets = 16;
	assert_null(hmc_stitch_new(&cfg, NULL, &r));
	cfg.max_packets = 1U << 30;
	assert_null(hmc_stitch_new(&cfg, rec_emit, &r));
	cfg.max_packets = 65536;
	s = hmc_stitch_new(&cfg, rec_emit, &r);
	assert_non_null(s);
	total = hmc_stitch_mem(s, &per_pkt, &per_flow);
	printf("# memory: %zu octets for 65536 packets and 262144 flows: %zu per packet, %zu per flow\n",
	       total, per_pkt, per_flow);
	assert_true(per_flow >= sizeof(struct hm_flow_key));
	assert_true(per_flow <= 128);
	assert_true(per_pkt >= sizeof(struct hmc_hop) * 8);
	assert_true(total >= per_pkt * 65536 + per_flow * 262144);
	hmc_stitch_free(s);
	hmc_stitch_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stitch_in_order_is_complete_at_the_end_postcard),
		cmocka_unit_test(stitch_reversed_postcards_give_the_same_path),
		cmocka_unit_test(stitch_lost_postcards_wait_for_the_window_and_count_the_gap),
		cmocka_unit_test(stitch_duplicates_are_counted_and_dropped),
		cmocka_unit_test(stitch_drop_inside_r3_and_on_its_link),
		cmocka_unit_test(stitch_drop_at_an_ingress_only_node_is_unknown),
		cmocka_unit_test(stitch_equal_ttls_are_ordered_by_time),
		cmocka_unit_test(stitch_unlearned_node_waits_for_its_window),
		cmocka_unit_test(stitch_max_packets_evicts_the_oldest),
		cmocka_unit_test(stitch_late_postcard_is_dropped_within_the_window),
		cmocka_unit_test(stitch_path_change_is_flagged_once),
		cmocka_unit_test(stitch_max_flows_forgets_the_least_recent),
		cmocka_unit_test(stitch_long_paths_take_more_chunks_and_stop_at_32_hops),
		cmocka_unit_test(stitch_thousands_of_interleaved_packets_each_emitted_once),
		cmocka_unit_test(stitch_new_refuses_bad_settings_and_reports_memory),
	};

	return HM_RUN_TESTS(tests);
}
