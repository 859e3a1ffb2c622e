// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_decap.c - hm_decap (tc ingress) under BPF_PROG_TEST_RUN.
 *
 * On an interface with HM_IF_F_DECAP, a Pre-allocated Trace of a known
 * IOAM-Namespace is reported on hopmark_events (struct
 * hopmark_ioam_record) and what the domain added is removed: the whole
 * Hop-by-Hop header when it held only the IOAM option and padding,
 * otherwise only the option (other options stay, header padded to 8n),
 * so that nothing of the domain leaves it (RFC 9197 §5.1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <linux/pkt_cls.h>

#include "hopmark.h"
#include "bpf_test.h"

#define TC_PASS_RC	((__u32)TC_ACT_UNSPEC)	/* passed on, tc chain left open */
#define HLIM_AT_B	60

static void decap_cfg(void)
{
	hm_set_ifcfg(env.if_in, HM_IF_F_DECAP, HM_T_IN_ID, HM_T_IN_ID_WIDE);
}

/* The frame as the sender sent it: IPv6, [SRH], UDP or TCP. */
static void dec_plain(struct pkt *p, __u8 l4, bool srh)
{
	pkt_init(p);
	pkt_eth(p, 0x86dd);
	pkt_ipv6(p, srh ? HM_NH_ROUTING : l4, HLIM_AT_B, NULL);
	if (srh)
		pkt_srh(p, l4, 2);
	if (l4 == HM_NH_TCP)
		pkt_tcp(p, 40001, 5201, 48);
	else
		pkt_udp(p, 40000, 5001, 48);
	pkt_finish(p);
}

/* The same frame with a full 4-node trace as it arrives at B. */
static size_t dec_traced(struct pkt *p, const struct pkt *plain, const struct trace_spec *ts)
{
	size_t hbh, opt;

	pkt_init(p);
	pkt_put(p, plain->b, HM_EXT_OFF);
	p->b[HM_IP6_OFF + 6] = HM_NH_HBH;
	hbh = hbh_begin(p, plain->b[HM_IP6_OFF + 6]);
	opt_padn(p, 2);
	opt = opt_ioam(p, ts);
	hbh_end(p, hbh);
	pkt_put(p, plain->b + HM_EXT_OFF, plain->len - HM_EXT_OFF);
	hm_put_be16(p->b + HM_IP6_OFF + 4, p->len - HM_EXT_OFF);
	return opt;
}

/* Check one ring buffer record against the packet it came from. */
static void check_record(const struct hopmark_ioam_record *rec, const struct hm_run *r,
			 const __u8 *opt, const struct pkt *plain, __u8 l4, __u16 sport,
			 __u16 dport, unsigned int nodes)
{
	size_t opt_len = 2 + opt[1];
	struct hm_record *dec;
	int rc;

	hm_check(rec->rx_ns + 1000 >= r->t0 && rec->rx_ns <= r->t1,
		 "record rx_ns: expected in [%llu, %llu], got %llu",
		 (unsigned long long)r->t0, (unsigned long long)r->t1,
		 (unsigned long long)rec->rx_ns);
	CHECK_EQ("record ifindex", env.if_in, rec->ifindex);
	CHECK_EQ("record if_id", HM_T_IN_ID, rec->if_id);
	CHECK_EQ("record opt_len", opt_len, rec->opt_len);
	CHECK_EQ("record payload_len", plain->len - HM_EXT_OFF, rec->payload_len);
	CHECK_EQ("record hop_limit", HLIM_AT_B, rec->hop_limit);
	CHECK_EQ("record proto", l4, rec->proto);
	CHECK_EQ("record flow_label", HM_T_FLOW_LABEL, rec->flow_label);
	CHECK_EQ("record sport", sport, rec->sport);
	CHECK_EQ("record dport", dport, rec->dport);
	hm_check_bytes("record saddr", hm_addr_src, 16, rec->saddr, 16);
	hm_check_bytes("record daddr", hm_addr_dst, 16, rec->daddr, 16);
	hm_check_bytes("record opt", opt, opt_len, rec->opt,
		       rec->opt_len <= HM_RECORD_OPT_MAX ? rec->opt_len : HM_RECORD_OPT_MAX);

	dec = calloc(1, sizeof(*dec));
	if (!dec)
		return;
	rc = hm_record_from_ring(rec, sizeof(*rec), 5, dec);
	if (CHECK_EQ("hm_record_from_ring()", 0, rc)) {
		CHECK_EQ("decoded namespace", HM_T_NS, dec->trace.ns_id);
		CHECK_EQ("decoded node entries", nodes, dec->trace.n_nodes);
	}
	free(dec);
}

static void dec_check_removed(const struct pkt *in, size_t opt, const struct pkt *plain,
			      __u8 l4, __u16 sport, __u16 dport, unsigned int nodes)
{
	struct hopmark_ioam_record recs[2];
	struct hm_counters before;
	struct hm_run r;
	int n;

	hm_counters_read(env.if_in, &before);
	if (!hm_run_tc(env.prog_decap, env.if_in, env.if_in, in->b, in->len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	hm_check_bytes("frame", plain->b, plain->len, r.out, r.out_len);
	hm_check_counters(env.if_in, &before, HM_BIT(HM_CNT_DECAP_OK), 0);
	n = hm_events_consume(recs, 2);
	if (CHECK_EQ("ring buffer records", 1, n))
		check_record(&recs[0], &r, in->b + opt, plain, l4, sport, dport, nodes);
}

static void t_dec_only_ours(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt plain, in;
	size_t opt;

	decap_cfg();
	dec_plain(&plain, t->arg, false);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	opt = dec_traced(&in, &plain, &ts);
	if (t->arg == HM_NH_TCP)
		dec_check_removed(&in, opt, &plain, HM_NH_TCP, 40001, 5201, 4);
	else
		dec_check_removed(&in, opt, &plain, HM_NH_UDP, 40000, 5001, 4);
}

/* Largest trace (244-byte data area): the whole 256-byte option is reported. */
static void t_dec_largest(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt plain, in;
	size_t opt;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, false);
	trace_init(&ts, HM_T_NS, HM_IOAM_TT_HOPLIM_NODEID, 61, 61);
	opt = dec_traced(&in, &plain, &ts);
	dec_check_removed(&in, opt, &plain, HM_NH_UDP, 40000, 5001, 61);
}

static void t_dec_srh(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt plain, in;
	size_t opt;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, true);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	opt = dec_traced(&in, &plain, &ts);
	dec_check_removed(&in, opt, &plain, HM_NH_UDP, 40000, 5001, 4);
}

static void t_dec_overflowed(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt plain, in;
	size_t opt;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, false);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	ts.flags = HM_IOAM_TRACE_F_OVERFLOW;
	opt = dec_traced(&in, &plain, &ts);
	dec_check_removed(&in, opt, &plain, HM_NH_UDP, 40000, 5001, 4);
}

