// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipv6_hbh.c - the IPv6 Hop-by-Hop Options header walk and rewrite of
 * hopmark.ko (API: ipv6_hbh.h)
 *
 * IOAM options are carried in the Hop-by-Hop Options header (RFC 9486 §3);
 * each starts at a 4n offset (RFC 9486 §2.1) and the header stays a
 * multiple of 8 octets (RFC 8200 §4.3), with Pad1/PadN padding runs of at
 * most HM_LINUX_PAD_RUN_MAX (7) octets, which is what Linux accepts
 * (ip6_parse_tlv()). An added option never takes the header past any
 * limit a Linux receiver enforces with its default sysctls
 * (HM_LINUX_HBH_OPTS_MAX in lib/ipv6/ipv6.h): the next Linux node would
 * drop the packet, and nothing would count the loss.
 *
 * A rewrite builds the new header in a per-CPU scratch buffer and moves
 * only the IPv6 header (and the link-layer header before it), so the
 * upper-layer headers stay where they are. A packet that would exceed the
 * egress MTU is not grown; a TCP GSO packet gets a lower segment size
 * instead, as bpf_skb_adjust_room() does for the BPF datapath.
 */
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/tcp.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <asm/unaligned.h>

#include "ipv6_hbh.h"

/* Options start after the Next Header and Hdr Ext Len octets. */
#define HM_HBH_FIRST_OPT	sizeof(struct hm_ipv6_ext_hdr)

/* Scratch space where a new Hop-by-Hop header is built (BHs disabled). */
static DEFINE_PER_CPU(u8 [HM_HBH_MAX_LEN], hm_hbh_scratch);

/* Store the Hdr Ext Len of a header of @len bytes, a multiple of 8. */
static void hm_hbh_set_len(u8 *hbh, unsigned int len)
{
	((struct hm_ipv6_ext_hdr *)hbh)->hdrlen = len / 8 - 1;
}

/**
 * hm_skb_make_writable() - make the first bytes of a packet private and linear
 * @skb: the packet, skb->data at its IPv6 header
 * @len: bytes from skb->data
 *
 * Return: 0, or -ENOMEM / -EFAULT (packet too short).
 */
int hm_skb_make_writable(struct sk_buff *skb, unsigned int len)
{
	return skb_ensure_writable(skb, len);
}

/**
 * hm_rcsum_replace() - keep a CHECKSUM_COMPLETE sum right over an in-place edit
 * @skb: the packet
 * @off: offset of the edited bytes from skb->data; even, or the edit is
 *	 accounted for on the odd boundary by csum_block_*()
 * @old: the bytes before the edit
 * @new: the bytes after the edit
 * @len: bytes edited
 */
void hm_rcsum_replace(struct sk_buff *skb, unsigned int off,
		      const void *old, const void *new, unsigned int len)
{
	__wsum d;

	if (skb->ip_summed != CHECKSUM_COMPLETE)
		return;
	d = csum_sub(csum_partial(new, len, 0), csum_partial(old, len, 0));
	skb->csum = csum_block_add(skb->csum, d, off);
}

/**
 * hm_hbh_len() - length of the packet's Hop-by-Hop Options header
 * @skb: the packet, skb->data at its IPv6 header
 *
 * Makes the whole header linear (pskb_may_pull()).
 *
 * Return: its length in bytes ((Hdr Ext Len + 1) * 8, RFC 8200 §4.3), or 0
 * when the packet has none or is too short to hold it.
 */
unsigned int hm_hbh_len(struct sk_buff *skb)
{
	unsigned int len;

	BUILD_BUG_ON(sizeof(struct ipv6hdr) != HM_IPV6_HDR_LEN);
	if (ipv6_hdr(skb)->nexthdr != HM_NEXTHDR_HOP)
		return 0;
	if (!pskb_may_pull(skb, HM_IPV6_HDR_LEN + HM_IPV6_EXT_LEN(0)))
		return 0;
	len = HM_IPV6_EXT_LEN(skb->data[HM_IPV6_HDR_LEN +
				       offsetof(struct hm_ipv6_ext_hdr, hdrlen)]);
	if (!pskb_may_pull(skb, HM_IPV6_HDR_LEN + len))
		return 0;
	return len;
}

/**
 * hm_pad_run() - length of the run of Pad1/PadN options at an offset
 * @hbh: the Hop-by-Hop header
 * @off: offset in @hbh where the run may start
 * @end: length of @hbh
 *
 * Return: bytes of padding from @off (0 when another option starts
 * there), or -1 when a PadN runs past @end.
 */
