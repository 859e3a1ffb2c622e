// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_bpf_attach.c - the roles table of the BPF load/attach layer
 * (common/bpf_attach.h) and its Ethernet check: every role's program, hook,
 * handle and priority as hopmark_run.h fixes them, each program found back
 * by name, distinct priorities per hook; loopback accepted; a tun device
 * (link/none) refused by name and link type before any hook is touched.
 * The tun part creates the device in a network namespace of its own
 * (unshare(2), CAP_SYS_ADMIN): without the capability it is skipped. The
 * attaching itself is tested on real devices by selftests/net/.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <linux/if_arp.h>
#include <linux/if_tun.h>

#include "hm_test.h"
#include "common/bpf_attach.h"
#include "common/hopmark_run.h"

static void bpf_attach_roles_table_is_hopmark_run_h(void **state)
{
	static const struct {
		enum hm_role role;
		const char *name, *prog;
		enum hm_hook hook;
		__u32 handle, prio;
	} want[] = {
		{ HM_ROLE_ENCAP, "encap", "hm_encap", HM_HOOK_TC_EGRESS,
		  HM_TC_HANDLE, HM_TC_PRIO_ENCAP },
		{ HM_ROLE_TRANSIT_IN, "transit-in", "hm_transit_in", HM_HOOK_XDP, 0, 0 },
		{ HM_ROLE_TRANSIT_OUT, "transit-out", "hm_transit_out", HM_HOOK_TC_EGRESS,
		  HM_TC_HANDLE, HM_TC_PRIO_TRANSIT_OUT },
		{ HM_ROLE_DECAP, "decap", "hm_decap", HM_HOOK_TC_INGRESS,
		  HM_TC_HANDLE, HM_TC_PRIO_DECAP },
		{ HM_ROLE_TRANSIT_IN_TC, "transit-in-tc", "hm_transit_tcin", HM_HOOK_TC_INGRESS,
		  HM_TC_HANDLE, HM_TC_PRIO_TRANSIT_IN },
		{ HM_ROLE_PINT_SOURCE, "source", "hm_pint_source", HM_HOOK_TC_INGRESS,
		  HM_PINT_TC_HANDLE, HM_PINT_TC_PRIO_SOURCE },
		{ HM_ROLE_PINT_TRANSIT, "transit", "hm_pint_transit", HM_HOOK_TC_EGRESS,
		  HM_PINT_TC_HANDLE, HM_PINT_TC_PRIO_TRANSIT },
		{ HM_ROLE_PINT_SINK, "sink", "hm_pint_sink", HM_HOOK_TC_INGRESS,
		  HM_PINT_TC_HANDLE, HM_PINT_TC_PRIO_SINK },
		{ HM_ROLE_INT_SOURCE, "int-source", "hm_int_source", HM_HOOK_TC_EGRESS,
		  HM_INT_TC_HANDLE, HM_INT_TC_PRIO_SOURCE },
		{ HM_ROLE_INT_INGRESS, "int-ingress", "hm_int_ingress", HM_HOOK_TC_INGRESS,
		  HM_INT_TC_HANDLE, HM_INT_TC_PRIO_INGRESS },
		{ HM_ROLE_INT_TRANSIT, "int-transit", "hm_int_transit", HM_HOOK_TC_EGRESS,
		  HM_INT_TC_HANDLE, HM_INT_TC_PRIO_TRANSIT },
		{ HM_ROLE_INT_SINK, "int-sink", "hm_int_sink", HM_HOOK_TC_INGRESS,
		  HM_INT_TC_HANDLE, HM_INT_TC_PRIO_SINK },
		{ HM_ROLE_INT_DROP, "int-drop", "hm_int_drop", HM_HOOK_TRACING, 0, 0 },
		{ HM_ROLE_INT_XDP_SOURCE, "int-xdp-source", "hm_int_xdp_src", HM_HOOK_XDP, 0, 0 },
		{ HM_ROLE_PBT_XDP, "pbt-xdp", "hm_pbt_xdp", HM_HOOK_XDP, 0, 0 },
		{ HM_ROLE_PBT_INGRESS, "pbt-ingress", "hm_pbt_ingress", HM_HOOK_TC_INGRESS,
		  HM_PBT_TC_HANDLE, HM_PBT_TC_PRIO_INGRESS },
		{ HM_ROLE_PBT_EGRESS, "pbt-egress", "hm_pbt_egress", HM_HOOK_TC_EGRESS,
		  HM_PBT_TC_HANDLE, HM_PBT_TC_PRIO_EGRESS },
	};
	size_t i;

	assert_int_equal(sizeof(want) / sizeof(want[0]), HM_ROLE_MAX);
	for (i = 0; i < HM_ROLE_MAX; i++) {
		const struct hm_role_desc *d = &hm_roles[want[i].role];

		assert_string_equal(d->name, want[i].name);
		assert_string_equal(d->prog, want[i].prog);
		assert_int_equal(d->hook, want[i].hook);
		assert_int_equal(d->tc_handle, want[i].handle);
		assert_int_equal(d->tc_prio, want[i].prio);
		assert_int_equal(d->family, want[i].role >= HM_ROLE_PBT_XDP ? HM_FAMILY_PBT :
				 want[i].role >= HM_ROLE_INT_SOURCE ? HM_FAMILY_INT :
				 want[i].role >= HM_ROLE_PINT_SOURCE ? HM_FAMILY_PINT :
				 HM_FAMILY_IOAM);
		/* bpf_prog_info.name holds 15 characters and the NUL. */
		assert_true(strlen(d->prog) < 16);
	}
}

