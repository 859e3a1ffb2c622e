// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pbt_settings.c - a PBT-M domain's settings: defaults, text forms and the
 * rules of pbt_settings.h, shared by `hopmark postcard` and its tests.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbt/pbt_mark.h"	/* pbt_mark_bit_ok(), as the datapath checks it */
#include "common/hm_text.h"
#include "pbt/pbt_settings.h"
#include "select/select.h"	/* hm_sel_addr_parse() */
#include "int/int_settings.h"	/* INT_DSCP_MASK: INT's DSCP is 6 bits */

/*
 * The shared helpers of common/hm_text.h under the short names the rules
 * below call them by.
 */
#define fail hm_fail
#define parse_num hm_parse_num
#define append hm_append

int pbt_exp_addr_parse(const char *s, const char *what, __u8 *family, __u8 addr[16],
		       char *msg, size_t len)
{
	static const __u8 v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const __u8 zero[16];

	if (hm_sel_addr_parse(s, family, addr))
		return fail(-EINVAL, msg, len, "the %s is an IPv4 or IPv6 address", what);
	if (*family == 4) {
		if (!memcmp(addr, zero, 4))
			return fail(-EDOM, msg, len, "the %s is the unspecified address 0.0.0.0: "
				    "give a unicast address", what);
		/* 224.0.0.0/4, RFC 5771 */
		if ((addr[0] & 0xf0) == 0xe0)
			return fail(-EDOM, msg, len, "the %s is a multicast address: give a "
				    "unicast address", what);
		return 0;
	}
	if (!memcmp(addr, zero, 16))
		return fail(-EDOM, msg, len, "the %s is the unspecified address ::: give a "
			    "unicast address", what);
	/* ff00::/8, RFC 4291 Section 2.7 */
	if (addr[0] == 0xff)
		return fail(-EDOM, msg, len, "the %s is a multicast address: give a unicast "
			    "address", what);
	/* ::ffff:0:0/96, RFC 4291 Section 2.5.5.2: an IPv4 node, sent to as IPv4 */
	if (!memcmp(addr, v4mapped, sizeof(v4mapped)))
		return fail(-EDOM, msg, len, "the %s is an IPv4-mapped IPv6 address: give its "
			    "IPv4 form %u.%u.%u.%u", what, addr[12], addr[13], addr[14], addr[15]);
	return 0;
}

static bool one_bit(__u32 v)
{
	return v && !(v & (v - 1));
}

void pbt_cfg_defaults(struct pbt_domain_cfg *cfg)
{
	if (cfg->flags & PBT_DOM_F_CONFIGURED)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->v4_mark = PBT_DEF_V4_MARK;
	cfg->v6_mark = PBT_DEF_V6_MARK;
	cfg->v4_tos_bit = PBT_DEF_TOS_BIT;
	cfg->v6_tc_bit = PBT_DEF_TOS_BIT;
	cfg->trig_hold_ns = PBT_DEF_HOLD_NS;
	cfg->exp_port = HM_IPFIX_PORT;
	cfg->exp_refresh_s = PBT_DEF_EXP_REFRESH_S;
	cfg->sel.sample = HM_SAMPLE_ALL;
	cfg->sel.sample_n = 1;
}

/* A TOS-octet value: 0 or the reason; @what names it in the message. */
static int tos_value(const char *s, const char *what, unsigned long *v, char *msg, size_t len)
{
	int err = parse_num(s, 0xff, v);

	if (err == -EINVAL)
		return fail(err, msg, len, "%s is a number, the bit's value in the TOS / Traffic "
			    "Class octet (0x04, 0x80)", what);
	if (err)
		return fail(err, msg, len, "%s is within the 8-bit TOS / Traffic Class octet "
			    "(at most 0xff)", what);
	if (*v & PBT_ECN_MASK)
		return fail(-EDOM, msg, len, "%s 0x%02lx has an ECN bit (mask 0x%02x): ECN is end "
			    "to end (RFC 3168), a mark there would read as a congestion signal",
			    what, *v, PBT_ECN_MASK);
	return 0;
}

