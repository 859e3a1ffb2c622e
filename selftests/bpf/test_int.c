// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_int.c - bpf/hopmark_int.bpf.c (INT v2.1 over TCP/UDP) under
 * BPF_PROG_TEST_RUN.
 *
 * Every expected frame is built here from scratch with lib/int/int.h: the
 * IP and TCP/UDP headers with the INT data where §5.7.2 places it, every
 * checksum computed over the whole segment (never incrementally, as the
 * datapath does), and each hop's metadata written field by field in
 * bitmap order (§5.8) from the values the maps hold. The programs' output
 * is compared byte for byte after every step, every L4 checksum is
 * verified, and a source -> 3 transits -> sink chain must give back the
 * original frame exactly. Records (int_events) are compared field by
 * field. Counters (int_stats) must move exactly as documented.
 *
 * Two copies of the object are loaded with fixed clocks (hm_int_fixed_tai_ns):
 * the main one at T_NOW for every program, a second at T_NOW - T_LAT only
 * for hm_int_ingress, so hop latency is exactly T_LAT. The process is
 * pinned to one CPU: the arrival stamp is per CPU. Tests register from a
 * constructor, like test_pint.c.
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
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_test.h"
#include "hopmark.h"
#include "int/int.h"
#include "int/int_maps.h"
#include "int/int_names.h"
#include "select/select.h"
#include "bpf/hopmark_int.skel.h"

static struct hopmark_int *skel, *skel_ing;
static struct ring_buffer *rb;
static struct int_record recs[16];
static int n_recs;

#define T_NOW		1700000000123456789ULL	/* CLOCK_TAI of the main copy */
#define T_LAT		54321ULL		/* hop latency, ns */
#define T_DSCP		0x17			/* the spec's examples' INT DSCP */
#define T_PORT		5555			/* INT UDP port */
#define T_RPT_PORT	6666			/* report port */
#define T_MTU		1500

static int rec_cb(void *ctx, void *data, size_t size)
{
	if (n_recs < (int)(sizeof(recs) / sizeof(recs[0])) && size >= sizeof(recs[0]))
		memcpy(&recs[n_recs++], data, sizeof(recs[0]));
	return 0;
}

static struct hopmark_int *load_copy(const char *pin, __u64 tai)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = pin);
	struct hopmark_int *k = hopmark_int__open_opts(&oo);

	if (!k)
		return NULL;
	k->rodata->hm_int_fixed_tai_ns = tai;
	if (hm_events_fit_pin(k->obj, pin) || hopmark_int__load(k)) {
		hopmark_int__destroy(k);
		return NULL;
	}
	return k;
}

static void clear_map(int fd)
{
	__u32 next;

	while (!bpf_map_get_next_key(fd, NULL, &next))
		bpf_map_delete_elem(fd, &next);
}

/* Load once (pinned to this CPU); reset the INT maps every test. */
static bool int_env(void)
{
	char pin[PATH_MAX];
	cpu_set_t set;

	if (!skel) {
		CPU_ZERO(&set);
		CPU_SET(sched_getcpu(), &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return hm_check(false, "cannot pin to one CPU: %s", strerror(errno));
		if (hm_pin_dir(pin, sizeof(pin)))
			return hm_check(false, "no pin directory");
		skel = load_copy(pin, T_NOW);
		skel_ing = load_copy(pin, T_NOW - T_LAT);
		if (!skel || !skel_ing)
			return hm_check(false, "hopmark_int.bpf.o did not load");
		rb = ring_buffer__new(bpf_map__fd(skel->maps.int_events), rec_cb, NULL, NULL);
		if (!rb)
			return hm_check(false, "cannot read int_events");
		/* Loading took time: fresh queue readings again (qdepth_max_age_ns). */
		hm_maps_defaults();
	}
	clear_map(bpf_map__fd(skel->maps.int_ifcfg));
	clear_map(bpf_map__fd(skel->maps.int_stats));
	clear_map(bpf_map__fd(skel->maps.int_txrate));
	{
		/* No arrival stamp left over from an earlier test. */
		int ncpu = libbpf_num_possible_cpus();
		struct int_arrival *z = calloc(ncpu, sizeof(*z));
		__u32 zero = 0;

		if (z)
			bpf_map_update_elem(bpf_map__fd(skel->maps.int_arrival), &zero, z, BPF_ANY);
		free(z);
	}
	ring_buffer__consume(rb);
	n_recs = 0;
	return true;
}

static void set_if_rate(int ifindex, __u32 flags, __u32 mtu, __u64 rate_bps)
{
	struct int_if_cfg ic = { .flags = flags, .mtu = mtu, .rate_bps = rate_bps };
	__u32 key = ifindex;

	bpf_map_update_elem(bpf_map__fd(skel->maps.int_ifcfg), &key, &ic, BPF_ANY);
}

static void set_if(int ifindex, __u32 flags, __u32 mtu)
{
	set_if_rate(ifindex, flags, mtu, 0);
}

/* A domain: @signal, MD unless @mode, bitmap @bm, RHC @max_hops. */
static void dom_init(struct int_domain_cfg *c, __u8 signal, __u8 mode, __u16 bm, __u8 max_hops)
{
	memset(c, 0, sizeof(*c));
	c->flags = INT_DOM_F_CONFIGURED;
	c->signal = signal;
	c->mode = mode;
	c->dscp = T_DSCP;
	c->dscp_mask = 0x3f;
	c->udp_port = T_PORT;
	c->bitmap = bm;
	c->hop_ml = int_bitmap_words(bm);
	c->max_hops = max_hops;
	c->ds_id = 0x0102;
	c->ds_inst = 0x0304;
	c->report_trunc = 128;
	c->rpt_port = T_RPT_PORT;
	c->sel.sample = HM_SAMPLE_ALL;
	c->sel.seed = 0x5eed;
}

static bool dom_set(const struct int_domain_cfg *c)
{
	__u32 zero = 0;

	return hm_check(!bpf_map_update_elem(bpf_map__fd(skel->maps.int_cfg), &zero, c, BPF_ANY),
			"write int_cfg");
}

static __u64 counter(int ifindex, enum int_counter c)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	struct int_link_stats *per;
	__u32 key = ifindex;
	__u64 sum = 0;

	per = calloc(ncpu, sizeof(*per));
	if (!per)
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(skel->maps.int_stats), &key, per))
		for (i = 0; i < ncpu; i++)
			sum += per[i].cnt[c];
	free(per);
	return sum;
}

/* Every counter of @ifindex is 0 but @c1 and @c2 (INT_CNT_MAX: none), which are @n1, @n2. */
static void check_counters(int ifindex, int c1, __u64 n1, int c2, __u64 n2)
{
	char what[64];
	int i;

	for (i = 0; i < INT_CNT_MAX; i++) {
		snprintf(what, sizeof(what), "counter %s on ifindex %d", int_counter_names[i],
			 ifindex);
		CHECK_EQ(what, i == c1 ? n1 : i == c2 ? n2 : 0, counter(ifindex, i));
	}
}

static void records(void)
{
	ring_buffer__consume(rb);
}

/* ---- frames, built from scratch ---- */

static const __u8 v4_src[4] = { 192, 0, 2, 1 }, v4_dst[4] = { 198, 51, 100, 7 };

/**
 * struct tp - a test packet
 * @family:	4 or 6
 * @proto:	6 or 17
 * @dscp:	DSCP the packet carries
 * @sport:	source port
 * @dport:	destination port
 * @plen:	payload octets
 * @topt:	TCP option octets (multiple of 4)
 * @udp0:	UDP checksum 0 (none)
 * @gso:	gso_size for the run (0: none)
 */
struct tp {
	int	family;
	int	proto;
	__u8	dscp;
	__u16	sport;
	__u16	dport;
	size_t	plen;
	size_t	topt;
	int	udp0;
	__u16	gso;
};

/* One's complement sum of big-endian words (RFC 1071), unfolded. */
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

/* Sum of the pseudo-header of the IP header at @ip for @proto and @len. */
static __u32 pseudo(const __u8 *ip, int family, __u8 proto, size_t len)
{
	return (family == 4 ? sum16(0, ip + 12, 8) : sum16(0, ip + 8, 32)) + proto + (__u32)len;
}

