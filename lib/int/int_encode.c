// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_encode.c - write the INT v2.1 shim, MD/MX header and metadata stack
 * (int_decode.h), the inverse of int_decode.c: what the unit tests, the
 * selftests' helpers and tools use to build the packets they expect.
 */
#include <errno.h>
#include <string.h>

#include "common/byteorder.h"
#include "int/int_decode.h"

int int_encode_hop(__u16 bitmap, __u8 hop_ml, const struct int_hop *h, __u8 *buf)
{
	__u32 need = int_bitmap_words(bitmap), bit, i;
	__u8 *o = buf;

	if (hop_ml < need)
		return -EINVAL;
	for (bit = 0; bit < 15; bit++) {
		__u16 m = 0x8000 >> bit;

		if (!(bitmap & m))
			continue;
		switch (m) {
		case INT_BM_NODE_ID:
			hm_put_be32(o, h->node_id);
			break;
		case INT_BM_L1_PORTS:
			hm_put_be16(o, h->l1_ingress);
			hm_put_be16(o + 2, h->l1_egress);
			break;
		case INT_BM_HOP_LAT:
			hm_put_be32(o, h->hop_latency);
			break;
		case INT_BM_QUEUE:
			hm_put_be32(o, (__u32)h->queue_id << 24 | (h->queue_occupancy & 0xffffff));
			break;
		case INT_BM_INGRESS_TS:
			hm_put_be32(o, h->ingress_ts >> 32);
			hm_put_be32(o + 4, h->ingress_ts);
			break;
		case INT_BM_EGRESS_TS:
			hm_put_be32(o, h->egress_ts >> 32);
			hm_put_be32(o + 4, h->egress_ts);
			break;
		case INT_BM_L2_PORTS:
			hm_put_be32(o, h->l2_ingress);
			hm_put_be32(o + 4, h->l2_egress);
			break;
		case INT_BM_TX_UTIL:
			hm_put_be32(o, h->tx_util);
			break;
		case INT_BM_BUFFER:
			hm_put_be32(o, (__u32)h->buffer_id << 24 | (h->buffer_occupancy & 0xffffff));
			break;
		default:
			hm_put_be32(o, h->rsvd[bit - 9]);
			break;
		}
		o += (m & INT_BM_WIDE_MASK) ? 8 : 4;
	}
	/* DS metadata (§5.8: after the baseline, before the complement). */
	for (i = 0; i < hop_ml - need; i++, o += 4) {
		if (h->ds && i < h->ds_words)
			memcpy(o, h->ds + (size_t)i * 4, 4);
		else
			hm_put_be32(o, INT_UNAVAIL32);
	}
	if (bitmap & INT_BM_CSUM_COMPL) {
		hm_put_be32(o, h->csum_complement);
		o += 4;
	}
	return (int)(o - buf);
}

int int_encode(const struct int_enc *e, __u8 *buf, size_t size)
{
	size_t stack = 0, total, i;
	__u8 shim_len;
	__u8 *o;
	__u32 w0;

	if (e->type != INT_TYPE_MD && e->type != INT_TYPE_MX)
		return -EINVAL;
	if (e->type == INT_TYPE_MD) {
		if (e->hop_ml < int_bitmap_words(e->bitmap) && e->n_hops)
			return -EINVAL;
		stack = (size_t)e->n_hops * e->hop_ml * 4;
	}
	total = INT_FIXED_LEN + stack + (size_t)e->src_words * 4;
	if ((total - INT_SHIM_LEN) / 4 > INT_SHIM_LEN_MAX)
		return -EINVAL;
	if (total > size)
		return -ENOSPC;
	shim_len = e->shim_len ? e->shim_len : (__u8)((total - INT_SHIM_LEN) / 4);

	buf[0] = int_shim_type_npt(e->type, e->npt);
	buf[1] = shim_len;
	if (e->npt == INT_NPT_UDP) {
		hm_put_be16(buf + 2, e->npt_field);
	} else if (e->npt == INT_NPT_L4) {
		buf[2] = 0;
		buf[3] = e->npt_field;
	} else {
		buf[2] = 0;
		buf[3] = (e->npt_field & 0x3f) << 2;
	}
	if (e->type == INT_TYPE_MD)
		w0 = int_md_w0(e->flags & (INT_MD_D | INT_MD_E | INT_MD_M), e->hop_ml, e->rhc);
	else
		w0 = (__u32)INT_VERSION << INT_MD_VER_SHIFT | (e->flags & INT_MX_D);
	hm_put_be32(buf + 4, w0);
	hm_put_be16(buf + 8, e->bitmap);
	hm_put_be16(buf + 10, e->ds_id);
	hm_put_be16(buf + 12, e->ds_inst);
	hm_put_be16(buf + 14, e->ds_flags);
	o = buf + INT_FIXED_LEN;
	for (i = 0; e->type == INT_TYPE_MD && i < e->n_hops; i++) {
		int n = int_encode_hop(e->bitmap, e->hop_ml, &e->hops[i], o);

		if (n < 0)
			return n;
		o += n;
	}
	if (e->src_words)
		memcpy(o, e->src_data, (size_t)e->src_words * 4);
	return (int)total;
}
