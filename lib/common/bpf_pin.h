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
 * hm_maps_check_obj() - whether an object's hopmark maps fit their pins
 * @obj:	opened, not yet loaded BPF object
 * @pin_dir:	the pin directory its maps are reused from
 * @why:	output, when not NULL: which pin does not fit, what it is, what
 *		is needed and what to do
 * @len:	size of @why
 *
 * libbpf reuses a pin of the same type, key and value size and entries,
 * and refuses any other with a warning of its own. hopmark refuses it
 * too, before loading, with a message that names the map: the pin is not
 * replaced, because programs attached now (of the version that made it)
 * keep using it, and the settings it holds would silently stop applying.
 * hopmark_events is left out: hm_events_fit_pin() gives it its pin's size.
 *
 * Return: 0 when every pinned hopmark map fits (or none is pinned),
 * -ESTALE when one does not, negative errno when one cannot be read.
 */
int hm_maps_check_obj(struct bpf_object *obj, const char *pin_dir, char *why, size_t len);

/**
 * hm_maps_check_pins() - hm_maps_check_obj() for the maps-only object on
 *			  this node's pin directory (hm_pin_dir())
 * @why:	output, see hm_maps_check_obj()
 * @len:	size of @why
 *
 * Return: as hm_maps_check_obj().
 */
int hm_maps_check_pins(char *why, size_t len);

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
 * In an array (BPF_MAP_TYPE_ARRAY, PERCPU_ARRAY: every index exists, none
 * can be deleted) only entries that are not all zero are offered to
 * @doomed, and "deleting" one writes zeros over it (hm_map_zero_elem()).
 *
 * Return: number of entries deleted, or negative errno (-ENOMEM: nothing
 * deleted then).
 */
int hm_map_delete_if(int fd, size_t key_size,
		     bool (*doomed)(int fd, const void *key, void *ctx), void *ctx);

/**
 * hm_map_zero_elem() - write zeros over one entry of a map
 * @fd:		the map (an array: its entries cannot be deleted)
 * @key:	the entry
 *
 * Per-CPU maps get zeros on every CPU.
 *
 * Return: 0 or negative errno (-E2BIG for an index beyond the array).
 */
int hm_map_zero_elem(int fd, const void *key);

/**
 * hm_ifcfg_ifindexes() - the interfaces that have hopmark settings
 * @fd:		hopmark_ifcfg
 * @out:	output, ascending ifindexes whose entry has %HM_IF_F_PRESENT
 * @max:	room in @out
 *
 * Return: entries written, or negative errno.
 */
int hm_ifcfg_ifindexes(int fd, __u32 *out, unsigned int max);

/**
 * hm_stats_ifindexes() - the interfaces whose entries are not all zero
 * @fd:		an array or per-CPU array indexed by ifindex (hopmark_stats,
 *		pint_ifcfg, pint_stats, pint_txrate, pbt_ifcfg, pbt_stats)
 * @out:	output, ascending ifindexes
 * @max:	room in @out
 *
 * Return: entries written, or negative errno (-EINVAL for a map that is
 * not an array keyed by __u32).
 */
int hm_stats_ifindexes(int fd, __u32 *out, unsigned int max);

/**
 * hm_prune_gone_ifaces() - forget the settings of deleted interfaces
 *
 * Linux removes a device's programs and qdiscs with it, but not the map
 * entries keyed by its ifindex. This deletes, in the caller's network
 * namespace, every entry of hopmark_ifcfg, hopmark_stats, pint_ifcfg,
 * pint_stats, pint_txrate, pbt_ifcfg and pbt_stats whose ifindex names no device
 * (if_indextoname() fails with ENXIO), and every hopmark_encap rule bound
 * to such an ifindex (then hopmark_encap_filter is recomputed when it is
 * trusted, hm_encap_filter_sync_pinned()), so that the hashes do not fill up as containers'
 * interfaces come and go, and a new interface that gets a gone one's
 * ifindex does not inherit its settings and counters: in a map that is an
 * array indexed by ifindex (hopmark_ifcfg, hopmark_stats, pint_ifcfg,
 * pint_stats, pint_txrate, pbt_ifcfg, pbt_stats) such an entry, if not all zeroes, is zeroed
 * instead of deleted. Maps not created yet are
 * skipped.
 *
 * Return: number of entries deleted or zeroed, or negative errno when a map exists
 * but cannot be read.
 */
int hm_prune_gone_ifaces(void);

/**
 * hm_encap_filter_sync_pinned() - hm_encap_filter_sync() on the pinned maps
 * @only_if_valid: recompute only a filter that is trusted already (the
 *		   prune of a node whose rules are written by stock tools
 *		   must not start trusting it)
 *
 * Return: 0 (also when either map is not pinned), or negative errno.
 */
int hm_encap_filter_sync_pinned(bool only_if_valid);

#endif /* __HOPMARK_BPF_PIN_H */
