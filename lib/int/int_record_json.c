// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_record_json.c - the JSON line of an INT record (int_record.h) and
 * its reader. The line is written with common/json_write.h and the INT
 * JSON of int_json.c; the reader rebuilds the struct int_record (the
 * metadata with int_encode_hop(), the packet from its hex) and writes it
 * again: there is one format, the writer's.
 *
 * The input of the reader is untrusted (a file, a socket): every member is
 * checked for its type and range before it is used.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "common/hm_time.h"
#include "int/int_drop.h"
#include "int/int_print.h"
#include "int/int_record.h"
#include "int/report_encode.h"

static const char *const kind_names[] = {
	[INT_REC_SINK]	= "sink",
	[INT_REC_XD]	= "xd",
	[INT_REC_MX]	= "mx",
	[INT_REC_DROP]	= "drop",
	[INT_REC_QUEUE]	= "queue",
};

/* See int_record.h. */
const char *int_record_kind_name(__u32 kind)
{
	return kind < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[kind] : NULL;
}

/* See int_record.h. */
void int_record_signal(const struct int_domain_cfg *cfg, struct int_signal *sig)
{
	memset(sig, 0, sizeof(*sig));
	if (cfg->signal == INT_SIG_UDP) {
		sig->udp_port = cfg->udp_port;
	} else {
		sig->dscp = cfg->dscp;
		sig->dscp_mask = cfg->dscp_mask;
	}
}

#define KEY_U(w, key, v)		\
	do {				\
		hm_jw_key(w, key);	\
		hm_jw_u64(w, (v));	\
	} while (0)

/* The packet of a record: decoded as `hopmark decode` decodes it. */
static void json_pkt(struct hm_jw *w, const struct int_record *r, const struct int_signal *sig)
{
	struct int_pkt p;
	int err;

	if (!r->pkt_len)
		return;
	err = int_decode_ip(r->pkt, r->pkt_len, sig, &p);
	if (err == -INT_E_IP) {
		hm_jw_key(w, "packet_error");
		hm_jw_str(w, int_dec_strerror(err));
		return;
	}
	hm_jw_key(w, "packet");
	int_json_packet(w, &p);
	if (!err) {
		hm_jw_key(w, "int");
		int_json_int(w, &p);
	} else if (err != -INT_E_NONE) {
		hm_jw_key(w, "int_error");
		hm_jw_str(w, int_dec_strerror(err));
	}
}

/* See int_record.h. */
ssize_t int_record_write_json(char *buf, size_t size, const struct int_record *r,
			      const struct int_signal *sig)
{
	const char *kind = int_record_kind_name(r->kind);
	char ts[HM_TIME_RFC3339_LEN], bits[8];
	struct int_rpt_md md;
	struct int_hop h;
	struct hm_jw w;
	int flags;

	flags = int_rpt_record_flags(r);
	if (!kind || flags < 0 || (r->family != 4 && r->family != 6) ||
	    r->pkt_len > INT_REC_PKT_MAX || int_rpt_record_md(r, &md) ||
	    int_md_parse(md.md, md.len / 4, md.rep_md_bits, true, &h))
		return -EINVAL;

	hm_jw_init(&w, buf, size);
	hm_jw_open(&w, '{');
	hm_jw_key(&w, "int_record");
	hm_jw_str(&w, kind);
	KEY_U(&w, "ts_ns", r->ts_ns);
	hm_jw_key(&w, "time");
	hm_jw_str(&w, hm_time_rfc3339(r->ts_ns, ts, sizeof(ts)));
	KEY_U(&w, "ifindex", r->ifindex);
	KEY_U(&w, "node_id", r->node_id);
	KEY_U(&w, "family", r->family);
	KEY_U(&w, "d", !!(flags & INT_RPT_F_D));
	KEY_U(&w, "q", !!(flags & INT_RPT_F_Q));
	KEY_U(&w, "f", !!(flags & INT_RPT_F_F));
	KEY_U(&w, "i", !!(flags & INT_RPT_F_I));
	snprintf(bits, sizeof(bits), "0x%04x", md.rep_md_bits);
	hm_jw_key(&w, "rep_md_bits");
	hm_jw_str(&w, bits);
	KEY_U(&w, "md_len", md.len / 4);
	hm_jw_key(&w, "md");
	int_json_hop(&w, &h);
	if (md.rep_md_bits & INT_RPT_MD_DROP) {
		KEY_U(&w, "drop_queue_id", h.drop_queue_id);
		KEY_U(&w, "drop_reason", h.drop_reason);
		hm_jw_key(&w, "drop_reason_name");
		hm_jw_str(&w, int_drop_reason_name(h.drop_reason));
	}
	hm_jw_key(&w, "signal");
	hm_jw_open(&w, '{');
	if (sig->udp_port)
		KEY_U(&w, "udp_port", sig->udp_port);
	if (sig->dscp_mask) {
		KEY_U(&w, "dscp", sig->dscp);
		KEY_U(&w, "dscp_mask", sig->dscp_mask);
	}
	hm_jw_close(&w, '}');
	KEY_U(&w, "orig_len", r->orig_len);
	KEY_U(&w, "pkt_len", r->pkt_len);
	json_pkt(&w, r, sig);
	hm_jw_key(&w, "pkt");
	hm_jw_hex(&w, r->pkt, r->pkt_len);
	hm_jw_close(&w, '}');
	hm_jw_char(&w, '\n');
	if (hm_jw_len(&w) < size)
		buf[hm_jw_len(&w)] = '\0';
	return hm_jw_len(&w);
}

