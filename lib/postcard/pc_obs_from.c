// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pc_obs_from.c - PBT-M records, hopmark.ko postcards and INT records as
 * struct hm_pc_obs (pc_obs_from.h).
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>

#include "postcard/pc_obs_from.h"
#include "postcard/postcard.h"
#include "pbt/pbt_maps.h"
#include "pbt/pbt_id.h"
#include "int/int_maps.h"
#include "int/int.h"
#include "int/int_decode.h"
#include "ipv6/ipv6.h"
#include "srv6/srh.h"

int hm_pc_obs_from_pbt(const struct pbt_record *r, __u32 obs_domain,
		       struct hm_pc_obs *o)
{
	memset(o, 0, sizeof(*o));
	if ((r->key.family != 4 && r->key.family != 6) ||
	    (r->point != PBT_PT_INGRESS && r->point != PBT_PT_EGRESS))
		return -EINVAL;
	o->ts_ns = r->ts_ns;
	o->node_id = r->node_id;
	o->pkt_id = r->pkt_id;
	o->obs_domain = obs_domain;
	o->source = HM_PC_SRC_PBT;
	o->point = r->point;
	o->ttl = r->ttl;
	o->flags = r->flags;
	o->tpl_id = r->tpl_id;
	o->key = r->key;
	o->present = HM_PC_HAS_TTL;
	if (r->in_ifindex) {
		o->in_if = r->in_ifindex;
		o->present |= HM_PC_HAS_IN_IF;
	}
	if (r->out_ifindex) {
		o->out_if = r->out_ifindex;
		o->present |= HM_PC_HAS_OUT_IF;
	}
	if (r->qdepth != PBT_UNKNOWN32) {
		o->qdepth = r->qdepth;
		o->present |= HM_PC_HAS_QDEPTH;
	}
	/* A per-flow template's fields, only with the template applied. */
	if (!r->tpl_id)
		return 0;
	if (r->tpl_fields & PBT_FLD_NEXTHOP) {
		memcpy(o->nexthop, r->nexthop, r->key.family == 4 ? 4 : 16);
		o->present |= HM_PC_HAS_NEXTHOP;
	}
	if (r->tpl_fields & PBT_FLD_TOS) {
		o->tos = r->tos;
		o->present |= HM_PC_HAS_TOS;
	}
	if (r->tpl_fields & PBT_FLD_LENGTH) {
		o->length = r->pkt_len;
		o->present |= HM_PC_HAS_LENGTH;
	}
	if ((r->tpl_fields & PBT_FLD_SRH) && r->key.family == 6 &&
	    (r->flags & PBT_REC_F_SRH)) {
		o->srh_flags = r->srh_flags;
		o->srh_sl = r->srh_sl;
		memcpy(o->srh_active, r->srh_active, 16);
		o->present |= HM_PC_HAS_SRH;
	}
	if (r->tpl_fields & PBT_FLD_SOJOURN) {
		o->sojourn_ns = r->sojourn_ns;
		o->present |= HM_PC_HAS_SOJOURN;
	}
	return 0;
}

/**
 * struct pc_ip - what the packet's headers say, for a postcard
 * @key:	flow key as PBT-M makes it (SRH: destination = Segment List[0])
 * @ttl:	TTL / Hop Limit
 * @tos:	TOS / Traffic Class
 * @length:	IPv4 Total Length / 40 + IPv6 Payload Length
 * @ip_word:	the packet ID's IP word (lib/pbt/pbt_id.h)
 * @oct:	the packet ID's upper-layer octets, 0 past the capture
 * @n:		octets of @oct captured
 * @srh:	an SRH was found; the three below are set
 * @srh_flags:	its Flags
 * @srh_sl:	its Segments Left
 * @srh_active:	the IPv6 Destination Address (the active segment)
 */
struct pc_ip {
	struct hm_flow_key	key;
	__u8			ttl;
	__u8			tos;
	__u16			length;
	__u32			ip_word;
	__u8			oct[PBT_ID_OCTETS];
	__u32			n;
	bool			srh;
	__u8			srh_flags;
	__u8			srh_sl;
	__u8			srh_active[16];
};

