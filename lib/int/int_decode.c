// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_decode.c - INT v2.1 over TCP/UDP in a packet given from its IP
 * header (int_decode.h). Nothing here trusts the packet: every field is
 * read after the bytes given have been checked to hold it, and every
 * length the headers claim is checked against the others (shim Length
 * against the IP packet, Hop ML against the bitmap, the stack against Hop
 * ML) before a hop is read.
 */
#include <errno.h>
#include <string.h>

#include "common/byteorder.h"
#include "common/ip_proto.h"
#include "int/int_decode.h"
#include "ipv4/ipv4.h"
#include "ipv6/ipv6.h"

#define TCP_HDR_MIN	20
#define UDP_HDR_LEN	8

static const char *const int_err_text[INT_E_MAX] = {
	[INT_E_NONE] = "no INT (not signalled by the domain's DSCP or UDP port)",
	[INT_E_IP] = "IP header truncated or malformed, or a non-first fragment",
	[INT_E_L4] = "TCP/UDP header carrying INT truncated or malformed",
	[INT_E_SHIM_TRUNC] = "shim truncated (fewer than 4 octets after the L4 header, INT 5.7.2)",
	[INT_E_TYPE] = "shim Type is neither 1 (INT-MD) nor 3 (INT-MX) (INT 5.7.2)",
	[INT_E_NPT] = "shim NPT disagrees with the signalling (INT 5.7.2)",
	[INT_E_SHIM_LEN] = "shim Length below the 3 words of the INT header (INT 5.7.2)",
	[INT_E_BEYOND] = "shim Length runs past the end of the IP packet (INT 5.7.2)",
	[INT_E_CAPTURE] = "INT data cut short (capture shorter than the shim Length)",
	[INT_E_VER] = "INT header Ver is not 2 (INT 5.8, 5.9)",
	[INT_E_HOP_ML] = "Hop ML inconsistent with the Instruction Bitmap (INT 5.8)",
	[INT_E_STACK] = "metadata stack is not a multiple of Hop ML words (INT 5.8)",
};

const char *int_dec_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err > 0 && err < INT_E_MAX && int_err_text[err])
		return int_err_text[err];
	return "unknown INT decode error";
}

/*
 * The IPv6 extension headers between the fixed header and the upper
 * layer (RFC 8200 §4): Hop-by-Hop, Routing, Destination Options, Fragment
 * and AH (RFC 4302, length in words - 2). A non-first fragment has no L4
 * header to find INT after.
 */
static int ipv6_upper(const __u8 *ip, size_t len, size_t *off, __u8 *nexthdr)
{
	size_t o = HM_IPV6_HDR_LEN;
	__u8 nh = ip[HM_IPV6_OFF_NEXTHDR];
	int guard;

	for (guard = 0; guard < 16; guard++) {
		size_t hlen;

		switch (nh) {
		case HM_NEXTHDR_HOP:
		case HM_NEXTHDR_ROUTING:
		case HM_NEXTHDR_DEST:
			if (len - o < 2)
				return -INT_E_IP;
			hlen = HM_IPV6_EXT_LEN(ip[o + 1]);
			break;
		case HM_NEXTHDR_AUTH:
			if (len - o < 2)
				return -INT_E_IP;
			hlen = ((size_t)ip[o + 1] + 2) * 4;
			break;
		case HM_NEXTHDR_FRAGMENT:
			if (len - o < HM_IPV6_FRAG_HDR_LEN)
				return -INT_E_IP;
			if (hm_get_be16(ip + o + 2) & 0xfff8)
				return -INT_E_IP;
			hlen = HM_IPV6_FRAG_HDR_LEN;
			break;
		default:
			*off = o;
			*nexthdr = nh;
			return 0;
		}
		if (hlen > len - o)
			return -INT_E_IP;
		nh = ip[o];
		o += hlen;
	}
	return -INT_E_IP;
}

