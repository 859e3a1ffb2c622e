#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_pbt_template.sh - per-flow templates (seed 002's flow path
# discovery) end to end on the demo's five-node line (selftests/pbt_lib.sh):
# A marks two UDP flows, X (sport 41001 -> dport 5321) and Y (41002 ->
# 5322); every node's hopmarkd exports its postcards as IPFIX to
# hopmark-collector on the host, which stitches them (JSON paths) and
# re-exports every postcard it decoded (--ipfix-out) to a recorder
# (socat), read with ipfixDump --rfc5610.
#
#   phase   before it                                    X's postcards
#   basic   -                                            basic set (template 256)
#   tpl     `postcard template add X fields nexthop,     template 258: Flow Template
#           tos,length,sojourn id 7` on the nodes of     ID 7 and the fields each
#           X's path, as the collector's basic-set       node and point fills
#           paths name them (node IDs -> nodes)
#   del     `postcard template del X` on those nodes     basic set
#   timed   `template add X ... timeout 3 id 8`          258, Flow Template ID 8
#   expired 3.5 s later                                  basic set
# Y keeps the basic set throughout. Checks (expected vs observed):
#   - the basic phase's paths of X are A R1 R2 R3 B (node IDs 1..5): the
#     nodes the template goes to;
#   - every phase: every packet of X and Y is one complete path of 5 hops
#     in the collector's JSON (template records stitch like basic ones);
#   - per phase, X's and Y's records in the collector's re-export: their
#     count (8 postcards a packet), the template (hopmarkFlowTemplateId),
#     and in tpl: hopmarkTemplateFields per node and point (A: tos, length;
#     a router's ingress: the same, its egress: next hop and sojourn too;
#     B: tos, length), ipClassOfService 0, ipTotalLength 228, the next hop
#     each router's route gives, a sojourn below 1 s;
#   - after the timeout: every node's pbt_tpl is empty (hopmarkd removed
#     the expired template).
# TAP; root; about 40 s.
set -u
HM_PFX=${HM_PFX:-hmtp$$}
PBT_MGMT_NET=${PBT_MGMT_NET:-10.252.$(( $$ % 200 + 20 ))}
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pbt_lib.sh"
SEND="$PY $HM_TOP/selftests/net/pbt_e2e.py send"
COLL_PORT=$((20000 + $$ % 20000))	# where the nodes export
REC_PORT=$((COLL_PORT + 1))		# the collector's re-export
X="src $PBT_A4 dst $PBT_B4 proto udp sport 41001 dport 5321"
COUNT=20

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD" "$HM_COLLECTOR" "$HM_BPF_DIR/hopmark_pbt.bpf.o"
for c in socat ipfixDump ss; do
	command -v $c >/dev/null || hm_skip_all "needs $c"
done
pbt_trap_teardown
hm_tmpdir
T=$HM_TMP
mkdir -p "$T/nodes"

bail() { echo "Bail out! $*"; exit 1; }

pbt_topo_create || bail "topology"
pbt_node_ids || bail "hopmark node set / link set"
pbt_setup "$COLL_PORT" || bail "hopmark postcard configuration"
pbt_select "proto udp dport 5321" "proto udp dport 5322" -- all || bail "postcard watch / sample"

socat -u UDP-RECV:$REC_PORT,bind=127.0.0.1 "OPEN:$T/reexport.ipfix,creat,trunc" &
REC=$!
HM_BG_PIDS="${HM_BG_PIDS:-} $REC"
pbt_collector_start "$T/paths.json" "$COLL_PORT" -t 0 -w 500 -s "$T/coll.json" \
	--ipfix-out "udp:127.0.0.1:$REC_PORT" || bail "hopmark-collector"
pbt_agents_start "$T/nodes" || bail "hopmarkd"
sleep 1

# phase NAME - both flows, then the collector's window; the paths it
# emitted meanwhile are NAME's (their line numbers in $T/phases).
phase()
{
	local from
	from=$(wc -l <"$T/paths.json")
	local s
	hm_on a $SEND "$PBT_B4" 5321 --sport 41001 --count $COUNT --rate 50 >/dev/null &
	s=$!
	hm_on a $SEND "$PBT_B4" 5322 --sport 41002 --count $COUNT --rate 50 >/dev/null
	wait $s
	sleep 1.5
	echo "$1 $from $(wc -l <"$T/paths.json")" >>"$T/phases"
}
# tpl_on NODES WORDS... - the same `hopmark postcard template` command on each node.
tpl_on()
{
	local nodes=$1 n
	shift
	for n in $nodes; do
		# shellcheck disable=SC2068 # words of the command
		hm_on "$n" "$HOPMARK" postcard template $@ >/dev/null || return
	done
}

phase basic
# Flow path discovery: X's nodes from the collector's basic-set paths.
PATH_NODES=$("$PY" - "$T/paths.json" "$T/phases" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
_, a, b = open(sys.argv[2]).read().split()
names = {1: "a", 2: "r1", 3: "r2", 4: "r3", 5: "b"}
seqs = {tuple(h["node"] for h in p["hops"]) for p in map(json.loads, lines[int(a):int(b)])
	if p["dport"] == 5321}
print(" ".join(names.get(n, "?%d" % n) for n in next(iter(seqs))) if len(seqs) == 1 else
      "paths %s" % sorted(seqs))
EOF
)
hm_check "flow path discovery: X's path in the collector's basic-set paths" "a r1 r2 r3 b" "$PATH_NODES"
[ "$PATH_NODES" = "a r1 r2 r3 b" ] || PATH_NODES="a r1 r2 r3 b"

