// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * broker.c - hopmark-collector's scale-out on NATS JetStream (broker.h,
 * Documentation/collector-scaleout.rst).
 *
 * One stream, HMC_BROKER_STREAM, file storage, subjects "hmpc.<p>" for the
 * P partitions. A front publishes each postcard in its portable encoding
 * (lib/postcard/pc_obs.c) to "hmpc.<hm_flow_hash(key) % P>", with a message
 * ID made of the postcard's identity, so that JetStream drops a postcard
 * published twice within its duplicate window.
 *
 * Partition p has one durable pull consumer "hmc-p<p>" with explicit
 * acknowledgement; worker I of W owns the partitions with p % W == I. A
 * postcard is acknowledged only when the path it belongs to has been
 * emitted and the outputs have flushed it (hmc_broker_commit()), so the
 * consumer's ack floor is a point before which every postcard is in the
 * outputs: Kafka's committed offset. A worker that starts (a replacement of
 * one that died, or the same one restarted) deletes its partitions'
 * consumers and makes them again from their ack floor + 1, so every
 * postcard that was not acknowledged is delivered again, in stream order,
 * with the postcards of its packet that came after it. Those of them that
 * were acknowledged (above the floor) make paths the outputs already hold:
 * the PostgreSQL output's primary key drops and counts them, and the
 * stitcher drops the postcards it already saw.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <nats/nats.h>

#include "collector/broker.h"
#include "select/select.h"

#define PEND_BUCKETS	65536
#define FETCH_BATCH	256

struct pend {
	struct pend		*next;
	struct hm_flow_key	key;
	__u32			pkt_id;
	__u32			n;
	__u32			cap;
	natsMsg			**msgs;
};

/* a packet of the replay that was acknowledged before: one of its postcards is at or below the floor */
struct done {
	struct done		*next;
	struct hm_flow_key	key;
	__u32			pkt_id;
};

#define DONE_BUCKETS	4096

struct part {
	__u32			p;
	natsSubscription	*sub;
	__u64			replay_to;	/* stream seqs up to this were delivered before */
	__u64			floor;		/* the ack floor the replay started from */
	struct done		**done;		/* packets of the replay already in the outputs */
};

struct hmc_broker {
	struct hmc_broker_cfg	cfg;
	natsConnection		*nc;
	jsCtx			*js;
	struct part		parts[HMC_BROKER_MAX_PART];
	__u32			nr_parts;
	struct pend		**pend;		/* postcards of tracked packets */
	natsMsg			**ack;		/* to acknowledge at the next commit */
	size_t			nr_ack;
	size_t			cap_ack;
	__u64			last_pub_ns;	/* publish time of the last postcard consumed */
	int			backlog;	/* more was pending after it */
	struct hmc_broker_stats	st;
};

static __u64 real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void pub_ack(jsCtx *js, natsMsg *msg, jsPubAck *pa, jsPubAckErr *pae, void *arg)
{
	struct hmc_broker *b = arg;

	if (pae) {
		b->st.publish_failed++;
	} else if (pa) {
		b->st.published++;
		if (pa->Duplicate)
			b->st.broker_dups++;
	}
	natsMsg_Destroy(msg);
}

static int ensure_stream(struct hmc_broker *b)
{
	static const char *subj[] = { "hmpc.*" };
	jsStreamInfo *si = NULL;
	jsStreamConfig sc;
	jsErrCode jerr = 0;
	natsStatus s;

	if (js_GetStreamInfo(&si, b->js, HMC_BROKER_STREAM, NULL, &jerr) == NATS_OK) {
		jsStreamInfo_Destroy(si);
		return 0;
	}
	jsStreamConfig_Init(&sc);
	sc.Name = HMC_BROKER_STREAM;
	sc.Subjects = subj;
	sc.SubjectsLen = 1;
	sc.Storage = js_FileStorage;
	sc.Retention = js_LimitsPolicy;
	sc.MaxAge = 3600LL * 1000000000LL;	/* an hour of postcards to replay from */
	sc.Duplicates = 120LL * 1000000000LL;	/* message-ID window */
	s = js_AddStream(&si, b->js, &sc, NULL, &jerr);
	if (s != NATS_OK && jerr != JSStreamNameExistErr) {
		fprintf(stderr, "hopmark-collector: broker: cannot make stream %s: %s (%d)\n",
			HMC_BROKER_STREAM, natsStatus_GetText(s), jerr);
		return -EIO;
	}
	jsStreamInfo_Destroy(si);
	return 0;
}

