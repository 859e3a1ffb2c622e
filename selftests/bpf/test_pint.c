// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pint.c - bpf/pint.bpf.c under BPF_PROG_TEST_RUN.
 *
 * The programs run on crafted IPv4/IPv6 UDP frames and their output is
 * compared with what userspace computes from the same fields with the
 * shared definitions (lib/pint/pint_maps.h, pint_path_hop(), pint_lat_compress(),
 * pint_util_encode()): the packet ID and every hash must be identical bit
 * for bit in BPF and userspace, for many packet IDs and hop numbers.
 *
 * The object is loaded with the harness's pin root (TC_BPF_MNT), so it
 * shares hopmark_node and hopmark_qdepth with the IOAM programs (node ID
 * HM_T_NODE_ID, a fresh backlog of HM_T_OUT_QDEPTH bytes on env.if_out,
 * both reset before every test). Tests register from a constructor, so
 * test_run.c needs no change.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/pkt_cls.h>

#include "bpf_test.h"
#include "hopmark.h"
#include "pint/pint_maps.h"
#include "pint/pint_names.h"
#include "pint/pint_sink.h"
#include "bpf/pint.skel.h"

static struct pint *skel;
static struct ring_buffer *rb;
static struct pint_record recs[64];
static int n_recs;

#define T_RATE_BPS	1000000ULL	/* 1 Mbit/s on env.if_out */
#define T_START		64		/* hop-limit-start */
#define T_QLEN		100000		/* backlog on env.if_out for latency and util */

/*
 * run_tc() - hm_run_tc() on a PINT tc program, checking its verdict.
 *
 * Every PINT program passes every packet on with TC_ACT_UNSPEC, so that the
 * filters after it on the hook (PBT-M's, INT's, the operator's) still run;
 * TC_ACT_OK would end the direct-action chain (Documentation/pint.rst).
 * Return: false when the run failed (reported).
 */
static bool run_tc(int prog_fd, int ifindex, int iif, const void *in, size_t len,
		   struct hm_run *r)
{
	if (!hm_run_tc(prog_fd, ifindex, iif, in, len, r))
		return false;
	return hm_check((int)r->retval == TC_ACT_UNSPEC,
			"tc verdict: expected TC_ACT_UNSPEC (%d), observed %d",
			TC_ACT_UNSPEC, (int)r->retval);
}

static int rec_cb(void *ctx, void *data, size_t size)
{
	if (n_recs < (int)(sizeof(recs) / sizeof(recs[0])) && size >= sizeof(recs[0]))
		memcpy(&recs[n_recs++], data, sizeof(recs[0]));
	return 0;
}

/*
 * Every entry of an array indexed by ifindex back to all zeroes (an array's
 * entries cannot be deleted; zero is an interface PINT has not seen).
 */
static bool zero_array(const struct bpf_map *m)
{
	static __u8 zero[256 * sizeof(struct pint_link_stats)];
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(m);
	size_t size = (bpf_map__value_size(m) + 7) & ~7UL;
	__u32 key;

	if (bpf_map__type(m) == BPF_MAP_TYPE_PERCPU_ARRAY)
		size *= ncpu > 0 ? ncpu : 1;
	if (size > sizeof(zero))
		return false;
	for (key = 0; key < bpf_map__max_entries(m); key++)
		if (bpf_map_update_elem(fd, &key, zero, BPF_ANY))
			return false;
	return true;
}

/* Load once; reset the PINT maps every test. */
static bool pint_env(void)
{
	char pin[PATH_MAX];

	if (!skel) {
		LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = pin);

		if (hm_pin_dir(pin, sizeof(pin)))
			return hm_check(false, "no pin directory");
		skel = pint__open_opts(&oo);
		if (skel)
			skel->rodata->hm_pint_general_only = hm_general_path();
		if (!skel || hm_events_fit_pin(skel->obj, pin) || pint__load(skel)) {
			pint__destroy(skel);
			skel = NULL;
			return hm_check(false, "pint.bpf.o did not load");
		}
		rb = ring_buffer__new(bpf_map__fd(skel->maps.pint_events), rec_cb, NULL, NULL);
		if (!rb)
			return hm_check(false, "cannot read pint_events");
	}
	if (!zero_array(skel->maps.pint_ifcfg) || !zero_array(skel->maps.pint_stats) ||
	    !zero_array(skel->maps.pint_txrate))
		return hm_check(false, "cannot reset the PINT arrays");
	ring_buffer__consume(rb);
	n_recs = 0;
	return true;
}

/*
 * A domain with the queries of @bits (path, latency, util; 0 = absent) and
 * budget @budget, written to pint_cfg; @cfg receives it.
 */
