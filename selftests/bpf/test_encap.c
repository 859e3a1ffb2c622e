// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_encap.c - hm_encap (tc egress) under BPF_PROG_TEST_RUN.
 *
 * Expected frames are built independently: a new Hop-by-Hop header right
 * after the IPv6 header (RFC 8200 §4.1 order, RFC 9486), PadN(2) so the
 * IOAM option starts at offset 4 (4n alignment, RFC 9486 §2.1), the
 * Pre-allocated Trace (RFC 9197 §4.4) with a zeroed data area of the rule's
 * size, trailing PadN to 8n, IPv6 Payload Length and Next Header chain
 * fixed, everything after the IPv6 header unchanged. With the namespace
 * configured, the encapsulating node writes its own node data as Linux's
 * IOAM encapsulation does: Hop_Lim = the hop limit the packet leaves with,
 * ingress interface unavailable (a local packet was received on none,
 * RFC 9197 §4.4.2.2), egress interface = the egress device's IDs.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <linux/pkt_cls.h>

#include "hopmark.h"
#include "bpf_test.h"

#define TC_PASS_RC	((__u32)TC_ACT_UNSPEC)	/* passed on, tc chain left open */

static const __u8 prefix_b48[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x0b };
static const __u8 dst_other[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x0c, [15] = 1 };

/**
 * struct enc_rule - what the test puts in hopmark_encap
 * @ns:		IOAM-Namespace
 * @size:	data area, bytes
 * @type:	IOAM-Trace-Type
 */
struct enc_rule {
	__u16	ns;
	__u8	size;
	__u32	type;
};

static const struct enc_rule rule_std = { HM_T_NS, 240, 0xfff000 };

static void set_rule(const __u8 *prefix, __u32 plen, const struct enc_rule *ru, __u32 ifindex,
		     __u32 k, __u32 n)
{
	struct hopmark_encap_cfg c = {
		.ifindex = ifindex, .ns_id = ru->ns, .size = ru->size,
		.trace_type = ru->type, .freq_k = k, .freq_n = n,
	};

	hm_set_encap(prefix, plen, &c);
}

/* Node data the encapsulating node writes for itself. */
static void enc_values(struct hm_ioam6_node_values *v, __u8 hlim)
{
	memset(v, 0, sizeof(*v));
	v->hop_limit = hlim;
	v->node_id = HM_T_NODE_ID;
	v->ingress_if = HM_IOAM_U16_UNAVAILABLE;
	v->egress_if = HM_T_ENC_ID;
	v->transit_delay = HM_IOAM_U32_UNAVAILABLE;
	v->ns_data = HM_T_NS_DATA;
	v->queue_depth = HM_IOAM_U32_UNAVAILABLE;	/* no hopmark_qdepth[if_enc] */
	v->csum_compl = HM_IOAM_U32_UNAVAILABLE;
	v->node_id_wide = HM_T_NODE_ID_WIDE;
	v->ingress_if_wide = HM_IOAM_U32_UNAVAILABLE;
	v->egress_if_wide = HM_T_ENC_ID_WIDE;
	v->ns_data_wide = HM_T_NS_DATA_WIDE;
	v->buffer_occupancy = HM_T_OCCUPANCY;
	v->opaque_len = 0;
	v->opaque_schema = HM_IOAM_U24_UNAVAILABLE;
}

/*
 * The IOAM option (from its type octet) the rule must produce. With
 * @node_data, the node's slot is at the end of the data area; its
 * timestamps are checked in @obs_opt (the option found in the output, may
 * be NULL) against the run's window and copied from there.
 */
static size_t enc_option(struct pkt *o, const struct enc_rule *ru, bool node_data, __u8 hlim,
			 const __u8 *obs_opt, const struct hm_run *r)
{
	struct hm_ioam6_node_values v;
	struct trace_spec ts;
	size_t slot = trace_slot_len(ru->type);

	memset(&ts, 0, sizeof(ts));
	ts.ns = ru->ns;
	ts.type = ru->type;
	ts.nodelen = hm_ioam6_trace_nodelen(ru->type);
	ts.data_len = ru->size;
	ts.remlen = ru->size / 4;
	if (node_data && slot <= ru->size) {
		ts.remlen -= slot / 4;
		enc_values(&v, hlim);
		if (obs_opt)
			hm_check_ts(ru->type, obs_opt + 12 + ts.remlen * 4, r->t0, r->t1, 0, &v);
		hm_ioam6_node_data_encode(ts.data + ts.remlen * 4, ru->type, &v);
	} else if (node_data) {
		/* RFC 9197 §4.4.1: a node without room sets the Overflow flag. */
		ts.flags = HM_IOAM_TRACE_F_OVERFLOW;
	}
	pkt_init(o);
	opt_ioam(o, &ts);
	return o->len;
}

/*
 * Expected frame: @in with a new Hop-by-Hop header [Next Header, Hdr Ext
 * Len, PadN(2), IOAM option, PadN to 8n] after the IPv6 header.
 */
static void enc_expected(const struct pkt *in, struct pkt *exp, const struct enc_rule *ru,
			 bool node_data, const struct hm_run *r)
{
	const __u8 *obs = NULL;
	struct pkt o;
	size_t hbh;

	if (r->out_len >= HM_EXT_OFF + 4 + 12 + (__u32)ru->size)
		obs = r->out + HM_EXT_OFF + 4;
	enc_option(&o, ru, node_data, in->b[HM_IP6_OFF + 7], obs, r);
	pkt_init(exp);
	pkt_put(exp, in->b, HM_EXT_OFF);
	exp->b[HM_IP6_OFF + 6] = HM_NH_HBH;
	hbh = hbh_begin(exp, in->b[HM_IP6_OFF + 6]);
	opt_padn(exp, 2);
	pkt_put(exp, o.b, o.len);
	hbh_end(exp, hbh);
	pkt_put(exp, in->b + HM_EXT_OFF, in->len - HM_EXT_OFF);
	hm_put_be16(exp->b + HM_IP6_OFF + 4, exp->len - HM_EXT_OFF);
}

static void enc_input(struct pkt *p, __u8 l4, size_t payload, const __u8 *dst)
{
	pkt_init(p);
	pkt_eth(p, 0x86dd);
	pkt_ipv6(p, l4, 64, dst);
	if (l4 == HM_NH_UDP)
		pkt_udp(p, 40000, 5001, payload);
	else if (l4 == HM_NH_TCP)
		pkt_tcp(p, 40001, 5201, payload);
	else
		pkt_icmp6_echo(p, payload);
	pkt_finish(p);
}

