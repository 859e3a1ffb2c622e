#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Per-program BPF cost (bench/bpf_cost.c, Documentation/performance.rst).
# Contract: bench/run.sh. HM_BPF_COST_ARGS adds options, e.g.
# HM_BPF_COST_ARGS="--obj-dir /path/to/build/bpf" make bench.

[ "$(id -u)" -eq 0 ] || { echo "SKIP: bpf-cost needs root (BPF_PROG_TEST_RUN, bpffs, netns)"; exit 4; }
if [ -n "$HM_BENCH_QUICK" ]; then
	# shellcheck disable=SC2086
	exec "$HM_BUILD/bench/bpf-cost" -n 200 -r 3 $HM_BPF_COST_ARGS -o "$1"
fi
# shellcheck disable=SC2086
exec "$HM_BUILD/bench/bpf-cost" $HM_BPF_COST_ARGS -o "$1"
