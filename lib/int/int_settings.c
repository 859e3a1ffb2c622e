// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_settings.c - an INT domain's settings: defaults, text forms and the
 * rules of int_settings.h, shared by `hopmark int` and its tests.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hm_text.h"
#include "int/int_settings.h"

const char *const int_bm_names[16] = {
	"node-id", "l1-ports", "hop-latency", "queue", "ingress-ts", "egress-ts",
	"l2-ports", "tx-util", "buffer", NULL, NULL, NULL, NULL, NULL, NULL,
	"csum-complement",
};

const char *const int_mode_names[3] = {
	[INT_MODE_MD] = "md",
	[INT_MODE_MX] = "mx",
	[INT_MODE_XD] = "xd",
};

/*
 * The shared helpers of common/hm_text.h under the short names the rules
 * below call them by.
 */
#define fail hm_fail
#define parse_num hm_parse_num
#define append hm_append

void int_cfg_defaults(struct int_domain_cfg *cfg)
{
	if (cfg->flags & INT_DOM_F_CONFIGURED)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->signal = INT_SIG_DSCP;
	cfg->mode = INT_MODE_MD;
	cfg->dscp = INT_DEF_DSCP;
	cfg->dscp_mask = INT_DEF_DSCP_MASK;
	cfg->bitmap = INT_DEF_BITMAP;
	cfg->hop_ml = int_bitmap_words(INT_DEF_BITMAP);
	cfg->max_hops = INT_DEF_MAX_HOPS;
	cfg->report_trunc = INT_DEF_REPORT_TRUNC;
	cfg->rpt_coalesce = INT_DEF_COALESCE;
	cfg->sel.sample = HM_SAMPLE_ALL;
	cfg->sel.sample_n = 1;
}

int int_bitmap_parse(const char *s, __u16 *bitmap, char *msg, size_t len)
{
	char buf[256], *tok, *save = NULL;
	unsigned long v;
	__u32 bm = 0;
	int i, err;

	if (*s >= '0' && *s <= '9') {
		err = parse_num(s, 0xffff, &v);
		if (err == -EINVAL)
			return fail(err, msg, len, "instructions are a number (0x9000) or a list of "
				    "node-id,l1-ports,hop-latency,queue,ingress-ts,egress-ts,l2-ports,"
				    "tx-util,buffer,csum-complement");
		if (err)
			return fail(err, msg, len, "the Instruction Bitmap has 16 bits (at most 0xffff)");
		bm = v;
	} else {
		if (strlen(s) >= sizeof(buf))
			return fail(-EINVAL, msg, len, "instruction list too long");
		strcpy(buf, s);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			for (i = 0; i < 16; i++)
				if (int_bm_names[i] && !strcmp(tok, int_bm_names[i]))
					break;
			if (i == 16)
				return fail(-EINVAL, msg, len, "\"%s\" is no instruction: they are "
					    "node-id,l1-ports,hop-latency,queue,ingress-ts,egress-ts,"
					    "l2-ports,tx-util,buffer,csum-complement", tok);
			bm |= 0x8000U >> i;
		}
	}
	if (bm & INT_BM_RSVD_MASK)
		return fail(-ERANGE, msg, len, "bits 9-14 (mask 0x%04x) are reserved (INT v2.1 "
			    "Section 5.8); here 0x%04x", INT_BM_RSVD_MASK, bm & INT_BM_RSVD_MASK);
	if (!bm)
		return fail(-ENODATA, msg, len, "the Instruction Bitmap is empty: no hop would add "
			    "metadata");
	*bitmap = bm;
	return 0;
}

