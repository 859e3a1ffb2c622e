#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_stock_attach.sh - the objects attached with stock iproute2 only
# (`ip link set dev X xdp obj ... sec xdp`, `tc filter add dev X egress|ingress
# bpf da obj ... sec tc`, maps pinned by name under $TC_BPF_MNT/tc/globals and
# filled with `bpftool map update pinned`) give exactly the per-hop data of
# the hopmark CLI path (the same checks as test_trace_fields.sh), and the
# CLI and hopmarkd work on maps that ip/tc created.
set -u
HM_PFX=${HM_PFX:-hmi$$s}
. "$(dirname "$0")/../lib.sh"
NET=$(dirname "$0")

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD" "$HM_BPF_DIR/hopmark_encap.bpf.o" \
	"$HM_BPF_DIR/hopmark_transit.bpf.o" "$HM_BPF_DIR/hopmark_decap.bpf.o"
command -v bpftool >/dev/null || hm_skip_all "needs bpftool"
hm_trap_teardown
hm_tmpdir

hm_topo_create || { echo "Bail out! topology"; exit 1; }
if ! hm_setup_stock >"$HM_TMP/setup.log" 2>&1; then
	hm_not_ok "stock_ip_tc_bpftool_setup"
	sed 's/^/#   /' "$HM_TMP/setup.log" | tail -n 20
	hm_done
fi
hm_ok "stock_ip_tc_bpftool_setup"
hm_check "pins_under_tc_globals_of_node_bpffs" \
	"hopmark_encap hopmark_events hopmark_ifcfg hopmark_node hopmark_ns hopmark_qdepth hopmark_stats" \
	"$(ls "$(hm_bpffs r1)/tc/globals" | tr '\n' ' ' | sed 's/ $//')"
hm_check "ip_xdp_attached_on_r1" "hm_transit_in" \
	"$(hm_on r1 ip -d link show dev r1-a | grep -o 'name hm_transit_in' | cut -d' ' -f2 | head -n1)"
hm_check "cli_sees_stock_attached_transit" "transit" \
	"$(hm_on r1 "$HOPMARK" -j link show dev r1-a | "$PY" -c '
import json, sys
d = json.load(sys.stdin); d = d[0] if isinstance(d, list) else d
print(",".join(d["roles"]))')"

hm_agent_start b "$HM_TMP/b.json" || { echo "Bail out! hopmarkd on B"; exit 1; }
hm_agent_start r1 "$HM_TMP/r1.json" || { echo "Bail out! hopmarkd on R1"; exit 1; }
hm_agent_start r3 "$HM_TMP/r3.json" || { echo "Bail out! hopmarkd on R3"; exit 1; }
sleep 0.2

T0=$(hm_now_ns)
hm_on a ping -6 -c 3 -i 0.1 -q $HM_B_ADDR >/dev/null
T1=$(hm_now_ns)
hm_wait_lines "$HM_TMP/b.json" 3
U0=$(hm_now_ns)
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count 3 --size 200
hm_wait_lines "$HM_TMP/b.json" 6
U1=$(hm_now_ns)

"$PY" "$NET/hm_check_trace.py" fields "$HM_TMP/b.json" --t0 "$T0" --t1 "$T1" \
	--count 3 --proto 58 --agents 2,4 | sed 's/^/stock_icmp_/' >"$HM_TMP/icmp.tsv"
"$PY" "$NET/hm_check_trace.py" fields "$HM_TMP/b.json" --t0 "$U0" --t1 "$U1" \
	--count 3 --proto 17 --agents 2,4 | sed 's/^/stock_udp_/' >"$HM_TMP/udp.tsv"
hm_checks_from "$HM_TMP/icmp.tsv"
hm_checks_from "$HM_TMP/udp.tsv"
hm_check "stock_r1_counts_transit_ok_on_ingress" 6 "$(hm_counter r1 r1-a transit_ok)"
hm_check "stock_r1_counts_transit_egress_ok_on_egress" 6 \
	"$(hm_counter r1 r1-r2 transit_egress_ok)"
hm_done
