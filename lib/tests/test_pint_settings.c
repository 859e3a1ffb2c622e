// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pint_settings.c - a PINT domain's settings (pint_settings.h): the
 * defaults of an unconfigured domain, queries added and removed in kind
 * order, the checks against the bit budget and the latency range, seeds
 * and switch IDs, and the per-interface roles. Every node of a domain runs
 * the same commands and must end with the same bytes in pint_cfg[0].
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hm_test.h"
#include "pint/pint_settings.h"
#include "pint/pint_sink.h"

#define MSG_LEN	256

/* A domain as `hopmark pint set` finds it the first time: all zero. */
static void fresh(struct pint_domain_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	pint_cfg_defaults(cfg);
}

static void add(struct pint_domain_cfg *cfg, enum pint_kind kind, unsigned int bits)
{
	struct pint_query_args q = { .kind = kind, .bits = bits };
	char msg[MSG_LEN];

	msg[0] = '\0';
	if (pint_cfg_query_add(cfg, &q, msg, sizeof(msg)))
		fail_msg("adding %s bits %u: %s", pint_kind_names[kind], bits, msg);
}

static void pint_settings_defaults_of_unconfigured_domain(void **state)
{
	struct pint_domain_cfg cfg, kept;
	unsigned int bits[PINT_KIND_MAX];

	fresh(&cfg);
	assert_int_equal(cfg.plan.budget, PINT_WIRE_BITS);
	assert_int_equal(cfg.plan.seeds.decider, PINT_SEED_DECIDER);
	assert_int_equal(cfg.plan.seeds.act, PINT_SEED_ACT);
	assert_int_equal(cfg.plan.seeds.value, PINT_SEED_VALUE);
	assert_int_equal(cfg.hop_limit_start, 64);
	assert_int_equal(cfg.id_min, 1);
	assert_int_equal(cfg.id_max, 255);
	assert_int_equal(cfg.base_rtt_ns, 100000);
	assert_int_equal(cfg.lat_min_ns, 1000);
	assert_int_equal(cfg.lat_max_ns, 1000000000);
	assert_int_equal(cfg.q_path, PINT_QUERY_NONE);
	assert_int_equal(cfg.q_lat, PINT_QUERY_NONE);
	assert_int_equal(cfg.q_util, PINT_QUERY_NONE);
	assert_int_equal(cfg.path_d, 16);
	assert_int_equal(cfg.flags, 0);
	pint_cfg_bits(&cfg, bits);
	assert_int_equal(bits[0] | bits[1] | bits[2], 0);

	/* A configured domain (non-zero budget) is left as it is. */
	cfg.plan.budget = 4;
	cfg.hop_limit_start = 9;
	kept = cfg;
	pint_cfg_defaults(&cfg);
	assert_memory_equal(&cfg, &kept, sizeof(cfg));
}

/* test_pint.sh's domain: budget 16, path, latency and util of 8 bits. */
static void pint_settings_queries_in_kind_order(void **state)
{
	struct pint_domain_cfg cfg;
	unsigned int bits[PINT_KIND_MAX];
	enum pint_kind k;

	fresh(&cfg);
	add(&cfg, PINT_KIND_UTIL, 8);
	add(&cfg, PINT_KIND_PATH, 8);
	add(&cfg, PINT_KIND_LATENCY, 8);
	assert_true(cfg.flags & PINT_DOM_F_CONFIGURED);
	assert_int_equal(cfg.plan.nr_queries, 3);
	assert_int_equal(pint_query_plan_check(&cfg.plan), 0);
	/* Plan order is kind order, whatever order the queries came in. */
	assert_int_equal(cfg.q_path, 0);
	assert_int_equal(cfg.q_lat, 1);
	assert_int_equal(cfg.q_util, 2);
	assert_int_equal(cfg.plan.kind[0], PINT_Q_PATH);
	assert_int_equal(cfg.plan.kind[1], PINT_Q_LATENCY);
	assert_int_equal(cfg.plan.kind[2], PINT_Q_UTIL);
	pint_cfg_bits(&cfg, bits);
	for (k = 0; k < PINT_KIND_MAX; k++) {
		double f = pint_query_freq(&cfg.plan, pint_cfg_query_index(&cfg, k));

		assert_int_equal(bits[k], 8);
		/* Three 8-bit queries in 16 bits, equal weights: each on 2/3. */
		if (f < 2.0 / 3 - 1e-6 || f > 2.0 / 3 + 1e-6)
			fail_msg("%s query: expected frequency 2/3, observed %.9f",
				 pint_kind_names[k], f);
	}
	/* The latency table and path scheme exist for their bits. */
	assert_int_equal(cfg.lat.bits, 8);
	assert_int_equal(cfg.path.bits, 8);
}

