#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_pbt_mark.sh - PBT-M marking on a line of namespaces, configured with
# `hopmark postcard` only:
#
#   H ------ A ------ B ------ C ------ D
#   host     head     transit  end      host
#
# A is the domain's head (roles head and egress on a-b; its access list
# the test's UDP), B a PBT-M-aware
# transit node (ingress on b-a, egress on b-c), C the end node (ingress on
# c-b, egress and end on c-d). H sends UDP to D (selftests/net/hm_pbt.py);
# tcpdump captures what enters the domain (a-h, in), a link inside it
# (b-a, in) and what leaves it (c-d, out). Link k (0..3) is 10.9.k.0/24
# and fd09:k::/64, left end .1 / ::1, right end .2 / ::2.
#
#   pbt_mark_<method>_*	for each method (IPv4 reserved flag bit, IPv4 TOS
#			bit 0x10, IPv6 Traffic Class bit 0x04, IPv6 SRH
#			O-flag with H's route `encap seg6 mode inline`):
#			every packet is marked inside the domain, none
#			enters or leaves marked, the IPv4 header checksum
#			stays valid (RFC 1624 update), what leaves equals
#			what entered octet for octet but TTL / Hop Limit
#			and the IPv4 checksum; the counters of every node
#			(marked, postcard_ingress / _egress, cleared) are
#			the packet count: a postcard per node and point
#   pbt_sample_*	sample packet 4: the marked share, marked +
#			not_sampled = the packets
#   pbt_watch_*		the access list: a watched port marked, another
#			not (not_watched)
#   pbt_interval_*	sample interval 100: one marked packet per 100 ms
#			of a flow
#   pbt_meter_*		meter 200 burst 10 under 1000 packets/s: the
#			marked count what the token bucket, replayed over
#			the packets' arrival times, allows, at most 10 +
#			200/s, the rest metered
#   pbt_trigger_*	trigger ce: a flow is marked after a CE packet for
#			its hold, another flow not (not_triggered)
#
#   pbt_postcards_*	hopmarkd on A, B and C writes a "pbt" postcard per
#			packet, node and point, with the node's ID, the
#			TTL / Hop Limit it saw (one less per hop), head and
#			end flags, and one packet ID at every node
#
# The datapath's counters agree (postcard_ingress, postcard_egress,
# events_lost 0).
# TAP output; skip (exit 4, or 0 under prove) without root, netns or tcpdump.
set -u
HM_PFX=${HM_PFX:-hmt-pbm$$}
. "$(dirname "$0")/../lib.sh"

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
command -v tcpdump >/dev/null || hm_skip_all "needs tcpdump"
command -v ethtool >/dev/null || hm_skip_all "needs ethtool"
HM_NODES="h a b c d"
PBT_PY=$HM_TOP/selftests/net/hm_pbt.py
D4=10.9.3.2
D6=fd09:3::2
N=50

hm_tmpdir
hm_trap_teardown

# ---- topology
declare -A CMDS=()
pbt_link()
{
	local k=$1 l=$2 r=$3 e
	ip link add "$l-$r" netns "$(hm_ns "$l")" numtxqueues 1 numrxqueues 1 type veth \
		peer name "$r-$l" netns "$(hm_ns "$r")" numtxqueues 1 numrxqueues 1 || return
	for e in "$l-$r:1" "$r-$l:2"; do
		CMDS[${e%%-*}]+="ethtool -K ${e%%:*} tx off >/dev/null 2>&1; ip addr add 10.9.$k.${e##*:}/24 dev ${e%%:*}; ip -6 addr add fd09:$k::${e##*:}/64 dev ${e%%:*} nodad; ip link set ${e%%:*} up; "
	done
}
HM_TOPO_UP=1
for n in $HM_NODES; do
	hm_node_add "$n" || { echo "Bail out! node $n"; exit 1; }
	CMDS[$n]=$HM_ROUTER_INIT
done
pbt_link 0 h a && pbt_link 1 a b && pbt_link 2 b c && pbt_link 3 c d ||
	{ echo "Bail out! links"; exit 1; }
