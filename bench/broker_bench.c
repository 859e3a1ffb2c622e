// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * broker_bench.c - how fast a broker takes and hands out hopmark-collector's
 * postcards: N postcards in the portable encoding (HM_PC_OBS_WIRE_LEN
 * octets, lib/postcard/pc_obs.c), spread over P partitions by
 * hm_flow_hash() of 1000 flows, published with the broker's confirmation
 * (every publish confirmed before the clock stops), then consumed from
 * every partition with one acknowledgement per postcard. What
 * Documentation/collector-scaleout.rst compares to choose the broker.
 *
 *   broker-bench nats URL [N [P]]          NATS JetStream (file storage)
 *   broker-bench amqp HOST:PORT [N [P]]    RabbitMQ, consistent-hash exchange
 *                                          (built when librabbitmq-dev is)
 *
 * Prints one line per phase: "<broker> publish N msgs S s R msg/s" and
 * "<broker> consume ...". bench/broker_bench.sh starts each server, times
 * its start-up and runs this.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nats/nats.h>
#ifdef HM_WITH_AMQP
#include <amqp.h>
#include <amqp_tcp_socket.h>
#endif

#include "postcard/pc_obs.h"
#include "select/select.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* postcard @i: flow i % 1000, packet i / 5, node i % 5 + 1 */
static __u32 make_pc(__u32 i, __u8 *buf)
{
	struct hm_pc_obs o;

	memset(&o, 0, sizeof(o));
	o.key.family = 4;
	o.key.proto = 17;
	o.key.saddr[0] = 10;
	o.key.saddr[3] = 1;
	o.key.daddr[0] = 10;
	o.key.daddr[3] = 2;
	o.key.sport = (__be16)(i % 1000 + 1024);
	o.key.dport = 4791;
	o.pkt_id = i / 5;
	o.node_id = i % 5 + 1;
	o.point = 1;
	o.ttl = 64 - i % 5;
	o.ts_ns = 1700000000000000000ULL + i;
	o.present = HM_PC_HAS_TTL;
	hm_pc_obs_encode(&o, buf, HM_PC_OBS_WIRE_LEN);
	return hm_flow_hash(&o.key, 0);
}

static void report(const char *b, const char *what, long n, double s)
{
	printf("%s %s %ld msgs %.3f s %.0f msg/s\n", b, what, n, s, n / s);
	fflush(stdout);
}

