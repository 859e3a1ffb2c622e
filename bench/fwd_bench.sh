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
#   hm-agent    hm-tc, and the sink as an IOAM decapsulating node with its
#               agent: hopmark ioam decap enable dev fwds0 (tc ingress
#               hm_decap; the sink's XDP_DROP is lifted and nft drops the
#               UDP frames after it), hopmarkd (on the generator's CPU)
#               draining the sink's ring to /dev/null; its records, the
#               records it lost (ring_lost) and the datapath's events_lost
#               go with the report. IOAM kinds only
#   B-hm-xdp    with -B DIR only: hm-xdp as another build does it (issue
#               11's before): DIR/build/hopmark ioam transit enable dev
#               fwdr0 and fwdr1 (its objects, embedded in its CLI; XDP
#               ingress, tc egress), on bpffs pins of its own (a directory
#               in the router's bpffs) that its own CLI configures (node,
#               links, namespace) the same way
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
# Generators (-g, all three by default), on the generator's CPU at nice -20:
#   xdp   live XDP frames (fwd-gen -X: BPF_PROG_TEST_RUN, XDP_TX out of
#         fwdg0): they reach fwdr0's ring as xdp_frames, a few hundred ns
#         each, so the router is the bottleneck and the rates compare
#   skb   a raw AF_PACKET socket (sendmmsg, PACKET_QDISC_BYPASS): skbs, as
#         a container's stack sends them into a veth; slower than the
#         router here, so only the router's CPU time per frame compares
#   tcp   GSO traffic: one iperf3 TCP stream (-Z) from the generator's
#         namespace to an iperf3 server in the sink's (the sink's XDP_DROP
#         lifted for it). The sender's stack builds GSO skbs, segmented
#         in software at fwdg0 (TSO off); the router's NAPI (GRO on)
#         merges them again, so the router forwards, and its programs see,
#         GSO skbs of up to 64 KB, segmented again in software on fwdr1
#         (TSO off) towards the sink. Kinds tcp6-c00000 (hopmark ioam
#         encap on fwdg0's tc egress, as in the demo: Trace-Type 0xc00000,
#         4 slots), tcp6 and tcp4 (no IOAM); -n FRAMES sends FRAMES x 1448
#         octets. Only the CPU time per segment compares (the generator's
#         CPU, which also runs the sink, sets the rate)
# Packet kinds: v6-c00000 and v6-fff000 (a Hop-by-Hop IOAM Pre-allocated
# Trace, Trace-Type 0xc00000 / 0xfff000, 4 slots: 32 / 240 octets), v6 and
# v4 (no IOAM: hopmark attached but not ours), int4-9000 and int6-9000 (UDP to
# port 4242 carrying INT-MD, NPT=1, bitmap 0x9000, one earlier hop: fwd-gen
# -M; selected with -k), and the tcp generator's tcp6-c00000, tcp6 and tcp4
# (each generator runs only its own kinds). hopmark does no IPv4 transit
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
# shared with other work; for the tcp generator a packet is an MSS segment
# (fwdg0's tx_packets count the segments the router received) and the
# report adds Mbit/s and ns per KB (fwdr1's tx_bytes). Median and spread
# over the repetitions.
#
# Usage: fwd_bench.sh [-r REPS] [-d SECONDS | -n FRAMES] [-g GENS] [-k KINDS] [-m MODES]
#                     [-c ROUTER_CPU,GEN_CPU] [-p NICE] [-B DIR] [-o FILE.json] [-V]
#   -B  add the B-hm-xdp mode (after hm-xdp), run by the build in DIR
#       (a source tree with build/hopmark, e.g. a git archive of an older
#       commit built with make all); the report gives hm-xdp's and hm-tc's
#       router CPU time against it
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
GENS="xdp skb tcp"
REPS=5
DUR=2
FRAMES=
KINDS="v6-c00000 v6-fff000 v6 v4 int4-9000 tcp6-c00000 tcp6 tcp4"
MODES="ceiling plain kernel hm-xdp hm-tc hm-agent noop-xdp noop-tc hm-int pbt-head pbt"
CPUS=0,1
NICE=-20
JSON=
VERIFY=
BEFORE=

while getopts "r:d:n:g:k:m:c:p:o:B:Vh" opt; do
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
	B) BEFORE=$(cd "$OPTARG" && pwd) || exit 2 ;;
	V) VERIFY=1 ;;
	*) sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//;/^set -u/d'; exit 2 ;;
	esac
