/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ipfix_in.h - hopmark-collector's IPFIX input (RFC 7011): messages from
 * UDP datagrams or a TCP stream, one Transport Session per exporter,
 * checked set by set, their records decoded into struct hm_pc_obs
 * (lib/postcard/pc_obs.h) by hopmark's own decoder (lib/ipfix/ipfix_decode.h).
 *
 * What is checked, and what happens (each counted in struct
 * hmc_ipfix_stats and logged, rate-limited; the collector goes on):
 *  - a message shorter than its header, shorter than its Length field, a
 *    Version other than 10, a Length below 16: the message is dropped;
 *  - a Set whose Length is below 4 or runs past the message (a huge set
 *    length), a template record running past its Set: the message is
 *    dropped (nothing after such a Set can be trusted);
 *  - a Data Set before its template (RFC 7011 §8: the collector cannot
 *    decode it): the Set is skipped;
 *  - a template withdrawn (Field Count 0, §8.1): forgotten; a Data Set
 *    that uses it afterwards is one before its template;
 *  - a template changed under the same ID without a withdrawal (§8.1
 *    allows it on UDP only): the new definition is used, and counted;
 *  - records whose template lacks hopmarkPacketId or hopmarkNodeId are
 *    not postcards: counted and skipped; RFC 5610 type records among them
 *    teach the session the names of elements (hmc_ipfix_ie_name());
 *  - a record whose variable-length field runs past its Set: the rest of
 *    the message is not decoded (decode_error);
 *  - a new exporter when max_exporters sessions exist: its messages are
 *    refused until a session has been idle for idle_s (the policy against
 *    a flood of unknown exporters: the sessions, and the memory, are
 *    bounded); a source outside the allowed prefixes is denied;
 *  - on TCP, a Length below 16 loses the message boundaries: the
 *    connection is closed.
 */
#ifndef __HOPMARK_COLLECTOR_IPFIX_IN_H
#define __HOPMARK_COLLECTOR_IPFIX_IN_H

#include <stddef.h>
#include <sys/socket.h>
#include <linux/types.h>

#include "postcard/pc_obs.h"

struct hmc_ipfix;
struct hmc_exporter;

#define HMC_IPFIX_MAX_ALLOW	16
#define HMC_IE_NAMES		128	/* RFC 5610 names kept per session */
#define HMC_IE_NAME_MAX		64	/* octets of one, with its NUL */

/**
 * struct hmc_ipfix_cfg - IPFIX input settings
 * @pen:		Private Enterprise Number of hopmark's elements
 * @max_exporters:	Transport Sessions at once (UDP: per source address
 *			and port; TCP: per connection)
 * @idle_s:		a UDP session silent this long, s, may be replaced
 * @max_templates:	templates per session (all Observation Domains)
 * @nr_allow:		prefixes in @allow; 0: every source is allowed
 * @allow:		allowed source prefixes (IPv4 as IPv4-mapped IPv6)
 * @allow_plen:		their lengths, bits of the 128
 */
struct hmc_ipfix_cfg {
	__u32	pen;
	__u32	max_exporters;
	__u32	idle_s;
	__u32	max_templates;
	__u32	nr_allow;
	__u8	allow[HMC_IPFIX_MAX_ALLOW][16];
	__u8	allow_plen[HMC_IPFIX_MAX_ALLOW];
};

/**
 * struct hmc_ipfix_stats - what the IPFIX input did (counts)
 * @messages:		messages received
 * @records:		data records decoded
 * @postcards:		records handed on as postcards
 * @short_msg:		datagrams or stream data shorter than the header or
 *			than its Length: dropped
 * @bad_version:	Version not 10: dropped
 * @bad_length:		Length below 16: dropped (TCP: connection closed)
 * @bad_set_length:	a Set Length below 4 or past the message: dropped
 * @bad_set_id:		Set IDs 0, 1, 4 to 255 (reserved): the Set skipped
 * @bad_template:	a template record past its Set, a Template ID below
 *			256, scope count above field count: message dropped
 * @no_template:	Data Sets before their template: skipped
 * @tpl_added:		template definitions accepted
 * @tpl_withdrawn:	templates withdrawn
 * @tpl_changed:	templates redefined under the same ID
 * @tpl_limit:		templates refused over max_templates: message dropped
 * @not_postcard:	records without packet or node ID: skipped
 * @decode_error:	a record ran past its Set: the rest of the message
 *			was not decoded
 * @seq_lost:		data records missing by the Sequence Numbers (UDP,
 *			RFC 7011 §10.3.2), counted once their gap is older
 *			than the reorder window (64 messages of the domain),
 *			beyond 16 open gaps, or at the session's end
 * @seq_reordered:	messages that came after a later one and filled a gap
 * @seq_late:		messages below the next Sequence Number that filled no
 *			gap (duplicates, or later than the window: already
 *			counted lost)
 * @seq_pending:	records in gaps still open (a gauge): not yet lost
 * @exporters:		sessions now (a gauge)
 * @exporters_refused:	messages refused: max_exporters sessions busy
 * @exporters_denied:	messages from sources outside the allowed prefixes
 * @exporters_expired:	idle sessions replaced
 * @tcp_closed:		TCP connections closed for bad framing
 */
