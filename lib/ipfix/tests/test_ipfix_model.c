// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_ipfix_model.c - hopmark's IPFIX model (lib/ipfix/ipfix_model.c):
 * its elements under the default and an overriding PEN, the internal
 * template's layout against struct hm_ipfix_fields, NTP time (RFC 7011
 * §6.1.10) and, for every HM_TID_* template, a postcard encoded, sent
 * through libfixbuf into an IPFIX Message, decoded from the bytes and
 * compared field by field; the Template Set's bytes are checked against
 * RFC 7011 §3.4.1 / §3.2 (enterprise bit and PEN of each field).
 */
#include <stdlib.h>
#include <arpa/inet.h>

#include "hm_test.h"
#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"

#define TEST_PEN	12345

static void model_has_hopmark_elements_under_pen(void **state)
{
	const __u32 pens[] = { HM_IPFIX_PEN_DEFAULT, TEST_PEN };
	const struct hm_ipfix_ie_def *d;
	size_t n, i, p;

	d = hm_ipfix_ie_defs(&n);
	for (p = 0; p < 2; p++) {
		fbInfoModel_t *m = hm_ipfix_model_new(pens[p]);

		assert_non_null(m);
		for (i = 0; i < n; i++) {
			const fbInfoElement_t *e = fbInfoModelGetElementByName(m, d[i].name);
			__u32 ent = d[i].enterprise ? pens[p] : 0;

			if (!e)
				fail_msg("%s: not in the model", d[i].name);
			if (e->ent != ent || e->num != d[i].id || e->len != d[i].len ||
			    e->type != d[i].type)
				fail_msg("%s: expected %u/%u len %u type %u, got %u/%u len %u type %u",
					 d[i].name, ent, d[i].id, d[i].len, d[i].type,
					 e->ent, e->num, e->len, e->type);
			assert_ptr_equal(fbInfoModelGetElementByID(m, d[i].id, ent), e);
		}
		/* Adding twice is harmless; under another PEN it is refused. */
		assert_int_equal(hm_ipfix_model_add(m, pens[p]), 0);
		assert_int_equal(hm_ipfix_model_add(m, pens[p] + 1), -EINVAL);
		fbInfoModelFree(m);
	}
	assert_null(hm_ipfix_model_new(0));
}

/*
 * The IANA numbers hopmark uses, as the IANA "IPFIX Information Elements"
 * registry lists them (RFC 9487 for the SRH ones; 500 there is
 * srhIPv6ActiveSegmentType): the name each number resolves to in the model.
 */
static void iana_numbers_are_the_registry_ones(void **state)
{
	static const struct { __u16 id; const char *name; } iana[] = {
		{ 4, "protocolIdentifier" }, { 5, "ipClassOfService" },
		{ 7, "sourceTransportPort" }, { 8, "sourceIPv4Address" },
		{ 10, "ingressInterface" }, { 11, "destinationTransportPort" },
		{ 12, "destinationIPv4Address" }, { 14, "egressInterface" },
		{ 15, "ipNextHopIPv4Address" }, { 27, "sourceIPv6Address" },
		{ 28, "destinationIPv6Address" }, { 60, "ipVersion" },
		{ 62, "ipNextHopIPv6Address" }, { 192, "ipTTL" }, { 224, "ipTotalLength" },
		{ 313, "ipHeaderPacketSection" }, { 325, "observationTimeNanoseconds" },
		{ 492, "srhFlagsIPv6" }, { 495, "srhActiveSegmentIPv6" },
		{ 498, "srhSegmentsIPv6Left" },
	};
	const __u16 hdr[] = { IPFIX_IE_PROTOCOL_IDENTIFIER, IPFIX_IE_IP_CLASS_OF_SERVICE,
		IPFIX_IE_SOURCE_TRANSPORT_PORT, IPFIX_IE_SOURCE_IPV4_ADDRESS,
		IPFIX_IE_INGRESS_INTERFACE, IPFIX_IE_DESTINATION_TRANSPORT_PORT,
		IPFIX_IE_DESTINATION_IPV4_ADDRESS, IPFIX_IE_EGRESS_INTERFACE,
		IPFIX_IE_IP_NEXT_HOP_IPV4_ADDRESS, IPFIX_IE_SOURCE_IPV6_ADDRESS,
		IPFIX_IE_DESTINATION_IPV6_ADDRESS, IPFIX_IE_IP_VERSION,
		IPFIX_IE_IP_NEXT_HOP_IPV6_ADDRESS, IPFIX_IE_IP_TTL, IPFIX_IE_IP_TOTAL_LENGTH,
		IPFIX_IE_IP_HEADER_PACKET_SECTION, IPFIX_IE_OBSERVATION_TIME_NANOSECONDS,
		IPFIX_IE_SRH_FLAGS_IPV6, IPFIX_IE_SRH_ACTIVE_SEGMENT_IPV6,
		IPFIX_IE_SRH_SEGMENTS_IPV6_LEFT };
	fbInfoModel_t *m = hm_ipfix_model_new(HM_IPFIX_PEN_DEFAULT);
	size_t i;

	for (i = 0; i < sizeof(iana) / sizeof(iana[0]); i++) {
		const fbInfoElement_t *e = fbInfoModelGetElementByID(m, hdr[i], 0);

		if (hdr[i] != iana[i].id)
			fail_msg("%s: ipfix_ie.h says %u, the registry %u", iana[i].name,
				 hdr[i], iana[i].id);
		if (!e || strcmp(e->ref.name, iana[i].name))
			fail_msg("element %u: expected %s, the model has %s", hdr[i],
				 iana[i].name, e ? e->ref.name : "none");
	}
	fbInfoModelFree(m);
}

