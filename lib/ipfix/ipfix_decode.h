/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ipfix_decode.h - hopmark's own IPFIX decoder (RFC 7011), libc only: the
 * Message and Set headers (§3.1, §3.3.2), Template and Options Template
 * records with their withdrawals (§3.4.1, §3.4.2, §8.1), and Data Records
 * decoded through a template compiled once per definition into a list of
 * steps (octets to skip, octets to read, destination field). It handles
 * every template, not only hopmark's: any element order, the enterprise
 * bit (§3.2), reduced-size encoding of unsigned integers (§6.2) and
 * variable-length elements (§7). Elements it does not know are skipped.
 *
 * Two destinations ("schemas") are defined:
 *  - %HM_IPFIX_SCHEMA_POSTCARD: struct hm_ipfix_fields, hopmark's
 *    postcard elements (enum hm_ipfix_elem), which
 *    hm_ipfix_fields_to_obs() turns into a struct hm_pc_obs;
 *  - %HM_IPFIX_SCHEMA_IE_TYPE: struct hm_ipfix_ie_type, an RFC 5610
 *    Information Element type record (the names of enterprise elements).
 *
 * A template whose layout is exactly one that hopmark's exporter sends
 * (lib/ipfix/ipfix_model.h, HM_TID_PBT_V4 / HM_TID_PBT_V6, whatever its
 * Template ID) also gets a fast path: hm_ipfix_decode_obs() then reads
 * the record at fixed offsets straight into the postcard. It gives what
 * the general path (hm_ipfix_decode_fields() + hm_ipfix_fields_to_obs())
 * gives; the unit tests check that on every test message.
 *
 * The collector (collector/ipfix_in.c), the fuzz harness (fuzz/) and the
 * benchmark (bench/pc_bench.c) use this code. The exporter
 * (ipfix_export.c) stays on libfixbuf, whose internal template's records
 * are struct hm_ipfix_fields too (hm_ipfix_fields_from_obs()).
 */
#ifndef __HOPMARK_IPFIX_DECODE_H
#define __HOPMARK_IPFIX_DECODE_H

#include <stddef.h>
#include <linux/types.h>

#include "ipfix/ipfix_ie.h"
#include "postcard/pc_obs.h"

/* RFC 7011 §3.1, §3.3.2, §3.4: fixed numbers of the format. */
#define HM_IPFIX_VERSION	10
#define HM_IPFIX_MSG_HDR_LEN	16
#define HM_IPFIX_SET_HDR_LEN	4
#define HM_IPFIX_SET_TEMPLATE	2
#define HM_IPFIX_SET_OPTIONS	3
#define HM_IPFIX_MIN_DATA_SET	256
#define HM_IPFIX_VARLEN		65535	/* Field Length of a variable-length element (§7) */
#define HM_IPFIX_ENTERPRISE_BIT	0x8000	/* §3.2 */

/* Seconds from the NTP era 0 epoch (1900) to the POSIX epoch (1970). */
#define HM_NTP_UNIX_OFFSET	2208988800ULL

/* RFC 5610 §3 (IANA numbers) of the type records hopmark's exporter sends. */
#define IPFIX_IE_INFORMATION_ELEMENT_ID		303
#define IPFIX_IE_INFORMATION_ELEMENT_DATA_TYPE	339
#define IPFIX_IE_INFORMATION_ELEMENT_NAME	341
#define IPFIX_IE_INFORMATION_ELEMENT_SEMANTICS	344
#define IPFIX_IE_INFORMATION_ELEMENT_UNITS	345
#define IPFIX_IE_PRIVATE_ENTERPRISE_NUMBER	346

