#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_int_cli.sh - `hopmark int` (hopmark-int(8)) on one throwaway node:
#
#   int_help_*			`help` answers at every level, exit 0
#   int_show_before_setup_*	show with no INT map yet: exit 1, ENOENT
#   int_set_*			settings are stored and shown with -j (parsed
#				with python3's json): defaults, names and hex
#				bitmaps, Hop ML, the trace size
#   int_err_*			bad values are refused, exit 2, the error
#				naming the argument; with -j one error object
#				carrying the text's message
#   int_watch_*			watchlist rules (IPv4, IPv6, no prefix),
#				refusals, 16 at most, del moves the later up
#   int_sample_*, int_report_*	sampling and the report destination
#   int_enable_*, int_disable_*	every role attaches exactly its programs
#				(tc filter show: name, handle 0x696e, the
#				role's pref), show reports their ids, disable
#				detaches what no remaining role needs
#   int_xdp_*			role xdp-source: hm_int_xdp_src at XDP (ip link
#				shows it, the peer veth loses TSO), refused
#				with a DSCP or unconfigured domain, beside a
#				sink, over another XDP program; int set keeps
#				the domain to what it can run
#   int_drops_*			drops on / off: the pinned link runs
#				hm_int_drop (bpftool), on again replaces it,
#				off frees it; show and -j give the state
#   int_mtu_warning_*		a trace that cannot fit a source's MTU warns
#				(the budget model's budget_warn_int_md())
#   int_stats_*			show -s: every counter of int_counter_names,
#				equal to bpftool's per-CPU values summed
#   int_round_trip_*		the words show prints, given to a node with an
#				empty bpffs, give the same settings: the same
#				JSON and the same bytes in int_cfg[0]
#   int_pbt_*, int_err_pbt_*	with PBT-M configured on the node, a DSCP mask
#				over its TOS / Traffic Class mark bits is
#				refused (exit 2, the value named, the conflict
#				in the message, nothing changed); a mask clear
#				of them is accepted
#
# TAP output; skip (exit 4, or 0 under prove) without root or netns.
set -u
HM_PFX=${HM_PFX:-hmt-int$$}
. "$(dirname "$0")/../lib.sh"

HM_CLI_OBJ=int
HM_CLI_TAG=int
. "$(dirname "$0")/../cli_lib.sh"

# ---- help at every level
for words in "" "set" "watch" "watch add" "watch del" "watch flush" "sample" "report" \
	"report set" "report del" "enable" "disable" "drops" "show"; do
	out=$(x "$HOPMARK" int $words help 2>&1)
	rc=$?
	w=${words:-int}
	hm_check "int_help_${w// /_}" "0 yes" "$rc $(grep -q '^Usage: hopmark int set' <<<"$out" &&
		echo yes || echo "no: ${out:0:120}")"
done
x "$HOPMARK" int >/dev/null 2>&1
hm_check "int_help_no_command_is_usage_error" 2 $?
hm_check "int_help_in_hopmark_help" 1 "$(x "$HOPMARK" help | grep -c '^ *hopmark int {')"

# ---- nothing there yet
x "$HOPMARK" -j int show >"$HM_TMP/o" 2>/dev/null
hm_check "int_show_before_setup_fails" "1 2" "$? $("$PY" -c '
import json, sys; print(json.load(open(sys.argv[1]))["error"]["errno"])' "$HM_TMP/o" 2>&1)"

# ---- enable before any setting: works, and says the domain is not configured
x "$HOPMARK" int enable dev v2 role sink 2>"$HM_TMP/s.err"
hm_check "int_enable_unconfigured_warns" "0 1 False" \
	"$? $(grep -c '^Warning: the INT domain is not configured: v2 counts its packets as not_configured' "$HM_TMP/s.err") $(show 'd["config"]["configured"]')"
x "$HOPMARK" int disable dev v2

# ---- set
x "$HOPMARK" int set max-hops 8 2>"$HM_TMP/s.err"
hm_check "int_set_first_command_ok" "0 " "$? $(cat "$HM_TMP/s.err")"
hm_check "int_set_defaults" \
	"True md dscp 23 63 0x9000 ['node-id', 'queue'] 2 8 80 128 0 0" \
	"$(show 'c=d["config"]; " ".join(map(str, [c["configured"], c["mode"], c["signal"], c["dscp"], c["dscp_mask"], c["bitmap"], c["instructions"], c["hop_ml"], c["max_hops"], c["trace_bytes"], c["report_trunc"], c["queue_threshold"], c["hw_id"]]))')"