static int hm_pad_run(const u8 *hbh, unsigned int off, unsigned int end)
{
	unsigned int start = off;

	while (off < end) {
		if (hbh[off] == HM_IPV6_TLV_PAD1) {
			off++;
		} else if (hbh[off] == HM_IPV6_TLV_PADN) {
			if (off + HM_IPV6_TLV_HDR_LEN > end ||
			    off + HM_IPV6_TLV_HDR_LEN + hbh[off + 1] > end)
				return -1;
			off += HM_IPV6_TLV_HDR_LEN + hbh[off + 1];
		} else {
			break;
		}
	}
	return off - start;
}

/**
 * hm_put_pad() - write a padding run
 * @p: where
 * @n: bytes, 0..HM_LINUX_PAD_RUN_MAX (RFC 8200 §4.2: Pad1 for one octet,
 *     else one PadN); every caller computes a remainder modulo 8
 */
static void hm_put_pad(u8 *p, unsigned int n)
{
	if (!n)
		return;
	if (n == 1) {
		p[0] = HM_IPV6_TLV_PAD1;
		return;
	}
	p[0] = HM_IPV6_TLV_PADN;
	p[1] = n - HM_IPV6_TLV_HDR_LEN;
	memset(p + HM_IPV6_TLV_HDR_LEN, 0, n - HM_IPV6_TLV_HDR_LEN);
}

/**
 * hm_pad_run_linux_ok() - whether a padding run is one a Linux receiver keeps
 * @hbh: the Hop-by-Hop header
 * @off: offset in @hbh where the run starts
 * @len: its bytes, as hm_pad_run() measured them (every PadN inside @hbh)
 *
 * ip6_parse_tlv() (net/ipv6/exthdrs.c) drops a packet with more than
 * HM_LINUX_PAD_RUN_MAX padding octets in a row (Pad1 and PadN together,
 * RFC 4942 §2.1.9.5) or with a PadN whose data is not all zero.
 *
 * Return: true when the run keeps both limits.
 */
static bool hm_pad_run_linux_ok(const u8 *hbh, unsigned int off,
				unsigned int len)
{
	unsigned int end = off + len;

	if (len > HM_LINUX_PAD_RUN_MAX)
		return false;
	while (off < end) {
		if (hbh[off] == HM_IPV6_TLV_PAD1) {
			off++;
			continue;
		}
		if (memchr_inv(hbh + off + HM_IPV6_TLV_HDR_LEN, 0, hbh[off + 1]))
			return false;
		off += HM_IPV6_TLV_HDR_LEN + hbh[off + 1];
	}
	return true;
}

/**
 * hm_hbh_find_ioam() - find an IOAM option in the Hop-by-Hop header
 * @skb: the packet, skb->data at its IPv6 header
 * @ioam_type: IOAM Option-Type wanted (HM_IOAM_OPT_*)
 * @ns_id: IOAM-Namespace wanted, host order, or -1 for any
 * @opt: filled when found
 *
 * Walks every option TLV with bounds checks (RFC 8200 §4.2). An IOAM option
 * (RFC 9486 §2) must start at a 4n offset and hold at least the IOAM
 * Option-Type and a 2-octet IOAM-Namespace; the first match is returned.
 *
 * Return: 0 when found; -ENOENT when the packet has no Hop-by-Hop header or
 * no such option; -EBADMSG when the header is malformed (truncated TLV,
 * misaligned or truncated IOAM option) before a match.
 */
int hm_hbh_find_ioam(struct sk_buff *skb, u8 ioam_type, int ns_id,
		     struct hm_ioam_opt *opt)
{
	unsigned int hbh_len = hm_hbh_len(skb);
	unsigned int off = sizeof(struct hm_ipv6_ext_hdr);
	const u8 *hbh;