/* The TCP or UDP header of @t, dport @dport, length field @l4len, checksum 0. */
static size_t put_l4(__u8 *b, const struct tp *t, __u16 dport, size_t l4len)
{
	size_t i, n;

	hm_put_be16(b, t->sport);
	hm_put_be16(b + 2, dport);
	if (t->proto == HM_IPPROTO_UDP) {
		hm_put_be16(b + 4, l4len);
		hm_put_be16(b + 6, 0);
		return 8;
	}
	n = 20 + t->topt;
	hm_put_be32(b + 4, 0x11223344);
	hm_put_be32(b + 8, 0x55667788);
	hm_put_be16(b + 12, (__u16)(n / 4) << 12 | 0x018);
	hm_put_be16(b + 14, 29200);
	hm_put_be16(b + 16, 0);
	hm_put_be16(b + 18, 0);
	for (i = 20; i < n; i++)	/* NOPs, then an End of Option List */
		b[i] = i + 1 < n ? 1 : 0;
	return n;
}

/**
 * build() - the frame of @t carrying @intb (@intl octets) as §5.7.2 places it
 * @f:		output
 * @t:		packet
 * @dscp:	DSCP to write
 * @npt:	-1 none; 0/1: @intb after the TCP/UDP header (1: dport @port);
 *		2: a UDP header (source port @usport, dport @port, checksum 0)
 *		and @intb before the original TCP/UDP header
 * @intb:	INT data (shim, header, stack)
 * @intl:	its length
 * @port:	INT UDP port
 * @usport:	inserted UDP header's source port (NPT 2)
 *
 * Every checksum is computed over the whole header or segment.
 */
static void build(struct pkt *f, const struct tp *t, __u8 dscp, int npt, const __u8 *intb,
		  size_t intl, __u16 port, __u16 usport)
{
	size_t ipoff, l3, l4off, seg, i, h;
	__u8 *ip, proto = t->proto;
	__u16 c;

	pkt_init(f);
	pkt_eth(f, t->family == 4 ? 0x0800 : 0x86dd);
	ipoff = f->len;
	ip = f->b + ipoff;
	l3 = t->family == 4 ? 20 : 40;
	memset(ip, 0, l3);
	l4off = ipoff + l3;
	if (npt == 2) {
		/* Original segment after the UDP header and the INT data. */
		size_t inner = l4off + 8 + intl, ilen;

		h = put_l4(f->b + inner, t, t->dport, 0);
		for (i = 0; i < t->plen; i++)
			f->b[inner + h + i] = (__u8)(0x30 + i * 13);
		ilen = h + t->plen;
		if (t->proto == HM_IPPROTO_UDP)
			hm_put_be16(f->b + inner + 4, ilen);
		seg = 8 + intl + ilen;
		proto = HM_IPPROTO_UDP;
		hm_put_be16(f->b + l4off, usport);
		hm_put_be16(f->b + l4off + 2, port);
		hm_put_be16(f->b + l4off + 4, seg);
		hm_put_be16(f->b + l4off + 6, 0);
		memcpy(f->b + l4off + 8, intb, intl);
		f->len = l4off + seg;
		/* IP addresses first: the inner checksum's pseudo-header needs them. */
	} else {
		h = put_l4(f->b + l4off, t, npt == 1 ? port : t->dport, 0);
		if (npt >= 0)
			memcpy(f->b + l4off + h, intb, intl);
		else
			intl = 0;
		for (i = 0; i < t->plen; i++)
			f->b[l4off + h + intl + i] = (__u8)(0x30 + i * 13);
		seg = h + intl + t->plen;
		if (t->proto == HM_IPPROTO_UDP)
			hm_put_be16(f->b + l4off + 4, seg);
		f->len = l4off + seg;
	}
	if (t->family == 4) {
		ip[0] = 0x45;
		ip[1] = dscp << 2 | 1;			/* ECN ECT(1): must survive */
		hm_put_be16(ip + 2, l3 + seg);
		hm_put_be16(ip + 4, 0x1234);
		hm_put_be16(ip + 6, 0x4000);
		ip[8] = 63;
		ip[9] = proto;
		memcpy(ip + 12, v4_src, 4);
		memcpy(ip + 16, v4_dst, 4);
		c = pkt_csum16(ip, 20);
		hm_put_be16(ip + 10, c);
	} else {
		hm_put_be32(ip, 6U << 28 | (__u32)(dscp << 2 | 1) << 20 | HM_T_FLOW_LABEL);
		hm_put_be16(ip + 4, seg);
		ip[6] = proto;
		ip[7] = 63;
		memcpy(ip + 8, hm_addr_src, 16);
		memcpy(ip + 24, hm_addr_dst, 16);
	}
	if (npt == 2) {
		size_t inner = l4off + 8 + intl, ilen = seg - 8 - intl;
		size_t co = inner + (t->proto == HM_IPPROTO_TCP ? 16 : 6);

		if (!(t->proto == HM_IPPROTO_UDP && t->udp0)) {
			c = fold_not(sum16(pseudo(ip, t->family, t->proto, ilen), f->b + inner, ilen));
			if (!c && t->proto == HM_IPPROTO_UDP)
				c = 0xffff;
			hm_put_be16(f->b + co, c);
		}
	} else if (!(t->proto == HM_IPPROTO_UDP && t->udp0)) {
		size_t co = l4off + (t->proto == HM_IPPROTO_TCP ? 16 : 6);

		c = fold_not(sum16(pseudo(ip, t->family, t->proto, seg), f->b + l4off, seg));
		if (!c && t->proto == HM_IPPROTO_UDP)
			c = 0xffff;
		hm_put_be16(f->b + co, c);
	}
}

/* Whether every checksum of the frame @b verifies (IPv4 header, L4, inner L4 for NPT 2). */
static bool csums_ok(const char *what, const __u8 *b, size_t len, int family)
{
	const __u8 *ip = b + 14;
	size_t l3 = family == 4 ? (ip[0] & 15) * 4 : 40, seg;
	__u8 proto = family == 4 ? ip[9] : ip[6];
	const __u8 *l4 = ip + l3;
	bool ok = true;

	if (len < 14 + l3 + 8)
		return hm_check(false, "%s: frame too short for checksums", what);
	seg = family == 4 ? (size_t)(ip[2] << 8 | ip[3]) - l3 : (size_t)(ip[4] << 8 | ip[5]);
	if (14 + l3 + seg != len)
		return hm_check(false, "%s: IP length %zu, frame %zu", what, 14 + l3 + seg, len);
	if (family == 4)
		ok &= hm_check(pkt_csum16(ip, l3) == 0, "%s: IPv4 header checksum valid", what);
	if (proto == HM_IPPROTO_UDP && !(l4[6] | l4[7]))
		return ok;
	ok &= hm_check(fold_not(sum16(pseudo(ip, family, proto, seg), l4, seg)) == 0,
		       "%s: L4 checksum valid", what);
	return ok;
}

/* The TCP/UDP checksum field of the frame @b (no IPv4 options). */
static __u16 l4_csum(const __u8 *b, int family)
{
	const __u8 *ip = b + 14, *l4 = ip + (family == 4 ? 20 : 40);
	__u8 proto = family == 4 ? ip[9] : ip[6];

	return proto == HM_IPPROTO_TCP ? l4[16] << 8 | l4[17] : l4[6] << 8 | l4[7];
}

static void set_l4_csum(__u8 *b, int family, __u16 v)
{
	__u8 *ip = b + 14, *l4 = ip + (family == 4 ? 20 : 40);
	__u8 proto = family == 4 ? ip[9] : ip[6];

	hm_put_be16(proto == HM_IPPROTO_TCP ? l4 + 16 : l4 + 6, v);
}

/* ---- the metadata a hop writes, field by field (§5.8) ---- */

/**
 * struct hopv - what one node writes
 * @in_if:	ingress ifindex of the run (0: none)
 * @stamped:	an arrival stamp exists (hop latency T_LAT, ingress T_NOW - T_LAT)
 * @sink:	the sink's own values (tc ingress)
 */
struct hopv {
	int	in_if;
	int	stamped;
	int	sink;
};

static size_t put32(__u8 *b, __u32 v)
{
	hm_put_be32(b, v);
	return 4;
}

static size_t put64(__u8 *b, __u64 v)
{
	hm_put_be32(b, v >> 32);
	hm_put_be32(b + 4, (__u32)v);
	return 8;
}