/* worker: partition @p's consumer again from its ack floor, and subscribe */
static int bind_part(struct hmc_broker *b, struct part *pt)
{
	char subj[32], dur[32];
	jsConsumerInfo *ci = NULL;
	jsSubOptions so;
	jsErrCode jerr = 0;
	__u64 start_ns = 0;
	natsStatus s;

	snprintf(subj, sizeof(subj), "hmpc.%u", pt->p);
	snprintf(dur, sizeof(dur), "hmc-p%u", pt->p);
	if (js_GetConsumerInfo(&ci, b->js, HMC_BROKER_STREAM, dur, NULL, &jerr) == NATS_OK) {
		__u64 floor = ci->AckFloor.Stream;
		natsMsg *fm = NULL;

		pt->replay_to = ci->Delivered.Stream;
		pt->floor = floor;
		jsConsumerInfo_Destroy(ci);
		js_DeleteConsumer(b->js, HMC_BROKER_STREAM, dur, NULL, NULL);
		/*
		 * Replay from two windows before the ack floor's publish time:
		 * acknowledgements are per packet, out of stream order, so
		 * the postcards just above the floor may belong to a packet
		 * whose first postcards are below it (acknowledged with it).
		 * Every packet that has a postcard above the floor has all of
		 * them within a window of it: replayed whole, it is stitched
		 * whole again, and the output drops the path it already holds.
		 */
		if (floor && js_GetMsg(&fm, b->js, HMC_BROKER_STREAM, floor, NULL, NULL) == NATS_OK) {
			__u64 t = (__u64)natsMsg_GetTime(fm);	/* POSIX ns */

			start_ns = t > 2 * b->cfg.window_ns ? t - 2 * b->cfg.window_ns : 1;
			natsMsg_Destroy(fm);
		}
		fprintf(stderr, "hopmark-collector: broker: partition %u: ack floor %llu, "
			"delivered up to %llu; replaying from %s (%llu ns)\n", pt->p,
			(unsigned long long)floor, (unsigned long long)pt->replay_to,
			start_ns ? "two windows before the floor" : "the start",
			(unsigned long long)start_ns);
	}
	jsSubOptions_Init(&so);
	so.Stream = HMC_BROKER_STREAM;
	so.ManualAck = true;
	so.Config.Durable = dur;
	so.Config.FilterSubject = subj;
	so.Config.AckPolicy = js_AckExplicit;
	/* long: acknowledgement is by commit, redelivery is by replay */
	so.Config.AckWait = 300LL * 1000000000LL;
	so.Config.MaxAckPending = 1000000;
	so.Config.DeliverPolicy = start_ns ? js_DeliverByStartTime : js_DeliverAll;
	so.Config.OptStartTime = (int64_t)start_ns;
	s = js_PullSubscribe(&pt->sub, b->js, subj, dur, NULL, &so, &jerr);
	if (s != NATS_OK) {
		fprintf(stderr, "hopmark-collector: broker: partition %u: %s (%d)\n",
			pt->p, natsStatus_GetText(s), jerr);
		return -EIO;
	}
	return 0;
}

struct hmc_broker *hmc_broker_open(const struct hmc_broker_cfg *cfg, int *err)
{
	struct hmc_broker *b;
	jsOptions jo;
	natsStatus s;
	__u32 p;