static int nats_bench(const char *url, long n, int p)
{
	natsConnection *nc = NULL;
	jsCtx *js = NULL;
	jsOptions jo;
	jsStreamConfig sc;
	jsErrCode jerr = 0;
	const char *subj[] = { "hmb.>" };
	__u8 buf[HM_PC_OBS_WIRE_LEN];
	char s[32];
	double t0;
	long i, got = 0;
	int k;

	if (natsConnection_ConnectTo(&nc, url) != NATS_OK ||
	    jsOptions_Init(&jo) != NATS_OK)
		return fprintf(stderr, "nats: cannot connect to %s\n", url), 1;
	jo.PublishAsync.MaxPending = 4096;
	if (natsConnection_JetStream(&js, nc, &jo) != NATS_OK)
		return fprintf(stderr, "nats: no JetStream\n"), 1;
	jsStreamConfig_Init(&sc);
	sc.Name = "HMB";
	sc.Subjects = subj;
	sc.SubjectsLen = 1;
	sc.Storage = js_FileStorage;
	js_DeleteStream(js, "HMB", NULL, NULL);
	if (js_AddStream(NULL, js, &sc, NULL, &jerr) != NATS_OK)
		return fprintf(stderr, "nats: add stream: %d\n", jerr), 1;
	t0 = now_s();
	for (i = 0; i < n; i++) {
		__u32 h = make_pc(i, buf);

		snprintf(s, sizeof(s), "hmb.%u", h % p);
		if (js_PublishAsync(js, s, buf, sizeof(buf), NULL) != NATS_OK)
			return fprintf(stderr, "nats: publish failed\n"), 1;
	}
	if (js_PublishAsyncComplete(js, NULL) != NATS_OK)
		return fprintf(stderr, "nats: publish not confirmed\n"), 1;
	report("nats", "publish", n, now_s() - t0);

	t0 = now_s();
	for (k = 0; k < p; k++) {
		natsSubscription *sub = NULL;
		jsSubOptions so;
		char dur[16];

		jsSubOptions_Init(&so);
		so.Config.AckPolicy = js_AckExplicit;
		so.Config.MaxAckPending = 65536;
		snprintf(s, sizeof(s), "hmb.%d", k);
		snprintf(dur, sizeof(dur), "b%d", k);
		if (js_PullSubscribe(&sub, js, s, dur, NULL, &so, &jerr) != NATS_OK)
			return fprintf(stderr, "nats: pull subscribe: %d\n", jerr), 1;
		for (;;) {
			natsMsgList l = { 0 };
			int j;

			if (natsSubscription_Fetch(&l, sub, 512, 500, NULL) != NATS_OK)
				break;
			for (j = 0; j < l.Count; j++)
				natsMsg_Ack(l.Msgs[j], NULL);
			got += l.Count;
			natsMsgList_Destroy(&l);
		}
		natsConnection_Flush(nc);
		natsSubscription_Destroy(sub);
	}
	/* the last Fetch of each partition waits 500 ms for nothing */
	report("nats", "consume", got, now_s() - t0 - p * 0.5);
	jsCtx_Destroy(js);
	natsConnection_Destroy(nc);
	return got == n ? 0 : (fprintf(stderr, "nats: consumed %ld of %ld\n", got, n), 1);
}

#ifdef HM_WITH_AMQP
static int amqp_ok(amqp_rpc_reply_t r, const char *what)
{
	if (r.reply_type == AMQP_RESPONSE_NORMAL)
		return 1;
	fprintf(stderr, "amqp: %s failed (%d)\n", what, r.reply_type);
	return 0;
}

