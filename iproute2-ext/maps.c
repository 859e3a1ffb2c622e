// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * maps.c - access to this node's pinned hopmark maps
 * (<bpffs>/tc/globals/hopmark_*, see lib/common/hopmark_maps.h) for the hopmark
 * command. Commands that configure create the maps first (maps_prepare());
 * commands that only show open what exists and say so when nothing does.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "hopmark_cli.h"

/**
 * maps_prepare() - make sure every hopmark map exists and is pinned
 *
 * Also forgets what deleted interfaces left in the maps
 * (hm_prune_gone_ifaces()), so a configuring command never runs out of
 * entries to dead devices; failing to is reported, not fatal.
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why (bpffs not mounted, ...).
 */
int maps_prepare(void)
{
	char dir[PATH_MAX];
	int err;

	err = hm_maps_create();
	if (!err) {
		err = hm_prune_gone_ifaces();
		if (err < 0)
			hm_errf(err, "warning: cannot forget the settings of deleted interfaces");
		return 0;
	}
	hm_pin_dir(dir, sizeof(dir));
	if (err == -ENODEV)
		return hm_errf(0, "%s is not a bpffs: mount one (mount -t bpf bpf %s) or set %s",
			       hm_bpffs_root(), hm_bpffs_root(), HM_BPFFS_ENV);
	return hm_errf(err, "cannot create the hopmark maps in %s", dir);
}

/**
 * map_open_existing() - open a pinned map, explaining a failure
 * @name: map name
 *
 * Return: map fd, or -1 after printing the reason (nothing configured yet
 * when the pin is missing).
 */
int map_open_existing(const char *name)
{
	char dir[PATH_MAX];
	int fd;

	fd = hm_map_open(name);
	if (fd >= 0)
		return fd;
	hm_pin_dir(dir, sizeof(dir));
	if (fd == -ENOENT)
		hm_errf(0, "%s/%s does not exist: hopmark is not set up on this node (bpffs %s)",
			dir, name, hm_bpffs_root());
	else
		hm_errf(fd, "cannot open %s/%s", dir, name);
	return -1;
}

/**
 * ifcfg_get() - an interface's settings, defaults when it has no entry
 * @fd:		hopmark_ifcfg fd
 * @ifindex:	interface
 * @cfg:	output; without an entry: flags 0 and unavailable IDs
 *
 * Return: 1 if an entry exists, 0 if not, negative errno on failure.
 */
int ifcfg_get(int fd, __u32 ifindex, struct hopmark_if_cfg *cfg)
{
	if (!bpf_map_lookup_elem(fd, &ifindex, cfg))
		return 1;
	if (errno != ENOENT)
		return -errno;
	memset(cfg, 0, sizeof(*cfg));
	cfg->if_id = HM_IOAM_U16_UNAVAILABLE;
	cfg->if_id_wide = HM_IOAM_U32_UNAVAILABLE;
	return 0;
}

/**
 * ifcfg_set_flags() - set and clear %HM_IF_F_* of an interface, keeping its IDs
 * @ifindex:	interface
 * @set:	flags to set
 * @clear:	flags to clear
 *
 * Creates the entry (with unavailable IDs) if needed.
 *
 * Return: 0 or negative errno.
 */
int ifcfg_set_flags(__u32 ifindex, __u16 set, __u16 clear)
{
	struct hopmark_if_cfg cfg;
	int fd, err;

	fd = hm_map_open(HM_MAP_IFCFG);
	if (fd < 0)
		return fd;
	err = ifcfg_get(fd, ifindex, &cfg);
	if (err == 0 && !set) {
		close(fd);	/* only clearing, and no entry: nothing to do */
		return 0;
	}
	if (err >= 0) {
		cfg.flags = (cfg.flags | set) & ~clear;
		err = bpf_map_update_elem(fd, &ifindex, &cfg, BPF_ANY) ? -errno : 0;
	}
	close(fd);
	return err;
}

/**
 * node_get() - this node's hopmark_node[0]
 * @cfg: output
 *
 * Return: 0 or negative errno (-ENOENT: maps not created yet).
 */
int node_get(struct hopmark_node_cfg *cfg)
{
	__u32 key = 0;
	int fd, err;

	fd = hm_map_open(HM_MAP_NODE);
	if (fd < 0)
		return fd;
	err = bpf_map_lookup_elem(fd, &key, cfg) ? -errno : 0;
	close(fd);
	return err;
}
