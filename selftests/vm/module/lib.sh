# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib.sh - helpers of the kernel module tests (sourced by bash scripts in
# selftests/vm/module/, run inside the VM by selftests/vm/run.sh)
#
# TAP: hm_plan N, then one hm_ok/hm_not_ok/hm_check per test point, named
# after the behaviour; failures print what was expected and what was seen.
# The module is loaded by path (build/kernel/hopmark.ko) with busybox
# insmod/rmmod when kmod is not installed.

HM_REPO=${HM_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
HM_KO=${HM_KO:-$HM_REPO/build/kernel/hopmark.ko}
HM_CLIENT=${HM_CLIENT:-$HM_REPO/build/tests/hm_genl_client}
HM_N=0
HM_FAILED=0

hm_plan() { echo "1..$1"; }

# hm_ok NAME / hm_not_ok NAME [DIAG...]
hm_ok() { HM_N=$((HM_N + 1)); echo "ok $HM_N - $1"; }
hm_not_ok()
{
	local name=$1
	shift
	HM_N=$((HM_N + 1))
	HM_FAILED=$((HM_FAILED + 1))
	echo "not ok $HM_N - $name"
	for d in "$@"; do echo "#   $d"; done
}

# hm_check NAME EXPECTED OBSERVED: equal strings.
hm_check()
{
	if [ "$2" = "$3" ]; then
		hm_ok "$1"
	else
		hm_not_ok "$1" "expected: $2" "observed: $3"
	fi
}

# hm_check_match NAME REGEX OBSERVED: OBSERVED matches the extended REGEX.
hm_check_match()
{
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		hm_ok "$1"
	else
		hm_not_ok "$1" "expected to match: $2" "observed: $3"
	fi
}

hm_done() { [ "$HM_FAILED" = 0 ] && exit 0; exit 1; }

hm_skip_all() { echo "1..0 # SKIP $*"; exit 4; }

hm_cmd() { command -v "$1" >/dev/null 2>&1 && echo "$1" || echo "busybox $1"; }
HM_INSMOD=$(hm_cmd insmod)
HM_RMMOD=$(hm_cmd rmmod)

# hm_require_module: skip unless root, the module and client are built, and
# the module was built for the running kernel.
hm_require_module()
{
	[ "$(id -u)" = 0 ] || hm_skip_all "needs root"
	[ -f "$HM_KO" ] || hm_skip_all "$HM_KO not built (make module)"
	[ -x "$HM_CLIENT" ] || hm_skip_all "$HM_CLIENT not built"
	local vm
	vm=$(busybox modinfo -F vermagic "$HM_KO" 2>/dev/null | cut -d ' ' -f 1)
	[ -z "$vm" ] || [ "$vm" = "$(uname -r)" ] ||
		hm_skip_all "hopmark.ko is for $vm, running $(uname -r) (run in the VM: selftests/vm/run.sh)"
}

hm_loaded() { grep -q '^hopmark ' /proc/modules; }
hm_load() { hm_loaded || $HM_INSMOD "$HM_KO"; }
hm_unload() { ! hm_loaded || $HM_RMMOD hopmark; }

# hm_gc [ARGS...]: the test client; output on stdout, exit code kept.
hm_gc() { "$HM_CLIENT" "$@"; }

# hm_dmesg_bad: kernel messages that mean a bug (WARN, BUG, oops, leaks,
# lockdep, refcount, stuck netdev), since the mark written by hm_dmesg_mark.
hm_dmesg_mark() { echo "hopmark-test-mark-$1" >/dev/kmsg; }
hm_dmesg_bad()
{
	dmesg | sed -n "/hopmark-test-mark-$1/,\$p" |
		grep -E 'WARNING:|BUG:|BUG |Oops|general protection|kernel NULL pointer|refcount_t|unreferenced object|memory leak|possible circular locking|inconsistent lock|sleeping function called|unregister_netdevice: waiting|Call Trace' || true
}