	if (!hbh_len)
		return -ENOENT;
	hbh = skb->data + HM_IPV6_HDR_LEN;
	while (off < hbh_len) {
		unsigned int tlv_len;

		if (hbh[off] == HM_IPV6_TLV_PAD1) {
			off++;
			continue;
		}
		if (off + HM_IPV6_TLV_HDR_LEN > hbh_len)
			return -EBADMSG;
		tlv_len = HM_IPV6_TLV_HDR_LEN + hbh[off + 1];
		if (off + tlv_len > hbh_len)
			return -EBADMSG;
		if (hbh[off] == HM_IPV6_TLV_IOAM) {
			const struct hm_ioam6_opt_hdr *oh = (const void *)(hbh + off);
			const u8 *ns = hbh + off + HM_IOAM_OPT_HDR_LEN;

			/* Every IOAM option starts with its IOAM-Namespace. */
			if (off & 3 || tlv_len < HM_IOAM_OPT_HDR_LEN + sizeof(__be16))
				return -EBADMSG;
			if (oh->ioam_type == ioam_type &&
			    (ns_id < 0 || get_unaligned_be16(ns) == ns_id)) {
				opt->off = HM_IPV6_HDR_LEN + off;
				opt->len = tlv_len;
				opt->type = ioam_type;
				opt->hbh_len = hbh_len;
				return 0;
			}
		}
		off += tlv_len;
	}
	return -ENOENT;
}

/**
 * hm_hbh_rewrite() - replace the Hop-by-Hop header by new content
 * @skb: the packet, skb->data at its IPv6 header, writable
 * @old_len: bytes of the present Hop-by-Hop header, 0 when it has none
 * @hbh: the new header, its Next Header octet included
 * @new_len: bytes at @hbh, a multiple of 8; 0 removes the header
 *
 * Only the IPv6 header (and the link-layer header before it) moves: the
 * packet grows or shrinks at its front, so the upper-layer headers and
 * everything after stay where they are, and with them csum_start and the
 * transport header of the skb. Fixes Payload Length and the IPv6 Next
 * Header, keeps a CHECKSUM_COMPLETE sum right, and on input the IPv6
 * control block (nhoff, HOPBYHOP flag) when the header is removed.
 *
 * Return: 0, or -ENOMEM (the packet is then unchanged).
 */
static int hm_hbh_rewrite(struct sk_buff *skb, unsigned int old_len,
			  const u8 *hbh, unsigned int new_len)
{
	int delta = (int)new_len - (int)old_len;
	unsigned int mac_len = skb_mac_header_was_set(skb) ?
			       skb->data - skb_mac_header(skb) : 0;
	const unsigned int l3 = HM_IPV6_HDR_LEN;
	u8 old_nexthdr = old_len ? skb->data[l3] : ipv6_hdr(skb)->nexthdr;
	__wsum before = 0;
	struct ipv6hdr *ip6;

	if (mac_len > skb_headroom(skb))
		mac_len = 0;
	if (skb_ensure_writable(skb, l3 + old_len))
		return -ENOMEM;
	if (delta > 0 && skb_cow_head(skb, delta + mac_len))
		return -ENOMEM;
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		before = csum_partial(skb->data, l3 + old_len, 0);

	if (delta > 0) {
		u8 *old = skb->data;

		if (mac_len)
			memmove(old - delta - mac_len, old - mac_len, mac_len);
		__skb_push(skb, delta);
		memmove(skb->data, old, l3);
	} else if (delta < 0) {
		u8 *old = skb->data;

		memmove(old - delta, old, l3);
		if (mac_len)
			memmove(old - delta - mac_len, old - mac_len, mac_len);
		__skb_pull(skb, -delta);
	}
	skb_reset_network_header(skb);
	if (mac_len)
		skb_set_mac_header(skb, -(int)mac_len);

	ip6 = ipv6_hdr(skb);
	if (new_len) {
		memcpy(skb->data + l3, hbh, new_len);
		ip6->nexthdr = HM_NEXTHDR_HOP;
	} else {
		ip6->nexthdr = old_nexthdr;
	}
	be16_add_cpu(&ip6->payload_len, delta);

	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->csum = csum_add(csum_sub(skb->csum, before),
				     csum_partial(skb->data, l3 + new_len, 0));

	/* Input path: ip6_input_finish() reads the next header at nhoff. */
	if (!new_len) {
		IP6CB(skb)->nhoff = offsetof(struct ipv6hdr, nexthdr);
		IP6CB(skb)->flags &= ~(IP6SKB_HOPBYHOP | IP6SKB_ROUTERALERT);
	}
	return 0;
}

/**
 * hm_egress_mtu() - MTU the packet will be sent with
 * @skb: the packet, routed (skb_dst() set)
 *
 * Return: the MTU in bytes (IPv6 header included), 0 when not routed.
 */
unsigned int hm_egress_mtu(const struct sk_buff *skb)
{
	const struct dst_entry *dst = skb_dst(skb);

	if (!dst)
		return 0;
	return ip6_skb_dst_mtu((struct sk_buff *)skb);
}