/* Values of the maps (hm_maps_defaults()): interface IDs by ifindex. */
static __u16 if_id(int ifindex)
{
	return ifindex == env.if_in ? HM_T_IN_ID : ifindex == env.if_out ? HM_T_OUT_ID : 0xffff;
}

static __u32 if_wide(int ifindex)
{
	return ifindex == env.if_in ? HM_T_IN_ID_WIDE :
	       ifindex == env.if_out ? HM_T_OUT_ID_WIDE : 0xffffffff;
}

/*
 * The node's fields for bits 0-14 of @bm, in bit order; egress interface
 * env.if_out unless @h->sink. Returns the octets written.
 */
static size_t ref_fields(__u8 *b, __u16 bm, const struct hopv *h)
{
	__u64 now = T_NOW - env.tai_offset_ns;
	size_t n = 0;
	int bit;

	for (bit = 0; bit < 15; bit++) {
		if (!(bm & (0x8000 >> bit)))
			continue;
		switch (0x8000 >> bit) {
		case INT_BM_NODE_ID:
			n += put32(b + n, HM_T_NODE_ID);
			break;
		case INT_BM_L1_PORTS:
			n += put32(b + n, (__u32)if_id(h->in_if) << 16 |
					  (h->sink ? 0xffff : HM_T_OUT_ID));
			break;
		case INT_BM_HOP_LAT:
			n += put32(b + n, h->stamped && !h->sink ? T_LAT : INT_UNAVAIL32);
			break;
		case INT_BM_QUEUE:
			n += put32(b + n, h->sink ? INT_UNAVAIL32 : HM_T_OUT_QDEPTH);
			break;
		case INT_BM_INGRESS_TS:
			n += put64(b + n, h->sink ? now : h->stamped ? now - T_LAT : INT_UNAVAIL64);
			break;
		case INT_BM_EGRESS_TS:
			n += put64(b + n, h->sink ? INT_UNAVAIL64 : now);
			break;
		case INT_BM_L2_PORTS:
			n += put32(b + n, if_wide(h->in_if));
			n += put32(b + n, h->sink ? 0xffffffff : HM_T_OUT_ID_WIDE);
			break;
		case INT_BM_TX_UTIL:		/* no rate configured */
			n += put32(b + n, INT_UNAVAIL32);
			break;
		case INT_BM_BUFFER:
			n += put32(b + n, h->sink ? INT_UNAVAIL32 : HM_T_OUT_OCCUPANCY);
			break;
		default:			/* reserved bits 9-14 */
			n += put32(b + n, INT_UNAVAIL32);
			break;
		}
	}
	return n;
}

/* One hop's block of Hop ML words: fields, DS words all-ones, complement 0xffffffff. */
static size_t ref_hop(__u8 *b, __u16 bm, __u32 hop_ml, const struct hopv *h)
{
	size_t n = ref_fields(b, bm, h);

	while (n + (bm & INT_BM_CSUM_COMPL ? 4 : 0) < hop_ml * 4)
		n += put32(b + n, INT_UNAVAIL32);
	if (bm & INT_BM_CSUM_COMPL)
		n += put32(b + n, INT_UNAVAIL32);
	return n;
}

/* shim + MD header with @flags, @hop_ml, @rhc; @stack octets follow. */
static size_t ref_md(__u8 *b, int npt, __u8 npt_val_hi, __u8 npt_val_lo, __u32 flags,
		     __u32 hop_ml, __u32 rhc, __u16 bm, size_t stack)
{
	struct int_shim *sh = (struct int_shim *)b;

	sh->type_npt = int_shim_type_npt(INT_TYPE_MD, npt);
	sh->len = (INT_HDR_LEN + stack) / 4;
	sh->npt_hi = npt_val_hi;
	sh->npt_lo = npt_val_lo;
	hm_put_be32(b + 4, int_md_w0(flags, hop_ml, rhc));
	hm_put_be16(b + 8, bm);
	hm_put_be16(b + 10, 0x0102);
	hm_put_be16(b + 12, 0x0304);
	hm_put_be16(b + 14, 0);
	return INT_FIXED_LEN;
}

/* The shim's NPT-dependent octets for @t under @c. */
static int npt_of(const struct int_domain_cfg *c, const struct tp *t, __u8 *hi, __u8 *lo)
{
	if (c->signal == INT_SIG_DSCP) {
		*hi = 0;
		*lo = t->dscp << 2;
		return INT_NPT_DSCP;
	}
	if (t->proto == HM_IPPROTO_UDP) {
		*hi = t->dport >> 8;
		*lo = t->dport;
		return INT_NPT_UDP;
	}
	*hi = 0;
	*lo = t->proto;
	return INT_NPT_L4;
}

/* NPT 2's UDP source port: 0xc000 | 14 bits of the flow hash (Documentation/int.rst). */
static __u16 usport_of(const struct int_domain_cfg *c, const struct tp *t)
{
	struct hm_flow_key k = { .family = t->family, .proto = t->proto };

	k.sport = htons(t->sport);
	k.dport = htons(t->dport);
	if (t->family == 4) {
		memcpy(k.saddr, v4_src, 4);
		memcpy(k.daddr, v4_dst, 4);
	} else {
		memcpy(k.saddr, hm_addr_src, 16);
		memcpy(k.daddr, hm_addr_dst, 16);
	}
	return 0xc000 | (hm_flow_hash(&k, c->sel.seed) & 0x3fff);
}

/*
 * The frame of @t with INT-MD as domain @c makes it: shim + header
 * (@flags, RHC @rhc) and the stack @stack (@slen octets, most recent hop
 * first).
 */
static void build_md(struct pkt *f, const struct int_domain_cfg *c, const struct tp *t,
		     __u32 flags, __u32 rhc, const __u8 *stack, size_t slen)
{
	__u8 intb[1100], hi, lo;
	int npt = npt_of(c, t, &hi, &lo);
	size_t n = ref_md(intb, npt, hi, lo, flags, c->hop_ml, rhc, c->bitmap, slen);
	__u8 dscp = npt == INT_NPT_DSCP ? T_DSCP : t->dscp;

	memcpy(intb + n, stack, slen);
	build(f, t, dscp, npt, intb, n + slen, c->udp_port, usport_of(c, t));
}

static void build_plain(struct pkt *f, const struct tp *t)
{
	build(f, t, t->dscp, -1, NULL, 0, 0, 0);
}

/* ---- runs ---- */

static bool run(struct bpf_program *prog, int ifindex, int iif, const struct tp *t,
		const void *in, size_t len, struct hm_run *r)
{
	struct __sk_buff ctx = { .ifindex = ifindex, .ingress_ifindex = iif };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = in, .data_size_in = len,
		.data_out = r->out, .data_size_out = sizeof(r->out),
		.ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = 1);

	if (t && t->gso) {
		ctx.gso_size = t->gso;
		ctx.gso_segs = 2;
	}
	r->err = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);
	r->out_len = o.data_size_out;
	r->retval = o.retval;
	if (r->err) {
		hm_fail("bpf_prog_test_run_opts (%s, %zu bytes): %s", bpf_program__name(prog),
			len, strerror(errno));
		return false;
	}
	/*
	 * A packet passed on leaves the tc chain open (TC_ACT_UNSPEC), so that
	 * a later filter on the hook (another INT role, the operator's) still
	 * runs; only the sink's discard of a D packet is TC_ACT_SHOT, which
	 * the discard test checks itself.
	 */
	if ((int)r->retval != TC_ACT_UNSPEC && (int)r->retval != TC_ACT_SHOT)
		hm_fail("%s verdict: expected TC_ACT_UNSPEC (%d), observed %d",
			bpf_program__name(prog), TC_ACT_UNSPEC, (int)r->retval);
	return true;
}

#define SRC(t, in, r)	run(skel->progs.hm_int_source, env.if_out, 0, t, (in)->b, (in)->len, r)
#define XIT(t, in, r)	run(skel->progs.hm_int_transit, env.if_out, env.if_in, t, \
			    (in)->b, (in)->len, r)
#define SINK(t, in, r)	run(skel->progs.hm_int_sink, env.if_in, env.if_in, t, \
			    (in)->b, (in)->len, r)
/* The arrival stamp of @in on env.if_in (the ingress copy's clock). */
#define STAMP(in, r)	run(skel_ing->progs.hm_int_ingress, env.if_in, env.if_in, NULL, \
			    (in)->b, (in)->len, r)

