// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint.c - "hopmark pint ...": the PINT datapath's settings, roles and the
 * sink's inference (see hopmark-pint(8), Documentation/pint-datapath.rst).
 *
 *	hopmark pint enable dev DEV role { source | transit | sink } [ rate RATE ]
 *	hopmark pint disable dev DEV
 *	hopmark pint set [ budget BITS ] [ hop-limit-start N ] [ seed N ]
 *			 [ ids LO-HI ] [ base-rtt NS ]
 *	hopmark pint query add { path | latency | util } bits BITS [ weight W ] ...
 *	hopmark pint query del { path | latency | util }
 *	hopmark pint show [ time SEC ]
 *
 * Settings live in the pinned maps of lib/pint/pint_maps.h; every node of a
 * domain must be given the same `set` and `query` commands. Programs come
 * from the embedded skeleton of bpf/pint.bpf.c, attached with libbpf's tc
 * API at a fixed handle and one priority per role.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "hopmark_cli.h"
#include "pint/pint_sink.h"
#include "bpf/pint.skel.h"

/* An agent state file older than this is not trusted (agent gone). */
#define PINT_STATE_MAX_AGE_S	5

static const char *const kind_name[3] = { "path", "latency", "util" };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark pint enable dev DEV role { source | transit | sink } [ rate RATE ]\n"
		"       hopmark pint disable dev DEV\n"
		"       hopmark pint set [ budget BITS ] [ hop-limit-start N ] [ seed N ]\n"
		"                        [ ids LO-HI ] [ base-rtt NS ]\n"
		"       hopmark pint query add path bits BITS [ scheme { hybrid | baseline | xor } ]\n"
		"                                  [ max-hops D ] [ full-id ] [ weight W ]\n"
		"       hopmark pint query add latency bits BITS [ min NS ] [ max NS ] [ weight W ]\n"
		"       hopmark pint query add util bits BITS [ weight W ]\n"
		"       hopmark pint query del { path | latency | util }\n"
		"       hopmark [ -j ] [ -s ] pint show [ time SEC ]\n"
		"RATE := bits per second, with an optional k, m or g suffix (e.g. 10m)\n"
		"BITS := 1..16 (the budget), 1..8 for latency and util\n");
}

/* ---------------- maps ---------------- */

/*
 * The PINT object, loaded with the node's pin root: its maps are created
 * and pinned when missing (LIBBPF_PIN_BY_NAME), or reused.
 */
static struct pint *pint_load(void)
{
	char pin_dir[PATH_MAX];
	struct pint *skel;
	int err;

	LIBBPF_OPTS(bpf_object_open_opts, opts, .pin_root_path = pin_dir);

	if (maps_prepare())
		return NULL;
	if (hm_pin_dir(pin_dir, sizeof(pin_dir)))
		return NULL;
	skel = pint__open_opts(&opts);
	if (!skel) {
		hm_errf(-errno, "cannot open the PINT BPF object");
		return NULL;
	}
	err = pint__load(skel);
	if (err) {
		hm_errf(err, "cannot load the PINT BPF object (bpffs %s; HOPMARK_VERBOSE=1 shows the log)",
			hm_bpffs_root());
		pint__destroy(skel);
		return NULL;
	}
	return skel;
}

/*
 * cfg_open() - fd of pint_cfg: the pinned map when it exists, else the one
 * of a freshly loaded object (which pins it); *@skel is what to destroy.
 */
static int cfg_open(struct pint **skel)
{
	int fd = hm_map_open(PINT_MAP_CFG);

	*skel = NULL;
	if (fd >= 0)
		return fd;
	*skel = pint_load();
	if (!*skel)
		return -1;
	return dup(bpf_map__fd((*skel)->maps.pint_cfg));
}

static void cfg_close(int fd, struct pint *skel)
{
	if (fd >= 0)
		close(fd);
	pint__destroy(skel);
}

static int cfg_read(int fd, struct pint_domain_cfg *cfg)
{
	__u32 zero = 0;

	if (bpf_map_lookup_elem(fd, &zero, cfg))
		return hm_errf(-errno, "cannot read %s", PINT_MAP_CFG);
	return 0;
}

static int cfg_write(int fd, const struct pint_domain_cfg *cfg)
{
	__u32 zero = 0;

	if (bpf_map_update_elem(fd, &zero, cfg, BPF_ANY))
		return hm_errf(-errno, "cannot write %s", PINT_MAP_CFG);
	return 0;
}

