// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_transit.c - hm_transit_in (XDP) and hm_transit_out (tc egress)
 * under BPF_PROG_TEST_RUN.
 *
 * Expected node data follows RFC 9197 §4.4 (the node writes its data at
 * RemainingLen - NodeLen and decrements RemainingLen; Overflow flag and no
 * write when there is no room; undefined bits 12-21 as 0xffffffff; bit 22
 * an empty opaque state snapshot) and the team design: the ingress half
 * writes Hop_Lim = received hop limit - 1, IDs from hopmark_node and
 * hopmark_ifcfg, POSIX time in seconds + microseconds, leaves the egress
 * fields unavailable; the egress half completes them on its own slot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <linux/pkt_cls.h>

#include "hopmark.h"
#include "bpf_test.h"

#define XDP_PASS_RC	2	/* enum xdp_action XDP_PASS */
#define TC_PASS_RC	((__u32)TC_ACT_UNSPEC)	/* passed on, tc chain left open */

/* Values the ingress half of node R (hopmark_node = ID 2) must write. */
static void tin_values(struct hm_ioam6_node_values *v, __u8 hlim)
{
	memset(v, 0, sizeof(*v));
	v->hop_limit = hlim - 1;
	v->node_id = HM_T_NODE_ID;
	v->ingress_if = HM_T_IN_ID;
	v->egress_if = HM_IOAM_U16_UNAVAILABLE;
	v->transit_delay = HM_IOAM_U32_UNAVAILABLE;
	v->ns_data = HM_T_NS_DATA;
	v->queue_depth = HM_IOAM_U32_UNAVAILABLE;
	v->csum_compl = HM_IOAM_U32_UNAVAILABLE;
	v->node_id_wide = HM_T_NODE_ID_WIDE;
	v->ingress_if_wide = HM_T_IN_ID_WIDE;
	v->egress_if_wide = HM_IOAM_U32_UNAVAILABLE;
	v->ns_data_wide = HM_T_NS_DATA_WIDE;
	v->buffer_occupancy = HM_T_OCCUPANCY;
	v->opaque_len = 0;
	v->opaque_schema = HM_IOAM_U24_UNAVAILABLE;
}

/*
 * The ingress half wrote @want at the right place of the trace at @opt of
 * @in and nothing else changed. Timestamps are checked against the run's
 * window (shifted by @ts_shift) and then taken from the output.
 */
static void check_tin_wrote(const struct pkt *in, size_t opt, const struct trace_spec *ts,
			    const struct hm_run *r, struct hm_ioam6_node_values *want,
			    __s64 ts_shift)
{
	size_t slot = trace_slot_len(ts->type);
	__u8 exp[HM_PKT_MAX];
	struct hm_ioam_trace *dec;
	size_t slot_off;
	__u8 new_rem;
	int rc;

	CHECK_EQ("XDP verdict", XDP_PASS_RC, r->retval);
	new_rem = ts->remlen - slot / 4;
	slot_off = IOAM_DATA_OFF(opt) + new_rem * 4;
	memcpy(exp, in->b, in->len);
	exp[IOAM_REMLEN_OFF(opt)] = (exp[IOAM_REMLEN_OFF(opt)] & 0x80) | new_rem;
	/* Timestamps are only looked at once RemainingLen shows a write. */
	if (r->out_len >= slot_off + slot &&
	    (r->out[IOAM_REMLEN_OFF(opt)] & 0x7f) == new_rem)
		hm_check_ts(ts->type, r->out + slot_off, r->t0, r->t1, ts_shift, want);
	hm_ioam6_node_data_encode(exp + slot_off, ts->type, want);
	hm_check_bytes("frame", exp, in->len, r->out, r->out_len);

	dec = calloc(1, sizeof(*dec));
	if (!dec)
		return;
	rc = hm_ioam_trace_decode(r->out + opt, r->out_len - opt, dec);
	if (CHECK_EQ("hm_ioam_trace_decode() of the output", 0, rc)) {
		CHECK_EQ("decoded RemainingLen", new_rem, dec->remlen);
		CHECK_EQ("decoded Overflow", 0, dec->overflow);
		CHECK_EQ("decoded node entries", (ts->data_len / 4 - new_rem) / (slot / 4),
			 dec->n_nodes);
		if (dec->n_nodes && (ts->type & HM_IOAM_TT_HOPLIM_NODEID)) {
			CHECK_EQ("decoded newest node_id", want->node_id,
				 dec->nodes[dec->n_nodes - 1].node_id);
			CHECK_EQ("decoded newest Hop_Lim", want->hop_limit,
				 dec->nodes[dec->n_nodes - 1].hop_limit);
		}
	}
	free(dec);
}

/* Run the ingress half on @p arriving on if_in; check it left @p untouched. */
static void check_tin_untouched(const struct pkt *p, __u32 must, __u32 may)
{
	struct hm_counters before;
	struct hm_run r;

	hm_counters_read(env.if_in, &before);
	if (!hm_run_xdp(env.prog_transit_in, env.if_in, p->b, p->len, &r))
		return;
	CHECK_EQ("XDP verdict", XDP_PASS_RC, r.retval);
	hm_check_bytes("frame", p->b, p->len, r.out, r.out_len);
	hm_check_counters(env.if_in, &before, must, may);
}

/* Standard positive case: trace of @nslots with @nfilled written, type @type. */
static void tin_positive(__u32 type, int nslots, int nfilled, __u8 hlim)
{
	struct hm_ioam6_node_values want;
	struct hm_counters before;
	struct trace_spec ts;
	struct pkt p;
	struct hm_run r;
	size_t opt;

	trace_init(&ts, HM_T_NS, type, nslots, nfilled);
	opt = pkt_std_trace(&p, &ts, hlim);
	tin_values(&want, hlim);
	hm_counters_read(env.if_in, &before);
	if (!hm_run_xdp(env.prog_transit_in, env.if_in, p.b, p.len, &r))
		return;
	check_tin_wrote(&p, opt, &ts, &r, &want, 0);
	hm_check_counters(env.if_in, &before, HM_BIT(HM_CNT_TRANSIT_OK), 0);
}

static void t_tin_bit(const struct hm_test *t)
{
	tin_positive(HM_IOAM_TT_BIT(t->arg), 4, 1, 64);
}

static void t_tin_all12(const struct hm_test *t)
{
	tin_positive(0xfff000, 4, 1, 64);
}

static void t_tin_all22(const struct hm_test *t)
{
	tin_positive(0xfffffc, 2, 1, 64);
}

static void t_tin_bit22(const struct hm_test *t)
{
	tin_positive(t->arg, 3, 1, 64);
}

/* Largest data area (244 bytes, 61 one-word slots): first and last slot. */
static void t_tin_max_area(const struct hm_test *t)
{
	tin_positive(HM_IOAM_TT_HOPLIM_NODEID, 61, t->arg, 64);
}

