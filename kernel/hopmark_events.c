// SPDX-License-Identifier: GPL-2.0-only
/*
 * hopmark_events.c - event export on the "events" multicast group
 *
 * Postcard-type events (IOAM Direct Export, RFC 9326 §3; SRH O-flag, RFC
 * 9259 §2; E2E and Incremental Trace sinks, RFC 9197 §4.6 and §4.4) leave
 * the node batched: records accumulate in one HOPMARK_CMD_EVENT message per
 * network namespace, sent when it holds batch_size records, when the next
 * record does not fit, or flush_ms after its first record. Never one message
 * per packet at a high rate.
 *
 * Each IOAM-Namespace has a token bucket (rate events/s, burst one second);
 * events without a namespace use the netns default bucket. Every record that
 * is produced but not sent is counted exactly once, by reason.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <net/genetlink.h>

#include "hopmark.h"

/* Bytes of one EVENT message: room for about 16 records with headers. */
#define HM_EVENT_MSG_BYTES	(16 * 1024 - 512)

/**
 * hm_ratelimit_init() - set up a token bucket, full
 * @rl: the bucket
 * @rate: events per second, 0 = no limit
 */
void hm_ratelimit_init(struct hm_ratelimit *rl, u32 rate)
{
	spin_lock_init(&rl->lock);
	rl->rate = rate;
	rl->tokens = (u64)rate * NSEC_PER_SEC;
	rl->last_ns = ktime_get_ns();
}

/**
 * hm_ratelimit_set() - change a bucket's rate; the bucket restarts full
 * @rl: the bucket
 * @rate: events per second, 0 = no limit
 *
 * Context: process; takes @rl->lock with bottom halves off.
 */
void hm_ratelimit_set(struct hm_ratelimit *rl, u32 rate)
{
	spin_lock_bh(&rl->lock);
	WRITE_ONCE(rl->rate, rate);
	rl->tokens = (u64)rate * NSEC_PER_SEC;
	rl->last_ns = ktime_get_ns();
	spin_unlock_bh(&rl->lock);
}

/**
 * hm_ratelimit_allow() - take one event from a bucket
 * @rl: the bucket
 *
 * Tokens are kept in units of 1/NSEC_PER_SEC event, so a refill of
 * elapsed_ns * rate is exact; the bucket holds at most rate events.
 *
 * Return: true when the event may be sent.
 */
static bool hm_ratelimit_allow(struct hm_ratelimit *rl)
{
	u64 now, elapsed, cap;
	bool ok = false;

	if (!READ_ONCE(rl->rate))
		return true;
	spin_lock_bh(&rl->lock);
	if (!rl->rate) {
		ok = true;
		goto out;
	}
	now = ktime_get_ns();
	cap = (u64)rl->rate * NSEC_PER_SEC;
	/* One second refills the whole bucket; clamp so the product
	 * cannot overflow (rate <= 1e7, 1e7 * 1e9 < 2^64).
	 */
	elapsed = min_t(u64, now - rl->last_ns, NSEC_PER_SEC);
	rl->last_ns = now;
	rl->tokens = min_t(u64, rl->tokens + elapsed * rl->rate, cap);
	if (rl->tokens >= NSEC_PER_SEC) {
		rl->tokens -= NSEC_PER_SEC;
		ok = true;
	}
out:
	spin_unlock_bh(&rl->lock);
	return ok;
}

/**
 * hm_count_ev() - count records of the netns
 * @hn: per-netns state
 * @cnt: HOPMARK_CNT_EV_*
 * @n: records
 */
static void hm_count_ev(struct hopmark_net *hn, int cnt, u32 n)
{
	this_cpu_add(hn->stats->cnt[cnt], n);
}

/**
 * hm_events_send() - multicast a finished EVENT message and count the result
 * @hn: per-netns state
 * @skb: the message (consumed)
 * @hdr: its genetlink header
 * @records: records in it
 *
 * Context: any but hard IRQ; allocations are GFP_ATOMIC.
 */
static void hm_events_send(struct hopmark_net *hn, struct sk_buff *skb,
			   void *hdr, u32 records)
{
	int err;

	genlmsg_end(skb, hdr);
	err = genlmsg_multicast_netns(&hm_genl_family, hn->net, skb, 0,
				      HM_MCGRP_EVENTS, GFP_ATOMIC);
	if (!err) {
		hm_count_ev(hn, HOPMARK_CNT_EV_SENT, records);
		hm_count_ev(hn, HOPMARK_CNT_EV_MESSAGES, 1);
	} else if (err == -ESRCH) {
		/* The last listener left while the batch was filling. */
		hm_count_ev(hn, HOPMARK_CNT_EV_NO_LISTENER, records);
	} else {
		hm_count_ev(hn, HOPMARK_CNT_EV_SEND_ERR, records);
	}
}

/**
 * hm_batch_detach() - take the message being filled, if any
 * @b: the batch, locked
 * @hdr: set to the message's genetlink header
 * @records: set to its record count
 *
 * Return: the message or NULL; the batch is empty afterwards.
 */
