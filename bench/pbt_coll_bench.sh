#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# pbt_coll_bench.sh - hopmark-collector's postcards/s per core, in process
# and against pmacct's nfacctd fed the same IPFIX stream in the same run,
# and its memory per tracked flow (Documentation/performance-postcards.rst).
#
#   bench/pbt_coll_bench.sh [-p PACKETS] [-r ROUNDS] [-R MSGS_PER_S] [-o FILE.json]
#
# 1. pc-bench gen: the IPFIX messages five PBT-M nodes export for PACKETS
#    packets (8 postcards each, 1000 flows), and the same packets in
#    100000 flows.
# 2. pc-bench stitch: the collector's decoder (collector/ipfix_in.c) and
#    stitcher in one thread, no sockets: postcards/s per core (thread CPU
#    time), ROUNDS rounds; then the 100000-flow stream once. Memory per
#    tracked flow and packet: hmc_stitch_mem() (the stitcher allocates all
#    of it at start), and the resident set growth of both streams.
# 3. UDP on the loopback, alternated ROUNDS times: hopmark-collector (-o
#    /dev/null) and nfacctd (print plugin, JSON, aggregating on the flow
#    key + packet ID + node + point, so every postcard is its own entry:
#    what a generic collector does with them), each fed the stream by
#    pc-bench replay at MSGS_PER_S messages/s from five sockets. The
#    figure: postcards the receiver took (sent less the datagrams its
#    socket dropped, /proc/net/udp) / the CPU time of all its processes
#    and threads (/proc/PID/task/*/schedstat). The ratio is hopmark's over
#    nfacctd's, per round, then the median.
# Prints the table; -o writes the figures as JSON. Exits 4 ("SKIP: ...")
# when a tool is missing.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
B=${HM_BUILD:-$top/build}
PCB=$B/bench/pc-bench
COLL=$B/hopmark-collector
PACKETS=200000
ROUNDS=3
RATE=20000
JSON=
while getopts "p:r:R:o:" o; do
	case $o in
	p) PACKETS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	R) RATE=$OPTARG ;;
	o) JSON=$OPTARG ;;
	*) sed -n '3,30p' "$0"; exit 2 ;;
	esac
done
for f in "$PCB" "$COLL"; do
	[ -x "$f" ] || { echo "SKIP: $f is not built (make bench)"; exit 4; }
done
command -v nfacctd >/dev/null || { echo "SKIP: needs nfacctd (pmacct)"; exit 4; }