/* Trace-Type 0: NodeLen 0, nothing to write; the frame must not change. */
static void t_tin_type_zero(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;
	struct hm_run r;

	trace_init(&ts, HM_T_NS, 0, 0, 0);
	ts.data_len = 16;
	memset(ts.data, 0x55, 16);
	ts.remlen = 4;
	pkt_std_trace(&p, &ts, 64);
	if (!hm_run_xdp(env.prog_transit_in, env.if_in, p.b, p.len, &r))
		return;
	CHECK_EQ("XDP verdict", XDP_PASS_RC, r.retval);
	hm_check_bytes("frame", p.b, p.len, r.out, r.out_len);
}

static void t_tin_bit23(const struct hm_test *t)
{
	/* Bit 23 is reserved: NodeLen 1 (bit 0 only), nothing written for it. */
	tin_positive(HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_RESERVED, 4, 1, 64);
}

static void t_tin_hoplim(const struct hm_test *t)
{
	tin_positive(HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_HOPLIM_NODEID_WIDE, 4, 1, t->arg);
}

static void t_tin_first_slot(const struct hm_test *t)
{
	tin_positive(0xfff000, 4, 0, 64);
}

static void t_tin_last_slot(const struct hm_test *t)
{
	tin_positive(0xfff000, 4, 3, 64);
}

/* Write with modified configuration; @mod adjusts maps and expected values. */
static void tin_with(void (*mod)(struct hm_ioam6_node_values *v), __s64 ts_shift)
{
	struct hm_ioam6_node_values want;
	struct hm_counters before;
	struct trace_spec ts;
	struct pkt p;
	struct hm_run r;
	size_t opt;

	trace_init(&ts, HM_T_NS, 0xfff000, 3, 1);
	opt = pkt_std_trace(&p, &ts, 64);
	tin_values(&want, 64);
	mod(&want);
	hm_counters_read(env.if_in, &before);
	if (!hm_run_xdp(env.prog_transit_in, env.if_in, p.b, p.len, &r))
		return;
	check_tin_wrote(&p, opt, &ts, &r, &want, ts_shift);
	hm_check_counters(env.if_in, &before, HM_BIT(HM_CNT_TRANSIT_OK), 0);
}

static void mod_no_node_id(struct hm_ioam6_node_values *v)
{
	hm_set_node(0, 0, 0, env.tai_offset_ns);
	v->node_id = HM_IOAM_U24_UNAVAILABLE;
	v->node_id_wide = HM_IOAM_U56_UNAVAILABLE;
}

static void t_tin_no_node_id(const struct hm_test *t)
{
	tin_with(mod_no_node_id, 0);
}

static void mod_no_ns_data(struct hm_ioam6_node_values *v)
{
	hm_set_ns(HM_T_NS, 0, 0, 0);
	v->ns_data = HM_IOAM_U32_UNAVAILABLE;
	v->ns_data_wide = HM_IOAM_U64_UNAVAILABLE;
}

static void t_tin_no_ns_data(const struct hm_test *t)
{
	tin_with(mod_no_ns_data, 0);
}

static void mod_stale_occupancy(struct hm_ioam6_node_values *v)
{
	hm_set_qdepth(0, HM_T_OCCUPANCY, HM_T_OCCUPANCY, hm_now_ns(CLOCK_MONOTONIC) - 2 * HM_T_QDEPTH_MAX_AGE);
	v->buffer_occupancy = HM_IOAM_U32_UNAVAILABLE;
}

static void t_tin_stale_occupancy(const struct hm_test *t)
{
	tin_with(mod_stale_occupancy, 0);
}

static void mod_no_occupancy(struct hm_ioam6_node_values *v)
{
	hm_del_qdepth(0);
	v->buffer_occupancy = HM_IOAM_U32_UNAVAILABLE;
}

static void t_tin_no_occupancy(const struct hm_test *t)
{
	tin_with(mod_no_occupancy, 0);
}

#define TAI_SHIFT_NS	(1000LL * 1000000000LL)	/* 1000 s */

static void mod_tai(struct hm_ioam6_node_values *v)
{
	hm_set_node(HM_NODE_F_ID | HM_NODE_F_ID_WIDE, HM_T_NODE_ID, HM_T_NODE_ID_WIDE,
		    env.tai_offset_ns + TAI_SHIFT_NS);
}

static void t_tin_tai_offset(const struct hm_test *t)
{
	/* hopmark_node.tai_offset_ns is subtracted from CLOCK_TAI. */
	tin_with(mod_tai, TAI_SHIFT_NS);
}

static void t_tin_if_no_flag(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	hm_set_ifcfg(env.if_in, HM_IF_F_DECAP, HM_T_IN_ID, HM_T_IN_ID_WIDE);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, 0, 0);
}

static void t_tin_if_no_entry(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	hm_del_ifcfg(env.if_in);
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, 0, 0);
}

/*
 * hopmark_ifcfg is an array: an entry with HM_IF_F_TRANSIT but without
 * HM_IF_F_PRESENT is no entry, and the interface is not ours.
 */
static void t_tin_if_not_present(const struct hm_test *t)
{
	struct hopmark_if_cfg c = { .flags = HM_IF_F_TRANSIT, .if_id = HM_T_IN_ID };
	struct trace_spec ts;
	struct pkt p;
	__u32 k = env.if_in;

	if (bpf_map_update_elem(env.fd_ifcfg, &k, &c, BPF_ANY))
		hm_fail("setup: %s: %s", HM_MAP_IFCFG, strerror(errno));
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, 0, 0);
}

/*
 * hopmark_ns is an array: an entry carrying data but not HM_NS_F_KNOWN is
 * an unknown IOAM-Namespace (untouched, counted), as is a deleted one.
 */
static void t_tin_ns_not_known(const struct hm_test *t)
{
	struct hopmark_ns_cfg c = { .flags = HM_NS_F_DATA, .data = HM_T_NS_DATA };
	struct trace_spec ts;
	struct pkt p;
	__u32 k = HM_T_NS;

	if (t->arg)
		hm_del_ns(HM_T_NS);
	else if (bpf_map_update_elem(env.fd_ns, &k, &c, BPF_ANY))
		hm_fail("setup: %s: %s", HM_MAP_NS, strerror(errno));
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, HM_BIT(HM_CNT_UNKNOWN_NS), 0);
}

/* No room: Overflow flag set, data unchanged (RFC 9197 §4.4.1). */
static void tin_overflow(struct trace_spec *ts)
{
	struct hm_counters before;
	__u8 exp[HM_PKT_MAX];
	struct pkt p;
	struct hm_run r;
	size_t opt;

	opt = pkt_std_trace(&p, ts, 64);
	memcpy(exp, p.b, p.len);
	exp[IOAM_FLAGS_OFF(opt)] |= HM_IOAM_TRACE_F_OVERFLOW;
	hm_counters_read(env.if_in, &before);
	if (!hm_run_xdp(env.prog_transit_in, env.if_in, p.b, p.len, &r))
		return;
	CHECK_EQ("XDP verdict", XDP_PASS_RC, r.retval);
	hm_check_bytes("frame", exp, p.len, r.out, r.out_len);
	hm_check_counters(env.if_in, &before, HM_BIT(HM_CNT_TRANSIT_OVERFLOW), 0);
}

static void t_tin_overflow_full(const struct hm_test *t)
{
	struct trace_spec ts;

	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	tin_overflow(&ts);
}

