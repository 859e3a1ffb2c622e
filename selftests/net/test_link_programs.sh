#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# test_link_programs.sh - `hopmark link show` lists every BPF program on an
# interface's hooks, whoever attached it: the XDP program, and every BPF
# filter of the clsact egress and ingress hooks (a netlink filter dump).
# hopmark's programs (hm_*) are shown with how they were attached: by
# `hopmark ioam ... enable` (hopmark's handle 0x686d at its priority) or by
# stock tc (`tc filter add ... bpf da obj ... sec tc`, pref 49152); any
# other program is marked foreign. Text and -j. Then `hopmark monitor file`
# (records from a file or standard input) and the JSON summary line of
# `-j decode ... summary` and `-j monitor file ... summary`.
#
# One throwaway network namespace with two veth pairs and its own bpffs
# (TC_BPF_MNT); every command runs under `nsenter --net` (never
# `ip netns exec`, which remounts /sys).
set -u
HM_PFX=${HM_PFX:-hmt-pol$$}
. "$(dirname "$0")/../lib.sh"

OBJ=$HM_BPF_DIR

hm_require_root_netns
hm_require_built "$HOPMARK" "$OBJ/hopmark_transit.bpf.o" "$OBJ/hopmark_decap.bpf.o"
command -v tc >/dev/null || hm_skip_all "needs tc"
command -v clang >/dev/null || hm_skip_all "needs clang (for a foreign BPF program)"

hm_solo_node

x ip link add v0 type veth peer name v1
x ip link add v2 type veth peer name v3
for d in lo v0 v1 v2 v3; do x ip link set "$d" up; done

# A program that is not hopmark's, for the "foreign" mark.
cat >"$HM_TMP/foreign.c" <<'EOF'
__attribute__((section("tc"), used)) int foreign_pass(void *skb) { return -1; }
char _license[] __attribute__((section("license"), used)) = "GPL";
EOF
clang -O2 -target bpf -c "$HM_TMP/foreign.c" -o "$HM_TMP/foreign.bpf.o" ||
	{ echo "Bail out! clang -target bpf"; exit 1; }

# v0: the stock path (ip/tc), plus a foreign filter before ours.
setup_ok=1
{
	x "$HOPMARK" link set dev v0 id 10 &&
	x "$HOPMARK" link set dev v1 id 11 &&
	x "$HOPMARK" link set dev v2 id 12 &&
	x ip link set dev v0 xdp obj "$OBJ/hopmark_transit.bpf.o" sec xdp &&
	x tc qdisc add dev v0 clsact &&
	x tc filter add dev v0 egress bpf da obj "$OBJ/hopmark_transit.bpf.o" sec tc &&
	x tc filter add dev v0 egress pref 7 bpf da obj "$HM_TMP/foreign.bpf.o" sec tc &&
	x tc filter add dev v0 ingress bpf da obj "$OBJ/hopmark_decap.bpf.o" sec tc &&
	# v1: the hopmark command; XDP asked for, since on a veth the
	# ingress half goes to tc by default (test_transit_hook.sh lists it).
	x "$HOPMARK" ioam transit enable dev v1 ingress xdp &&
	x "$HOPMARK" ioam decap enable dev v1
} >"$HM_TMP/setup.log" 2>&1 || setup_ok=
if [ -z "$setup_ok" ]; then
	hm_not_ok "setup_stock_and_cli_attach"
	sed 's/^/#   /' "$HM_TMP/setup.log"
	hm_done
fi
hm_ok "setup_stock_and_cli_attach"

# progs FILE DEV - one line per program of DEV in `hopmark -j link show`:
# hook,name,role,attached_by,pref,handle,foreign
progs()
{
	"$PY" -c '
import json, sys
for l in json.load(open(sys.argv[1])):
    if l["ifname"] != sys.argv[2]:
        continue
    for p in l["programs"]:
        print(",".join(str(p.get(k)) for k in
              ("hook", "name", "role", "attached_by", "pref", "handle", "foreign")))
' "$1" "$2" | tr '\n' ';'
}

x "$HOPMARK" -j link show >"$HM_TMP/all.json" 2>"$HM_TMP/err"
hm_check "json_parses" "ok" "$("$PY" -c 'import json,sys; json.load(open(sys.argv[1])); print("ok")' \
	"$HM_TMP/all.json" 2>&1)"

hm_check "stock_attached_v0" \
"xdp,hm_transit_in,transit-in,None,None,None,False;\
tc egress,foreign_pass,None,tc,7,0x1,True;\
tc egress,hm_transit_out,transit-out,tc,49152,0x1,False;\
tc ingress,hm_decap,decap,tc,49152,0x1,False;" \
	"$(progs "$HM_TMP/all.json" v0)"
hm_check "hopmark_attached_v1" \
"xdp,hm_transit_in,transit-in,None,None,None,False;\
tc egress,hm_transit_out,transit-out,hopmark,$((0x4802)),0x686d,False;\
tc ingress,hm_decap,decap,hopmark,$((0x4803)),0x686d,False;" \
	"$(progs "$HM_TMP/all.json" v1)"
hm_check "no_clsact_v2_no_programs" "" "$(progs "$HM_TMP/all.json" v2)"
hm_check "stock_filter_tc_name" "hopmark_transit.bpf.o:[tc]" "$("$PY" -c '
import json, sys
for l in json.load(open(sys.argv[1])):
    for p in l["programs"]:
        if l["ifname"] == "v0" and p["name"] == "hm_transit_out":
            print(p["tc_name"])' "$HM_TMP/all.json")"

