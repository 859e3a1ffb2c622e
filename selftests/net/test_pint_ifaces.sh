#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_pint_ifaces.sh - PINT's per-interface maps (pint_ifcfg, pint_stats,
# pint_txrate) are arrays indexed by ifindex below PINT_IFINDEX_LIMIT (1024,
# lib/pint/pint_maps.h; Documentation/pint-datapath.rst, "Maps"):
#
#   pint_ifindex_limit_*	`pint enable` on a veth whose ifindex is 2000
#				exits 1 with an error naming 2000 and 1024,
#				attaches nothing and writes no entry
#   pint_show_*			`pint show` lists the interfaces with a role
#				only (every other array entry is all zeroes),
#				and not one after `pint disable`
#   pint_sink_counts_*		three IPv6 frames without the option reach a
#				sink: no_option 3 in `pint show -s`
#   pint_gone_iface_*		that interface deleted, the next enable
#				forgets it (hm_prune_gone_ifaces()): a new device given the same
#				ifindex has no role, and once it is a sink its
#				counters start at 0 (the entries were zeroed,
#				as deleting a hash entry did)
#   pint_metrics_*		hopmarkd --metrics lists the PINT counters of
#				that sink only, not of every array index
#
# One throwaway network namespace with its own bpffs; every command runs
# under `nsenter --net`. TAP output; skip (exit 4, or 0 under prove)
# without root or netns.
set -u
HM_PFX=${HM_PFX:-hmt-pif$$}
. "$(dirname "$0")/../lib.sh"

hm_require_root_netns
hm_require_built "$HOPMARK"
command -v tc >/dev/null || hm_skip_all "needs tc"

hm_solo_node

# No IPv6 of the node's own (router solicitations, MLD): the only IPv6
# frames the sink sees are the test's.
{
	x sysctl -qw net.ipv6.conf.all.disable_ipv6=1 &&
	x sysctl -qw net.ipv6.conf.default.disable_ipv6=1 &&
	x ip link set lo up &&
	x ip link add v0 type veth peer name v1 &&
	x ip link add v2 type veth peer name v3 &&
	x ip link add big index 2000 type veth peer name big-p &&
	x ip link set v0 up && x ip link set v1 up &&
	x ip link set big up && x ip link set big-p up &&
	x "$HOPMARK" pint set budget 8 &&
	x "$HOPMARK" pint query add path bits 8
} >"$HM_TMP/setup.log" 2>&1 ||
	{ sed 's/^/#   /' "$HM_TMP/setup.log"; echo "Bail out! setup"; exit 1; }

# ifindex DEV - DEV's ifindex (nsenter --net leaves /sys the host's).
ifindex() { x ip -o link show dev "$1" 2>&1 | cut -d: -f1; }

# shown - the devices of `pint show -j`, space separated, in ifindex order.
shown()
{
	x "$HOPMARK" -j pint show time 0 2>"$HM_TMP/show.err" | "$PY" -c '
import json, sys
print(" ".join(i["dev"] for i in json.load(sys.stdin)["interfaces"]))' 2>&1
}

# counter DEV NAME - a PINT counter of DEV in `pint show -s -j`.
counter()
{
	x "$HOPMARK" -j -s pint show time 0 2>>"$HM_TMP/show.err" | "$PY" -c '
import json, sys
for i in json.load(sys.stdin)["interfaces"]:
    if i["dev"] == sys.argv[1]:
        print(i["counters"][sys.argv[2]])' "$1" "$2" 2>&1
}

# ---- an ifindex at or above the limit is refused, naming both
hm_check "pint_ifindex_limit_device_has_2000" 2000 "$(ifindex big)"
x "$HOPMARK" pint enable dev big role transit rate 10m >"$HM_TMP/out" 2>"$HM_TMP/err"
hm_check "pint_ifindex_limit_refused_exit_1" 1 "$?"
hm_check "pint_ifindex_limit_error_names_ifindex_and_limit" 1 \
	"$(grep -c '^Error: big has ifindex 2000: PINT takes interfaces whose ifindex is below 1024' \
		"$HM_TMP/err")"
hm_check "pint_ifindex_limit_nothing_attached" 0 \
	"$(x tc filter show dev big egress 2>/dev/null | grep -c hm_pint)"
