// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pbt.c - bpf/hopmark_pbt.bpf.c (PBT-M marking and postcards) under
 * BPF_PROG_TEST_RUN.
 *
 * Frames are built here field by field (IPv4 header checksum and TCP/UDP
 * checksums computed over the whole header or segment); the frame a mark
 * must give is the input with the one bit flipped and the IPv4 header
 * checksum computed afresh (never incrementally, as the datapath does).
 * The packet ID a record must carry is computed from octets this file
 * picks out of the frame itself, through lib/pbt/pbt_id.h. Records
 * (pbt_events) are compared field by field, counters (pbt_stats) must move
 * exactly as documented, and every chain head -> transit -> end must give
 * back the original frame byte for byte.
 *
 * Two copies of the object are loaded with fixed clocks
 * (hm_pbt_fixed_tai_ns): the main one at T_NOW, a second at T_NOW - T_SOJ
 * for the arrival programs, so a sojourn is exactly T_SOJ. The process is
 * pinned to one CPU: the arrival stamp is per CPU.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/pkt_cls.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_test.h"
#include "hopmark.h"
#include "common/bpf_pin.h"
#include "common/hopmark_run.h"
#include "ipv4/ipv4.h"
#include "pbt/pbt_maps.h"
#include "pbt/pbt_id.h"
#include "pbt/pbt_mark.h"
#include "pbt/pbt_names.h"
#include "select/select.h"
#include "srv6/srh.h"
#include "bpf/hopmark_pbt.skel.h"

static struct hopmark_pbt *skel, *skel_in;
static struct ring_buffer *rb;
static struct pbt_record recs[16];
static int n_recs;

#define T_NOW		1700000000987654321ULL	/* CLOCK_TAI of the main copy */
#define T_SOJ		76543ULL		/* sojourn, ns */
#define T_TPL_ID	77

static const __u8 v4_src[4] = { 192, 0, 2, 1 }, v4_dst[4] = { 198, 51, 100, 7 };
static const __u8 v6_src[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0xa, [15] = 1 };
static const __u8 v6_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0xb, [15] = 1 };
/* An SRH's segments: Segment List[0] final, [1] the active one (Segments Left 1). */
static const __u8 v6_seg0[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0xc, [15] = 9 };
static const __u8 v6_seg1[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0xb, [15] = 1 };
static const __u8 v4_unrouted[4] = { 203, 0, 113, 5 };
static const __u8 v4_gw[4] = { 192, 0, 2, 99 };
static const __u8 v6_gw[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0x1, [15] = 0x99 };

static int rec_cb(void *ctx, void *data, size_t size)
{
	if (n_recs < (int)(sizeof(recs) / sizeof(recs[0])) && size >= sizeof(recs[0]))
		memcpy(&recs[n_recs++], data, sizeof(recs[0]));
	return 0;
}

static struct hopmark_pbt *load_copy(const char *pin, __u64 tai)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = pin);
	struct hopmark_pbt *k = hopmark_pbt__open_opts(&oo);

	if (!k)
		return NULL;
	k->rodata->hm_pbt_fixed_tai_ns = tai;
	if (hm_events_fit_pin(k->obj, pin) || hopmark_pbt__load(k)) {
		hopmark_pbt__destroy(k);
		return NULL;
	}
	return k;
}

static bool any_entry(int fd, const void *key, void *ctx)
{
	return true;
}

/*
 * Every entry deleted; an array's (pbt_ifcfg, pbt_stats, indexed by
 * ifindex) zeroed instead, since its entries cannot be deleted
 * (hm_map_delete_if()).
 */
static void clear_map(int fd, size_t ksz)
{
	hm_map_delete_if(fd, ksz, any_entry, NULL);
}

static void zero_percpu(int fd, size_t vsz)
{
	int ncpu = libbpf_num_possible_cpus();
	void *z = calloc(ncpu, vsz);
	__u32 zero = 0;

	if (z)
		bpf_map_update_elem(fd, &zero, z, BPF_ANY);
	free(z);
}

/* Route and forwarding setup of the test netns for the next-hop lookups. */
static void routes(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	if (system("ip link set hmt-out up && ip link set hmt-out-p up && "
		   "sysctl -qw net.ipv4.conf.hmt-out.forwarding=1 && "
		   "sysctl -qw net.ipv6.conf.hmt-out.forwarding=1 && "
		   "ip addr add 192.0.2.254/24 dev hmt-out && "
		   "ip route add 198.51.100.0/24 via 192.0.2.99 dev hmt-out && "
		   "ip -6 addr add 2001:db8:1::254/64 dev hmt-out nodad && "
		   "ip -6 route add 2001:db8:b::/48 via 2001:db8:1::99 dev hmt-out && "
		   "ip -6 route add 2001:db8:c::/48 via 2001:db8:1::99 dev hmt-out"))
		hm_fail("setup: cannot configure addresses and routes on hmt-out");
}

/* Load once (pinned to this CPU); reset the PBT-M maps every test. */
static bool pbt_env(void)
{
	char pin[PATH_MAX];
	cpu_set_t set;
	__u32 zero = 0;
	struct pbt_meter m = {};

	if (!skel) {
		CPU_ZERO(&set);
		CPU_SET(sched_getcpu(), &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return hm_check(false, "cannot pin to one CPU: %s", strerror(errno));
		if (hm_pin_dir(pin, sizeof(pin)))
			return hm_check(false, "no pin directory");
		skel = load_copy(pin, T_NOW);
		skel_in = load_copy(pin, T_NOW - T_SOJ);
		if (!skel || !skel_in)
			return hm_check(false, "hopmark_pbt.bpf.o did not load");
		rb = ring_buffer__new(bpf_map__fd(skel->maps.pbt_events), rec_cb, NULL, NULL);
		if (!rb)
			return hm_check(false, "cannot read pbt_events");
		routes();
	}
	hm_maps_defaults();	/* fresh queue readings (qdepth_max_age_ns) */
	clear_map(bpf_map__fd(skel->maps.pbt_ifcfg), 4);
	clear_map(bpf_map__fd(skel->maps.pbt_stats), 4);
	clear_map(bpf_map__fd(skel->maps.pbt_flows), sizeof(struct hm_flow_key));
	clear_map(bpf_map__fd(skel->maps.pbt_tpl), sizeof(struct hm_flow_key));
	bpf_map_update_elem(bpf_map__fd(skel->maps.pbt_meter), &zero, &m, BPF_ANY);
	zero_percpu(bpf_map__fd(skel->maps.pbt_arrival), sizeof(struct pbt_arrival));
	ring_buffer__consume(rb);
	n_recs = 0;
	return true;
}

static void set_if(int ifindex, __u32 flags)
{
	struct pbt_if_cfg ic = { .flags = flags };
	__u32 key = ifindex;

	bpf_map_update_elem(bpf_map__fd(skel->maps.pbt_ifcfg), &key, &ic, BPF_ANY);
}

static void dom_init(struct pbt_domain_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->flags = PBT_DOM_F_CONFIGURED;
	c->v4_mark = PBT_V4_RSVD;
	c->v6_mark = PBT_V6_TC;
	c->v4_tos_bit = 0x04;
	c->v6_tc_bit = 0x04;
	c->sel.sample = HM_SAMPLE_ALL;
	c->sel.seed = 0x5eed;
}

static bool dom_set(const struct pbt_domain_cfg *c)
{
	__u32 zero = 0;

	return hm_check(!bpf_map_update_elem(bpf_map__fd(skel->maps.pbt_cfg), &zero, c, BPF_ANY),
			"write pbt_cfg");
}

/*
 * The fixture every case starts from: the PBT-M maps reset (pbt_env()),
 * @c written to pbt_cfg, and the roles @out_flags on env.if_out and
 * @in_flags on env.if_in (PBT_IF_F_*; 0: the interface keeps no role, its
 * pbt_ifcfg entry zeroed by the reset). False, the failure reported, when
 * a step fails.
 */
static bool pbt_case(const struct pbt_domain_cfg *c, __u32 out_flags, __u32 in_flags)
{
	if (!pbt_env() || !dom_set(c))
		return false;
	if (out_flags)
		set_if(env.if_out, out_flags);
	if (in_flags)
		set_if(env.if_in, in_flags);
	return true;
}

static __u64 counter(int ifindex, int c)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	struct pbt_link_stats *per;
	__u32 key = ifindex;
	__u64 sum = 0;

	per = calloc(ncpu, sizeof(*per));
	if (!per)
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(skel->maps.pbt_stats), &key, per))
		for (i = 0; i < ncpu; i++)
			sum += per[i].cnt[c];
	free(per);
	return sum;
}