# The same with `dev`, and the text form.
x "$HOPMARK" -j link show dev v0 >"$HM_TMP/v0.json"
hm_check "dev_filter_json" "$(progs "$HM_TMP/all.json" v0)" "$(progs "$HM_TMP/v0.json" v0)"
x "$HOPMARK" link show dev v0 >"$HM_TMP/v0.txt" 2>&1
sed 's/^/#   /' "$HM_TMP/v0.txt"
hm_check "text_stock_egress" 1 \
	"$(grep -cE '^ +tc egress +hm_transit_out +id [0-9]+ +transit-out, tc pref 49152 handle 0x1 hopmark_transit.bpf.o:\[tc\]$' "$HM_TMP/v0.txt")"
hm_check "text_foreign_marked" 1 \
	"$(grep -cE '^ +tc egress +foreign_pass +id [0-9]+ +tc pref 7 handle 0x1 .*foreign \(not hopmark.s\)$' "$HM_TMP/v0.txt")"
hm_check "text_xdp" 1 "$(grep -cE '^ +xdp +hm_transit_in +id [0-9]+ +transit-in, mode (driver|generic)$' "$HM_TMP/v0.txt")"
hm_check "text_not_none" 0 "$(grep -cE '^ +none$' "$HM_TMP/v0.txt")"
x "$HOPMARK" link show dev v1 >"$HM_TMP/v1.txt" 2>&1
sed 's/^/#   /' "$HM_TMP/v1.txt"
hm_check "text_hopmark_handle_prio" 1 \
	"$(grep -cE '^ +tc ingress +hm_decap +id [0-9]+ +decap, hopmark handle 0x686d prio 0x4803$' "$HM_TMP/v1.txt")"

# Disabling with hopmark removes hopmark's attachments only.
x "$HOPMARK" ioam transit disable dev v1 && x "$HOPMARK" ioam decap disable dev v1
x "$HOPMARK" -j link show >"$HM_TMP/after.json"
hm_check "v1_after_disable" "" "$(progs "$HM_TMP/after.json" v1)"
x "$HOPMARK" link show dev v1 >"$HM_TMP/v1b.txt" 2>&1
hm_check "text_none_after_disable" 1 "$(grep -cE '^ +none$' "$HM_TMP/v1b.txt")"
hm_check "v0_untouched" "$(progs "$HM_TMP/all.json" v0)" "$(progs "$HM_TMP/after.json" v0)"

# monitor file and the JSON summary line: hm_encap on v2 traces pings to a
# static neighbour, captured on the peer v3; `decode` turns the capture into
# records, `monitor file` reads them back (a file, then standard input).
S=$HM_TMP/cap
{
	x ip addr add 2001:db8:77::1/64 dev v2 nodad &&
	x ip -6 neigh add 2001:db8:77::2 lladdr 02:00:00:00:77:02 dev v2 &&
	x "$HOPMARK" node set id 1 &&
	x "$HOPMARK" ioam namespace add 123 &&
	x "$HOPMARK" ioam encap add 2001:db8:77::2/128 dev v2 ns 123 \
		trace-type 0xfff000 size 240 &&
	hm_capture_start x v3 "$S.pcap"
} >"$HM_TMP/setup2.log" 2>&1 || { sed 's/^/#   /' "$HM_TMP/setup2.log"; echo "Bail out! encap"; exit 1; }
x ping -6 -c 5 -i 0.2 -W 0.2 -q 2001:db8:77::2 >/dev/null 2>&1
hm_capture_stop
x "$HOPMARK" -j decode "$S.pcap" summary >"$S.json" 2>"$S.err"
hm_check "decode_json_summary_last_line" "5 5 1 5" "$("$PY" -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
s = lines[-1]["summary"]
h = s["hops"][0]
print(len(lines) - 1, s["records"], h["node_id"], h["count"])' "$S.json" 2>&1)"
head -n -1 "$S.json" >"$S.records"
# The same summary, but for decode's own count of other IOAM options.
hm_check "monitor_file_stdin_json_summary" "$(tail -n 1 "$S.json" | "$PY" -c '
import json, sys
d = json.load(sys.stdin); del d["summary"]["other_ioam"]
print(json.dumps(d, separators=(",", ":")))')" \
	"$(x "$HOPMARK" -j monitor file - summary <"$S.records" | tail -n 1)"
hm_check "monitor_file_json_records_unchanged" "$(cat "$S.records")" \
	"$(x "$HOPMARK" -j monitor file "$S.records")"
x "$HOPMARK" monitor file "$S.records" >"$S.txt" 2>&1
hm_check "monitor_file_text_summary" "5 records|1|5" \
	"$(grep -E '^[0-9]+ records' "$S.txt")|$(awk '$1 == 1 { print $2 "|" $3 }' "$S.txt" | tail -n 1)"
hm_check "monitor_file_count" "2 records" \
	"$(x "$HOPMARK" monitor file "$S.records" count 2 | grep -E '^[0-9]+ records')"
x "$HOPMARK" monitor file "$HM_TMP/nonexistent" >/dev/null 2>&1
hm_check "monitor_file_missing_fails" 1 "$?"
hm_done
