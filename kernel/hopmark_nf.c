// SPDX-License-Identifier: GPL-2.0-only
/*
 * hopmark_nf.c - the datapath of hopmark.ko: IPv6 netfilter hooks, the
 * Hop-by-Hop Options header walk and rewrite, and flow numbering
 *
 * Hooks, registered in every network namespace (pernet operations):
 *
 *   PRE_ROUTING  (before conntrack defrag, so fragments are seen as such)
 *		  on the ingress interface: IOAM Direct Export (RFC 9326) and
 *		  IOAM Edge-to-Edge decapsulation (RFC 9197 §4.6).
 *   FORWARD	  IOAM Incremental Trace transit (RFC 9197 §4.4): the egress
 *		  device and its MTU are known here, and the hop limit has
 *		  been decremented (Hop_Lim is the value the packet leaves
 *		  with, as Linux's own IOAM writes on input).
 *   LOCAL_IN	  the node is the destination: Incremental Trace sink event
 *		  and the SRH O-flag at a segment endpoint (RFC 9259 §2). Linux
 *		  processes the SRH of a packet addressed to a local address
 *		  after this hook (ip6_input_finish), and seg6local behaviours
 *		  pass it with net.netfilter.nf_hooks_lwtunnel=1, so the SRH is
 *		  seen here as it arrived.
 *   POST_ROUTING (after source NAT) on the egress interface: insertion of
 *		  the Edge-to-Edge, Direct Export and Incremental Trace options
 *		  by the encapsulating node.
 *
 * IOAM options are carried in the Hop-by-Hop Options header (RFC 9486 §3);
 * each starts at a 4n offset (RFC 9486 §2.1) and the header stays a
 * multiple of 8 octets (RFC 8200 §4.3), with Pad1/PadN padding runs of at
 * most 7 octets, which is what Linux accepts (ip6_parse_tlv()).
 *
 * A packet this file cannot handle (malformed, fragment, no memory, would
 * exceed the MTU) is accepted unchanged and counted; the hooks never drop.
 */
#include <linux/jhash.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv6.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ndisc.h>
#include <net/netns/generic.h>

#include "hopmark_dp.h"

#define HM_FLOW_SLOTS	1024	/* per network namespace, power of two */

/**
 * struct hm_flow_slot - sequence numbering of one flow (E2E, DEX encap)
 * @lock:	protects the other fields
 * @used:	the slot holds a flow
 * @flow_id:	Flow ID of that flow (hm_flow_id())
 * @next:	next Sequence Number to write
 *
 * Slots are indexed by Flow ID; a flow that takes the slot of another
 * starts again at 0, which a decapsulating node sees as a restart.
 */
struct hm_flow_slot {
	spinlock_t lock;
	bool used;
	u32 flow_id;
	u32 next;
};

/**
 * struct hm_dp_net - datapath state of a network namespace
 * @flows:	HM_FLOW_SLOTS flow slots per enum hm_seq_space (kvmalloc'ed)
 */
struct hm_dp_net {
	struct hm_flow_slot *flows;
};

static unsigned int hm_dp_net_id __read_mostly;
static u32 hm_flow_seed __read_mostly;

/* Scratch space where a new Hop-by-Hop header is built (BHs disabled). */
static DEFINE_PER_CPU(u8 [HM_HBH_MAX_LEN], hm_hbh_scratch);

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

	if (ipv6_hdr(skb)->nexthdr != NEXTHDR_HOP)
		return 0;
	if (!pskb_may_pull(skb, sizeof(struct ipv6hdr) + 8))
		return 0;
	len = (skb->data[sizeof(struct ipv6hdr) + 1] + 1) * 8;
	if (!pskb_may_pull(skb, sizeof(struct ipv6hdr) + len))
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
		if (hbh[off] == IPV6_TLV_PAD1) {
			off++;
		} else if (hbh[off] == IPV6_TLV_PADN) {
			if (off + 2 > end || off + 2 + hbh[off + 1] > end)
				return -1;
			off += 2 + hbh[off + 1];
		} else {
			break;
		}
	}
	return off - start;
}

/**
 * hm_put_pad() - write a padding run
 * @p: where
 * @n: bytes, 0..7 (RFC 8200 §4.2: Pad1 for one octet, else one PadN)
 */
