#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_pbt_cli.sh - `hopmark postcard` (hopmark-postcard(8)) on one
# throwaway node:
#
#   pbt_help_*			`help` answers at every level, exit 0
#   pbt_show_before_setup_*	show with no PBT-M map yet: exit 1, ENOENT
#   pbt_set_*			settings are stored and shown with -j (parsed
#				with python3's json): defaults, mark methods
#				and bits, Alternate Marking, meter, triggers
#   pbt_err_*			bad values are refused, exit 2, the error
#				naming the argument (ECN bits, several bits, a
#				bit shared with Alternate Marking, ...); with
#				-j one error object carrying the text's message;
#				a refused command changes nothing
#   pbt_watch_*, pbt_sample_*	the access list (hopmark int watch's words and
#				checks) and sampling, interval included
#   pbt_export_*		the IPFIX collector's settings, set and del
#   pbt_template_*		per-flow templates: exact flows only, fields,
#				timeout as CLOCK_MONOTONIC expires_ns, ids,
#				del by flow and by id, flush
#   pbt_gone_*			a deleted interface's pbt_ifcfg entry is forgotten
#				(zeroed: the map is an array), and a device
#				that takes its ifindex has no role
#   pbt_enable_ifindex_limit_*	enable on ifindex 2000 (>= PBT_IFINDEX_LIMIT,
#				1024) exits 1 naming both, nothing attached
#   pbt_enable_*, pbt_disable_*	every role attaches exactly its programs (tc
#				filter show: name, handle 0x7062, the hook's
#				pref; ip link: XDP), roles share them, xdp moves
#				the ingress program, disable detaches what no
#				remaining role needs
#   pbt_stats_*			show -s: every counter of pbt_counter_names,
#				equal to bpftool's per-CPU values summed, and
#				the same in hopmark -s link show
#   pbt_round_trip_*		the words show prints, given to a node with an
#				empty bpffs, give the same bytes in pbt_cfg[0]
#   pbt_int_*, pbt_err_int_*	with INT signalling by DSCP on the node, a mark
#				bit under INT's mask is refused (exit 2, the bit
#				named, the conflict in the message, nothing
#				changed); bits outside it, or INT by UDP port,
#				are accepted
#
# TAP output; skip (exit 4, or 0 under prove) without root or netns.
set -u
HM_PFX=${HM_PFX:-hmt-pbc$$}
. "$(dirname "$0")/../lib.sh"

HM_CLI_OBJ=postcard
HM_CLI_TAG=pbt
. "$(dirname "$0")/../cli_lib.sh"

# xdpof DEV - the name of the XDP program on DEV, "none" without one.
xdpof()
{
	x ip -d link show dev "$1" | sed -n 's/.*prog\/xdp id [0-9]* name \([a-z_]*\).*/\1/p' |
		grep . || echo none
}

# progs DEV - what runs on DEV: "xdp=NAME egress=FILTERS ingress=FILTERS".
progs() { echo "xdp=$(xdpof "$1") egress=$(tcf "$1" egress) ingress=$(tcf "$1" ingress)"; }

EG="hm_pbt_egress pref $((0x4831)) handle 0x7062;"
IN="hm_pbt_ingress pref $((0x4830)) handle 0x7062;"

# ---- help at every level
for words in "" "set" "watch" "watch add" "watch del" "watch flush" "sample" "export" \
	"export set" "export del" "enable" "disable" "template" "template add" \
	"template del" "template flush" "template show" "show"; do
	out=$(x "$HOPMARK" postcard $words help 2>&1)
	rc=$?
	w=${words:-postcard}
	hm_check "pbt_help_${w// /_}" "0 yes" "$rc $(grep -q '^Usage: hopmark postcard set' <<<"$out" &&
		echo yes || echo "no: ${out:0:120}")"
done
x "$HOPMARK" postcard >/dev/null 2>&1
hm_check "pbt_help_no_command_is_usage_error" 2 $?
hm_check "pbt_help_in_hopmark_help" 1 "$(x "$HOPMARK" help | grep -c '^ *hopmark postcard {')"
x "$HOPMARK" postcard bogus >/dev/null 2>&1
hm_check "pbt_help_unknown_command_is_usage_error" 2 $?

# ---- nothing there yet; a command line that does not parse creates nothing
x "$HOPMARK" postcard set mark-ipv4 tos 0x01 >/dev/null 2>&1
x "$HOPMARK" -j postcard show >"$HM_TMP/o" 2>/dev/null
hm_check "pbt_show_before_setup_fails" "1 2" "$? $("$PY" -c '
import json, sys; print(json.load(open(sys.argv[1]))["error"]["errno"])' "$HM_TMP/o" 2>&1)"
hm_check "pbt_show_before_setup_no_map_made_by_a_bad_command" "absent" \
	"$([ -e "$BPFFS/tc/globals/pbt_cfg" ] && echo present || echo absent)"

