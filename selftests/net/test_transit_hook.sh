#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_transit_hook.sh - where `hopmark ioam transit enable` puts the
# ingress half: on a veth at tc ingress (hm_transit_tcin, handle 0x686d,
# pref 0x4800), on another Ethernet device (a macvlan) at XDP (hm_transit_in);
# "ingress xdp" and "ingress tc" override, switching removes the other half
# first (never both), disable removes both, a bad hook is a usage error.
# Stock ip still attaches hm_transit_in at XDP from the same object, and
# stock tc finds hm_transit_out alone in its "tc" section.
set -u
HM_PFX=${HM_PFX:-hmi$$h}
. "$(dirname "$0")/../lib.sh"
HM_NODES="n"

hm_require_root_netns
hm_require_built "$HOPMARK" "$HM_BPF_DIR/hopmark_transit.bpf.o"
hm_trap_teardown
hm_tmpdir

x() { hm_on n "$@"; }
HM_TOPO_UP=1
ip netns add "$(hm_ns n)" || { echo "Bail out! netns"; exit 1; }
mkdir -p "$(hm_bpffs n)" "$(hm_rundir n)"
mount -t bpf bpf "$(hm_bpffs n)" || { echo "Bail out! bpffs"; exit 1; }
x ip link add v0 type veth peer name v1 &&
x ip link add m0 link v1 type macvlan &&
x ip link set v0 up && x ip link set v1 up && x ip link set m0 up ||
	{ echo "Bail out! devices"; exit 1; }

# ingress DEV - "xdp NAME" and/or "tc NAME@PREF", what runs on DEV's ingress.
ingress()
{
	local xdp tc
	xdp=$(x ip -d link show dev "$1" | grep -o 'prog/xdp id [0-9]* name [a-z_]*' |
	      awk '{ print "xdp " $5 }')
	tc=$(x tc filter show dev "$1" ingress | awk '/name hm_/ {
		for (i = 1; i <= NF; i++) { if ($i == "pref") p = $(i + 1); if ($i == "name") n = $(i + 1) }
		printf "tc %s@%s\n", n, p }')
	echo "$xdp $tc" | xargs
}
egress() { x tc filter show dev "$1" egress | grep -o 'name hm_[a-z_]*' | cut -d' ' -f2 | xargs; }

x "$HOPMARK" ioam transit enable dev v0 >"$HM_TMP/e.log" 2>&1
hm_check "veth_auto_enable_succeeds" 0 "$?"
# tc prints the pref in decimal: 0x4800 = 18432.
hm_check "veth_auto_ingress_at_tc" "tc hm_transit_tcin@18432" "$(ingress v0)"
hm_check "veth_auto_egress_half" "hm_transit_out" "$(egress v0)"

x "$HOPMARK" ioam transit enable dev v0 ingress xdp >"$HM_TMP/e.log" 2>&1
hm_check "veth_ingress_xdp_succeeds" 0 "$?"
hm_check "veth_ingress_xdp_replaces_tc" "xdp hm_transit_in" "$(ingress v0)"
hm_check "veth_ingress_xdp_egress_half" "hm_transit_out" "$(egress v0)"

x "$HOPMARK" ioam transit enable dev v0 ingress tc >"$HM_TMP/e.log" 2>&1
hm_check "veth_ingress_tc_succeeds" 0 "$?"
hm_check "veth_ingress_tc_replaces_xdp" "tc hm_transit_tcin@18432" "$(ingress v0)"

x "$HOPMARK" ioam transit enable dev m0 >"$HM_TMP/e.log" 2>&1
hm_check "macvlan_auto_enable_succeeds" 0 "$?"
hm_check "macvlan_auto_ingress_at_xdp" "xdp hm_transit_in" "$(ingress m0)"

x "$HOPMARK" -j link show dev v0 >"$HM_TMP/link.json" 2>&1
hm_check "link_show_lists_the_tc_ingress_half" "hm_transit_tcin transit-in-tc" "$("$PY" -c '
import json, sys
for l in json.load(open(sys.argv[1])):
    for p in l.get("programs", []):
        if p.get("name") == "hm_transit_tcin":
            print(p["name"], p.get("role"))' "$HM_TMP/link.json" 2>&1)"

x "$HOPMARK" ioam transit enable dev v0 ingress bogus >"$HM_TMP/e.log" 2>&1
rc=$?
hm_check "bad_ingress_hook_is_a_usage_error" "failed 1 unchanged" \
	"$([ "$rc" -ne 0 ] && echo failed || echo "exit 0") $(grep -c 'ingress must be auto, xdp or tc' "$HM_TMP/e.log") $([ "$(ingress v0)" = "tc hm_transit_tcin@18432" ] && echo unchanged || ingress v0)"

x "$HOPMARK" ioam transit disable dev v0 >"$HM_TMP/d.log" 2>&1
hm_check "veth_disable_succeeds" 0 "$?"
hm_check "veth_disable_removes_both_halves" "/" "$(ingress v0)/$(egress v0)"
x "$HOPMARK" ioam transit disable dev m0 >"$HM_TMP/d.log" 2>&1
hm_check "macvlan_disable_removes_xdp" "" "$(ingress m0)"

# The stock path, unchanged: ip attaches XDP "sec xdp", tc "sec tc" is the
# egress half, and "sec classifier" the tc ingress half.
x ip link set dev v0 xdp obj "$HM_BPF_DIR/hopmark_transit.bpf.o" sec xdp
hm_check "stock_ip_xdp_sec_xdp" "xdp hm_transit_in" "$(ingress v0)"
x ip link set dev v0 xdp off
x tc qdisc replace dev v0 clsact
x tc filter add dev v0 egress bpf da obj "$HM_BPF_DIR/hopmark_transit.bpf.o" sec tc
hm_check "stock_tc_sec_tc_is_transit_out" "hm_transit_out" "$(egress v0)"
x tc filter add dev v0 ingress bpf da obj "$HM_BPF_DIR/hopmark_transit.bpf.o" sec classifier
hm_check "stock_tc_sec_classifier_is_transit_tcin" "tc hm_transit_tcin@49152" "$(ingress v0)"
hm_done