/*
 * Hop-by-Hop header with a Router Alert besides our option (before it when
 * @t->arg is 0, after it otherwise): only the IOAM option goes; the header
 * keeps the Router Alert and valid padding to 8n.
 */
static void t_dec_keeps_others(const struct hm_test *t)
{
	struct hopmark_ioam_record recs[2];
	struct hm_counters before;
	struct trace_spec ts;
	struct tlv tl[16];
	struct pkt plain, in;
	struct hm_run r;
	size_t hbh, opt, hbh_len;
	int n, i, nra = 0;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, false);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	pkt_init(&in);
	pkt_put(&in, plain.b, HM_EXT_OFF);
	in.b[HM_IP6_OFF + 6] = HM_NH_HBH;
	hbh = hbh_begin(&in, HM_NH_UDP);
	if (!t->arg) {
		opt_raw(&in, 0x05, 2, 0);
		opt_align(&in, hbh, 0);
		opt = opt_ioam(&in, &ts);
	} else {
		opt_padn(&in, 2);
		opt = opt_ioam(&in, &ts);
		opt_raw(&in, 0x05, 2, 0);
	}
	hbh_end(&in, hbh);
	pkt_put(&in, plain.b + HM_EXT_OFF, plain.len - HM_EXT_OFF);
	hm_put_be16(in.b + HM_IP6_OFF + 4, in.len - HM_EXT_OFF);

	hm_counters_read(env.if_in, &before);
	if (!hm_run_tc(env.prog_decap, env.if_in, env.if_in, in.b, in.len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	if (!hm_check(r.out_len >= plain.len + 8, "frame length: expected >= %zu, got %u",
		      plain.len + 8, r.out_len))
		goto counters;
	/*
	 * The remaining options need 8 bytes; a decapsulator may keep padding
	 * where the option was, but must remove at least the option's length
	 * rounded down to 8n (252 -> 248 bytes).
	 */
	hbh_len = (r.out[HM_EXT_OFF + 1] + 1) * 8;
	hm_check(hbh_len <= (size_t)(in.b[HM_EXT_OFF + 1] + 1) * 8 - 248,
		 "Hop-by-Hop length: expected <= %d bytes, got %zu",
		 (in.b[HM_EXT_OFF + 1] + 1) * 8 - 248, hbh_len);
	CHECK_EQ("frame length", plain.len + hbh_len, r.out_len);
	if (hm_failed())
		goto counters;
	hm_check_bytes("Ethernet and IPv6 header before Payload Length", plain.b, HM_IP6_OFF + 4,
		       r.out, HM_IP6_OFF + 4);
	CHECK_EQ("IPv6 Payload Length", plain.len - HM_EXT_OFF + hbh_len,
		 hm_get_be16(r.out + HM_IP6_OFF + 4));
	CHECK_EQ("IPv6 Next Header", HM_NH_HBH, r.out[HM_IP6_OFF + 6]);
	CHECK_EQ("IPv6 Hop Limit", HLIM_AT_B, r.out[HM_IP6_OFF + 7]);
	CHECK_EQ("Hop-by-Hop Next Header", HM_NH_UDP, r.out[HM_EXT_OFF]);
	n = hbh_walk(r.out + HM_EXT_OFF, r.out_len - HM_EXT_OFF, tl, 16);
	if (hm_check(n > 0, "Hop-by-Hop options: expected a valid TLV list with zeroed pads")) {
		for (i = 0; i < n && i < 16; i++) {
			if (tl[i].type == HM_IPV6_TLV_PAD1 || tl[i].type == HM_IPV6_TLV_PADN)
				continue;
			if (tl[i].type == 0x05 && tl[i].len == 2 &&
			    !r.out[HM_EXT_OFF + tl[i].off + 2] && !r.out[HM_EXT_OFF + tl[i].off + 3])
				nra++;
			else
				hm_fail("unexpected option type 0x%02x at offset %zu",
					tl[i].type, tl[i].off);
		}
		CHECK_EQ("Router Alert options", 1, nra);
	}
	hm_check_bytes("upper layer", plain.b + HM_EXT_OFF, plain.len - HM_EXT_OFF,
		       r.out + HM_EXT_OFF + hbh_len, r.out_len - HM_EXT_OFF - hbh_len);
counters:
	hm_check_counters(env.if_in, &before, HM_BIT(HM_CNT_DECAP_OK), 0);
	n = hm_events_consume(recs, 2);
	if (CHECK_EQ("ring buffer records", 1, n))
		CHECK_EQ("record opt_len", 2 + in.b[opt + 1], recs[0].opt_len);
}

static void dec_check_untouched(const struct pkt *in, __u32 must, __u32 may)
{
	struct hopmark_ioam_record recs[2];
	struct hm_counters before;
	struct hm_run r;

	hm_counters_read(env.if_in, &before);
	if (!hm_run_tc(env.prog_decap, env.if_in, env.if_in, in->b, in->len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	hm_check_bytes("frame", in->b, in->len, r.out, r.out_len);
	hm_check_counters(env.if_in, &before, must, may);
	CHECK_EQ("ring buffer records", 0, hm_events_consume(recs, 2));
}

static void t_dec_no_flag(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt plain, in;

	/* reset_maps() leaves if_in with HM_IF_F_TRANSIT only. */
	dec_plain(&plain, HM_NH_UDP, false);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	dec_traced(&in, &plain, &ts);
	dec_check_untouched(&in, 0, 0);
}

static void t_dec_unknown_ns(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt plain, in;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, false);
	trace_init(&ts, HM_T_NS_UNKNOWN, 0xfff000, 4, 4);
	dec_traced(&in, &plain, &ts);
	dec_check_untouched(&in, HM_BIT(HM_CNT_UNKNOWN_NS), 0);
}

/*
 * @t->arg 0: NodeLen that does not match the Trace-Type; 1: RemainingLen
 * one word off a slot boundary (the filled data is not whole entries).
 */
static void t_dec_malformed(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt plain, in;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, false);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 3);
	if (t->arg)
		ts.remlen += 1;
	else
		ts.nodelen = 14;
	dec_traced(&in, &plain, &ts);
	dec_check_untouched(&in, HM_BIT(HM_CNT_MALFORMED), 0);
}

