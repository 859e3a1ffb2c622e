// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_ipfix_decode.c - hopmark's own IPFIX decoder (lib/ipfix/ipfix_decode.c)
 * against libfixbuf's, on the same octets:
 *  - Messages that hopmark's exporter (lib/ipfix/ipfix_export.c, libfixbuf)
 *    sends over UDP for postcards of every HM_TID_* template, with
 *    variable-length fields of both length forms (RFC 7011 §7): every
 *    record decoded by both into struct hm_ipfix_fields, field by field
 *    equal, the postcards equal, and the RFC 5610 type records giving
 *    every element's name;
 *  - a template of another exporter, written with libfixbuf: another
 *    element order, reduced-size encoding (§6.2), unknown and repeated
 *    elements, padding octets, a variable-length field;
 *  - on every record, the fast path and the general path agree;
 *  - malformed template records and records past their Set are refused.
 */
#include <stdlib.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "hm_test.h"
#include "ipfix/ipfix_decode.h"
#include "ipfix/ipfix_export.h"
#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"

#define PEN	HM_IPFIX_PEN_DEFAULT
#define MAX_MSGS	64
#define MAX_RECS	128

struct stream {
	__u8	buf[MAX_MSGS * 1500];
	size_t	len;
	size_t	nr_msgs;
};

/* What one decoder made of one Data Record (of a non-options template). */
struct dec {
	__u16			tid;
	__u64			elems;
	struct hm_ipfix_fields	f;
	int			ret;
	struct hm_pc_obs	o;
	int			fast_ret;
	struct hm_pc_obs	fast;
	__u8			fast_path;
	__u8			copy[3][400];	/* libfixbuf's varbufs, copied */
};

struct decoded {
	unsigned int		n;
	struct dec		r[MAX_RECS];
	unsigned int		nr_types;
	struct {
		__u32	pen;
		__u16	id;
		char	name[64];
	} types[64];
};

static void quiet_log(const char *fmt, ...)
{
}

/* hopmark's exporter, over UDP on the loopback: every datagram it sends. */
static void export_udp(const struct hm_pc_obs *o, const struct hm_ipfix_var *v, size_t n,
		       struct stream *s)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct hm_ipfix_exp_cfg cfg = { 0 };
	socklen_t sl = sizeof(sin);
	struct hm_ipfix_exp *x;
	int rx = socket(AF_INET, SOCK_DGRAM, 0);
	size_t i;
	ssize_t got;

	assert_true(rx >= 0);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(rx, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(getsockname(rx, (struct sockaddr *)&sin, &sl), 0);
	cfg.transport = PBT_EXP_UDP;
	cfg.family = 4;
	cfg.port = ntohs(sin.sin_port);
	cfg.domain = 42;
	cfg.refresh_s = 3600;
	memcpy(cfg.addr, &sin.sin_addr, 4);
	hm_ipfix_log = quiet_log;
	x = hm_ipfix_exp_new(PEN);
	assert_non_null(x);
	hm_ipfix_exp_set(x, &cfg);
	for (i = 0; i < n; i++)
		hm_ipfix_exp_add(x, &o[i], &v[i]);
	hm_ipfix_exp_flush(x);
	s->len = s->nr_msgs = 0;
	while ((got = recv(rx, s->buf + s->len, sizeof(s->buf) - s->len, MSG_DONTWAIT)) > 0) {
		assert_int_equal(s->buf[s->len + 2] << 8 | s->buf[s->len + 3], got);
		s->len += got;
		s->nr_msgs++;
	}
	assert_true(s->nr_msgs >= 2);
	hm_ipfix_exp_free(x);
	close(rx);
}

