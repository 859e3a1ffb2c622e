// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ipv6_parse.c - find the IOAM Pre-allocated Trace option of an IPv6 packet
 * (RFC 9486 §2: IOAM options in the Hop-by-Hop Options header) and what
 * identifies the packet: addresses, flow label, upper-layer protocol and
 * ports past the other extension headers (RFC 8200 §4).
 */
#include <errno.h>
#include <string.h>
#include <netinet/in.h>

#include "ioam/ioam6.h"
#include "ipv6/ipv6_parse.h"

/*
 * Walk the Hop-by-Hop Options TLVs (RFC 8200 §4.2) between @off and @end.
 * The first IOAM option (0x31) carrying IOAM Option-Type 0 wins; the first
 * IOAM option of another Option-Type is remembered in @other_off.
 */
static int hm_hbh_walk(const __u8 *pkt, size_t off, size_t end, size_t hbh_off,
		       size_t *trace_off, size_t *other_off)
{
	*trace_off = 0;
	*other_off = 0;
	while (off < end) {
		size_t tlv_len = hm_ipv6_tlv_len(pkt, off, end);

		if (!tlv_len)
			return -EINVAL;
		if (pkt[off] == HM_IPV6_TLV_IOAM) {
			/* RFC 9486 §2.1: 4n alignment, and room for the IOAM Option-Type. */
			if (tlv_len < 4 || (off - hbh_off) % 4)
				return -EINVAL;
			if (pkt[off + 3] == HM_IOAM_OPT_PREALLOC_TRACE) {
				if (!*trace_off)
					*trace_off = off;
			} else if (!*other_off) {
				*other_off = off;
			}
		}
		off += tlv_len;
	}
	return 0;
}

/*
 * Skip the extension headers after the Hop-by-Hop header to the upper
 * layer: Routing (43, e.g. an SRH, RFC 8754), Destination Options (60),
 * Fragment (44, RFC 8200 §4.5), AH (51, RFC 4302: length in 4-octet words
 * minus 2). Stops quietly at a truncated header (a capture may be cut).
 */
static void hm_upper_layer(const __u8 *pkt, size_t len, size_t off, __u8 nexthdr,
			   struct hm_pkt_info *info)
{
	int first_fragment = 1;
	int guard;

	for (guard = 0; guard < 32; guard++) {
		size_t hlen;

		switch (nexthdr) {
		case IPPROTO_ROUTING:
		case IPPROTO_DSTOPTS:
			if (len - off < 2)
				goto out;
			hlen = ((size_t)pkt[off + 1] + 1) * 8;
			break;
		case IPPROTO_AH:
			if (len - off < 2)
				goto out;
			hlen = ((size_t)pkt[off + 1] + 2) * 4;
			break;
		case IPPROTO_FRAGMENT:
			if (len - off < HM_IPV6_FRAG_HDR_LEN)
				goto out;
			hlen = HM_IPV6_FRAG_HDR_LEN;
			/* Fragment Offset (13 high bits of octets 2-3) != 0: no ports. */
			if (hm_get_be16(pkt + off + 2) & 0xfff8)
				first_fragment = 0;
			break;
		default:
			goto out;
		}
		if (hlen > len - off)
			goto out;
		nexthdr = pkt[off];
		off += hlen;
	}
out:
	info->proto = nexthdr;
	if ((nexthdr == IPPROTO_TCP || nexthdr == IPPROTO_UDP) && first_fragment &&
	    len - off >= 4) {
		info->sport = hm_get_be16(pkt + off);
		info->dport = hm_get_be16(pkt + off + 2);
	}
}

/**
 * hm_ipv6_find_ioam() - locate the IOAM trace option of an IPv6 packet
 * @pkt:	packet starting at the IPv6 header
 * @len:	bytes at @pkt
 * @info:	filled with the packet's addresses, ports, etc. (may be NULL)
 * @opt_off:	offset from @pkt of the IOAM option type octet (may be NULL)
 * @opt_len:	bytes of the option including its 2-octet TLV head (may be NULL)
 *
 * Walks the Hop-by-Hop header (RFC 8200 §4.3) TLV by TLV (Pad1, PadN and
 * any other option are stepped over by their length) for an option of type
 * 0x31 carrying IOAM Option-Type 0, then the other extension headers for
 * the upper-layer protocol and ports. An IOAM option must start at a 4n
 * offset of the Hop-by-Hop header (RFC 9486 §2.1).
 *
 * When the packet carries IOAM options but no pre-allocated trace (e.g.
 * only a Direct Export option, RFC 9326), the return value is -ENOENT and
 * @opt_off / @opt_len describe the first of those options, so that the
 * caller can say what it found (hm_ioam_trace_decode() on it returns
 * -EPROTONOSUPPORT); without any IOAM option both are set to 0.
 *
 * Return: 0; -ENOENT if the packet has no IOAM pre-allocated trace;
 * -EINVAL if the IPv6 or Hop-by-Hop header is malformed or truncated.
 */
int hm_ipv6_find_ioam(const __u8 *pkt, size_t len, struct hm_pkt_info *info,
		      size_t *opt_off, size_t *opt_len)
{
	struct hm_pkt_info tmp;
	size_t off = HM_IPV6_HDR_LEN, hbh_len, trace_off = 0, other_off = 0, found;
	__u8 nexthdr;
	int err;

	if (!info)
		info = &tmp;
	memset(info, 0, sizeof(*info));
	if (opt_off)
		*opt_off = 0;
	if (opt_len)
		*opt_len = 0;
	if (!pkt || len < HM_IPV6_HDR_LEN || pkt[0] >> 4 != 6)
		return -EINVAL;

	info->flow_label = hm_get_be32(pkt) & 0xfffff;
	info->payload_len = hm_get_be16(pkt + 4);
	info->hop_limit = pkt[7];
	memcpy(info->saddr, pkt + 8, 16);
	memcpy(info->daddr, pkt + 24, 16);
	nexthdr = pkt[6];

	if (nexthdr == IPPROTO_HOPOPTS) {
		if (len - off < 2)
			return -EINVAL;
		hbh_len = ((size_t)pkt[off + 1] + 1) * 8;
		if (hbh_len > len - off)
			return -EINVAL;
		err = hm_hbh_walk(pkt, off + 2, off + hbh_len, off, &trace_off, &other_off);
		if (err)
			return err;
		nexthdr = pkt[off];
		off += hbh_len;
	}
	hm_upper_layer(pkt, len, off, nexthdr, info);

	found = trace_off ? trace_off : other_off;
	if (found) {
		if (opt_off)
			*opt_off = found;
		if (opt_len)
			*opt_len = 2 + (size_t)pkt[found + 1];
	}
	return trace_off ? 0 : -ENOENT;
}
