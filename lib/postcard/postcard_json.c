// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * postcard_json.c - the JSON form of a postcard (one node's event about one
 * packet), one object per line. The format is specified in
 * Documentation/postcards.rst; keep the two in step.
 *
 * Node data and trace options are rendered by the trace record code
 * (hm_record_to_json()), so a DEX postcard's "data" has exactly the keys
 * and conventions of a hop in a sink's record.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "common/hm_time.h"
#include "hopmark.h"
#include "postcard/postcard.h"
#include "srv6/srh.h"


static const char *const type_names[] = {
	[HM_POSTCARD_DEX]	= "dex",
	[HM_POSTCARD_OFLAG]	= "oflag",
	[HM_POSTCARD_E2E]	= "e2e",
	[HM_POSTCARD_TRACE]	= "trace",
};

const char *hm_postcard_type_name(enum hm_postcard_type type)
{
	if ((unsigned int)type >= sizeof(type_names) / sizeof(type_names[0]))
		return NULL;
	return type_names[type];
}

static const char *const field_names[] = {
	"node", "timestamp", "flow", "headers", "node-data", "option",
};
_Static_assert(HM_POSTCARD_FIELD_ALL == (1U << (sizeof(field_names) / sizeof(field_names[0]))) - 1,
	       "a name for every HM_POSTCARD_FIELD_* bit");

const char *hm_postcard_field_name(unsigned int bit)
{
	if (bit >= sizeof(field_names) / sizeof(field_names[0]))
		return NULL;
	return field_names[bit];
}

static int add(struct json_object *o, const char *key, struct json_object *v)
{
	return json_object_object_add(o, key, v) ? -ENOMEM : 0;
}

static int add_u64(struct json_object *o, const char *key, __u64 v)
{
	struct json_object *j = json_object_new_uint64(v);

	if (!j)
		return -ENOMEM;
	return add(o, key, j);
}

static int add_str(struct json_object *o, const char *key, const char *s)
{
	struct json_object *j = json_object_new_string(s);

	if (!j)
		return -ENOMEM;
	return add(o, key, j);
}

/* Move @key of @from into @to (reference taken), if @from has it. */
static int move_key(struct json_object *to, const char *to_key,
		    struct json_object *from, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(from, key, &v))
		return 0;
	return add(to, to_key, json_object_get(v));
}