/* Defaults of a domain nobody configured yet (all-zero map value). */
static void cfg_defaults(struct pint_domain_cfg *cfg)
{
	if (cfg->plan.budget)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->plan.budget = PINT_WIRE_BITS;
	cfg->plan.seeds.decider = PINT_SEED_DECIDER;
	cfg->plan.seeds.act = PINT_SEED_ACT;
	cfg->plan.seeds.value = PINT_SEED_VALUE;
	cfg->hop_limit_start = 64;
	cfg->id_min = 1;
	cfg->id_max = 255;
	cfg->base_rtt_ns = 100000;
	cfg->lat_min_ns = 1000;
	cfg->lat_max_ns = 1000000000;
	cfg->q_path = cfg->q_lat = cfg->q_util = PINT_QUERY_NONE;
	cfg->path_d = 16;
}

static __u8 *q_index(struct pint_domain_cfg *cfg, int kind)
{
	return kind == 0 ? &cfg->q_path : kind == 1 ? &cfg->q_lat : &cfg->q_util;
}

/*
 * cfg_rebuild() - the query plan, path scheme and latency table from the
 * queries present (their bits in @bits, 0 = absent), in kind order.
 */
static int cfg_rebuild(struct pint_domain_cfg *cfg, const unsigned int bits[3])
{
	static const char *const scheme[] = { "hybrid", "baseline", "xor" };
	struct pint_seeds seeds = cfg->plan.seeds;
	unsigned int budget = cfg->plan.budget, n = 0, k;
	struct pint_query q[3];
	struct pint_lat_table lt;
	int err;

	for (k = 0; k < 3; k++) {
		*q_index(cfg, k) = PINT_QUERY_NONE;
		if (!bits[k])
			continue;
		q[n].kind = k == 0 ? PINT_Q_PATH : k == 1 ? PINT_Q_LATENCY : PINT_Q_UTIL;
		q[n].bits = bits[k];
		q[n].weight = (cfg->weight[k] ? cfg->weight[k] : 1000) / 1000.0;
		*q_index(cfg, k) = n++;
	}
	memset(&cfg->plan, 0, sizeof(cfg->plan));
	cfg->plan.seeds = seeds;
	cfg->plan.budget = budget;
	cfg->flags &= ~PINT_DOM_F_CONFIGURED;
	if (!n)
		return 0;
	err = pint_query_plan_build(&cfg->plan, &seeds, budget, q, n);
	if (err)
		return hm_errf(err, "cannot build the query plan (budget %u bits)", budget);
	if (bits[0]) {
		err = pint_path_params_init(&cfg->path, &seeds, bits[0],
					    cfg->flags & PINT_DOM_F_FULL_ID ? PINT_PATH_F_FULL_ID : 0);
		if (!err)
			err = pint_path_scheme(&cfg->path, scheme[cfg->path_scheme % 3], cfg->path_d);
		if (err)
			return hm_errf(err, "cannot build the path scheme");
	}
	if (bits[1]) {
		err = pint_lat_table_for_range(&lt, bits[1], cfg->lat_min_ns, cfg->lat_max_ns);
		if (err)
			return hm_errf(err, "cannot build the latency scale %llu..%llu ns",
				       (unsigned long long)cfg->lat_min_ns,
				       (unsigned long long)cfg->lat_max_ns);
		cfg->lat = lt.enc;
	}
	cfg->flags |= PINT_DOM_F_CONFIGURED;
	return 0;
}

static void cfg_bits(const struct pint_domain_cfg *cfg, unsigned int bits[3])
{
	int k;

	for (k = 0; k < 3; k++) {
		__u8 i = *q_index((struct pint_domain_cfg *)cfg, k);

		bits[k] = (cfg->flags & PINT_DOM_F_CONFIGURED) && i < PINT_QUERY_MAX ?
			  cfg->plan.bits[i] : 0;
	}
}

/* ---------------- attach ---------------- */

static void tc_opts(__u32 flag, __u32 ifindex, struct bpf_tc_hook *hook, struct bpf_tc_opts *o)
{
	memset(hook, 0, sizeof(*hook));
	hook->sz = sizeof(*hook);
	hook->ifindex = ifindex;
	hook->attach_point = flag == PINT_IF_F_TRANSIT ? BPF_TC_EGRESS : BPF_TC_INGRESS;
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	o->handle = HM_PINT_TC_HANDLE;
	o->priority = flag == PINT_IF_F_SOURCE ? HM_PINT_TC_PRIO_SOURCE :
		      flag == PINT_IF_F_SINK ? HM_PINT_TC_PRIO_SINK : HM_PINT_TC_PRIO_TRANSIT;
}