/* ---- the reader ---- */

/* @key of @o as an unsigned number in [0, @max], or -EINVAL. */
static int get_u(struct json_object *o, const char *key, __u64 max, __u64 *v)
{
	struct json_object *m;

	if (!json_object_object_get_ex(o, key, &m) || !json_object_is_type(m, json_type_int))
		return -EINVAL;
	errno = 0;
	*v = json_object_get_uint64(m);
	if (errno || *v > max || json_object_get_int64(m) < 0)
		return -EINVAL;
	return 0;
}

/* Like get_u(), 0 when @key is absent. */
static int get_u_opt(struct json_object *o, const char *key, __u64 max, __u64 *v)
{
	*v = 0;
	return json_object_object_get_ex(o, key, NULL) ? get_u(o, key, max, v) : 0;
}

static const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *m;

	if (!json_object_object_get_ex(o, key, &m) || !json_object_is_type(m, json_type_string))
		return NULL;
	return json_object_get_string(m);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The "pkt" hex string into @r->pkt and @r->pkt_len. */
static int get_pkt(struct json_object *o, struct int_record *r)
{
	const char *s = get_str(o, "pkt");
	size_t n, i;

	if (!s)
		return -EINVAL;
	n = strlen(s);
	if (n & 1 || n / 2 > INT_REC_PKT_MAX)
		return -EINVAL;
	for (i = 0; i < n / 2; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		r->pkt[i] = hi << 4 | lo;
	}
	r->pkt_len = n / 2;
	return 0;
}

/*
 * The "md" object into an int_hop of @bits (bit 15 aside: its word comes
 * from drop_queue_id and drop_reason); absent keys stay 0, and the line
 * written again then differs.
 */
static int get_md(struct json_object *md, __u16 bits, struct int_hop *h)
{
	static const struct { const char *key; __u64 max; size_t off; int size; } f[] = {
#define F(k, m) { #k, m, offsetof(struct int_hop, k), sizeof(((struct int_hop *)0)->k) }
		F(l1_ingress, 0xffff), F(l1_egress, 0xffff), F(hop_latency, 0xffffffff),
		F(queue_id, 0xff), F(queue_occupancy, 0xffffff), F(ingress_ts, ~0ULL),
		F(egress_ts, ~0ULL), F(l2_ingress, 0xffffffff), F(l2_egress, 0xffffffff),
		F(tx_util, 0xffffffff), F(buffer_id, 0xff), F(buffer_occupancy, 0xffffff),
#undef F
	};
	struct json_object *rsvd;
	unsigned int i, j;
	__u64 v;

	if (!json_object_is_type(md, json_type_object))
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (get_u_opt(md, f[i].key, f[i].max, &v))
			return -EINVAL;
		switch (f[i].size) {
		case 1:
			*(__u8 *)((char *)h + f[i].off) = v;
			break;
		case 2:
			*(__u16 *)((char *)h + f[i].off) = v;
			break;
		case 4:
			*(__u32 *)((char *)h + f[i].off) = v;
			break;
		default:
			*(__u64 *)((char *)h + f[i].off) = v;
			break;
		}
	}
	if (json_object_object_get_ex(md, "reserved", &rsvd)) {
		if (!json_object_is_type(rsvd, json_type_array))
			return -EINVAL;
		/* One word per reserved bit set, in bit order (int_json_hop()). */
		for (i = 0, j = 0; i < 6; i++) {
			struct json_object *e;

			if (!(bits & (0x0040 >> i)))
				continue;
			e = json_object_array_get_idx(rsvd, j++);
			if (!e || !json_object_is_type(e, json_type_int))
				return -EINVAL;
			h->rsvd[i] = json_object_get_uint64(e);
		}
	}
	return 0;
}

