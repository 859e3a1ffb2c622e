// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_int_drop.c - hm_int_drop (bpf/hopmark_int_drop.bpf.c) on crafted
 * packets, without a topology.
 *
 * A tracing program cannot be run by BPF_PROG_TEST_RUN, but the run of a
 * tc program can drive it: bpf_prog_test_run_skb() builds an skb of the
 * frame on the device of ctx.ifindex (network header set, protocol from
 * the Ethernet header) and frees it with kfree_skb() at the end, a drop
 * with SKB_DROP_REASON_NOT_SPECIFIED. So hm_int_drop, linked to kfree_skb
 * for this process's network namespace, sees each crafted frame exactly
 * once, as a drop of Drop Reason %INT_DROP_UNSPEC on env.if_out. The
 * driver is a two-instruction tc program (return TC_ACT_OK) that leaves
 * the frame alone. Which kernel reason maps to which code is checked by
 * selftests/net/test_int_drop.sh on real drops.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <arpa/inet.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_test.h"
#include "common/bpf_pin.h"
#include "int/int_maps.h"
#include "int/int_drop.h"
#include "bpf/hopmark_int_drop.skel.h"

static struct hopmark_int_drop *skel;
static struct bpf_link *drop_link;
static struct ring_buffer *rb;
static int prog_pass = -1, fd_cfg = -1, fd_stats = -1;

#define MAX_RECS	8
static struct int_record recs[MAX_RECS];
static int n_recs;

static int on_rec(void *ctx, void *data, size_t size)
{
	if (size != sizeof(struct int_record))
		hm_fail("int_events record: size expected %zu, got %zu",
			sizeof(struct int_record), size);
	else if (n_recs < MAX_RECS)
		memcpy(&recs[n_recs], data, size);
	n_recs++;
	return 0;
}

static int open_pinned(const char *name)
{
	char dir[256], path[300];

	if (hm_pin_dir(dir, sizeof(dir)))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return bpf_obj_get(path);
}

/* Load hm_int_drop once, for this process's network namespace. */
static bool drop_setup(void)
{
	static bool tried;
	struct bpf_insn pass[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = TC_ACT_OK },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char pin_dir[256];
	struct stat st;

	if (tried)
		goto out;
	tried = true;
	if (hm_pin_dir(pin_dir, sizeof(pin_dir)) || stat("/proc/self/ns/net", &st))
		goto out;
	{
		LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = pin_dir);

		skel = hopmark_int_drop__open_opts(&oo);
	}
	if (!skel)
		goto out;
	skel->data->hm_drop_netns = (__u32)st.st_ino;
	if (hm_events_fit_pin(skel->obj, pin_dir) || hopmark_int_drop__load(skel)) {
		hopmark_int_drop__destroy(skel);
		skel = NULL;
		goto out;
	}
	prog_pass = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "hmt_pass", "GPL", pass, 2, NULL);
	fd_cfg = open_pinned(INT_MAP_CFG);
	fd_stats = open_pinned(INT_MAP_STATS);
	rb = ring_buffer__new(bpf_map__fd(skel->maps.int_events), on_rec, NULL, NULL);
out:
	/*
	 * Linked for the test only (drop_run() unlinks it): the other tests'
	 * runs free skbs too, and their int_events must not fill with drops.
	 */
	if (skel && !drop_link)
		drop_link = bpf_program__attach(skel->progs.hm_int_drop);
	if (!drop_link || !rb || prog_pass < 0 || fd_cfg < 0 || fd_stats < 0) {
		hm_fail("hm_int_drop not loaded and linked (or the tc driver program): %s",
			strerror(errno));
		return false;
	}
	return true;
}

/* The domain of every test: DSCP 0x17/0x3f, bitmap 0x5280, truncation 64. */
static void dom_default(struct int_domain_cfg *d)
{
	memset(d, 0, sizeof(*d));
	d->flags = INT_DOM_F_CONFIGURED;
	d->signal = INT_SIG_DSCP;
	d->dscp = 0x17;
	d->dscp_mask = 0x3f;
	d->bitmap = 0xd280;	/* node ID, L1, queue, L2, buffer */
	d->report_trunc = 64;
	d->rpt_family = 4;
	d->rpt_port = 6343;
}

static void rule_udp_dport(struct int_domain_cfg *d, __u8 family, __u16 dport)
{
	struct hm_sel_rule *r = &d->sel.rules[d->sel.nr_rules++];

	r->family = family;
	r->proto = 17;
	r->dport = htons(dport);
	r->dport_mask = 0xffff;
}