int pbt_mark_bit_parse(const char *s, __u8 *bit, char *msg, size_t len)
{
	unsigned long v;
	int err = tos_value(s, "the mark bit", &v, msg, len);

	if (err)
		return err;
	if (!one_bit(v))
		return fail(-ENOTUNIQ, msg, len, "the mark is exactly one bit of 0x%02x (0x04, "
			    "0x08, ..., 0x80); 0x%02lx is %s", PBT_DSCP_BITS, v,
			    v ? "several bits" : "no bit");
	*bit = v;
	return 0;
}

int pbt_altmark_parse(const char *s, __u8 *bits, char *msg, size_t len)
{
	unsigned long v;
	int err;

	if (!strcmp(s, "none")) {
		*bits = 0;
		return 0;
	}
	err = tos_value(s, "the Alternate Marking bits", &v, msg, len);
	if (err)
		return err;
	*bits = v;
	return 0;
}

int pbt_fields_parse(const char *s, __u32 *fields, char *msg, size_t len)
{
	char buf[256], *tok, *save = NULL;
	__u32 f = 0;
	int i;

	if (!strcmp(s, "all")) {
		*fields = PBT_FLD_ALL;
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return fail(-EINVAL, msg, len, "field list too long");
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < PBT_FLD_BITS; i++)
			if (!strcmp(tok, pbt_fld_names[i]))
				break;
		if (i == PBT_FLD_BITS)
			return fail(-EINVAL, msg, len, "\"%s\" is no field: they are nexthop,tos,"
				    "length,srh,header,sojourn (or all)", tok);
		f |= 1U << i;
	}
	if (!f)
		return fail(-ENODATA, msg, len, "the field list is empty: the basic data set needs "
			    "no template");
	*fields = f;
	return 0;
}

const char *pbt_fields_format(__u32 fields, char *buf, size_t len)
{
	size_t off = 0;
	int i, n;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < 32; i++) {
		if (!(fields & (1U << i)))
			continue;
		if (i < PBT_FLD_BITS)
			n = snprintf(buf + off, len - off, "%s%s", off ? "," : "", pbt_fld_names[i]);
		else
			n = snprintf(buf + off, len - off, "%sbit%d", off ? "," : "", i);
		if (n < 0 || (size_t)n >= len - off)
			break;
		off += n;
	}
	if (!off)
		snprintf(buf, len, "none");
	return buf;
}

/* The mark bit @bit (of @what) is one bit of 0xfc and no Alternate Marking bit. */
static int check_bit(__u8 bit, __u8 altmark, const char *what, char *msg, size_t len)
{
	if (!pbt_mark_bit_ok(bit, 0))
		return fail(-EINVAL, msg, len, "the %s 0x%02x is not exactly one bit of 0x%02x",
			    what, bit, PBT_DSCP_BITS);
	if (bit & altmark)
		return fail(-EINVAL, msg, len, "the %s 0x%02x is one of the Alternate Marking "
			    "bits 0x%02x (RFC 9341): a bit has one use; choose another, or "
			    "\"altmark\" without it", what, bit, altmark);
	return 0;
}

