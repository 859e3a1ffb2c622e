/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * sel_text.h - the text forms of a selection rule (select.h): addresses,
 * prefixes, ports with masks, the words of a watch rule ("src PREFIX dst
 * PREFIX proto P sport P[/M] dport P[/M]"), the checks a rule must pass,
 * and the watchlist's add / del. One implementation for every command
 * that takes a watch rule (`hopmark int watch`, `hopmark postcard watch`
 * and `hopmark postcard template`), so that they accept and print the
 * same words.
 *
 * Userspace only. On failure a function returns a negative errno and
 * writes the whole reason, one line without a final period, into the
 * caller's @msg.
 */
#ifndef __HOPMARK_SEL_TEXT_H
#define __HOPMARK_SEL_TEXT_H

#include <stddef.h>
#include <linux/types.h>

#include "select/select.h"

/**
 * hm_sel_addr_parse() - an IPv4 or IPv6 address (no prefix length)
 * @s:		text
 * @family:	output: 4 or 6
 * @addr:	output, network order, IPv4 in the first 4 octets, rest 0
 *
 * Return: 0 or -EINVAL.
 */
int hm_sel_addr_parse(const char *s, __u8 *family, __u8 addr[16]);

/**
 * hm_sel_prefix_parse() - an IPv4 or IPv6 ADDR[/LEN]
 * @s:		text; without /LEN the whole address
 * @family:	output: 4 or 6
 * @addr:	output, network order, IPv4 in the first 4 octets, rest 0
 * @plen:	output, prefix length
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Bits beyond the prefix length must be 0, as `ip route` demands.
 *
 * Return: 0 or -EINVAL.
 */
int hm_sel_prefix_parse(const char *s, __u8 *family, __u8 addr[16], __u8 *plen,
			char *msg, size_t len);

/**
 * hm_sel_port_parse() - a port PORT[/MASK]
 * @s:		text; without /MASK the mask is 0xffff
 * @port:	output, network order
 * @mask:	output, network order
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Return: 0; -EINVAL for bad numbers, values above 0xffff, mask 0, or a
 * port with bits outside the mask.
 */
int hm_sel_port_parse(const char *s, __be16 *port, __be16 *mask, char *msg, size_t len);

/* Which optional words hm_sel_words_parse() takes besides the 5-tuple. */
#define HM_SEL_W_SYNTHETIC	(1U << 0)	/* "synthetic": %HM_SEL_F_SYNTHETIC (INT's D bit) */

/**
 * struct hm_sel_words - what hm_sel_words_parse() saw
 * @used:	words consumed from the start of argv
 * @seen:	which keys were given: bit 0 src, 1 dst, 2 proto, 3 sport, 4 dport
 * @bad:	on failure, the word to blame (a value, or the key that lacks one)
 * @port_word:	the last port value given (the word a failing
 *		hm_sel_rule_check() is blamed on: ports without TCP or UDP),
 *		NULL when none
 */
struct hm_sel_words {
	int		used;
	__u32		seen;
	const char	*bad;
	const char	*port_word;
};
#define HM_SEL_SEEN_SRC		(1U << 0)
#define HM_SEL_SEEN_DST		(1U << 1)
#define HM_SEL_SEEN_PROTO	(1U << 2)
#define HM_SEL_SEEN_SPORT	(1U << 3)
#define HM_SEL_SEEN_DPORT	(1U << 4)

/**
 * hm_sel_words_parse() - the words of a watch rule
 * @argc:	words left
 * @argv:	the words: "src PREFIX", "dst PREFIX", "proto { tcp | udp |
 *		NUM }", "sport PORT[/MASK]", "dport PORT[/MASK]" in any order,
 *		keys abbreviated as iproute2 allows ("sp" for sport), and,
 *		with %HM_SEL_W_SYNTHETIC in @opts, "synthetic"
 * @opts:	%HM_SEL_W_*
 * @r:		output, the rule (zeroed first); not checked as a whole: that
 *		is hm_sel_rule_check()'s
 * @w:		output: words used, keys seen, the word blamed on failure
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Stops at the first word that is not one of the keys (the caller's own
 * words, e.g. "fields" of a template, or "help").
 *
 * Return: 0; -EINVAL for a bad value (@w->bad = the value); -EEXIST for a
 * key given twice (@w->bad = its second value); -ENODATA for a key
 * without its value (@w->bad = the key).
 */
int hm_sel_words_parse(int argc, char **argv, __u32 opts, struct hm_sel_rule *r,
		       struct hm_sel_words *w, char *msg, size_t len);

/**
 * hm_sel_rule_check() - whether a watchlist rule is complete and consistent
 * @r:		rule; @family 0 when it has no prefix (either family)
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Source and destination prefixes of one family; ports only with TCP or
 * UDP (other protocols have none, the key's ports are 0).
 *
 * Return: 0 or -EINVAL.
 */
int hm_sel_rule_check(const struct hm_sel_rule *r, char *msg, size_t len);

/**
 * hm_sel_rule_to_key() - the one flow a rule names exactly
 * @r:		rule: both prefixes full length (/32, /128), a protocol, and
 *		for TCP and UDP both ports without a mask
 * @k:		output, the flow key (select.h), as the datapath builds it
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * A per-flow template (pbt_tpl) is keyed by one flow, not by a rule.
 *
 * Return: 0, or -EINVAL naming what is missing or masked.
 */
int hm_sel_rule_to_key(const struct hm_sel_rule *r, struct hm_flow_key *k, char *msg,
		       size_t len);

/**
 * hm_sel_key_to_rule() - the exact rule of a flow key (hm_sel_rule_to_key()'s inverse)
 * @k:		flow key
 * @r:		output
 */
void hm_sel_key_to_rule(const struct hm_flow_key *k, struct hm_sel_rule *r);

/**
 * hm_sel_add() - append a rule to the watchlist
 * @c:		selection
 * @r:		rule, hm_sel_rule_check()ed
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Return: the new rule's index; -ENOSPC when %HM_SEL_MAX_RULES are in
 * use; -EEXIST when the same rule is there (its index in @msg).
 */
int hm_sel_add(struct hm_sel_cfg *c, const struct hm_sel_rule *r, char *msg, size_t len);

/**
 * hm_sel_del() - remove a rule; the later ones move up one index
 * @c:		selection
 * @index:	the rule's index, as the show commands print it
 *
 * Return: 0, or -ENOENT when there is no rule @index.
 */
int hm_sel_del(struct hm_sel_cfg *c, __u32 index);

/**
 * hm_sel_rule_format() - the words of a watch rule, as hm_sel_words_parse() takes them
 * @r:		rule
 * @buf:	output, e.g. "src 10.0.0.0/8 proto tcp dport 80 synthetic";
 *		"any" for a rule with nothing to match
 * @len:	size of @buf (192 is always enough)
 *
 * Return: @buf.
 */
const char *hm_sel_rule_format(const struct hm_sel_rule *r, char *buf, size_t len);

#endif /* __HOPMARK_SEL_TEXT_H */
