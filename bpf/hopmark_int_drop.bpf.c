// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hopmark_int_drop.bpf.c - INT drop reports (Telemetry Report v2.0 §2.2,
 * "Dropped packets", flag D): every packet this node frees as a drop that
 * carries INT or matches the INT watchlist becomes an %INT_REC_DROP record
 * on int_events, with the Drop Reason of RepMdBits bit 15 (int/int_drop.h).
 *
 * One program, hm_int_drop, on the kfree_skb tracepoint (tp_btf, BTF-typed
 * arguments: skb, location, reason; Linux 5.17 on, so Debian 12's 6.1 and
 * later). It sees every drop of the kernel: the qdisc's (queue limit, AQM,
 * netem loss), netfilter's, routing's, the tc programs' (our own datapath's
 * TC_ACT_SHOT), the stack's. It is not attached to a device: the role
 * "int-drop" (lib/common/bpf_attach.c) links it to the tracepoint and pins
 * the link, and the loader writes the node's network namespace into
 * hm_drop_netns before loading, since a tracepoint fires for every
 * namespace of the host.
 *
 * Kernel structures are read through BPF CO-RE: the local declarations
 * below name only the fields used, and libbpf relocates their offsets (and
 * the drop reasons' values) against the running kernel's BTF. No vmlinux.h.
 *
 * What is skipped, in the order the checks run (cheapest first, as the
 * program runs on every drop of the host):
 *  - reasons that are not drops: SKB_NOT_DROPPED_YET (never passed, but
 *    0 is not a drop) and SKB_CONSUMED (kernels that have it send
 *    consume_skb() to its own tracepoint; a kfree_skb_reason() with it is
 *    a normal free). SKB_DROP_REASON_NOT_SPECIFIED, a bare kfree_skb(), is
 *    the kernel's own definition of a drop (kfree_skb() against
 *    consume_skb(), the split drop_monitor relies on): it is reported,
 *    code %INT_DROP_UNSPEC. A forwarding node passing a TCP transfer
 *    without loss gives no such record (Documentation/int.rst, "Drop
 *    reports", with the command);
 *  - skbs of another network namespace, or with neither device nor socket;
 *  - the domain not configured (int_cfg[0] without INT_DOM_F_CONFIGURED);
 *  - packets that are neither IPv4 nor IPv6 or whose headers are not in
 *    the linear data;
 *  - Telemetry Reports (UDP to the collector's port): never reported;
 *  - packets without INT that match no watchlist rule;
 *  - the sink's own discard of INT packets with the D bit (INT §5.8),
 *    counted as %INT_CNT_DROP_SINK_DISCARD, not reported.
 * Reported drops count %INT_CNT_DROP_REPORT, a full ring %INT_CNT_EVENTS_LOST
 * (int_stats of the device the skb was on; 0 when it had none).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "hopmark_maps.bpf.h"
#include "int_maps.bpf.h"
#include "int/int_drop.h"
#include "common/ip_proto.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/*
 * The node's network namespace (inode number of /proc/self/ns/net), set by
 * the loader before loading. 0: no namespace is this node's, nothing is
 * reported (bpftool prog loadall). Writable data, not .rodata: a frozen 0
 * would let the verifier prune everything after its test, and the 6.1
 * verifier tier (selftests/vm/bpf_load.t) would check nothing.
 */
__u32 hm_drop_netns SEC(".data") = 0;

/* ---- kernel types, CO-RE: only the fields read ---- */

struct ns_common___hm {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct net___hm {
	struct ns_common___hm ns;
} __attribute__((preserve_access_index));

struct net_device___hm {
	int ifindex;
	struct {
		struct net___hm *net;
	} nd_net;
} __attribute__((preserve_access_index));

struct sock_common___hm {
	struct {
		struct net___hm *net;
	} skc_net;
} __attribute__((preserve_access_index));

struct sock___hm {
	struct sock_common___hm __sk_common;
} __attribute__((preserve_access_index));

struct sk_buff___hm {
	struct net_device___hm *dev;
	struct sock___hm *sk;
	unsigned int len;
	__u16 queue_mapping;
	__be16 protocol;
	__u16 transport_header;
	__u16 network_header;
	__u16 mac_header;
	unsigned int tail;
	unsigned char *head;
	unsigned char *data;
	int skb_iif;
} __attribute__((preserve_access_index));

/*
 * The enumerators of enum skb_drop_reason that map to a code. Their
 * values here are placeholders: each use is relocated to the running
 * kernel's value by name, and one the kernel lacks is skipped
 * (bpf_core_enum_value_exists()).
 */
enum skb_drop_reason {
	SKB_NOT_DROPPED_YET,
	SKB_CONSUMED,
	SKB_DROP_REASON_NOT_SPECIFIED,
	SKB_DROP_REASON_NO_SOCKET,
	SKB_DROP_REASON_SOCKET_CLOSE,
	SKB_DROP_REASON_SOCKET_FILTER,
	SKB_DROP_REASON_SOCKET_RCVBUFF,
	SKB_DROP_REASON_SOCKET_BACKLOG,
	SKB_DROP_REASON_PROTO_MEM,
	SKB_DROP_REASON_PKT_TOO_SMALL,
	SKB_DROP_REASON_TCP_CSUM,
	SKB_DROP_REASON_UDP_CSUM,
	SKB_DROP_REASON_ICMP_CSUM,
	SKB_DROP_REASON_NETFILTER_DROP,
	SKB_DROP_REASON_OTHERHOST,
	SKB_DROP_REASON_IP_CSUM,
	SKB_DROP_REASON_IP_INHDR,
	SKB_DROP_REASON_IP_RPFILTER,
	SKB_DROP_REASON_XFRM_POLICY,
	SKB_DROP_REASON_IP_NOPROTO,
	SKB_DROP_REASON_IP_OUTNOROUTES,
	SKB_DROP_REASON_IP_INNOROUTES,
	SKB_DROP_REASON_BPF_CGROUP_EGRESS,
	SKB_DROP_REASON_IPV6DISABLED,
	SKB_DROP_REASON_NEIGH_CREATEFAIL,
	SKB_DROP_REASON_NEIGH_FAILED,
	SKB_DROP_REASON_NEIGH_QUEUEFULL,
	SKB_DROP_REASON_NEIGH_DEAD,
	SKB_DROP_REASON_NEIGH_HH_FILLFAIL,
	SKB_DROP_REASON_TC_EGRESS,
	SKB_DROP_REASON_TC_INGRESS,
	SKB_DROP_REASON_TC_COOKIE_ERROR,
	SKB_DROP_REASON_TC_CHAIN_NOTFOUND,
	SKB_DROP_REASON_TC_RECLASSIFY_LOOP,
	SKB_DROP_REASON_SECURITY_HOOK,
	SKB_DROP_REASON_QDISC_DROP,
	SKB_DROP_REASON_QDISC_OVERLIMIT,
	SKB_DROP_REASON_QDISC_CONGESTED,
	SKB_DROP_REASON_CAKE_FLOOD,
	SKB_DROP_REASON_FQ_BAND_LIMIT,
	SKB_DROP_REASON_FQ_HORIZON_LIMIT,
	SKB_DROP_REASON_FQ_FLOW_LIMIT,
	SKB_DROP_REASON_DUALPI2_STEP_DROP,
	SKB_DROP_REASON_CPU_BACKLOG,
	SKB_DROP_REASON_XDP,
	SKB_DROP_REASON_DEV_HDR,
	SKB_DROP_REASON_DEV_READY,
	SKB_DROP_REASON_FULL_RING,
	SKB_DROP_REASON_NOMEM,
	SKB_DROP_REASON_HDR_TRUNC,
	SKB_DROP_REASON_PKT_TOO_BIG,
	SKB_DROP_REASON_NO_TX_TARGET,
	SKB_DROP_REASON_PFMEMALLOC,
	SKB_DROP_REASON_IP_INADDRERRORS,
	SKB_DROP_REASON_IP_LOCAL_SOURCE,
	SKB_DROP_REASON_IP_INVALID_SOURCE,
	SKB_DROP_REASON_IP_LOCALNET,
	SKB_DROP_REASON_IP_INVALID_DEST,
	SKB_DROP_REASON_TCP_FLAGS,
	SKB_DROP_REASON_TCP_ZEROWINDOW,
	SKB_DROP_REASON_TCP_OLD_DATA,
	SKB_DROP_REASON_TCP_OVERWINDOW,
	SKB_DROP_REASON_TCP_OFOMERGE,
	SKB_DROP_REASON_TCP_OLD_SEQUENCE,
	SKB_DROP_REASON_TCP_INVALID_SEQUENCE,
	SKB_DROP_REASON_TCP_RESET,
	SKB_DROP_REASON_TCP_INVALID_SYN,
	SKB_DROP_REASON_TCP_CLOSE,
	SKB_DROP_REASON_TCP_OLD_ACK,
	SKB_DROP_REASON_TCP_TOO_OLD_ACK,
	SKB_DROP_REASON_TCP_OFO_DROP,
};

#define HM_DR_IS(name) \
	(bpf_core_enum_value_exists(enum skb_drop_reason, name) && \
	 reason == bpf_core_enum_value(enum skb_drop_reason, name))

/*
 * hm_drop_code() - the Drop Reason code (int/int_drop.h) of a kernel reason
 * @reason:	enum skb_drop_reason of the running kernel
 * @ttl:	the packet's TTL / Hop Limit (forwarding of an expired packet
 *		is counted as SKB_DROP_REASON_IP_INHDR by ip_forward() and
 *		ip6_forward(): a TTL of at most 1 tells it apart)
 */
static __always_inline __u8 hm_drop_code(__u32 reason, __u32 ttl)
{
	if (HM_DR_IS(SKB_DROP_REASON_NOT_SPECIFIED))
		return INT_DROP_UNSPEC;
	if (HM_DR_IS(SKB_DROP_REASON_QDISC_DROP) ||
	    HM_DR_IS(SKB_DROP_REASON_QDISC_OVERLIMIT) ||
	    HM_DR_IS(SKB_DROP_REASON_QDISC_CONGESTED) ||
	    HM_DR_IS(SKB_DROP_REASON_CAKE_FLOOD) ||
	    HM_DR_IS(SKB_DROP_REASON_FQ_BAND_LIMIT) ||
	    HM_DR_IS(SKB_DROP_REASON_FQ_HORIZON_LIMIT) ||
	    HM_DR_IS(SKB_DROP_REASON_FQ_FLOW_LIMIT) ||
	    HM_DR_IS(SKB_DROP_REASON_DUALPI2_STEP_DROP))
		return INT_DROP_QDISC;
	if (HM_DR_IS(SKB_DROP_REASON_NETFILTER_DROP))
		return INT_DROP_NETFILTER;
	if (HM_DR_IS(SKB_DROP_REASON_IP_OUTNOROUTES) ||
	    HM_DR_IS(SKB_DROP_REASON_IP_INNOROUTES) ||
	    HM_DR_IS(SKB_DROP_REASON_IP_INADDRERRORS))
		return INT_DROP_NO_ROUTE;
	if (HM_DR_IS(SKB_DROP_REASON_IP_INHDR))
		return ttl <= 1 ? INT_DROP_TTL : INT_DROP_HDR;
	if (HM_DR_IS(SKB_DROP_REASON_TC_EGRESS) ||
	    HM_DR_IS(SKB_DROP_REASON_TC_INGRESS) ||
	    HM_DR_IS(SKB_DROP_REASON_TC_COOKIE_ERROR) ||
	    HM_DR_IS(SKB_DROP_REASON_TC_CHAIN_NOTFOUND) ||
	    HM_DR_IS(SKB_DROP_REASON_TC_RECLASSIFY_LOOP))
		return INT_DROP_TC;
	if (HM_DR_IS(SKB_DROP_REASON_XDP))
		return INT_DROP_XDP;
	if (HM_DR_IS(SKB_DROP_REASON_PKT_TOO_SMALL) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_CSUM) ||
	    HM_DR_IS(SKB_DROP_REASON_UDP_CSUM) ||
	    HM_DR_IS(SKB_DROP_REASON_ICMP_CSUM) ||
	    HM_DR_IS(SKB_DROP_REASON_IP_CSUM) ||
	    HM_DR_IS(SKB_DROP_REASON_HDR_TRUNC) ||
	    HM_DR_IS(SKB_DROP_REASON_DEV_HDR) ||
	    HM_DR_IS(SKB_DROP_REASON_IP_NOPROTO) ||
	    HM_DR_IS(SKB_DROP_REASON_OTHERHOST) ||
	    HM_DR_IS(SKB_DROP_REASON_IP_INVALID_DEST))
		return INT_DROP_HDR;
	if (HM_DR_IS(SKB_DROP_REASON_NEIGH_CREATEFAIL) ||
	    HM_DR_IS(SKB_DROP_REASON_NEIGH_FAILED) ||
	    HM_DR_IS(SKB_DROP_REASON_NEIGH_QUEUEFULL) ||
	    HM_DR_IS(SKB_DROP_REASON_NEIGH_DEAD) ||
	    HM_DR_IS(SKB_DROP_REASON_NEIGH_HH_FILLFAIL))
		return INT_DROP_NEIGH;
	if (HM_DR_IS(SKB_DROP_REASON_PKT_TOO_BIG))
		return INT_DROP_TOO_BIG;
	if (HM_DR_IS(SKB_DROP_REASON_IP_RPFILTER) ||
	    HM_DR_IS(SKB_DROP_REASON_XFRM_POLICY) ||
	    HM_DR_IS(SKB_DROP_REASON_BPF_CGROUP_EGRESS) ||
	    HM_DR_IS(SKB_DROP_REASON_SECURITY_HOOK) ||
	    HM_DR_IS(SKB_DROP_REASON_IP_LOCAL_SOURCE) ||
	    HM_DR_IS(SKB_DROP_REASON_IP_INVALID_SOURCE) ||
	    HM_DR_IS(SKB_DROP_REASON_IP_LOCALNET))
		return INT_DROP_POLICY;
	if (HM_DR_IS(SKB_DROP_REASON_NO_SOCKET) ||
	    HM_DR_IS(SKB_DROP_REASON_SOCKET_CLOSE) ||
	    HM_DR_IS(SKB_DROP_REASON_SOCKET_FILTER) ||
	    HM_DR_IS(SKB_DROP_REASON_SOCKET_RCVBUFF) ||
	    HM_DR_IS(SKB_DROP_REASON_SOCKET_BACKLOG) ||
	    HM_DR_IS(SKB_DROP_REASON_PROTO_MEM))
		return INT_DROP_SOCKET;
	if (HM_DR_IS(SKB_DROP_REASON_CPU_BACKLOG) ||
	    HM_DR_IS(SKB_DROP_REASON_FULL_RING) ||
	    HM_DR_IS(SKB_DROP_REASON_NOMEM) ||
	    HM_DR_IS(SKB_DROP_REASON_PFMEMALLOC))
		return INT_DROP_NOMEM;
	if (HM_DR_IS(SKB_DROP_REASON_DEV_READY) ||
	    HM_DR_IS(SKB_DROP_REASON_NO_TX_TARGET) ||
	    HM_DR_IS(SKB_DROP_REASON_IPV6DISABLED))
		return INT_DROP_DEV;
	if (HM_DR_IS(SKB_DROP_REASON_TCP_FLAGS) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_ZEROWINDOW) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_OLD_DATA) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_OVERWINDOW) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_OFOMERGE) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_OLD_SEQUENCE) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_INVALID_SEQUENCE) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_RESET) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_INVALID_SYN) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_CLOSE) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_OLD_ACK) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_TOO_OLD_ACK) ||
	    HM_DR_IS(SKB_DROP_REASON_TCP_OFO_DROP))
		return INT_DROP_TCP;
	return INT_DROP_OTHER;
}

