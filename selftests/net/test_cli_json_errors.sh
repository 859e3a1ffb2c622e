#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_cli_json_errors.sh - with -j, a failing hopmark command prints JSON
# on stdout: one error object {"error":{"message","errno","exit_status"}}
# (Documentation/cli.rst, "Errors with -j"), whatever failed. For a sample
# of failure paths (usage errors, missing maps, a bpffs that is none, bad
# devices, a failed netlink request, files that cannot be read), the same
# command is run without and with -j: the exit status is the same, -j's
# stdout is exactly one JSON object, its message is the text form's error
# line and its errno the system error expected. Next to a refused path
# scheme parameter, two successes: `pint query add ... scheme multilayer`
# and `scheme hybrid:tau=0.5,p=0.2` are stored and shown as given.
#
# One throwaway network namespace with a veth pair and an empty bpffs of
# its own (TC_BPF_MNT); commands run under `nsenter --net`.
set -u
HM_PFX=${HM_PFX:-hmt-jerr$$}
. "$(dirname "$0")/../lib.sh"

hm_require_root_netns
hm_require_built "$HOPMARK"

hm_solo_node

x ip link add v0 type veth peer name v1 && x ip link set v0 up ||
	{ echo "Bail out! veth"; exit 1; }
printf 'garbage\n{}\nnull\n' >"$HM_TMP/garbage.json"

# jcheck NAME RC ERRNO [ENV=VAL] -- ARGS... - hopmark ARGS, then hopmark -j
# ARGS: both exit RC; -j's stdout is one JSON error object whose message is
# the text form's first "Error: " line (else its first line) and whose
# errno is ERRNO (null: no system error).
jcheck()
{
	local name=$1 rc=$2 errno=$3 trc jrc envs=()
	shift 3
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	x env "${envs[@]}" "$HOPMARK" "$@" >/dev/null 2>"$HM_TMP/t.err"
	trc=$?
	x env "${envs[@]}" "$HOPMARK" -j "$@" >"$HM_TMP/j.out" 2>"$HM_TMP/j.err"
	jrc=$?
	hm_check "$name" "rc $rc/$rc, one error object, text message, errno $errno, exit_status $rc" \
		"rc $trc/$jrc, $("$PY" -c '
import json, sys
text = open(sys.argv[2]).read().splitlines()
errs = [l[7:] for l in text if l.startswith("Error: ")]
want = (errs[0][:-1] if errs[0].endswith(".") else errs[0]) if errs else (text or [""])[0]
out = open(sys.argv[1]).read()
try:
    docs = [json.loads(l) for l in out.splitlines()]
except ValueError as e:
    sys.exit(print("stdout not JSON lines: %r" % out[:200]))
if len(docs) != 1 or list(docs[0]) != ["error"]:
    sys.exit(print("not one error object: %r" % out[:200]))
e = docs[0]["error"]
print("one error object, %s, errno %s, exit_status %s" % (
    "text message" if e["message"] == want else
    "message %r, text %r" % (e["message"], want),
    "null" if e["errno"] is None else e["errno"], e["exit_status"]))
' "$HM_TMP/j.out" "$HM_TMP/t.err" 2>&1)"
}

# Usage errors (exit status 2).
jcheck "usage_no_object" 2 null -- 
jcheck "usage_unknown_object" 2 null -- bogus
jcheck "usage_unknown_option" 2 null -- -x
jcheck "usage_missing_dev" 2 null -- link set
jcheck "usage_node_id_out_of_range" 2 null -- node set id 0xffffff
jcheck "usage_trace_type_undefined_bits" 2 null -- ioam encap add 2001:db8::/64 dev v0 ns 1 \
	trace-type 0x800800 size 12
jcheck "usage_unknown_word" 2 null -- monitor bogus
# hopmark int refuses before it touches a map (the checks below need none).
jcheck "usage_int_dscp_0_0" 2 null -- int set signal dscp 0/0
jcheck "usage_int_reserved_instruction_bits" 2 null -- int set instructions 0x8040
jcheck "usage_int_watch_ports_without_proto" 2 null -- int watch add dport 80
# A scheme parameter pint_path_scheme() refuses (tau above 1) is refused,
# the error naming the argument (Documentation/pint.rst, "Path tracing").
jcheck "usage_pint_scheme_bad_parameter" 2 null -- pint query add path bits 8 \
	scheme hybrid:tau=2,p=0.2