/* libfixbuf's decoding of the stream, into its internal template. */
static void decode_libfixbuf(struct stream *s, struct decoded *d)
{
	fbInfoModel_t *m = hm_ipfix_model_new(PEN);
	fbSession_t *sess = fbSessionAlloc(m);
	FILE *f = fmemopen(s->buf, s->len, "r");
	GError *err = NULL;
	fBuf_t *fb;

	memset(d, 0, sizeof(*d));
	assert_true(fbSessionAddTemplate(sess, TRUE, HM_IPFIX_TID_INTERNAL,
		hm_ipfix_tpl_new(m, HM_IPFIX_TID_INTERNAL, &err), &err));
	fb = fBufAllocForCollection(sess, fbCollectorAllocFP(NULL, f));
	assert_true(fBufSetInternalTemplate(fb, HM_IPFIX_TID_INTERNAL, &err));
	for (;;) {
		struct hm_ipfix_fields r;
		size_t len = sizeof(r);
		fbTemplate_t *t;
		__u16 tid;

		t = fBufNextCollectionTemplate(fb, &tid, &err);
		if (!t)
			break;
		memset(&r, 0, sizeof(r));
		if (!fBufNext(fb, (uint8_t *)&r, &len, &err))
			break;
		if (fbTemplateGetOptionsScope(t))
			continue;
		assert_true(d->n < MAX_RECS);
		d->r[d->n].tid = tid;
		d->r[d->n].elems = hm_ipfix_tpl_elems(t);
		d->r[d->n].f = r;
		/* the varbufs point into fb's buffer, which the next message overwrites */
		{
			struct hm_ipfix_varbuf *vb[3] = { &d->r[d->n].f.hdr, &d->r[d->n].f.node_data,
							  &d->r[d->n].f.int_md };
			int k;

			for (k = 0; k < 3; k++) {
				assert_true(vb[k]->len <= sizeof(d->r[d->n].copy[k]));
				if (vb[k]->len)
					memcpy(d->r[d->n].copy[k], vb[k]->buf, vb[k]->len);
				vb[k]->buf = d->r[d->n].copy[k];
			}
		}
		d->r[d->n].ret = hm_ipfix_fields_to_obs(&r, d->r[d->n].elems, fbSessionGetDomain(sess),
							&d->r[d->n].o, NULL);
		d->n++;
	}
	g_clear_error(&err);
	fBufFree(fb);
	fclose(f);
	fbInfoModelFree(m);
}

/* The same stream through lib/ipfix/ipfix_decode.c (one domain, all templates). */
static void decode_ours(const struct stream *s, struct decoded *d, struct hm_ipfix_tpl *tpl,
			unsigned int max_tpl)
{
	size_t msg = 0;

	memset(d, 0, sizeof(*d));
	while (msg < s->len) {
		const __u8 *m = s->buf + msg;
		size_t mlen = hm_ipfix_rd16(m + 2), off;
		__u32 domain = hm_ipfix_rd32(m + 12);

		assert_int_equal(hm_ipfix_rd16(m), HM_IPFIX_VERSION);
		for (off = HM_IPFIX_MSG_HDR_LEN; off + 4 <= mlen;) {
			__u16 set_id = hm_ipfix_rd16(m + off), slen = hm_ipfix_rd16(m + off + 2);
			const __u8 *p = m + off + 4;
			size_t len = slen - 4, o = 0;

			assert_true(slen >= 4 && off + slen <= mlen);
			if (set_id == HM_IPFIX_SET_TEMPLATE || set_id == HM_IPFIX_SET_OPTIONS) {
				while (len - o >= 4) {
					struct hm_ipfix_tpl_info ti;
					struct hm_ipfix_tpl *t;

					assert_int_equal(hm_ipfix_tpl_scan(p + o, len - o, set_id, &ti), 0);
					assert_true(ti.tid >= 256 && ti.tid - 256U < max_tpl);
					t = &tpl[ti.tid - 256];
					hm_ipfix_tpl_release(t);
					assert_int_equal(hm_ipfix_tpl_compile(p + o, &ti, set_id, PEN, t), 0);
					o += ti.len;
				}
			} else {
				struct hm_ipfix_tpl *t;

				assert_true(set_id >= 256 && set_id - 256U < max_tpl);
				t = &tpl[set_id - 256];
				assert_int_equal(t->tid, set_id);
				for (;;) {
					long rl = hm_ipfix_rec_next(t, p + o, len - o);
					struct dec *r = &d->r[d->n];

					assert_true(rl >= 0);
					if (!rl)
						break;
					if (t->schema == HM_IPFIX_SCHEMA_IE_TYPE) {
						struct hm_ipfix_ie_type ty;

						hm_ipfix_decode_ie_type(t, p + o, &ty);
						assert_true(d->nr_types < 64 && ty.name.len < 64);
						d->types[d->nr_types].pen = ty.pen;
						d->types[d->nr_types].id = ty.id;
						memcpy(d->types[d->nr_types].name, ty.name.buf, ty.name.len);
						d->nr_types++;
					} else if (t->set_id == HM_IPFIX_SET_TEMPLATE) {
						assert_true(d->n < MAX_RECS);
						r->tid = t->tid;
						r->elems = t->elems;
						hm_ipfix_decode_fields(t, p + o, &r->f);
						r->ret = hm_ipfix_decode_obs_general(t, p + o, domain,
										     &r->o);
						r->fast_ret = hm_ipfix_decode_obs(t, p + o, domain,
										  &r->fast);
						r->fast_path = t->fast;
						d->n++;
					}
					o += rl;
				}
			}
			off += slen;
		}
		msg += mlen;
	}
}

