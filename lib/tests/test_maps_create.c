// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_maps_create.c - hm_maps_create() and hm_map_open() on a private
 * bpffs instance mounted for the test, the way each simulated node gets its
 * own (hopmark_maps.h): every map pinned under <bpffs>/tc/globals, pins
 * reused by a second call, a pin of another layout refused by name;
 * hm_map_delete_if() deletes exactly the entries its predicate picks, over
 * a walk of the whole hash, and zeroes them in an array. mount(2) needs
 * CAP_SYS_ADMIN: without it the
 * program reports "1..0 # SKIP" (TAP), as the kselftest tiers do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hm_test.h"

static const char *const maps[] = {
	HM_MAP_NODE, HM_MAP_IFCFG, HM_MAP_NS, HM_MAP_ENCAP, HM_MAP_ENCAP_FILTER,
	HM_MAP_QDEPTH, HM_MAP_STATS, HM_MAP_EVENTS,
};

static char mnt[64];
static int mount_err;

static int bpffs_setup(void **state)
{
	snprintf(mnt, sizeof(mnt), "/tmp/hmt-lib-bpf-XXXXXX");
	if (!mkdtemp(mnt))
		return -1;
	if (mount("bpf", mnt, "bpf", 0, NULL)) {
		mount_err = errno;
		rmdir(mnt);
		mnt[0] = '\0';
	}
	return 0;
}

static int bpffs_teardown(void **state)
{
	if (mnt[0]) {
		umount2(mnt, MNT_DETACH);
		rmdir(mnt);
	}
	unsetenv("TC_BPF_MNT");
	return 0;
}

static void maps_create_pins_every_map_once(void **state)
{
	char path[256];
	struct stat st;
	size_t i;
	int fd, fd2;
	__u32 key = 0;
	struct hopmark_node_cfg cfg = { .flags = HM_NODE_F_ID, .node_id = 42 }, out;

	setenv("TC_BPF_MNT", mnt, 1);
	assert_int_equal(hm_map_open(HM_MAP_NODE), -ENOENT);
	assert_int_equal(hm_maps_create(), 0);
	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		snprintf(path, sizeof(path), "%s/tc/globals/%s", mnt, maps[i]);
		if (stat(path, &st))
			fail_msg("%s: not pinned (%s)", path, strerror(mount_err));
		fd = hm_map_open(maps[i]);
		if (fd < 0)
			fail_msg("hm_map_open(%s): %d", maps[i], fd);
		close(fd);
	}
	/* A second call reuses the pins: a value written survives it. */
	fd = hm_map_open(HM_MAP_NODE);
	assert_true(fd >= 0);
	assert_int_equal(bpf_map_update_elem(fd, &key, &cfg, 0), 0);
	assert_int_equal(hm_maps_create(), 0);
	fd2 = hm_map_open(HM_MAP_NODE);
	assert_true(fd2 >= 0);
	assert_int_equal(bpf_map_lookup_elem(fd2, &key, &out), 0);
	assert_int_equal(out.node_id, 42);
	close(fd);
	close(fd2);
	assert_int_equal(hm_map_open("hopmark_nonexistent"), -ENOENT);
}

static __u32 events_size(void)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	int fd = hm_map_open(HM_MAP_EVENTS);

	if (fd < 0)
		fail_msg("hm_map_open(%s): %d", HM_MAP_EVENTS, fd);
	memset(&info, 0, sizeof(info));
	assert_int_equal(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	close(fd);
	return info.max_entries;
}

/*
 * hopmark_events' size: $HOPMARK_EVENTS_BYTES for a new ring (default
 * HM_EVENTS_BYTES), kept by a pinned one whatever the variable says;
 * a value that is not a power of two in range is refused.
 */
