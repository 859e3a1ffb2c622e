# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# VM tier, userspace against the kernel module: the hopmark CLI's module
# objects (iproute2-ext/genl.c and friends) and hopmarkd's generic netlink
# side (agent/genl_events.c) with hopmark.ko loaded in the qemu VM
# (selftests/vm/run.sh). cli_module.t is the TAP wrapper prove(1) runs on
# the host; test_cli_module.sh runs inside the VM.
#
#   make cli-module-vm-check   build, then run only this test
#
# Needs kernel/build.mk included first (HM_KMOD).

HM_VM_USER_TESTS := $(CURDIR)/selftests/vm/userspace/cli_module.t

HM_TESTS	+= $(HM_VM_USER_TESTS)
HM_TEST_DEPS	+= $(HM_KMOD) $(HM_CLI) $(AGENT_BIN)

.PHONY: cli-module-vm-check
cli-module-vm-check: $(HM_KMOD) $(HM_CLI) $(AGENT_BIN)
	prove -v --timer $(HM_VM_USER_TESTS)
