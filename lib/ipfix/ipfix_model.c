// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ipfix_model.c - hopmark's IPFIX information model, its templates and
 * the mapping between records and struct hm_pc_obs (ipfix_model.h).
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>

#include "ipfix/ipfix_model.h"
#include "pbt/pbt_maps.h"

#define U_ENDIAN	FB_IE_F_ENDIAN

/*
 * The elements libfixbuf's model lacks. Semantics and units are RFC 7012
 * §3.2 / §3.3's (RFC 5610 exports them to collectors). The names and
 * numbers are the ones ipfix_ie.h lists and hopmark-ipfix.xml registers.
 */
static const struct hm_ipfix_ie_def ie_defs[] = {
	{ "srhFlagsIPv6", false, IPFIX_IE_SRH_FLAGS_IPV6, 1, FB_UINT_8,
	  U_ENDIAN | FB_IE_FLAGS,
	  "The 8-bit Flags field of the SRH (RFC 8754 section 2)" },
	{ "srhActiveSegmentIPv6", false, IPFIX_IE_SRH_ACTIVE_SEGMENT_IPV6, 16,
	  FB_IP6_ADDR, FB_IE_DEFAULT,
	  "The SRH segment the packet is forwarded to: its IPv6 Destination Address" },
	{ "srhSegmentsIPv6Left", false, IPFIX_IE_SRH_SEGMENTS_IPV6_LEFT, 1,
	  FB_UINT_8, U_ENDIAN | FB_IE_QUANTITY,
	  "The 8-bit Segments Left field of the SRH (RFC 8754 section 2)" },

	{ "hopmarkPacketId", true, HM_IE_PACKET_ID, 4, FB_UINT_32,
	  U_ENDIAN | FB_IE_IDENTIFIER,
	  "Identifier of the user packet, computed the same way at every node of the domain" },
	{ "hopmarkNodeId", true, HM_IE_NODE_ID, 4, FB_UINT_32,
	  U_ENDIAN | FB_IE_IDENTIFIER,
	  "Node ID of the node that made the postcard (IOAM node_id, RFC 9197)" },
	{ "hopmarkObservationPoint", true, HM_IE_OBSERVATION_POINT, 1, FB_UINT_8,
	  U_ENDIAN | FB_IE_IDENTIFIER,
	  "Where in the node the packet was seen: 1 ingress, 2 egress" },
	{ "hopmarkQueueDepthOctets", true, HM_IE_QUEUE_DEPTH, 4, FB_UINT_32,
	  U_ENDIAN | FB_IE_QUANTITY | FB_UNITS_OCTETS,
	  "Backlog of the egress queue when the packet was seen; 4294967295 unknown" },
	{ "hopmarkPostcardSource", true, HM_IE_POSTCARD_SOURCE, 1, FB_UINT_8,
	  U_ENDIAN | FB_IE_IDENTIFIER,
	  "What made the postcard: 1 PBT-M, 2 IOAM DEX, 3 SRH O-flag, 4 INT-XD, 5 INT-MX" },
	{ "hopmarkPostcardFlags", true, HM_IE_POSTCARD_FLAGS, 2, FB_UINT_16,
	  U_ENDIAN | FB_IE_FLAGS,
	  "Postcard flags: 1 ECN CE, 2 SRH present, 4 head node, 8 end node, 16 GSO packet" },
	{ "hopmarkPacketIdKind", true, HM_IE_PACKET_ID_KIND, 1, FB_UINT_8,
	  U_ENDIAN | FB_IE_IDENTIFIER,
	  "How hopmarkPacketId was computed: 0 hash of invariant octets" },
	{ "hopmarkFlowTemplateId", true, HM_IE_TEMPLATE_ID, 4, FB_UINT_32,
	  U_ENDIAN | FB_IE_IDENTIFIER,
	  "Per-flow template the node applied; 0 the basic data set" },
	{ "hopmarkSojournNanoseconds", true, HM_IE_SOJOURN_NS, 4, FB_UINT_32,
	  U_ENDIAN | FB_IE_QUANTITY | FB_UNITS_NANOSECONDS,
	  "Time the packet spent in the node, ingress to egress; 4294967295 unknown" },
	{ "hopmarkIoamNamespace", true, HM_IE_IOAM_NAMESPACE, 2, FB_UINT_16,
	  U_ENDIAN | FB_IE_IDENTIFIER,
	  "IOAM-Namespace of a Direct Export option (RFC 9326)" },
	{ "hopmarkIoamTraceType", true, HM_IE_IOAM_TRACE_TYPE, 4, FB_UINT_32,
	  U_ENDIAN | FB_IE_FLAGS,
	  "24-bit IOAM-Trace-Type of a Direct Export option (RFC 9326)" },
	{ "hopmarkIoamNodeData", true, HM_IE_IOAM_NODE_DATA, FB_IE_VARLEN,
	  FB_OCTET_ARRAY, FB_IE_DEFAULT,
	  "The node's IOAM data in trace layout (RFC 9197 section 4.4.2)" },
	{ "hopmarkIntRepMdBits", true, HM_IE_INT_REP_MD_BITS, 2, FB_UINT_16,
	  U_ENDIAN | FB_IE_FLAGS,
	  "RepMdBits of the INT Telemetry Report metadata that follows" },
	{ "hopmarkIntMetadata", true, HM_IE_INT_METADATA, FB_IE_VARLEN,
	  FB_OCTET_ARRAY, FB_IE_DEFAULT,
	  "The node's INT metadata in RepMdBits order, as in a Telemetry Report" },
	{ "hopmarkDropReason", true, HM_IE_DROP_REASON, 1, FB_UINT_8,
	  U_ENDIAN | FB_IE_IDENTIFIER,
	  "INT drop reason code of a dropped packet's report" },
	{ "hopmarkRecordsNotSent", true, HM_IE_EXPORT_LOST, 8, FB_UINT_64,
	  U_ENDIAN | FB_IE_TOTALCOUNTER,
	  "Postcard records the exporter counted and did not send, since it started" },
	{ "hopmarkTemplateFields", true, HM_IE_TEMPLATE_FIELDS, 4, FB_UINT_32,
	  U_ENDIAN | FB_IE_FLAGS,
	  "Per-flow template fields valid in the record: 1 next hop, 2 TOS, 4 length, 8 SRH, 16 header, 32 sojourn" },
};

