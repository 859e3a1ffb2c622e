# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# VM tier, kernel module: hopmark.ko (kernel/build.mk) loaded in the qemu VM
# on Debian 12's 6.1 kernel (selftests/vm/run.sh). The tests are shell
# scripts in selftests/vm/module/ run inside the VM through TAP wrappers
# (*.t) that prove(1) runs on the host; hm_genl_client is their libmnl
# client of the "hopmark" generic netlink family, built with lib's table
# of counter and event names (HM_GENL_NAMES, lib/common/build.mk) and no
# other part of libhopmark.
#
#   make module-vm-check   build, then run only these tests
#
# Needs kernel/build.mk included first (HM_KMOD).

HM_GENL_CLIENT	:= $(BUILD)/tests/hm_genl_client
HM_VM_MOD_TESTS	:= $(CURDIR)/selftests/vm/module/module.t

HM_TESTS	+= $(HM_VM_MOD_TESTS)
HM_TEST_DEPS	+= $(HM_KMOD) $(HM_GENL_CLIENT)

$(HM_GENL_CLIENT): selftests/vm/module/hm_genl_client.c $(HM_GENL_NAMES)
	mkdir -p $(dir $@)
	$(CC) $(HM_CFLAGS) -o $@ $< $(filter %.c,$(HM_GENL_NAMES)) -lmnl

.PHONY: module-vm-check
module-vm-check: $(HM_KMOD) $(HM_GENL_CLIENT)
	prove -v --timer $(HM_VM_MOD_TESTS)
