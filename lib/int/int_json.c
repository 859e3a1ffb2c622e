// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_json.c - decoded INT packets and Telemetry Reports as JSON
 * (int_print.h), with the DOM-free writer of common/json_write.h. The keys
 * and their order are Documentation/int.rst's "Decoding and JSON"; the
 * Wireshark dissector's tests compare tshark's fields with them.
 */
#include <arpa/inet.h>
#include <sys/socket.h>

#include "common/byteorder.h"
#include "common/ether.h"
#include "int/int_print.h"

static void jw_hex16(struct hm_jw *w, __u16 v)
{
	char s[9];

	snprintf(s, sizeof(s), "\"0x%04x\"", v);
	hm_jw_raw(w, s, 8);
}

static void jw_addr(struct hm_jw *w, int ver, const __u8 *a)
{
	char s[INET6_ADDRSTRLEN];

	if (!inet_ntop(ver == 4 ? AF_INET : AF_INET6, a, s, sizeof(s))) {
		hm_jw_null(w);
		return;
	}
	hm_jw_str(w, s);
}

void int_json_packet(struct hm_jw *w, const struct int_pkt *p)
{
	hm_jw_open(w, '{');
	hm_jw_key(w, "ip_ver");
	hm_jw_u64(w, p->ip_ver);
	hm_jw_key(w, "src");
	jw_addr(w, p->ip_ver, p->saddr);
	hm_jw_key(w, "dst");
	jw_addr(w, p->ip_ver, p->daddr);
	hm_jw_key(w, "dscp");
	hm_jw_u64(w, p->dscp);
	hm_jw_key(w, "ttl");
	hm_jw_u64(w, p->ttl);
	hm_jw_key(w, "ip_len");
	hm_jw_u64(w, p->ip_len);
	hm_jw_key(w, "proto");
	hm_jw_u64(w, p->proto);
	hm_jw_key_s64(w, "sport", p->sport, p->has_ports);
	hm_jw_key_s64(w, "dport", p->dport, p->has_ports);
	hm_jw_close(w, '}');
}

#define KEY_U(w, key, v)		\
	do {				\
		hm_jw_key(w, key);	\
		hm_jw_u64(w, (v));	\
	} while (0)

void int_json_hop(struct hm_jw *w, const struct int_hop *h)
{
	__u16 b = h->bitmap;
	unsigned int i;

	hm_jw_open(w, '{');
	if (b & INT_BM_NODE_ID)
		KEY_U(w, "node_id", h->node_id);
	if (b & INT_BM_L1_PORTS) {
		KEY_U(w, "l1_ingress", h->l1_ingress);
		KEY_U(w, "l1_egress", h->l1_egress);
	}
	if (b & INT_BM_HOP_LAT)
		KEY_U(w, "hop_latency", h->hop_latency);
	if (b & INT_BM_QUEUE) {
		KEY_U(w, "queue_id", h->queue_id);
		KEY_U(w, "queue_occupancy", h->queue_occupancy);
	}
	if (b & INT_BM_INGRESS_TS)
		KEY_U(w, "ingress_ts", h->ingress_ts);
	if (b & INT_BM_EGRESS_TS)
		KEY_U(w, "egress_ts", h->egress_ts);
	if (b & INT_BM_L2_PORTS) {
		KEY_U(w, "l2_ingress", h->l2_ingress);
		KEY_U(w, "l2_egress", h->l2_egress);
	}
	if (b & INT_BM_TX_UTIL)
		KEY_U(w, "tx_util", h->tx_util);
	if (b & INT_BM_BUFFER) {
		KEY_U(w, "buffer_id", h->buffer_id);
		KEY_U(w, "buffer_occupancy", h->buffer_occupancy);
	}
	if (b & INT_BM_RSVD_MASK) {
		/* Bits 9-14 in ascending order, one word each. */
		hm_jw_key(w, "reserved");
		hm_jw_open(w, '[');
		for (i = 0; i < 6; i++) {
			if (!(b & (0x0040 >> i)))
				continue;
			hm_jw_elem(w);
			hm_jw_u64(w, h->rsvd[i]);
		}
		hm_jw_close(w, ']');
	}
	if (h->ds_words) {
		hm_jw_key(w, "ds_md");
		hm_jw_hex(w, h->ds, (size_t)h->ds_words * 4);
	}
	/* INT-MD bit 15: the block's last word (§5.8). */
	if ((b & INT_BM_CSUM_COMPL) && !h->report)
		KEY_U(w, "csum_complement", h->csum_complement);
	hm_jw_close(w, '}');
}