hm_check "pint_ifindex_limit_not_shown" "" "$(shown)"

# ---- show lists the interfaces with a role, and only those
x "$HOPMARK" pint enable dev v0 role sink >"$HM_TMP/out" 2>&1
hm_check "pint_enable_sink_v0" 0 "$?"
hm_check "pint_show_lists_the_sink" "v0" "$(shown)"
x "$HOPMARK" pint enable dev v1 role transit rate 10m >"$HM_TMP/out" 2>&1 &&
	x "$HOPMARK" pint disable dev v1 >>"$HM_TMP/out" 2>&1
hm_check "pint_disable_v1" 0 "$?"
hm_check "pint_show_not_after_disable" "v0" "$(shown)"

# ---- three IPv6 frames without the option reach the sink on v0 (sent on v1)
x "$PY" - v1 <<'EOF'
import socket, struct, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
src = bytes.fromhex("20010db8000000000000000000000002")
dst = bytes.fromhex("20010db8000000000000000000000001")
udp = struct.pack("!HHHH", 40000, 9, 16, 0) + bytes(8)
ip6 = struct.pack("!IHBB", 6 << 28, len(udp), 17, 64) + src + dst
for _ in range(3):
    s.send(bytes.fromhex("020000000001020000000002") + b"\x86\xdd" + ip6 + udp)
EOF
hm_check "pint_sink_counts_no_option" 3 "$(counter v0 no_option)"

# ---- the interface goes; a new one takes its ifindex
idx=$(ifindex v0)
x ip link del v0
# an enable prunes first (maps_prepare()); v2 gets its role and loses it again
x "$HOPMARK" pint enable dev v2 role transit rate 10m >"$HM_TMP/out" 2>&1 &&
	x "$HOPMARK" pint disable dev v2 >>"$HM_TMP/out" 2>&1
hm_check "pint_gone_iface_enable_elsewhere" 0 "$?"
hm_check "pint_gone_iface_forgotten" "" "$(shown)"
x ip link add v0b index "$idx" type veth peer name v1b >"$HM_TMP/out" 2>&1 &&
	x ip link set v0b up
hm_check "pint_gone_iface_new_device_same_ifindex" "$idx" "$(ifindex v0b)"
hm_check "pint_gone_iface_new_device_has_no_role" "" "$(shown)"
x "$HOPMARK" pint enable dev v0b role sink >"$HM_TMP/out" 2>&1
hm_check "pint_gone_iface_new_device_counters_start_at_0" 0 "$(counter v0b no_option)"

# ---- hopmarkd's metrics show the interfaces whose entries are not all
# zeroes, not every index of the arrays
if [ -x "${HOPMARKD:-}" ] && command -v curl >/dev/null; then
	# nsenter execs hopmarkd: $! is the agent's PID
	TC_BPF_MNT=$BPFFS HOPMARK_RUNDIR=$RUNDIR nsenter --net="/run/netns/$NS" \
		"$HOPMARKD" --no-records -i 0 --metrics 127.0.0.1:0 >"$HM_TMP/agent.log" 2>&1 &
	agent=$!
	port=
	for _ in $(seq 50); do
		port=$(sed -n 's|.*hopmarkd: metrics: http://.*:\([0-9]*\)/metrics$|\1|p' "$HM_TMP/agent.log")
		[ -n "$port" ] && break
		sleep 0.1
	done
	hm_check "pint_metrics_only_interfaces_seen" 'dev="v0b"' "$(x curl -s "http://127.0.0.1:$port/metrics" |
		grep '^hopmark_pint_sink_ok_total{' | grep -o 'dev="[^"]*"' | sort -u | tr '\n' ' ' | sed 's/ $//')"
	kill "$agent" 2>/dev/null
	wait "$agent" 2>/dev/null
	[ -n "$port" ] || sed 's/^/# hopmarkd: /' "$HM_TMP/agent.log"
else
	hm_ok "pint_metrics_only_interfaces_seen # SKIP needs hopmarkd and curl"
fi
[ -s "$HM_TMP/show.err" ] && sed 's/^/# show: /' "$HM_TMP/show.err"

hm_done
