#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_cli_module.sh - the hopmark CLI and hopmarkd against hopmark.ko
#
# Runs inside the VM (selftests/vm/run.sh, Debian 12's 6.1 kernel), as root.
#   1. Without the module: every module command fails with "the hopmark
#      kernel module is not loaded", exit 1, no crash; hopmarkd runs.
#   2. With the module, in a fresh network namespace: set/show round trips
#      with -j for node, namespace, link, export and every feature object;
#      bad values refused by the CLI (exit 2, the word named); kernel
#      refusals shown with the module's extended ack; changes refused
#      without CAP_NET_ADMIN.
#   3. hopmarkd follows the module: its start-up dump, then notifications
#      of `hopmark module ...`/`hopmark export ...` changes, the module
#      going away and coming back, without a restart.
#   4. Postcards: DEX events (A encapsulates, B exports) and SRH O-flag
#      events become JSON lines of B's hopmarkd with B's node ID, the
#      right Flow ID and increasing Sequence Numbers; `hopmark export set
#      fields ...` under the running agent leaves the deselected fields out
#      of the next postcards and keeps the others. A receive buffer
#      overrun while the agent is stopped is counted, the configuration
#      dumped again, and postcards flow on.
# TAP on stdout; exit 0 pass, 1 fail, 4 skip.
#
# Environment: HM_KO (module path, default build/kernel/hopmark.ko).

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../module/lib.sh"

HM=$HM_REPO/build/hopmark
HMD=$HM_REPO/build/hopmarkd
PKT=$HM_REPO/selftests/vm/datapath/hm_dp_pkt.py
B_HEX=20010db8007700000000000000000002	# 2001:db8:77::2
NOMOD="the hopmark kernel module is not loaded"

[ "$(id -u)" = 0 ] || hm_skip_all "needs root"
[ -x "$HM" ] && [ -x "$HMD" ] || hm_skip_all "build/hopmark and build/hopmarkd not built (make all)"
command -v jq >/dev/null || hm_skip_all "needs jq"