CMDS[h]+="ip route add default via 10.9.0.2; ip -6 route add default via fd09:0::2; "
CMDS[d]+="ip -6 addr add fd09:9::2/128 dev lo; ip route add default via 10.9.3.1; ip -6 route add default via fd09:3::1; sysctl -qw net.ipv6.conf.lo.seg6_enabled=1; sysctl -qw net.ipv6.conf.all.seg6_enabled=1 net.ipv6.conf.d-c.seg6_enabled=1; "
CMDS[a]+="ip route add 10.9.2.0/23 via 10.9.1.2; ip -6 route add fd09:2::/64 via fd09:1::2; ip -6 route add fd09:3::/64 via fd09:1::2; ip -6 route add fd09:9::/64 via fd09:1::2; "
CMDS[b]+="ip route add 10.9.0.0/24 via 10.9.1.1; ip route add 10.9.3.0/24 via 10.9.2.2; ip -6 route add fd09:0::/64 via fd09:1::1; ip -6 route add fd09:3::/64 via fd09:2::2; ip -6 route add fd09:9::/64 via fd09:2::2; "
CMDS[c]+="ip route add 10.9.0.0/23 via 10.9.2.1; ip -6 route add fd09:0::/64 via fd09:2::1; ip -6 route add fd09:1::/64 via fd09:2::1; ip -6 route add fd09:9::/64 via fd09:3::2; "
for n in $HM_NODES; do
	hm_on "$n" sh -c "${CMDS[$n]}" || { echo "Bail out! setup $n"; exit 1; }
done
hm_wait_reach h "$D4" "$D6" 50 0.1 "pbt topology: H cannot reach D" || { echo "Bail out! path"; exit 1; }

# ---- the domain, with the CLI only
declare -A ID=([a]=1 [b]=2 [c]=3)
for n in a b c; do
	hm_on "$n" "$HOPMARK" node set id "${ID[$n]}" || { echo "Bail out! node id $n"; exit 1; }
done
# pc_all ARGS... - the same `hopmark postcard ARGS` on every node of the domain.
pc_all()
{
	local n
	for n in a b c; do
		hm_on "$n" "$HOPMARK" postcard "$@" >/dev/null || return
	done
}
# The test's UDP only: the nodes' own ND and ICMP stay unmarked.
pc_all set mark-ipv4 reserved mark-ipv6 tc 0x04 && pc_all watch add proto udp &&
	hm_on a "$HOPMARK" postcard enable dev a-b role head &&
	hm_on a "$HOPMARK" postcard enable dev a-b role egress &&
	hm_on b "$HOPMARK" postcard enable dev b-a role ingress &&
	hm_on b "$HOPMARK" postcard enable dev b-c role egress &&
	hm_on c "$HOPMARK" postcard enable dev c-b role ingress &&
	hm_on c "$HOPMARK" postcard enable dev c-d role egress &&
	hm_on c "$HOPMARK" postcard enable dev c-d role end ||
	{ echo "Bail out! roles"; exit 1; }

# cnt NODE DEV NAME - one PBT-M counter of DEV (hopmark -j -s postcard show).
cnt()
{
	hm_on "$1" "$HOPMARK" -j -s postcard show | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
print([i for i in d["interfaces"] if i["dev"] == sys.argv[1]][0]["counters"][sys.argv[2]])' "$2" "$3"
}
# snap - every counter the checks use, "NODE:DEV:NAME=V" words, into SNAP.
WATCHED="a:a-b:marked a:a-b:postcard_egress a:a-b:not_sampled a:a-b:not_watched a:a-b:metered
	 a:a-b:triggered a:a-b:not_triggered b:b-a:postcard_ingress b:b-c:postcard_egress
	 c:c-b:postcard_ingress c:c-d:postcard_egress c:c-d:cleared"
snap()
{
	local w n d k
	SNAP=
	for w in $WATCHED; do
		IFS=: read -r n d k <<<"$w"
		SNAP+=" $w=$(cnt "$n" "$d" "$k")"
	done
}
# delta NODE:DEV:NAME - the counter now minus in the last snap.
delta()
{
	local n d k old
	IFS=: read -r n d k <<<"$1"
	old=$(tr ' ' '\n' <<<"$SNAP" | sed -n "s/^$1=//p")
	echo $(( $(cnt "$n" "$d" "$k") - old ))
}