x "$HOPMARK" int set instructions node-id,hop-latency,queue,ingress-ts,egress-ts max-hops 6 \
	hw-id 63 ds-id 0xffff ds-instruction 7 report-trunc 1280 queue-threshold 0xffffff
hm_check "int_set_instruction_names" "0xbc00 7 6 63 65535 7 1280 16777215 184" \
	"$(show 'c=d["config"]; " ".join(map(str, [c["bitmap"], c["hop_ml"], c["max_hops"], c["hw_id"], c["ds_id"], c["ds_instruction"], c["report_trunc"], c["queue_threshold"], c["trace_bytes"]]))')"
x "$HOPMARK" int set instructions 0xff81 max-hops 4
hm_check "int_set_hex_bitmap_hop_ml_13" "0xff81 13 224" \
	"$(show 'c=d["config"]; "%s %s %s" % (c["bitmap"], c["hop_ml"], c["trace_bytes"])')"
x "$HOPMARK" int set signal udp 5000 mode mx instructions 0x9000
hm_check "int_set_udp_signal_mx" "mx udp 5000 16 24 False" \
	"$(show 'c=d["config"]; "%s %s %s %s %s %s" % (c["mode"], c["signal"], c["udp_port"], c["trace_bytes"], c["trace_bytes_npt2"], "dscp" in c)')"
x "$HOPMARK" int set signal dscp 0x20/0x20 mode md
hm_check "int_set_dscp_mask" "dscp 32 32" \
	"$(show 'c=d["config"]; "%s %s %s" % (c["signal"], c["dscp"], c["dscp_mask"])')"
x "$HOPMARK" int set mode xd
hm_check "int_set_xd_trace_0" "xd 0" "$(show 'c=d["config"]; "%s %s" % (c["mode"], c["trace_bytes"])')"
x "$HOPMARK" int set mode md
hm_check "int_set_abbreviated_words" "0 5" "$(x "$HOPMARK" int se max-h 5 >/dev/null 2>&1; echo $?) $(show 'd["config"]["max_hops"]')"

# ---- refusals name the argument
err dscp_0_0 "0/0" -- int set signal dscp 0/0
err dscp_mask_does_not_cover "0x17/0x07" -- int set signal dscp 0x17/0x07
err dscp_above_6_bits "0x40" -- int set signal dscp 0x40
err udp_port_0 "0" -- int set signal udp 0
err signal_unknown "vxlan" -- int set signal vxlan 4789
err mode_unknown "mf" -- int set mode mf
err instruction_unknown "node-id,latency" -- int set instructions node-id,latency
err reserved_bits "0x8040" -- int set instructions 0x8040
err bitmap_empty "0" -- int set instructions 0
err hw_id_64 "64" -- int set hw-id 64
err report_trunc_1281 "1281" -- int set report-trunc 1281
err queue_threshold_25_bits "0x1000000" -- int set queue-threshold 0x1000000
err max_hops_0 "0" -- int set max-hops 0
err max_hops_stack_beyond_255_words "22" -- int set instructions 0xff80 max-hops 22
err mx_csum_complement "mx" -- int set instructions 0x9001 mode mx
x "$HOPMARK" int set mode md mode mx 2>"$HM_TMP/e.err"
hm_check "int_err_duplicate_mode_names_the_value" "2 1" \
	"$? $(grep -c '^Error: duplicate "mode": "mx" is the second value' "$HM_TMP/e.err")"
err unknown_word "bogus" -- int set bogus 1
hm_check "int_err_left_settings_unchanged" "md 5 0x9000" \
	"$(show 'c=d["config"]; "%s %s %s" % (c["mode"], c["max_hops"], c["bitmap"])')"
x "$HOPMARK" int set instructions 0xff80 max-hops 22 2>"$HM_TMP/e.err"
hm_check "int_err_stack_says_how_many_hops_fit" 1 "$(grep -c 'at most 21 hops' "$HM_TMP/e.err")"

# ---- watch
x "$HOPMARK" int watch add src 10.0.0.0/8 proto tcp dport 80 >"$HM_TMP/w.out"
hm_check "int_watch_add_prints_index" "watch 0: src 10.0.0.0/8 proto tcp dport 80" "$(cat "$HM_TMP/w.out")"
x "$HOPMARK" int watch add dst 2001:db8::/32 proto udp sport 0x1000/0xf000 synthetic >/dev/null
x "$HOPMARK" int watch add proto udp dport 5000 >/dev/null
hm_check "int_watch_rules_json" \
	'[[0, 4, "10.0.0.0/8", null, 6, null, 80, false], [1, 6, null, "2001:db8::/32", 17, 4096, null, true], [2, null, null, null, 17, null, 5000, false]]' \
	"$(show '[[r["index"], r["family"], r.get("src"), r.get("dst"), r["proto"], r.get("sport"), r.get("dport"), r["synthetic"]] for r in d["watch"]]')"
