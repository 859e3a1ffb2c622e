// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * broker_node.c - a front collector or a stitching worker of the broker
 * mode (collector/broker.c) around the real stitcher (collector/stitch.c)
 * and PostgreSQL output (collector/out_pg.c), for
 * selftests/net/test_collector_broker.sh. The front publishes the
 * postcards of N packets made by a rule instead of decoding IPFIX; the
 * worker is the worker loop hopmark-collector --role worker runs.
 *
 *   broker-node front URL P N RATE
 *	packet k (0 <= k < N): flow k % 40 (UDP 10.1.0.1:5000+f ->
 *	10.2.0.f:7000), packet ID k * 2654435761 + 1; nodes 1..5, each an
 *	ingress and an egress postcard, TTL 64 - hop, node 1 the head
 *	(PBT_REC_F_HEAD), node 5 the end (PBT_REC_F_END). Nodes 4 and 5 of
 *	packet k are published after nodes 1..3 of packet k + 1, so packets
 *	interleave in the stream; RATE packets a second.
 *   broker-node worker URL P W I CONNINFO
 *	worker I of W: consume, stitch (window 500 ms), write paths to
 *	PostgreSQL, flush and acknowledge every 200 ms, until SIGTERM; then
 *	flush and acknowledge what is stitched and leave the rest
 *	unacknowledged for the next worker of index I.
 *
 *   broker-node ipfix [udp:|tcp:]HOST:PORT N
 *	the postcards of the same N packets, in the same order, as IPFIX
 *	through the collector's re-export (collector/out_ipfix.c), 1 ms of
 *	pause every 10 packets so that the UDP receivers downstream (A,
 *	then B) keep up, for selftests/net/test_collector_ipfix_out.sh
 *
 * All print their counters as "key value" lines on exit.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent/hopmarkd.h"
#include "collector/broker.h"
#include "collector/out_ipfix.h"
#include "collector/out_pg.h"
#include "collector/stitch.h"
#include "pbt/pbt_maps.h"

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	stop = 1;
}

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static __u64 real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void postcard(__u32 k, __u32 hop, __u8 point, __u64 t, struct hm_pc_obs *o)
{
	__u32 f = k % 40;

	memset(o, 0, sizeof(*o));
	o->key.family = 4;
	o->key.proto = 17;
	o->key.saddr[0] = 10; o->key.saddr[1] = 1; o->key.saddr[3] = 1;
	o->key.daddr[0] = 10; o->key.daddr[1] = 2; o->key.daddr[3] = f;
	o->key.sport = htons(5000 + f);
	o->key.dport = htons(7000);
	o->pkt_id = k * 2654435761U + 1;
	o->node_id = hop + 1;
	o->source = HM_PC_SRC_PBT;
	o->point = point;
	o->ttl = 64 - hop;
	o->ts_ns = t + hop * 10000ULL + (point == PBT_PT_EGRESS ? 2000 : 0);
	o->in_if = 10 * (hop + 1) + 1;
	o->out_if = 10 * (hop + 1) + 2;
	o->qdepth = 100 * hop;
	o->present = HM_PC_HAS_TTL | HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF | HM_PC_HAS_QDEPTH;
	if (hop == 0)
		o->flags |= PBT_REC_F_HEAD;
	if (hop == 4)
		o->flags |= PBT_REC_F_END;
}

static int pub_hops(struct hmc_broker *b, __u32 k, __u32 from, __u32 to, __u64 t)
{
	struct hm_pc_obs o;
	__u32 h;
	int err = 0;

	for (h = from; h < to; h++) {
		postcard(k, h, PBT_PT_INGRESS, t, &o);
		err |= hmc_broker_publish(b, &o);
		postcard(k, h, PBT_PT_EGRESS, t, &o);
		err |= hmc_broker_publish(b, &o);
	}
	return err;
}

static int front(const char *url, __u32 parts, __u32 n, __u32 rate)
{
	struct hmc_broker_cfg cfg = { .url = url, .partitions = parts, .workers = 1, .index = -1 };
	const struct hmc_broker_stats *st;
	struct hmc_broker *b;
	__u64 t0 = mono_ns(), tprev = 0;
	__u32 k;
	int err;

	b = hmc_broker_open(&cfg, &err);
	if (!b)
		return 1;
	for (k = 0; k <= n; k++) {
		__u64 t = real_ns();

		if (k < n)
			pub_hops(b, k, 0, 3, t);
		if (k)
			pub_hops(b, k - 1, 3, 5, tprev);
		tprev = t;
		/* pace: packet k leaves at t0 + k / RATE */
		while (rate && mono_ns() < t0 + (__u64)k * 1000000000ULL / rate)
			usleep(200);
	}
	err = hmc_broker_sync(b, 30000);
	st = hmc_broker_stats(b);
	printf("published %llu\npublish_failed %llu\nbroker_dups %llu\nsync %d\n",
	       (unsigned long long)st->published, (unsigned long long)st->publish_failed,
	       (unsigned long long)st->broker_dups, err);
	hmc_broker_close(b);
	return err ? 1 : 0;
}

