// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pbt_settings.c - a PBT-M domain's settings (pbt/pbt_settings.h):
 * the defaults, the mark bits refused (ECN's, several bits, none, an
 * Alternate Marking bit, for IPv4 TOS and IPv6 Traffic Class, also under
 * the O-flag method), the template fields, the checks of pbt_cfg_commit()
 * (sampling, meter, trigger, export) leaving a refused configuration
 * unchanged, the words pbt_cfg_format_set() prints, and the counter and
 * field names.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hm_test.h"
#include "pbt/pbt_names.h"
#include "pbt/pbt_settings.h"
#include "int/int_settings.h"

#define MSG_LEN	320

static void fresh(struct pbt_domain_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	pbt_cfg_defaults(cfg);
}

static void pbt_settings_defaults(void **state)
{
	struct pbt_domain_cfg cfg, kept;
	char msg[MSG_LEN];

	fresh(&cfg);
	assert_int_equal(cfg.flags, 0);
	assert_int_equal(cfg.v4_mark, PBT_V4_RSVD);
	assert_int_equal(cfg.v6_mark, PBT_V6_TC);
	assert_int_equal(cfg.v6_tc_bit, 0x04);
	assert_int_equal(cfg.altmark_tos, 0);
	assert_int_equal(cfg.meter_rate, 0);
	assert_int_equal(cfg.trig_flags, 0);
	assert_int_equal(cfg.exp_transport, 0);
	assert_int_equal(cfg.exp_port, 4739);
	assert_int_equal(cfg.sel.sample, HM_SAMPLE_ALL);
	assert_int_equal(cfg.sel.sample_n, 1);
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	assert_true(cfg.flags & PBT_DOM_F_CONFIGURED);

	/* A configured domain is kept as it is. */
	cfg.v4_mark = PBT_V4_TOS;
	kept = cfg;
	pbt_cfg_defaults(&cfg);
	assert_memory_equal(&cfg, &kept, sizeof(cfg));
}

static void pbt_settings_mark_bit_exactly_one_dscp_bit(void **state)
{
	char msg[MSG_LEN];
	__u8 bit = 0x55;
	int i;

	for (i = 2; i < 8; i++) {
		char s[8];

		snprintf(s, sizeof(s), "0x%02x", 1 << i);
		assert_int_equal(pbt_mark_bit_parse(s, &bit, msg, sizeof(msg)), 0);
		assert_int_equal(bit, 1 << i);
	}
	assert_int_equal(pbt_mark_bit_parse("16", &bit, msg, sizeof(msg)), 0);
	assert_int_equal(bit, 0x10);
	bit = 0x55;
	/* ECN's bits, alone or with a DSCP bit. */
	assert_int_equal(pbt_mark_bit_parse("0x01", &bit, msg, sizeof(msg)), -EDOM);
	assert_non_null(strstr(msg, "ECN"));
	assert_int_equal(pbt_mark_bit_parse("0x02", &bit, msg, sizeof(msg)), -EDOM);
	assert_int_equal(pbt_mark_bit_parse("0x06", &bit, msg, sizeof(msg)), -EDOM);
	/* Not exactly one bit. */
	assert_int_equal(pbt_mark_bit_parse("0x0c", &bit, msg, sizeof(msg)), -ENOTUNIQ);
	assert_non_null(strstr(msg, "several bits"));
	assert_int_equal(pbt_mark_bit_parse("0", &bit, msg, sizeof(msg)), -ENOTUNIQ);
	assert_non_null(strstr(msg, "no bit"));
	assert_int_equal(pbt_mark_bit_parse("0x100", &bit, msg, sizeof(msg)), -ERANGE);
	assert_int_equal(pbt_mark_bit_parse("four", &bit, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(pbt_mark_bit_parse("-4", &bit, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(bit, 0x55);	/* unchanged on failure */

	assert_int_equal(pbt_altmark_parse("0x0c", &bit, msg, sizeof(msg)), 0);
	assert_int_equal(bit, 0x0c);
	assert_int_equal(pbt_altmark_parse("none", &bit, msg, sizeof(msg)), 0);
	assert_int_equal(bit, 0);
	assert_int_equal(pbt_altmark_parse("0x0d", &bit, msg, sizeof(msg)), -EDOM);
}

static void pbt_settings_commit_refuses_shared_bits(void **state)
{
	struct pbt_domain_cfg cfg, before;
	char msg[MSG_LEN];

	fresh(&cfg);
	/* IPv4 TOS bit shared with Alternate Marking. */
	cfg.v4_mark = PBT_V4_TOS;
	cfg.v4_tos_bit = 0x08;
	cfg.v6_tc_bit = 0x10;
	cfg.altmark_tos = 0x0c;
	before = cfg;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "IPv4 TOS mark bit 0x08 is one of the Alternate Marking"));
	assert_memory_equal(&cfg, &before, sizeof(cfg));
	/* The reserved flag method does not use the TOS bit. */
	cfg.v4_mark = PBT_V4_RSVD;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	/* IPv6 Traffic Class bit shared, with tc and with oflag (its fallback). */
	cfg.v6_tc_bit = 0x04;
	cfg.flags = 0;
	before = cfg;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "IPv6 Traffic Class mark bit 0x04"));
	assert_memory_equal(&cfg, &before, sizeof(cfg));
	cfg.v6_mark = PBT_V6_OFLAG;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.altmark_tos = 0x30;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	/* A bit that is not one DSCP bit, written past the parser. */
	cfg.v6_tc_bit = 0x01;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "not exactly one bit of 0xfc"));
	cfg.v6_tc_bit = 0x44;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.v6_tc_bit = 0x80;
	cfg.altmark_tos = 0x03;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "outside the DSCP bits"));
	cfg.altmark_tos = 0;
	cfg.v4_mark = 2;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.v4_mark = PBT_V4_RSVD;
	cfg.v6_mark = 7;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
}