/*
 * The packet ID's octets from the upper-layer header at @l4 (pbt_id.h), as
 * bpf/hopmark_pbt.bpf.c takes them: counted against the IP length, read
 * from what was captured (octets past the capture stay 0, and the ID then
 * differs from the datapath's: a truncated header is rare and documented).
 */
static void id_octets(const __u8 *p, size_t len, size_t iplen, size_t l4, __u8 proto,
		      struct pc_ip *ip)
{
	size_t left = iplen > l4 ? iplen - l4 : 0, n1, n2, po, i;

	po = PBT_ID_L4_OCTETS;
	if (proto == 6) {
		if (left < 20 || l4 + 13 > len)
			return;
		po = pbt_id_payload_off(proto, (p[l4 + 12] >> 4) * 4);
		if (po < 20 || po > left)
			return;
	} else if (proto == 17 && left < 8) {
		return;
	}
	n1 = left < PBT_ID_L4_OCTETS ? left : PBT_ID_L4_OCTETS;
	n2 = left > po ? left - po : 0;
	if (n2 > PBT_ID_OCTETS - PBT_ID_L4_OCTETS)
		n2 = PBT_ID_OCTETS - PBT_ID_L4_OCTETS;
	for (i = 0; i < n1 && l4 + i < len; i++)
		ip->oct[i] = p[l4 + i];
	for (i = 0; i < n2 && l4 + po + i < len; i++)
		ip->oct[PBT_ID_L4_OCTETS + i] = p[l4 + po + i];
	ip->n = n1 + n2;
	if ((proto == 6 || proto == 17) && n1 >= 4) {
		memcpy(&ip->key.sport, ip->oct, 2);
		memcpy(&ip->key.dport, ip->oct + 2, 2);
	}
}

static void l4_ports(const __u8 *p, size_t len, size_t l4, bool first_frag, struct pc_ip *ip)
{
	if (first_frag)
		id_octets(p, len, ip->length, l4, ip->key.proto, ip);
}

static int parse_ipv4(const __u8 *p, size_t len, struct pc_ip *ip)
{
	size_t ihl = (p[0] & 0x0f) * 4;
	/* A fragment (MF or an offset) has no upper layer to hash. */
	bool frag = (p[6] << 8 | p[7]) & 0x3fff;

	if (len < 20 || ihl < 20)
		return -EPROTO;
	ip->key.family = 4;
	ip->key.proto = p[9];
	ip->tos = p[1];
	ip->ttl = p[8];
	ip->length = p[2] << 8 | p[3];
	ip->ip_word = (__u32)(p[4] << 8 | p[5]) << 16 | ip->length;
	memcpy(ip->key.saddr, p + 12, 4);
	memcpy(ip->key.daddr, p + 16, 4);
	l4_ports(p, len, ihl, !frag, ip);
	return 0;
}