static void t_dec_no_hbh(const struct hm_test *t)
{
	struct pkt plain;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, false);
	dec_check_untouched(&plain, 0, 0);
}

static void t_dec_hbh_no_ioam(const struct hm_test *t)
{
	struct pkt p;
	size_t hbh;

	decap_cfg();
	pkt_init(&p);
	pkt_eth(&p, 0x86dd);
	pkt_ipv6(&p, HM_NH_HBH, HLIM_AT_B, NULL);
	hbh = hbh_begin(&p, HM_NH_UDP);
	opt_raw(&p, 0x05, 2, 0);
	hbh_end(&p, hbh);
	pkt_udp(&p, 40000, 5001, 32);
	pkt_finish(&p);
	dec_check_untouched(&p, 0, 0);
}

static void t_dec_fragment(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;
	size_t hbh;

	decap_cfg();
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	pkt_init(&p);
	pkt_eth(&p, 0x86dd);
	pkt_ipv6(&p, HM_NH_HBH, HLIM_AT_B, NULL);
	hbh = hbh_begin(&p, HM_NH_FRAG);
	opt_padn(&p, 2);
	opt_ioam(&p, &ts);
	hbh_end(&p, hbh);
	pkt_frag(&p, HM_NH_UDP, 0, true);
	pkt_udp(&p, 40000, 5001, 32);
	pkt_finish(&p);
	dec_check_untouched(&p, HM_BIT(HM_CNT_FRAGMENT), 0);
}