static void t_tin_overflow_partial(const struct hm_test *t)
{
	struct trace_spec ts;

	/* 8 bytes free for a 60-byte slot. */
	trace_init(&ts, HM_T_NS, 0xfff000, 3, 3);
	memmove(ts.data + 8, ts.data, ts.data_len);
	memset(ts.data, 0, 8);
	ts.data_len += 8;
	ts.remlen = 2;
	tin_overflow(&ts);
}

static void t_tin_overflow_snapshot(const struct hm_test *t)
{
	struct trace_spec ts;

	/* Bit 22: NodeLen 1 word free, but the slot needs NodeLen + 1. */
	trace_init(&ts, HM_T_NS, HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_OPAQUE, 3, 2);
	memmove(ts.data, ts.data + 4, ts.data_len - 4);
	ts.data_len -= 4;
	ts.remlen = 1;
	tin_overflow(&ts);
}

static void t_tin_overflow_seen(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	ts.flags = HM_IOAM_TRACE_F_OVERFLOW;
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, HM_BIT(HM_CNT_TRANSIT_OVERFLOW_SEEN), 0);
}

static void t_tin_unknown_ns(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	trace_init(&ts, HM_T_NS_UNKNOWN, 0xfff000, 4, 1);
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, HM_BIT(HM_CNT_UNKNOWN_NS), 0);
}

static void t_tin_nodelen_mismatch(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	ts.nodelen = t->arg;
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, HM_BIT(HM_CNT_MALFORMED), 0);
}

static void t_tin_remlen_beyond(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	trace_init(&ts, HM_T_NS, 0xfff000, 4, 0);
	ts.remlen = ts.data_len / 4 + t->arg;
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, HM_BIT(HM_CNT_MALFORMED), 0);
}

/*
 * RemainingLen @t->arg words short of a slot boundary: the filled data is
 * not whole node data entries, so earlier nodes' data cannot be read.
 */
static void t_tin_remlen_off_slot(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	ts.remlen -= t->arg;
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, HM_BIT(HM_CNT_MALFORMED), 0);
}

/* An IOAM option whose Opt Data Len does not even cover the trace header. */
static void t_tin_optlen_short(const struct hm_test *t)
{
	struct pkt p;
	size_t hbh;
	__u8 opt[12] = { HM_IPV6_TLV_IOAM, 0, 0, HM_IOAM_OPT_PREALLOC_TRACE,
			 0, HM_T_NS, 15 << 3, 15, 0xff, 0xf0, 0x00, 0 };

	opt[1] = t->arg;
	pkt_init(&p);
	pkt_eth(&p, 0x86dd);
	pkt_ipv6(&p, HM_NH_HBH, 64, NULL);
	hbh = hbh_begin(&p, HM_NH_UDP);
	opt_padn(&p, 2);
	pkt_put(&p, opt, 2 + t->arg);
	hbh_end(&p, hbh);
	pkt_udp(&p, 40000, 5001, 32);
	pkt_finish(&p);
	check_tin_untouched(&p, HM_BIT(HM_CNT_MALFORMED), 0);
}

/* Data area of 4n + 2 bytes: the node data list is not whole 4-octet words. */
static void t_tin_optlen_not_4n(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	trace_init(&ts, HM_T_NS, 0xfff000, 3, 1);
	ts.data[ts.data_len] = 0x40;
	ts.data[ts.data_len + 1] = 0x41;
	ts.data_len += t->arg;
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, HM_BIT(HM_CNT_MALFORMED), 0);
}

/* Opt Data Len reaching past the end of the Hop-by-Hop header. */
static void t_tin_opt_beyond_hbh(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	trace_init(&ts, HM_T_NS, 0xfff000, 3, 1);
	ts.opt_len = 2 + 8 + ts.data_len + 8;
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, HM_BIT(HM_CNT_MALFORMED), 0);
}

/* IOAM option at @t->arg mod 4 (RFC 9486 §2.1 requires 4n). */
static void t_tin_misaligned(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;
	size_t hbh;

	trace_init(&ts, HM_T_NS, 0xfff000, 3, 1);
	pkt_init(&p);
	pkt_eth(&p, 0x86dd);
	pkt_ipv6(&p, HM_NH_HBH, 64, NULL);
	hbh = hbh_begin(&p, HM_NH_UDP);
	opt_align(&p, hbh, t->arg);
	opt_ioam(&p, &ts);
	hbh_end(&p, hbh);
	pkt_udp(&p, 40000, 5001, 32);
	pkt_finish(&p);
	check_tin_untouched(&p, HM_BIT(HM_CNT_MALFORMED), 0);
}

/* Other options before the IOAM option are walked over (RFC 8200 §4.2). */
static void tin_after_options(void (*put)(struct pkt *p))
{
	struct hm_ioam6_node_values want;
	struct hm_counters before;
	struct trace_spec ts;
	struct pkt p;
	struct hm_run r;
	size_t hbh, opt;

	trace_init(&ts, HM_T_NS, 0xfff000, 3, 1);
	pkt_init(&p);
	pkt_eth(&p, 0x86dd);
	pkt_ipv6(&p, HM_NH_HBH, 64, NULL);
	hbh = hbh_begin(&p, HM_NH_UDP);
	put(&p);
	opt_align(&p, hbh, 0);
	opt = opt_ioam(&p, &ts);
	hbh_end(&p, hbh);
	pkt_udp(&p, 40000, 5001, 32);
	pkt_finish(&p);
	tin_values(&want, 64);
	hm_counters_read(env.if_in, &before);
	if (!hm_run_xdp(env.prog_transit_in, env.if_in, p.b, p.len, &r))
		return;
	check_tin_wrote(&p, opt, &ts, &r, &want, 0);
	hm_check_counters(env.if_in, &before, HM_BIT(HM_CNT_TRANSIT_OK), 0);
}

static void put_pad1_padn(struct pkt *p)
{
	opt_pad1(p);
	opt_pad1(p);
	opt_padn(p, 8);		/* IOAM then at offset 12 */
}

static void put_many_options(struct pkt *p)
{
	int i;

	for (i = 0; i < 6; i++) {
		opt_padn(p, 40);
		opt_raw(p, 0x1e, 6, i);
	}
}

static void t_tin_after_many(const struct hm_test *t)
{
	tin_after_options(put_many_options);
}

static void t_tin_after_pads(const struct hm_test *t)
{
	tin_after_options(put_pad1_padn);
}

static void put_router_alert(struct pkt *p)
{
	opt_raw(p, 0x05, 2, 0);		/* Router Alert, RFC 2711 */
}

static void t_tin_after_ra(const struct hm_test *t)
{
	tin_after_options(put_router_alert);
}

static void put_experimental(struct pkt *p)
{
	opt_raw(p, 0x1e, 9, 0xab);	/* RFC 4727 experimental, act 00: skip */
}

static void t_tin_after_unknown(const struct hm_test *t)
{
	tin_after_options(put_experimental);
}

/*
 * Two IOAM traces in one Hop-by-Hop header, the first of a namespace this
 * node does not know: each option is processed on its own (RFC 9486 §2,
 * RFC 9197 §4; Linux handles every IOAM TLV), so the second is filled.
 */
