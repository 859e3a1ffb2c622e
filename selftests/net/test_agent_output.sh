#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_agent_output.sh - what hopmarkd on the sink (B) writes and counts
# when things go wrong, on the demo topology.
#
#   1. An -o file that stops growing part-way (RLIMIT_FSIZE, set with
#      prlimit(1); SIGXFSZ left at its default, which kills a process that
#      does not ignore it): the agent keeps running, every line of the file
#      is a whole JSON object, the file holds the lines that fit and no
#      part of the next, "records" counts the lines written and
#      "output_lost" every record that reached the agent and is not there.
#      Same on a pipe that stops taking data (non-blocking, reader not
#      reading), where a cut line cannot be taken back: its rest is
#      written first when the pipe takes data again.
#   2. Records the datapath cannot queue because the agent does not drain
#      the ring buffer (stopped with SIGSTOP during floods of more records
#      than the 256 KiB ring holds): a log line reports them, at most one a
#      second, each with the count since the previous line; the counts add
#      up to B's events_lost counter and, with the records written, to
#      every record B's datapath produced.
#   3. The statistics line keeps the agent's per-run counters apart from
#      the datapath's cumulative one: a restarted agent starts again at
#      ring_lost 0 while "datapath (since load): events_lost" keeps the
#      total.
set -u
HM_PFX=${HM_PFX:-hmi$$o}
. "$(dirname "$0")/../lib.sh"
NET=$(dirname "$0")
# The ring is created at 256 KiB for this test (HOPMARK_EVENTS_BYTES, read
# when the maps are created, Documentation/agent.rst): floods of 1200
# records overflow it; the default 16 MiB would need 51150 per flood.
export HOPMARK_EVENTS_BYTES=262144
FLOOD=1200		# records per flood: more than the ring's ~800 (256 KiB / 328 B)

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
command -v prlimit >/dev/null || hm_skip_all "needs prlimit (util-linux)"
hm_trap_teardown
hm_tmpdir

hm_topo_create || { echo "Bail out! topology"; exit 1; }
hm_setup_cli || { echo "Bail out! hopmark CLI configuration failed"; exit 1; }

# agent_start OUT [WRAPPER...] - hopmarkd on B writing OUT (log in
# OUT.log), run through WRAPPER (which must exec it, as prlimit does, so
# $AGENT is hopmarkd's pid); waits for its monitor socket.
agent_start()
{
	local out=$1 i
	shift
	hm_bg b "$@" "$HOPMARKD" -i 0 -o "$out" >"$out.log" 2>&1
	AGENT=$HM_BG_PID
	for i in $(seq 50); do
		[ -S "$(hm_rundir b)/hopmarkd.sock" ] && return 0
		kill -0 "$AGENT" 2>/dev/null || break
		sleep 0.1
	done
	sed 's/^/#   /' "$out.log"
	return 1
}

agent_stop()
{
	kill -TERM "$AGENT" 2>/dev/null
	wait "$AGENT" 2>/dev/null
}

# stat_of LOG PART KEY - KEY's value in PART ("agent", "datapath") of the
# last statistics line of LOG.
stat_of()
{
	grep -E 'hopmarkd: (exiting|stats|failed): ' "$1" | grep -v ': module (' | tail -n 1 |
		"$PY" -c '
import sys
line = sys.stdin.read().strip().split(": ", 2)
found = "no such statistics line"
for part in line[2].split("; ") if len(line) == 3 else []:
	label, _, kv = part.partition(": ")
	if label.split(" ")[0] == sys.argv[1]:
		w = kv.split()
		found = dict(zip(w[0::2], w[1::2])).get(sys.argv[2], "missing")
print(found)' "$2" "$3"
}

# Records B's datapath produced (reported or lost) so far.
produced() { echo $(( $(hm_counter b b-r3 decap_ok) + $(hm_counter b b-r3 decap_err) )); }

# whole_lines FILE - "lines bad trailing": JSON lines, lines that do not
# parse, bytes after the last newline.
whole_lines()
{
	"$PY" -c '
import json, sys
data = open(sys.argv[1], "rb").read()
lines = data.split(b"\n")
tail = lines.pop()
bad = 0
for l in lines:
	try:
		json.loads(l)
	except ValueError:
		bad += 1
print(len(lines), bad, len(tail))' "$1"
}

# ------------------------------------------------ 1. a file size limit

