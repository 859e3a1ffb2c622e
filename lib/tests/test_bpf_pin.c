// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_bpf_pin.c - hm_bpffs_root(), hm_pin_dir(), and hm_maps_create() /
 * hm_map_open() where no bpffs is: what needs no privilege. The bpffs
 * side is test_maps_create.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "hm_test.h"

static void root_and_pin_dir_follow_tc_bpf_mnt(void **state)
{
	char buf[64], small[8];

	unsetenv("TC_BPF_MNT");
	assert_string_equal(hm_bpffs_root(), "/sys/fs/bpf");
	assert_int_equal(hm_pin_dir(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/fs/bpf/tc/globals");
	setenv("TC_BPF_MNT", "", 1);
	assert_string_equal(hm_bpffs_root(), "/sys/fs/bpf");
	setenv("TC_BPF_MNT", "/run/hopmark/R1", 1);
	assert_string_equal(hm_bpffs_root(), "/run/hopmark/R1");
	assert_int_equal(hm_pin_dir(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/run/hopmark/R1/tc/globals");
	assert_int_equal(hm_pin_dir(small, sizeof(small)), -ENAMETOOLONG);
	unsetenv("TC_BPF_MNT");
}

static void maps_create_refuses_a_non_bpffs(void **state)
{
	char dir[] = "/tmp/hmt-lib-notbpf-XXXXXX";

	assert_non_null(mkdtemp(dir));
	setenv("TC_BPF_MNT", dir, 1);
	assert_int_equal(hm_maps_create(), -ENODEV);
	assert_int_equal(hm_map_open(HM_MAP_NODE), -ENOENT);
	setenv("TC_BPF_MNT", "/nonexistent/hmt-lib", 1);
	assert_int_equal(hm_maps_create(), -ENOENT);
	unsetenv("TC_BPF_MNT");
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(root_and_pin_dir_follow_tc_bpf_mnt),
		cmocka_unit_test(maps_create_refuses_a_non_bpffs),
	};

	return HM_RUN_TESTS(tests);
}
