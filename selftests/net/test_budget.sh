#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_budget.sh - `hopmark budget`, the in-band metadata budget model of
# seed 000 (Documentation/budget.rst): the default run gives every number of
# panels A-D, then the 16-byte convention, the IOAM pre-allocated rows and
# the PINT rows, in the panels' order, each checked against the model's
# formulas recomputed by hm_check_budget.py (python3, not hopmark's code);
# the options change exactly the numbers they should (--mtu, --hops,
# --bitmap, --trace-type, --rate, --pkt, --sampling, in text and with -j);
# -j is one JSON object with the same numbers; bad options exit 2 with an
# error naming the argument; `hopmark budget help` prints the usage.
# Needs no root: the model reads nothing from the node.
set -u
HM_PFX=${HM_PFX:-hmt-budget$$}
. "$(dirname "$0")/../lib.sh"

hm_require_built "$HOPMARK"
command -v "$PY" >/dev/null || hm_skip_all "needs python3"
hm_tmpdir
trap 'rm -rf "$HM_TMP"' EXIT

# model NAME MODE ARGS... - every check of hm_check_budget.py, prefixed
model()
{
	local name=$1 mode=$2
	shift 2
	"$PY" "$HM_TOP/selftests/net/hm_check_budget.py" "$mode" "$HOPMARK" "$@" \
		>"$HM_TMP/checks" 2>&1 || { hm_not_ok "${name}_checker_ran"; cat "$HM_TMP/checks"; return; }
	sed -i "s/^/${name}_/" "$HM_TMP/checks"
	hm_checks_from "$HM_TMP/checks"
}

# The seed's run: panels A-D with its constants, then the rest.
model default text
model default json

# Every option at once, and -j after "budget" as well as before it.
OPTS=(--mtu 9000,1280,576 --hops 4,32 --bitmap 0xfc00 --trace-type 0xf00000
      --rate 100G --pkt 64 --sampling 1:10,0.5,1:3)
model options text "${OPTS[@]}"
model options json "${OPTS[@]}"
hm_check "options_j_after_budget_is_the_same_document" "same" \
	"$(cmp -s <("$HOPMARK" -j budget "${OPTS[@]}") <("$HOPMARK" budget "${OPTS[@]}" -j) &&
	   echo same || echo differ)"
# Each option alone changes only its own numbers.
model mtu_only text --mtu 1280
model hops_only text --hops 12
model bitmap_only text --bitmap 0x8040
model trace_type_only text --trace-type 0xff0002
model rate_only json --rate 400G
model pkt_only json --pkt 1500
model sampling_only text --sampling 1:100

# Usage errors: exit 2, the message names the argument.
# usage_err NAME WORD ARGS... - hopmark budget ARGS exits 2 naming WORD
usage_err()
{
	local name=$1 word=$2 rc
	shift 2
	"$HOPMARK" budget "$@" >"$HM_TMP/out" 2>"$HM_TMP/err"
	rc=$?
	hm_check "$name" "rc 2, names \"$word\"" \
		"rc $rc, $(grep -q "\"$word\"" "$HM_TMP/err" && echo "names \"$word\"" ||
			   echo "stderr: $(head -c 200 "$HM_TMP/err")")"
}
usage_err usage_mtu_zero 0 --mtu 0
usage_err usage_mtu_too_many 1,2,3,4,5 --mtu 1,2,3,4,5
usage_err usage_hops_not_a_number x --hops x
usage_err usage_bitmap_too_wide 0x10000 --bitmap 0x10000
usage_err usage_bitmap_selects_nothing 0 --bitmap 0
usage_err usage_trace_type_selects_nothing 0x000001 --trace-type 0x000001
usage_err usage_rate_bad_unit 5X --rate 5X
usage_err usage_pkt_zero 0 --pkt 0
usage_err usage_sampling_not_1_n 2:3 --sampling 2:3
usage_err usage_sampling_above_one 1.5 --sampling 1.5
usage_err usage_unknown_option --bogus --bogus
usage_err usage_missing_value --mtu --mtu

"$HOPMARK" budget help >"$HM_TMP/help" 2>&1
hm_check "help_exits_0_with_usage" "0 Usage: hopmark [ -j ] budget [ OPTIONS ]" \
	"$? $(head -1 "$HM_TMP/help")"
hm_check "help_names_every_option" "--mtu --hops --bitmap --trace-type --rate --pkt --sampling -j" \
	"$(for o in --mtu --hops --bitmap --trace-type --rate --pkt --sampling -j; do
		grep -q -- "$o" "$HM_TMP/help" && printf '%s ' "$o"; done | sed 's/ $//')"
hm_done