static int tc_attach(struct pint *skel, __u32 flag, __u32 ifindex, const char *dev)
{
	struct bpf_program *prog = flag == PINT_IF_F_SOURCE ? skel->progs.hm_pint_source :
				   flag == PINT_IF_F_SINK ? skel->progs.hm_pint_sink :
				   skel->progs.hm_pint_transit;
	struct bpf_tc_hook hook;
	struct bpf_tc_opts o;
	int err;

	tc_opts(flag, ifindex, &hook, &o);
	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST)
		return hm_errf(err, "cannot create the clsact qdisc on %s", dev);
	o.prog_fd = bpf_program__fd(prog);
	o.flags = BPF_TC_F_REPLACE;
	err = bpf_tc_attach(&hook, &o);
	if (err)
		return hm_errf(err, "cannot attach %s to %s", bpf_program__name(prog), dev);
	return 0;
}

static int tc_detach(__u32 flag, __u32 ifindex, const char *dev)
{
	struct bpf_tc_hook hook;
	struct bpf_tc_opts o;
	int err;

	tc_opts(flag, ifindex, &hook, &o);
	err = bpf_tc_detach(&hook, &o);
	if (err && err != -ENOENT && err != -EINVAL)
		return hm_errf(err, "cannot detach the PINT program from %s", dev);
	return 0;
}

/* ---------------- commands ---------------- */

static int parse_rate(const char *arg, __u64 *bps)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || v < 0)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v *= 1e3; end++; break;
	case 'm': case 'M': v *= 1e6; end++; break;
	case 'g': case 'G': v *= 1e9; end++; break;
	}
	if (!strcmp(end, "bit") || !strcmp(end, "bps"))
		end += strlen(end);
	if (*end || v > 1e13)
		return -EINVAL;
	*bps = (__u64)v;
	return 0;
}

static int do_enable(int argc, char **argv)
{
	struct pint_if_cfg ic = {};
	const char *dev = NULL;
	__u32 flag = 0, ifindex;
	__u64 rate = 0;
	bool have_rate = false;
	struct pint *skel;
	int fd, ret;

	while (argc > 0) {
		if (matches(*argv, "dev")) {
			NEXT_ARG();
			dev = *argv;
		} else if (matches(*argv, "role")) {
			NEXT_ARG();
			if (!strcmp(*argv, "source"))
				flag = PINT_IF_F_SOURCE;
			else if (!strcmp(*argv, "transit"))
				flag = PINT_IF_F_TRANSIT;
			else if (!strcmp(*argv, "sink"))
				flag = PINT_IF_F_SINK;
			else
				invarg("role is source, transit or sink", *argv);
		} else if (matches(*argv, "rate")) {
			NEXT_ARG();
			if (parse_rate(*argv, &rate))
				invarg("a rate in bit/s, e.g. 10m or 1g", *argv);
			have_rate = true;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("pint enable", *argv);
		}
		argc--;
		argv++;
	}
	if (!dev)
		missing_arg("dev", "pint enable");
	if (!flag)
		missing_arg("role", "pint enable");
	ifindex = get_ifindex_arg(dev);
	skel = pint_load();
	if (!skel)
		return HM_EXIT_FAIL;
	fd = bpf_map__fd(skel->maps.pint_ifcfg);
	if (bpf_map_lookup_elem(fd, &ifindex, &ic))
		memset(&ic, 0, sizeof(ic));
	if (((flag | ic.flags) & (PINT_IF_F_SOURCE | PINT_IF_F_SINK)) ==
	    (PINT_IF_F_SOURCE | PINT_IF_F_SINK)) {
		pint__destroy(skel);
		return hm_errf(0, "%s cannot be both source and sink (both run at tc ingress)", dev);
	}
	ic.flags |= flag;
	if (have_rate)
		ic.rate_bps = rate;
	if (bpf_map_update_elem(fd, &ifindex, &ic, BPF_ANY)) {
		ret = hm_errf(-errno, "cannot write %s", PINT_MAP_IFCFG);
		pint__destroy(skel);
		return ret;
	}
	ret = tc_attach(skel, flag, ifindex, dev);
	pint__destroy(skel);
	return ret;
}