# ---- enable before any setting: works, and says the domain is not configured
x "$HOPMARK" postcard enable dev v2 role egress 2>"$HM_TMP/s.err"
hm_check "pbt_enable_unconfigured_warns" "0 1 False" \
	"$? $(grep -c '^Warning: the PBT-M domain is not configured: v2 counts its packets as not_configured' "$HM_TMP/s.err") $(show 'd["config"]["configured"]')"
x "$HOPMARK" postcard disable dev v2

# ---- set
hm_check "pbt_set_defaults_before_configured" \
	"False reserved 0x04 tc 0x04 0x00 0 0 [] 1000" \
	"$(show 'c=d["config"]; " ".join(map(str, [c["configured"], c["mark_ipv4"], c["ipv4_tos_bit"], c["mark_ipv6"], c["ipv6_tc_bit"], c["altmark"], c["meter_rate"], c["meter_burst"], c["triggers"], c["hold_ms"]]))')"
x "$HOPMARK" postcard set mark-ipv4 reserved 2>"$HM_TMP/s.err"
hm_check "pbt_set_first_command_ok" "0 True" "$? $(cat "$HM_TMP/s.err")$(show 'd["config"]["configured"]')"
x "$HOPMARK" postcard set mark-ipv4 tos 0x10 mark-ipv6 tc 0x80 altmark 0x0c
hm_check "pbt_set_tos_and_tc_bits" "tos 0x10 tc 0x80 0x0c" \
	"$(show 'c=d["config"]; " ".join([c["mark_ipv4"], c["ipv4_tos_bit"], c["mark_ipv6"], c["ipv6_tc_bit"], c["altmark"]])')"
x "$HOPMARK" postcard set mark-ipv6 oflag
hm_check "pbt_set_oflag_keeps_the_tc_bit" "oflag 0x80" \
	"$(show 'c=d["config"]; c["mark_ipv6"] + " " + c["ipv6_tc_bit"]')"
x "$HOPMARK" postcard set mark-ipv6 oflag tc 0x20
hm_check "pbt_set_oflag_with_its_tc_bit" "oflag 0x20" \
	"$(show 'c=d["config"]; c["mark_ipv6"] + " " + c["ipv6_tc_bit"]')"
x "$HOPMARK" postcard set meter 1000
hm_check "pbt_set_meter_default_burst_a_tenth" "1000 100" \
	"$(show 'c=d["config"]; "%s %s" % (c["meter_rate"], c["meter_burst"])')"
x "$HOPMARK" postcard set meter 500 burst 7 trigger ce trigger qdepth 30000 hold 250
hm_check "pbt_set_meter_burst_triggers_hold" "500 7 ['ce', 'qdepth'] 30000 250" \
	"$(show 'c=d["config"]; " ".join(map(str, [c["meter_rate"], c["meter_burst"], c["triggers"], c["trigger_qdepth"], c["hold_ms"]]))')"
x "$HOPMARK" postcard set meter off trigger off
hm_check "pbt_set_meter_and_trigger_off" "0 0 []" \
	"$(show 'c=d["config"]; " ".join(map(str, [c["meter_rate"], c["meter_burst"], c["triggers"]]))')"
hm_check "pbt_set_abbreviated_words" "0 reserved" \
	"$(x "$HOPMARK" po se mark-ipv4 res >/dev/null 2>&1; echo $?) $(show 'd["config"]["mark_ipv4"]')"

# ---- refusals name the argument, and change nothing
x "$HOPMARK" postcard set mark-ipv4 tos 0x10 altmark 0x0c
err ecn_bit "0x01" -- postcard set mark-ipv4 tos 0x01
err ecn_bit_ipv6 "0x02" -- postcard set mark-ipv6 tc 0x02
err two_bits "0x0c" -- postcard set mark-ipv4 tos 0x0c
err no_bit "0" -- postcard set mark-ipv6 tc 0
err above_8_bits "0x100" -- postcard set mark-ipv4 tos 0x100
err v4_method_unknown "flowlabel" -- postcard set mark-ipv4 flowlabel
err v6_method_unknown "flowlabel" -- postcard set mark-ipv6 flowlabel
err v4_bit_is_altmark "0x04" -- postcard set altmark 0x0c mark-ipv4 tos 0x04
err altmark_takes_the_v4_bit "0x30" -- postcard set altmark 0x30
err v6_bit_is_altmark "0x08" -- postcard set mark-ipv6 tc 0x08
err altmark_ecn "0x0d" -- postcard set altmark 0x0d
err meter_not_a_number "fast" -- postcard set meter fast
err meter_above_max "10000001" -- postcard set meter 10000001
err burst_without_rate "5" -- postcard set meter off burst 5
err burst_0 "0" -- postcard set meter 10 burst 0
err trigger_unknown "loss" -- postcard set trigger loss
err trigger_off_beside_another "off" -- postcard set trigger ce trigger off
err qdepth_0 "0" -- postcard set trigger qdepth 0
err hold_0 "0" -- postcard set hold 0
err unknown_word "bogus" -- postcard set bogus 1
x "$HOPMARK" postcard set meter 5 meter 6 2>"$HM_TMP/e.err"
hm_check "pbt_err_duplicate_meter_names_the_value" "2 1" \
	"$? $(grep -c '^Error: duplicate "meter": "6" is the second value' "$HM_TMP/e.err")"