int pbt_cfg_commit(struct pbt_domain_cfg *cfg, char *msg, size_t len)
{
	const struct hm_sel_cfg *sel = &cfg->sel;
	int err;

	if (cfg->v4_mark != PBT_V4_RSVD && cfg->v4_mark != PBT_V4_TOS)
		return fail(-EINVAL, msg, len, "mark-ipv4 %u is neither reserved nor tos",
			    cfg->v4_mark);
	if (cfg->v6_mark != PBT_V6_TC && cfg->v6_mark != PBT_V6_OFLAG)
		return fail(-EINVAL, msg, len, "mark-ipv6 %u is neither tc nor oflag", cfg->v6_mark);
	if (cfg->altmark_tos & ~PBT_DSCP_BITS)
		return fail(-EINVAL, msg, len, "the Alternate Marking bits 0x%02x are outside the "
			    "DSCP bits 0x%02x", cfg->altmark_tos, PBT_DSCP_BITS);
	if (cfg->v4_mark == PBT_V4_TOS) {
		err = check_bit(cfg->v4_tos_bit, cfg->altmark_tos, "IPv4 TOS mark bit", msg, len);
		if (err)
			return err;
	}
	/* The O-flag method marks a packet without an SRH with the Traffic Class bit. */
	err = check_bit(cfg->v6_tc_bit, cfg->altmark_tos, "IPv6 Traffic Class mark bit", msg, len);
	if (err)
		return err;
	if (sel->nr_rules > HM_SEL_MAX_RULES)
		return fail(-EINVAL, msg, len, "the watchlist has %u rules, at most %u",
			    sel->nr_rules, HM_SEL_MAX_RULES);
	if (sel->sample > PBT_SAMPLE_INTERVAL)
		return fail(-EINVAL, msg, len, "sampling mode %u is none of all, packet, flow, "
			    "interval", sel->sample);
	if (!sel->sample_n)
		return fail(-EINVAL, msg, len, "N of 1:N sampling is at least 1");
	if (sel->sample == PBT_SAMPLE_INTERVAL &&
	    (cfg->interval_ns < 1000000 || cfg->interval_ns > PBT_INTERVAL_MAX_NS))
		return fail(-EINVAL, msg, len, "the sampling interval is 1 ms..1 h");
	if (cfg->meter_rate > PBT_METER_RATE_MAX)
		return fail(-EINVAL, msg, len, "the meter's rate is at most %u marked packets per "
			    "second", PBT_METER_RATE_MAX);
	if (cfg->meter_rate && (!cfg->meter_burst || cfg->meter_burst > PBT_METER_BURST_MAX))
		return fail(-EINVAL, msg, len, "the meter's burst is 1..%u packets",
			    PBT_METER_BURST_MAX);
	if (cfg->trig_flags & ~(PBT_TRIG_CE | PBT_TRIG_QDEPTH))
		return fail(-EINVAL, msg, len, "unknown trigger flags 0x%x", cfg->trig_flags);
	if ((cfg->trig_flags & PBT_TRIG_QDEPTH) && !cfg->trig_qdepth)
		return fail(-EINVAL, msg, len, "the queue depth trigger needs a threshold of at "
			    "least 1 byte");
	if (cfg->trig_hold_ns < 1000000 || cfg->trig_hold_ns > PBT_TRIG_HOLD_MAX_NS)
		return fail(-EINVAL, msg, len, "a trigger's hold is 1 ms..1 h");
	if (cfg->exp_transport > PBT_EXP_TCP)
		return fail(-EINVAL, msg, len, "export transport %u is neither udp nor tcp",
			    cfg->exp_transport);
	if (cfg->exp_transport) {
		if (cfg->exp_family != 4 && cfg->exp_family != 6)
			return fail(-EINVAL, msg, len, "the collector's family %u is neither 4 nor 6",
				    cfg->exp_family);
		if (!cfg->exp_port)
			return fail(-EINVAL, msg, len, "the collector's port is 1..65535");
		if (cfg->exp_transport == PBT_EXP_UDP && !cfg->exp_refresh_s)
			return fail(-EINVAL, msg, len, "over UDP the templates are sent again every "
				    "refresh seconds (RFC 7011 Section 8.4): at least 1");
	}
	cfg->flags |= PBT_DOM_F_CONFIGURED;
	return 0;
}