static int do_disable(int argc, char **argv)
{
	const char *dev = NULL;
	__u32 ifindex;
	int fd, ret = 0;

	while (argc > 0) {
		if (matches(*argv, "dev")) {
			NEXT_ARG();
			dev = *argv;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("pint disable", *argv);
		}
		argc--;
		argv++;
	}
	if (!dev)
		missing_arg("dev", "pint disable");
	ifindex = get_ifindex_arg(dev);
	ret |= tc_detach(PINT_IF_F_SOURCE, ifindex, dev);
	ret |= tc_detach(PINT_IF_F_SINK, ifindex, dev);
	ret |= tc_detach(PINT_IF_F_TRANSIT, ifindex, dev);
	fd = hm_map_open(PINT_MAP_IFCFG);
	if (fd >= 0) {
		if (bpf_map_delete_elem(fd, &ifindex) && errno != ENOENT)
			ret = hm_errf(-errno, "cannot delete %s[%u]", PINT_MAP_IFCFG, ifindex);
		close(fd);
	}
	return ret ? HM_EXIT_FAIL : HM_EXIT_OK;
}

static int do_set(int argc, char **argv)
{
	struct pint_domain_cfg cfg;
	unsigned int bits[3], k;
	struct pint *skel;
	__u64 v, lo, hi;
	int fd, ret;
	char *dash;

	if (argc > 0 && matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	fd = cfg_open(&skel);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (cfg_read(fd, &cfg)) {
		cfg_close(fd, skel);
		return HM_EXIT_FAIL;
	}
	cfg_defaults(&cfg);
	cfg_bits(&cfg, bits);
	while (argc > 0) {
		if (matches(*argv, "budget")) {
			NEXT_ARG();
			cfg.plan.budget = get_u32_arg(*argv, PINT_WIRE_BITS, "budget");
			if (!cfg.plan.budget)
				invarg("the budget is 1..16 bits", *argv);
		} else if (matches(*argv, "hop-limit-start")) {
			NEXT_ARG();
			cfg.hop_limit_start = get_u32_arg(*argv, 255, "hop-limit-start");
			if (!cfg.hop_limit_start)
				invarg("hop-limit-start is 1..255", *argv);
		} else if (matches(*argv, "seed")) {
			NEXT_ARG();
			v = get_u32_arg(*argv, 0xffffffffU, "seed");
			cfg.plan.seeds.decider = PINT_SEED_DECIDER ^ (__u32)v;
			cfg.plan.seeds.act = PINT_SEED_ACT ^ (__u32)v;
			cfg.plan.seeds.value = PINT_SEED_VALUE ^ (__u32)v;
		} else if (matches(*argv, "ids")) {
			NEXT_ARG();
			dash = strchr(*argv, '-');
			if (!dash)
				invarg("ids is LO-HI, e.g. 1-255", *argv);
			*dash = '\0';
			if (get_u64_max(&lo, *argv, 0xffffffffU) ||
			    get_u64_max(&hi, dash + 1, 0xffffffffU) || lo > hi ||
			    hi - lo >= PINT_SINK_MAX_IDS) {
				*dash = '-';
				invarg("ids is LO-HI with at most 65536 IDs", *argv);
			}
			cfg.id_min = lo;
			cfg.id_max = hi;
		} else if (matches(*argv, "base-rtt")) {
			NEXT_ARG();
			cfg.base_rtt_ns = get_u64_arg(*argv, 10000000000ULL, "base-rtt");
		} else if (matches(*argv, "help")) {
			usage(stdout);
			cfg_close(fd, skel);
			return HM_EXIT_OK;
		} else {
			unknown_arg("pint set", *argv);
		}
		argc--;
		argv++;
	}
	for (k = 0; k < 3; k++)
		if (bits[k] > cfg.plan.budget) {
			cfg_close(fd, skel);
			return hm_errf(0, "the %s query takes %u bits, more than the budget of %u",
				       kind_name[k], bits[k], cfg.plan.budget);
		}
	ret = cfg_rebuild(&cfg, bits);
	if (!ret)
		ret = cfg_write(fd, &cfg);
	cfg_close(fd, skel);
	return ret;
}

static int do_query(int argc, char **argv)
{
	struct pint_domain_cfg cfg;
	unsigned int bits[3], nb = 0;
	int add, kind = -1, fd, ret;
	__u32 weight = 0, d = 0, scheme = 0;
	bool have_scheme = false, full_id = false;
	__u64 lat_min = 0, lat_max = 0;
	struct pint *skel;

	if (argc < 1 || matches(*argv, "help")) {
		usage(argc < 1 ? stderr : stdout);
		return argc < 1 ? HM_EXIT_USAGE : HM_EXIT_OK;
	}
	if (matches(*argv, "add"))
		add = 1;
	else if (matches(*argv, "delete"))
		add = 0;
	else
		unknown_arg("pint query", *argv);
	NEXT_ARG();
	if (!strcmp(*argv, "path"))
		kind = 0;
	else if (matches(*argv, "latency"))
		kind = 1;
	else if (matches(*argv, "util") || matches(*argv, "utilization") ||
		 matches(*argv, "utilisation"))
		kind = 2;
	else if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	} else
		invarg("a query is path, latency or util", *argv);
	argc--;
	argv++;
	while (argc > 0) {
		if (add && matches(*argv, "bits")) {
			NEXT_ARG();
			nb = get_u32_arg(*argv, kind ? 8 : PINT_WIRE_BITS, "bits");
			if (!nb)
				invarg("bits is at least 1", *argv);
		} else if (add && matches(*argv, "weight")) {
			NEXT_ARG();
			weight = get_u32_arg(*argv, 1000000, "weight (in 1/1000)") ;
			if (!weight)
				invarg("weight is a positive number of thousandths", *argv);
		} else if (add && kind == 0 && matches(*argv, "scheme")) {
			NEXT_ARG();
			if (!strcmp(*argv, "hybrid"))
				scheme = PINT_SCHEME_HYBRID;
			else if (!strcmp(*argv, "baseline"))
				scheme = PINT_SCHEME_BASELINE;
			else if (!strcmp(*argv, "xor"))
				scheme = PINT_SCHEME_XOR;
			else
				invarg("scheme is hybrid, baseline or xor", *argv);
			have_scheme = true;
		} else if (add && kind == 0 && matches(*argv, "max-hops")) {
			NEXT_ARG();
			d = get_u32_arg(*argv, PINT_MAX_HOPS, "max-hops");
			if (!d)
				invarg("max-hops is 1..64", *argv);
		} else if (add && kind == 0 && matches(*argv, "full-id")) {
			full_id = true;
		} else if (add && kind == 1 && matches(*argv, "min")) {
			NEXT_ARG();
			lat_min = get_u64_arg(*argv, PINT_LAT_MAX_NS, "min (ns)");
		} else if (add && kind == 1 && matches(*argv, "max")) {
			NEXT_ARG();
			lat_max = get_u64_arg(*argv, PINT_LAT_MAX_NS, "max (ns)");
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg(add ? "pint query add" : "pint query del", *argv);
		}
		argc--;
		argv++;
	}
	if (add && !nb)
		missing_arg("bits", "pint query add");

	fd = cfg_open(&skel);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (cfg_read(fd, &cfg)) {
		cfg_close(fd, skel);
		return HM_EXIT_FAIL;
	}
	cfg_defaults(&cfg);
	cfg_bits(&cfg, bits);
	if (add) {
		if (nb > cfg.plan.budget) {
			cfg_close(fd, skel);
			return hm_errf(0, "%u bits do not fit the budget of %u bits (hopmark pint set budget)",
				       nb, cfg.plan.budget);
		}
		bits[kind] = nb;
		cfg.weight[kind] = weight;
		if (kind == 0) {
			if (have_scheme)
				cfg.path_scheme = scheme;
			if (d)
				cfg.path_d = d;
			if (full_id)
				cfg.flags |= PINT_DOM_F_FULL_ID;
			else
				cfg.flags &= ~PINT_DOM_F_FULL_ID;
		} else if (kind == 1) {
			if (lat_min)
				cfg.lat_min_ns = lat_min;
			if (lat_max)
				cfg.lat_max_ns = lat_max;
			if (cfg.lat_min_ns >= cfg.lat_max_ns) {
				cfg_close(fd, skel);
				return hm_errf(0, "latency min %llu ns is not below max %llu ns",
					       (unsigned long long)cfg.lat_min_ns,
					       (unsigned long long)cfg.lat_max_ns);
			}
		}
	} else {
		if (!bits[kind]) {
			cfg_close(fd, skel);
			return hm_errf(0, "there is no %s query", kind_name[kind]);
		}
		bits[kind] = 0;
	}
	ret = cfg_rebuild(&cfg, bits);
	if (!ret)
		ret = cfg_write(fd, &cfg);
	cfg_close(fd, skel);
	return ret;
}

