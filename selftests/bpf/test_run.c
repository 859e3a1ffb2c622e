// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_run.c - hopmark BPF programs under BPF_PROG_TEST_RUN: harness.
 *
 * The process enters its own mount and network namespaces, mounts a
 * private bpffs instance (TC_BPF_MNT points at it, so every pinned map is
 * this run's own), creates three veth devices whose ifindexes the runs use
 * (xdp_md.ingress_ifindex and __sk_buff.ifindex must name real devices),
 * loads the four programs through their skeletons with pin root
 * <bpffs>/tc/globals, and runs the named tests of test_transit.c,
 * test_encap.c and test_decap.c. Output is TAP; "1..0 # SKIP" when BPF
 * cannot be used at all (not root, no bpffs, no BPF syscall).
 */
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark.h"
#include "bpf_test.h"
/*
 * The Makefile builds all three skeletons first; when one is missing (a
 * partial build by hand), that program's tests fail with "program not
 * loaded" instead of the whole tier not building.
 */
#if __has_include("bpf/hopmark_encap.skel.h")
#include "bpf/hopmark_encap.skel.h"
#define HAVE_ENCAP 1
#endif
#if __has_include("bpf/hopmark_transit.skel.h")
#include "bpf/hopmark_transit.skel.h"
#define HAVE_TRANSIT 1
#endif
#if __has_include("bpf/hopmark_decap.skel.h")
#include "bpf/hopmark_decap.skel.h"
#define HAVE_DECAP 1
#endif

struct hm_env env = {
	.prog_encap = -1, .prog_transit_in = -1, .prog_transit_out = -1, .prog_decap = -1,
	.fd_node = -1, .fd_ifcfg = -1, .fd_ns = -1, .fd_encap = -1, .fd_encap_filter = -1,
	.fd_qdepth = -1,
	.fd_stats = -1, .fd_events = -1,
};

static char bpffs_dir[64];
static bool bpffs_mounted;
#ifdef HAVE_ENCAP
static struct hopmark_encap *skel_encap;
#endif
#ifdef HAVE_TRANSIT
static struct hopmark_transit *skel_transit;
#endif
#ifdef HAVE_DECAP
static struct hopmark_decap *skel_decap;
#endif
static struct ring_buffer *events_rb;

#ifdef HAVE_TRANSIT
/*
 * Fast path against general walk: two more copies of hopmark_transit with
 * the same fixed CLOCK_TAI reading, [0] free to read the common layout in
 * place, [1] forced through the general walk (hm_transit_general_only).
 * Every frame a test runs through hm_transit_in or hm_transit_out is also
 * run through both copies, which must return the same, write the same
 * bytes and count the same (each copy has a private hopmark_stats; every
 * other map is the run's pinned one).
 */
static struct hopmark_transit *skel_tfx[2];
static struct {
	unsigned long	runs;		/* frames run through the tested programs */
	unsigned long	compared;	/* of them, also through both copies */
	unsigned long	mismatched;
} tdiff;
#endif

/* ---- TAP ---- */

#define HM_MAX_TESTS	512
static struct hm_test tests[HM_MAX_TESTS];
static int n_tests;
static bool cur_failed;

void hm_add_test(hm_test_fn fn, __u32 arg, const char *fmt, ...)
{
	va_list ap;

	if (n_tests == HM_MAX_TESTS) {
		fprintf(stderr, "too many tests\n");
		exit(1);
	}
	va_start(ap, fmt);
	vsnprintf(tests[n_tests].name, sizeof(tests[n_tests].name), fmt, ap);
	va_end(ap);
	tests[n_tests].fn = fn;
	tests[n_tests].arg = arg;
	n_tests++;
}

void hm_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void hm_fail(const char *fmt, ...)
{
	va_list ap;

	cur_failed = true;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

bool hm_failed(void)
{
	return cur_failed;
}

bool hm_check_eq(const char *what, unsigned long long exp, unsigned long long got)
{
	if (exp == got)
		return true;
	hm_fail("%s: expected 0x%llx (%llu), got 0x%llx (%llu)", what, exp, exp, got, got);
	return false;
}

bool hm_check(bool cond, const char *fmt, ...)
{
	va_list ap;

	if (cond)
		return true;
	cur_failed = true;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return false;
}

bool hm_check_bytes(const char *what, const void *exp, size_t exp_len,
		    const void *got, size_t got_len)
{
	const __u8 *e = exp, *g = got;
	size_t i, n = exp_len < got_len ? exp_len : got_len;
	int shown = 0;
	bool ok = true;

	if (exp_len != got_len) {
		hm_fail("%s: length expected %zu, got %zu", what, exp_len, got_len);
		ok = false;
	}
	for (i = 0; i < n; i++) {
		if (e[i] == g[i])
			continue;
		if (shown++ < 8)
			hm_fail("%s: byte at offset %zu expected 0x%02x, got 0x%02x",
				what, i, e[i], g[i]);
		ok = false;
	}
	if (shown > 8)
		hm_fail("%s: %d bytes differ in all", what, shown);
	return ok;
}

/*
 * Timestamp fields of a slot must lie in [t0, t1] (CLOCK_REALTIME ns around
 * the run) shifted by @shift ns; microsecond truncation and 1 us of clock
 * read skew are allowed below t0. Stores what was found in @v.
 */
void hm_check_ts(__u32 type, const __u8 *slot, __u64 t0, __u64 t1, __s64 shift,
		     struct hm_ioam6_node_values *v)
{
	bool has_sec = type & HM_IOAM_TT_TS_SEC, has_frac = type & HM_IOAM_TT_TS_FRAC;
	__u64 lo = t0 - shift, hi = t1 - shift;
	__u32 sec = 0, frac = 0;

	lo = lo / 1000 * 1000 - 1000;
	if (has_sec)
		sec = hm_get_be32(slot + field_off(type, 2));
	if (has_frac) {
		frac = hm_get_be32(slot + field_off(type, 3));
		hm_check(frac < 1000000, "timestamp fraction: expected < 1000000 us, got %u", frac);
	}
	if (has_sec && has_frac) {
		__u64 ts = (__u64)sec * 1000000000ULL + (__u64)frac * 1000;

		hm_check(ts >= lo && ts <= hi,
			 "timestamp: expected in [%llu, %llu] ns, got %llu ns (%u s + %u us)",
			 (unsigned long long)lo, (unsigned long long)hi,
			 (unsigned long long)ts, sec, frac);
	} else if (has_sec) {
		hm_check(sec >= lo / 1000000000ULL && sec <= hi / 1000000000ULL,
			 "timestamp seconds: expected in [%llu, %llu], got %u",
			 (unsigned long long)(lo / 1000000000ULL),
			 (unsigned long long)(hi / 1000000000ULL), sec);
	} else if (has_frac) {
		__u32 us0 = lo / 1000 % 1000000, us1 = hi / 1000 % 1000000;
		bool in = us0 <= us1 ? (frac >= us0 && frac <= us1) : (frac >= us0 || frac <= us1);

		hm_check(in, "timestamp fraction: expected in [%u, %u] us, got %u", us0, us1, frac);
	}
	v->ts_sec = sec;
	v->ts_frac = frac;
}

/* ---- maps (the setters are in maps.c) ---- */

static bool any_entry(int fd, const void *key, void *ctx)
{
	return true;
}

/* Every entry deleted (the arrays' entries zeroed, hm_map_delete_if()). */
static void map_clear(int fd, size_t key_size)
{
	if (fd >= 0)
		hm_map_delete_if(fd, key_size, any_entry, NULL);
}

/* ---- ring buffer ---- */

struct events_ctx {
	struct hopmark_ioam_record *recs;
	int max;
	int n;
};

static struct events_ctx *events_cur;

static int events_cb(void *ctx, void *data, size_t size)
{
	struct events_ctx *c = events_cur;

	if (!c)
		return 0;
	if (size != sizeof(struct hopmark_ioam_record))
		hm_fail("ring buffer record: size expected %zu, got %zu",
			sizeof(struct hopmark_ioam_record), size);
	if (c->n < c->max)
		memcpy(&c->recs[c->n], data, size < sizeof(c->recs[0]) ? size : sizeof(c->recs[0]));
	c->n++;
	return 0;
}

int hm_events_consume(struct hopmark_ioam_record *recs, int max)
{
	struct events_ctx c = { .recs = recs, .max = max };

	if (!events_rb)
		return -1;
	events_cur = &c;
	ring_buffer__consume(events_rb);
	events_cur = NULL;
	return c.n;
}

/* ---- runs ---- */

#ifdef HAVE_TRANSIT
/* hopmark_stats[@ifindex] of map @fd, summed over CPUs. */
static void tdiff_counters(int fd, __u32 ifindex, __u64 *sum)
{
	struct hopmark_link_stats *v = calloc(env.ncpus, sizeof(*v));
	int c, k;

	memset(sum, 0, HM_CNT_MAX * sizeof(*sum));
	if (v && !bpf_map_lookup_elem(fd, &ifindex, v))
		for (c = 0; c < env.ncpus; c++)
			for (k = 0; k < HM_CNT_MAX; k++)
				sum[k] += v[c].cnt[k];
	free(v);
}

/*
 * Run the frame a test just ran through @which (0 = hm_transit_in, XDP;
 * 1 = hm_transit_out, tc) through both fixed-clock copies and compare.
 */
static void tdiff_run(int which, __u32 ifindex, void *ctx, size_t ctx_size,
		      const void *in, size_t len)
{
	static __u8 out[2][4096];
	__u64 before[2][HM_CNT_MAX], after[2][HM_CNT_MAX];
	__u32 out_len[2], retval[2];
	int err[2], k, i;

	tdiff.runs++;
	if (!skel_tfx[0] || !skel_tfx[1])
		return;
	for (k = 0; k < 2; k++) {
		struct bpf_program *prog = which ? skel_tfx[k]->progs.hm_transit_out :
						   skel_tfx[k]->progs.hm_transit_in;
		int stats = bpf_map__fd(skel_tfx[k]->maps.hopmark_stats);
		LIBBPF_OPTS(bpf_test_run_opts, o,
			.data_in = in, .data_size_in = len,
			.data_out = out[k], .data_size_out = sizeof(out[k]),
			.ctx_in = ctx, .ctx_size_in = ctx_size,
			.repeat = 1);

		tdiff_counters(stats, ifindex, before[k]);
		err[k] = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);
		out_len[k] = o.data_size_out;
		retval[k] = o.retval;
		tdiff_counters(stats, ifindex, after[k]);
	}
	tdiff.compared++;
	if (err[0] != err[1] || retval[0] != retval[1] || out_len[0] != out_len[1]) {
		hm_fail("%s fast path vs general walk: err %d/%d, retval %u/%u, length %u/%u",
			which ? "hm_transit_out" : "hm_transit_in", err[0], err[1],
			retval[0], retval[1], out_len[0], out_len[1]);
		tdiff.mismatched++;
		return;
	}
	for (i = 0; i < (int)out_len[0]; i++)
		if (out[0][i] != out[1][i]) {
			hm_fail("%s fast path vs general walk: byte %d: 0x%02x, general 0x%02x",
				which ? "hm_transit_out" : "hm_transit_in", i, out[0][i], out[1][i]);
			tdiff.mismatched++;
			return;
		}
	for (i = 0; i < HM_CNT_MAX; i++)
		if (after[0][i] - before[0][i] != after[1][i] - before[1][i]) {
			hm_fail("%s fast path vs general walk: %s moved by %llu, general by %llu",
				which ? "hm_transit_out" : "hm_transit_in",
				hopmark_counter_names[i],
				(unsigned long long)(after[0][i] - before[0][i]),
				(unsigned long long)(after[1][i] - before[1][i]));
			tdiff.mismatched++;
			return;
		}
}

static void t_transit_diff(const struct hm_test *t)
{
	__u64 hits_fast = skel_tfx[0] ? skel_tfx[0]->bss->hm_transit_fast_hits : 0;
	__u64 hits_general = skel_tfx[1] ? skel_tfx[1]->bss->hm_transit_fast_hits : 0;

	hm_diag("%lu transit frames run, %lu compared, %lu differ; fast path taken for %llu",
		tdiff.runs, tdiff.compared, tdiff.mismatched, (unsigned long long)hits_fast);
	if (!tdiff.runs)
		return;		/* no transit test selected */
	CHECK_EQ("frames compared (both copies loaded)", tdiff.runs, tdiff.compared);
	CHECK_EQ("frames whose outputs differ", 0, tdiff.mismatched);
	CHECK_EQ("fast path taken by the general-walk copy", 0, hits_general);
	hm_check(hits_fast > 0, "the fast path was taken at least once");
}
#endif

bool hm_run_xdp(int prog_fd, int ifindex, const void *in, size_t len, struct hm_run *r)
{
	struct xdp_md ctx = { .data_end = len, .ingress_ifindex = ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = in, .data_size_in = len,
		.data_out = r->out, .data_size_out = sizeof(r->out),
		.ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
		.repeat = 1);

	if (prog_fd < 0) {
		hm_fail("program not loaded");
		return false;
	}
	r->t0 = hm_now_ns(CLOCK_REALTIME);
	r->err = bpf_prog_test_run_opts(prog_fd, &o);
	r->t1 = hm_now_ns(CLOCK_REALTIME);
	r->out_len = o.data_size_out;
	r->retval = o.retval;
	if (r->err) {
		hm_fail("bpf_prog_test_run_opts (xdp, %zu bytes): %s", len, strerror(errno));
		return false;
	}
#ifdef HAVE_TRANSIT
	if (prog_fd == env.prog_transit_in) {
		struct xdp_md c2 = { .data_end = len, .ingress_ifindex = ifindex };

		tdiff_run(0, ifindex, &c2, sizeof(c2), in, len);
	}
#endif
	return true;
}

static bool run_tc(int prog_fd, struct __sk_buff *ctx, const void *in, size_t len,
		   struct hm_run *r)
{
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = in, .data_size_in = len,
		.data_out = r->out, .data_size_out = sizeof(r->out),
		.ctx_in = ctx, .ctx_size_in = sizeof(*ctx),
		.repeat = 1);

	if (prog_fd < 0) {
		hm_fail("program not loaded");
		return false;
	}
	r->t0 = hm_now_ns(CLOCK_REALTIME);
	r->err = bpf_prog_test_run_opts(prog_fd, &o);
	r->t1 = hm_now_ns(CLOCK_REALTIME);
	r->out_len = o.data_size_out;
	r->retval = o.retval;
	if (r->err) {
		hm_fail("bpf_prog_test_run_opts (tc, %zu bytes): %s", len, strerror(errno));
		return false;
	}
#ifdef HAVE_TRANSIT
	if (prog_fd == env.prog_transit_out)
		tdiff_run(1, ctx->ifindex, ctx, sizeof(*ctx), in, len);
#endif
	return true;
}

