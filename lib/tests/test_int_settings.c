// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_int_settings.c - an INT domain's settings (int_settings.h): the
 * defaults, the text forms of the Instruction Bitmap, the DSCP signal,
 * prefixes, ports and watchlist rules, the checks of int_cfg_commit()
 * (Hop ML, MX without bit 15, the shim Length at max-hops, the report
 * port), and that the words int_cfg_format_set() prints are the ones the parser takes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hm_test.h"
#include "int/int_settings.h"

#define MSG_LEN	320

static void fresh(struct int_domain_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	int_cfg_defaults(cfg);
}

static void int_settings_defaults_are_the_spec_examples(void **state)
{
	struct int_domain_cfg cfg, kept;
	char msg[MSG_LEN];

	fresh(&cfg);
	assert_int_equal(cfg.flags, 0);
	assert_int_equal(cfg.mode, INT_MODE_MD);
	assert_int_equal(cfg.signal, INT_SIG_DSCP);
	assert_int_equal(cfg.dscp, 0x17);
	assert_int_equal(cfg.dscp_mask, 0x3f);
	assert_int_equal(cfg.bitmap, 0x9000);
	assert_int_equal(cfg.hop_ml, 2);
	assert_int_equal(cfg.max_hops, 8);
	assert_int_equal(cfg.rpt_coalesce, 1);
	assert_int_equal(cfg.sel.sample_n, 1);
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	assert_true(cfg.flags & INT_DOM_F_CONFIGURED);

	/* A configured domain is kept as it is. */
	cfg.max_hops = 5;
	kept = cfg;
	int_cfg_defaults(&cfg);
	assert_memory_equal(&cfg, &kept, sizeof(cfg));
}

static void int_settings_bitmap_hex_and_names(void **state)
{
	char msg[MSG_LEN], names[160];
	__u16 bm = 0;

	assert_int_equal(int_bitmap_parse("0x9000", &bm, msg, sizeof(msg)), 0);
	assert_int_equal(bm, 0x9000);
	assert_int_equal(int_bitmap_parse("node-id,queue", &bm, msg, sizeof(msg)), 0);
	assert_int_equal(bm, 0x9000);
	assert_int_equal(int_bitmap_parse("node-id,l1-ports,hop-latency,queue,ingress-ts,egress-ts,"
					  "l2-ports,tx-util,buffer,csum-complement", &bm,
					  msg, sizeof(msg)), 0);
	assert_int_equal(bm, 0xff81);
	/* §5.8's examples of Hop ML. */
	assert_int_equal(int_bitmap_words(0xff80), 12);
	assert_int_equal(int_bitmap_words(0xfc00), 8);
	assert_int_equal(int_bitmap_words(bm), 13);
	assert_string_equal(int_bitmap_names(0xff81, names, sizeof(names)),
			    "node-id,l1-ports,hop-latency,queue,ingress-ts,egress-ts,l2-ports,"
			    "tx-util,buffer,csum-complement");
	assert_string_equal(int_bitmap_names(0x8040, names, sizeof(names)), "node-id,bit9");
	assert_string_equal(int_bitmap_names(0, names, sizeof(names)), "none");

	bm = 0x1234;
	assert_int_equal(int_bitmap_parse("node-id,bogus", &bm, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "\"bogus\" is no instruction"));
	assert_int_equal(int_bitmap_parse("0x10000", &bm, msg, sizeof(msg)), -ERANGE);
	assert_int_equal(int_bitmap_parse("0x8040", &bm, msg, sizeof(msg)), -ERANGE);
	assert_non_null(strstr(msg, "reserved"));
	assert_int_equal(int_bitmap_parse("0", &bm, msg, sizeof(msg)), -ENODATA);
	assert_int_equal(int_bitmap_parse("0x9zz", &bm, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(bm, 0x1234);	/* unchanged on failure */
}

static void int_settings_dscp_value_and_mask(void **state)
{
	char msg[MSG_LEN];
	__u8 v = 0, m = 0;

	assert_int_equal(int_dscp_parse("0x17", &v, &m, msg, sizeof(msg)), 0);
	assert_int_equal(v, 0x17);
	assert_int_equal(m, 0x3f);
	assert_int_equal(int_dscp_parse("0x20/0x20", &v, &m, msg, sizeof(msg)), 0);
	assert_int_equal(v, 0x20);
	assert_int_equal(m, 0x20);
	/* 0/0 is rejected: it would match every packet. */
	assert_int_equal(int_dscp_parse("0/0", &v, &m, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "mask of 0"));
	/* The mask must cover the value. */
	assert_int_equal(int_dscp_parse("0x17/0x07", &v, &m, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "outside the mask"));
	assert_int_equal(int_dscp_parse("0x40", &v, &m, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(int_dscp_parse("0x17/0x40", &v, &m, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(int_dscp_parse("", &v, &m, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(v, 0x20);
}

static void int_settings_commit_checks(void **state)
{
	struct int_domain_cfg cfg, before;
	char msg[MSG_LEN];

	fresh(&cfg);
	cfg.bitmap = 0xff81;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	assert_int_equal(cfg.hop_ml, 13);

	/* MX has no bit 15. */
	cfg.mode = INT_MODE_MX;
	before = cfg;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "csum-complement"));
	assert_memory_equal(&cfg, &before, sizeof(cfg));
	cfg.bitmap = 0xff80;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	assert_int_equal(cfg.hop_ml, 12);

	/* The stack at max-hops must fit the shim Length: 3 + 12 x 21 = 255. */
	cfg.mode = INT_MODE_MD;
	cfg.max_hops = 21;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	cfg.max_hops = 22;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), -ERANGE);
	assert_non_null(strstr(msg, "at most 21 hops"));
	/* MX carries no stack: any max-hops. */
	cfg.mode = INT_MODE_MX;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	cfg.max_hops = 0;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.max_hops = 8;

	/* UDP signalling: not port 0, not the collector's port. */
	cfg.signal = INT_SIG_UDP;
	cfg.udp_port = 0;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.udp_port = 5000;
	cfg.rpt_family = 4;
	cfg.rpt_port = 5000;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "collector"));
	cfg.rpt_port = 32766;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), 0);

	cfg.hw_id = 64;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.hw_id = 63;
	cfg.report_trunc = INT_REC_PKT_MAX + 1;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.report_trunc = INT_REC_PKT_MAX;
	cfg.q_threshold = 0x1000000;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.q_threshold = 0xffffff;
	cfg.rpt_coalesce = 0;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.rpt_coalesce = 255;
	assert_int_equal(int_cfg_commit(&cfg, msg, sizeof(msg)), 0);
}