# The size of one record line, from one packet with no limit.
agent_start "$HM_TMP/one.json" || { echo "Bail out! hopmarkd on B"; exit 1; }
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count 1 --size 200
hm_wait_lines "$HM_TMP/one.json" 1
agent_stop
LINE=$(head -n 1 "$HM_TMP/one.json" | wc -c)
# Room for three lines and half of the fourth: its write is cut short.
LIMIT=$(( LINE * 7 / 2 ))
echo "# one record line is $LINE bytes; -o file limited to $LIMIT bytes"

P0=$(produced)
agent_start "$HM_TMP/lim.json" prlimit --fsize=$LIMIT ||
	{ echo "Bail out! hopmarkd on B under prlimit"; exit 1; }
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count 10 --size 200 --interval 0.05
sleep 1.5	# the one-second report of failed writes
SENT=$(( $(produced) - P0 ))
if kill -0 "$AGENT" 2>/dev/null; then
	hm_ok "agent_survives_file_size_limit"
else
	hm_not_ok "agent_survives_file_size_limit"
	echo "#   expected: hopmarkd running after writes past RLIMIT_FSIZE"
	echo "#   observed: gone; log:"
	sed 's/^/#     /' "$HM_TMP/lim.json.log"
fi
agent_stop
echo "# file: $(stat -c %s "$HM_TMP/lim.json") bytes; log:"
sed 's/^/#   /' "$HM_TMP/lim.json.log"
read -r N BAD TAIL <<<"$(whole_lines "$HM_TMP/lim.json")"
hm_check "limited_file_only_whole_json_lines" "0 bad lines, 0 bytes after the last newline" \
	"$BAD bad lines, $TAIL bytes after the last newline"
hm_check "limited_file_holds_the_lines_that_fit" 3 "$N"
hm_check "limited_file_size_is_those_lines" "$(head -n 3 "$HM_TMP/lim.json" | wc -c)" \
	"$(stat -c %s "$HM_TMP/lim.json")"
hm_check "records_counts_lines_written" "$N" "$(stat_of "$HM_TMP/lim.json.log" agent records)"
hm_check "output_lost_counts_records_not_written" "$(( SENT - N ))" \
	"$(stat_of "$HM_TMP/lim.json.log" agent output_lost)"
hm_check "limited_no_record_lost_elsewhere" "0 0" \
	"$(stat_of "$HM_TMP/lim.json.log" agent ring_lost) $(stat_of "$HM_TMP/lim.json.log" agent decode_errors)"
hm_check "failed_writes_logged_with_cause" 1 \
	"$(grep -c 'output write(s) failed in the last second (last: File too large)' "$HM_TMP/lim.json.log")"

# ------------------------- 1b. a pipe that stops taking (cannot be cut back)

# hopmarkd's standard output is a non-blocking 4 KiB pipe whose reader
# waits for $GO before it reads: a write fails with EAGAIN part-way through
# a line, the next ones at once. The reader must still get whole lines
# only: the rest of the cut line comes first once the pipe takes data.
GO=$HM_TMP/go
P0=$(produced)
hm_bg b "$PY" -c '
import fcntl, os, sys, time
out, go = sys.argv[1], sys.argv[2]
r, w = os.pipe()
fcntl.fcntl(w, 1031, 4096)		# F_SETPIPE_SZ
os.set_blocking(w, False)
if os.fork() == 0:
	os.close(w)
	while not os.path.exists(go):
		time.sleep(0.05)
	with open(out + ".part", "wb") as f:
		while True:
			b = os.read(r, 65536)
			if not b:
				break
			f.write(b)
	os.rename(out + ".part", out)
	os._exit(0)
os.close(r)
os.dup2(w, 1)
os.close(w)
os.execv(sys.argv[3], sys.argv[3:])' "$HM_TMP/pipe.json" "$GO" "$HOPMARKD" -i 0 \
	2>"$HM_TMP/pipe.log"
AGENT=$HM_BG_PID
for i in $(seq 50); do
	[ -S "$(hm_rundir b)/hopmarkd.sock" ] && break
	sleep 0.1
done
# Eight records in one batch (the agent stopped while they arrive): one
# write of eight lines into the 4 KiB pipe takes the first line and part
# of the second.
kill -STOP "$AGENT"
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count 8 --size 200 --interval 0.05
kill -CONT "$AGENT"
sleep 0.3
touch "$GO"
sleep 0.3
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count 4 --size 200 --interval 0.05
sleep 1.2
SENT=$(( $(produced) - P0 ))
agent_stop
for i in $(seq 50); do
	[ -f "$HM_TMP/pipe.json" ] && break
	sleep 0.1
done
sed 's/^/#   /' "$HM_TMP/pipe.log"
read -r N BAD TAIL <<<"$(whole_lines "$HM_TMP/pipe.json")"
hm_check "pipe_reader_gets_only_whole_json_lines" "0 bad lines, 0 bytes after the last newline" \
	"$BAD bad lines, $TAIL bytes after the last newline"