x "$HOPMARK" postcard set mark-ipv6 tc 0x08 2>"$HM_TMP/e.err"
hm_check "pbt_err_altmark_says_why" 1 "$(grep -c 'one of the Alternate Marking bits 0x0c (RFC 9341)' "$HM_TMP/e.err")"
x "$HOPMARK" postcard set mark-ipv4 tos 0x01 2>"$HM_TMP/e.err"
hm_check "pbt_err_ecn_says_why" 1 "$(grep -c 'ECN is end to end (RFC 3168)' "$HM_TMP/e.err")"
hm_check "pbt_err_left_settings_unchanged" "tos 0x10 oflag 0x20 0x0c 0" \
	"$(show 'c=d["config"]; " ".join(map(str, [c["mark_ipv4"], c["ipv4_tos_bit"], c["mark_ipv6"], c["ipv6_tc_bit"], c["altmark"], c["meter_rate"]]))')"
x "$HOPMARK" postcard set altmark none mark-ipv4 reserved

# ---- watch: hopmark int watch's words
x "$HOPMARK" postcard watch add src 10.0.0.0/8 proto tcp dport 80 >"$HM_TMP/w.out"
hm_check "pbt_watch_add_prints_index" "watch 0: src 10.0.0.0/8 proto tcp dport 80" "$(cat "$HM_TMP/w.out")"
x "$HOPMARK" postcard watch add dst 2001:db8::/32 proto udp sport 0x1000/0xf000 >/dev/null
x "$HOPMARK" postcard watch add proto udp dport 5000 >/dev/null
hm_check "pbt_watch_rules_json" \
	'[[0, 4, "10.0.0.0/8", null, 6, null, 80], [1, 6, null, "2001:db8::/32", 17, 4096, null], [2, null, null, null, 17, null, 5000]]' \
	"$(show '[[r["index"], r["family"], r.get("src"), r.get("dst"), r["proto"], r.get("sport"), r.get("dport")] for r in d["watch"]]')"
err watch_host_bits "10.1.0.0/8" -- postcard watch add src 10.1.0.0/8
err watch_mixed_families "2001:db8::/32" -- postcard watch add src 10.0.0.0/8 dst 2001:db8::/32
err watch_ports_without_proto "80" -- postcard watch add dport 80
err watch_proto_0 "0" -- postcard watch add proto 0
err watch_synthetic_is_int_only "synthetic" -- postcard watch add proto udp synthetic
x "$HOPMARK" postcard watch add proto udp dport 5000 2>"$HM_TMP/e.err"
hm_check "pbt_watch_duplicate_refused" "1 1" "$? $(grep -c 'already, index 2' "$HM_TMP/e.err")"
x "$HOPMARK" postcard watch del 1
hm_check "pbt_watch_del_moves_later_up" '[[0, 6], [1, 17]]' \
	"$(show '[[r["index"], r["proto"]] for r in d["watch"]]')"
x "$HOPMARK" postcard watch del 5 2>"$HM_TMP/e.err"
hm_check "pbt_watch_del_missing_index" "1 1" "$? $(grep -c 'no rule 5' "$HM_TMP/e.err")"
for i in $(seq 3 16); do x "$HOPMARK" postcard watch add proto $((100 + i)) >/dev/null; done
x "$HOPMARK" postcard watch add proto 99 2>"$HM_TMP/e.err"
hm_check "pbt_watch_at_most_16_rules" "1 16 1" \
	"$? $(show 'len(d["watch"])') $(grep -c 'full (16 rules)' "$HM_TMP/e.err")"
x "$HOPMARK" postcard watch flush
hm_check "pbt_watch_flush" "[]" "$(show 'd["watch"]')"

# ---- sample
x "$HOPMARK" postcard sample packet 100
hm_check "pbt_sample_packet" "packet 100 0" "$(show 's=d["sample"]; "%s %s %s" % (s["mode"], s["n"], s["interval_ms"])')"
x "$HOPMARK" postcard sample flow 8 seed 77
hm_check "pbt_sample_flow_seed" "flow 8 77" "$(show 's=d["sample"]; "%s %s %s" % (s["mode"], s["n"], s["seed"])')"
x "$HOPMARK" postcard sample interval 50
hm_check "pbt_sample_interval" "interval 50 0" "$(show 's=d["sample"]; "%s %s %s" % (s["mode"], s["interval_ms"], s["seed"])')"
err sample_interval_0 "0" -- postcard sample interval 0
err sample_interval_above_1h "3600001" -- postcard sample interval 3600001
err sample_packet_0 "0" -- postcard sample packet 0
err sample_unknown "some" -- postcard sample some
err sample_seed_only_with_flow "seed" -- postcard sample packet 4 seed 1
x "$HOPMARK" postcard sample all
hm_check "pbt_sample_all" "all 1 0" "$(show 's=d["sample"]; "%s %s %s" % (s["mode"], s["n"], s["interval_ms"])')"

