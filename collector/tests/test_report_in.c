// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_report_in.c - Telemetry Reports as postcards (collector/report_in.h)
 * on payloads written octet by octet (Telemetry Report v2.0 §3.2 group
 * header, §3.3 Individual Report, RepType 1 with RepMdBits node ID, hop
 * latency, queue, egress timestamp, an IPv4/UDP inner packet): the fields,
 * the packet ID equal at two nodes that changed TTL and checksum, a drop
 * report as an ingress postcard, a truncated payload and a non-IP inner.
 */
#include <arpa/inet.h>
#include <stdlib.h>

#include "hm_test.h"
#include "collector/log.h"
#include "collector/report_in.h"
#include "int/int.h"
#include "pbt/pbt_maps.h"

struct got {
	unsigned int		n;
	struct hm_pc_obs	o[8];
};

static void got_obs(void *arg, const struct hm_pc_obs *o)
{
	struct got *g = arg;

	if (g->n < 8)
		g->o[g->n] = *o;
	g->n++;
}

static void be32(__u8 *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* One payload of one report from @node; 92 octets. */
static size_t payload(__u8 *p, __u32 node, __u8 ttl, __u8 flags, __u8 in_type)
{
	size_t n = 0;

	memset(p, 0, 128);
	p[0] = 2 << 4;			/* Ver 2, hw_id 0 */
	be32(p + 4, node);		/* group header Node ID */
	n = 8;
	p[n] = INT_REP_INT << 4 | in_type;
	p[n + 1] = (8 + 20 + 28) / 4;	/* words after the header's first */
	p[n + 2] = 5;			/* MD Length: node, latency, queue, ts(2) */
	p[n + 3] = flags;
	n += 4;
	p[n] = (INT_BM_NODE_ID | INT_BM_HOP_LAT | INT_BM_QUEUE | INT_BM_EGRESS_TS) >> 8;
	p[n + 1] = 0;
	n += 8;				/* DS ID, DSMdBits, DSMdStatus 0 */
	be32(p + n, node);
	be32(p + n + 4, 700);		/* hop latency, ns */
	be32(p + n + 8, 0x01000400);	/* queue ID 1, occupancy 1024 */
	be32(p + n + 12, 0x18800000);	/* egress ts, high word */
	be32(p + n + 16, node * 1000);
	n += 20;
	/* IPv4 192.0.2.1 -> 198.51.100.2 UDP 10001 -> 5201 */
	p[n] = 0x45;
	p[n + 3] = 28;
	p[n + 4] = 0x12;
	p[n + 5] = 0x34;			/* Identification */
	p[n + 8] = ttl;
	p[n + 9] = 17;
	p[n + 10] = ttl;			/* a checksum that changes with TTL */
	be32(p + n + 12, 0xc0000201);
	be32(p + n + 16, 0xc6336402);
	p[n + 20] = 10001 >> 8;
	p[n + 21] = 10001 & 0xff;
	p[n + 22] = 5201 >> 8;
	p[n + 23] = 5201 & 0xff;
	p[n + 25] = 8;
	return n + 28;
}

static void report_fields_and_packet_id_across_nodes(void **state)
{
	struct hmc_report_stats st = { 0 };
	struct got g = { 0 };
	__u8 p[128];
	size_t n;
	__u32 a;

	n = payload(p, 11, 64, 0, INT_IN_IPV4);
	assert_int_equal(hmc_report_payload(p, n, got_obs, &g, &st), 1);
	n = payload(p, 12, 63, 0, INT_IN_IPV4);
	assert_int_equal(hmc_report_payload(p, n, got_obs, &g, &st), 1);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.o[0].source, HM_PC_SRC_INT_XD);
	assert_int_equal(g.o[0].node_id, 11);
	assert_int_equal(g.o[0].point, PBT_PT_EGRESS);
	assert_int_equal(g.o[0].ts_ns, 0x1880000000000000ULL + 11000);
	assert_int_equal(g.o[0].sojourn_ns, 700);
	assert_int_equal(g.o[0].qdepth, 1024);
	assert_int_equal(g.o[0].ttl, 64);
	assert_int_equal(g.o[1].ttl, 63);
	assert_true(g.o[0].present & HM_PC_HAS_SOJOURN);
	assert_true(g.o[0].present & HM_PC_HAS_QDEPTH);
	assert_int_equal(g.o[0].key.family, 4);
	assert_int_equal(g.o[0].key.proto, 17);
	assert_int_equal(ntohs(g.o[0].key.sport), 10001);
	assert_int_equal(ntohs(g.o[0].key.dport), 5201);
	memcpy(&a, g.o[0].key.saddr, 4);
	assert_int_equal(ntohl(a), 0xc0000201);
	assert_int_not_equal(g.o[0].pkt_id, 0);
	/* TTL and checksum differ; the packet is the same */
	assert_int_equal(g.o[0].pkt_id, g.o[1].pkt_id);
	assert_int_equal(st.payloads, 2);
	assert_int_equal(st.postcards, 2);
}

static void report_drop_is_an_ingress_postcard(void **state)
{
	struct hmc_report_stats st = { 0 };
	struct got g = { 0 };
	__u8 p[128];
	size_t n = payload(p, 13, 62, INT_RPT_F_D, INT_IN_IPV4);

	assert_int_equal(hmc_report_payload(p, n, got_obs, &g, &st), 1);
	assert_int_equal(g.o[0].point, PBT_PT_INGRESS);
}

static void report_bad_payloads_are_counted(void **state)
{
	struct hmc_report_stats st = { 0 };
	struct got g = { 0 };
	__u8 p[128];
	size_t n = payload(p, 13, 62, 0, INT_IN_IPV4);

	hmc_log_quiet(1);
	assert_true(hmc_report_payload(p, 7, got_obs, &g, &st) < 0);
	assert_true(hmc_report_payload(p, n - 30, got_obs, &g, &st) < 0);
	assert_int_equal(st.bad, 2);
	n = payload(p, 13, 62, 0, INT_IN_TLV);
	assert_int_equal(hmc_report_payload(p, n, got_obs, &g, &st), 0);
	assert_int_equal(st.no_packet, 1);
	assert_int_equal(g.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_fields_and_packet_id_across_nodes),
		cmocka_unit_test(report_drop_is_an_ingress_postcard),
		cmocka_unit_test(report_bad_payloads_are_counted),
	};

	return HM_RUN_TESTS(tests);
}
