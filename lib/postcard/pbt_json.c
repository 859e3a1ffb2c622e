// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pbt_json.c - PBT-M postcards (struct pbt_record) as JSON lines, the
 * "pbt" postcards of Documentation/postcards.rst, for hopmarkd's output
 * and monitor socket. Written with the allocation-free JSON writer, since
 * one comes per marked packet per node.
 */
#include <arpa/inet.h>

#include "common/hm_time.h"
#include "common/json_write.h"
#include "pbt/pbt_maps.h"
#include "postcard/postcard.h"

static void jw_addr(struct hm_jw *w, int family, const __u8 *a)
{
	char s[INET6_ADDRSTRLEN];

	if (!inet_ntop(family == 4 ? AF_INET : AF_INET6, a, s, sizeof(s)))
		hm_jw_null(w);
	else
		hm_jw_str(w, s);
}

static const char *mark_name(const struct pbt_record *r)
{
	if (r->key.family == 4)
		return r->mark == PBT_V4_TOS ? "tos" : "reserved";
	return r->mark == PBT_V6_OFLAG ? "oflag" : "tc";
}

size_t hm_pbt_postcard_write_json(char *buf, size_t size, const struct pbt_record *r)
{
	char t[64];
	struct hm_jw w;
	size_t hl;

	hm_jw_init(&w, buf, size);
	hm_jw_open(&w, '{');
	hm_jw_key(&w, "postcard");
	hm_jw_str(&w, "pbt");
	hm_jw_key(&w, "ts_ns");
	hm_jw_u64(&w, r->ts_ns);
	hm_jw_key(&w, "time");
	if (hm_time_rfc3339(r->ts_ns, t, sizeof(t)))
		hm_jw_str(&w, t);
	else
		hm_jw_null(&w);
	hm_jw_key(&w, "node");
	hm_jw_open(&w, '{');
	hm_jw_key_u64(&w, "node_id", r->node_id, 0xffffff);
	hm_jw_close(&w, '}');
	hm_jw_key(&w, "point");
	hm_jw_str(&w, r->point == PBT_PT_INGRESS ? "ingress" :
		  r->point == PBT_PT_EGRESS ? "egress" : "unknown");
	hm_jw_key(&w, "pkt_id");
	hm_jw_u64(&w, r->pkt_id);
	hm_jw_key(&w, "id_kind");
	if (r->id_kind == PBT_ID_HASH)
		hm_jw_str(&w, "hash");
	else
		hm_jw_u64(&w, r->id_kind);
	hm_jw_key_u64(&w, "in_if", r->in_ifindex, 0);
	hm_jw_key_u64(&w, "out_if", r->out_ifindex, 0);
	hm_jw_key_u64(&w, "qdepth", r->qdepth, PBT_UNKNOWN32);
	hm_jw_key(&w, "ttl");
	hm_jw_u64(&w, r->ttl);
	hm_jw_key(&w, "mark");
	hm_jw_str(&w, mark_name(r));
	hm_jw_key(&w, "ce");
	hm_jw_bool(&w, r->flags & PBT_REC_F_CE);
	hm_jw_key(&w, "head");
	hm_jw_bool(&w, r->flags & PBT_REC_F_HEAD);
	hm_jw_key(&w, "end");
	hm_jw_bool(&w, r->flags & PBT_REC_F_END);
	hm_jw_key(&w, "gso");
	hm_jw_bool(&w, r->flags & PBT_REC_F_GSO);
	hm_jw_key(&w, "pkt_len");
	hm_jw_u64(&w, r->pkt_len);
	hm_jw_key(&w, "packet");
	hm_jw_open(&w, '{');
	hm_jw_key(&w, "family");
	hm_jw_u64(&w, r->key.family);
	hm_jw_key(&w, "src");
	jw_addr(&w, r->key.family, r->key.saddr);
	hm_jw_key(&w, "dst");
	jw_addr(&w, r->key.family, r->key.daddr);
	hm_jw_key(&w, "proto");
	hm_jw_u64(&w, r->key.proto);
	hm_jw_key(&w, "sport");
	hm_jw_u64(&w, ntohs(r->key.sport));
	hm_jw_key(&w, "dport");
	hm_jw_u64(&w, ntohs(r->key.dport));
	hm_jw_close(&w, '}');
	if (r->tpl_id) {
		hm_jw_key(&w, "template");
		hm_jw_open(&w, '{');
		hm_jw_key(&w, "id");
		hm_jw_u64(&w, r->tpl_id);
		if (r->tpl_fields & PBT_FLD_NEXTHOP) {
			hm_jw_key(&w, "nexthop");
			jw_addr(&w, r->key.family, r->nexthop);
		}
		if (r->tpl_fields & PBT_FLD_TOS) {
			hm_jw_key(&w, "tos");
			hm_jw_u64(&w, r->tos);
		}
		if (r->tpl_fields & PBT_FLD_LENGTH) {
			hm_jw_key(&w, "length");
			hm_jw_u64(&w, r->pkt_len);
		}
		if ((r->tpl_fields & PBT_FLD_SRH) && (r->flags & PBT_REC_F_SRH)) {
			hm_jw_key(&w, "srh");
			hm_jw_open(&w, '{');
			hm_jw_key(&w, "flags");
			hm_jw_u64(&w, r->srh_flags);
			hm_jw_key(&w, "segments_left");
			hm_jw_u64(&w, r->srh_sl);
			hm_jw_key(&w, "active_segment");
			jw_addr(&w, 6, r->srh_active);
			hm_jw_close(&w, '}');
		}
		if (r->tpl_fields & PBT_FLD_SOJOURN) {
			hm_jw_key(&w, "sojourn_ns");
			hm_jw_u64(&w, r->sojourn_ns);
		}
		if (r->tpl_fields & PBT_FLD_HEADER) {
			hl = r->hdr_len > PBT_REC_HDR_MAX ? PBT_REC_HDR_MAX : r->hdr_len;
			hm_jw_key(&w, "header");
			hm_jw_hex(&w, r->hdr, hl);
		}
		hm_jw_close(&w, '}');
	}
	hm_jw_close(&w, '}');
	hm_jw_char(&w, '\n');
	return hm_jw_len(&w);
}
