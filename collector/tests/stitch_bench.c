// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * stitch_bench.c - what hopmark-collector's stitcher costs
 * (Documentation/collector.rst): its memory per tracked packet and flow
 * (hmc_stitch_mem(), the same on every host), and, in parentheses (the
 * lines a documentation rerun leaves out, since they are of this host),
 * postcards/s on one core through the stitcher alone and through the
 * IPFIX input (the checking walk and lib/ipfix's decoder) into the
 * stitcher, per second of the thread's CPU time (CLOCK_THREAD_CPUTIME_ID:
 * other load on the host does not count against it). The collector's
 * clock stands still, so no node's points are ever learned: every packet
 * waits for its window and the oldest are evicted once 65536 are tracked,
 * the stitcher's costliest regime.
 *
 *   stitch-bench [ -n PACKETS ]
 *
 * Each packet is the 5-node line's 8 postcards (collector/tests/
 * test_stitch.c); 100 packets are in flight, each block shuffled.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collector/ipfix_in.h"
#include "collector/log.h"
#include "collector/stitch.h"
#include "ipfix/ipfix_ie.h"
#include "pbt/pbt_maps.h"
#include "ipfix_craft.h"

static unsigned long paths;

static void count(void *arg, const struct hmc_path *p)
{
	paths++;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void one(struct craft_rec *r, __u32 pkt, __u32 node, __u8 point, __u8 ttl, __u64 ts,
		__u16 flags)
{
	memset(r, 0, sizeof(*r));
	r->ts_ns = ts;
	r->node = node;
	r->pkt = pkt;
	r->point = point;
	r->ttl = ttl;
	r->src = 0xc0000201;
	r->dst = 0xc6336402;
	r->proto = 17;
	r->sport = 10000 + pkt % 1000;
	r->dport = 5201;
	r->in_if = 3;
	r->out_if = 4;
	r->qdepth = 100;
	r->flags = flags;
	r->source = HM_PC_SRC_PBT;
}

static void line(struct craft_rec *r, __u32 pkt)
{
	__u64 t = 1764620000000000000ULL + pkt * 10000ULL;

	one(&r[0], pkt, 1, PBT_PT_EGRESS, 64, t, PBT_REC_F_HEAD);
	one(&r[1], pkt, 11, PBT_PT_INGRESS, 64, t + 1000, 0);
	one(&r[2], pkt, 11, PBT_PT_EGRESS, 63, t + 1300, 0);
	one(&r[3], pkt, 12, PBT_PT_INGRESS, 63, t + 2300, 0);
	one(&r[4], pkt, 12, PBT_PT_EGRESS, 62, t + 2600, 0);
	one(&r[5], pkt, 13, PBT_PT_INGRESS, 62, t + 3600, 0);
	one(&r[6], pkt, 13, PBT_PT_EGRESS, 61, t + 4000, 0);
	one(&r[7], pkt, 2, PBT_PT_INGRESS, 61, t + 5000, PBT_REC_F_END);
}

static void to_obs(const struct craft_rec *r, struct hm_pc_obs *o)
{
	__u32 a;

	memset(o, 0, sizeof(*o));
	o->ts_ns = r->ts_ns;
	o->node_id = r->node;
	o->pkt_id = r->pkt;
	o->point = r->point;
	o->ttl = r->ttl;
	o->flags = r->flags;
	o->source = r->source;
	o->present = HM_PC_HAS_TTL | HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF | HM_PC_HAS_QDEPTH;
	o->key.family = 4;
	o->key.proto = r->proto;
	o->key.sport = htons(r->sport);
	o->key.dport = htons(r->dport);
	a = htonl(r->src);
	memcpy(o->key.saddr, &a, 4);
	a = htonl(r->dst);
	memcpy(o->key.daddr, &a, 4);
}

static void shuffle(struct craft_rec *r, size_t n, __u32 *rnd)
{
	size_t i, k;

	for (i = n - 1; i > 0; i--) {
		struct craft_rec t;

		*rnd = *rnd * 1103515245 + 12345;
		k = (*rnd >> 8) % (i + 1);
		t = r[i];
		r[i] = r[k];
		r[k] = t;
	}
}

static void to_stitch(void *arg, const struct hm_pc_obs *o)
{
	hmc_stitch_add(arg, o, 1);
}

int main(int argc, char **argv)
{
	struct hmc_stitch_cfg cfg = { .window_ns = 500000000ULL, .max_packets = 65536 };
	unsigned long n = 1000000, i;
	struct craft_rec *recs;
	struct hm_pc_obs *obs;
	size_t per_pkt, per_flow;
	struct hmc_stitch *s;
	__u32 rnd = 1;
	double t0, t1;
	int c;

	while ((c = getopt(argc, argv, "n:")) != -1) {
		if (c != 'n')
			return 2;
		n = strtoul(optarg, NULL, 0);
	}
	n -= n % 100;
	if (!n)
		return 2;
	recs = malloc(n * 8 * sizeof(*recs));
	obs = malloc(n * 8 * sizeof(*obs));
	if (!recs || !obs)
		return 1;
	for (i = 0; i < n; i++)
		line(recs + i * 8, i);
	for (i = 0; i < n; i += 100)
		shuffle(recs + i * 8, 800, &rnd);
	for (i = 0; i < n * 8; i++)
		to_obs(&recs[i], &obs[i]);

	s = hmc_stitch_new(&cfg, count, NULL);
	if (!s)
		return 1;
	hmc_stitch_mem(s, &per_pkt, &per_flow);
	printf("stitcher: %u packets, %u flows tracked at most\n", cfg.max_packets,
	       cfg.max_packets * 4);
	printf("memory: %zu octets per tracked packet, %zu per tracked flow\n", per_pkt, per_flow);

	t0 = now_s();
	for (i = 0; i < n * 8; i++)
		hmc_stitch_add(s, &obs[i], 1);
	t1 = now_s();
	printf("(stitch alone: %.2f M postcards/s on one core, %lu paths)\n",
	       n * 8 / (t1 - t0) / 1e6, paths);
	hmc_stitch_free(s);

	{
		struct hmc_ipfix_cfg icfg = { 0 };
		struct sockaddr_storage peer;
		struct sockaddr_in *s4 = (void *)&peer;
		static struct craft m;
		struct hmc_exporter *e;
		struct hmc_ipfix *x;
		unsigned long per = 25, j;	/* records per message: 1250 octets */

		hmc_log_quiet(1);
		paths = 0;
		s = hmc_stitch_new(&cfg, count, NULL);
		x = hmc_ipfix_new(&icfg, to_stitch, s);
		memset(&peer, 0, sizeof(peer));
		s4->sin_family = AF_INET;
		e = x ? hmc_ipfix_exporter(x, &peer, 0, 1) : NULL;
		if (!s || !e)
			return 1;
		craft_msg(&m, 0, 1);
		craft_set(&m, 2);
		craft_template(&m, 256, HM_IPFIX_PEN_DEFAULT, 15);
		craft_set_end(&m);
		hmc_ipfix_message(x, e, m.b, craft_end(&m));
		t0 = now_s();
		for (i = 0; i < n * 8; i += per) {
			craft_msg(&m, i, 1);
			craft_set(&m, 256);
			for (j = i; j < i + per && j < n * 8; j++)
				craft_record(&m, &recs[j]);
			craft_set_end(&m);
			hmc_ipfix_message(x, e, m.b, craft_end(&m));
		}
		t1 = now_s();
		printf("(IPFIX decoded and stitched: %.2f M postcards/s on one core, %lu paths, "
		       "message writing included)\n", n * 8 / (t1 - t0) / 1e6, paths);
		hmc_ipfix_free(x);
		hmc_stitch_free(s);
	}
	free(recs);
	free(obs);
	return 0;
}
