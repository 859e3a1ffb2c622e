// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * record_from_json.c - the reader of the JSON form of a traced packet, beside
 * its writer (record_json.c, Documentation/json-record.rst): one JSON record
 * line, as hopmarkd writes it (-o, its monitor socket), back into the struct
 * hm_record it was printed from, so `hopmark monitor` renders the table and
 * the summary with the library's own code.
 *
 * There is only one record format, the writer's: every record read is
 * printed again with hm_record_to_json() and must compare equal to the object
 * received. One that does not is refused (-EPROTO) rather than shown wrongly,
 * so a reader that lags behind the writer is noticed at once.
 *
 * The input is untrusted (a file, a socket): any JSON value is handled, a
 * member of the wrong type reads as absent or fails the comparison.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "hopmark.h"

/* Value of @key in @o as u64; @unavailable when absent or null. */
static __u64 get_u64(struct json_object *o, const char *key, __u64 unavailable)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return unavailable;
	return json_object_get_uint64(v);
}

static __s64 get_s64(struct json_object *o, const char *key, __s64 dflt)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return dflt;
	return json_object_get_int64(v);
}

static bool get_bool(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && v && json_object_get_boolean(v);
}

static int get_addr(struct json_object *o, const char *key, __u8 *addr)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return -EINVAL;
	return inet_pton(AF_INET6, json_object_get_string(v), addr) == 1 ? 0 : -EINVAL;
}

static void hop_from_json(struct json_object *h, __u32 tt, struct hm_ioam6_node_values *v)
{
	struct json_object *o;

	memset(v, 0, sizeof(*v));
	v->present = tt & HM_IOAM_TT_MASK & ~HM_IOAM_TT_RESERVED;
	v->hop_limit = get_u64(h, "hop_limit", HM_IOAM_U8_UNAVAILABLE);
	v->node_id = get_u64(h, "node_id", HM_IOAM_U24_UNAVAILABLE);
	v->ingress_if = get_u64(h, "ingress_if", HM_IOAM_U16_UNAVAILABLE);
	v->egress_if = get_u64(h, "egress_if", HM_IOAM_U16_UNAVAILABLE);
	v->ts_sec = get_u64(h, "timestamp_sec", HM_IOAM_U32_UNAVAILABLE);
	v->ts_frac = get_u64(h, "timestamp_frac", HM_IOAM_U32_UNAVAILABLE);
	v->transit_delay = HM_IOAM_U32_UNAVAILABLE;
	if (json_object_object_get_ex(h, "transit_delay_ns", &o) && o)
		v->transit_delay = (json_object_get_int64(o) & 0x7fffffff) |
				   (get_bool(h, "transit_delay_overflow") ? 0x80000000U : 0);
	v->ns_data = get_u64(h, "namespace_data", HM_IOAM_U32_UNAVAILABLE);
	v->queue_depth = get_u64(h, "queue_depth", HM_IOAM_U32_UNAVAILABLE);
	v->csum_compl = get_u64(h, "checksum_complement", HM_IOAM_U32_UNAVAILABLE);
	v->node_id_wide = get_u64(h, "node_id_wide", HM_IOAM_U56_UNAVAILABLE);
	v->ingress_if_wide = get_u64(h, "ingress_if_wide", HM_IOAM_U32_UNAVAILABLE);
	v->egress_if_wide = get_u64(h, "egress_if_wide", HM_IOAM_U32_UNAVAILABLE);
	v->ns_data_wide = get_u64(h, "namespace_data_wide", HM_IOAM_U64_UNAVAILABLE);
	v->buffer_occupancy = get_u64(h, "buffer_occupancy", HM_IOAM_U32_UNAVAILABLE);
	v->opaque_schema = HM_IOAM_U24_UNAVAILABLE;
	if (json_object_object_get_ex(h, "opaque_state", &o) && o) {
		v->opaque_len = get_u64(o, "length", 0);
		v->opaque_schema = get_u64(o, "schema_id", HM_IOAM_U24_UNAVAILABLE);
	}
}

/**
 * hm_record_from_json() - parse one JSON record into a struct hm_record
 * @obj:	the record object (one line of hopmarkd's output)
 * @r:		output
 *
 * Return: 0; -EINVAL if a required member is missing or has the wrong
 * type; -EPROTO if the record, printed again by hm_record_to_json(), is
 * not the object received (the two ends disagree on the format); -ENOMEM.
 */
int hm_record_from_json(struct json_object *obj, struct hm_record *r)
{
	struct json_object *sink, *pkt, *hops, *tt, *again;
	unsigned int i, n;
	bool same;

	memset(r, 0, sizeof(*r));
	if (!json_object_is_type(obj, json_type_object) ||
	    !json_object_object_get_ex(obj, "sink", &sink) ||
	    !json_object_object_get_ex(obj, "packet", &pkt) ||
	    !json_object_object_get_ex(obj, "hops", &hops) ||
	    !json_object_object_get_ex(obj, "trace_type", &tt) ||
	    !json_object_is_type(hops, json_type_array) ||
	    !json_object_is_type(tt, json_type_string))
		return -EINVAL;

	r->rx_ns = get_u64(obj, "rx_ns", 0);
	r->ifindex = get_u64(sink, "ifindex", 0);
	r->sink_if_id = get_u64(sink, "if_id", HM_IOAM_U16_UNAVAILABLE);
	r->sink_node_id = get_u64(sink, "node_id", HM_IOAM_U24_UNAVAILABLE);

	if (get_addr(pkt, "src", r->pkt.saddr) || get_addr(pkt, "dst", r->pkt.daddr))
		return -EINVAL;
	r->pkt.flow_label = get_u64(pkt, "flow_label", 0);
	r->pkt.payload_len = get_u64(pkt, "payload_len", 0);
	r->pkt.hop_limit = get_u64(pkt, "hop_limit", 0);
	r->pkt.proto = get_u64(pkt, "proto", 0);
	r->pkt.sport = get_s64(pkt, "sport", 0);
	r->pkt.dport = get_s64(pkt, "dport", 0);

	r->trace.ns_id = get_u64(obj, "namespace", 0);
	r->trace.trace_type = strtoul(json_object_get_string(tt), NULL, 16) & HM_IOAM_TT_MASK;
	r->trace.nodelen = get_u64(obj, "node_len", 0);
	r->trace.remlen = get_u64(obj, "remaining_len", 0);
	r->trace.data_len = get_u64(obj, "data_len", 0);
	r->trace.overflow = get_bool(obj, "overflow");
	n = json_object_array_length(hops);
	if (n > HM_MAX_HOPS)
		return -EINVAL;
	r->trace.n_nodes = n;
	for (i = 0; i < n; i++)
		hop_from_json(json_object_array_get_idx(hops, i), r->trace.trace_type,
			      &r->trace.nodes[i]);

	again = hm_record_to_json(r);
	if (!again)
		return -ENOMEM;
	same = json_object_equal(obj, again);
	json_object_put(again);
	return same ? 0 : -EPROTO;
}
