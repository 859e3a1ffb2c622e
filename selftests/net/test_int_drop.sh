#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_int_drop.sh - INT drop reports (Telemetry Report v2.0 §2.2, D): the
# int-drop role (bpf/hopmark_int_drop.bpf.c, tracing on kfree_skb) on the
# router R of S -- R -- D reports exactly the watched or INT-carrying
# packets R drops, with hopmark's Drop Reason (lib/int/int_drop.h), and
# nothing else:
#   - a pfifo of limit 0 on R's egress (qdisc), IPv4 and IPv6;
#   - an nftables drop rule in R's forward chain (netfilter), IPv4 and IPv6;
#   - TTL / Hop Limit 1 (ttl-expired), no route (no-route), a tc BPF
#     program returning TC_ACT_SHOT on R's ingress (tc: the datapath's
#     own drop);
#   - an INT packet (DSCP 0x17 + shim after UDP) that no rule watches;
#   - not reported: unwatched packets, Telemetry Reports (the collector's
#     port), the sink discard of a D packet (counted instead), drops in
#     another namespace (D's closed port), a lossless TCP transfer, and
#     anything once the role is detached.
# Each record's metadata is checked word by word: RepMdBits 0x5201 for the
# domain bitmap 0xd200 (node ID, L1 ports, queue, L2 ports: node ID goes in
# the report's group header), the L1/L2 interface IDs set with `hopmark
# link set`, queue ID 0 and the reason in the bit-15 word.
# R is set up as an operator does it: `hopmark int set / watch / report`
# and `hopmark int drops on | off`; counters come from `hopmark -j -s int
# show`. hm_int_drop_tool only reads the records of int_events.
set -u
HM_PFX=${HM_PFX:-hmi$$d}
. "$(dirname "$0")/../lib.sh"
HM_NODES="s r d"
TOOL=${HM_INT_DROP_TOOL:-$HM_BUILD/tests/hm_int_drop_tool}
TC_DROP=$HM_BUILD/tests/hm_tc_drop.bpf.o	# TC_ACT_SHOT for every packet
PORT=5000		# watched UDP port
COLLECTOR=6343		# the collector's port: watched, but never reported

hm_require_root_netns
hm_require_built "$TOOL" "$TC_DROP" "$HOPMARK" "$HM_BPF_DIR/hopmark_int_drop.bpf.o"
hm_trap_teardown
hm_tmpdir

setup()
{
	# Resolve the neighbours now: the drops below must be the ones we make.
	hm_line_create s r d && hm_line_wait s
}

setup || { echo "Bail out! topology"; exit 1; }
hm_on r "$HOPMARK" node set id 2 || { echo "Bail out! hopmark node set"; exit 1; }
hm_on r "$HOPMARK" link set dev r-s id 21 wide-id $((0x1000000 + 21)) &&
	hm_on r "$HOPMARK" link set dev r-d id 22 wide-id $((0x1000000 + 22)) ||
	{ echo "Bail out! hopmark link set"; exit 1; }

# send FAMILY DST DPORT COUNT [tos TOS] [ttl TTL] [int MDFLAGS]: UDP from S.
# "int" puts an INT-MD shim (NPT=0) and MD header after the UDP header.
send()
{
	hm_on s "$PY" - "$@" <<'EOF'
import socket, struct, sys
fam, dst, port, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
opts = dict(zip(sys.argv[5::2], sys.argv[6::2]))
af = socket.AF_INET if fam == "4" else socket.AF_INET6
s = socket.socket(af, socket.SOCK_DGRAM)
tos = int(opts.get("tos", "0"), 0)
if af == socket.AF_INET:
    s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
    if "ttl" in opts:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TTL, int(opts["ttl"]))
else:
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, tos)
    if "ttl" in opts:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_UNICAST_HOPS, int(opts["ttl"]))
payload = b"hopmark-drop-test".ljust(64, b".")
if "int" in opts:
    flags = int(opts["int"], 0)
    # shim: Type 1 (MD), NPT 0, Length 3 words, original DSCP 0
    # MD header: Ver 2, flags, Hop ML 2, RHC 8, bitmap 0x9000
    payload = (bytes([0x10, 3, 0, 0]) +
               struct.pack("!IHHHH", 2 << 28 | flags | 2 << 8 | 8, 0x9000, 0, 0, 0) +
               payload)
for _ in range(count):
    s.sendto(payload, (dst, port))
EOF
}

# expect NAME COUNT CMD...: run CMD on S while R's events are read; the
# records go to $HM_TMP/NAME.json (COUNT + 1 awaited, so an extra one shows).
expect()
{
	local name=$1 count=$2; shift 2
	hm_on r "$TOOL" events $((count + 1)) 1500 >"$HM_TMP/$name.json" &
	local pid=$!
	sleep 0.3
	"$@"
	wait $pid
}