static int amqp_bench(const char *hostport, long n, int p)
{
	amqp_connection_state_t c = amqp_new_connection();
	amqp_socket_t *sock = amqp_tcp_socket_new(c);
	amqp_basic_properties_t props;
	amqp_table_entry_t arg;
	amqp_table_t args = { 0, NULL };
	char host[64], *colon, q[16], key[16];
	__u8 buf[HM_PC_OBS_WIRE_LEN];
	long i, acked = 0, got = 0;
	double t0;
	int k;

	snprintf(host, sizeof(host), "%s", hostport);
	colon = strchr(host, ':');
	if (!colon)
		return fprintf(stderr, "amqp: HOST:PORT\n"), 1;
	*colon = 0;
	if (amqp_socket_open(sock, host, atoi(colon + 1)))
		return fprintf(stderr, "amqp: cannot connect to %s\n", hostport), 1;
	if (!amqp_ok(amqp_login(c, "/", 0, 131072, 0, AMQP_SASL_METHOD_PLAIN,
				"guest", "guest"), "login"))
		return 1;
	amqp_channel_open(c, 1);
	if (!amqp_ok(amqp_get_rpc_reply(c), "channel"))
		return 1;
	amqp_exchange_declare(c, 1, amqp_cstring_bytes("hmb"),
			      amqp_cstring_bytes("x-consistent-hash"), 0, 1, 0, 0, args);
	if (!amqp_ok(amqp_get_rpc_reply(c), "exchange.declare"))
		return 1;
	(void)arg;
	for (k = 0; k < p; k++) {
		snprintf(q, sizeof(q), "hmb%d", k);
		amqp_queue_declare(c, 1, amqp_cstring_bytes(q), 0, 1, 0, 0, args);
		amqp_queue_purge(c, 1, amqp_cstring_bytes(q));
		/* consistent-hash: the binding key is the queue's weight */
		amqp_queue_bind(c, 1, amqp_cstring_bytes(q), amqp_cstring_bytes("hmb"),
				amqp_cstring_bytes("1"), args);
		if (!amqp_ok(amqp_get_rpc_reply(c), "queue"))
			return 1;
	}
	amqp_confirm_select(c, 1);
	if (!amqp_ok(amqp_get_rpc_reply(c), "confirm.select"))
		return 1;
	memset(&props, 0, sizeof(props));
	props._flags = AMQP_BASIC_DELIVERY_MODE_FLAG;
	props.delivery_mode = 2;	/* persistent, as JetStream's file storage */
	t0 = now_s();
	for (i = 0; i < n; i++) {
		__u32 h = make_pc(i, buf);
		amqp_bytes_t body = { sizeof(buf), buf };

		snprintf(key, sizeof(key), "%u", h);
		if (amqp_basic_publish(c, 1, amqp_cstring_bytes("hmb"), amqp_cstring_bytes(key),
				       0, 0, &props, body))
			return fprintf(stderr, "amqp: publish failed\n"), 1;
		/* at most 4096 unconfirmed, as NATS's MaxPending above */
		while (i + 1 - acked > 4096 || (i + 1 == n && acked < n)) {
			amqp_frame_t f;
			struct timeval tv = { 10, 0 };

			/* a stalled confirm stream fails the run instead of hanging it */
			if (amqp_simple_wait_frame_noblock(c, &f, &tv))
				return fprintf(stderr, "amqp: no confirm within 10 s after %ld of %ld\n",
					       acked, i + 1), 1;
			if (f.frame_type == AMQP_FRAME_METHOD &&
			    f.payload.method.id == AMQP_BASIC_ACK_METHOD) {
				amqp_basic_ack_t *a = f.payload.method.decoded;

				acked = a->multiple ? (long)a->delivery_tag : acked + 1;
			}
		}
	}
	report("amqp", "publish", n, now_s() - t0);

	amqp_basic_qos(c, 1, 0, 512, 0);
	for (k = 0; k < p; k++) {
		snprintf(q, sizeof(q), "hmb%d", k);
		amqp_basic_consume(c, 1, amqp_cstring_bytes(q), amqp_empty_bytes, 0, 0, 0, args);
		if (!amqp_ok(amqp_get_rpc_reply(c), "basic.consume"))
			return 1;
	}
	t0 = now_s();
	while (got < n) {
		amqp_envelope_t e;
		struct timeval tv = { 2, 0 };

		amqp_maybe_release_buffers(c);
		if (!amqp_ok(amqp_consume_message(c, &e, &tv, 0), "consume"))
			break;
		amqp_basic_ack(c, 1, e.delivery_tag, 0);
		amqp_destroy_envelope(&e);
		got++;
	}
	report("amqp", "consume", got, now_s() - t0);
	amqp_channel_close(c, 1, AMQP_REPLY_SUCCESS);
	amqp_connection_close(c, AMQP_REPLY_SUCCESS);
	amqp_destroy_connection(c);
	return got == n ? 0 : (fprintf(stderr, "amqp: consumed %ld of %ld\n", got, n), 1);
}
#endif

int main(int argc, char **argv)
{
	long n = argc > 3 ? atol(argv[3]) : 200000;
	int p = argc > 4 ? atoi(argv[4]) : 3;

	if (argc < 3 || n <= 0 || p <= 0) {
		fprintf(stderr, "usage: broker-bench { nats URL | amqp HOST:PORT } [N [P]]\n");
		return 2;
	}
	if (!strcmp(argv[1], "nats"))
		return nats_bench(argv[2], n, p);
#ifdef HM_WITH_AMQP
	if (!strcmp(argv[1], "amqp"))
		return amqp_bench(argv[2], n, p);
#endif
	fprintf(stderr, "broker-bench: unknown or not built: %s\n", argv[1]);
	return 2;
}
