/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR BSD-2-Clause */
/*
 * hopmark_genl.h - uapi of the generic netlink family "hopmark"
 *
 * The family is owned by hopmark.ko (kernel/). It configures the module's
 * IPv6 Hop-by-Hop processing (RFC 9486): IOAM Incremental Trace (RFC 9197
 * §4.4), Edge-to-Edge (RFC 9197 §4.6), Direct Export (RFC 9326) and the SRv6
 * SRH O-flag (RFC 8754 §2.1, RFC 9259 §2), and carries the events these
 * produce to user space. Its namespace commands mirror the kernel's own
 * "IOAM6" family (include/uapi/linux/ioam6_genl.h).
 *
 * Every network namespace has its own state; a request acts on the network
 * namespace of the requesting socket.
 *
 * Permissions: every command that changes state (*_SET, NS_ADD, NS_DEL,
 * COUNTERS_RESET) needs CAP_NET_ADMIN in the user namespace owning the
 * network namespace (GENL_UNS_ADMIN_PERM); reads (*_GET, dumps) are free.
 *
 * Validation: strict. Unknown attributes, wrong lengths, values out of the
 * documented range and unknown feature bits are rejected with -EINVAL (or
 * -ERANGE) before any handler runs; the extended ACK carries a message and
 * the offset of the offending attribute (NLMSGERR_ATTR_OFFS), and for range
 * errors the accepted range (NLMSGERR_ATTR_POLICY). Semantic errors (missing
 * attribute, unknown namespace, unknown interface) carry a message that
 * names the attribute, e.g. "HOPMARK_ATTR_NS_ID: no such IOAM-Namespace".
 *
 * Multicast groups:
 *   "config"  every successful change is announced with the same command
 *             and the object's new state (NS_DEL: the deleted namespace),
 *             so a running agent follows `hopmark ...` without a restart.
 *   "events"  HOPMARK_CMD_EVENT messages, each carrying one or more nested
 *             HOPMARK_ATTR_RECORD attributes (batched).
 *
 * Integer attributes are in host byte order; binary attributes holding
 * packet bytes are copies of the wire (network byte order).
 */
#ifndef _UAPI_HOPMARK_GENL_H
#define _UAPI_HOPMARK_GENL_H

#define HOPMARK_GENL_NAME		"hopmark"
#define HOPMARK_GENL_VERSION		1
#define HOPMARK_GENL_MCGRP_CONFIG	"config"
#define HOPMARK_GENL_MCGRP_EVENTS	"events"

/* Limits, also enforced by the attribute policies. */
#define HOPMARK_NODE_ID_MAX		0xffffffU		/* 24 bits */
#define HOPMARK_NODE_ID_WIDE_MAX	0xffffffffffffffULL	/* 56 bits */
#define HOPMARK_TRACE_TYPE_MAX		0xffffffU		/* 24 bits */
#define HOPMARK_REMLEN_MAX		127	/* RemainingLen, 7 bits, 4-octet words */
#define HOPMARK_E2E_TYPE_MASK		0xf000U	/* E2E-Type bits 0-3 (RFC 9197 §4.6) */
#define HOPMARK_RATE_MAX		10000000U	/* events/s */
#define HOPMARK_BATCH_MAX		64	/* records per EVENT message */
#define HOPMARK_FLUSH_MS_MAX		1000
#define HOPMARK_REC_HEADERS_MAX		256	/* bytes of packet headers per record */
#define HOPMARK_REC_OPTION_MAX		256	/* bytes of an IOAM option per record */
#define HOPMARK_REC_NODE_DATA_MAX	256	/* bytes of node data per record */

/* Defaults of a fresh network namespace (see HOPMARK_CMD_EXPORT_SET). */
#define HOPMARK_RATE_DEFAULT		1000	/* events/s per IOAM-Namespace */
#define HOPMARK_BATCH_DEFAULT		16	/* records */
#define HOPMARK_FLUSH_MS_DEFAULT	10	/* ms */