# ---- hopmarkd on every node of the domain: the postcards as JSON lines
for n in a b c; do
	hm_agent_start "$n" "$HM_TMP/agent.$n" || { echo "Bail out! hopmarkd on $n"; exit 1; }
done

# ---- captures for the whole test; each phase has its own UDP port
# cap NODE IF DIR FILE - tcpdump of one direction (-Q) of IF, as
# hm_capture_start does it; HM_CAP_PID its pid.
cap()
{
	local i
	hm_bg "$1" tcpdump -Z root -B 65536 --immediate-mode -U -n -s 0 -Q "$3" -i "$2" \
		-w "$4" "udp or ip6" >"$4.log" 2>&1
	HM_CAP_PID=$HM_BG_PID
	for i in $(seq 50); do
		grep -q "listening on" "$4.log" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
cap a a-h in "$HM_TMP/in.pcap" && IN_PID=$HM_CAP_PID &&
	cap b b-a in "$HM_TMP/mid.pcap" && MID_PID=$HM_CAP_PID &&
	cap c c-d out "$HM_TMP/out.pcap" && OUT_PID=$HM_CAP_PID || { echo "Bail out! tcpdump"; exit 1; }

send() { hm_on h "$PY" "$PBT_PY" send "$@"; }

# ---- the four methods, N packets each
declare -A PORT=([v4rsvd]=5001 [v4tos]=5002 [v6tc]=5003 [v6oflag]=5004)
declare -A BIT=([v4rsvd]=0 [v4tos]=0x10 [v6tc]=0x04 [v6oflag]=0x04)
declare -A DELTAS=()
for m in v4rsvd v4tos v6tc v6oflag; do
	case $m in
	v4rsvd)	pc_all set mark-ipv4 reserved ;;
	v4tos)	pc_all set mark-ipv4 tos 0x10 ;;
	v6tc)	pc_all set mark-ipv6 tc 0x04 ;;
	v6oflag) pc_all set mark-ipv6 oflag
		# The SRH's active segment is D's loopback address: no node of
		# the domain processes the SRH, D does (seg6_enabled).
		hm_on h ip -6 route add "$D6/128" encap seg6 mode inline segs fd09:9::2 via fd09:0::2 dev h-a ;;
	esac
	snap
	if [ "${m:0:2}" = v4 ]; then
		send 4 "$D4" 4000 "${PORT[$m]}" "$N" 500 >/dev/null
	else
		send 6 "$D6" 4000 "${PORT[$m]}" "$N" 500 >/dev/null
	fi
	sleep 0.2
	DELTAS[$m]="$(delta a:a-b:marked) $(delta a:a-b:postcard_egress) $(delta b:b-a:postcard_ingress) $(delta b:b-c:postcard_egress) $(delta c:c-b:postcard_ingress) $(delta c:c-d:postcard_egress) $(delta c:c-d:cleared)"
	[ "$m" != v6oflag ] || hm_on h ip -6 route del "$D6/128"
done
pc_all set mark-ipv4 reserved mark-ipv6 tc 0x04

# ---- sampling 1:4
pc_all sample packet 4
snap
send 4 "$D4" 4001 5005 400 2000 >/dev/null
sleep 0.2
S_MARKED=$(delta a:a-b:marked)
S_NOT=$(delta a:a-b:not_sampled)
pc_all sample all

# ---- the access list
pc_all watch flush
pc_all watch add proto udp dport 5006
snap
send 4 "$D4" 4002 5006 20 500 >/dev/null
send 4 "$D4" 4002 5007 20 500 >/dev/null
sleep 0.2
W_NOT=$(delta a:a-b:not_watched)
pc_all watch flush
pc_all watch add proto udp

# ---- one packet per flow per 100 ms
pc_all sample interval 100
send 4 "$D4" 4003 5008 200 200 >/dev/null
pc_all sample all