/*
 * Every counter of @ifindex is 0 but those of @want, a list of
 * (counter, value) pairs ended by -1.
 */
static void check_counters(int ifindex, const int *want)
{
	char what[80];
	__u64 exp;
	int i, j;

	for (i = 0; i < PBT_CNT_MAX; i++) {
		exp = 0;
		for (j = 0; want[j] >= 0; j += 2)
			if (want[j] == i)
				exp = want[j + 1];
		snprintf(what, sizeof(what), "counter %s on ifindex %d", pbt_counter_names[i],
			 ifindex);
		CHECK_EQ(what, exp, counter(ifindex, i));
	}
}
#define COUNTERS(ifx, ...) check_counters((ifx), (const int[]){ __VA_ARGS__, -1 })
#define NO_COUNTERS(ifx) check_counters((ifx), (const int[]){ -1 })

static void records(void)
{
	ring_buffer__consume(rb);
}

/* ---- frames, built from scratch ---- */

/**
 * struct tf - a test frame
 * @family:	4 or 6
 * @proto:	6, 17, or another (then @plen octets of payload after the IP headers)
 * @tos:	TOS / Traffic Class
 * @ttl:	TTL / Hop Limit
 * @ipid:	IPv4 Identification
 * @frag:	IPv4 Flags/Fragment Offset word (reserved bit included)
 * @srh:	IPv6: an SRH with Segment List [seg0, seg1], Segments Left 1
 * @srh_flags:	its Flags
 * @v6frag:	IPv6: a Fragment header before the upper layer
 * @sport:	source port
 * @dport:	destination port
 * @plen:	payload octets
 * @seq:	TCP sequence number
 * @dst4:	IPv4 destination (NULL: v4_dst)
 */
struct tf {
	int	family;
	int	proto;
	__u8	tos;
	__u8	ttl;
	__u16	ipid;
	__u16	frag;
	int	srh;
	__u8	srh_flags;
	int	v6frag;
	__u16	sport;
	__u16	dport;
	size_t	plen;
	__u32	seq;
	const __u8 *dst4;
};

static void tf_default(struct tf *t, int family, int proto)
{
	memset(t, 0, sizeof(*t));
	t->family = family;
	t->proto = proto;
	t->tos = 0x20;		/* CS1: a DSCP the marks must not touch */
	t->ttl = 61;
	t->ipid = 0x1234;
	t->frag = HM_IPV4_F_DF;
	t->sport = 40000;
	t->dport = 5001;
	t->plen = 40;
	t->seq = 0xa1b2c3d4;
}

static __u32 sum16(__u32 s, const __u8 *d, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (__u32)d[i] << 8 | d[i + 1];
	if (n & 1)
		s += (__u32)d[n - 1] << 8;
	return s;
}

static __u16 fold_not(__u32 s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

/* The IPv4 header checksum of the header at @ip, computed afresh. */
static void v4_csum(__u8 *ip)
{
	size_t hl = (ip[0] & 0x0f) * 4;

	hm_put_be16(ip + 10, 0);
	hm_put_be16(ip + 10, fold_not(sum16(0, ip, hl)));
}

/* Offsets in a frame built by build(). */
struct tf_off {
	size_t	ip;	/* IP header */
	size_t	srh;	/* SRH (0: none) */
	size_t	l4;	/* upper-layer header */
};

static void build(struct pkt *f, const struct tf *t, struct tf_off *o)
{
	size_t ip, l4, i, l3, seglen;
	__u8 *b = f->b, proto = t->proto, nh;
	__u32 s;

	pkt_init(f);
	pkt_eth(f, t->family == 4 ? 0x0800 : 0x86dd);
	ip = f->len;
	l3 = t->family == 4 ? 20 : 40;
	memset(b + ip, 0, 40 + 8 + 40 + 8);
	o->ip = ip;
	o->srh = 0;
	l4 = ip + l3;
	if (t->family == 6 && t->srh) {
		o->srh = l4;
		l4 += 8 + 32;
	}
	if (t->family == 6 && t->v6frag)
		l4 += 8;
	o->l4 = l4;
	/* Upper layer. */
	if (proto == HM_IPPROTO_TCP) {
		hm_put_be16(b + l4, t->sport);
		hm_put_be16(b + l4 + 2, t->dport);
		hm_put_be32(b + l4 + 4, t->seq);
		hm_put_be32(b + l4 + 8, 0x55667788);
		hm_put_be16(b + l4 + 12, 5 << 12 | 0x018);
		hm_put_be16(b + l4 + 14, 29200);
		hm_put_be16(b + l4 + 16, 0);
		hm_put_be16(b + l4 + 18, 0);
		seglen = 20 + t->plen;
	} else if (proto == HM_IPPROTO_UDP) {
		hm_put_be16(b + l4, t->sport);
		hm_put_be16(b + l4 + 2, t->dport);
		hm_put_be16(b + l4 + 4, 8 + t->plen);
		hm_put_be16(b + l4 + 6, 0);
		seglen = 8 + t->plen;
	} else {
		seglen = t->plen;
	}
	for (i = seglen - t->plen; i < seglen; i++)
		b[l4 + i] = (__u8)(0x30 + i * 13 + t->seq);
	f->len = l4 + seglen;
	if (t->family == 4) {
		b[ip] = 0x45;
		b[ip + 1] = t->tos;
		hm_put_be16(b + ip + 2, 20 + seglen);
		hm_put_be16(b + ip + 4, t->ipid);
		hm_put_be16(b + ip + 6, t->frag);
		b[ip + 8] = t->ttl;
		b[ip + 9] = proto;
		memcpy(b + ip + 12, v4_src, 4);
		memcpy(b + ip + 16, t->dst4 ? t->dst4 : v4_dst, 4);
		v4_csum(b + ip);
	} else {
		hm_put_be32(b + ip, 6U << 28 | (__u32)t->tos << 20 | 0x12345);
		hm_put_be16(b + ip + 4, f->len - ip - 40);
		b[ip + 7] = t->ttl;
		memcpy(b + ip + 8, v6_src, 16);
		memcpy(b + ip + 24, t->srh ? v6_seg1 : v6_dst, 16);
		nh = proto;
		if (t->v6frag) {
			size_t fo = l4 - 8;

			b[fo] = nh;
			hm_put_be16(b + fo + 2, 0x0001);	/* offset 0, M */
			hm_put_be32(b + fo + 4, 0xcafe0001);
			nh = HM_NEXTHDR_FRAGMENT;
		}
		if (t->srh) {
			size_t so = o->srh;

			b[so] = nh;
			b[so + 1] = 4;		/* 8 + 32 octets */
			b[so + 2] = HM_SRH_ROUTING_TYPE;
			b[so + 3] = 1;		/* Segments Left */
			b[so + 4] = 1;		/* Last Entry */
			b[so + 5] = t->srh_flags;
			memcpy(b + so + 8, v6_seg0, 16);
			memcpy(b + so + 24, v6_seg1, 16);
			nh = HM_NEXTHDR_ROUTING;
		}
		b[ip + 6] = nh;
	}
	if (proto == HM_IPPROTO_TCP || proto == HM_IPPROTO_UDP) {
		size_t co = l4 + (proto == HM_IPPROTO_TCP ? 16 : 6);

		/* Pseudo-header: the final destination (Segment List[0] with an SRH). */
		if (t->family == 4)
			s = sum16(0, b + ip + 12, 8);
		else
			s = sum16(sum16(0, b + ip + 8, 16), t->srh ? v6_seg0 : v6_dst, 16);
		s += proto + (__u32)seglen;
		s = sum16(s, b + l4, seglen);
		hm_put_be16(b + co, fold_not(s) ? fold_not(s) : 0xffff);
	}
}

/* The flow key and packet ID of @t's frame, picked out here (pbt_id.h). */
static void expect_id(const struct pkt *f, const struct tf *t, const struct tf_off *o,
		      struct hm_flow_key *k, __u32 *id)
{
	const __u8 *b = f->b, *ip = b + o->ip;
	__u8 oct[PBT_ID_OCTETS] = {};
	size_t left = f->len - o->l4, n1, n2, po;
	__u32 w;

	memset(k, 0, sizeof(*k));
	k->family = t->family;
	k->proto = t->proto;
	if (t->family == 4) {
		memcpy(k->saddr, ip + 12, 4);
		memcpy(k->daddr, ip + 16, 4);
		w = (__u32)hm_get_be16(ip + 4) << 16 | hm_get_be16(ip + 2);
	} else {
		memcpy(k->saddr, ip + 8, 16);
		memcpy(k->daddr, t->srh ? v6_seg0 : ip + 24, 16);
		w = hm_get_be16(ip + 4);
	}
	if (t->proto == HM_IPPROTO_TCP || t->proto == HM_IPPROTO_UDP) {
		memcpy(&k->sport, b + o->l4, 2);
		memcpy(&k->dport, b + o->l4 + 2, 2);
	}
	po = t->proto == HM_IPPROTO_TCP ? (size_t)(b[o->l4 + 12] >> 4) * 4 : 16;
	n1 = left < 16 ? left : 16;
	n2 = left > po ? left - po : 0;
	if (n2 > 8)
		n2 = 8;
	memcpy(oct, b + o->l4, n1);
	memcpy(oct + 16, b + o->l4 + po, n2);
	*id = pbt_pkt_id(k, w, oct, n1 + n2);
}

/* @in with @t's mark set (@set) or cleared, IPv4 checksum computed afresh. */
static void expect_mark(struct pkt *out, const struct pkt *in, const struct tf_off *o,
			const struct pbt_domain_cfg *c, int family, int set)
{
	__u8 *ip;
	size_t at;
	__u8 bit;

	*out = *in;
	ip = out->b + o->ip;
	if (family == 4) {
		if (c->v4_mark == PBT_V4_RSVD) {
			at = 6;
			bit = 0x80;
		} else {
			at = 1;
			bit = c->v4_tos_bit;
		}
		ip[at] = set ? ip[at] | bit : ip[at] & ~bit;
		v4_csum(ip);
	} else if (c->v6_mark == PBT_V6_OFLAG && o->srh) {
		out->b[o->srh + 5] = set ? out->b[o->srh + 5] | 0x20 : out->b[o->srh + 5] & ~0x20;
	} else {
		__u32 w = hm_get_be32(ip), m = (__u32)c->v6_tc_bit << 20;

		hm_put_be32(ip, set ? w | m : w & ~m);
	}
}

/* ---- runs ---- */

static bool run_tc_prog(struct bpf_program *prog, int ifindex, int iif, __u16 gso,
			const struct pkt *in, struct hm_run *r)
{
	struct __sk_buff ctx = { .ifindex = ifindex, .ingress_ifindex = iif };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = in->b, .data_size_in = in->len,
		.data_out = r->out, .data_size_out = sizeof(r->out),
		.ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = 1);

	if (gso) {
		ctx.gso_size = gso;
		ctx.gso_segs = 2;
	}
	r->err = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);
	r->out_len = o.data_size_out;
	r->retval = o.retval;
	if (r->err) {
		hm_fail("bpf_prog_test_run_opts (%s, %zu bytes): %s", bpf_program__name(prog),
			in->len, strerror(errno));
		return false;
	}
	return CHECK_EQ("tc verdict (TC_ACT_UNSPEC)", (__u32)TC_ACT_UNSPEC, r->retval);
}

