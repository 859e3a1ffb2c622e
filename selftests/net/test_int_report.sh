#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_int_report.sh - hopmarkd's Telemetry Report v2.0 export (agent/
# int_report.c) end to end: records put on the node's pinned int_events
# ring (int_feed: BPF_PROG_TEST_RUN of int_feed.bpf.o, which uses the INT
# maps of bpf/int_maps.bpf.h, like the INT datapath) become UDP datagrams
# that a test receiver (int_report_rx.py, its own decoder) in a second
# namespace prints as JSON; int_report_case.py compares them with the
# records, the spec's rules and the settings of int_cfg[0]:
#
#   1. sink records over IPv4, one report per datagram: every field, the
#      sink's metadata, the inner packet octet for octet and its INT stack
#      hop for hop, sequence numbers 0.., DF set, DSCP 0, valid UDP
#      checksums, a hashed source port that follows the inner 5-tuple;
#   2. each kind's flags (XD, MX with I, DROP with RepMdBits bit 15 and
#      its drop reason, QUEUE, a sink's bit 15 cleared), a fixed source
#      port and hw_id;
#   3. coalescing of 3 per datagram, the sequence going on;
#   4. Report Length 0xff: 255 words or more, last in its datagram, the
#      packet truncated at 1016 octets when coalescing, exact octets;
#   5. never past the 1500-octet path (1472 octets of UDP payload);
#   6. truncation to the configured length, padded to a word;
#   7. records lost in the full ring (the agent stopped while 4000 are
#      fed): the agent's ring_lost equals what the datapath counted, and
#      every record the ring took is reported;
#   8. a collector over IPv6: a new sequence from 0, valid checksums;
#   9. no collector: records counted, nothing sent; a bad record counted,
#      no sequence gap; a route change that changes the source address is
#      followed (IPv4 checksums stay valid);
#  10. the INT datapath's own sink program (bpf/hopmark_int.bpf.c,
#      hm_int_sink, BPF_PROG_TEST_RUN on crafted INT-MD frames) makes the
#      records: the reports carry its node ID, its metadata and the packets
#      as received, INT stack hop for hop;
#  11. a collector without a route: reports counted send_failed, logged.
# The agent's counters are read from its statistics line (SIGUSR1).
set -u
HM_PFX=${HM_PFX:-hmir$$}
. "$(dirname "$0")/../lib.sh"
NET=$(cd "$(dirname "$0")" && pwd)
FEED=$HM_BUILD/tests/net/int_feed
FEED_OBJ=$HM_BUILD/tests/net/int_feed.bpf.o
CASE="$PY $NET/int_report_case.py"
PORT=9555

hm_require_root_netns
hm_require_built "$HOPMARKD" "$FEED" "$FEED_OBJ"
C=$HM_PFX-c

hm_solo_cleanup_hook()
{
	hm_bg_stop
	ip netns del "$C" 2>/dev/null
}
hm_solo_node
T=$HM_TMP
ip netns add "$C" || { echo "Bail out! netns $C"; exit 1; }
ip link add x0 netns "$NS" type veth peer name c0 netns "$C" || { echo "Bail out! veth"; exit 1; }
x ip addr add 10.99.0.1/24 dev x0
x ip addr add fd99::1/64 dev x0 nodad
ip -n "$C" addr add 10.99.0.2/24 dev c0
ip -n "$C" addr add fd99::2/64 dev c0 nodad
x ip link set x0 up
x ip link set lo up
ip -n "$C" link set c0 up
ip -n "$C" link set lo up

bg() { "$@" & HM_BG_PIDS="${HM_BG_PIDS:-} $!"; BG_PID=$!; }

feed() { x "$FEED" "$FEED_OBJ" "$@"; }

# rx_start ADDR PORT FILE - the test receiver in $C.
rx_start()
{
	local i
	bg nsenter --net="/run/netns/$C" "$PY" "$NET/int_report_rx.py" "$1" "$2" -o "$3" \
		--int-port 5555 2>"$3.log"
	for i in $(seq 50); do
		grep -q listening "$3.log" 2>/dev/null && return 0
		sleep 0.1
	done
	cat "$3.log" | sed 's/^/#   /'
	return 1
}