static void pkt_from(struct pkt *p, const struct hm_run *r)
{
	pkt_init(p);
	memcpy(p->b, r->out, r->out_len);
	p->len = r->out_len;
}

/* ---- the chain: source -> 3 transits -> sink ---- */

/*
 * arg: bit 0 IPv6, bit 1 TCP, bit 2 UDP-port signalling, bit 3 UDP
 * checksum 0, bit 4 TCP options; bits 8-23 the bitmap; bits 24-31 Hop ML
 * (0: the bitmap's). With bitmap bit 15 the Checksum Complement keeps the
 * L4 checksum: the expected frame then has the original checksum, and the
 * complement words are those output, which the checksum checks verify.
 */
static void t_chain(const struct hm_test *ht)
{
	__u32 a = ht->arg;
	struct tp t = {
		.family = a & 1 ? 6 : 4, .proto = a & 2 ? HM_IPPROTO_TCP : HM_IPPROTO_UDP,
		.dscp = 0x0a, .sport = 40001, .dport = 7777, .plen = 37,
		.udp0 = !!(a & 8), .topt = a & 16 ? 12 : 0,
	};
	__u8 stack[1024], hop[128];
	struct int_domain_cfg c;
	struct pkt orig, cur, exp, st;
	struct hm_run r;
	bool compl;
	size_t slen = 0, hl;
	struct hopv src_h = { .in_if = 0 }, xit_h = { .in_if = env.if_in, .stamped = 1 };
	__u32 rhc = 8, k;
	char what[48];

	if (!int_env())
		return;
	dom_init(&c, a & 4 ? INT_SIG_UDP : INT_SIG_DSCP, INT_MODE_MD, (a >> 8) & 0xffff, 8);
	if (a >> 24)
		c.hop_ml = a >> 24;
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_SOURCE | INT_IF_F_TRANSIT, T_MTU);
	set_if(env.if_in, INT_IF_F_SINK, 0);
	build_plain(&orig, &t);
	if (!csums_ok("original", orig.b, orig.len, t.family))
		return;

	/* Source: its own metadata, RHC 7. */
	if (!SRC(&t, &orig, &r))
		return;
	hl = ref_hop(hop, c.bitmap, c.hop_ml, &src_h);
	memcpy(stack, hop, hl);
	slen = hl;
	if (c.hop_ml)
		rhc--;
	build_md(&exp, &c, &t, 0, rhc, stack, slen);
	compl = c.bitmap & INT_BM_CSUM_COMPL && !(a & 4 && t.proto == HM_IPPROTO_TCP);
	if (compl && r.out_len == exp.len) {
		/* The complement (last word of the block) is checked by the checksums. */
		size_t co = r.out_len - t.plen - 4;

		memcpy(exp.b + co, r.out + co, 4);
		set_l4_csum(exp.b, t.family, l4_csum(orig.b, t.family));
	}
	if (compl && !(t.proto == HM_IPPROTO_UDP && t.udp0))
		CHECK_EQ("L4 checksum kept by the complement", l4_csum(orig.b, t.family),
			 l4_csum(r.out, t.family));
	hm_check_bytes("frame after the source", exp.b, exp.len, r.out, r.out_len);
	csums_ok("after the source", r.out, r.out_len, t.family);
	pkt_from(&cur, &r);

	/* Three transits, each stamped on arrival. */
	for (k = 1; k <= 3; k++) {
		if (!STAMP(&cur, &r) || !XIT(&t, &cur, &r))
			return;
		hl = ref_hop(hop, c.bitmap, c.hop_ml, &xit_h);
		memmove(stack + hl, stack, slen);
		memcpy(stack, hop, hl);
		slen += hl;
		if (c.hop_ml)
			rhc--;
		build_md(&exp, &c, &t, 0, rhc, stack, slen);
		if (compl && r.out_len == exp.len) {
			/* Complements: this hop's and the earlier ones, as output. */
			size_t base = exp.len - t.plen - slen, j;

			for (j = 0; j + hl <= slen; j += hl)
				memcpy(exp.b + base + j + hl - 4, r.out + base + j + hl - 4, 4);
			set_l4_csum(exp.b, t.family, l4_csum(orig.b, t.family));
		}
		if (compl && !(t.proto == HM_IPPROTO_UDP && t.udp0))
			CHECK_EQ("L4 checksum kept by the complement", l4_csum(orig.b, t.family),
				 l4_csum(r.out, t.family));
		snprintf(what, sizeof(what), "frame after transit %u", k);
		hm_check_bytes(what, exp.b, exp.len, r.out, r.out_len);
		snprintf(what, sizeof(what), "after transit %u", k);
		csums_ok(what, r.out, r.out_len, t.family);
		pkt_from(&cur, &r);
	}
	pkt_from(&st, &r);

	/* Sink: the original, exactly; one record with the stack. */
	if (!SINK(&t, &cur, &r))
		return;
	hm_check_bytes("frame after the sink (the original)", orig.b, orig.len, r.out, r.out_len);
	CHECK_EQ("sink verdict TC_ACT_UNSPEC", (__u32)TC_ACT_UNSPEC, r.retval);
	records();
	if (!CHECK_EQ("records", 1, n_recs))
		return;
	CHECK_EQ("record kind", INT_REC_SINK, recs[0].kind);
	CHECK_EQ("record flags", INT_RPT_F_F, recs[0].flags);
	CHECK_EQ("record family", t.family, recs[0].family);
	CHECK_EQ("record rep_md_bits", c.bitmap & 0x7f80, recs[0].rep_md_bits);
	CHECK_EQ("record orig_len", st.len - 14, recs[0].orig_len);
	CHECK_EQ("record pkt_len", st.len - 14 < 128 ? st.len - 14 : 128, recs[0].pkt_len);
	hm_check_bytes("record pkt", st.b + 14, recs[0].pkt_len, recs[0].pkt, recs[0].pkt_len);
	{
		struct hopv sink_h = { .in_if = env.if_in, .sink = 1 };
		__u8 md[128];
		size_t ml = ref_fields(md, c.bitmap & 0x7f80, &sink_h);

		CHECK_EQ("record md_len", ml, recs[0].md_len);
		hm_check_bytes("record md", md, ml, recs[0].md, recs[0].md_len);
	}
	CHECK_EQ("record node_id", HM_T_NODE_ID, recs[0].node_id);
	CHECK_EQ("record ts_ns", T_NOW - env.tai_offset_ns, recs[0].ts_ns);
	check_counters(env.if_out, INT_CNT_SRC_OK, 1, INT_CNT_TRANSIT_OK, 3);
	check_counters(env.if_in, INT_CNT_SINK_OK, 1, INT_CNT_MAX, 0);
}

/* ---- single steps ---- */

static const struct tp t_udp4 = {
	.family = 4, .proto = HM_IPPROTO_UDP, .dscp = 0x0a, .sport = 40001, .dport = 7777,
	.plen = 37,
};

/*
 * A transit input: @t carrying INT-MD with @words of stack after the
 * header (filled with a pattern), RHC @rhc, Hop ML @hop_ml, bitmap @bm.
 */
static void build_in(struct pkt *f, const struct int_domain_cfg *c, const struct tp *t,
		     __u32 flags, __u32 rhc, size_t slen)
{
	__u8 stack[1100];
	size_t i;

	for (i = 0; i < slen; i++)
		stack[i] = (__u8)(0xa0 + i);
	build_md(f, c, t, flags, rhc, stack, slen);
}

/* RHC 0 at a transit: E set, nothing added, RHC unchanged; RHC 1: pushed, RHC 0. */
static void t_rhc(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in, exp;
	struct hm_run r;
	__u8 stack[256];
	struct hopv h = { .in_if = env.if_in };
	size_t hl;

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_MD, 0x9000, 8);
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_TRANSIT, T_MTU);
	build_in(&in, &c, &t_udp4, 0, ht->arg, 8);
	if (!XIT(&t_udp4, &in, &r))
		return;
	if (ht->arg == 0) {
		build_in(&exp, &c, &t_udp4, INT_MD_E, 0, 8);
		hm_check_bytes("frame: E set, nothing added", exp.b, exp.len, r.out, r.out_len);
		check_counters(env.if_out, INT_CNT_TRANSIT_E, 1, INT_CNT_MAX, 0);
	} else {
		hl = ref_hop(stack, c.bitmap, c.hop_ml, &h);
		for (size_t i = 0; i < 8; i++)
			stack[hl + i] = (__u8)(0xa0 + i);
		build_md(&exp, &c, &t_udp4, 0, ht->arg - 1, stack, hl + 8);
		hm_check_bytes("frame: pushed, RHC decremented", exp.b, exp.len, r.out, r.out_len);
		check_counters(env.if_out, INT_CNT_TRANSIT_OK, 1, INT_CNT_MAX, 0);
	}
	csums_ok("after the transit", r.out, r.out_len, 4);
}

