#!/bin/busybox sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# init - PID 1 of the hopmark VM initramfs (built by selftests/vm/run.sh)
#
# Loads the virtio/9p/overlay modules by path in dependency order (no
# modules.dep needed), mounts the host's / (9p tag hostroot, read-only) under
# a tmpfs overlay, mounts the per-run share (tag hmrun) at the host path given
# as hm_run= on the kernel command line, mounts the pseudo file systems tests
# need, and switch_roots into job.sh. switch_root, not chroot: the kernel runs
# modprobe for request_module() in PID 1's root, which must be the host's.
# Any failure powers the VM off; run.sh then reports it with the console.
#
# Its first line on the console, "hm-vm init: started", tells run.sh that
# the guest kernel booted and ran PID 1: run.sh stops a VM that does not
# print it within HM_VM_BOOT_TIMEOUT. With hm_probe on the kernel command
# line (run.sh's KVM probe guest) init powers off right after it.

echo "hm-vm init: started" >/dev/console

/bin/busybox --install -s /bin
export PATH=/bin

fail() {
	echo "hm-vm init: $*" >/dev/console
	poweroff -f
	echo o >/proc/sysrq-trigger
	while :; do :; done
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

case " $(cat /proc/cmdline) " in
*" hm_probe "*)
	echo "hm-vm init: probe done, powering off" >/dev/console
	poweroff -f
	echo o >/proc/sysrq-trigger
	while :; do :; done
	;;
esac

for m in $(cat /modules); do
	insmod "/mod/$m.ko" || fail "insmod $m.ko failed"
done

run=$(sed -n 's/.* hm_run=\([^ ]*\).*/\1/p' /proc/cmdline)
[ -n "$run" ] || fail "no hm_run= on the kernel command line"

p9=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o "$p9,cache=loose,ro" hostroot /lower ||
	fail "cannot mount the host root (9p tag hostroot)"
mount -t tmpfs -o mode=755 tmpfs /rw || fail "cannot mount the overlay tmpfs"
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work \
	overlay /newroot || fail "cannot mount the overlay"
mount -t 9p -o "$p9" hmrun "/newroot$run" ||
	fail "cannot mount the run directory (9p tag hmrun) on $run"

r=/newroot
mount -t proc proc $r/proc || fail "proc"
mount -t sysfs sysfs $r/sys || fail "sysfs"
mount -t devtmpfs devtmpfs $r/dev || fail "devtmpfs"
mkdir -p $r/dev/pts $r/dev/shm
mount -t devpts -o newinstance,ptmxmode=0666 devpts $r/dev/pts
mount -t tmpfs -o mode=1777 tmpfs $r/dev/shm
mount -t bpf -o mode=700 bpf $r/sys/fs/bpf || fail "bpffs"
mount -t tracefs tracefs $r/sys/kernel/tracing
mount -t debugfs debugfs $r/sys/kernel/debug
mount -t cgroup2 cgroup2 $r/sys/fs/cgroup
mount -t tmpfs -o mode=755 tmpfs $r/run || fail "tmpfs /run"

umount /proc /sys /dev 2>/dev/null
exec switch_root /newroot /bin/sh "$run/job.sh" "$run"
