#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# run.sh - run hopmark test programs inside a qemu VM on Debian 12's 6.1 kernel
#
# Usage: selftests/vm/run.sh [--tap] TEST [TEST...]
#        selftests/vm/run.sh --prepare
#        selftests/vm/run.sh --accel | --probe kvm|tcg   (for selftests/vm/accel.t)
#
# The VM tier of the test plan (Documentation/testing-vm.rst): the running
# kernel cannot load modules and is newer than what Debian 12 ships, so the
# 6.1 verifier and the kernel module are tested in a VM.
#
# 1. Fetch once Debian's kernel image package (the one linux-image-amd64
#    depends on) with apt-get download, extract it with dpkg-deb -x into
#    build/vm/kernel/ and index its modules. Later runs, offline included,
#    reuse it.
# 2. Build build/vm/initramfs.cpio.gz: busybox-static, the virtio/9p/overlay
#    modules from that package, and init (selftests/vm/init.sh).
# 3. Choose the accelerator (below), boot qemu-system-x86_64. The guest
#    mounts the host's / read-only over virtio-9p, puts a tmpfs overlay on it
#    so tests can write, and switch_roots into it. A guest whose init has not
#    printed "hm-vm init: started" on the console within HM_VM_BOOT_TIMEOUT
#    seconds is stopped then, not at HM_VM_TIMEOUT.
# 4. Inside, selftests/vm/job.sh runs every TEST in turn from the repository
#    root. Their stdout and stderr reach the host through a second, writable
#    9p share (a per-run directory under build/vm/), never through the
#    console, so kernel messages cannot interleave with TAP.
#
# Output: the TESTs' stdout on stdout, one after another, as they printed it;
# their stderr on stderr. Exit status: 0 when every TEST exited 0, 4
# (kselftest skip) when every TEST exited 4, 1 when any TEST failed or the
# VM did not finish (boot failure, panic, timeout), 2 on a usage or set-up
# error (bad TEST path, package not fetchable, qemu missing, not root).
#
# --tap: print ONE TAP stream for prove(1) instead: every TEST's test points
# renumbered in sequence and prefixed with the TEST's name, its plan checked
# (a short run is "not ok"), its other lines as "# " diagnostics, then one
# point per TEST for its exit code ("# SKIP" for exit 4), then the plan. Set-up
# errors and a VM that did not finish are "not ok" points too. Exit status 0
# when nothing is "not ok", else 1. A host that cannot run the VM at all (not
# root, qemu or busybox missing) gives "1..0 # SKIP why" and exit 4, or 0
# under prove (HARNESS_ACTIVE set), so the tier counts as skipped.
#
# --prepare: only fetch the kernel and build the initramfs (steps 1 and 2).
# --accel: print the accelerator the VM would use (stdout) and why (stderr).
# --probe ACCEL: boot the probe guest (below) under ACCEL; exit 0 when it
# reached init within HM_VM_PROBE_TIMEOUT, else 1, saying which on stderr.
#
# Accelerator: HM_VM_ACCEL=auto (the default) takes KVM only when it really
# runs a guest here, checking in turn (and stopping at the first failure):
# /dev/kvm opens read-write; the CPU flags in /proc/cpuinfo show vmx or svm
# (a /dev/kvm that opens without them can run no guest); a probe guest (the
# same kernel and initramfs, "hm_probe" on its command line: init prints its
# marker and powers off) prints init's marker under KVM within
# HM_VM_PROBE_TIMEOUT seconds. Else TCG. The probe's verdict is cached for
# the host's boot (/proc/sys/kernel/random/boot_id) in HM_VM_DIR/kvm-probe.
# One line on stderr names the accelerator and, when KVM was refused, the
# check that failed.
#
# Environment:
#   HM_VM_TIMEOUT   seconds before the VM is killed (default 600)
#   HM_VM_BOOT_TIMEOUT  seconds for the guest to reach init (its console
#                   marker) before it is stopped (default 120; a TCG boot
#                   takes 6-20 s, see Documentation/testing-vm.rst)
#   HM_VM_ACCEL     kvm, tcg or auto (default auto, see above)
#   HM_VM_PROBE_TIMEOUT  seconds for the KVM probe guest (default 30)
#   HM_VM_MEM       guest memory (default 1G)
#   HM_VM_SMP       guest CPUs (default 2)
#   HM_VM_KERNEL    kernel package to fetch (default: the one
#                   linux-image-amd64 depends on, as apt-cache sees it)
#   HM_VM_DIR       cache directory (default <repo>/build/vm)
#   HM_VM_VERBOSE   1: copy the guest console to stderr after the run
#   HM_VM_ENV       space-separated names of host variables to pass to TESTs
#   HM_VM_QEMU      the qemu binary (default qemu-system-x86_64)
# For selftests/vm/accel.t, which makes the KVM checks fail on purpose:
#   HM_VM_CPUINFO   file read instead of /proc/cpuinfo for the CPU flags
#   HM_VM_PROBE_QEMU_ARGS  extra qemu arguments for the probe guest only
#                   (e.g. -S: its CPU never runs); set, the cache is unused
#   HM_VM_QEMU_ARGS extra qemu arguments for the test VM (e.g. -S)

