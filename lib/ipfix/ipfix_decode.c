// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ipfix_decode.c - hopmark's IPFIX decoder (ipfix_decode.h), libc only.
 *
 * A template record is compiled once per definition: each field is
 * looked up by (enterprise number, element ID) in the schema's element
 * table, and the fields the schema knows become steps (skip N octets,
 * read M octets into element E); the unknown fixed-length fields between
 * them fold into the next step's skip. Decoding a record is then a walk
 * over the steps with one conversion per kind of element: an unsigned
 * integer of 1 to 8 octets (reduced-size encoding, RFC 7011 §6.2) widened
 * into its field, an address copied, a variable-length field (§7) kept
 * as a pointer into the message.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "ipfix/ipfix_decode.h"
#include "pbt/pbt_maps.h"

/* How an element is stored. */
enum conv {
	C_UINT,		/* unsigned, big-endian, 1..size octets (§6.2) -> host order */
	C_ADDR,		/* exactly size octets, copied (ipv6Address, §6.1.6) */
	C_ADDR4,	/* 4 octets -> host order (struct hm_ipfix_fields's IPv4) */
	C_TIME,		/* dateTimeNanoseconds: exactly 8 octets (§6.1.10) */
	C_VAR,		/* octetArray / string, any length (§7) -> a varbuf */
};

struct elem_def {
	__u8	enterprise;	/* 1: hopmark's PEN; 0: IANA */
	__u16	id;
	__u16	len;		/* in hopmark's templates */
	__u8	conv;
	__u8	size;		/* octets of the destination */
	__u16	off;		/* offset in the destination struct */
};

#define F(m)		offsetof(struct hm_ipfix_fields, m)
#define S(m)		sizeof(((struct hm_ipfix_fields *)0)->m)
#define IANA(id, len, conv, m)	{ 0, id, len, conv, S(m), F(m) }
#define HM(id, len, conv, m)	{ 1, id, len, conv, S(m), F(m) }

