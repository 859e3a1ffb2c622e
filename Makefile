# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# hopmark top-level build. Each component adds its rules in <dir>/build.mk;
# every generated file goes under $(BUILD) and is never committed.
#
#   make            build the BPF objects, libhopmark, hopmark and hopmarkd
#   make deps       install the Debian packages the build, demo and tests need
#   make demo       install what is missing, build, run the 5-node IOAM demo
#   make check      install what is missing, build, run every test tier
#   make install    PREFIX=/usr/local DESTDIR= (see README.md)

PREFIX		?= /usr/local
DESTDIR		?=
SBINDIR		?= $(PREFIX)/sbin
LIBDIR		?= $(PREFIX)/lib
BPFDIR		?= $(LIBDIR)/hopmark/bpf
MANDIR		?= $(PREFIX)/share/man
UNITDIR		?= $(LIBDIR)/systemd/system

BUILD		:= $(CURDIR)/build
CC		?= gcc
CLANG		?= clang
BPFTOOL		?= bpftool
MULTIARCH	:= $(shell $(CC) -print-multiarch 2>/dev/null)

CFLAGS		?= -O2 -g
HM_CFLAGS	:= $(CFLAGS) -Wall -Wextra -Wno-unused-parameter -std=gnu11 \
		   -D_GNU_SOURCE -I$(CURDIR)/lib -I$(BUILD) \
		   -DHM_BPF_DIR='"$(BPFDIR)"'
HM_LDLIBS	:= -lbpf -lelf -lz -ljson-c -lpcap -lmnl
BPF_CFLAGS	:= -O2 -g -target bpf -Wall -Wno-unused-function \
		   -I/usr/include/$(MULTIARCH) -I$(CURDIR)/lib -I$(CURDIR)/bpf

# Debian 12 packages for building, the demo and every test tier
# (libclang-rt-14-dev: clang's libFuzzer, which fuzz_smoke.sh needs).
DEB_PKGS	:= make gcc clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev \
		   libmnl-dev libpcap-dev libcmocka-dev libjson-c-dev pkg-config \
		   iproute2 ethtool tcpdump tshark iperf3 socat procps iputils-ping nftables \
		   perl python3 qemu-system-x86 busybox-static linux-headers-amd64 \
		   libclang-rt-14-dev \
		   libfixbuf-dev libfixbuf-tools pmacct nfdump nats-server libnats-dev \
		   libmicrohttpd-dev prometheus postgresql libpq-dev curl

.PHONY: all deps demo check install clean
HM_TESTS	:=
HM_TEST_DEPS	:=
all:

# libhopmark: each folder adds its sources, then lib/build.mk archives them.
include lib/common/build.mk
include lib/ipv6/build.mk
include lib/ioam/build.mk
include lib/postcard/build.mk
include lib/pint/build.mk
include lib/int/build.mk
include lib/budget/build.mk
include lib/select/build.mk
include lib/pbt/build.mk
include lib/ipfix/build.mk
include lib/build.mk
include bpf/build.mk
include iproute2-ext/build.mk
include agent/build.mk
include collector/build.mk
include kernel/build.mk
include bench/build.mk
include fuzz/build.mk
include selftests/build.mk

deps:
	@missing=$$(for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $$missing; \
	fi

install: all install-bpf install-cli install-agent

$(BUILD) $(BUILD)/bpf $(BUILD)/obj:
	mkdir -p $@

clean:
	rm -rf $(BUILD)