static bool run_xdp_prog(struct bpf_program *prog, int ifindex, const struct pkt *in,
			 struct hm_run *r)
{
	struct xdp_md ctx = { .data_end = in->len, .ingress_ifindex = ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = in->b, .data_size_in = in->len,
		.data_out = r->out, .data_size_out = sizeof(r->out),
		.ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = 1);

	r->err = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);
	r->out_len = o.data_size_out;
	r->retval = o.retval;
	if (r->err) {
		hm_fail("bpf_prog_test_run_opts (hm_pbt_xdp, %zu bytes): %s", in->len,
			strerror(errno));
		return false;
	}
	return CHECK_EQ("xdp verdict (XDP_PASS)", XDP_PASS, r->retval);
}

/* Egress of env.if_out (forwarded from env.if_in), main clock. */
#define EGRESS(in, r)	run_tc_prog(skel->progs.hm_pbt_egress, env.if_out, env.if_in, 0, in, r)
#define EGRESS_GSO(in, r) run_tc_prog(skel->progs.hm_pbt_egress, env.if_out, env.if_in, \
				      1400, in, r)
/* Arrival on env.if_in: tc ingress or XDP, the arrival copy's clock (T_NOW - T_SOJ). */
#define INGRESS(in, r)	run_tc_prog(skel_in->progs.hm_pbt_ingress, env.if_in, env.if_in, 0, \
				    in, r)
#define XDP_IN(in, r)	run_xdp_prog(skel_in->progs.hm_pbt_xdp, env.if_in, in, r)

/* The run's output as a pkt. */
static void out_pkt(struct pkt *p, const struct hm_run *r)
{
	memcpy(p->b, r->out, r->out_len);
	p->len = r->out_len;
}

static bool same(const char *what, const struct pkt *exp, const struct hm_run *r)
{
	return hm_check_bytes(what, exp->b, exp->len, r->out, r->out_len);
}

/* ---- tests ---- */

enum { M_V4_RSVD, M_V4_TOS, M_V6_TC, M_V6_OFLAG, M_V6_OFLAG_NO_SRH };

static void method_cfg(struct pbt_domain_cfg *c, struct tf *t, int m, int proto)
{
	dom_init(c);
	tf_default(t, m <= M_V4_TOS ? 4 : 6, proto);
	if (m == M_V4_TOS)
		c->v4_mark = PBT_V4_TOS;
	if (m == M_V6_OFLAG || m == M_V6_OFLAG_NO_SRH)
		c->v6_mark = PBT_V6_OFLAG;
	t->srh = m == M_V6_OFLAG;
}

/*
 * Head marks (method @arg & 0xff, protocol @arg >> 8); the output is the
 * input with the bit set and the IPv4 checksum computed afresh.
 */
static void t_head_marks(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in, exp, out;
	struct tf_off o;
	struct hm_run r;
	struct tf t;

	method_cfg(&c, &t, test->arg & 0xff, test->arg >> 8);
	if (!pbt_case(&c, PBT_IF_F_HEAD, 0))
		return;
	build(&in, &t, &o);
	expect_mark(&exp, &in, &o, &c, t.family, 1);
	if (!EGRESS(&in, &r))
		return;
	same("marked frame", &exp, &r);
	out_pkt(&out, &r);
	if (t.family == 4)
		CHECK_EQ("IPv4 header checksum of the output verifies", 0,
			 pkt_csum16(out.b + o.ip, 20));
	COUNTERS(env.if_out, PBT_CNT_MARKED, 1);
	records();
	CHECK_EQ("postcards without the egress role", 0, n_recs);
}

/*
 * The incremental checksum for 2048 IPv4 headers (every checksum value's
 * neighbourhood, including those that fold through 0xffff): each mark and
 * each clear gives the header checksum computed afresh.
 */
