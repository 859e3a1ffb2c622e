#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_trace_fields.sh - on the demo topology (A encap, R1/R3 hopmark
# transit, R2 Linux IOAM, B decap + hopmarkd), every field of every hop of
# every traced packet is exactly what the node must write: node IDs 1..4 and
# 5 for the sink, interface IDs, hop limits 64/63/62/61, R2's Linux-filled
# values (queue depth in bytes, unavailable fields), namespace data,
# timestamps inside this test's own wall-clock window, transit delay > 0 on
# R1 and R3 (unavailable on A and R2), and the per-hop order.
set -u
HM_PFX=${HM_PFX:-hmi$$f}
. "$(dirname "$0")/../lib.sh"
NET=$(dirname "$0")

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
hm_trap_teardown
hm_tmpdir

hm_topo_create || { echo "Bail out! topology"; exit 1; }
hm_setup_cli || { echo "Bail out! hopmark CLI configuration failed"; exit 1; }
hm_agent_start b "$HM_TMP/b.json" || { echo "Bail out! hopmarkd on B"; exit 1; }
hm_agent_start r1 "$HM_TMP/r1.json" || { echo "Bail out! hopmarkd on R1"; exit 1; }
hm_agent_start r3 "$HM_TMP/r3.json" || { echo "Bail out! hopmarkd on R3"; exit 1; }
sleep 0.2	# let the agents write the queue-depth maps once

# ICMPv6 echo requests.
T0=$(hm_now_ns)
hm_on a ping -6 -c 3 -i 0.1 -q $HM_B_ADDR >/dev/null
T1=$(hm_now_ns)
hm_wait_lines "$HM_TMP/b.json" 3
# UDP datagrams.
U0=$(hm_now_ns)
hm_on a "$PY" "$NET/hm_pkt.py" send $HM_B_ADDR 9999 --count 3 --size 200
hm_wait_lines "$HM_TMP/b.json" 6
U1=$(hm_now_ns)

"$PY" "$NET/hm_check_trace.py" fields "$HM_TMP/b.json" --t0 "$T0" --t1 "$T1" \
	--count 3 --proto 58 --agents 2,4 | sed 's/^/icmp_/' >"$HM_TMP/icmp.tsv"
"$PY" "$NET/hm_check_trace.py" fields "$HM_TMP/b.json" --t0 "$U0" --t1 "$U1" \
	--count 3 --proto 17 --agents 2,4 | sed 's/^/udp_/' >"$HM_TMP/udp.tsv"

hm_checks_from "$HM_TMP/icmp.tsv"
hm_checks_from "$HM_TMP/udp.tsv"
hm_check "udp_ports_reported" "9999" \
	"$(hm_json "$HM_TMP/b.json" '",".join(sorted(set(str(r["packet"]["dport"]) for r in recs if r["packet"]["proto"] == 17)))')"
hm_check "sink_ifindex_is_b_ifindex" \
	"$(hm_on b ip -o link show b-r3 | cut -d: -f1)" \
	"$(hm_json "$HM_TMP/b.json" '",".join(sorted(set(str(r["sink"]["ifindex"]) for r in recs)))')"
hm_done