# ---- the meter: 200 marked packets/s, burst 10, under 1000 packets/s
pc_all set meter 200 burst 10
snap
send 4 "$D4" 4004 5009 3000 1000 >/dev/null
sleep 0.2
M_MARKED=$(delta a:a-b:marked)
M_METERED=$(delta a:a-b:metered)
pc_all set meter off

# ---- the CE trigger
pc_all set trigger ce hold 1000
snap
send 4 "$D4" 4005 5010 20 100 --ce-first >/dev/null
send 4 "$D4" 4006 5011 20 100 >/dev/null
sleep 0.2
T_TRIG=$(delta a:a-b:triggered)
T_NOT=$(delta a:a-b:not_triggered)
pc_all set trigger off

sleep 0.5
for n in a b c; do
	hm_agent_stop "$n"
done
hm_capture_stop "$IN_PID"
hm_capture_stop "$MID_PID"
hm_capture_stop "$OUT_PID"

# ---- checks: the four methods
for m in v4rsvd v4tos v6tc v6oflag; do
	"$PY" "$PBT_PY" check "$HM_TMP/in.pcap" "$HM_TMP/mid.pcap" "$HM_TMP/out.pcap" "$m" \
		"${BIT[$m]}" "${PORT[$m]}" "$N" >"$HM_TMP/c.$m" 2>&1
	hm_checks_from "$HM_TMP/c.$m"
	hm_check "pbt_mark_${m}_counters_marked_postcards_cleared" \
		"$N $N $N $N $N $N $N" "${DELTAS[$m]}"
done
# The postcards hopmarkd wrote: one per node and point for every packet,
# with the node's ID, the TTL / Hop Limit it saw, and one packet ID everywhere.
for m in v4rsvd v4tos v6tc v6oflag; do
	hm_check "pbt_postcards_${m}_per_node_point_ids_ttl" \
		"a egress 1 $N 63 head; b ingress 2 $N 63; b egress 2 $N 62; c ingress 3 $N 62; c egress 3 $N 61 end; same $N packet ids" \
		"$("$PY" -c '
import json, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
out, ids = [], []
for node, point in (("a", "egress"), ("b", "ingress"), ("b", "egress"), ("c", "ingress"),
                    ("c", "egress")):
    recs = []
    for l in open(sys.argv[3] + "/agent." + node):
        try:
            r = json.loads(l)
        except ValueError:
            continue
        if r.get("postcard") == "pbt" and r["point"] == point and r["packet"]["dport"] == port:
            recs.append(r)
    ttl = " ".join(sorted(set(str(r["ttl"]) for r in recs)))
    nid = " ".join(sorted(set(str(r["node"]["node_id"]) for r in recs)))
    flag = ""
    if node == "a":
        flag = " head" if recs and all(r["head"] for r in recs) else " not head"
    if node == "c" and point == "egress":
        flag = " end" if recs and all(r["end"] for r in recs) else " not end"
    out.append("%s %s %s %d %s%s" % (node, point, nid, len(recs), ttl, flag))
    ids.append(sorted(r["pkt_id"] for r in recs))
same = all(i == ids[0] for i in ids) and len(set(ids[0])) == len(ids[0])
out.append("%s %d packet ids" % ("same" if same else "differ:", len(set(ids[0]))))
print("; ".join(out))' "${PORT[$m]}" "$N" "$HM_TMP" 2>&1)"
done
hm_check "pbt_mark_v6oflag_packets_carry_an_srh" "$N" "$("$PY" -c '
import sys
sys.path.insert(0, sys.argv[2])
import hm_pbt
print(sum(1 for _, ip in hm_pbt.of_port(sys.argv[1], 5004) if hm_pbt.udp_of(ip)[2] is not None))
' "$HM_TMP/mid.pcap" "$HM_TOP/selftests/net" 2>&1)"
hm_check "pbt_mark_v6oflag_traffic_class_left_alone" 0 \
	"$("$PY" "$PBT_PY" marks "$HM_TMP/mid.pcap" 5004 v6tc 0x04 | cut -d' ' -f1)"

