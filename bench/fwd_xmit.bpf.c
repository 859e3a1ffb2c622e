// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fwd_xmit.bpf.c - the live-frame generator of the forwarding benchmark
 * (fwd-gen -X): BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES runs this
 * program on page_pool frames and transmits each with XDP_TX out of the
 * device named in the context (the generator's veth, whose ndo_xdp_xmit
 * puts it on the peer's ring as an xdp_frame, no skb).
 *
 * A frame comes back from the pool as the router left it (a transit node
 * writes its slot into it), so every run first copies the template, which
 * fwd-gen stores in hm_fwd_tmpl, over the frame.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "fwd_xmit.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hm_fwd_tmpl);
} hm_fwd_tmpl SEC(".maps");

/**
 * hm_fwd_xmit() - rewrite the frame from the template and send it back out
 * @ctx: XDP frame of BPF_PROG_TEST_RUN's live mode
 *
 * Return: XDP_TX; XDP_ABORTED when the template is missing or does not fit
 * the frame (fwd-gen makes the frame the template's length).
 */
SEC("xdp")
int hm_fwd_xmit(struct xdp_md *ctx)
{
	struct hm_fwd_tmpl *t;
	__u32 key = 0, len;

	t = bpf_map_lookup_elem(&hm_fwd_tmpl, &key);
	if (!t)
		return XDP_ABORTED;
	len = t->len;
	if (len < 1 || len > HM_FWD_TMPL_MAX)
		return XDP_ABORTED;
	if (bpf_xdp_store_bytes(ctx, 0, t->b, len))
		return XDP_ABORTED;
	return XDP_TX;
}