# ---- export
hm_check "pbt_export_none_by_default" "None" "$(show 'd["export"]')"
x "$HOPMARK" postcard export set collector 192.0.2.9
hm_check "pbt_export_defaults" "192.0.2.9 4739 udp 0 60 0 None" \
	"$(show 'e=d["export"]; " ".join(map(str, [e["collector"], e["port"], e["transport"], e["rate"], e["refresh"], e["domain"], e["src"]]))')"
x "$HOPMARK" postcard export set collector 2001:db8::9 port 4740 transport tcp rate 50000 refresh 30 domain 7 src 2001:db8::1
hm_check "pbt_export_every_word" "2001:db8::9 4740 tcp 50000 30 7 2001:db8::1" \
	"$(show 'e=d["export"]; " ".join(map(str, [e["collector"], e["port"], e["transport"], e["rate"], e["refresh"], e["domain"], e["src"]]))')"
# export set replaces the whole export setting (hopmark-postcard.8,
# pbt.rst): the words left out go back to their defaults
x "$HOPMARK" postcard export set collector 192.0.2.9
hm_check "pbt_export_set_replaces_the_whole_setting" "192.0.2.9 4739 udp 0 60 0 None" \
	"$(show 'e=d["export"]; " ".join(map(str, [e["collector"], e["port"], e["transport"], e["rate"], e["refresh"], e["domain"], e["src"]]))')"
err export_src_family "10.0.0.1" -- postcard export set collector 2001:db8::9 src 10.0.0.1
err export_transport "sctp" -- postcard export set collector 192.0.2.9 transport sctp
err export_port_0 "0" -- postcard export set collector 192.0.2.9 port 0
err export_refresh_0_over_udp "0" -- postcard export set collector 192.0.2.9 refresh 0
err export_collector_not_an_address "collector.example" -- postcard export set collector collector.example
# one unicast collector: never the unspecified address, multicast or an
# IPv4-mapped IPv6 address (give the IPv4 form); the same for src
i=0
for a in 0.0.0.0 :: 224.0.0.1 ff02::1 ::ffff:192.0.2.9; do
	i=$((i + 1))
	err "export_collector_refused_$i" "$a" -- postcard export set collector "$a"
	err "export_src_refused_$i" "$a" -- postcard export set collector \
		"$([ "${a#*:}" = "$a" ] && echo 192.0.2.9 || echo 2001:db8::9)" src "$a"
done
x "$HOPMARK" postcard export set collector ::ffff:192.0.2.9 2>"$HM_TMP/e.err"
hm_check "pbt_export_mapped_collector_says_the_ipv4_form" "1" \
	"$(grep -c 'give its IPv4 form 192.0.2.9' "$HM_TMP/e.err")"
x "$HOPMARK" postcard export set collector 224.0.0.1 2>"$HM_TMP/e.err"
hm_check "pbt_export_multicast_collector_says_multicast" "1" \
	"$(grep -c 'the collector is a multicast address' "$HM_TMP/e.err")"
x "$HOPMARK" postcard export set port 4740 2>"$HM_TMP/e.err"
hm_check "pbt_export_collector_required" "2 1" "$? $(grep -c '"collector" is required' "$HM_TMP/e.err")"
x "$HOPMARK" postcard export del
hm_check "pbt_export_del" "None" "$(show 'd["export"]')"

# ---- templates
NOW_NS=$("$PY" -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC))')
x "$HOPMARK" postcard template add src 10.0.0.1 dst 10.0.0.2 proto udp sport 4000 dport 5000 \
	fields nexthop,sojourn timeout 60 >"$HM_TMP/t.out"
hm_check "pbt_template_add_prints_id" "template 1: src 10.0.0.1/32 dst 10.0.0.2/32 proto udp sport 4000 dport 5000" \
	"$(cat "$HM_TMP/t.out")"
hm_check "pbt_template_expires_ns_is_monotonic_now_plus_timeout" "within 5 s" \
	"$(show 't=d["templates"][0]; e=t["expires_ns"] - '"$NOW_NS"' - 60 * 10**9; "within 5 s" if 0 <= e < 5 * 10**9 else "off by %d ns" % e')"