set -eu

me=${0##*/}
src_dir=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$src_dir/../.." && pwd)
vm_dir=${HM_VM_DIR:-$repo/build/vm}
timeout_s=${HM_VM_TIMEOUT:-600}
boot_s=${HM_VM_BOOT_TIMEOUT:-120}
probe_s=${HM_VM_PROBE_TIMEOUT:-30}
accel=${HM_VM_ACCEL:-auto}
qemu=${HM_VM_QEMU:-qemu-system-x86_64}
mem=${HM_VM_MEM:-1G}
smp=${HM_VM_SMP:-2}

# In this order: each one's dependencies come before it (see modinfo depends).
BOOT_MODULES="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
virtio_pci netfs fscache 9pnet 9pnet_virtio 9p overlay"

# init.sh prints this on the console as soon as it runs as PID 1.
BOOT_MARKER="hm-vm init: started"

tap=0
mode=run

die() {
	echo "$me: $*" >&2
	if [ "$tap" = 1 ]; then
		echo "1..1"
		echo "not ok 1 - VM set-up: $*"
		exit 1
	fi
	exit 2
}

usage() {
	echo "usage: $me [--tap] TEST [TEST...]   (paths relative to the repository root or absolute)" >&2
	echo "       $me --prepare                 (fetch the kernel, build the initramfs)" >&2
	echo "       $me --accel                   (print the accelerator a run would use)" >&2
	echo "       $me --probe kvm|tcg           (boot the probe guest under one)" >&2
	exit 2
}

# skip REASON - this host cannot run the VM at all. Not a failure of what is
# tested: with --tap a TAP skip that prove(1) counts as one (kselftest: exit
# 4, exit 0 under prove), else a set-up error.
skip() {
	echo "$me: $*" >&2
	if [ "$tap" = 1 ]; then
		echo "1..0 # SKIP $*"
		[ -n "${HARNESS_ACTIVE:-}" ] && exit 0
		exit 4
	fi
	exit 2
}

need() {
	command -v "$1" >/dev/null 2>&1 ||
		die "$1 not found; install Debian package $2 (make deps)"
}

# need_host CMD PACKAGE - like need, but a host without CMD skips the tier.
need_host() {
	command -v "$1" >/dev/null 2>&1 ||
		skip "$1 not found; install Debian package $2 (make deps)"
}

# seconds VALUE NAME - VALUE is a whole number of seconds, or die naming NAME.
seconds() {
	case $1 in
	''|*[!0-9]*) die "$2=$1: give a whole number of seconds" ;;
	esac
}

# log_line first|last FILE - FILE's first or last non-empty line, printable
# characters only (the console holds the firmware's terminal escapes), at
# most 100 of them, for a one-line message.
log_line() {
	l=$(sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' "$2" 2>/dev/null |
	    tr -cd '[:print:]\n' | tr -d '\\' |
	    awk -v w="$1" 'NF { l = $0; if (w == "first") exit } END { print l }' |
	    cut -c 1-100)
	echo "${l:-(empty)}"
}