static void t_v4_checksums(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in, exp, mid;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	int i, bad = 0;

	dom_init(&c);
	c.v4_mark = test->arg;
	if (!pbt_case(&c, PBT_IF_F_HEAD | PBT_IF_F_END, PBT_IF_F_END))
		return;
	for (i = 0; i < 2048 && !bad; i++) {
		tf_default(&t, 4, HM_IPPROTO_UDP);
		t.ipid = (__u16)(i * 32 + (i & 31));
		t.ttl = (__u8)(i >> 3);
		build(&in, &t, &o);
		/* Head then end on one egress: mark and clear in one pass. */
		if (!EGRESS(&in, &r))
			return;
		if (!same("head+end egress gives the input back", &in, &r))
			bad = 1;
		set_if(env.if_out, PBT_IF_F_HEAD);
		if (!EGRESS(&in, &r))
			return;
		expect_mark(&exp, &in, &o, &c, 4, 1);
		if (!same("marked header", &exp, &r))
			bad = 1;
		out_pkt(&mid, &r);
		if (!XDP_IN(&mid, &r))
			return;
		if (!same("cleared header", &in, &r))
			bad = 1;
		set_if(env.if_out, PBT_IF_F_HEAD | PBT_IF_F_END);
	}
	if (bad)
		hm_diag("failed at header %d (Identification 0x%04x)", i - 1, t.ipid);
	CHECK_EQ("cleared at end", 2048, counter(env.if_in, PBT_CNT_CLEARED));
	CHECK_EQ("marked at head", 4096, counter(env.if_out, PBT_CNT_MARKED));
}

/* What the chain tests vary. */
#define CH_XDP		(1U << 8)	/* the end arrival at XDP, not tc ingress */
#define CH_END_EGRESS	(1U << 9)	/* the end clears at its egress */

/*
 * Head (egress postcard) -> transit (ingress and egress postcards) -> end:
 * the end's output equals the head's input byte for byte, each hop's
 * postcard carries the same packet ID and flow key, and every field of
 * every record is what the maps and the packet say.
 */
static void t_chain(const struct hm_test *test)
{
	__u32 m = test->arg & 0xff, id;
	struct pbt_domain_cfg c;
	struct pkt in, exp, a, b;
	struct hm_flow_key k;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	char what[64];
	int i;

	method_cfg(&c, &t, m, (test->arg & (1U << 10)) ? HM_IPPROTO_TCP : HM_IPPROTO_UDP);
	if (!pbt_case(&c, 0, 0))
		return;
	build(&in, &t, &o);
	expect_id(&in, &t, &o, &k, &id);

	/* Head: mark and an egress postcard. */
	set_if(env.if_out, PBT_IF_F_HEAD | PBT_IF_F_EGRESS);
	if (!EGRESS(&in, &r))
		return;
	expect_mark(&exp, &in, &o, &c, t.family, 1);
	same("head's output", &exp, &r);
	out_pkt(&a, &r);
	COUNTERS(env.if_out, PBT_CNT_MARKED, 1, PBT_CNT_POSTCARD_EGRESS, 1);

	/* Transit: ingress postcard (tc), egress postcard; packet unchanged. */
	set_if(env.if_in, PBT_IF_F_INGRESS);
	set_if(env.if_out, PBT_IF_F_EGRESS);
	if (!INGRESS(&a, &r))
		return;
	same("transit ingress leaves the packet", &a, &r);
	if (!EGRESS(&a, &r))
		return;
	same("transit egress leaves the packet", &a, &r);

	/* End: postcard and clear, at arrival or at departure. */
	if (test->arg & CH_END_EGRESS) {
		set_if(env.if_out, PBT_IF_F_EGRESS | PBT_IF_F_END);
		if (!EGRESS(&a, &r))
			return;
	} else {
		set_if(env.if_in, PBT_IF_F_INGRESS | PBT_IF_F_END);
		if (test->arg & CH_XDP ? !XDP_IN(&a, &r) : !INGRESS(&a, &r))
			return;
	}
	out_pkt(&b, &r);
	same("end's output equals the head's input", &in, &r);
	if (t.family == 4)
		CHECK_EQ("IPv4 checksum after the clear verifies", 0, pkt_csum16(b.b + o.ip, 20));

	records();
	if (!CHECK_EQ("postcards (head, transit in, transit out, end)", 4, n_recs))
		return;
	for (i = 0; i < 4; i++) {
		struct pbt_record *p = &recs[i];
		int egress = i == 0 || i == 2 || (i == 3 && (test->arg & CH_END_EGRESS));
		__u32 flags = i == 0 ? PBT_REC_F_HEAD : i == 3 ? PBT_REC_F_END : 0;
		__u8 mark = t.family == 4 ? c.v4_mark : m == M_V6_OFLAG ? PBT_V6_OFLAG : PBT_V6_TC;
		__u64 ts = (egress ? T_NOW : T_NOW - T_SOJ) - env.tai_offset_ns;

		snprintf(what, sizeof(what), "record %d ", i);
#define F(name, exp, got) do { char w_[96]; snprintf(w_, sizeof(w_), "%s%s", what, name); \
			       CHECK_EQ(w_, exp, got); } while (0)
		F("ts_ns", ts, p->ts_ns);
		F("node_id", HM_T_NODE_ID, p->node_id);
		F("in_ifindex", env.if_in, p->in_ifindex);
		F("out_ifindex", egress ? env.if_out : 0, p->out_ifindex);
		F("pkt_id", id, p->pkt_id);
		F("qdepth", egress ? HM_T_OUT_QDEPTH : HM_T_OCCUPANCY, p->qdepth);
		F("point", egress ? PBT_PT_EGRESS : PBT_PT_INGRESS, p->point);
		F("ttl", t.ttl, p->ttl);
		F("id_kind", PBT_ID_HASH, p->id_kind);
		F("mark", mark, p->mark);
		F("flags", flags | (t.srh ? PBT_REC_F_SRH : 0), p->flags);
		F("pkt_len", in.len - 14, p->pkt_len);
		F("tpl_id", 0, p->tpl_id);
		F("tpl_fields", 0, p->tpl_fields);
		hm_check_bytes("record flow key", &k, sizeof(k), &p->key, sizeof(p->key));
#undef F
	}
}

/* Selection: the access list. */
static void t_watch(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in, exp;
	struct tf_off o;
	struct hm_run r;
	struct tf t;

	dom_init(&c);
	c.sel.nr_rules = 1;
	c.sel.rules[0].family = 4;
	c.sel.rules[0].proto = HM_IPPROTO_UDP;
	c.sel.rules[0].dst_plen = 24;
	memcpy(c.sel.rules[0].daddr, v4_dst, 3);
	c.sel.rules[0].dport = htons(4992);	/* 4992-5007 */
	c.sel.rules[0].dport_mask = htons(0xfff0);
	if (!pbt_case(&c, PBT_IF_F_HEAD, 0))
		return;
	tf_default(&t, 4, HM_IPPROTO_UDP);
	t.dport = test->arg;
	build(&in, &t, &o);
	if (!EGRESS(&in, &r))
		return;
	if (test->arg >= 4992 && test->arg < 5008) {
		expect_mark(&exp, &in, &o, &c, 4, 1);
		same("watched flow marked", &exp, &r);
		COUNTERS(env.if_out, PBT_CNT_MARKED, 1);
	} else {
		same("flow outside the access list unchanged", &in, &r);
		COUNTERS(env.if_out, PBT_CNT_NOT_WATCHED, 1);
	}
}

/* Sampling by flow hash: marked exactly when hm_flow_hash() % N == 0. */
static void t_sample_flow(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct hm_flow_key k;
	struct pkt in, exp;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	__u32 id, port, marked = 0, want;

	dom_init(&c);
	c.sel.sample = HM_SAMPLE_FLOW;
	c.sel.sample_n = 4;
	if (!pbt_case(&c, PBT_IF_F_HEAD, 0))
		return;
	for (port = 6000; port < 6064; port++) {
		tf_default(&t, 6, HM_IPPROTO_TCP);
		t.sport = port;
		build(&in, &t, &o);
		expect_id(&in, &t, &o, &k, &id);
		want = hm_flow_hash(&k, c.sel.seed) % 4 == 0;
		if (!EGRESS(&in, &r))
			return;
		if (want)
			expect_mark(&exp, &in, &o, &c, 6, 1);
		else
			exp = in;
		same(want ? "sampled flow marked" : "flow not sampled unchanged", &exp, &r);
		marked += want;
	}
	hm_diag("%u of 64 flows sampled at 1:4", marked);
	COUNTERS(env.if_out, PBT_CNT_MARKED, marked, PBT_CNT_NOT_SAMPLED, 64 - marked);
}