/* ---- the packet ---- */

/*
 * Header window: the first HM_DROP_WIN octets from the IP header, copied
 * into per-CPU memory. Offsets are masked with HM_DROP_WIN - 1 and the
 * buffer has HM_DROP_WIN octets of slack, so every access of up to 16
 * octets is in bounds for the verifier without path-specific checks.
 */
#define HM_DROP_WIN		256
#define HM_DROP_WIN_MASK	(HM_DROP_WIN - 1)

struct hm_drop_scratch {
	__u8			hdr[2 * HM_DROP_WIN];
	struct hm_flow_key	key;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hm_drop_scratch);
} hm_drop_scratch SEC(".maps");

#define HDR8(s, off)	((s)->hdr[(off) & HM_DROP_WIN_MASK])
#define HDR16(s, off)	((__u32)HDR8(s, off) << 8 | HDR8(s, (off) + 1))

/* What the parser found. */
struct hm_drop_pkt {
	__u32	l4_off;		/* the (first) L4 header, from the IP header */
	__u32	ttl;		/* TTL / Hop Limit */
	__u32	has_int;	/* an INT shim + MD/MX header was found */
	__u32	int_w0;		/* its first header word (D bit), host order */
	__u32	is_report;	/* a Telemetry Report to the collector */
};

/* Next headers of IPv6 the parser steps over to reach TCP/UDP. */
#define HM_IPV6_HOPOPTS	0
#define HM_IPV6_ROUTING	43
#define HM_IPV6_DSTOPTS	60
#define HM_IPV6_EXT_MAX	3

