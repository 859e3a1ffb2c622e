#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_ipfix_interop.sh - hopmarkd's IPFIX export of PBT-M postcards,
# decoded by three independent decoders from Debian and tolerated by a
# fourth (Documentation/ipfix.rst, "Interoperability"):
#
#   S ---- M ---- C
#   head, egress postcards          decoders on C (10.2.0.2)
#   hopmarkd exports to C
#
# S marks every UDP datagram to port 5001 (mark-ipv4 reserved, sample
# all) at tc egress of s-m and makes an egress postcard for it; hopmarkd
# on S writes each postcard as a JSON line (the reference: the record as
# the datapath made it) and exports it as IPFIX to C. Real packets
# through the kernel, the BPF datapath of bpf/hopmark_pbt.bpf.c. One run
# per decoder and transport, each with HM_IPFIX_N datagrams:
#
#   udp-dump   UDP, recorded with socat into a file: ipfixDump --rfc5610
#              names hopmark's elements from the RFC 5610 type records,
#              and the packet IDs, TTLs, ports and addresses equal the
#              JSON lines'; tshark's cflow dissector on a capture of the
#              same stream finds the same packet IDs in the PEN fields;
#              the export packets have DSCP 0 and no mark bit
#   nfacctd    UDP: pmacct's print plugin (JSON) with aggregate_primitives
#              for the enterprise elements, the packet ID in the aggregate
#   nfcapd     UDP: nfdump's collector takes the stream (tolerance of the
#              enterprise elements it drops): one flow record per postcard
#   tcp-dump   TCP: the stream recorded with socat, ipfixDump and tshark
#              (-d tcp.port==P,cflow) as for UDP
#   collector  UDP, then TCP: hopmark-collector's own decoder
#              (lib/ipfix/ipfix_decode.c) takes the stream: every postcard
#              decoded, none refused, no Sequence Number gap, and its paths
#              hold exactly the JSON lines' packet IDs
#   rate       UDP, `rate 100` while S sends 200 datagrams/s for 3 s: the
#              records sent are 100/s (+ the bucket's depth of 10) within
#              5 %, sent + rate_limited = postcards, and the last options
#              record's hopmarkRecordsNotSent is rate_limited; a per-flow
#              template with `timeout 1` is removed by hopmarkd once it
#              expired (logged, counted)
set -u
HM_PFX=${HM_PFX:-hmipx$$}
. "$(dirname "$0")/../lib.sh"
HM_NODES="s m c"

HM_IPFIX_N=${HM_IPFIX_N:-20}
C4=10.2.0.2

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD" "$HM_BPF_DIR/hopmark_pbt.bpf.o"
for t in ipfixDump tshark socat nfacctd nfcapd nfdump tcpdump; do
	command -v "$t" >/dev/null || hm_skip_all "needs $t (make deps)"
done

hm_trap_teardown
hm_tmpdir
T=$HM_TMP
hm_line_create s m c || { echo "Bail out! topology"; exit 1; }
hm_line_wait s || { echo "Bail out! S cannot reach C"; exit 1; }

hm_on s "$HOPMARK" postcard set mark-ipv4 reserved &&
hm_on s "$HOPMARK" postcard watch add proto udp dport 5001 &&
hm_on s "$HOPMARK" postcard sample all &&
hm_on s "$HOPMARK" postcard enable dev s-m role head &&
hm_on s "$HOPMARK" postcard enable dev s-m role egress ||
	{ echo "Bail out! postcard setup"; exit 1; }

# send N - HM_IPFIX_N datagrams S -> C:5001, distinct payloads.
send()
{
	hm_on s "$PY" -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(int(sys.argv[1])):
	s.sendto(b"hopmark-ipfix-%06d" % i, ("10.2.0.2", 5001))
' "$HM_IPFIX_N"
}