static void int_settings_prefixes_and_ports(void **state)
{
	__u8 fam, addr[16], plen, want6[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	char msg[MSG_LEN];
	__be16 p, m;

	assert_int_equal(hm_sel_prefix_parse("10.1.0.0/16", &fam, addr, &plen, msg, sizeof(msg)), 0);
	assert_int_equal(fam, 4);
	assert_int_equal(plen, 16);
	assert_int_equal(addr[0], 10);
	assert_int_equal(addr[1], 1);
	assert_int_equal(addr[4], 0);
	assert_int_equal(hm_sel_prefix_parse("2001:db8::/32", &fam, addr, &plen, msg, sizeof(msg)), 0);
	assert_int_equal(fam, 6);
	assert_int_equal(plen, 32);
	assert_memory_equal(addr, want6, 16);
	assert_int_equal(hm_sel_prefix_parse("10.0.0.1", &fam, addr, &plen, msg, sizeof(msg)), 0);
	assert_int_equal(plen, 32);
	assert_int_equal(hm_sel_prefix_parse("10.1.0.0/8", &fam, addr, &plen, msg, sizeof(msg)),
			 -EINVAL);
	assert_non_null(strstr(msg, "beyond the prefix length"));
	assert_int_equal(hm_sel_prefix_parse("10.0.0.0/33", &fam, addr, &plen, msg, sizeof(msg)),
			 -EINVAL);
	assert_int_equal(hm_sel_prefix_parse("2001:db8::/129", &fam, addr, &plen, msg, sizeof(msg)),
			 -EINVAL);
	assert_int_equal(hm_sel_prefix_parse("host", &fam, addr, &plen, msg, sizeof(msg)), -EINVAL);

	assert_int_equal(hm_sel_port_parse("80", &p, &m, msg, sizeof(msg)), 0);
	assert_int_equal(p, htons(80));
	assert_int_equal(m, 0xffff);
	assert_int_equal(hm_sel_port_parse("0x1000/0xf000", &p, &m, msg, sizeof(msg)), 0);
	assert_int_equal(p, htons(0x1000));
	assert_int_equal(m, htons(0xf000));
	assert_int_equal(hm_sel_port_parse("0x1001/0xf000", &p, &m, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(hm_sel_port_parse("80/0", &p, &m, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(hm_sel_port_parse("65536", &p, &m, msg, sizeof(msg)), -EINVAL);
}

static struct hm_flow_key key(__u8 family, __u8 proto, __u16 dport)
{
	struct hm_flow_key k = { .family = family, .proto = proto, .dport = htons(dport) };

	if (family == 4)
		inet_pton(AF_INET, "10.1.2.3", k.saddr);
	else
		inet_pton(AF_INET6, "2001:db8::3", k.saddr);
	return k;
}

static void int_settings_watchlist(void **state)
{
	struct int_domain_cfg cfg;
	struct hm_sel_rule r;
	struct hm_flow_key k4 = key(4, 17, 5000), k6 = key(6, 17, 5000), k4tcp = key(4, 6, 5000);
	char msg[MSG_LEN], buf[192];
	int i;

	fresh(&cfg);
	/* No prefix: family 0, one rule for both families. */
	memset(&r, 0, sizeof(r));
	r.proto = 17;
	assert_int_equal(hm_sel_port_parse("5000", &r.dport, &r.dport_mask, msg, sizeof(msg)), 0);
	assert_int_equal(hm_sel_rule_check(&r, msg, sizeof(msg)), 0);
	assert_int_equal(hm_sel_add(&cfg.sel, &r, msg, sizeof(msg)), 0);
	assert_string_equal(hm_sel_rule_format(&r, buf, sizeof(buf)), "proto udp dport 5000");
	assert_int_equal(hm_sel_watch(&cfg.sel, &k4), 0);
	assert_int_equal(hm_sel_watch(&cfg.sel, &k6), 0);
	assert_int_equal(hm_sel_watch(&cfg.sel, &k4tcp), -1);
	assert_int_equal(hm_sel_add(&cfg.sel, &r, msg, sizeof(msg)), -EEXIST);
	assert_non_null(strstr(msg, "index 0"));

	/* An IPv4 prefix rule. */
	memset(&r, 0, sizeof(r));
	assert_int_equal(hm_sel_prefix_parse("10.1.0.0/16", &r.family, r.saddr, &r.src_plen,
					  msg, sizeof(msg)), 0);
	r.proto = 6;
	r.flags = HM_SEL_F_SYNTHETIC;
	assert_int_equal(hm_sel_add(&cfg.sel, &r, msg, sizeof(msg)), 1);
	assert_string_equal(hm_sel_rule_format(&r, buf, sizeof(buf)),
			    "src 10.1.0.0/16 proto tcp synthetic");
	assert_int_equal(hm_sel_watch(&cfg.sel, &k4tcp), 1);

	/* Ports without tcp or udp are refused. */
	memset(&r, 0, sizeof(r));
	r.proto = 1;
	r.sport = htons(1);
	r.sport_mask = 0xffff;
	assert_int_equal(hm_sel_rule_check(&r, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "tcp or udp"));
	memset(&r, 0, sizeof(r));
	assert_string_equal(hm_sel_rule_format(&r, buf, sizeof(buf)), "any");

	/* Deleting moves the later rules up. */
	assert_int_equal(hm_sel_del(&cfg.sel, 0), 0);
	assert_int_equal(cfg.sel.nr_rules, 1);
	assert_int_equal(cfg.sel.rules[0].proto, 6);
	assert_int_equal(hm_sel_del(&cfg.sel, 1), -ENOENT);

	/* At most HM_SEL_MAX_RULES. */
	for (i = cfg.sel.nr_rules; i < HM_SEL_MAX_RULES; i++) {
		memset(&r, 0, sizeof(r));
		r.proto = 100 + i;
		assert_int_equal(hm_sel_add(&cfg.sel, &r, msg, sizeof(msg)), i);
	}
	r.proto = 99;
	assert_int_equal(hm_sel_add(&cfg.sel, &r, msg, sizeof(msg)), -ENOSPC);
	assert_non_null(strstr(msg, "full (16 rules)"));
}

static void int_settings_format_set_words(void **state)
{
	struct int_domain_cfg cfg;
	char buf[320];

	fresh(&cfg);
	assert_string_equal(int_cfg_format_set(&cfg, buf, sizeof(buf)),
			    "mode md signal dscp 0x17/0x3f instructions node-id,queue max-hops 8 "
			    "ds-id 0 ds-instruction 0 hw-id 0 report-trunc 128 queue-threshold 0");
	cfg.mode = INT_MODE_XD;
	cfg.signal = INT_SIG_UDP;
	cfg.udp_port = 5000;
	cfg.bitmap = 0xfc00;
	cfg.max_hops = 255;
	cfg.ds_id = 0xffff;
	cfg.ds_inst = 7;
	cfg.hw_id = 63;
	cfg.report_trunc = 1280;
	cfg.q_threshold = 0xffffff;
	assert_string_equal(int_cfg_format_set(&cfg, buf, sizeof(buf)),
			    "mode xd signal udp 5000 instructions node-id,l1-ports,hop-latency,queue,"
			    "ingress-ts,egress-ts max-hops 255 ds-id 65535 ds-instruction 7 hw-id 63 "
			    "report-trunc 1280 queue-threshold 16777215");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(int_settings_defaults_are_the_spec_examples),
		cmocka_unit_test(int_settings_bitmap_hex_and_names),
		cmocka_unit_test(int_settings_dscp_value_and_mask),
		cmocka_unit_test(int_settings_commit_checks),
		cmocka_unit_test(int_settings_prefixes_and_ports),
		cmocka_unit_test(int_settings_watchlist),
		cmocka_unit_test(int_settings_format_set_words),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