static int parse_ipv6(const __u8 *p, size_t len, struct pc_ip *ip)
{
	size_t off = HM_IPV6_HDR_LEN, hl;
	__u8 nh = p[HM_IPV6_OFF_NEXTHDR];
	bool first_frag = true;
	int i;

	if (len < HM_IPV6_HDR_LEN)
		return -EPROTO;
	ip->key.family = 6;
	ip->tos = (p[0] & 0x0f) << 4 | p[1] >> 4;
	ip->ttl = p[HM_IPV6_OFF_HOP_LIMIT];
	ip->ip_word = p[4] << 8 | p[5];
	ip->length = ip->ip_word + HM_IPV6_HDR_LEN > 0xffff ? 0xffff :
		     ip->ip_word + HM_IPV6_HDR_LEN;
	memcpy(ip->key.saddr, p + HM_IPV6_OFF_SADDR, 16);
	memcpy(ip->key.daddr, p + HM_IPV6_OFF_DADDR, 16);
	/* Extension headers (RFC 8200 §4), a bounded walk. */
	for (i = 0; i < 8; i++) {
		if (nh != HM_NEXTHDR_HOP && nh != HM_NEXTHDR_DEST &&
		    nh != HM_NEXTHDR_ROUTING && nh != HM_NEXTHDR_FRAGMENT &&
		    nh != HM_NEXTHDR_AUTH)
			break;
		if (off + 8 > len)
			return 0;	/* truncated capture: no upper layer */
		if (nh == HM_NEXTHDR_FRAGMENT) {
			hl = HM_IPV6_FRAG_HDR_LEN;
			first_frag = false;	/* as the datapath: no L4 */
		} else if (nh == HM_NEXTHDR_AUTH) {
			hl = ((size_t)p[off + 1] + 2) * 4;
		} else {
			hl = HM_IPV6_EXT_LEN(p[off + 1]);
		}
		if (nh == HM_NEXTHDR_ROUTING && p[off + 2] == HM_SRH_ROUTING_TYPE &&
		    off + HM_SRH_HDR_LEN + HM_SRH_SEGMENT_LEN <= len &&
		    HM_SRH_HDR_LEN + HM_SRH_SEGMENT_LEN <= hl) {
			const struct hm_srh *srh = (const struct hm_srh *)(p + off);

			ip->srh = true;
			ip->srh_flags = srh->flags;
			ip->srh_sl = srh->segments_left;
			memcpy(ip->srh_active, p + HM_IPV6_OFF_DADDR, 16);
			/* Segment List[0]: the final segment (RFC 8754 §2). */
			memcpy(ip->key.daddr, p + off + HM_SRH_HDR_LEN, 16);
		}
		nh = p[off];
		off += hl;
	}
	ip->key.proto = nh;
	l4_ports(p, len, off, first_frag, ip);
	return 0;
}

static int parse_ip(const __u8 *p, size_t len, struct pc_ip *ip)
{
	memset(ip, 0, sizeof(*ip));
	if (!p || len < 1)
		return -EPROTO;
	switch (p[0] >> 4) {
	case 4:
		return parse_ipv4(p, len, ip);
	case 6:
		return parse_ipv6(p, len, ip);
	}
	return -EPROTO;
}

static void obs_from_ip(const struct pc_ip *ip, struct hm_pc_obs *o)
{
	o->key = ip->key;
	o->ttl = ip->ttl;
	o->length = ip->length;
	o->present |= HM_PC_HAS_TTL | HM_PC_HAS_LENGTH;
	if (ip->srh) {
		o->srh_flags = ip->srh_flags;
		o->srh_sl = ip->srh_sl;
		memcpy(o->srh_active, ip->srh_active, 16);
		o->flags |= PBT_REC_F_SRH;
		o->present |= HM_PC_HAS_SRH;
	}
}

int hm_pc_obs_from_postcard(const struct hm_postcard *pc, __u32 obs_domain,
			    struct hm_pc_obs *o)
{
	struct pc_ip ip;
	int err;

	memset(o, 0, sizeof(*o));
	if (pc->type != HM_POSTCARD_DEX && pc->type != HM_POSTCARD_OFLAG)
		return -EINVAL;
	err = parse_ip(pc->headers, pc->headers_len, &ip);
	if (err || ip.key.family != 6)
		return -EPROTO;
	obs_from_ip(&ip, o);
	if ((pc->present & HM_POSTCARD_F_PKT_LEN) && pc->pkt_len)
		o->length = pc->pkt_len > 0xffff ? 0xffff : pc->pkt_len;
	o->obs_domain = obs_domain;
	o->ts_ns = (pc->present & HM_POSTCARD_F_TS) ? pc->ts_ns : 0;
	o->node_id = pc->node_id;
	o->point = PBT_PT_INGRESS;
	if (pc->present & HM_POSTCARD_F_IFINDEX) {
		o->in_if = pc->ifindex;
		o->present |= HM_PC_HAS_IN_IF;
	}
	if (pc->type == HM_POSTCARD_DEX) {
		o->source = HM_PC_SRC_DEX;
		/* RFC 9326 §3.2: one Sequence Number per packet, at every node. */
		o->pkt_id = (pc->present & HM_POSTCARD_F_SEQ) ? pc->seq :
			    pbt_pkt_id(&ip.key, ip.ip_word, ip.oct, ip.n);
	} else {
		o->source = HM_PC_SRC_OFLAG;
		o->pkt_id = pbt_pkt_id(&ip.key, ip.ip_word, ip.oct, ip.n);
	}
	return 0;
}

