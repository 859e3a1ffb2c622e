# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# int_lib.sh - the INT selftest topology: a line of five nodes, IPv4 and
# IPv6. Sourced after selftests/lib.sh (TAP helpers, hm_on, hm_bg,
# hm_capture_start, hm_agent_start, hm_teardown), whose HM_NODES it
# replaces.
#
#   H ------ S ------ R1 ------ R2 ------ R3 ------ D
#            source   transit   transit   transit   sink (+ the test's collector)
#
# Link k (1..4) joins the k-th and (k+1)-th node of INT_PATH: 10.8.k.0/24
# and fd08:k::/64, left end .1 / ::1, right end .2 / ::2. H, on link 0
# (10.8.0.0/24, fd08:0::/64, H .1, S .2), is a host behind S with no INT
# role: what it sends reaches S's egress forwarded, as MSS-sized segments
# with complete checksums (H's own veth segments them in software), where
# what S itself sends is a GSO, CHECKSUM_PARTIAL skb at that hook. Interfaces are named
# <node>-<neighbour>. IDs (configured with `hopmark node set` / `hopmark
# link set`, and what every hop's metadata must carry): INT_NODE_ID below
# (24 bits, IOAM's short node ID, which INT's 32-bit node ID field
# carries), the L1 interface ID INT_IF_ID (16 bits) and the L2 interface ID
# INT_IF_WIDE = 0x0a000000 + L1 (32 bits). Values with two or more
# non-zero octets catch a byte-order slip.
#
# The domain's MTU (every veth) is raised by INT §5.3's recommendation,
# Hop ML x 4 x INT hops + the 16 fixed octets, plus the 8 of the UDP header
# NPT=2 inserts (the digest's note on §5.3): INT_DOMAIN_MTU. The hosts' routes
# keep 1500, so that what the applications send fits before INT is added.
# Every veth has one TX and one RX queue (queue ID 0 on every hop) and TX
# checksum offload off, so that the L4 checksums on the wire are complete
# (a locally generated CHECKSUM_PARTIAL skb on a veth would carry only the
# pseudo-header sum); S and D also have GSO off, so that TCP leaves S as
# MSS-sized segments that each can carry INT.

HM_NODES="h s r1 r2 r3 d"
INT_PATH="s r1 r2 r3 d"
INT_LINKS="s-r1 r1-r2 r2-r3 r3-d"
declare -A INT_NODE_ID=([h]=0x0a0000 [s]=0x0a0101 [r1]=0x0a0202 [r2]=0x0a0303 [r3]=0x0a0404 [d]=0x0a0505)
declare -A INT_IF_ID=([h-s]=0x0111 [s-h]=0x1101 [s-r1]=0x1102 [r1-s]=0x2101 [r1-r2]=0x2103 [r2-r1]=0x3102
		      [r2-r3]=0x3104 [r3-r2]=0x4103 [r3-d]=0x4105 [d-r3]=0x5104)
INT_D_V4=10.8.4.2
INT_D_V6=fd08:4::2
INT_S_V4=10.8.1.1
INT_S_V6=fd08:1::1

int_if_wide() { printf '0x%x\n' $(( 0x0a000000 + ${INT_IF_ID[$1]} )); }

# int_link NUM LEFT RIGHT - the veth pair of link NUM; its addresses and
# settings are queued in INT_CMDS per node (one shell per node, as
# pint_lib.sh does: process creation is the slow part).
declare -A INT_CMDS=()
int_link()
{
	local i=$1 l=$2 r=$3 e
	ip link add "$l-$r" netns "$(hm_ns "$l")" numtxqueues 1 numrxqueues 1 \
		type veth peer name "$r-$l" netns "$(hm_ns "$r")" \
		numtxqueues 1 numrxqueues 1 || return
	for e in "$l-$r:1" "$r-$l:2"; do
		INT_CMDS[${e%%-*}]+="ip link set ${e%%:*} mtu $INT_DOMAIN_MTU; ethtool -K ${e%%:*} tx off >/dev/null 2>&1; ip addr add 10.8.$i.${e##*:}/24 dev ${e%%:*}; ip -6 addr add fd08:$i::${e##*:}/64 dev ${e%%:*} nodad; ip link set ${e%%:*} up; "
	done
}