T=$(mktemp -d /tmp/hm-pcb.XXXXXX)
RX_PID=
cleanup()
{
	[ -z "$RX_PID" ] || kill -9 "$RX_PID" $(pgrep -P "$RX_PID") 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
PORT=$((30000 + $$ % 20000))

"$PCB" gen -o "$T/s.ipfix" -p "$PACKETS" -f 1000 >/dev/null || exit 1
"$PCB" gen -o "$T/f.ipfix" -p "$PACKETS" -f 100000 >/dev/null || exit 1
"$PCB" stitch "$T/s.ipfix" -r "$ROUNDS" -o "$T/stitch.json" || exit 1
"$PCB" stitch "$T/f.ipfix" -r 1 -o "$T/flows.json" >"$T/flows.txt" || exit 1

cat >"$T/prim.lst" <<EOF
name=hm_pkt_id field_type=32473:1 len=4 semantics=u_int
name=hm_node_id field_type=32473:2 len=4 semantics=u_int
name=hm_point field_type=32473:3 len=1 semantics=u_int
EOF
cat >"$T/nfacctd.conf" <<EOF
daemonize: false
nfacctd_ip: 127.0.0.1
nfacctd_port: $PORT
nfacctd_pipe_size: 4194304
plugins: print[p]
aggregate_primitives: $T/prim.lst
aggregate[p]: src_host, dst_host, src_port, dst_port, proto, hm_pkt_id, hm_node_id, hm_point
print_output[p]: json
print_output_file[p]: /dev/null
print_refresh_time[p]: 1
plugin_buffer_size[p]: 10240000
plugin_pipe_size[p]: 1024000000
EOF

# cpu_ns PID - run time of PID's threads and of its children's, ns.
cpu_ns()
{
	local p t s=0
	for p in "$1" $(pgrep -P "$1"); do
		for t in /proc/"$p"/task/*/schedstat; do
			[ -r "$t" ] && s=$((s + $(cut -d' ' -f1 "$t")))
		done
	done
	echo "$s"
}

# udp_drops PORT - datagrams the loopback socket on PORT dropped.
udp_drops() { awk -v p="$(printf '%04X' "$1")" 'NR > 1 && $2 ~ ":" p "$" { print $NF; exit }' /proc/net/udp; }

# run RX - one receiver fed the stream: "cpu_ns postcards_taken messages dropped".
run()
{
	local i c0 c1 d
	case $1 in
	hopmark) "$COLL" -u "$PORT" -t 0 -o /dev/null -s "$T/coll.json" >"$T/coll.log" 2>&1 & ;;
	nfacctd) nfacctd -f "$T/nfacctd.conf" >"$T/nf.log" 2>&1 & ;;
	esac
	RX_PID=$!
	for i in $(seq 50); do
		[ -n "$(udp_drops "$PORT")" ] && break
		sleep 0.1
	done
	sleep 0.5
	c0=$(cpu_ns "$RX_PID")
	"$PCB" replay "$T/s.ipfix" "127.0.0.1:$PORT" -R "$RATE" >"$T/replay.txt" || return 1
	# Done when its CPU time stops growing.
	c1=$c0
	for i in $(seq 100); do
		sleep 0.3
		d=$(cpu_ns "$RX_PID")
		[ "$d" -le $((c1 + 2000000)) ] && [ "$i" -gt 3 ] && break
		c1=$d
	done
	c1=$(cpu_ns "$RX_PID")
	d=$(udp_drops "$PORT")
	kill "$RX_PID" $(pgrep -P "$RX_PID") 2>/dev/null
	for i in $(seq 30); do
		kill -0 "$RX_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$RX_PID" $(pgrep -P "$RX_PID") 2>/dev/null
	wait "$RX_PID" 2>/dev/null
	RX_PID=
	echo "$((c1 - c0)) $(awk '{ print $2 }' "$T/replay.txt") ${d:-0}"
}

: >"$T/udp.tsv"
for r in $(seq "$ROUNDS"); do
	for rx in hopmark nfacctd; do
		echo "$r $rx $(run $rx)" >>"$T/udp.tsv" || exit 1
	done
done

python3 - "$T" "$PACKETS" "$RATE" "$JSON" <<'PY'
import json, os, statistics, sys
t, packets, rate, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
st = json.load(open(os.path.join(t, "stitch.json")))
fl = json.load(open(os.path.join(t, "flows.json")))
pcs = packets * 8
rows = []
for line in open(os.path.join(t, "udp.tsv")):
    r, rx, ns, msgs, drops = line.split()
    taken = pcs * (1 - int(drops) / int(msgs)) if int(msgs) else 0
    rows.append({"round": int(r), "rx": rx, "cpu_ns": int(ns), "messages": int(msgs),
                 "dropped": int(drops), "postcards": round(taken),
                 "per_core": taken / (int(ns) / 1e9) if int(ns) else 0})
by = {}
for x in rows:
    by.setdefault(x["round"], {})[x["rx"]] = x
ratios = [v["hopmark"]["per_core"] / v["nfacctd"]["per_core"] for v in by.values()
          if "hopmark" in v and "nfacctd" in v and v["nfacctd"]["per_core"]]
med = lambda a: statistics.median(a) if a else 0
hm = med([x["per_core"] for x in rows if x["rx"] == "hopmark"])
nf = med([x["per_core"] for x in rows if x["rx"] == "nfacctd"])
print("Collector, postcards decoded and stitched per core (%d packets, %d postcards)" % (packets, pcs))
print("  in process (pc-bench stitch): median %.2f M/s (%.2f..%.2f), goal 5 M/s: %s" % (
    st["postcards_per_s_per_core"]["median"] / 1e6, st["postcards_per_s_per_core"]["min"] / 1e6,
    st["postcards_per_s_per_core"]["max"] / 1e6, "met" if st["met"] else "not met"))
print("  over UDP, %d messages/s:   round  receiver   postcards   dropped   CPU ms   M/s per core" % rate)
for x in rows:
    print("                              %5d  %-9s %10d %9d %8.1f %10.3f" % (
        x["round"], x["rx"], x["postcards"], x["dropped"], x["cpu_ns"] / 1e6, x["per_core"] / 1e6))
print("  hopmark-collector / nfacctd, per core: median x%.2f (%s)" % (
    med(ratios), " ".join("%.2f" % r for r in ratios)))
print("  memory per tracked flow: %d octets, per tracked packet: %d octets (hmc_stitch_mem:"
      " the stitcher allocates it all at start, %d octets for its 65536 packets)" % (
          st["mem_per_flow"], st["mem_per_packet"], st["mem_total"]))
print("  resident set growth over a round: %d KiB with 1000 flows, %d KiB with %d flows" % (
    st["rss_growth_kib"], fl["rss_growth_kib"], fl["flows"]))
if out:
    json.dump({"bench": "pbt-collector", "kernel": os.uname().release, "packets": packets,
               "postcards": pcs, "replay_msgs_per_s": rate, "stitch": st, "flows_run": fl,
               "udp": rows, "hopmark_per_core_median": hm, "nfacctd_per_core_median": nf,
               "x_nfacctd": med(ratios), "x_nfacctd_rounds": ratios}, open(out, "w"), indent=1)
PY