	*err = -EINVAL;
	if (!cfg->url || !cfg->partitions || cfg->partitions > HMC_BROKER_MAX_PART ||
	    !cfg->workers || cfg->workers > cfg->partitions ||
	    cfg->index < -1 || cfg->index >= (int)cfg->workers) {
		fprintf(stderr, "hopmark-collector: broker: bad partitions / workers / index\n");
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b || !(b->pend = calloc(PEND_BUCKETS, sizeof(*b->pend)))) {
		free(b);
		*err = -ENOMEM;
		return NULL;
	}
	b->cfg = *cfg;
	s = natsConnection_ConnectTo(&b->nc, cfg->url);
	if (s != NATS_OK) {
		fprintf(stderr, "hopmark-collector: broker: cannot connect to %s: %s\n",
			cfg->url, natsStatus_GetText(s));
		*err = -ECONNREFUSED;
		goto fail;
	}
	jsOptions_Init(&jo);
	jo.PublishAsync.MaxPending = 4096;
	jo.PublishAsync.AckHandler = pub_ack;
	jo.PublishAsync.AckHandlerClosure = b;
	*err = -EIO;
	if (natsConnection_JetStream(&b->js, b->nc, &jo) != NATS_OK || ensure_stream(b))
		goto fail;
	if (cfg->index >= 0) {
		for (p = cfg->index; p < cfg->partitions; p += cfg->workers) {
			struct part *pt = &b->parts[b->nr_parts++];

			pt->p = p;
			if (bind_part(b, pt))
				goto fail;
		}
	}
	*err = 0;
	return b;
fail:
	hmc_broker_close(b);
	return NULL;
}

int hmc_broker_publish(struct hmc_broker *b, const struct hm_pc_obs *o)
{
	__u8 buf[HM_PC_OBS_WIRE_LEN];
	char subj[32], id[96];
	jsPubOptions po;
	natsMsg *m = NULL;
	__u32 h = hm_flow_hash(&o->key, b->cfg.seed);

	hm_pc_obs_encode(o, buf, sizeof(buf));
	snprintf(subj, sizeof(subj), "hmpc.%u", h % b->cfg.partitions);
	/* a postcard's identity: flow, packet, node, point, time */
	snprintf(id, sizeof(id), "%08x-%08x-%u-%u-%llu", h, o->pkt_id, o->node_id, o->point,
		 (unsigned long long)o->ts_ns);
	jsPubOptions_Init(&po);
	po.MsgId = id;
	if (natsMsg_Create(&m, subj, NULL, (const char *)buf, sizeof(buf)) != NATS_OK ||
	    js_PublishMsgAsync(b->js, &m, &po) != NATS_OK) {
		natsMsg_Destroy(m);
		b->st.publish_failed++;
		return -EIO;
	}
	return 0;
}

int hmc_broker_sync(struct hmc_broker *b, int timeout_ms)
{
	jsPubOptions po;
	natsStatus s;

	jsPubOptions_Init(&po);
	po.MaxWait = timeout_ms;
	s = js_PublishAsyncComplete(b->js, &po);
	if (s == NATS_TIMEOUT)
		return -ETIMEDOUT;
	return s == NATS_OK ? 0 : -EIO;
}

static __u32 pend_hash(const struct hm_flow_key *k, __u32 pkt_id)
{
	return hm_sel_mix(hm_flow_hash(k, 0), pkt_id) % PEND_BUCKETS;
}

static int key_eq(const struct hm_flow_key *a, const struct hm_flow_key *b)
{
	return a->family == b->family && a->proto == b->proto && a->sport == b->sport &&
	       a->dport == b->dport && !memcmp(a->saddr, b->saddr, 16) &&
	       !memcmp(a->daddr, b->daddr, 16);
}

