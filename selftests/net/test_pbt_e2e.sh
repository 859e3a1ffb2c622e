#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_pbt_e2e.sh - PBT-M postcards end to end on the demo's five-node line
# (selftests/pbt_lib.sh): A marks, every node's hopmarkd exports its
# postcards as IPFIX to the host, hopmark-collector on the host stitches
# them into per-packet paths. Through a relay on the host
# (selftests/net/pbt_e2e.py relay) that is lossless but in one phase.
#
#   phase    flow (A -> B)          selection at A         what happens
#   sample   UDP 5301, 3000 dgrams  packet 100 (1 %)       -
#   tcp      TCP 5201, iperf3       all                    -
#   drop     UDP 5302 and 5303      all                    R3's forward chain (nft) drops
#                                                          every 5th marked 5302: inside R3;
#                                                          a tc filter after R3's egress
#                                                          postcard drops every 5th marked
#                                                          5303: on the link R3 -> B
#   loss     UDP 5304               all                    the relay drops 5 % of the data
#                                                          messages and reorders 20 %
#   rate     UDP 5305, 1500/s       all                    R2's export is limited to
#                                                          PBT_RATE records/s
#
# Checks (expected vs observed on every line):
#   - every packet A marked is one stitched path A R1 R2 R3 B (node IDs 1..5
#     in order) with each node's points (A egress, routers both, B ingress),
#     and the collector has no path no node reported (the truth is what each
#     node's hopmarkd wrote as JSON);
#   - A marked about 1 % of the sampled flow (binomial bounds) and all of
#     the TCP flow (A's marked counter = its egress postcards);
#   - the drops nft counted at R3 are located inside node 4 (R3's ingress
#     postcard, no egress one), those of the tc drop on the link after
#     node 4 (its egress postcard, nothing from B), and no other packet of
#     those flows is called dropped;
#   - with 5 % of the postcard messages lost and reordering: the relay's
#     dropped records equal the loss hopmark-collector counts from the IPFIX
#     sequence numbers; a packet that lost no postcard is a complete path,
#     one that lost some has the hops left, in order;
#   - R2's export rate over the rate phase is PBT_RATE within 5 %, and what
#     it did not send is counted;
#   - the mark never leaves the domain: marked packets reach B's interface
#     (tcpdump, before tc) but none reaches B's stack (an nft counter after
#     tc ingress, where B clears it), and what B's stack gets equals what
#     A's stack sent, byte for byte but the TTL (3 routers) and the IPv4
#     header checksum (NFLOG at A's egress hook, before tc, and at B's
#     ingress hook, after tc).
# TAP; root; about 30 s.
set -u
HM_PFX=${HM_PFX:-hmpe$$}
PBT_MGMT_NET=${PBT_MGMT_NET:-10.254.$(( $$ % 200 + 20 ))}
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pbt_lib.sh"
TOOL="$PY $HM_TOP/selftests/net/pbt_e2e.py"
LDROP_OBJ=$HM_BUILD/tests/pbt_link_drop.bpf.o
RELAY_PORT=$((20000 + $$ % 20000))	# where the nodes export (the relay)
COLL_PORT=$((RELAY_PORT + 1))		# where the relay sends (the collector)
PBT_RATE=1000				# R2's export limit, records/s
LDROP_PREF=0x4900			# after HM_PBT_TC_PRIO_EGRESS (0x4831)

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD" "$HM_COLLECTOR" "$LDROP_OBJ" \
	"$HM_BPF_DIR/hopmark_pbt.bpf.o"
for c in nft tcpdump iperf3 bpftool ss; do
	command -v $c >/dev/null || hm_skip_all "needs $c"
done
pbt_trap_teardown
hm_tmpdir
T=$HM_TMP
mkdir -p "$T/nodes"

bail() { echo "Bail out! $*"; exit 1; }