/* ---------------- show ---------------- */

static struct json_object *cfg_json(const struct pint_domain_cfg *cfg)
{
	struct json_object *o = json_object_new_object(), *qa, *q;
	unsigned int bits[3];
	int k;

	cfg_bits(cfg, bits);
	json_object_object_add(o, "configured",
			       json_object_new_boolean(cfg->flags & PINT_DOM_F_CONFIGURED));
	json_object_object_add(o, "budget", json_object_new_int(cfg->plan.budget));
	json_object_object_add(o, "hop_limit_start", json_object_new_int(cfg->hop_limit_start));
	json_object_object_add(o, "id_min", json_object_new_int64(cfg->id_min));
	json_object_object_add(o, "id_max", json_object_new_int64(cfg->id_max));
	json_object_object_add(o, "base_rtt_ns", json_object_new_int64(cfg->base_rtt_ns));
	qa = json_object_new_array();
	for (k = 0; k < 3; k++) {
		if (!bits[k])
			continue;
		q = json_object_new_object();
		json_object_object_add(q, "query", json_object_new_string(kind_name[k]));
		json_object_object_add(q, "bits", json_object_new_int(bits[k]));
		json_object_object_add(q, "freq", json_object_new_double(
			pint_query_freq(&cfg->plan, *q_index((struct pint_domain_cfg *)cfg, k))));
		if (k == 0) {
			json_object_object_add(q, "scheme", json_object_new_string(
				cfg->path_scheme == PINT_SCHEME_BASELINE ? "baseline" :
				cfg->path_scheme == PINT_SCHEME_XOR ? "xor" : "hybrid"));
			json_object_object_add(q, "max_hops", json_object_new_int(cfg->path_d));
			json_object_object_add(q, "full_id", json_object_new_boolean(
				cfg->flags & PINT_DOM_F_FULL_ID));
		} else if (k == 1) {
			json_object_object_add(q, "min_ns", json_object_new_int64(cfg->lat_min_ns));
			json_object_object_add(q, "max_ns", json_object_new_int64(cfg->lat_max_ns));
		}
		json_object_array_add(qa, q);
	}
	json_object_object_add(o, "queries", qa);
	return o;
}