static void pint_settings_same_commands_same_bytes(void **state)
{
	struct pint_domain_cfg a, b;
	struct pint_query_args lat = {
		.kind = PINT_KIND_LATENCY, .bits = 4, .lat_min_ns = 100, .lat_max_ns = 5000,
	};
	char msg[MSG_LEN];

	fresh(&a);
	fresh(&b);
	a.plan.budget = b.plan.budget = 8;
	pint_cfg_set_seed(&a, 7);
	pint_cfg_set_seed(&b, 7);
	assert_int_equal(pint_cfg_commit(&a, msg, sizeof(msg)), 0);
	assert_int_equal(pint_cfg_commit(&b, msg, sizeof(msg)), 0);
	add(&a, PINT_KIND_PATH, 4);
	add(&b, PINT_KIND_PATH, 4);
	assert_int_equal(pint_cfg_query_add(&a, &lat, msg, sizeof(msg)), 0);
	assert_int_equal(pint_cfg_query_add(&b, &lat, msg, sizeof(msg)), 0);
	assert_memory_equal(&a, &b, sizeof(a));
}

static void pint_settings_query_over_budget_refused(void **state)
{
	struct pint_query_args q = { .kind = PINT_KIND_PATH, .bits = 8 };
	struct pint_domain_cfg cfg, before;
	char msg[MSG_LEN];

	fresh(&cfg);
	cfg.plan.budget = 4;
	before = cfg;
	assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "8 bits do not fit the budget of 4 bits (hopmark pint set budget)");
	assert_memory_equal(&cfg, &before, sizeof(cfg));
}

static void pint_settings_latency_range_must_not_be_empty(void **state)
{
	struct pint_query_args q = {
		.kind = PINT_KIND_LATENCY, .bits = 4, .lat_min_ns = 5000, .lat_max_ns = 100,
	};
	struct pint_domain_cfg cfg, before;
	char msg[MSG_LEN];

	fresh(&cfg);
	before = cfg;
	assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "latency min 5000 ns is not below max 100 ns");
	assert_memory_equal(&cfg, &before, sizeof(cfg));

	/* Only max given, below the default min of 1 us: still empty. */
	q.lat_min_ns = 0;
	q.lat_max_ns = 1000;
	assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "latency min 1000 ns is not below max 1000 ns");

	q.lat_min_ns = 100;
	q.lat_max_ns = 5000;
	assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), 0);
	assert_int_equal(cfg.lat_min_ns, 100);
	assert_int_equal(cfg.lat_max_ns, 5000);
	assert_int_equal(cfg.lat.bits, 4);
}

static void pint_settings_path_options_and_full_id(void **state)
{
	struct pint_query_args q = {
		.kind = PINT_KIND_PATH, .bits = 4, .have_scheme = true,
		.scheme = PINT_SCHEME_XOR, .max_hops = 8, .full_id = true, .weight = 2000,
	};
	struct pint_domain_cfg cfg;
	char msg[MSG_LEN];

	fresh(&cfg);
	assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), 0);
	assert_int_equal(cfg.path_scheme, PINT_SCHEME_XOR);
	assert_string_equal(pint_scheme_name(cfg.path_scheme), "xor");
	assert_int_equal(cfg.path_d, 8);
	assert_int_equal(cfg.weight[PINT_KIND_PATH], 2000);
	assert_true(cfg.flags & PINT_DOM_F_FULL_ID);
	/* Added again without full-id: the flag goes, the scheme stays. */
	q.full_id = false;
	q.have_scheme = false;
	q.max_hops = 0;
	assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), 0);
	assert_false(cfg.flags & PINT_DOM_F_FULL_ID);
	assert_int_equal(cfg.path_scheme, PINT_SCHEME_XOR);
	assert_int_equal(cfg.path_d, 8);
	/* A latency query never touches the path's flag. */
	cfg.flags |= PINT_DOM_F_FULL_ID;
	add(&cfg, PINT_KIND_LATENCY, 2);
	assert_true(cfg.flags & PINT_DOM_F_FULL_ID);
}