static void t_dec_truncated(const struct hm_test *t)
{
	struct hopmark_ioam_record recs[2];
	struct trace_spec ts;
	struct pkt plain, in;
	struct hm_run r;
	size_t len, hbh_end_off;
	int bad = 0, n;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, false);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	dec_traced(&in, &plain, &ts);
	hbh_end_off = HM_EXT_OFF + (in.b[HM_EXT_OFF + 1] + 1) * 8;
	for (len = HM_TC_MIN_LEN; len < hbh_end_off && bad < 8; len++) {
		if (!hm_run_tc(env.prog_decap, env.if_in, env.if_in, in.b, len, &r)) {
			bad++;
			continue;
		}
		if (r.retval != TC_PASS_RC || r.out_len != len || memcmp(r.out, in.b, len)) {
			hm_fail("cut at %zu bytes: verdict %u, %u bytes out: frame changed",
				len, r.retval, r.out_len);
			bad++;
		}
		n = hm_events_consume(recs, 2);
		if (n) {
			hm_fail("cut at %zu bytes: ring buffer records expected 0, got %d", len, n);
			bad++;
		}
	}
}

/* Ten traced packets in a row: ten records, in order, ten removals. */
static void t_dec_many(const struct hm_test *t)
{
	struct hopmark_ioam_record recs[12];
	struct hm_counters before, after;
	struct trace_spec ts;
	struct pkt plain, in;
	struct hm_run r;
	int i, n;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, false);
	hm_counters_read(env.if_in, &before);
	for (i = 0; i < 10; i++) {
		trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
		ts.data[ts.data_len - 1] = i;	/* last node's buffer occupancy */
		dec_traced(&in, &plain, &ts);
		if (!hm_run_tc(env.prog_decap, env.if_in, env.if_in, in.b, in.len, &r))
			return;
		if (r.out_len != plain.len || memcmp(r.out, plain.b, plain.len))
			hm_fail("packet %d: frame not decapsulated", i);
	}
	hm_counters_read(env.if_in, &after);
	CHECK_EQ("counter decap_ok", 10, after.cnt[HM_CNT_DECAP_OK] - before.cnt[HM_CNT_DECAP_OK]);
	n = hm_events_consume(recs, 12);
	if (!CHECK_EQ("ring buffer records", 10, n))
		return;
	for (i = 0; i < 10; i++) {
		size_t last = 2 + 2 + 8 + ts.data_len - 1;

		if (recs[i].opt[last] != i)
			hm_fail("record %d: last data byte expected %d, got %u", i, i,
				recs[i].opt[last]);
	}
}