struct hmc_ipfix_stats {
	__u64	messages;
	__u64	records;
	__u64	postcards;
	__u64	short_msg;
	__u64	bad_version;
	__u64	bad_length;
	__u64	bad_set_length;
	__u64	bad_set_id;
	__u64	bad_template;
	__u64	no_template;
	__u64	tpl_added;
	__u64	tpl_withdrawn;
	__u64	tpl_changed;
	__u64	tpl_limit;
	__u64	not_postcard;
	__u64	decode_error;
	__u64	seq_lost;
	__u64	seq_reordered;
	__u64	seq_late;
	__u64	seq_pending;
	__u64	exporters;
	__u64	exporters_refused;
	__u64	exporters_denied;
	__u64	exporters_expired;
	__u64	tcp_closed;
};

/**
 * typedef hmc_obs_fn - receives every decoded postcard
 * @arg:	the pointer given with it
 * @o:		the postcard, valid during the call
 */
typedef void (*hmc_obs_fn)(void *arg, const struct hm_pc_obs *o);

/**
 * hmc_ipfix_new() - make the IPFIX input
 * @cfg:	settings (0 fields take the defaults: 64 exporters, 600 s,
 *		256 templates)
 * @fn:		called for every postcard
 * @arg:	passed to @fn
 *
 * Return: the input, or NULL with errno set (the reason logged).
 */
struct hmc_ipfix *hmc_ipfix_new(const struct hmc_ipfix_cfg *cfg, hmc_obs_fn fn, void *arg);

/**
 * hmc_ipfix_exporter() - the session of a peer, made when it is new
 * @x:		input
 * @peer:	the exporter's address (UDP source; TCP peer)
 * @tcp:	1 for a TCP connection: always a new session
 * @now_s:	current time, s (any monotonic clock)
 *
 * Return: the session, or NULL when refused or denied (counted, logged).
 */
struct hmc_exporter *hmc_ipfix_exporter(struct hmc_ipfix *x, const struct sockaddr_storage *peer,
					int tcp, __u64 now_s);

/**
 * hmc_ipfix_exporter_close() - end a session (a TCP connection closed)
 * @x:	input
 * @e:	session
 */
void hmc_ipfix_exporter_close(struct hmc_ipfix *x, struct hmc_exporter *e);

/**
 * hmc_ipfix_message() - one IPFIX message (a UDP datagram's payload)
 * @x:		input
 * @e:		its exporter's session
 * @msg:	the octets (read in place, not written)
 * @len:	octets at @msg
 *
 * Return: postcards decoded (0 or more); -EBADMSG when the message was
 * dropped (counted).
 */
int hmc_ipfix_message(struct hmc_ipfix *x, struct hmc_exporter *e, __u8 *msg, size_t len);

/**
 * hmc_ipfix_stream() - the complete messages at the start of TCP data
 * @x:		input
 * @e:		the connection's session
 * @buf:	stream octets received and not consumed yet
 * @len:	octets at @buf
 *
 * Return: octets consumed (whole messages; keep the rest for the next
 * read); -EPROTO when the stream must be closed (a Length below 16 or a
 * Version other than 10: no message boundary can be found again).
 */
long hmc_ipfix_stream(struct hmc_ipfix *x, struct hmc_exporter *e, __u8 *buf, size_t len);

/**
 * hmc_ipfix_ie_name() - an element's name as the exporter's RFC 5610
 * type records gave it
 * @e:		session
 * @pen:	the element's Private Enterprise Number (0: IANA)
 * @id:		its element ID
 *
 * Return: the name (NUL-terminated, at most %HMC_IE_NAME_MAX - 1 octets,
 * valid while @e lives), or NULL when no type record named it.
 */
const char *hmc_ipfix_ie_name(const struct hmc_exporter *e, __u32 pen, __u16 id);

/**
 * hmc_ipfix_stats() - the input's counters
 * @x:	input
 *
 * Return: the counters, valid while @x lives.
 */
const struct hmc_ipfix_stats *hmc_ipfix_stats(const struct hmc_ipfix *x);

/**
 * hmc_ipfix_end_sessions() - count every open Sequence Number gap lost
 * @x:	input
 *
 * At exit, before the last statistics: a gap still open can no longer be
 * filled. The sessions stay.
 */
void hmc_ipfix_end_sessions(struct hmc_ipfix *x);

/**
 * hmc_ipfix_free() - free the input and every session
 * @x:	input, or NULL
 */
void hmc_ipfix_free(struct hmc_ipfix *x);

#endif /* __HOPMARK_COLLECTOR_IPFIX_IN_H */
