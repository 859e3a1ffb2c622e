/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_settings.h - a PINT domain's settings as `hopmark pint set` and
 * `hopmark pint query` change them (pint_settings.c): the defaults of a
 * domain nobody configured, the queries present and their bits, and the
 * derived parts of struct pint_domain_cfg (the query plan, the path scheme,
 * the latency encoder table) rebuilt from them. Every node and the sink of
 * a domain must hold the same struct pint_domain_cfg (pint_maps.h), so the
 * rules that produce it live here once.
 *
 * Userspace only, no libbpf: reading and writing pint_cfg[0] is the
 * caller's. On failure a function returns a negative errno and writes the
 * whole reason, one line without a final period, into the caller's @msg.
 */
#ifndef __HOPMARK_PINT_SETTINGS_H
#define __HOPMARK_PINT_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "pint/pint_maps.h"

/*
 * Query kinds a domain can hold, one query each, in the order of
 * struct pint_domain_cfg's @weight[] and of the plan's queries.
 */
enum pint_kind {
	PINT_KIND_PATH,		/* path tracing (PINT §4.1), PINT_Q_PATH */
	PINT_KIND_LATENCY,	/* per-hop latency (PINT §4.2), PINT_Q_LATENCY */
	PINT_KIND_UTIL,		/* maximum utilisation (HPCC), PINT_Q_UTIL */
	PINT_KIND_MAX,
};

/* Names of enum pint_kind: "path", "latency", "util". */
extern const char *const pint_kind_names[PINT_KIND_MAX];

/* Defaults of a new domain (pint_cfg_defaults()). */
#define PINT_DEF_HOP_LIMIT_START	64
#define PINT_DEF_ID_MIN			1
#define PINT_DEF_ID_MAX			255
#define PINT_DEF_BASE_RTT_NS		100000ULL	/* 100 us */
#define PINT_DEF_LAT_MIN_NS		1000ULL		/* 1 us */
#define PINT_DEF_LAT_MAX_NS		1000000000ULL	/* 1 s */
#define PINT_DEF_PATH_D			16		/* hops */
#define PINT_DEF_WEIGHT			1000		/* 1/1000: weight 1 */

/**
 * pint_scheme_name() - name of a path scheme, as pint_path_scheme() takes it
 * @scheme:	%PINT_SCHEME_HYBRID, _BASELINE, _XOR, _LADDER5 or _MULTILAYER
 *
 * A domain stores its scheme by number and rebuilds it for its @path_d
 * with the scheme's default parameters; the parameterised strings of
 * pint_path_scheme() ("hybrid:tau=T,p=P", ...) are for the evaluator.
 *
 * Return: "hybrid", "baseline", "xor", "ladder5" or "multilayer";
 * "hybrid" for any other value.
 */
const char *pint_scheme_name(unsigned int scheme);

/**
 * pint_scheme_from_name() - the %PINT_SCHEME_* of a scheme name
 * @name:	"hybrid", "baseline", "xor", "ladder5" or "multilayer" (exact)
 *
 * Return: the %PINT_SCHEME_* value, or -EINVAL for any other string
 * (a parameterised one such as "hybrid:tau=0.5,p=0.2" included).
 */
int pint_scheme_from_name(const char *name);

/**
 * pint_scheme_parse() - split a scheme string into its number and parameters
 * @str:	"NAME" or "NAME:PARAMS", as pint_path_scheme() takes it
 *		("hybrid:tau=0.5,p=0.2", "multilayer:p=1/d,p=e/d", "xor:0.1")
 * @scheme:	set to the %PINT_SCHEME_* of NAME
 * @args:	set to PARAMS, or to "" for NAME alone
 *
 * The string is checked by building the scheme it names for a 16-hop path
 * (a parameter pint_path_scheme() refuses for one path length it refuses
 * for all). A domain stores the two parts (@path_scheme and
 * @path_scheme_args of struct pint_domain_cfg) and rebuilds the scheme
 * from them for its max-hops.
 *
 * Return: 0; -EINVAL for an unknown NAME, parameters pint_path_scheme()
 * refuses, or an empty PARAMS after ':'; -ENAMETOOLONG when PARAMS do not
 * fit %PINT_SCHEME_ARGS_MAX.
 */
