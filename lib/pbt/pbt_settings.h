/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pbt_settings.h - a PBT-M domain's settings as `hopmark postcard` writes
 * them into pbt_cfg[0] (pbt_settings.c): the defaults of a domain nobody
 * configured, the text forms of the mark bits, of the template fields and
 * of the sampling (parsed and printed back the same way, so that `hopmark
 * postcard show` prints words `hopmark postcard set` takes), and the rules
 * a configuration must satisfy before the datapath sees it. Every node of
 * a domain must hold the same marking settings, so these rules live here
 * once. See Documentation/pbt.rst, "CLI".
 *
 * Userspace only, no libbpf: reading and writing the maps is the caller's.
 * On failure a function returns a negative errno and writes the whole
 * reason, one line without a final period, into the caller's @msg.
 */
#ifndef __HOPMARK_PBT_SETTINGS_H
#define __HOPMARK_PBT_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "common/hopmark_run.h"	/* HM_IPFIX_PORT, the export's default port */
#include "int/int_maps.h"		/* struct int_domain_cfg: INT's DSCP signal */
#include "pbt/pbt_maps.h"
#include "select/sel_text.h"

/*
 * Defaults of a new domain (pbt_cfg_defaults()). IPv4 marks the reserved
 * flag bit (pbt_maps.h says why). The IPv6 Traffic Class bit is 0x04, the
 * DSCP's least significant bit: every codepoint of RFC 2474's Pool 1
 * (xxxxx0, the standardised ones: CS, AF, EF) has it 0, so marking turns
 * no standard codepoint into another standard one; a domain using RFC
 * 8622's LE (000001) or Pool 3 codepoints picks another bit. It is also
 * the TOS bit offered for %PBT_V4_TOS.
 */
#define PBT_DEF_V4_MARK		PBT_V4_RSVD
#define PBT_DEF_V6_MARK		PBT_V6_TC
#define PBT_DEF_TOS_BIT		0x04
#define PBT_DEF_HOLD_NS		1000000000ULL	/* a triggered flow stays marked 1 s */
#define PBT_DEF_EXP_REFRESH_S	60		/* UDP template refresh (RFC 7011 §8.4) */

#define PBT_DSCP_BITS		0xfc		/* the TOS / Traffic Class bits a mark may use */
#define PBT_METER_RATE_MAX	10000000U	/* marked packets per second */
#define PBT_METER_BURST_MAX	(0xffffffffU / 1024)	/* tokens count 1/1024 packets in 32 bits */
#define PBT_TRIG_HOLD_MAX_NS	(3600ULL * 1000000000ULL)
#define PBT_INTERVAL_MAX_NS	(3600ULL * 1000000000ULL)

/*
 * The meter's bucket depth when `meter RATE` gives no burst: a tenth of a
 * second of marks, at least one, so that a test over seconds sees the rate
 * within a few percent.
 */
static inline __u32 pbt_meter_burst_default(__u32 rate)
{
	return rate / 10 ? rate / 10 : 1;
}

/* Names of the PBT_FLD_* bits, by bit number (pbt_names.c): "nexthop", ... */
#define PBT_FLD_BITS		6
extern const char *const pbt_fld_names[PBT_FLD_BITS];

/* "all", "packet", "flow", "interval", indexed by HM_SAMPLE_* / %PBT_SAMPLE_INTERVAL. */
extern const char *const pbt_sample_names[PBT_SAMPLE_INTERVAL + 1];

/**
 * struct pbt_role_name - a role of `hopmark postcard enable`
 * @name:	"head", "ingress", "egress", "end"
 * @flag:	its %PBT_IF_F_* in struct pbt_if_cfg
 */
struct pbt_role_name {
	const char	*name;
	__u32		flag;
};
#define PBT_NR_ROLES	4
extern const struct pbt_role_name pbt_role_names[PBT_NR_ROLES];

