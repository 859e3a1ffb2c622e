#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# The BPF_PROG_TEST_RUN tier again, with the encap, decap and PINT programs
# loaded so that every packet takes their general path (hm_encap_general_only,
# hm_decap_general_only, hm_pint_general_only). The default run checks the
# fast paths; this one checks the general paths against the same
# independently computed expected frames and counters, so the two paths must
# agree byte for byte on every crafted packet. Arguments are passed on (a
# test name filter).
here=$(cd "$(dirname "$0")/../.." && pwd)
bin="$here/build/tests/bpf_test_run"
if [ ! -x "$bin" ]; then
	echo "1..0 # SKIP $bin not built (make check-build)"
	[ -n "$HARNESS_ACTIVE" ] && exit 0
	exit 4
fi
HM_BPF_GENERAL_PATH=1 exec "$bin" "$@"