void int_json_int(struct hm_jw *w, const struct int_pkt *p)
{
	struct int_hop h;
	__u32 i;

	hm_jw_open(w, '{');
	hm_jw_key(w, "type");
	hm_jw_str(w, p->type == INT_TYPE_MD ? "md" : p->type == INT_TYPE_MX ? "mx" : "unknown");
	KEY_U(w, "npt", p->npt);
	KEY_U(w, "shim_len", p->shim_len);
	if (p->npt == INT_NPT_UDP)
		KEY_U(w, "orig_dport", p->npt_field);
	else if (p->npt == INT_NPT_L4)
		KEY_U(w, "orig_proto", p->npt_field);
	else
		KEY_U(w, "orig_dscp", p->npt_field);
	KEY_U(w, "ver", p->ver);
	KEY_U(w, "d", p->d);
	if (p->type == INT_TYPE_MD) {
		KEY_U(w, "e", p->e);
		KEY_U(w, "m", p->m);
		KEY_U(w, "hop_ml", p->hop_ml);
		KEY_U(w, "rhc", p->rhc);
	}
	hm_jw_key(w, "bitmap");
	jw_hex16(w, p->bitmap);
	KEY_U(w, "ds_id", p->ds_id);
	KEY_U(w, "ds_instruction", p->ds_inst);
	KEY_U(w, "ds_flags", p->ds_flags);
	if (p->type == INT_TYPE_MD) {
		hm_jw_key(w, "hops");
		hm_jw_open(w, '[');
		for (i = 0; i < p->n_hops; i++) {
			if (int_decode_hop(p, i, &h))
				break;
			hm_jw_elem(w);
			int_json_hop(w, &h);
		}
		hm_jw_close(w, ']');
	}
	if (p->src_words) {
		hm_jw_key(w, "source_data");
		hm_jw_hex(w, p->src_data, (size_t)p->src_words * 4);
	}
	hm_jw_close(w, '}');
}

static bool is_vlan(__u16 t)
{
	return t == HM_ETH_P_8021Q || t == HM_ETH_P_8021AD || t == HM_ETH_P_QINQ1;
}

/* The IP packet after an Ethernet header (and its tags), 0 if none. */
static size_t eth_ip(const __u8 *d, size_t n, size_t *off)
{
	size_t o = 2 * HM_ETH_ALEN;
	__u16 t;

	if (n < HM_ETH_HLEN)
		return 0;
	t = hm_get_be16(d + o);
	while (is_vlan(t) && o + HM_VLAN_HLEN + 2 <= n) {
		o += HM_VLAN_HLEN;
		t = hm_get_be16(d + o);
	}
	o += 2;
	if ((t != HM_ETH_P_IP && t != HM_ETH_P_IPV6) || o >= n)
		return 0;
	*off = o;
	return n - o;
}

size_t int_rpt_inner_ip(const struct int_rpt *r, size_t *off)
{
	const __u8 *d = r->inner;
	size_t n = r->inner_len, o = 0;

	switch (r->in_type) {
	case INT_IN_IPV4:
	case INT_IN_IPV6:
		*off = 0;
		return n;
	case INT_IN_ETHERNET:
		return eth_ip(d, n, off);
	case INT_IN_TLV:
		/* TLVType(4) Rsvd(4) TLVLength(8, words after the first) Template(16). */
		while (o + 4 <= n) {
			__u8 type = d[o] >> 4;
			size_t tl = (size_t)d[o + 1] * 4;

			if (tl > n - o - 4)
				tl = n - o - 4;
			if (type == 1) {
				size_t ip = 0, l = eth_ip(d + o + 4, tl, &ip);

				if (!l)
					return 0;
				*off = o + 4 + ip;
				return l;
			}
			if (type == 2 || type == 3) {
				*off = o + 4;
				return tl;
			}
			o += 4 + tl;
		}
		return 0;
	default:
		return 0;
	}
}