/* MTU at a transit: a packet at MTU - 4 with Hop ML 2 gets M, nothing added. */
static void t_transit_mtu(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in, exp;
	struct hm_run r;
	struct tp t = t_udp4;

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_MD, 0x9000, 8);
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_TRANSIT, 200);
	/* IP length: 20 + 8 + 16 + 8 stack + payload = 200 - 4 (arg 0) or 200 - 8 (arg 1). */
	t.plen = 200 - ht->arg - 20 - 8 - 16 - 8;
	build_in(&in, &c, &t, 0, 5, 8);
	if (!XIT(&t, &in, &r))
		return;
	if (ht->arg == 4) {
		build_in(&exp, &c, &t, INT_MD_M, 5, 8);
		hm_check_bytes("frame: M set, nothing added", exp.b, exp.len, r.out, r.out_len);
		check_counters(env.if_out, INT_CNT_TRANSIT_M, 1, INT_CNT_MAX, 0);
	} else {
		CHECK_EQ("frame grows by Hop ML * 4 to the MTU exactly", in.len + 8, r.out_len);
		CHECK_EQ("IP length", 200, r.out[16] << 8 | r.out[17]);
		check_counters(env.if_out, INT_CNT_TRANSIT_OK, 1, INT_CNT_MAX, 0);
	}
	csums_ok("after the transit", r.out, r.out_len, 4);
}

/* MTU at the source (§5.3): fixed headers past it -> no INT; metadata past it -> M. */
static void t_source_mtu(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in, exp;
	struct hm_run r;
	struct tp t = t_udp4;

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_MD, 0x9000, 8);
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_SOURCE, 300);
	t.plen = 300 - ht->arg - 28;	/* IP length MTU - arg */
	build_plain(&in, &t);
	if (!SRC(&t, &in, &r))
		return;
	if (ht->arg < 16) {
		hm_check_bytes("frame unchanged", in.b, in.len, r.out, r.out_len);
		check_counters(env.if_out, INT_CNT_SRC_MTU_NO_INT, 1, INT_CNT_MAX, 0);
	} else if (ht->arg < 24) {
		build_md(&exp, &c, &t, INT_MD_M, 8, NULL, 0);
		hm_check_bytes("frame: M set, no metadata", exp.b, exp.len, r.out, r.out_len);
		check_counters(env.if_out, INT_CNT_SRC_OK, 1, INT_CNT_SRC_MTU_M, 1);
	} else {
		struct hopv h = { .in_if = 0 };
		__u8 hop[64];
		size_t hl = ref_hop(hop, c.bitmap, c.hop_ml, &h);

		build_md(&exp, &c, &t, 0, 7, hop, hl);
		hm_check_bytes("frame with metadata", exp.b, exp.len, r.out, r.out_len);
		check_counters(env.if_out, INT_CNT_SRC_OK, 1, INT_CNT_MAX, 0);
	}
	csums_ok("after the source", r.out, r.out_len, 4);
}

/*
 * A DSCP holding the INT bits without being INT (0x1f, 0x37 with INT
 * 0x17/0x3f, INT §5.7.2 issue #50): transit and sink leave it; the source
 * instruments it and the sink gives the DSCP back.
 */
static void t_dscp_not_int(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in, out;
	struct hm_run r;
	struct tp t = t_udp4;
	__u8 intb[16] = { 0x10, 0x03, 0, 0, 0x20, 0, 0x02, 0x05, 0x90, 0 };

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_MD, 0x9000, 8);
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_TRANSIT, T_MTU);
	set_if(env.if_in, INT_IF_F_SINK, 0);
	t.dscp = ht->arg;
	/* Bytes that would parse as a shim and header after the UDP header. */
	build(&in, &t, t.dscp, 0, intb, sizeof(intb), 0, 0);
	if (!XIT(&t, &in, &r))
		return;
	hm_check_bytes("transit: unchanged", in.b, in.len, r.out, r.out_len);
	if (!SINK(&t, &in, &r))
		return;
	hm_check_bytes("sink: unchanged", in.b, in.len, r.out, r.out_len);
	check_counters(env.if_out, INT_CNT_MAX, 0, INT_CNT_MAX, 0);
	check_counters(env.if_in, INT_CNT_MAX, 0, INT_CNT_MAX, 0);
	records();
	CHECK_EQ("records", 0, n_recs);

	/* The source marks it, keeping DSCP 0x1f/0x37 in the shim; the sink restores it. */
	set_if(env.if_out, INT_IF_F_SOURCE, T_MTU);
	build_plain(&in, &t);
	if (!SRC(&t, &in, &r))
		return;
	CHECK_EQ("shim original DSCP", t.dscp << 2, r.out[14 + 20 + 8 + 3]);
	CHECK_EQ("INT DSCP", T_DSCP, r.out[15] >> 2);
	pkt_from(&out, &r);
	if (!SINK(&t, &out, &r))
		return;
	hm_check_bytes("sink: the original", in.b, in.len, r.out, r.out_len);
}

/* Malformed INT: forwarded unchanged and counted, at transit and sink. */
enum { M_TRUNC_SHIM, M_TRUNC_HDR, M_LEN_BEYOND, M_HOPML_LOW, M_VER, M_TYPE, M_LEN_SHORT, M_NPT };

static void t_malformed(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in;
	struct hm_run r;
	__u8 intb[64];
	size_t n;

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_MD, 0x9000, 8);
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_TRANSIT, T_MTU);
	set_if(env.if_in, INT_IF_F_SINK, 0);
	n = ref_md(intb, INT_NPT_DSCP, 0, 0, 0, 2, 6, 0x9000, 8);
	memset(intb + n, 0xa5, 8);
	n += 8;
	struct tp t = t_udp4;

	t.plen = 0;
	switch (ht->arg) {
	case M_TRUNC_SHIM:	/* 3 octets after the UDP header */
		n = 3;
		break;
	case M_TRUNC_HDR:	/* shim and 8 of the 12 header octets */
		n = 12;
		break;
	case M_LEN_BEYOND:	/* Length 200 words, 28 octets there */
		intb[1] = 200;
		t.plen = 4;
		break;
	case M_HOPML_LOW:	/* Hop ML 1 with bitmap 0x9000 (2 words) */
		hm_put_be32(intb + 4, int_md_w0(0, 1, 6));
		break;
	case M_VER:		/* Ver 1 */
		intb[4] = (intb[4] & 0x0f) | 0x10;
		break;
	case M_TYPE:		/* Type 2 (Destination: no format in v2.1) */
		intb[0] = int_shim_type_npt(INT_TYPE_DST, 0);
		break;
	case M_LEN_SHORT:	/* Length 2: shorter than the 12-octet header */
		intb[1] = 2;
		break;
	case M_NPT:		/* NPT 1 under DSCP signalling */
		intb[0] = int_shim_type_npt(INT_TYPE_MD, INT_NPT_UDP);
		break;
	}
	build(&in, &t, T_DSCP, 0, intb, n, 0, 0);
	if (!XIT(&t, &in, &r))
		return;
	hm_check_bytes("transit: unchanged", in.b, in.len, r.out, r.out_len);
	if (!SINK(&t, &in, &r))
		return;
	hm_check_bytes("sink: unchanged", in.b, in.len, r.out, r.out_len);
	CHECK_EQ("sink verdict TC_ACT_UNSPEC", (__u32)TC_ACT_UNSPEC, r.retval);
	check_counters(env.if_out, INT_CNT_MALFORMED, 1, INT_CNT_MAX, 0);
	check_counters(env.if_in, INT_CNT_MALFORMED, 1, INT_CNT_MAX, 0);
	records();
	CHECK_EQ("records", 0, n_recs);
}