static void dom_set(const struct int_domain_cfg *d)
{
	__u32 zero = 0;

	if (bpf_map_update_elem(fd_cfg, &zero, d, BPF_ANY))
		hm_fail("int_cfg update: %s", strerror(errno));
}

static __u64 stat_sum(__u32 ifindex, int cnt)
{
	struct int_link_stats *v = calloc(env.ncpus, sizeof(*v));
	__u64 sum = 0;
	int c;

	if (v && !bpf_map_lookup_elem(fd_stats, &ifindex, v))
		for (c = 0; c < env.ncpus; c++)
			sum += v[c].cnt[cnt];
	free(v);
	return sum;
}

/* Run @frame through the tc driver on env.if_out: one kfree_skb(). */
static int drop_frame(const __u8 *frame, size_t len)
{
	struct hm_run r;

	n_recs = 0;
	ring_buffer__consume(rb);	/* anything left over */
	n_recs = 0;
	if (!hm_run_tc(prog_pass, env.if_out, 0, frame, len, &r))
		return -1;
	ring_buffer__consume(rb);
	return n_recs;
}

/* ---- frames ---- */

static size_t eth(__u8 *b, __u16 type)
{
	memset(b, 0, 12);
	b[0] = 0x02;
	b[6] = 0x02;
	b[11] = 1;
	b[12] = type >> 8;
	b[13] = type;
	return 14;
}

/* IPv4 10.1.0.1 -> 10.2.0.2; total length and checksum are filled by ip4_end(). */
static size_t ip4(__u8 *b, __u8 dscp, __u8 proto, __u16 frag)
{
	static const __u8 h[20] = { 0x45, 0, 0, 0, 0x12, 0x34, 0, 0, 64, 0, 0, 0,
				    10, 1, 0, 1, 10, 2, 0, 2 };

	memcpy(b, h, 20);
	b[1] = dscp << 2;
	b[6] = frag >> 8;
	b[7] = frag;
	b[9] = proto;
	return 20;
}

static void ip4_end(__u8 *ip, size_t len)
{
	__u32 sum = 0;
	int i;

	ip[2] = len >> 8;
	ip[3] = len;
	ip[10] = ip[11] = 0;
	for (i = 0; i < 20; i += 2)
		sum += ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	ip[10] = sum >> 8;
	ip[11] = sum;
}

static size_t ip6(__u8 *b, __u8 dscp, __u8 nexthdr)
{
	memset(b, 0, 40);
	b[0] = 0x60 | dscp >> 2;
	b[1] = (dscp & 3) << 6;
	b[6] = nexthdr;
	b[7] = 64;
	memcpy(b + 8, hm_addr_src, 16);
	memcpy(b + 24, hm_addr_dst, 16);
	return 40;
}

static void ip6_end(__u8 *ip, size_t len)
{
	ip[4] = (len - 40) >> 8;
	ip[5] = len - 40;
}

static size_t udp(__u8 *b, __u16 sport, __u16 dport)
{
	b[0] = sport >> 8;
	b[1] = sport;
	b[2] = dport >> 8;
	b[3] = dport;
	b[4] = b[5] = b[6] = b[7] = 0;	/* length: not read; checksum 0 */
	return 8;
}

/* TCP header with @optlen octets of NOPs (a multiple of 4). */
static size_t tcp(__u8 *b, __u16 sport, __u16 dport, size_t optlen)
{
	memset(b, 0, 20 + optlen);
	b[0] = sport >> 8;
	b[1] = sport;
	b[2] = dport >> 8;
	b[3] = dport;
	b[12] = ((20 + optlen) / 4) << 4;
	b[13] = 0x10;
	memset(b + 20, 1, optlen);
	return 20 + optlen;
}

/* INT shim + MD header of bitmap 0x9000, no stack: 16 octets. */
static size_t int_md(__u8 *b, __u8 type, __u8 npt, __u8 npt_lo, __u32 flags)
{
	__u32 w0 = int_md_w0(flags, 2, 8);

	b[0] = int_shim_type_npt(type, npt);
	b[1] = 3;
	b[2] = 0;
	b[3] = npt_lo;
	b[4] = w0 >> 24;
	b[5] = w0 >> 16;
	b[6] = w0 >> 8;
	b[7] = w0;
	b[8] = 0x90;
	memset(b + 9, 0, 7);
	return 16;
}