static int ack_later(struct hmc_broker *b, natsMsg *m)
{
	if (b->nr_ack == b->cap_ack) {
		size_t cap = b->cap_ack ? b->cap_ack * 2 : 4096;
		natsMsg **a = realloc(b->ack, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		b->ack = a;
		b->cap_ack = cap;
	}
	b->ack[b->nr_ack++] = m;
	return 0;
}

/* hold @m until the path of its packet is emitted */
static int hold(struct hmc_broker *b, const struct hm_pc_obs *o, natsMsg *m)
{
	struct pend **pp = &b->pend[pend_hash(&o->key, o->pkt_id)], *e;

	for (e = *pp; e; e = e->next)
		if (e->pkt_id == o->pkt_id && key_eq(&e->key, &o->key))
			break;
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return -ENOMEM;
		e->key = o->key;
		e->pkt_id = o->pkt_id;
		e->next = *pp;
		*pp = e;
	}
	if (e->n == e->cap) {
		__u32 cap = e->cap ? e->cap * 2 : 8;
		natsMsg **a = realloc(e->msgs, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		e->msgs = a;
		e->cap = cap;
	}
	e->msgs[e->n++] = m;
	return 0;
}

/* take back the postcard hold() added last for @o's packet, to acknowledge it now */
static void unhold_last(struct hmc_broker *b, const struct hm_pc_obs *o)
{
	struct pend **pp = &b->pend[pend_hash(&o->key, o->pkt_id)], *e;
	natsMsg *m;

	for (; (e = *pp); pp = &e->next)
		if (e->pkt_id == o->pkt_id && key_eq(&e->key, &o->key))
			break;
	if (!e || !e->n)
		return;
	m = e->msgs[--e->n];
	if (!e->n) {
		*pp = e->next;
		free(e->msgs);
		free(e);
	}
	if (ack_later(b, m)) {
		natsMsg_Destroy(m);
		b->st.ack_failed++;
	}
}

void hmc_broker_emitted(struct hmc_broker *b, const struct hmc_path *p)
{
	struct pend **pp = &b->pend[pend_hash(&p->key, p->pkt_id)], *e;
	__u32 i;

	for (; (e = *pp); pp = &e->next)
		if (e->pkt_id == p->pkt_id && key_eq(&e->key, &p->key))
			break;
	if (!e)
		return;
	*pp = e->next;
	for (i = 0; i < e->n; i++)
		if (ack_later(b, e->msgs[i])) {
			/* not acknowledged: replayed by the next worker, never lost */
			natsMsg_Destroy(e->msgs[i]);
			b->st.ack_failed++;
		}
	free(e->msgs);
	free(e);
}

static void done_free(struct part *pt)
{
	struct done *d, *n;
	__u32 i;

	if (!pt->done)
		return;
	for (i = 0; i < DONE_BUCKETS; i++)
		for (d = pt->done[i]; d; d = n) {
			n = d->next;
			free(d);
		}
	free(pt->done);
	pt->done = NULL;
}

/*
 * Whether a replayed postcard belongs to a packet the outputs already
 * hold. A postcard at or below the ack floor was acknowledged, and a
 * postcard is acknowledged only with its whole packet once that packet's
 * path is in the outputs: its packet is done, and so are its postcards
 * above the floor (they follow it in the stream). The replay starts two
 * windows before the floor and can cut such a packet in two; without this
 * its tail would be stitched again as a path of its own. Unknown (no
 * memory): 0, and the output's key drops what it can.
 */
static int replay_done(struct part *pt, const struct hm_pc_obs *o, __u64 seq)
{
	__u32 h = pend_hash(&o->key, o->pkt_id) % DONE_BUCKETS;
	struct done *d;

	if (!pt->done && seq <= pt->floor)
		pt->done = calloc(DONE_BUCKETS, sizeof(*pt->done));
	if (!pt->done)
		return 0;
	for (d = pt->done[h]; d; d = d->next)
		if (d->pkt_id == o->pkt_id && key_eq(&d->key, &o->key))
			return 1;
	if (seq > pt->floor)
		return 0;
	d = malloc(sizeof(*d));
	if (d) {
		d->key = o->key;
		d->pkt_id = o->pkt_id;
		d->next = pt->done[h];
		pt->done[h] = d;
	}
	return 1;
}

static void consume(struct hmc_broker *b, struct part *pt, natsMsg *m, struct hmc_stitch *s)
{
	jsMsgMetaData *md = NULL;
	struct hm_pc_obs o;
	__u64 ts, seq = 0;

	b->st.received++;
	if (natsMsg_GetMetaData(&md, m) == NATS_OK) {
		seq = md->Sequence.Stream;
		if (md->Sequence.Stream <= pt->replay_to)
			b->st.replayed++;
		b->last_pub_ns = (__u64)md->Timestamp;
		b->backlog = md->NumPending > 0;
		jsMsgMetaData_Destroy(md);
	}
	if (hm_pc_obs_decode(&o, (const __u8 *)natsMsg_GetData(m),
			     (__u32)natsMsg_GetDataLength(m))) {
		b->st.bad++;
		ack_later(b, m) ? natsMsg_Destroy(m) : (void)0;
		return;
	}
	if (seq && seq <= pt->replay_to && replay_done(pt, &o, seq)) {
		b->st.replay_done++;
		ack_later(b, m) ? natsMsg_Destroy(m) : (void)0;
		return;
	}
	if (seq > pt->replay_to)
		done_free(pt);	/* the replay is over: every done packet came before */
	ts = b->backlog ? b->last_pub_ns : real_ns();
	/* held before the add: the add may emit this very packet */
	if (hold(b, &o, m)) {
		natsMsg_Destroy(m);	/* not acknowledged: replayed later */
		b->st.ack_failed++;
		return;
	}
	if (hmc_stitch_add(s, &o, ts) == 1) {
		/*
		 * A duplicate or late postcard: dropped by the stitcher, so
		 * nothing waits for it; acknowledged at the next commit.
		 */
		b->st.stitch_dropped++;
		unhold_last(b, &o);
	}
}

int hmc_broker_poll(struct hmc_broker *b, struct hmc_stitch *s, int timeout_ms)
{
	int total = 0, wait = timeout_ms / (int)(b->nr_parts ? b->nr_parts : 1);
	__u32 i;

	if (wait < 1)
		wait = 1;
	for (i = 0; i < b->nr_parts; i++) {
		natsMsgList l = { 0 };
		natsStatus st;
		int j;

		st = natsSubscription_Fetch(&l, b->parts[i].sub, FETCH_BATCH, wait, NULL);
		if (st == NATS_TIMEOUT)
			continue;
		if (st != NATS_OK) {
			natsMsgList_Destroy(&l);
			return -EIO;
		}
		for (j = 0; j < l.Count; j++) {
			consume(b, &b->parts[i], l.Msgs[j], s);
			l.Msgs[j] = NULL;	/* owned by pend / ack now */
		}
		total += l.Count;
		natsMsgList_Destroy(&l);
	}
	return total;
}

__u64 hmc_broker_now(const struct hmc_broker *b)
{
	return b->backlog ? b->last_pub_ns : real_ns();
}

int hmc_broker_commit(struct hmc_broker *b)
{
	size_t i, n = b->nr_ack;

	for (i = 0; i < n; i++) {
		if (natsMsg_Ack(b->ack[i], NULL) == NATS_OK)
			b->st.acked++;
		else
			b->st.ack_failed++;
		natsMsg_Destroy(b->ack[i]);
	}
	b->nr_ack = 0;
	if (n)
		natsConnection_Flush(b->nc);
	return (int)n;
}

const struct hmc_broker_stats *hmc_broker_stats(const struct hmc_broker *b)
{
	return &b->st;
}

void hmc_broker_close(struct hmc_broker *b)
{
	__u32 i;
	size_t k;

	if (!b)
		return;
	if (b->js)
		fprintf(stderr, "hopmark-collector: broker: received %llu replayed %llu bad %llu "
			"stitch_dropped %llu replay_done %llu acked %llu ack_failed %llu published %llu "
			"publish_failed %llu broker_dups %llu\n",
			(unsigned long long)b->st.received, (unsigned long long)b->st.replayed,
			(unsigned long long)b->st.bad, (unsigned long long)b->st.stitch_dropped,
			(unsigned long long)b->st.replay_done,
			(unsigned long long)b->st.acked, (unsigned long long)b->st.ack_failed,
			(unsigned long long)b->st.published, (unsigned long long)b->st.publish_failed,
			(unsigned long long)b->st.broker_dups);
	for (i = 0; i < b->nr_parts; i++) {
		natsSubscription_Destroy(b->parts[i].sub);
		done_free(&b->parts[i]);
	}
	for (k = 0; b->pend && k < PEND_BUCKETS; k++) {
		struct pend *e = b->pend[k], *n;

		for (; e; e = n) {
			n = e->next;
			for (i = 0; i < e->n; i++)
				natsMsg_Destroy(e->msgs[i]);
			free(e->msgs);
			free(e);
		}
	}
	for (k = 0; k < b->nr_ack; k++)
		natsMsg_Destroy(b->ack[k]);
	free(b->ack);
	free(b->pend);
	if (b->js)
		jsCtx_Destroy(b->js);
	if (b->nc)
		natsConnection_Destroy(b->nc);
	free(b);
}
