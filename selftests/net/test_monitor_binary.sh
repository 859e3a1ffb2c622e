#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_monitor_binary.sh - the binary stream of hopmarkd's monitor socket
# (Documentation/agent.rst, "Monitor socket protocol") on real records: the
# demo topology, hm_decap on B's b-r3, hopmarkd on B writing -o.
#
#   1. The same 20 records read at once by `hopmark -j monitor`, `hopmark
#      -j monitor binary`, `hopmark monitor` and `hopmark monitor binary`:
#      the binary path prints the JSON path's lines and tables byte for
#      byte, and those are the -o file's lines.
#   2. A client written from the documented layout alone (hm_monitor_bin.py)
#      reads the binary stream: every header and hop field it decodes
#      equals the JSON line of the same record (null = all-ones).
#   3. Bad requests: an unknown one, a version the agent does not speak, a
#      line without its newline, a line too long: each answered with one
#      "hopmark-monitor error: ..." line and EOF, counted
#      (clients_bad_requests), logged; the agent keeps running and serves
#      the next client.
#   4. A binary client that stops reading while 6000 records arrive: the
#      agent drops it as too slow (clients_dropped_slow), logs it, keeps
#      writing every record to -o; the client gets whole frames, then EOF.
set -u
HM_PFX=${HM_PFX:-hmmb$$}
. "$(dirname "$0")/../lib.sh"
NET=$(dirname "$0")
BIN="$PY $NET/hm_monitor_bin.py"
N=20

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
hm_trap_teardown
hm_tmpdir
T=$HM_TMP

hm_topo_create || { echo "Bail out! topology"; exit 1; }
hm_setup_cli || { echo "Bail out! hopmark CLI configuration failed"; exit 1; }
hm_agent_start b "$T/out.json" -i 0 || { echo "Bail out! hopmarkd on B"; exit 1; }
AGENT=$HM_AGENT_PID_b
SOCK=$(hm_rundir b)/hopmarkd.sock

stat() { hm_agent_stat "$T/out.json.log" "$AGENT" agent "$1"; }

# wait_stat KEY VALUE - until the agent's KEY is VALUE (5 s at most).
wait_stat()
{
	local i
	for i in $(seq 25); do
		[ "$(stat "$1")" = "$2" ] && return 0
		sleep 0.2
	done
	return 1
}

# wait_pids PID... - until they exit (20 s at most).
wait_pids()
{
	local p i
	for p in "$@"; do
		for i in $(seq 200); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
	done
}

# ----------------------------- 1. the CLI's binary and JSON paths agree

hm_bg b "$HOPMARK" -j monitor count $N >"$T/j.json" 2>"$T/j.err"; P1=$HM_BG_PID
hm_bg b "$HOPMARK" -j monitor binary count $N >"$T/jb.json" 2>"$T/jb.err"; P2=$HM_BG_PID
hm_bg b "$HOPMARK" monitor count $N >"$T/t.txt" 2>"$T/t.err"; P3=$HM_BG_PID
hm_bg b "$HOPMARK" monitor binary count $N >"$T/tb.txt" 2>"$T/tb.err"; P4=$HM_BG_PID
wait_stat clients_connected 4 || hm_log "the monitors did not all connect"
wait_stat clients_binary 2 || hm_log "the binary monitors' requests were not seen"
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count $N --size 200 --interval 0.02
wait_pids $P1 $P2 $P3 $P4
hm_check "json_path_prints_N_lines" $N "$(wc -l <"$T/j.json")"
hm_check "binary_path_prints_the_json_paths_lines_byte_for_byte" "$(md5sum <"$T/j.json")" \
	"$(md5sum <"$T/jb.json")"
hm_check "json_lines_are_the_agents_output" "$(head -n $N "$T/out.json" | md5sum)" \
	"$(md5sum <"$T/j.json")"
hm_check "text_counts_N_records" 1 "$(grep -c "^$N records$" "$T/t.txt")"
hm_check "binary_path_prints_the_same_tables_and_summary" "$(md5sum <"$T/t.txt")" \
	"$(md5sum <"$T/tb.txt")"
hm_check "binary_monitors_say_nothing_on_stderr" "" "$(cat "$T/jb.err" "$T/tb.err")"
hm_check "binary_requests_counted" 2 "$(stat clients_binary)"
[ -n "${HM_VERBOSE:-}" ] && sed 's/^/#   /' "$T/tb.txt" | head -n 12

# --------------- 2. the documented layout, decoded by another program

