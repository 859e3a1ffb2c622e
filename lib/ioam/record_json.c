// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * record_json.c - the JSON form of a traced packet (one object per record,
 * printed as one line). The format is specified in
 * Documentation/json-record.rst; keep the two in step.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "hopmark.h"
#include "common/json_write.h"
#include "ioam/record_time.h"

/* Add @val under @key, or null when @val equals @unavailable. */
static int hm_json_add_u64(struct json_object *o, const char *key, __u64 val,
			   __u64 unavailable)
{
	struct json_object *v = NULL;

	if (val != unavailable) {
		v = json_object_new_uint64(val);
		if (!v)
			return -ENOMEM;
	}
	return json_object_object_add(o, key, v) ? -ENOMEM : 0;
}

static int hm_json_add_s64(struct json_object *o, const char *key, __s64 val, bool ok)
{
	struct json_object *v = NULL;

	if (ok) {
		v = json_object_new_int64(val);
		if (!v)
			return -ENOMEM;
	}
	return json_object_object_add(o, key, v) ? -ENOMEM : 0;
}

static int hm_json_add_str(struct json_object *o, const char *key, const char *s)
{
	struct json_object *v = json_object_new_string(s);

	if (!v)
		return -ENOMEM;
	return json_object_object_add(o, key, v) ? -ENOMEM : 0;
}

static int hm_json_add_bool(struct json_object *o, const char *key, bool b)
{
	struct json_object *v = json_object_new_boolean(b);

	if (!v)
		return -ENOMEM;
	return json_object_object_add(o, key, v) ? -ENOMEM : 0;
}

/* One node data entry: only the fields its IOAM-Trace-Type carries. */
static struct json_object *hm_hop_to_json(const struct hm_ioam_trace *t, unsigned int i)
{
	const struct hm_ioam6_node_values *v = &t->nodes[i];
	__u32 tt = t->trace_type;
	struct json_object *h = json_object_new_object();
	int err = 0;
	__u64 ts = 0;
	__s64 lat = 0;

	if (!h)
		return NULL;
	err |= hm_json_add_u64(h, "hop", i + 1, ~0ULL);
	if (tt & (HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_HOPLIM_NODEID_WIDE))
		err |= hm_json_add_u64(h, "hop_limit", v->hop_limit, ~0ULL);
	if (tt & HM_IOAM_TT_HOPLIM_NODEID)
		err |= hm_json_add_u64(h, "node_id", v->node_id, HM_IOAM_U24_UNAVAILABLE);
	if (tt & HM_IOAM_TT_IF_IDS) {
		err |= hm_json_add_u64(h, "ingress_if", v->ingress_if, HM_IOAM_U16_UNAVAILABLE);
		err |= hm_json_add_u64(h, "egress_if", v->egress_if, HM_IOAM_U16_UNAVAILABLE);
	}
	if (tt & HM_IOAM_TT_TS_SEC)
		err |= hm_json_add_u64(h, "timestamp_sec", v->ts_sec, HM_IOAM_U32_UNAVAILABLE);
	if (tt & HM_IOAM_TT_TS_FRAC)
		err |= hm_json_add_u64(h, "timestamp_frac", v->ts_frac, HM_IOAM_U32_UNAVAILABLE);
	if (hm_trace_has_timestamp(tt)) {
		bool ok = hm_node_timestamp_ns(v, tt, &ts);

		err |= hm_json_add_s64(h, "timestamp_ns", (__s64)ts, ok);
		ok = hm_hop_latency_ns(t, i, &lat);
		err |= hm_json_add_s64(h, "latency_ns", lat, ok);
	}
	if (tt & HM_IOAM_TT_TRANSIT_DELAY) {
		bool ok = v->transit_delay != HM_IOAM_U32_UNAVAILABLE;

		/* §4.4.2.5: the most significant bit flags a delay overflow. */
		err |= hm_json_add_s64(h, "transit_delay_ns", v->transit_delay & 0x7fffffff, ok);
		if (ok)
			err |= hm_json_add_bool(h, "transit_delay_overflow",
						v->transit_delay & 0x80000000);
		else
			err |= json_object_object_add(h, "transit_delay_overflow", NULL) ?
			       -ENOMEM : 0;
	}
	if (tt & HM_IOAM_TT_NS_DATA)
		err |= hm_json_add_u64(h, "namespace_data", v->ns_data, HM_IOAM_U32_UNAVAILABLE);
	if (tt & HM_IOAM_TT_QUEUE_DEPTH)
		err |= hm_json_add_u64(h, "queue_depth", v->queue_depth, HM_IOAM_U32_UNAVAILABLE);
	if (tt & HM_IOAM_TT_CSUM_COMPL)
		err |= hm_json_add_u64(h, "checksum_complement", v->csum_compl,
				       HM_IOAM_U32_UNAVAILABLE);
	if (tt & HM_IOAM_TT_HOPLIM_NODEID_WIDE)
		err |= hm_json_add_u64(h, "node_id_wide", v->node_id_wide, HM_IOAM_U56_UNAVAILABLE);
	if (tt & HM_IOAM_TT_IF_IDS_WIDE) {
		err |= hm_json_add_u64(h, "ingress_if_wide", v->ingress_if_wide,
				       HM_IOAM_U32_UNAVAILABLE);
		err |= hm_json_add_u64(h, "egress_if_wide", v->egress_if_wide,
				       HM_IOAM_U32_UNAVAILABLE);
	}
	if (tt & HM_IOAM_TT_NS_DATA_WIDE)
		err |= hm_json_add_u64(h, "namespace_data_wide", v->ns_data_wide,
				       HM_IOAM_U64_UNAVAILABLE);
	if (tt & HM_IOAM_TT_BUFFER_OCC)
		err |= hm_json_add_u64(h, "buffer_occupancy", v->buffer_occupancy,
				       HM_IOAM_U32_UNAVAILABLE);
	if (tt & HM_IOAM_TT_OPAQUE) {
		struct json_object *o = json_object_new_object();

		if (!o || json_object_object_add(h, "opaque_state", o)) {
			json_object_put(o);
			err = -ENOMEM;
		} else {
			err |= hm_json_add_u64(o, "length", v->opaque_len, ~0ULL);
			err |= hm_json_add_u64(o, "schema_id", v->opaque_schema,
					       HM_IOAM_U24_UNAVAILABLE);
		}
	}
	if (err) {
		json_object_put(h);
		return NULL;
	}
	return h;
}

