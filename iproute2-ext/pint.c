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
 * domain must be given the same `set` and `query` commands, whose rules are
 * libhopmark's (pint/pint_settings.h). Programs are loaded and attached by
 * libhopmark's roles layer (common/bpf_attach.h, through attach.c), output
 * goes through the print layer (json_print.c): text and -j come from the
 * same calls. The sink's state (hopmarkd's state file, or the ring buffer
 * read now) is data from pint_sink_to_json(), printed member by member.
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
#include "pint/pint_names.h"
#include "pint/pint_settings.h"
#include "pint/pint_sink.h"

/* An agent state file older than this is not trusted (agent gone). */
#define PINT_STATE_MAX_AGE_S	5

/* The interface flag (pint_ifcfg) of each PINT role. */
static const __u32 role_flag[HM_ROLE_MAX] = {
	[HM_ROLE_PINT_SOURCE]	= PINT_IF_F_SOURCE,
	[HM_ROLE_PINT_TRANSIT]	= PINT_IF_F_TRANSIT,
	[HM_ROLE_PINT_SINK]	= PINT_IF_F_SINK,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark pint enable dev DEV role { source | transit | sink } [ rate RATE ]\n"
		"       hopmark pint disable dev DEV\n"
		"       hopmark pint set [ budget BITS ] [ hop-limit-start N ] [ seed N ]\n"
		"                        [ ids LO-HI ] [ base-rtt NS ]\n"
		"       hopmark pint query add path bits BITS [ scheme SCHEME ] [ max-hops D ]\n"
		"                                  [ full-id ] [ digests N ] [ weight W ]\n"
		"       hopmark pint query add latency bits BITS [ min NS ] [ max NS ] [ weight W ]\n"
		"       hopmark pint query add util bits BITS [ weight W ]\n"
		"       hopmark pint query del { path | latency | util }\n"
		"       hopmark [ -j ] [ -s ] pint show [ time SEC ]\n"
		"RATE := bits per second, with an optional k, m or g suffix (e.g. 10m)\n"
		"BITS := 1..16 (the budget), 1..8 for latency and util\n"
		"SCHEME := { hybrid | baseline | xor | ladder5 | multilayer }\n");
}

/* ---------------- maps ---------------- */

/*
 * cfg_open() - fd of pint_cfg, created with every PINT map when missing (one
 * object holds every PINT program and map).
 */
static int cfg_open(void)
{
	return map_open_or_create(PINT_MAP_CFG, HM_ROLE_PINT_SOURCE);
}

static int cfg_read(int fd, struct pint_domain_cfg *cfg)
{
	return map_read_single(fd, PINT_MAP_CFG, cfg);
}

static int cfg_write(int fd, const struct pint_domain_cfg *cfg)
{
	return map_write_single(fd, PINT_MAP_CFG, cfg);
}

/* ---------------- commands ---------------- */

/* The PINT role named @word ("source", "transit", "sink"), or exit. */
static enum hm_role parse_role(const char *word)
{
	enum hm_role role;

	for (role = 0; role < HM_ROLE_MAX; role++)
		if (hm_roles[role].family == HM_FAMILY_PINT && !strcmp(word, hm_roles[role].name))
			return role;
	invarg("role is source, transit or sink", word);
}

