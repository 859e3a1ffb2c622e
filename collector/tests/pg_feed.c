// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pg_feed.c - feeds hopmark-collector's PostgreSQL output
 * (collector/out_pg.c) stitched paths made by a rule, for
 * selftests/net/test_collector_pg.sh, which checks what the database holds
 * against the same rule:
 *
 *   path i (0 <= i < N): flow i % 7 (even flows IPv4 10.0.0.1 -> 10.0.1.F,
 *   odd ones IPv6 2001:db8::1 -> 2001:db8:1::F; UDP 40000 + F -> 9999),
 *   packet ID i * 2654435761 mod 2^32, first postcard at T0 + i us;
 *   nodes 1..5, hop h of node h + 1 with TTL 64 - h, ingress at
 *   first + 10000 h ns, egress 2000 ns later, queue depth 100 h bytes,
 *   interfaces 10 (h + 1) + 1 and + 2;
 *   i % 10 == 0: dropped inside node 3 (3 hops, the last without egress);
 *   i % 10 == 5: dropped on the link after node 2 (2 hops).
 *
 *   pg-feed CONNINFO N [DUPS [WAITFILE]]
 *
 * After the N paths, the first DUPS are fed again (what a broker's
 * redelivery makes). With WAITFILE, after N / 2 paths it flushes, prints
 * "# half", and waits until WAITFILE exists (the test restarts the server
 * meanwhile), flushing every 100 ms as the collector does. Prints the
 * output's counters as "key value" lines at the end.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector/out_pg.h"
#include "pbt/pbt_maps.h"

#define T0 1764600000000000000ULL

static void make_path(__u32 i, struct hmc_path *p)
{
	__u32 f = i % 7, h, n = 5;

	memset(p, 0, sizeof(*p));
	p->key.proto = 17;
	p->key.sport = htons(40000 + f);
	p->key.dport = htons(9999);
	if (f % 2 == 0) {
		p->key.family = 4;
		p->key.saddr[0] = 10; p->key.saddr[3] = 1;
		p->key.daddr[0] = 10; p->key.daddr[2] = 1; p->key.daddr[3] = f;
	} else {
		static const __u8 s[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
		static const __u8 d[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 };

		p->key.family = 6;
		memcpy(p->key.saddr, s, 16);
		memcpy(p->key.daddr, d, 16);
		p->key.daddr[15] = f;
	}
	p->pkt_id = (__u32)(i * 2654435761U);
	p->first_ns = T0 + (__u64)i * 1000;
	p->drop = HMC_DROP_NONE;
	if (i % 10 == 0) {
		n = 3;
		p->drop = HMC_DROP_IN_NODE;
	} else if (i % 10 == 5) {
		n = 2;
		p->drop = HMC_DROP_ON_LINK;
	}
	p->nr_hops = n;
	p->dups = i % 3 == 0;
	for (h = 0; h < n; h++) {
		struct hmc_hop *x = &p->hops[h];

		x->node_id = h + 1;
		x->ttl = 64 - h;
		x->points = PBT_PT_INGRESS | PBT_PT_EGRESS;
		x->in_if = 10 * (h + 1) + 1;
		x->out_if = 10 * (h + 1) + 2;
		x->in_ns = p->first_ns + 10000ULL * h;
		x->out_ns = x->in_ns + 2000;
		x->qdepth = 100 * h;
	}
	if (p->drop == HMC_DROP_IN_NODE) {
		p->hops[n - 1].points = PBT_PT_INGRESS;
		p->hops[n - 1].out_ns = 0;
		p->hops[n - 1].out_if = 0;
		p->hops[n - 1].qdepth = 0xffffffff;
	}
}

int main(int argc, char **argv)
{
	const struct hmc_output_ops *ops = &hmc_out_pg;
	const struct hmc_pg_stats *st;
	struct hmc_path p;
	__u32 n, dups, i;
	const char *waitf;
	void *ctx;
	int err;

	if (argc < 3) {
		fprintf(stderr, "usage: pg-feed CONNINFO N [DUPS [WAITFILE]]\n");
		return 2;
	}
	n = strtoul(argv[2], NULL, 0);
	dups = argc > 3 ? strtoul(argv[3], NULL, 0) : 0;
	waitf = argc > 4 ? argv[4] : NULL;
	err = ops->open(&ctx, argv[1]);
	if (err) {
		fprintf(stderr, "pg-feed: open: %s\n", strerror(-err));
		return 1;
	}
	for (i = 0; i < n + dups; i++) {
		make_path(i < n ? i : i - n, &p);
		ops->path(ctx, &p);
		if (waitf && i == n / 2) {
			ops->flush(ctx);
			printf("# half\n");
			fflush(stdout);
			while (access(waitf, F_OK)) {
				usleep(100000);
				ops->flush(ctx);
			}
		}
	}
	/* the collector's last flushes: retried while a reconnect is pending */
	for (i = 0; i < 50 && ops->flush(ctx); i++)
		usleep(100000);
	st = hmc_pg_stats(ctx);
	printf("paths %llu\npackets %llu\nhops %llu\nduplicates %llu\nflushes %llu\n"
	       "failures %llu\nreconnects %llu\nlost %llu\n",
	       (unsigned long long)st->paths, (unsigned long long)st->packets,
	       (unsigned long long)st->hops, (unsigned long long)st->duplicates,
	       (unsigned long long)st->flushes, (unsigned long long)st->failures,
	       (unsigned long long)st->reconnects, (unsigned long long)st->lost);
	ops->close(ctx);
	return 0;
}