x "$HOPMARK" postcard template add src 2001:db8::1 dst 2001:db8::2 proto tcp sport 1 dport 2 fields all id 40 >/dev/null
x "$HOPMARK" postcard template add src 10.0.0.1 dst 10.0.0.3 proto 1 fields srh >/dev/null
hm_check "pbt_template_json" \
	'[[1, 4, "10.0.0.1", "10.0.0.2", 17, 4000, 5000, "nexthop,sojourn", false], [40, 6, "2001:db8::1", "2001:db8::2", 6, 1, 2, "nexthop,tos,length,srh,header,sojourn", false], [41, 4, "10.0.0.1", "10.0.0.3", 1, 0, 0, "srh", false]]' \
	"$(show 'sorted([[t["id"], t["family"], t["src"], t["dst"], t["proto"], t["sport"], t["dport"], t["fields"], t["expired"]] for t in d["templates"]])')"
hm_check "pbt_template_no_timeout_never_expires" "[0, 0]" \
	"$(show '[t["expires_ns"] for t in sorted(d["templates"], key=lambda t: t["id"])[1:]]')"
hm_check "pbt_template_show_command" 3 "$(x "$HOPMARK" postcard template show | grep -c '^template [0-9]*:')"
err template_prefix_not_a_flow "10.0.0.0/24" -- postcard template add src 10.0.0.0/24 dst 10.0.0.2 proto udp sport 1 dport 2 fields all
err template_port_mask "0x10/0xf0" -- postcard template add src 10.0.0.1 dst 10.0.0.2 proto udp sport 1 dport 0x10/0xf0 fields all
err template_udp_needs_ports "udp" -- postcard template add src 10.0.0.1 dst 10.0.0.2 proto udp fields all
err template_field_unknown "nexthop,ttl" -- postcard template add src 10.0.0.1 dst 10.0.0.9 proto 1 fields nexthop,ttl
err template_timeout_above_a_year "31536001" -- postcard template add src 10.0.0.1 dst 10.0.0.9 proto 1 fields all timeout 31536001
err template_id_0 "0" -- postcard template add src 10.0.0.1 dst 10.0.0.9 proto 1 fields all id 0
x "$HOPMARK" postcard template add src 10.0.0.1 dst 10.0.0.9 proto 1 2>"$HM_TMP/e.err"
hm_check "pbt_template_fields_required" "2 1" "$? $(grep -c '"fields" is required' "$HM_TMP/e.err")"
x "$HOPMARK" postcard template add dst 10.0.0.9 proto 1 fields all 2>"$HM_TMP/e.err"
hm_check "pbt_template_src_required" "2 1" "$? $(grep -c '"src" is required' "$HM_TMP/e.err")"
x "$HOPMARK" postcard template add src 10.0.0.1 dst 10.0.0.2 proto udp sport 4000 dport 5000 fields tos 2>"$HM_TMP/e.err"
hm_check "pbt_template_same_flow_refused" "1 1" "$? $(grep -c 'has template 1 already' "$HM_TMP/e.err")"
x "$HOPMARK" postcard template add src 10.0.0.5 dst 10.0.0.6 proto 1 fields tos timeout 1 >/dev/null
sleep 1.2
hm_check "pbt_template_timeout_shows_expired" "True 0" \
	"$(show 't=[t for t in d["templates"] if t["dst"] == "10.0.0.6"][0]; "%s %s" % (t["expired"], t["expires_in_ms"])')"
x "$HOPMARK" postcard template del src 10.0.0.1 dst 10.0.0.2 proto udp sport 4000 dport 5000
hm_check "pbt_template_del_by_flow" "[40, 41, 42]" "$(show 'sorted(t["id"] for t in d["templates"])')"
x "$HOPMARK" postcard template del src 10.0.0.1 dst 10.0.0.2 proto udp sport 4000 dport 5000 2>"$HM_TMP/e.err"
hm_check "pbt_template_del_missing" "1 1" "$? $(grep -c 'no template' "$HM_TMP/e.err")"
x "$HOPMARK" postcard template add src 10.0.0.7 dst 10.0.0.8 proto 1 fields tos id 40 >/dev/null
x "$HOPMARK" postcard template del id 40
hm_check "pbt_template_del_by_id_every_flow" "[41, 42]" "$(show 'sorted(t["id"] for t in d["templates"])')"
x "$HOPMARK" postcard template flush
hm_check "pbt_template_flush" "[]" "$(show 'd["templates"]')"

# ---- enable / disable: the programs each role needs, shared by the roles
x "$HOPMARK" postcard enable dev v0 role head
hm_check "pbt_enable_head_egress_program" "xdp=none egress=$EG ingress=" "$(progs v0)"
x "$HOPMARK" postcard enable dev v0 role egress
hm_check "pbt_enable_egress_shares_it" "xdp=none egress=$EG ingress= [\"head\", \"egress\"]" \
	"$(progs v0) $(show '[i for i in d["interfaces"] if i["dev"] == "v0"][0]["roles"]')"
x "$HOPMARK" postcard enable dev v0 role ingress
hm_check "pbt_enable_ingress_tc_by_default" "xdp=none egress=$EG ingress=$IN" "$(progs v0)"
x "$HOPMARK" postcard enable dev v0 role end xdp
hm_check "pbt_enable_xdp_moves_the_ingress_program" "xdp=hm_pbt_xdp egress=$EG ingress= True" \
	"$(progs v0) $(show '[i for i in d["interfaces"] if i["dev"] == "v0"][0]["xdp"]')"
