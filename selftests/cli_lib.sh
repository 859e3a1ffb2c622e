# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# cli_lib.sh - the node and helpers of the CLI tests of one family,
# selftests/net/test_int_cli.sh (`hopmark int`) and test_pbt_cli.sh
# (`hopmark postcard`). Sourced after selftests/lib.sh, with
#   HM_CLI_OBJ	the command's object word ("int", "postcard")
#   HM_CLI_TAG	the test names' prefix ("int", "pbt")
# On sourcing: skips without root, netns, the built hopmark, tc or bpftool;
# makes lib.sh's solo node NS with veths v0 (10.99.0.1/24, peer v1 in the
# namespace $PEER, 10.99.0.2/24) and v2-v3, and a second, empty bpffs at
# $BPF2 (both removed on exit). Then:
#   x2 CMD...		CMD in NS with the second bpffs
#   show EXPR [OPTS]	python3 EXPR over `hopmark -j [OPTS] $HM_CLI_OBJ show`
#   err NAME WORD -- ARGS	hopmark ARGS is refused naming WORD, text and -j
#   tcf DEV HOOK		the BPF filters at DEV's tc HOOK
: "${HM_CLI_OBJ:?}" "${HM_CLI_TAG:?}"

hm_require_root_netns
hm_require_built "$HOPMARK"
command -v tc >/dev/null || hm_skip_all "needs tc"
command -v bpftool >/dev/null || hm_skip_all "needs bpftool"

hm_solo_node
PEER=$HM_PFX-y
BPF2=$HM_RUN_ROOT/$NS/bpf2
hm_solo_cleanup_hook()
{
	ip netns del "$PEER" 2>/dev/null
	mountpoint -q "$BPF2" 2>/dev/null && umount "$BPF2"
}
ip netns add "$PEER" || { echo "Bail out! netns $PEER"; exit 1; }
mkdir -p "$BPF2" && mount -t bpf bpf "$BPF2" || { echo "Bail out! bpffs 2"; exit 1; }
x ip link add v0 type veth peer name v1 netns "$PEER" &&
	x ip link set v0 up && x ip addr add 10.99.0.1/24 dev v0 &&
	ip -n "$PEER" link set v1 up && ip -n "$PEER" addr add 10.99.0.2/24 dev v1 &&
	x ip link add v2 type veth peer name v3 && x ip link set v2 up && x ip link set v3 up ||
	{ echo "Bail out! veth"; exit 1; }

# x2 CMD...: CMD on the same network namespace with the second, empty bpffs.
x2() { TC_BPF_MNT=$BPF2 HOPMARK_RUNDIR=$RUNDIR nsenter --net="/run/netns/$NS" "$@"; }

# show EXPR [OPTS...] - python3 EXPR over `hopmark -j [OPTS] $HM_CLI_OBJ show`
# (bound to d); "STATEMENTS; EXPR" runs the statements first.
show()
{
	local expr=$1
	shift
	x "$HOPMARK" -j "$@" "$HM_CLI_OBJ" show 2>"$HM_TMP/show.err" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
code = sys.argv[1].rsplit("; ", 1)
if len(code) == 2:
    exec(code[0])
r = eval(code[-1])
print(json.dumps(r) if isinstance(r, (list, dict)) else r)' "$expr" 2>&1 | tail -1
}

# err NAME WORD -- ARGS... - hopmark ARGS exits 2 naming WORD, and -j's
# stdout is one error object with the text's message and exit_status 2.
err()
{
	local name=$1 word=$2 rc jrc line
	shift 3
	x "$HOPMARK" "$@" >/dev/null 2>"$HM_TMP/e.err"
	rc=$?
	line=$(grep -m1 '^Error: ' "$HM_TMP/e.err")
	hm_check "${HM_CLI_TAG}_err_${name}_names_the_argument" "rc 2, Error: argument \"$word\" is wrong" \
		"rc $rc, $(grep -o "^Error: argument \"$word\" is wrong" <<<"$line" || echo "$line")"
	x "$HOPMARK" -j "$@" >"$HM_TMP/e.out" 2>/dev/null
	jrc=$?
	hm_check "${HM_CLI_TAG}_err_${name}_json" "rc 2, one error object, text message" \
		"rc $jrc, $("$PY" -c '
import json, sys
line = sys.argv[2][7:]
line = line[:-1] if line.endswith(".") else line
docs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
if len(docs) != 1 or list(docs[0]) != ["error"]:
    sys.exit(print("not one error object: %r" % docs))
e = docs[0]["error"]
print("one error object, %s" % ("text message" if e["message"] == line and
      e["exit_status"] == 2 else "message %r, text %r" % (e["message"], line)))
' "$HM_TMP/e.out" "$line" 2>&1)"
}

# tcf DEV {ingress|egress} - "NAME pref PREF handle HANDLE" of every BPF filter there.
tcf()
{
	x tc filter show dev "$1" "$2" 2>/dev/null | sed -n \
		's/.*pref \([0-9]*\) bpf .*handle \(0x[0-9a-f]*\) \([a-z_]*\).*/\3 pref \1 handle \2/p' |
		sort | tr '\n' ';'
}
