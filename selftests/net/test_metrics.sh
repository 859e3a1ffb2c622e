#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_metrics.sh - hopmarkd --metrics (Documentation/metrics.rst) on the
# demo topology (A encap, R1 and R3 transit, B decap, selftests/lib.sh),
# with INT's source role and PBT-M's head and egress roles on B's egress as
# well (traffic to A):
#
#   1. hopmarkd on A (--metrics 127.0.0.1:0, the kernel's port, read from
#      the log), on R1 (--metrics [::1]:0) and on B (127.0.0.1:9464) serve
#      /metrics with the text format's Content-Type; a bad --metrics is a
#      usage error and a port in use a start-up failure naming it.
#   2. After pings and UDP datagrams from A to B and UDP datagrams from B
#      to A, traffic stopped: every IOAM counter of every interface of
#      `hopmark -j -s link show` (IOAM's and PBT-M's "pbt_stats"), and every
#      INT counter of `hopmark -j -s int show`, equals its sample (the family `hopmarkd --list-metrics`
#      gives the counter){dev,node} on the same node, read between two CLI
#      readings that agree; no sample is of an interface the CLI does not
#      show (no INT sample where there are no INT maps); A's encap_ok and
#      B's decap_ok count A's packets, B's INT src_ok B's datagrams, B's
#      hopmark_agent_records_total and _pbt_json_lines_total the IOAM and
#      PBT-M lines of its output, its _pbt_postcards_total the datapath's
#      postcard_egress.
#   3. `promtool check metrics` (Debian's prometheus package) accepts each
#      node's exposition.
#   4. A real Prometheus server (temporary config and storage, 1 s scrape
#      interval, in B's namespace, stopped by its PID) scrapes B: its HTTP
#      API reports up 1 and hopmark_ioam_decap_ok_total{dev="b-r3"} and
#      hopmark_agent_records_total equal to what the CLI and the output say.
#   5. hopmark-collector --metrics in B's namespace, fed datagrams that are
#      no IPFIX (too short, version 9): every counter of its statistics
#      file (-s) equals its metric, the bad messages are counted, promtool
#      accepts the exposition.
set -u
HM_PFX=${HM_PFX:-hmm$$}
. "$(dirname "$0")/../lib.sh"
NET=$(cd "$(dirname "$0")" && pwd)
CHECK="$PY $NET/hm_prom_check.py"
PINGS=40
UDP_DGRAMS=25

hm_require_root_netns
COLLECTOR=${COLLECTOR:-$HM_BUILD/hopmark-collector}
hm_require_built "$HOPMARK" "$HOPMARKD" "$COLLECTOR"
for t in curl promtool prometheus; do
	command -v "$t" >/dev/null || hm_skip_all "needs $t (Debian packages curl, prometheus)"
done
hm_trap_teardown
hm_tmpdir
T=$HM_TMP

hm_topo_create || { echo "Bail out! topology"; exit 1; }
hm_setup_cli || { echo "Bail out! hopmark CLI configuration failed"; exit 1; }
# INT's source on B's egress for UDP to A (no IOAM program there): every
# datagram gets INT, every other packet (echo replies, A's ICMPv6 errors)
# is counted left alone (not UDP). Nobody on A removes it; A's socket
# drops the datagrams. TX checksum offload off on b-r3: with DSCP
# signalling a CHECKSUM_PARTIAL datagram is left without INT (counted
# csum_partial, Documentation/int.rst).
hm_on b ethtool -K b-r3 tx off >/dev/null 2>&1
hm_on b "$HOPMARK" int watch add dst 2001:db8:1::/64 proto udp >/dev/null &&
	hm_on b "$HOPMARK" int sample all &&
	hm_on b "$HOPMARK" int enable dev b-r3 role source ||
	{ echo "Bail out! INT configuration on B failed"; exit 1; }