# watch_boot PID SECONDS CONSOLE - wait for init's marker on CONSOLE while
# process PID (timeout running qemu) lives. Returns 0 once the marker is
# there, 1 when PID ended without it, 2 when SECONDS passed without it (PID
# is then sent SIGTERM, which timeout passes to qemu). Sets boot_at to the
# seconds it waited (to 0.1 s; the marker is looked for every 0.5 s).
watch_boot() {
	wb_t0=$(date +%s%N)
	wb_end=$((wb_t0 + $2 * 1000000000))
	while :; do
		if grep -q "$BOOT_MARKER" "$3" 2>/dev/null; then
			wb=0
			break
		fi
		if ! kill -0 "$1" 2>/dev/null; then
			grep -q "$BOOT_MARKER" "$3" 2>/dev/null && wb=0 || wb=1
			break
		fi
		if [ "$(date +%s%N)" -ge "$wb_end" ]; then
			kill "$1" 2>/dev/null || true
			wb=2
			break
		fi
		sleep 0.5
	done
	boot_at=$(echo "$wb_t0 $(date +%s%N)" | awk '{ printf "%.1f", ($2 - $1) / 1e9 }')
	return $wb
}

# fetch_kernel - make sure $vm_dir/kernel holds an extracted kernel package.
# Prints nothing; sets kver (kernel release) and kimage (vmlinuz path).
fetch_kernel() {
	kdir=$vm_dir/kernel
	if [ -s "$kdir/.hm-release" ] && { [ -z "${HM_VM_KERNEL:-}" ] ||
	   [ "$(cat "$kdir/.hm-package" 2>/dev/null)" = "$HM_VM_KERNEL" ]; }; then
		kver=$(cat "$kdir/.hm-release")
		kimage=$kdir/boot/vmlinuz-$kver
		[ -f "$kimage" ] && return 0
	fi

	need apt-get apt
	need dpkg-deb dpkg
	pkg=${HM_VM_KERNEL:-}
	if [ -z "$pkg" ]; then
		pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		      sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' |
		      head -n 1)
		[ -n "$pkg" ] ||
			die "cannot resolve linux-image-amd64 to a kernel package (apt-cache depends linux-image-amd64 gave none; run apt-get update?)"
	fi

	mkdir -p "$vm_dir/pkg"
	if ! ls "$vm_dir/pkg/${pkg}_"*.deb >/dev/null 2>&1; then
		echo "$me: fetching $pkg (once; cached in $vm_dir/pkg)" >&2
		# apt's _apt user must be able to write there; download in a
		# fresh temporary directory and move the file into place.
		dl=$(mktemp -d)
		chmod 755 "$dl"
		if ! (cd "$dl" && apt-get download -q "$pkg" >"$dl/log" 2>&1); then
			cat "$dl/log" >&2
			rm -rf "$dl"
			die "cannot fetch Debian package $pkg (network or apt sources unavailable?); see apt-get's message above"
		fi
		mv "$dl"/"${pkg}"_*.deb "$vm_dir/pkg/"
		rm -rf "$dl"
	fi
	deb=$(ls "$vm_dir/pkg/${pkg}_"*.deb | tail -n 1)

	echo "$me: extracting $(basename "$deb")" >&2
	rm -rf "$kdir.tmp"
	dpkg-deb -x "$deb" "$kdir.tmp" || die "dpkg-deb -x $deb failed"
	kver=$(ls "$kdir.tmp/lib/modules" | head -n 1)
	[ -n "$kver" ] && [ -f "$kdir.tmp/boot/vmlinuz-$kver" ] ||
		die "$deb holds no /boot/vmlinuz-RELEASE with /lib/modules/RELEASE"
	# The package leaves module indexes to its postinst: build them so
	# modprobe (request_module included) works in the guest.
	if command -v depmod >/dev/null 2>&1; then
		depmod -b "$kdir.tmp" "$kver"
	else
		busybox depmod -b "$kdir.tmp" "$kver"
	fi || die "depmod for $kver failed"
	echo "$kver" >"$kdir.tmp/.hm-release"
	echo "$pkg" >"$kdir.tmp/.hm-package"
	rm -rf "$kdir"
	mv "$kdir.tmp" "$kdir"
	kimage=$kdir/boot/vmlinuz-$kver
}

