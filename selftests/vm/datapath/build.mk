# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# VM tier, module datapath: hopmark.ko's netfilter datapath (IOAM
# Incremental Trace, Edge-to-Edge, Direct Export, SRH O-flag, event rate
# limit) exercised with real traffic through the five-node topology
# A - R1 - R2 - R3 - B inside the qemu VM on Debian 12's 6.1 kernel
# (selftests/vm/run.sh). The tests are Python scripts (standard library
# only) run in the VM by datapath_6_1.t, which prove(1) runs on the host;
# hm_dp_genl is their libmnl client of the "hopmark" generic netlink family
# (configuration, counters, and the "events" group), built like
# hm_genl_client with lib's table of names (HM_GENL_NAMES, lib/common/build.mk).
#
#   make datapath-vm-check   build, then run only these tests
#
# Needs kernel/build.mk included first (HM_KMOD).

HM_DP_GENL	:= $(BUILD)/tests/hm_dp_genl
HM_VM_DP_TESTS	:= $(CURDIR)/selftests/vm/datapath/datapath_6_1.t

HM_TESTS	+= $(HM_VM_DP_TESTS)
HM_TEST_DEPS	+= $(HM_KMOD) $(HM_DP_GENL)

# The module's DEX and O-flag postcards through hopmarkd's IPFIX exporter
# into hopmark-collector and ipfixDump (test_ipfix_module.py), in a VM of
# its own: make ipfix-vm-check.
HM_VM_IPFIX_TESTS := $(CURDIR)/selftests/vm/datapath/ipfix_6_1.t
HM_TESTS	+= $(HM_VM_IPFIX_TESTS)
HM_TEST_DEPS	+= $(HM_CLI) $(AGENT_BIN) $(COLL_BIN)

$(HM_DP_GENL): selftests/vm/datapath/hm_dp_genl.c $(HM_GENL_NAMES)
	mkdir -p $(dir $@)
	$(CC) $(HM_CFLAGS) -o $@ $< $(filter %.c,$(HM_GENL_NAMES)) -lmnl

.PHONY: datapath-vm-check ipfix-vm-check
datapath-vm-check: $(HM_KMOD) $(HM_DP_GENL)
	prove -v --timer $(HM_VM_DP_TESTS)

ipfix-vm-check: $(HM_KMOD) $(HM_DP_GENL) $(HM_CLI) $(AGENT_BIN) $(COLL_BIN)
	prove -v --timer $(HM_VM_IPFIX_TESTS)
