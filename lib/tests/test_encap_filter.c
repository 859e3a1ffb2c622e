// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_encap_filter.c - hm_encap_filter_compute() and
 * hm_encap_filter_match() (lib/common/encap_filter.c), what hm_encap's
 * first test before the rule lookup decides (struct hopmark_encap_filter,
 * lib/common/hopmark_maps.h): L is the shortest rule, capped at 64; a
 * destination under a rule always passes; an untrusted filter passes
 * everything. The datapath's reading of the same bits is in
 * selftests/bpf/test_encap.c.
 */
#include <arpa/inet.h>

#include "hm_test.h"

static struct hopmark_encap_filter f;

static struct hopmark_encap_key key(const char *addr, __u32 plen)
{
	struct hopmark_encap_key k = { .prefixlen = plen };

	assert_int_equal(inet_pton(AF_INET6, addr, k.addr), 1);
	return k;
}

static bool match(const char *addr)
{
	__u8 a[16];

	assert_int_equal(inet_pton(AF_INET6, addr, a), 1);
	return hm_encap_filter_match(&f, a);
}

static unsigned int bits_set(void)
{
	unsigned int n = 0, i;

	for (i = 0; i < HM_ENCAP_FILTER_WORDS; i++)
		n += __builtin_popcountll(f.bits[i]);
	return n;
}

/* No rule: trusted, nothing passes. */
static void no_rule_passes_nothing(void **state)
{
	hm_encap_filter_compute(NULL, 0, &f);
	assert_int_equal(f.flags, HM_ENCAP_FILTER_F_VALID);
	assert_int_equal(f.prefixlen, HM_ENCAP_FILTER_PLEN_MAX);
	assert_int_equal(bits_set(), 0);
	assert_false(match("2001:db8::1"));
	assert_false(match("::"));
}

/* A /0 rule: L 0, one bit, every destination passes. */
static void slash_0_passes_everything(void **state)
{
	struct hopmark_encap_key k[] = { key("2001:db8:b::", 48), key("::", 0) };

	hm_encap_filter_compute(k, 2, &f);
	assert_int_equal(f.prefixlen, 0);
	assert_int_equal(bits_set(), 1);
	assert_true(match("2001:db8:b::1"));
	assert_true(match("3ffe::1"));
	assert_true(match("ffff:ffff::"));
}

/*
 * The shortest rule sets L: a /16 under /48s makes one bit per /16
 * (distinct /16s, distinct bits: the hash is a bijection up to 16 bits);
 * every /16 of the 2^16 but those is ruled out.
 */
static void shortest_rule_sets_prefixlen(void **state)
{
	struct hopmark_encap_key k[] = {
		key("2001:db8:b::", 48), key("2001:db8:c::", 48), key("3ffe::", 16),
	};
	unsigned int hi, passed = 0;
	char a[64];

	hm_encap_filter_compute(k, 3, &f);
	assert_int_equal(f.prefixlen, 16);
	assert_int_equal(bits_set(), 2);
	for (hi = 0; hi < 0x10000; hi++) {
		snprintf(a, sizeof(a), "%x::1", hi);
		passed += match(a);
	}
	assert_int_equal(passed, 2);
	assert_true(match("2001:ffff::1"));
	assert_true(match("3ffe:1::"));
}

/* Rules past 64 bits are hashed on their first 64: a /128 passes its /64. */
static void long_rules_capped_at_64(void **state)
{
	struct hopmark_encap_key k[] = { key("2001:db8:b::1", 128) };

	hm_encap_filter_compute(k, 1, &f);
	assert_int_equal(f.prefixlen, 64);
	assert_true(match("2001:db8:b::1"));
	assert_true(match("2001:db8:b::2"));
	assert_false(match("2001:db8:b:1::1"));
}

/* Without HM_ENCAP_FILTER_F_VALID, or with an L past 64, nothing is ruled out. */
static void untrusted_passes_everything(void **state)
{
	hm_encap_filter_compute(NULL, 0, &f);
	f.flags = 0;
	assert_true(match("2001:db8::1"));
	f.flags = HM_ENCAP_FILTER_F_VALID;
	f.prefixlen = 65;
	assert_true(match("2001:db8::1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_rule_passes_nothing),
		cmocka_unit_test(slash_0_passes_everything),
		cmocka_unit_test(shortest_rule_sets_prefixlen),
		cmocka_unit_test(long_rules_capped_at_64),
		cmocka_unit_test(untrusted_passes_everything),
	};

	return HM_RUN_TESTS(tests);
}
