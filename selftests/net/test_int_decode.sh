#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_int_decode.sh - `hopmark decode` on INT v2.1 and Telemetry Report
# v2.0 captures. hm_int_pkt.py writes the packets from the specs
# (independently of lib/int/) with the JSON objects decode -j must print
# for them; every field of every line is compared, and the key order too:
# INT-MD over TCP and UDP, IPv4 and IPv6, DSCP signalling (NPT=0, with a
# mask) and UDP-port signalling (NPT=1, NPT=2), bitmaps 0xfc00, 0x9001,
# 0xff80 and 0x8040 (reserved bit 9), E and M, INT-MX with source-inserted
# data, coalesced reports (RepType 1 with a drop reason and an inner INT
# packet, RepType 0), Report Length 0xff, packets that are not INT, each
# malformed stack's reason, the text table, and the arguments' errors.
# Without INT arguments decode is what it was (IOAM only). Needs no root.
set -u
. "$(dirname "$0")/../lib.sh"

hm_require_built "$HOPMARK"
command -v "$PY" >/dev/null || hm_skip_all "needs python3 to write the captures"
GEN=$HM_TOP/selftests/net/hm_int_pkt.py
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$PY" "$GEN" cases "$TMP" || hm_skip_all "hm_int_pkt.py could not write the captures"

for exp in "$TMP"/*.expect; do
	c=$(basename "$exp" .expect)
	# shellcheck disable=SC2046
	"$HOPMARK" -j decode "$TMP/$c.pcap" $(cat "$TMP/$c.args") >"$TMP/$c.out" 2>"$TMP/$c.err"
	hm_check "decode_json_${c}_exit_status" 0 "$?"
	hm_check "decode_json_${c}_every_field" "" "$("$PY" "$GEN" compare "$exp" "$TMP/$c.out")"
	case $c in
	report_cut_in_second)
		hm_check "decode_json_${c}_reason_on_stderr" \
			"frame 1: Telemetry Report not fully decoded: Report Length runs past the end of the payload (Report 3.3)" \
			"$(cat "$TMP/$c.err")" ;;
	*)	hm_check "decode_json_${c}_nothing_on_stderr" "" "$(cat "$TMP/$c.err")" ;;
	esac
done

# A malformed stack is reported with its reason (stderr with -j), no JSON line.
for t in "$TMP"/bad_*.text; do
	c=$(basename "$t" .text)
	out=$("$HOPMARK" -j decode "$TMP/$c.pcap" int-dscp 0x17 2>"$TMP/$c.err")
	hm_check "${c}_prints_no_json_line" "" "$out"
	hm_check "${c}_reason_on_stderr" 1 "$(grep -c "^frame 1: INT not decoded: .*$(cat "$t")" "$TMP/$c.err")"
	hm_check "${c}_counted_in_text" 1 "$("$HOPMARK" decode "$TMP/$c.pcap" int-dscp 0x17 |
		grep -c '^1 IPv4, 0 INT packets, 1 INT not decoded, 0 Telemetry Reports')"
done

# Text: the stack as a table, hops numbered in path order (the wire's
# first, hop_values(3) with node ID 0x103, is hop 3).
hm_check "text_table_rows_node_ids_in_wire_order" "3 259,2 258,1 257" \
	"$("$HOPMARK" decode "$TMP/md_tcp_ipv4_dscp.pcap" int-dscp 0x17 |
		awk '/^ +hop /{t=1; next} t && /^ +[0-9]+ / {print $1, $2} /^$/{t=0}' | paste -sd,)"
hm_check "text_header_names_the_md_fields" 1 \
	"$("$HOPMARK" decode "$TMP/md_tcp_ipv4_dscp.pcap" int-dscp 0x17 |
		grep -c '^  INT-MD npt 0 shim-len 27 orig-dscp 10 ver 2 d 0 e 0 m 0 hop-ml 8 rhc 5 bitmap 0xfc00 ')"
# A column per field of the bitmap: 0x9001 has the checksum complement;
# a report's RepMdBits 0x5001 the L1 ports and queue (bit 15 is on its line).
hm_check "text_columns_of_bitmap_0x9001" "hop node qid qocc csum-c" \
	"$("$HOPMARK" decode "$TMP/md_udp_ipv6_dscp_mask.pcap" int-dscp 0x17/0x37 |
		awk '$1 == "hop" {$1 = $1; print; exit}')"
hm_check "text_columns_of_rep_md_bits_0x5001" "l1-in/out qid qocc" \
	"$("$HOPMARK" decode "$TMP/report_coalesced.pcap" report-port 32766 int-port 5000 |
		awk '/^ report rep-type 1 /{getline; $1 = $1; print; exit}')"
hm_check "text_report_line_has_drop_reason" 1 \
	"$("$HOPMARK" decode "$TMP/report_coalesced.pcap" report-port 32766 int-port 5000 |
		grep -c '^ report rep-type 1 in-type 4 len 25 md-len 3 flags D F rep-md-bits 0x5001 .* drop-queue-id 3 drop-reason 33 inner-len 80$')"
# Reserved bits 9-14 and their words, one line under each hop.
hm_check "text_reserved_bit_9_line_per_hop" 2 \
	"$("$HOPMARK" decode "$TMP/md_npt2_ipv6_tcp_reserved_e_m.pcap" int-port 5000 |
		grep -c '^       reserved bits 9-14: bit9=0xffffffff$')"
hm_check "text_report_counts" 1 \
	"$("$HOPMARK" decode "$TMP/report_coalesced.pcap" report-port 32766 int-port 5000 |
		grep -c '^1 IPv4, 0 INT packets, 0 INT not decoded, 1 Telemetry Reports, 0 reports not fully decoded$')"

# Without INT arguments: IOAM only, IPv4 skipped, the one counts line.
hm_check "without_int_arguments_no_json" "" "$("$HOPMARK" -j decode "$TMP/md_tcp_ipv4_dscp.pcap")"
hm_check "without_int_arguments_text_unchanged" \
	"1 frames, 0 IPv6, 0 IOAM traces, 0 other IOAM options, 0 not decoded" \
	"$("$HOPMARK" decode "$TMP/md_tcp_ipv4_dscp.pcap")"

# Arguments: errors name the argument and the rule (exit 2, usage).
# shellcheck disable=SC2069 # the message only: stderr to the pipe, stdout away
err() { "$HOPMARK" decode "$TMP/not_int.pcap" "$@" 2>&1 >/dev/null; echo "rc=$?"; }
hm_check "int_dscp_mask_0_rejected" \
	"Error: argument \"0x17/0\" is wrong: int-dscp MASK 0 would match every packet rc=2" \
	"$(err int-dscp 0x17/0 | paste -sd' ')"
hm_check "int_dscp_value_outside_mask_rejected" \
	"Error: argument \"0x17/0x07\" is wrong: int-dscp VALUE has bits outside MASK rc=2" \
	"$(err int-dscp 0x17/0x07 | paste -sd' ')"
hm_check "int_dscp_value_above_63_rejected" \
	"Error: argument \"64\" is wrong: int-dscp VALUE must be a number 0-63 rc=2" \
	"$(err int-dscp 64 | paste -sd' ')"
hm_check "int_port_0_rejected" \
	"Error: argument \"0\" is wrong: int-port must be a UDP port 1-65535 rc=2" \
	"$(err int-port 0 | paste -sd' ')"
hm_check "report_port_needs_a_value" \
	"Error: \"report-port\" needs a value: command line is not complete. Try \"help\". rc=2" \
	"$(err report-port | paste -sd' ')"
hm_done
