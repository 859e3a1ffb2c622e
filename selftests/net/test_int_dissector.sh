#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_int_dissector.sh - the Wireshark dissector lib/int/hopmark-int.lua
# (INT v2.1 over TCP/UDP, Telemetry Report v2.0) run by tshark on captures
# selftests/net/hm_int_pcap.py writes (INT-MD and INT-MX, TCP and UDP, IPv4
# and IPv6, NPT 0/1/2, bitmaps 0x9000, 0xfc00, 0xff80, 0xffff, reserved
# bits 9-14, bit 15, DS and source-only metadata; single, coalesced and
# Report Length 0xff reports; malformed input):
#
#   dissector_loads_*		tshark knows the protocols, fields and prefs
#   tshark_<case>		every field tshark shows = what the generator
#				put in, with no Lua error
#   tshark_vs_hopmark_<case>	every field tshark shows = what
#				`hopmark decode -j` decodes
#   malformed_<case>		the expert info a broken packet gets, and no
#				Lua error
#   prefs_*			the signalling preferences decide what is INT
#   install_*			make install-wireshark puts the dissector where
#				tshark loads it as a plugin
#
# tshark runs with an empty HOME (no personal plugins or preferences); as
# root it runs as nobody (Wireshark warns about dissecting as root). Needs
# tshark with Lua and python3; skips (exit 4, 0 under prove) without them.
# Needs no root and no network namespace.
set -u
. "$(dirname "$0")/../lib.sh"

PY=${PYTHON:-python3}
LUA_SRC=$HM_TOP/lib/int/hopmark-int.lua
GEN=$HM_TOP/selftests/net/hm_int_pcap.py
command -v tshark >/dev/null || hm_skip_all "needs tshark (apt-get install tshark)"
command -v "$PY" >/dev/null || hm_skip_all "needs python3 to write the captures"
tshark -v 2>/dev/null | grep -q "with Lua" || hm_skip_all "tshark is built without Lua"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
mkdir -p "$TMP/home" "$TMP/cap"
cp "$LUA_SRC" "$TMP/hopmark-int.lua"
LUA=$TMP/hopmark-int.lua

AS_USER=()
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null || hm_skip_all "as root, needs setpriv to run tshark as nobody"
	AS_USER=(setpriv --reuid nobody --regid nogroup --clear-groups)
	chown -R nobody:nogroup "$TMP/home"
fi

# ts ARGS... - tshark as an unprivileged user, with an empty home.
ts()
{
	HOME=$TMP/home XDG_CONFIG_HOME=$TMP/home/.config "${AS_USER[@]}" tshark "$@"
}

# TCP/UDP try port tables before heuristics (md_tcp4_dscp_to_port_80 is
# INT on the port of HTTP): heuristics first; and the captures repeat one
# TCP 4-tuple and sequence number, which TCP's sequence analysis takes as
# out of order and then hands to no subdissector: analysis off, as
# Documentation/int.rst says for captures of one flow at several hops.
SIG=(-o hopmark_int.dscp:0x17 -o hopmark_int.dscp_mask:0x3f
     -o hopmark_int.udp_port:42100 -o hopmark_int.report_port:42101
     -o tcp.try_heuristic_first:TRUE -o udp.try_heuristic_first:TRUE
     -o tcp.analyze_sequence_numbers:FALSE)

"$PY" "$GEN" write "$TMP/cap" || { hm_not_ok "captures_written"; hm_done; }
chmod -R a+rX "$TMP/cap"

# ----------------------------------------------------------- loading

# -G reports take no other option: load the script as a personal plugin.
PLUG=$TMP/home/.local/lib/wireshark/plugins
mkdir -p "$PLUG"
cp "$LUA" "$PLUG/"
chmod -R a+rX "$TMP/home"
protos=$(ts -G protocols 2>/dev/null | awk -F'\t' '$3 ~ /^hopmark_int/ {print $3}' | sort | tr '\n' ' ')
hm_check "dissector_loads_protocols" "hopmark_int hopmark_int_report " "$protos"

