#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# datapath_6_1.t - hopmark.ko's datapath on Debian 12's 6.1 kernel, in a qemu VM
#
# Boots the VM (selftests/vm/run.sh) once and runs there, in turn, the
# datapath tests of selftests/vm/datapath/ over the five-node topology
# A - R1 - R2 - R3 - B: test_incremental.py (IOAM Incremental Trace: every
# node's data, Overflow when RemainingLen is short, egress MTU),
# test_e2e.py (Edge-to-Edge: per-flow sequence numbers, decapsulation),
# test_dex.py (Direct Export: one event per packet per node, Flow ID,
# Sequence Number), test_oflag.py (SRH O-flag: one event per segment
# endpoint, packet unchanged), test_hbh_limit.py (an option is added only
# to a Hop-by-Hop header a Linux router keeps: 8 options are forwarded
# without a 9th, counted) and test_ratelimit.py (a flood of events is rate
# limited and every record not sent is counted; last, it unloads the
# module and checks dmesg). Prints one TAP stream
# for prove(1); needs build/kernel/hopmark.ko and build/tests/hm_dp_genl
# (make module check-build).
#
# HM_VM_DP_TESTS overrides the list of TESTs; HM_KMOD (module path) and
# HM_DP_GENL (client path) are passed into the VM.

here=$(cd "$(dirname "$0")" && pwd)
d=selftests/vm/datapath
HM_VM_ENV="${HM_VM_ENV:-} HM_KMOD HM_DP_GENL"
export HM_VM_ENV
exec "$here/../run.sh" --tap \
	${HM_VM_DP_TESTS:-$d/test_incremental.py $d/test_e2e.py $d/test_dex.py $d/test_oflag.py $d/test_hbh_limit.py $d/test_ratelimit.py}