/**
 * enum hopmark_if_feature - per-interface feature bits (HOPMARK_ATTR_IF_FEATURES)
 * @HOPMARK_IF_F_INCREMENTAL: IOAM Incremental Trace (RFC 9197 §4.4, Option-Type
 *	1) arriving on this interface is processed: this node inserts its node
 *	data, honouring RemainingLen and the egress MTU (Overflow flag otherwise).
 *	The ingress-interface counterpart of Linux's ioam6_enabled sysctl.
 * @HOPMARK_IF_F_INCREMENTAL_ENCAP: packets leaving through this interface get
 *	an Incremental Trace option of HOPMARK_ATTR_IF_ENCAP_NS with Trace-Type
 *	HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE and RemainingLen HOPMARK_ATTR_IF_ENCAP_REMLEN.
 * @HOPMARK_IF_F_E2E_ENCAP: packets leaving through this interface get an IOAM
 *	Edge-to-Edge option (RFC 9197 §4.6) of HOPMARK_ATTR_IF_ENCAP_NS with
 *	E2E-Type HOPMARK_ATTR_IF_ENCAP_E2E_TYPE.
 * @HOPMARK_IF_F_E2E_DECAP: E2E options arriving on this interface are read,
 *	reported (HOPMARK_EVENT_E2E) and removed.
 * @HOPMARK_IF_F_DEX: IOAM Direct Export options (RFC 9326, Option-Type 4)
 *	arriving on this interface make this node export an event
 *	(HOPMARK_EVENT_DEX); the packet is not grown.
 * @HOPMARK_IF_F_DEX_ENCAP: packets leaving through this interface get a DEX
 *	option of HOPMARK_ATTR_IF_ENCAP_NS and HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE
 *	with a Flow ID and a per-flow Sequence Number.
 * @HOPMARK_IF_F_SRH_OFLAG: a packet arriving on this interface whose SRH has
 *	the O-flag set and for which this node is the segment endpoint produces
 *	a HOPMARK_EVENT_OFLAG event (RFC 9259 §2); the packet is unchanged.
 * @HOPMARK_IF_F_ALL: every defined bit; others are rejected.
 */
enum hopmark_if_feature {
	HOPMARK_IF_F_INCREMENTAL	= 1U << 0,
	HOPMARK_IF_F_INCREMENTAL_ENCAP	= 1U << 1,
	HOPMARK_IF_F_E2E_ENCAP		= 1U << 2,
	HOPMARK_IF_F_E2E_DECAP		= 1U << 3,
	HOPMARK_IF_F_DEX		= 1U << 4,
	HOPMARK_IF_F_DEX_ENCAP		= 1U << 5,
	HOPMARK_IF_F_SRH_OFLAG		= 1U << 6,
	HOPMARK_IF_F_ALL		= (1U << 7) - 1,
};

/**
 * enum hopmark_event_type - what produced an event record (HOPMARK_REC_ATTR_TYPE)
 * @HOPMARK_EVENT_UNSPEC: never sent
 * @HOPMARK_EVENT_DEX: this node saw an IOAM DEX option (RFC 9326 §3); the
 *	record has NS_ID, FLOW_ID and SEQ when the option carries them, and the
 *	NODE_DATA its Trace-Type selects (RFC 9197 §4.4.2 layout)
 * @HOPMARK_EVENT_OFLAG: SRH O-flag at a segment endpoint (RFC 9259 §2)
 * @HOPMARK_EVENT_E2E: an E2E option read at decapsulation (RFC 9197 §4.6);
 *	OPTION holds it, SEQ its sequence number (low 32 bits) when present
 * @HOPMARK_EVENT_TRACE: an Incremental Trace ended at this node (sink);
 *	OPTION holds the whole IOAM option as received
 * @__HOPMARK_EVENT_MAX: number of types
 */
