# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# pint_lib.sh - the PINT selftest topology: a chain of 8 routers between
# two hosts, with a bypass for route changes. Sourced after selftests/lib.sh
# (TAP helpers, hm_on, hm_bg, hm_teardown), whose HM_NODES it replaces.
#
#   h1 - r1 - r2 - r3 - r4 - r5 - r6 - r7 - r8 - h2
#                         \              /
#                          `---- r9 ----'          (bypass of r5)
#
# Link i (1..9) joins chain node i-1 (left, .1 / ::1) and node i (right,
# .2 / ::2), chain node 0 being h1 and 9 h2: 10.0.i.0/24, fd00:i::/64.
# Bypass links: r4-r9 = 20, r9-r6 = 21. Switch (node) IDs: r_i = 10 + i.
# Routes: towards h2 along the chain, everything else back towards h1.
# pint_reroute sends r4's traffic for h2 over r9 instead of r5.
#
# PINT: source on r1's interface from h1 (tc ingress), transit on every
# router interface towards h2 (tc egress; PINT_FWD_IFS), sink on h2's
# interface (tc ingress). Traffic from h2 to h1 enters no source, so no
# transit is enabled in that direction (Documentation/pint-datapath.rst).

PINT_ROUTERS="r1 r2 r3 r4 r5 r6 r7 r8 r9"
HM_NODES="h1 $PINT_ROUTERS h2"
PINT_FWD_IFS="r1-r2 r2-r3 r3-r4 r4-r5 r4-r9 r5-r6 r6-r7 r7-r8 r8-h2 r9-r6"
PINT_H2_V4=10.0.9.2
PINT_H2_V6=fd00:9::2