/*
 * hm_drop_parse() - the flow key and INT presence of the IP packet in
 * @s->hdr (@avail octets valid, at most HM_DROP_WIN)
 *
 * Return: 0, or -1 when the packet is not one we parse (not IP, headers
 * past the window).
 */
static __always_inline int hm_drop_parse(struct hm_drop_scratch *s, __u32 avail,
					 const struct int_domain_cfg *dom,
					 struct hm_drop_pkt *p)
{
	struct hm_flow_key *k = &s->key;
	__u32 off, ver, l4len, dscp, i, shim, type, npt;
	__u8 proto;

	__builtin_memset(k, 0, sizeof(*k));
	__builtin_memset(p, 0, sizeof(*p));
	if (avail < 20)
		return -1;
	ver = HDR8(s, 0) >> 4;
	if (ver == 4) {
		off = (HDR8(s, 0) & 0xf) * 4;
		if (off < 20 || off > avail)
			return -1;
		k->family = 4;
		dscp = HDR8(s, 1) >> 2;
		p->ttl = HDR8(s, 8);
		proto = HDR8(s, 9);
		for (i = 0; i < 4; i++) {
			k->saddr[i] = HDR8(s, 12 + i);
			k->daddr[i] = HDR8(s, 16 + i);
		}
		/* A non-first fragment has no L4 header: the key stays without ports. */
		if (HDR16(s, 6) & 0x1fff) {
			k->proto = proto;
			return 0;
		}
	} else if (ver == 6) {
		if (avail < 40)
			return -1;
		k->family = 6;
		dscp = (HDR16(s, 0) >> 6) & 0x3f;
		p->ttl = HDR8(s, 7);
		proto = HDR8(s, 6);
		for (i = 0; i < 16; i++) {
			k->saddr[i] = HDR8(s, 8 + i);
			k->daddr[i] = HDR8(s, 24 + i);
		}
		off = 40;
		for (i = 0; i < HM_IPV6_EXT_MAX; i++) {
			if (proto != HM_IPV6_HOPOPTS && proto != HM_IPV6_ROUTING &&
			    proto != HM_IPV6_DSTOPTS)
				break;
			if (off + 8 > avail)
				return -1;
			proto = HDR8(s, off);
			off += (HDR8(s, off + 1) + 1) * 8;
		}
	} else {
		return -1;
	}
	k->proto = proto;
	p->l4_off = off;
	if (proto == HM_IPPROTO_UDP)
		l4len = 8;
	else if (proto == HM_IPPROTO_TCP)
		l4len = off + 13 <= avail ? (HDR8(s, off + 12) >> 4) * 4 : 0;
	else
		return 0;
	if (l4len < 8 || off + l4len > avail)
		return 0;
	k->sport = bpf_htons(HDR16(s, off));
	k->dport = bpf_htons(HDR16(s, off + 2));

