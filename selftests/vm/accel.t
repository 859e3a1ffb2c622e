#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# accel.t - selftests/vm/run.sh chooses an accelerator that runs a guest,
# stops a guest that does not boot early, and skips a tier this host cannot run
#
# Runs on the host, on any machine (with or without a usable KVM): the KVM
# checks are made to fail on purpose with run.sh's test knobs
# (HM_VM_CPUINFO: a stand-in for /proc/cpuinfo; HM_VM_PROBE_QEMU_ARGS=-S and
# HM_VM_QEMU_ARGS=-S: the probe guest's or the test VM's CPU never runs).
# Checks, one TAP point each:
#  - auto refuses KVM when the CPU flags show neither vmx nor svm, says so,
#    and a real VM job then passes under TCG;
#  - auto refuses KVM when the probe guest does not reach init, names the
#    probe, within the probe's deadline, and leaves the probe cache alone;
#  - a test VM that makes no console progress is stopped after
#    HM_VM_BOOT_TIMEOUT with the cause in a "not ok" point, not after
#    HM_VM_TIMEOUT, under TCG and under a forced KVM;
#  - the probe guest itself (run under TCG): it reaches init, and a frozen
#    one fails within its deadline;
#  - without qemu, or not as root, run.sh --tap and every VM tier wrapper
#    print "1..0 # SKIP why" and exit 4 (0 under prove).
# About 5 boots under TCG: 40-90 s on a 2-core machine.
#
# Needs root, qemu-system-x86_64 and busybox (else skips), and the kernel
# package cached by run.sh --prepare (fetched when missing).

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
runsh=$here/run.sh

skip_all() {
	echo "1..0 # SKIP $*"
	[ -n "${HARNESS_ACTIVE:-}" ] && exit 0
	exit 4
}

[ "$(id -u)" = 0 ] || skip_all "needs root (run.sh boots qemu with the host's /)"
command -v qemu-system-x86_64 >/dev/null 2>&1 ||
	skip_all "needs qemu-system-x86_64 (Debian package qemu-system-x86)"
command -v busybox >/dev/null 2>&1 ||
	skip_all "needs busybox (Debian package busybox-static)"

# The knobs under test come from this file only.
unset HM_VM_ACCEL HM_VM_CPUINFO HM_VM_PROBE_QEMU_ARGS HM_VM_QEMU_ARGS \
	HM_VM_BOOT_TIMEOUT HM_VM_PROBE_TIMEOUT HM_VM_QEMU HM_VM_TIMEOUT \
	HM_VM_VERBOSE HM_VM_ENV
# Points 8 and 9 set it themselves, to see both exit codes.
unset HARNESS_ACTIVE
vm_dir=${HM_VM_DIR:-$repo/build/vm}

# The guest sees the host's /tmp through its overlay; /run it would not.
tmp=$(mktemp -d /tmp/hm-accel.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf 'processor\t: 0\nflags\t\t: fpu tsc sse2 lm\n' >"$tmp/cpuinfo-no-vt"
printf 'processor\t: 0\nflags\t\t: fpu tsc sse2 vmx lm\n' >"$tmp/cpuinfo-vmx"
cat >"$tmp/one.t" <<'EOF'
#!/bin/sh
echo "1..1"
echo "ok 1 - runs in the VM on $(uname -r)"
EOF
chmod 755 "$tmp/one.t"

n=0
fail=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
flunk() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }

# go CMD... - run CMD; rc, secs (wall time, 0.1 s), $tmp/out, $tmp/err.
go() {
	t0=$(date +%s.%N)
	rc=0
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	secs=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
}

# show - run.sh's messages as diagnostics.
show() { sed 's/^/#   /' "$tmp/err" "$tmp/out"; }

# has FILE TEXT - FILE holds TEXT (fixed string).
has() { grep -qF -- "$2" "$tmp/$1"; }

# within LIMIT - the last go took less than LIMIT seconds.
within() { awk -v s="$secs" -v l="$1" 'BEGIN { exit !(s < l) }'; }

echo "1..10"

go "$runsh" --prepare
if [ "$rc" != 0 ]; then
	show
	echo "Bail out! run.sh --prepare exited $rc (kernel package or initramfs)"
	exit 1
fi

