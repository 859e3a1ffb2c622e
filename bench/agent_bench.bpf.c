// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * agent_bench.bpf.c - the record producer of bench/agent_bench.c.
 *
 * hm_bench_produce() puts one copy of bench_tmpl[0] (a struct
 * hopmark_ioam_record the benchmark fills) on the ring buffer
 * bench_events per run, with the wakeup policy of hm_decap
 * (bpf/hopmark_decap.bpf.c: a forced wakeup only for the record that makes
 * the waiting bytes cross a multiple of HM_EVENTS_WAKEUP_BYTES), and counts
 * the records the full ring refused in bench_lost[0]. BPF_PROG_TEST_RUN
 * with repeat N puts N records on the ring in one call: a real kernel ring
 * buffer, fed without decap's per-packet work, so the agent's side is what
 * is measured. The maps are the benchmark's own, not pinned: a running
 * hopmarkd is not disturbed. The ring's size is set before loading.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include "common/hopmark_maps.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, HM_EVENTS_BYTES);
} bench_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hopmark_ioam_record);
} bench_tmpl SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} bench_lost SEC(".maps");

SEC("tc")
int hm_bench_produce(struct __sk_buff *skb)
{
	struct hopmark_ioam_record *rec;
	__u64 avail, flags, *lost;
	__u32 zero = 0;

	rec = bpf_map_lookup_elem(&bench_tmpl, &zero);
	if (!rec)
		return TC_ACT_OK;
	avail = bpf_ringbuf_query(&bench_events, BPF_RB_AVAIL_DATA);
	flags = (avail + sizeof(*rec) + BPF_RINGBUF_HDR_SZ) >> HM_EVENTS_WAKEUP_SHIFT !=
		avail >> HM_EVENTS_WAKEUP_SHIFT ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
	if (bpf_ringbuf_output(&bench_events, rec, sizeof(*rec), flags)) {
		lost = bpf_map_lookup_elem(&bench_lost, &zero);
		if (lost)
			__sync_fetch_and_add(lost, 1);
	}
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