	if (proto == HM_IPPROTO_UDP && dom->rpt_family && dom->rpt_port &&
	    HDR16(s, off + 2) == dom->rpt_port) {
		p->is_report = 1;
		return 0;
	}
	/* Where this domain puts the shim (INT §5.7.2, int/int.h). */
	if (dom->signal == INT_SIG_DSCP) {
		if (!dom->dscp_mask || (dscp & dom->dscp_mask) != (dom->dscp & dom->dscp_mask))
			return 0;
		shim = off + l4len;
	} else {
		if (proto != HM_IPPROTO_UDP || HDR16(s, off + 2) != dom->udp_port)
			return 0;
		shim = off + 8;
	}
	if (shim + INT_FIXED_LEN > avail)
		return 0;
	type = HDR8(s, shim) >> 4;
	npt = (HDR8(s, shim) >> 2) & 3;
	if ((type != INT_TYPE_MD && type != INT_TYPE_MX) ||
	    (dom->signal == INT_SIG_DSCP) != (npt == INT_NPT_DSCP))
		return 0;
	p->has_int = 1;
	p->int_w0 = HDR16(s, shim + 4) << 16 | HDR16(s, shim + 6);
	return 0;
}

/* ---- counters ---- */

const struct int_link_stats hm_drop_stats_zero = {};