static int do_enable(int argc, char **argv)
{
	enum hm_role role = HM_ROLE_MAX;
	struct pint_if_cfg ic, old;
	struct hm_role_prog p;
	const char *dev = NULL;
	bool have_rate = false, had;
	__u64 rate = 0;
	__u32 ifindex;
	int fd, ret;

	while (argc > 0) {
		if (matches(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				duparg("dev", *argv);
			dev = *argv;
		} else if (matches(*argv, "role")) {
			NEXT_ARG();
			if (role != HM_ROLE_MAX)
				duparg("role", *argv);
			role = parse_role(*argv);
		} else if (matches(*argv, "rate")) {
			NEXT_ARG();
			if (have_rate)
				duparg("rate", *argv);
			if (get_rate_bps(*argv, &rate))
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
	if (role == HM_ROLE_MAX)
		missing_arg("role", "pint enable");
	ifindex = get_ifindex_arg(dev);
	if (hm_ifindex_bound_check(dev, ifindex, "PINT", "Documentation/pint-datapath.rst"))
		return HM_EXIT_FAIL;
	if (maps_prepare() || role_load(role, &p))
		return HM_EXIT_FAIL;
	fd = map_open_existing(PINT_MAP_IFCFG);
	if (fd < 0) {
		hm_role_unload(&p);
		return HM_EXIT_FAIL;
	}
	had = map_lookup_or_zero(fd, &ifindex, &old, sizeof(old));
	ic = old;
	if (pint_if_add_role(&ic, role_flag[role])) {
		ret = hm_errf(0, "%s cannot be both source and sink (both run at tc ingress)", dev);
		goto out;
	}
	if (have_rate)
		ic.rate_bps = rate;
	if (bpf_map_update_elem(fd, &ifindex, &ic, BPF_ANY)) {
		ret = hm_errf(-errno, "cannot write %s", PINT_MAP_IFCFG);
		goto out;
	}
	ret = role_attach_prog(&p, ifindex);
	if (ret) {
		/* No role without its program: the entry goes back to what it was. */
		map_restore_elem(fd, &ifindex, &old, had);
	}
out:
	close(fd);
	hm_role_unload(&p);
	return ret;
}

static int do_disable(int argc, char **argv)
{
	static const enum hm_role roles[] = {
		HM_ROLE_PINT_SOURCE, HM_ROLE_PINT_SINK, HM_ROLE_PINT_TRANSIT,
	};
	const struct pint_if_cfg none = { 0 };
	const char *dev = NULL;
	__u32 ifindex;
	int fd, ret = 0;
	size_t i;

	while (argc > 0) {
		if (matches(*argv, "dev")) {
			NEXT_ARG();
			if (dev)
				duparg("dev", *argv);
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
	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		ret |= role_detach(roles[i], ifindex);
	/* An array's entry cannot go: all zeroes is an interface without a role. */
	fd = ifindex < PINT_IFINDEX_LIMIT ? hm_map_open(PINT_MAP_IFCFG) : -1;
	if (fd >= 0) {
		if (bpf_map_update_elem(fd, &ifindex, &none, BPF_ANY))
			ret = hm_errf(-errno, "cannot write %s[%u]", PINT_MAP_IFCFG, ifindex);
		close(fd);
	}
	return ret ? HM_EXIT_FAIL : HM_EXIT_OK;
}

static int do_set(int argc, char **argv)
{
	char msg[HM_ATTACH_MSG_MAX];
	struct pint_domain_cfg cfg;
	__u64 lo, hi;
	int fd, ret;
	char *dash;

	if (argc > 0 && matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	fd = cfg_open();
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (cfg_read(fd, &cfg)) {
		close(fd);
		return HM_EXIT_FAIL;
	}
	pint_cfg_defaults(&cfg);
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
			pint_cfg_set_seed(&cfg, get_u32_arg(*argv, 0xffffffffU, "seed"));
		} else if (matches(*argv, "ids")) {
			NEXT_ARG();
			dash = strchr(*argv, '-');
			if (!dash)
				invarg("ids is LO-HI, e.g. 1-255", *argv);
			*dash = '\0';
			if (get_u64_max(&lo, *argv, 0xffffffffU) ||
			    get_u64_max(&hi, dash + 1, 0xffffffffU) ||
			    pint_cfg_set_ids(&cfg, lo, hi)) {
				*dash = '-';
				invarg("ids is LO-HI with at most 65536 IDs", *argv);
			}
		} else if (matches(*argv, "base-rtt")) {
			NEXT_ARG();
			cfg.base_rtt_ns = get_u64_arg(*argv, 10000000000ULL, "base-rtt");
		} else if (matches(*argv, "help")) {
			usage(stdout);
			close(fd);
			return HM_EXIT_OK;
		} else {
			unknown_arg("pint set", *argv);
		}
		argc--;
		argv++;
	}
	if (pint_cfg_commit(&cfg, msg, sizeof(msg)))
		ret = hm_errf(0, "%s", msg);
	else
		ret = cfg_write(fd, &cfg);
	close(fd);
	return ret;
}

static int do_query(int argc, char **argv)
{
	struct pint_query_args q = { .kind = PINT_KIND_MAX };
	char scheme_args[PINT_SCHEME_ARGS_MAX];
	char msg[HM_ATTACH_MSG_MAX];
	struct pint_domain_cfg cfg;
	int add, fd, ret;

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
		q.kind = PINT_KIND_PATH;
	else if (matches(*argv, "latency"))
		q.kind = PINT_KIND_LATENCY;
	else if (matches(*argv, "util") || matches(*argv, "utilization") ||
		 matches(*argv, "utilisation"))
		q.kind = PINT_KIND_UTIL;
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
			q.bits = get_u32_arg(*argv, q.kind == PINT_KIND_PATH ? PINT_WIRE_BITS : 8,
					     "bits");
			if (!q.bits)
				invarg("bits is at least 1", *argv);
		} else if (add && matches(*argv, "weight")) {
			NEXT_ARG();
			q.weight = get_u32_arg(*argv, 1000000, "weight (in 1/1000)");
			if (!q.weight)
				invarg("weight is a positive number of thousandths", *argv);
		} else if (add && q.kind == PINT_KIND_PATH && matches(*argv, "scheme")) {
			int err;

			NEXT_ARG();
			err = pint_scheme_parse(*argv, &q.scheme, scheme_args);
			if (err == -ENAMETOOLONG)
				invarg("the scheme's parameters are too long for a domain", *argv);
			if (err && strchr(*argv, ':'))
				invarg("scheme parameters are hybrid:tau=T,p=P, "
				       "multilayer:tau=T,p=P1,p=P2..., or xor:P (P may be C/d)", *argv);
			if (err)
				invarg("scheme is hybrid, baseline, xor, ladder5 or multilayer", *argv);
			q.scheme_args = scheme_args;
			q.have_scheme = true;
		} else if (add && q.kind == PINT_KIND_PATH && matches(*argv, "max-hops")) {
			NEXT_ARG();
			q.max_hops = get_u32_arg(*argv, PINT_MAX_HOPS, "max-hops");
			if (!q.max_hops)
				invarg("max-hops is 1..64", *argv);
		} else if (add && q.kind == PINT_KIND_PATH && matches(*argv, "full-id")) {
			q.full_id = true;
		} else if (add && q.kind == PINT_KIND_PATH && matches(*argv, "digests")) {
			NEXT_ARG();
			q.digests = get_u32_arg(*argv, PINT_PATH_MAX_INST, "digests");
			if (!q.digests)
				invarg("digests is 1..2", *argv);
		} else if (add && q.kind == PINT_KIND_LATENCY && matches(*argv, "min")) {
			NEXT_ARG();
			q.lat_min_ns = get_u64_arg(*argv, PINT_LAT_MAX_NS, "min (ns)");
		} else if (add && q.kind == PINT_KIND_LATENCY && matches(*argv, "max")) {
			NEXT_ARG();
			q.lat_max_ns = get_u64_arg(*argv, PINT_LAT_MAX_NS, "max (ns)");
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg(add ? "pint query add" : "pint query del", *argv);
		}
		argc--;
		argv++;
	}
	if (add && !q.bits)
		missing_arg("bits", "pint query add");

	fd = cfg_open();
	if (fd < 0)
		return HM_EXIT_FAIL;
	if (cfg_read(fd, &cfg)) {
		close(fd);
		return HM_EXIT_FAIL;
	}
	pint_cfg_defaults(&cfg);
	if (add ? pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)) :
		  pint_cfg_query_del(&cfg, q.kind, msg, sizeof(msg)))
		ret = hm_errf(0, "%s", msg);
	else
		ret = cfg_write(fd, &cfg);
	close(fd);
	return ret;
}

