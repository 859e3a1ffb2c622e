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
#include "hopmark_maps.h"
#include "pint_maps.h"
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

	opts.pin_root_path = dir;
	skel = hopmark_maps__open_opts(&opts);
	if (!skel)
		return errno ? -errno : -EINVAL;
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

/*
 * Delete the entries of map @name whose interface is gone: the key is the
 * ifindex (a __u32), or with @encap the key is a prefix and the ifindex is
 * the rule's. Keys are collected first (deleting while walking restarts
 * the walk); a key buffer fits both kinds.
 *
 * Return: entries deleted, or negative errno.
 */
static int hm_prune_map(const char *name, bool encap)
{
	struct hopmark_encap_key key, next, *gone = NULL;
	struct hopmark_encap_cfg rule;
	int fd, n = 0, cap = 0, i, deleted = 0, err = 0;
	void *prev = NULL;
	__u32 ifindex;

	fd = hm_map_open(name);
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!encap)
			memcpy(&ifindex, &key, sizeof(ifindex));
		else if (bpf_map_lookup_elem(fd, &key, &rule))
			continue;
		else
			ifindex = rule.ifindex;
		if (!hm_ifindex_gone(ifindex))
			continue;
		if (n == cap) {
			struct hopmark_encap_key *g;

			cap = cap ? cap * 2 : 8;
			g = realloc(gone, cap * sizeof(*gone));
			if (!g) {
				err = -ENOMEM;
				break;
			}
			gone = g;
		}
		gone[n++] = key;
	}
	for (i = 0; i < n; i++)
		if (!bpf_map_delete_elem(fd, &gone[i]))
			deleted++;
	free(gone);
	close(fd);
	return err ? err : deleted;
}

/* See hopmark.h. */
int hm_prune_gone_ifaces(void)
{
	static const char *const by_ifindex[] = {
		HM_MAP_IFCFG, HM_MAP_STATS, PINT_MAP_IFCFG, PINT_MAP_STATS, PINT_MAP_TXRATE,
	};
	int total, ret;
	size_t i;

	total = hm_prune_map(HM_MAP_ENCAP, true);
	for (i = 0; total >= 0 && i < sizeof(by_ifindex) / sizeof(by_ifindex[0]); i++) {
		ret = hm_prune_map(by_ifindex[i], false);
		total = ret < 0 ? ret : total + ret;
	}
	return total;
}
