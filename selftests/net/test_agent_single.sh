#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_agent_single.sh - one hopmarkd per node: ring buffers hand each
# record to one consumer, so a second hopmarkd on the same pinned maps
# (same bpffs, another HOPMARK_RUNDIR) would silently split the records of
# the first. The second exits 1 naming the lock the first holds on the
# pin directory, the first keeps running; once the first is stopped, a
# new one starts (the lock went with it). Both stopped by PID.
set -u
HM_PFX=${HM_PFX:-hmt-asgl$$}
. "$(dirname "$0")/../lib.sh"

hm_require_root_netns
hm_require_built "$HOPMARKD"
hm_solo_node
hm_solo_cleanup_hook()
{
	local p
	for p in ${A1:-} ${A3:-}; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
}
RUN2=$HM_RUN_ROOT/$NS/run2
mkdir -p "$RUN2"

# start RUNDIR OUT - hopmarkd in the node with that run directory; its
# pid in AG (exec: nsenter execs it); waits for its monitor socket
start()
{
	local i
	(exec env TC_BPF_MNT="$BPFFS" HOPMARK_RUNDIR="$1" \
		nsenter --net="/run/netns/$NS" "$HOPMARKD" -i 0 -o "$2" >"$2.log" 2>&1) &
	AG=$!
	for i in $(seq 50); do
		[ -S "$1/hopmarkd.sock" ] && return 0
		kill -0 "$AG" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

start "$RUNDIR" "$HM_TMP/a1.json"
A1=$AG
hm_check first_hopmarkd_starts 0 "$?"

# the second: same bpffs, its own run directory
(exec env TC_BPF_MNT="$BPFFS" HOPMARK_RUNDIR="$RUN2" \
	nsenter --net="/run/netns/$NS" timeout 10 "$HOPMARKD" -i 0 -o "$HM_TMP/a2.json") \
	>"$HM_TMP/a2.log" 2>&1
hm_check second_hopmarkd_exits_1 1 "$?"
hm_check second_hopmarkd_says_why yes "$(grep -q 'another hopmarkd is already consuming this node.s pinned maps' \
	"$HM_TMP/a2.log" && echo yes || echo "no: $(cat "$HM_TMP/a2.log")")"
hm_check second_hopmarkd_made_no_socket no "$([ -S "$RUN2/hopmarkd.sock" ] && echo yes || echo no)"
sleep 0.3
hm_check first_hopmarkd_keeps_running yes "$(kill -0 "$A1" 2>/dev/null && echo yes || echo no)"

kill -TERM "$A1"
wait "$A1"
hm_check first_hopmarkd_exits_0_on_sigterm 0 "$?"
A1=
start "$RUN2" "$HM_TMP/a3.json"
rc=$?
A3=$AG
hm_check a_new_hopmarkd_starts_once_the_first_is_gone 0 "$rc"
kill -TERM "$A3"
wait "$A3"
A3=
hm_done