static void internal_templates_match_their_structs(void **state)
{
	fbInfoModel_t *m = hm_ipfix_model_new(HM_IPFIX_PEN_DEFAULT);
	GError *err = NULL;
	fbTemplate_t *t;

	t = hm_ipfix_tpl_new(m, HM_IPFIX_TID_INTERNAL, &err);
	assert_non_null(t);
	assert_int_equal(fbTemplateGetIELenOfMemBuffer(t), sizeof(struct hm_ipfix_fields));
	assert_int_equal(hm_ipfix_tpl_elems(t), (1ULL << HM_E_MAX) - 1);
	fbTemplateFreeUnused(t);
	t = hm_ipfix_tpl_new(m, HM_IPFIX_TID_STATS_INTERNAL, &err);
	assert_non_null(t);
	assert_int_equal(fbTemplateGetIELenOfMemBuffer(t), sizeof(struct hm_ipfix_stats_rec));
	assert_int_equal(fbTemplateGetOptionsScope(t), 1);
	fbTemplateFreeUnused(t);
	assert_null(hm_ipfix_tpl_new(m, 999, &err));
	g_clear_error(&err);
	fbInfoModelFree(m);
}

static void ntp_time_round_trips_every_ns(void **state)
{
	__u64 base = 1700000000ULL * 1000000000ULL, ns;
	__u32 i;

	/* POSIX 0 is NTP second 2208988800 (RFC 5905 §6), fraction 0. */
	assert_int_equal(hm_ipfix_ns_to_ntp(0), HM_NTP_UNIX_OFFSET << 32);
	/* Half a second is fraction 2^31. */
	assert_int_equal(hm_ipfix_ns_to_ntp(base + 500000000ULL) & 0xffffffffULL,
			 0x80000000ULL);
	for (i = 0; i < 1000000; i++) {
		ns = base + (__u64)i * 999 + (i & 1);
		if (hm_ipfix_ntp_to_ns(hm_ipfix_ns_to_ntp(ns)) != ns)
			fail_msg("ns %llu: back as %llu", (unsigned long long)ns,
				 (unsigned long long)hm_ipfix_ntp_to_ns(hm_ipfix_ns_to_ntp(ns)));
	}
	ns = base + 999999999ULL;
	assert_int_equal(hm_ipfix_ntp_to_ns(hm_ipfix_ns_to_ntp(ns)), ns);
	assert_int_equal(hm_ipfix_ntp_to_ns(1ULL << 32), 0);
}

