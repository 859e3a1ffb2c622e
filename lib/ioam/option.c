// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * option.c - IOAM options other than the Pre-allocated Trace (option.h):
 * the walk over the IOAM options of a Hop-by-Hop header and the Direct
 * Export option's fields. Every length is checked against the bytes at
 * hand before a field is read.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "ioam/option.h"

_Static_assert(HM_IOAM_DEX_HDR_LEN == sizeof(struct hm_ioam6_dex_hdr),
	       "IOAM Direct Export header size");

int hm_ioam_next_option(const __u8 *pkt, size_t len, size_t *pos, size_t *opt_off)
{
	size_t off, end;

	/* A Hop-by-Hop header is at least 8 octets (RFC 8200 §4.3). */
	if (len < HM_IPV6_HDR_LEN + 8 || pkt[6] != HM_NEXTHDR_HOP)
		return 0;
	end = HM_IPV6_HDR_LEN + ((size_t)pkt[HM_IPV6_HDR_LEN + 1] + 1) * 8;
	if (end > len)
		end = len;
	/* The TLVs start after Next Header and Hdr Ext Len. */
	off = *pos < HM_IPV6_HDR_LEN + 2 ? HM_IPV6_HDR_LEN + 2 : *pos;
	while (off < end) {
		size_t tlv_len = hm_ipv6_tlv_len(pkt, off, end);

		if (!tlv_len)
			break;
		/* Reserved and IOAM Option-Type: RFC 9486 §2.1. */
		if (pkt[off] == HM_IPV6_TLV_IOAM && tlv_len >= HM_IPV6_TLV_HDR_LEN + 2) {
			*opt_off = off;
			*pos = off + tlv_len;
			return 1;
		}
		off += tlv_len;
	}
	*pos = end;
	return 0;
}

int hm_ioam_dex_decode(const __u8 *data, size_t len, struct hm_ioam_dex *dex)
{
	const struct hm_ioam6_dex_hdr *h = (const void *)data;
	size_t off = HM_IOAM_DEX_HDR_LEN;

	memset(dex, 0, sizeof(*dex));
	dex->need = HM_IOAM_DEX_HDR_LEN;
	if (len < HM_IOAM_DEX_HDR_LEN)
		return -EMSGSIZE;
	dex->ns_id = hm_get_be16(data + offsetof(struct hm_ioam6_dex_hdr, namespace_id));
	dex->flags = h->flags;
	dex->ext_flags = h->ext_flags;
	dex->trace_type = hm_get_be24(h->trace_type);
	dex->need += hm_ioam6_dex_ext_len(dex->ext_flags);
	/* The optional fields in Extension-Flags bit order, each if it fits. */
	if ((dex->ext_flags & HM_IOAM_DEX_EXT_FLOW_ID) && off + 4 <= len) {
		dex->flow_id = hm_get_be32(data + off);
		dex->present |= HM_IOAM_DEX_HAS_FLOW_ID;
		off += 4;
	}
	if ((dex->ext_flags & HM_IOAM_DEX_EXT_SEQ) && off + 4 <= len) {
		dex->seq = hm_get_be32(data + off);
		dex->present |= HM_IOAM_DEX_HAS_SEQ;
		off += 4;
	}
	dex->rest_off = off;
	dex->rest_len = len - off;
	return len < dex->need ? -EINVAL : 0;
}
