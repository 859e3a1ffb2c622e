#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Smoke test of build/bench/agent-bench (TAP), a few seconds: one round
# of 2000 records per path and 20 ms loss runs, so the bench cannot rot.
# It exits 0 (it fails on its own when a flow-controlled run loses a
# record or a record does not decode); its JSON has every row with a
# positive rate; the DOM-free writer formats faster than json-c's tree
# and the binary monitor stream costs less than the JSON one (ratios of
# CPU times in the same run, not timings); the loss
# fractions are fractions.
set -u
HM_PFX=${HM_PFX:-hmab$$}
. "$(dirname "$0")/../selftests/lib.sh"
bin="$HM_TOP/build/bench/agent-bench"

[ "$(id -u)" -eq 0 ] || hm_skip_all "agent-bench needs root (BPF_PROG_TEST_RUN)"
hm_require_built "$bin"
hm_tmpdir
trap 'rm -rf "$HM_TMP"' EXIT

"$bin" -n 2000 -r 1 -l 20 -o "$HM_TMP/agent.json" >"$HM_TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$HM_TMP/out"
hm_check "agent_bench_exits_0" 0 "$rc"
[ -s "$HM_TMP/agent.json" ] || echo '{"rows": []}' >"$HM_TMP/agent.json"
"$PY" - "$HM_TMP/agent.json" >"$HM_TMP/checks.tsv" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
rows = {(r["trace"], r["path"]): r for r in d["rows"]}
paths = ["format_jsonc", "format_direct", "ring_decode", "ring_json", "ring_monitor",
         "ring_monitor_binary"]
want = [(t, p) for t in ("small", "full") for p in paths]
print("agent_bench_has_every_row\t%d\t%d" % (len(want), sum(k in rows for k in want)))
print("agent_bench_rates_positive\tTrue\t%s" %
      all(rows[k]["per_core"]["median"] > 0 for k in want if k in rows))
for t in ("small", "full"):
    r = rows.get((t, "format_direct"))
    print("agent_bench_%s_direct_writer_over_2x_json_c\tTrue\t%s" %
          (t, r is not None and r["vs_jsonc"] > 2))
# The binary stream spares the JSON writer: for the 2029-byte full-trace
# line, the binary monitor path must cost less CPU per record than the
# JSON one (a ratio in the same run; about 5x on the build host).
j, b = rows.get(("full", "ring_monitor")), rows.get(("full", "ring_monitor_binary"))
print("agent_bench_full_binary_monitor_faster_than_json_monitor\tTrue\t%s" %
      (j is not None and b is not None and b["per_core"]["median"] > j["per_core"]["median"]))
print("agent_bench_loss_fractions_in_0_1\tTrue\t%s" %
      all(0 <= rows[k][l]["fraction"] <= 1 for k in want if k in rows and k[1].startswith("ring")
          for l in ("loss_2x", "loss_goal")))
print("agent_bench_json_has_kernel_cpu_ring\tTrue\t%s" %
      all(d.get(f) for f in ("kernel", "cpu", "ring_bytes")))
PYEOF
hm_checks_from "$HM_TMP/checks.tsv"
hm_done