hm_check "pbt_enable_show_lists_the_programs_attached" \
	'[["hm_pbt_xdp", "xdp", true], ["hm_pbt_egress", "tc egress", true]]' \
	"$(show '[[p["name"], p["hook"], p["attached"]] for p in [i for i in d["interfaces"] if i["dev"] == "v0"][0]["programs"]]')"
x "$HOPMARK" postcard disable dev v0 role ingress
hm_check "pbt_disable_ingress_end_keeps_xdp" "xdp=hm_pbt_xdp egress=$EG ingress=" "$(progs v0)"
x "$HOPMARK" postcard disable dev v0 role end
hm_check "pbt_disable_last_ingress_role_detaches_xdp" "xdp=none egress=$EG ingress= [\"head\", \"egress\"]" \
	"$(progs v0) $(show '[i for i in d["interfaces"] if i["dev"] == "v0"][0]["roles"]')"
x "$HOPMARK" postcard disable dev v0 role head
x "$HOPMARK" postcard disable dev v0 role egress
hm_check "pbt_disable_last_role_detaches_all" "xdp=none egress= ingress= 0" \
	"$(progs v0) $(show 'len(d["interfaces"])')"
x "$HOPMARK" postcard enable dev v2 role ingress xdp
x "$HOPMARK" postcard enable dev v2 role end
hm_check "pbt_enable_end_keeps_the_xdp_choice" "xdp=hm_pbt_xdp egress=$EG ingress=" "$(progs v2)"
x "$HOPMARK" postcard disable dev v2
hm_check "pbt_disable_without_role" "xdp=none egress= ingress= 0" "$(progs v2) $(show 'len(d["interfaces"])')"
# A deleted interface's roles and counters are forgotten by the next command.
x ip link add v4 type veth peer name v5 && x ip link set v4 up
x "$HOPMARK" postcard enable dev v4 role egress
GONE=$(x ip -o link show v4 | cut -d: -f1)
x ip link del v4
x "$HOPMARK" postcard sample all
# pbt_ifcfg is an array indexed by ifindex: forgotten is an all-zero entry.
hm_check "pbt_gone_interface_forgotten" "[] none" \
	"$(show '[i["dev"] for i in d["interfaces"]]') $(x bpftool -j map lookup pinned "$BPFFS/tc/globals/pbt_ifcfg" key $((GONE & 255)) $((GONE >> 8)) 0 0 2>/dev/null |
		"$PY" -c 'import json, sys
d = json.load(sys.stdin)
print("none" if all(int(b, 16) == 0 for b in d["value"]) else "entry %s" % d["value"])' 2>&1 | tail -1)"
# A new device that takes the gone one's ifindex starts without a role.
x ip link add v4 index "$GONE" type veth peer name v5 && x ip link set v4 up
hm_check "pbt_gone_ifindex_reused_without_role" "$GONE [] xdp=none egress= ingress=" \
	"$(x ip -o link show v4 | cut -d: -f1) $(show '[i["dev"] for i in d["interfaces"]]') $(progs v4)"
x ip link del v4
# pbt_ifcfg and pbt_stats hold ifindex 1..1023 (PBT_IFINDEX_LIMIT): a higher
# one is refused, naming both numbers, and nothing is attached or stored
# (a veth: the dummy driver is a module the test kernel may not load).
x ip link add big index 2000 type veth peer name big-p && x ip link set big up
x "$HOPMARK" postcard enable dev big role egress 2>"$HM_TMP/e.err"
hm_check "pbt_enable_ifindex_limit_refused" "1 1 xdp=none egress= ingress= []" \
	"$? $(grep -c '^Error: big has ifindex 2000: PBT-M takes interfaces whose ifindex is below 1024' "$HM_TMP/e.err") $(progs big) $(show '[i["dev"] for i in d["interfaces"]]')"
x ip link del big
err enable_role_unknown "sink" -- postcard enable dev v0 role sink
err enable_xdp_without_ingress_role "xdp" -- postcard enable dev v0 role head xdp
x "$HOPMARK" postcard enable role head 2>"$HM_TMP/e.err"
hm_check "pbt_enable_dev_required" "2 1" "$? $(grep -c '"dev" is required' "$HM_TMP/e.err")"
x "$HOPMARK" postcard enable dev nosuchdev role head 2>"$HM_TMP/e.err"
hm_check "pbt_enable_unknown_device" "1 1" \
	"$? $(grep -c '^Error: argument "nosuchdev" is wrong: no such device' "$HM_TMP/e.err")"
