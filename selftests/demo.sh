#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# demo.sh - hopmark in five network namespaces, end to end (`make demo`).
#
#   A ---- R1 ---- R2 ---- R3 ---- B
#   encap  transit Linux   transit decap + hopmarkd
#          (tc+tc)  IOAM   (tc+tc)  (tc ingress)
#
# A adds an IOAM Pre-allocated Trace (IOAM-Namespace 123, Trace-Type
# 0xfff000, 4 node slots) to everything it sends to B; R1 and R3 fill their
# slot with hopmark's BPF programs, R2 with the Linux kernel's own IOAM
# code; B removes the option and hands the trace to hopmarkd. The demo sends
# a few pings, a small UDP flow and a 2 s TCP transfer (TSO/GSO on at A),
# prints the traced packets as `hopmark monitor` shows them (the first few
# per phase only, to stay readable), the per-hop latency summary over all
# of them (`hopmark monitor file` over hopmarkd's complete JSON output), one
# whole JSON record, and the counters. Everything is removed on exit or
# Ctrl-C.
#
# Then the postcard phase (PBT-M, selftests/pbt_lib.sh): IPv4 on the same
# line and a management network from every node to the host; A marks 1 %
# of a UDP flow (sample packet 100), then all of one TCP flow (sample all);
# every node's hopmarkd exports its postcards as IPFIX to
# hopmark-collector on the host, which stitches them into per-packet
# paths; an nft rule in R3's forward chain drops every 4th marked UDP
# datagram, and the demo prints the paths (`hopmark-collector show`) and
# where the collector located the drops: "dropped at R3".
#
# Usage: selftests/demo.sh [-n TABLES_PER_PHASE]   (as root; default 2)
# HM_PFX sets the namespace prefix (default "hm").
set -u

HM_PFX=${HM_PFX:-hm}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pbt_lib.sh"

TABLES=2
while getopts "n:h" o; do
	case $o in
	n) TABLES=$OPTARG ;;
	*) sed -n '3,29p' "$0"; exit 2 ;;
	esac
done

if [ -t 1 ]; then
	step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
else
	step() { printf '\n== %s\n' "$*"; }
