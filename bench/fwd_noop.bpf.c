// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fwd_noop.bpf.c - programs that do nothing, for the forwarding benchmark
 * (bench/fwd_bench.sh, modes noop-xdp and noop-tc): attached where
 * hopmark's transit halves go, they measure what the hooks themselves cost
 * the router, apart from any program's work.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/**
 * hm_fwd_noop_xdp() - pass every frame
 * @ctx: XDP frame
 *
 * Return: XDP_PASS.
 */
SEC("xdp")
int hm_fwd_noop_xdp(struct xdp_md *ctx)
{
	return XDP_PASS;
}

/**
 * hm_fwd_noop_tc() - pass every packet
 * @skb: packet on a tc hook
 *
 * Return: TC_ACT_OK.
 */
SEC("tc")
int hm_fwd_noop_tc(struct __sk_buff *skb)
{
	return TC_ACT_OK;
}