/* A stack at the shim's 255-word limit: nothing added; just below: pushed. */
static void t_full(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in;
	struct hm_run r;
	struct tp t = t_udp4;
	size_t slen = (ht->arg - 3) * 4;	/* shim Length ht->arg */

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_MD, 0x9000, 200);
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_TRANSIT, 9000);
	t.plen = 4;
	build_in(&in, &c, &t, 0, 100, slen);
	CHECK_EQ("input shim Length", ht->arg, in.b[14 + 28 + 1]);
	if (!XIT(&t, &in, &r))
		return;
	if (ht->arg + 2 > 255) {
		hm_check_bytes("frame unchanged", in.b, in.len, r.out, r.out_len);
		check_counters(env.if_out, INT_CNT_TRANSIT_FULL, 1, INT_CNT_MAX, 0);
	} else {
		CHECK_EQ("shim Length after the push", ht->arg + 2, r.out[14 + 28 + 1]);
		CHECK_EQ("frame grew by 8", in.len + 8, r.out_len);
		check_counters(env.if_out, INT_CNT_TRANSIT_OK, 1, INT_CNT_MAX, 0);
		CHECK_EQ("RHC", 99, r.out[14 + 28 + 7]);
	}
	csums_ok("after the transit", r.out, r.out_len, 4);
}

/* INT-MX: source inserts shim + MX header and reports; transit reports; sink reports and removes. */
static void t_mx(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt orig, cur, exp;
	struct hm_run r;
	struct tp t = t_udp4;
	__u8 intb[16], md[64];
	struct hopv hs = { .in_if = 0 }, hx = { .in_if = env.if_in, .stamped = 1 };
	struct hopv hk = { .in_if = env.if_in, .sink = 1 };
	size_t ml;
	__u16 rep;

	if (!int_env())
		return;
	t.family = ht->arg ? 6 : 4;
	t.proto = ht->arg ? HM_IPPROTO_TCP : HM_IPPROTO_UDP;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_MX, 0xd400, 8);	/* node, L1, queue, egress ts */
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_SOURCE | INT_IF_F_TRANSIT, T_MTU);
	set_if(env.if_in, INT_IF_F_SINK, 0);
	build_plain(&orig, &t);
	if (!SRC(&t, &orig, &r))
		return;
	intb[0] = int_shim_type_npt(INT_TYPE_MX, INT_NPT_DSCP);
	intb[1] = 3;
	intb[2] = 0;
	intb[3] = t.dscp << 2;
	hm_put_be32(intb + 4, (__u32)INT_VERSION << INT_MD_VER_SHIFT);
	hm_put_be16(intb + 8, 0xd400);
	hm_put_be16(intb + 10, 0x0102);
	hm_put_be16(intb + 12, 0x0304);
	hm_put_be16(intb + 14, 0);
	build(&exp, &t, T_DSCP, 0, intb, 16, 0, 0);
	hm_check_bytes("frame after the MX source", exp.b, exp.len, r.out, r.out_len);
	csums_ok("after the MX source", r.out, r.out_len, t.family);
	pkt_from(&cur, &r);
	if (!STAMP(&cur, &r) || !XIT(&t, &cur, &r))
		return;
	hm_check_bytes("MX transit: unchanged", cur.b, cur.len, r.out, r.out_len);
	if (!SINK(&t, &cur, &r))
		return;
	hm_check_bytes("MX sink: the original", orig.b, orig.len, r.out, r.out_len);
	records();
	if (!CHECK_EQ("records: source, transit, sink", 3, n_recs))
		return;
	/* Bits 1-8 only; the source has no ingress interface: L1 still has the egress half. */
	rep = 0x5400;
	ml = ref_fields(md, rep, &hs);
	CHECK_EQ("source record kind", INT_REC_MX, recs[0].kind);
	CHECK_EQ("source rep_md_bits", rep, recs[0].rep_md_bits);
	hm_check_bytes("source record md", md, ml, recs[0].md, recs[0].md_len);
	ml = ref_fields(md, rep, &hx);
	CHECK_EQ("transit record kind", INT_REC_MX, recs[1].kind);
	CHECK_EQ("transit rep_md_bits", rep, recs[1].rep_md_bits);
	hm_check_bytes("transit record md", md, ml, recs[1].md, recs[1].md_len);
	/* The sink knows no queue and no egress time: those bits are cleared. */
	rep = 0x4000;
	ml = ref_fields(md, rep, &hk);
	CHECK_EQ("sink record kind", INT_REC_MX, recs[2].kind);
	CHECK_EQ("sink rep_md_bits", rep, recs[2].rep_md_bits);
	hm_check_bytes("sink record md", md, ml, recs[2].md, recs[2].md_len);
	check_counters(env.if_out, INT_CNT_SRC_OK, 1, INT_CNT_MX_REPORT, 2);
	check_counters(env.if_in, INT_CNT_SINK_OK, 1, INT_CNT_MX_REPORT, 1);
}

/* INT-XD: a watched packet gives a record and is not changed; an unwatched one neither. */
static void t_xd(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in;
	struct hm_run r;
	struct tp t = t_udp4;
	struct hopv hx = { .in_if = env.if_in, .stamped = 1 };
	__u8 md[64];
	size_t ml;

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_XD, 0xfc00, 8);
	c.sel.nr_rules = 1;
	c.sel.rules[0].family = 4;
	c.sel.rules[0].proto = HM_IPPROTO_UDP;
	c.sel.rules[0].dport = htons(ht->arg ? 7777 : 7778);
	c.sel.rules[0].dport_mask = 0xffff;
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_XD, T_MTU);
	build_plain(&in, &t);
	if (!STAMP(&in, &r) || !XIT(&t, &in, &r))
		return;
	hm_check_bytes("XD: unchanged", in.b, in.len, r.out, r.out_len);
	records();
	if (!ht->arg) {
		CHECK_EQ("records (not watched)", 0, n_recs);
		check_counters(env.if_out, INT_CNT_MAX, 0, INT_CNT_MAX, 0);
		return;
	}
	if (!CHECK_EQ("records", 1, n_recs))
		return;
	ml = ref_fields(md, 0x7c00, &hx);
	CHECK_EQ("record kind", INT_REC_XD, recs[0].kind);
	CHECK_EQ("record flags", INT_RPT_F_F, recs[0].flags);
	CHECK_EQ("record rep_md_bits", 0x7c00, recs[0].rep_md_bits);
	hm_check_bytes("record md", md, ml, recs[0].md, recs[0].md_len);
	CHECK_EQ("record pkt_len", in.len - 14, recs[0].pkt_len);
	hm_check_bytes("record pkt", in.b + 14, in.len - 14, recs[0].pkt, recs[0].pkt_len);
	check_counters(env.if_out, INT_CNT_XD_REPORT, 1, INT_CNT_MAX, 0);
}

/*
 * INT-XD at the end host: the sink role reports a watched packet without
 * INT with its own metadata (INT_REC_XD) and leaves it alone. @ht->arg:
 * XD_SINK_WATCHED (INT-XD, watched), XD_SINK_UNWATCHED (INT-XD, another
 * port), XD_SINK_MD (the same watched packet in INT-MD: no INT, no record).
 */
enum { XD_SINK_WATCHED, XD_SINK_UNWATCHED, XD_SINK_MD };

static void t_xd_sink(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in;
	struct hm_run r;
	struct tp t = t_udp4;
	struct hopv hk = { .in_if = env.if_in, .sink = 1 };
	__u8 md[64];
	size_t ml;

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, ht->arg == XD_SINK_MD ? INT_MODE_MD : INT_MODE_XD, 0xfc00, 8);
	c.sel.nr_rules = 1;
	c.sel.rules[0].family = 4;
	c.sel.rules[0].proto = HM_IPPROTO_UDP;
	c.sel.rules[0].dport = htons(ht->arg == XD_SINK_UNWATCHED ? 7778 : 7777);
	c.sel.rules[0].dport_mask = 0xffff;
	if (!dom_set(&c))
		return;
	set_if(env.if_in, INT_IF_F_SINK, 0);
	build_plain(&in, &t);
	if (!SINK(&t, &in, &r))
		return;
	CHECK_EQ("sink verdict TC_ACT_UNSPEC", (__u32)TC_ACT_UNSPEC, r.retval);
	hm_check_bytes("XD sink: unchanged", in.b, in.len, r.out, r.out_len);
	records();
	if (ht->arg != XD_SINK_WATCHED) {
		CHECK_EQ("records (no XD report)", 0, n_recs);
		check_counters(env.if_in, INT_CNT_MAX, 0, INT_CNT_MAX, 0);
		return;
	}
	if (!CHECK_EQ("records", 1, n_recs))
		return;
	/* The sink knows its ingress half and time, no egress, queue or latency: cleared. */
	ml = ref_fields(md, 0x4800, &hk);
	CHECK_EQ("record kind", INT_REC_XD, recs[0].kind);
	CHECK_EQ("record flags", INT_RPT_F_F, recs[0].flags);
	CHECK_EQ("record rep_md_bits", 0x4800, recs[0].rep_md_bits);
	hm_check_bytes("record md", md, ml, recs[0].md, recs[0].md_len);
	CHECK_EQ("record pkt_len", in.len - 14, recs[0].pkt_len);
	hm_check_bytes("record pkt", in.b + 14, in.len - 14, recs[0].pkt, recs[0].pkt_len);
	check_counters(env.if_in, INT_CNT_XD_REPORT, 1, INT_CNT_MAX, 0);
}