done
RT_CPU=${CPUS%,*}
BHOPMARK=
if [ -n "$BEFORE" ]; then
	BHOPMARK=$BEFORE/build/hopmark
	[ -x "$BHOPMARK" ] || { echo "fwd_bench.sh: no $BHOPMARK (make all in $BEFORE)" >&2; exit 2; }
	case " $MODES " in
	*" B-hm-xdp "*) ;;
	*" hm-xdp "*) MODES=${MODES/hm-xdp/hm-xdp B-hm-xdp} ;;
	*) MODES="$MODES B-hm-xdp" ;;
	esac
fi
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
case " $GENS " in
*" tcp "*) command -v iperf3 >/dev/null || hm_skip_all "needs iperf3 for -g tcp" ;;
esac
case " $MODES " in
*" hm-agent "*) command -v nft >/dev/null || hm_skip_all "needs nft for -m hm-agent"
	hm_require_built "$HM_BPF_DIR/hopmark_decap.bpf.o" "$HM_BPF_DIR/hopmark_encap.bpf.o" ;;
esac

NODE_ID=2		# the router's IOAM node_id (hopmark and Linux alike)
IF_ID_IN=21		# ${D}r0's IOAM interface ID
IF_ID_OUT=22		# ${D}r1's
NS_ID=123
G6=2001:db8:f1::1 R6=2001:db8:f1::2 S6=2001:db8:f2::2 RS6=2001:db8:f2::1
G4=10.201.1.1 R4=10.201.1.2 S4=10.201.2.2 RS4=10.201.2.1
# The tcp6-c00000 kind's destination: a second sink address, the one
# prefix the generator's hopmark encap adds a trace to.
SI6=2001:db8:f2::3
IPERF_PORT=5201

# The generator's frames: UDP to port 9, after no extension header or
# after a Hop-by-Hop header (not MLD's, whose next header is ICMPv6).
OURS="udp dst port 9 or udp dst port 4242 or (ip6[6] = 0 and ip6[40] = 17)"

hm_tmpdir
RAW=$HM_TMP/samples.tsv
: >"$RAW"
hm_trap_teardown

x() { hm_on "$@"; }
# xb CMD... - the -B build's hopmark CLI in the router, on its own pins.
xb()
{
	TC_BPF_MNT=$(hm_bpffs r)/before HOPMARK_RUNDIR=$(hm_rundir r)/before \
		nsenter --net="/run/netns/$(hm_ns r)" "$BHOPMARK" "$@"
}
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
	if [ -n "$BEFORE" ]; then
		# The -B build's maps (hash maps before issue 11): its CLI sets
		# them, in a directory of the router's bpffs.
		mkdir -p "$(hm_bpffs r)/before" "$(hm_rundir r)/before" &&
		xb node set id $NODE_ID wide-id $((0x10000000 + NODE_ID)) &&
		xb link set dev ${D}r0 id $IF_ID_IN wide-id $((0x1000000 + IF_ID_IN)) &&
		xb link set dev ${D}r1 id $IF_ID_OUT wide-id $((0x1000000 + IF_ID_OUT)) &&
		xb ioam namespace add $NS_ID data 0xa0000002 wide 0x0b00000000000002 || return
	fi
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
	tcp_setup
}

