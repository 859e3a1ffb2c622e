#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_capture.sh - what hopmarkd reports equals what is on the wire. A
# capture at B's ingress (before hm_decap removes the option: taps run
# before tc ingress) is decoded by tshark's IOAM dissector and by
# `hopmark decode`; every field of every hop must equal the agent's JSON.
# tcpdump's `udp` filter misses IPv6 with extension headers: filter `ip6`.
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
hm_done