static void pbt_settings_commit_sampling_meter_trigger_export(void **state)
{
	struct pbt_domain_cfg cfg;
	char msg[MSG_LEN];

	fresh(&cfg);
	cfg.sel.sample = PBT_SAMPLE_INTERVAL;
	cfg.interval_ns = 0;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "1 ms..1 h"));
	cfg.interval_ns = 50000000;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	cfg.sel.sample = 4;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.sel.sample = HM_SAMPLE_PACKET;
	cfg.sel.sample_n = 0;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.sel.sample_n = 100;

	cfg.meter_rate = 1000;
	cfg.meter_burst = 0;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "burst"));
	cfg.meter_burst = pbt_meter_burst_default(cfg.meter_rate);
	assert_int_equal(cfg.meter_burst, 100);
	assert_int_equal(pbt_meter_burst_default(5), 1);
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	cfg.meter_burst = PBT_METER_BURST_MAX + 1;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.meter_burst = 10;
	cfg.meter_rate = PBT_METER_RATE_MAX + 1;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.meter_rate = 1000;

	cfg.trig_flags = PBT_TRIG_QDEPTH;
	cfg.trig_qdepth = 0;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "threshold"));
	cfg.trig_qdepth = 30000;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	cfg.trig_hold_ns = 0;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.trig_hold_ns = PBT_DEF_HOLD_NS;
	cfg.trig_flags = 0x80;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.trig_flags = PBT_TRIG_CE;

	cfg.exp_transport = PBT_EXP_UDP;
	cfg.exp_family = 0;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.exp_family = 6;
	cfg.exp_refresh_s = 0;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "RFC 7011"));
	/* TCP sends its templates once per connection: no refresh needed. */
	cfg.exp_transport = PBT_EXP_TCP;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), 0);
	cfg.exp_port = 0;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
	cfg.exp_port = 4739;
	cfg.exp_transport = 3;
	assert_int_equal(pbt_cfg_commit(&cfg, msg, sizeof(msg)), -EINVAL);
}

static void pbt_settings_export_addr(void **state)
{
	static const char * const refused[] = {
		"0.0.0.0", "::", "224.0.0.1", "239.255.255.255", "ff02::1", "ff05::2",
	};
	__u8 family, addr[16];
	char msg[MSG_LEN];
	size_t i;

	assert_int_equal(pbt_exp_addr_parse("192.0.2.9", "collector", &family, addr, msg,
					    sizeof(msg)), 0);
	assert_int_equal(family, 4);
	assert_int_equal(addr[3], 9);
	assert_int_equal(pbt_exp_addr_parse("2001:db8::9", "src", &family, addr, msg,
					    sizeof(msg)), 0);
	assert_int_equal(family, 6);
	/* 223.255.255.255 is the last unicast address below 224/4 */
	assert_int_equal(pbt_exp_addr_parse("223.255.255.255", "collector", &family, addr, msg,
					    sizeof(msg)), 0);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		msg[0] = '\0';
		assert_int_equal(pbt_exp_addr_parse(refused[i], "collector", &family, addr, msg,
						    sizeof(msg)), -EDOM);
		assert_non_null(strstr(msg, "the collector is"));
		assert_non_null(strstr(msg, "unicast"));
	}
	assert_int_equal(pbt_exp_addr_parse("::ffff:192.0.2.9", "src", &family, addr, msg,
					    sizeof(msg)), -EDOM);
	assert_non_null(strstr(msg, "the src is an IPv4-mapped"));
	assert_non_null(strstr(msg, "IPv4 form 192.0.2.9"));
	assert_int_equal(pbt_exp_addr_parse("collector.example", "collector", &family, addr, msg,
					    sizeof(msg)), -EINVAL);
}