nfields=$(ts -G fields 2>/dev/null | awk -F'\t' '$3 ~ /^hopmark_int/ {n++} END {print n+0}')
node=$(ts -G fields 2>/dev/null | awk -F'\t' '$3 == "hopmark_int.hop.node_id" || $3 == "hopmark_int_report.md.egress_ts" {print $3}' | sort | tr '\n' ' ')
hm_check "dissector_loads_fields" "hopmark_int.hop.node_id hopmark_int_report.md.egress_ts " "$node"
hm_log "$nfields hopmark_int* fields registered"

prefs=$(ts -G defaultprefs 2>/dev/null |
	sed -n 's/^#hopmark_int\.\([a-z_]*\): \(.*\)$/\1=\2/p' | sort | tr '\n' ' ')
hm_check "dissector_loads_prefs_defaults" \
	"dscp=0x17 dscp_mask=0x3f report_port=0 source_only=0 udp_port=0 " "$prefs"
rm -rf "$TMP/home/.local"

# ----------------------------------------------------------- the cases

# Every case: tshark against what the generator put in, then tshark
# against `hopmark decode -j` with the same signalling. tshark and hopmark
# run once per capture all-N.pcap (the cases of N source-only words).
HM_ARGS=(int-dscp 0x17/0x3f int-port 42100 report-port 42101)
declare -A GROUP_OK
while read -r n frames; do
	all=$TMP/cap/all-$n
	if ts -r "$all.pcap" -X lua_script:"$LUA" "${SIG[@]}" -o hopmark_int.source_only:"$n" \
		-T json >"$all.raw" 2>"$all.err" &&
	   "$PY" "$GEN" from-tshark "$all.raw" >"$all.tshark.json" 2>>"$all.err"; then
		GROUP_OK[$n]=1
	else
		hm_not_ok "tshark_decodes_all_$n"
		sed 's/^/#   /' "$all.err"
	fi
	if [ -x "$HOPMARK" ]; then
		"$HOPMARK" -j decode "$all.pcap" "${HM_ARGS[@]}" int-source-only "$n" \
			>"$all.hm.out" 2>"$all.hm.err"
		"$PY" "$GEN" from-hopmark "$frames" "$all.hm.out" "$all.hm.err" >"$all.hm.json"
	fi
done <"$TMP/cap/groups"

while read -r name kind n first count; do
	all=$TMP/cap/all-$n
	exp=$TMP/cap/$name.expect.json
	keys=int,report,packet,rx_ns,lua_errors,untreed test=tshark_$name
	[ "$kind" = malformed ] && keys=expert,error,report,lua_errors,untreed test=malformed_$name
	[ "$kind" = fuzz ] && keys=lua_errors,untreed test=no_lua_error_on_$name
	if [ -z "${GROUP_OK[$n]:-}" ]; then
		hm_not_ok "$test"
		hm_not_ok "tshark_vs_hopmark_$name"
		continue
	fi
	out=$("$PY" "$GEN" diff "$exp" "$all.tshark.json" "$keys" "$first" "$count" 2>&1)
	hm_check "$test" "" "$out"
	if [ ! -x "$HOPMARK" ]; then
		hm_skip "tshark_vs_hopmark_$name" "not built: $HOPMARK (make all)"
		continue
	fi
	"$PY" -c 'import json, sys
a = json.load(open(sys.argv[1]))
json.dump(a[int(sys.argv[2]):int(sys.argv[2]) + int(sys.argv[3])], sys.stdout)' \
		"$all.hm.json" "$first" "$count" >"$TMP/cap/$name.hm.json"
	skip=()
	[ "$kind" = fuzz ] && skip=(--skip-withheld)
	out=$("$PY" "$GEN" diff "$TMP/cap/$name.hm.json" "$all.tshark.json" \
		int,report,error,packet,rx_ns "$first" "$count" "${skip[@]}" 2>"$TMP/diff.err")
	hm_check "tshark_vs_hopmark_$name" "" "$out"
	[ -s "$TMP/diff.err" ] && cat "$TMP/diff.err"
