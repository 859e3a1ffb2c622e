#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_int_gso.sh - a bulk TCP transfer sent with GSO gets INT on every
# segment (Documentation/int.rst, "GSO and TSO").
#
#   S ---- N ---- D
#   iperf3 -c   hm_int_xdp_src (XDP) on N's n-s   hm_int_sink on D's d-n
#               forwarding                        iperf3 -s
#
# The XDP program on n-s makes its peer s-n lose TSO (veth_fix_features):
# S's TCP still sends GSO superpackets, segmented in software before the
# veth, and every segment reaches N's XDP at MTU size, where it gets NPT=2
# INT (UDP port 4242, bitmap 0x9000). S's route MTU (1468) leaves the 32
# octets. D's sink removes INT before its TCP stack. Checked:
#   - s-n has TSO off and GSO on, while XDP runs on its peer;
#   - IPv4: the transfer completes (every byte), every packet S sent to
#     the watched port is INT on N's egress (tcpdump), src_ok counts them,
#     and D's sink removed as many (sink_ok);
#   - with real checksums (S tx off, D rx off: D verifies every TCP
#     checksum) the transfer completes with no checksum error at D;
#   - IPv6 with a 1500-octet route MTU: no room, so every segment goes
#     without INT, counted as src_mtu_no_int, and the transfer completes;
#     a flow to an unwatched port: src_not_watched; the packets left
#     without INT on the wire equal the sum of the reasons counted.
# N and D are set up with `hopmark int` (set, watch, enable role
# xdp-source / sink), counters read from `hopmark -j -s int show`.
# Throughput of plain forwarding (TSO on), software GSO alone (TSO off at S,
# no XDP), XDP attached without INT, and INT on every segment is printed as
# diagnostics, alternated over 3 rounds (not checked: Documentation/int.rst,
# "GSO and TSO", quotes them).
set -u
HM_PFX=${HM_PFX:-hmi$$g}
. "$(dirname "$0")/../lib.sh"
HM_NODES="s n d"
PORT=4242	# INT UDP port
MB=${HM_GSO_MB:-64}	# megabytes per checked transfer

hm_require_root_netns
hm_require_built "$HOPMARK" "$HM_BPF_DIR/hopmark_int_xdp.bpf.o" "$HM_BPF_DIR/hopmark_int.bpf.o"
for c in iperf3 tcpdump ethtool nstat; do
	command -v $c >/dev/null || hm_skip_all "needs $c"
done
hm_trap_teardown
hm_tmpdir

mac_of() { ip netns exec "$(hm_ns "$1")" cat "/sys/class/net/$2/address"; }
# tx_packets of N's n-d: every packet N forwarded towards D.
n_tx() { ip netns exec "$(hm_ns n)" cat /sys/class/net/n-d/statistics/tx_packets; }

setup()
{
	# Room for UDP (8) + shim and MD header (16) + 2 words of metadata.
	hm_line_create s n d 1468 1500 || return
	# Static neighbours: N itself sends nothing towards D during the
	# transfers, so n-d's tx_packets are the packets it forwarded from S.
	hm_on n ip neigh replace 10.2.0.2 lladdr "$(mac_of d d-n)" dev n-d nud permanent
	hm_on n ip -6 neigh replace fd02::2 lladdr "$(mac_of d d-n)" dev n-d nud permanent
	hm_line_wait s
}

# domain NODE [DPORT]: UDP-port signalling, INT-MD, bitmap 0x9000; with
# DPORT, the watchlist is TCP to DPORT (IPv4 and IPv6), else empty.
domain()
{
	hm_on "$1" "$HOPMARK" int set mode md signal udp $PORT instructions 0x9000 max-hops 8 \
		report-trunc 64 && hm_on "$1" "$HOPMARK" int watch flush || return
	[ -z "${2:-}" ] || hm_on "$1" "$HOPMARK" int watch add proto tcp dport "$2" >/dev/null
}

setup || { echo "Bail out! topology"; exit 1; }
domain n 5201 && domain d || { echo "Bail out! domain"; exit 1; }
hm_check_cmd "XDP INT source on N's n-s (int enable role xdp-source)" \
	hm_on n "$HOPMARK" int enable dev n-s role xdp-source
hm_check_cmd "INT sink on D's d-n (int enable role sink)" hm_on d "$HOPMARK" int enable dev d-n role sink

