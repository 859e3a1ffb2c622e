// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_int_xdp.c - hm_int_xdp_src (bpf/hopmark_int_xdp.bpf.c), the INT-MD
 * source at XDP, under BPF_PROG_TEST_RUN on env.if_in.
 *
 * Each test builds a frame, computes the frame the source must produce
 * (INT v2.1 §5.7.2 NPT=2: Ethernet and IP in front, then a new UDP header
 * to the INT port with checksum 0, the shim with the original protocol,
 * the MD header, this node's metadata, then the original TCP segment
 * unmoved) independently of the program, and compares byte for byte
 * (the ingress timestamp checked for range, then copied), then checks the
 * int_stats counter of the path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_test.h"
#include "common/bpf_pin.h"
#include "int/int_maps.h"
#include "bpf/hopmark_int_xdp.skel.h"

static struct hopmark_int_xdp *skel;
static int prog = -1, fd_cfg = -1, fd_stats = -1, fd_ifcfg = -1;

#define X_PORT		4242
#define X_ETH		14

static bool x_setup(void)
{
	static bool tried;
	char pin_dir[256];

	if (tried)
		goto out;
	tried = true;
	if (hm_pin_dir(pin_dir, sizeof(pin_dir)))
		goto out;
	{
		LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = pin_dir);

		skel = hopmark_int_xdp__open_opts(&oo);
	}
	if (!skel)
		goto out;
	if (hm_events_fit_pin(skel->obj, pin_dir) || hopmark_int_xdp__load(skel)) {
		hopmark_int_xdp__destroy(skel);
		skel = NULL;
		goto out;
	}
	prog = bpf_program__fd(skel->progs.hm_int_xdp_src);
	fd_cfg = bpf_map__fd(skel->maps.int_cfg);
	fd_stats = bpf_map__fd(skel->maps.int_stats);
	fd_ifcfg = bpf_map__fd(skel->maps.int_ifcfg);
out:
	if (prog < 0) {
		hm_fail("hopmark_int_xdp not loaded");
		return false;
	}
	return true;
}

static void x_dom(struct int_domain_cfg *d, __u16 bitmap)
{
	__u32 zero = 0, key;

	memset(d, 0, sizeof(*d));
	d->flags = INT_DOM_F_CONFIGURED;
	d->signal = INT_SIG_UDP;
	d->udp_port = X_PORT;
	d->mode = INT_MODE_MD;
	d->bitmap = bitmap;
	d->hop_ml = int_bitmap_words(bitmap);
	d->max_hops = 8;
	d->sel.seed = 0x1234;
	if (bpf_map_update_elem(fd_cfg, &zero, d, BPF_ANY))
		hm_fail("int_cfg: %s", strerror(errno));
	while (!bpf_map_get_next_key(fd_stats, NULL, &key))
		bpf_map_delete_elem(fd_stats, &key);
	while (!bpf_map_get_next_key(fd_ifcfg, NULL, &key))
		bpf_map_delete_elem(fd_ifcfg, &key);
}

static void x_dom_set(const struct int_domain_cfg *d)
{
	__u32 zero = 0;

	if (bpf_map_update_elem(fd_cfg, &zero, d, BPF_ANY))
		hm_fail("int_cfg: %s", strerror(errno));
}

static __u64 x_stat(int cnt)
{
	struct int_link_stats *v = calloc(env.ncpus, sizeof(*v));
	__u32 key = env.if_in;
	__u64 sum = 0;
	int c;

	if (v && !bpf_map_lookup_elem(fd_stats, &key, v))
		for (c = 0; c < env.ncpus; c++)
			sum += v[c].cnt[cnt];
	free(v);
	return sum;
}

static void put16(__u8 *b, __u32 v)
{
	b[0] = v >> 8;
	b[1] = v;
}

static void put32(__u8 *b, __u32 v)
{
	put16(b, v >> 16);
	put16(b + 2, v);
}

