#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_queue_depth.sh - queue depth is the egress qdisc backlog in bytes,
# on hopmark's R1 (read by hopmarkd over rtnetlink into hopmark_qdepth) and
# on Linux's R2 (read by the kernel itself). A tbf on R1's r1-r2 (5 Mbit/s)
# and on R2's r2-r3 (2 Mbit/s) builds real queues; A sends a burst of
# equal-sized UDP datagrams, so every backlog is a whole number of queued
# packets of 14 (Ethernet) + 40 + 256 (IOAM) + 8 + 1000 bytes. The burst is
# paced (1 ms apart, ~10 Mbit/s) so that the queue on R1 lasts across
# several of hopmarkd's 10 ms qdisc polls: hopmark reads the last poll.
set -u
HM_PFX=${HM_PFX:-hmi$$q}
. "$(dirname "$0")/../lib.sh"
NET=$(dirname "$0")
PKTLEN=$((14 + 40 + HM_ENCAP_GROWTH + 8 + 1000))
LIMIT=100000
# The routers' own control packets may share a queue with the burst: a
# Neighbor Solicitation is 86 bytes, an unsolicited MLDv2 report of a
# freshly configured interface 170. A backlog is whole datagrams plus at
# most a couple of those, never a fraction of a datagram.
CTRL_MAX=256
N=200

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
hm_trap_teardown
hm_tmpdir

hm_topo_create || { echo "Bail out! topology"; exit 1; }
hm_setup_cli || { echo "Bail out! hopmark CLI configuration failed"; exit 1; }
hm_on r1 tc qdisc add dev r1-r2 root tbf rate 5mbit burst 4k limit $LIMIT ||
	{ echo "Bail out! tbf on R1"; exit 1; }
hm_on r2 tc qdisc add dev r2-r3 root tbf rate 2mbit burst 4k limit $LIMIT ||
	{ echo "Bail out! tbf on R2"; exit 1; }
hm_agent_start b "$HM_TMP/b.json" || { echo "Bail out! hopmarkd on B"; exit 1; }
hm_agent_start r1 "$HM_TMP/r1.json" || { echo "Bail out! hopmarkd on R1"; exit 1; }
sleep 0.2

hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count $N --size 1000 --interval 0.001
# 150 x 1318 bytes through 2 Mbit/s: about 1 s; the tbf limits drop the rest.
for i in $(seq 40); do
	sleep 0.1
	[ "$(wc -l <"$HM_TMP/b.json")" -ge $N ] && break
	[ "$i" -gt 25 ] && [ "$(wc -l <"$HM_TMP/b.json")" -eq "${LAST:-x}" ] && break
	LAST=$(wc -l <"$HM_TMP/b.json")
done
NREC=$(wc -l <"$HM_TMP/b.json")
echo "# $NREC of $N datagrams reached B (tbf limits drop the rest)"
echo "# queue depth R1, R2 (bytes): $(hm_json "$HM_TMP/b.json" "[(r['hops'][1]['queue_depth'], r['hops'][2]['queue_depth']) for r in recs][::8]")"

q() { hm_json "$HM_TMP/b.json" "$1"; }
hm_check "records_reported" "True" "$([ "$NREC" -gt 10 ] && echo True || echo False)"
for hop in 2:R1 3:R2; do
	i=$(( ${hop%%:*} - 1 )); name=${hop#*:}
	hm_check "${name}_queue_depth_built_up" "True" \
		"$(q "max(r['hops'][$i]['queue_depth'] or 0 for r in recs) >= 3 * $PKTLEN")"
	hm_check "${name}_queue_depth_whole_packets_in_bytes" "[]" \
		"$(q "sorted(set(v for v in (r['hops'][$i]['queue_depth'] for r in recs) if v is None or v % $PKTLEN >= $CTRL_MAX))")"
	hm_check "${name}_queue_depth_within_tbf_limit" "True" \
		"$(q "all((r['hops'][$i]['queue_depth'] or 0) <= $LIMIT for r in recs)")"
done
# R1's buffer occupancy: the node total backlog, the same whole packets.
hm_check "R1_buffer_occupancy_whole_packets_in_bytes" "[]" \
	"$(q "sorted(set(v for v in (r['hops'][1]['buffer_occupancy'] for r in recs) if v is None or v % $PKTLEN >= $CTRL_MAX))")"
hm_check "R1_buffer_occupancy_at_least_queue_depth" "True" \
	"$(q "all(r['hops'][1]['buffer_occupancy'] >= r['hops'][1]['queue_depth'] for r in recs)")"
# Linux has no buffer occupancy; A and R3 run no hopmarkd here: unavailable.
hm_check "R2_buffer_occupancy_unavailable" "[null]" \
	"$(q "sorted(set(r['hops'][2]['buffer_occupancy'] for r in recs), key=str)")"
hm_check "R3_queue_depth_unavailable_without_agent" "[null]" \
	"$(q "sorted(set(r['hops'][3]['queue_depth'] for r in recs), key=str)")"
hm_done
