# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# pbt_lib.sh - PBT-M postcards on the demo's five-node line: IPv4 on the
# line, an out-of-band management network from every node to the host (the
# root network namespace), where hopmark-collector runs, and the PBT-M roles
# of every node. Sourced after selftests/lib.sh (hm_topo_create, hm_on,
# hm_bg, hm_agent_start, the TAP helpers), by selftests/net/test_pbt_e2e.sh
# and the demo's postcard phase (selftests/demo.sh).
#
#   A ------- R1 ------- R2 ------- R3 ------- B
#   head      ingress    ingress    ingress    ingress
#   egress    egress     egress     egress     end
#   |          |          |          |          |
#   +---- mgmt (one veth per node) -- bridge <pfx>-pc on the host ---+
#                                     hopmark-collector (PBT_COLL_PORT)
#
# IPv4 on the line (lib.sh's line is IPv6): link k (1..4) is 10.9.k.0/24,
# the left end .1, the right end .2, as lib.sh's 2001:db8:k::/64. Node IDs
# are lib.sh's (A 1, R1 2, R2 3, R3 4, B 5), set with `hopmark node set`
# on every node, R2 included. The management network PBT_MGMT_NET.0/24:
# node N is PBT_MGMT_NET.N (its node ID) on its interface "mgmt", the host
# PBT_MGMT_NET.254 on the bridge. Postcards leave every node through mgmt,
# never along the line, so the exports cannot be marked.
#
# Roles (`hopmark postcard enable`): A marks at its egress a-r1 (head,
# enabled by pbt_select with the selection) and sends an egress postcard; every router sends a postcard at ingress (the
# interface towards A) and at egress (the one towards B), which is what
# tells a drop inside a node (ingress postcard, no egress one) from a drop
# on a link (egress postcard, nothing from the next node); B sends an
# ingress postcard and clears the mark of what it delivers (end). Every
# node's hopmarkd exports its postcards as IPFIX over UDP to the host,
# Observation Domain = node ID.
#
# Caller sets (optional): PBT_MGMT_NET (default 10.254.1), PBT_COLL_PORT
# (where hopmarkd exports, default 4739, HM_IPFIX_PORT).

PBT_MGMT_NET=${PBT_MGMT_NET:-10.254.1}
PBT_HOST_ADDR=$PBT_MGMT_NET.254
PBT_COLL_PORT=${PBT_COLL_PORT:-4739}
HM_COLLECTOR=${HM_COLLECTOR:-$HM_BUILD/hopmark-collector}
PBT_BR=$HM_PFX-pc

PBT_A4=10.9.1.1
PBT_B4=10.9.4.2
declare -A PBT_IF_ADDR4=([a-r1]=10.9.1.1 [r1-a]=10.9.1.2 [r1-r2]=10.9.2.1 [r2-r1]=10.9.2.2
			 [r2-r3]=10.9.3.1 [r3-r2]=10.9.3.2 [r3-b]=10.9.4.1 [b-r3]=10.9.4.2)
# The interface towards A (ingress of the A -> B direction) and towards B.
declare -A PBT_LEFT=([r1]=r1-a [r2]=r2-r1 [r3]=r3-r2 [b]=b-r3)
declare -A PBT_RIGHT=([a]=a-r1 [r1]=r1-r2 [r2]=r2-r3 [r3]=r3-b)
PBT_PATH_IDS="1 2 3 4 5"