int pint_scheme_parse(const char *str, __u8 *scheme, char args[PINT_SCHEME_ARGS_MAX]);

/**
 * pint_cfg_scheme_string() - the path scheme of a domain as a string
 * @cfg:	settings
 * @buf:	filled with "NAME" or "NAME:PARAMS", NUL-terminated
 * @len:	size of @buf (%PINT_SCHEME_ARGS_MAX + 16 always suffices)
 *
 * Return: @buf.
 */
const char *pint_cfg_scheme_string(const struct pint_domain_cfg *cfg, char *buf, size_t len);

/**
 * pint_cfg_defaults() - give an unconfigured domain its defaults
 * @cfg:	pint_cfg[0] as read; all-zero when nobody configured the domain
 *
 * A value with a non-zero budget is left as it is. Otherwise: budget
 * %PINT_WIRE_BITS, the default seeds (PINT_SEED_*), hop-limit start 64,
 * switch IDs 1..255, base RTT 100 us, latency scale 1 us..1 s, no query,
 * path scheme hybrid (Baseline 0.4, XOR p = 5/16) tuned for 16 hops, not
 * %PINT_DOM_F_CONFIGURED.
 */
void pint_cfg_defaults(struct pint_domain_cfg *cfg);

/**
 * pint_cfg_query_index() - where a query kind sits in the plan
 * @cfg:	settings
 * @kind:	query kind
 *
 * Return: the index into @cfg->plan (its @q_path, @q_lat or @q_util), or
 * %PINT_QUERY_NONE when the domain has no query of that kind.
 */
__u8 pint_cfg_query_index(const struct pint_domain_cfg *cfg, enum pint_kind kind);

/**
 * pint_cfg_bits() - the bits of every query present
 * @cfg:	settings
 * @bits:	output per kind: the query's bits, 0 if absent (or if @cfg is
 *		not %PINT_DOM_F_CONFIGURED)
 */
void pint_cfg_bits(const struct pint_domain_cfg *cfg, unsigned int bits[PINT_KIND_MAX]);

/**
 * pint_cfg_set_seed() - derive the domain's three hash seeds from one number
 * @cfg:	settings
 * @seed:	the number of `hopmark pint set seed`; 0 gives the defaults
 *
 * Each seed is its default (PINT_SEED_DECIDER, _ACT, _VALUE) XOR @seed.
 * Takes effect at the next pint_cfg_rebuild().
 */
void pint_cfg_set_seed(struct pint_domain_cfg *cfg, __u32 seed);

/**
 * pint_cfg_set_ids() - the domain's switch ID range (the decoder's universe)
 * @cfg:	settings
 * @lo:		smallest switch ID
 * @hi:		largest switch ID
 *
 * Return: 0, or -ERANGE when @lo > @hi or the range holds more than
 * %PINT_SINK_MAX_IDS IDs (the sink's decoder limit); @cfg is then unchanged.
 */
int pint_cfg_set_ids(struct pint_domain_cfg *cfg, __u32 lo, __u32 hi);

/**
 * pint_cfg_rebuild() - rebuild the plan, path scheme and latency table
 * @cfg:	settings; @plan.budget, @plan.seeds, @weight, @flags'
 *		%PINT_DOM_F_FULL_ID, @path_scheme, @path_d, @path_inst and the latency
 *		range are inputs
 * @bits:	per kind, the bits of its query, 0 = no query of that kind
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * The queries present form the plan in kind order (pint_query_plan_build()
 * with weight @weight[kind] / 1000, 1 when 0); @q_path, @q_lat and @q_util
 * point into it. With a path query the path scheme is rebuilt for its bits
 * (pint_path_scheme()), split into @path_inst independent digests of
 * bits / @path_inst bits each (pint_path_set_instances()); with a latency
 * query the encoder table is rebuilt for the latency range
 * (pint_lat_table_for_range()). %PINT_DOM_F_CONFIGURED is set
 * when at least one query is present, cleared otherwise (the datapath then
 * does nothing).
 *
 * Return: 0, or the negative errno of the builder that refused (@cfg is
 * left unconfigured then).
 */
