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

/*
 * Calibration maps: one lookup each (bench_tc_*_lookup()), of the key
 * HM_COST_CALIB_KEY that bench/bpf_cost.c writes after loading.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HM_COST_CALIB_ENTRIES);
	__type(key, __u32);
	__type(value, __u64);
} bench_calib_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, HM_COST_CALIB_ENTRIES);
	__type(key, __u32);
	__type(value, __u64);
} bench_calib_pcpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, HM_COST_CALIB_ENTRIES);
	__type(key, __u32);
	__type(value, __u64);
} bench_calib_array SEC(".maps");

/*
 * Lookups of the calibration programs that found nothing: bench/bpf_cost.c
 * stops when it is not zero after a run (the row would measure a miss).
 */
__u64 bench_calib_miss;

/*
 * One lookup of HM_COST_CALIB_KEY in @map; the value goes to skb->mark so
 * that the compiler keeps the lookup (one store more than the no-op).
 */
static __always_inline int calib_lookup(struct __sk_buff *skb, void *map)
{
	__u32 key = HM_COST_CALIB_KEY;
	__u64 *v = bpf_map_lookup_elem(map, &key);

	if (v)
		skb->mark = (__u32)*v;
	else
		bench_calib_miss++;
	return TC_ACT_OK;
}

/**
 * bench_tc_hash_lookup() - calibration: one BPF_MAP_TYPE_HASH lookup, key present
 * @skb: packet of the test run (skb->mark gets the value)
 *
 * Return: TC_ACT_OK.
 */
SEC("tc")
int bench_tc_hash_lookup(struct __sk_buff *skb)
{
	return calib_lookup(skb, &bench_calib_hash);
}

/**
 * bench_tc_pcpu_lookup() - calibration: one BPF_MAP_TYPE_PERCPU_HASH lookup, key present
 * @skb: packet of the test run (skb->mark gets this CPU's value)
 *
 * Return: TC_ACT_OK.
 */
SEC("tc")
int bench_tc_pcpu_lookup(struct __sk_buff *skb)
{
	return calib_lookup(skb, &bench_calib_pcpu);
}

/**
 * bench_tc_array_lookup() - calibration: one BPF_MAP_TYPE_ARRAY lookup
 * @skb: packet of the test run (skb->mark gets the value)
 *
 * Return: TC_ACT_OK.
 */
SEC("tc")
int bench_tc_array_lookup(struct __sk_buff *skb)
{
	return calib_lookup(skb, &bench_calib_array);
}

/**
 * bench_tc_ktime_tai() - calibration: one bpf_ktime_get_tai_ns()
 * @skb: packet of the test run (skb->mark gets the low 32 bits, in ns)
 *
 * Return: TC_ACT_OK.
 */
SEC("tc")
int bench_tc_ktime_tai(struct __sk_buff *skb)
{
	skb->mark = (__u32)bpf_ktime_get_tai_ns();
	return TC_ACT_OK;
}

/**
 * bench_tc_ktime_mono() - calibration: one bpf_ktime_get_ns() (CLOCK_MONOTONIC)
 * @skb: packet of the test run (skb->mark gets the low 32 bits, in ns)
 *
 * Return: TC_ACT_OK.
 */
SEC("tc")
int bench_tc_ktime_mono(struct __sk_buff *skb)
{
	skb->mark = (__u32)bpf_ktime_get_ns();
	return TC_ACT_OK;
}

/** bench_tc_noop() - the tc baseline: does nothing. Return: TC_ACT_OK. */
SEC("tc")
int bench_tc_noop(struct __sk_buff *skb)
{
	return TC_ACT_OK;
}
