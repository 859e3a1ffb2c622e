// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_sel_text.c - the words of a watch rule (select/sel_text.h), shared
 * by `hopmark int watch` and `hopmark postcard watch` / `template`: every
 * key, abbreviations, stopping at a word of the caller's, the errors a
 * value, a duplicate and a missing value give with the word blamed, and
 * the exact flow a template names (hm_sel_rule_to_key() and back).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hm_test.h"
#include "select/sel_text.h"

#define MSG_LEN	320
#define N(a)	((int)(sizeof(a) / sizeof((a)[0])))

static void sel_text_words_every_key(void **state)
{
	char *argv[] = { "src", "10.0.0.0/8", "dst", "192.0.2.1", "pro", "tcp", "sp",
			 "1024/0xfc00", "dport", "443", "synthetic", "fields", "all" };
	struct hm_sel_words w;
	struct hm_sel_rule r;
	char msg[MSG_LEN], text[192];

	assert_int_equal(hm_sel_words_parse(N(argv), argv, HM_SEL_W_SYNTHETIC, &r, &w, msg,
					    sizeof(msg)), 0);
	/* Stops at "fields", the caller's word. */
	assert_int_equal(w.used, 11);
	assert_int_equal(w.seen, HM_SEL_SEEN_SRC | HM_SEL_SEEN_DST | HM_SEL_SEEN_PROTO |
			 HM_SEL_SEEN_SPORT | HM_SEL_SEEN_DPORT);
	assert_string_equal(w.port_word, "443");
	assert_int_equal(r.family, 4);
	assert_int_equal(r.src_plen, 8);
	assert_int_equal(r.dst_plen, 32);
	assert_int_equal(r.proto, 6);
	assert_int_equal(ntohs(r.sport), 1024);
	assert_int_equal(ntohs(r.sport_mask), 0xfc00);
	assert_int_equal(ntohs(r.dport_mask), 0xffff);
	assert_int_equal(r.flags, HM_SEL_F_SYNTHETIC);
	assert_int_equal(hm_sel_rule_check(&r, msg, sizeof(msg)), 0);
	assert_string_equal(hm_sel_rule_format(&r, text, sizeof(text)),
			    "src 10.0.0.0/8 dst 192.0.2.1/32 proto tcp sport 1024/0xfc00 dport 443 "
			    "synthetic");

	/* Without HM_SEL_W_SYNTHETIC the word is the caller's. */
	assert_int_equal(hm_sel_words_parse(N(argv), argv, 0, &r, &w, msg, sizeof(msg)), 0);
	assert_int_equal(w.used, 10);
	assert_int_equal(r.flags, 0);
}

static void sel_text_words_errors_blame_the_word(void **state)
{
	char *bad_prefix[] = { "src", "10.1.0.0/8" };
	char *mixed[] = { "src", "10.0.0.0/8", "dst", "2001:db8::/32" };
	char *dup[] = { "proto", "tcp", "proto", "udp" };
	char *novalue[] = { "proto", "udp", "dport" };
	char *proto0[] = { "proto", "0" };
	char *port[] = { "sport", "0x1001/0xf000" };
	struct hm_sel_words w;
	struct hm_sel_rule r;
	char msg[MSG_LEN];

	assert_int_equal(hm_sel_words_parse(N(bad_prefix), bad_prefix, 0, &r, &w, msg,
					    sizeof(msg)), -EINVAL);
	assert_string_equal(w.bad, "10.1.0.0/8");
	assert_non_null(strstr(msg, "beyond the prefix length"));
	assert_int_equal(hm_sel_words_parse(N(mixed), mixed, 0, &r, &w, msg, sizeof(msg)),
			 -EINVAL);
	assert_string_equal(w.bad, "2001:db8::/32");
	assert_non_null(strstr(msg, "different families"));
	assert_int_equal(hm_sel_words_parse(N(dup), dup, 0, &r, &w, msg, sizeof(msg)), -EEXIST);
	assert_string_equal(w.bad, "udp");
	assert_string_equal(dup[w.used], "proto");
	assert_int_equal(hm_sel_words_parse(N(novalue), novalue, 0, &r, &w, msg, sizeof(msg)),
			 -ENODATA);
	assert_string_equal(w.bad, "dport");
	assert_int_equal(hm_sel_words_parse(N(proto0), proto0, 0, &r, &w, msg, sizeof(msg)),
			 -EINVAL);
	assert_non_null(strstr(msg, "1..255"));
	assert_int_equal(hm_sel_words_parse(N(port), port, 0, &r, &w, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "outside the mask"));
}

static void sel_text_exact_flow_key(void **state)
{
	char *flow[] = { "src", "2001:db8::1", "dst", "2001:db8::2", "proto", "udp", "sport",
			 "5000", "dport", "6000" };
	char *prefix[] = { "src", "10.0.0.0/24", "dst", "10.0.1.1", "proto", "udp", "sport", "1",
			   "dport", "2" };
	char *masked[] = { "src", "10.0.0.1", "dst", "10.0.1.1", "proto", "tcp", "sport", "1",
			   "dport", "0x10/0xf0" };
	char *noproto[] = { "src", "10.0.0.1", "dst", "10.0.1.1" };
	char *icmp[] = { "src", "10.0.0.1", "dst", "10.0.1.1", "proto", "1" };
	struct hm_sel_words w;
	struct hm_sel_rule r, back;
	struct hm_flow_key k;
	char msg[MSG_LEN];

	assert_int_equal(hm_sel_words_parse(N(flow), flow, 0, &r, &w, msg, sizeof(msg)), 0);
	assert_int_equal(hm_sel_rule_to_key(&r, &k, msg, sizeof(msg)), 0);
	assert_int_equal(k.family, 6);
	assert_int_equal(k.proto, 17);
	assert_int_equal(ntohs(k.sport), 5000);
	assert_int_equal(ntohs(k.dport), 6000);
	assert_int_equal(k.daddr[15], 2);
	/* The key matches the rule it came from, under the datapath's matcher. */
	assert_int_equal(hm_sel_rule_match(&r, &k), 1);
	hm_sel_key_to_rule(&k, &back);
	assert_memory_equal(&back, &r, sizeof(r));

	assert_int_equal(hm_sel_words_parse(N(prefix), prefix, 0, &r, &w, msg, sizeof(msg)), 0);
	assert_int_equal(hm_sel_rule_to_key(&r, &k, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "whole addresses"));
	assert_int_equal(hm_sel_words_parse(N(masked), masked, 0, &r, &w, msg, sizeof(msg)), 0);
	assert_int_equal(hm_sel_rule_to_key(&r, &k, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "without a mask"));
	assert_int_equal(hm_sel_words_parse(N(noproto), noproto, 0, &r, &w, msg, sizeof(msg)), 0);
	assert_int_equal(hm_sel_rule_to_key(&r, &k, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "proto"));
	/* A protocol without ports: the key's ports are 0. */
	assert_int_equal(hm_sel_words_parse(N(icmp), icmp, 0, &r, &w, msg, sizeof(msg)), 0);
	assert_int_equal(hm_sel_rule_to_key(&r, &k, msg, sizeof(msg)), 0);
	assert_int_equal(k.sport | k.dport, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sel_text_words_every_key),
		cmocka_unit_test(sel_text_words_errors_blame_the_word),
		cmocka_unit_test(sel_text_exact_flow_key),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