static struct json_object *hm_packet_to_json(const struct hm_pkt_info *p)
{
	struct json_object *o = json_object_new_object();
	char addr[INET6_ADDRSTRLEN];
	bool ports = p->proto == IPPROTO_TCP || p->proto == IPPROTO_UDP;
	int err = 0;

	if (!o)
		return NULL;
	inet_ntop(AF_INET6, p->saddr, addr, sizeof(addr));
	err |= hm_json_add_str(o, "src", addr);
	inet_ntop(AF_INET6, p->daddr, addr, sizeof(addr));
	err |= hm_json_add_str(o, "dst", addr);
	err |= hm_json_add_u64(o, "flow_label", p->flow_label, ~0ULL);
	err |= hm_json_add_u64(o, "payload_len", p->payload_len, ~0ULL);
	err |= hm_json_add_u64(o, "hop_limit", p->hop_limit, ~0ULL);
	err |= hm_json_add_u64(o, "proto", p->proto, ~0ULL);
	err |= hm_json_add_s64(o, "sport", p->sport, ports);
	err |= hm_json_add_s64(o, "dport", p->dport, ports);
	if (err) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static struct json_object *hm_sink_to_json(const struct hm_record *r)
{
	struct json_object *o = json_object_new_object();
	__s64 lat = 0;
	int err = 0;
	bool ok;

	if (!o)
		return NULL;
	err |= hm_json_add_u64(o, "ifindex", r->ifindex, 0);
	err |= hm_json_add_u64(o, "if_id", r->sink_if_id, HM_IOAM_U16_UNAVAILABLE);
	err |= hm_json_add_u64(o, "node_id", r->sink_node_id, HM_IOAM_U24_UNAVAILABLE);
	ok = hm_sink_latency_ns(r, &lat);
	err |= hm_json_add_s64(o, "latency_ns", lat, ok);
	if (err) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Add @child under @key; on failure @child is put. */
static int hm_json_add_obj(struct json_object *o, const char *key, struct json_object *child)
{
	if (!child)
		return -ENOMEM;
	if (json_object_object_add(o, key, child)) {
		json_object_put(child);
		return -ENOMEM;
	}
	return 0;
}

/**
 * hm_record_to_json() - the JSON form of a record (Documentation/json-record.rst)
 * @r: record
 *
 * Return: a new json-c object the caller puts, or NULL on ENOMEM.
 */
struct json_object *hm_record_to_json(const struct hm_record *r)
{
	const struct hm_ioam_trace *t = &r->trace;
	struct json_object *o, *hops;
	char buf[64];
	unsigned int i;
	int err = 0;

	o = json_object_new_object();
	if (!o)
		return NULL;
	err |= hm_json_add_u64(o, "rx_ns", r->rx_ns, 0);
	if (r->rx_ns) {
		hm_time_rfc3339(r->rx_ns, buf, sizeof(buf));
		err |= hm_json_add_str(o, "rx_time", buf);
	} else {
		err |= json_object_object_add(o, "rx_time", NULL) ? -ENOMEM : 0;
	}
	err |= hm_json_add_obj(o, "sink", hm_sink_to_json(r));
	err |= hm_json_add_obj(o, "packet", hm_packet_to_json(&r->pkt));
	err |= hm_json_add_u64(o, "namespace", t->ns_id, ~0ULL);
	snprintf(buf, sizeof(buf), "0x%06x", t->trace_type & HM_IOAM_TT_MASK);
	err |= hm_json_add_str(o, "trace_type", buf);
	err |= hm_json_add_u64(o, "node_len", t->nodelen, ~0ULL);
	err |= hm_json_add_u64(o, "remaining_len", t->remlen, ~0ULL);
	err |= hm_json_add_u64(o, "data_len", t->data_len, ~0ULL);
	err |= hm_json_add_bool(o, "overflow", t->overflow);

	hops = json_object_new_array();
	err |= hm_json_add_obj(o, "hops", hops);
	for (i = 0; !err && i < t->n_nodes && i < HM_MAX_HOPS; i++) {
		struct json_object *h = hm_hop_to_json(t, i);

		if (!h || json_object_array_add(hops, h)) {
			json_object_put(h);
			err = -ENOMEM;
		}
	}
	if (err) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/*
 * The DOM-free writer: the same members in the same order as the json-c
 * objects above, appended to a buffer (common/json_write.h). The unit
 * tests compare its bytes with json-c's output of hm_record_to_json() for
 * every record kind they build; keep the two in step.
 */

/* rx_time: the date and time part is formatted once per second. */
static void hm_jw_rx_time(struct hm_jw *w, __u64 ns)
{
	static __thread __u64 cached_sec = ~0ULL;
	static __thread char cached[64];
	static __thread size_t cached_len;
	__u64 sec = ns / HM_NSEC_PER_SEC;
	__u32 frac = ns % HM_NSEC_PER_SEC;
	char digits[9];
	int i;

	if (sec != cached_sec) {
		hm_time_rfc3339(sec * HM_NSEC_PER_SEC, cached, sizeof(cached));
		cached_len = strlen(cached);
		cached_sec = sec;
	}
	/* "...SS.000000000Z": patch the nanoseconds; "invalid" stays. */
	if (cached_len < 11 || cached[cached_len - 1] != 'Z') {
		hm_jw_str(w, cached);
		return;
	}
	for (i = 8; i >= 0; i--) {
		digits[i] = '0' + frac % 10;
		frac /= 10;
	}
	hm_jw_char(w, '"');
	hm_jw_raw(w, cached, cached_len - 10);
	hm_jw_raw(w, digits, 9);
	hm_jw_raw(w, "Z\"", 2);
}

/*
 * An IPv6 address as inet_ntop(3) writes it. glibc's inet_ntop formats
 * with sprintf (a quarter of a record's time in a profile); the packets
 * of a flow repeat their addresses, so the last few are kept per thread.
 */
#define HM_ADDR_CACHE	4

static void hm_jw_addr(struct hm_jw *w, const __u8 *a)
{
	static __thread struct {
		__u8 addr[16];
		char text[INET6_ADDRSTRLEN];
		__u8 len;
		bool used;
	} cache[HM_ADDR_CACHE];
	static __thread unsigned int next;
	unsigned int i;

	for (i = 0; i < HM_ADDR_CACHE; i++)
		if (cache[i].used && !memcmp(cache[i].addr, a, 16))
			break;
	if (i == HM_ADDR_CACHE) {
		i = next++ % HM_ADDR_CACHE;
		memcpy(cache[i].addr, a, 16);
		inet_ntop(AF_INET6, a, cache[i].text, sizeof(cache[i].text));
		cache[i].len = strlen(cache[i].text);
		cache[i].used = true;
	}
	/* inet_ntop writes hex digits, ':' and '.': nothing to escape. */
	hm_jw_char(w, '"');
	hm_jw_raw(w, cache[i].text, cache[i].len);
	hm_jw_char(w, '"');
}

/* One node data entry: only the fields its IOAM-Trace-Type carries. */
static void hm_jw_hop(struct hm_jw *w, const struct hm_ioam_trace *t, unsigned int i)
{
	const struct hm_ioam6_node_values *v = &t->nodes[i];
	__u32 tt = t->trace_type;
	__u64 ts = 0;
	__s64 lat = 0;
	bool ok;

	hm_jw_open(w, '{');
	hm_jw_key_u64(w, "hop", i + 1, ~0ULL);
	if (tt & (HM_IOAM_TT_HOPLIM_NODEID | HM_IOAM_TT_HOPLIM_NODEID_WIDE))
		hm_jw_key_u64(w, "hop_limit", v->hop_limit, ~0ULL);
	if (tt & HM_IOAM_TT_HOPLIM_NODEID)
		hm_jw_key_u64(w, "node_id", v->node_id, HM_IOAM_U24_UNAVAILABLE);
	if (tt & HM_IOAM_TT_IF_IDS) {
		hm_jw_key_u64(w, "ingress_if", v->ingress_if, HM_IOAM_U16_UNAVAILABLE);
		hm_jw_key_u64(w, "egress_if", v->egress_if, HM_IOAM_U16_UNAVAILABLE);
	}
	if (tt & HM_IOAM_TT_TS_SEC)
		hm_jw_key_u64(w, "timestamp_sec", v->ts_sec, HM_IOAM_U32_UNAVAILABLE);
	if (tt & HM_IOAM_TT_TS_FRAC)
		hm_jw_key_u64(w, "timestamp_frac", v->ts_frac, HM_IOAM_U32_UNAVAILABLE);
	if (hm_trace_has_timestamp(tt)) {
		ok = hm_node_timestamp_ns(v, tt, &ts);
		hm_jw_key_s64(w, "timestamp_ns", (__s64)ts, ok);
		ok = hm_hop_latency_ns(t, i, &lat);
		hm_jw_key_s64(w, "latency_ns", lat, ok);
	}
	if (tt & HM_IOAM_TT_TRANSIT_DELAY) {
		ok = v->transit_delay != HM_IOAM_U32_UNAVAILABLE;
		/* §4.4.2.5: the most significant bit flags a delay overflow. */
		hm_jw_key_s64(w, "transit_delay_ns", v->transit_delay & 0x7fffffff, ok);
		hm_jw_key(w, "transit_delay_overflow");
		if (ok)
			hm_jw_bool(w, v->transit_delay & 0x80000000);
		else
			hm_jw_null(w);
	}
	if (tt & HM_IOAM_TT_NS_DATA)
		hm_jw_key_u64(w, "namespace_data", v->ns_data, HM_IOAM_U32_UNAVAILABLE);
	if (tt & HM_IOAM_TT_QUEUE_DEPTH)
		hm_jw_key_u64(w, "queue_depth", v->queue_depth, HM_IOAM_U32_UNAVAILABLE);
	if (tt & HM_IOAM_TT_CSUM_COMPL)
		hm_jw_key_u64(w, "checksum_complement", v->csum_compl, HM_IOAM_U32_UNAVAILABLE);
	if (tt & HM_IOAM_TT_HOPLIM_NODEID_WIDE)
		hm_jw_key_u64(w, "node_id_wide", v->node_id_wide, HM_IOAM_U56_UNAVAILABLE);
	if (tt & HM_IOAM_TT_IF_IDS_WIDE) {
		hm_jw_key_u64(w, "ingress_if_wide", v->ingress_if_wide, HM_IOAM_U32_UNAVAILABLE);
		hm_jw_key_u64(w, "egress_if_wide", v->egress_if_wide, HM_IOAM_U32_UNAVAILABLE);
	}
	if (tt & HM_IOAM_TT_NS_DATA_WIDE)
		hm_jw_key_u64(w, "namespace_data_wide", v->ns_data_wide, HM_IOAM_U64_UNAVAILABLE);
	if (tt & HM_IOAM_TT_BUFFER_OCC)
		hm_jw_key_u64(w, "buffer_occupancy", v->buffer_occupancy, HM_IOAM_U32_UNAVAILABLE);
	if (tt & HM_IOAM_TT_OPAQUE) {
		hm_jw_key(w, "opaque_state");
		hm_jw_open(w, '{');
		hm_jw_key_u64(w, "length", v->opaque_len, ~0ULL);
		hm_jw_key_u64(w, "schema_id", v->opaque_schema, HM_IOAM_U24_UNAVAILABLE);
		hm_jw_close(w, '}');
	}
	hm_jw_close(w, '}');
}

/* See record.h. */
size_t hm_record_write_json(char *buf, size_t size, const struct hm_record *r)
{
	const struct hm_ioam_trace *t = &r->trace;
	const struct hm_pkt_info *p = &r->pkt;
	bool ports = p->proto == IPPROTO_TCP || p->proto == IPPROTO_UDP;
	struct hm_jw w;
	unsigned int i;
	__s64 lat = 0;
	bool ok;

	hm_jw_init(&w, buf, size);
	hm_jw_open(&w, '{');
	hm_jw_key_u64(&w, "rx_ns", r->rx_ns, 0);
	hm_jw_key(&w, "rx_time");
	if (r->rx_ns)
		hm_jw_rx_time(&w, r->rx_ns);
	else
		hm_jw_null(&w);

	hm_jw_key(&w, "sink");
	hm_jw_open(&w, '{');
	hm_jw_key_u64(&w, "ifindex", r->ifindex, 0);
	hm_jw_key_u64(&w, "if_id", r->sink_if_id, HM_IOAM_U16_UNAVAILABLE);
	hm_jw_key_u64(&w, "node_id", r->sink_node_id, HM_IOAM_U24_UNAVAILABLE);
	ok = hm_sink_latency_ns(r, &lat);
	hm_jw_key_s64(&w, "latency_ns", lat, ok);
	hm_jw_close(&w, '}');

	hm_jw_key(&w, "packet");
	hm_jw_open(&w, '{');
	hm_jw_key(&w, "src");
	hm_jw_addr(&w, p->saddr);
	hm_jw_key(&w, "dst");
	hm_jw_addr(&w, p->daddr);
	hm_jw_key_u64(&w, "flow_label", p->flow_label, ~0ULL);
	hm_jw_key_u64(&w, "payload_len", p->payload_len, ~0ULL);
	hm_jw_key_u64(&w, "hop_limit", p->hop_limit, ~0ULL);
	hm_jw_key_u64(&w, "proto", p->proto, ~0ULL);
	hm_jw_key_s64(&w, "sport", p->sport, ports);
	hm_jw_key_s64(&w, "dport", p->dport, ports);
	hm_jw_close(&w, '}');

	hm_jw_key_u64(&w, "namespace", t->ns_id, ~0ULL);
	hm_jw_key(&w, "trace_type");
	{
		static const char hex[] = "0123456789abcdef";
		__u32 tt = t->trace_type & HM_IOAM_TT_MASK;
		char s[10] = "\"0x";
		int k;

		/* "0x%06x" of a 24-bit value: six digits. */
		for (k = 0; k < 6; k++)
			s[3 + k] = hex[(tt >> (20 - 4 * k)) & 0xf];
		hm_jw_raw(&w, s, 9);
		hm_jw_char(&w, '"');
	}
	hm_jw_key_u64(&w, "node_len", t->nodelen, ~0ULL);
	hm_jw_key_u64(&w, "remaining_len", t->remlen, ~0ULL);
	hm_jw_key_u64(&w, "data_len", t->data_len, ~0ULL);
	hm_jw_key(&w, "overflow");
	hm_jw_bool(&w, t->overflow);

	hm_jw_key(&w, "hops");
	hm_jw_open(&w, '[');
	for (i = 0; i < t->n_nodes && i < HM_MAX_HOPS; i++) {
		hm_jw_elem(&w);
		hm_jw_hop(&w, t, i);
	}
	hm_jw_close(&w, ']');
	hm_jw_close(&w, '}');
	hm_jw_char(&w, '\n');
	if (w.len < size)
		buf[w.len] = '\0';
	return w.len;
}

/**
 * hm_record_print_json() - print a record as one JSON line
 * @f: stream
 * @r: record
 *
 * Written with hm_record_write_json() into a stack buffer, or a heap one
 * for a line longer than it.
 *
 * Return: 0 or -EIO (also when there is no memory for a long line).
 */
int hm_record_print_json(FILE *f, const struct hm_record *r)
{
	char stack[4096], *buf = stack;
	size_t len;
	int err = 0;

	len = hm_record_write_json(stack, sizeof(stack), r);
	if (len > sizeof(stack)) {
		buf = malloc(len);
		if (!buf)
			return -EIO;
		hm_record_write_json(buf, len, r);
	}
	if (fwrite(buf, 1, len, f) != len || fflush(f))
		err = -EIO;
	if (buf != stack)
		free(buf);
	return err;
}