static size_t payload(__u8 *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (__u8)(i * 7 + 1);
	return n;
}

/* Ethernet + IPv4 (+ DSCP) + UDP to @dport + @plen octets. */
static size_t f_udp4(__u8 *f, __u8 dscp, __u16 dport, size_t plen)
{
	size_t n = eth(f, 0x0800), ip = n;

	n += ip4(f + n, dscp, 17, 0);
	n += udp(f + n, 40000, dport);
	n += payload(f + n, plen);
	ip4_end(f + ip, n - ip);
	return n;
}

/* ---- tests ---- */

static void t_watched_udp4(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[256], md[64];
	__u32 n_md = 0, qid;
	size_t len;
	int n;

	if (!drop_setup())
		return;
	dom_default(&d);
	rule_udp_dport(&d, 4, 5000);
	dom_set(&d);
	hm_set_qdepth(env.if_out, 4242, 8888, hm_now_ns(CLOCK_MONOTONIC));
	len = f_udp4(f, 0, 5000, 100);
	n = drop_frame(f, len);
	if (!CHECK_EQ("records for one watched drop", 1, n))
		return;
	CHECK_EQ("kind", INT_REC_DROP, recs[0].kind);
	CHECK_EQ("flags (D)", INT_RPT_F_D, recs[0].flags);
	CHECK_EQ("family", 4, recs[0].family);
	CHECK_EQ("Drop Reason (kfree_skb without reason)", INT_DROP_UNSPEC, recs[0].drop_reason);
	CHECK_EQ("ifindex", env.if_out, recs[0].ifindex);
	CHECK_EQ("node ID", HM_T_NODE_ID, recs[0].node_id);
	CHECK_EQ("orig_len", len - 14, recs[0].orig_len);
	CHECK_EQ("pkt_len (report_trunc)", 64, recs[0].pkt_len);
	hm_check_bytes("pkt: the packet from its IP header", f + 14, 64, recs[0].pkt, recs[0].pkt_len);
	/* RepMdBits: bitmap 0xd280 minus node ID (group header) plus bit 15. */
	CHECK_EQ("rep_md_bits", 0x5281, recs[0].rep_md_bits);
	qid = recs[0].queue_id;
	/* L1: ingress unknown (test runs have no skb_iif), egress if_out's ID. */
	md[n_md++] = 0xff; md[n_md++] = 0xff; md[n_md++] = 0; md[n_md++] = HM_T_OUT_ID;
	/* queue: ID, occupancy = hopmark_qdepth[if_out].backlog_bytes */
	md[n_md++] = qid; md[n_md++] = 0; md[n_md++] = 4242 >> 8; md[n_md++] = 4242 & 0xff;
	/* L2 */
	md[n_md++] = 0xff; md[n_md++] = 0xff; md[n_md++] = 0xff; md[n_md++] = 0xff;
	md[n_md++] = HM_T_OUT_ID_WIDE >> 24; md[n_md++] = (HM_T_OUT_ID_WIDE >> 16) & 0xff;
	md[n_md++] = (HM_T_OUT_ID_WIDE >> 8) & 0xff; md[n_md++] = HM_T_OUT_ID_WIDE & 0xff;
	/* buffer: ID 0, occupancy = node_backlog_bytes */
	md[n_md++] = 0; md[n_md++] = 0; md[n_md++] = 8888 >> 8; md[n_md++] = 8888 & 0xff;
	/* bit 15: queue ID, Drop Reason, padding */
	md[n_md++] = qid; md[n_md++] = INT_DROP_UNSPEC; md[n_md++] = 0; md[n_md++] = 0;
	hm_check_bytes("md (RepMdBits order, big-endian)", md, n_md, recs[0].md, recs[0].md_len);
	CHECK_EQ("int_stats drop_report", 1, stat_sum(env.if_out, INT_CNT_DROP_REPORT));
}

static void t_unwatched_udp4(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[256];

	if (!drop_setup())
		return;
	dom_default(&d);
	rule_udp_dport(&d, 4, 5000);
	rule_udp_dport(&d, 6, 5001);
	dom_set(&d);
	CHECK_EQ("records: port 5001 over IPv4 (the rule is IPv6)", 0,
		 drop_frame(f, f_udp4(f, 0, 5001, 20)));
	CHECK_EQ("records: port 4999", 0, drop_frame(f, f_udp4(f, 0, 4999, 20)));
	CHECK_EQ("int_stats drop_report", 0, stat_sum(env.if_out, INT_CNT_DROP_REPORT));
}

