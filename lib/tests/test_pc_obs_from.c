// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_pc_obs_from.c - every postcard source as struct hm_pc_obs
 * (lib/postcard/pc_obs_from.c) and the "pbt" postcard's JSON line
 * (lib/postcard/pbt_json.c): a PBT-M record at ingress and with a per-flow
 * template, an SRH O-flag postcard (RFC 8754 §2: the flow key's
 * destination is Segment List[0], the active segment the IPv6
 * destination), a DEX postcard (RFC 9326 §3.2: the Sequence Number is the
 * packet ID), an INT-XD record with RepMdBits 0xf000 (INT Report §3.3.1)
 * over IPv4 TCP, the packet IDs recomputed by hand with lib/pbt/pbt_id.h
 * from the octets it names, and the refusals.
 */
#include <stdlib.h>
#include <arpa/inet.h>
#include <json-c/json.h>

#include "hm_test.h"
#include "postcard/pc_obs_from.h"
#include "postcard/postcard.h"
#include "pbt/pbt_maps.h"
#include "pbt/pbt_id.h"
#include "int/int_maps.h"

static void pbt_record_ingress_and_template(void **state)
{
	struct pbt_record r;
	struct hm_pc_obs o;

	memset(&r, 0, sizeof(r));
	r.ts_ns = 1700000000000000001ULL;
	r.node_id = 4;
	r.in_ifindex = 3;
	r.pkt_id = 0x12345678;
	r.qdepth = PBT_UNKNOWN32;
	r.point = PBT_PT_INGRESS;
	r.ttl = 62;
	r.key.family = 4;
	r.tpl_fields = PBT_FLD_TOS;	/* no template id: ignored */
	r.tos = 0x20;
	assert_int_equal(hm_pc_obs_from_pbt(&r, 9, &o), 0);
	assert_int_equal(o.present, HM_PC_HAS_IN_IF | HM_PC_HAS_TTL);
	assert_int_equal(o.in_if, 3);
	assert_int_equal(o.pkt_id, 0x12345678);
	assert_int_equal(o.obs_domain, 9);
	assert_int_equal(o.source, HM_PC_SRC_PBT);
	assert_int_equal(o.tos, 0);

	r.tpl_id = 5;
	r.tpl_fields = PBT_FLD_TOS | PBT_FLD_SOJOURN | PBT_FLD_SRH;
	r.sojourn_ns = 900;
	r.point = PBT_PT_EGRESS;
	r.out_ifindex = 7;
	r.qdepth = 3000;
	assert_int_equal(hm_pc_obs_from_pbt(&r, 9, &o), 0);
	/* SRH fields of an IPv4 record are not valid, whatever the template says. */
	assert_int_equal(o.present, HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF | HM_PC_HAS_QDEPTH |
			 HM_PC_HAS_TTL | HM_PC_HAS_TOS | HM_PC_HAS_SOJOURN);
	assert_int_equal(o.tos, 0x20);
	assert_int_equal(o.sojourn_ns, 900);
	assert_int_equal(o.tpl_id, 5);

	r.point = 0;
	assert_int_equal(hm_pc_obs_from_pbt(&r, 9, &o), -EINVAL);
	r.point = PBT_PT_EGRESS;
	r.key.family = 5;
	assert_int_equal(hm_pc_obs_from_pbt(&r, 9, &o), -EINVAL);
}