static int get_flags(struct json_object *o, __u8 *flags)
{
	static const struct { const char *key; __u8 bit; } f[] = {
		{ "d", INT_RPT_F_D }, { "q", INT_RPT_F_Q }, { "f", INT_RPT_F_F }, { "i", INT_RPT_F_I },
	};
	unsigned int i;
	__u64 v;

	*flags = 0;
	for (i = 0; i < 4; i++) {
		if (get_u(o, f[i].key, 1, &v))
			return -EINVAL;
		if (v)
			*flags |= f[i].bit;
	}
	return 0;
}

static int get_signal(struct json_object *o, struct int_signal *sig)
{
	struct json_object *s;
	__u64 v;

	memset(sig, 0, sizeof(*sig));
	if (!json_object_object_get_ex(o, "signal", &s) || !json_object_is_type(s, json_type_object))
		return -EINVAL;
	if (get_u_opt(s, "udp_port", 0xffff, &v))
		return -EINVAL;
	sig->udp_port = v;
	if (get_u_opt(s, "dscp", 0x3f, &v))
		return -EINVAL;
	sig->dscp = v;
	if (get_u_opt(s, "dscp_mask", 0x3f, &v))
		return -EINVAL;
	sig->dscp_mask = v;
	return 0;
}

/* The members of a record line, but for the comparison. */
static int record_from_json(struct json_object *obj, struct int_record *r, struct int_signal *sig)
{
	struct json_object *md;
	const char *kind, *bits_s;
	unsigned long bits;
	struct int_hop h;
	char *end;
	__u16 base;
	__u64 v;
	int n;

	kind = get_str(obj, "int_record");
	if (!kind)
		return -EINVAL;
	for (r->kind = 0; int_record_kind_name(r->kind); r->kind++)
		if (!strcmp(int_record_kind_name(r->kind), kind))
			break;
	if (!int_record_kind_name(r->kind))
		return -EINVAL;
	if (get_u(obj, "ts_ns", ~0ULL, &r->ts_ns))
		return -EINVAL;
	if (get_u(obj, "ifindex", 0xffffffff, &v))
		return -EINVAL;
	r->ifindex = v;
	if (get_u(obj, "node_id", 0xffffffff, &v))
		return -EINVAL;
	r->node_id = v;
	if (get_u(obj, "family", 6, &v))
		return -EINVAL;
	r->family = v;
	if (get_u(obj, "orig_len", 0xffff, &v))
		return -EINVAL;
	r->orig_len = v;
	if (get_flags(obj, &r->flags) || get_signal(obj, sig) || get_pkt(obj, r))
		return -EINVAL;

	bits_s = get_str(obj, "rep_md_bits");
	if (!bits_s)
		return -EINVAL;
	errno = 0;
	bits = strtoul(bits_s, &end, 16);
	if (errno || *end || bits > 0xffff)
		return -EINVAL;
	r->rep_md_bits = bits;
	/* Bit 15 is left to queue_id and drop_reason (int_rpt_record_md()). */
	base = bits & ~INT_RPT_MD_DROP;
	if (int_bitmap_words(base) * 4 > INT_REC_MD_MAX ||
	    !json_object_object_get_ex(obj, "md", &md) || get_md(md, base, &h))
		return -EINVAL;
	n = int_encode_hop(base, int_bitmap_words(base), &h, r->md);
	if (n < 0)
		return -EINVAL;
	r->md_len = n;
	if (bits & INT_RPT_MD_DROP) {
		if (get_u(obj, "drop_queue_id", 0xff, &v))
			return -EINVAL;
		r->queue_id = v;
		if (get_u(obj, "drop_reason", 0xff, &v))
			return -EINVAL;
		r->drop_reason = v;
	}
	return 0;
}

/* See int_record.h. */
int int_record_from_json(struct json_object *obj, struct int_record *r, struct int_signal *sig)
{
	struct json_object *again;
	ssize_t len;
	char *line;
	bool same;
	int err;

	memset(r, 0, sizeof(*r));
	if (!json_object_is_type(obj, json_type_object) ||
	    !json_object_object_get_ex(obj, "int_record", NULL))
		return -ENOENT;
	err = record_from_json(obj, r, sig);
	if (err)
		return err;
	len = int_record_write_json(NULL, 0, r, sig);
	if (len < 0)
		return -EPROTO;
	line = malloc(len + 1);
	if (!line)
		return -ENOMEM;
	int_record_write_json(line, len + 1, r, sig);
	again = json_tokener_parse(line);
	free(line);
	if (!again)
		return -ENOMEM;
	same = json_object_equal(obj, again);
	json_object_put(again);
	return same ? 0 : -EPROTO;
}
