#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_transit_inplace.sh - hm_transit_out writes the egress fields in place
# (direct packet writes) when the trace is in the skb's linear part, and
# through the general walk and bpf_skb_store_bytes() otherwise; both give
# the same bytes. One namespace, veth v0 -> v1 (hm_transit_out on v0's
# egress) and veth c0 -> c1. AF_PACKET sends the same crafted frame out of
# v0 (IPv6, Hop-by-Hop: PadN, an IOAM Pre-allocated Trace 0xc00000 of 3
# slots whose most recent is this node's, node ID 7 at Hop Limit 9, egress
# ID still 0xffff), captured on v1:
#   linear	the whole frame in the linear part (the in-place path)
#   paged	PACKET_VNET_HDR with hdr_len 14: only the Ethernet header is
#		linear, the trace is in page fragments (the general path)
#   cloned	a tc mirred mirror (u32 match all) on v0's egress (before hm_transit_out)
#		clones the skb and sends the clone out of c0: hm_transit_out
#		writes into an uncloned copy (the verifier's prologue), so the
#		clone, received on c1 after the write, still has 0xffff
# Each must carry egress ID 77 (v0's), the clone 0xffff, and
# transit_egress_ok grows by one per frame.
# TAP output; skip (exit 4, or 0 under prove) without root, netns or tcpdump.
set -u
HM_PFX=${HM_PFX:-hmi$$p}
. "$(dirname "$0")/../lib.sh"
HM_NODES="n"
NET=$(dirname "$0")
N=3

hm_require_root_netns
hm_require_built "$HOPMARK" "$HM_BPF_DIR/hopmark_transit.bpf.o"
command -v tcpdump >/dev/null || hm_skip_all "needs tcpdump"
hm_trap_teardown
hm_tmpdir

x() { hm_on n "$@"; }
HM_TOPO_UP=1
hm_node_add n && mkdir -p "$(hm_rundir n)" || { echo "Bail out! netns"; exit 1; }
x ip link add v0 type veth peer name v1 &&
x ip link add c0 type veth peer name c1 || { echo "Bail out! devices"; exit 1; }
# v1 and c1 only receive: no IPv6 on them, nothing answers or forwards.
for d in v1 c1; do
	x sysctl -qw net.ipv6.conf.$d.disable_ipv6=1 || { echo "Bail out! sysctl"; exit 1; }
done
for d in v0 v1 c0 c1; do
	x ip link set $d up || { echo "Bail out! link up"; exit 1; }
done
x "$HOPMARK" node set id 7 >/dev/null &&
	x "$HOPMARK" link set dev v0 id 77 >/dev/null &&
	x "$HOPMARK" ioam namespace add 123 >/dev/null &&
	x "$HOPMARK" ioam transit enable dev v0 >/dev/null ||
	{ echo "Bail out! hopmark configuration"; exit 1; }

