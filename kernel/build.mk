# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# hopmark.ko, built with Kbuild against Debian 12's 6.1 kernel headers
# (package linux-headers-amd64; the same release as the kernel the VM tier
# boots, see selftests/vm/run.sh). The sources are copied to
# $(BUILD)/kernel/, and the wire headers of lib/ it includes to
# $(BUILD)/lib/, and built there, so no object lands in kernel/ or lib/.
#
#   make module                 $(BUILD)/kernel/hopmark.ko
#   make module KDIR=/path      against another kernel's build directory
#   make module-clean
#
# KDIR defaults to the newest installed Debian 6.1 amd64 headers.

HM_KVER		?= $(lastword $(sort $(notdir $(wildcard /lib/modules/6.1.*-amd64))))
KDIR		?= /lib/modules/$(HM_KVER)/build
# The libc-free headers of lib/ the module includes ("ioam/ioam6.h", ...).
HM_KMOD_LIB_HDRS := lib/common/hopmark_genl.h lib/common/byteorder.h lib/common/ip_proto.h \
		    lib/ioam/ioam6.h \
		    lib/ipv6/ipv6.h lib/srv6/srh.h
HM_KMOD_SRCS	:= $(wildcard kernel/*.c kernel/*.h) kernel/Kbuild $(HM_KMOD_LIB_HDRS)
HM_KMOD		:= $(BUILD)/kernel/hopmark.ko

.PHONY: module module-clean hm-kmod-always
module: $(HM_KMOD)

# Kbuild decides what is out of date (sources, flags, KDIR): always ask it.
$(HM_KMOD): $(HM_KMOD_SRCS) hm-kmod-always
	@test -f $(KDIR)/Makefile || { echo "KDIR=$(KDIR): no kernel build directory; install linux-headers-amd64 (make deps)" >&2; exit 1; }
	mkdir -p $(BUILD)/kernel
	rm -rf $(BUILD)/kernel/*.c $(BUILD)/kernel/*.h $(BUILD)/lib
	cp kernel/Kbuild kernel/*.c kernel/*.h $(BUILD)/kernel/
	for h in $(HM_KMOD_LIB_HDRS); do mkdir -p $(BUILD)/$$(dirname $$h); cp $$h $(BUILD)/$$h; done
	$(MAKE) -C $(KDIR) M=$(BUILD)/kernel modules

module-clean:
	rm -rf $(BUILD)/kernel