enum hopmark_event_type {
	HOPMARK_EVENT_UNSPEC,
	HOPMARK_EVENT_DEX,
	HOPMARK_EVENT_OFLAG,
	HOPMARK_EVENT_E2E,
	HOPMARK_EVENT_TRACE,
	__HOPMARK_EVENT_MAX,
};
#define HOPMARK_EVENT_MAX (__HOPMARK_EVENT_MAX - 1)

/**
 * enum hopmark_export_field - postcard fields the agent exports
 * (HOPMARK_ATTR_EXPORT_FIELDS)
 * @HOPMARK_EXPORT_F_NODE: the exporting node: its node IDs (RFC 9197
 *	§4.4.2.1, §4.4.2.9) and the ingress interface
 * @HOPMARK_EXPORT_F_TIMESTAMP: when the node processed the packet
 *	(HOPMARK_REC_ATTR_TIMESTAMP, ns of POSIX time)
 * @HOPMARK_EXPORT_F_FLOW: DEX Flow ID and Sequence Number (RFC 9326 §3.2)
 * @HOPMARK_EXPORT_F_HEADERS: the packet: its length and what its headers
 *	say (addresses, flow label, ports, SRH)
 * @HOPMARK_EXPORT_F_NODE_DATA: the node data and the IOAM-Trace-Type that
 *	selects them (RFC 9197 §4.4.2)
 * @HOPMARK_EXPORT_F_OPTION: the IOAM option as received: an Edge-to-Edge
 *	option's fields (RFC 9197 §4.6), an Incremental Trace's hops (§4.4)
 * @HOPMARK_EXPORT_F_ALL: every defined bit, the default; others are rejected
 *
 * The module sends every record whole; the setting tells the exporting
 * agent (hopmarkd) which parts of each postcard to write
 * (Documentation/postcards.rst). The type of a postcard and its
 * IOAM-Namespace are always exported.
 */
enum hopmark_export_field {
	HOPMARK_EXPORT_F_NODE		= 1U << 0,
	HOPMARK_EXPORT_F_TIMESTAMP	= 1U << 1,
	HOPMARK_EXPORT_F_FLOW		= 1U << 2,
	HOPMARK_EXPORT_F_HEADERS	= 1U << 3,
	HOPMARK_EXPORT_F_NODE_DATA	= 1U << 4,
	HOPMARK_EXPORT_F_OPTION		= 1U << 5,
	HOPMARK_EXPORT_F_ALL		= (1U << 6) - 1,
};

/*
 * enum hopmark_attr - top-level attributes
 *
 * Type, unit and range of each; all integers in host byte order.
 */
enum hopmark_attr {
	HOPMARK_ATTR_UNSPEC,
	HOPMARK_ATTR_PAD,		/* padding for 64-bit attributes */

	/* node (RFC 9197 §4.4.2.1, §4.4.2.9) */
	HOPMARK_ATTR_NODE_ID,		/* u32, 0..0xffffff */
	HOPMARK_ATTR_NODE_ID_WIDE,	/* u64, 0..0xffffffffffffff */

	/* IOAM-Namespace (RFC 9197 §4.3, §4.4.2.6, §4.4.2.11) */
	HOPMARK_ATTR_NS_ID,		/* u16, any value */
	HOPMARK_ATTR_NS_DATA,		/* u32, namespace specific data */
	HOPMARK_ATTR_NS_DATA_WIDE,	/* u64, namespace specific data, wide */

