#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_edge.sh - the edge behaviour of the design, one named check each, on
# the demo topology configured with the hopmark CLI. Every case is counted
# per interface and the packet is forwarded, never dropped by hopmark:
#
#   no room at R1 (room for A only)	Overflow set by R1, nothing written
#   no room at R2 (room for A, R1)	Linux sets Overflow; R3 leaves it
#   unknown IOAM-Namespace at R1	untouched, unknown_ns
#   IOAM not enabled on R1's ingress	untouched (like ioam6_enabled=0)
#   encap past the egress MTU		sent without the option, encap_skip_mtu
#   existing Hop-by-Hop (Router Alert)	our option inside it, 4n aligned;
#					B's decap keeps the Router Alert
#   existing Hop-by-Hop of 7 / 8 options	merged / sent unchanged, counted
#					encap_skip_hbh_limit; delivered
#   trace in a 71-TLV Hop-by-Hop header	written, reported, removed
#   Segment Routing Header		Hop-by-Hop first, then the SRH
#   IPv6 fragments carrying IOAM	untouched, fragment
#   malformed traces			untouched, malformed
#   every counter			shown by hopmark link show -s
set -u
HM_PFX=${HM_PFX:-hmi$$e}
. "$(dirname "$0")/../lib.sh"
NET=$(dirname "$0")
PKT=$NET/hm_pkt.py

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
command -v tcpdump >/dev/null || hm_skip_all "needs tcpdump"
hm_trap_teardown
hm_tmpdir

hm_topo_create || { echo "Bail out! topology"; exit 1; }
hm_setup_cli || { echo "Bail out! hopmark CLI configuration failed"; exit 1; }
JS=$HM_TMP/b.json
hm_agent_start b "$JS" || { echo "Bail out! hopmarkd on B"; exit 1; }

# jq-like one-liners over the records B reported after line $1.
new_recs() { tail -n +"$(( $1 + 1 ))" "$JS" >"$HM_TMP/new.json"; }
recs_q() { hm_json "$HM_TMP/new.json" "$1"; }
nlines() { wc -l <"$JS"; }

encap_size()
{
	hm_on a "$HOPMARK" ioam encap del $HM_B_PREFIX &&
	hm_on a "$HOPMARK" ioam encap add $HM_B_PREFIX dev a-r1 ns $HM_NS_ID \
		trace-type $HM_TRACE_TYPE size "$1"
}

# ---------------------------------------------------------------- Overflow
# size 60 = one node slot: A fills it, R1 finds no room.
encap_size 60 || echo "# encap size 60 failed"
L=$(nlines); OV1=$(hm_counter r1 r1-a transit_overflow)
SEEN=$(hm_counter r3 r3-r2 transit_overflow_seen)
hm_on a "$PY" "$PKT" send $HM_B_ADDR 9999 --count 3
hm_wait_lines "$JS" $((L + 3)); new_recs "$L"
hm_check "no_room_at_r1_records" 3 "$(recs_q 'len(recs)')"
hm_check "no_room_at_r1_overflow_flag_set" "True" "$(recs_q 'all(r["overflow"] for r in recs) and len(recs) > 0')"
hm_check "no_room_at_r1_only_a_wrote" "[[1], [1], [1]]" \
	"$(recs_q '[[h["node_id"] for h in r["hops"]] for r in recs]')"
hm_check "no_room_at_r1_counted_transit_overflow" 3 \
	"$(( $(hm_counter r1 r1-a transit_overflow) - OV1 ))"
hm_check "overflow_seen_at_r3_counted" 3 \
	"$(( $(hm_counter r3 r3-r2 transit_overflow_seen) - SEEN ))"

# size 120 = two slots: A and R1 write, Linux R2 sets Overflow, R3 leaves it.
encap_size 120 || echo "# encap size 120 failed"
L=$(nlines); SEEN=$(hm_counter r3 r3-r2 transit_overflow_seen)
OK3=$(hm_counter r3 r3-r2 transit_ok)
hm_on a "$PY" "$PKT" send $HM_B_ADDR 9999 --count 3
hm_wait_lines "$JS" $((L + 3)); new_recs "$L"
hm_check "no_room_at_linux_r2_overflow_flag_set" "True" \
	"$(recs_q 'all(r["overflow"] for r in recs) and len(recs) == 3')"
