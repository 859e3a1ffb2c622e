#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# fwd_bench.sh - forwarding benchmark: generator -> router -> sink on veth
# pairs in three network namespaces, every mode alternated inside one run.
#
#   <pfx>-g  fwdg0 ==veth== fwdr0  <pfx>-r  fwdr1 ==veth== fwds0  <pfx>-s
#   fwd-gen                (router: IPv6/IPv4 forwarding)       XDP_DROP
#
# Modes (each repetition runs them all, in this order, on every packet kind):
#   ceiling     the router's fwdr0 runs XDP_DROP: what the generator gets
#               into the router when the router does nothing else
#   plain       forwarding, nothing attached
#   kernel      Linux's own IOAM transit (ip ioam namespace, ioam6_id,
#               net.ipv6.conf.fwdr0.ioam6_enabled=1); IOAM kinds only
#   hm-xdp      hopmark ioam transit enable ... ingress xdp on fwdr0 and
#               fwdr1: XDP hm_transit_in + tc egress hm_transit_out
#   hm-tc       the same with ingress tc: tc ingress hm_transit_tcin
#   noop-xdp    programs that do nothing (bench/fwd_noop.bpf.c) where
#               hm-xdp's halves run: XDP on fwdr0, tc egress on fwdr1
#   noop-tc     the same with tc ingress on fwdr0: what the hooks cost
#   hm-int      INT v2.1 transit (bpf/hopmark_int.bpf.c): hopmark int
#               enable dev ... role transit on fwdr0 and fwdr1, so tc
#               ingress hm_int_ingress (the arrival stamp) on fwdr0 and tc
#               egress hm_int_transit on fwdr1 are on the forwarded path
#               (the other two hooks see no packet), domain UDP port 4242,
#               bitmap 0x9000 (node ID + queue); its ratio to plain is
#               issue 8's figure. INT kinds only
#   pbt-head    PBT-M marking only: the router is the head node of the
#               domain, hopmark postcard enable dev fwdr1 role head with
#               sample all (every packet marked: the IPv4 reserved flag
#               bit, the IPv6 Traffic Class bit 0x04); kinds v4 and v6
#   pbt         100 % of packets marked and both postcards: head + egress
#               on fwdr1 (tc egress hm_pbt_egress), ingress on fwdr0 (tc
#               ingress hm_pbt_ingress, which sees the generator's packets
#               unmarked: the ingress postcard of a marked packet is the
#               next node's), and hopmarkd (on the generator's CPU) turning
#               every postcard into IPFIX to a UDP sink in the sink
#               namespace; its ratio to plain is issue 9's figure (goal
#               0.8). Kinds v4 and v6
# Generators (-g, both by default), on the generator's CPU at nice -20:
#   xdp   live XDP frames (fwd-gen -X: BPF_PROG_TEST_RUN, XDP_TX out of
#         fwdg0): they reach fwdr0's ring as xdp_frames, a few hundred ns
#         each, so the router is the bottleneck and the rates compare
#   skb   a raw AF_PACKET socket (sendmmsg, PACKET_QDISC_BYPASS): skbs, as
#         a container's stack sends them into a veth; slower than the
#         router here, so only the router's CPU time per frame compares
# Packet kinds: v6-c00000 and v6-fff000 (a Hop-by-Hop IOAM Pre-allocated
# Trace, Trace-Type 0xc00000 / 0xfff000, 4 slots: 32 / 240 octets), v6 and
# v4 (no IOAM: hopmark attached but not ours), int4-9000 and int6-9000 (UDP to
# port 4242 carrying INT-MD, NPT=1, bitmap 0x9000, one earlier hop: fwd-gen
# -M; selected with -k). hopmark does no IPv4 transit
# (RFC 9486 carries IOAM in IPv6 only), so v4 measures its cost on packets
# that are not its own.
#
# CPUs: the router's receive path (fwdr0's NAPI) runs as a threaded NAPI
# kthread (/sys/class/net/fwdr0/threaded = 1) pinned with taskset to the
# router CPU (-c R,G, default 0,1); the generator (taskset -c G) and the
# sink's NAPI kthread (fwds0, threaded too, SCHED_FIFO 1) run on the other
# CPU. The generator and the router's kthread run at nice -20 (-p). fwdr0 and
# fwds0 keep GRO on so that veth gives them a NAPI context in every mode
# (without it, veth hands the packet to the sender's CPU backlog).
#
# Figures per run: forwarded pps (fwdr1's tx_packets over the generator's
# sending time; for the ceiling, fwdg0's tx_packets: frames the router's
# ring took), and the router kthread's CPU time per packet
# (/proc/PID/schedstat run time / packets), the fair figure when the CPU is
# shared with other work. Median and spread over the repetitions.
#
# Usage: fwd_bench.sh [-r REPS] [-d SECONDS | -n FRAMES] [-g GENS] [-k KINDS] [-m MODES]
#                     [-c ROUTER_CPU,GEN_CPU] [-p NICE] [-o FILE.json] [-V]
#   -p  nice value of the generator and the router's kthread (default -20:
#       other work on the two CPUs, builds above all, gets little of them
#       during a sample; 0 leaves the priorities alone)
#   -V  verify first: in every mode, capture what reaches the sink and check
#       that every frame arrived and, for hopmark and kernel modes, that the
#       router's slot of the trace is filled (hopmark -j decode); exit 1 on
#       a failed check.
# Root only; skips (kselftest exit 4) without root or network namespaces.
set -u