work=$(mktemp -d /tmp/hmu-cli.XXXXXX)
pids=
cleanup()
{
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	ip netns del hmu-a 2>/dev/null
	ip netns del hmu-b 2>/dev/null
	for d in "$work"/bpf-*; do umount "$d" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT

# Every command bounded in time: a hang is a failure, not a stuck VM.
A() { timeout 60 nsenter --net=/run/netns/hmu-a "$@"; }
B() { timeout 60 nsenter --net=/run/netns/hmu-b "$@"; }

# run_cmd NAME CMD...: run, keep stdout in $out, stderr in $err, status in $rc.
run_cmd()
{
	out=$("$@" 2>"$work/stderr")
	rc=$?
	err=$(cat "$work/stderr")
}

# wait_for FILE REGEX [SECONDS]: until FILE has a line matching REGEX.
wait_for()
{
	local i=0 max=$(( ${3:-15} * 10 ))

	while [ $i -lt $max ]; do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# agent_start NAME NETNS: hopmarkd in NETNS with its own bpffs and run dir;
# nsenter and env exec, so $agent_pid is hopmarkd's.
agent_start()
{
	local name=$1 ns=$2

	mkdir -p "$work/bpf-$name" "$work/run-$name"
	mount -t bpf bpf "$work/bpf-$name" || return 1
	nsenter --net=/run/netns/$ns env TC_BPF_MNT="$work/bpf-$name" \
		HOPMARK_RUNDIR="$work/run-$name" \
		"$HMD" -i 0 -o "$work/$name.jsonl" 2>"$work/$name.log" &
	agent_pid=$!
	pids="$pids $agent_pid"
	wait_for "$work/$name.log" "started:" 20
}

# ---- 1. without the module ----

hm_unload 2>/dev/null
for cmd in "module show" "module node set id 3" "export set rate 5" \
	   "ioam dex enable dev lo" "ioam incremental show" "ioam e2e show" \
	   "srh oflag enable dev lo" "module namespace show"; do
	run_cmd $HM $cmd
	if [ $rc = 1 ] && printf '%s' "$err" | grep -q "$NOMOD"; then
		hm_ok "no_module_${cmd// /_}_fails_clearly"
	else
		hm_not_ok "no_module_${cmd// /_}_fails_clearly" "expected: exit 1, \"$NOMOD\"" \
			"observed: exit $rc, $err"
	fi
done

mkdir -p "$work/bpf-nomod" "$work/run-nomod"
if mount -t bpf bpf "$work/bpf-nomod"; then
	TC_BPF_MNT="$work/bpf-nomod" HOPMARK_RUNDIR="$work/run-nomod" \
		timeout -s INT 3 "$HMD" -i 0 -o "$work/nomod.jsonl" 2>"$work/nomod.log"
	rc=$?
	if grep -q "module is not loaded: settings from the pinned maps" "$work/nomod.log" &&
	   grep -q "exiting:" "$work/nomod.log" && { [ $rc = 0 ] || [ $rc = 124 ]; }; then
		hm_ok "agent_runs_without_module"
	else
		hm_not_ok "agent_runs_without_module" "exit $rc" "$(cat "$work/nomod.log")"
	fi
	umount "$work/bpf-nomod"
else
	hm_not_ok "agent_runs_without_module" "cannot mount a bpffs"
fi

# ---- 2. CLI round trips ----

if [ ! -f "$HM_KO" ] || ! hm_load; then
	hm_ok "module_tests # SKIP cannot load $HM_KO"
	echo "1..$HM_N"
	hm_done
fi
hm_ok "module_loads"

ip netns add hmu-a && ip netns add hmu-b &&
ip link add hmu-a0 netns hmu-a type veth peer name hmu-b0 netns hmu-b &&
A ip link set lo up && B ip link set lo up &&
A ip addr add 2001:db8:77::1/64 dev hmu-a0 nodad &&
B ip addr add 2001:db8:77::2/64 dev hmu-b0 nodad &&
A ip link set hmu-a0 up && B ip link set hmu-b0 up ||
	{ hm_not_ok "topology"; echo "1..$HM_N"; exit 1; }

run_cmd B $HM module node set id 7 wide-id 0x123456789
run_cmd B $HM -j module node show
hm_check "node_set_show_roundtrip" '7 4886718345' "$(echo "$out" | jq -r '.[0] | "\(.id) \(.wide_id)"')"

run_cmd B $HM export set rate 500 batch 8 flush 20
run_cmd B $HM -j export show
hm_check "export_set_show_roundtrip" '500 8 20' "$(echo "$out" | jq -r '.[0] | "\(.rate) \(.batch) \(.flush)"')"
hm_check "export_fields_default_all" 'node,timestamp,flow,headers,node-data,option' \
	"$(echo "$out" | jq -r '.[0].fields | join(",")')"
run_cmd B $HM export set fields flow,node
run_cmd B $HM -j export show
hm_check "export_fields_set_show_json_roundtrip" '0 node,flow 500' \
	"$rc $(echo "$out" | jq -r '.[0] | "\(.fields | join(",")) \(.rate)"')"
run_cmd B $HM export show
hm_check_match "export_fields_show_text" 'rate 500 batch 8 flush 20 fields node,flow$' "$out"
run_cmd B $HM export set fields all
run_cmd B $HM export show
hm_check_match "export_fields_all_text" ' fields all$' "$out"

run_cmd B $HM module namespace add 123 data 0xabc wide 77 rate 100
run_cmd B $HM -j module namespace show
hm_check "namespace_add_show_roundtrip" '123 2748 77 100' \
	"$(echo "$out" | jq -r '.[] | select(.namespace == 123) | "\(.namespace) \(.data) \(.wide) \(.rate)"')"
run_cmd B $HM module namespace set 123 rate 250
run_cmd B $HM -j module namespace show 123
hm_check "namespace_set_changes_rate" '250' "$(echo "$out" | jq -r '.[0].rate')"

run_cmd B $HM ioam dex enable dev hmu-b0
run_cmd B $HM -j ioam dex show
hm_check "dex_enable_show" 'hmu-b0 true false' "$(echo "$out" | jq -r '.[0] | "\(.dev) \(.dex) \(.dex_encap)"')"
run_cmd B $HM ioam dex disable dev hmu-b0
run_cmd B $HM -j ioam dex show dev hmu-b0
hm_check "dex_disable_show" 'false' "$(echo "$out" | jq -r '.[0].dex')"

run_cmd B $HM ioam incremental enable dev hmu-b0
run_cmd B $HM ioam incremental encap add dev hmu-b0 ns 123 trace-type 0xf00000 remlen 20
run_cmd B $HM -j ioam incremental show dev hmu-b0
hm_check "incremental_enable_encap_show" 'true true 123 0xf00000 20' \
	"$(echo "$out" | jq -r '.[0] | "\(.incremental) \(.incremental_encap) \(.encap_ns) \(.trace_type) \(.remlen)"')"
run_cmd B $HM ioam incremental encap add dev hmu-b0 ns 123 trace-type 0xf00000 size 40
run_cmd B $HM -j ioam incremental show dev hmu-b0
hm_check "incremental_size_in_bytes_is_remlen_words" '10' "$(echo "$out" | jq -r '.[0].remlen')"

run_cmd B $HM ioam e2e encap add dev hmu-b0 ns 123 type seq32,ts-sec
run_cmd B $HM ioam e2e decap enable dev hmu-b0
run_cmd B $HM -j ioam e2e show dev hmu-b0
hm_check "e2e_encap_decap_show" 'true 0x6000 seq32,ts-sec true' \
	"$(echo "$out" | jq -r '.[0] | "\(.e2e_encap) \(.e2e_type) \(.e2e_fields | join(",")) \(.e2e_decap)"')"

run_cmd B $HM srh oflag enable dev hmu-b0
run_cmd B $HM -j srh oflag show
hm_check "srh_oflag_enable_show" 'hmu-b0 true' "$(echo "$out" | jq -r '.[0] | "\(.dev) \(.oflag)"')"

run_cmd B $HM module link set dev hmu-b0 id 11 wide-id 1111
run_cmd B $HM -j module link show dev hmu-b0
hm_check "link_ids_and_features" '11 1111 incremental,incremental-encap,e2e-encap,e2e-decap,srh-oflag' \
	"$(echo "$out" | jq -r '.[0] | "\(.id) \(.wide_id) \(.features | join(","))"')"

# Disabling one feature leaves the others (bitfield32 selector).
run_cmd B $HM ioam e2e decap disable dev hmu-b0
run_cmd B $HM -j module link show dev hmu-b0
hm_check "disable_touches_only_its_bit" 'incremental,incremental-encap,e2e-encap,srh-oflag' \
	"$(echo "$out" | jq -r '.[0].features | join(",")')"

run_cmd B $HM -j module show
hm_check "module_show" 'hopmark 1 7 500 1' \
	"$(echo "$out" | jq -r '.[0] | "\(.family) \(.version) \(.node.id) \(.export.rate) \(.namespaces)"')"

run_cmd B $HM -j module counters
hm_check_match "counters_dump_netns_first" '^netns [0-9]+$' \
	"$(echo "$out" | jq -r '.[0] | "\(.scope) \(.counters.events_sent)"')"

# ---- errors ----

# check_err NAME EXIT REGEX CMD...
check_err()
{
	local name=$1 want_rc=$2 re=$3

	shift 3
	run_cmd "$@"
	if [ "$rc" = "$want_rc" ] && printf '%s' "$err" | grep -Eq -- "$re"; then
		hm_ok "$name"
	else
		hm_not_ok "$name" "expected: exit $want_rc, stderr matching $re" \
			"observed: exit $rc, stderr: $err"
	fi
}

check_err "err_node_id_too_big" 2 'argument "16777215" is wrong: node id' B $HM module node set id 16777215
check_err "err_export_batch_zero" 2 'argument "0" is wrong: batch size .* at least 1' B $HM export set batch 0
check_err "err_export_flush_too_big" 2 'argument "1001" is wrong: flush delay' B $HM export set flush 1001
check_err "err_export_fields_unknown_word" 2 'argument "bogus" is wrong: unknown postcard field, use node, timestamp' \
	B $HM export set fields node,bogus
check_err "err_export_fields_empty" 2 'argument "," is wrong: no postcard field' B $HM export set fields ,
run_cmd B $HM -j export show
hm_check "err_export_fields_leave_setting" 'node,timestamp,flow,headers,node-data,option' \
	"$(echo "$out" | jq -r '.[0].fields | join(",")')"
check_err "err_export_rate_not_number" 2 'argument "fast" is wrong: rate limit .* must be a number' B $HM export set rate fast
check_err "err_trace_type_undefined_bits" 2 'argument "0xf00100" is wrong: bits 12-21' \
	B $HM ioam dex encap add dev hmu-b0 ns 123 trace-type 0xf00100
check_err "err_remlen_too_big" 2 'argument "128" is wrong: RemainingLen' \
	B $HM ioam incremental encap add dev hmu-b0 ns 123 trace-type 0x800000 remlen 128
check_err "err_size_not_multiple_of_4" 2 'argument "10" is wrong: .*multiple of 4' \
	B $HM ioam incremental encap add dev hmu-b0 ns 123 trace-type 0x800000 size 10
check_err "err_e2e_type_bad_bits" 2 'argument "0x0001" is wrong: IOAM-E2E-Type bits 4-15' \
	B $HM ioam e2e encap add dev hmu-b0 ns 1 type 0x0001
check_err "err_missing_dev" 2 '"dev" is required' B $HM ioam dex enable
check_err "err_unknown_word" 2 'argument "bogus" is wrong: unknown for "hopmark srh oflag enable"' \
	B $HM srh oflag enable dev hmu-b0 bogus
check_err "err_no_such_device" 1 'argument "nosuch0" is wrong: no such device' \
	B $HM ioam dex enable dev nosuch0
check_err "err_kernel_extack_no_such_namespace" 1 'cannot set IOAM-Namespace 555: .*HOPMARK_ATTR_NS_ID' \
	B $HM module namespace set 555 rate 5
check_err "err_kernel_namespace_exists" 1 'cannot add IOAM-Namespace 123: .*File exists' \
	B $HM module namespace add 123
check_err "err_set_without_cap_net_admin" 1 'Operation not permitted \(changes need CAP_NET_ADMIN\)' \
	B setpriv --bounding-set=-net_admin --inh-caps=-net_admin $HM module node set id 9
run_cmd B setpriv --bounding-set=-net_admin --inh-caps=-net_admin $HM -j module node show
hm_check "read_without_cap_net_admin" '0 7' "$rc $(echo "$out" | jq -r '.[0].id')"
for cmd in "ioam dex encap help" "ioam incremental help" "ioam e2e encap help" \
	   "srh oflag help" "module namespace help" "export set help"; do
	run_cmd B $HM $cmd
	hm_check_match "help_${cmd// /_}" '^0 Usage: hopmark' "$rc $out"
done

# Back to a plain interface for the postcard tests.
B $HM ioam incremental disable dev hmu-b0
B $HM ioam incremental encap del dev hmu-b0
B $HM ioam e2e encap del dev hmu-b0
B $HM srh oflag disable dev hmu-b0
run_cmd B $HM -j module link show dev hmu-b0
hm_check "encap_del_clears_features" '' "$(echo "$out" | jq -r '.[0].features | join(",")')"

# ---- 3. agent: dump at start, notifications after ----

if agent_start b hmu-b; then
	hm_ok "agent_starts_with_module"
else
	hm_not_ok "agent_starts_with_module" "$(cat "$work/b.log")"
fi
if wait_for "$work/b.log" 'config: from the hopmark module: node_id 7, export rate 500 events/s batch 8 flush 20 ms, namespaces 123, fields all' 10; then
	hm_ok "agent_dumps_config_at_start"
else
	hm_not_ok "agent_dumps_config_at_start" "$(cat "$work/b.log")"
fi
B $HM module node set id 9
if wait_for "$work/b.log" 'config: node_id 9 \(module\)' 10; then
	hm_ok "agent_follows_node_id_change"
else
	hm_not_ok "agent_follows_node_id_change" "$(cat "$work/b.log")"
fi
B $HM export set rate 42
B $HM module namespace add 200
if wait_for "$work/b.log" 'IOAM-Namespace 200 added, rate limit 42' 10 &&
   wait_for "$work/b.log" 'config: export rate 42 events/s' 10; then
	hm_ok "agent_follows_namespace_and_export_changes"
else
	hm_not_ok "agent_follows_namespace_and_export_changes" "$(cat "$work/b.log")"
fi
B $HM module namespace del 200
if wait_for "$work/b.log" 'IOAM-Namespace 200 deleted' 10; then
	hm_ok "agent_follows_namespace_delete"
else
	hm_not_ok "agent_follows_namespace_delete" "$(cat "$work/b.log")"
fi

# ---- 4. postcards ----

B $HM export set rate 0 >/dev/null
A $HM module node set id 1
A $HM module namespace add 123
A $HM ioam dex encap add dev hmu-a0 ns 123 trace-type 0xc00000
B $HM ioam dex enable dev hmu-b0
A ping -6 -c 1 -W 5 2001:db8:77::2 >/dev/null	# neighbours resolved first
sleep 1
: >"$work/b.jsonl"
if [ -x /usr/bin/python3 ] && [ -f "$PKT" ]; then
	# A receiver on B, so no ICMP error stops the sender.
	timeout 200 nsenter --net=/run/netns/hmu-b /usr/bin/python3 "$PKT" recv 9999 \
		--count 14 --timeout 180 >"$work/recv.out" &
	pids="$pids $!"
	wait_for "$work/recv.out" READY 50
	A /usr/bin/python3 "$PKT" send 2001:db8:77::2 9999 --count 5 --sport 40001 >/dev/null
	if wait_for "$work/b.jsonl" '"postcard":"dex"' 10; then
		sleep 0.5
		dex=$(jq -c 'select(.postcard == "dex")' "$work/b.jsonl")
		echo "# a DEX postcard: $(echo "$dex" | head -1)"
		hm_check "dex_one_postcard_per_packet" 5 "$(echo "$dex" | grep -c .)"
		hm_check "dex_postcard_node_and_namespace" '9 123 0xc00000' \
			"$(echo "$dex" | head -1 | jq -r '"\(.node.node_id) \(.namespace) \(.trace_type)"')"
		seqs=$(echo "$dex" | jq -r '.seq' | tr '\n' ' ')
		first=$(echo "$seqs" | cut -d ' ' -f 1)
		hm_check "dex_seq_increases_per_packet" \
			"$first $((first + 1)) $((first + 2)) $((first + 3)) $((first + 4)) " "$seqs"
		hm_check "dex_one_flow_id" 1 "$(echo "$dex" | jq -r '.flow_id' | sort -u | grep -c .)"
		hm_check "dex_postcard_packet" '2001:db8:77::1 2001:db8:77::2 17 40001 9999' \
			"$(echo "$dex" | head -1 | jq -r '"\(.packet.src) \(.packet.dst) \(.packet.proto) \(.packet.sport) \(.packet.dport)"')"
		# Trace-Type 0xc00000: Hop_Lim (64 received - 1), B's node ID and
		# ingress ID (module link set id 11), egress unknown at input.
		hm_check "dex_postcard_node_data" '63 9 11 null' \
			"$(echo "$dex" | head -1 | jq -r '.data | "\(.hop_limit) \(.node_id) \(.ingress_if) \(.egress_if)"')"
	else
		hm_not_ok "dex_postcards" "no DEX postcard from B's agent" "$(tail -5 "$work/b.log")" \
			"$(B $HM -j module counters 2>&1)"
	fi

	# Selected fields, changed under the running agent: the next postcards
	# lack the deselected keys and keep the others (with their values).
	# fields_postcards NAME FIELDS SPORT: 3 DEX packets after the change.
	fields_postcards()
	{
		B $HM export set fields "$2"
		if ! wait_for "$work/b.log" "config: export rate 0 events/s, batch 8, flush 20 ms, fields $2 \\(module\\)" 10; then
			hm_not_ok "$1_agent_follows" "$(tail -3 "$work/b.log")"
			return 1
		fi
		: >"$work/b.jsonl"
		A /usr/bin/python3 "$PKT" send 2001:db8:77::2 9999 --count 3 --sport "$3" >/dev/null
		wait_for "$work/b.jsonl" '"postcard":"dex"' 10
		sleep 0.5
		dex=$(jq -c 'select(.postcard == "dex")' "$work/b.jsonl")
		echo "# a DEX postcard with fields $2: $(echo "$dex" | head -1)"
		hm_check "$1_one_postcard_per_packet" 3 "$(echo "$dex" | grep -c .)"
	}
	if fields_postcards fields_node_flow_data node,flow,node-data 40003; then
		hm_check "fields_node_flow_data_deselected_missing" 'false false false false false' \
			"$(echo "$dex" | jq -r '[has("ts_ns"), has("time"), has("pkt_len"), has("packet"), has("srh")] | map(tostring) | join(" ")' | sort -u)"
		hm_check "fields_node_flow_data_selected_kept" '9 123 true true 0xc00000 63 9 11' \
			"$(echo "$dex" | jq -r '"\(.node.node_id) \(.namespace) \(has("flow_id")) \(has("seq")) \(.trace_type) \(.data.hop_limit) \(.data.node_id) \(.data.ingress_if)"' | sort -u)"
	fi
	if fields_postcards fields_timestamp_headers timestamp,headers 40004; then
		hm_check "fields_timestamp_headers_deselected_missing" 'false false false false false' \
			"$(echo "$dex" | jq -r '[has("node"), has("flow_id"), has("seq"), has("trace_type"), has("data")] | map(tostring) | join(" ")' | sort -u)"
		hm_check "fields_timestamp_headers_selected_kept" 'true true 123 2001:db8:77::1 40004' \
			"$(echo "$dex" | jq -r '"\(.ts_ns > 0) \(has("pkt_len")) \(.namespace) \(.packet.src) \(.packet.sport)"' | sort -u)"
	fi
	B $HM export set fields all
	wait_for "$work/b.log" 'flush 20 ms, fields all \(module\)' 10

	: >"$work/b.jsonl"
	# SRH with one segment (the kernel puts the destination there), Segments
	# Left 0, Flags 0x20: the O-flag (RFC 9259 Section 2).
	# The kernel routes to Segment List[Segments Left]: put B's address
	# there (it also writes the destination into Segment List[0]).
	srh=0002040000200000${B_HEX}
	B $HM srh oflag enable dev hmu-b0
	# Linux drops SRH packets at input unless seg6 is enabled (the O-flag
	# hook runs before that, so the event exists either way).
	B sysctl -qw net.ipv6.conf.all.seg6_enabled=1 net.ipv6.conf.hmu-b0.seg6_enabled=1
	A /usr/bin/python3 "$PKT" send 2001:db8:77::2 9999 --count 3 --sport 40002 --rthdr $srh >/dev/null
	if wait_for "$work/b.jsonl" '"postcard":"oflag"' 10; then
		sleep 0.5
		ofl=$(jq -c 'select(.postcard == "oflag")' "$work/b.jsonl")
		echo "# an O-flag postcard: $(echo "$ofl" | head -1)"
		hm_check "oflag_one_postcard_per_packet" 3 "$(echo "$ofl" | grep -c .)"
		hm_check "oflag_postcard_srh" '9 true 0 2001:db8:77::2 40002' \
			"$(echo "$ofl" | head -1 | jq -r '"\(.node.node_id) \(.srh.oflag) \(.srh.segments_left) \(.srh.segments[0]) \(.packet.sport)"')"
		wait_for "$work/recv.out" '"sport": 40002' 10
		hm_check "oflag_packets_delivered_unchanged" '3 true' \
			"$(grep '"sport": 40002' "$work/recv.out" | jq -rs '"\(length) \(all(.intact))"')"
		echo "# O-flag packets as delivered: $(grep '"sport": 40002' "$work/recv.out" | head -1)"
	else
		hm_not_ok "oflag_postcards" "no O-flag postcard from B's agent" "$(tail -5 "$work/b.log")" \
			"$(B $HM -j module counters 2>&1)"
	fi

	# The agent's receive buffer overflows while it is stopped: it counts
	# the overrun, dumps the configuration again (changes may have been
	# lost with the events) and goes on receiving postcards.
	B $HM export set batch 1 >/dev/null
	B $HM module namespace set 123 rate 0 >/dev/null
	wait_for "$work/b.log" 'config: export rate 0 events/s, batch 1, flush 20 ms' 10
	dumps0=$(grep -c 'config: from the hopmark module' "$work/b.log")
	timeout 200 nsenter --net=/run/netns/hmu-b /usr/bin/python3 "$PKT" recv 9998 \
		--count 2003 --timeout 180 >"$work/recv2.out" &
	recv2=$!
	pids="$pids $recv2"
	wait_for "$work/recv2.out" READY 50
	kill -STOP "$agent_pid"
	A /usr/bin/python3 "$PKT" send 2001:db8:77::2 9998 --count 2000 --sport 40006 >/dev/null
	kill -CONT "$agent_pid"
	i=0
	while [ $i -lt 150 ] &&
	      [ "$(grep -c 'config: from the hopmark module' "$work/b.log")" -le "$dumps0" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	hm_check "overrun_config_dumped_again" $((dumps0 + 1)) \
		"$(grep -c 'config: from the hopmark module' "$work/b.log")"
	: >"$work/b.jsonl"
	A /usr/bin/python3 "$PKT" send 2001:db8:77::2 9998 --count 3 --sport 40007 >/dev/null
	if wait_for "$work/b.jsonl" '"sport":40007' 10; then
		sleep 0.5
		hm_check "overrun_postcards_flow_again" 3 \
			"$(jq -c 'select(.postcard == "dex" and .packet.sport == 40007)' "$work/b.jsonl" | grep -c .)"
	else
		hm_not_ok "overrun_postcards_flow_again" "no postcard after the overrun" \
			"$(tail -5 "$work/b.log")"
	fi
	kill -USR1 "$agent_pid"
	if wait_for "$work/b.log" 'stats: .*overruns [1-9][0-9]* ' 10; then
		hm_ok "overrun_counted"
		grep 'stats: .*overruns' "$work/b.log" | sed 's/^/# /'
	else
		hm_not_ok "overrun_counted" "$(grep 'stats:' "$work/b.log")"
	fi
	B $HM export set batch 8 >/dev/null
	kill "$recv2" 2>/dev/null
else
	hm_ok "postcards # SKIP no /usr/bin/python3 or $PKT"
fi

# ---- the module goes away and comes back under a running agent ----

ip netns del hmu-a
timeout 60 $HM_RMMOD hopmark
if wait_for "$work/b.log" 'hopmark module unloaded: settings from the pinned maps again' 10; then
	hm_ok "agent_sees_module_unload"
else
	hm_not_ok "agent_sees_module_unload" "$(tail -5 "$work/b.log")"
fi
timeout 60 $HM_INSMOD "$HM_KO"
B $HM module node set id 12
if wait_for "$work/b.log" 'config: node_id 12 \(module\)' 10 &&
   kill -0 "$agent_pid" 2>/dev/null; then
	hm_ok "agent_follows_reloaded_module"
else
	hm_not_ok "agent_follows_reloaded_module" "$(tail -5 "$work/b.log")"
fi
kill -INT "$agent_pid"
wait "$agent_pid"
hm_check "agent_exits_cleanly" 0 $?
pids=
hm_unload

echo "1..$HM_N"
hm_done