hm_check "pipe_records_counts_lines_read" "$N" "$(stat_of "$HM_TMP/pipe.log" agent records)"
hm_check "pipe_output_lost_counts_records_not_read" "$(( SENT - N ))" \
	"$(stat_of "$HM_TMP/pipe.log" agent output_lost)"
# The first line, the cut one finished, the four sent once the pipe drains.
hm_check "pipe_cut_line_finished_before_the_next" 6 "$N"

# ------------------------------------ 2. the ring buffer overflows

EL0=$(hm_counter b b-r3 events_lost)
P0=$(produced)
agent_start "$HM_TMP/flood.json" || { echo "Bail out! hopmarkd on B"; exit 1; }
# Floods while the agent is stopped, for about three seconds.
T0=$(date +%s%N)
FLOODS=0
while [ $(( $(date +%s%N) - T0 )) -lt 3000000000 ]; do
	kill -STOP "$AGENT"
	hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count $FLOOD --size 200 --interval 0
	kill -CONT "$AGENT"
	FLOODS=$((FLOODS + 1))
	sleep 0.05
done
sleep 2		# the next one-second reading reports the last flood
T1=$(date +%s%N)
EL1=$(hm_counter b b-r3 events_lost)
P1=$(produced)
agent_stop
grep 'lost in the last second' "$HM_TMP/flood.json.log" | head -n 3 | sed 's/^/#   /'
LINES=$(grep -c 'record(s) lost in the last second: ring buffer hopmark_events full' "$HM_TMP/flood.json.log")
SUM=$(grep -o '[0-9]* record(s) lost in the last second' "$HM_TMP/flood.json.log" |
	awk '{ s += $1 } END { print s + 0 }')
SECS=$(( (T1 - T0 + 999999999) / 1000000000 ))
echo "# $FLOODS floods of $FLOOD packets in $SECS s; datapath events_lost +$((EL1 - EL0)); $LINES log line(s)"
hm_check "ring_loss_logged" True "$([ "$LINES" -ge 1 ] && echo True || echo False)"
hm_check "ring_loss_lines_add_up_to_events_lost" "$((EL1 - EL0))" "$SUM"
hm_check "ring_loss_log_at_most_one_line_a_second" "at most $((SECS + 1))" \
	"$([ "$LINES" -le $((SECS + 1)) ] && echo "at most $((SECS + 1))" || echo "$LINES")"
if [ "$FLOODS" -gt $((SECS + 1)) ]; then
	hm_check "ring_loss_log_fewer_lines_than_floods" "fewer than $FLOODS" \
		"$([ "$LINES" -lt "$FLOODS" ] && echo "fewer than $FLOODS" || echo "$LINES")"
else
	hm_skip "ring_loss_log_fewer_lines_than_floods" "only $FLOODS floods in $SECS s"
fi
hm_check "ring_lost_is_this_runs_events_lost" "$((EL1 - EL0))" \
	"$(stat_of "$HM_TMP/flood.json.log" agent ring_lost)"
hm_check "datapath_events_lost_since_load" "$EL1" \
	"$(stat_of "$HM_TMP/flood.json.log" datapath events_lost)"
hm_check "every_record_written_or_counted_lost" "$((P1 - P0))" \
	"$(( $(wc -l <"$HM_TMP/flood.json") + EL1 - EL0 ))"
hm_check "flood_records_counts_lines_written" "$(wc -l <"$HM_TMP/flood.json")" \
	"$(stat_of "$HM_TMP/flood.json.log" agent records)"

# ---------------------------------------- 3. per run against since load

agent_start "$HM_TMP/again.json" || { echo "Bail out! hopmarkd on B"; exit 1; }
kill -USR1 "$AGENT"
for i in $(seq 30); do
	grep -q 'hopmarkd: stats: agent' "$HM_TMP/again.json.log" && break
	sleep 0.1
done
agent_stop
grep 'stats: agent' "$HM_TMP/again.json.log" | sed 's/^/#   /'
hm_check "restarted_agent_ring_lost_starts_at_0" 0 "$(stat_of "$HM_TMP/again.json.log" agent ring_lost)"
hm_check "restarted_agent_sees_datapath_total" "$EL1" \
	"$(stat_of "$HM_TMP/again.json.log" datapath events_lost)"
hm_check "restarted_agent_logs_no_old_loss" 0 \
	"$(grep -c 'lost in the last second' "$HM_TMP/again.json.log")"
hm_done
