// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * hm_tc_drop.bpf.c - a tc program that drops every packet (TC_ACT_SHOT),
 * for selftests/net/test_int_drop.sh: a datapath drop at tc ingress
 * (SKB_DROP_REASON_TC_INGRESS) without act_gact, which kernels built
 * without it lack.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("tc")
int hm_tc_drop(struct __sk_buff *skb)
{
	return TC_ACT_SHOT;
}