# lines FILE - lines in FILE (0 when absent).
lines() { [ -f "$1" ] && wc -l <"$1" || echo 0; }

# wait_lines FILE N - until FILE has N lines (5 s at most).
wait_lines()
{
	local i
	for i in $(seq 50); do
		[ "$(lines "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# int_stat KEY - KEY of the int_reports part of the agent's statistics line now.
int_stat() { hm_agent_stat "$T/agent.log" "$AGENT" "${2:-int_reports}" "$1"; }

# run_case NAME CASE RX [REPEAT] [CHECK OPTIONS...] - feed CASE with the
# agent stopped (so that one drain sees every record), wait for the
# datagrams, compare.
SEQ=0
run_case()
{
	local name=$1 c=$2 rx=$3 rep=$4 first out
	shift 4
	first=$(lines "$rx")
	$CASE gen "$c" "$T/$c.bin"
	kill -STOP "$AGENT"
	out=$(feed run "$T/$c.bin" "$rep")
	kill -CONT "$AGENT"
	sleep 0.5
	wait_lines "$rx" $((first + 1))
	sleep 0.3
	if out=$($CASE check "$c" "$rx" "$first" "$SEQ" --repeat "$rep" "$@"); then
		hm_ok "$name"
	else
		hm_not_ok "$name"
	fi
	echo "$out"
	SEQ=$((SEQ + $(lines "$rx") - first))
}

hm_plan 25

feed cfg collector 10.99.0.2 port $PORT hw-id 0 trunc 1280 || { echo "Bail out! int_cfg"; exit 1; }
rx_start 10.99.0.2 $PORT "$T/rx4.jsonl" || { echo "Bail out! receiver"; exit 1; }
hm_bg x "$HOPMARKD" -i 0 -q >"$T/agent.log" 2>&1
AGENT=$HM_BG_PID
for _ in $(seq 50); do
	grep -q 'INT: reports to' "$T/agent.log" && break
	sleep 0.1
done
if ! grep -q 'INT: reports to 10.99.0.2 port 9555' "$T/agent.log"; then
	sed 's/^/#   /' "$T/agent.log"
	echo "Bail out! hopmarkd did not take the collector"
	exit 1
fi

# 1. basic
run_case "sink records: fields, metadata, inner packet, INT hops, seq 0-4, DF, DSCP 0, checksums, hashed source port" \
	basic "$T/rx4.jsonl" 1
hm_check "records and reports_sent counted" "5 5" "$(int_stat records) $(int_stat reports_sent)"

# 2. kinds, fixed source port, hw_id
feed cfg collector 10.99.0.2 port $PORT hw-id 5 sport 40000 trunc 1280
SEQ=0		# hw_id 5: another (Node ID, hw_id, destination), a new sequence
run_case "XD, MX (I), DROP (bit 15, reason 7), QUEUE flags; sink bit 15 cleared; source port 40000; hw_id 5" \
	kinds "$T/rx4.jsonl" 1 --hw-id 5 --sport 40000

# 3. coalescing
feed cfg collector 10.99.0.2 port $PORT coalesce 3 trunc 1280
SEQ=5		# back to hw_id 0: its sequence goes on after the 5 of case 1
run_case "coalescing 3 per datagram: 7 records in 3 datagrams, sequence going on from 5" \
	coalesce "$T/rx4.jsonl" 1 --coalesce 3
hm_check "coalesced counts the reports after each datagram's first" 4 "$(int_stat coalesced)"

# 4. Report Length 0xff
run_case "Report Length 0xff: coalescing truncates at 1016, the 0xff report ends its datagram" \
	big "$T/rx4.jsonl" 1 --coalesce 3
feed cfg collector 10.99.0.2 port $PORT coalesce 1 trunc 1280
run_case "Report Length 0xff without coalescing: the whole 1200 octets, exactly" \
	big "$T/rx4.jsonl" 1

# 5. size limit
feed cfg collector 10.99.0.2 port $PORT coalesce 10 trunc 1280
run_case "600-octet packets, coalescing 10: 2 per datagram, never past 1472 octets" \
	size "$T/rx4.jsonl" 1 --coalesce 10

# 6. truncation
feed cfg collector 10.99.0.2 port $PORT coalesce 1 trunc 66
run_case "truncation at 66 octets, padded with zeros to 68; a shorter packet whole" \
	trunc "$T/rx4.jsonl" 1 --trunc 66

# 7. ring loss
feed cfg collector 10.99.0.2 port $PORT coalesce 8 trunc 1280
sent0=$(int_stat reports_sent)
lost0=$(int_stat ring_lost)
first=$(lines "$T/rx4.jsonl")
$CASE gen flood "$T/flood.bin"
kill -STOP "$AGENT"
fo=$(feed run "$T/flood.bin" 4000)
kill -CONT "$AGENT"
dplost=$(echo "$fo" | sed -n 's/^runs 4000 lost \([0-9]*\)$/\1/p')
echo "# int_feed: $fo"
if [ -n "$dplost" ] && [ "$dplost" -gt 0 ]; then
	hm_ok "4000 records into a 4 MiB ring with the agent stopped: the datapath counts $dplost lost"
else
	hm_not_ok "4000 records into a 4 MiB ring with the agent stopped: expected losses, int_feed said: $fo"
	dplost=0
fi
taken=$((4000 - dplost))
wait_lines "$T/rx4.jsonl" $((first + (taken + 7) / 8))
sleep 2.2		# the tick reads int_stats once a second
hm_check "ring_lost of the agent equals the datapath's count" "$dplost" $(( $(int_stat ring_lost) - lost0 ))
hm_check "every record the ring took is reported" "$taken" $(( $(int_stat reports_sent) - sent0 ))
if grep -q "INT: $dplost record(s) lost in the last second" "$T/agent.log"; then
	hm_ok "the loss is logged"
else
	hm_not_ok "the loss is logged"
	grep 'INT:' "$T/agent.log" | sed 's/^/#   /'
fi
n=$(tail -n +$((first + 1)) "$T/rx4.jsonl" | "$PY" -c '
import json, sys
seqs = []; reps = 0
for l in sys.stdin:
	d = json.loads(l); seqs.append(d["seq"]); reps += len(d["reports"])
gaps = sum(1 for a, b in zip(seqs, seqs[1:]) if b != (a + 1) & 0x3fffff)
print(reps, gaps)')
hm_check "the receiver got them all, in datagrams of contiguous sequence numbers (reports gaps)" "$taken 0" "$n"

# 8. IPv6 collector
feed cfg collector fd99::2 port 9556 coalesce 1 trunc 1280
rx_start fd99::2 9556 "$T/rx6.jsonl" || hm_not_ok "IPv6 receiver"
SEQ=0
run_case "collector over IPv6: sequence from 0, Traffic Class 0, kernel-computed checksums; inner IPv6 (InType 5)" \
	v6 "$T/rx6.jsonl" 1 --family 6

# 9. no collector, bad record
feed cfg none
nc0=$(int_stat no_collector)
first=$(lines "$T/rx4.jsonl")
$CASE gen basic "$T/basic.bin"
feed run "$T/basic.bin" >/dev/null
sleep 0.5
hm_check "no collector: 5 records counted no_collector, no datagram" "5 $first" \
	"$(( $(int_stat no_collector) - nc0 )) $(lines "$T/rx4.jsonl")"
feed cfg collector 10.99.0.2 port $PORT coalesce 1 trunc 1280
bad0=$(int_stat bad_records)
# hw_id 0 to 10.99.0.2: its sequence stands after cases 1, 3-7
SEQ=$(tail -n 1 "$T/rx4.jsonl" | "$PY" -c 'import json,sys; print(json.loads(sys.stdin.read())["seq"] + 1)')
run_case "a record whose MD length disagrees with RepMdBits is not reported, and leaves no sequence gap" \
	bad "$T/rx4.jsonl" 1
hm_check "bad_records counts it" 1 $(( $(int_stat bad_records) - bad0 ))
hm_check "nothing failed to send" 0 "$(int_stat send_failed)"

# 9b. the route to the collector changes its source address
x ip addr add 10.99.0.3/24 dev x0
x ip route replace 10.99.0.2/32 dev x0 src 10.99.0.3
for _ in $(seq 30); do
	grep -q 'INT: the route to the collector changed: reports now from 10.99.0.3' "$T/agent.log" && break
	sleep 0.1
done
SEQ=$(tail -n 1 "$T/rx4.jsonl" | "$PY" -c 'import json,sys; print(json.loads(sys.stdin.read())["seq"] + 1)')
first=$(lines "$T/rx4.jsonl")
run_case "after a route change the reports come from the new source address, checksums valid" \
	basic "$T/rx4.jsonl" 1
hm_check "source address of the reports after the route change" "10.99.0.3" \
	"$(tail -n +$((first + 1)) "$T/rx4.jsonl" | "$PY" -c '
import json, sys
print(" ".join(sorted({json.loads(l)["outer"]["src"] for l in sys.stdin})))')"

# 10. records from the INT datapath's sink program
INT_OBJ=$HM_BPF_DIR/hopmark_int.bpf.o
if [ -e "$INT_OBJ" ] && [ -x "$HOPMARK" ]; then
	x "$HOPMARK" node set id 77 >/dev/null
	feed cfg collector 10.99.0.2 port $PORT trunc 1280 udp-port 5555 sink-if 1
	SEQ=0		# node ID 77: another (Node ID, hw_id, destination)
	first=$(lines "$T/rx4.jsonl")
	$CASE frames sinkpath "$T/sink.frames"
	kill -STOP "$AGENT"
	fo=$(feed sink "$INT_OBJ" "$T/sink.frames" 2>"$T/sink.err")
	kill -CONT "$AGENT"
	hm_check "hm_int_sink takes the 5 INT-MD frames (IPv4 and IPv6) and forwards them" \
		"runs 5 ok 5" "$fo"
	[ "$fo" = "runs 5 ok 5" ] || grep -v '^\[\|^	' "$T/sink.err" | tail -n 5 | sed 's/^/#   /'
	wait_lines "$T/rx4.jsonl" $((first + 5))
	sleep 0.3
	if out=$($CASE check sinkpath "$T/rx4.jsonl" "$first" "$SEQ" --sink-node 77); then
		hm_ok "the sink program's records: node ID 77, its L1 and queue metadata, packets and INT hops as sent"
	else
		hm_not_ok "the sink program's records: node ID 77, its L1 and queue metadata, packets and INT hops as sent"
	fi
	echo "$out"
else
	hm_skip "hm_int_sink takes the INT-MD frames" "not built: $INT_OBJ or $HOPMARK"
	hm_skip "the sink program's records" "not built: $INT_OBJ or $HOPMARK"
fi

# 11. a collector without a route: counted as failed, logged
feed cfg collector 192.0.2.99 port $PORT trunc 1280
fail0=$(int_stat send_failed)
feed run "$T/basic.bin" >/dev/null
for _ in $(seq 30); do
	grep -q 'INT: 5 report(s) in 5 datagram(s) failed to send in the last second' "$T/agent.log" && break
	sleep 0.1
done
hm_check "a collector without a route: the 5 reports count as send_failed" 5 \
	$(( $(int_stat send_failed) - fail0 ))
if grep -q 'INT: 5 report(s) in 5 datagram(s) failed to send in the last second (last: Network is unreachable)' \
	"$T/agent.log"; then
	hm_ok "the failure is logged with its cause"
else
	hm_not_ok "the failure is logged with its cause"
	grep 'INT:' "$T/agent.log" | tail -n 3 | sed 's/^/#   /'
fi

hm_done