pint_id() { local n=$1; echo $((10 + ${n#r})); }

# pint_link NUM LEFT RIGHT - veth LEFT-RIGHT / RIGHT-LEFT with link NUM's
# addresses; the address commands are queued in PINT_CMDS per node.
pint_link()
{
	local i=$1 l=$2 r=$3
	ip link add "$l-$r" netns "$(hm_ns "$l")" type veth peer name "$r-$l" netns "$(hm_ns "$r")" || return
	PINT_CMDS[$l]+="ip addr add 10.0.$i.1/24 dev $l-$r; ip -6 addr add fd00:$i::1/64 dev $l-$r nodad; ip link set $l-$r up; "
	PINT_CMDS[$r]+="ip addr add 10.0.$i.2/24 dev $r-$l; ip -6 addr add fd00:$i::2/64 dev $r-$l nodad; ip link set $r-$l up; "
}
declare -A PINT_CMDS=()

pint_chain_node() { if [ "$1" -eq 0 ]; then echo h1; elif [ "$1" -eq 9 ]; then echo h2; else echo "r$1"; fi; }

# pint_topo_create - namespaces, links, addresses, routes, bpffs per node.
# Commands are batched into one shell per node: process creation is what
# makes a topology of 11 namespaces slow on a loaded machine.
pint_topo_create()
{
	local n i l r
	HM_TOPO_UP=1
	for n in $HM_NODES; do
		hm_node_add "$n" || return
		PINT_CMDS[$n]=$HM_ROUTER_INIT
	done
	for i in $(seq 1 9); do
		l=$(pint_chain_node $((i - 1)))
		r=$(pint_chain_node "$i")
		pint_link "$i" "$l" "$r" || return
	done
	pint_link 20 r4 r9 || return
	pint_link 21 r9 r6 || return
	PINT_CMDS[h1]+="ip route add default via 10.0.1.2; ip -6 route add default via fd00:1::2; "
	PINT_CMDS[h2]+="ip route add default via 10.0.9.1; ip -6 route add default via fd00:9::1; "
	for i in $(seq 1 8); do
		[ "$i" -lt 8 ] && PINT_CMDS[r$i]+="ip route add 10.0.9.0/24 via 10.0.$((i + 1)).2; ip -6 route add fd00:9::/64 via fd00:$((i + 1))::2; "
		PINT_CMDS[r$i]+="ip route add default via 10.0.$i.1; ip -6 route add default via fd00:$i::1; "
	done
	PINT_CMDS[r9]+="ip route add 10.0.9.0/24 via 10.0.21.2; ip -6 route add fd00:9::/64 via fd00:21::2; ip route add default via 10.0.20.1; ip -6 route add default via fd00:20::1; "
	for n in $HM_NODES; do
		PINT_CMDS[$n]+='for f in /proc/sys/net/ipv4/conf/*/rp_filter; do echo 0 > $f; done'
		hm_on "$n" sh -c "${PINT_CMDS[$n]}" || return
	done
	hm_wait_reach h1 "$PINT_H2_V4" "$PINT_H2_V6" 50 0.1 "pint topology: h1 cannot reach h2"
}
# pint_reroute - r4 sends h2's traffic over r9 (path r1 r2 r3 r4 r9 r6 r7 r8).
pint_reroute()
{
	hm_on r4 ip route replace 10.0.9.0/24 via 10.0.20.2 &&
		hm_on r4 ip -6 route replace fd00:9::/64 via fd00:20::2
}

# pint_setup [QUERY ARGS...] - node IDs, domain settings and roles on every
# node. Each argument is one query, e.g. "path bits 8" "latency bits 8".
pint_setup()
{
	local n ifc q
	for n in $HM_NODES; do
		case $n in r*) hm_on "$n" "$HOPMARK" node set id "$(pint_id "$n")" || return ;; esac
		hm_on "$n" "$HOPMARK" pint set budget 16 hop-limit-start 64 ids 1-64 \
			${PINT_SET_ARGS:-} || return
		for q in "$@"; do
			# shellcheck disable=SC2086
			hm_on "$n" "$HOPMARK" pint query add $q || return
		done
	done
	hm_on r1 "$HOPMARK" pint enable dev r1-h1 role source || return
	for ifc in $PINT_FWD_IFS; do
		n=${ifc%%-*}
		hm_on "$n" "$HOPMARK" pint enable dev "$ifc" role transit \
			${PINT_RATE_OF[$ifc]:+rate ${PINT_RATE_OF[$ifc]}} || return
	done
	hm_on h2 "$HOPMARK" pint enable dev h2-r8 role sink
}
declare -A PINT_RATE_OF=()

# pint_send NODE FAMILY DST COUNT [SIZE] [PPS] [SPORT] [DF] - COUNT UDP
# datagrams of SIZE bytes from NODE to DST port 9 with distinct payloads, at
# PPS per second (0: as fast as possible), from port SPORT (0: any); IPv4
# with DF (IP_PMTUDISC_DO) unless DF is 0.
pint_send()
{
	local node=$1 fam=$2 dst=$3 count=$4 size=${5:-64} pps=${6:-0} sport=${7:-0} df=${8:-1}
	hm_on "$node" "$PY" -c '
import socket, struct, sys, time
fam, dst = sys.argv[1], sys.argv[2]
count, size, pps, sport, df = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
s = socket.socket(socket.AF_INET if fam == "4" else socket.AF_INET6, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
if sport:
    s.bind(("0.0.0.0" if fam == "4" else "::", sport))
if fam == "4":
    # IP_MTU_DISCOVER (10): IP_PMTUDISC_DO (2) sets DF, IP_PMTUDISC_DONT (0) clears it
    s.setsockopt(socket.IPPROTO_IP, 10, 2 if df else 0)
t0 = time.monotonic()
for i in range(count):
    s.sendto(struct.pack("!dI", time.time(), i) + bytes(max(0, size - 12)), (dst, 9))
    if pps:
        d = t0 + (i + 1) / pps - time.monotonic()
        if d > 0:
            time.sleep(d)
' "$fam" "$dst" "$count" "$size" "$pps" "$sport" "$df"
}

# pint_snap NODE - `hopmark -j -s pint show` of NODE into $HM_TMP/NODE.json
# (the agent's state file when one runs there, else the ring buffer now).
pint_snap()
{
	hm_on "$1" "$HOPMARK" -j -s pint show time 0 >"$HM_TMP/$1.json"
}

# pint_eval NODE PYEXPR - evaluate PYEXPR over NODE's last snapshot (bound
# to `s`, with helpers flow(sport), lat(sport, hop[, q]) and
# counter(dev, name)); prints the result.
pint_eval()
{
	"$PY" -c '
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except Exception:
    s = {}
def flow(sport):
    f = [x for x in s.get("flows", []) if x["sport"] == sport]
    return f[0] if f else {}
def lat(sport, hop, q="p50_ns"):
    h = [x for x in flow(sport).get("latency", []) if x["hop"] == hop]
    return h[0][q] if h else -1
def counter(dev, name):
    i = [x for x in s.get("interfaces", []) if x["dev"] == dev]
    return i[0].get("counters", {}).get(name, -1) if i else -1
r = eval(sys.argv[2])
print(r if not isinstance(r, (list, dict)) else json.dumps(r))
' "$HM_TMP/$1.json" "$2"
}

# pint_wait_flow NODE SPORT N - until the agent on NODE has N records of the
# flow from port SPORT in its state file (10 s at most).
pint_wait_flow()
{
	"$PY" -c '
import json, sys, time
path, sport, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
end = time.monotonic() + 10
while time.monotonic() < end:
    try:
        s = json.load(open(path))
        if any(f["sport"] == sport and f["packets"] >= n for f in s["flows"]):
            sys.exit(0)
    except (OSError, ValueError, KeyError):
        pass
    time.sleep(0.2)
sys.exit(1)
' "$(hm_rundir "$1")/pint.json" "$2" "$3"
}

# pint_recv NODE SPORT SECS OUT - UDP receiver on port 9 of NODE: the
# one-way delay of each datagram from port SPORT (send time in its first 8
# octets, same host clock), until SECS seconds without any; writes the
# median delay in ns and the count to OUT.
pint_recv()
{
	hm_on "$1" "$PY" -c '
import socket, struct, sys, time
sport, idle, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 9))
s.settimeout(idle)
d = []
while True:
    try:
        b, a = s.recvfrom(2048)
    except socket.timeout:
        break
    if a[1] == sport and len(b) >= 8:
        d.append(time.time() - struct.unpack("!d", b[:8])[0])
d.sort()
open(out, "w").write("%d %d\n" % (d[len(d) // 2] * 1e9 if d else 0, len(d)))
' "$2" "$3" "$4"
}