/* See int_print.h. */
bool int_rpt_decode_inner(const struct int_rpt *r, const struct int_signal *sig,
			  struct int_pkt *ip, int *err)
{
	size_t off = 0, n;

	n = int_rpt_inner_ip(r, &off);
	if (!n)
		return false;
	*err = int_decode_ip(r->inner + off, n, sig, ip);
	return *err != -INT_E_IP;
}

static int json_inner(struct hm_jw *w, const struct int_rpt *r, const struct int_signal *sig)
{
	struct int_pkt ip;
	int err;

	if (!int_rpt_decode_inner(r, sig, &ip, &err))
		return 0;
	hm_jw_key(w, "inner");
	hm_jw_open(w, '{');
	hm_jw_key(w, "packet");
	int_json_packet(w, &ip);
	if (!err) {
		hm_jw_key(w, "int");
		int_json_int(w, &ip);
	} else if (err != -INT_E_NONE) {
		hm_jw_key(w, "error");
		hm_jw_str(w, int_dec_strerror(err));
	}
	hm_jw_close(w, '}');
	return err == -INT_E_NONE ? 0 : err;
}

int int_json_report(struct hm_jw *w, const __u8 *pl, size_t len, const struct int_signal *sig)
{
	struct int_rpt_group_hdr g;
	struct int_rpt r;
	size_t off = INT_RPT_GROUP_LEN;
	int err, ret = 0, rc;

	err = int_rpt_group_decode(pl, len, &g);
	hm_jw_open(w, '{');
	if (err == -INT_E_RPT_GROUP) {
		hm_jw_key(w, "error");
		hm_jw_str(w, int_rpt_strerror(err));
		hm_jw_close(w, '}');
		return err;
	}
	KEY_U(w, "ver", g.ver);
	KEY_U(w, "hw_id", g.hw_id);
	KEY_U(w, "seq", g.seq);
	KEY_U(w, "node_id", g.node_id);
	if (err) {
		hm_jw_key(w, "error");
		hm_jw_str(w, int_rpt_strerror(err));
		hm_jw_close(w, '}');
		return err;
	}
	hm_jw_key(w, "reports");
	hm_jw_open(w, '[');
	while ((rc = int_rpt_next(pl, len, &off, &r)) > 0) {
		hm_jw_elem(w);
		hm_jw_open(w, '{');
		KEY_U(w, "rep_type", r.rep_type);
		KEY_U(w, "in_type", r.in_type);
		KEY_U(w, "len", r.len);
		KEY_U(w, "md_len", r.md_len);
		KEY_U(w, "d", !!(r.flags & INT_RPT_F_D));
		KEY_U(w, "q", !!(r.flags & INT_RPT_F_Q));
		KEY_U(w, "f", !!(r.flags & INT_RPT_F_F));
		KEY_U(w, "i", !!(r.flags & INT_RPT_F_I));
		if (r.rep_type == INT_REP_INT) {
			hm_jw_key(w, "rep_md_bits");
			jw_hex16(w, r.rep_md_bits);
			KEY_U(w, "ds_id", r.ds_id);
			KEY_U(w, "ds_md_bits", r.ds_md_bits);
			KEY_U(w, "ds_md_status", r.ds_md_status);
			hm_jw_key(w, "md");
			int_json_hop(w, &r.md);
			if (r.rep_md_bits & INT_RPT_MD_DROP) {
				KEY_U(w, "drop_queue_id", r.md.drop_queue_id);
				KEY_U(w, "drop_reason", r.md.drop_reason);
			}
		}
		KEY_U(w, "inner_len", r.inner_len);
		err = json_inner(w, &r, sig);
		if (err && !ret)
			ret = err;
		hm_jw_close(w, '}');
	}
	hm_jw_close(w, ']');
	if (rc < 0) {
		hm_jw_key(w, "error");
		hm_jw_str(w, int_rpt_strerror(rc));
		if (!ret)
			ret = rc;
	}
	hm_jw_close(w, '}');
	return ret;
}
