#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# job.sh - PID 1 of the hopmark VM after switch_root: run the TESTs
#
# Usage (by selftests/vm/init.sh): job.sh RUN_DIR
#
# RUN_DIR is the host's per-run directory, shared writable over 9p. job.env
# there names the repository (HM_REPO) and the TESTs (HM_VM_TESTS). The Nth
# TEST (from 1) runs from HM_REPO with stdin /dev/null, stdout to
# RUN_DIR/out.N and stderr to RUN_DIR/err.N; its exit code goes to
# RUN_DIR/status as "HM_VM_RESULT RC N TEST". "HM_VM_DONE RELEASE" ends
# status, then the VM powers off. run.sh turns status into its exit code.

run=$1
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LC_ALL=C.UTF-8
. "$run/job.env"
export HM_VM=1 HM_REPO

# reboot(2) powers off before it returns; sysrq "o" only schedules it, and
# PID 1 must not exit meanwhile (a panic) nor page in code from 9p, whose
# device is being shut down.
poweroff_now() {
	sync
	busybox poweroff -f
	echo o >/proc/sysrq-trigger
	while :; do :; done
}
trap poweroff_now EXIT

hostname hm-vm 2>/dev/null || echo hm-vm >/proc/sys/kernel/hostname
ip link set lo up 2>/dev/null || busybox ip link set lo up

# request_module() and modprobe(8) both work on the 6.1 package's modules,
# indexed by run.sh and bound on /lib/modules/RELEASE (the host has none for
# this kernel). Without kmod on the host, busybox's modprobe does it.
kmod=/lib/modules/$(uname -r)
mkdir -p "$kmod" && mount --bind "$HM_VM_KMOD" "$kmod" ||
	echo "hm-vm: cannot bind $HM_VM_KMOD on $kmod" >/dev/console
modprobe=$(command -v modprobe || true)
if [ -z "$modprobe" ]; then
	modprobe=/usr/local/sbin/modprobe
	mkdir -p /usr/local/sbin
	ln -sf "$(command -v busybox)" "$modprobe"
fi
echo "$modprobe" >/proc/sys/kernel/modprobe

: >"$run/status"
# Its mtime tells run.sh how long the boot took.
cut -d ' ' -f 1 /proc/uptime >"$run/booted"
cd "$HM_REPO" || echo "cannot cd to $HM_REPO" >"$run/err.0"
n=0
for t in $HM_VM_TESTS; do
	n=$((n + 1))
	echo "hm-vm: running $t" >/dev/console
	"$t" </dev/null >"$run/out.$n" 2>"$run/err.$n"
	rc=$?
	echo "HM_VM_RESULT $rc $n $t" >>"$run/status"
	echo "hm-vm: $t exited $rc" >/dev/console
done
echo "HM_VM_DONE $(uname -r)" >>"$run/status"
