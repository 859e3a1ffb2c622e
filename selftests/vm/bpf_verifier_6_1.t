#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# bpf_verifier_6_1.t - the BPF tier on Debian 12's 6.1 kernel, in a qemu VM
#
# Boots Debian 12's 6.1 kernel (selftests/vm/run.sh) and runs there, in
# turn, selftests/vm/bpf_load.t (every object of bpf/ through the 6.1
# verifier) and the BPF_PROG_TEST_RUN suite build/tests/bpf_test_run (valid
# and malformed packets through every program). Prints one TAP stream for
# prove(1) (run.sh --tap); fails when a program is rejected, a test point
# fails, the suite is missing, or the VM does not finish in time.
#
# HM_VM_BPF_TESTS overrides the list of TESTs (paths in the repository).

here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run.sh" --tap \
	${HM_VM_BPF_TESTS:-selftests/vm/bpf_load.t build/tests/bpf_test_run}
