# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib.sh - the hopmark demo topology and the helpers of the namespace
# selftests (selftests/net/) and the demo (selftests/demo.sh). Sourced, not
# run.
#
#   A ---- R1 ---- R2 ---- R3 ---- B
#   hopmark   hopmark  Linux   hopmark  hopmark
#   encap     transit  IOAM    transit  decap + hopmarkd
#
# Five network namespaces <prefix>-a, -r1, -r2, -r3, -b joined by veth
# pairs; link N (1..4) carries 2001:db8:N::/64, the left end is ::1 and the
# right end ::2. Node IDs (IOAM node_id): A 1, R1 2, R2 3, R3 4, B 5.
# Interface IDs (IOAM if_id): 10 * node ID + 1 for the interface towards A,
# + 2 for the one towards B (A's only interface is 12, B's is 51). Wide IDs
# add 0x1000000 / 0x10000000 so that short and wide values differ.
#
# Every node has its own bpffs at /run/hopmark/<ns>/bpf and its own run
# directory /run/hopmark/<ns>; `hm_on NODE cmd...` runs cmd in the node's
# network namespace with TC_BPF_MNT and HOPMARK_RUNDIR pointing at them,
# which is how stock ip/tc, the hopmark CLI and hopmarkd find the node's
# pinned maps (see Documentation/operating.rst).
#
# Caller sets (all optional) before sourcing or before hm_topo_create:
#   HM_PFX	namespace name prefix (default "hm<PID>", unique per run, so
#		that two runs never share a namespace; selftests/demo.sh sets
#		"hm": the demo's nodes are hm-a ... hm-b). Host-side
#		interface names built from it (pbt_lib.sh's <pfx>-pc,
#		<pfx>-m<ID>) must fit IFNAMSIZ: HM_PFX of at most 12 octets.
#   HM_TOP	source tree (default: the directory above selftests/)