/* enum hm_ipfix_elem order: the order of hopmark's templates' fields. */
static const struct elem_def postcard_elems[HM_E_MAX] = {
	[HM_E_TS]	   = IANA(IPFIX_IE_OBSERVATION_TIME_NANOSECONDS, 8, C_TIME, ts_ntp),
	[HM_E_LENGTH]	   = IANA(IPFIX_IE_IP_TOTAL_LENGTH, 8, C_UINT, length),
	[HM_E_HDR]	   = IANA(IPFIX_IE_IP_HEADER_PACKET_SECTION, HM_IPFIX_VARLEN, C_VAR, hdr),
	[HM_E_NODE_DATA]   = HM(HM_IE_IOAM_NODE_DATA, HM_IPFIX_VARLEN, C_VAR, node_data),
	[HM_E_INT_MD]	   = HM(HM_IE_INT_METADATA, HM_IPFIX_VARLEN, C_VAR, int_md),
	[HM_E_SADDR6]	   = IANA(IPFIX_IE_SOURCE_IPV6_ADDRESS, 16, C_ADDR, saddr6),
	[HM_E_DADDR6]	   = IANA(IPFIX_IE_DESTINATION_IPV6_ADDRESS, 16, C_ADDR, daddr6),
	[HM_E_NEXTHOP6]	   = IANA(IPFIX_IE_IP_NEXT_HOP_IPV6_ADDRESS, 16, C_ADDR, nexthop6),
	[HM_E_SRH_ACTIVE]  = IANA(IPFIX_IE_SRH_ACTIVE_SEGMENT_IPV6, 16, C_ADDR, srh_active),
	[HM_E_SADDR4]	   = IANA(IPFIX_IE_SOURCE_IPV4_ADDRESS, 4, C_ADDR4, saddr4),
	[HM_E_DADDR4]	   = IANA(IPFIX_IE_DESTINATION_IPV4_ADDRESS, 4, C_ADDR4, daddr4),
	[HM_E_NEXTHOP4]	   = IANA(IPFIX_IE_IP_NEXT_HOP_IPV4_ADDRESS, 4, C_ADDR4, nexthop4),
	[HM_E_IN_IF]	   = IANA(IPFIX_IE_INGRESS_INTERFACE, 4, C_UINT, in_if),
	[HM_E_OUT_IF]	   = IANA(IPFIX_IE_EGRESS_INTERFACE, 4, C_UINT, out_if),
	[HM_E_NODE_ID]	   = HM(HM_IE_NODE_ID, 4, C_UINT, node_id),
	[HM_E_PKT_ID]	   = HM(HM_IE_PACKET_ID, 4, C_UINT, pkt_id),
	[HM_E_QDEPTH]	   = HM(HM_IE_QUEUE_DEPTH, 4, C_UINT, qdepth),
	[HM_E_TPL_ID]	   = HM(HM_IE_TEMPLATE_ID, 4, C_UINT, tpl_id),
	[HM_E_TPL_FIELDS]  = HM(HM_IE_TEMPLATE_FIELDS, 4, C_UINT, tpl_fields),
	[HM_E_SOJOURN]	   = HM(HM_IE_SOJOURN_NS, 4, C_UINT, sojourn_ns),
	[HM_E_TRACE_TYPE]  = HM(HM_IE_IOAM_TRACE_TYPE, 4, C_UINT, trace_type),
	[HM_E_SPORT]	   = IANA(IPFIX_IE_SOURCE_TRANSPORT_PORT, 2, C_UINT, sport),
	[HM_E_DPORT]	   = IANA(IPFIX_IE_DESTINATION_TRANSPORT_PORT, 2, C_UINT, dport),
	[HM_E_FLAGS]	   = HM(HM_IE_POSTCARD_FLAGS, 2, C_UINT, flags),
	[HM_E_IOAM_NS]	   = HM(HM_IE_IOAM_NAMESPACE, 2, C_UINT, ioam_ns),
	[HM_E_INT_MD_BITS] = HM(HM_IE_INT_REP_MD_BITS, 2, C_UINT, int_md_bits),
	[HM_E_PROTO]	   = IANA(IPFIX_IE_PROTOCOL_IDENTIFIER, 1, C_UINT, proto),
	[HM_E_TTL]	   = IANA(IPFIX_IE_IP_TTL, 1, C_UINT, ttl),
	[HM_E_TOS]	   = IANA(IPFIX_IE_IP_CLASS_OF_SERVICE, 1, C_UINT, tos),
	[HM_E_POINT]	   = HM(HM_IE_OBSERVATION_POINT, 1, C_UINT, point),
	[HM_E_SOURCE]	   = HM(HM_IE_POSTCARD_SOURCE, 1, C_UINT, source),
	[HM_E_ID_KIND]	   = HM(HM_IE_PACKET_ID_KIND, 1, C_UINT, id_kind),
	[HM_E_SRH_FLAGS]   = IANA(IPFIX_IE_SRH_FLAGS_IPV6, 1, C_UINT, srh_flags),
	[HM_E_SRH_SL]	   = IANA(IPFIX_IE_SRH_SEGMENTS_IPV6_LEFT, 1, C_UINT, srh_sl),
	[HM_E_DROP_REASON] = HM(HM_IE_DROP_REASON, 1, C_UINT, drop_reason),
	[HM_E_IP_VERSION]  = IANA(IPFIX_IE_IP_VERSION, 1, C_UINT, ip_version),
};

#undef F
#undef S
#define F(m)		offsetof(struct hm_ipfix_ie_type, m)
#define S(m)		sizeof(((struct hm_ipfix_ie_type *)0)->m)

/* RFC 5610 §3: the elements of a type record this decoder keeps. */
static const struct elem_def type_elems[HM_T_MAX] = {
	[HM_T_PEN]	 = IANA(IPFIX_IE_PRIVATE_ENTERPRISE_NUMBER, 4, C_UINT, pen),
	[HM_T_ID]	 = IANA(IPFIX_IE_INFORMATION_ELEMENT_ID, 2, C_UINT, id),
	[HM_T_TYPE]	 = IANA(IPFIX_IE_INFORMATION_ELEMENT_DATA_TYPE, 1, C_UINT, type),
	[HM_T_SEMANTICS] = IANA(IPFIX_IE_INFORMATION_ELEMENT_SEMANTICS, 1, C_UINT, semantics),
	[HM_T_UNITS]	 = IANA(IPFIX_IE_INFORMATION_ELEMENT_UNITS, 2, C_UINT, units),
	[HM_T_NAME]	 = IANA(IPFIX_IE_INFORMATION_ELEMENT_NAME, HM_IPFIX_VARLEN, C_VAR, name),
};

