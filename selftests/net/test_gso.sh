#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_gso.sh - GSO/TSO: a TCP transfer from A with segmentation offload on
# reaches B complete; every segment arriving at B carries the IOAM option
# (captured at B's ingress, where taps run before hm_decap), fits the link
# MTU (hm_encap shrank gso_size by the 256 bytes it added), and has a valid
# TCP checksum. R3 has checksum and segmentation offload off on r3-b, so
# what B captures is what a wire would carry (veth otherwise passes GSO
# skbs and partial checksums through unchanged).
set -u
HM_PFX=${HM_PFX:-hmi$$g}
. "$(dirname "$0")/../lib.sh"
NET=$(dirname "$0")
BYTES=2000000

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
for c in tshark tcpdump socat ethtool; do
	command -v $c >/dev/null || hm_skip_all "needs $c"
done
hm_trap_teardown
hm_tmpdir

hm_topo_create || { echo "Bail out! topology"; exit 1; }
hm_setup_cli || { echo "Bail out! hopmark CLI configuration failed"; exit 1; }
hm_agent_start b "$HM_TMP/b.json" || { echo "Bail out! hopmarkd on B"; exit 1; }

hm_on a ethtool -K a-r1 tso on gso on >/dev/null 2>&1
hm_on r3 ethtool -K r3-b tso off gso off tx off >/dev/null 2>&1
echo "# A's a-r1: $(hm_on a ethtool -k a-r1 | grep -E '^(tcp-segmentation-offload|generic-segmentation-offload):' | tr -s '\n ' ' ')"
hm_check "gso_on_at_a" "generic-segmentation-offload: on" \
	"$(hm_on a ethtool -k a-r1 | grep -o '^generic-segmentation-offload: on')"

ENC0=$(hm_counter a a-r1 encap_ok)
ERR0=$(hm_counter a a-r1 encap_err)
hm_capture_start b b-r3 "$HM_TMP/b.pcap" "ip6 and not icmp6" ||
	{ echo "Bail out! tcpdump"; exit 1; }
hm_bg b socat -u TCP6-LISTEN:5555,reuseaddr "OPEN:$HM_TMP/rx.bin,creat,trunc"
RX=$HM_BG_PID
sleep 0.3
head -c $BYTES /dev/urandom >"$HM_TMP/tx.bin"
hm_on a socat -u "OPEN:$HM_TMP/tx.bin" "TCP6:[$HM_B_ADDR]:5555"
wait "$RX"
hm_capture_stop
echo "# tcpdump: $(grep -E "captured|dropped by kernel" "$HM_TMP/b.pcap.log" | tr "\n" " ")"

hm_check "tcp_transfer_complete" "$BYTES identical" \
	"$(stat -c %s "$HM_TMP/rx.bin") $(cmp -s "$HM_TMP/tx.bin" "$HM_TMP/rx.bin" && echo identical || echo different)"

"$PY" "$NET/hm_pkt.py" pcap "$HM_TMP/b.pcap" | grep '"proto": 6' >"$HM_TMP/seg.json"
SEGS=$(hm_json "$HM_TMP/seg.json" 'len([r for r in recs if r.get("tcp_len", 0) > 0])')
echo "# $SEGS TCP data segments captured at B's ingress"
hm_check "every_tcp_segment_carries_ioam" "$SEGS" \
	"$(hm_json "$HM_TMP/seg.json" 'len([r for r in recs if r.get("tcp_len", 0) > 0 and "ioam" in r])')"
hm_check "every_tcp_packet_a_to_b_carries_ioam" "True" \
	"$(hm_json "$HM_TMP/seg.json" 'len(recs) > 0 and all("ioam" in r for r in recs if r["dport"] == 5555)')"
hm_check "segments_fit_link_mtu" "True" \
	"$(hm_json "$HM_TMP/seg.json" 'max(r["orig_len"] - 14 for r in recs) <= 1500')"
hm_check "segments_carry_data_with_option" "True" \
	"$(hm_json "$HM_TMP/seg.json" 'max(r.get("tcp_len", 0) for r in recs if "ioam" in r) > 900')"
hm_check "segment_traces_complete" "True" \
	"$(hm_json "$HM_TMP/seg.json" 'all(r["ioam"]["remlen"] == 0 and not r["ioam"]["overflow"] for r in recs if "ioam" in r)')"

if BAD=$(tshark -r "$HM_TMP/b.pcap" -o tcp.check_checksum:TRUE \
	-Y "tcp.checksum.status == 0 && ipv6.src == $HM_A_ADDR" 2>"$HM_TMP/tshark.err" | wc -l) &&
   GOOD=$(tshark -r "$HM_TMP/b.pcap" -o tcp.check_checksum:TRUE \
	-Y 'tcp.checksum.status == 1 && ipv6.opt.ioam.trace.ns' 2>>"$HM_TMP/tshark.err" | wc -l); then
	hm_check "tshark_no_bad_tcp_checksum" 0 "$BAD"
	hm_check "tshark_checked_every_traced_segment" "$(hm_json "$HM_TMP/seg.json" 'len([r for r in recs if "ioam" in r])')" "$GOOD"
else
	hm_check "tshark_checksum_check_ran" "ok" "$(tail -n 2 "$HM_TMP/tshark.err")"
fi
hm_check "encap_counted_no_error" 0 "$(( $(hm_counter a a-r1 encap_err) - ERR0 ))"
ENC=$(( $(hm_counter a a-r1 encap_ok) - ENC0 ))
echo "# encap_ok at A: $ENC (GSO skbs count once)"
hm_check "encap_ok_counted" "True" "$([ "$ENC" -gt 0 ] && echo True || echo False)"
# Fewer encapsulations than segments: hm_encap got GSO skbs (segmented
# after tc egress), not one MSS-sized skb per segment.
hm_check "encap_saw_gso_skbs" "True" "$([ "$ENC" -lt "$SEGS" ] && echo True || echo False)"
# Every packet B decapsulated was reported: hopmarkd's records plus what the
# ring buffer could not take. (A count from the capture is no reference:
# tcpdump may lose packets on a loaded machine.)
hm_agent_stop b
DECAP=$(hm_counter b b-r3 decap_ok)
hm_check "decap_ok_equals_records_reported_at_b" "$DECAP" \
	"$(( $(grep -c '"hops"' "$HM_TMP/b.json") + $(hm_counter b b-r3 events_lost) ))"
hm_check "decap_ok_covers_traced_packets_captured_at_b" "True" \
	"$([ "$DECAP" -ge "$(hm_json "$HM_TMP/seg.json" 'len([r for r in recs if "ioam" in r])')" ] && echo True || echo False)"
hm_done