/* Sampling 1:N by packet: N = 1 marks all; about 1/8 of 4000 with N = 8. */
static void t_sample_packet(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	__u64 marked;
	int i;

	dom_init(&c);
	c.sel.sample = HM_SAMPLE_PACKET;
	c.sel.sample_n = 8;
	if (!pbt_case(&c, PBT_IF_F_HEAD, 0))
		return;
	tf_default(&t, 4, HM_IPPROTO_UDP);
	build(&in, &t, &o);
	for (i = 0; i < 4000; i++)
		if (!EGRESS(&in, &r))
			return;
	marked = counter(env.if_out, PBT_CNT_MARKED);
	/* Binomial(4000, 1/8): mean 500, sd 21; 6 sd either side. */
	hm_check(marked >= 375 && marked <= 625, "marked 375..625 of 4000 at 1:8, observed %llu",
		 (unsigned long long)marked);
	CHECK_EQ("marked + not sampled", 4000,
		 marked + counter(env.if_out, PBT_CNT_NOT_SAMPLED));
}

/* One packet per flow per interval (pbt_flows). */
static void t_sample_interval(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pbt_flow_state fs;
	struct hm_flow_key k;
	struct pkt in, exp;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	__u32 id;

	dom_init(&c);
	c.sel.sample = PBT_SAMPLE_INTERVAL;
	c.interval_ns = 10000000000ULL;	/* 10 s */
	if (!pbt_case(&c, PBT_IF_F_HEAD, 0))
		return;
	tf_default(&t, 4, HM_IPPROTO_TCP);
	build(&in, &t, &o);
	expect_id(&in, &t, &o, &k, &id);
	expect_mark(&exp, &in, &o, &c, 4, 1);
	if (!EGRESS(&in, &r))
		return;
	same("first packet of the flow marked", &exp, &r);
	if (!EGRESS(&in, &r))
		return;
	same("second packet within the interval unchanged", &in, &r);
	COUNTERS(env.if_out, PBT_CNT_MARKED, 1, PBT_CNT_NOT_SAMPLED, 1);
	/* The interval passed: move the flow's last mark 11 s back. */
	if (!hm_check(!bpf_map_lookup_elem(bpf_map__fd(skel->maps.pbt_flows), &k, &fs),
		      "pbt_flows holds the flow"))
		return;
	fs.last_mark_ns -= 11000000000ULL;
	bpf_map_update_elem(bpf_map__fd(skel->maps.pbt_flows), &k, &fs, BPF_EXIST);
	if (!EGRESS(&in, &r))
		return;
	same("packet after the interval marked", &exp, &r);
	COUNTERS(env.if_out, PBT_CNT_MARKED, 2, PBT_CNT_NOT_SAMPLED, 1);
}

/*
 * Meter: rate 1/s, burst 3. Three marked, the fourth metered; a GSO skb
 * of 2 segments costs 2 tokens.
 */
static void t_meter(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in, exp;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	int i;

	dom_init(&c);
	c.meter_rate = 1;
	c.meter_burst = 3;
	if (!pbt_case(&c, PBT_IF_F_HEAD, 0))
		return;
	tf_default(&t, 4, HM_IPPROTO_UDP);
	build(&in, &t, &o);
	expect_mark(&exp, &in, &o, &c, 4, 1);
	if (test->arg) {
		/* GSO (2 segments) takes 2 of 3 tokens; a second GSO skb finds 1. */
		if (!EGRESS_GSO(&in, &r))
			return;
		same("GSO skb marked", &exp, &r);
		if (!EGRESS_GSO(&in, &r))
			return;
		same("GSO skb with 1 token left unchanged", &in, &r);
		if (!EGRESS(&in, &r))
			return;
		same("packet takes the last token", &exp, &r);
		COUNTERS(env.if_out, PBT_CNT_MARKED, 2, PBT_CNT_METERED, 1, PBT_CNT_GSO, 1);
		/* Burst 1 < 2 segments: a full bucket lets a GSO skb through. */
		c.meter_burst = 1;
		if (!pbt_case(&c, PBT_IF_F_HEAD, 0))
			return;
		if (!EGRESS_GSO(&in, &r))
			return;
		same("GSO skb of more segments than the burst, bucket full: marked", &exp, &r);
		if (!EGRESS(&in, &r))
			return;
		same("bucket empty after it", &in, &r);
		COUNTERS(env.if_out, PBT_CNT_MARKED, 1, PBT_CNT_METERED, 1, PBT_CNT_GSO, 1);
		return;
	}
	for (i = 0; i < 3; i++) {
		if (!EGRESS(&in, &r))
			return;
		same("packet within the burst marked", &exp, &r);
	}
	if (!EGRESS(&in, &r))
		return;
	same("packet past the burst unchanged", &in, &r);
	COUNTERS(env.if_out, PBT_CNT_MARKED, 3, PBT_CNT_METERED, 1);
}

/* Triggers: CE (arg 0) and queue depth (arg 1 above, 2 below the threshold). */
static void t_trigger(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in, ce, exp;
	struct tf_off o;
	struct hm_run r;
	struct tf t;

	dom_init(&c);
	c.trig_hold_ns = 10000000000ULL;
	c.trig_flags = test->arg ? PBT_TRIG_QDEPTH : PBT_TRIG_CE;
	c.trig_qdepth = test->arg == 1 ? HM_T_OUT_QDEPTH - 1 : HM_T_OUT_QDEPTH;
	if (!pbt_case(&c, PBT_IF_F_HEAD, 0))
		return;
	tf_default(&t, 6, HM_IPPROTO_UDP);
	build(&in, &t, &o);
	expect_mark(&exp, &in, &o, &c, 6, 1);
	if (test->arg) {
		if (!EGRESS(&in, &r))
			return;
		if (test->arg == 1) {
			same("queue above the threshold: marked", &exp, &r);
			COUNTERS(env.if_out, PBT_CNT_MARKED, 1, PBT_CNT_TRIGGERED, 1);
		} else {
			same("queue at the threshold: unchanged", &in, &r);
			COUNTERS(env.if_out, PBT_CNT_NOT_TRIGGERED, 1);
		}
		return;
	}
	if (!EGRESS(&in, &r))
		return;
	same("no CE seen yet: unchanged", &in, &r);
	t.tos |= 3;
	build(&ce, &t, &o);
	expect_mark(&exp, &ce, &o, &c, 6, 1);
	if (!EGRESS(&ce, &r))
		return;
	same("CE packet marked", &exp, &r);
	expect_mark(&exp, &in, &o, &c, 6, 1);
	if (!EGRESS(&in, &r))
		return;
	same("next packet of the flow within the hold marked", &exp, &r);
	COUNTERS(env.if_out, PBT_CNT_NOT_TRIGGERED, 1, PBT_CNT_MARKED, 2, PBT_CNT_TRIGGERED, 2);
}

/* The node's IPFIX export (UDP/TCP to exp_port, or 4739 by default) is never marked. */
static void t_export(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in, exp;
	struct tf_off o;
	struct hm_run r;
	struct tf t;

	dom_init(&c);
	c.exp_transport = PBT_EXP_UDP;
	c.exp_port = test->arg == 2 ? 0 : 9995;
	if (!pbt_case(&c, PBT_IF_F_HEAD | PBT_IF_F_EGRESS, 0))
		return;
	tf_default(&t, test->arg == 1 ? 6 : 4, test->arg == 1 ? HM_IPPROTO_TCP : HM_IPPROTO_UDP);
	t.dport = test->arg == 2 ? HM_IPFIX_PORT : 9995;
	build(&in, &t, &o);
	if (!EGRESS(&in, &r))
		return;
	same("export unchanged", &in, &r);
	COUNTERS(env.if_out, PBT_CNT_EXPORT, 1);
	records();
	CHECK_EQ("postcards of the export", 0, n_recs);
	/* Another port is user traffic. */
	t.dport = 9996;
	build(&in, &t, &o);
	expect_mark(&exp, &in, &o, &c, t.family, 1);
	if (!EGRESS(&in, &r))
		return;
	same("UDP to another port marked", &exp, &r);
}

/*
 * Packets to a destination routers do not forward (IPv4 multicast and
 * link-local, IPv6 multicast such as Neighbor Discovery's ff02::2, IPv6
 * link-local) are never marked at the head: not_unicast, no postcard.
 */