static void varbuf_equal(const char *what, unsigned int i, const struct hm_ipfix_varbuf *a,
			 const struct hm_ipfix_varbuf *b)
{
	if (a->len != b->len)
		fail_msg("record %u %s: libfixbuf %zu octets, ours %zu", i, what, a->len, b->len);
	if (a->len && memcmp(a->buf, b->buf, a->len))
		fail_msg("record %u %s: octets differ", i, what);
}

/*
 * Field by field: every fixed-size element octet for octet (the struct
 * from ts_ntp to before the padding, the varbufs aside), the
 * variable-length ones by length and content; then the postcards, and
 * our fast path against our general path.
 */
static void compare(const struct decoded *lf, const struct decoded *us)
{
	unsigned int i;

	printf("# records: libfixbuf %u, ours %u\n", lf->n, us->n);
	assert_int_equal(lf->n, us->n);
	for (i = 0; i < lf->n; i++) {
		const struct dec *a = &lf->r[i], *b = &us->r[i];
		size_t from = offsetof(struct hm_ipfix_fields, saddr6);
		size_t to = offsetof(struct hm_ipfix_fields, pad);

		assert_int_equal(a->tid, b->tid);
		if (a->elems != b->elems)
			fail_msg("record %u (template %u): elements libfixbuf %#llx, ours %#llx", i,
				 a->tid, (unsigned long long)a->elems, (unsigned long long)b->elems);
		assert_int_equal(a->f.ts_ntp, b->f.ts_ntp);
		assert_int_equal(a->f.length, b->f.length);
		if (memcmp((const __u8 *)&a->f + from, (const __u8 *)&b->f + from, to - from)) {
			size_t k;

			for (k = from; k < to; k++)
				if (((const __u8 *)&a->f)[k] != ((const __u8 *)&b->f)[k])
					fail_msg("record %u (template %u): octet %zu of the fields: "
						 "libfixbuf %#x, ours %#x", i, a->tid, k,
						 ((const __u8 *)&a->f)[k], ((const __u8 *)&b->f)[k]);
		}
		varbuf_equal("ipHeaderPacketSection", i, &a->f.hdr, &b->f.hdr);
		varbuf_equal("hopmarkIoamNodeData", i, &a->f.node_data, &b->f.node_data);
		varbuf_equal("hopmarkIntMetadata", i, &a->f.int_md, &b->f.int_md);
		assert_int_equal(a->ret, b->ret);
		if (!a->ret)
			assert_memory_equal(&a->o, &b->o, sizeof(a->o));
		/* fast path == general path */
		assert_int_equal(b->fast_ret, b->ret);
		if (!b->ret)
			assert_memory_equal(&b->fast, &b->o, sizeof(b->o));
	}
}

