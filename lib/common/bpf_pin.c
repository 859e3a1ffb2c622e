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
#include "common/encap_filter.h"
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

/* "an array of 1024 entries of 8 bytes" */
static void hm_map_shape(char *buf, size_t len, __u32 type, __u32 max_entries, __u32 value_size)
{
	const char *t = libbpf_bpf_map_type_str(type);

	if (!t)
		t = "map";
	snprintf(buf, len, "%s %s of %u entries of %u bytes", strchr("aeiou", t[0]) ? "an" : "a",
		 t, max_entries, value_size);
}

/* See bpf_pin.h. */
int hm_maps_check_obj(struct bpf_object *obj, const char *pin_dir, char *why, size_t len)
{
	char path[PATH_MAX], have[96], want[96];
	struct bpf_map_info info;
	struct bpf_map *m;
	__u32 ilen;
	int fd;

	bpf_object__for_each_map(m, obj) {
		if (strncmp(bpf_map__name(m), "hopmark_", 8) ||
		    bpf_map__type(m) == BPF_MAP_TYPE_RINGBUF)
			continue;	/* not pinned, or sized to fit its pin */
		if (snprintf(path, sizeof(path), "%s/%s", pin_dir, bpf_map__name(m)) >=
		    (int)sizeof(path))
			return -ENAMETOOLONG;
		fd = bpf_obj_get(path);
		if (fd < 0) {
			if (errno == ENOENT)
				continue;
			return -errno;
		}
		memset(&info, 0, sizeof(info));
		ilen = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &ilen)) {
			close(fd);
			return -errno;
		}
		close(fd);
		if (info.type == bpf_map__type(m) && info.key_size == bpf_map__key_size(m) &&
		    info.value_size == bpf_map__value_size(m) &&
		    info.max_entries == bpf_map__max_entries(m))
			continue;
		hm_map_shape(have, sizeof(have), info.type, info.max_entries, info.value_size);
		hm_map_shape(want, sizeof(want), bpf_map__type(m), bpf_map__max_entries(m),
			     bpf_map__value_size(m));
		if (why)
			snprintf(why, len,
				 "the pinned %s is %s, and this hopmark needs %s (the pin was made by another hopmark version): it is not replaced, since the programs attached now use it; detach hopmark's programs, remove the old pins (rm %s/hopmark_*) and configure again",
				 path, have, want, pin_dir);
		return -ESTALE;
	}
	return 0;
}

/* See bpf_pin.h. */
int hm_maps_check_pins(char *why, size_t len)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	struct hopmark_maps *skel;
	char dir[PATH_MAX];
	int err;

	err = hm_pin_dir(dir, sizeof(dir));
	if (err)
		return err;
	opts.pin_root_path = dir;
	skel = hopmark_maps__open_opts(&opts);
	if (!skel)
		return errno ? -errno : -EINVAL;
	err = hm_maps_check_obj(skel->obj, dir, why, len);
	hopmark_maps__destroy(skel);
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
 * A pinned map of another layout (type, key or value size, entries: e.g.
 * the hash hopmark_ifcfg of a hopmark before the arrays) is refused, not
 * replaced: hm_maps_check_pins() names it.
 *
 * Return: 0 or negative errno: -ENODEV if hm_bpffs_root() is not a bpffs;
 * -errno of statfs(2) or mkdir(2); -ESTALE when an existing pin has
 * another layout (hm_maps_check_pins()); libbpf's error when loading fails.
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
		err = hm_maps_check_obj(skel->obj, dir, NULL, 0);
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

/* Bytes of one entry as the syscalls read it (per-CPU: one value per CPU). */
static long hm_map_entry_bytes(const struct bpf_map_info *info)
{
	int ncpu;

	if (info->type != BPF_MAP_TYPE_PERCPU_ARRAY && info->type != BPF_MAP_TYPE_PERCPU_HASH)
		return info->value_size;
	ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	return (long)ncpu * ((info->value_size + 7) & ~7U);
}

static bool hm_map_is_array(const struct bpf_map_info *info)
{
	return info->type == BPF_MAP_TYPE_ARRAY || info->type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

/* See bpf_pin.h. */
int hm_map_zero_elem(int fd, const void *key)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	void *zero;
	long size;
	int err;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	size = hm_map_entry_bytes(&info);
	if (size < 0)
		return size;
	zero = calloc(1, size);
	if (!zero)
		return -ENOMEM;
	err = bpf_map_update_elem(fd, key, zero, BPF_EXIST) ? -errno : 0;
	free(zero);
	return err;
}

/* Whether the entry at @key of an array reads as all zeroes (or cannot be read). */
static bool hm_array_elem_zero(int fd, const void *key, __u8 *buf, long size)
{
	long i;

	if (bpf_map_lookup_elem(fd, key, buf))
		return true;
	for (i = 0; i < size; i++)
		if (buf[i])
			return false;
	return true;
}

