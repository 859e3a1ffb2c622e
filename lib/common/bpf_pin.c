// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * bpf_pin.c - where a node's pinned hopmark maps live and how they come to
 * exist. Pins follow stock iproute2: <bpffs>/tc/globals/<map name>, with
 * <bpffs> = $TC_BPF_MNT or /sys/fs/bpf, so that `tc ... bpf obj`,
 * `ip link set ... xdp obj`, the hopmark CLI and hopmarkd share one set of
 * maps per node (hopmark_maps.h); and how entries of deleted interfaces
 * leave them.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hopmark.h"
#include "common/hopmark_maps.h"
#include "pint/pint_maps.h"
#include "pbt/pbt_maps.h"
#include "bpf/hopmark_maps.skel.h"

/**
 * hm_bpffs_root() - bpffs this node's pins live on
 *
 * Return: $TC_BPF_MNT if set and non-empty, else "/sys/fs/bpf".
 */
const char *hm_bpffs_root(void)
{
	const char *root = getenv(HM_BPFFS_ENV);

	return root && *root ? root : HM_BPFFS_DEFAULT;
}

/**
 * hm_pin_dir() - the pin directory, <bpffs>/tc/globals
 * @buf: output
 * @len: size of @buf
 *
 * Return: 0 or -ENAMETOOLONG.
 */
