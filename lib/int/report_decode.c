// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * report_decode.c - Telemetry Report v2.0 payloads (report_decode.h).
 * Every length a report claims is checked against the payload before a
 * field behind it is read; a 0xff Report Length ends the walk (§3.3).
 */
#include <errno.h>
#include <string.h>

#include "common/byteorder.h"
#include "int/report_decode.h"

static const char *const rpt_err_text[INT_E_RPT_MAX - INT_E_RPT_GROUP] = {
	[INT_E_RPT_GROUP - INT_E_RPT_GROUP] =
		"payload shorter than the 8-octet Telemetry Group Header (Report 3.2)",
	[INT_E_RPT_VER - INT_E_RPT_GROUP] = "Telemetry Group Header Ver is not 2 (Report 3.2)",
	[INT_E_RPT_HDR - INT_E_RPT_GROUP] =
		"Individual Report Header truncated (fewer than 4 octets, Report 3.3)",
	[INT_E_RPT_LEN - INT_E_RPT_GROUP] =
		"Report Length runs past the end of the payload (Report 3.3)",
	[INT_E_RPT_MAIN - INT_E_RPT_GROUP] =
		"RepType 1 report shorter than its main contents and MD Length (Report 3.3.1)",
	[INT_E_RPT_MD_LEN - INT_E_RPT_GROUP] =
		"MD Length inconsistent with RepMdBits or RepType (Report 3.3, 3.3.1)",
};

const char *int_rpt_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= INT_E_RPT_GROUP && err < INT_E_RPT_MAX)
		return rpt_err_text[err - INT_E_RPT_GROUP];
	return int_dec_strerror(err);
}

int int_rpt_group_decode(const __u8 *p, size_t len, struct int_rpt_group_hdr *g)
{
	__u32 w0;

	memset(g, 0, sizeof(*g));
	if (!p || len < INT_RPT_GROUP_LEN)
		return -INT_E_RPT_GROUP;
	w0 = hm_get_be32(p);
	g->ver = w0 >> 28;
	g->hw_id = (w0 >> 22) & INT_RPT_HW_ID_MASK;
	g->seq = w0 & INT_RPT_SEQ_MASK;
	g->node_id = hm_get_be32(p + 4);
	return g->ver == INT_RPT_VERSION ? 0 : -INT_E_RPT_VER;
}

int int_rpt_next(const __u8 *p, size_t len, size_t *off, struct int_rpt *r)
{
	size_t o = *off, contents;
	const __u8 *h, *c;

	memset(r, 0, sizeof(*r));
	if (o >= len)
		return 0;
	if (len - o < INT_RPT_HDR_LEN)
		return -INT_E_RPT_HDR;
	h = p + o;
	r->off = o;
	r->rep_type = h[0] >> 4;
	r->in_type = h[0] & 0xf;
	r->len = h[1];
	r->md_len = h[2];
	r->flags = h[3];
	r->to_end = r->len == INT_RPT_LEN_TO_END;
	if (r->to_end) {
		contents = len - o - INT_RPT_HDR_LEN;
	} else {
		contents = (size_t)r->len * 4;
		if (contents > len - o - INT_RPT_HDR_LEN)
			return -INT_E_RPT_LEN;
	}
	c = h + INT_RPT_HDR_LEN;
	r->total = INT_RPT_HDR_LEN + contents;

	if (r->rep_type == INT_REP_INT) {
		size_t md = (size_t)r->md_len * 4;

		if (contents < INT_RPT_MAIN_LEN + md)
			return -INT_E_RPT_MAIN;
		r->rep_md_bits = hm_get_be16(c);
		r->ds_id = hm_get_be16(c + 2);
		r->ds_md_bits = hm_get_be16(c + 4);
		r->ds_md_status = hm_get_be16(c + 6);
		if (int_md_parse(c + INT_RPT_MAIN_LEN, r->md_len, r->rep_md_bits, true, &r->md))
			return -INT_E_RPT_MD_LEN;
		r->inner = c + INT_RPT_MAIN_LEN + md;
		r->inner_len = contents - INT_RPT_MAIN_LEN - md;
	} else {
		/* Inner Only: no metadata (§3.3); IOAM and reserved: opaque. */
		if (r->rep_type == INT_REP_INNER_ONLY && r->md_len)
			return -INT_E_RPT_MD_LEN;
		r->inner = c;
		r->inner_len = contents;
	}
	*off = r->to_end ? len : o + r->total;
	return 1;
}