/* Note why part of the packet could not be shown. */
static int add_error(struct json_object *o, const char *what)
{
	struct json_object *errs, *s;

	if (!json_object_object_get_ex(o, "errors", &errs)) {
		errs = json_object_new_array();
		if (!errs || add(o, "errors", errs))
			return -ENOMEM;
	}
	s = json_object_new_string(what);
	if (!s || json_object_array_add(errs, s)) {
		json_object_put(s);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Decode a trace option (pre-allocated layout) through the record code and
 * return the record's JSON: its "hops", "namespace", ... are what a sink
 * reports. @opt starts at the IPv6 option type octet.
 */
static struct json_object *trace_json(const __u8 *opt, size_t len, const struct hm_pkt_info *pkt,
				      int *err)
{
	static struct hm_record r;	/* large; callers are single-threaded */

	memset(&r, 0, sizeof(r));
	if (pkt)
		r.pkt = *pkt;
	r.sink_if_id = HM_IOAM_U16_UNAVAILABLE;
	r.sink_node_id = HM_IOAM_U24_UNAVAILABLE;
	*err = hm_ioam_trace_decode(opt, len, &r.trace);
	if (*err)
		return NULL;
	return hm_record_to_json(&r);
}

/*
 * One node's data (DEX): wrap it in a one-node pre-allocated trace of
 * @trace_type and take hops[0] of the record, without its "hop" index.
 */
static struct json_object *node_data_json(const __u8 *data, __u32 len, __u32 trace_type,
					  int *err)
{
	__u8 buf[4 + 8 + HM_IOAM_TRACE_DATA_MAX];
	struct hm_ioam6_opt_hdr *oh = (void *)buf;
	struct hm_ioam6_trace_hdr *th = (void *)(buf + sizeof(*oh));
	struct json_object *rec, *hops, *hop = NULL;
	__u32 nodelen = hm_ioam6_trace_nodelen(trace_type);

	*err = -EINVAL;
	if (!len || len > HM_IOAM_TRACE_DATA_MAX || len % 4 || nodelen > 31)
		return NULL;
	memset(buf, 0, sizeof(buf));
	oh->opt_type = HM_IPV6_TLV_IOAM;
	oh->opt_len = 2 + sizeof(*th) + len;
	oh->ioam_type = HM_IOAM_OPT_PREALLOC_TRACE;
	th->namespace_id = 0;
	th->nodelen_flags = nodelen << 3;
	th->remlen = 0;
	hm_ioam6_trace_set_type(th, trace_type);
	memcpy(buf + sizeof(*oh) + sizeof(*th), data, len);
	rec = trace_json(buf, sizeof(*oh) + sizeof(*th) + len, NULL, err);
	if (!rec)
		return NULL;
	if (json_object_object_get_ex(rec, "hops", &hops) &&
	    json_object_array_length(hops) == 1) {
		hop = json_object_get(json_object_array_get_idx(hops, 0));
		json_object_object_del(hop, "hop");
		*err = 0;
	} else {
		*err = -EINVAL;
	}
	json_object_put(rec);
	return hop;
}

/*
 * The IOAM option of a postcard, normalised to start at the IPv6 option
 * type octet: the kernel may hand it from the IOAM Option-Type octet on.
 */
static const __u8 *option_start(const struct hm_postcard *pc, __u8 *buf, size_t *len)
{
	const __u8 *o = pc->option;

	if (!o || pc->option_len < 1)
		return NULL;
	if (o[0] == HM_IPV6_TLV_IOAM) {
		*len = pc->option_len;
		return o;
	}
	if (pc->option_len + 3 > 3 + 255)
		return NULL;
	buf[0] = HM_IPV6_TLV_IOAM;
	buf[1] = pc->option_len + 1;	/* Reserved + the rest */
	buf[2] = 0;
	memcpy(buf + 3, o, pc->option_len);
	*len = pc->option_len + 3;
	return buf;
}

/*
 * Incremental Trace (IOAM Option-Type 1): same header as the pre-allocated
 * one, but the node data list holds only what nodes inserted and
 * RemainingLen counts room not yet in the packet. Decode a copy as a
 * pre-allocated trace with RemainingLen 0 and report the real one.
 */
static int add_trace(struct json_object *o, const struct hm_postcard *pc,
		     const struct hm_pkt_info *pkt)
{
	__u8 raw[3 + 256], buf[3 + 256];
	const __u8 *opt;
	struct hm_ioam6_trace_hdr *th;
	struct json_object *rec;
	__u8 remlen;
	size_t len;
	int err;

	opt = option_start(pc, raw, &len);
	if (!opt || len < 4 + sizeof(*th) || len > sizeof(buf))
		return add_error(o, "option: too short for an IOAM trace");
	memcpy(buf, opt, len);
	th = (void *)(buf + 4);
	remlen = hm_ioam6_trace_remlen_of(th);
	if (buf[3] == HM_IOAM_OPT_INCREMENTAL_TRACE) {
		buf[3] = HM_IOAM_OPT_PREALLOC_TRACE;
		th->remlen &= 0x80;
	}
	rec = trace_json(buf, len, pkt, &err);
	if (!rec)
		return add_error(o, "option: not a well-formed IOAM trace");
	err = move_key(o, "namespace", rec, "namespace");
	err |= move_key(o, "trace_type", rec, "trace_type");
	err |= move_key(o, "node_len", rec, "node_len");
	err |= add_u64(o, "remaining_len", remlen);
	err |= move_key(o, "overflow", rec, "overflow");
	err |= move_key(o, "hops", rec, "hops");
	json_object_put(rec);
	return err ? -ENOMEM : 0;
}

/* Edge-to-Edge option (RFC 9197 §4.6): namespace, E2E-Type, then its data. */
static int add_e2e(struct json_object *o, const struct hm_postcard *pc)
{
	__u8 raw[3 + 256];
	struct json_object *e;
	const __u8 *opt, *p;
	char type[8];
	__u16 e2e_type;
	size_t len, need = 4 + 4;
	int err = 0;

	opt = option_start(pc, raw, &len);
	if (!opt || len < need || opt[3] != HM_IOAM_OPT_E2E)
		return add_error(o, "option: not an IOAM Edge-to-Edge option");
	e2e_type = hm_get_be16(opt + 6);
	need += (e2e_type & HM_IOAM_E2E_SEQ64 ? 8 : 0) + (e2e_type & HM_IOAM_E2E_SEQ32 ? 4 : 0) +
		(e2e_type & HM_IOAM_E2E_TS_SEC ? 4 : 0) + (e2e_type & HM_IOAM_E2E_TS_FRAC ? 4 : 0);
	if (len < need)
		return add_error(o, "option: E2E data shorter than its IOAM-E2E-Type says");
	e = json_object_new_object();
	if (!e || add(o, "e2e", e))
		return -ENOMEM;
	p = opt + 8;
	err |= add_u64(e, "namespace", hm_get_be16(opt + 4));
	snprintf(type, sizeof(type), "0x%04x", e2e_type);
	err |= add_str(e, "e2e_type", type);
	if (e2e_type & HM_IOAM_E2E_SEQ64) {
		err |= add_u64(e, "seq", ((__u64)hm_get_be32(p) << 32) | hm_get_be32(p + 4));
		p += 8;
	}
	if (e2e_type & HM_IOAM_E2E_SEQ32) {
		if (!(e2e_type & HM_IOAM_E2E_SEQ64))
			err |= add_u64(e, "seq", hm_get_be32(p));
		p += 4;
	}
	if (e2e_type & HM_IOAM_E2E_TS_SEC) {
		err |= add_u64(e, "ts_sec", hm_get_be32(p));
		p += 4;
	}
	if (e2e_type & HM_IOAM_E2E_TS_FRAC)
		err |= add_u64(e, "ts_frac", hm_get_be32(p));
	return err ? -ENOMEM : 0;
}

/*
 * The SRH (RFC 8754 §2) if the packet has one: walk the extension headers
 * that may precede it (Hop-by-Hop, Destination Options).
 */
static int add_srh(struct json_object *o, const __u8 *pkt, size_t len)
{
	struct json_object *s, *segs;
	char addr[INET6_ADDRSTRLEN];
	size_t off = HM_IPV6_HDR_LEN, hlen;
	__u8 nexthdr = pkt[6];
	unsigned int i, n;
	int err = 0;

	while (nexthdr == HM_NEXTHDR_HOP || nexthdr == HM_NEXTHDR_DEST) {
		if (off + 8 > len)
			return 0;
		hlen = (pkt[off + 1] + 1) * 8;
		nexthdr = pkt[off];
		off += hlen;
	}
	if (nexthdr != HM_NEXTHDR_ROUTING || off + 8 > len || pkt[off + 2] != HM_SRH_ROUTING_TYPE)
		return 0;
	hlen = (pkt[off + 1] + 1) * 8;
	s = json_object_new_object();
	if (!s || add(o, "srh", s))
		return -ENOMEM;
	err |= add_u64(s, "segments_left", pkt[off + 3]);
	err |= add_u64(s, "last_entry", pkt[off + 4]);
	err |= add_u64(s, "flags", pkt[off + 5]);
	err |= add(s, "oflag", json_object_new_boolean(pkt[off + 5] & HM_SRH_FLAG_O));
	err |= add_u64(s, "tag", hm_get_be16(pkt + off + 6));
	segs = json_object_new_array();
	if (!segs || add(s, "segments", segs))
		return -ENOMEM;
	n = pkt[off + 4] + 1;
	for (i = 0; i < n; i++) {
		size_t so = off + 8 + 16 * i;

		if (so + 16 > off + hlen || so + 16 > len)
			return err ? -ENOMEM : add_error(o, "headers: SRH segment list truncated");
		inet_ntop(AF_INET6, pkt + so, addr, sizeof(addr));
		if (json_object_array_add(segs, json_object_new_string(addr)))
			return -ENOMEM;
	}
	return err ? -ENOMEM : 0;
}

/* Addresses, flow label, hop limit, protocol and ports, as a record's "packet". */
static int add_packet(struct json_object *o, const struct hm_postcard *pc,
		      struct hm_pkt_info *info)
{
	static struct hm_record r;
	struct json_object *rec;
	size_t off, len;
	int err;

	if (!pc->headers || pc->headers_len < HM_IPV6_HDR_LEN || (pc->headers[0] >> 4) != 6)
		return add_error(o, "headers: no IPv6 header");
	memset(&r, 0, sizeof(r));
	err = hm_ipv6_find_ioam(pc->headers, pc->headers_len, &r.pkt, &off, &len);
	if (err && err != -ENOENT)
		err = add_error(o, "headers: extension headers truncated or malformed");
	else
		err = 0;
	*info = r.pkt;
	rec = hm_record_to_json(&r);
	if (!rec)
		return -ENOMEM;
	err |= move_key(o, "packet", rec, "packet");
	json_object_put(rec);
	if (err)
		return err;
	return add_srh(o, pc->headers, pc->headers_len);
}

struct json_object *hm_postcard_to_json(const struct hm_postcard *pc)
{
	const char *name = hm_postcard_type_name(pc->type);
	struct hm_pkt_info info, *pinfo = NULL;
	struct json_object *o, *node, *data;
	char buf[64];
	int err = 0, derr;

	if (!name)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	err |= add_str(o, "postcard", name);
	if (!(pc->omit & HM_POSTCARD_FIELD_TIMESTAMP)) {
		if (pc->present & HM_POSTCARD_F_TS) {
			err |= add_u64(o, "ts_ns", pc->ts_ns);
			hm_time_rfc3339(pc->ts_ns, buf, sizeof(buf));
			err |= add_str(o, "time", buf);
		} else {
			err |= add(o, "ts_ns", NULL);
			err |= add(o, "time", NULL);
		}
	}

	if (!(pc->omit & HM_POSTCARD_FIELD_NODE)) {
		node = json_object_new_object();
		if (!node || add(o, "node", node)) {
			json_object_put(o);
			return NULL;
		}
		err |= pc->node_id == HM_IOAM_U24_UNAVAILABLE ?
			add(node, "node_id", NULL) : add_u64(node, "node_id", pc->node_id);
		if (pc->present & HM_POSTCARD_F_NODE_ID_WIDE)
			err |= add_u64(node, "wide_id", pc->node_id_wide);
		err |= pc->present & HM_POSTCARD_F_IFINDEX ?
			add_u64(node, "ifindex", pc->ifindex) : add(node, "ifindex", NULL);
	}

	if (pc->present & HM_POSTCARD_F_NS)
		err |= add_u64(o, "namespace", pc->ns_id);
	if (!(pc->omit & HM_POSTCARD_FIELD_FLOW)) {
		if (pc->present & HM_POSTCARD_F_FLOW_ID)
			err |= add_u64(o, "flow_id", pc->flow_id);
		if (pc->present & HM_POSTCARD_F_SEQ)
			err |= add_u64(o, "seq", pc->seq);
	}
	if ((pc->present & HM_POSTCARD_F_TRACE_TYPE) &&
	    !(pc->omit & HM_POSTCARD_FIELD_NODE_DATA)) {
		snprintf(buf, sizeof(buf), "0x%06x", pc->trace_type & HM_IOAM_TT_MASK);
		err |= add_str(o, "trace_type", buf);
	}
	if ((pc->present & HM_POSTCARD_F_PKT_LEN) && !(pc->omit & HM_POSTCARD_FIELD_HEADERS))
		err |= add_u64(o, "pkt_len", pc->pkt_len);

	if (pc->headers && !(pc->omit & HM_POSTCARD_FIELD_HEADERS)) {
		err |= add_packet(o, pc, &info);
		pinfo = &info;
	}
	if (pc->node_data && (pc->present & HM_POSTCARD_F_TRACE_TYPE) &&
	    !(pc->omit & HM_POSTCARD_FIELD_NODE_DATA)) {
		data = node_data_json(pc->node_data, pc->node_data_len, pc->trace_type, &derr);
		if (data)
			err |= add(o, "data", data);
		else
			err |= add_error(o, "node data: do not match the IOAM-Trace-Type");
	}
	if (!(pc->omit & HM_POSTCARD_FIELD_OPTION)) {
		if (pc->type == HM_POSTCARD_TRACE && pc->option)
			err |= add_trace(o, pc, pinfo);
		if (pc->type == HM_POSTCARD_E2E && pc->option)
			err |= add_e2e(o, pc);
	}
	if (err) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int hm_postcard_print_json(FILE *f, const struct hm_postcard *pc)
{
	struct json_object *o;
	const char *s;
	int err = 0;

	if (!hm_postcard_type_name(pc->type))
		return -EINVAL;
	o = hm_postcard_to_json(pc);
	if (!o)
		return -EIO;
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s || fprintf(f, "%s\n", s) < 0)
		err = -EIO;
	json_object_put(o);
	return err;
}