	/* interface (RFC 9197 §4.4.2.2, §4.4.2.10) */
	HOPMARK_ATTR_IFINDEX,		/* u32, 1..INT_MAX, in the request's netns */
	HOPMARK_ATTR_IF_ID,		/* u16, short interface ID */
	HOPMARK_ATTR_IF_ID_WIDE,	/* u32, wide interface ID */
	HOPMARK_ATTR_IF_FEATURES,	/* bitfield32 of enum hopmark_if_feature:
					 * SET changes the bits in selector to
					 * value; GET reports value = enabled,
					 * selector = HOPMARK_IF_F_ALL
					 */
	HOPMARK_ATTR_IF_ENCAP_NS,	/* u16, IOAM-Namespace this interface
					 * encapsulates (INCREMENTAL_ENCAP,
					 * E2E_ENCAP, DEX_ENCAP)
					 */
	HOPMARK_ATTR_IF_ENCAP_TRACE_TYPE, /* u32, 24-bit IOAM-Trace-Type, bit 0
					 * = 0x800000 (RFC 9197 §4.4.1); only
					 * the bits an encapsulating node may
					 * set (0-11, 22: HM_IOAM_TT_ENCAP_MASK
					 * in ioam/ioam6.h), else -EINVAL and an
					 * extack naming the first other bit
					 */
	HOPMARK_ATTR_IF_ENCAP_REMLEN,	/* u8, 0..127: RemainingLen in 4-octet
					 * words written by the encapsulating
					 * node of an Incremental Trace
					 */
	HOPMARK_ATTR_IF_ENCAP_E2E_TYPE,	/* u16, IOAM-E2E-Type, only bits 0-3
					 * (mask 0xf000) (RFC 9197 §4.6)
					 */
	HOPMARK_ATTR_IFNAME,		/* string, reported by GET only */

	/* export settings */
	HOPMARK_ATTR_RATE_LIMIT,	/* u32, events/s, 0..10000000; 0 = no
					 * limit. With NS_ID: that namespace's
					 * limit; without: the default for new
					 * namespaces and the limit of events
					 * without IOAM-Namespace (O-flag).
					 * Token bucket, burst = one second.
					 */
	HOPMARK_ATTR_BATCH_SIZE,	/* u32, records per EVENT message, 1..64 */
	HOPMARK_ATTR_FLUSH_MS,		/* u32, ms, 1..1000: a partial batch is
					 * sent at the latest this long after
					 * its first record
					 */

	/* counters */
	HOPMARK_ATTR_COUNTERS,		/* nested, enum hopmark_counter_attr */

	/* events */
	HOPMARK_ATTR_RECORD,		/* nested, enum hopmark_rec_attr; several
					 * per EVENT message
					 */

	/* export settings, continued (appended: numbers above are fixed) */
	HOPMARK_ATTR_EXPORT_FIELDS,	/* u32, enum hopmark_export_field bits
					 * (mask HOPMARK_EXPORT_F_ALL): the
					 * postcard fields the agent exports;
					 * default HOPMARK_EXPORT_F_ALL
					 */

	__HOPMARK_ATTR_MAX,
};
#define HOPMARK_ATTR_MAX (__HOPMARK_ATTR_MAX - 1)

/*
 * enum hopmark_rec_attr - attributes of one event record (in HOPMARK_ATTR_RECORD)
 *
 * Present when known; NS_ID, FLOW_ID, SEQ, TRACE_TYPE, NODE_DATA and OPTION
 * depend on the event type (enum hopmark_event_type).
 */