static void t_tin_second_trace(const struct hm_test *t)
{
	struct hm_ioam6_node_values want;
	struct hm_counters before;
	struct trace_spec other, ts;
	struct pkt p;
	struct hm_run r;
	size_t hbh, opt;

	trace_init(&other, HM_T_NS_UNKNOWN, HM_IOAM_TT_HOPLIM_NODEID, 4, 1);
	trace_init(&ts, HM_T_NS, 0xfff000, 3, 1);
	pkt_init(&p);
	pkt_eth(&p, 0x86dd);
	pkt_ipv6(&p, HM_NH_HBH, 64, NULL);
	hbh = hbh_begin(&p, HM_NH_UDP);
	opt_padn(&p, 2);
	opt_ioam(&p, &other);
	opt_align(&p, hbh, 0);
	opt = opt_ioam(&p, &ts);
	hbh_end(&p, hbh);
	pkt_udp(&p, 40000, 5001, 32);
	pkt_finish(&p);
	tin_values(&want, 64);
	hm_counters_read(env.if_in, &before);
	if (!hm_run_xdp(env.prog_transit_in, env.if_in, p.b, p.len, &r))
		return;
	check_tin_wrote(&p, opt, &ts, &r, &want, 0);
	hm_check_counters(env.if_in, &before, HM_BIT(HM_CNT_TRANSIT_OK),
			  HM_BIT(HM_CNT_UNKNOWN_NS));
}

/* Options after the trace stay where they are. */
static void t_tin_options_after(const struct hm_test *t)
{
	struct hm_ioam6_node_values want;
	struct hm_counters before;
	struct trace_spec ts;
	struct pkt p;
	struct hm_run r;
	size_t hbh, opt;

	trace_init(&ts, HM_T_NS, 0xfff000, 3, 1);
	pkt_init(&p);
	pkt_eth(&p, 0x86dd);
	pkt_ipv6(&p, HM_NH_HBH, 64, NULL);
	hbh = hbh_begin(&p, HM_NH_UDP);
	opt_padn(&p, 2);
	opt = opt_ioam(&p, &ts);
	opt_raw(&p, 0x05, 2, 0);
	opt_raw(&p, 0x1e, 5, 0x77);
	hbh_end(&p, hbh);
	pkt_udp(&p, 40000, 5001, 32);
	pkt_finish(&p);
	tin_values(&want, 64);
	hm_counters_read(env.if_in, &before);
	if (!hm_run_xdp(env.prog_transit_in, env.if_in, p.b, p.len, &r))
		return;
	check_tin_wrote(&p, opt, &ts, &r, &want, 0);
	hm_check_counters(env.if_in, &before, HM_BIT(HM_CNT_TRANSIT_OK), 0);
}

static void t_tin_fragment(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;
	size_t hbh;

	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	pkt_init(&p);
	pkt_eth(&p, 0x86dd);
	pkt_ipv6(&p, HM_NH_HBH, 64, NULL);
	hbh = hbh_begin(&p, HM_NH_FRAG);
	opt_padn(&p, 2);
	opt_ioam(&p, &ts);
	hbh_end(&p, hbh);
	pkt_frag(&p, HM_NH_UDP, t->arg, true);
	pkt_udp(&p, 40000, 5001, 32);
	pkt_finish(&p);
	check_tin_untouched(&p, HM_BIT(HM_CNT_FRAGMENT), 0);
}

static void t_tin_ipv4(const struct hm_test *t)
{
	static const __u8 ip4[28] = {
		0x45, 0, 0, 28, 0, 1, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
		0x9c, 0x40, 0x13, 0x89, 0, 8, 0, 0,
	};
	struct pkt p;

	pkt_init(&p);
	pkt_eth(&p, 0x0800);
	pkt_put(&p, ip4, sizeof(ip4));
	check_tin_untouched(&p, 0, 0);
}

static void t_tin_no_hbh(const struct hm_test *t)
{
	struct pkt p;

	pkt_std_plain(&p, t->arg, 64, 64);
	check_tin_untouched(&p, 0, 0);
}

static void t_tin_hbh_no_ioam(const struct hm_test *t)
{
	struct pkt p;
	size_t hbh;

	pkt_init(&p);
	pkt_eth(&p, 0x86dd);
	pkt_ipv6(&p, HM_NH_HBH, 64, NULL);
	hbh = hbh_begin(&p, HM_NH_UDP);
	opt_raw(&p, 0x05, 2, 0);
	hbh_end(&p, hbh);
	pkt_udp(&p, 40000, 5001, 32);
	pkt_finish(&p);
	check_tin_untouched(&p, 0, 0);
}

/* IOAM options other than the pre-allocated trace are not ours to fill. */
static void t_tin_other_ioam_type(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	ts.ioam_type = t->arg;
	pkt_std_trace(&p, &ts, 64);
	check_tin_untouched(&p, 0, 0);
}

/*
 * Every truncation of a valid traced frame: nothing written, verdict pass;
 * once the Hop-by-Hop header's length octet is in the frame, counted as
 * malformed.
 */
static void t_tin_truncated(const struct hm_test *t)
{
	struct hm_counters before, after;
	struct trace_spec ts;
	struct pkt p;
	struct hm_run r;
	size_t len, hbh_end_off;
	int bad = 0;

	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	pkt_std_trace(&p, &ts, 64);
	hbh_end_off = HM_EXT_OFF + (p.b[HM_EXT_OFF + 1] + 1) * 8;
	for (len = HM_ETH_LEN; len < hbh_end_off && bad < 8; len++) {
		bool was_failed = hm_failed();

		hm_counters_read(env.if_in, &before);
		if (!hm_run_xdp(env.prog_transit_in, env.if_in, p.b, len, &r)) {
			bad++;
			continue;
		}
		hm_counters_read(env.if_in, &after);
		if (r.retval != XDP_PASS_RC)
			hm_fail("cut at %zu bytes: verdict expected %d, got %u", len,
				XDP_PASS_RC, r.retval);
		if (r.out_len != len || memcmp(r.out, p.b, len))
			hm_fail("cut at %zu bytes: frame changed", len);
		if (after.cnt[HM_CNT_TRANSIT_OK] != before.cnt[HM_CNT_TRANSIT_OK])
			hm_fail("cut at %zu bytes: counted transit_ok", len);
		if (len >= HM_EXT_OFF + 2 &&
		    after.cnt[HM_CNT_MALFORMED] != before.cnt[HM_CNT_MALFORMED] + 1)
			hm_fail("cut at %zu bytes: counter malformed expected +1, got +%llu", len,
				(unsigned long long)(after.cnt[HM_CNT_MALFORMED] -
						     before.cnt[HM_CNT_MALFORMED]));
		if (hm_failed() && !was_failed)
			bad++;
	}
}

/*
 * ---- the option walk's bound ----
 *
 * A Linux receiver with default sysctls accepts Hop-by-Hop headers of up
 * to 71 TLVs: 8 options with a run of 7 Pad1 before, between and after
 * them (hm_check_hbh_linux()). The walk covers that many; a header that
 * needs more (only where net.ipv6.max_hbh_opts_number was raised) is left
 * untouched and counted under hbh_walk_limit, not malformed.
 */
