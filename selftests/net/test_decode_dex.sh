#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_decode_dex.sh - how `hopmark decode` reports a Direct Export option
# (RFC 9326 §3.2): the fields in RFC bit order, the 4-octet field every
# unassigned Extension-Flag set announces (ignored, shown in hex), octets
# past all announced fields, and an option shorter than its flags
# announce. The captures (LINKTYPE_RAW) are written here, one ICMPv6 echo
# request each, with the Hop-by-Hop layout of the out-of-tree encoder whose
# Extension-Flags 0x03 numbers the bits from the low end. Needs no root.
set -u
. "$(dirname "$0")/../lib.sh"

hm_require_built "$HOPMARK"
PY=${PYTHON:-python3}
command -v "$PY" >/dev/null || hm_skip_all "needs python3 to write the captures"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# dex_pcap FILE EXT_FLAGS EXTRA_HEX - one packet; its DEX option data is the
# 8-octet header (namespace 123, Trace-Type 0x800000), Flow ID 21 and
# Sequence Number 7, then EXTRA_HEX.
dex_pcap()
{
	"$PY" - "$@" <<'PYEOF'
import struct, sys
path, ext, extra = sys.argv[1], int(sys.argv[2], 0), bytes.fromhex(sys.argv[3])
dex = struct.pack("!HBB", 123, 0, ext) + bytes([0x80, 0, 0, 0]) + struct.pack("!II", 21, 7) + extra
opt = bytes([0x31, 2 + len(dex), 0, 4]) + dex
hbh = bytes([58, 0]) + bytes([1, 0]) + opt	# PadN(0) puts the option at 4n
hbh += bytes([0]) * (-len(hbh) % 8)		# Pad1s to 8n (at most 7 here)
hbh = hbh[:1] + bytes([len(hbh) // 8 - 1]) + hbh[2:]
icmp = bytes([128, 0, 0, 0, 0, 1, 0, 1])
src = bytes.fromhex("20010db8000000000000000000000001")
dst = bytes.fromhex("20010db8000000000000000000000002")
ip = struct.pack("!IHBB", 0x60000000, len(hbh) + len(icmp), 0, 64) + src + dst + hbh + icmp
with open(path, "wb") as f:
	f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 101))
	f.write(struct.pack("<IIII", 1, 0, len(ip), len(ip)) + ip)
PYEOF
}

# report FILE - the DEX part of decode's report line.
report() { "$HOPMARK" decode "$1" 2>&1 | sed -n 's/^frame 1: IOAM Direct Export option (Option-Type 4), not a trace: //p'; }

dex_pcap "$TMP/lsb.pcap" 0x03 ""
hm_check "unassigned_flags_fields_ignored_and_shown" \
	"namespace 123 flags 0x00 extension-flags 0x03 trace-type 0x800000; extension-flags bits 0x03 are unassigned in RFC 9326 (Flow ID is 0x80, Sequence Number 0x40); 8 bytes of the fields the unassigned flags announce, ignored: 0000001500000007 (read least-significant-bit first, 0x03 would give flow-id 21 sequence 7)" \
	"$(report "$TMP/lsb.pcap")"

dex_pcap "$TMP/rfc.pcap" 0xc0 ""
hm_check "flow_id_and_sequence_in_rfc_bit_order" \
	"namespace 123 flags 0x00 extension-flags 0xc0 trace-type 0x800000 flow-id 21 sequence 7" \
	"$(report "$TMP/rfc.pcap")"

dex_pcap "$TMP/both.pcap" 0xc1 "deadbeef"
hm_check "unassigned_flag_field_after_the_assigned_ones" \
	"namespace 123 flags 0x00 extension-flags 0xc1 trace-type 0x800000 flow-id 21 sequence 7; extension-flags bits 0x01 are unassigned in RFC 9326 (Flow ID is 0x80, Sequence Number 0x40); 4 bytes of the fields the unassigned flags announce, ignored: deadbeef" \
	"$(report "$TMP/both.pcap")"

dex_pcap "$TMP/trail.pcap" 0xc0 "deadbeef"
hm_check "octets_past_every_announced_field_are_trailing" \
	"namespace 123 flags 0x00 extension-flags 0xc0 trace-type 0x800000 flow-id 21 sequence 7; 4 trailing bytes not interpreted: deadbeef" \
	"$(report "$TMP/trail.pcap")"

dex_pcap "$TMP/short.pcap" 0xe0 ""
hm_check "option_shorter_than_its_flags_announce" \
	"namespace 123 flags 0x00 extension-flags 0xe0 trace-type 0x800000 flow-id 21 sequence 7; extension-flags bits 0x20 are unassigned in RFC 9326 (Flow ID is 0x80, Sequence Number 0x40); option too short for its extension-flags (16 of 20 bytes)" \
	"$(report "$TMP/short.pcap")"

hm_done
