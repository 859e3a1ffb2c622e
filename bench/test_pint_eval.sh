#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Smoke test of build/bench/pint-eval (TAP): a few trials per cell, every
# decoded path checked against the true one by the evaluator itself.
here=$(cd "$(dirname "$0")/.." && pwd)
eval_bin="$here/build/bench/pint-eval"
# The repository's copy of the Topology Zoo graph (lib/tests/data/README.md).
topo="$here/lib/tests/data/topologies/UsCarrier.gml"

echo "1..2"
if out=$("$eval_bin" -k 12 -t 20 -u 256 2>&1) &&
   echo "$out" | grep -q '^hybrid *blind'; then
	echo "ok 1 - pint_eval_path_length_decodes_every_trial"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 1 - pint_eval_path_length_decodes_every_trial"
fi
if [ ! -r "$topo" ]; then
	echo "# $topo: not readable; it is part of the repository"
	echo "not ok 2 - pint_eval_topology_decodes_every_trial"
elif out=$("$eval_bin" -g "$topo" -t 5 -b 4,16 2>&1) &&
     echo "$out" | grep -q '^hybrid *topo' && echo "$out" | grep -q '^AMS2'; then
	echo "ok 2 - pint_eval_topology_decodes_every_trial"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 2 - pint_eval_topology_decodes_every_trial"
fi
