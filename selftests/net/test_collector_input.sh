#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_collector_input.sh - hopmark-collector on real UDP and TCP sockets
# (in a throwaway namespace) given good and bad IPFIX (hm_ipfix_send.py,
# written from RFC 7011, not with hopmark's code): a truncated message, a
# huge Set Length, a template changed under its ID, a template withdrawn
# and used afterwards, a Data Set before its template, a message cut
# across two TCP reads, a TCP peer speaking HTTP, and a flood of unknown
# exporters beyond --max-exporters. Each has its counter in the statistics
# file (-s), checked exactly; the collector keeps running (a good packet
# after all of it is stitched) and exits 0 on SIGTERM; its JSON lines hold
# exactly the packets stitched.
set -u
HM_PFX=${HM_PFX:-hmt-cin$$}
. "$(dirname "$0")/../lib.sh"
COLLECTOR=${COLLECTOR:-$HM_BUILD/hopmark-collector}
SEND="$HM_TOP/selftests/net/hm_ipfix_send.py"

hm_require_root_netns
hm_require_built "$COLLECTOR"
command -v "$PY" >/dev/null || hm_skip_all "needs python3"
hm_solo_node
hm_solo_cleanup_hook() { [ -z "${CPID:-}" ] || kill "$CPID" 2>/dev/null; }
x ip link set lo up

# exec: $! is the collector itself (nsenter execs it), stopped by that PID
(exec nsenter --net="/run/netns/$NS" "$COLLECTOR" -u 4739 -t 4739 -w 200 --max-exporters 8 \
	-o "$HM_TMP/paths.json" -s "$HM_TMP/stats.json" 2>"$HM_TMP/log") &
CPID=$!
for _ in $(seq 50); do [ -s "$HM_TMP/stats.json" ] && break; sleep 0.1; done

send() { x "$PY" "$SEND" "$1" 127.0.0.1 4739 "${@:2}"; sleep 0.2; }

send good 50000 1
send truncated 50000
send huge_set 50000
send changed 50000
send withdraw 50000
send before_template 50001
send tcp_good 0 3
send tcp_garbage 0
sleep 0.3
send flood 50100 20
send good 50000 4
sleep 1.5

alive=yes
kill -0 "$CPID" 2>/dev/null || alive=no
hm_check collector_survives_the_bad_input yes "$alive"
kill -TERM "$CPID"
wait "$CPID"
rc=$?
CPID=
hm_check collector_exits_0_on_sigterm 0 "$rc"

stat() { "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]])' \
	"$HM_TMP/stats.json" "$1" "$2"; }

hm_check truncated_message_counted_short_msg 1 "$(stat ipfix short_msg)"
hm_check huge_set_length_counted 1 "$(stat ipfix bad_set_length)"
hm_check template_changed_under_its_id_counted 1 "$(stat ipfix tpl_changed)"
hm_check template_withdrawal_counted 1 "$(stat ipfix tpl_withdrawn)"
# after the withdrawal (1), from a new exporter (1), every flooder (20: a
# session that taught no template gives its place up at once)
hm_check data_sets_before_their_template_counted 22 "$(stat ipfix no_template)"
hm_check http_on_the_tcp_port_is_a_bad_version 1 "$(stat ipfix bad_version)"
hm_check tcp_connection_closed_for_bad_framing 1 "$(stat ipfix tcp_closed)"
# 8 sessions: 50000, 50001, then the flooders: 6 take the free places and
# 14 the places of sessions without a template (50001's, 50000's, whose
# templates were all withdrawn, and other flooders'); the TCP ones closed.
# 50000's last message comes back with its template, as a 15th replacement.
hm_check flooders_without_a_template_replace_each_other 15 "$(stat ipfix exporters_expired)"
hm_check no_exporter_refused 0 "$(stat ipfix exporters_refused)"
hm_check sessions_at_exit 8 "$(stat ipfix exporters)"
# packets 1 (UDP), 3 (TCP, cut across reads), 4 (after all): 4 postcards
# each; the redefined template's one record of packet 2
hm_check good_postcards_decoded 13 "$(stat ipfix postcards)"
hm_check stitched_complete 3 "$(stat stitch complete)"
hm_check head_only_packet_located_on_the_link 1 "$(stat stitch drops_on_link)"
hm_check json_lines_one_per_packet 4 "$(wc -l <"$HM_TMP/paths.json")"
hm_check json_complete_packet_ids "[1, 3, 4]" \
	"$(hm_json "$HM_TMP/paths.json" 'sorted(r["pkt_id"] for r in recs if r["complete"])')"
hm_check json_path_of_packet_4 "[1, 2, 3]" \
	"$(hm_json "$HM_TMP/paths.json" '[h["node"] for r in recs if r["pkt_id"] == 4 for h in r["hops"]]')"
hm_check json_link_latency_of_packet_4 "[900, 1000]" \
	"$(hm_json "$HM_TMP/paths.json" '[h["link_ns"] for r in recs if r["pkt_id"] == 4 for h in r["hops"]][:2]')"
hm_check json_hop_latency_at_node_2 500 \
	"$(hm_json "$HM_TMP/paths.json" '[h["hop_ns"] for r in recs if r["pkt_id"] == 4 for h in r["hops"]][1]')"
logged=$(grep -c . "$HM_TMP/log")
hm_check log_is_rate_limited yes "$([ "$logged" -le 40 ] && echo yes || echo "no: $logged lines")"
out=$("$COLLECTOR" show "$HM_TMP/paths.json")
hm_check show_locates_the_drop yes \
	"$(echo "$out" | grep -q 'dropped at node 1: 1 on the link' && echo yes || echo "no: $out")"
hm_check show_flow_summary yes \
	"$(echo "$out" | grep -q 'flow 192.0.2.1:10001 > 198.51.100.2:5201 udp: 4 packets, 3 complete, 1 dropped' && echo yes || echo "no: $out")"
hm_done
