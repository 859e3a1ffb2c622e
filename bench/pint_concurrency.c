// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_concurrency.c - build/bench/pint-concurrency: PINT's three queries
 * at once (Ben Basat et al., "PINT", SIGCOMM 2020, the evaluation's
 * concurrent run of path tracing, latency quantiles and HPCC's
 * utilisation): what sharing a 16-bit budget, 8 bits per query, costs each
 * query against the same query alone with its 8 bits on every packet.
 *
 * Everything a domain would run is the real code: the settings are built
 * as `hopmark pint query add` builds them (lib/pint/pint_settings.c, which
 * makes the query plan, the path scheme and the latency table); each hop
 * applies the datapath's per-hop step (pint_hop() of bpf/pint.bpf.c, here
 * in userspace with the same lib/pint calls: pint_query_select(),
 * pint_path_hop(), pint_lat_act_hash() and pint_lat_compress(),
 * pint_util_q16() and pint_util_encode()); the sink is lib/pint/pint_sink.c
 * fed with struct pint_record, read back through pint_sink_to_json() (its
 * path decoder, its per-hop KLL sketches, its utilisation fields).
 *
 * One trial: a flow over k hops whose switch IDs are drawn from 1..U, with
 * fresh hash seeds and fresh random packet IDs. Every configuration of the
 * trial sees the same packets (IDs, per-hop latencies, per-hop
 * utilisations), so alone and concurrent runs are compared pairwise:
 *
 *   path       packets of the flow until the sink's decoder completes the
 *              path (every decoded path is checked against the true one)
 *   latency    after N packets, per hop, |sink p50 - exact median of the N
 *              latencies at that hop| / exact median, averaged over hops
 *   util       per packet, |U the sink last received - true max U of the
 *              path at this packet| / true max U, averaged over the N
 *              packets (what an HPCC sender acting on its latest feedback
 *              sees); every received code must be the code of the true
 *              maximum (checked per packet)
 *
 * Output is deterministic for a seed: trials are independent, their
 * results are stored by trial number, whatever the thread count. Exit 1
 * when a check fails (a path decoded wrong or not at all, a query never
 * carried, a carried fraction away from the plan's, a utilisation code
 * that is not the path's maximum, a latency error above its bound).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "pint/pint_maps.h"
#include "pint/pint_settings.h"
#include "pint/pint_sink.h"

#include "bench_rand.h"

#define MAX_K		PINT_MAX_HOPS
#define BITS		8		/* per query */
#define BUDGET		16		/* global */
/* A flow whose path is not decoded by then counts as a failure. */
#define MAX_PACKETS	200000UL
/* Latency scale of the latency query (as pint-latency-eval). */
#define LAT_MIN_NS	1000ULL
#define LAT_MAX_NS	10000000ULL
/* Utilisation workload: period of the per-hop sine, packets; amplitude. */
#define UTIL_PERIOD	1000.0
#define UTIL_AMPL	0.2
/* Link of every hop: 100 Gb/s, base RTT 10 us (BDP 125000 bytes). */
#define LINK_BPS	100000000000ULL
#define BASE_RTT_NS	10000ULL
/*
 * A flow whose p50 error, averaged over its hops, is above this fails the
 * run (stated in pint.rst): far above the sampling error of N >= 1000
 * packets, far below that of a field read from the wrong bits.
 */
#define LAT_ERR_BOUND	0.20

/* Configurations of one trial: each query alone, then the shared plans. */
enum { C_PATH, C_LAT, C_UTIL, C_EQUAL, C_UTIL_W44, C_UTIL_W3, C_COUNT };
#define C_FIRST_SHARED	C_EQUAL

static const char *const conf_name[C_COUNT] = {
	[C_PATH] = "path alone", [C_LAT] = "latency alone", [C_UTIL] = "util alone",
	[C_EQUAL] = "shared, equal weights", [C_UTIL_W44] = "shared, util w 0.044",
	[C_UTIL_W3] = "shared, util w 0.003",
};

/* Query indices in a shared plan: the settings' kind order. */
enum { Q_PATH, Q_LAT, Q_UTIL, Q_COUNT };

static const char *const hop_desc[5] = {
	"lognormal median 20 us, sigma 0.5",
	"lognormal median 5 us, sigma 1.0",
	"Pareto x_m 10 us, alpha 2.5",
	"Pareto x_m 2 us, alpha 1.5",
	"90% lognormal 3 us s 0.3 + 10% lognormal 300 us s 0.2",
};

struct params {
	unsigned int	k;
	unsigned int	universe;
	unsigned long	n;		/* latency/util packets per flow */
	unsigned int	trials;
	__u64		seed;
	unsigned int	threads;
};

/* What one (trial, configuration) run measured. */
struct run {
	unsigned long	path_pk;	/* packets until decoded, 0: not */
	int		path_ok;	/* decoded path == true path */
	double		lat_err;	/* mean over hops of the p50 error */
	double		lat_err_max;	/* worst hop */
	double		util_err;	/* mean tracking error */
	unsigned long	fed;		/* packets given to the sink */
	unsigned long	carried[Q_COUNT];	/* of them, packets per query */
	unsigned long	util_bad;	/* util codes not the path maximum's */
	unsigned long	lat_hops_empty;	/* hops without a latency sample */
	int		err;		/* setup error (errno) */
};

struct shared {
	const struct params	*p;
	struct run		*runs;		/* [trial][C_COUNT] */
	unsigned int		next;
	pthread_mutex_t		lock;
};

/* Latency of hop @hop (1-based) on packet @n of the trial, ns. */
static double lat_draw(__u64 tseed, unsigned long n, unsigned int hop)
{
	__u64 s = bench_hash64(tseed ^ 0x1a7e, (__u64)n << 7 | hop);

	switch ((hop - 1) % 5) {
	case 0:
		return 20000.0 * exp(0.5 * bench_normal(&s));
	case 1:
		return 5000.0 * exp(1.0 * bench_normal(&s));
	case 2:
		return 10000.0 / pow(bench_unif01(&s), 1.0 / 2.5);
	case 3:
		return 2000.0 / pow(bench_unif01(&s), 1.0 / 1.5);
	default:
		if (bench_unif01(&s) < 0.9)
			return 3000.0 * exp(0.3 * bench_normal(&s));
		return 300000.0 * exp(0.2 * bench_normal(&s));
	}
}

/*
 * Utilisation workload: hop h's U at packet n is m_h + A sin(2 pi (n / P +
 * phi_h)), m_h uniform in [0.3, 1.1], phi_h uniform, per trial: the
 * bottleneck moves along the path as the sines cross. U above 1 is a
 * queue: the link sends at capacity and holds (U - 1) BDP bytes.
 */
struct util_wl {
	double	m[MAX_K];
	double	phi[MAX_K];
	__u64	bdp;
	__u64	cap;
};

static __u32 util_q16(const struct util_wl *u, unsigned long n, unsigned int hop)
{
	double x = u->m[hop - 1] + UTIL_AMPL * sin(2 * M_PI * (n / UTIL_PERIOD + u->phi[hop - 1]));
	double rate = x < 1.0 ? x : 1.0, queue = x > 1.0 ? x - 1.0 : 0.0;

	if (rate < 0)
		rate = 0;
	return pint_util_q16((__u64)(queue * u->bdp), u->bdp, (__u64)(rate * u->cap), u->cap);
}

/*
 * One hop of the datapath (bpf/pint.bpf.c pint_hop()) in userspace: the
 * packet's subset from its ID, then each query present updates its field.
 */
static __u32 hop_step(const struct pint_domain_cfg *cfg, __u32 set, __u32 pid, __u32 hop,
		      __u32 id, __u64 tseed, unsigned long n, __u32 u_q16, __u32 digest)
{
	const struct pint_query_set *qs = &cfg->plan.set[set];
	__u32 off, bits, f, ah;

	if (cfg->q_path != PINT_QUERY_NONE && (off = qs->offset[cfg->q_path]) != PINT_QUERY_NONE) {
		bits = cfg->plan.bits[cfg->q_path];
		f = pint_path_hop(&cfg->path, pid, hop, id, pint_field_get(digest, off, bits));
		digest = pint_field_set(digest, off, bits, f);
	}
	if (cfg->q_lat != PINT_QUERY_NONE && (off = qs->offset[cfg->q_lat]) != PINT_QUERY_NONE) {
		ah = pint_lat_act_hash(&cfg->plan.seeds, pid, hop);
		if (ah <= pint_prob_thresh_baseline(hop)) {
			__u64 ns = (__u64)llround(lat_draw(tseed, n, hop));

			bits = cfg->plan.bits[cfg->q_lat];
			digest = pint_field_set(digest, off, bits,
						pint_lat_compress(&cfg->lat, ns, ah));
		}
	}
	if (cfg->q_util != PINT_QUERY_NONE && (off = qs->offset[cfg->q_util]) != PINT_QUERY_NONE) {
		bits = cfg->plan.bits[cfg->q_util];
		f = pint_util_field(pint_util_encode(u_q16), bits);
		if (f > pint_field_get(digest, off, bits))
			digest = pint_field_set(digest, off, bits, f);
	}
	return digest;
}

/*
 * Weight of the utilisation query in each shared plan, in 1/1000 (path and
 * latency keep weight 1000): equal weights put every query on 2/3 of the
 * packets; 44 puts util on 1/15.9 of them (HPCC-PINT's p = 1/16), 3 on
 * 1/223 (near its p = 1/256). The plan prints the exact fractions.
 */
static const __u32 util_weight[C_COUNT] = {
	[C_EQUAL] = 1000, [C_UTIL_W44] = 44, [C_UTIL_W3] = 3,
};

/*
 * The settings of configuration @c, as `hopmark pint query add` writes
 * them: budget 16, 8-bit queries, the engine's plan for their weights.
 */
static int conf_build(struct pint_domain_cfg *cfg, int c, const struct params *p, __u32 seed)
{
	struct pint_query_args qa[Q_COUNT] = {
		{ .kind = PINT_KIND_PATH, .bits = BITS, .max_hops = p->k },
		{ .kind = PINT_KIND_LATENCY, .bits = BITS, .lat_min_ns = LAT_MIN_NS,
		  .lat_max_ns = LAT_MAX_NS },
		{ .kind = PINT_KIND_UTIL, .bits = BITS, .weight = util_weight[c] },
	};
	char msg[256];
	int i, err;

	memset(cfg, 0, sizeof(*cfg));
	pint_cfg_defaults(cfg);
	cfg->plan.budget = BUDGET;
	cfg->base_rtt_ns = BASE_RTT_NS;
	pint_cfg_set_seed(cfg, seed);
	err = pint_cfg_set_ids(cfg, 1, p->universe);
	if (err)
		snprintf(msg, sizeof(msg), "switch IDs 1..%u: too many", p->universe);
	for (i = 0; i < Q_COUNT && !err; i++) {
		if (c < C_FIRST_SHARED && c != i)
			continue;
		err = pint_cfg_query_add(cfg, &qa[i], msg, sizeof(msg));
	}
	if (err)
		fprintf(stderr, "pint-concurrency: settings: %s\n", msg);
	return err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

static struct json_object *flow0(struct json_object *root)
{
	struct json_object *flows;

	if (!json_object_object_get_ex(root, "flows", &flows) ||
	    json_object_array_length(flows) < 1)
		return NULL;
	return json_object_array_get_idx(flows, 0);
}

static __s64 jint(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : -1;
}

/* Latency errors of the sink's per-hop p50 against the exact medians. */
static void lat_errors(struct json_object *flow, const double *med, unsigned int k,
		       struct run *r)
{
	struct json_object *lat, *h;
	double sum = 0, e;
	unsigned int seen = 0;
	size_t i;

	r->lat_err_max = 0;
	if (flow && json_object_object_get_ex(flow, "latency", &lat)) {
		for (i = 0; i < json_object_array_length(lat); i++) {
			__s64 hop, p50;

			h = json_object_array_get_idx(lat, i);
			hop = jint(h, "hop");
			p50 = jint(h, "p50_ns");
			if (hop < 1 || hop > k || p50 < 0)
				continue;
			e = fabs((double)p50 - med[hop - 1]) / med[hop - 1];
			sum += e;
			if (e > r->lat_err_max)
				r->lat_err_max = e;
			seen++;
		}
	}
	r->lat_hops_empty = k - seen;
	/* A hop the sink has no sample of: error 100 %. */
	r->lat_err = (sum + (k - seen)) / k;
	if (seen < k)
		r->lat_err_max = 1.0;
}

/* The sink's path against the true one. */
static int path_matches(struct json_object *flow, const __u32 *ids, unsigned int k)
{
	struct json_object *path, *v, *a;
	size_t i;

	if (!flow || !json_object_object_get_ex(flow, "path", &path) ||
	    !json_object_object_get_ex(path, "complete", &v) || !json_object_get_boolean(v) ||
	    !json_object_object_get_ex(path, "ids", &a) || json_object_array_length(a) != k)
		return 0;
	for (i = 0; i < k; i++)
		if ((__u32)json_object_get_int64(json_object_array_get_idx(a, i)) != ids[i])
			return 0;
	return 1;
}

/*
 * One configuration of one trial: N packets (and, with a path query, more
 * until the path is decoded) through k hops into a fresh sink.
 */
static void run_conf(const struct params *p, int c, unsigned int trial, const __u32 *ids,
		     const double *med, const struct util_wl *u, struct run *r)
{
	__u64 tseed = bench_hash64(p->seed, trial);
	struct pint_domain_cfg cfg;
	struct pint_sink *s;
	struct pint_record rec;
	struct json_object *js = NULL;
	unsigned long n, util_samples = 0;
	unsigned int hop, util_max = 0, last = 0;
	__u32 uq[MAX_K] = { 0 };
	double util_err = 0;
	int have_last = 0, ret;

	memset(r, 0, sizeof(*r));
	r->err = conf_build(&cfg, c, p, (__u32)bench_hash64(tseed, 0x5eed));
	if (r->err)
		return;
	s = pint_sink_new(&cfg);
	if (!s) {
		r->err = -errno;
		return;
	}
	memset(&rec, 0, sizeof(rec));
	rec.family = 4;
	rec.proto = 17;
	rec.hops = p->k;
	rec.sport = 4791;
	rec.dport = 4791;
	memcpy(rec.saddr, "\x0a\x00\x00\x01", 4);
	memcpy(rec.daddr, "\x0a\x00\x00\x02", 4);
	for (n = 0; n < MAX_PACKETS; n++) {
		int want_lat = cfg.q_lat != PINT_QUERY_NONE || cfg.q_util != PINT_QUERY_NONE;
		__u32 pid = (__u32)bench_hash64(tseed ^ 0x91d, n), set, digest = 0, q, off, umax;

		if ((!want_lat || n >= p->n) && (cfg.q_path == PINT_QUERY_NONE || r->path_pk))
			break;
		set = pint_query_select(&cfg.plan, pid);
		umax = 0;
		for (hop = 1; hop <= p->k && cfg.q_util != PINT_QUERY_NONE; hop++) {
			uq[hop - 1] = util_q16(u, n, hop);
			if (uq[hop - 1] > umax)
				umax = uq[hop - 1];
		}
		for (hop = 1; hop <= p->k; hop++)
			digest = hop_step(&cfg, set, pid, hop, ids[hop - 1], tseed, n, uq[hop - 1],
					  digest);
		rec.pid = pid;
		rec.digest = digest;
		rec.qset = set;
		rec.rx_ns = n * 1000;
		ret = pint_sink_add(s, &rec, sizeof(rec));
		if (ret < 0) {
			r->err = ret;
			break;
		}
		if ((ret & PINT_DEC_NEW_PATH) && !r->path_pk)
			r->path_pk = n + 1;
		r->fed++;
		for (q = 0; q < cfg.plan.nr_queries; q++)
			if (cfg.plan.set[set].offset[q] != PINT_QUERY_NONE)
				r->carried[cfg.plan.kind[q] - PINT_Q_PATH]++;
		if (n >= p->n)
			continue;
		/* What an HPCC sender knows after this packet: the last code. */
		if (cfg.q_util != PINT_QUERY_NONE) {
			__u32 code;

			off = cfg.plan.set[set].offset[cfg.q_util];
			if (off != PINT_QUERY_NONE) {
				code = pint_util_field_code8(pint_field_get(digest, off, BITS), BITS);
				if (code != pint_util_encode(umax))
					r->util_bad++;
				last = code;
				have_last = 1;
				util_samples++;
				if (code > util_max)
					util_max = code;
			}
			if (have_last) {
				double t = umax / 65536.0;

				util_err += fabs(pint_util_decode(last) - t) / t;
			}
		}
		if (n + 1 == p->n) {
			/* The sink's view after N packets: latency and util. */
			js = pint_sink_to_json(s);
			if (cfg.q_lat != PINT_QUERY_NONE)
				lat_errors(flow0(js), med, p->k, r);
			if (cfg.q_util != PINT_QUERY_NONE) {
				struct json_object *uo;

				/* The sink's own counters must agree with ours. */
				if (!json_object_object_get_ex(flow0(js), "util", &uo) ||
				    jint(uo, "samples") != (__s64)util_samples ||
				    jint(uo, "max_code") != (__s64)util_max)
					r->util_bad++;
				r->util_err = util_err / p->n;
			}
			json_object_put(js);
			js = NULL;
		}
	}
	if (cfg.q_path != PINT_QUERY_NONE && r->path_pk) {
		js = pint_sink_to_json(s);
		r->path_ok = path_matches(flow0(js), ids, p->k);
		json_object_put(js);
	}
	pint_sink_free(s);
}

/* Trial @trial, every configuration; @buf holds N doubles. */
static void run_trial(const struct params *p, unsigned int trial, double *buf, struct run *out)
{
	__u64 tseed = bench_hash64(p->seed, trial), rng = bench_hash64(tseed, 0x7a1);
	double med[MAX_K];
	__u32 ids[MAX_K];
	struct util_wl u;
	unsigned int i, j;
	unsigned long n;
	int c;

	/* k distinct switch IDs out of 1..U. */
	for (i = 0; i < p->k; i++) {
		do {
			ids[i] = 1 + (__u32)(bench_rand64(&rng) % p->universe);
			for (j = 0; j < i && ids[j] != ids[i]; j++)
				;
		} while (j < i);
	}
	for (i = 0; i < p->k; i++) {
		u.m[i] = 0.3 + 0.8 * bench_unif01(&rng);
		u.phi[i] = bench_unif01(&rng);
	}
	u.bdp = pint_util_link_bytes(LINK_BPS, BASE_RTT_NS);
	u.cap = u.bdp;
	/* The exact median of each hop's N latencies (what full INT sees). */
	for (i = 0; i < p->k; i++) {
		for (n = 0; n < p->n; n++)
			buf[n] = (double)llround(lat_draw(tseed, n, i + 1));
		qsort(buf, p->n, sizeof(*buf), cmp_double);
		med[i] = buf[(p->n + 1) / 2 - 1];	/* nearest rank */
	}
	for (c = 0; c < C_COUNT; c++)
		run_conf(p, c, trial, ids, med, &u, &out[c]);
}

static void *worker(void *arg)
{
	struct shared *sh = arg;
	double *buf = malloc(sh->p->n * sizeof(*buf));
	unsigned int t, c;

	for (;;) {
		pthread_mutex_lock(&sh->lock);
		t = sh->next++;
		pthread_mutex_unlock(&sh->lock);
		if (t >= sh->p->trials)
			break;
		if (buf) {
			run_trial(sh->p, t, buf, &sh->runs[(size_t)t * C_COUNT]);
			continue;
		}
		for (c = 0; c < C_COUNT; c++)
			sh->runs[(size_t)t * C_COUNT + c].err = -ENOMEM;
	}
	free(buf);
	return NULL;
}

static unsigned long parse_ul(const char *opt, const char *s, unsigned long min,
			      unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || !*s || v < min || v > max) {
		fprintf(stderr, "pint-concurrency: %s \"%s\": expected %lu .. %lu\n", opt, s, min,
			max);
		exit(2);
	}
	return v;
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: pint-concurrency [-k HOPS] [-u IDS] [-n PACKETS] [-t TRIALS] [-s SEED]\n"
		"                        [-j THREADS]\n"
		"  -k HOPS     path length (default 25)\n"
		"  -u IDS      switch IDs are drawn from 1..IDS (default 1024)\n"
		"  -n PACKETS  packets per flow for latency and utilisation (default 10000)\n"
		"  -t TRIALS   flows (default 200)\n"
		"  -s SEED     seed of IDs, packet IDs, hash seeds and workloads (default 1)\n"
		"  -j THREADS  worker threads (default 2; output does not depend on it)\n");
	exit(2);
}