HM_TOP=$(cd "$(dirname "$0")/.." && pwd)
HM_PFX=${HM_PFX:-hmfwd$$}
# shellcheck source=../selftests/lib.sh
. "$HM_TOP/selftests/lib.sh"
HM_NODES="g r s"
# Device names start with a 3-letter tag: NAPI kthreads are named
# "napi/DEV-ID" across namespaces, and a concurrent run (the smoke test)
# must not find this one's.
D=${HM_FWD_DEV:-fwd}

GEN=$HM_BUILD/bench/fwd-gen
DROP_OBJ=$HM_BUILD/bench/fwd_drop.bpf.o
XMIT_OBJ=$HM_BUILD/bench/fwd_xmit.bpf.o
NOOP_OBJ=$HM_BUILD/bench/fwd_noop.bpf.o
INT_BITMAP=0x9000
GENS="xdp skb"
REPS=5
DUR=2
FRAMES=
KINDS="v6-c00000 v6-fff000 v6 v4 int4-9000"
MODES="ceiling plain kernel hm-xdp hm-tc noop-xdp noop-tc hm-int pbt-head pbt"
CPUS=0,1
NICE=-20
JSON=
VERIFY=

while getopts "r:d:n:g:k:m:c:p:o:Vh" opt; do
	case $opt in
	r) REPS=$OPTARG ;;
	d) DUR=$OPTARG ;;
	n) FRAMES=$OPTARG ;;
	g) GENS=${OPTARG//,/ } ;;
	k) KINDS=${OPTARG//,/ } ;;
	m) MODES=${OPTARG//,/ } ;;
	c) CPUS=$OPTARG ;;
	p) NICE=$OPTARG ;;
	o) JSON=$OPTARG ;;
	V) VERIFY=1 ;;
	*) sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//;/^set -u/d'; exit 2 ;;
	esac