int hm_pin_dir(char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", hm_bpffs_root(), HM_PIN_SUBDIR);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/**
 * hm_map_open() - open a pinned hopmark map by name
 * @name: map name, e.g. %HM_MAP_NODE
 *
 * Return: a map fd, or -errno from bpf_obj_get() (-ENOENT when nothing of
 * hopmark was set up on this node yet); -ENAMETOOLONG if the path does
 * not fit PATH_MAX.
 */
int hm_map_open(const char *name)
{
	char path[PATH_MAX];
	size_t n;
	int err, fd;

	err = hm_pin_dir(path, sizeof(path));
	if (err)
		return err;
	n = strlen(path);
	if (snprintf(path + n, sizeof(path) - n, "/%s", name) >= (int)(sizeof(path) - n))
		return -ENAMETOOLONG;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	return fd;
}

/* mkdir that is fine with an existing directory. */
static int hm_mkdir(const char *path)
{
	if (mkdir(path, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/* See bpf_pin.h. */
long hm_events_bytes(void)
{
	const char *s = getenv(HM_EVENTS_BYTES_ENV);
	unsigned long v;
	char *end;

	if (!s)
		return HM_EVENTS_BYTES;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < HM_EVENTS_BYTES_MIN ||
	    v > HM_EVENTS_BYTES_MAX || (v & (v - 1)))
		return -EINVAL;
	return v;
}

/* See bpf_pin.h. */
int hm_events_fit_pin(struct bpf_object *obj, const char *pin_dir)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, HM_MAP_EVENTS);
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	char path[PATH_MAX];
	int fd, err = 0;

	if (!m)
		return 0;
	if (snprintf(path, sizeof(path), "%s/%s", pin_dir, HM_MAP_EVENTS) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		err = -errno;
	close(fd);
	if (!err && info.type == BPF_MAP_TYPE_RINGBUF)
		err = bpf_map__set_max_entries(m, info.max_entries);
	return err;
}

/**
 * hm_maps_create() - create and pin every hopmark map if missing
 *
 * Checks that hm_bpffs_root() is a bpffs (statfs(2) f_type %BPF_FS_MAGIC),
 * creates <bpffs>/tc and <bpffs>/tc/globals if missing (mode 0700, what
 * iproute2 does), then opens and loads the maps-only object through its
 * skeleton with libbpf's pin_root_path set to hm_pin_dir(): libbpf reuses
 * every compatible pinned map and creates and pins the missing ones
 * (LIBBPF_PIN_BY_NAME). The skeleton is destroyed afterwards; the pins
 * keep the maps alive. Mounts nothing: the bpffs must be mounted.
 *
 * Return: 0 or negative errno: -ENODEV if hm_bpffs_root() is not a bpffs;
 * -errno of statfs(2) or mkdir(2); libbpf's error when an existing pin is
 * incompatible with the map definition (-EINVAL) or loading fails.
 */
int hm_maps_create(void)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	struct hopmark_maps *skel;
	char dir[PATH_MAX];
	struct statfs st;
	long size;
	int err;

	if (statfs(hm_bpffs_root(), &st))
		return -errno;
	if (st.f_type != BPF_FS_MAGIC)
		return -ENODEV;
	err = hm_pin_dir(dir, sizeof(dir));
	if (err)
		return err;
	if (snprintf(dir, sizeof(dir), "%s/tc", hm_bpffs_root()) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	err = hm_mkdir(dir);
	if (err)
		return err;
	err = hm_pin_dir(dir, sizeof(dir));
	if (err)
		return err;
	err = hm_mkdir(dir);
	if (err)
		return err;

	size = hm_events_bytes();
	if (size < 0)
		return size;
	opts.pin_root_path = dir;
	skel = hopmark_maps__open_opts(&opts);
	if (!skel)
		return errno ? -errno : -EINVAL;
	/* A new ring gets the size asked for; a pinned one keeps its own. */
	err = bpf_map__set_max_entries(skel->maps.hopmark_events, size);
	if (!err)
		err = hm_events_fit_pin(skel->obj, dir);
	if (!err)
		err = hopmark_maps__load(skel);
	hopmark_maps__destroy(skel);
	return err;
}

/* Whether no device of this network namespace has @ifindex. */
static bool hm_ifindex_gone(__u32 ifindex)
{
	char name[IF_NAMESIZE];

	return ifindex && !if_indextoname(ifindex, name) && errno == ENXIO;
}

/* See hopmark.h. */
int hm_map_delete_if(int fd, size_t key_size,
		     bool (*doomed)(int fd, const void *key, void *ctx), void *ctx)
{
	__u8 *walk, *last, *next, *del = NULL, *d;
	size_t n = 0, cap = 0, i;
	int deleted = 0, err = 0;
	void *prev = NULL;

	walk = malloc(2 * key_size);
	if (!walk)
		return -ENOMEM;
	last = walk;
	next = walk + key_size;
	/* Deleting while walking would restart the walk: collect first. */
	while (!bpf_map_get_next_key(fd, prev, next)) {
		memcpy(last, next, key_size);
		prev = last;
		if (!doomed(fd, last, ctx))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			d = realloc(del, cap * key_size);
			if (!d) {
				err = -ENOMEM;
				n = 0;
				break;
			}
			del = d;
		}
		memcpy(del + n++ * key_size, last, key_size);
	}
	for (i = 0; i < n; i++)
		if (!bpf_map_delete_elem(fd, del + i * key_size))
			deleted++;
	free(del);
	free(walk);
	return err ? err : deleted;
}

/* The entry's key is an ifindex that names no device. */
static bool hm_key_ifindex_gone(int fd, const void *key, void *ctx)
{
	__u32 ifindex;

	memcpy(&ifindex, key, sizeof(ifindex));
	return hm_ifindex_gone(ifindex);
}

/* The hopmark_encap rule is bound to an ifindex that names no device. */
static bool hm_rule_ifindex_gone(int fd, const void *key, void *ctx)
{
	struct hopmark_encap_cfg rule;

	return !bpf_map_lookup_elem(fd, key, &rule) && hm_ifindex_gone(rule.ifindex);
}

/*
 * An array indexed by ifindex (pint_ifcfg, pint_stats, pint_txrate) has an
 * entry for every index, which cannot be deleted: the entry of a gone
 * interface that is not all zeroes is zeroed (what a fresh entry is).
 * Return: entries zeroed, or negative errno.
 */
static int hm_prune_array(int fd, const struct bpf_map_info *info)
{
	size_t size = info->value_size, i;
	int ncpu, zeroed = 0, err = 0;
	__u8 *val, *zero;
	__u32 key;

	if (info->type == BPF_MAP_TYPE_PERCPU_ARRAY) {
		ncpu = libbpf_num_possible_cpus();
		if (ncpu <= 0)
			return ncpu ? ncpu : -EINVAL;
		size = ((size + 7) & ~(size_t)7) * ncpu;
	}
	val = malloc(size);
	zero = calloc(1, size);
	if (!val || !zero) {
		free(val);
		free(zero);
		return -ENOMEM;
	}
	for (key = 1; key < info->max_entries && !err; key++) {
		if (bpf_map_lookup_elem(fd, &key, val))
			continue;
		for (i = 0; i < size && !val[i]; i++)
			;
		if (i == size || !hm_ifindex_gone(key))
			continue;
		if (bpf_map_update_elem(fd, &key, zero, BPF_ANY))
			err = -errno;
		else
			zeroed++;
	}
	free(val);
	free(zero);
	return err ? err : zeroed;
}

/* Prune map @name with @doomed; a map not created yet has nothing to prune. */
static int hm_prune_map(const char *name, size_t key_size,
			bool (*doomed)(int fd, const void *key, void *ctx))
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int fd, ret;

	fd = hm_map_open(name);
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.key_size == sizeof(__u32) &&
	    (info.type == BPF_MAP_TYPE_ARRAY || info.type == BPF_MAP_TYPE_PERCPU_ARRAY))
		ret = hm_prune_array(fd, &info);
	else
		ret = hm_map_delete_if(fd, key_size, doomed, NULL);
	close(fd);
	return ret;
}

/* See hopmark.h. */
int hm_prune_gone_ifaces(void)
{
	static const char *const by_ifindex[] = {
		HM_MAP_IFCFG, HM_MAP_STATS, PINT_MAP_IFCFG, PINT_MAP_STATS, PINT_MAP_TXRATE,
		PBT_MAP_IFCFG, PBT_MAP_STATS,
	};
	int total, ret;
	size_t i;

	total = hm_prune_map(HM_MAP_ENCAP, sizeof(struct hopmark_encap_key),
			     hm_rule_ifindex_gone);
	for (i = 0; total >= 0 && i < sizeof(by_ifindex) / sizeof(by_ifindex[0]); i++) {
		ret = hm_prune_map(by_ifindex[i], sizeof(__u32), hm_key_ifindex_gone);
		total = ret < 0 ? ret : total + ret;
	}
	return total;
}
