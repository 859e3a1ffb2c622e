#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# module.t - the kernel module tier on Debian 12's 6.1 kernel, in a qemu VM
#
# Boots the VM (selftests/vm/run.sh) once and runs there, in turn,
# test_genl.sh (the "hopmark" generic netlink family: policies, extack,
# permissions, dumps, notifications, per-netns state) and
# test_events.sh (batching, rate limit, counts of records not sent) and
# test_load_unload.sh (50 load/unload cycles under traffic, dmesg clean).
# Prints one TAP stream for prove(1); needs build/kernel/hopmark.ko and
# build/tests/hm_genl_client (make module check-build).
#
# HM_VM_MODULE_TESTS overrides the list of TESTs; HM_KO, HM_CLIENT and
# HM_LOAD_CYCLES are passed into the VM.

here=$(cd "$(dirname "$0")" && pwd)
HM_VM_ENV="${HM_VM_ENV:-} HM_KO HM_CLIENT HM_LOAD_CYCLES"
export HM_VM_ENV
exec "$here/../run.sh" --tap \
	${HM_VM_MODULE_TESTS:-selftests/vm/module/test_genl.sh selftests/vm/module/test_events.sh selftests/vm/module/test_load_unload.sh}