/**
 * pbt_cfg_defaults() - give an unconfigured domain its defaults
 * @cfg:	pbt_cfg[0] as read; all-zero when nobody configured the domain
 *
 * A domain with %PBT_DOM_F_CONFIGURED is left as it is. Otherwise: IPv4
 * reserved flag bit, IPv6 Traffic Class bit 0x04 (also the TOS bit of
 * mark-ipv4 tos), no Alternate Marking bits, no meter, no trigger (hold
 * 1 s), every packet watched and sampled, no collector (UDP port 4739 and
 * a 60 s template refresh once one is set). The domain stays unconfigured
 * until pbt_cfg_commit().
 */
void pbt_cfg_defaults(struct pbt_domain_cfg *cfg);

/**
 * pbt_mark_bit_parse() - a TOS / Traffic Class mark bit
 * @s:		the bit's value in the octet: 0x04, 0x80, 8...
 * @bit:	output, one bit of 0xfc
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Return: 0; -EINVAL for a bad number; -ERANGE above 0xff; -EDOM for an
 * ECN bit (0x01, 0x02: ECN is end to end, RFC 3168, a mark would read as
 * a congestion signal); -ENOTUNIQ for a value that is not exactly one bit.
 */
int pbt_mark_bit_parse(const char *s, __u8 *bit, char *msg, size_t len);

/**
 * pbt_altmark_parse() - the TOS / Traffic Class bits of Alternate Marking
 * @s:		"none", or a mask: 0x0c, 0x30...
 * @bits:	output, within 0xfc (0 for none)
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * RFC 9341's marking uses DSCP bits (its §3 and §7 discuss them); a bit
 * the domain gives to Alternate Marking is then refused as PBT-M's mark.
 *
 * Return: 0; -EINVAL for a bad number; -ERANGE above 0xff; -EDOM for an
 * ECN bit.
 */
int pbt_altmark_parse(const char *s, __u8 *bits, char *msg, size_t len);

/**
 * pbt_fields_parse() - the fields of a per-flow template
 * @s:		comma-separated pbt_fld_names[] ("nexthop,sojourn") or "all"
 * @fields:	output, %PBT_FLD_*
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Return: 0; -EINVAL for an unknown name (the known ones in @msg);
 * -ENODATA for an empty list.
 */
int pbt_fields_parse(const char *s, __u32 *fields, char *msg, size_t len);

/**
 * pbt_fields_format() - the list form of %PBT_FLD_* bits, as pbt_fields_parse() takes it
 * @fields:	%PBT_FLD_*
 * @buf:	output: "nexthop,sojourn"; "none" for 0; unknown bits as "bitN"
 * @len:	size of @buf (96 is always enough)
 *
 * Return: @buf.
 */
const char *pbt_fields_format(__u32 fields, char *buf, size_t len);

/**
 * pbt_exp_addr_parse() - the collector's or the export's source address
 * @s:		an IPv4 or IPv6 address, as `postcard export set` takes it
 * @what:	the word's name for @msg: "collector", "src"
 * @family:	output, 4 or 6
 * @addr:	output, network order (IPv4: the first 4 octets, the rest 0)
 * @msg:	the reason on failure, naming @what
 * @len:	size of @msg
 *
 * An export goes to one unicast host: the unspecified address (0.0.0.0,
 * ::) and multicast (224.0.0.0/4, RFC 5771; ff00::/8, RFC 4291 Section
 * 2.7) are refused. An IPv4-mapped IPv6 address (::ffff:0:0/96, RFC 4291
 * Section 2.5.5.2) is refused too, @msg giving its IPv4 form: the
 * exporter sends to such a host over IPv4.
 *
 * Return: 0; -EINVAL for a word that is not an address; -EDOM for one of
 * the refused addresses.
 */
int pbt_exp_addr_parse(const char *s, const char *what, __u8 *family, __u8 addr[16],
		       char *msg, size_t len);

