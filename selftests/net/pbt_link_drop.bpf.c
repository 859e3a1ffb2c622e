// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * pbt_link_drop.bpf.c - a drop "on the link" for selftests/net/
 * test_pbt_e2e.sh: attached at tc egress after hopmark's PBT-M filter
 * (a higher pref than HM_PBT_TC_PRIO_EGRESS), it drops every Nth marked
 * IPv4 UDP packet to one port once the node has made its egress postcard,
 * so that the node reports the packet as sent and the next node never
 * sees it. Marked: the IPv4 reserved flag bit, PBT-M's default mark
 * (PBT_V4_RSVD_BIT). Settings and counts in the pinned array
 * pbt_ldrop (u64 each, host order):
 *   [0] UDP destination port, [1] N (0: drop nothing),
 *   [2] marked packets to the port seen, [3] of them dropped.
 * Everything else passes (TC_ACT_UNSPEC: the next filter, if any, runs).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define LDROP_PORT	0
#define LDROP_EVERY	1
#define LDROP_SEEN	2
#define LDROP_DROPPED	3

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pbt_ldrop SEC(".maps");

static __u64 *slot(__u32 k)
{
	return bpf_map_lookup_elem(&pbt_ldrop, &k);
}

SEC("tc")
int pbt_link_drop(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);
	__u64 *port, *every, *seen, *dropped;

	if ((void *)(udp + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    ip->ihl != 5 || ip->protocol != IPPROTO_UDP ||
	    !(ip->frag_off & bpf_htons(0x8000)))
		return TC_ACT_UNSPEC;
	port = slot(LDROP_PORT);
	every = slot(LDROP_EVERY);
	seen = slot(LDROP_SEEN);
	dropped = slot(LDROP_DROPPED);
	if (!port || !every || !seen || !dropped || !*every ||
	    udp->dest != bpf_htons((__u16)*port))
		return TC_ACT_UNSPEC;
	if (__sync_fetch_and_add(seen, 1) % *every)
		return TC_ACT_UNSPEC;
	__sync_fetch_and_add(dropped, 1);
	return TC_ACT_SHOT;
}