bool hm_run_tc(int prog_fd, int ifindex, int iif, const void *in, size_t len, struct hm_run *r)
{
	struct __sk_buff ctx = { .ifindex = ifindex, .ingress_ifindex = iif };

	return run_tc(prog_fd, &ctx, in, len, r);
}

/* ---- this kernel's verdict on a Hop-by-Hop header ---- */

#ifndef IPV6_HOPOPTS
#define IPV6_HOPOPTS	54	/* include/uapi/linux/in6.h */
#endif

static int lo_rx = -1, lo_tx = -1;
static struct sockaddr_in6 lo_addr;

/* Ip6InHdrErrors of the test's network namespace, -1 when unreadable. */
static long long in_hdr_errors(void)
{
	FILE *f = fopen("/proc/net/snmp6", "r");
	long long v, found = -1;
	char name[64];

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", name, &v) == 2)
		if (!strcmp(name, "Ip6InHdrErrors"))
			found = v;
	fclose(f);
	return found;
}

static bool lo_open(void)
{
	socklen_t alen = sizeof(lo_addr);

	if (lo_rx >= 0 && lo_tx >= 0)
		return true;
	lo_rx = socket(AF_INET6, SOCK_DGRAM, 0);
	lo_tx = socket(AF_INET6, SOCK_DGRAM, 0);
	memset(&lo_addr, 0, sizeof(lo_addr));
	lo_addr.sin6_family = AF_INET6;
	lo_addr.sin6_addr = in6addr_loopback;
	if (lo_rx < 0 || lo_tx < 0 ||
	    bind(lo_rx, (struct sockaddr *)&lo_addr, sizeof(lo_addr)) ||
	    getsockname(lo_rx, (struct sockaddr *)&lo_addr, &alen))
		return false;
	return true;
}