static __u16 ip4_csum(const __u8 *h)
{
	__u32 s = 0;
	int i;

	for (i = 0; i < 20; i += 2)
		s += h[i] << 8 | h[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

/* Ethernet + IPv4 or IPv6 + TCP (20 + @opt octets) to port 80 + @plen octets. */
static size_t x_frame(__u8 *f, int family, size_t opt, size_t plen, __u8 proto)
{
	size_t n = 0, ip, i, l3 = family == 4 ? 20 : 40, l4 = proto == 6 ? 20 + opt : 8;

	memset(f, 0, X_ETH);
	f[0] = 2;
	f[6] = 2;
	f[11] = 1;
	put16(f + 12, family == 4 ? 0x0800 : 0x86dd);
	n = ip = X_ETH;
	memset(f + n, 0, l3);
	if (family == 4) {
		f[n] = 0x45;
		f[n + 1] = 0x28;
		put16(f + n + 4, 0x4321);
		f[n + 6] = 0x40;	/* DF */
		f[n + 8] = 64;
		f[n + 9] = proto;
		f[n + 12] = 10; f[n + 13] = 1; f[n + 15] = 1;
		f[n + 16] = 10; f[n + 17] = 2; f[n + 19] = 2;
	} else {
		f[n] = 0x60;
		f[n + 6] = proto;
		f[n + 7] = 64;
		memcpy(f + n + 8, hm_addr_src, 16);
		memcpy(f + n + 24, hm_addr_dst, 16);
	}
	n += l3;
	memset(f + n, 0, l4);
	put16(f + n, 33000);
	put16(f + n + 2, proto == 6 ? 80 : 5000);
	if (proto == 6) {
		put32(f + n + 4, 1000);
		f[n + 12] = (l4 / 4) << 4;
		f[n + 13] = 0x18;
		put16(f + n + 14, 65535);
		put16(f + n + 16, 0xabcd);	/* a CHECKSUM_PARTIAL-like pseudo sum */
		memset(f + n + 20, 1, opt);
	} else {
		put16(f + n + 4, 8 + plen);
	}
	n += l4;
	for (i = 0; i < plen; i++)
		f[n + i] = (__u8)(i * 13 + 5);
	n += plen;
	if (family == 4) {
		put16(f + ip + 2, n - ip);
		put16(f + ip + 10, ip4_csum(f + ip));
	} else {
		put16(f + ip + 4, n - ip - 40);
	}
	return n;
}

/* The flow hash the source uses for the UDP source port. */
static __u16 x_sport(const __u8 *f, int family, __u32 seed)
{
	struct hm_flow_key k = { 0 };
	const __u8 *ip = f + X_ETH, *l4 = ip + (family == 4 ? 20 : 40);

	k.family = family;
	k.proto = 6;
	memcpy(&k.sport, l4, 2);
	memcpy(&k.dport, l4 + 2, 2);
	if (family == 4) {
		memcpy(k.saddr, ip + 12, 4);
		memcpy(k.daddr, ip + 16, 4);
	} else {
		memcpy(k.saddr, ip + 8, 16);
		memcpy(k.daddr, ip + 24, 16);
	}
	return 0xc000 | (hm_flow_hash(&k, seed) & 0x3fff);
}

/*
 * The expected output for @in: @md (@nmd words, host order) this node's
 * metadata, @w0 the MD header's first word.
 */
static size_t x_expect(__u8 *out, const __u8 *in, size_t len, int family, __u32 w0,
		       __u16 bitmap, const __u32 *md, size_t nmd, __u32 seed)
{
	size_t l3 = family == 4 ? 20 : 40, hdr = X_ETH + l3, grow = 8 + 16 + nmd * 4, i;
	__u8 *ip = out + X_ETH, *u = out + hdr, *sh = u + 8;

	memcpy(out, in, hdr);
	memcpy(out + hdr + grow, in + hdr, len - hdr);
	if (family == 4) {
		put16(ip + 2, len - X_ETH + grow);
		ip[9] = 17;
		put16(ip + 10, 0);
		put16(ip + 10, ip4_csum(ip));
	} else {
		put16(ip + 4, len - X_ETH - 40 + grow);
		ip[6] = 17;
	}
	put16(u, x_sport(in, family, seed));
	put16(u + 2, X_PORT);
	put16(u + 4, len - hdr + grow);
	put16(u + 6, 0);
	sh[0] = 0x18;		/* Type 1 (MD), NPT 2 */
	sh[1] = 3 + nmd;
	sh[2] = 0;
	sh[3] = 6;		/* the original protocol, TCP */
	put32(sh + 4, w0);
	put16(sh + 8, bitmap);
	memset(sh + 10, 0, 6);
	for (i = 0; i < nmd; i++)
		put32(sh + 16 + 4 * i, md[i]);
	return len + grow;
}

static void x_run_cmp(const __u8 *in, size_t len, const __u8 *want, size_t want_len,
		      int ts_word)
{
	struct hm_run r;
	__u64 t0, t1, ts;
	__u8 got[4096];

	t0 = hm_now_ns(CLOCK_REALTIME);
	if (!hm_run_xdp(prog, env.if_in, in, len, &r))
		return;
	t1 = hm_now_ns(CLOCK_REALTIME);
	CHECK_EQ("XDP verdict (XDP_PASS)", XDP_PASS, r.retval);
	memcpy(got, r.out, r.out_len);
	if (ts_word >= 0 && r.out_len >= want_len) {
		/* The ingress timestamp: POSIX ns within the run, then copied over. */
		size_t o = ts_word;

		ts = (__u64)ntohl(*(__u32 *)&got[o]) << 32 | ntohl(*(__u32 *)&got[o + 4]);
		hm_check(ts >= t0 - 1000000 && ts <= t1 + 1000000,
			 "ingress timestamp %llu within the run [%llu, %llu]",
			 (unsigned long long)ts, (unsigned long long)t0, (unsigned long long)t1);
		memcpy(got + o, want + o, 8);
	}
	hm_check_bytes("frame", want, want_len, got, r.out_len);
}

static void t_ipv4_0x9000(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 in[256], want[512];
	__u32 md[2] = { HM_T_NODE_ID, INT_UNAVAIL32 };
	size_t len, wl;

	if (!x_setup())
		return;
	x_dom(&d, 0x9000);
	len = x_frame(in, 4, 12, 100, 6);
	wl = x_expect(want, in, len, 4, int_md_w0(0, 2, 7), 0x9000, md, 2, d.sel.seed);
	x_run_cmp(in, len, want, wl, -1);
	CHECK_EQ("src_ok", 1, x_stat(INT_CNT_SRC_OK));
}

static void t_ipv6_0xfc00(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 in[256], want[512];
	__u32 md[8] = { HM_T_NODE_ID, HM_T_IN_ID << 16 | 0xffff, INT_UNAVAIL32, INT_UNAVAIL32,
			0, 0, INT_UNAVAIL32, INT_UNAVAIL32 };
	size_t len, wl;

	if (!x_setup())
		return;
	x_dom(&d, 0xfc00);
	len = x_frame(in, 6, 0, 200, 6);
	wl = x_expect(want, in, len, 6, int_md_w0(0, 8, 7), 0xfc00, md, 8, d.sel.seed);
	/* md[4..5], the ingress timestamp, is checked for range. */
	x_run_cmp(in, len, want, wl, X_ETH + 40 + 8 + 16 + 16);
	CHECK_EQ("src_ok", 1, x_stat(INT_CNT_SRC_OK));
}

static void t_l2_buffer_reserved_ds(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 in[256], want[512];
	/* bits 6 (L2), 8 (buffer), 9 (reserved), then 2 DS words, bit 15 */
	__u32 md[7] = { HM_T_IN_ID_WIDE, INT_UNAVAIL32, HM_T_OCCUPANCY, INT_UNAVAIL32,
			INT_UNAVAIL32, INT_UNAVAIL32, INT_UNAVAIL32 };
	size_t len, wl;

	if (!x_setup())
		return;
	x_dom(&d, 0x02c1);
	d.hop_ml = 7;
	x_dom_set(&d);
	len = x_frame(in, 4, 0, 40, 6);
	wl = x_expect(want, in, len, 4, int_md_w0(0, 7, 7), 0x02c1, md, 7, d.sel.seed);
	x_run_cmp(in, len, want, wl, -1);
}

static void t_rhc0_e(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 in[256], want[512];
	size_t len, wl;

	if (!x_setup())
		return;
	x_dom(&d, 0x9000);
	d.max_hops = 0;
	x_dom_set(&d);
	len = x_frame(in, 4, 0, 40, 6);
	wl = x_expect(want, in, len, 4, int_md_w0(INT_MD_E, 2, 0), 0x9000, NULL, 0, d.sel.seed);
	x_run_cmp(in, len, want, wl, -1);
}

static void t_mtu(const struct hm_test *t)
{
	struct int_domain_cfg d;
	struct int_if_cfg ic = { .mtu = 0 };
	__u8 in[2048], want[2048];
	__u32 key = env.if_in, md[2] = { HM_T_NODE_ID, INT_UNAVAIL32 };
	size_t len, wl;
	struct hm_run r;

	if (!x_setup())
		return;
	x_dom(&d, 0x9000);
	len = x_frame(in, 4, 0, 1000, 6);	/* IP length 1040 */
	/* Room for the fixed 24 octets, not for the 8 of metadata: M. */
	ic.mtu = 1040 + 24 + 7;
	bpf_map_update_elem(fd_ifcfg, &key, &ic, BPF_ANY);
	wl = x_expect(want, in, len, 4, int_md_w0(INT_MD_M, 2, 8), 0x9000, NULL, 0, d.sel.seed);
	x_run_cmp(in, len, want, wl, -1);
	CHECK_EQ("src_mtu_m", 1, x_stat(INT_CNT_SRC_MTU_M));
	/* Exactly room for everything: INT with metadata. */
	ic.mtu = 1040 + 24 + 8;
	bpf_map_update_elem(fd_ifcfg, &key, &ic, BPF_ANY);
	wl = x_expect(want, in, len, 4, int_md_w0(0, 2, 7), 0x9000, md, 2, d.sel.seed);
	x_run_cmp(in, len, want, wl, -1);
	/* Not even room for the fixed headers: unchanged, counted. */
	ic.mtu = 1040 + 23;
	bpf_map_update_elem(fd_ifcfg, &key, &ic, BPF_ANY);
	if (hm_run_xdp(prog, env.if_in, in, len, &r))
		hm_check_bytes("frame left unchanged", in, len, r.out, r.out_len);
	CHECK_EQ("src_mtu_no_int", 1, x_stat(INT_CNT_SRC_MTU_NO_INT));
	CHECK_EQ("src_ok (M and full)", 2, x_stat(INT_CNT_SRC_OK));
}

/* A frame the source must leave alone, and the counter that says why. */
static void x_untouched(const __u8 *in, size_t len, int cnt, const char *why)
{
	struct hm_run r;

	if (!hm_run_xdp(prog, env.if_in, in, len, &r))
		return;
	CHECK_EQ("XDP verdict (XDP_PASS)", XDP_PASS, r.retval);
	hm_check_bytes(why, in, len, r.out, r.out_len);
	if (cnt >= 0)
		hm_check_eq(why, 1, x_stat(cnt));
}

static void t_untouched(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 in[256];
	size_t len;

	if (!x_setup())
		return;
	x_dom(&d, 0x9000);
	len = x_frame(in, 4, 0, 40, 17);
	x_untouched(in, len, INT_CNT_XDP_NOT_TCP, "UDP: the tc source's (xdp_not_tcp)");
	x_dom(&d, 0x9000);
	len = x_frame(in, 6, 0, 40, 17);
	put16(in + X_ETH + 40 + 2, X_PORT);
	x_untouched(in, len, INT_CNT_SRC_HAS_INT, "UDP to the INT port (src_has_int)");
	x_dom(&d, 0x9000);
	len = x_frame(in, 4, 0, 40, 6);
	in[X_ETH + 6] = 0x20;	/* MF: a first fragment */
	put16(in + X_ETH + 10, 0);
	put16(in + X_ETH + 10, ip4_csum(in + X_ETH));
	x_untouched(in, len, INT_CNT_SRC_PROTO, "IPv4 fragment (src_proto)");
	x_dom(&d, 0x9000);
	d.signal = INT_SIG_DSCP;
	d.dscp = 0x17;
	d.dscp_mask = 0x3f;
	x_dom_set(&d);
	len = x_frame(in, 4, 0, 40, 6);
	x_untouched(in, len, INT_CNT_XDP_UNSUPPORTED, "DSCP domain (xdp_unsupported)");
	x_dom(&d, 0x9000);
	d.sel.nr_rules = 1;
	d.sel.rules[0].family = 6;
	x_dom_set(&d);
	x_untouched(in, len, INT_CNT_SRC_NOT_WATCHED, "IPv4, the rule is IPv6 (src_not_watched)");
	x_dom(&d, 0x9000);
	d.flags = 0;
	x_dom_set(&d);
	x_untouched(in, len, INT_CNT_NOT_CONFIGURED, "domain not configured");
	/* Too short for its TCP header: passed to the stack, nothing written. */
	x_dom(&d, 0x9000);
	x_untouched(in, X_ETH + 20 + 10, -1, "TCP header cut short");
}

static void t_synthetic_d(const struct hm_test *t)
{
	struct int_domain_cfg d;
	__u8 in[256], want[512];
	__u32 md[2] = { HM_T_NODE_ID, INT_UNAVAIL32 };
	size_t len, wl;

	if (!x_setup())
		return;
	x_dom(&d, 0x9000);
	d.sel.nr_rules = 1;
	d.sel.rules[0].family = 4;
	d.sel.rules[0].proto = 6;
	d.sel.rules[0].flags = HM_SEL_F_SYNTHETIC;
	x_dom_set(&d);
	len = x_frame(in, 4, 0, 40, 6);
	wl = x_expect(want, in, len, 4, int_md_w0(INT_MD_D, 2, 7), 0x9000, md, 2, d.sel.seed);
	x_run_cmp(in, len, want, wl, -1);
}

void register_int_xdp_tests(void)
{
	hm_add_test(t_ipv4_0x9000, 0, "int_xdp_source_ipv4_tcp_npt2_bitmap_9000");
	hm_add_test(t_ipv6_0xfc00, 0, "int_xdp_source_ipv6_tcp_npt2_bitmap_fc00");
	hm_add_test(t_l2_buffer_reserved_ds, 0, "int_xdp_source_l2_buffer_reserved_ds_words_csum");
	hm_add_test(t_rhc0_e, 0, "int_xdp_source_max_hops_0_sets_e_no_metadata");
	hm_add_test(t_mtu, 0, "int_xdp_source_mtu_m_bit_and_no_int");
	hm_add_test(t_untouched, 0, "int_xdp_source_leaves_and_counts_what_it_cannot_do");
	hm_add_test(t_synthetic_d, 0, "int_xdp_source_synthetic_rule_sets_d");
}