static void bpf_attach_program_names_find_their_role(void **state)
{
	enum hm_role r, s;

	for (r = 0; r < HM_ROLE_MAX; r++)
		assert_int_equal(hm_role_of_prog(hm_roles[r].prog), r);
	assert_int_equal(hm_role_of_prog("foreign_pass"), HM_ROLE_MAX);
	assert_int_equal(hm_role_of_prog("hm_transit"), HM_ROLE_MAX);
	assert_int_equal(hm_role_of_prog(""), HM_ROLE_MAX);
	/* Two filters on one hook never share a priority. */
	for (r = 0; r < HM_ROLE_MAX; r++)
		for (s = r + 1; s < HM_ROLE_MAX; s++)
			if (hm_roles[r].hook == hm_roles[s].hook &&
			    hm_roles[r].hook != HM_HOOK_XDP &&
			    hm_roles[r].hook != HM_HOOK_TRACING &&
			    hm_roles[r].tc_prio == hm_roles[s].tc_prio)
				fail_msg("%s and %s share priority 0x%x", hm_roles[r].name,
					 hm_roles[s].name, hm_roles[r].tc_prio);
}

static void bpf_attach_link_type_names(void **state)
{
	char buf[16];

	assert_string_equal(hm_link_type_name(ARPHRD_ETHER, buf, sizeof(buf)), "ether");
	assert_string_equal(hm_link_type_name(ARPHRD_NONE, buf, sizeof(buf)), "none");
	assert_string_equal(hm_link_type_name(ARPHRD_TUNNEL6, buf, sizeof(buf)), "tunnel6");
	assert_string_equal(hm_link_type_name(ARPHRD_LOOPBACK, buf, sizeof(buf)), "loopback");
	assert_string_equal(hm_link_type_name(4242, buf, sizeof(buf)), "[4242]");
}

static void bpf_attach_loopback_accepted_missing_device_named(void **state)
{
	char msg[HM_ATTACH_MSG_MAX] = "";
	unsigned int lo = if_nametoindex("lo");

	assert_int_not_equal(lo, 0);
	assert_int_equal(hm_dev_check_ether(lo, msg, sizeof(msg)), 0);
	assert_int_equal(hm_dev_check_ether(0x7ffffff0, msg, sizeof(msg)), -ENXIO);
	assert_string_equal(msg, "no device with ifindex 2147483632: No such device or address");
}

static void bpf_attach_tun_refused_before_any_hook(void **state)
{
	char msg[HM_ATTACH_MSG_MAX] = "";
	struct hm_role_prog p = { .fd = 0 };
	struct ifreq ifr = {};
	unsigned int ifindex;
	int fd;

	if (unshare(CLONE_NEWNET)) {
		print_message("skipped: unshare(CLONE_NEWNET): %s\n", strerror(errno));
		skip();
	}
	fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		print_message("skipped: /dev/net/tun: %s\n", strerror(errno));
		skip();
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "hmt-tun0");
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	assert_int_equal(ioctl(fd, TUNSETIFF, &ifr), 0);
	ifindex = if_nametoindex("hmt-tun0");
	assert_int_not_equal(ifindex, 0);

	assert_int_equal(hm_dev_check_ether(ifindex, msg, sizeof(msg)), -EOPNOTSUPP);
	assert_string_equal(msg, "hmt-tun0 is not an Ethernet device (link/none): "
			    "hopmark's BPF programs parse Ethernet frames");
	/*
	 * Every role is refused by hm_role_attach() itself, with the same
	 * reason: the check comes before the program is used (this fd is
	 * not a BPF program) and before any hook is created. A tracing role
	 * takes no device (int-drop: bpf_attach.h) and is not asked.
	 */
	for (p.role = 0; p.role < HM_ROLE_MAX; p.role++) {
		if (hm_roles[p.role].hook == HM_HOOK_TRACING)
			continue;
		msg[0] = '\0';
		assert_int_equal(hm_role_attach(&p, ifindex, msg, sizeof(msg)), -EOPNOTSUPP);
		assert_non_null(strstr(msg, "(link/none)"));
	}
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bpf_attach_roles_table_is_hopmark_run_h),
		cmocka_unit_test(bpf_attach_program_names_find_their_role),
		cmocka_unit_test(bpf_attach_link_type_names),
		cmocka_unit_test(bpf_attach_loopback_accepted_missing_device_named),
		cmocka_unit_test(bpf_attach_tun_refused_before_any_hook),
	};

	return HM_RUN_TESTS(tests);
}