/* One bit per element of the model (hm_ipfix_tpl_elems_of(), HM_E_*). */
enum hm_ipfix_elem {
	HM_E_TS, HM_E_LENGTH, HM_E_HDR, HM_E_NODE_DATA, HM_E_INT_MD,
	HM_E_SADDR6, HM_E_DADDR6, HM_E_NEXTHOP6, HM_E_SRH_ACTIVE,
	HM_E_SADDR4, HM_E_DADDR4, HM_E_NEXTHOP4, HM_E_IN_IF, HM_E_OUT_IF,
	HM_E_NODE_ID, HM_E_PKT_ID, HM_E_QDEPTH, HM_E_TPL_ID, HM_E_TPL_FIELDS,
	HM_E_SOJOURN, HM_E_TRACE_TYPE, HM_E_SPORT, HM_E_DPORT, HM_E_FLAGS,
	HM_E_IOAM_NS, HM_E_INT_MD_BITS, HM_E_PROTO, HM_E_TTL, HM_E_TOS,
	HM_E_POINT, HM_E_SOURCE, HM_E_ID_KIND, HM_E_SRH_FLAGS, HM_E_SRH_SL,
	HM_E_DROP_REASON, HM_E_IP_VERSION,
	HM_E_MAX,
};

/* The elements of an RFC 5610 type record (HM_IPFIX_SCHEMA_IE_TYPE). */
enum hm_ipfix_type_elem {
	HM_T_PEN, HM_T_ID, HM_T_TYPE, HM_T_SEMANTICS, HM_T_UNITS, HM_T_NAME,
	HM_T_MAX,
};

/**
 * enum hm_ipfix_schema - what a template's records are decoded into
 * @HM_IPFIX_SCHEMA_POSTCARD:	struct hm_ipfix_fields (postcards)
 * @HM_IPFIX_SCHEMA_IE_TYPE:	struct hm_ipfix_ie_type (RFC 5610 records)
 * @HM_IPFIX_SCHEMA_MAX:	number of schemas
 */
enum hm_ipfix_schema {
	HM_IPFIX_SCHEMA_POSTCARD,
	HM_IPFIX_SCHEMA_IE_TYPE,
	HM_IPFIX_SCHEMA_MAX,
};

/**
 * struct hm_ipfix_varbuf - a variable-length element's octets (§7)
 * @len:	octets at @buf
 * @buf:	the octets, inside the message (borrowed)
 *
 * The layout of libfixbuf's fbVarfield_t, so that libfixbuf reads and
 * writes struct hm_ipfix_fields as the internal template's records
 * (ipfix_model.c checks it at compile time).
 */
struct hm_ipfix_varbuf {
	size_t		len;
	const __u8	*buf;
};

/**
 * struct hm_ipfix_fields - one postcard Data Record, element by element
 * @ts_ntp:	observationTimeNanoseconds, as libfixbuf holds it: NTP
 *		Timestamp format, seconds since 1900 in the high 32 bits and
 *		a binary fraction below (RFC 7011 §6.1.10); host order
 * @length:	ipTotalLength, octets
 * @hdr:	ipHeaderPacketSection: the packet from its IP header
 * @node_data:	hopmarkIoamNodeData: the node's IOAM data (trace layout,
 *		RFC 9197 §4.4.2), network order
 * @int_md:	hopmarkIntMetadata: the node's INT metadata in RepMdBits
 *		order, network order
 * @saddr6:	sourceIPv6Address, network order
 * @daddr6:	destinationIPv6Address
 * @nexthop6:	ipNextHopIPv6Address
 * @srh_active:	srhActiveSegmentIPv6
 * @saddr4:	sourceIPv4Address, host order (libfixbuf's ipv4Address)
 * @daddr4:	destinationIPv4Address, host order
 * @nexthop4:	ipNextHopIPv4Address, host order
 * @in_if:	ingressInterface (0: unknown)
 * @out_if:	egressInterface (0: unknown)
 * @node_id:	hopmarkNodeId
 * @pkt_id:	hopmarkPacketId
 * @qdepth:	hopmarkQueueDepthOctets (%PBT_UNKNOWN32: unknown)
 * @tpl_id:	hopmarkFlowTemplateId (0: the basic set)
 * @tpl_fields:	hopmarkTemplateFields: PBT_FLD_* valid in this record
 * @sojourn_ns:	hopmarkSojournNanoseconds (%PBT_UNKNOWN32: unknown)
 * @trace_type:	hopmarkIoamTraceType, 24 bits
 * @sport:	sourceTransportPort, host order
 * @dport:	destinationTransportPort, host order
 * @flags:	hopmarkPostcardFlags: PBT_REC_F_*
 * @ioam_ns:	hopmarkIoamNamespace
 * @int_md_bits: hopmarkIntRepMdBits
 * @proto:	protocolIdentifier
 * @ttl:	ipTTL (IPv4 TTL or IPv6 Hop Limit)
 * @tos:	ipClassOfService
 * @point:	hopmarkObservationPoint: PBT_PT_*
 * @source:	hopmarkPostcardSource: HM_PC_SRC_*
 * @id_kind:	hopmarkPacketIdKind: PBT_ID_*
 * @srh_flags:	srhFlagsIPv6
 * @srh_sl:	srhSegmentsIPv6Left
 * @drop_reason: hopmarkDropReason
 * @ip_version:	ipVersion: 4 or 6
 * @pad:	paddingOctets
 *
 * The C layout of the internal template %HM_IPFIX_TID_INTERNAL
 * (lib/ipfix/ipfix_model.h): the exporter has libfixbuf transcode it into
 * each external template, and hm_ipfix_decode_fields() fills it from any
 * template. Unsigned integers are in host order, widened from a
 * reduced-size encoding (§6.2); an element the template lacks is 0.
 */
