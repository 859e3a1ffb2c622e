/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * int_drop.h - hopmark's Drop Reason codes: the 8-bit value of RepMdBits
 * bit 15 (Telemetry Report v2.0 §3.3.1: Queue ID (8) | Drop Reason (8) |
 * padding (16)) in the drop reports (D) of bpf/hopmark_int_drop.bpf.c.
 *
 * The report specification leaves the codes to the implementation. Ours
 * group the Linux kernel's enum skb_drop_reason (include/net/dropreason-
 * core.h; its numbering changes between kernel versions, so the BPF program
 * maps by enumerator name through CO-RE, never by number). Which kernel
 * reason gives which code: Documentation/int.rst, "Drop reports", and
 * int_drop_reason_names[] (lib/int/int_drop_names.c) for display.
 *
 * Header only, libc-free: safe to include from BPF.
 */
#ifndef __HOPMARK_INT_DROP_H
#define __HOPMARK_INT_DROP_H

#include <linux/types.h>

/* Drop Reason codes (RepMdBits bit 15, octet 2 of its word). */
#define INT_DROP_UNSPEC		0	/* the kernel gave no reason: a bare kfree_skb() */
#define INT_DROP_QDISC		1	/* the qdisc dropped it: queue limit, AQM, netem loss */
#define INT_DROP_NETFILTER	2	/* a netfilter rule (nftables, iptables) dropped it */
#define INT_DROP_NO_ROUTE	3	/* no route to the destination (input or output) */
#define INT_DROP_TTL		4	/* TTL / Hop Limit expired while forwarding */
#define INT_DROP_TC		5	/* a tc filter or BPF program (tc ingress or egress) shot it */
#define INT_DROP_XDP		6	/* an XDP program dropped it (skb path) */
#define INT_DROP_HDR		7	/* bad IP header, checksum or length */
#define INT_DROP_NEIGH		8	/* no neighbour (ARP/NDISC failed, queue full) */
#define INT_DROP_TOO_BIG	9	/* larger than the path MTU, not fragmentable */
#define INT_DROP_POLICY		10	/* rp_filter, XFRM or cgroup BPF policy, LSM */
#define INT_DROP_SOCKET		11	/* local delivery: no socket, socket filter or buffer full */
#define INT_DROP_NOMEM		12	/* out of memory, backlog or ring full */
#define INT_DROP_DEV		13	/* device not ready or gone, no TX target */
#define INT_DROP_TCP		14	/* TCP state: invalid sequence, old data, reset, ... */
#define INT_DROP_OTHER		255	/* a kernel reason not grouped above */
#define INT_DROP_NR_CODES	15	/* codes 0..14 (and INT_DROP_OTHER) */

/**
 * int_drop_md_word() - the RepMdBits bit 15 word of a drop report
 * @queue_id:	egress queue ID (8 bits)
 * @reason:	%INT_DROP_* (8 bits)
 *
 * Report §3.3.1: Queue ID (8) | Drop Reason (8) | padding (16), zero.
 *
 * Return: the word in host order; the wire carries it big-endian.
 */
static inline __u32 int_drop_md_word(__u32 queue_id, __u32 reason)
{
	return (queue_id & 0xff) << 24 | (reason & 0xff) << 16;
}

#ifndef __bpf__
/**
 * int_drop_reason_name() - display name of a Drop Reason code
 * @code:	%INT_DROP_* (any 8-bit value)
 *
 * Return: a static string: "qdisc", "netfilter", ...; "other" for
 * %INT_DROP_OTHER and for codes this version does not define.
 */
const char *int_drop_reason_name(__u32 code);
#endif

#endif /* __HOPMARK_INT_DROP_H */
