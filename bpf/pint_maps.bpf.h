/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_maps.bpf.h - the PINT datapath's pinned maps. Layouts are in
 * lib/pint/pint_maps.h; like hopmark_maps.bpf.h, every definition lives here
 * once, pinned by name under <bpffs>/tc/globals so that the CLI, the agent
 * and stock tc share them.
 *
 * The per-interface maps are arrays indexed by ifindex, below
 * PINT_IFINDEX_LIMIT: the verifier turns a lookup into a bounds check and an
 * address computation (about 1 ns against about 30 for a hash lookup,
 * Documentation/performance.rst, calib.*), and every entry exists, so the
 * datapath never creates one.
 */
#ifndef __PINT_MAPS_BPF_H
#define __PINT_MAPS_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "pint/pint_maps.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pint_domain_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pint_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PINT_IFINDEX_LIMIT);
	__type(key, __u32);			/* ifindex */
	__type(value, struct pint_if_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pint_ifcfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PINT_IFINDEX_LIMIT);
	__type(key, __u32);			/* ifindex */
	__type(value, struct pint_link_stats);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pint_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PINT_IFINDEX_LIMIT);
	__type(key, __u32);			/* egress ifindex */
	__type(value, struct pint_txrate);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pint_txrate SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, PINT_EVENTS_BYTES);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pint_events SEC(".maps");

#endif /* __PINT_MAPS_BPF_H */
