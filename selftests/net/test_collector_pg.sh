#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_collector_pg.sh - hopmark-collector's PostgreSQL output
# (collector/out_pg.c, schema collector/schema.sql) against a real server:
# Debian's PostgreSQL 15, a throwaway cluster made with initdb in a temporary
# directory (as user postgres), listening on a unix socket there only,
# stopped by pg_ctl and its PID at the end.
#
#   1. pg-feed writes 3000 stitched paths by its rule (collector/tests/
#      pg_feed.c) and then 250 of them again: the database holds exactly the
#      3000 packets, their 13500 hops and 7 flows, every row as the rule
#      says (drop location, path, per-hop and per-link latency, NULL for
#      what a dropped packet's last hop did not report), and the 250 again
#      are counted as duplicates and not stored.
#   2. The server restarts while pg-feed is half-way: the failed flush is
#      counted, the output reconnects, and the database still holds exactly
#      the 3000 packets, none lost.
set -u
HM_PFX=${HM_PFX:-hmpg$$}
. "$(dirname "$0")/../lib.sh"
FEED=${HMC_PG_FEED:-$HM_BUILD/tests/collector/pg-feed}
N=3000
DUPS=250
HOPS=$(( N / 10 * 8 * 5 + N / 10 * 3 + N / 10 * 2 ))	# 13500

[ "$(id -u)" -eq 0 ] || hm_skip_all "needs root (the server runs as user postgres)"
hm_require_built "$FEED"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] || hm_skip_all "needs PostgreSQL (Debian's postgresql)"
command -v psql >/dev/null || hm_skip_all "needs psql (postgresql-client)"
id postgres >/dev/null 2>&1 || hm_skip_all "needs the postgres user"