static void t_not_configured(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[256];

	if (!drop_setup())
		return;
	dom_default(&d);
	d.flags = 0;
	dom_set(&d);
	CHECK_EQ("records with the domain not configured (empty watchlist)", 0,
		 drop_frame(f, f_udp4(f, 0x17, 5000, 20)));
}

static void t_empty_watchlist_every_ip_packet(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[256];
	size_t n;

	if (!drop_setup())
		return;
	dom_default(&d);
	dom_set(&d);
	CHECK_EQ("records: UDP, empty watchlist", 1, drop_frame(f, f_udp4(f, 0, 9, 20)));
	/* ARP: not IP, never reported. */
	n = eth(f, 0x0806);
	memset(f + n, 0, 28);
	CHECK_EQ("records: ARP", 0, drop_frame(f, n + 28));
}

static void t_ipv6_ext_headers(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[256];
	size_t n, ip;

	if (!drop_setup())
		return;
	dom_default(&d);
	rule_udp_dport(&d, 6, 5000);
	dom_set(&d);
	/* IPv6, Hop-by-Hop (8, PadN), Destination Options (16), UDP 5000. */
	n = eth(f, 0x86dd);
	ip = n;
	n += ip6(f + n, 0, 0);
	f[n] = 60; f[n + 1] = 0; f[n + 2] = 1; f[n + 3] = 4; memset(f + n + 4, 0, 4);
	n += 8;
	f[n] = 17; f[n + 1] = 1; f[n + 2] = 1; f[n + 3] = 12; memset(f + n + 4, 0, 12);
	n += 16;
	n += udp(f + n, 1, 5000);
	n += payload(f + n, 30);
	ip6_end(f + ip, n - ip);
	if (CHECK_EQ("records: UDP 5000 after two extension headers", 1, drop_frame(f, n))) {
		CHECK_EQ("family", 6, recs[0].family);
		CHECK_EQ("orig_len", n - 14, recs[0].orig_len);
	}
	/* The same behind a fourth header the walk does not take: port unknown. */
	n = eth(f, 0x86dd);
	ip = n;
	n += ip6(f + n, 0, 0);
	f[n] = 60; f[n + 1] = 0; f[n + 2] = 1; f[n + 3] = 4; memset(f + n + 4, 0, 4);
	n += 8;
	f[n] = 60; f[n + 1] = 0; f[n + 2] = 1; f[n + 3] = 4; memset(f + n + 4, 0, 4);
	n += 8;
	f[n] = 43; f[n + 1] = 0; f[n + 2] = 1; f[n + 3] = 4; memset(f + n + 4, 0, 4);
	n += 8;
	f[n] = 17; f[n + 1] = 0; f[n + 2] = 1; f[n + 3] = 4; memset(f + n + 4, 0, 4);
	n += 8;
	n += udp(f + n, 1, 5000);
	ip6_end(f + ip, n - ip);
	CHECK_EQ("records: UDP 5000 after four extension headers (walk stops at 3)", 0,
		 drop_frame(f, n));
}

static void t_ipv4_fragment(const struct hm_test *t)
{
	struct int_domain_cfg d;
	struct hm_sel_rule *r;
	__u8 f[256];
	size_t n;

	if (!drop_setup())
		return;
	dom_default(&d);
	rule_udp_dport(&d, 4, 5000);
	dom_set(&d);
	/* A non-first fragment (offset 185 x 8): its first octets are not UDP. */
	n = eth(f, 0x0800);
	n += ip4(f + n, 0, 17, 185);
	n += udp(f + n, 40000, 5000);
	ip4_end(f + 14, n - 14);
	CHECK_EQ("records: non-first fragment, rule on the port", 0, drop_frame(f, n));
	/* A rule on the protocol alone matches it. */
	r = &d.sel.rules[0];
	r->dport = r->dport_mask = 0;
	dom_set(&d);
	CHECK_EQ("records: non-first fragment, rule on the protocol", 1, drop_frame(f, n));
}