hm_check "int_watch_port_masks_json" '[65535, 61440, 65535]' \
	"$(show '[r.get("dport_mask", r.get("sport_mask")) for r in d["watch"]]')"
err watch_host_bits "10.1.0.0/8" -- int watch add src 10.1.0.0/8
err watch_mixed_families "2001:db8::/32" -- int watch add src 10.0.0.0/8 dst 2001:db8::/32
err watch_ports_without_proto "80" -- int watch add dport 80
err watch_port_mask_does_not_cover "0x1001/0xf000" -- int watch add proto tcp sport 0x1001/0xf000
err watch_proto_0 "0" -- int watch add proto 0
err watch_unknown_word "to" -- int watch add to 10.0.0.0/8
x "$HOPMARK" int watch add proto udp dport 5000 2>"$HM_TMP/e.err"
hm_check "int_watch_duplicate_refused" "1 1" "$? $(grep -c 'already, index 2' "$HM_TMP/e.err")"
x "$HOPMARK" int watch del 1
hm_check "int_watch_del_moves_later_up" '[[0, 6], [1, 17]]' \
	"$(show '[[r["index"], r["proto"]] for r in d["watch"]]')"
x "$HOPMARK" int watch del 5 2>"$HM_TMP/e.err"
hm_check "int_watch_del_missing_index" "1 1" "$? $(grep -c 'no rule 5' "$HM_TMP/e.err")"
for i in $(seq 3 16); do x "$HOPMARK" int watch add proto $((100 + i)) >/dev/null; done
x "$HOPMARK" int watch add proto 99 2>"$HM_TMP/e.err"
hm_check "int_watch_at_most_16_rules" "1 16 1" \
	"$? $(show 'len(d["watch"])') $(grep -c 'full (16 rules)' "$HM_TMP/e.err")"
x "$HOPMARK" int watch flush
hm_check "int_watch_flush" "[]" "$(show 'd["watch"]')"

# ---- sample
x "$HOPMARK" int sample packet 100
hm_check "int_sample_packet" "packet 100" "$(show '"%s %s" % (d["sample"]["mode"], d["sample"]["n"])')"
x "$HOPMARK" int sample flow 16 seed 7
hm_check "int_sample_flow_seed" "flow 16 7" \
	"$(show '"%s %s %s" % (d["sample"]["mode"], d["sample"]["n"], d["sample"]["seed"])')"
err sample_flow_0 "0" -- int sample flow 0
err sample_unknown "some" -- int sample some
err sample_seed_with_packet "seed" -- int sample packet 4 seed 3

# ---- report
x "$HOPMARK" int report set collector 10.0.0.9 port 32766 src 10.0.0.1 sport 4000 coalesce 4
hm_check "int_report_set" '{"collector": "10.0.0.9", "port": 32766, "src": "10.0.0.1", "sport": 4000, "coalesce": 4}' \
	"$(show 'd["report"]')"
err report_collector_not_address "collector9" -- int report set collector collector9 port 1
err report_src_other_family "2001:db8::1" -- int report set collector 10.0.0.9 port 1 src 2001:db8::1
err report_coalesce_256 "256" -- int report set collector 10.0.0.9 port 1 coalesce 256
err report_coalesce_0 "0" -- int report set collector 10.0.0.9 port 1 coalesce 0
x "$HOPMARK" int report set collector 10.0.0.9 2>"$HM_TMP/e.err"
hm_check "int_report_port_required" "2 1" "$? $(grep -c '"port" is required' "$HM_TMP/e.err")"
x "$HOPMARK" int set signal udp 32766 2>"$HM_TMP/e.err"
hm_check "int_report_port_is_not_the_int_port" "2 1" "$? $(grep -c '^Error: argument "32766" is wrong.*collector' "$HM_TMP/e.err")"
x "$HOPMARK" int report del
hm_check "int_report_del" "None" "$(show 'd["report"]')"
x "$HOPMARK" int report set collector 2001:db8:9::1 port 32766
hm_check "int_report_ipv6" "2001:db8:9::1 None 0 1" \
	"$(show 'r=d["report"]; "%s %s %s %s" % (r["collector"], r["src"], r["sport"], r["coalesce"])')"