HM_TOP=${HM_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
HM_PFX=${HM_PFX:-hm$$}
HM_BUILD=${HM_BUILD:-$HM_TOP/build}
HM_BPF_DIR=${HM_BPF_DIR:-$HM_BUILD/bpf}
HOPMARK=${HOPMARK:-$HM_BUILD/hopmark}
HOPMARKD=${HOPMARKD:-$HM_BUILD/hopmarkd}
HM_RUN_ROOT=${HM_RUN_ROOT:-/run/hopmark}
PY=${PY:-/usr/bin/python3}

HM_NODES="a r1 r2 r3 b"
HM_NS_ID=123			# IOAM-Namespace of the demo
HM_TRACE_TYPE=0xfff000		# bits 0-11
HM_TRACE_SIZE=240		# 4 node slots of NodeLen 15
HM_START_HLIM=64		# hop limit A sends with (net.ipv6.conf.*.hop_limit)
HM_ENCAP_GROWTH=256		# 8 HBH + 4 option head + 4 trace head + 240
HM_B_PREFIX=2001:db8:4::/64
HM_A_ADDR=2001:db8:1::1
HM_B_ADDR=2001:db8:4::2
HM_R2_ADDR=2001:db8:2::2	# R2's address on the R1-R2 link

# Interfaces. Name = <node>-<neighbour>.
declare -A HM_NODE_ID=([a]=1 [r1]=2 [r2]=3 [r3]=4 [b]=5)
declare -A HM_IF_ID=([a-r1]=12 [r1-a]=21 [r1-r2]=22 [r2-r1]=31 [r2-r3]=32
		     [r3-r2]=41 [r3-b]=42 [b-r3]=51)
declare -A HM_IF_ADDR=([a-r1]=2001:db8:1::1 [r1-a]=2001:db8:1::2
		       [r1-r2]=2001:db8:2::1 [r2-r1]=2001:db8:2::2
		       [r2-r3]=2001:db8:3::1 [r3-r2]=2001:db8:3::2
		       [r3-b]=2001:db8:4::1 [b-r3]=2001:db8:4::2)

hm_ns()		{ echo "$HM_PFX-$1"; }
hm_node_id()	{ echo "${HM_NODE_ID[$1]}"; }
hm_if_id()	{ echo "${HM_IF_ID[$1]}"; }
hm_if_id_wide()	{ echo $(( 0x1000000 + ${HM_IF_ID[$1]} )); }
hm_node_id_wide() { printf '0x%x\n' $(( 0x10000000 + ${HM_NODE_ID[$1]} )); }
hm_ns_data()	{ printf '0x%x\n' $(( 0xa0000000 + ${HM_NODE_ID[$1]} )); }
hm_ns_data_wide() { printf '0x%x\n' $(( 0x0b00000000000000 + ${HM_NODE_ID[$1]} )); }
hm_rundir()	{ echo "$HM_RUN_ROOT/$(hm_ns "$1")"; }
hm_bpffs()	{ echo "$HM_RUN_ROOT/$(hm_ns "$1")/bpf"; }

# hm_on NODE cmd... - run cmd as node NODE (its netns, bpffs and rundir).
# nsenter keeps the host's mounts. `ip netns exec` runs each command in a
# mount namespace of its own with /sys remounted; since the node's bpffs is
# outside /sys it would work too (selftests/net/test_netns_exec.sh).
hm_on()
{
	local node=$1; shift
	TC_BPF_MNT=$(hm_bpffs "$node") HOPMARK_RUNDIR=$(hm_rundir "$node") \
		nsenter --net="/run/netns/$(hm_ns "$node")" "$@"
}
on() { hm_on "$@"; }

# hm_bg NODE cmd... - hm_on in the background; HM_BG_PID is cmd's own pid
# (nsenter execs it), so signals reach it, and hm_teardown kills it. A
# non-interactive shell starts background jobs with SIGINT ignored, so stop
# them with SIGTERM.
hm_bg()
{
	local node=$1; shift
	(
		TC_BPF_MNT=$(hm_bpffs "$node")
		HOPMARK_RUNDIR=$(hm_rundir "$node")
		export TC_BPF_MNT HOPMARK_RUNDIR
		exec nsenter --net="/run/netns/$(hm_ns "$node")" "$@"
	) &
	HM_BG_PID=$!
	HM_BG_PIDS="${HM_BG_PIDS:-} $!"
}

hm_log() { [ -n "${HM_QUIET:-}" ] || echo "# $*" >&2; }

# ---------------------------------------------------------------- checks

# hm_require_root_netns - skip the whole test (kselftest exit 4) when it
# cannot run here: not root, no netns, no ip.
hm_require_root_netns()
{
	[ "$(id -u)" -eq 0 ] || hm_skip_all "needs root"
	command -v ip >/dev/null || hm_skip_all "needs iproute2"
	command -v nsenter >/dev/null || hm_skip_all "needs nsenter"
	ip netns add "$HM_PFX-probe" 2>/dev/null || hm_skip_all "no network namespaces"
	ip netns del "$HM_PFX-probe"
}

hm_require_built()
{
	local f
	for f in "$@"; do
		[ -e "$f" ] || hm_skip_all "not built: $f (make all)"
	done
}

# ----------------------------------------------------------------- TAP

HM_TAP_N=0
HM_TAP_FAILS=0

# kselftest's skip is exit 4; prove(1) counts any non-zero exit as a
# failure even after "1..0 # SKIP", so under a TAP harness (HARNESS_ACTIVE,
# set by prove) the skip exits 0.
hm_skip_all()
{
	echo "1..0 # SKIP $*"
	[ -n "${HARNESS_ACTIVE:-}" ] && exit 0
	exit 4
}

hm_plan() { echo "1..$1"; HM_PLANNED=1; }

hm_ok()
{
	HM_TAP_N=$((HM_TAP_N + 1))
	echo "ok $HM_TAP_N - $*"
}

hm_not_ok()
{
	HM_TAP_N=$((HM_TAP_N + 1))
	HM_TAP_FAILS=$((HM_TAP_FAILS + 1))
	echo "not ok $HM_TAP_N - $*"
}

hm_skip()
{
	HM_TAP_N=$((HM_TAP_N + 1))
	echo "ok $HM_TAP_N - $1 # SKIP ${2:-}"
}

# hm_check NAME EXPECTED OBSERVED - one named check, string equality.
hm_check()
{
	if [ "$2" = "$3" ]; then
		hm_ok "$1"
	else
		hm_not_ok "$1"
		echo "#   expected: $2"
		echo "#   observed: $3"
	fi
}

# hm_check_cmd NAME CMD... - ok when CMD succeeds; its output is the diagnostic.
hm_check_cmd()
{
	local name=$1 out; shift
	if out=$("$@" 2>&1); then
		hm_ok "$name"
		[ -z "$out" ] || [ -z "${HM_VERBOSE:-}" ] || echo "$out" | sed 's/^/#   /'
	else
		hm_not_ok "$name"
		echo "$out" | sed 's/^/#   /'
	fi
}

# hm_done - the plan (at the end, which TAP allows, unless hm_plan gave it
# first) and the exit status.
hm_done()
{
	[ -n "${HM_PLANNED:-}" ] || echo "1..$HM_TAP_N"
	[ "$HM_TAP_FAILS" -eq 0 ] && exit 0
	exit 1
}

# ------------------------------------------------------------- topology

hm_link()
{
	local l=$1 r=$2	# node names
	ip link add "$l-$r" netns "$(hm_ns "$l")" type veth \
		peer name "$r-$l" netns "$(hm_ns "$r")"
}

hm_sysctl() { hm_on "$1" sysctl -qw "$2" >/dev/null; }

# hm_node_add NODE - the node's network namespace and its own bpffs.
hm_node_add()
{
	ip netns add "$(hm_ns "$1")" || return
	mkdir -p "$(hm_bpffs "$1")"
	mount -t bpf bpf "$(hm_bpffs "$1")"
}

# What a node of a routed test topology runs first (one shell command):
# loopback up, IPv4 and IPv6 forwarding, no reverse-path filter (a test's
# packets may take a path back other than the way they came), no DAD.
HM_ROUTER_INIT="ip link set lo up; sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1 net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0 >/dev/null; "

# hm_wait_reach NODE V4 V6 TRIES PAUSE [MESSAGE] - ping V4 and V6 from NODE
# until both answer, at most TRIES times PAUSE seconds apart; on failure,
# MESSAGE (if given) goes to stderr as a diagnostic and the status is 1.
hm_wait_reach()
{
	local i
	for i in $(seq "$4"); do
		hm_on "$1" sh -c "ping -c1 -W1 -q $2 && ping -6 -c1 -W1 -q $3" \
			>/dev/null 2>&1 && return 0
		sleep "$5"
	done
	[ -z "${6:-}" ] || echo "# $6" >&2
	return 1
}

# hm_line_create L M R [MTU4 MTU6] - three nodes in a line, L -- M -- R,
# M forwarding: link L-M is 10.1.0.0/24 and fd01::/64 (L .1 / ::1, M .2 /
# ::2), link M-R 10.2.0.0/24 and fd02::/64 (M .1 / ::1, R .2 / ::2). L and
# R route everything via M; MTU4 / MTU6, when given, are the MTUs of L's
# IPv4 / IPv6 default routes. The caller then waits for the path
# (hm_line_wait), after anything it adds first (e.g. static neighbours).
hm_line_create()
{
	local l=$1 m=$2 r=$3 n
	HM_TOPO_UP=1
	for n in "$l" "$m" "$r"; do
		hm_node_add "$n" || return 1
		hm_on "$n" ip link set lo up
		hm_sysctl "$n" net.ipv6.conf.all.accept_dad=0
		hm_sysctl "$n" net.ipv6.conf.default.accept_dad=0
	done
	ip link add "$l-$m" netns "$(hm_ns "$l")" type veth peer name "$m-$l" netns "$(hm_ns "$m")"
	ip link add "$m-$r" netns "$(hm_ns "$m")" type veth peer name "$r-$m" netns "$(hm_ns "$r")"
	hm_on "$l" ip addr add 10.1.0.1/24 dev "$l-$m"
	hm_on "$l" ip addr add fd01::1/64 dev "$l-$m" nodad
	hm_on "$m" ip addr add 10.1.0.2/24 dev "$m-$l"
	hm_on "$m" ip addr add fd01::2/64 dev "$m-$l" nodad
	hm_on "$m" ip addr add 10.2.0.1/24 dev "$m-$r"
	hm_on "$m" ip addr add fd02::1/64 dev "$m-$r" nodad
	hm_on "$r" ip addr add 10.2.0.2/24 dev "$r-$m"
	hm_on "$r" ip addr add fd02::2/64 dev "$r-$m" nodad
	hm_on "$l" ip link set "$l-$m" up
	hm_on "$m" ip link set "$m-$l" up
	hm_on "$m" ip link set "$m-$r" up
	hm_on "$r" ip link set "$r-$m" up
	hm_on "$l" ip route add default via 10.1.0.2 ${4:+mtu "$4"}
	hm_on "$l" ip -6 route add default via fd01::2 ${5:+mtu "$5"}
	hm_on "$r" ip route add default via 10.2.0.1
	hm_on "$r" ip -6 route add default via fd02::1
	hm_sysctl "$m" net.ipv4.ip_forward=1
	hm_sysctl "$m" net.ipv6.conf.all.forwarding=1
}

# hm_line_wait L - L reaches R (10.2.0.2 and fd02::2) within 5 tries, which
# also resolves the neighbours on the way.
hm_line_wait() { hm_wait_reach "$1" 10.2.0.2 fd02::2 5 0.5; }

# hm_topo_create - build the five namespaces, links, addresses, routes,
# bpffs instances, and R2's kernel IOAM. No hopmark yet.
hm_topo_create()
{
	local n ifc node

	HM_TOPO_UP=1
	for n in $HM_NODES; do
		ip netns add "$(hm_ns "$n")"
		mkdir -p "$(hm_bpffs "$n")"
		mountpoint -q "$(hm_bpffs "$n")" ||
			mount -t bpf bpf "$(hm_bpffs "$n")"
		hm_on "$n" ip link set lo up
		hm_sysctl "$n" net.ipv6.conf.all.hop_limit=$HM_START_HLIM
		hm_sysctl "$n" net.ipv6.conf.default.hop_limit=$HM_START_HLIM
		hm_sysctl "$n" net.ipv6.conf.all.accept_dad=0
		hm_sysctl "$n" net.ipv6.conf.default.accept_dad=0
	done
	hm_link a r1
	hm_link r1 r2
	hm_link r2 r3
	hm_link r3 b

	for ifc in "${!HM_IF_ADDR[@]}"; do
		node=${ifc%%-*}
		hm_on "$node" ip addr add "${HM_IF_ADDR[$ifc]}/64" dev "$ifc" nodad
		hm_on "$node" ip link set "$ifc" up
	done
	for n in r1 r2 r3; do
		hm_sysctl "$n" net.ipv6.conf.all.forwarding=1
	done

	# A's route to B's prefix leaves room for the 256 bytes of encap, so
	# TCP's MSS fits and nothing needs fragmenting.
	hm_on a ip -6 route add 2001:db8::/32 via 2001:db8:1::2 dev a-r1 \
		mtu $((1500 - HM_ENCAP_GROWTH))
	hm_on r1 ip -6 route add 2001:db8:3::/64 via 2001:db8:2::2
	hm_on r1 ip -6 route add 2001:db8:4::/64 via 2001:db8:2::2
	hm_on r2 ip -6 route add 2001:db8:1::/64 via 2001:db8:2::1
	hm_on r2 ip -6 route add 2001:db8:4::/64 via 2001:db8:3::2
	hm_on r3 ip -6 route add 2001:db8:1::/64 via 2001:db8:3::1
	hm_on r3 ip -6 route add 2001:db8:2::/64 via 2001:db8:3::1
	hm_on b ip -6 route add 2001:db8::/32 via 2001:db8:4::1

	hm_r2_ioam_setup
	hm_wait_links
}

# hm_r2_ioam_setup - R2 is a plain Linux IOAM transit node (net/ipv6/ioam6.c).
hm_r2_ioam_setup()
{
	local ifc
	hm_on r2 ip ioam namespace add $HM_NS_ID data "$(hm_ns_data r2)" \
		wide "$(hm_ns_data_wide r2)"
	hm_sysctl r2 net.ipv6.ioam6_id="$(hm_node_id r2)"
	hm_sysctl r2 net.ipv6.ioam6_id_wide="$(( $(hm_node_id_wide r2) ))"
	for ifc in r2-r1 r2-r3; do
		hm_sysctl r2 net.ipv6.conf.$ifc.ioam6_id="$(hm_if_id $ifc)"
		hm_sysctl r2 net.ipv6.conf.$ifc.ioam6_id_wide="$(hm_if_id_wide $ifc)"
	done
	hm_sysctl r2 net.ipv6.conf.r2-r1.ioam6_enabled=1
}

# hm_wait_links - wait until every link is up and A reaches B.
hm_wait_links()
{
	local i
	for i in $(seq 50); do
		hm_on a ping -6 -c1 -W1 -q $HM_B_ADDR >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "# topology: A cannot reach B" >&2
	return 1
}

# ------------------------------------------------- hopmark configuration

# hm_cfg_node NODE - node ID, interface IDs and the namespace, via the CLI.
hm_cfg_node()
{
	local node=$1 ifc
	hm_on "$node" "$HOPMARK" node set id "$(hm_node_id "$node")" \
		wide-id "$(hm_node_id_wide "$node")" || return
	for ifc in "${!HM_IF_ID[@]}"; do
		[ "${ifc%%-*}" = "$node" ] || continue
		hm_on "$node" "$HOPMARK" link set dev "$ifc" id "$(hm_if_id "$ifc")" \
			wide-id "$(hm_if_id_wide "$ifc")" || return
	done
	hm_on "$node" "$HOPMARK" ioam namespace add $HM_NS_ID \
		data "$(hm_ns_data "$node")" wide "$(hm_ns_data_wide "$node")"
}

# hm_setup_cli [SIZE [TRACE_TYPE]] - the whole demo domain with the hopmark
# CLI: encap on A, transit on R1 and R3 (both interfaces), decap on B.
hm_setup_cli()
{
	local size=${1:-$HM_TRACE_SIZE} tt=${2:-$HM_TRACE_TYPE} n
	for n in a r1 r3 b; do
		hm_cfg_node "$n" || return
	done
	hm_on a "$HOPMARK" ioam encap add $HM_B_PREFIX dev a-r1 ns $HM_NS_ID \
		trace-type "$tt" size "$size" || return
	hm_on r1 "$HOPMARK" ioam transit enable dev r1-a || return
	hm_on r1 "$HOPMARK" ioam transit enable dev r1-r2 || return
	hm_on r3 "$HOPMARK" ioam transit enable dev r3-r2 || return
	hm_on r3 "$HOPMARK" ioam transit enable dev r3-b || return
	hm_on b "$HOPMARK" ioam decap enable dev b-r3
}

# hm_agent_start NODE OUTFILE [OPTION...] - hopmarkd on NODE writing JSON
# lines to OUTFILE, with more OPTIONs; waits for its monitor socket.
hm_agent_start()
{
	local node=$1 out=$2 i
	shift 2
	hm_bg "$node" "$HOPMARKD" -o "$out" "$@" >"$out.log" 2>&1
	eval "HM_AGENT_PID_$node=$HM_BG_PID"
	for i in $(seq 50); do
		[ -S "$(hm_rundir "$node")/hopmarkd.sock" ] && return 0
		kill -0 "$HM_BG_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "# hopmarkd on $node did not start:" >&2
	sed 's/^/#   /' "$out.log" >&2
	return 1
}

hm_agent_stop()
{
	local node=$1 pid
	eval "pid=\${HM_AGENT_PID_$node:-}"
	[ -n "$pid" ] || return 0
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	eval "HM_AGENT_PID_$node="
}

# hm_wait_lines FILE N [TENTHS] - wait until FILE has at least N lines.
hm_wait_lines()
{
	local f=$1 n=$2 t=${3:-50} i
	for i in $(seq "$t"); do
		[ -f "$f" ] && [ "$(wc -l <"$f")" -ge "$n" ] && return 0
		sleep 0.1
	done
	return 1
}

# ----------------------------------------------------------- capturing

# hm_capture_start NODE IF FILE [FILTER] - tcpdump in NODE; waits until it
# listens. tcpdump's `udp`/`tcp` filters miss IPv6 packets with extension
# headers, so the default filter is `ip6`.
hm_capture_start()
{
	local node=$1 ifc=$2 f=$3 filter=${4:-ip6} i
	hm_bg "$node" tcpdump -Z root -B 65536 --immediate-mode -U -n -s 0 -i "$ifc" -w "$f" "$filter" \
		>"$f.log" 2>&1
	HM_CAP_PID=$HM_BG_PID
	for i in $(seq 50); do
		grep -q "listening on" "$f.log" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# hm_capture_stop - stop the last capture started (lets it flush).
hm_capture_stop()
{
	local pid=${1:-$HM_CAP_PID}
	sleep 0.3
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

# hm_agent_stat LOG PID PART KEY - KEY of part PART (e.g. int_reports,
# agent) of hopmarkd's statistics line: SIGUSR1 to PID, then the newest
# "hopmarkd: stats: agent" line of LOG, its parts "LABEL ...: K V K V"
# separated by "; " (waits 5 s at most for the new line). Prints the
# value, "missing" when the part has no KEY, "no part PART" without PART.
hm_agent_stat()
{
	local n
	n=$(grep -c 'hopmarkd: stats: agent' "$1")
	kill -USR1 "$2"
	for _ in $(seq 50); do
		[ "$(grep -c 'hopmarkd: stats: agent' "$1")" -gt "$n" ] && break
		sleep 0.1
	done
	grep 'hopmarkd: stats: agent' "$1" | tail -n 1 | "$PY" -c '
import sys
line = sys.stdin.read().strip().split(": ", 2)[2]
for part in line.split("; "):
	label, _, kv = part.partition(": ")
	if label.split(" ")[0] == sys.argv[1]:
		kv = kv.split()
		print(dict(zip(kv[::2], kv[1::2])).get(sys.argv[2], "missing"))
		break
else:
	print("no part " + sys.argv[1])
' "$3" "$4"
}

# hm_bg_stop - stop every background job of the test (HM_BG_PIDS): SIGCONT
# first (a job the test stopped would not act on SIGTERM), SIGTERM, then
# reap them all. For a test's hm_solo_cleanup_hook.
hm_bg_stop()
{
	local p
	for p in ${HM_BG_PIDS:-}; do
		kill -CONT "$p" 2>/dev/null
		kill -TERM "$p" 2>/dev/null
	done
	for p in ${HM_BG_PIDS:-}; do
		wait "$p" 2>/dev/null
	done
}

# --------------------------------------------------------------- teardown

hm_teardown()
{
	local n pid
	trap - EXIT INT TERM
	for pid in ${HM_BG_PIDS:-}; do
		kill "$pid" 2>/dev/null
	done
	for pid in ${HM_BG_PIDS:-}; do
		wait "$pid" 2>/dev/null
	done
	[ -n "${HM_TOPO_UP:-}" ] || return 0
	for n in $HM_NODES; do
		ip netns del "$(hm_ns "$n")" 2>/dev/null
		if mountpoint -q "$(hm_bpffs "$n")" 2>/dev/null; then
			umount "$(hm_bpffs "$n")"
		fi
		rm -rf "$(hm_rundir "$n")"
	done
	rmdir "$HM_RUN_ROOT" 2>/dev/null
	if [ -n "${HM_TMP:-}" ]; then
		if [ -n "${HM_KEEP_TMP:-}" ]; then
			echo "# kept $HM_TMP" >&2
		else
			rm -rf "$HM_TMP"
		fi
	fi
	HM_TOPO_UP=
	return 0
}

# hm_trap_teardown - remove everything on exit, Ctrl-C or kill.
hm_trap_teardown()
{
	trap 'hm_teardown' EXIT
	trap 'hm_teardown; exit 130' INT
	trap 'hm_teardown; exit 143' TERM
}

# hm_tmpdir - a per-run scratch directory removed by hm_teardown.
hm_tmpdir()
{
	HM_TMP=$(mktemp -d "/tmp/$HM_PFX.XXXXXX")
	chmod 755 "$HM_TMP"
}

# ------------------------------------------------------------ one throwaway node

# hm_solo_node - one throwaway network namespace NS=$HM_PFX-x with its own
# bpffs (BPFFS, given as TC_BPF_MNT) and run directory (RUNDIR, given as
# HOPMARK_RUNDIR), a temporary directory (HM_TMP), and traps that remove all
# of it on exit or on a signal, after calling hm_solo_cleanup_hook if the
# test defines one (to stop what it started). x CMD... runs CMD in the
# namespace with that bpffs and run directory, under `nsenter --net`
# (never `ip netns exec`, which remounts /sys). Bails out when the
# namespace or the bpffs cannot be made.
hm_solo_node()
{
	NS=$HM_PFX-x
	BPFFS=$HM_RUN_ROOT/$NS/bpf
	RUNDIR=$HM_RUN_ROOT/$NS/run
	trap hm_solo_cleanup EXIT
	trap 'hm_solo_cleanup; exit 130' INT
	trap 'hm_solo_cleanup; exit 143' TERM
	hm_tmpdir
	ip netns add "$NS" || { echo "Bail out! netns $NS"; exit 1; }
	mkdir -p "$BPFFS" "$RUNDIR" && mount -t bpf bpf "$BPFFS" ||
		{ echo "Bail out! bpffs"; exit 1; }
}

hm_solo_cleanup()
{
	! declare -F hm_solo_cleanup_hook >/dev/null || hm_solo_cleanup_hook
	ip netns del "$NS" 2>/dev/null
	mountpoint -q "$BPFFS" 2>/dev/null && umount "$BPFFS"
	rm -rf "${HM_RUN_ROOT:?}/$NS"
	rmdir "$HM_RUN_ROOT" 2>/dev/null
	[ -z "${HM_TMP:-}" ] || rm -rf "$HM_TMP"
}

x() { TC_BPF_MNT=$BPFFS HOPMARK_RUNDIR=$RUNDIR nsenter --net="/run/netns/$NS" "$@"; }

# ------------------------------------------------------------ JSON helpers

# hm_json FILE PYEXPR - evaluate a python expression over the JSON lines of
# FILE (bound to `recs`, a list of dicts); prints the result.
hm_json()
{
	"$PY" -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
r = eval(sys.argv[2])
print(r if not isinstance(r, (list, dict)) else json.dumps(r))
' "$1" "$2"
}

# hm_checks_from FILE - one TAP check per "name<TAB>expected<TAB>observed"
# line (what selftests/net/hm_check_trace.py prints).
hm_checks_from()
{
	local name exp obs
	while IFS=$'\t' read -r name exp obs; do
		hm_check "$name" "$exp" "$obs"
	done <"$1"
}

# hm_ipfix_dump FILE OUT - ipfixDump --rfc5610 (libfixbuf-tools) of the
# IPFIX messages in FILE (a stream as recorded, e.g. by socat) into OUT,
# its stderr into OUT.err, and the dump's data records (options records
# too), one JSON object a line in stream order, into OUT.records: {IE name:
# value}, the name as ipfixDump gives it (hopmark's enterprise elements
# named from their RFC 5610 type records), the value the text ipfixDump
# prints for it. Returns ipfixDump's exit status.
hm_ipfix_dump()
{
	local rc

	ipfixDump --rfc5610 -i "$1" >"$2" 2>"$2.err"
	rc=$?
	"$PY" -c '
import json, re, sys
cur = None
for line in open(sys.argv[1]):
	if line.startswith("--- data record"):
		if cur is not None:
			print(json.dumps(cur))
		cur = {}
	elif line.startswith("---"):
		if cur is not None:
			print(json.dumps(cur))
		cur = None
	elif cur is not None:
		m = re.match(r"\s*\((\S+)\)\s+(\S+)\s*:\s*(.*)$", line)
		if m:
			cur[m.group(2)] = m.group(3).strip()
if cur is not None:
	print(json.dumps(cur))
' "$2" >"$2.records"
	return $rc
}

# hm_now_ns - POSIX time in ns (the clock IOAM timestamps use).
hm_now_ns() { date +%s%N; }

# hm_counter NODE DEV NAME - one counter of `hopmark -j -s link show dev DEV`.
hm_counter()
{
	hm_on "$1" "$HOPMARK" -j -s link show dev "$2" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
d = d[0] if isinstance(d, list) else d
print(d["stats"][sys.argv[1]])' "$3"
}

# ------------------------------------------- stock ip/tc + bpftool path
#
# The same domain as hm_setup_cli, with nothing of hopmark's own tools: the
# objects are attached with ip(8) and tc(8), which pin their maps by name
# under $TC_BPF_MNT/tc/globals, and the maps are filled with
# `bpftool map update pinned`. Values are the structs of lib/common/hopmark_maps.h
# in host (little-endian) byte order, written out byte by byte.

# HM_IF_F_PRESENT of lib/common/hopmark_maps.h: hopmark_ifcfg is an array,
# an entry without it is no entry.
HM_IF_F_PRESENT=0x8000

# hm_hex FMT ARGS... - struct.pack("<FMT") as bpftool's "hex" byte list.
hm_hex()
{
	"$PY" -c '
import struct, sys, ipaddress
fmt = sys.argv[1]
args = []
for a in sys.argv[2:]:
    if ":" in a:
        args.append(ipaddress.IPv6Network(a, strict=False).network_address.packed)
    else:
        args.append(int(a, 0))
print(" ".join("%02x" % b for b in struct.pack("<" + fmt, *args)))' "$@"
}

hm_ifindex() { hm_on "$1" ip -o link show "$2" | cut -d: -f1; }

# hm_map_update NODE MAP KEYHEX VALUEHEX
hm_map_update()
{
	local node=$1 map=$2 key=$3 val=$4
	# shellcheck disable=SC2086
	hm_on "$node" bpftool map update pinned \
		"$(hm_bpffs "$node")/tc/globals/$map" key hex $key value hex $val
}

# hm_stock_node NODE - hopmark_node[0], hopmark_ns[123] and hopmark_ifcfg
# of the node's interfaces (FLAGS per interface in $2: ifname=flags,...).
hm_stock_node()
{
	local node=$1 ifflags=$2 tai ent ifc fl
	# CLOCK_TAI - CLOCK_REALTIME, so the datapath writes POSIX time.
	tai=$("$PY" -c 'import time; print(round((time.clock_gettime_ns(time.CLOCK_TAI) - time.time_ns()) / 1e9) * 10**9)')
	hm_map_update "$node" hopmark_node "$(hm_hex I 0)" \
		"$(hm_hex IIQqQ 3 "$(hm_node_id "$node")" "$(hm_node_id_wide "$node")" \
			"$tai" 1000000000)" || return
	# HM_NS_F_KNOWN | HM_NS_F_DATA | HM_NS_F_DATA_WIDE
	hm_map_update "$node" hopmark_ns "$(hm_hex I $HM_NS_ID)" \
		"$(hm_hex IIQ 0x80000003 "$(hm_ns_data "$node")" "$(hm_ns_data_wide "$node")")" ||
		return
	for ent in ${ifflags//,/ }; do
		ifc=${ent%=*}
		fl=${ent#*=}
		# The flags given, and HM_IF_F_PRESENT (the arrays' "entry is set").
		hm_map_update "$node" hopmark_ifcfg "$(hm_hex I "$(hm_ifindex "$node" "$ifc")")" \
			"$(hm_hex HHI $((fl | HM_IF_F_PRESENT)) "$(hm_if_id "$ifc")" \
				"$(hm_if_id_wide "$ifc")")" || return
	done
}

# The stock attach commands of Documentation/operating.rst, one role on one
# interface each. `tc qdisc replace` creates the clsact qdisc or keeps the
# one there (with its filters), so it works after `hopmark ioam ... disable`,
# which leaves the qdisc; `tc qdisc add` fails then ("Exclusivity flag on").
hm_stock_attach_encap()
{
	hm_on "$1" tc qdisc replace dev "$2" clsact &&
	hm_on "$1" tc filter add dev "$2" egress bpf da \
		obj "$HM_BPF_DIR/hopmark_encap.bpf.o" sec tc
}

hm_stock_attach_transit()
{
	hm_on "$1" ip link set dev "$2" xdp obj "$HM_BPF_DIR/hopmark_transit.bpf.o" sec xdp &&
	hm_on "$1" tc qdisc replace dev "$2" clsact &&
	hm_on "$1" tc filter add dev "$2" egress bpf da \
		obj "$HM_BPF_DIR/hopmark_transit.bpf.o" sec tc
}

hm_stock_attach_decap()
{
	hm_on "$1" tc qdisc replace dev "$2" clsact &&
	hm_on "$1" tc filter add dev "$2" ingress bpf da \
		obj "$HM_BPF_DIR/hopmark_decap.bpf.o" sec tc
}

# hm_setup_stock [SIZE [TRACE_TYPE]] - as hm_setup_cli, with ip/tc/bpftool.
hm_setup_stock()
{
	local size=${1:-$HM_TRACE_SIZE} tt=${2:-$HM_TRACE_TYPE} n ifc

	# A: encapsulation on a-r1's egress.
	hm_stock_attach_encap a a-r1 || return
	hm_stock_node a a-r1=4 || return	# HM_IF_F_ENCAP
	hm_map_update a hopmark_encap "$(hm_hex I16s 64 $HM_B_PREFIX)" \
		"$(hm_hex IHBBIIIIQ "$(hm_ifindex a a-r1)" $HM_NS_ID "$size" 0 "$tt" 1 1 0 0)" ||
		return

	# R1, R3: XDP in and tc egress on both interfaces.
	for n in r1 r3; do
		for ifc in $(hm_on "$n" ip -o link show | awk -F': ' '/'"$n"'-/ { sub(/@.*/, "", $2); print $2 }'); do
			hm_stock_attach_transit "$n" "$ifc" || return
		done
	done
	hm_stock_node r1 r1-a=1,r1-r2=1 || return	# HM_IF_F_TRANSIT
	hm_stock_node r3 r3-r2=1,r3-b=1 || return

	# B: decapsulation on b-r3's ingress.
	hm_stock_attach_decap b b-r3 || return
	hm_stock_node b b-r3=2	# HM_IF_F_DECAP
}
