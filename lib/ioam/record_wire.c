// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * record_wire.c - struct hm_record to and from its binary form, layout
 * version 1 (record_wire.h gives every offset, unit and the byte order).
 *
 * Fixed offsets and big-endian integers: the stores and loads go through
 * memcpy() of a byte-swapped value, which compilers turn into one move (and
 * a bswap) per field, so a record costs some tens of ns either way.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "ioam/record_wire.h"

static inline void put8(__u8 *p, __u8 v) { *p = v; }
static inline void put16(__u8 *p, __u16 v) { v = htobe16(v); memcpy(p, &v, 2); }
static inline void put32(__u8 *p, __u32 v) { v = htobe32(v); memcpy(p, &v, 4); }
static inline void put64(__u8 *p, __u64 v) { v = htobe64(v); memcpy(p, &v, 8); }

static inline __u16 get16(const __u8 *p) { __u16 v; memcpy(&v, p, 2); return be16toh(v); }
static inline __u32 get32(const __u8 *p) { __u32 v; memcpy(&v, p, 4); return be32toh(v); }
static inline __u64 get64(const __u8 *p) { __u64 v; memcpy(&v, p, 8); return be64toh(v); }

static void node_encode(__u8 *p, const struct hm_ioam6_node_values *v)
{
	put32(p + 0, v->present);
	put8(p + 4, v->hop_limit);
	put8(p + 5, v->opaque_len);
	put16(p + 6, v->ingress_if);
	put16(p + 8, v->egress_if);
	put16(p + 10, 0);
	put32(p + 12, v->node_id);
	put32(p + 16, v->ts_sec);
	put32(p + 20, v->ts_frac);
	put32(p + 24, v->transit_delay);
	put32(p + 28, v->ns_data);
	put32(p + 32, v->queue_depth);
	put32(p + 36, v->csum_compl);
	put32(p + 40, v->ingress_if_wide);
	put32(p + 44, v->egress_if_wide);
	put32(p + 48, v->buffer_occupancy);
	put32(p + 52, v->opaque_schema);
	put64(p + 56, v->node_id_wide);
	put64(p + 64, v->ns_data_wide);
}

static int node_decode(const __u8 *p, struct hm_ioam6_node_values *v)
{
	if (get16(p + 10))
		return -EPROTO;
	v->present = get32(p + 0);
	v->hop_limit = p[4];
	v->opaque_len = p[5];
	v->ingress_if = get16(p + 6);
	v->egress_if = get16(p + 8);
	v->pad = 0;
	v->node_id = get32(p + 12);
	v->ts_sec = get32(p + 16);
	v->ts_frac = get32(p + 20);
	v->transit_delay = get32(p + 24);
	v->ns_data = get32(p + 28);
	v->queue_depth = get32(p + 32);
	v->csum_compl = get32(p + 36);
	v->ingress_if_wide = get32(p + 40);
	v->egress_if_wide = get32(p + 44);
	v->buffer_occupancy = get32(p + 48);
	v->opaque_schema = get32(p + 52);
	v->node_id_wide = get64(p + 56);
	v->ns_data_wide = get64(p + 64);
	return 0;
}

/* See record_wire.h. */
int hm_record_wire_encode(__u8 *buf, size_t size, const struct hm_record *r)
{
	const struct hm_ioam_trace *t = &r->trace;
	size_t len;
	unsigned int i;

	if (t->n_nodes > HM_MAX_HOPS)
		return -EINVAL;
	len = hm_record_wire_len(r);
	if (size < len)
		return -EMSGSIZE;
	put64(buf + 0, r->rx_ns);
	put32(buf + 8, r->ifindex);
	put32(buf + 12, r->sink_node_id);
	put16(buf + 16, r->sink_if_id);
	put16(buf + 18, t->ns_id);
	put8(buf + 20, t->nodelen);
	put8(buf + 21, t->remlen);
	put8(buf + 22, t->overflow);
	put8(buf + 23, t->n_nodes);
	put32(buf + 24, t->trace_type);
	put32(buf + 28, t->data_len);
	memcpy(buf + 32, r->pkt.saddr, 16);
	memcpy(buf + 48, r->pkt.daddr, 16);
	put32(buf + 64, r->pkt.flow_label);
	put16(buf + 68, r->pkt.payload_len);
	put8(buf + 70, r->pkt.hop_limit);
	put8(buf + 71, r->pkt.proto);
	put16(buf + 72, r->pkt.sport);
	put16(buf + 74, r->pkt.dport);
	put32(buf + 76, 0);
	for (i = 0; i < t->n_nodes; i++)
		node_encode(buf + HM_RECORD_WIRE_HDR_LEN + i * HM_RECORD_WIRE_NODE_LEN,
			    &t->nodes[i]);
	return len;
}

/* See record_wire.h. */
int hm_record_wire_decode(const __u8 *buf, size_t len, struct hm_record *r)
{
	struct hm_ioam_trace *t = &r->trace;
	unsigned int i, n;

	if (len < HM_RECORD_WIRE_HDR_LEN)
		return -EMSGSIZE;
	n = buf[23];
	if (n > HM_MAX_HOPS)
		return -EINVAL;
	if (len != HM_RECORD_WIRE_HDR_LEN + (size_t)n * HM_RECORD_WIRE_NODE_LEN)
		return -EMSGSIZE;
	if (get32(buf + 76))
		return -EPROTO;
	r->rx_ns = get64(buf + 0);
	r->ifindex = get32(buf + 8);
	r->sink_node_id = get32(buf + 12);
	r->sink_if_id = get16(buf + 16);
	t->ns_id = get16(buf + 18);
	t->nodelen = buf[20];
	t->remlen = buf[21];
	t->overflow = buf[22];
	t->n_nodes = n;
	t->trace_type = get32(buf + 24);
	t->data_len = get32(buf + 28);
	memcpy(r->pkt.saddr, buf + 32, 16);
	memcpy(r->pkt.daddr, buf + 48, 16);
	r->pkt.flow_label = get32(buf + 64);
	r->pkt.payload_len = get16(buf + 68);
	r->pkt.hop_limit = buf[70];
	r->pkt.proto = buf[71];
	r->pkt.sport = get16(buf + 72);
	r->pkt.dport = get16(buf + 74);
	for (i = 0; i < n; i++)
		if (node_decode(buf + HM_RECORD_WIRE_HDR_LEN + i * HM_RECORD_WIRE_NODE_LEN,
				&t->nodes[i]))
			return -EPROTO;
	return 0;
}