# build_initramfs - (re)build $vm_dir/initramfs.cpio.gz when missing, older
# than its inputs, or built from another init.sh (a cache restored or shared
# between checkouts: run.sh relies on this init's console marker).
build_initramfs() {
	initrd=$vm_dir/initramfs.cpio.gz
	busybox=$(command -v busybox)
	if [ -f "$initrd" ] && [ "$initrd" -nt "$src_dir/init.sh" ] &&
	   cmp -s "$src_dir/init.sh" "$initrd.init" &&
	   [ "$initrd" -nt "$kdir/.hm-release" ] &&
	   [ "$initrd" -nt "$src_dir/run.sh" ] && [ "$initrd" -nt "$busybox" ]; then
		return 0
	fi
	ldd "$busybox" >/dev/null 2>&1 &&
		die "$busybox is dynamically linked; install busybox-static"

	stage=$(mktemp -d)
	mkdir -p "$stage/bin" "$stage/mod" "$stage/proc" "$stage/sys" \
		"$stage/dev" "$stage/lower" "$stage/rw" "$stage/newroot"
	cp "$busybox" "$stage/bin/busybox"
	# The kernel opens /dev/console for init before devtmpfs is mounted.
	mknod -m 600 "$stage/dev/console" c 5 1 ||
		die "cannot create the initramfs /dev/console (run as root)"
	for m in $BOOT_MODULES; do
		ko=$(find "$kdir/lib/modules/$kver/kernel" -name "$m.ko" | head -n 1)
		[ -n "$ko" ] || die "module $m.ko not in the $kver package"
		cp "$ko" "$stage/mod/"
	done
	echo $BOOT_MODULES >"$stage/modules"
	cp "$src_dir/init.sh" "$stage/init"
	chmod 755 "$stage/init"
	(cd "$stage" && find . | busybox cpio -o -H newc 2>/dev/null) |
		gzip -1 >"$initrd.tmp" || die "cannot build $initrd"
	cp "$src_dir/init.sh" "$initrd.init"
	mv "$initrd.tmp" "$initrd"
	rm -rf "$stage"
}

# probe_guest ACCEL - boot the probe guest (kernel and initramfs, hm_probe on
# the command line: init prints its marker and powers off) under ACCEL, with
# the CPU model the test VM would get. Returns 0 when init's marker reached
# the console within HM_VM_PROBE_TIMEOUT seconds (probe_at: how many it
# took), else sets probe_why to why not and returns 1.
probe_guest() {
	pdir=$(mktemp -d "$vm_dir/probe.XXXXXX")
	if [ "$1" = kvm ]; then pcpu=host; else pcpu=max; fi
	# -m 256M -smp 1: init needs little, and the probe must not cost much.
	# $HM_VM_PROBE_QEMU_ARGS is split into words on purpose.
	timeout -k 5 $((probe_s + 10)) "$qemu" \
		-accel "$1" -cpu "$pcpu" -m 256M -smp 1 \
		-nographic -nodefaults -no-reboot -monitor none \
		-serial "file:$pdir/console.log" \
		-kernel "$kimage" -initrd "$initrd" \
		-append "console=ttyS0 quiet loglevel=4 panic=-1 hm_probe" \
		${HM_VM_PROBE_QEMU_ARGS:-} \
		</dev/null >"$pdir/qemu.log" 2>&1 &
	probe_pid=$!
	pr=0
	watch_boot "$probe_pid" "$probe_s" "$pdir/console.log" || pr=$?
	probe_at=$boot_at
	# Booted, the guest powers itself off; no need to wait for that.
	[ "$pr" != 0 ] || kill "$probe_pid" 2>/dev/null || true
	prc=0
	wait "$probe_pid" || prc=$?
	probe_pid=
	case $pr in
	0)	probe_why= ;;
	1)	probe_why="probe guest (accel $1): qemu exited $prc before init ran: $(log_line first "$pdir/qemu.log")" ;;
	*)	probe_why="probe guest (accel $1): init did not print \"$BOOT_MARKER\" in ${probe_s}s; last console line: $(log_line last "$pdir/console.log")" ;;
	esac
	rm -rf "$pdir"
	pdir=
	[ "$pr" = 0 ]
}