hm_check "no_room_at_linux_r2_a_and_r1_wrote" "[[1, 2], [1, 2], [1, 2]]" \
	"$(recs_q '[[h["node_id"] for h in r["hops"]] for r in recs]')"
hm_check "overflow_set_by_linux_seen_at_r3" 3 \
	"$(( $(hm_counter r3 r3-r2 transit_overflow_seen) - SEEN ))"
hm_check "overflow_set_r3_writes_nothing" 0 \
	"$(( $(hm_counter r3 r3-r2 transit_ok) - OK3 ))"
encap_size $HM_TRACE_SIZE || echo "# encap size $HM_TRACE_SIZE failed"

# ------------------------------------------ IOAM not enabled on R1's ingress
# Programs stay attached; only HM_IF_F_TRANSIT of r1-a is cleared, the
# counterpart of net.ipv6.conf.r1-a.ioam6_enabled=0.
IFX=$(hm_ifindex r1 r1-a)
hm_map_update r1 hopmark_ifcfg "$(hm_hex I "$IFX")" \
	"$(hm_hex HHI $((0 | HM_IF_F_PRESENT)) "$(hm_if_id r1-a)" "$(hm_if_id_wide r1-a)")"
L=$(nlines); OK1=$(hm_counter r1 r1-a transit_ok)
hm_on a ping -6 -c 3 -i 0.1 -q $HM_B_ADDR >/dev/null
hm_wait_lines "$JS" $((L + 3)); new_recs "$L"
hm_check "ioam_disabled_on_ingress_r1_skipped" "[[1, 3, 4], [1, 3, 4], [1, 3, 4]]" \
	"$(recs_q '[[h["node_id"] for h in r["hops"]] for r in recs]')"
hm_check "ioam_disabled_on_ingress_not_counted_as_written" 0 \
	"$(( $(hm_counter r1 r1-a transit_ok) - OK1 ))"
hm_check "ioam_disabled_on_ingress_remaining_len" "[15, 15, 15]" \
	"$(recs_q '[r["remaining_len"] for r in recs]')"
hm_map_update r1 hopmark_ifcfg "$(hm_hex I "$IFX")" \
	"$(hm_hex HHI $((1 | HM_IF_F_PRESENT)) "$(hm_if_id r1-a)" "$(hm_if_id_wide r1-a)")"

# -------------------------------------------------- encap past the MTU
# Without the lowered route MTU a 1448-byte packet + 256 > 1500.
hm_on a ip -6 route replace 2001:db8::/32 via 2001:db8:1::2 dev a-r1
L=$(nlines); MTU0=$(hm_counter a a-r1 encap_skip_mtu)
RX=$(hm_on a ping -6 -c 3 -i 0.1 -s 1400 -q $HM_B_ADDR | grep -o '[0-9]* received')
hm_check "encap_past_mtu_delivered_without_option" "3 received" "$RX"
hm_check "encap_past_mtu_counted" 3 "$(( $(hm_counter a a-r1 encap_skip_mtu) - MTU0 ))"
sleep 0.3
hm_check "encap_past_mtu_nothing_reported_at_b" 0 "$(( $(nlines) - L ))"
hm_on a ip -6 route replace 2001:db8::/32 via 2001:db8:1::2 dev a-r1 \
	mtu $((1500 - HM_ENCAP_GROWTH))

# ------------------------------- existing Hop-by-Hop header: Router Alert
hm_capture_start b b-r3 "$HM_TMP/ra.pcap"
CAP_RA=$HM_CAP_PID
hm_bg b "$PY" "$PKT" recv 9998 --count 3 --timeout 5 --ready "$HM_TMP/ra.ready" \
	>"$HM_TMP/ra.recv"
RECV=$HM_BG_PID
hm_wait_lines "$HM_TMP/ra.ready" 0 30
MRG=$(hm_counter a a-r1 encap_hbh_merged)
L=$(nlines)
hm_on a "$PY" "$PKT" send $HM_B_ADDR 9998 --count 3 --ra
wait "$RECV"
hm_wait_lines "$JS" $((L + 3)); new_recs "$L"
hm_capture_stop "$CAP_RA"
"$PY" "$PKT" pcap "$HM_TMP/ra.pcap" | grep '"dport": 9998' >"$HM_TMP/ra.cap.json"
hm_check "hbh_merge_counted" 3 "$(( $(hm_counter a a-r1 encap_hbh_merged) - MRG ))"
hm_check "hbh_merge_option_types_in_order" '[[5, 49], [5, 49], [5, 49]]' \
	"$(hm_json "$HM_TMP/ra.cap.json" '[[t["type"] for t in r["hbh_tlvs"] if t["type"] > 1] for r in recs]')"