static const char *const cnt_names[PINT_CNT_MAX] = {
	[PINT_CNT_SRC_OK] = "source_ok",
	[PINT_CNT_SRC_TTL_SET] = "source_ttl_set",
	[PINT_CNT_TRANSIT_OK] = "transit_ok",
	[PINT_CNT_SINK_OK] = "sink_ok",
	[PINT_CNT_NO_DF] = "no_df",
	[PINT_CNT_FRAGMENT] = "fragment",
	[PINT_CNT_NO_OPTION] = "no_option",
	[PINT_CNT_HBH_PRESENT] = "hbh_present",
	[PINT_CNT_MTU] = "mtu",
	[PINT_CNT_HOP_RANGE] = "hop_range",
	[PINT_CNT_LAT_UNAVAIL] = "latency_unavailable",
	[PINT_CNT_ERR] = "error",
	[PINT_CNT_EVENTS_LOST] = "events_lost",
	[PINT_CNT_NOT_CONFIGURED] = "not_configured",
};

static struct json_object *ifaces_json(void)
{
	struct json_object *a = json_object_new_array(), *o, *c;
	int fd = hm_map_open(PINT_MAP_IFCFG), sfd = hm_map_open(PINT_MAP_STATS);
	int ncpu = libbpf_num_possible_cpus();
	struct pint_link_stats *per = NULL;
	struct pint_if_cfg ic;
	__u32 key, next, *prev = NULL;
	char name[IF_NAMESIZE];
	int i, j;

	if (ncpu > 0)
		per = calloc(ncpu, sizeof(*per));
	while (fd >= 0 && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &ic))
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "dev", json_object_new_string(ifname_or_index(key, name)));
		json_object_object_add(o, "ifindex", json_object_new_int(key));
		c = json_object_new_array();
		if (ic.flags & PINT_IF_F_SOURCE)
			json_object_array_add(c, json_object_new_string("source"));
		if (ic.flags & PINT_IF_F_TRANSIT)
			json_object_array_add(c, json_object_new_string("transit"));
		if (ic.flags & PINT_IF_F_SINK)
			json_object_array_add(c, json_object_new_string("sink"));
		json_object_object_add(o, "roles", c);
		json_object_object_add(o, "rate_bps", json_object_new_int64(ic.rate_bps));
		if (show_stats && per && sfd >= 0) {
			c = json_object_new_object();
			memset(per, 0, ncpu * sizeof(*per));
			bpf_map_lookup_elem(sfd, &key, per);
			for (j = 0; j < PINT_CNT_MAX; j++) {
				__u64 sum = 0;

				for (i = 0; i < ncpu; i++)
					sum += per[i].cnt[j];
				json_object_object_add(c, cnt_names[j], json_object_new_int64(sum));
			}
			json_object_object_add(o, "counters", c);
		}
		json_object_array_add(a, o);
	}
	free(per);
	if (fd >= 0)
		close(fd);
	if (sfd >= 0)
		close(sfd);
	return a;
}