# int_topo_create - namespaces, links, addresses, routes, bpffs per node.
int_topo_create()
{
	local n i l r nodes
	HM_TOPO_UP=1
	read -ra nodes <<<"$INT_PATH"
	for n in $HM_NODES; do
		hm_node_add "$n" || return
		INT_CMDS[$n]=$HM_ROUTER_INIT
	done
	int_link 0 h s || return
	for i in 1 2 3 4; do
		int_link "$i" "${nodes[$((i - 1))]}" "${nodes[$i]}" || return
	done
	INT_CMDS[h]+="ethtool -K h-s gso off tso off >/dev/null 2>&1; ip route add default via 10.8.0.2 mtu 1500; ip -6 route add default via fd08:0::2 mtu 1500; "
	INT_CMDS[s]+="ethtool -K s-r1 gso off tso off >/dev/null 2>&1; ip route add default via 10.8.1.2 mtu 1500; ip -6 route add default via fd08:1::2 mtu 1500; "
	INT_CMDS[d]+="ethtool -K d-r3 gso off tso off >/dev/null 2>&1; ip route add default via 10.8.4.1 mtu 1500; ip -6 route add default via fd08:4::1 mtu 1500; "
	for i in 1 2 3; do
		for l in $(seq $((i + 2)) 4); do
			INT_CMDS[r$i]+="ip route add 10.8.$l.0/24 via 10.8.$((i + 1)).2; ip -6 route add fd08:$l::/64 via fd08:$((i + 1))::2; "
		done
		for l in $(seq 0 $((i - 1))); do
			INT_CMDS[r$i]+="ip route add 10.8.$l.0/24 via 10.8.$i.1; ip -6 route add fd08:$l::/64 via fd08:$i::1; "
		done
	done
	for n in $HM_NODES; do
		hm_on "$n" sh -c "${INT_CMDS[$n]}" || return
	done
	hm_wait_reach s "$INT_D_V4" "$INT_D_V6" 50 0.1 "int topology: S cannot reach D"
}

# int_ifs NODE - the node's interfaces.
int_ifs()
{
	local ifc
	for ifc in "${!INT_IF_ID[@]}"; do
		[ "${ifc%%-*}" = "$1" ] && echo "$ifc"
	done
}

# int_ids NODE - node ID and interface IDs with the hopmark CLI.
int_ids()
{
	local n=$1 ifc
	hm_on "$n" "$HOPMARK" node set id "${INT_NODE_ID[$n]}" || return
	for ifc in $(int_ifs "$n"); do
		hm_on "$n" "$HOPMARK" link set dev "$ifc" id "${INT_IF_ID[$ifc]}" \
			wide-id "$(int_if_wide "$ifc")" || return
	done
}

# int_topo_json FILE RATE_NODES AGENT_NODES - the topology as the checks
# of hm_int.py read it: path, links, and per node its ID, the IDs of the
# interface a packet from S arrives on (in) and leaves by (out), whether a
# link rate is configured and whether hopmarkd runs there.
int_topo_json()
{
	local f=$1 rate=" $2 " agent=" $3 " n prev= next i=0 nodes
	read -ra nodes <<<"$INT_PATH"
	{
		echo '{"path": ["s", "r1", "r2", "r3", "d"],'
		echo ' "links": ["s-r1", "r1-r2", "r2-r3", "r3-d"], "nodes": {'
		for n in "${nodes[@]}"; do
			next=${nodes[$((i + 1))]:-}
			printf '  "%s": {"node_id": %d, "rate": %s, "agent": %s' "$n" \
				"${INT_NODE_ID[$n]}" \
				"$([ "${rate#* $n }" != "$rate" ] && echo true || echo false)" \
				"$([ "${agent#* $n }" != "$agent" ] && echo true || echo false)"
			[ -z "$prev" ] || printf ', "in": {"l1": %d, "l2": %d}' \
				"${INT_IF_ID[$n-$prev]}" "$(int_if_wide "$n-$prev")"
			[ -n "$prev" ] || printf ', "fwd_in": {"l1": %d, "l2": %d}' \
				"${INT_IF_ID[$n-h]}" "$(int_if_wide "$n-h")"
			[ -z "$next" ] || printf ', "out": {"l1": %d, "l2": %d}' \
				"${INT_IF_ID[$n-$next]}" "$(int_if_wide "$n-$next")"
			printf '}%s\n' "$([ -n "$next" ] && echo ,)"
			prev=$n
			i=$((i + 1))
		done
		echo '}}'
	} >"$f"
}
