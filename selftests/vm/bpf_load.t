#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# bpf_load.t - every BPF object of bpf/ loads and passes the running verifier
#
# For each bpf/NAME.bpf.c, build/bpf/NAME.bpf.o (built by `make bpf`) must
# exist and `bpftool prog loadall` must load it: every program through the
# verifier, every map created (maps pinned by name share one pin, as they do
# when stock tc loads the objects on one node). One TAP point per object;
# a diagnostic per program with its translated and JITed size. On a
# rejection, the head and tail of the verifier log as TAP diagnostics.
#
# The pins go to a fresh bpffs on /sys/fs/bpf in a private mount namespace
# (unshare -m): libbpf pins maps by name under /sys/fs/bpf, and the host's
# must not change. Written for the VM tier (selftests/vm/run.sh: Debian 12's
# 6.1 verifier) but runs on any kernel as root. Exit 0 all loaded, 1 a
# failure, 4 (skip) when not root or bpftool/unshare is missing.

repo=$(cd "$(dirname "$0")/../.." && pwd)
objdir=${HM_BPF_OBJDIR:-$repo/build/bpf}

if [ "$(id -u)" != 0 ] || ! command -v bpftool >/dev/null 2>&1; then
	echo "1..0 # SKIP needs root and bpftool"
	exit 4
fi
if [ -z "${HM_BPF_LOAD_PRIVATE:-}" ]; then
	command -v unshare >/dev/null 2>&1 || {
		echo "1..0 # SKIP needs unshare (util-linux)"
		exit 4
	}
	HM_BPF_LOAD_PRIVATE=1 exec unshare -m --propagation private "$0" "$@"
fi
mount -t bpf bpf /sys/fs/bpf || {
	echo "1..0 # SKIP cannot mount a bpffs on /sys/fs/bpf"
	exit 4
}

pin=/sys/fs/bpf/hm-vm-load
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$pin"

names=
for src in "$repo"/bpf/*.bpf.c; do
	[ -f "$src" ] || continue
	n=${src##*/}
	names="$names ${n%.bpf.c}"
done
if [ -z "$names" ]; then
	echo "1..1"
	echo "not ok 1 - no bpf/*.bpf.c sources in $repo"
	exit 1
fi

fail=0
n=0
out=
for name in $names; do
	obj=$objdir/$name.bpf.o
	n=$((n + 1))
	if [ ! -f "$obj" ]; then
		out="$out
not ok $n - $name.bpf.o loads on $(uname -r): $obj missing (make bpf)"
		fail=1
		continue
	fi
	dir=$pin/$name
	if bpftool prog loadall "$obj" "$dir" >"$work/log" 2>&1; then
		progs=$(ls "$dir" 2>/dev/null | wc -l)
		out="$out
ok $n - $name.bpf.o loads on $(uname -r) ($progs programs)"
		for p in $(ls "$dir" 2>/dev/null); do
			info=$(bpftool prog show pinned "$dir/$p" 2>/dev/null |
			       sed -n 's/.*\(xlated [0-9]*B\).*\(jited [0-9]*B\).*/\1 \2/p')
			out="$out
# $name/$p: ${info:-no info}"
		done
	else
		fail=1
		lines=$(wc -l <"$work/log")
		out="$out
not ok $n - $name.bpf.o loads on $(uname -r)
# bpftool prog loadall $obj ($lines lines, first 12 and last 25):
$(head -n 12 "$work/log" | sed 's/^/#   /')
#   ...
$(tail -n 25 "$work/log" | sed 's/^/#   /')"
	fi
done

echo "1..$n"
printf '%s\n' "$out" | sed '/^$/d'
exit $fail