/* Nearest-rank quantile of @n sorted values. */
static double qd(const double *v, unsigned int n, double q)
{
	unsigned int i = (unsigned int)ceil(q * n);

	return v[i ? i - 1 : 0];
}

static unsigned long qul(const unsigned long *v, unsigned int n, double q)
{
	unsigned int i = (unsigned int)ceil(q * n);

	return v[i ? i - 1 : 0];
}

/*
 * Standard error of the mean of @n paired differences @d, relative to the
 * mean @base of the alone runs: the "+-" of an extra.
 */
static double rel_se(const double *d, unsigned int n, double base)
{
	double s = 0, s2 = 0, var;
	unsigned int i;

	if (n < 2 || !(base > 0))
		return 0;
	for (i = 0; i < n; i++) {
		s += d[i];
		s2 += d[i] * d[i];
	}
	var = (s2 - s * s / n) / (n - 1);
	return var > 0 ? sqrt(var / n) / base : 0;
}

int main(int argc, char **argv)
{
	struct params p = { .k = 25, .universe = 1024, .n = 10000, .trials = 200, .seed = 1,
			    .threads = 2 };
	struct pint_domain_cfg cfg;
	struct shared sh = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct timespec t0, t1;
	pthread_t *th;
	unsigned long *pk, *pk_alone;
	double *a, *b, *d, freq[C_COUNT][Q_COUNT], mean_a, mean_b, sa, sb, se;
	unsigned int t, i, failures = 0;
	int opt, c, q;

	while ((opt = getopt(argc, argv, "k:u:n:t:s:j:h")) != -1) {
		switch (opt) {
		case 'k':
			p.k = parse_ul("-k", optarg, 1, MAX_K);
			break;
		case 'u':
			p.universe = parse_ul("-u", optarg, 2, PINT_SINK_MAX_IDS);
			break;
		case 'n':
			p.n = parse_ul("-n", optarg, 100, 10000000);
			break;
		case 't':
			p.trials = parse_ul("-t", optarg, 1, 100000);
			break;
		case 's':
			p.seed = parse_ul("-s", optarg, 0, ~0UL);
			break;
		case 'j':
			p.threads = parse_ul("-j", optarg, 1, 256);
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	if (p.k > p.universe) {
		fprintf(stderr, "pint-concurrency: -k %u needs at least k IDs (-u)\n", p.k);
		return 2;
	}
	for (c = 0; c < C_COUNT; c++) {
		if (conf_build(&cfg, c, &p, 0))
			return 1;
		for (q = 0; q < Q_COUNT; q++) {
			__u8 qi = q == Q_PATH ? cfg.q_path : q == Q_LAT ? cfg.q_lat : cfg.q_util;

			freq[c][q] = qi == PINT_QUERY_NONE ? 0 : pint_query_freq(&cfg.plan, qi);
		}
	}

	sh.p = &p;
	sh.runs = calloc((size_t)p.trials * C_COUNT, sizeof(*sh.runs));
	th = calloc(p.threads, sizeof(*th));
	pk = calloc(p.trials, sizeof(*pk));
	pk_alone = calloc(p.trials, sizeof(*pk_alone));
	a = calloc(p.trials, sizeof(*a));
	b = calloc(p.trials, sizeof(*b));
	d = calloc(p.trials, sizeof(*d));
	if (!sh.runs || !th || !pk || !pk_alone || !a || !b || !d) {
		fprintf(stderr, "pint-concurrency: out of memory\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < p.threads; i++)
		if (pthread_create(&th[i], NULL, worker, &sh)) {
			fprintf(stderr, "pint-concurrency: pthread_create failed\n");
			return 1;
		}
	for (i = 0; i < p.threads; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	/* Checks over every run. */
	for (t = 0; t < p.trials; t++) {
		for (c = 0; c < C_COUNT; c++) {
			const struct run *r = &sh.runs[(size_t)t * C_COUNT + c];

			if (r->err) {
				fprintf(stderr, "trial %u, %s: error %s\n", t, conf_name[c],
					strerror(-r->err));
				failures++;
				continue;
			}
			if (freq[c][Q_PATH] > 0 && (!r->path_pk || !r->path_ok)) {
				fprintf(stderr, "trial %u, %s: path %s\n", t, conf_name[c],
					r->path_pk ? "decoded wrong" : "not decoded");
				failures++;
			}
			if (freq[c][Q_LAT] > 0 && (r->lat_hops_empty || r->lat_err > LAT_ERR_BOUND)) {
				fprintf(stderr, "trial %u, %s: latency: %lu hops without a sample, "
					"p50 error %.1f%% (bound %.0f%%; worst hop %.1f%%)\n", t,
					conf_name[c], r->lat_hops_empty, 100 * r->lat_err,
					100 * LAT_ERR_BOUND, 100 * r->lat_err_max);
				failures++;
			}
			if (freq[c][Q_UTIL] > 0 && r->util_bad) {
				fprintf(stderr, "trial %u, %s: %lu utilisation codes are not the "
					"path maximum's (or the sink disagrees)\n", t, conf_name[c],
					r->util_bad);
				failures++;
			}
		}
	}

	printf("PINT concurrent queries: path tracing, latency, utilisation; %u bits each, "
	       "global budget %u bits\n", BITS, BUDGET);
	printf("path: k = %u switches drawn from IDs 1..%u, default scheme for d = %u, "
	       "topology-blind sink decoder\n", p.k, p.universe, p.k);
	printf("latency: sink p50 per hop (KLL k=%d) after N = %lu packets vs the exact "
	       "median; scale %llu ns .. %llu ns\n", PINT_SINK_KLL_K, p.n,
	       (unsigned long long)LAT_MIN_NS, (unsigned long long)LAT_MAX_NS);
	for (i = 0; i < 5; i++)
		printf("  hops %u, %u, ...: %s\n", i + 1, i + 6, hop_desc[i]);
	printf("util: hop h U = m_h + %.1f sin(2 pi (n/%.0f + phi_h)), m_h in [0.3, 1.1]; "
	       "error of the last U received vs the path's max U, per packet\n",
	       UTIL_AMPL, UTIL_PERIOD);
	printf("%u trials, seed %llu; alone = the query alone, its 8 bits on every packet\n\n",
	       p.trials, (unsigned long long)p.seed);

	printf("%-22s %21s\n", "", "carried fraction");
	printf("%-22s %13s %13s %13s   %s\n", "configuration", "path", "latency", "util",
	       "(plan/measured)");
	for (c = 0; c < C_COUNT; c++) {
		printf("%-22s", conf_name[c]);
		for (q = 0; q < Q_COUNT; q++) {
			double tot = 0, fed = 0;

			for (t = 0; t < p.trials; t++) {
				tot += sh.runs[(size_t)t * C_COUNT + c].carried[q];
				fed += sh.runs[(size_t)t * C_COUNT + c].fed;
			}
			tot /= fed;
			printf(" %.4f/%.4f", freq[c][q], tot);
			/* A fraction more than 5 sigma off the plan's: broken sharing. */
			if (fabs(tot - freq[c][q]) >
			    5 * sqrt(freq[c][q] * (1 - freq[c][q]) / fed) + 1e-9) {
				fprintf(stderr, "%s: query %d carried on %.4f of packets, plan %.4f\n",
					conf_name[c], q, tot, freq[c][q]);
				failures++;
			}
		}
		printf("\n");
	}

	printf("\npath tracing: packets until decoded (median / p99); extra = mean shared / "
	       "mean alone - 1 (expected 1/f - 1)\n");
	for (t = 0; t < p.trials; t++)
		pk_alone[t] = sh.runs[(size_t)t * C_COUNT + C_PATH].path_pk;
	qsort(pk_alone, p.trials, sizeof(*pk_alone), cmp_ul);
	for (c = C_PATH; c < C_COUNT; c++) {
		if (c == C_LAT || c == C_UTIL)
			continue;
		sa = sb = 0;
		for (t = 0; t < p.trials; t++) {
			pk[t] = sh.runs[(size_t)t * C_COUNT + c].path_pk;
			a[t] = sh.runs[(size_t)t * C_COUNT + C_PATH].path_pk;
			d[t] = (double)pk[t] - a[t];
			sa += a[t];
			sb += pk[t];
		}
		qsort(pk, p.trials, sizeof(*pk), cmp_ul);
		printf("  %-22s %5lu / %-5lu", conf_name[c], qul(pk, p.trials, 0.5),
		       qul(pk, p.trials, 0.99));
		if (c != C_PATH)
			printf("  extra %+6.1f%% +- %.1f%%  (expected %+6.1f%%)", 100 * (sb / sa - 1),
			       100 * rel_se(d, p.trials, sa / p.trials),
			       100 * (1 / freq[c][Q_PATH] - 1));
		printf("\n");
	}

	printf("\nlatency: median (p50) error per flow, mean over hops: median over flows "
	       "[p10 .. p90]; extra = shared - alone, per flow\n");
	for (c = C_LAT; c < C_COUNT; c++) {
		if (c == C_UTIL)
			continue;
		mean_a = mean_b = 0;
		for (t = 0; t < p.trials; t++) {
			b[t] = sh.runs[(size_t)t * C_COUNT + c].lat_err;
			d[t] = b[t] - sh.runs[(size_t)t * C_COUNT + C_LAT].lat_err;
			mean_a += sh.runs[(size_t)t * C_COUNT + C_LAT].lat_err;
			mean_b += b[t];
		}
		se = rel_se(d, p.trials, mean_a / p.trials);
		qsort(b, p.trials, sizeof(*b), cmp_double);
		qsort(d, p.trials, sizeof(*d), cmp_double);
		printf("  %-22s %5.2f%% [%5.2f .. %5.2f]", conf_name[c], 100 * qd(b, p.trials, 0.5),
		       100 * qd(b, p.trials, 0.1), 100 * qd(b, p.trials, 0.9));
		if (c != C_LAT)
			printf("  extra %+5.2f points [%+5.2f .. %+5.2f], mean %+5.1f%% +- %.1f%% "
			       "relative", 100 * qd(d, p.trials, 0.5), 100 * qd(d, p.trials, 0.1),
			       100 * qd(d, p.trials, 0.9), 100 * (mean_b / mean_a - 1), 100 * se);
		printf("\n");
	}

	printf("\nutilisation: error of the U the sender last received: median over flows "
	       "[p10 .. p90]; extra = shared - alone, per flow\n");
	for (c = C_UTIL; c < C_COUNT; c++) {
		for (t = 0; t < p.trials; t++) {
			a[t] = sh.runs[(size_t)t * C_COUNT + c].util_err;
			d[t] = a[t] - sh.runs[(size_t)t * C_COUNT + C_UTIL].util_err;
		}
		qsort(a, p.trials, sizeof(*a), cmp_double);
		qsort(d, p.trials, sizeof(*d), cmp_double);
		printf("  %-22s %5.2f%% [%5.2f .. %5.2f]", conf_name[c], 100 * qd(a, p.trials, 0.5),
		       100 * qd(a, p.trials, 0.1), 100 * qd(a, p.trials, 0.9));
		if (c != C_UTIL)
			printf("  extra %+5.2f points [%+5.2f .. %+5.2f]", 100 * qd(d, p.trials, 0.5),
			       100 * qd(d, p.trials, 0.1), 100 * qd(d, p.trials, 0.9));
		printf("\n");
	}

	printf("\nchecks: %s (paths decoded and equal to the true ones, every query carried "
	       "as planned, util codes = path max, p50 error <= %.0f%% per flow)\n",
	       failures ? "FAILED" : "ok", 100 * LAT_ERR_BOUND);
	printf("(%.1f s on %u threads)\n",
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, p.threads);
	free(sh.runs);
	free(th);
	free(pk);
	free(pk_alone);
	free(a);
	free(b);
	free(d);
	return failures ? 1 : 0;
}