/* Every scheme name round-trips and builds pint_path_scheme()'s layers for max-hops. */
static void pint_settings_every_scheme_by_name(void **state)
{
	static const char *const names[] = { "hybrid", "baseline", "xor", "ladder5", "multilayer" };
	static const char *const bad[] = { "hybrid:tau=0.5,p=0.2", "multilayer:tau=0.3", "HYBRID",
					   "hybri", "", "xor:0.5" };
	struct pint_domain_cfg cfg;
	struct pint_path_params want;
	char msg[MSG_LEN];
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct pint_query_args q = {
			.kind = PINT_KIND_PATH, .bits = 8, .have_scheme = true, .max_hops = 25,
		};
		int s = pint_scheme_from_name(names[i]);

		if (s < 0 || strcmp(pint_scheme_name(s), names[i]))
			fail_msg("'%s': expected a scheme that names itself, observed %d", names[i], s);
		q.scheme = s;
		fresh(&cfg);
		assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), 0);
		assert_int_equal(pint_path_params_init(&want, &cfg.plan.seeds, 8, 0), 0);
		assert_int_equal(pint_path_scheme(&want, names[i], 25), 0);
		if (memcmp(&want, &cfg.path, sizeof(want)))
			fail_msg("scheme %s max-hops 25: the domain's layers differ from "
				 "pint_path_scheme(\"%s\", 25)", names[i], names[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (pint_scheme_from_name(bad[i]) != -EINVAL)
			fail_msg("'%s': expected -EINVAL, observed %d", bad[i],
				 pint_scheme_from_name(bad[i]));
	assert_int_equal(pint_scheme_from_name(NULL), -EINVAL);
	/* the default scheme of a domain is the paper's interleaving, "hybrid" */
	fresh(&cfg);
	assert_int_equal(cfg.path_scheme, PINT_SCHEME_HYBRID);
}

/*
 * A scheme with parameters: pint_scheme_parse() splits it, the domain keeps
 * both parts and builds exactly pint_path_scheme()'s layers of the whole
 * string, shown back as given; refused strings leave nothing behind.
 */
static void pint_settings_scheme_with_parameters(void **state)
{
	static const char *const good[] = { "hybrid:tau=0.5,p=0.2", "multilayer:tau=0.3",
					    "hybrid:p=5/d", "xor:0.125", "baseline" };
	static const char *const bad[] = { "hybrid:tau=2", "hybrid:", "hybrid:tau=0.5,q=1",
					   "nosuch:tau=0.5", "xor:0", ":tau=0.5",
					   "hybrid:tau=0.5,p=0.2,p=0.2,p=0.2,p=0.2,p=0.2,p=0.2" };
	char args[PINT_SCHEME_ARGS_MAX], shown[PINT_SCHEME_ARGS_MAX + 16], msg[MSG_LEN];
	struct pint_path_params want;
	struct pint_domain_cfg cfg;
	unsigned int i;
	__u8 scheme;
	int err;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct pint_query_args q = {
			.kind = PINT_KIND_PATH, .bits = 8, .have_scheme = true, .max_hops = 30,
		};

		err = pint_scheme_parse(good[i], &scheme, args);
		if (err)
			fail_msg("'%s': expected 0, observed %d", good[i], err);
		q.scheme = scheme;
		q.scheme_args = args;
		fresh(&cfg);
		assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), 0);
		assert_string_equal(pint_cfg_scheme_string(&cfg, shown, sizeof(shown)), good[i]);
		assert_int_equal(pint_path_params_init(&want, &cfg.plan.seeds, 8, 0), 0);
		assert_int_equal(pint_path_scheme(&want, good[i], 30), 0);
		if (memcmp(&want, &cfg.path, sizeof(want)))
			fail_msg("'%s' max-hops 30: the domain's layers differ from "
				 "pint_path_scheme()'s", good[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		scheme = 0xee;
		err = pint_scheme_parse(bad[i], &scheme, args);
		if (err != -EINVAL && err != -ENAMETOOLONG)
			fail_msg("'%s': expected -EINVAL or -ENAMETOOLONG, observed %d", bad[i], err);
		assert_int_equal(scheme, 0xee);
	}
	assert_int_equal(pint_scheme_parse(NULL, &scheme, args), -EINVAL);
	/* Parameters that do not fit the domain's field are refused, not cut. */
	{
		struct pint_query_args q = {
			.kind = PINT_KIND_PATH, .bits = 8, .have_scheme = true,
			.scheme = PINT_SCHEME_HYBRID,
			.scheme_args = "tau=0.5,p=0.2,tau=0.5,p=0.2,tau=0.5,p=0.2,tau=0.5",
		};

		fresh(&cfg);
		assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), -ENAMETOOLONG);
	}
}