/* ---------------- show ---------------- */

static void print_cfg(const struct pint_domain_cfg *cfg)
{
	bool configured = cfg->flags & PINT_DOM_F_CONFIGURED;
	unsigned int bits[PINT_KIND_MAX];
	enum pint_kind k;
	double freq;

	pint_cfg_bits(cfg, bits);
	open_json_object("config");
	print_bool(PRINT_JSON, "configured", NULL, configured);
	print_string(PRINT_FP, NULL, "pint %s", configured ? "configured" : "not configured");
	print_uint(PRINT_ANY, "budget", " budget %llu", cfg->plan.budget);
	print_uint(PRINT_ANY, "hop_limit_start", " hop-limit-start %llu", cfg->hop_limit_start);
	print_uint(PRINT_ANY, "id_min", " ids %llu", cfg->id_min);
	print_uint(PRINT_ANY, "id_max", "-%llu", cfg->id_max);
	print_uint(PRINT_ANY, "base_rtt_ns", " base-rtt %lluns", cfg->base_rtt_ns);
	print_nl();
	open_json_array(PRINT_JSON, "queries");
	for (k = 0; k < PINT_KIND_MAX; k++) {
		if (!bits[k])
			continue;
		freq = pint_query_freq(&cfg->plan, pint_cfg_query_index(cfg, k));
		open_json_object(NULL);
		print_string(PRINT_ANY, "query", "  query %s", pint_kind_names[k]);
		print_uint(PRINT_ANY, "bits", " bits %llu", bits[k]);
		print_float(PRINT_JSON, "freq", NULL, freq);
		print_float(PRINT_FP, NULL, " on %.1f%% of packets", 100 * freq);
		if (k == PINT_KIND_PATH) {
			char scheme[PINT_SCHEME_ARGS_MAX + 16];

			print_string(PRINT_ANY, "scheme", " scheme %s",
				     pint_cfg_scheme_string(cfg, scheme, sizeof(scheme)));
			print_uint(PRINT_ANY, "max_hops", " max-hops %llu", cfg->path_d);
			print_bool(PRINT_JSON, "full_id", NULL, cfg->flags & PINT_DOM_F_FULL_ID);
			if (cfg->path_inst > 1)
				print_uint(PRINT_ANY, "digests", " digests %llu", cfg->path_inst);
		} else if (k == PINT_KIND_LATENCY) {
			print_uint(PRINT_ANY, "min_ns", " range %llu", cfg->lat_min_ns);
			print_uint(PRINT_ANY, "max_ns", "-%lluns", cfg->lat_max_ns);
		}
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
}

/* With -s: the interface's counters summed over the CPUs; text shows the non-zero ones. */
static void print_if_counters(int sfd, __u32 ifindex, struct pint_link_stats *per, int ncpu)
{
	memset(per, 0, ncpu * sizeof(*per));
	bpf_map_lookup_elem(sfd, &ifindex, per);
	open_json_object("counters");
	print_text("   ");
	print_percpu_counters(per->cnt, ncpu, PINT_CNT_MAX, pint_counter_names);
	print_nl();
	close_json_object();
}

static void print_ifaces(void)
{
	static const enum hm_role roles[] = {
		HM_ROLE_PINT_SOURCE, HM_ROLE_PINT_TRANSIT, HM_ROLE_PINT_SINK,
	};
	int fd = hm_map_open(PINT_MAP_IFCFG), sfd = hm_map_open(PINT_MAP_STATS);
	int ncpu = libbpf_num_possible_cpus();
	struct pint_link_stats *per = NULL;
	__u32 key, next, *prev = NULL;
	char name[IF_NAMESIZE];
	struct pint_if_cfg ic;
	size_t r;

	if (ncpu > 0)
		per = calloc(ncpu, sizeof(*per));
	open_json_array(PRINT_JSON, "interfaces");
	while (fd >= 0 && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		/* Every ifindex has an entry: those without a role are all zeroes. */
		if (bpf_map_lookup_elem(fd, &key, &ic) || !ic.flags)
			continue;
		open_json_object(NULL);
		print_string(PRINT_ANY, "dev", "dev %s", ifname_or_index(key, name));
		print_uint(PRINT_JSON, "ifindex", NULL, key);
		print_text(" roles");
		open_json_array(PRINT_JSON, "roles");
		for (r = 0; r < sizeof(roles) / sizeof(roles[0]); r++)
			if (ic.flags & role_flag[roles[r]])
				print_string(PRINT_ANY, NULL, " %s", hm_roles[roles[r]].name);
		close_json_array(PRINT_JSON, NULL);
		print_uint(ic.rate_bps ? PRINT_ANY : PRINT_JSON, "rate_bps", " rate %llubit",
			   ic.rate_bps);
		print_nl();
		if (show_stats && per && sfd >= 0)
			print_if_counters(sfd, key, per, ncpu);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	free(per);
	if (fd >= 0)
		close(fd);
	if (sfd >= 0)
		close(sfd);
}

/* The agent's state file, if an agent wrote it recently. */
static struct json_object *agent_state(void)
{
	char path[PATH_MAX];
	struct stat st;

	if (hm_run_path(path, sizeof(path), HM_PINT_STATE_NAME) || stat(path, &st) ||
	    time(NULL) - st.st_mtime > PINT_STATE_MAX_AGE_S)
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
	struct timespec t0, t;
	struct pint_sink *s;
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
out:
	ring_buffer__free(rb);
	if (fd >= 0)
		close(fd);
	pint_sink_free(s);
	return o;
}

/*
 * The sink's state is data (pint_sink_to_json(), the agent's state file):
 * each member is printed with the print layer, JSON with its own key and
 * type. A member that is absent stays absent in JSON; the text shows 0 or
 * an empty string in its place. A member of the wrong type reads as absent.
 */
static struct json_object *member(struct json_object *o, const char *key, enum json_type type)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

/* A number member: an integer, or a double truncated as json-c does. */
static struct json_object *number(struct json_object *o, const char *key)
{
	struct json_object *v = member(o, key, json_type_int);

	return v ? v : member(o, key, json_type_double);
}

static void state_int(enum output_type type, struct json_object *o, const char *key,
		      const char *fmt)
{
	struct json_object *v = number(o, key);

	if (v)
		print_int(type, key, fmt, json_object_get_int64(v));
	else if (type & PRINT_FP)
		print_int(PRINT_FP, key, fmt, 0);
}

static void state_float(enum output_type type, struct json_object *o, const char *key,
			const char *fmt)
{
	struct json_object *v = number(o, key);

	if (v)
		print_float(type, key, fmt, json_object_get_double(v));
	else if (type & PRINT_FP)
		print_float(PRINT_FP, key, fmt, 0);
}

static void state_str(enum output_type type, struct json_object *o, const char *key,
		      const char *fmt)
{
	struct json_object *v = member(o, key, json_type_string);

	if (v)
		print_string(type, key, fmt, json_object_get_string(v));
	else if (type & PRINT_FP)
		print_string(PRINT_FP, key, fmt, "");
}

static bool state_bool(struct json_object *o, const char *key)
{
	struct json_object *v = member(o, key, json_type_boolean);

	if (v)
		print_bool(PRINT_JSON, key, NULL, json_object_get_boolean(v));
	return v && json_object_get_boolean(v);
}

/* Switch IDs or candidate counts: " N" each in text, an array in JSON. */
static void print_numbers(struct json_object *a, const char *key)
{
	size_t i, n = json_object_array_length(a);

	open_json_array(PRINT_JSON, key);
	for (i = 0; i < n; i++)
		print_int(PRINT_ANY, NULL, " %lld",
			  json_object_get_int64(json_object_array_get_idx(a, i)));
	close_json_array(PRINT_JSON, NULL);
}

/* A latency in ns: the number in JSON, in the unit that reads best in text. */
static void state_ns(struct json_object *o, const char *key, const char *label)
{
	struct json_object *v = number(o, key);
	long long ns = v ? json_object_get_int64(v) : 0;

	if (v)
		print_int(PRINT_JSON, key, NULL, ns);
	if (ns >= 1000000)
		print_text(" %s %.2fms", label, ns / 1e6);
	else if (ns >= 1000)
		print_text(" %s %.1fus", label, ns / 1e3);
	else
		print_text(" %s %lldns", label, ns);
}

static void print_flow_path(struct json_object *p)
{
	struct json_object *x;
	bool complete;

	open_json_object("path");
	complete = state_bool(p, "complete");
	state_int(PRINT_JSON, p, "packets", NULL);
	state_int(PRINT_JSON, p, "hops", NULL);
	if (complete) {
		print_text("  path");
		x = member(p, "ids", json_type_array);
		if (x)
			print_numbers(x, "ids");
		state_int(PRINT_ANY, p, "packets_to_decode", "  (decoded from %lld packets)");
		state_bool(p, "loop");
	} else {
		print_text("  path incomplete, candidates per hop:");
		x = member(p, "candidates", json_type_array);
		if (x)
			print_numbers(x, "candidates");
	}
	state_int(PRINT_ANY, p, "route_changes", " route-changes %lld");
	state_int(PRINT_JSON, p, "loops", NULL);
	print_nl();
	close_json_object();
}

static void print_flow(struct json_object *f)
{
	struct json_object *x, *v;
	size_t i, n;

	open_json_object(NULL);
	state_int(PRINT_JSON, f, "family", NULL);
	state_str(PRINT_ANY, f, "src", "flow %s");
	state_str(PRINT_ANY, f, "dst", " -> %s");
	state_int(PRINT_ANY, f, "proto", " proto %lld");
	state_int(PRINT_ANY, f, "sport", " sport %lld");
	state_int(PRINT_ANY, f, "dport", " dport %lld");
	state_int(PRINT_ANY, f, "packets", " packets %lld");
	state_int(PRINT_ANY, f, "hops", " hops %lld");
	print_nl();
	x = member(f, "path", json_type_object);
	if (x)
		print_flow_path(x);
	x = member(f, "previous_paths", json_type_array);
	if (x) {
		open_json_array(PRINT_JSON, "previous_paths");
		n = json_object_array_length(x);
		for (i = 0; i < n; i++) {
			v = json_object_array_get_idx(x, i);
			print_text("  previous path");
			if (json_object_is_type(v, json_type_array))
				print_numbers(v, NULL);
			print_nl();
		}
		close_json_array(PRINT_JSON, NULL);
	}
	x = member(f, "latency", json_type_array);
	if (x) {
		open_json_array(PRINT_JSON, "latency");
		n = json_object_array_length(x);
		for (i = 0; i < n; i++) {
			v = json_object_array_get_idx(x, i);
			open_json_object(NULL);
			state_int(PRINT_ANY, v, "hop", "  latency hop %lld");
			state_int(PRINT_ANY, v, "samples", " samples %lld");
			state_ns(v, "p50_ns", "p50");
			state_ns(v, "p90_ns", "p90");
			state_ns(v, "p99_ns", "p99");
			print_nl();
			close_json_object();
		}
		close_json_array(PRINT_JSON, NULL);
	}
	x = member(f, "util", json_type_object);
	if (x) {
		open_json_object("util");
		state_int(PRINT_JSON, x, "samples", NULL);
		state_float(PRINT_ANY, x, "max", "  util max %.4f");
		state_int(PRINT_JSON, x, "max_code", NULL);
		state_float(PRINT_ANY, x, "last", " last %.4f");
		state_int(PRINT_FP, x, "samples", " samples %lld");
		print_nl();
		close_json_object();
	}
	close_json_object();
}

/* The sink's flows, its counters, and in text where they come from. */
static void print_state(struct json_object *state, bool from_agent)
{
	struct json_object *x;
	size_t i, n;

	x = member(state, "flows", json_type_array);
	if (x) {
		open_json_array(PRINT_JSON, "flows");
		n = json_object_array_length(x);
		for (i = 0; i < n; i++)
			print_flow(json_object_array_get_idx(x, i));
		close_json_array(PRINT_JSON, NULL);
	}
	x = member(state, "stats", json_type_object);
	if (x) {
		open_json_object("stats");
		state_int(PRINT_JSON, x, "records", NULL);
		state_int(PRINT_JSON, x, "bad_records", NULL);
		state_int(PRINT_JSON, x, "flows", NULL);
		state_int(PRINT_JSON, x, "flows_refused", NULL);
		close_json_object();
	}
	print_text("(flows from the %s, ",
		   from_agent ? "agent's state file" : "ring buffer, read now");
	state_str(PRINT_ANY, state, "decoder", "%s decoding");
	state_int(PRINT_ANY, state, "switches", " over %lld switches)");
	print_string(PRINT_JSON, "source", NULL, from_agent ? "agent" : "ring");
	print_nl();
}

static int do_show(int argc, char **argv)
{
	struct json_object *state = NULL;
	struct pint_domain_cfg cfg;
	bool from_agent = false;
	double secs = 1.0;

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
	if (map_read_existing(PINT_MAP_CFG, &cfg))
		return HM_EXIT_FAIL;
	new_json_obj_single();
	print_cfg(&cfg);
	print_ifaces();
	if (cfg.flags & PINT_DOM_F_CONFIGURED) {
		state = agent_state();
		from_agent = state;
		if (!state)
			state = ring_state(&cfg, secs);
	}
	if (state)
		print_state(state, from_agent);
	delete_json_obj();
	json_object_put(state);
	return HM_EXIT_OK;
}

static const struct hm_subcmd pint_cmds[] = {
	{ "enable",	do_enable },
	{ "disable",	do_disable },
	{ "set",	do_set },
	{ "query",	do_query },
	{ "show",	do_show },
	{ "list",	do_show },
	{ NULL, NULL },
};

/**
 * do_pint() - "hopmark pint ...": PINT roles, queries, settings, inference
 * @argc:	words after "pint"
 * @argv:	the words
 *
 * Return: exit status.
 */
int do_pint(int argc, char **argv)
{
	return hm_subcmd_run("pint", pint_cmds, usage, argc, argv);
}