static const struct {
	const struct elem_def	*def;
	unsigned int		nr;
} schemas[HM_IPFIX_SCHEMA_MAX] = {
	[HM_IPFIX_SCHEMA_POSTCARD]	= { postcard_elems, HM_E_MAX },
	[HM_IPFIX_SCHEMA_IE_TYPE]	= { type_elems, HM_T_MAX },
};

#define E(x)	(1ULL << HM_E_##x)

/* The basic data set (seed 002): who, when, where, which packet. */
#define BASIC	(E(TS) | E(NODE_ID) | E(PKT_ID) | E(IN_IF) | E(OUT_IF) | \
		 E(QDEPTH) | E(SPORT) | E(DPORT) | E(FLAGS) | E(PROTO) | \
		 E(TTL) | E(POINT) | E(SOURCE) | E(ID_KIND))
#define V4	(E(SADDR4) | E(DADDR4))
#define V6	(E(SADDR6) | E(DADDR6))
/* What a per-flow template may add (PBT_FLD_*). */
#define EXT	(E(TPL_ID) | E(TPL_FIELDS) | E(TOS) | E(LENGTH) | E(HDR) | E(SOJOURN))
#define SRH	(E(SRH_FLAGS) | E(SRH_ACTIVE) | E(SRH_SL))

/* HM_IPFIX_TID_INTERNAL of ipfix_model.h (not included: it needs libfixbuf). */
#define TID_INTERNAL	0x7f00

/* The elements of each of hopmark's templates, in enum hm_ipfix_elem order. */
static const struct {
	__u16	tid;
	__u64	elems;
} tpl_elems[] = {
	{ HM_TID_PBT_V4,	BASIC | V4 },
	{ HM_TID_PBT_V6,	BASIC | V6 },
	{ HM_TID_PBT_V4_EXT,	BASIC | V4 | EXT | E(NEXTHOP4) },
	{ HM_TID_PBT_V6_EXT,	BASIC | V6 | EXT | E(NEXTHOP6) | SRH },
	{ HM_TID_DEX,		BASIC | V6 | E(LENGTH) | E(HDR) | E(IOAM_NS) |
				E(TRACE_TYPE) | E(NODE_DATA) },
	{ HM_TID_OFLAG,		BASIC | V6 | E(LENGTH) | E(HDR) | SRH },
	{ HM_TID_INT,		BASIC | V4 | V6 | E(IP_VERSION) | E(LENGTH) |
				E(HDR) | E(SOJOURN) | E(INT_MD_BITS) |
				E(INT_MD) | E(DROP_REASON) },
	{ TID_INTERNAL,		(1ULL << HM_E_MAX) - 1 },
};

__u64 hm_ipfix_tpl_elems_of(__u16 tid)
{
	size_t t;

	for (t = 0; t < sizeof(tpl_elems) / sizeof(tpl_elems[0]); t++)
		if (tpl_elems[t].tid == tid)
			return tpl_elems[t].elems;
	return 0;
}

__u16 hm_ipfix_elem_id(unsigned int e, int *enterprise, __u16 *len)
{
	if (e >= HM_E_MAX)
		return 0;
	*enterprise = postcard_elems[e].enterprise;
	*len = postcard_elems[e].len;
	return postcard_elems[e].id;
}

__u64 hm_ipfix_ns_to_ntp(__u64 ns)
{
	__u64 sec = ns / 1000000000ULL + HM_NTP_UNIX_OFFSET;
	__u64 frac = ((ns % 1000000000ULL) << 32) / 1000000000ULL;

	return (sec << 32) | frac;
}

__u64 hm_ipfix_ntp_to_ns(__u64 ntp)
{
	__u64 sec = ntp >> 32;
	__u64 frac = ntp & 0xffffffffULL;

	if (sec < HM_NTP_UNIX_OFFSET)
		return 0;
	return (sec - HM_NTP_UNIX_OFFSET) * 1000000000ULL +
	       ((frac * 1000000000ULL + (1ULL << 31)) >> 32);
}

/* --- templates ------------------------------------------------------- */