static void hm_put_pad(u8 *p, unsigned int n)
{
	if (!n)
		return;
	if (n == 1) {
		p[0] = IPV6_TLV_PAD1;
		return;
	}
	p[0] = IPV6_TLV_PADN;
	p[1] = n - 2;
	memset(p + 2, 0, n - 2);
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
	const u8 *hbh;
	unsigned int off = 2;

	if (!hbh_len)
		return -ENOENT;
	hbh = skb->data + sizeof(struct ipv6hdr);
	while (off < hbh_len) {
		unsigned int tlv_len;

		if (hbh[off] == IPV6_TLV_PAD1) {
			off++;
			continue;
		}
		if (off + 2 > hbh_len)
			return -EBADMSG;
		tlv_len = 2 + hbh[off + 1];
		if (off + tlv_len > hbh_len)
			return -EBADMSG;
		if (hbh[off] == HM_IPV6_TLV_IOAM) {
			if (off & 3 || tlv_len < HM_IOAM_OPT_HDR_LEN + 2)
				return -EBADMSG;
			if (hbh[off + 3] == ioam_type &&
			    (ns_id < 0 || get_unaligned_be16(hbh + off + 4) == ns_id)) {
				opt->off = sizeof(struct ipv6hdr) + off;
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
	const unsigned int l3 = sizeof(struct ipv6hdr);
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
		ip6->nexthdr = NEXTHDR_HOP;
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
 * @pkt: packet context (for the MTU of the egress device)
 * @skb: the packet, skb->data at its IPv6 header
 * @tlv: the option from its option type octet, a multiple of 4 bytes
 * @tlv_len: bytes at @tlv
 *
 * The encapsulating node's step of RFC 9486 §3: with no Hop-by-Hop header
 * one is inserted right after the IPv6 header (so it stays first, before a
 * Routing header, RFC 8200 §4.1); otherwise the option goes after the last
 * option at a 4n offset, replacing the trailing padding. Trailing padding
 * keeps the header a multiple of 8 octets.
 *
 * Return: 0; -EMSGSIZE when the packet would exceed the egress MTU or the
 * header its 2048 bytes; -EBADMSG when the present header is malformed;
 * -ENOMEM. The packet is unchanged on error.
 */
int hm_hbh_add_option(struct hm_pkt *pkt, struct sk_buff *skb,
		      const u8 *tlv, unsigned int tlv_len)
{
	unsigned int old_len = hm_hbh_len(skb);
	unsigned int end = 2, last = 2, ins, new_len;
	const u8 *old = skb->data + sizeof(struct ipv6hdr);
	u8 *buf;
	int err;

	if (ipv6_hdr(skb)->nexthdr == NEXTHDR_HOP && !old_len)
		return -EBADMSG;	/* truncated */
	/* Find where the last non-padding option ends. */
	while (end < old_len) {
		int pad = hm_pad_run(old, end, old_len);

		if (pad < 0)
			return -EBADMSG;
		end += pad;
		if (end >= old_len)
			break;
		if (end + 2 > old_len || end + 2 + old[end + 1] > old_len)
			return -EBADMSG;
		end += 2 + old[end + 1];
		last = end;
	}
	ins = round_up(last, 4);
	new_len = round_up(ins + tlv_len, 8);
	if (new_len > HM_HBH_MAX_LEN)
		return -EMSGSIZE;
	if (new_len > old_len &&
	    !hm_fits_mtu(skb, new_len - old_len, hm_egress_mtu(skb)))
		return -EMSGSIZE;

	local_bh_disable();
	buf = this_cpu_ptr(hm_hbh_scratch);
	if (old_len) {
		memcpy(buf, old, last);
	} else {
		buf[0] = ipv6_hdr(skb)->nexthdr;
		last = 2;
	}
	buf[1] = new_len / 8 - 1;
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
	unsigned int o = opt->off - sizeof(struct ipv6hdr);
	unsigned int start = 2, prev_end = 2, after, removed, new_len;
	const u8 *old;
	bool others = false;
	int pad_after, err;
	unsigned int newp;
	u8 *buf;

	if (hm_hbh_len(skb) != hbh_len)
		return -EBADMSG;
	old = skb->data + sizeof(struct ipv6hdr);
	/* Find the end of the option before ours (start of the padding run). */
	while (start < o) {
		int pad = hm_pad_run(old, start, o);

		if (pad < 0)
			return -EBADMSG;
		start += pad;
		if (start >= o)
			break;
		if (start + 2 > o || start + 2 + old[start + 1] > o)
			return -EBADMSG;
		start += 2 + old[start + 1];
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
		buf[1] = new_len / 8 - 1;
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
	unsigned int o = opt->off - sizeof(struct ipv6hdr);
	unsigned int a = at - sizeof(struct ipv6hdr);
	unsigned int end = o + opt->len, new_len, p, newp;
	const u8 *old;
	int pad, err;
	u8 *buf;

	if (hm_hbh_len(skb) != hbh_len || a < o + 2 || a > end)
		return -EBADMSG;
	if (opt->len - 2 + len > HM_IPV6_TLV_DATA_MAX)
		return -ENOSPC;
	old = skb->data + sizeof(struct ipv6hdr);
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
	buf[o + 1] += len;
	hm_put_pad(buf + end + len, newp);
	memcpy(buf + end + len + newp, old + end + p, hbh_len - end - p);
	buf[1] = new_len / 8 - 1;
	err = hm_hbh_rewrite(skb, hbh_len, buf, new_len);
	local_bh_enable();
	if (!err)
		hm_gso_fit(skb, mtu);
	return err;
}

/**
 * hm_flow_id() - Flow ID of a packet
 * @skb: the packet, skb->data at its IPv6 header
 *
 * A 32-bit hash of source and destination address, the upper-layer protocol
 * and, for TCP, UDP, UDP-Lite, SCTP and DCCP, the ports; stable for the
 * packets of a flow within one boot. Used as the DEX Flow ID (RFC 9326
 * §3.2) and to number packets per flow.
 *
 * Return: the Flow ID.
 */
u32 hm_flow_id(const struct sk_buff *skb)
{
	const struct ipv6hdr *ip6 = ipv6_hdr(skb);
	struct {
		struct in6_addr saddr;
		struct in6_addr daddr;
		u32 proto;
		__be16 ports[2];
	} key;
	__be16 frag_off;
	u8 nexthdr = ip6->nexthdr;
	int off;

	memset(&key, 0, sizeof(key));
	key.saddr = ip6->saddr;
	key.daddr = ip6->daddr;
	off = ipv6_skip_exthdr(skb, sizeof(*ip6), &nexthdr, &frag_off);
	key.proto = nexthdr;
	if (off >= 0 && !(frag_off & htons(IP6_OFFSET))) {
		switch (nexthdr) {
		case IPPROTO_TCP:
		case IPPROTO_UDP:
		case IPPROTO_UDPLITE:
		case IPPROTO_SCTP:
		case IPPROTO_DCCP: {
			__be16 ports[2], *p;

			p = skb_header_pointer(skb, off, sizeof(ports), ports);
			if (p) {
				key.ports[0] = p[0];
				key.ports[1] = p[1];
			}
			break;
		}
		default:
			break;
		}
	}
	return jhash2((const u32 *)&key, sizeof(key) / sizeof(u32), hm_flow_seed);
}

/**
 * hm_flow_next_seq() - next Sequence Number of a flow
 * @pkt: packet context (its network namespace's flow slots)
 * @space: which numbering, enum hm_seq_space
 * @flow_id: the flow (hm_flow_id())
 *
 * Per-flow numbering for the E2E Sequence Number (RFC 9197 §4.6) and the
 * DEX Sequence Number (RFC 9326 §3.2), each counted on its own so that a
 * packet given both options advances each by one. Wraps at 2^32.
 *
 * Return: 0 for a flow's first packet, then 1, 2, ...
 */
u32 hm_flow_next_seq(struct hm_pkt *pkt, enum hm_seq_space space, u32 flow_id)
{
	struct hm_flow_slot *s = &pkt->dn->flows[space * HM_FLOW_SLOTS +
						 (flow_id & (HM_FLOW_SLOTS - 1))];
	u32 seq;

	spin_lock_bh(&s->lock);
	if (!s->used || s->flow_id != flow_id) {
		s->used = true;
		s->flow_id = flow_id;
		s->next = 0;
	}
	seq = s->next++;
	spin_unlock_bh(&s->lock);
	return seq;
}

/**
 * hm_is_fragment() - whether the packet carries a Fragment header
 * @skb: the packet
 *
 * Return: true for an IPv6 fragment (left untouched, HOPMARK_CNT_FRAGMENT).
 */
static bool hm_is_fragment(struct sk_buff *skb)
{
	unsigned int off = 0;

	return ipv6_find_hdr(skb, &off, NEXTHDR_FRAGMENT, NULL, NULL) >= 0;
}

/**
 * hm_is_link_scope() - whether the packet belongs to its link only
 * @skb: the packet, IPv6 header linear at skb->data (hm_pkt_init())
 *
 * Multicast or link-local destination (MLD, router discovery), link-local
 * or unspecified source (RFC 4291 §2.5.6: never forwarded; DAD), and
 * Neighbor Discovery (ICMPv6 types 133-137, RFC 4861 §4, e.g. a unicast
 * NUD probe to a global address from a link-local one) are not part of
 * the IOAM domain's routed traffic.
 *
 * Return: true when the packet is never encapsulated.
 */
static bool hm_is_link_scope(struct sk_buff *skb)
{
	const struct ipv6hdr *ip6 = ipv6_hdr(skb);
	int dt = ipv6_addr_type(&ip6->daddr);
	int st = ipv6_addr_type(&ip6->saddr);
	const u8 *type;
	u8 _type;

	if ((dt | st) & (IPV6_ADDR_MULTICAST | IPV6_ADDR_LINKLOCAL) ||
	    st == IPV6_ADDR_ANY)
		return true;
	if (ip6->nexthdr != NEXTHDR_ICMP)
		return false;
	type = skb_header_pointer(skb, sizeof(*ip6), sizeof(_type), &_type);
	return type && *type >= NDISC_ROUTER_SOLICITATION && *type <= NDISC_REDIRECT;
}

/**
 * hm_pkt_init() - fill the packet context of a hook
 * @pkt: context to fill
 * @skb: the packet
 * @state: the hook's state (network namespace, devices)
 *
 * Return: false when the packet is not one the datapath can look at: its
 * IPv6 header is not at skb->data or not linear, or it is a jumbogram
 * (Payload Length 0, RFC 2675; also Linux's BIG TCP), whose length is not
 * in the IPv6 header.
 */
static bool hm_pkt_init(struct hm_pkt *pkt, struct sk_buff *skb,
			const struct nf_hook_state *state)
{
	if (skb_network_offset(skb) != 0 ||
	    !pskb_may_pull(skb, sizeof(struct ipv6hdr)) ||
	    !ipv6_hdr(skb)->payload_len)
		return false;
	pkt->hn = hm_pernet(state->net);
	pkt->dn = net_generic(state->net, hm_dp_net_id);
	pkt->in = state->in;
	pkt->out = state->out;
	pkt->in_if = pkt->in ? hm_if_lookup_rcu(pkt->hn, pkt->in->ifindex) : NULL;
	pkt->out_if = pkt->out ? hm_if_lookup_rcu(pkt->hn, pkt->out->ifindex) : NULL;
	pkt->now_ns = ktime_get_real_ns();
	pkt->hop_limit = ipv6_hdr(skb)->hop_limit;
	return true;
}

/**
 * hm_features() - enabled feature bits of an interface configuration
 * @hif: the configuration, or NULL
 *
 * Return: enum hopmark_if_feature bits, 0 for NULL.
 */
static u32 hm_features(const struct hm_if *hif)
{
	return hif ? READ_ONCE(hif->features) : 0;
}

/**
 * hm_nf_pre_routing() - ingress: Direct Export and E2E decapsulation
 * @priv: unused
 * @skb: the packet
 * @state: hook state
 *
 * Return: NF_ACCEPT, always.
 */
static unsigned int hm_nf_pre_routing(void *priv, struct sk_buff *skb,
				      const struct nf_hook_state *state)
{
	struct hopmark_net *hn = hm_pernet(state->net);
	struct hm_if *hif;
	struct hm_ioam_opt opt;
	struct hm_pkt pkt;
	u32 f;
	int err;

	if (ipv6_hdr(skb)->nexthdr != NEXTHDR_HOP || !state->in)
		return NF_ACCEPT;
	hif = hm_if_lookup_rcu(hn, state->in->ifindex);
	f = hm_features(hif) & (HOPMARK_IF_F_DEX | HOPMARK_IF_F_E2E_DECAP);
	if (!f || !hm_pkt_init(&pkt, skb, state))
		return NF_ACCEPT;
	/* On input Linux reports the hop limit the packet will leave with. */
	if (pkt.hop_limit)
		pkt.hop_limit--;
	if (hm_is_fragment(skb)) {
		hm_count(hn, hif, HOPMARK_CNT_FRAGMENT);
		return NF_ACCEPT;
	}
	if (f & HOPMARK_IF_F_DEX) {
		err = hm_hbh_find_ioam(skb, HM_IOAM_OPT_DEX, -1, &opt);
		if (!err)
			hm_dex_export(&pkt, skb, &opt);
		else if (err == -EBADMSG)
			hm_count(hn, hif, HOPMARK_CNT_MALFORMED);
	}
	if (f & HOPMARK_IF_F_E2E_DECAP)
		hm_e2e_decap(&pkt, skb);
	return NF_ACCEPT;
}

/**
 * hm_nf_forward() - transit: Incremental Trace
 * @priv: unused
 * @skb: the packet, routed, hop limit already decremented
 * @state: hook state (in: ingress device, out: egress device)
 *
 * Return: NF_ACCEPT, always.
 */
static unsigned int hm_nf_forward(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	struct hopmark_net *hn = hm_pernet(state->net);
	struct hm_ioam_opt opt;
	struct hm_if *hif;
	struct hm_pkt pkt;
	int err;

	if (ipv6_hdr(skb)->nexthdr != NEXTHDR_HOP || !state->in)
		return NF_ACCEPT;
	hif = hm_if_lookup_rcu(hn, state->in->ifindex);
	if (!(hm_features(hif) & HOPMARK_IF_F_INCREMENTAL) ||
	    !hm_pkt_init(&pkt, skb, state))
		return NF_ACCEPT;
	err = hm_hbh_find_ioam(skb, HM_IOAM_OPT_INCREMENTAL_TRACE, -1, &opt);
	if (err == -EBADMSG) {
		hm_count(hn, hif, HOPMARK_CNT_MALFORMED);
		return NF_ACCEPT;
	}
	if (err)
		return NF_ACCEPT;
	if (hm_is_fragment(skb)) {
		hm_count(hn, hif, HOPMARK_CNT_FRAGMENT);
		return NF_ACCEPT;
	}
	hm_incr_transit(&pkt, skb, &opt);
	return NF_ACCEPT;
}

/**
 * hm_nf_local_in() - destination: Incremental Trace sink, SRH O-flag
 * @priv: unused
 * @skb: the packet, addressed to this node
 * @state: hook state
 *
 * Return: NF_ACCEPT, always.
 */
static unsigned int hm_nf_local_in(void *priv, struct sk_buff *skb,
				   const struct nf_hook_state *state)
{
	struct hopmark_net *hn = hm_pernet(state->net);
	struct hm_ioam_opt opt;
	struct hm_if *hif;
	struct hm_pkt pkt;
	u32 f;
	int err;

	if (!state->in)
		return NF_ACCEPT;
	hif = hm_if_lookup_rcu(hn, state->in->ifindex);
	f = hm_features(hif) & (HOPMARK_IF_F_INCREMENTAL | HOPMARK_IF_F_SRH_OFLAG);
	if (!f || !hm_pkt_init(&pkt, skb, state))
		return NF_ACCEPT;
	if ((f & HOPMARK_IF_F_INCREMENTAL) &&
	    ipv6_hdr(skb)->nexthdr == NEXTHDR_HOP) {
		err = hm_hbh_find_ioam(skb, HM_IOAM_OPT_INCREMENTAL_TRACE, -1, &opt);
		if (!err)
			hm_incr_sink(&pkt, skb, &opt);
		else if (err == -EBADMSG)
			hm_count(hn, hif, HOPMARK_CNT_MALFORMED);
	}
	if (f & HOPMARK_IF_F_SRH_OFLAG)
		hm_srh_oflag(&pkt, skb);
	return NF_ACCEPT;
}

/**
 * hm_nf_post_routing() - encapsulating node: E2E, DEX, Incremental Trace
 * @priv: unused
 * @skb: the packet, routed
 * @state: hook state (out: egress device)
 *
 * Link-scope packets (hm_is_link_scope(): neighbour discovery, MLD,
 * link-local addresses) are never encapsulated: the IOAM domain is routed
 * unicast traffic.
 *
 * Return: NF_ACCEPT, always.
 */
static unsigned int hm_nf_post_routing(void *priv, struct sk_buff *skb,
				       const struct nf_hook_state *state)
{
	struct hopmark_net *hn = hm_pernet(state->net);
	struct hm_if *hif;
	struct hm_pkt pkt;
	u32 f;

	if (!state->out)
		return NF_ACCEPT;
	hif = hm_if_lookup_rcu(hn, state->out->ifindex);
	f = hm_features(hif) & (HOPMARK_IF_F_E2E_ENCAP | HOPMARK_IF_F_DEX_ENCAP |
				HOPMARK_IF_F_INCREMENTAL_ENCAP);
	if (!f || !hm_pkt_init(&pkt, skb, state))
		return NF_ACCEPT;
	if (hm_is_link_scope(skb))
		return NF_ACCEPT;
	if (hm_is_fragment(skb)) {
		hm_count(hn, hif, HOPMARK_CNT_FRAGMENT);
		return NF_ACCEPT;
	}
	if (f & HOPMARK_IF_F_E2E_ENCAP)
		hm_e2e_encap(&pkt, skb);
	if (f & HOPMARK_IF_F_DEX_ENCAP)
		hm_dex_encap(&pkt, skb);
	if (f & HOPMARK_IF_F_INCREMENTAL_ENCAP)
		hm_incr_encap(&pkt, skb);
	return NF_ACCEPT;
}

static const struct nf_hook_ops hm_nf_ops[] = {
	{
		.hook		= hm_nf_pre_routing,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_PRE_ROUTING,
		.priority	= NF_IP6_PRI_CONNTRACK_DEFRAG - 10,
	},
	{
		.hook		= hm_nf_forward,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_FORWARD,
		.priority	= NF_IP6_PRI_LAST - 1,
	},
	{
		.hook		= hm_nf_local_in,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_LOCAL_IN,
		.priority	= NF_IP6_PRI_FIRST + 1,
	},
	{
		.hook		= hm_nf_post_routing,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_POST_ROUTING,
		.priority	= NF_IP6_PRI_NAT_SRC + 10,
	},
};

/**
 * hm_dp_net_init() - register the hooks of a network namespace
 * @net: the namespace
 *
 * Return: 0, -ENOMEM, or the error of nf_register_net_hooks().
 */
static int __net_init hm_dp_net_init(struct net *net)
{
	struct hm_dp_net *dn = net_generic(net, hm_dp_net_id);
	unsigned int i;
	int err;

	dn->flows = kvcalloc(HM_SEQ_SPACES * HM_FLOW_SLOTS, sizeof(*dn->flows),
			     GFP_KERNEL);
	if (!dn->flows)
		return -ENOMEM;
	for (i = 0; i < HM_SEQ_SPACES * HM_FLOW_SLOTS; i++)
		spin_lock_init(&dn->flows[i].lock);
	err = nf_register_net_hooks(net, hm_nf_ops, ARRAY_SIZE(hm_nf_ops));
	if (err) {
		kvfree(dn->flows);
		dn->flows = NULL;
	}
	return err;
}

/**
 * hm_dp_net_exit() - unregister the hooks of a network namespace
 * @net: the namespace
 *
 * nf_unregister_net_hooks() waits for a grace period, so no hook still
 * uses the flow slots when they are freed.
 */
static void __net_exit hm_dp_net_exit(struct net *net)
{
	struct hm_dp_net *dn = net_generic(net, hm_dp_net_id);

	nf_unregister_net_hooks(net, hm_nf_ops, ARRAY_SIZE(hm_nf_ops));
	kvfree(dn->flows);
	dn->flows = NULL;
}

static struct pernet_operations hm_dp_net_ops = {
	.init	= hm_dp_net_init,
	.exit	= hm_dp_net_exit,
	.id	= &hm_dp_net_id,
	.size	= sizeof(struct hm_dp_net),
};

/**
 * hm_datapath_init() - start the datapath in every network namespace
 *
 * Context: module load, from hopmark_init() once the core (per-netns state,
 * genetlink family) is ready.
 *
 * Return: 0 or the error of register_pernet_subsys().
 */
int hm_datapath_init(void)
{
	hm_flow_seed = get_random_u32();
	return register_pernet_subsys(&hm_dp_net_ops);
}

/**
 * hm_datapath_exit() - remove the hooks from every network namespace
 */
void hm_datapath_exit(void)
{
	unregister_pernet_subsys(&hm_dp_net_ops);
}