x "$HOPMARK" pint query add path bits 8 scheme hybrid:tau=2,p=0.2 >/dev/null 2>"$HM_TMP/s.err"
hm_check "usage_pint_scheme_error_names_the_argument" 1 \
	"$(grep -c '^Error: argument "hybrid:tau=2,p=0.2" is wrong' "$HM_TMP/s.err")"

# Nothing set up yet: missing pins (ENOENT).
jcheck "missing_maps_link_show" 1 2 -- link show
jcheck "missing_maps_link_show_stats" 1 2 -- -s link show
jcheck "missing_maps_node_show" 1 2 -- node show
jcheck "missing_maps_encap_show" 1 2 -- ioam encap show
jcheck "missing_maps_encap_del" 1 2 -- ioam encap del 2001:db8::/64
jcheck "missing_maps_monitor_ring" 1 2 -- monitor count 1
jcheck "missing_maps_int_show" 1 2 -- int show
# A bpffs that is none (ENODEV).
jcheck "not_a_bpffs_node_set" 1 19 "TC_BPF_MNT=$HM_TMP" -- node set id 1

# Bad devices (ENODEV).
jcheck "bad_device_link_set" 1 19 -- link set dev nosuchdev id 3
jcheck "bad_device_transit_enable" 1 19 -- ioam transit enable dev nosuchdev
jcheck "bad_device_link_show" 1 19 -- link show dev nosuchdev
jcheck "bad_device_int_enable" 1 19 -- int enable dev nosuchdev role source

# A failed netlink request: the kernel module's family is unknown here.
if x "$HOPMARK" module show >/dev/null 2>&1; then
	hm_skip "failed_netlink_module_show" "the hopmark kernel module is loaded"
else
	jcheck "failed_netlink_module_show" 1 null -- module show
	jcheck "failed_netlink_module_counters" 1 null -- module counters
fi

# Files that cannot be read, or hold no record.
jcheck "missing_file_monitor" 1 2 -- monitor file "$HM_TMP/nonexistent"
jcheck "missing_file_decode" 1 null -- decode "$HM_TMP/nonexistent.pcap"
jcheck "no_record_in_file_monitor" 1 null -- monitor file "$HM_TMP/garbage.json"

# Every scheme name is stored and shown (here after the map checks above,
# which need the maps absent).
x "$HOPMARK" pint query add path bits 8 scheme multilayer max-hops 25 >/dev/null 2>"$HM_TMP/s.err"
hm_check "pint_scheme_multilayer_stored" "multilayer 25" "$(x "$HOPMARK" -j pint show 2>&1 |
	"$PY" -c '
import json, sys
d = json.load(sys.stdin)
q = [q for q in d["config"]["queries"] if q["query"] == "path"][0]
print(q["scheme"], q["max_hops"])' 2>&1 | tail -1)"
x "$HOPMARK" pint query add path bits 8 scheme hybrid:tau=0.5,p=0.2 >/dev/null 2>"$HM_TMP/s.err"
hm_check "pint_scheme_parameters_stored" "hybrid:tau=0.5,p=0.2 25" "$(x "$HOPMARK" -j pint show 2>&1 |
	"$PY" -c '
import json, sys
d = json.load(sys.stdin)
q = [q for q in d["config"]["queries"] if q["query"] == "path"][0]
print(q["scheme"], q["max_hops"])' 2>&1 | tail -1)"

# Success prints no error object: the document alone.
x "$HOPMARK" node set id 7 >/dev/null 2>&1
hm_check "success_prints_the_document_only" "0 [7]" "$(x "$HOPMARK" -j node show | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
print(0 if isinstance(d, list) else "not an array", [o.get("id") for o in d])' 2>&1)"
hm_done
