// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pc_obs.c - the portable encoding of struct hm_pc_obs
 * (lib/postcard/pc_obs.c): an IPv6 PBT-M egress postcard written out octet
 * by octet from the layout in pc_obs.c, decoded back field by field; an
 * IPv4 one round-tripped; and every malformed input the decoder refuses.
 */
#include <errno.h>
#include <stdlib.h>
#include <arpa/inet.h>

#include "hm_test.h"
#include "pbt/pbt_maps.h"
#include "postcard/pc_obs.h"

/* 2001:db8:1::1 -> 2001:db8:4::2, UDP 40001 -> 9999, next hop fe80::2 */
static void obs_v6(struct hm_pc_obs *o)
{
	static const __u8 s[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 1 };
	static const __u8 d[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 4, [15] = 2 };
	static const __u8 nh[16] = { 0xfe, 0x80, [15] = 2 };

	memset(o, 0, sizeof(*o));
	o->ts_ns = 0x1789abcdef012345ULL;
	o->node_id = 4;
	o->pkt_id = 0xdeadbeef;
	o->in_if = 41;
	o->out_if = 42;
	o->qdepth = 1500;
	o->sojourn_ns = 12345;
	o->tpl_id = 7;
	o->obs_domain = 0x01020304;
	o->present = HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF | HM_PC_HAS_QDEPTH |
		     HM_PC_HAS_NEXTHOP | HM_PC_HAS_TTL;	/* 0x10f */
	o->source = HM_PC_SRC_PBT;
	o->point = PBT_PT_EGRESS;
	o->ttl = 62;
	o->tos = 0x20;
	o->flags = PBT_REC_F_CE;
	o->length = 1280;
	o->key.family = 6;
	o->key.proto = 17;
	o->key.sport = htons(40001);
	o->key.dport = htons(9999);
	memcpy(o->key.saddr, s, 16);
	memcpy(o->key.daddr, d, 16);
	memcpy(o->nexthop, nh, 16);
}

static const __u8 want_v6[HM_PC_OBS_WIRE_LEN] = {
	0x01,			/* 0 version */
	0x01,			/* 1 source HM_PC_SRC_PBT */
	0x02,			/* 2 point egress */
	62,			/* 3 ttl */
	0x20,			/* 4 tos */
	0, 0,			/* 5 srh_flags, 6 srh_sl */
	6, 17,			/* 7 family, 8 proto */
	0,			/* 9 reserved */
	0x00, 0x01,		/* 10 flags PBT_REC_F_CE */
	0x05, 0x00,		/* 12 length 1280 */
	0x9c, 0x41,		/* 14 sport 40001 */
	0x27, 0x0f,		/* 16 dport 9999 */
	0, 0,			/* 18 reserved */
	0x17, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45,	/* 20 ts_ns */
	0, 0, 0, 4,		/* 28 node_id */
	0xde, 0xad, 0xbe, 0xef,	/* 32 pkt_id */
	0, 0, 0, 41,		/* 36 in_if */
	0, 0, 0, 42,		/* 40 out_if */
	0, 0, 0x05, 0xdc,	/* 44 qdepth 1500 */
	0, 0, 0x30, 0x39,	/* 48 sojourn_ns 12345 */
	0, 0, 0, 7,		/* 52 tpl_id */
	1, 2, 3, 4,		/* 56 obs_domain */
	0, 0, 0x01, 0x0f,	/* 60 present */
	0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,	/* 64 saddr */
	0x20, 0x01, 0x0d, 0xb8, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,	/* 80 daddr */
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,		/* 96 nexthop */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,			/* 112 srh_active */
};

static void dump_diff(const __u8 *want, const __u8 *got, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (want[i] != got[i])
			print_error("octet %zu: expected 0x%02x, observed 0x%02x\n",
				    i, want[i], got[i]);
}

static void test_encode_vector(void **state)
{
	struct hm_pc_obs o;
	__u8 buf[HM_PC_OBS_WIRE_LEN + 8];

	obs_v6(&o);
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(hm_pc_obs_encode(&o, buf, sizeof(buf)), HM_PC_OBS_WIRE_LEN);
	dump_diff(want_v6, buf, HM_PC_OBS_WIRE_LEN);
	assert_memory_equal(buf, want_v6, HM_PC_OBS_WIRE_LEN);
	assert_int_equal(buf[HM_PC_OBS_WIRE_LEN], 0xaa);	/* nothing past the end */
}