/* Congested queue: occupancy 4242 > threshold gives a Q record; 4242 <= threshold none. */
static void t_queue(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in;
	struct hm_run r;
	struct tp t = t_udp4;
	struct hopv hx = { .in_if = env.if_in, .stamped = 1 };
	__u8 md[64];
	size_t ml;

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_MD, 0x8000, 8);
	c.q_threshold = ht->arg;
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_TRANSIT, T_MTU);
	build_in(&in, &c, &t, 0, 5, 4);
	if (!STAMP(&in, &r) || !XIT(&t, &in, &r))
		return;
	records();
	if (ht->arg >= HM_T_OUT_QDEPTH) {
		CHECK_EQ("records", 0, n_recs);
		check_counters(env.if_out, INT_CNT_TRANSIT_OK, 1, INT_CNT_MAX, 0);
		return;
	}
	if (!CHECK_EQ("records", 1, n_recs))
		return;
	ml = ref_fields(md, INT_BM_QUEUE, &hx);
	CHECK_EQ("record kind", INT_REC_QUEUE, recs[0].kind);
	CHECK_EQ("record flags", INT_RPT_F_Q, recs[0].flags);
	CHECK_EQ("record rep_md_bits", INT_BM_QUEUE, recs[0].rep_md_bits);
	hm_check_bytes("record md", md, ml, recs[0].md, recs[0].md_len);
	check_counters(env.if_out, INT_CNT_TRANSIT_OK, 1, INT_CNT_QUEUE_REPORT, 1);
}

/* The source leaves alone, counted: reports, unwatched, unsampled, GSO, partial checksums, marked. */
enum { S_REPORT, S_NOT_WATCHED, S_NOT_SAMPLED, S_GSO, S_PARTIAL, S_HAS_INT, S_PARTIAL_NPT2,
       S_PROTO };

static void t_source_skip(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in;
	struct hm_run r;
	struct tp t = t_udp4;
	int cnt = INT_CNT_MAX;

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_MD, 0x9000, 8);
	switch (ht->arg) {
	case S_REPORT:
		t.dport = T_RPT_PORT;
		cnt = INT_CNT_SRC_REPORT;
		break;
	case S_NOT_WATCHED:
		c.sel.nr_rules = 1;
		c.sel.rules[0].family = 6;
		cnt = INT_CNT_SRC_NOT_WATCHED;
		break;
	case S_NOT_SAMPLED:
		/* 1:N by flow hash, N chosen so that this flow's hash is not 0 mod N. */
		c.sel.sample = HM_SAMPLE_FLOW;
		{
			struct hm_flow_key k = { .family = 4, .proto = 17 };

			k.sport = htons(t.sport);
			k.dport = htons(t.dport);
			memcpy(k.saddr, v4_src, 4);
			memcpy(k.daddr, v4_dst, 4);
			for (c.sel.sample_n = 2; hm_flow_hash(&k, c.sel.seed) % c.sel.sample_n == 0;
			     c.sel.sample_n++)
				;
		}
		cnt = INT_CNT_SRC_NOT_SAMPLED;
		break;
	case S_GSO:
		t.gso = 1400;
		cnt = INT_CNT_SRC_GSO;
		break;
	case S_PARTIAL:
	case S_PARTIAL_NPT2:
		t.proto = HM_IPPROTO_TCP;
		if (ht->arg == S_PARTIAL_NPT2)
			c.signal = INT_SIG_UDP;
		cnt = ht->arg == S_PARTIAL ? INT_CNT_CSUM_PARTIAL : INT_CNT_SRC_OK;
		break;
	case S_HAS_INT:
		t.dscp = T_DSCP;
		cnt = INT_CNT_SRC_HAS_INT;
		break;
	case S_PROTO:
		t.family = 6;
		cnt = INT_CNT_SRC_PROTO;
		break;
	}
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_SOURCE, T_MTU);
	build_plain(&in, &t);
	if (ht->arg == S_PARTIAL || ht->arg == S_PARTIAL_NPT2) {
		/* As the stack leaves it for offload: the folded pseudo-header sum. */
		__u8 *ip = in.b + 14, *l4 = ip + 20;
		__u32 s = pseudo(ip, 4, 6, in.len - 34);
		__u16 v = ~fold_not(s) & 0xffff;

		hm_put_be16(l4 + 16, v);
	}
	if (ht->arg == S_PROTO)
		in.b[14 + 6] = HM_NH_ICMP6;	/* IPv6, ICMPv6 */
	if (!SRC(&t, &in, &r))
		return;
	if (ht->arg == S_PARTIAL_NPT2) {
		/* NPT 2 leaves the TCP header (and csum_start) where it was. */
		CHECK_EQ("IP protocol UDP", 17, r.out[14 + 9]);
		CHECK_EQ("grew by UDP + shim + header + 2 words", in.len + 8 + 16 + 8, r.out_len);
		hm_check_bytes("TCP segment unchanged after the INT data", in.b + 34, in.len - 34,
			       r.out + 34 + 8 + 24, r.out_len - 34 - 8 - 24);
	} else {
		hm_check_bytes("frame unchanged", in.b, in.len, r.out, r.out_len);
	}
	check_counters(env.if_out, cnt, 1, INT_CNT_MAX, 0);
}

/* D (synthetic rule): the sink reports, then drops; counted. */
static void t_discard(const struct hm_test *ht)
{
	struct int_domain_cfg c;
	struct pkt in, cur;
	struct hm_run r;
	struct tp t = t_udp4;

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_UDP, INT_MODE_MD, 0x8000, 8);
	c.sel.nr_rules = 1;
	c.sel.rules[0].family = 4;
	c.sel.rules[0].flags = HM_SEL_F_SYNTHETIC;
	if (!dom_set(&c))
		return;
	set_if(env.if_out, INT_IF_F_SOURCE, T_MTU);
	set_if(env.if_in, INT_IF_F_SINK, 0);
	build_plain(&in, &t);
	if (!SRC(&t, &in, &r))
		return;
	CHECK_EQ("D set", 1, (r.out[14 + 28 + 4] >> 3) & 1);
	pkt_from(&cur, &r);
	if (!SINK(&t, &cur, &r))
		return;
	CHECK_EQ("sink verdict TC_ACT_SHOT", TC_ACT_SHOT, r.retval);
	records();
	CHECK_EQ("records", 1, n_recs);
	check_counters(env.if_in, INT_CNT_SINK_DISCARD, 1, INT_CNT_MAX, 0);
}

/*
 * TX utilisation (bit 7): all-ones before a complete window; after one,
 * the window's bytes * 8 in units of 0.01 % of the rate, the window's
 * length bounded by CLOCK_MONOTONIC reads around the two runs.
 */
