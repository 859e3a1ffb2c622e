#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_gone_ifaces.sh - what a deleted interface leaves in the maps is
# forgotten. Linux removes the device's programs with it but not the
# hopmark_ifcfg entry or the hopmark_encap rule keyed by its ifindex;
# the next configuring `hopmark` command deletes them, and so does a
# running hopmarkd within its one-second tick; its qdisc poller drops the
# device's hopmark_qdepth entry too. Interfaces that still exist keep
# their settings. A device whose ifindex is beyond the maps' bound
# (HM_MAX_IFINDEX) is refused by name.
#
# One throwaway network namespace with veth pairs and its own bpffs
# (TC_BPF_MNT); commands run under `nsenter --net`.
set -u
HM_PFX=${HM_PFX:-hmt-gone$$}
. "$(dirname "$0")/../lib.sh"

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
command -v bpftool >/dev/null || hm_skip_all "needs bpftool"

AGENT=
hm_solo_cleanup_hook()
{
	[ -z "$AGENT" ] || { kill "$AGENT" 2>/dev/null; wait "$AGENT" 2>/dev/null; }
}
hm_solo_node

# configure DEV ID PREFIX: transit, an interface ID and an encap rule.
configure()
{
	x ip link add "$1" type veth peer name "$1p" &&
		x ip link set "$1" up && x ip link set "$1p" up &&
		x "$HOPMARK" ioam transit enable dev "$1" &&
		x "$HOPMARK" link set dev "$1" id "$2" &&
		x "$HOPMARK" ioam encap add "$3" dev "$1" ns 123 trace-type 0xf00000 size 32
}
# What the maps hold: "ifname:id ..." and "prefix@dev ...".
links() { x "$HOPMARK" -j link show | "$PY" -c 'import json, sys; print(" ".join("%s:%s" % (l["ifname"], l["id"]) for l in json.load(sys.stdin)))'; }
# The ifindexes hopmark_qdepth holds (hopmarkd's qdisc readings): an array,
# whose entries without a reading have updated_ns 0.
qkeys() {
	bpftool -j map dump pinned "$BPFFS/tc/globals/hopmark_qdepth" | "$PY" -c '
import json, sys
def read(e):
    f = e.get("formatted")
    if f:
        return f["key"], f["value"]["updated_ns"]
    b = lambda l: bytes(int(x, 16) for x in l)
    return int.from_bytes(b(e["key"]), "little"), int.from_bytes(b(e["value"])[16:24], "little")
print(" ".join(str(k) for k, t in sorted(read(e) for e in json.load(sys.stdin)) if t))'
}
# hopmark_encap_filter (struct hopmark_encap_filter): "flags L bits-set";
# its bits are recomputed from the rules that are left after a prune.
filter() {
	bpftool -j map lookup pinned "$BPFFS/tc/globals/hopmark_encap_filter" key hex 00 00 00 00 |
		"$PY" -c '
import json, sys
e = json.load(sys.stdin)
f = e.get("formatted")
if f:
    v = f["value"]
    print(v["flags"], v["prefixlen"], sum(bin(w).count("1") for w in v["bits"]))
else:
    b = bytes(int(x, 16) for x in e["value"])
    print(int.from_bytes(b[0:4], "little"), int.from_bytes(b[4:8], "little"),
          sum(bin(x).count("1") for x in b[8:]))'
}
rules() { x "$HOPMARK" -j ioam encap show | "$PY" -c 'import json, sys; print(" ".join("%s@%s" % (r["prefix"], r["dev"]) for r in json.load(sys.stdin)))'; }

x "$HOPMARK" ioam namespace add 123 &&
	configure g0 10 2001:db8:10::/64 &&
	configure g1 11 2001:db8:11::/64 ||
	{ echo "Bail out! configuration"; exit 1; }
hm_check "configured" "g0:10 g1:11|2001:db8:10::/64@g0 2001:db8:11::/64@g1" "$(links)|$(rules)"
hm_check "cli_encap_filter_trusted_one_bit_per_rule" "1 64 2" "$(filter)"

# ---- the CLI: the next configuring command forgets g0
G0=$(x ip -o link show dev g0 | cut -d: -f1)
x ip link del g0
hm_check "deleted_device_left_in_maps" "if$G0:10 g1:11" "$(links)"
x "$HOPMARK" node set id 5
hm_check "cli_forgets_deleted_interface" "g1:11" "$(links)"
hm_check "cli_forgets_rule_of_deleted_interface" "2001:db8:11::/64@g1" "$(rules)"
hm_check "cli_prune_recomputes_encap_filter" "1 64 1" "$(filter)"

# ---- the agent: within its one-second tick
configure g2 12 2001:db8:12::/64 || { echo "Bail out! configuration of g2"; exit 1; }
TC_BPF_MNT=$BPFFS HOPMARK_RUNDIR=$RUNDIR exec nsenter --net="/run/netns/$NS" \
	"$HOPMARKD" -o "$HM_TMP/records" >"$HM_TMP/agent.log" 2>&1 &
AGENT=$!
for _ in $(seq 50); do [ -S "$RUNDIR/hopmarkd.sock" ] && break; sleep 0.1; done
G2=$(x ip -o link show dev g2 | cut -d: -f1)
for _ in $(seq 50); do [[ " $(qkeys) " == *" $G2 "* ]] && break; sleep 0.1; done
hm_check "agent_polls_qdisc_of_g2" 1 "$([[ " $(qkeys) " == *" $G2 "* ]] && echo 1 || echo 0)"
x ip link del g2
for _ in $(seq 50); do [ "$(links)" = "g1:11" ] && break; sleep 0.1; done
hm_check "agent_forgets_deleted_interface" "g1:11" "$(links)"
hm_check "agent_forgets_rule_of_deleted_interface" "2001:db8:11::/64@g1" "$(rules)"
hm_check "agent_prune_recomputes_encap_filter" "1 64 1" "$(filter)"
hm_check "agent_drops_qdepth_entry_of_deleted_interface" 0 \
	"$([[ " $(qkeys) " == *" $G2 "* ]] && echo 1 || echo 0)"
hm_check "agent_says_so" 1 "$(grep -c 'forgot 2 map entries of deleted interfaces' "$HM_TMP/agent.log")"
kill "$AGENT"
wait "$AGENT"
AGENT=
hm_check "agent_counts_it" 1 "$(grep -c 'ifaces_pruned 2 ' "$HM_TMP/agent.log")"
sed "s/^/# /" "$HM_TMP/agent.log"

# ---- the ifindex bound: the IOAM maps are arrays of HM_MAX_IFINDEX (1024)
# entries; a device above it is refused, naming its ifindex and the bound.
x ip link add hi0 index 1500 type veth peer name hi0p && x ip link set hi0 up ||
	echo "# cannot create hi0 with ifindex 1500"
for cmd in "link set dev hi0 id 7" "ioam transit enable dev hi0" \
	   "ioam encap add 2001:db8:15::/64 dev hi0 ns 123 trace-type 0xf00000 size 32"; do
	OUT=$(x "$HOPMARK" $cmd 2>&1)
	RC=$?
	hm_check "cli_refuses_ifindex_beyond_bound: $cmd" "1|1" \
		"$RC|$(grep -c '^Error: hi0 has ifindex 1500: IOAM takes interfaces whose ifindex is below 1024 (its maps are arrays indexed by ifindex, Documentation/datapath.rst)' <<<"$OUT")"
done
hm_check "refused_interface_left_out_of_maps" "g1:11|2001:db8:11::/64@g1" "$(links)|$(rules)"
hm_log "g0 was ifindex $G0, g2 ifindex $G2"
hm_done