static void test_decode_vector(void **state)
{
	struct hm_pc_obs o, want;

	obs_v6(&want);
	memset(&o, 0x55, sizeof(o));
	assert_int_equal(hm_pc_obs_decode(&o, want_v6, sizeof(want_v6)), 0);
	assert_int_equal(o.ts_ns, 0x1789abcdef012345ULL);
	assert_int_equal(o.node_id, 4);
	assert_int_equal(o.pkt_id, 0xdeadbeef);
	assert_int_equal(o.in_if, 41);
	assert_int_equal(o.out_if, 42);
	assert_int_equal(o.qdepth, 1500);
	assert_int_equal(o.sojourn_ns, 12345);
	assert_int_equal(o.tpl_id, 7);
	assert_int_equal(o.obs_domain, 0x01020304);
	assert_int_equal(o.present, 0x10f);
	assert_int_equal(o.source, HM_PC_SRC_PBT);
	assert_int_equal(o.point, PBT_PT_EGRESS);
	assert_int_equal(o.ttl, 62);
	assert_int_equal(o.tos, 0x20);
	assert_int_equal(o.flags, PBT_REC_F_CE);
	assert_int_equal(o.length, 1280);
	assert_int_equal(o.key.family, 6);
	assert_int_equal(o.key.proto, 17);
	assert_int_equal(ntohs(o.key.sport), 40001);
	assert_int_equal(ntohs(o.key.dport), 9999);
	/* the whole struct, padding included: decode zeroes what it does not set */
	assert_memory_equal(&o, &want, sizeof(o));
}

static void test_roundtrip_v4_srh(void **state)
{
	struct hm_pc_obs o, back;
	__u8 buf[HM_PC_OBS_WIRE_LEN];
	int i;

	memset(&o, 0, sizeof(o));
	o.ts_ns = ~0ULL;
	o.node_id = 0xffffffff;
	o.pkt_id = 1;
	o.present = HM_PC_HAS_ALL;
	o.source = HM_PC_SRC_OFLAG;
	o.point = PBT_PT_INGRESS;
	o.ttl = 255;
	o.flags = 0xffff;
	o.length = 0xffff;
	o.srh_flags = 0x08;
	o.srh_sl = 3;
	o.key.family = 4;
	o.key.proto = 6;
	o.key.sport = htons(1);
	o.key.dport = htons(65535);
	o.key.saddr[0] = 10;
	o.key.saddr[3] = 1;
	o.key.daddr[0] = 10;
	o.key.daddr[3] = 2;
	for (i = 0; i < 16; i++)
		o.srh_active[i] = (__u8)(0xf0 + i);
	assert_int_equal(hm_pc_obs_encode(&o, buf, sizeof(buf)), HM_PC_OBS_WIRE_LEN);
	assert_int_equal(hm_pc_obs_decode(&back, buf, sizeof(buf)), 0);
	assert_memory_equal(&back, &o, sizeof(o));
}

static void test_encode_short(void **state)
{
	struct hm_pc_obs o;
	__u8 buf[HM_PC_OBS_WIRE_LEN];

	obs_v6(&o);
	assert_int_equal(hm_pc_obs_encode(&o, buf, HM_PC_OBS_WIRE_LEN - 1), -ENOSPC);
}

/* decode of want_v6 with octet @off set to @val: expect @err, @o untouched */
static void bad(size_t off, __u8 val, int err)
{
	__u8 buf[HM_PC_OBS_WIRE_LEN];
	struct hm_pc_obs o, before;

	memcpy(buf, want_v6, sizeof(buf));
	buf[off] = val;
	memset(&o, 0x5a, sizeof(o));
	before = o;
	if (hm_pc_obs_decode(&o, buf, sizeof(buf)) != err) {
		print_error("octet %zu = 0x%02x: expected %d\n", off, val, err);
		fail();
	}
	assert_memory_equal(&o, &before, sizeof(o));
}

static void test_decode_malformed(void **state)
{
	struct hm_pc_obs o;
	__u8 big[HM_PC_OBS_WIRE_LEN + 1];

	assert_int_equal(hm_pc_obs_decode(&o, want_v6, HM_PC_OBS_WIRE_LEN - 1), -EMSGSIZE);
	assert_int_equal(hm_pc_obs_decode(&o, want_v6, 0), -EMSGSIZE);
	memcpy(big, want_v6, HM_PC_OBS_WIRE_LEN);
	big[HM_PC_OBS_WIRE_LEN] = 0;
	assert_int_equal(hm_pc_obs_decode(&o, big, sizeof(big)), -EMSGSIZE);
	bad(0, 2, -EPROTO);		/* version 2 */
	bad(0, 0, -EPROTO);
	bad(7, 5, -EINVAL);		/* family 5 */
	bad(7, 0, -EINVAL);
	bad(2, 0, -EINVAL);		/* point 0 */
	bad(2, 3, -EINVAL);
	bad(9, 1, -EINVAL);		/* reserved octets */
	bad(18, 1, -EINVAL);
	bad(19, 0x80, -EINVAL);
	bad(62, 0x02, -EINVAL);		/* present bit 9, undefined in version 1 */
	bad(60, 0x80, -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_vector),
		cmocka_unit_test(test_decode_vector),
		cmocka_unit_test(test_roundtrip_v4_srh),
		cmocka_unit_test(test_encode_short),
		cmocka_unit_test(test_decode_malformed),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