# send PORT [HDR_LEN] - N frames out of v0, UDP to PORT; with HDR_LEN, through
# a PACKET_VNET_HDR socket whose linear part is HDR_LEN bytes.
send()
{
	x "$PY" - "$1" "${2:-}" "$N" <<'EOF'
import socket, struct, sys
port, hdr_len, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
src = bytes.fromhex("fd000000000000000000000000000001")
dst = bytes.fromhex("fd000000000000000000000000000002")
# Trace 0xc00000 (hop limit + node ID, interface IDs), 3 slots, RemainingLen 2:
# slot 1 is this node's (Hop_Lim 9, node 7, ingress 5, egress unavailable),
# slot 2 an earlier node's.
data = bytes(8) + bytes.fromhex("09000007" "0005ffff") + bytes.fromhex("0a000003" "00010002")
trace = struct.pack("!HBB", 123, 2 << 3, 2) + b"\xc0\x00\x00\x00" + data
ioam = bytes([0x31, 2 + len(trace), 0, 0]) + trace
hbh = bytes([17, 5, 1, 0]) + ioam + bytes([1, 6]) + bytes(6)
assert len(hbh) == 48
payload = bytes(range(32))
udp_len = 8 + len(payload)
udp = struct.pack("!HHHH", 4000, port, udp_len, 0) + payload
ph = src + dst + struct.pack("!I", udp_len) + b"\x00\x00\x00\x11"
s = 0
for i in range(0, len(ph + udp), 2):
    s += int.from_bytes((ph + udp)[i:i + 2].ljust(2, b"\0"), "big")
while s >> 16:
    s = (s & 0xffff) + (s >> 16)
udp = udp[:6] + struct.pack("!H", (~s & 0xffff) or 0xffff) + udp[8:]
ip6 = struct.pack("!IHBB", 6 << 28, len(hbh) + len(udp), 0, 9) + src + dst
eth = b"\x02\x00\x00\x00\x00\x02" + b"\x02\x00\x00\x00\x00\x01" + b"\x86\xdd"
frame = eth + ip6 + hbh + udp
sk = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
sk.bind(("v0", 0))
if hdr_len:
    sk.setsockopt(263, 15, 1)	# SOL_PACKET, PACKET_VNET_HDR
    # struct virtio_net_hdr, little-endian: no checksum, no GSO, hdr_len
    frame = struct.pack("<BBHHHH", 0, 0, int(hdr_len), 0, 0, 0) + frame
for _ in range(n):
    sk.send(frame)
EOF
}

# slots FILE PORT - the trace data of the frames to PORT in capture FILE, one
# line each.
slots()
{
	"$PY" "$NET/hm_pkt.py" pcap "$1" | "$PY" -c '
import json, sys
for l in sys.stdin:
    d = json.loads(l)
    if d.get("dport") == int(sys.argv[1]) and "ioam" in d:
        print(d["ioam"]["data"])' "$2" | sort | uniq -c | awk '{ print $1 " " $2 }'
}

hm_capture_start n v1 "$HM_TMP/v1.pcap" || { echo "Bail out! tcpdump v1"; exit 1; }
CAP_V1=$HM_CAP_PID
hm_capture_start n c1 "$HM_TMP/c1.pcap" || { echo "Bail out! tcpdump c1"; exit 1; }
CAP_C1=$HM_CAP_PID
OK0=$(hm_counter n v0 transit_egress_ok) || { echo "Bail out! counter"; exit 1; }

send 1001 || { echo "Bail out! send linear"; exit 1; }
send 1002 14 || { echo "Bail out! send paged"; exit 1; }
x tc filter add dev v0 egress pref 1 protocol all u32 match u32 0 0 action mirred egress mirror dev c0 continue ||
	{ echo "Bail out! mirred"; exit 1; }
send 1003 || { echo "Bail out! send cloned"; exit 1; }
x tc filter del dev v0 egress pref 1
sleep 0.3
hm_capture_stop "$CAP_V1"
hm_capture_stop "$CAP_C1"
OK1=$(hm_counter n v0 transit_egress_ok)

SENT=0000000000000000090000070005ffff0a00000300010002
DONE=000000000000000009000007"0005004d"0a00000300010002
DONE=${DONE//\"/}
hm_check "linear_egress_id_written_in_place" "$N $DONE" "$(slots "$HM_TMP/v1.pcap" 1001)"
hm_check "paged_same_bytes_as_linear" "$N $DONE" "$(slots "$HM_TMP/v1.pcap" 1002)"
hm_check "cloned_original_egress_id_written" "$N $DONE" "$(slots "$HM_TMP/v1.pcap" 1003)"
hm_check "cloned_clone_left_as_it_was" "$N $SENT" "$(slots "$HM_TMP/c1.pcap" 1003)"
hm_check "transit_egress_ok_once_per_frame" "$((3 * N))" "$((OK1 - OK0))"
hm_done