static const struct tin_steps_case {
	struct hbh_steps_spec	sp;
	int			ioam_tlv;	/* 1-based TLV index of the trace */
	bool			linux_ok;
} tin_steps_cases[] = {
	/* 0: the trace 7th of 8 options, 71 TLVs. */
	{ { .nopts = 8, .ioam_at = 6, .lead = 7, .run = 7, .tail = 7 }, 56, true },
	/* 1: the trace last of 8, TLV 64: the latest a Linux-valid header has it. */
	{ { .nopts = 8, .ioam_at = 7, .lead = 7, .run = 7, .tail = -1 }, 64, true },
	/* 2: the trace 9th option, TLV 71: the last one walked. */
	{ { .nopts = 9, .ioam_at = 8, .lead = 6, .run = 7, .tail = -1 }, 71, false },
	/* 3: the trace 9th option, TLV 72: past the walk. */
	{ { .nopts = 9, .ioam_at = 8, .lead = 7, .run = 7, .tail = -1 }, 72, false },
};

/* Frame with the Hop-by-Hop header of case @c around trace @ts; returns its offset. */
static size_t tin_steps_input(struct pkt *p, const struct tin_steps_case *c,
			      const struct trace_spec *ts, __u8 hlim)
{
	struct tlv tl[96];
	size_t hbh, opt;
	int n, i, at = 0;

	pkt_init(p);
	pkt_eth(p, 0x86dd);
	pkt_ipv6(p, HM_NH_HBH, hlim, NULL);
	hbh = hbh_begin(p, HM_NH_UDP);
	opt = hbh_steps(p, hbh, &c->sp, ts, NULL);
	pkt_udp(p, 40000, 5001, 32);
	pkt_finish(p);

	n = hbh_walk(p->b + hbh, p->len - hbh, tl, 96);
	for (i = 0; i < n && i < 96; i++)
		if (hbh + tl[i].off == opt)
			at = i + 1;
	CHECK_EQ("test input: TLV index of the trace", c->ioam_tlv, at);
	hm_check_hbh_linux("test input Hop-by-Hop header", p->b + hbh, p->len - hbh, c->linux_ok);
	return opt;
}

static void t_tin_steps(const struct hm_test *t)
{
	const struct tin_steps_case *c = &tin_steps_cases[t->arg];
	struct hm_ioam6_node_values want;
	struct hm_counters before;
	struct trace_spec ts;
	struct hm_run r;
	struct pkt p;
	size_t opt;

	trace_init(&ts, HM_T_NS, 0xfff000, 3, 1);
	opt = tin_steps_input(&p, c, &ts, 64);
	if (hm_failed())
		return;
	if (c->ioam_tlv > HM_T_LINUX_TLVS_MAX) {
		check_tin_untouched(&p, HM_BIT(HM_CNT_HBH_WALK_LIMIT), 0);
		return;
	}
	tin_values(&want, 64);
	hm_counters_read(env.if_in, &before);
	if (!hm_run_xdp(env.prog_transit_in, env.if_in, p.b, p.len, &r))
		return;
	check_tin_wrote(&p, opt, &ts, &r, &want, 0);
	hm_check_counters(env.if_in, &before, HM_BIT(HM_CNT_TRANSIT_OK), 0);
}

/* ---- egress half ---- */

/*
 * A trace whose newest slot is node R's ingress data: Hop_Lim @slot_hlim,
 * node @node_id, timestamp @ts_ns (POSIX ns), egress fields unavailable.
 * Frame hop limit @hlim. Returns the option offset.
 */
static size_t tout_input(struct pkt *p, struct trace_spec *ts, struct hm_ioam6_node_values *v,
			 __u8 hlim, __u8 slot_hlim, __u32 node_id, __u64 ts_ns)
{
	trace_init(ts, HM_T_NS, 0xfff000, 4, 2);
	tin_values(v, slot_hlim + 1);
	v->node_id = node_id;
	v->ts_sec = ts_ns / 1000000000ULL;
	v->ts_frac = ts_ns % 1000000000ULL / 1000;
	ts->remlen -= 15;
	hm_ioam6_node_data_encode(ts->data + ts->remlen * 4, ts->type, v);
	return pkt_std_trace(p, ts, hlim);
}

static void check_tout_completed(const struct pkt *in, size_t opt, const struct trace_spec *ts,
				 struct hm_ioam6_node_values *v, const struct hm_run *r,
				 __u64 delay_lo, __u64 delay_hi, __u32 qdepth,
				 __u32 occupancy)
{
	size_t slot_off = IOAM_DATA_OFF(opt) + ts->remlen * 4;
	__u8 exp[HM_PKT_MAX];
	__u32 delay = 0;

	CHECK_EQ("tc verdict", TC_PASS_RC, r->retval);
	if (r->out_len >= slot_off + 60) {
		delay = hm_get_be32(r->out + slot_off + field_off(ts->type, 4));
		hm_check(delay >= delay_lo && delay <= delay_hi,
			 "transit delay: expected in [%llu, %llu] ns, got %u ns",
			 (unsigned long long)delay_lo, (unsigned long long)delay_hi, delay);
		hm_check(delay > 0, "transit delay: expected > 0, got %u", delay);
	}
	v->egress_if = HM_T_OUT_ID;
	v->egress_if_wide = HM_T_OUT_ID_WIDE;
	v->transit_delay = delay;
	v->queue_depth = qdepth;
	v->buffer_occupancy = occupancy;
	memcpy(exp, in->b, in->len);
	hm_ioam6_node_data_encode(exp + slot_off, ts->type, v);
	hm_check_bytes("frame", exp, in->len, r->out, r->out_len);
}

/* Ingress half then egress half: the egress one completes the same slot. */
static void t_tout_after_tin(const struct hm_test *t)
{
	struct hm_ioam6_node_values v;
	struct hm_counters before_in, before_out;
	struct trace_spec ts;
	struct pkt p, mid;
	struct hm_run r1, r2;
	size_t opt, slot_off;
	__u64 slot_ns;

	trace_init(&ts, HM_T_NS, 0xfff000, 4, 1);
	opt = pkt_std_trace(&p, &ts, 64);
	hm_counters_read(env.if_in, &before_in);
	hm_counters_read(env.if_out, &before_out);
	if (!hm_run_xdp(env.prog_transit_in, env.if_in, p.b, p.len, &r1))
		return;
	tin_values(&v, 64);
	check_tin_wrote(&p, opt, &ts, &r1, &v, 0);
	if (hm_failed())
		return;
	/* Forwarding decrements the hop limit before egress. */
	memcpy(&mid, &p, sizeof(p));
	memcpy(mid.b, r1.out, r1.out_len);
	mid.b[HM_IP6_OFF + 7] = 63;
	if (!hm_run_tc(env.prog_transit_out, env.if_out, env.if_in, mid.b, mid.len, &r2))
		return;
	ts.remlen -= 15;
	slot_off = IOAM_DATA_OFF(opt) + ts.remlen * 4;
	slot_ns = (__u64)hm_get_be32(mid.b + slot_off + 8) * 1000000000ULL +
		  (__u64)hm_get_be32(mid.b + slot_off + 12) * 1000;
	check_tout_completed(&mid, opt, &ts, &v, &r2, 1, r2.t1 - slot_ns + 1000,
			     HM_T_OUT_QDEPTH, HM_T_OUT_OCCUPANCY);
	hm_check(r2.t1 - r1.t0 + 1000 >= (__u64)v.transit_delay,
		 "transit delay: expected <= test duration %llu ns, got %u ns",
		 (unsigned long long)(r2.t1 - r1.t0 + 1000), v.transit_delay);
	hm_check_counters(env.if_in, &before_in, HM_BIT(HM_CNT_TRANSIT_OK), 0);
	hm_check_counters(env.if_out, &before_out, HM_BIT(HM_CNT_TRANSIT_EGRESS_OK), 0);
}