# A filter added with tc(8), at another pref: hopmark's detach never takes it.
x tc filter add dev v0 egress pref 7 bpf da obj "$HM_BPF_DIR/hopmark_pbt.bpf.o" sec tc 2>"$HM_TMP/e.err"
x "$HOPMARK" postcard enable dev v0 role head
x "$HOPMARK" postcard disable dev v0
hm_check "pbt_disable_keeps_other_filters" 1 "$(x tc filter show dev v0 egress | grep -c 'pref 7 bpf .*handle')"
x tc filter del dev v0 egress pref 7 2>/dev/null

# ---- show -s: the counters summed over the CPUs, and hopmark -s link show
x "$HOPMARK" postcard enable dev v0 role egress
x "$HOPMARK" postcard enable dev v0 role ingress
for i in 1 2 3 4 5; do x bash -c 'echo pbt >/dev/udp/10.99.0.2/9' 2>/dev/null; done
x ping -c 3 -i 0.2 -W 1 10.99.0.2 >/dev/null 2>&1
NAMES=$(show 'sorted([i for i in d["interfaces"] if i["dev"] == "v0"][0]["counters"])' -s)
hm_check "pbt_stats_every_counter" \
	"$(sed -n '/^enum pbt_counter {/,/PBT_CNT_MAX,/p' "$HM_TOP/lib/pbt/pbt_maps.h" | grep -c '^	PBT_CNT_[A-Z0-9_]*,' | awk '{print $1 - 1}')" \
	"$("$PY" -c 'import json,sys; print(len(json.loads(sys.argv[1])))' "$NAMES" 2>&1)"
hm_check "pbt_stats_not_without_s" "False" "$(show '"counters" in d["interfaces"][0]')"
IFX=$(x ip -o link show v0 | cut -d: -f1)
x bpftool -j map dump pinned "$BPFFS/tc/globals/pbt_stats" >"$HM_TMP/stats.json" 2>"$HM_TMP/b.err"
x "$HOPMARK" -j -s postcard show >"$HM_TMP/show.json"
x "$HOPMARK" -j -s link show >"$HM_TMP/link.json"
hm_check "pbt_stats_equal_bpftool_sums_and_link_show" "equal, link equal, some non-zero" "$("$PY" -c '
import json, sys
dump = json.load(open(sys.argv[1]))
show = json.load(open(sys.argv[2]))
link = json.load(open(sys.argv[3]))
ifx = int(sys.argv[4])
cnt = [i for i in show["interfaces"] if i["ifindex"] == ifx][0]["counters"]
lcnt = [l for l in link if l["ifindex"] == ifx][0]["pbt_stats"]
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
    sys.exit(print("no pbt_stats entry for ifindex %d in bpftool dump" % ifx))
names = list(cnt)
got = [cnt[n] for n in names]
print(("equal" if got == sums else "show %r, bpftool %r" % (got, sums)) + ",",
      ("link equal" if lcnt == cnt else "link %r, show %r" % (lcnt, cnt)) + ",",
      "some non-zero" if any(sums) else "all zero")
' "$HM_TMP/stats.json" "$HM_TMP/show.json" "$HM_TMP/link.json" "$IFX" 2>&1 | tail -1)"
hm_check "pbt_link_show_lists_pbt_roles" '{"roles": ["ingress", "egress"], "xdp": false}' \
	"$("$PY" -c 'import json, sys; print(json.dumps([l for l in json.load(open(sys.argv[1])) if l["ifname"] == "v0"][0]["pbt"]))' "$HM_TMP/link.json" 2>&1)"
hm_check "pbt_link_show_text_counters" "1 1" \
	"$(x "$HOPMARK" -s link show dev v0 | grep -c '^    pbt counters:') $(x "$HOPMARK" link show dev v0 | grep -c '^    pbt roles ingress egress$')"
x "$HOPMARK" postcard disable dev v0

# ---- round trip: the words of show, on a node with an empty bpffs
x "$HOPMARK" postcard set mark-ipv4 tos 0x40 mark-ipv6 oflag tc 0x08 altmark 0x30 meter 2000 burst 50 \
	trigger ce trigger qdepth 15000 hold 300
