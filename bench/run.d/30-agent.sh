#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# The agent's record path (bench/agent_bench.c, Documentation/
# performance-agent.rst). Contract: bench/run.sh. -F: SCHED_FIFO threads,
# so that a shared machine's other load does not starve the consumer.

[ "$(id -u)" -eq 0 ] || { echo "SKIP: agent-bench needs root (BPF_PROG_TEST_RUN)"; exit 4; }
if [ -n "$HM_BENCH_QUICK" ]; then
	exec "$HM_BUILD/bench/agent-bench" -F -n 2000 -r 1 -l 20 -o "$1"
fi
exec "$HM_BUILD/bench/agent-bench" -F -o "$1"