pbt_topo_create || bail "topology"
pbt_node_ids || bail "hopmark node set / link set"
PBT_EXPORT_OPTS_r2="rate $PBT_RATE"
pbt_setup "$RELAY_PORT" || bail "hopmark postcard configuration"

# Capture points and counters of the byte-for-byte and never-leaves checks.
# A: NFLOG group 7 at the netdev egress hook (before tc egress, where A
# marks). B: an nft counter of marked packets and NFLOG group 8 at the
# netdev ingress hook (after tc ingress, where B clears the mark). The
# flows without drops only: 5301, 5201, 5304, 5305.
FLOWS_OK='meta l4proto udp udp dport { 5301, 5304, 5305 }'
hm_on a nft -f - <<EOF || bail "nft on A"
table netdev pbt_head {
	chain egress {
		type filter hook egress device "a-r1" priority 0;
		ip daddr $PBT_B4 $FLOWS_OK log group 7
		ip daddr $PBT_B4 tcp dport 5201 log group 7
	}
}
EOF
hm_on b nft -f - <<EOF || bail "nft on B"
table netdev pbt_end {
	counter marked_after_end { }
	chain ingress {
		type filter hook ingress device "b-r3" priority 0;
		ip saddr $PBT_A4 ip frag-off & 0x8000 == 0x8000 counter name marked_after_end
		ip saddr $PBT_A4 $FLOWS_OK log group 8
		ip saddr $PBT_A4 tcp dport 5201 log group 8
	}
}
EOF
# The drop inside R3: its forward chain, between its ingress and egress postcards.
hm_on r3 nft -f - <<EOF || bail "nft on R3"
table inet pbt_drop {
	counter in_node { }
	chain forward {
		type filter hook forward priority 0;
		ip daddr $PBT_B4 udp dport 5302 ip frag-off & 0x8000 == 0x8000 numgen inc mod 5 == 0 counter name in_node drop
	}
}
EOF
# The drop on the link: tc egress of r3-b after the PBT-M filter.
hm_on r3 tc filter add dev r3-b egress pref $LDROP_PREF bpf da obj "$LDROP_OBJ" sec tc ||
	bail "tc drop filter on r3-b"
LDROP_MAP=$(hm_bpffs r3)/tc/globals/pbt_ldrop
# shellcheck disable=SC2046 # hm_hex: one word per octet
ldrop_set() { hm_on r3 bpftool map update pinned "$LDROP_MAP" key hex $(hm_hex I "$1") value hex $(hm_hex Q "$2"); }
# shellcheck disable=SC2046
ldrop_get() { hm_on r3 bpftool -j map lookup pinned "$LDROP_MAP" key hex $(hm_hex I "$1") |
	"$PY" -c 'import json,sys; v=json.load(sys.stdin)["value"]; print(int.from_bytes(bytes(int(x, 16) for x in v), "little"))'; }
ldrop_set 0 5303 && ldrop_set 1 5 || bail "pbt_ldrop settings"

hm_capture_start a a-r1 "$T/a.pcap" "ip" || bail "tcpdump on A"
CAP_A=$HM_CAP_PID
hm_capture_start b b-r3 "$T/b.pcap" "ip and src $PBT_A4" || bail "tcpdump on B"
CAP_B=$HM_CAP_PID
hm_bg a tcpdump -B 65536 -U -i nflog:7 -w "$T/head.pcap" >"$T/head.log" 2>&1
NFLOG_A=$HM_BG_PID
hm_bg b tcpdump -B 65536 -U -i nflog:8 -w "$T/end.pcap" >"$T/end.log" 2>&1
NFLOG_B=$HM_BG_PID

$TOOL relay "$RELAY_PORT" "127.0.0.1:$COLL_PORT" --bind "$PBT_HOST_ADDR" \
	--drop 0.05 --reorder "${PBT_REORDER:-0.2}" --stats "$T/relay.json" --log "$T/relay.log" &
