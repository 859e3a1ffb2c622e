#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_collector_broker.sh - hopmark-collector's broker mode
# (collector/broker.c, Documentation/collector-scaleout.rst) on a real NATS
# JetStream server (Debian's nats-server -js, in a temporary directory, on
# 127.0.0.1) with the stitched paths stored in a real PostgreSQL (a
# throwaway cluster, as test_collector_pg.sh). Both servers are started and
# stopped by PID here.
#
# A front (collector/tests/broker_node.c) publishes the 10 postcards of
# each of N packets, interleaved, over 3 partitions at RATE packets a
# second; 3 stitching workers (hopmark-collector --broker URL --role worker
# I --pg CONNINFO) consume them. Mid-run worker 1 is killed with
# SIGKILL, and a replacement with the same index is started a second later.
#   - every packet is stitched and stored exactly once, complete with its 5
#     hops, and each is a packet the front sent: none lost, none made up;
#   - the replacement replayed what worker 1 had not acknowledged;
#   - the replay's postcards of packets already stored (one of their
#     postcards at or below the ack floor) are counted (replay_done) and
#     dropped before stitching, so the replay cannot cut such a packet in
#     two; paths stored twice anyway are counted as duplicates and not
#     stored again (the output's primary key), and the postcards the
#     stitchers saw twice are counted and dropped.
set -u
HM_PFX=${HM_PFX:-hmbr$$}
. "$(dirname "$0")/../lib.sh"
NODE=${HMC_BROKER_NODE:-$HM_BUILD/tests/collector/broker-node}
COLL=${HMC_COLLECTOR:-$HM_BUILD/hopmark-collector}
N=${HM_BROKER_PACKETS:-6000}
RATE=1000
PORT=$(( 20000 + $$ % 10000 ))
URL=nats://127.0.0.1:$PORT

[ "$(id -u)" -eq 0 ] || hm_skip_all "needs root (PostgreSQL runs as user postgres)"
hm_require_built "$NODE" "$COLL"
command -v nats-server >/dev/null || hm_skip_all "needs nats-server (Debian's nats-server)"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] || hm_skip_all "needs PostgreSQL (Debian's postgresql)"
command -v psql >/dev/null || hm_skip_all "needs psql (postgresql-client)"
command -v curl >/dev/null || hm_skip_all "needs curl (the workers' --metrics)"
id postgres >/dev/null 2>&1 || hm_skip_all "needs the postgres user"