static void t_not_unicast(const struct hm_test *test)
{
	static const __u8 mc4[4] = { 224, 0, 0, 251 }, ll4[4] = { 169, 254, 1, 1 };
	static const __u8 mc6[16] = { 0xff, 0x02, [15] = 2 };
	static const __u8 ll6[16] = { 0xfe, 0x80, [15] = 1 };
	struct pbt_domain_cfg c;
	struct pkt in;
	struct tf_off o;
	struct hm_run r;
	struct tf t;

	dom_init(&c);
	if (!pbt_case(&c, PBT_IF_F_HEAD | PBT_IF_F_EGRESS, 0))
		return;
	tf_default(&t, test->arg < 2 ? 4 : 6, HM_IPPROTO_UDP);
	if (test->arg < 2)
		t.dst4 = test->arg ? ll4 : mc4;
	build(&in, &t, &o);
	if (test->arg >= 2)
		memcpy(in.b + o.ip + 24, test->arg == 2 ? mc6 : ll6, 16);
	if (!EGRESS(&in, &r))
		return;
	same("not marked", &in, &r);
	COUNTERS(env.if_out, PBT_CNT_NOT_UNICAST, 1);
	records();
	CHECK_EQ("postcards", 0, n_recs);
}

/* A packet already carrying the bit at the head is left as it is, and postcarded. */
static void t_already(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in;
	struct tf_off o;
	struct hm_run r;
	struct tf t;

	dom_init(&c);
	if (!pbt_case(&c, PBT_IF_F_HEAD | PBT_IF_F_EGRESS, 0))
		return;
	tf_default(&t, 4, HM_IPPROTO_UDP);
	t.frag |= PBT_V4_RSVD_BIT;
	build(&in, &t, &o);
	if (!EGRESS(&in, &r))
		return;
	same("marked packet left alone", &in, &r);
	COUNTERS(env.if_out, PBT_CNT_ALREADY_MARKED, 1, PBT_CNT_POSTCARD_EGRESS, 1);
	records();
	if (CHECK_EQ("postcards", 1, n_recs))
		CHECK_EQ("not the head's mark: no HEAD flag", 0, recs[0].flags & PBT_REC_F_HEAD);
}

/* Configuration refused: a TOS bit that is not one DSCP bit, an Alternate Marking bit, none. */
enum { B_TWO_BITS, B_ECN, B_ALTMARK, B_NOT_CONFIGURED };

static void t_bad_cfg(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in;
	struct tf_off o;
	struct hm_run r;
	struct tf t;

	dom_init(&c);
	c.v4_mark = PBT_V4_TOS;
	c.v4_tos_bit = test->arg == B_TWO_BITS ? 0x0c : test->arg == B_ECN ? 0x01 : 0x04;
	if (test->arg == B_ALTMARK)
		c.altmark_tos = 0x04;
	if (test->arg == B_NOT_CONFIGURED)
		c.flags = 0;
	if (!pbt_case(&c, PBT_IF_F_HEAD | PBT_IF_F_EGRESS, PBT_IF_F_INGRESS | PBT_IF_F_END))
		return;
	tf_default(&t, 4, HM_IPPROTO_UDP);
	t.tos |= 0x0c;	/* whatever the bit, the packet "carries" it */
	build(&in, &t, &o);
	if (!EGRESS(&in, &r) || !same("head: unchanged", &in, &r))
		return;
	if (!XDP_IN(&in, &r) || !same("end: unchanged", &in, &r))
		return;
	COUNTERS(env.if_out, test->arg == B_NOT_CONFIGURED ? PBT_CNT_NOT_CONFIGURED :
			     test->arg == B_ALTMARK ? PBT_CNT_ALTMARK : PBT_CNT_BAD_BIT, 1);
	COUNTERS(env.if_in, test->arg == B_NOT_CONFIGURED ? PBT_CNT_NOT_CONFIGURED :
			    test->arg == B_ALTMARK ? PBT_CNT_ALTMARK : PBT_CNT_BAD_BIT, 1);
	records();
	CHECK_EQ("postcards", 0, n_recs);
}

/*
 * Per-flow template with every field: TOS without the mark, length, the
 * SRH's fields, the first octets, the next hop (FIB: the route's gateway)
 * and the sojourn (exactly T_SOJ: ingress copy's clock). @arg: 4 or 6 (6
 * with an SRH, O-flag mark).
 */
static void t_template(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pbt_flow_tpl tpl = { .id = T_TPL_ID, .fields = PBT_FLD_ALL };
	struct pkt in, a;
	struct hm_flow_key k;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	__u32 id, want;
	int i;

	method_cfg(&c, &t, test->arg == 4 ? M_V4_TOS : M_V6_OFLAG, HM_IPPROTO_TCP);
	if (!pbt_case(&c, PBT_IF_F_HEAD, 0))
		return;
	build(&in, &t, &o);
	expect_id(&in, &t, &o, &k, &id);
	bpf_map_update_elem(bpf_map__fd(skel->maps.pbt_tpl), &k, &tpl, BPF_ANY);
	if (!EGRESS(&in, &r))
		return;
	out_pkt(&a, &r);
	set_if(env.if_in, PBT_IF_F_INGRESS);
	set_if(env.if_out, PBT_IF_F_EGRESS);
	if (!XDP_IN(&a, &r) || !EGRESS(&a, &r))
		return;
	records();
	if (!CHECK_EQ("postcards (ingress, egress)", 2, n_recs))
		return;
	COUNTERS(env.if_in, PBT_CNT_POSTCARD_INGRESS, 1, PBT_CNT_TEMPLATE, 1);
	COUNTERS(env.if_out, PBT_CNT_MARKED, 1, PBT_CNT_POSTCARD_EGRESS, 1, PBT_CNT_TEMPLATE, 1);
	for (i = 0; i < 2; i++) {
		struct pbt_record *p = &recs[i];

		want = PBT_FLD_TOS | PBT_FLD_LENGTH | PBT_FLD_HEADER |
		       (t.srh ? PBT_FLD_SRH : 0) | (i ? PBT_FLD_NEXTHOP | PBT_FLD_SOJOURN : 0);
		CHECK_EQ("tpl_id", T_TPL_ID, p->tpl_id);
		CHECK_EQ("tpl_fields", want, p->tpl_fields);
		CHECK_EQ("tos without the mark bit", t.tos, p->tos);
		CHECK_EQ("pkt_len", in.len - 14, p->pkt_len);
		CHECK_EQ("hdr_len", in.len - 14 < PBT_REC_HDR_MAX ? in.len - 14 : PBT_REC_HDR_MAX,
			 p->hdr_len);
		hm_check_bytes("hdr: the marked packet's first octets", a.b + 14, p->hdr_len,
			       p->hdr, p->hdr_len);
		if (t.srh) {
			CHECK_EQ("srh_flags (O set)", HM_SRH_FLAG_O, p->srh_flags);
			CHECK_EQ("srh_sl", 1, p->srh_sl);
			hm_check_bytes("srh_active", v6_seg1, 16, p->srh_active, 16);
			CHECK_EQ("flags", PBT_REC_F_SRH, p->flags);
		}
		if (i) {
			__u8 nh[16] = {};

			memcpy(nh, t.family == 4 ? v4_gw : v6_gw, t.family == 4 ? 4 : 16);
			hm_check_bytes("nexthop: the route's gateway", nh, 16, p->nexthop, 16);
			CHECK_EQ("sojourn_ns", T_SOJ, p->sojourn_ns);
		}
	}
}