fi
say() { printf '   %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (network namespaces, BPF)"
for f in "$HOPMARK" "$HOPMARKD" "$HM_COLLECTOR"; do
	[ -x "$f" ] || die "$f is not built: run 'make all' (or 'make demo')"
done
for c in iperf3 ethtool nft ss; do
	command -v $c >/dev/null || die "$c missing: run 'make deps'"
done
for n in $HM_NODES; do
	[ ! -e "/run/netns/$(hm_ns "$n")" ] ||
		die "namespace $(hm_ns "$n") exists: another demo runs (or set HM_PFX)"
done
! ip link show "$PBT_BR" >/dev/null 2>&1 ||
	die "bridge $PBT_BR exists: another demo runs (or set HM_PFX)"
! ss -Hluntp "sport = :$PBT_COLL_PORT" | grep -q . ||
	die "port $PBT_COLL_PORT is taken: the demo's collector listens there (UDP and TCP; set PBT_COLL_PORT)"
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf

pbt_trap_teardown
hm_tmpdir
OUT=$HM_TMP

# Stop a background `hopmark monitor`, letting it print its summary.
monitor_stop()
{
	local pid=$1 i
	for i in $(seq 30); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -INT "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

# A `hopmark monitor count N` on B printing the next N traced packets.
tables_start()
{
	hm_bg b "$HOPMARK" monitor count "$TABLES" >"$OUT/tables.txt" 2>&1
	TABLES_PID=$HM_BG_PID
	sleep 0.3
}

tables_show()
{
	monitor_stop "$TABLES_PID"
	say "first $TABLES traced packets of this phase, as 'hopmark monitor' prints them:"
	sed 's/^/   /' "$OUT/tables.txt"
}

step "Topology: 5 network namespaces, IPv6, static routes"
hm_topo_create || die "could not build the topology"
say "A $HM_A_ADDR - R1 - R2 - R3 - B $HM_B_ADDR   (namespaces $(hm_ns a) ... $(hm_ns b))"
say "each node has its own bpffs: $(hm_bpffs a) ... (TC_BPF_MNT)"
say "R2: Linux IOAM transit: ip ioam namespace add $HM_NS_ID; net.ipv6.ioam6_id=3; ioam6_enabled on r2-r1"

step "hopmark: encap on A, transit on R1 and R3, decap on B"
say "hopmark node set id N; hopmark link set dev X id ID; hopmark ioam namespace add $HM_NS_ID"
say "A : hopmark ioam encap add $HM_B_PREFIX dev a-r1 ns $HM_NS_ID trace-type $HM_TRACE_TYPE size $HM_TRACE_SIZE"
say "R1: hopmark ioam transit enable dev r1-a; ... dev r1-r2   (R3 alike)"
say "B : hopmark ioam decap enable dev b-r3; hopmarkd -o FILE"
hm_setup_cli || die "hopmark configuration failed"
hm_agent_start b "$OUT/b.json" || die "hopmarkd on B did not start"
# hopmarkd on the transit nodes fills their queue-depth map (and TAI offset).
hm_agent_start r1 "$OUT/r1.json" || die "hopmarkd on R1 did not start"
hm_agent_start r3 "$OUT/r3.json" || die "hopmarkd on R3 did not start"
say "R1 now:"
hm_on r1 "$HOPMARK" link show | sed 's/^/     /'

step "ping A -> B (3 echo requests)"
tables_start
hm_on a ping -6 -c 3 -i 0.2 -q $HM_B_ADDR | sed 's/^/   /'
tables_show

step "UDP A -> B: 100 datagrams of 500 bytes in 1 s (400 kbit/s)"
hm_bg b socat -u UDP6-RECV:5300 "OPEN:$OUT/udp.rx,creat,trunc"
UDP_RX=$HM_BG_PID
sleep 0.3
tables_start
hm_on a "$PY" "$HM_TOP/selftests/net/hm_pkt.py" send $HM_B_ADDR 5300 \
	--count 100 --size 500 --interval 0.01
sleep 0.3
kill "$UDP_RX" 2>/dev/null
wait "$UDP_RX" 2>/dev/null
say "B received $(( $(stat -c %s "$OUT/udp.rx") / 500 )) datagrams"
tables_show

step "TCP A -> B: iperf3, 2 s at 20 Mbit/s, TSO/GSO on at A"
hm_on a ethtool -K a-r1 tso on gso on >/dev/null 2>&1
say "A's a-r1: $(hm_on a ethtool -k a-r1 | grep -E '^(tcp-segmentation-offload|generic-segmentation-offload)' | tr -s ' \n' ' ')"
say "(a veth loses TSO while its peer runs an XDP program without frags support;"
say " hopmark's transit runs at tc ingress on a veth, so R1's r1-a leaves it on;"
say " hm_encap sees 64 KB skbs at tc egress and shrinks gso_size by the 256 bytes"
say " it adds, so every segment carries the option)"
hm_bg b iperf3 -s -1 -p 5202 >/dev/null 2>&1
sleep 0.3
tables_start
hm_on a iperf3 -6 -c $HM_B_ADDR -p 5202 -t 2 -b 20M 2>&1 |
	grep -E "receiver|sender" | sed 's/^/   /'
tables_show

step "Per-hop summary over every traced packet"
sleep 0.5
# Stopping hopmarkd closes its JSON file with every record in it (the
# monitor socket, by contrast, drops a client that falls behind).
hm_agent_stop b
N_JSON=$(wc -l <"$OUT/b.json")
say "hopmarkd on B wrote $N_JSON JSON records to its -o file;"
say "hopmark monitor file FILE reads them all (tables, then this summary):"
hm_on b "$HOPMARK" monitor file "$OUT/b.json" >"$OUT/all.txt" 2>&1 ||
	die "hopmark monitor file failed: $(tail -n 3 "$OUT/all.txt")"
# The summary follows the last table: from the last "N records" line on.
awk '/^ *[0-9]+ records/ { n = NR } { l[NR] = $0 } END { for (i = n; n && i <= NR; i++) print l[i] }' \
	"$OUT/all.txt" | sed 's/^/   /'
MON_N=$(grep -Eo '^ *[0-9]+ records' "$OUT/all.txt" | tail -n 1 | tr -dc 0-9)
[ "${MON_N:-0}" = "$N_JSON" ] ||
	say "(the summary covers ${MON_N:-0} of the $N_JSON records: see the errors above)"
say "hopmarkd's exit line (B):"
# One "key value" pair after the other, never split between key and value.
# Parts "SOURCE (SCOPE): key value ..." joined by "; " (hopmarkd.8).
grep -h "exiting" "$OUT/b.json.log" | awk '{
	sub(/^.*exiting: */, "")
	np = split($0, parts, "; ")
	for (p = 1; p <= np; p++) {
		line = parts[p]
		sub(/: .*/, ":", line)
		kv = parts[p]
		sub(/^[^:]*: /, "", kv)
		nw = split(kv, w, " ")
		for (i = 1; i < nw; i += 2) {
			pair = w[i] " " w[i + 1]
			if (length(line) + 2 + length(pair) > 70) {
				print line
				line = pair
			} else {
				line = line "  " pair
			}
		}
		print line
	}
}' | sed 's/^/     /'
say "B's counters (decap_ok: traced packets B received; events_lost: records"
say "dropped because the ring buffer was full while hopmarkd was busy):"
hm_on b "$HOPMARK" -s link show dev b-r3 | sed 's/^/     /'

step "One whole record as hopmarkd writes it (one line in its file; pretty here)"
head -n 1 "$OUT/b.json" | "$PY" -m json.tool --indent 2 | sed 's/^/   /'

step "R1's counters: hopmark link show -s"
hm_on r1 "$HOPMARK" -s link show | sed 's/^/   /'

step "Postcards (PBT-M): IPv4 on the same line, a management network to the host"
pbt_v4_setup || die "IPv4 on the line failed"
pbt_mgmt_setup || die "the management network failed"
hm_cfg_node r2 || die "hopmark node set on R2 failed"
say "A $PBT_A4 - R1 - R2 - R3 - B $PBT_B4   (link k: 10.9.k.0/24)"
say "management: node N is $PBT_MGMT_NET.N on its 'mgmt' veth, the host $PBT_HOST_ADDR"
say "(bridge $PBT_BR); node IDs A 1, R1 2, R2 3, R3 4, B 5 (R2 now too)"

step "IOAM off: the postcard phase runs PBT-M alone"
# The postcard phase shows PBT-M's paths alone: IOAM off, so that what R3
# drops and what the collector stitches come from PBT-M only.
hm_on a "$HOPMARK" ioam encap del $HM_B_PREFIX || die "hopmark ioam encap del failed"
# encap del leaves hm_encap on a-r1 (with no prefix to encapsulate): off with tc.
hm_on a tc filter del dev a-r1 egress pref $((0x4801)) 2>/dev/null
for n in r1 r3; do
	for ifc in "${PBT_LEFT[$n]}" "${PBT_RIGHT[$n]}"; do
		hm_on "$n" "$HOPMARK" ioam transit disable dev "$ifc" ||
			die "hopmark ioam transit disable failed"
	done
done
hm_on b "$HOPMARK" ioam decap disable dev b-r3 || die "hopmark ioam decap disable failed"
say "A : hopmark ioam encap del $HM_B_PREFIX (and its tc filter); R1, R3: ioam transit disable;"
say "B : ioam decap disable (PBT-M alone on the line)"

step "PBT-M on every node, hopmarkd exporting IPFIX, hopmark-collector on the host"
# hopmarkd starts again on every node, so that each one exports.
hm_agent_stop r1
hm_agent_stop r3
pbt_setup || die "hopmark postcard configuration failed"
say "every node: hopmark postcard set (the defaults: mark-ipv4 reserved, the IPv4 reserved flag bit)"
say "  hopmark postcard export set collector $PBT_HOST_ADDR port $PBT_COLL_PORT transport udp domain ID src ADDR"
say "A : hopmark postcard enable dev a-r1 role head; ... role egress"
say "R1, R2, R3: ... role ingress (towards A); ... role egress (towards B)"
say "B : hopmark postcard enable dev b-r3 role ingress; ... role end (clears the mark)"
hm_on r3 nft -f - <<NFT || die "the nft rule on R3 failed"
table inet demo_drop {
	counter dropped { }
	chain forward {
		type filter hook forward priority 0;
		ip daddr $PBT_B4 udp dport 5301 ip frag-off & 0x8000 == 0x8000 numgen inc mod 4 == 0 counter name dropped drop
	}
}
NFT
say "R3: nft, forward chain: every 4th marked UDP datagram to port 5301 is dropped"
mkdir -p "$OUT/pc"
pbt_collector_start "$OUT/paths.json" "$PBT_COLL_PORT" -t "$PBT_COLL_PORT" -w 1000 ||
	die "hopmark-collector did not start"
say "host: hopmark-collector -u $PBT_COLL_PORT -o FILE -w 1000"
pbt_agents_start "$OUT/pc" || die "hopmarkd did not start"
sleep 0.5

step "UDP A -> B: 2000 datagrams in 2 s; A marks 1 % of them (sample packet 100)"
pbt_select "proto udp dport 5301" -- packet 100 >/dev/null || die "hopmark postcard watch/sample failed"
say "A : hopmark postcard watch add proto udp dport 5301; hopmark postcard sample packet 100"
hm_on a "$PY" "$HM_TOP/selftests/net/pbt_e2e.py" send "$PBT_B4" 5301 --count 2000 --rate 1000 |
	sed 's/^/   /'

step "TCP A -> B: iperf3, 1 MB; A marks all of it (sample all)"
pbt_select "proto tcp dport 5201" -- all >/dev/null || die "hopmark postcard watch/sample failed"
say "A : hopmark postcard watch flush; ... watch add proto tcp dport 5201; ... sample all"
hm_bg b iperf3 -s -1 -p 5201 >/dev/null 2>&1
sleep 0.3
hm_on a iperf3 -c "$PBT_B4" -p 5201 -n 1M -b 20M 2>&1 | grep -E "receiver|sender" | sed 's/^/   /'

step "Per-packet paths: hopmark-collector show"
sleep 1.5	# the collector's window passes for the last packets
pbt_agents_stop
pbt_collector_stop
N_PATHS=$(grep -c . "$OUT/paths.json")
say "the collector wrote $N_PATHS paths to its -o file; hopmark-collector show FILE prints"
say "them (the first $((TABLES * 12)) lines here, then its per-flow summary):"
"$HM_COLLECTOR" show "$OUT/paths.json" >"$OUT/show.txt" 2>&1 ||
	die "hopmark-collector show failed: $(tail -n 3 "$OUT/show.txt")"
head -n $((TABLES * 12)) "$OUT/show.txt" | sed 's/^/   /'
say "..."
# The per-flow summary: from its heading on.
sed -n '/^[Ff]low/,$p' "$OUT/show.txt" | sed 's/^/   /'
NFT_DROPPED=$(hm_on r3 nft -j list counter inet demo_drop dropped |
	"$PY" -c 'import json, sys; print([o["counter"]["packets"] for o in json.load(sys.stdin)["nftables"] if "counter" in o][0])')
"$PY" - "$OUT/paths.json" "$NFT_DROPPED" <<'PY' | sed 's/^/   /'
import json, sys
names = {1: "A", 2: "R1", 3: "R2", 4: "R3", 5: "B"}
where = {"in_node": "inside the node", "on_link": "on the link after it"}
drops = {}
for line in open(sys.argv[1]):
    p = json.loads(line)
    d = p.get("drop") or "none"
    node = p.get("drop_node")
    if node is None and p.get("hops"):
        h = p["hops"][-1]
        node = h.get("node_id", h.get("node"))
    if d != "none":
        k = (names.get(node, str(node)), where.get(d, d))
        drops[k] = drops.get(k, 0) + 1
print("R3's nft rule dropped %s marked datagrams; the collector located them:" % sys.argv[2])
for (node, wh), n in sorted(drops.items()):
    print("  %d packets dropped at %s (%s)" % (n, node, wh))
if not drops:
    print("  no drop")
PY

step "Done; removing the namespaces"
