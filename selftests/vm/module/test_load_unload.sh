#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_load_unload.sh - hopmark.ko loads and unloads cleanly under traffic
#
# Inside the VM (selftests/vm/run.sh): a ping flows between two network
# namespaces over a veth pair the whole time while hopmark.ko is loaded and
# unloaded HM_LOAD_CYCLES times (default 50). In every cycle the family must
# be registered; in every fifth cycle the receiving namespace is configured
# (node ID, IOAM-Namespace, every receive-side feature on its interface, an
# "events" listener) so unload frees live state; in every tenth a network
# namespace is created and destroyed while the module is loaded (pernet
# init/exit). Afterwards: the module is gone, the ping lost (almost)
# nothing, and dmesg holds no WARN, BUG, oops, lockdep report or leak.
# Exit 0 passed, 1 failed, 4 skip (not in a VM with the module).

. "$(dirname "$0")/lib.sh"
hm_require_module

cycles=${HM_LOAD_CYCLES:-50}
a=hm-core-la-$$
b=hm-core-lb-$$
tmp=$(mktemp -d)
cleanup()
{
	[ -n "${ping_pid:-}" ] && kill "$ping_pid" 2>/dev/null
	[ -n "${mon_pid:-}" ] && kill "$mon_pid" 2>/dev/null
	ip netns del "$a" 2>/dev/null
	ip netns del "$b" 2>/dev/null
	ip netns del "$b-x" 2>/dev/null
	rm -rf "$tmp"
	hm_unload 2>/dev/null
}
trap cleanup EXIT

hm_plan 7
hm_unload 2>/dev/null
hm_dmesg_mark load

ip netns add "$a" && ip netns add "$b" &&
ip link add hmc-la type veth peer name hmc-lb &&
ip link set hmc-la netns "$a" && ip link set hmc-lb netns "$b" &&
ip -n "$a" link set lo up && ip -n "$b" link set lo up &&
ip -n "$a" addr add 2001:db8:c0::1/64 dev hmc-la nodad &&
ip -n "$b" addr add 2001:db8:c0::2/64 dev hmc-lb nodad &&
ip -n "$a" link set hmc-la up && ip -n "$b" link set hmc-lb up ||
	hm_skip_all "cannot build the two-namespace topology"
nsenter --net=/run/netns/"$a" ping -6 -n -q -i 0.05 -W 1 2001:db8:c0::2 \
	>"$tmp/ping" 2>&1 &
ping_pid=$!
sleep 1

fails=
t0=$(date +%s.%N)
for i in $(seq 1 "$cycles"); do
	if ! $HM_INSMOD "$HM_KO" 2>"$tmp/err"; then
		fails="$fails insmod#$i($(cat "$tmp/err"))"
		continue
	fi
	hm_gc family >/dev/null || fails="$fails family#$i"
	if [ $((i % 5)) = 0 ]; then
		ifx=$(ip -n "$b" -o link show hmc-lb | cut -d: -f1)
		nsenter --net=/run/netns/"$b" sh -c "
			'$HM_CLIENT' node_set node_id=$i node_id_wide=$i &&
			'$HM_CLIENT' ns_add ns_id=123 ns_data=$i &&
			'$HM_CLIENT' if_set ifindex=$ifx if_id=$i features=0x51/0x7f &&
			'$HM_CLIENT' export_set batch_size=4 flush_ms=5" >/dev/null ||
			fails="$fails config#$i"
		nsenter --net=/run/netns/"$b" "$HM_CLIENT" monitor events 0 60000 \
			>/dev/null 2>&1 &
		mon_pid=$!
		sleep 0.3
	fi
	if [ $((i % 10)) = 0 ]; then
		ip netns add "$b-x" &&
		nsenter --net=/run/netns/"$b-x" "$HM_CLIENT" ns_add ns_id=1 >/dev/null &&
		ip netns del "$b-x" || fails="$fails netns#$i"
	fi
	# A listener keeps no reference on the module: it must go anyway.
	if ! $HM_RMMOD hopmark 2>"$tmp/err"; then
		fails="$fails rmmod#$i($(cat "$tmp/err"))"
	fi
	if [ -n "${mon_pid:-}" ]; then
		kill "$mon_pid" 2>/dev/null
		wait "$mon_pid" 2>/dev/null
		mon_pid=
	fi
done
t1=$(date +%s.%N)
echo "# $cycles load/unload cycles in $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"

hm_check "load_unload_${cycles}_cycles_without_failure" "" "$fails"
hm_check "module_gone_after_last_unload" "" "$(grep '^hopmark ' /proc/modules)"
hm_check "family_gone_after_last_unload" 1 "$(hm_gc family >/dev/null 2>&1; echo $?)"

sleep 1
kill -INT "$ping_pid"
wait "$ping_pid"
ping_pid=
stats=$(grep 'packets transmitted' "$tmp/ping")
sent=$(echo "$stats" | awk '{ print $1 }')
recv=$(echo "$stats" | awk '{ print $4 }')
echo "# ping: $stats"
hm_check_match "ping_flowed_during_the_cycles" '^[1-9][0-9]+$' "${recv:-}"
if [ -n "$sent" ] && [ -n "$recv" ] && [ $((recv * 100)) -ge $((sent * 95)) ]; then
	hm_ok "ping_lost_under_5_percent"
else
	hm_not_ok "ping_lost_under_5_percent" "expected: >= 95% of $sent received" "observed: $recv"
fi
hm_check "dmesg_free_of_warn_bug_oops_leak" "" "$(hm_dmesg_bad load)"
loaded=$(dmesg | sed -n '/hopmark-test-mark-load/,$p' | grep -c 'hopmark: loaded')
hm_check "dmesg_shows_every_load" "$cycles" "$loaded"
hm_done