/*
 * hm_tcp_gso_excess() - bytes by which a full segment of a TCP/IPv6 GSO
 * packet would pass @mtu once its headers grow by @grow (0 when it fits),
 * or -1 when the packet is not one whose segment size can be lowered.
 */
static int hm_tcp_gso_excess(const struct sk_buff *skb, unsigned int grow,
			     unsigned int mtu)
{
	unsigned int thoff, seglen;

	if (!skb_is_gso(skb) || !(skb_shinfo(skb)->gso_type & SKB_GSO_TCPV6) ||
	    !skb_transport_header_was_set(skb))
		return -1;
	thoff = skb_transport_header(skb) - skb_network_header(skb);
	if (skb_headlen(skb) < skb_network_offset(skb) + thoff + sizeof(struct tcphdr))
		return -1;
	seglen = thoff + tcp_hdrlen(skb) + skb_shinfo(skb)->gso_size + grow;
	return seglen > mtu ? seglen - mtu : 0;
}

/**
 * hm_fits_mtu() - whether the packet still fits the MTU after growing
 * @skb: the packet
 * @grow: bytes its headers would grow by
 * @mtu: egress MTU in bytes, 0 for unknown (nothing fits)
 *
 * A GSO packet fits when each of its segments does, or, for TCP over IPv6,
 * when lowering its segment size (gso_size) makes them fit: hm_gso_fit()
 * does that after the growth, as bpf_skb_adjust_room() does for the BPF
 * datapath. Other GSO types (UDP) keep their segment size.
 *
 * Return: true when it fits.
 */
bool hm_fits_mtu(const struct sk_buff *skb, unsigned int grow, unsigned int mtu)
{
	int excess;

	if (!mtu || grow >= mtu)
		return false;
	if (!skb_is_gso(skb))
		return skb->len + grow <= mtu;
	if (skb_gso_validate_network_len(skb, mtu - grow))
		return true;
	excess = hm_tcp_gso_excess(skb, grow, mtu);
	return excess >= 0 && excess < skb_shinfo(skb)->gso_size;
}

/**
 * hm_gso_fit() - lower a grown TCP GSO packet's segment size to the MTU
 * @skb: the packet, its headers already grown (hm_fits_mtu() said it fits)
 * @mtu: egress MTU in bytes
 *
 * Each segment carries the grown headers and fewer payload bytes; the
 * segment count is recomputed (gso_segs 0, SKB_GSO_DODGY) when the packet
 * is segmented, in software or by the device.
 */
static void hm_gso_fit(struct sk_buff *skb, unsigned int mtu)
{
	int excess;

	if (!skb_is_gso(skb) || skb_gso_validate_network_len(skb, mtu))
		return;
	excess = hm_tcp_gso_excess(skb, 0, mtu);
	if (excess <= 0 || excess >= skb_shinfo(skb)->gso_size)
		return;
	skb_decrease_gso_size(skb_shinfo(skb), excess);
	skb_shinfo(skb)->gso_type |= SKB_GSO_DODGY;
	skb_shinfo(skb)->gso_segs = 0;
}

/**
 * hm_hbh_add_option() - append an IOAM option to the Hop-by-Hop header
 * @skb: the packet, skb->data at its IPv6 header, routed (its egress
 *	 MTU is the limit)
 * @tlv: the option from its option type octet, a multiple of 4 bytes
 * @tlv_len: bytes at @tlv
 *
 * The encapsulating node's step of RFC 9486 §3: with no Hop-by-Hop header
 * one is inserted right after the IPv6 header (so it stays first, before a
 * Routing header, RFC 8200 §4.1); otherwise the option goes after the last
 * option at a 4n offset, replacing the trailing padding. Trailing padding
 * keeps the header a multiple of 8 octets.
 *
 * The result must be a header every Linux node on the path keeps
 * (ip6_parse_tlv() with default sysctls, HM_LINUX_HBH_OPTS_MAX): at most 8
 * options other than Pad1/PadN, ours included; no padding run over
 * HM_LINUX_PAD_RUN_MAX octets; PadN data all zero; 2048 bytes at most. What
 * is kept of the old header (up to the end of its last option) is checked;
 * its trailing padding is replaced, so it is not. The padding this adds
 * cannot break a limit: before the option 0..3 octets, after the old last
 * option (or alone at the start of a new or option-less header); after it
 * 0..7 octets that end the header. Both runs are zero-filled.
 *
 * Return: 0; -ERANGE when the result would break one of those limits;
 * -EMSGSIZE when the packet would exceed the egress MTU; -EBADMSG when the
 * present header is malformed; -ENOMEM. The packet is unchanged on error.
 */