static void pbt_settings_fields(void **state)
{
	char msg[MSG_LEN], buf[96];
	__u32 f = 0x1234;

	assert_int_equal(pbt_fields_parse("nexthop,sojourn", &f, msg, sizeof(msg)), 0);
	assert_int_equal(f, PBT_FLD_NEXTHOP | PBT_FLD_SOJOURN);
	assert_string_equal(pbt_fields_format(f, buf, sizeof(buf)), "nexthop,sojourn");
	assert_int_equal(pbt_fields_parse("all", &f, msg, sizeof(msg)), 0);
	assert_int_equal(f, PBT_FLD_ALL);
	assert_string_equal(pbt_fields_format(f, buf, sizeof(buf)),
			    "nexthop,tos,length,srh,header,sojourn");
	assert_int_equal(pbt_fields_parse(pbt_fields_format(PBT_FLD_SRH | PBT_FLD_TOS, buf,
							    sizeof(buf)), &f, msg, sizeof(msg)), 0);
	assert_int_equal(f, PBT_FLD_SRH | PBT_FLD_TOS);
	assert_string_equal(pbt_fields_format(0, buf, sizeof(buf)), "none");
	assert_string_equal(pbt_fields_format(1U << 9, buf, sizeof(buf)), "bit9");
	f = 0x1234;
	assert_int_equal(pbt_fields_parse("nexthop,ttl", &f, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "\"ttl\" is no field"));
	assert_int_equal(pbt_fields_parse(",", &f, msg, sizeof(msg)), -ENODATA);
	assert_int_equal(f, 0x1234);
}

static void pbt_settings_format_words(void **state)
{
	struct pbt_domain_cfg cfg;
	char buf[192];

	fresh(&cfg);
	assert_string_equal(pbt_cfg_format_set(&cfg, buf, sizeof(buf)),
			    "mark-ipv4 reserved mark-ipv6 tc 0x04 altmark none meter 0 trigger off "
			    "hold 1000");
	assert_string_equal(pbt_sample_format(&cfg, buf, sizeof(buf)), "all");
	cfg.v4_mark = PBT_V4_TOS;
	cfg.v4_tos_bit = 0x80;
	cfg.v6_mark = PBT_V6_OFLAG;
	cfg.v6_tc_bit = 0x08;
	cfg.altmark_tos = 0x30;
	cfg.meter_rate = 500;
	cfg.meter_burst = 20;
	cfg.trig_flags = PBT_TRIG_CE | PBT_TRIG_QDEPTH;
	cfg.trig_qdepth = 15000;
	cfg.trig_hold_ns = 250000000;
	assert_string_equal(pbt_cfg_format_set(&cfg, buf, sizeof(buf)),
			    "mark-ipv4 tos 0x80 mark-ipv6 oflag tc 0x08 altmark 0x30 meter 500 "
			    "burst 20 trigger ce trigger qdepth 15000 hold 250");
	cfg.sel.sample = PBT_SAMPLE_INTERVAL;
	cfg.interval_ns = 20000000;
	assert_string_equal(pbt_sample_format(&cfg, buf, sizeof(buf)), "interval 20");
	cfg.sel.sample = HM_SAMPLE_FLOW;
	cfg.sel.sample_n = 8;
	assert_string_equal(pbt_sample_format(&cfg, buf, sizeof(buf)), "flow 8");
}

static void pbt_settings_names(void **state)
{
	int i, j;

	for (i = 0; i < PBT_CNT_MAX; i++) {
		assert_non_null(pbt_counter_names[i]);
		for (j = 0; j < i; j++)
			assert_string_not_equal(pbt_counter_names[i], pbt_counter_names[j]);
	}
	assert_string_equal(pbt_counter_names[PBT_CNT_MARKED], "marked");
	assert_string_equal(pbt_counter_names[PBT_CNT_POSTCARD_EGRESS], "postcard_egress");
	assert_string_equal(pbt_counter_names[PBT_CNT_ALTMARK], "altmark");
	assert_int_equal(pbt_role_flags_parse("head"), PBT_IF_F_HEAD);
	assert_int_equal(pbt_role_flags_parse("end"), PBT_IF_F_END);
	assert_int_equal(pbt_role_flags_parse("sink"), 0);
	assert_string_equal(pbt_sample_names[PBT_SAMPLE_INTERVAL], "interval");
}

/*
 * pbt_int_dscp_check(): INT's defaults (DSCP 0x17/0x3f, TOS 0x5c/0xfc) and
 * PBT-M's default Traffic Class bit 0x04 overlap and are refused; a mask
 * clear of the bit, INT by UDP port, INT unconfigured or absent pass.
 */