static void t_tx_util(const struct hm_test *ht)
{
	const __u64 rate = 1000000;	/* 1 Mb/s */
	struct int_domain_cfg c;
	struct pkt in;
	struct hm_run r;
	struct tp t = t_udp4;
	__u64 a0, a1, b0, b1, lo, hi, got;
	const size_t at = 14 + 28 + 16;	/* the only field of bitmap 0x0100 */

	if (!int_env())
		return;
	dom_init(&c, INT_SIG_DSCP, INT_MODE_MD, INT_BM_TX_UTIL, 8);
	if (!dom_set(&c))
		return;
	set_if_rate(env.if_out, INT_IF_F_SOURCE, T_MTU, rate);
	build_plain(&in, &t);
	a0 = hm_now_ns(CLOCK_MONOTONIC);
	if (!SRC(&t, &in, &r))
		return;
	a1 = hm_now_ns(CLOCK_MONOTONIC);
	CHECK_EQ("first packet: no complete window, all-ones", INT_UNAVAIL32,
		 (__u32)r.out[at] << 24 | r.out[at + 1] << 16 | r.out[at + 2] << 8 | r.out[at + 3]);
	usleep(20000);
	b0 = hm_now_ns(CLOCK_MONOTONIC);
	if (!SRC(&t, &in, &r))
		return;
	b1 = hm_now_ns(CLOCK_MONOTONIC);
	got = (__u32)r.out[at] << 24 | r.out[at + 1] << 16 | r.out[at + 2] << 8 | r.out[at + 3];
	/* The window ran from the first run to the second and held the first frame. */
	hi = in.len * 8 * 10000 / (rate * ((b0 - a1) / 1000) / 1000000);
	lo = in.len * 8 * 10000 / (rate * ((b1 - a0) / 1000) / 1000000);
	hm_check(got >= lo && got <= hi, "utilisation %llu in [%llu, %llu] (0.01 %% units)",
		 (unsigned long long)got, (unsigned long long)lo, (unsigned long long)hi);
}

/* Hop ML 31 (bitmap 0xffff: 19 words + 12 DS words) through source, transit and sink. */
static void t_hopml31(const struct hm_test *ht)
{
	struct hm_test x = *ht;

	x.arg = 31U << 24 | 0xffffU << 8 | ht->arg;
	t_chain(&x);
}

/* t_chain()'s argument: bitmap @bm, flags @f (IPv6, TCP, UDP port, UDP checksum 0, options). */
#define CH(bm, f)	((__u32)(bm) << 8 | (f))

__attribute__((constructor)) static void register_int_tests(void)
{
	static const struct { __u32 arg; const char *name; } chains[] = {
		{ CH(0x9000, 0x00), "ipv4_udp_dscp_bitmap_9000" },
		{ CH(0x9000, 0x02), "ipv4_tcp_dscp_bitmap_9000" },
		{ CH(0x9000, 0x04), "ipv4_udp_port_npt1_bitmap_9000" },
		{ CH(0x9000, 0x06), "ipv4_tcp_port_npt2_bitmap_9000" },
		{ CH(0x9000, 0x01), "ipv6_udp_dscp_bitmap_9000" },
		{ CH(0x9000, 0x03), "ipv6_tcp_dscp_bitmap_9000" },
		{ CH(0x9000, 0x05), "ipv6_udp_port_npt1_bitmap_9000" },
		{ CH(0x9000, 0x07), "ipv6_tcp_port_npt2_bitmap_9000" },
		{ CH(0xff80, 0x00), "ipv4_udp_dscp_bitmap_ff80" },
		{ CH(0xfc00, 0x13), "ipv6_tcp_options_dscp_bitmap_fc00" },
		{ CH(0x8040, 0x00), "ipv4_udp_dscp_bitmap_8040_reserved_bit_9" },
		{ CH(0x807e, 0x01), "ipv6_udp_dscp_reserved_bits_9_to_14" },
		{ CH(0x0000, 0x00), "ipv4_udp_dscp_hop_ml_0" },
		{ CH(0x9000, 0x08), "ipv4_udp_checksum_0_dscp" },
		{ CH(0x9000, 0x0c), "ipv4_udp_checksum_0_npt1" },
		{ CH(0x9001, 0x00), "ipv4_udp_dscp_checksum_complement" },
		{ CH(0x9001, 0x03), "ipv6_tcp_dscp_checksum_complement" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(chains) / sizeof(chains[0]); i++)
		hm_add_test(t_chain, chains[i].arg,
			    "int_chain_%s_source_3_transits_sink_gives_original", chains[i].name);
	hm_add_test(t_hopml31, 0, "int_chain_ipv4_udp_hop_ml_31_bitmap_ffff");
	hm_add_test(t_hopml31, 3, "int_chain_ipv6_tcp_hop_ml_31_bitmap_ffff");
	hm_add_test(t_rhc, 0, "int_transit_rhc_0_sets_e_adds_nothing");
	hm_add_test(t_rhc, 1, "int_transit_rhc_1_pushes_and_leaves_0");
	hm_add_test(t_transit_mtu, 4, "int_transit_packet_at_mtu_minus_4_sets_m");
	hm_add_test(t_transit_mtu, 8, "int_transit_packet_at_mtu_minus_8_fits_exactly");
	hm_add_test(t_source_mtu, 15, "int_source_fixed_headers_past_mtu_no_int");
	hm_add_test(t_source_mtu, 16, "int_source_metadata_past_mtu_sets_m");
	hm_add_test(t_source_mtu, 24, "int_source_metadata_fits_mtu_exactly");
	hm_add_test(t_dscp_not_int, 0x1f, "int_dscp_0x1f_with_int_0x17_is_not_int");
	hm_add_test(t_dscp_not_int, 0x37, "int_dscp_0x37_with_int_0x17_is_not_int");
	hm_add_test(t_malformed, M_TRUNC_SHIM, "int_malformed_truncated_shim_unchanged_counted");
	hm_add_test(t_malformed, M_TRUNC_HDR, "int_malformed_truncated_header_unchanged_counted");
	hm_add_test(t_malformed, M_LEN_BEYOND, "int_malformed_shim_length_beyond_packet");
	hm_add_test(t_malformed, M_HOPML_LOW, "int_malformed_hop_ml_below_bitmap");
	hm_add_test(t_malformed, M_VER, "int_malformed_version_1");
	hm_add_test(t_malformed, M_TYPE, "int_malformed_type_destination");
	hm_add_test(t_malformed, M_LEN_SHORT, "int_malformed_shim_length_below_header");
	hm_add_test(t_malformed, M_NPT, "int_malformed_npt_1_under_dscp_signalling");
	hm_add_test(t_full, 254, "int_transit_stack_at_254_words_full_nothing_added");
	hm_add_test(t_full, 255, "int_transit_stack_at_255_words_full_nothing_added");
	hm_add_test(t_full, 253, "int_transit_stack_at_253_words_pushes_to_255");
	hm_add_test(t_mx, 0, "int_mx_ipv4_udp_source_transit_sink_records");
	hm_add_test(t_mx, 1, "int_mx_ipv6_tcp_source_transit_sink_records");
	hm_add_test(t_xd, 1, "int_xd_watched_packet_recorded_unchanged");
	hm_add_test(t_xd, 0, "int_xd_unwatched_packet_no_record");
	hm_add_test(t_xd_sink, XD_SINK_WATCHED, "int_xd_sink_watched_packet_recorded_unchanged");
	hm_add_test(t_xd_sink, XD_SINK_UNWATCHED, "int_xd_sink_unwatched_packet_no_record");
	hm_add_test(t_xd_sink, XD_SINK_MD, "int_md_sink_packet_without_int_no_record");
	hm_add_test(t_queue, 1000, "int_queue_above_threshold_gives_q_record");
	hm_add_test(t_queue, HM_T_OUT_QDEPTH, "int_queue_at_threshold_no_record");
	hm_add_test(t_source_skip, S_REPORT, "int_source_never_instruments_reports");
	hm_add_test(t_source_skip, S_NOT_WATCHED, "int_source_not_watched_counted");
	hm_add_test(t_source_skip, S_NOT_SAMPLED, "int_source_flow_not_sampled_counted");
	hm_add_test(t_source_skip, S_GSO, "int_source_gso_left_without_int_counted");
	hm_add_test(t_source_skip, S_PARTIAL, "int_source_npt0_checksum_partial_left_counted");
	hm_add_test(t_source_skip, S_PARTIAL_NPT2, "int_source_npt2_on_checksum_partial_tcp");
	hm_add_test(t_source_skip, S_HAS_INT, "int_source_int_dscp_already_left_counted");
	hm_add_test(t_source_skip, S_PROTO, "int_source_icmpv6_left_counted");
	hm_add_test(t_discard, 0, "int_sink_d_bit_reports_then_drops");
	hm_add_test(t_tx_util, 0, "int_source_tx_utilisation_of_the_last_window");
}