static int ipfix_send(const char *dest, __u32 n)
{
	const struct hmc_output_ops *ops = &hmc_out_ipfix;
	const struct hm_ipfix_exp_stats *st;
	struct hm_pc_obs o;
	__u64 t, tprev = 0;
	void *ctx;
	__u32 k, h;

	if (ops->open(&ctx, dest))
		return 1;
	for (k = 0; k <= n; k++) {
		t = real_ns();
		for (h = 0; k < n && h < 3; h++) {
			postcard(k, h, PBT_PT_INGRESS, t, &o);
			ops->obs(ctx, &o);
			postcard(k, h, PBT_PT_EGRESS, t, &o);
			ops->obs(ctx, &o);
		}
		for (h = 3; k && h < 5; h++) {
			postcard(k - 1, h, PBT_PT_INGRESS, tprev, &o);
			ops->obs(ctx, &o);
			postcard(k - 1, h, PBT_PT_EGRESS, tprev, &o);
			ops->obs(ctx, &o);
		}
		tprev = t;
		if (k % 10 == 0) {
			ops->flush(ctx);
			usleep(1000);	/* UDP: leave the receiver time to read */
		}
	}
	ops->flush(ctx);
	st = hmc_out_ipfix_stats(ctx);
	printf("records %llu\nsent %llu\nnot_sent %llu\n", (unsigned long long)st->records,
	       (unsigned long long)st->sent, (unsigned long long)st->not_sent);
	ops->close(ctx);
	return 0;
}

struct wctx {
	const struct hmc_output_ops	*out;
	void				*octx;
	struct hmc_broker		*b;
};

static void emit(void *arg, const struct hmc_path *p)
{
	struct wctx *w = arg;

	w->out->path(w->octx, p);
	hmc_broker_emitted(w->b, p);
}

static int worker(const char *url, __u32 parts, __u32 workers, int idx, const char *conninfo)
{
	struct hmc_broker_cfg cfg = { .url = url, .partitions = parts, .workers = workers,
				      .index = idx, .window_ns = 500000000ULL };
	struct hmc_stitch_cfg scfg = { .window_ns = 500000000ULL, .max_packets = 65536 };
	const struct hmc_broker_stats *st;
	const struct hmc_stitch_stats *ss;
	const struct hmc_pg_stats *ps;
	struct wctx w = { .out = &hmc_out_pg };
	struct hmc_stitch *s;
	__u64 last = mono_ns();
	int err;

	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	err = w.out->open(&w.octx, conninfo);
	if (err)
		return 1;
	w.b = hmc_broker_open(&cfg, &err);
	if (!w.b)
		return 1;
	s = hmc_stitch_new(&scfg, emit, &w);
	if (!s)
		return 1;
	printf("# worker %d ready\n", idx);
	fflush(stdout);
	while (!stop) {
		if (hmc_broker_poll(w.b, s, 100) < 0)
			usleep(100000);	/* the server is away: try again */
		hmc_stitch_expire(s, hmc_broker_now(w.b));
		if (mono_ns() - last >= 200000000ULL) {
			/* acknowledge only what the database holds */
			if (!w.out->flush(w.octx))
				hmc_broker_commit(w.b);
			last = mono_ns();
		}
	}
	if (!w.out->flush(w.octx))
		hmc_broker_commit(w.b);
	st = hmc_broker_stats(w.b);
	ss = hmc_stitch_stats(s);
	ps = hmc_pg_stats(w.octx);
	printf("received %llu\nreplayed %llu\nbad %llu\nstitch_dropped %llu\nacked %llu\n"
	       "ack_failed %llu\nstitch_duplicates %llu\nstitch_late %llu\npaths %llu\n"
	       "complete %llu\npg_packets %llu\npg_duplicates %llu\npg_lost %llu\ntracked %llu\n",
	       (unsigned long long)st->received, (unsigned long long)st->replayed,
	       (unsigned long long)st->bad, (unsigned long long)st->stitch_dropped,
	       (unsigned long long)st->acked, (unsigned long long)st->ack_failed,
	       (unsigned long long)ss->duplicates, (unsigned long long)ss->late,
	       (unsigned long long)ss->packets, (unsigned long long)ss->complete,
	       (unsigned long long)ps->packets, (unsigned long long)ps->duplicates,
	       (unsigned long long)ps->lost, (unsigned long long)ss->tracked);
	hmc_stitch_free(s);
	hmc_broker_close(w.b);
	w.out->close(w.octx);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "front"))
		return front(argv[2], strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0),
			     strtoul(argv[5], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "ipfix"))
		return ipfix_send(argv[2], strtoul(argv[3], NULL, 0));
	if (argc == 7 && !strcmp(argv[1], "worker"))
		return worker(argv[2], strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0),
			      atoi(argv[5]), argv[6]);
	fprintf(stderr, "usage: broker-node front URL P N RATE\n"
			"       broker-node worker URL P W I CONNINFO\n"
			"       broker-node ipfix [udp:|tcp:]HOST:PORT N\n");
	return 2;
}