# 1. The flags check refuses KVM; the reason names the check.
go env HM_VM_CPUINFO="$tmp/cpuinfo-no-vt" "$runsh" --accel
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = tcg ] &&
   has err "accel tcg (HM_VM_ACCEL=auto; KVM refused:" &&
   { has err "show neither vmx nor svm" || has err "/dev/kvm does not open"; }; then
	pass "auto_refuses_kvm_without_vmx_or_svm: tcg, reason given"
else
	flunk "auto_refuses_kvm_without_vmx_or_svm: expected exit 0, \"tcg\", a reason naming the flags; got exit $rc, \"$(cat "$tmp/out")\""
fi
show

# 2. A real job after that refusal runs under TCG and passes.
go env HM_VM_CPUINFO="$tmp/cpuinfo-no-vt" "$runsh" --tap "$tmp/one.t"
if [ "$rc" = 0 ] && has err "accel tcg (HM_VM_ACCEL=auto; KVM refused:" &&
   has out "ok 1 - $tmp/one.t: runs in the VM on " &&
   has out "ok 2 - $tmp/one.t: exit 0 on " && ! has out "not ok" &&
   has out "1..2"; then
	pass "auto_fallback_to_tcg_runs_the_job: passed in ${secs}s"
else
	flunk "auto_fallback_to_tcg_runs_the_job: expected exit 0 and ok 1..2 under tcg; got exit $rc in ${secs}s"
fi
show

# 3. Flags pass but the probe guest never runs: refused within the probe's
#    deadline, the reason names the probe; its verdict is not cached.
cache_before=$(cat "$vm_dir/kvm-probe" 2>/dev/null || echo none)
go env HM_VM_CPUINFO="$tmp/cpuinfo-vmx" HM_VM_PROBE_QEMU_ARGS=-S \
	HM_VM_PROBE_TIMEOUT=5 "$runsh" --accel
cache_after=$(cat "$vm_dir/kvm-probe" 2>/dev/null || echo none)
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = tcg ] &&
   { has err "KVM refused: probe guest (accel kvm):" ||
     has err "KVM refused: /dev/kvm does not open"; } &&
   [ "$cache_before" = "$cache_after" ] && within 30; then
	pass "auto_refuses_kvm_when_probe_guest_does_not_boot: tcg in ${secs}s, cache untouched"
else
	flunk "auto_refuses_kvm_when_probe_guest_does_not_boot: expected exit 0, \"tcg\", a reason naming the probe guest (or /dev/kvm), < 30 s, $vm_dir/kvm-probe unchanged; got exit $rc, \"$(cat "$tmp/out")\" in ${secs}s, cache $( [ "$cache_before" = "$cache_after" ] && echo unchanged || echo changed)"
fi
show

# 4. A test VM that makes no console progress (CPU frozen by -S) is stopped
#    after HM_VM_BOOT_TIMEOUT with the cause, far before HM_VM_TIMEOUT.
go env HM_VM_ACCEL=tcg HM_VM_QEMU_ARGS=-S HM_VM_BOOT_TIMEOUT=5 \
	HM_VM_TIMEOUT=600 "$runsh" --tap "$tmp/one.t"
cause="guest made no console progress in 5s (HM_VM_BOOT_TIMEOUT, accel tcg): the guest kernel did not reach init"
if [ "$rc" = 1 ] && has out "not ok 1 - $tmp/one.t: did not finish: $cause" &&
   has out "1..1" && within 40; then
	pass "frozen_guest_stopped_at_boot_deadline: not ok with the cause after ${secs}s (HM_VM_TIMEOUT 600)"
else
	flunk "frozen_guest_stopped_at_boot_deadline: expected exit 1, \"not ok 1 - ...: did not finish: $cause\", < 40 s; got exit $rc in ${secs}s"
fi
show

# 5. The same with KVM forced: whatever this host's KVM does (no /dev/kvm:
#    qemu fails; KVM that runs no guest: frozen), the run ends early with a
#    "not ok" point naming the cause.
go env HM_VM_ACCEL=kvm HM_VM_QEMU_ARGS=-S HM_VM_BOOT_TIMEOUT=5 \
	HM_VM_TIMEOUT=600 "$runsh" --tap "$tmp/one.t"
