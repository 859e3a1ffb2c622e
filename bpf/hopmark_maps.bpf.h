/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hopmark_maps.bpf.h - the map definitions every hopmark BPF object shares.
 *
 * Each object declares the same maps, pinned by name, so stock iproute2
 * (`ip link set ... xdp obj`, `tc filter ... bpf obj`) and libbpf (our CLI
 * and agent, pin root <bpffs>/tc/globals) reuse one set per node. A map's
 * type, key, value and size must therefore never differ between objects:
 * they are defined here only. Layouts are in lib/common/hopmark_maps.h.
 */
#ifndef __HOPMARK_MAPS_BPF_H
#define __HOPMARK_MAPS_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "common/hopmark_maps.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hopmark_node_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hopmark_node SEC(".maps");

/*
 * The maps indexed by ifindex and by IOAM-Namespace are arrays: a lookup
 * is a bounds check and an address computation that the JIT inlines, where
 * a hash lookup hashes the key and walks a bucket (Documentation/
 * performance.rst, calib rows). A pinned map of an older layout (a hash of
 * the same name) is refused by hm_maps_create() and by libbpf, naming it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, HM_MAX_IFINDEX);
	__type(key, __u32);			/* ifindex */
	__type(value, struct hopmark_if_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hopmark_ifcfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, HM_MAX_NAMESPACES);
	__type(key, __u32);			/* IOAM-Namespace ID */
	__type(value, struct hopmark_ns_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hopmark_ns SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, HM_MAX_ENCAP_ROUTES);
	__type(key, struct hopmark_encap_key);
	__type(value, struct hopmark_encap_cfg);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hopmark_encap SEC(".maps");

/* One entry: hm_encap's first test before the LPM lookup (hopmark_maps.h). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hopmark_encap_filter);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hopmark_encap_filter SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, HM_MAX_IFINDEX);
	__type(key, __u32);			/* ifindex, 0 = node total */
	__type(value, struct hopmark_qdepth);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hopmark_qdepth SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, HM_MAX_IFINDEX);
	__type(key, __u32);			/* ifindex */
	__type(value, struct hopmark_link_stats);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hopmark_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, HM_EVENTS_BYTES);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} hopmark_events SEC(".maps");

#endif /* __HOPMARK_MAPS_BPF_H */
