#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_budget_warn.sh - "Any configured INT or IOAM trace that cannot fit the
# path's MTU gets a warning from the configuring command" (issue 8), for the
# IOAM Pre-allocated Trace of `hopmark ioam encap add`: the trace's whole
# Hop-by-Hop header (2 + 2 PadN + 4 option + 8 trace header + data area,
# padded to 8) after the 40-byte IPv6 header must fit the MTU of the
# encapsulating device. Checked at the boundary (MTU = 40 + header: no
# warning; one byte less: the warning), for a small device MTU and for
# 1500. The warning names the trace's bytes, the device and its MTU, and the
# hop count a trace of that Trace-Type fits there, each computed here; the
# rule is configured all the same (exit 0, shown by `ioam encap show`), and
# stdout stays clean (-j's document is not broken by it). `hopmark budget
# node` then lists the same rules with the same fit (no INT maps here: its
# "int" list is empty) and warns for the same two.
#
# One throwaway network namespace with veth pairs and an empty bpffs of its
# own (TC_BPF_MNT); commands run under `nsenter --net`.
set -u
HM_PFX=${HM_PFX:-hmt-bwarn$$}
. "$(dirname "$0")/../lib.sh"

hm_require_root_netns
hm_require_built "$HOPMARK"

hm_solo_node

for p in 0 2 4 6; do
	x ip link add "v$p" type veth peer name "v$((p + 1))" && x ip link set "v$p" up ||
		{ echo "Bail out! veth"; exit 1; }
done

# hbh DATA - bytes of a pre-allocated trace's Hop-by-Hop header
hbh() { echo $(( (2 + 2 + 4 + 8 + $1 + 7) / 8 * 8 )); }
# fit_hops NODE_BYTES MTU - most nodes whose trace fits MTU after IPv6's 40
fit_hops()
{
	local n=$(( 244 / $1 ))
	while [ "$n" -gt 0 ] && [ $(( 40 + $(hbh $(( n * $1 ))) )) -gt "$2" ]; do
		n=$((n - 1))
	done
	echo "$n"
}

# fit_area MTU - the largest data area (4n, at most 244) that fits MTU
fit_area()
{
	local a=244
	while [ "$a" -ge 4 ] && [ $(( 40 + $(hbh "$a") )) -gt "$1" ]; do
		a=$((a - 4))
	done
	[ "$a" -ge 4 ] && echo "$a" || echo 0
}

# encap NAME DEV MTU PREFIX TT NODE_BYTES SIZE - set DEV's MTU, add the rule,
# expect the warning exactly when 40 + hbh(SIZE) > MTU
encap()
{
	local name=$1 dev=$2 mtu=$3 pfx=$4 tt=$5 node=$6 size=$7 rc bytes want obs
	x ip link set "$dev" mtu "$mtu" || { hm_not_ok "${name}_mtu_set"; return; }
	x "$HOPMARK" ioam encap add "$pfx" dev "$dev" ns 7 trace-type "$tt" size "$size" \
		>"$HM_TMP/out" 2>"$HM_TMP/err"
	rc=$?
	bytes=$(hbh "$size")
	if [ $((40 + bytes)) -gt "$mtu" ]; then
		want="Warning: the pre-allocated trace takes $bytes bytes (Hop-by-Hop header, $size-byte data area for $((size / node)) hops) and with the 40-byte IPv6 header cannot fit the MTU $mtu of $dev; at that MTU a data area of $(fit_area "$mtu") bytes fits, $(fit_hops "$node" "$mtu") hops of trace-type $tt."
	else
		want="no warning"
	fi
	obs=$(grep '^Warning' "$HM_TMP/err")
	hm_check "${name}_exit_0" 0 "$rc"
	hm_check "${name}_warning" "$want" "${obs:-no warning}"
	hm_check "${name}_stdout_empty" "" "$(cat "$HM_TMP/out")"
	hm_check "${name}_rule_configured" 1 \
		"$(x "$HOPMARK" ioam encap show | grep -c "^$pfx dev $dev .*size $size ")"
}

# 244-byte area, trace-type 0xf00000 (4 fields, 16 bytes a node): 264 bytes.
encap at_1500 v0 1500 2001:db8:1::/64 0xf00000 16 244
encap boundary_fits v2 304 2001:db8:2::/64 0xf00000 16 244
encap boundary_one_byte_short v4 303 2001:db8:3::/64 0xf00000 16 244
# A device far below IPv6's 1280 and a 2-field trace (8 bytes a node).
encap small_mtu v6 120 2001:db8:4::/64 0xc00000 8 96

# `hopmark budget node` sets the same rules against the same MTUs.
hm_check "budget_node_lists_every_rule_with_its_fit" \
	"2001:db8:1::/64 v0 264 1500 True 15|2001:db8:2::/64 v2 264 304 True 15|2001:db8:3::/64 v4 264 303 False 15|2001:db8:4::/64 v6 112 120 False 8|int []" \
	"$(x "$HOPMARK" -j budget node 2>"$HM_TMP/node.err" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
rows = sorted(d["ioam_encap"], key=lambda r: r["prefix"])
print("|".join("%s %s %d %d %s %d" % (r["prefix"], r["dev"], r["bytes"], r["mtu"], r["fits"],
                                      r["fit_hops"]) for r in rows) + "|int %s" % d["int"])' 2>&1)"

hm_check "budget_node_warns_for_the_rules_that_do_not_fit" "v4 v6" \
	"$(sed -n 's/^Warning: the pre-allocated trace .* of \(v[0-9]\); at that MTU .*/\1/p' \
		"$HM_TMP/node.err" | sort | tr '\n' ' ' | sed 's/ $//')"

# The warning counts the whole header: a 4-byte area takes 24 bytes (PadN to 8).
hm_check "hbh_of_4_byte_area_is_24" 24 "$(hbh 4)"
hm_done
