// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * report_encode.c - Telemetry Report v2.0 datagrams from INT records. See
 * report_encode.h for the choices made where the spec is open.
 */
#include <errno.h>
#include <string.h>

#include "common/byteorder.h"
#include "common/ip_proto.h"
#include "int/report_encode.h"

/* See report_encode.h. */
__u32 int_rpt_enc_trunc(const struct int_rpt_enc_cfg *cfg)
{
	__u32 t = cfg->trunc;

	if (t > INT_REC_PKT_MAX)
		t = INT_REC_PKT_MAX;
	if (cfg->coalesce > 1 && t > INT_RPT_TRUNC_COALESCED_MAX)
		t = INT_RPT_TRUNC_COALESCED_MAX;
	return t;
}

/* See report_encode.h. */
int int_rpt_record_md(const struct int_record *r, struct int_rpt_md *out)
{
	__u16 bits = r->rep_md_bits;
	__u32 want = int_bitmap_words(bits) * 4;
	__u32 len = r->md_len;

	/* Bit 0 is reserved: the Node ID is in the group header (§3.3.1). */
	if (bits & INT_BM_NODE_ID)
		return -EINVAL;
	if (len > INT_REC_MD_MAX || len & 3)
		return -EINVAL;
	if (len == want) {
		memcpy(out->md, r->md, len);
	} else if ((bits & INT_RPT_MD_DROP) && len + 4 == want) {
		/* Bit 15 set, its word left to the record's own fields. */
		memcpy(out->md, r->md, len);
		out->md[len] = r->queue_id;
		out->md[len + 1] = r->drop_reason;
		out->md[len + 2] = 0;
		out->md[len + 3] = 0;
		len += 4;
	} else {
		return -EINVAL;
	}

	if (r->kind == INT_REC_DROP && !(bits & INT_RPT_MD_DROP)) {
		if (len + 4 > INT_REC_MD_MAX)
			return -EINVAL;
		out->md[len] = r->queue_id;
		out->md[len + 1] = r->drop_reason;
		out->md[len + 2] = 0;
		out->md[len + 3] = 0;
		len += 4;
		bits |= INT_RPT_MD_DROP;
	} else if (r->kind != INT_REC_DROP && (bits & INT_RPT_MD_DROP)) {
		/* Sink option 2: no drop reason unless dropped; it is the last word. */
		len -= 4;
		bits &= ~INT_RPT_MD_DROP;
	}
	out->rep_md_bits = bits;
	out->len = len;
	return 0;
}

/* See report_encode.h. */
int int_rpt_record_flags(const struct int_record *r)
{
	__u8 f = r->flags & (INT_RPT_F_D | INT_RPT_F_Q | INT_RPT_F_F | INT_RPT_F_I);

	switch (r->kind) {
	case INT_REC_SINK:
	case INT_REC_XD:
	case INT_REC_MX:
		return f | INT_RPT_F_F;
	case INT_REC_DROP:
		return f | INT_RPT_F_D;
	case INT_REC_QUEUE:
		return f | INT_RPT_F_Q;
	}
	return -EINVAL;
}

/* See report_encode.h. */
int int_rpt_report_encode(void *buf, size_t room, const struct int_record *r,
			  const struct int_rpt_enc_cfg *cfg, bool *to_end)
{
	struct int_rpt_md md;
	__u32 pkt, pkt_pad, words, total;
	__u8 *p = buf, in_type;
	int flags, err;

	*to_end = false;
	if (r->family != 4 && r->family != 6)
		return -EINVAL;
	if (r->pkt_len > INT_REC_PKT_MAX)
		return -EINVAL;
	flags = int_rpt_record_flags(r);
	if (flags < 0)
		return flags;
	err = int_rpt_record_md(r, &md);
	if (err)
		return err;

	pkt = r->pkt_len;
	if (pkt > int_rpt_enc_trunc(cfg))
		pkt = int_rpt_enc_trunc(cfg);
	in_type = !pkt ? INT_IN_NONE : r->family == 4 ? INT_IN_IPV4 : INT_IN_IPV6;
	pkt_pad = (pkt + 3) & ~3U;
	words = (INT_RPT_MAIN_LEN + md.len + pkt_pad) / 4;
	if (words >= INT_RPT_LEN_TO_END) {
		/* §3.3 (PR #89): 0xff, the report runs to the end of the payload. */
		*to_end = true;
		pkt_pad = pkt;
	}
	total = INT_RPT_HDR_LEN + INT_RPT_MAIN_LEN + md.len + pkt_pad;
	if (total > room)
		return -ENOSPC;

	p[0] = INT_REP_INT << 4 | in_type;
	p[1] = *to_end ? INT_RPT_LEN_TO_END : words;
	p[2] = md.len / 4;
	p[3] = flags;
	p += INT_RPT_HDR_LEN;
	hm_put_be16(p, md.rep_md_bits);
	hm_put_be16(p + 2, cfg->ds_id);
	hm_put_be16(p + 4, 0);		/* DSMdBits: records carry no DS metadata */
	hm_put_be16(p + 6, 0);		/* DSMdStatus */
	p += INT_RPT_MAIN_LEN;
	memcpy(p, md.md, md.len);
	p += md.len;
	memcpy(p, r->pkt, pkt);
	memset(p + pkt, 0, pkt_pad - pkt);
	return total;
}

