/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hopmark_flow.h - flow numbering of hopmark.ko (kernel/hopmark_flow.c)
 *
 * Below the option handlers, beside ipv6_hbh.h: a Flow ID per packet (a
 * hash of its addresses, upper-layer protocol and ports) and per-flow
 * Sequence Numbers, one numbering per enum hm_seq_space, kept in a table
 * of slots per network namespace. Knows the skb, nothing of hopmark's
 * configuration or counters.
 */
#ifndef _HOPMARK_FLOW_H
#define _HOPMARK_FLOW_H

#include <linux/skbuff.h>
#include <linux/types.h>

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

struct hm_flow_slot;

/**
 * struct hm_flows - the flow slots of one network namespace
 * @slots:	HM_FLOW_SLOTS slots per enum hm_seq_space (kvmalloc'ed)
 */
struct hm_flows {
	struct hm_flow_slot *slots;
};

void hm_flow_seed_init(void);
int hm_flows_init(struct hm_flows *fl);
void hm_flows_free(struct hm_flows *fl);
u32 hm_flow_id(const struct sk_buff *skb);
u32 hm_flow_next_seq(struct hm_flows *fl, enum hm_seq_space space,
		     u32 flow_id);

#endif /* _HOPMARK_FLOW_H */
