// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * maps.c - access to this node's pinned hopmark maps
 * (<bpffs>/tc/globals/hopmark_*, see lib/common/hopmark_maps.h) for the hopmark
 * command. Commands that configure create the maps first (maps_prepare());
 * commands that only show open what exists and say so when nothing does.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "hopmark_cli.h"

/* Room for the interface list of hm_node_programs() in a message. */
#define HM_PROGS_LIST_MAX	256

/*
 * The network namespace whose `ip netns exec` this command runs under, or
 * "" if none: ip netns exec unshares the mounts and remounts /sys for every
 * command it runs (a bpffs mounted there goes with the command), and names
 * that sysfs after the namespace (iproute2's netns_switch()), so the /sys
 * mount on top, in /proc/self/mountinfo, has a source other than "sysfs"
 * that names a /run/netns entry.
 */
static void ip_netns_exec_name(char *name, size_t len)
{
	char line[1024], mnt[256], fstype[64], src[256], path[320];
	const char *sep;
	FILE *f;

	name[0] = '\0';
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE ... */
		sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %*s %255s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s %255s", fstype, src) != 2 || strcmp(mnt, "/sys"))
			continue;
		name[0] = '\0';	/* the last /sys mount is the one on top */
		if (strcmp(fstype, "sysfs") || !strcmp(src, "sysfs"))
			continue;
		snprintf(path, sizeof(path), "/run/netns/%s", src);
		if (!access(path, F_OK))
			snprintf(name, len, "%s", src);
	}
	fclose(f);
}

/* Whether the node's bpffs is the one under /sys that ip netns exec hides. */
static bool bpffs_under_sys(void)
{
	return !strncmp(hm_bpffs_root(), "/sys/", 5);
}

/**
 * maps_prepare() - make sure every hopmark map exists and is pinned
 *
 * Also forgets what deleted interfaces left in the maps
 * (hm_prune_gone_ifaces()), so a configuring command never runs out of
 * entries to dead devices; failing to is reported, not fatal. When it
 * creates the maps while hopmark's programs are attached in the network
 * namespace, it warns: those programs work on other maps.
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why (bpffs not mounted, and
 * when this command runs in a private mount namespace with the bpffs under
 * /sys, that mounting one there is no use, ...).
 */
int maps_prepare(void)
{
	char dir[PATH_MAX], progs[HM_PROGS_LIST_MAX], netns[256];
	bool fresh;
	int err;

	err = hm_map_open(HM_MAP_IFCFG);
	fresh = err == -ENOENT;
	if (err >= 0)
		close(err);
	err = hm_maps_create();
	hm_pin_dir(dir, sizeof(dir));
	if (!err) {
		/*
		 * Maps just created while hopmark's programs run: those use
		 * maps pinned elsewhere (another mount namespace) or no longer
		 * pinned, and will not see what this command writes.
		 */
		if (fresh && hm_node_programs(progs, sizeof(progs)) > 0)
			fprintf(stderr, "Warning: the hopmark maps were created under %s just now, but hopmark's programs attached on %s use maps not pinned there (set up in another mount namespace?): they see these settings only once their roles are enabled again.\n",
				dir, progs);
		err = hm_prune_gone_ifaces();
		if (err < 0)
			hm_errf(err, "warning: cannot forget the settings of deleted interfaces");
		return 0;
	}
	if (err == -ESTALE) {
		char why[PATH_MAX + 512];

		if (hm_maps_check_pins(why, sizeof(why)) == -ESTALE)
			return hm_errf(0, "%s", why);
	}
	ip_netns_exec_name(netns, sizeof(netns));
	if (err == -ENODEV && netns[0] && bpffs_under_sys())
		return hm_errf_errno(err, "%s is not a bpffs: this command runs under \"ip netns exec %s\", which remounts /sys for every command, so a bpffs mounted on %s vanishes with the command: mount one outside /sys (mount -t bpf bpf /run/hopmark/%s/bpf) and point %s at it (Documentation/operating.rst, \"Nodes in network namespaces\")",
				     hm_bpffs_root(), netns, hm_bpffs_root(), netns, HM_BPFFS_ENV);
	if (err == -ENODEV)
		return hm_errf_errno(err, "%s is not a bpffs: mount one (mount -t bpf bpf %s) or set %s",
				     hm_bpffs_root(), hm_bpffs_root(), HM_BPFFS_ENV);
	return hm_errf(err, "cannot create the hopmark maps in %s", dir);
}