q() { hm_json "$HM_TMP/$1.json" "$2"; }

# The bit-15 word: queue ID 0, reason, padding.
w15() { printf '00%02x0000' "$1"; }
# L1 (21/22 unless given), queue (ID 0, occupancy unknown), L2, bit 15.
md() { printf '%04x%04x00ffffff%08x%08x%s' "${2:-21}" "${3:-22}" \
	$(( 0x1000000 + ${4:-21} )) $(( 0x1000000 + ${5:-22} )) "$(w15 "$1")"; }

# drops NAME: one key of `hopmark -j -s int show`'s "drops" object (counters.X for a counter).
drops() { hm_on r "$HOPMARK" -j -s int show | "$PY" -c '
import json, sys
d = json.load(sys.stdin)["drops"]
for k in sys.argv[1].split("."):
    d = d[k]
print(d)' "$1"; }

hm_check_cmd "drop reports on (hopmark int drops on)" hm_on r "$HOPMARK" int drops on
hm_check "drops on: show gives hm_int_drop attached, the pinned link's program" \
	"hm_int_drop True $(hm_on r bpftool -j link show pinned "$(hm_bpffs r)/tc/globals/hm_int_drop_link" |
		"$PY" -c 'import json,sys; print(json.load(sys.stdin)["prog_id"])')" \
	"$(drops name) $(drops enabled) $(drops id)"
hm_check_cmd "domain configured (DSCP 0x17, bitmap 0xd200, watch UDP $PORT and $COLLECTOR)" \
	eval 'hm_on r "$HOPMARK" int set signal dscp 0x17/0x3f instructions 0xd200 report-trunc 48 &&
	hm_on r "$HOPMARK" int report set collector 10.9.9.9 port $COLLECTOR &&
	hm_on r "$HOPMARK" int watch add proto udp dport $PORT >/dev/null &&
	hm_on r "$HOPMARK" int watch add proto udp dport $COLLECTOR >/dev/null'

# ---- qdisc
hm_on r tc qdisc add dev r-d root pfifo limit 0
both() { send 4 10.2.0.2 $PORT 3; send 4 10.2.0.2 6000 3; send 6 fd02::2 $PORT 2; send 6 fd02::2 6000 2; }
expect qdisc 5 both
hm_check "qdisc: 5 watched drops reported, the 5 unwatched not" 5 "$(q qdisc 'len(recs)')"
hm_check "qdisc: kind DROP, flag D, reason qdisc" "[[3, 128, 1, \"qdisc\"]]" \
	"$(q qdisc 'sorted(set((r["kind"], r["flags"], r["drop_reason"], r["reason"]) for r in recs))')"
hm_check "qdisc: families 4,4,4,6,6" "[4, 4, 4, 6, 6]" "$(q qdisc 'sorted(r["family"] for r in recs)')"
hm_check "qdisc: on r-d, queue ID 0" "[[\"r-d\", 0]]" \
	"$(q qdisc 'sorted(set((r["dev"], r["queue_id"]) for r in recs))')"
hm_check "qdisc: node ID 2" "[2]" "$(q qdisc 'sorted(set(r["node_id"] for r in recs))')"
hm_check "qdisc: RepMdBits 0x5201, 20 octets of metadata" "[[\"0x5201\", 20]]" \
	"$(q qdisc 'sorted(set((r["rep_md_bits"], r["md_len"]) for r in recs))')"
hm_check "qdisc: metadata L1 21/22, queue 0 unknown occupancy, L2, reason 1" \
	"[\"$(md 1)\"]" "$(q qdisc 'sorted(set(r["md"] for r in recs))')"
hm_check "qdisc: packet from its IP header, 48 octets of 92 (IPv4) / 112 (IPv6)" \
	"[[4, 48, 92, \"45\"], [6, 48, 112, \"60\"]]" \
	"$(q qdisc 'sorted(set((r["family"], r["pkt_len"], r["orig_len"], r["pkt"][:2]) for r in recs))')"
hm_check "qdisc: the packet is the dropped datagram (UDP port $PORT)" "[$PORT]" \
	"$(q qdisc 'sorted(set(int(r["pkt"][(44 if r["family"] == 4 else 84):][:4], 16) for r in recs))')"

int_only() { send 4 10.2.0.2 7000 2 tos $((0x17 << 2)) int 0; send 4 10.2.0.2 7001 2 tos $((0x1f << 2)) int 0; }
expect int 2 int_only
hm_check "qdisc: INT packets (DSCP 0x17) reported though unwatched; DSCP 0x1f is not INT" \
	"[7000, 7000]" "$(q int 'sorted(int(r["pkt"][44:48], 16) for r in recs)')"