/*
 * Ring buffer full: the record is lost and counted (events_lost), the
 * trace is still removed so that it does not leave the domain.
 */
static void t_dec_ring_full(const struct hm_test *t)
{
	struct hm_counters before, after;
	struct trace_spec ts;
	struct pkt plain, in;
	struct hm_run r;
	int n, ok_frames = 0;
	unsigned int i, fill;
	__u64 lost = 0;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, false);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	dec_traced(&in, &plain, &ts);
	hm_counters_read(env.if_in, &before);
	/*
	 * The ring holds size / 328 records (320 and the 8-byte header): run
	 * that many less two without looking, then look after every run.
	 */
	{
		struct bpf_map_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(env.fd_events, &info, &len)) {
			hm_fail("hopmark_events info: %s", strerror(errno));
			return;
		}
		fill = info.max_entries / (sizeof(struct hopmark_ioam_record) + BPF_RINGBUF_HDR_SZ);
		printf("# hopmark_events: %u bytes, %u records\n", info.max_entries, fill);
	}
	for (i = 0; i + 2 < fill; i++) {
		if (!hm_run_tc(env.prog_decap, env.if_in, env.if_in, in.b, in.len, &r))
			return;
		ok_frames += r.out_len == plain.len && !memcmp(r.out, plain.b, plain.len);
	}
	for (; i < fill + 8 && !lost; i++) {
		if (!hm_run_tc(env.prog_decap, env.if_in, env.if_in, in.b, in.len, &r))
			return;
		hm_counters_read(env.if_in, &after);
		lost = after.cnt[HM_CNT_EVENTS_LOST] - before.cnt[HM_CNT_EVENTS_LOST];
		ok_frames += r.out_len == plain.len && !memcmp(r.out, plain.b, plain.len);
	}
	CHECK_EQ("counter events_lost", 1, lost);
	CHECK_EQ("frames decapsulated", i, ok_frames);
	n = hm_events_consume(NULL, 0);
	CHECK_EQ("ring buffer records", i - 1, n);
}

/*
 * The sink wakes the reader by batch, not by record: with an empty ring
 * and a fresh epoll instance on it (nothing ready yet), records that stay
 * below HM_EVENTS_WAKEUP_BYTES wake nobody; the record that makes them
 * cross it does. Without the batching every first record after a drain
 * wakes the reader.
 */