static const __u8 a1[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const __u8 seg0[16] = { 0x20, 0x01, 0x0d, 0xb8, [14] = 0xff, [15] = 2 };
static const __u8 seg1[16] = { 0xfc, 0x00, [15] = 5 };

/* IPv6 (hop limit 61) + SRH (2 segments, SL 1, O-flag) + UDP + 20 payload octets. */
static size_t oflag_pkt(__u8 *p)
{
	size_t n = 0, i;

	p[n++] = 0x60; p[n++] = 0; p[n++] = 0; p[n++] = 0;
	/* Payload Length: SRH 40 + UDP 8 + 20 */
	p[n++] = 0; p[n++] = 68; p[n++] = 43; p[n++] = 61;
	memcpy(p + n, a1, 16); n += 16;
	memcpy(p + n, seg1, 16); n += 16;	/* the active segment */
	/* SRH: NH 17, Hdr Ext Len 4, type 4, SL 1, Last Entry 1, Flags 0x20, Tag 0 */
	p[n++] = 17; p[n++] = 4; p[n++] = 4; p[n++] = 1;
	p[n++] = 1; p[n++] = 0x20; p[n++] = 0; p[n++] = 0;
	memcpy(p + n, seg0, 16); n += 16;
	memcpy(p + n, seg1, 16); n += 16;
	/* UDP 40001 -> 9999, length 28, checksum 0xabcd */
	p[n++] = 0x9c; p[n++] = 0x41; p[n++] = 0x27; p[n++] = 0x0f;
	p[n++] = 0; p[n++] = 28; p[n++] = 0xab; p[n++] = 0xcd;
	for (i = 0; i < 20; i++)
		p[n++] = 0x30 + i;
	return n;
}

static void oflag_postcard_key_srh_and_packet_id(void **state)
{
	struct hm_postcard pc = { .type = HM_POSTCARD_OFLAG, .present = HM_POSTCARD_F_TS |
				  HM_POSTCARD_F_IFINDEX, .ts_ns = 5, .ifindex = 2,
				  .node_id = 9 };
	struct hm_flow_key k = { .family = 6, .proto = 17 };
	__u8 p[200], oct[PBT_ID_OCTETS];
	struct hm_pc_obs o;

	pc.headers = p;
	pc.headers_len = oflag_pkt(p);
	assert_int_equal(hm_pc_obs_from_postcard(&pc, 3, &o), 0);
	assert_int_equal(o.source, HM_PC_SRC_OFLAG);
	assert_int_equal(o.key.family, 6);
	assert_int_equal(o.key.proto, 17);
	assert_int_equal(ntohs(o.key.sport), 40001);
	assert_int_equal(ntohs(o.key.dport), 9999);
	assert_memory_equal(o.key.saddr, a1, 16);
	assert_memory_equal(o.key.daddr, seg0, 16);	/* Segment List[0] */
	assert_memory_equal(o.srh_active, seg1, 16);	/* the Destination Address */
	assert_int_equal(o.srh_flags, 0x20);
	assert_int_equal(o.srh_sl, 1);
	assert_int_equal(o.ttl, 61);
	assert_int_equal(o.length, 108);
	assert_int_equal(o.in_if, 2);
	assert_int_equal(o.point, PBT_PT_INGRESS);
	assert_true(o.flags & PBT_REC_F_SRH);
	assert_int_equal(o.present, HM_PC_HAS_IN_IF | HM_PC_HAS_TTL | HM_PC_HAS_LENGTH |
			 HM_PC_HAS_SRH);
	/* pbt_id.h: UDP header and 16 payload octets; IP word = Payload Length. */
	k.sport = htons(40001);
	k.dport = htons(9999);
	memcpy(k.saddr, a1, 16);
	memcpy(k.daddr, seg0, 16);
	memcpy(oct, p + 40 + 40, PBT_ID_OCTETS);
	assert_int_equal(o.pkt_id, pbt_pkt_id(&k, 68, oct, PBT_ID_OCTETS));

	/* Not IPv6, none, another type. */
	pc.headers_len = 20;
	p[0] = 0x45;
	assert_int_equal(hm_pc_obs_from_postcard(&pc, 3, &o), -EPROTO);
	pc.headers = NULL;
	pc.headers_len = 0;
	assert_int_equal(hm_pc_obs_from_postcard(&pc, 3, &o), -EPROTO);
	pc.type = HM_POSTCARD_E2E;
	assert_int_equal(hm_pc_obs_from_postcard(&pc, 3, &o), -EINVAL);
}

static void dex_postcard_packet_id_is_its_sequence(void **state)
{
	struct hm_postcard pc = { .type = HM_POSTCARD_DEX,
				  .present = HM_POSTCARD_F_SEQ | HM_POSTCARD_F_PKT_LEN,
				  .seq = 77, .pkt_len = 300 };
	struct hm_pc_obs o;
	__u8 p[200];

	pc.headers = p;
	pc.headers_len = oflag_pkt(p);
	assert_int_equal(hm_pc_obs_from_postcard(&pc, 1, &o), 0);
	assert_int_equal(o.source, HM_PC_SRC_DEX);
	assert_int_equal(o.pkt_id, 77);
	assert_int_equal(o.length, 300);
	assert_int_equal(o.present & HM_PC_HAS_IN_IF, 0);
}

static void int_xd_record_metadata_and_packet_id(void **state)
{
	struct hm_flow_key k = { .family = 4, .proto = 6 };
	__u8 oct[PBT_ID_OCTETS] = { 0 };
	struct int_record r;
	struct hm_pc_obs o;
	__u8 *p;
	size_t i;

	memset(&r, 0, sizeof(r));
	r.kind = INT_REC_XD;
	r.family = 4;
	r.ts_ns = 42;
	r.ifindex = 5;
	r.node_id = 8;
	p = r.pkt;
	/* IPv4, ID 0x1234, total 20 + 24 (TCP with one option word) + 10 */
	p[0] = 0x45; p[2] = 0; p[3] = 54; p[4] = 0x12; p[5] = 0x34; p[8] = 33; p[9] = 6;
	memcpy(p + 12, "\xc0\x00\x02\x01\xc0\x00\x02\x02", 8);
	p[20] = 0x04; p[21] = 0xd2; p[22] = 0x00; p[23] = 0x50;	/* 1234 -> 80 */
	for (i = 4; i < 12; i++)
		p[20 + i] = i;					/* seq, ack */
	p[32] = 6 << 4;						/* Data Offset 24 */
	p[33] = 0x18; p[34] = 0x01; p[35] = 0x00;
	for (i = 0; i < 10; i++)
		p[44 + i] = 0xa0 + i;
	r.pkt_len = 54;
	r.orig_len = 54;
	/* RepMdBits 0xf000: node ID, L1 ingress/egress, hop latency, queue. */
	r.rep_md_bits = 0xf000;
	r.md_len = 16;
	memcpy(r.md, "\x00\x00\x00\x08" "\x00\x05\x00\x06" "\x00\x00\x03\xe8" "\x01\x00\x10\x00", 16);
	assert_int_equal(hm_pc_obs_from_int(&r, NULL, 2, &o), 0);
	assert_int_equal(o.source, HM_PC_SRC_INT_XD);
	assert_int_equal(o.in_if, 5);
	assert_int_equal(o.out_if, 6);
	assert_int_equal(o.sojourn_ns, 1000);
	assert_int_equal(o.qdepth, 0x1000);
	assert_int_equal(o.ttl, 33);
	assert_int_equal(o.length, 54);
	assert_int_equal(o.present, HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF | HM_PC_HAS_SOJOURN |
			 HM_PC_HAS_QDEPTH | HM_PC_HAS_TTL | HM_PC_HAS_LENGTH);
	/* pbt_id.h for TCP: header octets 0-15, then 8 from the Data Offset on. */
	k.sport = htons(1234);
	k.dport = htons(80);
	memcpy(k.saddr, p + 12, 4);
	memcpy(k.daddr, p + 16, 4);
	memcpy(oct, p + 20, 16);
	memcpy(oct + 16, p + 44, 8);
	assert_int_equal(o.pkt_id, pbt_pkt_id(&k, 0x1234u << 16 | 54, oct, 24));

	r.kind = INT_REC_SINK;
	assert_int_equal(hm_pc_obs_from_int(&r, NULL, 2, &o), -EINVAL);
	r.kind = INT_REC_XD;
	r.md_len = 3;
	assert_int_equal(hm_pc_obs_from_int(&r, NULL, 2, &o), -EINVAL);
}

static void pbt_json_line(void **state)
{
	struct pbt_record r;
	struct json_object *j, *v;
	char buf[2048];
	size_t n;

	memset(&r, 0, sizeof(r));
	r.ts_ns = 1700000000123456789ULL;
	r.node_id = 0xffffff;
	r.point = PBT_PT_EGRESS;
	r.out_ifindex = 2;
	r.qdepth = PBT_UNKNOWN32;
	r.pkt_id = 3039031161U;
	r.ttl = 64;
	r.flags = PBT_REC_F_HEAD;
	r.key.family = 4;
	r.key.proto = 17;
	r.key.sport = htons(34273);
	r.key.dport = htons(5001);
	memcpy(r.key.saddr, "\x0a\x01\x00\x01", 4);
	memcpy(r.key.daddr, "\x0a\x02\x00\x02", 4);
	n = hm_pbt_postcard_write_json(buf, sizeof(buf), &r);
	assert_true(n < sizeof(buf));
	assert_int_equal(buf[n - 1], '\n');
	assert_int_equal(hm_pbt_postcard_write_json(buf, 10, &r), n);	/* counts past the end */
	n = hm_pbt_postcard_write_json(buf, sizeof(buf), &r);
	buf[n] = 0;
	j = json_tokener_parse(buf);
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "postcard", &v));
	assert_string_equal(json_object_get_string(v), "pbt");
	assert_true(json_object_object_get_ex(j, "pkt_id", &v));
	assert_int_equal(json_object_get_int64(v), 3039031161LL);
	assert_true(json_object_object_get_ex(j, "qdepth", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(j, "time", &v));
	assert_string_equal(json_object_get_string(v), "2023-11-14T22:13:20.123456789Z");
	assert_false(json_object_object_get_ex(j, "template", &v));
	assert_true(json_object_object_get_ex(j, "packet", &v));
	assert_true(json_object_object_get_ex(v, "src", &v));
	assert_string_equal(json_object_get_string(v), "10.1.0.1");
	json_object_put(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pbt_record_ingress_and_template),
		cmocka_unit_test(oflag_postcard_key_srh_and_packet_id),
		cmocka_unit_test(dex_postcard_packet_id_is_its_sequence),
		cmocka_unit_test(int_xd_record_metadata_and_packet_id),
		cmocka_unit_test(pbt_json_line),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