report() { send 4 10.2.0.2 $COLLECTOR 3; }
expect report 0 report
hm_check "qdisc: Telemetry Reports (UDP $COLLECTOR) never reported, though watched" 0 "$(q report 'len(recs)')"
hm_on r tc qdisc del dev r-d root

# ---- netfilter
if command -v nft >/dev/null 2>&1; then
	hm_on r nft -f - <<EOF
table inet hm_drop_test {
	chain forward_drop { type filter hook forward priority 0; udp dport $PORT drop; }
}
EOF
	nf() { send 4 10.2.0.2 $PORT 2; send 6 fd02::2 $PORT 2; }
	expect netfilter 4 nf
	hm_check "netfilter: 4 drops, reason netfilter (2), families 4,4,6,6" \
		"[[2, 4], [2, 4], [2, 6], [2, 6]]" \
		"$(q netfilter 'sorted([r["drop_reason"], r["family"]] for r in recs)')"
	hm_check "netfilter: dropped at R's ingress r-s before routing: L1 21, egress unknown" \
		"[\"$(md 2 21 $((0xffff)) 21 $((0xffffffff - 0x1000000)))\"]" \
		"$(q netfilter 'sorted(set(r["md"] for r in recs))')"
	hm_on r nft delete table inet hm_drop_test
else
	hm_skip "netfilter: nftables drop rule" "nft not installed (apt-get install nftables)"
	hm_skip "netfilter: metadata" "nft not installed"
fi

# ---- TTL, no route, tc
ttl() { send 4 10.2.0.2 $PORT 1 ttl 1; send 6 fd02::2 $PORT 1 ttl 1; }
expect ttl 2 ttl
hm_check "TTL / Hop Limit 1: reason ttl-expired (4), IPv4 and IPv6" "[[4, 4], [4, 6]]" \
	"$(q ttl 'sorted([r["drop_reason"], r["family"]] for r in recs)')"
noroute() { send 4 10.9.0.1 $PORT 1; }
expect noroute 1 noroute
hm_check "no route to 10.9.0.1: reason no-route (3)" "[3]" "$(q noroute 'sorted(r["drop_reason"] for r in recs)')"
if hm_on r tc qdisc add dev r-s clsact &&
   hm_on r tc filter add dev r-s ingress bpf da obj "$TC_DROP" sec tc; then
	tcd() { send 4 10.2.0.2 $PORT 2; send 4 10.2.0.2 7000 2 tos $((0x17 << 2)) int $((1 << 27)); }
	expect tc 2 tcd
	hm_check "tc drop on R's ingress: reason tc (5); an INT packet with D is the sink's discard" \
		"[5, 5]" "$(q tc 'sorted(r["drop_reason"] for r in recs)')"
	hm_check "tc drop of a D packet counted as drop_sink_discard, not reported" 2 \
		"$(drops counters.drop_sink_discard)"
	hm_on r tc qdisc del dev r-s clsact
else
	hm_not_ok "tc drop program attaches to R's ingress"
fi

# ---- not ours
other() { send 4 10.2.0.2 $PORT 3; send 6 fd02::2 $PORT 3; }
expect otherns 0 other
hm_check "drops in another namespace (D's closed port $PORT) are not R's" 0 "$(q otherns 'len(recs)')"
if command -v iperf3 >/dev/null 2>&1; then
	# Every packet watched, no collector: the drop rule's port is no exception.
	hm_on r "$HOPMARK" int watch flush && hm_on r "$HOPMARK" int report del
	hm_bg d iperf3 -s -1 >"$HM_TMP/iperf-server.txt" 2>&1
	sleep 0.5
	tcp() { hm_on s iperf3 -c 10.2.0.2 -t 2 >"$HM_TMP/iperf.txt" 2>&1; }
	expect tcp 0 tcp
	hm_check "a lossless TCP transfer, every packet watched: no drop record" \
		"0 records, iperf3 ok" "$(q tcp 'len(recs)') records, iperf3 $(grep -q receiver "$HM_TMP/iperf.txt" && echo ok || echo failed)"
else
	hm_skip "lossless TCP transfer" "iperf3 not installed"
fi
TOTAL=$(cat "$HM_TMP"/{qdisc,int,netfilter,ttl,noroute,tc}.json 2>/dev/null | wc -l)
hm_check "int_stats drop_report (int show -s) equals the records read" "$TOTAL" \
	"$(drops counters.drop_report)"

hm_check_cmd "drop reports off (hopmark int drops off)" hm_on r "$HOPMARK" int drops off
hm_check "off: no program linked, no link pinned" "False None no-pin" \
	"$(drops enabled) $(drops id) $([ -e "$(hm_bpffs r)/tc/globals/hm_int_drop_link" ] && echo pin || echo no-pin)"
hm_on r tc qdisc add dev r-d root pfifo limit 0
expect detached 0 both
hm_check "detached: drops are no longer reported" 0 "$(q detached 'len(recs)')"

hm_done