# ---- enable / disable: the programs, where tc shows them
P_IN=$((0x4820)) P_SRC=$((0x4821)) P_TR=$((0x4822)) P_SINK=$((0x4823))
x "$HOPMARK" int enable dev v0 role source 2>"$HM_TMP/en.err"
hm_check "int_enable_source_ok" "0 " "$? $(cat "$HM_TMP/en.err")"
hm_check "int_enable_source_tc_egress" "hm_int_source pref $P_SRC handle 0x696e;" "$(tcf v0 egress)"
hm_check "int_enable_source_nothing_at_ingress" "" "$(tcf v0 ingress)"
x "$HOPMARK" int enable dev v0 role sink
hm_check "int_enable_sink_tc_ingress" "hm_int_sink pref $P_SINK handle 0x696e;" "$(tcf v0 ingress)"
x "$HOPMARK" int enable dev v2 role transit rate 10g mtu 9000
hm_check "int_enable_transit_tc_ingress" "hm_int_ingress pref $P_IN handle 0x696e;" "$(tcf v2 ingress)"
hm_check "int_enable_transit_tc_egress" "hm_int_transit pref $P_TR handle 0x696e;" "$(tcf v2 egress)"
hm_check "int_enable_show_roles" '[["v0", ["source", "sink"]], ["v2", ["transit"]]]' \
	"$(show 'sorted([i["dev"], i["roles"]] for i in d["interfaces"])')"
hm_check "int_enable_show_mtu_rate" "9000 9000 10000000000" \
	"$(show 'i=[i for i in d["interfaces"] if i["dev"] == "v2"][0]; "%s %s %s" % (i["mtu"], i["mtu_configured"], i["rate_bps"])')"
# The ids show gives are the ones tc shows.
tcid=$(x tc filter show dev v2 egress | sed -n 's/.* id \([0-9]*\) .*/\1/p' | head -1)
hm_check "int_enable_show_program_ids" "hm_int_ingress tc ingress True;hm_int_transit tc egress True $tcid" \
	"$(show 'i=[i for i in d["interfaces"] if i["dev"] == "v2"][0]; ";".join("%s %s %s" % (p["name"], p["hook"], p["attached"]) for p in i["programs"]) + " %s" % i["programs"][1]["id"]')"
x "$HOPMARK" int enable dev v2 role xd
hm_check "int_enable_transit_and_xd_add_up" '["transit", "xd"] 2' \
	"$(show 'i=[i for i in d["interfaces"] if i["dev"] == "v2"][0]; "%s %s" % (json.dumps(i["roles"]), len(i["programs"]))')"
hm_check "int_enable_xd_one_transit_filter" "hm_int_transit pref $P_TR handle 0x696e;" "$(tcf v2 egress)"
x "$HOPMARK" int disable dev v2 role transit
# xd needs the arrival stamp too (hop latency, ingress timestamp of its reports).
hm_check "int_disable_transit_keeps_xd_programs" \
	"hm_int_ingress pref $P_IN handle 0x696e;|hm_int_transit pref $P_TR handle 0x696e;" \
	"$(tcf v2 ingress)|$(tcf v2 egress)"
err enable_role_unknown "router" -- int enable dev v0 role router
err enable_mtu_too_small "67" -- int enable dev v0 role source mtu 67
err enable_rate "fast" -- int enable dev v0 role source rate fast
x "$HOPMARK" int enable role source 2>"$HM_TMP/e.err"
hm_check "int_enable_dev_required" "2 1" "$? $(grep -c '"dev" is required' "$HM_TMP/e.err")"
x "$HOPMARK" int enable dev nosuchdev role source 2>"$HM_TMP/e.err"
hm_check "int_enable_bad_device" "1 1" "$? $(grep -c '^Error: argument "nosuchdev" is wrong: no such device' "$HM_TMP/e.err")"
# A filter removed behind hopmark's back is attached again by enable.
x tc filter del dev v0 egress pref $P_SRC
hm_check "int_enable_show_not_attached" "False None" \
	"$(show 'p=[p for i in d["interfaces"] if i["dev"] == "v0" for p in i["programs"] if p["name"] == "hm_int_source"][0]; "%s %s" % (p["attached"], p["id"])')"
x "$HOPMARK" int enable dev v0 role source
hm_check "int_enable_again_repairs" "hm_int_source pref $P_SRC handle 0x696e;" "$(tcf v0 egress)"

x "$HOPMARK" int disable dev v0 role sink
hm_check "int_disable_role_sink_detaches_ingress" "|hm_int_source pref $P_SRC handle 0x696e;" \
	"$(tcf v0 ingress)|$(tcf v0 egress)"
hm_check "int_disable_role_keeps_the_other" '["source"]' \
	"$(show '[i["roles"] for i in d["interfaces"] if i["dev"] == "v0"][0]')"