int hm_pc_obs_from_int(const struct int_record *r, const struct int_signal *sig,
		       __u32 obs_domain, struct hm_pc_obs *o)
{
	struct int_hop h;
	struct pc_ip ip;

	memset(o, 0, sizeof(*o));
	if (r->kind != INT_REC_XD && r->kind != INT_REC_MX && r->kind != INT_REC_DROP)
		return -EINVAL;
	if ((r->family != 4 && r->family != 6) || r->pkt_len > INT_REC_PKT_MAX ||
	    r->md_len > INT_REC_MD_MAX || (r->md_len & 3))
		return -EINVAL;
	if (parse_ip(r->pkt, r->pkt_len, &ip) || ip.key.family != r->family)
		return -EPROTO;
	obs_from_ip(&ip, o);
	if (r->orig_len)
		o->length = r->orig_len;
	/* NPT=2 packets carry INT between IP and the original L4 header. */
	if (sig) {
		struct int_pkt p;

		if (!int_decode_ip(r->pkt, r->pkt_len, sig, &p) && p.int_found &&
		    p.npt == 2) {
			o->key.proto = p.inner_proto;
			o->key.sport = p.inner_has_ports ? htons(p.inner_sport) : 0;
			o->key.dport = p.inner_has_ports ? htons(p.inner_dport) : 0;
		}
	}
	o->pkt_id = pbt_pkt_id(&ip.key, ip.ip_word, ip.oct, ip.n);
	o->obs_domain = obs_domain;
	o->ts_ns = r->ts_ns;
	o->node_id = r->node_id;
	o->source = r->kind == INT_REC_MX ? HM_PC_SRC_INT_MX : HM_PC_SRC_INT_XD;
	o->point = PBT_PT_EGRESS;
	if (r->ifindex) {
		o->in_if = r->ifindex;
		o->present |= HM_PC_HAS_IN_IF;
	}
	memset(&h, 0, sizeof(h));
	if (r->md_len && !int_md_parse(r->md, r->md_len / 4, r->rep_md_bits, true, &h)) {
		/* RepMdBits bits are the Instruction Bitmap's (Report §3.3.1). */
		if ((h.bitmap & INT_BM_L2_PORTS) && h.l2_ingress != INT_UNAVAIL32) {
			o->in_if = h.l2_ingress;
			o->present |= HM_PC_HAS_IN_IF;
		} else if ((h.bitmap & INT_BM_L1_PORTS) && h.l1_ingress != 0xffff) {
			o->in_if = h.l1_ingress;
			o->present |= HM_PC_HAS_IN_IF;
		}
		if ((h.bitmap & INT_BM_L2_PORTS) && h.l2_egress != INT_UNAVAIL32) {
			o->out_if = h.l2_egress;
			o->present |= HM_PC_HAS_OUT_IF;
		} else if ((h.bitmap & INT_BM_L1_PORTS) && h.l1_egress != 0xffff) {
			o->out_if = h.l1_egress;
			o->present |= HM_PC_HAS_OUT_IF;
		}
		if ((h.bitmap & INT_BM_HOP_LAT) && h.hop_latency != INT_UNAVAIL32) {
			o->sojourn_ns = h.hop_latency;
			o->present |= HM_PC_HAS_SOJOURN;
		}
		if ((h.bitmap & INT_BM_QUEUE) && h.queue_occupancy != 0xffffff) {
			o->qdepth = h.queue_occupancy;
			o->present |= HM_PC_HAS_QDEPTH;
		}
		if (h.bitmap & INT_BM_NODE_ID && h.node_id != INT_UNAVAIL32)
			o->node_id = h.node_id;
	}
	if (r->kind == INT_REC_DROP)
		o->point = PBT_PT_INGRESS;
	return 0;
}
