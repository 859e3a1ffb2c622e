#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_netns_exec.sh - nodes set up with `ip netns exec`, which runs every
# command in a mount namespace of its own with /sys remounted
# (Documentation/operating.rst, "Nodes in network namespaces"):
#
#   the trap	A and R1 set up under `ip netns exec NS sh -c '...'` with
#		a bpffs mounted on /sys/fs/bpf there: their programs run,
#		but the pins went with the shell. A later `ip netns exec`
#		command must say that hopmark's programs are attached and
#		their maps not pinned (text and -j), and a configuring one
#		that mounting a bpffs on /sys/fs/bpf there is no use.
#   the recipe	each node's bpffs outside /sys (hm_topo_create's), every
#		command `ip netns exec` with TC_BPF_MNT: setting A and R1 up
#		again takes over from the stray programs (ioam encap add
#		attaches hm_encap again, transit enable replaces), IDs set
#		after the enable reach the datapath (B's records), and later
#		commands read the datapath's counters.
set -u
HM_PFX=${HM_PFX:-hmi$$n}
. "$(dirname "$0")/../lib.sh"

hm_require_root_netns
hm_require_built "$HOPMARK" "$HOPMARKD"
hm_trap_teardown
hm_tmpdir

# nx NODE cmd... - the documented recipe: ip netns exec, node's own bpffs.
nx()
{
	local node=$1; shift
	TC_BPF_MNT=$(hm_bpffs "$node") HOPMARK_RUNDIR=$(hm_rundir "$node") \
		ip netns exec "$(hm_ns "$node")" "$@"
}

# nx_sys NODE cmd... - ip netns exec with the default bpffs, /sys/fs/bpf.
nx_sys()
{
	local node=$1; shift
	env -u TC_BPF_MNT ip netns exec "$(hm_ns "$node")" "$@"
}

# hops_of FILE FROM KEY - KEY of every hop of the records after line FROM.
hops_of()
{
	tail -n +"$(( $2 + 1 ))" "$1" | "$PY" -c '
import json, sys
print([[h.get(sys.argv[1]) for h in json.loads(l)["hops"]] for l in sys.stdin])' "$3"
}

# Error line of a command's stderr, without "Error: " and the period.
err_of() { sed -n 's/^Error: \(.*\)\.$/\1/p' "$1" | head -n 1; }

hm_topo_create || { echo "Bail out! topology"; exit 1; }
{
	hm_cfg_node r3 && hm_cfg_node b &&
	hm_on r3 "$HOPMARK" ioam transit enable dev r3-r2 &&
	hm_on r3 "$HOPMARK" ioam transit enable dev r3-b &&
	hm_on b "$HOPMARK" ioam decap enable dev b-r3
} >"$HM_TMP/setup.log" 2>&1 || { sed 's/^/#   /' "$HM_TMP/setup.log"; echo "Bail out! R3, B"; exit 1; }
JS=$HM_TMP/b.json
hm_agent_start b "$JS" || { echo "Bail out! hopmarkd on B"; exit 1; }

# ------------------------------------------------------------- the trap
# Node IDs 91 and 92 here, 1 and 2 in the recipe: the records tell whose
# maps the programs use.
nx_sys a sh -c "mount -t bpf bpf /sys/fs/bpf &&
	'$HOPMARK' node set id 91 &&
	'$HOPMARK' ioam namespace add $HM_NS_ID &&
	'$HOPMARK' ioam encap add $HM_B_PREFIX dev a-r1 ns $HM_NS_ID \
		trace-type $HM_TRACE_TYPE size $HM_TRACE_SIZE" >"$HM_TMP/trap.log" 2>&1 &&
nx_sys r1 sh -c "mount -t bpf bpf /sys/fs/bpf &&
	'$HOPMARK' node set id 92 &&
	'$HOPMARK' ioam namespace add $HM_NS_ID &&
	'$HOPMARK' ioam transit enable dev r1-a &&
	'$HOPMARK' ioam transit enable dev r1-r2" >>"$HM_TMP/trap.log" 2>&1
hm_check "trap_setup_in_one_shell_succeeds" 0 "$?"
L=$(wc -l <"$JS")
hm_on a ping -6 -c 3 -i 0.1 -q $HM_B_ADDR >/dev/null
hm_wait_lines "$JS" $((L + 3))
hm_check "trap_programs_run_on_vanished_pins" "[[91, 92, 3, 4], [91, 92, 3, 4], [91, 92, 3, 4]]" \
	"$(hops_of "$JS" "$L" node_id)"