static bool set_domain_inst(struct pint_domain_cfg *cfg, unsigned int budget,
			    const unsigned int bits[3], unsigned int inst)
{
	struct pint_query q[3];
	struct pint_lat_table lt;
	unsigned int n = 0, k;
	__u32 zero = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->hop_limit_start = T_START;
	cfg->id_min = 1;
	cfg->id_max = 255;
	/* 10 s: one tx window for the whole test, so the rate term stays 0 */
	cfg->base_rtt_ns = 10000000000ULL;
	cfg->lat_min_ns = 1000;
	cfg->lat_max_ns = 1000000000;
	cfg->q_path = cfg->q_lat = cfg->q_util = PINT_QUERY_NONE;
	for (k = 0; k < 3; k++) {
		if (!bits[k])
			continue;
		q[n].kind = k + 1;
		q[n].bits = bits[k];
		q[n].weight = 1;
		if (k == 0)
			cfg->q_path = n;
		else if (k == 1)
			cfg->q_lat = n;
		else
			cfg->q_util = n;
		n++;
	}
	if (!hm_check(!pint_query_plan_build(&cfg->plan, NULL, budget, q, n), "plan"))
		return false;
	if (bits[0] && !hm_check(!pint_path_params_init(&cfg->path, NULL, bits[0] / inst, 0) &&
				 !pint_path_scheme(&cfg->path, "hybrid", 16) &&
				 !pint_path_set_instances(&cfg->path, inst), "path scheme"))
		return false;
	cfg->path_inst = inst;
	if (bits[1]) {
		if (!hm_check(!pint_lat_table_for_range(&lt, bits[1], cfg->lat_min_ns,
							cfg->lat_max_ns), "latency table"))
			return false;
		cfg->lat = lt.enc;
	}
	cfg->flags = PINT_DOM_F_CONFIGURED;
	return hm_check(!bpf_map_update_elem(bpf_map__fd(skel->maps.pint_cfg), &zero, cfg, BPF_ANY),
			"write pint_cfg");
}

static bool set_domain(struct pint_domain_cfg *cfg, unsigned int budget, const unsigned int bits[3])
{
	return set_domain_inst(cfg, budget, bits, 1);
}

static void set_if(int ifindex, __u32 flags, __u64 rate)
{
	struct pint_if_cfg ic = { .flags = flags, .rate_bps = rate };
	__u32 key = ifindex;

	bpf_map_update_elem(bpf_map__fd(skel->maps.pint_ifcfg), &key, &ic, BPF_ANY);
}

static __u64 pint_counter(int ifindex, enum pint_counter c)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	struct pint_link_stats per[256];
	__u32 key = ifindex;
	__u64 sum = 0;

	if (ncpu > 256 || bpf_map_lookup_elem(bpf_map__fd(skel->maps.pint_stats), &key, per))
		return 0;
	for (i = 0; i < ncpu; i++)
		sum += per[i].cnt[c];
	return sum;
}

/* ---- frames ---- */

static const __u8 v4_src[4] = { 10, 0, 1, 1 }, v4_dst[4] = { 10, 0, 9, 2 };

/* Ethernet + IPv4 (DF per @df, TTL @ttl, ID @id) + UDP with @plen bytes from @seed. */
static void pkt_v4(struct pkt *p, bool df, __u8 ttl, __u16 id, size_t plen, __u32 seed)
{
	size_t ip, i;
	__u16 c;

	pkt_init(p);
	pkt_eth(p, 0x0800);
	ip = p->len;
	pkt_put_u8(p, 0x45);
	pkt_put_u8(p, 0);
	pkt_put_be16(p, 20 + 8 + plen);
	pkt_put_be16(p, id);
	pkt_put_be16(p, df ? 0x4000 : 0);
	pkt_put_u8(p, ttl);
	pkt_put_u8(p, 17);
	pkt_put_be16(p, 0);
	pkt_put(p, v4_src, 4);
	pkt_put(p, v4_dst, 4);
	c = pkt_csum16(p->b + ip, 20);
	p->b[ip + 10] = c >> 8;
	p->b[ip + 11] = c;
	pkt_put_be16(p, 40000 + (seed & 0xff));
	pkt_put_be16(p, 9);
	pkt_put_be16(p, 8 + plen);
	pkt_put_be16(p, 0);
	for (i = 0; i < plen; i++)
		pkt_put_u8(p, (__u8)(seed * 2654435761U >> (8 * (i & 3))) ^ (__u8)i);
}

/* The IPv4 packet ID of @p computed from the fields, not by the parser. */
static __u32 pid_v4(const struct pkt *p)
{
	const __u8 *ip = p->b + 14;
	__u8 l4[PINT_PID_L4_LEN] = {};
	__u16 tot = (__u16)ip[2] << 8 | ip[3];

	memcpy(l4, ip + 20, tot - 20 >= 20 ? 20 : tot - 20 >= 8 ? 8 : 0);
	return pint_pid_v4(ip + 12, ip + 16, ip[9], tot, l4);
}

/* Ethernet + IPv6 (+ the PINT header with @digest, @count when @opt) + UDP. */
static void pkt_v6(struct pkt *p, bool opt, __u8 hlim, __u16 digest, __u8 count, size_t plen,
		   __u32 seed)
{
	size_t i;

	pkt_init(p);
	pkt_eth(p, 0x86dd);
	pkt_ipv6(p, opt ? HM_NH_HBH : HM_NH_UDP, hlim, NULL);
	if (opt) {
		__u8 h[8] = { HM_NH_UDP, 0, PINT_IP6_OPT_TYPE, PINT_IP6_OPT_DATA_LEN,
			      digest >> 8, digest & 0xff, count, 0 };

		pkt_put(p, h, 8);
	}
	pkt_udp(p, 40000 + (seed & 0xff), 9, plen);
	for (i = 0; i < plen; i++)
		p->b[p->len - plen + i] = (__u8)(seed * 2654435761U >> (8 * (i & 3))) ^ (__u8)i;
	pkt_finish(p);
}

