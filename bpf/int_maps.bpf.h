/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * int_maps.bpf.h - the INT datapath's pinned maps. Layouts are in
 * lib/int/int_maps.h; like pint_maps.bpf.h, every definition lives here
 * once, pinned by name under <bpffs>/tc/globals, so that every INT object,
 * the CLI, the agent and stock tc share them.
 */
#ifndef __INT_MAPS_BPF_H
#define __INT_MAPS_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "int/int_maps.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct int_domain_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} int_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, INT_MAX_IFACES);
	__type(key, __u32);			/* ifindex */
	__type(value, struct int_if_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} int_ifcfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, INT_MAX_IFACES);
	__type(key, __u32);			/* ifindex */
	__type(value, struct int_link_stats);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} int_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, INT_EVENTS_BYTES);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} int_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct int_arrival);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} int_arrival SEC(".maps");

#endif /* __INT_MAPS_BPF_H */