int hm_ipfix_tpl_scan(const __u8 *p, size_t len, __u16 set_id, struct hm_ipfix_tpl_info *info)
{
	size_t hdr = set_id == HM_IPFIX_SET_OPTIONS ? 6 : 4, off;
	__u32 hash = 2166136261U, min_len = 0, fixed = 0;
	__u16 f;

	if (len < 4)
		return -EBADMSG;
	memset(info, 0, sizeof(*info));
	info->tid = hm_ipfix_rd16(p);
	info->nr_fields = hm_ipfix_rd16(p + 2);
	if (!info->nr_fields) {
		info->len = 4;		/* §8.1 withdrawal */
		return 0;
	}
	if (len < hdr)
		return -EBADMSG;
	if (set_id == HM_IPFIX_SET_OPTIONS) {
		info->scope = hm_ipfix_rd16(p + 4);
		if (!info->scope || info->scope > info->nr_fields)
			return -EBADMSG;
	}
	if (info->tid < HM_IPFIX_MIN_DATA_SET)
		return -EBADMSG;
	off = hdr;
	for (f = 0; f < info->nr_fields; f++) {
		__u16 id, flen;

		if (len - off < 4)
			return -EBADMSG;
		id = hm_ipfix_rd16(p + off);
		flen = hm_ipfix_rd16(p + off + 2);
		off += 4;
		if (id & HM_IPFIX_ENTERPRISE_BIT) {
			if (len - off < 4)
				return -EBADMSG;
			off += 4;
		}
		if (flen == HM_IPFIX_VARLEN) {
			info->varlen = 1;
			min_len += 1;
		} else {
			min_len += flen;
			fixed += flen;
		}
	}
	/*
	 * Records of no octets cannot be told apart or counted (a decoder
	 * would loop on their Data Set): such a template is malformed.
	 */
	if (!info->varlen && !fixed)
		return -EBADMSG;
	for (f = 0; f < off; f++)
		hash = (hash ^ p[f]) * 16777619U;
	info->len = off;
	info->min_len = min_len;
	info->hash = hash;
	return 0;
}

static int elem_find(const struct elem_def *def, unsigned int nr, __u32 pen, __u32 ent,
		     __u16 id)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (def[i].id == id && (def[i].enterprise ? pen : 0) == ent)
			return i;
	return -1;
}

/* Whether a field of @flen octets can fill an element stored as @d. */
static int elem_len_ok(const struct elem_def *d, __u16 flen)
{
	switch (d->conv) {
	case C_UINT:
		return flen >= 1 && flen <= d->size;
	case C_ADDR:
	case C_ADDR4:
		return flen == d->size;
	case C_TIME:
		return flen == 8;
	case C_VAR:
		return 1;
	}
	return 0;
}

/* The fast layouts: hopmark's template @tid, every field known and in order. */
static int tpl_is_layout(const struct hm_ipfix_tpl *t, __u16 tid)
{
	__u64 want = hm_ipfix_tpl_elems_of(tid);
	unsigned int e, s = 0;

	if (t->elems != want || t->set_id != HM_IPFIX_SET_TEMPLATE)
		return 0;
	for (e = 0; e < HM_E_MAX; e++) {
		if (!(want & (1ULL << e)))
			continue;
		if (s >= t->nr_steps || t->steps[s].elem != e || t->steps[s].skip ||
		    t->steps[s].len != postcard_elems[e].len)
			return 0;
		s++;
	}
	return s == t->nr_steps;
}

static int fields_elem_schema(const __u8 *p, const struct hm_ipfix_tpl_info *info,
			      __u16 set_id, __u32 pen)
{
	size_t off = set_id == HM_IPFIX_SET_OPTIONS ? 6 : 4;
	unsigned int have = 0;
	__u16 f;

	if (set_id != HM_IPFIX_SET_OPTIONS)
		return HM_IPFIX_SCHEMA_POSTCARD;
	for (f = 0; f < info->nr_fields; f++) {
		__u16 id = hm_ipfix_rd16(p + off);
		__u32 ent = 0;

		off += 4;
		if (id & HM_IPFIX_ENTERPRISE_BIT) {
			ent = hm_ipfix_rd32(p + off);
			off += 4;
			id &= ~HM_IPFIX_ENTERPRISE_BIT;
		}
		if (ent)
			continue;
		if (id == IPFIX_IE_INFORMATION_ELEMENT_ID)
			have |= 1;
		else if (id == IPFIX_IE_PRIVATE_ENTERPRISE_NUMBER)
			have |= 2;
		else if (id == IPFIX_IE_INFORMATION_ELEMENT_NAME)
			have |= 4;
	}
	return have == 7 ? HM_IPFIX_SCHEMA_IE_TYPE : HM_IPFIX_SCHEMA_POSTCARD;
}