static __u32 pid_v6(const struct pkt *p, bool opt)
{
	const __u8 *ip = p->b + 14, *l4p = ip + 40 + (opt ? 8 : 0);
	__u8 l4[PINT_PID_L4_LEN] = {};
	__u16 len = ((__u16)ip[4] << 8 | ip[5]) - (opt ? 8 : 0);
	__u32 flow = ((__u32)(ip[1] & 0x0f) << 16) | ((__u32)ip[2] << 8) | ip[3];

	memcpy(l4, l4p, len >= 20 ? 20 : len >= 8 ? 8 : 0);
	return pint_pid_v6(ip + 8, ip + 24, HM_NH_UDP, len, flow, l4);
}

/* The digest one hop makes, from the shared userspace definitions. */
static __u32 expect_hop(const struct pint_domain_cfg *c, __u32 pid, __u32 hop, __u32 d,
			__u64 qlen)
{
	__u32 s = pint_query_select(&c->plan, pid), off, b, f, ah;
	__u64 ns;

	if (c->q_path != PINT_QUERY_NONE &&
	    (off = c->plan.set[s].offset[c->q_path]) != PINT_QUERY_NONE) {
		b = c->plan.bits[c->q_path];
		f = pint_path_hop(&c->path, pid, hop, HM_T_NODE_ID, pint_field_get(d, off, b));
		d = pint_field_set(d, off, b, f);
	}
	if (c->q_lat != PINT_QUERY_NONE &&
	    (off = c->plan.set[s].offset[c->q_lat]) != PINT_QUERY_NONE) {
		ah = pint_lat_act_hash(&c->plan.seeds, pid, hop);
		if (ah <= pint_prob_thresh_baseline(hop)) {
			ns = qlen * 8000000000ULL / T_RATE_BPS;
			d = pint_field_set(d, off, c->plan.bits[c->q_lat],
					   pint_lat_compress(&c->lat, ns, ah));
		}
	}
	if (c->q_util != PINT_QUERY_NONE &&
	    (off = c->plan.set[s].offset[c->q_util]) != PINT_QUERY_NONE) {
		b = c->plan.bits[c->q_util];
		f = pint_util_field(pint_util_encode(pint_util_q16(
			qlen, pint_util_link_bytes(T_RATE_BPS, c->base_rtt_ns), 0, 0)), b);
		if (f > pint_field_get(d, off, b))
			d = pint_field_set(d, off, b, f);
	}
	return d & 0xffff;
}

/* ---- tests ---- */

/*
 * Transit on IPv4: for 200 (packet, hop) pairs the Identification written
 * by BPF equals the userspace digest; the header checksum stays valid and
 * nothing else changes. arg: 0xIBBLLUU = path, latency, util bits; I = 1:
 * the path bits are two independent digests (2x8 for 16 bits).
 */
static void t_transit_v4(const struct hm_test *t)
{
	unsigned int bits[3] = { t->arg >> 16 & 0xff, t->arg >> 8 & 0xff, t->arg & 0xff };
	unsigned int budget = bits[0] + bits[1] + bits[2] > 16 ? 16 : bits[0] + bits[1] + bits[2];
	struct pint_domain_cfg cfg;
	struct pint_frame_info fi;
	struct pkt in, exp;
	struct hm_run r;
	__u32 i, hop, pid, d_in, want;

	if (!pint_env() || !set_domain_inst(&cfg, budget, bits, t->arg >> 24 ? 2 : 1))
		return;
	set_if(env.if_out, PINT_IF_F_TRANSIT, T_RATE_BPS);
	hm_set_qdepth(env.if_out, T_QLEN, T_QLEN, hm_now_ns(CLOCK_MONOTONIC));
	for (i = 0; i < 200 && !hm_failed(); i++) {
		hop = 1 + i % 24;
		d_in = (i * 40503U) & 0xffff;
		pkt_v4(&in, true, T_START - hop, d_in, 12 + i % 40, i);
		pid = pid_v4(&in);
		if (!hm_check(!pint_frame_parse(in.b, in.len, &fi) && fi.pid == pid,
			      "pint_frame_parse pid 0x%08x, fields give 0x%08x", fi.pid, pid))
			return;
		if (!run_tc(bpf_program__fd(skel->progs.hm_pint_transit), env.if_out, 0,
			       in.b, in.len, &r))
			return;
		want = expect_hop(&cfg, pid, hop, d_in, T_QLEN);
		exp = in;
		exp.b[18] = want >> 8;
		exp.b[19] = want;
		exp.b[24] = exp.b[25] = 0;
		{
			__u16 c = pkt_csum16(exp.b + 14, 20);

			exp.b[24] = c >> 8;
			exp.b[25] = c;
		}
		if (!hm_check_bytes("frame after transit", exp.b, exp.len, r.out, r.out_len))
			hm_diag("pid 0x%08x hop %u digest in 0x%04x: expected 0x%04x", pid, hop,
				d_in, want);
	}
	CHECK_EQ("transit_ok counter", 200, pint_counter(env.if_out, PINT_CNT_TRANSIT_OK));
}

