#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# The IP traceback baselines of build/bench/pint-eval (TAP): PPM and AMS2
# (bench/traceback_ppm.c, traceback_ams2.c) must reconstruct the true path
# in every trial (the evaluator compares it and exits 1 otherwise), and
# AMS2 accepting a router only on all m = 8 FlagIDs must cost about what
# PPM's 8 fragments cost, not an order of magnitude less.
here=$(cd "$(dirname "$0")/.." && pwd)
eval_bin="$here/build/bench/pint-eval"
topo="$here/lib/tests/data/topologies/UsCarrier.gml"

echo "1..4"
fail=0
if [ ! -x "$eval_bin" ]; then
	echo "# $eval_bin: not built (make bench)"
	for i in 1 2 3 4; do echo "not ok $i - traceback_eval_built"; done
	exit 1
fi

# The median of the PPM or AMS2 line: "...): MEDIAN / P99".
median() {
	sed -n "s/^$1 .*): \([0-9]*\) \/ [0-9]*.*/\1/p"
}

n=1
check_decodes() {
	name=$1; shift
	if out=$("$eval_bin" "$@" 2>&1) &&
	   echo "$out" | grep -q '^PPM ' &&
	   ! echo "$out" | grep -q 'not decoded\|wrong'; then
		echo "ok $n - $name"
	else
		echo "$out" | sed 's/^/# /'
		echo "# expected: exit 0, a PPM line, no trial not decoded or wrong"
		echo "not ok $n - $name"
		fail=1
	fi
	n=$((n + 1))
}

check_decodes traceback_ppm_reconstructs_true_path_of_length_k -k 20 -u 256 -t 30 -S baseline -b 16
if [ ! -r "$topo" ]; then
	echo "# $topo: not readable; it is part of the repository"
	echo "not ok 2 - traceback_ppm_and_ams2_reconstruct_true_path_on_topology"
	fail=1
	n=3
else
	check_decodes traceback_ppm_and_ams2_reconstruct_true_path_on_topology \
		-g "$topo" -t 30 -S baseline -b 16
fi

# AMS2 with all 8 FlagIDs needs 8 marks per distance, as PPM needs 8
# fragments: the medians agree within sampling noise (100 trials).
out=$("$eval_bin" -g "$topo" -t 100 -S baseline -b 16 2>&1)
ppm=$(echo "$out" | median PPM)
ams=$(echo "$out" | median AMS2)
if [ -n "$ppm" ] && [ -n "$ams" ] &&
   [ $((ams * 4)) -ge $((ppm * 3)) ] && [ $((ams * 3)) -le $((ppm * 4)) ]; then
	echo "ok 3 - traceback_ams2_all_flagids_costs_like_ppm"
else
	echo "# expected: AMS2 median within 3/4..4/3 of PPM's; observed PPM '$ppm' AMS2 '$ams'"
	echo "not ok 3 - traceback_ams2_all_flagids_costs_like_ppm"
	fail=1
fi

# Accepting on 4 of the 8 FlagIDs waits for fewer marks per distance.
out4=$("$eval_bin" -g "$topo" -t 100 -S baseline -b 16 -A 4 2>&1)
ams4=$(echo "$out4" | median AMS2)
if [ -n "$ams4" ] && [ -n "$ams" ] && [ $((ams4 * 5)) -le $((ams * 4)) ] &&
   ! echo "$out4" | grep -q 'not decoded\|wrong'; then
	echo "ok 4 - traceback_ams2_fewer_flagids_accepts_sooner"
else
	echo "# expected: AMS2 -A 4 median <= 4/5 of -A 8 ($ams), every path right; observed '$ams4'"
	echo "not ok 4 - traceback_ams2_fewer_flagids_accepts_sooner"
	fail=1
fi
exit $fail