int hm_ipfix_tpl_compile(const __u8 *p, const struct hm_ipfix_tpl_info *info, __u16 set_id,
			 __u32 pen, struct hm_ipfix_tpl *t)
{
	size_t off = set_id == HM_IPFIX_SET_OPTIONS ? 6 : 4;
	const struct elem_def *def;
	__u32 skip = 0, rec_len = 0;
	unsigned int nr;
	__u16 f;

	memset(t, 0, sizeof(*t));
	t->tid = info->tid;
	t->set_id = set_id;
	t->nr_fields = info->nr_fields;
	t->scope = info->scope;
	t->min_len = info->min_len;
	t->schema = fields_elem_schema(p, info, set_id, pen);
	def = schemas[t->schema].def;
	nr = schemas[t->schema].nr;
	/* at most one step per field, and one for the unknown fields at the end */
	t->steps = calloc(info->nr_fields + 1, sizeof(*t->steps));
	if (!t->steps)
		return -ENOMEM;
	for (f = 0; f < info->nr_fields; f++) {
		__u16 id = hm_ipfix_rd16(p + off), flen = hm_ipfix_rd16(p + off + 2);
		__u32 ent = 0;
		int e;

		off += 4;
		if (id & HM_IPFIX_ENTERPRISE_BIT) {
			ent = hm_ipfix_rd32(p + off);
			off += 4;
			id &= ~HM_IPFIX_ENTERPRISE_BIT;
		}
		e = elem_find(def, nr, pen, ent, id);
		if (e >= 0 && (t->elems & (1ULL << e)))
			e = -1;		/* a repeat: the first one counts */
		if (e >= 0 && flen == HM_IPFIX_VARLEN && def[e].conv != C_VAR)
			e = -1;		/* a fixed-size type sent variable-length */
		if (e >= 0 && flen != HM_IPFIX_VARLEN && !elem_len_ok(&def[e], flen))
			e = -1;
		if (e < 0 && flen != HM_IPFIX_VARLEN) {
			skip += flen;
			rec_len += flen;
			continue;
		}
		t->steps[t->nr_steps].skip = skip;
		t->steps[t->nr_steps].len = flen;
		t->steps[t->nr_steps].elem = e < 0 ? nr : (unsigned int)e;
		t->nr_steps++;
		if (e >= 0)
			t->elems |= 1ULL << e;
		skip = 0;
		if (flen != HM_IPFIX_VARLEN)
			rec_len += flen;
	}
	if (skip) {
		t->steps[t->nr_steps].skip = skip;
		t->steps[t->nr_steps].len = 0;
		t->steps[t->nr_steps].elem = nr;
		t->nr_steps++;
	}
	t->rec_len = info->varlen ? 0 : rec_len;
	if (t->schema == HM_IPFIX_SCHEMA_POSTCARD) {
		if (tpl_is_layout(t, HM_TID_PBT_V4))
			t->fast = HM_IPFIX_FAST_PBT_V4;
		else if (tpl_is_layout(t, HM_TID_PBT_V6))
			t->fast = HM_IPFIX_FAST_PBT_V6;
	}
	return 0;
}

void hm_ipfix_tpl_release(struct hm_ipfix_tpl *t)
{
	free(t->steps);
	memset(t, 0, sizeof(*t));
}

/* --- records --------------------------------------------------------- */