int hm_hbh_add_option(struct sk_buff *skb, const u8 *tlv, unsigned int tlv_len)
{
	unsigned int old_len = hm_hbh_len(skb);
	unsigned int end = HM_HBH_FIRST_OPT, last = HM_HBH_FIRST_OPT, ins, new_len;
	const u8 *old = skb->data + HM_IPV6_HDR_LEN;
	unsigned int n_opts = 0;
	bool pad_ok = true;
	u8 *buf;
	int err;

	if (ipv6_hdr(skb)->nexthdr == HM_NEXTHDR_HOP && !old_len)
		return -EBADMSG;	/* truncated */
	/*
	 * Find where the last non-padding option ends, counting the options
	 * and checking the padding runs before each (they are kept).
	 */
	while (end < old_len) {
		int pad = hm_pad_run(old, end, old_len);

		if (pad < 0)
			return -EBADMSG;
		if (end + pad >= old_len)
			break;		/* the trailing run, replaced */
		if (!hm_pad_run_linux_ok(old, end, pad))
			pad_ok = false;
		end += pad;
		if (end + HM_IPV6_TLV_HDR_LEN > old_len ||
		    end + HM_IPV6_TLV_HDR_LEN + old[end + 1] > old_len)
			return -EBADMSG;
		end += HM_IPV6_TLV_HDR_LEN + old[end + 1];
		last = end;
		n_opts++;
	}
	ins = round_up(last, 4);
	new_len = round_up(ins + tlv_len, 8);
	if (!pad_ok || n_opts + 1 > HM_LINUX_HBH_OPTS_MAX ||
	    new_len > HM_HBH_MAX_LEN)
		return -ERANGE;
	if (new_len > old_len &&
	    !hm_fits_mtu(skb, new_len - old_len, hm_egress_mtu(skb)))
		return -EMSGSIZE;

	local_bh_disable();
	buf = this_cpu_ptr(hm_hbh_scratch);
	if (old_len) {
		memcpy(buf, old, last);
	} else {
		buf[0] = ipv6_hdr(skb)->nexthdr;
		last = HM_HBH_FIRST_OPT;
	}
	hm_hbh_set_len(buf, new_len);
	hm_put_pad(buf + last, ins - last);
	memcpy(buf + ins, tlv, tlv_len);
	hm_put_pad(buf + ins + tlv_len, new_len - ins - tlv_len);
	err = hm_hbh_rewrite(skb, old_len, buf, new_len);
	local_bh_enable();
	if (!err && new_len > old_len)
		hm_gso_fit(skb, hm_egress_mtu(skb));
	return err;
}

/**
 * hm_hbh_del_option() - remove an option from the Hop-by-Hop header
 * @skb: the packet, skb->data at its IPv6 header
 * @opt: the option (hm_hbh_find_ioam()), still where it was found
 *
 * The decapsulating node's step (RFC 9197 §5.1: what the domain added does
 * not leave it). The option and the padding runs around it are replaced by
 * the one padding run (0..7 octets) that keeps every later option at its
 * offset modulo 8, so their alignment holds; when nothing but padding is
 * left, the whole Hop-by-Hop header is removed.
 *
 * Return: 0, -EBADMSG (malformed header) or -ENOMEM; unchanged on error.
 */