static void fill_key(struct hm_flow_key *k, int family, unsigned int i)
{
	memset(k, 0, sizeof(*k));
	k->family = family;
	k->proto = i & 1 ? 6 : 17;
	k->sport = htons(40001 + i);
	k->dport = htons(9999);
	if (family == 4) {
		memcpy(k->saddr, "\xc0\x00\x02\x01", 4);
		memcpy(k->daddr, "\xc6\x33\x64\x07", 4);
		k->daddr[3] += i;
	} else {
		memcpy(k->saddr, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
		memcpy(k->daddr, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x02", 16);
		k->daddr[15] += i;
	}
}

/* Postcard @i of one of hopmark's sources, with its variable-length parts. */
static void make_obs(unsigned int i, struct hm_pc_obs *o, struct hm_ipfix_var *v,
		     const __u8 *blob)
{
	static const __u8 kinds[][2] = {
		{ HM_PC_SRC_PBT, 4 }, { HM_PC_SRC_PBT, 6 }, { HM_PC_SRC_DEX, 6 },
		{ HM_PC_SRC_OFLAG, 6 }, { HM_PC_SRC_INT_XD, 4 }, { HM_PC_SRC_INT_MX, 6 },
	};
	unsigned int k = i % 6, ext = (i / 6) & 1;

	memset(o, 0, sizeof(*o));
	memset(v, 0, sizeof(*v));
	o->source = kinds[k][0];
	fill_key(&o->key, kinds[k][1], i);
	o->ts_ns = 1764620000123456789ULL + i * 1001;
	o->node_id = 0x10000 + i;
	o->pkt_id = 0xdeadbeef ^ i;
	o->point = i & 1 ? PBT_PT_INGRESS : PBT_PT_EGRESS;
	o->ttl = 64 - i;
	o->flags = i & 3 ? PBT_REC_F_HEAD : 0;
	o->obs_domain = 42;
	o->present = HM_PC_HAS_TTL;
	if (i % 4) {
		o->in_if = 3 + i;
		o->present |= HM_PC_HAS_IN_IF;
	}
	if (i % 5) {
		o->out_if = 300 + i;
		o->qdepth = 1500 * i;
		o->present |= HM_PC_HAS_OUT_IF | HM_PC_HAS_QDEPTH;
	}
	if (o->source == HM_PC_SRC_PBT && ext) {
		o->tpl_id = 9;
		o->present |= HM_PC_HAS_NEXTHOP | HM_PC_HAS_TOS | HM_PC_HAS_LENGTH |
			      HM_PC_HAS_SOJOURN;
		o->tos = 0x20;
		o->length = 1500;
		o->sojourn_ns = 777 + i;
		memcpy(o->nexthop, o->key.daddr, 16);
		o->nexthop[0] ^= 1;
		v->hdr = blob;
		v->hdr_len = 20 + i;
	}
	if (o->source == HM_PC_SRC_DEX || o->source == HM_PC_SRC_OFLAG) {
		o->present |= HM_PC_HAS_LENGTH;
		o->length = 1280;
		/* §7: below 255 octets one length octet, else 255 and two */
		v->hdr = blob;
		v->hdr_len = i & 1 ? 300 : 40;
		v->node_data = blob + 7;
		v->node_data_len = 8 + i;
		v->ioam_ns = 0x1234;
		v->trace_type = 0xf00000;
	}
	if (o->source == HM_PC_SRC_OFLAG) {
		o->present |= HM_PC_HAS_SRH;
		o->srh_flags = 0x20;
		o->srh_sl = 1;
		o->flags |= PBT_REC_F_SRH;
		memcpy(o->srh_active, o->key.daddr, 16);
	}
	if (o->source == HM_PC_SRC_INT_XD || o->source == HM_PC_SRC_INT_MX) {
		o->present |= HM_PC_HAS_SOJOURN | HM_PC_HAS_LENGTH;
		o->sojourn_ns = 2500;
		o->length = 84;
		v->int_md = blob + 3;
		v->int_md_len = i & 1 ? 260 : 12;
		v->int_md_bits = 6;
		v->drop_reason = i & 1 ? 3 : 0;
	}
}

static struct stream s;
static struct decoded lf, us;
static __u8 blob[400];

static void exporter_messages_decode_as_libfixbuf_decodes_them(void **state)
{
	struct hm_ipfix_tpl tpl[16] = { 0 };
	struct hm_pc_obs o[24];
	struct hm_ipfix_var v[24];
	const struct hm_ipfix_ie_def *defs;
	unsigned int i, j, fast = 0;
	size_t nd;

	for (i = 0; i < sizeof(blob); i++)
		blob[i] = i * 7 + 1;
	for (i = 0; i < 24; i++)
		make_obs(i, &o[i], &v[i], blob);
	export_udp(o, v, 24, &s);
	decode_libfixbuf(&s, &lf);
	decode_ours(&s, &us, tpl, 16);
	compare(&lf, &us);
	assert_int_equal(us.n, 24);
	for (i = 0; i < 24; i++) {
		assert_int_equal(us.r[i].ret, 0);
		/* the exporter's postcard, as it went in */
		assert_memory_equal(&us.r[i].o, &o[i], sizeof(o[i]));
		fast += us.r[i].fast_path != HM_IPFIX_FAST_NONE;
	}
	/* PBT-M basic-set postcards: 2 of every 12 (IPv4, IPv6) */
	printf("# fast path: expected 4 records, observed %u\n", fast);
	assert_int_equal(fast, 4);
	assert_int_equal(tpl[HM_TID_PBT_V4 - 256].fast, HM_IPFIX_FAST_PBT_V4);
	assert_int_equal(tpl[HM_TID_PBT_V6 - 256].fast, HM_IPFIX_FAST_PBT_V6);
	assert_int_equal(tpl[HM_TID_PBT_V4_EXT - 256].fast, HM_IPFIX_FAST_NONE);
	/* RFC 5610: every element hopmark adds is named */
	defs = hm_ipfix_ie_defs(&nd);
	for (i = 0; i < nd; i++) {
		for (j = 0; j < us.nr_types; j++)
			if (us.types[j].pen == (defs[i].enterprise ? PEN : 0) &&
			    us.types[j].id == defs[i].id)
				break;
		if (j == us.nr_types)
			fail_msg("no RFC 5610 record for %s", defs[i].name);
		assert_string_equal(us.types[j].name, defs[i].name);
	}
	assert_int_equal(tpl[HM_IPFIX_TID_RFC5610 - 256].schema, HM_IPFIX_SCHEMA_IE_TYPE);
	for (i = 0; i < 16; i++)
		hm_ipfix_tpl_release(&tpl[i]);
}

/*
 * Another exporter's template, made with libfixbuf: the elements in
 * another order, reduced-size unsigned integers (§6.2), an element
 * hopmark does not know (octetDeltaCount), a repeated one, padding, a
 * variable-length ipHeaderPacketSection of 300 octets. Records of it decode as libfixbuf decodes them,
 * through the general path only.
 */
static void foreign_template_with_reduced_size_encoding(void **state)
{
	static fbInfoElementSpec_t spec[] = {
		{ "hopmarkPacketId", 4, 0 },
		{ "octetDeltaCount", 8, 0 },
		{ "ingressInterface", 2, 0 },		/* reduced: 4 -> 2 */
		{ "destinationIPv4Address", 4, 0 },
		{ "hopmarkNodeId", 3, 0 },		/* reduced: 4 -> 3 */
		{ "paddingOctets", 3, 0 },
		{ "ipHeaderPacketSection", FB_IE_VARLEN, 0 },
		{ "observationTimeNanoseconds", 8, 0 },
		{ "ipTotalLength", 2, 0 },		/* reduced: 8 -> 2 */
		{ "sourceIPv4Address", 4, 0 },
		{ "hopmarkQueueDepthOctets", 1, 0 },	/* reduced: 4 -> 1 */
		{ "sourceTransportPort", 2, 0 },
		{ "ipTTL", 1, 0 },
		{ "egressInterface", 1, 0 },		/* reduced: 4 -> 1 */
		FB_IESPEC_NULL
	};
	fbInfoModel_t *m = hm_ipfix_model_new(PEN);
	fbSession_t *sess = fbSessionAlloc(m);
	FILE *f = fmemopen(s.buf, sizeof(s.buf), "w");
	fbExporter_t *x = fbExporterAllocFP(f);
	struct hm_ipfix_tpl tpl[64] = { 0 };
	GError *err = NULL;
	fbTemplate_t *t;
	fBuf_t *fb;
	unsigned int i;

	setvbuf(f, NULL, _IONBF, 0);
	fbSessionSetDomain(sess, 9);
	assert_true(fbSessionAddTemplate(sess, TRUE, HM_IPFIX_TID_INTERNAL,
		hm_ipfix_tpl_new(m, HM_IPFIX_TID_INTERNAL, &err), &err));
	t = fbTemplateAlloc(m);
	assert_true(fbTemplateAppendSpecArray(t, spec, UINT32_MAX, &err));
	assert_int_equal(fbSessionAddTemplate(sess, FALSE, 300, t, &err), 300);
	fb = fBufAllocForExport(sess, x);
	assert_true(fbSessionExportTemplates(sess, &err));
	assert_true(fBufSetInternalTemplate(fb, HM_IPFIX_TID_INTERNAL, &err));
	assert_true(fBufSetExportTemplate(fb, 300, &err));
	for (i = 0; i < sizeof(blob); i++)
		blob[i] = i * 5 + 3;
	for (i = 0; i < 6; i++) {
		struct hm_ipfix_fields r = { 0 };

		r.pkt_id = 0x01020304 + i;
		r.in_if = 0x1234 + i;
		r.daddr4 = 0xc6336407;
		r.node_id = 0xabcdef - i;
		r.hdr.buf = blob;
		r.hdr.len = i & 1 ? 300 : 0;		/* empty, and the 3-octet form */
		r.ts_ntp = hm_ipfix_ns_to_ntp(1764620000000000000ULL + i);
		r.length = 1500 + i;
		r.saddr4 = 0xc0000201;
		r.qdepth = 200 + i;
		r.sport = 1000 + i;
		r.ttl = 60 + i;
		r.out_if = i;				/* 0: unknown, not present */
		if (!fBufAppend(fb, (uint8_t *)&r, sizeof(r), &err))
			fail_msg("fBufAppend: %s", err->message);
	}
	assert_true(fBufEmit(fb, &err));
	s.len = ftell(f);
	fBufFree(fb);
	fclose(f);
	fbInfoModelFree(m);

	decode_libfixbuf(&s, &lf);
	decode_ours(&s, &us, tpl, 64);
	compare(&lf, &us);
	assert_int_equal(us.n, 6);
	assert_int_equal(tpl[300 - 256].fast, HM_IPFIX_FAST_NONE);
	assert_int_equal(tpl[300 - 256].rec_len, 0);	/* variable-length */
	for (i = 0; i < 6; i++) {
		assert_int_equal(us.r[i].ret, 0);
		assert_int_equal(us.r[i].o.in_if, 0x1234 + i);
		assert_int_equal(us.r[i].o.node_id, 0xabcdef - i);
		assert_int_equal(us.r[i].o.qdepth, 200 + i);
		assert_int_equal(us.r[i].o.length, 1500 + i);
		assert_int_equal(us.r[i].f.hdr.len, i & 1 ? 300 : 0);
		assert_int_equal(!!(us.r[i].o.present & HM_PC_HAS_OUT_IF), !!i);
	}
	for (i = 0; i < 64; i++)
		hm_ipfix_tpl_release(&tpl[i]);
}

/* A template record written out: @n fields of (id, len), ID @tid. */
static size_t tpl_rec(__u8 *b, __u16 tid, const __u16 (*f)[3], unsigned int n)
{
	size_t off = 4;
	unsigned int i;

	b[0] = tid >> 8;
	b[1] = tid;
	b[2] = 0;
	b[3] = n;
	for (i = 0; i < n; i++) {
		__u16 id = f[i][0] | (f[i][2] ? HM_IPFIX_ENTERPRISE_BIT : 0);

		b[off++] = id >> 8;
		b[off++] = id;
		b[off++] = f[i][1] >> 8;
		b[off++] = f[i][1];
		if (f[i][2]) {
			b[off++] = PEN >> 24;
			b[off++] = PEN >> 16;
			b[off++] = PEN >> 8;
			b[off++] = PEN & 0xff;
		}
	}
	return off;
}

/*
 * The fast path goes by layout, not by Template ID: hopmark's PBT_V4
 * layout under ID 300 takes it, the same elements with one reduced to 2
 * octets, or in another order, do not; both paths decode a record of
 * each alike.
 */
static void fast_path_is_chosen_by_layout(void **state)
{
	__u16 f[HM_E_MAX][3];
	__u64 want = hm_ipfix_tpl_elems_of(HM_TID_PBT_V4);
	struct hm_ipfix_tpl_info ti;
	struct hm_ipfix_tpl t;
	struct hm_pc_obs a, b;
	__u8 rec[256], tb[512];
	unsigned int n = 0, e, v, i;
	size_t len;
	int ent;

	for (e = 0; e < HM_E_MAX; e++) {
		if (!(want & (1ULL << e)))
			continue;
		f[n][0] = hm_ipfix_elem_id(e, &ent, &f[n][1]);
		f[n][2] = ent;
		n++;
	}
	for (i = 0; i < sizeof(rec); i++)
		rec[i] = i * 13 + 5;
	for (v = 0; v < 3; v++) {
		__u16 g[HM_E_MAX][3];

		memcpy(g, f, sizeof(f));
		if (v == 1)
			g[3][1] = 2;			/* ingressInterface in 2 octets */
		if (v == 2) {
			memcpy(g[0], f[1], sizeof(g[0]));	/* addresses first */
			memcpy(g[1], f[0], sizeof(g[0]));
		}
		len = tpl_rec(tb, 300, (const __u16 (*)[3])g, n);
		assert_int_equal(hm_ipfix_tpl_scan(tb, len, HM_IPFIX_SET_TEMPLATE, &ti), 0);
		assert_int_equal(ti.len, len);
		assert_int_equal(hm_ipfix_tpl_compile(tb, &ti, HM_IPFIX_SET_TEMPLATE, PEN, &t), 0);
		printf("# layout %u: fast path expected %d, observed %d\n", v,
		       v == 0 ? HM_IPFIX_FAST_PBT_V4 : 0, t.fast);
		assert_int_equal(t.fast, v == 0 ? HM_IPFIX_FAST_PBT_V4 : HM_IPFIX_FAST_NONE);
		assert_int_equal(t.elems, want);
		rec[t.rec_len - 2] = HM_PC_SRC_PBT;	/* a valid source, then hopmarkPacketIdKind */
		if (v == 2)
			rec[t.rec_len - 2] = HM_PC_SRC_PBT;
		assert_int_equal(hm_ipfix_rec_next(&t, rec, sizeof(rec)), t.rec_len);
		assert_int_equal(hm_ipfix_rec_next(&t, rec, t.rec_len - 1), 0);	/* padding */
		assert_int_equal(hm_ipfix_decode_obs(&t, rec, 5, &a),
				 hm_ipfix_decode_obs_general(&t, rec, 5, &b));
		assert_memory_equal(&a, &b, sizeof(a));
		/* an unknown hopmarkPostcardSource: refused by both */
		rec[t.rec_len - 2] = 77;
		assert_int_equal(hm_ipfix_decode_obs(&t, rec, 5, &a), -EINVAL);
		assert_int_equal(hm_ipfix_decode_obs_general(&t, rec, 5, &b), -EINVAL);
		hm_ipfix_tpl_release(&t);
	}
}

static void malformed_templates_and_records_are_refused(void **state)
{
	static const __u16 one[][3] = { { 313, 65535, 0 }, { 1, 4, 1 } };
	struct hm_ipfix_tpl_info ti;
	struct hm_ipfix_tpl t;
	__u8 b[64], rec[16];
	size_t len = tpl_rec(b, 256, one, 2);

	assert_int_equal(hm_ipfix_tpl_scan(b, len, HM_IPFIX_SET_TEMPLATE, &ti), 0);
	assert_int_equal(ti.varlen, 1);
	assert_int_equal(ti.min_len, 5);
	/* a field specifier cut short; the PEN of an enterprise field missing */
	assert_int_equal(hm_ipfix_tpl_scan(b, len - 6, HM_IPFIX_SET_TEMPLATE, &ti), -EBADMSG);
	assert_int_equal(hm_ipfix_tpl_scan(b, len - 2, HM_IPFIX_SET_TEMPLATE, &ti), -EBADMSG);
	/* Template ID below 256 (§3.4.1) */
	b[0] = 0;
	b[1] = 255;
	assert_int_equal(hm_ipfix_tpl_scan(b, len, HM_IPFIX_SET_TEMPLATE, &ti), -EBADMSG);
	b[1] = 0;
	b[0] = 1;
	/* a withdrawal is 4 octets */
	b[3] = 0;
	assert_int_equal(hm_ipfix_tpl_scan(b, 4, HM_IPFIX_SET_TEMPLATE, &ti), 0);
	assert_int_equal(ti.nr_fields, 0);
	assert_int_equal(ti.len, 4);
	/* Options: Scope Field Count 0 or above Field Count (§3.4.2.1) */
	len = tpl_rec(b, 256, one, 2);
	memmove(b + 6, b + 4, len - 4);
	b[4] = 0;
	b[5] = 0;
	assert_int_equal(hm_ipfix_tpl_scan(b, len + 2, HM_IPFIX_SET_OPTIONS, &ti), -EBADMSG);
	b[5] = 3;
	assert_int_equal(hm_ipfix_tpl_scan(b, len + 2, HM_IPFIX_SET_OPTIONS, &ti), -EBADMSG);
	b[5] = 1;
	assert_int_equal(hm_ipfix_tpl_scan(b, len + 2, HM_IPFIX_SET_OPTIONS, &ti), 0);
	assert_int_equal(ti.scope, 1);
	/* records of no octets */
	{
		static const __u16 zero[][3] = { { 10, 0, 0 } };

		len = tpl_rec(b, 256, zero, 1);
		assert_int_equal(hm_ipfix_tpl_scan(b, len, HM_IPFIX_SET_TEMPLATE, &ti), -EBADMSG);
	}
	/* a variable-length field past its Set; padding after a record */
	len = tpl_rec(b, 256, one, 2);
	assert_int_equal(hm_ipfix_tpl_scan(b, len, HM_IPFIX_SET_TEMPLATE, &ti), 0);
	assert_int_equal(hm_ipfix_tpl_compile(b, &ti, HM_IPFIX_SET_TEMPLATE, PEN, &t), 0);
	memset(rec, 0, sizeof(rec));
	rec[0] = 3;					/* 3 octets of header, then the node ID */
	assert_int_equal(hm_ipfix_rec_next(&t, rec, 8), 8);
	assert_int_equal(hm_ipfix_rec_next(&t, rec, 7), -EBADMSG);
	assert_int_equal(hm_ipfix_rec_next(&t, rec, 4), 0);	/* below 5: padding */
	rec[0] = 255;					/* 3-octet form cut short */
	assert_int_equal(hm_ipfix_rec_next(&t, rec, 6), -EBADMSG);
	rec[1] = 0;
	rec[2] = 4;
	assert_int_equal(hm_ipfix_rec_next(&t, rec, 11), 11);
	hm_ipfix_tpl_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exporter_messages_decode_as_libfixbuf_decodes_them),
		cmocka_unit_test(foreign_template_with_reduced_size_encoding),
		cmocka_unit_test(fast_path_is_chosen_by_layout),
		cmocka_unit_test(malformed_templates_and_records_are_refused),
	};

	return HM_RUN_TESTS(tests);
}
