/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ipfix_ie.h - the IPFIX Information Elements of hopmark's postcards
 * (RFC 7011, RFC 7012): the IANA elements it uses and hopmark's own
 * enterprise-specific ones, and the Template IDs of its Data Sets. One
 * definition for the exporter (hopmarkd, lib/ipfix/), the collector, the
 * tests and lib/ipfix/hopmark-ipfix.xml (the IANA-style registry of the
 * enterprise elements, which a test checks against this file).
 *
 * Numbers of IANA elements are those of the IANA "IP Flow Information
 * Export (IPFIX) Entities" registry.
 */
#ifndef __HOPMARK_IPFIX_IE_H
#define __HOPMARK_IPFIX_IE_H

/*
 * hopmark has no Private Enterprise Number of its own yet: it uses 32473,
 * the PEN RFC 5612 reserves for documentation, so that nothing it exports
 * collides with a real enterprise's elements. hopmarkd and the collector
 * take another with --pen.
 */
#define HM_IPFIX_PEN_DEFAULT	32473

/* IANA elements (element ID; abstract data type in the comment). */
#define IPFIX_IE_PROTOCOL_IDENTIFIER	4	/* unsigned8 */
#define IPFIX_IE_IP_CLASS_OF_SERVICE	5	/* unsigned8 */
#define IPFIX_IE_SOURCE_TRANSPORT_PORT	7	/* unsigned16 */
#define IPFIX_IE_SOURCE_IPV4_ADDRESS	8	/* ipv4Address */
#define IPFIX_IE_INGRESS_INTERFACE	10	/* unsigned32 */
#define IPFIX_IE_DESTINATION_TRANSPORT_PORT 11	/* unsigned16 */
#define IPFIX_IE_DESTINATION_IPV4_ADDRESS 12	/* ipv4Address */
#define IPFIX_IE_EGRESS_INTERFACE	14	/* unsigned32 */
#define IPFIX_IE_IP_NEXT_HOP_IPV4_ADDRESS 15	/* ipv4Address */
#define IPFIX_IE_SOURCE_IPV6_ADDRESS	27	/* ipv6Address */
#define IPFIX_IE_DESTINATION_IPV6_ADDRESS 28	/* ipv6Address */
#define IPFIX_IE_IP_NEXT_HOP_IPV6_ADDRESS 62	/* ipv6Address */
#define IPFIX_IE_IP_VERSION		60	/* unsigned8 */
#define IPFIX_IE_EXPORTED_MESSAGE_TOTAL_COUNT 41 /* unsigned64 (options) */
#define IPFIX_IE_EXPORTED_FLOW_RECORD_TOTAL_COUNT 42 /* unsigned64 (options) */
#define IPFIX_IE_PADDING_OCTETS		210	/* octetArray */
#define IPFIX_IE_OBSERVATION_DOMAIN_ID	149	/* unsigned32 */
#define IPFIX_IE_IP_TTL			192	/* unsigned8 */
#define IPFIX_IE_IP_TOTAL_LENGTH	224	/* unsigned64 */
#define IPFIX_IE_IP_HEADER_PACKET_SECTION 313	/* octetArray */
#define IPFIX_IE_OBSERVATION_TIME_NANOSECONDS 325 /* dateTimeNanoseconds */
/*
 * RFC 9487 (SRv6 SRH), as the IANA registry lists them: 492 srhFlagsIPv6,
 * 495 srhActiveSegmentIPv6, 498 srhSegmentsIPv6Left (500 is
 * srhIPv6ActiveSegmentType, the registry's "IPFIX IPv6 SRH Segment Type
 * (Value 500)" subregistry). libfixbuf 2.4.1 predates them:
 * lib/ipfix/ipfix_model.c adds them to its model.
 */
#define IPFIX_IE_SRH_FLAGS_IPV6		492	/* unsigned8 */
#define IPFIX_IE_SRH_ACTIVE_SEGMENT_IPV6 495	/* ipv6Address */
#define IPFIX_IE_SRH_SEGMENTS_IPV6_LEFT	498	/* unsigned8 */

/*
 * hopmark's enterprise elements (under the PEN above). Append only; the
 * names are the XML registry's, in the IANA camelCase style.
 */
#define HM_IE_PACKET_ID		1	/* hopmarkPacketId, unsigned32 */
#define HM_IE_NODE_ID		2	/* hopmarkNodeId, unsigned32 */
#define HM_IE_OBSERVATION_POINT	3	/* hopmarkObservationPoint, unsigned8: 1 ingress, 2 egress */
#define HM_IE_QUEUE_DEPTH	4	/* hopmarkQueueDepthOctets, unsigned32 */
#define HM_IE_POSTCARD_SOURCE	5	/* hopmarkPostcardSource, unsigned8: HM_PC_SRC_* */
#define HM_IE_POSTCARD_FLAGS	6	/* hopmarkPostcardFlags, unsigned16: PBT_REC_F_* */
#define HM_IE_PACKET_ID_KIND	7	/* hopmarkPacketIdKind, unsigned8: PBT_ID_* */
#define HM_IE_TEMPLATE_ID	8	/* hopmarkFlowTemplateId, unsigned32 */
#define HM_IE_SOJOURN_NS	9	/* hopmarkSojournNanoseconds, unsigned32 */
#define HM_IE_IOAM_NAMESPACE	10	/* hopmarkIoamNamespace, unsigned16 */
#define HM_IE_IOAM_TRACE_TYPE	11	/* hopmarkIoamTraceType, unsigned32 */
#define HM_IE_IOAM_NODE_DATA	12	/* hopmarkIoamNodeData, octetArray */
#define HM_IE_INT_REP_MD_BITS	13	/* hopmarkIntRepMdBits, unsigned16 */
#define HM_IE_INT_METADATA	14	/* hopmarkIntMetadata, octetArray */
#define HM_IE_DROP_REASON	15	/* hopmarkDropReason, unsigned8 */
#define HM_IE_EXPORT_LOST	16	/* hopmarkRecordsNotSent, unsigned64 (options record) */
#define HM_IE_TEMPLATE_FIELDS	17	/* hopmarkTemplateFields, unsigned32: PBT_FLD_* valid */

/* Template IDs of hopmark's Data Sets (RFC 7011 §3.4.1: 256 and up). */
#define HM_TID_PBT_V4		256	/* PBT-M postcard, IPv4, basic set */
#define HM_TID_PBT_V6		257	/* PBT-M postcard, IPv6, basic set */
#define HM_TID_PBT_V4_EXT	258	/* with a per-flow template's fields */
#define HM_TID_PBT_V6_EXT	259
#define HM_TID_DEX		260	/* hopmark.ko DEX postcard */
#define HM_TID_OFLAG		261	/* hopmark.ko SRH O-flag postcard */
#define HM_TID_INT		262	/* INT-XD / INT-MX report */
#define HM_TID_STATS		263	/* options: the exporter's lost records */

#endif /* __HOPMARK_IPFIX_IE_H */