x "$HOPMARK" postcard watch add src 192.0.2.0/24 dst 198.51.100.0/24 proto tcp sport 1024/0xfc00 dport 443 >/dev/null
x "$HOPMARK" postcard watch add dst 2001:db8:1::/48 proto 50 >/dev/null
x "$HOPMARK" postcard sample interval 20
x "$HOPMARK" postcard export set collector 10.0.0.9 port 4740 transport tcp rate 900 refresh 15 domain 3 src 10.0.0.1
x "$HOPMARK" postcard template add src 10.0.0.1 dst 10.0.0.2 proto udp sport 4000 dport 5000 fields header id 9 >/dev/null
x "$HOPMARK" postcard show >"$HM_TMP/text"
rt_ok=yes
while read -r line; do
	case "$line" in
	"postcard set "*) x2 "$HOPMARK" postcard set ${line#postcard set } 2>>"$HM_TMP/rt.err" ||
				rt_ok="no: $line" ;;
	watch\ [0-9]*:*) x2 "$HOPMARK" postcard watch add ${line#*: } >/dev/null 2>>"$HM_TMP/rt.err" ||
				rt_ok="no: $line" ;;
	template\ [0-9]*:*) l=${line#*: }
			l=${l% no timeout}
			id=${line%%:*}
			x2 "$HOPMARK" postcard template add ${l% expires in * ms} id ${id#template } \
				>/dev/null 2>>"$HM_TMP/rt.err" || rt_ok="no: $line" ;;
	"sample "*|"export set "*) x2 "$HOPMARK" postcard ${line} 2>>"$HM_TMP/rt.err" ||
				rt_ok="no: $line" ;;
	esac
done <"$HM_TMP/text"
hm_check "pbt_round_trip_words_accepted" "yes" "$rt_ok$(cat "$HM_TMP/rt.err" 2>/dev/null)"
hm_check "pbt_round_trip_text_has_every_part" "1 2 1 1 1" \
	"$(grep -c '^postcard set mark-ipv4 tos 0x40 mark-ipv6 oflag tc 0x08 altmark 0x30 meter 2000 burst 50 trigger ce trigger qdepth 15000 hold 300$' "$HM_TMP/text") $(grep -c '^watch [0-9]*:' "$HM_TMP/text") $(grep -c '^sample interval 20$' "$HM_TMP/text") $(grep -c '^export set collector 10.0.0.9 port 4740 transport tcp rate 900 refresh 15 domain 3 src 10.0.0.1$' "$HM_TMP/text") $(grep -c '^template 9: src 10.0.0.1/32 dst 10.0.0.2/32 proto udp sport 4000 dport 5000 fields header no timeout$' "$HM_TMP/text")"
x "$HOPMARK" -j postcard show >"$HM_TMP/a.json"
x2 "$HOPMARK" -j postcard show >"$HM_TMP/b.json"
hm_check "pbt_round_trip_same_json" "same" "$("$PY" -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
a.pop("interfaces"); b.pop("interfaces")
print("same" if a == b else "differ: %r vs %r" % (a, b))' "$HM_TMP/a.json" "$HM_TMP/b.json" 2>&1)"
for m in pbt_cfg pbt_tpl; do
	x bpftool -j map dump pinned "$BPFFS/tc/globals/$m" >"$HM_TMP/a.map" 2>&1
	x2 bpftool -j map dump pinned "$BPF2/tc/globals/$m" >"$HM_TMP/b.map" 2>&1
	hm_check "pbt_round_trip_same_bytes_$m" "same" "$("$PY" -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
print("same" if a == b and a else "differ: %r vs %r" % (a, b))' "$HM_TMP/a.map" "$HM_TMP/b.map" 2>&1 | tail -1)"
done
# ---- a mark bit under INT's DSCP signal is refused (pbt_int_dscp_check()):
# INT signals 0x20/0x20 (TOS / Traffic Class 0x80/0x80) on this node.
x "$HOPMARK" int set signal dscp 0x20/0x20 >"$HM_TMP/i.err" 2>&1
hm_check "pbt_int_dscp_int_set_beside_free_bits" "0" "$?$(cat "$HM_TMP/i.err")"
err int_dscp_tc_bit "0x80" -- postcard set mark-ipv6 tc 0x80
err int_dscp_tos_bit "0x80" -- postcard set mark-ipv4 tos 0x80
x "$HOPMARK" postcard set mark-ipv6 tc 0x80 2>"$HM_TMP/c.err"
hm_check "pbt_int_dscp_error_names_the_conflict" "1" \
	"$(grep -c "PBT-M's mark bit 0x80 lies under INT's DSCP signal 0x20/0x20 (TOS / Traffic Class 0x80/0x80): one DSCP bit cannot serve both" "$HM_TMP/c.err")"
hm_check "pbt_int_dscp_refusal_changes_nothing" "tos 0x40 0x08" \
	"$(show 'c=d["config"]; " ".join([c["mark_ipv4"], c["ipv4_tos_bit"], c["ipv6_tc_bit"]])')"
x "$HOPMARK" postcard set mark-ipv6 tc 0x04 mark-ipv4 tos 0x04 2>"$HM_TMP/c.err"
hm_check "pbt_int_dscp_bits_outside_the_mask_accepted" "0 tc 0x04 tos 0x04" \
	"$? $(cat "$HM_TMP/c.err")$(show 'c=d["config"]; " ".join([c["mark_ipv6"], c["ipv6_tc_bit"], c["mark_ipv4"], c["ipv4_tos_bit"]])')"
x "$HOPMARK" int set signal udp 5000 >/dev/null 2>&1 &&
	x "$HOPMARK" postcard set mark-ipv6 tc 0x80 2>"$HM_TMP/c.err"
hm_check "pbt_int_udp_signal_leaves_every_bit" "0 0x80" \
	"$? $(cat "$HM_TMP/c.err")$(show 'd["config"]["ipv6_tc_bit"]')"
hm_done
