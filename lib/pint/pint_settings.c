// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pint_settings.c - the rules that turn `hopmark pint set` and `hopmark
 * pint query` into a struct pint_domain_cfg (pint_settings.h): defaults,
 * queries present, and the query plan, path scheme and latency table
 * derived from them. The same commands on every node of a domain must give
 * the same value, byte for byte, since every node and the sink derive a
 * packet's query subset and digest layout from it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pint/pint_settings.h"
#include "pint/pint_sink.h"

const char *const pint_kind_names[PINT_KIND_MAX] = {
	[PINT_KIND_PATH]	= "path",
	[PINT_KIND_LATENCY]	= "latency",
	[PINT_KIND_UTIL]	= "util",
};

/* The engine's kind of each query kind (struct pint_query.kind). */
static const unsigned int engine_kind[PINT_KIND_MAX] = {
	[PINT_KIND_PATH]	= PINT_Q_PATH,
	[PINT_KIND_LATENCY]	= PINT_Q_LATENCY,
	[PINT_KIND_UTIL]	= PINT_Q_UTIL,
};

static const char *const scheme_names[PINT_SCHEME_MAX] = {
	[PINT_SCHEME_HYBRID]	 = "hybrid",
	[PINT_SCHEME_BASELINE]	 = "baseline",
	[PINT_SCHEME_XOR]	 = "xor",
	[PINT_SCHEME_LADDER5]	 = "ladder5",
	[PINT_SCHEME_MULTILAYER] = "multilayer",
};

const char *pint_scheme_name(unsigned int scheme)
{
	return scheme < PINT_SCHEME_MAX ? scheme_names[scheme] : "hybrid";
}

int pint_scheme_from_name(const char *name)
{
	int i;

	for (i = 0; name && i < PINT_SCHEME_MAX; i++)
		if (!strcmp(name, scheme_names[i]))
			return i;
	return -EINVAL;
}

int pint_scheme_parse(const char *str, __u8 *scheme, char args[PINT_SCHEME_ARGS_MAX])
{
	char name[16];
	const char *colon;
	struct pint_path_params p;
	size_t n;
	int s;

	if (!str)
		return -EINVAL;
	colon = strchr(str, ':');
	n = colon ? (size_t)(colon - str) : strlen(str);
	if (n >= sizeof(name))
		return -EINVAL;
	memcpy(name, str, n);
	name[n] = '\0';
	s = pint_scheme_from_name(name);
	if (s < 0 || (colon && !colon[1]))
		return -EINVAL;
	if (colon && strlen(colon + 1) >= PINT_SCHEME_ARGS_MAX)
		return -ENAMETOOLONG;
	if (pint_path_params_init(&p, NULL, 8, 0) || pint_path_scheme(&p, str, 16))
		return -EINVAL;
	*scheme = s;
	strcpy(args, colon ? colon + 1 : "");
	return 0;
}

const char *pint_cfg_scheme_string(const struct pint_domain_cfg *cfg, char *buf, size_t len)
{
	char args[PINT_SCHEME_ARGS_MAX];

	/* the field comes from a map or a state file: never trust its NUL */
	memcpy(args, cfg->path_scheme_args, sizeof(args));
	args[sizeof(args) - 1] = '\0';
	snprintf(buf, len, "%s%s%s", pint_scheme_name(cfg->path_scheme), args[0] ? ":" : "",
		 args);
	return buf;
}

void pint_cfg_defaults(struct pint_domain_cfg *cfg)
{
	if (cfg->plan.budget)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->plan.budget = PINT_WIRE_BITS;
	cfg->plan.seeds.decider = PINT_SEED_DECIDER;
	cfg->plan.seeds.act = PINT_SEED_ACT;
	cfg->plan.seeds.value = PINT_SEED_VALUE;
	cfg->hop_limit_start = PINT_DEF_HOP_LIMIT_START;
	cfg->id_min = PINT_DEF_ID_MIN;
	cfg->id_max = PINT_DEF_ID_MAX;
	cfg->base_rtt_ns = PINT_DEF_BASE_RTT_NS;
	cfg->lat_min_ns = PINT_DEF_LAT_MIN_NS;
	cfg->lat_max_ns = PINT_DEF_LAT_MAX_NS;
	cfg->q_path = cfg->q_lat = cfg->q_util = PINT_QUERY_NONE;
	cfg->path_d = PINT_DEF_PATH_D;
}

static __u8 *query_index(struct pint_domain_cfg *cfg, enum pint_kind kind)
{
	return kind == PINT_KIND_PATH ? &cfg->q_path :
	       kind == PINT_KIND_LATENCY ? &cfg->q_lat : &cfg->q_util;
}

__u8 pint_cfg_query_index(const struct pint_domain_cfg *cfg, enum pint_kind kind)
{
	return *query_index((struct pint_domain_cfg *)cfg, kind);
}

void pint_cfg_bits(const struct pint_domain_cfg *cfg, unsigned int bits[PINT_KIND_MAX])
{
	enum pint_kind k;

	for (k = 0; k < PINT_KIND_MAX; k++) {
		__u8 i = pint_cfg_query_index(cfg, k);

		bits[k] = (cfg->flags & PINT_DOM_F_CONFIGURED) && i < PINT_QUERY_MAX ?
			  cfg->plan.bits[i] : 0;
	}
}

void pint_cfg_set_seed(struct pint_domain_cfg *cfg, __u32 seed)
{
	cfg->plan.seeds.decider = PINT_SEED_DECIDER ^ seed;
	cfg->plan.seeds.act = PINT_SEED_ACT ^ seed;
	cfg->plan.seeds.value = PINT_SEED_VALUE ^ seed;
}

int pint_cfg_set_ids(struct pint_domain_cfg *cfg, __u32 lo, __u32 hi)
{
	if (lo > hi || hi - lo >= PINT_SINK_MAX_IDS)
		return -ERANGE;
	cfg->id_min = lo;
	cfg->id_max = hi;
	return 0;
}

int pint_cfg_rebuild(struct pint_domain_cfg *cfg, const unsigned int bits[PINT_KIND_MAX],
		     char *msg, size_t len)
{
	struct pint_seeds seeds = cfg->plan.seeds;
	unsigned int budget = cfg->plan.budget, n = 0;
	struct pint_query q[PINT_KIND_MAX];
	char scheme[PINT_SCHEME_ARGS_MAX + 16];
	struct pint_lat_table lt;
	enum pint_kind k;
	int err;

	for (k = 0; k < PINT_KIND_MAX; k++) {
		*query_index(cfg, k) = PINT_QUERY_NONE;
		if (!bits[k])
			continue;
		q[n].kind = engine_kind[k];
		q[n].bits = bits[k];
		q[n].weight = (cfg->weight[k] ? cfg->weight[k] : PINT_DEF_WEIGHT) / 1000.0;
		*query_index(cfg, k) = n++;
	}
	/* The plan is rebuilt whole: no subset of the old one may survive. */
	memset(&cfg->plan, 0, sizeof(cfg->plan));
	cfg->plan.seeds = seeds;
	cfg->plan.budget = budget;
	cfg->flags &= ~PINT_DOM_F_CONFIGURED;
	if (!n)
		return 0;
	err = pint_query_plan_build(&cfg->plan, &seeds, budget, q, n);
	if (err) {
		snprintf(msg, len, "cannot build the query plan (budget %u bits): %s",
			 budget, strerror(-err));
		return err;
	}
	if (bits[PINT_KIND_PATH]) {
		unsigned int flags = cfg->flags & PINT_DOM_F_FULL_ID ? PINT_PATH_F_FULL_ID : 0;
		unsigned int inst = cfg->path_inst > 1 ? cfg->path_inst : 1;

		if (inst > PINT_PATH_MAX_INST || bits[PINT_KIND_PATH] % inst) {
			snprintf(msg, len, "%u path bits do not split into %u digests",
				 bits[PINT_KIND_PATH], inst);
			return -EINVAL;
		}
		err = pint_path_params_init(&cfg->path, &seeds, bits[PINT_KIND_PATH] / inst,
					    flags);
		if (!err)
			err = pint_path_scheme(&cfg->path,
					       pint_cfg_scheme_string(cfg, scheme, sizeof(scheme)),
					       cfg->path_d);
		if (!err)
			err = pint_path_set_instances(&cfg->path, inst);
		if (err) {
			snprintf(msg, len, "cannot build the path scheme %s for %u hops: %s",
				 pint_cfg_scheme_string(cfg, scheme, sizeof(scheme)), cfg->path_d,
				 strerror(-err));
			return err;
		}
	}
	if (bits[PINT_KIND_LATENCY]) {
		err = pint_lat_table_for_range(&lt, bits[PINT_KIND_LATENCY], cfg->lat_min_ns,
					       cfg->lat_max_ns);
		if (err) {
			snprintf(msg, len, "cannot build the latency scale %llu..%llu ns: %s",
				 (unsigned long long)cfg->lat_min_ns,
				 (unsigned long long)cfg->lat_max_ns, strerror(-err));
			return err;
		}
		cfg->lat = lt.enc;
	}
	cfg->flags |= PINT_DOM_F_CONFIGURED;
	return 0;
}

int pint_cfg_commit(struct pint_domain_cfg *cfg, char *msg, size_t len)
{
	unsigned int bits[PINT_KIND_MAX];
	enum pint_kind k;

	pint_cfg_bits(cfg, bits);
	for (k = 0; k < PINT_KIND_MAX; k++) {
		if (bits[k] > cfg->plan.budget) {
			snprintf(msg, len, "the %s query takes %u bits, more than the budget of %u",
				 pint_kind_names[k], bits[k], cfg->plan.budget);
			return -EINVAL;
		}
	}
	return pint_cfg_rebuild(cfg, bits, msg, len);
}

int pint_cfg_query_add(struct pint_domain_cfg *cfg, const struct pint_query_args *q,
		       char *msg, size_t len)
{
	struct pint_domain_cfg next = *cfg;
	unsigned int bits[PINT_KIND_MAX];
	int err;

	if (q->kind >= PINT_KIND_MAX || !q->bits) {
		snprintf(msg, len, "a query needs a kind and at least 1 bit");
		return -EINVAL;
	}
	if (q->bits > cfg->plan.budget) {
		snprintf(msg, len, "%u bits do not fit the budget of %u bits (hopmark pint set budget)",
			 q->bits, cfg->plan.budget);
		return -EINVAL;
	}
	pint_cfg_bits(&next, bits);
	bits[q->kind] = q->bits;
	next.weight[q->kind] = q->weight;
	if (q->kind == PINT_KIND_PATH) {
		if (q->have_scheme) {
			const char *a = q->scheme_args ? q->scheme_args : "";

			if (strlen(a) >= sizeof(next.path_scheme_args)) {
				snprintf(msg, len, "scheme parameters \"%s\" are longer than %zu bytes",
					 a, sizeof(next.path_scheme_args) - 1);
				return -ENAMETOOLONG;
			}
			next.path_scheme = q->scheme;
			memset(next.path_scheme_args, 0, sizeof(next.path_scheme_args));
			strcpy(next.path_scheme_args, a);
		}
		if (q->max_hops)
			next.path_d = q->max_hops;
		if (q->full_id)
			next.flags |= PINT_DOM_F_FULL_ID;
		else
			next.flags &= ~PINT_DOM_F_FULL_ID;
		if (q->digests > PINT_PATH_MAX_INST || (q->digests && q->bits % q->digests)) {
			snprintf(msg, len, "%u path bits do not split into %u digests (1..%u)",
				 q->bits, q->digests, PINT_PATH_MAX_INST);
			return -EINVAL;
		}
		next.path_inst = q->digests > 1 ? q->digests : 1;
	} else if (q->kind == PINT_KIND_LATENCY) {
		if (q->lat_min_ns)
			next.lat_min_ns = q->lat_min_ns;
		if (q->lat_max_ns)
			next.lat_max_ns = q->lat_max_ns;
		if (next.lat_min_ns >= next.lat_max_ns) {
			snprintf(msg, len, "latency min %llu ns is not below max %llu ns",
				 (unsigned long long)next.lat_min_ns,
				 (unsigned long long)next.lat_max_ns);
			return -EINVAL;
		}
	}
	err = pint_cfg_rebuild(&next, bits, msg, len);
	*cfg = next;
	return err;
}

int pint_cfg_query_del(struct pint_domain_cfg *cfg, enum pint_kind kind, char *msg, size_t len)
{
	unsigned int bits[PINT_KIND_MAX];

	pint_cfg_bits(cfg, bits);
	if (kind >= PINT_KIND_MAX || !bits[kind]) {
		snprintf(msg, len, "there is no %s query",
			 kind < PINT_KIND_MAX ? pint_kind_names[kind] : "such");
		return -ENOENT;
	}
	bits[kind] = 0;
	return pint_cfg_rebuild(cfg, bits, msg, len);
}

int pint_if_add_role(struct pint_if_cfg *ic, __u32 role)
{
	const __u32 ingress = PINT_IF_F_SOURCE | PINT_IF_F_SINK;

	if (((role | ic->flags) & ingress) == ingress)
		return -EINVAL;
	ic->flags |= role;
	return 0;
}