hm_tmpdir
D=$HM_TMP/pg
mkdir -p "$D/sock"
chown -R postgres "$D"
PGPID= NATS= PIDS=
cleanup()
{
	local p
	for p in $PIDS; do kill -9 "$p" 2>/dev/null; done
	if [ -n "$NATS" ]; then
		kill "$NATS" 2>/dev/null
		wait "$NATS" 2>/dev/null
	fi
	if [ -n "$PGPID" ]; then
		runuser -u postgres -- "$PGBIN/pg_ctl" -D "$D/db" -m fast -w stop >/dev/null 2>&1
		kill "$PGPID" 2>/dev/null
		while kill -0 "$PGPID" 2>/dev/null; do sleep 0.1; done
	fi
	rm -rf "$HM_TMP"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

runuser -u postgres -- "$PGBIN/initdb" -D "$D/db" -A trust -U postgres --no-sync \
	>"$D/initdb.log" 2>&1 || { sed 's/^/#   /' "$D/initdb.log"; echo "Bail out! initdb"; exit 1; }
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$D/db" -l "$D/log" -w -t 30 \
	-o "-k $D/sock -c listen_addresses= -c fsync=off" start >/dev/null ||
	{ sed 's/^/#   /' "$D/log"; echo "Bail out! PostgreSQL did not start"; exit 1; }
PGPID=$(head -1 "$D/db/postmaster.pid")
CONNINFO="host=$D/sock user=postgres dbname=postgres"
q() { psql -h "$D/sock" -U postgres -XAtq -F ' ' -c "$1"; }

nats-server -js -a 127.0.0.1 -p "$PORT" -sd "$HM_TMP/js" -l "$HM_TMP/nats.log" &
NATS=$!
for i in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.05; done
hm_log "PostgreSQL pid $PGPID, nats-server pid $NATS on $URL"

# worker I TAG - start hopmark-collector as worker I (log $HM_TMP/TAG.err,
# paths also in TAG.json); WPID
worker()
{
	"$COLL" --broker "$URL" --role worker "$1" --partitions 3 --workers 3 -w 500 \
		--pg "$CONNINFO" -o "$HM_TMP/$2.json" -s "$HM_TMP/$2.stats" \
		--metrics 127.0.0.1:0 </dev/null >/dev/null 2>"$HM_TMP/$2.err" &
	WPID=$!
	PIDS="$PIDS $WPID"
	for i in $(seq 100); do grep -q "IPFIX udp 0" "$HM_TMP/$2.err" && return 0; sleep 0.05; done
	sed 's/^/#   /' "$HM_TMP/$2.err"
	return 1
}
worker 0 w0 && W0=$WPID && worker 1 w1 && W1=$WPID && worker 2 w2 && W2=$WPID ||
	{ echo "Bail out! workers did not start"; exit 1; }

"$NODE" front "$URL" 3 "$N" "$RATE" >"$HM_TMP/front.out" 2>"$HM_TMP/front.err" &
FRONT=$!
PIDS="$PIDS $FRONT"
sleep $(( N / RATE / 3 ))
# worker 1 dies mid-run, without a chance to acknowledge or flush anything
kill -9 "$W1"
wait "$W1" 2>/dev/null
hm_log "killed worker 1 (pid $W1) at $(q "SELECT count(*) FROM packets") packets stored"
sleep 1
worker 1 w1b && W1B=$WPID || { echo "Bail out! the replacement did not start"; exit 1; }
wait "$FRONT"
hm_check "front: every postcard published and confirmed" "$((N * 10)) 0 0" \
	"$(awk '$1 == "published" || $1 == "publish_failed" || $1 == "sync" { printf "%s ", $2 }' \
		"$HM_TMP/front.out" | sed 's/ $//')"

# wait until the database holds every packet (or 30 s), then stop the workers
for i in $(seq 300); do
	[ "$(q "SELECT count(*) FROM packets")" -ge "$N" ] && break
	sleep 0.1
done
sleep 1	# anything more would be a packet stored twice
# worker 0's --metrics: the broker's and the PostgreSQL output's families
MPORT=$(sed -n 's|.*hopmark-collector: metrics: http://.*:\([0-9]*\)/metrics$|\1|p' "$HM_TMP/w0.err" | head -1)
curl -sf "http://127.0.0.1:${MPORT:-0}/metrics" >"$HM_TMP/w0.prom" 2>/dev/null
for fam in hopmark_collector_broker_received_total hopmark_collector_broker_acked_total \
	   hopmark_collector_pg_packets_total hopmark_collector_pg_duplicates_total; do
	V=$(awk -v f="$fam" '$1 == f { print $2 }' "$HM_TMP/w0.prom")
	hm_check "worker 0's --metrics has $fam (a number)" yes \
		"$(echo "${V:-none}" | grep -qx '[0-9][0-9.e+]*' && echo yes || echo "no (${V:-none})")"
done
for p in $W0 $W2 $W1B; do kill -TERM "$p"; done
for p in $W0 $W2 $W1B; do wait "$p"; done
PIDS=

# v TAG KEY - a counter of worker TAG's exit lines ("hopmark-collector:
# broker: KEY N ..." and "hopmark-collector: pg: KEY N ...", the latter as pg_KEY)
v()
{
	awk -v k="$2" '$1 == "hopmark-collector:" && ($2 == "broker:" || $2 == "pg:") {
		for (i = 3; i < NF; i += 2)
			if (($2 == "pg:" ? "pg_" $i : $i) == k) print $(i + 1) }' "$HM_TMP/$1.err"
}
sum() { echo $(( $(v w0 "$1") + $(v w2 "$1") + $(v w1b "$1") )); }
hm_check "the three workers stopped and said what they did" "3 3" \
	"$(grep -l "^hopmark-collector: broker: received" "$HM_TMP"/w0.err "$HM_TMP"/w2.err "$HM_TMP"/w1b.err | wc -l) $(grep -l "^hopmark-collector: pg: paths" "$HM_TMP"/w0.err "$HM_TMP"/w2.err "$HM_TMP"/w1b.err | wc -l)"