struct hm_ipfix_fields {
	__u64			ts_ntp;
	__u64			length;
	struct hm_ipfix_varbuf	hdr;
	struct hm_ipfix_varbuf	node_data;
	struct hm_ipfix_varbuf	int_md;
	__u8			saddr6[16];
	__u8			daddr6[16];
	__u8			nexthop6[16];
	__u8			srh_active[16];
	__u32			saddr4;
	__u32			daddr4;
	__u32			nexthop4;
	__u32			in_if;
	__u32			out_if;
	__u32			node_id;
	__u32			pkt_id;
	__u32			qdepth;
	__u32			tpl_id;
	__u32			tpl_fields;
	__u32			sojourn_ns;
	__u32			trace_type;
	__u16			sport;
	__u16			dport;
	__u16			flags;
	__u16			ioam_ns;
	__u16			int_md_bits;
	__u8			proto;
	__u8			ttl;
	__u8			tos;
	__u8			point;
	__u8			source;
	__u8			id_kind;
	__u8			srh_flags;
	__u8			srh_sl;
	__u8			drop_reason;
	__u8			ip_version;
	__u8			pad[4];
};

/**
 * struct hm_ipfix_var - the variable-length parts of a record
 * @hdr:		ipHeaderPacketSection octets (NULL: none)
 * @hdr_len:		octets at @hdr
 * @node_data:		hopmarkIoamNodeData octets
 * @node_data_len:	octets at @node_data
 * @int_md:		hopmarkIntMetadata octets
 * @int_md_len:		octets at @int_md
 * @ioam_ns:		hopmarkIoamNamespace (DEX)
 * @trace_type:		hopmarkIoamTraceType (DEX)
 * @int_md_bits:	hopmarkIntRepMdBits (INT)
 * @drop_reason:	hopmarkDropReason (INT)
 * @id_kind:		hopmarkPacketIdKind (PBT-M: PBT_ID_*)
 *
 * The fields of a postcard that struct hm_pc_obs, being fixed-size and
 * pointer-free, does not carry. The pointers are borrowed: they must
 * stay valid until the record is appended (exporter) or while the
 * message is (decoder).
 */
struct hm_ipfix_var {
	const __u8	*hdr;
	size_t		hdr_len;
	const __u8	*node_data;
	size_t		node_data_len;
	const __u8	*int_md;
	size_t		int_md_len;
	__u16		ioam_ns;
	__u32		trace_type;
	__u16		int_md_bits;
	__u8		drop_reason;
	__u8		id_kind;
};

/**
 * struct hm_ipfix_ie_type - one RFC 5610 Information Element type record
 * @pen:	privateEnterpriseNumber (346) of the element described
 * @id:		informationElementId (303)
 * @type:	informationElementDataType (339), RFC 7012 §3.1's number
 * @semantics:	informationElementSemantics (344)
 * @units:	informationElementUnits (345)
 * @name:	informationElementName (341), not NUL-terminated
 */
