#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_collector_show.sh - `hopmark-collector show FILE` says when it has
# nothing to show: an unknown option is a usage error (exit 2) naming it;
# a missing file or a directory is an error (exit 1) with a message; a
# file whose lines are not paths (truncated JSON, random bytes, JSON
# nested beyond the parser's depth) shows the paths it has and says how
# many lines it skipped; a file with no path at all exits 1 and says so.
# Needs no root.
set -u
HM_PFX=${HM_PFX:-hmt-cshow$$}
. "$(dirname "$0")/../lib.sh"
COLLECTOR=${COLLECTOR:-$HM_BUILD/hopmark-collector}
hm_require_built "$COLLECTOR"
hm_tmpdir
trap 'rm -rf "$HM_TMP"' EXIT

PATH1='{"pkt_id":7,"time":"2026-01-01T00:00:00Z","family":4,"src":"192.0.2.1","dst":"198.51.100.2","sport":1,"dport":2,"proto":17,"drop":"none","e2e_ns":10,"hops":[{"node":1},{"node":2}]}'
printf '{"pkt_id":7,"hops":[' >"$HM_TMP/truncated"
head -c 4096 /dev/urandom | tr -d '\n' >"$HM_TMP/random"
echo >>"$HM_TMP/random"
"$PY" -c 'print("[" * 100000 + "]" * 100000)' >"$HM_TMP/nested"
{ echo "$PATH1"; echo 'not json'; echo '{"x":1}'; } >"$HM_TMP/mixed"

# run ARGS... - "rc=N" then stderr, on one line; stdout to $HM_TMP/out
run() { local e rc; e=$("$COLLECTOR" show "$@" 2>&1 >"$HM_TMP/out"); rc=$?; echo "rc=$rc $e" | tr '\n' ' '; }
has() { grep -q -- "$2" <<<"$1" && echo yes || echo "no: $1"; }

o=$(run --bogus)
hm_check unknown_option_is_usage_error_exit_2 "rc=2" "${o%% *}"
hm_check unknown_option_is_named yes "$(has "$o" 'unknown option "--bogus"')"
o=$(run "$HM_TMP/none")
hm_check missing_file_exit_1 "rc=1" "${o%% *}"
hm_check missing_file_message yes "$(has "$o" 'No such file')"
o=$(run "$HM_TMP")
hm_check directory_exit_1 "rc=1" "${o%% *}"
hm_check directory_message yes "$(has "$o" 'Is a directory')"
for f in truncated random nested; do
	o=$(run "$HM_TMP/$f")
	hm_check "${f}_file_without_paths_exit_1" "rc=1" "${o%% *}"
	hm_check "${f}_file_says_no_path" yes "$(has "$o" 'no path in it')"
	hm_check "${f}_file_says_lines_skipped" yes "$(has "$o" '1 line skipped')"
done
o=$(run "$HM_TMP/mixed")
hm_check mixed_file_exit_0 "rc=0" "${o%% *}"
hm_check mixed_file_says_2_lines_skipped yes "$(has "$o" '2 lines skipped')"
hm_check mixed_file_shows_its_path yes "$(has "$(cat "$HM_TMP/out")" 'packet .* id 0x00000007')"
o=$(run - <"$HM_TMP/mixed")
hm_check stdin_shows_its_path "rc=0" "${o%% *}"
hm_done
