/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hopmark_dp.h - internal API of the hopmark.ko option handlers
 *
 * The datapath has three layers; each includes only the headers of the
 * layers below it:
 *
 *   hooks		hopmark_nf.c: the netfilter hooks pick the handlers
 *			from the interface's feature bits (struct hm_pkt)
 *   option handlers	this header: one file per option,
 *			ioam6_incremental.c (IOAM Incremental Trace, RFC 9197
 *			§4.4, Option-Type 1), ioam6_e2e.c (IOAM Edge-to-Edge,
 *			RFC 9197 §4.6, Option-Type 3), ioam6_dex.c (IOAM
 *			Direct Export, RFC 9326, Option-Type 4), srh_oflag.c
 *			(SRv6 SRH O-flag, RFC 8754 §2, RFC 9259 §2), and
 *			ioam6_encap.c, what the IOAM handlers share (node
 *			data, the encapsulating node's steps)
 *   helpers		ipv6_hbh.h (the Hop-by-Hop header walk and rewrite,
 *			MTU) and hopmark_flow.h (Flow IDs, Sequence Numbers)
 *
 * The IPv6 carriage of IOAM options is RFC 9486. All offsets are in bytes
 * from the start of the IPv6 header, which is at skb->data in every hook
 * the datapath uses. Rule for every handler: a packet it cannot handle is
 * left exactly as it was and counted.
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
#include "hopmark_flow.h"
#include "ipv6_hbh.h"

/**
 * struct hm_pkt - what the hooks know about the packet being processed
 * @hn:		hopmark state of the packet's network namespace
 * @flows:	flow slots of that namespace (hm_flow_next_seq())
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
	struct hm_flows *flows;
	struct net_device *in;
	struct net_device *out;
	struct hm_if *in_if;
	struct hm_if *out_if;
	u64 now_ns;
	u8 hop_limit;
};

/**
 * struct hm_encap - an encapsulating node's settings for one packet
 * @ns:		the IOAM-Namespace, configured (hm_encap_begin() found it)
 * @ns_id:	its ID, host order (HOPMARK_ATTR_IF_ENCAP_NS)
 * @trace_type:	IOAM-Trace-Type, host order, only the bits an
 *		encapsulating node may set (%HM_IOAM_TT_ENCAP_MASK)
 * @remlen:	RemainingLen of a new Incremental Trace, 4-octet words
 * @e2e_type:	IOAM-E2E-Type, host order, bits 0-3 only
 *
 * One snapshot of the egress interface's HOPMARK_ATTR_IF_ENCAP_* settings,
 * so a packet is built from one consistent configuration even while
 * HOPMARK_CMD_IF_SET changes it.
 */
struct hm_encap {
	struct hm_ns *ns;
	u16 ns_id;
	u32 trace_type;
	u8 remlen;
	u16 e2e_type;
};

/* ioam6_encap.c: shared by the IOAM option handlers */
unsigned int hm_ioam6_fill_node_data(const struct hm_pkt *pkt,
				     const struct sk_buff *skb,
				     const struct hm_ns *ns, u32 trace_type,
				     u8 *buf);
bool hm_encap_link_scope(struct sk_buff *skb);
bool hm_encap_begin(struct hm_pkt *pkt, struct sk_buff *skb, u8 ioam_type,
		    struct hm_encap *enc, u8 *tlv);
void hm_encap_insert(struct hm_pkt *pkt, struct sk_buff *skb, u8 *tlv,
		     unsigned int len, int cnt_inserted);

/* ioam6_incremental.c */
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