# ---- sampling, watch, interval, meter, trigger
read -r sm st _ _ <<<"$("$PY" "$PBT_PY" marks "$HM_TMP/mid.pcap" 5005 v4rsvd 0)"
hm_check "pbt_sample_marked_plus_not_sampled_is_every_packet" "400 $S_MARKED 400" \
	"$((S_MARKED + S_NOT)) $sm $st"
hm_check "pbt_sample_one_in_four_within_5_sd" "yes" \
	"$([ "$S_MARKED" -ge 57 ] && [ "$S_MARKED" -le 143 ] && echo yes || echo "no: $S_MARKED of 400")"
hm_check "pbt_watch_only_the_watched_port" "5006 20 20 5007 0 20 not_watched 20" \
	"$("$PY" "$PBT_PY" marked-flows "$HM_TMP/mid.pcap" v4rsvd 0 5006 5007 | tr '\n' ' ')not_watched $W_NOT"
hm_check "pbt_interval_one_mark_per_100ms" "ok" "$("$PY" -c '
import sys
sys.path.insert(0, sys.argv[2])
import hm_pbt
pk = hm_pbt.of_port(sys.argv[1], 5008)
t = [ts for ts, ip in pk if hm_pbt.marked(ip, "v4rsvd", 0)]
gaps = [(b - a) / 1e6 for a, b in zip(t, t[1:])]
span = (pk[-1][0] - pk[0][0]) / 1e6 if pk else 0
want = int(span // 100) + 1
if len(pk) != 200 or not (want - 1 <= len(t) <= want) or (gaps and min(gaps) < 95):
    print("%d packets, %d marked over %.0f ms (want %d), smallest gap %.1f ms" %
          (len(pk), len(t), span, want, min(gaps) if gaps else 0))
else:
    print("ok")
' "$HM_TMP/mid.pcap" "$HM_TOP/selftests/net" 2>&1)"
read -r mm mt _ _ <<<"$("$PY" "$PBT_PY" marks "$HM_TMP/mid.pcap" 5009 v4rsvd 0)"
hm_check "pbt_meter_marked_plus_metered_is_every_packet" "3000 $M_MARKED 3000" \
	"$((M_MARKED + M_METERED)) $mm $mt"
# What the bucket allows, replayed over the capture's arrival times (the
# tolerance and why: hm_pbt.py's cmd_meter()); the sender's pace under
# load does not enter.
"$PY" "$PBT_PY" meter "$HM_TMP/mid.pcap" 5009 v4rsvd 0 200 10 >"$HM_TMP/meter.checks" \
	2>"$HM_TMP/meter.log"
hm_checks_from "$HM_TMP/meter.checks"
hm_log "$(cat "$HM_TMP/meter.log")"
hm_check "pbt_trigger_ce_flow_marked_other_not" "5010 20 20 5011 0 20" \
	"$("$PY" "$PBT_PY" marked-flows "$HM_TMP/mid.pcap" v4rsvd 0 5010 5011 | tr '\n' ' ' | sed 's/ $//')"
hm_check "pbt_trigger_counters" "triggered 20 not_triggered 20" \
	"triggered $T_TRIG not_triggered $T_NOT"

# ---- nothing marked ever left the domain, and no postcard was lost
hm_check "pbt_no_marked_packet_left_the_domain" 0 "$("$PY" -c '
import sys
sys.path.insert(0, sys.argv[2])
import hm_pbt
n = 0
for _, ip in hm_pbt.pcap_packets(sys.argv[1]):
    for m, b in (("v4rsvd", 0), ("v4tos", 0x10), ("v6tc", 0x04), ("v6oflag", 0x04)):
        if (ip[0] >> 4 == 4) == m.startswith("v4") and hm_pbt.marked(ip, m, b):
            n += 1
            break
print(n)' "$HM_TMP/out.pcap" "$HM_TOP/selftests/net" 2>&1)"
lost=0
for w in a:a-b b:b-a b:b-c c:c-b c:c-d; do
	lost=$((lost + $(cnt "${w%%:*}" "${w#*:}" events_lost)))
done
hm_check "pbt_no_postcard_lost" 0 "$lost"
hm_done