int hm_kernel_hbh(const __u8 *hbh, size_t len)
{
	static __u32 cookie;
	__u32 c = ++cookie, got;
	long long e0;
	int i;

	if (len < 8 || (size_t)(hbh[1] + 1) * 8 > len || !lo_open())
		return -1;
	len = (size_t)(hbh[1] + 1) * 8;
	while (recv(lo_rx, &got, sizeof(got), MSG_DONTWAIT) >= 0)
		;
	e0 = in_hdr_errors();
	if (e0 < 0 || setsockopt(lo_tx, IPPROTO_IPV6, IPV6_HOPOPTS, hbh, len) ||
	    sendto(lo_tx, &c, sizeof(c), 0, (struct sockaddr *)&lo_addr,
		   sizeof(lo_addr)) != sizeof(c))
		return -1;
	for (i = 0; i < 100; i++) {
		struct pollfd pfd = { .fd = lo_rx, .events = POLLIN };

		if (poll(&pfd, 1, 10) > 0 &&
		    recv(lo_rx, &got, sizeof(got), MSG_DONTWAIT) == sizeof(got) && got == c)
			return 1;
		if (in_hdr_errors() > e0)
			return 0;
	}
	return -1;
}

bool hm_check_hbh_linux(const char *what, const __u8 *hbh, size_t len, bool accepts)
{
	char why[128] = "";
	bool model = hbh_linux_accepts(hbh, len, why, sizeof(why));
	int k = hm_kernel_hbh(hbh, len);
	bool ok;

	ok = hm_check(model == accepts,
		      "%s: by Linux's rules (hbh_linux_accepts()): expected %s, got %s%s%s",
		      what, accepts ? "accepted" : "rejected", model ? "accepted" : "rejected",
		      model ? "" : ": ", why);
	ok &= hm_check(k == accepts,
		       "%s: this kernel, over loopback: expected %s, got %s", what,
		       accepts ? "delivered" : "dropped (Ip6InHdrErrors)",
		       k == 1 ? "delivered" : k == 0 ? "dropped (Ip6InHdrErrors)" :
		       "neither within 1 s, or not sent");
	return ok;
}