/**
 * pbt_cfg_commit() - check a changed configuration and mark it configured
 * @cfg:	settings after a `hopmark postcard` command changed them
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * Checks: the IPv4 and IPv6 methods are known; the TOS bit (with mark-ipv4
 * tos) and the Traffic Class bit (always: the O-flag method marks a packet
 * without an SRH with it) are each exactly one bit of 0xfc and none of
 * @altmark_tos's; @altmark_tos within 0xfc; the sampling mode is known,
 * N at least 1, an interval 1 ms..1 h; the meter's burst 1..%PBT_METER_BURST_MAX
 * with a rate of at most %PBT_METER_RATE_MAX; a trigger's hold 1 ms..1 h, the
 * queue depth trigger's threshold not 0; the export's transport, family
 * (4 or 6), port (not 0) and, over UDP, a template refresh of at least 1 s;
 * the watchlist's size. Sets %PBT_DOM_F_CONFIGURED.
 *
 * Return: 0; -EINVAL with @cfg unchanged.
 */
int pbt_cfg_commit(struct pbt_domain_cfg *cfg, char *msg, size_t len);

/**
 * pbt_cfg_format_set() - the words of `hopmark postcard set` for a configuration
 * @cfg:	settings
 * @buf:	output: "mark-ipv4 reserved mark-ipv6 tc 0x04 altmark none meter 0
 *		trigger off hold 1000"
 * @len:	size of @buf (192 is always enough)
 *
 * `hopmark postcard set` given these words writes the same marking settings
 * (a trigger of both ce and qdepth prints "trigger ce trigger qdepth N").
 *
 * Return: @buf.
 */
const char *pbt_cfg_format_set(const struct pbt_domain_cfg *cfg, char *buf, size_t len);

/**
 * pbt_sample_format() - the words of `hopmark postcard sample` for a configuration
 * @cfg:	settings
 * @buf:	output: "all", "packet 100", "flow 8", "interval 50"
 * @len:	size of @buf (48 is always enough)
 *
 * Return: @buf.
 */
const char *pbt_sample_format(const struct pbt_domain_cfg *cfg, char *buf, size_t len);

/**
 * pbt_role_flags_parse() - the %PBT_IF_F_* of a role name
 * @s:		"head", "ingress", "egress" or "end"
 *
 * Return: the flag, 0 for an unknown name.
 */
__u32 pbt_role_flags_parse(const char *s);

/**
 * pbt_mark_tos_bits() - the TOS / Traffic Class octet bits a PBT-M domain marks
 * @cfg:	pbt_cfg[0] as read, or NULL
 *
 * The Traffic Class bit always (the O-flag method marks a packet without an
 * SRH with it), the IPv4 TOS bit with %PBT_V4_TOS. Bits of the octet
 * (DSCP << 2), not of the DSCP.
 *
 * Return: the bits; 0 for NULL or a domain without %PBT_DOM_F_CONFIGURED.
 */
__u8 pbt_mark_tos_bits(const struct pbt_domain_cfg *cfg);

/**
 * pbt_int_dscp_check() - refuse a PBT-M mark bit under INT's DSCP signal
 * @pbt_bits:	TOS / Traffic Class octet bits PBT-M marks (or is asked to)
 * @intc:	int_cfg[0] as read, or NULL when INT's map is not pinned
 * @msg:	the reason on failure
 * @len:	size of @msg
 *
 * INT v2.1 §5.7.2's DSCP signalling matches (DSCP & @dscp_mask) == @dscp,
 * the octet's bits @dscp_mask << 2; PBT-M's mark is one bit of the same
 * octet. A bit under INT's mask serves both: INT's packets (default DSCP
 * 0x17, TOS 0x5c, which has 0x04) read as marked, and a mark can turn a
 * DSCP into INT's (or out of it). One domain gives a DSCP bit to one use.
 * `hopmark postcard set` (mark-ipv4 tos, mark-ipv6) and `hopmark int set
 * signal dscp` both call this, with the other family's pinned settings.
 * Documentation/pbt.rst and int.rst, "PBT-M and INT on one node".
 *
 * Return: 0 when INT is not configured, signals by UDP port, or its mask
 * leaves @pbt_bits free; -EBUSY with the bits, INT's signal and the bits
 * still free in @msg.
 */
int pbt_int_dscp_check(__u8 pbt_bits, const struct int_domain_cfg *intc, char *msg, size_t len);

#endif /* __HOPMARK_PBT_SETTINGS_H */
