/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hm_common.bpf.h - helpers every hopmark BPF program uses: per-interface
 * counters, this node's configuration, clocks and the per-CPU scratch area.
 */
#ifndef __HM_COMMON_BPF_H
#define __HM_COMMON_BPF_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "hopmark_maps.bpf.h"
#include "common/ether.h"
#include "ioam/ioam6.h"
#include "ipv6/ipv6.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/*
 * Packet bytes copied for parsing: Ethernet + IPv6 + the largest
 * Hop-by-Hop header. The buffer is a power of two plus slack so that every
 * index can be masked with HM_SCRATCH_MASK and still be in bounds for an
 * access of up to 8 bytes: the verifier then needs no path-specific bounds.
 */
#define HM_SCRATCH_LEN		4096
#define HM_SCRATCH_MASK		(HM_SCRATCH_LEN - 1)
#define HM_NODE_BUF_LEN		128
/* A masked offset plus a helper length of up to this many bytes stays in @pkt. */
#define HM_SCRATCH_SLACK	512

/**
 * struct hm_scratch - per-CPU working memory of one program run
 * @pkt:	copy of the packet headers, from the Ethernet header on; the
 *		slack after HM_SCRATCH_LEN keeps masked accesses in bounds
 * @launder:	see hm_launder()
 * @node:	one node's data in wire format (RFC 9197 §4.4.2), at most
 *		25 words + the opaque snapshot header = 104 bytes
 */
struct hm_scratch {
	__u8	pkt[HM_SCRATCH_LEN + HM_SCRATCH_SLACK];
	__u8	node[HM_NODE_BUF_LEN];
	__u32	launder;
};

/*
 * Not pinned: each object (and each attachment made by iproute2) gets its
 * own copy, which is what scratch memory wants.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hm_scratch);
} hm_scratch SEC(".maps");

static __always_inline struct hm_scratch *hm_scratch_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&hm_scratch, &zero);
}

/**
 * hm_count() - count one datapath action on an interface
 * @ifindex:	interface the action is accounted to
 * @cnt:	enum hopmark_counter
 *
 * hopmark_stats is a per-CPU array indexed by ifindex: one lookup the JIT
 * inlines and one increment of this CPU's copy. An ifindex of
 * %HM_MAX_IFINDEX or more has no entry and is not counted (such an
 * interface is not ours, hopmark_maps.h).
 */
static __always_inline void hm_count(__u32 ifindex, __u32 cnt)
{
	struct hopmark_link_stats *st;

	if (cnt >= HM_CNT_MAX)
		return;
	st = bpf_map_lookup_elem(&hopmark_stats, &ifindex);
	if (st)
		st->cnt[cnt]++;
}

/*
 * hm_len_1_to() - @len as a helper size argument the verifier accepts
 * @len:	a length the caller has checked to be in [1, @max]
 * @max:	power of two
 *
 * Returns @len unchanged, but computed so that every verifier (Linux 6.1
 * on) sees the range [1, @max]: compilers turn "len < 1 || len > max" into
 * one unsigned comparison whose bounds older verifiers do not carry over.
 */
#define hm_len_1_to(len, max) ({					\
	__u32 __l = (len);						\
	asm volatile("" : "+r"(__l));					\
	((__l - 1) & ((max) - 1)) + 1;					\
})

/*
 * hm_off() - @off masked for the verifier; the caller has checked that it
 * is below HM_SCRATCH_LEN, so the value is unchanged.
 */
#define hm_off(off) ({							\
	__u32 __o = (off);						\
	asm volatile("" : "+r"(__o));					\
	__o & HM_SCRATCH_MASK;						\
})

/*
 * hm_launder() - @v, read back from the scratch map
 *
 * A helper's size argument is made "precise" by the verifier, and that
 * mark follows the value's data flow backwards: a length computed from the
 * Trace-Type would make the Trace-Type precise, and every Trace-Type bit
 * tested on the way would then split the verifier's states (2^22 paths).
 * A value loaded from a map is where that chain stops.
 */
#define hm_launder(s, v) ({						\
	*(volatile __u32 *)&(s)->launder = (v);				\
	*(volatile __u32 *)&(s)->launder;				\
})

/** hm_node_cfg() - this node's identity, hopmark_node[0] (always present) */
static __always_inline struct hopmark_node_cfg *hm_node_cfg(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&hopmark_node, &zero);
}

/**
 * hm_if_cfg() - settings of interface @ifindex, NULL when none
 *
 * NULL for an entry without %HM_IF_F_PRESENT and for an ifindex beyond
 * the array (%HM_MAX_IFINDEX): the interface is not ours.
 */
static __always_inline struct hopmark_if_cfg *hm_if_cfg(__u32 ifindex)
{
	struct hopmark_if_cfg *c = bpf_map_lookup_elem(&hopmark_ifcfg, &ifindex);

	return c && (c->flags & HM_IF_F_PRESENT) ? c : NULL;
}

/**
 * hm_ns_cfg() - a known IOAM-Namespace (RFC 9197 §5), NULL when unknown
 *
 * hopmark_ns is indexed by the namespace ID; an entry without
 * %HM_NS_F_KNOWN (and 0xffff, beyond the array) is unknown.
 */
static __always_inline struct hopmark_ns_cfg *hm_ns_cfg(__u16 ns_id)
{
	__u32 key = ns_id;
	struct hopmark_ns_cfg *ns = bpf_map_lookup_elem(&hopmark_ns, &key);

	return ns && (ns->flags & HM_NS_F_KNOWN) ? ns : NULL;
}

/**
 * hm_now_posix_ns() - current POSIX time in ns
 * @node: this node's configuration, or NULL
 *
 * CLOCK_TAI (bpf_ktime_get_tai_ns(), Linux 6.1) minus the TAI-UTC offset
 * the agent keeps in hopmark_node.tai_offset_ns. BPF has no CLOCK_REALTIME;
 * CLOCK_TAI follows it with a constant offset except across leap seconds.
 */
static __always_inline __u64 hm_now_posix_ns(const struct hopmark_node_cfg *node)
{
	__u64 t = bpf_ktime_get_tai_ns();

	if (node)
		t -= (__u64)node->tai_offset_ns;
	return t;
}

/**
 * hm_eth_ipv6() - whether the frame at @p is Ethernet carrying IPv6
 * @p:	first bytes of the frame (at least HM_ETH_HLEN + 1)
 *
 * hopmark handles Ethernet framing only (veth, physical NICs); the IPv6
 * header then starts at HM_ETH_HLEN.
 */
static __always_inline int hm_eth_ipv6(const __u8 *p)
{
	return p[12] == 0x86 && p[13] == 0xdd && (p[HM_ETH_HLEN] >> 4) == 6;
}

#endif /* __HM_COMMON_BPF_H */