hm_bg b $BIN read "$SOCK" $N "$T/doc.jsonl" 2>"$T/doc.err"; P5=$HM_BG_PID
wait_stat clients_binary 3 || hm_log "the layout reader's request was not seen"
L0=$(wc -l <"$T/out.json")
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count $N --size 300 --interval 0.02
wait_pids $P5
hm_wait_lines "$T/out.json" $((L0 + N))
sed 's/^/#   /' "$T/doc.err"
"$PY" - "$T/doc.jsonl" "$T/out.json" $L0 $N >"$T/fields.tsv" <<'PYEOF'
import json, sys
doc = [json.loads(l) for l in open(sys.argv[1])]
pre = doc.pop(0)["lines"]
recs = [d for d in doc if "rx_ns" in d]
out = [json.loads(l) for l in open(sys.argv[2])][int(sys.argv[3]):]
n = int(sys.argv[4])
# Records the agent sent as JSON lines before it read the request come first.
js = [json.loads(l) for l in pre] + out
def na(v, ones):
    return None if v == ones else v
bad = []
for i, (b, j) in enumerate(zip(recs, js)):
    want = {
        "rx_ns": j["rx_ns"], "ifindex": j["sink"]["ifindex"],
        "sink_if_id": j["sink"]["if_id"], "sink_node_id": j["sink"]["node_id"],
        "saddr": j["packet"]["src"], "daddr": j["packet"]["dst"],
        "flow_label": j["packet"]["flow_label"], "payload_len": j["packet"]["payload_len"],
        "hop_limit": j["packet"]["hop_limit"], "proto": j["packet"]["proto"],
        "sport": j["packet"]["sport"], "dport": j["packet"]["dport"],
        "ns_id": j["namespace"], "trace_type": int(j["trace_type"], 16),
        "nodelen": j["node_len"], "remlen": j["remaining_len"], "data_len": j["data_len"],
        "overflow": int(j["overflow"]), "n_nodes": len(j["hops"]), "reserved": 0,
    }
    got = {k: b[k] for k in want}
    got["sink_if_id"] = na(got["sink_if_id"], 0xffff)
    got["sink_node_id"] = na(got["sink_node_id"], 0xffffff)
    if got != want:
        bad.append("record %d header: %s" % (i, {k: (want[k], got[k]) for k in want if want[k] != got[k]}))
    for h, (bn, jh) in enumerate(zip(b["nodes"], j["hops"])):
        m = {"hop_limit": (bn["hop_limit"], None), "node_id": (bn["node_id"], 0xffffff),
             "ingress_if": (bn["ingress_if"], 0xffff), "egress_if": (bn["egress_if"], 0xffff),
             "timestamp_sec": (bn["ts_sec"], 0xffffffff),
             "timestamp_frac": (bn["ts_frac"], 0xffffffff),
             "transit_delay_ns": (None if bn["transit_delay"] == 0xffffffff
                                  else bn["transit_delay"] & 0x7fffffff, None),
             "namespace_data": (bn["ns_data"], 0xffffffff),
             "queue_depth": (bn["queue_depth"], 0xffffffff),
             "checksum_complement": (bn["csum_compl"], 0xffffffff),
             "node_id_wide": (bn["node_id_wide"], 0x00ffffffffffffff),
             "ingress_if_wide": (bn["ingress_if_wide"], 0xffffffff),
             "egress_if_wide": (bn["egress_if_wide"], 0xffffffff),
             "namespace_data_wide": (bn["ns_data_wide"], 0xffffffffffffffff),
             "buffer_occupancy": (bn["buffer_occupancy"], 0xffffffff)}
        for k, (v, ones) in m.items():
            if k in jh and jh[k] != na(v, ones):
                bad.append("record %d hop %d %s: json %r binary %r" % (i, h + 1, k, jh[k], v))
        if bn["reserved"]:
            bad.append("record %d hop %d reserved %d" % (i, h + 1, bn["reserved"]))
print("layout_reader_got_N_records\t%d\t%d" % (n, len(recs)))
print("layout_reader_fields_equal_the_json_lines\t0 fields differ\t%d fields differ%s" %
      (len(bad), (": " + "; ".join(bad[:3])) if bad else ""))
print("layout_reader_records_carry_4_hops\tTrue\t%s" %
      all(r["n_nodes"] == 4 for r in recs))
PYEOF
hm_checks_from "$T/fields.tsv"

# ------------------------------------------------ 3. bad requests

BAD0=$(stat clients_bad_requests)
req() { hm_on b $BIN request "$SOCK" "$1"; }
hm_check "unknown_request_gets_an_error_line_then_eof" \
	'{"reply": "hopmark-monitor error: unknown request \"hello\" (this hopmarkd knows \"hopmark-monitor binary 1\")\n", "eof": true}' \
	"$(req 'hello\n')"
hm_check "unspoken_version_gets_an_error_line_then_eof" \
	'{"reply": "hopmark-monitor error: binary stream version \"2\" not spoken (this hopmarkd speaks 1)\n", "eof": true}' \
	"$(req 'hopmark-monitor binary 2\n')"