x "$HOPMARK" int disable dev v2
hm_check "int_disable_dev_detaches_all" "|" "$(tcf v2 ingress)|$(tcf v2 egress)"
hm_check "int_disable_dev_forgets_roles" '["v0"]' "$(show '[i["dev"] for i in d["interfaces"]]')"
x "$HOPMARK" int disable dev v2
hm_check "int_disable_twice_ok" 0 $?
x "$HOPMARK" int enable dev v2 role xd
hm_check "int_enable_xd_alone_stamps_and_reports" \
	"hm_int_ingress pref $P_IN handle 0x696e;|hm_int_transit pref $P_TR handle 0x696e;" \
	"$(tcf v2 ingress)|$(tcf v2 egress)"
x "$HOPMARK" int disable dev v2

# ---- xdp-source: XDP on the ingress device, where it can apply
xdp_prog() { x ip -d link show dev "$1" | sed -n 's/.*prog\/xdp id \([0-9]*\) name \([a-z_]*\).*/\2 \1/p'; }
err xdp_source_dscp_domain "xdp-source" -- int enable dev v2 role xdp-source
hm_check "int_xdp_refused_attaches_nothing" "|[]" \
	"$(xdp_prog v2)|$(show '[i["dev"] for i in d["interfaces"] if "xdp-source" in i["roles"]]')"
x "$HOPMARK" int set signal udp 5000
x "$HOPMARK" int enable dev v2 role xdp-source 2>"$HM_TMP/x.err"
hm_check "int_xdp_enable_ok" "0 " "$? $(cat "$HM_TMP/x.err")"
XID=$(xdp_prog v2 | cut -d' ' -f2)
hm_check "int_xdp_ip_link_shows_hm_int_xdp_src" "hm_int_xdp_src $XID" "$(xdp_prog v2)"
hm_check "int_xdp_show_program" "[\"xdp-source\"] hm_int_xdp_src xdp True $XID driver" \
	"$(show 'i=[i for i in d["interfaces"] if i["dev"] == "v2"][0]; p=i["programs"][0]; "%s %s %s %s %s %s" % (json.dumps(i["roles"]), p["name"], p["hook"], p["attached"], p["id"], p["xdp_mode"])')"
hm_check "int_xdp_show_text" 1 "$(x "$HOPMARK" int show | grep -cx "    hm_int_xdp_src xdp id $XID mode driver")"
hm_check "int_xdp_nothing_at_tc" "|" "$(tcf v2 ingress)|$(tcf v2 egress)"
if command -v ethtool >/dev/null; then
	hm_check "int_xdp_peer_segments_in_software" "off" \
		"$(x ethtool -k v3 | awk '/^tcp-segmentation-offload:/ { print $2 }')"
else
	hm_skip "int_xdp_peer_segments_in_software" "needs ethtool"
fi
x "$HOPMARK" int enable dev v2 role xdp-source
hm_check "int_xdp_enable_again_replaces_in_place" "hm_int_xdp_src" "$(xdp_prog v2 | cut -d' ' -f1)"
err xdp_source_and_sink "sink" -- int enable dev v2 role sink
x "$HOPMARK" int enable dev v2 role sink 2>"$HM_TMP/e.err"
hm_check "int_xdp_sink_refusal_says_why" 1 "$(grep -c 'cannot be both the XDP source and a sink' "$HM_TMP/e.err")"
hm_check "int_xdp_sink_refused_nothing_at_ingress" "" "$(tcf v2 ingress)"
err xdp_set_mode_mx "mx" -- int set mode mx
err xdp_set_signal_dscp "0x17" -- int set signal dscp 0x17
x "$HOPMARK" int set signal dscp 0x17 2>"$HM_TMP/e.err"
hm_check "int_xdp_set_refusal_names_the_device" 1 "$(grep -c 'v2 runs the XDP source: .*signals by DSCP.*hopmark int disable dev v2 role xdp-source' "$HM_TMP/e.err")"
hm_check "int_xdp_set_refused_domain_unchanged" "md udp 5000" \
	"$(show 'c=d["config"]; "%s %s %s" % (c["mode"], c["signal"], c["udp_port"])')"
x "$HOPMARK" int set max-hops 6
hm_check "int_xdp_set_of_other_words_ok" "0 6" "$? $(show 'd["config"]["max_hops"]')"
# Another program at XDP (the IOAM transit's ingress half) is never replaced.
x "$HOPMARK" ioam transit enable dev v3 ingress xdp >/dev/null 2>&1
OTHER=$(xdp_prog v3)
x "$HOPMARK" int enable dev v3 role xdp-source 2>"$HM_TMP/e.err"
hm_check "int_xdp_other_xdp_program_refused" "1 1 ${OTHER%% *} []" \
	"$? $(grep -c "^Error: v3 already runs XDP program \"hm_transit_in\"" "$HM_TMP/e.err") $(xdp_prog v3 | cut -d' ' -f1) $(show '[i["dev"] for i in d["interfaces"] if i["dev"] == "v3"]')"