/**
 * map_open_existing() - open a pinned map, explaining a failure
 * @name: map name
 *
 * Return: map fd, or -1 after printing the reason: when the pin is
 * missing, nothing configured yet, or, if hopmark's programs are attached
 * on the network namespace's interfaces (hm_node_programs()), that their
 * maps are pinned out of this command's reach.
 */
int map_open_existing(const char *name)
{
	char dir[PATH_MAX], progs[HM_PROGS_LIST_MAX], netns[256];
	int fd;

	fd = hm_map_open(name);
	if (fd >= 0)
		return fd;
	hm_pin_dir(dir, sizeof(dir));
	if (fd != -ENOENT) {
		hm_errf(fd, "cannot open %s/%s", dir, name);
		return -1;
	}
	/* No pin, yet hopmark runs here: its maps are pinned out of reach. */
	ip_netns_exec_name(netns, sizeof(netns));
	if (hm_node_programs(progs, sizeof(progs)) > 0)
		hm_errf_errno(fd, "hopmark's programs are attached on %s but their maps are not pinned under %s (no %s there): they were set up in another mount namespace (ip netns exec gives each command a private /sys, and pins made there vanish with it%s) or the pins were removed; see Documentation/operating.rst, \"Nodes in network namespaces\"",
			      progs, dir, name,
			      netns[0] && bpffs_under_sys() ? "; this command runs under it too" : "");
	else
		hm_errf_errno(fd, "%s/%s does not exist: hopmark is not set up on this node (bpffs %s)",
			      dir, name, hm_bpffs_root());
	return -1;
}

/**
 * map_open_or_create() - open a pinned map, creating its object's maps first
 * @name:	map name (e.g. INT_MAP_CFG, PINT_MAP_CFG)
 * @role:	a role whose BPF object defines @name
 *
 * Loading the role's object with the node's pin root creates and pins every
 * map of the object (one object holds all the programs and maps of a
 * family); the programs are unloaded again, the pins stay.
 *
 * Return: map fd, or -1 after printing the reason.
 */
int map_open_or_create(const char *name, enum hm_role role)
{
	struct hm_role_prog p;
	int fd = hm_map_open(name);

	if (fd >= 0)
		return fd;
	if (maps_prepare() || role_load(role, &p))
		return -1;
	hm_role_unload(&p);
	return map_open_existing(name);
}

/**
 * map_read_single() - read entry 0 of a single-entry array map
 * @fd:		map fd
 * @name:	map name, for the error
 * @val:	output, the map's value size
 *
 * Return: 0, or %HM_EXIT_FAIL after printing "cannot read NAME".
 */
int map_read_single(int fd, const char *name, void *val)
{
	__u32 zero = 0;

	if (bpf_map_lookup_elem(fd, &zero, val))
		return hm_errf(-errno, "cannot read %s", name);
	return 0;
}

/**
 * map_write_single() - write entry 0 of a single-entry array map
 * @fd:		map fd
 * @name:	map name, for the error
 * @val:	the value, the map's value size
 *
 * Return: 0, or %HM_EXIT_FAIL after printing "cannot write NAME".
 */
int map_write_single(int fd, const char *name, const void *val)
{
	__u32 zero = 0;

	if (bpf_map_update_elem(fd, &zero, val, BPF_ANY))
		return hm_errf(-errno, "cannot write %s", name);
	return 0;
}