hm_check "S's s-n with XDP on its peer: TSO off, GSO on" "off on" \
	"$(hm_on s ethtool -k s-n | awk '/^tcp-segmentation-offload:/ { t = $2 } /^generic-segmentation-offload:/ { g = $2 } END { print t, g }')"

# stat NODE DEV FIELD: one int_stats counter of DEV (hopmark -j -s int show).
stat() { hm_on "$1" "$HOPMARK" -j -s int show | "$PY" -c "
import json, sys
print(sum(i['counters']['$3'] for i in json.load(sys.stdin)['interfaces'] if i['dev'] == '$2'))"; }

# The application's view: D receives MB megabytes from S over TCP and
# prints how many octets arrived and their SHA-256, which S prints too.
APP='
import hashlib, socket, sys
role, fam, addr, port, mb = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
af = socket.AF_INET if fam == "4" else socket.AF_INET6
if role == "recv":
    l = socket.socket(af, socket.SOCK_STREAM)
    l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    l.bind((addr, port)); l.listen(1)
    open(sys.argv[6], "w").close()
    c, _ = l.accept(); h = hashlib.sha256(); n = 0
    while True:
        b = c.recv(1 << 20)
        if not b:
            break
        h.update(b); n += len(b)
    print(n, h.hexdigest())
else:
    blk = b"".join(hashlib.sha256(bytes([i, j])).digest() for i in range(256) for j in range(128))
    s = socket.create_connection((addr, port)); h = hashlib.sha256()
    for k in range(mb):
        d = bytes([k & 0xff]) + blk[1:]
        s.sendall(d); h.update(d)
    s.close()
    print(mb * len(blk), h.hexdigest())
'

# transfer NAME FAMILY DST PORT: MB megabytes S -> D, captured on n-d.
transfer()
{
	local name=$1 fam=$2 dst=$3 port=$4 any=0.0.0.0 i
	[ "$fam" = 6 ] && any=::
	rm -f "$HM_TMP/$name.ready"
	hm_bg d "$PY" -c "$APP" recv "$fam" "$any" "$port" "$MB" "$HM_TMP/$name.ready" \
		>"$HM_TMP/$name.recv"
	local rx=$HM_BG_PID
	hm_bg n tcpdump -ni n-d -s 96 -w "$HM_TMP/$name.pcap" "src 10.1.0.1 or src fd01::1" \
		2>"$HM_TMP/$name.tcpdump"
	local td=$HM_BG_PID
	for i in $(seq 50); do
		[ -e "$HM_TMP/$name.ready" ] && grep -q listening "$HM_TMP/$name.tcpdump" && break
		sleep 0.1
	done
	hm_on s "$PY" -c "$APP" send "$fam" "$dst" "$port" "$MB" >"$HM_TMP/$name.sent"
	wait $rx 2>/dev/null
	sleep 0.3
	kill -INT $td
	wait $td
}
# sent NAME / received NAME: "OCTETS SHA256" of what S sent and D's application received.
sent() { cat "$HM_TMP/$1.sent"; }
received() { cat "$HM_TMP/$1.recv"; }
# count NAME FILTER: packets of the capture that match FILTER.
count() { tcpdump -nr "$HM_TMP/$1.pcap" "$2" 2>/dev/null | wc -l; }
cap_drops() { sed -n 's/^\([0-9]*\) packets dropped by kernel$/\1/p' "$HM_TMP/$1.tcpdump"; }

# ---- IPv4: every segment gets INT
TX0=$(n_tx)
transfer v4 4 10.2.0.2 5201
TX=$(( $(n_tx) - TX0 ))
hm_check "IPv4: the application received every octet S sent (count, SHA-256)" \
	"$(sent v4)" "$(received v4)"
hm_check "IPv4 capture lost nothing" 0 "$(cap_drops v4)"
ALL=$(count v4 "src 10.1.0.1")
INT=$(count v4 "src 10.1.0.1 and udp dst port $PORT")
echo "# IPv4: $ALL packets from S on N's egress, $INT with INT"
hm_check "IPv4: every packet from S carries INT on the wire" "$ALL" "$INT"
hm_check "IPv4: the transfer took more than MB x 700 segments" "True" \
	"$([ "$INT" -gt $((MB * 700)) ] && echo True || echo False)"
echo "# IPv4: N forwarded $TX packets towards D; src_ok $(stat n n-s src_ok), sink_ok $(stat d d-n sink_ok)"
hm_check "IPv4: every packet N forwarded got INT at its XDP (src_ok = n-d tx_packets)" \
	"$TX" "$(stat n n-s src_ok)"
hm_check "IPv4: D's sink removed INT from each (sink_ok = src_ok)" \
	"$(stat n n-s src_ok)" "$(stat d d-n sink_ok)"
hm_check "IPv4: no segment left without INT (src_mtu_no_int, src_not_watched)" "0 0" \
	"$(stat n n-s src_mtu_no_int) $(stat n n-s src_not_watched)"

# ---- real checksums: S computes them, D verifies them
hm_on s ethtool -K s-n tx off >/dev/null 2>&1
hm_on d ethtool -K d-n rx off >/dev/null 2>&1
hm_on d nstat -n >/dev/null
transfer csum 4 10.2.0.2 5201
hm_check "checksums computed at S, verified at D: every octet received" \
	"$(sent csum)" "$(received csum)"
hm_check "D counted no TCP checksum error" 0 \
	"$(hm_on d nstat -az TcpInCsumErrors | awk '$1 == "TcpInCsumErrors" { print $2 }')"
hm_on s ethtool -K s-n tx on >/dev/null 2>&1
hm_on d ethtool -K d-n rx on >/dev/null 2>&1

# ---- left without INT, per reason
OK0=$(stat n n-s src_ok) MTU0=$(stat n n-s src_mtu_no_int) NW0=$(stat n n-s src_not_watched)
TX0=$(n_tx)
transfer v6 6 fd02::2 5201
hm_check "IPv6, route MTU 1500: every octet received" "$(sent v6)" "$(received v6)"
transfer unw 4 10.2.0.2 5202
hm_check "IPv4 to unwatched port 5202: every octet received" "$(sent unw)" "$(received unw)"
NOINT=$(( $(n_tx) - TX0 - ($(stat n n-s src_ok) - OK0) ))
MTU=$(( $(stat n n-s src_mtu_no_int) - MTU0 ))
NW=$(( $(stat n n-s src_not_watched) - NW0 ))
echo "# forwarded without INT: $NOINT; src_mtu_no_int $MTU, src_not_watched $NW," \
	"src_ok $(( $(stat n n-s src_ok) - OK0 ))"
hm_check "IPv6 at MTU: counted as src_mtu_no_int (more than 1000)" "True" \
	"$([ "$MTU" -gt 1000 ] && echo True || echo False)"
hm_check "IPv6 capture: the MTU-sized segments left without INT" "True" \
	"$([ "$(count v6 "src fd01::1 and not udp dst port $PORT")" -gt 1000 ] && echo True || echo False)"
hm_check "every packet left without INT is counted: n-d tx - src_ok = src_mtu_no_int + src_not_watched" \
	"$NOINT" "$((MTU + NW))"

# ---- throughput (diagnostics only)
rate() { "$PY" -c "
import json; print('%.2f' % (json.load(open('$HM_TMP/$1.json'))['end']['sum_received']['bits_per_second'] / 1e9))" 2>/dev/null; }
run_rate()
{
	local name=$1
	hm_bg d iperf3 -s -1 -p 5201 >/dev/null 2>&1
	sleep 0.5
	hm_on s iperf3 -c 10.2.0.2 -p 5201 -t "${HM_GSO_SECS:-3}" -J >"$HM_TMP/$name.json" 2>&1
	wait "$HM_BG_PID" 2>/dev/null
}
for rep in 1 2 3; do
	hm_on n "$HOPMARK" int disable dev n-s role xdp-source
	run_rate plain$rep
	hm_on s ethtool -K s-n tso off >/dev/null
	run_rate gso$rep
	hm_on s ethtool -K s-n tso on >/dev/null
	hm_on n "$HOPMARK" int enable dev n-s role xdp-source
	domain n 9
	run_rate xdp$rep
	domain n 5201
	run_rate int$rep
	echo "# Gbit/s round $rep: plain (TSO) $(rate plain$rep), GSO without XDP (TSO off)" \
		"$(rate gso$rep), XDP without INT $(rate xdp$rep), INT on every segment $(rate int$rep)"
done

hm_done