static void pbt_settings_int_dscp_overlap_refused(void **state)
{
	struct int_domain_cfg ic;
	struct pbt_domain_cfg pc;
	char msg[MSG_LEN];

	memset(&ic, 0, sizeof(ic));
	int_cfg_defaults(&ic);
	fresh(&pc);
	/* Neither configured: nothing marks, nothing signals. */
	assert_int_equal(pbt_mark_tos_bits(&pc), 0);
	assert_int_equal(pbt_mark_tos_bits(NULL), 0);
	assert_int_equal(pbt_int_dscp_check(0x04, &ic, msg, sizeof(msg)), 0);
	assert_int_equal(pbt_int_dscp_check(0x04, NULL, msg, sizeof(msg)), 0);
	assert_int_equal(int_cfg_commit(&ic, msg, sizeof(msg)), 0);
	assert_int_equal(pbt_cfg_commit(&pc, msg, sizeof(msg)), 0);
	assert_int_equal(pbt_mark_tos_bits(&pc), PBT_DEF_TOS_BIT);

	/* The defaults collide: 0x5c has bit 0x04. */
	assert_int_equal((INT_DEF_DSCP << 2) & PBT_DEF_TOS_BIT, PBT_DEF_TOS_BIT);
	assert_int_equal(pbt_int_dscp_check(pbt_mark_tos_bits(&pc), &ic, msg, sizeof(msg)),
			 -EBUSY);
	assert_string_equal(msg, "PBT-M's mark bit 0x04 lies under INT's DSCP signal 0x17/0x3f "
			    "(TOS / Traffic Class 0x5c/0xfc): one DSCP bit cannot serve both "
			    "(INT's packets would count as marked, a mark could change their "
			    "DSCP); INT's mask leaves no bit free: narrow it (\"hopmark int set "
			    "signal dscp V/M\") or signal INT by UDP port");
	/* Every bit of 0xfc is under an exact match. */
	for (int i = 2; i < 8; i++)
		assert_int_equal(pbt_int_dscp_check(1 << i, &ic, NULL, 0), -EBUSY);

	/* The IPv4 TOS bit counts with mark-ipv4 tos only. */
	ic.dscp = 0x10;
	ic.dscp_mask = 0x10;		/* TOS 0x40 */
	pc.v4_tos_bit = 0x40;
	assert_int_equal(pbt_mark_tos_bits(&pc), 0x04);
	assert_int_equal(pbt_int_dscp_check(pbt_mark_tos_bits(&pc), &ic, msg, sizeof(msg)), 0);
	pc.v4_mark = PBT_V4_TOS;
	assert_int_equal(pbt_mark_tos_bits(&pc), 0x44);
	assert_int_equal(pbt_int_dscp_check(pbt_mark_tos_bits(&pc), &ic, msg, sizeof(msg)),
			 -EBUSY);
	assert_non_null(strstr(msg, "mark bit 0x40 lies under INT's DSCP signal 0x10/0x10 "
				    "(TOS / Traffic Class 0x40/0x40)"));
	assert_non_null(strstr(msg, "bits free of INT's mask: 0xbc"));

	/* Two bits under the mask are named together. */
	ic.dscp = 0x11;
	ic.dscp_mask = 0x11;		/* TOS 0x44 */
	assert_int_equal(pbt_int_dscp_check(0x44, &ic, msg, sizeof(msg)), -EBUSY);
	assert_non_null(strstr(msg, "mark bits 0x44 lie under"));

	/* A mask clear of the bits (0x16/0x3e leaves DSCP bit 0x01, TOS 0x04). */
	ic.dscp = 0x16;
	ic.dscp_mask = 0x3e;
	assert_int_equal(pbt_int_dscp_check(0x04, &ic, msg, sizeof(msg)), 0);
	assert_int_equal(pbt_int_dscp_check(0x08, &ic, msg, sizeof(msg)), -EBUSY);

	/* INT signalling by UDP port shares no bit. */
	ic.signal = INT_SIG_UDP;
	assert_int_equal(pbt_int_dscp_check(0xfc, &ic, msg, sizeof(msg)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pbt_settings_defaults),
		cmocka_unit_test(pbt_settings_mark_bit_exactly_one_dscp_bit),
		cmocka_unit_test(pbt_settings_commit_refuses_shared_bits),
		cmocka_unit_test(pbt_settings_commit_sampling_meter_trigger_export),
		cmocka_unit_test(pbt_settings_export_addr),
		cmocka_unit_test(pbt_settings_fields),
		cmocka_unit_test(pbt_settings_format_words),
		cmocka_unit_test(pbt_settings_names),
		cmocka_unit_test(pbt_settings_int_dscp_overlap_refused),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
