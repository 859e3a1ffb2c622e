/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ipv6_hbh.h - the IPv6 Hop-by-Hop Options header as hopmark.ko edits it
 *
 * The bottom layer of the datapath (kernel/ipv6_hbh.c): walking the
 * options of the header (RFC 8200 §4.2, §4.3), finding an IOAM option
 * (RFC 9486 §2), adding, removing and growing one, and what every edit
 * needs: a writable packet, a CHECKSUM_COMPLETE sum kept right, the
 * egress MTU respected (GSO packets included). It knows the wire formats
 * (lib/ipv6/ipv6.h, lib/ioam/ioam6.h) and the skb, nothing of hopmark's
 * configuration, counters or option handlers.
 *
 * All offsets are in bytes from the start of the IPv6 header, which is at
 * skb->data in every netfilter hook the datapath uses. Every function that
 * changes the packet leaves it exactly as it was when it fails.
 */
#ifndef _HOPMARK_IPV6_HBH_H
#define _HOPMARK_IPV6_HBH_H

#include <linux/skbuff.h>
#include <linux/types.h>

#include "ipv6/ipv6.h"
#include "ioam/ioam6.h"

/**
 * struct hm_ioam_opt - an IOAM option found in the Hop-by-Hop header
 * @off:	offset of its option type octet (0x31), a multiple of 4
 * @len:	whole TLV length in bytes (Opt Data Len + 2)
 * @type:	IOAM Option-Type
 * @hbh_len:	length of the whole Hop-by-Hop header in bytes
 */
struct hm_ioam_opt {
	unsigned int off;
	unsigned int len;
	u8 type;
	unsigned int hbh_len;
};

int hm_skb_make_writable(struct sk_buff *skb, unsigned int len);
void hm_rcsum_replace(struct sk_buff *skb, unsigned int off,
		      const void *old, const void *new, unsigned int len);
unsigned int hm_egress_mtu(const struct sk_buff *skb);
bool hm_fits_mtu(const struct sk_buff *skb, unsigned int grow,
		 unsigned int mtu);

unsigned int hm_hbh_len(struct sk_buff *skb);
int hm_hbh_find_ioam(struct sk_buff *skb, u8 ioam_type, int ns_id,
		     struct hm_ioam_opt *opt);
int hm_hbh_add_option(struct sk_buff *skb, const u8 *tlv, unsigned int tlv_len);
int hm_hbh_del_option(struct sk_buff *skb, const struct hm_ioam_opt *opt);
int hm_hbh_grow_option(struct sk_buff *skb, const struct hm_ioam_opt *opt,
		       unsigned int at, const u8 *data, unsigned int len,
		       unsigned int mtu);

#endif /* _HOPMARK_IPV6_HBH_H */