const struct hm_ipfix_ie_def *hm_ipfix_ie_defs(size_t *n)
{
	*n = sizeof(ie_defs) / sizeof(ie_defs[0]);
	return ie_defs;
}

int hm_ipfix_model_add(fbInfoModel_t *model, __u32 pen)
{
	const fbInfoElement_t *have;
	fbInfoElement_t ie;
	size_t i;

	if (!pen)
		return -EINVAL;
	for (i = 0; i < sizeof(ie_defs) / sizeof(ie_defs[0]); i++) {
		const struct hm_ipfix_ie_def *d = &ie_defs[i];
		__u32 ent = d->enterprise ? pen : 0;

		have = fbInfoModelGetElementByName(model, d->name);
		if (have) {
			if (have->ent != ent || have->num != d->id)
				return -EINVAL;
			continue;
		}
		memset(&ie, 0, sizeof(ie));
		ie.ref.name = d->name;
		ie.ent = ent;
		ie.num = d->id;
		ie.len = d->len;
		ie.flags = d->flags;
		ie.type = d->type;
		ie.description = d->desc;
		fbInfoModelAddElement(model, &ie);
	}
	return 0;
}

fbInfoModel_t *hm_ipfix_model_new(__u32 pen)
{
	fbInfoModel_t *m;

	if (!pen)
		return NULL;
	m = fbInfoModelAlloc();
	if (hm_ipfix_model_add(m, pen)) {
		fbInfoModelFree(m);
		return NULL;
	}
	return m;
}

/*
 * Element names in enum hm_ipfix_elem order, with their length in struct
 * hm_ipfix_fields. The internal template is exactly this list plus the
 * padding, so that its layout is the struct's.
 */
