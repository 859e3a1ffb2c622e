#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_stock_attach.sh - the objects attached with stock iproute2 only
# (`ip link set dev X xdp obj ... sec xdp`, `tc filter add dev X egress|ingress
# bpf da obj ... sec tc`, maps pinned by name under $TC_BPF_MNT/tc/globals and
# filled with `bpftool map update pinned`) give exactly the per-hop data of
# the hopmark CLI path (the same checks as test_trace_fields.sh), and the
# CLI and hopmarkd work on maps that ip/tc created. Then the documented
# stock recipe attaches again after `hopmark ioam transit enable/disable`
# (which leaves the clsact qdisc), and no document gives the recipe with
# `tc qdisc add`, which fails then.
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
	"hopmark_encap hopmark_encap_filter hopmark_events hopmark_ifcfg hopmark_node hopmark_ns hopmark_qdepth hopmark_stats" \
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
# The stock path never marks hm_encap's first test trusted: A's packets
# above were encapsulated by the rule lookup alone (flags word 0).
hm_check "stock_encap_filter_left_untrusted" "00 00 00 00" \
	"$(bpftool -j map lookup pinned "$(hm_bpffs a)/tc/globals/hopmark_encap_filter" \
		key hex 00 00 00 00 | "$PY" -c '
import json, sys
e = json.load(sys.stdin)
f = e.get("formatted")
print("%02x 00 00 00" % f["value"]["flags"] if f else " ".join(x[2:] for x in e["value"][:4]))')"
hm_check "stock_r1_counts_transit_ok_on_ingress" 6 "$(hm_counter r1 r1-a transit_ok)"
hm_check "stock_r1_counts_transit_egress_ok_on_egress" 6 \
	"$(hm_counter r1 r1-r2 transit_egress_ok)"

# ------------------ the stock recipe after hopmark's own enable + disable
# Stock detach (operating.rst, "Detach"), then hopmark's enable and disable:
# disable leaves the clsact qdisc (other filters may use it).
hm_on r1 ip link set dev r1-a xdp off
hm_on r1 tc qdisc del dev r1-a clsact
hm_on r1 "$HOPMARK" ioam transit enable dev r1-a &&
	hm_on r1 "$HOPMARK" ioam transit disable dev r1-a
hm_check "hopmark_disable_leaves_clsact" 1 \
	"$(hm_on r1 tc qdisc show dev r1-a | grep -c '^qdisc clsact')"
hm_check "hopmark_disable_leaves_no_filter" "" \
	"$(hm_on r1 tc filter show dev r1-a egress)"
hm_check_cmd "stock_recipe_attaches_after_hopmark_disable" hm_stock_attach_transit r1 r1-a
hm_check "stock_recipe_after_disable_egress_filter" 1 \
	"$(hm_on r1 tc filter show dev r1-a egress | grep -c 'hopmark_transit.bpf.o:\[tc\].* name hm_transit_out')"
# disable cleared the transit flag: set it again, the stock way.
hm_map_update r1 hopmark_ifcfg "$(hm_hex I "$(hm_ifindex r1 r1-a)")" \
	"$(hm_hex HHI $((1 | HM_IF_F_PRESENT)) "$(hm_if_id r1-a)" "$(hm_if_id_wide r1-a)")"
OK0=$(hm_counter r1 r1-a transit_ok)
L=$(wc -l <"$HM_TMP/b.json")
hm_on a ping -6 -c 3 -i 0.1 -q $HM_B_ADDR >/dev/null
hm_wait_lines "$HM_TMP/b.json" $((L + 3))
hm_check "stock_recipe_after_disable_r1_writes_again" 3 \
	"$(( $(hm_counter r1 r1-a transit_ok) - OK0 ))"
hm_check "stock_recipe_after_disable_r1_in_the_traces" "[2, 2, 2]" \
	"$(tail -n +"$((L + 1))" "$HM_TMP/b.json" | "$PY" -c '
import json, sys
print([h["node_id"] for l in sys.stdin for h in json.loads(l)["hops"] if h["hop"] == 2])')"

# Every stock recipe in the documents creates clsact idempotently.
hm_check "docs_stock_recipe_uses_qdisc_replace" "" \
	"$(grep -nE 'tc qdisc add dev [^ ]+ clsact' "$HM_TOP/README.md" "$HM_TOP"/Documentation/*.rst \
		"$HM_TOP"/iproute2-ext/*.8 "$HM_TOP"/agent/*.8 2>/dev/null | sed "s|$HM_TOP/||")"
hm_done