done <"$TMP/cap/cases"
hm_check "tshark_stderr_has_no_lua_error" "" "$(cat "$TMP"/cap/all-*.err | grep -i "lua")"

# ----------------------------------------------------------- preferences

# prefs_case NAME PCAP OPTIONS... - the Info column of frame 1.
info() { ts -r "$TMP/cap/$1.pcap" -X lua_script:"$LUA" "${@:2}" -T fields -e _ws.col.Protocol -e _ws.col.Info 2>/dev/null; }

hm_check "prefs_dscp_mask_0_turns_dscp_signalling_off" \
	"TCP" "$(info md_tcp4_dscp_0x9000_3hops -o hopmark_int.dscp_mask:0 | cut -f1)"
hm_check "prefs_dscp_value_other_than_the_packets" \
	"TCP" "$(info md_tcp4_dscp_0x9000_3hops -o hopmark_int.dscp:0x18 | cut -f1)"
proto=$(info md_tcp4_dscp_to_port_80 | cut -f1)
hm_check "prefs_port_dissector_before_heuristics_by_default" "not INT" \
	"$([ "$proto" = INT ] && echo INT || echo "not INT")"
hm_check "prefs_tcp_try_heuristic_first_finds_int" "INT" \
	"$(info md_tcp4_dscp_to_port_80 -o tcp.try_heuristic_first:TRUE | cut -f1)"
hm_check "prefs_dscp_default_0x17_exact" \
	"$(printf 'INT\tINT-MD NPT=0 Length=9, 3 hops')" \
	"$(info md_tcp4_dscp_0x9000_3hops)"
# The v1.0 reference parser's mask (0x17 under 0x17) takes 0x1f as INT;
# the default exact mask does not (INT spec issue #50).
hm_check "prefs_dscp_0x1f_not_int_under_mask_0x3f" "UDP" \
	"$(info not_int_dscp_0x1f "${SIG[@]}" | cut -f1)"
hm_check "prefs_dscp_0x1f_int_under_mask_0x17" "INT" \
	"$(info not_int_dscp_0x1f "${SIG[@]}" -o hopmark_int.dscp_mask:0x17 | cut -f1)"
hm_check "prefs_udp_port_0_turns_port_signalling_off" "UDP" \
	"$(info md_udp4_port_npt1_0xff80 | cut -f1)"
hm_check "prefs_udp_port_set" "INT" \
	"$(info md_udp4_port_npt1_0xff80 -o hopmark_int.udp_port:42100 | cut -f1)"
hm_check "prefs_report_port_0_turns_reports_off" "UDP" \
	"$(info report_single_ipv4_inner -o hopmark_int.udp_port:42100 | cut -f1)"
hm_check "prefs_report_port_set" \
	"$(printf 'INT Report\tTelemetry Report node 3 hw_id 1 seq 5, 1 report')" \
	"$(info report_single_ipv4_inner -o hopmark_int.report_port:42101)"

# ----------------------------------------------------------- install

if make -s -C "$HM_TOP" install-wireshark DESTDIR="$TMP/inst" \
	WIRESHARK_LUA_DIR=/plugins >"$TMP/inst.log" 2>&1; then
	hm_check "install_wireshark_installs_the_script" "644" \
		"$(stat -c %a "$TMP/inst/plugins/hopmark-int.lua" 2>&1)"
	mkdir -p "$TMP/home/.local/lib/wireshark"
	cp -r "$TMP/inst/plugins" "$TMP/home/.local/lib/wireshark/"
	chmod -R a+rX "$TMP/home"
	hm_check "install_wireshark_plugin_is_loaded_by_tshark" \
		"$(printf 'INT\tINT-MD NPT=0 Length=9, 3 hops')" \
		"$(ts -r "$TMP/cap/md_tcp4_dscp_0x9000_3hops.pcap" -T fields -e _ws.col.Protocol -e _ws.col.Info 2>/dev/null)"
	rm -rf "$TMP/home/.local"
else
	hm_not_ok "install_wireshark_runs"
	sed 's/^/#   /' "$TMP/inst.log"
fi

hm_done