# pbt_v4_setup - IPv4 addresses and static routes on lib.sh's line.
pbt_v4_setup()
{
	local ifc
	for ifc in "${!PBT_IF_ADDR4[@]}"; do
		hm_on "${ifc%%-*}" ip addr add "${PBT_IF_ADDR4[$ifc]}/24" dev "$ifc" || return
	done
	for n in r1 r2 r3; do
		hm_sysctl "$n" net.ipv4.ip_forward=1
		hm_sysctl "$n" net.ipv4.conf.all.rp_filter=0
	done
	hm_on a ip route add 10.9.0.0/16 via 10.9.1.2 &&
	hm_on r1 ip route add 10.9.3.0/24 via 10.9.2.2 &&
	hm_on r1 ip route add 10.9.4.0/24 via 10.9.2.2 &&
	hm_on r2 ip route add 10.9.1.0/24 via 10.9.2.1 &&
	hm_on r2 ip route add 10.9.4.0/24 via 10.9.3.2 &&
	hm_on r3 ip route add 10.9.1.0/24 via 10.9.3.1 &&
	hm_on r3 ip route add 10.9.2.0/24 via 10.9.3.1 &&
	hm_on b ip route add 10.9.0.0/16 via 10.9.4.1 || return
	hm_wait_reach a "$PBT_B4" "$HM_B_ADDR" 50 0.1 "pbt: A cannot reach B over IPv4"
}

