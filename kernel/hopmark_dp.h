/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hopmark_dp.h - internal API of the hopmark.ko datapath
 *
 * The datapath is hopmark_nf.c (netfilter hooks, Hop-by-Hop header walk and
 * rewrite, flow numbering) and one file per option it handles:
 * ioam6_incremental.c (IOAM Incremental Trace, RFC 9197 §4.4, Option-Type
 * 1), ioam6_e2e.c (IOAM Edge-to-Edge, RFC 9197 §4.6, Option-Type 3),
 * ioam6_dex.c (IOAM Direct Export, RFC 9326, Option-Type 4) and srh_oflag.c
 * (SRv6 SRH O-flag, RFC 8754 §2, RFC 9259 §2). The IPv6 carriage of IOAM
 * options is RFC 9486.
 *
 * All offsets are in bytes from the start of the IPv6 header, which is at
 * skb->data in every hook the datapath uses. Rule for every handler: a
 * packet it cannot handle is left exactly as it was and counted.
 */
#ifndef _HOPMARK_DP_H
#define _HOPMARK_DP_H

#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <asm/unaligned.h>

#include "ioam/ioam6.h"
#include "ipv6/ipv6.h"

#include "hopmark.h"

struct hm_dp_net;

/**
 * struct hm_pkt - what the hooks know about the packet being processed
 * @hn:		hopmark state of the packet's network namespace
 * @dn:		datapath state of that namespace (struct hm_dp_net)
 * @in:		ingress device, NULL for locally generated packets
 * @out:	egress device, NULL before routing (PRE_ROUTING, LOCAL_IN)
 * @in_if:	configuration of @in, NULL when unconfigured or @in is NULL
 * @out_if:	configuration of @out, NULL when unconfigured or @out is NULL
 * @now_ns:	POSIX time (CLOCK_REALTIME) in ns, taken once per packet
 * @hop_limit:	Hop_Lim this node reports (RFC 9197 §4.4.2.1): the hop
 *		limit the packet leaves with, like Linux's IOAM on input
 */
struct hm_pkt {
	struct hopmark_net *hn;
	struct hm_dp_net *dn;
	struct net_device *in;
	struct net_device *out;
	struct hm_if *in_if;
	struct hm_if *out_if;
	u64 now_ns;
	u8 hop_limit;
};

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

/**
 * enum hm_seq_space - independent per-flow Sequence Number spaces
 * @HM_SEQ_E2E: E2E option Sequence Number (RFC 9197 §4.6)
 * @HM_SEQ_DEX: DEX option Sequence Number (RFC 9326 §3.2)
 * @HM_SEQ_SPACES: how many
 */
enum hm_seq_space {
	HM_SEQ_E2E,
	HM_SEQ_DEX,
	HM_SEQ_SPACES,
};

/* hopmark_nf.c */
unsigned int hm_hbh_len(struct sk_buff *skb);
int hm_hbh_find_ioam(struct sk_buff *skb, u8 ioam_type, int ns_id,
		     struct hm_ioam_opt *opt);
int hm_hbh_add_option(struct hm_pkt *pkt, struct sk_buff *skb,
		      const u8 *tlv, unsigned int tlv_len);
int hm_hbh_del_option(struct sk_buff *skb, const struct hm_ioam_opt *opt);
int hm_hbh_grow_option(struct sk_buff *skb, const struct hm_ioam_opt *opt,
		       unsigned int at, const u8 *data, unsigned int len,
		       unsigned int mtu);
int hm_skb_make_writable(struct sk_buff *skb, unsigned int len);
void hm_rcsum_replace(struct sk_buff *skb, unsigned int off,
		      const void *old, const void *new, unsigned int len);
u32 hm_flow_id(const struct sk_buff *skb);
u32 hm_flow_next_seq(struct hm_pkt *pkt, enum hm_seq_space space,
		     u32 flow_id);
unsigned int hm_egress_mtu(const struct sk_buff *skb);
bool hm_fits_mtu(const struct sk_buff *skb, unsigned int grow,
		 unsigned int mtu);

/* ioam6_incremental.c */
unsigned int hm_ioam6_fill_node_data(const struct hm_pkt *pkt,
				     const struct sk_buff *skb,
				     const struct hm_ns *ns, u32 trace_type,
				     u8 *buf);
void hm_incr_transit(struct hm_pkt *pkt, struct sk_buff *skb,
		     const struct hm_ioam_opt *opt);
void hm_incr_sink(struct hm_pkt *pkt, struct sk_buff *skb,
		  const struct hm_ioam_opt *opt);
void hm_incr_encap(struct hm_pkt *pkt, struct sk_buff *skb);

/* ioam6_e2e.c */
void hm_e2e_encap(struct hm_pkt *pkt, struct sk_buff *skb);
void hm_e2e_decap(struct hm_pkt *pkt, struct sk_buff *skb);

/* ioam6_dex.c */
void hm_dex_export(struct hm_pkt *pkt, struct sk_buff *skb,
		   const struct hm_ioam_opt *opt);
void hm_dex_encap(struct hm_pkt *pkt, struct sk_buff *skb);

/* srh_oflag.c */
void hm_srh_oflag(struct hm_pkt *pkt, struct sk_buff *skb);

#endif /* _HOPMARK_DP_H */