# stop_pid PID - SIGTERM, up to 3 s to exit, then SIGKILL; reaped.
stop_pid()
{
	kill -TERM "$1" 2>/dev/null
	for _ in $(seq 30); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# run NAME PORT TRANSPORT - export to C:PORT, hopmarkd on S, traffic, stop.
run()
{
	local name=$1 port=$2 tr=$3
	hm_on s "$HOPMARK" postcard export set collector $C4 port "$port" transport "$tr" \
		domain 7 refresh 30 || return 1
	hm_agent_start s "$T/$name.json" || return 1
	# TCP: the agent connects (and sends its templates) first.
	sleep 0.5
	send
	hm_wait_lines "$T/$name.json" "$HM_IPFIX_N" 30
	sleep 1.2
	hm_agent_stop s
}

# ids FILE - the JSON lines' packet IDs, sorted, one line.
ids() { "$PY" -c '
import json, sys
print(" ".join(sorted(str(json.loads(l)["pkt_id"]) for l in open(sys.argv[1]))))' "$1"; }

# dump_check NAME FILE - ipfixDump --rfc5610 of FILE against NAME.json.
dump_check()
{
	local name=$1 f=$2
	hm_ipfix_dump "$f" "$T/$name.dump"
	hm_check "$name: ipfixDump exit status" 0 $?
	hm_check "$name: ipfixDump names every hopmark element (RFC 5610)" 0 \
		"$(grep -c '^	ent: 32473 .*_alienInformationElement' "$T/$name.dump")"
	"$PY" - "$T/$name.dump.records" "$T/$name.json" >"$T/$name.checks" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
pc = [r for r in recs if "hopmarkPacketId" in r]
ref = [json.loads(l) for l in open(sys.argv[2])]
def show(v): return " ".join(v)
print("records with hopmarkPacketId\t%d\t%d" % (len(ref), len(pc)))
print("packet IDs\t%s\t%s" % (show(sorted(str(r["pkt_id"]) for r in ref)),
			      show(sorted(r["hopmarkPacketId"] for r in pc))))
for key, ie in (("ttl", "ipTTL"),):
	print("%s\t%s\t%s" % (ie, show(sorted(str(r[key]) for r in ref)),
			      show(sorted(r.get(ie, "-") for r in pc))))
print("sourceTransportPort\t%s\t%s" % (show(sorted(str(r["packet"]["sport"]) for r in ref)),
				       show(sorted(r.get("sourceTransportPort", "-") for r in pc))))
print("destinationIPv4Address\t%s\t%s" % (show(sorted(r["packet"]["dst"] for r in ref)),
					  show(sorted(r.get("destinationIPv4Address", "-") for r in pc))))
print("egressInterface\t%s\t%s" % (show(sorted(str(r["out_if"]) for r in ref)),
				   show(sorted(r.get("egressInterface", "-") for r in pc))))
print("hopmarkPostcardSource (1 PBT-M)\t%s\t%s" % (show(["1"] * len(ref)),
					   show(r.get("hopmarkPostcardSource", "-") for r in pc)))
print("hopmarkObservationPoint (2 egress)\t%s\t%s" % (show(["2"] * len(ref)),
					      show(r.get("hopmarkObservationPoint", "-") for r in pc)))
st = [r for r in recs if "hopmarkRecordsNotSent" in r]
print("an options record of hopmarkRecordsNotSent, 0\t0\t%s" %
      (st[-1]["hopmarkRecordsNotSent"] if st else "none"))
EOF
	sed -i "s/^/$name: ipfixDump: /" "$T/$name.checks"
	hm_checks_from "$T/$name.checks"
}

# tshark_check NAME PCAP DECODE - the cflow dissector finds the packet IDs.
tshark_check()
{
	local name=$1 pcap=$2 dec=$3
	tshark -r "$pcap" -d "$dec" -T fields -E occurrence=a -E separator=/t \
		-e cflow.template_id -e cflow.enterprise_private_entry \
		-e cflow.srcaddr -e cflow.dstport -e cflow.ip_ttl \
		>"$T/$name.tshark" 2>"$T/$name.tshark.err"
	hm_check "$name: tshark exit status" 0 $?
	"$PY" - "$T/$name.tshark" "$T/$name.json" >"$T/$name.tchecks" <<'EOF'
import json, sys
# Per frame: the data records' enterprise fields in template order; the
# basic templates' first enterprise field is hopmarkNodeId, the second
# hopmarkPacketId (lib/ipfix/ipfix_model.c's order), 4 octets each.
ids, ttls = [], []
for line in open(sys.argv[1]):
	f = line.rstrip("\n").split("\t")
	while len(f) < 5:
		f.append("")
	ent = [x for x in f[1].split(",") if x]
	ttl = [x for x in f[4].split(",") if x]
	ttls += ttl
	# 7 enterprise fields per basic postcard record (node, pkt, qdepth,
	# flags, point, source, id kind).
	for i in range(0, len(ent) - 6, 7):
		ids.append(str(int(ent[i + 1].replace(":", ""), 16)))
ref = [json.loads(l) for l in open(sys.argv[2])]
print("packet IDs in cflow.enterprise_private_entry\t%s\t%s" %
      (" ".join(sorted(str(r["pkt_id"]) for r in ref)), " ".join(sorted(ids))))
print("cflow.ip_ttl\t%s\t%s" % (" ".join(sorted(str(r["ttl"]) for r in ref)),
				" ".join(sorted(ttls))))
EOF
	sed -i "s/^/$name: tshark: /" "$T/$name.tchecks"
	hm_checks_from "$T/$name.tchecks"
}

# ------------------------------------------------------------ UDP: ipfixDump, tshark
hm_bg c socat -u UDP-RECV:4739,bind=$C4 "OPEN:$T/udp.ipfix,creat,trunc"
hm_capture_start c c-m "$T/udp.pcap" "udp port 4739" ||
	{ echo "Bail out! capture"; exit 1; }
run udp 4739 udp || { echo "Bail out! udp run"; exit 1; }
sleep 0.3
hm_capture_stop
hm_check "udp: postcards as JSON lines" "$HM_IPFIX_N" "$(wc -l <"$T/udp.json")"
dump_check udp "$T/udp.ipfix"
tshark_check udp "$T/udp.pcap" udp.port==4739,cflow
hm_check "udp: export packets with DSCP/ECN 0 and no reserved flag (marked, of all)" \
	"0 of $(tshark -r "$T/udp.pcap" 2>/dev/null | wc -l)" \
	"$(tshark -r "$T/udp.pcap" -Y 'ip.dsfield != 0 || ip.flags.rb == 1' 2>/dev/null | wc -l) of $(tshark -r "$T/udp.pcap" 2>/dev/null | wc -l)"
hm_check "udp: the datapath counted the exports as not marked (export counter >= messages)" yes \
	"$(hm_on s "$HOPMARK" -j -s postcard show | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
def find(o):
	if isinstance(o, dict):
		if "export" in o and isinstance(o["export"], int):
			yield o["export"]
		for v in o.values():
			yield from find(v)
	elif isinstance(o, list):
		for v in o:
			yield from find(v)
n = sum(find(d))
print("yes" if n >= 1 else "no: %d" % n)')"

# ------------------------------------------------------------ UDP: nfacctd
cat >"$T/primitives.lst" <<EOF
name=hm_pkt_id	field_type=32473:1	len=4	semantics=u_int
name=hm_node_id	field_type=32473:2	len=4	semantics=u_int
name=hm_point	field_type=32473:3	len=1	semantics=u_int
name=hm_source	field_type=32473:5	len=1	semantics=u_int
name=hm_ttl	field_type=192	len=1	semantics=u_int
EOF
cat >"$T/nfacctd.conf" <<EOF
daemonize: false
nfacctd_ip: $C4
nfacctd_port: 4740
plugins: print
aggregate_primitives: $T/primitives.lst
aggregate: src_host, dst_host, src_port, dst_port, proto, hm_pkt_id, hm_node_id, hm_point, hm_source, hm_ttl
print_output: json
print_output_file: $T/nfacctd.out
print_output_file_append: true
print_refresh_time: 1
EOF
hm_bg c nfacctd -f "$T/nfacctd.conf"
NFACCTD_PID=$HM_BG_PID
sleep 1
run nfacctd 4740 udp || { echo "Bail out! nfacctd run"; exit 1; }
for _ in $(seq 30); do
	[ -s "$T/nfacctd.out" ] && [ "$(wc -l <"$T/nfacctd.out")" -ge "$HM_IPFIX_N" ] && break
	sleep 0.2
done
stop_pid "$NFACCTD_PID"
"$PY" - "$T/nfacctd.out" "$T/nfacctd.json" >"$T/nfacctd.checks" <<'EOF'
import json, sys
out = []
for l in open(sys.argv[1]):
	l = l.strip()
	if l.startswith("{"):
		out.append(json.loads(l))
ref = [json.loads(l) for l in open(sys.argv[2])]
j = lambda v: " ".join(sorted(str(x) for x in v))
print("nfacctd: records\t%d\t%d" % (len(ref), len(out)))
print("nfacctd: hm_pkt_id (32473:1)\t%s\t%s" % (j(r["pkt_id"] for r in ref), j(o.get("hm_pkt_id") for o in out)))
print("nfacctd: hm_point (32473:3)\t%s\t%s" % (j(2 for r in ref), j(o.get("hm_point") for o in out)))
print("nfacctd: hm_source (32473:5)\t%s\t%s" % (j(1 for r in ref), j(o.get("hm_source") for o in out)))
print("nfacctd: hm_ttl (192)\t%s\t%s" % (j(r["ttl"] for r in ref), j(o.get("hm_ttl") for o in out)))
print("nfacctd: src_port\t%s\t%s" % (j(r["packet"]["sport"] for r in ref), j(o.get("port_src") for o in out)))
print("nfacctd: ip_dst\t%s\t%s" % (j(r["packet"]["dst"] for r in ref), j(o.get("ip_dst") for o in out)))
EOF
hm_checks_from "$T/nfacctd.checks"

# ------------------------------------------------------------ UDP: nfcapd (tolerance)
mkdir -p "$T/nfcapd"
hm_bg c nfcapd -w "$T/nfcapd" -b $C4 -p 4741
NFCAPD_PID=$HM_BG_PID
sleep 0.5
run nfcapd 4741 udp || { echo "Bail out! nfcapd run"; exit 1; }
stop_pid "$NFCAPD_PID"
hm_check "nfcapd: flow records with dst port 5001 (unknown elements tolerated)" "$HM_IPFIX_N" \
	"$(nfdump -R "$T/nfcapd" -o json 'dst port 5001' 2>/dev/null | "$PY" -c '
import json, sys
t = sys.stdin.read().strip()
print(len(json.loads(t)) if t else 0)')"

# ------------------------------------------------------------ UDP, TCP: hopmark-collector
COLLECTOR=${COLLECTOR:-$HM_BUILD/hopmark-collector}
for tr in udp tcp; do
	if [ ! -x "$COLLECTOR" ]; then
		hm_skip "collector $tr: not built: $COLLECTOR (make)"
		continue
	fi
	rm -f "$T/coll-$tr.stats"
	hm_bg c "$COLLECTOR" -u 4745 -t 4746 -w 200 -o "$T/coll-$tr.paths" \
		-s "$T/coll-$tr.stats" 2>"$T/coll-$tr.log"
	CPID=$HM_BG_PID
	for _ in $(seq 50); do [ -s "$T/coll-$tr.stats" ] && break; sleep 0.1; done
	port=4745
	[ "$tr" = tcp ] && port=4746
	run "coll-$tr" "$port" "$tr" || { echo "Bail out! collector $tr run"; exit 1; }
	stop_pid "$CPID"
	cst() { "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["ipfix"][sys.argv[2]])' \
		"$T/coll-$tr.stats" "$1"; }
	hm_check "collector $tr: postcards decoded" "$HM_IPFIX_N" "$(cst postcards)"
	hm_check "collector $tr: no record past its Set, no Set refused" "0 0 0 0" \
		"$(cst decode_error) $(cst bad_template) $(cst bad_set_length) $(cst no_template)"
	hm_check "collector $tr: no Sequence Number gap" "0 0" "$(cst seq_lost) $(cst seq_late)"
	hm_check "collector $tr: the paths' packet IDs are the JSON lines'" \
		"$(ids "$T/coll-$tr.json")" "$(ids "$T/coll-$tr.paths")"
done

# ------------------------------------------------------------ TCP: ipfixDump, tshark
hm_bg c socat -u TCP-LISTEN:4742,bind=$C4,reuseaddr "OPEN:$T/tcp.ipfix,creat,trunc"
hm_capture_start c c-m "$T/tcp.pcap" "tcp port 4742" ||
	{ echo "Bail out! capture"; exit 1; }
sleep 0.3
run tcp 4742 tcp || { echo "Bail out! tcp run"; exit 1; }
sleep 0.3
hm_capture_stop
hm_check "tcp: postcards as JSON lines" "$HM_IPFIX_N" "$(wc -l <"$T/tcp.json")"
hm_check "tcp: hopmarkd connected once" 1 \
	"$(grep -c 'IPFIX: connected to the collector over TCP' "$T/tcp.json.log")"
dump_check tcp "$T/tcp.ipfix"
tshark_check tcp "$T/tcp.pcap" tcp.port==4742,cflow

# ------------------------------------------------------------ rate limit, template expiry
hm_bg c socat -u UDP-RECV:4743,bind=$C4 "OPEN:$T/rate.ipfix,creat,trunc"
sleep 0.2
hm_on s "$HOPMARK" postcard export set collector $C4 port 4743 transport udp domain 7 rate 100 ||
	{ echo "Bail out! rate export"; exit 1; }
hm_on s "$HOPMARK" postcard template add src 10.1.0.1 dst 10.2.0.3 proto udp sport 1 dport 2 fields tos timeout 1 ||
	{ echo "Bail out! template add"; exit 1; }
hm_agent_start s "$T/rate.json" || { echo "Bail out! rate agent"; exit 1; }
RATE_T=$(hm_on s "$PY" -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
t0 = time.monotonic()
for i in range(600):
	while time.monotonic() < t0 + i / 200.0:
		time.sleep(0.0005)
	s.sendto(b"rate-%06d" % i, ("10.2.0.2", 5001))
print("%.3f" % (time.monotonic() - t0))')
sleep 1.5
RATE_PID=$HM_AGENT_PID_s
RATE_SENT=$(hm_agent_stat "$T/rate.json.log" "$RATE_PID" ipfix sent)
RATE_LIM=$(hm_agent_stat "$T/rate.json.log" "$RATE_PID" ipfix rate_limited)
RATE_REC=$(hm_agent_stat "$T/rate.json.log" "$RATE_PID" ipfix records)
# Let the next tick send the options record of the final count.
sleep 1.5
hm_agent_stop s
hm_check "rate: records sent within 5 % of 100/s over ${RATE_T}s + 10" yes \
	"$("$PY" -c 'import sys
t, sent = float(sys.argv[1]), int(sys.argv[2])
exp = 100 * t + 10
print("yes" if abs(sent - exp) <= 0.05 * 100 * t else "no: sent %d, expected %.0f" % (sent, exp))' \
	"$RATE_T" "$RATE_SENT")"
hm_check "rate: sent + rate_limited = records = postcards" "600 600" \
	"$((RATE_SENT + RATE_LIM)) $RATE_REC"
hm_ipfix_dump "$T/rate.ipfix" "$T/rate.dump"
hm_check "rate: the last options record's hopmarkRecordsNotSent" "$RATE_LIM" \
	"$(grep 'hopmarkRecordsNotSent' "$T/rate.dump" | tail -n 1 | awk '{print $NF}')"
hm_check "rate: Data Records in the stream = records sent" "$RATE_SENT" \
	"$(grep -c 'hopmarkPacketId :' "$T/rate.dump")"
hm_check "template: hopmarkd removed the expired per-flow template" 1 \
	"$(grep -c 'removed 1 expired per-flow template' "$T/rate.json.log")"
hm_check "template: pbt_tpl is empty after its expiry" 0 \
	"$(hm_on s "$HOPMARK" -j postcard template show | "$PY" -c 'import json, sys
d = json.load(sys.stdin)
print(len(d) if isinstance(d, list) else len(d.get("templates", [])))')"

# ------------------------------------------------------------ INT-XD/MX through the exporter
FEED=$HM_BUILD/tests/net/int_feed
FEED_OBJ=$HM_BUILD/tests/net/int_feed.bpf.o
if [ -x "$FEED" ] && [ -e "$FEED_OBJ" ]; then
	hm_on s "$FEED" "$FEED_OBJ" cfg none >/dev/null || { echo "Bail out! int_feed cfg"; exit 1; }
	"$PY" "$HM_TOP/selftests/net/int_report_case.py" gen kinds "$T/kinds.bin"
	hm_bg c socat -u UDP-RECV:4744,bind=$C4 "OPEN:$T/int.ipfix,creat,trunc"
	sleep 0.2
	hm_on s "$HOPMARK" postcard export set collector $C4 port 4744 transport udp domain 7 ||
		{ echo "Bail out! int export"; exit 1; }
	hm_agent_start s "$T/int.json" || { echo "Bail out! int agent"; exit 1; }
	hm_on s "$FEED" "$FEED_OBJ" run "$T/kinds.bin" 1 >/dev/null
	sleep 1.5
	hm_agent_stop s
	hm_ipfix_dump "$T/int.ipfix" "$T/int.dump"
	"$PY" - "$T/int.dump.records" >"$T/int.checks" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
pc = [r for r in recs if "hopmarkIntRepMdBits" in r]
f = lambda k: " ".join(r.get(k, "-") for r in pc)
# int_report_case.py's "kinds": xd (k 0), mx (k 1), drop (k 2), queue, sink.
print("int: records of template 262 (xd, mx, drop)\t3\t%d" % len(pc))
print("int: hopmarkPostcardSource (4 XD, 5 MX)\t4 5 4\t%s" % f("hopmarkPostcardSource"))
print("int: hopmarkNodeId (the records' node_id)\t5 5 5\t%s" % f("hopmarkNodeId"))
print("int: ingressInterface (L1 ingress)\t51 51 51\t%s" % f("ingressInterface"))
print("int: egressInterface (L1 egress)\t50 51 52\t%s" % f("egressInterface"))
print("int: hopmarkQueueDepthOctets\t7000 7001 7002\t%s" % f("hopmarkQueueDepthOctets"))
EOF
	hm_checks_from "$T/int.checks"
else
	hm_skip "int: not built: $FEED (make check-build)"
fi

# ------------------------------------------------------------ TCP: no collector yet, then one
hm_on s "$HOPMARK" postcard export set collector $C4 port 4745 transport tcp domain 7 ||
	{ echo "Bail out! reconnect export"; exit 1; }
hm_agent_start s "$T/rec.json" || { echo "Bail out! reconnect agent"; exit 1; }
sleep 0.5
send
hm_wait_lines "$T/rec.json" "$HM_IPFIX_N" 30
REC_DOWN=$(hm_agent_stat "$T/rec.json.log" "$HM_AGENT_PID_s" ipfix down)
hm_bg c socat -u TCP-LISTEN:4745,bind=$C4,reuseaddr "OPEN:$T/rec.ipfix,creat,trunc"
# The backoff doubles from 250 ms: connected within 9 s.
for _ in $(seq 90); do
	grep -q 'IPFIX: connected to the collector over TCP' "$T/rec.json.log" && break
	sleep 0.1
done
send
sleep 1.2
REC_SENT=$(hm_agent_stat "$T/rec.json.log" "$HM_AGENT_PID_s" ipfix sent)
hm_agent_stop s
hm_check "reconnect: postcards while no collector listened counted as down" "$HM_IPFIX_N" "$REC_DOWN"
hm_check "reconnect: refused connects logged, then connected" "yes 1" \
	"$(grep -q 'IPFIX: cannot connect to the collector' "$T/rec.json.log" && echo yes) $(grep -c 'IPFIX: connected to the collector over TCP' "$T/rec.json.log")"
hm_ipfix_dump "$T/rec.ipfix" "$T/rec.dump"
hm_check "reconnect: the postcards after the connect were sent and decoded" "$HM_IPFIX_N $HM_IPFIX_N" \
	"$REC_SENT $(grep -c 'hopmarkPacketId :' "$T/rec.dump")"

hm_done