static const fbInfoElementSpec_t elem_spec[HM_E_MAX] = {
	[HM_E_TS]		= { "observationTimeNanoseconds", 8, 0 },
	[HM_E_LENGTH]		= { "ipTotalLength", 8, 0 },
	[HM_E_HDR]		= { "ipHeaderPacketSection", FB_IE_VARLEN, 0 },
	[HM_E_NODE_DATA]	= { "hopmarkIoamNodeData", FB_IE_VARLEN, 0 },
	[HM_E_INT_MD]		= { "hopmarkIntMetadata", FB_IE_VARLEN, 0 },
	[HM_E_SADDR6]		= { "sourceIPv6Address", 16, 0 },
	[HM_E_DADDR6]		= { "destinationIPv6Address", 16, 0 },
	[HM_E_NEXTHOP6]		= { "ipNextHopIPv6Address", 16, 0 },
	[HM_E_SRH_ACTIVE]	= { "srhActiveSegmentIPv6", 16, 0 },
	[HM_E_SADDR4]		= { "sourceIPv4Address", 4, 0 },
	[HM_E_DADDR4]		= { "destinationIPv4Address", 4, 0 },
	[HM_E_NEXTHOP4]		= { "ipNextHopIPv4Address", 4, 0 },
	[HM_E_IN_IF]		= { "ingressInterface", 4, 0 },
	[HM_E_OUT_IF]		= { "egressInterface", 4, 0 },
	[HM_E_NODE_ID]		= { "hopmarkNodeId", 4, 0 },
	[HM_E_PKT_ID]		= { "hopmarkPacketId", 4, 0 },
	[HM_E_QDEPTH]		= { "hopmarkQueueDepthOctets", 4, 0 },
	[HM_E_TPL_ID]		= { "hopmarkFlowTemplateId", 4, 0 },
	[HM_E_TPL_FIELDS]	= { "hopmarkTemplateFields", 4, 0 },
	[HM_E_SOJOURN]		= { "hopmarkSojournNanoseconds", 4, 0 },
	[HM_E_TRACE_TYPE]	= { "hopmarkIoamTraceType", 4, 0 },
	[HM_E_SPORT]		= { "sourceTransportPort", 2, 0 },
	[HM_E_DPORT]		= { "destinationTransportPort", 2, 0 },
	[HM_E_FLAGS]		= { "hopmarkPostcardFlags", 2, 0 },
	[HM_E_IOAM_NS]		= { "hopmarkIoamNamespace", 2, 0 },
	[HM_E_INT_MD_BITS]	= { "hopmarkIntRepMdBits", 2, 0 },
	[HM_E_PROTO]		= { "protocolIdentifier", 1, 0 },
	[HM_E_TTL]		= { "ipTTL", 1, 0 },
	[HM_E_TOS]		= { "ipClassOfService", 1, 0 },
	[HM_E_POINT]		= { "hopmarkObservationPoint", 1, 0 },
	[HM_E_SOURCE]		= { "hopmarkPostcardSource", 1, 0 },
	[HM_E_ID_KIND]		= { "hopmarkPacketIdKind", 1, 0 },
	[HM_E_SRH_FLAGS]	= { "srhFlagsIPv6", 1, 0 },
	[HM_E_SRH_SL]		= { "srhSegmentsIPv6Left", 1, 0 },
	[HM_E_DROP_REASON]	= { "hopmarkDropReason", 1, 0 },
	[HM_E_IP_VERSION]	= { "ipVersion", 1, 0 },
};

/* hopmark's templates (ipfix_decode.c's hm_ipfix_tpl_elems_of() gives their elements). */
static const __u16 tpl_tids[] = {
	HM_TID_PBT_V4, HM_TID_PBT_V6, HM_TID_PBT_V4_EXT, HM_TID_PBT_V6_EXT,
	HM_TID_DEX, HM_TID_OFLAG, HM_TID_INT, HM_IPFIX_TID_INTERNAL,
};

/* Specs built once from elem_spec[] (static, so callers may keep them). */
#define TPL_N	(sizeof(tpl_tids) / sizeof(tpl_tids[0]))
static fbInfoElementSpec_t tpl_specs[TPL_N][HM_E_MAX + 2];
static bool tpl_specs_built;

