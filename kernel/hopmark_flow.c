// SPDX-License-Identifier: GPL-2.0-only
/*
 * hopmark_flow.c - Flow IDs and per-flow Sequence Numbers of hopmark.ko
 * (API: hopmark_flow.h)
 *
 * The encapsulating node numbers the packets of each flow, for the E2E
 * Sequence Number (RFC 9197 §4.6) and the DEX Flow ID and Sequence Number
 * (RFC 9326 §3.2). A flow is what hm_flow_id() hashes; its numbering lives
 * in one of HM_FLOW_SLOTS slots per Sequence Number space, indexed by Flow
 * ID, so memory is fixed per network namespace whatever the traffic.
 */
#include <linux/jhash.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/ipv6.h>

#include "hopmark_flow.h"

#define HM_FLOW_SLOTS	1024	/* per Sequence Number space, power of two */

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

static u32 hm_flow_seed __read_mostly;

/**
 * hm_flow_seed_init() - pick the hash seed of the Flow IDs
 *
 * Context: module load, before any hook runs. Flow IDs are stable for one
 * load of the module and unpredictable from outside.
 */
void hm_flow_seed_init(void)
{
	hm_flow_seed = get_random_u32();
}

/**
 * hm_flows_init() - allocate the flow slots of a network namespace
 * @fl: the table to fill
 *
 * Context: process context (pernet init), may sleep.
 * Return: 0 or -ENOMEM.
 */
int hm_flows_init(struct hm_flows *fl)
{
	unsigned int i;

	fl->slots = kvcalloc(HM_SEQ_SPACES * HM_FLOW_SLOTS, sizeof(*fl->slots),
			     GFP_KERNEL);
	if (!fl->slots)
		return -ENOMEM;
	for (i = 0; i < HM_SEQ_SPACES * HM_FLOW_SLOTS; i++)
		spin_lock_init(&fl->slots[i].lock);
	return 0;
}

/**
 * hm_flows_free() - free the flow slots of a network namespace
 * @fl: the table; no hook may still use it (after a grace period)
 */
void hm_flows_free(struct hm_flows *fl)
{
	kvfree(fl->slots);
	fl->slots = NULL;
}

/**
 * hm_flow_id() - Flow ID of a packet
 * @skb: the packet, skb->data at its IPv6 header
 *
 * A 32-bit hash of source and destination address, the upper-layer protocol
 * and, for TCP, UDP, UDP-Lite, SCTP and DCCP, the ports; stable for the
 * packets of a flow while the module is loaded. Used as the DEX Flow ID
 * (RFC 9326 §3.2) and to number packets per flow.
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
 * @fl: the flow slots of the packet's network namespace
 * @space: which numbering, enum hm_seq_space
 * @flow_id: the flow (hm_flow_id())
 *
 * Per-flow numbering for the E2E Sequence Number (RFC 9197 §4.6) and the
 * DEX Sequence Number (RFC 9326 §3.2), each counted on its own so that a
 * packet given both options advances each by one. Wraps at 2^32.
 *
 * Context: any; takes the slot's lock with BHs disabled.
 * Return: 0 for a flow's first packet, then 1, 2, ...
 */
u32 hm_flow_next_seq(struct hm_flows *fl, enum hm_seq_space space, u32 flow_id)
{
	struct hm_flow_slot *s = &fl->slots[space * HM_FLOW_SLOTS +
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