enum hopmark_rec_attr {
	HOPMARK_REC_ATTR_UNSPEC,
	HOPMARK_REC_ATTR_PAD,
	HOPMARK_REC_ATTR_TYPE,		/* u8, enum hopmark_event_type */
	HOPMARK_REC_ATTR_TIMESTAMP,	/* u64, ns of POSIX time (CLOCK_REALTIME)
					 * when the node processed the packet
					 */
	HOPMARK_REC_ATTR_IFINDEX,	/* u32, ingress interface */
	HOPMARK_REC_ATTR_NS_ID,		/* u16, IOAM-Namespace */
	HOPMARK_REC_ATTR_FLOW_ID,	/* u32, DEX Flow ID (RFC 9326 §3.2) */
	HOPMARK_REC_ATTR_SEQ,		/* u32, Sequence Number (RFC 9326 §3.2) */
	HOPMARK_REC_ATTR_TRACE_TYPE,	/* u32, 24-bit IOAM-Trace-Type */
	HOPMARK_REC_ATTR_NODE_DATA,	/* binary, <= 256 bytes: this node's data
					 * as it would appear in a trace (RFC
					 * 9197 §4.4.2), network byte order
					 */
	HOPMARK_REC_ATTR_OPTION,	/* binary, <= 256 bytes: the IOAM option
					 * from its Option-Type octet, as received
					 */
	HOPMARK_REC_ATTR_HEADERS,	/* binary, <= 256 bytes: the packet from
					 * its IPv6 header on (extension headers
					 * included), truncated
					 */
	HOPMARK_REC_ATTR_PKT_LEN,	/* u32, bytes from the IPv6 header on */
	__HOPMARK_REC_ATTR_MAX,
};
#define HOPMARK_REC_ATTR_MAX (__HOPMARK_REC_ATTR_MAX - 1)

/*
 * enum hopmark_counter_attr - counters (u64 each, in HOPMARK_ATTR_COUNTERS)
 *
 * Datapath counters count packets, per interface (COUNTERS_GET dump: one
 * message per configured interface, with IFINDEX) and summed for the network
 * namespace (the first message, without IFINDEX). Event counters count
 * records, per network namespace and, for QUEUED and RATE_LIMITED, per
 * IOAM-Namespace too (in NS_GET replies). Every record that was
 * produced but not sent is in exactly one of RATE_LIMITED, NO_LISTENER,
 * NOMEM, SEND_ERR. The enum only grows: a counter added later goes at its
 * end, whatever its kind, so that every number keeps its meaning.
 */
enum hopmark_counter_attr {
	HOPMARK_CNT_UNSPEC,
	HOPMARK_CNT_PAD,
	/* datapath, packets */
	HOPMARK_CNT_INCR_INSERTED,	/* node data inserted in an Incremental Trace */
	HOPMARK_CNT_INCR_OVERFLOW,	/* no room (RemainingLen or MTU): Overflow set */
	HOPMARK_CNT_INCR_OVERFLOW_SEEN,	/* Overflow already set: untouched */
	HOPMARK_CNT_INCR_ENCAP,		/* Incremental Trace option inserted */
	HOPMARK_CNT_E2E_ENCAP,		/* E2E option inserted */
	HOPMARK_CNT_E2E_DECAP,		/* E2E option read and removed */
	HOPMARK_CNT_DEX_ENCAP,		/* DEX option inserted */
	HOPMARK_CNT_DEX_EXPORT,		/* DEX option seen, event produced */
	HOPMARK_CNT_OFLAG_EXPORT,	/* SRH O-flag seen at endpoint, event produced */
	HOPMARK_CNT_UNKNOWN_NS,		/* IOAM-Namespace not configured: untouched */
	HOPMARK_CNT_MALFORMED,		/* inconsistent lengths: untouched */
	HOPMARK_CNT_FRAGMENT,		/* IPv6 fragment: untouched */
	HOPMARK_CNT_MTU,		/* insertion would exceed the MTU: not inserted */
	HOPMARK_CNT_ERROR,		/* could not modify (memory, GSO): unchanged */
	/* events, records */
	HOPMARK_CNT_EV_QUEUED,		/* accepted into a batch */
	HOPMARK_CNT_EV_SENT,		/* multicast on "events" */
	HOPMARK_CNT_EV_MESSAGES,	/* EVENT messages multicast */
	HOPMARK_CNT_EV_RATE_LIMITED,	/* over the rate limit: not sent */
	HOPMARK_CNT_EV_NO_LISTENER,	/* nobody subscribed to "events": not sent */
	HOPMARK_CNT_EV_NOMEM,		/* no memory for the message: not sent */
	HOPMARK_CNT_EV_SEND_ERR,	/* multicast failed (e.g. receive
					 * buffers full): lost for at least one
					 * listener
					 */
	/* datapath, packets */
	HOPMARK_CNT_HBH_LIMIT,		/* insertion would break a limit a Linux
					 * receiver enforces on the Hop-by-Hop
					 * header (over 8 options with ours, a
					 * padding run over 7 octets, non-zero
					 * PadN data, over 2048 bytes): not
					 * inserted
					 */
	__HOPMARK_CNT_MAX,
};
#define HOPMARK_CNT_MAX (__HOPMARK_CNT_MAX - 1)