/* Transit delay = now - slot timestamp; a slot written 5 ms earlier. */
static void t_tout_delay(const struct hm_test *t)
{
	struct hm_ioam6_node_values v;
	struct hm_counters before;
	struct trace_spec ts;
	struct pkt p;
	struct hm_run r;
	__u64 ts_ns;
	size_t opt;

	ts_ns = (hm_now_ns(CLOCK_REALTIME) - 5000000ULL) / 1000 * 1000;
	opt = tout_input(&p, &ts, &v, 63, 63, HM_T_NODE_ID, ts_ns);
	hm_counters_read(env.if_out, &before);
	if (!hm_run_tc(env.prog_transit_out, env.if_out, env.if_in, p.b, p.len, &r))
		return;
	check_tout_completed(&p, opt, &ts, &v, &r, r.t0 - ts_ns - 1000, r.t1 - ts_ns + 1000,
			     HM_T_OUT_QDEPTH, HM_T_OUT_OCCUPANCY);
	hm_check_counters(env.if_out, &before, HM_BIT(HM_CNT_TRANSIT_EGRESS_OK), 0);
}

/* Only the wide Hop_Lim/node_id (bit 8) identifies the slot; bit 9 completed. */
static void tout_wide_only(__u64 slot_node_id_wide)
{
	__u32 type = HM_IOAM_TT_HOPLIM_NODEID_WIDE | HM_IOAM_TT_IF_IDS_WIDE |
		     HM_IOAM_TT_TS_SEC | HM_IOAM_TT_TS_FRAC | HM_IOAM_TT_TRANSIT_DELAY;
	struct hm_ioam6_node_values v;
	struct hm_counters before;
	struct trace_spec ts;
	__u8 exp[HM_PKT_MAX];
	struct pkt p;
	struct hm_run r;
	size_t opt, slot_off;
	__u64 ts_ns;
	__u32 delay = 0;

	ts_ns = (hm_now_ns(CLOCK_REALTIME) - 2000000ULL) / 1000 * 1000;
	trace_init(&ts, HM_T_NS, type, 4, 1);
	tin_values(&v, 64);
	v.node_id_wide = slot_node_id_wide;
	v.ts_sec = ts_ns / 1000000000ULL;
	v.ts_frac = ts_ns % 1000000000ULL / 1000;
	ts.remlen -= ts.nodelen;
	slot_off = ts.remlen * 4;
	hm_ioam6_node_data_encode(ts.data + slot_off, type, &v);
	opt = pkt_std_trace(&p, &ts, 63);
	slot_off += IOAM_DATA_OFF(opt);
	hm_counters_read(env.if_out, &before);
	if (!hm_run_tc(env.prog_transit_out, env.if_out, env.if_in, p.b, p.len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	if (slot_node_id_wide != HM_T_NODE_ID_WIDE) {
		/* Another node's slot: left alone. */
		hm_check_bytes("frame", p.b, p.len, r.out, r.out_len);
		hm_check_counters(env.if_out, &before, 0, 0);
		return;
	}
	if (r.out_len == p.len) {
		delay = hm_get_be32(r.out + slot_off + field_off(type, 4));
		hm_check(delay + 1000 >= r.t0 - ts_ns && delay <= r.t1 - ts_ns + 1000,
			 "transit delay: expected in [%llu, %llu] ns, got %u ns",
			 (unsigned long long)(r.t0 - ts_ns - 1000),
			 (unsigned long long)(r.t1 - ts_ns + 1000), delay);
	}
	v.egress_if_wide = HM_T_OUT_ID_WIDE;
	v.transit_delay = delay;
	memcpy(exp, p.b, p.len);
	hm_ioam6_node_data_encode(exp + slot_off, type, &v);
	hm_check_bytes("frame", exp, p.len, r.out, r.out_len);
	hm_check_counters(env.if_out, &before, HM_BIT(HM_CNT_TRANSIT_EGRESS_OK), 0);
}

static void t_tout_wide_only(const struct hm_test *t)
{
	tout_wide_only(HM_T_NODE_ID_WIDE);
}

/* Same low 32 bits, different 56-bit wide node_id (RFC 9197 §4.4.2.9). */
static void t_tout_other_wide(const struct hm_test *t)
{
	tout_wide_only(HM_T_NODE_ID_WIDE ^ 0x00110000000000ULL);
}

/*
 * Queue depth unavailable: arg 0, a reading twice qdepth_max_age_ns old;
 * arg 1, qdepth_max_age_ns 0, under which no reading is fresh, not even
 * one taken right before the run (newer than the tick
 * hm_queue_state_tick() judges the age at).
 */
static void t_tout_stale_qdepth(const struct hm_test *t)
{
	struct hopmark_node_cfg n = {
		.flags = HM_NODE_F_ID | HM_NODE_F_ID_WIDE, .node_id = HM_T_NODE_ID,
		.node_id_wide = HM_T_NODE_ID_WIDE, .tai_offset_ns = env.tai_offset_ns,
	};
	__u64 mono = hm_now_ns(CLOCK_MONOTONIC), ts_ns;
	struct hm_ioam6_node_values v;
	struct hm_counters before;
	struct trace_spec ts;
	struct pkt p;
	struct hm_run r;
	size_t opt;
	__u32 k = 0;

	if (t->arg && bpf_map_update_elem(env.fd_node, &k, &n, BPF_ANY)) {
		hm_fail("setup: update of hopmark_node failed: %s", strerror(errno));
		return;
	}
	hm_set_qdepth(env.if_out, HM_T_OUT_QDEPTH, HM_T_OUT_OCCUPANCY,
		      t->arg ? mono : mono - 2 * HM_T_QDEPTH_MAX_AGE);
	ts_ns = (hm_now_ns(CLOCK_REALTIME) - 1000000ULL) / 1000 * 1000;
	opt = tout_input(&p, &ts, &v, 63, 63, HM_T_NODE_ID, ts_ns);
	hm_counters_read(env.if_out, &before);
	if (!hm_run_tc(env.prog_transit_out, env.if_out, env.if_in, p.b, p.len, &r))
		return;
	check_tout_completed(&p, opt, &ts, &v, &r, r.t0 - ts_ns - 1000, r.t1 - ts_ns + 1000,
			     HM_IOAM_U32_UNAVAILABLE, v.buffer_occupancy);
	hm_check_counters(env.if_out, &before, HM_BIT(HM_CNT_TRANSIT_EGRESS_OK), 0);
}

static void check_tout_untouched(const struct pkt *p, __u32 may)
{
	struct hm_counters before;
	struct hm_run r;

	hm_counters_read(env.if_out, &before);
	if (!hm_run_tc(env.prog_transit_out, env.if_out, env.if_in, p->b, p->len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	hm_check_bytes("frame", p->b, p->len, r.out, r.out_len);
	hm_check_counters(env.if_out, &before, 0, may);
}

static void t_tout_other_node(const struct hm_test *t)
{
	struct hm_ioam6_node_values v;
	struct trace_spec ts;
	struct pkt p;

	tout_input(&p, &ts, &v, 63, 63, 4, hm_now_ns(CLOCK_REALTIME) - 1000000ULL);
	check_tout_untouched(&p, 0);
}

static void t_tout_other_hoplim(const struct hm_test *t)
{
	struct hm_ioam6_node_values v;
	struct trace_spec ts;
	struct pkt p;

	/* Our node ID but written at another hop limit: an earlier visit. */
	tout_input(&p, &ts, &v, 63, 64, HM_T_NODE_ID, hm_now_ns(CLOCK_REALTIME) - 1000000ULL);
	check_tout_untouched(&p, 0);
}

static void t_tout_empty_trace(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	trace_init(&ts, HM_T_NS, 0xfff000, 4, 0);
	pkt_std_trace(&p, &ts, 63);
	check_tout_untouched(&p, 0);
}

static void t_tout_overflowed(const struct hm_test *t)
{
	struct trace_spec ts;
	struct pkt p;

	/* R could not write (Overflow): the newest slot is another node's. */
	trace_init(&ts, HM_T_NS, 0xfff000, 4, 4);
	ts.flags = HM_IOAM_TRACE_F_OVERFLOW;
	pkt_std_trace(&p, &ts, 63);
	check_tout_untouched(&p, HM_BIT(HM_CNT_TRANSIT_OVERFLOW_SEEN));
}

static void t_tout_no_hbh(const struct hm_test *t)
{
	struct pkt p;

	pkt_std_plain(&p, HM_NH_UDP, 63, 64);
	check_tout_untouched(&p, 0);
}

/*
 * The egress half walks as far as the ingress half: it completes the slot
 * of a trace in a 71-TLV header and at TLV 71, and leaves one at TLV 72
 * (not counted: the ingress half counted it).
 */
static void t_tout_steps(const struct hm_test *t)
{
	const struct tin_steps_case *c = &tin_steps_cases[t->arg];
	struct hm_ioam6_node_values v;
	struct hm_counters before;
	struct trace_spec ts;
	struct hm_run r;
	struct pkt p;
	__u64 ts_ns;
	size_t opt;

	ts_ns = (hm_now_ns(CLOCK_REALTIME) - 1000000ULL) / 1000 * 1000;
	tout_input(&p, &ts, &v, 63, 63, HM_T_NODE_ID, ts_ns);
	opt = tin_steps_input(&p, c, &ts, 63);
	if (hm_failed())
		return;
	if (c->ioam_tlv > HM_T_LINUX_TLVS_MAX) {
		check_tout_untouched(&p, 0);
		return;
	}
	hm_counters_read(env.if_out, &before);
	if (!hm_run_tc(env.prog_transit_out, env.if_out, env.if_in, p.b, p.len, &r))
		return;
	check_tout_completed(&p, opt, &ts, &v, &r, r.t0 - ts_ns - 1000, r.t1 - ts_ns + 1000,
			     HM_T_OUT_QDEPTH, HM_T_OUT_OCCUPANCY);
	hm_check_counters(env.if_out, &before, HM_BIT(HM_CNT_TRANSIT_EGRESS_OK), 0);
}

static void t_tout_truncated(const struct hm_test *t)
{
	struct hm_ioam6_node_values v;
	struct trace_spec ts;
	struct pkt p;
	struct hm_run r;
	size_t len, hbh_end_off;
	int bad = 0;

	tout_input(&p, &ts, &v, 63, 63, HM_T_NODE_ID, hm_now_ns(CLOCK_REALTIME) - 1000000ULL);
	hbh_end_off = HM_EXT_OFF + (p.b[HM_EXT_OFF + 1] + 1) * 8;
	for (len = HM_TC_MIN_LEN; len < hbh_end_off && bad < 8; len++) {
		if (!hm_run_tc(env.prog_transit_out, env.if_out, env.if_in, p.b, len, &r)) {
			bad++;
			continue;
		}
		if (r.retval != TC_PASS_RC || r.out_len != len || memcmp(r.out, p.b, len)) {
			hm_fail("cut at %zu bytes: verdict %u, %u bytes out: frame changed",
				len, r.retval, r.out_len);
			bad++;
		}
	}
}

static const char *const bit_names[12] = {
	"hoplim_nodeid", "if_ids", "ts_sec", "ts_frac", "transit_delay", "ns_data",
	"queue_depth", "csum_compl", "hoplim_nodeid_wide", "if_ids_wide", "ns_data_wide",
	"buffer_occupancy",
};

void register_transit_tests(void)
{
	int i;

	for (i = 0; i < 12; i++)
		hm_add_test(t_tin_bit, i, "transit_in_writes_bit%d_%s", i, bit_names[i]);
	hm_add_test(t_tin_all12, 0, "transit_in_writes_all_12_fields_0xfff000");
	for (i = 12; i < 22; i++)
		hm_add_test(t_tin_bit, i, "transit_in_writes_undefined_bit%d_as_ones", i);
	hm_add_test(t_tin_all22, 0, "transit_in_writes_bits_0_to_21_0xfffffc");
	hm_add_test(t_tin_bit22, HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_OPAQUE,
		    "transit_in_bit22_writes_empty_snapshot_short");
	hm_add_test(t_tin_bit22, 0xfff000 | HM_IOAM_TT_OPAQUE,
		    "transit_in_bit22_writes_empty_snapshot_all_fields");
	hm_add_test(t_tin_bit22, HM_IOAM_TT_OPAQUE, "transit_in_bit22_only_writes_snapshot_header");
	hm_add_test(t_tin_bit23, 0, "transit_in_ignores_reserved_bit23");
	hm_add_test(t_tin_max_area, 0, "transit_in_writes_end_of_244_byte_area");
	hm_add_test(t_tin_max_area, 60, "transit_in_writes_start_of_244_byte_area");
	hm_add_test(t_tin_type_zero, 0, "transit_in_trace_type_zero_leaves_frame");
	hm_add_test(t_tin_hoplim, 200, "transit_in_hop_limit_200_written_as_199");
	hm_add_test(t_tin_hoplim, 1, "transit_in_hop_limit_1_written_as_0");
	hm_add_test(t_tin_first_slot, 0, "transit_in_first_node_writes_end_of_area");
	hm_add_test(t_tin_last_slot, 0, "transit_in_fills_last_free_slot");
	hm_add_test(t_tin_no_node_id, 0, "transit_in_unavailable_node_ids_when_unset");
	hm_add_test(t_tin_no_ns_data, 0, "transit_in_unavailable_ns_data_when_unset");
	hm_add_test(t_tin_stale_occupancy, 0, "transit_in_stale_qdepth_gives_unavailable_occupancy");
	hm_add_test(t_tin_no_occupancy, 0, "transit_in_missing_qdepth_gives_unavailable_occupancy");
	hm_add_test(t_tin_tai_offset, 0, "transit_in_timestamp_subtracts_tai_offset");
	hm_add_test(t_tin_if_no_flag, 0, "transit_in_ignores_interface_without_transit_flag");
	hm_add_test(t_tin_if_no_entry, 0, "transit_in_ignores_unconfigured_interface");
	hm_add_test(t_tin_overflow_full, 0, "transit_in_sets_overflow_when_full");
	hm_add_test(t_tin_overflow_partial, 0, "transit_in_sets_overflow_when_room_too_small");
	hm_add_test(t_tin_overflow_snapshot, 0, "transit_in_sets_overflow_when_no_room_for_snapshot");
	hm_add_test(t_tin_overflow_seen, 0, "transit_in_leaves_overflowed_trace_untouched");
	hm_add_test(t_tin_unknown_ns, 0, "transit_in_ignores_unknown_namespace");
	hm_add_test(t_tin_if_not_present, 0, "transit_in_ignores_ifcfg_entry_without_present_flag");
	hm_add_test(t_tin_ns_not_known, 0, "transit_in_namespace_entry_without_known_flag_is_unknown");
	hm_add_test(t_tin_ns_not_known, 1, "transit_in_deleted_namespace_is_unknown");
	hm_add_test(t_tin_nodelen_mismatch, 14, "transit_in_rejects_nodelen_too_small");
	hm_add_test(t_tin_nodelen_mismatch, 16, "transit_in_rejects_nodelen_too_large");
	hm_add_test(t_tin_nodelen_mismatch, 0, "transit_in_rejects_nodelen_zero");
	hm_add_test(t_tin_remlen_beyond, 1, "transit_in_rejects_remlen_one_word_beyond_data");
	hm_add_test(t_tin_remlen_beyond, 40, "transit_in_rejects_remlen_far_beyond_data");
	hm_add_test(t_tin_remlen_off_slot, 1, "transit_in_rejects_remlen_one_word_off_slot_boundary");
	hm_add_test(t_tin_remlen_off_slot, 14, "transit_in_rejects_remlen_14_words_off_slot_boundary");
	hm_add_test(t_tin_optlen_short, 2, "transit_in_rejects_opt_len_2_below_header");
	hm_add_test(t_tin_optlen_short, 6, "transit_in_rejects_opt_len_6_below_header");
	hm_add_test(t_tin_optlen_short, 9, "transit_in_rejects_opt_len_9_below_header");
	hm_add_test(t_tin_optlen_not_4n, 2, "transit_in_rejects_data_area_not_4n");
	hm_add_test(t_tin_opt_beyond_hbh, 0, "transit_in_rejects_option_beyond_hbh");
	for (i = 1; i < 4; i++)
		hm_add_test(t_tin_misaligned, i, "transit_in_rejects_option_at_4n_plus_%d", i);
	hm_add_test(t_tin_after_pads, 0, "transit_in_walks_pad1_padn_before_option");
	hm_add_test(t_tin_after_ra, 0, "transit_in_walks_router_alert_before_option");
	hm_add_test(t_tin_after_unknown, 0, "transit_in_walks_unknown_option_before_option");
	hm_add_test(t_tin_after_many, 0, "transit_in_walks_twelve_options_before_option");
	hm_add_test(t_tin_options_after, 0, "transit_in_keeps_options_after_trace");
	hm_add_test(t_tin_second_trace, 0, "transit_in_fills_trace_after_unknown_namespace_trace");
	hm_add_test(t_tin_fragment, 0, "transit_in_ignores_first_fragment");
	hm_add_test(t_tin_fragment, 8, "transit_in_ignores_later_fragment");
	hm_add_test(t_tin_ipv4, 0, "transit_in_passes_ipv4");
	hm_add_test(t_tin_no_hbh, HM_NH_UDP, "transit_in_passes_ipv6_udp_without_hbh");
	hm_add_test(t_tin_no_hbh, HM_NH_TCP, "transit_in_passes_ipv6_tcp_without_hbh");
	hm_add_test(t_tin_hbh_no_ioam, 0, "transit_in_passes_hbh_without_ioam");
	hm_add_test(t_tin_other_ioam_type, HM_IOAM_OPT_INCREMENTAL_TRACE,
		    "transit_in_ignores_incremental_trace_option");
	hm_add_test(t_tin_other_ioam_type, HM_IOAM_OPT_E2E, "transit_in_ignores_e2e_option");
	hm_add_test(t_tin_truncated, 0, "transit_in_truncated_at_every_length");
	hm_add_test(t_tin_steps, 0, "transit_in_fills_trace_in_71_tlv_hbh_linux_accepts");
	hm_add_test(t_tin_steps, 1, "transit_in_fills_trace_at_tlv_64_last_of_8_options");
	hm_add_test(t_tin_steps, 2, "transit_in_fills_trace_at_tlv_71_last_walked");
	hm_add_test(t_tin_steps, 3, "transit_in_counts_trace_at_tlv_72_as_walk_limit");

	hm_add_test(t_tout_after_tin, 0, "transit_out_completes_slot_written_by_transit_in");
	hm_add_test(t_tout_delay, 0, "transit_out_delay_is_now_minus_slot_timestamp");
	hm_add_test(t_tout_wide_only, 0, "transit_out_finds_slot_by_wide_node_id");
	hm_add_test(t_tout_other_wide, 0, "transit_out_leaves_slot_of_other_wide_node_id");
	hm_add_test(t_tout_stale_qdepth, 0, "transit_out_stale_qdepth_gives_unavailable");
	hm_add_test(t_tout_stale_qdepth, 1, "transit_out_max_age_zero_no_reading_is_fresh");
	hm_add_test(t_tout_other_node, 0, "transit_out_leaves_other_node_slot");
	hm_add_test(t_tout_other_hoplim, 0, "transit_out_leaves_slot_of_other_hop_limit");
	hm_add_test(t_tout_empty_trace, 0, "transit_out_leaves_trace_without_slots");
	hm_add_test(t_tout_overflowed, 0, "transit_out_leaves_overflowed_trace");
	hm_add_test(t_tout_no_hbh, 0, "transit_out_passes_ipv6_without_hbh");
	hm_add_test(t_tout_truncated, 0, "transit_out_truncated_at_every_length");
	hm_add_test(t_tout_steps, 0, "transit_out_completes_trace_in_71_tlv_hbh_linux_accepts");
	hm_add_test(t_tout_steps, 2, "transit_out_completes_trace_at_tlv_71");
	hm_add_test(t_tout_steps, 3, "transit_out_leaves_trace_at_tlv_72");
}