static int parse_ip(const __u8 *ip, size_t len, struct int_pkt *p)
{
	size_t iplen;

	if (len < 1)
		return -INT_E_IP;
	p->ip_ver = ip[0] >> 4;
	if (p->ip_ver == 4) {
		size_t ihl;

		if (len < HM_IPV4_HDR_LEN)
			return -INT_E_IP;
		ihl = (size_t)(ip[0] & 0xf) * 4;
		iplen = hm_get_be16(ip + HM_IPV4_OFF_TOT_LEN);
		if (ihl < HM_IPV4_HDR_LEN || ihl > len || iplen < ihl)
			return -INT_E_IP;
		p->dscp = ip[HM_IPV4_OFF_TOS] >> 2;
		p->ttl = ip[HM_IPV4_OFF_TTL];
		p->proto = ip[HM_IPV4_OFF_PROTOCOL];
		memcpy(p->saddr, ip + HM_IPV4_OFF_SADDR, 4);
		memcpy(p->daddr, ip + HM_IPV4_OFF_DADDR, 4);
		p->ip_len = iplen;
		p->avail = iplen < len ? iplen : len;
		p->l4_off = ihl;
		/* A non-first fragment carries no L4 header. */
		if (hm_get_be16(ip + HM_IPV4_OFF_FRAG) & HM_IPV4_OFFSET_MASK)
			return -INT_E_IP;
		return 0;
	}
	if (p->ip_ver == 6) {
		if (len < HM_IPV6_HDR_LEN)
			return -INT_E_IP;
		iplen = HM_IPV6_HDR_LEN + hm_get_be16(ip + HM_IPV6_OFF_PAYLOAD_LEN);
		p->dscp = (hm_get_be16(ip) >> 4 & 0xff) >> 2;
		p->ttl = ip[HM_IPV6_OFF_HOP_LIMIT];
		memcpy(p->saddr, ip + HM_IPV6_OFF_SADDR, 16);
		memcpy(p->daddr, ip + HM_IPV6_OFF_DADDR, 16);
		p->ip_len = iplen;
		p->avail = iplen < len ? iplen : len;
		p->proto = ip[HM_IPV6_OFF_NEXTHDR];
		return ipv6_upper(ip, p->avail, &p->l4_off, &p->proto);
	}
	return -INT_E_IP;
}

int int_md_parse(const __u8 *d, __u32 words, __u16 bitmap, bool report, struct int_hop *h)
{
	__u32 need = int_bitmap_words(bitmap), o = 0, bit;
	bool last15 = !report && (bitmap & INT_BM_CSUM_COMPL);

	memset(h, 0, sizeof(*h));
	h->bitmap = bitmap;
	h->report = report;
	if (words < need)
		return -EINVAL;
	/* Bits in ascending order (§5.8): bit 0 is the MSB of the 16. */
	for (bit = 0; bit < 16; bit++) {
		__u16 m = 0x8000 >> bit;
		const __u8 *f = d + o;

		if (!(bitmap & m))
			continue;
		switch (m) {
		case INT_BM_NODE_ID:
			h->node_id = hm_get_be32(f);
			break;
		case INT_BM_L1_PORTS:
			h->l1_ingress = hm_get_be16(f);
			h->l1_egress = hm_get_be16(f + 2);
			break;
		case INT_BM_HOP_LAT:
			h->hop_latency = hm_get_be32(f);
			break;
		case INT_BM_QUEUE:
			h->queue_id = f[0];
			h->queue_occupancy = hm_get_be24(f + 1);
			break;
		case INT_BM_INGRESS_TS:
			h->ingress_ts = hm_get_be64(f);
			break;
		case INT_BM_EGRESS_TS:
			h->egress_ts = hm_get_be64(f);
			break;
		case INT_BM_L2_PORTS:
			h->l2_ingress = hm_get_be32(f);
			h->l2_egress = hm_get_be32(f + 4);
			break;
		case INT_BM_TX_UTIL:
			h->tx_util = hm_get_be32(f);
			break;
		case INT_BM_BUFFER:
			h->buffer_id = f[0];
			h->buffer_occupancy = hm_get_be24(f + 1);
			break;
		case INT_BM_CSUM_COMPL:
			if (last15)
				continue;	/* after the DS metadata */
			/* RepMdBits bit 15: queue ID, drop reason, 16 bits of padding. */
			h->drop_queue_id = f[0];
			h->drop_reason = f[1];
			break;
		default:	/* reserved bits 9-14, 4 octets each */
			h->rsvd[bit - 9] = hm_get_be32(f);
			break;
		}
		o += (m & INT_BM_WIDE_MASK) ? 8 : 4;
	}
	h->ds_words = words - need;
	h->ds = h->ds_words ? d + o : NULL;
	if (last15)
		h->csum_complement = hm_get_be32(d + (size_t)(words - 1) * 4);
	return 0;
}

int int_decode_hop(const struct int_pkt *p, __u32 i, struct int_hop *h)
{
	if (!p->int_found || p->type != INT_TYPE_MD || i >= p->n_hops)
		return -EINVAL;
	return int_md_parse(p->stack + (size_t)i * p->hop_ml * 4, p->hop_ml, p->bitmap, false, h);
}