long hm_ipfix_rec_next(const struct hm_ipfix_tpl *t, const __u8 *p, size_t len)
{
	size_t off = 0;
	__u32 s;

	if (t->rec_len)
		return len >= t->rec_len ? (long)t->rec_len : 0;
	if (len < t->min_len || !len)
		return 0;	/* §3.3.1 padding */
	for (s = 0; s < t->nr_steps; s++) {
		const struct hm_ipfix_step *st = &t->steps[s];
		size_t flen = st->len;

		if (len - off < st->skip)
			return -EBADMSG;
		off += st->skip;
		if (flen == HM_IPFIX_VARLEN) {
			/* §7: a length octet, or 255 and a 2-octet length */
			if (len - off < 1)
				return -EBADMSG;
			flen = p[off++];
			if (flen == 255) {
				if (len - off < 2)
					return -EBADMSG;
				flen = hm_ipfix_rd16(p + off);
				off += 2;
			}
		}
		if (len - off < flen)
			return -EBADMSG;
		off += flen;
	}
	return off;
}

static void step_store(const struct elem_def *d, __u8 *dst, const __u8 *p, size_t flen)
{
	__u8 *to = dst + d->off;
	__u64 v = 0;
	size_t i;

	switch (d->conv) {
	case C_UINT:
	case C_TIME:
		for (i = 0; i < flen; i++)
			v = v << 8 | p[i];
		switch (d->size) {
		case 1: *to = v; break;
		case 2: { __u16 w = v; memcpy(to, &w, 2); break; }
		case 4: { __u32 w = v; memcpy(to, &w, 4); break; }
		default: memcpy(to, &v, 8); break;
		}
		break;
	case C_ADDR4: {
		__u32 w = hm_ipfix_rd32(p);

		memcpy(to, &w, 4);
		break;
	}
	case C_ADDR:
		memcpy(to, p, d->size);
		break;
	case C_VAR: {
		struct hm_ipfix_varbuf vb = { .len = flen, .buf = p };

		memcpy(to, &vb, sizeof(vb));
		break;
	}
	}
}

/* The general path: every step of @t into @dst (a schema's struct). */
static void decode_steps(const struct hm_ipfix_tpl *t, const __u8 *p, void *dst)
{
	const struct elem_def *def = schemas[t->schema].def;
	unsigned int nr = schemas[t->schema].nr;
	__u32 s;

	for (s = 0; s < t->nr_steps; s++) {
		const struct hm_ipfix_step *st = &t->steps[s];
		size_t flen = st->len;

		p += st->skip;
		if (flen == HM_IPFIX_VARLEN) {
			flen = *p++;
			if (flen == 255) {
				flen = hm_ipfix_rd16(p);
				p += 2;
			}
		}
		if (st->elem < nr)
			step_store(&def[st->elem], dst, p, flen);
		p += flen;
	}
}

void hm_ipfix_decode_fields(const struct hm_ipfix_tpl *t, const __u8 *p,
			    struct hm_ipfix_fields *f)
{
	memset(f, 0, sizeof(*f));
	decode_steps(t, p, f);
}