static void fill_key(struct hm_flow_key *k, int family)
{
	memset(k, 0, sizeof(*k));
	k->family = family;
	k->proto = 17;
	k->sport = htons(40001);
	k->dport = htons(9999);
	if (family == 4) {
		memcpy(k->saddr, "\xc0\x00\x02\x01", 4);	/* 192.0.2.1 */
		memcpy(k->daddr, "\xc6\x33\x64\x07", 4);	/* 198.51.100.7 */
	} else {
		memcpy(k->saddr, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
		memcpy(k->daddr, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x02", 16);
	}
}

static void obs_for(__u16 tid, struct hm_pc_obs *o)
{
	memset(o, 0, sizeof(*o));
	o->ts_ns = 1700000000123456789ULL;
	o->node_id = 0xabcdef;
	o->pkt_id = 0xdeadbeef;
	o->in_if = 3;
	o->out_if = 7;
	o->qdepth = 12345;
	o->obs_domain = 42;
	o->point = PBT_PT_EGRESS;
	o->ttl = 61;
	o->flags = PBT_REC_F_CE | PBT_REC_F_HEAD;
	o->present = HM_PC_HAS_IN_IF | HM_PC_HAS_OUT_IF | HM_PC_HAS_QDEPTH | HM_PC_HAS_TTL;
	switch (tid) {
	case HM_TID_PBT_V4:
	case HM_TID_PBT_V4_EXT:
		o->source = HM_PC_SRC_PBT;
		fill_key(&o->key, 4);
		break;
	case HM_TID_PBT_V6:
	case HM_TID_PBT_V6_EXT:
		o->source = HM_PC_SRC_PBT;
		fill_key(&o->key, 6);
		break;
	case HM_TID_DEX:
		o->source = HM_PC_SRC_DEX;
		o->point = PBT_PT_INGRESS;
		o->present &= ~(HM_PC_HAS_OUT_IF | HM_PC_HAS_QDEPTH);
		o->out_if = o->qdepth = 0;
		o->present |= HM_PC_HAS_LENGTH;
		o->length = 1280;
		o->flags = 0;
		fill_key(&o->key, 6);
		break;
	case HM_TID_OFLAG:
		o->source = HM_PC_SRC_OFLAG;
		o->present |= HM_PC_HAS_SRH | HM_PC_HAS_LENGTH;
		o->length = 200;
		o->srh_flags = 0x20;
		o->srh_sl = 1;
		o->flags = PBT_REC_F_SRH;
		memcpy(o->srh_active, "\xfc\x00\0\0\0\0\0\0\0\0\0\0\0\0\0\x05", 16);
		fill_key(&o->key, 6);
		break;
	case HM_TID_INT:
		o->source = HM_PC_SRC_INT_XD;
		o->present |= HM_PC_HAS_SOJOURN | HM_PC_HAS_LENGTH;
		o->sojourn_ns = 2500;
		o->length = 84;
		fill_key(&o->key, 4);
		break;
	}
	if (tid == HM_TID_PBT_V4_EXT || tid == HM_TID_PBT_V6_EXT) {
		o->tpl_id = 9;
		o->present |= HM_PC_HAS_NEXTHOP | HM_PC_HAS_TOS | HM_PC_HAS_LENGTH |
			      HM_PC_HAS_SOJOURN;
		o->tos = 0x20;
		o->length = 1500;
		o->sojourn_ns = 777;
		if (tid == HM_TID_PBT_V4_EXT) {
			memcpy(o->nexthop, "\xc0\x00\x02\xfe", 4);
		} else {
			memcpy(o->nexthop, "\xfe\x80\0\0\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
			o->present |= HM_PC_HAS_SRH;
			o->srh_flags = 0x20;
			o->srh_sl = 2;
			memcpy(o->srh_active, o->key.daddr, 16);
		}
	}
}

struct wire {
	__u8	buf[8192];
	size_t	len;
};

/*
 * Encode @o with libfixbuf into an IPFIX stream (RFC 7011 §10: a file or
 * a TCP stream is Messages back to back): a Message with the Template Set,
 * then one with the Data Record.
 */
static void export_one(fbInfoModel_t *m, const struct hm_pc_obs *o,
		       const struct hm_ipfix_var *var, struct wire *w)
{
	fbSession_t *s = fbSessionAlloc(m);
	FILE *f = fmemopen(w->buf, sizeof(w->buf), "w");
	fbExporter_t *x = fbExporterAllocFP(f);
	struct hm_ipfix_fields r;
	GError *err = NULL;
	fBuf_t *fb;
	__u16 tid = hm_ipfix_obs_tid(o);

	setvbuf(f, NULL, _IONBF, 0);

	/* External templates belong to a domain: set it first. */
	fbSessionSetDomain(s, o->obs_domain);
	assert_true(fbSessionAddTemplate(s, TRUE, HM_IPFIX_TID_INTERNAL,
		hm_ipfix_tpl_new(m, HM_IPFIX_TID_INTERNAL, &err), &err));
	assert_int_equal(fbSessionAddTemplate(s, FALSE, tid,
		hm_ipfix_tpl_new(m, tid, &err), &err), tid);
	fb = fBufAllocForExport(s, x);
	if (!fbSessionExportTemplates(s, &err))
		fail_msg("fbSessionExportTemplates: %s", err->message);
	assert_true(fBufSetInternalTemplate(fb, HM_IPFIX_TID_INTERNAL, &err));
	assert_true(fBufSetExportTemplate(fb, tid, &err));
	hm_ipfix_fields_from_obs(&r, o, var);
	if (!fBufAppend(fb, (uint8_t *)&r, sizeof(r), &err))
		fail_msg("fBufAppend: %s", err->message);
	assert_true(fBufEmit(fb, &err));
	w->len = ftell(f);
	fBufFree(fb);
	fclose(f);
}

static struct {
	__u8	hdr[256], nd[256], md[256];
} var_copy;

/* Decode the first Data Record of @w. */
static int collect_one(fbInfoModel_t *m, struct wire *w, __u16 *ext_tid,
		       struct hm_pc_obs *o, struct hm_ipfix_var *var,
		       struct hm_ipfix_fields *r)
{
	fbSession_t *s = fbSessionAlloc(m);
	GError *err = NULL;
	fbTemplate_t *t;
	size_t len = sizeof(*r);
	FILE *f = fmemopen(w->buf, w->len, "r");
	fBuf_t *fb;
	int ret;

	assert_true(fbSessionAddTemplate(s, TRUE, HM_IPFIX_TID_INTERNAL,
		hm_ipfix_tpl_new(m, HM_IPFIX_TID_INTERNAL, &err), &err));
	fb = fBufAllocForCollection(s, fbCollectorAllocFP(NULL, f));
	assert_true(fBufSetInternalTemplate(fb, HM_IPFIX_TID_INTERNAL, &err));
	t = fBufNextCollectionTemplate(fb, ext_tid, &err);
	if (!t)
		fail_msg("no data record: %s", err ? err->message : "?");
	memset(r, 0, sizeof(*r));
	if (!fBufNext(fb, (uint8_t *)r, &len, &err))
		fail_msg("fBufNext: %s", err->message);
	ret = hm_ipfix_fields_to_obs(r, hm_ipfix_tpl_elems(t), fbSessionGetDomain(s), o, var);
	/*
	 * The record's varfields point into the fBuf's message buffer: copy
	 * what the caller compares before freeing it.
	 */
	if (var && var->hdr_len <= sizeof(var_copy.hdr)) {
		memcpy(var_copy.hdr, var->hdr, var->hdr_len);
		var->hdr = var_copy.hdr;
	}
	if (var && var->node_data_len <= sizeof(var_copy.nd)) {
		memcpy(var_copy.nd, var->node_data, var->node_data_len);
		var->node_data = var_copy.nd;
	}
	if (var && var->int_md_len <= sizeof(var_copy.md)) {
		memcpy(var_copy.md, var->int_md, var->int_md_len);
		var->int_md = var_copy.md;
	}
	fBufFree(fb);
	fclose(f);
	return ret;
}

static void obs_equal(const struct hm_pc_obs *a, const struct hm_pc_obs *b)
{
#define EQ(f) do { if (a->f != b->f) fail_msg("source %u family %u " #f ": expected %llu, decoded %llu", a->source, a->key.family, \
		(unsigned long long)a->f, (unsigned long long)b->f); } while (0)
	EQ(ts_ns); EQ(node_id); EQ(pkt_id); EQ(in_if); EQ(out_if); EQ(qdepth);
	EQ(sojourn_ns); EQ(tpl_id); EQ(obs_domain); EQ(present); EQ(source);
	EQ(point); EQ(ttl); EQ(tos); EQ(flags); EQ(length); EQ(srh_flags);
	EQ(srh_sl); EQ(key.family); EQ(key.proto); EQ(key.sport); EQ(key.dport);
#undef EQ
	assert_memory_equal(a->key.saddr, b->key.saddr, 16);
	assert_memory_equal(a->key.daddr, b->key.daddr, 16);
	assert_memory_equal(a->nexthop, b->nexthop, 16);
	assert_memory_equal(a->srh_active, b->srh_active, 16);
	assert_memory_equal(a, b, sizeof(*a));
}

/*
 * Find the Template Record @tid in the message and return the offset of
 * its first Field Specifier (RFC 7011 §3.4.1), or 0.
 */
static size_t find_template(const struct wire *w, __u16 tid, __u16 *nfields)
{
	size_t msg = 0, off, end;

	while (msg + 16 <= w->len) {
		end = msg + (w->buf[msg + 2] << 8 | w->buf[msg + 3]);
		if (end <= msg || end > w->len)
			return 0;
		for (off = msg + 16; off + 4 <= end; ) {
			__u16 set_id = w->buf[off] << 8 | w->buf[off + 1];
			__u16 set_len = w->buf[off + 2] << 8 | w->buf[off + 3];

			if (set_len < 4)
				return 0;
			/* The first Template Record of a Template Set (ID 2). */
			if (set_id == 2 && (w->buf[off + 4] << 8 | w->buf[off + 5]) == tid) {
				*nfields = w->buf[off + 6] << 8 | w->buf[off + 7];
				return off + 8;
			}
			off += set_len;
		}
		msg = end;
	}
	return 0;
}

static void every_template_round_trips_through_libfixbuf(void **state)
{
	static const __u16 tids[] = { HM_TID_PBT_V4, HM_TID_PBT_V6, HM_TID_PBT_V4_EXT,
		HM_TID_PBT_V6_EXT, HM_TID_DEX, HM_TID_OFLAG, HM_TID_INT };
	static const __u8 hdr[20] = { 0x45, 0, 0, 84 }, nd[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	fbInfoModel_t *m = hm_ipfix_model_new(TEST_PEN);
	struct hm_ipfix_var var = { 0 }, back;
	struct hm_pc_obs o, d;
	struct hm_ipfix_fields r;
	struct wire w;
	size_t i, f, off;
	__u16 ext, nf = 0;
	bool seen_pen;

	for (i = 0; i < sizeof(tids) / sizeof(tids[0]); i++) {
		obs_for(tids[i], &o);
		assert_int_equal(hm_ipfix_obs_tid(&o), tids[i]);
		memset(&var, 0, sizeof(var));
		var.hdr = hdr;
		var.hdr_len = sizeof(hdr);
		if (tids[i] == HM_TID_DEX) {
			var.node_data = nd;
			var.node_data_len = sizeof(nd);
			var.ioam_ns = 0x1234;
			var.trace_type = 0xf00000;
		}
		if (tids[i] == HM_TID_INT) {
			var.int_md = nd;
			var.int_md_len = sizeof(nd);
			var.int_md_bits = 0x0006;
		}
		export_one(m, &o, &var, &w);
		assert_true(w.len > 16);
		/* Message Header: version 10, domain (RFC 7011 §3.1). */
		assert_int_equal(w.buf[0] << 8 | w.buf[1], 10);
		assert_true((size_t)(w.buf[2] << 8 | w.buf[3]) <= w.len);
		assert_int_equal(ntohl(*(__u32 *)(w.buf + 12)), o.obs_domain);
		/* Every hopmark field has the enterprise bit and our PEN. */
		off = find_template(&w, tids[i], &nf);
		assert_true(off);
		seen_pen = false;
		for (f = 0; f < nf; f++) {
			__u16 id = w.buf[off] << 8 | w.buf[off + 1];

			if (id & 0x8000) {
				assert_int_equal(ntohl(*(__u32 *)(w.buf + off + 4)), TEST_PEN);
				seen_pen = true;
				off += 8;
			} else {
				off += 4;
			}
		}
		assert_true(seen_pen);

		assert_int_equal(collect_one(m, &w, &ext, &d, &back, &r), 0);
		assert_int_equal(ext, tids[i]);
		obs_equal(&o, &d);
		if (hm_ipfix_tpl_elems_of(tids[i]) & (1ULL << HM_E_HDR)) {
			assert_int_equal(back.hdr_len, sizeof(hdr));
			assert_memory_equal(back.hdr, hdr, sizeof(hdr));
		}
		if (tids[i] == HM_TID_DEX) {
			assert_int_equal(back.node_data_len, sizeof(nd));
			assert_memory_equal(back.node_data, nd, sizeof(nd));
			assert_int_equal(back.ioam_ns, 0x1234);
			assert_int_equal(back.trace_type, 0xf00000);
		}
		if (tids[i] == HM_TID_INT) {
			assert_int_equal(back.int_md_len, sizeof(nd));
			assert_int_equal(back.int_md_bits, 0x0006);
		}
	}
	fbInfoModelFree(m);
}

static void unknown_values_stay_unknown(void **state)
{
	fbInfoModel_t *m = hm_ipfix_model_new(HM_IPFIX_PEN_DEFAULT);
	struct hm_pc_obs o, d;
	struct hm_ipfix_fields r;
	struct wire w;
	__u16 ext;

	/* An ingress postcard: no egress interface, no queue depth. */
	obs_for(HM_TID_PBT_V6, &o);
	o.present = HM_PC_HAS_IN_IF | HM_PC_HAS_TTL;
	o.out_if = o.qdepth = 0;
	o.point = PBT_PT_INGRESS;
	hm_ipfix_fields_from_obs(&r, &o, NULL);
	assert_int_equal(r.qdepth, PBT_UNKNOWN32);
	assert_int_equal(r.out_if, 0);
	export_one(m, &o, NULL, &w);
	assert_int_equal(collect_one(m, &w, &ext, &d, NULL, &r), 0);
	obs_equal(&o, &d);

	/* A per-flow template that asked for TOS only. */
	obs_for(HM_TID_PBT_V4_EXT, &o);
	o.present &= ~(HM_PC_HAS_NEXTHOP | HM_PC_HAS_LENGTH | HM_PC_HAS_SOJOURN);
	memset(o.nexthop, 0, 16);
	o.length = o.sojourn_ns = 0;
	o.tos = 0;	/* TOS 0 is a value, and the template says it is valid */
	export_one(m, &o, NULL, &w);
	assert_int_equal(collect_one(m, &w, &ext, &d, NULL, &r), 0);
	assert_int_equal(r.tpl_fields, PBT_FLD_TOS);
	obs_equal(&o, &d);
	fbInfoModelFree(m);
}

static void foreign_records_are_not_postcards(void **state)
{
	static fbInfoElementSpec_t flow[] = {
		{ "sourceIPv4Address", 4, 0 }, { "destinationIPv4Address", 4, 0 },
		{ "packetDeltaCount", 8, 0 }, FB_IESPEC_NULL };
	fbInfoModel_t *m = hm_ipfix_model_new(HM_IPFIX_PEN_DEFAULT);
	fbTemplate_t *t = fbTemplateAlloc(m);
	struct hm_ipfix_fields r = { .ip_version = 4, .source = 1 };
	struct hm_pc_obs o;
	GError *err = NULL;

	assert_true(fbTemplateAppendSpecArray(t, flow, UINT32_MAX, &err));
	assert_int_equal(hm_ipfix_fields_to_obs(&r, hm_ipfix_tpl_elems(t), 1, &o, NULL), -ENOENT);
	fbTemplateFreeUnused(t);
	/* A hopmark template with a bad ipVersion or source. */
	r.ip_version = 5;
	assert_int_equal(hm_ipfix_fields_to_obs(&r, hm_ipfix_tpl_elems_of(HM_TID_INT), 1, &o, NULL),
			 -EINVAL);
	r.ip_version = 4;
	r.source = 9;
	assert_int_equal(hm_ipfix_fields_to_obs(&r, hm_ipfix_tpl_elems_of(HM_TID_INT), 1, &o, NULL),
			 -EINVAL);
	fbInfoModelFree(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_has_hopmark_elements_under_pen),
		cmocka_unit_test(iana_numbers_are_the_registry_ones),
		cmocka_unit_test(internal_templates_match_their_structs),
		cmocka_unit_test(ntp_time_round_trips_every_ns),
		cmocka_unit_test(every_template_round_trips_through_libfixbuf),
		cmocka_unit_test(unknown_values_stay_unknown),
		cmocka_unit_test(foreign_records_are_not_postcards),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