/* ---- setup ---- */

static void skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(0);
}

static void cleanup(void)
{
	if (events_rb)
		ring_buffer__free(events_rb);
#ifdef HAVE_ENCAP
	hopmark_encap__destroy(skel_encap);
#endif
#ifdef HAVE_TRANSIT
	hopmark_transit__destroy(skel_transit);
	hopmark_transit__destroy(skel_tfx[0]);
	hopmark_transit__destroy(skel_tfx[1]);
#endif
#ifdef HAVE_DECAP
	hopmark_decap__destroy(skel_decap);
#endif
	if (bpffs_mounted)
		umount2(bpffs_dir, MNT_DETACH);
	if (bpffs_dir[0])
		rmdir(bpffs_dir);
}

/* Killed (e.g. SIGPIPE from a pager): still unmount and remove the bpffs. */
static void on_signal(int sig)
{
	if (bpffs_mounted)
		umount2(bpffs_dir, MNT_DETACH);
	if (bpffs_dir[0])
		rmdir(bpffs_dir);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int make_veth(const char *a, const char *b, int mtu)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd),
		 "ip link add %s mtu %d type veth peer name %s mtu %d >/dev/null 2>&1",
		 a, mtu, b, mtu);
	if (system(cmd))
		return -1;
	return if_nametoindex(a);
}