static struct sk_buff *hm_batch_detach(struct hm_batch *b, void **hdr,
				       u32 *records)
{
	struct sk_buff *skb = b->skb;

	*hdr = b->hdr;
	*records = b->records;
	b->skb = NULL;
	b->hdr = NULL;
	b->records = 0;
	return skb;
}

/**
 * hm_batch_timer() - send a partial batch flush_ms after its first record
 * @t: hm_batch.timer
 */
static void hm_batch_timer(struct timer_list *t)
{
	struct hm_batch *b = from_timer(b, t, timer);
	struct hopmark_net *hn = container_of(b, struct hopmark_net, batch);
	struct sk_buff *skb;
	u32 records;
	void *hdr;

	spin_lock_bh(&b->lock);
	skb = hm_batch_detach(b, &hdr, &records);
	spin_unlock_bh(&b->lock);
	if (skb)
		hm_events_send(hn, skb, hdr, records);
}

/**
 * hm_events_flush() - send the pending batch now
 * @hn: per-netns state
 *
 * Used when the export settings change, so records queued under the old
 * settings leave with them.
 */
void hm_events_flush(struct hopmark_net *hn)
{
	struct sk_buff *skb;
	u32 records;
	void *hdr;

	spin_lock_bh(&hn->batch.lock);
	skb = hm_batch_detach(&hn->batch, &hdr, &records);
	spin_unlock_bh(&hn->batch.lock);
	if (skb)
		hm_events_send(hn, skb, hdr, records);
}

/**
 * hm_record_put() - append one record to an EVENT message
 * @skb: the message
 * @ev: the record
 * @tstamp_ns: POSIX time in ns
 *
 * HEADERS gets at most HOPMARK_REC_HEADERS_MAX bytes of the packet from its
 * network header; NODE_DATA and OPTION are truncated to their maxima.
 *
 * Return: 0, or -EMSGSIZE when the record does not fit (nothing added).
 */
static int hm_record_put(struct sk_buff *skb, const struct hm_event *ev,
			 u64 tstamp_ns)
{
	struct nlattr *rec, *a;
	int hlen;

	rec = nla_nest_start(skb, HOPMARK_ATTR_RECORD);
	if (!rec)
		return -EMSGSIZE;
	if (nla_put_u8(skb, HOPMARK_REC_ATTR_TYPE, ev->type) ||
	    nla_put_u64_64bit(skb, HOPMARK_REC_ATTR_TIMESTAMP, tstamp_ns,
			      HOPMARK_REC_ATTR_PAD) ||
	    (ev->ifindex > 0 &&
	     nla_put_u32(skb, HOPMARK_REC_ATTR_IFINDEX, ev->ifindex)) ||
	    ((ev->flags & HM_EV_F_NS) &&
	     nla_put_u16(skb, HOPMARK_REC_ATTR_NS_ID, ev->ns_id)) ||
	    ((ev->flags & HM_EV_F_FLOW_ID) &&
	     nla_put_u32(skb, HOPMARK_REC_ATTR_FLOW_ID, ev->flow_id)) ||
	    ((ev->flags & HM_EV_F_SEQ) &&
	     nla_put_u32(skb, HOPMARK_REC_ATTR_SEQ, ev->seq)) ||
	    ((ev->flags & HM_EV_F_TRACE_TYPE) &&
	     nla_put_u32(skb, HOPMARK_REC_ATTR_TRACE_TYPE,
			 ev->trace_type & HOPMARK_TRACE_TYPE_MAX)) ||
	    (ev->node_data && ev->node_data_len &&
	     nla_put(skb, HOPMARK_REC_ATTR_NODE_DATA,
		     min_t(u16, ev->node_data_len, HOPMARK_REC_NODE_DATA_MAX),
		     ev->node_data)) ||
	    (ev->option && ev->option_len &&
	     nla_put(skb, HOPMARK_REC_ATTR_OPTION,
		     min_t(u16, ev->option_len, HOPMARK_REC_OPTION_MAX),
		     ev->option)))
		goto cancel;

	if (ev->skb && skb_network_offset(ev->skb) >= 0) {
		int avail = ev->skb->len - skb_network_offset(ev->skb);

		if (avail > 0) {
			hlen = min(avail, HOPMARK_REC_HEADERS_MAX);
			a = nla_reserve(skb, HOPMARK_REC_ATTR_HEADERS, hlen);
			if (!a)
				goto cancel;
			if (skb_copy_bits(ev->skb, skb_network_offset(ev->skb),
					  nla_data(a), hlen))
				goto cancel;
			if (nla_put_u32(skb, HOPMARK_REC_ATTR_PKT_LEN, avail))
				goto cancel;
		}
	}
	nla_nest_end(skb, rec);
	return 0;

cancel:
	nla_nest_cancel(skb, rec);
	return -EMSGSIZE;
}

/**
 * hm_batch_open() - start a new EVENT message in an empty batch
 * @b: the batch, locked and empty
 *
 * Return: 0 or -ENOMEM.
 */