x "$HOPMARK" ioam transit disable dev v3 >/dev/null 2>&1
x "$HOPMARK" int disable dev v2 role xdp-source
hm_check "int_xdp_disable_detaches" "|[]" "$(xdp_prog v2)|$(show '[i["dev"] for i in d["interfaces"] if i["dev"] == "v2"]')"
x "$HOPMARK" int set signal dscp 0x17
hm_check "int_xdp_gone_set_dscp_ok" "0" "$?"

# ---- drops on / off: the node-wide hm_int_drop, its link pinned
LINK=$BPFFS/tc/globals/hm_int_drop_link
link_prog() { x bpftool -j link show pinned "$LINK" 2>/dev/null | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["prog_id"])' 2>/dev/null; }
prog_name() { x bpftool -j prog show id "$1" 2>/dev/null | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["name"])' 2>/dev/null || echo gone; }
# The kernel frees a tracing link's program after an RCU grace period, not
# when the last reference goes: give it up to 5 s, then say what is left.
prog_gone() {
	local i
	for i in $(seq 50); do
		[ "$(prog_name "$1")" = gone ] && { echo gone; return; }
		sleep 0.1
	done
	prog_name "$1"
}
hm_check "int_drops_off_at_first" "False None" "$(show 'x=d["drops"]; "%s %s" % (x["enabled"], x["id"])')"
x "$HOPMARK" int drops on 2>"$HM_TMP/d.err"
hm_check "int_drops_on_ok" "0 " "$? $(cat "$HM_TMP/d.err")"
DID=$(link_prog)
hm_check "int_drops_on_link_runs_hm_int_drop" "hm_int_drop" "$(prog_name "${DID:-0}")"
hm_check "int_drops_show_json" "True hm_int_drop tracing kfree_skb ${DID} $LINK" \
	"$(show 'x=d["drops"]; "%s %s %s %s %s" % (x["enabled"], x["name"], x["hook"], x["id"], x["link"])')"
hm_check "int_drops_show_text" 1 "$(x "$HOPMARK" int show | grep -cx "drops on hm_int_drop tracing kfree_skb id $DID")"
hm_check "int_drops_counters_with_s" '["drop_report", "drop_sink_discard"]' \
	"$(show 'sorted(d["drops"]["counters"])' -s)"
x "$HOPMARK" int drops on
DID2=$(link_prog)
hm_check "int_drops_on_again_replaces_the_link" "hm_int_drop gone" \
	"$(prog_name "${DID2:-0}") $([ "$DID2" != "$DID" ] && prog_gone "$DID" || echo same)"
err drops_unknown_value "maybe" -- int drops maybe
err drops_extra_word "now" -- int drops on now
x "$HOPMARK" int drops 2>"$HM_TMP/e.err"
hm_check "int_drops_value_required" "2 1" "$? $(grep -c '"on or off" is required' "$HM_TMP/e.err")"
x "$HOPMARK" int drops off
rc=$?
hm_check "int_drops_off_frees_link_and_program" "0 no-pin gone" \
	"$rc $([ -e "$LINK" ] && echo pin || echo no-pin) $(prog_gone "${DID2:-0}")"
hm_check "int_drops_off_show" "False None" "$(show 'x=d["drops"]; "%s %s" % (x["enabled"], x["id"])')"
hm_check "int_drops_off_text" 1 "$(x "$HOPMARK" int show | grep -cx 'drops off hm_int_drop tracing kfree_skb')"
x "$HOPMARK" int drops off
hm_check "int_drops_off_twice_ok" 0 $?

# ---- MTU warnings (the trace of max-hops x Hop ML x 4 + 16 against the source's MTU)
x "$HOPMARK" int set signal dscp 0x17 instructions 0xff80 max-hops 21 2>"$HM_TMP/w.err"
hm_check "int_mtu_warning_none_at_1500" "0 0" "$? $(grep -c Warning "$HM_TMP/w.err")"
x ip link set v0 mtu 1000
x "$HOPMARK" int set max-hops 21 2>"$HM_TMP/w.err"
hm_check "int_mtu_warning_set" "0 1" \
	"$? $(grep -c '^Warning: the INT-MD trace takes 1024 bytes after 21 hops (bitmap 0xff80, Hop ML 12, NPT 0) and with 28 bytes of headers cannot fit the MTU 1000 of v0; at that MTU it fits 19 hops' "$HM_TMP/w.err")"
