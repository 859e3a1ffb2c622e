#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# bench/run.sh - run the benchmarks of bench/run.d/ one after another
# (`make bench`), print each one's table and gather their JSON.
#
#   bench/run.sh [-q] [-o DIR] [NAME...]
#
#   -q      quick: each bench runs a few iterations only (HM_BENCH_QUICK=1),
#           seconds in all; make check's smoke run (bench/test_bench_run.py)
#   -o DIR  where the JSON goes (default build/bench/results): DIR/NAME.json
#           per bench and DIR/bench.json holding them all
#   NAME    only the benches of these names (default: all)
#
# A bench is an executable bench/run.d/NN-NAME.sh (NN orders them), run as
# `bench/run.d/NN-NAME.sh FILE.json` with HM_BUILD (the build directory) and
# HM_BENCH_QUICK (empty or 1) in its environment. It prints its table on
# standard output, writes every figure to FILE.json (one JSON object, with
# the kernel and CPU it ran on), and exits 0; 4 with a line "SKIP: why"
# when it cannot run here (not root, a tool missing); anything else is a
# failure. Adding a bench is adding one such file.
#
# Exit status: 0 when no bench failed (skips are not failures), 1 otherwise.

top=$(cd "$(dirname "$0")/.." && pwd)
HM_BUILD=${HM_BUILD:-$top/build}
HM_BENCH_QUICK=
out=$HM_BUILD/bench/results

usage() {
	echo "usage: bench/run.sh [-q] [-o DIR] [NAME...]" >&2
	exit 2
}

while getopts qo: opt; do
	case $opt in
	q) HM_BENCH_QUICK=1 ;;
	o) out=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
export HM_BUILD HM_BENCH_QUICK
mkdir -p "$out" || exit 1

ran=''
failed=0
skipped=0
for b in "$top"/bench/run.d/*.sh; do
	[ -x "$b" ] || continue
	name=$(basename "$b" .sh)
	name=${name#[0-9][0-9]-}
	if [ $# -gt 0 ]; then
		want=
		for n in "$@"; do
			[ "$n" = "$name" ] && want=1
		done
		[ -n "$want" ] || continue
	fi
	echo "== $name"
	rm -f "$out/$name.json"
	"$b" "$out/$name.json"
	rc=$?
	case $rc in
	0)
		if [ -s "$out/$name.json" ]; then
			ran="$ran $name"
		else
			echo "bench $name: exited 0 without writing $out/$name.json"
			failed=$((failed + 1))
		fi
		;;
	4)
		skipped=$((skipped + 1))
		;;
	*)
		echo "bench $name: failed (exit $rc)"
		failed=$((failed + 1))
		;;
	esac
done

# One file with every bench that ran: {"benches": {"NAME": {...}, ...}}.
# shellcheck disable=SC2086 # $ran: the names, one word each
python3 - "$out" $ran <<'PY' || failed=$((failed + 1))
import json, sys
out, names = sys.argv[1], sys.argv[2:]
benches = {}
for n in names:
    with open('%s/%s.json' % (out, n)) as f:
        benches[n] = json.load(f)
with open('%s/bench.json' % out, 'w') as f:
    json.dump({'benches': benches}, f, indent=1)
    f.write('\n')
PY
# shellcheck disable=SC2086
set -- $ran
echo "bench: $# ran, $skipped skipped, $failed failed; JSON in $out/bench.json"
[ "$failed" -eq 0 ]
