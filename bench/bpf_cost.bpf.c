// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * bpf_cost.bpf.c - wrappers and no-op programs of bench/bpf_cost.c.
 *
 * BPF_PROG_TEST_RUN with a repeat count runs the program on the same
 * buffer every time, so what one run changes, the next one sees (encap
 * would meet its own trace, transit would fill slot after slot, decap
 * would find nothing left to remove). A wrapper restores the frame of the
 * case from bench_frame (length first, then every byte) and tail-calls the
 * program under test through bench_xdp_prog / bench_tc_prog; the same
 * wrapper in front of the no-op program of the same hook, on the same
 * frame, is the baseline whose time is subtracted.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#include "bpf_cost.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hm_cost_frame);
} bench_frame SEC(".maps");

/* One array per hook: a program array only takes programs of one type. */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} bench_xdp_prog SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} bench_tc_prog SEC(".maps");

/**
 * bench_xdp_wrap() - restore the case's frame, then run the XDP program under test
 * @ctx: XDP frame of the test run
 *
 * Return: what the program under test returns; %HM_COST_XDP_NO_TAIL when
 * the frame cannot be restored or the tail call fails.
 */
SEC("xdp")
int bench_xdp_wrap(struct xdp_md *ctx)
{
	struct hm_cost_frame *f;
	__u32 zero = 0, len;
	int cur;

	f = bpf_map_lookup_elem(&bench_frame, &zero);
	if (!f)
		return HM_COST_XDP_NO_TAIL;
	len = f->len;
	if (len < 1 || len > HM_COST_FRAME_MAX)
		return HM_COST_XDP_NO_TAIL;
	cur = (int)(ctx->data_end - ctx->data);
	if (cur != (int)len && bpf_xdp_adjust_tail(ctx, (int)len - cur))
		return HM_COST_XDP_NO_TAIL;
	if (bpf_xdp_store_bytes(ctx, 0, f->b, len))
		return HM_COST_XDP_NO_TAIL;
	bpf_tail_call(ctx, &bench_xdp_prog, 0);
	return HM_COST_XDP_NO_TAIL;
}

/**
 * bench_tc_wrap() - restore the case's frame, then run the tc program under test
 * @skb: packet of the test run
 *
 * Return: what the program under test returns; %HM_COST_TC_NO_TAIL when
 * the frame cannot be restored or the tail call fails.
 */
SEC("tc")
int bench_tc_wrap(struct __sk_buff *skb)
{
	struct hm_cost_frame *f;
	__u32 zero = 0, len;

	f = bpf_map_lookup_elem(&bench_frame, &zero);
	if (!f)
		return HM_COST_TC_NO_TAIL;
	len = f->len;
	if (len < 1 || len > HM_COST_FRAME_MAX)
		return HM_COST_TC_NO_TAIL;
	/*
	 * Undo a size change where the programs make it, between the
	 * Ethernet and the IP header: the headroom they used comes back, so
	 * every run meets the skb the first one met.
	 */
	if (skb->len != len &&
	    bpf_skb_adjust_room(skb, (__s32)len - (__s32)skb->len, BPF_ADJ_ROOM_MAC, 0))
		return HM_COST_TC_NO_TAIL;
	if (bpf_skb_store_bytes(skb, 0, f->b, len, 0))
		return HM_COST_TC_NO_TAIL;
	bpf_tail_call(skb, &bench_tc_prog, 0);
	return HM_COST_TC_NO_TAIL;
}

/** bench_xdp_noop() - the XDP baseline: does nothing. Return: XDP_PASS. */
SEC("xdp")
int bench_xdp_noop(struct xdp_md *ctx)
{
	return XDP_PASS;
}

/**
 * bench_tc_grow() - calibration: what a size change costs behind the wrapper
 * @skb: packet of the test run
 *
 * Inserts HM_COST_GROW_BYTES after the IP header, as encap and the PINT
 * source do, which the wrapper then removes before the next run: the cost
 * of both is what a row of a program that changes the frame's size carries
 * beyond its own work (the no-op changes nothing).
 *
 * Return: TC_ACT_OK.
 */
SEC("tc")
int bench_tc_grow(struct __sk_buff *skb)
{
	bpf_skb_adjust_room(skb, HM_COST_GROW_BYTES, BPF_ADJ_ROOM_NET, 0);
	return TC_ACT_OK;
}

/** bench_tc_noop() - the tc baseline: does nothing. Return: TC_ACT_OK. */
SEC("tc")
int bench_tc_noop(struct __sk_buff *skb)
{
	return TC_ACT_OK;
}
