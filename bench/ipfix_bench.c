// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ipfix_bench.c - postcards per second into IPFIX on the wire, one core:
 * hopmarkd's own path for each postcard (struct pbt_record ->
 * hm_pc_obs_from_pbt() -> lib/ipfix/ipfix_export.c's hm_ipfix_exp_add(): the
 * record, libfixbuf's transcoding into HM_TID_PBT_V4, Messages of 1400
 * octets sent with send(2) over UDP to 127.0.0.1), against a baseline in
 * the same run: the same number of Messages of the same size sent
 * pre-built (the socket's share alone). The receiving socket on this
 * thread counts what arrives, so both halves do the same receive work.
 *
 *   build/bench/ipfix-bench [-n POSTCARDS] [-r ROUNDS]
 *   build/bench/ipfix-bench -T    the templates and hopmark's elements
 *                                 as the model builds them (no timing)
 *
 * Prints one line per round and the best of each: postcards/s of the
 * exporter, Messages/s of the baseline, and the share of the time the
 * encoding adds (Documentation/ipfix.rst quotes the ratio only).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "ipfix/ipfix_export.h"
#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"
#include "postcard/pc_obs_from.h"

/* The exporter's log lines, prefixed with the bench's name. */
static void bench_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void bench_log(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ipfix-bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long drain(int rx)
{
	static char buf[65536];
	long n = 0;

	while (recv(rx, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		n++;
	return n;
}

/* -T: every template's fields, then the elements hopmark adds. */
static int print_model(void)
{
	static const __u16 tids[] = { HM_TID_PBT_V4, HM_TID_PBT_V6, HM_TID_PBT_V4_EXT,
		HM_TID_PBT_V6_EXT, HM_TID_DEX, HM_TID_OFLAG, HM_TID_INT, HM_TID_STATS };
	fbInfoModel_t *m = hm_ipfix_model_new(HM_IPFIX_PEN_DEFAULT);
	const struct hm_ipfix_ie_def *d;
	const fbInfoElementSpec_t *sp;
	size_t i, k, nd;

	for (i = 0; i < sizeof(tids) / sizeof(tids[0]); i++) {
		printf("template %u:", tids[i]);
		for (sp = hm_ipfix_tpl_spec(tids[i]); sp->name; sp++) {
			const fbInfoElement_t *e = fbInfoModelGetElementByName(m, sp->name);

			printf(" %s", sp->name);
			if (e && e->ent)
				printf("(%u/%u)", e->ent, e->num);
			else if (e)
				printf("(%u)", e->num);
		}
		printf("\n");
	}
	d = hm_ipfix_ie_defs(&nd);
	for (k = 0; k < nd; k++)
		if (d[k].len == FB_IE_VARLEN)
			printf("element %s pen %u id %u length variable\n", d[k].name,
			       d[k].enterprise ? HM_IPFIX_PEN_DEFAULT : 0, d[k].id);
		else
			printf("element %s pen %u id %u length %u\n", d[k].name,
			       d[k].enterprise ? HM_IPFIX_PEN_DEFAULT : 0, d[k].id, d[k].len);
	fbInfoModelFree(m);
	return 0;
}

int main(int argc, char **argv)
{
	long n = 2000000, i, rx_msgs;
	int rounds = 3, r, c, rx, tx;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sin);
	const struct hm_ipfix_exp_stats *st;
	struct hm_ipfix_exp_cfg cfg = { 0 };
	double best_pc = 0, best_base = 0, t0, t1;
	struct hm_ipfix_exp *x;
	struct pbt_record rec;
	struct hm_pc_obs o;
	int rcvbuf = 64 << 20;
	__u64 msgs = 1, bytes = 0;
	char msg[1400];

	while ((c = getopt(argc, argv, "n:r:T")) != -1) {
		if (c == 'T')
			return print_model();
		if (c == 'n')
			n = atol(optarg);
		else if (c == 'r')
			rounds = atoi(optarg);
		else
			return 2;
	}
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(rx, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(rx, (struct sockaddr *)&sin, sizeof(sin)) ||
	    getsockname(rx, (struct sockaddr *)&sin, &sl)) {
		perror("bind");
		return 1;
	}
	cfg.transport = PBT_EXP_UDP;
	cfg.family = 4;
	cfg.port = ntohs(sin.sin_port);
	cfg.domain = 1;
	cfg.refresh_s = 3600;
	memcpy(cfg.addr, &sin.sin_addr, 4);

	memset(&rec, 0, sizeof(rec));
	rec.node_id = 7;
	rec.point = PBT_PT_EGRESS;
	rec.ttl = 63;
	rec.in_ifindex = 2;
	rec.out_ifindex = 3;
	rec.qdepth = 1500;
	rec.key.family = 4;
	rec.key.proto = 17;
	rec.key.sport = htons(40000);
	rec.key.dport = htons(5001);
	memcpy(rec.key.saddr, "\x0a\x01\x00\x01", 4);
	memcpy(rec.key.daddr, "\x0a\x02\x00\x02", 4);

	for (r = 0; r < rounds; r++) {
		hm_ipfix_log = bench_log;
		x = hm_ipfix_exp_new(HM_IPFIX_PEN_DEFAULT);
		if (!x)
			return 1;
		hm_ipfix_exp_set(x, &cfg);
		drain(rx);
		rx_msgs = 0;
		t0 = now_s();
		for (i = 0; i < n; i++) {
			rec.ts_ns = 1700000000000000000ULL + i;
			rec.pkt_id = (__u32)(i * 2654435761U);
			hm_pc_obs_from_pbt(&rec, 1, &o);
			hm_ipfix_exp_add(x, &o, NULL);
			if (!(i & 255))
				rx_msgs += drain(rx);
		}
		hm_ipfix_exp_flush(x);
		t1 = now_s();
		rx_msgs += drain(rx);
		st = hm_ipfix_exp_stats(x);
		msgs = st->messages;
		bytes = st->bytes;
		if (st->sent + st->not_sent != (__u64)n)
			fprintf(stderr, "ipfix-bench: sent %llu + not sent %llu != %ld\n",
				(unsigned long long)st->sent, (unsigned long long)st->not_sent, n);
		printf("round %d: exporter %.0f postcards/s (%llu sent, %llu not sent, %llu messages, %llu received), ",
		       r, n / (t1 - t0), (unsigned long long)st->sent,
		       (unsigned long long)st->not_sent, (unsigned long long)msgs,
		       (unsigned long long)rx_msgs);
		if (n / (t1 - t0) > best_pc)
			best_pc = n / (t1 - t0);
		hm_ipfix_exp_free(x);

		/* Baseline: the same Messages, pre-built, through a socket alike. */
		tx = socket(AF_INET, SOCK_DGRAM, 0);
		connect(tx, (struct sockaddr *)&sin, sizeof(sin));
		memset(msg, 0xab, sizeof(msg));
		drain(rx);
		t0 = now_s();
		for (i = 0; i < (long)msgs; i++) {
			if (send(tx, msg, bytes / msgs, MSG_DONTWAIT) < 0 && errno != EAGAIN)
				break;
			if (!(i & 7))
				drain(rx);
		}
		t1 = now_s();
		drain(rx);
		close(tx);
		printf("baseline %.0f messages/s\n", msgs / (t1 - t0));
		if (msgs / (t1 - t0) > best_base)
			best_base = msgs / (t1 - t0);
	}
	printf("best: exporter %.0f postcards/s per core; %.1f postcards per message; the socket alone %.0f messages/s = %.0f postcards/s; exporter / socket-alone ratio %.2f\n",
	       best_pc, (double)n / msgs, best_base, best_base * n / msgs,
	       best_pc / (best_base * n / msgs));
	return 0;
}