void hm_ipfix_decode_ie_type(const struct hm_ipfix_tpl *t, const __u8 *p,
			     struct hm_ipfix_ie_type *ty)
{
	memset(ty, 0, sizeof(*ty));
	decode_steps(t, p, ty);
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

static void put_be32(__u8 *p, __u32 v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

static int is_zero(const __u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

int hm_ipfix_fields_to_obs(const struct hm_ipfix_fields *r, __u64 elems, __u32 obs_domain,
			   struct hm_pc_obs *o, struct hm_ipfix_var *var)
{
	int v4 = (elems & V4) == V4, v6 = (elems & V6) == V6;
	__u8 family;
	size_t i;

	memset(o, 0, sizeof(*o));
	if (var)
		memset(var, 0, sizeof(*var));
	if ((elems & (E(TS) | E(NODE_ID) | E(PKT_ID))) !=
	    (E(TS) | E(NODE_ID) | E(PKT_ID)) || (!v4 && !v6))
		return -ENOENT;
	if (elems & E(IP_VERSION))
		family = r->ip_version;
	else
		family = v6 ? 6 : 4;
	if ((family == 4 && !v4) || (family == 6 && !v6) ||
	    (family != 4 && family != 6))
		return -EINVAL;
	if (elems & E(SOURCE)) {
		if (r->source < HM_PC_SRC_PBT || r->source > HM_PC_SRC_INT_MX)
			return -EINVAL;
		o->source = r->source;
	} else {
		o->source = HM_PC_SRC_PBT;
	}

	o->ts_ns = hm_ipfix_ntp_to_ns(r->ts_ntp);
	o->node_id = r->node_id;
	o->pkt_id = r->pkt_id;
	o->obs_domain = obs_domain;
	o->tpl_id = (elems & E(TPL_ID)) ? r->tpl_id : 0;
	o->point = (elems & E(POINT)) ? r->point : 0;
	o->flags = (elems & E(FLAGS)) ? r->flags : 0;
	o->key.family = family;
	o->key.proto = (elems & E(PROTO)) ? r->proto : 0;
	o->key.sport = (elems & E(SPORT)) ? htons(r->sport) : 0;
	o->key.dport = (elems & E(DPORT)) ? htons(r->dport) : 0;
	if (family == 4) {
		put_be32(o->key.saddr, r->saddr4);
		put_be32(o->key.daddr, r->daddr4);
	} else {
		memcpy(o->key.saddr, r->saddr6, 16);
		memcpy(o->key.daddr, r->daddr6, 16);
	}

	if ((elems & E(IN_IF)) && r->in_if) {
		o->in_if = r->in_if;
		o->present |= HM_PC_HAS_IN_IF;
	}
	if ((elems & E(OUT_IF)) && r->out_if) {
		o->out_if = r->out_if;
		o->present |= HM_PC_HAS_OUT_IF;
	}
	if ((elems & E(QDEPTH)) && r->qdepth != PBT_UNKNOWN32) {
		o->qdepth = r->qdepth;
		o->present |= HM_PC_HAS_QDEPTH;
	}
	if (elems & E(TTL)) {
		o->ttl = r->ttl;
		o->present |= HM_PC_HAS_TTL;
	}

	if (elems & E(TPL_FIELDS)) {
		/* A per-flow template's record says which fields it filled. */
		__u32 fld = r->tpl_fields;

		for (i = 0; i < sizeof(fld_has) / sizeof(fld_has[0]); i++)
			if (fld & fld_has[i].fld)
				o->present |= fld_has[i].has;
		if (!(elems & (family == 4 ? E(NEXTHOP4) : E(NEXTHOP6))))
			o->present &= ~HM_PC_HAS_NEXTHOP;
		if (!(elems & E(TOS)))
			o->present &= ~HM_PC_HAS_TOS;
		if (!(elems & E(LENGTH)))
			o->present &= ~HM_PC_HAS_LENGTH;
		if ((elems & SRH) != SRH)
			o->present &= ~HM_PC_HAS_SRH;
		if (!(elems & E(SOJOURN)))
			o->present &= ~HM_PC_HAS_SOJOURN;
	} else {
		/* Any other template: what it has, unless it says unknown. */
		if (family == 4 && (elems & E(NEXTHOP4)) && r->nexthop4)
			o->present |= HM_PC_HAS_NEXTHOP;
		if (family == 6 && (elems & E(NEXTHOP6)) &&
		    !is_zero(r->nexthop6, 16))
			o->present |= HM_PC_HAS_NEXTHOP;
		if (elems & E(TOS))
			o->present |= HM_PC_HAS_TOS;
		if ((elems & E(LENGTH)) && r->length)
			o->present |= HM_PC_HAS_LENGTH;
		if ((elems & SRH) == SRH)
			o->present |= HM_PC_HAS_SRH;
		if ((elems & E(SOJOURN)) && r->sojourn_ns != PBT_UNKNOWN32)
			o->present |= HM_PC_HAS_SOJOURN;
	}
	if (o->present & HM_PC_HAS_NEXTHOP) {
		if (family == 4)
			put_be32(o->nexthop, r->nexthop4);
		else
			memcpy(o->nexthop, r->nexthop6, 16);
	}
	if (o->present & HM_PC_HAS_TOS)
		o->tos = r->tos;
	if (o->present & HM_PC_HAS_LENGTH)
		o->length = r->length > 0xffff ? 0xffff : r->length;
	if (o->present & HM_PC_HAS_SRH) {
		o->srh_flags = r->srh_flags;
		o->srh_sl = r->srh_sl;
		memcpy(o->srh_active, r->srh_active, 16);
	}
	if (o->present & HM_PC_HAS_SOJOURN)
		o->sojourn_ns = r->sojourn_ns;

	if (!var)
		return 0;
	if (elems & E(HDR)) {
		var->hdr = r->hdr.buf;
		var->hdr_len = r->hdr.len;
	}
	if (elems & E(NODE_DATA)) {
		var->node_data = r->node_data.buf;
		var->node_data_len = r->node_data.len;
	}
	if (elems & E(INT_MD)) {
		var->int_md = r->int_md.buf;
		var->int_md_len = r->int_md.len;
	}
	var->ioam_ns = (elems & E(IOAM_NS)) ? r->ioam_ns : 0;
	var->trace_type = (elems & E(TRACE_TYPE)) ? r->trace_type : 0;
	var->int_md_bits = (elems & E(INT_MD_BITS)) ? r->int_md_bits : 0;
	var->drop_reason = (elems & E(DROP_REASON)) ? r->drop_reason : 0;
	var->id_kind = (elems & E(ID_KIND)) ? r->id_kind : 0;
	return 0;
}

int hm_ipfix_decode_obs_general(const struct hm_ipfix_tpl *t, const __u8 *p, __u32 obs_domain,
				struct hm_pc_obs *o)
{
	struct hm_ipfix_fields f;

	hm_ipfix_decode_fields(t, p, &f);
	return hm_ipfix_fields_to_obs(&f, t->elems, obs_domain, o, NULL);
}

static inline __u64 rd64(const __u8 *p)
{
	return (__u64)hm_ipfix_rd32(p) << 32 | hm_ipfix_rd32(p + 4);
}

/*
 * The fast path: HM_TID_PBT_V4's or HM_TID_PBT_V6's layout (BASIC | V4 or
 * V6, enum hm_ipfix_elem order, hopmark's lengths), @a octets per
 * address. What hm_ipfix_fields_to_obs() makes of such a record: no
 * ipVersion (the family is the addresses'), no hopmarkTemplateFields and
 * none of the optional elements but the interfaces, queue depth and TTL.
 * Ports and addresses stay in network order, as the wire has them.
 */
static inline int decode_pbt(const __u8 *p, __u32 obs_domain, struct hm_pc_obs *o,
			     const unsigned int a)
{
	const __u8 *q = p + 8 + 2 * a;	/* after the time and addresses */
	__u8 source = q[29];
	__u32 v;

	if (source < HM_PC_SRC_PBT || source > HM_PC_SRC_INT_MX)
		return -EINVAL;
	memset(o, 0, sizeof(*o));
	o->source = source;
	o->ts_ns = hm_ipfix_ntp_to_ns(rd64(p));
	memcpy(o->key.saddr, p + 8, a);
	memcpy(o->key.daddr, p + 8 + a, a);
	o->key.family = a == 4 ? 4 : 6;
	v = hm_ipfix_rd32(q);
	if (v) {
		o->in_if = v;
		o->present |= HM_PC_HAS_IN_IF;
	}
	v = hm_ipfix_rd32(q + 4);
	if (v) {
		o->out_if = v;
		o->present |= HM_PC_HAS_OUT_IF;
	}
	o->node_id = hm_ipfix_rd32(q + 8);
	o->pkt_id = hm_ipfix_rd32(q + 12);
	v = hm_ipfix_rd32(q + 16);
	if (v != PBT_UNKNOWN32) {
		o->qdepth = v;
		o->present |= HM_PC_HAS_QDEPTH;
	}
	memcpy(&o->key.sport, q + 20, 2);
	memcpy(&o->key.dport, q + 22, 2);
	o->flags = hm_ipfix_rd16(q + 24);
	o->key.proto = q[26];
	o->ttl = q[27];
	o->present |= HM_PC_HAS_TTL;
	o->point = q[28];
	o->obs_domain = obs_domain;
	return 0;
}

int hm_ipfix_decode_obs(const struct hm_ipfix_tpl *t, const __u8 *p, __u32 obs_domain,
			struct hm_pc_obs *o)
{
	if (t->fast == HM_IPFIX_FAST_PBT_V4)
		return decode_pbt(p, obs_domain, o, 4);
	if (t->fast == HM_IPFIX_FAST_PBT_V6)
		return decode_pbt(p, obs_domain, o, 16);
	return hm_ipfix_decode_obs_general(t, p, obs_domain, o);
}
