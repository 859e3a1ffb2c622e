// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * report_in.c - Telemetry Reports as postcards (collector/report_in.h).
 */
#include <string.h>

#include "collector/log.h"
#include "collector/report_in.h"
#include "int/report_decode.h"
#include "pbt/pbt_id.h"
#include "pbt/pbt_maps.h"

#define ETH_HDR		14
#define ETH_P_IPV4	0x0800
#define ETH_P_IPV6	0x86dd
#define ETH_P_VLAN	0x8100

/* pbt_id.h's upper-layer octets, as the datapath takes them (TCP: 16 of
 * the header, 8 after its options; others: 24 from the header's start),
 * counted against the IP length and read from what the report carries. */
static __u32 hmc_id_octets(const __u8 *p, size_t len, size_t iplen, size_t l4, __u8 proto,
			   __u8 *oct)
{
	size_t left = iplen > l4 ? iplen - l4 : 0, po = PBT_ID_L4_OCTETS, n1, n2, i;

	memset(oct, 0, PBT_ID_OCTETS);
	if (proto == 6 && l4 + 13 <= len) {
		po = pbt_id_payload_off(proto, (p[l4 + 12] >> 4) * 4);
		if (po < 20 || po > left)
			po = left;
	}
	n1 = left < PBT_ID_L4_OCTETS ? left : PBT_ID_L4_OCTETS;
	n2 = left > po ? left - po : 0;
	if (n2 > PBT_ID_OCTETS - PBT_ID_L4_OCTETS)
		n2 = PBT_ID_OCTETS - PBT_ID_L4_OCTETS;
	for (i = 0; i < n1 && l4 + i < len; i++)
		oct[i] = p[l4 + i];
	for (i = 0; i < n2 && l4 + po + i < len; i++)
		oct[PBT_ID_L4_OCTETS + i] = p[l4 + po + i];
	return n1 + n2;
}

__u32 hmc_report_pkt_id(const __u8 *ip, size_t len, struct hm_flow_key *key, __u8 *ttl)
{
	__u8 oct[PBT_ID_OCTETS];
	size_t hl, iplen;
	__u32 ip_word, n;

	memset(key, 0, sizeof(*key));
	*ttl = 0;
	if (len < 1)
		return 0;
	if ((ip[0] >> 4) == 4 && len >= 20 && (hl = (ip[0] & 0x0f) * 4) >= 20 && len >= hl) {
		key->family = 4;
		key->proto = ip[9];
		memcpy(key->saddr, ip + 12, 4);
		memcpy(key->daddr, ip + 16, 4);
		*ttl = ip[8];
		iplen = (size_t)ip[2] << 8 | ip[3];
		ip_word = (__u32)ip[4] << 24 | (__u32)ip[5] << 16 | iplen;
	} else if ((ip[0] >> 4) == 6 && len >= 40) {
		key->family = 6;
		key->proto = ip[6];
		memcpy(key->saddr, ip + 8, 16);
		memcpy(key->daddr, ip + 24, 16);
		*ttl = ip[7];
		ip_word = (__u32)ip[4] << 8 | ip[5];
		iplen = 40 + ip_word;
		hl = 40;
	} else {
		return 0;
	}
	if ((key->proto == 6 || key->proto == 17) && len >= hl + 4) {
		memcpy(&key->sport, ip + hl, 2);
		memcpy(&key->dport, ip + hl + 2, 2);
	}
	n = hmc_id_octets(ip, len, iplen, hl, key->proto, oct);
	return pbt_pkt_id(key, ip_word, oct, n) ?: 1;	/* 0 says "no packet" */
}

/* The IP header inside a report's inner contents, by InType. */
static const __u8 *hmc_inner_ip(const struct int_rpt *r, size_t *len)
{
	const __u8 *p = r->inner;
	size_t n = r->inner_len, off = ETH_HDR;
	__u16 type;

	switch (r->in_type) {
	case INT_IN_IPV4:
	case INT_IN_IPV6:
		*len = n;
		return p;
	case INT_IN_ETHERNET:
		if (n < ETH_HDR)
			return NULL;
		type = (__u16)p[12] << 8 | p[13];
		if (type == ETH_P_VLAN && n >= ETH_HDR + 4) {
			type = (__u16)p[16] << 8 | p[17];
			off += 4;
		}
		if (type != ETH_P_IPV4 && type != ETH_P_IPV6)
			return NULL;
		*len = n - off;
		return p + off;
	}
	return NULL;
}

int hmc_report_payload(const __u8 *p, size_t len, hmc_obs_fn fn, void *arg,
		       struct hmc_report_stats *st)
{
	struct int_rpt_group_hdr g;
	size_t off = 8;
	int rc, n = 0;

	st->payloads++;
	rc = int_rpt_group_decode(p, len, &g);
	if (rc) {
		st->bad++;
		hmc_log(HMC_LOG_REPORT, "Telemetry Report: %s", int_rpt_strerror(rc));
		return rc;
	}
	for (;;) {
		const struct int_hop *md;
		struct hm_pc_obs o;
		struct int_rpt r;
		const __u8 *ip;
		size_t iplen;

		rc = int_rpt_next(p, len, &off, &r);
		if (rc == 0)
			break;
		if (rc < 0) {
			st->bad++;
			hmc_log(HMC_LOG_REPORT, "Telemetry Report of node %u at offset %zu: %s",
				g.node_id, off, int_rpt_strerror(rc));
			return rc;
		}
		st->reports++;
		if (r.rep_type != INT_REP_INT)
			continue;
		ip = hmc_inner_ip(&r, &iplen);
		memset(&o, 0, sizeof(o));
		if (!ip || !(o.pkt_id = hmc_report_pkt_id(ip, iplen, &o.key, &o.ttl)) ||
		    !o.key.family) {
			st->no_packet++;
			continue;
		}
		md = &r.md;
		o.source = HM_PC_SRC_INT_XD;
		o.present = HM_PC_HAS_TTL;
		o.node_id = (md->bitmap & INT_BM_NODE_ID) ? md->node_id : g.node_id;
		if (md->bitmap & INT_BM_L2_PORTS) {
			o.in_if = md->l2_ingress;
			o.out_if = md->l2_egress;
			o.present |= HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF;
		} else if (md->bitmap & INT_BM_L1_PORTS) {
			o.in_if = md->l1_ingress;
			o.out_if = md->l1_egress;
			o.present |= HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF;
		}
		if ((md->bitmap & INT_BM_QUEUE) && md->queue_occupancy != 0xffffff) {
			o.qdepth = md->queue_occupancy;
			o.present |= HM_PC_HAS_QDEPTH;
		}
		if ((md->bitmap & INT_BM_HOP_LAT) && md->hop_latency != 0xffffffff) {
			o.sojourn_ns = md->hop_latency;
			o.present |= HM_PC_HAS_SOJOURN;
		}
		if ((r.flags & INT_RPT_F_D) || !(md->bitmap & INT_BM_EGRESS_TS)) {
			o.point = PBT_PT_INGRESS;
			o.ts_ns = (md->bitmap & INT_BM_INGRESS_TS) ? md->ingress_ts : 0;
		} else {
			o.point = PBT_PT_EGRESS;
			o.ts_ns = md->egress_ts;
		}
		if (!o.ts_ns)
			o.ts_ns = hmc_now_ns();
		st->postcards++;
		n++;
		fn(arg, &o);
	}
	return n;
}