x "$HOPMARK" int watch add proto 7 2>"$HM_TMP/w.err" >/dev/null && x "$HOPMARK" int watch flush
hm_check "int_mtu_warning_only_from_set_and_enable" "0" "$(grep -c Warning "$HM_TMP/w.err")"
x "$HOPMARK" int set signal udp 5000 2>"$HM_TMP/w.err"
hm_check "int_mtu_warning_npt2_counts_8" 1 "$(grep -c 'takes 1032 bytes after 21 hops (bitmap 0xff80, Hop ML 12, NPT 2)' "$HM_TMP/w.err")"
x "$HOPMARK" int enable dev v0 role source mtu 1500 2>"$HM_TMP/w.err"
hm_check "int_mtu_warning_none_with_mtu_1500" "0 0" "$? $(grep -c Warning "$HM_TMP/w.err")"
x "$HOPMARK" int enable dev v0 role source mtu 1000 2>"$HM_TMP/w.err"
hm_check "int_mtu_warning_enable" "0 1" "$? $(grep -c '^Warning: the INT-MD trace .* cannot fit the MTU 1000 of v0' "$HM_TMP/w.err")"
x "$HOPMARK" int set mode mx 2>"$HM_TMP/w.err"
hm_check "int_mtu_warning_none_in_mx" "0 0" "$? $(grep -c Warning "$HM_TMP/w.err")"
x "$HOPMARK" int set mode md 2>/dev/null
x "$HOPMARK" int set signal dscp 0x17 instructions 0x9000 max-hops 8 2>/dev/null
x ip link set v0 mtu 1500
x "$HOPMARK" int enable dev v0 role source mtu 0 >/dev/null 2>&1

# ---- show -s: the counters summed over the CPUs
x ping -c 5 -i 0.2 -W 1 10.99.0.2 >/dev/null 2>&1
for i in 1 2 3 4 5; do x bash -c 'echo int >/dev/udp/10.99.0.2/9' 2>/dev/null; done
NAMES=$(show 'sorted([i for i in d["interfaces"] if i["dev"] == "v0"][0]["counters"])' -s)
hm_check "int_stats_every_counter" \
	"$(sed -n '/^enum int_counter {/,/INT_CNT_MAX,/p' "$HM_TOP/lib/int/int_maps.h" | grep -c '^	INT_CNT_[A-Z0-9_]*,' | awk '{print $1 - 1}')" \
	"$("$PY" -c 'import json,sys; print(len(json.loads(sys.argv[1])))' "$NAMES" 2>&1)"
hm_check "int_stats_not_without_s" "False" "$(show '"counters" in d["interfaces"][0]')"
IFX=$(x ip -o link show v0 | cut -d: -f1)
x bpftool -j map dump pinned "$BPFFS/tc/globals/int_stats" >"$HM_TMP/stats.json" 2>"$HM_TMP/b.err"
x "$HOPMARK" -j -s int show >"$HM_TMP/show.json"
hm_check "int_stats_equal_bpftool_sums" "equal, some non-zero" "$("$PY" -c '
import json, sys
dump = json.load(open(sys.argv[1]))
show = json.load(open(sys.argv[2]))
ifx = int(sys.argv[3])
cnt = [i for i in show["interfaces"] if i["ifindex"] == ifx][0]["counters"]
def u(b):	# bpftool -j prints raw bytes as hex strings, little-endian here
    return [int.from_bytes(bytes(int(x, 16) for x in b[i:i + 8]), "little") for i in range(0, len(b), 8)]
sums = None
for e in dump:
    if "formatted" in e:
        k = e["formatted"]["key"]
        vals = [v["value"]["cnt"] for v in e["formatted"]["values"]]
    else:
        k = int.from_bytes(bytes(int(x, 16) for x in e["key"]), "little")
        vals = [u(v["value"]) for v in e["values"]]
    if k == ifx:
        sums = [sum(v[j] for v in vals) for j in range(len(vals[0]))]
if sums is None:
    sys.exit(print("no int_stats entry for ifindex %d in bpftool dump" % ifx))
names = list(cnt)
got = [cnt[n] for n in names]
print(("equal" if got == sums else "show %r, bpftool %r" % (got, sums)) + ",",
      "some non-zero" if any(sums) else "all zero")
' "$HM_TMP/stats.json" "$HM_TMP/show.json" "$IFX" 2>&1 | tail -1)"

# ---- round trip: the words of show, on a node with an empty bpffs
x "$HOPMARK" int set mode mx signal udp 6000 instructions node-id,l1-ports,egress-ts max-hops 12 \
	ds-id 3 ds-instruction 9 hw-id 5 report-trunc 512 queue-threshold 65536