/* digests 2: a 16-bit path query is two 8-bit digests (2x8), as the sink checks. */
static void pint_settings_path_two_digests(void **state)
{
	struct pint_query_args q = { .kind = PINT_KIND_PATH, .bits = 16, .digests = 2 };
	struct pint_domain_cfg cfg, before;
	unsigned int bits[PINT_KIND_MAX];
	char msg[MSG_LEN];

	fresh(&cfg);
	assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), 0);
	assert_int_equal(cfg.path_inst, 2);
	assert_int_equal(cfg.path.bits, 8);
	assert_int_equal(pint_path_instances(&cfg.path), 2);
	assert_int_equal(pint_path_width(&cfg.path), 16);
	pint_cfg_bits(&cfg, bits);
	assert_int_equal(bits[PINT_KIND_PATH], 16);
	assert_int_equal(pint_domain_cfg_check(&cfg), 0);
	/* the sink refuses a scheme whose field is not the query's width */
	before = cfg;
	cfg.path.nr_inst = 1;
	assert_int_equal(pint_domain_cfg_check(&cfg), -EINVAL);
	cfg = before;
	/* odd bits do not split in two; 3 digests are not offered */
	q.bits = 7;
	assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), -EINVAL);
	if (!strstr(msg, "do not split"))
		fail_msg("expected a reason naming the split, observed \"%s\"", msg);
	assert_memory_equal(&cfg, &before, sizeof(cfg));
	q.bits = 12;
	q.digests = 3;
	assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), -EINVAL);
	/* added again without digests: one 16-bit digest */
	q.bits = 16;
	q.digests = 0;
	assert_int_equal(pint_cfg_query_add(&cfg, &q, msg, sizeof(msg)), 0);
	assert_int_equal(cfg.path.bits, 16);
	assert_int_equal(pint_path_instances(&cfg.path), 1);
}

static void pint_settings_query_del(void **state)
{
	struct pint_domain_cfg cfg;
	unsigned int bits[PINT_KIND_MAX];
	char msg[MSG_LEN];

	fresh(&cfg);
	assert_int_equal(pint_cfg_query_del(&cfg, PINT_KIND_UTIL, msg, sizeof(msg)), -ENOENT);
	assert_string_equal(msg, "there is no util query");
	add(&cfg, PINT_KIND_PATH, 4);
	add(&cfg, PINT_KIND_UTIL, 2);
	assert_int_equal(pint_cfg_query_del(&cfg, PINT_KIND_PATH, msg, sizeof(msg)), 0);
	pint_cfg_bits(&cfg, bits);
	assert_int_equal(bits[PINT_KIND_PATH], 0);
	assert_int_equal(bits[PINT_KIND_UTIL], 2);
	assert_int_equal(cfg.q_util, 0);
	assert_int_equal(cfg.q_path, PINT_QUERY_NONE);
	/* The last query gone, the datapath stops: not configured. */
	assert_int_equal(pint_cfg_query_del(&cfg, PINT_KIND_UTIL, msg, sizeof(msg)), 0);
	assert_false(cfg.flags & PINT_DOM_F_CONFIGURED);
	assert_int_equal(cfg.plan.budget, PINT_WIRE_BITS);
}