# tcp_setup - what the tcp generator and the hm-agent mode need: routes
# both ways through the router (static neighbours), the generator as the
# IOAM encapsulating node of $SI6 (hopmark ioam encap on fwdg0, a route
# MTU that leaves room for the trace, so that every segment fits), the
# sink as an IOAM node (its decap is the hm-agent mode's), an nft table
# that the hm-agent mode fills, and the iperf3 server on the generator's
# CPU.
tcp_setup()
{
	case " $GENS $MODES " in
	*" tcp "*|*" hm-agent "*) ;;
	*) return 0 ;;
	esac
	x s ip -6 addr add $SI6/64 dev ${D}s0 nodad &&
	x r ip -6 neigh replace $SI6 lladdr "$(mac_of s ${D}s0)" dev ${D}r1 nud permanent &&
	x r ip -6 neigh replace $G6 lladdr "$(mac_of g ${D}g0)" dev ${D}r0 nud permanent &&
	x r ip neigh replace $G4 lladdr "$(mac_of g ${D}g0)" dev ${D}r0 nud permanent &&
	x g ip -6 neigh replace $R6 lladdr "$RT_MAC" dev ${D}g0 nud permanent &&
	x g ip neigh replace $R4 lladdr "$RT_MAC" dev ${D}g0 nud permanent &&
	x s ip -6 neigh replace $RS6 lladdr "$(mac_of r ${D}r1)" dev ${D}s0 nud permanent &&
	x s ip neigh replace $RS4 lladdr "$(mac_of r ${D}r1)" dev ${D}s0 nud permanent &&
	x g ip -6 route add 2001:db8:f2::/64 via $R6 dev ${D}g0 &&
	x g ip -6 route add $SI6/128 via $R6 dev ${D}g0 mtu 1400 &&
	x g ip route add 10.201.2.0/24 via $R4 dev ${D}g0 &&
	x s ip -6 route add 2001:db8:f1::/64 via $RS6 dev ${D}s0 &&
	x s ip route add 10.201.1.0/24 via $RS4 dev ${D}s0 || return
	x g "$HOPMARK" node set id 1 wide-id $((0x10000000 + 1)) &&
	x g "$HOPMARK" link set dev ${D}g0 id 11 wide-id $((0x1000000 + 11)) &&
	x g "$HOPMARK" ioam namespace add $NS_ID data 0xa0000001 wide 0x0b00000000000001 &&
	x g "$HOPMARK" ioam encap add $SI6/128 dev ${D}g0 ns $NS_ID \
		trace-type 0xc00000 size 32 >/dev/null &&
	# The sink's XDP_DROP is no hopmark program: off while hopmark
	# creates the sink's maps, lest the CLI warn of it.
	x s ip link set dev ${D}s0 xdp off &&
	x s "$HOPMARK" node set id 3 wide-id $((0x10000000 + 3)) &&
	x s "$HOPMARK" link set dev ${D}s0 id 31 wide-id $((0x1000000 + 31)) &&
	x s "$HOPMARK" ioam namespace add $NS_ID data 0xa0000003 wide 0x0b00000000000003 &&
	x s ip link set dev ${D}s0 xdp obj "$DROP_OBJ" sec xdp &&
	x s nft add table inet hmfwd || return
	hm_bg s taskset -c "$GEN_CPU" iperf3 -s -p $IPERF_PORT >"$HM_TMP/iperf3-s.log" 2>&1
}

# agent_start NODE LOG - hopmarkd in NODE's namespace on the generator's
# CPU, records to /dev/null, its stderr to LOG; waits for its monitor
# socket. AGENT_PID is its pid.
agent_start()
{
	local i
	hm_bg "$1" taskset -c "$GEN_CPU" "$HOPMARKD" -o /dev/null >"$2" 2>&1
	AGENT_PID=$HM_BG_PID
	for i in $(seq 50); do
		[ -S "$(hm_rundir "$1")/hopmarkd.sock" ] && return 0
		kill -0 "$AGENT_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "# hopmarkd in $(hm_ns "$1") did not start:" >&2
	sed 's/^/#   /' "$2" >&2
	return 1
}