struct hm_ipfix_ie_type {
	__u32			pen;
	__u16			id;
	__u8			type;
	__u8			semantics;
	__u16			units;
	struct hm_ipfix_varbuf	name;
};

/**
 * struct hm_ipfix_step - one step of a compiled template
 * @skip:	octets of unknown fixed-length fields before this field
 * @len:	Field Length on the wire (%HM_IPFIX_VARLEN: variable, §7)
 * @elem:	the schema's element it fills; the schema's MAX: none (an
 *		unknown variable-length field, or the unknown fields after
 *		the last known one, @len 0)
 */
struct hm_ipfix_step {
	__u32	skip;
	__u16	len;
	__u8	elem;
};

/* hm_ipfix_tpl.fast */
#define HM_IPFIX_FAST_NONE	0
#define HM_IPFIX_FAST_PBT_V4	1	/* HM_TID_PBT_V4's layout */
#define HM_IPFIX_FAST_PBT_V6	2	/* HM_TID_PBT_V6's layout */

/**
 * struct hm_ipfix_tpl - a template compiled for decoding (hm_ipfix_tpl_compile())
 * @tid:	Template ID (256 and up)
 * @set_id:	%HM_IPFIX_SET_TEMPLATE or %HM_IPFIX_SET_OPTIONS
 * @nr_fields:	Field Count
 * @scope:	Scope Field Count (Options Templates; 0 otherwise)
 * @schema:	enum hm_ipfix_schema its records are decoded into
 * @fast:	HM_IPFIX_FAST_*: a layout with a fast path
 * @rec_len:	octets of every record; 0 when variable-length fields vary it
 * @min_len:	octets of the shortest record (each variable-length field
 *		with its 1-octet length prefix and no data)
 * @elems:	bit (1 << element) for each of the schema's elements present
 * @nr_steps:	steps at @steps
 * @steps:	the decoding steps, in field order (allocated; hm_ipfix_tpl_release())
 *
 * A field repeated in a template fills its element from its first
 * occurrence; later ones are skipped. A field whose length its element
 * cannot take (an address of other than 4 or 16 octets, a time of other
 * than 8, an unsigned integer wider than its type, a fixed-size type
 * sent as variable-length) is skipped too: the element is then absent.
 */
struct hm_ipfix_tpl {
	__u16			tid;
	__u16			set_id;
	__u16			nr_fields;
	__u16			scope;
	__u8			schema;
	__u8			fast;
	__u32			rec_len;
	__u32			min_len;
	__u64			elems;
	__u32			nr_steps;
	struct hm_ipfix_step	*steps;
};

/**
 * struct hm_ipfix_tpl_info - what hm_ipfix_tpl_scan() found in a record
 * @tid:	Template ID
 * @nr_fields:	Field Count (0: a withdrawal, §8.1)
 * @scope:	Scope Field Count (Options Template records)
 * @len:	octets of the template record
 * @min_len:	as struct hm_ipfix_tpl's
 * @varlen:	1 when a field is variable-length
 * @hash:	FNV-1a of the record's octets: tells a refresh (the same
 *		definition, §8.1) from a template changed under its ID
 */
struct hm_ipfix_tpl_info {
	__u16	tid;
	__u16	nr_fields;
	__u16	scope;
	__u32	len;
	__u32	min_len;
	__u8	varlen;
	__u32	hash;
};

/**
 * hm_ipfix_rd16() - a big-endian (network order) 16-bit field
 * @p: its first octet
 *
 * Return: the value, host order.
 */
static inline __u16 hm_ipfix_rd16(const __u8 *p)
{
	return (__u16)p[0] << 8 | p[1];
}

/**
 * hm_ipfix_rd32() - a big-endian 32-bit field
 * @p: its first octet
 *
 * Return: the value, host order.
 */