int pint_cfg_rebuild(struct pint_domain_cfg *cfg, const unsigned int bits[PINT_KIND_MAX],
		     char *msg, size_t len);

/**
 * pint_cfg_commit() - rebuild after `hopmark pint set` changed the settings
 * @cfg:	settings with a new budget, seeds, hop-limit start, IDs or RTT
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Return: 0; -EINVAL when a query present takes more bits than the budget
 * (nothing rebuilt); or the error of pint_cfg_rebuild().
 */
int pint_cfg_commit(struct pint_domain_cfg *cfg, char *msg, size_t len);

/**
 * struct pint_query_args - a query as `hopmark pint query add` gives it
 * @kind:	query kind
 * @bits:	bits of the query on a packet that carries it, 1..budget
 * @weight:	weight in 1/1000, 0 = the default (1000)
 * @have_scheme: @scheme was given
 * @scheme:	path only: %PINT_SCHEME_*
 * @scheme_args: path only, with @have_scheme: the scheme's parameters as
 *		pint_path_scheme() takes them after "NAME:", or NULL / "" for
 *		the scheme's defaults (pint_scheme_parse() splits a string)
 * @max_hops:	path only: path length the scheme is tuned for, 0 = keep
 * @full_id:	path only: digests carry the whole switch ID; a path query
 *		added without it clears %PINT_DOM_F_FULL_ID
 * @digests:	path only: independent digests the @bits are split into,
 *		1..%PINT_PATH_MAX_INST (0 = 1); a path query added without it
 *		has one
 * @lat_min_ns:	latency only: smallest latency of the scale, 0 = keep
 * @lat_max_ns:	latency only: largest latency of the scale, 0 = keep
 */
struct pint_query_args {
	enum pint_kind	kind;
	unsigned int	bits;
	__u32		weight;
	bool		have_scheme;
	__u8		scheme;
	const char	*scheme_args;
	__u8		max_hops;
	bool		full_id;
	__u8		digests;
	__u64		lat_min_ns;
	__u64		lat_max_ns;
};

/**
 * pint_cfg_query_add() - add a query, or replace the one of its kind
 * @cfg:	settings (pint_cfg_defaults() applied)
 * @q:		the query
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Return: 0; -EINVAL when @q->bits exceed the budget, the latency range
 * is empty (min >= max), or a path query's @digests is above
 * %PINT_PATH_MAX_INST or does not divide its bits, @cfg unchanged; or the
 * error of pint_cfg_rebuild().
 */
int pint_cfg_query_add(struct pint_domain_cfg *cfg, const struct pint_query_args *q,
		       char *msg, size_t len);

/**
 * pint_cfg_query_del() - remove the query of a kind
 * @cfg:	settings (pint_cfg_defaults() applied)
 * @kind:	query kind
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Return: 0; -ENOENT when there is no query of that kind; or the error of
 * pint_cfg_rebuild() for the queries that remain.
 */
int pint_cfg_query_del(struct pint_domain_cfg *cfg, enum pint_kind kind, char *msg, size_t len);

/**
 * pint_if_add_role() - give an interface one more PINT role
 * @ic:		pint_ifcfg[ifindex] (all-zero for an interface without one)
 * @role:	%PINT_IF_F_SOURCE, %PINT_IF_F_TRANSIT or %PINT_IF_F_SINK
 *
 * Source and sink both run at tc ingress and one would undo the other:
 * an interface has at most one of them.
 *
 * Return: 0; -EINVAL when the interface would be source and sink, @ic
 * unchanged.
 */
int pint_if_add_role(struct pint_if_cfg *ic, __u32 role);

#endif /* __HOPMARK_PINT_SETTINGS_H */