/* Transit on IPv6: digest and count updated in place, size unchanged. */
static void t_transit_v6(const struct hm_test *t)
{
	unsigned int bits[3] = { t->arg >> 16 & 0xff, t->arg >> 8 & 0xff, t->arg & 0xff };
	unsigned int budget = bits[0] + bits[1] + bits[2] > 16 ? 16 : bits[0] + bits[1] + bits[2];
	struct pint_domain_cfg cfg;
	struct pkt in, exp;
	struct hm_run r;
	__u32 i, hop, pid, d_in, want;

	if (!pint_env() || !set_domain_inst(&cfg, budget, bits, t->arg >> 24 ? 2 : 1))
		return;
	set_if(env.if_out, PINT_IF_F_TRANSIT, T_RATE_BPS);
	hm_set_qdepth(env.if_out, T_QLEN, T_QLEN, hm_now_ns(CLOCK_MONOTONIC));
	for (i = 0; i < 200 && !hm_failed(); i++) {
		hop = 1 + i % 30;
		d_in = (i * 7919U) & 0xffff;
		pkt_v6(&in, true, 64 - hop, d_in, hop - 1, 12 + i % 40, i);
		pid = pid_v6(&in, true);
		if (!run_tc(bpf_program__fd(skel->progs.hm_pint_transit), env.if_out, 0,
			       in.b, in.len, &r))
			return;
		want = expect_hop(&cfg, pid, hop, d_in, T_QLEN);
		exp = in;
		exp.b[HM_EXT_OFF + 4] = want >> 8;
		exp.b[HM_EXT_OFF + 5] = want;
		exp.b[HM_EXT_OFF + 6] = hop;
		if (!hm_check_bytes("frame after transit", exp.b, exp.len, r.out, r.out_len))
			hm_diag("pid 0x%08x hop %u digest in 0x%04x: expected 0x%04x", pid, hop,
				d_in, want);
	}
}

/* ---- known vectors through BPF ---- */