static void t_int_dscp_tcp_options(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[256];
	size_t n, ip;

	if (!drop_setup())
		return;
	dom_default(&d);
	rule_udp_dport(&d, 4, 5000);	/* nothing of TCP is watched */
	dom_set(&d);
	/* TCP with 12 octets of options, then the shim (NPT=0): INT. */
	n = eth(f, 0x0800);
	ip = n;
	n += ip4(f + n, 0x17, 6, 0);
	n += tcp(f + n, 1, 80, 12);
	n += int_md(f + n, INT_TYPE_MD, INT_NPT_DSCP, 0, 0);
	n += payload(f + n, 10);
	ip4_end(f + ip, n - ip);
	CHECK_EQ("records: INT-MD over TCP with options (DSCP 0x17), unwatched", 1,
		 drop_frame(f, n));
	/* The same DSCP with a shim of Type 2 (destination): not INT. */
	f[14 + 20 + 32] = int_shim_type_npt(INT_TYPE_DST, INT_NPT_DSCP);
	CHECK_EQ("records: shim Type 2", 0, drop_frame(f, n));
	/* INT-MX header: INT. */
	f[14 + 20 + 32] = int_shim_type_npt(INT_TYPE_MX, INT_NPT_DSCP);
	CHECK_EQ("records: INT-MX", 1, drop_frame(f, n));
	/* DSCP 0x1f (the INT bits and more) under mask 0x3f: not INT. */
	f[14 + 1] = 0x1f << 2;
	ip4_end(f + ip, n - ip);
	CHECK_EQ("records: DSCP 0x1f", 0, drop_frame(f, n));
	/* A shim cut short by the end of the packet: not INT, no crash. */
	n = eth(f, 0x0800);
	n += ip4(f + n, 0x17, 6, 0);
	n += tcp(f + n, 1, 80, 12);
	n += 6;
	memset(f + n - 6, 0x10, 6);
	ip4_end(f + 14, n - 14);
	CHECK_EQ("records: shim truncated", 0, drop_frame(f, n));
}

static void t_int_udp_port(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[256];
	size_t n, ip;

	if (!drop_setup())
		return;
	dom_default(&d);
	d.signal = INT_SIG_UDP;
	d.udp_port = 4242;
	rule_udp_dport(&d, 6, 5000);
	dom_set(&d);
	/* NPT=1: UDP to 4242, shim with the original port. */
	n = eth(f, 0x86dd);
	ip = n;
	n += ip6(f + n, 0, 17);
	n += udp(f + n, 1, 4242);
	n += int_md(f + n, INT_TYPE_MD, INT_NPT_UDP, 0x35, 0);
	n += payload(f + n, 10);
	ip6_end(f + ip, n - ip);
	CHECK_EQ("records: NPT=1 UDP to the INT port", 1, drop_frame(f, n));
	/* NPT=2: new UDP header, original TCP after the INT data. */
	n = eth(f, 0x86dd);
	ip = n;
	n += ip6(f + n, 0, 17);
	n += udp(f + n, 7, 4242);
	n += int_md(f + n, INT_TYPE_MD, INT_NPT_L4, 6, 0);
	n += tcp(f + n, 1, 80, 0);
	ip6_end(f + ip, n - ip);
	CHECK_EQ("records: NPT=2 before TCP", 1, drop_frame(f, n));
	/* NPT=0 under UDP-port signalling: not this domain's INT. */
	f[14 + 40 + 8] = int_shim_type_npt(INT_TYPE_MD, INT_NPT_DSCP);
	CHECK_EQ("records: NPT=0 shim on the INT port", 0, drop_frame(f, n));
	/* DSCP 0x17 means nothing under UDP-port signalling. */
	n = eth(f, 0x86dd);
	ip = n;
	n += ip6(f + n, 0x17, 6);
	n += tcp(f + n, 1, 80, 0);
	n += int_md(f + n, INT_TYPE_MD, INT_NPT_DSCP, 0, 0);
	ip6_end(f + ip, n - ip);
	CHECK_EQ("records: DSCP 0x17 under UDP signalling", 0, drop_frame(f, n));
}

static void t_report_never_reported(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[256];

	if (!drop_setup())
		return;
	dom_default(&d);
	rule_udp_dport(&d, 4, 6343);
	dom_set(&d);
	CHECK_EQ("records: UDP to the collector's port, watched", 0,
		 drop_frame(f, f_udp4(f, 0, 6343, 40)));
	d.rpt_family = 0;	/* no collector: an ordinary port */
	dom_set(&d);
	CHECK_EQ("records: the same port without a collector", 1,
		 drop_frame(f, f_udp4(f, 0, 6343, 40)));
}