/**
 * map_read_existing() - entry 0 of a pinned single-entry array map, for a
 * command that only shows
 * @name:	map name
 * @val:	output, the map's value size
 *
 * Return: 0, or %HM_EXIT_FAIL after printing why (map_open_existing(),
 * map_read_single()).
 */
int map_read_existing(const char *name, void *val)
{
	int fd = map_open_existing(name), ret;

	if (fd < 0)
		return HM_EXIT_FAIL;
	ret = map_read_single(fd, name, val);
	close(fd);
	return ret;
}

/**
 * map_lookup_or_zero() - read a map entry, all zeroes when there is none
 * @fd:		map fd
 * @key:	the key
 * @val:	output
 * @size:	the map's value size
 *
 * Return: whether the entry existed (what map_restore_elem() is given).
 */
bool map_lookup_or_zero(int fd, const void *key, void *val, size_t size)
{
	if (!bpf_map_lookup_elem(fd, key, val))
		return true;
	memset(val, 0, size);
	return false;
}

/**
 * map_restore_elem() - put a map entry back as it was before a change
 * @fd:		map fd
 * @key:	the key
 * @old:	the entry before the change
 * @had:	whether there was one (map_lookup_or_zero()); if not, the
 *		entry is deleted
 *
 * For a command that wrote an entry and then failed (e.g. a role whose
 * program did not attach): best effort, nothing is reported.
 */
void map_restore_elem(int fd, const void *key, const void *old, bool had)
{
	if (had)
		bpf_map_update_elem(fd, key, old, BPF_ANY);
	else
		bpf_map_delete_elem(fd, key);
}

/**
 * map_delete_ifindex() - delete an interface's entry, none being no error
 * @fd:		map fd, keyed by ifindex
 * @name:	map name, for the error
 * @ifindex:	the interface
 *
 * Return: 0 (also when there was no entry), or %HM_EXIT_FAIL after
 * printing "cannot delete NAME[IFINDEX]".
 */
int map_delete_ifindex(int fd, const char *name, __u32 ifindex)
{
	int err;

	if (!bpf_map_delete_elem(fd, &ifindex) || errno == ENOENT)
		return 0;
	/* An array's entries cannot be deleted: zeros are "no entry". */
	if (errno == EINVAL) {
		err = hm_map_zero_elem(fd, &ifindex);
		if (!err || err == -E2BIG)
			return 0;
		errno = -err;
	}
	return hm_errf(-errno, "cannot delete %s[%u]", name, ifindex);
}

/**
 * hm_ifindex_bound_check() - whether an interface fits hopmark's arrays
 * @dev:	the device as typed
 * @ifindex:	its ifindex
 * @what:	whose maps: "IOAM", "PINT", "PBT-M"
 * @doc:	the document giving the bound, e.g. "Documentation/pbt.rst"
 *
 * Every per-interface map of the datapath (hopmark_ifcfg, hopmark_qdepth,
 * hopmark_stats; pint_ifcfg, pint_stats, pint_txrate; pbt_ifcfg,
 * pbt_stats) is an array indexed by ifindex below %HM_MAX_IFINDEX
 * (lib/common/hopmark_maps.h; %PINT_IFINDEX_LIMIT and %PBT_IFINDEX_LIMIT
 * are defined as it); the datapath leaves the packets of a higher ifindex
 * alone.
 *
 * Return: 0, or %HM_EXIT_FAIL after an error naming @dev, @ifindex and
 * the bound.
 */
int hm_ifindex_bound_check(const char *dev, __u32 ifindex, const char *what,
			   const char *doc)
{
	if (ifindex < HM_MAX_IFINDEX)
		return 0;
	return hm_errf(0, "%s has ifindex %u: %s takes interfaces whose ifindex is below %u (its maps are arrays indexed by ifindex, %s): give the device a lower index (ip link set dev %s netns ... / ip link add ... index N)",
		       dev, ifindex, what, HM_MAX_IFINDEX, doc, dev);
}