static const fbInfoElementSpec_t stats_spec[] = {
	{ "observationDomainId", 4, 0 },
	{ "paddingOctets", 4, 0 },
	{ "hopmarkRecordsNotSent", 8, 0 },
	{ "exportedMessageTotalCount", 8, 0 },
	{ "exportedFlowRecordTotalCount", 8, 0 },
	FB_IESPEC_NULL
};

/* The wire form leaves the padding out. */
static const fbInfoElementSpec_t stats_wire_spec[] = {
	{ "observationDomainId", 4, 0 },
	{ "hopmarkRecordsNotSent", 8, 0 },
	{ "exportedMessageTotalCount", 8, 0 },
	{ "exportedFlowRecordTotalCount", 8, 0 },
	FB_IESPEC_NULL
};

static void build_specs(void)
{
	size_t t, n;
	int e;

	if (tpl_specs_built)
		return;
	for (t = 0; t < TPL_N; t++) {
		__u64 elems = hm_ipfix_tpl_elems_of(tpl_tids[t]);

		n = 0;
		for (e = 0; e < HM_E_MAX; e++)
			if (elems & (1ULL << e))
				tpl_specs[t][n++] = elem_spec[e];
		if (tpl_tids[t] == HM_IPFIX_TID_INTERNAL)
			tpl_specs[t][n++] = (fbInfoElementSpec_t){ "paddingOctets", 4, 0 };
		tpl_specs[t][n] = (fbInfoElementSpec_t)FB_IESPEC_NULL;
	}
	tpl_specs_built = true;
}

const fbInfoElementSpec_t *hm_ipfix_tpl_spec(__u16 tid)
{
	size_t t;

	if (tid == HM_TID_STATS)
		return stats_wire_spec;
	if (tid == HM_IPFIX_TID_STATS_INTERNAL)
		return stats_spec;
	build_specs();
	for (t = 0; t < TPL_N; t++)
		if (tpl_tids[t] == tid)
			return tpl_specs[t];
	return NULL;
}

fbTemplate_t *hm_ipfix_tpl_new(fbInfoModel_t *model, __u16 tid, GError **err)
{
	const fbInfoElementSpec_t *spec = hm_ipfix_tpl_spec(tid);
	fbTemplate_t *t;

	if (!spec) {
		g_set_error(err, FB_ERROR_DOMAIN, FB_ERROR_TMPL,
			    "no hopmark template %u", tid);
		return NULL;
	}
	t = fbTemplateAlloc(model);
	if (!fbTemplateAppendSpecArray(t, (fbInfoElementSpec_t *)spec,
				       UINT32_MAX, err)) {
		fbTemplateFreeUnused(t);
		return NULL;
	}
	if (tid == HM_TID_STATS || tid == HM_IPFIX_TID_STATS_INTERNAL)
		fbTemplateSetOptionsScope(t, 1);
	return t;
}

__u64 hm_ipfix_tpl_elems(const fbTemplate_t *tmpl)
{
	__u64 elems = 0;
	int e;

	for (e = 0; e < HM_E_MAX; e++)
		if (fbTemplateContainsElementByName((fbTemplate_t *)tmpl,
				(fbInfoElementSpec_t *)&elem_spec[e]))
			elems |= 1ULL << e;
	return elems;
}

__u16 hm_ipfix_obs_tid(const struct hm_pc_obs *o)
{
	switch (o->source) {
	case HM_PC_SRC_PBT:
		if (o->key.family == 4)
			return o->tpl_id ? HM_TID_PBT_V4_EXT : HM_TID_PBT_V4;
		if (o->key.family == 6)
			return o->tpl_id ? HM_TID_PBT_V6_EXT : HM_TID_PBT_V6;
		return 0;
	case HM_PC_SRC_DEX:
		return o->key.family == 6 ? HM_TID_DEX : 0;
	case HM_PC_SRC_OFLAG:
		return o->key.family == 6 ? HM_TID_OFLAG : 0;
	case HM_PC_SRC_INT_XD:
	case HM_PC_SRC_INT_MX:
		return (o->key.family == 4 || o->key.family == 6) ? HM_TID_INT : 0;
	}
	return 0;
}

