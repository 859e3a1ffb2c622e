#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_non_ether.sh - every command that attaches a BPF program refuses a
# device whose frames do not start with an Ethernet header, and attaches
# nothing there. hopmark's programs (IOAM, PINT and INT) read a 14-byte
# Ethernet header before the IP header; a tun device (link/none) hands
# them the IP header first. Each enable command on tun0 must exit 1 with
#   Error: tun0 is not an Ethernet device (link/none): hopmark's BPF
#   programs parse Ethernet frames.
# and leave tun0 without XDP program, clsact qdisc, hopmark_ifcfg entry,
# encap rule, pint_ifcfg or int_ifcfg entry. The same commands on a veth
# pair (the control; INT's on a second pair) succeed and attach; loopback, whose frames carry an Ethernet
# header, is accepted.
#
# One throwaway network namespace with its own bpffs (TC_BPF_MNT); every
# command runs under `nsenter --net`.
set -u
HM_PFX=${HM_PFX:-hmt-ne$$}
. "$(dirname "$0")/../lib.sh"

hm_require_root_netns
hm_require_built "$HOPMARK"
command -v tc >/dev/null || hm_skip_all "needs tc"
[ -c /dev/net/tun ] || hm_skip_all "needs /dev/net/tun"

hm_solo_node

{
	x ip tuntap add dev tun0 mode tun &&
	x ip link add v0 type veth peer name v1 &&
	x ip link add v2 type veth peer name v3 &&
	x ip link set v2 up && x ip link set v3 up &&
	x ip link set lo up && x ip link set tun0 up &&
	x ip link set v0 up && x ip link set v1 up &&
	x "$HOPMARK" node set id 1 &&
	x "$HOPMARK" ioam namespace add 123 &&
	x "$HOPMARK" pint set budget 8 &&
	x "$HOPMARK" pint query add path bits 8 &&
	x "$HOPMARK" int set max-hops 8
} >"$HM_TMP/setup.log" 2>&1 ||
	{ sed 's/^/#   /' "$HM_TMP/setup.log"; echo "Bail out! setup"; exit 1; }
hm_check "tun0_is_link_none" "link/none" \
	"$(x ip -o link show dev tun0 | grep -o 'link/[a-z]*')"

REFUSED="Error: tun0 is not an Ethernet device (link/none):"
REFUSED+=" hopmark's BPF programs parse Ethernet frames."

# refused NAME ARGS... - the command exits 1 with exactly $REFUSED.
refused()
{
	local name=$1 rc
	shift
	x "$HOPMARK" "$@" >"$HM_TMP/out" 2>"$HM_TMP/err"
	rc=$?
	hm_check "${name}_refused_exit_1" 1 "$rc"
	hm_check "${name}_refused_says_why" "$REFUSED" "$(cat "$HM_TMP/err" "$HM_TMP/out")"
}

refused ioam_transit_enable ioam transit enable dev tun0
refused ioam_decap_enable ioam decap enable dev tun0
refused ioam_encap_add ioam encap add 2001:db8:9::/64 dev tun0 ns 123 \
	trace-type 0xf00000 size 24
refused pint_enable_source pint enable dev tun0 role source
refused pint_enable_transit pint enable dev tun0 role transit rate 10m
refused pint_enable_sink pint enable dev tun0 role sink
refused int_enable_source int enable dev tun0 role source
refused int_enable_transit int enable dev tun0 role transit rate 10m
refused int_enable_sink int enable dev tun0 role sink
refused int_enable_xd int enable dev tun0 role xd

# Nothing of hopmark on tun0: hooks, and every map entry an enable writes.
hm_check "tun0_no_xdp" 0 "$(x ip -d link show dev tun0 | grep -c 'prog/xdp')"
hm_check "tun0_no_clsact" 0 "$(x tc qdisc show dev tun0 | grep -c clsact)"
x "$HOPMARK" -j link show >"$HM_TMP/link.json"
hm_check "tun0_no_ifcfg_entry" "" "$("$PY" -c '
import json, sys
print(" ".join(l["ifname"] for l in json.load(open(sys.argv[1])) if l["ifname"] == "tun0"))' \
	"$HM_TMP/link.json" 2>&1)"