static void t_truncation(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[1600];
	size_t len;

	if (!drop_setup())
		return;
	dom_default(&d);
	d.report_trunc = 0;
	dom_set(&d);
	len = f_udp4(f, 0, 9, 100);
	if (CHECK_EQ("records, report_trunc 0", 1, drop_frame(f, len)))
		CHECK_EQ("pkt_len, report_trunc 0", 0, recs[0].pkt_len);
	d.report_trunc = 100000;
	dom_set(&d);
	if (CHECK_EQ("records, report_trunc 100000, 142-octet packet", 1, drop_frame(f, len))) {
		CHECK_EQ("pkt_len: the whole packet", len - 14, recs[0].pkt_len);
		hm_check_bytes("pkt", f + 14, len - 14, recs[0].pkt, recs[0].pkt_len);
	}
	len = f_udp4(f, 0, 9, 1400);
	if (CHECK_EQ("records, 1442-octet packet", 1, drop_frame(f, len))) {
		CHECK_EQ("pkt_len: INT_REC_PKT_MAX", INT_REC_PKT_MAX, recs[0].pkt_len);
		CHECK_EQ("orig_len", len - 14, recs[0].orig_len);
	}
}

static void t_bad_ip_header(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[256];
	size_t len;

	if (!drop_setup())
		return;
	dom_default(&d);
	dom_set(&d);
	/* IHL 15 (60 octets) in a 40-octet packet: not parsed, not reported. */
	len = f_udp4(f, 0, 9, 12);
	f[14] = 0x4f;
	CHECK_EQ("records: IHL beyond the packet", 0, drop_frame(f, len));
	/* IP version 5 under the IPv4 EtherType. */
	len = f_udp4(f, 0, 9, 12);
	f[14] = 0x55;
	CHECK_EQ("records: IP version 5", 0, drop_frame(f, len));
}

static void t_bitmap_without_md_bits(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 f[256], want[4] = { 0, INT_DROP_UNSPEC, 0, 0 };

	if (!drop_setup())
		return;
	dom_default(&d);
	d.bitmap = 0xac00;	/* node ID, hop latency, timestamps: none at a drop */
	dom_set(&d);
	if (!CHECK_EQ("records", 1, drop_frame(f, f_udp4(f, 0, 9, 12))))
		return;
	CHECK_EQ("rep_md_bits: bit 15 only", INT_RPT_MD_DROP, recs[0].rep_md_bits);
	want[0] = recs[0].queue_id;
	hm_check_bytes("md: the bit-15 word", want, 4, recs[0].md, recs[0].md_len);
}

static const hm_test_fn bodies[] = {
	t_watched_udp4, t_unwatched_udp4, t_not_configured, t_empty_watchlist_every_ip_packet,
	t_ipv6_ext_headers, t_ipv4_fragment, t_int_dscp_tcp_options, t_int_udp_port,
	t_report_never_reported, t_truncation, t_bad_ip_header, t_bitmap_without_md_bits,
};

/*
 * One test with hm_int_drop linked; after it, the domain unconfigured and
 * int_stats empty again.
 */
static void drop_run(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u32 key;

	bodies[t->arg](t);
	if (fd_cfg >= 0) {
		memset(&d, 0, sizeof(d));
		dom_set(&d);
	}
	while (fd_stats >= 0 && !bpf_map_get_next_key(fd_stats, NULL, &key))
		bpf_map_delete_elem(fd_stats, &key);
	bpf_link__destroy(drop_link);
	drop_link = NULL;
}

void register_int_drop_tests(void)
{
	hm_add_test(drop_run, 0, "int_drop_reports_watched_udp4_with_metadata_and_packet");
	hm_add_test(drop_run, 1, "int_drop_ignores_unwatched_packets");
	hm_add_test(drop_run, 2, "int_drop_ignores_an_unconfigured_domain");
	hm_add_test(drop_run, 3,
		    "int_drop_empty_watchlist_reports_every_ip_packet_not_arp");
	hm_add_test(drop_run, 4, "int_drop_walks_three_ipv6_extension_headers");
	hm_add_test(drop_run, 5, "int_drop_ipv4_non_first_fragment_has_no_ports");
	hm_add_test(drop_run, 6, "int_drop_reports_int_dscp_packets_unwatched");
	hm_add_test(drop_run, 7, "int_drop_reports_int_udp_port_npt1_npt2");
	hm_add_test(drop_run, 8, "int_drop_never_reports_telemetry_reports");
	hm_add_test(drop_run, 9, "int_drop_truncates_the_packet_to_report_trunc");
	hm_add_test(drop_run, 10, "int_drop_ignores_bad_ip_headers");
	hm_add_test(drop_run, 11, "int_drop_bitmap_without_drop_fields_gives_bit15_only");
}