hm_tmpdir
D=$HM_TMP/pg
mkdir -p "$D/sock"
chown -R postgres "$D"
PGPID=
stop_pg()
{
	[ -n "$PGPID" ] || return 0
	runuser -u postgres -- "$PGBIN/pg_ctl" -D "$D/db" -m fast -w stop >/dev/null 2>&1
	kill "$PGPID" 2>/dev/null
	while kill -0 "$PGPID" 2>/dev/null; do sleep 0.1; done
	PGPID=
}
cleanup()
{
	stop_pg
	[ -n "${FEEDPID:-}" ] && kill "$FEEDPID" 2>/dev/null
	[ -n "${CPID:-}" ] && kill "$CPID" 2>/dev/null
	rm -rf "$HM_TMP"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

start_pg()
{
	runuser -u postgres -- "$PGBIN/pg_ctl" -D "$D/db" -l "$D/log" -w -t 30 \
		-o "-k $D/sock -c listen_addresses= -c fsync=off" start >/dev/null ||
		{ sed 's/^/#   /' "$D/log"; return 1; }
	PGPID=$(head -1 "$D/db/postmaster.pid")
}

runuser -u postgres -- "$PGBIN/initdb" -D "$D/db" -A trust -U postgres --no-sync \
	>"$D/initdb.log" 2>&1 || { sed 's/^/#   /' "$D/initdb.log"; echo "Bail out! initdb"; exit 1; }
start_pg || { echo "Bail out! PostgreSQL did not start"; exit 1; }
hm_log "PostgreSQL pid $PGPID, socket $D/sock"

q() { psql -h "$D/sock" -U postgres -d "$1" -XAtq -F ' ' -c "$2"; }
createdb -h "$D/sock" -U postgres hm1 && createdb -h "$D/sock" -U postgres hm2 ||
	{ echo "Bail out! createdb"; exit 1; }

# ------------------------------------------------------------ 1. rows
OUT=$("$FEED" "host=$D/sock user=postgres dbname=hm1" $N $DUPS 2>"$HM_TMP/feed1.err")
stat() { echo "$OUT" | awk -v k="$1" '$1 == k { print $2 }'; }
hm_check "pg-feed: paths handed to the output" $((N + DUPS)) "$(stat paths)"
hm_check "pg-feed: packets stored" $N "$(stat packets)"
hm_check "pg-feed: hops stored" $HOPS "$(stat hops)"
hm_check "pg-feed: the paths fed twice counted as duplicates" $DUPS "$(stat duplicates)"
hm_check "pg-feed: no failure, nothing lost" "0 0" "$(stat failures) $(stat lost)"
hm_check "pg-feed: batched (at least one transaction per 1000 paths)" 1 \
	"$(( $(stat flushes) >= (N + DUPS) / 1000 ))"

hm_check "packets: exactly the packets fed" "$N $N" \
	"$(q hm1 "SELECT count(*), count(DISTINCT (pkt_id, first_ns)) FROM packets")"
# the packet ID and time of every row follow the rule: i = (first_ns - T0) / 1000
hm_check "packets: every packet ID and time is one the rule made" $N \
	"$(q hm1 "SELECT count(*) FROM packets WHERE (first_ns - 1764600000000000000) % 1000 = 0
		AND pkt_id = ((first_ns - 1764600000000000000) / 1000 * 2654435761) % 4294967296
		AND (first_ns - 1764600000000000000) / 1000 < $N")"
hm_check "packets: drop_kind counts (none, in node, on link)" \
	"0 $((N / 10 * 8)) 1 $((N / 10)) 2 $((N / 10))" \
	"$(q hm1 "SELECT drop_kind, count(*) FROM packets GROUP BY 1 ORDER BY 1" | tr '\n' ' ' | sed 's/ $//')"
hm_check "hops: every hop of every packet" $HOPS "$(q hm1 "SELECT count(*) FROM hops")"
hm_check "flows: 7 flows holding every packet" "7 $N $((N / 10)) $((N / 10))" \
	"$(q hm1 "SELECT count(*), sum(packets), sum(drops_in_node), sum(drops_on_link) FROM flows")"
# path 5: flow 5 (IPv6), dropped on the link after node 2
hm_check "packets: path 5, dropped on a link after node 2" \
	"6 17 2001:db8::1 2001:db8:1::5 40005 9999 2 2 2 {1,2}" \
	"$(q hm1 "SELECT family, proto, saddr, daddr, sport, dport, nr_hops, drop_kind, drop_node, path
		FROM packets WHERE first_ns = 1764600000000005000")"
hm_check "hops: path 5 hop 1: node 2, TTL 63, interfaces, node and link latency, queue depth" \
	"2 63 3 21 22 2000 8000 100" \
	"$(q hm1 "SELECT node_id, ttl, points, in_if, out_if, node_ns, link_ns, qdepth
		FROM hops WHERE first_ns = 1764600000000005000 AND hop = 1")"
# path 10: flow 3, dropped inside node 3: its last hop has no egress
hm_check "packets: path 10, dropped inside node 3" "3 1 3 {1,2,3}" \
	"$(q hm1 "SELECT nr_hops, drop_kind, drop_node, path FROM packets WHERE first_ns = 1764600000000010000")"
hm_check "hops: path 10's last hop: ingress only, egress fields NULL" "1 t t t t" \
	"$(q hm1 "SELECT points, out_ns IS NULL, out_if IS NULL, qdepth IS NULL, node_ns IS NULL
		FROM hops WHERE first_ns = 1764600000000010000 AND hop = 2")"
hm_check "packets: complete path 1, no drop node, no duplicate postcard" "5 0 t 0 {1,2,3,4,5}" \
	"$(q hm1 "SELECT nr_hops, drop_kind, drop_node IS NULL, dups, path FROM packets
		WHERE first_ns = 1764600000000001000")"
hm_check "flows: flow 0's counts and newest path" \
	"4 10.0.0.1 10.0.1.0 $(( (N + 6) / 7 )) 1764600000000000000 1764600000002996000 {1,2,3,4,5}" \
	"$(q hm1 "SELECT family, saddr, daddr, packets, first_ns, last_ns, last_path FROM flows WHERE sport = 40000")"

# ------------------------------------------------------------ 2. restart
rm -f "$HM_TMP/go"
"$FEED" "host=$D/sock user=postgres dbname=hm2" $N 0 "$HM_TMP/go" >"$HM_TMP/feed2.out" 2>"$HM_TMP/feed2.err" &
FEEDPID=$!
for i in $(seq 100); do grep -q '^# half' "$HM_TMP/feed2.out" && break; sleep 0.1; done
# fast stop, then start again: the output's connection is gone
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$D/db" -m fast -w stop >/dev/null
while kill -0 "$PGPID" 2>/dev/null; do sleep 0.1; done
touch "$HM_TMP/go"
sleep 0.5
start_pg || { echo "Bail out! PostgreSQL did not restart"; exit 1; }
wait "$FEEDPID"
FEEDPID=
OUT=$(cat "$HM_TMP/feed2.out")
hm_check "restart: the output reconnected" 1 "$(( $(stat reconnects) >= 1 ))"
hm_check "restart: the failed flush was counted" 1 "$(( $(stat failures) >= 1 ))"
hm_check "restart: every packet stored, none lost, no duplicate" "$N 0 0" \
	"$(stat packets) $(stat lost) $(stat duplicates)"
hm_check "restart: the database holds exactly the $N packets and their hops" "$N $HOPS" \
	"$(q hm2 "SELECT (SELECT count(*) FROM packets), (SELECT count(*) FROM hops)")"
grep -q "cannot connect\|server closed\|terminat\|connection" "$HM_TMP/feed2.err" &&
	hm_ok "restart: the failure was logged" ||
	{ hm_not_ok "restart: the failure was logged"; sed 's/^/#   /' "$HM_TMP/feed2.err"; }

# ------------------------------------------------------------ 3. counters
# hopmark-collector --pg: the output's counters in -s's "pg" object and in
# --metrics (hopmark_collector_pg_*), equal to its exit line. 5 packets of
# 4 postcards (A -> R -> B) over IPFIX/UDP on a port of the host.
COLL=$HM_BUILD/hopmark-collector
SEND=$HM_TOP/selftests/net/hm_ipfix_send.py
if [ -x "$COLL" ] && command -v curl >/dev/null; then
	createdb -h "$D/sock" -U postgres hm3 || { echo "Bail out! createdb hm3"; exit 1; }
	UPORT=$(( 40000 + $$ % 20000 ))
	"$COLL" -u $UPORT -t 0 -w 200 --pg "host=$D/sock user=postgres dbname=hm3" \
		-o "$HM_TMP/c.json" -s "$HM_TMP/c.stats" --metrics 127.0.0.1:0 \
		</dev/null >/dev/null 2>"$HM_TMP/c.err" &
	CPID=$!
	MPORT=
	for i in $(seq 100); do
		MPORT=$(sed -n 's|.*hopmark-collector: metrics: http://.*:\([0-9]*\)/metrics$|\1|p' "$HM_TMP/c.err")
		[ -n "$MPORT" ] && break
		sleep 0.05
	done
	for k in 1 2 3 4 5; do "$PY" "$SEND" good 127.0.0.1 $UPORT 0 $k; done
	# the window (200 ms), then the output's flush (once a second)
	for i in $(seq 50); do
		curl -sf "http://127.0.0.1:${MPORT:-0}/metrics" >"$HM_TMP/c.prom" 2>/dev/null
		[ "$(awk '$1 == "hopmark_collector_pg_packets_total" { print $2 }' "$HM_TMP/c.prom")" = 5 ] && break
		sleep 0.1
	done
	m() { awk -v f="hopmark_collector_pg_$1_total" '$1 == f { print $2 }' "$HM_TMP/c.prom"; }
	hm_check "collector --metrics: pg paths, packets, hops, duplicates, lost" "5 5 15 0 0" \
		"$(m paths) $(m packets) $(m hops) $(m duplicates) $(m lost)"
	kill -TERM "$CPID"
	wait "$CPID"
	CPID=
	sv() { "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["pg"][sys.argv[2]])' \
		"$HM_TMP/c.stats" "$1" 2>/dev/null; }
	hm_check "collector -s: pg paths, packets, hops, duplicates, failures, lost" "5 5 15 0 0 0" \
		"$(sv paths) $(sv packets) $(sv hops) $(sv duplicates) $(sv failures) $(sv lost)"
	exp= obs=
	for k in paths packets hops duplicates flushes failures reconnects lost; do
		exp="$exp $(awk -v k="$k" '$1 == "hopmark-collector:" && $2 == "pg:" {
			for (i = 3; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$HM_TMP/c.err")"
		obs="$obs $(sv $k)"
	done
	hm_check "collector -s: every pg counter = the exit line's (paths ... lost)" "$exp" "$obs"
	hm_check "collector: the database holds the 5 packets" 5 "$(q hm3 "SELECT count(*) FROM packets")"
else
	hm_skip "collector counters: needs $COLL (make hopmark-collector) and curl"
fi

hm_done
