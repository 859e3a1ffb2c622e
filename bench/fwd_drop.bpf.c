// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fwd_drop.bpf.c - XDP_DROP, for the forwarding benchmark
 * (bench/fwd_bench.sh): on the sink's device it discards what the router
 * forwarded at the cheapest point; on the router's ingress device it
 * measures the generator's ceiling (what the router's receive path takes
 * in when it does nothing else).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/**
 * hm_fwd_drop() - drop every frame
 * @ctx: XDP frame
 *
 * Return: XDP_DROP.
 */
SEC("xdp")
int hm_fwd_drop(struct xdp_md *ctx)
{
	return XDP_DROP;
}
