# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/common/: what every part of libhopmark and every program shares:
# the pinned maps and their names (hopmark_maps.h, bpf_pin.c), the kernel
# module's generic netlink family (hopmark_genl.h) and the client of it
# every program uses (genl.c, libmnl), run-time paths and tc handles
# (hopmark_run.h), loading and attaching the BPF programs per role
# (bpf_attach.c), time formatting, byte order and Ethernet.

HM_LIB_SRCS	+= $(wildcard lib/common/*.c)
# The names of the module's counters and event types, for programs built
# without libhopmark (the VM tier's netlink test clients): compile this
# source with them.
HM_GENL_NAMES	:= lib/common/hopmark_genl_names.c lib/common/hopmark_genl_names.h \
		   lib/common/hopmark_genl.h

# The maps-only object is embedded through its skeleton; bpf_attach.o
# embeds the programs' objects. A binary links those archive members only
# when it calls into them (the CLI), not the tests and benchmarks that just
# read maps or decode.
$(BUILD)/obj/lib/common/bpf_pin.o: $(BUILD)/bpf/hopmark_maps.skel.h
$(BUILD)/obj/lib/common/bpf_attach.o: $(BUILD)/bpf/hopmark_encap.skel.h \
	$(BUILD)/bpf/hopmark_transit.skel.h $(BUILD)/bpf/hopmark_decap.skel.h \
	$(BUILD)/bpf/pint.skel.h $(BUILD)/bpf/hopmark_int.skel.h \
	$(BUILD)/bpf/hopmark_int_drop.skel.h $(BUILD)/bpf/hopmark_int_xdp.skel.h \
	$(BUILD)/bpf/hopmark_pbt.skel.h