done
RT_CPU=${CPUS%,*}
GEN_CPU=${CPUS#*,}

hm_require_root_netns
hm_require_built "$GEN" "$DROP_OBJ" "$XMIT_OBJ" "$NOOP_OBJ" "$HOPMARK" "$HOPMARKD" \
	"$HM_BPF_DIR/hopmark_transit.bpf.o" "$HM_BPF_DIR/hopmark_pbt.bpf.o"
command -v socat >/dev/null || hm_skip_all "needs socat"
command -v ethtool >/dev/null || hm_skip_all "needs ethtool"
for c in taskset chrt renice ps; do
	command -v $c >/dev/null || hm_skip_all "needs $c"
done
[ -z "$VERIFY" ] || command -v tcpdump >/dev/null || hm_skip_all "needs tcpdump for -V"

NODE_ID=2		# the router's IOAM node_id (hopmark and Linux alike)
IF_ID_IN=21		# ${D}r0's IOAM interface ID
IF_ID_OUT=22		# ${D}r1's
NS_ID=123
G6=2001:db8:f1::1 R6=2001:db8:f1::2 S6=2001:db8:f2::2 RS6=2001:db8:f2::1
G4=10.201.1.1 R4=10.201.1.2 S4=10.201.2.2 RS4=10.201.2.1

# The generator's frames: UDP to port 9, after no extension header or
# after a Hop-by-Hop header (not MLD's, whose next header is ICMPv6).
OURS="udp dst port 9 or udp dst port 4242 or (ip6[6] = 0 and ip6[40] = 17)"

hm_tmpdir
RAW=$HM_TMP/samples.tsv
: >"$RAW"
hm_trap_teardown

x() { hm_on "$@"; }
# sysfs of a namespace: ip netns exec mounts the namespace's own /sys.
nsys() { local n=$1; shift; ip netns exec "$(hm_ns "$n")" sh -c "$*"; }
stat_of() { nsys "$1" "cat /sys/class/net/$2/statistics/$3"; }
mac_of() { nsys "$1" "cat /sys/class/net/$2/address"; }

setup()
{
	local n
	HM_TOPO_UP=1
	for n in $HM_NODES; do
		ip netns add "$(hm_ns "$n")" || return
		mkdir -p "$(hm_bpffs "$n")" "$(hm_rundir "$n")"
		mountpoint -q "$(hm_bpffs "$n")" || mount -t bpf bpf "$(hm_bpffs "$n")"
		x "$n" ip link set lo up
	done
	ip link add ${D}g0 netns "$(hm_ns g)" type veth peer name ${D}r0 netns "$(hm_ns r)" &&
	ip link add ${D}r1 netns "$(hm_ns r)" type veth peer name ${D}s0 netns "$(hm_ns s)" ||
		return
	hm_sysctl r net.ipv6.conf.all.forwarding=1
	hm_sysctl r net.ipv4.ip_forward=1
	hm_sysctl r net.ipv4.conf.all.rp_filter=0
	for n in g:${D}g0 r:${D}r0 r:${D}r1 s:${D}s0; do
		hm_sysctl "${n%:*}" "net.ipv6.conf.${n#*:}.accept_dad=0"
		x "${n%:*}" ip link set dev "${n#*:}" up || return
	done
	x g ip -6 addr add $G6/64 dev ${D}g0 nodad
	x r ip -6 addr add $R6/64 dev ${D}r0 nodad
	x r ip -6 addr add $RS6/64 dev ${D}r1 nodad
	x s ip -6 addr add $S6/64 dev ${D}s0 nodad
	x g ip addr add $G4/24 dev ${D}g0
	x r ip addr add $R4/24 dev ${D}r0
	x r ip addr add $RS4/24 dev ${D}r1
	x s ip addr add $S4/24 dev ${D}s0
	# No neighbour discovery during a run: the sink's address is static.
	x r ip -6 neigh replace $S6 lladdr "$(mac_of s ${D}s0)" dev ${D}r1 nud permanent
	x r ip neigh replace $S4 lladdr "$(mac_of s ${D}s0)" dev ${D}r1 nud permanent
	RT_MAC=$(mac_of r ${D}r0)

	# NAPI contexts (GRO on) run as kthreads, pinned below. veth_xmit()
	# takes the peer's NAPI only for an skb GRO could merge, which a
	# sender with TSO on never sends (veth_skb_is_eligible_for_gro()):
	# with TSO on, the frame goes to the backlog of the sending CPU and
	# the router would run on the generator's CPU. An XDP program on the
	# receiver turns the sender's TSO off by itself, so TSO off on both
	# senders makes every mode take the same NAPI path.
	x r ethtool -K ${D}r0 gro on >/dev/null
	x s ethtool -K ${D}s0 gro on >/dev/null
	x g ethtool -K ${D}g0 tso off >/dev/null
	x r ethtool -K ${D}r1 tso off >/dev/null
	nsys r "echo 1 > /sys/class/net/${D}r0/threaded" &&
	nsys s "echo 1 > /sys/class/net/${D}s0/threaded" || return
	x s ip link set dev ${D}s0 xdp obj "$DROP_OBJ" sec xdp || return

	# The router as an IOAM node: hopmark's settings and Linux's alike.
	x r "$HOPMARK" node set id $NODE_ID wide-id $((0x10000000 + NODE_ID)) &&
	x r "$HOPMARK" link set dev ${D}r0 id $IF_ID_IN wide-id $((0x1000000 + IF_ID_IN)) &&
	x r "$HOPMARK" link set dev ${D}r1 id $IF_ID_OUT wide-id $((0x1000000 + IF_ID_OUT)) &&
	x r "$HOPMARK" ioam namespace add $NS_ID data 0xa0000002 wide 0x0b00000000000002 ||
		return
	x r ip ioam namespace add $NS_ID data 0xa0000002 wide 0x0b00000000000002 || return
	hm_sysctl r net.ipv6.ioam6_id=$NODE_ID
	hm_sysctl r net.ipv6.ioam6_id_wide=$((0x10000000 + NODE_ID))
	hm_sysctl r net.ipv6.conf.${D}r0.ioam6_id=$IF_ID_IN
	hm_sysctl r net.ipv6.conf.${D}r0.ioam6_id_wide=$((0x1000000 + IF_ID_IN))
	hm_sysctl r net.ipv6.conf.${D}r1.ioam6_id=$IF_ID_OUT
	hm_sysctl r net.ipv6.conf.${D}r1.ioam6_id_wide=$((0x1000000 + IF_ID_OUT))

	# PBT-M (modes pbt-head and pbt): the defaults, every packet watched;
	# the export goes to the sink over a second veth pair (not the
	# forwarded path), where socat discards it.
	ip link add ${D}r9 netns "$(hm_ns r)" type veth peer name ${D}s9 netns "$(hm_ns s)" &&
	x r ip addr add 10.201.9.1/24 dev ${D}r9 && x r ip link set ${D}r9 up &&
	x s ip addr add 10.201.9.2/24 dev ${D}s9 && x s ip link set ${D}s9 up || return
	hm_bg s socat -u UDP4-RECV:4739,rcvbuf=4194304 OPEN:/dev/null
	x r "$HOPMARK" postcard set mark-ipv4 reserved &&
	x r "$HOPMARK" postcard export set collector 10.201.9.2 port 4739 transport udp \
		domain $NODE_ID src 10.201.9.1 || return
}

# The pbt mode's hopmarkd: on the generator's CPU, exporting every postcard
# as IPFIX over UDP to the sink namespace (a socat discarding it), JSON
# lines to /dev/null.
PBT_AGENT_PID=
pbt_agent_start()
{
	local i
	hm_bg r taskset -c "$GEN_CPU" "$HOPMARKD" -o /dev/null >"$HM_TMP/hopmarkd.log" 2>&1
	PBT_AGENT_PID=$HM_BG_PID
	for i in $(seq 50); do
		[ -S "$(hm_rundir r)/hopmarkd.sock" ] && return 0
		kill -0 "$PBT_AGENT_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "# hopmarkd did not start:" >&2
	sed 's/^/#   /' "$HM_TMP/hopmarkd.log" >&2
	return 1
}

# pbt_agent_stop - also appends hopmarkd's IPFIX records sent, octets
# sent and CPU time (its threads' run time, ns) to $HM_TMP/agent.tsv: the
# agent's postcards/s into IPFIX per core (fwd_report.py --agent).
pbt_agent_stop()
{
	local sent bytes ns=0 t
	[ -n "$PBT_AGENT_PID" ] || return 0
	sent=$(hm_agent_stat "$HM_TMP/hopmarkd.log" "$PBT_AGENT_PID" ipfix sent)
	bytes=$(hm_agent_stat "$HM_TMP/hopmarkd.log" "$PBT_AGENT_PID" ipfix bytes)
	for t in /proc/"$PBT_AGENT_PID"/task/*/schedstat; do
		ns=$((ns + $(cut -d' ' -f1 "$t")))
	done
	printf '%s\t%s\t%s\n' "$sent" "$bytes" "$ns" >>"$HM_TMP/agent.tsv"
	kill "$PBT_AGENT_PID" 2>/dev/null
	wait "$PBT_AGENT_PID" 2>/dev/null
	PBT_AGENT_PID=
}

# napi_pid DEV - the pid of DEV's NAPI kthread ("napi/DEV-ID"), one line.
napi_pid() { ps -eo pid=,comm= | awk -v p="napi/$1-" 'index($2, p) == 1 { print $1; exit }'; }

pin_napi()
{
	local pid
	pid=$(napi_pid ${D}r0)
	[ -n "$pid" ] || { echo "# no NAPI kthread for ${D}r0" >&2; return 1; }
	taskset -pc "$RT_CPU" "$pid" >/dev/null && renice -n "$NICE" -p "$pid" >/dev/null || return
	RT_PID=$pid
	pid=$(napi_pid ${D}s0)
	[ -n "$pid" ] || { echo "# no NAPI kthread for ${D}s0" >&2; return 1; }
	# The sink shares the generator's CPU: real-time priority lets it take
	# what the router forwards before the generator sends more, so the
	# sink's ring is not what limits a run (it costs little per frame).
	taskset -pc "$GEN_CPU" "$pid" >/dev/null && chrt -f -p 1 "$pid"
}

mode_clear()
{
	x r ip link set dev ${D}r0 xdp off 2>/dev/null
	x r "$HOPMARK" ioam transit disable dev ${D}r0 >/dev/null 2>&1
	x r "$HOPMARK" ioam transit disable dev ${D}r1 >/dev/null 2>&1
	x r "$HOPMARK" int disable dev ${D}r0 >/dev/null 2>&1
	x r "$HOPMARK" int disable dev ${D}r1 >/dev/null 2>&1
	x r "$HOPMARK" postcard disable dev ${D}r0 >/dev/null 2>&1
	x r "$HOPMARK" postcard disable dev ${D}r1 >/dev/null 2>&1
	pbt_agent_stop
	x r tc qdisc del dev ${D}r0 clsact 2>/dev/null
	x r tc qdisc del dev ${D}r1 clsact 2>/dev/null
	hm_sysctl r net.ipv6.conf.${D}r0.ioam6_enabled=0
}

mode_set()
{
	mode_clear
	case $1 in
	ceiling) x r ip link set dev ${D}r0 xdp obj "$DROP_OBJ" sec xdp ;;
	plain) ;;
	kernel) hm_sysctl r net.ipv6.conf.${D}r0.ioam6_enabled=1 ;;
	hm-xdp|hm-tc)
		x r "$HOPMARK" ioam transit enable dev ${D}r0 ingress "${1#hm-}" &&
		x r "$HOPMARK" ioam transit enable dev ${D}r1 ingress "${1#hm-}" ;;
	hm-int)
		x r "$HOPMARK" int set mode md signal udp 4242 instructions $INT_BITMAP max-hops 8 &&
		x r "$HOPMARK" int enable dev ${D}r0 role transit &&
		x r "$HOPMARK" int enable dev ${D}r1 role transit ;;
	pbt-head)
		x r "$HOPMARK" postcard sample all &&
		x r "$HOPMARK" postcard enable dev ${D}r1 role head ;;
	pbt)
		x r "$HOPMARK" postcard sample all &&
		x r "$HOPMARK" postcard enable dev ${D}r1 role head &&
		x r "$HOPMARK" postcard enable dev ${D}r1 role egress &&
		x r "$HOPMARK" postcard enable dev ${D}r0 role ingress &&
		pbt_agent_start ;;
	noop-xdp|noop-tc)
		x r tc qdisc add dev ${D}r1 clsact &&
		x r tc filter add dev ${D}r1 egress bpf da obj "$NOOP_OBJ" sec tc &&
		if [ "$1" = noop-xdp ]; then
			x r ip link set dev ${D}r0 xdp obj "$NOOP_OBJ" sec xdp
		else
			x r tc qdisc add dev ${D}r0 clsact &&
			x r tc filter add dev ${D}r0 ingress bpf da obj "$NOOP_OBJ" sec tc
		fi ;;
	*) echo "# unknown mode $1" >&2; return 1 ;;
	esac || return
	pin_napi
}

# The generator's arguments for a generator and a packet kind.
gen_args()
{
	[ "$1" = xdp ] && echo "-X $XMIT_OBJ"
	shift
	case $1 in
	v6-c00000) echo "-6 $G6,$S6 -T 0xc00000 -N 4" ;;
	v6-fff000) echo "-6 $G6,$S6 -T 0xfff000 -N 4" ;;
	v6) echo "-6 $G6,$S6" ;;
	v4) echo "-4 $G4,$S4" ;;
	int4-9000) echo "-4 $G4,$S4 -M 0x9000" ;;
	int6-9000) echo "-6 $G6,$S6 -M 0x9000" ;;
	*) return 1 ;;
	esac
}

# Whether a mode applies to a kind: Linux's IOAM needs IOAM packets, INT
# transit INT packets; PBT-M marks plain IPv4 and IPv6.
applies()
{
	case $1 in
	kernel) [ "${2#v6-}" != "$2" ] ;;
	hm-int) [ "${2#int}" != "$2" ] ;;
	pbt|pbt-head) [ "$2" = v4 ] || [ "$2" = v6 ] ;;
	*) true ;;
	esac
}

# run_one REP GEN KIND MODE - one sample, appended to $RAW.
run_one()
{
	local rep=$1 gen=$2 kind=$3 mode=$4 out sent secs g0 g1 f0 f1 d0 d1 c0 c1
	# shellcheck disable=SC2046
	set -- $(gen_args "$gen" "$kind")
	g0=$(stat_of g ${D}g0 tx_packets); f0=$(stat_of r ${D}r1 tx_packets)
	d0=$(stat_of r ${D}r1 tx_dropped); c0=$(cut -d' ' -f1 "/proc/$RT_PID/schedstat")
	if [ -n "$FRAMES" ]; then
		out=$(x g nice -n "$NICE" taskset -c "$GEN_CPU" "$GEN" -i ${D}g0 -d "$RT_MAC" "$@" -n "$FRAMES")
	else
		out=$(x g nice -n "$NICE" taskset -c "$GEN_CPU" "$GEN" -i ${D}g0 -d "$RT_MAC" "$@" -t "$DUR")
	fi || return
	c1=$(cut -d' ' -f1 "/proc/$RT_PID/schedstat")
	g1=$(stat_of g ${D}g0 tx_packets); f1=$(stat_of r ${D}r1 tx_packets)
	d1=$(stat_of r ${D}r1 tx_dropped)
	sent=$(echo "$out" | awk '{ print $2 }')
	secs=$(echo "$out" | awk '{ print $4 }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$gen" "$kind" "$mode" "$sent" "$secs" \
		$((g1 - g0)) $((f1 - f0)) $((d1 - d0)) $((c1 - c0)) >>"$RAW"
}

# verify GEN KIND MODE - every frame reaches the sink; the router's slot is
# filled where a transit runs. TAP lines on stdout.
verify()
{
	local gen=$1 kind=$2 mode=$3 n=8 pcap cap got want
	pcap=$HM_TMP/verify-$gen-$kind-$mode.pcap
	# XDP_DROP runs before the capture taps: lift it while capturing.
	x s ip link set dev ${D}s0 xdp off
	hm_capture_start s ${D}s0 "$pcap" "$OURS" || { hm_not_ok "capture on ${D}s0"; return; }
	cap=$HM_CAP_PID
	PBT_PC0=0
	[ "$mode" != pbt ] || PBT_PC0=$(x r "$HOPMARK" -j -s postcard show | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
print([i["counters"] for i in d["interfaces"] if i["dev"] == sys.argv[1]][0]["postcard_egress"])' ${D}r1)
	# shellcheck disable=SC2046
	x g "$GEN" -i ${D}g0 -d "$RT_MAC" $(gen_args "$gen" "$kind") -n $n >/dev/null
	hm_capture_stop "$cap"
	x s ip link set dev ${D}s0 xdp obj "$DROP_OBJ" sec xdp
	got=$(tcpdump -n -r "$pcap" "$OURS" 2>/dev/null | wc -l)
	hm_check "${gen}_${kind}_${mode}_all_${n}_frames_forwarded" "$n" "$got"
	if [ "$mode" = hm-int ]; then
		# Every INT frame got the router's hop: one transit_ok each.
		got=$(x r "$HOPMARK" -j -s int show | "$PY" -c '
import json, sys
print(sum(i["counters"]["transit_ok"] for i in json.load(sys.stdin)["interfaces"] if i["dev"] == sys.argv[1]))' ${D}r1)
		hm_check "${gen}_${kind}_${mode}_router_pushed_its_hop" "True" \
			"$([ "${got:-0}" -ge $n ] && echo True || echo False)"
	fi
	if [ "${mode#pbt}" != "$mode" ]; then
		# Every frame reached the sink marked; pbt: one egress postcard each.
		if [ "$kind" = v4 ]; then
			got=$(tcpdump -n -r "$pcap" "($OURS) and ip[6] & 0x80 != 0" 2>/dev/null | wc -l)
		else
			got=$(tcpdump -n -r "$pcap" "($OURS) and ip6[1] & 0x40 != 0" 2>/dev/null | wc -l)
		fi
		hm_check "${gen}_${kind}_${mode}_every_frame_marked" "$n" "$got"
		[ "$mode" = pbt ] || return 0
		got=$(x r "$HOPMARK" -j -s postcard show | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
c = [i["counters"] for i in d["interfaces"] if i["dev"] == sys.argv[1]][0]
print(c["postcard_egress"] - int(sys.argv[2]))' ${D}r1 "$PBT_PC0")
		hm_check "${gen}_${kind}_${mode}_one_egress_postcard_per_frame" "$n" "$got"
		return 0
	fi
	[ "${kind#v6-}" != "$kind" ] || return 0
	case $mode in
	plain|kernel|hm-xdp|hm-tc|noop-xdp|noop-tc) ;;
	*) return 0 ;;
	esac
	# plain: nobody writes, the slots stay zero. kernel: Linux fills the
	# slot on input (node and ingress interface are what this checks).
	# hopmark: the ingress half fills node and ingress interface, the
	# egress half (tc egress on ${D}r1) the egress interface.
	case $mode in
	plain|noop-*) want="$n x none" ;;
	kernel) want="$n x node $NODE_ID in $IF_ID_IN" ;;
	*) want="$n x node $NODE_ID in $IF_ID_IN out $IF_ID_OUT" ;;
	esac
	got=$("$HOPMARK" -j decode "$pcap" 2>/dev/null | "$PY" -c '
import json, sys
seen = []
for line in sys.stdin:
    r = json.loads(line)
    if r.get("summary"):
        continue
    hops = [h for h in r.get("hops", []) if h.get("node_id") not in (None, 0)]
    if not hops:
        seen.append("none")
        continue
    h = hops[0]
    s = "node %s in %s" % (h["node_id"], h.get("ingress_if"))
    if sys.argv[1] != "kernel":
        s += " out %s" % h.get("egress_if")
    seen.append(s)
print(" ; ".join(sorted(set("%d x %s" % (seen.count(s), s) for s in seen))) or "no records")
' "$mode")
	hm_check "${gen}_${kind}_${mode}_router_slot" "$want" "$got"
}

setup || { echo "# setup failed" >&2; exit 1; }
PER=${FRAMES:+$FRAMES frames}
PER=${PER:-$DUR s}
echo "# fwd: router CPU $RT_CPU (${D}r0 NAPI kthread), generator and sink CPU $GEN_CPU;" \
	"$PER per sample, $REPS repetitions" >&2

if [ -n "$VERIFY" ]; then
	for mode in $MODES; do
		[ "$mode" = ceiling ] && continue
		mode_set "$mode" || { hm_not_ok "mode $mode set up"; continue; }
		for gen in $GENS; do
			for kind in $KINDS; do
				applies "$mode" "$kind" && verify "$gen" "$kind" "$mode"
			done
		done
	done
fi

for rep in $(seq "$REPS"); do
	for mode in $MODES; do
		mode_set "$mode" || { echo "# mode $mode: set-up failed" >&2; exit 1; }
		for gen in $GENS; do
			for kind in $KINDS; do
				applies "$mode" "$kind" || continue
				run_one "$rep" "$gen" "$kind" "$mode" ||
					{ echo "# $gen $kind $mode: generator failed" >&2; exit 1; }
			done
		done
	done
done
mode_clear
[ ! -s "$HM_TMP/agent.tsv" ] || PBT_AGENT_TSV=$HM_TMP/agent.tsv

report() {
	"$PY" "$HM_TOP/bench/fwd_report.py" "$RAW" ${JSON:+--json "$JSON"} \
		${PBT_AGENT_TSV:+--agent "$PBT_AGENT_TSV"} \
		--router-cpu "$RT_CPU" --gen-cpu "$GEN_CPU" \
		--seconds "${FRAMES:+0}${FRAMES:-$DUR}" --frames "${FRAMES:-0}"
}
if [ -n "$VERIFY" ]; then
	# Under TAP the table is diagnostics; a sample that forwarded nothing fails.
	if report >"$HM_TMP/report.txt"; then
		hm_ok "every_mode_forwards_in_the_timed_runs"
	else
		hm_not_ok "every_mode_forwards_in_the_timed_runs"
	fi
	sed 's/^/# /' "$HM_TMP/report.txt"
	if [ -n "$JSON" ]; then
		want=
		for gen in $GENS; do
			for kind in $KINDS; do
				for mode in $MODES; do
					applies "$mode" "$kind" && want="$want $gen/$kind/$mode"
				done
			done
		done
		hm_check "json_has_a_row_per_kind_and_mode" "$(echo $want | tr ' ' '\n' | sort | xargs)" \
			"$("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted("%s/%s/%s" % (r["gen"], r["kind"], r["mode"]) for r in d["rows"] if r["pps_median"] > 0)))' \
			"$JSON" 2>&1)"
	fi
	hm_done
fi
report