hm_check "tun0_no_encap_rule" "[]" "$(x "$HOPMARK" -j ioam encap show)"
x "$HOPMARK" -j pint show time 0 >"$HM_TMP/pint.json"
hm_check "tun0_no_pint_ifcfg_entry" "[]" "$("$PY" -c '
import json, sys
print([i["dev"] for i in json.load(open(sys.argv[1]))["interfaces"]])' "$HM_TMP/pint.json" 2>&1)"
x "$HOPMARK" -j int show >"$HM_TMP/int.json"
hm_check "tun0_no_int_ifcfg_entry" "[]" "$("$PY" -c '
import json, sys
print([i["dev"] for i in json.load(open(sys.argv[1]))["interfaces"]])' "$HM_TMP/int.json" 2>&1)"

# The control: the same commands on veth attach.
ok=1
{
	x "$HOPMARK" ioam transit enable dev v0 &&
	x "$HOPMARK" ioam decap enable dev v1 &&
	x "$HOPMARK" ioam encap add 2001:db8:9::/64 dev v0 ns 123 trace-type 0xf00000 size 24 &&
	x "$HOPMARK" pint enable dev v0 role source &&
	x "$HOPMARK" pint enable dev v0 role transit rate 10m &&
	x "$HOPMARK" pint enable dev v1 role sink
} >"$HM_TMP/veth.log" 2>&1 || ok=
hm_check "veth_every_enable_succeeds" 1 "${ok:-0}"
[ -n "$ok" ] || sed 's/^/#   /' "$HM_TMP/veth.log"
# filters DEV HOOK - hopmark's programs on a tc hook, in the order they run.
filters()
{
	x tc filter show dev "$1" "$2" | grep -o 'name hm_[a-z_]*' | cut -d' ' -f2 |
		tr '\n' ' ' | sed 's/ $//'
}
# On a veth the transit ingress half runs at tc ingress (hm_transit_tcin,
# before PINT's source), not at XDP (selftests/net/test_transit_hook.sh).
hm_check "veth_v0_no_xdp" 0 "$(x ip -d link show dev v0 | grep -c 'prog/xdp')"
hm_check "veth_v0_egress_filters" "hm_encap hm_transit_out hm_pint_transit" "$(filters v0 egress)"
hm_check "veth_v0_ingress_filters" "hm_transit_tcin hm_pint_source" "$(filters v0 ingress)"
hm_check "veth_v1_ingress_filters" "hm_decap hm_pint_sink" "$(filters v1 ingress)"
ok=1
{
	x "$HOPMARK" int enable dev v2 role transit rate 10m &&
	x "$HOPMARK" int enable dev v2 role source &&
	x "$HOPMARK" int enable dev v3 role sink
} >"$HM_TMP/int.log" 2>&1 || ok=
hm_check "veth_every_int_enable_succeeds" 1 "${ok:-0}"
[ -n "$ok" ] || sed 's/^/#   /' "$HM_TMP/int.log"
hm_check "veth_v2_int_filters" "hm_int_ingress|hm_int_source hm_int_transit" \
	"$(filters v2 ingress)|$(filters v2 egress)"
hm_check "veth_v3_int_filters" "hm_int_sink" "$(filters v3 ingress)"

# Loopback is not ARPHRD_ETHER, but its frames carry an Ethernet header.
x "$HOPMARK" ioam decap enable dev lo >"$HM_TMP/lo.log" 2>&1
hm_check "loopback_accepted" "0 1" \
	"$? $(x tc filter show dev lo ingress | grep -c 'name hm_decap')"
hm_done
