/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ipfix_export.h - the IPFIX exporter of postcards (RFC 7011, on
 * libfixbuf; lib/ipfix/ipfix_export.c, Documentation/ipfix.rst): the
 * templates of ipfix_model.h, RFC 5610 type records, UDP with template
 * refresh and TCP, a rate limit, and every record not sent counted.
 * hopmarkd exports its node's postcards through it, hopmark-collector
 * re-exports what it receives (--ipfix-out), bench/ipfix_bench.c measures it.
 */
#ifndef __HOPMARK_IPFIX_EXPORT_H
#define __HOPMARK_IPFIX_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/**
 * hm_ipfix_log - where the exporter's log lines go
 *
 * printf-style, one line without its newline. hopmarkd and
 * hopmark-collector point it at their own logger; the default writes
 * "ipfix: LINE" to standard error.
 */
extern void (*hm_ipfix_log)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct hm_pc_obs;
struct hm_ipfix_var;
struct hm_ipfix_exp;

/**
 * struct hm_ipfix_exp_cfg - where and how postcards are exported: the
 *			     exp_* fields of pbt_cfg[0] (lib/pbt/pbt_maps.h)
 * @transport:	PBT_EXP_UDP or PBT_EXP_TCP; anything else: no export
 * @family:	4 or 6
 * @port:	collector's port, host order
 * @rate:	records per second at most (0: no limit)
 * @refresh_s:	UDP template refresh, s (0: 60)
 * @domain:	Observation Domain ID
 * @addr:	collector's address, network order (IPv4: first 4)
 * @src:	source address, network order (zero: the kernel's choice)
 */
struct hm_ipfix_exp_cfg {
	__u8	transport;
	__u8	family;
	__u16	port;
	__u32	rate;
	__u32	refresh_s;
	__u32	domain;
	__u8	addr[16];
	__u8	src[16];
};

/**
 * struct hm_ipfix_exp_stats - what the IPFIX exporter counts, from 0 at
 *			       every start (the "ipfix" part of the
 *			       statistics line)
 * @records:		postcards offered to the exporter
 * @sent:		Data Records in Messages the kernel took (TCP: queued
 *			on a connected stream; taken back if it breaks)
 * @not_sent:		records not sent, the sum of the six below
 * @rate_limited:	above pbt_cfg.exp_rate
 * @no_collector:	no collector configured (exp_transport 0)
 * @down:		TCP not connected, or the stream broke with them queued
 * @send_failed:	UDP datagrams the kernel refused (full buffer,
 *			unreachable collector), their records
 * @queue_full:		TCP: the stream was HM_IPFIX_TCP_QUEUE octets behind
 * @bad:		records with no template (unknown source or family) or
 *			that libfixbuf could not encode
 * @messages:		IPFIX Messages sent (templates and options included)
 * @bytes:		their octets
 * @template_sends:	times the templates and type records were sent
 * @options_sent:	options records (HM_TID_STATS) sent
 * @connects:		TCP connections made
 * @connect_failures:	TCP connection attempts that failed
 * @disconnects:	TCP connections that broke
 * @send_errors:	failed send(2) calls
 * @encode_errors:	libfixbuf errors
 * @last_err:		errno of the latest failure
 */
struct hm_ipfix_exp_stats {
	__u64	records;
	__u64	sent;
	__u64	not_sent;
	__u64	rate_limited;
	__u64	no_collector;
	__u64	down;
	__u64	send_failed;
	__u64	queue_full;
	__u64	bad;
	__u64	messages;
	__u64	bytes;
	__u64	template_sends;
	__u64	options_sent;
	__u64	connects;
	__u64	connect_failures;
	__u64	disconnects;
	__u64	send_errors;
	__u64	encode_errors;
	int	last_err;
};

/**
 * hm_ipfix_exp_new() - an exporter with no collector yet
 * @pen:	PEN of hopmark's enterprise elements (--pen)
 *
 * Return: the exporter, or NULL with errno set (EINVAL: @pen is 0).
 */
struct hm_ipfix_exp *hm_ipfix_exp_new(__u32 pen);

/**
 * hm_ipfix_exp_set() - follow the collector settings
 * @x:	exporter
 * @c:	settings (NULL: none); unchanged settings change nothing
 *
 * A change sends what was built to the old collector, closes its socket
 * and starts a new Transport Session: UDP sends the templates and RFC
 * 5610 type records at once, TCP after it connects (non-blocking).
 */
void hm_ipfix_exp_set(struct hm_ipfix_exp *x, const struct hm_ipfix_exp_cfg *c);

/**
 * hm_ipfix_exp_active() - whether a collector is configured
 * @x:	exporter, may be NULL
 *
 * Return: true when records are encoded (they may still fail to leave).
 */
bool hm_ipfix_exp_active(const struct hm_ipfix_exp *x);

/**
 * hm_ipfix_exp_add() - one postcard into the Message being built
 * @x:		exporter, may be NULL (nothing happens)
 * @o:		postcard
 * @var:	its variable-length parts, or NULL (lib/ipfix/ipfix_model.h)
 *
 * Never blocks: a full Message is emitted and sent without waiting
 * (UDP) or queued (TCP). Every record that does not leave is counted in
 * one reason of struct hm_ipfix_exp_stats.
 */
void hm_ipfix_exp_add(struct hm_ipfix_exp *x, const struct hm_pc_obs *o,
		      const struct hm_ipfix_var *var);

/**
 * hm_ipfix_exp_flush() - send the Message being built; TCP: go on
 *			  connecting and writing the queue
 * @x:	exporter, may be NULL
 *
 * Called after every drain of a postcard source.
 */
void hm_ipfix_exp_flush(struct hm_ipfix_exp *x);

/**
 * hm_ipfix_exp_tick() - once a second: refresh, options record, log
 * @x:	exporter
 *
 * UDP: templates and type records again every refresh interval (RFC 7011
 * §8.4). The options record of the not-sent count when it changed. One
 * log line with the records not sent since the previous tick, by reason.
 */
void hm_ipfix_exp_tick(struct hm_ipfix_exp *x);

/**
 * hm_ipfix_exp_stats() - the exporter's counters
 * @x:	exporter
 *
 * Return: pointer to counters owned by @x.
 */
const struct hm_ipfix_exp_stats *hm_ipfix_exp_stats(const struct hm_ipfix_exp *x);

/**
 * hm_ipfix_exp_free() - send what is built, close, free
 * @x:	exporter, may be NULL
 */
void hm_ipfix_exp_free(struct hm_ipfix_exp *x);

#endif /* __HOPMARK_IPFIX_EXPORT_H */