hm_check "hbh_merge_ioam_option_4n_aligned" "[0, 0, 0]" \
	"$(hm_json "$HM_TMP/ra.cap.json" '[r["ioam_off"] % 4 for r in recs]')"
hm_check "hbh_merge_header_8n_long" "[0, 0, 0]" \
	"$(hm_json "$HM_TMP/ra.cap.json" '[(len(r["hbh"]) // 2) % 8 for r in recs]')"
hm_check "hbh_merge_trace_complete" "[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]" \
	"$(recs_q '[[h["node_id"] for h in r["hops"]] for r in recs]')"
# What B's socket got after hm_decap: the Router Alert, no IOAM option.
hm_check "decap_keeps_other_options" \
	'[[5], [5], [5]]' \
	"$(hm_json "$HM_TMP/ra.recv" '[r["tlv_types"] for r in recs]')"

# ------------------------------ existing Hop-by-Hop header at Linux's limit
# Every Linux node drops a Hop-by-Hop header with more than 8 options
# (net.ipv6.max_hbh_opts_number). 7 options: A merges the trace (8), the
# Linux stacks of R1, R2 and R3 forward it, B reports it and its socket
# gets the 7. 8 options: A must not add a 9th; it sends the packet
# unchanged (encap_skip_hbh_limit) and it arrives.
for n in 7 8; do
	port=$((9990 + n))
	hm_bg b "$PY" "$PKT" recv $port --count 3 --timeout 5 --ready "$HM_TMP/o$n.ready" \
		>"$HM_TMP/o$n.recv"
	RECV=$HM_BG_PID
	hm_wait_lines "$HM_TMP/o$n.ready" 0 30
	MRG=$(hm_counter a a-r1 encap_hbh_merged)
	SKIP=$(hm_counter a a-r1 encap_skip_hbh_limit)
	L=$(nlines)
	hm_on a "$PY" "$PKT" send $HM_B_ADDR $port --count 3 --exp-opts $n
	wait "$RECV"
	OPTS=$(printf '[%s]' "$(printf '30, %.0s' $(seq $n) | sed 's/, $//')")
	hm_check "hbh_${n}_options_delivered_with_them" "[$OPTS, $OPTS, $OPTS]" \
		"$(hm_json "$HM_TMP/o$n.recv" '[r["tlv_types"] for r in recs]')"
	if [ $n = 7 ]; then
		hm_wait_lines "$JS" $((L + 3)); new_recs "$L"
		hm_check "hbh_7_options_merged" 3 \
			"$(( $(hm_counter a a-r1 encap_hbh_merged) - MRG ))"
		hm_check "hbh_7_options_trace_complete" \
			"[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]" \
			"$(recs_q '[[h["node_id"] for h in r["hops"]] for r in recs]')"
	else
		sleep 0.3
		hm_check "hbh_8_options_not_merged_counted" 3 \
			"$(( $(hm_counter a a-r1 encap_skip_hbh_limit) - SKIP ))"
		hm_check "hbh_8_options_nothing_reported_at_b" 0 "$(( $(nlines) - L ))"
	fi
done

# The largest Hop-by-Hop header Linux accepts in TLVs: 8 options with 7
# Pad1 before, between and after them, 71 TLVs, the trace the 7th option,
# sent by A itself (A's encap leaves it: encap_err). R1, Linux R2 and R3
# write, B walks to the end of the header, reports and removes the trace.
hm_bg b "$PY" "$PKT" recv 9989 --count 3 --timeout 5 --ready "$HM_TMP/o71.ready" \
	>"$HM_TMP/o71.recv"
RECV=$HM_BG_PID
hm_wait_lines "$HM_TMP/o71.ready" 0 30
MAL=$(hm_counter b b-r3 malformed)
L=$(nlines)
hm_on a "$PY" "$PKT" send $HM_B_ADDR 9989 --count 3 --exp-opts 7 --pad1-runs 7 \
	--ioam-ns $HM_NS_ID