# agent_cpu_ns PID - the run time of all of PID's threads, ns.
agent_cpu_ns()
{
	local ns=0 t
	for t in /proc/"$1"/task/*/schedstat; do
		ns=$((ns + $(cut -d' ' -f1 "$t")))
	done
	echo $ns
}

# The hm-agent mode's hopmarkd, in the sink's namespace.
SINK_AGENT_PID=
sink_agent_start()
{
	agent_start s "$HM_TMP/sink-hopmarkd.log" || return
	SINK_AGENT_PID=$AGENT_PID
}

# sink_agent_stop - appends the sink agent's records, the records it lost
# (ring_lost, this run), the datapath's events_lost (since the sink's maps
# were loaded) and its CPU time (ns) to $HM_TMP/sink-agent.tsv.
sink_agent_stop()
{
	local rec lost el ns
	[ -n "$SINK_AGENT_PID" ] || return 0
	rec=$(hm_agent_stat "$HM_TMP/sink-hopmarkd.log" "$SINK_AGENT_PID" agent records)
	lost=$(hm_agent_stat "$HM_TMP/sink-hopmarkd.log" "$SINK_AGENT_PID" agent ring_lost)
	el=$(hm_agent_stat "$HM_TMP/sink-hopmarkd.log" "$SINK_AGENT_PID" datapath events_lost)
	ns=$(agent_cpu_ns "$SINK_AGENT_PID")
	printf '%s\t%s\t%s\t%s\n' "$rec" "$lost" "$el" "$ns" >>"$HM_TMP/sink-agent.tsv"
	kill "$SINK_AGENT_PID" 2>/dev/null
	wait "$SINK_AGENT_PID" 2>/dev/null
	SINK_AGENT_PID=
}

# The pbt mode's hopmarkd: on the generator's CPU, exporting every postcard
# as IPFIX over UDP to the sink namespace (a socat discarding it), JSON
# lines to /dev/null.
PBT_AGENT_PID=
pbt_agent_start()
{
	agent_start r "$HM_TMP/hopmarkd.log" || return
	PBT_AGENT_PID=$AGENT_PID
}

# pbt_agent_stop - also appends hopmarkd's IPFIX records sent, octets
# sent and CPU time (its threads' run time, ns) to $HM_TMP/agent.tsv: the
# agent's postcards/s into IPFIX per core (fwd_report.py --agent).
pbt_agent_stop()
{
	local sent bytes ns
	[ -n "$PBT_AGENT_PID" ] || return 0
	sent=$(hm_agent_stat "$HM_TMP/hopmarkd.log" "$PBT_AGENT_PID" ipfix sent)
	bytes=$(hm_agent_stat "$HM_TMP/hopmarkd.log" "$PBT_AGENT_PID" ipfix bytes)
	ns=$(agent_cpu_ns "$PBT_AGENT_PID")
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
	if [ -n "$BEFORE" ]; then
		xb ioam transit disable dev ${D}r0 >/dev/null 2>&1
		xb ioam transit disable dev ${D}r1 >/dev/null 2>&1
	fi
	x r "$HOPMARK" int disable dev ${D}r0 >/dev/null 2>&1
	x r "$HOPMARK" int disable dev ${D}r1 >/dev/null 2>&1
	x r "$HOPMARK" postcard disable dev ${D}r0 >/dev/null 2>&1
	x r "$HOPMARK" postcard disable dev ${D}r1 >/dev/null 2>&1
	pbt_agent_stop
	x r tc qdisc del dev ${D}r0 clsact 2>/dev/null
	x r tc qdisc del dev ${D}r1 clsact 2>/dev/null
	hm_sysctl r net.ipv6.conf.${D}r0.ioam6_enabled=0
	if [ -n "$SINK_DECAP" ]; then
		sink_agent_stop
		x s "$HOPMARK" ioam decap disable dev ${D}s0 >/dev/null 2>&1
		x s tc qdisc del dev ${D}s0 clsact 2>/dev/null
		x s nft flush table inet hmfwd
		x s ip link set dev ${D}s0 xdp obj "$DROP_OBJ" sec xdp
		SINK_DECAP=
	fi
}
SINK_DECAP=

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
	B-hm-xdp)
		[ -n "$BEFORE" ] || { echo "# B-hm-xdp needs -B DIR" >&2; return 1; }
		xb ioam transit enable dev ${D}r0 >/dev/null &&
		xb ioam transit enable dev ${D}r1 >/dev/null ;;
	hm-agent)
		# The sink decapsulates: hm_decap at tc ingress, behind no
		# XDP_DROP; nft drops the UDP frames after it (prerouting).
		SINK_DECAP=1
		x r "$HOPMARK" ioam transit enable dev ${D}r0 ingress tc &&
		x r "$HOPMARK" ioam transit enable dev ${D}r1 ingress tc &&
		x s ip link set dev ${D}s0 xdp off &&
		x s nft add chain inet hmfwd pre "{ type filter hook prerouting priority -300; }" &&
		x s nft add rule inet hmfwd pre udp dport "{ 9, 4242 }" drop &&
		x s "$HOPMARK" ioam decap enable dev ${D}s0 >/dev/null &&
		sink_agent_start ;;
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
	tcp6-c00000) echo "$SI6" ;;
	tcp6) echo "$S6" ;;
	tcp4) echo "$S4" ;;
	*) return 1 ;;
	esac
}

# gen_kind GEN KIND - whether GEN sends KIND: tcp the tcp* kinds, the
# others the rest.
gen_kind()
{
	[ "$1" = tcp ] && [ "${2#tcp}" != "$2" ] && return 0
	[ "$1" != tcp ] && [ "${2#tcp}" = "$2" ]
}

# tcp_send DEST - one iperf3 stream to DEST (-d SECONDS or -n FRAMES x
# 1448 octets); prints "sent SEGMENTS secs SECONDS" as fwd-gen does, the
# segments being fwdg0's tx_packets (see run_one). The sink's XDP_DROP is
# lifted meanwhile (the hm-agent mode has none).
tcp_send()
{
	local dest=$1 out rc what
	if [ -n "$FRAMES" ]; then
		what="-n $((FRAMES * 1448))"
	else
		what="-t $DUR"
	fi
	[ -n "$SINK_DECAP" ] || x s ip link set dev ${D}s0 xdp off
	# shellcheck disable=SC2086
	out=$(x g nice -n "$NICE" taskset -c "$GEN_CPU" iperf3 -c "$dest" -p $IPERF_PORT -Z -J \
		$what 2>&1)
	rc=$?
	[ -n "$SINK_DECAP" ] || x s ip link set dev ${D}s0 xdp obj "$DROP_OBJ" sec xdp
	[ $rc -eq 0 ] || { echo "# iperf3 -c $dest failed: $(echo "$out" | tail -n 3)" >&2; return 1; }
	echo "$out" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)["end"]["sum_sent"]
print("sent 0 secs %.6f bytes %d" % (d["seconds"], d["bytes"]))'
}

# Whether a mode applies to a kind: Linux's IOAM needs IOAM packets, INT
# transit INT packets; PBT-M marks plain IPv4 and IPv6.
applies()
{
	gen_kind "$3" "$2" || return
	case $1 in
	kernel|hm-agent) [ "${2#v6-}" != "$2" ] || [ "${2#tcp6-}" != "$2" ] ;;
	ceiling) [ "${2#tcp}" = "$2" ] ;;
	hm-int) [ "${2#int}" != "$2" ] ;;
	pbt|pbt-head) [ "$2" = v4 ] || [ "$2" = v6 ] ;;
	*) true ;;
	esac
}

# run_one REP GEN KIND MODE - one sample, appended to $RAW.
run_one()
{
	local rep=$1 gen=$2 kind=$3 mode=$4 out sent secs g0 g1 f0 f1 d0 d1 c0 c1 b0 b1 a0 l0
	# shellcheck disable=SC2046
	set -- $(gen_args "$gen" "$kind")
	if [ -n "$SINK_DECAP" ]; then
		a0=$(agent_records)
		l0=$(hm_agent_stat "$HM_TMP/sink-hopmarkd.log" "$SINK_AGENT_PID" agent ring_lost)
	fi
	g0=$(stat_of g ${D}g0 tx_packets); f0=$(stat_of r ${D}r1 tx_packets)
	d0=$(stat_of r ${D}r1 tx_dropped); b0=$(stat_of r ${D}r1 tx_bytes)
	c0=$(cut -d' ' -f1 "/proc/$RT_PID/schedstat")
	if [ "$gen" = tcp ]; then
		out=$(tcp_send "$1")
	elif [ -n "$FRAMES" ]; then
		out=$(x g nice -n "$NICE" taskset -c "$GEN_CPU" "$GEN" -i ${D}g0 -d "$RT_MAC" "$@" -n "$FRAMES")
	else
		out=$(x g nice -n "$NICE" taskset -c "$GEN_CPU" "$GEN" -i ${D}g0 -d "$RT_MAC" "$@" -t "$DUR")
	fi || return
	c1=$(cut -d' ' -f1 "/proc/$RT_PID/schedstat")
	g1=$(stat_of g ${D}g0 tx_packets); f1=$(stat_of r ${D}r1 tx_packets)
	d1=$(stat_of r ${D}r1 tx_dropped); b1=$(stat_of r ${D}r1 tx_bytes)
	sent=$(echo "$out" | awk '{ print $2 }')
	secs=$(echo "$out" | awk '{ print $4 }')
	# TCP loses nothing: what the router received is what was sent.
	[ "$gen" != tcp ] || sent=$((g1 - g0))
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$gen" "$kind" "$mode" "$sent" \
		"$secs" $((g1 - g0)) $((f1 - f0)) $((d1 - d0)) $((c1 - c0)) $((b1 - b0)) >>"$RAW"
	# The sink agent's records and losses during the sample (after the
	# router's figures: SIGUSR1 and the wait for its line are not timed).
	[ -z "$SINK_DECAP" ] ||
		printf '%s\t%s\t%s\t%s\n' "$gen" "$kind" $(($(agent_records) - a0)) \
			$(($(hm_agent_stat "$HM_TMP/sink-hopmarkd.log" "$SINK_AGENT_PID" agent ring_lost) - \
			l0)) >>"$HM_TMP/sink-agent-samples.tsv"
}

# verify GEN KIND MODE - every frame reaches the sink; the router's slot is
# filled where a transit runs. TAP lines on stdout.
verify()
{
	local gen=$1 kind=$2 mode=$3 n=8 pcap cap got want
	[ "$gen" != tcp ] || { verify_tcp "$kind" "$mode"; return; }
	pcap=$HM_TMP/verify-$gen-$kind-$mode.pcap
	# XDP_DROP runs before the capture taps: lift it while capturing.
	[ -n "$SINK_DECAP" ] || x s ip link set dev ${D}s0 xdp off
	hm_capture_start s ${D}s0 "$pcap" "$OURS" || { hm_not_ok "capture on ${D}s0"; return; }
	cap=$HM_CAP_PID
	PBT_PC0=0
	R0=0
	[ -z "$SINK_DECAP" ] || R0=$(agent_records)
	[ "$mode" != pbt ] || PBT_PC0=$(x r "$HOPMARK" -j -s postcard show | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
print([i["counters"] for i in d["interfaces"] if i["dev"] == sys.argv[1]][0]["postcard_egress"])' ${D}r1)
	# shellcheck disable=SC2046
	x g "$GEN" -i ${D}g0 -d "$RT_MAC" $(gen_args "$gen" "$kind") -n $n >/dev/null
	hm_capture_stop "$cap"
	[ -n "$SINK_DECAP" ] || x s ip link set dev ${D}s0 xdp obj "$DROP_OBJ" sec xdp
	got=$(tcpdump -n -r "$pcap" "$OURS" 2>/dev/null | wc -l)
	hm_check "${gen}_${kind}_${mode}_all_${n}_frames_forwarded" "$n" "$got"
	if [ -n "$SINK_DECAP" ]; then
		# One record per frame (the ring wakes the agent within 10 ms).
		sleep 0.2
		got=$(agent_records)
		hm_check "${gen}_${kind}_${mode}_sink_agent_got_a_record_per_frame" "$n" \
			"$((${got:-0} - R0))"
	fi
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
	plain|kernel|hm-xdp|hm-tc|hm-agent|B-hm-xdp|noop-xdp|noop-tc) ;;
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
	got=$(slots "$pcap" "$mode")
	hm_check "${gen}_${kind}_${mode}_router_slot" "$want" "$got"
}

# slots PCAP MODE - the router's slot in each record of a capture at the
# sink, counted: "N x node ID in IF out IF" (no out for kernel), "N x none".
# Node 1's slot (the tcp generator's encap fills its own) is not the
# router's.
slots()
{
	"$HOPMARK" -j decode "$1" 2>/dev/null | "$PY" -c '
import json, sys
seen = []
for line in sys.stdin:
    r = json.loads(line)
    if r.get("summary"):
        continue
    hops = [h for h in r.get("hops", []) if h.get("node_id") not in (None, 0, 1)]
    if not hops:
        seen.append("none")
        continue
    h = hops[0]
    s = "node %s in %s" % (h["node_id"], h.get("ingress_if"))
    if sys.argv[1] != "kernel":
        s += " out %s" % h.get("egress_if")
    seen.append(s)
print(" ; ".join(sorted(set("%d x %s" % (seen.count(s), s) for s in seen))) or "no records")
' "$2"
}

# agent_records - the hm-agent mode's sink hopmarkd's records so far.
agent_records() { hm_agent_stat "$HM_TMP/sink-hopmarkd.log" "$SINK_AGENT_PID" agent records; }

# verify_tcp KIND MODE - an iperf3 transfer completes; the router received
# GSO skbs (a capture on fwdr0, after GRO, holds frames past the MTU); the
# router's slot of every tcp6-c00000 segment at the sink is filled by
# whoever runs transit; in hm-agent, the sink's agent got records.
verify_tcp()
{
	local kind=$1 mode=$2 pc_r pc_s cap_r cap_s got want r0=0 frames=$FRAMES
	pc_r=$HM_TMP/verify-tcp-$kind-$mode-r.pcap
	pc_s=$HM_TMP/verify-tcp-$kind-$mode-s.pcap
	[ -z "$SINK_DECAP" ] || r0=$(agent_records)
	# IPv6 behind a Hop-by-Hop header is not "tcp" to pcap: ip6[6] = 0.
	hm_capture_start r ${D}r0 "$pc_r" "tcp dst port $IPERF_PORT or ip6[6] = 0" ||
		{ hm_not_ok "capture on ${D}r0"; return; }
	cap_r=$HM_CAP_PID
	hm_capture_start s ${D}s0 "$pc_s" "tcp dst port $IPERF_PORT or ip6[6] = 0" ||
		{ hm_not_ok "capture on ${D}s0"; hm_capture_stop "$cap_r"; return; }
	cap_s=$HM_CAP_PID
	FRAMES=500
	# shellcheck disable=SC2046
	got=$(tcp_send $(gen_args tcp "$kind") | awk '{ print $6 }')
	FRAMES=$frames
	# hm_capture_stop of both at once: one flush wait.
	sleep 0.3
	kill -TERM "$cap_r" "$cap_s" 2>/dev/null
	wait "$cap_r" "$cap_s" 2>/dev/null
	# iperf3 -n sends whole blocks (128 KB): at least what was asked.
	hm_check "tcp_${kind}_${mode}_iperf3_sent_all" "True" \
		"$([ "${got:-0}" -ge $((500 * 1448)) ] && echo True || echo "False (${got:-failed})")"
	got=$(tcpdump -n -r "$pc_r" "greater 1600" 2>/dev/null | wc -l)
	hm_check "tcp_${kind}_${mode}_router_got_gso_skbs" "True" \
		"$([ "$got" -ge 1 ] && echo True || echo "False ($got)")"
	if [ -n "$SINK_DECAP" ]; then
		sleep 0.2
		got=$(agent_records)
		hm_check "tcp_${kind}_${mode}_sink_agent_got_records" "True" \
			"$([ "${got:-0}" -gt "$r0" ] 2>/dev/null && echo True || echo "False ($r0 -> $got)")"
	fi
	[ "${kind#tcp6-}" != "$kind" ] || return 0
	case $mode in
	plain|noop-*) want="none" ;;
	kernel) want="node $NODE_ID in $IF_ID_IN" ;;
	*) want="node $NODE_ID in $IF_ID_IN out $IF_ID_OUT" ;;
	esac
	got=$(slots "$pc_s" "$mode" | sed 's/[0-9]* x //g')
	hm_check "tcp_${kind}_${mode}_router_slot_of_every_segment" "$want" "$got"
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
				applies "$mode" "$kind" "$gen" && verify "$gen" "$kind" "$mode"
			done
		done
	done
fi

for rep in $(seq "$REPS"); do
	for mode in $MODES; do
		mode_set "$mode" || { echo "# mode $mode: set-up failed" >&2; exit 1; }
		for gen in $GENS; do
			for kind in $KINDS; do
				applies "$mode" "$kind" "$gen" || continue
				run_one "$rep" "$gen" "$kind" "$mode" ||
					{ echo "# $gen $kind $mode: generator failed" >&2; exit 1; }
			done
		done
	done
done
mode_clear
[ ! -s "$HM_TMP/agent.tsv" ] || PBT_AGENT_TSV=$HM_TMP/agent.tsv
[ ! -s "$HM_TMP/sink-agent.tsv" ] || SINK_AGENT_TSV=$HM_TMP/sink-agent.tsv

report() {
	"$PY" "$HM_TOP/bench/fwd_report.py" "$RAW" ${JSON:+--json "$JSON"} \
		${PBT_AGENT_TSV:+--agent "$PBT_AGENT_TSV"} \
		${SINK_AGENT_TSV:+--sink-agent "$SINK_AGENT_TSV"} \
		${SINK_AGENT_TSV:+--sink-agent-samples "$HM_TMP/sink-agent-samples.tsv"} \
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
					applies "$mode" "$kind" "$gen" && want="$want $gen/$kind/$mode"
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