#ifdef HAVE_TRANSIT
/*
 * A copy of hopmark_transit for tdiff_run(): fixed CLOCK_TAI, the general
 * walk only when @general, and a private hopmark_stats.
 */
static struct hopmark_transit *load_transit_fixed(const struct bpf_object_open_opts *oo,
						  int general, __u64 tai_ns)
{
	struct hopmark_transit *sk = hopmark_transit__open_opts(oo);

	if (!sk)
		return NULL;
	sk->rodata->hm_transit_general_only = general;
	sk->rodata->hm_transit_fixed_tai_ns = tai_ns;
	if (bpf_map__set_pin_path(sk->maps.hopmark_stats, NULL) || hopmark_transit__load(sk)) {
		hopmark_transit__destroy(sk);
		return NULL;
	}
	return sk;
}
#endif

bool hm_general_path(void)
{
	const char *v = getenv("HM_BPF_GENERAL_PATH");

	return v && *v && strcmp(v, "0");
}

static void load_skeletons(const char *pin_root, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = pin_root);
#ifdef HAVE_TRANSIT
	__u64 tai_ns;
#endif

#ifdef HAVE_ENCAP
	skel_encap = hopmark_encap__open_opts(&oo);
	if (skel_encap)
		skel_encap->rodata->hm_encap_general_only = hm_general_path();
	if (skel_encap && !hm_events_fit_pin(skel_encap->obj, pin_root) &&
	    !hopmark_encap__load(skel_encap)) {
		env.prog_encap = bpf_program__fd(skel_encap->progs.hm_encap);
	} else {
		hopmark_encap__destroy(skel_encap);
		skel_encap = NULL;
		snprintf(err, errlen, "hopmark_encap did not load");
	}