/* Run the rule on @in and compare with the expected encapsulated frame. */
static void enc_check_inserted_from(const struct pkt *in, const struct enc_rule *ru,
				    bool node_data, int iif, __u32 must, __u32 may,
				    void (*adjust)(struct pkt *exp, const struct hm_run *r))
{
	struct hm_counters before;
	struct hm_run r;
	struct pkt exp;

	hm_counters_read(env.if_enc, &before);
	if (!hm_run_tc(env.prog_encap, env.if_enc, iif, in->b, in->len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	enc_expected(in, &exp, ru, node_data, &r);
	if (adjust)
		adjust(&exp, &r);
	hm_check_bytes("frame", exp.b, exp.len, r.out, r.out_len);
	hm_check_counters(env.if_enc, &before, must, may);
}

/* Locally originated packet: __sk_buff.ingress_ifindex 0. */
static void enc_check_inserted(const struct pkt *in, const struct enc_rule *ru, bool node_data,
			       __u32 must, __u32 may)
{
	enc_check_inserted_from(in, ru, node_data, 0, must, may, NULL);
}

static void enc_check_untouched(const struct pkt *in, __u32 must, __u32 may)
{
	struct hm_counters before;
	struct hm_run r;

	hm_counters_read(env.if_enc, &before);
	if (!hm_run_tc(env.prog_encap, env.if_enc, 0, in->b, in->len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	hm_check_bytes("frame", in->b, in->len, r.out, r.out_len);
	hm_check_counters(env.if_enc, &before, must, may);
}

static void t_enc_l4(const struct hm_test *t)
{
	struct pkt in;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	enc_input(&in, t->arg, 100, NULL);
	enc_check_inserted(&in, &rule_std, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
}

/* Rule data area of 4n but not 8n bytes: trailing PadN(4) makes 8n. */
static void t_enc_pad(const struct hm_test *t)
{
	struct enc_rule ru = { HM_T_NS, t->arg, HM_IOAM_TT_HOPLIM_NODEID };
	struct pkt in;

	set_rule(prefix_b48, 48, &ru, env.if_enc, 1, 1);
	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_inserted(&in, &ru, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
}

static void t_enc_type(const struct hm_test *t)
{
	struct enc_rule ru = { HM_T_NS, 96, t->arg };
	struct pkt in;

	set_rule(prefix_b48, 48, &ru, env.if_enc, 1, 1);
	enc_input(&in, HM_NH_UDP, 64, NULL);
	enc_check_inserted(&in, &ru, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
}

/* Namespace not configured at the encapsulating node: empty trace only. */
static void t_enc_unknown_ns(const struct hm_test *t)
{
	struct pkt in;

	hm_del_ns(HM_T_NS);
	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_inserted(&in, &rule_std, false, HM_BIT(HM_CNT_ENCAP_OK),
			   HM_BIT(HM_CNT_UNKNOWN_NS));
}

/* No room for the node's own data: trace inserted with the Overflow flag. */
static void t_enc_area_smaller_than_slot(const struct hm_test *t)
{
	struct enc_rule ru = { HM_T_NS, 40, 0xfff000 };	/* 40 < 60-byte slot */
	struct pkt in;

	set_rule(prefix_b48, 48, &ru, env.if_enc, 1, 1);
	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_inserted(&in, &ru, true, HM_BIT(HM_CNT_ENCAP_OK),
			   HM_BIT(HM_CNT_TRANSIT_OVERFLOW));
}

static void t_enc_srh(const struct hm_test *t)
{
	struct pkt in;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	pkt_init(&in);
	pkt_eth(&in, 0x86dd);
	pkt_ipv6(&in, HM_NH_ROUTING, 64, NULL);
	pkt_srh(&in, HM_NH_UDP, 2);
	pkt_udp(&in, 40000, 5001, 100);
	pkt_finish(&in);
	enc_check_inserted(&in, &rule_std, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
}

/*
 * Existing Hop-by-Hop header [UDP, 0, Router Alert, PadN(2)]: the option is
 * appended inside it at a 4n offset, padded with PadN to 8n, other options
 * kept in place; the header grows by the smallest 8n holding the option.
 */
static void t_enc_merge(const struct hm_test *t)
{
	struct hm_counters before;
	struct tlv tl[16];
	struct hm_run r;
	struct pkt in, o;
	size_t hbh_len, exp_hbh_len, ioam_off = 0;
	int n, i, nioam = 0, nra = 0;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	pkt_init(&in);
	pkt_eth(&in, 0x86dd);
	pkt_ipv6(&in, HM_NH_HBH, 64, NULL);
	i = hbh_begin(&in, HM_NH_UDP);
	opt_raw(&in, 0x05, 2, 0);
	hbh_end(&in, i);
	pkt_udp(&in, 40000, 5001, 100);
	pkt_finish(&in);

	hm_counters_read(env.if_enc, &before);
	if (!hm_run_tc(env.prog_encap, env.if_enc, 0, in.b, in.len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	exp_hbh_len = 8 + 256;
	CHECK_EQ("frame length", in.len + 256, r.out_len);
	if (r.out_len < HM_EXT_OFF + 8)
		return;
	hm_check_bytes("Ethernet and IPv6 header before Payload Length", in.b, HM_IP6_OFF + 4,
		       r.out, HM_IP6_OFF + 4);
	CHECK_EQ("IPv6 Payload Length", in.len - HM_EXT_OFF + 256,
		 hm_get_be16(r.out + HM_IP6_OFF + 4));
	CHECK_EQ("IPv6 Next Header", HM_NH_HBH, r.out[HM_IP6_OFF + 6]);
	CHECK_EQ("IPv6 Hop Limit", 64, r.out[HM_IP6_OFF + 7]);
	CHECK_EQ("Hop-by-Hop Next Header", HM_NH_UDP, r.out[HM_EXT_OFF]);
	hbh_len = (r.out[HM_EXT_OFF + 1] + 1) * 8;
	CHECK_EQ("Hop-by-Hop length, bytes", exp_hbh_len, hbh_len);
	if (hm_failed())
		return;
	n = hbh_walk(r.out + HM_EXT_OFF, r.out_len - HM_EXT_OFF, tl, 16);
	if (!hm_check(n > 0, "Hop-by-Hop options: expected a valid TLV list with zeroed pads"))
		return;
	for (i = 0; i < n && i < 16; i++) {
		if (tl[i].type == HM_IPV6_TLV_PAD1 || tl[i].type == HM_IPV6_TLV_PADN)
			continue;
		if (tl[i].type == 0x05) {
			nra++;
			hm_check(tl[i].off == 2 && tl[i].len == 2 &&
				 !r.out[HM_EXT_OFF + 4] && !r.out[HM_EXT_OFF + 5],
				 "Router Alert: expected unchanged at offset 2, found at %zu len %u",
				 tl[i].off, tl[i].len);
		} else if (tl[i].type == HM_IPV6_TLV_IOAM) {
			nioam++;
			ioam_off = tl[i].off;
		} else {
			hm_fail("unexpected option type 0x%02x at offset %zu", tl[i].type, tl[i].off);
		}
	}
	CHECK_EQ("Router Alert options", 1, nra);
	CHECK_EQ("IOAM options", 1, nioam);
	if (nioam != 1)
		return;
	CHECK_EQ("IOAM option offset mod 4", 0, ioam_off % 4);
	enc_option(&o, &rule_std, true, 64, r.out + HM_EXT_OFF + ioam_off, &r);
	hm_check_bytes("IOAM option", o.b, o.len, r.out + HM_EXT_OFF + ioam_off,
		       r.out_len - HM_EXT_OFF - ioam_off < o.len ?
		       r.out_len - HM_EXT_OFF - ioam_off : o.len);
	hm_check_bytes("upper layer", in.b + HM_EXT_OFF + 8, in.len - HM_EXT_OFF - 8,
		       r.out + HM_EXT_OFF + hbh_len, r.out_len - HM_EXT_OFF - hbh_len);
	hm_check_counters(env.if_enc, &before, HM_BIT(HM_CNT_ENCAP_HBH_MERGED),
			  HM_BIT(HM_CNT_ENCAP_OK));
}

/*
 * ---- Linux's Hop-by-Hop rules ----
 *
 * hbh_linux_accepts() against the running kernel, on each side of every
 * rule it models; the merge tests below rely on both.
 */

/* Frame: Ethernet, IPv6, Hop-by-Hop whose options @put writes (to 8n), UDP. */
static void enc_input_hbh(struct pkt *p, void (*put)(struct pkt *p, size_t hbh, __u32 arg),
			  __u32 arg)
{
	size_t hbh;

	pkt_init(p);
	pkt_eth(p, 0x86dd);
	pkt_ipv6(p, HM_NH_HBH, 64, NULL);
	hbh = hbh_begin(p, HM_NH_UDP);
	put(p, hbh, arg);
	hbh_end(p, hbh);
	pkt_udp(p, 40000, 5001, 100);
	pkt_finish(p);
}

static const struct {
	const char	*name;
	bool		accepts;
} rules_cases[] = {
	{ "8_options", true },			/* 0 */
	{ "9_options", false },
	{ "7_pad1_in_a_row", true },
	{ "8_pad1_in_a_row", false },
	{ "padn_of_7_bytes", true },
	{ "padn_of_8_bytes", false },		/* 5 */
	{ "pad1_and_padn_7_bytes", true },
	{ "pad1_and_padn_8_bytes", false },
	{ "padn_nonzero_data", false },
	{ "unknown_option_action_01", false },
	{ "router_alert_length_3", false },	/* 10 */
	{ "ioam_at_4n_plus_2", false },
	{ "ioam_at_4n", true },
	{ "option_past_header_end", false },
};

static void put_rules_case(struct pkt *p, size_t hbh, __u32 arg)
{
	struct trace_spec ts;
	int i, n = arg == 0 ? 8 : arg == 1 ? 9 : 0;

	for (i = 0; i < n; i++)
		opt_raw(p, 0x1e, 0, 0);
	/* Cases 2-7: one option, then a run of 7 or 8 padding bytes to 16. */
	switch (arg) {
	case 2: case 3:
		opt_raw(p, 0x1e, 7 - arg, 0);
		for (i = 0; i < (int)arg + 5; i++)
			opt_pad1(p);
		break;
	case 4: case 5:
		opt_raw(p, 0x1e, 9 - arg, 0);
		opt_padn(p, arg + 3);
		break;
	case 6: case 7:
		opt_raw(p, 0x1e, 11 - arg, 0);
		opt_pad1(p);
		opt_padn(p, arg);
		break;
	case 8:
		opt_padn(p, 4);
		p->b[p->len - 2] = 0x01;
		break;
	case 9:
		opt_raw(p, 0x5e, 2, 0);
		break;
	case 10:
		opt_raw(p, 0x05, 3, 0);
		break;
	case 11: case 12:
		trace_init(&ts, HM_T_NS, HM_IOAM_TT_HOPLIM_NODEID, 2, 0);
		opt_align(p, hbh, arg == 11 ? 2 : 0);
		opt_ioam(p, &ts);
		break;
	case 13:
		opt_raw(p, 0x1e, 2, 0);
		opt_raw(p, 0x1e, 4, 0);		/* cut below: ends past the header */
		break;
	}
}

static void t_hbh_rules(const struct hm_test *t)
{
	struct pkt in;

	enc_input_hbh(&in, put_rules_case, t->arg);
	if (t->arg >= 2 && t->arg <= 7)
		CHECK_EQ("test input Hop-by-Hop length", 16, (in.b[HM_EXT_OFF + 1] + 1) * 8);
	if (t->arg == 13)
		in.b[HM_EXT_OFF + 1] = 0;	/* 8 bytes: the second option overruns */
	hm_check_hbh_linux("Hop-by-Hop header", in.b + HM_EXT_OFF, in.len - HM_EXT_OFF,
			   rules_cases[t->arg].accepts);
}

/*
 * ---- merging within what a Linux receiver accepts ----
 *
 * A Linux node drops a packet whose Hop-by-Hop header has more than 8
 * options, more than 7 padding bytes in a row or non-zero PadN data. The
 * merge must never produce such a header: when it would, the packet leaves
 * unchanged and encap_skip_hbh_limit counts it. Every input and merged
 * header is checked against Linux's rules and against the running kernel
 * (hm_check_hbh_linux()).
 */

/*
 * Expected merge of @ru into @in: the old header's bytes, Hdr Ext Len
 * updated, the option at its 8n end, PadN to 8n, Payload Length updated.
 */
static void enc_expected_merged(const struct pkt *in, struct pkt *exp, const struct enc_rule *ru,
				const struct hm_run *r)
{
	size_t old_len = (size_t)(in->b[HM_EXT_OFF + 1] + 1) * 8;
	const __u8 *obs = NULL;
	struct pkt o;

	if (r->out_len >= HM_EXT_OFF + old_len + 12 + ru->size)
		obs = r->out + HM_EXT_OFF + old_len;
	enc_option(&o, ru, true, in->b[HM_IP6_OFF + 7], obs, r);
	pkt_init(exp);
	pkt_put(exp, in->b, HM_EXT_OFF + old_len);
	pkt_put(exp, o.b, o.len);
	hbh_end(exp, HM_EXT_OFF);
	pkt_put(exp, in->b + HM_EXT_OFF + old_len, in->len - HM_EXT_OFF - old_len);
	hm_put_be16(exp->b + HM_IP6_OFF + 4, exp->len - HM_EXT_OFF);
}

/* The input is what the test says: accepted by Linux or not. */
static bool enc_input_is(const struct pkt *in, bool linux_accepts)
{
	return hm_check_hbh_linux("test input Hop-by-Hop header", in->b + HM_EXT_OFF,
				  in->len - HM_EXT_OFF, linux_accepts);
}

/* @in merged with @ru, and Linux accepts the merged header. */
static void enc_check_merged(const struct pkt *in, const struct enc_rule *ru)
{
	struct hm_counters before;
	struct hm_run r;
	struct pkt exp;

	if (!enc_input_is(in, true))
		return;
	set_rule(prefix_b48, 48, ru, env.if_enc, 1, 1);
	hm_counters_read(env.if_enc, &before);
	if (!hm_run_tc(env.prog_encap, env.if_enc, 0, in->b, in->len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	enc_expected_merged(in, &exp, ru, &r);
	hm_check_bytes("frame", exp.b, exp.len, r.out, r.out_len);
	hm_check_hbh_linux("merged Hop-by-Hop header", r.out + HM_EXT_OFF, r.out_len - HM_EXT_OFF,
			   true);
	hm_check_counters(env.if_enc, &before,
			  HM_BIT(HM_CNT_ENCAP_OK) | HM_BIT(HM_CNT_ENCAP_HBH_MERGED), 0);
}

/*
 * @in left unchanged and counted under @cnt alone. When the frame did
 * change, says whether this kernel still accepts what came out.
 */
static void enc_check_skipped(const struct pkt *in, bool linux_accepts, __u32 cnt)
{
	struct hm_counters before;
	struct hm_run r;

	if (!enc_input_is(in, linux_accepts))
		return;
	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	hm_counters_read(env.if_enc, &before);
	if (!hm_run_tc(env.prog_encap, env.if_enc, 0, in->b, in->len, &r))
		return;
	CHECK_EQ("tc verdict", TC_PASS_RC, r.retval);
	if (!hm_check_bytes("frame", in->b, in->len, r.out, r.out_len) && linux_accepts &&
	    r.out_len > HM_EXT_OFF)
		hm_diag("output Hop-by-Hop header: this kernel %s it",
			hm_kernel_hbh(r.out + HM_EXT_OFF, r.out_len - HM_EXT_OFF) == 1 ?
			"delivers" : "does not deliver");
	hm_check_counters(env.if_enc, &before, HM_BIT(cnt), 0);
}

/* @arg options of type 0x1e, no padding but the last to 8n. */
static void put_opts(struct pkt *p, size_t hbh, __u32 arg)
{
	struct hbh_steps_spec sp = { .nopts = arg, .ioam_at = -1, .tail = 0 };

	hbh_steps(p, hbh, &sp, NULL, NULL);
}

static void t_enc_merge_opts(const struct hm_test *t)
{
	struct pkt in;

	enc_input_hbh(&in, put_opts, t->arg);
	if (t->arg < HM_T_LINUX_OPTS_MAX)
		enc_check_merged(&in, &rule_std);
	else
		enc_check_skipped(&in, t->arg == HM_T_LINUX_OPTS_MAX, HM_CNT_ENCAP_SKIP_HBH_LIMIT);
}

/* @arg options with 7 Pad1 before, between and after them. */
static void put_opts_runs(struct pkt *p, size_t hbh, __u32 arg)
{
	struct hbh_steps_spec sp = { .nopts = arg, .ioam_at = -1, .lead = 7, .run = 7, .tail = 7 };
	int n;

	hbh_steps(p, hbh, &sp, NULL, &n);
	assert(n == (int)arg + 7 * ((int)arg + 1));
}

/* 7 options and 56 Pad1 (63 TLVs): merged; 8 and 63 (71 TLVs): not. */
static void t_enc_merge_opts_runs(const struct hm_test *t)
{
	struct pkt in;

	enc_input_hbh(&in, put_opts_runs, t->arg);
	if (t->arg < HM_T_LINUX_OPTS_MAX)
		enc_check_merged(&in, &rule_std);
	else
		enc_check_skipped(&in, true, HM_CNT_ENCAP_SKIP_HBH_LIMIT);
}

/*
 * Padding next to where the option goes: @arg 0 seven Pad1 end the old
 * header, 1 a PadN of 7 bytes does; the option follows them, and the PadN
 * the merge adds (size 240) or none (size 244) follows the option.
 */
static void put_trailing_run(struct pkt *p, size_t hbh, __u32 arg)
{
	int i;

	opt_raw(p, 0x1e, 5, 0xa5);
	if (arg == 0)
		for (i = 0; i < 7; i++)
			opt_pad1(p);
	else
		opt_padn(p, 7);
}

static void t_enc_merge_trailing_run(const struct hm_test *t)
{
	struct enc_rule ru = { HM_T_NS, t->arg >> 1 ? 244 : 240, 0xfff000 };
	struct pkt in;

	enc_input_hbh(&in, put_trailing_run, t->arg & 1);
	enc_check_merged(&in, &ru);
}

/*
 * Old headers the merge cannot make valid (a Linux node drops them
 * already, and would still): @arg 0 an 8-byte padding run between options,
 * 1 an 8-byte run where the option would go, 2 non-zero PadN data.
 */
static void put_bad_padding(struct pkt *p, size_t hbh, __u32 arg)
{
	int i;

	switch (arg) {
	case 0:
		opt_padn(p, 4);
		opt_padn(p, 4);
		opt_raw(p, 0x1e, 4, 0xa0);
		break;
	case 1:
		opt_raw(p, 0x1e, 4, 0xa0);
		for (i = 0; i < 8; i++)
			opt_pad1(p);
		break;
	default:
		opt_padn(p, 4);
		p->b[p->len - 1] = 0x5a;
		opt_raw(p, 0x1e, 0, 0);
		break;
	}
}

static void t_enc_merge_bad_padding(const struct hm_test *t)
{
	struct pkt in;

	enc_input_hbh(&in, put_bad_padding, t->arg);
	enc_check_skipped(&in, false, HM_CNT_ENCAP_SKIP_HBH_LIMIT);
}

/* 7 options of 255 bytes and a 7-byte PadN: 1808 bytes, + 256 > 2048. */
static void put_big(struct pkt *p, size_t hbh, __u32 arg)
{
	int i;

	for (i = 0; i < 7; i++)
		opt_raw(p, 0x1e, 255, 0xa0 + i);
	opt_padn(p, 7);
}

static void t_enc_merge_too_long(const struct hm_test *t)
{
	struct pkt in;

	enc_input_hbh(&in, put_big, 0);
	CHECK_EQ("test input Hop-by-Hop length", 1808, (in.b[HM_EXT_OFF + 1] + 1) * 8);
	enc_check_skipped(&in, true, HM_CNT_ENCAP_SKIP_HBH_LIMIT);
}

/*
 * The option walk's bound (71 TLVs, the most a header Linux accepts with
 * default sysctls holds): 9 options with 7 Pad1 between them and @arg - 65
 * before the first, @arg TLVs in all. 71 are walked (9 options: not
 * merged); 72 are not (hbh_walk_limit, not malformed). Such headers exist
 * only where net.ipv6.max_hbh_opts_number was raised.
 */
static void put_walk(struct pkt *p, size_t hbh, __u32 arg)
{
	struct hbh_steps_spec sp = { .nopts = 9, .ioam_at = -1, .lead = arg - 65, .run = 7 };

	hbh_steps(p, hbh, &sp, NULL, NULL);
}

static void t_enc_walk_limit(const struct hm_test *t)
{
	struct tlv tl[1];
	struct pkt in;

	enc_input_hbh(&in, put_walk, t->arg);
	CHECK_EQ("test input TLVs", t->arg, hbh_walk(in.b + HM_EXT_OFF, in.len - HM_EXT_OFF, tl, 0));
	enc_check_skipped(&in, false, t->arg <= HM_T_LINUX_TLVS_MAX ? HM_CNT_ENCAP_SKIP_HBH_LIMIT :
				      HM_CNT_HBH_WALK_LIMIT);
}

/* IPv6 packet of @t->arg bytes (header included) against a 1280-byte MTU. */
static void t_enc_mtu(const struct hm_test *t)
{
	size_t l3 = t->arg;
	struct pkt in;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	enc_input(&in, HM_NH_UDP, l3 - HM_IP6_LEN - 8, NULL);
	if (l3 + 256 > HM_ENC_MTU)
		enc_check_untouched(&in, HM_BIT(HM_CNT_ENCAP_SKIP_MTU), 0);
	else
		enc_check_inserted(&in, &rule_std, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
}

/* freq 3/5 over 10 packets: the first 3 of every 5, like ip ioam's freq K/N. */
static void t_enc_freq(const struct hm_test *t)
{
	struct hm_counters before, after;
	struct hopmark_encap_cfg c;
	char got[11] = "", want[11] = "YYYNNYYYNN";
	struct hm_run r;
	struct pkt in;
	int i;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 3, 5);
	enc_input(&in, HM_NH_UDP, 100, NULL);
	hm_counters_read(env.if_enc, &before);
	for (i = 0; i < 10; i++) {
		if (!hm_run_tc(env.prog_encap, env.if_enc, 0, in.b, in.len, &r))
			return;
		got[i] = r.out_len == in.len + 256 ? 'Y' :
			 (r.out_len == in.len && !memcmp(r.out, in.b, in.len)) ? 'N' : '?';
	}
	hm_counters_read(env.if_enc, &after);
	hm_check(!strcmp(got, want), "encapsulated packets: expected %s, got %s", want, got);
	CHECK_EQ("counter encap_ok", 6, after.cnt[HM_CNT_ENCAP_OK] - before.cnt[HM_CNT_ENCAP_OK]);
	CHECK_EQ("counter encap_skip_freq", 4,
		 after.cnt[HM_CNT_ENCAP_SKIP_FREQ] - before.cnt[HM_CNT_ENCAP_SKIP_FREQ]);
	if (hm_check(hm_get_encap(prefix_b48, 48, &c), "hopmark_encap rule: expected present"))
		CHECK_EQ("rule packet counter", 10, c.counter);
}

/* Own slot of rule_std (0xfff000, 240 bytes) in the expected frame. */
#define STD_SLOT_OFF	(HM_EXT_OFF + 4 + 12 + 180)

static void adj_ingress(struct pkt *exp, const struct hm_run *r)
{
	hm_put_be16(exp->b + STD_SLOT_OFF + field_off(0xfff000, 1), HM_T_IN_ID);
	hm_put_be32(exp->b + STD_SLOT_OFF + field_off(0xfff000, 9), HM_T_IN_ID_WIDE);
}

/* A forwarded packet encapsulated on egress records where it came in. */
static void t_enc_forwarded(const struct hm_test *t)
{
	struct pkt in;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_inserted_from(&in, &rule_std, true, env.if_in, HM_BIT(HM_CNT_ENCAP_OK), 0,
				adj_ingress);
}

#define ENC_QDEPTH	31337
#define ENC_OCCUPANCY	65536

static void adj_qdepth(struct pkt *exp, const struct hm_run *r)
{
	hm_put_be32(exp->b + STD_SLOT_OFF + field_off(0xfff000, 6), ENC_QDEPTH);
	hm_put_be32(exp->b + STD_SLOT_OFF + field_off(0xfff000, 11), ENC_OCCUPANCY);
}

/*
 * Queue depth of the egress interface and buffer occupancy, both from the
 * one fresh hopmark_qdepth entry of that interface (not key 0's total).
 */
static void t_enc_qdepth(const struct hm_test *t)
{
	struct pkt in;

	hm_set_qdepth(env.if_enc, ENC_QDEPTH, ENC_OCCUPANCY, hm_now_ns(CLOCK_MONOTONIC));
	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_inserted_from(&in, &rule_std, true, 0, HM_BIT(HM_CNT_ENCAP_OK), 0, adj_qdepth);
}

static void t_enc_no_match(const struct hm_test *t)
{
	struct pkt in;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	enc_input(&in, HM_NH_UDP, 100, dst_other);
	enc_check_untouched(&in, 0, 0);
}

/*
 * Link-scope packets are never encapsulated, even when a rule matches
 * (@t->arg): 0 link-local source, 1 unspecified source (DAD), 2 Neighbor
 * Solicitation from a global source to a destination the rule covers (a
 * unicast NUD probe), 3 Router Advertisement, 4 multicast and 5 link-local
 * destination under a default rule. The control, 6, an ICMPv6 type just
 * past ND (138), is encapsulated.
 */
static void t_enc_link_scope(const struct hm_test *t)
{
	static const __u8 any[16], mcast[16] = { 0xff, 0x02, [11] = 1, 0xff, [15] = 1 },
			  ll[16] = { 0xfe, 0x80, [15] = 2 };
	__u8 *src, *type;
	struct pkt in;

	set_rule(t->arg >= 4 && t->arg <= 5 ? any : prefix_b48, t->arg >= 4 && t->arg <= 5 ? 0 : 48,
		 &rule_std, env.if_enc, 1, 1);
	enc_input(&in, HM_NH_ICMP6, 24, t->arg == 4 ? mcast : t->arg == 5 ? ll : NULL);
	src = in.b + HM_IP6_OFF + 8;
	type = in.b + HM_EXT_OFF;
	switch (t->arg) {
	case 0:
		memcpy(src, ll, 16);
		break;
	case 1:
		memset(src, 0, 16);
		break;
	case 2:
		*type = 135;
		break;
	case 3:
		*type = 134;
		break;
	case 6:
		*type = 138;
		enc_check_inserted(&in, &rule_std, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
		return;
	}
	enc_check_untouched(&in, 0, 0);
}

static void t_enc_other_if(const struct hm_test *t)
{
	struct pkt in;

	set_rule(prefix_b48, 48, &rule_std, env.if_out, 1, 1);
	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_untouched(&in, 0, 0);
}

static void t_enc_any_if(const struct hm_test *t)
{
	struct pkt in;

	set_rule(prefix_b48, 48, &rule_std, 0, 1, 1);
	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_inserted(&in, &rule_std, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
}

/*
 * hm_encap left the default packet (under prefix_b48's rule) before the
 * rule lookup: untouched, nothing counted, the rule's counter still 0.
 */
static void enc_check_left_before_lookup(void)
{
	struct hopmark_encap_cfg cfg;
	struct pkt in;

	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_untouched(&in, 0, 0);
	if (!hm_get_encap(prefix_b48, 48, &cfg))
		hm_fail("the rule is gone");
	else
		CHECK_EQ("rule packet counter", 0, cfg.counter);
}

/*
 * hm_encap's first test: an interface without HM_IF_F_ENCAP (no rule sends
 * packets out of it) is left before the rule lookup, even under a rule for
 * any interface: untouched, nothing counted, the rule's packet counter
 * unchanged. @t->arg 1: the interface has no hopmark_ifcfg entry at all.
 */
static void t_enc_if_without_encap_flag(const struct hm_test *t)
{
	set_rule(prefix_b48, 48, &rule_std, 0, 1, 1);
	if (t->arg)
		hm_del_ifcfg(env.if_enc);
	else
		hm_set_ifcfg(env.if_enc, HM_IF_F_TRANSIT, HM_T_ENC_ID, HM_T_ENC_ID_WIDE);
	enc_check_left_before_lookup();
}

/* ---- hopmark_encap_filter, the first test before the rule lookup ---- */

/* The filter as written, or zeros (and a failure) when it cannot be read. */
static void filter_read(struct hopmark_encap_filter *f)
{
	memset(f, 0, sizeof(*f));
	if (!hm_get_encap_filter(f))
		hm_fail("cannot read %s", HM_MAP_ENCAP_FILTER);
}

static void filter_write(const struct hopmark_encap_filter *f)
{
	__u32 k = 0;

	if (bpf_map_update_elem(env.fd_encap_filter, &k, f, BPF_ANY))
		hm_fail("cannot write %s", HM_MAP_ENCAP_FILTER);
}

/* @addr with bit @bit (0 = the top bit of byte 0) flipped. */
static void addr_flip(__u8 *out, const __u8 *addr, unsigned int bit)
{
	memcpy(out, addr, 16);
	out[bit / 8] ^= 0x80 >> (bit % 8);
}

/*
 * A rule of length @t->arg (0, 8, 16, 48, 64, 128) covering hm_addr_dst,
 * written as the CLI writes it: the filter is trusted with L = the
 * length (64 at most), the covered destination is encapsulated. The
 * destination with the last bit of the prefix flipped is outside: left
 * untouched, and for L = the whole prefix (up to /64) ruled out by the
 * filter itself; a /0 covers every destination, also 3ffe::1.
 */
static void t_enc_filter_prefixlen(const struct hm_test *t)
{
	static const __u8 far[16] = { 0x3f, 0xfe, [15] = 1 };
	struct hopmark_encap_filter f;
	__u32 plen = t->arg;
	__u8 out[16];
	struct pkt in;

	set_rule(hm_addr_dst, plen, &rule_std, env.if_enc, 1, 1);
	filter_read(&f);
	CHECK_EQ("filter flags", HM_ENCAP_FILTER_F_VALID, f.flags);
	CHECK_EQ("filter prefixlen", plen < HM_ENCAP_FILTER_PLEN_MAX ? plen :
		 HM_ENCAP_FILTER_PLEN_MAX, f.prefixlen);
	if (!hm_encap_filter_match(&f, hm_addr_dst))
		hm_fail("the filter rules out the destination of its own rule");
	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_inserted(&in, &rule_std, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
	if (!plen) {
		enc_input(&in, HM_NH_UDP, 100, far);
		enc_check_inserted(&in, &rule_std, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
		return;
	}
	addr_flip(out, hm_addr_dst, plen - 1);
	if (plen <= HM_ENCAP_FILTER_PLEN_MAX && hm_encap_filter_match(&f, out))
		hm_fail("the filter of a /%u rule lets a destination outside it through", plen);
	enc_input(&in, HM_NH_UDP, 100, out);
	enc_check_untouched(&in, 0, 0);
}

/*
 * The filter is what decides: trusted but with no bit set, it keeps the
 * packet of a rule from the rule (untouched, the rule's counter 0), so a
 * hm_encap that skipped the test would fail here.
 */
static void t_enc_filter_trusted(const struct hm_test *t)
{
	struct hopmark_encap_filter f;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	filter_read(&f);
	memset(f.bits, 0, sizeof(f.bits));
	filter_write(&f);
	enc_check_left_before_lookup();
}

/*
 * Rules written into hopmark_encap alone (stock tools, README "Enable
 * telemetry with stock ip and tc"): the filter is not trusted, zeros as
 * created (@t->arg 0) or with bits but without HM_ENCAP_FILTER_F_VALID
 * (1), and every packet is looked up: the rule applies.
 */
static void t_enc_filter_not_maintained(const struct hm_test *t)
{
	struct hopmark_encap_cfg c = {
		.ifindex = env.if_enc, .ns_id = rule_std.ns, .size = rule_std.size,
		.trace_type = rule_std.type, .freq_k = 1, .freq_n = 1,
	};
	struct hopmark_encap_filter f;
	struct pkt in;

	if (t->arg) {
		set_rule(dst_other, 128, &rule_std, env.if_enc, 1, 1);
		filter_read(&f);
		f.flags = 0;
		filter_write(&f);
	}
	hm_set_encap_trie_only(prefix_b48, 48, &c);
	filter_read(&f);
	if (f.flags & HM_ENCAP_FILTER_F_VALID)
		hm_fail("the filter is marked valid");
	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_inserted(&in, &rule_std, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
}

/* Whether the filter's bit for @addr (its first L bits) is set. */
static bool filter_bit_set(const struct hopmark_encap_filter *f, const __u8 *addr)
{
	__u64 hi = 0;
	__u32 bit;
	int i;

	for (i = 0; i < 8; i++)
		hi = (hi << 8) | addr[i];
	bit = hm_encap_filter_bit(hi, f->prefixlen);
	return f->bits[bit / 64] >> (bit % 64) & 1;
}

/*
 * Two /48 rules under 2001::/16 and a 3ffe::/16 one: L is 16, one bit per
 * /16. Deleting one /48 leaves 2001's bit (the other still needs it);
 * deleting the last one clears it: 2001:db8:c::1 is then ruled out by
 * the filter (L stays 16: the 3ffe::/16 is left), 3ffe::1 still
 * encapsulated. The last rule deleted leaves a trusted filter without bits.
 */
static void t_enc_filter_del(const struct hm_test *t)
{
	static const __u8 p3ffe[16] = { 0x3f, 0xfe }, dst3ffe[16] = { 0x3f, 0xfe, [15] = 1 };
	struct hopmark_encap_filter f;
	struct pkt in;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	set_rule(dst_other, 48, &rule_std, env.if_enc, 1, 1);
	set_rule(p3ffe, 16, &rule_std, env.if_enc, 1, 1);
	filter_read(&f);
	CHECK_EQ("filter prefixlen", 16, f.prefixlen);
	if (!filter_bit_set(&f, prefix_b48) || !filter_bit_set(&f, p3ffe))
		hm_fail("the bits of 2001::/16 and 3ffe::/16 are not both set");

	hm_del_encap(prefix_b48, 48);
	filter_read(&f);
	if (!filter_bit_set(&f, prefix_b48))
		hm_fail("2001::/16's bit cleared while 2001:db8:c::/48 is left");
	enc_input(&in, HM_NH_UDP, 100, dst_other);
	enc_check_inserted(&in, &rule_std, true, HM_BIT(HM_CNT_ENCAP_OK), 0);

	hm_del_encap(dst_other, 48);
	filter_read(&f);
	CHECK_EQ("filter flags", HM_ENCAP_FILTER_F_VALID, f.flags);
	CHECK_EQ("filter prefixlen", 16, f.prefixlen);
	if (filter_bit_set(&f, prefix_b48) || hm_encap_filter_match(&f, dst_other))
		hm_fail("2001::/16's bit is still set after its last rule was deleted");
	enc_input(&in, HM_NH_UDP, 100, dst_other);
	enc_check_untouched(&in, 0, 0);
	enc_input(&in, HM_NH_UDP, 100, dst3ffe);
	enc_check_inserted(&in, &rule_std, true, HM_BIT(HM_CNT_ENCAP_OK), 0);

	/* The last rule gone: a trusted filter without a bit. */
	hm_del_encap(p3ffe, 16);
	filter_read(&f);
	CHECK_EQ("filter flags", HM_ENCAP_FILTER_F_VALID, f.flags);
	if (filter_bit_set(&f, p3ffe))
		hm_fail("a bit is left without rules");
	enc_check_untouched(&in, 0, 0);
}

/* Longest prefix wins: a /64 with a small trace under the /48. */
static void t_enc_lpm(const struct hm_test *t)
{
	struct enc_rule small = { HM_T_NS, 40,
				  HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_IF_IDS };
	struct pkt in;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	set_rule(prefix_b48, 64, &small, env.if_enc, 1, 1);
	enc_input(&in, HM_NH_UDP, 100, NULL);
	enc_check_inserted(&in, &small, true, HM_BIT(HM_CNT_ENCAP_OK), 0);
}

static void t_enc_ipv4(const struct hm_test *t)
{
	static const __u8 ip4[28] = {
		0x45, 0, 0, 28, 0, 1, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
		0x9c, 0x40, 0x13, 0x89, 0, 8, 0, 0,
	};
	struct pkt p;

	set_rule(prefix_b48, 0, &rule_std, 0, 1, 1);
	pkt_init(&p);
	pkt_eth(&p, 0x0800);
	pkt_put(&p, ip4, sizeof(ip4));
	enc_check_untouched(&p, 0, 0);
}

/* A frame cut inside the IPv6 header or an existing Hop-by-Hop header. */
static void t_enc_truncated(const struct hm_test *t)
{
	struct hm_run r;
	struct pkt in;
	size_t len, hbh;
	int bad = 0;

	set_rule(prefix_b48, 48, &rule_std, env.if_enc, 1, 1);
	pkt_init(&in);
	pkt_eth(&in, 0x86dd);
	pkt_ipv6(&in, HM_NH_HBH, 64, NULL);
	hbh = hbh_begin(&in, HM_NH_UDP);
	opt_raw(&in, 0x05, 2, 0);
	opt_raw(&in, 0x1e, 12, 0xab);
	hbh_end(&in, hbh);
	pkt_udp(&in, 40000, 5001, 16);
	pkt_finish(&in);
	for (len = HM_TC_MIN_LEN; len < in.len - 8 - 16 && bad < 8; len++) {
		if (!hm_run_tc(env.prog_encap, env.if_enc, 0, in.b, len, &r)) {
			bad++;
			continue;
		}
		if (r.retval != TC_PASS_RC || r.out_len != len || memcmp(r.out, in.b, len)) {
			hm_fail("cut at %zu bytes: verdict %u, %u bytes out: frame changed",
				len, r.retval, r.out_len);
			bad++;
		}
	}
}

void register_encap_tests(void)
{
	static const __u32 types[] = {
		HM_IOAM_TT_HOPLIM_NODEID, HM_IOAM_TT_IF_IDS, HM_IOAM_TT_TS_SEC | HM_IOAM_TT_TS_FRAC,
		HM_IOAM_TT_HOPLIM_NODEID_WIDE | HM_IOAM_TT_IF_IDS_WIDE | HM_IOAM_TT_NS_DATA_WIDE,
		HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_UNDEFINED_MASK,
		HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_OPAQUE,
	};
	static const __u32 filter_plens[] = { 0, 8, 16, 48, 64, 128 };
	size_t i;

	hm_add_test(t_enc_l4, HM_NH_UDP, "encap_inserts_hbh_before_udp");
	hm_add_test(t_enc_l4, HM_NH_TCP, "encap_inserts_hbh_before_tcp");
	hm_add_test(t_enc_l4, HM_NH_ICMP6, "encap_inserts_hbh_before_icmpv6");
	hm_add_test(t_enc_pad, 20, "encap_pads_hbh_to_8n_size_20");
	hm_add_test(t_enc_pad, 24, "encap_no_trailing_pad_size_24");
	hm_add_test(t_enc_pad, 4, "encap_pads_hbh_to_8n_size_4");
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		hm_add_test(t_enc_type, types[i], "encap_writes_own_node_data_type_0x%06x", types[i]);
	hm_add_test(t_enc_forwarded, 0, "encap_forwarded_packet_records_ingress_if");
	hm_add_test(t_enc_qdepth, 0, "encap_writes_fresh_egress_queue_depth");
	hm_add_test(t_enc_unknown_ns, 0, "encap_unknown_namespace_inserts_empty_trace");
	hm_add_test(t_enc_area_smaller_than_slot, 0, "encap_area_smaller_than_slot_sets_overflow");
	hm_add_test(t_enc_srh, 0, "encap_keeps_hbh_first_before_srh");
	hm_add_test(t_enc_merge, 0, "encap_merges_into_existing_hbh");
	for (i = 0; i < sizeof(rules_cases) / sizeof(rules_cases[0]); i++)
		hm_add_test(t_hbh_rules, i, "hbh_linux_rules_agree_with_kernel_%s",
			    rules_cases[i].name);
	hm_add_test(t_enc_merge_opts, 6, "encap_merges_into_hbh_with_6_options");
	hm_add_test(t_enc_merge_opts, 7, "encap_merges_into_hbh_with_7_options_within_linux_limits");
	hm_add_test(t_enc_merge_opts, 8, "encap_skips_merge_into_hbh_with_8_options_and_counts");
	hm_add_test(t_enc_merge_opts, 9, "encap_skips_merge_into_hbh_with_9_options_and_counts");
	hm_add_test(t_enc_merge_opts_runs, 7,
		    "encap_merges_into_hbh_with_7_options_and_7_byte_pad_runs");
	hm_add_test(t_enc_merge_opts_runs, 8,
		    "encap_skips_merge_into_71_tlv_hbh_with_8_options_and_counts");
	hm_add_test(t_enc_merge_trailing_run, 0, "encap_merge_after_7_pad1_then_trailing_padn");
	hm_add_test(t_enc_merge_trailing_run, 1, "encap_merge_after_7_byte_padn_then_trailing_padn");
	hm_add_test(t_enc_merge_trailing_run, 2, "encap_merge_after_7_pad1_no_trailing_pad");
	hm_add_test(t_enc_merge_trailing_run, 3, "encap_merge_after_7_byte_padn_no_trailing_pad");
	hm_add_test(t_enc_merge_bad_padding, 0, "encap_skips_merge_into_hbh_with_8_byte_pad_run");
	hm_add_test(t_enc_merge_bad_padding, 1,
		    "encap_skips_merge_after_trailing_8_byte_pad_run");
	hm_add_test(t_enc_merge_bad_padding, 2, "encap_skips_merge_into_hbh_with_nonzero_padn");
	hm_add_test(t_enc_merge_too_long, 0, "encap_skips_merge_past_2048_bytes_and_counts");
	hm_add_test(t_enc_walk_limit, 71, "encap_walks_71_tlvs_and_skips_merge_of_9_options");
	hm_add_test(t_enc_walk_limit, 72, "encap_counts_72_tlv_hbh_as_walk_limit_not_malformed");
	hm_add_test(t_enc_mtu, HM_ENC_MTU - 256, "encap_fits_exactly_at_mtu");
	hm_add_test(t_enc_mtu, HM_ENC_MTU - 255, "encap_skips_one_byte_over_mtu");
	hm_add_test(t_enc_mtu, 1200, "encap_skips_when_mtu_exceeded");
	hm_add_test(t_enc_freq, 0, "encap_freq_3_of_5_over_10_packets");
	hm_add_test(t_enc_no_match, 0, "encap_no_matching_prefix_untouched");
	hm_add_test(t_enc_link_scope, 0, "encap_link_local_source_untouched");
	hm_add_test(t_enc_link_scope, 1, "encap_unspecified_source_untouched");
	hm_add_test(t_enc_link_scope, 2, "encap_neighbor_solicitation_untouched");
	hm_add_test(t_enc_link_scope, 3, "encap_router_advertisement_untouched");
	hm_add_test(t_enc_link_scope, 4, "encap_multicast_destination_untouched");
	hm_add_test(t_enc_link_scope, 5, "encap_link_local_destination_untouched");
	hm_add_test(t_enc_link_scope, 6, "encap_icmpv6_after_nd_types_inserted");
	hm_add_test(t_enc_other_if, 0, "encap_rule_for_other_interface_untouched");
	hm_add_test(t_enc_any_if, 0, "encap_rule_for_any_interface_applies");
	hm_add_test(t_enc_if_without_encap_flag, 0, "encap_leaves_interface_without_encap_flag");
	hm_add_test(t_enc_if_without_encap_flag, 1, "encap_leaves_interface_without_settings");
	hm_add_test(t_enc_lpm, 0, "encap_longest_prefix_rule_wins");
	for (i = 0; i < sizeof(filter_plens) / sizeof(filter_plens[0]); i++)
		hm_add_test(t_enc_filter_prefixlen, filter_plens[i],
			    "encap_filter_of_a_slash_%u_rule_hits_and_misses", filter_plens[i]);
	hm_add_test(t_enc_filter_trusted, 0, "encap_filter_without_the_bit_skips_the_rule_lookup");
	hm_add_test(t_enc_filter_not_maintained, 0, "encap_filter_zeros_not_trusted_rule_applies");
	hm_add_test(t_enc_filter_not_maintained, 1,
		    "encap_filter_without_valid_flag_not_trusted_rule_applies");
	hm_add_test(t_enc_filter_del, 0, "encap_filter_delete_of_last_rule_under_16_clears_its_bit");
	hm_add_test(t_enc_ipv4, 0, "encap_passes_ipv4");
	hm_add_test(t_enc_truncated, 0, "encap_truncated_at_every_length");
}