static inline __u32 hm_ipfix_rd32(const __u8 *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

/**
 * hm_ipfix_tpl_scan() - check one Template or Options Template record
 * @p:		the record's first octet (inside a Set, after its header)
 * @len:	octets left in the Set from @p
 * @set_id:	%HM_IPFIX_SET_TEMPLATE (§3.4.1) or %HM_IPFIX_SET_OPTIONS (§3.4.2)
 * @info:	filled with what the record says
 *
 * A withdrawal (Field Count 0, §8.1) is 4 octets. Otherwise the record
 * must fit in @len with every field specifier (4 octets, 8 with the
 * enterprise bit, §3.2), its Template ID must be 256 or more, an Options
 * Template's Scope Field Count must be 1 to Field Count (§3.4.2.1), and
 * its records must have at least one octet (a record of none cannot be
 * told apart or counted).
 *
 * Return: 0, or -EBADMSG for a malformed record (@info then undefined).
 */
int hm_ipfix_tpl_scan(const __u8 *p, size_t len, __u16 set_id, struct hm_ipfix_tpl_info *info);

/**
 * hm_ipfix_tpl_compile() - compile a template record for decoding
 * @p:		the record, as hm_ipfix_tpl_scan() accepted it
 * @info:	hm_ipfix_tpl_scan()'s result for @p (not a withdrawal)
 * @set_id:	the Set ID it came in
 * @pen:	Private Enterprise Number of hopmark's elements (HM_IE_*)
 * @t:		filled (free the old @t with hm_ipfix_tpl_release() first)
 *
 * Chooses the schema: %HM_IPFIX_SCHEMA_IE_TYPE for an Options Template
 * holding informationElementId, privateEnterpriseNumber and
 * informationElementName (RFC 5610 §3.9), else %HM_IPFIX_SCHEMA_POSTCARD.
 * Elements are matched by (enterprise number, element ID): IANA ones
 * under PEN 0, hopmark's under @pen.
 *
 * Return: 0, or -ENOMEM.
 */
int hm_ipfix_tpl_compile(const __u8 *p, const struct hm_ipfix_tpl_info *info, __u16 set_id,
			 __u32 pen, struct hm_ipfix_tpl *t);

/**
 * hm_ipfix_tpl_release() - free a compiled template's steps
 * @t: template (zeroed; may be all zero already)
 */
void hm_ipfix_tpl_release(struct hm_ipfix_tpl *t);

/**
 * hm_ipfix_rec_next() - the octets of the next Data Record in a Set
 * @t:		its template
 * @p:		the record's first octet
 * @len:	octets left in the Data Set from @p
 *
 * RFC 7011 §3.3.1: octets after the last record that are fewer than the
 * shortest record are padding.
 *
 * Return: the record's length; 0 when the rest is padding (or empty);
 * -EBADMSG when a variable-length field runs past the Set.
 */
long hm_ipfix_rec_next(const struct hm_ipfix_tpl *t, const __u8 *p, size_t len);

/**
 * hm_ipfix_decode_fields() - decode a Data Record through its template
 * @t:		template of %HM_IPFIX_SCHEMA_POSTCARD
 * @p:		the record; hm_ipfix_rec_next() gave its length
 * @f:		filled (zeroed first); its varbufs point into @p
 *
 * The general path: every step of @t.
 */
void hm_ipfix_decode_fields(const struct hm_ipfix_tpl *t, const __u8 *p,
			    struct hm_ipfix_fields *f);

/**
 * hm_ipfix_decode_ie_type() - decode an RFC 5610 type record
 * @t:		template of %HM_IPFIX_SCHEMA_IE_TYPE
 * @p:		the record; hm_ipfix_rec_next() gave its length
 * @ty:		filled (zeroed first); @ty->name points into @p
 */
void hm_ipfix_decode_ie_type(const struct hm_ipfix_tpl *t, const __u8 *p,
			     struct hm_ipfix_ie_type *ty);

/**
 * hm_ipfix_fields_to_obs() - a decoded record as a postcard
 * @r:		record: hm_ipfix_decode_fields()'s, or one libfixbuf
 *		transcoded into the internal template (%HM_IPFIX_TID_INTERNAL)
 * @elems:	the elements its template has (struct hm_ipfix_tpl.elems,
 *		or hm_ipfix_tpl_elems() of the record's external template)
 * @obs_domain:	the message's Observation Domain ID
 * @o:		postcard to fill (zeroed first)
 * @var:	if not NULL, set to the record's variable-length parts
 *		(pointing where @r's varbufs do) and source-specific fields
 *
 * The family is ipVersion where the template has it, else that of the
 * addresses the template has. Presence follows the template and the
 * unknown values of hm_ipfix_fields_from_obs() (ipfix_model.h); in a
 * record with hopmarkTemplateFields, those bits.
 *
 * Return: 0; -ENOENT when the template lacks hopmark's key elements
 * (hopmarkPacketId, hopmarkNodeId, observationTimeNanoseconds, a source
 * and destination address): not a postcard; -EINVAL for an ipVersion
 * other than 4 or 6 or an unknown hopmarkPostcardSource.
 */
int hm_ipfix_fields_to_obs(const struct hm_ipfix_fields *r, __u64 elems, __u32 obs_domain,
			   struct hm_pc_obs *o, struct hm_ipfix_var *var);

/**
 * hm_ipfix_decode_obs() - decode a postcard record (fast path if it has one)
 * @t:		template of %HM_IPFIX_SCHEMA_POSTCARD
 * @p:		the record; hm_ipfix_rec_next() gave its length
 * @obs_domain:	the message's Observation Domain ID
 * @o:		postcard to fill
 *
 * A template with a fast path (@t->fast) is read at its fixed offsets;
 * any other goes hm_ipfix_decode_fields() then hm_ipfix_fields_to_obs().
 *
 * Return: as hm_ipfix_fields_to_obs().
 */
int hm_ipfix_decode_obs(const struct hm_ipfix_tpl *t, const __u8 *p, __u32 obs_domain,
			struct hm_pc_obs *o);

/**
 * hm_ipfix_decode_obs_general() - hm_ipfix_decode_obs() without the fast path
 * @t:		as hm_ipfix_decode_obs()
 * @p:		as hm_ipfix_decode_obs()
 * @obs_domain:	as hm_ipfix_decode_obs()
 * @o:		as hm_ipfix_decode_obs()
 *
 * For the tests that hold the two paths to the same result.
 *
 * Return: as hm_ipfix_fields_to_obs().
 */
int hm_ipfix_decode_obs_general(const struct hm_ipfix_tpl *t, const __u8 *p, __u32 obs_domain,
				struct hm_pc_obs *o);

/**
 * hm_ipfix_tpl_elems_of() - the elements of hopmark's template @tid
 * @tid: an HM_TID_* or HM_IPFIX_TID_INTERNAL (lib/ipfix/ipfix_model.h)
 *
 * Return: bit (1ULL << enum hm_ipfix_elem) per element, 0 for an unknown @tid.
 */
__u64 hm_ipfix_tpl_elems_of(__u16 tid);

/**
 * hm_ipfix_elem_id() - the (enterprise, element ID) of a postcard element
 * @e:		enum hm_ipfix_elem
 * @enterprise:	set to 1 for hopmark's enterprise elements, 0 for IANA's
 * @len:	set to its length in hopmark's templates (%HM_IPFIX_VARLEN: variable)
 *
 * Return: the element ID, 0 for an @e out of range.
 */
__u16 hm_ipfix_elem_id(unsigned int e, int *enterprise, __u16 *len);

/**
 * hm_ipfix_ns_to_ntp() - POSIX ns as an NTP Timestamp (RFC 7011 §6.1.10)
 * @ns: ns since 1970-01-01 (CLOCK_REALTIME)
 *
 * Return: seconds since 1900 << 32 | fraction (rounded down). NTP era 0
 * ends in 2036; the seconds wrap there, as the format does.
 */
__u64 hm_ipfix_ns_to_ntp(__u64 ns);

/**
 * hm_ipfix_ntp_to_ns() - an NTP Timestamp as POSIX ns
 * @ntp: as hm_ipfix_ns_to_ntp() makes
 *
 * Rounds to the nearest ns, so that hm_ipfix_ntp_to_ns(hm_ipfix_ns_to_ntp(x))
 * == x. Times before 1970 give 0.
 *
 * Return: ns since 1970-01-01.
 */
__u64 hm_ipfix_ntp_to_ns(__u64 ntp);

#endif /* __HOPMARK_IPFIX_DECODE_H */