#else
	snprintf(err, errlen, "hopmark_encap.skel.h was not built");
#endif
#ifdef HAVE_TRANSIT
	skel_transit = hopmark_transit__open_opts(&oo);
	if (skel_transit && !hm_events_fit_pin(skel_transit->obj, pin_root) && !hopmark_transit__load(skel_transit)) {
		env.prog_transit_in = bpf_program__fd(skel_transit->progs.hm_transit_in);
		env.prog_transit_out = bpf_program__fd(skel_transit->progs.hm_transit_out);
	} else {
		hopmark_transit__destroy(skel_transit);
		skel_transit = NULL;
		snprintf(err, errlen, "hopmark_transit did not load");
	}
	tai_ns = hm_now_ns(CLOCK_TAI);
	skel_tfx[0] = load_transit_fixed(&oo, 0, tai_ns);
	skel_tfx[1] = load_transit_fixed(&oo, 1, tai_ns);
	if (!skel_tfx[0] || !skel_tfx[1])
		fprintf(stderr, "warning: the fixed-clock copies of hopmark_transit did not load\n");
#else
	snprintf(err, errlen, "hopmark_transit.skel.h was not built");
#endif
#ifdef HAVE_DECAP
	skel_decap = hopmark_decap__open_opts(&oo);
	if (skel_decap)
		skel_decap->rodata->hm_decap_general_only = hm_general_path();
	if (skel_decap && !hm_events_fit_pin(skel_decap->obj, pin_root) &&
	    !hopmark_decap__load(skel_decap)) {
		env.prog_decap = bpf_program__fd(skel_decap->progs.hm_decap);
	} else {
		hopmark_decap__destroy(skel_decap);
		skel_decap = NULL;
		snprintf(err, errlen, "hopmark_decap did not load");
	}
#else
	snprintf(err, errlen, "hopmark_decap.skel.h was not built");
#endif
	if (err[0])
		fprintf(stderr, "warning: %s; its tests fail\n", err);
}

static int open_pinned(const char *pin_root, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", pin_root, name);
	return bpf_obj_get(path);
}

