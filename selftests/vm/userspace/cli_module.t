#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# cli_module.t - the hopmark CLI and hopmarkd against hopmark.ko, in a qemu VM
#
# Boots Debian 12's 6.1 kernel (selftests/vm/run.sh) and runs
# selftests/vm/userspace/test_cli_module.sh there: module commands without
# the module, set/show round trips with -j, errors, hopmarkd's dump/notify
# round trip, DEX and SRH O-flag postcards. One TAP stream for prove(1).
#
# HM_KO overrides the module (default build/kernel/hopmark.ko).

here=$(cd "$(dirname "$0")" && pwd)
HM_VM_ENV="${HM_VM_ENV:-} HM_KO" exec "$here/../run.sh" --tap \
	selftests/vm/userspace/test_cli_module.sh
