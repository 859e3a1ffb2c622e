#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Forwarding on a veth line (bench/fwd_bench.sh, Documentation/
# performance-forwarding.rst). Contract: bench/run.sh. Quick: two UDP kinds
# and the GSO one, four modes, 20000 frames (make check's own smoke run of every mode is
# bench/test_fwd_bench.sh).

[ "$(id -u)" -eq 0 ] || { echo "SKIP: the forwarding bench needs root (network namespaces)"; exit 4; }
for c in ip ethtool taskset chrt renice ps; do
	command -v $c >/dev/null || { echo "SKIP: the forwarding bench needs $c"; exit 4; }
done
top=$(cd "$(dirname "$0")/../.." && pwd)
# Its own skip (exit 4) must stay a skip under a TAP harness too.
unset HARNESS_ACTIVE
if [ -n "$HM_BENCH_QUICK" ]; then
	exec "$top/bench/fwd_bench.sh" -r 1 -n 20000 -g xdp,tcp -k v6-c00000,v4,tcp6-c00000 \
		-m plain,hm-tc,hm-agent,pbt -o "$1"
fi
exec "$top/bench/fwd_bench.sh" -o "$1"