RELAY=$!
HM_BG_PIDS="$HM_BG_PIDS $RELAY"
pbt_collector_start "$T/paths.json" "$COLL_PORT" -t 0 -w 1000 -s "$T/collector-stats.json" ||
	bail "hopmark-collector"
pbt_agents_start "$T/nodes" || bail "hopmarkd"
sleep 1

# marked NODE DEV - PBT-M's marked counter of DEV (`hopmark -j -s postcard show`).
pbt_count()
{
	hm_on "$1" "$HOPMARK" -j -s postcard show | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
for i in d.get("interfaces", []):
    if i.get("dev") == sys.argv[1]:
        print(i.get("counters", i.get("stats", {})).get(sys.argv[2], 0))
        break
else:
    print(0)' "$2" "$3"
}
send() { hm_on a $TOOL send "$PBT_B4" "$@" >/dev/null; }

# -- sample: 1 % of a UDP flow
pbt_select "proto udp dport 5301" -- packet 100 || bail "postcard watch / sample"
M0=$(pbt_count a a-r1 marked)
send 5301 --count 3000 --rate 1500
M_SAMPLE=$(( $(pbt_count a a-r1 marked) - M0 ))

# -- tcp: all of one TCP flow (GSO on, the defaults: a GSO skb is one packet)
pbt_select "proto tcp dport 5201" -- all || bail "postcard watch / sample"
hm_bg b iperf3 -s -1 -p 5201 >"$T/iperf-s.txt" 2>&1
sleep 0.3
hm_on a iperf3 -c "$PBT_B4" -p 5201 -n 1M -b 20M >"$T/iperf.txt" 2>&1

# -- drop: inside R3 (5302) and on the link R3 -> B (5303)
pbt_select "proto udp dport 5302" "proto udp dport 5303" -- all || bail "postcard watch"
send 5302 --count 200 --rate 150 &
S1=$!
send 5303 --count 200 --rate 150
wait $S1

# -- loss: the relay drops 5 % and reorders 20 % of the data messages
pbt_select "proto udp dport 5304" -- all || bail "postcard watch"
sleep 0.3
kill -USR1 $RELAY
send 5304 --count 400 --rate 250
sleep 0.5
kill -USR2 $RELAY

# -- rate: 1500 marked packets/s, R2 exports 2 postcards each: 3000 records/s
pbt_select "proto udp dport 5305" -- all || bail "postcard watch"
R_T0=$(date +%s.%N)
send 5305 --count 4500 --rate 1500
R_T1=$(date +%s.%N)

sleep 1.5	# the collector's window (1 s) passes for the last packets
STATS_R2=$(hm_agent_stat "$T/nodes/r2.json.log" "$(eval echo "\$HM_AGENT_PID_r2")" ipfix sent)
LIMITED_R2=$(hm_agent_stat "$T/nodes/r2.json.log" "$(eval echo "\$HM_AGENT_PID_r2")" ipfix rate_limited)
pbt_agents_stop
kill $RELAY; wait $RELAY
pbt_collector_stop
hm_capture_stop "$CAP_A"
hm_capture_stop "$CAP_B"
kill $NFLOG_A $NFLOG_B 2>/dev/null
wait $NFLOG_A $NFLOG_B 2>/dev/null

# ---------------------------------------------------------------- checks

IN_NODE=$(hm_on r3 nft -j list counter inet pbt_drop in_node |
	"$PY" -c 'import json,sys; print([o["counter"]["packets"] for o in json.load(sys.stdin)["nftables"] if "counter" in o][0])')
ON_LINK=$(ldrop_get 3)
hm_check "A marked 1 % of 3000 datagrams: between 10 and 60 (binomial, p = 0.01)" \
	"True" "$([ "$M_SAMPLE" -ge 10 ] && [ "$M_SAMPLE" -le 60 ] && echo True || echo "False ($M_SAMPLE)")"
