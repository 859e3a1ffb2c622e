#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_collector_ipfix_out.sh - hopmark-collector's IPFIX re-export
# (--ipfix-out, collector/out_ipfix.c): the postcards of 2000 packets
# (broker-node ipfix: 10 postcards each, made by collector/tests/
# broker_node.c's rule) go as IPFIX over UDP to collector A, which stitches
# them and re-exports every postcard it received over TCP to collector B
# (and, in a second run, over UDP). B stitches what it got: its paths are
# A's, field for field, and every postcard A received was sent on.
# Everything on 127.0.0.1 inside a throwaway network namespace; both
# collectors are started and stopped by PID.
set -u
HM_PFX=${HM_PFX:-hmio$$}
. "$(dirname "$0")/../lib.sh"
NODE=${HMC_BROKER_NODE:-$HM_BUILD/tests/collector/broker-node}
COLL=${HMC_COLLECTOR:-$HM_BUILD/hopmark-collector}
N=2000

hm_require_root_netns
hm_require_built "$NODE" "$COLL"
hm_solo_cleanup_hook() { local p; for p in ${HM_BG_PIDS:-}; do kill "$p" 2>/dev/null; done; }
hm_solo_node
x ip link set lo up

# collector NAME ARGS... - start it in the namespace; PID in CPID_NAME
start()
{
	local name=$1; shift
	# nsenter execs the collector: $! is its PID
	nsenter --net="/run/netns/$NS" "$COLL" -s "$HM_TMP/$name.stats" -o "$HM_TMP/$name.json" \
		"$@" </dev/null >/dev/null 2>"$HM_TMP/$name.err" &
	eval "CPID_$name=$!"
	HM_BG_PIDS="${HM_BG_PIDS:-} $!"
}
stop() { local p; eval "p=\$CPID_$1"; kill -TERM "$p"; wait "$p"; HM_BG_PIDS=${HM_BG_PIDS/ $p/}; }

# paths FILE - one line per path: key, packet ID, hops (node, TTL, points,
# interfaces, times, queue depth), drop; sorted
paths()
{
	python3 -c '
import json, sys
out = []
for line in open(sys.argv[1]):
    o = json.loads(line)
    o.pop("dups", None)
    out.append(json.dumps(o, sort_keys=True))
for l in sorted(out):
    print(l)' "$1"
}

run()
{
	local mode=$1
	rm -f "$HM_TMP"/a.* "$HM_TMP"/b.*
	start b -u 14740 -t 14741
	sleep 0.3
	start a -u 14739 -t 0 --ipfix-out "$mode:127.0.0.1:$([ "$mode" = tcp ] && echo 14741 || echo 14740)"
	# The send ends just after A's first once-a-second flush: its last,
	# partly filled Message would then wait almost a second, past B's
	# 500 ms window, and B would split a packet whose postcards straddle
	# it. The re-export's own flush (HMC_OUT_IPFIX_FLUSH_MS) prevents that.
	sleep 0.9
	x "$NODE" ipfix udp:127.0.0.1:14739 $N >"$HM_TMP/send.out"
	sleep 2
	stop a
	sleep 1
	stop b
	hm_check "$mode: the sender sent every postcard" "$((N * 10)) $((N * 10)) 0" \
		"$(awk '{ printf "%s ", $2 }' "$HM_TMP/send.out" | sed 's/ $//')"
	hm_check "$mode: A stitched every packet" "$N" "$(wc -l <"$HM_TMP/a.json")"
	hm_check "$mode: B stitched every packet from A's re-export" "$N" "$(wc -l <"$HM_TMP/b.json")"
	if diff <(paths "$HM_TMP/a.json") <(paths "$HM_TMP/b.json") >"$HM_TMP/diff"; then
		hm_ok "$mode: B's paths are A's, field for field"
	else
		hm_not_ok "$mode: B's paths are A's, field for field"
		head -4 "$HM_TMP/diff" | cut -c1-300 | sed 's/^/#   /'
	fi
	grep -q "exporting to 127.0.0.1 port" "$HM_TMP/a.err" &&
		hm_ok "$mode: A logged where it re-exports" ||
		{ hm_not_ok "$mode: A logged where it re-exports"; sed 's/^/#   /' "$HM_TMP/a.err"; }
}

run tcp
run udp

hm_done