# PBT-M on B's egress too: head (every packet to A marked) and egress
# postcards, which B's hopmarkd reads from pbt_events.
hm_on b "$HOPMARK" postcard watch add dst 2001:db8:1::/64 >/dev/null &&
	hm_on b "$HOPMARK" postcard sample all >/dev/null &&
	hm_on b "$HOPMARK" postcard enable dev b-r3 role head >/dev/null &&
	hm_on b "$HOPMARK" postcard enable dev b-r3 role egress >/dev/null ||
	{ echo "Bail out! PBT-M configuration on B failed"; exit 1; }
"$HOPMARKD" --list-metrics >"$T/families" ||
	{ echo "Bail out! hopmarkd --list-metrics"; exit 1; }

# metrics_wait LOG PID - the port hopmarkd's "metrics: http://H:P/metrics" line
# of LOG gives, once it is there (5 s at most); empty if PID died first.
metrics_wait()
{
	local i port
	for i in $(seq 50); do
		port=$(sed -n 's|.*hopmarkd: metrics: http://.*:\([0-9]*\)/metrics$|\1|p' "$1")
		[ -n "$port" ] && { echo "$port"; return 0; }
		kill -0 "$2" 2>/dev/null || break
		sleep 0.1
	done
	sed 's/^/#   /' "$1" >&2
	return 1
}

# ---- 1. three agents, three address forms
hm_bg a "$HOPMARKD" --no-records -i 0 --metrics 127.0.0.1:0 >"$T/a.log" 2>&1
PID_A=$HM_BG_PID
hm_bg r1 "$HOPMARKD" --no-records -i 0 --metrics '[::1]:0' >"$T/r1.log" 2>&1
PID_R1=$HM_BG_PID
hm_agent_start b "$T/b.out" -i 0 --metrics 127.0.0.1:9464 ||
	{ echo "Bail out! hopmarkd on B"; exit 1; }
PID_B=$HM_AGENT_PID_b
PORT_A=$(metrics_wait "$T/a.log" "$PID_A")
PORT_R1=$(metrics_wait "$T/r1.log" "$PID_R1")
PORT_B=$(metrics_wait "$T/b.out.log" "$PID_B")
hm_check "A's hopmarkd serves metrics on a port the kernel picked" yes \
	"$([ -n "$PORT_A" ] && [ "$PORT_A" -gt 0 ] && echo yes || echo "no (port '$PORT_A')")"
hm_check "R1's hopmarkd serves metrics on [::1]" yes \
	"$([ -n "$PORT_R1" ] && [ "$PORT_R1" -gt 0 ] && echo yes || echo "no (port '$PORT_R1')")"
hm_check "B's hopmarkd serves metrics on port 9464" 9464 "${PORT_B:-none}"
URL_A=http://127.0.0.1:$PORT_A/metrics
URL_R1=http://[::1]:$PORT_R1/metrics
URL_B=http://127.0.0.1:9464/metrics

ctype=$(hm_on b curl -s -o /dev/null -w '%{http_code} %{content_type}' "$URL_B")
hm_check "GET /metrics: 200 and the text format 0.0.4's Content-Type" \
	"200 text/plain; version=0.0.4; charset=utf-8" "$ctype"
hm_check "GET /: 404" 404 "$(hm_on b curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:9464/)"
hm_check "POST /metrics: 405" 405 \
	"$(hm_on b curl -s -o /dev/null -w '%{http_code}' -X POST -d x "$URL_B")"

hm_on b "$HOPMARKD" --no-records -i 0 --metrics 127.0.0.1:99999 >"$T/bad.log" 2>&1
rc=$?
hm_check "--metrics 127.0.0.1:99999: usage error (exit 2) naming it" "2 yes" \
	"$rc $(grep -q 'invalid --metrics "127.0.0.1:99999"' "$T/bad.log" && echo yes || echo no)"
# on a bpffs of its own: B's maps are held by B's hopmarkd (one agent per
# node, test_agent_single.sh), and this one must get as far as the port
mkdir -p "$T/bpf2" "$T/run2"
mount -t bpf bpf "$T/bpf2"
TC_BPF_MNT=$T/bpf2 HOPMARK_RUNDIR=$T/run2 nsenter --net="/run/netns/$(hm_ns b)" \
	"$HOPMARKD" --no-records -i 0 --metrics 127.0.0.1:9464 >"$T/inuse.log" 2>&1