# kvm_refusal - set refusal to why KVM cannot run the VM here, one line
# naming the check that failed, or to nothing when it can. Cheapest check
# first, and the probe guest only when the others pass.
kvm_refusal() {
	refusal=
	# -c first: <> would create a missing /dev/kvm as a plain file.
	if ! [ -c /dev/kvm ] || ! (exec 3<>/dev/kvm) 2>/dev/null; then
		refusal="/dev/kvm does not open read-write"
		return 0
	fi
	cpuinfo=${HM_VM_CPUINFO:-/proc/cpuinfo}
	if ! awk '$1 == "flags" {
		for (i = 3; i <= NF; i++) if ($i == "vmx" || $i == "svm") f = 1 }
		END { exit !f }' "$cpuinfo" 2>/dev/null; then
		refusal="/dev/kvm opens but the CPU flags in $cpuinfo show neither vmx nor svm"
		return 0
	fi
	# A probe boot costs up to HM_VM_PROBE_TIMEOUT; its verdict holds until
	# the host reboots, or another kernel or qemu is used.
	key="$(cat /proc/sys/kernel/random/boot_id 2>/dev/null) $kver $(command -v "$qemu")"
	cache=$vm_dir/kvm-probe
	if [ -z "${HM_VM_PROBE_QEMU_ARGS:-}" ] && [ -f "$cache" ] &&
	   [ "$(head -n 1 "$cache")" = "$key" ]; then
		refusal=$(sed -n 2p "$cache")
		[ "$refusal" != ok ] || refusal=
		[ -z "$refusal" ] ||
			refusal="$refusal (cached in $cache until the host reboots)"
		return 0
	fi
	probe_guest kvm || refusal=$probe_why
	if [ -z "${HM_VM_PROBE_QEMU_ARGS:-}" ]; then
		printf '%s\n%s\n' "$key" "${refusal:-ok}" >"$cache.tmp"
		mv "$cache.tmp" "$cache"
	fi
}

# choose_accel - set accel (kvm or tcg) from HM_VM_ACCEL and say why on stderr.
choose_accel() {
	case $accel in
	auto)	kvm_refusal
		if [ -n "$refusal" ]; then
			accel=tcg
			echo "$me: accel tcg (HM_VM_ACCEL=auto; KVM refused: $refusal)" >&2
		else
			accel=kvm
			echo "$me: accel kvm (HM_VM_ACCEL=auto; /dev/kvm opens, CPU has vmx or svm, KVM probe guest reached init)" >&2
		fi ;;
	kvm|tcg) echo "$me: accel $accel (HM_VM_ACCEL=$accel)" >&2 ;;
	*)	die "HM_VM_ACCEL=$accel: use kvm, tcg or auto" ;;
	esac
}

case ${1:-} in
-h|--help|'') usage ;;
--tap)	tap=1; shift; [ $# -ge 1 ] || usage ;;
--prepare) mode=prepare; shift ;;
--accel) mode=accel; shift ;;
--probe) mode=probe; probe_accel=${2:-}; shift $#
	case $probe_accel in kvm|tcg) ;; *) usage ;; esac ;;
esac
[ "$mode" = run ] || set --
seconds "$timeout_s" HM_VM_TIMEOUT
seconds "$boot_s" HM_VM_BOOT_TIMEOUT
seconds "$probe_s" HM_VM_PROBE_TIMEOUT

# What this host must have to boot the VM at all; without it the tier is
# skipped, not failed.
[ "$(id -u)" = 0 ] ||
	skip "needs root (qemu's 9p server reads the whole root file system)"
need_host "$qemu" qemu-system-x86
need_host busybox busybox-static
need timeout coreutils
need flock util-linux

# Resolve every TEST on the host, before paying for a boot.
tests=
for t in "$@"; do
	case $t in
	/*) p=$t ;;
	*) if [ -e "$repo/$t" ]; then p=$repo/$t; else p=$(pwd)/$t; fi ;;
	esac
	[ -f "$p" ] && [ -x "$p" ] || die "$t: no such executable test"
	case $p in
	*[[:space:]]*) die "$t: path must not contain white space" ;;
	/run/*|/proc/*|/sys/*|/dev/*)
		die "$t: the VM mounts fresh ${p%${p#/*/}} file systems; put the TEST in the repository" ;;
	esac
	tests="$tests $p"
done