static void maps_create_sizes_events_ring(void **state)
{
	static const char *const bad[] = { "0", "4095", "12288", "-4096", "4096x", "",
					   "2147483648" };
	char path[256];
	size_t i;

	setenv("TC_BPF_MNT", mnt, 1);
	snprintf(path, sizeof(path), "%s/tc/globals/%s", mnt, HM_MAP_EVENTS);
	unlink(path);
	unsetenv(HM_EVENTS_BYTES_ENV);
	assert_int_equal(hm_events_bytes(), HM_EVENTS_BYTES);
	assert_int_equal(hm_maps_create(), 0);
	assert_int_equal(events_size(), HM_EVENTS_BYTES);

	unlink(path);
	setenv(HM_EVENTS_BYTES_ENV, "262144", 1);
	assert_int_equal(hm_maps_create(), 0);
	assert_int_equal(events_size(), 262144);
	/* Pinned: another size asked for later does not change it. */
	setenv(HM_EVENTS_BYTES_ENV, "1048576", 1);
	assert_int_equal(hm_maps_create(), 0);
	assert_int_equal(events_size(), 262144);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv(HM_EVENTS_BYTES_ENV, bad[i], 1);
		if (hm_events_bytes() != -EINVAL || hm_maps_create() != -EINVAL)
			fail_msg("%s=\"%s\": expected -EINVAL, observed %ld / %d",
				 HM_EVENTS_BYTES_ENV, bad[i], hm_events_bytes(), hm_maps_create());
	}
	unsetenv(HM_EVENTS_BYTES_ENV);
	unlink(path);
	assert_int_equal(hm_maps_create(), 0);
}

static bool multiple_of_3(int fd, const void *key, void *ctx)
{
	__u32 k;

	memcpy(&k, key, sizeof(k));
	(*(unsigned int *)ctx)++;
	return k % 3 == 0;
}

static void map_delete_if_deletes_what_it_picks(void **state)
{
	unsigned int calls = 0;
	__u32 k, v, next, *prev = NULL, left = 0;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "hmt_del", sizeof(k), sizeof(v), 256, NULL);
	if (fd < 0)
		hm_test_skip("bpf_map_create(BPF_MAP_TYPE_HASH): %s", strerror(-fd));
	for (k = 1; k <= 200; k++) {
		v = k * 7;
		assert_int_equal(bpf_map_update_elem(fd, &k, &v, 0), 0);
	}
	assert_int_equal(hm_map_delete_if(fd, sizeof(k), multiple_of_3, &calls), 66);
	assert_int_equal(calls, 200);	/* every key seen once */
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		assert_true(k % 3 != 0);
		assert_int_equal(bpf_map_lookup_elem(fd, &k, &v), 0);
		assert_int_equal(v, k * 7);
		left++;
	}
	assert_int_equal(left, 134);
	assert_int_equal(hm_map_delete_if(fd, sizeof(k), multiple_of_3, &calls), 0);
	close(fd);
}

/*
 * A pin of hopmark_ifcfg as a hopmark before the arrays made it (a hash of
 * 256 entries) is refused, not replaced: -ESTALE, a message naming the
 * pin, both layouts and the remedy, and the old map still pinned.
 */