/* Inverse of x -> a * x mod 2^32 for odd a (Newton's iteration). */
static __u32 inv32(__u32 a)
{
	__u32 x = a;
	int i;

	for (i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

/*
 * The word b with pint_hash32(seed, a, b) == want: every step of the
 * two-word MurmurHash3 after the first word is a bijection of b, undone
 * here in reverse order (fmix32, the ^ 8 length, h * 5 + c, rotl 13, the
 * block mix).
 */
static __u32 hash32_solve_b(__u32 seed, __u32 a, __u32 want)
{
	__u32 h1 = pint_murmur_round(seed, a), x, k;

	x = want;
	x ^= x >> 16;
	x *= inv32(0xc2b2ae35U);
	x ^= x >> 13 ^ x >> 26;
	x *= inv32(0x85ebca6bU);
	x ^= x >> 16;
	x ^= 8;
	x = (x - 0xe6546b64U) * inv32(5);
	k = pint_rotl32(x, 19) ^ h1;
	k *= inv32(0x1b873593U);
	k = pint_rotl32(k, 17);
	return k * inv32(0xcc9e2d51U);
}

/*
 * An IPv4 DF UDP frame at hop @hop whose packet ID is @pid: the last word
 * the ID folds in (UDP payload octets 8..11, U[4] of pint_maps.h) is solved
 * for, so BPF computes the documented vector inputs from a real packet.
 */
static bool pkt_v4_with_pid(struct pkt *p, __u32 hop, __u16 id, __u32 pid)
{
	const __u8 *ip = p->b + 14, *l4 = p->b + 34;
	__u32 h, w;

	pkt_v4(p, true, T_START - hop, id, 12, pid);
	h = pint_hash32(PINT_PID_SEED, pint_le32(ip + 12), pint_le32(ip + 16));
	h = pint_hash32(h, (__u32)ip[9] << 16 | ((__u16)ip[2] << 8 | ip[3]), pint_le32(l4));
	h = pint_hash32(h, pint_le32(l4 + 4), pint_le32(l4 + 8));
	w = hash32_solve_b(h, pint_le32(l4 + 12), pid);
	p->b[50] = w;
	p->b[51] = w >> 8;
	p->b[52] = w >> 16;
	p->b[53] = w >> 24;
	return hm_check(pid_v4(p) == pid,
			"crafted frame: expected packet ID 0x%08x, observed 0x%08x", pid, pid_v4(p));
}

/*
 * A domain with one path query of @bits bits (budget @bits) and one coding
 * layer of @kind with @act_thresh, seeds @s; @cfg receives it.
 */
static bool vec_domain(struct pint_domain_cfg *cfg, const struct pint_seeds *s, unsigned int bits,
		       __u8 kind, __u32 act_thresh, unsigned int flags)
{
	struct pint_query q = { PINT_Q_PATH, bits, 1 };
	__u32 zero = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->hop_limit_start = T_START;
	cfg->id_min = 1;
	cfg->id_max = 255;
	cfg->base_rtt_ns = 10000000000ULL;
	cfg->q_path = 0;
	cfg->q_lat = cfg->q_util = PINT_QUERY_NONE;
	if (!hm_check(!pint_query_plan_build(&cfg->plan, s, bits, &q, 1) &&
		      !pint_path_params_init(&cfg->path, s, bits, flags), "vector domain"))
		return false;
	cfg->path.layer[0].kind = kind;
	cfg->path.layer[0].act_thresh = act_thresh;
	cfg->flags = PINT_DOM_F_CONFIGURED;
	return hm_check(!bpf_map_update_elem(bpf_map__fd(skel->maps.pint_cfg), &zero, cfg, BPF_ANY),
			"write pint_cfg");
}

/* The IPv4 Identification BPF transit writes for @in; ~0U if it did not run. */
static __u32 bpf_transit_id(const struct pkt *in)
{
	struct hm_run r;

	if (!run_tc(bpf_program__fd(skel->progs.hm_pint_transit), env.if_out, 0, in->b,
		       in->len, &r))
		return ~0U;
	return (__u32)r.out[18] << 8 | r.out[19];
}

/*
 * Does BPF's g(pid, hop) equal @g exactly? An XOR layer with full-ID
 * digests xors the node ID (HM_T_NODE_ID) iff g <= threshold: it must act
 * with threshold @g and must not with @g - 1.
 */
static void check_act_vector(const char *what, const struct pint_seeds *s, __u32 pid, __u32 hop,
			     __u32 g)
{
	struct pint_domain_cfg cfg;
	__u16 d_in = 0x5a00;
	struct pkt in;

	if (!pkt_v4_with_pid(&in, hop, d_in, pid))
		return;
	if (!vec_domain(&cfg, s, 16, PINT_LAYER_XOR, g, PINT_PATH_F_FULL_ID))
		return;
	if (!CHECK_EQ(what, d_in ^ HM_T_NODE_ID, bpf_transit_id(&in)))
		hm_diag("BPF: the hop did not act with threshold 0x%08x: g > it", g);
	if (!vec_domain(&cfg, s, 16, PINT_LAYER_XOR, g - 1, PINT_PATH_F_FULL_ID))
		return;
	if (!CHECK_EQ(what, d_in, bpf_transit_id(&in)))
		hm_diag("BPF: the hop acted with threshold 0x%08x: g < 0x%08x", g - 1, g);
}

/*
 * Does BPF's h(node, pid) mod 2^bits equal @h? Hop 1 of a Baseline layer
 * always writes it (node ID @node).
 */
static void check_value_vector(const char *what, const struct pint_seeds *s, __u32 node,
			       __u32 pid, unsigned int bits, __u32 h)
{
	struct pint_domain_cfg cfg;
	struct pkt in;

	if (!pkt_v4_with_pid(&in, 1, 0, pid) ||
	    !vec_domain(&cfg, s, bits, PINT_LAYER_BASELINE, 0, 0))
		return;
	hm_set_node(HM_NODE_F_ID | HM_NODE_F_ID_WIDE, node, HM_T_NODE_ID_WIDE, 0);
	CHECK_EQ(what, h, bpf_transit_id(&in));
	hm_set_node(HM_NODE_F_ID | HM_NODE_F_ID_WIDE, HM_T_NODE_ID, HM_T_NODE_ID_WIDE, 0);
}

/*
 * Does BPF's decider D(pid, PINT_DECIDE_PATH_LAYER) equal @dv? Layer 0
 * (Baseline, full ID: hop 1 writes the node ID) holds the packet iff
 * D <= decide_max, else layer 1 (XOR that never acts) keeps the digest.
 */
static void check_layer_vector(const char *what, __u32 pid, __u32 dv)
{
	const struct pint_seeds s = { PINT_SEED_DECIDER, PINT_SEED_ACT, PINT_SEED_VALUE };
	struct pint_domain_cfg cfg;
	__u16 d_in = 0x0700;
	struct pkt in;
	int i;

	if (!pkt_v4_with_pid(&in, 1, d_in, pid))
		return;
	for (i = 0; i < 2; i++) {
		if (!vec_domain(&cfg, &s, 16, PINT_LAYER_BASELINE, 0, PINT_PATH_F_FULL_ID))
			return;
		cfg.path.nr_layers = 2;
		cfg.path.layer[0].decide_max = dv - i;
		cfg.path.layer[1].kind = PINT_LAYER_XOR;
		cfg.path.layer[1].act_thresh = 0;
		cfg.path.layer[1].decide_max = 0xffffffffU;
		if (!hm_check(!pint_path_params_check(&cfg.path) &&
			      pint_act(&s, pid, 1) != 0, "layer vector domain"))
			return;
		bpf_map_update_elem(bpf_map__fd(skel->maps.pint_cfg), &(__u32){ 0 }, &cfg, BPF_ANY);
		if (!CHECK_EQ(what, i ? d_in : HM_T_NODE_ID, bpf_transit_id(&in)))
			hm_diag("BPF: decide_max 0x%08x put the packet in layer %d", dv - i, !i);
	}
}

/*
 * The known vectors of Documentation/pint.rst, in userspace and through the
 * BPF transit: frames crafted to have the vectors' packet IDs run through
 * hm_pint_transit with domains whose output depends on exactly that hash
 * (a threshold at the vector's value and one below, or hop 1's digest), so
 * a BPF hash that differs from userspace's fails here.
 */
static void t_hash_vectors(const struct hm_test *t)
{
	const struct pint_seeds s = { PINT_SEED_DECIDER, PINT_SEED_ACT, PINT_SEED_VALUE };
	const struct pint_seeds s0 = { 0, 0, 0 }, s1 = { 1, 1, 1 };

	CHECK_EQ("pint_hash32(0, 0, 0)", 0x63852afc, pint_hash32(0, 0, 0));
	CHECK_EQ("pint_hash32(1, 2, 3)", 0xae160357, pint_hash32(1, 2, 3));
	CHECK_EQ("g(1000, 3)", 0x821eb445, pint_act(&s, 1000, 3));
	CHECK_EQ("h(42, 1000) mod 2^8", 0xa4, pint_value_hash(&s, 42, 1000, 8));
	CHECK_EQ("D(0x12345678, 1)", 0x68abcdeb, pint_decide(&s, 0x12345678, 1));
	if (!pint_env())
		return;
	set_if(env.if_out, PINT_IF_F_TRANSIT, 0);
	/* seed.value 0, node 0, pid 0: hop 1 writes pint_hash32(0, 0, 0) mod 2^16 */
	check_value_vector("BPF pint_hash32(0, 0, 0) mod 2^16", &s0, 0, 0, 16, 0x2afc);
	/* seed.act 1, pid 2, hop 3: g = pint_hash32(1, 2, 3), all 32 bits */
	check_act_vector("BPF pint_hash32(1, 2, 3) as g(2, 3), seed 1", &s1, 2, 3, 0xae160357);
	check_act_vector("BPF g(1000, 3)", &s, 1000, 3, 0x821eb445);
	check_value_vector("BPF h(42, 1000) mod 2^8", &s, 42, 1000, 8, 0xa4);
	check_layer_vector("BPF D(0x12345678, 1)", 0x12345678, 0x68abcdeb);
}

/* Source, IPv4 with DF: ID := 0, TTL := start, checksum fixed; pid unchanged. */
static void t_source_v4(const struct hm_test *t)
{
	unsigned int bits[3] = { 8, 0, 0 };
	struct pint_domain_cfg cfg;
	struct pint_frame_info a, b;
	struct pkt in;
	struct hm_run r;
	__u16 c;

	if (!pint_env() || !set_domain(&cfg, 8, bits))
		return;
	set_if(env.if_in, PINT_IF_F_SOURCE, 0);
	pkt_v4(&in, true, 57, 0xbeef, 30, 7);
	if (!run_tc(bpf_program__fd(skel->progs.hm_pint_source), env.if_in, env.if_in,
		       in.b, in.len, &r))
		return;
	CHECK_EQ("length", in.len, r.out_len);
	CHECK_EQ("Identification", 0, (r.out[18] << 8) | r.out[19]);
	CHECK_EQ("TTL", T_START, r.out[22]);
	c = pkt_csum16(r.out + 14, 20);
	CHECK_EQ("header checksum verifies", 0, c);
	pint_frame_parse(in.b, in.len, &a);
	pint_frame_parse(r.out, r.out_len, &b);
	CHECK_EQ("packet ID unchanged by the source", a.pid, b.pid);
	CHECK_EQ("source_ok", 1, pint_counter(env.if_in, PINT_CNT_SRC_OK));
	CHECK_EQ("source_ttl_set", 1, pint_counter(env.if_in, PINT_CNT_SRC_TTL_SET));
}

/* IPv4 without DF: every role leaves it alone and counts it. */
static void t_no_df(const struct hm_test *t)
{
	unsigned int bits[3] = { 8, 0, 0 };
	struct pint_domain_cfg cfg;
	struct bpf_program *progs[3];
	struct pkt in;
	struct hm_run r;
	int i;

	if (!pint_env() || !set_domain(&cfg, 8, bits))
		return;
	progs[0] = skel->progs.hm_pint_source;
	progs[1] = skel->progs.hm_pint_transit;
	progs[2] = skel->progs.hm_pint_sink;
	set_if(env.if_in, PINT_IF_F_SOURCE | PINT_IF_F_SINK, 0);
	set_if(env.if_out, PINT_IF_F_TRANSIT, 0);
	pkt_v4(&in, false, 60, 0x1234, 30, 9);
	for (i = 0; i < 3; i++) {
		int ifx = i == 1 ? env.if_out : env.if_in;

		if (!run_tc(bpf_program__fd(progs[i]), ifx, ifx, in.b, in.len, &r))
			return;
		hm_check_bytes(bpf_program__name(progs[i]), in.b, in.len, r.out, r.out_len);
	}
	CHECK_EQ("no_df on the ingress interface", 2, pint_counter(env.if_in, PINT_CNT_NO_DF));
	CHECK_EQ("no_df on the egress interface", 1, pint_counter(env.if_out, PINT_CNT_NO_DF));
	ring_buffer__consume(rb);
	CHECK_EQ("records", 0, n_recs);
}

/*
 * IPv6 through a whole domain: source inserts 8 octets, every transit
 * keeps the size, the sink restores the original frame and reports the
 * digest userspace computes for the path.
 */
static void t_v6_domain(const struct hm_test *t)
{
	unsigned int bits[3] = { 8, 0, 0 }, hops = t->arg, h;
	struct pint_domain_cfg cfg;
	struct pkt in, cur;
	struct hm_run r;
	__u32 pid, d = 0;

	if (!pint_env() || !set_domain(&cfg, 16, bits))
		return;
	set_if(env.if_in, PINT_IF_F_SOURCE, 0);
	set_if(env.if_out, PINT_IF_F_TRANSIT, 0);
	pkt_v6(&in, false, 64, 0, 0, 100, hops);
	pid = pid_v6(&in, false);
	if (!run_tc(bpf_program__fd(skel->progs.hm_pint_source), env.if_in, env.if_in,
		       in.b, in.len, &r))
		return;
	CHECK_EQ("size after the source", in.len + PINT_IP6_HBH_LEN, r.out_len);
	memcpy(cur.b, r.out, r.out_len);
	cur.len = r.out_len;
	for (h = 1; h <= hops; h++) {
		cur.b[HM_IP6_OFF + 7]--;		/* forwarding */
		if (!run_tc(bpf_program__fd(skel->progs.hm_pint_transit), env.if_out, 0,
			       cur.b, cur.len, &r))
			return;
		if (!CHECK_EQ("size at every hop", in.len + PINT_IP6_HBH_LEN, r.out_len))
			return;
		memcpy(cur.b, r.out, r.out_len);
		d = pint_path_hop(&cfg.path, pid, h, HM_T_NODE_ID, d);
	}
	set_if(env.if_in, PINT_IF_F_SINK, 0);
	if (!run_tc(bpf_program__fd(skel->progs.hm_pint_sink), env.if_in, env.if_in,
		       cur.b, cur.len, &r))
		return;
	in.b[HM_IP6_OFF + 7] -= hops;
	hm_check_bytes("frame after the sink = original", in.b, in.len, r.out, r.out_len);
	ring_buffer__consume(rb);
	if (!CHECK_EQ("records", 1, n_recs))
		return;
	CHECK_EQ("record pid", pid, recs[0].pid);
	CHECK_EQ("record hops", hops, recs[0].hops);
	CHECK_EQ("record digest", d, recs[0].digest);
	CHECK_EQ("record family", 6, recs[0].family);
	CHECK_EQ("record sport", 40000 + (hops & 0xff), recs[0].sport);
}

/* Sink, IPv4: reports (pid, digest, hops) and zeroes the ID, checksum fixed. */
static void t_sink_v4(const struct hm_test *t)
{
	unsigned int bits[3] = { 8, 0, 0 };
	struct pint_domain_cfg cfg;
	struct pkt in;
	struct hm_run r;

	if (!pint_env() || !set_domain(&cfg, 16, bits))
		return;
	set_if(env.if_in, PINT_IF_F_SINK, 0);
	pkt_v4(&in, true, T_START - 9, 0x00a5, 40, 3);
	if (!run_tc(bpf_program__fd(skel->progs.hm_pint_sink), env.if_in, env.if_in,
		       in.b, in.len, &r))
		return;
	CHECK_EQ("Identification cleared", 0, (r.out[18] << 8) | r.out[19]);
	CHECK_EQ("header checksum verifies", 0, pkt_csum16(r.out + 14, 20));
	ring_buffer__consume(rb);
	if (!CHECK_EQ("records", 1, n_recs))
		return;
	CHECK_EQ("record pid", pid_v4(&in), recs[0].pid);
	CHECK_EQ("record digest", 0x00a5, recs[0].digest);
	CHECK_EQ("record hops", 9, recs[0].hops);
	CHECK_EQ("record qset", pint_query_select(&cfg.plan, pid_v4(&in)), recs[0].qset);
}

/* Hop numbers outside 1..64 (e.g. TTL = start at egress) are left alone. */
static void t_hop_range(const struct hm_test *t)
{
	unsigned int bits[3] = { 8, 0, 0 };
	struct pint_domain_cfg cfg;
	struct pkt in;
	struct hm_run r;

	if (!pint_env() || !set_domain(&cfg, 8, bits))
		return;
	set_if(env.if_out, PINT_IF_F_TRANSIT, 0);
	pkt_v4(&in, true, T_START, 0x4321, 20, 1);
	if (!run_tc(bpf_program__fd(skel->progs.hm_pint_transit), env.if_out, 0, in.b, in.len, &r))
		return;
	hm_check_bytes("frame", in.b, in.len, r.out, r.out_len);
	CHECK_EQ("hop_range", 1, pint_counter(env.if_out, PINT_CNT_HOP_RANGE));
}

/*
 * IPv6 frames that are not ours, at transit (tc egress) and sink (tc
 * ingress): each leaves unchanged, with exactly one counter moved by one
 * on the interface and no record. The fast test (pint_v6_not_ours()) takes
 * the first; the rest go through the general parse. HM_BPF_GENERAL_PATH
 * (selftests/bpf/test_general_path.sh) sends all through the general
 * parse, against the same expectations.
 */
static void t_v6_not_ours(const struct hm_test *t)
{
	static const char *const what[] = {
		"UDP, no extension header", "a Hop-by-Hop header not PINT's (PadN)",
		"a Fragment header", "version 4 under the IPv6 EtherType",
	};
	static const enum pint_counter want[] = {
		PINT_CNT_NO_OPTION, PINT_CNT_NO_OPTION, PINT_CNT_FRAGMENT, PINT_CNT_ERR,
	};
	unsigned int bits[3] = { 8, 0, 0 }, k, role, c;
	struct bpf_program *progs[2];
	struct pint_domain_cfg cfg;
	struct pkt in;
	struct hm_run r;
	char name[128];

	if (!pint_env() || !set_domain(&cfg, 16, bits))
		return;
	progs[0] = skel->progs.hm_pint_transit;
	progs[1] = skel->progs.hm_pint_sink;
	set_if(env.if_out, PINT_IF_F_TRANSIT, 0);
	set_if(env.if_in, PINT_IF_F_SINK, 0);
	for (k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		pkt_init(&in);
		pkt_eth(&in, 0x86dd);
		if (k == 0) {
			pkt_ipv6(&in, HM_NH_UDP, 64, NULL);
		} else if (k == 1 || k == 2) {
			/* PadN over the 6 octets (RFC 8200 §4.2); a first fragment, M=1 */
			__u8 hbh[8] = { HM_NH_UDP, 0, 1, 4, 0, 0, 0, 0 };
			__u8 frag[8] = { HM_NH_UDP, 0, 0, 1, 0, 0, 0x12, 0x34 };

			pkt_ipv6(&in, k == 1 ? HM_NH_HBH : HM_NH_FRAG, 64, NULL);
			pkt_put(&in, k == 1 ? hbh : frag, 8);
		}
		if (k == 3)
			pkt_ipv6(&in, HM_NH_UDP, 64, NULL);
		pkt_udp(&in, 40000, 9, 16);
		pkt_finish(&in);
		if (k == 3)
			in.b[14] = (in.b[14] & 0x0f) | 0x40;	/* version 4 */
		for (role = 0; role < 2; role++) {
			int ifx = role ? env.if_in : env.if_out;
			__u64 before[PINT_CNT_MAX];

			for (c = 0; c < PINT_CNT_MAX; c++)
				before[c] = pint_counter(ifx, c);
			if (!run_tc(bpf_program__fd(progs[role]), ifx, role ? ifx : 0, in.b, in.len, &r))
				return;
			snprintf(name, sizeof(name), "%s: %s", bpf_program__name(progs[role]), what[k]);
			hm_check_bytes(name, in.b, in.len, r.out, r.out_len);
			for (c = 0; c < PINT_CNT_MAX; c++) {
				snprintf(name, sizeof(name), "%s: %s: %s", bpf_program__name(progs[role]),
					 what[k], pint_counter_names[c]);
				CHECK_EQ(name, c == want[k] ? 1 : 0, pint_counter(ifx, c) - before[c]);
			}
		}
	}
	ring_buffer__consume(rb);
	CHECK_EQ("records", 0, n_recs);
}

__attribute__((constructor)) static void register_pint_tests(void)
{
	static const __u32 mixes[] = { 0x010000, 0x040000, 0x080000, 0x100000, 0x080800,
				       0x080008, 0x080808, 0x000800, 0x000008, 0x000400,
				       0x1100000, 0x1080800 };
	unsigned int i;

	hm_add_test(t_hash_vectors, 0,
		    "pint_hash_vectors_match_documentation_in_userspace_and_bpf");
	for (i = 0; i < sizeof(mixes) / sizeof(mixes[0]); i++) {
		unsigned int pb = mixes[i] >> 16 & 0xff;
		char path[16];

		/* "2x8": two independent 8-bit digests in a 16-bit path field */
		if (mixes[i] >> 24)
			snprintf(path, sizeof(path), "2x%u", pb / 2);
		else
			snprintf(path, sizeof(path), "%u", pb);
		hm_add_test(t_transit_v4, mixes[i],
			    "pint_transit_ipv4_digest_equals_userspace_path%s_lat%u_util%u",
			    path, mixes[i] >> 8 & 0xff, mixes[i] & 0xff);
		hm_add_test(t_transit_v6, mixes[i],
			    "pint_transit_ipv6_digest_equals_userspace_path%s_lat%u_util%u",
			    path, mixes[i] >> 8 & 0xff, mixes[i] & 0xff);
	}
	hm_add_test(t_source_v4, 0, "pint_source_ipv4_df_zeroes_id_sets_ttl");
	hm_add_test(t_no_df, 0, "pint_ipv4_without_df_untouched_and_counted");
	for (i = 1; i <= 12; i += 5)
		hm_add_test(t_v6_domain, i, "pint_ipv6_option_size_constant_and_removed_%u_hops", i);
	hm_add_test(t_sink_v4, 0, "pint_sink_ipv4_reports_and_clears_id");
	hm_add_test(t_hop_range, 0, "pint_transit_leaves_hop_0_alone");
	hm_add_test(t_v6_not_ours, 0, "pint_ipv6_not_ours_unchanged_one_counter_no_record");
}