rc=$?
umount "$T/bpf2"
hm_check "--metrics on B's port in use: exit 1, the address and the reason logged" "1 yes" \
	"$rc $(grep -q 'cannot listen on 127.0.0.1:9464: Address already in use' "$T/inuse.log" && echo yes || sed 's/^/#   /' "$T/inuse.log" >&2)"

# ---- 2. traffic, then the values against the CLI
hm_on a ping -6 -q -c "$PINGS" -i 0.01 -W 1 "$HM_B_ADDR" >"$T/ping.log" 2>&1
hm_on a "$PY" -c '
import socket, sys
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
for i in range(int(sys.argv[2])):
	s.sendto(b"metrics %d" % i, (sys.argv[1], 9999))
' "$HM_B_ADDR" "$UDP_DGRAMS"
hm_on b "$PY" -c '
import socket, sys
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
for i in range(int(sys.argv[2])):
	s.sendto(b"int %d" % i, (sys.argv[1], 9999))
' "$HM_A_ADDR" "$UDP_DGRAMS"
sleep 0.5	# the last records reach B's output; nothing else is sent

# node_check NODE URL NODE_ID - the node's metrics between two readings of
# the CLI that agree (three tries), compared with them; also kept in
# $T/NODE.prom for promtool.
node_check()
{
	local node=$1 url=$2 id=$3 try ok=
	for try in 1 2 3; do
		hm_on "$node" "$HOPMARK" -j -s link show >"$T/$node.link1" 2>/dev/null
		hm_on "$node" "$HOPMARK" -j -s int show >"$T/$node.int1" 2>/dev/null
		hm_on "$node" curl -sf "$url" >"$T/$node.prom"
		hm_on "$node" "$HOPMARK" -j -s link show >"$T/$node.link2" 2>/dev/null
		hm_on "$node" "$HOPMARK" -j -s int show >"$T/$node.int2" 2>/dev/null
		if cmp -s "$T/$node.link1" "$T/$node.link2" && cmp -s "$T/$node.int1" "$T/$node.int2"; then
			ok=1
			break
		fi
		sleep 0.3
	done
	[ -n "$ok" ] || echo "# $node: the counters kept moving; compared with the last readings" >&2
	hm_check_cmd "$node: every IOAM and PBT-M counter of 'hopmark -s link show' equals its metric" \
		$CHECK link "$T/$node.prom" "$T/$node.link2" "$id" "$T/families"
	hm_check_cmd "$node: every INT counter of 'hopmark -s int show' equals its metric" \
		$CHECK int "$T/$node.prom" "$T/$node.int2" "$id" "$T/families"
}
node_check a "$URL_A" "$(hm_node_id a)"
node_check r1 "$URL_R1" "$(hm_node_id r1)"
node_check b "$URL_B" "$(hm_node_id b)"

# A also sends ICMPv6 port unreachables (rate-limited) for B's datagrams.
enc=$($CHECK value "$T/a.prom" hopmark_ioam_encap_ok_total dev=a-r1)
hm_check "A: hopmark_ioam_encap_ok_total{dev=\"a-r1\"} counts at least the pings and datagrams" \
	yes "$([ "$enc" != missing ] && [ "$enc" -ge $((PINGS + UDP_DGRAMS)) ] && echo yes || echo "no ($enc)")"
hm_check "B: hopmark_int_src_ok_total{dev=\"b-r3\"} counts B's datagrams" \
	"$UDP_DGRAMS" "$($CHECK value "$T/b.prom" hopmark_int_src_ok_total dev=b-r3 node=5)"
v=$($CHECK value "$T/b.prom" hopmark_int_src_proto_total dev=b-r3)
hm_check "B: hopmark_int_src_proto_total{dev=\"b-r3\"}: the echo replies at least" yes \
	"$([ "$v" != missing ] && [ "$v" -ge "$PINGS" ] && echo yes || echo "no ($v)")"
