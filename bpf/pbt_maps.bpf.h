/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pbt_maps.bpf.h - the PBT-M datapath's pinned maps. Layouts are in
 * lib/pbt/pbt_maps.h; every definition lives here once, pinned by name
 * under <bpffs>/tc/globals, so that every PBT-M object (XDP and tc), the
 * CLI, the agent and stock ip/tc share them.
 */
#ifndef __PBT_MAPS_BPF_H
#define __PBT_MAPS_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "pbt/pbt_maps.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pbt_domain_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pbt_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PBT_IFINDEX_LIMIT);
	__type(key, __u32);			/* ifindex */
	__type(value, struct pbt_if_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pbt_ifcfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PBT_IFINDEX_LIMIT);
	__type(key, __u32);			/* ifindex */
	__type(value, struct pbt_link_stats);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pbt_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, PBT_EVENTS_BYTES);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pbt_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PBT_MAX_FLOWS);
	__type(key, struct hm_flow_key);
	__type(value, struct pbt_flow_state);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pbt_flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PBT_MAX_TEMPLATES);
	__type(key, struct hm_flow_key);
	__type(value, struct pbt_flow_tpl);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pbt_tpl SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pbt_meter);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pbt_meter SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pbt_arrival);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pbt_arrival SEC(".maps");

#endif /* __PBT_MAPS_BPF_H */