static int hm_batch_open(struct hm_batch *b)
{
	b->skb = genlmsg_new(HM_EVENT_MSG_BYTES, GFP_ATOMIC);
	if (!b->skb)
		return -ENOMEM;
	b->hdr = genlmsg_put(b->skb, 0, 0, &hm_genl_family, 0,
			     HOPMARK_CMD_EVENT);
	if (!b->hdr) {
		kfree_skb(b->skb);
		b->skb = NULL;
		return -ENOMEM;
	}
	b->records = 0;
	return 0;
}

int hm_event_queue(struct hopmark_net *hn, const struct hm_event *ev)
{
	struct hm_ratelimit *rl = &hn->rl_default;
	struct sk_buff *full = NULL;
	struct hm_batch *b = &hn->batch;
	struct hm_ns *ns = NULL;
	u32 full_records = 0;
	void *full_hdr = NULL;
	u64 tstamp_ns;
	int err;

	if (WARN_ON_ONCE(ev->type == HOPMARK_EVENT_UNSPEC ||
			 ev->type > HOPMARK_EVENT_MAX))
		return -EINVAL;

	if (!genl_has_listeners(&hm_genl_family, hn->net, HM_MCGRP_EVENTS)) {
		hm_count_ev(hn, HOPMARK_CNT_EV_NO_LISTENER, 1);
		return -ENOTCONN;
	}

	if (ev->flags & HM_EV_F_NS) {
		ns = hm_ns_lookup_rcu(hn, ev->ns_id);
		if (ns)
			rl = &ns->rl;
	}
	if (!hm_ratelimit_allow(rl)) {
		hm_count_ev(hn, HOPMARK_CNT_EV_RATE_LIMITED, 1);
		if (ns)
			atomic64_inc(&ns->ev_rate_limited);
		return -EBUSY;
	}

	tstamp_ns = ev->tstamp_ns ?: ktime_get_real_ns();

	spin_lock_bh(&b->lock);
	if (b->dying) {
		err = -ENOTCONN;
		goto out_unlock;
	}
	if (!b->skb) {
		err = hm_batch_open(b);
		if (err)
			goto out_unlock;
	}
	err = hm_record_put(b->skb, ev, tstamp_ns);
	if (err && b->records) {
		/* Full by size: send what is there, start a new message. */
		full = hm_batch_detach(b, &full_hdr, &full_records);
		err = hm_batch_open(b);
		if (!err)
			err = hm_record_put(b->skb, ev, tstamp_ns);
	}
	if (err) {
		/* Cannot happen with the maxima of a record (< 1 KiB); a
		 * record that fits no message is still counted.
		 */
		err = -ENOMEM;
		goto out_unlock;
	}
	b->records++;
	if (b->records == 1)
		mod_timer(&b->timer,
			  jiffies + msecs_to_jiffies(READ_ONCE(hn->flush_ms)));
	if (b->records >= READ_ONCE(hn->batch_size)) {
		if (full) {
			/* Two to send: the first now, under no lock. */
			spin_unlock_bh(&b->lock);
			hm_events_send(hn, full, full_hdr, full_records);
			spin_lock_bh(&b->lock);
		}
		full = hm_batch_detach(b, &full_hdr, &full_records);
	}
	spin_unlock_bh(&b->lock);

	hm_count_ev(hn, HOPMARK_CNT_EV_QUEUED, 1);
	if (ns)
		atomic64_inc(&ns->ev_queued);
	if (full)
		hm_events_send(hn, full, full_hdr, full_records);
	return 0;

out_unlock:
	spin_unlock_bh(&b->lock);
	if (full)
		hm_events_send(hn, full, full_hdr, full_records);
	hm_count_ev(hn, err == -ENOTCONN ? HOPMARK_CNT_EV_NO_LISTENER :
		    HOPMARK_CNT_EV_NOMEM, 1);
	return err;
}

/**
 * hm_events_net_init() - set up a netns's batch
 * @hn: per-netns state
 */
void hm_events_net_init(struct hopmark_net *hn)
{
	spin_lock_init(&hn->batch.lock);
	timer_setup(&hn->batch.timer, hm_batch_timer, 0);
	hn->batch.skb = NULL;
	hn->batch.records = 0;
	hn->batch.dying = false;
}

/**
 * hm_events_net_exit() - stop a netns's batch, dropping what is pending
 * @hn: per-netns state
 *
 * Idempotent: runs from hm_events_stop_all() at module unload and again
 * from the netns exit.
 */
void hm_events_net_exit(struct hopmark_net *hn)
{
	struct sk_buff *skb;
	u32 records;
	void *hdr;

	spin_lock_bh(&hn->batch.lock);
	hn->batch.dying = true;
	skb = hm_batch_detach(&hn->batch, &hdr, &records);
	spin_unlock_bh(&hn->batch.lock);
	timer_shutdown_sync(&hn->batch.timer);
	kfree_skb(skb);
}

/**
 * hm_events_stop_all() - stop every netns's batch (module unload)
 *
 * After the datapath is gone no record is queued; a timer may still be
 * armed and must not fire once the genetlink family is unregistered.
 */
void hm_events_stop_all(void)
{
	struct net *net;

	rcu_read_lock();
	for_each_net_rcu(net)
		hm_events_net_exit(hm_pernet(net));
	rcu_read_unlock();
}