const char *int_bitmap_names(__u32 bitmap, char *buf, size_t len)
{
	size_t off = 0;
	int i, n;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < 16; i++) {
		if (!(bitmap & (0x8000U >> i)))
			continue;
		if (int_bm_names[i])
			n = snprintf(buf + off, len - off, "%s%s", off ? "," : "", int_bm_names[i]);
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

int int_dscp_parse(const char *s, __u8 *dscp, __u8 *mask, char *msg, size_t len)
{
	unsigned long v, m = INT_DSCP_MASK;
	char buf[32], *slash;

	if (strlen(s) >= sizeof(buf))
		return fail(-EINVAL, msg, len, "the DSCP is VALUE[/MASK], 6 bits each");
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = '\0';
	if (parse_num(buf, INT_DSCP_MASK, &v) || (slash && parse_num(slash, INT_DSCP_MASK, &m)))
		return fail(-EINVAL, msg, len, "the DSCP is VALUE[/MASK], 6 bits each (0..0x3f)");
	if (!m)
		return fail(-EINVAL, msg, len, "a DSCP mask of 0 matches every packet: INT needs "
			    "a value of its own");
	if (v & ~m)
		return fail(-EINVAL, msg, len, "the DSCP 0x%02lx has bits outside the mask 0x%02lx "
			    "(0x%02lx): no packet could match", v, m, v & ~m);
	*dscp = v;
	*mask = m;
	return 0;
}

int int_cfg_commit(struct int_domain_cfg *cfg, char *msg, size_t len)
{
	__u32 hop_ml = int_bitmap_words(cfg->bitmap);
	__u32 words;

	if (cfg->mode > INT_MODE_XD)
		return fail(-EINVAL, msg, len, "mode %u is none of md, mx, xd", cfg->mode);
	if (!cfg->bitmap || (cfg->bitmap & INT_BM_RSVD_MASK))
		return fail(-EINVAL, msg, len, "the Instruction Bitmap 0x%04x is empty or has "
			    "reserved bits", cfg->bitmap);
	if (!hop_ml || hop_ml > INT_HOP_ML_MAX)
		return fail(-EINVAL, msg, len, "Hop ML %u is not 1..%u", hop_ml, INT_HOP_ML_MAX);
	if (cfg->mode != INT_MODE_MD && (cfg->bitmap & INT_BM_CSUM_COMPL))
		return fail(-EINVAL, msg, len, "csum-complement (bit 15) is INT-MD only: the "
			    "INT-MX bitmap has no bit 15 (INT v2.1 Section 5.9)");
	if (!cfg->max_hops)
		return fail(-EINVAL, msg, len, "max-hops is 1..255");
	words = 3 + hop_ml * cfg->max_hops;
	if (cfg->mode == INT_MODE_MD && words > INT_SHIM_LEN_MAX)
		return fail(-ERANGE, msg, len, "max-hops %u x Hop ML %u + 3 = %u words: the shim "
			    "Length holds %u (at most %u hops with this bitmap)", cfg->max_hops,
			    hop_ml, words, INT_SHIM_LEN_MAX, (INT_SHIM_LEN_MAX - 3) / hop_ml);
	if (cfg->signal == INT_SIG_DSCP) {
		if (!cfg->dscp_mask || cfg->dscp_mask > INT_DSCP_MASK || cfg->dscp & ~cfg->dscp_mask)
			return fail(-EINVAL, msg, len, "the DSCP 0x%02x/0x%02x is no signal",
				    cfg->dscp, cfg->dscp_mask);
	} else if (cfg->signal == INT_SIG_UDP) {
		if (!cfg->udp_port)
			return fail(-EINVAL, msg, len, "the INT UDP port is 1..65535");
		if (cfg->rpt_family && cfg->udp_port == cfg->rpt_port)
			return fail(-EINVAL, msg, len, "UDP port %u is the collector's: reports are "
				    "never instrumented, INT needs another port", cfg->udp_port);
	} else {
		return fail(-EINVAL, msg, len, "signal %u is neither dscp nor udp", cfg->signal);
	}
	if (cfg->hw_id > INT_HW_ID_MAX)
		return fail(-EINVAL, msg, len, "hw-id is 0..%u (6 bits)", INT_HW_ID_MAX);
	if (cfg->report_trunc > INT_REC_PKT_MAX)
		return fail(-EINVAL, msg, len, "report-trunc is at most %u octets",
			    INT_REC_PKT_MAX);
	if (cfg->q_threshold > INT_Q_THRESHOLD_MAX)
		return fail(-EINVAL, msg, len, "queue-threshold is at most %u bytes (the 24-bit "
			    "queue occupancy field)", INT_Q_THRESHOLD_MAX);
	if (!cfg->rpt_coalesce)
		return fail(-EINVAL, msg, len, "coalesce is 1..%u", INT_RPT_COALESCE_MAX);
	if (cfg->sel.nr_rules > HM_SEL_MAX_RULES || cfg->sel.sample > HM_SAMPLE_FLOW ||
	    !cfg->sel.sample_n)
		return fail(-EINVAL, msg, len, "the selection is inconsistent");
	cfg->hop_ml = hop_ml;
	cfg->flags |= INT_DOM_F_CONFIGURED;
	return 0;
}

const char *int_cfg_format_set(const struct int_domain_cfg *cfg, char *buf, size_t len)
{
	char names[160];
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	append(buf, len, &off, "mode %s", cfg->mode <= INT_MODE_XD ?
	       int_mode_names[cfg->mode] : "md");
	if (cfg->signal == INT_SIG_UDP)
		append(buf, len, &off, " signal udp %u", cfg->udp_port);
	else
		append(buf, len, &off, " signal dscp 0x%02x/0x%02x", cfg->dscp, cfg->dscp_mask);
	append(buf, len, &off, " instructions %s",
	       int_bitmap_names(cfg->bitmap, names, sizeof(names)));
	append(buf, len, &off, " max-hops %u ds-id %u ds-instruction %u hw-id %u report-trunc %u "
	       "queue-threshold %u", cfg->max_hops, cfg->ds_id, cfg->ds_inst, cfg->hw_id,
	       cfg->report_trunc, cfg->q_threshold);
	return buf;
}