# pbt_mgmt_setup - the management bridge on the host and one veth per node.
# Host-side names: <pfx>-m<node ID>.
pbt_mgmt_setup()
{
	local n id
	# Host-side names: at most IFNAMSIZ - 1 = 15 octets ("-pc", "-m" and
	# a one-digit node ID after the prefix).
	[ $((${#HM_PFX} + 3)) -le 15 ] || {
		echo "# pbt: HM_PFX $HM_PFX is longer than 12 octets: $PBT_BR, $HM_PFX-m1 exceed IFNAMSIZ" >&2
		return 1
	}
	PBT_MGMT_UP=1
	ip link add "$PBT_BR" type bridge || return
	ip addr add "$PBT_HOST_ADDR/24" dev "$PBT_BR" || return
	ip link set "$PBT_BR" up || return
	for n in $HM_NODES; do
		id=$(hm_node_id "$n")
		ip link add "$HM_PFX-m$id" type veth peer name mgmt netns "$(hm_ns "$n")" || return
		ip link set "$HM_PFX-m$id" master "$PBT_BR" up || return
		hm_on "$n" ip addr add "$PBT_MGMT_NET.$id/24" dev mgmt || return
		hm_on "$n" ip link set mgmt up || return
	done
	for n in $HM_NODES; do
		hm_on "$n" ping -c1 -W2 -q "$PBT_HOST_ADDR" >/dev/null 2>&1 ||
			{ echo "# pbt: $n cannot reach the host on $PBT_HOST_ADDR" >&2; return 1; }
	done
}

# pbt_mgmt_teardown - remove what pbt_mgmt_setup made on the host (the
# nodes' ends go with their namespaces).
pbt_mgmt_teardown()
{
	local n
	[ -n "${PBT_MGMT_UP:-}" ] || return 0
	for n in $HM_NODES; do
		ip link del "$HM_PFX-m$(hm_node_id "$n")" 2>/dev/null
	done
	ip link del "$PBT_BR" 2>/dev/null
	PBT_MGMT_UP=
}

# pbt_topo_create - lib.sh's line (IPv6, R2's kernel IOAM), IPv4 on it,
# the management network. No hopmark configuration yet.
pbt_topo_create()
{
	hm_topo_create && pbt_v4_setup && pbt_mgmt_setup
}

# pbt_node_ids - node ID and interface IDs on every node (R2 too).
pbt_node_ids()
{
	local n
	for n in $HM_NODES; do
		hm_cfg_node "$n" || return
	done
}

# pbt_setup [EXPORT_PORT] - the PBT-M domain on every node with the
# defaults (mark-ipv4 reserved), every node exporting to the host's
# EXPORT_PORT (default PBT_COLL_PORT) over UDP, Observation Domain = node
# ID, from its management address. Extra export options for one node:
# PBT_EXPORT_OPTS_<node>, e.g. PBT_EXPORT_OPTS_r2="rate 2000".
pbt_setup()
{
	local port=${1:-$PBT_COLL_PORT} n id extra
	for n in $HM_NODES; do
		id=$(hm_node_id "$n")
		eval "extra=\${PBT_EXPORT_OPTS_$n:-}"
		hm_on "$n" "$HOPMARK" postcard set mark-ipv4 reserved || return
		# shellcheck disable=SC2086 # $extra: export options, one word each
		hm_on "$n" "$HOPMARK" postcard export set collector "$PBT_HOST_ADDR" port "$port" \
			transport udp domain "$id" src "$PBT_MGMT_NET.$id" $extra || return
	done
	# A's head role comes with its selection (pbt_select): an empty
	# watchlist watches every packet.
	hm_on a "$HOPMARK" postcard enable dev a-r1 role egress || return
	for n in r1 r2 r3; do
		hm_on "$n" "$HOPMARK" postcard enable dev "${PBT_LEFT[$n]}" role ingress || return
		hm_on "$n" "$HOPMARK" postcard enable dev "${PBT_RIGHT[$n]}" role egress || return
	done
	hm_on b "$HOPMARK" postcard enable dev b-r3 role ingress || return
	hm_on b "$HOPMARK" postcard enable dev b-r3 role end
}

# pbt_select WATCH... -- SAMPLE... - A's selection: `hopmark postcard
# watch flush`, one `watch add` per WATCH argument (a quoted rule), then
# `hopmark postcard sample SAMPLE...`, with A's head role off meanwhile
# (an empty watchlist, between the flush and the first add, watches every
# packet: A's own neighbour discovery would be marked).
pbt_select()
{
	hm_on a "$HOPMARK" postcard disable dev a-r1 role head >/dev/null 2>&1
	hm_on a "$HOPMARK" postcard watch flush || return
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		# shellcheck disable=SC2086 # a rule: words of `watch add`
		hm_on a "$HOPMARK" postcard watch add $1 || return
		shift
	done
	[ "${1:-}" = "--" ] && shift
	hm_on a "$HOPMARK" postcard sample "$@" &&
	hm_on a "$HOPMARK" postcard enable dev a-r1 role head
}

# pbt_agents_start DIR - hopmarkd on every node, JSON lines in DIR/NODE.json.
pbt_agents_start()
{
	local n
	for n in $HM_NODES; do
		hm_agent_start "$n" "$1/$n.json" || return
	done
}

pbt_agents_stop()
{
	local n
	for n in $HM_NODES; do
		hm_agent_stop "$n"
	done
}

# pbt_collector_start OUT PORT [OPTION...] - hopmark-collector on the
# host, listening on UDP PORT (and TCP 4739 unless OPTION says -t), JSON
# lines to OUT (its log OUT.log);
# PBT_COLL_PID. Waits until the port is bound.
pbt_collector_start()
{
	local out=$1 port=$2 i
	shift 2
	"$HM_COLLECTOR" -u "$port" -o "$out" "$@" >"$out.log" 2>&1 &
	PBT_COLL_PID=$!
	HM_BG_PIDS="${HM_BG_PIDS:-} $!"
	for i in $(seq 50); do
		ss -Hlun "sport = :$port" 2>/dev/null | grep -q . && return 0
		kill -0 "$PBT_COLL_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "# hopmark-collector did not start:" >&2
	sed 's/^/#   /' "$out.log" >&2
	return 1
}

# pbt_collector_stop - SIGTERM, wait: the collector flushes what it tracks.
pbt_collector_stop()
{
	[ -n "${PBT_COLL_PID:-}" ] || return 0
	kill "$PBT_COLL_PID" 2>/dev/null
	wait "$PBT_COLL_PID" 2>/dev/null
	PBT_COLL_PID=
}

# pbt_trap_teardown - as hm_trap_teardown, the management network too.
pbt_teardown() { pbt_collector_stop; pbt_mgmt_teardown; hm_teardown; }
pbt_trap_teardown()
{
	trap 'pbt_teardown' EXIT
	trap 'pbt_teardown; exit 130' INT
	trap 'pbt_teardown; exit 143' TERM
}