static void setup(void)
{
	char pin_root[128], err[128] = "";
	struct timex tx = { 0 };
	int fd;

	if (geteuid() != 0)
		skip_all("needs root (BPF, bpffs, netns)");
	if (unshare(CLONE_NEWNS | CLONE_NEWNET))
		skip_all("unshare(CLONE_NEWNS|CLONE_NEWNET) failed");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		skip_all("cannot make mounts private");
	strcpy(bpffs_dir, "/tmp/hmt-bpf-XXXXXX");
	if (!mkdtemp(bpffs_dir)) {
		bpffs_dir[0] = 0;
		skip_all("mkdtemp failed");
	}
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, on_signal);
	signal(SIGHUP, on_signal);
	if (mount("bpf", bpffs_dir, "bpf", 0, NULL))
		skip_all("cannot mount a bpffs instance");
	bpffs_mounted = true;
	setenv(HM_BPFFS_ENV, bpffs_dir, 1);
	snprintf(pin_root, sizeof(pin_root), "%s/tc", bpffs_dir);
	mkdir(pin_root, 0700);
	snprintf(pin_root, sizeof(pin_root), "%s/%s", bpffs_dir, HM_PIN_SUBDIR);
	mkdir(pin_root, 0700);

	/* Is BPF usable at all? */
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "hmt_probe", 4, 4, 1, NULL);
	if (fd < 0)
		skip_all("BPF maps cannot be created (no BPF syscall or no privilege)");
	close(fd);

	/* Loopback carries hm_kernel_hbh()'s datagrams. */
	if (system("ip link set dev lo up >/dev/null 2>&1"))
		skip_all("cannot bring up lo in the test's network namespace");
	env.if_in = make_veth("hmt-in", "hmt-in-p", 1500);
	env.if_out = make_veth("hmt-out", "hmt-out-p", 1500);
	env.if_enc = make_veth("hmt-enc", "hmt-enc-p", HM_ENC_MTU);
	if (env.if_in <= 0 || env.if_out <= 0 || env.if_enc <= 0)
		skip_all("cannot create veth devices (ip link add ... type veth)");

	if (adjtimex(&tx) >= 0)
		env.tai_offset_ns = (__s64)tx.tai * 1000000000LL;
	env.ncpus = libbpf_num_possible_cpus();

	libbpf_set_print(hm_libbpf_errors_only);
	/* Maps first, as the CLI does; the programs then reuse the pins. */
	fd = hm_maps_create();
	if (fd < 0)
		fprintf(stderr, "warning: hm_maps_create(): %s\n", strerror(-fd));
	load_skeletons(pin_root, err, sizeof(err));
	env.fd_node = open_pinned(pin_root, HM_MAP_NODE);
	env.fd_ifcfg = open_pinned(pin_root, HM_MAP_IFCFG);
	env.fd_ns = open_pinned(pin_root, HM_MAP_NS);
	env.fd_encap = open_pinned(pin_root, HM_MAP_ENCAP);
	env.fd_encap_filter = open_pinned(pin_root, HM_MAP_ENCAP_FILTER);
	env.fd_qdepth = open_pinned(pin_root, HM_MAP_QDEPTH);
	env.fd_stats = open_pinned(pin_root, HM_MAP_STATS);
	env.fd_events = open_pinned(pin_root, HM_MAP_EVENTS);
	if (env.fd_events >= 0)
		events_rb = ring_buffer__new(env.fd_events, events_cb, NULL, NULL);
}

/* Every test starts from the same maps: node R (ID 2) and one namespace. */
static void reset_maps(void)
{
	struct hopmark_ioam_record drain[4];

	map_clear(env.fd_ifcfg, 4);
	map_clear(env.fd_ns, 4);
	map_clear(env.fd_encap, sizeof(struct hopmark_encap_key));
	/* Zeros: not trusted until a test's hm_set_encap() computes it. */
	map_clear(env.fd_encap_filter, 4);
	map_clear(env.fd_qdepth, 4);
	map_clear(env.fd_stats, 4);
	while (hm_events_consume(drain, 4) > 0)
		;
	hm_maps_defaults();
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	int i, n = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	setup();
	register_transit_tests();
	register_encap_tests();
	register_decap_tests();
#ifdef HAVE_TRANSIT
	/* Last: it checks what every transit test before it ran. */
	hm_add_test(t_transit_diff, 0, "transit_fast_path_agrees_with_general_walk_on_every_frame");
#endif
	register_int_drop_tests();
	register_int_xdp_tests();

	for (i = 0; i < n_tests; i++)
		if (!only || strstr(tests[i].name, only))
			n++;
	printf("1..%d\n", n);
	if (hm_general_path())
		hm_diag("HM_BPF_GENERAL_PATH: encap, decap and PINT take their general paths only");
	n = 0;
	for (i = 0; i < n_tests; i++) {
		if (only && !strstr(tests[i].name, only))
			continue;
		cur_failed = false;
		reset_maps();
		tests[i].fn(&tests[i]);
		printf("%s %d - %s\n", cur_failed ? "not ok" : "ok", ++n, tests[i].name);
		failed += cur_failed;
	}
	return failed ? 1 : 0;
}