/* The agent's state file, if an agent wrote it recently. */
static struct json_object *agent_state(void)
{
	char path[PATH_MAX];
	struct stat st;

	if (hm_run_path(path, sizeof(path), HM_PINT_STATE_NAME) || stat(path, &st) || time(NULL) - st.st_mtime > PINT_STATE_MAX_AGE_S)
		return NULL;
	return json_object_from_file(path);
}

static int ring_cb(void *ctx, void *data, size_t size)
{
	pint_sink_add(ctx, data, size);
	return 0;
}

/* No agent: infer from what the ring buffer holds plus @secs of traffic. */
static struct json_object *ring_state(const struct pint_domain_cfg *cfg, double secs)
{
	struct json_object *o = NULL;
	struct ring_buffer *rb = NULL;
	struct pint_sink *s;
	struct timespec t0, t;
	int fd;

	s = pint_sink_new(cfg);
	if (!s) {
		hm_errf(-errno, "cannot start the inference (PINT not configured?)");
		return NULL;
	}
	fd = hm_map_open(PINT_MAP_EVENTS);
	if (fd < 0) {
		hm_errf(fd, "cannot open %s", PINT_MAP_EVENTS);
		goto out;
	}
	rb = ring_buffer__new(fd, ring_cb, s, NULL);
	if (!rb) {
		hm_errf(-errno, "cannot read %s", PINT_MAP_EVENTS);
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		ring_buffer__poll(rb, 100);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	ring_buffer__consume(rb);
	o = pint_sink_to_json(s);
	json_object_object_add(o, "source", json_object_new_string("ring"));
out:
	ring_buffer__free(rb);
	if (fd >= 0)
		close(fd);
	pint_sink_free(s);
	return o;
}

static const char *jstr(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : "";
}

static long long jint(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : 0;
}

static void print_ns(const char *what, long long ns)
{
	if (ns >= 1000000)
		printf(" %s %.2fms", what, ns / 1e6);
	else if (ns >= 1000)
		printf(" %s %.1fus", what, ns / 1e3);
	else
		printf(" %s %lldns", what, ns);
}

static void print_text_state(struct json_object *all)
{
	struct json_object *c, *a, *f, *p, *v, *x;
	size_t i, j, n;
	int k;

	c = json_object_object_get(all, "config");
	printf("pint %s budget %lld hop-limit-start %lld ids %lld-%lld base-rtt %lldns\n",
	       json_object_get_boolean(json_object_object_get(c, "configured")) ?
	       "configured" : "not configured",
	       jint(c, "budget"), jint(c, "hop_limit_start"), jint(c, "id_min"),
	       jint(c, "id_max"), jint(c, "base_rtt_ns"));
	a = json_object_object_get(c, "queries");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		v = json_object_array_get_idx(a, i);
		printf("  query %s bits %lld on %.1f%% of packets", jstr(v, "query"),
		       jint(v, "bits"), 100 * json_object_get_double(json_object_object_get(v, "freq")));
		if (!strcmp(jstr(v, "query"), "path"))
			printf(" scheme %s max-hops %lld", jstr(v, "scheme"), jint(v, "max_hops"));
		if (!strcmp(jstr(v, "query"), "latency"))
			printf(" range %lld-%lldns", jint(v, "min_ns"), jint(v, "max_ns"));
		printf("\n");
	}
	a = json_object_object_get(all, "interfaces");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		v = json_object_array_get_idx(a, i);
		printf("dev %s roles", jstr(v, "dev"));
		x = json_object_object_get(v, "roles");
		for (j = 0; x && j < json_object_array_length(x); j++)
			printf(" %s", json_object_get_string(json_object_array_get_idx(x, j)));
		if (jint(v, "rate_bps"))
			printf(" rate %lldbit", jint(v, "rate_bps"));
		printf("\n");
		x = json_object_object_get(v, "counters");
		if (x) {
			printf("   ");
			json_object_object_foreach(x, key, val)
				if (json_object_get_int64(val))
					printf(" %s %lld", key, (long long)json_object_get_int64(val));
			printf("\n");
		}
	}
	a = json_object_object_get(all, "flows");
	n = a ? json_object_array_length(a) : 0;
	for (i = 0; i < n; i++) {
		f = json_object_array_get_idx(a, i);
		printf("flow %s -> %s proto %lld sport %lld dport %lld packets %lld hops %lld\n",
		       jstr(f, "src"), jstr(f, "dst"), jint(f, "proto"), jint(f, "sport"),
		       jint(f, "dport"), jint(f, "packets"), jint(f, "hops"));
		p = json_object_object_get(f, "path");
		if (p) {
			if (json_object_get_boolean(json_object_object_get(p, "complete"))) {
				printf("  path");
				x = json_object_object_get(p, "ids");
				for (j = 0; x && j < json_object_array_length(x); j++)
					printf(" %d", json_object_get_int(json_object_array_get_idx(x, j)));
				printf("  (decoded from %lld packets)", jint(p, "packets_to_decode"));
			} else {
				printf("  path incomplete, candidates per hop:");
				x = json_object_object_get(p, "candidates");
				for (j = 0; x && j < json_object_array_length(x); j++)
					printf(" %d", json_object_get_int(json_object_array_get_idx(x, j)));
			}
			printf(" route-changes %lld\n", jint(p, "route_changes"));
		}
		x = json_object_object_get(f, "previous_paths");
		for (j = 0; x && j < json_object_array_length(x); j++) {
			v = json_object_array_get_idx(x, j);
			printf("  previous path");
			for (k = 0; k < (int)json_object_array_length(v); k++)
				printf(" %d", json_object_get_int(json_object_array_get_idx(v, k)));
			printf("\n");
		}
		x = json_object_object_get(f, "latency");
		for (j = 0; x && j < json_object_array_length(x); j++) {
			v = json_object_array_get_idx(x, j);
			printf("  latency hop %lld samples %lld", jint(v, "hop"), jint(v, "samples"));
			print_ns("p50", jint(v, "p50_ns"));
			print_ns("p90", jint(v, "p90_ns"));
			print_ns("p99", jint(v, "p99_ns"));
			printf("\n");
		}
		x = json_object_object_get(f, "util");
		if (x)
			printf("  util max %.4f last %.4f samples %lld\n",
			       json_object_get_double(json_object_object_get(x, "max")),
			       json_object_get_double(json_object_object_get(x, "last")),
			       jint(x, "samples"));
	}
}

