#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_ipfix_refresh.sh - UDP template refresh (RFC 7011 §8.4): a
# hopmark-collector that starts after hopmarkd sent its templates decodes
# the postcards once the next refresh arrives, and counts what it had to
# skip before; so does a restarted collector.
#
# The demo's five-node line (selftests/pbt_lib.sh); A marks every datagram
# of one UDP flow and sends an egress postcard of each; only A's hopmarkd
# runs, exporting over UDP with `postcard export set ... refresh 2`, to a
# gate on the host (selftests/net/ipfix_gate.py) that starts closed: A's
# first templates go nowhere, as to a collector not yet listening.
#   collector 1  starts, the gate opens; 4.5 s later the gate closes and
#                the collector stops (SIGTERM);
#   collector 2  a new process on the same port, the gate opens again:
#                a restarted collector, which again sees data first.
# The gate computes from the messages it forwarded what a collector must
# count, and the checks compare (expected vs observed), per collector:
#   - Data Sets arrived before their template (> 0: the case is real);
#   - ipfix.no_template (collector/counters.c) = those Sets: the collector
#     counts every Set it skipped (their Data Records are in the
#     diagnostics: the collector has no counter of records);
#   - ipfix.postcards = the postcard records forwarded after their
#     template, and the JSON paths are exactly those packets (packet IDs);
#   - a template reached the collector within refresh + 1.5 s of its start;
# and hopmarkd's Template Sets recur every 2 s (1.5 to 3.5 s apart).
# TAP; root; about 30 s.
set -u
HM_PFX=${HM_PFX:-hmrf$$}
PBT_MGMT_NET=${PBT_MGMT_NET:-10.253.$(( $$ % 200 + 20 ))}
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pbt_lib.sh"
SEND="$PY $HM_TOP/selftests/net/pbt_e2e.py send"
GATE="$PY $HM_TOP/selftests/net/ipfix_gate.py"
GATE_PORT=$((20000 + $$ % 20000))	# where A exports
COLL_PORT=$((GATE_PORT + 1))		# where the gate forwards
REFRESH=2				# A's template refresh, s
FLOW_PORT=5311

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD" "$HM_COLLECTOR" "$HM_BPF_DIR/hopmark_pbt.bpf.o"
command -v ss >/dev/null || hm_skip_all "needs ss"
pbt_trap_teardown
hm_tmpdir
T=$HM_TMP

bail() { echo "Bail out! $*"; exit 1; }

pbt_topo_create || bail "topology"
pbt_node_ids || bail "hopmark node set / link set"
PBT_EXPORT_OPTS_a="refresh $REFRESH"
pbt_setup "$GATE_PORT" || bail "hopmark postcard configuration"
pbt_select "proto udp dport $FLOW_PORT" -- all || bail "postcard watch / sample"

$GATE "$GATE_PORT" "127.0.0.1:$COLL_PORT" --bind "$PBT_HOST_ADDR" --stats "$T/gate.json" \
	>"$T/gate.log" 2>&1 &
GATE_PID=$!
HM_BG_PIDS="${HM_BG_PIDS:-} $GATE_PID"
for _ in $(seq 50); do
	ss -Hlun "sport = :$GATE_PORT" | grep -q . && break
	sleep 0.1
done
hm_agent_start a "$T/a.json" || bail "hopmarkd on A"
hm_bg a $SEND "$PBT_B4" "$FLOW_PORT" --count 1500 --rate 100
SENDER=$HM_BG_PID
sleep 1.5	# A has sent its first templates and data: nobody got them

# collector K: start it, open the gate, 4.5 s, close the gate, stop it.
collector_phase()
{
	pbt_collector_start "$T/paths$1.json" "$COLL_PORT" -t 0 -w 300 -s "$T/coll$1.json" ||
		bail "hopmark-collector $1"
	kill -USR1 $GATE_PID
	sleep 4.5
	kill -USR2 $GATE_PID
	sleep 0.3
	pbt_collector_stop
}
collector_phase 1
collector_phase 2
wait $SENDER
hm_agent_stop a
kill $GATE_PID
wait $GATE_PID

[ -s "$T/gate.json" ] || bail "the gate wrote no statistics: $(tail -n 3 "$T/gate.log")"
for k in 1 2; do
	"$PY" - "$T/gate.json" "$((k - 1))" "$T/coll$k.json" "$T/paths$k.json" "$REFRESH" <<'EOF' >"$T/checks$k.tsv" ||
import json, sys
g = json.load(open(sys.argv[1]))
ph = g["phases"][int(sys.argv[2])]
k = int(sys.argv[2]) + 1
try:
	c = json.load(open(sys.argv[3]))["ipfix"]
except (OSError, ValueError, KeyError) as e:
	c = {}
paths = [json.loads(l) for l in open(sys.argv[4]) if l.strip()]
refresh = float(sys.argv[5])
name = "collector %d%s: " % (k, " (restarted)" if k == 2 else "")
print("%sData Sets reached it before their template (> 0)\tTrue\t%s" % (
	name, ph["no_template_sets"] > 0 or "False (%d)" % ph["no_template_sets"]))
print("%sipfix.no_template = the Data Sets it got before their template\t%d\t%s" % (
	name, ph["no_template_sets"], c.get("no_template")))
print("%sipfix.postcards = the postcard records forwarded after their template\t%d\t%s" % (
	name, ph["postcards"], c.get("postcards")))
want = sorted(i for d, i in ph["postcard_ids"])
got = sorted(p["pkt_id"] for p in paths)
print("%sits paths are exactly those packets (%d packet IDs)\t%s\t%s" % (
	name, len(want), "True",
	"True" if want == got else "False (%d paths, %d expected, %d missing, %d extra)" % (
		len(got), len(want), len(set(want) - set(got)), len(set(got) - set(want)))))
ft = ph["first_template"]
print("%sa template arrived within refresh + 1.5 s of its start\tTrue\t%s" % (
	name, "True" if ft is not None and ft - ph["opened"] <= refresh + 1.5 else
	"False (%s)" % (None if ft is None else "%.2f s" % (ft - ph["opened"]))))
sys.stderr.write("# %sskipped %d Data Sets (%d Data Records) before the refresh, "
		 "decoded %d postcards\n" % (name, ph["no_template_sets"],
					      ph["dropped_records"], ph["postcards"]))
EOF
		hm_not_ok "collector $k: checks ran"
	hm_checks_from "$T/checks$k.tsv"
done
hm_check "hopmarkd's Template Sets recur every $REFRESH s (1.5 to 3.5 s apart)" "True" \
	"$("$PY" -c '
import json, sys
t = []
for x in json.load(open(sys.argv[1]))["template_times"]:
	if not t or x - t[-1] > 0.5:	# the Sets of one refresh may take several messages
		t.append(x)
d = [b - a for a, b in zip(t, t[1:])]
print("True" if len(d) >= 4 and all(1.5 <= x <= 3.5 for x in d) else
      "False (%d template messages, gaps %s)" % (len(t), ["%.2f" % x for x in d]))' "$T/gate.json")"
hm_done