if [ "$rc" = 1 ] && within 40 &&
   { has out "did not finish: guest made no console progress in 5s (HM_VM_BOOT_TIMEOUT, accel kvm): KVM opened but ran no guest; use HM_VM_ACCEL=tcg" ||
     has out "did not finish: VM stopped (qemu exit"; }; then
	pass "forced_kvm_never_waits_for_the_overall_timeout: not ok with the cause after ${secs}s"
else
	flunk "forced_kvm_never_waits_for_the_overall_timeout: expected exit 1, a \"did not finish\" point naming the cause, < 40 s; got exit $rc in ${secs}s"
fi
show

# 6. The probe guest boots to init (under TCG, so on any machine).
go env HM_VM_PROBE_TIMEOUT=120 "$runsh" --probe tcg
if [ "$rc" = 0 ] && has err "probe guest (accel tcg): reached init in "; then
	pass "probe_guest_reaches_init: $(sed -n 's/.*reached init in //p' "$tmp/err")"
else
	flunk "probe_guest_reaches_init: expected exit 0, \"reached init\"; got exit $rc in ${secs}s"
fi
show

# 7. A frozen probe guest fails within its deadline, saying so.
go env HM_VM_PROBE_TIMEOUT=5 HM_VM_PROBE_QEMU_ARGS=-S "$runsh" --probe tcg
if [ "$rc" = 1 ] && within 30 &&
   has err "probe guest (accel tcg): init did not print \"hm-vm init: started\" in 5s"; then
	pass "frozen_probe_guest_fails_in_its_deadline: after ${secs}s"
else
	flunk "frozen_probe_guest_fails_in_its_deadline: expected exit 1, \"init did not print ... in 5s\", < 30 s; got exit $rc in ${secs}s"
fi
show

# 8. No qemu: a TAP skip with the reason, exit 4; exit 0 under prove.
go env HM_VM_QEMU=/nonexistent/qemu-system-x86_64 "$runsh" --tap "$tmp/one.t"
rc_alone=$rc
skip_alone=$(cat "$tmp/out")
go env HARNESS_ACTIVE=1 HM_VM_QEMU=/nonexistent/qemu-system-x86_64 \
	"$runsh" --tap "$tmp/one.t"
want="1..0 # SKIP /nonexistent/qemu-system-x86_64 not found; install Debian package qemu-system-x86 (make deps)"
if [ "$rc_alone" = 4 ] && [ "$skip_alone" = "$want" ] && [ "$rc" = 0 ] &&
   [ "$(cat "$tmp/out")" = "$want" ]; then
	pass "no_qemu_is_a_skip: exit 4 alone, 0 under prove"
else
	flunk "no_qemu_is_a_skip: expected \"$want\" with exit 4, then 0 under HARNESS_ACTIVE; got \"$skip_alone\" exit $rc_alone, \"$(cat "$tmp/out")\" exit $rc"
fi

# 9. Every VM tier wrapper skips the same way.
bad=
for w in selftests/vm/bpf_verifier_6_1.t selftests/vm/module/module.t \
	 selftests/vm/datapath/datapath_6_1.t selftests/vm/userspace/cli_module.t; do
	go env HARNESS_ACTIVE=1 HM_VM_QEMU=/nonexistent/qemu-system-x86_64 "$repo/$w"
	[ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] || bad="$bad $w (exit $rc: $(head -n 1 "$tmp/out"))"
done
if [ -z "$bad" ]; then
	pass "every_vm_tier_skips_without_qemu"
else
	flunk "every_vm_tier_skips_without_qemu: expected \"$want\", exit 0 under prove; got:$bad"
fi

# 10. Not root: a TAP skip naming it.
if command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$runsh"; then
	go setpriv --reuid=65534 --regid=65534 --clear-groups "$runsh" --tap "$tmp/one.t"
	if [ "$rc" = 4 ] && [ "$(cat "$tmp/out")" = "1..0 # SKIP needs root (qemu's 9p server reads the whole root file system)" ]; then
		pass "not_root_is_a_skip"
	else
		flunk "not_root_is_a_skip: expected \"1..0 # SKIP needs root ...\", exit 4; got \"$(cat "$tmp/out")\", exit $rc"
	fi
else
	pass "not_root_is_a_skip # SKIP setpriv missing, or uid 65534 cannot read $runsh"
fi

exit $fail
