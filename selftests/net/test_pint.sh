#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_pint.sh - PINT on real packets over a chain of 8 routers
# (selftests/pint_lib.sh): r1 source, every router transit towards h2, h2
# sink with hopmarkd doing the inference; budget 16 bits with three queries
# (path 8, latency 8, util 8: each packet carries two of them).
#
#   pint_ipv4_path_decoded	the sink's decoded path = r1..r8 (IDs 11..18)
#   pint_ipv6_path_decoded	the same over IPv6 (Hop-by-Hop option 0x3E)
#   pint_ipv4_no_df_*		IPv4 without DF: counted at the source, never
#				reported by the sink
#   pint_latency_*		a tbf at 2 Mbit/s on r5's egress builds a real
#				queue; hop 5's median latency agrees with the
#				median one-way delay the receiver measures
#				(within 25 %, Documentation/pint-datapath.rst),
#				the other hops stay below 1 ms
#   pint_util_*			the path's maximum utilisation shows r5's
#				congested link (U >= 1)
#   pint_route_change_*		r4 reroutes over r9: the sink detects the
#				change and decodes the new path r1 r2 r3 r4 r9
#				r6 r7 r8, keeping the old one as previous
#   pint_topology_aware_*	h2's hopmarkd knows the routers' graph
#				(--pint-topology, GML written here): every
#				path above is decoded topology-aware
#   pint_show_*			`hopmark pint show` of the agent's state file:
#				with -j every member of it unchanged, as text
#				one line per flow and the decoded paths
#   pint_2x8_*			every node switches to one 16-bit path query of
#				two independent 8-bit digests (`digests 2`):
#				the datapath writes both and the sink decodes
#				the current path from them, IPv4 and IPv6
#
# TAP output; skip (exit 4, or 0 under prove) without root or netns.

HM_PFX=${HM_PFX:-hmpint$$}
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../pint_lib.sh
. "$(dirname "$0")/../pint_lib.sh"

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
command -v tc >/dev/null || hm_skip_all "needs tc"
hm_trap_teardown
hm_tmpdir

PATH_OLD="[11, 12, 13, 14, 15, 16, 17, 18]"
PATH_NEW="[11, 12, 13, 14, 19, 16, 17, 18]"
SP_V4=40000 SP_V6=40001 SP_LAT=40002 SP_NODF=40003 SP_2X8_V4=40004 SP_2X8_V6=40005
PINT_RATE_OF=([r5-r6]=2m)
# HPCC's base RTT: 100 ms, so that r5's full queue is about one BDP.
PINT_SET_ARGS="base-rtt 100000000"

pint_topo_create || { hm_not_ok "pint_topology_up"; hm_done; }
pint_setup "path bits 8" "latency bits 8" "util bits 8" || {
	hm_not_ok "pint_setup"
	hm_done
}
# The routers' graph for the sink: r_i has switch ID 10 + i (pint_id), the
# chain r1..r8 plus the bypass r4 - r9 - r6. Hosts are not switches.
{
	echo "graph ["
	for n in $PINT_ROUTERS; do echo "  node [ id $(pint_id "$n") label \"$n\" ]"; done
	for i in $(seq 1 7); do echo "  edge [ source $((10 + i)) target $((11 + i)) ]"; done
	echo "  edge [ source 14 target 19 ]"
	echo "  edge [ source 19 target 16 ]"
	echo "]"
} >"$HM_TMP/routers.gml"
hm_agent_start h2 "$HM_TMP/h2.records" --pint-topology "$HM_TMP/routers.gml" ||
	{ hm_not_ok "pint_agent_started"; hm_done; }
hm_agent_start r5 "$HM_TMP/r5.records" || { hm_not_ok "pint_agent_r5_started"; hm_done; }