x "$HOPMARK" int watch add src 192.0.2.0/24 dst 198.51.100.0/24 proto tcp sport 1024/0xfc00 dport 443 synthetic >/dev/null
x "$HOPMARK" int watch add dst 2001:db8:1::/48 proto 50 >/dev/null
x "$HOPMARK" int watch add proto udp >/dev/null
x "$HOPMARK" int sample flow 32 seed 99
x "$HOPMARK" int report set collector 10.0.0.9 port 32766 src 10.0.0.1 sport 7 coalesce 8
x "$HOPMARK" int show >"$HM_TMP/text"
rt_ok=yes
while read -r line; do
	case "$line" in
	"int set "*)	x2 "$HOPMARK" int set ${line#int set } 2>>"$HM_TMP/rt.err" ||
				rt_ok="no: $line" ;;
	watch\ [0-9]*:*) x2 "$HOPMARK" int watch add ${line#*: } >/dev/null 2>>"$HM_TMP/rt.err" ||
				rt_ok="no: $line" ;;
	"sample "*|"report set "*) x2 "$HOPMARK" int ${line} 2>>"$HM_TMP/rt.err" ||
				rt_ok="no: $line" ;;
	esac
done <"$HM_TMP/text"
hm_check "int_round_trip_words_accepted" yes "$rt_ok"
hm_check "int_round_trip_text_has_every_part" "1 3 1 1" \
	"$(grep -c '^int set mode mx signal udp 6000 instructions node-id,l1-ports,egress-ts max-hops 12 ds-id 3 ds-instruction 9 hw-id 5 report-trunc 512 queue-threshold 65536$' "$HM_TMP/text") $(grep -c '^watch [0-9]*:' "$HM_TMP/text") $(grep -c '^sample flow 32 seed 99$' "$HM_TMP/text") $(grep -c '^report set collector 10.0.0.9 port 32766 src 10.0.0.1 sport 7 coalesce 8$' "$HM_TMP/text")"
x "$HOPMARK" -j int show >"$HM_TMP/a.json"
x2 "$HOPMARK" -j int show >"$HM_TMP/b.json"
hm_check "int_round_trip_same_json" "same" "$("$PY" -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
a.pop("interfaces"); b.pop("interfaces"); a.pop("drops"); b.pop("drops")
print("same" if a == b else "differ: %r vs %r" % (a, b))' "$HM_TMP/a.json" "$HM_TMP/b.json" 2>&1)"
x bpftool -j map dump pinned "$BPFFS/tc/globals/int_cfg" >"$HM_TMP/a.map" 2>&1
x2 bpftool -j map dump pinned "$BPF2/tc/globals/int_cfg" >"$HM_TMP/b.map" 2>&1
hm_check "int_round_trip_same_bytes" "same" "$("$PY" -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
print("same" if a == b and a else "differ: %r vs %r" % (a, b))' "$HM_TMP/a.map" "$HM_TMP/b.map" 2>&1 | tail -1)"
# ---- a DSCP mask over PBT-M's mark bits is refused (pbt_int_dscp_check()).
x "$HOPMARK" int set signal udp 5000 >"$HM_TMP/c.err" 2>&1 &&
	x "$HOPMARK" postcard set mark-ipv4 tos 0x40 mark-ipv6 tc 0x04 >>"$HM_TMP/c.err" 2>&1
hm_check "int_pbt_setup" "0" "$?$(cat "$HM_TMP/c.err")"
err pbt_tc_bit_under_default_dscp "0x17/0x3f" -- int set signal dscp 0x17/0x3f
err pbt_tc_bit_under_default_mask "0x17" -- int set signal dscp 0x17
err pbt_tos_bit "0x10/0x10" -- int set signal dscp 0x10/0x10
x "$HOPMARK" int set signal dscp 0x17/0x3f 2>"$HM_TMP/c.err"
hm_check "int_pbt_error_names_the_conflict" "1" \
	"$(grep -c "PBT-M's mark bits 0x44 lie under INT's DSCP signal 0x17/0x3f (TOS / Traffic Class 0x5c/0xfc): one DSCP bit cannot serve both" "$HM_TMP/c.err")"
hm_check "int_pbt_refusal_changes_nothing" "udp 5000" \
	"$(show 'c=d["config"]; "%s %s" % (c["signal"], c["udp_port"])')"
x "$HOPMARK" int set signal dscp 0x26/0x2e 2>"$HM_TMP/c.err"
hm_check "int_pbt_mask_clear_of_the_bits_accepted" "0 dscp 38 46" \
	"$? $(cat "$HM_TMP/c.err")$(show 'c=d["config"]; "%s %s %s" % (c["signal"], c["dscp"], c["dscp_mask"])')"
hm_done