/* See bpf_pin.h. */
int hm_map_delete_if(int fd, size_t key_size,
		     bool (*doomed)(int fd, const void *key, void *ctx), void *ctx)
{
	__u8 *walk, *last, *next, *del = NULL, *d, *val = NULL;
	size_t n = 0, cap = 0, i;
	int deleted = 0, err = 0;
	struct bpf_map_info info;
	__u32 ilen = sizeof(info);
	void *prev = NULL;
	bool array;
	long vsize = 0;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &ilen))
		return -errno;
	/* An array has every index: "deleting" writes zeros over a set entry. */
	array = hm_map_is_array(&info);
	if (array) {
		vsize = hm_map_entry_bytes(&info);
		if (vsize < 0)
			return vsize;
		val = malloc(vsize);
		if (!val)
			return -ENOMEM;
	}
	walk = malloc(2 * key_size);
	if (!walk) {
		free(val);
		return -ENOMEM;
	}
	last = walk;
	next = walk + key_size;
	/* Deleting while walking would restart the walk: collect first. */
	while (!bpf_map_get_next_key(fd, prev, next)) {
		memcpy(last, next, key_size);
		prev = last;
		if (array && hm_array_elem_zero(fd, last, val, vsize))
			continue;
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
	for (i = 0; i < n; i++) {
		if (array ? !hm_map_zero_elem(fd, del + i * key_size) :
			    !bpf_map_delete_elem(fd, del + i * key_size))
			deleted++;
	}
	free(del);
	free(walk);
	free(val);
	return err ? err : deleted;
}

/* See bpf_pin.h. */
int hm_ifcfg_ifindexes(int fd, __u32 *out, unsigned int max)
{
	struct hopmark_if_cfg cfg;
	unsigned int n = 0;
	__u32 i;

	for (i = 1; i < HM_MAX_IFINDEX && n < max; i++) {
		if (bpf_map_lookup_elem(fd, &i, &cfg)) {
			if (errno == ENOENT)
				break;	/* a smaller map of another build */
			return -errno;
		}
		if (cfg.flags & HM_IF_F_PRESENT)
			out[n++] = i;
	}
	return n;
}

/* See bpf_pin.h. */
int hm_stats_ifindexes(int fd, __u32 *out, unsigned int max)
{
	struct bpf_map_info info;
	__u32 ilen = sizeof(info), i;
	unsigned int n = 0;
	long size;
	__u8 *val;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &ilen))
		return -errno;
	if (!hm_map_is_array(&info) || info.key_size != sizeof(__u32))
		return -EINVAL;
	size = hm_map_entry_bytes(&info);
	if (size < 0)
		return size;
	val = malloc(size);
	if (!val)
		return -ENOMEM;
	for (i = 1; i < info.max_entries && n < max; i++)
		if (!hm_array_elem_zero(fd, &i, val, size))
			out[n++] = i;
	free(val);
	return n;
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

/* Prune map @name with @doomed; a map not created yet has nothing to prune. */
static int hm_prune_map(const char *name, size_t key_size,
			bool (*doomed)(int fd, const void *key, void *ctx))
{
	int fd, ret;

	/* hm_map_delete_if() zeroes an array's entries instead of deleting. */
	fd = hm_map_open(name);
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
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
	int total, rules, ret;
	size_t i;

	total = hm_prune_map(HM_MAP_ENCAP, sizeof(struct hopmark_encap_key),
			     hm_rule_ifindex_gone);
	rules = total;
	for (i = 0; total >= 0 && i < sizeof(by_ifindex) / sizeof(by_ifindex[0]); i++) {
		ret = hm_prune_map(by_ifindex[i], sizeof(__u32), hm_key_ifindex_gone);
		total = ret < 0 ? ret : total + ret;
	}
	/*
	 * Fewer rules: the filter's bits are a superset, tightened here (a
	 * failed update leaves it untrusted, hm_encap_filter_sync()).
	 */
	if (rules > 0 && total >= 0) {
		ret = hm_encap_filter_sync_pinned(true);
		if (ret < 0)
			total = ret;
	}
	return total;
}

/* See bpf_pin.h. */
int hm_encap_filter_sync_pinned(bool only_if_valid)
{
	struct hopmark_encap_filter *f = NULL;
	int fd_encap, fd_filter, err = 0;
	__u32 zero = 0;

	fd_filter = hm_map_open(HM_MAP_ENCAP_FILTER);
	if (fd_filter < 0)
		return fd_filter == -ENOENT ? 0 : fd_filter;
	fd_encap = hm_map_open(HM_MAP_ENCAP);
	if (fd_encap < 0) {
		close(fd_filter);
		return fd_encap == -ENOENT ? 0 : fd_encap;
	}
	if (only_if_valid) {
		f = calloc(1, sizeof(*f));
		if (!f)
			err = -ENOMEM;
		else if (bpf_map_lookup_elem(fd_filter, &zero, f))
			err = -errno;
	}
	if (!err && (!f || (f->flags & HM_ENCAP_FILTER_F_VALID)))
		err = hm_encap_filter_sync(fd_encap, fd_filter);
	free(f);
	close(fd_encap);
	close(fd_filter);
	return err;
}
