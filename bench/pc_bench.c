// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pc_bench.c - the postcard stream of hopmark-collector's benchmark
 * (bench/pbt_coll_bench.sh, Documentation/performance-postcards.rst).
 *
 *   pc-bench gen -o FILE [-p PACKETS] [-f FLOWS] [-m MTU]
 *   pc-bench stitch FILE [-r ROUNDS] [-w WINDOW_MS] [-o FILE.json]
 *   pc-bench replay FILE HOST:PORT [-R MESSAGES_PER_S]
 *
 * gen: the IPFIX messages five PBT-M nodes (A R1 R2 R3 B of the demo's
 * line, node IDs 1..5, Observation Domain = node ID) export for PACKETS
 * packets of FLOWS UDP flows (IPv4, one source port per flow): A's egress
 * postcard, ingress and egress postcards of R1..R3, B's ingress one, 8 per
 * packet, as struct hm_pc_obs turned into records of hopmark's template
 * HM_TID_PBT_V4 by lib/ipfix (the exporter's own mapping) and written by
 * libfixbuf into messages of at most MTU octets (default 1400), each node's
 * first message holding its template. FILE is the messages in the order
 * the five exporters would send them (a message leaves when it is full),
 * each after a 4-octet header: node ID (1 octet), 0, length (2, host
 * order). The packets' times are 1 us apart, TTL 64 at A's egress: each
 * node after it sees the TTL the one before sent and sends it one lower
 * (R1 ingress 64, egress 63, ..., B ingress 61), so the hops' ranks step
 * by one and no hop is missing.
 *
 * stitch: hopmark-collector's own decoder and stitcher in this process,
 * without sockets: every message goes through hmc_ipfix_message() (one
 * exporter session per node, as five UDP exporters) and every postcard
 * into hmc_stitch_add(). postcards/s per core = postcards / the thread's
 * CPU time (CLOCK_THREAD_CPUTIME_ID), so other load on the CPU does not
 * count against it. Each round starts from a new input and stitcher;
 * median and range over ROUNDS. Also the decoder alone (the same rounds
 * without a stitcher) and the stitcher alone: the postcards an untimed
 * first pass decoded and kept, fed again to new stitchers, ROUNDS times. Also the stitcher's memory: per tracked
 * packet and per tracked flow as hmc_stitch_mem() gives it, and the
 * process's resident set growth over the run per flow and per packet
 * tracked at once. Checks that every packet came out complete (exit 1
 * otherwise).
 *
 * replay: sends FILE's messages over UDP to HOST:PORT, each node from its
 * own socket (so a collector sees five exporters), paced at
 * MESSAGES_PER_S (0: as fast as it can); prints what it sent.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/utsname.h>

#include <fixbuf/public.h>

#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"
#include "collector/ipfix_in.h"
#include "collector/stitch.h"

#define NODES		5
#define PC_PER_PKT	8
#define ROUNDS_MAX	32
#define GOAL_PER_CORE	5000000.0	/* issue 9: postcards/s per core */

struct msg {
	__u8	node;
	__u16	len;
	__u8	*data;
};

struct stream {
	__u8		*buf;
	size_t		len;
	struct msg	*msgs;
	size_t		nr;
	__u64		records;
};

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("pc-bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ------------------------------------------------------------------ gen */

struct gen_node {
	fbSession_t	*session;
	fbExporter_t	*exporter;
	fBuf_t		*fbuf;
	__u8		*buf;
};

static void gen_emit(FILE *f, struct gen_node *g, unsigned int node)
{
	GError *err = NULL;
	size_t len;
	__u8 hdr[4];
	__u16 l16;

	if (!fBufEmit(g->fbuf, &err))
		die("fBufEmit: %s", err->message);
	len = fbExporterGetMsgLen(g->exporter);
	if (!len)
		return;
	l16 = (__u16)len;
	hdr[0] = (__u8)node;
	hdr[1] = 0;
	memcpy(hdr + 2, &l16, 2);
	if (fwrite(hdr, 4, 1, f) != 1 || fwrite(g->buf, len, 1, f) != 1)
		die("write: %s", strerror(errno));
}

static void gen_append(FILE *f, struct gen_node *g, unsigned int node,
		       const struct hm_pc_obs *o)
{
	struct hm_ipfix_fields r;
	GError *err = NULL;

	hm_ipfix_fields_from_obs(&r, o, NULL);
	if (fBufAppend(g->fbuf, (uint8_t *)&r, sizeof(r), &err))
		return;
	if (!g_error_matches(err, FB_ERROR_DOMAIN, FB_ERROR_EOM))
		die("fBufAppend: %s", err->message);
	g_clear_error(&err);
	gen_emit(f, g, node);
	if (!fBufAppend(g->fbuf, (uint8_t *)&r, sizeof(r), &err))
		die("fBufAppend: %s", err->message);
}

static int cmd_gen(int argc, char **argv)
{
	unsigned long packets = 100000, flows = 1000, mtu = 1400, i;
	struct gen_node g[NODES];
	const char *out = NULL;
	fbInfoModel_t *model;
	GError *err = NULL;
	unsigned int n;
	__u64 t0;
	FILE *f;
	int c;

	while ((c = getopt(argc, argv, "o:p:f:m:")) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'p': packets = strtoul(optarg, NULL, 0); break;
		case 'f': flows = strtoul(optarg, NULL, 0); break;
		case 'm': mtu = strtoul(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	if (!out || !packets || !flows || mtu < 256 || mtu > 65535)
		die("gen -o FILE [-p PACKETS >0] [-f FLOWS >0] [-m MTU 256..65535]");
	f = fopen(out, "w");
	if (!f)
		die("%s: %s", out, strerror(errno));
	model = hm_ipfix_model_new(HM_IPFIX_PEN_DEFAULT);
	if (!model)
		die("hm_ipfix_model_new failed");
	for (n = 0; n < NODES; n++) {
		fbTemplate_t *it, *et;

		g[n].buf = malloc(mtu);
		g[n].session = fbSessionAlloc(model);
		/* Templates belong to the domain current when they are added. */
		fbSessionSetDomain(g[n].session, n + 1);
		it = hm_ipfix_tpl_new(model, HM_IPFIX_TID_INTERNAL, &err);
		if (!it || !fbSessionAddTemplate(g[n].session, TRUE, HM_IPFIX_TID_INTERNAL, it, &err))
			die("internal template: %s", err ? err->message : "?");
		et = hm_ipfix_tpl_new(model, HM_TID_PBT_V4, &err);
		if (!et || !fbSessionAddTemplate(g[n].session, FALSE, HM_TID_PBT_V4, et, &err))
			die("template %u: %s", HM_TID_PBT_V4, err ? err->message : "?");
		g[n].exporter = fbExporterAllocBuffer(g[n].buf, (uint16_t)mtu);
		g[n].fbuf = fBufAllocForExport(g[n].session, g[n].exporter);
		if (!fBufSetInternalTemplate(g[n].fbuf, HM_IPFIX_TID_INTERNAL, &err) ||
		    !fBufSetExportTemplate(g[n].fbuf, HM_TID_PBT_V4, &err) ||
		    !fbSessionExportTemplate(g[n].session, HM_TID_PBT_V4, &err))
			die("templates: %s", err->message);
		/*
		 * Manual mode from here (a message leaves when fBufAppend()
		 * says it is full); the template was written in automatic
		 * mode, which starts the first message for it.
		 */
		fBufSetAutomaticMode(g[n].fbuf, FALSE);
	}
	t0 = (__u64)time(NULL) * 1000000000ULL;
	for (i = 0; i < packets; i++) {
		struct hm_pc_obs o;

		memset(&o, 0, sizeof(o));
		o.key.family = 4;
		o.key.proto = 17;
		o.key.sport = htons((__u16)(10000 + i % flows % 50000));
		o.key.dport = htons(5301);
		/* More flows than ports: the source address's last octets too. */
		o.key.saddr[0] = 10;
		o.key.saddr[1] = 9;
		o.key.saddr[2] = (__u8)(i % flows / 50000);
		o.key.saddr[3] = 1;
		o.key.daddr[0] = 10;
		o.key.daddr[1] = 9;
		o.key.daddr[2] = 4;
		o.key.daddr[3] = 2;
		/* Distinct, scattered packet IDs (an odd multiplier is a bijection). */
		o.pkt_id = (__u32)(i * 2654435761UL);
		o.source = HM_PC_SRC_PBT;
		o.length = 228;
		o.present = HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF | HM_PC_HAS_QDEPTH |
			    HM_PC_HAS_TTL | HM_PC_HAS_LENGTH;
		for (n = 0; n < NODES; n++) {
			unsigned int pt;

			o.node_id = n + 1;
			o.obs_domain = n + 1;
			for (pt = PBT_PT_INGRESS; pt <= PBT_PT_EGRESS; pt++) {
				if ((n == 0 && pt == PBT_PT_INGRESS) ||
				    (n == NODES - 1 && pt == PBT_PT_EGRESS))
					continue;
				o.point = (__u8)pt;
				o.ttl = (__u8)(n && pt == PBT_PT_INGRESS ? 65 - n : 64 - n);
				o.flags = n == 0 ? PBT_REC_F_HEAD : n == NODES - 1 ? PBT_REC_F_END : 0;
				o.in_if = n ? 10 * (n + 1) + 1 : 0;
				o.out_if = pt == PBT_PT_EGRESS ? 10 * (n + 1) + 2 : 0;
				o.qdepth = (__u32)(i % 7) * 100;
				o.ts_ns = t0 + i * 1000 + n * 200 + pt * 50;
				gen_append(f, &g[n], n + 1, &o);
			}
		}
	}
	for (n = 0; n < NODES; n++) {
		gen_emit(f, &g[n], n + 1);
		fBufFree(g[n].fbuf);
		free(g[n].buf);
	}
	fbInfoModelFree(model);
	if (fclose(f))
		die("%s: %s", out, strerror(errno));
	printf("gen: %lu packets, %lu flows, %lu postcards, messages of at most %lu octets: %s\n",
	       packets, flows, packets * PC_PER_PKT, mtu, out);
	return 0;
}

/* ---------------------------------------------------------------- load */

static void load(struct stream *s, const char *path)
{
	size_t cap = 1024, off = 0;
	FILE *f = fopen(path, "r");
	long len;

	if (!f)
		die("%s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	s->buf = malloc(len > 0 ? (size_t)len : 1);
	if (!s->buf || fread(s->buf, 1, (size_t)len, f) != (size_t)len)
		die("%s: cannot read", path);
	fclose(f);
	s->len = (size_t)len;
	s->msgs = malloc(cap * sizeof(*s->msgs));
	s->nr = 0;
	while (off + 4 <= s->len) {
		struct msg *m;
		__u16 l;

		memcpy(&l, s->buf + off + 2, 2);
		if (l < 16 || off + 4 + l > s->len || !s->buf[off] || s->buf[off] > NODES)
			die("%s: bad message header at octet %zu", path, off);
		if (s->nr == cap) {
			cap *= 2;
			s->msgs = realloc(s->msgs, cap * sizeof(*s->msgs));
			if (!s->msgs)
				die("out of memory");
		}
		m = &s->msgs[s->nr++];
		m->node = s->buf[off];
		m->len = l;
		m->data = s->buf + off + 4;
		off += 4 + l;
	}
	if (!s->nr)
		die("%s: no message", path);
}

/* -------------------------------------------------------------- stitch */

struct round {
	struct hmc_stitch	*st;
	struct hm_pc_obs	*keep;		/* if not NULL: every postcard, in order */
	size_t			kept;
	size_t			keep_max;
	__u64			postcards;
	__u64			paths;
	__u64			complete;
	__u64			now_ns;
};

static void on_path(void *arg, const struct hmc_path *p)
{
	struct round *r = arg;

	r->paths++;
	r->complete += p->drop == HMC_DROP_NONE && p->nr_hops == NODES;
}

static void on_obs(void *arg, const struct hm_pc_obs *o)
{
	struct round *r = arg;

	r->postcards++;
	if (r->keep && r->kept < r->keep_max)
		r->keep[r->kept++] = *o;
	if (r->st)
		hmc_stitch_add(r->st, o, r->now_ns);
}

static double thread_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long rss_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * One pass of the stream through a new IPFIX input (five UDP exporter
 * sessions) into @r (r->st: the stitcher, flushed at the end; NULL: the
 * decoder alone). Return: postcards/s of the thread's CPU time.
 */
static double decode_round(const struct stream *s, struct round *r)
{
	struct hmc_ipfix_cfg ic = { .pen = HM_IPFIX_PEN_DEFAULT };
	struct hmc_exporter *ex[NODES];
	struct hmc_ipfix *x;
	unsigned int n;
	size_t i;
	double t;

	r->now_ns = (__u64)time(NULL) * 1000000000ULL;
	x = hmc_ipfix_new(&ic, on_obs, r);
	if (!x)
		die("hmc_ipfix_new: %s", strerror(errno));
	for (n = 0; n < NODES; n++) {
		struct sockaddr_storage ss = { 0 };
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(0x0afe0100 + n + 1);
		sin->sin_port = htons(40000);
		ex[n] = hmc_ipfix_exporter(x, &ss, 0, 1);
		if (!ex[n])
			die("hmc_ipfix_exporter refused node %u", n + 1);
	}
	t = thread_s();
	for (i = 0; i < s->nr; i++) {
		/* The collector's clock moves 1 us per message. */
		r->now_ns += 1000;
		hmc_ipfix_message(x, ex[s->msgs[i].node - 1], s->msgs[i].data, s->msgs[i].len);
	}
	if (r->st)
		hmc_stitch_flush(r->st);
	t = thread_s() - t;
	hmc_ipfix_free(x);
	return t > 0 ? r->postcards / t : 0;
}

static int cmd_stitch(int argc, char **argv)
{
	unsigned int rounds = 5, window_ms = 1000, k;
	double rate[ROUNDS_MAX], med, srate[ROUNDS_MAX], smed, drate[ROUNDS_MAX], dmed;
	struct round keep = { 0 };
	struct hm_pc_obs *obs = NULL;
	size_t nr_obs = 0;
	size_t per_pkt = 0, per_flow = 0, total = 0;
	long rss0 = 0, rss1 = 0;
	const char *json = NULL;
	struct round last = { 0 };
	struct stream s;
	struct utsname u;
	int c, bad = 0;
	__u64 flows = 0;

	while ((c = getopt(argc, argv, "r:w:o:")) != -1) {
		switch (c) {
		case 'r': rounds = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'w': window_ms = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'o': json = optarg; break;
		default: return 2;
		}
	}
	if (optind >= argc || !rounds || rounds > ROUNDS_MAX)
		die("stitch FILE [-r ROUNDS 1..%d] [-w WINDOW_MS] [-o FILE.json]", ROUNDS_MAX);
	load(&s, argv[optind]);
	/*
	 * The decoded postcards, for the stitcher-only figure: kept by a
	 * pass of its own, not timed, so that writing the copy counts in no
	 * figure. Then the decoder alone (no stitcher), ROUNDS rounds.
	 */
	keep.keep_max = s.nr * 64;
	keep.keep = malloc(keep.keep_max * sizeof(*keep.keep));
	if (!keep.keep)
		die("out of memory");
	decode_round(&s, &keep);
	obs = keep.keep;
	nr_obs = keep.kept;
	for (k = 0; k < rounds; k++) {
		struct round r = { 0 };

		drate[k] = decode_round(&s, &r);
		if (r.postcards != nr_obs)
			bad = 1;
	}
	for (k = 0; k < rounds; k++) {
		struct hmc_stitch_cfg sc = { .window_ns = window_ms * 1000000ULL,
					     .max_packets = 1U << 16 };
		struct round r = { 0 };

		if (k == rounds - 1)
			rss0 = rss_kib();
		r.st = hmc_stitch_new(&sc, on_path, &r);
		if (!r.st)
			die("hmc_stitch_new: %s", strerror(errno));
		rate[k] = decode_round(&s, &r);
		if (k == rounds - 1) {
			rss1 = rss_kib();
			total = hmc_stitch_mem(r.st, &per_pkt, &per_flow);
			flows = hmc_stitch_stats(r.st)->flows;
		}
		if (r.complete != r.paths || r.postcards != r.paths * PC_PER_PKT) {
			fprintf(stderr, "pc-bench: round %u: %llu postcards, %llu paths, %llu complete\n",
				k + 1, (unsigned long long)r.postcards, (unsigned long long)r.paths,
				(unsigned long long)r.complete);
			bad = 1;
		}
		last = r;
		hmc_stitch_free(r.st);
	}
	/* The stitcher alone: the same postcards, already decoded. */
	for (k = 0; k < rounds; k++) {
		struct hmc_stitch_cfg sc = { .window_ns = window_ms * 1000000ULL,
					     .max_packets = 1U << 16 };
		struct round r = { 0 };
		size_t i;
		double t;

		r.now_ns = (__u64)time(NULL) * 1000000000ULL;
		r.st = hmc_stitch_new(&sc, on_path, &r);
		if (!r.st)
			die("hmc_stitch_new: %s", strerror(errno));
		t = thread_s();
		for (i = 0; i < nr_obs; i++) {
			r.now_ns += 125;
			hmc_stitch_add(r.st, &obs[i], r.now_ns);
		}
		hmc_stitch_flush(r.st);
		t = thread_s() - t;
		srate[k] = t > 0 ? nr_obs / t : 0;
		if (r.complete != r.paths || nr_obs != r.paths * PC_PER_PKT)
			bad = 1;
		hmc_stitch_free(r.st);
	}
	free(obs);
	qsort(srate, rounds, sizeof(srate[0]), cmp_double);
	smed = rounds % 2 ? srate[rounds / 2] : (srate[rounds / 2 - 1] + srate[rounds / 2]) / 2;
	qsort(drate, rounds, sizeof(drate[0]), cmp_double);
	dmed = rounds % 2 ? drate[rounds / 2] : (drate[rounds / 2 - 1] + drate[rounds / 2]) / 2;
	qsort(rate, rounds, sizeof(rate[0]), cmp_double);
	med = rounds % 2 ? rate[rounds / 2] : (rate[rounds / 2 - 1] + rate[rounds / 2]) / 2;
	uname(&u);
	printf("hopmark-collector decode + stitch, in process: %zu messages, %llu postcards, "
	       "%llu paths (%llu complete), %u rounds\n",
	       s.nr, (unsigned long long)last.postcards, (unsigned long long)last.paths,
	       (unsigned long long)last.complete, rounds);
	printf("  postcards/s per core  median %.2f M  (%.2f..%.2f M)  goal %.0f M: %s\n",
	       med / 1e6, rate[0] / 1e6, rate[rounds - 1] / 1e6, GOAL_PER_CORE / 1e6,
	       med >= GOAL_PER_CORE ? "met" : "not met");
	printf("  the decoder alone (collector/ipfix_in.c, lib/ipfix/ipfix_decode.c)  median %.2f M"
	       "  (%.2f..%.2f M)\n", dmed / 1e6, drate[0] / 1e6, drate[rounds - 1] / 1e6);
	printf("  the stitcher alone (decoded postcards)  median %.2f M  (%.2f..%.2f M)\n",
	       smed / 1e6, srate[0] / 1e6, srate[rounds - 1] / 1e6);
	printf("  stitcher memory: %zu octets in all, %zu per tracked packet, %zu per tracked flow"
	       " (hmc_stitch_mem)\n", total, per_pkt, per_flow);
	printf("  resident set growth over a round: %ld KiB for %llu flows and %llu packets\n",
	       rss1 - rss0, (unsigned long long)flows, (unsigned long long)last.paths);
	if (json) {
		FILE *f = fopen(json, "w");

		if (!f)
			die("%s: %s", json, strerror(errno));
		fprintf(f, "{\"bench\": \"pc-stitch\", \"kernel\": \"%s\", \"messages\": %zu,"
			" \"postcards\": %llu, \"paths\": %llu, \"complete\": %llu, \"rounds\": %u,"
			" \"postcards_per_s_per_core\": {\"median\": %.0f, \"min\": %.0f, \"max\": %.0f},"
			" \"stitch_only_per_s_per_core\": {\"median\": %.0f, \"min\": %.0f,"
			" \"max\": %.0f},"
			" \"decode_only_per_s_per_core\": {\"median\": %.0f, \"min\": %.0f,"
			" \"max\": %.0f},"
			" \"goal\": %.0f, \"met\": %s, \"mem_total\": %zu, \"mem_per_packet\": %zu,"
			" \"mem_per_flow\": %zu, \"flows\": %llu, \"rss_growth_kib\": %ld}\n",
			u.release, s.nr, (unsigned long long)last.postcards,
			(unsigned long long)last.paths, (unsigned long long)last.complete, rounds,
			med, rate[0], rate[rounds - 1], smed, srate[0], srate[rounds - 1],
			dmed, drate[0], drate[rounds - 1], GOAL_PER_CORE,
			med >= GOAL_PER_CORE ? "true" : "false", total, per_pkt, per_flow,
			(unsigned long long)flows, rss1 - rss0);
		fclose(f);
	}
	return bad;
}

/* -------------------------------------------------------------- replay */

static int cmd_replay(int argc, char **argv)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM }, *ai;
	unsigned long rate = 0;
	int fd[NODES], c, err;
	char host[256], *port;
	struct timespec t0, now;
	__u64 bytes = 0;
	struct stream s;
	unsigned int n;
	size_t i;

	while ((c = getopt(argc, argv, "R:")) != -1) {
		switch (c) {
		case 'R': rate = strtoul(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	if (optind + 2 > argc)
		die("replay FILE HOST:PORT [-R MESSAGES_PER_S]");
	load(&s, argv[optind]);
	snprintf(host, sizeof(host), "%s", argv[optind + 1]);
	port = strrchr(host, ':');
	if (!port)
		die("%s: not HOST:PORT", argv[optind + 1]);
	*port++ = 0;
	err = getaddrinfo(host, port, &hints, &ai);
	if (err)
		die("%s: %s", argv[optind + 1], gai_strerror(err));
	for (n = 0; n < NODES; n++) {
		fd[n] = socket(ai->ai_family, SOCK_DGRAM, 0);
		if (fd[n] < 0 || connect(fd[n], ai->ai_addr, ai->ai_addrlen))
			die("socket/connect: %s", strerror(errno));
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < s.nr; i++) {
		if (rate && i % 32 == 0) {
			double due = (double)i / rate, el;

			clock_gettime(CLOCK_MONOTONIC, &now);
			el = (now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9;
			if (due > el)
				usleep((useconds_t)((due - el) * 1e6));
		}
		if (send(fd[s.msgs[i].node - 1], s.msgs[i].data, s.msgs[i].len, 0) < 0 &&
		    errno != ECONNREFUSED)
			die("send: %s", strerror(errno));
		bytes += s.msgs[i].len;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("replay: %zu messages, %llu octets in %.3f s\n", s.nr, (unsigned long long)bytes,
	       (now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9);
	freeaddrinfo(ai);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		die("gen | stitch | replay: see bench/pc_bench.c");
	if (!strcmp(argv[1], "gen"))
		return cmd_gen(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stitch"))
		return cmd_stitch(argc - 1, argv + 1);
	if (!strcmp(argv[1], "replay"))
		return cmd_replay(argc - 1, argv + 1);
	die("%s: not gen, stitch or replay", argv[1]);
	return 2;
}
