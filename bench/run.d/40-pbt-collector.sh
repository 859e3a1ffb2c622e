#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# hopmark-collector's postcards/s per core, in process and against nfacctd
# fed the same IPFIX stream, and its memory per tracked flow
# (bench/pbt_coll_bench.sh, Documentation/performance-postcards.rst).
# Contract: bench/run.sh.
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "$HM_BENCH_QUICK" ]; then
	exec "$top/bench/pbt_coll_bench.sh" -p 2000 -r 1 -R 5000 -o "$1"
fi
exec "$top/bench/pbt_coll_bench.sh" -o "$1"
