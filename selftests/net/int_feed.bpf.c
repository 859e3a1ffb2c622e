// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * int_feed.bpf.c - the record producer of selftests/net/int_feed.c: puts
 * the "packet" it is run on (BPF_PROG_TEST_RUN's data_in, one struct
 * int_record as int_feed.c read it) on the node's pinned int_events ring
 * buffer, and counts a record the full ring refuses in int_stats[ifindex]
 * (INT_CNT_EVENTS_LOST, the record's own @ifindex), as the INT datapath
 * does. The maps are the node's (bpf/int_maps.bpf.h, pinned by name):
 * hopmarkd reads what this program writes exactly as it reads the INT
 * datapath's records, without the datapath's per-packet work.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include "int_maps.bpf.h"

SEC("tc")
int hm_int_feed(struct __sk_buff *skb)
{
	struct int_link_stats *st, zero = {};
	struct int_record *rec;
	__u32 key = 0;

	if (skb->len < sizeof(*rec))
		return TC_ACT_SHOT;
	rec = bpf_ringbuf_reserve(&int_events, sizeof(*rec), 0);
	if (!rec) {
		bpf_skb_load_bytes(skb, __builtin_offsetof(struct int_record, ifindex),
				   &key, sizeof(key));
		st = bpf_map_lookup_elem(&int_stats, &key);
		if (!st) {
			bpf_map_update_elem(&int_stats, &key, &zero, BPF_NOEXIST);
			st = bpf_map_lookup_elem(&int_stats, &key);
		}
		if (st)
			st->cnt[INT_CNT_EVENTS_LOST]++;	/* per CPU */
		return TC_ACT_OK;
	}
	if (bpf_skb_load_bytes(skb, 0, rec, sizeof(*rec))) {
		bpf_ringbuf_discard(rec, 0);
		return TC_ACT_SHOT;
	}
	bpf_ringbuf_submit(rec, 0);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