/**
 * ifindex_check() - refuse an interface the IOAM maps cannot hold
 * @dev:	the device as typed
 * @ifindex:	its ifindex
 *
 * hm_ifindex_bound_check() for hopmark_ifcfg, hopmark_qdepth and
 * hopmark_stats.
 *
 * Return: @ifindex; exits with %HM_EXIT_FAIL naming both numbers otherwise.
 */
__u32 ifindex_check(const char *dev, __u32 ifindex)
{
	if (hm_ifindex_bound_check(dev, ifindex, "IOAM", "Documentation/datapath.rst"))
		exit(HM_EXIT_FAIL);
	return ifindex;
}

/**
 * prog_uses_pinned_maps() - whether a program works on this node's pinned maps
 * @prog_id:	BPF program id
 *
 * A program loaded with another pin directory (another bpffs, another mount
 * namespace, pins removed since) has maps of the same names that nobody
 * can reach: each of its maps named hopmark_* must be the map pinned
 * under that name here (same map id).
 *
 * Return: 1 if so, 0 if one is not, negative errno if the program or its
 * maps cannot be read.
 */
int prog_uses_pinned_maps(__u32 prog_id)
{
	struct bpf_prog_info info = {};
	struct bpf_map_info map;
	__u32 len = sizeof(info), ids[64], n, i, map_len;
	int fd, mfd, pfd, err, ret = 1;

	fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd < 0)
		return -errno;
	err = bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
	if (!err) {
		n = info.nr_map_ids < 64 ? info.nr_map_ids : 64;
		memset(&info, 0, sizeof(info));
		info.nr_map_ids = n;
		info.map_ids = (__u64)(unsigned long)ids;
		len = sizeof(info);
		err = bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
	}
	close(fd);
	if (err)
		return err;
	for (i = 0; i < n && ret == 1; i++) {
		mfd = bpf_map_get_fd_by_id(ids[i]);
		if (mfd < 0)
			return -errno;
		memset(&map, 0, sizeof(map));
		map_len = sizeof(map);
		err = bpf_obj_get_info_by_fd(mfd, &map, &map_len) ? -errno : 0;
		close(mfd);
		if (err)
			return err;
		if (strncmp(map.name, "hopmark_", 8))
			continue;	/* scratch maps, never pinned */
		pfd = hm_map_open(map.name);
		if (pfd < 0)
			return pfd == -ENOENT ? 0 : pfd;
		memset(&map, 0, sizeof(map));
		map_len = sizeof(map);
		err = bpf_obj_get_info_by_fd(pfd, &map, &map_len) ? -errno : 0;
		close(pfd);
		if (err)
			return err;
		if (map.id != ids[i])
			ret = 0;
	}
	return ret;
}

/**
 * ifcfg_get() - an interface's settings, defaults when it has no entry
 * @fd:		hopmark_ifcfg fd
 * @ifindex:	interface
 * @cfg:	output; without an entry (%HM_IF_F_PRESENT clear): flags 0 and
 *		unavailable IDs
 *
 * Return: 1 if an entry exists, 0 if not, negative errno on failure.
 */
int ifcfg_get(int fd, __u32 ifindex, struct hopmark_if_cfg *cfg)
{
	/* An array: an index without HM_IF_F_PRESENT, or beyond it, is no entry. */
	if (!bpf_map_lookup_elem(fd, &ifindex, cfg)) {
		if (cfg->flags & HM_IF_F_PRESENT)
			return 1;
	} else if (errno != ENOENT) {
		return -errno;
	}
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
 * Creates the entry (with unavailable IDs) if needed. An ifindex the maps
 * cannot hold (%HM_MAX_IFINDEX) is -E2BIG: the callers first refuse it
 * with ifindex_check().
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
		cfg.flags = ((cfg.flags | set) & ~clear) | HM_IF_F_PRESENT;
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