# ---- IPv4 and IPv6 paths
pint_send h1 4 $PINT_H2_V4 500 64 0 $SP_V4
pint_send h1 6 $PINT_H2_V6 500 64 0 $SP_V6
pint_wait_flow h2 $SP_V4 500
pint_wait_flow h2 $SP_V6 500
pint_snap h2
hm_check "pint_ipv4_path_decoded" "$PATH_OLD" "$(pint_eval h2 "flow($SP_V4).get('path', {}).get('ids')")"
hm_check "pint_ipv4_hop_count" 8 "$(pint_eval h2 "flow($SP_V4).get('hops')")"
hm_check "pint_ipv6_path_decoded" "$PATH_OLD" "$(pint_eval h2 "flow($SP_V6).get('path', {}).get('ids')")"
hm_check "pint_ipv6_hop_count" 8 "$(pint_eval h2 "flow($SP_V6).get('hops')")"
hm_check "pint_sink_removal_no_error" 0 "$(pint_eval h2 "counter('h2-r8', 'error')")"
hm_check "pint_topology_aware_decoder" "topology-aware 9" "$(pint_eval h2 "'%s %s' % (s.get('decoder'), s.get('switches'))")"
hm_check "pint_topology_aware_agent_says_so" 1 \
	"$(grep -c "PINT: topology-aware path decoding over .*routers.gml (9 switches, 9 links)" "$HM_TMP/h2.records.log")"
hm_log "packets to decode: IPv4 $(pint_eval h2 "flow($SP_V4)['path'].get('packets_to_decode')"), IPv6 $(pint_eval h2 "flow($SP_V6)['path'].get('packets_to_decode')")"

# ---- pint show prints the agent's state file, frozen in a run directory of
# its own: -j has every member of it unchanged, the text the same flows.
FROZEN=$HM_TMP/frozen
mkdir -p "$FROZEN" && cp "$(hm_rundir h2)/pint.json" "$FROZEN/pint.json"
show_frozen()
{
	TC_BPF_MNT=$(hm_bpffs h2) HOPMARK_RUNDIR=$FROZEN \
		nsenter --net="/run/netns/$(hm_ns h2)" "$HOPMARK" "$@" pint show time 0
}
show_frozen -j >"$HM_TMP/frozen.json" 2>&1
show_frozen >"$HM_TMP/frozen.txt" 2>&1
hm_check "pint_show_json_is_the_agent_state" "agent, same members" "$("$PY" -c '
import json, sys
state, shown = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
diff = [k for k in state if shown.get(k) != state[k]]
print("%s, %s" % (shown.get("source"), "same members" if not diff else "differ: " + " ".join(diff)))' \
	"$FROZEN/pint.json" "$HM_TMP/frozen.json" 2>&1)"
hm_check "pint_show_text_one_line_per_flow" \
	"$("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["flows"]))' "$FROZEN/pint.json")" \
	"$(grep -c '^flow ' "$HM_TMP/frozen.txt")"
hm_check "pint_show_text_decoded_paths" 2 \
	"$(grep -cE '^  path 11 12 13 14 15 16 17 18  \(decoded from [0-9]+ packets\) route-changes 0$' "$HM_TMP/frozen.txt")"
hm_check "pint_show_text_says_where_from" \
	"(flows from the agent's state file, topology-aware decoding over 9 switches)" \
	"$(tail -n 1 "$HM_TMP/frozen.txt")"

# ---- IPv4 without DF: untouched, counted at the source, not reported
pint_snap r1
before=$(pint_eval r1 "counter('r1-h1', 'no_df')")
pint_send h1 4 $PINT_H2_V4 50 64 0 $SP_NODF 0
pint_send h1 4 $PINT_H2_V4 1 64 0 $SP_V4
pint_wait_flow h2 $SP_V4 501
pint_snap r1
pint_snap h2
hm_check "pint_ipv4_no_df_counted_at_source" 50 \
	"$(( $(pint_eval r1 "counter('r1-h1', 'no_df')") - before ))"
hm_check "pint_ipv4_no_df_not_reported" "{}" "$(pint_eval h2 "flow($SP_NODF)")"