/* An expired template gives the basic set; counted. No stamp, no route: counted. */
static void t_template_missing(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pbt_flow_tpl tpl = { .id = T_TPL_ID, .fields = PBT_FLD_ALL };
	struct pkt in, a;
	struct hm_flow_key k;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	__u32 id;

	dom_init(&c);
	if (!pbt_case(&c, PBT_IF_F_HEAD | PBT_IF_F_EGRESS, 0))
		return;
	tf_default(&t, 4, HM_IPPROTO_UDP);
	if (test->arg == 1)
		t.dst4 = v4_unrouted;
	build(&in, &t, &o);
	expect_id(&in, &t, &o, &k, &id);
	tpl.expires_ns = test->arg == 0 ? hm_now_ns(CLOCK_MONOTONIC) - 1 : 0;
	bpf_map_update_elem(bpf_map__fd(skel->maps.pbt_tpl), &k, &tpl, BPF_ANY);
	if (!EGRESS(&in, &r))
		return;
	out_pkt(&a, &r);
	records();
	if (!CHECK_EQ("postcards", 1, n_recs))
		return;
	if (test->arg == 0) {
		COUNTERS(env.if_out, PBT_CNT_MARKED, 1, PBT_CNT_POSTCARD_EGRESS, 1,
			 PBT_CNT_TEMPLATE_EXPIRED, 1);
		CHECK_EQ("tpl_id of an expired template", 0, recs[0].tpl_id);
		CHECK_EQ("tpl_fields of an expired template", 0, recs[0].tpl_fields);
		return;
	}
	/* No arrival stamp of the packet, and a destination no route covers. */
	COUNTERS(env.if_out, PBT_CNT_MARKED, 1, PBT_CNT_POSTCARD_EGRESS, 1, PBT_CNT_TEMPLATE, 1,
		 PBT_CNT_NO_NEXTHOP, 1, PBT_CNT_NO_SOJOURN, 1);
	CHECK_EQ("tpl_fields without next hop and sojourn",
		 PBT_FLD_TOS | PBT_FLD_LENGTH | PBT_FLD_HEADER, recs[0].tpl_fields);
}

/* A GSO skb: one postcard, flagged; its IP header marked (segments copy it). */
static void t_gso(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in, exp;
	struct tf_off o;
	struct hm_run r;
	struct tf t;

	dom_init(&c);
	if (!pbt_case(&c, PBT_IF_F_HEAD | PBT_IF_F_EGRESS, 0))
		return;
	tf_default(&t, test->arg, HM_IPPROTO_TCP);
	t.plen = 2800;
	build(&in, &t, &o);
	expect_mark(&exp, &in, &o, &c, t.family, 1);
	if (!EGRESS_GSO(&in, &r))
		return;
	same("GSO skb marked", &exp, &r);
	COUNTERS(env.if_out, PBT_CNT_MARKED, 1, PBT_CNT_POSTCARD_EGRESS, 1, PBT_CNT_GSO, 1);
	records();
	if (CHECK_EQ("one postcard for the GSO skb", 1, n_recs))
		CHECK_EQ("flags", PBT_REC_F_HEAD | PBT_REC_F_GSO, recs[0].flags);
}

/*
 * Malformed and unsupported packets, marked: never changed, counted; the
 * end clears a mark whose IP headers are whole even when what follows is
 * not (a mark never leaves the domain).
 */
enum { X_IHL4, X_TOTLEN, X_V6PLEN, X_SRH_SHORT, X_TCP_TRUNC, X_V4FRAG, X_V6FRAG, X_ARP,
       X_ICMP };

static void t_bad_pkt(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in, exp;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	int cnt = -1, clears = 0, post = 0, x = test->arg;

	dom_init(&c);
	c.v6_mark = PBT_V6_OFLAG;
	if (!pbt_case(&c, 0, 0))
		return;
	tf_default(&t, x == X_V6PLEN || x == X_SRH_SHORT || x == X_V6FRAG ? 6 : 4,
		   x == X_TCP_TRUNC ? HM_IPPROTO_TCP : x == X_ICMP ? HM_IPPROTO_ICMP :
		   HM_IPPROTO_UDP);
	t.frag |= PBT_V4_RSVD_BIT;
	t.tos |= c.v6_tc_bit;
	t.srh = x == X_SRH_SHORT;
	t.srh_flags = HM_SRH_FLAG_O;
	t.v6frag = x == X_V6FRAG;
	if (x == X_V4FRAG)
		t.frag |= HM_IPV4_F_MF;
	build(&in, &t, &o);
	switch (x) {
	case X_IHL4:
		in.b[o.ip] = 0x44;
		v4_csum(in.b + o.ip);
		cnt = PBT_CNT_MALFORMED;
		break;
	case X_TOTLEN:
		hm_put_be16(in.b + o.ip + 2, in.len - 14 + 1);
		v4_csum(in.b + o.ip);
		cnt = PBT_CNT_MALFORMED;
		break;
	case X_V6PLEN:
		hm_put_be16(in.b + o.ip + 4, in.len - 54 + 1);
		cnt = PBT_CNT_MALFORMED;
		break;
	case X_SRH_SHORT:
		in.b[o.srh + 4] = 2;	/* Last Entry 2: 3 segments in a 2-segment header */
		cnt = PBT_CNT_MALFORMED;
		break;
	case X_TCP_TRUNC:
		/* Total Length ends 4 octets into the TCP header (the frame keeps the rest). */
		hm_put_be16(in.b + o.ip + 2, 24);
		v4_csum(in.b + o.ip);
		cnt = PBT_CNT_MALFORMED;
		clears = 1;
		break;
	case X_V4FRAG:
	case X_V6FRAG:
		cnt = PBT_CNT_UNSUPPORTED;
		clears = 1;
		break;
	case X_ARP:
		in.b[12] = 0x08;
		in.b[13] = 0x06;
		break;
	case X_ICMP:
		post = 1;
		clears = 1;
		break;
	}
	set_if(env.if_in, PBT_IF_F_INGRESS | PBT_IF_F_END);
	if (!XDP_IN(&in, &r))
		return;
	if (clears)
		expect_mark(&exp, &in, &o, &c, t.family, 0);
	else
		exp = in;
	same(clears ? "end: only the mark cleared" : "end: unchanged", &exp, &r);
	if (cnt >= 0 && clears)
		COUNTERS(env.if_in, cnt, 1, PBT_CNT_CLEARED, 1);
	else if (cnt >= 0)
		COUNTERS(env.if_in, cnt, 1);
	else if (post)
		COUNTERS(env.if_in, PBT_CNT_POSTCARD_INGRESS, 1, PBT_CNT_CLEARED, 1);
	else
		NO_COUNTERS(env.if_in);
	/* The same packet, unmarked, at a head: never marked. */
	set_if(env.if_out, PBT_IF_F_HEAD);
	if (x != X_ICMP) {
		if (clears) {
			in = exp;
		}
		if (!EGRESS(&in, &r))
			return;
		same("head: unchanged", &in, &r);
		COUNTERS(env.if_out, cnt >= 0 ? cnt : PBT_CNT_UNSUPPORTED, 1);
	}
	records();
	CHECK_EQ("postcards", post, n_recs);
}

/*
 * Every truncation of a marked frame (XDP from the Ethernet header on):
 * nothing changes, nothing crashes, no postcard; IP packets count malformed.
 */
static void t_truncated(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in, cut;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	size_t len;
	__u64 mal = 0;

	dom_init(&c);
	c.v6_mark = PBT_V6_OFLAG;
	if (!pbt_case(&c, 0, PBT_IF_F_INGRESS | PBT_IF_F_END))
		return;
	tf_default(&t, test->arg, HM_IPPROTO_TCP);
	t.frag |= PBT_V4_RSVD_BIT;
	t.srh = test->arg == 6;
	t.srh_flags = HM_SRH_FLAG_O;
	build(&in, &t, &o);
	for (len = 14; len < in.len; len++) {
		memcpy(cut.b, in.b, len);
		cut.len = len;
		if (!XDP_IN(&cut, &r))
			return;
		if (!same("truncated frame unchanged", &cut, &r)) {
			hm_diag("at length %zu", len);
			return;
		}
		/* Shorter than Ethernet + 20 octets: not IP to the programs. */
		mal += len >= 14 + 20;
	}
	COUNTERS(env.if_in, PBT_CNT_MALFORMED, mal);
	records();
	CHECK_EQ("postcards", 0, n_recs);
}

