#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Smoke test of build/bench/pint-concurrency (TAP): path tracing, latency
# and utilisation sharing a 16-bit budget, a few short flows (about a
# second). The evaluator checks every run itself and exits 1 when a path is
# not decoded or decoded wrong, a query is not carried on the plan's share
# of packets, a utilisation code is not the path maximum's, or a flow's
# median latency error is above its bound; this test also checks that the
# output does not depend on the thread count and that sharing costs path
# tracing the packets the plan predicts.
here=$(cd "$(dirname "$0")/.." && pwd)
bin="$here/build/bench/pint-concurrency"
args="-k 12 -t 10 -n 2000"

echo "1..3"
if out1=$("$bin" $args -j 1 2>&1) && echo "$out1" | grep -q '^checks: ok'; then
	echo "ok 1 - pint_concurrency_checks_pass"
else
	echo "$out1" | sed 's/^/# /'
	echo "not ok 1 - pint_concurrency_checks_pass"
fi

out2=$("$bin" $args -j 2 2>&1)
if [ "$(echo "$out1" | grep -v '^(')" = "$(echo "$out2" | grep -v '^(')" ]; then
	echo "ok 2 - pint_concurrency_output_independent_of_threads"
else
	echo "# expected the -j 1 output, observed with -j 2:"
	echo "$out2" | sed 's/^/# /'
	echo "not ok 2 - pint_concurrency_output_independent_of_threads"
fi

# Equal weights: path tracing rides on 2/3 of the packets, so it needs
# about 1/f - 1 = +50 % packets; accept +25 % .. +75 % over 10 flows.
extra=$(echo "$out1" | sed -n 's/^  shared, equal weights .*extra *+\([0-9.]*\)%.*expected.*/\1/p')
echo "# path extra with equal weights: expected +25..+75 %, observed +${extra:-none} %"
if [ -n "$extra" ] && awk -v x="$extra" 'BEGIN { exit !(x >= 25 && x <= 75) }'; then
	echo "ok 3 - pint_concurrency_equal_share_costs_path_packets"
else
	echo "$out1" | sed 's/^/# /'
	echo "not ok 3 - pint_concurrency_equal_share_costs_path_packets"
fi