hm_check "request_without_newline_gets_an_error_line_then_eof" \
	'{"reply": "hopmark-monitor error: request line not ended by a newline\n", "eof": true}' \
	"$(hm_on b "$PY" -c '
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1]); s.settimeout(5)
s.sendall(b"hopmark-monitor binary 1"); s.shutdown(socket.SHUT_WR)
b = b""
while True:
	d = s.recv(4096)
	if not d:
		break
	b += d
print(json.dumps({"reply": b.decode(), "eof": True}))' "$SOCK")"
hm_check "overlong_request_gets_an_error_line_then_eof" \
	'{"reply": "hopmark-monitor error: request line longer than 255 bytes\n", "eof": true}' \
	"$(req "$(printf 'x%.0s' $(seq 300))")"
hm_check "bad_requests_counted" $((BAD0 + 4)) "$(stat clients_bad_requests)"
sleep 1.2	# the once-a-second report
hm_check "bad_requests_logged_with_the_last_reason" 1 \
	"$(grep -c 'monitor request(s) refused in the last second (last: request line longer than 255 bytes), 4 in all' "$T/out.json.log")"
hm_check "agent_runs_after_bad_requests" True "$(kill -0 "$AGENT" 2>/dev/null && echo True || echo False)"
hm_bg b "$HOPMARK" -j monitor binary count 1 >"$T/after.json" 2>"$T/after.err"; P6=$HM_BG_PID
wait_stat clients_binary 4 || hm_log "the last monitor's request was not seen"
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count 1 --size 200
wait_pids $P6
hm_check "agent_serves_the_next_binary_client" 1 "$(wc -l <"$T/after.json")"
# The CLI against a refusal: an "agent" that speaks another version only
# (a listener of this test's, at the socket path of HOPMARK_RUNDIR).
mkdir -p "$T/fake"
"$PY" -c '
import socket, sys
l = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
l.bind(sys.argv[1]); l.listen(1)
c, _ = l.accept(); c.settimeout(5)
req = c.recv(256)
c.sendall(b"hopmark-monitor error: binary stream version \"1\" not spoken (this hopmarkd speaks 2)\n")
c.close()
open(sys.argv[2], "wb").write(req)' "$T/fake/hopmarkd.sock" "$T/fake/req" &
FAKE=$!
for i in $(seq 50); do [ -S "$T/fake/hopmarkd.sock" ] && break; sleep 0.1; done
HOPMARK_RUNDIR=$T/fake "$HOPMARK" monitor binary count 1 >"$T/fake/out" 2>"$T/fake/err"
RC=$?
wait $FAKE
hm_check "cli_sends_the_documented_request" "hopmark-monitor binary 1" "$(cat "$T/fake/req")"
hm_check "cli_fails_on_the_agents_refusal" 1 "$RC"
hm_check "cli_names_the_agents_reason" 1 \
	"$(grep -c 'hopmarkd refused the binary stream: binary stream version "1" not spoken (this hopmarkd speaks 2)' "$T/fake/err")"

# -------------------------------------------------- 4. a slow binary client

SLOW0=$(stat clients_dropped_slow)
L0=$(wc -l <"$T/out.json")
hm_bg b $BIN stall "$SOCK" "$T/go" "$T/stall.json"; P7=$HM_BG_PID
wait_stat clients_binary 5 || hm_log "the stalled client's request was not seen"
P0=$(( $(hm_counter b b-r3 decap_ok) + $(hm_counter b b-r3 decap_err) ))
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count 6000 --size 200 --interval 0
wait_stat clients_dropped_slow $((SLOW0 + 1)) || hm_log "the stalled client was not dropped"
touch "$T/go"
wait_pids $P7
P1=$(( $(hm_counter b b-r3 decap_ok) + $(hm_counter b b-r3 decap_err) ))
hm_wait_lines "$T/out.json" $((L0 + P1 - P0))
sleep 1.2	# the once-a-second report
hm_check "slow_binary_client_dropped_and_counted" $((SLOW0 + 1)) "$(stat clients_dropped_slow)"
hm_check "slow_client_drop_logged" 1 \
	"$(grep -c 'monitor client(s) dropped as too slow in the last second (more than 1048576 bytes queued)' "$T/out.json.log")"
hm_check "slow_client_got_the_ack_whole_frames_then_eof" "True True" \
	"$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["ack"], d["eof"] and d["frames"] > 0)' "$T/stall.json")"
echo "# stalled client: $(cat "$T/stall.json"); datapath records $((P1 - P0))"
hm_check "every_record_still_written_to_the_output" $((P1 - P0)) "$(( $(wc -l <"$T/out.json") - L0 ))"
hm_check "no_ring_loss_or_decode_error" "0 0" "$(stat ring_lost) $(stat decode_errors)"
hm_check "agent_runs_after_the_drop" True "$(kill -0 "$AGENT" 2>/dev/null && echo True || echo False)"
hm_agent_stop b
hm_done