const char *pbt_cfg_format_set(const struct pbt_domain_cfg *cfg, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (cfg->v4_mark == PBT_V4_TOS)
		append(buf, len, &off, "mark-ipv4 tos 0x%02x", cfg->v4_tos_bit);
	else
		append(buf, len, &off, "mark-ipv4 reserved");
	if (cfg->v6_mark == PBT_V6_OFLAG)
		append(buf, len, &off, " mark-ipv6 oflag tc 0x%02x", cfg->v6_tc_bit);
	else
		append(buf, len, &off, " mark-ipv6 tc 0x%02x", cfg->v6_tc_bit);
	if (cfg->altmark_tos)
		append(buf, len, &off, " altmark 0x%02x", cfg->altmark_tos);
	else
		append(buf, len, &off, " altmark none");
	if (cfg->meter_rate)
		append(buf, len, &off, " meter %u burst %u", cfg->meter_rate, cfg->meter_burst);
	else
		append(buf, len, &off, " meter 0");
	if (cfg->trig_flags & PBT_TRIG_CE)
		append(buf, len, &off, " trigger ce");
	if (cfg->trig_flags & PBT_TRIG_QDEPTH)
		append(buf, len, &off, " trigger qdepth %u", cfg->trig_qdepth);
	if (!cfg->trig_flags)
		append(buf, len, &off, " trigger off");
	append(buf, len, &off, " hold %llu", (unsigned long long)(cfg->trig_hold_ns / 1000000));
	return buf;
}

const char *pbt_sample_format(const struct pbt_domain_cfg *cfg, char *buf, size_t len)
{
	const struct hm_sel_cfg *sel = &cfg->sel;

	if (sel->sample == PBT_SAMPLE_INTERVAL)
		snprintf(buf, len, "interval %llu",
			 (unsigned long long)(cfg->interval_ns / 1000000));
	else if (sel->sample == HM_SAMPLE_PACKET || sel->sample == HM_SAMPLE_FLOW)
		snprintf(buf, len, "%s %u", pbt_sample_names[sel->sample], sel->sample_n);
	else if (sel->sample == HM_SAMPLE_ALL)
		snprintf(buf, len, "all");
	else
		snprintf(buf, len, "unknown %u", sel->sample);
	return buf;
}

__u32 pbt_role_flags_parse(const char *s)
{
	int i;

	for (i = 0; i < PBT_NR_ROLES; i++)
		if (!strcmp(s, pbt_role_names[i].name))
			return pbt_role_names[i].flag;
	return 0;
}

__u8 pbt_mark_tos_bits(const struct pbt_domain_cfg *cfg)
{
	__u8 bits;

	if (!cfg || !(cfg->flags & PBT_DOM_F_CONFIGURED))
		return 0;
	bits = cfg->v6_tc_bit;
	if (cfg->v4_mark == PBT_V4_TOS)
		bits |= cfg->v4_tos_bit;
	return bits & PBT_DSCP_BITS;
}

int pbt_int_dscp_check(__u8 pbt_bits, const struct int_domain_cfg *intc, char *msg, size_t len)
{
	__u8 int_bits, both, free_bits;
	bool one;

	if (!intc || !(intc->flags & INT_DOM_F_CONFIGURED) || intc->signal != INT_SIG_DSCP)
		return 0;
	int_bits = (__u8)((intc->dscp_mask & INT_DSCP_MASK) << 2);
	both = pbt_bits & int_bits;
	if (!both)
		return 0;
	one = !(both & (both - 1));
	free_bits = PBT_DSCP_BITS & ~int_bits;
	if (free_bits)
		return fail(-EBUSY, msg, len, "PBT-M's mark %s 0x%02x %s under INT's DSCP signal "
			    "0x%02x/0x%02x (TOS / Traffic Class 0x%02x/0x%02x): one DSCP bit cannot "
			    "serve both (INT's packets would count as marked, a mark could change "
			    "their DSCP); bits free of INT's mask: 0x%02x", one ? "bit" : "bits",
			    both, one ? "lies" : "lie", intc->dscp, intc->dscp_mask,
			    (__u8)(intc->dscp << 2), int_bits, free_bits);
	return fail(-EBUSY, msg, len, "PBT-M's mark %s 0x%02x %s under INT's DSCP signal "
		    "0x%02x/0x%02x (TOS / Traffic Class 0x%02x/0x%02x): one DSCP bit cannot serve "
		    "both (INT's packets would count as marked, a mark could change their DSCP); "
		    "INT's mask leaves no bit free: narrow it (\"hopmark int set signal dscp "
		    "V/M\") or signal INT by UDP port", one ? "bit" : "bits", both,
		    one ? "lies" : "lie", intc->dscp, intc->dscp_mask, (__u8)(intc->dscp << 2),
		    int_bits);
}
