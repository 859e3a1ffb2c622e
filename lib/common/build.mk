# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/common/: what every part of libhopmark and every program shares:
# the pinned maps and their names (hopmark_maps.h, bpf_pin.c), the kernel
# module's generic netlink family (hopmark_genl.h) and the client of it
# every program uses (genl.c, libmnl), run-time paths and tc handles
# (hopmark_run.h), loading and attaching the BPF programs per role
# (bpf_attach.c), time formatting, byte order and Ethernet.

# prom.c needs libmicrohttpd: it is not in libhopmark.a (see below).
HM_PROM_SRCS	:= lib/common/prom.c
HM_LIB_SRCS	+= $(filter-out $(HM_PROM_SRCS),$(wildcard lib/common/*.c))
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

# Prometheus metrics (prom.h): build/libhopmark-prom.a, an archive of its
# own so that only the programs serving metrics (hopmarkd, hopmark-collector)
# link libmicrohttpd; they add $(HM_PROM_LDLIBS).
HM_PROM_LIB	:= $(BUILD)/libhopmark-prom.a
HM_PROM_OBJS	:= $(patsubst lib/%.c,$(BUILD)/obj/lib/%.o,$(HM_PROM_SRCS))
HM_PROM_CFLAGS	:= $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
HM_PROM_LDLIBS	:= $(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd) \
		   -lpthread -lm
all: $(HM_PROM_LIB)

$(HM_PROM_OBJS): HM_CFLAGS += $(HM_PROM_CFLAGS)

$(HM_PROM_LIB): $(HM_PROM_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# Its unit test links the archive and libmicrohttpd (the pattern rule of
# lib/build.mk links libhopmark.a only).
$(BUILD)/tests/lib/test_prom: lib/tests/test_prom.c lib/tests/hm_test.h $(HM_PROM_LIB) \
		$(BUILD)/libhopmark.a
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) -Ilib/tests $< -o $@ $(HM_PROM_LIB) $(BUILD)/libhopmark.a \
		-lcmocka $(HM_LDLIBS) $(HM_PROM_LDLIBS)