int hm_hbh_del_option(struct sk_buff *skb, const struct hm_ioam_opt *opt)
{
	unsigned int hbh_len = opt->hbh_len;
	unsigned int o = opt->off - HM_IPV6_HDR_LEN;
	unsigned int start = HM_HBH_FIRST_OPT, prev_end = HM_HBH_FIRST_OPT;
	unsigned int after, removed, new_len;
	const u8 *old;
	bool others = false;
	int pad_after, err;
	unsigned int newp;
	u8 *buf;

	if (hm_hbh_len(skb) != hbh_len)
		return -EBADMSG;
	old = skb->data + HM_IPV6_HDR_LEN;
	/* Find the end of the option before ours (start of the padding run). */
	while (start < o) {
		int pad = hm_pad_run(old, start, o);

		if (pad < 0)
			return -EBADMSG;
		start += pad;
		if (start >= o)
			break;
		if (start + HM_IPV6_TLV_HDR_LEN > o ||
		    start + HM_IPV6_TLV_HDR_LEN + old[start + 1] > o)
			return -EBADMSG;
		start += HM_IPV6_TLV_HDR_LEN + old[start + 1];
		prev_end = start;
		others = true;
	}
	after = o + opt->len;
	pad_after = hm_pad_run(old, after, hbh_len);
	if (pad_after < 0)
		return -EBADMSG;
	after += pad_after;
	if (after < hbh_len)
		others = true;

	local_bh_disable();
	if (!others) {
		new_len = 0;
		buf = NULL;
	} else {
		removed = after - prev_end;
		if (after == hbh_len) {
			/* Nothing follows: pad to 8n. */
			new_len = round_up(prev_end, 8);
			newp = new_len - prev_end;
		} else {
			/* Keep what follows at its offset modulo 8. */
			newp = removed & 7;
			new_len = hbh_len - removed + newp;
		}
		buf = this_cpu_ptr(hm_hbh_scratch);
		memcpy(buf, old, prev_end);
		hm_put_pad(buf + prev_end, newp);
		memcpy(buf + prev_end + newp, old + after, hbh_len - after);
		hm_hbh_set_len(buf, new_len);
	}
	err = hm_hbh_rewrite(skb, hbh_len, buf, new_len);
	if (!err && new_len && (IP6CB(skb)->flags & IP6SKB_ROUTERALERT) &&
	    IP6CB(skb)->ra > opt->off)
		IP6CB(skb)->ra -= hbh_len - new_len;
	local_bh_enable();
	return err;
}

/**
 * hm_hbh_grow_option() - insert bytes inside an option of the Hop-by-Hop header
 * @skb: the packet, skb->data at its IPv6 header
 * @opt: the option (hm_hbh_find_ioam()), still where it was found
 * @at: offset (from the IPv6 header) inside the option where @data goes
 * @data: bytes to insert, a multiple of 4
 * @len: bytes at @data
 * @mtu: egress MTU in bytes the grown packet must fit
 *
 * The transit step of the Incremental Trace (RFC 9197 §4.4): the option
 * grows by @len and its Opt Data Len with it; the padding run after the
 * option becomes the one (0..7 octets) that keeps the header a multiple of
 * 8 octets and every later option at its offset modulo 8.
 *
 * Return: 0; -ENOSPC when the option would pass 255 octets of data or the
 * header 2048 bytes; -EMSGSIZE when the packet would pass @mtu; -EBADMSG;
 * -ENOMEM. Unchanged on error.
 */
int hm_hbh_grow_option(struct sk_buff *skb, const struct hm_ioam_opt *opt,
		       unsigned int at, const u8 *data, unsigned int len,
		       unsigned int mtu)
{
	unsigned int hbh_len = opt->hbh_len;
	unsigned int o = opt->off - HM_IPV6_HDR_LEN;
	unsigned int a = at - HM_IPV6_HDR_LEN;
	unsigned int end = o + opt->len, new_len, p, newp;
	const u8 *old;
	int pad, err;
	u8 *buf;

	if (hm_hbh_len(skb) != hbh_len || a < o + 2 || a > end)
		return -EBADMSG;
	if (opt->len - HM_IPV6_TLV_HDR_LEN + len > HM_IPV6_TLV_DATA_MAX)
		return -ENOSPC;
	old = skb->data + HM_IPV6_HDR_LEN;
	pad = hm_pad_run(old, end, hbh_len);
	if (pad < 0)
		return -EBADMSG;
	p = pad;
	/* newp in 0..7 with len + newp - p a multiple of 8. */
	newp = (p - len) & 7;
	new_len = hbh_len + len + newp - p;
	if (new_len > HM_HBH_MAX_LEN)
		return -ENOSPC;
	if (!hm_fits_mtu(skb, new_len - hbh_len, mtu))
		return -EMSGSIZE;

	local_bh_disable();
	buf = this_cpu_ptr(hm_hbh_scratch);
	memcpy(buf, old, a);
	memcpy(buf + a, data, len);
	memcpy(buf + a + len, old + a, end - a);
	buf[o + 1] += len;	/* Opt Data Len */
	hm_put_pad(buf + end + len, newp);
	memcpy(buf + end + len + newp, old + end + p, hbh_len - end - p);
	hm_hbh_set_len(buf, new_len);
	err = hm_hbh_rewrite(skb, hbh_len, buf, new_len);
	local_bh_enable();
	if (!err)
		hm_gso_fit(skb, mtu);
	return err;
}