static void t_dec_wakeup_by_batch(const struct hm_test *t)
{
	const unsigned int rec_sz = sizeof(struct hopmark_ioam_record) + BPF_RINGBUF_HDR_SZ;
	unsigned int below = HM_EVENTS_WAKEUP_BYTES / rec_sz, i;
	struct epoll_event ev = { .events = EPOLLIN };
	struct trace_spec ts;
	struct pkt plain, in;
	struct hm_run r;
	int ep, n;

	decap_cfg();
	dec_plain(&plain, HM_NH_UDP, false);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	dec_traced(&in, &plain, &ts);
	hm_events_consume(NULL, 0);
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, env.fd_events, &ev)) {
		hm_fail("epoll on the ring buffer: %s", strerror(errno));
		if (ep >= 0)
			close(ep);
		return;
	}
	for (i = 0; i < below; i++)
		if (!hm_run_tc(env.prog_decap, env.if_in, env.if_in, in.b, in.len, &r))
			goto out;
	/* A wakeup is an irq_work: give it time to run. */
	n = epoll_wait(ep, &ev, 1, 50);
	CHECK_EQ("wakeups after records below the batch", 0, n);
	if (!hm_run_tc(env.prog_decap, env.if_in, env.if_in, in.b, in.len, &r))
		goto out;
	n = epoll_wait(ep, &ev, 1, 1000);
	CHECK_EQ("wakeups once the batch is complete", 1, n);
	CHECK_EQ("ring buffer records", below + 1, hm_events_consume(NULL, 0));
out:
	close(ep);
}

/*
 * The option walk's bound: a header Linux accepts with default sysctls
 * holds up to 71 TLVs (8 options, runs of 7 Pad1 before, between and after
 * them), and the sink walks them all to the end. @arg selects the header:
 * 0 the trace 7th of 8 options in 71 TLVs; 1 the trace last of 8 options
 * (TLV 64); 2 9 options in 72 TLVs (only where max_hbh_opts_number was
 * raised): past the walk, left untouched, counted under hbh_walk_limit.
 */
static const struct hbh_steps_spec dec_steps[] = {
	{ .nopts = 8, .ioam_at = 6, .lead = 7, .run = 7, .tail = 7 },
	{ .nopts = 8, .ioam_at = 7, .lead = 7, .run = 7, .tail = -1 },
	{ .nopts = 9, .ioam_at = 3, .lead = 7, .run = 7, .tail = 0 },
};