nx_sys r1 "$HOPMARK" link show >"$HM_TMP/show.out" 2>"$HM_TMP/show.err"
hm_check "trap_later_command_fails" 1 "$?"
MSG="hopmark's programs are attached on r1-a (hm_transit_out, hm_transit_tcin), r1-r2 (hm_transit_out, hm_transit_tcin) but their maps are not pinned under /sys/fs/bpf/tc/globals (no hopmark_ifcfg there): they were set up in another mount namespace (ip netns exec gives each command a private /sys, and pins made there vanish with it; this command runs under it too) or the pins were removed; see Documentation/operating.rst, \"Nodes in network namespaces\""
hm_check "trap_message_names_the_attached_programs" "$MSG" "$(err_of "$HM_TMP/show.err")"
nx_sys r1 "$HOPMARK" -j link show >"$HM_TMP/show.json" 2>/dev/null
hm_check "trap_message_json_error_object" "$MSG|2|1" "$("$PY" -c '
import json, sys
e = json.load(open(sys.argv[1]))["error"]
print("%s|%s|%s" % (e["message"], e["errno"], e["exit_status"]))' "$HM_TMP/show.json" 2>&1)"
nx_sys a "$HOPMARK" ioam encap show >/dev/null 2>"$HM_TMP/encap.err"
hm_check "trap_message_names_hm_encap" 1 \
	"$(grep -c "^Error: hopmark's programs are attached on a-r1 (hm_encap) but" "$HM_TMP/encap.err")"
nx_sys r1 "$HOPMARK" node set id 2 2>"$HM_TMP/set.err"
hm_check "trap_configuring_command_fails" 1 "$?"
hm_check "trap_configuring_command_names_ip_netns_exec" 1 \
	"$(grep -c "^Error: /sys/fs/bpf is not a bpffs: this command runs under \"ip netns exec $(hm_ns r1)\", which remounts /sys for every command" "$HM_TMP/set.err")"

# ----------------------------------------------------------- the recipe
# As documented: the node's bpffs outside /sys, TC_BPF_MNT, ip netns exec.
# Interface IDs are set after the enable: a later command, the same maps.
{
	nx a "$HOPMARK" node set id 1 wide-id "$(hm_node_id_wide a)" 2>"$HM_TMP/warn.err" &&
	nx a "$HOPMARK" ioam namespace add $HM_NS_ID data "$(hm_ns_data a)" \
		wide "$(hm_ns_data_wide a)" &&
	nx a "$HOPMARK" ioam encap add $HM_B_PREFIX dev a-r1 ns $HM_NS_ID \
		trace-type $HM_TRACE_TYPE size $HM_TRACE_SIZE &&
	nx a "$HOPMARK" link set dev a-r1 id "$(hm_if_id a-r1)" &&
	nx r1 "$HOPMARK" node set id 2 wide-id "$(hm_node_id_wide r1)" &&
	nx r1 "$HOPMARK" ioam namespace add $HM_NS_ID data "$(hm_ns_data r1)" \
		wide "$(hm_ns_data_wide r1)" &&
	nx r1 "$HOPMARK" ioam transit enable dev r1-a &&
	nx r1 "$HOPMARK" ioam transit enable dev r1-r2 &&
	nx r1 "$HOPMARK" link set dev r1-a id "$(hm_if_id r1-a)" &&
	nx r1 "$HOPMARK" link set dev r1-r2 id "$(hm_if_id r1-r2)"
} >"$HM_TMP/recipe.log" 2>&1
RC=$?
[ "$RC" -eq 0 ] || sed 's/^/#   /' "$HM_TMP/recipe.log"
hm_check "recipe_ip_netns_exec_with_tc_bpf_mnt_succeeds" 0 "$RC"
hm_check "recipe_first_command_warns_of_programs_on_other_maps" 1 \
	"$(grep -c "^Warning: the hopmark maps were created under $(hm_bpffs a)/tc/globals just now, but hopmark's programs attached on a-r1 (hm_encap) use maps not pinned there" "$HM_TMP/warn.err")"

OK0=$(nx r1 "$HOPMARK" -j -s link show dev r1-a | "$PY" -c '
import json, sys; print(json.load(sys.stdin)[0]["stats"]["transit_ok"])')
L=$(wc -l <"$JS")
hm_on a ping -6 -c 3 -i 0.1 -q $HM_B_ADDR >/dev/null
hm_wait_lines "$JS" $((L + 3))
hm_check "recipe_records_carry_the_new_node_ids" "[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]" \
	"$(hops_of "$JS" "$L" node_id)"
hm_check "recipe_ids_set_after_enable_reach_the_datapath" \
	"[[12, 22, 32, 42], [12, 22, 32, 42], [12, 22, 32, 42]]" \
	"$(hops_of "$JS" "$L" egress_if)"
hm_check "recipe_later_command_reads_the_datapath_counters" 3 \
	"$(( $(nx r1 "$HOPMARK" -j -s link show dev r1-a | "$PY" -c '
import json, sys; print(json.load(sys.stdin)[0]["stats"]["transit_ok"])') - OK0 ))"
hm_check "recipe_nsenter_sees_the_same_node" "transit" \
	"$(hm_on r1 "$HOPMARK" -j link show dev r1-a | "$PY" -c '
import json, sys; print(",".join(json.load(sys.stdin)[0]["roles"]))')"
hm_done
