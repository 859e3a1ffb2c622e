/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * int_settings.h - an INT domain's settings as `hopmark int` writes them
 * into int_cfg[0] (int_settings.c): the defaults of a domain nobody
 * configured, the text forms of the Instruction Bitmap, of the DSCP
 * signal and of watchlist rules (parsed and printed back the same way, so
 * that `hopmark int show` prints words `hopmark int set` takes), and the
 * rules a configuration must satisfy before the datapath sees it (INT
 * v2.1 §5.7.2, §5.8; Telemetry Report v2.0 §3). Whether its trace fits an
 * MTU is the budget model's (budget/budget.h, hm_budget_int_md_fit()). Every node of a
 * domain must hold the same struct int_domain_cfg (int_maps.h), so these
 * rules live here once.
 *
 * Userspace only, no libbpf: reading and writing the map is the caller's.
 * On failure a function returns a negative errno and writes the whole
 * reason, one line without a final period, into the caller's @msg.
 */
#ifndef __HOPMARK_INT_SETTINGS_H
#define __HOPMARK_INT_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "int/int_maps.h"
#include "select/sel_text.h"

/* Defaults of a new domain (int_cfg_defaults()): the spec's examples (§6). */
#define INT_DEF_DSCP		0x17	/* §6.1's DSCP */
#define INT_DEF_DSCP_MASK	0x3f	/* exact match (the spec's issue #50) */
#define INT_DEF_BITMAP		(INT_BM_NODE_ID | INT_BM_QUEUE)	/* §6: 0x9000 */
#define INT_DEF_MAX_HOPS	8	/* §6: Remaining Hop Count 8 */
#define INT_DEF_REPORT_TRUNC	128	/* octets of the packet a report carries */
#define INT_DEF_COALESCE	1

#define INT_DSCP_MASK		0x3f	/* DSCP is 6 bits */
#define INT_HW_ID_MAX		INT_RPT_HW_ID_MASK		/* 6 bits, Report §3.2 */
#define INT_Q_THRESHOLD_MAX	0xffffffU	/* the 24-bit queue occupancy field */

/*
 * Names of the Instruction Bitmap's bits, by bit number (bit 0 = 0x8000):
 * "node-id", "l1-ports", "hop-latency", "queue", "ingress-ts", "egress-ts",
 * "l2-ports", "tx-util", "buffer", NULL for the reserved bits 9-14,
 * "csum-complement".
 */
extern const char *const int_bm_names[16];

/* "md", "mx", "xd", indexed by %INT_MODE_*. */
extern const char *const int_mode_names[3];

/**
 * int_cfg_defaults() - give an unconfigured domain its defaults
 * @cfg:	int_cfg[0] as read; all-zero when nobody configured the domain
 *
 * A domain with %INT_DOM_F_CONFIGURED is left as it is. Otherwise: mode
 * MD, DSCP signalling 0x17/0x3f, bitmap 0x9000 (Hop ML 2), max-hops 8,
 * hw_id 0, no DS ID, report truncation 128 octets, no queue reports, no
 * collector, coalescing 1, empty watchlist, every packet sampled. The
 * domain stays unconfigured until int_cfg_commit().
 */
void int_cfg_defaults(struct int_domain_cfg *cfg);

/**
 * int_bitmap_parse() - an Instruction Bitmap from its text form
 * @s:		a number (0x9000, 36864) or a comma-separated list of
 *		int_bm_names[] ("node-id,queue")
 * @bitmap:	output, host order
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Return: 0; -EINVAL for an unknown name or a bad number; -ERANGE for a
 * number above 0xffff or with a reserved bit (9-14, mask 0x007e) set:
 * a source zeroes them (§5.8); -ENODATA for an empty bitmap.
 */
int int_bitmap_parse(const char *s, __u16 *bitmap, char *msg, size_t len);

/**
 * int_bitmap_names() - the list form of a bitmap, as int_bitmap_parse() takes it
 * @bitmap:	host order
 * @buf:	output: "node-id,queue"; "none" for 0; reserved bits as "bit9"...
 * @len:	size of @buf (160 is always enough)
 *
 * Return: @buf.
 */
const char *int_bitmap_names(__u32 bitmap, char *buf, size_t len);

/**
 * int_dscp_parse() - the DSCP signal VALUE[/MASK]
 * @s:		text; without /MASK the mask is 0x3f (exact match)
 * @dscp:	output, 6 bits
 * @mask:	output, 6 bits, not 0
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Return: 0; -EINVAL for bad numbers, a value or mask above 0x3f, a mask
 * of 0 (0/0 would match every packet: INT would be signalled by nothing),
 * or a value with bits outside the mask (it could never match).
 */
int int_dscp_parse(const char *s, __u8 *dscp, __u8 *mask, char *msg, size_t len);

/**
 * int_cfg_commit() - check a changed configuration and mark it configured
 * @cfg:	settings after `hopmark int set` (or sample, report) changed them
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Derives @hop_ml = int_bitmap_words(@bitmap) and checks: Hop ML 1..31
 * (§5.8); mode MX or XD without bitmap bit 15 (no checksum complement in
 * MX, §5.9); the source's stack at max-hops within the shim Length (3 +
 * Hop ML x max-hops <= 255 words, §5.7.2); DSCP mask not 0, value covered
 * by it; UDP port not 0 and not the collector's port (reports are never
 * instrumented); hw_id <= 63; report truncation <= %INT_REC_PKT_MAX;
 * queue threshold <= 0xffffff; coalescing at least 1 (1..255, the
 * 8-bit @rpt_coalesce).
 * Sets %INT_DOM_F_CONFIGURED.
 *
 * Return: 0; -EINVAL (-ERANGE for the stack size) with @cfg unchanged.
 */
int int_cfg_commit(struct int_domain_cfg *cfg, char *msg, size_t len);

/*
 * Watchlist rules (addresses, prefixes, ports, the words of `int watch
 * add`, add / del / format) are select/sel_text.h's, shared with `hopmark
 * postcard`.
 */

/**
 * int_cfg_format_set() - the words of `hopmark int set` for a configuration
 * @cfg:	settings
 * @buf:	output: "mode md signal dscp 0x17/0x3f instructions node-id,queue
 *		max-hops 8 ds-id 0 ds-instruction 0 hw-id 0 report-trunc 128
 *		queue-threshold 0"
 * @len:	size of @buf (320 is always enough)
 *
 * `hopmark int set` given these words writes the same settings.
 *
 * Return: @buf.
 */
const char *int_cfg_format_set(const struct int_domain_cfg *cfg, char *buf, size_t len);

#endif /* __HOPMARK_INT_SETTINGS_H */