static void t_dec_steps(const struct hm_test *t)
{
	static const int want_tlvs[] = { 71, 68, 72 };
	struct tlv tl_in[96], tl_out[96];
	struct hopmark_ioam_record recs[2];
	struct hm_counters before;
	struct trace_spec ts;
	size_t hbh, opt, in_len, out_len, l4;
	struct hm_run r;
	struct pkt in;
	int n_in, n_out, i, j, n;

	decap_cfg();
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	pkt_init(&in);
	pkt_eth(&in, 0x86dd);
	pkt_ipv6(&in, HM_NH_HBH, HLIM_AT_B, NULL);
	hbh = hbh_begin(&in, HM_NH_UDP);
	opt = hbh_steps(&in, hbh, &dec_steps[t->arg], &ts, &n);
	pkt_udp(&in, 40000, 5001, 48);
	pkt_finish(&in);
	in_len = (size_t)(in.b[hbh + 1] + 1) * 8;
	CHECK_EQ("test input TLVs", want_tlvs[t->arg], n);
	hm_check_hbh_linux("test input Hop-by-Hop header", in.b + hbh, in_len, t->arg < 2);
	if (hm_failed())
		return;
	if (t->arg >= 2) {
		dec_check_untouched(&in, HM_BIT(HM_CNT_HBH_WALK_LIMIT), 0);
		return;
	}

	hm_counters_read(env.if_in, &before);
	if (!hm_run_tc(env.prog_decap, env.if_in, env.if_in, in.b, in.len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	hm_check_counters(env.if_in, &before, HM_BIT(HM_CNT_DECAP_OK), 0);
	n = hm_events_consume(recs, 2);
	if (CHECK_EQ("ring buffer records", 1, n))
		hm_check_bytes("record opt", in.b + opt, 2 + in.b[opt + 1], recs[0].opt,
			       recs[0].opt_len <= HM_RECORD_OPT_MAX ? recs[0].opt_len : 0);
	if (!hm_check(r.out_len > hbh + 8, "frame length: expected > %zu, got %u", hbh + 8,
		      r.out_len))
		return;
	out_len = (size_t)(r.out[hbh + 1] + 1) * 8;
	l4 = in.len - hbh - in_len;
	CHECK_EQ("frame length", hbh + out_len + l4, r.out_len);
	CHECK_EQ("IPv6 Payload Length", out_len + l4, hm_get_be16(r.out + HM_IP6_OFF + 4));
	if (hm_failed())
		return;
	hm_check_hbh_linux("Hop-by-Hop header left", r.out + hbh, out_len, true);
	/* The other options stay, in order and unchanged; the trace goes. */
	n_in = hbh_walk(in.b + hbh, in_len, tl_in, 96);
	n_out = hbh_walk(r.out + hbh, out_len, tl_out, 96);
	for (i = 0, j = 0; i < n_in && i < 96; i++) {
		if (tl_in[i].type == HM_IPV6_TLV_PAD1 || tl_in[i].type == HM_IPV6_TLV_PADN ||
		    tl_in[i].type == HM_IPV6_TLV_IOAM)
			continue;
		while (j < n_out && j < 96 && (tl_out[j].type == HM_IPV6_TLV_PAD1 ||
					       tl_out[j].type == HM_IPV6_TLV_PADN))
			j++;
		if (!hm_check(j < n_out && j < 96, "option 0x%02x at %zu: missing from the output",
			      tl_in[i].type, tl_in[i].off))
			break;
		hm_check_bytes("kept option", in.b + hbh + tl_in[i].off, 2 + tl_in[i].len,
			       r.out + hbh + tl_out[j].off, 2 + tl_out[j].len);
		j++;
	}
	for (; j < n_out && j < 96; j++)
		hm_check(tl_out[j].type == HM_IPV6_TLV_PAD1 || tl_out[j].type == HM_IPV6_TLV_PADN,
			 "option 0x%02x at %zu: expected none left after the kept ones",
			 tl_out[j].type, tl_out[j].off);
	hm_check_bytes("upper layer", in.b + hbh + in_len, l4, r.out + hbh + out_len, l4);
}

void register_decap_tests(void)
{
	hm_add_test(t_dec_only_ours, HM_NH_UDP, "decap_removes_hbh_holding_only_ours_udp");
	hm_add_test(t_dec_only_ours, HM_NH_TCP, "decap_removes_hbh_holding_only_ours_tcp");
	hm_add_test(t_dec_largest, 0, "decap_reports_largest_option_256_bytes");
	hm_add_test(t_dec_srh, 0, "decap_removes_hbh_keeps_srh");
	hm_add_test(t_dec_overflowed, 0, "decap_removes_and_reports_overflowed_trace");
	hm_add_test(t_dec_keeps_others, 0, "decap_removes_only_our_option_after_router_alert");
	hm_add_test(t_dec_keeps_others, 1, "decap_removes_only_our_option_before_router_alert");
	hm_add_test(t_dec_many, 0, "decap_reports_every_packet_in_order");
	hm_add_test(t_dec_ring_full, 0, "decap_counts_lost_record_and_still_removes");
	hm_add_test(t_dec_wakeup_by_batch, 0, "decap_wakes_the_reader_by_batch_not_by_record");
	hm_add_test(t_dec_no_flag, 0, "decap_ignores_interface_without_decap_flag");
	hm_add_test(t_dec_unknown_ns, 0, "decap_ignores_unknown_namespace");
	hm_add_test(t_dec_malformed, 0, "decap_ignores_malformed_trace");
	hm_add_test(t_dec_malformed, 1, "decap_ignores_trace_with_remlen_off_slot_boundary");
	hm_add_test(t_dec_no_hbh, 0, "decap_passes_ipv6_without_hbh");
	hm_add_test(t_dec_hbh_no_ioam, 0, "decap_passes_hbh_without_ioam");
	hm_add_test(t_dec_fragment, 0, "decap_ignores_fragment");
	hm_add_test(t_dec_truncated, 0, "decap_truncated_at_every_length");
	hm_add_test(t_dec_steps, 0, "decap_reports_and_removes_trace_in_71_tlv_hbh");
	hm_add_test(t_dec_steps, 1, "decap_reports_and_removes_trace_last_of_8_options");
	hm_add_test(t_dec_steps, 2, "decap_counts_72_tlv_hbh_as_walk_limit_untouched");
}
