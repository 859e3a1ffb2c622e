#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# fuzz_smoke.sh - every libFuzzer harness of fuzz/build.mk runs a fixed
# number of executions (FUZZ_SMOKE_RUNS, default 50000, seed 1) starting
# from its committed seeds in fuzz/corpus/NAME: each seed once, then
# mutations of them. One TAP line per harness: ok when libFuzzer finishes
# without a crash, a leak, an AddressSanitizer or UndefinedBehaviorSanitizer
# report, or a harness check (__builtin_trap) firing. The seeds include
# the inputs of every bug fuzzing found, so this is their regression test.
# New inputs and artifacts go to a temporary directory, never to
# fuzz/corpus.
#
#   fuzz_smoke.sh                run (make fuzz-smoke; make check runs it)
#   fuzz_smoke.sh --probe CLANG  exit 0 if CLANG links -fsanitize=fuzzer
set -u
HM_FUZZ_TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$HM_FUZZ_TOP/selftests/lib.sh"

RUNS=${FUZZ_SMOKE_RUNS:-50000}
NAMES="ioam_decode capture record_json postcard gml pint_sink int_decode ipfix"

# Can $1 build a libFuzzer program with ASan and UBSan? (Debian: clang
# needs libclang-rt-14-dev for it.)
probe()
{
	local d rc
	d=$(mktemp -d) || return 1
	printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }\n' \
		>"$d/p.c"
	"$1" -fsanitize=fuzzer,address,undefined "$d/p.c" -o "$d/p" >"$d/err" 2>&1
	rc=$?
	[ $rc -eq 0 ] || head -n 3 "$d/err" >&2
	rm -rf "$d"
	return $rc
}

if [ "${1:-}" = --probe ]; then
	probe "${2:-clang}"
	exit
fi

command -v "${CLANG:-clang}" >/dev/null || hm_skip_all "needs clang (make deps)"
probe "${CLANG:-clang}" 2>/dev/null ||
	hm_skip_all "${CLANG:-clang} cannot link -fsanitize=fuzzer,address,undefined (Debian: libclang-rt-14-dev)"
for n in $NAMES; do
	[ -x "$HM_BUILD/fuzz/fuzz_$n" ] || hm_skip_all "not built: $HM_BUILD/fuzz/fuzz_$n (make fuzz)"
done

TMP=$(mktemp -d /tmp/hm_fuzz_smoke.XXXXXX) || exit 1
trap 'rm -rf "$TMP"' EXIT
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

hm_plan "$(echo $NAMES | wc -w)"
for n in $NAMES; do
	seeds="$HM_FUZZ_TOP/fuzz/corpus/$n"
	nseeds=$(find "$seeds" -type f | wc -l)
	mkdir -p "$TMP/$n"
	start=$(date +%s.%N)
	"$HM_BUILD/fuzz/fuzz_$n" -runs="$RUNS" -seed=1 -artifact_prefix="$TMP/$n/" \
		"$TMP/$n" "$seeds" >"$TMP/$n.log" 2>&1
	rc=$?
	secs=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
	if [ $rc -eq 0 ] && grep -q "^Done $RUNS runs" "$TMP/$n.log"; then
		hm_ok "fuzz_$n: $RUNS runs from $nseeds seeds in $secs s, no crash, leak or sanitizer report"
	else
		hm_not_ok "fuzz_$n: $RUNS runs from $nseeds seeds"
		echo "#   expected: \"Done $RUNS runs\" and exit 0"
		echo "#   observed: exit $rc; the end of libFuzzer's output:"
		grep -v '^#[0-9]' "$TMP/$n.log" | tail -n 25 | sed 's/^/#   /'
		for a in "$TMP/$n"/crash-* "$TMP/$n"/leak-* "$TMP/$n"/timeout-* "$TMP/$n"/oom-*; do
			[ -e "$a" ] && echo "#   input: $(od -An -tx1 -v "$a" | tr -d ' \n' | head -c 400)"
		done
	fi
done
hm_done
