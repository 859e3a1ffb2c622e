#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_capture.sh - what hopmarkd reports equals what is on the wire. A
# capture at B's ingress (before hm_decap removes the option: taps run
# before tc ingress) is decoded by tshark's IOAM dissector and by
# `hopmark decode`; every field of every hop must equal the agent's JSON.
# tcpdump's `udp` filter misses IPv6 with extension headers: filter `ip6`.
# Then: a capture holding IOAM Direct Export options besides a trace gives
# the same "other IOAM options" count in decode's text and in its -j
# summary line; and `hopmark monitor file` on hopmarkd's records mixed
# with lines that are not records shows the records only, counts the
# others, and fails when there is nothing but them.
set -u
HM_PFX=${HM_PFX:-hmi$$c}
. "$(dirname "$0")/../lib.sh"
NET=$(dirname "$0")

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
command -v tshark >/dev/null || hm_skip_all "needs tshark"
command -v tcpdump >/dev/null || hm_skip_all "needs tcpdump"
hm_trap_teardown
hm_tmpdir

hm_topo_create || { echo "Bail out! topology"; exit 1; }
hm_setup_cli || { echo "Bail out! hopmark CLI configuration failed"; exit 1; }
hm_agent_start b "$HM_TMP/b.json" || { echo "Bail out! hopmarkd on B"; exit 1; }
hm_agent_start r1 "$HM_TMP/r1.json" || { echo "Bail out! hopmarkd on R1"; exit 1; }
hm_agent_start r3 "$HM_TMP/r3.json" || { echo "Bail out! hopmarkd on R3"; exit 1; }
hm_capture_start b b-r3 "$HM_TMP/b.pcap" || { echo "Bail out! tcpdump"; exit 1; }

hm_on a ping -6 -c 3 -i 0.1 -q $HM_B_ADDR >/dev/null
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count 3 --size 300
hm_wait_lines "$HM_TMP/b.json" 6
hm_capture_stop

N_JSON=$(wc -l <"$HM_TMP/b.json")
hm_check "agent_reported_every_packet" 6 "$N_JSON"

# shellcheck disable=SC2046
tshark -r "$HM_TMP/b.pcap" -Y ipv6.opt.ioam.trace.ns -T fields -E occurrence=a \
	-E aggregator=, $("$PY" "$NET/hm_check_trace.py" tshark-fields) \
	>"$HM_TMP/tshark.tsv" 2>"$HM_TMP/tshark.err"
hm_check "tshark_sees_option_on_every_packet_at_b_ingress" "$N_JSON" \
	"$(wc -l <"$HM_TMP/tshark.tsv")"
BAD='_ws.malformed || ipv6.opt.ioam.trace.invalid_nodelen || ipv6.opt.ioam.trace.invalid_remlen || ipv6.opt.ioam.trace.invalid_type'
if OUT=$(tshark -r "$HM_TMP/b.pcap" -Y "$BAD" 2>"$HM_TMP/tshark2.err"); then
	hm_check "tshark_reports_no_malformed_ioam" "" "$OUT"
else
	hm_check "tshark_reports_no_malformed_ioam" "" "tshark failed: $(tail -n 2 "$HM_TMP/tshark2.err")"
fi
"$PY" "$NET/hm_check_trace.py" tshark "$HM_TMP/b.json" "$HM_TMP/tshark.tsv" \
	>"$HM_TMP/cmp.tsv"
hm_checks_from "$HM_TMP/cmp.tsv"

hm_on b "$HOPMARK" -j decode "$HM_TMP/b.pcap" >"$HM_TMP/decode.json" \
	2>"$HM_TMP/decode.err"
hm_check "hopmark_decode_exit_status" 0 "$?"
# decode prints one JSON object per line, like hopmarkd.
"$PY" "$NET/hm_check_trace.py" decode "$HM_TMP/b.json" "$HM_TMP/decode.json" \
	>"$HM_TMP/cmp2.tsv" 2>"$HM_TMP/cmp2.err" ||
	echo -e "decode_output_parses\tJSON lines\t$(head -c 200 "$HM_TMP/decode.json" "$HM_TMP/cmp2.err" | tr '\n\t' '  ')" >"$HM_TMP/cmp2.tsv"
hm_checks_from "$HM_TMP/cmp2.tsv"