static int do_show(int argc, char **argv)
{
	struct json_object *all, *state = NULL, *v;
	struct pint_domain_cfg cfg;
	double secs = 1.0;
	__u32 zero = 0;
	int fd;

	while (argc > 0) {
		if (matches(*argv, "time")) {
			NEXT_ARG();
			secs = get_u32_arg(*argv, 3600, "time (s)");
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("pint show", *argv);
		}
		argc--;
		argv++;
	}
	fd = map_open_existing(PINT_MAP_CFG);
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (bpf_map_lookup_elem(fd, &zero, &cfg)) {
		close(fd);
		return hm_errf(-errno, "cannot read %s", PINT_MAP_CFG);
	}
	close(fd);
	all = json_object_new_object();
	json_object_object_add(all, "config", cfg_json(&cfg));
	json_object_object_add(all, "interfaces", ifaces_json());
	if (cfg.flags & PINT_DOM_F_CONFIGURED) {
		state = agent_state();
		if (state) {
			json_object_object_add(state, "source", json_object_new_string("agent"));
		} else {
			state = ring_state(&cfg, secs);
		}
	}
	if (state) {
		json_object_object_foreach(state, key, val)
			json_object_object_add(all, key, json_object_get(val));
		json_object_put(state);
	}
	if (json) {
		printf("%s\n", json_object_to_json_string_ext(all, pretty ?
			JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN));
	} else {
		print_text_state(all);
		if (json_object_object_get_ex(all, "source", &v))
			printf("(flows from the %s, %s decoding over %lld switches)\n",
			       !strcmp(json_object_get_string(v), "agent") ?
			       "agent's state file" : "ring buffer, read now",
			       jstr(all, "decoder"), jint(all, "switches"));
	}
	json_object_put(all);
	return HM_EXIT_OK;
}

/**
 * do_pint() - "hopmark pint ...": PINT roles, queries, settings, inference
 * @argc:	words after "pint"
 * @argv:	the words
 *
 * Return: exit status.
 */
int do_pint(int argc, char **argv)
{
	if (argc < 1) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (matches(*argv, "enable"))
		return do_enable(argc - 1, argv + 1);
	if (matches(*argv, "disable"))
		return do_disable(argc - 1, argv + 1);
	if (matches(*argv, "set"))
		return do_set(argc - 1, argv + 1);
	if (matches(*argv, "query"))
		return do_query(argc - 1, argv + 1);
	if (matches(*argv, "show") || matches(*argv, "list"))
		return do_show(argc - 1, argv + 1);
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark pint help\".\n", *argv);
	return HM_EXIT_USAGE;
}
