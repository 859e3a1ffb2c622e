/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * bpf_pin.h - where a node's pinned hopmark maps live and how to reach
 * them (bpf_pin.c): the bpffs root ($TC_BPF_MNT), the pin directory of
 * stock iproute2 (<bpffs>/tc/globals), opening and creating the maps,
 * and sweeping entries of interfaces that are gone.
 *
 * Functions return 0 or a positive count on success and a negative errno.
 */
#ifndef __HOPMARK_BPF_PIN_H
#define __HOPMARK_BPF_PIN_H

#include <stdbool.h>
#include <stddef.h>

#include "common/hopmark_maps.h"

/* Display names of enum hopmark_counter, indexed by counter. */
extern const char *const hopmark_counter_names[HM_CNT_MAX];

/**
 * hm_bpffs_root() - bpffs this node's pins live on
 *
 * Return: $TC_BPF_MNT if set and non-empty, else "/sys/fs/bpf".
 */
const char *hm_bpffs_root(void);

/**
 * hm_pin_dir() - the pin directory, <bpffs>/tc/globals
 * @buf: output
 * @len: size of @buf
 *
 * Return: 0 or -ENAMETOOLONG.
 */
int hm_pin_dir(char *buf, size_t len);

/**
 * hm_map_open() - open a pinned hopmark map by name
 * @name: map name, e.g. %HM_MAP_NODE
 *
 * Return: a map fd, or -errno from bpf_obj_get() (-ENOENT when nothing of
 * hopmark was set up on this node yet).
 */
int hm_map_open(const char *name);

/**
 * hm_maps_create() - create and pin every hopmark map if missing
 *
 * Loads the maps-only BPF object with the pin root of hm_pin_dir(), so the
 * maps exist before any program is attached; existing pins are reused. A
 * new hopmark_events gets hm_events_bytes(); a pinned one keeps its size.
 * Mounts nothing: the bpffs must be mounted.
 *
 * Return: 0 or negative errno (-ENODEV if hm_bpffs_root() is not a bpffs;
 * -EINVAL for a bad $HOPMARK_EVENTS_BYTES).
 */
int hm_maps_create(void);

struct bpf_object;

/**
 * hm_events_bytes() - the size hm_maps_create() gives a new hopmark_events
 *
 * Return: $HOPMARK_EVENTS_BYTES when set (decimal bytes, a power of two
 * from %HM_EVENTS_BYTES_MIN to %HM_EVENTS_BYTES_MAX), else
 * %HM_EVENTS_BYTES; -EINVAL when the variable is set to anything else.
 */
long hm_events_bytes(void);

/**
 * hm_events_fit_pin() - give an object's hopmark_events its pin's size
 * @obj:	opened, not yet loaded BPF object (a skeleton's ->obj)
 * @pin_dir:	the pin directory its maps are reused from
 *
 * A ring buffer's size is fixed when it is created, and libbpf reuses a
 * pin only of the same size: call this between open and load.
 *
 * Return: 0 (also when @obj has no hopmark_events or nothing is pinned
 * yet), or negative errno of bpf_obj_get() or of reading the map's info.
 */
int hm_events_fit_pin(struct bpf_object *obj, const char *pin_dir);

/**
 * hm_map_delete_if() - delete the entries of a map a predicate picks
 * @fd:		the map
 * @key_size:	its key size in bytes
 * @doomed:	called with @fd, each key and @ctx; true deletes the entry
 * @ctx:	passed to @doomed
 *
 * The keys are collected over the whole walk and deleted after it, since a
 * deletion during bpf_map_get_next_key() iteration restarts a hash walk.
 *
 * Return: number of entries deleted, or -ENOMEM (nothing deleted then).
 */
int hm_map_delete_if(int fd, size_t key_size,
		     bool (*doomed)(int fd, const void *key, void *ctx), void *ctx);

/**
 * hm_prune_gone_ifaces() - forget the settings of deleted interfaces
 *
 * Linux removes a device's programs and qdiscs with it, but not the map
 * entries keyed by its ifindex. This deletes, in the caller's network
 * namespace, every entry of hopmark_ifcfg, hopmark_stats, pint_ifcfg,
 * pint_stats, pint_txrate, pbt_ifcfg and pbt_stats whose ifindex names no device
 * (if_indextoname() fails with ENXIO), and every hopmark_encap rule bound
 * to such an ifindex, so that the maps (HM_MAX_IFACES entries) do not fill
 * up as containers' interfaces come and go. In a map that is an array
 * indexed by ifindex (pint_ifcfg, pint_stats, pint_txrate) such an entry,
 * if not all zeroes, is zeroed instead, so that a new device given the
 * ifindex starts without its role or counters. Maps not created yet are
 * skipped.
 *
 * Return: number of entries deleted or zeroed, or negative errno when a map exists
 * but cannot be read.
 */
int hm_prune_gone_ifaces(void);

#endif /* __HOPMARK_BPF_PIN_H */