case $vm_dir/ in
/run/*) die "HM_VM_DIR=$vm_dir: the VM mounts a fresh /run; use a directory elsewhere" ;;
esac
mkdir -p "$vm_dir"
# One fetch and one initramfs build at a time; boots run in parallel.
exec 9>"$vm_dir/.lock"
probe_pid=
qemu_pid=
pdir=
run=
# No qemu outlives run.sh, however it ends.
cleanup() {
	for pid in $probe_pid $qemu_pid; do
		kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	rm -rf ${pdir:+"$pdir"} ${run:+"$run"}
}
trap cleanup EXIT
trap 'exit 130' INT TERM

flock 9
fetch_kernel
build_initramfs
case $mode in
prepare)
	echo "$me: ready: $kimage, $initrd" >&2
	exit 0 ;;
probe)
	flock -u 9
	if probe_guest "$probe_accel"; then
		echo "$me: probe guest (accel $probe_accel): reached init in ${probe_at}s" >&2
		exit 0
	fi
	echo "$me: $probe_why" >&2
	exit 1 ;;
esac
# Still under the lock: runs started together probe KVM once.
choose_accel
flock -u 9
if [ "$mode" = accel ]; then
	echo "$accel"
	exit 0
fi
if [ "$accel" = kvm ]; then cpu=host; else cpu=max; fi

run=$(mktemp -d "$vm_dir/run.XXXXXX")
chmod 755 "$run"

# The guest's job: what to run and with what environment.
{
	echo "HM_REPO='$repo'"
	echo "HM_VM_RUN='$run'"
	echo "HM_VM_TESTS='${tests# }'"
	echo "HM_VM_KMOD='$vm_dir/kernel/lib/modules/$kver'"
	for v in ${HM_VM_ENV:-}; do
		eval "val=\${$v-}"
		printf "export %s='%s'\n" "$v" "$(printf %s "$val" | sed "s/'/'\\\\''/g")"
	done
} >"$run/job.env"
cp "$src_dir/job.sh" "$run/job.sh"

start=$(date +%s.%N)
# $HM_VM_QEMU_ARGS is split into words on purpose.
timeout -k 10 "$timeout_s" "$qemu" \
	-accel "$accel" -cpu "$cpu" -m "$mem" -smp "$smp" \
	-nographic -nodefaults -no-reboot -monitor none \
	-serial "file:$run/console.log" \
	-kernel "$kimage" -initrd "$initrd" \
	-append "console=ttyS0 quiet loglevel=4 panic=-1 oops=panic hm_run=$run" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-virtfs local,path="$run",mount_tag=hmrun,security_model=none,multidevs=remap \
	-device virtio-rng-pci ${HM_VM_QEMU_ARGS:-} \
	</dev/null >"$run/qemu.log" 2>&1 &
qemu_pid=$!
# A guest that never reaches init (KVM that runs no guest, a hung firmware)
# is stopped after HM_VM_BOOT_TIMEOUT, not after HM_VM_TIMEOUT.
wr=0
watch_boot "$qemu_pid" "$boot_s" "$run/console.log" || wr=$?
rc=0
wait "$qemu_pid" || rc=$?
qemu_pid=
end=$(date +%s.%N)
if [ "$wr" = 0 ]; then
	init="init after ${boot_at}s, "
else
	init=
fi
if [ -f "$run/booted" ]; then
	booted=$(stat -c %.3Y "$run/booted")
	boot=$(echo "$start $booted" | awk '{ printf "%.1fs", $2 - $1 }')
	boot="$boot (kernel $(cat "$run/booted")s)"
else
	boot="not booted"
fi
elapsed=$(echo "$start $end" | awk '{ printf "%.1fs", $2 - $1 }')

done_line=$(grep '^HM_VM_DONE' "$run/status" 2>/dev/null || true)
if [ "$wr" = 2 ]; then
	if [ "$accel" = kvm ]; then
		cause="KVM opened but ran no guest; use HM_VM_ACCEL=tcg"
	else
		cause="the guest kernel did not reach init; an overloaded host? raise HM_VM_BOOT_TIMEOUT"
	fi
	vm_error="guest made no console progress in ${boot_s}s (HM_VM_BOOT_TIMEOUT, accel $accel): $cause; last console line: $(log_line last "$run/console.log")"
elif [ -z "$done_line" ]; then
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		vm_error="VM killed after ${timeout_s}s (HM_VM_TIMEOUT)"
	else
		vm_error="VM stopped (qemu exit $rc) before the tests finished"
	fi
else
	vm_error=
fi

i=0
for t in $tests; do
	i=$((i + 1))
	[ -f "$run/err.$i" ] && cat "$run/err.$i" >&2
done
if [ "$tap" = 0 ]; then
	i=0
	for t in $tests; do
		i=$((i + 1))
		[ -f "$run/out.$i" ] && cat "$run/out.$i"
	done
fi

if [ "${HM_VM_VERBOSE:-0}" = 1 ] || [ -n "$vm_error" ]; then
	echo "$me: ---- guest console (${vm_error:-ok}) ----" >&2
	tail -n 40 "$run/console.log" >&2 2>/dev/null || true
	cat "$run/qemu.log" >&2 2>/dev/null || true
fi

release=$(cat "$vm_dir/kernel/.hm-release")
echo "$me: $release, $accel: ${init}boot to first TEST $boot, whole VM $elapsed" >&2

if [ "$tap" = 1 ]; then
	# Merge the TESTs' TAP into one stream; see --tap above.
	i=0
	for t in $tests; do
		i=$((i + 1))
		res=$(awk -v n="$i" '$1 == "HM_VM_RESULT" && $3 == n { print $2 }' \
			"$run/status" 2>/dev/null || true)
		echo "TEST $i ${res:-none} ${t#$repo/}"
		[ -f "$run/out.$i" ] && cat "$run/out.$i"
	done | awk -v vm_error="$vm_error" -v release="$release" '
	function finish() {
		if (name == "")
			return
		if (rc == "none") {
			printf "not ok %d - %s: did not finish: %s\n", ++n, name, vm_error
			bad++
		} else if (rc == 4 && points == 0) {
			printf "ok %d - %s # SKIP %s\n", ++n, name,
				skip_why != "" ? skip_why : "exit 4"
		} else if (rc != 0 && rc != 4) {
			printf "not ok %d - %s: exit %d on %s\n", ++n, name, rc, release
			bad++
		} else if (plan != "" && plan != points && !(plan == 0 && points == 0)) {
			printf "not ok %d - %s: planned %d tests, ran %d\n", ++n, name, plan, points
			bad++
		} else if (plan == "" && skip_why == "") {
			printf "not ok %d - %s: printed no TAP plan\n", ++n, name
			bad++
		} else {
			printf "ok %d - %s: exit %d on %s%s\n", ++n, name, rc, release,
				rc == 4 ? " # SKIP " skip_why : ""
		}
	}
	/^TEST [0-9]+ / {
		finish()
		rc = $3; name = $4; plan = ""; points = 0; skip_why = ""
		next
	}
	/^1\.\.[0-9]+/ {
		plan = $1; sub(/^1\.\./, "", plan); plan += 0
		if (match($0, /#[ \t]*[Ss][Kk][Ii][Pp][ \t]*/))
			skip_why = substr($0, RSTART + RLENGTH)
		if (skip_why == "" && plan == 0)
			skip_why = "no tests"
		next
	}
	/^(not )?ok([ \t]|$)/ {
		points++
		notok = ($1 == "not")
		line = $0
		sub(/^(not )?ok[ \t]*/, "", line)
		sub(/^[0-9]+[ \t]*/, "", line)
		sub(/^-[ \t]*/, "", line)
		printf "%s %d - %s: %s\n", notok ? "not ok" : "ok", ++n, name, line
		if (notok && line !~ /#[ \t]*[Tt][Oo][Dd][Oo]/)
			bad++
		next
	}
	/^Bail out!/ {
		printf "not ok %d - %s: %s\n", ++n, name, $0
		bad++
		next
	}
	/^#/ { print; next }
	/^TAP version/ { next }
	{ print "# " $0 }
	END {
		finish()
		if (n == 0) {
			printf "not ok %d - no TEST output at all\n", ++n
			bad++
		}
		printf "1..%d\n", n
		exit bad ? 1 : 0
	}'
	exit $?
fi

if [ -n "$vm_error" ]; then
	echo "$me: $vm_error" >&2
	exit 1
fi

# status holds "HM_VM_RESULT RC N TEST" per TEST, then "HM_VM_DONE".
verdict=$(awk '
	$1 == "HM_VM_RESULT" { n++; if ($2 == 4) skip++; else if ($2 != 0) bad++ }
	END { if (n == 0 || bad) print 1; else if (skip == n) print 4; else print 0 }
' "$run/status")
awk -v me="$me" '$1 == "HM_VM_RESULT" && $2 != 0 {
	printf "%s: %s exited %s in the VM\n", me, $4, $2 }' "$run/status" >&2
exit "$verdict"
