#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# ipfix_6_1.t - hopmark.ko's DEX and SRH O-flag postcards leave as IPFIX,
# on Debian 12's 6.1 kernel in a qemu VM
#
# Boots the VM (selftests/vm/run.sh) and runs
# selftests/vm/datapath/test_ipfix_module.py there: real DEX and O-flag
# packets cross the five-node line with hopmark.ko, each exporting node's
# hopmarkd exports IPFIX, hopmark-collector and ipfixDump read it and the
# fields are checked against the packets. One TAP stream for prove(1);
# needs build/kernel/hopmark.ko, build/tests/hm_dp_genl, build/hopmark,
# build/hopmarkd and build/hopmark-collector (make module check-build).
#
# HM_KMOD (module path) and HM_DP_GENL (client path) are passed into the VM.

here=$(cd "$(dirname "$0")" && pwd)
HM_VM_ENV="${HM_VM_ENV:-} HM_KMOD HM_DP_GENL HM_VERBOSE"
export HM_VM_ENV
exec "$here/../run.sh" --tap selftests/vm/datapath/test_ipfix_module.py