wait "$RECV"
hm_wait_lines "$JS" $((L + 3)); new_recs "$L"
hm_check "hbh_71_tlvs_trace_written_by_r1_r2_r3_reported" "[[2, 3, 4], [2, 3, 4], [2, 3, 4]]" \
	"$(recs_q '[[h["node_id"] for h in r["hops"]] for r in recs]')"
hm_check "hbh_71_tlvs_not_malformed_at_b" 0 "$(( $(hm_counter b b-r3 malformed) - MAL ))"
O7='[30, 30, 30, 30, 30, 30, 30]'
hm_check "hbh_71_tlvs_delivered_without_trace" "[$O7, $O7, $O7]" \
	"$(hm_json "$HM_TMP/o71.recv" '[r["tlv_types"] for r in recs]')"

# ----------------------------------------------- Segment Routing Header
# A reaches B's second address 2001:db8:4::5 through an inline SRH whose
# segment is B's first address: the routers only forward (they are not
# SRv6 endpoints), B's hm_decap removes the Hop-by-Hop header at tc
# ingress, then B's stack processes the SRH (seg6_enabled). A's hm_encap
# runs at tc egress, after the seg6 lwtunnel: the Hop-by-Hop header must
# come first. (No SRv6 endpoint sees our Hop-by-Hop header on purpose:
# Linux 6.18's ipv6_srh_rcv() pushes back only the fixed IPv6 header before
# forwarding, so a packet with a Hop-by-Hop header before the SRH leaves an
# endpoint shifted by the Hop-by-Hop length, with or without hopmark.)
hm_sysctl b net.ipv6.conf.all.seg6_enabled=1
hm_sysctl b net.ipv6.conf.b-r3.seg6_enabled=1
hm_on b ip -6 addr add 2001:db8:4::5/64 dev b-r3 nodad
hm_on a ip -6 route add 2001:db8:4::5/128 encap seg6 mode inline \
	segs $HM_B_ADDR via 2001:db8:1::2 dev a-r1 mtu $((1500 - HM_ENCAP_GROWTH - 40))
hm_capture_start b b-r3 "$HM_TMP/srh.pcap"
CAP_SRH=$HM_CAP_PID
L=$(nlines)
RX=$(hm_on a ping -6 -c 3 -i 0.1 -q 2001:db8:4::5 | grep -o '[0-9]* received')
hm_wait_lines "$JS" $((L + 3)); new_recs "$L"
hm_capture_stop "$CAP_SRH"
"$PY" "$PKT" pcap "$HM_TMP/srh.pcap" | grep '"proto": 58' | grep '"rh"' >"$HM_TMP/srh.json"
hm_check "srh_ping_delivered" "3 received" "$RX"
hm_check "srh_hbh_first_then_srh" '[["hbh", "rh"], ["hbh", "rh"], ["hbh", "rh"]]' \
	"$(hm_json "$HM_TMP/srh.json" '[r["ext"] for r in recs if r["hop_limit"] < 64]')"
hm_check "srh_routing_type_4" "[4, 4, 4]" \
	"$(hm_json "$HM_TMP/srh.json" '[r["rh_type"] for r in recs if r["hop_limit"] < 64]')"
hm_check "srh_trace_complete_at_b" "[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]" \
	"$(recs_q '[[h["node_id"] for h in r["hops"]] for r in recs if r["packet"]["proto"] == 58]')"
hm_on a ip -6 route del 2001:db8:4::5/128

# ------------------- unknown namespace, fragments, malformed: via R1 to R2
# Crafted at A (whose encap rules do not cover R2's address), captured as
# A sends them and as R1 forwards them: the Hop-by-Hop headers must be
# byte for byte the same.
hm_capture_start a a-r1 "$HM_TMP/a.pcap"
CAP_A=$HM_CAP_PID
hm_capture_start r1 r1-r2 "$HM_TMP/r1.pcap"
CAP_R1=$HM_CAP_PID
# On ingress, taps run after XDP: r1-a shows what hm_transit_in left.
hm_capture_start r1 r1-a "$HM_TMP/r1in.pcap"
CAP_R1IN=$HM_CAP_PID
declare -A C0
for c in unknown_ns fragment malformed transit_ok; do
	C0[$c]=$(hm_counter r1 r1-a $c)