/**
 * enum hopmark_cmd - commands
 * @HOPMARK_CMD_UNSPEC: never valid
 * @HOPMARK_CMD_NODE_SET: set NODE_ID and/or NODE_ID_WIDE (admin)
 * @HOPMARK_CMD_NODE_GET: reply: NODE_ID, NODE_ID_WIDE (absent when unset)
 * @HOPMARK_CMD_NS_ADD: add NS_ID with optional NS_DATA, NS_DATA_WIDE,
 *	RATE_LIMIT (default: the netns default); -EEXIST if present (admin)
 * @HOPMARK_CMD_NS_DEL: delete NS_ID; -ENOENT if absent (admin)
 * @HOPMARK_CMD_NS_GET: doit with NS_ID, or dump every namespace: NS_ID,
 *	NS_DATA, NS_DATA_WIDE (when set), RATE_LIMIT, COUNTERS (events)
 * @HOPMARK_CMD_NS_SET: change NS_DATA, NS_DATA_WIDE, RATE_LIMIT of NS_ID (admin)
 * @HOPMARK_CMD_IF_SET: IFINDEX required; IF_ID, IF_ID_WIDE, IF_FEATURES,
 *	IF_ENCAP_* optional (admin). The entry is created on first use and
 *	removed when the device goes away.
 * @HOPMARK_CMD_IF_GET: doit with IFINDEX, or dump every configured
 *	interface: IFINDEX, IFNAME, IF_ID, IF_ID_WIDE, IF_FEATURES, IF_ENCAP_*
 * @HOPMARK_CMD_EXPORT_SET: RATE_LIMIT (netns default), BATCH_SIZE, FLUSH_MS,
 *	EXPORT_FIELDS (admin)
 * @HOPMARK_CMD_EXPORT_GET: reply: RATE_LIMIT, BATCH_SIZE, FLUSH_MS, EXPORT_FIELDS
 * @HOPMARK_CMD_COUNTERS_GET: dump: first message COUNTERS of the netns, then
 *	one message per configured interface with IFINDEX and its COUNTERS
 * @HOPMARK_CMD_COUNTERS_RESET: zero every counter of the netns (admin)
 * @HOPMARK_CMD_EVENT: kernel to user only, on "events": one or more RECORD
 * @__HOPMARK_CMD_MAX: number of commands
 */
enum hopmark_cmd {
	HOPMARK_CMD_UNSPEC,
	HOPMARK_CMD_NODE_SET,
	HOPMARK_CMD_NODE_GET,
	HOPMARK_CMD_NS_ADD,
	HOPMARK_CMD_NS_DEL,
	HOPMARK_CMD_NS_GET,
	HOPMARK_CMD_NS_SET,
	HOPMARK_CMD_IF_SET,
	HOPMARK_CMD_IF_GET,
	HOPMARK_CMD_EXPORT_SET,
	HOPMARK_CMD_EXPORT_GET,
	HOPMARK_CMD_COUNTERS_GET,
	HOPMARK_CMD_COUNTERS_RESET,
	HOPMARK_CMD_EVENT,
	__HOPMARK_CMD_MAX,
};
#define HOPMARK_CMD_MAX (__HOPMARK_CMD_MAX - 1)

#endif /* _UAPI_HOPMARK_GENL_H */