hm_check "B: hopmark_ioam_decap_ok_total{dev=\"b-r3\",node=\"5\"} equals A's encap_ok" \
	"$enc" "$($CHECK value "$T/b.prom" hopmark_ioam_decap_ok_total dev=b-r3 node=5)"
# B's output: IOAM records and PBT-M postcards ("postcard":"pbt").
lines=$(grep -vc '"postcard"' "$T/b.out")
cards=$(grep -c '"postcard":"pbt"' "$T/b.out")
hm_check "B: hopmark_agent_records_total is the output's IOAM record lines" "$lines" \
	"$($CHECK value "$T/b.prom" hopmark_agent_records_total)"
hm_check "B: hopmark_agent_pbt_json_lines_total is the output's PBT-M postcard lines" "$cards" \
	"$($CHECK value "$T/b.prom" hopmark_agent_pbt_json_lines_total)"
hm_check "B: hopmark_agent_pbt_postcards_total equals hopmark_pbt_postcard_egress_total" \
	"$($CHECK value "$T/b.prom" hopmark_pbt_postcard_egress_total dev=b-r3 node=5)" \
	"$($CHECK value "$T/b.prom" hopmark_agent_pbt_postcards_total)"
v=$($CHECK value "$T/b.prom" hopmark_pbt_marked_total dev=b-r3)
hm_check "B: hopmark_pbt_marked_total{dev=\"b-r3\"}: the echo replies at least" yes \
	"$([ "$v" != missing ] && [ "$v" -ge "$PINGS" ] && echo yes || echo "no ($v)")"
hm_check "B: hopmark_agent_monitor_clients is 0" 0 \
	"$($CHECK value "$T/b.prom" hopmark_agent_monitor_clients)"
hm_check "A (--no-records): no hopmark_agent_records_total family" missing \
	"$($CHECK value "$T/a.prom" hopmark_agent_records_total)"

# ---- 3. promtool
for n in a r1 b; do
	hm_check_cmd "$n: promtool check metrics accepts the exposition" \
		sh -c "promtool check metrics <'$T/$n.prom' 2>&1"
done

# ---- 4. Prometheus itself, in B's namespace
cat >"$T/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: hopmarkd
    static_configs:
      - targets: ['127.0.0.1:9464']
        labels:
          role: sink
EOF
hm_bg b prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
	--web.listen-address=127.0.0.1:9090 >"$T/prometheus.log" 2>&1
PID_PROM=$HM_BG_PID

# prom_query EXPR - the value of EXPR's first sample, "none" without one.
prom_query()
{
	hm_on b curl -sfG http://127.0.0.1:9090/api/v1/query --data-urlencode "query=$1" |
		"$PY" -c '
import json, sys
try:
	r = json.load(sys.stdin)["data"]["result"]
	print(r[0]["value"][1] if r else "none")
except Exception as e:
	print("no answer (%s)" % e)
'
}

decap=$($CHECK value "$T/b.prom" hopmark_ioam_decap_ok_total dev=b-r3)
up=none
# Ready, then the first scrapes (1 s apart); 30 s at most on a loaded host.
for _ in $(seq 150); do
	up=$(prom_query 'up{job="hopmarkd"}')
	[ "$up" = 1 ] && break
	kill -0 "$PID_PROM" 2>/dev/null || break
	sleep 0.2
done
hm_check "Prometheus scrapes B's hopmarkd: up{job=\"hopmarkd\"}" 1 "$up"
[ "$up" = 1 ] || sed 's/^/#   /' "$T/prometheus.log" | tail -n 20 >&2
hm_check "Prometheus' hopmark_ioam_decap_ok_total{dev=\"b-r3\",node=\"5\"} equals the CLI's decap_ok" \
	"$decap" "$(prom_query 'hopmark_ioam_decap_ok_total{job="hopmarkd",dev="b-r3",node="5"}')"
hm_check "Prometheus' hopmark_agent_records_total equals the output's IOAM record lines" \
	"$lines" "$(prom_query 'hopmark_agent_records_total{job="hopmarkd",role="sink"}')"
hm_check "Prometheus: sum of B's hopmark_ioam_transit_ok_total is 0 (B does no transit)" \
	0 "$(prom_query 'sum(hopmark_ioam_transit_ok_total{job="hopmarkd"})')"