done
send_r2() { hm_on a "$PY" "$PKT" send $HM_R2_ADDR "$@"; }
send_r2 7001 --count 2 --ioam-ns 124
send_r2 7002 --count 2 --ioam-ns 123 --size 3000
send_r2 7003 --count 2 --ioam-ns 123 --ioam-nodelen 3
send_r2 7004 --count 2 --ioam-ns 123 --ioam-remlen 100
send_r2 7005 --count 2 --ioam-ns 123 --ioam-misalign
send_r2 7006 --count 2 --ioam-ns 123 --ioam-size 240 --ioam-data-len 238
hm_capture_stop "$CAP_A"
hm_capture_stop "$CAP_R1"
hm_capture_stop "$CAP_R1IN"
for f in a r1 r1in; do
	"$PY" "$PKT" pcap "$HM_TMP/$f.pcap" | grep '"hbh"' | grep -v '"proto": 58' \
		>"$HM_TMP/$f.hbh.json"
done
# port -> list of (HBH hex) as sent by A and as forwarded by R1
hbh_of() { hm_json "$HM_TMP/$1.hbh.json" "[r['hbh'] for r in recs if r.get('dport') == $2 or ($2 == 7002 and 'frag_offset' in r)]"; }
for p in 7001:unknown_ns 7003:nodelen_mismatch 7004:remlen_beyond_data \
	 7005:misaligned_option 7006:data_not_4n; do
	port=${p%%:*}; what=${p#*:}
	SENT=$(hbh_of a "$port")
	hm_check "${what}_sent_by_a" 2 "$(hm_json "$HM_TMP/a.hbh.json" "len([r for r in recs if r.get('dport') == $port])")"
	hm_check "${what}_untouched_by_r1_xdp" "$SENT" "$(hbh_of r1in "$port")"
	if [ "$port" = 7005 ]; then
		# Linux itself drops IOAM options that are not 4n-aligned
		# (net/ipv6/exthdrs.c ipv6_hop_ioam()), on every node,
		# whatever ioam6_enabled says: R1's stack does after XDP.
		hm_check "${what}_dropped_by_linux_stack_of_r1" "[]" "$(hbh_of r1 "$port")"
	else
		hm_check "${what}_forwarded_unchanged_by_r1" "$SENT" "$(hbh_of r1 "$port")"
	fi
done
NFRAG=$(hm_json "$HM_TMP/a.hbh.json" "len([r for r in recs if 'frag_offset' in r])")
# 2 datagrams of 3008 bytes, MTU 1244 with the 256-byte Hop-by-Hop: 4 each.
hm_check "fragments_sent_by_a_with_ioam" "8" "$NFRAG"
hm_check "fragments_forwarded_unchanged_by_r1" "$(hbh_of a 7002)" "$(hbh_of r1 7002)"
hm_check "unknown_ns_counted" 2 "$(( $(hm_counter r1 r1-a unknown_ns) - C0[unknown_ns] ))"
hm_check "fragments_counted" "$NFRAG" "$(( $(hm_counter r1 r1-a fragment) - C0[fragment] ))"
hm_check "malformed_counted" 8 "$(( $(hm_counter r1 r1-a malformed) - C0[malformed] ))"
hm_check "crafted_edge_cases_none_written" 0 "$(( $(hm_counter r1 r1-a transit_ok) - C0[transit_ok] ))"

# A ping bigger than the route MTU: A fragments, the fragments still arrive.
RX=$(hm_on a ping -6 -c 2 -i 0.1 -s 3000 -q $HM_B_ADDR | grep -o '[0-9]* received')
hm_check "fragmented_ping_delivered" "2 received" "$RX"

# ------------------------------------------------------- every counter
TXT=$(hm_on r1 "$HOPMARK" -s link show dev r1-a)
MISSING=
for c in encap_ok encap_skip_mtu encap_skip_freq encap_err encap_hbh_merged \
	 transit_ok transit_egress_ok transit_overflow transit_overflow_seen \
	 unknown_ns malformed fragment decap_ok decap_err events_lost \
	 hbh_walk_limit encap_skip_hbh_limit; do
	grep -qw "$c" <<<"$TXT" || MISSING="$MISSING $c"
done
hm_check "link_show_s_lists_every_counter" "" "$MISSING"
hm_check "link_show_s_json_has_every_counter" 17 \
	"$(hm_on r1 "$HOPMARK" -j -s link show dev r1-a | "$PY" -c '
import json, sys
d = json.load(sys.stdin); d = d[0] if isinstance(d, list) else d
print(len(d["stats"]))')"
hm_done