/* The INT data at p->shim_off: shim, header, stack (§5.7.2, §5.8, §5.9). */
static int parse_int(const __u8 *ip, const struct int_signal *sig, struct int_pkt *p)
{
	const __u8 *s = ip + p->shim_off;
	size_t end;
	__u32 w0, words, stack_words;

	if (p->ip_len < p->shim_off + INT_SHIM_LEN)
		return -INT_E_SHIM_TRUNC;
	if (p->avail < p->shim_off + INT_SHIM_LEN)
		return -INT_E_CAPTURE;
	p->type = s[0] >> 4;
	p->npt = (s[0] >> 2) & 0x3;
	p->shim_len = s[1];
	p->npt_field = p->npt == INT_NPT_UDP ? hm_get_be16(s + 2) :
		       p->npt == INT_NPT_L4 ? s[3] : s[3] >> 2;
	p->int_found = true;
	if (p->type != INT_TYPE_MD && p->type != INT_TYPE_MX)
		return -INT_E_TYPE;
	if (p->shim_len < INT_HDR_LEN / 4)
		return -INT_E_SHIM_LEN;
	end = p->shim_off + INT_SHIM_LEN + (size_t)p->shim_len * 4;
	p->end_off = end;
	if (end > p->ip_len)
		return -INT_E_BEYOND;
	if (end > p->avail)
		return -INT_E_CAPTURE;

	w0 = hm_get_be32(s + 4);
	p->ver = int_md_ver(w0);
	p->d = !!(w0 & INT_MD_D);
	p->bitmap = hm_get_be16(s + 8);
	p->ds_id = hm_get_be16(s + 10);
	p->ds_inst = hm_get_be16(s + 12);
	p->ds_flags = hm_get_be16(s + 14);
	words = p->shim_len - INT_HDR_LEN / 4;
	if (p->type == INT_TYPE_MX) {
		/* §5.9: all that follows the 12 octets is source-inserted data. */
		p->src_words = words;
		p->src_data = words ? s + INT_FIXED_LEN : NULL;
		if (p->ver != INT_VERSION)
			return -INT_E_VER;
		return 0;
	}
	p->e = !!(w0 & INT_MD_E);
	p->m = !!(w0 & INT_MD_M);
	p->hop_ml = int_md_hop_ml(w0);
	p->rhc = int_md_rhc(w0);
	p->stack = s + INT_FIXED_LEN;
	if (p->ver != INT_VERSION)
		return -INT_E_VER;
	/* Hop ML = baseline words + DS words; DS ID 0 has no DS metadata. */
	if (p->hop_ml < int_bitmap_words(p->bitmap) ||
	    (p->ds_id == 0 && p->hop_ml != int_bitmap_words(p->bitmap)))
		return -INT_E_HOP_ML;
	if (words < sig->src_only_words)
		return -INT_E_STACK;
	stack_words = words - sig->src_only_words;
	if (p->hop_ml == 0 ? stack_words != 0 : stack_words % p->hop_ml)
		return -INT_E_STACK;
	p->n_hops = p->hop_ml ? stack_words / p->hop_ml : 0;
	p->src_words = sig->src_only_words;
	p->src_data = p->src_words ? p->stack + (size_t)stack_words * 4 : NULL;
	return 0;
}

int int_decode_ip(const __u8 *ip, size_t len, const struct int_signal *sig, struct int_pkt *p)
{
	const __u8 *l4;
	size_t l4len;
	int err;

	memset(p, 0, sizeof(*p));
	if (!ip)
		return -INT_E_IP;
	err = parse_ip(ip, len, p);
	if (err)
		return err;
	l4 = ip + p->l4_off;
	l4len = p->avail > p->l4_off ? p->avail - p->l4_off : 0;
	if (p->proto != HM_IPPROTO_TCP && p->proto != HM_IPPROTO_UDP)
		return -INT_E_NONE;
	if (l4len >= 4) {
		p->sport = hm_get_be16(l4);
		p->dport = hm_get_be16(l4 + 2);
		p->has_ports = true;
	}

	if (sig->udp_port && p->proto == HM_IPPROTO_UDP && p->has_ports &&
	    p->dport == sig->udp_port) {
		if (l4len < UDP_HDR_LEN)
			return -INT_E_L4;
		p->shim_off = p->l4_off + UDP_HDR_LEN;
		err = parse_int(ip, sig, p);
		if (err)
			return err;
		if (p->npt != INT_NPT_UDP && p->npt != INT_NPT_L4)
			return -INT_E_NPT;
		if (p->npt == INT_NPT_L4) {
			/* The original L4 header follows the INT data (§5.7.2). */
			p->inner_proto = p->npt_field;
			if ((p->inner_proto == HM_IPPROTO_TCP || p->inner_proto == HM_IPPROTO_UDP) &&
			    p->avail >= p->end_off + 4) {
				p->inner_sport = hm_get_be16(ip + p->end_off);
				p->inner_dport = hm_get_be16(ip + p->end_off + 2);
				p->inner_has_ports = true;
			}
		}
		return 0;
	}

	if (!sig->dscp_mask || (p->dscp & sig->dscp_mask) != (sig->dscp & sig->dscp_mask))
		return -INT_E_NONE;
	if (p->proto == HM_IPPROTO_TCP) {
		size_t doff;

		if (l4len < TCP_HDR_MIN)
			return -INT_E_L4;
		doff = (size_t)(l4[12] >> 4) * 4;
		if (doff < TCP_HDR_MIN || doff > l4len)
			return -INT_E_L4;
		p->shim_off = p->l4_off + doff;
	} else {
		if (l4len < UDP_HDR_LEN)
			return -INT_E_L4;
		p->shim_off = p->l4_off + UDP_HDR_LEN;
	}
	err = parse_int(ip, sig, p);
	if (err)
		return err;
	if (p->npt != INT_NPT_DSCP)
		return -INT_E_NPT;
	return 0;
}