/* The flow key of an SRH packet: destination Segment List[0], not the IPv6 destination. */
static void t_srh_key(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct hm_flow_key k;
	struct pkt in, a, b;
	struct tf_off o;
	struct hm_run r;
	struct tf t;
	__u32 id;

	method_cfg(&c, &t, M_V6_OFLAG, HM_IPPROTO_UDP);
	if (!pbt_case(&c, PBT_IF_F_HEAD | PBT_IF_F_EGRESS, 0))
		return;
	build(&in, &t, &o);
	expect_id(&in, &t, &o, &k, &id);
	if (!EGRESS(&in, &r))
		return;
	out_pkt(&a, &r);
	/* The next segment endpoint: destination Segment List[0], Segments Left 0, hop limit - 1. */
	b = a;
	memcpy(b.b + o.ip + 24, v6_seg0, 16);
	b.b[o.srh + 3] = 0;
	b.b[o.ip + 7]--;
	set_if(env.if_out, PBT_IF_F_EGRESS);
	if (!EGRESS(&b, &r))
		return;
	records();
	if (!CHECK_EQ("postcards", 2, n_recs))
		return;
	hm_check_bytes("flow key destination: Segment List[0]", v6_seg0, 16, recs[0].key.daddr, 16);
	CHECK_EQ("packet ID at the head", id, recs[0].pkt_id);
	CHECK_EQ("packet ID after a segment endpoint", id, recs[1].pkt_id);
	CHECK_EQ("hop limit after the endpoint", t.ttl - 1, recs[1].ttl);
}

/*
 * A node with no role on the interface, or interfaces without an entry:
 * nothing happens, nothing is counted.
 */
static void t_no_role(const struct hm_test *test)
{
	struct pbt_domain_cfg c;
	struct pkt in;
	struct tf_off o;
	struct hm_run r;
	struct tf t;

	dom_init(&c);
	if (!pbt_case(&c, 0, 0))
		return;
	tf_default(&t, 4, HM_IPPROTO_UDP);
	t.frag |= PBT_V4_RSVD_BIT;
	build(&in, &t, &o);
	if (!EGRESS(&in, &r) || !XDP_IN(&in, &r) || !INGRESS(&in, &r))
		return;
	same("unchanged", &in, &r);
	NO_COUNTERS(env.if_out);
	NO_COUNTERS(env.if_in);
	records();
	CHECK_EQ("postcards", 0, n_recs);
}

__attribute__((constructor)) static void register_pbt_tests(void)
{
	static const char *const mname[] = { "ipv4_reserved_flag", "ipv4_tos_bit",
					     "ipv6_tc_bit", "ipv6_srh_oflag",
					     "ipv6_oflag_without_srh_tc_bit" };
	int m, proto;

	for (m = M_V4_RSVD; m <= M_V6_OFLAG_NO_SRH; m++)
		for (proto = 0; proto < 2; proto++)
			hm_add_test(t_head_marks, m | (proto ? HM_IPPROTO_TCP : HM_IPPROTO_UDP) << 8,
				    "pbt_head_marks_%s_%s", mname[m], proto ? "tcp" : "udp");
	hm_add_test(t_v4_checksums, PBT_V4_RSVD, "pbt_v4_reserved_flag_checksum_2048_headers");
	hm_add_test(t_v4_checksums, PBT_V4_TOS, "pbt_v4_tos_bit_checksum_2048_headers");
	for (m = M_V4_RSVD; m <= M_V6_OFLAG_NO_SRH; m++) {
		hm_add_test(t_chain, m, "pbt_chain_%s_udp_end_tc_ingress_restores_bytes",
			    mname[m]);
		hm_add_test(t_chain, m | CH_XDP | 1U << 10,
			    "pbt_chain_%s_tcp_end_xdp_restores_bytes", mname[m]);
		hm_add_test(t_chain, m | CH_END_EGRESS,
			    "pbt_chain_%s_udp_end_egress_restores_bytes", mname[m]);
	}
	hm_add_test(t_watch, 5001, "pbt_head_watched_flow_marked");
	hm_add_test(t_watch, 5008, "pbt_head_port_outside_mask_not_watched");
	hm_add_test(t_watch, 4991, "pbt_head_port_below_mask_not_watched");
	hm_add_test(t_sample_flow, 0, "pbt_head_sample_flow_by_hash");
	hm_add_test(t_sample_packet, 0, "pbt_head_sample_packet_1_in_8");
	hm_add_test(t_sample_interval, 0, "pbt_head_sample_one_per_flow_per_interval");
	hm_add_test(t_meter, 0, "pbt_head_meter_burst_3_then_metered");
	hm_add_test(t_meter, 1, "pbt_head_meter_gso_charges_its_segments");
	hm_add_test(t_trigger, 0, "pbt_head_trigger_ce_holds_the_flow");
	hm_add_test(t_trigger, 1, "pbt_head_trigger_qdepth_above_threshold");
	hm_add_test(t_trigger, 2, "pbt_head_trigger_qdepth_at_threshold_not_triggered");
	hm_add_test(t_export, 0, "pbt_export_udp_to_collector_port_never_marked");
	hm_add_test(t_export, 1, "pbt_export_tcp_to_collector_port_never_marked");
	hm_add_test(t_export, 2, "pbt_export_default_port_4739_never_marked");
	hm_add_test(t_not_unicast, 0, "pbt_head_never_marks_ipv4_multicast");
	hm_add_test(t_not_unicast, 1, "pbt_head_never_marks_ipv4_link_local");
	hm_add_test(t_not_unicast, 2, "pbt_head_never_marks_ipv6_multicast_nd");
	hm_add_test(t_not_unicast, 3, "pbt_head_never_marks_ipv6_link_local");
	hm_add_test(t_already, 0, "pbt_head_already_marked_left_alone");
	hm_add_test(t_bad_cfg, B_TWO_BITS, "pbt_tos_mark_of_two_bits_refused");
	hm_add_test(t_bad_cfg, B_ECN, "pbt_tos_mark_on_ecn_refused");
	hm_add_test(t_bad_cfg, B_ALTMARK, "pbt_tos_mark_on_altmark_bit_refused");
	hm_add_test(t_bad_cfg, B_NOT_CONFIGURED, "pbt_domain_not_configured_counted");
	hm_add_test(t_template, 4, "pbt_template_every_field_ipv4_tos_mark");
	hm_add_test(t_template, 6, "pbt_template_every_field_ipv6_srh_oflag");
	hm_add_test(t_template_missing, 0, "pbt_template_expired_basic_set_counted");
	hm_add_test(t_template_missing, 1, "pbt_template_no_route_no_stamp_counted");
	hm_add_test(t_gso, 4, "pbt_gso_ipv4_one_postcard_flagged");
	hm_add_test(t_gso, 6, "pbt_gso_ipv6_one_postcard_flagged");
	hm_add_test(t_bad_pkt, X_IHL4, "pbt_malformed_ipv4_ihl_4_unchanged");
	hm_add_test(t_bad_pkt, X_TOTLEN, "pbt_malformed_ipv4_total_length_past_frame");
	hm_add_test(t_bad_pkt, X_V6PLEN, "pbt_malformed_ipv6_payload_length_past_frame");
	hm_add_test(t_bad_pkt, X_SRH_SHORT, "pbt_malformed_srh_last_entry_past_header");
	hm_add_test(t_bad_pkt, X_TCP_TRUNC, "pbt_truncated_tcp_no_postcard_mark_cleared");
	hm_add_test(t_bad_pkt, X_V4FRAG, "pbt_ipv4_fragment_no_postcard_mark_cleared");
	hm_add_test(t_bad_pkt, X_V6FRAG, "pbt_ipv6_fragment_no_postcard_mark_cleared");
	hm_add_test(t_bad_pkt, X_ARP, "pbt_arp_untouched_counted_at_head");
	hm_add_test(t_bad_pkt, X_ICMP, "pbt_icmp_postcard_and_clear");
	hm_add_test(t_truncated, 4, "pbt_every_truncation_ipv4_tcp_unchanged");
	hm_add_test(t_truncated, 6, "pbt_every_truncation_ipv6_srh_tcp_unchanged");
	hm_add_test(t_srh_key, 0, "pbt_srh_flow_key_and_id_survive_segment_endpoint");
	hm_add_test(t_no_role, 0, "pbt_interface_without_role_untouched_uncounted");
}