/* PBT_FLD_* <-> HM_PC_HAS_* (PBT_FLD_HEADER has no bit: it is @var's). */
static const struct {
	__u32	fld;
	__u32	has;
} fld_has[] = {
	{ PBT_FLD_NEXTHOP,	HM_PC_HAS_NEXTHOP },
	{ PBT_FLD_TOS,		HM_PC_HAS_TOS },
	{ PBT_FLD_LENGTH,	HM_PC_HAS_LENGTH },
	{ PBT_FLD_SRH,		HM_PC_HAS_SRH },
	{ PBT_FLD_SOJOURN,	HM_PC_HAS_SOJOURN },
};

static __u32 get_be32(const __u8 *p)
{
	__u32 v;

	memcpy(&v, p, 4);
	return ntohl(v);
}

void hm_ipfix_fields_from_obs(struct hm_ipfix_fields *r, const struct hm_pc_obs *o,
			      const struct hm_ipfix_var *var)
{
	__u32 has = o->present;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->ts_ntp = hm_ipfix_ns_to_ntp(o->ts_ns);
	r->node_id = o->node_id;
	r->pkt_id = o->pkt_id;
	r->in_if = (has & HM_PC_HAS_IN_IF) ? o->in_if : 0;
	r->out_if = (has & HM_PC_HAS_OUT_IF) ? o->out_if : 0;
	r->qdepth = (has & HM_PC_HAS_QDEPTH) ? o->qdepth : PBT_UNKNOWN32;
	r->sojourn_ns = (has & HM_PC_HAS_SOJOURN) ? o->sojourn_ns : PBT_UNKNOWN32;
	r->tpl_id = o->tpl_id;
	r->flags = o->flags;
	r->point = o->point;
	r->source = o->source;
	r->ttl = (has & HM_PC_HAS_TTL) ? o->ttl : 0;
	r->tos = (has & HM_PC_HAS_TOS) ? o->tos : 0;
	r->length = (has & HM_PC_HAS_LENGTH) ? o->length : 0;
	r->proto = o->key.proto;
	r->sport = ntohs(o->key.sport);
	r->dport = ntohs(o->key.dport);
	r->ip_version = o->key.family;
	if (o->key.family == 4) {
		r->saddr4 = get_be32(o->key.saddr);
		r->daddr4 = get_be32(o->key.daddr);
		if (has & HM_PC_HAS_NEXTHOP)
			r->nexthop4 = get_be32(o->nexthop);
	} else {
		memcpy(r->saddr6, o->key.saddr, 16);
		memcpy(r->daddr6, o->key.daddr, 16);
		if (has & HM_PC_HAS_NEXTHOP)
			memcpy(r->nexthop6, o->nexthop, 16);
	}
	if (has & HM_PC_HAS_SRH) {
		r->srh_flags = o->srh_flags;
		r->srh_sl = o->srh_sl;
		memcpy(r->srh_active, o->srh_active, 16);
	}
	for (i = 0; i < sizeof(fld_has) / sizeof(fld_has[0]); i++)
		if (has & fld_has[i].has)
			r->tpl_fields |= fld_has[i].fld;
	if (!var)
		return;
	if (var->hdr && var->hdr_len) {
		r->hdr.buf = var->hdr;
		r->hdr.len = var->hdr_len;
		r->tpl_fields |= PBT_FLD_HEADER;
	}
	if (var->node_data && var->node_data_len) {
		r->node_data.buf = var->node_data;
		r->node_data.len = var->node_data_len;
	}
	if (var->int_md && var->int_md_len) {
		r->int_md.buf = var->int_md;
		r->int_md.len = var->int_md_len;
	}
	r->ioam_ns = var->ioam_ns;
	r->trace_type = var->trace_type;
	r->int_md_bits = var->int_md_bits;
	r->drop_reason = var->drop_reason;
	r->id_kind = var->id_kind;
}

/*
 * libfixbuf reads and writes the internal template's records as struct
 * hm_ipfix_fields: its varbufs must be fbVarfield_t's octets.
 */
_Static_assert(sizeof(fbVarfield_t) == sizeof(struct hm_ipfix_varbuf) &&
	       offsetof(fbVarfield_t, len) == offsetof(struct hm_ipfix_varbuf, len) &&
	       offsetof(fbVarfield_t, buf) == offsetof(struct hm_ipfix_varbuf, buf), "varfield");