static __always_inline void hm_drop_count(__u32 ifindex, __u32 cnt)
{
	struct int_link_stats *st;

	if (cnt >= INT_CNT_MAX)
		return;
	st = bpf_map_lookup_elem(&int_stats, &ifindex);
	if (!st) {
		bpf_map_update_elem(&int_stats, &ifindex, &hm_drop_stats_zero, BPF_NOEXIST);
		st = bpf_map_lookup_elem(&int_stats, &ifindex);
		if (!st)
			return;
	}
	st->cnt[cnt]++;
}

/* ---- the node's metadata at the drop ---- */

static __always_inline void put32(__u8 *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* Bits 1-8 a drop report can fill (Documentation/int.rst, "Drop reports"). */
#define HM_DROP_MD_BITS	(INT_BM_L1_PORTS | INT_BM_QUEUE | INT_BM_L2_PORTS | INT_BM_BUFFER)

/*
 * hm_drop_md() - write the node's metadata of a drop into @rec->md, in
 * RepMdBits order (bits 1, 3, 6, 8 of the domain's bitmap, then bit 15)
 * @rec:	the record; its rep_md_bits and md_len are set here
 * @bitmap:	the domain's Instruction Bitmap
 * @in_if:	ingress ifindex (0: locally generated, unknown)
 * @out_if:	egress ifindex (0: unknown)
 * @queue_id:	egress queue ID
 * @code:	Drop Reason
 *
 * Hop latency, timestamps and TX utilisation have no value at a drop
 * (nothing left the node), so their bits are cleared, as Report §3.3.1
 * does for unavailable metadata. Interface IDs come from hopmark_ifcfg
 * (0xffff / 0xffffffff without an entry), occupancies from hopmark_qdepth
 * (0xffffff when stale or unknown), as the transit writes them.
 */
static __always_inline void hm_drop_md(struct int_record *rec, __u32 bitmap, __u32 in_if,
				       __u32 out_if, __u32 queue_id, __u8 code)
{
	struct hopmark_if_cfg *ic = NULL, *oc = NULL;
	struct hopmark_node_cfg *node;
	struct hopmark_qdepth *q = NULL;
	__u32 bits = bitmap & HM_DROP_MD_BITS, zero = 0, qocc = 0xffffff, bocc = 0xffffff;
	__u32 n = 0;
	__u64 now;

	/* hopmark_ifcfg is an array: an entry is set only with HM_IF_F_PRESENT. */
	if (in_if)
		ic = bpf_map_lookup_elem(&hopmark_ifcfg, &in_if);
	if (ic && !(ic->flags & HM_IF_F_PRESENT))
		ic = NULL;
	if (out_if)
		oc = bpf_map_lookup_elem(&hopmark_ifcfg, &out_if);
	if (oc && !(oc->flags & HM_IF_F_PRESENT))
		oc = NULL;
	if (bits & (INT_BM_QUEUE | INT_BM_BUFFER)) {
		node = bpf_map_lookup_elem(&hopmark_node, &zero);
		q = bpf_map_lookup_elem(&hopmark_qdepth, &out_if);
		now = bpf_ktime_get_ns();
		if (q && node && node->qdepth_max_age_ns &&
		    now - q->updated_ns <= node->qdepth_max_age_ns) {
			qocc = q->backlog_bytes < 0xffffff ? q->backlog_bytes : 0xfffffe;
			bocc = q->node_backlog_bytes < 0xffffff ? q->node_backlog_bytes : 0xfffffe;
		}
	}
	if (bits & INT_BM_L1_PORTS) {
		put32(&rec->md[n], (ic ? (__u32)ic->if_id : 0xffff) << 16 |
				   (oc ? oc->if_id : 0xffff));
		n += 4;
	}
	if (bits & INT_BM_QUEUE) {
		put32(&rec->md[n], (queue_id & 0xff) << 24 | qocc);
		n += 4;
	}
	if (bits & INT_BM_L2_PORTS) {
		put32(&rec->md[n], ic ? ic->if_id_wide : INT_UNAVAIL32);
		put32(&rec->md[n + 4], oc ? oc->if_id_wide : INT_UNAVAIL32);
		n += 8;
	}
	if (bits & INT_BM_BUFFER) {
		put32(&rec->md[n], bocc);	/* buffer ID 0: the node's one buffer */
		n += 4;
	}
	put32(&rec->md[n], int_drop_md_word(queue_id, code));
	n += 4;
	rec->rep_md_bits = bits | INT_RPT_MD_DROP;
	rec->md_len = n;
}

/* ---- the program ---- */

SEC("tp_btf/kfree_skb")
int BPF_PROG(hm_int_drop, struct sk_buff___hm *skb, void *location, __u32 reason)
{
	struct net_device___hm *dev;
	struct sock___hm *sk;
	struct int_domain_cfg *dom;
	struct hm_drop_scratch *s;
	struct hm_drop_pkt p;
	struct int_record *rec;
	__u32 zero = 0, netns, ifindex, in_if, out_if, nh, mh, data_off, tail, avail;
	__u32 len, ip_len, trunc, qid;
	unsigned char *head;
	__u16 eproto;
	__u8 code;

	if (reason == bpf_core_enum_value(enum skb_drop_reason, SKB_NOT_DROPPED_YET))
		return 0;
	if (bpf_core_enum_value_exists(enum skb_drop_reason, SKB_CONSUMED) &&
	    reason == bpf_core_enum_value(enum skb_drop_reason, SKB_CONSUMED))
		return 0;
	if (!hm_drop_netns)
		return 0;

	/* The node's namespace: the device's, else the socket's. */
	dev = skb->dev;
	sk = skb->sk;
	if (dev)
		netns = BPF_CORE_READ(dev, nd_net.net, ns.inum);
	else if (sk)
		netns = BPF_CORE_READ(sk, __sk_common.skc_net.net, ns.inum);
	else
		return 0;
	if (netns != hm_drop_netns)
		return 0;

	dom = bpf_map_lookup_elem(&int_cfg, &zero);
	if (!dom || !(dom->flags & INT_DOM_F_CONFIGURED))
		return 0;

	eproto = bpf_ntohs(skb->protocol);
	if (eproto != ETH_P_IP && eproto != ETH_P_IPV6)
		return 0;
	head = skb->head;
	nh = skb->network_header;
	mh = skb->mac_header;
	tail = skb->tail;
	data_off = skb->data - head;
	len = skb->len;
	/* Dropped before the stack set the network header: after Ethernet. */
	if (nh == 0xffff) {
		if (mh == 0xffff)
			return 0;
		nh = mh + ETH_HLEN;
	}
	if (nh >= tail || nh + len < data_off)
		return 0;
	avail = tail - nh;
	ip_len = len + data_off - nh;	/* skb->len counts from skb->data */

	s = bpf_map_lookup_elem(&hm_drop_scratch, &zero);
	if (!s)
		return 0;
	if (avail > HM_DROP_WIN)
		avail = HM_DROP_WIN;
	if (avail < 20)
		return 0;
	/* Masked after a barrier: clang would drop a mask it can prove redundant. */
	asm volatile("" : "+r"(avail));
	avail &= HM_DROP_WIN_MASK | HM_DROP_WIN;
	if (bpf_probe_read_kernel(s->hdr, avail, head + nh))
		return 0;
	if (hm_drop_parse(s, avail, dom, &p) || p.is_report)
		return 0;

	ifindex = dev ? BPF_CORE_READ(dev, ifindex) : 0;
	if (!p.has_int && hm_sel_watch(&dom->sel, &s->key) < 0)
		return 0;
	code = hm_drop_code(reason, p.ttl);
	if (p.has_int && (p.int_w0 & INT_MD_D) && code == INT_DROP_TC) {
		hm_drop_count(ifindex, INT_CNT_DROP_SINK_DISCARD);
		return 0;
	}

	rec = bpf_ringbuf_reserve(&int_events, sizeof(*rec), 0);
	if (!rec) {
		hm_drop_count(ifindex, INT_CNT_EVENTS_LOST);
		return 0;
	}
	in_if = skb->skb_iif;
	out_if = ifindex != in_if ? ifindex : 0;
	qid = skb->queue_mapping;
	rec->ts_ns = bpf_ktime_get_tai_ns();
	{
		struct hopmark_node_cfg *node = bpf_map_lookup_elem(&hopmark_node, &zero);

		rec->node_id = node && (node->flags & HM_NODE_F_ID) ? node->node_id : INT_UNAVAIL32;
		if (node)
			rec->ts_ns -= (__u64)node->tai_offset_ns;
	}
	rec->ifindex = ifindex;
	rec->kind = INT_REC_DROP;
	rec->flags = INT_RPT_F_D;
	rec->family = s->key.family;
	rec->drop_reason = code;
	rec->queue_id = qid;
	rec->pad[0] = rec->pad[1] = rec->pad[2] = 0;
	rec->orig_len = ip_len > 0xffff ? 0xffff : ip_len;
	hm_drop_md(rec, dom->bitmap, in_if, out_if, qid, code);

	/* The packet from its IP header, truncated, from the linear data only. */
	trunc = dom->report_trunc;
	if (trunc > INT_REC_PKT_MAX)
		trunc = INT_REC_PKT_MAX;
	if (trunc > tail - nh)
		trunc = tail - nh;
	if (trunc > ip_len)
		trunc = ip_len;
	rec->pkt_len = 0;
	if (trunc >= 1) {
		/* [1, 2048] for every verifier; trunc <= INT_REC_PKT_MAX unchanged. */
		asm volatile("" : "+r"(trunc));
		trunc = ((trunc - 1) & 2047) + 1;
		if (trunc <= INT_REC_PKT_MAX &&
		    !bpf_probe_read_kernel(rec->pkt, trunc, head + nh))
			rec->pkt_len = trunc;
	}
	bpf_ringbuf_submit(rec, 0);
	hm_drop_count(ifindex, INT_CNT_DROP_REPORT);
	return 0;
}