/* See report_encode.h. */
void int_rpt_group_encode(void *buf, __u8 hw_id, __u32 seq, __u32 node_id)
{
	hm_put_be32(buf, int_rpt_group_w0(hw_id, seq));
	hm_put_be32((__u8 *)buf + 4, node_id);
}

/* See report_encode.h. */
void int_rpt_dgram_start(struct int_rpt_dgram *d, __u8 hw_id, __u32 seq, __u32 node_id)
{
	d->n = 0;
	d->to_end = false;
	d->node_id = node_id;
	d->hw_id = hw_id & INT_RPT_HW_ID_MASK;
	d->seq = seq & INT_RPT_SEQ_MASK;
	d->sport_hash = 0;
	int_rpt_group_encode(d->buf, hw_id, seq, node_id);
	d->len = INT_RPT_GROUP_LEN;
}

/* See report_encode.h. */
int int_rpt_dgram_add(struct int_rpt_dgram *d, const struct int_record *r,
		      const struct int_rpt_enc_cfg *cfg)
{
	size_t max = cfg->max_len < sizeof(d->buf) ? cfg->max_len : sizeof(d->buf);
	unsigned int coalesce = cfg->coalesce ? cfg->coalesce : 1;
	bool to_end;
	int n;

	if (d->to_end || d->n >= coalesce || r->node_id != d->node_id ||
	    (cfg->hw_id & INT_RPT_HW_ID_MASK) != d->hw_id)
		return 0;
	if (d->len >= max)
		return d->n ? 0 : -E2BIG;
	n = int_rpt_report_encode(d->buf + d->len, max - d->len, r, cfg, &to_end);
	if (n == -ENOSPC)
		return d->n ? 0 : -E2BIG;
	if (n < 0)
		return n;
	if (!d->n)
		d->sport_hash = int_rpt_inner_hash(r);
	d->len += n;
	d->n++;
	d->to_end = to_end;
	return 1;
}

static __u32 mix32(__u32 h, __u32 v)
{
	h ^= v;
	h *= 0x9e3779b1U;
	return h ^ (h >> 15);
}

/* See report_encode.h. */
__u16 int_rpt_inner_hash(const struct int_record *r)
{
	const __u8 *p = r->pkt;
	__u32 len = r->pkt_len > INT_REC_PKT_MAX ? INT_REC_PKT_MAX : r->pkt_len;
	__u32 h = 0x68706d6bU, l4 = 0, ports = 0, i, alen;
	const __u8 *a = NULL;
	__u8 proto = 0;

	if (r->family == 4 && len >= 20) {
		l4 = (p[0] & 0x0f) * 4;
		proto = p[9];
		a = p + 12;
		alen = 8;
	} else if (r->family == 6 && len >= 40) {
		l4 = 40;
		proto = p[6];
		a = p + 8;
		alen = 32;
	}
	if (a)
		for (i = 0; i < alen; i += 4)
			h = mix32(h, hm_get_be32(a + i));
	if ((proto == HM_IPPROTO_TCP || proto == HM_IPPROTO_UDP) && l4 && l4 + 4 <= len)
		ports = hm_get_be32(p + l4);
	h = mix32(h, proto);
	h = mix32(h, ports);
	h = (h ^ (h >> 16)) & 0xffff;
	return h ? h : 1;
}

/* See report_encode.h. */
__u32 int_rpt_seq_next(struct int_rpt_seqs *s, __u32 node_id, __u8 hw_id, __u8 family,
		       const __u8 *addr, __u16 port)
{
	size_t alen = family == 4 ? 4 : 16;
	struct int_rpt_seq_entry *e;
	unsigned int i;
	__u32 seq;

	hw_id &= INT_RPT_HW_ID_MASK;
	for (i = 0; i < INT_RPT_SEQ_ENTRIES; i++) {
		e = &s->e[i];
		if (e->used && e->node_id == node_id && e->hw_id == hw_id &&
		    e->family == family && e->port == port && !memcmp(e->addr, addr, alen))
			goto found;
	}
	for (i = 0; i < INT_RPT_SEQ_ENTRIES && s->e[i].used; i++)
		;
	if (i == INT_RPT_SEQ_ENTRIES) {
		i = s->victim;
		s->victim = (s->victim + 1) % INT_RPT_SEQ_ENTRIES;
	}
	e = &s->e[i];
	memset(e, 0, sizeof(*e));
	e->used = true;
	e->node_id = node_id;
	e->hw_id = hw_id;
	e->family = family;
	e->port = port;
	memcpy(e->addr, addr, alen);
found:
	seq = e->next;
	e->next = (e->next + 1) & INT_RPT_SEQ_MASK;
	return seq;
}