# ------------------------------------- other IOAM options in the summary
# R3 sends 2 datagrams with a Direct Export option to B (R3 does not
# encapsulate, so they carry no trace), A one traced ping.
hm_capture_start b b-r3 "$HM_TMP/dex.pcap" || { echo "Bail out! tcpdump"; exit 1; }
hm_on r3 "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9997 --count 2 --ioam-ns $HM_NS_ID \
	--ioam-type 0xf00000 --ioam-dex
hm_on a ping -6 -c 1 -q $HM_B_ADDR >/dev/null
hm_capture_stop
hm_on b "$HOPMARK" decode "$HM_TMP/dex.pcap" >"$HM_TMP/dex.txt" 2>&1
hm_check "decode_text_counts_other_ioam" "1 IOAM traces, 2 other IOAM options" \
	"$(grep -oE '[0-9]+ IOAM traces, [0-9]+ other IOAM options' "$HM_TMP/dex.txt")"
hm_on b "$HOPMARK" -j decode "$HM_TMP/dex.pcap" summary >"$HM_TMP/dex.json" 2>"$HM_TMP/dex.err"
hm_check "decode_json_summary_counts_other_ioam" "records 1 not_decoded 0 other_ioam 2" \
	"$("$PY" -c '
import json, sys
s = json.loads(open(sys.argv[1]).readlines()[-1])["summary"]
print("records", s["records"], "not_decoded", s["not_decoded"], "other_ioam", s.get("other_ioam"))
' "$HM_TMP/dex.json" 2>&1)"

# --------------------------------------- monitor file: lines not records
# hopmarkd's first 6 records with 6 lines that are not records between
# them: not JSON, {}, null, a record with junk after it, a record cut
# short, a summary line.
R=$HM_TMP/rec6.json
M=$HM_TMP/mixed.json
head -n 6 "$HM_TMP/b.json" >"$R"
{
	echo 'garbage'
	sed -n 1,2p "$R"
	echo '{}'
	echo 'null'
	sed -n 3,4p "$R"
	echo "$(sed -n 1p "$R") trailing"
	sed -n 1p "$R" | head -c 100; echo
	echo '{"summary":{"records":1}}'
	sed -n 5,6p "$R"
} >"$M"
hm_on b "$HOPMARK" -j monitor file "$M" >"$HM_TMP/mon.json" 2>"$HM_TMP/mon.err"
hm_check "monitor_file_mixed_json_exit_status" 0 "$?"
# Line by line: which stdout lines equal the 6 records, in order.
hm_check "monitor_file_mixed_json_only_the_records" "6 lines, the 6 records in order" \
	"$("$PY" -c '
import sys
want, got = open(sys.argv[1]).read().splitlines(), open(sys.argv[2]).read().splitlines()
print("%d lines, %s" % (len(got), "the 6 records in order" if got == want else
      "not the records: " + " | ".join(l[:40] for l in got)))' "$R" "$HM_TMP/mon.json")"
hm_check "monitor_file_mixed_rejected_count_on_stderr" 1 \
	"$(grep -c "^hopmark: 6 of 12 lines from $M rejected" "$HM_TMP/mon.err")"
hm_on b "$HOPMARK" -j monitor file "$M" summary 2>/dev/null | tail -n 1 >"$HM_TMP/mon.sum"
hm_check "monitor_file_mixed_json_summary" "records 6 not_decoded 6" \
	"$("$PY" -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print("records", s["records"], "not_decoded", s["not_decoded"])' "$HM_TMP/mon.sum" 2>&1)"
hm_on b "$HOPMARK" monitor file "$M" >"$HM_TMP/mon.txt" 2>&1
hm_check "monitor_file_mixed_text_exit_status" 0 "$?"
hm_check "monitor_file_mixed_text_count" "6 records, 6 not shown" \
	"$(grep -E '^[0-9]+ records' "$HM_TMP/mon.txt")"

# Nothing but rejected lines: a failure, in both forms; -j stdout stays JSON.
grep -v -x -F -f "$R" "$M" >"$HM_TMP/bad.json"
hm_on b "$HOPMARK" monitor file "$HM_TMP/bad.json" >/dev/null 2>&1
hm_check "monitor_file_all_rejected_text_fails" 1 "$?"
hm_on b "$HOPMARK" -j monitor file "$HM_TMP/bad.json" >"$HM_TMP/bad.out" 2>/dev/null
hm_check "monitor_file_all_rejected_json_fails" 1 "$?"
hm_check "monitor_file_all_rejected_json_stdout" "error 1" "$("$PY" -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
print(" ".join(k for l in lines for k in l), lines[-1]["error"]["exit_status"])' "$HM_TMP/bad.out" 2>&1)"
hm_done