tpl_on "$PATH_NODES" add $X fields nexthop,tos,length,sojourn id 7 || bail "template add"
phase tpl
tpl_on "$PATH_NODES" del $X || bail "template del"
phase del
tpl_on "$PATH_NODES" add $X fields nexthop,tos,length,sojourn timeout 3 id 8 || bail "template add timeout"
phase timed
sleep 3.5
phase expired
sleep 1	# hopmarkd looks for expired templates once a second
for n in $PATH_NODES; do
	echo "$n $(hm_on "$n" "$HOPMARK" -j postcard template show | "$PY" -c 'import json, sys
d = json.load(sys.stdin)
print(len(d) if isinstance(d, list) else len(d.get("templates", [])))')"
done >"$T/tpl_left"
pbt_agents_stop
sleep 0.5
pbt_collector_stop
sleep 0.3
kill $REC
wait $REC

hm_check "after the timeout, pbt_tpl holds no template on any node" \
	"$(for n in $PATH_NODES; do echo "$n 0"; done | tr '\n' ' ')" "$(tr '\n' ' ' <"$T/tpl_left")"
hm_ipfix_dump "$T/reexport.ipfix" "$T/reexport.dump"
hm_check "ipfixDump reads the collector's re-export (exit status)" 0 $?

"$PY" - "$T/paths.json" "$T/phases" "$T/reexport.dump.records" "$COUNT" <<'EOF' >"$T/checks.tsv" ||
import json, sys
lines = open(sys.argv[1]).read().splitlines()
phases = [l.split() for l in open(sys.argv[2]) if l.strip()]
count = int(sys.argv[4])
# records of the re-export (hm_ipfix_dump)
recs = [json.loads(l) for l in open(sys.argv[3])]
pc = [r for r in recs if "hopmarkPacketId" in r]
node_name = {1: "a", 2: "r1", 3: "r2", 4: "r3", 5: "b"}
NEXTHOP = {"r1": "10.9.2.2", "r2": "10.9.3.2", "r3": "10.9.4.2"}	# pbt_lib.sh's routes
TOS, LENGTH, NH, SOJ = 2, 4, 1, 32					# PBT_FLD_*
phase_of = {}
for name, a, b in phases:
	for p in map(json.loads, lines[int(a):int(b)]):
		phase_of[(p["sport"], p["pkt_id"])] = name
def out(name, exp, obs):
	print("%s\t%s\t%s" % (name, exp, obs))
for name, a, b in phases:
	paths = [json.loads(l) for l in lines[int(a):int(b)]]
	for sport, flow in ((41001, "X"), (41002, "Y")):
		ps = [p for p in paths if p["sport"] == sport]
		good = [p for p in ps if p["complete"] and [h["node"] for h in p["hops"]] == [1, 2, 3, 4, 5]]
		out("%s: %s's %d packets are complete paths A R1 R2 R3 B in the JSON" % (name, flow, count),
		    "%d %d" % (count, count), "%d %d" % (len(ps), len(good)))
for name, _, _ in phases:
	for sport, flow in ((41001, "X"), (41002, "Y")):
		rs = [r for r in pc if int(r.get("sourceTransportPort", 0)) == sport and
		      phase_of.get((sport, int(r["hopmarkPacketId"]))) == name]
		tid = 7 if (flow, name) == ("X", "tpl") else 8 if (flow, name) == ("X", "timed") else 0
		ids = sorted({r.get("hopmarkFlowTemplateId", "none") for r in rs})
		out("%s: %s's records in the re-export: %d, Flow Template ID %s" % (
			name, flow, 8 * count, tid or "none (basic set)"),
		    "%d %s" % (8 * count, [str(tid)] if tid else ["none"]), "%d %s" % (len(rs), ids))
		if tid != 7:
			continue
		bad = []
		for r in rs:
			n = node_name.get(int(r.get("hopmarkNodeId", 0)), "?")
			egress = int(r.get("hopmarkObservationPoint", 0)) == 2
			want_f = TOS | LENGTH | (NH | SOJ if egress and n in NEXTHOP else 0)
			got = (int(r.get("hopmarkTemplateFields", -1)), r.get("ipClassOfService"),
			       r.get("ipTotalLength"))
			want = (want_f, "0", "228")
			if egress and n in NEXTHOP:
				soj = int(r.get("hopmarkSojournNanoseconds", -1))
				got += (r.get("ipNextHopIPv4Address"), 0 <= soj < 10**9)
				want += (NEXTHOP[n], True)
			if got != want:
				bad.append((n, "egress" if egress else "ingress", want, got))
		out("tpl: X's template fields per node and point (hopmarkTemplateFields, ipClassOfService, "
		    "ipTotalLength; routers' egress: ipNextHopIPv4Address, hopmarkSojournNanoseconds)",
		    "[]", bad[:3])
EOF
	hm_not_ok "checks ran"
hm_checks_from "$T/checks.tsv"
hm_done