static void maps_create_refuses_pin_of_old_layout(void **state)
{
	char path[256], why[1024];
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	int fd, old;

	setenv("TC_BPF_MNT", mnt, 1);
	assert_int_equal(hm_maps_create(), 0);
	assert_int_equal(hm_maps_check_pins(why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/tc/globals/%s", mnt, HM_MAP_IFCFG);
	assert_int_equal(unlink(path), 0);
	old = bpf_map_create(BPF_MAP_TYPE_HASH, HM_MAP_IFCFG, sizeof(__u32),
			     sizeof(struct hopmark_if_cfg), 256, NULL);
	if (old < 0)
		hm_test_skip("bpf_map_create(BPF_MAP_TYPE_HASH): %s", strerror(-old));
	assert_int_equal(bpf_obj_pin(old, path), 0);

	assert_int_equal(hm_maps_create(), -ESTALE);
	why[0] = '\0';
	assert_int_equal(hm_maps_check_pins(why, sizeof(why)), -ESTALE);
	if (!strstr(why, path) || !strstr(why, "hash of 256 entries") ||
	    !strstr(why, "array of 1024 entries") || !strstr(why, "rm "))
		fail_msg("expected the pin, both layouts and the remedy; observed \"%s\"", why);
	fd = hm_map_open(HM_MAP_IFCFG);
	assert_true(fd >= 0);
	memset(&info, 0, sizeof(info));
	assert_int_equal(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	assert_int_equal(info.type, BPF_MAP_TYPE_HASH);	/* not replaced */
	close(fd);
	close(old);

	assert_int_equal(unlink(path), 0);
	assert_int_equal(hm_maps_create(), 0);
}

static bool any_key(int fd, const void *key, void *ctx)
{
	(*(unsigned int *)ctx)++;
	return true;
}

/*
 * Arrays: entries cannot be deleted, so hm_map_delete_if() offers only the
 * entries that are not all zero and writes zeros over the doomed ones, on
 * every CPU of a per-CPU array; hm_stats_ifindexes() and
 * hm_ifcfg_ifindexes() list the entries in use.
 */
static void map_delete_if_zeroes_array_entries(void **state)
{
	int ncpu = libbpf_num_possible_cpus(), fd, pfd, cpu, n;
	struct hopmark_if_cfg c = { .flags = HM_IF_F_PRESENT, .if_id = 5 }, z = { .if_id = 9 };
	struct hopmark_link_stats *per;
	unsigned int calls = 0;
	__u32 k, list[16];

	assert_true(ncpu > 0);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, HM_MAP_IFCFG, sizeof(k), sizeof(c),
			    HM_MAX_IFINDEX, NULL);
	if (fd < 0)
		hm_test_skip("bpf_map_create(BPF_MAP_TYPE_ARRAY): %s", strerror(-fd));
	for (k = 3; k <= 30; k += 3)
		assert_int_equal(bpf_map_update_elem(fd, &k, &c, 0), 0);
	k = 31;		/* set fields, no HM_IF_F_PRESENT: not listed */
	assert_int_equal(bpf_map_update_elem(fd, &k, &z, 0), 0);
	n = hm_ifcfg_ifindexes(fd, list, 16);
	assert_int_equal(n, 10);
	assert_int_equal(list[0], 3);
	assert_int_equal(list[9], 30);
	assert_int_equal(hm_map_delete_if(fd, sizeof(k), multiple_of_3, &calls), 10);
	assert_int_equal(calls, 11);	/* the 10 entries and 31, not the zeros */
	assert_int_equal(hm_ifcfg_ifindexes(fd, list, 16), 0);
	k = 31;
	assert_int_equal(bpf_map_lookup_elem(fd, &k, &c), 0);
	assert_int_equal(c.if_id, 9);	/* not picked: kept */
	close(fd);

	pfd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, HM_MAP_STATS, sizeof(k),
			     sizeof(*per), HM_MAX_IFINDEX, NULL);
	assert_true(pfd >= 0);
	per = calloc(ncpu, sizeof(*per));
	assert_non_null(per);
	per[ncpu - 1].cnt[HM_CNT_TRANSIT_OK] = 7;	/* one CPU only counted */
	k = 12;
	assert_int_equal(bpf_map_update_elem(pfd, &k, per, 0), 0);
	assert_int_equal(hm_stats_ifindexes(pfd, list, 16), 1);
	assert_int_equal(list[0], 12);
	calls = 0;
	assert_int_equal(hm_map_delete_if(pfd, sizeof(k), any_key, &calls), 1);
	assert_int_equal(calls, 1);
	assert_int_equal(bpf_map_lookup_elem(pfd, &k, per), 0);
	for (cpu = 0; cpu < ncpu; cpu++)
		assert_int_equal(per[cpu].cnt[HM_CNT_TRANSIT_OK], 0);
	assert_int_equal(hm_stats_ifindexes(pfd, list, 16), 0);
	free(per);
	close(pfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(maps_create_pins_every_map_once),
		cmocka_unit_test(maps_create_sizes_events_ring),
		cmocka_unit_test(map_delete_if_deletes_what_it_picks),
		cmocka_unit_test(maps_create_refuses_pin_of_old_layout),
		cmocka_unit_test(map_delete_if_zeroes_array_entries),
	};
	int err;

	if (bpffs_setup(NULL))
		return 1;
	if (!mnt[0]) {
		printf("1..0 # SKIP cannot mount a bpffs (%s)\n", strerror(mount_err));
		return 0;
	}
	err = HM_RUN_TESTS(tests);
	bpffs_teardown(NULL);
	return err;
}