static void pint_settings_budget_below_a_query_refused(void **state)
{
	struct pint_domain_cfg cfg, before;
	char msg[MSG_LEN];

	fresh(&cfg);
	add(&cfg, PINT_KIND_PATH, 4);
	cfg.plan.budget = 2;
	before = cfg;
	assert_int_equal(pint_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "the path query takes 4 bits, more than the budget of 2");
	assert_memory_equal(&cfg, &before, sizeof(cfg));
	cfg.plan.budget = 4;
	assert_int_equal(pint_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	assert_true(cfg.flags & PINT_DOM_F_CONFIGURED);
	assert_int_equal(cfg.plan.budget, 4);
}

static void pint_settings_seed_and_ids(void **state)
{
	struct pint_domain_cfg cfg;

	fresh(&cfg);
	pint_cfg_set_seed(&cfg, 0x1234);
	assert_int_equal(cfg.plan.seeds.decider, PINT_SEED_DECIDER ^ 0x1234);
	assert_int_equal(cfg.plan.seeds.act, PINT_SEED_ACT ^ 0x1234);
	assert_int_equal(cfg.plan.seeds.value, PINT_SEED_VALUE ^ 0x1234);
	pint_cfg_set_seed(&cfg, 0);
	assert_int_equal(cfg.plan.seeds.decider, PINT_SEED_DECIDER);

	assert_int_equal(pint_cfg_set_ids(&cfg, 5, 300), 0);
	assert_int_equal(cfg.id_min, 5);
	assert_int_equal(cfg.id_max, 300);
	/* At most PINT_SINK_MAX_IDS IDs, the decoder's universe. */
	assert_int_equal(pint_cfg_set_ids(&cfg, 1, PINT_SINK_MAX_IDS), 0);
	assert_int_equal(pint_cfg_set_ids(&cfg, 0, PINT_SINK_MAX_IDS), -ERANGE);
	assert_int_equal(pint_cfg_set_ids(&cfg, 10, 9), -ERANGE);
	assert_int_equal(cfg.id_min, 1);
	assert_int_equal(cfg.id_max, PINT_SINK_MAX_IDS);
}

static void pint_settings_source_and_sink_exclusive(void **state)
{
	struct pint_if_cfg ic = {};

	assert_int_equal(pint_if_add_role(&ic, PINT_IF_F_SOURCE), 0);
	assert_int_equal(pint_if_add_role(&ic, PINT_IF_F_TRANSIT), 0);
	assert_int_equal(ic.flags, PINT_IF_F_SOURCE | PINT_IF_F_TRANSIT);
	assert_int_equal(pint_if_add_role(&ic, PINT_IF_F_SINK), -EINVAL);
	assert_int_equal(ic.flags, PINT_IF_F_SOURCE | PINT_IF_F_TRANSIT);
	ic.flags = PINT_IF_F_SINK;
	assert_int_equal(pint_if_add_role(&ic, PINT_IF_F_SOURCE), -EINVAL);
	assert_int_equal(pint_if_add_role(&ic, PINT_IF_F_SINK), 0);
	assert_int_equal(ic.flags, PINT_IF_F_SINK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pint_settings_defaults_of_unconfigured_domain),
		cmocka_unit_test(pint_settings_queries_in_kind_order),
		cmocka_unit_test(pint_settings_same_commands_same_bytes),
		cmocka_unit_test(pint_settings_query_over_budget_refused),
		cmocka_unit_test(pint_settings_latency_range_must_not_be_empty),
		cmocka_unit_test(pint_settings_path_options_and_full_id),
		cmocka_unit_test(pint_settings_every_scheme_by_name),
		cmocka_unit_test(pint_settings_scheme_with_parameters),
		cmocka_unit_test(pint_settings_query_del),
		cmocka_unit_test(pint_settings_budget_below_a_query_refused),
		cmocka_unit_test(pint_settings_seed_and_ids),
		cmocka_unit_test(pint_settings_path_two_digests),
		cmocka_unit_test(pint_settings_source_and_sink_exclusive),
	};

	return HM_RUN_TESTS(tests);
}