scrapes=$(prom_query 'hopmark_metrics_scrapes_total{job="hopmarkd"}')
hm_check "Prometheus saw hopmark_metrics_scrapes_total grow past the test's own scrapes" yes \
	"$(awk -v s="$scrapes" 'BEGIN { print (s + 0 >= 2) ? "yes" : "no (" s ")" }')"
kill -TERM "$PID_PROM" 2>/dev/null
wait "$PID_PROM" 2>/dev/null
hm_check "Prometheus stopped by its PID" gone \
	"$(kill -0 "$PID_PROM" 2>/dev/null && echo running || echo gone)"

# The agents still answer after all those scrapes, and stop cleanly.
hm_check "B's hopmarkd still serves after Prometheus' scrapes" 200 \
	"$(hm_on b curl -s -o /dev/null -w '%{http_code}' "$URL_B")"
for p in "$PID_A" "$PID_R1" "$PID_B"; do
	kill -TERM "$p" 2>/dev/null
done
rcs=
for p in "$PID_A" "$PID_R1" "$PID_B"; do
	wait "$p"
	rcs="$rcs $?"
done
HM_AGENT_PID_b=
hm_check "the three agents exit 0 on SIGTERM" " 0 0 0" "$rcs"

# ---- 5. hopmark-collector --metrics
"$COLLECTOR" --list-metrics >"$T/coll.families" ||
	{ echo "Bail out! hopmark-collector --list-metrics"; exit 1; }
hm_bg b "$COLLECTOR" -u 4739 -t 0 -o "$T/paths.json" -s "$T/coll.stats" \
	--metrics 127.0.0.1:0 >"$T/coll.log" 2>&1
PID_C=$HM_BG_PID
PORT_C=
for _ in $(seq 50); do
	PORT_C=$(sed -n 's|.*hopmark-collector: metrics: http://.*:\([0-9]*\)/metrics$|\1|p' "$T/coll.log")
	[ -n "$PORT_C" ] && break
	sleep 0.1
done
hm_check "hopmark-collector serves metrics on a port the kernel picked" yes \
	"$([ -n "$PORT_C" ] && echo yes || { sed 's/^/#   /' "$T/coll.log" >&2; echo no; })"
# Three datagrams of 4 octets (shorter than a Message Header) and two with
# Version 9 in a 16-octet header.
hm_on b "$PY" -c '
import socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(3):
	s.sendto(b"abcd", ("127.0.0.1", 4739))
for i in range(2):
	s.sendto(struct.pack("!HHIII", 9, 16, 0, i, 1), ("127.0.0.1", 4739))
'
msgs=
for _ in $(seq 30); do
	msgs=$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["ipfix"]["short_msg"] + d["ipfix"]["bad_version"])' "$T/coll.stats" 2>/dev/null)
	[ "$msgs" = 5 ] && break
	sleep 0.2
done
sleep 1.2	# the statistics file is rewritten each second: one more, unchanged
hm_on b curl -sf "http://127.0.0.1:$PORT_C/metrics" >"$T/coll.prom"
hm_check_cmd "hopmark-collector: every counter of its statistics file equals its metric" \
	$CHECK coll "$T/coll.prom" "$T/coll.stats" "$T/coll.families"
hm_check "hopmark-collector: hopmark_collector_ipfix_short_msg_total counts the short datagrams" 3 \
	"$($CHECK value "$T/coll.prom" hopmark_collector_ipfix_short_msg_total)"
hm_check "hopmark-collector: hopmark_collector_ipfix_bad_version_total counts the Version 9 ones" 2 \
	"$($CHECK value "$T/coll.prom" hopmark_collector_ipfix_bad_version_total)"
hm_check_cmd "hopmark-collector: promtool check metrics accepts the exposition" \
	sh -c "promtool check metrics <'$T/coll.prom' 2>&1"
kill -TERM "$PID_C" 2>/dev/null
wait "$PID_C"
hm_check "hopmark-collector exits 0 on SIGTERM" 0 "$?"
hm_done