# sv TAG GROUP KEY - a counter of worker TAG's -s statistics file at exit
sv()
{
	"$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]])' \
		"$HM_TMP/$1.stats" "$2" "$3" 2>/dev/null
}
for t in w0 w2 w1b; do
	exp= obs=
	for k in received replayed bad stitch_dropped replay_done acked ack_failed published publish_failed broker_dups; do
		exp="$exp $(v $t $k)"
		obs="$obs $(sv $t broker $k)"
	done
	hm_check "$t: -s's broker counters = its exit line's (received ... broker_dups)" "$exp" "$obs"
	exp= obs=
	for k in paths packets hops duplicates flushes failures reconnects lost; do
		exp="$exp $(v $t pg_$k)"
		obs="$obs $(sv $t pg $k)"
	done
	hm_check "$t: -s's pg counters = its exit line's (paths ... lost)" "$exp" "$obs"
done

hm_check "every packet stored exactly once" "$N $N" \
	"$(q "SELECT count(*), count(DISTINCT pkt_id) FROM packets")"
hm_check "every packet is one the front sent (packet ID k * 2654435761 + 1, flow k % 40)" "$N" \
	"$(q "SELECT count(*) FROM generate_series(0, $N - 1) k JOIN packets p
		ON p.pkt_id = (k * 2654435761 + 1) % 4294967296 AND p.sport = 5000 + k % 40")"
hm_check "every path complete: 5 hops, nodes 1..5, no drop" "$N" \
	"$(q "SELECT count(*) FROM packets WHERE drop_kind = 0 AND nr_hops = 5 AND path = '{1,2,3,4,5}'")"
hm_check "hops: 5 per packet" "$((N * 5))" "$(q "SELECT count(*) FROM hops")"
hm_check "flows: 40, holding every packet once" "40 $N" "$(q "SELECT count(*), sum(packets) FROM flows")"
R=$(v w1b replayed)
if [ "${R:-0}" -gt 0 ]; then
	hm_ok "the replacement replayed what worker 1 had not acknowledged ($R postcards)"
else
	hm_not_ok "the replacement replayed what worker 1 had not acknowledged"
	echo "#   expected: > 0"
	echo "#   observed: ${R:-none}"
	sed 's/^/#   /' "$HM_TMP/w1b.err"
fi
DONE=$(v w1b replay_done)
DUP=$(v w1b pg_duplicates)
if [ "$(( ${DONE:-0} + ${DUP:-0} ))" -gt 0 ]; then
	hm_ok "replayed postcards of packets already stored counted and dropped (replay_done $DONE, pg duplicates $DUP)"
else
	hm_not_ok "replayed postcards of packets already stored counted and dropped"
	echo "#   expected: replay_done + pg duplicates > 0"
	echo "#   observed: ${DONE:-none} + ${DUP:-none}"
fi
hm_check "the survivors and the replacement stored the rest: stored + duplicates = paths they emitted" \
	"$(sum pg_paths)" "$(( $(sum pg_packets) + $(sum pg_duplicates) ))"
hm_check "nothing lost by the outputs, nothing undecodable, no acknowledgement failed" "0 0 0" \
	"$(sum pg_lost) $(sum bad) $(sum ack_failed)"
hm_log "duplicates: pg $(sum pg_duplicates), stitcher (duplicate or late) $(sum stitch_dropped); replayed $R"
for t in w0 w2 w1b; do
	grep -h "^hopmark-collector: \(broker\|pg\): [a-z]* [0-9]" "$HM_TMP/$t.err" | sed "s/^/# $t: /"
done
grep -h replaying "$HM_TMP/w1b.err" | sed 's/^/# /'

hm_done