hm_check "R3's forward chain dropped marked packets of UDP 5302 (nft counter > 0)" \
	"True" "$([ "${IN_NODE:-0}" -gt 0 ] && echo True || echo "False (${IN_NODE:-none})")"
hm_check "the tc filter after R3's egress postcard dropped marked 5303 (counter > 0)" \
	"True" "$([ "${ON_LINK:-0}" -gt 0 ] && echo True || echo "False (${ON_LINK:-none})")"

$TOOL check --nodes "$T/nodes" --paths "$T/paths.json" --path-ids 1,2,3,4,5 \
	--complete 5301 --complete 5201 \
	--in-node "5302:4:${IN_NODE:-0}" --on-link "5303:4:${ON_LINK:-0}" \
	--lossy 5304 --relay "$T/relay.json" >"$T/checks.tsv" 2>"$T/checks.err" ||
	hm_not_ok "pbt_e2e.py check ran: $(tail -n 1 "$T/checks.err")"
hm_checks_from "$T/checks.tsv"

# Loss counted: the relay's dropped data records = what the collector counts
# as lost from the IPFIX sequence numbers (its exit statistics line).
DROPPED=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["dropped_records"])' "$T/relay.json")
LOST=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["ipfix"]["seq_lost"])' \
	"$T/collector-stats.json" 2>/dev/null)
hm_check "records the collector counts lost (IPFIX sequence numbers) = those the relay dropped" \
	"$DROPPED" "${LOST:-none}"

# Rate limit: R2's records that the relay passed in the steady part of the
# rate phase (after its first second), per second, against PBT_RATE.
R_T0=$("$PY" -c 'import sys; print(float(sys.argv[1]) + 1)' "$R_T0")
SENT=$($TOOL ipfix-count "$T/relay.log" --domain 3 --since "$R_T0" --until "$R_T1")
SECS=$("$PY" -c 'import sys; print(float(sys.argv[2]) - float(sys.argv[1]))' "$R_T0" "$R_T1")
hm_check "R2's export rate in the rate phase: $PBT_RATE records/s within 5 %" "True" \
	"$("$PY" -c 'import sys; r = float(sys.argv[1]) / float(sys.argv[2]); print("True" if abs(r / float(sys.argv[3]) - 1) <= 0.05 else "False (%.0f records/s)" % r)' \
	"$SENT" "$SECS" "$PBT_RATE")"
hm_check "R2's records not sent because of the rate limit are counted (> 0)" "True" \
	"$([ "${LIMITED_R2:-0}" -gt 0 ] 2>/dev/null && echo True || echo "False (${LIMITED_R2:-none}, sent ${STATS_R2:-none})")"

# The mark never leaves the domain.
MARKED_AT_B=$(tcpdump -n -r "$T/b.pcap" 'ip[6] & 0x80 != 0' 2>/dev/null | wc -l)
AFTER_END=$(hm_on b nft -j list counter netdev pbt_end marked_after_end |
	"$PY" -c 'import json,sys; print([o["counter"]["packets"] for o in json.load(sys.stdin)["nftables"] if "counter" in o][0])')
MARKED_A=$(tcpdump -n -r "$T/a.pcap" 'ip[6] & 0x80 != 0' 2>/dev/null | wc -l)
hm_check "marked packets reach B's interface (tcpdump before tc) > 0" "True" \
	"$([ "$MARKED_AT_B" -gt 0 ] && echo True || echo "False ($MARKED_AT_B)")"
hm_check "marked packets on B's interface = those A sent marked less the drops" \
	"$((MARKED_A - ${IN_NODE:-0} - ${ON_LINK:-0}))" "$MARKED_AT_B"
hm_check "marked packets that reach B's stack (after B's end role)" 0 "${AFTER_END:-none}"
hm_check_cmd "what B's stack gets = what A's stack sent, byte for byte but TTL - 3 and checksum" \
	$TOOL nflog-compare "$T/head.pcap" "$T/end.pcap" --hops 3
hm_done
