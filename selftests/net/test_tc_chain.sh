#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_tc_chain.sh - hopmark's IOAM programs and PBT-M's share tc hooks on the
# 5-node line (selftests/lib.sh) and both act on the same packets:
#
#   A a-r1 egress	hm_encap (pref 0x4801), then hm_pbt_egress (0x4831,
#			roles head and egress)
#   R1 r1-r2 egress	hm_transit_out (0x4802), then hm_pbt_egress (egress)
#   B b-r3 ingress	hm_decap (0x4803), then hm_pbt_ingress (0x4830,
#			roles ingress and end)
#
# A sends N UDP packets to B. Every IOAM program passes them on with
# TC_ACT_UNSPEC, so PBT-M's filter after it still runs: the IOAM counters
# (encap_ok, transit_egress_ok, decap_ok) and the PBT-M counters (marked,
# postcard_egress, postcard_ingress, cleared) all grow by N, and what R1
# receives carries both the IOAM Hop-by-Hop header and PBT-M's Traffic Class
# bit 0x04. With TC_ACT_OK (which ends a direct-action chain) PBT-M's
# counters stay 0.
# TAP output; skip (exit 4, or 0 under prove) without root, netns or tcpdump.
set -u
HM_PFX=${HM_PFX:-hmt-tcc$$}
. "$(dirname "$0")/../lib.sh"

hm_require_root_netns
hm_require_built "$HOPMARK" "$HM_BPF_DIR/hopmark_encap.bpf.o" "$HM_BPF_DIR/hopmark_pbt.bpf.o"
command -v tcpdump >/dev/null || hm_skip_all "needs tcpdump"
PBT_PY=$HM_TOP/selftests/net/hm_pbt.py
N=40

hm_tmpdir
hm_trap_teardown
hm_topo_create || { echo "Bail out! topology"; exit 1; }
hm_setup_cli || { echo "Bail out! hopmark IOAM setup"; exit 1; }

# The test's UDP only: ND and ICMP stay unmarked.
for n in a r1 b; do
	hm_on "$n" "$HOPMARK" postcard set mark-ipv6 tc 0x04 >/dev/null &&
		hm_on "$n" "$HOPMARK" postcard watch add proto udp >/dev/null ||
		{ echo "Bail out! postcard set on $n"; exit 1; }
done
hm_on a "$HOPMARK" postcard enable dev a-r1 role head &&
	hm_on a "$HOPMARK" postcard enable dev a-r1 role egress &&
	hm_on r1 "$HOPMARK" postcard enable dev r1-r2 role egress &&
	hm_on b "$HOPMARK" postcard enable dev b-r3 role ingress &&
	hm_on b "$HOPMARK" postcard enable dev b-r3 role end ||
	{ echo "Bail out! postcard roles"; exit 1; }

# names NODE DEV DIR - the hm_ filters on DEV's DIR hook, in chain order.
names() { hm_on "$1" tc filter show dev "$2" "$3" | grep -o 'name hm_[a-z_]*' | cut -d' ' -f2 | xargs; }
hm_check "a_egress_chain" "hm_encap hm_pbt_egress" "$(names a a-r1 egress)"
hm_check "r1_egress_chain" "hm_transit_out hm_pbt_egress" "$(names r1 r1-r2 egress)"
hm_check "b_ingress_chain" "hm_decap hm_pbt_ingress" "$(names b b-r3 ingress)"

# pbt NODE DEV NAME - one PBT-M counter of DEV (hopmark -j -s postcard show).
pbt()
{
	hm_on "$1" "$HOPMARK" -j -s postcard show | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
print([i for i in d["interfaces"] if i["dev"] == sys.argv[1]][0]["counters"][sys.argv[2]])' "$2" "$3"
}
WATCHED="ioam:a:a-r1:encap_ok pbt:a:a-r1:marked pbt:a:a-r1:postcard_egress
	 ioam:r1:r1-r2:transit_egress_ok pbt:r1:r1-r2:postcard_egress
	 ioam:b:b-r3:decap_ok pbt:b:b-r3:postcard_ingress pbt:b:b-r3:cleared"
# value FAMILY:NODE:DEV:NAME
value()
{
	local f n d k
	IFS=: read -r f n d k <<<"$1"
	if [ "$f" = ioam ]; then hm_counter "$n" "$d" "$k"; else pbt "$n" "$d" "$k"; fi
}
declare -A BEFORE=()
for w in $WATCHED; do
	BEFORE[$w]=$(value "$w") || { echo "Bail out! counter $w"; exit 1; }
done

hm_capture_start r1 r1-a "$HM_TMP/r1.pcap" "udp or ip6" || { echo "Bail out! tcpdump"; exit 1; }
hm_on a "$PY" "$PBT_PY" send 6 "$HM_B_ADDR" 4000 5003 "$N" 500 >/dev/null ||
	{ echo "Bail out! send"; exit 1; }
sleep 0.3
hm_capture_stop

for w in $WATCHED; do
	hm_check "${w//:/_}_counts_every_packet" "$N" "$(( $(value "$w") - ${BEFORE[$w]} ))"
done

# What R1 receives: IPv6, Next Header 0 (IOAM's Hop-by-Hop header) and the
# Traffic Class bit 0x04 (the TC is the 4 low bits of octet 0 and the 4 high
# bits of octet 1: bit 0x04 is 0x40 of octet 1).
both=$(tcpdump -nr "$HM_TMP/r1.pcap" 'ip6 and ip6[6] = 0 and (ip6[1] & 0x40) != 0' 2>/dev/null | wc -l)
hm_check "r1_receives_ioam_and_pbt_mark_on_every_packet" "$N" "$both"

hm_done