# ---- latency and utilisation: a real queue on r5's egress
hm_on r5 tc qdisc add dev r5-r6 root tbf rate 2mbit burst 4kb latency 60ms
pint_recv h2 $SP_LAT 2 "$HM_TMP/owd.txt" &
recv_pid=$!
sleep 0.5
pint_send h1 4 $PINT_H2_V4 1800 500 600 $SP_LAT
wait $recv_pid
hm_on r5 tc qdisc del dev r5-r6 root
pint_snap h2
read -r owd_ns owd_n <"$HM_TMP/owd.txt"
lat5_ns=$(pint_eval h2 "lat($SP_LAT, 5)")
hm_log "r5 queue: receiver median one-way delay $owd_ns ns over $owd_n datagrams; PINT hop 5 median $lat5_ns ns over $(pint_eval h2 "[x['samples'] for x in flow($SP_LAT)['latency'] if x['hop'] == 5]") samples"
hm_check "pint_latency_hop5_matches_queue" 1 "$("$PY" -c "
owd, lat = float('${owd_ns:-0}'), float('$lat5_ns')
print(1 if owd > 5e6 and abs(lat - owd) <= 0.25 * owd else 0)")"
hm_check "pint_latency_other_hops_below_1ms" 1 \
	"$(pint_eval h2 "int(all(0 <= lat($SP_LAT, h, 'p90_ns') < 1000000 for h in (1, 2, 3, 4, 6, 7, 8)))")"
hm_check "pint_util_congested_link_seen" 1 "$(pint_eval h2 "int(flow($SP_LAT)['util']['max'] >= 1.0)")"

# ---- route change on the first flow
pint_reroute
pint_send h1 4 $PINT_H2_V4 500 64 0 $SP_V4
pint_wait_flow h2 $SP_V4 1001
pint_snap h2
hm_check "pint_route_change_detected" 1 "$(pint_eval h2 "int(flow($SP_V4)['path']['route_changes'] >= 1)")"
hm_check "pint_route_change_new_path_decoded" "$PATH_NEW" \
	"$(pint_eval h2 "flow($SP_V4).get('path', {}).get('ids')")"
hm_check "pint_route_change_old_path_kept" 1 \
	"$(pint_eval h2 "int($PATH_OLD in flow($SP_V4).get('previous_paths', []))")"

# ---- 2x8: the path query becomes two independent 8-bit digests
# h2's agent is restarted on the new settings: records that reach a running
# agent around a change of settings may go to the old settings' inference.
hm_agent_stop h2
ok=1
for n in $HM_NODES; do
	hm_on "$n" "$HOPMARK" pint query del latency &&
		hm_on "$n" "$HOPMARK" pint query del util &&
		hm_on "$n" "$HOPMARK" pint query add path bits 16 digests 2 || ok=0
done
hm_agent_start h2 "$HM_TMP/h2.2x8.records" --pint-topology "$HM_TMP/routers.gml" ||
	hm_not_ok "pint_2x8_agent_restarted"
pint_send h1 4 $PINT_H2_V4 300 64 0 $SP_2X8_V4
pint_send h1 6 $PINT_H2_V6 300 64 0 $SP_2X8_V6
pint_wait_flow h2 $SP_2X8_V4 300
pint_wait_flow h2 $SP_2X8_V6 100
pint_snap h2
hm_check "pint_2x8_configured" "1 [[\"path\", 16, 2]]" \
	"$ok $(pint_eval h2 "[[q['query'], q['bits'], q.get('digests')] for q in s['config']['queries']]")"
hm_check "pint_2x8_show_text" 1 \
	"$(hm_on h2 "$HOPMARK" pint show time 0 | grep -c '^  query path bits 16 .* digests 2$')"
hm_check "pint_2x8_ipv4_path_decoded" "$PATH_NEW" \
	"$(pint_eval h2 "flow($SP_2X8_V4).get('path', {}).get('ids')")"
hm_check "pint_2x8_ipv6_path_decoded" "$PATH_NEW" \
	"$(pint_eval h2 "flow($SP_2X8_V6).get('path', {}).get('ids')")"
hm_log "2x8 packets to decode: IPv4 $(pint_eval h2 "flow($SP_2X8_V4).get('path', {}).get('packets_to_decode')"), IPv6 $(pint_eval h2 "flow($SP_2X8_V6).get('path', {}).get('packets_to_decode')")"

hm_done
