#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_int_monitor.sh - `hopmark monitor` shows the INT datapath's records
# (Documentation/int.rst, "Monitoring INT"): records of every kind (SINK,
# XD, MX, DROP, QUEUE) put on the pinned int_events ring with int_feed
# (as test_int_report.sh does) reach hopmarkd, which writes one JSON line
# per record on its monitor socket and its output; int_monitor_check.py
# compares them with the records fed:
#
#   1. `hopmark -j monitor count 5`: every key of every line (the record's
#      kind, time, interface, node ID, D/Q/F/I, RepMdBits, the metadata
#      and drop reason its report carries, the signalling, the packet in
#      hex and decoded, its INT-MD stack hop for hop);
#   2. the agent's -o file holds the same lines, byte for byte;
#   3. `hopmark monitor count 5`: a table per record (header line,
#      metadata row, the packet's INT stack in path order);
#   4. `hopmark monitor file` of a line changed by hand (a hop's value)
#      rejects it: the line is not shown, the command fails;
#   5. json_lines counts the records in the agent's statistics line.
# No collector is configured: the lines do not depend on one. Every
# daemon is stopped by its PID.
set -u
HM_PFX=${HM_PFX:-hmim$$}
. "$(dirname "$0")/../lib.sh"
NET=$(cd "$(dirname "$0")" && pwd)
FEED=$HM_BUILD/tests/net/int_feed
FEED_OBJ=$HM_BUILD/tests/net/int_feed.bpf.o
CASE="$PY $NET/int_report_case.py"
CHECK="$PY $NET/int_monitor_check.py"
PORT=5555

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD" "$FEED" "$FEED_OBJ"

hm_solo_cleanup_hook() { hm_bg_stop; }
hm_solo_node
T=$HM_TMP

feed() { x "$FEED" "$FEED_OBJ" "$@"; }

# agent_stat KEY [PART] - KEY of the PART (int_reports) part of the statistics line now.
agent_stat() { hm_agent_stat "$T/agent.log" "$AGENT" "${2:-int_reports}" "$1"; }

# monitor OUT ARGS... - `hopmark ARGS...` in the background until it has
# connected (clients_connected 1 in the agent's statistics), pid in MON.
monitor()
{
	local out=$1 i
	shift
	hm_bg x "$HOPMARK" "$@" >"$out" 2>"$out.err"
	MON=$HM_BG_PID
	for i in $(seq 50); do
		[ "$(agent_stat clients_connected agent)" = 1 ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_exit PID - until PID exits (5 s at most); RC is its status, or
# "killed" when it had not exited by itself (count N not reached).
wait_exit()
{
	local i
	for i in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	if kill -TERM "$1" 2>/dev/null; then
		wait "$1"
		RC=killed
	else
		wait "$1"
		RC=$?
	fi
}

hm_plan 7

feed cfg none udp-port $PORT >/dev/null || { echo "Bail out! int_cfg"; exit 1; }
$CASE gen kinds "$T/kinds.bin"
hm_bg x "$HOPMARKD" -i 0 -o "$T/agent.out" >"$T/agent.log" 2>&1
AGENT=$HM_BG_PID
for _ in $(seq 50); do
	[ -S "$RUNDIR/hopmarkd.sock" ] && grep -q "INT: reading int_events" "$T/agent.log" && break
	sleep 0.1
done
if ! grep -q "INT: reading int_events" "$T/agent.log"; then
	sed 's/^/#   /' "$T/agent.log"
	echo "Bail out! hopmarkd does not read int_events"
	exit 1
fi

# 1. JSON
monitor "$T/mon.json" -j monitor count 5 || hm_log "the monitor did not connect"
feed run "$T/kinds.bin" >/dev/null
wait_exit "$MON"
hm_check "hopmark -j monitor count 5: exits by itself after 5 records, status 0" 0 "$RC"
if out=$($CHECK json kinds "$T/mon.json" $PORT); then
	hm_ok "JSON lines of the XD, MX (I), DROP (bit 15, reason 7), QUEUE and SINK records: every key as fed"
else
	hm_not_ok "JSON lines of the XD, MX (I), DROP (bit 15, reason 7), QUEUE and SINK records: every key as fed"
fi
echo "$out"

# 2. the agent's output holds the same lines
hm_check "the agent's -o file holds the monitor's 5 lines, byte for byte" \
	"5 $(md5sum <"$T/mon.json")" \
	"$(grep -c '"int_record"' "$T/agent.out") $(grep '"int_record"' "$T/agent.out" | md5sum)"

# 3. text
monitor "$T/mon.txt" monitor count 5 || hm_log "the monitor did not connect"
feed run "$T/kinds.bin" >/dev/null
wait_exit "$MON"
hm_check "hopmark monitor count 5: exits by itself after 5 records, status 0" 0 "$RC"
if out=$($CHECK text kinds "$T/mon.txt"); then
	hm_ok "a table per record: header line, metadata row, the packet's INT stack in path order"
else
	hm_not_ok "a table per record: header line, metadata row, the packet's INT stack in path order"
	sed 's/^/#   /' "$T/mon.txt" | head -n 40
fi
echo "$out"

# 4. a line changed by hand is rejected
sed -n 1p "$T/mon.json" | sed 's/"node_id":4,/"node_id":40,/' >"$T/bad.json"
x "$HOPMARK" -j monitor file "$T/bad.json" >"$T/bad.out" 2>"$T/bad.err"
RC=$?
hm_check "a line whose INT stack was changed by hand: rejected, not shown, the command fails" \
	"1 0 1" "$RC $(grep -c int_record "$T/bad.out") $(grep -c 'line 1 not shown' "$T/bad.err")"

# 5. counted
hm_check "json_lines counts the 10 records, json_bad none" "10 0" \
	"$(agent_stat json_lines) $(agent_stat json_bad)"

kill -TERM "$AGENT"
wait "$AGENT"
hm_done
